//! A worker's mount namespace (and, without root, the user and network
//! namespaces around it), made once per worker and entered by every run
//! with `setns`, which costs a few microseconds where making one costs a
//! millisecond.
//!
//! Inside it (issue #7): `/tmp`, `/var/tmp`, `/run` and `/dev/shm` are
//! empty private tmpfs mounts, so the host's socket files and shared
//! memory are out of reach; the paths the judge needs there (its workspace,
//! a toolchain) are bound back at their own names; as root, a directory the
//! sandbox user cannot pass through (`/root` holding a rustup toolchain) is
//! replaced the same way by one holding only the toolchain; the scratch
//! directory is a tmpfs of the scratch quota; and, as root, `/proc` is a
//! procfs of its own with `hidepid=invisible`.
//!
//! The namespace is made by a holder process cloned into new mount and PID
//! namespaces (and, without root, user and network ones): it mounts, reports,
//! and then stays as the PID namespace's init for the worker's life. Every
//! run is started inside that PID namespace, so:
//!
//! - after each run the holder kills every process of its namespace
//!   (`kill(-1, SIGKILL)` from its init) and reaps them, in both modes, with
//!   no sweep of the host's processes: a `setsid` chain cannot outlive its
//!   test, and killing the holder (the judge ending) ends them all;
//! - `/proc` is a procfs of that PID namespace (with `hidepid`), so the judge,
//!   other workers and other users are not even listed, with or without root;
//! - the scratch directory is a tmpfs that the holder unmounts and mounts
//!   anew after each run: the next run starts on a file system no earlier
//!   run touched (no entries, extended attributes, times, or kernel memory
//!   charged to the worker's cgroup).
//!
//! The scratch tmpfs sits in a small read-only tmpfs, the *box*, whose root
//! is stable for the worker's life, so a Landlock rule on the box covers
//! every fresh scratch without a new ruleset per run. The box also holds the
//! empty file and folder bound over the paths a run must never see (the
//! judge's own binary, its data).
//!
//! The judge's own threads stay in the host's view and reach the
//! namespace's files through `/proc/self/fd/N/...`.

use super::reap::{kill, reap_within, ProcessTarget};
use super::spawn::{c_string, clone_blocking_signals, pipe};
use crate::sandbox::SandboxError;
use std::ffi::CString;
use std::io::{self, Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How long the holder may take to make the namespace.
const HOLDER_GRACE_MS: libc::c_int = 10_000;

/// Shared places of the host that a program must not reach.
const MASKED: &[&str] = &["/tmp", "/var/tmp", "/run", "/dev/shm"];

/// Without root, runs are the teacher's own user: the places where people
/// keep their files are masked too (and everything else of the host is
/// read-only), so a run cannot see, `chmod`, touch or set attributes on a
/// teacher's tests, answers or other files (issue 18).
const USER_MASKED: &[&str] = &["/home", "/root", "/srv", "/mnt", "/media", "/opt"];

/// Mount options of an empty mask: root's, read-only to everyone else, and
/// tiny (only the judge's own mount points are ever created in it).
const MASK_OPTIONS: &str = "mode=755,size=64k,nr_inodes=256";

/// How the namespace is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Privilege {
    /// As root: mount namespace only (the worker thread has the network
    /// namespace; runs switch to the sandbox user themselves).
    Root,
    /// Unprivileged: a user namespace mapping only the invoking user, with
    /// mount and network namespaces owned by it.
    User { uid: u32, gid: u32 },
}

/// What the namespace must hold.
pub(super) struct Plan<'a> {
    pub(super) privilege: Privilege,
    /// Host directory (existing, empty) that becomes the box: a read-only
    /// tmpfs holding the scratch mount point ([`scratch_in`]).
    pub(super) boxdir: &'a Path,
    pub(super) scratch_kib: u64,
    /// Owner of the scratch tmpfs' root (the sandbox user), as root.
    pub(super) scratch_owner: Option<u32>,
    /// Host paths the runs need, kept visible at their own names.
    pub(super) keep: &'a [PathBuf],
    /// Host paths no run may see (the judge's binary, its data): an empty
    /// file or folder is bound over each.
    pub(super) hidden: &'a [PathBuf],
    /// More places to mask (without root: the judge's workspace, of which
    /// only the kept paths are bound back).
    pub(super) extra_masks: &'a [PathBuf],
    /// Without root, where the host is read-only: kept paths bound writable
    /// (a compiler's working directory).
    pub(super) writable: &'a [PathBuf],
}

/// The scratch directory inside a box.
pub(super) fn scratch_in(boxdir: &Path) -> PathBuf {
    boxdir.join("scratch")
}

/// Names inside the box of what is bound over hidden paths.
const EMPTY_FILE: &str = ".empty-file";
const EMPTY_DIR: &str = ".empty-dir";

