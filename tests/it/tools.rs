//! Issue #10, "tools a problem setter and a CI job can trust": exit codes that
//! hold when stdout goes away, `judge check`'s own failures as 3, files that
//! cannot be read, streaming and atomic `gen`, folder-wide commands.
//! See: issue #10

use crate::support::{repository, Dir};

fn repo(path: &str) -> String {
    repository().join(path).display().to_string()
}

/// Two different multi-line files, so a diff has many lines to write.
fn two_different_files(dir: &Dir) {
    let expected: String = (0..50_000).map(|line| format!("{line}\n")).collect();
    let actual: String = (0..50_000).map(|line| format!("{}\n", line + 1)).collect();
    dir.create("expected.txt", expected);
    dir.create("actual.txt", actual);
}

#[test]
fn diff_keeps_exit_1_when_stdout_closes_early() {
    let dir = Dir::new();
    two_different_files(&dir);
    let (code, stderr) = dir.judge_closed_stdout(&["diff", "expected.txt", "actual.txt"]);
    assert_eq!(code, 1, "{stderr}");
}

#[test]
fn run_keeps_exit_1_when_stdout_closes_early() {
    let dir = Dir::new();
    let (code, stderr) = dir.judge_closed_stdout(&[
        "run",
        "rooks",
        &repo("submissions/rooks/wrong_answer/ignores_walls.py"),
        "--random",
        "2",
        "--config",
        &repo("judge.toml"),
        "--problems-dir",
        &repo("problems"),
    ]);
    assert_eq!(code, 1, "{stderr}");
}

#[test]
fn grade_keeps_exit_1_when_stdout_closes_early() {
    let dir = Dir::new();
    dir.create(
        "judge.toml",
        "layout = \"problem/student\"\nrandom-tests = 1\njobs = 1\n",
    );
    dir.create(
        "submissions/rooks/zero.py",
        "import sys\nfor token in sys.stdin.read().split()[:1]:\n    print(0)\n",
    );
    let (code, stderr) = dir.judge_closed_stdout(&["grade"]);
    assert_eq!(code, 1, "{stderr}");
}

#[test]
fn stress_keeps_exit_1_when_stdout_closes_early() {
    let dir = Dir::new();
    let (code, stderr) = dir.judge_closed_stdout(&[
        "stress",
        "rooks",
        &repo("submissions/rooks/wrong_answer/ignores_walls.py"),
        "--seed",
        "1",
        "--iterations",
        "50",
        "--shrink-runs",
        "0",
        "--config",
        &repo("judge.toml"),
        "--problems-dir",
        &repo("problems"),
    ]);
    assert_eq!(code, 1, "{stderr}");
}

#[test]
fn check_keeps_its_verdict_code_when_stdout_closes_early() {
    let dir = Dir::new();
    dir.create("in", "2\n..\n..\n0\n");
    dir.create("out", "1\n");
    let (code, stderr) = dir.judge_closed_stdout(&["check", "rooks", "in", "out"]);
    assert_eq!(code, 1, "{stderr}");
}

#[test]
fn check_answers_what_is_not_a_verdict_with_3_and_one_line() {
    let dir = Dir::new();
    dir.create("in", "2\n..\n..\n0\n");
    dir.create("out", "2\n");
    dir.create("bad/rooks/problem.toml", "title = \n");
    dir.create("empty/.keep", "");
    let cases: &[&[&str]] = &[
        &["check"],
        &["check", "rooks", "in"],
        &["check", "nope", "in", "out"],
        &["check", "rooks", "in", "out", "--no-such-flag"],
        &["check", "rooks", "in", "missing"],
        &["check", "rooks", "in", "empty"],
        &[
            "check",
            "rooks",
            "in",
            "out",
            "--problems-dir",
            "/nonexistent",
        ],
        &["check", "rooks", "in", "out", "--problems-dir", "bad"],
    ];
    for args in cases {
        let run = dir.judge(args);
        run.expect_code(3);
        let stdout = run.stdout();
        assert!(
            stdout.starts_with("JE ") && stdout.lines().count() == 1,
            "{args:?}: {stdout}"
        );
    }
    // The one verdict among them, for contrast.
    dir.judge(&["check", "rooks", "in", "out", "--problems-dir", "empty"])
        .expect_code(0);
}

#[test]
fn a_folder_or_an_oversized_file_cannot_be_read_rather_than_being_invalid() {
    let dir = Dir::new();
    dir.create("folder/x", "");
    for command in ["validate", "solve"] {
        let run = dir.judge(&[command, "rooks", "folder"]);
        run.expect_code(3);
        assert!(
            run.stderr().contains("cannot read `folder`"),
            "{}",
            run.stderr()
        );
    }
    dir.judge(&["diff", "folder", "folder"]).expect_code(3);
    // One byte over the read limit (256 MiB), as a sparse file.
    let big = fs_err::File::create(dir.path().join("big.in")).unwrap();
    big.set_len(256 * 1024 * 1024 + 1).unwrap();
    let run = dir.judge(&["validate", "rooks", "big.in"]);
    run.expect_code(3);
    assert!(
        run.stderr().contains("larger than the 256 MiB"),
        "{}",
        run.stderr()
    );
}

#[test]
fn other_commands_refuse_a_problems_dir_that_does_not_exist() {
    let dir = Dir::new();
    let run = dir.judge(&["problems", "--problems-dir", "/nonexistent"]);
    run.expect_code(2);
    assert!(run
        .stderr()
        .contains("`--problems-dir /nonexistent` is not a folder"));
}
