//! `judge run`: grade submissions against a problem's tests and random
//! tests, print the per-test table, and write `--json` / `--junit` reports.
//! The command is [`crate::grading::run`]'s one call; this file holds its
//! arguments.
//!
//! Exit codes (docs/commands.md): 0 every verdict AC, 1 some verdict not AC, 2 usage
//! or configuration error (nothing run), 3 the judge failed (a JE verdict,
//! a sandbox or report failure), 130 / 143 stopped by SIGINT / SIGTERM (the
//! reports then hold the submissions that finished).

use super::reports::ReportArgs;
use super::terminal::Terminal;
use super::PackageArgs;
use crate::error::Error;
use crate::exit::Outcome;
use crate::grading::run::{self as grading, RunCommand, RunRequest};
use std::path::PathBuf;

// Arguments of `judge run`.
#[derive(Debug, clap::Args)]
pub(crate) struct RunArgs {
    /// The problem id.
    #[arg(value_parser = super::parse_id)]
    pub(crate) problem: String,
    /// Programs to grade: source files in a configured language, or executables.
    #[arg(required = true, value_name = "SUBMISSION")]
    pub(crate) submissions: Vec<PathBuf>,
    /// Folder of NAME.in + NAME.ans tests, run instead of the package's (and
    /// without random tests unless --random or judge.toml's `random-tests`
    /// asks for them) [default: the package's samples and fixed tests].
    #[arg(long, value_name = "DIR")]
    pub(crate) tests: Option<PathBuf>,
    /// Random tests to add (overrides `random-tests` of judge.toml).
    #[arg(long, value_name = "N")]
    pub(crate) random: Option<u32>,
    /// Master seed of the random tests (overrides judge.toml and problem.toml).
    #[arg(long, value_parser = super::parse_seed, allow_negative_numbers = true, value_name = "S")]
    pub(crate) seed: Option<u64>,
    #[command(flatten)]
    pub(crate) limits: super::LimitArgs,
    /// Write the JSON report here (`-` for stdout, instead of the table).
    #[arg(long, value_name = "FILE")]
    pub(crate) json: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) reports: ReportArgs,
    /// The judge configuration [default: ./judge.toml when it exists, else built-in defaults].
    #[arg(long, value_name = "FILE")]
    pub(crate) config: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) packages: PackageArgs,
}

/// Runs `judge run` and returns its exit code: the order is
/// [`grading::run`]'s, the printing [`Terminal`]'s.
pub(crate) fn run(args: RunArgs) -> Result<Outcome, Error> {
    let command = RunCommand {
        config: args.config.as_deref(),
        problems_dir: args.packages.problems_dir.as_deref(),
        problem: &args.problem,
        request: RunRequest {
            submissions: args.submissions.clone(),
            tests: args.tests.clone(),
            random: args.random,
            seed: args.seed,
            overrides: args.limits.overrides(),
            platform: false,
        },
        reports: args.reports.targets(args.json.as_deref()),
    };
    Ok(grading::run(command, &mut Terminal::default())?)
}
