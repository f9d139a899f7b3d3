//! Unit tests of [`super`] and its conversion to and from the wire.

use super::*;
use crate::report::json;
use crate::runner::TestResult;
use crate::verdict::Points;
use proptest::prelude::*;
use std::path::Path;

fn name() -> impl Strategy<Value = String> {
    "[a-z][a-z0-9_-]{0,7}"
}

fn verdict() -> impl Strategy<Value = Verdict> {
    proptest::sample::select(Verdict::ALL.to_vec())
}

/// Points as a report writes them: a few decimals, never negative.
fn points() -> impl Strategy<Value = Points> {
    (0u32..40_000).prop_map(|quarters| Points(f64::from(quarters) / 4.0))
}

fn submission_result() -> impl Strategy<Value = SubmissionResult> {
    (
        name(),
        name(),
        proptest::collection::vec((name(), verdict()), 0..4),
        proptest::option::of((points(), points())),
    )
        .prop_map(|(problem, student, tests, score)| {
            let tests = tests
                .iter()
                .map(|(test, verdict)| TestResult::fixture(test, *verdict))
                .collect();
            let mut result = SubmissionResult::fixture(
                &problem,
                &format!("class/{student}/{problem}.py"),
                tests,
            );
            if let Some((score, max)) = score {
                result.score = Some(score);
                result.max_score = Some(max);
            }
            result
        })
}

fn expected() -> impl Strategy<Value = Expected> {
    (
        name(),
        prop_oneof![
            Just(crate::package::format::ExpectedKey::Folder),
            Just(crate::package::format::ExpectedKey::Tag),
        ],
        proptest::option::of(verdict()),
        proptest::collection::vec(verdict(), 0..3),
        proptest::option::of(any::<bool>()),
    )
        .prop_map(|(folder, kind, verdict, also, agrees)| Expected {
            folder,
            kind,
            verdict,
            also,
            agrees,
        })
}

fn graded_result() -> impl Strategy<Value = GradedResult> {
    (
        submission_result(),
        name(),
        proptest::option::of(expected()),
        (any::<u64>(), any::<u64>()),
        proptest::collection::vec(name(), 0..2),
        (
            proptest::option::of("[0-9a-f]{8}"),
            proptest::option::of("[0-9a-f]{8}"),
        ),
        any::<bool>(),
        proptest::collection::vec(name(), 0..3),
    )
        .prop_map(
            |(
                result,
                student,
                expected,
                (time_limit_ms, memory_limit_mib),
                warnings,
                (submission_sha256, fingerprint),
                reused,
                handed_in,
            )| GradedResult {
                result,
                student,
                expected,
                time_limit_ms,
                memory_limit_mib,
                warnings,
                submission_sha256,
                fingerprint,
                reused,
                handed_in,
            },
        )
}

/// A pair not graded as a grade holds it: when the report does not
/// record its student, the student is the one its path names (as reading
/// it back decides).
fn ungraded() -> impl Strategy<Value = Ungraded> {
    (name(), name(), any::<bool>()).prop_map(|(problem, student, recorded)| {
        let submission = format!("class/{student}/{problem}.py");
        if recorded {
            Ungraded {
                problem,
                submission,
                student,
                recorded,
            }
        } else {
            unrecorded(problem, submission)
        }
    })
}

fn graded_with() -> impl Strategy<Value = GradedWith> {
    (
        name(),
        proptest::option::of(any::<u64>()),
        any::<u32>(),
        (
            proptest::option::of(any::<u64>()),
            proptest::option::of(any::<u64>()),
            proptest::option::of(any::<u64>()),
        ),
        1u32..64,
    )
        .prop_map(
            |(judge_version, seed, random_tests, (time, memory, output), eighths)| GradedWith {
                judge_version,
                seed,
                random_tests,
                time_limit_ms: time,
                memory_limit_mib: memory,
                output_limit_kib: output,
                wall_time_factor: f64::from(eighths) / 8.0,
            },
        )
}

