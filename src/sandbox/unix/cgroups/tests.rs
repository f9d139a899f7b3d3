//! Names, locks and keyed files of the cgroup layer.

use super::*;

#[test]
fn tokens_differ_and_are_hex() {
    let first = random_token();
    let second = random_token();
    assert_ne!(first, second);
    assert_eq!(first.len(), 16);
    assert!(first.chars().all(|c| c.is_ascii_hexdigit()));
    assert!(is_container_name(&format!("{PREFIX}{first}")));
    assert!(!is_container_name("judge-1-1"));
    assert!(!is_container_name("judge-0123456789abcdef-0"));
}

#[test]
fn a_held_lock_cannot_be_taken_and_a_released_one_can() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("judge-test");
    let held = create_locked(&path).unwrap().unwrap();
    assert!(try_lock(&path).is_none(), "a live container looked stale");
    // The name is taken now.
    assert!(create_locked(&path).unwrap().is_none());
    drop(held);
    assert!(try_lock(&path).is_some(), "a dead container looked live");
}

#[test]
fn a_cgroup_made_but_locked_by_a_sweep_first_is_removed_not_left() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("judge-test");
    fs_err::create_dir(&path).unwrap();
    // Another judge's sweep took the lock between our mkdir and flock.
    let sweep = try_lock(&path).unwrap();
    assert!(lock_made(&path).is_none());
    assert!(!path.exists(), "an empty container was left behind");
    drop(sweep);
    fs_err::create_dir(&path).unwrap();
    assert!(
        lock_made(&path).is_some(),
        "an uncontended cgroup was not locked"
    );
}

#[test]
fn keyed_files_are_read_by_name() {
    let text = "low 0\nhigh 0\nmax 3\noom 1\noom_kill 2\noom_group_kill 1\n";
    assert_eq!(keyed(text, "oom_kill"), Some(2));
    assert_eq!(keyed(text, "oom"), Some(1));
    assert_eq!(
        keyed("usage_usec 1234\nuser_usec 1000\n", "usage_usec"),
        Some(1234)
    );
    assert_eq!(keyed(text, "missing"), None);
}
