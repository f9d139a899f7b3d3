//! The supervisor's half of an interactive run: it owns the judge's ends of
//! both pipes, copies the validator's output to the submission and the
//! submission's output to the validator as it comes, keeps the first
//! [`TRANSCRIPT_BYTES`] of each direction, and notes who was waiting for
//! whom when the pair ended. The submission's end of file reaches the
//! validator only once the submission's run is over, as Kattis' tools pass
//! it (a submission that closes its stdout and runs on is TLE or RE by how
//! it ends, not the validator's WA on an early end of file; issue #34).
//! Nothing here blocks: every descriptor is
//! non-blocking and one `poll` waits for all of them and for the wake-up
//! pipe the two runs write to when they end.

use rustix::event::{PollFd, PollFlags, Timespec};
use rustix::fs::OFlags;
use rustix::pipe::PipeFlags;
use std::io;
use std::os::fd::OwnedFd;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Bytes of each direction kept in the transcript.
pub(crate) const TRANSCRIPT_BYTES: usize = 64 * 1024;

/// Bytes read from one side and not yet written to the other: past this
/// the supervisor stops reading, so a side that never reads cannot grow
/// the judge.
const BUFFER_BYTES: usize = 64 * 1024;

/// Which way bytes went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Direction {
    /// From the validator to the submission (`>` in a `.interaction`).
    ToSubmission,
    /// From the submission to the validator (`<`).
    ToValidator,
}

/// The judge's ends of the two pipes of each program.
pub(super) struct Ends {
    /// Writes to the submission's stdin.
    pub(crate) submission_in: OwnedFd,
    /// Reads the submission's stdout.
    pub(crate) submission_out: OwnedFd,
    /// Writes to the validator's stdin.
    pub(crate) validator_in: OwnedFd,
    /// Reads the validator's stdout.
    pub(crate) validator_out: OwnedFd,
}

/// The end of each run, as the two run threads report it.
pub(super) struct Signals {
    /// Readable once either run ended (each writes a byte).
    pub(crate) wake: OwnedFd,
    pub(crate) submission_done: Arc<AtomicBool>,
    pub(crate) validator_done: Arc<AtomicBool>,
    /// Set to end the submission (the validator rejected and exited).
    pub(crate) stop_submission: Arc<AtomicBool>,
    /// Set to end the validator (it outlived the submission).
    pub(crate) stop_validator: Arc<AtomicBool>,
    /// Whether the validator's exit code was a rejection or a fault, read
    /// once it is done: then the submission is stopped at once.
    pub(crate) validator_rejected: Arc<AtomicBool>,
    /// How long the validator may run on after the submission ended.
    pub(crate) validator_grace: Duration,
}

/// What the supervisor saw.
#[derive(Debug, Default)]
pub(super) struct Relayed {
    /// `(direction, bytes)` in order, at most [`TRANSCRIPT_BYTES`] each way.
    pub(crate) transcript: Vec<(Direction, Vec<u8>)>,
    /// Bytes each way in all.
    pub(crate) to_submission: u64,
    pub(crate) to_validator: u64,
    /// The direction of the last bytes that went through.
    pub(crate) last: Option<Direction>,
    /// When the submission ended: bytes sent to the validator that it had
    /// not read, and bytes sent to the submission that it had not read.
    pub(crate) validator_unread: u64,
    pub(crate) submission_unread: u64,
    /// When both had ended: bytes sent to the validator that it never
    /// read (left in the pipe, or dropped once it had gone).
    pub(crate) validator_unread_at_end: u64,
    /// The submission wrote more than its output limit (a built-in
    /// engine's session only: a relayed exchange is not output).
    pub(crate) flooded: bool,
    /// The supervisor stopped the validator after the grace.
    pub(crate) stopped_validator: bool,
    /// When each program ended, as the supervisor first saw it: its stdout
    /// reaching end of file (it exits, or closes it), or its run's end.
    pub(crate) submission_end: Option<Instant>,
    pub(crate) validator_end: Option<Instant>,
}

impl Relayed {
    /// The validator ended before the submission (at the same instant
    /// counts as first: the submission's end may be the SIGPIPE it got).
    pub(super) fn validator_first(&self) -> bool {
        match (self.validator_end, self.submission_end) {
            (Some(validator), Some(submission)) => validator <= submission,
            (Some(_), None) => true,
            _ => false,
        }
    }

