//! What of the host a run cannot reach or change: access times of system
//! files, another installed copy of the judge, tests kept under `/usr`,
//! host-wide counters in `/proc/sys`, the teacher's process count. The
//! holes a third red team found in the sandbox (issue 18, second round),
//! each as the attack itself. They need root (they create files
//! under `/usr`, a user, or check what the sandbox user may reach), so they
//! are `#[ignore]`d and CI, which runs as root, runs them with
//! `cargo test --test it -- --ignored`; run otherwise they fail, saying so.

use crate::run::{grade, settings, Tests};
use crate::support::require_root;
use crate::support::{judge_in, open_dir, ordinary_user, rooks_tests, source};
use judge::verdict::Verdict;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Why the tests here and in data_out_of_reach.rs need root.
pub(crate) const UNDER_USR: &str = "it writes under /usr or runs the judge as another user";

/// A file (or folder) made under `/usr/local/share` for one test, removed
/// when dropped.
pub(crate) struct UnderUsr {
    pub(crate) path: PathBuf,
}

impl UnderUsr {
    pub(crate) fn new(name: &str) -> UnderUsr {
        let path = PathBuf::from(format!(
            "/usr/local/share/judge-redteam-{name}-{}",
            std::process::id()
        ));
        let _ = fs_err::remove_dir_all(&path);
        let _ = fs_err::remove_file(&path);
        UnderUsr { path }
    }
}

impl Drop for UnderUsr {
    fn drop(&mut self) {
        let _ = fs_err::remove_dir_all(&self.path);
        let _ = fs_err::remove_file(&self.path);
    }
}

// 09. Access times of system files.

/// A run reads a file of `/usr` whose access time is old: with a
/// read-write, `relatime` root the read set the atime, which any later run
/// reads back with `stat` (answers were passed between students this way).
#[test]
#[ignore = "needs root: it writes a file under /usr; CI runs it as root with --ignored"]
fn reading_a_system_file_leaves_no_access_time() {
    require_root(UNDER_USR);
    fs_err::create_dir_all("/usr/local/share").unwrap();
    let marked = UnderUsr::new("atime");
    fs_err::write(&marked.path, "a file a run reads\n").unwrap();
    let status = Command::new("touch")
        .args(["-a", "-d", "2000-01-01 00:00:00 UTC"])
        .arg(&marked.path)
        .status()
        .unwrap();
    assert!(status.success());
    let before = fs_err::metadata(&marked.path).unwrap().atime();
    let dir = tempfile::tempdir().unwrap();
    let program = source(
        dir.path(),
        "reader.c",
        &format!(
            r#"#include <stdio.h>
int main(void) {{
    long long a, b;
    if (scanf("%lld %lld", &a, &b) != 2) return 1;
    FILE *f = fopen("{path}", "r");
    if (!f) return 2;
    char line[64];
    if (!fgets(line, sizeof line, f)) return 3;
    fclose(f);
    printf("%lld\n", a + b);
    return 0;
}}
"#,
            path = marked.path.display()
        ),
    );
    assert_probe_accepted(&program);
    let after = fs_err::metadata(&marked.path).unwrap().atime();
    assert_eq!(
        after, before,
        "the run's read set the access time of a system file"
    );
}

// 02. Another installed copy of the judge.

