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
    dir.create("in", "2\n..\n..\n0\n");
    let run = dir.judge(&["check", "rooks", "in", "folder"]);
    run.expect_code(3);
    assert!(
        run.stdout().contains("cannot read `folder`"),
        "{}",
        run.stdout()
    );
    // In a folder of tests, a folder named like an input cannot be read.
    dir.create("tests/001.in/x", "");
    let run = dir.judge(&["validate", "rooks", "tests"]);
    run.expect_code(3);
    assert!(
        run.stdout().contains("001.in: cannot read"),
        "{}",
        run.stdout()
    );
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
    assert!(
        run.stderr().contains("`/nonexistent`: is not a folder"),
        "{}",
        run.stderr()
    );
}

/// The peak resident memory (`VmHWM`, KiB) of a running process, if readable.
fn peak_kib(pid: u32) -> Option<u64> {
    let status = fs_err::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// `gen` streams: the first input arrives while the generator is still
/// running, and the peak memory does not grow with the count (the whole
/// output is ~230 MB; it held all of it before issue #10).
#[test]
fn gen_streams_twenty_thousand_large_inputs_in_flat_memory() {
    use std::io::Read as _;
    let dir = Dir::new();
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin!("judge"))
        .current_dir(dir.path())
        .args([
            "gen",
            "rooks",
            "--profile",
            "large",
            "--count",
            "20000",
            "--jobs",
            "2",
        ])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let mut stdout = child.stdout.take().unwrap();
    let mut buffer = vec![0; 1 << 16];
    let first = stdout.read(&mut buffer).unwrap();
    assert!(first > 0);
    assert!(
        child.try_wait().unwrap().is_none(),
        "the first bytes came only after generation ended"
    );
    let (mut total, mut peak) = (first as u64, 0);
    loop {
        let read = stdout.read(&mut buffer).unwrap();
        if read == 0 {
            break;
        }
        total += read as u64;
        peak = peak.max(peak_kib(pid).unwrap_or(0));
    }
    assert!(child.wait().unwrap().success());
    assert!(total > 100_000_000, "only {total} bytes");
    assert!(peak > 0, "VmHWM was never read");
    assert!(peak < 100 * 1024, "peak memory {peak} KiB");
}

