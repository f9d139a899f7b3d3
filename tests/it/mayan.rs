//! mayan through the library API: the reference solver against a plain
//! exhaustive search with rules of its own, the generator against the
//! validator, and the checker against the reference and mutated answers.

use judge::problems::mayan::check::check;
use judge::problems::mayan::input::{parse, Board, Direction, Move, Puzzle};
use judge::problems::mayan::solve::{analyse, solve, Reading};
use judge::problems::text::Layout;
use judge::problems::{find, test_rng, CheckOptions, Problem};
use judge::verdict::Verdict;
use proptest::prelude::*;

#[expect(
    clippy::expect_used,
    reason = "a test helper: a missing registration must fail the test"
)]
fn mayan() -> &'static dyn Problem {
    find("mayan").expect("mayan is registered")
}

/// The oracle's own board: `rows[y][x]`, 0 for empty; written apart from the
/// library's rules so that a mistake in one shows up against the other.
type Grid = [[u8; 5]; 7];

fn grid_of(board: &Board) -> Grid {
    let mut grid = [[0; 5]; 7];
    for (x, column) in board.columns().iter().enumerate() {
        for (y, &colour) in column.iter().enumerate() {
            grid[y][x] = colour;
        }
    }
    grid
}

/// Plays `x y g` by the statement, or `None` when it cannot be played.
fn oracle_play(grid: &Grid, x: usize, y: usize, g: i64) -> Option<Grid> {
    let target = x
        .checked_add_signed(g as isize)
        .filter(|&target| target < 5)?;
    let colour = grid[y][x];
    if colour == 0 {
        return None;
    }
    let mut grid = *grid;
    if grid[y][target] != 0 {
        grid[y][x] = grid[y][target];
        grid[y][target] = colour;
    } else {
        grid[y][x] = 0;
        let mut rest = 0;
        while grid[rest][target] != 0 {
            rest += 1;
        }
        grid[rest][target] = colour;
    }
    loop {
        fall(&mut grid);
        let mut vanish = [[false; 5]; 7];
        let mut any = false;
        for y in 0..7 {
            for x in 0..5 {
                let colour = grid[y][x];
                if colour == 0 {
                    continue;
                }
                if x + 2 < 5 && grid[y][x + 1] == colour && grid[y][x + 2] == colour {
                    (vanish[y][x], vanish[y][x + 1], vanish[y][x + 2], any) =
                        (true, true, true, true);
                }
                if y + 2 < 7 && grid[y + 1][x] == colour && grid[y + 2][x] == colour {
                    (vanish[y][x], vanish[y + 1][x], vanish[y + 2][x], any) =
                        (true, true, true, true);
                }
            }
        }
        if !any {
            return Some(grid);
        }
        for y in 0..7 {
            for x in 0..5 {
                if vanish[y][x] {
                    grid[y][x] = 0;
                }
            }
        }
    }
}

/// Every block drops until it rests, bubble style.
fn fall(grid: &mut Grid) {
    let mut moved = true;
    while moved {
        moved = false;
        for y in 1..7 {
            let (below, above) = grid.split_at_mut(y);
            for (lower, upper) in below[y - 1].iter_mut().zip(above[0].iter_mut()) {
                if *upper != 0 && *lower == 0 {
                    (*lower, *upper) = (*upper, 0);
                    moved = true;
                }
            }
        }
    }
}

/// Every sequence of exactly `left` moves in lexicographic order, no pruning
/// and no memory: the first that empties the board.
fn oracle(grid: &Grid, left: usize, with_swaps: bool, path: &mut Vec<(usize, usize, i64)>) -> bool {
    if left == 0 {
        return grid.iter().flatten().all(|&colour| colour == 0);
    }
    for x in 0..5 {
        for y in 0..7 {
            for g in [1, -1] {
                let target = x as i64 + g;
                let same = (0..5).contains(&target)
                    && grid[y][x] != 0
                    && grid[y][x] == grid[y][target as usize];
                if same && !with_swaps {
                    continue;
                }
                if let Some(next) = oracle_play(grid, x, y, g) {
                    path.push((x, y, g));
                    if oracle(&next, left - 1, with_swaps, path) {
                        return true;
                    }
                    path.pop();
                }
            }
        }
    }
    false
}

fn as_triples(moves: &[Move]) -> Vec<(usize, usize, i64)> {
    moves
        .iter()
        .map(|step| (step.x, step.y, step.direction.offset()))
        .collect()
}

