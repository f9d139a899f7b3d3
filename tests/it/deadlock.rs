//! A game against the judge's own engine (matchsticks-duel) that deadlocks
//! — the submission asleep reading its stdin while the judge waits for a
//! move it never flushed — ends at once as TLE; a submission that only
//! looks asleep (a sleep, a child or a thread that answers later, an
//! alarm whose handler answers) still plays to its end and is accepted.

use crate::support::{repository, require_root, Dir};

/// The wall-clock limit of a Python submission on matchsticks-duel: 6 s
/// of CPU, three times over.
const PYTHON_WALL_MS: u64 = 18_000;

/// The accepted minimax player with its `print` of each move replaced by
/// `say(move, first)`, which `prelude` defines.
fn player(prelude: &str) -> String {
    let source = fs_err::read_to_string(
        repository().join("submissions/matchsticks-duel/accepted/minimax.py"),
    )
    .unwrap();
    let printed = "print(\"%d %d %s\" % chosen[:3], flush=True)";
    assert!(
        source.contains(printed),
        "the accepted player prints its moves so"
    );
    let source = source
        .replace(
            printed,
            "say(\"%d %d %s\" % chosen[:3], first)\n            first = False",
        )
        .replace(
            "    for h, v in boards:\n",
            "    first = True\n    for h, v in boards:\n",
        )
        .replace("\nmain()", "");
    format!("{source}\n{prelude}\nmain()\n")
}

/// Runs `program` on one test of matchsticks-duel (its first sample) and
/// returns that test's report: verdict, message, wall_ms.
fn play(program: &str) -> serde_json::Value {
    let dir = Dir::new();
    let sample = repository().join("problems/matchsticks-duel/tests");
    for name in ["sample-1.in", "sample-1.ans"] {
        dir.create(
            &format!("one/{name}"),
            fs_err::read(sample.join(name)).unwrap(),
        );
    }
    dir.create("player.py", program);
    let run = dir.judge(&[
        "run",
        "matchsticks-duel",
        "player.py",
        "--tests",
        "one",
        "--random",
        "0",
        "--json",
        "report.json",
    ]);
    let report = crate::support::report(&dir.read("report.json"));
    let tests = report["results"][0]["tests"].as_array().unwrap().clone();
    assert_eq!(tests.len(), 1, "{}", run.stderr());
    tests[0].clone()
}

fn verdict(test: &serde_json::Value) -> &str {
    test["verdict"].as_str().unwrap()
}

fn wall_ms(test: &serde_json::Value) -> u64 {
    test["wall_ms"].as_u64().unwrap()
}

/// The deadlock is proved from the run's cgroup and `/proc`, which the
/// judge has as root; unprivileged it waits for the wall limit as before.
#[test]
#[ignore = "needs root (cgroups): cargo test --test it -- --ignored"]
fn a_move_never_flushed_is_a_tle_at_once_not_at_the_wall_limit() {
    require_root("the run's cgroup lists its processes");
    let program = fs_err::read_to_string(
        repository().join("submissions/matchsticks-duel/time_limit_exceeded/no_flush.py"),
    )
    .unwrap();
    let test = play(&program);
    assert_eq!(verdict(&test), "TLE", "{test}");
    let message = test["message"].as_str().unwrap();
    assert!(
        message
            .contains("waiting for input while the judge waited for its output (never flushed?)"),
        "{message}"
    );
    assert!(
        wall_ms(&test) < PYTHON_WALL_MS / 2,
        "ended at once, not slept out: {test}"
    );
}

#[test]
#[ignore = "needs root (cgroups): cargo test --test it -- --ignored"]
fn a_parent_and_child_both_reading_with_the_move_unflushed_are_a_deadlock() {
    require_root("the run's cgroup lists its processes");
    // The child blocks reading stdin too: every process of the run sleeps
    // on the same pipe. SIGALRM is ignored: an alarm that could kill one of
    // two processes would be a way out (its parent may catch SIGCHLD).
    let program = player(
        "import os, signal\n\
         signal.signal(signal.SIGALRM, signal.SIG_IGN)\n\
         def say(move, first):\n    \
             if first and os.fork() == 0:\n        \
                 os.read(0, 1)\n        \
                 os._exit(0)\n    \
             sys.stdout.write(move + '\\n')\n",
    );
    let test = play(&program);
    assert_eq!(verdict(&test), "TLE", "{test}");
    assert!(wall_ms(&test) < PYTHON_WALL_MS / 2, "{test}");
}

