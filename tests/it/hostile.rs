//! Hostile programs (tests/fixtures/hostile): each asserts its verdict, that
//! no process of the run is left, that the run's files are gone, and (for the
//! floods) that the judge's own memory stayed bounded.

use crate::run::{fixture, grade, instantiate, settings, Graded, Tests};
use judge::verdict::Verdict;
use std::path::Path;

/// Processes whose command line mentions `needle` (the run's workspace).
fn processes_mentioning(needle: &Path) -> Vec<String> {
    let needle = needle.to_string_lossy().into_owned();
    let mut found = Vec::new();
    for entry in fs_err::read_dir("/proc").unwrap().filter_map(Result::ok) {
        let Ok(cmdline) = fs_err::read(entry.path().join("cmdline")) else {
            continue;
        };
        let text = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        if text.contains(&needle) {
            found.push(format!("{}: {text}", entry.file_name().to_string_lossy()));
        }
    }
    found
}

/// The judge's peak resident memory so far, in KiB.
fn judge_peak_kib() -> u64 {
    let status = fs_err::read_to_string("/proc/self/status").unwrap();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|value| value.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap()
}

#[track_caller]
fn assert_clean(graded: &Graded) {
    assert!(
        !graded.workspace.exists(),
        "workspace {} left behind",
        graded.workspace.display()
    );
    let left = processes_mentioning(&graded.workspace);
    assert!(left.is_empty(), "processes left behind: {left:?}");
}

#[track_caller]
fn expect(name: &str, verdict: Verdict) -> Graded {
    let tests = Tests::new(&[("20 22\n", "42\n")]);
    let graded = grade(&fixture(name), &tests, 0, &settings(1));
    let test = graded
        .result
        .tests
        .first()
        .unwrap_or_else(|| panic!("{name}: {:#?}", graded.result));
    assert_eq!(test.verdict, verdict, "{name}: {test:#?}");
    assert_clean(&graded);
    graded
}

#[test]
fn infinite_loop_is_tle() {
    // CPU or wall: on a loaded machine the wall clock may come first.
    expect("infinite_loop.c", Verdict::TimeLimitExceeded);
    expect("infinite_loop.py", Verdict::TimeLimitExceeded);
}

#[test]
fn sleeping_forever_is_tle_on_the_wall_clock() {
    let graded = expect("sleep_forever.c", Verdict::TimeLimitExceeded);
    assert!(
        graded.result.tests[0].message.starts_with("wall-clock"),
        "{:?}",
        graded.result.tests[0]
    );
}

#[test]
fn reading_past_the_end_of_stdin_does_not_block() {
    expect("read_past_eof.c", Verdict::Accepted);
}

#[test]
fn fork_bombs_end_and_leave_nothing() {
    expect("fork_bomb.c", Verdict::TimeLimitExceeded);
    expect("fork_bomb.py", Verdict::TimeLimitExceeded);
}

#[test]
fn a_child_outliving_its_parent_is_killed() {
    expect("orphan.c", Verdict::Accepted);
}

#[test]
fn a_daemon_that_left_the_process_group_is_killed() {
    expect("daemon.c", Verdict::Accepted);
}

#[test]
fn allocating_two_gigabytes_is_mle() {
    expect("memory_hog.c", Verdict::MemoryLimitExceeded);
    expect("memory_hog.py", Verdict::MemoryLimitExceeded);
}

#[test]
fn endless_recursion_is_mle() {
    expect("deep_recursion.c", Verdict::MemoryLimitExceeded);
}

#[test]
fn a_gigabyte_of_stdout_is_ole_and_the_judge_stays_small() {
    expect("stdout_flood.c", Verdict::OutputLimitExceeded);
    // The flood is cut at 1 MiB; the judge never holds more than its caps.
    assert!(
        judge_peak_kib() < 512 * 1024,
        "judge peak {} KiB",
        judge_peak_kib()
    );
}

#[test]
fn a_flood_of_stderr_is_discarded() {
    expect("stderr_flood.c", Verdict::Accepted);
    assert!(
        judge_peak_kib() < 512 * 1024,
        "judge peak {} KiB",
        judge_peak_kib()
    );
}

#[test]
fn crashes_and_non_zero_exits_are_re() {
    let graded = expect("segfault.c", Verdict::RuntimeError);
    assert_eq!(graded.result.tests[0].signal, Some(11));
    let graded = expect("abort.c", Verdict::RuntimeError);
    assert_eq!(graded.result.tests[0].signal, Some(6));
    let graded = expect("exit_three.c", Verdict::RuntimeError);
    assert_eq!(graded.result.tests[0].exit_code, Some(3));
}

