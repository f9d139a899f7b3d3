//! Where each controller a worker needs comes from, decided from what the
//! host shows: its mounts (`/proc/self/mountinfo`), the judge's place in
//! each hierarchy (`/proc/self/cgroup`) and the cgroup files below the
//! mount points. Taken as data ([`HostView`]), so a fake tree in a
//! temporary directory can stand in for a host.
//!
//! A kernel binds each controller to one hierarchy: `memory` and `pids`
//! are either on the unified (v2) hierarchy, where the judge's cgroup must
//! offer them (`cgroup.controllers`), or on a legacy (v1) hierarchy of
//! their own, or nowhere. The CPU time of a tree is read on v2 from
//! `cpu.stat` whatever controllers are enabled, so it comes from v2
//! whenever v2 is used for memory or pids, else from the v1 `cpuacct`
//! hierarchy (else from v2 all the same). A host that mixes both kinds (a
//! "hybrid" one) gets each controller where it is.

use super::unusable::V2Unusable;
use super::{v1, v2};
use crate::sandbox::{CgroupControllers, CgroupLayer, CgroupVersion};
use std::path::{Path, PathBuf};

/// What detection reads of the host.
pub(super) struct HostView<'a> {
    /// `/proc/self/mountinfo`.
    pub(super) mountinfo: &'a str,
    /// `/proc/self/cgroup`.
    pub(super) cgroup: &'a str,
    /// Whether the judge runs as root (v1 hierarchies are root's).
    pub(super) root: bool,
    /// Whether the judge may write a cgroup directory or file.
    pub(super) writable: &'a dyn Fn(&Path) -> bool,
}

/// The controllers a worker needs, as v1 names them.
const NEEDED: [&str; 2] = ["memory", "pids"];

/// Where each controller comes from, and the places containers go.
#[derive(Clone, Debug)]
pub(super) struct Plan {
    /// The judge's place in each v1 hierarchy the plan uses.
    pub(super) v1: v1::Hierarchies,
    /// The unified hierarchy, when the plan uses it.
    pub(super) v2: Option<v2::Base>,
    pub(super) controllers: CgroupControllers,
    /// Why a controller is in no cgroup (`CgroupVersion::None`), one
    /// clause per missing one.
    pub(super) lost: Vec<String>,
}

impl Plan {
    /// The name the report gives this mix.
    pub(super) fn layer(&self) -> CgroupLayer {
        let CgroupControllers { memory, pids, cpu } = self.controllers;
        // A controller in no cgroup does not make a mix: the mechanism is
        // what the others use.
        let used: Vec<CgroupVersion> = [memory, pids, cpu]
            .into_iter()
            .filter(|version| *version != CgroupVersion::None)
            .collect();
        if used.iter().all(|version| *version == CgroupVersion::V1) {
            CgroupLayer::CgroupV1
        } else if used.iter().all(|version| *version == CgroupVersion::V2) {
            match &self.v2 {
                Some(base) if base.delegated => CgroupLayer::CgroupV2Delegated,
                _ => CgroupLayer::CgroupV2,
            }
        } else {
            CgroupLayer::CgroupHybrid
        }
    }

    /// Each controller and the directory it is used in, for the start-up
    /// note: `memory: v1 /sys/fs/cgroup/memory; pids: v2 ...`.
    pub(super) fn describe(&self) -> String {
        let v2_dir = self.v2.as_ref().map(|base| base.dir.as_path());
        let one = |name: &str, version: CgroupVersion, v1_dir: Option<&PathBuf>| {
            let (label, dir) = match version {
                CgroupVersion::V1 => ("v1", v1_dir.map(PathBuf::as_path)),
                CgroupVersion::V2 => ("v2", v2_dir),
                CgroupVersion::None => return format!("{name}: none"),
            };
            let dir = dir.map_or_else(|| "?".to_owned(), |dir| dir.display().to_string());
            format!("{name}: {label} {dir}")
        };
        let c = self.controllers;
        [
            one("memory", c.memory, self.v1.memory.as_ref()),
            one("pids", c.pids, self.v1.pids.as_ref()),
            one("cpu", c.cpu, self.v1.cpuacct.as_ref()),
        ]
        .join("; ")
    }

    /// The start-up note's reason: which controllers are missing and why,
    /// then where the others come from.
    pub(super) fn describe_partial(&self) -> String {
        format!("{}; {}", self.lost.join("; "), self.describe())
    }
}

