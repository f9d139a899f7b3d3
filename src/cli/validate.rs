//! `judge validate`: is this a valid input (for this profile)?

use super::{parse_problem, profile_or_usage, say, Source};
use crate::exit;
use crate::problems::Problem;
use std::path::PathBuf;

/// Arguments of `judge validate`.
#[derive(Debug, clap::Args)]
pub struct ValidateArgs {
    /// The problem id.
    #[arg(value_parser = parse_problem)]
    pub problem: &'static dyn Problem,
    /// The input file; standard input when absent or `-`. A folder: every
    /// `NAME.in` in it, one line per file on stdout (`NAME.in: ok` or what is
    /// wrong); exit 0 all valid, 1 any invalid, 3 any that cannot be read.
    pub input: Option<PathBuf>,
    /// Also check the promises of this generator profile (e.g. rooks `large`
    /// allows boards up to 100x100; the default is the original constraints).
    #[arg(long, value_name = "PROFILE")]
    pub profile: Option<String>,
}

/// Exit 0 when valid; else 1 and `file: line L: what is wrong` on stderr;
/// 3 when the file cannot be read (a folder of inputs is the folder form).
pub fn run(args: &ValidateArgs) -> anyhow::Result<u8> {
    if let Some(profile) = &args.profile {
        profile_or_usage(args.problem, profile)?;
    }
    if let Some(dir) = args.input.as_deref().filter(|path| path.is_dir()) {
        return super::folder::validate(args.problem, dir, args.profile.as_deref());
    }
    let source = Source::read(args.input.as_deref())?;
    let verdict = source
        .text()
        .and_then(|input| args.problem.validate(input, args.profile.as_deref()));
    match verdict {
        Ok(()) => Ok(exit::SUCCESS),
        Err(error) => {
            say(&format!("{}: {error}", source.name));
            Ok(exit::FAILURE)
        }
    }
}
