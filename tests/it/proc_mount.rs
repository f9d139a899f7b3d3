//! A private `/proc` refused where user namespaces work (issue 20): when
//! part of the host's `/proc` is covered by another mount (as container
//! runtimes cover `/proc/kcore` or `/proc/sys`), the kernel refuses a fresh
//! `/proc` in a user namespace ("mount_too_revealing"). The judge ran with
//! the host's `/proc` and said a private one "needs root or unprivileged
//! user namespaces", which it had: the note must name the refusal.

use crate::support::{repository, require_root};
use std::process::Command;

#[test]
#[ignore = "needs root: covers /proc/sys/kernel with a tmpfs in a mount namespace of its own, \
            then runs the judge as nobody; .ci/run runs it: cargo test --locked --test it \
            proc_mount -- --ignored"]
fn a_refused_private_proc_is_named_as_such() {
    require_root("it mounts a tmpfs over /proc/sys/kernel in a private mount namespace");
    let dir = tempfile::tempdir().unwrap();
    fs_err::copy(
        repository().join("submissions/rooks/accepted/matching.py"),
        dir.path().join("matching.py"),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    fs_err::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
    let judge = assert_cmd::cargo::cargo_bin!("judge");
    let script = format!(
        "mount -t tmpfs tmpfs /proc/sys/kernel && exec setpriv --reuid=65534 --regid=65534 \
         --clear-groups '{}' run rooks matching.py --random 1 --json report.json",
        judge.display()
    );
    let output = Command::new("unshare")
        .args(["--mount", "--propagation", "private", "sh", "-c", &script])
        .current_dir(dir.path())
        .env("HOME", dir.path())
        .env("TMPDIR", dir.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let report =
        crate::support::report(&fs_err::read_to_string(dir.path().join("report.json")).unwrap());
    let isolation = &report["isolation"];
    assert_eq!(
        isolation["namespaces"], "user-namespace",
        "this test needs unprivileged user namespaces for nobody: {isolation:#}\n{stderr}"
    );
    assert_eq!(isolation["proc"], "shared", "{isolation:#}\n{stderr}");
    // "the container's" where the judge finds itself in one (this test
    // may run in a CI container), else "the host's".
    let said = |place: &str| {
        stderr.contains(&format!(
            "note: /proc is the {place}'s (the namespaces work, but mounting a private one was \
             refused with EPERM: part of /proc is likely covered by another mount"
        ))
    };
    assert!(
        (said("host") || said("container")) && !stderr.contains("a private one needs root"),
        "{stderr}"
    );
    assert_eq!(report["results"][0]["verdict"], "AC", "{stderr}");
}
