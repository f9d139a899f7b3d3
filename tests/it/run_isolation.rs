//! Runs and compiles kept apart from each other, from the judge and from
//! the host: a fresh scratch per run, no descriptor or reference solver of
//! the judge, a private workspace and PID namespace, no locks, inotify or
//! file times, the teacher's files and a toolchain's home out of reach,
//! nothing an earlier run left charged to the next. The holes a second red
//! team found (issue 18), each as the attack itself: a program that tries
//! it, graded as the judge grades, as root and, where
//! it applies, as an ordinary user the test creates. Each asserts that the
//! attack gains nothing and that the judge cleaned up after it.
//!
//! These tests need root (they create a user, install a copy of the judge
//! under `/usr/local/bin`, and check what the sandbox user may reach): they
//! fail, saying so, when run without it.

use crate::run::{grade, grade_many, settings, Tests};
use crate::support::require_root;
use crate::support::{
    judge_in, open_dir, ordinary_user, processes_mentioning, rooks_tests, source, test_verdicts,
};
use judge::verdict::Verdict;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Why most tests here need root.
const CREATES_A_USER: &str = "it creates a user and checks what others may reach";

// 1. Scratch per run.

/// An "honest" program that leaves each answer as an extended attribute
/// of its scratch folder (and the folder's times), and a reader of them:
/// on one worker, the second test must not find what the first left.
#[test]
#[ignore = "needs root (it creates a user, or runs as root what it checks); CI runs it as root: `cargo test --test it -- --ignored`"]
fn a_runs_scratch_keeps_nothing_from_the_run_before() {
    require_root(CREATES_A_USER);
    let dir = tempfile::tempdir().unwrap();
    let program = source(
        dir.path(),
        "xattr_courier.c",
        r#"#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
int main(void) {
    long long a, b;
    if (scanf("%lld %lld", &a, &b) != 2) return 1;
    char left[64] = {0};
    struct stat st;
    /* What an earlier run left: an attribute, or a time it set. */
    if (getxattr(".", "user.answer", left, sizeof left - 1) > 0) {
        printf("left by the run before: %s\n", left);
        return 0;
    }
    if (stat(".", &st) == 0 && st.st_mtime == 1000000000) {
        printf("the run before set the time\n");
        return 0;
    }
    char mine[64];
    snprintf(mine, sizeof mine, "%lld", a + b);
    if (setxattr(".", "user.answer", mine, strlen(mine), 0) != 0) return 3;
    printf("%lld\n", a + b);
    return 0;
}
"#,
    );
    let tests = Tests::new(&[("1 2\n", "3\n"), ("2 3\n", "5\n"), ("3 4\n", "7\n")]);
    let graded = grade(&program, &tests, 0, &settings(1));
    let verdicts: Vec<Verdict> = graded
        .result
        .tests
        .iter()
        .map(|test| test.verdict)
        .collect();
    assert_eq!(
        verdicts,
        [Verdict::Accepted; 3],
        "{:#?}",
        graded.result.tests
    );
}

// 2. The judge's own binary.

/// A copy of the judge installed where a distribution would put it, removed
/// when dropped.
struct Installed {
    path: PathBuf,
}

impl Installed {
    fn new() -> Installed {
        let path = PathBuf::from(format!(
            "/usr/local/bin/judge-redteam-{}",
            std::process::id()
        ));
        fs_err::copy(assert_cmd::cargo::cargo_bin!("judge"), &path).unwrap();
        fs_err::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        Installed { path }
    }
}

impl Drop for Installed {
    fn drop(&mut self) {
        let _ = fs_err::remove_file(&self.path);
    }
}