/// The solver's and the oracle's answers agree under both readings.
fn assert_agrees_with_oracle(board: &Board, moves: usize) {
    let grid = grid_of(board);
    for (reading, with_swaps) in [
        (Reading::WithoutSameColourSwaps, false),
        (Reading::WithSameColourSwaps, true),
    ] {
        let mut path = Vec::new();
        let expected = oracle(&grid, moves, with_swaps, &mut path).then_some(path);
        let found = solve(board, moves, reading).map(|moves| as_triples(&moves));
        assert_eq!(
            found,
            expected,
            "{reading:?}, n = {moves}, board {:?}",
            board.columns()
        );
    }
}

#[expect(
    clippy::expect_used,
    reason = "a test helper: columns of at most 4 blocks of colours 1..=4 always fit"
)]
/// Columns of up to 4 blocks from a small palette (so runs happen often),
/// with colours nudged where they would make a run on the initial board.
fn small_board() -> impl Strategy<Value = Board> {
    (
        2u8..=4,
        prop::collection::vec(prop::collection::vec(1u8..=4, 0..=4), 5),
    )
        .prop_map(|(palette, raw)| {
            let mut columns: Vec<Vec<u8>> = vec![Vec::new(); 5];
            for y in 0..4 {
                for x in 0..5 {
                    let Some(&wanted) = raw[x].get(y) else {
                        continue;
                    };
                    if columns[x].len() != y {
                        continue;
                    }
                    let mut colour = (wanted - 1) % palette + 1;
                    for _ in 0..palette {
                        columns[x].push(colour);
                        let board = Board::from_columns(&columns).expect("fits");
                        if board.first_run().is_none() {
                            break;
                        }
                        columns[x].pop();
                        colour = colour % palette + 1;
                    }
                }
            }
            Board::from_columns(&columns).expect("fits")
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Invariant: on any board, for n = 1..=3 (fewer for crowded boards, to
    /// keep the oracle quick), the solver returns exactly what an exhaustive
    /// search in lexicographic order returns, under both readings.
    #[test]
    fn solver_agrees_with_exhaustive_search(board in small_board(), moves in 1usize..=3) {
        prop_assume!(board.first_run().is_none());
        let moves = if board.block_count() > 12 { moves.min(2) } else { moves };
        assert_agrees_with_oracle(&board, moves);
    }
}

/// Invariant: on generated boards with n cut to what the oracle can search,
/// the solver agrees with it too.
#[test]
fn solver_agrees_with_exhaustive_search_on_generated_boards() {
    let problem = mayan();
    let mut solvable = 0;
    for profile in ["random", "bottom-row", "edge", "hard"] {
        for index in 0..12 {
            let input = problem
                .generate(profile, &mut test_rng(11, "mayan", profile, index))
                .expect("a known profile");
            let puzzle = parse(&input, Layout::Strict).expect("generated inputs are valid");
            let moves = if puzzle.board.block_count() > 10 {
                2
            } else {
                puzzle.moves.min(3)
            };
            assert_agrees_with_oracle(&puzzle.board, moves);
            solvable +=
                usize::from(solve(&puzzle.board, moves, Reading::WithSameColourSwaps).is_some());
        }
    }
    assert!(solvable > 0, "the comparison should meet solvable boards");
}

#[expect(
    clippy::expect_used,
    reason = "a test helper: every profile named in these tests exists"
)]
fn generated(profile: &str, count: u64) -> Vec<String> {
    let problem = mayan();
    (0..count)
        .map(|index| {
            problem
                .generate(profile, &mut test_rng(2011, "mayan", profile, index))
                .expect("a known profile")
        })
        .collect()
}

/// Invariant: every generated input passes its own profile's validator (and
/// the original constraints), and each profile gives both solvable and
/// unsolvable boards; `edge` gives only boards the others must never emit.
#[expect(
    clippy::expect_used,
    reason = "a test helper: a generated input that fails to parse must fail the test"
)]
fn assert_generated_inputs_keep_their_promise(profile: &str, count: u64) {
    let problem = mayan();
    let mut solvable = 0;
    let inputs = generated(profile, count);
    for input in &inputs {
        problem
            .validate(input, Some(profile))
            .unwrap_or_else(|error| panic!("{profile}: {error}\n{input}"));
        problem
            .validate(input, None)
            .expect("the original constraints hold");
        let answer = problem.solve(input).expect("valid");
        solvable += usize::from(answer != "-1\n");
    }
    if profile == "edge" {
        // Edge boards are the ones the other profiles must never emit.
        for input in &inputs {
            let puzzle = parse(input, Layout::Strict).expect("valid");
            assert!(!analyse(&puzzle).is_plain(), "not an edge board:\n{input}");
        }
    } else {
        let unsolvable = inputs.len() - solvable;
        assert!(
            solvable >= inputs.len() / 6 && unsolvable >= inputs.len() / 6,
            "{profile}: {solvable} solvable, {unsolvable} unsolvable"
        );
    }
}

