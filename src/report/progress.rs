//! Progress on stderr, drawn only when stderr is a terminal: `judge
//! stress`'s line (one line rewritten in place on a terminal, else one line
//! per phase: a CI log wants no carriage returns, issue #10), and the bar of
//! `judge run`, `judge grade` and `judge grade --package`, which ticks every
//! second while a program runs (issue #17) and is hidden in a pipe or with
//! `-q`.

use crate::verdict::Verdict;
use std::io::IsTerminal as _;
use std::time::Duration;

/// What `judge stress`'s search is doing, for a progress line or a line
/// per phase: the search (`stress::search`) tells it, this module draws it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum StressProgress {
    /// `done` of at most `total` random tests have passed.
    Testing { done: u64, total: u64 },
    /// Random test `iteration` failed with `verdict`.
    Found { iteration: u64, verdict: Verdict },
    /// Shrinking a TLE runs candidates at this CPU limit: the shortest tried
    /// at which the failing input still times out.
    ShrinkTimeLimit { time_limit_ms: u64 },
    /// Shrinking: `steps` smaller inputs taken, `runs` tried of at most
    /// `budget` (`--shrink-runs`); the smallest failing input so far is
    /// `bytes` long, the one found `found_bytes`.
    Shrinking {
        steps: usize,
        runs: usize,
        budget: usize,
        bytes: usize,
        found_bytes: usize,
    },
}

/// Renders [`StressProgress`] events.
pub(crate) struct StressReporter {
    /// On a terminal, the line rewritten in place, with a clock that ticks
    /// every second while a long step (a shrink step validating many
    /// candidates) gives no event (issue #32); `None` elsewhere.
    line: Option<indicatif::ProgressBar>,
    terminal: bool,
    /// The kind of the last event shown as a line, so each phase is one line.
    last_phase: Option<std::mem::Discriminant<StressProgress>>,
}

impl StressReporter {
    pub(crate) fn new() -> StressReporter {
        let line = std::io::stderr().is_terminal().then(|| {
            let line = indicatif::ProgressBar::new_spinner();
            let style = indicatif::ProgressStyle::with_template("{elapsed:>4} {wide_msg}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner());
            line.set_style(style);
            line.enable_steady_tick(Duration::from_secs(1));
            line
        });
        StressReporter {
            terminal: line.is_some(),
            line,
            last_phase: None,
        }
    }

    /// Shows one event.
    pub(crate) fn show(&mut self, event: StressProgress) {
        if self.terminal {
            if let Some(line) = &self.line {
                line.set_message(stress_progress(event));
            }
            return;
        }
        let phase = std::mem::discriminant(&event);
        if self.last_phase != Some(phase) {
            self.last_phase = Some(phase);
            crate::stderr::say_line(&stress_phase(event));
        }
    }

    /// Runs `write` with the line off the screen, so other output to the
    /// terminal is not drawn over.
    pub(crate) fn suspend<R>(&self, write: impl FnOnce() -> R) -> R {
        match &self.line {
            Some(line) => line.suspend(write),
            None => write(),
        }
    }

    /// Clears the progress line, before the final report.
    pub(crate) fn finish(&mut self) {
        if let Some(line) = self.line.take() {
            line.finish_and_clear();
        }
    }
}

impl Drop for StressReporter {
    fn drop(&mut self) {
        self.finish();
    }
}

/// One line of `judge stress`'s progress.
fn stress_progress(event: StressProgress) -> String {
    use crate::problems::text::plural;
    match event {
        StressProgress::Testing { done, total } => {
            format!("testing: {done}/{total} random tests passed")
        }
        StressProgress::Found { iteration, verdict } => {
            format!("found: {verdict} on random test {iteration}")
        }
        StressProgress::ShrinkTimeLimit { time_limit_ms } => format!(
            "shrinking the TLE at a {time_limit_ms} ms limit (the shortest tried that still fails)"
        ),
        StressProgress::Shrinking {
            steps,
            runs,
            budget,
            bytes,
            found_bytes,
        } => format!(
            "shrinking: {} taken, {runs} of at most {} tried; now {} (from {found_bytes})",
            plural(steps as u64, "step", "steps"),
            plural(budget as u64, "input", "inputs"),
            plural(bytes as u64, "byte", "bytes"),
        ),
    }
}

/// The line of a stress phase when stderr is no terminal: shown once, when
/// the phase starts, so it names the phase without the counts that a
/// terminal's progress line updates (they would all be 0 here).
fn stress_phase(event: StressProgress) -> String {
    match event {
        StressProgress::Testing { total, .. } => format!(
            "testing: up to {}",
            crate::problems::text::plural(total, "random test", "random tests")
        ),
        StressProgress::Shrinking { .. } => "shrinking the failing input".to_owned(),
        other => stress_progress(other),
    }
}

/// What a grading progress line shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ProgressLine {
    /// Submissions graded, of `total`.
    pub(crate) graded: u64,
    pub(crate) total: u64,
    /// The test running of the shown submission's tests (1-based), and how
    /// many it runs; absent while compiling.
    pub(crate) test: Option<(usize, usize)>,
    /// The submission that runs (its path), else the problem.
    pub(crate) running: String,
}

/// The bar of a grading run: `1/3 submissions, test 7/20, 12s —
/// bob/matchsticks.py`, redrawn every second so the clock moves.
pub(crate) struct GradeBar {
    bar: indicatif::ProgressBar,
}

impl GradeBar {
    /// A bar on stderr when stderr is a terminal and not `quiet`; hidden
    /// otherwise, so pipes and CI logs get no progress bytes.
    pub(crate) fn new(quiet: bool) -> GradeBar {
        if quiet || !std::io::stderr().is_terminal() {
            return GradeBar {
                bar: indicatif::ProgressBar::hidden(),
            };
        }
        let bar = indicatif::ProgressBar::new(0);
        let style = indicatif::ProgressStyle::with_template(
            "{bar:12} {pos}/{len} submissions, {prefix}{elapsed} — {wide_msg}",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar());
        bar.set_style(style);
        bar.enable_steady_tick(Duration::from_secs(1));
        GradeBar { bar }
    }

    /// Shows `line`.
    pub(crate) fn show(&self, line: &ProgressLine) {
        self.bar.set_length(line.total);
        self.bar.set_position(line.graded);
        self.bar.set_prefix(match line.test {
            Some((test, tests)) => format!("test {test}/{tests}, "),
            None => String::new(),
        });
        self.bar
            .set_message(super::human::visible_name(&line.running));
    }

    /// Runs `write` with the bar off the screen (output to the same
    /// terminal must not be drawn over).
    pub(crate) fn suspend<R>(&self, write: impl FnOnce() -> R) -> R {
        self.bar.suspend(write)
    }

    /// Removes the bar.
    pub(crate) fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
