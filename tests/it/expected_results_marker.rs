//! DOMjudge's `@EXPECTED_RESULTS@:` marker in a Kattis package's
//! submissions (issue #34), as NWERC 2022's archive uses it: a submission
//! in `mixed/` or `rejected/` is expected to get one of the verdicts its
//! marker names; in a verdict folder the marker is ignored with a warning;
//! a `submissions.yaml` entry that matches it wins; an unknown name
//! refuses the package.

use crate::support::{line_of, Dir, PackageBuilder};

const SUM: &str = "a, b = map(int, input().split())\nprint(a + b)\n";

/// A package in the shape of NWERC 2022's archive (legacy problem.yaml,
/// `.timelimit`, samples only) with `extra` submissions.
fn nwerc_shaped(dir: &Dir, extra: &[(&str, &str)]) {
    PackageBuilder::kattis(dir, "p")
        .manifest("name: Sum\nsource: NWERC\nvalidation: default\n")
        .file(".timelimit", "2\n")
        .test("sample/1", "1 2\n", "3\n")
        .test("sample/2", "5 5\n", "10\n")
        .submission("accepted/sum.py", SUM)
        .files(extra)
        .build();
}

#[test]
fn a_marker_outside_the_verdict_folders_says_what_the_submission_may_get() {
    let dir = Dir::new();
    nwerc_shaped(
        &dir,
        &[
            (
                "submissions/mixed/slow.cpp",
                "// @EXPECTED_RESULTS@: ACCEPTED, TIME_LIMIT_EXCEEDED\n#include <cstdio>\n\
                 int main() { long long a, b; scanf(\"%lld %lld\", &a, &b); printf(\"%lld\\n\", a + b); }\n",
            ),
            (
                "submissions/mixed/wrong.py",
                "#!/usr/bin/env python3\n# @expected_results@: accepted, timelimit\nprint(0)\n",
            ),
            (
                "submissions/rejected/crash.py",
                "#!/usr/bin/env python3\n# @EXPECTED_RESULTS@: RUN_TIME_ERROR,TIME_LIMIT_EXCEEDED\nraise SystemExit(3)\n",
            ),
            (
                "submissions/mixed/half.py",
                "# @EXPECTED_RESULTS@: WRONG_ANSWER\na, b = map(int, input().split())\n\
                 print(a + b if a == 1 else 0)\n",
            ),
            ("submissions/mixed/unmarked.py", SUM),
            (
                "submissions/wrong_answer/minus.py",
                "# @EXPECTED_RESULTS@: ACCEPTED\na, b = map(int, input().split())\nprint(a - b)\n",
            ),
        ],
    );
    let run = dir.judge(&["grade", "--package", "p"]);
    // `mixed/wrong.py` gets WA, which its marker does not permit.
    run.expect_code(1);
    let (out, err) = (run.stdout(), run.stderr());
    assert!(
        line_of(&out, "p/submissions/mixed/slow.cpp").starts_with(
            "ok       p/submissions/mixed/slow.cpp: AC (@EXPECTED_RESULTS@ in mixed/slow.cpp \
             line 1: one of AC, TLE)"
        ),
        "{out}"
    );
    assert!(
        line_of(&out, "p/submissions/mixed/wrong.py").starts_with(
            "MISMATCH p/submissions/mixed/wrong.py: WA (@EXPECTED_RESULTS@ in mixed/wrong.py \
             line 2: one of AC, TLE)"
        ),
        "{out}"
    );
    // The marker replaces `rejected/`'s default demand.
    assert!(
        line_of(&out, "p/submissions/rejected/crash.py").starts_with(
            "ok       p/submissions/rejected/crash.py: RE (@EXPECTED_RESULTS@ in \
             rejected/crash.py line 2: one of RE, TLE)"
        ),
        "{out}"
    );
    // Its verdict is its first failure's, as DOMjudge judges it: it passes
    // the first sample and its WA on the second is what it names.
    assert!(
        line_of(&out, "p/submissions/mixed/half.py").starts_with(
            "ok       p/submissions/mixed/half.py: WA (@EXPECTED_RESULTS@ in mixed/half.py line \
             1: one of WA) on sample/2"
        ),
        "{out}"
    );
    // In a verdict folder the folder decides.
    assert!(
        line_of(&out, "p/submissions/wrong_answer/minus.py")
            .starts_with("ok       p/submissions/wrong_answer/minus.py: WA (folder wrong_answer)"),
        "{out}"
    );
    assert!(
        err.contains(
            "warning: `p/submissions/wrong_answer/minus.py` line 1: `@EXPECTED_RESULTS@` is \
             ignored: `wrong_answer/` is a verdict folder, which says what it must get (as in \
             BAPCtools)"
        ),
        "{err}"
    );
    // Without a marker, `mixed/` stays skipped.
    assert!(
        err.contains(
            "skipped: p/submissions/mixed/unmarked.py: `mixed/` is not a verdict folder of the \
             Kattis format"
        ),
        "{err}"
    );
    assert!(
        out.contains("5 of 6 submissions got their folder's verdict; 1 skipped"),
        "{out}"
    );
}

#[test]
fn a_submissions_yaml_entry_wins_over_a_marker() {
    let dir = Dir::new();
    nwerc_shaped(
        &dir,
        &[
            (
                "submissions/mixed/wrong.py",
                "# @EXPECTED_RESULTS@: ACCEPTED\nprint(0)\n",
            ),
            (
                "submissions/submissions.yaml",
                "# the setter's\nmixed/wrong.py:\n  permitted: [WA]\n",
            ),
        ],
    );
    let run = dir.judge(&["grade", "--package", "p"]);
    run.expect_code(0);
    let (out, err) = (run.stdout(), run.stderr());
    assert!(
        line_of(&out, "p/submissions/mixed/wrong.py").starts_with(
            "ok       p/submissions/mixed/wrong.py: WA (submissions.yaml `mixed/wrong.py` line 2: \
             permitted WA)"
        ),
        "{out}"
    );
    assert!(
        err.contains(
            "warning: `p/submissions/mixed/wrong.py` line 1: `@EXPECTED_RESULTS@` is ignored: \
             submissions.yaml `mixed/wrong.py` line 2 states what it must get, and the file wins"
        ),
        "{err}"
    );
}

#[test]
fn an_unknown_verdict_in_a_marker_refuses_the_package() {
    let dir = Dir::new();
    nwerc_shaped(
        &dir,
        &[(
            "submissions/mixed/slow.cpp",
            "#include <cstdio>\n// @EXPECTED_RESULTS@: ACCEPTED, SLOW_ANSWER\nint main() {}\n",
        )],
    );
    let run = dir.judge(&["grade", "--package", "p"]);
    run.expect_code(2);
    assert!(
        run.stderr().contains(
            "failed to load `p/submissions/mixed/slow.cpp`: line 2: `@EXPECTED_RESULTS@`: \
             `SLOW_ANSWER` is not a verdict DOMjudge names here"
        ),
        "{}",
        run.stderr()
    );
}
