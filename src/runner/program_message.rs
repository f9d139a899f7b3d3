//! What a program said, as a message shows it: cut to a size, and the
//! uncaught exception a runtime reported on its stderr. The runner's own
//! interactors and a package's programs ([`crate::external`]) alike.

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
    fn a_long_text_is_cut_at_a_character_boundary_with_a_note() {
        assert_eq!(cut("short", 10), "short");
        assert_eq!(cut("aé", 2), "a... (2 more bytes not shown)");
    }
}
