//! Names, locks and keyed files of the cgroup layer.

use super::names::{is_container_name, lock_made};
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

#[test]
fn the_charge_starts_at_the_counter_the_program_read_at_its_execve() {
    // Read at execve: the set-up before it is not charged.
    assert_eq!(charge_start(1_000, Some(1_700)), 1_700);
    // No read (a failed pread, text that is no counter): from `prepare`,
    // which charges the set-up rather than ever less than the program used.
    assert_eq!(charge_start(1_000, None), 1_000);
    // A counter never goes backwards; a smaller value is not believed.
    assert_eq!(charge_start(1_000, Some(400)), 1_000);
    // What the program reads is at most 128 bytes (spawn's CHARGE_BYTES):
    // v2's `cpu.stat` starts with `usage_usec`, v1's `cpuacct.usage` is
    // one number.
    let stat = "usage_usec 2431\nuser_usec 2000\nsystem_usec 431\nnr_periods 0\n\
        nr_throttled 0\nthrottled_usec 0\nnr_bursts 0\nburst_usec 0\n\
        core_sched.force_idle_usec 0\n";
    assert!(stat.len() > 128);
    assert_eq!(keyed(&stat[..128], "usage_usec"), Some(2431));
    let what = "a test";
    assert_eq!(parse_counter("183816984\n", what).ok(), Some(183_816_984));
    assert!(parse_counter("", what).is_err());
}
