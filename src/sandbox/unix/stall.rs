//! A deadlock of a connected run told exactly: the judge's side waits for
//! the program's output with nothing left to write to it, and every thread
//! of every process of the run sleeps in a `read` of its own stdin pipe,
//! which is empty. Nothing in the run can then ever run again: no thread
//! is awake to write, the judge writes only once it reads, and the kernel
//! wakes a sleeping `read` only through the pipe or a signal. So the run
//! is ended at once (TLE, wall), where it would have slept to its wall
//! limit — a program that never flushed its output.
//!
//! What each sample requires, all of it (any doubt is "not stalled", and
//! the run goes on to its limits as before):
//!
//! - the judge has waited for `QUIET` at least, and still does (its
//!   side ends the wait before it reads the program's output, so a move
//!   read but not yet answered is never taken for silence);
//! - the program's stdin and stdout pipes are both empty (`FIONREAD` on
//!   read ends the judge holds): nothing is in flight either way;
//! - the run's processes are the members of its cgroup (a run without
//!   cgroups is not watched: a process that left its parent could not be
//!   found, and it might be computing the move);
//! - every thread of each is asleep (`S`) in `read` or `readv` on a
//!   descriptor that is the very stdin pipe (its `/proc` link names the
//!   pipe's inode); dead threads (`Z`, `X`) are skipped;
//! - no signal can wake one: none is pending unblocked, the process has no
//!   POSIX timer (`/proc/PID/timers` empty), and no thread catches
//!   `SIGALRM` unblocked (an `alarm` or `setitimer` is not shown anywhere;
//!   its signal, when not caught, can only kill the program, and a killed
//!   program sends nothing either). With more than one process alive, no
//!   process leaves `SIGALRM` to kill it: its death is a sender (its exit
//!   signal to a parent that may catch `SIGCHLD`, a child's death signal)
//!   and may close the last writer of the output the judge reads. Any
//!   other signal needs a sender, and every process of the run is asleep;
//! - `io_uring` and Linux AIO, which can write without a thread awake,
//!   are refused by the run's seccomp filter: without the filter the run
//!   is not watched.
//!
//! Two samples `SAMPLE_EVERY` apart must both hold, with the same
//! threads, the same wait of the judge's, and no CPU time gained in
//! between. Reading `/proc/PID/task/TID/syscall` needs ptrace access to the
//! run (the judge as root has it; unprivileged, the run is its own user's
//! in a user namespace it made); when any file cannot be read the sample
//! is "not stalled", and after a refusal the run is not sampled again:
//! today's behaviour, the wall limit.

use std::os::fd::OwnedFd;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long the judge must have waited before the run is first sampled:
/// a normal exchange never pays for a sample.
pub(crate) const QUIET: Duration = Duration::from_millis(150);
/// Between two samples.
pub(crate) const SAMPLE_EVERY: Duration = Duration::from_millis(100);

/// `SIGALRM`'s bit in `/proc/PID/status` masks (signal 14).
const SIGALRM_BIT: u64 = 1 << (libc::SIGALRM - 1);

/// Whether the judge's side of a connected run is waiting for the
/// program's output with nothing left to write: set by the judge's
/// thread, read by the sandbox's. Each new wait has a new number.
#[derive(Debug, Default)]
pub(crate) struct JudgeWaiting {
    state: Mutex<(u64, Option<Instant>)>,
}

impl JudgeWaiting {
    /// Says whether the judge waits now: a wait already going on keeps its
    /// start; one that ends, or any that starts anew, is another wait.
    pub(crate) fn set(&self, waiting: bool) {
        let Ok(mut state) = self.state.lock() else {
            return;
        };
        match (waiting, state.1) {
            (true, None) => {
                state.0 += 1;
                state.1 = Some(Instant::now());
            }
            (false, Some(_)) => {
                state.0 += 1;
                state.1 = None;
            }
            _ => {}
        }
    }

