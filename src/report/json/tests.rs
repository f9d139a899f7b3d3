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
    assert!(report.not_graded.is_empty());
    assert_eq!(report.judge_version, None);
    let result = &report.results[0];
    assert!(!result.reused);
    assert_eq!(result.submission_sha256, None);
    // And what is absent is not written back either.
    let written = render_grade(&report).unwrap();
    for key in ["interrupted", "not_graded", "reused", "fingerprint"] {
        assert!(!written.contains(key), "{key} in {written}");
    }
}
