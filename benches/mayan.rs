//! How fast mayan is solved: the pruned reference search against a plain
//! depth-first search on small n, and the reference alone on `hard` boards,
//! solvable and unsolvable, each group one question with its contenders side
//! by side so the report reads as a ratio.
//!
//! Inputs come from fixed seeds, so every run measures the same boards.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use judge::problems::mayan::generate::generate;
use judge::problems::mayan::input::{parse, Board, Direction, Move, Puzzle, COLUMNS, ROWS};
use judge::problems::mayan::solve::{solve, Reading};
use judge::problems::test_rng;
use judge::problems::text::Layout;
use std::hint::black_box;
use std::time::Duration;

/// `count` generated puzzles of `profile`.
#[expect(
    clippy::expect_used,
    reason = "fixed seeds and known profiles: a failure is a generator bug and must stop the run"
)]
fn puzzles(profile: &str, count: u64) -> Vec<Puzzle> {
    (0..count)
        .map(|index| {
            let text = generate(profile, &mut test_rng(2011, "mayan", profile, index))
                .expect("mayan has this profile");
            parse(&text, Layout::Strict).expect("generated inputs are valid")
        })
        .collect()
}

/// Every move sequence in lexicographic order, no pruning and no memory:
/// the baseline the reference's prunings are measured against.
fn plain_search(board: &Board, left: usize, path: &mut Vec<Move>) -> bool {
    if left == 0 {
        return board.is_empty();
    }
    for x in 0..COLUMNS {
        for y in 0..ROWS {
            for direction in Direction::BOTH {
                let step = Move { x, y, direction };
                if board.is_same_colour_swap(step) {
                    continue;
                }
                let mut next = *board;
                if next.play(step).is_ok() {
                    path.push(step);
                    if plain_search(&next, left - 1, path) {
                        return true;
                    }
                    path.pop();
                }
            }
        }
    }
    false
}

fn plain(board: &Board, moves: usize) -> Option<Vec<Move>> {
    let mut path = Vec::with_capacity(moves);
    plain_search(board, moves, &mut path).then_some(path)
}

fn reference(board: &Board, moves: usize) -> Option<Vec<Move>> {
    solve(board, moves, Reading::WithoutSameColourSwaps)
}

type Solver = fn(&Board, usize) -> Option<Vec<Move>>;

fn bench_group(
    criterion: &mut Criterion,
    name: &str,
    sets: &[(&str, Vec<Puzzle>)],
    contenders: &[(&str, Solver)],
) {
    let mut group = criterion.benchmark_group(name);
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(2))
        .warm_up_time(Duration::from_millis(500));
    for (set, puzzles) in sets {
        group.throughput(Throughput::Elements(puzzles.len() as u64));
        for &(contender, solver) in contenders {
            group.bench_with_input(
                BenchmarkId::new(contender, set),
                puzzles,
                |bencher, puzzles| {
                    bencher.iter(|| {
                        for puzzle in puzzles {
                            black_box(solver(black_box(&puzzle.board), puzzle.moves));
                        }
                    });
                },
            );
        }
    }
    group.finish();
}

fn small_n(criterion: &mut Criterion) {
    // Random boards with n cut to 3: the plain search's 70^3 sequences are
    // still feasible there.
    let boards: Vec<Puzzle> = puzzles("random", 12)
        .into_iter()
        .map(|puzzle| Puzzle {
            moves: puzzle.moves.min(3),
            ..puzzle
        })
        .collect();
    bench_group(
        criterion,
        "mayan solve, random boards, n <= 3",
        &[("random", boards)],
        &[("reference", reference), ("plain-dfs", plain)],
    );
}

fn hard(criterion: &mut Criterion) {
    let (solvable, unsolvable): (Vec<Puzzle>, Vec<Puzzle>) = puzzles("hard", 12)
        .into_iter()
        .partition(|puzzle| reference(&puzzle.board, puzzle.moves).is_some());
    bench_group(
        criterion,
        "mayan solve, hard boards (n = 5)",
        &[("solvable", solvable), ("unsolvable", unsolvable)],
        &[("reference", reference)],
    );
}

criterion_group!(benches, small_n, hard);
criterion_main!(benches);