#[test]
#[ignore = "needs root (it creates a user, or runs as root what it checks); CI runs it as root: `cargo test --test it -- --ignored`"]
fn a_run_cannot_exec_the_judges_own_reference_solver() {
    require_root(CREATES_A_USER);
    let installed = Installed::new();
    let dir = open_dir();
    rooks_tests(dir.path());
    source(
        dir.path(),
        "ask_the_judge.c",
        &format!(
            r#"#include <stdio.h>
#include <unistd.h>
int main(void) {{
    execl("{judge}", "judge", "solve", "rooks", (char *)0);
    printf("0\n");
    return 0;
}}
"#,
            judge = installed.path.display()
        ),
    );
    let (_, report, stderr) = judge_in(
        dir.path(),
        &installed.path,
        None,
        "run rooks ask_the_judge.c --tests tests --random 0",
        "",
    );
    let verdicts = test_verdicts(&report);
    assert!(
        !verdicts.is_empty() && verdicts.iter().all(|verdict| verdict != "AC"),
        "the reference solver was reachable: {verdicts:?}\n{stderr}"
    );
}

// 3. Inherited descriptors.

#[test]
#[ignore = "needs root (it creates a user, or runs as root what it checks); CI runs it as root: `cargo test --test it -- --ignored`"]
fn descriptors_the_judge_inherited_never_reach_a_run() {
    require_root(CREATES_A_USER);
    let dir = open_dir();
    rooks_tests(dir.path());
    let secret = dir.path().join("answers.txt");
    fs_err::write(&secret, "5\n1\n5\n2\n4\n").unwrap();
    fs_err::set_permissions(&secret, std::fs::Permissions::from_mode(0o600)).unwrap();
    let log = dir.path().join("teacher.log");
    fs_err::write(&log, "").unwrap();
    fs_err::set_permissions(&log, std::fs::Permissions::from_mode(0o600)).unwrap();
    source(
        dir.path(),
        "inherit.c",
        r#"#include <stdio.h>
#include <unistd.h>
int main(void) {
    char buffer[256];
    /* Every descriptor from 3 up: read what is readable, write a mark. */
    for (int fd = 3; fd < 64; fd++) {
        if (write(fd, "run was here\n", 13) > 0) return 40;
        ssize_t count = read(fd, buffer, sizeof buffer);
        if (count > 0) {
            fwrite(buffer, 1, (size_t)count, stdout);
            return 0;
        }
    }
    printf("0\n");
    return 0;
}
"#,
    );
    let judge = assert_cmd::cargo::cargo_bin!("judge");
    let (_, report, stderr) = judge_in(
        dir.path(),
        judge,
        None,
        "run rooks inherit.c --tests tests --random 0",
        "3<answers.txt 9>>teacher.log",
    );
    assert_eq!(test_verdicts(&report), ["WA"], "{report:#}\n{stderr}");
    assert_eq!(fs_err::read_to_string(&log).unwrap(), "");
}

// 4. A private workspace.

#[test]
#[ignore = "needs root (it creates a user, or runs as root what it checks); CI runs it as root: `cargo test --test it -- --ignored`"]
fn another_local_user_cannot_read_the_workspace() {
    require_root(CREATES_A_USER);
    let (uid, gid) = ordinary_user();
    let workspace = judge::runner::Workspace::new().unwrap();
    let folder = workspace.path().join("submission-1");
    fs_err::create_dir(&folder).unwrap();
    fs_err::set_permissions(&folder, std::fs::Permissions::from_mode(0o755)).unwrap();
    let hand_in = folder.join("rooks.cpp");
    fs_err::write(&hand_in, "// a student's secret\n").unwrap();
    fs_err::set_permissions(&hand_in, std::fs::Permissions::from_mode(0o644)).unwrap();
    let output = Command::new("setpriv")
        .args([
            &format!("--reuid={uid}"),
            &format!("--regid={gid}"),
            "--clear-groups",
            "head",
            "-1",
        ])
        .arg(&hand_in)
        .output()
        .unwrap();
    assert!(
        !output.status.success() && output.stdout.is_empty(),
        "another user read {}: {}",
        hand_in.display(),
        String::from_utf8_lossy(&output.stdout)
    );
}

// 7. A PID namespace per worker, with and without root.

const SETSID_CHAIN: &str = r#"#include <stdio.h>
#include <unistd.h>
int main(void) {
    if (fork() == 0) {
        /* 20 levels, each a session of its own whose leader stays; once
           the answer is printed every level is an orphan in turn. */
        for (int level = 0; level < 20; level++) {
            setsid();
            if (fork() != 0) break;
        }
        for (;;) pause();
    }
    usleep(200000);
    printf("5\n1\n5\n2\n4\n");
    return 0;
}
"#;

