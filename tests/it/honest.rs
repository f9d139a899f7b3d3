//! The honest-program matrix (issue 32): programs that use threads, thread
//! pools, `std::async`, OpenMP, Python's `multiprocessing` (its `Manager` and
//! `forkserver` start method too, which need unix sockets) and the JVM must
//! get the verdict they earn, through the binary, as root (cgroups on this
//! host) and as an ordinary user the test creates (no cgroups: only
//! per-process limits), at one and two jobs; without cgroups a memory hog is
//! MLE, and a trivial program's memory is its own, not the judge's. A
//! compiler missing from the user's PATH is that language's JE.
//!
//! A toolchain missing on the machine fails these tests with a message
//! naming it: they never skip.

use crate::support::require_root;
use crate::support::{judge_in, judge_in_env, open_dir, ordinary_user, source};
use std::path::Path;
use std::process::Command;

/// Why these tests need root.
const CREATES_A_USER: &str = "it creates a user and runs the judge as it, and as root";

/// The honest programs, each with the language the judge gives it.
const PROGRAMS: &[&str] = &[
    "thread.cpp",
    "async.cpp",
    "pool.cpp",
    "search.omp",
    "pool.py",
    "process.py",
    "manager.py",
    "forkserver.py",
    "Main.java",
    "trivial.c",
];

/// Fails, naming what is missing, unless every toolchain the matrix runs
/// is here: g++ with OpenMP (libgomp), python3 with `multiprocessing`,
/// javac and java.
fn require_toolchains() {
    let dir = tempfile::tempdir().unwrap();
    let omp = dir.path().join("omp.cpp");
    fs_err::write(
        &omp,
        "#include <omp.h>\nint main() { return omp_get_max_threads() > 0 ? 0 : 1; }\n",
    )
    .unwrap();
    let checks: [(&str, &[&str], &str); 4] = [
        (
            "g++",
            &["-fopenmp", "-o", "/dev/null", omp.to_str().unwrap()],
            "g++ with OpenMP (libgomp; Debian: the gcc/g++ packages)",
        ),
        (
            "python3",
            &["-c", "import multiprocessing.synchronize"],
            "python3 with multiprocessing",
        ),
        ("javac", &["-version"], "javac (a JDK)"),
        ("java", &["-version"], "java (a JDK)"),
    ];
    for (program, args, what) in checks {
        let ran = Command::new(program).args(args).output();
        assert!(
            ran.as_ref().is_ok_and(|output| output.status.success()),
            "the honest-program matrix needs {what}, which is missing here: `{program} {}` \
             gave {ran:?}",
            args.join(" ")
        );
    }
}

/// A folder anyone may enter with the programs, the OpenMP language's
/// judge.toml and two copies of the rooks sample (two tests: the second
/// runs on a worker after a first, so what a run's reset leaves matters).
fn matrix_dir() -> tempfile::TempDir {
    let dir = open_dir();
    let fixtures = crate::support::repository().join("tests/fixtures/honest");
    for entry in fs_err::read_dir(&fixtures).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name();
        let text = fs_err::read_to_string(entry.path()).unwrap();
        source(dir.path(), name.to_str().unwrap(), &text);
    }
    let tests = dir.path().join("tests");
    fs_err::create_dir(&tests).unwrap();
    let sample = crate::support::repository().join("problems/rooks/tests");
    for copy in ["one", "two"] {
        for ext in ["in", "ans"] {
            let text = fs_err::read_to_string(sample.join(format!("sample-1.{ext}"))).unwrap();
            source(&tests, &format!("{copy}.{ext}"), &text);
        }
    }
    use std::os::unix::fs::PermissionsExt;
    fs_err::set_permissions(&tests, std::fs::Permissions::from_mode(0o755)).unwrap();
    dir
}

/// Each result of a report as (submission file name, verdict, memory of
/// each test in KiB).
fn results(report: &serde_json::Value) -> Vec<(String, String, Vec<u64>)> {
    report["results"]
        .as_array()
        .unwrap_or_else(|| panic!("{report:#}"))
        .iter()
        .map(|result| {
            let name = result["submission"].as_str().unwrap_or("?");
            let name = Path::new(name).file_name().unwrap().to_string_lossy();
            let memory = result["tests"]
                .as_array()
                .map(|tests| {
                    tests
                        .iter()
                        .map(|test| test["memory_kib"].as_u64().unwrap_or(0))
                        .collect()
                })
                .unwrap_or_default();
            (
                name.into_owned(),
                result["verdict"].as_str().unwrap_or("?").to_owned(),
                memory,
            )
        })
        .collect()
}

