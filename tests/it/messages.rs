//! What a user is told when a test, a package or a run is not what it
//! seems (issue #17, item 7), through the binary.

use crate::support::{repository, Dir, PackageBuilder};

fn matching_py(dir: &Dir) {
    let source =
        fs_err::read_to_string(repository().join("submissions/rooks/accepted/matching.py"))
            .unwrap();
    dir.create("sol.py", source);
}

/// A `--tests` input beyond rooks' n <= 4 runs, with a warning naming the
/// file and the validator's reason, and the table's `tests:` line and the
/// JSON report say which tests are invalid.
#[test]
fn run_warns_of_an_invalid_test_and_the_report_names_it() {
    let dir = Dir::new();
    matching_py(&dir);
    dir.create(
        "my-tests/big.in",
        "5\n.....\n.....\n.....\n.....\n.....\n0\n",
    );
    dir.create("my-tests/big.ans", "5\n");
    dir.create("my-tests/small.in", "2\nX.\n..\n0\n");
    dir.create("my-tests/small.ans", "2\n");
    let run = dir.judge(&[
        "run", "rooks", "sol.py", "--tests", "my-tests", "--json", "r.json",
    ]);
    run.expect_code(0);
    let stderr = run.stderr();
    assert!(
        stderr.contains(
            "warning: `my-tests/big.in` is not a valid input of `rooks`: line 1: the board size \
             n = 5 is outside 1..=4; it runs, but its verdict says nothing about the problem"
        ),
        "{stderr}"
    );
    assert!(!stderr.contains("small.in"), "{stderr}");
    assert!(
        run.stdout()
            .contains("tests: 2 from my-tests only, 1 of them invalid for the problem (big)"),
        "{}",
        run.stdout()
    );
    let report: serde_json::Value = serde_json::from_str(&dir.read("r.json")).unwrap();
    assert_eq!(
        report["tests"]["invalid"],
        serde_json::json!([{
            "name": "big",
            "file": "my-tests/big.in",
            "reason": "line 1: the board size n = 5 is outside 1..=4",
        }])
    );
    let validator = jsonschema::validator_for(&crate::support::report_schema()).unwrap();
    assert!(validator.is_valid(&report));

    // Valid tests only: no warning, no `invalid` key.
    fs_err::remove_file(dir.path().join("my-tests/big.in")).unwrap();
    let run = dir.judge(&[
        "run", "rooks", "sol.py", "--tests", "my-tests", "--json", "r.json",
    ]);
    run.expect_code(0);
    assert!(!run.stderr().contains("warning"), "{}", run.stderr());
    assert!(!run.stdout().contains("invalid"), "{}", run.stdout());
    let report: serde_json::Value = serde_json::from_str(&dir.read("r.json")).unwrap();
    assert!(report["tests"].get("invalid").is_none(), "{report}");
}

/// An invalid test's name cannot move the terminal's cursor or break the
/// warning's line: control characters are shown visible.
#[test]
fn an_invalid_tests_name_is_shown_visible() {
    let dir = Dir::new();
    matching_py(&dir);
    dir.create("t/a\x1b[2J\nb.in", "9\n0\n");
    dir.create("t/a\x1b[2J\nb.ans", "0\n");
    let run = dir.judge(&["run", "rooks", "sol.py", "--tests", "t"]);
    let stderr = run.stderr();
    assert!(
        stderr.contains("warning: `t/a\\x1b[2J\\nb.in` is not a valid input of `rooks`"),
        "{stderr}"
    );
    assert!(!stderr.contains('\x1b') && !run.stdout().contains('\x1b'));
    assert!(
        run.stdout()
            .contains("invalid for the problem (a\\x1b[2J\\nb)"),
        "{}",
        run.stdout()
    );
}

/// `judge new rooks --dir my-problems` writes the package, and warns that
/// under `--problems-dir my-problems` it replaces the built-in `rooks`.
#[test]
fn new_warns_when_its_package_replaces_a_built_in_one() {
    let dir = Dir::new();
    let run = dir.judge(&["new", "rooks", "--dir", "my-problems"]);
    run.expect_code(0);
    assert!(
        run.stderr().contains(
            "warning: `rooks` is also a built-in problem: with `--problems-dir my-problems` the \
             package `my-problems/rooks` replaces the built-in `rooks`"
        ),
        "{}",
        run.stderr()
    );
    assert!(dir.path().join("my-problems/rooks/problem.toml").is_file());
    let run = dir.judge(&["new", "sum-of-list", "--dir", "my-problems"]);
    run.expect_code(0);
    assert!(!run.stderr().contains("warning"), "{}", run.stderr());
}

/// `gen --stats` words only what it knows: sizes for a package with
/// programs of its own (even one named `rooks`), rooks' boards for rooks.
#[test]
fn gen_stats_of_a_package_of_ones_own_is_neutral() {
    let dir = Dir::new();
    for id in ["sum-of-list", "rooks"] {
        dir.judge(&["new", id, "--dir", "mine"]).expect_code(0);
        let run = dir.judge(&[
            "gen",
            id,
            "--problems-dir",
            "mine",
            "--count",
            "3",
            "--stats",
        ]);
        run.expect_code(0);
        let stderr = run.stderr();
        assert!(stderr.contains("3 tests, inputs "), "{id}: {stderr}");
        for word in ["board", "largest answer", "solvable", "won"] {
            assert!(!stderr.contains(word), "{id}: {stderr}");
        }
    }
    let run = dir.judge(&["gen", "rooks", "--count", "3", "--stats"]);
    run.expect_code(0);
    assert!(run.stderr().contains("largest answer"), "{}", run.stderr());
}

