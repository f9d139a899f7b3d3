//! The verdict of a run the sandbox stopped at a limit or that crashed,
//! and the stderr a test's result keeps: one rule for a test run on a file
//! ([`super::execute`]) and for an interactive run ([`super::interactive`]).

use super::events::{stderr_excerpt, TestResult};
use crate::sandbox::{LimitExceeded, Limits, Measured, Termination};
use crate::verdict::Verdict;

/// What a time limit's message adds after its own words (an interactive
/// run: who waited for whom, how much the submission sent).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct TimeNotes<'a> {
    /// After a CPU time limit's message.
    pub(crate) cpu: &'a str,
    /// After a wall-clock limit's message.
    pub(crate) wall: &'a str,
}

/// What a wall-clock TLE adds when the run was given more wall clock for
/// the time it waited for a CPU (issue 32): its limit was not the one it
/// states. Empty when none was added.
pub(crate) fn granted_note(wall_granted_ms: u64) -> String {
    if wall_granted_ms == 0 {
        String::new()
    } else {
        format!(
            "{wall_granted_ms} ms of wall clock were added to the limit for the time the \
             program waited for a CPU"
        )
    }
}

/// The verdict and message of a run the sandbox stopped at `limit`: of a
/// test run on a file and of an interactive run alike.
pub(crate) fn limit_verdict(
    limit: LimitExceeded,
    limits: &Limits,
    cpu_time_ms: u64,
    notes: &TimeNotes<'_>,
) -> (Verdict, String) {
    let noted = |message: String, note: &str| {
        if note.is_empty() {
            message
        } else {
            format!("{message}; {note}")
        }
    };
    match limit {
        LimitExceeded::Output => (
            Verdict::OutputLimitExceeded,
            format!("output exceeded {} KiB", limits.stdout_bytes / 1024),
        ),
        LimitExceeded::Scratch => (
            Verdict::OutputLimitExceeded,
            format!(
                "scratch space full: the files the program wrote reached {} MiB or {} files",
                limits.scratch_kib / 1024,
                crate::sandbox::scratch_files(limits.scratch_kib)
            ),
        ),
        LimitExceeded::Memory => (
            Verdict::MemoryLimitExceeded,
            format!("memory exceeded {} MiB", limits.memory_kib / 1024),
        ),
        LimitExceeded::CpuTime => (
            Verdict::TimeLimitExceeded,
            noted(
                format!("CPU time exceeded {} ms", limits.cpu_time_ms),
                notes.cpu,
            ),
        ),
        LimitExceeded::WallTime => (
            Verdict::TimeLimitExceeded,
            noted(
                format!(
                    "wall-clock time exceeded {} ms (CPU time {cpu_time_ms} ms)",
                    limits.wall_time_ms
                ),
                notes.wall,
            ),
        ),
    }
}

/// RE for a run that was killed by a signal or exited non-zero.
pub(crate) fn crash_verdict(termination: Termination) -> Option<(Verdict, String)> {
    match termination {
        Termination::Signaled(signal) => Some((
            Verdict::RuntimeError,
            format!("killed by signal {signal} ({})", signal_name(signal)),
        )),
        Termination::Exited(code) if code != 0 => {
            Some((Verdict::RuntimeError, format!("exit code {code}")))
        }
        Termination::Exited(_) => None,
    }
}

/// The message of a run that got `verdict`, with the note that the
/// sandbox refuses some calls when it crashed (RE) and its stderr says
/// `Operation not permitted` (see
/// [`super::program_message::refused_call_note`]).
pub(crate) fn with_refused_call_note(verdict: Verdict, message: String, stderr: &[u8]) -> String {
    match super::program_message::refused_call_note(stderr) {
        Some(note) if verdict == Verdict::RuntimeError => format!("{message}; {note}"),
        _ => message,
    }
}

/// The excerpt of a run's stderr that a test's result keeps: with a
/// runtime error only (its traceback); the hand-in's own paths are put
/// back by the caller.
pub(crate) fn runtime_stderr(verdict: Verdict, stderr: &[u8], discarded: u64) -> Option<String> {
    if verdict != Verdict::RuntimeError {
        return None;
    }
    stderr_excerpt(stderr, discarded)
}

/// "signal 11 (SIGSEGV)", or "signal 64" for one without a name here.
pub(crate) fn signal_words(signal: i32) -> String {
    match signal_name(signal) {
        "signal" => format!("signal {signal}"),
        name => format!("signal {signal} ({name})"),
    }
}

pub(crate) fn signal_name(signal: i32) -> &'static str {
    match signal {
        libc::SIGHUP => "SIGHUP",
        libc::SIGINT => "SIGINT",
        libc::SIGQUIT => "SIGQUIT",
        libc::SIGTRAP => "SIGTRAP",
        libc::SIGUSR1 => "SIGUSR1",
        libc::SIGUSR2 => "SIGUSR2",
        libc::SIGALRM => "SIGALRM",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGABRT => "SIGABRT",
        libc::SIGFPE => "SIGFPE",
        libc::SIGKILL => "SIGKILL",
        libc::SIGBUS => "SIGBUS",
        libc::SIGILL => "SIGILL",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGTERM => "SIGTERM",
        libc::SIGXFSZ => "SIGXFSZ",
        libc::SIGXCPU => "SIGXCPU",
        libc::SIGSYS => "SIGSYS",
        _ => "signal",
    }
}

/// A run's measurements (CPU, wall clock, memory, how it ended) into its
/// test's result.
pub(crate) fn record_run(result: &mut TestResult, measured: &Measured) {
    result.time_ms = measured.cpu_time_ms;
    result.wall_ms = measured.wall_time_ms;
    result.memory_kib = measured.memory_kib;
    result.cpu_wait_ms = measured.run_queue_wait_ms;
    match measured.termination {
        Termination::Exited(code) => result.exit_code = Some(code),
        Termination::Signaled(signal) => result.signal = Some(signal),
    }
}
