//! Detection on fake hosts: a temporary directory holds the cgroup file
//! systems' mount points and files, and the mountinfo and membership texts
//! point into it. Writability is the owner's write bit of the fake file
//! (the tests run as root, whom `access` never refuses).

use super::*;
use std::os::unix::fs::PermissionsExt;

struct Host {
    dir: tempfile::TempDir,
    mountinfo: String,
    cgroup: String,
}

impl Host {
    fn new() -> Host {
        Host {
            dir: tempfile::tempdir().unwrap(),
            mountinfo: "22 1 0:21 / /proc rw,relatime - proc proc rw\n".to_owned(),
            cgroup: String::new(),
        }
    }

    fn path(&self, relative: &str) -> PathBuf {
        self.dir.path().join(relative)
    }

    /// A v1 hierarchy of `controller` at `sys/fs/cgroup/<controller>`, the
    /// judge in `place`.
    fn v1(mut self, id: u32, controller: &str, place: &str) -> Host {
        let point = self.path(&format!("sys/fs/cgroup/{controller}"));
        fs_err::create_dir_all(point.join(place.trim_start_matches('/'))).unwrap();
        self.mountinfo.push_str(&format!(
            "{} 30 0:{id} / {} rw,relatime - cgroup cgroup rw,{controller}\n",
            30 + id,
            point.display()
        ));
        self.cgroup = format!("{id}:{controller}:{place}\n{}", self.cgroup);
        self
    }

    /// The unified hierarchy at `mount`, the judge in `place`, whose
    /// `cgroup.controllers` lists `offered`.
    fn v2(mut self, mount: &str, place: &str, offered: &str) -> Host {
        let point = self.path(mount);
        let own = point.join(place.trim_start_matches('/'));
        fs_err::create_dir_all(&own).unwrap();
        for dir in [&point, &own] {
            fs_err::write(dir.join("cgroup.controllers"), format!("{offered}\n")).unwrap();
            fs_err::write(dir.join("cgroup.subtree_control"), "").unwrap();
            fs_err::write(dir.join("cgroup.procs"), "").unwrap();
        }
        if own != point {
            fs_err::write(own.join("cgroup.type"), "domain\n").unwrap();
        }
        self.mountinfo.push_str(&format!(
            "41 30 0:38 / {} rw,nosuid,nodev,noexec,relatime - cgroup2 cgroup2 rw\n",
            point.display()
        ));
        self.cgroup.push_str(&format!("0::{place}\n"));
        self
    }

    /// Takes the owner's write bit from a fake directory or file.
    fn read_only(self, relative: &str) -> Host {
        let path = self.path(relative);
        let mode = fs_err::metadata(&path).unwrap().permissions().mode();
        fs_err::set_permissions(&path, std::fs::Permissions::from_mode(mode & !0o222)).unwrap();
        self
    }

    fn plan(&self, root: bool) -> Result<Plan, String> {
        let writable = |path: &Path| {
            fs_err::metadata(path).is_ok_and(|meta| meta.permissions().mode() & 0o200 != 0)
        };
        plan(&HostView {
            mountinfo: &self.mountinfo,
            cgroup: &self.cgroup,
            root,
            writable: &writable,
        })
    }
}

fn versions(plan: &Plan) -> [CgroupVersion; 3] {
    let c = plan.controllers;
    [c.memory, c.pids, c.cpu]
}

use CgroupVersion::{V1, V2};

#[test]
fn v1_only_takes_each_controller_from_its_hierarchy_below_the_judges_place() {
    let host = Host::new()
        .v1(4, "memory", "/process_api/abc")
        .v1(8, "pids", "/")
        .v1(2, "cpuacct", "/");
    let plan = host.plan(true).unwrap();
    assert_eq!(plan.layer(), CgroupLayer::CgroupV1);
    assert_eq!(versions(&plan), [V1, V1, V1]);
    assert!(plan.v2.is_none());
    assert_eq!(
        plan.v1.memory.unwrap(),
        host.path("sys/fs/cgroup/memory/process_api/abc")
    );
    assert_eq!(plan.v1.pids.unwrap(), host.path("sys/fs/cgroup/pids"));
    // Not root: v1 is root's, and there is no v2 at all.
    let reason = host.plan(false).unwrap_err();
    assert!(reason.contains("writable only by root"), "{reason}");
    assert!(reason.contains("no cgroup2 file system"), "{reason}");
}

