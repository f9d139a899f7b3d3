//! Whether uid 0 may sandbox as root here: the capabilities the root mode
//! uses, and the run uids mapped in the judge's user namespace (a rootless
//! container maps a few thousand, not the run uids).

use super::{NOBODY, RUN_UIDS};

/// Why uid 0 is not enough for the root mode, when it is not: in a
/// rootless container (podman, a Kubernetes pod with user namespaces) the
/// judge is uid 0 of a user namespace that maps only a few thousand uids
/// and may lack capabilities, so switching a run to one of [`RUN_UIDS`](super::RUN_UIDS)
/// fails (EINVAL) and every compile would be JE. There the judge sandboxes
/// as an ordinary user does (a user namespace of its own, nested in the
/// container's), and [`root_refused`] says why once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RootRefused {
    /// Not uid 0 at all.
    NotRoot,
    /// Uid 0 without a capability the root mode uses (named).
    Capability(&'static str),
    /// Uid 0 in a user namespace whose uid or gid map leaves out the run
    /// uids or `nobody`'s group.
    UnmappedIds,
}

/// Whether the judge can sandbox as root: uid 0 with the capabilities the
/// root mode uses (switching a run's uid and group, handing it folders,
/// reading what it left), in a user namespace that maps the run uids
/// ([`RUN_UIDS`](super::RUN_UIDS)) and `nobody`'s group.
pub(crate) fn root_powers() -> Result<(), RootRefused> {
    use rustix::thread::CapabilitySet;
    if !rustix::process::geteuid().is_root() {
        return Err(RootRefused::NotRoot);
    }
    let effective = rustix::thread::capabilities(None)
        .map(|sets| sets.effective)
        .unwrap_or(CapabilitySet::empty());
    for (capability, name) in [
        (CapabilitySet::SETUID, "CAP_SETUID"),
        (CapabilitySet::SETGID, "CAP_SETGID"),
        (CapabilitySet::CHOWN, "CAP_CHOWN"),
        (CapabilitySet::DAC_OVERRIDE, "CAP_DAC_OVERRIDE"),
        (CapabilitySet::FOWNER, "CAP_FOWNER"),
        (CapabilitySet::KILL, "CAP_KILL"),
    ] {
        if !effective.contains(capability) {
            return Err(RootRefused::Capability(name));
        }
    }
    let maps = |file: &str, ids: std::ops::Range<u32>| {
        fs_err::read_to_string(file).is_ok_and(|map| id_map_covers(&map, ids))
    };
    if !maps("/proc/self/uid_map", RUN_UIDS) || !maps("/proc/self/gid_map", NOBODY..NOBODY + 1) {
        return Err(RootRefused::UnmappedIds);
    }
    Ok(())
}

/// Whether a `/proc/PID/uid_map` (lines of `inside outside count`) maps
/// every id of `ids` inside the namespace.
fn id_map_covers(map: &str, ids: std::ops::Range<u32>) -> bool {
    let mut extents: Vec<(u64, u64)> = map
        .lines()
        .filter_map(|line| {
            let mut fields = line.split_whitespace().map(str::parse::<u64>);
            let inside = fields.next()?.ok()?;
            let _outside = fields.next()?.ok()?;
            let count = fields.next()?.ok()?;
            Some((inside, inside + count))
        })
        .collect();
    extents.sort_unstable();
    let mut next = u64::from(ids.start);
    for (start, end) in extents {
        if start <= next && next < end {
            next = end;
        }
    }
    next >= u64::from(ids.end)
}

/// Why uid 0 sandboxes as an ordinary user here, for a start-up note:
/// `None` when the judge is not uid 0 or has the root mode.
pub(crate) fn root_refused() -> Option<String> {
    match root_powers() {
        Ok(()) | Err(RootRefused::NotRoot) => None,
        Err(RootRefused::Capability(name)) => Some(format!(
            "uid 0 without {name} (a container that drops it): the judge sandboxes as an \
             ordinary user would, in a user namespace of its own"
        )),
        Err(RootRefused::UnmappedIds) => Some(format!(
            "uid 0 of a user namespace that does not map the run uids ({:#x}-{:#x}) and \
             `nobody`'s group (a rootless container): the judge sandboxes as an ordinary user \
             would, in a user namespace of its own",
            RUN_UIDS.start,
            RUN_UIDS.end - 1
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_initial_namespace_maps_every_run_uid() {
        assert!(id_map_covers(
            "         0          0 4294967295\n",
            RUN_UIDS
        ));
    }

    #[test]
    fn a_rootless_containers_map_leaves_the_run_uids_out() {
        // podman's rootless default: root is the user, 1-65536 their subuids.
        let map = "         0       1002          1\n         1     165536      65536\n";
        assert!(!id_map_covers(map, RUN_UIDS));
        assert!(id_map_covers(map, NOBODY..NOBODY + 1));
    }

    #[test]
    fn extents_in_any_order_that_meet_cover_the_range() {
        let map = "2000 9000 1000\n0 5000 1000\n1000 7000 1000\n";
        assert!(id_map_covers(map, 0..3000));
        assert!(!id_map_covers(map, 0..3001));
        assert!(!id_map_covers("0 0 10\n20 20 10\n", 5..25));
    }
}
