//! `judge report`'s one call, [`run`], in its one order: a saved
//! report's paths checked and refused, the report and its baseline read,
//! the partial ones said, the report files written, then the comparison
//! or the table, and the outcome. Every line goes to the [`Console`] the
//! command line implements; the command line prints, it decides nothing.

use super::{read, refuse_outputs, Outputs, Saved};
use crate::exit::Outcome;
use crate::grading::console::Console;
use crate::grading::reports::error_line;
use crate::grading::{CommandError, GradingError};
use crate::report;
use crate::report::targets::{is_stdout, Targets};
use std::path::Path;

/// What `judge report` was asked: the saved report, what to write from it
/// and what to compare it with.
#[derive(Debug)]
pub(crate) struct ReportCommand<'a> {
    /// The saved report (`-`: standard input).
    pub(crate) report: &'a Path,
    /// `--baseline`.
    pub(crate) baseline: Option<&'a Path>,
    /// `--changes`.
    pub(crate) changes: Option<&'a Path>,
    /// `--json` and the other report files asked for.
    pub(crate) targets: Targets<'a>,
    /// `--student-view`.
    pub(crate) student_view: bool,
    /// `-q`: the summary without the table.
    pub(crate) quiet: bool,
}

/// `judge report`, the command's one call: checks the report paths
/// ([`Targets::check`]), renders the saved report ([`render`]), then says
/// the report files not written after the first, shows the table or the
/// changes and the lines after them, and ends with the outcome, or with
/// the first report file's (or the changes file's) error.
pub(crate) fn run(
    command: &ReportCommand<'_>,
    console: &mut dyn Console,
) -> Result<Outcome, CommandError> {
    command.targets.check()?;
    let outputs = Outputs {
        report: command.report,
        baseline: command.baseline,
        json: command.targets.json,
        files: &command.targets.files,
        changes: command.changes,
        reports_to_stdout: command.targets.any_to_stdout(),
    };
    let rendered = render(
        &Request {
            outputs,
            student_view: command.student_view,
            quiet: command.quiet,
        },
        console,
    )?;
    for failure in &rendered.also_failed {
        console.say(&error_line(failure));
    }
    if let Some((text, said)) = &rendered.shown {
        console.write(text).map_err(CommandError::Stdout)?;
        for line in said {
            console.say(line);
        }
    }
    Ok(rendered.end?)
}

/// [`render`]'s request: the paths, refused before anything is read
/// ([`refuse_outputs`]), and how to show the report.
#[derive(Debug)]
struct Request<'a> {
    outputs: Outputs<'a>,
    student_view: bool,
    quiet: bool,
}

/// What rendering a saved report came to ([`render`]), for [`run`] to say
/// in this order.
#[derive(Debug)]
struct Rendered {
    /// Report files that could not be written, after the first (whose
    /// error ends the command): each said.
    also_failed: Vec<GradingError>,
    /// What goes to standard output, then the lines said after it; none
    /// when a report or the changes go to standard output.
    shown: Option<(String, Vec<String>)>,
    /// The command's outcome, or the error to end with: the changes
    /// file's, else the first report file's that could not be written.
    end: Result<Outcome, GradingError>,
}

/// `judge report`, in its one order: refuses the paths, reads the report
/// and the baseline and refuses a pair of different kinds, says (to the
/// console) which of them an interrupt left partial, writes every report
/// file it can, then compares with the baseline (writing the changes) or
/// shows the report, and decides the outcome: the comparison's with a
/// baseline, else the report's own.
fn render(request: &Request<'_>, console: &mut dyn Console) -> Result<Rendered, GradingError> {
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
            console.say(&format!(
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
            let selection = run.describe_tests();
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grading::console::Recording;
    use crate::report::formats::Chosen;

    const PARTIAL_RUN: &str = r#"{"version": 1, "interrupted": true,
        "not_graded": [{"problem": "rooks", "submission": "a.py"}], "results": []}"#;

    fn command<'a>(report: &'a Path, files: Chosen<'a>) -> ReportCommand<'a> {
        ReportCommand {
            report,
            baseline: None,
            changes: None,
            targets: Targets { json: None, files },
            student_view: false,
            quiet: false,
        }
    }

    /// What `judge report` says, through the console and in its order: the
    /// partial report's warning, then the report on stdout; the outcome is
    /// the report's (a partial one never a success).
    #[test]
    fn a_saved_report_is_said_to_the_console_in_its_order() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let report = dir.path().join("run.json");
        fs_err::write(&report, PARTIAL_RUN).expect("write");
        let mut console = Recording::default();
        let outcome = run(&command(&report, Chosen::default()), &mut console);
        assert!(matches!(outcome, Ok(Outcome::Failure)), "{outcome:?}");
        assert_eq!(console.told.len(), 2, "{:?}", console.told);
        assert!(
            console.told[0].starts_with("2 warning: `")
                && console.told[0].contains("is a partial report (interrupted): 1 pair(s)"),
            "{:?}",
            console.told
        );
        assert!(
            console.told[1].starts_with("1 ")
                && console.told[1].contains("partial (interrupted): 1 submission(s) not graded"),
            "{:?}",
            console.told
        );
    }

    /// Standard output that cannot be written ends the command with that
    /// error, after the lines said before it.
    #[test]
    fn stdout_that_cannot_be_written_ends_the_command() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let report = dir.path().join("run.json");
        fs_err::write(&report, PARTIAL_RUN).expect("write");
        let mut console = Recording {
            stdout_fails: true,
            ..Recording::default()
        };
        let outcome = run(&command(&report, Chosen::default()), &mut console);
        assert!(
            matches!(outcome, Err(CommandError::Stdout(_))),
            "{outcome:?}"
        );
        assert_eq!(console.told.len(), 1, "{:?}", console.told);
    }

    /// A report path that cannot be written is refused before the saved
    /// report is read (it does not even exist here) and before anything
    /// is said.
    #[test]
    fn report_paths_are_checked_before_the_report_is_read() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let report = dir.path().join("missing.json");
        let csv = dir.path().join("no-folder/grades.csv");
        let files = Chosen::of(&[("csv", csv.as_path())]);
        let mut console = Recording::default();
        let outcome = run(&command(&report, files), &mut console);
        assert!(
            matches!(outcome, Err(CommandError::Targets(_))),
            "{outcome:?}"
        );
        assert!(console.told.is_empty(), "{:?}", console.told);
    }
}
