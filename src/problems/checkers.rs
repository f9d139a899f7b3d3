//! The built-in checkers a package may name instead of a program of its own
//! (issue #9): `tokens`, `lines`, `float` (absolute and relative tolerance)
//! and `case-insensitive`. Each compares a contestant's output with the
//! judge's answer; none knows anything about the problem.
//!
//! Reasons name the token or line and both values, testlib style:
//! "token 3: expected 5, got 4".

use super::CheckOutcome;

/// Which built-in comparison, and its options.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum BuiltinChecker {
    /// Whitespace-separated tokens, compared exactly.
    Tokens,
    /// Lines compared exactly after trimming trailing spaces; trailing empty
    /// lines are ignored.
    Lines,
    /// Tokens; where the answer's token is a finite number, the output's
    /// must be a finite number within `absolute` or within `relative` ×
    /// |answer| of it. Any other answer token (`inf`, `nan`, `1e309`, a
    /// word) is compared as text, without regard to ASCII case unless
    /// `case_sensitive`, as problemtools' default output validator does
    /// (issue #34).
    Float {
        absolute: f64,
        relative: f64,
        case_sensitive: bool,
    },
    /// Tokens, compared without regard to ASCII case.
    CaseInsensitive,
    /// Kattis' default output validator as problemtools runs it: tokens
    /// split at ASCII whitespace only (space, tab, line feed, vertical tab,
    /// form feed, carriage return; C's `isspace`), so a no-break space or
    /// another Unicode space is part of a token (issue #34). Tokens are
    /// compared without regard to ASCII case unless `case_sensitive`; with
    /// a `tolerance` (absolute, relative) they are compared as
    /// [`BuiltinChecker::Float`] compares them.
    Kattis {
        case_sensitive: bool,
        tolerance: Option<(f64, f64)>,
    },
    /// problemtools' default output validator with `space_change_sensitive`
    /// (issue #34): tokens compared as [`BuiltinChecker::Kattis`] compares
    /// them; and every run of whitespace (C's `isspace`: space, `\t`, `\n`, `\v`,
    /// `\f`, `\r`) before, between and after them must be the answer's,
    /// byte for byte, so a missing final newline or a doubled space is WA.
    SpaceChangeSensitive {
        case_sensitive: bool,
        tolerance: Option<(f64, f64)>,
    },
}

/// Where tokens end.
#[derive(Clone, Copy)]
enum Whitespace {
    /// Unicode's White_Space (Rust's `char::is_whitespace`): the judge's
    /// own checkers.
    Unicode,
    /// C's `isspace` in the C locale, as problemtools' default output
    /// validator reads: no-break spaces and other Unicode spaces are not.
    Ascii,
}

impl Whitespace {
    fn split(self, text: &str) -> impl Iterator<Item = &str> {
        text.split(move |c: char| match self {
            Whitespace::Unicode => c.is_whitespace(),
            Whitespace::Ascii => matches!(c, ' ' | '\t' | '\n' | '\x0b' | '\x0c' | '\r'),
        })
        .filter(|token| !token.is_empty())
    }
}

/// The most characters of a token or line shown in a reason.
const SHOWN_CHARS: usize = 40;

fn shown(text: &str) -> String {
    let mut shown: String = text.chars().take(SHOWN_CHARS).collect();
    if text.chars().count() > SHOWN_CHARS {
        shown.push_str("...");
    }
    format!("`{shown}`")
}

