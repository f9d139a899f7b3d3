//! Unit tests of [`super`].

use super::*;

/// New fields are additive: a version 1 report without them still
/// reads, as not interrupted and with nothing reused.
#[test]
fn reports_without_the_new_fields_still_read() {
    let text = r#"{"version": 1, "layout": "problem/student", "results": [
        {"problem": "rooks", "submission": "s/rooks/a.c", "language": "c",
         "verdict": "AC", "passed": 0, "total": 0,
         "compile": {"ok": true, "message": ""}, "tests": [],
         "student": "a", "time_limit_ms": 1000, "memory_limit_mib": 256}]}"#;
    let report = parse_grade(Path::new("old.json"), text).unwrap();
    assert!(!report.interrupted);
    assert_eq!(report.interrupted_while, None);
    assert!(report.not_graded.is_empty());
    assert_eq!(report.judge_version, None);
    let result = &report.results[0];
    assert!(!result.reused);
    assert_eq!(result.submission_sha256, None);
    // And what is absent is not written back either.
    let written = render_grade(&report).unwrap();
    for key in [
        "interrupted",
        "interrupted_while",
        "not_graded",
        "reused",
        "fingerprint",
    ] {
        assert!(!written.contains(key), "{key} in {written}");
    }
}

/// The name other reports give what a command was doing before any test
/// ran (JUnit's property) is the one the JSON report writes, for each.
#[test_case::test_case(BeforeTests::ComparingHandIns ; "comparing the hand-ins")]
#[test_case::test_case(BeforeTests::FindingHandIns ; "finding the hand-ins")]
#[test_case::test_case(BeforeTests::BuildingData ; "building data")]
#[test_case::test_case(BeforeTests::LoadingPackage ; "loading the package")]
#[test_case::test_case(BeforeTests::ValidatingTests ; "validating the tests")]
#[test_case::test_case(BeforeTests::DerivingTimeLimit ; "deriving the time limit")]
fn a_step_before_the_tests_is_named_as_the_json_report_writes_it(doing: BeforeTests) {
    let written = serde_json::to_value(doing).unwrap();
    assert_eq!(written, serde_json::Value::from(doing.name()));
    let read: BeforeTests = serde_json::from_value(written).unwrap();
    assert_eq!(read, doing);
}
