//! The mayan checker: reads a contestant's moves (or `-1`), replays them and
//! decides AC, WA or PE with a one-line reason. It also reads the judge's
//! answer file, whose faults are the judge's (a [`CheckerFailure`]).
//!
//! The rules it enforces are those of problems/mayan/statement.md (its
//! checker and its same-colour swaps); it plays moves with `input.rs` and finds the smallest
//! solutions with `solve.rs`.

use super::input::{
    describe_moves, parse, Board, Direction, Move, MoveError, Puzzle, COLUMNS, ROWS,
};
use super::solve::{solve, Reading};
use crate::problems::text::{
    describe, parse_integer, plural, Layout, Malformed, Stream, TokenReader,
};
use crate::problems::{CheckOptions, CheckOutcome, CheckerFailure};

/// What an output (or answer) claims, once its tokens are read.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Claim {
    /// `-1`: the board cannot be cleared in exactly n moves.
    NoSolution,
    /// Moves as written: three integers each, not yet known to be legal.
    Moves(Vec<[i64; 3]>),
}

/// The smallest solutions under both readings.
struct Reference {
    without_swaps: Option<Vec<Move>>,
    with_swaps: Option<Vec<Move>>,
}

/// Decides one output.
///
/// problems/mayan/statement.md: `-1` is right only when no solution exists. A move
/// list must have exactly n moves, each dragging an existing block to a cell
/// inside the board, and the board must be empty after the last. (judge's
/// rule) By default the checker also requires the lexicographically smallest
/// solution; and for same-colour swaps the checker accepts the right
/// answer under either reading: the smallest solution, or `-1` where that
/// reading has none.
pub fn check(
    input: &str,
    output: &str,
    answer: Option<&str>,
    options: &CheckOptions,
) -> Result<CheckOutcome, CheckerFailure> {
    let puzzle =
        parse(input, Layout::Lenient).map_err(|error| CheckerFailure::invalid_input(&error))?;
    let reference = Reference {
        without_swaps: solve(&puzzle.board, puzzle.moves, Reading::WithoutSameColourSwaps),
        with_swaps: solve(&puzzle.board, puzzle.moves, Reading::WithSameColourSwaps),
    };
    if let Some(answer) = answer {
        check_answer(&puzzle, &reference, answer, options)?;
    }
    let claim = match read_claim(output, Stream::Output) {
        Ok(claim) => claim,
        Err(Malformed(reason)) => return Ok(CheckOutcome::presentation_error(reason)),
    };
    judge(&puzzle, &reference, &claim, options)
}

/// The judge's answer file must be right too: "agree with the reference
/// under one reading", or the test data is broken.
fn check_answer(
    puzzle: &Puzzle,
    reference: &Reference,
    answer: &str,
    options: &CheckOptions,
) -> Result<(), CheckerFailure> {
    let claim = read_claim(answer, Stream::Answer)
        .map_err(|reason| CheckerFailure::new(format!("the answer is malformed: {reason}")))?;
    let outcome = judge(puzzle, reference, &claim, options)?;
    if outcome.verdict.is_accepted() {
        Ok(())
    } else {
        Err(CheckerFailure::new(format!(
            "the answer disagrees with the reference solver: {}",
            outcome.reason
        )))
    }
}

/// Decides a claim that has been read.
fn judge(
    puzzle: &Puzzle,
    reference: &Reference,
    claim: &Claim,
    options: &CheckOptions,
) -> Result<CheckOutcome, CheckerFailure> {
    let written = match claim {
        Claim::NoSolution => {
            // The reading with same-colour swaps has every solution the other
            // has, so "some reading has none" means "the other has none".
            return Ok(match &reference.without_swaps {
                None => CheckOutcome::accepted(format!(
                    "-1: the board cannot be cleared in exactly {}",
                    plural(puzzle.moves as u64, "move", "moves")
                )),
                Some(solution) => CheckOutcome::wrong_answer(format!(
                    "-1, but the board can be cleared: {}",
                    describe_moves(solution)
                )),
            });
        }
        Claim::Moves(written) => written,
    };
    if written.len() != puzzle.moves {
        return Ok(CheckOutcome::wrong_answer(format!(
            "expected {}, found {}",
            plural(puzzle.moves as u64, "move", "moves"),
            written.len()
        )));
    }
    let replay = match replay(&puzzle.board, written) {
        Replayed::Solved(replay) => replay,
        Replayed::Wrong(reason) => return Ok(CheckOutcome::wrong_answer(reason)),
    };
    let summary = format!(
        "cleared in {}",
        plural(puzzle.moves as u64, "move", "moves")
    );
    if !options.lexmin {
        return Ok(CheckOutcome::accepted(summary));
    }
    let candidates = [&reference.without_swaps, &reference.with_swaps];
    if candidates
        .iter()
        .any(|candidate| candidate.as_deref() == Some(replay.moves.as_slice()))
    {
        return Ok(CheckOutcome::accepted(summary));
    }
    // A solution that makes a same-colour swap is one only under the reading
    // that allows them; compare it with that reading's smallest.
    let smallest = if replay.same_colour_swap {
        &reference.with_swaps
    } else {
        &reference.without_swaps
    };
    let Some(smallest) = smallest else {
        return Err(CheckerFailure::new(format!(
            "the output clears the board ({}) but the reference solver found no solution",
            describe_moves(&replay.moves)
        )));
    };
    let differs = smallest
        .iter()
        .zip(&replay.moves)
        .position(|(expected, found)| expected != found)
        .map_or(1, |index| index + 1);
    Ok(CheckOutcome::wrong_answer(format!(
        "valid but not the smallest: expected {} (move {differs} differs)",
        describe_moves(smallest)
    )))
}

