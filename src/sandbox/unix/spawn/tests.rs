//! The PID-namespace entry as root: the worker thread enters the holder's
//! namespace for its children around the program's clone and goes back.

use crate::sandbox::tests::shell;
use crate::sandbox::{NamespaceMode, RunSpec, Sandbox, SandboxError};
use std::path::PathBuf;

/// A sandbox as root, with its root directory (kept alive with it).
fn root_sandbox() -> (tempfile::TempDir, Sandbox) {
    let root = tempfile::tempdir().unwrap();
    fs_err::set_permissions(
        root.path(),
        std::os::unix::fs::PermissionsExt::from_mode(0o711),
    )
    .unwrap();
    let sandbox = Sandbox::new(root.path(), std::sync::Arc::default()).unwrap();
    assert_eq!(
        sandbox.isolation.namespaces,
        NamespaceMode::Root,
        "these tests need root and a worker namespace: {:?}",
        sandbox.isolation
    );
    (root, sandbox)
}

fn link(path: &str) -> String {
    fs_err::read_link(path)
        .unwrap()
        .to_string_lossy()
        .into_owned()
}

/// The calling thread's PID namespace, and the one its children are born in.
fn own_and_for_children() -> (String, String) {
    (
        link("/proc/thread-self/ns/pid"),
        link("/proc/thread-self/ns/pid_for_children"),
    )
}

#[test]
#[ignore = "needs root: the PID namespace is entered by the worker thread as root; .ci/run runs it as root: cargo test --locked --lib -- --ignored"]
fn as_root_the_program_is_born_in_the_holders_pid_namespace_and_is_not_its_init() {
    let (_root, mut sandbox) = root_sandbox();
    let measured = sandbox
        .run(&shell("readlink /proc/self/ns/pid; echo $$"))
        .unwrap();
    assert!(measured.succeeded(), "{measured:?}");
    let text = String::from_utf8_lossy(&measured.stdout).into_owned();
    let mut lines = text.lines();
    let (namespace, pid) = (lines.next().unwrap_or(""), lines.next().unwrap_or(""));
    let (judge, _) = own_and_for_children();
    assert!(namespace.starts_with("pid:["), "{text:?}");
    assert_ne!(
        namespace, judge,
        "the program is in the judge's PID namespace"
    );
    let holder = sandbox.namespace.as_ref().unwrap().reaper().pid;
    assert_eq!(namespace, link(&format!("/proc/{holder}/ns/pid")));
    let pid: i32 = pid.parse().unwrap_or_else(|_| panic!("{text:?}"));
    assert!(pid > 1, "the program is the namespace's init: {text:?}");
}

#[test]
#[ignore = "needs root: the PID namespace is entered by the worker thread as root; .ci/run runs it as root: cargo test --locked --lib -- --ignored"]
fn after_many_runs_the_worker_threads_children_are_born_in_its_own_pid_namespace() {
    let (_root, mut sandbox) = root_sandbox();
    let (own, before) = own_and_for_children();
    assert_eq!(own, before);
    for round in 0..30 {
        let measured = sandbox.run(&shell("exit 0")).unwrap();
        assert!(measured.succeeded(), "round {round}: {measured:?}");
        // A run whose execve fails takes the error path of the spawn.
        let failed = sandbox.run(&RunSpec {
            program: PathBuf::from("/nonexistent/program"),
            ..shell("")
        });
        assert!(failed.is_err(), "round {round}: {failed:?}");
        assert_eq!(own_and_for_children(), (own.clone(), own.clone()));
    }
}

#[test]
#[ignore = "needs root: the PID namespace is entered by the worker thread as root; .ci/run runs it as root: cargo test --locked --lib -- --ignored"]
fn the_worker_thread_starts_threads_after_a_run() {
    let (_root, mut sandbox) = root_sandbox();
    let measured = sandbox.run(&shell("echo 1")).unwrap();
    assert!(measured.succeeded(), "{measured:?}");
    let joined = std::thread::spawn(|| 41 + 1).join().unwrap();
    assert_eq!(joined, 42);
    let scoped = std::thread::scope(|scope| scope.spawn(|| 7).join().unwrap());
    assert_eq!(scoped, 7);
}

#[test]
#[ignore = "needs root: the PID namespace is entered by the worker thread as root; .ci/run runs it as root: cargo test --locked --lib -- --ignored"]
fn a_run_after_the_holder_was_killed_is_an_error_not_a_verdict() {
    let (_root, mut sandbox) = root_sandbox();
    let measured = sandbox.run(&shell("echo 1")).unwrap();
    assert!(measured.succeeded(), "{measured:?}");
    // Its scratch reported fresh first: a holder that ends before that
    // report gives the next run a new namespace (the test after the next).
    sandbox.namespace.as_ref().unwrap().await_fresh().unwrap();
    let holder = sandbox.namespace.as_ref().unwrap().reaper().pid;
    // SAFETY: kill and waitid on the holder, the judge's own child; WNOWAIT
    // leaves it for the namespace's drop to reap.
    unsafe {
        assert_eq!(libc::kill(holder, libc::SIGKILL), 0);
        let mut info: libc::siginfo_t = std::mem::zeroed();
        assert_eq!(
            libc::waitid(
                libc::P_PID,
                holder as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOWAIT
            ),
            0
        );
    }
    let (own, _) = own_and_for_children();
    // Straight to the run in the namespace: `Sandbox::run` first remakes a
    // namespace whose holder is gone (the test after this one), so this is
    // the path of a holder that dies between that look and the spawn.
    let boxdir = sandbox.directory.join("box");
    let scratch = crate::sandbox::unix::namespaces::scratch_in(&boxdir);
    let view = sandbox.view(&boxdir);
    let outcome = sandbox.run_in(&shell("echo 1"), &scratch, &view, None, None, None);
    match &outcome {
        Err(SandboxError::Spawn { source, .. }) => {
            assert!(source.to_string().contains("PID namespace"), "{source}");
        }
        other => panic!("a run in a namespace without its init: {other:?}"),
    }
    assert_eq!(own_and_for_children(), (own.clone(), own));
}

