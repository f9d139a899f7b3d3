//! `judge run`: grade submissions against a problem's tests and random
//! tests, print the per-test table, and write `--json` / `--junit` reports.
//! The grading is [`crate::grading::run`]'s; this file words it.
//!
//! Exit codes (docs/commands.md): 0 every verdict AC, 1 some verdict not AC, 2 usage
//! or configuration error (nothing run), 3 the judge failed (a JE verdict,
//! a sandbox or report failure), 130 / 143 stopped by SIGINT / SIGTERM (the
//! reports then hold the submissions that finished).

use super::reports::ReportArgs;
use super::{announce_isolation, say, say_settings, write_stdout, PackageArgs};
use crate::config::judge::JudgeConfig;
use crate::error::Error;
use crate::exit::Outcome;
use crate::grading::run::{self as grading, RunRequest};
use crate::grading::{class::ClassEvent, progress::Progress};
use crate::interrupt::Cancellation;
use crate::report::{self, progress::GradeBar};
use crate::runner::Event;
use crate::verdict::Verdict;
use std::path::{Path, PathBuf};

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

/// Runs `judge run` and returns its exit code.
pub(crate) fn run(args: RunArgs) -> Result<Outcome, Error> {
    args.reports.check(args.json.as_deref())?;
    let submission_paths: Vec<&Path> = args.submissions.iter().map(PathBuf::as_path).collect();
    args.reports
        .refuse_among(args.json.as_deref(), &submission_paths)?;
    crate::grading::reports::refuse_unwritable_platforms(&args.reports.files())?;
    let config = JudgeConfig::load_or_defaults(args.config.as_deref())?;
    let package = args.packages.load_with(&args.problem, &config)?;
    let request = RunRequest {
        submissions: args.submissions.clone(),
        tests: args.tests.clone(),
        random: args.random,
        seed: args.seed,
        overrides: args.limits.overrides(),
        platform: crate::grading::reports::asks_platform(&args.reports.files()),
    };
    let plan = grading::plan(&request, &config, &package)?;
    // A one-student platform file of several students: refused before
    // anything runs.
    crate::grading::reports::refuse_several_students(&args.reports.files(), &plan.students())?;
    for note in &plan.notes {
        say(&note.line());
    }
    for warning in &plan.resolved.warnings {
        say_settings(warning);
    }

    let cancel = Cancellation::on_signals()?;
    announce_isolation();
    let json_to_stdout = args.reports.to_stdout(args.json.as_deref());
    let (bar, mut progress) = (GradeBar::new(false), Progress::new());
    let outcome = grading::run(&plan, &cancel, &mut |event| {
        progress.observe(&event);
        bar.show(&progress.line());
        if let (ClassEvent::Run(Event::SubmissionFinished { result }), false) =
            (event, json_to_stdout)
        {
            let _ = bar.suspend(|| write_stdout(&report::human::render_submission(result)));
        }
    })?;
    bar.finish();
    crate::grading::reports::write_run(
        &outcome,
        args.json.as_deref(),
        &args.reports.files().with_config(&config),
    )?;
    if let Some(line) = report::human::host_load_warning(outcome.results.iter()) {
        say(&line);
    }
    if let Some(signal) = outcome.stopped_by {
        let lines = report::human::run_interrupted(
            signal.name(),
            outcome.results.len(),
            outcome.asked,
            &outcome.not_graded,
        );
        for line in lines {
            say(&line);
        }
    } else if !json_to_stdout {
        let verdicts: Vec<Verdict> = outcome
            .results
            .iter()
            .map(|result| result.verdict)
            .collect();
        write_stdout(&report::human::run_summary(
            &outcome.selection.describe(),
            &verdicts,
        ))?;
    }
    Ok(outcome.outcome())
}
