//! Unit tests of [`super`]: the words about a run's tests, and the
//! conversion to and from the wire.

use super::*;
use crate::report::json;
use crate::runner::{RandomOrigin, TestResult};
use crate::verdict::Verdict;

const EVERY_ASKER: [RandomAskedBy; 5] = [
    RandomAskedBy::Flag,
    RandomAskedBy::JudgeToml,
    RandomAskedBy::Default,
    RandomAskedBy::Nobody,
    RandomAskedBy::Platform,
];

fn invalid(name: &str) -> InvalidInput {
    InvalidInput {
        name: name.to_owned(),
        file: format!("my-tests/{name}.in"),
        reason: "line 1: expected n, found `x`".to_owned(),
    }
}

fn tests_run(random: u32, random_asked_by: RandomAskedBy) -> TestsRun {
    TestsRun {
        fixed: "my-tests".to_owned(),
        fixed_count: 4,
        random,
        random_asked_by,
        invalid: Vec::new(),
    }
}

/// A run with every field set: interrupted, a pair not graded, tests with
/// invalid inputs asked for by `asked_by`, a result with a random test and
/// a score.
fn every_field(asked_by: RandomAskedBy) -> Run {
    let mut random_test = TestResult::fixture("random-1", Verdict::WrongAnswer);
    random_test.random = Some(RandomOrigin {
        seed: 7,
        profile: "small".to_owned(),
        index: 1,
    });
    let mut result = SubmissionResult::fixture(
        "rooks",
        "class/ann/rooks.py",
        vec![TestResult::fixture("001", Verdict::Accepted), random_test],
    );
    result.score = Some(crate::verdict::Points(50.0));
    result.max_score = Some(crate::verdict::Points(100.0));
    Run {
        isolation: Some(RecordedIsolation::InForce(Isolation::detect().clone())),
        interrupted: true,
        interrupted_while: Some(crate::report::json::BeforeTests::ValidatingTests),
        not_graded: vec![crate::grading::grade::unrecorded(
            "rooks".to_owned(),
            "class/bob/rooks.py".to_owned(),
        )],
        tests: Some(TestsRun {
            invalid: vec![invalid("big"), invalid("empty")],
            ..tests_run(3, asked_by)
        }),
        results: vec![result],
    }
}

/// For each who-asked, a run with every field set survives its report:
/// read back, it is the same run but for the isolation, which is then the
/// text as written (the same JSON as the isolation in force); written
/// again, it is the same bytes.
#[test]
fn a_run_with_every_field_set_survives_its_report() {
    for asked_by in EVERY_ASKER {
        let run = every_field(asked_by);
        let text = wire::render(&run).expect("serialises");
        let read = wire::parse(&text).expect("reads");
        let Some(RecordedIsolation::AsWritten(written)) = &read.isolation else {
            panic!("{asked_by:?}: the isolation is not kept as written: {read:?}");
        };
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(written.get()).expect("JSON"),
            serde_json::to_value(Isolation::detect()).expect("serialises"),
            "{asked_by:?}"
        );
        assert_eq!(
            Run {
                isolation: run.isolation.clone(),
                ..read.clone()
            },
            run,
            "{asked_by:?}"
        );
        assert_eq!(
            wire::render(&read).expect("serialises"),
            text,
            "{asked_by:?}"
        );
    }
}

/// The JSON report names who asked for the random tests as
/// [`RandomAskedBy::name`] does, and reads each name back to the same one.
#[test]
fn the_report_names_each_random_source_as_name_does() {
    for asked_by in EVERY_ASKER {
        let value = serde_json::to_value(json::RandomFrom::from(asked_by)).expect("serialises");
        assert_eq!(value, asked_by.name(), "{asked_by:?}");
        let back: json::RandomFrom = serde_json::from_value(value).expect("reads back");
        assert_eq!(RandomAskedBy::from(back), asked_by);
    }
}

/// A saved report's isolation is written again as it was read, byte for
/// byte, however it was spaced; a pair not graded keeps the student the
/// report recorded, and one it did not record stays unrecorded.
#[test]
fn a_saved_run_is_written_again_as_it_was_read() {
    let isolation = serde_json::value::RawValue::from_string(
        r#"{"cgroups":  "v2", "namespaces": ["pid"] }"#.to_owned(),
    )
    .expect("JSON");
    let recorded = crate::report::Ungraded {
        problem: "rooks".to_owned(),
        submission: "class/cy/rooks.py".to_owned(),
        student: "cyril".to_owned(),
        recorded: true,
    };
    let run = Run {
        isolation: Some(RecordedIsolation::AsWritten(isolation)),
        not_graded: vec![
            recorded,
            every_field(RandomAskedBy::Flag).not_graded[0].clone(),
        ],
        ..every_field(RandomAskedBy::Flag)
    };
    let text = wire::render(&run).expect("serialises");
    assert!(
        text.contains(r#""isolation": {"cgroups":  "v2", "namespaces": ["pid"] },"#),
        "{text}"
    );
    let read = wire::parse(&text).expect("reads");
    assert_eq!(read, run);
    assert_eq!(wire::render(&read).expect("serialises"), text);
    let written: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    assert_eq!(written["not_graded"][0]["student"], "cyril");
    assert_eq!(written["not_graded"][1].get("student"), None);
}

/// A report with only what every run report has reads as a run with no
/// isolation, no tests and nothing interrupted, and writes back without
/// them.
#[test]
fn a_bare_run_report_reads_and_writes_back_bare() {
    let read = wire::parse(r#"{"version": 1, "results": []}"#).expect("reads");
    assert_eq!(
        read,
        Run {
            isolation: None,
            interrupted: false,
            interrupted_while: None,
            not_graded: Vec::new(),
            tests: None,
            results: Vec::new(),
        }
    );
    assert_eq!(read.describe_tests(), "");
    assert_eq!(
        wire::render(&read).expect("serialises"),
        "{\n  \"version\": 1,\n  \"results\": []\n}\n"
    );
}

/// The footer's line: why there are no random tests, or how many and who
/// asked; the inputs the validator rejects, by name.
#[test]
fn the_footer_says_which_tests_ran_and_why_that_many_random_ones() {
    let package = TestsRun {
        fixed: "package rooks".to_owned(),
        ..tests_run(0, RandomAskedBy::Nobody)
    };
    let with_invalid = TestsRun {
        invalid: vec![invalid("big")],
        ..tests_run(2, RandomAskedBy::JudgeToml)
    };
    let rows = [
        (
            tests_run(5, RandomAskedBy::Flag),
            "tests: 4 from my-tests + 5 random (from --random)",
        ),
        (
            tests_run(0, RandomAskedBy::Flag),
            "tests: 4 from my-tests only",
        ),
        (
            tests_run(0, RandomAskedBy::Default),
            "tests: 4 from my-tests only",
        ),
        (
            tests_run(0, RandomAskedBy::Nobody),
            "tests: 4 from my-tests only (no random tests: --tests runs exactly its folder \
             unless --random N or judge.toml's random-tests asks for more)",
        ),
        (
            package,
            "tests: 4 from package rooks only (no random tests: the package has no generator \
             of random tests)",
        ),
        (
            tests_run(0, RandomAskedBy::Platform),
            "tests: 4 from my-tests only (no random tests: a platform's results file grades \
             the package's own tests, as its autograder does, unless --random N asks for more)",
        ),
        (
            with_invalid,
            "tests: 4 from my-tests, 1 of them invalid for the problem (big) + 2 random (from \
             judge.toml)",
        ),
    ];
    for (tests, expected) in rows {
        assert_eq!(tests.describe(), expected, "{tests:?}");
    }
}
