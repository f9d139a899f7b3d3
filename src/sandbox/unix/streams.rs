//! A running program's stdout and stderr: read as they stream, with byte
//! caps; past the stdout cap the run is stopped (OLE), past the stderr cap
//! the rest is moved to `/dev/null` inside the kernel (`splice`), so neither
//! a flood nor a full pipe can block the program or grow the judge, and the
//! judge copies none of a flood into its memory (issue 35). What a flood
//! still costs the judge is freeing the pipe's pages as it empties it, as
//! fast as the program fills them: a program never waits on a full stderr
//! any longer than it did, so its verdict is what it was.

use crate::sandbox::{LimitExceeded, Limits, SandboxError};
use rustix::event::{poll, PollFd, PollFlags, Timespec};
use rustix::io::Errno;
use std::io;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::time::{Duration, Instant};

/// How long after the program ended we wait for its pipes to close. Only a
/// process that escaped every kill (no cgroup) can hold them open that long.
const DRAIN_GRACE: Duration = Duration::from_millis(500);

/// The most one `splice` of stderr past its cap moves: more than a pipe
/// holds, so each empties it.
const SPLICED_PIPE_BYTES: usize = 1 << 20;

/// The streams of a running program and what was read from them.
pub(super) struct Supervised {
    pub(super) stdout_fd: Option<OwnedFd>,
    pub(super) stderr_fd: Option<OwnedFd>,
    pub(super) stdout: Vec<u8>,
    pub(super) stderr: Vec<u8>,
    pub(super) stderr_discarded_bytes: u64,
    pub(super) limit: Option<LimitExceeded>,
    pub(super) exited_at: Option<Instant>,
    /// Ended as a deadlock (`stall`), with the wall limit as its limit.
    pub(super) deadlocked: bool,
    /// A run watched at raised limits: where it first went past its
    /// verdict's limits (see `Sandbox::run_marked`).
    pub(super) crossed: Option<crate::sandbox::Crossing>,
    /// Without a memory cgroup: the largest resident size of the run's
    /// process tree the supervisor sampled, in KiB.
    pub(super) resident_peak_kib: u64,
    /// Without cgroups: the CPU time of every process of the run at the
    /// last sample (the program's `rusage` leaves out its orphans).
    pub(super) sampled_cpu: Duration,
    /// How long the run's threads had waited for a CPU when the wall
    /// clock ended the run (`resident::run_queue_wait`); `None` when it
    /// ended otherwise or the kernel does not say.
    /// The wall clock added to the run's limit for the time its threads
    /// waited for a CPU while runnable (issue 32).
    pub(super) wall_granted: Duration,
    pub(super) run_queue_wait: Option<Duration>,
    /// Where a flood of stderr ends the run as output past its cap, as
    /// stdout's does (a compile's or `build` script's: issue #34); `None`:
    /// stderr past its cap is discarded and the run goes on.
    pub(super) stderr_ceiling: Option<u64>,
    /// Where stdout is only a message (`Sandbox::run_message`): the most
    /// of it kept; the rest is read and thrown away, and the run goes on.
    pub(super) stdout_kept: Option<u64>,
    /// Where stderr past its cap goes: `/dev/null`, opened at the first
    /// byte past the cap, or read and thrown away where it cannot be
    /// spliced to.
    discard: Discard,
}

/// Where stderr past its cap goes.
enum Discard {
    /// Nothing past the cap yet.
    NotYet,
    /// `/dev/null`, spliced to from the pipe without a copy.
    Splice(OwnedFd),
    /// Read and thrown away: `/dev/null` cannot be opened or spliced to.
    Read,
}

impl Supervised {
    pub(super) fn new(
        stdout: Option<OwnedFd>,
        stderr: OwnedFd,
    ) -> Result<Supervised, SandboxError> {
        if let Some(stdout) = &stdout {
            set_nonblocking(stdout)?;
        }
        set_nonblocking(&stderr)?;
        let (stdout_fd, stderr_fd) = (stdout, Some(stderr));
        Ok(Supervised {
            stdout_fd,
            stderr_fd,
            stdout: Vec::new(),
            stderr: Vec::new(),
            stderr_discarded_bytes: 0,
            stderr_ceiling: None,
            crossed: None,
            limit: None,
            exited_at: None,
            deadlocked: false,
            resident_peak_kib: 0,
            run_queue_wait: None,
            wall_granted: Duration::ZERO,
            sampled_cpu: Duration::ZERO,
            discard: Discard::NotYet,
            stdout_kept: None,
        })
    }