/// A program that lists `/proc`: exit 42 when it sees more than its own
/// few processes (the judge, other users, the host).
const PROC_LISTER: &str = r#"#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
int main(void) {
    DIR *proc = opendir("/proc");
    int seen = 0;
    struct dirent *entry;
    while (proc && (entry = readdir(proc))) {
        if (isdigit((unsigned char)entry->d_name[0])) seen++;
    }
    if (seen > 4) {
        fprintf(stderr, "saw %d processes\n", seen);
        return 42;
    }
    printf("5\n1\n5\n2\n4\n");
    return 0;
}
"#;

fn pid_namespace_holds(user: Option<(u32, u32)>) {
    let dir = open_dir();
    rooks_tests(dir.path());
    let marker = format!(
        "setsid-chain-{}-{}",
        if user.is_some() { "user" } else { "root" },
        std::process::id()
    );
    let chain = source(dir.path(), "chain.c", SETSID_CHAIN);
    let status = Command::new("gcc")
        .arg("-o")
        .arg(dir.path().join(&marker))
        .arg(&chain)
        .status()
        .unwrap();
    assert!(status.success());
    source(dir.path(), "proc_lister.c", PROC_LISTER);
    let judge = assert_cmd::cargo::cargo_bin!("judge");
    let (_, report, stderr) = judge_in(
        dir.path(),
        judge,
        user,
        &format!("run rooks {marker} proc_lister.c --tests tests --random 0 --time-limit 2000"),
        "",
    );
    let verdicts: Vec<&str> = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|result| result["verdict"].as_str().unwrap())
        .collect();
    assert_eq!(verdicts, ["AC", "AC"], "{report:#}\n{stderr}");
    // The judge has exited: nothing of the chain may be left.
    std::thread::sleep(std::time::Duration::from_millis(200));
    let left = crate::support::processes_mentioning(Path::new(&marker));
    assert!(left.is_empty(), "processes outlived the judge: {left:?}");
}

#[test]
#[ignore = "needs root (it creates a user, or runs as root what it checks); CI runs it as root: `cargo test --test it -- --ignored`"]
fn a_setsid_chain_dies_with_its_test_and_proc_is_private_without_root() {
    require_root(CREATES_A_USER);
    pid_namespace_holds(Some(ordinary_user()));
}

#[test]
#[ignore = "needs root (it creates a user, or runs as root what it checks); CI runs it as root: `cargo test --test it -- --ignored`"]
fn a_setsid_chain_dies_with_its_test_and_proc_is_private_as_root() {
    require_root(CREATES_A_USER);
    pid_namespace_holds(None);
}

// 8 and 11. Shared kernel objects.

/// Tries every channel between runs the red team named; exit 4x (naming
/// it on stderr) when one works, else the sum.
const CHANNELS: &str = r#"#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>
#ifndef AF_VSOCK
#define AF_VSOCK 40
#endif
int main(void) {
    long long a, b;
    if (scanf("%lld %lld", &a, &b) != 2) return 1;
    int shared = open("/etc/os-release", O_RDONLY);
    if (shared < 0) shared = open("/etc/passwd", O_RDONLY);
    if (shared >= 0) {
        struct flock lock = { .l_type = F_RDLCK, .l_whence = SEEK_SET, .l_start = 7, .l_len = 1 };
        if (fcntl(shared, F_SETLK, &lock) == 0) { fprintf(stderr, "F_SETLK\n"); return 41; }
        lock.l_type = F_WRLCK;
        if (fcntl(shared, F_GETLK, &lock) == 0) { fprintf(stderr, "F_GETLK\n"); return 42; }
        struct flock ofd = { .l_type = F_RDLCK, .l_whence = SEEK_SET, .l_start = 9, .l_len = 1 };
        if (fcntl(shared, F_OFD_SETLK, &ofd) == 0) { fprintf(stderr, "F_OFD_SETLK\n"); return 43; }
        if (flock(shared, LOCK_SH | LOCK_NB) == 0) { fprintf(stderr, "flock\n"); return 44; }
    }
    struct timespec times[2] = { { .tv_nsec = UTIME_OMIT }, { .tv_sec = 12345 } };
    if (utimensat(AT_FDCWD, "/dev/null", times, 0) == 0) { fprintf(stderr, "utimensat\n"); return 45; }
    int watcher = inotify_init1(0);
    if (watcher >= 0 && inotify_add_watch(watcher, "/etc", IN_ACCESS | IN_OPEN) >= 0) {
        fprintf(stderr, "inotify\n");
        return 46;
    }
    int families[] = { AF_VSOCK, AF_INET, AF_INET6, AF_NETLINK, AF_PACKET };
    for (unsigned i = 0; i < sizeof families / sizeof *families; i++) {
        int fd = socket(families[i], SOCK_DGRAM, 0);
        if (fd < 0) fd = socket(families[i], SOCK_STREAM, 0);
        if (fd >= 0) { fprintf(stderr, "socket family %d\n", families[i]); return 47; }
    }
    int pair[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, pair) != 0) { fprintf(stderr, "no socketpair\n"); return 48; }
    /* Issue 32: a unix socket is made, in a run whose worker has its own
       network namespace (Python's multiprocessing.Manager needs one). */
    if (socket(AF_UNIX, SOCK_STREAM, 0) < 0) { fprintf(stderr, "no unix socket\n"); return 49; }
    printf("%lld\n", a + b);
    return 0;
}
"#;

