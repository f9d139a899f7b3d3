//! `judge stress`'s progress on stderr: one line rewritten in place on a
//! terminal, else one line per phase (a CI log wants no carriage returns).
//! See: issue #10. And `judge grade`'s bar.

use crate::runner::stress::StressProgress;
use std::io::{IsTerminal as _, Write as _};

/// Renders [`StressProgress`] events.
pub(super) struct StressReporter {
    terminal: bool,
    /// The kind of the last event shown as a line, so each phase is one line.
    last_phase: Option<std::mem::Discriminant<StressProgress>>,
    /// A progress line is on screen and must be cleared before other output.
    line_shown: bool,
}

impl StressReporter {
    pub(super) fn new() -> StressReporter {
        StressReporter {
            terminal: std::io::stderr().is_terminal(),
            last_phase: None,
            line_shown: false,
        }
    }

    /// Shows one event.
    #[expect(clippy::print_stderr, reason = "stress progress goes to stderr")]
    pub(super) fn show(&mut self, event: StressProgress) {
        if self.terminal {
            eprint!("\r\x1b[2K{}", crate::report::human::stress_progress(event));
            let _ = std::io::stderr().flush();
            self.line_shown = true;
            return;
        }
        let phase = std::mem::discriminant(&event);
        if self.last_phase != Some(phase) {
            self.last_phase = Some(phase);
            eprintln!("{}", crate::report::human::stress_phase(event));
        }
    }

    /// Clears the progress line, before the final report.
    #[expect(clippy::print_stderr, reason = "stress progress goes to stderr")]
    pub(super) fn finish(&mut self) {
        if self.line_shown {
            eprint!("\r\x1b[2K");
            self.line_shown = false;
        }
    }
}

/// A bar on stderr when stderr is a terminal; hidden otherwise, so CI logs
/// stay clean.
pub(super) fn grade_bar(length: u64, quiet: bool) -> indicatif::ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(length);
    let style = indicatif::ProgressStyle::with_template(
        "{bar:30} {pos}/{len} submissions graded, {elapsed} ({msg})",
    )
    .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar());
    bar.set_style(style);
    bar
}