#[test]
fn closing_stdout_then_spinning_is_tle() {
    expect("close_stdout_spin.c", Verdict::TimeLimitExceeded);
}

#[test]
fn the_answer_file_cannot_be_read() {
    for name in ["read_answer.c", "read_answer.py"] {
        let tests = Tests::new(&[("20 22\n", "42\n")]);
        let answer = tests.path().join("1.ans");
        let source_dir = tempfile::tempdir().unwrap();
        let source = instantiate(
            source_dir.path(),
            name,
            &[("ANSWER_PATH", &answer.to_string_lossy())],
        );
        // Without isolation the answer is world-readable; make sure it is.
        assert_eq!(fs_err::read_to_string(&answer).unwrap(), "42\n");
        let graded = grade(&source, &tests, 0, &settings(1));
        let test = &graded.result.tests[0];
        assert_eq!(test.verdict, Verdict::WrongAnswer, "{name}: {test:#?}");
        assert_eq!(test.message, "expected 42, got 0");
        assert_clean(&graded);
    }
}

#[test]
fn nothing_is_written_outside_the_scratch_directory() {
    let tests = Tests::new(&[("20 22\n", "42\n")]);
    let outside = tests.dir.path().join("escaped-file");
    let source_dir = tempfile::tempdir().unwrap();
    let source = instantiate(
        source_dir.path(),
        "write_outside.c",
        &[("OUTSIDE_PATH", &outside.to_string_lossy())],
    );
    let graded = grade(&source, &tests, 0, &settings(1));
    assert_eq!(graded.result.tests[0].verdict, Verdict::Accepted);
    assert!(!outside.exists());
    assert!(!Path::new("/tmp/judge-hostile-escaped").exists());
    assert_clean(&graded);
}

#[test]
fn a_loopback_listener_cannot_be_reached() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port().to_string();
    let tests = Tests::new(&[("20 22\n", "42\n")]);
    let source_dir = tempfile::tempdir().unwrap();
    let source = instantiate(source_dir.path(), "connect_loopback.c", &[("PORT", &port)]);
    let graded = grade(&source, &tests, 0, &settings(1));
    assert_eq!(
        graded.result.tests[0].verdict,
        Verdict::Accepted,
        "{:#?}",
        graded.result.tests[0]
    );
    match listener.accept() {
        Err(error) if error.kind() == std::io::ErrorKind::WouldBlock => {}
        other => panic!("the program reached the listener: {other:?}"),
    }
    assert_clean(&graded);
}

#[test]
fn killing_everything_it_can_hurts_nobody_else() {
    // A second run in parallel must not be hit by the first's kill(-1).
    let bystander = std::thread::spawn(|| {
        let tests = Tests::new(&[("1 1\n", "2\n"); 20]);
        grade(&fixture("sum.c"), &tests, 0, &settings(1))
    });
    expect("kill_everyone.c", Verdict::Accepted);
    expect("kill_everyone.py", Verdict::Accepted);
    let bystander = bystander.join().unwrap();
    assert_eq!(
        bystander.result.verdict,
        Verdict::Accepted,
        "{:#?}",
        bystander.result
    );
}

#[test]
fn raising_its_own_rlimits_does_not_help() {
    expect("raise_rlimits.c", Verdict::TimeLimitExceeded);
}

#[test]
fn a_hundred_thousand_files_fill_the_scratch_quota_and_are_cleaned_up() {
    // See: issue #7. Scratch holds one file per 4 KiB of its quota: the
    // program runs out of files long before 100k, and whatever it created
    // must still be removed. Without the quota (no namespaces), creating
    // 100k files on disk runs past the 1 s limit instead.
    let graded =
        if judge::sandbox::Isolation::detect().scratch == judge::sandbox::ScratchLayer::Quota {
            let graded = expect("many_files.c", Verdict::OutputLimitExceeded);
            assert!(
                graded.result.tests[0]
                    .message
                    .contains("scratch space full"),
                "{:?}",
                graded.result.tests[0]
            );
            graded
        } else {
            expect("many_files.c", Verdict::TimeLimitExceeded)
        };
    assert_clean(&graded);
}

#[test]
fn binary_output_is_pe_and_crlf_is_accepted() {
    expect("binary_output.c", Verdict::PresentationError);
    expect("crlf.c", Verdict::Accepted);
}