#[test]
fn a_submission_that_sleeps_before_its_move_is_still_accepted() {
    let program = player(
        "import time\n\
         def say(move, first):\n    \
             if first:\n        \
                 time.sleep(1)\n    \
             print(move, flush=True)\n",
    );
    let test = play(&program);
    assert_eq!(verdict(&test), "AC", "{test}");
    assert!(wall_ms(&test) >= 1000, "it slept: {test}");
}

#[test]
fn a_child_that_writes_the_move_while_its_parent_reads_is_still_accepted() {
    // The parent sleeps in a read of stdin; its child holds stdout, sleeps,
    // then writes the move: no deadlock, since the child is not reading.
    let program = player(
        "import os, time\n\
         def say(move, first):\n    \
             if not first:\n        \
                 print(move, flush=True)\n        \
                 return\n    \
             if os.fork() == 0:\n        \
                 time.sleep(1)\n        \
                 print(move, flush=True)\n        \
                 os._exit(0)\n",
    );
    let test = play(&program);
    assert_eq!(verdict(&test), "AC", "{test}");
    assert!(wall_ms(&test) >= 1000, "{test}");
}

#[test]
fn a_thread_that_writes_the_move_while_the_main_thread_reads_is_still_accepted() {
    let program = player(
        "import threading, time\n\
         def later(move):\n    \
             time.sleep(1)\n    \
             print(move, flush=True)\n\
         def say(move, first):\n    \
             if first:\n        \
                 threading.Thread(target=later, args=(move,)).start()\n    \
             else:\n        \
                 print(move, flush=True)\n",
    );
    let test = play(&program);
    assert_eq!(verdict(&test), "AC", "{test}");
    assert!(wall_ms(&test) >= 1000, "{test}");
}

#[test]
fn an_alarm_whose_handler_writes_the_move_is_still_accepted() {
    // Every thread sleeps in a read of the empty stdin, but SIGALRM is
    // caught: the alarm interrupts the read and the handler answers.
    let program = player(
        "import signal\n\
         def say(move, first):\n    \
             if not first:\n        \
                 print(move, flush=True)\n        \
                 return\n    \
             signal.signal(signal.SIGALRM, lambda *_: print(move, flush=True))\n    \
             signal.alarm(1)\n",
    );
    let test = play(&program);
    assert_eq!(verdict(&test), "AC", "{test}");
    assert!(wall_ms(&test) >= 1000, "{test}");
}

#[test]
fn a_child_killed_by_its_alarm_whose_parent_catches_sigchld_is_still_accepted() {
    // Parent and child both sleep in a read of the empty stdin; the child's
    // SIGALRM is uncaught, so its alarm kills it, and the parent's SIGCHLD
    // handler writes the move: a way out, not a deadlock.
    let program = player(
        "import os, signal\n\
         def say(move, first):\n    \
             if not first:\n        \
                 print(move, flush=True)\n        \
                 return\n    \
             signal.signal(signal.SIGCHLD, lambda *_: print(move, flush=True))\n    \
             if os.fork() == 0:\n        \
                 signal.alarm(1)\n        \
                 os.read(0, 1)\n        \
                 os._exit(0)\n",
    );
    let test = play(&program);
    assert_eq!(verdict(&test), "AC", "{test}");
    assert!(wall_ms(&test) >= 1000, "{test}");
}

#[test]
#[ignore = "needs root (cgroups): cargo test --test it -- --ignored"]
fn a_child_killed_by_its_alarm_that_holds_the_only_stdout_ends_the_output_not_a_tle() {
    require_root("the run's cgroup lists its processes");
    // The parent closes its stdout; the child, the last writer, dies of
    // its uncaught alarm: the judge reads the end of the output (WA), as
    // it did before deadlocks were told.
    let program = player(
        "import os, signal\n\
         def say(move, first):\n    \
             if os.fork() == 0:\n        \
                 signal.alarm(1)\n        \
                 os.read(0, 1)\n        \
                 os._exit(0)\n    \
             os.close(1)\n",
    );
    let test = play(&program);
    assert_eq!(verdict(&test), "WA", "{test}");
    assert!(wall_ms(&test) >= 1000, "{test}");
}
