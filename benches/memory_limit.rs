//! MLE at once (issue #31): how long a forking memory hog (eight children
//! writing 200 MB each, then sleeping) takes to its verdict under a 256 MiB
//! limit, against one process going over the same limit, in the same run.
//! Before issue #31 the tree was MLE only when its wall clock ran out on a
//! cgroup v1 host (6 s at a 2 s time limit), while one process over the
//! limit ended in 0.34 s.
//!
//! Each is a `judge run rooks` of a compiled executable (no compile in the
//! figure) on the rooks sample, taking turns so that load on the machine
//! hits both alike; the figures are the medians of the test's `wall_ms`
//! (from the program's start to its end) and of the whole command, and
//! the report's verdict and peak are checked on every run.
//!
//! Run: `cargo bench --bench memory_limit` (as root for the memory cgroup;
//! as another user the run is sampled without one, and says so).
//! `JUDGE_BENCH_RUNS` sets the runs of each (default 7);
//! `JUDGE_BENCH_BASELINE=/path/to/an/older/judge` measures that binary
//! too, taking turns with this one.

#![expect(
    clippy::unwrap_used,
    clippy::print_stdout,
    reason = "a benchmark binary"
)]

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

const JUDGE: &str = env!("CARGO_BIN_EXE_judge");
const PROBLEMS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/problems");

/// The issue's tree: no child is over the limit, the tree is.
const TREE: &str = r#"
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
int main(void) {
    for (int i = 0; i < 8; i++) {
        if (fork() == 0) {
            size_t size = (size_t)200 << 20;
            volatile char *block = malloc(size);
            if (!block) return 1;
            for (size_t at = 0; at < size; at += 4096) block[at] = 1;
            sleep(100);
            return 0;
        }
    }
    while (wait(NULL) > 0) {
    }
    return 0;
}
"#;

/// One process writing 1.6 GB: over the limit by itself.
const ONE: &str = r#"
#include <stdlib.h>
int main(void) {
    size_t size = (size_t)1600 << 20;
    volatile char *block = malloc(size);
    if (!block) return 1;
    for (size_t at = 0; at < size; at += 4096) block[at] = 1;
    return 0;
}
"#;

fn compile(dir: &Path, name: &str, source: &str) {
    let source_path = dir.join(format!("{name}.c"));
    fs_err::write(&source_path, source).unwrap();
    let status = Command::new("cc")
        .args(["-O2", "-o"])
        .arg(dir.join(name))
        .arg(&source_path)
        .status()
        .unwrap();
    assert!(status.success(), "cc failed on {name}.c");
}

/// One `judge run` of `name`: the command's time, the test's `wall_ms`,
/// its peak (KiB) and the report's `isolation.memory`.
fn judged(judge: &str, dir: &Path, name: &str) -> (Duration, u64, u64, String) {
    let started = Instant::now();
    let output = Command::new(judge)
        .current_dir(dir)
        .args(["run", "rooks", &format!("./{name}"), "--tests", "tests"])
        .args([
            "--random",
            "0",
            "--time-limit",
            "2000",
            "--memory-limit",
            "256",
        ])
        .args(["--json", "report.json"])
        .output()
        .unwrap();
    let elapsed = started.elapsed();
    let report: serde_json::Value =
        serde_json::from_str(&fs_err::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    let test = &report["results"][0]["tests"][0];
    assert_eq!(
        test["verdict"],
        "MLE",
        "{name}: {test:#}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    (
        elapsed,
        test["wall_ms"].as_u64().unwrap(),
        test["memory_kib"].as_u64().unwrap(),
        report["isolation"]["memory"]
            .as_str()
            .unwrap_or("?")
            .to_owned(),
    )
}

fn median<T: Ord + Copy>(mut values: Vec<T>) -> T {
    values.sort();
    values[values.len() / 2]
}

fn main() {
    let runs: usize = std::env::var("JUDGE_BENCH_RUNS")
        .ok()
        .and_then(|runs| runs.parse().ok())
        .unwrap_or(7);
    let dir = tempfile::tempdir().unwrap();
    compile(dir.path(), "tree", TREE);
    compile(dir.path(), "one", ONE);
    let tests = dir.path().join("tests");
    fs_err::create_dir(&tests).unwrap();
    for name in ["sample-1.in", "sample-1.ans"] {
        fs_err::copy(
            Path::new(PROBLEMS).join("rooks/tests").join(name),
            tests.join(name),
        )
        .unwrap();
    }
    let mut judges = vec![("this judge", JUDGE.to_owned())];
    if let Ok(baseline) = std::env::var("JUDGE_BENCH_BASELINE") {
        judges.push(("baseline", baseline));
    }
    // Per judge, per program: the command's times, the tests' wall, peaks.
    type Figures = (Vec<Duration>, Vec<u64>, Vec<u64>);
    let mut figures: Vec<[Figures; 2]> = judges.iter().map(|_| Default::default()).collect();
    let mut memory = String::new();
    for _ in 0..runs {
        for (figures, (_, judge)) in figures.iter_mut().zip(&judges) {
            for (index, name) in ["tree", "one"].into_iter().enumerate() {
                let (elapsed, wall_ms, peak_kib, how) = judged(judge, dir.path(), name);
                figures[index].0.push(elapsed);
                figures[index].1.push(wall_ms);
                figures[index].2.push(peak_kib);
                memory = how;
            }
        }
    }
    println!(
        "MLE under 256 MiB at a 2000 ms time limit, {runs} runs each, memory limited by {memory}:"
    );
    for (figures, (label, judge)) in figures.into_iter().zip(&judges) {
        let [tree, one] = figures.map(|(elapsed, wall, peak)| {
            (
                median(elapsed).as_secs_f64() * 1e3,
                median(wall),
                median(peak),
            )
        });
        println!("{label} ({judge}):");
        println!(
            "  tree of 8 x 200 MB: test wall {} ms, command {:.0} ms, peak {} KiB",
            tree.1, tree.0, tree.2
        );
        println!(
            "  one process 1.6 GB: test wall {} ms, command {:.0} ms, peak {} KiB",
            one.1, one.0, one.2
        );
        println!(
            "  the tree takes {:.2}x the one process's time to its verdict (test wall)",
            tree.1 as f64 / one.1.max(1) as f64
        );
    }
}