    fn ended(&mut self, direction: Direction) {
        let end = match direction {
            Direction::ToSubmission => &mut self.validator_end,
            Direction::ToValidator => &mut self.submission_end,
        };
        end.get_or_insert_with(Instant::now);
    }
}

impl Relayed {
    /// Who waited for whom, in words, for a TLE's or a JE's message.
    pub(super) fn waiting(&self) -> String {
        if self.stopped_validator {
            return if self.validator_unread > 0 {
                format!(
                    "it had not read {} bytes the submission sent",
                    self.validator_unread
                )
            } else {
                "it had read all the submission sent".to_owned()
            };
        }
        if self.validator_end.is_some() && self.validator_first() {
            return "the validator had already exited".to_owned();
        }
        if self.validator_unread > 0 {
            return format!(
                "the validator had not read {} bytes the submission sent",
                self.validator_unread
            );
        }
        if self.submission_unread > 0 {
            return format!(
                "the submission had not read {} bytes the validator sent",
                self.submission_unread
            );
        }
        match self.last {
            Some(Direction::ToSubmission) => {
                "the validator was waiting for the submission, which had read all the validator sent"
                    .to_owned()
            }
            Some(Direction::ToValidator) => {
                "the submission was waiting for the validator, which had read all the submission sent"
                    .to_owned()
            }
            None => "neither side had written anything".to_owned(),
        }
    }

    /// When the submission sent the validator more than `output_limit`
    /// bytes: how much, and how much of it the validator had read when the
    /// submission ended. The exchange is not output, so this is no OLE;
    /// the words say why a time limit, not an output limit, ended it.
    pub(super) fn sent(&self, output_limit: u64) -> Option<String> {
        if self.to_validator <= output_limit {
            return None;
        }
        let read = self.validator_read();
        Some(format!(
            "the submission had sent the validator {} (the exchange is not output: its {} output \
             limit does not apply, the time limit ends a flood) and the validator had read {}",
            bytes(self.to_validator),
            bytes(output_limit),
            if read == self.to_validator {
                "all of it".to_owned()
            } else {
                bytes(read)
            }
        ))
    }

    /// Bytes the submission sent that the validator read.
    pub(super) fn validator_read(&self) -> u64 {
        self.to_validator
            .saturating_sub(self.validator_unread_at_end)
    }

    /// Notes `bytes` going `direction` (for a judge that is not a program).
    pub(super) fn record_public(&mut self, direction: Direction, bytes: &[u8]) {
        self.record(direction, bytes);
    }

    fn record(&mut self, direction: Direction, bytes: &[u8]) {
        let total = match direction {
            Direction::ToSubmission => &mut self.to_submission,
            Direction::ToValidator => &mut self.to_validator,
        };
        let kept = usize::try_from(*total)
            .unwrap_or(usize::MAX)
            .min(TRANSCRIPT_BYTES);
        *total += bytes.len() as u64;
        self.last = Some(direction);
        let room = TRANSCRIPT_BYTES - kept;
        if room == 0 {
            return;
        }
        let bytes = &bytes[..bytes.len().min(room)];
        match self.transcript.last_mut() {
            Some((last, chunk)) if *last == direction => chunk.extend_from_slice(bytes),
            _ => self.transcript.push((direction, bytes.to_vec())),
        }
    }
}

/// One direction: a source, a sink, and the bytes between them.
struct Lane {
    from: Option<OwnedFd>,
    to: Option<OwnedFd>,
    buffer: Vec<u8>,
    direction: Direction,
    /// Bytes its reader had not taken when the sink was closed.
    unread_at_close: u64,
    /// Bytes written to the sink.
    written: u64,
    /// The source's end of file is not passed on until this is cleared:
    /// the submission's stdout, which Kattis' tools hold open for the
    /// validator until the submission has exited (a submission that closes
    /// its stdout and keeps running is judged by how it ends, not by the
    /// validator reading end of file early).
    hold_eof: bool,
}

impl Lane {
    fn wants_read(&self) -> bool {
        self.from.is_some() && self.buffer.len() < BUFFER_BYTES
    }

    fn wants_write(&self) -> bool {
        self.to.is_some() && !self.buffer.is_empty()
    }

