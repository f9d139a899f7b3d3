//! The judge's per-test overhead against a bare spawn-wait-compare loop, on
//! the same 500 a+b tests with the same compiled program, measured in the
//! same invocation and reported as a ratio (issue #3: aim within 1.5x with
//! isolation on; issue #19: 1.2x), with a row per layer: the sandbox alone
//! with each per-run layer switched off in turn, in interleaved rounds.
//! Each row is given in wall time and in CPU time (user and system time of
//! this process and of every process it reaped, the namespace holders
//! included), which a loaded machine distorts less.
//!
//! Run: `cargo bench --bench runner` (set `JUDGE_BENCH_TESTS` to change the
//! number of tests, `JUDGE_BENCH_ROUNDS` the rounds; the best round counts;
//! `JUDGE_BENCH_PROFILE=judge` runs only the `judge run` loop, to profile).
//! Not criterion: one iteration is 500 process spawns, and the question is
//! one ratio, not a distribution.

#![expect(
    clippy::unwrap_used,
    clippy::print_stdout,
    reason = "a benchmark binary"
)]

use judge::problems::{
    CheckOptions, CheckOutcome, CheckerFailure, GenerateError, InputError, Problem, Profile,
};
use judge::runner::{self, Settings, Submission, SubmissionKind, Workspace};
use judge::sandbox::{BenchLayer, DataFolder, Hidden, Isolation, RunSpec, Sandbox, Trust};
use rand_chacha::ChaCha8Rng;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// a+b, checked by comparing the integer printed with the sum.
struct Sum;

impl Problem for Sum {
    fn id(&self) -> &'static str {
        "sum"
    }
    fn title(&self) -> &'static str {
        "Sum"
    }
    fn profiles(&self) -> &'static [Profile] {
        &[]
    }
    fn validate(&self, _input: &str, _profile: Option<&str>) -> Result<(), InputError> {
        Ok(())
    }
    fn solve(&self, input: &str) -> Result<String, InputError> {
        let sum: i64 = input
            .split_whitespace()
            .filter_map(|t| t.parse::<i64>().ok())
            .sum();
        Ok(format!("{sum}\n"))
    }
    fn generate(&self, _profile: &str, _rng: &mut ChaCha8Rng) -> Result<String, GenerateError> {
        Ok(String::new())
    }
    fn check(
        &self,
        _input: &str,
        output: &str,
        answer: Option<&str>,
        _options: &CheckOptions,
    ) -> Result<CheckOutcome, CheckerFailure> {
        Ok(if Some(output.trim()) == answer.map(str::trim) {
            CheckOutcome::accepted("")
        } else {
            CheckOutcome::wrong_answer("differs")
        })
    }
}

