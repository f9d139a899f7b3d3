//! Reading the three kinds of text a problem sees: the judge's *input*, a
//! contestant's *output* and the judge's *answer*.
//!
//! Inputs are line-oriented and read with `LineReader`, which reports
//! [`InputError`]s carrying the line (and column where a token is wrong).
//! Outputs and answers are token streams read with `TokenReader`; whose fault
//! a malformed token is depends on the `Stream`: a contestant's is a
//! presentation error, the judge's own is a checker failure.
//!
//! This module knows nothing about any one problem.

use std::fmt;

/// The largest input, output or answer the problems read, in bytes. Beyond it
/// `solve`, `validate` and `check` refuse the file as one they cannot read
/// (exit 3), never as an invalid input, so the judge's memory stays bounded.
/// The generators' inputs are a few hundred KiB, but a rooks `large` input has
/// no bound on its number of boards: 16 MiB refused legitimate files, so the
/// limit is 256 MiB (issue #10), documented in README.md and `--help`.
pub(crate) const MAX_TEXT_BYTES: usize = 256 * 1024 * 1024;

/// Why a contestant's output (or the judge's answer file) cannot be read
/// as the problem's answer, saying where it stops making sense: the reason
/// a presentation error states (for the answer file, a checker failure's).
/// A verdict's data, not a failure of the judge.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub(crate) struct Malformed(pub(crate) String);

/// What is wrong with an input, and where (the statements' constraints included).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct InputError {
    /// 1-based line; 0 when the error concerns the whole file (size, encoding).
    pub(crate) line: usize,
    /// 1-based column (in characters) of the offending token, when known.
    pub(crate) column: Option<usize>,
    /// What was wrong.
    pub(crate) kind: InputErrorKind,
}

/// The ways an input can be wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputErrorKind {
    /// A token or line did not have the expected shape.
    Expected { expected: String, found: String },
    /// The shape is right but a rule of the problem is broken, e.g.
    /// "n = 101 is outside 1..=100".
    Constraint(String),
    /// The file is not UTF-8.
    NotUtf8,
    /// The file is larger than `MAX_TEXT_BYTES`.
    TooLarge { bytes: usize },
    /// A package's own program (validator, reference) failed while
    /// deciding: the judge's fault, not the input's (issue #9).
    ProgramFailed(String),
}

impl InputError {
    /// "expected {expected}, found {found}" at `line`.
    pub fn expected(line: usize, expected: impl Into<String>, found: impl Into<String>) -> Self {
        InputError {
            line,
            column: None,
            kind: InputErrorKind::Expected {
                expected: expected.into(),
                found: found.into(),
            },
        }
    }

    /// A broken rule at `line`.
    pub fn constraint(line: usize, message: impl Into<String>) -> Self {
        InputError {
            line,
            column: None,
            kind: InputErrorKind::Constraint(message.into()),
        }
    }

    /// The same error, pinned to a column.
    pub(crate) fn at_column(mut self, column: usize) -> Self {
        self.column = Some(column);
        self
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.column) {
            (0, _) => {}
            (line, None) => write!(f, "line {line}: ")?,
            (line, Some(column)) => write!(f, "line {line}, column {column}: ")?,
        }
        match &self.kind {
            InputErrorKind::Expected { expected, found } => {
                write!(f, "expected {expected}, found {found}")
            }
            InputErrorKind::Constraint(message) | InputErrorKind::ProgramFailed(message) => {
                f.write_str(message)
            }
            InputErrorKind::NotUtf8 => f.write_str("the file is not valid UTF-8 text"),
            InputErrorKind::TooLarge { bytes } => write!(
                f,
                "the file has {bytes} bytes or more, beyond the {} MiB the judge reads",
                MAX_TEXT_BYTES / (1024 * 1024)
            ),
        }
    }
}