/// The moves of a valid solution, and whether one of them swapped two
/// blocks of the same colour.
struct Replay {
    moves: Vec<Move>,
    same_colour_swap: bool,
}

/// What replaying the moves as written found: a valid solution, or why it
/// is wrong (a WA's reason: a verdict, not an error).
enum Replayed {
    Solved(Replay),
    Wrong(String),
}

/// Plays the moves as written on `board`; [`Replayed::Wrong`] explains the
/// first one that goes wrong, or that the board is not empty at the end.
fn replay(board: &Board, written: &[[i64; 3]]) -> Replayed {
    let mut board = *board;
    let mut moves = Vec::with_capacity(written.len());
    let mut same_colour_swap = false;
    for (index, &[x, y, g]) in written.iter().enumerate() {
        let number = index + 1;
        let direction = match g {
            1 => Direction::Right,
            -1 => Direction::Left,
            _ => return Replayed::Wrong(format!("move {number}: {x} {y} {g}: g must be 1 or -1")),
        };
        let no_block = || format!("move {number}: {x} {y} {g}: no block at {x} {y}");
        let (Ok(column), Ok(row)) = (usize::try_from(x), usize::try_from(y)) else {
            return Replayed::Wrong(no_block());
        };
        if column >= COLUMNS || row >= ROWS {
            return Replayed::Wrong(no_block());
        }
        let step = Move {
            x: column,
            y: row,
            direction,
        };
        same_colour_swap |= board.is_same_colour_swap(step);
        match board.play(step) {
            Ok(()) => moves.push(step),
            Err(MoveError::NoBlock) => return Replayed::Wrong(no_block()),
            Err(MoveError::OffBoard) => {
                return Replayed::Wrong(format!("move {number}: {x} {y} {g}: moves off the board"))
            }
        }
    }
    let left = board.block_count();
    if left > 0 {
        let blocks = if left == 1 {
            "block remains"
        } else {
            "blocks remain"
        };
        return Replayed::Wrong(format!(
            "after {} {left} {blocks}",
            plural(written.len() as u64, "move", "moves")
        ));
    }
    Replayed::Solved(Replay {
        moves,
        same_colour_swap,
    })
}