/// A made namespace: its holder (the PID namespace's init) and descriptors
/// of what it made.
pub(super) struct WorkerNamespace {
    /// `setns` targets, in the order a child enters them.
    user: Option<OwnedFd>,
    network: Option<OwnedFd>,
    mount: OwnedFd,
    pid: OwnedFd,
    root: OwnedFd,
    holder: Holder,
    /// Whether `/proc` is private (the PID namespace's own, with `hidepid`).
    pub(super) private_proc: bool,
    pub(super) scratch_kib: u64,
    pub(super) kept: Vec<PathBuf>,
    /// Kept paths bound writable (without root).
    pub(super) writable: Vec<PathBuf>,
    extra_masks: Vec<PathBuf>,
}

impl WorkerNamespace {
    /// The descriptors and kinds a child passes to `setns`, in order; the
    /// PID namespace comes last (it applies to the child's own children).
    pub(super) fn setns_targets(&self) -> [(RawFd, libc::c_int); 4] {
        let raw = |fd: &Option<OwnedFd>| fd.as_ref().map_or(-1, AsRawFd::as_raw_fd);
        [
            (raw(&self.user), libc::CLONE_NEWUSER),
            (raw(&self.network), libc::CLONE_NEWNET),
            (self.mount.as_raw_fd(), libc::CLONE_NEWNS),
            (self.pid.as_raw_fd(), libc::CLONE_NEWPID),
        ]
    }

    /// After a run: the holder kills and reaps every process left in the
    /// PID namespace, then replaces the scratch tmpfs by a fresh one.
    /// Returns whether the old scratch was full (no byte or inode left).
    pub(super) fn reset(&self) -> Result<bool, SandboxError> {
        let failed = |source| SandboxError::Syscall {
            syscall: "write",
            purpose: "asking the namespace's init to clean up after a run",
            source,
        };
        let fd = self.holder.commands.as_ref().map_or(-1, AsRawFd::as_raw_fd);
        // SAFETY: writes one byte from a valid buffer to our pipe's end.
        if unsafe { libc::write(fd, b"r".as_ptr().cast(), 1) } != 1 {
            return Err(failed(io::Error::last_os_error()));
        }
        let [status, value] = self.holder.read_report(KILL_GRACE_MS)?;
        match status {
            0 => Ok(value == 1),
            1 => Err(SandboxError::Survivors {
                count: usize::try_from(value).unwrap_or(0),
                cgroup: PathBuf::from(format!("the PID namespace of {}", self.holder.pid)),
            }),
            _ => Err(SandboxError::Namespace {
                step: "mount a fresh scratch tmpfs".to_owned(),
                source: io::Error::from_raw_os_error(value),
            }),
        }
    }

    /// `path` (absolute) as a program in the namespace sees it, reachable
    /// from the judge's threads.
    pub(super) fn view(&self, path: &Path) -> PathBuf {
        let relative = path.strip_prefix("/").unwrap_or(path);
        PathBuf::from(format!("/proc/self/fd/{}", self.root.as_raw_fd())).join(relative)
    }

    /// Whether every path in `paths` is visible inside as on the host.
    pub(super) fn shows(&self, paths: &[PathBuf], privilege: Privilege) -> bool {
        paths.iter().all(|path| {
            !needs_binding(path, privilege, &self.extra_masks)
                || self.kept.iter().any(|kept| path.starts_with(kept))
        })
    }

    /// Makes the namespace described by `plan`.
    pub(super) fn create(plan: &Plan<'_>) -> Result<WorkerNamespace, SandboxError> {
        let setup = Setup::new(plan)?;
        let holder = setup.clone_holder(plan.privilege)?;
        // On an error the holder is dropped, which ends it.
        let (mut namespace, private_proc) = holder.finish(plan, &setup.names)?;
        namespace.private_proc = private_proc;
        namespace.kept = setup.kept;
        namespace.writable = plan.writable.to_vec();
        namespace.extra_masks = plan.extra_masks.to_vec();
        Ok(namespace)
    }
}

impl Drop for Holder {
    /// Closing the command pipe ends the holder; its PID namespace dies with
    /// it (the kernel kills every process left in it).
    fn drop(&mut self) {
        self.commands.take();
        if reap_within(self.pid, None, Duration::from_secs(5)).is_err() {
            kill(ProcessTarget::Process(self.pid));
            let _ = reap_within(self.pid, None, Duration::from_secs(5));
        }
    }
}

/// Whether `path` is hidden inside unless bound back: under a masked
/// place, or (as root, where runs are another user) under a directory that
/// others cannot pass through.
fn needs_binding(path: &Path, privilege: Privilege, extra_masks: &[PathBuf]) -> bool {
    masked_places(privilege, extra_masks)
        .iter()
        .any(|mask| path.starts_with(mask))
        || (privilege == Privilege::Root && untraversable_ancestor(path).is_some())
}

