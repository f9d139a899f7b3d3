//! The verdict of one pass of an interactive or multi-pass test, as a pure
//! function of what the two programs did, in the order the judges users
//! trust apply it (Kattis, DOMjudge):
//!
//! 1. the validator failed (a limit, a signal, stopped after the
//!    submission ended, an exit code other than 42 and 43, `nextpass.in`
//!    on the last pass) → JE naming it, never a verdict against the
//!    submission; except a validator that ran out of CPU time or memory
//!    reading a flood (it had read more than the submission's output
//!    limit of what the submission sent): the flood is the submission's,
//!    so TLE, as when the submission's own time ends a flood;
//! 2. the validator rejected (43) and exited first → WA, even if the
//!    submission then hangs or dies of SIGPIPE;
//! 3. the submission's limit (TLE, MLE, OLE), then its crash (RTE);
//! 4. the validator's verdict: 43 → WA; 42 with `nextpass.in` → the next
//!    pass; 42 → AC.

use crate::runner::termination::{crash_verdict, granted_note, limit_verdict, TimeNotes};
use crate::sandbox::{LimitExceeded, Limits, Termination};
use crate::verdict::Verdict;

/// How one program of the pair ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Ended {
    pub(crate) termination: Termination,
    pub(crate) limit: Option<LimitExceeded>,
    pub(crate) cpu_time_ms: u64,
    pub(crate) wall_time_ms: u64,
    /// Wall clock the sandbox added past its limit for the time it waited
    /// for a CPU the host gave others (issue 32).
    pub(crate) wall_granted_ms: u64,
    /// The supervisor ended it (the submission after a rejection, the
    /// validator when it outlived the submission by its own wall limit).
    pub(crate) stopped: bool,
}

impl Ended {
    /// Exited with `code` within its limits.
    pub(crate) fn exited(code: i32) -> Ended {
        Ended {
            termination: Termination::Exited(code),
            limit: None,
            cpu_time_ms: 0,
            wall_time_ms: 0,
            wall_granted_ms: 0,
            stopped: false,
        }
    }
}

/// Everything the decision of one pass needs.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PassFacts<'a> {
    /// "output validator `validate.cpp`".
    pub(crate) validator_label: &'a str,
    /// How the messages call the program the submission talks to: "the
    /// validator" (Kattis), "the interactor" (testlib), "the judge".
    pub(crate) peer: &'a str,
    pub(crate) validator: Ended,
    pub(crate) validator_limits: &'a Limits,
    pub(crate) submission: Ended,
    pub(crate) submission_limits: &'a Limits,
    /// The submission wrote more than its output limit to the validator.
    pub(crate) submission_flooded: bool,
    /// When the submission sent the validator more than its output limit
    /// (which does not bound an exchange), how much and how much of it the
    /// validator read, in words ([`super::relay::Relayed::sent`]); empty
    /// otherwise. A time limit's message then says it in place of
    /// `waiting`, whose bytes in flight are a matter of timing.
    pub(crate) sent: &'a str,
    /// The validator had read more than the submission's output limit of
    /// what it sent: its CPU time or memory went on the flood.
    pub(crate) validator_swamped: bool,
    /// The validator's process ended before the submission's.
    pub(crate) validator_first: bool,
    /// Who waited for whom when the pair ended, for a TLE's message.
    pub(crate) waiting: &'a str,
    /// The validator's `judgemessage.txt` (or its stderr), trimmed.
    pub(crate) feedback: &'a str,
    /// The validator wrote `feedback_dir/nextpass.in`.
    pub(crate) wrote_next_pass: bool,
    /// This pass (1-based) and the most there may be.
    pub(crate) pass: u32,
    pub(crate) passes: u32,
}

/// What a pass decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum PassVerdict {
    Final(Verdict, String),
    /// Run the submission again, with `nextpass.in` as the new input.
    NextPass,
}

pub(crate) use crate::interaction::{KATTIS_ACCEPT as ACCEPT, KATTIS_REJECT as REJECT};

fn judge_error(message: String) -> PassVerdict {
    PassVerdict::Final(Verdict::JudgeError, message)
}

