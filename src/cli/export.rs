//! `judge export --kattis <problem> <DIR>`: write one of our packages as a
//! Kattis / ICPC package (see `crate::export` for what is written).

use super::{say, PackageArgs};
use crate::error::{Error, UsageError};
use crate::exit;
use std::path::PathBuf;

/// Arguments of `judge export`.
#[derive(Debug, clap::Args)]
pub struct ExportArgs {
    /// The package to write in the Kattis problem package format, version
    /// 2023-07-draft (a built-in engine's checker becomes an output
    /// validator that runs `judge check`; its example submissions go to
    /// `submissions/<verdict>/`).
    #[arg(long, value_name = "PROBLEM", value_parser = super::parse_id, required = true)]
    pub kattis: String,
    /// The folder to write; it must not exist or be empty.
    pub dir: PathBuf,
    #[command(flatten)]
    pub packages: PackageArgs,
}

/// Writes the package and says where.
pub(super) fn run(args: &ExportArgs) -> Result<u8, Error> {
    let package = args.packages.load(&args.kattis)?;
    if args.dir.exists() && (!args.dir.is_dir() || fs_err::read_dir(&args.dir)?.next().is_some()) {
        return Err(UsageError::new(
            format!("`{}` exists and is not an empty folder", args.dir.display()),
            Some("export into a new folder".to_owned()),
        )
        .into());
    }
    let config = crate::config::judge::JudgeConfig::load_or_defaults(None)?;
    let exported = crate::export::kattis(&package, &args.dir, &config)?;
    for (path, reason) in &exported.left_out {
        say(&format!("not exported: {path}: {reason}"));
    }
    // Only an engine's validators are scripts that call `judge`; a package
    // with programs of its own exports its own.
    let runs_judge = if matches!(package.problem(), crate::package::ProblemRef::Engine(_)) {
        "; its validators run `judge` (on PATH, or $JUDGE)"
    } else {
        "; its validators are the package's own"
    };
    say(&format!(
        "wrote `{}` as a Kattis package (problem format {}) in `{}` ({} files){runs_judge}",
        package.id(),
        crate::export::EXPORT_FORMAT,
        args.dir.display(),
        exported.written.len()
    ));
    if exported.time_limit_ms != package.manifest().limits.time_limit_ms {
        say(&format!(
            "time limit: {} s for every language (Kattis has no per-language factor): the \
             package's {} ms times the largest time-factor of its accepted examples' languages",
            exported.time_limit_ms as f64 / 1000.0,
            package.manifest().limits.time_limit_ms
        ));
    }
    Ok(exit::SUCCESS)
}
