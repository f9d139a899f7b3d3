//! The rooks checker: reads a contestant's output and decides AC, WA or PE.
//!
//! problems/rooks/statement.md, Checker: one integer per board, compared as tokens
//! (extra whitespace and a missing final newline are fine; a missing or
//! non-integer token is PE; a wrong count is WA naming the board). The
//! expected values always come from the reference solver; an answer file, when
//! given, must agree with it, or the judge's data is stale and the check is a
//! [`CheckerFailure`] (JE), never the contestant's fault.

use super::input::{parse_input, Board, MAX_SIZE};
use super::solve::max_rooks;
use crate::problems::text::{describe, parse_integer, Layout, Stream, TokenReader};
use crate::problems::{CheckOutcome, CheckerFailure};

/// Decides `output` for `input`, cross-checking `answer` when there is one.
pub(crate) fn check(
    input: &str,
    output: &str,
    answer: Option<&str>,
) -> Result<CheckOutcome, CheckerFailure> {
    // Lenient and with the largest size: the checker grades every profile.
    let boards = parse_input(input, Layout::Lenient, MAX_SIZE)
        .map_err(|error| CheckerFailure::invalid_input(&error))?;
    let expected = reference_counts(&boards);
    if let Some(answer) = answer {
        check_answer_file(answer, &expected)?;
    }
    Ok(check_output(output, &expected))
}

fn reference_counts(boards: &[Board]) -> Vec<usize> {
    boards.iter().map(max_rooks).collect()
}

/// A token read where a board's count should be.
enum Count<'a> {
    /// A decimal integer that fits in an `i64`.
    Value(i64),
    /// Only digits (and maybe a `-`), but too long for an `i64`: certainly
    /// wrong, yet still a number, so a WA rather than a PE.
    TooLarge(&'a str),
    /// Not an integer at all.
    NotInteger(&'a str),
}

fn read_count(text: &str) -> Count<'_> {
    match parse_integer(text) {
        Some(value) => Count::Value(value),
        None => {
            let digits = text.strip_prefix('-').unwrap_or(text);
            if !digits.is_empty() && digits.bytes().all(|byte| byte.is_ascii_digit()) {
                Count::TooLarge(text)
            } else {
                Count::NotInteger(text)
            }
        }
    }
}

/// The answer file must hold exactly one integer per board, each equal to the
/// reference solver's: anything else means the test data is broken or stale.
fn check_answer_file(answer: &str, expected: &[usize]) -> Result<(), CheckerFailure> {
    let mut tokens = TokenReader::new(answer, Stream::Answer);
    for (index, &reference) in expected.iter().enumerate() {
        let board = index + 1;
        let token = tokens.next_token().ok_or_else(|| {
            CheckerFailure::new(format!(
                "the answer is invalid: board {board}: expected an integer, found end of answer"
            ))
        })?;
        let value = match read_count(token.text) {
            Count::Value(value) => value,
            Count::TooLarge(text) | Count::NotInteger(text) => {
                return Err(CheckerFailure::new(format!(
                    "the answer is invalid: line {}: board {board}: expected an integer, found {}",
                    token.line,
                    describe(text)
                )))
            }
        };
        if i64::try_from(reference).ok() != Some(value) {
            return Err(CheckerFailure::new(format!(
                "the answer file disagrees with the reference solver: board {board}: \
                 the answer says {value}, the reference finds {reference} (stale answer file?)"
            )));
        }
    }
    if let Some(token) = tokens.next_token() {
        return Err(CheckerFailure::new(format!(
            "the answer is invalid: line {}: expected end of answer after {} boards, found {}",
            token.line,
            expected.len(),
            describe(token.text)
        )));
    }
    Ok(())
}

