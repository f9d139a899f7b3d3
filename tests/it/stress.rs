//! `judge stress` through the binary, on the bundled examples: it finds a
//! failing input, shrinks it, prints it on stdout, and says how to remake the
//! random test it came from.

use crate::support::{repository, Dir, Run};
use std::path::Path;

/// `judge stress ARGS... --config <repo>/judge.toml --problems-dir <repo>/problems`
/// in a fresh directory, with `SUBMISSION` taken from the repository.
fn stress(dir: &Dir, problem: &str, submission: &str, args: &[&str]) -> Run {
    let root = repository();
    let submission = root.join(submission).display().to_string();
    let config = root.join("judge.toml").display().to_string();
    let problems = root.join("problems").display().to_string();
    let mut all = vec!["stress", problem, submission.as_str()];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--config", &config, "--problems-dir", &problems]);
    dir.judge(&all)
}

/// The numbers of "shrunk from X bytes to Y bytes" on stderr.
fn shrunk_sizes(stderr: &str) -> (usize, usize) {
    let rest = stderr
        .split("shrunk from ")
        .nth(1)
        .unwrap_or_else(|| panic!("no `shrunk from` in:\n{stderr}"));
    let numbers: Vec<usize> = rest
        .split_whitespace()
        .filter_map(|word| word.parse().ok())
        .take(2)
        .collect();
    (numbers[0], numbers[1])
}

/// The command between backticks after "remake it: " on stderr, as arguments.
fn remake_command(stderr: &str) -> Vec<String> {
    let line = stderr
        .lines()
        .find(|line| line.starts_with("remake it: "))
        .unwrap_or_else(|| panic!("no `remake it` line in:\n{stderr}"));
    let command = line.split('`').nth(1).unwrap();
    command.split_whitespace().map(str::to_owned).collect()
}

#[test]
fn finds_a_wrong_answer_and_prints_a_smaller_valid_failing_input() {
    let dir = Dir::new();
    let run = stress(
        &dir,
        "rooks",
        "submissions/rooks/wrong_answer/ignores_walls.py",
        &[
            "--seed",
            "1",
            "--iterations",
            "50",
            "--jobs",
            "2",
            "--out",
            "found",
        ],
    );
    run.expect_code(1);
    let stderr = run.stderr();
    assert!(stderr.contains(": WA on gen-"), "{stderr}");
    let smallest = run.stdout();
    assert!(!smallest.is_empty());

    // The input printed is valid, and the wrong program really fails on it.
    dir.create("smallest.in", &smallest);
    dir.judge(&["validate", "rooks", "smallest.in"])
        .expect_code(0);
    let output = std::process::Command::new("python3")
        .arg(repository().join("submissions/rooks/wrong_answer/ignores_walls.py"))
        .stdin(
            fs_err::File::open(dir.path().join("smallest.in"))
                .unwrap()
                .into_file(),
        )
        .output()
        .unwrap();
    dir.create("smallest.out", &output.stdout);
    let check = dir.judge(&["check", "rooks", "smallest.in", "smallest.out"]);
    check.expect_code(1);
    assert!(check.stdout().starts_with("WA"), "{}", check.stdout());

    // It is no larger than the random test that failed first, which the
    // command on stderr remakes.
    let (found_bytes, smallest_bytes) = shrunk_sizes(&stderr);
    assert_eq!(smallest_bytes, smallest.len());
    assert!(smallest_bytes <= found_bytes, "{stderr}");
    let mut remake = remake_command(&stderr);
    assert_eq!(remake.first().map(String::as_str), Some("judge"));
    let dir_arg = remake.iter().position(|arg| arg == "DIR").unwrap();
    remake[dir_arg] = "remade".to_owned();
    let remake_args: Vec<&str> = remake.iter().skip(1).map(String::as_str).collect();
    dir.judge(&remake_args).expect_code(0);
    let number: usize = remake[remake.iter().position(|arg| arg == "--from").unwrap() + 1]
        .parse()
        .unwrap();
    let remade = dir.read(&format!("remade/{number:03}.in"));
    assert_eq!(remade.len(), found_bytes);
    // Issue #32: that test alone, not every test before it.
    let made: Vec<_> = fs_err::read_dir(dir.path().join("remade"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".in"))
        .collect();
    assert_eq!(made, [format!("{number:03}.in")]);

    // --out holds the same input and its reference answer.
    assert_eq!(dir.read("found/failing.in"), smallest);
    let solved = dir.judge(&["solve", "rooks", "smallest.in"]);
    solved.expect_code(0);
    assert_eq!(dir.read("found/failing.ans"), solved.stdout());
}

