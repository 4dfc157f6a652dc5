//! `koma`: the one binary. Each subcommand is a thin layer over a library.

mod cli;
mod protocol;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = cli::Args::parse();
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
