//! Stopping `judge grade` with SIGINT (as a terminal's Ctrl-C does, to the
//! whole process group) and SIGTERM; re-grading with `--resume`; identical
//! sources compiled once.
//!
//! Only generous time bounds are asserted: the point is that the judge
//! stops long before the class would have been graded, not how fast.

use crate::support::processes_mentioning;
use crate::support::{repository, Dir, PackageBuilder};
use serde_json::Value;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Eight Python submissions that sleep: each test ends at the wall limit
/// (300 ms x 3 for Python x 1.5 = 1.35 s), so the 8 x 3 tests on two
/// workers take about 16 s uninterrupted.
const STUDENTS: [&str; 8] = ["ann", "ben", "cat", "dan", "eve", "fay", "gus", "hal"];

fn sleeping_class(dir: &Dir) {
    dir.create(
        "judge.toml",
        "submissions = \"class\"\nrandom-tests = 3\njobs = 2\nseed = 1\n\
         [limits]\ntime-limit-ms = 300\nwall-time-factor = 1.5\n",
    );
    for student in STUDENTS {
        dir.create(
            &format!("class/rooks/{student}.py"),
            "import time\ntime.sleep(60)\n",
        );
    }
    // The sandbox user must pass through to the run's files (TMPDIR below).
    fs_err::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    fs_err::create_dir(dir.path().join("tmp")).unwrap();
    fs_err::set_permissions(
        dir.path().join("tmp"),
        std::fs::Permissions::from_mode(0o755),
    )
    .unwrap();
}

/// `judge grade --json grades.json` in its own process group, as a shell
/// starts a foreground job, with TMPDIR owned by the test.
fn spawn_grade(dir: &Dir) -> Child {
    spawn_grade_with(dir, &[])
}

