//! What isolation this host gives: each layer probed once, for real.

use super::namespaces::{Plan, Privilege, WorkerNamespace};
use super::{apparmor, cgroups, landlock, NOBODY};
use crate::sandbox::error::SandboxError;
use crate::sandbox::{
    CgroupLayer, CompileLayer, DescriptorLayer, IpcLayer, Isolation, IsolationLevel, LockLayer,
    MemoryLayer, MountLayer, NamespaceMode, NetworkLayer, PidLayer, ProcLayer, ScratchLayer,
    ScratchPerRun, SignalLayer, SyscallLayer, WorkspaceLayer,
};

pub(crate) fn detect_isolation() -> Isolation {
    let root = super::root_powers().is_ok();
    let cgroup_layer = cgroups::detect(root);
    let cgroups = cgroup_layer != CgroupLayer::None;
    let cgroup_controllers = cgroups::hybrid_controllers(root);
    // Every controller in a cgroup (a subtree delegated in part lacks one).
    let cgroups_complete = cgroups && !cgroup_controllers.is_some_and(|c| c.missing());
    let cgroup_memory = cgroups
        && cgroup_controllers.is_none_or(|c| c.memory != crate::sandbox::CgroupVersion::None);
    let landlock_abi = landlock::abi();
    let (namespaces, private_proc, proc_refused) = probe_namespaces(root);
    let network_namespace = match namespaces {
        NamespaceMode::UserNamespace => true,
        NamespaceMode::Root | NamespaceMode::None => root && probe_network_namespace(),
    };
    let network = if network_namespace {
        NetworkLayer::Namespace
    } else if landlock_abi.is_some_and(|abi| abi >= 4) {
        NetworkLayer::LandlockTcp
    } else {
        NetworkLayer::None
    };
    let signals = if landlock_abi.is_some_and(|abi| abi >= 6) {
        SignalLayer::Landlock
    } else if root {
        SignalLayer::User
    } else {
        SignalLayer::ProcessGroup
    };
    let with_namespaces = namespaces != NamespaceMode::None;
    let full = cgroups_complete
        && root
        && network_namespace
        && namespaces == NamespaceMode::Root
        && private_proc
        && landlock_abi.is_some_and(|abi| abi >= 6);
    Isolation {
        level: if full {
            IsolationLevel::Full
        } else {
            IsolationLevel::Partial
        },
        user: root.then_some(NOBODY),
        namespaces,
        cgroups: cgroup_layer,
        cgroup_controllers,
        memory: if cgroup_memory {
            MemoryLayer::Cgroup
        } else {
            MemoryLayer::Rlimit
        },
        network,
        // The filter refuses the IPC calls (x86_64, as `syscalls` below):
        // nothing to make per run. Elsewhere a namespace per run.
        ipc: if cfg!(target_arch = "x86_64") {
            IpcLayer::CallsRefused
        } else if with_namespaces {
            IpcLayer::NamespacePerRun
        } else {
            IpcLayer::None
        },
        mount: if with_namespaces {
            MountLayer::Namespace
        } else {
            MountLayer::None
        },
        proc: if private_proc {
            ProcLayer::Hidepid
        } else {
            ProcLayer::Shared
        },
        proc_refused: if private_proc { None } else { proc_refused },
        scratch: if with_namespaces {
            ScratchLayer::Quota
        } else {
            ScratchLayer::FileSizeOnly
        },
        scratch_per_run: if with_namespaces {
            ScratchPerRun::FreshTmpfs
        } else {
            ScratchPerRun::FreshDirectory
        },
        pid_namespace: if with_namespaces {
            PidLayer::NamespacePerWorker
        } else {
            PidLayer::None
        },
        descriptors: DescriptorLayer::Closed,
        workspace: WorkspaceLayer::Private,
        locks: if cfg!(target_arch = "x86_64") {
            LockLayer::Refused
        } else {
            LockLayer::None
        },
        landlock_abi,
        signals,
        syscalls: if cfg!(target_arch = "x86_64") {
            SyscallLayer::Seccomp
        } else {
            SyscallLayer::None
        },
        compile: if root {
            CompileLayer::Confined
        } else {
            CompileLayer::InvokingUser
        },
    }
}

/// Why there are no cgroups, or where each controller comes from on a
/// hybrid host: the start-up note.
pub(crate) fn cgroup_reason() -> Option<&'static str> {
    cgroups::note()
}

/// What the judge changed to get its cgroups, if anything.
pub(crate) fn cgroup_placement_note() -> Option<&'static str> {
    cgroups::placement_note()
}

/// Whether AppArmor restricts unprivileged user namespaces on this host.
pub(crate) fn userns_restricted() -> bool {
    apparmor::restricts_unprivileged_userns()
}

/// Why the worker namespaces could not be made here, once the probe ran:
/// the start-up note names it (issue #30: in a container that drops every
/// capability, the probe's failure was silent and the note guessed).
static NAMESPACES_REFUSED: std::sync::OnceLock<NamespaceRefusal> = std::sync::OnceLock::new();

