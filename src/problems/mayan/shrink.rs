//! Shrink steps for mayan: smaller inputs derived from a failing one, for
//! `judge stress` (see [`crate::problems::Problem::shrink`]).
//!
//! It does not decide whether a candidate still fails or is valid: the
//! caller runs and validates each one.

use super::input::{parse, Board, Direction, Move, Puzzle};
use crate::problems::text::Layout;

/// Every input one step smaller than `text`, boldest first (issue #9; the
/// top-block step alone stopped at 24-block boards):
///
/// 1. n lowered by one;
/// 2. the colours renumbered 1, 2, ... in order of first appearance;
/// 3. every block of one colour removed;
/// 4. one block removed, any block (the blocks above it fall);
/// 5. one colour merged into a smaller one;
///
/// then a whole column emptied, one move played, two blocks removed.
///
/// A step may leave a run of 3 or a board the failing profile never makes;
/// the caller keeps only candidates valid under the original statement (the
/// answer comes from the reference). Steps 1, 2 and 5 keep the length but make
/// the text smaller in `judge stress`'s order (shorter, else
/// lexicographically smaller), so greedy shrinking still ends.
pub(crate) fn shrink(text: &str) -> Vec<String> {
    let Ok(puzzle) = parse(text, Layout::Lenient) else {
        return Vec::new();
    };
    let columns = puzzle.board.columns();
    let mut candidates = Vec::new();
    let mut push = |moves: usize, columns: &[Vec<u8>]| {
        if let Some(board) = Board::from_columns(columns) {
            candidates.push(Puzzle { moves, board }.to_string());
        }
    };
    if puzzle.moves > 1 {
        push(puzzle.moves - 1, &columns);
    }
    let mut order: Vec<u8> = Vec::new();
    for &colour in columns.iter().flatten() {
        if !order.contains(&colour) {
            order.push(colour);
        }
    }
    let renumber = |colour: u8| {
        order
            .iter()
            .position(|&known| known == colour)
            .map_or(colour, |index| index as u8 + 1)
    };
    let renumbered: Vec<Vec<u8>> = columns
        .iter()
        .map(|column| column.iter().map(|&colour| renumber(colour)).collect())
        .collect();
    if renumbered != columns {
        push(puzzle.moves, &renumbered);
    }
    // Every block of one colour at once (a colour of two or more blocks;
    // one block is the next step's): a bug that needs a cascade keeps
    // showing without the colour that only sat in the way, where no one or
    // two blocks removed still fail (issue #17: the gravity-once program
    // stopped at 10 blocks, 7 without its colour 3).
    for &colour in &order {
        let count = columns.iter().flatten().filter(|&&c| c == colour).count();
        if count >= 2 {
            let without: Vec<Vec<u8>> = columns
                .iter()
                .map(|column| column.iter().copied().filter(|&c| c != colour).collect())
                .collect();
            push(puzzle.moves, &without);
        }
    }
    for (x, column) in columns.iter().enumerate() {
        for y in (0..column.len()).rev() {
            let mut smaller = columns.clone();
            smaller[x].remove(y);
            push(puzzle.moves, &smaller);
        }
    }
    let mut colours = order.clone();
    colours.sort_unstable();
    for (index, &from) in colours.iter().enumerate() {
        for &into in &colours[..index] {
            let merged: Vec<Vec<u8>> = columns
                .iter()
                .map(|column| {
                    column
                        .iter()
                        .map(|&colour| if colour == from { into } else { colour })
                        .collect()
                })
                .collect();
            push(puzzle.moves, &merged);
        }
    }
    for x in 0..columns.len() {
        if columns[x].len() > 1 {
            let mut smaller = columns.clone();
            smaller[x].clear();
            push(puzzle.moves, &smaller);
        }
    }
    if puzzle.moves > 1 {
        // One move played (and everything it sets off), one move fewer to
        // make: where a program goes wrong late in its solution, the board
        // a move later still shows it, with fewer blocks.
        for (x, column) in columns.iter().enumerate() {
            for y in 0..column.len() {
                for direction in Direction::BOTH {
                    let mut board = puzzle.board;
                    let step = Move { x, y, direction };
                    if board.play(step).is_ok() && !board.is_empty() {
                        push(puzzle.moves - 1, &board.columns());
                    }
                }
            }
        }
    }
    // Two blocks at once, last: only tried when no single step still
    // fails, to step out of a board where every one-block board passes.
    let cells: Vec<(usize, usize)> = columns
        .iter()
        .enumerate()
        .flat_map(|(x, column)| (0..column.len()).map(move |y| (x, y)))
        .collect();
    for (index, &(x1, y1)) in cells.iter().enumerate() {
        for &(x2, y2) in &cells[index + 1..] {
            let mut smaller = columns.clone();
            // The higher one first, so the lower index stays right.
            let (first, second) = if (x1, y1) > (x2, y2) {
                ((x1, y1), (x2, y2))
            } else {
                ((x2, y2), (x1, y1))
            };
            smaller[first.0].remove(first.1);
            smaller[second.0].remove(second.1);
            push(puzzle.moves, &smaller);
        }
    }
    candidates
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problems::mayan::validate::{validate, PROFILES};

    #[test]
    fn lowers_n_renumbers_removes_any_block_and_merges_colours_first() {
        let text = "2\n1 5 0\n0\n3 0\n0\n0\n";
        let candidates = shrink(text);
        assert_eq!(
            candidates[..8],
            [
                "1\n1 5 0\n0\n3 0\n0\n0\n".to_owned(),
                "2\n1 2 0\n0\n3 0\n0\n0\n".to_owned(),
                "2\n1 0\n0\n3 0\n0\n0\n".to_owned(),
                "2\n5 0\n0\n3 0\n0\n0\n".to_owned(),
                "2\n1 5 0\n0\n0\n0\n0\n".to_owned(),
                "2\n1 5 0\n0\n1 0\n0\n0\n".to_owned(),
                "2\n1 1 0\n0\n3 0\n0\n0\n".to_owned(),
                "2\n1 3 0\n0\n3 0\n0\n0\n".to_owned(),
            ]
        );
        // Then a whole column, a move played (1 0 right: the 5 drops
        // beside nothing), and two blocks at once.
        assert!(candidates.contains(&"2\n0\n0\n3 0\n0\n0\n".to_owned()));
        assert!(candidates.contains(&"1\n1 0\n5 0\n3 0\n0\n0\n".to_owned()));
        assert!(candidates.contains(&"2\n0\n0\n3 0\n0\n0\n".to_owned()));
        assert!(candidates.contains(&"2\n5 0\n0\n0\n0\n0\n".to_owned()));
    }

    /// See: issue #17. Every block of a colour of two or more goes at once,
    /// right after renumbering (a colour of one block is a one-block step).
    #[test]
    fn removes_every_block_of_one_colour_at_once() {
        let text = "3\n0\n1 1 0\n1 2 0\n2 3 3 1 0\n3 2 0\n";
        let candidates = shrink(text);
        let position = |wanted: &str| candidates.iter().position(|c| c == wanted);
        let without_3 = position("3\n0\n1 1 0\n1 2 0\n2 1 0\n2 0\n");
        let without_1 = position("3\n0\n0\n2 0\n2 3 3 0\n3 2 0\n");
        let one_block = position("3\n0\n1 1 0\n1 2 0\n2 3 3 1 0\n3 0\n");
        assert!(without_3.is_some() && without_1.is_some(), "{candidates:?}");
        assert!(
            without_3 < one_block && without_1 < one_block,
            "{candidates:?}"
        );
    }

    #[test]
    fn an_empty_board_has_no_smaller_input() {
        assert!(shrink("1\n0\n0\n0\n0\n0\n").is_empty());
    }

    /// Every candidate is smaller in `judge stress`'s order (shorter, else
    /// lexicographically smaller), so greedy shrinking always ends; removing
    /// a block and lowering n, which cannot make a run, keep the original
    /// constraints whenever no block falls into a run.
    #[test]
    fn every_candidate_is_smaller_and_the_top_blocks_stay_valid() {
        for profile in PROFILES {
            for index in 0..5 {
                let mut rng = crate::problems::test_rng(7, "mayan", profile.name, index);
                let text = super::super::generate::generate(profile.name, &mut rng).unwrap();
                for candidate in shrink(&text) {
                    assert!(
                        crate::problems::is_smaller(&candidate, &text),
                        "{candidate:?} from {text:?}"
                    );
                }
                let (first, rest) = text.split_once('\n').unwrap();
                let moves: usize = first.parse().unwrap();
                if moves > 1 {
                    let lowered = format!("{}\n{rest}", moves - 1);
                    assert!(shrink(&text).contains(&lowered));
                    validate(&lowered, None).unwrap();
                }
            }
        }
    }
}
