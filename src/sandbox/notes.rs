//! The start-up notes: one line per layer this host does not give, with
//! the reason it is missing.

use super::{
    CgroupControllers, CgroupLayer, IpcLayer, Isolation, NamespaceMode, NetworkLayer, ProcLayer,
};

impl Isolation {
    /// One line per missing layer, for a one-time note.
    pub(crate) fn notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        let in_container = in_container();
        if self.cgroups == CgroupLayer::None {
            notes.push(no_cgroups_note(
                cgroup_reason().unwrap_or("none found"),
                in_container,
            ));
        }
        let partial = self.cgroup_controllers.is_some_and(|c| c.missing());
        if partial {
            notes.push(format!(
                "cgroups in part ({}): {}",
                cgroup_reason().unwrap_or("?"),
                self.cgroup_controllers
                    .map(CgroupControllers::what_is_lost)
                    .unwrap_or_default()
            ));
        } else if self.cgroups == CgroupLayer::CgroupHybrid {
            notes.push(format!(
                "cgroups from both the legacy (v1) and the unified (v2) hierarchy, each \
                 controller where this host has it: {}",
                cgroup_reason().unwrap_or("?")
            ));
        }
        if let Some(placement) = cgroup_placement_note() {
            notes.push(placement.to_owned());
        }
        if self.user.is_none() {
            notes.push(match root_refused() {
                // The user namespace it promises may be refused too: the
                // note on namespaces says why, and this one must not
                // contradict it (issue #30).
                Some(why) if self.namespaces == NamespaceMode::None => {
                    format!(
                        "{why}; that user namespace was refused too (see the note on namespaces)"
                    )
                }
                Some(why) => why,
                None => "not root: submissions and compilers run as the invoking user".to_owned(),
            });
        }
        if self.namespaces == NamespaceMode::None && self.user.is_none() && userns_restricted() {
            notes.push(
                "AppArmor restricts unprivileged user namespaces here \
                 (kernel.apparmor_restrict_unprivileged_userns = 1), so the namespaces below are \
                 missing; allow them for the judge with the profile in deploy/apparmor/ (sudo \
                 install -m 644 deploy/apparmor/judge /etc/apparmor.d/judge && sudo \
                 apparmor_parser -r /etc/apparmor.d/judge), or run as root"
                    .to_owned(),
            );
        }
        if self.namespaces == NamespaceMode::None {
            let why = if self.user.is_some() && !has_sys_admin() {
                NoNamespaces::RootWithoutSysAdmin
            } else {
                match namespaces_refused() {
                    Some(Refusal::UidMapNeedsSetfcap) => NoNamespaces::UidMapNeedsSetfcap,
                    _ => NoNamespaces::Unprivileged,
                }
            };
            notes.push(no_namespaces_note(why, self.ipc, in_container));
        }
        match self.network {
            NetworkLayer::Namespace => {}
            NetworkLayer::LandlockTcp => {
                notes.push("no network namespace: only TCP is blocked, by Landlock".to_owned())
            }
            NetworkLayer::None => {
                notes.push("no network isolation: no namespace and no Landlock 4+".to_owned())
            }
        }
        if let Some(note) = unix_sockets_note(self.network, self.namespaces) {
            notes.push(note.to_owned());
        }
        if self.proc == ProcLayer::Shared {
            notes.push(shared_proc_note(
                self.namespaces,
                self.proc_refused,
                in_container,
            ));
        }
        match self.landlock_abi {
            None => notes.push(
                "Landlock unavailable: submissions can read any file their user can read"
                    .to_owned(),
            ),
            Some(abi) if abi < 6 => {
                notes.push(format!("Landlock ABI {abi} cannot scope signals (needs 6)"))
            }
            Some(_) => {}
        }
        notes
    }
}

/// Why `/proc` is the host's. Without worker namespaces there is no PID
/// namespace to mount one for; with them, the mount itself was refused, and
/// EPERM there is the kernel's rule that a fresh `/proc` outside the host's
/// own user namespace needs the visible one uncovered (a mount over part of
/// it, as container runtimes put over `/proc/kcore` or `/proc/sys`).
fn shared_proc_note(namespaces: NamespaceMode, refused: Option<i32>, in_container: bool) -> String {
    let why = match (namespaces, refused) {
        (NamespaceMode::None, _) | (_, None) => {
            "a private one needs root or unprivileged user namespaces".to_owned()
        }
        (_, Some(libc::EPERM)) => "the namespaces work, but mounting a private one was \
             refused with EPERM: part of /proc is likely covered by another mount, and the \
             kernel then refuses a fresh /proc in a user namespace"
            .to_owned(),
        (_, Some(errno)) => format!(
            "the namespaces work, but mounting a private one failed: {}",
            std::io::Error::from_raw_os_error(errno)
        ),
    };
    format!(
        "/proc is the {}'s ({why}): programs can list other processes",
        place(in_container)
    )
}

/// Whose `/tmp` and `/proc` a run shares when it has none of its own: in a
/// container the container's, never the host's (issue #30).
fn place(in_container: bool) -> &'static str {
    if in_container {
        "container"
    } else {
        "host"
    }
}

