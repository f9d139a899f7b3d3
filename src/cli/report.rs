//! `judge report`: renders a saved JSON report (`judge grade`, `judge
//! merge` or `judge run --json`) into any report format again, without
//! grading, and with `--baseline` says what changed against an earlier
//! report ([`crate::grading::saved`], [`crate::grading::compare`]).
//!
//! Exit codes: without `--baseline`, those of the run the report is of (0
//! every verdict AC, or every example its folder's; 1 not; 3 a JE), a
//! partial report never 0; with `--baseline`, 0 when nothing regressed, 1
//! when something did, 3 for a JE in the report; 2 when a report cannot be
//! read (not JSON, another version, neither kind of report) or a path
//! cannot be written; 3 when a report file cannot be written.

use super::reports::ReportArgs;
use super::{say, write_stdout};
use crate::error::Error;
use crate::exit::Outcome;
use crate::grading::compare::compare;
use crate::grading::reports::write_report;
use crate::grading::saved::{self, Outputs, Saved};
use crate::report::human;
use crate::report::targets::is_stdout;
use std::path::PathBuf;

// Arguments of `judge report`.
#[derive(Debug, clap::Args)]
pub(crate) struct ReportCommandArgs {
    /// The JSON report to render (`judge grade --json`, `judge merge -o`,
    /// `judge run --json`; `-` reads standard input).
    #[arg(value_name = "REPORT")]
    pub(crate) report: PathBuf,
    /// Write the JSON report again here (`-` for stdout): with
    /// `--student-view`, the report to hand to students.
    #[arg(long, value_name = "FILE")]
    pub(crate) json: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) render: ReportArgs,
    /// Render what students may see: hidden tests (all but the samples)
    /// without their input, expected and actual output.
    #[arg(long)]
    pub(crate) student_view: bool,
    /// Compare with this earlier JSON report (a committed baseline): one
    /// line per (problem, student) that changed, then a summary; exit 1
    /// when something that passed in the baseline does not now.
    #[arg(long, value_name = "OLD")]
    pub(crate) baseline: Option<PathBuf>,
    /// With `--baseline`: write the changes as JSON here (`-` for stdout).
    #[arg(long, value_name = "FILE", requires = "baseline")]
    pub(crate) changes: Option<PathBuf>,
    /// No table: only the summary and warnings.
    #[arg(long, short)]
    pub(crate) quiet: bool,
}

/// Runs `judge report` and returns its exit code.
pub(crate) fn run(args: &ReportCommandArgs) -> Result<Outcome, Error> {
    args.render.check(args.json.as_deref())?;
    let reports_to_stdout = args.render.to_stdout(args.json.as_deref());
    let changes_to_stdout = args.changes.as_deref().is_some_and(is_stdout);
    saved::refuse_outputs(&Outputs {
        report: &args.report,
        baseline: args.baseline.as_deref(),
        json: args.json.as_deref(),
        files: &args.render.files(),
        changes: args.changes.as_deref(),
        reports_to_stdout,
    })?;
    let report = saved::read(&args.report)?;
    let baseline = args.baseline.as_deref().map(saved::read).transpose()?;
    if let (Some(baseline), Some(baseline_path)) = (&baseline, &args.baseline) {
        crate::grading::compare::refuse_other_kinds(
            baseline,
            &baseline_path.display().to_string(),
            &report,
            &args.report.display().to_string(),
        )?;
    }
    for (path, saved) in std::iter::once((&args.report, &report))
        .chain(args.baseline.as_ref().zip(baseline.as_ref()))
    {
        if saved.interrupted() {
            say(&format!(
                "warning: `{}` is a partial report (interrupted): {} pair(s) not graded; \
                 every report rendered from it says so",
                path.display(),
                saved.not_graded().len()
            ));
        }
    }
    let mut failures = report
        .write(
            args.json.as_deref(),
            &args.render.files(),
            args.student_view,
        )
        .into_iter();
    let first_failure = failures.next();
    for failure in failures {
        say(&super::error_line(&failure.into()));
    }
    let to_stdout = reports_to_stdout || changes_to_stdout;
    let outcome = match (&baseline, &args.baseline) {
        (Some(baseline), Some(baseline_path)) => {
            let comparison = compare(
                baseline,
                &baseline_path.display().to_string(),
                &report,
                &args.report.display().to_string(),
            );
            if let Some(path) = &args.changes {
                let text = comparison
                    .json()
                    .map_err(crate::grading::GradingError::RunJson)?;
                write_report(path, &text)?;
            }
            if !to_stdout {
                write_stdout(&lines(comparison.lines()))?;
            }
            comparison.outcome()
        }
        _ => {
            if !to_stdout {
                show(&report, args.quiet, args.student_view)?;
            }
            report.outcome()
        }
    };
    match first_failure {
        Some(failure) => Err(failure.into()),
        None => Ok(outcome),
    }
}

/// The table (unless `quiet`) and the summary of a report, as `judge
/// grade` and `judge run` print them.
fn show(report: &Saved, quiet: bool, student_view: bool) -> Result<(), Error> {
    match report {
        Saved::Grade(graded) => {
            let viewed;
            let graded = if student_view {
                viewed = crate::grading::policy::student_view(graded);
                &viewed
            } else {
                graded
            };
            if !quiet {
                write_stdout(&human::render_grade_table(
                    graded,
                    crate::report::stdout::colour_stdout(),
                ))?;
            }
            write_stdout(&human::render_grade_summary(graded))?;
            for line in human::grade_messages(graded) {
                say(&line);
            }
        }
        Saved::Run(run) => {
            if !quiet {
                for result in &run.results {
                    write_stdout(&human::render_submission(result))?;
                }
            }
            let verdicts: Vec<_> = run.results.iter().map(|result| result.verdict).collect();
            let selection = run
                .tests
                .as_ref()
                .map(|tests| tests.describe())
                .unwrap_or_default();
            let partial = if run.interrupted {
                format!(
                    "partial (interrupted): {} submission(s) not graded\n",
                    run.not_graded.len()
                )
            } else {
                String::new()
            };
            write_stdout(&format!(
                "{partial}{}",
                human::run_summary(&selection, &verdicts)
            ))?;
        }
    }
    Ok(())
}

/// Lines as one text, each ended by a newline.
fn lines(lines: Vec<String>) -> String {
    lines.into_iter().map(|line| line + "\n").collect()
}
