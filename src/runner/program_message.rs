//! What a program said, as a message shows it: cut to a size, and the
//! uncaught exception a runtime reported on its stderr. The runner's own
//! interactors and a package's programs (`crate::external`) alike.

/// A checker's, validator's or interactor's message longer than this is the
/// program's fault: it is a log, not a reason.
pub(crate) const MAX_MESSAGE_BYTES: usize = 16 * 1024;

/// At most `limit` bytes of `text`, cut at a character boundary, with a note.
pub(crate) fn cut(text: &str, limit: usize) -> String {
    if text.len() <= limit {
        return text.to_owned();
    }
    let mut end = limit;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!(
        "{}... ({} more bytes not shown)",
        &text[..end],
        text.len() - end
    )
}

/// [`cut`] of a message of which `unread` more bytes, past
/// [`MAX_MESSAGE_BYTES`], were never read: the note counts them too and
/// says the message was cut there (issue #34: a message past the bound is
/// cut, never the program's fault).
pub(crate) fn cut_unread(text: &str, limit: usize, unread: u64) -> String {
    if unread == 0 {
        return cut(text, limit);
    }
    let mut end = text.len().min(limit);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!(
        "{}... ({} more bytes not shown: the message was cut at the {MAX_MESSAGE_BYTES} bytes \
         the judge reads)",
        &text[..end],
        (text.len() - end) as u64 + unread
    )
}

/// The note a message about a program adds when its stderr says
/// `Operation not permitted` (glibc's and Python's words for `EPERM`),
/// which is also how the sandbox refuses every program some calls
/// (docs/security.md): a program's own report of such a refusal cannot
/// tell it from a fault of its own (issue #34: BAPCtools' `boolfind`
/// validator runs `touch`, which creates its file and then fails to set
/// its times).
pub(crate) const REFUSED_CALL_NOTE: &str = "note: its stderr says `Operation not permitted`, \
     which is how the sandbox refuses every program some calls: setting a file's times \
     (`touch`, `cp -p`, `tar x`), file locks (`flock`), inotify watches, sockets other than \
     unix ones (docs/security.md)";

/// [`REFUSED_CALL_NOTE`] when `stderr` says `Operation not permitted`.
pub(crate) fn refused_call_note(stderr: &[u8]) -> Option<&'static str> {
    const EPERM: &[u8] = b"Operation not permitted";
    stderr
        .windows(EPERM.len())
        .any(|window| window == EPERM)
        .then_some(REFUSED_CALL_NOTE)
}

/// The reason of an uncaught exception, when `stderr` is a runtime's
/// report of one (Python's traceback, Java's `Exception in thread`, Rust's
/// panic) rather than a checker's or an interactor's message: its last
/// line, or the panic's.
pub(crate) fn uncaught_exception(stderr: &str) -> Option<&str> {
    let last = stderr
        .lines()
        .rev()
        .find(|line| !line.trim().is_empty())?
        .trim();
    let python = stderr
        .lines()
        .any(|line| line.starts_with("Traceback (most recent call last):"));
    let java = stderr
        .lines()
        .any(|line| line.starts_with("Exception in thread \""));
    let rust = stderr
        .lines()
        .find(|line| line.starts_with("thread '") && line.contains("' panicked at "));
    match (python, java, rust) {
        (true, _, _) => Some(last),
        (_, true, _) => stderr
            .lines()
            .find(|line| line.starts_with("Exception in thread \"")),
        (_, _, Some(panic)) => Some(panic),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_uncaught_exception_is_the_runtime_s_report_only() {
        assert_eq!(uncaught_exception("expected 5, got 4"), None);
        assert_eq!(
            uncaught_exception("thread 'main' panicked at src/main.rs:3:5:\nboom"),
            Some("thread 'main' panicked at src/main.rs:3:5:")
        );
    }

    #[test]
    fn a_refused_call_is_noted_only_where_the_stderr_says_eperm() {
        assert_eq!(
            refused_call_note(b"touch: setting times of 'out': Operation not permitted\n"),
            Some(REFUSED_CALL_NOTE)
        );
        assert_eq!(refused_call_note(b"Permission denied"), None);
        assert_eq!(refused_call_note(b""), None);
    }

    #[test]
    fn a_long_text_is_cut_at_a_character_boundary_with_a_note() {
        assert_eq!(cut("short", 10), "short");
        assert_eq!(cut("aé", 2), "a... (2 more bytes not shown)");
    }
}
