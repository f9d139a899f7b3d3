//! `judge stress`: random tests against one submission until it fails, then
//! the smallest failing input found by the problem's shrink steps.
//!
//! The search and its wording are [`crate::stress`]'s; this
//! file takes the arguments and prints: the smallest input on stdout,
//! the rest on stderr.
//!
//! Exit codes: 0 no failure in N tests, 1 a failing input was found (or the
//! submission did not compile: CE is the submission's fault, as in `judge
//! run`), 2 usage or configuration error, 3 the judge failed (JE), 130 / 143
//! stopped by SIGINT / SIGTERM (a failing input found before the stop is
//! still printed and written).

use super::{announce_isolation, say, say_settings, write_stdout, PackageArgs};
use crate::config::judge::JudgeConfig;
use crate::error::Error;
use crate::exit::Outcome;
use crate::interrupt::Cancellation;
use crate::stress::{self, StressEvent, StressRequest};
use std::path::PathBuf;

// Arguments of `judge stress`.
#[derive(Debug, clap::Args)]
pub(crate) struct StressArgs {
    /// The problem id.
    #[arg(value_parser = super::parse_id)]
    pub(crate) problem: String,
    /// The program to test: a source file in a configured language, or an executable.
    #[arg(value_name = "SUBMISSION")]
    pub(crate) submission: PathBuf,
    /// Master seed of the random tests (overrides judge.toml and problem.toml).
    #[arg(long, value_parser = super::parse_seed, allow_negative_numbers = true, value_name = "S")]
    pub(crate) seed: Option<u64>,
    /// Random tests to run at most before giving up on finding a failure.
    #[arg(long, value_name = "N", default_value_t = 1000,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub(crate) iterations: u64,
    /// Only this generator profile [default: every profile of the package, in turn].
    #[arg(long, value_name = "PROFILE")]
    pub(crate) profile: Option<String>,
    /// Smaller inputs to try at most while shrinking a failing input; 0 does not shrink.
    #[arg(long, value_name = "N", default_value_t = 500)]
    pub(crate) shrink_runs: usize,
    #[command(flatten)]
    pub(crate) limits: super::LimitArgs,
    /// Also write the smallest failing input and its reference answer to
    /// `DIR/failing.in` and `DIR/failing.ans`.
    #[arg(long, value_name = "DIR")]
    pub(crate) out: Option<PathBuf>,
    /// The judge configuration [default: ./judge.toml when it exists, else built-in defaults].
    #[arg(long, value_name = "FILE")]
    pub(crate) config: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) packages: PackageArgs,
}

/// Runs `judge stress` and returns its exit code.
pub(super) fn run(args: &StressArgs) -> Result<Outcome, Error> {
    let config = JudgeConfig::load_or_defaults(args.config.as_deref())?;
    let package = args
        .packages
        .load_without_answers(&args.problem, Some(&config))?;
    let request = StressRequest {
        config: &config,
        package: &package,
        submission: &args.submission,
        seed: args.seed,
        iterations: args.iterations,
        profile: args.profile.as_deref(),
        shrink_runs: args.shrink_runs,
        overrides: args.limits.overrides(),
        out: args.out.as_deref(),
    };
    let cancel = Cancellation::on_signals()?;
    let mut reporter = crate::report::progress::StressReporter::new();
    let end = stress::stress(&request, &cancel, &mut |event| match event {
        StressEvent::Settings(warning) => reporter.suspend(|| say_settings(warning)),
        StressEvent::Starting => reporter.suspend(announce_isolation),
        StressEvent::Progress(progress) => reporter.show(progress),
        StressEvent::Searched => reporter.finish(),
        StressEvent::Message(line) => reporter.suspend(|| say(&line)),
    })?;
    if let Some(smallest) = &end.smallest {
        write_stdout(smallest)?;
    }
    Ok(end.outcome)
}
