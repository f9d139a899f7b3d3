//! `judge import --autograding autograding.json DIR`: a GitHub Classroom
//! course's io tests as a package of ours (`crate::package::autograding`
//! says what is written and what is skipped).

use super::say;
use crate::error::Error;
use crate::exit::Outcome;
use std::path::PathBuf;

// Arguments of `judge import`.
#[derive(Debug, clap::Args)]
pub(crate) struct ImportArgs {
    /// GitHub Classroom's `.github/classroom/autograding.json` to import: its
    /// io tests become the package's tests, graded as GitHub Classroom did
    /// (exact, included, regex; points as groups); the others are listed as
    /// skipped with the reason.
    #[arg(long, value_name = "FILE", required = true)]
    pub(crate) autograding: PathBuf,
    /// The package folder to write (it must not exist or be empty); its name
    /// is the problem id.
    #[arg(value_name = "DIR")]
    pub(crate) dir: PathBuf,
}

/// Writes the package and says what was skipped and how to grade with it.
pub(super) fn run(args: &ImportArgs) -> Result<Outcome, Error> {
    for line in crate::package::autograding::import(&args.autograding, &args.dir)? {
        say(&line);
    }
    Ok(Outcome::Success)
}
