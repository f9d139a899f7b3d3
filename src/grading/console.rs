//! What the grading commands (`judge run`, `judge grade` and `--package`,
//! `judge merge`, `judge report`) say, handed to whoever prints it: the
//! command line's terminal. This layer decides every line, its stream and its order; the
//! printer decides how it reaches the screen (a progress bar drawn on a
//! terminal, kept out of the way of the lines said while it shows, each
//! settings warning once per process). It never decides what is said.

use crate::grading::settings::SettingsWarning;
use crate::hint::Hint;
use crate::report::progress::ProgressLine;

/// Where a grading command's lines go, in the order it says them.
pub(crate) trait Console {
    /// A message line on stderr.
    fn say(&mut self, line: &str);
    /// The advice a command ends with, as `hint: ...` after a blank line.
    fn hint(&mut self, hint: &Hint);
    /// A warning about the settings (each distinct one said once per
    /// process: `judge grade` resolves settings per problem).
    fn warn(&mut self, warning: &SettingsWarning);
    /// Data on stdout (a table, a summary, a submission's tests); a closed
    /// pipe is no error.
    fn write(&mut self, data: &str) -> std::io::Result<()>;
    /// Said before the first program runs: the isolation layers this host
    /// lacks (once per process).
    fn announce_isolation(&mut self);
    /// Progress starts to show: a bar on a terminal, unless `quiet`; the
    /// lines said until [`Console::end_progress`] must not be drawn over.
    fn start_progress(&mut self, quiet: bool);
    /// The progress line now.
    fn progress(&mut self, line: &ProgressLine);
    /// Progress no longer shows.
    fn end_progress(&mut self);
}

/// A console that keeps what it is told, in order: `say` lines as `2 ...`
/// (stderr), `write` data as `1 ...` (stdout), or fails every write.
#[cfg(test)]
#[derive(Default)]
pub(crate) struct Recording {
    pub(crate) told: Vec<String>,
    pub(crate) stdout_fails: bool,
}

#[cfg(test)]
impl Console for Recording {
    fn say(&mut self, line: &str) {
        self.told.push(format!("2 {line}"));
    }
    fn hint(&mut self, hint: &crate::hint::Hint) {
        self.told.push(format!("2 hint: {hint}"));
    }
    fn warn(&mut self, warning: &crate::grading::settings::SettingsWarning) {
        self.told.push(format!("2 warning: {warning}"));
    }
    fn write(&mut self, data: &str) -> std::io::Result<()> {
        if self.stdout_fails {
            return Err(std::io::Error::other("pipe"));
        }
        self.told.push(format!("1 {data}"));
        Ok(())
    }
    fn announce_isolation(&mut self) {}
    fn start_progress(&mut self, _quiet: bool) {}
    fn progress(&mut self, _line: &crate::report::progress::ProgressLine) {}
    fn end_progress(&mut self) {}
}