/// The note of a judge without cgroups, `reason` being why. The advice
/// fits the place: `systemd-run` on a host, the container's memory in a
/// container, where no systemd of the judge's can delegate a cgroup.
fn no_cgroups_note(reason: &str, in_container: bool) -> String {
    let advice = if in_container {
        "in a container, give the container more memory than `--jobs` times the memory \
         limit (podman's or Docker's `--memory`), or the kernel's OOM killer, not the judge, \
         ends the runs when the container's memory is full (docs/container.md)"
    } else {
        "as an ordinary user on a cgroup v2 host, run the judge as \
         `systemd-run --user --scope -p Delegate=yes judge ...`"
    };
    format!(
        "no cgroups ({reason}): memory is limited on what the program and its children keep \
         resident, sampled every 20 ms, and measured as the largest resident size seen \
         (RLIMIT_AS is only a per-process backstop 4 GiB above the limit: runtimes such \
         as the JVM reserve far more address space than they use), CPU time counts the \
         program and the children it waited for, and processes that leave the process group \
         are found as orphans of the judge; {advice}"
    )
}

/// Why there are no worker namespaces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum NoNamespaces {
    /// Uid 0 with the root mode but without CAP_SYS_ADMIN.
    RootWithoutSysAdmin,
    /// Uid 0 sandboxing as an ordinary user, whose own user namespace's
    /// uid map was refused for want of CAP_SETFCAP.
    UidMapNeedsSetfcap,
    /// An ordinary user without unprivileged user namespaces.
    Unprivileged,
}

/// The note of a judge without worker namespaces.
fn no_namespaces_note(why: NoNamespaces, ipc: IpcLayer, in_container: bool) -> String {
    let place = place(in_container);
    // Where the filter refuses every IPC call, no run can make, open
    // or change an object even without a namespace; `/proc/sysvipc`
    // still lists the shared ones (keys, sizes, owners).
    let ipc = if ipc == IpcLayer::CallsRefused {
        format!(" the {place}'s SysV IPC objects are listed (every IPC call is refused),")
    } else {
        format!(" SysV IPC is shared with the {place},")
    };
    let why = match why {
        NoNamespaces::RootWithoutSysAdmin => "root without CAP_SYS_ADMIN, as in a container \
             that drops it (Docker's and podman's default): run the container with \
             `--cap-add SYS_ADMIN`, or rootless, where the judge makes a user namespace of its \
             own"
        .to_owned(),
        NoNamespaces::UidMapNeedsSetfcap => format!(
            "uid 0 made a user namespace of its own, and writing its uid map was refused: \
             mapping uid 0 needs CAP_SETFCAP, which the {} drops; {}",
            if in_container {
                "container"
            } else {
                "judge's process"
            },
            if in_container {
                "start the container with `--cap-add SETFCAP` (podman or Docker)"
            } else {
                "run the judge with CAP_SETFCAP, or as an ordinary user"
            }
        ),
        NoNamespaces::Unprivileged => "needs root or unprivileged user namespaces".to_owned(),
    };
    format!(
        "no namespaces ({why}): /tmp, /run and /dev/shm are the {place}'s,{ipc} and scratch \
         space is bounded only per file"
    )
}

/// Why the cgroup layer is missing (which hierarchy, controller or
/// permission), or on a hybrid host where each controller comes from, once
/// detection ran.
#[cfg(target_os = "linux")]
fn cgroup_reason() -> Option<&'static str> {
    super::unix::cgroup_reason()
}

#[cfg(not(target_os = "linux"))]
fn cgroup_reason() -> Option<&'static str> {
    None
}

#[cfg(target_os = "linux")]
fn cgroup_placement_note() -> Option<&'static str> {
    super::unix::cgroup_placement_note()
}

#[cfg(not(target_os = "linux"))]
fn cgroup_placement_note() -> Option<&'static str> {
    None
}

/// Whether the judge holds CAP_SYS_ADMIN, which the root mode's
/// namespaces need.
#[cfg(target_os = "linux")]
fn has_sys_admin() -> bool {
    rustix::thread::capabilities(None).is_ok_and(|sets| {
        sets.effective
            .contains(rustix::thread::CapabilitySet::SYS_ADMIN)
    })
}

#[cfg(not(target_os = "linux"))]
fn has_sys_admin() -> bool {
    false
}

/// Why uid 0 sandboxes as an ordinary user (a rootless container), if it
/// does.
#[cfg(target_os = "linux")]
fn root_refused() -> Option<String> {
    super::unix::root_refused()
}

#[cfg(not(target_os = "linux"))]
fn root_refused() -> Option<String> {
    None
}

#[cfg(target_os = "linux")]
use super::unix::NamespaceRefusal as Refusal;

/// Why the worker namespaces could not be made (`None` on other systems).
#[cfg(not(target_os = "linux"))]
#[derive(Clone, Debug, PartialEq, Eq)]
enum Refusal {
    UidMapNeedsSetfcap,
}

#[cfg(target_os = "linux")]
fn namespaces_refused() -> Option<Refusal> {
    super::unix::namespaces_refused()
}

