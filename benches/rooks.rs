//! How fast rooks is solved: the reference matching against the classic
//! exponential backtracking, each group one question, every contender in the
//! same group so the report reads as a ratio.
//!
//! Inputs come from fixed seeds, so every run measures the same boards.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use judge::problems::rooks::generate::generate;
use judge::problems::rooks::input::{parse_input, Board, Cell, MAX_SIZE};
use judge::problems::rooks::solve::{max_rooks, max_rooks_backtracking};
use judge::problems::test_rng;
use judge::problems::text::Layout;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;
use std::time::Duration;

type Solver = fn(&Board) -> usize;

/// Every board of `count` generated inputs of `profile`.
#[expect(
    clippy::expect_used,
    reason = "fixed seeds and known profiles: a failure is a generator bug and must stop the run"
)]
fn profile_boards(profile: &str, count: u64) -> Vec<Board> {
    (0..count)
        .flat_map(|index| {
            let text = generate(profile, &mut test_rng(639, "rooks", profile, index))
                .expect("rooks has this profile");
            parse_input(&text, Layout::Strict, MAX_SIZE).expect("generated inputs are valid")
        })
        .collect()
}

/// `count` boards of side `size` with about `wall_percent` walls.
fn random_boards(size: usize, wall_percent: u32, count: usize) -> Vec<Board> {
    let mut rng = ChaCha8Rng::seed_from_u64(639);
    (0..count)
        .map(|_| {
            Board::from_fn(size, |_, _| {
                if rng.random_range(0..100) < wall_percent {
                    Cell::Wall
                } else {
                    Cell::Empty
                }
            })
        })
        .collect()
}

fn bench_group(
    criterion: &mut Criterion,
    name: &str,
    boards: &[Board],
    contenders: &[(&str, Solver)],
) {
    let mut group = criterion.benchmark_group(name);
    group.throughput(Throughput::Elements(boards.len() as u64));
    for &(contender, solver) in contenders {
        group.bench_with_input(
            BenchmarkId::from_parameter(contender),
            boards,
            |bencher, boards| {
                bencher.iter(|| {
                    boards
                        .iter()
                        .map(|board| solver(black_box(board)))
                        .sum::<usize>()
                })
            },
        );
    }
    group.finish();
}

fn rooks_solve(criterion: &mut Criterion) {
    let both: &[(&str, Solver)] = &[
        ("matching", max_rooks),
        ("backtracking", max_rooks_backtracking),
    ];
    bench_group(
        criterion,
        "rooks solve, small profile (n <= 4)",
        &profile_boards("small", 20),
        both,
    );
    bench_group(
        criterion,
        "rooks solve, 6 x 6 boards, 25% walls",
        &random_boards(6, 25, 10),
        both,
    );
    // Backtracking would not finish a single 100 x 100 board: it is left out.
    let largest: Vec<Board> = profile_boards("large", 12)
        .into_iter()
        .filter(|board| board.size() == MAX_SIZE)
        .collect();
    bench_group(
        criterion,
        "rooks solve, 100 x 100 boards of the large profile",
        &largest,
        &[("matching", max_rooks)],
    );
}

criterion_group! {
    name = benches;
    // Short runs: the machine is shared by several engineers.
    config = Criterion::default()
        .sample_size(20)
        .measurement_time(Duration::from_secs(2))
        .warm_up_time(Duration::from_secs(1));
    targets = rooks_solve
}
criterion_main!(benches);