#[test]
fn the_failing_input_is_the_same_for_any_number_of_jobs() {
    let dir = Dir::new();
    let args = |jobs| {
        stress(
            &dir,
            "matchsticks",
            "submissions/matchsticks/wrong_answer/greedy_fewest_replies.py",
            &[
                "--seed",
                "3",
                "--iterations",
                "40",
                "--jobs",
                jobs,
                "--shrink-runs",
                "30",
            ],
        )
    };
    let one = args("1");
    let three = args("3");
    one.expect_code(1);
    three.expect_code(1);
    assert_eq!(one.stdout(), three.stdout());
    // `--jobs 3` on a machine with fewer cores is capped with a warning
    // (issue #8); everything else is the same.
    let without_warnings = |stderr: String| -> Vec<String> {
        stderr
            .lines()
            .filter(|line| !line.starts_with("warning: "))
            .map(str::to_owned)
            .collect()
    };
    assert_eq!(
        without_warnings(one.stderr()),
        without_warnings(three.stderr())
    );
}

#[test]
fn an_accepted_program_passes_and_prints_nothing() {
    let dir = Dir::new();
    let run = stress(
        &dir,
        "rooks",
        "submissions/rooks/accepted/matching.py",
        &["--iterations", "5"],
    );
    run.expect_code(0);
    assert_eq!(run.stdout(), "");
    assert!(
        run.stderr().contains("no failure in 5 random tests"),
        "{}",
        run.stderr()
    );
}

#[test]
fn a_compile_error_is_the_submissions_fault() {
    let dir = Dir::new();
    let run = stress(
        &dir,
        "matchsticks",
        "submissions/matchsticks/compile_error/type_error.cpp",
        &["--iterations", "5"],
    );
    run.expect_code(1);
    assert_eq!(run.stdout(), "");
    assert!(
        run.stderr().contains("CE: compilation failed"),
        "{}",
        run.stderr()
    );
}

#[test]
fn an_unknown_profile_is_a_usage_error() {
    let dir = Dir::new();
    let run = stress(
        &dir,
        "rooks",
        "submissions/rooks/accepted/matching.py",
        &["--profile", "huge"],
    );
    run.expect_code(2);
    assert!(
        run.stderr().contains("no profile `huge`"),
        "{}",
        run.stderr()
    );
    assert!(!Path::new(&dir.path().join("failing.in")).exists());
}

#[test]
fn judge_stress_help_is_stable() {
    let run = Dir::new().judge(&["stress", "--help"]);
    run.expect_code(0);
    insta::assert_snapshot!(run.stdout());
}

/// A sleeping program: stress reports the first TLE with a line per phase
/// (stderr is not a terminal here), shrinks it at a shorter time limit and
/// confirms the result at the real one. See: issue #10
#[test]
fn a_tle_is_reported_at_once_and_shrunk_at_a_shorter_limit() {
    let dir = Dir::new();
    dir.create("sleeper.py", "import time\ntime.sleep(30)\n");
    let config = repository().join("judge.toml").display().to_string();
    let run = dir.judge(&[
        "stress",
        "rooks",
        "sleeper.py",
        "--seed",
        "1",
        "--jobs",
        "1",
        "--time-limit",
        "400",
        "--shrink-runs",
        "2",
        "--config",
        &config,
    ]);
    run.expect_code(1);
    let stderr = run.stderr();
    assert!(
        stderr.contains("testing: up to 1000 random tests\n"),
        "{stderr}"
    );
    // Piped, a phase is named once, without counts that are all 0 then
    // (issue #17).
    assert!(!stderr.contains(" 0/1000 "), "{stderr}");
    assert!(!stderr.contains("0 steps"), "{stderr}");
    assert!(stderr.contains("found: TLE on random test 1\n"), "{stderr}");
    assert!(
        stderr.contains("shrinking the TLE at a 50 ms limit"),
        "{stderr}"
    );
    assert!(!stderr.contains('\r'), "{stderr}");
    assert!(stderr.contains(": TLE on gen-small-001 "), "{stderr}");
}