    /// The current wait: its number and start.
    fn current(&self) -> Option<(u64, Instant)> {
        let state = self.state.lock().ok()?;
        state.1.map(|since| (state.0, since))
    }
}

/// What the judge's side of a connected run lends the sandbox so it can
/// tell a deadlock: its wait, and a read end of each of the program's
/// pipes (an extra reader changes nothing for the writer; both close with
/// the run).
#[derive(Debug)]
pub(crate) struct StallWatch {
    pub(crate) waiting: Arc<JudgeWaiting>,
    pub(crate) stdin: OwnedFd,
    pub(crate) stdout: OwnedFd,
}

/// One sample that held: what must stay the same until the next.
#[derive(Debug, PartialEq, Eq)]
struct Held {
    wait: u64,
    threads: Vec<(i32, i32)>,
    cpu: Duration,
}

/// The watch of one run.
pub(super) struct Stall {
    watch: StallWatch,
    stdin_inode: u64,
    procs: std::path::PathBuf,
    last: Option<(Instant, Held)>,
    next_sample: Option<Instant>,
    refused: bool,
}

impl Stall {
    /// A watch on the run whose members `cgroup.procs` in `procs` lists.
    pub(super) fn new(watch: StallWatch, procs: &Path) -> Option<Stall> {
        let stdin_inode = rustix::fs::fstat(&watch.stdin).ok()?.st_ino;
        Some(Stall {
            watch,
            stdin_inode,
            procs: procs.join("cgroup.procs"),
            last: None,
            next_sample: None,
            refused: false,
        })
    }

    /// How long the supervisor may sleep before this watch wants a look.
    pub(super) fn due_in(&self, now: Instant) -> Option<Duration> {
        if self.refused {
            return None;
        }
        let (_, since) = self.watch.waiting.current()?;
        let due = self.next_sample.unwrap_or(since + QUIET).max(since + QUIET);
        Some(due.saturating_duration_since(now))
    }

    /// Samples the run when it is due; true once two samples in a row
    /// found it deadlocked.
    pub(super) fn deadlocked(&mut self, now: Instant, cpu: Duration) -> bool {
        if self.refused {
            return false;
        }
        let Some((wait, since)) = self.watch.waiting.current() else {
            self.last = None;
            return false;
        };
        if now < since + QUIET || self.next_sample.is_some_and(|next| now < next) {
            return false;
        }
        self.next_sample = Some(now + SAMPLE_EVERY);
        let threads = match self.sample() {
            Ok(Some(threads)) => threads,
            Ok(None) => {
                self.last = None;
                return false;
            }
            Err(Refused) => {
                // This mode cannot read the run's /proc: the wall limit
                // ends it, as before.
                self.refused = true;
                self.last = None;
                return false;
            }
        };
        let held = Held { wait, threads, cpu };
        let repeated = self.last.as_ref().is_some_and(|(_, last)| *last == held);
        self.last = Some((now, held));
        repeated
    }