/// Why no cgroup can be used at all: the start-up note's one line, which
/// may join the reasons of several hierarchies ("...; cgroup v2: ...").
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub(super) struct NoCgroups(String);

/// Decides where each controller comes from, or says in one line why some
/// controller is nowhere usable.
pub(super) fn plan(view: &HostView) -> Result<Plan, NoCgroups> {
    let mounts = mounts(view.mountinfo);
    let on_v1 = |controller: &str| v1_place(&mounts, view.cgroup, controller);
    let unified = v2_place(&mounts, view.cgroup);
    let offered: Result<Vec<String>, V2Unusable> =
        unified.as_ref().map_err(Clone::clone).and_then(|(_, own)| {
            fs_err::read_to_string(own.join("cgroup.controllers"))
                .map(|text| text.split_whitespace().map(str::to_owned).collect())
                .map_err(|e| V2Unusable::Controllers {
                    own: own.clone(),
                    error: e.to_string(),
                })
        });
    let on_v2 = |controller: &str| {
        offered
            .as_ref()
            .is_ok_and(|offered| offered.iter().any(|c| c == controller))
    };
    // Where each needed controller is bound (v2 first: a kernel binds a
    // controller to one hierarchy, so at most one of the two has it).
    let mut missing: Vec<&str> = Vec::new();
    // Why a v1 hierarchy that is there cannot be used: said, never passed
    // over in silence.
    let mut v1_reasons: Vec<String> = Vec::new();
    let mut v1_unusable = false;
    let mut versions = [CgroupVersion::V2; 2];
    for (slot, controller) in versions.iter_mut().zip(NEEDED) {
        if on_v2(controller) {
            *slot = CgroupVersion::V2;
            continue;
        }
        match on_v1(controller) {
            Ok(_) if view.root => *slot = CgroupVersion::V1,
            Ok(_) => v1_unusable = true,
            Err(Some(why)) => v1_reasons.push(why),
            Err(None) => {}
        }
        if *slot != CgroupVersion::V1 {
            missing.push(controller);
        }
    }
    // A controller nowhere: no cgroup for it, if the unified hierarchy
    // can still hold the run's tree (membership, kill, CPU time); else no
    // cgroups at all.
    let mut lost: Vec<String> = Vec::new();
    if !missing.is_empty() {
        let v2_reason = match (&unified, &offered) {
            (Err(reason), _) | (_, Err(reason)) => reason.to_string(),
            (Ok((_, own)), Ok(offered)) => v2::missing_message(&missing, own, offered, view.root),
        };
        if v1_unusable {
            v1_reasons.push("the cgroup v1 hierarchies are writable only by root".to_owned());
        }
        v1_reasons.push(format!("cgroup v2: {v2_reason}"));
        let reason = v1_reasons.join("; ");
        if unified.is_err() || offered.is_err() {
            return Err(NoCgroups(reason));
        }
        for (slot, controller) in versions.iter_mut().zip(NEEDED) {
            if missing.contains(&controller) {
                *slot = CgroupVersion::None;
            }
        }
        lost.push(reason);
    }
    let [memory, pids] = versions;
    let uses_v2 = memory != CgroupVersion::V1 || pids != CgroupVersion::V1;
    let cpuacct = on_v1("cpuacct");
    let cpu = if uses_v2 || cpuacct.is_err() {
        CgroupVersion::V2
    } else {
        CgroupVersion::V1
    };
    let mut controllers = CgroupControllers { memory, pids, cpu };
    // v2 wanted only for the CPU time: say also why v1 has none.
    let why = |reason: V2Unusable| {
        NoCgroups(match &cpuacct {
            Err(v1_reason) if !uses_v2 => format!(
                "memory and pids are on cgroup v1 but the CPU time is nowhere: {}; cgroup v2: \
             {reason}",
                v1_reason
                    .clone()
                    .unwrap_or_else(|| "no cgroup v1 cpuacct hierarchy is mounted".to_owned())
            ),
            _ => format!("cgroup v2: {reason}"),
        })
    };
    let v2 = if uses_v2 || cpu == CgroupVersion::V2 {
        let (mount, own) = unified.map_err(why)?;
        let offered = offered.map_err(why)?;
        let mut placed: Vec<&str> = Vec::new();
        if memory == CgroupVersion::V2 {
            placed.push("memory");
        }
        if pids == CgroupVersion::V2 {
            placed.push("pids");
        }
        let base = v2::Base::locate(&mount, own, &offered, &placed, view.root, view.writable)
            .map_err(|reason| {
                if lost.is_empty() {
                    why(reason)
                } else {
                    NoCgroups(format!("{}; {reason}", lost.join("; ")))
                }
            })?;
        // A subtree whose `cgroup.subtree_control` cannot be written hands
        // down no controller: the group still holds the tree.
        if let Some(reason) = base.locked_subtree() {
            for (slot, name) in [
                (&mut controllers.memory, "memory"),
                (&mut controllers.pids, "pids"),
            ] {
                if *slot == CgroupVersion::V2 {
                    *slot = CgroupVersion::None;
                    lost.push(format!("cgroup v2: no {name} controller: {reason}"));
                }
            }
        }
        Some(base)
    } else {
        None
    };
    let pick = |version: CgroupVersion, name: &str| {
        (version == CgroupVersion::V1)
            .then(|| on_v1(name).ok())
            .flatten()
    };
    Ok(Plan {
        v1: v1::Hierarchies {
            memory: pick(memory, "memory"),
            pids: pick(pids, "pids"),
            cpuacct: pick(cpu, "cpuacct"),
        },
        v2,
        controllers,
        lost,
    })
}

