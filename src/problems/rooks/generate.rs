//! Random rooks inputs, one generator per profile.
//!
//! Every random choice comes from the caller's [`ChaCha8Rng`] through integer
//! ranges only (no floating point), so the same seed gives the same bytes on
//! every machine. Each profile keeps the promise [`super::validate`] checks
//! for it; this module does not validate.

use super::input::{print_input, Board, Cell, MAX_SIZE};
use super::validate::{ORIGINAL_MAX_SIZE, PROFILES};
use crate::problems::GenerateError;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// One random input for `profile`.
pub fn generate(profile: &str, rng: &mut ChaCha8Rng) -> Result<String, GenerateError> {
    let boards = match profile {
        "small" => small_boards(rng),
        "large" => large_boards(rng),
        other => {
            return Err(GenerateError::UnknownProfile {
                problem: "rooks",
                profile: other.to_owned(),
                known: PROFILES
                    .iter()
                    .map(|profile| profile.name)
                    .collect::<Vec<_>>()
                    .join(", "),
            })
        }
    };
    Ok(print_input(&boards))
}

/// Wall densities, in percent, a board may be drawn with: the ends are there
/// so that open boards and fully walled ones both occur.
const WALL_PERCENTS: [u32; 7] = [0, 10, 25, 40, 55, 75, 100];

/// How a row of a `small` board is filled.
fn small_row_cell(rng: &mut ChaCha8Rng, row_kind: u32, wall_percent: u32) -> Cell {
    match row_kind {
        0 => Cell::Empty,
        1 => Cell::Wall,
        _ => random_cell(rng, wall_percent),
    }
}

fn random_cell(rng: &mut ChaCha8Rng, wall_percent: u32) -> Cell {
    if rng.random_range(0..100) < wall_percent {
        Cell::Wall
    } else {
        Cell::Empty
    }
}

/// problems/rooks/statement.md: Original constraint: 1 <= n <= 4, several boards per
/// file. Each board has its own density, and about one row in three is
/// forced all empty or all wall, the shapes hand-written tests like to probe.
fn small_boards(rng: &mut ChaCha8Rng) -> Vec<Board> {
    let count = rng.random_range(3..=8);
    (0..count)
        .map(|_| {
            let size = rng.random_range(1..=ORIGINAL_MAX_SIZE);
            let wall_percent = WALL_PERCENTS[rng.random_range(0..WALL_PERCENTS.len())];
            let row_kinds: Vec<u32> = (0..size).map(|_| rng.random_range(0..6)).collect();
            Board::from_fn(size, |row, _| {
                small_row_cell(rng, row_kinds[row], wall_percent)
            })
        })
        .collect()
}

/// problems/rooks/statement.md: a profile `large` with n up to 100 separates
/// exponential backtracking from polynomial solutions. One to three boards;
/// a third of them exactly 100 x 100. Besides uniform densities, a lattice of
/// walls cuts the board into many short segments, which makes the matching
/// need long augmenting paths rather than a greedy pass.
fn large_boards(rng: &mut ChaCha8Rng) -> Vec<Board> {
    let count = rng.random_range(1..=3);
    (0..count)
        .map(|_| {
            let size = if rng.random_range(0..3) == 0 {
                MAX_SIZE
            } else {
                rng.random_range(10..=MAX_SIZE)
            };
            if rng.random_range(0..4) == 0 {
                let spacing = rng.random_range(2..=5);
                let noise_percent = rng.random_range(0..=15);
                Board::from_fn(size, |row, column| {
                    if row % spacing == 0 && column % spacing == 0 {
                        Cell::Wall
                    } else {
                        random_cell(rng, noise_percent)
                    }
                })
            } else {
                // Fully walled 100 x 100 boards teach nothing: stop short of 100%.
                let wall_percent = WALL_PERCENTS[rng.random_range(0..WALL_PERCENTS.len() - 1)];
                Board::from_fn(size, |_, _| random_cell(rng, wall_percent))
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problems::rooks::validate::validate;
    use crate::problems::test_rng;

    #[test]
    fn same_seed_gives_same_bytes() {
        for profile in PROFILES {
            let first = generate(profile.name, &mut test_rng(7, "rooks", profile.name, 0));
            let again = generate(profile.name, &mut test_rng(7, "rooks", profile.name, 0));
            assert_eq!(first, again);
            let other = generate(profile.name, &mut test_rng(7, "rooks", profile.name, 1));
            assert_ne!(first, other);
        }
    }

    #[test]
    fn small_profile_covers_open_and_walled_rows_and_every_size() {
        let mut sizes = [false; ORIGINAL_MAX_SIZE + 1];
        let (mut open_row, mut walled_row) = (false, false);
        for index in 0..40 {
            let text = generate("small", &mut test_rng(1, "rooks", "small", index)).unwrap();
            for board in validate(&text, Some("small")).unwrap() {
                sizes[board.size()] = true;
                open_row |= board
                    .rows()
                    .any(|row| row.iter().all(|&cell| cell == Cell::Empty));
                walled_row |= board
                    .rows()
                    .any(|row| row.iter().all(|&cell| cell == Cell::Wall));
            }
        }
        assert_eq!(sizes, [false, true, true, true, true]);
        assert!(open_row && walled_row);
    }

    #[test]
    fn large_profile_sometimes_reaches_the_maximum_size() {
        let reached = (0..20).any(|index| {
            let text = generate("large", &mut test_rng(1, "rooks", "large", index)).unwrap();
            validate(&text, Some("large"))
                .unwrap()
                .iter()
                .any(|board| board.size() == MAX_SIZE)
        });
        assert!(reached);
    }

    #[test]
    fn unknown_profile_names_the_known_ones() {
        let error = generate("huge", &mut test_rng(1, "rooks", "huge", 0)).unwrap_err();
        assert_eq!(
            error.to_string(),
            "problem `rooks` has no profile `huge`; known: small, large"
        );
    }
}
