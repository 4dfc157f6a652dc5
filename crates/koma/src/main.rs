//! `koma`: the one binary. Each subcommand is a thin layer over a library.

mod cli;
mod protocol;
mod serve;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = match cli::Args::parse().into_serve() {
        Ok(serve) => {
            return match serve::run(serve) {
                Ok(()) => ExitCode::SUCCESS,
                Err(err) => {
                    eprintln!("koma serve: {err:#}");
                    ExitCode::FAILURE
                }
            };
        }
        Err(args) => args,
    };
    // Not locked: the engine protocols write from the search thread too.
    let mut stdout = std::io::stdout();
    match cli::run(args, &mut stdout) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("koma: {err}");
            ExitCode::from(err.exit_code())
        }
    }
}
