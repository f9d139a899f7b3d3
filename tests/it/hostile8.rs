//! What a run could count of the run before it on the same worker (issue
//! 19): the kernel's own counters of a reused file system or IPC namespace.
//! They need root (every layer in force), so they are `#[ignore]`d and CI,
//! which runs as root, runs them with `cargo test --test it -- --ignored`.

use crate::hostile2::source;
use crate::run::{grade, settings, Tests};
use crate::support::require_root;
use judge::verdict::Verdict;

/// A program that notes the inode number the scratch gives its first file
/// and the identifier its IPC namespace gives its first SysV segment, then
/// leaves a hundred of each behind, and exits 3 so its standard error is
/// in the report. Had the scratch only been emptied, or the IPC namespace
/// kept and proved empty, the next run's first numbers would say how many
/// the run before made: a channel from one student's run to the next. On
/// one worker every run must see the numbers the first saw.
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
    assert!(
        seen.iter().all(|line| *line == seen[0]),
        "a run saw what the run before made: {seen:?}"
    );
}
