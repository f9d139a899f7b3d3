//! Many judges on one host (issue 20): started at once, in the same PID
//! namespace or each in its own (where every judge is pid 1), they all
//! grade correctly. Before cgroups were named at random and judged stale by
//! a lock, the second judge in a namespace of its own failed with "File
//! exists", and a judge's start-up sweep could delete a live judge's
//! cgroups.

use crate::support::is_root;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A workspace one judge grades in: a correct solution, a memory hog and a
/// daemon against the rooks samples.
fn workspace() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let repository = crate::support::repository();
    let fixtures = repository.join("tests/fixtures/hostile");
    fs_err::copy(
        repository.join("submissions/rooks/accepted/matching.py"),
        dir.path().join("matching.py"),
    )
    .unwrap();
    fs_err::copy(
        fixtures.join("memory_hog.c"),
        dir.path().join("memory_hog.c"),
    )
    .unwrap();
    let tests = dir.path().join("tests");
    fs_err::create_dir(&tests).unwrap();
    for name in [
        "sample-1.in",
        "sample-1.ans",
        "small-001.in",
        "small-001.ans",
    ] {
        fs_err::copy(
            repository.join("problems/rooks/tests").join(name),
            tests.join(name),
        )
        .unwrap();
    }
    use std::os::unix::fs::PermissionsExt;
    for path in [dir.path().to_path_buf(), tests] {
        fs_err::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    dir
}

/// The judge command, in a PID namespace of its own when `separate`.
fn command(separate: bool) -> Command {
    let judge = PathBuf::from(assert_cmd::cargo::cargo_bin!("judge"));
    if !separate {
        return Command::new(judge);
    }
    let mut command = Command::new("unshare");
    if !is_root() {
        command.arg("--user").arg("--map-root-user");
    }
    command.args(["--pid", "--fork", "--mount-proc"]).arg(judge);
    command
}

/// Starts `count` judges at once and checks every report.
fn judges_at_once(count: usize, separate: bool) {
    let workspaces: Vec<tempfile::TempDir> = (0..count).map(|_| workspace()).collect();
    let children: Vec<(std::process::Child, &Path)> = workspaces
        .iter()
        .map(|dir| {
            let child = command(separate)
                .current_dir(dir.path())
                .args([
                    "run",
                    "rooks",
                    "matching.py",
                    "memory_hog.c",
                    "--tests",
                    "tests",
                    "--json",
                    "report.json",
                    "--time-limit",
                    "5000",
                    "--memory-limit",
                    "64",
                ])
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            (child, dir.path())
        })
        .collect();
    let mut failures = Vec::new();
    let mut mechanisms = Vec::new();
    for (index, (child, dir)) in children.into_iter().enumerate() {
        let output = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        // Exit 1: a submission failed (the memory hog), nothing else.
        if output.status.code() != Some(1) {
            failures.push(format!("judge {index}: {:?}\n{stderr}", output.status));
            continue;
        }
        let json =
            crate::support::report(&fs_err::read_to_string(dir.join("report.json")).unwrap());
        let verdicts: Vec<&str> = json["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|result| result["verdict"].as_str().unwrap())
            .collect();
        if verdicts != ["AC", "MLE"] {
            failures.push(format!("judge {index}: verdicts {verdicts:?}\n{stderr}"));
        }
        mechanisms.push(json["isolation"]["cgroups"].as_str().unwrap().to_owned());
    }
    assert!(failures.is_empty(), "{}", failures.join("\n---\n"));
    // They all had the same layers: none lost its cgroups to another.
    mechanisms.dedup();
    assert_eq!(mechanisms.len(), 1, "{mechanisms:?}");
    if is_root() {
        assert_ne!(mechanisms[0], "none", "root found no cgroups");
    }
}

#[test]
fn two_judges_at_once_in_one_pid_namespace() {
    judges_at_once(2, false);
}

#[test]
fn two_judges_at_once_each_in_its_own_pid_namespace() {
    judges_at_once(2, true);
}

#[test]
fn eight_judges_at_once_in_one_pid_namespace() {
    judges_at_once(8, false);
}

#[test]
fn eight_judges_at_once_each_in_its_own_pid_namespace() {
    judges_at_once(8, true);
}

/// The `judge-*` workspaces in `temp`.
fn workspaces_in(temp: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = fs_err::read_dir(temp)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| {
            path.file_name()
                .is_some_and(|name| name.to_string_lossy().starts_with("judge-"))
                && path.join(".workspace").exists()
        })
        .collect();
    found.sort();
    found
}

/// A judge grading a submission that sleeps, with its workspace in `temp`;
/// returns once the workspace is there and the test is running.
#[expect(
    clippy::zombie_processes,
    reason = "the child is handed to the caller, which waits for it"
)]
fn sleeping_judge(dir: &Path, temp: &Path) -> (std::process::Child, PathBuf) {
    let before = workspaces_in(temp);
    let mut child = Command::new(assert_cmd::cargo::cargo_bin!("judge"))
        .current_dir(dir)
        .env("TMPDIR", temp)
        .args([
            "run",
            "rooks",
            "sleeper.py",
            "--tests",
            "tests",
            "--time-limit",
            "20000",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        let now: Vec<PathBuf> = workspaces_in(temp)
            .into_iter()
            .filter(|path| !before.contains(path))
            .collect();
        // The submission is compiled (copied) into the workspace: grading.
        if let [workspace] = now.as_slice() {
            if fs_err::read_dir(workspace).unwrap().count() > 2 {
                std::thread::sleep(std::time::Duration::from_millis(300));
                return (child, workspace.clone());
            }
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("no workspace appeared in {}", temp.display());
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// Issue #19 item 7: a judge killed with SIGKILL leaves its workspace; the
/// next judge removes it, and leaves a live judge's alone.
#[test]
fn a_killed_judges_workspace_is_swept_and_a_live_ones_is_not() {
    let dir = workspace();
    fs_err::write(
        dir.path().join("sleeper.py"),
        "import time\ntime.sleep(8)\n",
    )
    .unwrap();
    let temp = tempfile::tempdir().unwrap();
    use std::os::unix::fs::PermissionsExt;
    fs_err::set_permissions(temp.path(), std::fs::Permissions::from_mode(0o1777)).unwrap();

    let (mut killed, dead) = sleeping_judge(dir.path(), temp.path());
    killed.kill().unwrap(); // SIGKILL
    killed.wait().unwrap();
    assert!(
        dead.exists(),
        "SIGKILL left nothing to sweep: the test shows nothing"
    );

    let (mut live, alive) = sleeping_judge(dir.path(), temp.path());
    let next = Command::new(assert_cmd::cargo::cargo_bin!("judge"))
        .current_dir(dir.path())
        .env("TMPDIR", temp.path())
        .args(["run", "rooks", "matching.py", "--tests", "tests"])
        .output()
        .unwrap();
    assert_eq!(
        next.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&next.stderr)
    );
    assert!(!dead.exists(), "the killed judge's workspace stayed");
    assert!(alive.exists(), "a live judge's workspace was swept");
    // The live judge grades to the end (a wrong answer: exit 1) and removes
    // its own workspace.
    let status = live.wait().unwrap();
    assert_eq!(status.code(), Some(1));
    assert!(workspaces_in(temp.path()).is_empty());
}
