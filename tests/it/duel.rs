//! A submission that floods the judge's own engine (matchsticks-duel) with
//! output and no line break (issue #35): the judge searched the whole
//! growing line again after every 4 KiB it read (5 s of its CPU for one
//! test) and let the flood run to the wall limit. A flood past the output
//! limit is OLE, as on a plain test, and is stopped when it passes it.

use crate::support::{repository, Dir};

/// The wall-clock limit of a C submission on matchsticks-duel: 2 s of CPU,
/// three times over.
const C_WALL_MS: u64 = 6_000;

#[test]
fn r35_a_flood_without_a_line_break_is_ole_and_stopped_at_the_limit() {
    // See: issue #35.
    let dir = Dir::new();
    let sample = repository().join("problems/matchsticks-duel/tests");
    for name in ["sample-1.in", "sample-1.ans"] {
        dir.create(
            &format!("one/{name}"),
            fs_err::read(sample.join(name)).unwrap(),
        );
    }
    dir.create(
        "flood.c",
        "#include <string.h>\n#include <unistd.h>\n\
         int main(void) {\n    static char block[1 << 16];\n    memset(block, 'x', sizeof block);\n    \
         for (;;) if (write(1, block, sizeof block) < 0) return 0;\n}\n",
    );
    let run = dir.judge(&[
        "run",
        "matchsticks-duel",
        "flood.c",
        "--tests",
        "one",
        "--random",
        "0",
        "--json",
        "report.json",
    ]);
    let report = crate::support::report(&dir.read("report.json"));
    let test = &report["results"][0]["tests"][0];
    assert_eq!(test["verdict"], "OLE", "{test:#}\n{}", run.stderr());
    assert_eq!(
        test["message"],
        "the submission wrote more than 64 KiB to the judge"
    );
    assert!(
        test["wall_ms"].as_u64().unwrap() < C_WALL_MS / 2,
        "stopped when it passed the limit, not at the wall limit: {} ms",
        test["wall_ms"]
    );
}

/// A submission that closes its stdout and sleeps until it is stopped is
/// TLE, as Kattis judges it (issue #34, item 6): the engine's decision on
/// the early end of file comes after the submission's end, so the time
/// limit decides, not a wrong answer.
#[test]
fn r34_closing_stdout_and_sleeping_is_tle() {
    let dir = Dir::new();
    let sample = repository().join("problems/matchsticks-duel/tests");
    for name in ["sample-1.in", "sample-1.ans"] {
        dir.create(
            &format!("one/{name}"),
            fs_err::read(sample.join(name)).unwrap(),
        );
    }
    dir.create(
        "closes.c",
        "#include <stdio.h>\n#include <unistd.h>\n\
         int main(void) {\n    fclose(stdout);\n    for (;;) sleep(10);\n}\n",
    );
    let run = dir.judge(&[
        "run",
        "matchsticks-duel",
        "closes.c",
        "--tests",
        "one",
        "--random",
        "0",
        "--json",
        "report.json",
    ]);
    let report = crate::support::report(&dir.read("report.json"));
    let test = &report["results"][0]["tests"][0];
    assert_eq!(test["verdict"], "TLE", "{test:#}\n{}", run.stderr());
    assert!(
        test["wall_ms"].as_u64().unwrap() >= C_WALL_MS,
        "ran until its wall limit: {test:#}"
    );
}