/// The places masked by an empty tmpfs (where they exist).
fn masked_places(privilege: Privilege, extra_masks: &[PathBuf]) -> Vec<PathBuf> {
    let mut places: Vec<PathBuf> = MASKED.iter().map(PathBuf::from).collect();
    if let Privilege::User { .. } = privilege {
        places.extend(USER_MASKED.iter().map(PathBuf::from));
    }
    places.extend(extra_masks.iter().cloned());
    places
}

/// The outermost ancestor of `path` (not `/`) that the sandbox user cannot
/// pass through.
fn untraversable_ancestor(path: &Path) -> Option<PathBuf> {
    let mut ancestors: Vec<&Path> = path.ancestors().skip(1).collect();
    ancestors.reverse();
    ancestors
        .into_iter()
        .filter(|ancestor| *ancestor != Path::new("/") && !ancestor.as_os_str().is_empty())
        .find(|ancestor| {
            fs_err::metadata(ancestor).is_ok_and(|metadata| {
                use std::os::unix::fs::MetadataExt;
                let mode = metadata.permissions().mode();
                // The sandbox user passes through others' x, or through the
                // group's x of a folder of its group (the workspace).
                let by_group = metadata.gid() == super::NOBODY && mode & 0o010 != 0;
                metadata.is_dir() && mode & 0o001 == 0 && !by_group
            })
        })
        .map(Path::to_path_buf)
}

/// One step of the holder, prepared as C values before the clone.
enum Step {
    /// Makes every mount private, so nothing propagates to the host.
    Private,
    /// Opens a kept path (before it is masked) into `slot`.
    Open {
        path: CString,
        slot: usize,
    },
    Tmpfs {
        target: CString,
        options: CString,
        flags: libc::c_ulong,
    },
    Mkdir {
        path: CString,
        mode: libc::mode_t,
    },
    Touch {
        path: CString,
        mode: libc::mode_t,
    },
    /// Binds what `slot` holds back at `target`.
    Bind {
        slot: usize,
        target: CString,
    },
    /// Binds `source` (a path in the namespace) over `target`.
    BindPath {
        source: CString,
        target: CString,
    },
    /// Makes the file system mounted at `target` read-only.
    ReadOnly {
        target: CString,
    },
    /// Makes every mount read-only (`mount_setattr`, recursive on `/`).
    ReadOnlyTree,
    /// Makes the mount at `target` writable again (not recursive).
    Writable {
        target: CString,
    },
    /// A private `/proc` with `hidepid`; optional (reported, not fatal).
    Proc {
        options: [CString; 2],
    },
}

struct Setup {
    steps: Vec<Step>,
    /// Descriptions of the steps, for errors.
    names: Vec<String>,
    kept: Vec<PathBuf>,
}

