//! The `judge` binary: parse the command line, run it, map the result to an exit code.

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = judge::cli::Cli::parse();
    ExitCode::from(judge::cli::run(cli))
}
