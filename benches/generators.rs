//! How fast each generator profile makes one input (the time a problem setter
//! waits per test with `judge gen --count N`), every profile of a problem in
//! one group so the report compares them. Mayan's generators solve each
//! candidate board under both readings, so they are the ones to watch.

use criterion::{criterion_group, criterion_main, Criterion};
use judge::problems::{test_rng, PROBLEMS};
use std::hint::black_box;
use std::time::Duration;

fn generators(criterion: &mut Criterion) {
    for problem in PROBLEMS {
        let mut group = criterion.benchmark_group(format!("{} generate one input", problem.id()));
        group
            .sample_size(10)
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(3));
        for profile in problem.profiles() {
            // A new index each iteration: the cost over many different tests,
            // not the cost of one lucky or unlucky seed.
            let mut index = 0;
            group.bench_function(profile.name, |bencher| {
                bencher.iter(|| {
                    index += 1;
                    let mut rng = test_rng(1, problem.id(), profile.name, index);
                    black_box(problem.generate(profile.name, &mut rng))
                });
            });
        }
        group.finish();
    }
}

criterion_group!(benches, generators);
criterion_main!(benches);
