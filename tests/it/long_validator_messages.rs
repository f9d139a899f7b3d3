//! A validator's message past the 16 KiB the judge reads of one is cut
//! there, and its exit code still decides (issue #34, break-it findings 14
//! and 15): a verbose output validator's 20 KB `judgemessage.txt` made
//! every test JE (exit 3), and an input validator that accepted but printed
//! 31 KB refused the package (exit 2). problemtools and BAPCtools decide by
//! the exit code; so does the judge now, saying the message was cut.

use crate::support::{hello_world_package, Dir};

/// A 2025-09 pass-fail `problem.yaml` that names its problem only.
const HELLO_2025_09: &str = "problem_format_version: 2025-09\ntype: pass-fail\nname: Hello\n";

/// A legacy Kattis package `p`: one test, an accepted and a wrong
/// submission, and an output validator that compares tokens, writing 2000
/// lines (about 20 KB) to `judgemessage.txt` first.
fn verbose_output_validator(dir: &Dir) {
    hello_world_package(dir, "p", "name: Hello\nvalidation: custom\n")
        .submission("wrong_answer/wrong.py", "print('Bye')\n")
        .file(
            "output_validators/v/v.py",
            "import os, sys\n\
             output = sys.stdin.read()\n\
             answer = open(sys.argv[2]).read()\n\
             with open(os.path.join(sys.argv[3], 'judgemessage.txt'), 'w') as message:\n\
             \x20   for i in range(2000):\n\
             \x20       message.write('diff line %d\\n' % i)\n\
             sys.exit(42 if output.split() == answer.split() else 43)\n",
        )
        .build();
}

#[test]
fn an_output_validators_long_judgemessage_is_cut_and_its_verdict_kept() {
    let dir = Dir::new();
    verbose_output_validator(&dir);
    let run = dir.judge(&["grade", "--package", "p", "--json", "report.json"]);
    // Both submissions get their folder's verdict: no JE.
    run.expect_code(0);
    let report = fs_err::read_to_string(dir.path().join("report.json")).unwrap();
    assert!(!report.contains("\"JE\""), "{report}");
    assert!(report.contains("\"WA\""), "{report}");
    // The wrong answer's reason starts with the message and says it was cut.
    assert!(report.contains("diff line 0"), "{report}");
    assert!(
        report.contains(
            "more bytes not shown: the message was cut at the 16384 bytes the judge reads"
        ),
        "{report}"
    );
}

#[test]
fn an_input_validator_that_accepts_with_a_long_message_accepts() {
    let dir = Dir::new();
    hello_world_package(&dir, "p", HELLO_2025_09)
        // 2000 lines, about 31 KB, on stdout and stderr; exit 42: valid.
        .file(
            "input_validators/validate.py",
            "import sys\n\
             sys.stdin.read()\n\
             for i in range(1000):\n\
             \x20   print('read token', i)\n\
             \x20   print('checked token', i, file=sys.stderr)\n\
             sys.exit(42)\n",
        )
        .build();
    let run = dir.judge(&["grade", "--package", "p"]);
    run.expect_code(0);
}

#[test]
fn an_input_validator_that_rejects_with_a_long_message_says_it_was_cut() {
    let dir = Dir::new();
    hello_world_package(&dir, "p", HELLO_2025_09)
        .file(
            "input_validators/validate.py",
            "import sys\n\
             sys.stdin.read()\n\
             for i in range(2000):\n\
             \x20   print('bad token', i)\n\
             sys.exit(43)\n",
        )
        .build();
    let run = dir.judge(&["grade", "--package", "p"]);
    // Refused as invalid input, for the validator's reason, not as a fault.
    run.expect_code(2);
    let stderr = run.stderr();
    assert!(
        stderr.contains("rejected the input: bad token 0"),
        "{}",
        run.transcript()
    );
    assert!(
        stderr.contains("the message was cut at the 16384 bytes the judge reads"),
        "{}",
        run.transcript()
    );
    assert!(
        !stderr.contains("a reason may have"),
        "{}",
        run.transcript()
    );
}
