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

    fn plan(&self, root: bool) -> Result<Plan, NoCgroups> {
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
    let reason = host.plan(false).unwrap_err().to_string();
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
    let reason = host.plan(false).unwrap_err().to_string();
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
    // The root cgroup is root's.
    let host = host.read_only("sys/fs/cgroup/unified/cgroup.subtree_control");
    let reason = host.plan(false).unwrap_err().to_string();
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
    // The unified hierarchy still holds the tree: memory is in no cgroup,
    // and the note says why.
    let plan = host.plan(true).unwrap();
    assert_eq!(versions(&plan), [CgroupVersion::None, V1, V2]);
    assert_eq!(
        plan.lost,
        [format!(
            "cgroup v2: the memory controller is not enabled for the judge's cgroup `{}` (it \
             has: cpu io)",
            host.path("sys/fs/cgroup/unified").display()
        )]
    );
    assert!(plan.controllers.missing());
}

/// A subtree delegated in part (issue 20): memory delegated, pids not. The
/// judge uses what it has (memory, the CPU time, the kill by cgroup) and
/// names what is missing, rather than falling back to no cgroups.
#[test]
fn a_subtree_with_memory_but_not_pids_uses_memory() {
    let scope = "/user.slice/user-1000.slice/run-7.scope";
    let host = Host::new().v2("sys/fs/cgroup", scope, "cpu memory");
    let plan = host.plan(false).unwrap_or_else(|reason| {
        panic!("a subtree with memory but not pids gave no cgroups: {reason}")
    });
    assert_eq!(plan.layer(), CgroupLayer::CgroupV2Delegated);
    assert_eq!(versions(&plan), [V2, CgroupVersion::None, V2]);
    let base = plan.v2.as_ref().unwrap();
    assert!(base.enables("memory") && !base.enables("pids"));
    let note = plan.describe_partial();
    assert!(
        note.contains("the pids controller is not delegated to the judge's cgroup")
            && note.contains("pids: none"),
        "{note}"
    );
    assert_eq!(
        serde_json::to_value(plan.controllers).unwrap(),
        serde_json::json!({"memory": "v2", "pids": "none", "cpu": "v2"})
    );
}

/// A scope whose directory and `cgroup.procs` are the user's but whose
/// `cgroup.subtree_control` is not: no controller can be handed down, yet
/// a cgroup per run still gives the tree's CPU time and its kill.
#[test]
fn a_subtree_whose_subtree_control_is_not_writable_keeps_the_group() {
    let scope = "/user.slice/user-1000.slice/run-7.scope";
    let host = Host::new()
        .v2("sys/fs/cgroup", scope, "cpu memory pids")
        .read_only(&format!("sys/fs/cgroup{scope}/cgroup.subtree_control"));
    let plan = host.plan(false).unwrap_or_else(|reason| {
        panic!("a subtree with a read-only cgroup.subtree_control gave no cgroups: {reason}")
    });
    assert_eq!(plan.layer(), CgroupLayer::CgroupV2Delegated);
    assert_eq!(
        versions(&plan),
        [CgroupVersion::None, CgroupVersion::None, V2]
    );
    let base = plan.v2.as_ref().unwrap();
    assert!(!base.enables("memory") && !base.enables("pids") && !base.enables("cpu"));
    let note = plan.describe_partial();
    assert!(
        note.contains("no memory controller")
            && note.contains("no pids controller")
            && note.contains("cgroup.subtree_control` is not writable by this user"),
        "{note}"
    );
}

