//! The mask plan: which places of the host a worker namespace covers with
//! an empty tmpfs, which paths it binds back, what it hides, and the steps
//! (C values, ready before the clone) its holder runs to make it.

use super::steps::Step;
use super::{scratch_in, Plan, Privilege};
use crate::sandbox::unix::spawn::c_string;
use crate::sandbox::SandboxError;
use std::ffi::CString;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// Shared places of the host that a program must not reach.
const MASKED: &[&str] = &["/tmp", "/var/tmp", "/run", "/dev/shm"];

/// POSIX shared memory and named semaphores: a run's own, fresh per run.
pub(in crate::sandbox::unix) const SHM: &str = "/dev/shm";

/// The size of a run's `/dev/shm` for a scratch of `scratch_kib`.
pub(super) fn shm_kib(scratch_kib: u64) -> u64 {
    (scratch_kib / 8).max(4)
}

/// Without root, runs are the teacher's own user: the places where people
/// keep their files are masked too (and everything else of the host is
/// read-only), so a run cannot see, `chmod`, touch or set attributes on a
/// teacher's tests, answers or other files (issue 18).
const USER_MASKED: &[&str] = &["/home", "/root", "/srv", "/mnt", "/media", "/opt"];

/// Mount options of an empty mask: root's, read-only to everyone else, and
/// tiny (only the judge's own mount points are ever created in it).
const MASK_OPTIONS: &str = "mode=755,size=64k,nr_inodes=256";

/// Files (and, `true`, folders) of `/proc` with host-wide counters, each
/// covered by an empty one in a run's `/proc`.
const HOST_COUNTERS: &[(&str, bool)] = &[
    ("/proc/interrupts", false),
    ("/proc/softirqs", false),
    ("/proc/diskstats", false),
    ("/proc/vmstat", false),
    ("/proc/pressure", true),
];

/// Names inside the box of what is bound over hidden paths.
const EMPTY_FILE: &str = ".empty-file";
const EMPTY_DIR: &str = ".empty-dir";

/// Whether `path` is hidden inside unless bound back: under a masked
/// place, or (as root, where runs are another user) under a directory that
/// others cannot pass through.
pub(super) fn needs_binding(path: &Path, privilege: Privilege, extra_masks: &[PathBuf]) -> bool {
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
                let by_group = metadata.gid() == crate::sandbox::unix::NOBODY && mode & 0o010 != 0;
                metadata.is_dir() && mode & 0o001 == 0 && !by_group
            })
        })
        .map(Path::to_path_buf)
}

pub(super) struct Setup {
    pub(super) steps: Vec<Step>,
    /// Descriptions of the steps, for errors.
    pub(super) names: Vec<String>,
    pub(super) kept: Vec<PathBuf>,
    /// The slot of the namespace's `ns_last_pid` (-1 there when it could
    /// not be opened).
    pub(super) last_pid_slot: usize,
    /// The step mounting the run's private `/dev/shm`, which the holder
    /// runs again after each run (`None`: the host has no `/dev/shm`).
    pub(super) shm_step: Option<usize>,
}