impl BuiltinChecker {
    /// Decides `output` against the judge's `answer`.
    pub(crate) fn check(&self, output: &str, answer: &str) -> CheckOutcome {
        match *self {
            BuiltinChecker::Lines => check_lines(output, answer),
            BuiltinChecker::Tokens => check_tokens(output, answer, |out, ans| {
                (out == ans).then_some(()).ok_or(None)
            }),
            BuiltinChecker::CaseInsensitive => check_tokens(output, answer, |out, ans| {
                out.eq_ignore_ascii_case(ans).then_some(()).ok_or(None)
            }),
            BuiltinChecker::Float {
                absolute,
                relative,
                case_sensitive,
            } => check_tokens(output, answer, |out, ans| {
                same_number(out, ans, absolute, relative, case_sensitive)
            }),
            BuiltinChecker::Kattis {
                case_sensitive,
                tolerance,
            } => check_tokens_split(
                Whitespace::Ascii,
                output,
                answer,
                |out, ans| match tolerance {
                    Some((absolute, relative)) => {
                        same_number(out, ans, absolute, relative, case_sensitive)
                    }
                    None => same_text(out, ans, case_sensitive),
                },
            ),
            BuiltinChecker::SpaceChangeSensitive {
                case_sensitive,
                tolerance,
            } => check_spaced_tokens(output, answer, |out, ans| match tolerance {
                Some((absolute, relative)) => {
                    same_number(out, ans, absolute, relative, case_sensitive)
                }
                None => same_text(out, ans, case_sensitive),
            }),
        }
    }
}

/// Whether two tokens are the same text, with or without regard to ASCII
/// case.
fn same_text(out: &str, ans: &str, case_sensitive: bool) -> Result<(), Option<String>> {
    let same = if case_sensitive {
        out == ans
    } else {
        out.eq_ignore_ascii_case(ans)
    };
    same.then_some(()).ok_or(None)
}

/// Whether `out` is within the tolerance of the answer's token `ans` (a
/// finite number), or the same text (an answer token that is not one).
fn same_number(
    out: &str,
    ans: &str,
    absolute: f64,
    relative: f64,
    case_sensitive: bool,
) -> Result<(), Option<String>> {
    let Some(expected) = finite_number(ans) else {
        return same_text(out, ans, case_sensitive);
    };
    let Ok(got) = out.parse::<f64>() else {
        return Err(Some(format!("expected a number, found {}", shown(out))));
    };
    if !got.is_finite() {
        return Err(Some(format!(
            "expected {ans}, got {out} (not a finite number)"
        )));
    }
    let difference = (got - expected).abs();
    if difference <= absolute || difference <= relative * expected.abs() {
        Ok(())
    } else {
        Err(Some(format!(
            "expected {ans}, got {out} (difference {difference:e}, allowed \
                 {absolute:e} absolute or {relative:e} relative)"
        )))
    }
}

/// `token` as a number when it is one and finite: problemtools' default
/// output validator compares an answer token that reads as infinite or not
/// a number (`inf`, `NaN`, `1e309`, which overflows) as text, so a
/// contestant who prints `inf` where the answer says `inf` is right.
fn finite_number(token: &str) -> Option<f64> {
    token.parse::<f64>().ok().filter(|value| value.is_finite())
}

/// Compares token by token; `same` says why two tokens differ (`None`: the
/// usual "expected X, got Y").
fn check_tokens(
    output: &str,
    answer: &str,
    same: impl Fn(&str, &str) -> Result<(), Option<String>>,
) -> CheckOutcome {
    check_tokens_split(Whitespace::Unicode, output, answer, same)
}

/// [`check_tokens`] with tokens ending at `whitespace`.
fn check_tokens_split(
    whitespace: Whitespace,
    output: &str,
    answer: &str,
    same: impl Fn(&str, &str) -> Result<(), Option<String>>,
) -> CheckOutcome {
    let mut outputs = whitespace.split(output);
    let mut count = 0;
    for (index, expected) in whitespace.split(answer).enumerate() {
        let number = index + 1;
        let got = outputs.next();
        if let Some(differs) = token_differs(number, got, expected, &same) {
            return differs;
        }
        count = number;
    }
    if let Some(extra) = outputs.next() {
        return extra_token(count + 1, extra);
    }
    CheckOutcome::accepted(format!("{count} tokens"))
}

