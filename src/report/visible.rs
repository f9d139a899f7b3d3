//! Text a submission or a student controls, made safe to print: control
//! characters shown visible, so no name or message can move the cursor or
//! draw a fake result in a terminal.

use std::fmt::Write;

/// `text` with every control character made visible (`\x1b`, `\x0d`) and
/// every invisible format or separator character (Unicode general
/// categories Cf, Zl and Zp: `\u{202e}`, `\u{200b}`, `\u{2028}`, tag
/// characters) written as its code, so bytes a submission controls (a
/// compiler's message quoting its source, a checker message quoting its
/// output, a file name) cannot move the cursor, clear the screen, draw a
/// fake result in the terminal, reorder a line or make two names look the
/// same (`alice` and `al\u{200b}ice`; issue 18). Tabs stay; line breaks
/// are the caller's to split on.
pub(crate) fn visible(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for character in text.chars() {
        if !write_visible(&mut out, character) {
            out.push(character);
        }
    }
    out
}

/// Writes `character` to `out` made visible when it must be (see
/// [`visible`]; a tab and a line break never must), and says whether it
/// did: the one rule the terminal, the reports and the HTML pages share.
pub(crate) fn write_visible(out: &mut String, character: char) -> bool {
    use unicode_general_category::{get_general_category, GeneralCategory};
    let code = u32::from(character);
    if character == '\t' || character == '\n' {
        false
    } else if character.is_control() {
        let _ = write!(out, "\\x{code:02x}");
        true
    } else if character.is_ascii() {
        false
    } else if matches!(
        get_general_category(character),
        GeneralCategory::Format
            | GeneralCategory::LineSeparator
            | GeneralCategory::ParagraphSeparator
    ) || (0xe0000..=0xe007f).contains(&code)
    {
        let _ = write!(out, "\\u{{{code:04x}}}");
        true
    } else {
        false
    }
}

/// A name a student controls (a file or folder name, a student's name),
/// on one line: [`visible`], with tabs and line breaks made visible too
/// (a line break in a file name would start a fake line of output).
pub(crate) fn visible_name(text: &str) -> String {
    visible(text).replace('\t', "\\t").replace('\n', "\\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Letters of any script stay; controls, carriage returns and the
    /// invisible format and separator characters are written as codes.
    #[test]
    fn format_and_separator_characters_are_codes_and_letters_stay() {
        assert_eq!(visible("Zoë 李 ج"), "Zoë 李 ج");
        assert_eq!(visible("al\u{200b}ice"), "al\\u{200b}ice");
        assert_eq!(
            visible("a\r\u{2028}\u{2029}\u{feff}\u{61c}\u{2064}\u{e0001}\u{e0000}"),
            "a\\x0d\\u{2028}\\u{2029}\\u{feff}\\u{061c}\\u{2064}\\u{e0001}\\u{e0000}"
        );
        assert_eq!(visible("\t\n"), "\t\n");
    }
}