/// [`spawn_grade`] with `extra` arguments.
fn spawn_grade_with(dir: &Dir, extra: &[&str]) -> Child {
    Command::new(assert_cmd::cargo::cargo_bin!("judge"))
        .current_dir(dir.path())
        .env("TMPDIR", dir.path().join("tmp"))
        .args(["grade", "--json", "grades.json"])
        .args(extra)
        .process_group(0)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits until a submission's test is running (its command line names the
/// test's TMPDIR; the byte-compiling step does not count), so the signal
/// lands mid-test.
fn wait_for_a_running_submission(dir: &Dir) {
    let tmp = dir.path().join("tmp");
    let deadline = Instant::now() + Duration::from_secs(60);
    while !processes_mentioning(&tmp)
        .iter()
        .any(|command| !command.contains("py_compile"))
    {
        assert!(Instant::now() < deadline, "no submission started");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Sends `signal` (`INT`, `TERM`) to `target` (a pid, or `-PGID`).
pub(crate) fn send(signal: &str, target: &str) {
    let status = Command::new("kill")
        .args([&format!("-{signal}"), "--", target])
        .status()
        .unwrap();
    assert!(status.success());
}

/// Waits for the judge to exit, at most `limit`; returns its exit code,
/// stderr and how long it took.
pub(crate) fn wait_exit(mut child: Child, limit: Duration) -> (i32, String, Duration) {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let output = child.wait_with_output().unwrap();
            let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
            return (status.code().unwrap_or(-1), stderr, start.elapsed());
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!("judge still running {limit:?} after the signal");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[track_caller]
fn assert_interrupted_cleanly(dir: &Dir, code: i32, expected: i32, stderr: &str) {
    assert_interrupted_cleanly_of(dir, code, expected, stderr, STUDENTS.len());
}

#[track_caller]
fn assert_interrupted_cleanly_of(dir: &Dir, code: i32, expected: i32, stderr: &str, pairs: usize) {
    assert_eq!(code, expected, "{stderr}");
    let tmp = dir.path().join("tmp");
    let left: Vec<_> = fs_err::read_dir(&tmp).unwrap().collect();
    assert!(left.is_empty(), "left in TMPDIR: {left:?}\n{stderr}");
    let processes = processes_mentioning(&tmp);
    assert!(processes.is_empty(), "processes left: {processes:?}");
    let report: Value = crate::support::report(&dir.read("grades.json"));
    assert_eq!(report["version"], 1);
    assert_eq!(report["interrupted"], true, "{report:#}");
    let results = report["results"].as_array().unwrap();
    let not_graded = report["not_graded"].as_array().unwrap();
    assert_eq!(results.len() + not_graded.len(), pairs, "{report:#}");
    assert!(!not_graded.is_empty(), "{report:#}");
    for pair in not_graded {
        assert!(pair.get("verdict").is_none(), "{pair:#}");
    }
    for result in results {
        // Every test of a finished pair ran to its end: a sleeper's TLE.
        assert_eq!(result["verdict"], "TLE", "{result:#}");
        assert_eq!(result["tests"].as_array().unwrap().len(), result["total"]);
    }
    assert!(
        stderr.contains("`judge grade --resume grades.json`"),
        "{stderr}"
    );
}

#[test]
fn ctrl_c_stops_grade_cleans_up_and_writes_a_partial_report() {
    let dir = Dir::new();
    sleeping_class(&dir);
    let child = spawn_grade(&dir);
    let group = format!("-{}", child.id());
    wait_for_a_running_submission(&dir);
    send("INT", &group);
    // A running test ends at its wall limit (1.35 s); 10 s is generous and
    // still well short of the ~16 s the whole class takes.
    let (code, stderr, _) = wait_exit(child, Duration::from_secs(10));
    assert!(stderr.contains("interrupted by SIGINT"), "{stderr}");
    assert_interrupted_cleanly(&dir, code, 130, &stderr);
}

/// See: issue #32 (item 3). After Ctrl-C every report says it is partial
/// and has a row for each pair not graded: the CSV a `not graded:
/// interrupted` row (no score), the class page a banner, `not graded`
/// cells and a legend, JUnit a skipped case, the summary `partial`.
#[test]
fn r32_every_report_of_an_interrupted_grade_says_it_is_partial() {
    let dir = Dir::new();
    sleeping_class(&dir);
    let child = spawn_grade_with(
        &dir,
        &[
            "--csv",
            "grades.csv",
            "--html",
            "grades.html",
            "--junit",
            "grades.xml",
        ],
    );
    let group = format!("-{}", child.id());
    wait_for_a_running_submission(&dir);
    send("INT", &group);
    let start = Instant::now();
    let mut child = child;
    while child.try_wait().unwrap().is_none() {
        assert!(start.elapsed() < Duration::from_secs(10), "still running");
        std::thread::sleep(Duration::from_millis(20));
    }
    let output = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_interrupted_cleanly(&dir, output.status.code().unwrap_or(-1), 130, &stderr);
    let report: Value = crate::support::report(&dir.read("grades.json"));
    let graded = report["results"].as_array().unwrap().len();
    let not_graded = report["not_graded"].as_array().unwrap().len();

    // The summary and the table.
    assert!(
        stdout.contains(&format!("partial (interrupted): {graded} submissions: "))
            && stdout.contains(&format!("{not_graded} not graded")),
        "{stdout}"
    );
    assert_eq!(
        stdout.matches("not graded: interrupted").count(),
        not_graded,
        "{stdout}"
    );
    // The CSV: a row for every pair, the ungraded ones with no score.
    let csv = dir.read("grades.csv");
    let rows: Vec<&str> = csv.lines().skip(1).collect();
    assert_eq!(rows.len(), STUDENTS.len(), "{csv}");
    let ungraded: Vec<&&str> = rows
        .iter()
        .filter(|row| row.contains("not graded: interrupted"))
        .collect();
    assert_eq!(ungraded.len(), not_graded, "{csv}");
    for row in ungraded {
        assert!(row.ends_with(",rooks,,not graded: interrupted,,,"), "{row}");
    }
    // The class page: a banner, a cell per pair not graded, a legend.
    let page = dir.read("grades.html");
    assert!(
        page.contains("Partial report: the grade was interrupted."),
        "{page}"
    );
    assert!(
        page.contains(&format!("{graded} of {} pairs were graded", STUDENTS.len())),
        "{page}"
    );
    assert_eq!(
        page.matches("<td class=\"none not-graded\">not graded</td>")
            .count(),
        not_graded
    );
    assert!(
        page.contains("<q>missing</q>: a student of the class"),
        "{page}"
    );
    assert!(
        page.contains("<q>—</q>: no submission for this pair"),
        "{page}"
    );
    // JUnit: named partial, a skipped case per pair not graded.
    let xml = dir.read("grades.xml");
    let document = roxmltree::Document::parse(&xml).unwrap();
    assert_eq!(
        document.root_element().attribute("name"),
        Some("judge (interrupted: partial)")
    );
    let skipped = document
        .descendants()
        .filter(|node| node.has_tag_name("skipped"))
        .filter(|node| node.attribute("message") == Some("not graded: interrupted"))
        .count();
    assert_eq!(skipped, not_graded, "{xml}");
}

#[test]
fn sigterm_stops_grade_with_143() {
    let dir = Dir::new();
    sleeping_class(&dir);
    let child = spawn_grade(&dir);
    let pid = child.id().to_string();
    wait_for_a_running_submission(&dir);
    send("TERM", &pid);
    let (code, stderr, _) = wait_exit(child, Duration::from_secs(10));
    assert!(stderr.contains("interrupted by SIGTERM"), "{stderr}");
    assert_interrupted_cleanly(&dir, code, 143, &stderr);
}

/// Three sleepers in each of three problems: the problems are graded side
/// by side (each on a thread of its own), so the signal finds runs of more
/// than one problem under way, and threads of problems waiting for their turn.
fn sleeping_problems(dir: &Dir) {
    sleeping_class(dir);
    for problem in ["matchsticks", "mayan"] {
        for student in &STUDENTS[..3] {
            dir.create(
                &format!("class/{problem}/{student}.py"),
                "import time\ntime.sleep(60)\n",
            );
        }
    }
}

#[test]
fn ctrl_c_stops_problems_graded_side_by_side_and_cleans_up() {
    let dir = Dir::new();
    sleeping_problems(&dir);
    let child = spawn_grade(&dir);
    let group = format!("-{}", child.id());
    wait_for_a_running_submission(&dir);
    send("INT", &group);
    let (code, stderr, _) = wait_exit(child, Duration::from_secs(20));
    assert!(stderr.contains("interrupted by SIGINT"), "{stderr}");
    assert_interrupted_cleanly_of(&dir, code, 130, &stderr, STUDENTS.len() + 6);
}

#[test]
fn sigterm_stops_problems_graded_side_by_side_with_143() {
    let dir = Dir::new();
    sleeping_problems(&dir);
    let child = spawn_grade(&dir);
    let pid = child.id().to_string();
    wait_for_a_running_submission(&dir);
    send("TERM", &pid);
    let (code, stderr, _) = wait_exit(child, Duration::from_secs(20));
    assert!(stderr.contains("interrupted by SIGTERM"), "{stderr}");
    assert_interrupted_cleanly_of(&dir, code, 143, &stderr, STUDENTS.len() + 6);
}

/// The bundled accepted Python rooks solver, and one that always answers 0.
fn accepted() -> String {
    fs_err::read_to_string(repository().join("submissions/rooks/accepted/matching.py")).unwrap()
}

const ZERO: &str = "import sys\nfor token in sys.stdin.read().split()[1:]:\n    pass\nprint(0)\n";

/// A class of three: two correct, one wrong.
fn small_class(dir: &Dir) {
    dir.create(
        "judge.toml",
        "submissions = \"class\"\nrandom-tests = 2\njobs = 2\nseed = 7\n",
    );
    dir.create("class/rooks/ann.py", accepted());
    dir.create("class/rooks/ben.py", ZERO);
    dir.create("class/rooks/cat.py", accepted());
}

/// A report without what differs between two gradings of the same work:
/// what follows the machine's load, where the isolation was detected, and
/// which results were reused.
fn comparable(report: Value) -> Value {
    crate::support::without_load(report, &["reused", "isolation"])
}

fn reused_submissions(report: &Value) -> Vec<String> {
    report["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|result| result["reused"] == true)
        .map(|result| result["submission"].as_str().unwrap().to_owned())
        .collect()
}

/// See: issue #32 (item 4). A report written from the class's folder is
/// resumed from its parent (`--config course/judge.toml`): every hand-in is
/// found by its path under the submissions folder, reused, and named by
/// this run's path; a report of other paths says what it names instead.
#[test]
fn r32_resume_from_another_folder_reuses_every_unchanged_result() {
    let dir = Dir::new();
    small_class(&dir);
    dir.judge(&["grade", "--json", "first.json", "-q"])
        .expect_code(1);
    // The class moves into `course/`, graded from the folder above it.
    fs_err::create_dir(dir.path().join("course")).unwrap();
    for name in ["judge.toml", "class", "first.json"] {
        fs_err::rename(dir.path().join(name), dir.path().join("course").join(name)).unwrap();
    }
    let resumed = dir.judge(&[
        "grade",
        "--config",
        "course/judge.toml",
        "--resume",
        "course/first.json",
        "--json",
        "second.json",
        "-q",
    ]);
    resumed.expect_code(1);
    assert!(
        resumed
            .stderr()
            .contains("note: `course/first.json`: reused 3 result(s), graded 0 again\n"),
        "{}",
        resumed.stderr()
    );
    let second: Value = crate::support::report(&dir.read("second.json"));
    assert_eq!(
        reused_submissions(&second),
        [
            "course/class/rooks/ann.py",
            "course/class/rooks/ben.py",
            "course/class/rooks/cat.py"
        ]
    );
    // A report of another class's paths: nothing reused, and the note says
    // which paths the report names.
    dir.create(
        "other/judge.toml",
        "submissions = \"hand-ins\"\nrandom-tests = 2\nseed = 7\n",
    );
    dir.create("other/hand-ins/rooks/zed.py", accepted());
    let other = dir.judge(&[
        "grade",
        "--config",
        "other/judge.toml",
        "--resume",
        "second.json",
        "--json",
        "third.json",
        "-q",
    ]);
    other.expect_code(0);
    assert!(
        other.stderr().contains(
            "reused 0 result(s), graded 1 again (1 not in the report, such as \
             `other/hand-ins/rooks/zed.py`: the report names no path ending as it does (it \
             names e.g. `course/class/rooks/ann.py`))"
        ),
        "{}",
        other.stderr()
    );
}

#[test]
fn resume_regrades_only_the_changed_submission_and_equals_a_full_run() {
    let dir = Dir::new();
    small_class(&dir);
    dir.judge(&["grade", "--json", "first.json", "-q"])
        .expect_code(1);
    let first: Value = crate::support::report(&dir.read("first.json"));
    assert!(reused_submissions(&first).is_empty());
    for result in first["results"].as_array().unwrap() {
        assert_eq!(result["submission_sha256"].as_str().unwrap().len(), 64);
        assert_eq!(result["fingerprint"].as_str().unwrap().len(), 64);
    }

    // Ben hands in a fixed version.
    dir.create("class/rooks/ben.py", accepted());
    let resumed = dir.judge(&[
        "grade",
        "--resume",
        "first.json",
        "--json",
        "second.json",
        "-q",
    ]);
    resumed.expect_code(0);
    assert!(
        resumed.stderr().contains(
            "reused 2 result(s), graded 1 again (1 changed submission(s): `class/rooks/ben.py`)"
        ),
        "{}",
        resumed.stderr()
    );
    let second: Value = crate::support::report(&dir.read("second.json"));
    assert_eq!(
        reused_submissions(&second),
        ["class/rooks/ann.py", "class/rooks/cat.py"]
    );

    dir.judge(&["grade", "--json", "fresh.json", "-q"])
        .expect_code(0);
    let fresh: Value = crate::support::report(&dir.read("fresh.json"));
    assert_eq!(comparable(second), comparable(fresh));
}

#[test]
fn resume_alone_updates_its_report_and_reuses_nothing_after_a_settings_change() {
    let dir = Dir::new();
    small_class(&dir);
    dir.judge(&["grade", "--json", "grades.json", "-q"])
        .expect_code(1);
    dir.judge(&["grade", "--resume", "grades.json", "-q"])
        .expect_code(1);
    let again: Value = crate::support::report(&dir.read("grades.json"));
    assert_eq!(reused_submissions(&again).len(), 3);

    // Another seed: other random tests, so nothing may be reused.
    dir.create(
        "judge.toml",
        "submissions = \"class\"\nrandom-tests = 2\njobs = 2\nseed = 8\n",
    );
    let run = dir.judge(&["grade", "--resume", "grades.json", "-q"]);
    run.expect_code(1);
    assert!(
        run.stderr()
            .contains("graded 3 again (3 with another language, package, limits or seed)"),
        "{}",
        run.stderr()
    );
    let regraded: Value = crate::support::report(&dir.read("grades.json"));
    assert!(reused_submissions(&regraded).is_empty());
}

#[test]
fn resume_from_another_judge_version_reuses_nothing_and_says_so() {
    let dir = Dir::new();
    small_class(&dir);
    dir.judge(&["grade", "--json", "grades.json", "-q"])
        .expect_code(1);
    let mut report: Value = crate::support::report(&dir.read("grades.json"));
    report["judge_version"] = "0.0.1".into();
    dir.create("old.json", serde_json::to_string(&report).unwrap());
    let run = dir.judge(&["grade", "--resume", "old.json", "--json", "new.json", "-q"]);
    run.expect_code(1);
    assert!(
        run.stderr().contains(
            "note: reusing no result of `old.json`: it was written by judge 0.0.1; this is judge"
        ),
        "{}",
        run.stderr()
    );
    let new: Value = crate::support::report(&dir.read("new.json"));
    assert!(reused_submissions(&new).is_empty());
}

#[test]
fn an_unreadable_or_invalid_resume_file_is_a_usage_error_naming_it() {
    let dir = Dir::new();
    small_class(&dir);
    let missing = dir.judge(&["grade", "--resume", "missing.json"]);
    missing.expect_code(2);
    assert!(
        missing
            .stderr()
            .contains("cannot read the report `missing.json` given to `--resume`"),
        "{}",
        missing.stderr()
    );
    dir.create("junk.json", "{\"version\": 1, \"results\": 3}");
    let junk = dir.judge(&["grade", "--resume", "junk.json"]);
    junk.expect_code(2);
    assert!(
        junk.stderr()
            .contains("`junk.json` (given to `--resume`) is not a `judge grade` JSON report"),
        "{}",
        junk.stderr()
    );
    assert!(
        junk.stdout().is_empty(),
        "nothing may run: {}",
        junk.stdout()
    );
}

/// A "compiler" that writes a program printing a value drawn anew by each
/// compile (not its process id: every worker's PID namespace numbers its
/// processes from 1): two submissions compiled once print the same value.
const PID_LANGUAGE: &str = r#"
[languages.pid]
extensions = ["pid"]
compile = ["sh", "-c", "printf '#!/bin/sh\\necho %s\\n' $(od -An -N16 -tx1 /dev/urandom | tr -d ' \\n') > {executable} && chmod 755 {executable}"]
run = ["{executable}"]
"#;

#[test]
fn identical_sources_compile_once() {
    let dir = Dir::new();
    dir.create("judge.toml", format!("random-tests = 0\n{PID_LANGUAGE}"));
    dir.create("tests/one.in", "1\n.\n0\n");
    dir.create("tests/one.ans", "1\n");
    dir.create("ann/solution.pid", "same bytes\n");
    dir.create("ben/solution.pid", "same bytes\n");
    // Same bytes, another file name: compiled on its own, since compiler
    // messages name the file.
    dir.create("cat/other.pid", "same bytes\n");
    dir.create("dan/solution.pid", "other bytes\n");
    let run = dir.judge(&[
        "run",
        "rooks",
        "ann/solution.pid",
        "ben/solution.pid",
        "cat/other.pid",
        "dan/solution.pid",
        "--tests",
        "tests",
        "--json",
        "report.json",
    ]);
    let report: Value = crate::support::report(&dir.read("report.json"));
    let printed: Vec<String> = report["results"]
        .as_array()
        .unwrap_or_else(|| panic!("{}", run.transcript()))
        .iter()
        .map(|result| {
            result["tests"][0]["excerpt"]["actual"]
                .as_str()
                .unwrap_or_else(|| panic!("{result:#}\n{}", run.transcript()))
                .trim()
                .to_owned()
        })
        .collect();
    assert_eq!(printed[0], printed[1], "{report:#}");
    assert_ne!(printed[0], printed[2], "{report:#}");
    assert_ne!(printed[0], printed[3], "{report:#}");
    assert_ne!(printed[2], printed[3], "{report:#}");
}

/// `judge ARGS` started like [`spawn_grade`].
fn spawn_judge(dir: &Dir, args: &[&str]) -> Child {
    Command::new(assert_cmd::cargo::cargo_bin!("judge"))
        .current_dir(dir.path())
        .env("TMPDIR", dir.path().join("tmp"))
        .args(args)
        .process_group(0)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// See: issue #33. With no JSON report to resume from, an interrupted
/// grade's advice is a hint like any other: printed last, after a blank
/// line, by the one printer of hints.
#[test]
fn r33_an_interrupted_grade_without_json_ends_with_a_hint_after_a_blank_line() {
    let dir = Dir::new();
    sleeping_class(&dir);
    let child = spawn_judge(&dir, &["grade"]);
    let group = format!("-{}", child.id());
    wait_for_a_running_submission(&dir);
    send("INT", &group);
    let (code, stderr, _) = wait_exit(child, Duration::from_secs(10));
    assert_eq!(code, 130, "{stderr}");
    assert!(
        stderr.ends_with(
            "not graded\n\nhint: no JSON report was asked for, so there is nothing to resume \
             from; `--json FILE` keeps one\n"
        ),
        "{stderr}"
    );
    assert!(!stderr.contains("resume: "), "{stderr}");
}

#[test]
fn ctrl_c_stops_run_and_lists_what_was_not_graded() {
    let dir = Dir::new();
    sleeping_class(&dir);
    let mut args = vec!["run", "rooks", "--random", "3", "--json", "run.json"];
    let paths: Vec<String> = STUDENTS
        .iter()
        .map(|student| format!("class/rooks/{student}.py"))
        .collect();
    args.extend(paths.iter().map(String::as_str));
    let child = spawn_judge(&dir, &args);
    let group = format!("-{}", child.id());
    wait_for_a_running_submission(&dir);
    send("INT", &group);
    let (code, stderr, _) = wait_exit(child, Duration::from_secs(10));
    assert_eq!(code, 130, "{stderr}");
    assert!(stderr.contains("interrupted by SIGINT"), "{stderr}");
    assert!(fs_err::read_dir(dir.path().join("tmp"))
        .unwrap()
        .next()
        .is_none());
    let report: Value = crate::support::report(&dir.read("run.json"));
    assert_eq!(report["interrupted"], true);
    let not_graded = report["not_graded"].as_array().unwrap();
    assert!(!not_graded.is_empty(), "{report:#}");
    assert_eq!(
        report["results"].as_array().unwrap().len() + not_graded.len(),
        STUDENTS.len()
    );
}

#[test]
fn ctrl_c_stops_stress_with_130() {
    let dir = Dir::new();
    sleeping_class(&dir);
    let child = spawn_judge(
        &dir,
        &[
            "stress",
            "rooks",
            "class/rooks/ann.py",
            "--profile",
            "small",
            "--iterations",
            "1000",
            "--shrink-runs",
            "0",
        ],
    );
    let group = format!("-{}", child.id());
    wait_for_a_running_submission(&dir);
    send("INT", &group);
    let (code, stderr, _) = wait_exit(child, Duration::from_secs(10));
    assert!(fs_err::read_dir(dir.path().join("tmp"))
        .unwrap()
        .next()
        .is_none());
    // The tests running at the signal finished after it (at their wall
    // limit): not used, so no failure was found.
    assert_eq!(code, 130, "{stderr}");
    assert!(
        stderr.contains("interrupted: no failure in the first 0 random tests"),
        "{stderr}"
    );
}

/// An interrupted `--resume` keeps the results it could reuse, even of
/// problems it never reached, so the next `--resume` loses nothing.
#[test]
fn an_interrupted_resume_keeps_every_reusable_result() {
    let dir = Dir::new();
    sleeping_class(&dir);
    fs_err::remove_dir_all(dir.path().join("class")).unwrap();
    dir.create("class/rooks/ann.py", accepted());
    dir.create("class/rooks/ben.py", ZERO);
    dir.judge(&["grade", "--json", "grades.json", "-q"])
        .expect_code(1);
    // A late hand-in for a problem graded before rooks (problems go in id
    // order), which sleeps: the signal lands before rooks is reached.
    dir.create("class/matchsticks/zed.py", "import time\ntime.sleep(60)\n");
    let child = spawn_judge(&dir, &["grade", "--resume", "grades.json", "-q"]);
    let group = format!("-{}", child.id());
    wait_for_a_running_submission(&dir);
    send("INT", &group);
    let (code, stderr, _) = wait_exit(child, Duration::from_secs(10));
    assert_eq!(code, 130, "{stderr}");
    let report: Value = crate::support::report(&dir.read("grades.json"));
    assert_eq!(report["interrupted"], true);
    assert_eq!(
        reused_submissions(&report),
        ["class/rooks/ann.py", "class/rooks/ben.py"],
        "{report:#}"
    );
    assert_eq!(
        report["not_graded"][0]["submission"], "class/matchsticks/zed.py",
        "{report:#}"
    );
}

/// A second Ctrl-C does not wait for the running test: the judge exits at
/// once (without clean-up, as documented), long before the test's 9 s wall
/// limit.
/// A wrapper (`timeout`, `make`, job control) often passes one Ctrl-C on
/// two or three times within milliseconds: the repeats are the same request,
/// not the impatient second Ctrl-C that skips the clean-up, so the reports
/// are still written and the temporary directory removed.
// See: issue #8 (adversarial review: `timeout 300 judge grade` lost every
// report on one Ctrl-C).
#[test]
fn repeated_signals_within_a_moment_are_one_request() {
    let dir = Dir::new();
    sleeping_class(&dir);
    let child = spawn_grade(&dir);
    let group = format!("-{}", child.id());
    wait_for_a_running_submission(&dir);
    send("INT", &group);
    std::thread::sleep(Duration::from_millis(20));
    send("INT", &group);
    send("INT", &group);
    let (code, stderr, _) = wait_exit(child, Duration::from_secs(10));
    assert!(stderr.contains("interrupted by SIGINT"), "{stderr}");
    assert_interrupted_cleanly(&dir, code, 130, &stderr);
}

/// A running test is killed at once, not at its wall limit: with a 60 s
/// wall clock, Ctrl-C still ends the grade within seconds.
// See: issue #8 ("exit 130 within a second").
#[test]
fn ctrl_c_kills_a_running_test_at_once_not_at_its_wall_limit() {
    let dir = Dir::new();
    sleeping_class(&dir);
    dir.create(
        "judge.toml",
        "submissions = \"class\"\nrandom-tests = 3\njobs = 2\nseed = 1\n\
         [limits]\ntime-limit-ms = 20000\nwall-time-factor = 3\n",
    );
    let child = spawn_grade(&dir);
    let group = format!("-{}", child.id());
    wait_for_a_running_submission(&dir);
    send("INT", &group);
    let (code, stderr, took) = wait_exit(child, Duration::from_secs(15));
    assert!(
        took < Duration::from_secs(15),
        "took {took:?}: the running tests were not killed"
    );
    assert_interrupted_cleanly(&dir, code, 130, &stderr);
}

/// The submissions of the class whose results the journal of `report`
/// holds, in the order they were written.
fn journaled_submissions(dir: &Dir, report: &str) -> Vec<String> {
    let path = dir.path().join(format!("{report}.journal"));
    let text = fs_err::read_to_string(path).unwrap_or_default();
    text.lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter_map(|entry| {
            let result = entry.get("result").unwrap_or(&entry);
            result["submission"].as_str().map(str::to_owned)
        })
        .collect()
}

/// See: issue #32 (found by a break-it review). A grade compiled every
/// hand-in before it ran any test, so an interrupt (Ctrl-C, a CI job's
/// timeout) in the first 70-85% of a grade kept nothing: the journal was
/// empty until the last compile ended. Here the last student's hand-in is
/// in a language whose compile never ends by itself (`sleep`): before the
/// fix no result reached the journal while it compiled; now hand-ins are
/// compiled as their pairs are about to run, so the first results are in
/// the journal while it still compiles. SIGINT then keeps them in the
/// report, and `--resume` reuses them.
#[test]
fn r32_results_reach_the_journal_before_every_hand_in_is_compiled() {
    let dir = Dir::new();
    dir.create(
        "judge.toml",
        "submissions = \"class\"\nrandom-tests = 0\njobs = 2\nseed = 3\n\
         [limits]\ncompile-time-limit-ms = 600000\n\
         [languages.slow]\nextensions = [\"slow\"]\ncompile = [\"sleep\", \"3600\"]\n\
         run = [\"{executable}\"]\n",
    );
    let students = ["ann", "ben", "cat", "dan", "eve"];
    for student in students {
        dir.create(&format!("class/rooks/{student}.py"), accepted());
    }
    dir.create("class/rooks/zed.slow", "never compiled\n");
    fs_err::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    fs_err::create_dir(dir.path().join("tmp")).unwrap();
    fs_err::set_permissions(
        dir.path().join("tmp"),
        std::fs::Permissions::from_mode(0o755),
    )
    .unwrap();
    let child = spawn_grade(&dir);
    let group = format!("-{}", child.id());
    // Zed's compile takes an hour; the others' results come long before.
    let deadline = Instant::now() + Duration::from_secs(120);
    let journaled = loop {
        let journaled = journaled_submissions(&dir, "grades.json");
        if !journaled.is_empty() {
            break journaled;
        }
        if Instant::now() > deadline {
            send("KILL", &group);
            panic!("no result reached the journal while a hand-in was still compiling");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    send("INT", &group);
    let (code, stderr, _) = wait_exit(child, Duration::from_secs(60));
    assert_eq!(code, 130, "{stderr}");
    let report: Value = crate::support::report(&dir.read("grades.json"));
    assert_eq!(report["interrupted"], true, "{report:#}");
    let graded: Vec<String> = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|result| result["submission"].as_str().map(str::to_owned))
        .collect();
    for submission in &journaled {
        assert!(
            graded.contains(submission),
            "{submission} was in the journal but not in the report: {report:#}"
        );
    }
    for result in report["results"].as_array().unwrap() {
        assert_eq!(result["verdict"], "AC", "{result:#}");
    }
    let not_graded = report["not_graded"].to_string();
    assert!(not_graded.contains("class/rooks/zed.slow"), "{report:#}");

    // Zed hands in Python instead: every result kept is reused, the rest
    // graded, and the report equals a full run's.
    fs_err::remove_file(dir.path().join("class/rooks/zed.slow")).unwrap();
    dir.create("class/rooks/zed.py", accepted());
    dir.judge(&[
        "grade",
        "--resume",
        "grades.json",
        "--json",
        "second.json",
        "-q",
    ])
    .expect_code(0);
    let second: Value = crate::support::report(&dir.read("second.json"));
    let reused = reused_submissions(&second);
    for submission in &graded {
        assert!(
            reused.contains(submission),
            "{submission} not reused: {second:#}"
        );
    }
    assert_eq!(
        second["results"].as_array().unwrap().len(),
        students.len() + 1
    );
    dir.judge(&["grade", "--json", "fresh.json", "-q"])
        .expect_code(0);
    let fresh: Value = crate::support::report(&dir.read("fresh.json"));
    assert_eq!(comparable(second), comparable(fresh));
}

/// A 2025-09 package whose `generators.yaml` makes two cases with a
/// generator that sleeps two minutes, and no `data/`.
pub(crate) fn slowly_generated_package(dir: &Dir) {
    PackageBuilder::kattis(dir, "slow")
        .manifest(
            "problem_format_version: 2025-09\ntype: pass-fail\nname: Slow\n\
             uuid: 5b7d9f13-6e80-4ca3-8e4f-3a5b6c7d8e9f\nlicense: cc0\n",
        )
        .file(
            "generators/generators.yaml",
            "data:\n  secret:\n    data:\n      \"s\":\n        generate: slow.py\n      \
             \"t\":\n        generate: slow.py\n",
        )
        .file(
            "generators/slow.py",
            "import time\ntime.sleep(120)\nprint(1)\n",
        )
        .file("input_validators/validate.py", "import sys\nsys.exit(42)\n")
        .submission("accepted/echo.py", "print(input())\n")
        .build();
}

/// [`signal_while_running`] on the slow package of
/// [`slowly_generated_package`], once its generator runs; then checks that
/// `data/` was not written and that the package's folder is as it was.
fn signal_while_generating(args: &[&str], signal: &str) -> (i32, String) {
    let dir = crate::interrupt_before_tests::sandbox_ready_dir();
    slowly_generated_package(&dir);
    let before = crate::interrupt_before_tests::folder_state(&dir.path().join("slow"));
    let (code, stderr) =
        crate::interrupt_before_tests::signal_while_running(&dir, args, "slow.py", signal);
    assert!(!dir.path().join("slow/data").exists(), "{stderr}");
    assert_eq!(
        crate::interrupt_before_tests::folder_state(&dir.path().join("slow")),
        before,
        "{stderr}"
    );
    (code, stderr)
}

/// See: issue #34 (break-it finding 20). `judge gen --package` stops on
/// SIGINT to its pid as `grade` does, even when started with SIGINT
/// ignored: the running generator is killed, no case is started after,
/// `data/` is not written, nothing is left, and the exit code is 130.
#[test]
fn sigint_stops_gen_package_and_leaves_data_unwritten() {
    let (code, stderr) = signal_while_generating(&["gen", "--package", "slow"], "INT");
    assert_eq!(code, 130, "{stderr}");
    assert!(
        stderr.contains("stopped by SIGINT: 0 of 2 test cases made; `data/` is left as it was"),
        "{stderr}"
    );
}

/// See: issue #34. The same for SIGTERM, with 143.
#[test]
fn sigterm_stops_gen_package_with_143_and_leaves_data_unwritten() {
    let (code, stderr) = signal_while_generating(&["gen", "--package", "slow"], "TERM");
    assert_eq!(code, 143, "{stderr}");
    assert!(
        stderr.contains("stopped by SIGTERM: 0 of 2 test cases made; `data/` is left as it was"),
        "{stderr}"
    );
}

/// See: issue #34. `grade --package` builds `data/` from generators.yaml
/// first; a SIGINT then stops the build the same way and nothing is graded
/// (before, the generator ran to its limit and the grade ended with 2).
#[test]
fn sigint_stops_grade_package_while_it_generates_data() {
    let (code, stderr) = signal_while_generating(&["grade", "--package", "slow"], "INT");
    assert_eq!(code, 130, "{stderr}");
    assert!(
        stderr.contains("generators.yaml: stopped by SIGINT: 0 of 2 test cases made"),
        "{stderr}"
    );
    assert!(
        stderr.contains("interrupted by SIGINT before grading: nothing graded, no report written"),
        "{stderr}"
    );
}