impl Setup {
    fn new(plan: &Plan<'_>) -> Result<Setup, SandboxError> {
        let invalid = |source| SandboxError::path("prepare the namespace for", plan.boxdir, source);
        let c = |path: &Path| c_string(path.as_os_str().as_bytes()).map_err(invalid);
        let mut steps = vec![Step::Private];
        let mut names = vec!["make mounts private".to_owned()];

        // Kept paths that need binding, outermost first; one inside another
        // comes along with it.
        let mut keep: Vec<PathBuf> = plan
            .keep
            .iter()
            .filter(|path| path.is_absolute() && fs_err::symlink_metadata(path).is_ok())
            .filter(|path| needs_binding(path, plan.privilege, plan.extra_masks))
            .cloned()
            .collect();
        keep.sort();
        keep.dedup();
        let mut kept: Vec<PathBuf> = Vec::new();
        for path in keep {
            if !kept.iter().any(|outer| path.starts_with(outer)) {
                kept.push(path);
            }
        }

        let mut masks: Vec<PathBuf> = masked_places(plan.privilege, plan.extra_masks)
            .into_iter()
            .filter(|path| fs_err::symlink_metadata(path).is_ok_and(|metadata| metadata.is_dir()))
            .collect();
        if plan.privilege == Privilege::Root {
            masks.extend(kept.iter().filter_map(|path| untraversable_ancestor(path)));
        }
        masks.sort();
        masks.dedup();
        // A kept path that is itself a mask is not masked; a mask inside
        // another is covered by it.
        masks.retain(|mask| !kept.contains(mask));
        let outer: Vec<PathBuf> = masks.clone();
        masks.retain(|mask| {
            !outer
                .iter()
                .any(|other| other != mask && mask.starts_with(other))
        });

        for (slot, path) in kept.iter().enumerate() {
            steps.push(Step::Open {
                path: c(path)?,
                slot,
            });
            names.push(format!("open `{}`", path.display()));
        }
        for mask in &masks {
            steps.push(Step::Tmpfs {
                target: c(mask)?,
                options: CString::new(MASK_OPTIONS)
                    .map_err(|_| invalid(io::ErrorKind::InvalidInput.into()))?,
                flags: libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
            });
            names.push(format!("mount an empty tmpfs on `{}`", mask.display()));
        }
        for (slot, path) in kept.iter().enumerate() {
            let Some(mask) = masks.iter().find(|mask| path.starts_with(mask)) else {
                continue;
            };
            // Mount points inside the mask: every directory down to the
            // kept path, which is a directory or an empty file.
            let mut partial = mask.clone();
            let components: Vec<_> = path
                .strip_prefix(mask)
                .unwrap_or(path)
                .components()
                .collect();
            for (index, component) in components.iter().enumerate() {
                partial.push(component);
                let last = index + 1 == components.len();
                if last && !fs_err::metadata(path).is_ok_and(|metadata| metadata.is_dir()) {
                    steps.push(Step::Touch {
                        path: c(&partial)?,
                        mode: 0o644,
                    });
                } else {
                    steps.push(Step::Mkdir {
                        path: c(&partial)?,
                        mode: 0o755,
                    });
                }
                names.push(format!("create the mount point `{}`", partial.display()));
            }
            steps.push(Step::Bind {
                slot,
                target: c(path)?,
            });
            names.push(format!("bind `{}` back", path.display()));
        }
        if let Privilege::User { .. } = plan.privilege {
            // Everything mounted so far becomes read-only (the host's files
            // are the teacher's own), but for a compiler's directory.
            steps.push(Step::ReadOnlyTree);
            names.push("make the host's mounts read-only".to_owned());
            for path in plan.writable {
                if kept.contains(path) {
                    steps.push(Step::Writable { target: c(path)? });
                    names.push(format!("make `{}` writable", path.display()));
                }
            }
        }
        // The box: a small tmpfs with the scratch mount point and the
        // empty file and folder bound over hidden paths, then read-only.
        let boxdir = plan.boxdir;
        steps.push(Step::Tmpfs {
            target: c(boxdir)?,
            options: CString::new("size=16k,nr_inodes=16,mode=711")
                .map_err(|_| invalid(io::ErrorKind::InvalidInput.into()))?,
            flags: libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
        });
        names.push(format!("mount the box tmpfs on `{}`", boxdir.display()));
        let scratch = scratch_in(boxdir);
        steps.push(Step::Mkdir {
            path: c(&scratch)?,
            mode: 0o755,
        });
        names.push(format!("create `{}`", scratch.display()));
        let empty_file = boxdir.join(EMPTY_FILE);
        let empty_dir = boxdir.join(EMPTY_DIR);
        steps.push(Step::Touch {
            path: c(&empty_file)?,
            mode: 0,
        });
        names.push(format!("create `{}`", empty_file.display()));
        steps.push(Step::Mkdir {
            path: c(&empty_dir)?,
            mode: 0,
        });
        names.push(format!("create `{}`", empty_dir.display()));
        for path in plan.hidden {
            // Only what a run could see; a path under a mask is gone already.
            let Ok(metadata) = fs_err::metadata(path) else {
                continue;
            };
            let masked = masked_places(plan.privilege, plan.extra_masks)
                .iter()
                .any(|mask| path.starts_with(mask));
            if !path.is_absolute() || masked {
                continue;
            }
            let source = if metadata.is_dir() {
                &empty_dir
            } else {
                &empty_file
            };
            steps.push(Step::BindPath {
                source: c(source)?,
                target: c(path)?,
            });
            names.push(format!("hide `{}`", path.display()));
        }
        steps.push(Step::ReadOnly { target: c(boxdir)? });
        names.push(format!("make `{}` read-only", boxdir.display()));
        let option = |text: &str| {
            CString::new(text).map_err(|_| invalid(io::ErrorKind::InvalidInput.into()))
        };
        steps.push(Step::Proc {
            options: [option("hidepid=invisible")?, option("hidepid=2")?],
        });
        names.push("mount a private /proc".to_owned());
        let inodes = crate::sandbox::scratch_files(plan.scratch_kib);
        let owner = plan
            .scratch_owner
            .map(|id| format!(",uid={id},gid={id}"))
            .unwrap_or_default();
        // Last, so the holder mounts it anew after each run.
        steps.push(Step::Tmpfs {
            target: c(&scratch)?,
            options: CString::new(format!(
                "size={}k,nr_inodes={inodes},mode=700{owner}",
                plan.scratch_kib.max(4)
            ))
            .map_err(|_| invalid(io::ErrorKind::InvalidInput.into()))?,
            flags: libc::MS_NOSUID | libc::MS_NODEV,
        });
        names.push(format!(
            "mount the scratch tmpfs ({} KiB) on `{}`",
            plan.scratch_kib,
            scratch.display()
        ));
        Ok(Setup { steps, names, kept })
    }