#[test]
fn random_inputs_keep_their_promise() {
    assert_generated_inputs_keep_their_promise("random", 24);
}

#[test]
fn bottom_row_inputs_keep_their_promise() {
    assert_generated_inputs_keep_their_promise("bottom-row", 24);
}

/// Fewer than the others: each `hard` board takes several full searches.
#[test]
fn hard_inputs_keep_their_promise() {
    assert_generated_inputs_keep_their_promise("hard", 6);
}

#[test]
fn edge_inputs_are_edge_cases() {
    assert_generated_inputs_keep_their_promise("edge", 12);
}

/// Invariant: the checker accepts the reference output of every generated
/// input, and rejects, with a reason, the reference with a move replaced,
/// the moves shuffled or a move dropped.
#[test]
fn checker_accepts_the_reference_and_rejects_mutations() {
    let problem = mayan();
    let options = CheckOptions::default();
    let mut mutations = 0;
    for profile in ["random", "bottom-row"] {
        for (index, input) in generated(profile, 16).iter().enumerate() {
            let answer = problem.solve(input).expect("valid");
            let outcome = check(input, &answer, Some(&answer), &options).expect("no judge fault");
            assert_eq!(outcome.verdict, Verdict::Accepted, "{input}");
            let lines: Vec<&str> = answer.lines().collect();
            if lines == ["-1"] {
                let outcome = check(input, "0 0 1\n", None, &options).expect("no judge fault");
                assert_eq!(outcome.verdict, Verdict::WrongAnswer);
                continue;
            }
            let mut wrong = Vec::new();
            // Another move: the first move dragged the other way.
            let mut replaced = lines.clone();
            let first: Vec<&str> = lines[0].split(' ').collect();
            let flipped = format!(
                "{} {} {}",
                first[0],
                first[1],
                if first[2] == "1" { "-1" } else { "1" }
            );
            replaced[0] = &flipped;
            wrong.push(replaced.join("\n"));
            // Shuffled: rotated by one (when that changes anything).
            let mut rotated = lines.clone();
            rotated.rotate_left(1 + index % lines.len().max(1));
            if rotated != lines {
                wrong.push(rotated.join("\n"));
            }
            // Dropped: the last move left out.
            wrong.push(lines[..lines.len() - 1].join("\n"));
            for output in wrong {
                let outcome = check(input, &output, None, &options).expect("no judge fault");
                // Dropping the only move leaves nothing to read.
                let expected = if output.is_empty() {
                    Verdict::PresentationError
                } else {
                    Verdict::WrongAnswer
                };
                assert_eq!(outcome.verdict, expected, "{input}{output}");
                assert!(!outcome.reason.is_empty());
                mutations += 1;
            }
        }
    }
    assert!(mutations > 10, "too few mutations were tried: {mutations}");
}

/// The original sample, through the package files and the registry.
#[test]
fn the_bundled_sample_is_answered_as_the_original() {
    let problem = mayan();
    let input = include_str!("../../problems/mayan/tests/sample-1.in");
    let answer = include_str!("../../problems/mayan/tests/sample-1.ans");
    problem.validate(input, None).expect("the sample is valid");
    assert_eq!(answer, "2 1 1\n3 1 1\n3 0 1\n");
    assert_eq!(problem.solve(input).expect("valid"), answer);
    let puzzle: Puzzle = parse(input, Layout::Strict).expect("valid");
    let solution = solve(&puzzle.board, 3, Reading::WithoutSameColourSwaps).expect("solvable");
    assert_eq!(
        solution[0],
        Move {
            x: 2,
            y: 1,
            direction: Direction::Right
        }
    );
}
