//! Text a submission or a student controls, made safe to print: control
//! characters shown visible, so no name or message can move the cursor or
//! draw a fake result in a terminal.

use std::fmt::Write;

/// `text` with every control character made visible (`\x1b`, `\x0d`) and
/// every invisible format or separator character (Unicode general
/// categories Cf, Zl and Zp: `\u{202e}`, `\u{200b}`, `\u{2028}`, tag
/// characters), every other default-ignorable one (variation selectors,
/// fillers), every space but U+0020 (`\u{a0}` looks like a space),
/// unassigned and private-use code points, written as its code, so bytes a submission controls (a
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
            | GeneralCategory::Unassigned
            | GeneralCategory::PrivateUse
    ) || (character != ' '
        && get_general_category(character) == GeneralCategory::SpaceSeparator)
        || DEFAULT_IGNORABLE.iter().any(|range| range.contains(&code))
    {
        let _ = write!(out, "\\u{{{code:04x}}}");
        true
    } else {
        false
    }
}

/// Unicode's default-ignorable code points (DerivedCoreProperties.txt)
/// that are not format characters: marks and fillers a terminal or a
/// browser draws as nothing (U+034F combining grapheme joiner, U+3164
/// Hangul filler, variation selectors U+FE00..U+FE0F and
/// U+E0100..U+E01EF), so `alice` and `alice\u{fe0f}` looked the same
/// (issue 18, fifth red team); and U+2800, the blank Braille pattern.
const DEFAULT_IGNORABLE: &[std::ops::RangeInclusive<u32>] = &[
    0x034f..=0x034f,
    0x115f..=0x1160,
    0x17b4..=0x17b5,
    0x180b..=0x180f,
    0x2800..=0x2800,
    0x3164..=0x3164,
    0xfe00..=0xfe0f,
    0xffa0..=0xffa0,
    0x1d173..=0x1d17a,
    0xe0000..=0xe0fff,
];

/// A name a student controls (a file or folder name, a student's name),
/// on one line: [`visible`], with tabs and line breaks made visible too
/// (a line break in a file name would start a fake line of output).
///
/// A space at either end of the name or next to another space is shown as
/// `\x20`: a terminal table pads names with spaces and a web page folds
/// runs of them, so `alice ` and `alice`, `al  ice` and `al ice` looked the
/// same (issue 18, fifth red team).
pub(crate) fn visible_name(text: &str) -> String {
    let shown = visible(text).replace('\t', "\\t").replace('\n', "\\n");
    let characters: Vec<char> = shown.chars().collect();
    let mut out = String::with_capacity(shown.len());
    for (index, &character) in characters.iter().enumerate() {
        let before = index.checked_sub(1).and_then(|at| characters.get(at));
        let after = characters.get(index + 1);
        let lone = before.is_some_and(|c| *c != ' ') && after.is_some_and(|c| *c != ' ');
        if character == ' ' && !lone {
            out.push_str("\\x20");
        } else {
            out.push(character);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spaces_a_name_could_hide_are_shown() {
        assert_eq!(visible_name("ann lee"), "ann lee");
        assert_eq!(visible_name("ann "), "ann\\x20");
        assert_eq!(visible_name(" ann"), "\\x20ann");
        assert_eq!(visible_name("ann  lee"), "ann\\x20\\x20lee");
        assert_eq!(visible_name("ann\u{a0}lee"), "ann\\u{00a0}lee");
        assert_eq!(visible_name("ann\u{fe0f}"), "ann\\u{fe0f}");
    }

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