    /// Reads what is there.
    fn read(&mut self, relayed: &mut Relayed) -> io::Result<()> {
        let Some(from) = &self.from else {
            return Ok(());
        };
        let mut chunk = [0u8; 16 * 1024];
        let room = BUFFER_BYTES
            .saturating_sub(self.buffer.len())
            .min(chunk.len());
        match read_fd(from, &mut chunk[..room]) {
            Ok(0) => {
                // A held end of file is no end of the submission's: it
                // ends when its run does (a validator that rejects what it
                // wrote before it closed its stdout and ran on ended first,
                // and its WA stands).
                if !self.hold_eof {
                    relayed.ended(self.direction);
                }
                self.from = None;
                if self.buffer.is_empty() && !self.hold_eof {
                    self.close_sink();
                }
            }
            Ok(count) => {
                relayed.record(self.direction, &chunk[..count]);
                // With its reader gone, the bytes are read and dropped, so
                // the writer neither blocks nor dies of SIGPIPE.
                if self.to.is_some() {
                    self.buffer.extend_from_slice(&chunk[..count]);
                } else {
                    self.unread_at_close += count as u64;
                }
            }
            Err(error) if retry(&error) => {}
            Err(error) => return Err(error),
        }
        Ok(())
    }

    fn write(&mut self) {
        let Some(to) = &self.to else {
            self.buffer.clear();
            return;
        };
        match write_fd(to, &self.buffer) {
            Ok(count) => {
                self.written += count as u64;
                self.buffer.drain(..count);
            }
            Err(error) if retry(&error) => {}
            Err(_) => {
                // The reader is gone (EPIPE): what it did not take is lost,
                // and so is the count of what was left in the pipe; at most
                // the pipe's capacity of what was written may be unread.
                let in_pipe = rustix::pipe::fcntl_getpipe_size(to).unwrap_or(BUFFER_BYTES) as u64;
                self.unread_at_close = self.buffer.len() as u64 + in_pipe.min(self.written);
                self.to = None;
                self.buffer.clear();
            }
        }
        if self.buffer.is_empty() && self.from.is_none() && !self.hold_eof {
            self.close_sink();
        }
    }

    /// Closes the sink (its reader sees end of file), noting what it left.
    fn close_sink(&mut self) {
        if let Some(to) = self.to.take() {
            self.unread_at_close = self.buffer.len() as u64 + pipe_bytes(&to);
        }
    }

    /// Bytes sent on this lane that its reader has not taken.
    fn unread(&self) -> u64 {
        match &self.to {
            Some(to) => self.buffer.len() as u64 + pipe_bytes(to),
            None => self.unread_at_close,
        }
    }

    fn close(&mut self) {
        self.from = None;
        self.close_sink();
        self.buffer.clear();
    }
}

