//! The judge's data out of a run's reach (the folders the sandbox masks),
//! and what one worker's runs could learn of another's: what was left of
//! issue 18 after the third round, each as the attack: other students'
//! hand-ins reachable by file mode (in the class folder and
//! the judge's workspace, with Landlock switched off where the bench's knob
//! allows it), the targets of symbolic links in a tests folder, a per-uid
//! counter (`SigQ`) shared between workers, and host-wide counters in
//! `/proc`. They need root (they write under `/usr`, create a user, or run
//! as another uid), so they are `#[ignore]`d and CI, which runs as root,
//! runs them with `cargo test --test it -- --ignored`; run otherwise they
//! fail, saying so.

use crate::host_out_of_reach::{assert_probe_accepted, UnderUsr, UNDER_USR};
use crate::run::{grade, settings, Tests};
use crate::support::require_root;
use crate::support::{judge_in, open_dir, ordinary_user, source};
use judge::verdict::Verdict;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

fn mode(path: &Path, mode: u32) {
    fs_err::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// Every `exit_code` in a report, anywhere in it.
fn exit_codes(value: &serde_json::Value, found: &mut Vec<i64>) {
    match value {
        serde_json::Value::Object(map) => {
            for (key, value) in map {
                if key == "exit_code" {
                    if let Some(code) = value.as_i64() {
                        found.push(code);
                    }
                }
                exit_codes(value, found);
            }
        }
        serde_json::Value::Array(values) => {
            for value in values {
                exit_codes(value, found);
            }
        }
        _ => {}
    }
}

/// Every test verdict in a report (any command's), anywhere in it.
fn all_test_verdicts(value: &serde_json::Value, found: &mut Vec<String>) {
    match value {
        serde_json::Value::Object(map) => {
            if let Some(tests) = map.get("tests").and_then(serde_json::Value::as_array) {
                found.extend(
                    tests
                        .iter()
                        .filter_map(|test| test["verdict"].as_str().map(str::to_owned)),
                );
            }
            for value in map.values() {
                all_test_verdicts(value, found);
            }
        }
        serde_json::Value::Array(values) => {
            for value in values {
                all_test_verdicts(value, found);
            }
        }
        _ => {}
    }
}

// 1. Other students' hand-ins by file mode.

/// A class folder under `/usr/local/share` (which Landlock lets every run
/// read) holding alice's hand-in (`rooks/alice.c`), 0644 in 0755 folders.
fn class_with_alice(class: &Path) -> PathBuf {
    let problem = class.join("rooks");
    fs_err::create_dir_all(&problem).unwrap();
    for folder in [class, &problem] {
        mode(folder, 0o755);
    }
    let hand_in = problem.join("alice.c");
    fs_err::write(
        &hand_in,
        "/* ALICE-SECRET */\n#include <stdio.h>\nint main(void) { printf(\"0\\n\"); return 0; }\n",
    )
    .unwrap();
    mode(&hand_in, 0o644);
    hand_in
}

/// As root, with Landlock switched off (the runner bench's knob: a host
/// without Landlock), a run's own uid may read by file mode whatever is
/// 0644 in 0755 folders: another student's copy in the judge's workspace,
/// the class folder. Neither may be in the run's mount namespace at all.
#[test]
#[ignore = "needs root: it writes under /usr and runs as the sandbox user; CI runs it as root with --ignored"]
fn without_landlock_a_run_reads_no_other_submission() {
    require_root(UNDER_USR);
    let workspace = judge::runner::Workspace::new().unwrap();
    let other = workspace.path().join("submission-1");
    let mine = workspace.path().join("submission-2");
    for folder in [&other, &mine] {
        fs_err::create_dir(folder).unwrap();
        mode(folder, 0o755);
    }
    let copy = other.join("rooks.c");
    fs_err::write(&copy, "/* ALICE-SECRET in the workspace */\n").unwrap();
    mode(&copy, 0o644);
    let class = UnderUsr::new("class-nolandlock");
    let hand_in = class_with_alice(&class.path);
    let mut hidden = judge::sandbox::Hidden::new();
    hidden.hide(judge::sandbox::DataFolder::Submissions, &class.path);
    let mut sandbox = judge::sandbox::Sandbox::without_layers(
        workspace.path(),
        std::sync::Arc::new(hidden),
        &[judge::sandbox::BenchLayer::Landlock],
    )
    .unwrap();
    let script = format!(
        "for f in '{copy}' '{hand_in}' /tmp/judge-*/submission-*/*.c; do cat \"$f\" 2>/dev/null; done; \
         ls -a '{workspace}' '{class}' 2>&1; echo done",
        copy = copy.display(),
        hand_in = hand_in.display(),
        workspace = workspace.path().display(),
        class = class.path.display(),
    );
    let measured = sandbox.run(&shell(script, vec![mine.clone()])).unwrap();
    let seen = String::from_utf8_lossy(&measured.stdout).into_owned();
    assert!(seen.contains("done"), "the script did not run: {seen}");
    assert!(
        !seen.contains("ALICE-SECRET"),
        "a run read another student's hand-in:\n{seen}"
    );
    assert!(
        !seen.contains("submission-1") && !seen.contains("inputs") && !seen.contains("rooks"),
        "a run listed other hand-ins:\n{seen}"
    );
}

/// A submission's run of `sh -c script` that may read `read_paths` too.
fn shell(script: String, read_paths: Vec<PathBuf>) -> judge::sandbox::RunSpec {
    judge::sandbox::RunSpec {
        program: PathBuf::from("/bin/sh"),
        args: vec!["-c".into(), script.into()],
        stdin: None,
        workdir: None,
        env: Vec::new(),
        read_paths,
        limits: judge::sandbox::Limits {
            cpu_time_ms: 2000,
            wall_time_ms: 20_000,
            memory_kib: 128 * 1024,
            stdout_bytes: 64 * 1024,
            stderr_bytes: 64 * 1024,
            processes: 16,
            open_files: 64,
            file_size_kib: 1024,
            scratch_kib: 4096,
        },
        trust: judge::sandbox::Trust::Submission,
    }
}

/// The seam a second backend takes (issue #33): a sandbox given a
/// `Hidden` masks the folders in it; one given nothing masks no folder
/// nobody added, so the given value is what hid it (there is no table of
/// the process to hide it instead).
#[test]
#[ignore = "needs root: it writes under /usr; CI runs it as root with --ignored"]
fn a_sandbox_hides_the_data_folders_it_is_given() {
    require_root(UNDER_USR);
    fs_err::create_dir_all("/usr/local/share").unwrap();
    let data = UnderUsr::new("given-hiding");
    fs_err::create_dir(&data.path).unwrap();
    mode(&data.path, 0o755);
    let answer = data.path.join("1.ans");
    fs_err::write(&answer, "GIVEN-SECRET\n").unwrap();
    mode(&answer, 0o644);
    let workspace = judge::runner::Workspace::new().unwrap();
    let read = |hidden: judge::sandbox::Hidden| {
        let mut sandbox =
            judge::sandbox::Sandbox::new(workspace.path(), std::sync::Arc::new(hidden)).unwrap();
        let script = format!("cat '{}' 2>&1; echo done", answer.display());
        let measured = sandbox.run(&shell(script, Vec::new())).unwrap();
        String::from_utf8_lossy(&measured.stdout).into_owned()
    };
    let mut given = judge::sandbox::Hidden::new();
    given.hide(judge::sandbox::DataFolder::Tests, &data.path);
    let hidden = read(given);
    assert!(hidden.contains("done"), "the script did not run: {hidden}");
    assert!(
        !hidden.contains("GIVEN-SECRET"),
        "a run read a folder its sandbox was given to hide:\n{hidden}"
    );
    let shown = read(judge::sandbox::Hidden::new());
    assert!(
        shown.contains("GIVEN-SECRET"),
        "a sandbox given nothing hid a folder nobody added, so the test shows nothing:\n{shown}"
    );
}

/// `judge grade` of a class folder under `/usr/local/share`: bob's program
/// looks for alice's hand-in by its path in the class folder and for any
/// copy in the judge's workspace, and exits 42 when it finds her marker.
fn class_folder_is_out_of_reach(user: Option<(u32, u32)>, name: &str) {
    let class = UnderUsr::new(name);
    class_with_alice(&class.path);
    let dir = open_dir();
    source(
        &class.path.join("rooks"),
        "bob.c",
        &format!(
            r#"#include <glob.h>
#include <stdio.h>
#include <string.h>
static int has_marker(const char *path) {{
    char marker[32], text[4096];
    strcpy(marker, "ALICE");
    strcat(marker, "-SECRET");
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;
    return strstr(text, marker) != NULL;
}}
int main(void) {{
    if (has_marker("{class}/rooks/alice.c")) return 42;
    const char *patterns[] = {{ "{dir}/judge-*/submission-*/*", "/tmp/judge-*/submission-*/*",
                                "{class}/*/*.c" }};
    for (int p = 0; p < 3; p++) {{
        glob_t found;
        if (glob(patterns[p], 0, NULL, &found) != 0) continue;
        for (size_t i = 0; i < found.gl_pathc; i++)
            if (has_marker(found.gl_pathv[i])) return 43;
        globfree(&found);
    }}
    printf("0\n");
    return 0;
}}
"#,
            class = class.path.display(),
            dir = dir.path().display(),
        ),
    );
    if let Some((uid, gid)) = user {
        std::os::unix::fs::chown(dir.path(), Some(uid), Some(gid)).unwrap();
    }
    fs_err::write(
        dir.path().join("judge.toml"),
        format!("submissions = \"{}\"\n", class.path.display()),
    )
    .unwrap();
    let (_, report, stderr) = judge_in(
        dir.path(),
        assert_cmd::cargo::cargo_bin!("judge"),
        user,
        "grade --jobs 2",
        "",
    );
    let mut verdicts = Vec::new();
    all_test_verdicts(&report, &mut verdicts);
    assert!(verdicts.len() >= 2, "nothing ran: {report:#}\n{stderr}");
    let mut codes = Vec::new();
    exit_codes(&report, &mut codes);
    assert!(
        !codes.contains(&42) && !codes.contains(&43),
        "bob read alice's hand-in (42: in the class folder, 43: a copy): {codes:?}\n{stderr}"
    );
}

#[test]
#[ignore = "needs root: it writes a class folder under /usr; CI runs it as root with --ignored"]
fn a_class_folder_is_out_of_a_runs_reach_as_root() {
    require_root(UNDER_USR);
    class_folder_is_out_of_reach(None, "class-root");
}

#[test]
#[ignore = "needs root: it writes under /usr and creates a user; CI runs it as root with --ignored"]
fn a_class_folder_is_out_of_a_runs_reach_without_root() {
    require_root(UNDER_USR);
    class_folder_is_out_of_reach(Some(ordinary_user()), "class-user");
}

// 2. Tests that are symbolic links.

/// A tests folder whose files are links to a folder under
/// `/usr/local/share` (as git-annex or dvc keep data): the run must not
/// read the answer at the link's target either.
fn linked_answers_are_out_of_reach(user: Option<(u32, u32)>, name: &str) {
    let store = UnderUsr::new(name);
    fs_err::create_dir_all(&store.path).unwrap();
    mode(&store.path, 0o755);
    let repository = crate::support::repository();
    let dir = open_dir();
    let tests = dir.path().join("tests");
    fs_err::create_dir(&tests).unwrap();
    mode(&tests, 0o755);
    for name in ["sample-1.in", "sample-1.ans"] {
        let target = store.path.join(format!("blob-{name}"));
        fs_err::copy(repository.join("problems/rooks/tests").join(name), &target).unwrap();
        mode(&target, 0o644);
        std::os::unix::fs::symlink(&target, tests.join(name)).unwrap();
    }
    source(
        dir.path(),
        "follow.c",
        &format!(
            r#"#include <stdio.h>
int main(void) {{
    FILE *f = fopen("{store}/blob-sample-1.ans", "r");
    int c;
    if (!f) {{ printf("0\n"); return 0; }}
    while ((c = fgetc(f)) != EOF) putchar(c);
    return 0;
}}
"#,
            store = store.path.display()
        ),
    );
    let (_, report, stderr) = judge_in(
        dir.path(),
        assert_cmd::cargo::cargo_bin!("judge"),
        user,
        "run rooks follow.c --tests tests --random 0",
        "",
    );
    let verdicts = crate::support::test_verdicts(&report);
    assert!(
        !verdicts.is_empty() && verdicts.iter().all(|verdict| verdict == "WA"),
        "the run read the answer at the link's target: {verdicts:?}\n{stderr}"
    );
}

#[test]
#[ignore = "needs root: it writes under /usr; CI runs it as root with --ignored"]
fn the_targets_of_linked_tests_are_masked_as_root() {
    require_root(UNDER_USR);
    linked_answers_are_out_of_reach(None, "links-root");
}

#[test]
#[ignore = "needs root: it writes under /usr and creates a user; CI runs it as root with --ignored"]
fn the_targets_of_linked_tests_are_masked_without_root() {
    require_root(UNDER_USR);
    linked_answers_are_out_of_reach(Some(ordinary_user()), "links-user");
}

// 3. Per-uid counters between workers.

/// Two tests at once (`--jobs 2`): the one given `1 2` queues 100
/// real-time signals to itself, blocked, and holds them; the one given
/// `2 3` reads `SigQ` of `/proc/self/status` (the pending signals of its
/// uid) meanwhile. With one uid for every run the second saw the first's
/// 100 (a channel of about 7 bits per poll); with a uid per worker it
/// sees none.
#[test]
#[ignore = "needs root: runs are another uid only as root; CI runs it as root with --ignored"]
fn the_pending_signals_of_one_worker_do_not_show_in_another() {
    require_root(UNDER_USR);
    let dir = tempfile::tempdir().unwrap();
    let program = source(
        dir.path(),
        "sigq.c",
        r#"#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
static int queued(void) {
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    int count = -1, limit;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "SigQ: %d/%d", &count, &limit) == 2) break;
    if (f) fclose(f);
    return count;
}
int main(void) {
    long long a, b;
    if (scanf("%lld %lld", &a, &b) != 2) return 1;
    if (a == 1) {
        sigset_t set;
        sigemptyset(&set);
        sigaddset(&set, SIGRTMIN);
        sigprocmask(SIG_BLOCK, &set, NULL);
        union sigval value = { .sival_int = 7 };
        for (int i = 0; i < 100; i++) sigqueue(getpid(), SIGRTMIN, value);
        if (queued() < 100) { printf("only %d queued\n", queued()); return 0; }
        usleep(2000000);
    } else {
        for (int i = 0; i < 200; i++) {
            int seen = queued();
            if (seen != 0) { printf("saw %d pending signals\n", seen); return 0; }
            usleep(10000);
        }
    }
    printf("%lld\n", a + b);
    return 0;
}
"#,
    );
    let tests = Tests::new(&[("1 2\n", "3\n"), ("2 3\n", "5\n")]);
    let graded = grade(&program, &tests, 0, &settings(2));
    let outcome: Vec<(Verdict, String)> = graded
        .result
        .tests
        .iter()
        .map(|test| (test.verdict, test.message.clone()))
        .collect();
    assert!(
        graded
            .result
            .tests
            .iter()
            .all(|test| test.verdict == Verdict::Accepted),
        "{outcome:#?}"
    );
}

