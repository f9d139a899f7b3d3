//! `judge solve`: the reference answer for one input, or for every input of
//! a folder.

use super::PackageArgs;
use crate::error::Error;
use crate::exit::Outcome;
use std::path::PathBuf;

// Arguments of `judge solve`.
#[derive(Debug, clap::Args)]
pub(crate) struct SolveArgs {
    /// The problem id.
    #[arg(value_parser = super::parse_id)]
    pub(crate) problem: String,
    /// The input file; standard input when absent or `-`. A folder: writes
    /// `NAME.ans` beside each `NAME.in` where it is missing or stale (differs
    /// from the reference answer), atomically, one line per file on stdout.
    pub(crate) input: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) packages: PackageArgs,
}

/// Prints the answer; an invalid input is exit 1 with `file: line L: ...`,
/// a file that cannot be read exit 3.
pub(super) fn run(args: &SolveArgs) -> Result<Outcome, Error> {
    let (problem, _) = args.packages.load_problem(&args.problem)?;
    Ok(crate::grading::validate_solve_check::solve_path(
        &*problem,
        args.input.as_deref(),
        &mut super::emit_line,
    )?)
}
