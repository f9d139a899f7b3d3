//! Text a submission or a student controls, made safe to print: control
//! characters shown visible, so no name or message can move the cursor or
//! draw a fake result in a terminal.

use std::fmt::Write;

/// `text` with every control character made visible (`\x1b`, `\u{202e}`),
/// so bytes a submission controls (a compiler's message quoting its source,
/// a checker message quoting its output, a file name) cannot move the
/// cursor, clear the screen or draw a fake result in the terminal (issue
/// 18). Tabs stay; line breaks are the caller's to split on.
pub(crate) fn visible(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for character in text.chars() {
        let code = u32::from(character);
        let bidi = matches!(code, 0x200e | 0x200f | 0x202a..=0x202e | 0x2066..=0x2069);
        if character == '\t' || character == '\n' {
            out.push(character);
        } else if character.is_control() {
            let _ = write!(out, "\\x{code:02x}");
        } else if bidi {
            let _ = write!(out, "\\u{{{code:04x}}}");
        } else {
            out.push(character);
        }
    }
    out
}

/// A name a student controls (a file or folder name, a student's name),
/// on one line: [`visible`], with tabs and line breaks made visible too
/// (a line break in a file name would start a fake line of output).
pub(crate) fn visible_name(text: &str) -> String {
    visible(text).replace('\t', "\\t").replace('\n', "\\n")
}
