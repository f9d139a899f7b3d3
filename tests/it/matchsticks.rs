//! matchsticks through the library API: the solved table against a slow
//! oracle written here from problems/matchsticks/statement.md alone, generators against their
//! validators, and the checker against the reference, mutated answers and
//! the greedy player.

#![expect(
    clippy::expect_used,
    reason = "test helpers outside #[test] functions: a panic is the failure report"
)]

use judge::problems::matchsticks::{
    best_move, greedy_move, outcome, Board, Matchsticks, Move, Outcome, ProfileKind,
};
use judge::problems::text::Layout;
use judge::problems::{test_rng, CheckOptions, Problem};
use judge::verdict::Verdict;
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The oracle's board: rows of `0`, `1`, `-` exactly as in an input.
type Grid = [[u8; 4]; 3];

fn grid_of(board: &Board) -> Grid {
    board.rows().map(|row| {
        let bytes = row.as_bytes();
        [bytes[0], bytes[1], bytes[2], bytes[3]]
    })
}

/// The statement, read literally: a stick may go in an empty cell unless a
/// stick of the same direction is reachable along its row (horizontal) or
/// column (vertical) without crossing a stick of the other direction.
fn oracle_legal(grid: &Grid, row: usize, column: usize, stick: u8) -> bool {
    if grid[row][column] != b'0' {
        return false;
    }
    let (line, at): (Vec<u8>, usize) = if stick == b'-' {
        (grid[row].to_vec(), column)
    } else {
        (grid.iter().map(|cells| cells[column]).collect(), row)
    };
    let reaches_same = |cells: &mut dyn Iterator<Item = &u8>| {
        for &cell in cells {
            if cell == stick {
                return true;
            }
            if cell != b'0' {
                return false;
            }
        }
        false
    };
    !reaches_same(&mut line[..at].iter().rev()) && !reaches_same(&mut line[at + 1..].iter())
}

fn oracle_moves(grid: &Grid) -> Vec<(usize, usize, u8)> {
    let mut moves = Vec::new();
    for row in 0..3 {
        for column in 0..4 {
            for stick in [b'1', b'-'] {
                if oracle_legal(grid, row, column, stick) {
                    moves.push((row, column, stick));
                }
            }
        }
    }
    moves
}

/// The unmemoised oracle is only asked about boards this empty: the full
/// tree of the empty board is far too large for a debug test run.
const ORACLE_MAX_EMPTY_CELLS: usize = 9;

/// Plain recursive minimax, no memo: the player to move wins when some move
/// leaves the opponent without a win; no move at all loses.
fn oracle_wins(grid: &Grid) -> bool {
    oracle_moves(grid).into_iter().any(|(row, column, stick)| {
        let mut next = *grid;
        next[row][column] = stick;
        !oracle_wins(&next)
    })
}

fn oracle_wins_after(board: &Board, chosen: Move) -> bool {
    let mut grid = grid_of(board);
    grid[usize::from(chosen.row)][usize::from(chosen.column)] = chosen.orientation.to_char() as u8;
    oracle_wins(&grid)
}

/// A random board with exactly `empty` empty cells, any sticks elsewhere
/// (connected or not, as inputs may have).
fn board_with_empty_cells(rng: &mut ChaCha8Rng, empty: usize) -> Board {
    let mut cells: Vec<char> = (0..12)
        .map(|_| if rng.random_bool(0.5) { '1' } else { '-' })
        .collect();
    let mut indices: Vec<usize> = (0..12).collect();
    for _ in 0..empty {
        let index = indices.swap_remove(rng.random_range(0..indices.len()));
        cells[index] = '0';
    }
    let rows: Vec<String> = cells.chunks(4).map(|row| row.iter().collect()).collect();
    Board::parse_rows([&rows[0], &rows[1], &rows[2]]).expect("rows of 0, 1 and -")
}

/// Invariant: on thousands of random boards with up to 9 empty cells, the
/// table's outcome is the oracle's, and the legal moves are the oracle's.
#[test]
fn table_agrees_with_plain_minimax() {
    let mut rng = ChaCha8Rng::seed_from_u64(639);
    let mut wins = 0;
    for round in 0..3000 {
        let board = board_with_empty_cells(&mut rng, round % 10);
        let grid = grid_of(&board);
        let moves: Vec<(usize, usize, u8)> = board
            .legal_moves()
            .iter()
            .map(|legal| {
                (
                    usize::from(legal.row),
                    usize::from(legal.column),
                    legal.orientation.to_char() as u8,
                )
            })
            .collect();
        assert_eq!(moves, oracle_moves(&grid), "{board}");
        let expected = oracle_wins(&grid);
        assert_eq!(outcome(&board) == Outcome::Win, expected, "{board}");
        wins += usize::from(expected);
    }
    // Both outcomes are well represented, so agreement means something.
    assert!((500..2500).contains(&wins), "{wins} wins of 3000");
}