fn grade() -> impl Strategy<Value = Grade> {
    (
        proptest::option::of(
            name().prop_map(|mechanism| serde_json::json!({ "cgroups": mechanism })),
        ),
        proptest::sample::select(vec![
            Layout::ProblemStudent,
            Layout::StudentProblem,
            Layout::Expected,
        ]),
        proptest::option::of(
            (1usize..5, 1usize..5, proptest::option::of(0usize..100)).prop_map(
                |(index, count, pairs)| ShardInfo {
                    index,
                    count,
                    pairs,
                },
            ),
        ),
        (
            proptest::option::of(name()),
            any::<bool>(),
            proptest::option::of(proptest::sample::select(vec![
                BeforeTests::BuildingData,
                BeforeTests::LoadingPackage,
                BeforeTests::ValidatingTests,
                BeforeTests::DerivingTimeLimit,
            ])),
        ),
        proptest::collection::vec(ungraded(), 0..3),
        proptest::option::of(graded_with()),
        proptest::collection::vec(
            (name(), name()).prop_map(|(path, reason)| Ignored { path, reason }),
            0..3,
        ),
        proptest::collection::vec(
            (name(), name()).prop_map(|(student, problem)| Missing { student, problem }),
            0..3,
        ),
        proptest::collection::vec(graded_result(), 0..4),
    )
        .prop_map(
            |(
                isolation,
                layout,
                shard,
                (judge_version, interrupted, interrupted_while),
                not_graded,
                graded_with,
                ignored,
                missing,
                results,
            )| Grade {
                isolation,
                layout,
                shard,
                judge_version,
                interrupted,
                interrupted_while,
                not_graded,
                graded_with,
                ignored,
                missing,
                results,
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Whatever a grade holds, its report read back is the same grade
    /// (domain -> wire -> JSON -> wire -> domain), and written again the
    /// same bytes: the one conversion drops nothing either way.
    #[test]
    fn a_grade_survives_its_report(grade in grade()) {
        let text = wire::render(&grade).expect("serialises");
        let read = wire::parse(Path::new("grades.json"), &text).expect("reads");
        prop_assert_eq!(&read, &grade);
        prop_assert_eq!(wire::render(&read).expect("serialises"), text);
    }

    /// A graded pair survives a journal line alone, as `--resume` reads it.
    #[test]
    fn a_graded_pair_survives_its_journal_line(graded in graded_result()) {
        let line = serde_json::to_string(&json::GradedResult::from(&graded)).expect("serialises");
        let read: json::GradedResult = serde_json::from_str(&line).expect("reads");
        prop_assert_eq!(GradedResult::from(read), graded);
    }
}

/// An interrupted pair's student is the one the report recorded, else the
/// one its path names (`judge run`'s report, older judges'), decided once
/// as the report is read; written back, an unrecorded student stays
/// unwritten.
#[test]
fn an_ungraded_pairs_student_is_recorded_or_read_from_its_path() {
    let pair = |student: Option<&str>| json::NotGraded {
        problem: "rooks".to_owned(),
        submission: "class/bob/rooks.py".to_owned(),
        student: student.map(str::to_owned),
    };
    let recorded = Ungraded::from(pair(Some("robert")));
    let from_path = Ungraded::from(pair(None));
    assert_eq!(
        (recorded.student.as_str(), recorded.recorded),
        ("robert", true)
    );
    assert_eq!(
        (from_path.student.as_str(), from_path.recorded),
        ("bob", false)
    );
    assert_eq!(json::NotGraded::from(&from_path), pair(None));
    assert_eq!(json::NotGraded::from(&recorded), pair(Some("robert")));
}

/// A report of the current version without the fields added later reads
/// into a grade, and writes back without them.
#[test]
fn an_older_report_reads_into_a_grade_and_writes_back_as_it_was() {
    let text = r#"{"version": 1, "layout": "problem/student",
        "not_graded": [{"problem": "rooks", "submission": "s/rooks/b.c"}],
        "results": []}"#;
    let grade = wire::parse(Path::new("old.json"), text).expect("reads");
    assert_eq!(grade.judge_version, None);
    assert_eq!(grade.not_graded[0].student, "b");
    let written = wire::render(&grade).expect("serialises");
    assert!(!written.contains("\"student\""), "{written}");
    assert!(!written.contains("judge_version"), "{written}");
}