// 4. Host-wide counters in /proc.

/// `/proc/interrupts`, `/proc/softirqs`, `/proc/diskstats`, `/proc/vmstat`
/// and `/proc/pressure/*` change with what every process of the host does:
/// a run reads nothing in them.
#[test]
#[ignore = "needs root: the sandbox's private /proc is checked as root; CI runs it as root with --ignored"]
fn host_wide_counters_in_proc_are_empty() {
    require_root(UNDER_USR);
    let dir = tempfile::tempdir().unwrap();
    let program = source(
        dir.path(),
        "counters.c",
        r#"#include <stdio.h>
int main(void) {
    long long a, b;
    if (scanf("%lld %lld", &a, &b) != 2) return 1;
    const char *paths[] = { "/proc/interrupts", "/proc/softirqs", "/proc/diskstats",
                            "/proc/vmstat", "/proc/pressure/cpu", "/proc/pressure/io",
                            "/proc/pressure/memory" };
    for (unsigned i = 0; i < sizeof paths / sizeof *paths; i++) {
        FILE *f = fopen(paths[i], "r");
        if (f && fgetc(f) != EOF) { printf("%s readable\n", paths[i]); return 0; }
        if (f) fclose(f);
    }
    /* What programs do need stays. */
    FILE *f = fopen("/proc/self/status", "r");
    if (!f || fgetc(f) == EOF) { printf("no /proc/self/status\n"); return 0; }
    f = fopen("/proc/meminfo", "r");
    if (!f || fgetc(f) == EOF) { printf("no /proc/meminfo\n"); return 0; }
    printf("%lld\n", a + b);
    return 0;
}
"#,
    );
    assert_probe_accepted(&program);
}

