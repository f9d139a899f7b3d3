//! `judge report`'s one order, [`render`]: a saved report's paths
//! refused, the report and its baseline read, the partial ones said, the
//! report files written, then the comparison or the table, and the
//! outcome. The command line only prints what it came to.

use super::{read, refuse_outputs, Outputs, Saved};
use crate::exit::Outcome;
use crate::grading::GradingError;
use crate::report;
use crate::report::targets::is_stdout;

/// What `judge report` was asked: the saved report, what to write from it
/// and what to compare it with.
#[derive(Debug)]
pub(crate) struct Request<'a> {
    /// The paths, refused before anything is read ([`refuse_outputs`]).
    pub(crate) outputs: Outputs<'a>,
    /// `--student-view`.
    pub(crate) student_view: bool,
    /// `-q`: the summary without the table.
    pub(crate) quiet: bool,
}

/// What rendering a saved report came to ([`render`]), for the command
/// line to print in this order.
#[derive(Debug)]
pub(crate) struct Rendered {
    /// Report files that could not be written, after the first (whose
    /// error ends the command): each said.
    pub(crate) also_failed: Vec<GradingError>,
    /// What goes to standard output, then the lines said after it; none
    /// when a report or the changes go to standard output.
    pub(crate) shown: Option<(String, Vec<String>)>,
    /// The command's outcome, or the error to end with: the changes
    /// file's, else the first report file's that could not be written.
    pub(crate) end: Result<Outcome, GradingError>,
}

/// `judge report`, in its one order: refuses the paths, reads the report
/// and the baseline and refuses a pair of different kinds, says (through
/// `say`) which of them an interrupt left partial, writes every report
/// file it can, then compares with the baseline (writing the changes) or
/// shows the report, and decides the outcome: the comparison's with a
/// baseline, else the report's own.
pub(crate) fn render(
    request: &Request<'_>,
    say: &mut dyn FnMut(&str),
) -> Result<Rendered, GradingError> {
    let outputs = &request.outputs;
    refuse_outputs(outputs)?;
    let report = read(outputs.report)?;
    let baseline = outputs.baseline.map(read).transpose()?;
    let report_name = outputs.report.display().to_string();
    if let (Some(baseline), Some(baseline_path)) = (&baseline, outputs.baseline) {
        crate::grading::compare::refuse_other_kinds(
            baseline,
            &baseline_path.display().to_string(),
            &report,
            &report_name,
        )?;
    }
    for (path, saved) in
        std::iter::once((outputs.report, &report)).chain(outputs.baseline.zip(baseline.as_ref()))
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
        .write(outputs.json, outputs.files, request.student_view)
        .into_iter();
    let first_failure = failures.next();
    let also_failed: Vec<GradingError> = failures.collect();
    let to_stdout = outputs.reports_to_stdout || outputs.changes.is_some_and(is_stdout);
    let (shown, outcome) = match (&baseline, outputs.baseline) {
        (Some(baseline), Some(baseline_path)) => {
            let comparison = crate::grading::compare::compare(
                baseline,
                &baseline_path.display().to_string(),
                &report,
                &report_name,
            );
            if let Some(path) = outputs.changes {
                let written = comparison
                    .json()
                    .map_err(GradingError::RunJson)
                    .and_then(|text| crate::grading::reports::write_report(path, &text));
                if let Err(error) = written {
                    return Ok(Rendered {
                        also_failed,
                        shown: None,
                        end: Err(error),
                    });
                }
            }
            let shown = (!to_stdout).then(|| (lines(comparison.lines()), Vec::new()));
            (shown, comparison.outcome())
        }
        _ => {
            let shown = (!to_stdout).then(|| shown(&report, request.quiet, request.student_view));
            (shown, report.outcome())
        }
    };
    Ok(Rendered {
        also_failed,
        shown,
        end: first_failure.map_or(Ok(outcome), Err),
    })
}

/// The table (unless `quiet`) and the summary of a report, as `judge
/// grade` and `judge run` print them, and the lines said after them.
fn shown(report: &Saved, quiet: bool, student_view: bool) -> (String, Vec<String>) {
    match report {
        Saved::Grade(graded) => {
            let graded = &*crate::grading::reports::viewed(graded, student_view);
            let shown = crate::grading::reports::Shown::of(graded);
            let view = shown.view();
            let mut text = String::new();
            if !quiet {
                text.push_str(&report::human::render_grade_table(
                    &view,
                    report::stdout::colour_stdout(),
                ));
            }
            text.push_str(&report::human::render_grade_summary(&view));
            (text, report::human::grade_messages(&view))
        }
        Saved::Run(run) => {
            let mut text = String::new();
            if !quiet {
                for result in &run.results {
                    text.push_str(&report::human::render_submission(result));
                }
            }
            let verdicts: Vec<_> = run.results.iter().map(|result| result.verdict).collect();
            let selection = run
                .tests
                .as_ref()
                .map(|tests| tests.describe())
                .unwrap_or_default();
            if run.interrupted {
                text.push_str(&format!(
                    "partial (interrupted): {} submission(s) not graded\n",
                    run.not_graded.len()
                ));
            }
            text.push_str(&report::human::run_summary(&selection, &verdicts));
            (text, Vec::new())
        }
    }
}

/// Lines as one text, each ended by a newline.
fn lines(lines: Vec<String>) -> String {
    lines.into_iter().map(|line| line + "\n").collect()
}
