//! Start-up: how long a `judge` command on the bundled packages takes from
//! spawn to exit, against spawning `/bin/true` in the same run (issue #19:
//! at most 5 ms; it was 52-80 ms while every command re-checked the bundled
//! packages' tests). A `--problems-dir` package is still checked at load, so
//! the same commands on a copy of the bundled packages read from disk show
//! that cost.
//!
//! Then (issue #15: "the scored package grades as fast as the same tests
//! pass-fail") `judge grade --package` on two Kattis packages with the same
//! 20 tests and the same submissions, one 2025-09 `scoring` with two
//! `test_group.yaml` groups, one `pass-fail`, taking turns; the ratio of
//! the medians is printed. Both grades judge the same 42 tests: the
//! wrong-answer example fails only the last test, so neither the
//! pass-fail stop at the first failure nor a `min` group's stop at its
//! first rejection skips a test the other judges (with an earlier
//! failure, the scored grade must still judge the second group's tests to
//! score it, and the ratio would count that work, not the scoring's cost).
//!
//! Run: `cargo bench --bench startup` (`JUDGE_BENCH_RUNS` sets the runs of
//! each command, default 41, and of each package grade, a fifth of it; the
//! commands take turns, so load on the machine hits them alike, and the
//! median counts).

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
    scored_against_pass_fail(runs.div_ceil(5).max(3));
}

/// Writes a Kattis package of 20 a+1 tests under `dir`: `scoring` with two
/// groups of ten (`min`, 40 and 60 points) or `pass-fail`, with an
/// accepted and a wrong-answer submission (wrong on the last test only,
/// `g2/9`: 123).
fn write_package(dir: &Path, scored: bool) {
    let kind = if scored { "scoring" } else { "pass-fail" };
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        fs_err::create_dir_all(path.parent().unwrap()).unwrap();
        fs_err::write(path, text).unwrap();
    };
    write(
        "problem.yaml",
        &format!(
            "problem_format_version: 2025-09\nname: Plus One\n\
             uuid: 5e0c1d2a-3b4f-4a6e-8c7d-9e0f1a2b3c4d\ntype: {kind}\n\
             limits:\n  time_limit: 2\n"
        ),
    );
    write("statement/problem.en.md", "# Plus One\n");
    write("data/sample/1.in", "1\n");
    write("data/sample/1.ans", "2\n");
    for (group, points) in [("g1", 40), ("g2", 60)] {
        for test in 0..10 {
            let value = test * 7 + points;
            write(
                &format!("data/secret/{group}/{test}.in"),
                &format!("{value}\n"),
            );
            write(
                &format!("data/secret/{group}/{test}.ans"),
                &format!("{}\n", value + 1),
            );
        }
        if scored {
            write(
                &format!("data/secret/{group}/test_group.yaml"),
                &format!("max_score: {points}\nscore_aggregation: min\n"),
            );
        }
    }
    write(
        "input_validators/validate.py",
        "import sys\nint(sys.stdin.readline())\nsys.exit(42)\n",
    );
    write("submissions/accepted/plus.py", "print(int(input()) + 1)\n");
    write(
        "submissions/wrong_answer/late.py",
        "n = int(input())\nprint(n + 1 if n < 123 else n)\n",
    );
}

/// `judge grade --package` on the scored package and on the same tests
/// pass-fail, taking turns: the medians and their ratio.
fn scored_against_pass_fail(runs: usize) {
    let root = tempfile::tempdir().unwrap();
    let packages = [("pass-fail", false), ("scoring", true)].map(|(name, scored)| {
        let dir = root.path().join(name);
        write_package(&dir, scored);
        (name, dir)
    });
    let grade = |dir: &Path| {
        let start = Instant::now();
        let status = Command::new(JUDGE)
            .args(["grade", "-q", "--package"])
            .arg(dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .unwrap();
        // Every submission gets its folder's verdict: exit 0.
        assert!(
            status.success(),
            "grade --package {}: {status}",
            dir.display()
        );
        start.elapsed().as_secs_f64() * 1e3
    };
    let mut times = [Vec::new(), Vec::new()];
    for _ in 0..runs {
        for ((_, dir), times) in packages.iter().zip(&mut times) {
            times.push(grade(dir));
        }
    }
    let [pass_fail, scored] = times.map(|mut times| median(&mut times));
    println!(
        "grade --package, 21 tests x 2 submissions, median of {runs} runs: pass-fail \
         {pass_fail:.1} ms, scoring (2 groups) {scored:.1} ms, ratio {:.3}",
        scored / pass_fail
    );
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
