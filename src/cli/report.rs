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
use crate::error::{Error, UsageError};
use crate::exit::Outcome;
use crate::grading::compare::compare;
use crate::grading::reports::write_report;
use crate::grading::saved::{self, Saved};
use crate::report::human;
use crate::report::targets::is_stdout;
use std::path::{Path, PathBuf};

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
    if reports_to_stdout && changes_to_stdout {
        return Err(UsageError::new(
            "`--changes -` and another report both write to stdout",
            Some("write one of them to a file".to_owned()),
        )
        .into());
    }
    check_outputs(args)?;
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

/// Checks what the report flags cannot: that `--changes` can be written
/// and has a file of its own, and that no output replaces a report read
/// (a typo in `--csv grade.json` must not destroy the run's only report).
fn check_outputs(args: &ReportCommandArgs) -> Result<(), Error> {
    let files = args.render.files();
    let mut outputs: Vec<(String, &Path)> = files
        .files
        .iter()
        .map(|(format, path)| (format.flag(), *path))
        .collect();
    outputs.extend(args.json.as_deref().map(|path| ("--json".to_owned(), path)));
    let inputs: Vec<PathBuf> = std::iter::once(args.report.as_path())
        .chain(args.baseline.as_deref())
        .filter_map(|path| fs_err::canonicalize(path).ok())
        .collect();
    let same_file = |path: &Path| {
        let parent = match path.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent,
            _ => Path::new("."),
        };
        fs_err::canonicalize(parent)
            .ok()
            .zip(path.file_name())
            .is_some_and(|(parent, name)| inputs.contains(&parent.join(name)))
    };
    if let Some(changes) = args.changes.as_deref().filter(|path| !is_stdout(path)) {
        if let Some((flag, _)) = outputs.iter().find(|(_, path)| *path == changes) {
            return Err(UsageError::new(
                format!(
                    "{flag} and --changes both write `{}`; give each its own file",
                    changes.display()
                ),
                None,
            )
            .into());
        }
        let parent = match changes.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent,
            _ => Path::new("."),
        };
        if !parent.is_dir() {
            return Err(UsageError::new(
                format!(
                    "cannot write --changes `{}`: the folder `{}` does not exist",
                    changes.display(),
                    parent.display()
                ),
                None,
            )
            .into());
        }
        outputs.push(("--changes".to_owned(), changes));
    }
    for (flag, path) in outputs {
        if !is_stdout(path) && same_file(path) {
            return Err(UsageError::new(
                format!(
                    "refusing to write {flag} `{}`: it is a report this command reads",
                    path.display()
                ),
                Some("write the rendered reports to other files".to_owned()),
            )
            .into());
        }
    }
    Ok(())
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
