//! The terminal of the grading commands (`run`, `grade`, `grade
//! --package`, `merge`, `report`): prints what the grading layer says, in its order
//! ([`Console`]), drawing the progress bar on a terminal and keeping it out
//! of the way of every line said while it shows. It decides nothing.

use crate::grading::console::Console;
use crate::grading::settings::SettingsWarning;
use crate::hint::Hint;
use crate::report::progress::{GradeBar, ProgressLine};

/// Standard output and standard error, with the progress bar while one
/// shows.
#[derive(Default)]
pub(super) struct Terminal {
    bar: Option<GradeBar>,
}

impl Terminal {
    /// Runs `print` with the bar, if one shows, off the screen.
    fn around_bar<R>(&self, print: impl FnOnce() -> R) -> R {
        match &self.bar {
            Some(bar) => bar.suspend(print),
            None => print(),
        }
    }
}

impl Console for Terminal {
    fn say(&mut self, line: &str) {
        self.around_bar(|| super::say(line));
    }

    fn hint(&mut self, hint: &Hint) {
        self.around_bar(|| super::say_hint(hint));
    }

    fn warn(&mut self, warning: &SettingsWarning) {
        self.around_bar(|| super::say_settings(warning));
    }

    fn write(&mut self, data: &str) -> std::io::Result<()> {
        self.around_bar(|| crate::report::stdout::write_stdout(data))
    }

    fn announce_isolation(&mut self) {
        self.around_bar(super::announce_isolation);
    }

    fn start_progress(&mut self, quiet: bool) {
        self.bar = Some(GradeBar::new(quiet));
    }

    fn progress(&mut self, line: &ProgressLine) {
        if let Some(bar) = &self.bar {
            bar.show(line);
        }
    }

    fn end_progress(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish();
        }
    }
}
