//! A run's processes stay the program's descendants, inside its PID
//! namespace and its cgroups, as root and as an ordinary user. They need
//! root (one case creates a user), so they are `#[ignore]`d and CI, which
//! runs as root, runs them with `cargo test --test it -- --ignored`.

use crate::support::{
    hostile_source, judge_in, open_dir, ordinary_user, require_root, rooks_tests,
};

/// `clone` with `CLONE_PARENT` would make a child of the judge inside the
/// run's PID namespace: its init (the holder) kills it but cannot reap it,
/// and as an ordinary user every test was JE ("1 process(es) of a finished
/// test survived SIGKILL", then "could not hear from the namespace holder
/// in time") and a zombie outlived the judge. Refused, the program is
/// graded on its answer: WA on every test. See: issue #35
fn a_child_of_the_judge_cannot_be_made(user: Option<(u32, u32)>) {
    require_root("it runs the judge as a user it creates, or every layer as root");
    let dir = open_dir();
    hostile_source(dir.path(), "clone_parent.c");
    let tests = rooks_tests(dir.path());
    let judge = assert_cmd::cargo::cargo_bin!("judge");
    let (code, report, stderr) = judge_in(
        dir.path(),
        judge,
        user,
        &format!(
            "run rooks clone_parent.c --tests {} --jobs 2",
            tests.display()
        ),
        "",
    );
    let runs = report["results"][0]["tests"].as_array().unwrap();
    assert!(!runs.is_empty(), "{report:#}\n{stderr}");
    for run in runs {
        assert_eq!(run["verdict"], "WA", "as {user:?}: {run:#}\n{stderr}");
    }
    assert_eq!(code, Some(1), "as {user:?}: {stderr}");
}

#[test]
#[ignore = "needs root (every layer in force); CI runs it as root: `cargo test --test it -- --ignored`"]
fn r35_a_child_of_the_judge_cannot_be_made_as_root() {
    a_child_of_the_judge_cannot_be_made(None);
}

#[test]
#[ignore = "needs root (it creates a user and runs the judge as that user); CI runs it as root: `cargo test --test it -- --ignored`"]
fn r35_a_child_of_the_judge_cannot_be_made_as_an_ordinary_user() {
    a_child_of_the_judge_cannot_be_made(Some(ordinary_user()));
}

/// Every thread and process of a run, made by any thread in any way, is in
/// the worker's cgroups with the main thread: on cgroup v1 the child joins
/// through `tasks`, which moves only the thread that writes, so this holds
/// only because the child is one thread when it joins. A thread, a
/// thread's thread, a thread's child and its thread, a grandchild, a vfork
/// and a posix_spawn child compare their `/proc/thread-self/cgroup` with
/// the main thread's, which must be the judge's: the answer is right only
/// when all agree. See: issue #31
#[test]
#[ignore = "needs root (every layer, cgroups included, in force); CI runs it as root: `cargo test --test it -- --ignored`"]
fn r31_every_thread_and_descendant_is_in_the_workers_cgroups() {
    require_root("it needs the cgroups only root is given");
    let dir = open_dir();
    hostile_source(dir.path(), "cgroup_members.c");
    let tests = rooks_tests(dir.path());
    let judge = assert_cmd::cargo::cargo_bin!("judge");
    let (code, report, stderr) = judge_in(
        dir.path(),
        judge,
        None,
        &format!(
            "run rooks cgroup_members.c --tests {} --random 0 --jobs 2",
            tests.display()
        ),
        "",
    );
    assert_ne!(
        report["isolation"]["cgroups"], "none",
        "{report:#}\n{stderr}"
    );
    let runs = report["results"][0]["tests"].as_array().unwrap();
    assert!(!runs.is_empty(), "{report:#}\n{stderr}");
    for run in runs {
        assert_eq!(run["verdict"], "AC", "{run:#}\n{stderr}");
    }
    assert_eq!(code, Some(0), "{stderr}");
}
