//! Unix sockets inside runs (issue 32): a run may make them (Python's
//! `multiprocessing.Manager` and its `forkserver` start method need them:
//! see `honest.rs`), and none of them reaches another run, earlier, later
//! or beside it, on its worker or another: an abstract name lives in the
//! worker's network namespace, whose sockets are collected after each
//! run, and a socket file only in the run's own fresh scratch or
//! `/dev/shm`. Through the binary, as root and as an ordinary user the
//! test creates, with one worker and with two; they need root, so they are
//! `#[ignore]`d and CI, which runs as root, runs them with
//! `cargo test --test it -- --ignored`.

use crate::support::{judge_in, open_dir, ordinary_user, repository, require_root};
use crate::support::{rooks_tests, source};

const CHECKS_REACH: &str =
    "it checks what the sandbox user may reach, or runs the judge as a user it creates";

/// What every run of the rendezvous must have bound: before the fix none
/// (`socket(AF_UNIX)` failed with EPERM); a name another run still held
/// would have refused the bind (EADDRINUSE).
const BOUND: &[&str] = &[
    "bound: @judge-r32-rendezvous",
    "bound: @judge-r32-inflight",
    "bound: r32.sock",
    "bound: /dev/shm/r32.sock",
];

/// Two copies of the rendezvous (`tests/fixtures/hostile/unix_rendezvous.c`),
/// each run of which first tries to reach the names and socket files a run
/// before or beside it left (a child serving them, a name in flight), then
/// binds them itself and holds them a while: one after the other on one
/// worker, side by side on two.
fn no_unix_socket_reaches_another_run(user: Option<(u32, u32)>, jobs: usize) {
    require_root(CHECKS_REACH);
    let dir = open_dir();
    let tests = rooks_tests(dir.path());
    for copy in 1..=3 {
        for name in ["one", "two", "three"] {
            let from = tests.join("sample-1.in");
            let text = fs_err::read_to_string(&from).unwrap();
            source(&tests, &format!("{name}-{copy}.in"), &text);
            let answer = fs_err::read_to_string(tests.join("sample-1.ans")).unwrap();
            source(&tests, &format!("{name}-{copy}.ans"), &answer);
        }
    }
    let text =
        fs_err::read_to_string(repository().join("tests/fixtures/hostile/unix_rendezvous.c"))
            .unwrap();
    let names = ["first.c", "second.c"];
    for name in names {
        source(dir.path(), name, &text);
    }
    let judge = assert_cmd::cargo::cargo_bin!("judge");
    let (_, report, stderr) = judge_in(
        dir.path(),
        judge,
        user,
        &format!(
            "run rooks {} --tests {} --random 0 --jobs {jobs}",
            names.join(" "),
            tests.display()
        ),
        "",
    );
    let results = report["results"]
        .as_array()
        .unwrap_or_else(|| panic!("{report:#}\n{stderr}"));
    assert_eq!(results.len(), names.len(), "{report:#}\n{stderr}");
    let mut runs = 0;
    for result in results {
        for test in result["tests"].as_array().unwrap() {
            runs += 1;
            let said = test["stderr"].as_str().unwrap_or("");
            for bound in BOUND {
                assert!(
                    said.lines().any(|line| line == *bound),
                    "as {user:?} at --jobs {jobs}, a run could not make its own unix \
                     sockets (`{bound}` missing): {test:#}\n{stderr}"
                );
            }
            assert!(
                !said.contains("reached:"),
                "as {user:?} at --jobs {jobs}, a run reached another run's unix socket: \
                 {test:#}"
            );
        }
    }
    assert_eq!(runs, names.len() * 10, "{report:#}");
}

#[test]
#[ignore = "needs root (every layer in force); CI runs it as root: `cargo test --test it -- --ignored`"]
fn no_unix_socket_reaches_another_run_as_root_on_one_worker() {
    no_unix_socket_reaches_another_run(None, 1);
}

#[test]
#[ignore = "needs root (every layer in force); CI runs it as root: `cargo test --test it -- --ignored`"]
fn no_unix_socket_reaches_another_run_as_root_on_two_workers() {
    no_unix_socket_reaches_another_run(None, 2);
}

#[test]
#[ignore = "needs root (it creates a user and runs the judge as that user); CI runs it as root: `cargo test --test it -- --ignored`"]
fn no_unix_socket_reaches_another_run_without_root_on_one_worker() {
    no_unix_socket_reaches_another_run(Some(ordinary_user()), 1);
}

#[test]
#[ignore = "needs root (it creates a user and runs the judge as that user); CI runs it as root: `cargo test --test it -- --ignored`"]
fn no_unix_socket_reaches_another_run_without_root_on_two_workers() {
    no_unix_socket_reaches_another_run(Some(ordinary_user()), 2);
}