#[test]
#[ignore = "needs root: the PID namespace is entered by the worker thread as root; .ci/run runs it as root: cargo test --locked --lib -- --ignored"]
fn two_workers_running_at_once_each_put_their_programs_in_their_own_namespace() {
    // Two workers, as `--jobs 2`: each thread's entry is its own, so no
    // program lands in the other worker's namespace, however the spawns
    // interleave, and each thread ends with its children in its own.
    let workers: Vec<_> = (0..2)
        .map(|_| {
            std::thread::spawn(|| {
                let (_root, mut sandbox) = root_sandbox();
                let (own, _) = own_and_for_children();
                let mut seen = Vec::new();
                for round in 0..40 {
                    let measured = sandbox.run(&shell("readlink /proc/self/ns/pid")).unwrap();
                    assert!(measured.succeeded(), "round {round}: {measured:?}");
                    seen.push(String::from_utf8_lossy(&measured.stdout).trim().to_owned());
                }
                // Made at the first run.
                let holder = sandbox.namespace.as_ref().unwrap().reaper().pid;
                let expected = link(&format!("/proc/{holder}/ns/pid"));
                assert_eq!(own_and_for_children(), (own.clone(), own));
                (expected, seen)
            })
        })
        .collect();
    let results: Vec<_> = workers.into_iter().map(|w| w.join().unwrap()).collect();
    assert_ne!(
        results[0].0, results[1].0,
        "the two workers share a namespace"
    );
    for (expected, seen) in &results {
        assert!(
            seen.iter().all(|got| got == expected),
            "{expected}: {seen:?}"
        );
    }
}

/// When the clone fails and the way back fails too, the error names the way
/// back (the thread can make no threads any more), not only the clone.
#[test]
#[ignore = "needs root: the PID namespace is entered by the worker thread as root; .ci/run runs it as root: cargo test --locked --lib -- --ignored"]
fn a_failed_clone_with_no_way_back_says_the_thread_is_stuck() {
    use std::os::fd::AsFd as _;
    std::thread::spawn(|| {
        let own = fs_err::File::open("/proc/thread-self/ns/pid").unwrap();
        // Not a namespace: `setns` back refuses it (EINVAL).
        let not_a_namespace = fs_err::File::open("/dev/null").unwrap();
        let entry = super::ThreadPidEntry {
            namespace: own.as_fd(),
            own: not_a_namespace.as_fd(),
        };
        let error = entry
            .clone_inside(|| Err(std::io::Error::from_raw_os_error(libc::EAGAIN)))
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("could not go back to its own PID namespace")
                && error.contains("after the clone failed"),
            "{error}"
        );
    })
    .join()
    .unwrap();
}

/// A worker whose namespace's holder (the init of its PID namespace) was
/// killed from outside between two runs makes a new namespace for the next
/// run, instead of failing that run and every run after it.
#[test]
#[ignore = "needs root: the worker's namespaces as root; .ci/run runs it as root: cargo test --locked --lib -- --ignored"]
fn after_its_holder_is_killed_a_worker_runs_again_in_a_new_namespace() {
    let (_root, mut sandbox) = root_sandbox();
    assert!(sandbox.run(&shell("exit 0")).unwrap().succeeded());
    let holder = sandbox.namespace.as_ref().unwrap().reaper().pid;
    // SAFETY: a signal to the holder, a child of this process.
    assert_eq!(unsafe { libc::kill(holder, libc::SIGKILL) }, 0);
    while !super::super::reap::has_exited(holder) {
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    for round in 0..3 {
        let measured = sandbox.run(&shell("echo $$"));
        let measured = measured.unwrap_or_else(|error| panic!("round {round}: {error}"));
        assert!(measured.succeeded(), "round {round}: {measured:?}");
        let now = sandbox.namespace.as_ref().unwrap().reaper().pid;
        assert_ne!(now, holder, "round {round}: the old holder's namespace");
    }
}

/// A holder that does not report the scratch and `/dev/shm` fresh after a
/// run (its mounts failed, or it hangs in them) costs the worker its
/// namespace, not the next run its verdict: that run, which may be an
/// honest student's, runs in a new namespace on a fresh scratch (issue
/// #31: it was a JE).
#[test]
#[ignore = "needs root: the PID namespace is entered by the worker thread as root; .ci/run runs it as root: cargo test --locked --lib -- --ignored"]
fn a_run_after_a_scratch_never_reported_fresh_runs_in_a_new_namespace() {
    let (_root, mut sandbox) = root_sandbox();
    let measured = sandbox
        .run(&shell(
            "echo 1 > \"$TMPDIR/left\" && echo 1 > /dev/shm/left",
        ))
        .unwrap();
    assert!(measured.succeeded(), "{measured:?}");
    let namespace = sandbox.namespace.as_ref().unwrap();
    namespace.await_fresh().unwrap();
    let holder = namespace.reaper().pid;
    namespace.expect_a_fresh_report();
    let measured = sandbox
        .run(&shell(
            "test ! -e \"$TMPDIR/left\" && test ! -e /dev/shm/left && echo 2 > /dev/shm/now && echo 2",
        ))
        .unwrap();
    assert!(measured.succeeded(), "{measured:?}");
    assert_eq!(measured.stdout, b"2\n");
    assert_ne!(sandbox.namespace.as_ref().unwrap().reaper().pid, holder);
}