#[test]
#[ignore = "needs root (it creates a user, or runs as root what it checks); CI runs it as root: `cargo test --test it -- --ignored`"]
fn locks_file_times_inotify_and_sockets_are_refused() {
    require_root(CREATES_A_USER);
    let dir = tempfile::tempdir().unwrap();
    let program = source(dir.path(), "channels.c", CHANNELS);
    let tests = Tests::new(&[("20 22\n", "42\n")]);
    let graded = grade_many(&[program], &tests, 0, &settings(1))
        .pop()
        .unwrap();
    let test = &graded.result.tests[0];
    assert_eq!(test.verdict, Verdict::Accepted, "{test:#?}");
}

// 6. Without root, the teacher's files are out of reach.

/// Removes a folder or file when dropped.
struct Removed(PathBuf);

impl Drop for Removed {
    fn drop(&mut self) {
        let _ = fs_err::remove_dir_all(&self.0);
        let _ = fs_err::remove_file(&self.0);
    }
}

#[test]
#[ignore = "needs root (it creates a user, or runs as root what it checks); CI runs it as root: `cargo test --test it -- --ignored`"]
fn without_root_a_run_can_neither_see_nor_chmod_the_teachers_files() {
    require_root(CREATES_A_USER);
    let (uid, gid) = ordinary_user();
    let pid = std::process::id();
    // The teacher's course, where people keep such folders, and a file of
    // the teacher's elsewhere on the host.
    let course = Removed(PathBuf::from(format!("/srv/judge-redteam-{pid}")));
    let other = Removed(PathBuf::from(format!("/var/lib/judge-redteam-{pid}.txt")));
    fs_err::create_dir_all(&course.0).unwrap();
    let tests = rooks_tests(&course.0);
    fs_err::write(&other.0, "the teacher's\n").unwrap();
    for path in [course.0.clone(), tests.clone(), other.0.clone()] {
        std::os::unix::fs::chown(&path, Some(uid), Some(gid)).unwrap();
    }
    let answer = tests.join("sample-1.ans");
    for entry in fs_err::read_dir(&tests).unwrap() {
        let path = entry.unwrap().path();
        std::os::unix::fs::chown(&path, Some(uid), Some(gid)).unwrap();
        fs_err::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
    fs_err::set_permissions(&other.0, std::fs::Permissions::from_mode(0o600)).unwrap();
    let dir = open_dir();
    source(
        dir.path(),
        "vandal.c",
        &format!(
            r#"#include <stdio.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/xattr.h>
int main(void) {{
    const char *answer = "{answer}", *tests = "{tests}", *other = "{other}";
    struct stat st;
    if (stat(answer, &st) == 0 || stat(tests, &st) == 0) {{ fprintf(stderr, "sees the tests\n"); return 41; }}
    if (chmod(other, 0644) == 0) {{ fprintf(stderr, "chmod\n"); return 42; }}
    if (utimes(other, NULL) == 0) {{ fprintf(stderr, "utimes\n"); return 43; }}
    if (setxattr(other, "user.mark", "x", 1, 0) == 0) {{ fprintf(stderr, "setxattr\n"); return 44; }}
    chmod(answer, 0644);
    chmod(tests, 0);
    printf("5\n1\n5\n2\n4\n");
    return 0;
}}
"#,
            answer = answer.display(),
            tests = tests.display(),
            other = other.0.display()
        ),
    );
    let judge = assert_cmd::cargo::cargo_bin!("judge");
    let (_, report, stderr) = judge_in(
        dir.path(),
        judge,
        Some((uid, gid)),
        &format!("run rooks vandal.c --tests {} --random 0", tests.display()),
        "",
    );
    assert_eq!(test_verdicts(&report), ["AC"], "{report:#}\n{stderr}");
    let mode = |path: &Path| fs_err::metadata(path).unwrap().permissions().mode() & 0o7777;
    assert_eq!(mode(&answer), 0o600);
    assert_eq!(mode(&tests), 0o755);
    assert_eq!(mode(&other.0), 0o600);
}

// 5. A compile sees its toolchain's real installation only.

#[test]
#[ignore = "needs root (it creates a user, or runs as root what it checks); CI runs it as root: `cargo test --test it -- --ignored`"]
fn a_compiler_wrapper_does_not_lend_the_compile_its_course_folder() {
    require_root(CREATES_A_USER);
    let dir = open_dir();
    let course = dir.path().join("course");
    crate::support::compiler_wrapper(&course, dir.path(), false);
    let tests = rooks_tests(&course);
    let answer = tests.join("sample-1.ans");
    fs_err::set_permissions(&answer, std::fs::Permissions::from_mode(0o644)).unwrap();
    source(
        dir.path(),
        "embed.wc",
        &crate::support::embedding_program(&answer),
    );
    let judge = assert_cmd::cargo::cargo_bin!("judge");
    let (_, report, stderr) = judge_in(
        dir.path(),
        judge,
        None,
        &format!("run rooks embed.wc --tests {}", tests.display()),
        "",
    );
    let verdict = report["results"][0]["verdict"].as_str().unwrap_or("");
    assert_eq!(verdict, "CE", "{report:#}\n{stderr}");
}

#[test]
#[ignore = "needs root (it creates a user, or runs as root what it checks); CI runs it as root: `cargo test --test it -- --ignored`"]
fn a_rust_compile_reads_its_sysroot_but_not_all_of_cargo_home() {
    require_root(CREATES_A_USER);
    let Some(home) = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".cargo")))
        .filter(|home| home.join("bin/rustc").exists())
    else {
        panic!("this test needs rustc installed with rustup (a `bin/rustc` in CARGO_HOME)");
    };
    let secret = Removed(home.join(format!("judge-redteam-{}", std::process::id())));
    fs_err::write(&secret.0, "42\n").unwrap();
    fs_err::set_permissions(&secret.0, std::fs::Permissions::from_mode(0o644)).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let program = source(
        dir.path(),
        "embed.rs",
        &format!(
            "fn main() {{ print!(\"{{}}\", include_str!(\"{}\")); }}\n",
            secret.0.display()
        ),
    );
    let tests = Tests::new(&[("20 22\n", "42\n")]);
    let graded = grade(&program, &tests, 0, &settings(1));
    assert_eq!(
        graded.result.verdict,
        Verdict::CompileError,
        "{:#?}",
        graded.result
    );
    // An honest Rust program still compiles with the sysroot alone.
    let honest = source(
        dir.path(),
        "sum.rs",
        "use std::io::Read;\nfn main() { let mut s = String::new(); \
         std::io::stdin().read_to_string(&mut s).unwrap(); \
         let n: i64 = s.split_whitespace().map(|t| t.parse::<i64>().unwrap()).sum(); \
         println!(\"{n}\"); }\n",
    );
    let graded = grade(&honest, &tests, 0, &settings(1));
    assert_eq!(
        graded.result.verdict,
        Verdict::Accepted,
        "{:#?}",
        graded.result
    );
}

