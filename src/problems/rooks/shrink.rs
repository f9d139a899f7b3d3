//! Shrink steps for rooks: smaller inputs derived from a failing one, for
//! `judge stress` (see [`crate::problems::Problem::shrink`]).
//!
//! It does not decide whether a candidate still fails or is valid: the
//! caller runs and validates each one.

use super::input::{parse_input, print_input, Board, Cell, MAX_SIZE};
use crate::problems::text::Layout;

/// The largest board whose walls are opened one by one.
const WALL_STEP_MAX_SIZE: usize = 8;

/// Every input one step smaller than `text`, most promising first: without
/// one of its boards (when it has more than one; whole boards go first, as
/// they remove the most), then with one board trimmed to n - 1 by dropping
/// its last row and column, or its first row and column, then with one wall
/// of a small board opened. Each is valid for any profile `text` was valid
/// for: there are fewer boards, a smaller n or fewer walls.
pub(crate) fn shrink(text: &str) -> Vec<String> {
    let Ok(boards) = parse_input(text, Layout::Lenient, MAX_SIZE) else {
        return Vec::new();
    };
    let mut candidates = Vec::new();
    if boards.len() > 1 {
        for skipped in 0..boards.len() {
            let rest: Vec<Board> = boards
                .iter()
                .enumerate()
                .filter(|&(index, _)| index != skipped)
                .map(|(_, board)| board.clone())
                .collect();
            candidates.push(print_input(&rest));
        }
    }
    for (index, board) in boards.iter().enumerate() {
        let size = board.size();
        if size <= 1 {
            continue;
        }
        // Offset 0 keeps the top-left corner (drops the last row and
        // column); offset 1 keeps the bottom-right one.
        for offset in [0, 1] {
            let trimmed = Board::from_fn(size - 1, |row, column| {
                board
                    .cell(row + offset, column + offset)
                    .unwrap_or(Cell::Empty)
            });
            let mut smaller = boards.clone();
            smaller[index] = trimmed;
            candidates.push(print_input(&smaller));
        }
    }
    // Walls turned into empty cells, one at a time (issue #9): as long, but
    // smaller in `judge stress`'s order ('.' sorts before 'X'). Only on small
    // boards: a large one has thousands of walls, and trimming reaches a
    // small board first.
    for (index, board) in boards.iter().enumerate() {
        let size = board.size();
        if size > WALL_STEP_MAX_SIZE {
            continue;
        }
        for row in 0..size {
            for column in 0..size {
                if board.cell(row, column) != Some(Cell::Wall) {
                    continue;
                }
                let opened = Board::from_fn(size, |r, c| {
                    if (r, c) == (row, column) {
                        Cell::Empty
                    } else {
                        board.cell(r, c).unwrap_or(Cell::Empty)
                    }
                });
                let mut smaller = boards.clone();
                smaller[index] = opened;
                candidates.push(print_input(&smaller));
            }
        }
    }
    candidates
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problems::rooks::validate::validate;

    #[test]
    fn drops_boards_then_trims_each_board_both_ways() {
        let text = "2\nX.\n..\n1\n.\n0\n";
        assert_eq!(
            shrink(text),
            vec![
                "1\n.\n0\n".to_owned(),
                "2\nX.\n..\n0\n".to_owned(),
                "1\nX\n1\n.\n0\n".to_owned(),
                "1\n.\n1\n.\n0\n".to_owned(),
                "2\n..\n..\n1\n.\n0\n".to_owned(),
            ]
        );
    }

    #[test]
    fn a_single_one_by_one_board_has_no_smaller_input() {
        assert!(shrink("1\n.\n0\n").is_empty());
        assert_eq!(shrink("1\nX\n0\n"), ["1\n.\n0\n"]);
    }

    #[test]
    fn an_input_that_does_not_parse_has_no_candidates() {
        assert!(shrink("2\n..\n").is_empty());
    }

    /// Every candidate is valid under every profile the input was valid
    /// under, and smaller in `judge stress`'s order, so greedy shrinking
    /// always ends.
    #[test]
    fn every_candidate_is_valid_and_smaller() {
        for profile in super::super::validate::PROFILES {
            for index in 0..20 {
                let mut rng = crate::problems::test_rng(7, "rooks", profile.name, index);
                let text = super::super::generate::generate(profile.name, &mut rng).unwrap();
                for candidate in shrink(&text) {
                    assert!(
                        crate::problems::is_smaller(&candidate, &text),
                        "{candidate:?} from {text:?}"
                    );
                    validate(&candidate, Some(profile.name)).unwrap();
                }
            }
        }
    }
}
