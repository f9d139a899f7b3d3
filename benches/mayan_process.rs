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
//!
//! Besides wall time it reports each process's CPU time (the kernel's
//! `/proc/PID/schedstat` of its one thread, read once it has exited and before it is
//! reaped): on a shared machine the wall time of a 10 ms process is mostly
//! waiting for a core, its CPU time is not.

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
        rows.push(Row {
            name,
            solvable,
            theirs: Times::median(&mut theirs),
            ours: Times::median(&mut ours),
        });
    }
    println!("mayan, dense n = 5 boards, process included, median of {runs} runs (ms)");
    println!(
        "{:<28} {:>9} {:>12} {:>11} {:>7} {:>11} {:>10} {:>7}",
        "board",
        "answer",
        "classic wall",
        "judge wall",
        "ratio",
        "classic CPU",
        "judge CPU",
        "ratio"
    );
    for row in &rows {
        println!(
            "{:<28} {:>9} {:>12.2} {:>11.2} {:>6.1}x {:>11.2} {:>10.2} {:>6.1}x",
            row.name,
            if row.solvable { "solution" } else { "-1" },
            row.theirs.wall,
            row.ours.wall,
            row.theirs.wall / row.ours.wall,
            row.theirs.cpu,
            row.ours.cpu,
            row.theirs.cpu / row.ours.cpu
        );
    }
    let sum = |pick: fn(&Row) -> f64| rows.iter().map(pick).sum::<f64>();
    let (theirs_wall, ours_wall) = (sum(|row| row.theirs.wall), sum(|row| row.ours.wall));
    let (theirs_cpu, ours_cpu) = (sum(|row| row.theirs.cpu), sum(|row| row.ours.cpu));
    let worst_wall = rows.iter().map(|row| row.ours.wall).fold(0.0, f64::max);
    let worst_cpu = rows.iter().map(|row| row.ours.cpu).fold(0.0, f64::max);
    let baseline = {
        let mut times: Vec<Times> = (0..runs.max(11))
            .map(|_| time(Command::new("/bin/true")))
            .collect();
        Times::median(&mut times)
    };
    println!(
        "{:<28} {:>9} {theirs_wall:>12.2} {ours_wall:>11.2} {:>6.1}x {theirs_cpu:>11.2} {ours_cpu:>10.2} {:>6.1}x",
        "all boards",
        "",
        theirs_wall / ours_wall,
        theirs_cpu / ours_cpu
    );
    println!(
        "judge's worst board: {worst_wall:.2} ms wall, {worst_cpu:.2} ms CPU; \
         spawning /bin/true: {:.2} ms wall, {:.2} ms CPU",
        baseline.wall, baseline.cpu
    );
}

struct Row<'a> {
    name: &'a str,
    solvable: bool,
    theirs: Times,
    ours: Times,
}

/// One process's wall and CPU time, in milliseconds.
#[derive(Clone, Copy)]
struct Times {
    wall: f64,
    cpu: f64,
}

impl Times {
    /// The median of each, taken apart.
    fn median(times: &mut [Times]) -> Times {
        let mut walls: Vec<f64> = times.iter().map(|times| times.wall).collect();
        let mut cpus: Vec<f64> = times.iter().map(|times| times.cpu).collect();
        Times {
            wall: median(&mut walls),
            cpu: median(&mut cpus),
        }
    }
}

/// Spawn to exit, output discarded: the wall time, and the CPU time the
/// kernel counted for the process (read while it is a zombie).
fn time(mut command: Command) -> Times {
    use rustix::process::{waitid, Pid, WaitId, WaitIdOptions};
    command.stdout(Stdio::null()).stderr(Stdio::null());
    let start = Instant::now();
    let mut child = command.spawn().unwrap();
    let pid = Pid::from_raw(i32::try_from(child.id()).unwrap()).unwrap();
    waitid(
        WaitId::Pid(pid),
        WaitIdOptions::EXITED | WaitIdOptions::NOWAIT,
    )
    .unwrap();
    let wall = start.elapsed().as_secs_f64() * 1e3;
    let schedstat = fs_err::read_to_string(format!("/proc/{}/schedstat", child.id())).unwrap();
    let cpu_ns: f64 = schedstat
        .split_whitespace()
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let status = child.wait().unwrap();
    assert!(status.success());
    Times {
        wall,
        cpu: cpu_ns / 1e6,
    }
}

fn median(times: &mut [f64]) -> f64 {
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}
