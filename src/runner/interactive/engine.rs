//! A test whose judge is a built-in engine ([`EngineSession`]): the
//! submission runs in the sandbox on the worker's thread; a second thread
//! owns the judge's ends of its pipes, hands each complete line the
//! submission writes to the engine and writes the engine's answer back at
//! once. The engine never waits, so only the submission's limits apply; the
//! verdict follows [`super::verdict::decide_pass`], the engine in the
//! validator's place.

use super::error::InteractionError;
use super::relay::{self, read_fd, retry, set_nonblocking, write_fd, Direction, Relayed};
use super::verdict::{decide_pass, Ended, PassFacts, PassVerdict, ACCEPT, REJECT};
use super::SubmissionProgram;
use crate::interaction::{EngineSession, EngineStep};
use crate::runner::events::TestResult;
use crate::runner::TestInput;
use crate::sandbox::{Connection, JudgeWaiting, Limits, Sandbox, StallWatch};
use crate::verdict::Verdict;
use rustix::event::{PollFd, PollFlags, Timespec};
use std::io;
use std::os::fd::OwnedFd;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// What the engine decided, and when (before the submission ended or not).
struct Decision {
    verdict: Verdict,
    message: String,
    first: bool,
}

/// Runs one test against `session` and fills `result`.
pub(crate) fn run_test(
    sandbox: &mut Sandbox,
    mut session: Box<dyn EngineSession>,
    submission: &SubmissionProgram<'_>,
    input: &TestInput,
    result: &mut TestResult,
) {
    let outcome = play(sandbox, session.as_mut(), submission, result);
    super::record_outcome(result, outcome, input, None);
}

fn play(
    sandbox: &mut Sandbox,
    session: &mut dyn EngineSession,
    submission: &SubmissionProgram<'_>,
    result: &mut TestResult,
) -> Result<(Verdict, String, String), InteractionError> {
    let pipe = || relay::pipe().map_err(InteractionError::io("make the game's pipes"));
    let (submission_in_read, submission_in) = pipe()?;
    let (submission_out, submission_out_write) = pipe()?;
    let (wake_read, wake_write) = pipe()?;
    let stop = Arc::new(AtomicBool::new(false));
    let done = Arc::new(AtomicBool::new(false));
    let spec = super::submission_spec(submission, None);
    // The engine answers at once and never waits: while it waits for the
    // submission with nothing left to write, the sandbox may prove a
    // deadlock (a move never flushed) and end the run then.
    let waiting = Arc::new(JudgeWaiting::default());
    let watch = StallWatch {
        waiting: Arc::clone(&waiting),
        stdin: submission_in_read
            .try_clone()
            .map_err(InteractionError::io("lend the game's pipes"))?,
        stdout: submission_out
            .try_clone()
            .map_err(InteractionError::io("lend the game's pipes"))?,
    };
    std::thread::scope(|scope| {
        let judge = scope.spawn(|| {
            converse(
                session,
                Pipes {
                    to_submission: submission_in,
                    from_submission: submission_out,
                    wake: &wake_read,
                    waiting: &waiting,
                },
                &done,
                &stop,
                submission.limits,
            )
        });
        let connection = Connection {
            stdin: submission_in_read,
            stdout: submission_out_write,
            stop: Arc::clone(&stop),
            watch: Some(watch),
        };
        let measured = sandbox
            .run_connected(&spec, connection)
            .map_err(InteractionError::Sandbox);
        done.store(true, Ordering::SeqCst);
        relay::wake(&wake_write);
        let conversed = judge
            .join()
            .map_err(|_| InteractionError::Panicked("game's thread"))?
            .map_err(InteractionError::Game)?;
        let measured = measured?;
        let (decision, relayed) = conversed;
        let validator = Ended::exited(if decision.verdict == Verdict::Accepted {
            ACCEPT
        } else {
            REJECT
        });
        let waiting = relayed.waiting().replace("the validator", "the judge");
        let facts = PassFacts {
            validator_label: "the judge's engine",
            peer: "the judge",
            validator,
            validator_limits: submission.limits,
            submission: Ended {
                termination: measured.termination,
                limit: measured.limit_exceeded,
                cpu_time_ms: measured.cpu_time_ms,
                wall_time_ms: measured.wall_time_ms,
                wall_granted_ms: measured.wall_granted_ms,
                stopped: stop.load(Ordering::SeqCst),
            },
            submission_limits: submission.limits,
            submission_flooded: relayed.flooded,
            sent: "",
            validator_swamped: false,
            validator_first: decision.first,
            waiting: &waiting,
            feedback: &decision.message,
            wrote_next_pass: false,
            pass: 1,
            passes: 1,
        };
        let transcript = relay::render(&relayed.transcript);
        let (verdict, message) = match decide_pass(&facts) {
            PassVerdict::Final(verdict, message) => (verdict, message),
            PassVerdict::NextPass => (Verdict::JudgeError, "no pass follows".to_owned()),
        };
        let (verdict, message) = match (verdict, measured.deadlocked) {
            (Verdict::TimeLimitExceeded, true) => (
                verdict,
                deadlock_message(measured.wall_time_ms, submission.limits),
            ),
            _ => (verdict, message),
        };
        let mut verdict = verdict;
        // The engine rejects as WA or PE; the order above keeps its kind.
        if verdict == Verdict::WrongAnswer && decision.verdict == Verdict::PresentationError {
            verdict = Verdict::PresentationError;
        }
        crate::runner::termination::record_run(result, &measured);
        result.stderr = crate::runner::termination::runtime_stderr(
            verdict,
            &measured.stderr,
            measured.stderr_discarded_bytes,
        );
        Ok((verdict, message, transcript))
    })
}

