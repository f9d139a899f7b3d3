//! The checker: reads one move per position and decides it against the
//! solved game, since many moves can be right (problems/matchsticks/statement.md: (judge's rule)
//! 'Optimal' is game-theoretic).
//!
//! It owns the reading of moves from outputs and answer files and the wording
//! of verdict reasons; the rules of placement are `input.rs`'s and the
//! outcomes `solve.rs`'s.

use super::input::{parse, Board, Input, Move, Orientation, Position};
use super::solve::{best_move, outcome, Outcome};
use super::validate::check_positions;
use crate::problems::text::{
    describe, parse_integer, Layout, Malformed, Stream, Token, TokenReader,
};
use crate::problems::{CheckOutcome, CheckerFailure};

/// A move as read, before the board decides whether it is legal: the numbers
/// may be anything an integer token can hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct WrittenMove {
    row: i64,
    column: i64,
    orientation: Orientation,
}

/// Reads one move: problems/matchsticks/statement.md one move: row, column, orientation (`-` or
/// `1`), written `00-` as in the original; (judge's rule) `0 0 -` is accepted
/// too. A token of exactly three characters is the compact form; any other
/// token starts the spaced form (a row of three characters cannot be on the
/// board anyway). The error is the reason after "position N: ".
fn read_move(reader: &mut TokenReader<'_>) -> Result<WrittenMove, Malformed> {
    let first = next_token(reader, "a move `rcd` or `r c d`")?;
    let characters: Vec<char> = first.text.chars().collect();
    if let [row, column, orientation] = characters[..] {
        let digit = |character: char| character.to_digit(10).map(i64::from);
        return match (
            digit(row),
            digit(column),
            Orientation::from_char(orientation),
        ) {
            (Some(row), Some(column), Some(orientation)) => Ok(WrittenMove {
                row,
                column,
                orientation,
            }),
            _ => Err(unexpected("a move `rcd` or `r c d`", &first)),
        };
    }
    let integer = |token: &Token<'_>, what: &str| {
        parse_integer(token.text).ok_or_else(|| unexpected(what, token))
    };
    let row = integer(&first, "a move `rcd` or `r c d`")?;
    let column_token = next_token(reader, "the column of a move `r c d`")?;
    let column = integer(&column_token, "the column of a move `r c d` (an integer)")?;
    let orientation_token = next_token(reader, "the orientation of a move `r c d`")?;
    let orientation = match orientation_token.text.chars().collect::<Vec<_>>()[..] {
        [character] => Orientation::from_char(character),
        _ => None,
    }
    .ok_or_else(|| unexpected("an orientation `-` or `1`", &orientation_token))?;
    Ok(WrittenMove {
        row,
        column,
        orientation,
    })
}

fn next_token<'a>(reader: &mut TokenReader<'a>, what: &str) -> Result<Token<'a>, Malformed> {
    let line = reader.line();
    reader.next_token().ok_or_else(|| {
        Malformed(format!(
            "expected {what}, found end of {} (line {line})",
            reader.stream()
        ))
    })
}

fn unexpected(what: &str, token: &Token<'_>) -> Malformed {
    Malformed(format!(
        "expected {what}, found {} (line {}, column {})",
        describe(token.text),
        token.line,
        token.column
    ))
}

/// How one move fares on its position.
enum Judgement {
    /// Legal and optimal.
    Optimal,
    /// Not a move on this board, or not optimal; the reason follows
    /// "position N: ".
    Wrong(String),
}