    /// The run's threads, when all of them sleep in a read of the empty
    /// stdin pipe and no signal can wake them; `None` when not.
    fn sample(&self) -> Result<Option<Vec<(i32, i32)>>, Refused> {
        if unread(&self.watch.stdin) != Some(0) || unread(&self.watch.stdout) != Some(0) {
            return Ok(None);
        }
        let Ok(members) = fs_err::read_to_string(&self.procs) else {
            return Ok(None);
        };
        let pids: Vec<i32> = members
            .lines()
            .filter_map(|line| line.trim().parse().ok())
            .collect();
        if pids.is_empty() {
            return Ok(None);
        }
        let mut threads = Vec::new();
        // Whether some process an unseen `alarm` would kill, and how many
        // processes have a thread alive.
        let mut killable = false;
        let mut live_processes = 0_usize;
        for pid in pids {
            let process = format!("/proc/{pid}");
            match fs_err::read_to_string(format!("{process}/timers")) {
                Ok(timers) if timers.trim().is_empty() => {}
                Ok(_) => return Ok(None),
                Err(error) => return refused_or_not(&error),
            }
            let Ok(tasks) = fs_err::read_dir(format!("{process}/task")) else {
                return Ok(None);
            };
            let mut tids: Vec<i32> = tasks
                .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse().ok())
                .collect();
            tids.sort_unstable();
            let mut live = false;
            for tid in tids {
                let task = format!("{process}/task/{tid}");
                match self.task_asleep_on_stdin(&task)? {
                    Some(Task::Asleep { alarm_kills }) => {
                        threads.push((pid, tid));
                        live = true;
                        killable |= alarm_kills;
                    }
                    Some(Task::Dead) => {}
                    None => return Ok(None),
                }
            }
            live_processes += usize::from(live);
        }
        // An uncaught SIGALRM that kills one process of several is a way
        // out: its parent may catch the SIGCHLD (or any exit signal), a
        // child its death signal, and the judge may read the end of its
        // output. Alone, its death ends the run (RE), as docs/problems.md
        // says.
        if killable && live_processes > 1 {
            return Ok(None);
        }
        Ok(Some(threads))
    }

    /// `Some(Task::Asleep)`: asleep in a read of the stdin pipe, nothing
    /// to wake it; `Some(Task::Dead)`: dead; `None`: anything else.
    fn task_asleep_on_stdin(&self, task: &str) -> Result<Option<Task>, Refused> {
        let Ok(stat) = fs_err::read_to_string(format!("{task}/stat")) else {
            return Ok(None);
        };
        match stat_state(&stat) {
            Some('Z' | 'X') => return Ok(Some(Task::Dead)),
            Some('S') => {}
            _ => return Ok(None),
        }
        let Ok(status) = fs_err::read_to_string(format!("{task}/status")) else {
            return Ok(None);
        };
        if !signals_quiet(&status) {
            return Ok(None);
        }
        let syscall = match fs_err::read_to_string(format!("{task}/syscall")) {
            Ok(text) => text,
            Err(error) => return refused_or_not(&error),
        };
        let Some(fd) = reading_fd(&syscall) else {
            return Ok(None);
        };
        let link = match std::fs::read_link(format!("{task}/fd/{fd}")) {
            Ok(link) => link,
            Err(error) => return refused_or_not(&error),
        };
        // Asleep before the read and the state after: the state again.
        let Ok(again) = fs_err::read_to_string(format!("{task}/stat")) else {
            return Ok(None);
        };
        let on_stdin = link.to_str().and_then(pipe_inode) == Some(self.stdin_inode);
        Ok(
            (on_stdin && stat_state(&again) == Some('S')).then_some(Task::Asleep {
                alarm_kills: alarm_kills(&status),
            }),
        )
    }
}

/// One thread of the run, as a sample saw it.
enum Task {
    /// A zombie or dead thread.
    Dead,
    /// Asleep in a read of the empty stdin pipe, nothing to wake it;
    /// `alarm_kills`: a `SIGALRM` would kill its process (neither caught
    /// nor ignored, and not blocked by this thread).
    Asleep { alarm_kills: bool },
}

/// The run's `/proc` could not be read for lack of permission.
struct Refused;

fn refused_or_not<T>(error: &std::io::Error) -> Result<Option<T>, Refused> {
    match error.raw_os_error() {
        Some(libc::EACCES | libc::EPERM) => Err(Refused),
        _ => Ok(None),
    }
}

/// Bytes waiting in a pipe.
fn unread(fd: &OwnedFd) -> Option<u64> {
    rustix::io::ioctl_fionread(fd).ok()
}

/// A task's state letter, from `/proc/PID/task/TID/stat` (after the last
/// `)`: the command name may hold anything, parentheses too).
fn stat_state(stat: &str) -> Option<char> {
    let (_, rest) = stat.rsplit_once(')')?;
    rest.trim_start().chars().next()
}