/// One line of `/proc/self/mountinfo`: what matters here.
struct Mount {
    /// The directory of the file system mounted (a cgroup, for a cgroup
    /// file system mounted from a container or a bind mount).
    root: String,
    point: PathBuf,
    fstype: String,
    /// The super-block options (a v1 hierarchy lists its controllers).
    options: String,
}

/// The mounts in `mountinfo` that are visible: a mount is hidden by a later
/// one at its place or at a directory above it (a tmpfs or a cgroup2 file
/// system mounted at /sys/fs/cgroup over the hierarchies mounted at
/// /sys/fs/cgroup/memory and so on: they are still listed, but no path
/// reaches them).
fn mounts(mountinfo: &str) -> Vec<Mount> {
    let all: Vec<Mount> = mountinfo
        .lines()
        .filter_map(|line| {
            let (before, after) = line.split_once(" - ")?;
            let before: Vec<&str> = before.split_whitespace().collect();
            let mut after = after.split_whitespace();
            let fstype = after.next()?.to_owned();
            let _source = after.next()?;
            Some(Mount {
                root: unescape(before.get(3)?),
                point: PathBuf::from(unescape(before.get(4)?)),
                fstype,
                options: after.next().unwrap_or_default().to_owned(),
            })
        })
        .collect();
    let hidden: Vec<bool> = (0..all.len())
        .map(|i| {
            all[i + 1..]
                .iter()
                .any(|later| all[i].point.starts_with(&later.point))
        })
        .collect();
    all.into_iter()
        .zip(hidden)
        .filter_map(|(mount, hidden)| (!hidden).then_some(mount))
        .collect()
}

