//! The judge in its container image (issue 30, item 6), started the way
//! grading platforms start one: rootful podman with its defaults (as
//! Gradescope and PrairieLearn run Docker: uid 0, no added capabilities,
//! the default seccomp profile, no user namespace), and rootless podman
//! (uid 0 of a user namespace that maps the user and 65,536 subuids, as a
//! Kubernetes pod with user namespaces). In each, the programs of
//! `tests/container/inside.sh` must get their verdicts (a forking hog MLE,
//! a fork bomb TLE, daemons killed) and leave nothing behind, and the
//! start-up notes must say which layers the container took away and why.
//!
//! The image is built by `deploy/container/build.sh` from Debian's archive
//! (debootstrap), as a user would build it; `.ci/run` installs podman,
//! runc, uidmap and debootstrap. Ignored by default: it needs root and
//! takes minutes.

use crate::console::{tests_by_program, Console};
use crate::support::{repository, require_root};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

/// The user of the rootless runs: one with subordinate ids, which rootless
/// podman maps into the container.
const ROOTLESS_USER: &str = "judge-container";

/// Runs a command, panicking with its output when it fails.
#[track_caller]
fn run(command: &mut Command) -> String {
    let output = command
        .output()
        .unwrap_or_else(|error| panic!("{command:?} did not start: {error}"));
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(output.status.success(), "{command:?} failed:\n{text}");
    text
}

/// The user of the rootless runs, with a home (podman keeps its images
/// there) and subordinate uids and gids.
fn rootless_user() {
    let exists = Command::new("id")
        .arg(ROOTLESS_USER)
        .output()
        .is_ok_and(|output| output.status.success());
    if !exists {
        run(Command::new("useradd").args(["--create-home", "--shell", "/bin/sh", ROOTLESS_USER]));
    }
    for (file, flag) in [
        ("/etc/subuid", "--add-subuids"),
        ("/etc/subgid", "--add-subgids"),
    ] {
        let listed = fs_err::read_to_string(file)
            .unwrap_or_default()
            .lines()
            .any(|line| line.starts_with(&format!("{ROOTLESS_USER}:")));
        if !listed {
            run(Command::new("usermod").args([flag, "3000000000-3000065535", ROOTLESS_USER]));
        }
    }
}

/// The test's folder: the programs, one test of each problem, the script.
fn work_folder() -> tempfile::TempDir {
    let repo = repository();
    let dir = tempfile::Builder::new()
        .prefix("judge-container-")
        .tempdir_in("/tmp")
        .unwrap();
    let work = dir.path();
    for sub in ["programs", "tests/rooks", "tests/mayan"] {
        fs_err::create_dir_all(work.join(sub)).unwrap();
    }
    let hostile = repo.join("tests/fixtures/hostile");
    for name in [
        "memory_hog.c",
        "fork_bomb.c",
        "infinite_loop.c",
        "stdout_flood.c",
        "daemon.c",
        "orphan.c",
        "leader_exit.c",
        "fork_hog.c",
    ] {
        fs_err::copy(hostile.join(name), work.join("programs").join(name)).unwrap();
    }
    fs_err::copy(
        repo.join("submissions/rooks/accepted/matching.py"),
        work.join("programs/rooks_ok.py"),
    )
    .unwrap();
    for (problem, test) in [("rooks", "sample-1"), ("mayan", "bottom-row-001")] {
        for extension in ["in", "ans"] {
            fs_err::copy(
                repo.join(format!("problems/{problem}/tests/{test}.{extension}")),
                work.join(format!("tests/{problem}/{test}.{extension}")),
            )
            .unwrap();
        }
    }
    fs_err::copy(
        repo.join("tests/container/inside.sh"),
        work.join("inside.sh"),
    )
    .unwrap();
    // The rootless container's root is the user outside: it must write here.
    run(Command::new("chmod").args(["-R", "a+rwX"]).arg(work));
    dir
}

/// `podman run` of the script in the image, with the platforms' defaults:
/// no network, no added capability, the default seccomp profile. runc, not
/// crun: crun refuses a host that mounts cgroup v1 and v2 at once (this
/// one). The rlimits are set within what the caller may set (podman's
/// default asks for more than a CI runner's hard limit).
fn podman_run(image: &str, work: &Path) -> Vec<String> {
    vec![
        "podman".into(),
        "run".into(),
        "--rm".into(),
        "--runtime".into(),
        "runc".into(),
        "--network".into(),
        "none".into(),
        "--ulimit".into(),
        "nofile=1024:1024".into(),
        "--ulimit".into(),
        "nproc=4096:4096".into(),
        // A judge that hangs in there fails the test in minutes, rather
        // than holding CI to its own limit.
        "--timeout".into(),
        "600".into(),
        "--volume".into(),
        format!("{}:/work", work.display()),
        "--entrypoint".into(),
        "sh".into(),
        image.into(),
        "/work/inside.sh".into(),
    ]
}