/// `1 move`, `2 moves`: a count with its noun, for messages (issue #10:
/// "cleared in 1 moves", "wrote 1 tests").
pub(crate) fn plural(count: u64, one: &str, many: &str) -> String {
    if count == 1 {
        format!("1 {one}")
    } else {
        format!("{count} {many}")
    }
}

/// Turns raw bytes into text, or says on which line the first invalid byte is.
pub(crate) fn decode(bytes: &[u8]) -> Result<&str, InputError> {
    if bytes.len() > MAX_TEXT_BYTES {
        return Err(InputError {
            line: 0,
            column: None,
            kind: InputErrorKind::TooLarge { bytes: bytes.len() },
        });
    }
    std::str::from_utf8(bytes).map_err(|error| {
        let valid = &bytes[..error.valid_up_to()];
        let line = 1 + valid.iter().filter(|&&byte| byte == b'\n').count();
        let column = 1 + valid
            .iter()
            .rev()
            .take_while(|&&byte| byte != b'\n')
            .count();
        InputError {
            line,
            column: Some(column),
            kind: InputErrorKind::NotUtf8,
        }
    })
}

/// How a short piece of text is shown in a message: quoted, with control
/// characters escaped and long text cut, so a binary file cannot flood a
/// terminal. An empty string reads "an empty line".
pub(crate) fn describe(text: &str) -> String {
    const MAX_CHARS: usize = 24;
    if text.is_empty() {
        return "an empty line".to_owned();
    }
    let mut shown: String = text.chars().take(MAX_CHARS).collect();
    if text.chars().count() > MAX_CHARS {
        shown.push('…');
    }
    format!("{shown:?}")
}

/// How strictly an input's layout is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// `judge validate`: the exact layout of the statements (problems/*/statement.md). Every line ends with
    /// `\n` (the last one too), no `\r`, no blank lines, no spaces at either end
    /// of a line, nothing after the end.
    /// Pro: test data stays clean for every contestant's parser.
    /// Con: rejects files that mean the same thing.
    Strict,
    /// `judge solve` and the checkers: CRLF, blank lines, spaces around a line
    /// and a missing final newline are forgiven.
    /// Pro: a file edited on Windows still solves. Con: says nothing about layout.
    Lenient,
}

/// One line of an input, without its line ending.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Line<'a> {
    /// 1-based line number in the file.
    pub(crate) number: usize,
    /// The content (trimmed when read leniently).
    pub(crate) text: &'a str,
}

impl<'a> Line<'a> {
    /// An error about this whole line.
    pub(crate) fn expected(&self, expected: impl Into<String>) -> InputError {
        InputError::expected(self.number, expected, describe(self.text))
    }

    /// The line as exactly one integer in `range`, named `what` in errors
    /// (e.g. "the board size n"). The readers call [`Line::integer_in`]
    /// with their layout; this is the unit tests' lenient shorthand.
    #[cfg(test)]
    pub(crate) fn integer(
        &self,
        what: &str,
        range: std::ops::RangeInclusive<i64>,
    ) -> Result<i64, InputError> {
        self.integer_in(what, range, Layout::Lenient)
    }

    /// [`Line::integer`] read as `layout` wants: strictly, no leading zero.
    pub(crate) fn integer_in(
        &self,
        what: &str,
        range: std::ops::RangeInclusive<i64>,
        layout: Layout,
    ) -> Result<i64, InputError> {
        let value: i64 = parse_integer_in(self.text, layout)
            .ok_or_else(|| self.expected(format!("{what} {}", integer_shape(self.text))))?;
        if !range.contains(&value) {
            return Err(InputError::constraint(
                self.number,
                format!(
                    "{what} = {value} is outside {}..={}",
                    range.start(),
                    range.end()
                ),
            ));
        }
        Ok(value)
    }