/// Every honest program is AC, at `jobs` jobs, as `user` (or root).
fn every_honest_program_is_accepted(user: Option<(u32, u32)>, jobs: u32) {
    require_toolchains();
    let dir = matrix_dir();
    let judge = assert_cmd::cargo::cargo_bin!("judge");
    let (code, report, stderr) = judge_in(
        dir.path(),
        judge,
        user,
        &format!(
            "run rooks {} --tests tests --random 0 --jobs {jobs}",
            PROGRAMS.join(" ")
        ),
        "",
    );
    let results = results(&report);
    let wrong: Vec<_> = results
        .iter()
        .filter(|(_, verdict, _)| verdict != "AC")
        .collect();
    assert!(
        wrong.is_empty() && results.len() == PROGRAMS.len(),
        "as {user:?} at --jobs {jobs}, not every honest program is AC: {wrong:?}\n{stderr}"
    );
    assert_eq!(code, Some(0), "{stderr}");
    // Without a memory cgroup the memory is the program's own resident
    // set, not the judge's (16-23 MiB, inherited through the clone that
    // shares the judge's memory), and never 0 for a run too short to be
    // sampled (issue 32: it read 0 KiB): a C program maps at least libc.
    if user.is_some() {
        let (_, _, memory) = results
            .iter()
            .find(|(name, _, _)| name == "trivial.c")
            .unwrap();
        assert!(
            memory.iter().all(|&kib| (64..8 * 1024).contains(&kib)),
            "a trivial C program used {memory:?} KiB\n{stderr}"
        );
    }
}

#[test]
#[ignore = "needs root (it creates a user, or runs as root what it checks); CI runs it as root: `cargo test --test it -- --ignored`"]
fn honest_programs_are_accepted_as_root_at_one_job() {
    require_root(CREATES_A_USER);
    every_honest_program_is_accepted(None, 1);
}

#[test]
#[ignore = "needs root (it creates a user, or runs as root what it checks); CI runs it as root: `cargo test --test it -- --ignored`"]
fn honest_programs_are_accepted_as_root_at_two_jobs() {
    require_root(CREATES_A_USER);
    every_honest_program_is_accepted(None, 2);
}

#[test]
#[ignore = "needs root (it creates a user, or runs as root what it checks); CI runs it as root: `cargo test --test it -- --ignored`"]
fn honest_programs_are_accepted_as_an_ordinary_user_without_cgroups_at_one_job() {
    require_root(CREATES_A_USER);
    every_honest_program_is_accepted(Some(ordinary_user()), 1);
}

#[test]
#[ignore = "needs root (it creates a user, or runs as root what it checks); CI runs it as root: `cargo test --test it -- --ignored`"]
fn honest_programs_are_accepted_as_an_ordinary_user_without_cgroups_at_two_jobs() {
    require_root(CREATES_A_USER);
    every_honest_program_is_accepted(Some(ordinary_user()), 2);
}

/// A vector doubling until its allocation fails, without cgroups: MLE (it
/// was RE, std::bad_alloc at three quarters of the limit, when the
/// address-space limit was the memory limit).
#[test]
#[ignore = "needs root (it creates a user, or runs as root what it checks); CI runs it as root: `cargo test --test it -- --ignored`"]
fn a_memory_hog_without_cgroups_is_mle_not_re() {
    require_root(CREATES_A_USER);
    let dir = matrix_dir();
    let judge = assert_cmd::cargo::cargo_bin!("judge");
    let (_, report, stderr) = judge_in(
        dir.path(),
        judge,
        Some(ordinary_user()),
        "run rooks hog.cpp --tests tests --random 0 --memory-limit 64",
        "",
    );
    let results = results(&report);
    assert_eq!(results.len(), 1, "{report:#}");
    let (_, verdict, memory) = &results[0];
    assert_eq!(verdict, "MLE", "{report:#}\n{stderr}");
    assert!(
        memory.iter().all(|&kib| kib >= 60 * 1024),
        "an MLE shows the memory it reached: {memory:?}"
    );
}

