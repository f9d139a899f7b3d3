//! What `judge validate mayan` checks: the original constraints (in
//! `input.rs`, shared with the solver and the checker) and the promises of a
//! generator profile. It does not generate or solve beyond what a promise
//! needs.

use super::input::{parse, Puzzle, COLUMNS, MAX_MOVES};
use super::solve::analyse;
use crate::problems::text::Layout;
use crate::problems::{InputError, Profile};

/// The generator profiles, the default first.
pub(crate) static PROFILES: &[Profile] = &[
    Profile {
        name: "random",
        about: "random boards, 1 to 5 moves, solvable and unsolvable",
    },
    Profile {
        name: "bottom-row",
        about: "every block on the bottom row, like 30% of the original data",
    },
    Profile {
        name: "hard",
        about: "dense boards and n = 5, solvable and unsolvable",
    },
    Profile {
        name: "edge",
        about: "boards whose answer depends on the same-colour-swap reading or that clear in fewer than n moves",
    },
];

/// The fewest blocks a `hard` board holds: more than half of the 35 cells.
pub(crate) const HARD_MIN_BLOCKS: usize = 18;

/// Parses `input` strictly and checks the original constraints, then what
/// `profile` promises:
/// - `bottom-row`: every block on row 0 (problems/mayan/statement.md: 30% of cases with
///   every block on the bottom row);
/// - `hard`: n = 5 and at least [`HARD_MIN_BLOCKS`] blocks ("dense boards,
///   n = 5");
/// - `random`, `bottom-row`, `hard`: the answer is the same under both
///   readings and the board cannot be cleared in fewer than n moves
///   (problems/mayan/statement.md: the generators never emit a board whose answer depends
///   on the reading — nor one that can be cleared in fewer than n moves.
///   Such boards belong only to an explicit `edge` profile);
/// - `edge`: the opposite, what the `edge` generator promises: the board
///   clears in fewer than n moves or its answer depends on the reading
///   (issue #10: every board used to pass as `edge`).
///
/// With or without a profile, an empty board is invalid: **(judge's rule)**
/// every input holds at least one block (`statement.md`, Input). An empty
/// board is cleared by 0 moves, so "exactly n" and "within n" would disagree
/// on it, and the original data never has one. The lenient readers of
/// `solve` and the checker still read it (the answer is `-1`).
pub(crate) fn validate(input: &str, profile: Option<&str>) -> Result<Puzzle, InputError> {
    let puzzle = parse(input, Layout::Strict)?;
    if puzzle.board.is_empty() {
        return Err(InputError::constraint(
            2,
            "the board is empty: every input holds at least one block (judge's rule)",
        ));
    }
    let Some(profile) = profile else {
        return Ok(puzzle);
    };
    match profile {
        "random" | "edge" => {}
        "bottom-row" => {
            for x in 0..COLUMNS {
                if puzzle.board.height(x) > 1 {
                    return Err(InputError::constraint(
                        column_line(x),
                        format!(
                            "the block at ({x},1) is above the bottom row; \
                             profile `bottom-row` has every block on row 0"
                        ),
                    ));
                }
            }
        }
        "hard" => {
            if puzzle.moves != MAX_MOVES {
                return Err(InputError::constraint(
                    1,
                    format!(
                        "n = {}, but profile `hard` has n = {MAX_MOVES}",
                        puzzle.moves
                    ),
                ));
            }
            let blocks = puzzle.board.block_count();
            if blocks < HARD_MIN_BLOCKS {
                return Err(InputError::constraint(
                    0,
                    format!(
                        "the board has {blocks} blocks, but profile `hard` has at least \
                         {HARD_MIN_BLOCKS}"
                    ),
                ));
            }
        }
        unknown => {
            let known = PROFILES
                .iter()
                .map(|profile| profile.name)
                .collect::<Vec<_>>()
                .join(", ");
            return Err(InputError::constraint(
                0,
                format!("mayan has no profile `{unknown}`; known: {known}"),
            ));
        }
    }
    if profile == "edge" {
        check_edge(&puzzle)?;
    } else {
        check_plain(&puzzle, profile)?;
    }
    Ok(puzzle)
}