    /// The whitespace-separated tokens of the line with their 1-based columns.
    pub(crate) fn tokens(&self) -> impl Iterator<Item = (usize, &'a str)> + 'a {
        let text = self.text;
        let mut column = 0;
        let mut rest = text;
        std::iter::from_fn(move || {
            let skipped = rest.len() - rest.trim_start().len();
            column += rest[..skipped].chars().count();
            rest = &rest[skipped..];
            if rest.is_empty() {
                return None;
            }
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            let token = &rest[..end];
            let token_column = column + 1;
            column += token.chars().count();
            rest = &rest[end..];
            Some((token_column, token))
        })
    }
}

/// Parses a decimal integer the way the problems write them: optional `-`,
/// then digits only (no `+`, no spaces, no leading zeros beyond a lone `0`
/// are *not* checked here: `007` reads as 7).
/// Whether an integer token is written with a leading zero (`02`, `00`, `-0`,
/// `-07`): the lenient readers accept it, `judge validate` does not (issue #10:
/// test data should be what every contestant's parser reads the same way).
pub(crate) fn has_leading_zero(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    (digits.len() > 1 && digits.starts_with('0')) || text == "-0"
}

/// [`parse_integer`] for `layout`: [`Layout::Strict`] also refuses a leading
/// zero (a `+` sign is refused in both).
pub(crate) fn parse_integer_in(text: &str, layout: Layout) -> Option<i64> {
    if layout == Layout::Strict && has_leading_zero(text) {
        return None;
    }
    parse_integer(text)
}

/// "(an integer)", or where a leading zero is the fault, say so.
pub(crate) fn integer_shape(text: &str) -> &'static str {
    if has_leading_zero(text) {
        "(an integer, written without a leading zero)"
    } else {
        "(an integer)"
    }
}

pub(crate) fn parse_integer(text: &str) -> Option<i64> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|byte| byte.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// Reads an input line by line, remembering line numbers.
#[derive(Clone, Debug)]
pub(crate) struct LineReader<'a> {
    rest: &'a str,
    /// Number of the line `rest` starts on.
    next_number: usize,
    layout: Layout,
}

impl<'a> LineReader<'a> {
    /// A reader over the whole of `text`.
    pub(crate) fn new(text: &'a str, layout: Layout) -> Self {
        LineReader {
            rest: text,
            next_number: 1,
            layout,
        }
    }

    /// The next line, `None` at the end of the file. In [`Layout::Lenient`]
    /// blank lines are skipped and lines are trimmed.
    pub(crate) fn next_line(&mut self) -> Result<Option<Line<'a>>, InputError> {
        loop {
            if self.rest.is_empty() {
                return Ok(None);
            }
            let number = self.next_number;
            self.next_number += 1;
            let (raw, terminated) = match self.rest.find('\n') {
                Some(end) => {
                    let raw = &self.rest[..end];
                    self.rest = &self.rest[end + 1..];
                    (raw, true)
                }
                None => {
                    let raw = self.rest;
                    self.rest = "";
                    (raw, false)
                }
            };
            match self.layout {
                Layout::Lenient => {
                    let text = raw.trim();
                    if !text.is_empty() {
                        return Ok(Some(Line { number, text }));
                    }
                }
                Layout::Strict => {
                    if let Some(column) = raw.find('\r') {
                        return Err(InputError::expected(
                            number,
                            "a line ending in \\n",
                            "\\r (Windows CRLF line ending)",
                        )
                        .at_column(raw[..column].chars().count() + 1));
                    }
                    if raw.is_empty() {
                        return Err(InputError::expected(number, "a line", "an empty line"));
                    }
                    if raw.trim() != raw {
                        return Err(InputError::expected(
                            number,
                            "no spaces at the start or end of a line",
                            describe(raw),
                        ));
                    }
                    if !terminated {
                        return Err(InputError::expected(
                            number,
                            "a line ending in \\n",
                            "end of file (the last line has no newline)",
                        ));
                    }
                    return Ok(Some(Line { number, text: raw }));
                }
            }
        }
    }

    /// The next line, or an error "expected {what}, found end of file".
    pub(crate) fn expect_line(&mut self, what: &str) -> Result<Line<'a>, InputError> {
        let number = self.next_number;
        self.next_line()?
            .ok_or_else(|| InputError::expected(number, what, "end of file"))
    }

    /// Succeeds when nothing but (in lenient layout) blank space is left.
    pub(crate) fn expect_end(&mut self) -> Result<(), InputError> {
        match self.next_line()? {
            None => Ok(()),
            Some(line) => Err(line.expected("end of file")),
        }
    }
}