/// Every verdict the container's runs must give, and that nothing was left.
fn check(console: &Console, how: &str) -> BTreeMap<String, Value> {
    let mut tests = BTreeMap::new();
    for run in ["memory", "limits", "escapes"] {
        let stderr = console.section(run, "stderr");
        let context = format!("{how}, {run}, stderr:\n{stderr}");
        // Not every program is accepted: exit 1, never a judge error.
        assert_eq!(console.record("EXIT", run), "1", "{context}");
        let left = console.section(run, "left");
        assert!(
            left.trim().is_empty(),
            "left behind in the container:\n{left}\n{context}"
        );
        for (path, test) in tests_by_program(&console.report(run)) {
            let name = Path::new(&path)
                .file_stem()
                .unwrap()
                .to_string_lossy()
                .into_owned();
            tests.insert(name, test);
        }
    }
    let verdict = |name: &str| tests[name]["verdict"].as_str().unwrap_or("?").to_owned();
    assert_eq!(verdict("rooks_ok"), "AC", "{how}: {:#}", tests["rooks_ok"]);
    for (name, expected) in [
        ("fork_hog", "MLE"),
        ("memory_hog", "MLE"),
        ("fork_bomb", "TLE"),
        ("infinite_loop", "TLE"),
        ("stdout_flood", "OLE"),
    ] {
        assert_eq!(verdict(name), expected, "{how}: {name}: {:#}", tests[name]);
    }
    let peak = tests["fork_hog"]["memory_kib"].as_u64().unwrap_or(0);
    assert!(
        peak >= 200 * 1024,
        "{how}: the tree's peak is {peak} KiB, less than one child's 200 MB"
    );
    // They print a sum where a mayan answer belongs: the checker's verdict,
    // after the daemons they left were killed.
    for name in ["daemon", "orphan", "leader_exit"] {
        assert!(
            ["PE", "WA"].contains(&verdict(name).as_str()),
            "{how}: {name}: {:#}",
            tests[name]
        );
    }
    tests
}

#[test]
#[ignore = "needs root, podman, runc, uidmap and debootstrap, and minutes (it builds the image \
            from Debian's archive); .ci/run installs them and runs it with `cargo test --test \
            it container -- --ignored`"]
fn in_its_container_rootful_and_rootless_the_judge_keeps_its_limits() {
    require_root("podman as root and as a user, and debootstrap, need root");
    let repo = repository();
    let image = format!("localhost/judge-test-{}:latest", std::process::id());
    let archive = tempfile::Builder::new()
        .prefix("judge-image-")
        .tempdir_in("/tmp")
        .unwrap();
    let saved = archive.path().join("image.tar");
    // The debootstrapped tree is kept in target/ between runs; the judge
    // binary under test goes into every build.
    run(Command::new("bash")
        .arg(repo.join("deploy/container/build.sh"))
        .args(["--judge", env!("CARGO_BIN_EXE_judge"), "--tag", &image])
        .arg("--rootfs")
        .arg(repo.join("target/container/rootfs"))
        .arg("--save")
        .arg(&saved));
    run(Command::new("chmod").arg("a+rx").arg(archive.path()));
    run(Command::new("chmod").arg("a+r").arg(&saved));
    let work = work_folder();

    // Rootful, as Docker runs a grader: uid 0 with the default capabilities
    // (no CAP_SYS_ADMIN, so no namespaces) and no user namespace.
    let argv = podman_run(&image, work.path());
    let rootful = Console::parse(run(Command::new(&argv[0]).args(&argv[1..])), "CTR");
    check(&rootful, "rootful podman");
    let report = rootful.report("memory");
    let isolation = &report["isolation"];
    assert!(
        isolation["user"].is_u64(),
        "runs switch to a uid of their own: {isolation:#}"
    );
    let stderr = rootful.section("memory", "stderr");
    assert!(
        stderr.contains("note: no namespaces (root without CAP_SYS_ADMIN, as in a container"),
        "the note says why there are no namespaces:\n{stderr}"
    );

    // Rootless: uid 0 of a user namespace that maps only the user and its
    // subuids, none of the run uids; the judge sandboxes as an ordinary user
    // would, in a user namespace of its own inside the container's.
    rootless_user();
    let as_user = |args: &[&str]| {
        let mut command = Command::new("runuser");
        command
            .args(["-u", ROOTLESS_USER, "--"])
            .args(args)
            .current_dir("/tmp");
        command
    };
    run(&mut as_user(&[
        "podman",
        "load",
        "--quiet",
        "--input",
        saved.to_str().unwrap(),
    ]));
    let argv: Vec<String> = podman_run(&image, work.path());
    let argv: Vec<&str> = argv.iter().map(String::as_str).collect();
    let rootless = Console::parse(run(&mut as_user(&argv)), "CTR");
    check(&rootless, "rootless podman");
    let report = rootless.report("memory");
    let isolation = &report["isolation"];
    assert_eq!(isolation["namespaces"], "user-namespace", "{isolation:#}");
    assert_eq!(
        isolation["pid_namespace"], "namespace-per-worker",
        "{isolation:#}"
    );
    let stderr = rootless.section("memory", "stderr");
    assert!(
        stderr.contains(
            "note: uid 0 of a user namespace that does not map the run uids (0x70000000-0x7fffffff)"
        ),
        "the note says why root sandboxes as a user here:\n{stderr}"
    );

    // Neither store keeps the test's image.
    let _ = as_user(&["podman", "rmi", "--force", &image]).output();
    let _ = Command::new("podman")
        .args(["rmi", "--force", &image])
        .output();
}
