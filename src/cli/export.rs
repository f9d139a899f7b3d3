//! `judge export --kattis <problem> <DIR>`: write one of our packages as a
//! Kattis / ICPC package (see `crate::export` for what is written);
//! `judge export --gradescope PROBLEM... OUT`: a Gradescope autograder zip
//! (`crate::export::gradescope`).

use super::{say, PackageArgs};
use crate::error::{Error, UsageError};
use crate::exit::Outcome;
use crate::export::command as export;
use std::path::{Path, PathBuf};

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
    if args.gradescope {
        return gradescope(args);
    }
    let (Some(kattis), [dir]) = (&args.kattis, args.targets.as_slice()) else {
        return Err(
            UsageError::new("`judge export --kattis PROBLEM DIR` takes one folder", None).into(),
        );
    };
    let package = args.packages.load(kattis)?;
    export::refuse_target(dir)?;
    let config = crate::config::judge::JudgeConfig::load_or_defaults(None)?;
    let exported = crate::export::kattis(&package, dir, &config)?;
    for line in export::lines(&package, dir, &exported) {
        say(&line);
    }
    Ok(Outcome::Success)
}

fn gradescope(args: &ExportArgs) -> Result<Outcome, Error> {
    let Some((out, problems)) = args.targets.split_last().filter(|(_, p)| !p.is_empty()) else {
        return Err(UsageError::new(
            "`judge export --gradescope PROBLEM... OUT` takes the problems, then the zip",
            Some("judge export --gradescope rooks autograder.zip".to_owned()),
        )
        .into());
    };
    let mut packages = Vec::new();
    for problem in problems {
        let id = crate::package::parse_id(&problem.to_string_lossy())
            .map_err(|bad| UsageError::new(bad.to_string(), None))?;
        // Loading each package checks it exists and is whole before
        // anything is written.
        packages.push(args.packages.load(&id)?);
    }
    if out.is_dir() {
        return Err(UsageError::new(
            format!("`{}` is a folder; name the zip to write", out.display()),
            None,
        )
        .into());
    }
    let config = crate::config::judge::JudgeConfig::load_or_defaults(None)?;
    let languages = crate::export::submission_languages(&args.languages, &config)?;
    let judge = std::env::current_exe().map_err(|source| crate::export::ExportError::Write {
        path: Path::new("judge").to_owned(),
        source,
    })?;
    let written = crate::export::gradescope(
        &packages,
        args.packages.problems_dir.as_deref(),
        &languages,
        args.languages.is_empty(),
        config.gradescope_hidden_tests,
        &judge,
        out,
    )?;
    for warning in &written.warnings {
        say(&format!("warning: {warning}"));
    }
    say(&format!(
        "wrote `{}`: {}",
        written.zip.display(),
        written.files.join(", ")
    ));
    Ok(Outcome::Success)
}
