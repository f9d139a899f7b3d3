//! Start-up: how long a `judge` command on the bundled packages takes from
//! spawn to exit, against spawning `/bin/true` in the same run (issue #19:
//! at most 5 ms; it was 52-80 ms while every command re-checked the bundled
//! packages' tests). A `--problems-dir` package is still checked at load, so
//! the same commands on a copy of the bundled packages read from disk show
//! that cost.
//!
//! Run: `cargo bench --bench startup` (`JUDGE_BENCH_RUNS` sets the runs of
//! each command, default 41; the commands take turns, so load on the
//! machine hits them alike, and the median counts).

#![expect(
    clippy::unwrap_used,
    clippy::print_stdout,
    reason = "a benchmark binary"
)]

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

const JUDGE: &str = env!("CARGO_BIN_EXE_judge");
const PROBLEMS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/problems");

fn main() {
    let runs: usize = std::env::var("JUDGE_BENCH_RUNS")
        .ok()
        .and_then(|runs| runs.parse().ok())
        .unwrap_or(41);
    let mayan_in = format!("{PROBLEMS}/mayan/tests/sample-1.in");
    let mayan_ans = format!("{PROBLEMS}/mayan/tests/sample-1.ans");
    let rooks_in = format!("{PROBLEMS}/rooks/tests/sample-1.in");
    let commands: Vec<(String, Vec<String>)> = {
        let mut commands = vec![("/bin/true".to_owned(), Vec::new())];
        let judge = |args: &[&str]| {
            (
                JUDGE.to_owned(),
                args.iter().map(|a| a.to_string()).collect(),
            )
        };
        for disk in [false, true] {
            let mut with = |args: &[&str]| {
                let mut args = args.to_vec();
                if disk {
                    args.extend(["--problems-dir", PROBLEMS]);
                }
                commands.push(judge(&args));
            };
            with(&["problems"]);
            with(&["solve", "mayan", &mayan_in]);
            with(&["check", "mayan", &mayan_in, &mayan_ans]);
            with(&["validate", "rooks", &rooks_in]);
        }
        commands
    };
    // Every command must succeed: a fast failure is not a fast start.
    for (program, args) in &commands {
        let status = Command::new(program)
            .args(args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .unwrap();
        assert!(
            status.success(),
            "`{program} {}` failed: {status}",
            args.join(" ")
        );
    }
    let mut times = vec![Vec::with_capacity(runs); commands.len()];
    for _ in 0..runs {
        for ((program, args), times) in commands.iter().zip(&mut times) {
            let start = Instant::now();
            let status = Command::new(program)
                .args(args)
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .unwrap();
            times.push(start.elapsed().as_secs_f64() * 1e3);
            assert!(status.success());
        }
    }
    let medians: Vec<f64> = times.iter_mut().map(|times| median(times)).collect();
    let baseline = medians[0];
    println!("start-up, median of {runs} runs each, spawn to exit (ms)");
    println!(
        "{:>8} {:>11} {:>6}  command",
        "median", "- /bin/true", "ratio"
    );
    for ((program, args), median) in commands.iter().zip(&medians) {
        let name = Path::new(program).file_name().map_or_else(
            || program.clone(),
            |name| name.to_string_lossy().into_owned(),
        );
        let shown = std::iter::once(name)
            .chain(args.iter().map(|arg| short(arg)))
            .collect::<Vec<_>>()
            .join(" ");
        println!(
            "{median:>8.2} {:>11.2} {:>6.2}  {shown}",
            median - baseline,
            median / baseline
        );
    }
}

/// A path under the repository as the repository names it.
fn short(arg: &str) -> String {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/");
    arg.strip_prefix(root).unwrap_or(arg).to_owned()
}

fn median(times: &mut [f64]) -> f64 {
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}
