//! `judge report`'s reading and writing: a JSON report saved by `judge
//! grade`, `judge merge` or `judge run` (`--json`), read back and rendered
//! into the other formats of [`crate::report::formats::FORMATS`] without
//! grading again (issue #32, item 8). It runs nothing and decides no
//! verdict: the report's are kept as written, a partial (interrupted)
//! report stays partial in every rendering.
//!
//! A report that cannot be read, is not JSON, is of another version or
//! is neither kind of report is the user's to fix (exit 2), named with the
//! line and column serde_json found.

mod command;

pub(crate) use self::command::{run, ReportCommand};
use super::grade::{wire, Grade};
use super::run::{self, Run};
use super::usage::{NotJson, UsageError};
use super::GradingError;
use crate::exit::Outcome;
use crate::input_file::Source;
use crate::report;
use crate::report::formats::Chosen;
use crate::report::json::VERSION;
use crate::report::targets::is_stdout;
use crate::report::{Row, Ungraded};
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// A saved JSON report: `judge grade`'s (and `judge merge`'s), which has a
/// `layout`, or `judge run`'s, which has none; each read into the grading
/// layer's own types once, here (its isolation kept as written, byte for
/// byte: it was another machine's, or another moment's).
#[derive(Clone, Debug)]
pub(crate) enum Saved {
    Grade(Grade),
    Run(Run),
}

/// Reads the report at `path` (`-`: standard input): a grade report when
/// it has a `layout`, else a run report. Any failure names the file (and,
/// for bad JSON or a missing field, serde_json's line and column); a file
/// over the judge's read limit is refused, not read whole.
pub(crate) fn read(path: &Path) -> Result<Saved, GradingError> {
    let source = Source::read(Some(path)).map_err(UsageError::Unreadable)?;
    let name = Path::new(&source.name);
    let text = std::str::from_utf8(&source.bytes).map_err(|error| UsageError::NotAReport {
        path: name.to_owned(),
        cause: NotJson::Utf8(error),
    })?;
    parse(name, text)
}

/// [`read`] of a text already read.
fn parse(path: &Path, text: &str) -> Result<Saved, GradingError> {
    // The version and the kind first, so another version is named as
    // such, not as a missing field.
    #[derive(Deserialize)]
    struct Probe {
        version: u32,
        #[serde(default)]
        layout: Option<serde::de::IgnoredAny>,
    }
    let not_a_report = |error: serde_json::Error| {
        GradingError::from(UsageError::NotAReport {
            path: path.to_owned(),
            cause: NotJson::Json(error),
        })
    };
    let probe: Probe = serde_json::from_str(text).map_err(not_a_report)?;
    if probe.version != VERSION {
        return Err(UsageError::ReportVersion {
            path: path.to_owned(),
            version: probe.version,
        }
        .into());
    }
    if probe.layout.is_some() {
        return wire::parse(path, text)
            .map(Saved::Grade)
            .map_err(|error| UsageError::Merge(Box::new(error.into())).into());
    }
    run::wire::parse(text).map(Saved::Run).map_err(not_a_report)
}

impl Saved {
    /// Whether a signal stopped the run that wrote it: its results are
    /// part of the run, [`Saved::not_graded`] the rest.
    pub(crate) fn interrupted(&self) -> bool {
        match self {
            Saved::Grade(report) => report.interrupted,
            Saved::Run(run) => run.interrupted,
        }
    }

    /// The pairs an interrupted run did not finish, each with its student
    /// (a run report's read from its path, once, as it was read).
    pub(crate) fn not_graded(&self) -> Vec<Ungraded> {
        match self {
            Saved::Grade(report) => report.not_graded.clone(),
            Saved::Run(run) => run.not_graded.clone(),
        }
    }

    /// The results, as every format renders them.
    pub(crate) fn rows(&self) -> Vec<&dyn Row> {
        match self {
            Saved::Grade(report) => report.results.iter().map(|row| row as &dyn Row).collect(),
            Saved::Run(run) => run.results.iter().map(|row| row as &dyn Row).collect(),
        }
    }