/// A TLE the sandbox ended at once: a deadlock, not a slow program.
fn deadlock_message(wall_ms: u64, limits: &Limits) -> String {
    format!(
        "wall-clock time limit exceeded, ended at once after {wall_ms} ms: the submission was \
         waiting for input while the judge waited for its output (never flushed?); every \
         thread of it was asleep reading its empty stdin, so nothing could have come before its \
         {} ms wall-clock limit",
        limits.wall_time_ms
    )
}

/// The judge's ends of the game's pipes, its wake-up pipe, and where it
/// says that it waits.
struct Pipes<'a> {
    to_submission: OwnedFd,
    from_submission: OwnedFd,
    wake: &'a OwnedFd,
    waiting: &'a JudgeWaiting,
}

/// The engine's side: write its opening, then answer line by line until it
/// decides or the submission ends.
fn converse(
    session: &mut dyn EngineSession,
    pipes: Pipes<'_>,
    done: &AtomicBool,
    stop: &AtomicBool,
    limits: &Limits,
) -> io::Result<(Decision, Relayed)> {
    let Pipes {
        to_submission,
        from_submission,
        wake,
        waiting,
    } = pipes;
    set_nonblocking(&to_submission)?;
    set_nonblocking(&from_submission)?;
    set_nonblocking(wake)?;
    let mut relayed = Relayed::default();
    let mut pending = session.start().into_bytes();
    relayed.record_public(Direction::ToSubmission, &pending);
    let mut sink = Some(to_submission);
    let mut source = Some(from_submission);
    let mut line = Lines::default();
    let mut decision: Option<Decision> = None;
    loop {
        if let Some(to) = &sink {
            while !pending.is_empty() {
                match write_fd(to, &pending) {
                    Ok(count) => {
                        pending.drain(..count);
                    }
                    Err(error) if retry(&error) => break,
                    Err(_) => {
                        pending.clear();
                    }
                }
            }
            if pending.is_empty() && decision.is_some() {
                // Decided and said: the submission's input ends.
                sink = None;
            }
        }
        let ended = done.load(Ordering::SeqCst);
        if ended || source.is_none() {
            // Take what is left in the pipe, then decide on what came.
            if let Some(from) = &source {
                let mut chunk = [0u8; 4096];
                while let Ok(count) = read_fd(from, &mut chunk) {
                    if count == 0 {
                        break;
                    }
                    relayed.record_public(Direction::ToValidator, &chunk[..count]);
                    line.bytes.extend_from_slice(&chunk[..count]);
                }
            }
            if decision.is_none() {
                decision = Some(finish_lines(
                    session,
                    &mut line,
                    &mut pending,
                    &mut relayed,
                    false,
                ));
            }
            if ended {
                let decision = decision.unwrap_or(Decision {
                    verdict: Verdict::JudgeError,
                    message: "the game ended undecided".to_owned(),
                    first: false,
                });
                return Ok((decision, relayed));
            }
        }
        let mut fds: Vec<PollFd<'_>> = Vec::with_capacity(3);
        let reading = source.is_some() && decision.is_none();
        // Waiting for a move with all of its own said.
        waiting.set(reading && sink.is_some() && pending.is_empty());
        if let Some(from) = source.as_ref().filter(|_| reading) {
            fds.push(PollFd::new(from, PollFlags::IN));
        }
        if let Some(to) = sink.as_ref().filter(|_| !pending.is_empty()) {
            fds.push(PollFd::new(to, PollFlags::OUT));
        }
        fds.push(PollFd::new(wake, PollFlags::IN));
        let timeout = Timespec {
            tv_sec: 0,
            tv_nsec: 200_000_000,
        };
        match rustix::event::poll(&mut fds, Some(&timeout)) {
            Ok(_) | Err(rustix::io::Errno::INTR) => {}
            Err(error) => return Err(error.into()),
        }
        // The submission's output is read only once poll says it is there,
        // and the wait ends before: the sandbox must never find its pipe
        // drained while the judge still seems to wait (it would be holding
        // a move not yet answered).
        let readable = reading && fds.first().is_some_and(|fd| !fd.revents().is_empty());
        drop(fds);
        if !reading {
            // Decided: nothing more is read; what the submission writes
            // now is drained and dropped, so it neither blocks nor matters.
            if let Some(from) = &source {
                let mut chunk = [0u8; 4096];
                while let Ok(count) = read_fd(from, &mut chunk) {
                    if count == 0 {
                        source = None;
                        break;
                    }
                }
            }
            let mut byte = [0u8; 16];
            let _ = read_fd(wake, &mut byte);
            continue;
        }
        let mut byte = [0u8; 16];
        let _ = read_fd(wake, &mut byte);
        let Some(from) = source.as_ref().filter(|_| readable) else {
            continue;
        };
        waiting.set(false);
        let mut chunk = [0u8; 4096];
        match read_fd(from, &mut chunk) {
            Ok(0) => {
                source = None;
            }
            Ok(count) => {
                relayed.record_public(Direction::ToValidator, &chunk[..count]);
                if relayed.to_validator > limits.stdout_bytes {
                    relayed.flooded = true;
                }
                line.bytes.extend_from_slice(&chunk[..count]);
                let decided = finish_lines(session, &mut line, &mut pending, &mut relayed, true);
                if decided.verdict != Verdict::JudgeError {
                    if decided.verdict != Verdict::Accepted {
                        stop.store(true, Ordering::SeqCst);
                    }
                    decision = Some(decided);
                } else if relayed.flooded {
                    // Past the output limit with no move decided: OLE, as
                    // the same flood on a plain test's stdout is, and the
                    // submission is stopped now, not at its wall limit
                    // (issue #35). A move decided in the same read keeps its
                    // verdict, as before.
                    stop.store(true, Ordering::SeqCst);
                    decision = Some(Decision {
                        verdict: Verdict::OutputLimitExceeded,
                        message: String::new(),
                        first: false,
                    });
                }
            }
            Err(error) if retry(&error) => {}
            Err(error) => return Err(error),
        }
    }
}

