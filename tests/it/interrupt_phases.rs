//! A grade of a class stopped by SIGINT or SIGTERM before any test ran,
//! in each step it takes before then (issue #34): while `--similarity`
//! compares the hand-ins, while one of several packages loads, and when it
//! brings an earlier report up to date (`--resume`), whose reports, every
//! one, are what the teacher had and are left as they were.

use crate::interrupt::{send, wait_exit};
use crate::interrupt_before_tests::{
    assert_nothing_half_written, assert_stopped_before_tests, class_with_a_slowly_loading_package,
    folder_state, sandbox_ready_dir, signal_while_running, SLOW_INPUT,
};
use crate::support::{processes_mentioning, Dir};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Whether the process `pid` has a thread named `name`.
fn has_thread(pid: &str, name: &str) -> bool {
    let Ok(tasks) = fs_err::read_dir(Path::new("/proc").join(pid).join("task")) else {
        return false;
    };
    tasks.filter_map(Result::ok).any(|task| {
        fs_err::read_to_string(task.path().join("comm")).is_ok_and(|comm| comm.trim() == name)
    })
}

/// Starts `judge ARGS` in `dir` (TMPDIR `dir/tmp`) in the background of a
/// non-interactive shell, waits until the judge listens for signals (its
/// thread `judge-interrupt` runs), sends `signal` to the judge's pid alone
/// and returns the judge's exit code and stderr; then checks that no
/// process and no temporary file is left. For the steps that start no
/// program [`signal_while_running`] could wait for.
fn signal_once_listening(dir: &Dir, args: &[&str], signal: &str) -> (i32, String) {
    use std::io::BufRead;
    let tmp = dir.path().join("tmp");
    let mut child = Command::new("sh")
        .args(["-c", "\"$@\" & echo $!; wait $!", "sh"])
        .arg(assert_cmd::cargo::cargo_bin!("judge"))
        .args(args)
        .current_dir(dir.path())
        .env("TMPDIR", &tmp)
        .process_group(0)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut pid = String::new();
    stdout.read_line(&mut pid).unwrap();
    let pid = pid.trim().to_owned();
    let deadline = Instant::now() + Duration::from_secs(60);
    while !has_thread(&pid, "judge-interrupt") {
        if Instant::now() > deadline {
            send("KILL", &pid);
            panic!("the judge never listened for signals");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    send(signal, &pid);
    let (code, stderr, _) = wait_exit(child, Duration::from_secs(60));
    drop(stdout);
    let left: Vec<_> = fs_err::read_dir(&tmp).unwrap().collect();
    assert!(left.is_empty(), "left in TMPDIR: {left:?}\n{stderr}");
    let processes = processes_mentioning(&tmp);
    assert!(processes.is_empty(), "processes left: {processes:?}");
    (code, stderr)
}

/// A class of 30 students who each hand in `rooks.py`, long files of the
/// same lines in different orders: comparing them all (`--similarity`)
/// takes the judge tens of seconds.
fn class_slow_to_compare(dir: &Dir) {
    dir.create(
        "judge.toml",
        "submissions = \"hand-ins\"\nlayout = \"student/problem\"\nproblems = [\"rooks\"]\n\
         random-tests = 0\n",
    );
    let lines: Vec<String> = (0..1500)
        .map(|i| {
            format!(
                "x{i} = compute(a{}, b{}) + {i}\nif x{i} > {}:\n    total += x{i}\n",
                i % 7,
                i % 11,
                i % 13
            )
        })
        .collect();
    for student in 0..30 {
        // A rotation and a stride: each file's own order of the lines.
        let text: String = (0..1200)
            .map(|i| lines[(i * (student * 2 + 1) + student * 37) % lines.len()].as_str())
            .collect();
        dir.create(&format!("hand-ins/s{student:02}/rooks.py"), text);
    }
}

/// See: issue #34. SIGTERM while `judge grade --similarity` compares the
/// hand-ins, before anything is graded: as anywhere else, every report
/// asked for is written, interrupted while comparing the hand-ins, every
/// pair not graded, exit 143, nothing left running or half-written. (Before,
/// the comparison ran before the signal handlers were installed: SIGTERM
/// ended the judge at once, with no report.)
#[test]
fn r34_sigterm_while_grade_compares_the_hand_ins_writes_every_report() {
    let dir = sandbox_ready_dir();
    class_slow_to_compare(&dir);
    let before = folder_state(&dir.path().join("hand-ins"));
    let (code, stderr) = signal_once_listening(
        &dir,
        &[
            "grade",
            "--similarity",
            "--json",
            "grades.json",
            "--csv",
            "grades.csv",
            "--html",
            "grades.html",
        ],
        "TERM",
    );
    assert_eq!(code, 143, "{stderr}");
    assert!(!stderr.contains("error:"), "{stderr}");
    assert!(
        stderr.contains(
            "interrupted by SIGTERM before grading: nothing graded; each report says so \
             (while comparing the hand-ins for `--similarity`)"
        ),
        "{stderr}"
    );
    let students: Vec<String> = (0..30)
        .map(|student| format!("hand-ins/s{student:02}/rooks.py"))
        .collect();
    let students: Vec<&str> = students.iter().map(String::as_str).collect();
    assert_stopped_before_tests(&dir, "grades.json", "comparing_hand_ins", &students);
    assert!(dir.read("grades.csv").starts_with("student,"));
    let html = dir.read("grades.html");
    assert!(
        html.contains("interrupted before any test ran</strong> (while comparing the hand-ins"),
        "{html}"
    );
    assert_eq!(
        folder_state(&dir.path().join("hand-ins")),
        before,
        "{stderr}"
    );
    assert_nothing_half_written(&dir);
}

/// See: issue #34. SIGINT while the second of a class's two packages
/// loads: the line says which package was loading, of how many, not "the
/// package"; the HTML page says the packages were loading. (Before, both
/// said "while loading the package".)
#[test]
fn r34_sigint_while_one_of_several_packages_loads_names_it() {
    let dir = sandbox_ready_dir();
    class_with_a_slowly_loading_package(&dir);
    // `add`: the same package without the slow test, loaded first.
    for file in [
        "problem.toml",
        "reference.py",
        "validator.py",
        "tests/a.in",
        "tests/a.ans",
    ] {
        dir.create(
            &format!("problems/add/{file}"),
            dir.read(&format!("problems/sum/{file}")),
        );
    }
    dir.create(
        "judge.toml",
        "submissions = \"hand-ins\"\nlayout = \"student/problem\"\n\
         problems = [\"add\", \"sum\"]\nrandom-tests = 0\n",
    );
    dir.create("hand-ins/alice/add.py", dir.read("hand-ins/alice/sum.py"));
    let (code, stderr) = signal_while_running(
        &dir,
        &[
            "grade",
            "--problems-dir",
            "problems",
            "--json",
            "grades.json",
            "--html",
            "grades.html",
        ],
        SLOW_INPUT,
        "INT",
    );
    assert_eq!(code, 130, "{stderr}");
    assert!(
        stderr.contains(
            "interrupted by SIGINT before grading: nothing graded; each report says so \
             (while loading the packages: `sum`, 2 of 2)"
        ),
        "{stderr}"
    );
    assert_stopped_before_tests(
        &dir,
        "grades.json",
        "loading_package",
        &[
            "hand-ins/alice/add.py",
            "hand-ins/alice/sum.py",
            "hand-ins/bob/sum.py",
        ],
    );
    let html = dir.read("grades.html");
    assert!(
        html.contains("interrupted before any test ran</strong> (while loading the packages)"),
        "{html}"
    );
    assert_nothing_half_written(&dir);
}

/// See: issue #34. A class graded once with its JSON, CSV and HTML
/// reports, then again with `--resume grades.json` naming the same CSV and
/// HTML reports and a JUnit report it did not have, stopped by SIGINT while
/// its package loads: nothing was graded to bring them up to date, so the
/// JSON, the CSV gradebook and the HTML pages are left as they were, byte
/// for byte, and said to be; the JUnit report, new, is written, saying that
/// nothing was graded. (Before, only the JSON report was kept: the CSV
/// gradebook was replaced by its header alone and the HTML page by a page
/// of nothing graded.)
#[test]
fn r34_a_resumed_grade_stopped_before_its_tests_keeps_every_earlier_report() {
    let dir = sandbox_ready_dir();
    class_with_a_slowly_loading_package(&dir);
    // Graded once while the package still loaded at once.
    fs_err::remove_file(dir.path().join("problems/sum/tests/b.in")).unwrap();
    fs_err::remove_file(dir.path().join("problems/sum/tests/b.ans")).unwrap();
    dir.judge(&[
        "grade",
        "--problems-dir",
        "problems",
        "--json",
        "grades.json",
        "--csv",
        "grades.csv",
        "--html",
        "grades.html",
    ])
    .expect_code(1);
    let earlier = folder_state(dir.path());
    assert!(dir.read("grades.csv").contains("alice"));
    dir.create("problems/sum/tests/b.in", "slow\n");
    dir.create("problems/sum/tests/b.ans", "0\n");
    let (code, stderr) = signal_while_running(
        &dir,
        &[
            "grade",
            "--problems-dir",
            "problems",
            "--resume",
            "grades.json",
            "--csv",
            "grades.csv",
            "--html",
            "grades.html",
            "--junit",
            "grades.xml",
        ],
        SLOW_INPUT,
        "INT",
    );
    assert_eq!(code, 130, "{stderr}");
    assert!(!stderr.contains("error:"), "{stderr}");
    assert!(
        stderr.contains(
            "note: `grades.json`, `grades.csv`, `grades.html` are left as they were: nothing \
             was graded to bring them up to date"
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains(
            "interrupted by SIGINT before grading: nothing graded; each report written says \
             so, the others are left as they were (while loading the package)"
        ),
        "{stderr}"
    );
    let mut now = folder_state(dir.path());
    let junit = now.remove("grades.xml").and_then(|(_, bytes)| bytes);
    let junit = String::from_utf8(junit.expect("the JUnit report")).unwrap();
    assert!(junit.contains("interrupted"), "{junit}");
    // The problems folder was changed by the test itself.
    let outside_problems = |state: std::collections::BTreeMap<String, _>| {
        state
            .into_iter()
            .filter(|(name, _)| !name.starts_with("problems") && name != "tmp")
            .collect::<std::collections::BTreeMap<_, _>>()
    };
    assert_eq!(outside_problems(now), outside_problems(earlier), "{stderr}");
    assert_nothing_half_written(&dir);
}
