//! The report files: what is written when one cannot be, the class
//! page's section, nothing to grade, and how a grade's end settles.

use super::*;
use crate::grading::console::Recording;
use crate::runner::SubmissionResult;

#[test]
fn a_section_goes_before_the_end_of_the_body() {
    let mut page = "<html><body><p>x</p></body></html>".to_owned();
    insert_section(&mut page, "<section/>");
    assert_eq!(page, "<html><body><p>x</p><section/></body></html>");
    let mut bare = "<p>x</p>".to_owned();
    insert_section(&mut bare, "<section/>");
    assert_eq!(bare, "<p>x</p><section/>");
}

#[test]
fn nothing_to_grade_ends_as_the_student_s_failing_grade_once_a_platform_says_so() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let mut config = JudgeConfig::defaults().expect("the defaults");
    config.submissions = dir.path().join("hand-in");
    fs_err::create_dir(&config.submissions).expect("creates");
    // No platform's results file asked for: discovery's error stands.
    assert_eq!(write_nothing_to_grade(&config, &Chosen::default()).0, None);
    let results = dir.path().join("results.json");
    let gradescope = crate::report::formats::named("gradescope").expect("listed");
    let files = Chosen {
        files: vec![(gradescope, results.as_path())],
        ..Chosen::default()
    };
    let (nothing, failures) = write_nothing_to_grade(&config, &files);
    assert!(failures.is_empty(), "{failures:?}");
    let nothing = nothing.expect("nothing to grade");
    assert_eq!(nothing.outcome, Outcome::Failure);
    assert!(nothing.line.starts_with("not graded: "), "{}", nothing.line);
    assert!(results.exists());
    // Something to grade: nothing is written and the grade goes on.
    let rooks = config.submissions.join("rooks");
    fs_err::create_dir(&rooks).expect("creates");
    fs_err::write(rooks.join("alice.py"), "print(1)\n").expect("writes");
    fs_err::remove_file(&results).expect("removes");
    assert_eq!(write_nothing_to_grade(&config, &files).0, None);
    assert!(!results.exists());
}

#[test]
fn a_platform_is_asked_for_only_by_a_platform_s_results_file() {
    let path = Path::new("out");
    let file = |name| Chosen {
        files: vec![(crate::report::formats::named(name).expect("listed"), path)],
        ..Chosen::default()
    };
    assert!(!asks_platform(&Chosen::default()));
    assert!(!asks_platform(&file("junit")));
    assert!(!asks_platform(&file("html")));
    assert!(asks_platform(&file("gradescope")));
    assert!(asks_platform(&file("vpl")));
}

#[test]
fn the_terminal_shows_the_student_view_only_when_asked() {
    let result = SubmissionResult::fixture("rooks", "a.py", Vec::new());
    let graded = crate::grading::grade::GradedResult {
        fingerprint: Some("f".to_owned()),
        ..crate::grading::grade::GradedResult::fixture(result, "alice")
    };
    let report = Grade::fixture(crate::config::judge::Layout::ProblemStudent, vec![graded]);
    assert!(matches!(viewed(&report, false), Cow::Borrowed(_)));
    let view = viewed(&report, true);
    assert!(matches!(view, Cow::Owned(_)));
    assert_eq!(view.results[0].fingerprint, None);
}

#[test]
fn write_report_replaces_a_file_whole() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("r.json");
    write_report(&path, "{}\n").expect("writes");
    write_report(&path, "[]\n").expect("writes");
    assert_eq!(fs_err::read_to_string(&path).expect("reads"), "[]\n");
}

#[test]
fn every_report_is_tried_when_one_cannot_be_written() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let csv = dir.path().join("grades.csv");
    let files = Chosen::of(&[
        ("junit", Path::new("/nonexistent-folder-of-the-judge/x.xml")),
        ("csv", &csv),
    ]);
    let rows: Vec<SubmissionResult> = Vec::new();
    let written = write(&files, &rows, &Context::default(), None);
    assert!(written.is_err());
    let both = Chosen::of(&[
        ("junit", Path::new("/nonexistent-folder-of-the-judge/x.xml")),
        ("csv", Path::new("/nonexistent-folder-of-the-judge/x.csv")),
    ]);
    let failures = write_each(&both, &rows, &Context::default(), None);
    assert_eq!(failures.len(), 2, "{failures:?}");
    assert!(
        csv.is_file(),
        "the CSV is written although the JUnit file is not"
    );
}

fn report_error(name: &str) -> GradingError {
    ReportError {
        path: name.into(),
        source: std::io::Error::other("no space left"),
    }
    .into()
}

/// The paths of errors, as a row says them.
fn paths(errors: &[GradingError]) -> Vec<String> {
    errors
        .iter()
        .map(|error| match error {
            GradingError::Report(report) => report.path.display().to_string(),
            other => other.to_string(),
        })
        .collect()
}

