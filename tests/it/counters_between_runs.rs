//! What a run could count of the run before it on the same worker (issue
//! 19): the kernel's own counters of a reused file system or IPC namespace.
//! They need root (every layer in force), so they are `#[ignore]`d and CI,
//! which runs as root, runs them with `cargo test --test it -- --ignored`.

use crate::run::{grade, settings, Tests};
use crate::support::source;
use crate::support::{
    hostile_source, judge_in, open_dir, ordinary_user, require_root, rooks_tests,
};
use judge::verdict::Verdict;

/// A program that notes the inode number the scratch gives its first file
/// and the identifier its IPC namespace gives its first SysV segment, then
/// leaves a hundred of each behind, and exits 3 so its standard error is
/// in the report. Had the scratch only been emptied, or the IPC namespace
/// kept and proved empty, the next run's first numbers would say how many
/// the run before made: a channel from one student's run to the next. On
/// one worker every run must see the numbers the first saw. (Runs share
/// the worker's IPC namespace now, and `shmget` fails with ENOSYS in each.)
#[test]
#[ignore = "needs root (every layer in force); CI runs it as root: `cargo test --test it -- --ignored`"]
fn a_run_cannot_count_what_the_run_before_made() {
    require_root("the scratch tmpfs and the IPC namespace per run are made as root");
    let dir = tempfile::tempdir().unwrap();
    let program = source(
        dir.path(),
        "counter_courier.c",
        r#"#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <unistd.h>
int main(void) {
    long long a, b;
    if (scanf("%lld %lld", &a, &b) != 2) return 1;
    struct stat st;
    int fd = open("probe", O_CREAT | O_EXCL | O_WRONLY, 0600);
    if (fd < 0 || fstat(fd, &st) != 0) { perror("probe"); return 2; }
    close(fd);
    int segment = shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0600);
    int segment_errno = segment < 0 ? errno : 0;
    fprintf(stderr, "inode %lu segment %d errno %d\n",
            (unsigned long)st.st_ino, segment, segment_errno);
    char name[32];
    for (int i = 0; i < 100; i++) {
        snprintf(name, sizeof name, "left%d", i);
        int left = open(name, O_CREAT | O_WRONLY, 0600);
        if (left >= 0) close(left);
        shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0600);
    }
    return 3;
}
"#,
    );
    let tests = Tests::new(&[
        ("1 2\n", "3\n"),
        ("2 3\n", "5\n"),
        ("3 4\n", "7\n"),
        ("4 5\n", "9\n"),
    ]);
    let graded = grade(&program, &tests, 0, &settings(1));
    let tests = &graded.result.tests;
    assert!(
        tests
            .iter()
            .all(|test| test.verdict == Verdict::RuntimeError && test.exit_code == Some(3)),
        "{tests:#?}"
    );
    let seen: Vec<&str> = tests
        .iter()
        .map(|test| test.stderr.as_deref().unwrap_or(""))
        .collect();
    assert!(seen[0].contains("inode "), "{seen:?}");
    // The filter refuses SysV IPC (see the test below), so no run makes a
    // segment: what keeps the runs of one IPC namespace apart.
    let refused = format!("segment -1 errno {}", libc::ENOSYS);
    assert!(seen[0].contains(&refused), "{seen:?}");
    assert!(
        seen.iter().all(|line| *line == seen[0]),
        "a run saw what the run before made: {seen:?}"
    );
}