    /// Starts the holder in new namespaces and lets it run its steps.
    fn clone_holder(&self, privilege: Privilege) -> Result<Holder, SandboxError> {
        let failed = |syscall| {
            move |source| SandboxError::Syscall {
                syscall,
                purpose: "making the worker's namespaces",
                source,
            }
        };
        let (go_read, go_write) = pipe().map_err(failed("pipe2"))?;
        let (report_read, report_write) = pipe().map_err(failed("pipe2"))?;
        let (commands_read, commands_write) = pipe().map_err(failed("pipe2"))?;
        let context = HolderContext {
            steps: &self.steps,
            slots: vec![-1; self.steps.len()],
            wait_for_go: matches!(privilege, Privilege::User { .. }),
            go: go_read.as_raw_fd(),
            report: report_write.as_raw_fd(),
            commands: commands_read.as_raw_fd(),
        };
        let flags = match privilege {
            Privilege::Root => libc::CLONE_NEWNS | libc::CLONE_NEWPID,
            Privilege::User { .. } => {
                libc::CLONE_NEWUSER | libc::CLONE_NEWNS | libc::CLONE_NEWNET | libc::CLONE_NEWPID
            }
        };
        // SAFETY: `holder_main` gets a pointer to `context` in its own copy
        // of our memory (no CLONE_VM) and makes only system calls on values
        // prepared before the clone; it keeps every signal blocked.
        let pid = unsafe {
            clone_blocking_signals(
                holder_main,
                flags,
                &context as *const HolderContext<'_> as *mut libc::c_void,
            )
        };
        drop((go_read, report_write, commands_read));
        let pid = pid.map_err(failed("clone"))?;
        let holder = Holder {
            pid,
            report: report_read,
            commands: Some(commands_write),
        };
        if let Privilege::User { uid, gid } = privilege {
            let maps = [
                ("setgroups", "deny".to_owned()),
                ("uid_map", format!("{uid} {uid} 1")),
                ("gid_map", format!("{gid} {gid} 1")),
            ];
            for (file, text) in maps {
                let path = format!("/proc/{pid}/{file}");
                if let Err(source) = fs_err::write(&path, text) {
                    // Dropping the holder ends it.
                    return Err(SandboxError::path("write", path, source));
                }
            }
            let mut go = std::fs::File::from(go_write);
            let _ = go.write_all(b"g");
        }
        Ok(holder)
    }
}

/// How long the holder may take to kill and reap what a run left.
const KILL_GRACE_MS: libc::c_int = 10_000;

/// The namespace's holder: the init of its PID namespace.
struct Holder {
    pid: libc::pid_t,
    /// Reports of the holder: 8 bytes each, two native-endian `i32`.
    report: OwnedFd,
    /// Commands to the holder (`r`: reset after a run); closing it ends it.
    commands: Option<OwnedFd>,
}

