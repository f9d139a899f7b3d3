//! The `judge` binary: parse the command line, run it, map the result to an exit code.

use std::process::ExitCode;

fn main() -> ExitCode {
    // Inside a judge's run, a judge would be an answer key: refuse.
    if judge::sandbox::inside_a_run() {
        use std::io::Write as _;
        let _ = writeln!(
            std::io::stderr(),
            "error: judge does not run inside a judge's sandbox"
        );
        return ExitCode::from(2);
    }
    match judge::cli::parse() {
        Ok(cli) => ExitCode::from(judge::cli::run(cli)),
        Err(code) => ExitCode::from(code),
    }
}
