//! Scored packages with test groups (issue #15), graded end to end by
//! `judge grade --package`: a legacy Kattis scoring package with two `min`
//! subtasks under `on_reject: break`, and a problem.toml package with
//! `[[groups]]`.

use crate::support::{triangle_sums_package, Dir, PackageBuilder};

/// The sum 1 + 2 + ... + n. The reference answers every size; the partial
/// solution does its arithmetic in 32 bits (right for the first subtask's
/// small n, wrong beyond 2^32) and loops for a huge n; the wrong one is off
/// by n.
const ACCEPTED: &str = "n = int(input())\nprint(n * (n + 1) // 2)\n";
const PARTIAL: &str = "\
n = int(input())
if n > 10**8:
    total = 0
    for i in range(1, n + 1):
        total += i
    print(total)
else:
    print(n * (n + 1) // 2 % 2**32)
";
const WRONG: &str = "n = int(input())\nprint(n * (n - 1) // 2)\n";

/// `(n, 1 + ... + n)` as `.in` / `.ans` texts.
fn case(n: u64) -> (String, String) {
    (
        format!("{n}\n"),
        format!("{}\n", u128::from(n) * (u128::from(n) + 1) / 2),
    )
}

fn scoring_package(dir: &Dir) {
    let mut package = PackageBuilder::kattis(dir, "tri")
        .manifest("name: Triangle sums\ntype: scoring\nsource: judge tests\n")
        .file("data/sample/testdata.yaml", "accept_score: 0\n")
        .file(
            "data/secret/testdata.yaml",
            "grader_flags: first_error accept_if_any_accepted\n",
        )
        .submission("accepted/formula.py", ACCEPTED)
        .submission("partially_accepted/narrow.py", PARTIAL)
        .submission("wrong_answer/off.py", WRONG);
    for group in ["subtask1", "subtask2"] {
        package = package.file(
            &format!("data/secret/{group}/testdata.yaml"),
            "on_reject: break\naccept_score: 50\nrange: 0 50\ngrader_flags: min\n",
        );
    }
    // Subtask 2: the first test defeats 32-bit sums, the second would
    // make the partial solution loop for a billion steps, were it run.
    for (name, n) in [
        ("sample/1", 3),
        ("secret/subtask1/1", 10),
        ("secret/subtask1/2", 1000),
        ("secret/subtask2/1", 100_000),
        ("secret/subtask2/2", 1_000_000_000),
    ] {
        let (input, answer) = case(n);
        package = package.test(name, input, answer);
    }
    package.build();
}

#[test]
fn a_partial_solution_scores_exactly_one_subtask() {
    let dir = Dir::new();
    scoring_package(&dir);
    let run = dir.judge(&["grade", "--package", "tri", "--jobs", "2"]);
    let out = run.stdout();
    run.expect_code(0);
    for line in [
        "ok       tri/submissions/accepted/formula.py: AC, score 100 of 100 (folder accepted)",
        "ok       tri/submissions/partially_accepted/narrow.py: AC, score 50 of 100 (folder partially_accepted)",
        "ok       tri/submissions/wrong_answer/off.py: WA, score 0 of 100 (folder wrong_answer) on sample/1",
        // The partial solution's second subtask stopped at its first
        // rejection (`on_reject: break`): the test it would loop on never
        // ran, so the group is WA, not TLE (its default is `worst_error`).
        "           secret/subtask1: 50 of 50 (AC)",
        "           secret/subtask2: 0 of 50 (WA)",
        "3 of 3 submissions got their folder's verdict; 0 skipped",
    ] {
        assert!(out.contains(line), "missing `{line}` in:\n{out}");
    }
}

#[test]
fn a_full_or_empty_score_in_partially_accepted_is_a_mismatch() {
    let dir = Dir::new();
    scoring_package(&dir);
    dir.create("tri/submissions/partially_accepted/full.py", ACCEPTED);
    dir.create("tri/submissions/partially_accepted/none.py", WRONG);
    let run = dir.judge(&["grade", "--package", "tri"]);
    let out = run.stdout();
    run.expect_code(1);
    assert!(
        out.contains("MISMATCH tri/submissions/partially_accepted/full.py: AC, score 100 of 100"),
        "{out}"
    );
    assert!(
        out.contains("MISMATCH tri/submissions/partially_accepted/none.py: WA, score 0 of 100"),
        "{out}"
    );
}

#[test]
fn a_bad_testdata_yaml_refuses_the_package_with_its_line_and_keys() {
    let dir = Dir::new();
    scoring_package(&dir);
    dir.create(
        "tri/data/secret/subtask2/testdata.yaml",
        "on_reject: break\naccept_score: 50\npoints: 50\n",
    );
    let run = dir.judge(&["grade", "--package", "tri"]);
    run.expect_code(2);
    let err = run.stderr();
    assert!(err.contains("data/secret/subtask2/testdata.yaml"), "{err}");
    assert!(err.contains("line 3"), "{err}");
    assert!(err.contains("unknown field `points`"), "{err}");
    assert!(err.contains("`grader_flags`"), "{err}");
}

/// 32 bits: the small group and no test of the large one.
const NARROW: &str = "n = int(input())\nprint(n * (n + 1) // 2 % 2**32)\n";

#[test]
fn problem_toml_groups_score_points_per_group() {
    let dir = Dir::new();
    triangle_sums_package(&dir, "tri").build();
    dir.create("tri/submissions/accepted/formula.py", ACCEPTED);
    dir.create("tri/submissions/partially_accepted/narrow.py", NARROW);
    let run = dir.judge(&["grade", "--package", "tri"]);
    let out = run.stdout();
    run.expect_code(0);
    for line in [
        "ok       tri/submissions/accepted/formula.py: AC, score 100 of 100 (folder accepted)",
        "ok       tri/submissions/partially_accepted/narrow.py: WA, score 30 of 100 (folder partially_accepted)",
        "           small: 30 of 30 (AC)",
        "           large: 0 of 70 (WA)",
    ] {
        assert!(out.contains(line), "missing `{line}` in:\n{out}");
    }
}

/// The tests of `submission`'s result in a JSON report, and its score and
/// groups.
fn tests_and_score(
    report: &serde_json::Value,
    submission: &str,
) -> (Vec<String>, serde_json::Value) {
    let result = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|result| result["submission"].as_str().unwrap().ends_with(submission))
        .unwrap_or_else(|| panic!("no result for {submission}: {report:#}"));
    let tests = result["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|test| test["name"].as_str().unwrap().to_owned())
        .collect();
    let score = serde_json::json!({
        "score": result["score"],
        "max_score": result["max_score"],
        "verdict": result["verdict"],
        "groups": result["groups"],
    });
    (tests, score)
}

/// See: issue #15. Under `on_reject: break` the tests after a group's
/// first rejection are not run (one worker: a test is run exactly when it
/// is in the result), and the score is the same as with every test run.
#[test]
fn on_reject_break_runs_no_unreached_test_and_scores_the_same() {
    let dir = Dir::new();
    scoring_package(&dir);
    let gated = dir.judge(&[
        "grade",
        "--package",
        "tri",
        "--jobs",
        "1",
        "--json",
        "gated.json",
    ]);
    gated.expect_code(0);
    let all = dir.judge(&[
        "grade",
        "--package",
        "tri",
        "--jobs",
        "1",
        "--all-tests",
        "--json",
        "all.json",
    ]);
    all.expect_code(0);
    let gated = crate::support::report(&dir.read("gated.json"));
    let all = crate::support::report(&dir.read("all.json"));
    let (gated_tests, gated_score) = tests_and_score(&gated, "narrow.py");
    let (all_tests, all_score) = tests_and_score(&all, "narrow.py");
    assert_eq!(
        gated_tests,
        [
            "sample/1",
            "secret/subtask1/1",
            "secret/subtask1/2",
            "secret/subtask2/1"
        ],
        "{gated:#}"
    );
    assert_eq!(all_tests.len(), 5, "{all:#}");
    assert_eq!(gated_score, all_score);
    assert_eq!(gated_score["score"], 50.0, "{gated_score:#}");
    assert_eq!(
        gated_score["groups"].as_array().map(Vec::len),
        Some(4),
        "{gated_score:#}"
    );
}

/// See: issue #15. `judge run` scores a package with `[[groups]]` by its
/// groups: the terminal, the JSON and the CSV carry the score.
#[test]
fn run_scores_by_the_groups() {
    let dir = Dir::new();
    triangle_sums_package(&dir, "problems/tri").build();
    dir.create("narrow.py", NARROW);
    let run = dir.judge(&[
        "run",
        "tri",
        "narrow.py",
        "--problems-dir",
        "problems",
        "--json",
        "run.json",
        "--csv",
        "run.csv",
    ]);
    run.expect_code(1);
    let out = run.stdout();
    for line in [
        "  score 30 of 100",
        "    small: 30 of 30 (AC)",
        "    large: 0 of 70 (WA)",
    ] {
        assert!(out.contains(line), "missing `{line}` in:\n{out}");
    }
    let report = crate::support::report(&dir.read("run.json"));
    let (tests, score) = tests_and_score(&report, "narrow.py");
    assert_eq!(tests.len(), 4, "`run` runs every test: {report:#}");
    assert_eq!(score["score"], 30.0, "{score:#}");
    assert_eq!(score["max_score"], 100.0, "{score:#}");
    assert_eq!(score["groups"][1]["name"], "large", "{score:#}");
    let csv = dir.read("run.csv");
    assert!(csv.contains(",tri,30.00,WA,"), "{csv}");
    // The score is points of `max_score`.
    assert!(
        csv.starts_with("student,problem,score,verdict,passed,total,max_score\n"),
        "{csv}"
    );
    assert!(csv.contains(",tri,30.00,WA,2,4,100.00\n"), "{csv}");
    // Other tests are in no group: pass-fail, with a note.
    dir.create("other/x.in", "3\n");
    dir.create("other/x.ans", "6\n");
    let random = dir.judge(&[
        "run",
        "tri",
        "narrow.py",
        "--problems-dir",
        "problems",
        "--tests",
        "other",
    ]);
    assert!(
        random
            .stderr()
            .contains("scores by test groups, which hold its own tests only"),
        "{}",
        random.stderr()
    );
    assert!(
        !random.stdout().contains("score 30 of 100"),
        "{}",
        random.stdout()
    );
    // ... and it still shows its score, as a run on the package's tests
    // does: the percent of tests passed, of 100.
    for line in [
        "  score 100 of 100",
        "    all tests (percent passed): 100 of 100 (AC)",
    ] {
        assert!(
            random.stdout().contains(line),
            "missing `{line}` in:\n{}",
            random.stdout()
        );
    }
}

/// See: issue #15. A scored package's `judge run` with random tests shows
/// the same score summary as one on its own tests: the percent of the
/// run's tests passed, of 100, in the table, the JSON and the CSV.
#[test]
fn a_run_with_random_tests_shows_its_score() {
    let dir = Dir::new();
    triangle_sums_package(&dir, "problems/tri").build();
    let manifest = dir.read("problems/tri/problem.toml").replace(
        "reference = \"reference.py\"\n",
        "reference = \"reference.py\"\ngenerator = \"gen.py\"\n",
    );
    dir.create("problems/tri/problem.toml", manifest);
    // Small sizes only: the narrow solution passes every random test.
    dir.create(
        "problems/tri/gen.py",
        "import sys\nprint(int(sys.argv[1]) % 1000 + 1)\n",
    );
    dir.create("narrow.py", NARROW);
    let run = dir.judge(&[
        "run",
        "tri",
        "narrow.py",
        "--problems-dir",
        "problems",
        "--random",
        "4",
        "--json",
        "run.json",
        "--csv",
        "run.csv",
    ]);
    run.expect_code(1);
    let out = run.stdout();
    // 2 of the package's 4 tests and the 4 random ones: 6 of 8.
    for line in [
        "  score 75 of 100",
        "    all tests (percent passed): 75 of 100 (WA)",
    ] {
        assert!(out.contains(line), "missing `{line}` in:\n{out}");
    }
    let report = crate::support::report(&dir.read("run.json"));
    let (tests, score) = tests_and_score(&report, "narrow.py");
    assert_eq!(tests.len(), 8, "{report:#}");
    assert_eq!(score["score"], 75.0, "{score:#}");
    assert_eq!(score["max_score"], 100.0, "{score:#}");
    assert_eq!(
        score["groups"][0]["tests"].as_array().map(Vec::len),
        Some(8),
        "{score:#}"
    );
    let csv = dir.read("run.csv");
    assert!(csv.contains(",tri,75.00,WA,6,8,100.00\n"), "{csv}");
}

/// See: issue #15. A class's `grade` scores by the groups too, and runs
/// only the tests they reach.
#[test]
fn a_class_grade_scores_by_the_groups() {
    let dir = Dir::new();
    triangle_sums_package(&dir, "problems/tri").build();
    dir.create(
        "judge.toml",
        "submissions = \"hand-ins\"\nlayout = \"student/problem\"\nrandom-tests = 0\njobs = 1\n",
    );
    dir.create("hand-ins/alice/tri.py", ACCEPTED);
    dir.create("hand-ins/bob/tri.py", NARROW);
    dir.create("hand-ins/carol/tri.py", WRONG);
    let run = dir.judge(&[
        "grade",
        "--problems-dir",
        "problems",
        "--json",
        "class.json",
        "--csv",
        "class.csv",
        "--html",
        "class.html",
    ]);
    let out = run.stdout();
    assert!(out.contains("30/100"), "{out}");
    assert!(out.contains("100/100"), "{out}");
    let report = crate::support::report(&dir.read("class.json"));
    let (tests, score) = tests_and_score(&report, "bob/tri.py");
    assert_eq!(score["score"], 30.0, "{score:#}");
    assert_eq!(score["groups"][0]["verdict"], "AC", "{score:#}");
    // `large` sums its tests: every one runs.
    assert_eq!(tests, ["a-1", "a-2", "b-1", "b-2"], "{report:#}");
    // `small` is pass-fail, so it stops at its first rejection: `a-2` is
    // not run.
    let (tests, score) = tests_and_score(&report, "carol/tri.py");
    assert_eq!(tests, ["a-1", "b-1", "b-2"], "{report:#}");
    assert_eq!(score["score"], 0.0, "{score:#}");
    let csv = dir.read("class.csv");
    assert!(csv.contains("bob,tri,30.00,WA,"), "{csv}");
    assert!(csv.contains("alice,tri,100.00,AC,"), "{csv}");
    assert!(dir.path().join("class.html").is_file());
}

/// A validator that scores: an exact answer is worth 10 (`score.txt`), one
/// off by one 5, anything else is rejected.
const SCORING_VALIDATOR: &str = r#"import os, sys
answer = int(open(sys.argv[2]).read())
feedback = sys.argv[3]
try:
    got = int(sys.stdin.read())
except ValueError:
    sys.exit(43)
if abs(got - answer) > 1:
    sys.exit(43)
with open(os.path.join(feedback, "score.txt"), "w") as score:
    score.write("10" if got == answer else "5")
sys.exit(42)
"#;

#[test]
fn a_validators_score_file_scores_the_test() {
    let dir = Dir::new();
    let mut package = PackageBuilder::kattis(&dir, "near")
        .manifest("name: Near sums\ntype: scoring\nvalidation: custom\nlimits:\n  time_limit: 2\n")
        .file(
            "data/testdata.yaml",
            "grader_flags: ignore_sample\non_reject: continue\n",
        )
        .file("data/sample/testdata.yaml", "accept_score: 0\n")
        .file(
            "data/secret/testdata.yaml",
            "on_reject: continue\naccept_score: 10\nrange: 0 20\n",
        )
        .file("output_validators/score.py", SCORING_VALIDATOR)
        .submission("accepted/formula.py", ACCEPTED)
        .submission(
            "partially_accepted/near.py",
            "n = int(input())\nprint(n * (n + 1) // 2 + 1)\n",
        );
    for (name, n) in [("sample/1", 3), ("secret/1", 10), ("secret/2", 1000)] {
        let (input, answer) = case(n);
        package = package.test(name, input, answer);
    }
    package.build();
    let run = dir.judge(&["grade", "--package", "near"]);
    let out = run.stdout();
    run.expect_code(0);
    for line in [
        "ok       near/submissions/accepted/formula.py: AC, score 20 of 20 (folder accepted)",
        "ok       near/submissions/partially_accepted/near.py: AC, score 10 of 20 (folder partially_accepted)",
    ] {
        assert!(out.contains(line), "missing `{line}` in:\n{out}");
    }
    // A validator writing a score that is not a number is a judge error.
    dir.create(
        "near/output_validators/score.py",
        SCORING_VALIDATOR.replace("\"10\" if", "\"ten\" if"),
    );
    let run = dir.judge(&["grade", "--package", "near"]);
    let out = run.stdout();
    run.expect_code(3);
    assert!(
        out.contains("wrote a bad score.txt: `ten` is not a number"),
        "{out}"
    );
}

/// See: issue #15. A validator's `score.txt` above what a test of its
/// group may score is a judge error of that test, and the message says
/// which file, which value and which maximum.
#[test]
fn a_validator_score_above_the_maximum_is_a_judge_error_with_its_reason() {
    let dir = Dir::new();
    triangle_sums_package(&dir, "problems/tri").build();
    let manifest = dir.read("problems/tri/problem.toml")
        + "[checker]\nkind = \"kattis\"\nprogram = \"score.py\"\n";
    dir.create("problems/tri/problem.toml", manifest);
    // Every accepted output is worth 45: more than the 30 of `small`'s
    // tests and the 35 of each of `large`'s two.
    dir.create(
        "problems/tri/score.py",
        "import os, sys\nanswer = open(sys.argv[2]).read().split()\n\
         if sys.stdin.read().split() != answer:\n    sys.exit(43)\n\
         open(os.path.join(sys.argv[3], 'score.txt'), 'w').write('45')\nsys.exit(42)\n",
    );
    dir.create("formula.py", ACCEPTED);
    let run = dir.judge(&[
        "run",
        "tri",
        "formula.py",
        "--problems-dir",
        "problems",
        "--json",
        "run.json",
    ]);
    let report = crate::support::report(&dir.read("run.json"));
    let tests = report["results"][0]["tests"].as_array().unwrap();
    let message = |name: &str| {
        let test = tests.iter().find(|test| test["name"] == name).unwrap();
        assert_eq!(test["verdict"], "JE", "{report:#}");
        test["message"].as_str().unwrap().to_owned()
    };
    assert_eq!(
        message("a-1"),
        "the output validator's score (score.txt, or testlib's `quitp`) gives 45 points, more \
         than the 30 a test of group `small` may score (the validator's fault, not the \
         submission's)"
    );
    assert!(
        message("b-2")
            .contains("`quitp`) gives 45 points, more than the 35 a test of group `large`"),
        "{report:#}"
    );
    run.expect_code(3);
}

#[test]
fn a_class_grade_warns_about_each_scored_package_it_cannot_score_by_groups() {
    // Two scored packages under random tests: each gets its own warning
    // (a settings warning was once said once per process, whatever it said).
    let dir = Dir::new();
    triangle_sums_package(&dir, "problems/tri").build();
    triangle_sums_package(&dir, "problems/tri2").build();
    dir.create(
        "judge.toml",
        "submissions = \"hand-ins\"\nlayout = \"student/problem\"\nrandom-tests = 1\njobs = 1\n",
    );
    dir.create("hand-ins/alice/tri.py", ACCEPTED);
    dir.create("hand-ins/alice/tri2.py", ACCEPTED);
    let run = dir.judge(&["grade", "--problems-dir", "problems"]);
    let err = run.stderr();
    for package in ["tri", "tri2"] {
        let warning = format!("warning: `{package}` scores by test groups");
        assert_eq!(err.matches(&warning).count(), 1, "{package}: {err}");
    }
}

/// `judge merge` of a scored package's shards decides as the unsharded
/// `grade --package` does: a partial score in `partially_accepted/` (a
/// folder that names no verdict) agrees, so every shard, the merge and the
/// whole grade exit 0 and count 3 of 3 agreeing.
#[test]
fn merged_shards_of_a_scored_package_agree_as_the_whole_grade_does() {
    let dir = Dir::new();
    scoring_package(&dir);
    let whole = dir.judge(&["grade", "--package", "tri", "--json", "all.json"]);
    whole.expect_code(0);
    assert!(
        whole
            .stdout()
            .contains("3 of 3 submissions got their folder's verdict"),
        "{}",
        whole.stdout()
    );
    let merged = dir.grade_package_in_halves("tri");
    merged.expect_code(0);
    let out = merged.stdout();
    assert!(
        out.contains("3 of 3 submissions got their folder's verdict"),
        "{out}"
    );
}