/// The descriptor a task sleeps reading, from its `syscall` file: `read`
/// or `readv` (their first argument); `None` for any other call, a task
/// running or outside a call.
fn reading_fd(syscall: &str) -> Option<i32> {
    let mut fields = syscall.split_whitespace();
    let number: i64 = fields.next()?.parse().ok()?;
    if number != libc::SYS_read && number != libc::SYS_readv {
        return None;
    }
    let fd = fields.next()?.strip_prefix("0x")?;
    // The kernel prints the register whole; a descriptor is an int.
    let fd = u64::from_str_radix(fd, 16).ok()?;
    i32::try_from(fd).ok().filter(|fd| *fd >= 0)
}

/// The inode of a `pipe:[INODE]` link.
fn pipe_inode(link: &str) -> Option<u64> {
    link.strip_prefix("pipe:[")?.strip_suffix(']')?.parse().ok()
}

/// A hexadecimal mask of `/proc/PID/status`.
fn mask(status: &str, key: &str) -> Option<u64> {
    let line = status.lines().find_map(|line| line.strip_prefix(key))?;
    u64::from_str_radix(line.trim_start_matches(':').trim(), 16).ok()
}

/// No signal is pending unblocked on the task, and `SIGALRM` (which an
/// unseen `alarm` may raise) is not caught unblocked.
fn signals_quiet(status: &str) -> bool {
    let (Some(pending), Some(shared), Some(blocked), Some(caught)) = (
        mask(status, "SigPnd"),
        mask(status, "ShdPnd"),
        mask(status, "SigBlk"),
        mask(status, "SigCgt"),
    ) else {
        return false;
    };
    (pending | shared) & !blocked == 0 && caught & SIGALRM_BIT & !blocked == 0
}

