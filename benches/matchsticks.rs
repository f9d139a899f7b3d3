//! matchsticks: is solving all 3^12 boards up front cheaper than searching
//! each position? Contenders share one group so the report reads as a ratio:
//! a cold table build plus lookups, lookups in the warm table, and a plain
//! unmemoised minimax per position.
//!
//! Run: `cargo bench --bench matchsticks -- --measurement-time 2 --warm-up-time 1`

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use judge::problems::matchsticks::solve::{build_table, table};
use judge::problems::matchsticks::{Board, Outcome};
use rand::Rng;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;
use std::time::Duration;

/// The statement's two sample positions (problems/matchsticks/statement.md) plus random boards with 6 to 9 empty
/// cells (fixed seed): sizes a plain search still finishes on.
fn positions() -> Vec<Board> {
    let mut boards: Vec<Board> = [["0111", "-000", "-000"], ["1111", "----", "0010"]]
        .into_iter()
        .filter_map(Board::parse_rows)
        .collect();
    let mut rng = ChaCha8Rng::seed_from_u64(2024);
    while boards.len() < 10 {
        let code = rng.random_range(0..531_441);
        let board = Board::from_code(code);
        if (6..=9).contains(&board.empty_cells()) && board.has_legal_move() {
            boards.push(board);
        }
    }
    boards
}

/// Plain minimax without memo: the player to move wins when some move leaves
/// the opponent without a win.
fn minimax_wins(board: &Board) -> bool {
    board
        .legal_moves()
        .into_iter()
        .any(|candidate| !minimax_wins(&board.with(candidate)))
}

fn solving(criterion: &mut Criterion) {
    let boards = positions();
    let mut group = criterion.benchmark_group("matchsticks solve, sample positions");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(2))
        .warm_up_time(Duration::from_secs(1))
        .throughput(Throughput::Elements(boards.len() as u64));
    group.bench_function(
        BenchmarkId::new("cold table build + lookups", boards.len()),
        |bencher| {
            bencher.iter(|| {
                let fresh = build_table();
                boards
                    .iter()
                    .filter(|board| fresh.outcome(board) == Outcome::Win)
                    .count()
            })
        },
    );
    table();
    group.bench_function(
        BenchmarkId::new("warm table lookups", boards.len()),
        |bencher| {
            bencher.iter(|| {
                boards
                    .iter()
                    .filter(|board| table().outcome(black_box(board)) == Outcome::Win)
                    .count()
            })
        },
    );
    group.bench_function(BenchmarkId::new("plain minimax", boards.len()), |bencher| {
        bencher.iter(|| {
            boards
                .iter()
                .filter(|board| minimax_wins(black_box(board)))
                .count()
        })
    });
    group.finish();
}

criterion_group!(benches, solving);
criterion_main!(benches);
