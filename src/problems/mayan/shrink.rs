//! Shrink steps for mayan: smaller inputs derived from a failing one, for
//! `judge stress` (see [`crate::problems::Problem::shrink`]).
//!
//! It does not decide whether a candidate still fails or is valid: the
//! caller runs and validates each one.

use super::input::{parse, Board, Puzzle};
use crate::problems::text::Layout;

/// Every input with the top block of one column removed, column 0 first,
/// n unchanged. Removing a top block leaves the board at rest and cannot
/// make a run of 3, so each candidate keeps the original constraints; it may
/// break a profile's promise (`hard` boards are dense, and a smaller board may
/// become solvable in fewer moves), which is why `judge stress` also accepts
/// a candidate that is valid under no profile. n is never lowered: "5" and
/// "4" are the same size, and a step must make the input strictly shorter.
pub fn shrink(text: &str) -> Vec<String> {
    let Ok(puzzle) = parse(text, Layout::Lenient) else {
        return Vec::new();
    };
    let columns = puzzle.board.columns();
    let mut candidates = Vec::new();
    for (x, column) in columns.iter().enumerate() {
        if column.is_empty() {
            continue;
        }
        let mut smaller = columns.clone();
        if let Some(column) = smaller.get_mut(x) {
            column.pop();
        }
        if let Some(board) = Board::from_columns(&smaller) {
            candidates.push(
                Puzzle {
                    moves: puzzle.moves,
                    board,
                }
                .to_string(),
            );
        }
    }
    candidates
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problems::mayan::validate::{validate, PROFILES};

    #[test]
    fn removes_the_top_block_of_each_column() {
        let text = "1\n1 2 0\n0\n3 0\n0\n0\n";
        assert_eq!(
            shrink(text),
            vec![
                "1\n1 0\n0\n3 0\n0\n0\n".to_owned(),
                "1\n1 2 0\n0\n0\n0\n0\n".to_owned(),
            ]
        );
    }

    #[test]
    fn an_empty_board_has_no_smaller_input() {
        assert!(shrink("1\n0\n0\n0\n0\n0\n").is_empty());
    }

    /// Every candidate keeps the original constraints and is strictly
    /// shorter, so greedy shrinking always ends.
    #[test]
    fn every_candidate_is_valid_and_strictly_smaller() {
        for profile in PROFILES {
            for index in 0..5 {
                let mut rng = crate::problems::test_rng(7, "mayan", profile.name, index);
                let text = super::super::generate::generate(profile.name, &mut rng).unwrap();
                for candidate in shrink(&text) {
                    assert!(candidate.len() < text.len(), "{candidate:?} from {text:?}");
                    validate(&candidate, None).unwrap();
                }
            }
        }
    }
}
