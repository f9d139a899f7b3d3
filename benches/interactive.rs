//! The judge's cost of an interactive exchange (issue #15): 1,000 rounds,
//! a line each way per round, between a C validator speaking the Kattis
//! protocol and a C submission, run (a) as a bare pipe pair (both spawned
//! with their pipes joined directly, no sandbox, no relay) and (b) through
//! the judge (each program in its own sandbox, the supervisor relaying
//! between them and keeping the transcript), measured in the same run.
//! Target: (b) - (a) at most 20 ms.
//!
//! Run: `cargo bench --bench interactive`. Criterion times both; the
//! difference of the medians is printed at the end as the judge's overhead.

#![expect(
    clippy::unwrap_used,
    clippy::print_stdout,
    reason = "a benchmark binary"
)]

use criterion::{criterion_group, criterion_main, Criterion};
use judge::interaction::InteractorSpec;
use judge::runner::interactive::{run_test, SubmissionProgram};
use judge::runner::{TestInput, TestResult};
use judge::sandbox::{Limits, Sandbox, SandboxPool};
use judge::verdict::Verdict;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const ROUNDS: u32 = 1000;

const VALIDATOR: &str = r#"
#include <stdio.h>
int main(int argc, char **argv) {
    (void)argc; (void)argv;
    for (int i = 0; i < 1000; ++i) {
        printf("%d\n", i);
        fflush(stdout);
        int back;
        if (scanf("%d", &back) != 1 || back != i + 1) return 43;
    }
    return 42;
}
"#;

const SUBMISSION: &str = r#"
#include <stdio.h>
int main(void) {
    int value;
    while (scanf("%d", &value) == 1) {
        printf("%d\n", value + 1);
        fflush(stdout);
    }
    return 0;
}
"#;

fn compile(dir: &Path, name: &str, source: &str) -> PathBuf {
    let source_path = dir.join(format!("{name}.c"));
    fs_err::write(&source_path, source).unwrap();
    let binary = dir.join(name);
    let status = Command::new("cc")
        .args(["-O2", "-o"])
        .arg(&binary)
        .arg(&source_path)
        .status()
        .unwrap();
    assert!(status.success(), "cc failed");
    binary
}

/// The two programs joined by plain pipes, as a shell would.
fn bare(validator: &Path, submission: &Path, dir: &Path) -> Duration {
    let started = Instant::now();
    let mut validator = Command::new(validator)
        .args(["input", "answer", "feedback/"])
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let to_submission = validator.stdout.take().unwrap();
    let mut submission = Command::new(submission)
        .stdin(Stdio::from(to_submission))
        .stdout(validator.stdin.take().map(Stdio::from).unwrap())
        .spawn()
        .unwrap();
    let code = validator.wait().unwrap().code();
    submission.wait().unwrap();
    assert_eq!(code, Some(42));
    started.elapsed()
}

fn limits(cpu_time_ms: u64) -> Limits {
    Limits {
        cpu_time_ms,
        wall_time_ms: cpu_time_ms * 3,
        memory_kib: 256 * 1024,
        stdout_bytes: 1 << 20,
        stderr_bytes: 1 << 12,
        processes: 8,
        open_files: 64,
        file_size_kib: 1024,
        scratch_kib: 4096,
    }
}

fn judged(
    sandbox: &mut Sandbox,
    spec: &InteractorSpec,
    submission: &Path,
    input: &TestInput,
) -> Duration {
    let limits = limits(5000);
    let program = SubmissionProgram {
        program: submission,
        args: &[],
        read_paths: &[submission.parent().unwrap().to_path_buf()],
        limits: &limits,
    };
    let mut result = TestResult {
        name: "bench".to_owned(),
        verdict: Verdict::JudgeError,
        time_ms: 0,
        wall_ms: 0,
        memory_kib: 0,
        exit_code: None,
        signal: None,
        message: String::new(),
        random: None,
        excerpt: None,
        rerun: false,
        cpu_wait_ms: None,
        stderr: None,
        validator_score: None,
    };
    let started = Instant::now();
    run_test(sandbox, spec, &program, input, Some(""), &mut result);
    let elapsed = started.elapsed();
    assert_eq!(result.verdict, Verdict::Accepted, "{}", result.message);
    elapsed
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn exchange(c: &mut Criterion) {
    let root = tempfile::tempdir().unwrap();
    fs_err::set_permissions(root.path(), std::fs::Permissions::from_mode(0o711)).unwrap();
    let programs = root.path().join("programs");
    fs_err::create_dir(&programs).unwrap();
    fs_err::set_permissions(&programs, std::fs::Permissions::from_mode(0o755)).unwrap();
    let validator = compile(&programs, "validator", VALIDATOR);
    let submission = compile(&programs, "submission", SUBMISSION);
    let bare_dir = root.path().join("bare");
    fs_err::create_dir(&bare_dir).unwrap();
    let input_path = root.path().join("test.in");
    fs_err::write(&input_path, "1000\n").unwrap();
    let input = TestInput {
        path: input_path,
        text: "1000\n".to_owned(),
    };
    let spec = InteractorSpec {
        label: "output validator `validator.c`".to_owned(),
        program: validator.clone(),
        args: Vec::new(),
        read_paths: vec![programs.clone()],
        own_paths: Vec::new(),
        limits: limits(5000),
        flags: Vec::new(),
        interactive: true,
        passes: 1,
        workspace: root.path().to_path_buf(),
        protocol: judge::interaction::InteractorProtocol::Kattis,
        sandboxes: SandboxPool::new(root.path(), std::sync::Arc::default()),
    };
    let mut sandbox = Sandbox::new(root.path(), std::sync::Arc::default()).unwrap();
    let mut group = c.benchmark_group(format!("interactive {ROUNDS} rounds"));
    group.sample_size(20);
    let mut bare_times = Vec::new();
    let mut judge_times = Vec::new();
    group.bench_function("bare pipe pair", |b| {
        b.iter(|| bare_times.push(bare(&validator, &submission, &bare_dir)))
    });
    group.bench_function("judge", |b| {
        b.iter(|| judge_times.push(judged(&mut sandbox, &spec, &submission, &input)))
    });
    group.finish();
    let (bare_median, judge_median) = (median(bare_times), median(judge_times));
    println!(
        "{ROUNDS} rounds: bare pipe pair {:.2} ms, judge {:.2} ms: the judge adds {:.2} ms \
         (target at most 20 ms); isolation {:?}",
        bare_median.as_secs_f64() * 1e3,
        judge_median.as_secs_f64() * 1e3,
        (judge_median.saturating_sub(bare_median)).as_secs_f64() * 1e3,
        judge::sandbox::Isolation::detect().level,
    );
}

criterion_group!(benches, exchange);
criterion_main!(benches);