#[test]
fn nothing_writable_gives_no_plan_and_says_why() {
    // As root, a unified root cgroup that cannot be written (a read-only
    // bind mount of a container, say); no v1 hierarchy.
    let host = Host::new()
        .v2("sys/fs/cgroup", "/", "memory pids")
        .read_only("sys/fs/cgroup/cgroup.subtree_control");
    let reason = host.plan(true).unwrap_err().to_string();
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
    let reason = host.plan(false).unwrap_err().to_string();
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
    assert_eq!(v1_place(&found, cgroup, "memory"), Ok(point.join("job")));
    assert_eq!(
        v1_place(&found, cgroup, "cpuacct"),
        Ok(PathBuf::from(format!("{}2", point.display())))
    );
    // A cgroup outside what is mounted is not taken for one inside it, and
    // is said to be outside it.
    for outside in ["4:memory:/docker/abcd\n", "4:memory:/other\n"] {
        let why = v1_place(&found, outside, "memory").unwrap_err().unwrap();
        assert!(
            why.contains("outside the cgroup v1 memory hierarchy"),
            "{why}"
        );
    }
    assert_eq!(v1_place(&found, cgroup, "hugetlb"), Err(None));
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

// Review of the hybrid change (failing-review tests): host shapes that
// detection or the v1 containers get wrong. Each says what a real host
// shows and what the judge should make of it.

/// `unshare --cgroup`, or a container with a private cgroup namespace that
/// was given the host's /sys/fs/cgroup (`-v /sys/fs/cgroup:/sys/fs/cgroup`,
/// systemd-in-a-container images): the judge's cgroup is the namespace's
/// root (`4:memory:/`), and mountinfo shows the mount's root *relative to
/// it* (`/../..`, the mount being the host's whole hierarchy). Captured on
/// this project's v1 host with `unshare -C cat /proc/self/mountinfo`.
/// The judge before this change used such a host as cgroup v1.
#[test]
fn review_a_cgroup_namespace_with_the_hosts_mounts_is_still_v1() {
    let dir = tempfile::tempdir().unwrap();
    let cg = dir.path().join("sys/fs/cgroup");
    for controller in ["memory", "pids", "cpuacct"] {
        fs_err::create_dir_all(cg.join(controller)).unwrap();
    }
    let point = |controller: &str| cg.join(controller).display().to_string();
    let mountinfo = format!(
        "33 31 0:30 / {cpuacct} rw,relatime - cgroup cgroup rw,cpuacct\n\
         35 31 0:32 /../.. {memory} rw,relatime - cgroup cgroup rw,memory\n\
         39 31 0:36 / {pids} rw,relatime - cgroup cgroup rw,pids\n\
         40 31 0:37 / {systemd} rw,relatime - cgroup cgroup rw,name=systemd\n",
        cpuacct = point("cpuacct"),
        memory = point("memory"),
        pids = point("pids"),
        systemd = point("systemd"),
    );
    let cgroup = "9:name=systemd:/\n8:pids:/\n4:memory:/\n2:cpuacct:/\n0::/\n";
    let writable = |_: &Path| true;
    let found = plan(&HostView {
        mountinfo: &mountinfo,
        cgroup,
        root: true,
        writable: &writable,
    });
    let plan = found.unwrap_or_else(|reason| {
        panic!("a v1 host seen from a cgroup namespace lost its cgroups: {reason}")
    });
    assert_eq!(plan.layer(), CgroupLayer::CgroupV1);
    assert!(
        plan.v1
            .memory
            .as_ref()
            .unwrap()
            .starts_with(cg.join("memory")),
        "{plan:?}"
    );
}

/// The same for the unified hierarchy: `unshare --cgroup` on a cgroup v2
/// host shows `0::/` and the host's mount with root `/../..`; the judge
/// before this change used `/sys/fs/cgroup` there.
#[test]
fn review_a_cgroup_namespace_on_a_v2_host_finds_the_unified_hierarchy() {
    let dir = tempfile::tempdir().unwrap();
    let point = dir.path().join("sys/fs/cgroup");
    fs_err::create_dir_all(&point).unwrap();
    fs_err::write(point.join("cgroup.controllers"), "cpu memory pids\n").unwrap();
    fs_err::write(point.join("cgroup.subtree_control"), "").unwrap();
    let mountinfo = format!(
        "41 30 0:38 /../.. {} rw,nosuid,nodev,noexec,relatime - cgroup2 cgroup2 rw\n",
        point.display()
    );
    let found = v2_place(&mounts(&mountinfo), "0::/\n");
    assert!(
        found.is_ok(),
        "a v2 host seen from a cgroup namespace: {found:?}"
    );
}

/// v1 hierarchies with controllers mounted together (`-o memory,pids`,
/// `-o pids,cpuacct` as in the subtree test above): one directory is both
/// controllers' cgroup. A container must still be made (once) there.
#[test]
fn review_co_mounted_v1_controllers_get_a_container() {
    for together in ["memory,pids", "pids,cpuacct", "memory,cpuacct"] {
        let mut host = Host::new().v1(4, together, "/");
        for single in ["memory", "pids", "cpuacct"] {
            if !together.split(',').any(|c| c == single) {
                host = host.v1(7, single, "/");
            }
        }
        let plan = host.plan(true).unwrap();
        assert_eq!(plan.layer(), CgroupLayer::CgroupV1, "{together}");
        let made = plan.v1.create_container("judge-0123456789abcdef");
        assert!(
            matches!(made, Ok(Some(_))),
            "{together}: no container in co-mounted hierarchies ({made:?}): every name looks \
             taken, so the judge runs with no cgroups at all"
        );
    }
}

/// A subtree bind-mounted over the hierarchy's mount point (the later
/// mount hides the earlier one at the same place): the judge's cgroup is
/// in what is visible, the later mount.
#[test]
fn review_the_visible_one_of_two_cgroup2_mounts_at_one_place_is_used() {
    let dir = tempfile::tempdir().unwrap();
    let point = dir.path().join("sys/fs/cgroup");
    // What the visible (second) mount shows: the subtree `/ci.slice`.
    let own = point.join("job");
    fs_err::create_dir_all(&own).unwrap();
    for d in [&point, &own] {
        fs_err::write(d.join("cgroup.controllers"), "cpu memory pids\n").unwrap();
        fs_err::write(d.join("cgroup.subtree_control"), "").unwrap();
        fs_err::write(d.join("cgroup.procs"), "").unwrap();
        fs_err::write(d.join("cgroup.type"), "domain\n").unwrap();
    }
    let mountinfo = format!(
        "41 30 0:38 / {p} rw,nosuid,nodev,noexec,relatime - cgroup2 cgroup2 rw\n\
         52 41 0:38 /ci.slice {p} rw,nosuid,nodev,noexec,relatime - cgroup2 cgroup2 rw\n",
        p = point.display()
    );
    let found = v2_place(&mounts(&mountinfo), "0::/ci.slice/job\n");
    assert_eq!(found, Ok((point.clone(), own)), "the hidden mount was used");
}

/// A v1 host with no cpuacct hierarchy and no cgroup2 mount (an older
/// distribution's container that mounts only memory and pids): the note
/// names what is missing (cpuacct), not only that there is no cgroup2.
#[test]
fn review_a_missing_cpuacct_is_named() {
    let host = Host::new().v1(4, "memory", "/").v1(8, "pids", "/");
    let reason = host.plan(true).unwrap_err().to_string();
    assert!(reason.contains("cpuacct"), "{reason}");
}

/// In a cgroup namespace, a mount of the host's whole hierarchy (`/../..`)
/// shows the namespace's root two levels below the mount point: the
/// directory there whose cgroup lists this process is the judge's, not the
/// mount point. A root with `..` and then names is a subtree beside the
/// namespace's root: it does not show the judge's cgroup, and the note
/// says so rather than falling back to v2.
#[test]
fn a_cgroup_namespace_root_is_found_below_the_mount_by_membership() {
    let dir = tempfile::tempdir().unwrap();
    let point = dir.path().join("memory");
    let me = std::process::id();
    for (place, procs) in [
        ("system.slice/other.service", "1\n2\n".to_owned()),
        ("ci.slice/job-7", format!("1\n{me}\n")),
        ("ci.slice/job-8", String::new()),
    ] {
        fs_err::create_dir_all(point.join(place)).unwrap();
        fs_err::write(point.join(place).join("cgroup.procs"), procs).unwrap();
    }
    let mountinfo = format!(
        "35 31 0:32 /../.. {} rw,relatime - cgroup cgroup rw,memory\n",
        point.display()
    );
    let found = mounts(&mountinfo);
    assert_eq!(
        v1_place(&found, "4:memory:/\n", "memory"),
        Ok(point.join("ci.slice/job-7"))
    );
    // Not found (this process is listed nowhere): the mount point, as the
    // judge before hybrid hosts used.
    assert_eq!(
        v1_place(&found, "4:memory:/inner\n", "memory"),
        Ok(point.join("inner"))
    );
    let beside = format!(
        "35 31 0:32 /../other {} rw,relatime - cgroup cgroup rw,memory\n",
        point.display()
    );
    let why = v1_place(&mounts(&beside), "4:memory:/\n", "memory")
        .unwrap_err()
        .unwrap();
    assert!(why.contains("`/../other`"), "{why}");
    let host = format!(
        "{beside}36 31 0:33 / {p}s rw - cgroup cgroup rw,pids\n",
        p = point.display()
    );
    let reason = plan(&HostView {
        mountinfo: &host,
        cgroup: "4:memory:/\n3:pids:/\n",
        root: true,
        writable: &|_: &Path| true,
    })
    .unwrap_err()
    .to_string();
    assert!(
        reason.contains("outside the cgroup v1 memory hierarchy") && reason.contains("cgroup v2"),
        "{reason}"
    );
}

/// A mount hidden by a later one at the same place is not used, on v1 too.
#[test]
fn of_two_v1_mounts_at_one_place_the_later_is_used() {
    let dir = tempfile::tempdir().unwrap();
    let point = dir.path().join("memory");
    fs_err::create_dir_all(point.join("job")).unwrap();
    let mountinfo = format!(
        "35 31 0:32 / {p} rw - cgroup cgroup rw,memory\n\
         52 35 0:32 /ci.slice {p} rw - cgroup cgroup rw,memory\n",
        p = point.display()
    );
    let found = mounts(&mountinfo);
    assert_eq!(found.len(), 1);
    assert_eq!(
        v1_place(&found, "4:memory:/ci.slice/job\n", "memory"),
        Ok(point.join("job"))
    );
}

/// A mount over a hierarchy's parent directory hides it: the v1 memory
/// hierarchy mounted at /sys/fs/cgroup/memory is gone from sight once a
/// cgroup2 file system is mounted at /sys/fs/cgroup (as a container's
/// runtime does over the host's hybrid layout). Detection must not plan
/// memory on the hidden v1 hierarchy (whose directories are not there).
#[test]
fn a_mount_over_a_hierarchys_parent_hides_it() {
    let host = Host::new().v1(4, "memory", "/").v1(8, "pids", "/");
    // Mounted later, at the parent of both: only it is visible.
    let host = host.v2("sys/fs/cgroup", "/", "cpu");
    match host.plan(true).map_err(|reason| reason.to_string()) {
        Ok(plan) => assert!(plan.v1.is_empty(), "the hidden v1 hierarchies were used"),
        Err(reason) => assert!(
            !reason.contains("cgroup v1") && reason.contains("memory and pids"),
            "the hidden v1 hierarchies were used: {reason}"
        ),
    }
    let found = mounts(&host.mountinfo);
    assert!(
        found.iter().all(|mount| mount.fstype != "cgroup"),
        "hidden v1 mounts still listed"
    );
    // Mounted before them (systemd's hybrid layout: a tmpfs at
    // /sys/fs/cgroup, then each hierarchy below it), nothing is hidden.
    let layered = format!(
        "25 22 0:20 / {} rw - tmpfs tmpfs rw\n{}",
        host.path("sys/fs/cgroup").display(),
        Host::new().v1(4, "memory", "/").mountinfo
    );
    assert_eq!(
        mounts(&layered)
            .iter()
            .filter(|mount| mount.fstype == "cgroup")
            .count(),
        1
    );
}

/// A container's private cgroup namespace whose root (`0::/`, the mount's
/// root) also holds other processes (`docker exec`, a shell that started
/// the judge): no parent to go next to, so the others are to be moved
/// into a leaf of their own (as Docker-in-Docker does), and the note says
/// so. Without the controllers in `cgroup.controllers` there is nothing to
/// gain, and the judge keeps the old answer.
#[test]
fn a_shared_cgroup_namespace_root_moves_the_others_out() {
    for root in [true, false] {
        let host = Host::new().v2("sys/fs/cgroup", "/", "cpu memory pids");
        let point = host.path("sys/fs/cgroup");
        fs_err::write(point.join("cgroup.type"), "domain\n").unwrap();
        fs_err::write(point.join("cgroup.procs"), "1\n7\n").unwrap();
        let plan = host
            .plan(root)
            .unwrap_or_else(|reason| panic!("a shared namespace root gave no cgroups: {reason}"));
        assert_eq!(versions(&plan), [V2, V2, V2]);
        let base = plan.v2.as_ref().unwrap();
        assert!(base.enables("memory") && base.enables("pids"));
        let note = base.eviction_note().expect("no note of the move");
        assert!(
            note.contains("also held 2 other process(es)")
                && note.contains(&format!("`{}`", point.join("init").display()))
                && note.contains("moved back when the judge ends"),
            "{note}"
        );
    }
    // Alone in it: no move, no note.
    let host = Host::new().v2("sys/fs/cgroup", "/", "cpu memory pids");
    let point = host.path("sys/fs/cgroup");
    fs_err::write(point.join("cgroup.type"), "domain\n").unwrap();
    let plan = host.plan(true).unwrap();
    assert!(plan.v2.as_ref().unwrap().eviction_note().is_none());
}
