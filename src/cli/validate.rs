//! `judge validate`: is this a valid input (for this profile)?

use super::PackageArgs;
use crate::error::Error;
use crate::exit::Outcome;
use std::path::PathBuf;

// Arguments of `judge validate`.
#[derive(Debug, clap::Args)]
pub(crate) struct ValidateArgs {
    /// The problem id.
    #[arg(value_parser = super::parse_id)]
    pub(crate) problem: String,
    /// The input file; standard input when absent or `-`. A folder: every
    /// `NAME.in` in it, one line per file on stdout (`NAME.in: ok` or what is
    /// wrong); exit 0 all valid, 1 any invalid, 3 any that cannot be read.
    pub(crate) input: Option<PathBuf>,
    /// Check against this generator profile's promises too (e.g. rooks
    /// `large` allows boards up to 100x100, mayan `edge` has only edge
    /// boards) [default: the statement's constraints only].
    #[arg(long, value_name = "PROFILE")]
    pub(crate) profile: Option<String>,
    #[command(flatten)]
    pub(crate) packages: PackageArgs,
}

/// Exit 0 when valid; else 1 and `file: line L: what is wrong` on stderr;
/// 3 when the file cannot be read (a folder of inputs is the folder form).
pub(super) fn run(args: &ValidateArgs) -> Result<Outcome, Error> {
    let package = args.packages.load_without_answers(&args.problem, None)?;
    Ok(crate::grading::validate_solve_check::validate_path(
        &package,
        args.input.as_deref(),
        args.profile.as_deref(),
        &mut super::emit_line,
    )?)
}