fn main() {
    let count: usize = std::env::var("JUDGE_BENCH_TESTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(500);
    let rounds: usize = std::env::var("JUDGE_BENCH_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3);
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("sum.c");
    fs_err::write(
        &source,
        "#include <stdio.h>\nint main(void){long long a,b;if(scanf(\"%lld %lld\",&a,&b)!=2)return 1;printf(\"%lld\\n\",a+b);return 0;}\n",
    )
    .unwrap();
    let executable = dir.path().join("sum");
    let status = Command::new("gcc")
        .args(["-O2", "-o"])
        .arg(&executable)
        .arg(&source)
        .status()
        .unwrap();
    assert!(status.success(), "gcc failed");
    let tests_dir = dir.path().join("tests");
    fs_err::create_dir(&tests_dir).unwrap();
    for index in 0..count {
        let (a, b) = (index as i64 * 7919 % 1000, index as i64 * 104_729 % 1000);
        fs_err::write(
            tests_dir.join(format!("{index:04}.in")),
            format!("{a} {b}\n"),
        )
        .unwrap();
        fs_err::write(
            tests_dir.join(format!("{index:04}.ans")),
            format!("{}\n", a + b),
        )
        .unwrap();
    }

    // Resolved as `judge run` resolves them: this judge.toml over the
    // package's limits.
    let config = judge::config::judge::JudgeConfig::parse(
        Path::new("judge.toml"),
        "[limits]\ntime-limit-ms = 1000\nmemory-limit-mib = 256\noutput-limit-kib = 16384\n\
         wall-time-factor = 3.0\nprocesses = 64\nopen-files = 128\nfile-size-kib = 65536\n\
         scratch-limit-mib = 64\ncompile-time-limit-ms = 30000\ncompile-memory-limit-mib = 1024\n",
    )
    .unwrap();
    let package = judge::config::problem::LimitsToml {
        time_limit_ms: 1000,
        memory_limit_mib: 256,
        output_limit_kib: 16384,
        tool_time_limit_ms: None,
        tool_memory_limit_mib: None,
    };
    let flags = judge::grading::settings::Overrides {
        jobs: Some(1),
        ..Default::default()
    };
    let settings: Settings =
        judge::grading::settings::resolve_with(&flags, &config, &package, CheckOptions::default())
            .settings;
    let submission = Submission::new(executable.clone(), SubmissionKind::Executable);

    // The program where the sandbox user can reach it, as the runner puts
    // a submission.
    let sandbox_workspace = Workspace::new().unwrap();
    let program_dir = sandbox_workspace.path().join("program");
    fs_err::create_dir(&program_dir).unwrap();
    set_mode(&program_dir, 0o711);
    let program = program_dir.join("sum");
    fs_err::copy(&executable, &program).unwrap();
    set_mode(&program, 0o755);
    let spec = RunSpec {
        program: program.clone(),
        args: Vec::new(),
        stdin: None,
        workdir: None,
        env: Vec::new(),
        read_paths: vec![program_dir.clone()],
        limits: settings.limits,
        trust: Trust::Submission,
    };

    // `JUDGE_BENCH_PROFILE=judge`: only the `judge run` loop, round after
    // round, for `perf record` or `strace -c -f` to see the runner alone.
    if std::env::var("JUDGE_BENCH_PROFILE").as_deref() == Ok("judge") {
        for round in 0..rounds {
            let judged = judge_loop(&submission, &tests_dir, count, &settings);
            println!(
                "round {}: judge {:.3} ms/test",
                round + 1,
                per_test_ms(judged, count)
            );
        }
        return;
    }
    println!("load average before: {}", load_average());
    let mut rows: Vec<Row> = vec![
        Row::new("bare: posix_spawn, wait, compare", None),
        Row::new("bare with fork instead of posix_spawn", None),
        Row::new(
            "judge run (runner: limits, every layer, checker, events)",
            None,
        ),
    ];
    for (label, layers) in LAYER_ROWS {
        rows.push(Row::new(label, Some(layers)));
    }
    let mut best_bare = Duration::MAX;
    let mut best_judge = Duration::MAX;
    for round in 0..rounds {
        let cpu_started = cpu_now();
        let before = bare_loop(&executable, &tests_dir, count, false);
        let before_cpu = cpu_now() - cpu_started;
        // Each round in another order, so no row always follows another.
        let mut times = vec![Duration::ZERO; rows.len()];
        let mut cpu = vec![Duration::ZERO; rows.len()];
        let order: Vec<usize> = (1..rows.len())
            .map(|offset| 1 + (offset - 1 + round) % (rows.len() - 1))
            .collect();
        for index in order {
            let cpu_started = cpu_now();
            times[index] = match (index, rows[index].layers) {
                (1, _) => bare_loop(&executable, &tests_dir, count, true),
                (2, _) => judge_loop(&submission, &tests_dir, count, &settings),
                (_, Some(layers)) => {
                    sandbox_loop(&sandbox_workspace, &spec, &tests_dir, count, layers)
                }
                (_, None) => unreachable!("every other row switches layers"),
            };
            cpu[index] = cpu_now() - cpu_started;
        }
        let cpu_started = cpu_now();
        let after = bare_loop(&executable, &tests_dir, count, false);
        cpu[0] = (before_cpu + (cpu_now() - cpu_started)) / 2;
        let bare = (before + after) / 2;
        times[0] = bare;
        let every_layer = times[3];
        for ((row, time), row_cpu) in rows.iter_mut().zip(&times).zip(&cpu) {
            row.cpu_ms.push(per_test_ms(*row_cpu, count));
            row.cpu_ratio
                .push(row_cpu.as_secs_f64() / cpu_bare(&cpu).as_secs_f64());
            row.cpu_saved_ms
                .push(per_test_ms(cpu_of_every_layer(&cpu), count) - per_test_ms(*row_cpu, count));
            row.per_test_ms.push(per_test_ms(*time, count));
            row.ratio.push(time.as_secs_f64() / bare.as_secs_f64());
            row.saved_ms
                .push(per_test_ms(every_layer, count) - per_test_ms(*time, count));
        }
        println!(
            "round {}: bare {:.3} ms/test, judge {:.3} ms/test, ratio {:.2}; sandbox, every layer {:.3} ms/test, ratio {:.2}; CPU: bare {:.3}, judge {:.3} ms/test, ratio {:.2}",
            round + 1,
            per_test_ms(bare, count),
            per_test_ms(times[2], count),
            times[2].as_secs_f64() / bare.as_secs_f64(),
            per_test_ms(every_layer, count),
            every_layer.as_secs_f64() / bare.as_secs_f64(),
            per_test_ms(cpu[0], count),
            per_test_ms(cpu[2], count),
            cpu[2].as_secs_f64() / cpu[0].as_secs_f64(),
        );
        best_bare = best_bare.min(bare);
        best_judge = best_judge.min(times[2]);
    }
    println!("load average after: {}", load_average());
    println!();
    println!(
        "per-test cost, {count} a+b tests, 1 job, {rounds} interleaved rounds (medians; ratio against the bare loop of the same round; saved: what switching the layer off saves against `sandbox, every layer`; CPU: user + system time of the bench and every process it reaped, namespace holders included, the sandbox rows with their sandbox's set-up)"
    );
    println!(
        "| {:<72} | {:>8} | {:>6} | {:>6} | {:>9} | {:>7} | {:>9} | {:>9} | {:>6} |",
        "loop",
        "ms/test",
        "ratio",
        "best",
        "saved ms",
        "CPU ms",
        "CPU ratio",
        "CPU saved",
        "runs/s"
    );
    println!(
        "|{:-<74}|{:->10}|{:->8}|{:->8}|{:->11}|{:->9}|{:->11}|{:->11}|{:->8}|",
        "", "", "", "", "", "", "", "", ""
    );
    for (index, row) in rows.iter().enumerate() {
        let (saved, cpu_saved) = if index >= 3 {
            (
                format!("{:.3}", median(&row.saved_ms)),
                format!("{:.3}", median(&row.cpu_saved_ms)),
            )
        } else {
            (String::new(), String::new())
        };
        println!(
            "| {:<72} | {:>8.3} | {:>6.2} | {:>6.2} | {:>9} | {:>7.3} | {:>9.2} | {:>9} | {:>6.0} |",
            row.label,
            median(&row.per_test_ms),
            median(&row.ratio),
            row.ratio.iter().copied().fold(f64::INFINITY, f64::min),
            saved,
            median(&row.cpu_ms),
            median(&row.cpu_ratio),
            cpu_saved,
            runs_per_second(median(&row.per_test_ms)),
        );
    }
    println!();

    // Its own row (issue 18): what a fresh scratch tmpfs and the PID
    // namespace's cleanup add to every run, inside the judge figure above.
    let mut sandbox = Sandbox::new(
        sandbox_workspace.path(),
        hidden_as_run_has_it(&tests_dir, None),
    )
    .unwrap();
    sandbox
        .run(&RunSpec {
            program: "/bin/true".into(),
            read_paths: Vec::new(),
            ..spec.clone()
        })
        .unwrap();
    match sandbox.time_cleanup(count as u32).unwrap() {
        Some(mean) => println!(
            "fresh scratch tmpfs + PID-namespace cleanup per run: {:.3} ms",
            mean.as_secs_f64() * 1000.0
        ),
        None => println!("fresh scratch tmpfs + PID-namespace cleanup per run: no namespace"),
    }
    let isolation = Isolation::detect();
    println!(
        "runner overhead, {count} a+b tests, 1 job, isolation {:?} ({:?}): bare {:.3} ms/test, judge {:.3} ms/test, ratio {:.2} (best rounds), {:.2} (median of rounds)",
        isolation.level,
        isolation,
        per_test_ms(best_bare, count),
        per_test_ms(best_judge, count),
        best_judge.as_secs_f64() / best_bare.as_secs_f64(),
        median(&rows[2].ratio),
    );
    // Issue #31: a figure to set beside go-judge's published runs per
    // second per thread (about 864): tests run and checked per second on
    // one worker, median of the rounds, and per second of CPU time.
    println!(
        "runs per second, 1 job (median of rounds): judge run {:.0} ({:.0} per CPU second), bare loop {:.0} ({:.0} per CPU second)",
        runs_per_second(median(&rows[2].per_test_ms)),
        runs_per_second(median(&rows[2].cpu_ms)),
        runs_per_second(median(&rows[0].per_test_ms)),
        runs_per_second(median(&rows[0].cpu_ms)),
    );
    std::io::stdout().flush().unwrap();
}

/// Runs a second at `per_test_ms` milliseconds a run.
fn runs_per_second(per_test_ms: f64) -> f64 {
    if per_test_ms > 0.0 {
        1000.0 / per_test_ms
    } else {
        0.0
    }
}

/// The sandbox with each per-run layer switched off in turn; the first row
/// has every layer, the last none.
const LAYER_ROWS: [(&str, &[BenchLayer]); 10] = [
    ("sandbox, every layer (Sandbox::run + compare)", &[]),
    (
        "  without the per-run IPC namespace (none where seccomp refuses IPC)",
        &[BenchLayer::IpcNamespace],
    ),
    (
        "  without the sealed memfd copy of stdin",
        &[BenchLayer::StdinCopy],
    ),
    (
        "  without Landlock (restrict_self per run)",
        &[BenchLayer::Landlock],
    ),
    (
        "  without seccomp (filter install per run)",
        &[BenchLayer::Seccomp],
    ),
    (
        "  without cgroups (join, counter resets and reads, emptiness check)",
        &[BenchLayer::Cgroups],
    ),
    (
        "  without the scratch reset (holder's kill + fresh tmpfs)",
        &[BenchLayer::ScratchReset],
    ),
    (
        "  without the PID-namespace entry (root: 2 setns; else 2nd clone)",
        &[BenchLayer::PidNamespaceEntry],
    ),
    (
        "  without worker namespaces (mount + PID entry; a directory per run)",
        &[BenchLayer::WorkerNamespaces],
    ),
    (
        "sandbox, no layer (clone, pipes, close_range, rlimits, user, supervision)",
        &[
            BenchLayer::IpcNamespace,
            BenchLayer::StdinCopy,
            BenchLayer::Landlock,
            BenchLayer::Seccomp,
            BenchLayer::Cgroups,
            BenchLayer::WorkerNamespaces,
        ],
    ),
];

struct Row {
    label: &'static str,
    layers: Option<&'static [BenchLayer]>,
    per_test_ms: Vec<f64>,
    ratio: Vec<f64>,
    saved_ms: Vec<f64>,
    cpu_ms: Vec<f64>,
    cpu_ratio: Vec<f64>,
    cpu_saved_ms: Vec<f64>,
}

impl Row {
    fn new(label: &'static str, layers: Option<&'static [BenchLayer]>) -> Row {
        Row {
            label,
            layers,
            per_test_ms: Vec::new(),
            ratio: Vec::new(),
            saved_ms: Vec::new(),
            cpu_ms: Vec::new(),
            cpu_ratio: Vec::new(),
            cpu_saved_ms: Vec::new(),
        }
    }
}

/// The bare loop's CPU time of a round (the mean of its two runs).
fn cpu_bare(cpu: &[Duration]) -> Duration {
    cpu[0].max(Duration::from_nanos(1))
}

/// The CPU time of `sandbox, every layer` in a round.
fn cpu_of_every_layer(cpu: &[Duration]) -> Duration {
    cpu[3]
}

/// User and system time of this process and of every child it has reaped
/// (a namespace holder is reaped when its sandbox is dropped, with what it
/// reaped itself), so a row's CPU is the difference around it.
#[expect(unsafe_code, reason = "getrusage")]
fn cpu_now() -> Duration {
    let of = |who| {
        // SAFETY: a zeroed rusage is a valid out-parameter.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: `usage` is valid for writes.
        unsafe { libc::getrusage(who, &mut usage) };
        let micros = |time: libc::timeval| {
            Duration::from_secs(time.tv_sec.max(0) as u64)
                + Duration::from_micros(time.tv_usec.max(0) as u64)
        };
        micros(usage.ru_utime) + micros(usage.ru_stime)
    };
    of(libc::RUSAGE_SELF) + of(libc::RUSAGE_CHILDREN)
}

fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    match sorted.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => sorted[n / 2],
        n => (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0,
    }
}

fn load_average() -> String {
    fs_err::read_to_string("/proc/loadavg")
        .map(|text| {
            text.split_whitespace()
                .take(3)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_else(|_| "unknown".to_owned())
}

fn set_mode(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    fs_err::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// What `judge run SUBMISSION --tests DIR` hides: the tests' folder, and
/// the folder the submission was handed in from.
fn hidden_as_run_has_it(tests_dir: &Path, submission: Option<&Path>) -> Arc<Hidden> {
    let mut hidden = Hidden::new();
    hidden.hide(DataFolder::Tests, tests_dir);
    if let Some(folder) = submission.and_then(Path::parent) {
        hidden.hide(DataFolder::HandIn, folder);
    }
    Arc::new(hidden)
}

/// The whole runner, as `judge run` uses it, on every test.
fn judge_loop(
    submission: &Submission,
    tests_dir: &Path,
    count: usize,
    settings: &Settings,
) -> Duration {
    let workspace = Workspace::new().unwrap();
    let tests = runner::load_tests(
        &Sum,
        Some(runner::FixedTests::Folder(tests_dir)),
        &[],
        0,
        1,
        &workspace,
    )
    .unwrap();
    let started = Instant::now();
    let results = runner::run(
        &Sum,
        std::slice::from_ref(submission),
        &tests,
        settings,
        &workspace,
        &hidden_as_run_has_it(tests_dir, Some(&submission.path)),
        &mut |_| {},
    )
    .unwrap();
    let judged = started.elapsed();
    assert_eq!(
        results[0].passed,
        count,
        "{:?}",
        results[0].tests.iter().find(|t| !t.verdict.is_accepted())
    );
    judged
}

/// One worker's sandbox, with `off` switched off, running every test and
/// comparing its output as the bare loop does. The sandbox is made and its
/// namespace entered once before the clock starts, as a worker's are.
fn sandbox_loop(
    workspace: &Workspace,
    spec: &RunSpec,
    tests_dir: &Path,
    count: usize,
    off: &[BenchLayer],
) -> Duration {
    let mut sandbox =
        Sandbox::without_layers(workspace.path(), hidden_as_run_has_it(tests_dir, None), off)
            .unwrap();
    let input = |index: usize| tests_dir.join(format!("{index:04}.in"));
    let mut spec = spec.clone();
    spec.stdin = Some(input(0));
    assert!(sandbox.run(&spec).unwrap().succeeded());
    let started = Instant::now();
    for index in 0..count {
        spec.stdin = Some(input(index));
        let measured = sandbox.run(&spec).unwrap();
        let answer = fs_err::read_to_string(tests_dir.join(format!("{index:04}.ans"))).unwrap();
        assert!(measured.succeeded(), "{off:?}: {measured:?}");
        assert_eq!(
            String::from_utf8_lossy(&measured.stdout).trim(),
            answer.trim()
        );
    }
    started.elapsed()
}

/// Spawn, feed the input file, wait, compare: the least any judge must do.
fn bare_loop(executable: &Path, tests_dir: &Path, count: usize, fork: bool) -> Duration {
    let started = Instant::now();
    for index in 0..count {
        let input = fs_err::File::open(tests_dir.join(format!("{index:04}.in"))).unwrap();
        let answer = fs_err::read_to_string(tests_dir.join(format!("{index:04}.ans"))).unwrap();
        let mut command = Command::new(executable);
        if fork {
            use std::os::unix::process::CommandExt;
            // SAFETY: an empty pre_exec hook; it only makes std fork.
            #[expect(unsafe_code, reason = "the fork contender needs a pre_exec hook")]
            unsafe {
                command.pre_exec(|| Ok(()));
            }
        }
        let output = command
            .stdin(Stdio::from(input.into_parts().0))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        assert!(output.status.success());
        assert_eq!(
            String::from_utf8_lossy(&output.stdout).trim(),
            answer.trim()
        );
    }
    started.elapsed()
}

fn per_test_ms(duration: Duration, count: usize) -> f64 {
    duration.as_secs_f64() * 1000.0 / count as f64
}
