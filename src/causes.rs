//! An error with its causes in one line, for messages at any layer (a
//! leaf module: every layer may use it without depending on the top-level
//! error type).

/// An error and its causes, `: `-separated.
pub(crate) fn chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut cause = error.source();
    while let Some(next) = cause {
        text.push_str(": ");
        text.push_str(&next.to_string());
        cause = next.source();
    }
    text
}
