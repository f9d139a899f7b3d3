//! Killing and reaping: what a SIGKILL is aimed at, the processes the
//! judge spawned, orphans handed to the judge as their subreaper, and
//! waits that always end.

use crate::sandbox::SandboxError;
use rustix::event::{poll, PollFd, PollFlags, Timespec};
use rustix::process::{
    kill_process, kill_process_group, waitid, waitpid, Pid, PidfdFlags, Signal, WaitId,
    WaitIdOptions, WaitOptions,
};
use std::io;
use std::os::fd::OwnedFd;
use std::os::unix::ffi::OsStrExt;
use std::time::{Duration, Instant};

/// What a SIGKILL is aimed at. A type, not a sign to remember: the group of a
/// run is `-pid` to `kill(2)`, a single process is `pid`.
#[derive(Clone, Copy, Debug)]
pub(super) enum ProcessTarget {
    Process(libc::pid_t),
    Group(libc::pid_t),
}

pub(super) fn kill(target: ProcessTarget) {
    let raw = match target {
        ProcessTarget::Process(pid) => pid,
        ProcessTarget::Group(pgid) => -pgid,
    };
    if raw == 0 || raw == -1 || raw == 1 {
        return; // never the judge's own group, never everything
    }
    // The target is a pid or group we created and have not reaped, so it
    // cannot have been reused.
    let _ = match target {
        ProcessTarget::Process(pid) => {
            Pid::from_raw(pid).map(|pid| kill_process(pid, Signal::KILL))
        }
        ProcessTarget::Group(pgid) => {
            Pid::from_raw(pgid).map(|pgid| kill_process_group(pgid, Signal::KILL))
        }
    };
}

/// Main processes of runs in progress (and compilers), which the orphan
/// sweep must leave alone.
pub(super) static SPAWNED: std::sync::Mutex<Vec<libc::pid_t>> = std::sync::Mutex::new(Vec::new());

/// Held shared by every spawn until its child is in [`SPAWNED`], and
/// alone by a sweep ([`Sweep`]), so a sweep never takes a child being
/// spawned for an escaped one, while workers spawn side by side (issue
/// #31: one lock across every spawn made the workers take turns for the
/// whole clone, set-up and `execve`).
static SPAWNING: std::sync::RwLock<()> = std::sync::RwLock::new(());

pub(super) fn lock_spawned() -> std::sync::MutexGuard<'static, Vec<libc::pid_t>> {
    // A panic while holding the lock leaves a valid Vec behind.
    SPAWNED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Held across a spawn until its pid is pushed to [`SPAWNED`]; other
/// spawns go on, sweeps wait.
pub(super) fn spawning() -> std::sync::RwLockReadGuard<'static, ()> {
    SPAWNING
        .read()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// What a sweep of the judge's children holds: no spawn in progress, and
/// the list of spawned main processes.
struct Sweep {
    _no_spawn: std::sync::RwLockWriteGuard<'static, ()>,
    spawned: std::sync::MutexGuard<'static, Vec<libc::pid_t>>,
}

fn sweep() -> Sweep {
    let no_spawn = SPAWNING
        .write()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    Sweep {
        _no_spawn: no_spawn,
        spawned: lock_spawned(),
    }
}

/// Without cgroups nothing contains a process that calls `setsid` or
/// double-forks. As the child subreaper of its descendants, the judge gets
/// such orphans as children instead of init, and [`kill_escaped_orphans`]
/// ends them. With cgroups it matters too: an orphan must be reaped before
/// the group counts as empty, and init in a container may never reap it.
/// Process-wide, set once.
pub(super) fn become_subreaper() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let _ = rustix::process::set_child_subreaper(Some(rustix::process::getpid()));
    });
}

/// SIGKILLs and reaps every child of the judge that the sandbox did not
/// spawn and that is outside the judge's own process group: test processes
/// whose parent died, reparented to the judge as subreaper.
pub(super) fn kill_escaped_orphans() {
    let Sweep { spawned, .. } = &sweep();
    let own_group = rustix::process::getpgrp();
    for pid in children_of_judge() {
        let Some(child) = Pid::from_raw(pid) else {
            continue;
        };
        if spawned.contains(&pid) || rustix::process::getpgid(Some(child)) == Ok(own_group) {
            continue;
        }
        kill(ProcessTarget::Process(pid));
        // The orphan is our child now, so this reaps it and nothing else.
        let _ = waitpid(Some(child), WaitOptions::empty());
    }
}

/// Children of every thread of the judge (`/proc/self/task/*/children`).
fn children_of_judge() -> Vec<libc::pid_t> {
    let Ok(tasks) = fs_err::read_dir("/proc/self/task") else {
        return Vec::new();
    };
    tasks
        .filter_map(Result::ok)
        .filter_map(|task| fs_err::read_to_string(task.path().join("children")).ok())
        .flat_map(|text| {
            text.split_whitespace()
                .filter_map(|pid| pid.parse().ok())
                .collect::<Vec<libc::pid_t>>()
        })
        .collect()
}

