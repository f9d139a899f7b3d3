//! What the grading commands (`judge run`, `judge grade` and `--package`,
//! `judge merge`) say, handed to whoever prints it: the command line's
//! terminal. This layer decides every line, its stream and its order; the
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
