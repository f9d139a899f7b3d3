//! The `judge` binary: parse the command line, run it, map the result to an exit code.

use std::process::ExitCode;

fn main() -> ExitCode {
    match judge::cli::parse() {
        Ok(cli) => ExitCode::from(judge::cli::run(cli)),
        Err(code) => ExitCode::from(code),
    }
}