/// Invariant: the reference move of a won board wins by the oracle.
#[test]
fn reference_move_wins_by_the_oracle() {
    let mut rng = ChaCha8Rng::seed_from_u64(2012);
    for round in 0..500 {
        let board = board_with_empty_cells(&mut rng, 1 + round % 9);
        if let Some(chosen) = best_move(&board) {
            assert_eq!(
                !oracle_wins_after(&board, chosen),
                oracle_wins(&grid_of(&board)),
                "{board}: {chosen}"
            );
        }
    }
}

fn generated(profile: ProfileKind, seed: u64) -> String {
    let mut rng = test_rng(seed, "matchsticks", profile.name(), 0);
    Matchsticks
        .generate(profile.name(), &mut rng)
        .expect("a known profile")
}

fn boards_of(input: &str) -> Vec<Board> {
    judge::problems::matchsticks::input::parse(input, Layout::Strict)
        .expect("a generated input parses")
        .positions
        .iter()
        .map(|position| position.board)
        .collect()
}

fn check(input: &str, output: &str) -> (Verdict, String) {
    let decided = Matchsticks
        .check(input, output, None, &CheckOptions::default())
        .expect("the judge's input is valid");
    (decided.verdict, decided.reason)
}

/// Invariant: every generated input passes the validator of its profile
/// and the original constraints, and is solved; a file sometimes holds a
/// single position.
#[test]
fn every_generated_input_passes_its_validator() {
    for profile in ProfileKind::ALL {
        let mut single = 0;
        for seed in 0..40 {
            let input = generated(profile, seed);
            Matchsticks
                .validate(&input, Some(profile.name()))
                .unwrap_or_else(|error| panic!("{} seed {seed}: {error}\n{input}", profile.name()));
            Matchsticks.validate(&input, None).unwrap();
            let count = boards_of(&input).len();
            assert!((1..=20).contains(&count));
            single += usize::from(count == 1);
        }
        assert!(single > 0, "{}: never a single position", profile.name());
    }
}

/// The random profile mixes boards reached by play with boards that already
/// hold connected sticks.
#[test]
fn random_profile_includes_connected_sticks() {
    let connected = (0..40)
        .flat_map(|seed| boards_of(&generated(ProfileKind::Random, seed)))
        .filter(|board| {
            // A board reached by play has no stick that would be illegal if
            // removed and placed again.
            let rows = board.rows();
            (0..3).any(|row| {
                (0..4).any(|column| {
                    let mut cells: [String; 3] = rows.clone();
                    let stick = cells[row].as_bytes()[column];
                    if stick == b'0' {
                        return false;
                    }
                    cells[row].replace_range(column..=column, "0");
                    let without =
                        Board::parse_rows([&cells[0], &cells[1], &cells[2]]).expect("valid rows");
                    !oracle_legal(&grid_of(&without), row, column, stick)
                })
            })
        })
        .count();
    assert!(connected > 0);
}

/// Invariant: the reference output is accepted, as given and as the judge's
/// answer file, for every profile.
#[test]
fn reference_output_is_accepted() {
    for profile in ProfileKind::ALL {
        for seed in 0..10 {
            let input = generated(profile, seed);
            let reference = Matchsticks.solve(&input).unwrap();
            let decided = Matchsticks
                .check(
                    &input,
                    &reference,
                    Some(&reference),
                    &CheckOptions::default(),
                )
                .unwrap();
            assert_eq!(decided.verdict, Verdict::Accepted, "{decided:?}");
        }
    }
}

/// Moves one per line, each replaced by `replace(index, board)` when it says so.
fn output_with(boards: &[Board], replace: impl Fn(usize, &Board) -> Option<Move>) -> String {
    boards
        .iter()
        .enumerate()
        .map(|(index, board)| {
            let chosen = replace(index, board)
                .or_else(|| best_move(board))
                .expect("every input position has a move");
            format!("{}\n", chosen.compact())
        })
        .collect()
}

