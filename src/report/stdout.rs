//! The one writer of data to stdout (and what it remembers about a closed
//! pipe); message lines to stderr are `crate::stderr`'s.
//!
//! The judge ignores SIGPIPE, so a reader that goes away (`| head -1`) shows up
//! as `EPIPE` on the next write. That is not a failure of the command, but it
//! must not become a success either: every write goes through
//! [`write_stdout`], which records the broken pipe, stops writing and lets the
//! command finish and exit with the code its result deserves (issue #10:
//! `judge run ... | head -1` exited 0 on a wrong answer).

use std::io::Write as _;
use std::sync::atomic::{AtomicBool, Ordering};

/// Set once a write to stdout met a closed pipe; later writes are skipped.
static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);

/// Writes data to stdout. A closed pipe is remembered and swallowed; any other
/// error (a full disk behind a redirect) is returned.
pub(crate) fn write_stdout(data: &str) -> std::io::Result<()> {
    if stdout_closed() {
        return Ok(());
    }
    let mut stdout = std::io::stdout().lock();
    let written = stdout
        .write_all(data.as_bytes())
        .and_then(|()| stdout.flush());
    match written {
        Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => {
            STDOUT_CLOSED.store(true, Ordering::Relaxed);
            Ok(())
        }
        other => other,
    }
}

/// Whether the reader of stdout has gone away; a command with only stdout
/// left to produce (`judge gen` without `--out`) may stop early.
pub(crate) fn stdout_closed() -> bool {
    STDOUT_CLOSED.load(Ordering::Relaxed)
}

/// Whether to colour stdout when the user left it to the judge: only on a
/// terminal, and never with `NO_COLOR` set to something (no-color.org:
/// "present and not an empty string"). The one reading of `NO_COLOR`.
pub(crate) fn colour_stdout() -> bool {
    use std::io::IsTerminal as _;
    std::io::stdout().is_terminal()
        && std::env::var_os("NO_COLOR").is_none_or(|value| value.is_empty())
}