impl Holder {
    /// Reads one report, waiting at most `timeout_ms`.
    fn read_report(&self, timeout_ms: libc::c_int) -> Result<[i32; 2], SandboxError> {
        // Bounded like every wait of the judge: a holder that neither
        // reports nor ends in time is given up on.
        let mut ready = libc::pollfd {
            fd: self.report.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        loop {
            // SAFETY: one valid pollfd; a timeout in milliseconds.
            let result = unsafe { libc::poll(&mut ready, 1, timeout_ms) };
            if result < 0 && io::Error::last_os_error().kind() == io::ErrorKind::Interrupted {
                continue;
            }
            if result <= 0 {
                return Err(SandboxError::Namespace {
                    step: "hear from the namespace holder in time".to_owned(),
                    source: io::Error::from(io::ErrorKind::TimedOut),
                });
            }
            break;
        }
        let mut report = [0u8; 8];
        let mut file = std::mem::ManuallyDrop::new(
            // SAFETY: the descriptor is open and owned by `self.report`;
            // ManuallyDrop keeps the File from closing it.
            unsafe { std::fs::File::from_raw_fd(self.report.as_raw_fd()) },
        );
        if file.read_exact(&mut report).is_err() {
            return Err(SandboxError::Syscall {
                syscall: "read",
                purpose: "hearing from the namespace holder (it ended without a word)",
                source: io::Error::from(io::ErrorKind::UnexpectedEof),
            });
        }
        Ok([
            i32::from_ne_bytes([report[0], report[1], report[2], report[3]]),
            i32::from_ne_bytes([report[4], report[5], report[6], report[7]]),
        ])
    }

    /// Waits for the holder's first report and takes descriptors of what it
    /// made; the holder lives on in the namespace.
    fn finish(
        self,
        plan: &Plan<'_>,
        names: &[String],
    ) -> Result<(WorkerNamespace, bool), SandboxError> {
        let [step, value] = self.read_report(HOLDER_GRACE_MS)?;
        if step >= 0 {
            let what = names
                .get(step as usize)
                .cloned()
                .unwrap_or_else(|| format!("step {step}"));
            return Err(SandboxError::Namespace {
                step: what,
                source: io::Error::from_raw_os_error(value),
            });
        }
        let open = |path: String, flags: libc::c_int| -> Result<OwnedFd, SandboxError> {
            let c_path = CString::new(path.clone()).map_err(|_| {
                SandboxError::path("open", &path, io::ErrorKind::InvalidInput.into())
            })?;
            // SAFETY: a NUL-terminated path; the result is checked.
            let fd = unsafe { libc::open(c_path.as_ptr(), flags | libc::O_CLOEXEC) };
            if fd < 0 {
                return Err(SandboxError::path("open", path, io::Error::last_os_error()));
            }
            // SAFETY: open returned a new descriptor we now own.
            Ok(unsafe { OwnedFd::from_raw_fd(fd) })
        };
        let pid = self.pid;
        let (user, network) = match plan.privilege {
            Privilege::Root => (None, None),
            Privilege::User { .. } => (
                Some(open(format!("/proc/{pid}/ns/user"), libc::O_RDONLY)?),
                Some(open(format!("/proc/{pid}/ns/net"), libc::O_RDONLY)?),
            ),
        };
        let mount = open(format!("/proc/{pid}/ns/mnt"), libc::O_RDONLY)?;
        let pid_namespace = open(format!("/proc/{pid}/ns/pid"), libc::O_RDONLY)?;
        let root = open(
            format!("/proc/{pid}/root"),
            libc::O_PATH | libc::O_DIRECTORY,
        )?;
        Ok((
            WorkerNamespace {
                user,
                network,
                mount,
                pid: pid_namespace,
                root,
                holder: self,
                private_proc: false,
                scratch_kib: plan.scratch_kib,
                kept: Vec::new(),
                writable: Vec::new(),
                extra_masks: Vec::new(),
            },
            value == 1,
        ))
    }
}

/// What the holder reads, in its own copy of the judge's memory.
struct HolderContext<'a> {
    steps: &'a [Step],
    /// Descriptors opened by `Step::Open`, by slot.
    slots: Vec<RawFd>,
    wait_for_go: bool,
    go: RawFd,
    report: RawFd,
    commands: RawFd,
}

/// Writes `/proc/self/fd/<fd>` into `buffer` (NUL-terminated) without
/// allocating.
fn fd_path(fd: RawFd, buffer: &mut [u8; 32]) -> *const libc::c_char {
    let prefix = b"/proc/self/fd/";
    buffer[..prefix.len()].copy_from_slice(prefix);
    let mut digits = [0u8; 12];
    let mut count = 0;
    let mut value = fd.max(0) as u32;
    loop {
        digits[count] = b'0' + (value % 10) as u8;
        count += 1;
        value /= 10;
        if value == 0 {
            break;
        }
    }
    for index in 0..count {
        buffer[prefix.len() + index] = digits[count - 1 - index];
    }
    buffer[prefix.len() + count] = 0;
    buffer.as_ptr().cast()
}

/// Closes every descriptor of the calling process but those in `keep`.
///
/// # Safety
/// Only for a process whose other descriptors nobody in it uses any more.
pub(super) unsafe fn close_all_but(keep: &[RawFd]) {
    let mut sorted = [-1; 8];
    let count = keep.len().min(sorted.len());
    sorted[..count].copy_from_slice(&keep[..count]);
    sorted[..count].sort_unstable();
    let mut next: libc::c_uint = 0;
    for &fd in &sorted[..count] {
        if fd < 0 {
            continue;
        }
        let fd = fd as libc::c_uint;
        if fd > next {
            // SAFETY: as the caller promises.
            unsafe { libc::syscall(libc::SYS_close_range, next, fd - 1, 0) };
        }
        next = next.max(fd + 1);
    }
    // SAFETY: as the caller promises.
    unsafe { libc::syscall(libc::SYS_close_range, next, libc::c_uint::MAX, 0) };
}