#[test]
fn v2_only_as_root_uses_the_unified_hierarchy_for_everything() {
    let host = Host::new().v2("sys/fs/cgroup", "/", "cpuset cpu io memory pids");
    let plan = host.plan(true).unwrap();
    assert_eq!(plan.layer(), CgroupLayer::CgroupV2);
    assert_eq!(versions(&plan), [V2, V2, V2]);
    let base = plan.v2.as_ref().unwrap();
    assert_eq!(base.dir, host.path("sys/fs/cgroup"));
    assert!(base.enables("memory") && base.enables("pids") && base.enables("cpu"));
    assert!(plan.v1.is_empty());
}

#[test]
fn v2_delegated_to_a_user_alone_in_their_scope() {
    let scope = "/user.slice/user-1000.slice/run-7.scope";
    let host = Host::new()
        .v2("sys/fs/cgroup", scope, "memory pids")
        .read_only("sys/fs/cgroup/cgroup.subtree_control");
    let plan = host.plan(false).unwrap();
    assert_eq!(plan.layer(), CgroupLayer::CgroupV2Delegated);
    assert_eq!(versions(&plan), [V2, V2, V2]);
    let base = plan.v2.as_ref().unwrap();
    assert_eq!(base.dir, host.path(&format!("sys/fs/cgroup{scope}")));
    assert!(!base.enables("cpu"), "cpu was not offered");
    // The same scope, not the user's: the note says so and what to do.
    let host = host.read_only(&format!("sys/fs/cgroup{scope}/cgroup.procs"));
    let reason = host.plan(false).unwrap_err();
    assert!(
        reason.starts_with("cgroup v2: ") && reason.contains("is not delegated to this user"),
        "{reason}"
    );
    assert!(reason.contains("systemd-run --user --scope"), "{reason}");
}

#[test]
fn hybrid_with_an_empty_unified_hierarchy_is_plain_v1() {
    // systemd's hybrid mode, as on this project's CI host: every controller
    // on v1, the unified hierarchy at /sys/fs/cgroup/unified with none.
    let host = Host::new()
        .v1(4, "memory", "/")
        .v1(8, "pids", "/")
        .v1(2, "cpuacct", "/")
        .v2("sys/fs/cgroup/unified", "/", "hugetlb");
    let plan = host.plan(true).unwrap();
    assert_eq!(plan.layer(), CgroupLayer::CgroupV1);
    assert_eq!(versions(&plan), [V1, V1, V1]);
    assert!(plan.v2.is_none(), "v2 gives nothing here: not used");
    let reason = host.plan(false).unwrap_err();
    assert!(
        reason.contains("writable only by root")
            && reason.contains("the memory and pids controllers are not delegated"),
        "{reason}"
    );
}

#[test]
fn hybrid_with_pids_on_v2_and_memory_on_v1_mixes_them() {
    let host = Host::new().v1(4, "memory", "/").v1(2, "cpuacct", "/").v2(
        "sys/fs/cgroup/unified",
        "/",
        "cpu pids",
    );
    let plan = host.plan(true).unwrap();
    assert_eq!(plan.layer(), CgroupLayer::CgroupHybrid);
    // The CPU time comes with v2's `cpu.stat`, once v2 is used anyway.
    assert_eq!(versions(&plan), [V1, V2, V2]);
    let base = plan.v2.as_ref().unwrap();
    assert!(base.enables("pids") && !base.enables("memory"));
    assert_eq!(plan.v1.memory, Some(host.path("sys/fs/cgroup/memory")));
    assert_eq!(
        (plan.v1.pids.as_ref(), plan.v1.cpuacct.as_ref()),
        (None, None)
    );
    let described = plan.describe();
    assert_eq!(
        described,
        format!(
            "memory: v1 {}; pids: v2 {unified}; cpu: v2 {unified}",
            host.path("sys/fs/cgroup/memory").display(),
            unified = host.path("sys/fs/cgroup/unified").display()
        )
    );
}

