//! What reading a Kattis package's `submissions/submissions.yaml` checks
//! once the submissions and tests are known (issue #34): a key that
//! matches no submission or no test group is a warning naming the file,
//! its line and the key (a typo must not silently drop an expectation);
//! entries that no result can meet together refuse the package at load,
//! naming the submission and the lines, instead of a MISMATCH at grade
//! time.

use crate::support::{line_of, Dir, PackageBuilder};

const SUM: &str = "a, b = map(int, input().split())\nprint(a + b)\n";

/// A 2025-09 package with a test group `secret/group1`, an accepted and a
/// wrong submission, and `yaml` as its `submissions.yaml`.
fn package(dir: &Dir, yaml: &str) {
    PackageBuilder::kattis(dir, "p")
        .manifest("problem_format_version: 2025-09\nname: Sum\nlimits:\n  time_limit: 2\n")
        .test("sample/1", "1 2\n", "3\n")
        .test("secret/group1/1", "5 5\n", "10\n")
        .submission("accepted/sum.py", SUM)
        .submission(
            "wrong_answer/minus.py",
            "a, b = map(int, input().split())\nprint(a - b)\n",
        )
        .file("submissions/submissions.yaml", yaml)
        .build();
}

#[test]
fn keys_that_match_nothing_are_warned_of_with_their_line() {
    let dir = Dir::new();
    package(
        &dir,
        "accepted/sum.py:\n  permitted: [AC]\n\
         acepted/*:\n  permitted: [AC]\n\
         wrong_answer/minus.py:\n  sample:\n    permitted: [WA]\n  secret/gruop1:\n    permitted: [WA]\n",
    );
    let run = dir.judge(&["grade", "--package", "p"]);
    run.expect_code(0);
    let err = run.stderr();
    assert!(
        err.contains(
            "warning: `submissions/submissions.yaml` line 3: `acepted/*` matches no submission \
             under `submissions/`, so what it states holds for none (a typo?)"
        ),
        "{err}"
    );
    assert!(
        err.contains(
            "warning: `submissions/submissions.yaml` line 8: the test group glob \
             `secret/gruop1` (under `wrong_answer/minus.py`) matches no test group or test of \
             the package"
        ),
        "{err}"
    );
    // The keys that match something are not named.
    assert!(!err.contains("`accepted/sum.py` matches no"), "{err}");
    assert!(!err.contains("`sample` (under"), "{err}");
    assert_eq!(err.matches("warning:").count(), 2, "{err}");
}

#[test]
fn entries_no_result_can_meet_refuse_the_package_before_anything_runs() {
    for (yaml, line, why) in [
        (
            "# a contradiction with the folder\naccepted/sum.py:\n  permitted: [WA, TLE]\n",
            2,
            "folder `accepted/` (permitted AC) and `accepted/sum.py` line 2 (permitted WA, TLE) \
             permit no verdict in common",
        ),
        (
            "wrong_answer:\n  permitted: [WA]\nwrong_answer/minus.py:\n  required: [TLE]\n",
            3,
            "`wrong_answer/minus.py` line 3 requires one of TLE, but `wrong_answer` line 1 \
             (permitted WA; required WA) permits only WA",
        ),
        (
            "accepted/sum.py:\n  secret:\n    required: [WA]\n",
            2,
            "`accepted/sum.py` line 1 requires one of WA on its tests, but folder `accepted/` \
             (permitted AC) and `accepted/sum.py` line 1 (on `secret`: required WA) permit only AC",
        ),
    ] {
        let dir = Dir::new();
        package(&dir, yaml);
        let run = dir.judge(&["grade", "--package", "p"]);
        run.expect_code(2);
        let err = run.stderr();
        let submission = if yaml.contains("minus") {
            "submissions/wrong_answer/minus.py"
        } else {
            "submissions/accepted/sum.py"
        };
        assert!(
            err.contains(&format!(
                "failed to load `p/submissions/submissions.yaml`: line {line}: `{submission}`: no \
                 result can meet what applies to this submission: {why}"
            )),
            "{yaml}: {err}"
        );
        // Refused at load: nothing was graded.
        assert!(run.stdout().is_empty(), "{}", run.stdout());
    }
}

#[test]
fn entries_that_can_be_met_together_grade_as_before() {
    let dir = Dir::new();
    package(
        &dir,
        "wrong_answer/*:\n  permitted: [AC, WA, TLE]\nwrong_answer/minus.py:\n  required: [WA]\n",
    );
    let run = dir.judge(&["grade", "--package", "p"]);
    run.expect_code(0);
    assert!(
        line_of(&run.stdout(), "minus.py").starts_with("ok "),
        "{}",
        run.stdout()
    );
}
