//! The time limit an older Kattis / DOMjudge package states outside
//! `problem.yaml` (issue #34): a `.timelimit` file at the package's root
//! (NWERC 2022's archive) or `timelimit` in `domjudge-problem.ini`, read as
//! `limits.time_limit` when `problem.yaml` states none, ignored with a
//! warning when it does, refused when it holds no time limit.

use crate::support::{Dir, PackageBuilder};

/// A package in the shape of NWERC 2022's archive: a `problem.yaml` whose
/// limits are all comments, samples only, one accepted submission, and
/// `extra` files at its root.
fn nwerc_shaped(dir: &Dir, problem_yaml: &str, extra: &[(&str, &str)]) {
    PackageBuilder::kattis(dir, "a")
        .manifest(problem_yaml)
        .test("sample/1", "1 2\n", "3\n")
        .submission(
            "accepted/sum.py",
            "a, b = map(int, input().split())\nprint(a + b)\n",
        )
        .files(extra)
        .build();
}

const LEGACY_YAML: &str = "name: Alternating\nsource: NWERC\nvalidation: default\n\
                           # limits:\n#     time_multiplier: 2\n";

#[test]
fn a_timelimit_file_is_the_time_limit_when_problem_yaml_states_none() {
    let dir = Dir::new();
    nwerc_shaped(&dir, LEGACY_YAML, &[(".timelimit", "3\n")]);
    let run = dir.judge(&["grade", "--package", "a"]);
    run.expect_code(0);
    let (out, err) = (run.stdout(), run.stderr());
    assert!(
        out.contains(
            "1 of 1 submissions got their folder's verdict; 0 skipped; time limit 3000 ms"
        ),
        "{out}"
    );
    assert!(
        err.contains(
            "warning: `.timelimit` is deprecated; read as limits.time_limit (3 s): state it in \
             problem.yaml instead"
        ),
        "{err}"
    );
    assert!(
        err.contains("time limit: 3 s, stated in `.timelimit` (read as `limits.time_limit`)"),
        "{err}"
    );
    // Stated, so nothing is derived from the samples.
    assert!(!err.contains("derived from"), "{err}");
    assert_eq!(err.matches("warning:").count(), 1, "{err}");
}

#[test]
fn a_domjudge_ini_time_limit_is_read_too() {
    let dir = Dir::new();
    nwerc_shaped(
        &dir,
        LEGACY_YAML,
        &[(
            "domjudge-problem.ini",
            "probid='A'\nname='Alternating'\ntimelimit='4'\n",
        )],
    );
    let run = dir.judge(&["grade", "--package", "a"]);
    run.expect_code(0);
    assert!(
        run.stdout().contains("time limit 4000 ms"),
        "{}",
        run.stdout()
    );
    assert!(
        run.stderr().contains(
            "warning: `domjudge-problem.ini` is deprecated; read as limits.time_limit (4 s)"
        ),
        "{}",
        run.stderr()
    );
}

#[test]
fn problem_yaml_s_time_limit_wins_and_the_file_is_ignored_with_a_warning() {
    let dir = Dir::new();
    nwerc_shaped(
        &dir,
        "name: Alternating\nlimits:\n  time_limit: 2\n",
        &[(".timelimit", "8")],
    );
    let run = dir.judge(&["grade", "--package", "a"]);
    run.expect_code(0);
    assert!(
        run.stdout().contains("time limit 2000 ms"),
        "{}",
        run.stdout()
    );
    let err = run.stderr();
    assert!(
        err.contains(
            "warning: `.timelimit` (8 s) is ignored: problem.yaml states `limits.time_limit` \
             (2 s); the file is deprecated"
        ),
        "{err}"
    );
    assert!(
        err.contains("time limit: 2 s, stated in problem.yaml `limits.time_limit`"),
        "{err}"
    );
}

#[test]
fn a_timelimit_file_that_states_no_time_limit_refuses_the_package() {
    for (content, why) in [
        (
            "eight\n",
            "`eight` is not a time limit: expected a number of seconds above 0",
        ),
        ("0", "`0` is not a time limit"),
        (
            "1e300",
            "`1e300` seconds is more than the judge allows (3600 s, one hour)",
        ),
    ] {
        let dir = Dir::new();
        nwerc_shaped(&dir, LEGACY_YAML, &[(".timelimit", content)]);
        let run = dir.judge(&["grade", "--package", "a"]);
        run.expect_code(2);
        let err = run.stderr();
        assert!(
            err.contains("`a/.timelimit`: line 1: `timelimit`: ") && err.contains(why),
            "{content:?}: {err}"
        );
    }
    let dir = Dir::new();
    nwerc_shaped(
        &dir,
        LEGACY_YAML,
        &[("domjudge-problem.ini", "name='x'\ntimelimit = '2 s'\n")],
    );
    let run = dir.judge(&["grade", "--package", "a"]);
    run.expect_code(2);
    assert!(
        run.stderr()
            .contains("`a/domjudge-problem.ini`: line 2: `timelimit`: `2 s` is not a time limit"),
        "{}",
        run.stderr()
    );
}