    /// Waits up to `timeout` for output or the program's exit, reads what is
    /// there, and says whether the program exited.
    /// With `out_of_memory` (see `Cgroups::out_of_memory_fd`), the run is
    /// over its memory limit once that is readable: `limit` says so.
    pub(super) fn poll(
        &mut self,
        pidfd: Option<&OwnedFd>,
        out_of_memory: Option<BorrowedFd<'_>>,
        timeout: Duration,
        limits: &Limits,
    ) -> Result<bool, SandboxError> {
        // Stdout, stderr, the pidfd and the memory event, those there,
        // with their place.
        let watched: Vec<(usize, BorrowedFd<'_>)> = [
            self.stdout_fd.as_ref().map(AsFd::as_fd),
            self.stderr_fd.as_ref().map(AsFd::as_fd),
            pidfd.map(AsFd::as_fd),
            out_of_memory,
        ]
        .into_iter()
        .enumerate()
        .filter_map(|(place, fd)| fd.map(|fd| (place, fd)))
        .collect();
        let mut fds: Vec<PollFd<'_>> = watched
            .iter()
            .map(|&(_, fd)| PollFd::from_borrowed_fd(fd, PollFlags::IN))
            .collect();
        let timeout = Timespec {
            tv_sec: i64::try_from(timeout.as_secs()).unwrap_or(i64::MAX),
            tv_nsec: i64::from(timeout.subsec_nanos()),
        };
        match poll(&mut fds, Some(&timeout)) {
            Ok(_) => {}
            Err(Errno::INTR) => return Ok(false),
            Err(errno) => {
                return Err(SandboxError::Syscall {
                    syscall: "poll",
                    purpose: "waiting for the program's output or exit",
                    source: errno.into(),
                })
            }
        }
        let mut ready = [false; 4];
        for (&(place, _), fd) in watched.iter().zip(&fds) {
            ready[place] = !fd.revents().is_empty();
        }
        drop(fds);
        if ready[3] {
            self.limit = Some(LimitExceeded::Memory);
        }
        if ready[0] {
            self.read_stdout(limits)?;
        }
        if ready[1] {
            self.read_stderr(limits)?;
        }
        Ok(ready[2])
    }

    fn read_stdout(&mut self, limits: &Limits) -> Result<(), SandboxError> {
        let Some(fd) = &self.stdout_fd else {
            return Ok(());
        };
        let cap = usize::try_from(limits.stdout_bytes).unwrap_or(usize::MAX);
        let kept = self
            .stdout_kept
            .map(|kept| usize::try_from(kept).unwrap_or(usize::MAX).min(cap));
        let mut buffer = [0u8; 64 * 1024];
        // A message's flood is read in bounded steps, as stderr's is.
        let mut steps = 0;
        loop {
            match read_fd(fd, &mut buffer) {
                Ok(0) => {
                    self.stdout_fd = None;
                    return Ok(());
                }
                Ok(count) => {
                    if let Some(kept) = kept {
                        let room = kept.saturating_sub(self.stdout.len());
                        self.stdout.extend_from_slice(&buffer[..count.min(room)]);
                        steps += 1;
                        if steps == 16 {
                            return Ok(());
                        }
                        continue;
                    }
                    let room = cap.saturating_sub(self.stdout.len());
                    if count > room {
                        self.stdout.extend_from_slice(&buffer[..room]);
                        self.limit = Some(LimitExceeded::Output);
                        self.stdout_fd = None;
                        return Ok(());
                    }
                    self.stdout.extend_from_slice(&buffer[..count]);
                }
                Err(error) if error.kind() == io::ErrorKind::WouldBlock => return Ok(()),
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                Err(source) => {
                    return Err(SandboxError::Syscall {
                        syscall: "read",
                        purpose: "reading the program's stdout",
                        source,
                    })
                }
            }
        }
    }

    fn read_stderr(&mut self, limits: &Limits) -> Result<(), SandboxError> {
        if self.stderr_fd.is_none() {
            return Ok(());
        }
        let cap = usize::try_from(limits.stderr_bytes).unwrap_or(usize::MAX);
        let mut buffer = [0u8; 64 * 1024];
        // Bounded per call so a flood of stderr cannot starve the checks of
        // time and stdout.
        for _ in 0..16 {
            if self.stderr.len() >= cap {
                if let Some(moved) = self.splice_stderr() {
                    match moved {
                        Ok(0) => {
                            self.stderr_fd = None;
                            return Ok(());
                        }
                        Ok(count) => {
                            self.stderr_discarded_bytes += count as u64;
                            if self.past_stderr_ceiling() {
                                return Ok(());
                            }
                            continue;
                        }
                        Err(Errno::AGAIN) => return Ok(()),
                        Err(Errno::INTR) => continue,
                        // Not a file `/dev/null` takes by splice (a
                        // kernel without it): read, as before.
                        Err(_) => {
                            self.discard = Discard::Read;
                            continue;
                        }
                    }
                }
            }
            let Some(fd) = &self.stderr_fd else {
                return Ok(());
            };
            match read_fd(fd, &mut buffer) {
                Ok(0) => {
                    self.stderr_fd = None;
                    return Ok(());
                }
                Ok(count) => {
                    let room = cap.saturating_sub(self.stderr.len());
                    let kept = count.min(room);
                    self.stderr.extend_from_slice(&buffer[..kept]);
                    self.stderr_discarded_bytes += (count - kept) as u64;
                    if self.past_stderr_ceiling() {
                        return Ok(());
                    }
                }
                Err(error) if error.kind() == io::ErrorKind::WouldBlock => return Ok(()),
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                Err(source) => {
                    return Err(SandboxError::Syscall {
                        syscall: "read",
                        purpose: "reading the program's stderr",
                        source,
                    })
                }
            }
        }
        Ok(())
    }