fn sorted_names(path: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = fs_err::read_dir(path)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// SIGINT while `gen --out --force` writes leaves the old set whole; the next
/// run removes the leftover folder and writes the new set whole.
#[test]
fn an_interrupted_gen_leaves_the_old_set_never_a_mix() {
    let dir = Dir::new();
    dir.judge(&["gen", "rooks", "--count", "3", "--out", "t"])
        .expect_code(0);
    let old: Vec<(String, String)> = sorted_names(&dir.path().join("t"))
        .into_iter()
        .map(|name| (name.clone(), dir.read(&format!("t/{name}"))))
        .collect();
    // With SIGINT's default action whatever this test was started with: a
    // test run as a background job inherits SIGINT ignored, and gen, which
    // takes no SIGINT of its own, then wrote all 5000 tests (`env` execs
    // the judge, so its pid is the judge's).
    let mut child = std::process::Command::new("env")
        .arg("--default-signal=INT")
        .arg(assert_cmd::cargo::cargo_bin!("judge"))
        .current_dir(dir.path())
        .args(["gen", "rooks", "--profile", "large", "--count", "5000"])
        .args(["--out", "t", "--force", "--seed", "2", "--jobs", "1"])
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Wait until the new set is being written, then interrupt it.
    let staging = loop {
        let found = sorted_names(dir.path())
            .into_iter()
            .find(|name| name.starts_with(".t.gen-"));
        if let Some(name) = found {
            let path = dir.path().join(name);
            if path.is_dir() && sorted_names(&path).len() > 10 {
                break path;
            }
        }
        assert!(child.try_wait().unwrap().is_none(), "gen ended too soon");
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(!child.wait().unwrap().success());
    let now: Vec<(String, String)> = sorted_names(&dir.path().join("t"))
        .into_iter()
        .map(|name| (name.clone(), dir.read(&format!("t/{name}"))))
        .collect();
    assert_eq!(now, old, "the old set changed");

    dir.judge(&["gen", "rooks", "--count", "4", "--out", "t", "--force"])
        .expect_code(0);
    assert!(!staging.exists(), "the leftover folder stayed");
    assert_eq!(
        sorted_names(&dir.path().join("t")),
        ["001.ans", "001.in", "002.ans", "002.in", "003.ans", "003.in", "004.ans", "004.in"]
    );
}

#[test]
fn gen_out_refuses_a_folder_with_tests_unless_force_or_append() {
    let dir = Dir::new();
    dir.create("t/readme.txt", "keep me");
    dir.judge(&["gen", "mayan", "--count", "2", "--out", "t"])
        .expect_code(0);
    let run = dir.judge(&["gen", "mayan", "--count", "2", "--out", "t"]);
    run.expect_code(2);
    assert!(
        run.stderr().contains("already holds tests"),
        "{}",
        run.stderr()
    );
    // --append continues the numbering and the seed's sequence.
    dir.judge(&["gen", "mayan", "--count", "1", "--out", "t", "--append"])
        .expect_code(0);
    let three = dir.judge(&["gen", "mayan", "--count", "3", "--out", "u"]);
    three.expect_code(0);
    assert_eq!(dir.read("t/003.in"), dir.read("u/003.in"));
    // Another prefix is another set, beside this one.
    dir.create("t/sample-1.in", "1\n1 1 0\n1 0\n0\n0\n0\n");
    dir.judge(&[
        "gen", "mayan", "--count", "1", "--out", "t", "--prefix", "hard-",
    ])
    .expect_code(0);
    // --force replaces this set only: samples, other sets and other files stay.
    dir.judge(&["gen", "mayan", "--count", "1", "--out", "t", "--force"])
        .expect_code(0);
    assert_eq!(
        sorted_names(&dir.path().join("t")),
        [
            "001.ans",
            "001.in",
            "hard-001.ans",
            "hard-001.in",
            "readme.txt",
            "sample-1.in"
        ]
    );
    // Ordinary permissions, not a temporary file's 0600.
    use std::os::unix::fs::PermissionsExt as _;
    let mode = fs_err::metadata(dir.path().join("t/001.in"))
        .unwrap()
        .permissions()
        .mode();
    assert_ne!(mode & 0o044, 0, "mode {mode:o}");
}

#[test]
fn gen_keeps_the_numbering_width_and_says_when_a_number_needs_more() {
    let dir = Dir::new();
    let run = dir.judge(&[
        "gen", "rooks", "--count", "10", "--out", "t", "--width", "1",
    ]);
    run.expect_code(0);
    assert!(dir.path().join("t/1.in").exists());
    assert!(dir.path().join("t/10.in").exists());
    assert!(
        run.stderr()
            .contains("note: tests after 9 have 2-digit names"),
        "{}",
        run.stderr()
    );
    let stats = dir.judge(&[
        "gen",
        "mayan",
        "--count",
        "4",
        "--stats",
        "--profile",
        "hard",
    ]);
    stats.expect_code(0);
    assert!(
        stats.stderr().contains("4 tests, inputs"),
        "{}",
        stats.stderr()
    );
    assert!(stats.stderr().contains("solvable"), "{}", stats.stderr());
    // Inputs on stdout are separated by one empty line.
    assert_eq!(stats.stdout().matches("\n\n").count(), 3);
}

/// A folder with a good test, an invalid one, one without an answer, one
/// with a stale answer; outputs right, wrong and missing.
fn mixed_folder(dir: &Dir) {
    dir.create("tests/a.in", "2\n..\n..\n0\n");
    dir.create("tests/a.ans", "2\n");
    dir.create("tests/b.in", "2\n..\n..\n0\n");
    dir.create("tests/c.in", "2\nX.\n..\n0\n");
    dir.create("tests/c.ans", "7\n");
    dir.create("tests/notes.txt", "not a test");
}

#[test]
fn validate_a_folder_says_one_line_per_file_and_exits_for_the_folder() {
    let dir = Dir::new();
    mixed_folder(&dir);
    let run = dir.judge(&["validate", "rooks", "tests"]);
    run.expect_code(0);
    assert_eq!(run.stdout(), "a.in: ok\nb.in: ok\nc.in: ok\n");
    dir.create("tests/d.in", "02\n..\n..\n0\n");
    let run = dir.judge(&["validate", "rooks", "tests"]);
    run.expect_code(1);
    let lines: Vec<String> = run.stdout().lines().map(str::to_owned).collect();
    assert_eq!(lines.len(), 4, "{}", run.stdout());
    assert!(lines[3].starts_with("d.in: line 1"), "{}", lines[3]);
    dir.create("empty/.keep", "");
    dir.judge(&["validate", "rooks", "empty"]).expect_code(2);
}

#[test]
fn solve_a_folder_writes_missing_and_stale_answers_and_says_which() {
    let dir = Dir::new();
    mixed_folder(&dir);
    let run = dir.judge(&["solve", "rooks", "tests"]);
    run.expect_code(0);
    assert_eq!(
        run.stdout(),
        "a.ans: up to date\nb.ans: wrote (missing)\nc.ans: wrote (stale)\n"
    );
    assert_eq!(dir.read("tests/b.ans"), "2\n");
    assert_eq!(dir.read("tests/c.ans"), "2\n");
    dir.create("tests/d.in", "3\n..\n0\n");
    let run = dir.judge(&["solve", "rooks", "tests"]);
    run.expect_code(1);
    assert!(
        run.stdout().contains("d.in: invalid: line"),
        "{}",
        run.stdout()
    );
    assert!(!dir.path().join("tests/d.ans").exists());
}

#[test]
fn check_a_folder_of_outputs_one_line_per_test() {
    let dir = Dir::new();
    mixed_folder(&dir);
    fs_err::write(dir.path().join("tests/c.ans"), "2\n").unwrap();
    dir.create("outputs/a.out", "2\n");
    dir.create("outputs/b.out", "2\n");
    dir.create("outputs/c.out", "2\n");
    let run = dir.judge(&["check", "rooks", "tests", "outputs"]);
    run.expect_code(0);
    assert_eq!(run.stdout().lines().count(), 3, "{}", run.stdout());
    fs_err::write(dir.path().join("outputs/b.out"), "1\n").unwrap();
    fs_err::remove_file(dir.path().join("outputs/c.out")).unwrap();
    let run = dir.judge(&["check", "rooks", "tests", "outputs"]);
    run.expect_code(1);
    let stdout = run.stdout();
    let verdicts: Vec<&str> = stdout
        .lines()
        .map(|line| line.split(' ').nth(1).unwrap_or(""))
        .collect();
    assert_eq!(verdicts, ["AC", "WA", "WA"], "{stdout}");
    assert!(run.stdout().contains("c WA no output"), "{}", run.stdout());
    fs_err::write(dir.path().join("outputs/a.out"), "two\n").unwrap();
    dir.judge(&["check", "rooks", "tests", "outputs"])
        .expect_code(2);
    // A judge answer that does not parse is JE, and the folder exits 3.
    fs_err::write(dir.path().join("tests/a.ans"), "x\n").unwrap();
    dir.judge(&["check", "rooks", "tests", "outputs"])
        .expect_code(3);
}

/// `--profile edge` checks the edge promise: the NOIP sample (n = 3, no
/// shorter solution, same answer under both readings) is not an edge board;
/// `1 1 _ 1` with n = 2 (clears in 1 move) is. An empty board is invalid.
#[test]
fn validate_edge_rejects_an_unambiguous_board_and_any_empty_board() {
    let dir = Dir::new();
    dir.create("sample.in", "3\n1 0\n2 1 0\n2 3 4 0\n3 1 0\n2 4 3 4 0\n");
    dir.create("fewer.in", "2\n1 0\n1 0\n0\n1 0\n0\n");
    dir.create("empty.in", "1\n0\n0\n0\n0\n0\n");
    let run = dir.judge(&["validate", "mayan", "sample.in", "--profile", "edge"]);
    run.expect_code(1);
    assert!(
        run.stderr().contains("profile `edge` has only boards"),
        "{}",
        run.stderr()
    );
    dir.judge(&["validate", "mayan", "sample.in"])
        .expect_code(0);
    dir.judge(&["validate", "mayan", "fewer.in", "--profile", "edge"])
        .expect_code(0);
    let run = dir.judge(&["validate", "mayan", "empty.in"]);
    run.expect_code(1);
    assert!(
        run.stderr().contains("line 2: the board is empty"),
        "{}",
        run.stderr()
    );
    // solve stays lenient: the empty board has no n-move solution.
    let run = dir.judge(&["solve", "mayan", "empty.in"]);
    run.expect_code(0);
    assert_eq!(run.stdout(), "-1\n");
}

#[test]
fn problems_json_for_scripts_and_an_aligned_table() {
    let dir = Dir::new();
    let run = dir.judge(&["problems", "--json"]);
    run.expect_code(0);
    let rows: serde_json::Value = serde_json::from_str(&run.stdout()).unwrap();
    let ids: Vec<&str> = rows
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        [
            "rooks",
            "rooks-large",
            "matchsticks",
            "matchsticks-duel",
            "mayan"
        ]
    );
    assert_eq!(rows[1]["engine"], "rooks");
    assert_eq!(rows[1]["profiles"][0]["name"], "large");
    assert!(rows[2]["time_limit_ms"].as_u64().is_some());
    // Every row's "time" column ends at the same place.
    let table = dir.judge(&["problems"]).stdout();
    let ends: Vec<usize> = table
        .lines()
        .take_while(|line| !line.is_empty())
        .map(|line| {
            line.find(" ms")
                .map_or_else(|| line.find("time").unwrap() + 4, |at| at + 3)
        })
        .collect();
    assert!(ends.windows(2).all(|pair| pair[0] == pair[1]), "{table}");
}

/// Help is part of the interface: the commands issue #10 changed.
#[test]
fn help_of_the_changed_commands_is_stable() {
    for command in ["gen", "check", "validate", "solve", "diff", "problems"] {
        let run = Dir::new().judge(&[command, "--help"]);
        run.expect_code(0);
        insta::assert_snapshot!(format!("help-{command}"), run.stdout());
    }
}

/// See: issue #32 (item 5). One missing `.ans` in a package no longer
/// blocks every command: `solve` (the fix the error suggests), `check`,
/// `validate`, `gen` and `stress` run; `run`, which needs the answer, names
/// the file, and runs once `solve` wrote it.
#[test]
fn r32_a_missing_answer_blocks_only_the_commands_that_read_it() {
    let dir = Dir::new();
    dir.judge(&["new", "hello"]).expect_code(0);
    fs_err::remove_file(dir.path().join("problems/hello/tests/edges-1.ans")).unwrap();
    let with = |args: &[&str]| {
        let mut all = args.to_vec();
        all.extend(["--problems-dir", "problems"]);
        dir.judge(&all)
    };
    let solved = with(&["solve", "hello", "problems/hello/tests/edges-1.in"]);
    solved.expect_code(0);
    let sample = "problems/hello/tests/sample-1";
    with(&[
        "check",
        "hello",
        &format!("{sample}.in"),
        &format!("{sample}.ans"),
        &format!("{sample}.ans"),
    ])
    .expect_code(0);
    with(&["validate", "hello", &format!("{sample}.in")]).expect_code(0);
    with(&["gen", "hello", "--seed", "1"]).expect_code(0);
    let stress = with(&[
        "stress",
        "hello",
        "problems/hello/reference.py",
        "--iterations",
        "3",
    ]);
    stress.expect_code(0);
    let run = with(&["run", "hello", "problems/hello/reference.py"]);
    run.expect_code(2);
    assert!(
        run.stderr().contains(
            "the test has no answer `edges-1.ans` beside it; write it with `judge solve hello \
             problems/hello/tests/edges-1.in > problems/hello/tests/edges-1.ans`"
        ),
        "{}",
        run.stderr()
    );
    dir.create("problems/hello/tests/edges-1.ans", solved.stdout());
    with(&["run", "hello", "problems/hello/reference.py"]).expect_code(0);
}

/// See: issue #32 (item 10). The validator `judge new` writes read a line
/// `1 2 3 ` (a trailing space) as four numbers, one empty, and said "found
/// 4 numbers"; it says what is wrong: the spacing.
#[test]
fn r32_the_new_packages_validator_names_a_stray_space_not_an_extra_number() {
    let dir = Dir::new();
    dir.judge(&["new", "hello"]).expect_code(0);
    for (input, found) in [
        ("3\n1 2 3 \n", "'1 2 3 '"),
        ("3\n 1 2 3\n", "' 1 2 3'"),
        ("3\n1  2 3\n", "'1  2 3'"),
    ] {
        dir.create("t.in", input);
        let run = dir.judge(&["validate", "--problems-dir", "problems", "hello", "t.in"]);
        run.expect_code(1);
        assert!(
            run.stderr().contains(&format!(
                "line 2: expected numbers separated by single spaces, none at the start or \
                 end, found {found}"
            )),
            "{}",
            run.stderr()
        );
    }
    dir.create("t.in", "3\n1 2\n");
    let run = dir.judge(&["validate", "--problems-dir", "problems", "hello", "t.in"]);
    run.expect_code(1);
    assert!(
        run.stderr().contains("line 2: expected 3 numbers, found 2"),
        "{}",
        run.stderr()
    );
}

/// See: issue #32 (item 10). `judge gen --from N` makes test N of the
/// seed's sequence alone (the Nth of `--count N`), printed or written as
/// `DIR/NNN.in`: remaking stress failure #29 made 29 tests.
#[test]
fn r32_gen_from_makes_one_test_of_the_sequence_alone() {
    let dir = Dir::new();
    let all = dir.judge(&[
        "gen", "rooks", "--seed", "3", "--count", "29", "--out", "all",
    ]);
    all.expect_code(0);
    let alone = dir.judge(&[
        "gen", "rooks", "--seed", "3", "--from", "29", "--out", "one",
    ]);
    alone.expect_code(0);
    assert_eq!(sorted_names(&dir.path().join("one")), ["029.ans", "029.in"]);
    assert_eq!(dir.read("one/029.in"), dir.read("all/029.in"));
    assert_eq!(dir.read("one/029.ans"), dir.read("all/029.ans"));
    let printed = dir.judge(&[
        "gen", "rooks", "--seed", "3", "--from", "28", "--count", "2",
    ]);
    printed.expect_code(0);
    assert_eq!(
        printed.stdout(),
        format!("{}\n{}", dir.read("all/028.in"), dir.read("all/029.in"))
    );
}

/// See: issue #32. What a missing `.ans` does, as docs/commands.md says:
/// in a package with its own programs, `grade --package` stops too, exit 2
/// (a package error, nothing run), naming the file; a package on a
/// built-in engine runs, the engine solving the test.
#[test]
fn r32_a_missing_answer_stops_a_programs_package_but_not_an_engine_package() {
    let dir = Dir::new();
    dir.judge(&["new", "hello"]).expect_code(0);
    fs_err::remove_file(dir.path().join("problems/hello/tests/edges-1.ans")).unwrap();
    let grade = dir.judge(&["grade", "--package", "problems/hello"]);
    grade.expect_code(2);
    assert!(
        grade
            .stderr()
            .contains("the test has no answer `edges-1.ans` beside it"),
        "{}",
        grade.stderr()
    );

    let rooks = crate::support::repository().join("problems/rooks");
    for file in ["problem.toml", "statement.md"] {
        dir.create(
            &format!("engine/rooks/{file}"),
            fs_err::read_to_string(rooks.join(file)).unwrap(),
        );
    }
    for entry in fs_err::read_dir(rooks.join("tests")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name != "small-002.ans" {
            dir.create(
                &format!("engine/rooks/tests/{name}"),
                fs_err::read_to_string(&path).unwrap(),
            );
        }
    }
    let accepted = crate::support::repository().join("submissions/rooks/accepted/matching.py");
    let run = dir.judge(&[
        "run",
        "rooks",
        accepted.to_str().unwrap(),
        "--problems-dir",
        "engine",
        "--random",
        "0",
    ]);
    run.expect_code(0);
    assert!(run.stdout().contains("small-002"), "{}", run.stdout());
}