#[test]
fn hybrid_with_memory_on_v2_and_pids_on_v1() {
    let host = Host::new()
        .v1(8, "pids", "/")
        .v2("sys/fs/cgroup/unified", "/", "memory");
    let plan = host.plan(true).unwrap();
    assert_eq!(plan.layer(), CgroupLayer::CgroupHybrid);
    assert_eq!(versions(&plan), [V2, V1, V2]);
    assert_eq!(plan.v1.pids, Some(host.path("sys/fs/cgroup/pids")));
    assert!(plan.v2.as_ref().unwrap().enables("memory"));
}

#[test]
fn a_controller_on_neither_hierarchy_is_named() {
    let host = Host::new()
        .v1(8, "pids", "/")
        .v2("sys/fs/cgroup/unified", "/", "cpu io");
    let reason = host.plan(true).unwrap_err();
    assert_eq!(
        reason,
        format!(
            "cgroup v2: the memory controller is not enabled for the judge's cgroup `{}` (it \
             has: cpu io)",
            host.path("sys/fs/cgroup/unified").display()
        )
    );
}

#[test]
fn nothing_writable_gives_no_plan_and_says_why() {
    // As root, a unified root cgroup that cannot be written (a read-only
    // bind mount of a container, say); no v1 hierarchy.
    let host = Host::new()
        .v2("sys/fs/cgroup", "/", "memory pids")
        .read_only("sys/fs/cgroup/cgroup.subtree_control");
    let reason = host.plan(true).unwrap_err();
    assert!(
        reason.starts_with("cgroup v2: the root cgroup") && reason.contains("is not writable"),
        "{reason}"
    );
    // A user, in a login scope shared with other processes whose parent
    // is not theirs either.
    let scope = "/user.slice/session-3.scope";
    let host = Host::new()
        .v1(4, "memory", "/")
        .v2("sys/fs/cgroup/unified", scope, "memory pids")
        .read_only("sys/fs/cgroup/unified/user.slice");
    fs_err::write(
        host.path(&format!("sys/fs/cgroup/unified{scope}/cgroup.procs")),
        "1\n2\n",
    )
    .unwrap();
    let reason = host.plan(false).unwrap_err();
    assert!(
        reason.contains("also holds 2 other process(es)") && reason.contains("systemd-run"),
        "{reason}"
    );
}

#[test]
fn mountinfo_of_a_subtree_and_escaped_names_are_understood() {
    // A container's view without a cgroup namespace: the hierarchy is
    // mounted from the container's cgroup, which /proc/self/cgroup names
    // in full; and a mount point with a space (`\040`).
    let dir = tempfile::tempdir().unwrap();
    let point = dir.path().join("cg root");
    fs_err::create_dir_all(point.join("job")).unwrap();
    let escaped = point.display().to_string().replace(' ', "\\040");
    let mountinfo = format!(
        "35 31 0:32 /docker/abc {escaped} rw - cgroup cgroup rw,memory\n\
         36 31 0:33 /docker/abc {escaped}2 rw - cgroup cgroup rw,pids,cpuacct\n"
    );
    let found = mounts(&mountinfo);
    assert_eq!(found[0].point, point);
    assert_eq!(found[0].root, "/docker/abc");
    let cgroup = "4:memory:/docker/abc/job\n3:cpuacct,pids:/docker/abc\n";
    assert_eq!(v1_place(&found, cgroup, "memory"), Some(point.join("job")));
    assert_eq!(
        v1_place(&found, cgroup, "cpuacct"),
        Some(PathBuf::from(format!("{}2", point.display())))
    );
    // A cgroup outside what is mounted is not taken for one inside it.
    assert_eq!(v1_place(&found, "4:memory:/docker/abcd\n", "memory"), None);
    assert_eq!(v1_place(&found, "4:memory:/other\n", "memory"), None);
}

#[test]
fn the_report_names_the_mix_as_documented() {
    let host = Host::new()
        .v1(4, "memory", "/")
        .v2("sys/fs/cgroup/unified", "/", "pids");
    let plan = host.plan(true).unwrap();
    assert_eq!(
        serde_json::to_value(plan.layer()).unwrap(),
        serde_json::json!("cgroup-hybrid")
    );
    assert_eq!(
        serde_json::to_value(plan.controllers).unwrap(),
        serde_json::json!({"memory": "v1", "pids": "v2", "cpu": "v2"})
    );
}