/// A program whose stderr is a long chained traceback keeps, in the
/// report's excerpt, the line that says why it failed: the sandbox's
/// `PermissionError` in the middle, not only the `EOFError` at its end
/// (issue 32: Python's `multiprocessing.Manager` showed an `EOFError`
/// and nothing of the refused socket that caused it).
#[test]
fn a_refusal_in_the_middle_of_a_long_traceback_stays_in_the_excerpt() {
    let dir = Dir::new();
    dir.create(
        "refused.py",
        "import socket\n\
         def connect(depth):\n    \
             if depth == 0:\n        \
                 return socket.socket(socket.AF_INET, socket.SOCK_STREAM)\n    \
             return connect(depth - 1)\n\
         def fail(depth):\n    \
             if depth == 0:\n        \
                 raise EOFError\n    \
             fail(depth - 1)\n\
         try:\n    \
             connect(12)\n\
         except PermissionError:\n    \
             fail(12)\n",
    );
    dir.create("tests/one.in", "2\nX.\n..\n0\n");
    dir.create("tests/one.ans", "2\n");
    let run = dir.judge(&[
        "run",
        "rooks",
        "refused.py",
        "--tests",
        "tests",
        "--random",
        "0",
        "--json",
        "r.json",
    ]);
    run.expect_code(1);
    let report: serde_json::Value = serde_json::from_str(&dir.read("r.json")).unwrap();
    let test = &report["results"][0]["tests"][0];
    assert_eq!(test["verdict"], "RE", "{test:#}");
    let stderr = test["stderr"].as_str().unwrap_or("");
    assert!(
        stderr
            .lines()
            .any(|line| line == "PermissionError: [Errno 1] Operation not permitted"),
        "{stderr}"
    );
    assert!(
        stderr.lines().any(|line| line.contains("cut …]")),
        "{stderr}"
    );
    assert_eq!(stderr.lines().last(), Some("EOFError"), "{stderr}");
    assert!(
        run.stdout()
            .contains("PermissionError: [Errno 1] Operation not permitted"),
        "{}",
        run.stdout()
    );
}

/// A report format's table is checked against what the format declares
/// (issue #33): a misspelt key, or a table no format has, names the file,
/// the line and column, and the key it was most likely meant to be.
#[test]
fn a_misspelt_report_setting_names_its_line_with_a_guess() {
    for (toml, said) in [
        (
            "problems = [\"rooks\"]\n[report.gradescope]\nhiden-tests = \"hidden\"\n",
            "error: failed to load `judge.toml`: line 3, column 1: unknown field `hiden-tests`, \
             expected `hidden-tests`; did you mean `hidden-tests`?\n",
        ),
        (
            "problems = [\"rooks\"]\n[report.gradscope]\nhidden-tests = \"hidden\"\n",
            "error: failed to load `judge.toml`: line 2, column 9: unknown field `gradscope`, \
             expected `gradescope`; did you mean `gradescope`?\n",
        ),
    ] {
        let dir = Dir::new();
        dir.create("judge.toml", toml);
        let run = dir.judge(&["grade"]);
        run.expect_code(2);
        assert_eq!(run.stderr(), said);
    }
}

/// A table written as a value of the wrong type is an error that names
/// what was expected in the file's own words, never a Rust type's name
/// (a review of issue #30 met "expected struct GradescopeToml").
#[test]
fn a_table_of_the_wrong_type_is_named_as_the_file_names_it() {
    let dir = Dir::new();
    dir.create(
        "judge.toml",
        "problems = [\"rooks\"]\n[report]\ngradescope = 3\n",
    );
    let run = dir.judge(&["grade"]);
    run.expect_code(2);
    assert_eq!(
        run.stderr(),
        "error: failed to load `judge.toml`: line 3, column 14: invalid type: integer `3`, \
         expected a table `[report.gradescope]` (`hidden-tests = \"...\"`)\n"
    );

    let dir = Dir::new();
    dir.create("judge.toml", "limits = \"fast\"\n");
    let run = dir.judge(&["grade"]);
    run.expect_code(2);
    assert!(
        run.stderr().contains("expected a table `[limits]`"),
        "{}",
        run.stderr()
    );

    // A Kattis package's problem.yaml, in either generation of the format.
    for yaml in [
        "name: Hello\nlimits: 3\n",
        "problem_format_version: 2025-09\nname: Hello\nlimits: [1]\n",
    ] {
        let dir = Dir::new();
        PackageBuilder::kattis(&dir, "p")
            .manifest(yaml)
            .test("secret/1", "1\n", "1\n")
            .submission("accepted/a.py", "print(input())\n")
            .build();
        let run = dir.judge(&["grade", "--package", "p"]);
        run.expect_code(2);
        assert!(
            run.stderr().contains("expected a map `limits:`"),
            "{yaml}: {}",
            run.stderr()
        );
        assert!(!run.stderr().contains("struct"), "{}", run.stderr());
    }
}