/// The system-call filter refuses every SysV IPC and POSIX message queue
/// call (ENOSYS), so a worker's runs can share one IPC namespace made once
/// instead of one made per run (issue 19: about 0.2 ms of every run); that
/// namespace is the worker's own, so a segment the host holds is not even
/// listed in `/proc/sysvipc/shm`. Each run prints the four errnos and how
/// many segments it sees (-1: the file cannot be read), and exits 3 so its
/// standard error is in the report.
#[test]
#[ignore = "needs root (every layer in force); CI runs it as root: `cargo test --test it -- --ignored`"]
fn ipc_calls_fail_with_enosys_and_the_hosts_segments_are_not_listed() {
    require_root("the worker's IPC namespace is made as root here");
    // A segment of the host's, which no run may see; removed at the end.
    let made = std::process::Command::new("ipcmk")
        .args(["-M", "4096"])
        .output()
        .unwrap();
    assert!(made.status.success(), "ipcmk: {made:?}");
    let host = String::from_utf8_lossy(&made.stdout)
        .rsplit(':')
        .next()
        .unwrap_or("")
        .trim()
        .to_owned();
    assert!(host.parse::<u32>().is_ok(), "ipcmk said {made:?}");
    struct Segment(String);
    impl Drop for Segment {
        fn drop(&mut self) {
            // Gone already is fine: ignore the outcome.
            let _ = std::process::Command::new("ipcrm")
                .args(["-m", &self.0])
                .status();
        }
    }
    let _segment = Segment(host.clone());
    let listed_on_host = fs_err::read_to_string("/proc/sysvipc/shm")
        .unwrap()
        .lines()
        .skip(1)
        .filter(|line| line.split_whitespace().nth(1) == Some(host.as_str()))
        .count();
    assert_eq!(
        listed_on_host, 1,
        "the host's own listing lacks segment {host}"
    );
    let dir = tempfile::tempdir().unwrap();
    let program = source(
        dir.path(),
        "ipc_prober.c",
        r#"#include <errno.h>
#include <fcntl.h>
#include <mqueue.h>
#include <stdio.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
int main(void) {
    long long a, b;
    if (scanf("%lld %lld", &a, &b) != 2) return 1;
    int shm = shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0600), shm_errno = shm < 0 ? errno : 0;
    int msg = msgget(IPC_PRIVATE, IPC_CREAT | 0600), msg_errno = msg < 0 ? errno : 0;
    int sem = semget(IPC_PRIVATE, 1, IPC_CREAT | 0600), sem_errno = sem < 0 ? errno : 0;
    mqd_t mq = mq_open("/judge-probe", O_CREAT | O_RDWR, 0600, NULL);
    int mq_errno = mq == (mqd_t)-1 ? errno : 0;
    int listed = -1;
    FILE *file = fopen("/proc/sysvipc/shm", "r");
    if (file) {
        char line[512];
        listed = 0;
        while (fgets(line, sizeof line, file)) listed++;
        listed--; /* the header */
        fclose(file);
    }
    fprintf(stderr, "shm %d msg %d sem %d mq %d listed %d\n",
            shm_errno, msg_errno, sem_errno, mq_errno, listed);
    return 3;
}
"#,
    );
    let tests = Tests::new(&[("1 2\n", "3\n"), ("2 3\n", "5\n")]);
    let graded = grade(&program, &tests, 0, &settings(1));
    for test in &graded.result.tests {
        assert_eq!(test.exit_code, Some(3), "{test:#?}");
        let line = test.stderr.as_deref().unwrap_or("").trim();
        let errnos = format!("shm {e} msg {e} sem {e} mq {e} listed ", e = libc::ENOSYS);
        let listed = line
            .strip_prefix(&errnos)
            .unwrap_or_else(|| panic!("an IPC call was not refused with ENOSYS: {line:?}"));
        assert!(
            listed == "0" || listed == "-1",
            "a run saw segments of the host: {line:?}"
        );
    }
}

/// What a run could count of the whole host, not of its worker (issue 35):
/// the cookies of its sockets (a host-wide counter: two cookies tell how
/// many sockets other runs made in between) and pidfds (their inode
/// numbers count every pidfd of the host) are refused, as is
/// `memfd_secret`; `memfd_create` fails (ENOSYS) where the run has no
/// memory cgroup, whose pages left in flight in a unix socket would
/// outlive the run on no one's account. The hostile fixture prints each
/// call's errno and exits 3, through the binary, as root and as an
/// ordinary user (without cgroups there). Before the fix every call worked.
/// See: issue #35
fn host_wide_counters_are_refused(user: Option<(u32, u32)>) {
    require_root("it runs the judge as a user it creates, or every layer as root");
    let dir = open_dir();
    hostile_source(dir.path(), "host_counters.c");
    let tests = rooks_tests(dir.path());
    let judge = assert_cmd::cargo::cargo_bin!("judge");
    let (_, report, stderr) = judge_in(
        dir.path(),
        judge,
        user,
        &format!(
            "run rooks host_counters.c --tests {} --jobs 2",
            tests.display()
        ),
        "",
    );
    // memfd_create works only where the run's memory is a cgroup's.
    let memfd_create = match report["isolation"]["memory"].as_str() {
        Some("cgroup") => 0,
        Some("rlimit") => libc::ENOSYS,
        other => panic!("memory isolation {other:?}: {report:#}"),
    };
    let expected = format!(
        "SO_COOKIE {p} SO_NETNS_COOKIE {p} SO_PEERPIDFD {p} SO_PASSPIDFD {p} \
         pidfd_open {n} clone_pidfd {n} memfd_secret {e} memfd_create {memfd_create}",
        p = libc::ENOPROTOOPT,
        n = libc::ENOSYS,
        e = libc::EPERM,
    );
    let runs = report["results"][0]["tests"].as_array().unwrap();
    assert!(!runs.is_empty(), "{report:#}\n{stderr}");
    for run in runs {
        assert_eq!(run["exit_code"], 3, "{run:#}\n{stderr}");
        assert_eq!(
            run["stderr"].as_str().map(str::trim),
            Some(expected.as_str()),
            "as {user:?}: a host-wide counter was reached"
        );
    }
}

#[test]
#[ignore = "needs root (every layer in force); CI runs it as root: `cargo test --test it -- --ignored`"]
fn r35_host_wide_counters_are_refused_as_root() {
    host_wide_counters_are_refused(None);
}

#[test]
#[ignore = "needs root (it creates a user and runs the judge as that user); CI runs it as root: `cargo test --test it -- --ignored`"]
fn r35_host_wide_counters_are_refused_as_an_ordinary_user() {
    host_wide_counters_are_refused(Some(ordinary_user()));
}