/// Runs one step; 0 on success, else -1 with errno set.
///
/// # Safety
/// In the holder only: system calls on values prepared before the clone.
unsafe fn run_step(step: &Step, slots: &mut [RawFd], private_proc: &mut i32) -> libc::c_int {
    let null = std::ptr::null::<libc::c_char>();
    let errno = || {
        io::Error::last_os_error()
            .raw_os_error()
            .unwrap_or(libc::EIO)
    };
    // SAFETY (whole body): NUL-terminated strings and integer flags.
    unsafe {
        match step {
            Step::Private => libc::mount(
                null,
                c"/".as_ptr(),
                null,
                libc::MS_REC | libc::MS_PRIVATE,
                std::ptr::null(),
            ),
            Step::Open { path, slot } => {
                let fd = libc::open(path.as_ptr(), libc::O_PATH | libc::O_CLOEXEC);
                if let Some(entry) = slots.get_mut(*slot) {
                    *entry = fd;
                }
                fd.min(0)
            }
            Step::Tmpfs {
                target,
                options,
                flags,
            } => libc::mount(
                c"tmpfs".as_ptr(),
                target.as_ptr(),
                c"tmpfs".as_ptr(),
                *flags,
                options.as_ptr().cast(),
            ),
            Step::Mkdir { path, mode } => {
                let result = libc::mkdir(path.as_ptr(), *mode);
                if result != 0 && errno() == libc::EEXIST {
                    0
                } else if result == 0 {
                    // The umask must not widen or narrow it.
                    libc::chmod(path.as_ptr(), *mode)
                } else {
                    result
                }
            }
            Step::Touch { path, mode } => {
                let fd = libc::open(
                    path.as_ptr(),
                    libc::O_CREAT | libc::O_WRONLY | libc::O_CLOEXEC,
                    0o644,
                );
                if fd >= 0 {
                    libc::fchmod(fd, *mode);
                    libc::close(fd);
                }
                fd.min(0)
            }
            Step::Bind { slot, target } => {
                let mut buffer = [0u8; 32];
                let source = fd_path(slots.get(*slot).copied().unwrap_or(-1), &mut buffer);
                libc::mount(
                    source,
                    target.as_ptr(),
                    null,
                    libc::MS_BIND | libc::MS_REC,
                    std::ptr::null(),
                )
            }
            Step::BindPath { source, target } => libc::mount(
                source.as_ptr(),
                target.as_ptr(),
                null,
                libc::MS_BIND,
                std::ptr::null(),
            ),
            Step::ReadOnly { target } => libc::mount(
                null,
                target.as_ptr(),
                null,
                libc::MS_REMOUNT
                    | libc::MS_RDONLY
                    | libc::MS_NOSUID
                    | libc::MS_NODEV
                    | libc::MS_NOEXEC,
                std::ptr::null(),
            ),
            Step::ReadOnlyTree => mount_setattr(c"/", true, MOUNT_ATTR_RDONLY, 0),
            Step::Writable { target } => mount_setattr(target, false, 0, MOUNT_ATTR_RDONLY),
            Step::Proc { options } => {
                let flags = libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC;
                for option in options {
                    if libc::mount(
                        c"proc".as_ptr(),
                        c"/proc".as_ptr(),
                        c"proc".as_ptr(),
                        flags,
                        option.as_ptr().cast(),
                    ) == 0
                    {
                        *private_proc = 1;
                        break;
                    }
                }
                0
            }
        }
    }
}

const MOUNT_ATTR_RDONLY: u64 = 1;

/// `struct mount_attr` of `mount_setattr(2)`.
#[repr(C)]
struct MountAttr {
    attr_set: u64,
    attr_clr: u64,
    propagation: u64,
    userns_fd: u64,
}

/// Sets and clears mount attributes of the mount at `path` (and, when
/// `recursive`, of every mount below it).
///
/// # Safety
/// In the holder only: a system call on a NUL-terminated path.
unsafe fn mount_setattr(path: &std::ffi::CStr, recursive: bool, set: u64, clear: u64) -> i32 {
    let attr = MountAttr {
        attr_set: set,
        attr_clr: clear,
        propagation: 0,
        userns_fd: 0,
    };
    let flags = if recursive { libc::AT_RECURSIVE } else { 0 };
    // SAFETY: a valid path and a valid struct of the size passed.
    let result = unsafe {
        libc::syscall(
            libc::SYS_mount_setattr,
            libc::AT_FDCWD,
            path.as_ptr(),
            flags,
            &attr as *const MountAttr,
            std::mem::size_of::<MountAttr>(),
        )
    };
    if result < 0 {
        -1
    } else {
        0
    }
}