/// Why the probe could not make a worker namespace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum NamespaceRefusal {
    /// Uid 0 of its user namespace made a user namespace of its own, and
    /// writing its uid map (`0 0 1`) was refused: since Linux 5.12 a map
    /// of uid 0 needs CAP_SETFCAP, which `--cap-drop ALL` drops.
    UidMapNeedsSetfcap,
    /// Anything else, as the error says it.
    Other(String),
}

/// Why the worker namespaces could not be made, once detection ran.
pub(crate) fn namespaces_refused() -> Option<NamespaceRefusal> {
    NAMESPACES_REFUSED.get().cloned()
}

/// What a probe's error says: the refused uid map by its cause.
fn refusal(error: &SandboxError, root: bool) -> NamespaceRefusal {
    use rustix::thread::CapabilitySet;
    let uid_map_refused = matches!(
        error,
        SandboxError::Path { action: "write", path, source }
            if path.ends_with("uid_map")
                && source.kind() == std::io::ErrorKind::PermissionDenied
    );
    let uid_0 = rustix::process::geteuid().is_root();
    let setfcap = rustix::thread::capabilities(None)
        .is_ok_and(|sets| sets.effective.contains(CapabilitySet::SETFCAP));
    if uid_map_refused && uid_0 && !root && !setfcap {
        NamespaceRefusal::UidMapNeedsSetfcap
    } else {
        NamespaceRefusal::Other(crate::causes::chain(error))
    }
}

/// Whether the judge runs in a container, by the marks container engines
/// leave: podman's `/run/.containerenv`, Docker's `/.dockerenv`,
/// systemd's `/run/systemd/container` (systemd-nspawn, and systemd inside
/// any container), the `container` variable (podman and LXC set it for
/// the container's command) and `KUBERNETES_SERVICE_HOST`, which
/// Kubernetes gives every container of a pod. The cgroup path of
/// `/proc/self/cgroup` is no sign: in a cgroup namespace it reads `0::/`
/// in a container and on a host alike. A container that leaves none of
/// these marks reads as a host, which changes only the words of the
/// start-up notes.
pub(crate) fn in_container() -> bool {
    container_marked(&|path| std::path::Path::new(path).exists(), &|name| {
        std::env::var_os(name).is_some_and(|value| !value.is_empty())
    })
}

/// [`in_container`] on the files and variables `exists` and `set` see.
fn container_marked(exists: &dyn Fn(&str) -> bool, set: &dyn Fn(&str) -> bool) -> bool {
    [
        "/run/.containerenv",
        "/.dockerenv",
        "/run/systemd/container",
    ]
    .into_iter()
    .any(exists)
        || ["container", "KUBERNETES_SERVICE_HOST"]
            .into_iter()
            .any(set)
}

/// The privilege namespaces are made with here.
pub(super) fn privilege(root: bool) -> Privilege {
    if root {
        Privilege::Root
    } else {
        let uid = rustix::process::getuid().as_raw();
        let gid = rustix::process::getgid().as_raw();
        Privilege::User { uid, gid }
    }
}

/// Whether a worker namespace can be made (as root, or in an unprivileged
/// user namespace), whether its `/proc` is private and if not the errno its
/// mount was refused with: tried once, for real, in a throwaway directory.
fn probe_namespaces(root: bool) -> (NamespaceMode, bool, Option<i32>) {
    let Ok(dir) = tempfile::Builder::new().prefix("judge-probe-").tempdir() else {
        return (NamespaceMode::None, false, None);
    };
    let boxdir = dir.path().join("box");
    if fs_err::create_dir(&boxdir).is_err() {
        return (NamespaceMode::None, false, None);
    }
    let plan = Plan {
        privilege: privilege(root),
        boxdir: &boxdir,
        scratch_kib: 64,
        scratch_owner: None,
        keep: &[dir.path().to_path_buf()],
        hidden: &[],
        extra_masks: &[],
        writable: &[],
    };
    match WorkerNamespace::create(&plan) {
        Ok(namespace) => (
            if root {
                NamespaceMode::Root
            } else {
                NamespaceMode::UserNamespace
            },
            namespace.private_proc,
            namespace.proc_refused,
        ),
        Err(error) => {
            let _ = NAMESPACES_REFUSED.set(refusal(&error, root));
            (NamespaceMode::None, false, None)
        }
    }
}

/// Whether a thread may enter a network namespace of its own. Tried on a
/// throwaway thread, whose namespace dies with it.
fn probe_network_namespace() -> bool {
    std::thread::spawn(|| {
        // SAFETY: unshare only changes the calling thread's namespaces; this
        // thread ends right after.
        unsafe { libc::unshare(libc::CLONE_NEWNET) == 0 }
    })
    .join()
    .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each engine's own mark says "container"; a host has none.
    #[test]
    fn a_container_is_known_by_its_engines_mark() {
        let none = |_: &str| false;
        assert!(!container_marked(&none, &none));
        for file in [
            "/run/.containerenv",
            "/.dockerenv",
            "/run/systemd/container",
        ] {
            assert!(container_marked(&|path| path == file, &none), "{file}");
        }
        for variable in ["container", "KUBERNETES_SERVICE_HOST"] {
            assert!(
                container_marked(&none, &|name| name == variable),
                "{variable}"
            );
        }
        assert!(!container_marked(
            &|path| path == "/etc/hostname",
            &|name| name == "HOME"
        ));
    }
}
