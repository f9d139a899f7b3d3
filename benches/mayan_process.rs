//! Mayan on dense n = 5 boards, process included: `judge solve mayan FILE`
//! against the classic depth-first search of NOIP 2011
//! (`benches/mayan_plain_dfs.cpp`, compiled with `g++ -O2`), both spawned,
//! fed the same board and waited for, in the same run (issue #19: at least
//! 100x, the judge's worst board at most 20 ms).
//!
//! The boards are the `hard` profile's: the first 10 of master seed 2011 (as
//! the in-process `mayan` bench draws them) and the bundled package's
//! `hard-*` tests. Both programs must print the same answer on every board,
//! so the bench also cross-checks the solver against an independent one.
//!
//! Run: `cargo bench --bench mayan_process` (`JUDGE_BENCH_RUNS` sets the
//! runs of each board and program, default 5; they take turns and the
//! median counts). Needs `g++`.

#![expect(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::print_stdout,
    reason = "a benchmark binary"
)]

use judge::problems::mayan::generate::generate;
use judge::problems::test_rng;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

const JUDGE: &str = env!("CARGO_BIN_EXE_judge");
const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn main() {
    let runs: usize = std::env::var("JUDGE_BENCH_RUNS")
        .ok()
        .and_then(|runs| runs.parse().ok())
        .unwrap_or(5);
    let scratch = tempfile::tempdir().unwrap();
    let plain = scratch.path().join("plain-dfs");
    let compiled = Command::new("g++")
        .args(["-O2", "-o"])
        .arg(&plain)
        .arg(Path::new(ROOT).join("benches/mayan_plain_dfs.cpp"))
        .status()
        .expect("this bench needs g++ (apt-get install g++)");
    assert!(
        compiled.success(),
        "g++ failed on benches/mayan_plain_dfs.cpp"
    );

    let mut boards: Vec<(String, PathBuf)> = Vec::new();
    for index in 0..10 {
        let text = generate("hard", &mut test_rng(2011, "mayan", "hard", index)).unwrap();
        let path = scratch.path().join(format!("seed-2011-{index}.in"));
        fs_err::write(&path, text).unwrap();
        boards.push((format!("hard, seed 2011, #{index}"), path));
    }
    let tests = Path::new(ROOT).join("problems/mayan/tests");
    let mut bundled: Vec<PathBuf> = fs_err::read_dir(&tests)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| {
            let name = path.file_name().unwrap().to_string_lossy();
            name.starts_with("hard-") && name.ends_with(".in")
        })
        .collect();
    bundled.sort();
    for path in bundled {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        boards.push((format!("bundled {name}"), path));
    }

    let judge = |board: &Path| {
        let mut command = Command::new(JUDGE);
        command.args(["solve", "mayan"]).arg(board);
        command
    };
    let classic = |board: &Path| {
        let mut command = Command::new(&plain);
        command.stdin(fs_err::File::open(board).unwrap().into_file());
        command
    };
    // Same answers first: a fast wrong solver is not a fast solver.
    for (name, board) in &boards {
        let ours = judge(board).stderr(Stdio::inherit()).output().unwrap();
        let theirs = classic(board).output().unwrap();
        assert!(ours.status.success() && theirs.status.success(), "{name}");
        assert_eq!(
            String::from_utf8_lossy(&ours.stdout),
            String::from_utf8_lossy(&theirs.stdout),
            "{name}: judge and the classic DFS disagree"
        );
    }
    let mut rows = Vec::new();
    for (name, board) in &boards {
        let mut ours = Vec::with_capacity(runs);
        let mut theirs = Vec::with_capacity(runs);
        for _ in 0..runs {
            theirs.push(time(classic(board)));
            ours.push(time(judge(board)));
        }
        let solvable = {
            let output = judge(board).output().unwrap();
            String::from_utf8_lossy(&output.stdout).trim() != "-1"
        };
        rows.push((name, solvable, median(&mut theirs), median(&mut ours)));
    }
    println!("mayan, dense n = 5 boards, process included, median of {runs} runs (ms)");
    println!(
        "{:<28} {:>10} {:>14} {:>12} {:>8}",
        "board", "answer", "classic DFS", "judge solve", "ratio"
    );
    for (name, solvable, theirs, ours) in &rows {
        println!(
            "{name:<28} {:>10} {theirs:>14.2} {ours:>12.2} {:>7.1}x",
            if *solvable { "solution" } else { "-1" },
            theirs / ours
        );
    }
    let total_theirs: f64 = rows.iter().map(|row| row.2).sum();
    let total_ours: f64 = rows.iter().map(|row| row.3).sum();
    let worst = rows.iter().map(|row| row.3).fold(0.0, f64::max);
    let baseline = {
        let mut times: Vec<f64> = (0..runs.max(11))
            .map(|_| time(Command::new("/bin/true")))
            .collect();
        median(&mut times)
    };
    println!(
        "{:<28} {:>10} {total_theirs:>14.2} {total_ours:>12.2} {:>7.1}x",
        "all boards",
        "",
        total_theirs / total_ours
    );
    println!("judge's worst board: {worst:.2} ms; spawning /bin/true: {baseline:.2} ms");
}

/// Spawn to exit, output discarded, in milliseconds.
fn time(mut command: Command) -> f64 {
    command.stdout(Stdio::null()).stderr(Stdio::null());
    let start = Instant::now();
    let status = command.status().unwrap();
    let elapsed = start.elapsed().as_secs_f64() * 1e3;
    assert!(status.success());
    elapsed
}

fn median(times: &mut [f64]) -> f64 {
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}