/// problems/matchsticks/statement.md: if the player to move can force a win, the move must keep a
/// forced win (leave the opponent in a lost position); if every move loses
/// against perfect play, every legal move is accepted. An illegal move
/// (occupied cell, connected stick, off the board) is WA.
fn judge(board: &Board, written: WrittenMove) -> Judgement {
    let shown = format!(
        "{} {} {}",
        written.row,
        written.column,
        written.orientation.to_char()
    );
    let chosen: Move = match board.legal_move(written.row, written.column, written.orientation) {
        Ok(chosen) => chosen,
        Err(illegal) => return Judgement::Wrong(format!("{shown} is illegal: {illegal}")),
    };
    if outcome(board) == Outcome::Loss {
        return Judgement::Optimal;
    }
    let after = board.with(chosen);
    match outcome(&after) {
        Outcome::Loss => Judgement::Optimal,
        // A won board always has a move, so the reply is there; the fallback
        // text keeps the message honest if it ever is not.
        Outcome::Win => Judgement::Wrong(format!(
            "{shown} leaves the opponent a win: {}",
            best_move(&after).map_or_else(|| "none".to_owned(), |reply| reply.to_string())
        )),
    }
}

/// Checks the judge's answer file: it must parse and hold an optimal move
/// for each position, nothing more; anything else is the judge's fault.
fn check_answer(input: &Input, answer: &str) -> Result<(), CheckerFailure> {
    let mut reader = TokenReader::new(answer, Stream::Answer);
    for position in &input.positions {
        let written = read_move(&mut reader).map_err(|reason| {
            CheckerFailure::new(format!(
                "the answer is malformed: position {}: {reason}",
                position.number
            ))
        })?;
        if let Judgement::Wrong(reason) = judge(&position.board, written) {
            return Err(CheckerFailure::new(format!(
                "the answer is stale or wrong: position {}: {reason}",
                position.number
            )));
        }
    }
    if let Some(extra) = reader.next_token() {
        return Err(CheckerFailure::new(format!(
            "the answer is malformed: {}",
            unexpected_after(Stream::Answer, input.positions.len(), &extra)
        )));
    }
    Ok(())
}

fn unexpected_after(stream: Stream, count: usize, extra: &Token<'_>) -> String {
    format!(
        "expected end of {stream} after {count} {}, found {} (line {}, column {})",
        if count == 1 { "move" } else { "moves" },
        describe(extra.text),
        extra.line,
        extra.column
    )
}

fn positions(count: usize) -> String {
    format!(
        "{count} {}",
        if count == 1 { "position" } else { "positions" }
    )
}