/// Whose text a [`TokenReader`] reads; decides whose fault a bad token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stream {
    /// The contestant's output: a fault is a presentation error.
    Output,
    /// The judge's answer file: a fault is the judge's (checker failure).
    Answer,
}

impl fmt::Display for Stream {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Stream::Output => "output",
            Stream::Answer => "answer",
        })
    }
}

/// One whitespace-separated token with its position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Token<'a> {
    pub(crate) line: usize,
    pub(crate) column: usize,
    pub(crate) text: &'a str,
}

/// Reads whitespace-separated tokens (any mix of spaces, tabs, `\r` and `\n`).
#[derive(Clone, Debug)]
pub(crate) struct TokenReader<'a> {
    stream: Stream,
    rest: &'a str,
    line: usize,
    column: usize,
}

impl<'a> TokenReader<'a> {
    /// A reader over `text`, which is `stream`.
    pub(crate) fn new(text: &'a str, stream: Stream) -> Self {
        TokenReader {
            stream,
            rest: text,
            line: 1,
            column: 1,
        }
    }

    /// Which stream this is.
    pub(crate) fn stream(&self) -> Stream {
        self.stream
    }

    /// The line the next token (or end of file) is on.
    pub(crate) fn line(&self) -> usize {
        self.skip_whitespace_preview().0
    }

    fn skip_whitespace_preview(&self) -> (usize, usize, usize) {
        let mut line = self.line;
        let mut column = self.column;
        let mut skipped = 0;
        for character in self.rest.chars() {
            if !character.is_whitespace() {
                break;
            }
            skipped += character.len_utf8();
            if character == '\n' {
                line += 1;
                column = 1;
            } else {
                column += 1;
            }
        }
        (line, column, skipped)
    }

