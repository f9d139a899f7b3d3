//! [`V2Unusable`]: why the unified hierarchy cannot hold the judge's
//! cgroups, as [`super::v2::Base::locate`] and the plan find it.

use std::path::PathBuf;

/// Why the unified hierarchy cannot hold the judge's cgroups: one line,
/// said after "cgroup v2: " in the start-up note.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(super) enum V2Unusable {
    #[error("no cgroup2 file system is mounted")]
    NotMounted,
    #[error("/proc/self/cgroup names no cgroup v2 membership")]
    NoMembership,
    /// The judge's cgroup (as `/proc/self/cgroup` names it).
    #[error("the judge's cgroup `{0}` is outside the mounted cgroup2 file system")]
    Outside(String),
    /// `cgroup.controllers` of the judge's cgroup could not be read (the
    /// cause as text: the plan is cloned).
    #[error("cannot read the controllers of `{}`: {error}", own.display())]
    Controllers { own: PathBuf, error: String },
    #[error(
        "the cgroup2 file system at `{}` is mounted read-only (as a container runtime \
         mounts it without a cgroup namespace of the container's own): no cgroup can be \
         made",
        .0.display()
    )]
    ReadOnly(PathBuf),
    #[error("the root cgroup `{}` is not writable (needs root)", .0.display())]
    RootNotWritable(PathBuf),
    #[error(
        "the judge's cgroup `{}` also holds {others} other process(es) and its parent is not \
         writable: {}",
        own.display(),
        DELEGATE
    )]
    Crowded { own: PathBuf, others: usize },
    #[error(
        "the judge's cgroup `{}` (owner uid {owner}) is not delegated to this user: {}",
        own.display(),
        DELEGATE
    )]
    NotDelegated { own: PathBuf, owner: String },
}

/// What to do when the judge's cgroup is not its own to use.
const DELEGATE: &str =
    "start the judge in a cgroup of its own with `systemd-run --user --scope -p \
                        Delegate=yes judge ...`";
