//! `judge export --kattis <problem> <DIR>`: write one of our packages as a
//! Kattis / ICPC package (see `crate::export` for what is written).

use super::{say, PackageArgs};
use crate::error::Error;
use crate::exit::Outcome;
use crate::grading::export;
use std::path::PathBuf;

// Arguments of `judge export`.
#[derive(Debug, clap::Args)]
pub(crate) struct ExportArgs {
    /// The package to write in the Kattis problem package format, version
    /// 2023-07-draft (a built-in engine's checker becomes an output
    /// validator that runs `judge check`; its example submissions go to
    /// `submissions/<verdict>/`).
    #[arg(long, value_name = "PROBLEM", value_parser = super::parse_id, required = true)]
    pub(crate) kattis: String,
    /// The folder to write; it must not exist or be empty.
    pub(crate) dir: PathBuf,
    #[command(flatten)]
    pub(crate) packages: PackageArgs,
}

/// Writes the package and says where.
pub(super) fn run(args: &ExportArgs) -> Result<Outcome, Error> {
    let package = args.packages.load(&args.kattis)?;
    export::refuse_target(&args.dir)?;
    let config = crate::config::judge::JudgeConfig::load_or_defaults(None)?;
    let exported = crate::export::kattis(&package, &args.dir, &config)?;
    for line in export::lines(&package, &args.dir, &exported) {
        say(&line);
    }
    Ok(Outcome::Success)
}