/// `judge run` as an unprivileged user (`nobody` via setpriv when the tests
/// run as root): no cgroups, no network namespace, no user switch. The
/// limits still hold, a daemon is still killed (the judge is its
/// subreaper), and the report says the isolation is partial.
#[test]
fn without_root_limits_hold_and_escaped_daemons_are_killed() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let marker = format!("escapee-{}", std::process::id());
    fs_err::write(
        root.join("daemon.c"),
        r#"#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
int main(void) {
    if (fork() == 0) { setsid(); if (fork() == 0) { for (;;) sleep(1); } exit(0); }
    sleep(1);
    printf("5\n1\n5\n2\n4\n");
    return 0;
}
"#,
    )
    .unwrap();
    let status = std::process::Command::new("gcc")
        .arg("-o")
        .arg(root.join(&marker))
        .arg(root.join("daemon.c"))
        .status()
        .unwrap();
    assert!(status.success());
    fs_err::copy(fixture("memory_hog.c"), root.join("memory_hog.c")).unwrap();
    fs_err::copy(fixture("infinite_loop.c"), root.join("infinite_loop.c")).unwrap();
    let tests = root.join("tests");
    fs_err::create_dir(&tests).unwrap();
    let repository = crate::support::repository();
    for name in ["sample-1.in", "sample-1.ans"] {
        fs_err::copy(
            repository.join("problems/rooks/tests").join(name),
            tests.join(name),
        )
        .unwrap();
    }
    use std::os::unix::fs::PermissionsExt;
    for path in [root.to_path_buf(), tests.clone()] {
        fs_err::set_permissions(&path, std::fs::Permissions::from_mode(0o777)).unwrap();
    }
    let judge = assert_cmd::cargo::cargo_bin!("judge");
    let is_root = fs_err::read_to_string("/proc/self/status")
        .unwrap()
        .lines()
        .any(|line| line.starts_with("Uid:") && line.split_whitespace().nth(2) == Some("0"));
    let mut command = if is_root {
        let mut command = std::process::Command::new("setpriv");
        command
            .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
            .arg(judge);
        command
    } else {
        std::process::Command::new(judge)
    };
    let output = command
        .current_dir(root)
        .env("HOME", root)
        .env("TMPDIR", root)
        .args([
            "run",
            "rooks",
            &marker,
            "memory_hog.c",
            "infinite_loop.c",
            "--tests",
            "tests",
        ])
        .args([
            "--random",
            "0",
            "--json",
            "report.json",
            "--time-limit",
            "500",
            "--memory-limit",
            "64",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        output.status.code(),
        Some(1),
        "{stderr}\n{}",
        String::from_utf8_lossy(&output.stdout)
    );
    assert!(
        stderr.contains("note: no writable cgroup v1 hierarchy"),
        "{stderr}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&fs_err::read_to_string(root.join("report.json")).unwrap()).unwrap();
    assert_eq!(json["isolation"]["level"], "partial");
    assert_eq!(json["isolation"]["memory"], "rlimit");
    let verdicts: Vec<&str> = json["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|result| result["verdict"].as_str().unwrap())
        .collect();
    assert_eq!(verdicts, ["AC", "MLE", "TLE"], "{json:#}");
    let left = processes_mentioning(Path::new(&marker));
    assert!(left.is_empty(), "processes left behind: {left:?}");
}

#[test]
fn the_compiler_cannot_read_the_answer_file_either() {
    let tests = Tests::new(&[("20 22\n", "42\n")]);
    let answer = tests.path().join("1.ans");
    let source_dir = tempfile::tempdir().unwrap();
    let source = source_dir.path().join("include_answer.c");
    fs_err::write(
        &source,
        format!(
            "#include <stdio.h>\nint main(void) {{ printf(\"%d\\n\",\n#include \"{}\"\n); return 0; }}\n",
            answer.display()
        ),
    )
    .unwrap();
    let graded = grade(&source, &tests, 0, &settings(1));
    assert_eq!(
        graded.result.verdict,
        Verdict::CompileError,
        "{:#?}",
        graded.result
    );
    assert!(
        graded.result.compile.message.contains("1.ans"),
        "{}",
        graded.result.compile.message
    );
}

#[test]
fn every_test_gets_a_fresh_writable_scratch_directory() {
    let tests = Tests::new(&[("1 2\n", "3\n"), ("2 3\n", "5\n"), ("3 4\n", "7\n")]);
    let graded = grade(&fixture("scratch_writer.c"), &tests, 0, &settings(1));
    assert_eq!(
        graded.result.verdict,
        Verdict::Accepted,
        "{:#?}",
        graded.result.tests
    );
    assert_clean(&graded);
}

#[test]
fn namespaces_ptrace_mount_and_io_uring_are_refused() {
    expect("forbidden_syscalls.c", Verdict::Accepted);
}