/// Copies between the two programs until both runs ended. The exchange is
/// not output: the submission's output limit does not bound it (a correct
/// submission may talk for as long as its time limit lets it); only the
/// transcript is cut, at [`TRANSCRIPT_BYTES`] each way.
pub(super) fn relay(ends: Ends, signals: &Signals) -> io::Result<Relayed> {
    for fd in [
        &ends.submission_in,
        &ends.submission_out,
        &ends.validator_in,
        &ends.validator_out,
        &signals.wake,
    ] {
        set_nonblocking(fd)?;
    }
    let mut relayed = Relayed::default();
    let mut to_submission = Lane {
        from: Some(ends.validator_out),
        to: Some(ends.submission_in),
        buffer: Vec::new(),
        direction: Direction::ToSubmission,
        unread_at_close: 0,
        written: 0,
        hold_eof: false,
    };
    let mut to_validator = Lane {
        from: Some(ends.submission_out),
        to: Some(ends.validator_in),
        buffer: Vec::new(),
        direction: Direction::ToValidator,
        unread_at_close: 0,
        written: 0,
        hold_eof: true,
    };
    let mut submission_seen = false;
    let mut validator_seen = false;
    let mut validator_deadline: Option<Instant> = None;
    loop {
        let submission_done = signals.submission_done.load(Ordering::SeqCst);
        let validator_done = signals.validator_done.load(Ordering::SeqCst);
        if submission_done && !submission_seen {
            submission_seen = true;
            relayed.ended(Direction::ToValidator);
            // Its run ended: the validator may now read end of file.
            to_validator.hold_eof = false;
            // Read what the submission wrote last, then take stock.
            while to_validator.from.is_some() && to_validator.buffer.len() < BUFFER_BYTES {
                let before = relayed.to_validator;
                to_validator.read(&mut relayed)?;
                if relayed.to_validator == before {
                    break;
                }
            }
            to_validator.write();
            relayed.validator_unread = to_validator.unread();
            relayed.submission_unread = to_submission.unread();
            // The submission's stdin closes: nothing more reaches it.
            to_submission.close_sink();
            validator_deadline = Some(Instant::now() + signals.validator_grace);
        }
        if validator_done && !validator_seen {
            validator_seen = true;
            relayed.ended(Direction::ToSubmission);
            // The validator is gone: the submission reads end of file once
            // what the validator wrote is passed on.
            while to_submission.from.is_some() {
                let before = relayed.to_submission;
                to_submission.read(&mut relayed)?;
                if relayed.to_submission == before {
                    break;
                }
            }
            to_submission.write();
            to_submission.close_source_later();
            if signals.validator_rejected.load(Ordering::SeqCst) {
                to_validator.close();
                signals.stop_submission.store(true, Ordering::SeqCst);
            } else {
                // An accepting validator's verdict waits on how the
                // submission ends, and what it writes after (a last line,
                // its buffered output flushed at exit) is no fault of its:
                // problemtools holds the pipe open after an accept for this
                // reason, so the submission neither dies of SIGPIPE nor
                // gets EPIPE (issue #34, BAPCtools' guessnoeofcheck). Its
                // bytes are read and dropped, so no amount blocks it.
                to_validator.close_sink_keep_source();
            }
        }
        if submission_done && validator_done {
            relayed.validator_unread_at_end = to_validator.unread();
            return Ok(relayed);
        }
        let mut timeout = Duration::from_millis(200);
        if let Some(deadline) = validator_deadline {
            let now = Instant::now();
            if now >= deadline && !validator_done {
                relayed.stopped_validator = true;
                signals.stop_validator.store(true, Ordering::SeqCst);
                validator_deadline = None;
            } else if deadline > now {
                timeout = timeout.min(deadline - now);
            }
        }
        let mut roles = Vec::with_capacity(5);
        let ready: Vec<bool> = {
            let mut fds: Vec<PollFd<'_>> = Vec::with_capacity(5);
            for (index, lane) in [&to_submission, &to_validator].into_iter().enumerate() {
                if lane.wants_read() {
                    if let Some(from) = &lane.from {
                        fds.push(PollFd::new(from, PollFlags::IN));
                        roles.push((index, false));
                    }
                }
                if lane.wants_write() {
                    if let Some(to) = &lane.to {
                        fds.push(PollFd::new(to, PollFlags::OUT));
                        roles.push((index, true));
                    }
                }
            }
            fds.push(PollFd::new(&signals.wake, PollFlags::IN));
            let timeout = Timespec::try_from(timeout).unwrap_or(Timespec {
                tv_sec: 0,
                tv_nsec: 200_000_000,
            });
            match rustix::event::poll(&mut fds, Some(&timeout)) {
                Ok(_) => {}
                Err(rustix::io::Errno::INTR) => continue,
                Err(error) => return Err(error.into()),
            }
            fds.iter().map(|fd| !fd.revents().is_empty()).collect()
        };
        if ready.last() == Some(&true) {
            let mut sink = [0u8; 16];
            let _ = read_fd(&signals.wake, &mut sink);
        }
        for (ready, (index, write)) in ready.into_iter().zip(roles) {
            if !ready {
                continue;
            }
            let lane = if index == 0 {
                &mut to_submission
            } else {
                &mut to_validator
            };
            if write {
                lane.write();
            } else {
                lane.read(&mut relayed)?;
                // Pass it on at once: the other side is usually waiting.
                lane.write();
            }
        }
    }
}

impl Lane {
    /// The reader is gone but the writer may go on: what it writes is read
    /// and dropped (see [`Lane::read`]).
    fn close_sink_keep_source(&mut self) {
        self.close_sink();
        self.buffer.clear();
    }

    /// After the validator ended its output is drained; nothing more comes.
    fn close_source_later(&mut self) {
        self.from = None;
        if self.buffer.is_empty() {
            self.close_sink();
        }
    }
}

pub(super) fn retry(error: &io::Error) -> bool {
    matches!(
        error.kind(),
        io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted
    )
}

pub(super) fn read_fd(fd: &OwnedFd, buffer: &mut [u8]) -> io::Result<usize> {
    Ok(rustix::io::read(fd, buffer)?)
}