/// The promise of every profile but `edge`: one answer under both readings,
/// and no way to clear the board in fewer than n moves.
fn check_plain(puzzle: &Puzzle, profile: &str) -> Result<(), InputError> {
    let analysis = analyse(puzzle);
    if let Some(fewer) = analysis.fewer {
        return Err(InputError::constraint(
            1,
            format!(
                "the board can be cleared in {}, fewer than n = {}; \
                 only profile `edge` has such boards",
                crate::problems::text::plural(fewer as u64, "move", "moves"),
                puzzle.moves
            ),
        ));
    }
    // Implied by the check above (a solution with a same-colour swap, a no-op,
    // minus that swap clears the board in n - 1 moves), and kept because the
    // promise is the point of the profile and costs nothing more to check.
    if analysis.with_swaps != analysis.without_swaps {
        return Err(InputError::constraint(
            1,
            format!(
                "the answer depends on whether same-colour swaps are moves; \
                 only profile `edge` has such boards, not `{profile}`"
            ),
        ));
    }
    Ok(())
}

/// The promise of `edge` (generate.rs, `edge`): problems/mayan/statement.md's boards that
/// "belong only to an explicit `edge` profile", those that clear in fewer
/// than n moves or whose answer depends on the same-colour-swap reading.
fn check_edge(puzzle: &Puzzle) -> Result<(), InputError> {
    if analyse(puzzle).is_plain() {
        return Err(InputError::constraint(
            1,
            format!(
                "the board cannot be cleared in fewer than n = {} moves and its answer does not \
                 depend on same-colour swaps; profile `edge` has only boards that do one or the other",
                puzzle.moves
            ),
        ));
    }
    Ok(())
}

/// The input line that lists column x.
fn column_line(x: usize) -> usize {
    x + 2
}

#[cfg(test)]
mod tests {
    use super::*;
    use test_case::test_case;

    const SAMPLE: &str = "3\n1 0\n2 1 0\n2 3 4 0\n3 1 0\n2 4 3 4 0\n";
    /// `1 1 _ 1` with n = 2: clears in one move, and the readings differ.
    const CLEARS_IN_FEWER: &str = "2\n1 0\n1 0\n0\n1 0\n0\n";
    /// 20 blocks in no run, n = 5, one lone block of colour 9.
    const DENSE: &str = "5\n1 3 1 3 9 0\n2 4 2 4 0\n3 1 3 1 0\n4 2 4 2 0\n1 3 1 3 0\n";

    #[test_case(SAMPLE, None ; "sample, no profile")]
    #[test_case(SAMPLE, Some("random") ; "sample, random")]
    #[test_case(CLEARS_IN_FEWER, Some("edge") ; "edge board, edge")]
    #[test_case(CLEARS_IN_FEWER, None ; "edge board, no profile")]
    #[test_case("1\n1 0\n0\n2 0\n0\n1 0\n", Some("bottom-row") ; "bottom row")]
    #[test_case(DENSE, Some("hard") ; "dense")]
    fn accepts(input: &str, profile: Option<&str>) {
        assert_eq!(validate(input, profile).map(drop), Ok(()));
    }

    #[test_case(SAMPLE, "bottom-row", "line 3: the block at (1,1) is above the bottom row; profile `bottom-row` has every block on row 0" ; "sample is not bottom row")]
    #[test_case(SAMPLE, "hard", "line 1: n = 3, but profile `hard` has n = 5" ; "sample is not hard")]
    #[test_case("5\n1 0\n2 1 0\n2 3 4 0\n3 1 0\n2 4 3 4 0\n", "hard", "the board has 12 blocks, but profile `hard` has at least 18" ; "sparse is not hard")]
    #[test_case(CLEARS_IN_FEWER, "random", "line 1: the board can be cleared in 1 move, fewer than n = 2; only profile `edge` has such boards" ; "fewer moves")]
    #[test_case(CLEARS_IN_FEWER, "bottom-row", "line 1: the board can be cleared in 1 move, fewer than n = 2; only profile `edge` has such boards" ; "fewer moves on the bottom row")]
    #[test_case(SAMPLE, "edge", "line 1: the board cannot be cleared in fewer than n = 3 moves and its answer does not depend on same-colour swaps; profile `edge` has only boards that do one or the other" ; "an unambiguous board is not edge")]
    #[test_case(SAMPLE, "huge", "mayan has no profile `huge`; known: random, bottom-row, hard, edge" ; "unknown profile")]
    fn rejects(input: &str, profile: &str, message: &str) {
        let error = validate(input, Some(profile)).expect_err("breaks the profile's promise");
        assert_eq!(error.to_string(), message);
    }

    /// (judge's rule) an empty board is invalid for `validate`, with or
    /// without a profile.
    #[test_case(None ; "no profile")]
    #[test_case(Some("edge") ; "edge")]
    #[test_case(Some("random") ; "random")]
    fn rejects_an_empty_board(profile: Option<&str>) {
        let error = validate("1\n0\n0\n0\n0\n0\n", profile).expect_err("empty");
        assert_eq!(
            error.to_string(),
            "line 2: the board is empty: every input holds at least one block (judge's rule)"
        );
    }
}
