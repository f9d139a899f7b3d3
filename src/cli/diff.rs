//! `judge diff`: a unified diff of two files for CI logs (exit 0 same, 1 different).

use super::{write_stdout, Source};
use crate::diff::ColorChoice;
use crate::error::Error;
use crate::exit::Outcome;
use std::path::PathBuf;

// Arguments of `judge diff`.
#[derive(Debug, clap::Args)]
pub(crate) struct DiffArgs {
    /// The expected file.
    pub(crate) expected: PathBuf,
    /// The actual file.
    pub(crate) actual: PathBuf,
    /// Colour the diff: auto (on a terminal, unless NO_COLOR is set), always or never.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub(crate) color: ColorChoice,
}

/// Prints the diff; exit 0 when the files are byte-identical, 1 when they
/// differ, 3 when one cannot be read (missing, a folder, over the read limit).
pub(super) fn run(args: &DiffArgs) -> Result<Outcome, Error> {
    let expected = Source::read(Some(&args.expected))?;
    let actual = Source::read(Some(&args.actual))?;
    let color = args.color.colours(crate::report::stdout::colour_stdout);
    match crate::diff::of_sources(&expected, &actual, color) {
        None => Ok(Outcome::Success),
        Some(diff) => {
            write_stdout(&diff)?;
            Ok(Outcome::Failure)
        }
    }
}
