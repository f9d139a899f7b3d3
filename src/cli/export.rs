//! `judge export --kattis <problem> <DIR>`: write one of our packages as a
//! Kattis / ICPC package (see `crate::export` for what is written);
//! `judge export --gradescope PROBLEM... OUT`: a Gradescope autograder zip
//! (`crate::export::gradescope`).

use super::{say, PackageArgs};
use crate::error::{CliUsageError, Error};
use crate::exit::Outcome;
use crate::export::command as export;
use std::path::PathBuf;

// Arguments of `judge export`.
#[derive(Debug, clap::Args)]
pub(crate) struct ExportArgs {
    /// The package to write in the Kattis problem package format, version
    /// 2023-07-draft (a built-in engine's validators, and a Polygon
    /// package's testlib programs, are carried whole as C++ the judging
    /// host compiles; example submissions go to `submissions/<verdict>/`).
    #[arg(
        long,
        value_name = "PROBLEM",
        value_parser = super::parse_id,
        required_unless_present = "gradescope",
        conflicts_with = "gradescope"
    )]
    pub(crate) kattis: Option<String>,
    /// Write a Gradescope autograder zip for the problems named before OUT:
    /// setup.sh (the compilers from Ubuntu's archive, this judge binary),
    /// run_autograder (grades /autograder/submission and always writes
    /// /autograder/results/results.json) and judge.toml.
    #[arg(long)]
    pub(crate) gradescope: bool,
    /// With --gradescope: the languages hand-ins may be in (judge.toml's
    /// names: `c,cpp,python`), whose toolchains setup.sh installs beside
    /// those of the packages' own programs [default: every configured
    /// language].
    #[arg(
        long,
        value_name = "LANGUAGE,...",
        value_delimiter = ',',
        requires = "gradescope"
    )]
    pub(crate) languages: Vec<String>,
    /// With --kattis: the folder to write (it must not exist or be empty).
    /// With --gradescope: the problems, then the zip to write.
    #[arg(value_name = "DIR | PROBLEM... OUT", required = true, num_args = 1..)]
    pub(crate) targets: Vec<PathBuf>,
    #[command(flatten)]
    pub(crate) packages: PackageArgs,
}

/// Writes the package (or the autograder) and says where.
pub(super) fn run(args: &ExportArgs) -> Result<Outcome, Error> {
    let problems_dir = args.packages.problems_dir.as_deref();
    let lines = if args.gradescope {
        let Some((out, problems)) = args.targets.split_last().filter(|(_, p)| !p.is_empty()) else {
            return Err(CliUsageError::GradescopeTargets.into());
        };
        export::run_gradescope(problems_dir, problems, &args.languages, out)?
    } else {
        let (Some(kattis), [dir]) = (&args.kattis, args.targets.as_slice()) else {
            return Err(CliUsageError::KattisTargets.into());
        };
        export::run_kattis(problems_dir, kattis, dir)?
    };
    for line in &lines {
        say(line);
    }
    Ok(Outcome::Success)
}