/// See: issue #9. The wall-blind rooks program shrinks to one board of side
/// at most 3 (a wall step opens walls one by one).
#[test]
fn r9_wall_blind_rooks_shrinks_to_one_small_board() {
    let dir = Dir::new();
    let run = stress(
        &dir,
        "rooks",
        "submissions/rooks/wrong_answer/ignores_walls.py",
        &["--seed", "1"],
    );
    run.expect_code(1);
    let smallest = run.stdout();
    let lines: Vec<&str> = smallest.lines().collect();
    let side: usize = lines[0].parse().unwrap();
    assert!(side <= 3, "{smallest}");
    assert_eq!(lines.len(), side + 2, "one board, then 0: {smallest}");
    assert_eq!(lines.last(), Some(&"0"));
}

/// See: issue #9. The greedy matchsticks player shrinks to one position.
#[test]
fn r9_greedy_matchsticks_shrinks_to_one_position() {
    let dir = Dir::new();
    let run = stress(
        &dir,
        "matchsticks",
        "submissions/matchsticks/wrong_answer/greedy_fewest_replies.py",
        &["--seed", "1"],
    );
    run.expect_code(1);
    assert_eq!(run.stdout().lines().next(), Some("1"), "{}", run.stdout());
}

/// See: issue #9. The run-at-a-time mayan program stopped at a 24-block
/// board; with steps that lower n, drop any block, play a move, renumber
/// and merge colours, it shrinks to at most 8 blocks.
#[test]
fn r9_run_at_a_time_mayan_shrinks_to_at_most_8_blocks() {
    let dir = Dir::new();
    let run = stress(
        &dir,
        "mayan",
        "submissions/mayan/wrong_answer/one_run_at_a_time.cpp",
        &["--seed", "1"],
    );
    run.expect_code(1);
    let smallest = run.stdout();
    let blocks = smallest
        .lines()
        .skip(1)
        .flat_map(str::split_whitespace)
        .filter(|token| *token != "0")
        .count();
    assert!(
        blocks <= 8,
        "{blocks} blocks:\n{smallest}\n{}",
        run.stderr()
    );
    dir.create("smallest.in", &smallest);
    let root = repository();
    let problems = root.join("problems").display().to_string();
    dir.judge(&[
        "validate",
        "mayan",
        "smallest.in",
        "--problems-dir",
        &problems,
    ])
    .expect_code(0);
}

/// The blocks of a mayan input (every number after the first line but the
/// columns' closing 0).
fn mayan_blocks(input: &str) -> usize {
    input
        .lines()
        .skip(1)
        .flat_map(str::split_whitespace)
        .filter(|token| *token != "0")
        .count()
}

/// See: issue #17. A student's program that lets the blocks fall once per
/// move (no chain reaction) stopped at a 10-block board at seed 3; with a
/// step that removes every block of one colour, it shrinks to at most 8,
/// and the board still shows the bug.
#[test]
fn r17_gravity_once_mayan_shrinks_to_at_most_8_blocks() {
    let dir = Dir::new();
    let program = "tests/fixtures/mayan/gravity_once.cpp";
    let run = stress(&dir, "mayan", program, &["--seed", "3"]);
    run.expect_code(1);
    let smallest = run.stdout();
    let blocks = mayan_blocks(&smallest);
    assert!(
        blocks <= 8,
        "{blocks} blocks:\n{smallest}\n{}",
        run.stderr()
    );
    assert!(run.stderr().contains("): WA: "), "{}", run.stderr());
    dir.create("smallest/case.in", &smallest);
    let root = repository();
    let problems = root.join("problems").display().to_string();
    let config = root.join("judge.toml").display().to_string();
    dir.judge(&[
        "validate",
        "mayan",
        "smallest/case.in",
        "--problems-dir",
        &problems,
    ])
    .expect_code(0);
    let program = root.join(program).display().to_string();
    let run = dir.judge(&[
        "run",
        "mayan",
        &program,
        "--tests",
        "smallest",
        "--config",
        &config,
        "--problems-dir",
        &problems,
    ]);
    run.expect_code(1);
    assert!(run.stdout().contains("WA"), "{}", run.stdout());
}