/// Whether a `SIGALRM` (an `alarm` or `setitimer` no file shows) would
/// kill the task's process: neither caught nor ignored, and this thread
/// does not block it. Masks unread count as "would".
fn alarm_kills(status: &str) -> bool {
    let (Some(blocked), Some(ignored), Some(caught)) = (
        mask(status, "SigBlk"),
        mask(status, "SigIgn"),
        mask(status, "SigCgt"),
    ) else {
        return true;
    };
    (blocked | ignored | caught) & SIGALRM_BIT == 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use test_case::test_case;

    #[test_case("1234 (python3) S 1 2 3", Some('S') ; "plain")]
    #[test_case("77 (a) b) (c) R 1", Some('R') ; "parentheses in the name")]
    #[test_case("9 (x) Z", Some('Z') ; "zombie")]
    #[test_case("9 no parenthesis", None ; "garbled")]
    fn the_state_letter_follows_the_last_parenthesis(stat: &str, state: Option<char>) {
        assert_eq!(stat_state(stat), state);
    }

    #[test_case("0 0x0 0x55d0c0a0 0x2000 0x0 0x0 0x0 0x7ffd 0x7f12\n", Some(0) ; "read of stdin")]
    #[test_case("0 0x5 0x55d0c0a0 0x2000 0x0 0x0 0x0 0x7ffd 0x7f12\n", Some(5) ; "read of another descriptor")]
    #[test_case("19 0x3 0x55d0 0x1 0x0 0x0 0x0 0x7ffd 0x7f12\n", Some(3) ; "readv")]
    #[test_case("35 0x7ffd 0x0 0x0 0x0 0x0 0x0 0x7ffd 0x7f12\n", None ; "nanosleep")]
    #[test_case("7 0x7ffd 0x1 0xffffffff 0x0 0x0 0x0 0x7ffd 0x7f12\n", None ; "poll is not proved")]
    #[test_case("202 0x7f 0x80 0x2 0x0 0x0 0x0 0x7ffd 0x7f12\n", None ; "futex")]
    #[test_case("running\n", None ; "running")]
    #[test_case("-1 0x7ffd 0x7f12\n", None ; "outside a call")]
    #[test_case("0 0xffffffffffffffff 0x1 0x1 0x0 0x0 0x0 0x1 0x1\n", None ; "a descriptor no int holds")]
    #[test_case("0 12 0x1\n", None ; "not hexadecimal")]
    fn only_a_sleeping_read_names_its_descriptor(syscall: &str, fd: Option<i32>) {
        assert_eq!(reading_fd(syscall), fd);
    }

    #[test_case("pipe:[123456]", Some(123_456) ; "pipe")]
    #[test_case("socket:[123456]", None ; "socket")]
    #[test_case("/dev/null", None ; "file")]
    #[test_case("pipe:[12x]", None ; "garbled")]
    fn a_pipe_link_names_its_inode(link: &str, inode: Option<u64>) {
        assert_eq!(pipe_inode(link), inode);
    }

    fn status(pending: &str, shared: &str, blocked: &str, caught: &str) -> String {
        format!(
            "Name:\tpython3\nState:\tS (sleeping)\nSigQ:\t0/63\nSigPnd:\t{pending}\n\
             ShdPnd:\t{shared}\nSigBlk:\t{blocked}\nSigIgn:\t0000000001001000\nSigCgt:\t{caught}\n"
        )
    }

    // Python catches SIGINT (bit 1) only.
    #[test_case(status("0000000000000000", "0000000000000000", "0000000000000000", "0000000180000002"), true ; "python")]
    #[test_case(status("0000000000000000", "0000000000000000", "0000000000000000", "0000000000002000"), false ; "sigalrm caught")]
    #[test_case(status("0000000000000000", "0000000000000000", "0000000000002000", "0000000000002000"), true ; "sigalrm caught but blocked")]
    #[test_case(status("0000000000000002", "0000000000000000", "0000000000000000", "0000000000000000"), false ; "a signal pending")]
    #[test_case(status("0000000000000000", "0000000000004000", "0000000000000000", "0000000000000000"), false ; "a signal pending for the process")]
    #[test_case(status("0000000000000000", "0000000000004000", "0000000000004000", "0000000000000000"), true ; "pending but blocked")]
    #[test_case("Name:\tx\n".to_owned(), false ; "masks missing")]
    fn a_signal_that_could_wake_the_task_rules_out_a_deadlock(status: String, quiet: bool) {
        assert_eq!(signals_quiet(&status), quiet);
    }

    // Python leaves SIGALRM at its default: an alarm would kill it.
    #[test_case(status("0000000000000000", "0000000000000000", "0000000000000000", "0000000180000002"), true ; "default")]
    #[test_case(status("0000000000000000", "0000000000000000", "0000000000002000", "0000000000000000"), false ; "blocked")]
    #[test_case(status("0000000000000000", "0000000000000000", "0000000000000000", "0000000000002000"), false ; "caught")]
    #[test_case(status("0", "0", "0", "0").replace("0000000001001000", "0000000001003000"), false ; "ignored")]
    #[test_case("Name:\tx\n".to_owned(), true ; "masks missing")]
    fn an_alarm_that_would_kill_the_process_is_told(status: String, kills: bool) {
        assert_eq!(alarm_kills(&status), kills);
    }

    #[test]
    fn each_wait_of_the_judge_is_numbered_anew() {
        let waiting = JudgeWaiting::default();
        assert_eq!(waiting.current(), None);
        waiting.set(true);
        let first = waiting.current().expect("waiting");
        waiting.set(true);
        assert_eq!(
            waiting.current(),
            Some(first),
            "a wait going on keeps its start"
        );
        waiting.set(false);
        assert_eq!(waiting.current(), None);
        waiting.set(true);
        let second = waiting.current().expect("waiting again");
        assert_ne!(second.0, first.0);
    }
}