/// Undoes mountinfo's octal escapes (`\040` for a space, and so on).
fn unescape(field: &str) -> String {
    let bytes = field.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let octal = bytes
            .get(i + 1..i + 4)
            .filter(|digits| bytes[i] == b'\\' && digits.iter().all(|d| (b'0'..=b'7').contains(d)));
        match octal {
            Some(digits) => {
                let value = digits.iter().fold(0u32, |n, d| n * 8 + u32::from(d - b'0'));
                out.push(value as u8);
                i += 4;
            }
            None => {
                out.push(bytes[i]);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The directory of the judge's cgroup `path` below `mount`, when the
/// mount shows it (a mount of a subtree shows only what is below it).
///
/// Inside a cgroup namespace, `path` is relative to the namespace's root
/// and so is the mount's root: a mount of an ancestor of that root (the
/// host's whole hierarchy seen from `unshare --cgroup`, or from a container
/// with its own cgroup namespace and the host's `/sys/fs/cgroup`) shows as
/// `/..` repeated once per level. The namespace's root is then that many
/// levels below the mount point: the directory there that lists this
/// process, else the mount point itself (as the judge before hybrid hosts
/// did). A root with `..` and then names is a subtree beside the
/// namespace's root, which does not show the judge's cgroup.
fn below(mount: &Mount, path: &str) -> Option<PathBuf> {
    let path = path.trim_end();
    let components: Vec<&str> = mount.root.split('/').filter(|c| !c.is_empty()).collect();
    if components.contains(&"..") {
        if !components.iter().all(|c| *c == "..") {
            return None;
        }
        let base = namespace_root(&mount.point, components.len(), path)
            .unwrap_or_else(|| mount.point.clone());
        return Some(join(&base, path));
    }
    let root = mount.root.trim_end_matches('/');
    let rest = path.strip_prefix(root)?;
    if !(rest.is_empty() || rest.starts_with('/')) {
        return None;
    }
    Some(join(&mount.point, rest))
}

/// `dir` and a cgroup path below it (`/` or empty: `dir` itself).
fn join(dir: &Path, path: &str) -> PathBuf {
    let rest = path.trim_start_matches('/');
    if rest.is_empty() {
        dir.to_path_buf()
    } else {
        dir.join(rest)
    }
}

/// How many directories the search for a namespace's root looks at, at
/// most (a host has far fewer cgroups near the top).
const SEARCH_LIMIT: usize = 10_000;

/// The one directory `depth` levels below `point` whose cgroup `path`
/// lists this process in `cgroup.procs`; `None` when there is no such
/// directory, or more than one.
fn namespace_root(point: &Path, depth: usize, path: &str) -> Option<PathBuf> {
    let me = std::process::id().to_string();
    let mut level = vec![point.to_path_buf()];
    let mut seen = 0;
    for _ in 0..depth {
        let mut next = Vec::new();
        for dir in &level {
            let Ok(entries) = fs_err::read_dir(dir) else {
                continue;
            };
            for entry in entries.filter_map(Result::ok) {
                seen += 1;
                if seen > SEARCH_LIMIT {
                    return None;
                }
                if entry.file_type().is_ok_and(|kind| kind.is_dir()) {
                    next.push(entry.path());
                }
            }
        }
        level = next;
    }
    let mut found = level.into_iter().filter(|dir| {
        fs_err::read_to_string(join(dir, path).join("cgroup.procs"))
            .is_ok_and(|procs| procs.lines().any(|pid| pid.trim() == me))
    });
    let first = found.next()?;
    found.next().is_none().then_some(first)
}

/// The judge's cgroup in the v1 hierarchy of `controller`: `Err(None)` when
/// no v1 hierarchy has it, `Err(Some(why))` when one does but does not show
/// the judge's cgroup.
fn v1_place(mounts: &[Mount], cgroup: &str, controller: &str) -> Result<PathBuf, Option<String>> {
    let hierarchies: Vec<&Mount> = mounts
        .iter()
        .filter(|mount| {
            mount.fstype == "cgroup" && mount.options.split(',').any(|o| o == controller)
        })
        .collect();
    let Some(first) = hierarchies.first() else {
        return Err(None);
    };
    let path = cgroup.lines().find_map(|line| {
        let mut parts = line.splitn(3, ':');
        let _id = parts.next()?;
        let controllers = parts.next()?;
        let path = parts.next()?;
        controllers
            .split(',')
            .any(|c| c == controller)
            .then_some(path)
    });
    let Some(path) = path else {
        return Err(Some(format!(
            "the cgroup v1 {controller} hierarchy at `{}` is mounted but /proc/self/cgroup \
             names no {controller} membership",
            first.point.display()
        )));
    };
    hierarchies
        .iter()
        .find_map(|mount| below(mount, path))
        .ok_or_else(|| {
            Some(format!(
                "the judge's cgroup `{}` is outside the cgroup v1 {controller} hierarchy \
                 mounted at `{}` (which shows `{}`)",
                path.trim(),
                first.point.display(),
                first.root
            ))
        })
}

/// The unified hierarchy's mount point and the judge's cgroup in it.
fn v2_place(mounts: &[Mount], cgroup: &str) -> Result<(PathBuf, PathBuf), V2Unusable> {
    let unified: Vec<&Mount> = mounts
        .iter()
        .filter(|mount| mount.fstype == "cgroup2")
        .collect();
    if unified.is_empty() {
        return Err(V2Unusable::NotMounted);
    }
    let Some(path) = cgroup.lines().find_map(|line| line.strip_prefix("0::")) else {
        return Err(V2Unusable::NoMembership);
    };
    unified
        .iter()
        .find_map(|mount| below(mount, path).map(|own| (mount.point.clone(), own)))
        .ok_or_else(|| V2Unusable::Outside(path.trim().to_owned()))
}

#[cfg(test)]
mod tests;