#[cfg(not(target_os = "linux"))]
fn namespaces_refused() -> Option<Refusal> {
    None
}

#[cfg(target_os = "linux")]
fn in_container() -> bool {
    super::unix::in_container()
}

#[cfg(not(target_os = "linux"))]
fn in_container() -> bool {
    false
}

#[cfg(target_os = "linux")]
fn userns_restricted() -> bool {
    super::unix::userns_restricted()
}

#[cfg(not(target_os = "linux"))]
fn userns_restricted() -> bool {
    false
}

/// The note when runs may not make unix sockets (issue 32): they may only
/// in a network namespace and a mount namespace of their worker's own
/// (`unix::seccomp::UnixSockets`), where no other run reaches them.
fn unix_sockets_note(network: NetworkLayer, namespaces: NamespaceMode) -> Option<&'static str> {
    let isolated = network == NetworkLayer::Namespace && namespaces != NamespaceMode::None;
    (!isolated).then_some(
        "unix sockets refused: without a network and a mount namespace of the worker's own, \
         a socket's abstract name or file would reach other runs, so `socket(AF_UNIX)` fails \
         (EPERM): Python's multiprocessing.Manager and its forkserver start method end in RE \
         (a Pool, a Process, a Queue and socketpair work)",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reason names what failed: no namespaces, or the mount refused.
    #[test]
    fn the_shared_proc_note_names_the_real_reason() {
        let needs = "/proc is the host's (a private one needs root or unprivileged user \
                     namespaces): programs can list other processes";
        assert_eq!(shared_proc_note(NamespaceMode::None, None, false), needs);
        assert_eq!(
            shared_proc_note(NamespaceMode::None, Some(libc::EPERM), false),
            needs
        );
        let covered = shared_proc_note(NamespaceMode::UserNamespace, Some(libc::EPERM), false);
        assert!(
            covered.contains("refused with EPERM")
                && covered.contains("part of /proc is likely covered by another mount")
                && !covered.contains("needs root"),
            "{covered}"
        );
        assert_eq!(
            shared_proc_note(NamespaceMode::Root, Some(libc::EPERM), false),
            covered
        );
        let other = shared_proc_note(NamespaceMode::UserNamespace, Some(libc::EINVAL), false);
        assert!(
            other.contains("mounting a private one failed: Invalid argument (os error 22)")
                && !other.contains("needs root"),
            "{other}"
        );
    }

    /// Unix sockets are refused, and the note says so, unless the worker
    /// has both a network and a mount namespace. See: issue #32
    #[test]
    fn r32_the_note_says_when_unix_sockets_are_refused() {
        assert_eq!(
            unix_sockets_note(NetworkLayer::Namespace, NamespaceMode::Root),
            None
        );
        assert_eq!(
            unix_sockets_note(NetworkLayer::Namespace, NamespaceMode::UserNamespace),
            None
        );
        for (network, namespaces) in [
            (NetworkLayer::Namespace, NamespaceMode::None),
            (NetworkLayer::LandlockTcp, NamespaceMode::None),
            (NetworkLayer::None, NamespaceMode::None),
            (NetworkLayer::LandlockTcp, NamespaceMode::Root),
        ] {
            let note = unix_sockets_note(network, namespaces).unwrap_or_default();
            assert!(
                note.contains("unix sockets refused") && note.contains("multiprocessing.Manager"),
                "{network:?}, {namespaces:?}: {note}"
            );
        }
    }

    /// See: issue #30 (found by a review). In a container started with
    /// `--cap-drop ALL`, the notes said "the host's /tmp" of the
    /// container's, advised `systemd-run`, which has no place there, and
    /// did not say that the user namespace was lost to a refused uid map.
    #[test]
    fn r30_notes_in_a_container_name_the_container_and_its_flags() {
        let cgroups = no_cgroups_note("none found", true);
        assert!(!cgroups.contains("systemd-run"), "{cgroups}");
        assert!(cgroups.contains("`--memory`"), "{cgroups}");
        let host = no_cgroups_note("none found", false);
        assert!(host.contains("systemd-run --user --scope"), "{host}");

        let namespaces = no_namespaces_note(
            NoNamespaces::UidMapNeedsSetfcap,
            IpcLayer::CallsRefused,
            true,
        );
        assert!(
            namespaces.contains("/tmp, /run and /dev/shm are the container's")
                && namespaces.contains("the container's SysV IPC objects are listed")
                && namespaces.contains("writing its uid map was refused")
                && namespaces.contains("CAP_SETFCAP")
                && namespaces.contains("`--cap-add SETFCAP`")
                && !namespaces.contains("host")
                && !namespaces.contains("needs root or unprivileged user namespaces"),
            "{namespaces}"
        );
        let unprivileged = no_namespaces_note(NoNamespaces::Unprivileged, IpcLayer::None, false);
        assert!(
            unprivileged.contains("needs root or unprivileged user namespaces")
                && unprivileged.contains("are the host's")
                && unprivileged.contains("shared with the host"),
            "{unprivileged}"
        );

        let proc = shared_proc_note(NamespaceMode::None, None, true);
        assert!(proc.starts_with("/proc is the container's"), "{proc}");
    }
}