/// What the submission wrote since its last complete line, and how much
/// of it is known to hold no line break: each byte is searched once, so a
/// flood without a line break costs the judge its length, not its square
/// (issue #35: every 4 KiB read searched the whole growing line again).
#[derive(Default)]
struct Lines {
    bytes: Vec<u8>,
    searched: usize,
}

impl Lines {
    /// The next complete line, without its line break.
    fn next_line(&mut self) -> Option<Vec<u8>> {
        let found = self.bytes[self.searched..]
            .iter()
            .position(|&byte| byte == b'\n');
        let Some(offset) = found else {
            self.searched = self.bytes.len();
            return None;
        };
        let end = self.searched + offset;
        self.searched = 0;
        let mut text: Vec<u8> = self.bytes.drain(..=end).collect();
        text.pop();
        Some(text)
    }
}

/// Hands every complete line to the engine. With `open`, an incomplete
/// last line waits for more and no decision is `JudgeError` (a marker for
/// "not decided yet"); without, the output has ended.
fn finish_lines(
    session: &mut dyn EngineSession,
    line: &mut Lines,
    pending: &mut Vec<u8>,
    relayed: &mut Relayed,
    open: bool,
) -> Decision {
    while let Some(text) = line.next_line() {
        let text = String::from_utf8_lossy(&text).into_owned();
        if text.trim().is_empty() {
            continue;
        }
        match session.reply(&text) {
            EngineStep::Continue(reply) => {
                relayed.record_public(Direction::ToSubmission, reply.as_bytes());
                pending.extend_from_slice(reply.as_bytes());
            }
            EngineStep::Finish {
                reply,
                verdict,
                message,
            } => {
                relayed.record_public(Direction::ToSubmission, reply.as_bytes());
                pending.extend_from_slice(reply.as_bytes());
                return Decision {
                    verdict,
                    message,
                    first: open,
                };
            }
        }
    }
    if open {
        return Decision {
            verdict: Verdict::JudgeError,
            message: String::new(),
            first: false,
        };
    }
    if !line.bytes.iter().all(u8::is_ascii_whitespace) {
        // A last line without its newline is still a move.
        line.bytes.push(b'\n');
        let decided = finish_lines(session, line, pending, relayed, true);
        if decided.verdict != Verdict::JudgeError {
            return Decision {
                first: false,
                ..decided
            };
        }
    }
    let (verdict, message) = session.ended();
    Decision {
        verdict,
        message,
        first: false,
    }
}

#[cfg(test)]
mod tests {
    use super::Lines;

    /// A line that comes in pieces is found whole once its break comes, and
    /// the bytes searched before are not searched again (issue #35).
    #[test]
    fn a_line_in_pieces_is_searched_once_and_found_whole() {
        let mut lines = Lines::default();
        lines.bytes.extend_from_slice(b"1 2 ");
        assert_eq!(lines.next_line(), None);
        assert_eq!(lines.searched, 4);
        lines.bytes.extend_from_slice(b"h\n2 3 v\n3");
        assert_eq!(lines.next_line().as_deref(), Some(&b"1 2 h"[..]));
        assert_eq!(lines.next_line().as_deref(), Some(&b"2 3 v"[..]));
        assert_eq!(lines.next_line(), None);
        assert_eq!((lines.bytes.as_slice(), lines.searched), (&b"3"[..], 1));
    }
}
