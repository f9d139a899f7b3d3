//! Nothing a run leaves in flight (unix sockets in an unreachable cycle,
//! with the answers or memfds they carry) reaches the next run on the
//! same worker (issue 35, a third red
//! team of the per-worker namespaces), each as the attack itself, through
//! the binary, as root and as an ordinary user the test creates, with one
//! worker and with two. They need root (they create a user, and check what
//! the sandbox user may reach), so they are `#[ignore]`d and CI, which runs
//! as root, runs them with `cargo test --test it -- --ignored`.

use crate::support::{hostile_source, judge_in, open_dir, ordinary_user};
use crate::support::{readable_by_all, repository, require_root};
use std::path::{Path, PathBuf};

const CHECKS_REACH: &str =
    "it checks what the sandbox user may reach, or runs the judge as a user it creates";

/// Every rooks test of the repository (seven), copied into `dir/tests`.
fn all_rooks_tests(dir: &Path) -> PathBuf {
    let tests = dir.join("tests");
    fs_err::create_dir(&tests).unwrap();
    readable_by_all(&tests);
    for entry in fs_err::read_dir(repository().join("problems/rooks/tests")).unwrap() {
        let entry = entry.unwrap();
        let copy = tests.join(entry.file_name());
        fs_err::copy(entry.path(), &copy).unwrap();
        readable_by_all(&copy);
    }
    tests
}

/// Five students after one another on the workers: an honest solver that
/// leaves each test's answers in abstract unix socket names (keyed by a
/// hash of the input) bound to sockets it puts in an unreachable cycle in
/// flight; a copier that solves nothing and prints the answers it finds in
/// `/proc/net/unix` under its input's hash; an honest solver that leaves
/// 180 MiB of memfds in such a cycle; and an honest solver that needs
/// 100 MiB under the problem's 256 MiB; and a program that says how many
/// unix sockets it sees at its start and leaves one in flight. The
/// worker's network namespace is kept by every run on it, so before the
/// fix the copier got every test the leaver had passed, the fourth student
/// was MLE on every test (the memfds stayed charged to the worker's memory
/// cgroup), and every run of the fifth saw what the runs before it left
/// (without root too: there a worker's namespaces are made anew for each
/// submission, but kept by its tests). Now the sockets a run leaves in
/// flight are collected, with what they carry, before the next run starts.
fn nothing_left_in_flight_reaches_the_next_run(user: Option<(u32, u32)>, jobs: usize) {
    require_root(CHECKS_REACH);
    let dir = open_dir();
    let tests = all_rooks_tests(dir.path());
    let names = [
        "unix_name_leaver.c",
        "unix_name_copier.c",
        "inflight_memory.c",
        "honest_100mib.c",
        "unix_socket_counter.c",
    ];
    for name in names {
        hostile_source(dir.path(), name);
    }
    let judge = assert_cmd::cargo::cargo_bin!("judge");
    let (_, report, stderr) = judge_in(
        dir.path(),
        judge,
        user,
        &format!(
            "run rooks {} --tests {} --jobs {jobs}",
            names.join(" "),
            tests.display()
        ),
        "",
    );
    let outcome = |index: usize| {
        let result = &report["results"][index];
        assert_eq!(result["submission"], names[index], "{report:#}\n{stderr}");
        (
            result["verdict"].as_str().unwrap_or("").to_owned(),
            result["passed"].as_u64().unwrap_or(u64::MAX),
        )
    };
    assert_eq!(outcome(0).0, "AC", "the leaver: {report:#}\n{stderr}");
    assert_eq!(
        outcome(1).1,
        0,
        "the copier passed tests with the answers a run before it left: {report:#}"
    );
    assert_eq!(outcome(2).0, "AC", "the memfd leaver: {report:#}\n{stderr}");
    assert_eq!(
        outcome(3).0,
        "AC",
        "an honest 100 MiB program after the memfd leaver: {report:#}\n{stderr}"
    );
    let counted = report["results"][4]["tests"].as_array().unwrap();
    assert_eq!(counted.len(), 7, "{report:#}");
    for test in counted {
        assert_eq!(
            test["stderr"].as_str().map(str::trim),
            Some("sockets seen: 0"),
            "a run saw sockets the runs before it left: {test:#}"
        );
    }
}

#[test]
#[ignore = "needs root (every layer in force); CI runs it as root: `cargo test --test it -- --ignored`"]
fn nothing_a_run_leaves_in_flight_reaches_the_next_run_as_root_on_one_worker() {
    nothing_left_in_flight_reaches_the_next_run(None, 1);
}

#[test]
#[ignore = "needs root (every layer in force); CI runs it as root: `cargo test --test it -- --ignored`"]
fn nothing_a_run_leaves_in_flight_reaches_the_next_run_as_root_on_two_workers() {
    nothing_left_in_flight_reaches_the_next_run(None, 2);
}

#[test]
#[ignore = "needs root (it creates a user and runs the judge as that user); CI runs it as root: `cargo test --test it -- --ignored`"]
fn nothing_a_run_leaves_in_flight_reaches_the_next_run_without_root_on_one_worker() {
    nothing_left_in_flight_reaches_the_next_run(Some(ordinary_user()), 1);
}

#[test]
#[ignore = "needs root (it creates a user and runs the judge as that user); CI runs it as root: `cargo test --test it -- --ignored`"]
fn nothing_a_run_leaves_in_flight_reaches_the_next_run_without_root_on_two_workers() {
    nothing_left_in_flight_reaches_the_next_run(Some(ordinary_user()), 2);
}