/// Why the output's token `number` (`got`, `None` past its end) is not the
/// answer's `expected` by `same`, or `None` when it is: the one wording of
/// both token checkers.
fn token_differs(
    number: usize,
    got: Option<&str>,
    expected: &str,
    same: impl Fn(&str, &str) -> Result<(), Option<String>>,
) -> Option<CheckOutcome> {
    let Some(got) = got else {
        return Some(CheckOutcome::wrong_answer(format!(
            "token {number}: expected {}, found the end of the output",
            shown(expected)
        )));
    };
    let reason = same(got, expected).err()?;
    let reason =
        reason.unwrap_or_else(|| format!("expected {}, got {}", shown(expected), shown(got)));
    Some(CheckOutcome::wrong_answer(format!(
        "token {number}: {reason}"
    )))
}

/// The output goes on past the answer's last token: `extra` is its token
/// `number`.
fn extra_token(number: usize, extra: &str) -> CheckOutcome {
    CheckOutcome::wrong_answer(format!(
        "token {number}: expected the end of the output, got {}",
        shown(extra)
    ))
}

/// C's `isspace` in the "C" locale, which problemtools' default output
/// validator splits on (Rust's `is_ascii_whitespace` leaves out `\v`).
fn is_c_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// `text` as runs: the whitespace before the first token, then each token
/// with the whitespace after it.
fn spaced_runs(text: &str) -> (&str, Vec<(&str, &str)>) {
    let bytes = text.as_bytes();
    let run = |from: usize, space: bool| {
        bytes[from..]
            .iter()
            .position(|&byte| is_c_space(byte) != space)
            .map_or(bytes.len(), |length| from + length)
    };
    let lead_end = run(0, true);
    let mut runs = Vec::new();
    let mut at = lead_end;
    while at < bytes.len() {
        let token_end = run(at, false);
        let space_end = run(token_end, true);
        // Split only at ASCII bytes, so every slice is on a char boundary.
        runs.push((&text[at..token_end], &text[token_end..space_end]));
        at = space_end;
    }
    (&text[..lead_end], runs)
}

/// Whitespace shown in a reason: escaped, quoted, cut after a few bytes.
fn shown_space(space: &str) -> String {
    const SHOWN_BYTES: usize = 16;
    if space.len() > SHOWN_BYTES {
        format!("{:?}... ({} bytes)", &space[..SHOWN_BYTES], space.len())
    } else {
        format!("{space:?}")
    }
}

/// [`check_tokens`] where whitespace counts too, as problemtools' default
/// output validator with `space_change_sensitive`: each run of whitespace
/// must be the answer's, byte for byte.
fn check_spaced_tokens(
    output: &str,
    answer: &str,
    same: impl Fn(&str, &str) -> Result<(), Option<String>>,
) -> CheckOutcome {
    let (output_lead, outputs) = spaced_runs(output);
    let (answer_lead, answers) = spaced_runs(answer);
    let space_differs = |place: String, expected: &str, got: &str| {
        CheckOutcome::wrong_answer(format!(
            "whitespace {place}: expected {}, got {} (space_change_sensitive)",
            shown_space(expected),
            shown_space(got)
        ))
    };
    if output_lead != answer_lead {
        return space_differs("before token 1".to_owned(), answer_lead, output_lead);
    }
    for (index, &(expected, expected_space)) in answers.iter().enumerate() {
        let number = index + 1;
        // Past the output's end there is no whitespace after it either;
        // `token_differs` says so first.
        let (got, got_space) = outputs
            .get(index)
            .map_or((None, ""), |&(got, space)| (Some(got), space));
        if let Some(differs) = token_differs(number, got, expected, &same) {
            return differs;
        }
        if got_space != expected_space {
            return space_differs(format!("after token {number}"), expected_space, got_space);
        }
    }
    if let Some((extra, _)) = outputs.get(answers.len()) {
        return extra_token(answers.len() + 1, extra);
    }
    CheckOutcome::accepted(format!(
        "{} tokens, whitespace as the answer's",
        answers.len()
    ))
}