    /// Whether a result (of [`Saved::rows`]' order) passed: the verdict
    /// its folder names (layout `expected`, `grade --package`), else AC.
    pub(crate) fn passed(row: &dyn Row) -> bool {
        match row.expectation() {
            Some(expectation) => expectation.agrees,
            None => row.result().verdict.is_accepted(),
        }
    }

    /// The exit of the run the report is of, as `judge grade` or `judge
    /// run` gave it ([`super::policy`]), except that a partial report is
    /// never a success: what was not graded did not pass.
    pub(crate) fn outcome(&self) -> Outcome {
        let whole = match self {
            Saved::Grade(report) => super::policy::grade_outcome(report),
            Saved::Run(run) => super::policy::run_outcome(&run.results),
        };
        match whole {
            Outcome::Success if self.interrupted() => Outcome::Failure,
            other => other,
        }
    }

    /// Writes the report again to `json` and every file of `files`, each
    /// that can be written even when another cannot; returns every
    /// failure, in the order of the formats' list. With `student_view`,
    /// what students may see ([`super::policy::student_view`]).
    pub(crate) fn write(
        &self,
        json: Option<&Path>,
        files: &Chosen<'_>,
        student_view: bool,
    ) -> Vec<GradingError> {
        match self {
            Saved::Grade(report) => {
                // A saved report names no owner of its files: each is read
                // as a hand-in.
                super::reports::write_grade(
                    report,
                    json,
                    files,
                    student_view,
                    &crate::runner::LinkScope::HandIn,
                    None,
                )
            }
            Saved::Run(run) => write_run(run, json, files, student_view),
        }
    }
}

/// [`Saved::write`] of a run report: its JSON as read (the student view's
/// hidden tests without their data), then the files asked for.
fn write_run(
    run: &Run,
    json: Option<&Path>,
    files: &Chosen<'_>,
    student_view: bool,
) -> Vec<GradingError> {
    let mut viewed = run.clone();
    if student_view {
        for result in &mut viewed.results {
            result.tests.iter_mut().for_each(report::hide_test_data);
        }
    }
    let mut failures = Vec::new();
    if let Some(path) = json {
        let written = run::wire::render(&viewed)
            .map_err(GradingError::RunJson)
            .and_then(|text| super::reports::write_report(path, &text));
        failures.extend(written.err());
    }
    let options = report::Context {
        student_view,
        interrupted: viewed.interrupted,
        interrupted_while: viewed.interrupted_while,
        not_graded: viewed.not_graded.clone(),
        ..report::Context::default()
    };
    failures.extend(super::reports::write(files, &viewed.results, &options, None).err());
    failures
}

/// What `judge report` reads and writes, as its flags say.
#[derive(Debug)]
pub(crate) struct Outputs<'a> {
    /// The report rendered (`-`: standard input).
    pub(crate) report: &'a Path,
    /// `--baseline`.
    pub(crate) baseline: Option<&'a Path>,
    /// `--json`.
    pub(crate) json: Option<&'a Path>,
    /// The other report files.
    pub(crate) files: &'a Chosen<'a>,
    /// `--changes`.
    pub(crate) changes: Option<&'a Path>,
    /// Whether one of the reports (`--json` among them) goes to stdout.
    pub(crate) reports_to_stdout: bool,
}