// 9. Bytes a submission controls reach the terminal with control
// characters made visible.

#[test]
fn a_compile_error_cannot_draw_on_the_terminal() {
    let dir = open_dir();
    rooks_tests(dir.path());
    source(
        dir.path(),
        "draw.c",
        "#error \"\x1b[2J\x1b[H rooks draw.c (c): AC 1/1\"\nint main(void) { return 0; }\n",
    );
    let output = Command::new(assert_cmd::cargo::cargo_bin!("judge"))
        .args([
            "run", "rooks", "draw.c", "--tests", "tests", "--random", "0",
        ])
        .current_dir(dir.path())
        .env("HOME", dir.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(
        !output.stdout.contains(&0x1b) && !output.stderr.contains(&0x1b),
        "an escape sequence reached the terminal:\n{stdout:?}\n{stderr:?}"
    );
    assert!(stdout.contains("\\x1b[2J"), "{stdout}");
}

// 1, its other variants: what an earlier run leaves in the kernel.

/// With `0 b`: stores 15 MiB of `user.*` attributes on its scratch root
/// (kernel memory charged to the worker's cgroup, and 15 of the 16 MiB of
/// inode space a 64 MiB tmpfs has) and leaves 500 small files. With `1 b`: an honest program that needs
/// 20 MiB of memory. With `2 b`: an honest one that writes 3,000 small
/// files. Each prints `a + b`.
const LEFTOVERS: &str = r#"#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/xattr.h>
static int small_files(const char *prefix, int count) {
    char name[64];
    for (int i = 0; i < count; i++) {
        snprintf(name, sizeof name, "%s%d", prefix, i);
        FILE *file = fopen(name, "w");
        if (!file || fputc('x', file) == EOF || fclose(file) != 0) {
            fprintf(stderr, "file %d: no room\n", i);
            return 1;
        }
    }
    return 0;
}
int main(void) {
    long long a, b;
    if (scanf("%lld %lld", &a, &b) != 2) return 1;
    if (a == 0) {
        static char value[60 * 1024];
        memset(value, 'x', sizeof value);
        char name[32];
        long stored = 0;
        for (int i = 0; stored < 15L * 1024 * 1024; i++) {
            snprintf(name, sizeof name, "user.fill%d", i);
            if (setxattr(".", name, value, sizeof value, 0) != 0) { perror("setxattr"); return 3; }
            stored += (long)sizeof value;
        }
        if (small_files("left-", 500) != 0) return 4;
    } else if (a == 1) {
        size_t size = (size_t)20 << 20;
        char *memory = malloc(size);
        if (!memory) return 5;
        memset(memory, 1, size);
        b += memory[size - 1] - 1;
    } else if (small_files("mine-", 3000) != 0) {
        return 6;
    }
    printf("%lld\n", a + b);
    return 0;
}
"#;

fn after_leftovers(honest: &str, memory_mib: u64) -> Vec<judge::runner::TestResult> {
    require_root(CREATES_A_USER);
    let dir = tempfile::tempdir().unwrap();
    let program = source(dir.path(), "leftovers.c", LEFTOVERS);
    let answer = |input: &str| {
        let sum: i64 = input
            .split_whitespace()
            .map(|n| n.parse::<i64>().unwrap())
            .sum();
        format!("{sum}\n")
    };
    let inputs = [
        "0 5\n".to_owned(),
        format!("{honest} 2\n"),
        format!("{honest} 3\n"),
    ];
    let pairs: Vec<(String, String)> = inputs.iter().map(|i| (i.clone(), answer(i))).collect();
    let borrowed: Vec<(&str, &str)> = pairs.iter().map(|(i, a)| (&i[..], &a[..])).collect();
    let tests = Tests::new(&borrowed);
    // One worker: the honest runs come on the worker the attacker used.
    let mut settings = settings(1);
    settings.limits.memory_kib = memory_mib * 1024;
    grade(&program, &tests, 0, &settings).result.tests
}

#[test]
#[ignore = "needs root (it creates a user, or runs as root what it checks); CI runs it as root: `cargo test --test it -- --ignored`"]
fn kernel_memory_an_earlier_run_left_in_its_scratch_is_not_charged_to_the_next() {
    let tests = after_leftovers("1", 32);
    let verdicts: Vec<Verdict> = tests.iter().map(|test| test.verdict).collect();
    // The first proves the attack ran (15 MiB stored, 500 files left).
    assert_eq!(verdicts, [Verdict::Accepted; 3], "{tests:#?}");
}

#[test]
#[ignore = "needs root (it creates a user, or runs as root what it checks); CI runs it as root: `cargo test --test it -- --ignored`"]
fn files_and_attributes_an_earlier_run_left_do_not_fill_the_next_runs_scratch() {
    let tests = after_leftovers("2", 128);
    let verdicts: Vec<Verdict> = tests.iter().map(|test| test.verdict).collect();
    assert_eq!(verdicts, [Verdict::Accepted; 3], "{tests:#?}");
}

// 8, as a race: two students at once.

/// With `--jobs 2`, a sender holds every kind of lock it can on a shared
/// file for three seconds while a receiver, at the same time, looks for
/// any lock there (`F_GETLK`, `F_OFD_GETLK`, `flock`). The receiver prints
/// the sum only when nothing crossed, and the sender only when its locks
/// were refused.
const SENDER: &str = r#"#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>
int main(void) {
    long long a, b;
    if (scanf("%lld %lld", &a, &b) != 2) return 1;
    int shared = open("/etc/os-release", O_RDONLY);
    if (shared < 0) shared = open("/etc/passwd", O_RDONLY);
    if (shared < 0) return 2;
    int held = 0;
    struct flock lock = { .l_type = F_RDLCK, .l_whence = SEEK_SET, .l_start = 3, .l_len = 5 };
    if (fcntl(shared, F_SETLK, &lock) == 0) { fprintf(stderr, "F_SETLK held\n"); held = 1; }
    struct flock ofd = { .l_type = F_RDLCK, .l_whence = SEEK_SET, .l_start = 11, .l_len = 2 };
    if (fcntl(shared, F_OFD_SETLK, &ofd) == 0) { fprintf(stderr, "F_OFD_SETLK held\n"); held = 1; }
    if (flock(shared, LOCK_SH | LOCK_NB) == 0) { fprintf(stderr, "flock held\n"); held = 1; }
    struct timespec pause = { .tv_sec = 3 };
    nanosleep(&pause, NULL);
    printf("%lld\n", held ? -1 : a + b);
    return 0;
}
"#;

const RECEIVER: &str = r#"#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>
int main(void) {
    long long a, b;
    if (scanf("%lld %lld", &a, &b) != 2) return 1;
    int shared = open("/etc/os-release", O_RDONLY);
    if (shared < 0) shared = open("/etc/passwd", O_RDONLY);
    if (shared < 0) return 2;
    int crossed = 0;
    /* Four seconds of looking, in 10 ms steps. */
    for (int step = 0; step < 400 && !crossed; step++) {
        struct flock probe = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0 };
        if (fcntl(shared, F_GETLK, &probe) == 0 && probe.l_type != F_UNLCK) {
            fprintf(stderr, "F_GETLK saw a lock at %lld\n", (long long)probe.l_start);
            crossed = 1;
        }
        struct flock ofd = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0 };
        if (fcntl(shared, F_OFD_GETLK, &ofd) == 0 && ofd.l_type != F_UNLCK) {
            fprintf(stderr, "F_OFD_GETLK saw a lock at %lld\n", (long long)ofd.l_start);
            crossed = 1;
        }
        if (flock(shared, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK) {
            fprintf(stderr, "flock saw a lock\n");
            crossed = 1;
        }
        struct timespec pause = { .tv_nsec = 10 * 1000 * 1000 };
        nanosleep(&pause, NULL);
    }
    printf("%lld\n", crossed ? -1 : a + b);
    return 0;
}
"#;

