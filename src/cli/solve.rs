//! `judge solve`: the reference answer for one input, or for every input of
//! a folder.

use super::{say, write_stdout, PackageArgs, Source};
use crate::error::Error;
use crate::exit;
use std::path::PathBuf;

/// Arguments of `judge solve`.
#[derive(Debug, clap::Args)]
pub struct SolveArgs {
    /// The problem id.
    #[arg(value_parser = super::parse_id)]
    pub problem: String,
    /// The input file; standard input when absent or `-`. A folder: writes
    /// `NAME.ans` beside each `NAME.in` where it is missing or stale (differs
    /// from the reference answer), atomically, one line per file on stdout.
    pub input: Option<PathBuf>,
    #[command(flatten)]
    pub packages: PackageArgs,
}

/// Prints the answer; an invalid input is exit 1 with `file: line L: ...`,
/// a file that cannot be read exit 3.
pub(super) fn run(args: &SolveArgs) -> Result<u8, Error> {
    let package = args.packages.load(&args.problem)?;
    let problem = &**package.problem();
    if let Some(dir) = args.input.as_deref().filter(|path| path.is_dir()) {
        return Ok(crate::grading::folder::solve(
            problem,
            dir,
            &mut super::emit_line,
        )?);
    }
    let source = Source::read(args.input.as_deref())?;
    let answer = source.text().and_then(|input| problem.solve(input));
    match answer {
        Ok(answer) => {
            write_stdout(&answer)?;
            Ok(exit::SUCCESS)
        }
        Err(error) if crate::grading::folder::input_exit(&error) == exit::FAILURE => {
            say(&format!("error: invalid input: {}: {error}", source.name));
            Ok(exit::FAILURE)
        }
        Err(error) => {
            say(&format!("error: {error}"));
            Ok(exit::JUDGE_FAILED)
        }
    }
}
