//! What `judge validate mayan` checks: the original constraints (in
//! `input.rs`, shared with the solver and the checker) and the promises of a
//! generator profile. It does not generate or solve beyond what a promise
//! needs.

use super::input::{parse, Puzzle, COLUMNS, MAX_MOVES};
use super::solve::analyse;
use crate::problems::text::Layout;
use crate::problems::{InputError, Profile};

/// The generator profiles, the default first.
pub static PROFILES: &[Profile] = &[
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
pub const HARD_MIN_BLOCKS: usize = 20;

/// Parses `input` strictly and checks the original constraints, then what
/// `profile` promises:
/// - `bottom-row`: every block on row 0 (PROBLEMS.md: "30% of cases with
///   every block on the bottom row");
/// - `hard`: n = 5 and at least [`HARD_MIN_BLOCKS`] blocks ("dense boards,
///   n = 5");
/// - `random`, `bottom-row`, `hard`: the answer is the same under both
///   readings and the board cannot be cleared in fewer than n moves
///   (PROBLEMS.md: "the generators never emit a board whose answer depends
///   on the reading — nor one that can be cleared in fewer than n moves.
///   Such boards belong only to an explicit `edge` profile");
/// - `edge`: nothing more.
pub fn validate(input: &str, profile: Option<&str>) -> Result<Puzzle, InputError> {
    let puzzle = parse(input, Layout::Strict)?;
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
    if profile != "edge" {
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
                "the board can be cleared in {fewer} moves, fewer than n = {}; \
                 only profile `edge` has such boards",
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

/// The input line that lists column x.
fn column_line(x: usize) -> usize {
    x + 2
}