fn check_output(output: &str, expected: &[usize]) -> CheckOutcome {
    let mut tokens = TokenReader::new(output, Stream::Output);
    for (index, &reference) in expected.iter().enumerate() {
        let board = index + 1;
        let Some(token) = tokens.next_token() else {
            return CheckOutcome::presentation_error(format!(
                "board {board}: expected an integer, found end of output"
            ));
        };
        match read_count(token.text) {
            Count::Value(value) if i64::try_from(reference).ok() == Some(value) => {}
            Count::Value(value) => {
                return CheckOutcome::wrong_answer(format!(
                    "board {board}: expected {reference}, got {value}"
                ))
            }
            Count::TooLarge(text) => {
                return CheckOutcome::wrong_answer(format!(
                    "board {board}: expected {reference}, got {}",
                    describe(text)
                ))
            }
            Count::NotInteger(text) => {
                return CheckOutcome::presentation_error(format!(
                    "board {board}: expected an integer, found {}",
                    describe(text)
                ))
            }
        }
    }
    if let Some(token) = tokens.next_token() {
        return CheckOutcome::presentation_error(format!(
            "line {}: extra output after the last board (board {}): found {}",
            token.line,
            expected.len(),
            describe(token.text)
        ));
    }
    let boards = expected.len();
    CheckOutcome::accepted(if boards == 1 {
        "1 board".to_owned()
    } else {
        format!("{boards} boards")
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::Verdict;
    use test_case::test_case;

    /// The sample of problems/rooks/statement.md: answers 5, 1, 5, 2, 4.
    const SAMPLE: &str = include_str!("../../../problems/rooks/tests/sample-1.in");
    const SAMPLE_ANSWER: &str = "5\n1\n5\n2\n4\n";

    #[test_case("5\n1\n5\n2\n4\n" ; "exact")]
    #[test_case("5\r\n1\r\n  5 2\t4\r\n\r\n" ; "crlf and extra spaces")]
    #[test_case("5\n1\n5\n2\n4" ; "no final newline")]
    #[test_case("5 1 5 2 4" ; "one line")]
    #[test_case("05\n1\n5\n2\n4\n" ; "leading zero reads as the same integer")]
    fn accepts(output: &str) {
        for answer in [None, Some(SAMPLE_ANSWER)] {
            assert_eq!(
                check(SAMPLE, output, answer),
                Ok(CheckOutcome::accepted("5 boards"))
            );
        }
    }

    #[test_case("5\n4\n5\n2\n4\n", Verdict::WrongAnswer, "board 2: expected 1, got 4" ; "wrong count")]
    #[test_case("5\n1\n5\n2\n-4\n", Verdict::WrongAnswer, "board 5: expected 4, got -4" ; "negative count")]
    #[test_case("5\n1\n99999999999999999999999\n", Verdict::WrongAnswer, "board 3: expected 5, got \"99999999999999999999999\"" ; "integer too large")]
    #[test_case("5\n1\n", Verdict::PresentationError, "board 3: expected an integer, found end of output" ; "missing token")]
    #[test_case("", Verdict::PresentationError, "board 1: expected an integer, found end of output" ; "empty output")]
    #[test_case("5\n1\nabc\n2\n4\n", Verdict::PresentationError, "board 3: expected an integer, found \"abc\"" ; "garbage")]
    #[test_case("5\n1\n5.0\n2\n4\n", Verdict::PresentationError, "board 3: expected an integer, found \"5.0\"" ; "decimal point")]
    #[test_case("5\n1\n+5\n2\n4\n", Verdict::PresentationError, "board 3: expected an integer, found \"+5\"" ; "plus sign")]
    #[test_case("5\n1\n5\n2\n4\n4\n", Verdict::PresentationError, "line 6: extra output after the last board (board 5): found \"4\"" ; "extra output")]
    #[test_case("5\n1\n5\n2\n4\ndone\n", Verdict::PresentationError, "line 6: extra output after the last board (board 5): found \"done\"" ; "extra text")]
    #[test_case("5\n4\nabc\n", Verdict::WrongAnswer, "board 2: expected 1, got 4" ; "first fault in board order decides")]
    fn rejects(output: &str, verdict: Verdict, reason: &str) {
        for answer in [None, Some(SAMPLE_ANSWER)] {
            let outcome = check(SAMPLE, output, answer).unwrap();
            assert_eq!(
                (outcome.verdict, outcome.reason.as_str()),
                (verdict, reason)
            );
        }
    }

    #[test_case("5\n1\n5\n2\n", "the answer is invalid: board 5: expected an integer, found end of answer" ; "answer too short")]
    #[test_case("5\n1\nfive\n2\n4\n", "the answer is invalid: line 3: board 3: expected an integer, found \"five\"" ; "answer not an integer")]
    #[test_case("5\n1\n5\n2\n4\n7\n", "the answer is invalid: line 6: expected end of answer after 5 boards, found \"7\"" ; "answer too long")]
    #[test_case("5\n1\n5\n3\n4\n", "the answer file disagrees with the reference solver: board 4: the answer says 3, the reference finds 2 (stale answer file?)" ; "stale answer")]
    fn fails_on_a_bad_answer_file(answer: &str, message: &str) {
        // Even a right output cannot be judged against broken judge data.
        assert_eq!(
            check(SAMPLE, SAMPLE_ANSWER, Some(answer)),
            Err(CheckerFailure::new(message))
        );
    }

    #[test_case("2\n..\n", "the input is invalid: line 3: expected row 2 of board 1, found end of file" ; "truncated board")]
    #[test_case("1\n.\n0\n1\n", "the input is invalid: line 4: expected the end of the input after the final 0, found \"1\"" ; "text after the final zero")]
    #[test_case("101\n", "the input is invalid: line 1: the board size n = 101 is outside 1..=100" ; "board too large for any profile")]
    fn fails_on_a_bad_input(input: &str, message: &str) {
        assert_eq!(check(input, "1\n", None), Err(CheckerFailure::new(message)));
    }

    #[test]
    fn grades_a_large_profile_board() {
        let input = format!("5\n{}0\n", ".....\n".repeat(5));
        assert_eq!(
            check(&input, "5", None),
            Ok(CheckOutcome::accepted("1 board"))
        );
        let outcome = check(&input, "4", None).unwrap();
        assert_eq!(outcome.reason, "board 1: expected 5, got 4");
    }
}
