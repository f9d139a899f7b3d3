//! See: issue #17. The progress bar of `judge run` and `judge grade` on a
//! pseudo-terminal (made by `script` from util-linux): the clock ticks and
//! the test count advances while a slow program runs, and it names what
//! runs; in a pipe and with `-q` no progress byte is written.

use crate::support::Dir;
use std::process::Command;

/// A program that takes a little over a second a test.
const SLOW: &str = "import sys, time\nsys.stdin.read()\ntime.sleep(1.1)\nprint(1)\n";

/// Runs `judge ARGS` in `dir` on a pseudo-terminal and returns what the
/// terminal received (stdout and stderr together).
fn on_a_terminal(dir: &Dir, args: &[&str]) -> String {
    let judge = assert_cmd::cargo::cargo_bin!("judge").display().to_string();
    // A wide terminal, so a line naming several submissions is not cut to
    // fit.
    let mut line = format!("stty rows 50 cols 300 2>/dev/null; {judge}");
    for arg in args {
        line.push(' ');
        line.push_str(arg);
    }
    let output = Command::new("script")
        .args(["-qfec", &line, "/dev/null"])
        .current_dir(dir.path())
        .stdin(std::process::Stdio::null())
        .output()
        .expect("`script` (util-linux) must be installed for this test");
    assert!(
        output.status.success() || output.status.code() == Some(1),
        "{output:?}"
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The frames drawn: the text between carriage returns that holds
/// "submissions,".
fn frames(terminal: &str) -> Vec<String> {
    terminal
        .split('\r')
        .filter(|frame| frame.contains(" submissions, "))
        .map(|frame| frame.replace("\x1b[2K", "").trim().to_owned())
        .collect()
}

/// `(test, seconds)` of a frame like `0/1 submissions, test 2/3, 1s — x`.
fn test_and_clock(frame: &str) -> (Option<String>, u64) {
    let after = frame.split(" submissions, ").nth(1).unwrap_or_default();
    let test = after
        .strip_prefix("test ")
        .and_then(|rest| rest.split(',').next())
        .map(str::to_owned);
    let clock = after
        .split(", ")
        .find_map(|part| part.split(' ').next()?.strip_suffix('s')?.parse().ok())
        .unwrap_or_else(|| panic!("no clock in {frame:?}"));
    (test, clock)
}

/// What a pipe gets: no progress line (`counted`, the text only a drawn
/// line holds) and no carriage return redrawing one.
fn assert_no_progress(stream: &str, counted: &str) {
    assert!(!stream.contains(counted), "{stream}");
    assert!(!stream.contains('\r'), "{stream:?}");
}

fn slow_tests(dir: &Dir) {
    for name in ["a", "b", "c"] {
        dir.create(&format!("tests/{name}.in"), "1\n.\n0\n");
        dir.create(&format!("tests/{name}.ans"), "1\n");
    }
}

#[test]
fn run_on_a_terminal_ticks_and_counts_tests_while_a_slow_program_runs() {
    let dir = Dir::new();
    slow_tests(&dir);
    dir.create("bob.py", SLOW);
    let args = [
        "run",
        "rooks",
        "bob.py",
        "--tests",
        "tests",
        "--time-limit",
        "5000",
    ];
    let terminal = on_a_terminal(&dir, &args);
    let frames = frames(&terminal);
    let seen: Vec<(Option<String>, u64)> = frames.iter().map(|f| test_and_clock(f)).collect();
    // The test count advances, in order.
    let tests: Vec<&str> = seen
        .iter()
        .filter_map(|(test, _)| test.as_deref())
        .collect();
    let mut order = tests.clone();
    order.dedup();
    assert_eq!(order, ["1/3", "2/3", "3/3"], "{frames:#?}");
    // The clock moves while one test runs: one test shown at two times.
    let ticked = seen.iter().any(|(test, clock)| {
        test.is_some()
            && seen
                .iter()
                .any(|(other, later)| other == test && later > clock)
    });
    assert!(ticked, "{frames:#?}");
    let mut clocks: Vec<u64> = seen.iter().map(|(_, clock)| *clock).collect();
    clocks.dedup();
    assert!(clocks.len() >= 3, "{frames:#?}");
    // It names what runs, and the result is still printed whole.
    assert!(
        frames.iter().any(|frame| frame.ends_with("— bob.py")),
        "{frames:#?}"
    );
    assert!(
        terminal.contains("rooks bob.py (python): AC 3/3"),
        "{terminal}"
    );
    // In a pipe: no progress at all.
    let run = dir.judge(&args);
    run.expect_code(0);
    for stream in [run.stdout(), run.stderr()] {
        assert_no_progress(&stream, "submissions,");
        assert!(!stream.contains('\x1b'), "{stream:?}");
    }
}

/// A class of `student/problem` hand-ins (`jobs`, if any, in judge.toml):
/// each of `students` hands in the [`SLOW`] rooks solution, graded on the
/// `mine` copy of the bundled rooks package with the one-rook `tests`.
fn slow_class(jobs: &str, tests: &[&str], students: &[&str]) -> Dir {
    let dir = Dir::new();
    dir.create(
        "judge.toml",
        format!(
            "submissions = \"hand-ins\"\nlayout = \"student/problem\"\nrandom-tests = 0\n{jobs}[limits]\ntime-limit-ms = 5000\n"
        ),
    );
    let manifest = String::from_utf8(
        judge::config::bundled::file("rooks/problem.toml")
            .unwrap()
            .to_vec(),
    )
    .unwrap();
    dir.create("mine/rooks/problem.toml", manifest);
    for name in tests {
        dir.create(&format!("mine/rooks/tests/{name}.in"), "1\n.\n0\n");
        dir.create(&format!("mine/rooks/tests/{name}.ans"), "1\n");
    }
    for student in students {
        dir.create(&format!("hand-ins/{student}/rooks.py"), SLOW);
    }
    dir
}

#[test]
fn grade_on_a_terminal_counts_submissions_and_names_the_one_that_runs() {
    let dir = slow_class("", &["a", "b"], &["alice", "bob"]);
    let args = ["grade", "--problems-dir", "mine"];
    let frames = frames(&on_a_terminal(&dir, &args));
    for wanted in [
        "0/2 submissions, test 1/2, ",
        "1/2 submissions, test 1/2, ",
        "1/2 submissions, test 2/2, ",
    ] {
        assert!(
            frames.iter().any(|frame| frame.contains(wanted)),
            "{wanted}: {frames:#?}"
        );
    }
    assert!(
        frames
            .iter()
            .any(|frame| frame.contains("— hand-ins/alice/")),
        "{frames:#?}"
    );
    assert!(
        frames.iter().any(|frame| frame.contains("— hand-ins/bob/")),
        "{frames:#?}"
    );
    // `-q` draws none, even on a terminal; a pipe gets none.
    let mut quiet = args.to_vec();
    quiet.push("-q");
    assert_eq!(frames_of(&on_a_terminal(&dir, &quiet)), 0);
    let run = dir.judge(&args);
    run.expect_code(0);
    assert_no_progress(&run.stderr(), "submissions,");
}

fn frames_of(terminal: &str) -> usize {
    frames(terminal).len()
}

/// With `jobs = 2` two submissions run at once: the line names each
/// (`2 running: a, b`), still one line, and the clock ticks (review of
/// issue #17).
#[test]
fn grade_with_two_jobs_names_each_submission_that_runs() {
    let dir = slow_class("jobs = 2\n", &["a"], &["alice", "bob", "carol"]);
    let terminal = on_a_terminal(&dir, &["grade", "--problems-dir", "mine"]);
    let frames = frames(&terminal);
    let both = frames.iter().find(|frame| {
        frame.contains("— 2 running: ")
            && frame.contains("hand-ins/alice/rooks.py")
            && frame.contains("hand-ins/bob/rooks.py")
    });
    assert!(
        both.is_some_and(|frame| !frame.contains('\n')),
        "{frames:#?}"
    );
    let clocks: std::collections::BTreeSet<u64> =
        frames.iter().map(|frame| test_and_clock(frame).1).collect();
    assert!(clocks.len() >= 2, "{frames:#?}");
}

/// See: issue #32, item 6. `judge stress` on a terminal shows, while it
/// shrinks, the steps taken, the inputs tried of the budget and the size
/// of the smallest failing input so far, behind a clock; in a pipe only
/// a line per phase, without counts.
#[test]
fn stress_shows_the_shrinking_on_a_terminal_and_only_its_phase_in_a_pipe() {
    let dir = Dir::new();
    let root = crate::support::repository();
    let program = root
        .join("submissions/rooks/wrong_answer/ignores_walls.py")
        .display()
        .to_string();
    let config = root.join("judge.toml").display().to_string();
    let problems = root.join("problems").display().to_string();
    let args = [
        "stress",
        "rooks",
        program.as_str(),
        "--seed",
        "1",
        "--config",
        config.as_str(),
        "--problems-dir",
        problems.as_str(),
    ];
    let terminal = on_a_terminal(&dir, &args);
    let shrinking: Vec<&str> = terminal
        .split('\r')
        .filter(|frame| frame.contains("shrinking: "))
        .collect();
    assert!(!shrinking.is_empty(), "{terminal}");
    let last = shrinking.last().copied().unwrap_or_default();
    assert!(
        last.contains(" of at most 500 inputs tried; now ") && last.contains(" bytes (from "),
        "{last:?}"
    );
    assert!(
        terminal.contains("shrunk from "),
        "the outcome is still said: {terminal}"
    );

    let piped = dir.judge(&args);
    piped.expect_code(1);
    let stderr = piped.stderr();
    assert!(stderr.contains("shrinking the failing input\n"), "{stderr}");
    assert_no_progress(&stderr, "inputs tried;");
}
