//! Unit tests of [`super`].

use super::*;

fn report(shard: usize, interrupted: bool, not_graded: &[&str]) -> GradeReport {
    GradeReport {
        version: VERSION,
        isolation: None,
        layout: Layout::ProblemStudent,
        shard: Some(ShardInfo {
            index: shard,
            count: 2,
            pairs: 1,
        }),
        judge_version: Some(JUDGE_VERSION.to_owned()),
        graded_with: None,
        ignored: Vec::new(),
        missing: Vec::new(),
        interrupted,
        not_graded: not_graded
            .iter()
            .map(|submission| NotGraded {
                problem: "rooks".to_owned(),
                submission: (*submission).to_owned(),
                student: None,
            })
            .collect(),
        results: Vec::new(),
    }
}

/// A merge of shards is interrupted when any shard was, and lists every
/// shard's ungraded pairs: none may pass for graded.
#[test]
fn merging_keeps_interruptions_and_ungraded_pairs() {
    let merged = merge(vec![
        (PathBuf::from("1.json"), report(1, false, &[])),
        (PathBuf::from("2.json"), report(2, true, &["s/rooks/b.c"])),
    ])
    .unwrap();
    assert!(merged.interrupted);
    assert_eq!(merged.not_graded.len(), 1);
    assert_eq!(merged.judge_version.as_deref(), Some(JUDGE_VERSION));
}

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