pub(super) fn write_fd(fd: &OwnedFd, buffer: &[u8]) -> io::Result<usize> {
    Ok(rustix::io::write(fd, buffer)?)
}

/// Bytes waiting in a pipe (`FIONREAD` works on either end).
fn pipe_bytes(fd: &OwnedFd) -> u64 {
    rustix::io::ioctl_fionread(fd).unwrap_or(0)
}

pub(super) fn set_nonblocking(fd: &OwnedFd) -> io::Result<()> {
    let flags = rustix::fs::fcntl_getfl(fd)?;
    rustix::fs::fcntl_setfl(fd, flags | OFlags::NONBLOCK)?;
    Ok(())
}

/// A pipe, both ends close-on-exec: `(read, write)`.
pub(super) fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    Ok(rustix::pipe::pipe_with(PipeFlags::CLOEXEC)?)
}

/// Writes one byte to the wake-up pipe (a full pipe already wakes).
pub(super) fn wake(fd: &OwnedFd) {
    let _ = write_fd(fd, &[1]);
}

/// A count of bytes as people read it: `512 bytes`, `64 KiB`, `3.5 MiB`.
fn bytes(count: u64) -> String {
    const KIB: u64 = 1024;
    const MIB: u64 = 1024 * 1024;
    if count < KIB {
        format!("{count} bytes")
    } else if count < MIB {
        format!("{} KiB", count / KIB)
    } else {
        // Exact enough for a message: counts are far below 2^52.
        format!("{:.1} MiB", count as f64 / MIB as f64)
    }
}

/// A `.interaction`-style text: each line the validator sent after `>`,
/// each line the submission sent after `<`.
pub(crate) fn render(transcript: &[(Direction, Vec<u8>)]) -> String {
    let mut text = String::new();
    for (direction, bytes) in transcript {
        let mark = match direction {
            Direction::ToSubmission => '>',
            Direction::ToValidator => '<',
        };
        let chunk = String::from_utf8_lossy(bytes);
        for line in chunk.split_inclusive('\n') {
            text.push(mark);
            text.push_str(line);
            if !line.ends_with('\n') {
                text.push('\n');
            }
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_transcript_keeps_the_first_bytes_of_each_direction() {
        let mut relayed = Relayed::default();
        relayed.record(Direction::ToSubmission, b"5\n");
        relayed.record(Direction::ToValidator, b"3\n");
        relayed.record(Direction::ToValidator, &vec![b'x'; TRANSCRIPT_BYTES]);
        relayed.record(Direction::ToSubmission, b"higher\n");
        let kept_to_validator: usize = relayed
            .transcript
            .iter()
            .filter(|(direction, _)| *direction == Direction::ToValidator)
            .map(|(_, bytes)| bytes.len())
            .sum();
        assert_eq!(kept_to_validator, TRANSCRIPT_BYTES);
        assert_eq!(relayed.to_validator, TRANSCRIPT_BYTES as u64 + 2);
        assert_eq!(relayed.last, Some(Direction::ToSubmission));
        let text = render(&relayed.transcript[..2]);
        assert!(text.starts_with(">5\n<3\n<xxx"), "{}", &text[..12]);
    }

    /// See: issue #15. A flood is described by what was sent and read, not
    /// by the bytes in flight when it ended: the same words every time.
    #[test]
    fn a_flood_is_told_by_what_was_sent_and_read() {
        let mut relayed = Relayed::default();
        relayed.record(Direction::ToValidator, &vec![b'0'; 60 * 1024]);
        assert_eq!(relayed.sent(64 * 1024), None, "within the output limit");
        relayed.to_validator = 300 * 1024 * 1024;
        relayed.validator_unread_at_end = 128 * 1024;
        assert_eq!(
            relayed.sent(64 * 1024).as_deref(),
            Some(
                "the submission had sent the validator 300.0 MiB (the exchange is not output: its \
                 64 KiB output limit does not apply, the time limit ends a flood) and the \
                 validator had read 299.9 MiB"
            )
        );
        // A validator that never read: none of it.
        relayed.validator_unread_at_end = relayed.to_validator;
        assert!(relayed
            .sent(64 * 1024)
            .unwrap()
            .ends_with("had read 0 bytes"));
        relayed.validator_unread_at_end = 0;
        assert!(relayed
            .sent(64 * 1024)
            .unwrap()
            .ends_with("had read all of it"));
    }
}
