//! `judge validate`: is this a valid input (for this profile)?

use super::{profile_or_usage, say, PackageArgs, Source};
use crate::error::Error;
use crate::exit;
use std::path::PathBuf;

/// Arguments of `judge validate`.
#[derive(Debug, clap::Args)]
pub struct ValidateArgs {
    /// The problem id.
    #[arg(value_parser = super::parse_id)]
    pub problem: String,
    /// The input file; standard input when absent or `-`. A folder: every
    /// `NAME.in` in it, one line per file on stdout (`NAME.in: ok` or what is
    /// wrong); exit 0 all valid, 1 any invalid, 3 any that cannot be read.
    pub input: Option<PathBuf>,
    /// Check against this generator profile's promises too (e.g. rooks
    /// `large` allows boards up to 100x100, mayan `edge` has only edge
    /// boards) [default: the statement's constraints only].
    #[arg(long, value_name = "PROFILE")]
    pub profile: Option<String>,
    #[command(flatten)]
    pub packages: PackageArgs,
}

/// Exit 0 when valid; else 1 and `file: line L: what is wrong` on stderr;
/// 3 when the file cannot be read (a folder of inputs is the folder form).
pub(super) fn run(args: &ValidateArgs) -> Result<u8, Error> {
    let package = args.packages.load(&args.problem)?;
    if let Some(profile) = &args.profile {
        profile_or_usage(&**package.problem(), profile)?;
    }
    let validate = |input: &str| match &args.profile {
        Some(profile) => package.problem().validate(input, Some(profile)),
        None => package.validate_statement(input),
    };
    if let Some(dir) = args.input.as_deref().filter(|path| path.is_dir()) {
        return Ok(crate::grading::folder::validate(
            &validate,
            dir,
            &mut super::emit_line,
        )?);
    }
    let source = Source::read(args.input.as_deref())?;
    let verdict = source.text().and_then(validate);
    match verdict {
        Ok(()) => Ok(exit::SUCCESS),
        Err(error) => {
            say(&format!("{}: {error}", source.name));
            Ok(crate::grading::folder::input_exit(&error))
        }
    }
}
