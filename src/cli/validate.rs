//! `judge validate`: is this a valid input (for this profile)?

use super::{input_error_code, parse_problem, profile_or_usage, say, PackageArgs, Source};
use crate::exit;
use std::path::PathBuf;

/// Arguments of `judge validate`.
#[derive(Debug, clap::Args)]
pub struct ValidateArgs {
    /// The problem id.
    #[arg(value_parser = parse_problem)]
    pub problem: String,
    /// The input file; standard input when absent or `-`.
    pub input: Option<PathBuf>,
    /// Check against this generator profile's promises (e.g. rooks `large`
    /// allows boards up to 100x100) [default: valid for one of the package's
    /// profiles, as its tests must be].
    #[arg(long, value_name = "PROFILE")]
    pub profile: Option<String>,
    #[command(flatten)]
    pub packages: PackageArgs,
}

/// Exit 0 when valid; else 1 and `file: line L: what is wrong` on stderr.
pub fn run(args: &ValidateArgs) -> anyhow::Result<u8> {
    let package = args.packages.load(&args.problem)?;
    if let Some(profile) = &args.profile {
        profile_or_usage(&*package.problem, profile)?;
    }
    let source = Source::read(args.input.as_deref())?;
    let verdict = source.text().and_then(|input| match &args.profile {
        Some(profile) => package.problem.validate(input, Some(profile)),
        None => package.validate(input),
    });
    match verdict {
        Ok(()) => Ok(exit::SUCCESS),
        Err(error) => {
            say(&format!("{}: {error}", source.name));
            Ok(input_error_code(&error))
        }
    }
}