/// Decides one pass; see the module's order.
pub(crate) fn decide_pass(facts: &PassFacts<'_>) -> PassVerdict {
    let label = facts.validator_label;
    let validator = facts.validator;
    let of_pass = if facts.passes > 1 {
        format!(" in pass {} of {}", facts.pass, facts.passes)
    } else {
        String::new()
    };
    if let Some(message) = swamped(facts) {
        return PassVerdict::Final(Verdict::TimeLimitExceeded, format!("{message}{of_pass}"));
    }
    if let Some(fault) = validator_fault(facts) {
        return judge_error(format!("{label} {fault}{of_pass}"));
    }
    let Termination::Exited(code) = validator.termination else {
        return judge_error(format!("{label} ended without an exit code{of_pass}"));
    };
    if code != ACCEPT && code != REJECT {
        return judge_error(format!(
            "{label} exited with code {code}{of_pass}; the Kattis protocol allows {ACCEPT} \
             (accepted) and {REJECT} (wrong answer){}",
            shown(facts.feedback)
        ));
    }
    let feedback = if facts.feedback.is_empty() {
        format!("{} rejected the interaction", facts.peer)
    } else {
        facts.feedback.to_owned()
    };
    if code == REJECT && facts.validator_first {
        return PassVerdict::Final(Verdict::WrongAnswer, format!("{feedback}{of_pass}"));
    }
    if let Some((verdict, message)) = submission_failure(facts) {
        return PassVerdict::Final(verdict, format!("{message}{of_pass}"));
    }
    if code == REJECT {
        return PassVerdict::Final(Verdict::WrongAnswer, format!("{feedback}{of_pass}"));
    }
    if facts.wrote_next_pass {
        if facts.pass >= facts.passes {
            return judge_error(format!(
                "{label} wrote `nextpass.in` in the last pass ({} of {}; `validation_passes` \
                 allows no more)",
                facts.pass, facts.passes
            ));
        }
        return PassVerdict::NextPass;
    }
    let message = if facts.passes > 1 {
        format!(
            "accepted after {} of at most {} passes",
            facts.pass, facts.passes
        )
    } else if facts.feedback.is_empty() {
        format!("accepted by {}", facts.peer)
    } else {
        facts.feedback.to_owned()
    };
    PassVerdict::Final(Verdict::Accepted, message)
}

/// A validator that ran out of CPU time or memory while it read a flood
/// (it had read more than the submission's output limit): the
/// submission's fault, in
/// words that say what the validator used up and what was sent.
fn swamped(facts: &PassFacts<'_>) -> Option<String> {
    if !facts.validator_swamped || facts.sent.is_empty() {
        return None;
    }
    let used = match facts.validator.limit? {
        LimitExceeded::CpuTime => {
            format!("its {} ms of CPU time", facts.validator_limits.cpu_time_ms)
        }
        LimitExceeded::Memory => format!(
            "its {} MiB of memory",
            facts.validator_limits.memory_kib / 1024
        ),
        _ => return None,
    };
    Some(format!(
        "time limit exceeded: the submission flooded the {}, which used up {used} reading it; {}",
        facts.validator_label, facts.sent
    ))
}

/// What the validator did wrong before its exit code means anything.
fn validator_fault(facts: &PassFacts<'_>) -> Option<String> {
    let validator = facts.validator;
    let limits = facts.validator_limits;
    if validator.stopped {
        return Some(format!(
            "did not exit within {} ms after the submission ended ({})",
            limits.wall_time_ms, facts.waiting
        ));
    }
    let what = match validator.limit {
        Some(LimitExceeded::CpuTime) => format!(
            "timed out: it used more than {} ms of CPU",
            limits.cpu_time_ms
        ),
        Some(LimitExceeded::WallTime) => format!(
            "timed out: it ran for more than {} ms ({})",
            validator.wall_time_ms, facts.waiting
        ),
        Some(LimitExceeded::Memory) => {
            format!("used more than {} MiB of memory", limits.memory_kib / 1024)
        }
        Some(LimitExceeded::Output) => "wrote more than its output limit".to_owned(),
        Some(LimitExceeded::Scratch) => "filled its scratch space".to_owned(),
        None => match validator.termination {
            Termination::Signaled(signal) => format!("was killed by signal {signal}"),
            Termination::Exited(_) => return None,
        },
    };
    Some(what)
}

