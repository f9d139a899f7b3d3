//! A host loaded by others must not turn an honest program's run into the
//! student's TLE (issue 32): the time a run's threads waited for a CPU
//! while runnable is added to its wall clock (up to twice its
//! limit), so an honest program the host starves finishes and is judged
//! by its CPU time; a program that never ends is still TLE (never JE,
//! which a program could earn by making itself wait), its message saying
//! the host was busy; a program that sleeps stays TLE at once. The
//! starvation is made, not hoped for: the judge is pinned to one core
//! beside a busy loop pinned there at a higher priority (`nice -n -10`:
//! the run gets about a tenth of the core).

use crate::support::{
    copy_fixture, judge_in, open_dir, ordinary_user, require_root, rooks_tests, source, Dir,
};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};

/// Why these tests need root.
const NEEDS_ROOT: &str =
    "it raises a busy loop's priority (nice -10), and runs the judge as a user";

/// A busy loop on core 0 at nice -10, killed when dropped (and by
/// `timeout` in any case).
struct Hog(Child);

impl Hog {
    fn start() -> Hog {
        let child = Command::new("nice")
            .args([
                "-n", "-10", "taskset", "-c", "0", "timeout", "-s", "KILL", "120",
            ])
            .args(["sh", "-c", "while :; do :; done"])
            .spawn()
            .expect("nice, taskset and timeout run");
        Hog(child)
    }
}

impl Drop for Hog {
    fn drop(&mut self) {
        // `timeout` passes the signal on to the loop.
        let _ = Command::new("kill")
            .args(["-TERM", &self.0.id().to_string()])
            .status();
        let _ = self.0.wait();
    }
}