impl Setup {
    pub(super) fn new(plan: &Plan<'_>) -> Result<Setup, SandboxError> {
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
            // A writable path is bound even where it is not masked: the
            // bind is the mount made writable again once the tree is
            // read-only.
            .filter(|path| {
                needs_binding(path, plan.privilege, plan.extra_masks)
                    || plan.writable.contains(path)
            })
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
                if plan.writable.contains(path) {
                    // Bound onto itself, to be a mount of its own.
                    steps.push(Step::Bind {
                        slot,
                        target: c(path)?,
                    });
                    names.push(format!("bind `{}` onto itself", path.display()));
                }
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
        // Everything mounted so far becomes read-only and `noatime`, as root
        // too, but for the writable paths (a compiler's directory; as root
        // the workspace): without root the host's files are the teacher's
        // own; in both modes a read of `/usr` would otherwise set an access
        // time that any later run, of any student, on any worker or judge
        // of the host, reads back with `stat` (issue 18: answers passed
        // through the atimes of system files).
        steps.push(Step::ReadOnlyTree);
        names.push("make the host's mounts read-only and noatime".to_owned());
        for path in plan.writable {
            if kept.contains(path) {
                steps.push(Step::Writable { target: c(path)? });
                names.push(format!("make `{}` writable", path.display()));
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
        // Opened before `/proc/sys` is covered: the holder resets the PID
        // counter of its namespace after every run, so a run's pids say
        // nothing of how many processes the runs before it made (a channel
        // between consecutive students on a worker).
        let last_pid_slot = kept.len();
        steps.push(Step::OpenOptional {
            path: CString::new("/proc/sys/kernel/ns_last_pid")
                .map_err(|_| invalid(io::ErrorKind::InvalidInput.into()))?,
            slot: last_pid_slot,
        });
        names.push("open the namespace's PID counter".to_owned());
        // `/proc/sys` shows host-wide counters a run raises and another
        // reads (`fs/aio-nr`, `fs/file-nr`, `fs/inode-nr`, `kernel/pty/nr`):
        // channels between students (issue 18). A run needs none of it.
        steps.push(Step::BindPath {
            source: c(&empty_dir)?,
            target: CString::new("/proc/sys")
                .map_err(|_| invalid(io::ErrorKind::InvalidInput.into()))?,
        });
        names.push("hide `/proc/sys`".to_owned());
        // Host-wide counters every process moves and any run reads: the
        // interrupts of each device and CPU, the block devices' I/O, the
        // VM's page events and the pressure stall figures. A run needs
        // none of them (`/proc/meminfo`, `/proc/stat`, `/proc/cpuinfo`
        // stay: runtimes size themselves from them).
        for (path, folder) in HOST_COUNTERS {
            if fs_err::symlink_metadata(path).is_err() {
                continue;
            }
            steps.push(Step::BindPath {
                source: c(if *folder { &empty_dir } else { &empty_file })?,
                target: c(Path::new(path))?,
            });
            names.push(format!("hide `{path}`"));
        }
        let inodes = crate::sandbox::scratch_files(plan.scratch_kib);
        let owner = plan
            .scratch_owner
            .map(|id| format!(",uid={id},gid={}", crate::sandbox::unix::NOBODY))
            .unwrap_or_default();
        // A private `/dev/shm` per run (issue 32: Python's
        // `multiprocessing` makes its locks there, `sem_open`, and was RE on
        // the read-only mask): a tmpfs of the scratch's size over the mask,
        // mounted anew after each run like the scratch, so nothing in it
        // passes from one run to the next. Writable by every user, sticky,
        // as a host's `/dev/shm` is. An eighth of the scratch: its pages
        // are memory too, and a disk filler must fill the scratch (OLE)
        // well before the two together reach a memory limit (MLE).
        let shm = Path::new(SHM);
        let shm_kib = shm_kib(plan.scratch_kib);
        let shm_step = if fs_err::metadata(shm).is_ok_and(|metadata| metadata.is_dir()) {
            steps.push(Step::Tmpfs {
                target: c(shm)?,
                options: CString::new(format!(
                    "size={shm_kib}k,nr_inodes={},mode=1777",
                    crate::sandbox::scratch_files(shm_kib)
                ))
                .map_err(|_| invalid(io::ErrorKind::InvalidInput.into()))?,
                flags: libc::MS_NOSUID | libc::MS_NODEV,
            });
            names.push(format!("mount a private tmpfs on `{SHM}`"));
            Some(steps.len() - 1)
        } else {
            None
        };
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
        Ok(Setup {
            steps,
            names,
            kept,
            last_pid_slot,
            shm_step,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_runs_shm_is_an_eighth_of_its_scratch() {
        assert_eq!(shm_kib(64 * 1024), 8 * 1024);
        assert_eq!(shm_kib(0), 4);
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