/// A copy of the judge installed under `/usr/local/bin` (an older
/// install, a distribution's package) while the teacher runs another
/// build: the run finds the copy, but a judge inside a run refuses to
/// start, so `judge solve` answers nothing.
#[test]
#[ignore = "needs root: it installs a copy of the judge under /usr/local/bin; CI runs it as root with --ignored"]
fn another_installed_copy_of_the_judge_refuses_to_solve_inside_a_run() {
    require_root(UNDER_USR);
    let copy = UnderUsr {
        path: PathBuf::from(format!(
            "/usr/local/bin/judge-redteam-copy-{}",
            std::process::id()
        )),
    };
    fs_err::copy(assert_cmd::cargo::cargo_bin!("judge"), &copy.path).unwrap();
    let dir = open_dir();
    rooks_tests(dir.path());
    source(
        dir.path(),
        "ask_a_copy.c",
        &format!(
            r#"#include <stdio.h>
#include <unistd.h>
int main(void) {{
    execl("{copy}", "judge", "solve", "rooks", (char *)0);
    printf("0\n");
    return 0;
}}
"#,
            copy = copy.path.display()
        ),
    );
    let (_, report, stderr) = judge_in(
        dir.path(),
        assert_cmd::cargo::cargo_bin!("judge"),
        None,
        "run rooks ask_a_copy.c --tests tests --random 0",
        "",
    );
    let verdicts = crate::support::test_verdicts(&report);
    assert!(
        !verdicts.is_empty() && verdicts.iter().all(|verdict| verdict != "AC"),
        "a copy of the judge solved inside the run: {verdicts:?}\n{stderr}"
    );
    // The copy said why (its stderr is the run's).
    let said = report["results"][0]["tests"][0]["stderr"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(
        said.contains("does not run inside a judge's sandbox"),
        "{report:#}"
    );
}

// 03. Tests under /usr without root.

/// Without root a run is the teacher's own user: a `--tests` folder under
/// `/usr/local/share` (which Landlock lets a run read) must not be in its
/// mount namespace at all.
#[test]
#[ignore = "needs root: it creates a user and a folder under /usr; CI runs it as root with --ignored"]
fn without_root_tests_under_usr_are_out_of_a_runs_reach() {
    require_root(UNDER_USR);
    let (uid, gid) = ordinary_user();
    let tests = UnderUsr::new("tests");
    fs_err::create_dir_all(&tests.path).unwrap();
    let repository = crate::support::repository();
    for name in ["sample-1.in", "sample-1.ans"] {
        fs_err::copy(
            repository.join("problems/rooks/tests").join(name),
            tests.path.join(name),
        )
        .unwrap();
    }
    let status = Command::new("chown")
        .arg("-R")
        .arg(format!("{uid}:{gid}"))
        .arg(&tests.path)
        .status()
        .unwrap();
    assert!(status.success());
    fs_err::set_permissions(
        &tests.path,
        std::os::unix::fs::PermissionsExt::from_mode(0o700),
    )
    .unwrap();
    let dir = open_dir();
    source(
        dir.path(),
        "steal.c",
        &format!(
            r#"#include <stdio.h>
int main(void) {{
    FILE *f = fopen("{tests}/sample-1.ans", "r");
    int c;
    if (!f) {{ printf("0\n"); return 0; }}
    while ((c = fgetc(f)) != EOF) putchar(c);
    return 0;
}}
"#,
            tests = tests.path.display()
        ),
    );
    let (_, report, stderr) = judge_in(
        dir.path(),
        assert_cmd::cargo::cargo_bin!("judge"),
        Some((uid, gid)),
        &format!(
            "run rooks steal.c --tests {} --random 0",
            tests.path.display()
        ),
        "",
    );
    let verdicts = crate::support::test_verdicts(&report);
    assert!(
        !verdicts.is_empty() && verdicts.iter().all(|verdict| verdict != "AC"),
        "the run read the tests' answers: {verdicts:?}\n{stderr}"
    );
}

// 01. Host-wide counters.

/// `io_setup` raises the host-wide `/proc/sys/fs/aio-nr` that any other
/// run reads: refused (ENOSYS), and `/proc/sys` is not shown; a read with
/// RWF_NOWAIT (a probe of the host-wide page cache) is refused (EPERM).
#[test]
#[ignore = "needs root: the sandbox's private /proc is checked as root; CI runs it as root with --ignored"]
fn aio_and_proc_sys_counters_are_out_of_reach() {
    require_root(UNDER_USR);
    let dir = tempfile::tempdir().unwrap();
    let program = source(
        dir.path(),
        "counters.c",
        r#"#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>
int main(void) {
    long long a, b;
    if (scanf("%lld %lld", &a, &b) != 2) return 1;
    unsigned long context = 0;
    long aio = syscall(SYS_io_setup, 8, &context);
    if (aio == 0 || errno != ENOSYS) { printf("io_setup: %ld errno %d\n", aio, errno); return 0; }
    FILE *f = fopen("/proc/sys/fs/aio-nr", "r");
    if (f) { printf("aio-nr readable\n"); return 0; }
    f = fopen("/proc/sys/fs/file-nr", "r");
    if (f) { printf("file-nr readable\n"); return 0; }
    /* The page cache as a probe: a read with RWF_NOWAIT says whether a
       file's page is cached (EAGAIN when not). */
    int fd = open("/etc/passwd", O_RDONLY);
    char byte;
    struct iovec io = { &byte, 1 };
    long nowait = syscall(SYS_preadv2, fd, &io, 1, 0L, 0L, 0x8);
    if (nowait >= 0 || errno != EPERM) { printf("preadv2 RWF_NOWAIT: %ld errno %d\n", nowait, errno); return 0; }
    if (syscall(SYS_preadv2, fd, &io, 1, 0L, 0L, 0) != 1) { printf("plain preadv2 failed\n"); return 0; }
    printf("%lld\n", a + b);
    return 0;
}
"#,
    );
    assert_probe_accepted(&program);
}

// 08. The process limit without root and without cgroups.

/// Without root (and so, here, without cgroups), the teacher's other
/// processes must not become room for a test's forks: the kernel counts
/// the process limit inside the worker's user namespace.
#[test]
#[ignore = "needs root: it creates a user and runs the judge as that user; CI runs it as root with --ignored"]
fn without_root_the_teachers_processes_do_not_raise_the_process_limit() {
    require_root(UNDER_USR);
    let (uid, gid) = ordinary_user();
    use std::os::unix::process::CommandExt as _;
    // A process group of its own, ended by its id below.
    let mut sleepers = Command::new("setpriv")
        .args([
            &format!("--reuid={uid}"),
            &format!("--regid={gid}"),
            "--clear-groups",
            "sh",
            "-c",
            "for i in $(seq 200); do sleep 120 & done; wait",
        ])
        .process_group(0)
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_secs(2));
    let dir = open_dir();
    rooks_tests(dir.path());
    source(
        dir.path(),
        "forks.c",
        r#"#include <stdio.h>
#include <unistd.h>
int main(void) {
    int n = 0;
    for (int i = 0; i < 2000; i++) {
        pid_t p = fork();
        if (p < 0) break;
        if (p == 0) { pause(); _exit(0); }
        n++;
    }
    printf("forked %d\n", n);
    return 0;
}
"#,
    );
    let (_, report, stderr) = judge_in(
        dir.path(),
        assert_cmd::cargo::cargo_bin!("judge"),
        Some((uid, gid)),
        "run rooks forks.c --tests tests --random 0",
        "",
    );
    let _ = Command::new("kill")
        .args(["-KILL", "--", &format!("-{}", sleepers.id())])
        .status();
    let _ = sleepers.wait();
    let actual = report["results"][0]["tests"][0]["excerpt"]["actual"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let forked: u64 = actual
        .trim()
        .strip_prefix("forked ")
        .and_then(|count| count.parse().ok())
        .unwrap_or_else(|| panic!("{report:#}\n{stderr}"));
    assert!(
        forked <= 70,
        "forked {forked} under processes = 64 (cgroups: {}): the teacher's processes were room",
        report["isolation"]["cgroups"]
    );
}

/// Grades `program` (a probe that prints what it could reach, else the sum
/// of `1 2`) on one test: it must be accepted, or its output says what a run
/// reached.
#[track_caller]
pub(crate) fn assert_probe_accepted(program: &Path) {
    let tests = Tests::new(&[("1 2\n", "3\n")]);
    let graded = grade(program, &tests, 0, &settings(1));
    assert_eq!(
        graded.result.tests[0].verdict,
        Verdict::Accepted,
        "{:#?}",
        graded.result.tests
    );
}
