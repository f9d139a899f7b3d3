//! `judge solve`: the reference answer for one input.

use super::{input_error_code, parse_problem, say, write_stdout, PackageArgs, Source};
use crate::exit;
use std::path::PathBuf;

/// Arguments of `judge solve`.
#[derive(Debug, clap::Args)]
pub struct SolveArgs {
    /// The problem id.
    #[arg(value_parser = parse_problem)]
    pub problem: String,
    /// The input file; standard input when absent or `-`.
    pub input: Option<PathBuf>,
    #[command(flatten)]
    pub packages: PackageArgs,
}

/// Prints the answer; an invalid input is exit 1 with `file: line L: ...`.
pub fn run(args: &SolveArgs) -> anyhow::Result<u8> {
    let package = args.packages.load(&args.problem)?;
    let problem = &*package.problem;
    let source = Source::read(args.input.as_deref())?;
    let answer = source.text().and_then(|input| problem.solve(input));
    match answer {
        Ok(answer) => {
            write_stdout(&answer)?;
            Ok(exit::SUCCESS)
        }
        Err(error) if input_error_code(&error) == exit::FAILURE => {
            say(&format!("error: invalid input: {}: {error}", source.name));
            Ok(exit::FAILURE)
        }
        Err(error) => {
            say(&format!("error: {error}"));
            Ok(exit::JUDGE_FAILED)
        }
    }
}