    /// The next token, `None` at the end.
    pub(crate) fn next_token(&mut self) -> Option<Token<'a>> {
        let (line, column, skipped) = self.skip_whitespace_preview();
        self.rest = &self.rest[skipped..];
        self.line = line;
        self.column = column;
        if self.rest.is_empty() {
            return None;
        }
        let end = self
            .rest
            .find(char::is_whitespace)
            .unwrap_or(self.rest.len());
        let text = &self.rest[..end];
        self.rest = &self.rest[end..];
        self.column += text.chars().count();
        Some(Token { line, column, text })
    }

    /// True when only whitespace is left; for the unit tests.
    #[cfg(test)]
    pub(crate) fn at_end(&self) -> bool {
        self.rest.trim_start().is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str, layout: Layout) -> Result<Vec<(usize, String)>, String> {
        let mut reader = LineReader::new(text, layout);
        let mut out = Vec::new();
        loop {
            match reader.next_line() {
                Ok(Some(line)) => out.push((line.number, line.text.to_owned())),
                Ok(None) => return Ok(out),
                Err(error) => return Err(error.to_string()),
            }
        }
    }

    #[test]
    fn strict_layout_accepts_clean_lines() {
        assert_eq!(
            lines("2\n.X\nX.\n", Layout::Strict),
            Ok(vec![(1, "2".into()), (2, ".X".into()), (3, "X.".into())])
        );
    }

    #[test_case::test_case("2\r\n", "line 1, column 2: expected a line ending in \\n, found \\r (Windows CRLF line ending)" ; "crlf")]
    #[test_case::test_case("2\n\n", "line 2: expected a line, found an empty line" ; "blank line")]
    #[test_case::test_case("2 \n", "line 1: expected no spaces at the start or end of a line, found \"2 \"" ; "trailing space")]
    #[test_case::test_case("1\n2", "line 2: expected a line ending in \\n, found end of file (the last line has no newline)" ; "no final newline")]
    fn strict_layout_rejects(text: &str, message: &str) {
        assert_eq!(lines(text, Layout::Strict), Err(message.to_owned()));
    }

    #[test]
    fn lenient_layout_forgives_crlf_blank_lines_and_spaces() {
        assert_eq!(
            lines(" 2 \r\n\r\n.X\nX.", Layout::Lenient),
            Ok(vec![(1, "2".into()), (3, ".X".into()), (4, "X.".into())])
        );
    }

    #[test]
    fn integer_line_names_what_and_range() {
        let line = Line {
            number: 4,
            text: "101",
        };
        assert_eq!(
            line.integer("n", 1..=100).unwrap_err().to_string(),
            "line 4: n = 101 is outside 1..=100"
        );
        let line = Line {
            number: 2,
            text: "x1",
        };
        assert_eq!(
            line.integer("n", 1..=100).unwrap_err().to_string(),
            "line 2: expected n (an integer), found \"x1\""
        );
        assert_eq!(
            Line {
                number: 1,
                text: "-1"
            }
            .integer("g", -1..=1),
            Ok(-1)
        );
    }

    #[test]
    fn tokens_carry_columns() {
        let line = Line {
            number: 1,
            text: "  1 22\t3",
        };
        let tokens: Vec<_> = line.tokens().collect();
        assert_eq!(tokens, vec![(3, "1"), (5, "22"), (8, "3")]);
    }

    #[test]
    fn token_reader_tracks_lines_and_columns() {
        let mut reader = TokenReader::new("00-\r\n 1 2  1\n", Stream::Output);
        let texts: Vec<_> = std::iter::from_fn(|| reader.next_token())
            .map(|token| (token.line, token.column, token.text))
            .collect();
        assert_eq!(
            texts,
            vec![(1, 1, "00-"), (2, 2, "1"), (2, 4, "2"), (2, 7, "1")]
        );
        assert!(reader.at_end());
    }

    #[test]
    fn decode_names_the_line_of_the_first_bad_byte() {
        let error = decode(b"1\n2\n\xff\n").unwrap_err();
        assert_eq!(
            error.to_string(),
            "line 3, column 1: the file is not valid UTF-8 text"
        );
        assert!(decode(&vec![b'1'; MAX_TEXT_BYTES + 1]).is_err());
    }

    #[test]
    fn describe_cuts_and_escapes() {
        assert_eq!(describe(""), "an empty line");
        assert_eq!(describe("a\u{0}b"), "\"a\\0b\"");
        assert_eq!(
            describe(&"x".repeat(100)),
            format!("\"{}…\"", "x".repeat(24))
        );
    }
}

#[cfg(test)]
mod strict_numbers {
    use super::*;
    use test_case::test_case;

    /// Issue #10: `judge validate` refuses `02` and `+2`; solve and check
    /// (lenient) still read `02`.
    #[test_case("2", Some(2), Some(2) ; "plain")]
    #[test_case("0", Some(0), Some(0) ; "zero")]
    #[test_case("-3", Some(-3), Some(-3) ; "negative")]
    #[test_case("02", None, Some(2) ; "leading zero")]
    #[test_case("00", None, Some(0) ; "double zero")]
    #[test_case("-0", None, Some(0) ; "negative zero")]
    #[test_case("-07", None, Some(-7) ; "negative leading zero")]
    #[test_case("+2", None, None ; "plus sign")]
    #[test_case("2a", None, None ; "not a number")]
    fn strict_refuses_leading_zeros_and_signs(
        text: &str,
        strict: Option<i64>,
        lenient: Option<i64>,
    ) {
        assert_eq!(parse_integer_in(text, Layout::Strict), strict);
        assert_eq!(parse_integer_in(text, Layout::Lenient), lenient);
    }
}