/// Decides `output` for `input`; `answer`, when given, is checked too.
/// The first wrong or unreadable move decides the verdict.
pub(crate) fn check(
    input: &str,
    output: &str,
    answer: Option<&str>,
) -> Result<CheckOutcome, CheckerFailure> {
    let input =
        parse(input, Layout::Lenient).map_err(|error| CheckerFailure::invalid_input(&error))?;
    check_positions(&input).map_err(|error| CheckerFailure::invalid_input(&error))?;
    if let Some(answer) = answer {
        check_answer(&input, answer)?;
    }
    let mut reader = TokenReader::new(output, Stream::Output);
    for Position { number, board, .. } in &input.positions {
        match read_move(&mut reader) {
            Err(reason) => {
                return Ok(CheckOutcome::presentation_error(format!(
                    "position {number}: {reason}"
                )))
            }
            Ok(written) => {
                if let Judgement::Wrong(reason) = judge(board, written) {
                    return Ok(CheckOutcome::wrong_answer(format!(
                        "position {number}: {reason}"
                    )));
                }
            }
        }
    }
    if let Some(extra) = reader.next_token() {
        return Ok(CheckOutcome::presentation_error(unexpected_after(
            Stream::Output,
            input.positions.len(),
            &extra,
        )));
    }
    Ok(CheckOutcome::accepted(positions(input.positions.len())))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problems::matchsticks::solve::greedy_move;
    use crate::verdict::Verdict;
    use test_case::test_case;

    /// problems/matchsticks/statement.md's sample: `00-`/`001` win the first, `211`/`201` the second.
    const SAMPLE: &str = "2\n0111\n-000\n-000\n1111\n----\n0010\n";

    fn outcome_of(input: &str, output: &str) -> (Verdict, String) {
        let decided = check(input, output, None).unwrap();
        (decided.verdict, decided.reason)
    }

    #[test_case("00-\n211\n" ; "compact")]
    #[test_case("0 0 -\n2 1 1\n" ; "spaced")]
    #[test_case("001\n2 0 1" ; "alternative winning moves and no final newline")]
    #[test_case("  0\t0 -\r\n\r\n201\r\n" ; "mixed whitespace and crlf")]
    #[test_case("0 0\n-\n2 1\n1\n" ; "a move split across lines")]
    fn accepts_sample(output: &str) {
        assert_eq!(
            outcome_of(SAMPLE, output),
            (Verdict::Accepted, "2 positions".to_owned())
        );
    }

    #[test_case("01-\n", "position 1: 0 1 - is illegal: cell 0 1 is occupied" ; "occupied")]
    #[test_case("10-\n", "position 1: 1 0 - is illegal: cell 1 0 is occupied" ; "occupied by a horizontal stick")]
    #[test_case("3 0 -\n", "position 1: 3 0 - is illegal: row 3 is off the board" ; "row off the board")]
    #[test_case("0 -1 1\n", "position 1: 0 -1 1 is illegal: column -1 is off the board" ; "negative column")]
    #[test_case("041\n", "position 1: 0 4 1 is illegal: column 4 is off the board" ; "compact column off the board")]
    fn rejects_illegal_moves_on_sample_second_position(output: &str, reason: &str) {
        let input = "1\n1111\n----\n0010\n";
        assert_eq!(
            outcome_of(input, output),
            (Verdict::WrongAnswer, reason.to_owned())
        );
    }

    #[test]
    fn rejects_connected_sticks_naming_the_stick() {
        let input = "1\n0000\n-010\n0000\n";
        assert_eq!(
            outcome_of(input, "1 1 -"),
            (
                Verdict::WrongAnswer,
                "position 1: 1 1 - is illegal: connected to the stick at 1 0".to_owned()
            )
        );
        assert_eq!(
            outcome_of(input, "0 2 1"),
            (
                Verdict::WrongAnswer,
                "position 1: 0 2 1 is illegal: connected to the stick at 1 2".to_owned()
            )
        );
    }

    /// A won position where the greedy move (fewest replies) loses; the
    /// reason names the reply that wins for the opponent, as problems/matchsticks/statement.md's
    /// example does.
    #[test]
    fn rejects_the_greedy_move_that_loses_a_won_position() {
        let input = "1\n0000\n0000\n000-\n";
        let board = Board::parse_rows(["0000", "0000", "000-"]).unwrap();
        assert_eq!(outcome(&board), Outcome::Win);
        let greedy = greedy_move(&board).unwrap();
        assert_eq!(greedy.to_string(), "0 0 -");
        assert_eq!(
            outcome_of(input, &greedy.compact()),
            (
                Verdict::WrongAnswer,
                "position 1: 0 0 - leaves the opponent a win: 0 3 1".to_owned()
            )
        );
        let winning = best_move(&board).unwrap();
        assert_eq!(outcome_of(input, &winning.to_string()).0, Verdict::Accepted);
    }

    #[test_case("x0-\n211\n", "position 1: expected a move `rcd` or `r c d`, found \"x0-\" (line 1, column 1)" ; "garbage compact")]
    #[test_case("00x\n211\n", "position 1: expected a move `rcd` or `r c d`, found \"00x\" (line 1, column 1)" ; "bad compact orientation")]
    #[test_case("0 0 x\n211\n", "position 1: expected an orientation `-` or `1`, found \"x\" (line 1, column 5)" ; "bad spaced orientation")]
    #[test_case("0 a -\n211\n", "position 1: expected the column of a move `r c d` (an integer), found \"a\" (line 1, column 3)" ; "bad column")]
    #[test_case("00-\n", "position 2: expected a move `rcd` or `r c d`, found end of output (line 2)" ; "missing move")]
    #[test_case("00-\n2 1", "position 2: expected the orientation of a move `r c d`, found end of output (line 2)" ; "truncated move")]
    #[test_case("", "position 1: expected a move `rcd` or `r c d`, found end of output (line 1)" ; "empty output")]
    #[test_case("00-\n211\n00-\n", "expected end of output after 2 moves, found \"00-\" (line 3, column 1)" ; "extra move")]
    fn presentation_errors(output: &str, reason: &str) {
        assert_eq!(
            outcome_of(SAMPLE, output),
            (Verdict::PresentationError, reason.to_owned())
        );
    }

    /// The empty board is lost for the player to move: every legal move is
    /// right, even one that a won position would punish.
    #[test_case("0 0 -" ; "corner")]
    #[test_case("231" ; "other corner")]
    #[test_case("1 1 1" ; "middle")]
    fn lost_position_accepts_any_legal_move(output: &str) {
        assert_eq!(outcome(&Board::EMPTY), Outcome::Loss);
        assert_eq!(
            outcome_of("1\n0000\n0000\n0000\n", output),
            (Verdict::Accepted, "1 position".to_owned())
        );
    }

    /// `1-1-/-1-1/1-00` is lost with one legal move (it unblocks a reply), and
    /// a lost position still requires a legal move.
    #[test_case("2 2 1", Verdict::Accepted, "1 position" ; "the legal move")]
    #[test_case("2 3 -", Verdict::WrongAnswer, "position 1: 2 3 - is illegal: connected to the stick at 2 1" ; "connected")]
    #[test_case("2 2 -", Verdict::WrongAnswer, "position 1: 2 2 - is illegal: connected to the stick at 2 1" ; "connected left")]
    #[test_case("2 3 1", Verdict::WrongAnswer, "position 1: 2 3 1 is illegal: connected to the stick at 1 3" ; "connected above")]
    fn lost_position_still_requires_a_legal_move(output: &str, verdict: Verdict, reason: &str) {
        assert_eq!(
            outcome_of("1\n1-1-\n-1-1\n1-00\n", output),
            (verdict, reason.to_owned())
        );
    }

    #[test_case("00-\n03-\n", None ; "good answer")]
    #[test_case("0 0 1 1 1 1", None ; "other good answer")]
    #[test_case("00-\n", Some("the answer is malformed: position 2: expected a move `rcd` or `r c d`, found end of answer (line 2)") ; "short answer")]
    #[test_case("00-\n03-\n12-\n", Some("the answer is malformed: expected end of answer after 2 moves, found \"12-\" (line 3, column 1)") ; "long answer")]
    #[test_case("00-\n0 0 -\n", Some("the answer is stale or wrong: position 2: 0 0 - leaves the opponent a win: 0 3 1") ; "stale answer")]
    #[test_case("00-\n2 3 -\n", Some("the answer is stale or wrong: position 2: 2 3 - is illegal: cell 2 3 is occupied") ; "wrong answer")]
    #[test_case("00-\nabc\n", Some("the answer is malformed: position 2: expected a move `rcd` or `r c d`, found \"abc\" (line 2, column 1)") ; "garbage answer")]
    fn answer_file(answer: &str, failure: Option<&str>) {
        // The first sample position, then one where the greedy move loses.
        let input = "2\n0111\n-000\n-000\n0000\n0000\n000-\n";
        let decided = check(input, "001\n12-\n", Some(answer));
        match failure {
            None => assert_eq!(decided.unwrap().verdict, Verdict::Accepted),
            Some(message) => assert_eq!(decided.unwrap_err().to_string(), message),
        }
    }

    #[test]
    fn invalid_input_is_a_checker_failure() {
        assert_eq!(
            check("1\n1-1-\n-1-1\n1-1-\n", "00-", None).unwrap_err().to_string(),
            "the input is invalid: line 2: position 1 (lines 2-4: \"1-1-\", \"-1-1\", \"1-1-\") has no legal move"
        );
        assert_eq!(
            check("x\n", "00-", None).unwrap_err().to_string(),
            "the input is invalid: line 1: expected the number of positions k (an integer), found \"x\""
        );
    }
}
