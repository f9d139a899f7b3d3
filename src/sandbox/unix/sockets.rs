//! The sockets a run leaves in its worker's network namespace (issue 35).
//!
//! The namespace is made once per worker and kept by every run on it, so
//! whatever socket outlives a run is there for the next one, which may be
//! another student's. Every process of a finished run is gone before the
//! next starts, and with them every descriptor; what is left is what the
//! processes put *in flight*: a unix socket sent with `SCM_RIGHTS` into a
//! queue that nothing reads, such as its own pair's. Such a cycle is
//! unreachable, yet it lives on, with its abstract name (listed in
//! `/proc/net/unix`: a message to the next run) and with every file sent
//! along (memfds of any size, charged to the worker's memory cgroup as
//! shared memory no reclaim frees), until the kernel's unix garbage
//! collector runs, which it does only when something triggers it.
//!
//! So after each run the judge reads how many sockets the namespace holds
//! (`/proc/<pid>/net/sockstat`, `sockets: used`, per network namespace
//! since Linux 4.16; under a microsecond), and where any is left it
//! triggers the collector until none is, then waits until the files the
//! collector dropped are released too ([`released_barrier`]). The
//! collector is triggered by closing a unix socket while something is in
//! flight: Linux 6.1 collects right there, in the closing thread; 6.10 and
//! later queue the collection on a kernel worker; later kernels still
//! queue it from a close when the in-flight graph may hold a cycle.
//!
//! Landlock's scope of abstract sockets (ABI 6, in every ruleset) keeps
//! one run from connecting to a name another made, but not from reading
//! the names in `/proc/net/unix` or probing them with `bind`; hiding that
//! file would leave `bind`, and a fresh network namespace per run would
//! cost a millisecond and leave the memory charged. Collecting is the one
//! answer to all three, at the cost of one small read per run.

use crate::sandbox::SandboxError;
use rustix::event::{poll, PollFd, PollFlags, Timespec};
use rustix::net::{sendmsg, SendAncillaryBuffer, SendAncillaryMessage, SendFlags};
use std::io::{self, IoSlice};
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::fs::FileExt;
use std::os::unix::net::UnixDatagram;
use std::time::{Duration, Instant};

/// How long the collector may take to free what a run left.
const COLLECT_GRACE: Duration = Duration::from_secs(5);

/// The longest pause between two triggers of the collector.
const MAX_PAUSE: Duration = Duration::from_millis(2);

/// The socket count of one network namespace, read from a file opened
/// once (which keeps its namespace).
pub(super) struct SocketCount {
    sockstat: std::fs::File,
}

impl SocketCount {
    /// Opens `path`, a `net/sockstat` of a process (or thread) in the
    /// namespace.
    pub(super) fn open(path: &str) -> Result<SocketCount, SandboxError> {
        let sockstat =
            fs_err::File::open(path).map_err(|source| SandboxError::path("open", path, source))?;
        Ok(SocketCount {
            sockstat: sockstat.into_parts().0,
        })
    }

    /// The sockets of the namespace (of every family, made by programs:
    /// the kernel's own are not counted).
    fn sockets(&self) -> Result<u64, SandboxError> {
        let mut text = [0u8; 256];
        let read = self
            .sockstat
            .read_at(&mut text, 0)
            .map_err(|source| SandboxError::path("read", "net/sockstat", source))?;
        parse_used(&text[..read]).ok_or_else(|| {
            SandboxError::path(
                "read",
                "net/sockstat",
                io::Error::new(io::ErrorKind::InvalidData, "no `sockets: used` line"),
            )
        })
    }

    /// After a run, once every process of it is gone: returns when the
    /// namespace holds no socket and every file the collector dropped is
    /// released (its memory uncharged), or fails after [`COLLECT_GRACE`].
    pub(super) fn collect(&self) -> Result<(), SandboxError> {
        if self.sockets()? == 0 {
            return Ok(());
        }
        let deadline = Instant::now() + COLLECT_GRACE;
        self.until_none_left(deadline)?;
        // Twice: see `released_barrier`.
        released_barrier(deadline)?;
        released_barrier(deadline)?;
        // The barriers' own socket pairs travel in the same batch as
        // their pipes and may be released just after them: the next run
        // must not see them either.
        self.until_none_left(deadline)
    }

    /// Triggers the collector until the namespace holds no socket, or
    /// fails at `deadline`.
    fn until_none_left(&self, deadline: Instant) -> Result<(), SandboxError> {
        let mut pause = Duration::from_micros(50);
        loop {
            let left = self.sockets()?;
            if left == 0 {
                return Ok(());
            }
            if Instant::now() >= deadline {
                return Err(SandboxError::SocketsLeft {
                    what: format!("{left} socket(s)"),
                });
            }
            trigger_collector();
            std::thread::sleep(pause);
            pause = (pause * 2).min(MAX_PAUSE);
        }
    }
}

/// The number after `sockets: used` on the first line of `sockstat`.
fn parse_used(text: &[u8]) -> Option<u64> {
    let line = text.split(|&byte| byte == b'\n').next()?;
    let rest = line.strip_prefix(b"sockets: used ")?;
    std::str::from_utf8(rest).ok()?.trim().parse().ok()
}

/// Closes a unix socket, which makes the kernel collect unreachable
/// in-flight sockets (when any is in flight).
fn trigger_collector() {
    drop(UnixDatagram::pair());
}