/// rustc under root's rustup is not on an ordinary user's PATH (root's
/// home is closed): the Rust hand-in is JE naming `rustc` and why (not in
/// PATH, or in a folder the user may not read), the C one beside it is
/// still graded, and the exit is 1, not the judge failing's 3 (issue 32).
#[test]
#[ignore = "needs root (it creates a user, or runs as root what it checks); CI runs it as root: `cargo test --test it -- --ignored`"]
fn a_compiler_missing_from_the_users_path_is_that_languages_je() {
    require_root(CREATES_A_USER);
    let dir = matrix_dir();
    // Where the user's shell finds gcc, never rustup's proxies.
    let path = "/usr/bin:/bin";
    assert!(
        !Path::new("/usr/bin/rustc").exists() && !Path::new("/bin/rustc").exists(),
        "this test needs rustc installed only under root's rustup, not in /usr/bin"
    );
    source(
        dir.path(),
        "hello.rs",
        "fn main() { println!(\"5\\n1\\n5\\n2\\n4\"); }\n",
    );
    let judge = assert_cmd::cargo::cargo_bin!("judge");
    let (code, report, stderr) = judge_in_env(
        dir.path(),
        judge,
        Some(ordinary_user()),
        "run rooks hello.rs trivial.c --tests tests --random 0",
        "",
        &[("PATH", path)],
    );
    let rows: Vec<(String, String)> = results(&report)
        .into_iter()
        .map(|(name, verdict, _)| (name, verdict))
        .collect();
    assert_eq!(
        rows,
        [
            ("hello.rs".to_owned(), "JE".to_owned()),
            ("trivial.c".to_owned(), "AC".to_owned())
        ],
        "{stderr}"
    );
    let message = report["results"][0]["compile"]["message"]
        .as_str()
        .unwrap_or_default();
    assert!(
        message
            .contains("language `rust`: the compiler `rustc` is not installed (not found in PATH)"),
        "{report:#}"
    );
    assert_eq!(report["results"][0]["compile"]["toolchain_missing"], true);
    // That language's JE, not the judge failing: the class's exit is 1
    // (not every verdict AC), never 3 (issue 32).
    assert_eq!(code, Some(1), "{stderr}");

    // rustup's folder in the user's PATH, unreadable to the user: the
    // reason says so, not "not found".
    let (code, report, stderr) = judge_in_env(
        dir.path(),
        judge,
        Some(ordinary_user()),
        "run rooks hello.rs trivial.c --tests tests --random 0",
        "",
        &[("PATH", "/root/.cargo/bin:/usr/bin:/bin")],
    );
    let message = report["results"][0]["compile"]["message"]
        .as_str()
        .unwrap_or_default();
    assert!(
        message.contains(
            "the compiler `rustc` is not installed (`/root/.cargo/bin` is in PATH, but this \
             user may not read it"
        ),
        "{report:#}"
    );
    assert_eq!(code, Some(1), "{stderr}");
}

/// What one run leaves in its `/dev/shm` is gone for the next on the same
/// worker: a named semaphore and a file.
fn shm_keeps_nothing_from_the_run_before(user: Option<(u32, u32)>) {
    let dir = matrix_dir();
    source(
        dir.path(),
        "shm_courier.c",
        r#"#include <fcntl.h>
#include <semaphore.h>
#include <stdio.h>
#include <unistd.h>
int main(void) {
    if (access("/dev/shm/left", F_OK) == 0) { printf("a file was left\n"); return 0; }
    if (sem_open("/left", 0) != SEM_FAILED) { printf("a semaphore was left\n"); return 0; }
    int fd = open("/dev/shm/left", O_WRONLY | O_CREAT, 0644);
    if (fd < 0 || write(fd, "5", 1) != 1) { perror("/dev/shm"); return 3; }
    if (sem_open("/left", O_CREAT, 0644, 1) == SEM_FAILED) { perror("sem_open"); return 4; }
    printf("5\n1\n5\n2\n4\n");
    return 0;
}
"#,
    );
    let judge = assert_cmd::cargo::cargo_bin!("judge");
    let (_, report, stderr) = judge_in(
        dir.path(),
        judge,
        user,
        "run rooks shm_courier.c --tests tests --random 0 --jobs 1",
        "",
    );
    assert_eq!(
        crate::support::test_verdicts(&report),
        ["AC", "AC"],
        "{report:#}\n{stderr}"
    );
}

#[test]
#[ignore = "needs root (it creates a user, or runs as root what it checks); CI runs it as root: `cargo test --test it -- --ignored`"]
fn a_runs_shm_keeps_nothing_from_the_run_before_as_root() {
    require_root(CREATES_A_USER);
    shm_keeps_nothing_from_the_run_before(None);
}

#[test]
#[ignore = "needs root (it creates a user, or runs as root what it checks); CI runs it as root: `cargo test --test it -- --ignored`"]
fn a_runs_shm_keeps_nothing_from_the_run_before_as_an_ordinary_user() {
    require_root(CREATES_A_USER);
    shm_keeps_nothing_from_the_run_before(Some(ordinary_user()));
}

