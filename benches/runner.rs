//! The judge's per-test overhead against a bare spawn-wait-compare loop, on
//! the same 500 a+b tests with the same compiled program, measured in the
//! same invocation and reported as a ratio (issue #3: aim within 1.5x with
//! isolation on).
//!
//! Run: `cargo bench --bench runner` (set `JUDGE_BENCH_TESTS` to change the
//! number of tests, `JUDGE_BENCH_ROUNDS` the rounds; the best round counts).
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
use judge::sandbox::{Isolation, RunSpec, Sandbox, Trust};
use rand_chacha::ChaCha8Rng;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
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
    let submission = Submission {
        path: executable.clone(),
        kind: SubmissionKind::Executable,
    };

    let mut best_bare = Duration::MAX;
    let mut best_judge = Duration::MAX;
    for round in 0..rounds {
        let bare = bare_loop(&executable, &tests_dir, count, false);
        let forked = bare_loop(&executable, &tests_dir, count, true);
        println!(
            "round {}: bare loop with fork instead of posix_spawn {:.3} ms/test",
            round + 1,
            per_test_ms(forked, count)
        );
        let workspace = Workspace::new().unwrap();
        let tests = runner::load_tests(
            &Sum,
            Some(runner::FixedTests::Folder(&tests_dir)),
            &[],
            0,
            1,
            &workspace,
        )
        .unwrap();
        let started = Instant::now();
        let results = runner::run(
            &Sum,
            std::slice::from_ref(&submission),
            &tests,
            &settings,
            &workspace,
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
        println!(
            "round {}: bare {:.3} ms/test, judge {:.3} ms/test, ratio {:.2}",
            round + 1,
            per_test_ms(bare, count),
            per_test_ms(judged, count),
            judged.as_secs_f64() / bare.as_secs_f64()
        );
        best_bare = best_bare.min(bare);
        best_judge = best_judge.min(judged);
    }
    // Its own row (issue 18): what a fresh scratch tmpfs and the PID
    // namespace's cleanup add to every run, inside the judge figure above.
    let workspace = Workspace::new().unwrap();
    let mut sandbox = Sandbox::new(workspace.path()).unwrap();
    sandbox
        .run(&RunSpec {
            program: "/bin/true".into(),
            args: Vec::new(),
            stdin: None,
            workdir: None,
            env: Vec::new(),
            read_paths: Vec::new(),
            limits: settings.limits,
            trust: Trust::Submission,
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
        "runner overhead, {count} a+b tests, 1 job, isolation {:?} ({:?}): bare {:.3} ms/test, judge {:.3} ms/test, ratio {:.2}",
        isolation.level,
        isolation,
        per_test_ms(best_bare, count),
        per_test_ms(best_judge, count),
        best_judge.as_secs_f64() / best_bare.as_secs_f64()
    );
    std::io::stdout().flush().unwrap();
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
