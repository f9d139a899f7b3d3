//! The solver's unit tests (kept apart so that solve.rs stays short).

use super::*;
use crate::problems::mayan::input::{describe_moves, parse};
use crate::problems::text::Layout;

fn puzzle(text: &str) -> Puzzle {
    parse(text, Layout::Strict).expect("a valid test input")
}

#[test]
fn solves_the_sample() {
    let sample = puzzle("3\n1 0\n2 1 0\n2 3 4 0\n3 1 0\n2 4 3 4 0\n");
    for reading in Reading::BOTH {
        let solution = solve(&sample.board, 3, reading).expect("the sample is solvable");
        assert_eq!(describe_moves(&solution), "2 1 1, 3 1 1, 3 0 1");
    }
    assert_eq!(solve(&sample.board, 1, Reading::WithSameColourSwaps), None);
    assert_eq!(render(None), "-1\n");
}

#[test]
fn the_readings_differ_where_a_wasted_swap_is_smaller() {
    let board = puzzle("2\n1 0\n1 0\n0\n1 0\n0\n").board;
    let without = solve(&board, 2, Reading::WithoutSameColourSwaps).expect("solvable");
    let with = solve(&board, 2, Reading::WithSameColourSwaps).expect("solvable");
    assert_eq!(describe_moves(&without), "1 0 1, 0 0 1");
    assert_eq!(describe_moves(&with), "0 0 1, 3 0 -1");
    assert_eq!(render(Some(&with)), "0 0 1\n3 0 -1\n");
}

#[test]
fn analysis_names_boards_that_clear_in_fewer_moves() {
    let analysis = analyse(&puzzle("2\n1 0\n1 0\n0\n1 0\n0\n"));
    assert_eq!(analysis.fewer, Some(1));
    assert!(!analysis.is_plain());
    let sample = analyse(&puzzle("3\n1 0\n2 1 0\n2 3 4 0\n3 1 0\n2 4 3 4 0\n"));
    assert!(sample.is_plain() && sample.with_swaps.is_some());
}

/// Invariant: the packed board and the cell board lead the same search
/// to the same answer, at full n, under both readings, on boards of
/// every profile (the packed one is what `solve` uses on them).
#[test]
fn the_packed_search_answers_as_the_cell_board_search() {
    use crate::problems::mayan::generate::generate;
    use crate::problems::test_rng;
    let mut solvable = 0;
    for (profile, count) in [
        ("random", 12),
        ("bottom-row", 12),
        ("edge", 12),
        ("hard", 6),
    ] {
        for index in 0..count {
            let input = generate(profile, &mut test_rng(19, "mayan", profile, index)).unwrap();
            let puzzle = puzzle(&input);
            for reading in Reading::BOTH {
                let packed = search(&Bits::new(&puzzle.board), puzzle.moves, reading);
                let cells = search(&puzzle.board, puzzle.moves, reading);
                assert_eq!(packed, cells, "{profile} #{index}, {reading:?}:\n{input}");
                assert_eq!(solve(&puzzle.board, puzzle.moves, reading), packed);
                solvable += usize::from(packed.is_some());
            }
        }
    }
    assert!(solvable > 10, "the comparison should meet solvable boards");
}

/// Invariant behind the failed set's symmetric key: a board and its
/// mirror image are solvable alike, their smallest solutions mirror
/// each other's moves when the mirrored list is also the smallest, and
/// the solver (which shares failures between the two) answers as the
/// cell board search, which does not.
#[test]
fn mirror_images_clear_alike() {
    use crate::problems::mayan::generate::generate;
    use crate::problems::test_rng;
    let mut solvable = 0;
    for (profile, count) in [("random", 16), ("bottom-row", 16), ("hard", 4)] {
        for index in 0..count {
            let input = generate(profile, &mut test_rng(23, "mayan", profile, index)).unwrap();
            let board = puzzle(&input).board;
            let moves = puzzle(&input).moves;
            let columns = board.columns();
            let mirror = Board::from_columns(&columns.iter().rev().cloned().collect::<Vec<_>>())
                .expect("the same columns fit");
            for reading in Reading::BOTH {
                let ours = solve(&board, moves, reading);
                let theirs = solve(&mirror, moves, reading);
                assert_eq!(
                    ours.is_some(),
                    theirs.is_some(),
                    "{profile} #{index}:\n{input}"
                );
                assert_eq!(ours, search(&board, moves, reading), "{profile} #{index}");
                assert_eq!(
                    theirs,
                    search(&mirror, moves, reading),
                    "{profile} #{index}"
                );
                if let Some(solution) = &ours {
                    let mut played = mirror;
                    for step in solution {
                        let direction = match step.direction {
                            Direction::Right => Direction::Left,
                            Direction::Left => Direction::Right,
                        };
                        let x = COLUMNS - 1 - step.x;
                        played
                            .play(Move {
                                x,
                                y: step.y,
                                direction,
                            })
                            .expect("a legal move");
                    }
                    assert!(played.is_empty(), "{profile} #{index}: mirrored moves");
                }
                solvable += usize::from(ours.is_some());
            }
        }
    }
    assert!(solvable > 4, "the comparison should meet solvable boards");
}

