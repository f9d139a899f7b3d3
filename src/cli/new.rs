//! `judge new <id>`: scaffold a problem package with programs of its own
//! (a "sum of a list" to start from) that `judge validate`s, `gen`s and
//! grades out of the box.

use super::say;
use crate::error::Error;
use crate::exit::Outcome;
use std::path::PathBuf;

// Arguments of `judge new`.
#[derive(Debug, clap::Args)]
pub(crate) struct NewArgs {
    /// The new package's id (its folder name).
    #[arg(value_parser = super::parse_id)]
    pub(crate) id: String,
    /// Where packages live: the package is written to DIR/<id>/.
    #[arg(long, value_name = "DIR", default_value = "problems")]
    pub(crate) dir: PathBuf,
}

/// Writes the package, refusing to touch an existing folder.
pub(super) fn run(args: &NewArgs) -> Result<Outcome, Error> {
    for line in crate::package::scaffold::create(&args.dir, &args.id)? {
        say(&line);
    }
    Ok(Outcome::Success)
}