/// Checks what the report flags cannot: that only one of `--changes` and
/// the reports writes to stdout, that `--changes` can be written and has a
/// file of its own, and that no output replaces a report read (a typo in
/// `--csv grade.json` must not destroy the run's only report). Each
/// refusal is a usage error.
pub(crate) fn refuse_outputs(given: &Outputs<'_>) -> Result<(), GradingError> {
    if given.reports_to_stdout && given.changes.is_some_and(is_stdout) {
        return Err(UsageError::BothToStdout.into());
    }
    let mut outputs: Vec<(String, &Path)> = given
        .files
        .files
        .iter()
        .map(|(format, path)| (format.flag(), *path))
        .collect();
    outputs.extend(given.json.map(|path| ("--json".to_owned(), path)));
    let inputs: Vec<PathBuf> = std::iter::once(given.report)
        .chain(given.baseline)
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
    if let Some(changes) = given.changes.filter(|path| !is_stdout(path)) {
        if let Some((flag, _)) = outputs.iter().find(|(_, path)| *path == changes) {
            return Err(UsageError::SameFile {
                flag: flag.clone(),
                path: changes.to_owned(),
            }
            .into());
        }
        let parent = match changes.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent,
            _ => Path::new("."),
        };
        if !parent.is_dir() {
            return Err(UsageError::NoFolder {
                flag: "--changes",
                path: changes.to_owned(),
                folder: parent.to_owned(),
            }
            .into());
        }
        outputs.push(("--changes".to_owned(), changes));
    }
    for (flag, path) in outputs {
        if !is_stdout(path) && same_file(path) {
            return Err(UsageError::OverwritesInput {
                flag,
                path: path.to_owned(),
            }
            .into());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(text: &str) -> Result<Saved, String> {
        parse(Path::new("r.json"), text).map_err(|error| error.to_string())
    }

    /// `judge report`'s refusals, each a usage error before anything is
    /// read or written: two writers of stdout, `--changes` sharing a file
    /// or in a folder that is not there, an output over a report read.
    #[test]
    fn refuses_outputs_that_clash_or_replace_a_report_read() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let report = dir.path().join("grade.json");
        fs_err::write(&report, "{}").expect("write");
        let csv_over_report = [("csv", report.as_path())];
        let elsewhere = dir.path().join("grades.csv");
        let csv_elsewhere = [("csv", elsewhere.as_path())];
        let missing = dir.path().join("no-folder/changes.json");
        let refused = |files: &[(&str, &Path)], changes: Option<&Path>, to_stdout: bool| {
            let files = Chosen::of(files);
            refuse_outputs(&Outputs {
                report: &report,
                baseline: None,
                json: None,
                files: &files,
                changes,
                reports_to_stdout: to_stdout,
            })
            .err()
            .map(|error| {
                assert!(matches!(error, GradingError::Usage(_)), "{error}");
                error.to_string()
            })
        };
        assert_eq!(refused(&csv_elsewhere, None, false), None);
        assert_eq!(
            refused(&[], Some(Path::new("-")), true).as_deref(),
            Some("`--changes -` and another report both write to stdout")
        );
        assert!(refused(&csv_elsewhere, Some(&elsewhere), false)
            .is_some_and(|message| message.starts_with("--csv and --changes both write")));
        assert!(refused(&[], Some(&missing), false)
            .is_some_and(|message| message.ends_with("does not exist")));
        assert!(refused(&csv_over_report, None, false)
            .is_some_and(|message| message.starts_with("refusing to write --csv")));
        assert!(refused(&[], Some(&report), false)
            .is_some_and(|message| message.starts_with("refusing to write --changes")));
    }

    #[test]
    fn tells_a_grade_report_from_a_run_report() {
        let grade = r#"{"version": 1, "layout": "problem/student", "results": []}"#;
        assert!(matches!(parsed(grade), Ok(Saved::Grade(_))));
        let run = r#"{"version": 1, "results": []}"#;
        assert!(matches!(parsed(run), Ok(Saved::Run(_))));
    }

    #[test]
    fn bad_json_names_the_file_line_and_column() {
        let error = parsed("{\"version\": 1,\n  \"results\": [}\n").expect_err("refused");
        assert!(
            error.starts_with("`r.json` is not a JSON report"),
            "{error}"
        );
        assert!(error.contains("line 2 column"), "{error}");
    }

    #[test]
    fn another_version_is_named_before_any_missing_field() {
        let error = parsed(r#"{"version": 2}"#).expect_err("refused");
        assert_eq!(
            error,
            "`r.json` has report version 2; this judge reads version 1"
        );
        let error = parsed(r#"{"results": []}"#).expect_err("refused");
        assert!(error.contains("missing field `version`"), "{error}");
    }

    #[test]
    fn a_partial_report_is_never_a_success() {
        let text = r#"{"version": 1, "interrupted": true,
            "not_graded": [{"problem": "rooks", "submission": "a.py"}], "results": []}"#;
        let saved = parsed(text).expect("a run report");
        assert!(saved.interrupted());
        assert_eq!(saved.outcome(), Outcome::Failure);
        let whole = parsed(r#"{"version": 1, "results": []}"#).expect("a run report");
        assert_eq!(whole.outcome(), Outcome::Success);
    }
}