/// Each row: what writing came to, then what is said (the journal's
/// line, the errors), what is shown (`Some(quiet)`) and the end.
#[test]
fn a_grade_settles_with_the_journal_first_then_the_reports_then_the_table() {
    type Row = (
        Written,
        Option<&'static str>,
        Vec<&'static str>,
        Option<bool>,
        &'static str,
    );
    let rows: Vec<Row> = vec![
        (
            Written::All { journal: None },
            None,
            vec![],
            Some(false),
            "ok",
        ),
        (
            Written::Failed {
                first: report_error("a.xml"),
                also: vec![report_error("b.csv")],
            },
            None,
            vec!["b.csv"],
            None,
            "a.xml",
        ),
        (
            Written::JournalFailed {
                error: journal_error(),
                reports: Ok(()),
            },
            Some("grades.json.journal"),
            vec![],
            Some(true),
            "grades.json.journal",
        ),
        (
            Written::JournalFailed {
                error: journal_error(),
                reports: Err((report_error("a.xml"), vec![report_error("b.csv")])),
            },
            Some("grades.json.journal"),
            vec!["b.csv", "a.xml"],
            None,
            "grades.json.journal",
        ),
    ];
    for (written, journal_failed, said, show, end) in rows {
        let settled = settle(written, false);
        assert_eq!(
            settled.journal_failed.as_deref(),
            journal_failed.map(Path::new)
        );
        assert_eq!(paths(&settled.said), said);
        assert_eq!(settled.show, show, "{end}");
        let ended = match &settled.end {
            Ok(_) => "ok".to_owned(),
            Err(error) => paths(std::slice::from_ref(error)).join(""),
        };
        assert_eq!(ended, end);
    }
    let quiet = settle(Written::All { journal: None }, true);
    assert_eq!(quiet.show, Some(true));
}

fn journal_error() -> ReportError {
    ReportError {
        path: "grades.json.journal".into(),
        source: std::io::Error::other("disk full"),
    }
}

/// Each row: whether the JSON report can be written, whether the
/// journal could, then what the writing came to.
#[test]
fn the_journals_failure_comes_first_and_every_report_is_still_written() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let csv = dir.path().join("grades.csv");
    let files = Chosen::of(&[("csv", &csv)]);
    let good = dir.path().join("grades.json");
    let bad = dir.path().join("no-such-folder").join("grades.json");
    let rows = [
        (&good, true, "all"),
        (&bad, true, "failed"),
        (&good, false, "journal"),
        (&bad, false, "journal and a report"),
    ];
    for (json, journal_written, expected) in rows {
        let _ = fs_err::remove_file(&csv);
        let journal = if journal_written {
            Ok(None)
        } else {
            Err(journal_error())
        };
        let written = write_graded(
            &Grade::fixture(crate::config::judge::Layout::ProblemStudent, Vec::new()),
            Some(json),
            &files,
            false,
            &crate::runner::LinkScope::HandIn,
            None,
            journal,
        );
        let came_to = match &written {
            Written::All { journal: None } => "all",
            Written::Failed { also, .. } if also.is_empty() => "failed",
            Written::JournalFailed {
                reports: Ok(()), ..
            } => "journal",
            Written::JournalFailed {
                reports: Err((_, also)),
                error,
            } if also.is_empty() && error.path.ends_with("grades.json.journal") => {
                "journal and a report"
            }
            other => panic!("{other:?}"),
        };
        assert_eq!(came_to, expected, "{}", json.display());
        assert!(csv.is_file(), "{expected}: the CSV is written all the same");
    }
}

/// What a grade's end says, through the console and in its order: the
/// journal's failure, the reports not written, the table; a table that
/// cannot reach stdout is said before the journal's error ends the grade,
/// and a table written ends in the journal to remove.
#[test]
fn a_grade_s_end_is_said_to_the_console_in_its_order() {
    let grade = Grade::fixture(crate::config::judge::Layout::StudentProblem, Vec::new());
    let mut show =
        |console: &mut dyn Console, quiet: bool| console.write(&format!("table {quiet}"));

    let mut console = Recording::default();
    let ended = say_settled(
        Written::Failed {
            first: report_error("a.xml"),
            also: vec![report_error("b.csv")],
        },
        &grade,
        false,
        &mut console,
        &mut show,
    );
    assert_eq!(
        console.told,
        ["2 error: failed to write `b.csv`: no space left"]
    );
    assert!(
        matches!(ended, Err(EndError::Grading(GradingError::Report(ref report))) if report.path == Path::new("a.xml")),
        "{ended:?}"
    );

    let mut console = Recording {
        stdout_fails: true,
        ..Recording::default()
    };
    let ended = say_settled(
        Written::JournalFailed {
            error: journal_error(),
            reports: Ok(()),
        },
        &grade,
        false,
        &mut console,
        &mut show,
    );
    assert_eq!(console.told.len(), 2, "{:?}", console.told);
    assert!(
        console.told[0].contains("grades.json.journal"),
        "{:?}",
        console.told
    );
    assert_eq!(console.told[1], "2 error: failed to write to stdout: pipe");
    assert!(matches!(ended, Err(EndError::Grading(_))), "{ended:?}");

    let mut console = Recording::default();
    let ended = say_settled(
        Written::All { journal: None },
        &grade,
        true,
        &mut console,
        &mut show,
    );
    assert_eq!(console.told, ["1 table true"]);
    assert!(matches!(ended, Ok(None)), "{ended:?}");
}