/// What a run holds where no per-process figure shows it, and shared
/// pages, at `jobs` jobs as `user` (or root): memory files written and
/// never mapped, a file in the scratch tmpfs, an orphan's memory and CPU
/// time (a double fork reparents it out of the program's tree) count
/// toward the run's limits; a table a `multiprocessing` pool shares
/// copy-on-write counts once. Each was the other verdict as an ordinary
/// user without cgroups (issue 32). Without a memory cgroup there are no
/// memory files to hold any more: `memfd_create` fails (issue 35).
fn hidden_use_gets_the_verdict_it_earns(user: Option<(u32, u32)>, jobs: u32) {
    require_toolchains();
    let dir = matrix_dir();
    // A wall clock far past the CPU limit, so the orphan's CPU time, not
    // the wall clock, ends it however busy the machine is.
    let config = dir.path().join("judge.toml");
    let mut text = fs_err::read_to_string(&config).unwrap();
    text.push_str("\n[limits]\nwall-time-factor = 20.0\n");
    source(dir.path(), "judge.toml", &text);
    let judge = assert_cmd::cargo::cargo_bin!("judge");
    let programs = "memfd_hog.c orphan_hog.c orphan_spin.c shared_table.py";
    let (_, report, stderr) = judge_in(
        dir.path(),
        judge,
        user,
        &format!("run rooks {programs} --tests tests --random 0 --jobs {jobs}"),
        "",
    );
    let verdicts: Vec<(String, String)> = results(&report)
        .into_iter()
        .map(|(name, verdict, _)| (name, verdict))
        .collect();
    // Without a memory cgroup the filter refuses `memfd_create` (ENOSYS:
    // pages left in flight would outlive the run), so the hog fails at its
    // first file, exit 3 (issue 35).
    let memfd_hog = match report["isolation"]["memory"].as_str() {
        Some("cgroup") => "MLE",
        _ => "RE",
    };
    let expected = [
        ("memfd_hog.c", memfd_hog),
        ("orphan_hog.c", "MLE"),
        ("orphan_spin.c", "TLE"),
        ("shared_table.py", "AC"),
    ]
    .map(|(name, verdict)| (name.to_owned(), verdict.to_owned()));
    assert_eq!(verdicts, expected, "as {user:?} at --jobs {jobs}\n{stderr}");
    // The orphan's CPU time is the run's: TLE by the CPU limit, not by
    // the wall clock with the program's own 1 ms.
    let spin = &report["results"][2]["tests"];
    let times: Vec<u64> = (spin.as_array().unwrap().iter())
        .map(|test| test["time_ms"].as_u64().unwrap_or(0))
        .collect();
    assert!(
        times.iter().all(|&ms| ms >= 1000),
        "the orphan's CPU time is not counted: {times:?}\n{report:#}"
    );
    // 40 MiB in the scratch tmpfs and 40 MiB of its own under 64 MiB.
    let (_, report, stderr) = judge_in(
        dir.path(),
        judge,
        user,
        &format!("run rooks tmpfs_hog.c --tests tests --random 0 --jobs {jobs} --memory-limit 64"),
        "",
    );
    assert_eq!(
        crate::support::test_verdicts(&report),
        ["MLE", "MLE"],
        "as {user:?} at --jobs {jobs}\n{report:#}\n{stderr}"
    );
}

#[test]
#[ignore = "needs root (it creates a user, or runs as root what it checks); CI runs it as root: `cargo test --test it -- --ignored`"]
fn hidden_use_gets_its_verdict_as_root_at_one_job() {
    require_root(CREATES_A_USER);
    hidden_use_gets_the_verdict_it_earns(None, 1);
}

#[test]
#[ignore = "needs root (it creates a user, or runs as root what it checks); CI runs it as root: `cargo test --test it -- --ignored`"]
fn hidden_use_gets_its_verdict_as_root_at_two_jobs() {
    require_root(CREATES_A_USER);
    hidden_use_gets_the_verdict_it_earns(None, 2);
}

#[test]
#[ignore = "needs root (it creates a user, or runs as root what it checks); CI runs it as root: `cargo test --test it -- --ignored`"]
fn hidden_use_gets_its_verdict_as_an_ordinary_user_at_one_job() {
    require_root(CREATES_A_USER);
    hidden_use_gets_the_verdict_it_earns(Some(ordinary_user()), 1);
}

#[test]
#[ignore = "needs root (it creates a user, or runs as root what it checks); CI runs it as root: `cargo test --test it -- --ignored`"]
fn hidden_use_gets_its_verdict_as_an_ordinary_user_at_two_jobs() {
    require_root(CREATES_A_USER);
    hidden_use_gets_the_verdict_it_earns(Some(ordinary_user()), 2);
}
