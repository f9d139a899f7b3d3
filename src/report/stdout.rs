//! The one writer of data to stdout (and what it remembers about a closed
//! pipe), and of message lines to stderr.
//!
//! The judge ignores SIGPIPE, so a reader that goes away (`| head -1`) shows up
//! as `EPIPE` on the next write. That is not a failure of the command, but it
//! must not become a success either: every write goes through
//! [`write_stdout`], which records the broken pipe, stops writing and lets the
//! command finish and exit with the code its result deserves (issue #10:
//! `judge run ... | head -1` exited 0 on a wrong answer).
//!
//! Messages go to stderr through [`say_line`]: one line, one write.

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

/// Writes one message line to stderr in a single `write` (stderr is
/// unbuffered, and `eprintln!` writes the text and its newline apart: a
/// process sharing the judge's stderr — a CI step, a container's shell — could
/// put its own line between them, as one did in the VM test of a shared
/// container root). Errors writing a message have nowhere to go and are
/// dropped.
pub(crate) fn say_line(message: &str) {
    let _ = line_to(&mut std::io::stderr().lock(), message);
}

/// `message` and its newline, handed to `out` in one `write_all`.
fn line_to(out: &mut impl std::io::Write, message: &str) -> std::io::Result<()> {
    let mut line = String::with_capacity(message.len() + 1);
    line.push_str(message);
    line.push('\n');
    out.write_all(line.as_bytes())
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

#[cfg(test)]
mod tests {
    use super::line_to;

    /// Records every `write` it is handed.
    #[derive(Default)]
    struct Writes(Vec<Vec<u8>>);

    impl std::io::Write for Writes {
        fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
            self.0.push(data.to_vec());
            Ok(data.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_message_line_is_one_write_with_its_newline() {
        let mut writes = Writes::default();
        line_to(&mut writes, "note: cgroup v2: moved 4 other process(es)").unwrap();
        assert_eq!(
            writes.0,
            [b"note: cgroup v2: moved 4 other process(es)\n".to_vec()],
            "a line in pieces lets another process's line in between"
        );
    }
}
