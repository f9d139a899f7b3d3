//! `judge export --kattis <problem> <DIR>`: write one of our packages as a
//! Kattis / ICPC package (see `crate::export` for what is written).

use super::{parse_problem, say, PackageArgs};
use crate::error::{Error, UsageError};
use crate::exit;
use std::path::PathBuf;

/// Arguments of `judge export`.
#[derive(Debug, clap::Args)]
pub struct ExportArgs {
    /// The package to write in the Kattis problem package format (its
    /// checker becomes an output validator that runs `judge check`).
    #[arg(long, value_name = "PROBLEM", value_parser = parse_problem, required = true)]
    pub kattis: String,
    /// The folder to write; it must not exist or be empty.
    pub dir: PathBuf,
    #[command(flatten)]
    pub packages: PackageArgs,
}

/// Writes the package and says where.
pub fn run(args: &ExportArgs) -> Result<u8, Error> {
    let package = args.packages.load(&args.kattis)?;
    if args.dir.exists() && (!args.dir.is_dir() || fs_err::read_dir(&args.dir)?.next().is_some()) {
        return Err(UsageError::new(
            format!("`{}` exists and is not an empty folder", args.dir.display()),
            Some("export into a new folder".to_owned()),
        )
        .into());
    }
    let written = crate::export::kattis(&package, &args.dir)?;
    say(&format!(
        "wrote `{}` as a Kattis package in `{}` ({} files); its validators run `judge` (on PATH, or $JUDGE)",
        package.id,
        args.dir.display(),
        written.len()
    ));
    Ok(exit::SUCCESS)
}