/// A board with a run standing is not at rest: `solve` plays it on the
/// cell board, where only runs a move touches vanish, as before.
#[test]
fn a_board_with_a_standing_run_is_solved_as_before() {
    let board = Board::from_columns(&[vec![1], vec![1], vec![1], vec![2, 2, 3], vec![3, 3, 2]])
        .expect("fits");
    let reading = Reading::WithoutSameColourSwaps;
    // The packed board would let the standing row run vanish with the
    // column runs that `3 2 1` makes; the cell board never touches it.
    assert!(search(&Bits::new(&board), 1, reading).is_some());
    assert_eq!(search(&board, 1, reading), None);
    assert_eq!(solve(&board, 1, reading), None);
}

/// Every move in problems/mayan/statement.md's order (x, then y, then g
/// with 1 before -1), each played on the cell board: the first whose
/// `moves - 1` moves after it clear too, under `reading`. Written apart
/// from the search, with none of its prunings.
fn every_move(board: &Board, moves: usize, reading: Reading) -> Option<Vec<Move>> {
    if moves == 0 {
        return board.is_empty().then(Vec::new);
    }
    for x in 0..COLUMNS {
        for y in 0..Board::height(board, x) {
            for direction in [Direction::Right, Direction::Left] {
                let step = Move { x, y, direction };
                let Some(target) = step.target_column() else {
                    continue;
                };
                if reading == Reading::WithoutSameColourSwaps
                    && board.colour(target, y) == board.colour(x, y)
                {
                    continue;
                }
                let mut next = *board;
                if next.play(step).is_err() {
                    continue;
                }
                if let Some(mut rest) = every_move(&next, moves - 1, reading) {
                    rest.insert(0, step);
                    return Some(rest);
                }
            }
        }
    }
    None
}

/// Columns of up to `height` blocks from a palette of 2 or 3 colours
/// (runs, and boards that clear in a move or two, are frequent), with no
/// run standing: blocks that would make one are skipped.
fn board_at_rest(height: usize) -> impl proptest::strategy::Strategy<Value = Board> {
    use proptest::strategy::Strategy;
    (
        2u8..=3,
        proptest::collection::vec(proptest::collection::vec(1u8..=3, 0..=height), 5),
    )
        .prop_map(move |(palette, raw)| {
            let mut board = Board::default();
            for y in 0..height {
                for (x, column) in raw.iter().enumerate() {
                    let Some(&wanted) = column.get(y) else {
                        continue;
                    };
                    let mut next = board;
                    if Board::height(&board, x) == y
                        && next.push(x, (wanted - 1) % palette + 1)
                        && next.first_run().is_none()
                    {
                        board = next;
                    }
                }
            }
            board
        })
}

/// Invariant behind `Search::last_move`: with one or two moves, the
/// solver's answer on a board at rest is the first solution of a plain
/// walk over every move on the cell board, under both readings; a board
/// the last move's checks refute is one no move clears. The counts of
/// solvable boards met are checked in `the_last_move_tests_meet_solutions`.
fn assert_as_every_move(board: &Board, moves: usize) -> usize {
    let mut solvable = 0;
    for reading in Reading::BOTH {
        let expected = every_move(board, moves, reading);
        assert_eq!(
            solve(board, moves, reading),
            expected,
            "{moves} moves, {reading:?}: {:?}",
            board.columns()
        );
        solvable += usize::from(expected.is_some());
    }
    solvable
}

/// The boards of the two properties below are solvable often enough for
/// the comparison to mean something: the same strategy, seeded.
#[test]
fn the_last_move_tests_meet_solutions() {
    use proptest::strategy::{Strategy, ValueTree};
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let (mut one, mut two) = (0, 0);
    for round in 0..1000 {
        let board = board_at_rest(3)
            .new_tree(&mut runner)
            .expect("a board")
            .current();
        one += assert_as_every_move(&board, 1);
        if round % 4 == 0 {
            two += assert_as_every_move(&board, 2);
        }
    }
    assert!(
        one >= 20 && two >= 20,
        "solvable: {one} in one move, {two} in two"
    );
}

