//! `koma`: the one binary. Each subcommand is a thin layer over a library.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = cli::Args::parse();
    let mut stdout = std::io::stdout().lock();
    match cli::run(args, &mut stdout) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("koma: {err}");
            ExitCode::from(err.exit_code())
        }
    }
}