/// Asserts that `reason` is "position N: <move> leaves the opponent a win:
/// <reply>" with a reply that is legal and wins by the oracle.
fn assert_names_a_winning_reply(reason: &str, number: usize, board: &Board, losing: Move) {
    let prefix = format!("position {number}: {losing} leaves the opponent a win: ");
    let reply_text = reason
        .strip_prefix(&prefix)
        .unwrap_or_else(|| panic!("{reason:?} does not start with {prefix:?}"));
    let after = board.with(losing);
    let reply = after
        .legal_moves()
        .into_iter()
        .find(|candidate| candidate.to_string() == reply_text)
        .unwrap_or_else(|| panic!("{reply_text:?} is not a legal reply on\n{after}"));
    if after.empty_cells() <= ORACLE_MAX_EMPTY_CELLS {
        assert!(
            !oracle_wins_after(&after, reply),
            "{reply} does not win on\n{after}"
        );
    } else {
        assert_eq!(
            outcome(&after.with(reply)),
            Outcome::Loss,
            "{reply} on\n{after}"
        );
    }
}

/// Invariant: on a won position, another legal but losing move in place of
/// the reference's is rejected, and the reason names a winning reply.
#[test]
fn mutated_losing_move_is_rejected_with_a_reason() {
    let mut mutated = 0;
    for profile in [ProfileKind::Random, ProfileKind::Tricky] {
        for seed in 0..15 {
            let input = generated(profile, seed);
            let boards = boards_of(&input);
            for (index, board) in boards.iter().enumerate() {
                if outcome(board) == Outcome::Loss {
                    continue;
                }
                let Some(losing) = board
                    .legal_moves()
                    .into_iter()
                    .rev()
                    .find(|&candidate| outcome(&board.with(candidate)) == Outcome::Win)
                else {
                    continue;
                };
                let output = output_with(&boards, |at, _| (at == index).then_some(losing));
                let (verdict, reason) = check(&input, &output);
                assert_eq!(verdict, Verdict::WrongAnswer, "{reason}");
                assert_names_a_winning_reply(&reason, index + 1, board, losing);
                mutated += 1;
            }
        }
    }
    assert!(mutated > 50, "only {mutated} mutations");
}

/// Invariant: the greedy "fewest replies" move is rejected on every
/// position of every `tricky` input, and the other positions are fine.
#[test]
fn greedy_move_is_rejected_on_every_tricky_position() {
    for seed in 0..15 {
        let input = generated(ProfileKind::Tricky, seed);
        let boards = boards_of(&input);
        for (index, board) in boards.iter().enumerate() {
            let greedy = greedy_move(board).expect("a tricky position has moves");
            if board.empty_cells() <= ORACLE_MAX_EMPTY_CELLS {
                assert!(oracle_wins(&grid_of(board)), "{board}");
                assert!(oracle_wins_after(board, greedy), "{board}: {greedy}");
            }
            let output = output_with(&boards, |at, _| (at == index).then_some(greedy));
            let (verdict, reason) = check(&input, &output);
            assert_eq!(verdict, Verdict::WrongAnswer, "{reason}");
            assert_names_a_winning_reply(&reason, index + 1, board, greedy);
        }
    }
}

/// On `lost` inputs every legal move of every position is accepted.
#[test]
fn any_legal_move_is_accepted_on_lost_positions() {
    for seed in 0..10 {
        let input = generated(ProfileKind::Lost, seed);
        let boards = boards_of(&input);
        for (index, board) in boards.iter().enumerate() {
            if board.empty_cells() <= ORACLE_MAX_EMPTY_CELLS {
                assert!(!oracle_wins(&grid_of(board)), "{board}");
            }
            for legal in board.legal_moves() {
                let output = output_with(&boards, |at, _| (at == index).then_some(legal));
                assert_eq!(
                    check(&input, &output).0,
                    Verdict::Accepted,
                    "{board}: {legal}"
                );
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Invariant: the reference output written spaced (`r c d`), with CRLF,
    /// tabs or everything on one line, is still accepted.
    #[test]
    fn whitespace_equivalent_reference_is_accepted(
        seed in 0u64..1000,
        profile in prop::sample::select(ProfileKind::ALL.to_vec()),
        separators in prop::collection::vec(prop::sample::select(vec![" ", "\t", "\r\n", "\n", "  "]), 3),
        spaced in any::<bool>(),
    ) {
        let input = generated(profile, seed);
        let moves: Vec<String> = boards_of(&input)
            .iter()
            .map(|board| {
                let chosen = best_move(board).expect("a move");
                if spaced {
                    chosen.to_string().replace(' ', separators[0])
                } else {
                    chosen.compact()
                }
            })
            .collect();
        let output = format!("{}{}", moves.join(separators[1]), separators[2]);
        let (verdict, reason) = check(&input, &output);
        prop_assert_eq!(verdict, Verdict::Accepted, "{}", reason);
    }
}