// 5. The PID counter of a worker's namespace.

/// On one worker, the run given `1 2` forks 40 children; the next run's
/// own pid must not show it (the counter of the worker's PID namespace
/// carried over from run to run: a count passed between students).
#[test]
#[ignore = "needs root: the PID namespace is checked as root; CI runs it as root with --ignored"]
fn a_runs_pid_says_nothing_of_the_run_before() {
    require_root(UNDER_USR);
    let dir = tempfile::tempdir().unwrap();
    let program = source(
        dir.path(),
        "pids.c",
        r#"#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>
int main(void) {
    long long a, b;
    if (scanf("%lld %lld", &a, &b) != 2) return 1;
    if (getpid() > 8) { printf("pid %d\n", (int)getpid()); return 0; }
    if (a == 1)
        for (int i = 0; i < 40; i++) {
            pid_t child = fork();
            if (child == 0) _exit(0);
            if (child > 0) waitpid(child, NULL, 0);
        }
    printf("%lld\n", a + b);
    return 0;
}
"#,
    );
    let tests = Tests::new(&[("1 2\n", "3\n"), ("2 3\n", "5\n"), ("3 4\n", "7\n")]);
    let graded = grade(&program, &tests, 0, &settings(1));
    assert!(
        graded
            .result
            .tests
            .iter()
            .all(|test| test.verdict == Verdict::Accepted),
        "{:#?}",
        graded.result.tests
    );
}

