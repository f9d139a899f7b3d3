//! A hint: advice on how to fix an error, that any layer's error can carry
//! (uv's `Hint`; uv's style guide: a `hint:` line after a blank line when there
//! is a likely fix). A leaf module, so every layer may use it without
//! depending on the top-level error type.
//!
//! An error says what is wrong; its hint says what to do about it. The
//! error keeps its hint as a value, never inside its message, and the one
//! printer of errors (`cli::report_error`) prints it as `hint: ...` the same
//! way for every layer. Not here: the wording of an error, which stays with
//! the layer that refuses.

use std::borrow::Cow;
use std::fmt;

/// Advice printed after an error as `hint: ...`: one sentence fragment,
/// lowercase, with no trailing period (uv's style guide).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Hint(Cow<'static, str>);

impl Hint {
    /// A hint saying `text`: a fixed sentence (`&'static str`) or one built
    /// from the error's fields (`String`).
    pub(crate) fn new(text: impl Into<Cow<'static, str>>) -> Hint {
        Hint(text.into())
    }
}

/// `message` with its hint after a blank line, as `hint: ...`: for a
/// refusal that is shown as a line of a report (a CE reason) rather than
/// printed as an error, so it reads as the printer of errors would print it.
pub(crate) fn with_hint(message: impl fmt::Display, hint: Option<Hint>) -> String {
    match hint {
        Some(hint) => format!("{message}\n\nhint: {hint}"),
        None => message.to_string(),
    }
}

/// The advice, without the `hint: ` its printer adds.
impl fmt::Display for Hint {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hint_says_its_text_fixed_or_built() {
        let fixed = Hint::new("export into a new folder");
        assert_eq!(fixed.to_string(), "export into a new folder");
        let built = Hint::new(format!("pass `--random {}`", 5));
        assert_eq!(built.to_string(), "pass `--random 5`");
        assert_ne!(fixed, built);
    }

    #[test]
    fn a_message_with_a_hint_has_it_after_a_blank_line() {
        assert_eq!(
            with_hint("refused `a`", Some(Hint::new("copy it"))),
            "refused `a`\n\nhint: copy it"
        );
        assert_eq!(with_hint("refused `a`", None), "refused `a`");
    }
}