#[test]
#[ignore = "needs root (it creates a user, or runs as root what it checks); CI runs it as root: `cargo test --test it -- --ignored`"]
fn two_students_at_once_pass_nothing_through_locks() {
    require_root(CREATES_A_USER);
    let dir = tempfile::tempdir().unwrap();
    let sender = source(dir.path(), "sender.c", SENDER);
    let receiver = source(dir.path(), "receiver.c", RECEIVER);
    let tests = Tests::new(&[("20 22\n", "42\n")]);
    let graded = grade_many(&[sender, receiver], &tests, 0, &settings(2));
    for student in &graded {
        let test = &student.result.tests[0];
        assert_eq!(test.verdict, Verdict::Accepted, "{test:#?}");
    }
}

// Issue 20: a tree whose processes keep exiting (and forking) while the
// judge empties its cgroup: the kill loop and `cgroup.kill` race with
// exits, and must end every time with no error, no survivor, no EBUSY.

/// Forks without end; each child forks a grandchild and exits at once, so
/// orphans and zombies appear and vanish while the judge empties the group.
const EXIT_STORM: &str = r#"#include <sys/wait.h>
#include <unistd.h>
int main(void) {
    for (;;) {
        pid_t child = fork();
        if (child == 0) {
            if (fork() == 0) {
                for (volatile int i = 0; i < 20000; i++) {}
                _exit(0);
            }
            _exit(0);
        }
        while (waitpid(-1, 0, WNOHANG) > 0) {}
    }
}
"#;