/// The submission's own failure: a limit, then a crash.
fn submission_failure(facts: &PassFacts<'_>) -> Option<(Verdict, String)> {
    let submission = facts.submission;
    let limits = facts.submission_limits;
    if facts.submission_flooded {
        return Some((
            Verdict::OutputLimitExceeded,
            format!(
                "the submission wrote more than {} KiB to {}",
                limits.stdout_bytes / 1024,
                facts.peer
            ),
        ));
    }
    if let Some(limit) = submission.limit {
        let exchange = if facts.sent.is_empty() {
            facts.waiting
        } else {
            facts.sent
        };
        // The wall clock added for a wait for a CPU first, as a run on a
        // file says it: the limit the message names was not the whole of it.
        let wall = [
            granted_note(submission.wall_granted_ms),
            exchange.to_owned(),
        ]
        .into_iter()
        .filter(|note| !note.is_empty())
        .collect::<Vec<_>>()
        .join("; ");
        let notes = TimeNotes {
            cpu: facts.sent,
            wall: &wall,
        };
        return Some(limit_verdict(limit, limits, submission.cpu_time_ms, &notes));
    }
    crash_verdict(submission.termination)
}

fn shown(feedback: &str) -> String {
    if feedback.is_empty() {
        String::new()
    } else {
        format!("; it said: {feedback}")
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use test_case::test_case;

    /// The limits of a test's programs, shared with the testlib table.
    pub(in crate::runner::interactive) fn limits() -> Limits {
        Limits {
            cpu_time_ms: 1000,
            wall_time_ms: 3000,
            memory_kib: 262_144,
            stdout_bytes: 65_536,
            stderr_bytes: 4096,
            processes: 1,
            open_files: 16,
            file_size_kib: 1024,
            scratch_kib: 1024,
        }
    }

    fn killed() -> Ended {
        Ended {
            termination: Termination::Signaled(libc::SIGKILL),
            ..Ended::exited(0)
        }
    }

    fn limit(limit: LimitExceeded) -> Ended {
        Ended {
            limit: Some(limit),
            ..killed()
        }
    }

    fn signaled(signal: i32) -> Ended {
        Ended {
            termination: Termination::Signaled(signal),
            ..Ended::exited(0)
        }
    }

    fn stopped() -> Ended {
        Ended {
            stopped: true,
            ..killed()
        }
    }

    /// One pass of `validator` against `submission`, both under `limits`,
    /// with nothing else to say: each test (and the testlib table) sets
    /// what it is about.
    pub(in crate::runner::interactive) fn facts<'a>(
        limits: &'a Limits,
        validator_label: &'a str,
        validator: Ended,
        submission: Ended,
    ) -> PassFacts<'a> {
        PassFacts {
            validator_label,
            peer: "the validator",
            validator,
            validator_limits: limits,
            submission,
            submission_limits: limits,
            submission_flooded: false,
            sent: "",
            validator_swamped: false,
            validator_first: false,
            waiting: "",
            feedback: "",
            wrote_next_pass: false,
            pass: 1,
            passes: 1,
        }
    }

    /// What a flood's messages say was sent and read.
    const FLOOD_SENT: &str =
        "the submission had sent the validator 50.2 MiB (...) and the validator had read 50.1 MiB";

    /// The verdict and message of a pass that asks for no next pass.
    fn final_verdict(facts: &PassFacts<'_>) -> (Verdict, String) {
        let PassVerdict::Final(verdict, message) = decide_pass(facts) else {
            panic!("no next pass was asked for");
        };
        (verdict, message)
    }

    /// (validator, submission, validator exited first) → verdict.
    #[test_case(Ended::exited(42), Ended::exited(0), false, Verdict::Accepted ; "accepted")]
    #[test_case(Ended::exited(42), Ended::exited(0), true, Verdict::Accepted ; "accepted, validator first")]
    #[test_case(Ended::exited(43), Ended::exited(0), false, Verdict::WrongAnswer ; "rejected")]
    #[test_case(Ended::exited(43), stopped(), true, Verdict::WrongAnswer ; "rejected first, the submission hangs")]
    #[test_case(Ended::exited(43), signaled(libc::SIGPIPE), true, Verdict::WrongAnswer ; "rejected first, SIGPIPE")]
    #[test_case(Ended::exited(43), limit(LimitExceeded::CpuTime), true, Verdict::WrongAnswer ; "rejected first, then TLE")]
    #[test_case(Ended::exited(43), limit(LimitExceeded::WallTime), false, Verdict::TimeLimitExceeded ; "TLE first, then rejected")]
    #[test_case(Ended::exited(43), signaled(libc::SIGSEGV), false, Verdict::RuntimeError ; "crash first, then rejected")]
    #[test_case(Ended::exited(42), limit(LimitExceeded::CpuTime), true, Verdict::TimeLimitExceeded ; "accepted, then TLE")]
    #[test_case(Ended::exited(42), signaled(libc::SIGABRT), true, Verdict::RuntimeError ; "accepted, then a crash")]
    #[test_case(Ended::exited(42), Ended::exited(3), false, Verdict::RuntimeError ; "accepted, exit code 3")]
    #[test_case(Ended::exited(42), limit(LimitExceeded::Memory), false, Verdict::MemoryLimitExceeded ; "accepted, MLE")]
    #[test_case(Ended::exited(42), limit(LimitExceeded::CpuTime), false, Verdict::TimeLimitExceeded ; "TLE before RTE")]
    #[test_case(Ended::exited(0), Ended::exited(0), true, Verdict::JudgeError ; "validator exit 0")]
    #[test_case(Ended::exited(1), limit(LimitExceeded::CpuTime), false, Verdict::JudgeError ; "validator exit 1 beats TLE")]
    #[test_case(signaled(libc::SIGSEGV), signaled(libc::SIGPIPE), true, Verdict::JudgeError ; "validator crash")]
    #[test_case(limit(LimitExceeded::CpuTime), Ended::exited(0), false, Verdict::JudgeError ; "validator CPU")]
    #[test_case(limit(LimitExceeded::WallTime), limit(LimitExceeded::WallTime), false, Verdict::JudgeError ; "validator wall")]
    #[test_case(stopped(), Ended::exited(0), false, Verdict::JudgeError ; "validator outlived the submission")]
    fn the_precedence_of_trusted_judges(
        validator: Ended,
        submission: Ended,
        validator_first: bool,
        expected: Verdict,
    ) {
        let limits = limits();
        let facts = PassFacts {
            validator_first,
            waiting: "the validator was waiting for the submission",
            ..facts(&limits, "output validator `v.cpp`", validator, submission)
        };
        match decide_pass(&facts) {
            PassVerdict::Final(verdict, message) => {
                assert_eq!(verdict, expected, "{message}");
                if verdict == Verdict::JudgeError {
                    assert!(message.starts_with("output validator `v.cpp`"), "{message}");
                }
            }
            PassVerdict::NextPass => panic!("no next pass was asked for"),
        }
    }

    /// See: issue #15. A submission that flooded the validator (sent it
    /// more than its output limit) and ran out of time is TLE, never OLE,
    /// and the message says what was sent and read, not the racy bytes in
    /// flight; a validator that failed first is still the package's fault.
    #[test_case(LimitExceeded::CpuTime, Ended::exited(43), Verdict::TimeLimitExceeded ; "cpu")]
    #[test_case(LimitExceeded::WallTime, Ended::exited(43), Verdict::TimeLimitExceeded ; "wall")]
    #[test_case(LimitExceeded::WallTime, limit(LimitExceeded::CpuTime), Verdict::JudgeError ; "the validator's own limit first")]
    fn a_flood_is_a_time_limit_that_says_what_was_sent(
        submission_limit: LimitExceeded,
        validator: Ended,
        expected: Verdict,
    ) {
        let limits = limits();
        let sent = FLOOD_SENT;
        let facts = PassFacts {
            sent,
            waiting: "the validator had not read 30368 bytes the submission sent",
            ..facts(
                &limits,
                "interactor `i.py`",
                validator,
                limit(submission_limit),
            )
        };
        let (verdict, message) = final_verdict(&facts);
        assert_eq!(verdict, expected, "{message}");
        if verdict == Verdict::TimeLimitExceeded {
            assert!(message.ends_with(&format!("; {sent}")), "{message}");
            assert!(!message.contains("had not read"), "{message}");
        }
    }

    /// See: issue 32. A submission's wall-clock TLE names the wall clock
    /// the sandbox added for its wait for a CPU, then who waited for whom,
    /// as a run on a file says it; one given none says only who waited.
    #[test_case(1200, "wall-clock time exceeded 3000 ms (CPU time 543 ms); 1200 ms of wall clock \
                       were added to the limit for the time the program waited for a CPU; \
                       neither side had written anything" ; "granted")]
    #[test_case(0, "wall-clock time exceeded 3000 ms (CPU time 543 ms); neither side had \
                    written anything" ; "none granted")]
    fn a_wall_clock_tle_says_the_wall_clock_added(wall_granted_ms: u64, expected: &str) {
        let limits = limits();
        let submission = Ended {
            cpu_time_ms: 543,
            wall_time_ms: 3000 + wall_granted_ms,
            wall_granted_ms,
            ..limit(LimitExceeded::WallTime)
        };
        let facts = PassFacts {
            waiting: "neither side had written anything",
            ..facts(
                &limits,
                "output validator `v`",
                Ended::exited(REJECT),
                submission,
            )
        };
        assert_eq!(
            final_verdict(&facts),
            (Verdict::TimeLimitExceeded, expected.to_owned())
        );
    }

    /// See: issue #15. A validator that used up its CPU time or memory
    /// reading a flood (more than the submission's output limit) is the
    /// submission's TLE; one that read none of it, or ran out of wall time
    /// (waiting), or crashed, is still the package's fault.
    #[test_case(limit(LimitExceeded::CpuTime), true, Verdict::TimeLimitExceeded ; "cpu used reading")]
    #[test_case(limit(LimitExceeded::Memory), true, Verdict::TimeLimitExceeded ; "memory used reading")]
    #[test_case(limit(LimitExceeded::CpuTime), false, Verdict::JudgeError ; "cpu used not reading")]
    #[test_case(limit(LimitExceeded::WallTime), true, Verdict::JudgeError ; "wall time")]
    #[test_case(signaled(libc::SIGSEGV), true, Verdict::JudgeError ; "crashed")]
    #[test_case(stopped(), true, Verdict::JudgeError ; "outlived the submission")]
    fn a_validator_swamped_by_a_flood_is_the_submissions_time_limit(
        validator: Ended,
        swamped: bool,
        expected: Verdict,
    ) {
        let limits = limits();
        let sent = FLOOD_SENT;
        let facts = PassFacts {
            sent,
            validator_swamped: swamped,
            validator_first: true,
            ..facts(&limits, "output validator `v`", validator, stopped())
        };
        let (verdict, message) = final_verdict(&facts);
        assert_eq!(verdict, expected, "{message}");
        if verdict == Verdict::TimeLimitExceeded {
            assert!(
                message.starts_with(
                    "time limit exceeded: the submission flooded the output \
                                     validator `v`, which used up its "
                ) && message.ends_with(&format!("reading it; {sent}")),
                "{message}"
            );
        } else {
            assert!(message.starts_with("output validator `v` "), "{message}");
        }
    }

    #[test_case(43, true, 1, 2, None ; "rejected with a next pass is WA")]
    #[test_case(42, true, 1, 2, Some(true) ; "accepted with a next pass runs it")]
    #[test_case(42, true, 2, 2, Some(false) ; "a next pass in the last pass is JE")]
    #[test_case(42, false, 1, 2, Some(false) ; "accepted without one ends")]
    fn multi_pass(code: i32, next: bool, pass: u32, passes: u32, expected_next: Option<bool>) {
        let limits = limits();
        let facts = PassFacts {
            feedback: "no",
            wrote_next_pass: next,
            pass,
            passes,
            ..facts(
                &limits,
                "output validator `v.cpp`",
                Ended::exited(code),
                Ended::exited(0),
            )
        };
        let decided = decide_pass(&facts);
        match expected_next {
            None => assert!(matches!(
                decided,
                PassVerdict::Final(Verdict::WrongAnswer, _)
            )),
            Some(true) => assert_eq!(decided, PassVerdict::NextPass),
            Some(false) => assert!(
                matches!(
                    decided,
                    PassVerdict::Final(Verdict::JudgeError | Verdict::Accepted, _)
                ),
                "{decided:?}"
            ),
        }
        if code == 42 && next && pass == passes {
            assert!(matches!(
                decided,
                PassVerdict::Final(Verdict::JudgeError, _)
            ));
        }
    }
}
