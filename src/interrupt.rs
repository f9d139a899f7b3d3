//! Stopping a run early: SIGINT (Ctrl-C) and SIGTERM become a shared
//! [`Cancellation`] that the scheduler checks between items, so `run`,
//! `grade`, `stress` and `gen --package` stop starting work, let what is
//! running end, clean up and report what finished.
//!
//! This module only records *that* (and which) signal arrived; it kills
//! nothing and prints nothing. The handlers are signal-hook's flag setters
//! (async-signal-safe stores into an atomic), not hand-written `sigaction`.
//! A second signal of either kind exits at once with the signal's code, for
//! the user who does not want to wait for the clean-up.
//!
//! A leaf module: it depends on nothing else in the crate, so the sandbox may
//! check a [`Cancellation`] too (to kill a running test at once instead of at
//! its wall-clock limit).

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

/// The signals that stop a run, and what each means for the exit code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Signal {
    /// SIGINT: Ctrl-C at a terminal (the whole foreground process group).
    Interrupt,
    /// SIGTERM: `kill`, a CI runner's timeout, a service manager.
    Terminate,
}

impl Signal {
    fn number(self) -> i32 {
        match self {
            Signal::Interrupt => signal_hook::consts::SIGINT,
            Signal::Terminate => signal_hook::consts::SIGTERM,
        }
    }

    fn from_number(number: usize) -> Option<Signal> {
        [Signal::Interrupt, Signal::Terminate]
            .into_iter()
            .find(|signal| signal.number() as usize == number)
    }

    /// The code of the at-once exit on a second signal: 128 + the signal
    /// number, the shell's convention for "ended by signal N" (130 for
    /// SIGINT, 143 for SIGTERM), as `crate::error::exit_code` gives an
    /// interrupted run that ended cleanly.
    fn forced_exit_code(self) -> i32 {
        128 + self.number()
    }

    /// `SIGINT` or `SIGTERM`, for messages.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Signal::Interrupt => "SIGINT",
            Signal::Terminate => "SIGTERM",
        }
    }
}

/// Signals arriving this soon after the first are the same request.
const REPEAT_WINDOW: std::time::Duration = std::time::Duration::from_secs(1);

/// How often the watcher looks for the first signal.
const SIGNAL_POLL: std::time::Duration = std::time::Duration::from_millis(50);

/// The cancellation [`Cancellation::on_signals`] installed, once it has.
static PROCESS: OnceLock<Cancellation> = OnceLock::new();

/// Whether SIGINT or SIGTERM asked this process to stop. For code that is
/// not handed a [`Cancellation`] and must not wait for its natural end: the
/// sandbox's supervision loop can kill a running test at once when this is
/// true (the runner already drops what finishes after the request).
pub(crate) fn requested() -> bool {
    PROCESS.get().is_some_and(Cancellation::is_cancelled)
}

/// The signal that asked this process to stop, if one did (see
/// [`requested`]).
pub(crate) fn requested_signal() -> Option<Signal> {
    PROCESS.get().and_then(Cancellation::signal)
}

/// A request to stop, shared by everyone who should notice it. Cheap to
/// clone; all clones see the same request.
#[derive(Clone, Debug, Default)]
pub(crate) struct Cancellation {
    /// 0 while nothing was requested, else the number of the signal (the
    /// handlers store it; [`Cancellation::cancel`] stores SIGINT's).
    signal: Arc<AtomicUsize>,
}

/// The signal handlers could not be installed.
#[derive(Debug, thiserror::Error)]
#[error("failed to install the handler of {signal}")]
pub(crate) struct InterruptError {
    signal: &'static str,
    #[source]
    source: std::io::Error,
}

impl Cancellation {
    /// A cancellation that only [`Cancellation::cancel`] triggers.
    pub(crate) fn new() -> Cancellation {
        Cancellation::default()
    }

    /// The process's cancellation, triggered by SIGINT and SIGTERM. The
    /// handlers are installed on the first call and stay for the life of the
    /// process (signal dispositions are process-wide); later calls return the
    /// same cancellation.
    pub(crate) fn on_signals() -> Result<Cancellation, InterruptError> {
        if let Some(cancellation) = PROCESS.get() {
            return Ok(cancellation.clone());
        }
        let cancellation = Cancellation::new();
        let armed = Arc::new(AtomicBool::new(false));
        for signal in [Signal::Interrupt, Signal::Terminate] {
            let error = |source| InterruptError {
                signal: signal.name(),
                source,
            };
            // Order matters (signal-hook's documented double Ctrl-C
            // pattern): the exit runs first, and only once a previous signal
            // has armed it.
            signal_hook::flag::register_conditional_shutdown(
                signal.number(),
                signal.forced_exit_code(),
                Arc::clone(&armed),
            )
            .map_err(error)?;
            signal_hook::flag::register_usize(
                signal.number(),
                Arc::clone(&cancellation.signal),
                signal.number() as usize,
            )
            .map_err(error)?;
        }
        // Armed only a moment after the first signal: a wrapper such as
        // `timeout`, `make` or a terminal's job control often passes one
        // Ctrl-C on two or three times within milliseconds, and those
        // repeats must not count as the impatient second Ctrl-C that skips
        // the clean-up and the reports (found by an adversarial review of
        // issue #8).
        let watched = cancellation.clone();
        std::thread::Builder::new()
            .name("judge-interrupt".to_owned())
            .spawn(move || {
                while !watched.is_cancelled() {
                    std::thread::sleep(SIGNAL_POLL);
                }
                std::thread::sleep(REPEAT_WINDOW);
                armed.store(true, Ordering::SeqCst);
            })
            .map_err(|source| InterruptError {
                signal: "SIGINT",
                source,
            })?;
        Ok(PROCESS.get_or_init(|| cancellation).clone())
    }

    /// Requests the stop as SIGINT would (tests, callers embedding the runner).
    pub(crate) fn cancel(&self) {
        self.signal
            .store(Signal::Interrupt.number() as usize, Ordering::SeqCst);
    }

    /// Whether a stop was requested.
    pub(crate) fn is_cancelled(&self) -> bool {
        self.signal.load(Ordering::SeqCst) != 0
    }

    /// The signal that requested the stop, if any.
    pub(crate) fn signal(&self) -> Option<Signal> {
        Signal::from_number(self.signal.load(Ordering::SeqCst))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clones_share_one_request() {
        let cancellation = Cancellation::new();
        let clone = cancellation.clone();
        assert!(!clone.is_cancelled());
        assert_eq!(clone.signal(), None);
        cancellation.cancel();
        assert!(clone.is_cancelled());
        assert_eq!(clone.signal(), Some(Signal::Interrupt));
    }

    #[test]
    fn forced_exit_codes_are_128_plus_the_signal() {
        assert_eq!(Signal::Interrupt.forced_exit_code(), 130);
        assert_eq!(Signal::Terminate.forced_exit_code(), 143);
    }
}