/// Reads `-1` or a list of moves `x y g`. Whitespace is free: only tokens
/// count. The error says where the text stops making sense.
fn read_claim(text: &str, stream: Stream) -> Result<Claim, Malformed> {
    let mut reader = TokenReader::new(text, stream);
    let mut numbers = Vec::new();
    while let Some(token) = reader.next_token() {
        let value = parse_integer(token.text).ok_or_else(|| {
            Malformed(format!(
                "line {}, column {}: expected an integer, found {}",
                token.line,
                token.column,
                describe(token.text)
            ))
        })?;
        numbers.push(value);
    }
    match numbers.as_slice() {
        [] => Err(Malformed(format!(
            "the {stream} is empty: expected -1 or the moves"
        ))),
        [-1] => Ok(Claim::NoSolution),
        _ if numbers.len() % 3 != 0 => Err(Malformed(format!(
            "expected moves of 3 numbers each (x y g) or -1, found {} numbers",
            numbers.len()
        ))),
        _ => Ok(Claim::Moves(
            numbers
                .chunks_exact(3)
                .map(|chunk| [chunk[0], chunk[1], chunk[2]])
                .collect(),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::Verdict;
    use test_case::test_case;

    /// The original sample; its smallest solution is `2 1 1, 3 1 1, 3 0 1`.
    const SAMPLE: &str = "3\n1 0\n2 1 0\n2 3 4 0\n3 1 0\n2 4 3 4 0\n";
    /// `1 1 _ 1` with n = 2: the smallest solution is `1 0 1, 0 0 1` without
    /// same-colour swaps and `0 0 1, 3 0 -1` with them (a wasted swap first).
    const READINGS_DIFFER: &str = "2\n1 0\n1 0\n0\n1 0\n0\n";
    /// Solvable only by wasting a move on a same-colour swap: `-1` is right
    /// under the reading without them, `1 0 1, 1 1 1, 2 0 1` under the other.
    const ONLY_WITH_SWAPS: &str = "3\n0\n2 2 0\n2 0\n0\n2 0\n";
    /// The sample with n = 1: it cannot be cleared in one move.
    const UNSOLVABLE: &str = "1\n1 0\n2 1 0\n2 3 4 0\n3 1 0\n2 4 3 4 0\n";

    fn decide(input: &str, output: &str, lexmin: bool) -> (Verdict, String) {
        let outcome = check(input, output, None, &CheckOptions { lexmin })
            .unwrap_or_else(|failure| panic!("checker failure: {failure}"));
        (outcome.verdict, outcome.reason)
    }

    #[test_case(SAMPLE, "2 1 1\n3 1 1\n3 0 1\n", "cleared in 3 moves" ; "reference answer")]
    #[test_case(SAMPLE, "  2 1 1 3 1 1\r\n\n3 0 1", "cleared in 3 moves" ; "whitespace is free")]
    #[test_case(UNSOLVABLE, "-1\n", "-1: the board cannot be cleared in exactly 1 move" ; "minus one when unsolvable")]
    #[test_case(READINGS_DIFFER, "1 0 1\n0 0 1\n", "cleared in 2 moves" ; "smallest without same colour swaps")]
    #[test_case(READINGS_DIFFER, "0 0 1\n3 0 -1\n", "cleared in 2 moves" ; "smallest with same colour swaps")]
    #[test_case(ONLY_WITH_SWAPS, "-1\n", "-1: the board cannot be cleared in exactly 3 moves" ; "minus one where one reading has none")]
    #[test_case(ONLY_WITH_SWAPS, "1 0 1\n1 1 1\n2 0 1\n", "cleared in 3 moves" ; "solution where one reading has none")]
    fn accepts(input: &str, output: &str, reason: &str) {
        assert_eq!(
            decide(input, output, true),
            (Verdict::Accepted, reason.to_owned())
        );
    }

    #[test_case(SAMPLE, "3 1 -1\n3 1 1\n3 0 1\n", "valid but not the smallest: expected 2 1 1, 3 1 1, 3 0 1 (move 1 differs)" ; "valid but not smallest")]
    #[test_case(SAMPLE, "2 1 1\n4 1 -1\n3 0 1\n", "valid but not the smallest: expected 2 1 1, 3 1 1, 3 0 1 (move 2 differs)" ; "left swap instead of the equal right swap")]
    #[test_case(READINGS_DIFFER, "1 0 -1\n3 0 -1\n", "valid but not the smallest: expected 0 0 1, 3 0 -1 (move 1 differs)" ; "same colour swap compared with its reading")]
    #[test_case(SAMPLE, "2 1 1\n3 1 1\n", "expected 3 moves, found 2" ; "one move short")]
    #[test_case(SAMPLE, "2 1 1\n3 1 1\n3 0 1\n0 0 1\n", "expected 3 moves, found 4" ; "extra move")]
    #[test_case(SAMPLE, "-1\n", "-1, but the board can be cleared: 2 1 1, 3 1 1, 3 0 1" ; "minus one when solvable")]
    #[test_case(READINGS_DIFFER, "-1\n", "-1, but the board can be cleared: 1 0 1, 0 0 1" ; "minus one when solvable under both readings")]
    #[test_case(SAMPLE, "0 1 1\n3 1 1\n3 0 1\n", "move 1: 0 1 1: no block at 0 1" ; "moving an empty cell")]
    #[test_case(SAMPLE, "2 1 1\n3 1 1\n9 0 1\n", "move 3: 9 0 1: no block at 9 0" ; "moving a cell off the board")]
    #[test_case(SAMPLE, "2 1 1\n3 -1 1\n3 0 1\n", "move 2: 3 -1 1: no block at 3 -1" ; "negative row")]
    #[test_case(SAMPLE, "4 0 1\n3 1 1\n3 0 1\n", "move 1: 4 0 1: moves off the board" ; "moving off the right edge")]
    #[test_case(SAMPLE, "0 0 -1\n3 1 1\n3 0 1\n", "move 1: 0 0 -1: moves off the board" ; "moving off the left edge")]
    #[test_case(SAMPLE, "2 1 0\n3 1 1\n3 0 1\n", "move 1: 2 1 0: g must be 1 or -1" ; "g of zero")]
    #[test_case(SAMPLE, "2 1 1\n3 1 1\n0 0 1\n", "after 3 moves 12 blocks remain" ; "blocks remain")]
    #[test_case(READINGS_DIFFER, "0 0 1\n1 0 1\n", "after 2 moves 3 blocks remain" ; "a wasted swap then a wrong move")]
    fn rejects(input: &str, output: &str, reason: &str) {
        let (verdict, found) = decide(input, output, true);
        assert_eq!((verdict, found.as_str()), (Verdict::WrongAnswer, reason));
    }

    #[test_case("abc\n", "line 1, column 1: expected an integer, found \"abc\"" ; "garbage")]
    #[test_case("2 1 1\n3 1 x\n", "line 2, column 5: expected an integer, found \"x\"" ; "garbage in a move")]
    #[test_case("", "the output is empty: expected -1 or the moves" ; "empty output")]
    #[test_case("2 1 1\n3 1\n", "expected moves of 3 numbers each (x y g) or -1, found 5 numbers" ; "incomplete move")]
    #[test_case("-1 -1\n", "expected moves of 3 numbers each (x y g) or -1, found 2 numbers" ; "minus one twice")]
    fn presentation_errors(output: &str, reason: &str) {
        assert_eq!(
            decide(SAMPLE, output, true),
            (Verdict::PresentationError, reason.to_owned())
        );
    }

    #[test]
    fn any_valid_solution_passes_without_lexmin() {
        for output in ["3 1 -1\n3 1 1\n3 0 1\n", "2 1 1\n4 1 -1\n4 0 -1\n"] {
            assert_eq!(
                decide(SAMPLE, output, false),
                (Verdict::Accepted, "cleared in 3 moves".to_owned())
            );
            assert_eq!(decide(SAMPLE, output, true).0, Verdict::WrongAnswer);
        }
        // Without lexmin an invalid answer is still wrong.
        assert_eq!(decide(SAMPLE, "-1\n", false).0, Verdict::WrongAnswer);
    }

    #[test_case(SAMPLE, "2 1 1\n3 1 1\n3 0 1\n" ; "sample reference")]
    #[test_case(READINGS_DIFFER, "1 0 1\n0 0 1\n" ; "reading without same colour swaps")]
    #[test_case(READINGS_DIFFER, "0 0 1\n3 0 -1\n" ; "reading with same colour swaps")]
    #[test_case(ONLY_WITH_SWAPS, "-1\n" ; "minus one under one reading")]
    fn accepts_a_right_answer_file(input: &str, answer: &str) {
        let outcome = check(input, answer, Some(answer), &CheckOptions::default());
        assert_eq!(
            outcome.map(|outcome| outcome.verdict),
            Ok(Verdict::Accepted)
        );
    }

    #[test_case(SAMPLE, "2 1 1\n3 1 x\n", "the answer is malformed: line 2, column 5: expected an integer, found \"x\"" ; "malformed")]
    #[test_case(SAMPLE, "-1\n", "the answer disagrees with the reference solver: -1, but the board can be cleared: 2 1 1, 3 1 1, 3 0 1" ; "wrong minus one")]
    #[test_case(SAMPLE, "3 1 -1\n3 1 1\n3 0 1\n", "the answer disagrees with the reference solver: valid but not the smallest: expected 2 1 1, 3 1 1, 3 0 1 (move 1 differs)" ; "not the smallest")]
    #[test_case(UNSOLVABLE, "2 1 1\n", "the answer disagrees with the reference solver: after 1 move 12 blocks remain" ; "not a solution")]
    fn a_wrong_answer_file_is_a_checker_failure(input: &str, answer: &str, message: &str) {
        let outcome = check(input, "-1\n", Some(answer), &CheckOptions::default());
        assert_eq!(outcome, Err(CheckerFailure::new(message)));
    }

    #[test]
    fn an_invalid_input_is_a_checker_failure() {
        let failure = check("6\n0\n0\n0\n0\n0\n", "-1\n", None, &CheckOptions::default())
            .expect_err("n = 6 is not a valid input");
        assert_eq!(
            failure.to_string(),
            "the input is invalid: line 1: n = 6 is outside 1..=5"
        );
    }
}
