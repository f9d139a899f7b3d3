//! Cgroup file systems hidden by a later mount (issue 20): a cgroup2 file
//! system mounted at /sys/fs/cgroup over the hierarchies mounted below it
//! (as a container runtime mounts one over the host's layout) hides them,
//! though /proc/self/mountinfo still lists them. On a cgroup v1 host such as
//! this project's CI, the judge used the hidden v1 memory hierarchy there,
//! failed to create its cgroup in a directory that no longer exists, and
//! graded with no cgroups at all ("cgroup v1: failed to create cgroup
//! `/sys/fs/cgroup/memory/...`"). It must see only what is visible.

use crate::support::repository;
use serde_json::Value;
use std::process::Command;

/// Grades rooks' `matching.py` with `--random RANDOM` after `mount -t
/// cgroup2 MOUNT_OPTIONS cgroup2 /sys/fs/cgroup` in a private mount
/// namespace (the host's mounts are not changed): exit 0, and the report
/// and stderr.
fn judge_over_cgroup2_mount(mount_options: &str, random: u32) -> (Value, String) {
    let dir = tempfile::tempdir().unwrap();
    fs_err::copy(
        repository().join("submissions/rooks/accepted/matching.py"),
        dir.path().join("matching.py"),
    )
    .unwrap();
    let judge = assert_cmd::cargo::cargo_bin!("judge");
    let script = format!(
        "mount -t cgroup2 {mount_options} cgroup2 /sys/fs/cgroup && exec '{}' run rooks \
         matching.py --random {random} --json report.json",
        judge.display()
    );
    let output = Command::new("unshare")
        .args(["--mount", "--propagation", "private", "sh", "-c", &script])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let report =
        crate::support::report(&fs_err::read_to_string(dir.path().join("report.json")).unwrap());
    (report, stderr)
}

#[test]
#[ignore = "needs root: mounts cgroup2 over /sys/fs/cgroup in a mount namespace of its own; \
            .ci/run runs it: cargo test --locked --test it cgroup_mounts -- --ignored"]
fn a_cgroup2_mounted_over_the_hierarchies_hides_them() {
    let (report, stderr) = judge_over_cgroup2_mount("", 2);
    let isolation = &report["isolation"];
    // What is visible is a cgroup2 file system: v2 (all or in part),
    // never a hidden v1 hierarchy, never nothing.
    let mechanism = isolation["cgroups"].as_str().unwrap();
    assert!(
        mechanism == "cgroup-v2",
        "{mechanism}: {isolation:#}\n{stderr}"
    );
    assert!(
        !stderr.contains("cgroup v1") && !stderr.contains("/sys/fs/cgroup/memory"),
        "a hidden hierarchy was used: {stderr}"
    );
    assert_eq!(report["results"][0]["verdict"], "AC", "{stderr}");
}

/// A cgroup2 file system mounted read-only (a container given the host's
/// /sys/fs/cgroup read-only): no cgroups, and the note says the mount is
/// read-only. Before, as root, it said the root cgroup "is not writable
/// (needs root)".
#[test]
#[ignore = "needs root: mounts cgroup2 read-only over /sys/fs/cgroup in a mount namespace of its \
            own; .ci/run runs it: cargo test --locked --test it cgroup_mounts -- --ignored"]
fn a_read_only_cgroup2_mount_is_named_as_such() {
    let (report, stderr) = judge_over_cgroup2_mount("-o ro", 0);
    assert_eq!(report["isolation"]["cgroups"], "none", "{stderr}");
    assert!(
        stderr.contains("note: no cgroups (cgroup v2: ")
            && stderr.contains("the cgroup2 file system at `/sys/fs/cgroup` is mounted read-only")
            && !stderr.contains("needs root"),
        "{stderr}"
    );
    assert_eq!(report["results"][0]["verdict"], "AC", "{stderr}");
}