/// The same without root, through `judge run` as an ordinary user: every
/// run forks 40 children, and exits 42 when its own pid shows that an
/// earlier run on its worker did.
#[test]
#[ignore = "needs root: it creates a user and runs the judge as that user; CI runs it as root with --ignored"]
fn without_root_a_runs_pid_says_nothing_of_the_run_before() {
    require_root(UNDER_USR);
    let dir = open_dir();
    let tests = crate::support::rooks_tests(dir.path());
    let repository = crate::support::repository();
    for name in [
        "small-001.in",
        "small-001.ans",
        "small-002.in",
        "small-002.ans",
    ] {
        fs_err::copy(
            repository.join("problems/rooks/tests").join(name),
            tests.join(name),
        )
        .unwrap();
    }
    source(
        dir.path(),
        "pids.c",
        r#"#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>
int main(void) {
    if (getpid() > 8) return 42;
    for (int i = 0; i < 40; i++) {
        pid_t child = fork();
        if (child == 0) _exit(0);
        if (child > 0) waitpid(child, NULL, 0);
    }
    printf("0\n");
    return 0;
}
"#,
    );
    let (_, report, stderr) = judge_in(
        dir.path(),
        assert_cmd::cargo::cargo_bin!("judge"),
        Some(ordinary_user()),
        "run rooks pids.c --tests tests --random 0 --jobs 1",
        "",
    );
    let mut codes = Vec::new();
    exit_codes(&report, &mut codes);
    assert_eq!(codes.len(), 3, "{report:#}\n{stderr}");
    assert!(
        !codes.contains(&42),
        "a run's pid showed the forks of the run before: {codes:?}\n{stderr}"
    );
}