/// Waits for our child `pid`, which has been sent SIGKILL, and returns its
/// status and resource usage. Bounded (issue #7: a program that leaves its
/// process group must not hang the judge in `wait4`): `Err` after `grace`.
pub(super) fn reap_within(
    pid: libc::pid_t,
    pidfd: Option<&OwnedFd>,
    grace: Duration,
) -> Result<(libc::c_int, libc::rusage), SandboxError> {
    let deadline = Instant::now() + grace;
    let mut status: libc::c_int = 0;
    // SAFETY: a zeroed rusage is a valid out-parameter.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // Without a pidfd to wake on, short pauses first: the first child of a
    // spawn into the PID namespace is reaped here right after it released
    // the judge (CLONE_VFORK), while it is still finishing its exit, and a
    // whole millisecond there would be most of a small test's cost.
    let mut pause = Duration::from_micros(20);
    loop {
        // SAFETY: both out-pointers are valid for writes; `pid` is our
        // unreaped child.
        let result = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if result == pid {
            return Ok((status, usage));
        }
        if result < 0 {
            let error = io::Error::last_os_error();
            if error.kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return Err(SandboxError::Syscall {
                syscall: "wait4",
                purpose: "reaping the program",
                source: error,
            });
        }
        let now = Instant::now();
        if now >= deadline {
            return Err(SandboxError::Survivors {
                count: 1,
                cgroup: format!("/proc/{pid}").into(),
            });
        }
        kill(ProcessTarget::Process(pid));
        let wait = (deadline - now).min(Duration::from_millis(10));
        match pidfd {
            Some(fd) => {
                let timeout = Timespec {
                    tv_sec: 0,
                    tv_nsec: i64::from(wait.max(Duration::from_millis(1)).subsec_nanos()),
                };
                let _ = poll(&mut [PollFd::new(fd, PollFlags::IN)], Some(&timeout));
            }
            None => {
                std::thread::sleep(wait.min(pause));
                pause = (pause * 2).min(Duration::from_millis(1));
            }
        }
    }
}

/// Reaps, without blocking, the zombies among the judge's children that
/// belong to a run: orphans handed to the judge as their subreaper, which
/// still count in the run's `pids.current` until reaped.
///
/// A zombie no longer shows its cgroup, so a run's zombie is told by what
/// it cannot hide: its process group is the run's (`run_group`), or it was
/// seen as a member (`seen`), or it made its own session (a test's other
/// children never do). Only zombies are reaped, and never a process the
/// sandbox spawned, so no other part of the process loses a child it
/// waits for.
pub(super) fn reap_orphans_of(run_group: Option<libc::pid_t>, seen: &[libc::pid_t]) {
    let Sweep { spawned, .. } = &sweep();
    for pid in children_of_judge() {
        if spawned.contains(&pid) {
            continue;
        }
        let Ok(stat) = fs_err::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        // Fields after the command (which may hold spaces and parentheses):
        // state, ppid, pgrp, session.
        let Some(end) = stat.rfind(')') else {
            continue;
        };
        let fields: Vec<&str> = stat[end + 1..].split_whitespace().take(4).collect();
        let [state, _, group, session] = fields[..] else {
            continue;
        };
        let group: libc::pid_t = group.parse().unwrap_or(0);
        let session: libc::pid_t = session.parse().unwrap_or(0);
        let ours =
            run_group.is_some_and(|run| group == run) || seen.contains(&pid) || session == pid;
        if let (true, Some(child)) = (state == "Z" && ours, Pid::from_raw(pid)) {
            let _ = waitpid(Some(child), WaitOptions::NOHANG);
        }
    }
}

/// A descriptor that becomes readable when `pid` exits (Linux 5.3+), so the
/// judge wakes at the exit instead of at the next tick.
pub(super) fn pidfd_open(pid: libc::pid_t) -> Option<OwnedFd> {
    // Our child is not reaped yet, so the pid is still ours.
    rustix::process::pidfd_open(Pid::from_raw(pid)?, PidfdFlags::empty()).ok()
}

/// Whether the (unreaped) child has exited, without reaping it.
pub(super) fn has_exited(pid: libc::pid_t) -> bool {
    let Some(pid) = Pid::from_raw(pid) else {
        return false;
    };
    // WNOWAIT leaves the child unreaped.
    let options = WaitIdOptions::EXITED | WaitIdOptions::NOHANG | WaitIdOptions::NOWAIT;
    matches!(waitid(WaitId::Pid(pid), options), Ok(Some(_)))
}

pub(super) fn count_own_processes() -> u64 {
    let uid = rustix::process::getuid().as_raw().to_string();
    let Ok(entries) = fs_err::read_dir("/proc") else {
        return 0;
    };
    entries
        .filter_map(Result::ok)
        .filter(|entry| entry.file_name().as_bytes().iter().all(u8::is_ascii_digit))
        .filter(|entry| {
            fs_err::read_to_string(entry.path().join("status")).is_ok_and(|status| {
                status.lines().any(|line| {
                    line.strip_prefix("Uid:")
                        .and_then(|ids| ids.split_whitespace().next())
                        == Some(uid.as_str())
                })
            })
        })
        .count() as u64
}