#[test]
#[ignore = "needs root (it creates a user, or runs as root what it checks); CI runs it as root: `cargo test --test it -- --ignored`"]
fn a_tree_exiting_while_its_cgroup_is_emptied_leaves_nothing() {
    require_root(CREATES_A_USER);
    let isolation = judge::sandbox::Isolation::detect();
    assert_ne!(
        isolation.cgroups,
        judge::sandbox::CgroupLayer::None,
        "this test needs cgroups (as root they are expected): {isolation:?}"
    );
    let dir = open_dir();
    let marker = format!("exit-storm-{}", std::process::id());
    let workspace = judge::runner::Workspace::new().unwrap();
    let program_dir = workspace.path().join("program");
    fs_err::create_dir(&program_dir).unwrap();
    fs_err::set_permissions(&program_dir, std::fs::Permissions::from_mode(0o711)).unwrap();
    let program = program_dir.join(&marker);
    let status = Command::new("gcc")
        .arg("-O2")
        .arg("-o")
        .arg(&program)
        .arg(source(dir.path(), "storm.c", EXIT_STORM))
        .status()
        .unwrap();
    assert!(status.success());
    let mut sandbox =
        judge::sandbox::Sandbox::new(workspace.path(), std::sync::Arc::default()).unwrap();
    let limits = judge::sandbox::Limits {
        cpu_time_ms: 150,
        wall_time_ms: 2000,
        memory_kib: 64 * 1024,
        stdout_bytes: 1024,
        stderr_bytes: 1024,
        processes: 32,
        open_files: 64,
        file_size_kib: 1024,
        scratch_kib: 1024,
    };
    let spec = judge::sandbox::RunSpec {
        program: program.clone(),
        args: Vec::new(),
        stdin: None,
        workdir: None,
        env: Vec::new(),
        read_paths: vec![program_dir.clone()],
        limits,
        trust: judge::sandbox::Trust::Submission,
    };
    for round in 0..15 {
        let measured = sandbox
            .run(&spec)
            .unwrap_or_else(|error| panic!("round {round}: the judge failed: {error:#}"));
        assert!(
            measured.limit_exceeded.is_some(),
            "round {round}: {measured:?}"
        );
        let left = processes_mentioning(Path::new(&marker));
        assert!(left.is_empty(), "round {round}: survivors {left:?}");
    }
    // The worker's cgroup is reused: a plain run after the storm counts
    // nothing of it.
    let quiet = sandbox
        .run(&judge::sandbox::RunSpec {
            program: "/bin/true".into(),
            read_paths: Vec::new(),
            ..spec.clone()
        })
        .unwrap();
    assert!(quiet.succeeded(), "{quiet:?}");
    assert!(quiet.cpu_time_ms < 100, "{quiet:?}");
    drop(sandbox);
    assert!(processes_mentioning(Path::new(&marker)).is_empty());
}
