//! `judge check`: decide one output with the problem's checker (testlib exit
//! codes: 0 AC, 1 WA, 2 PE, 3 checker failure).

use super::PackageArgs;
use crate::error::{CheckError, Error};
use crate::exit::Outcome;
use crate::grading::{settings, validate_solve_check};
use std::path::PathBuf;

// Arguments of `judge check`.
#[derive(Debug, clap::Args)]
pub(crate) struct CheckArgs {
    /// The problem id.
    #[arg(value_parser = super::parse_id)]
    pub(crate) problem: String,
    /// The test's input; or a folder of tests (`NAME.in`, and `NAME.ans` where
    /// the judge's answer is kept).
    pub(crate) input: PathBuf,
    /// The contestant's output; or, with a folder of tests, a folder of
    /// outputs named like the inputs (`NAME.out`, or `NAME`). One line per test
    /// (`NAME VERDICT reason`); the exit code is the first non-AC test's, 3 when
    /// any is JE.
    pub(crate) output: PathBuf,
    /// The judge's answer; without it the checker uses the reference solver.
    pub(crate) answer: Option<PathBuf>,
    /// mayan: accept any valid solution, not only the smallest (overrides
    /// `[checker] lexmin` of problem.toml).
    #[arg(long)]
    pub(crate) any_solution: bool,
    #[command(flatten)]
    pub(crate) packages: PackageArgs,
}

/// Prints `VERDICT reason` and exits with the testlib code. Anything that is
/// not a verdict on the output (a bad `problem.toml`, a file that cannot be
/// read) ends as [`Error::Check`]: `JE reason` and 3, never the 2 of a
/// presentation error.
pub(super) fn run(args: &CheckArgs) -> Result<Outcome, Error> {
    Ok(decide(args)?)
}

fn decide(args: &CheckArgs) -> Result<Outcome, CheckError> {
    let (problem, options) = args.packages.load_problem(&args.problem)?;
    Ok(validate_solve_check::check_path(
        &*problem,
        &args.input,
        &args.output,
        args.answer.as_deref(),
        &settings::check_options(options, args.any_solution),
        &mut super::emit_line,
    )?)
}