/// Returns once every file the collector dropped before the call is
/// released. The collector drops the files of what it frees from a kernel
/// worker (Linux 6.10 and later), and a kernel worker's last reference to a
/// file is released later still, in batches, by the delayed-`fput` work:
/// the sockets can be gone while their memfds are still being freed. The
/// barrier is a pipe whose write end the judge puts in a cycle of its own
/// and lets the collector free: its read end sees the end of the pipe
/// when that write end is released. A work item never runs twice at once,
/// so a write end dropped after the run's batch was taken is released in a
/// later batch, after it; one dropped into the same batch may be released
/// first (a batch is released last in, first out). The second of two calls
/// is in a later batch than the first: once it returns, the run's files
/// are released. (On 6.1 the collection and the releases happen in the
/// judge's own thread, and each call returns at once.)
fn released_barrier(deadline: Instant) -> Result<(), SandboxError> {
    let failed = |syscall| {
        move |source| SandboxError::Syscall {
            syscall,
            purpose: "waiting for the kernel to release what a run left in flight",
            source,
        }
    };
    let (read, write) = rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC)
        .map_err(|errno| failed("pipe2")(io::Error::from(errno)))?;
    let (ours, peer) = UnixDatagram::pair().map_err(failed("socketpair"))?;
    send_into_own_queue(&ours, &[write.as_fd(), ours.as_fd(), peer.as_fd()])
        .map_err(failed("sendmsg"))?;
    drop((write, ours, peer));
    let mut pause = Duration::from_micros(50);
    loop {
        trigger_collector();
        if write_end_released(&read, pause) {
            return Ok(());
        }
        if Instant::now() >= deadline {
            return Err(SandboxError::SocketsLeft {
                what: "the files sent with sockets".to_owned(),
            });
        }
        pause = (pause * 2).min(MAX_PAUSE);
    }
}

/// Sends `fds` with `SCM_RIGHTS` from `socket` to its peer, whose queue
/// nothing reads.
fn send_into_own_queue(
    socket: &UnixDatagram,
    fds: &[std::os::fd::BorrowedFd<'_>],
) -> io::Result<()> {
    let mut space = [std::mem::MaybeUninit::uninit(); rustix::cmsg_space!(ScmRights(3))];
    let mut control = SendAncillaryBuffer::new(&mut space);
    if !control.push(SendAncillaryMessage::ScmRights(fds)) {
        return Err(io::ErrorKind::InvalidInput.into());
    }
    sendmsg(
        socket,
        &[IoSlice::new(b"x")],
        &mut control,
        SendFlags::empty(),
    )?;
    Ok(())
}

/// Whether the pipe's write end is gone (waiting at most `pause`).
fn write_end_released(read: &OwnedFd, pause: Duration) -> bool {
    let timeout = Timespec {
        tv_sec: 0,
        tv_nsec: i64::try_from(pause.as_nanos()).unwrap_or(1_000_000),
    };
    let mut ready = [PollFd::new(read, PollFlags::IN)];
    matches!(poll(&mut ready, Some(&timeout)), Ok(count) if count > 0)
        && ready[0].revents().contains(PollFlags::HUP)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_socket_count_is_read_from_the_first_line_of_sockstat() {
        let text = b"sockets: used 12\nTCP: inuse 0 orphan 0 tw 0 alloc 1 mem 0\n";
        assert_eq!(parse_used(text), Some(12));
        assert_eq!(parse_used(b"sockets: used 0\n"), Some(0));
        assert_eq!(parse_used(b"TCP: inuse 0\n"), None);
        assert_eq!(parse_used(b""), None);
    }

    /// A cycle of sockets in flight (a pair whose ends are in their own
    /// queue) is freed by `collect`, and the memory of a memfd sent along
    /// with it is released by the time it returns. In a network namespace
    /// of the test's own thread, as root.
    #[test]
    #[ignore = "needs root: a network namespace of its own; .ci/run runs it as root: cargo test --locked --lib -- --ignored"]
    fn a_cycle_left_in_flight_is_collected_with_what_it_carries() {
        std::thread::spawn(|| {
            // SAFETY: unshare changes only this thread's namespaces.
            assert_eq!(unsafe { libc::unshare(libc::CLONE_NEWNET) }, 0);
            let count = SocketCount::open("/proc/thread-self/net/sockstat").unwrap();
            assert_eq!(count.sockets().unwrap(), 0);
            let memfd = rustix::fs::memfd_create(c"left", rustix::fs::MemfdFlags::CLOEXEC)
                .map(std::fs::File::from)
                .unwrap();
            memfd.write_all_at(&vec![7u8; 8 << 20], 0).unwrap();
            let (read, write) = rustix::pipe::pipe().unwrap();
            let (ours, peer) = UnixDatagram::pair().unwrap();
            send_into_own_queue(&ours, &[memfd.as_fd(), write.as_fd(), ours.as_fd()]).unwrap();
            send_into_own_queue(&peer, &[peer.as_fd()]).unwrap();
            drop((memfd, write, ours, peer));
            count.collect().unwrap();
            assert_eq!(count.sockets().unwrap(), 0);
            // The write end travelled with the memfd: released with it.
            assert!(write_end_released(&read, Duration::ZERO));
            // Run after run, nothing of the collection itself is left
            // for the next run to see: not even the barrier's own pair,
            // released after its pipe (the CI failure of stop 36).
            for round in 0..100 {
                let (ours, peer) = UnixDatagram::pair().unwrap();
                send_into_own_queue(&ours, &[ours.as_fd(), peer.as_fd()]).unwrap();
                drop((ours, peer));
                count.collect().unwrap();
                assert_eq!(count.sockets().unwrap(), 0, "round {round}");
            }
        })
        .join()
        .unwrap();
    }
}
