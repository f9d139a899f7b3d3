//! The start-up notes: one line per layer this host does not give, with
//! the reason it is missing.

use super::{
    CgroupControllers, CgroupLayer, IpcLayer, Isolation, NamespaceMode, NetworkLayer, ProcLayer,
};

impl Isolation {
    /// One line per missing layer, for a one-time note.
    pub(crate) fn notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        if self.cgroups == CgroupLayer::None {
            notes.push(format!(
                "no cgroups ({}): memory is limited on what the program and its children keep \
                 resident, sampled every 20 ms, and measured as the largest resident size seen \
                 (RLIMIT_AS is only a per-process backstop 4 GiB above the limit: runtimes such \
                 as the JVM reserve far more address space than they use), CPU time counts the program and the children it \
                 waited for, and processes that leave the process group are found as orphans \
                 of the judge; as an ordinary user on a cgroup v2 host, run the judge as \
                 `systemd-run --user --scope -p Delegate=yes judge ...`",
                cgroup_reason().unwrap_or("none found")
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
            notes.push(root_refused().unwrap_or_else(|| {
                "not root: submissions and compilers run as the invoking user".to_owned()
            }));
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
            // Where the filter refuses every IPC call, no run can make, open
            // or change an object even without a namespace; the host's
            // `/proc/sysvipc` still lists the host's (keys, sizes, owners).
            let ipc = if self.ipc == IpcLayer::CallsRefused {
                " the host's SysV IPC objects are listed (every IPC call is refused),"
            } else {
                " SysV IPC is shared with the host,"
            };
            let why = if self.user.is_some() && !has_sys_admin() {
                "root without CAP_SYS_ADMIN, as in a container that drops it (Docker's and \
                 podman's default): run the container with `--cap-add SYS_ADMIN`, or rootless, \
                 where the judge makes a user namespace of its own"
            } else {
                "needs root or unprivileged user namespaces"
            };
            notes.push(format!(
                "no namespaces ({why}): /tmp, /run and /dev/shm are the host's,{ipc} and scratch \
                 space is bounded only per file"
            ));
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
        if self.proc == ProcLayer::Shared {
            notes.push(shared_proc_note(self.namespaces, self.proc_refused));
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
fn shared_proc_note(namespaces: NamespaceMode, refused: Option<i32>) -> String {
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
    format!("/proc is the host's ({why}): programs can list other processes")
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
fn userns_restricted() -> bool {
    super::unix::userns_restricted()
}

#[cfg(not(target_os = "linux"))]
fn userns_restricted() -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reason names what failed: no namespaces, or the mount refused.
    #[test]
    fn the_shared_proc_note_names_the_real_reason() {
        let needs = "/proc is the host's (a private one needs root or unprivileged user \
                     namespaces): programs can list other processes";
        assert_eq!(shared_proc_note(NamespaceMode::None, None), needs);
        assert_eq!(
            shared_proc_note(NamespaceMode::None, Some(libc::EPERM)),
            needs
        );
        let covered = shared_proc_note(NamespaceMode::UserNamespace, Some(libc::EPERM));
        assert!(
            covered.contains("refused with EPERM")
                && covered.contains("part of /proc is likely covered by another mount")
                && !covered.contains("needs root"),
            "{covered}"
        );
        assert_eq!(
            shared_proc_note(NamespaceMode::Root, Some(libc::EPERM)),
            covered
        );
        let other = shared_proc_note(NamespaceMode::UserNamespace, Some(libc::EINVAL));
        assert!(
            other.contains("mounting a private one failed: Invalid argument (os error 22)")
                && !other.contains("needs root"),
            "{other}"
        );
    }
}