fn check_lines(output: &str, answer: &str) -> CheckOutcome {
    let trimmed = |text: &str| -> Vec<String> {
        let mut lines: Vec<String> = text
            .lines()
            .map(|line| line.trim_end().to_owned())
            .collect();
        while lines.last().is_some_and(String::is_empty) {
            lines.pop();
        }
        lines
    };
    let (outputs, answers) = (trimmed(output), trimmed(answer));
    for (index, expected) in answers.iter().enumerate() {
        let number = index + 1;
        match outputs.get(index) {
            None => {
                return CheckOutcome::wrong_answer(format!(
                    "line {number}: expected {}, found the end of the output",
                    shown(expected)
                ))
            }
            Some(got) if got != expected => {
                return CheckOutcome::wrong_answer(format!(
                    "line {number}: expected {}, got {}",
                    shown(expected),
                    shown(got)
                ))
            }
            Some(_) => {}
        }
    }
    if let Some(extra) = outputs.get(answers.len()) {
        return CheckOutcome::wrong_answer(format!(
            "line {}: expected the end of the output, got {}",
            answers.len() + 1,
            shown(extra)
        ));
    }
    CheckOutcome::accepted(format!("{} lines", answers.len()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::Verdict;
    use test_case::test_case;

    const FLOAT: BuiltinChecker = BuiltinChecker::Float {
        absolute: 1e-6,
        relative: 1e-4,
        case_sensitive: false,
    };
    const FLOAT_CASE: BuiltinChecker = BuiltinChecker::Float {
        absolute: 1e-6,
        relative: 1e-4,
        case_sensitive: true,
    };

    const KATTIS: BuiltinChecker = BuiltinChecker::Kattis {
        case_sensitive: false,
        tolerance: None,
    };
    const KATTIS_FLOAT: BuiltinChecker = BuiltinChecker::Kattis {
        case_sensitive: false,
        tolerance: Some((1e-6, 1e-4)),
    };

    const SPACED: BuiltinChecker = BuiltinChecker::SpaceChangeSensitive {
        case_sensitive: false,
        tolerance: None,
    };
    const SPACED_CASE: BuiltinChecker = BuiltinChecker::SpaceChangeSensitive {
        case_sensitive: true,
        tolerance: None,
    };
    const SPACED_FLOAT: BuiltinChecker = BuiltinChecker::SpaceChangeSensitive {
        case_sensitive: false,
        tolerance: Some((1e-6, 1e-4)),
    };

    // See: issue #34 (break-it finding 17); each verdict is problemtools'
    // default_validator's with `space_change_sensitive`.
    #[test_case(SPACED, "Hello World!\n", "Hello World!\n", Verdict::Accepted, "2 tokens, whitespace as the answer's" ; "spaced same bytes")]
    #[test_case(SPACED, "hello WORLD!\n", "Hello World!\n", Verdict::Accepted, "2 tokens, whitespace as the answer's" ; "spaced case still ignored")]
    #[test_case(SPACED_CASE, "hello World!\n", "Hello World!\n", Verdict::WrongAnswer, "token 1: expected `Hello`, got `hello`" ; "spaced case sensitive")]
    #[test_case(SPACED, "Hello  World!\n", "Hello World!\n", Verdict::WrongAnswer, "whitespace after token 1: expected \" \", got \"  \" (space_change_sensitive)" ; "spaced doubled space")]
    #[test_case(SPACED, "Hello World!", "Hello World!\n", Verdict::WrongAnswer, "whitespace after token 2: expected \"\\n\", got \"\" (space_change_sensitive)" ; "spaced missing final newline")]
    #[test_case(SPACED, "Hello World!\n\n", "Hello World!\n", Verdict::WrongAnswer, "whitespace after token 2: expected \"\\n\", got \"\\n\\n\" (space_change_sensitive)" ; "spaced extra final newline")]
    #[test_case(SPACED, "Hello\nWorld!\n", "Hello World!\n", Verdict::WrongAnswer, "whitespace after token 1: expected \" \", got \"\\n\" (space_change_sensitive)" ; "spaced newline for space")]
    #[test_case(SPACED, " Hello World!\n", "Hello World!\n", Verdict::WrongAnswer, "whitespace before token 1: expected \"\", got \" \" (space_change_sensitive)" ; "spaced leading space")]
    #[test_case(SPACED, "Hello World!\r\n", "Hello World!\n", Verdict::WrongAnswer, "whitespace after token 2: expected \"\\n\", got \"\\r\\n\" (space_change_sensitive)" ; "spaced carriage return")]
    #[test_case(SPACED, " \n", "", Verdict::WrongAnswer, "whitespace before token 1: expected \"\", got \" \\n\" (space_change_sensitive)" ; "spaced whitespace for an empty answer")]
    #[test_case(SPACED, "", "", Verdict::Accepted, "0 tokens, whitespace as the answer's" ; "spaced both empty")]
    #[test_case(SPACED, "Hello\n", "Hello World!\n", Verdict::WrongAnswer, "whitespace after token 1: expected \" \", got \"\\n\" (space_change_sensitive)" ; "spaced output ends early")]
    #[test_case(SPACED, "Hello World! x\n", "Hello World!\n", Verdict::WrongAnswer, "whitespace after token 2: expected \"\\n\", got \" \" (space_change_sensitive)" ; "spaced extra token")]
    #[test_case(SPACED, "a\u{a0}b\n", "a\u{a0}b\n", Verdict::Accepted, "1 tokens, whitespace as the answer's" ; "spaced no-break space is part of a token")]
    #[test_case(SPACED_FLOAT, "0.3333334\n", "0.333333\n", Verdict::Accepted, "1 tokens, whitespace as the answer's" ; "spaced float within tolerance")]
    #[test_case(SPACED_FLOAT, "0.3333334 \n", "0.333333\n", Verdict::WrongAnswer, "whitespace after token 1: expected \"\\n\", got \" \\n\" (space_change_sensitive)" ; "spaced float trailing space")]
    #[test_case(SPACED_FLOAT, "0.5\n", "0.25\n", Verdict::WrongAnswer, "token 1: expected 0.25, got 0.5 (difference 2.5e-1, allowed 1e-6 absolute or 1e-4 relative)" ; "spaced float outside")]
    #[test_case(BuiltinChecker::Tokens, "1 2\n3", "1 2 3\n", Verdict::Accepted, "3 tokens" ; "tokens ignore whitespace")]
    #[test_case(BuiltinChecker::Tokens, "1 2 4", "1 2 3", Verdict::WrongAnswer, "token 3: expected `3`, got `4`" ; "tokens differ")]
    #[test_case(BuiltinChecker::Tokens, "1 2", "1 2 3", Verdict::WrongAnswer, "token 3: expected `3`, found the end of the output" ; "tokens missing")]
    #[test_case(BuiltinChecker::Tokens, "1 2 3 9", "1 2 3", Verdict::WrongAnswer, "token 4: expected the end of the output, got `9`" ; "tokens extra")]
    #[test_case(BuiltinChecker::Lines, "a b  \nc\n\n", "a b\nc", Verdict::Accepted, "2 lines" ; "lines trim trailing space")]
    #[test_case(BuiltinChecker::Lines, "a  b\nc", "a b\nc", Verdict::WrongAnswer, "line 1: expected `a b`, got `a  b`" ; "lines keep inner space")]
    #[test_case(BuiltinChecker::CaseInsensitive, "YES no", "yes NO", Verdict::Accepted, "2 tokens" ; "case ignored")]
    #[test_case(BuiltinChecker::CaseInsensitive, "yes", "no", Verdict::WrongAnswer, "token 1: expected `no`, got `yes`" ; "case differs")]
    #[test_case(FLOAT, "0.3333334 x", "0.333333 x", Verdict::Accepted, "2 tokens" ; "float within absolute")]
    #[test_case(FLOAT, "1000000.05", "1000000", Verdict::Accepted, "1 tokens" ; "float within relative")]
    #[test_case(FLOAT, "0.5", "0.25", Verdict::WrongAnswer, "token 1: expected 0.25, got 0.5 (difference 2.5e-1, allowed 1e-6 absolute or 1e-4 relative)" ; "float outside")]
    #[test_case(FLOAT, "abc", "0.25", Verdict::WrongAnswer, "token 1: expected a number, found `abc`" ; "float not a number")]
    #[test_case(FLOAT, "0x6 0x1.8p2", "6 6", Verdict::WrongAnswer, "token 1: expected a number, found `0x6`" ; "float hexadecimal is no decimal number (documented difference from problemtools)")]
    #[test_case(FLOAT, "nan", "0.25", Verdict::WrongAnswer, "token 1: expected 0.25, got nan (not a finite number)" ; "float nan")]
    #[test_case(FLOAT, "inf -inf", "inf -inf", Verdict::Accepted, "2 tokens" ; "float infinities as text")]
    #[test_case(FLOAT, "nan Inf", "NaN inf", Verdict::Accepted, "2 tokens" ; "float non-finite answers ignore case")]
    #[test_case(FLOAT_CASE, "nan", "NaN", Verdict::WrongAnswer, "token 1: expected `NaN`, got `nan`" ; "float case sensitive text")]
    #[test_case(FLOAT, "inf", "1e309", Verdict::WrongAnswer, "token 1: expected `1e309`, got `inf`" ; "float overflowing answer is text")]
    #[test_case(FLOAT, "1e309", "1e309", Verdict::Accepted, "1 tokens" ; "float overflowing answer matches its text")]
    #[test_case(FLOAT, "-inf", "inf", Verdict::WrongAnswer, "token 1: expected `inf`, got `-inf`" ; "float infinities of other signs")]
    #[test_case(FLOAT, "inf", "1.5", Verdict::WrongAnswer, "token 1: expected 1.5, got inf (not a finite number)" ; "float infinity where a number is expected")]
    #[test_case(FLOAT, "1e309", "1.5", Verdict::WrongAnswer, "token 1: expected 1.5, got 1e309 (not a finite number)" ; "float overflowing output where a number is expected")]
    #[test_case(BuiltinChecker::Tokens, "1\u{a0}2", "1 2", Verdict::Accepted, "2 tokens" ; "tokens split at a no-break space")]
    #[test_case(KATTIS, "1\u{a0}2", "1 2", Verdict::WrongAnswer, "token 1: expected `1`, got `1\u{a0}2`" ; "kattis keeps a no-break space in its token")]
    #[test_case(KATTIS, "1\u{a0}2", "1\u{a0}2\n", Verdict::Accepted, "1 tokens" ; "kattis reads a token with a no-break space as one")]
    #[test_case(KATTIS, "a\x0bb\x0cc\r\td", "A B C D", Verdict::Accepted, "4 tokens" ; "kattis splits at c isspace and ignores case")]
    #[test_case(KATTIS, "a\u{2003}b", "a b", Verdict::WrongAnswer, "token 1: expected `a`, got `a\u{2003}b`" ; "kattis keeps an em space in its token")]
    #[test_case(KATTIS_FLOAT, "1\u{a0}0.0000001", "1\u{a0} 0.0000001\n", Verdict::WrongAnswer, "token 1: expected `1\u{a0}`, got `1\u{a0}0.0000001`" ; "kattis float splits at ascii whitespace only")]
    #[test_case(KATTIS_FLOAT, "0.3333334 X", "0.333333 x", Verdict::Accepted, "2 tokens" ; "kattis float within tolerance")]
    #[test_case(KATTIS_FLOAT, "0.5", "0.25", Verdict::WrongAnswer, "token 1: expected 0.25, got 0.5 (difference 2.5e-1, allowed 1e-6 absolute or 1e-4 relative)" ; "kattis float outside tolerance")]
    fn decides(
        checker: BuiltinChecker,
        output: &str,
        answer: &str,
        verdict: Verdict,
        reason: &str,
    ) {
        let outcome = checker.check(output, answer);
        assert_eq!(
            (outcome.verdict, outcome.reason.as_str()),
            (verdict, reason)
        );
    }
}