/// Compiles `source` into the executable `name` in `dir`, before the
/// host is made busy.
fn executable(dir: &Path, name: &str, text: &str) {
    let source_path = source(dir, &format!("{name}.src.c"), text);
    let output = dir.join(name);
    let status = Command::new("cc")
        .args(["-O2", "-o"])
        .arg(&output)
        .arg(&source_path)
        .status()
        .expect("cc runs");
    assert!(status.success(), "cc {name}");
    fs_err::remove_file(&source_path).unwrap();
    fs_err::set_permissions(&output, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// A script in `dir` that runs the judge pinned to the hog's core.
fn pinned_judge(dir: &Path) -> PathBuf {
    let pinned = dir.join("pinned-judge");
    fs_err::write(
        &pinned,
        format!(
            "#!/bin/sh\nexec taskset -c 0 '{}' \"$@\"\n",
            assert_cmd::cargo::cargo_bin!("judge").display()
        ),
    )
    .unwrap();
    fs_err::set_permissions(&pinned, std::fs::Permissions::from_mode(0o755)).unwrap();
    pinned
}

/// 300 ms of CPU, then the sample's right answer.
const HONEST: &str = "#include <stdio.h>\n#include <time.h>\n\
    int main(void) { volatile unsigned long x = 0;\n\
    while (clock() < CLOCKS_PER_SEC * 3 / 10) x++;\n\
    puts(\"5\\n1\\n5\\n2\\n4\"); return 0; }\n";

const SLEEPER: &str = "#include <unistd.h>\nint main(void) { for (;;) pause(); }\n";

/// Never ends, on the CPU all the time it is given.
const SPINNER: &str = "int main(void) { volatile unsigned long x = 0; for (;;) x++; }\n";

fn a_starved_program_is_not_the_students_fault(user: Option<(u32, u32)>) {
    require_root(NEEDS_ROOT);
    let dir = open_dir();
    rooks_tests(dir.path());
    executable(dir.path(), "honest", HONEST);
    executable(dir.path(), "sleeper", SLEEPER);
    executable(dir.path(), "spinner", SPINNER);
    let pinned = pinned_judge(dir.path());
    let (code, report, stderr) = {
        let _hog = Hog::start();
        judge_in(
            dir.path(),
            &pinned,
            user,
            "run rooks honest sleeper spinner --tests tests --random 0 --time-limit 1000 --jobs 1",
            "",
        )
    };
    let test = |index: usize| &report["results"][index]["tests"][0];
    let (honest, sleeper, spinner) = (test(0), test(1), test(2));
    // The honest program waited for the CPU past its wall limit, was given
    // that time, and is judged by its answer.
    // How starved it is depends on what else the host runs: given its
    // wait, it is AC past its wall limit; starved past twice the limit
    // (the most it is given), it stays TLE saying the host was busy. Never
    // JE, never a plain TLE.
    let honest_wall = honest["wall_ms"].as_u64().unwrap();
    if honest["verdict"] == "AC" {
        assert!(
            honest_wall > 3000,
            "not starved past its wall limit, so this proves nothing: {honest:#}"
        );
    } else {
        assert_eq!(honest["verdict"], "TLE", "{report:#}\n{stderr}");
        let message = honest["message"].as_str().unwrap();
        assert!(
            message.starts_with("the host was busy: the program waited ")
                && honest_wall >= 6000
                && honest["cpu_wait_ms"].as_u64().unwrap() * 2 >= honest_wall,
            "{honest:#}"
        );
    }
    // The sleeper waited for no CPU: TLE at once, never run again.
    assert_eq!(sleeper["verdict"], "TLE", "{report:#}");
    assert!(sleeper.get("rerun").is_none(), "{sleeper:#}");
    let waited = sleeper["cpu_wait_ms"].as_u64().unwrap();
    assert!(
        waited * 4 < sleeper["wall_ms"].as_u64().unwrap(),
        "{sleeper:#}"
    );
    // A program that never ends is TLE whatever the host did, never the
    // judge's JE; when the host starved it, its message says so.
    assert_eq!(spinner["verdict"], "TLE", "{report:#}\n{stderr}");
    let message = spinner["message"].as_str().unwrap();
    if spinner["rerun"] == true {
        assert!(
            message.starts_with("the host was busy: the program waited ")
                && message.contains("grade it again on a quieter host"),
            "{message}"
        );
        assert!(
            stderr
                .lines()
                .any(|line| line.starts_with("warning: the host was busy")),
            "{stderr}"
        );
    }
    // No JE anywhere: exit 1 (not every verdict is AC).
    assert_eq!(code, Some(1), "{stderr}");
}

#[test]
#[ignore = "needs root (it raises a busy loop's priority); CI runs it as root: `cargo test --test it -- --ignored`"]
fn r32_a_program_the_host_starves_is_not_tle_as_root() {
    a_starved_program_is_not_the_students_fault(None);
}

#[test]
#[ignore = "needs root (it raises a busy loop's priority, and creates a user); CI runs it as root: `cargo test --test it -- --ignored`"]
fn r32_a_program_the_host_starves_is_not_tle_as_an_ordinary_user() {
    a_starved_program_is_not_the_students_fault(Some(ordinary_user()));
}

/// 800 ms of CPU (an honest program near its 1000 ms limit: a tenth of a
/// core takes longer than the most wall clock it may be given), then the
/// game of `guess` played by halving.
const HONEST_GUESSER: &str = "#include <stdio.h>\n#include <string.h>\n#include <time.h>\n\
    int main(void) { volatile unsigned long x = 0;\n\
    while (clock() < CLOCKS_PER_SEC * 8 / 10) x++;\n\
    int low = 1, high = 1000; char reply[16];\n\
    while (low <= high) { int middle = (low + high) / 2;\n\
    printf(\"%d\\n\", middle); fflush(stdout);\n\
    if (scanf(\"%15s\", reply) != 1 || !strcmp(reply, \"correct\")) return 0;\n\
    if (!strcmp(reply, \"higher\")) low = middle + 1; else high = middle - 1; }\n\
    return 0; }\n";

/// An interactive run the host starves is judged as a run on a file is
/// (issue 32): its wait for a CPU is measured and kept, so it is AC when
/// the wall clock added for that wait is enough, and otherwise run alone
/// and TLE saying the host was busy. Before, the wait was dropped: a
/// program starved past twice its wall limit was a plain TLE at once, its
/// message naming a limit it had been given twice over.
#[test]
#[ignore = "needs root (it raises a busy loop's priority); CI runs it as root: `cargo test --test it -- --ignored`"]
fn r32_an_interactive_program_the_host_starves_is_not_a_plain_tle() {
    require_root(NEEDS_ROOT);
    let dir = Dir::new();
    copy_fixture(&dir, "interactive/guess", "guess");
    // The sample alone, and one submission: the starved runs are long.
    for folder in ["guess/submissions", "guess/data/secret"] {
        fs_err::remove_dir_all(dir.path().join(folder)).unwrap();
    }
    dir.create("guess/submissions/accepted/honest.c", HONEST_GUESSER);
    let pinned = pinned_judge(dir.path());
    let (code, report, stderr) = {
        let _hog = Hog::start();
        judge_in(dir.path(), &pinned, None, "grade --package guess", "")
    };
    let honest = &report["results"][0]["tests"][0];
    let wall = honest["wall_ms"].as_u64().unwrap();
    if honest["verdict"] == "AC" {
        assert!(
            wall > 3000,
            "not starved past its wall limit, so this proves nothing: {honest:#}"
        );
        assert_eq!(code, Some(0), "{stderr}");
    } else {
        assert_eq!(honest["verdict"], "TLE", "{report:#}\n{stderr}");
        let message = honest["message"].as_str().unwrap();
        assert!(
            message.starts_with("the host was busy: the program waited ")
                && honest["rerun"] == true
                && wall >= 6000
                && honest["cpu_wait_ms"].as_u64().unwrap() * 2 >= wall,
            "{honest:#}"
        );
        assert_eq!(code, Some(1), "{stderr}");
    }
}