/// Kills and reaps every other process of the holder's PID namespace.
/// Returns 0, or how many were still there after the grace.
///
/// # Safety
/// In the holder only, which is the namespace's init.
unsafe fn kill_everything_else() -> i32 {
    // SAFETY (whole body): kill, waitpid and nanosleep on integers.
    unsafe {
        for _ in 0..KILL_GRACE_MS {
            // From a PID namespace's init, -1 is every other process in it.
            libc::kill(-1, libc::SIGKILL);
            while libc::waitpid(-1, std::ptr::null_mut(), libc::WNOHANG) > 0 {}
            if libc::kill(-1, 0) != 0 {
                // ESRCH: nothing left, not even a zombie.
                return 0;
            }
            let pause = libc::timespec {
                tv_sec: 0,
                tv_nsec: 1_000_000,
            };
            libc::nanosleep(&pause, std::ptr::null_mut());
        }
        1
    }
}

/// The holder: runs the steps in its new namespaces, reports the first
/// failure (step index and errno) or success (-1 and whether `/proc` is
/// private), then serves the judge as its PID namespace's init until the
/// judge closes the command pipe.
extern "C" fn holder_main(argument: *mut libc::c_void) -> libc::c_int {
    // SAFETY: `argument` points to the holder's own copy of the context;
    // everything below is a system call on values prepared before the
    // clone, with no allocation.
    unsafe {
        let context = &mut *(argument as *mut HolderContext<'_>);
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0);
        // The holder lives as long as the worker: it must not keep the
        // judge's other descriptors (another run's pipes) open.
        close_all_but(&[context.go, context.report, context.commands]);
        let report = |step: i32, value: i32| {
            let mut bytes = [0u8; 8];
            bytes[..4].copy_from_slice(&step.to_ne_bytes());
            bytes[4..].copy_from_slice(&value.to_ne_bytes());
            libc::write(context.report, bytes.as_ptr().cast(), 8);
        };
        let errno = || {
            io::Error::last_os_error()
                .raw_os_error()
                .unwrap_or(libc::EIO)
        };
        if context.wait_for_go {
            let mut byte = 0u8;
            if libc::read(context.go, (&mut byte as *mut u8).cast(), 1) != 1 {
                libc::_exit(1);
            }
        }
        let mut private_proc = 0;
        for (index, step) in context.steps.iter().enumerate() {
            if run_step(step, &mut context.slots, &mut private_proc) != 0 {
                report(index as i32, errno());
                libc::_exit(1);
            }
        }
        close_all_but(&[context.report, context.commands]);
        report(-1, private_proc);
        let Some(Step::Tmpfs {
            target: scratch, ..
        }) = context.steps.last()
        else {
            libc::_exit(1);
        };
        let scratch_step = context.steps.len() - 1;
        loop {
            let mut byte = 0u8;
            if libc::read(context.commands, (&mut byte as *mut u8).cast(), 1) != 1 {
                // The judge let go (or died): the namespace ends with us.
                libc::_exit(0);
            }
            let left = kill_everything_else();
            if left != 0 {
                report(1, left);
                continue;
            }
            // SAFETY: a zeroed statvfs is a valid out-parameter.
            let mut stats: libc::statvfs = std::mem::zeroed();
            let full = libc::statvfs(scratch.as_ptr(), &mut stats) == 0
                && (stats.f_bavail == 0 || stats.f_favail == 0);
            // Nothing holds the old scratch any more: detached, it is freed
            // (and its memory uncharged) at once.
            if libc::umount2(scratch.as_ptr(), libc::MNT_DETACH) != 0
                || run_step(&context.steps[scratch_step], &mut [], &mut 0) != 0
            {
                report(2, errno());
                continue;
            }
            report(0, i32::from(full));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_descriptor_paths_without_allocating() {
        let mut buffer = [0u8; 32];
        for (fd, expected) in [
            (0, "/proc/self/fd/0"),
            (7, "/proc/self/fd/7"),
            (1234, "/proc/self/fd/1234"),
        ] {
            let pointer = fd_path(fd, &mut buffer);
            // SAFETY: fd_path NUL-terminates the buffer it points into.
            let text = unsafe { std::ffi::CStr::from_ptr(pointer) };
            assert_eq!(text.to_str().ok(), Some(expected));
        }
    }

    #[test]
    fn masked_places_need_binding() {
        let user = Privilege::User { uid: 1, gid: 1 };
        assert!(needs_binding(Path::new("/tmp/judge-1"), user, &[]));
        assert!(needs_binding(Path::new("/run/user/1000/x"), user, &[]));
        assert!(!needs_binding(Path::new("/usr/bin"), Privilege::Root, &[]));
        assert!(!needs_binding(Path::new("/tmpfoo"), user, &[]));
        // Without root, people's folders are masked too.
        assert!(needs_binding(Path::new("/home/teacher/tests"), user, &[]));
        assert!(!needs_binding(
            Path::new("/home/teacher/tests"),
            Privilege::Root,
            &[]
        ));
        assert!(needs_binding(
            Path::new("/work/judge-1/submission-1"),
            user,
            &[PathBuf::from("/work/judge-1")]
        ));
    }
}