    /// Whether stderr went past its ceiling (see `stderr_ceiling`): then
    /// the run has gone past its output limit, and stderr is closed.
    fn past_stderr_ceiling(&mut self) -> bool {
        let written = self.stderr.len() as u64 + self.stderr_discarded_bytes;
        if self.stderr_ceiling.is_some_and(|ceiling| written > ceiling) {
            self.limit = Some(LimitExceeded::Output);
            self.stderr_fd = None;
            return true;
        }
        false
    }

    /// Moves what stderr holds past its cap to `/dev/null` in the kernel:
    /// the count moved (0 at its end), or `None` where it is read instead.
    fn splice_stderr(&mut self) -> Option<rustix::io::Result<usize>> {
        let fd = self.stderr_fd.as_ref()?;
        if matches!(self.discard, Discard::NotYet) {
            self.discard = match rustix::fs::open(
                "/dev/null",
                rustix::fs::OFlags::WRONLY | rustix::fs::OFlags::CLOEXEC,
                rustix::fs::Mode::empty(),
            ) {
                // The pipe keeps its size: a wider one would wake the judge
                // less often, but its pages are charged to the program's
                // memory, which would change what a run measures.
                Ok(null) => Discard::Splice(null),
                Err(_) => Discard::Read,
            };
        }
        let Discard::Splice(null) = &self.discard else {
            return None;
        };
        Some(rustix::pipe::splice(
            fd,
            None,
            null,
            None,
            SPLICED_PIPE_BYTES,
            rustix::pipe::SpliceFlags::NONBLOCK,
        ))
    }

    /// After the program ended and its tree was killed: reads what is left in
    /// the pipes, up to the caps, until they close or a short grace passes.
    pub(super) fn drain(&mut self, limits: &Limits) {
        let deadline = Instant::now() + DRAIN_GRACE;
        while (self.stdout_fd.is_some() || self.stderr_fd.is_some())
            && self.limit != Some(LimitExceeded::Output)
        {
            let now = Instant::now();
            if now >= deadline {
                break;
            }
            if self.poll(None, None, deadline - now, limits).is_err() {
                break;
            }
        }
        self.stdout_fd = None;
        self.stderr_fd = None;
    }
}

fn read_fd(fd: &OwnedFd, buffer: &mut [u8]) -> io::Result<usize> {
    rustix::io::read(fd, buffer).map_err(io::Error::from)
}

fn set_nonblocking(fd: &OwnedFd) -> Result<(), SandboxError> {
    rustix::fs::fcntl_getfl(fd)
        .and_then(|flags| rustix::fs::fcntl_setfl(fd, flags | rustix::fs::OFlags::NONBLOCK))
        .map_err(|errno| SandboxError::Syscall {
            syscall: "fcntl",
            purpose: "making the program's pipes non-blocking",
            source: errno.into(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bytes this thread has read through `read` and its kin
    /// (`/proc/thread-self/io`'s `rchar`).
    fn read_by_this_thread() -> u64 {
        let io = fs_err::read_to_string("/proc/thread-self/io").unwrap();
        io.lines()
            .find_map(|line| line.strip_prefix("rchar: "))
            .unwrap()
            .trim()
            .parse()
            .unwrap()
    }

    /// A flood of stderr past its cap keeps the head and counts the rest,
    /// and the judge does not read the rest into its own memory: it moves
    /// it to `/dev/null` in the kernel (issue #35: reading it cost the
    /// judge as much CPU as the flood cost the program).
    #[test]
    fn stderr_past_its_cap_is_counted_but_not_read() {
        const FLOOD: usize = 64 << 20;
        let (reader, writer) = rustix::pipe::pipe().unwrap();
        let writing = std::thread::spawn(move || {
            let mut block = vec![b'e'; 1 << 16];
            block[..5].copy_from_slice(b"head\n");
            let mut left = FLOOD;
            let mut first = true;
            while left > 0 {
                let chunk = if first {
                    &block[..]
                } else {
                    &[b'x'; 1 << 16][..]
                };
                first = false;
                let count = rustix::io::write(&writer, &chunk[..left.min(chunk.len())]).unwrap();
                left -= count;
            }
        });
        let mut supervised = Supervised::new(None, reader).unwrap();
        let limits = crate::sandbox::tests::limits();
        let before = read_by_this_thread();
        while supervised.stderr_fd.is_some() {
            supervised
                .poll(None, None, Duration::from_millis(100), &limits)
                .unwrap();
        }
        let read = read_by_this_thread() - before;
        writing.join().unwrap();
        assert!(supervised.stderr.starts_with(b"head\n"));
        assert_eq!(supervised.stderr.len(), 1024);
        assert_eq!(supervised.stderr_discarded_bytes, (FLOOD - 1024) as u64);
        assert!(read < 1 << 20, "the judge read {read} bytes of the flood");
    }
}