/// The last move's cells with one travelling colour include a block of
/// another colour dragged right onto it (the swap shifts both): boards
/// whose only one-move clears are such a swap, found by a plain walk. The
/// random boards above meet one about once in 20,000, so a check that
/// looked only at the travelling colour's own cells passed them.
#[test]
fn a_swap_onto_the_travelling_colour_is_a_last_move() {
    let boards: [[&[u8]; 5]; 8] = [
        [&[], &[1, 1], &[2, 2, 1], &[1, 2, 1], &[1]],
        [&[], &[2], &[2], &[1, 2, 1, 2], &[2, 1, 2]],
        [&[1], &[1, 2, 2, 1], &[2, 1], &[1], &[1]],
        [&[1, 2, 2, 1], &[2, 1], &[1, 1], &[1], &[]],
        [&[], &[2, 1, 2], &[1, 2, 1, 1], &[], &[]],
        [&[], &[2, 1, 1], &[1, 2, 2], &[2], &[2]],
        [&[1], &[1], &[2, 2, 1, 1], &[1, 1, 2, 1], &[]],
        [&[], &[], &[2, 2, 1], &[1, 1, 2, 1], &[]],
    ];
    for columns in boards {
        let columns: Vec<Vec<u8>> = columns.iter().map(|column| column.to_vec()).collect();
        let board = Board::from_columns(&columns).expect("at most 7 blocks a column");
        assert_eq!(board.first_run(), None, "{columns:?} is at rest");
        assert_eq!(
            assert_as_every_move(&board, 1),
            2,
            "{columns:?} clears in one move"
        );
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 300, ..Default::default() })]

    /// See `assert_as_every_move`: one move left, boards up to 3 high.
    #[test]
    fn the_last_move_is_the_first_that_clears(board in board_at_rest(3)) {
        assert_as_every_move(&board, 1);
    }

    /// See `assert_as_every_move`: two moves, so the last move's checks
    /// meet the boards the first move leaves, chains included.
    #[test]
    fn two_moves_are_the_first_pair_that_clears(board in board_at_rest(5)) {
        assert_as_every_move(&board, 2);
    }

    /// Invariant behind the search's choice of cells: on both boards,
    /// `occupied_rows` and `rows_of` mark exactly the cells (bit 4y)
    /// that hold a block, and a block of one of the colours asked for.
    #[test]
    fn rows_of_marks_the_cells_of_the_colours_asked_for(
        columns in proptest::collection::vec(proptest::collection::vec(1u8..=10, 0..=7), 5),
        colours in 0u16..1 << 11,
    ) {
        let board = Board::from_columns(&columns).expect("at most 7 blocks a column");
        let bits = Bits::new(&board);
        for (x, column) in columns.iter().enumerate() {
            let cells = |wanted: &dyn Fn(u8) -> bool| {
                column
                    .iter()
                    .enumerate()
                    .filter(|&(_, &colour)| wanted(colour))
                    .fold(0u32, |rows, (y, _)| rows | 1 << (4 * y))
            };
            let all = cells(&|_| true);
            let asked = cells(&|colour| colours >> colour & 1 != 0);
            proptest::prop_assert_eq!(Position::occupied_rows(&bits, x), all);
            proptest::prop_assert_eq!(Position::occupied_rows(&board, x), all);
            proptest::prop_assert_eq!(Position::rows_of(&bits, x, colours), asked);
            proptest::prop_assert_eq!(Position::rows_of(&board, x, colours), asked);
        }
    }

    /// Invariant behind [`Search::shift_allowed`]: the packed column
    /// counts it derives for a drag are those of the board the drag
    /// leaves before anything vanishes, for the dragged colour and, in a
    /// swap, the other one; every other colour's are unchanged.
    #[test]
    fn shifted_indexes_are_the_dragged_boards_counts(
        columns in proptest::collection::vec(proptest::collection::vec(1u8..=4, 0..=7), 5),
        x in 0usize..COLUMNS,
        y in 0usize..7,
        right: bool,
    ) {
        let board = Board::from_columns(&columns).expect("at most 7 blocks a column");
        let direction = if right { Direction::Right } else { Direction::Left };
        let step = Move { x, y, direction };
        let Some(target) = step.target_column() else { return Ok(()) };
        let colour = board.colour(x, y);
        proptest::prop_assume!(colour != 0);
        let other = board.colour(target, y);
        let mut dragged = board;
        dragged.drag_without_vanishing(step).expect("a block to drag");
        let mut expected = board.count_indexes();
        if other != colour {
            let colour = usize::from(colour);
            expected[colour] = shifted_index(expected[colour], x, target);
            if other != 0 {
                let other = usize::from(other);
                expected[other] = shifted_index(expected[other], target, x);
            }
        }
        proptest::prop_assert_eq!(dragged.count_indexes(), expected);
    }
}
