//! The results journal of `judge grade --json R` (`R.journal`): a grade
//! killed with SIGKILL resumes from it with only its unfinished pairs graded
//! again; a torn last line is ignored; a disk that fills up stops the grade
//! within one pair. See: issue #19 (item 7).

use crate::support::Dir;
use serde_json::Value;
use std::os::unix::fs::PermissionsExt;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const STUDENTS: [&str; 6] = ["ann", "ben", "cat", "dan", "eve", "fay"];

/// Six Python students who answer 0 to every board after a short sleep:
/// WA on each test, each pair a few seconds on two workers.
fn slow_class(dir: &Dir) {
    dir.create(
        "judge.toml",
        "submissions = \"class\"\nrandom-tests = 2\njobs = 2\nseed = 1\n",
    );
    for (number, student) in STUDENTS.iter().enumerate() {
        // Different bytes per student, so no two share a compile.
        dir.create(
            &format!("class/rooks/{student}.py"),
            format!(
                "# {number}\nimport sys, time\ntime.sleep(0.15)\n\
                 tokens = sys.stdin.read().split()\npos = 0\n\
                 while pos < len(tokens) and tokens[pos] != \"0\":\n    \
                 n = int(tokens[pos])\n    pos += 1 + n\n    print(0)\n"
            ),
        );
    }
    fs_err::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// The report without what differs between runs: every load-dependent
/// field, and whether a result was reused.
fn comparable(report: Value) -> Value {
    crate::support::without_load(report, &["reused"])
}

fn complete_lines(path: &std::path::Path) -> usize {
    fs_err::read_to_string(path)
        .map(|text| text.matches('\n').count())
        .unwrap_or(0)
}

/// `note: ... reused N result(s), graded M again`.
fn reuse_counts(stderr: &str) -> (usize, usize) {
    let line = stderr
        .lines()
        .find(|line| line.contains("result(s), graded"))
        .unwrap_or_else(|| panic!("no reuse note in:\n{stderr}"));
    let number_after = |word: &str| -> usize {
        let rest = &line[line.find(word).unwrap() + word.len()..];
        rest.split_whitespace().next().unwrap().parse().unwrap()
    };
    (number_after("reused "), number_after("graded "))
}

#[test]
fn r19_a_grade_killed_with_sigkill_resumes_from_its_journal() {
    let dir = Dir::new();
    slow_class(&dir);
    dir.judge(&["grade", "--json", "full.json"]).expect_code(1);
    let full = comparable(crate::support::report(&dir.read("full.json")));
    assert!(
        !dir.path().join("full.json.journal").exists(),
        "the journal outlived its report"
    );

    let mut child = Command::new(assert_cmd::cargo::cargo_bin!("judge"))
        .current_dir(dir.path())
        .args(["grade", "--json", "grades.json"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let journal = dir.path().join("grades.json.journal");
    let deadline = Instant::now() + Duration::from_secs(120);
    while complete_lines(&journal) < 2 {
        assert!(Instant::now() < deadline, "no journal lines in time");
        assert!(child.try_wait().unwrap().is_none(), "the grade ended early");
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    assert!(!dir.path().join("grades.json").exists());
    let kept = complete_lines(&journal);
    assert!(
        kept < STUDENTS.len(),
        "killed too late to test anything: {kept} lines"
    );

    let resumed = dir.judge(&["grade", "--resume", "grades.json"]);
    resumed.expect_code(1);
    let (reused, graded) = reuse_counts(&resumed.stderr());
    assert_eq!(reused, kept, "{}", resumed.stderr());
    assert_eq!(graded, STUDENTS.len() - kept, "{}", resumed.stderr());
    let report = crate::support::report(&dir.read("grades.json"));
    let reused_results = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|result| result["reused"] == true)
        .count();
    assert_eq!(reused_results, kept);
    assert_eq!(comparable(report), full);
    assert!(!journal.exists(), "the journal outlived its report");
}

#[test]
fn r19_a_torn_last_journal_line_is_ignored() {
    let dir = Dir::new();
    slow_class(&dir);
    dir.judge(&["grade", "--json", "full.json"]).expect_code(1);
    let full = crate::support::report(&dir.read("full.json"));
    let results = full["results"].as_array().unwrap();
    let mut journal = String::new();
    for result in &results[..2] {
        journal.push_str(&serde_json::to_string(result).unwrap());
        journal.push('\n');
    }
    let third = serde_json::to_string(&results[2]).unwrap();
    journal.push_str(&third[..third.len() / 2]);
    dir.create("grades.json.journal", journal);

    let resumed = dir.judge(&["grade", "--resume", "grades.json"]);
    resumed.expect_code(1);
    assert_eq!(
        reuse_counts(&resumed.stderr()),
        (2, STUDENTS.len() - 2),
        "{}",
        resumed.stderr()
    );
    assert_eq!(
        comparable(crate::support::report(&dir.read("grades.json"))),
        comparable(full)
    );

    // A broken line that is not the last is an error naming it.
    dir.create("bad.json.journal", "{\"not\": \"a result\"}\n{}\n");
    let refused = dir.judge(&["grade", "--resume", "bad.json"]);
    refused.expect_code(2);
    assert!(
        refused.stderr().contains("bad.json.journal") && refused.stderr().contains("line 1"),
        "{}",
        refused.stderr()
    );
}

/// A tmpfs mounted for one test, unmounted when dropped.
struct Mounted(std::path::PathBuf);

impl Drop for Mounted {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(&self.0).status();
    }
}

#[test]
fn r19_a_full_disk_stops_the_grade_within_one_pair_and_keeps_the_other_reports() {
    // The effective user, from /proc/self/status's `Uid:` line.
    let status = fs_err::read_to_string("/proc/self/status").unwrap();
    let root = status
        .lines()
        .find(|line| line.starts_with("Uid:"))
        .is_some_and(|line| line.split_whitespace().nth(2) == Some("0"));
    assert!(
        root,
        "this test mounts a small tmpfs and must run as root (CI does)"
    );
    let dir = Dir::new();
    slow_class(&dir);
    let full_disk = dir.path().join("full");
    fs_err::create_dir(&full_disk).unwrap();
    let mounted = Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=64k", "tmpfs"])
        .arg(&full_disk)
        .status()
        .unwrap();
    assert!(mounted.success(), "mount -t tmpfs failed");
    let _unmount = Mounted(full_disk.clone());
    // Fill it up: the journal is created (an inode), its first line is not.
    let mut filler = fs_err::File::create(full_disk.join("filler")).unwrap();
    let chunk = vec![b'x'; 4096];
    while std::io::Write::write_all(&mut filler, &chunk).is_ok() {}
    drop(filler);

    let run = dir.judge(&["grade", "--json", "full/grades.json", "--csv", "grades.csv"]);
    run.expect_code(3);
    let stderr = run.stderr();
    assert!(
        stderr.contains("grades.json.journal") && stderr.contains("No space left on device"),
        "{stderr}"
    );
    assert!(stderr.contains("the grade stopped at once"), "{stderr}");
    // Within one pair: the first pair finished (its journal line failed),
    // the one running beside it was stopped and is not graded: since issue
    // #32 its row (and every other pair's) says so.
    let csv = dir.read("grades.csv");
    let graded = csv
        .lines()
        .skip(1)
        .filter(|row| !row.contains(",not graded: interrupted,"))
        .count();
    assert_eq!(graded, 1, "{csv}");
}
