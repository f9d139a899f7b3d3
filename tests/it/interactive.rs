//! Interactive and multi-pass Kattis packages graded end to end through
//! `judge grade --package` and `judge run` (issue #15): the verdict order of
//! trusted judges, the transcript, and a package's misbehaving validator
//! judged as the package's fault (JE naming it), never the submission's.

use crate::support::{assert_folder_verdicts, line_of, repository, Dir, PackageBuilder};

fn fixture(name: &str) -> String {
    repository()
        .join("tests/fixtures/interactive")
        .join(name)
        .display()
        .to_string()
}

#[test]
fn every_guess_submission_gets_its_folders_verdict() {
    let dir = Dir::new();
    let package = fixture("guess");
    let run = dir.judge(&["grade", "--package", &package]);
    let out = run.stdout();
    assert_eq!(run.code(), 0, "{out}{}", run.stderr());
    assert_folder_verdicts(
        &out,
        &[
            ("accepted/binary.cpp", "AC"),
            ("accepted/binary.py", "AC"),
            ("wrong_answer/linear.cpp", "WA"),
            ("wrong_answer/hangs_after_rejection.cpp", "WA"),
            ("time_limit_exceeded/no_flush.cpp", "TLE"),
            ("time_limit_exceeded/spins_after_correct.cpp", "TLE"),
            ("run_time_error/aborts_after_correct.cpp", "RE"),
            // Kattis holds the validator's input open until the submission
            // exits (issue #34, item 6): closing stdout and running on is
            // TLE, closing it and crashing is RE, never the validator's WA
            // on an early end of file.
            ("time_limit_exceeded/closes_stdout_sleeps.c", "TLE"),
            ("time_limit_exceeded/closes_stdout_spins.py", "TLE"),
            ("run_time_error/closes_stdout_aborts.cpp", "RE"),
            // What the validator rejected before the submission closed its
            // stdout is WA, however the submission goes on.
            (
                "wrong_answer/rejected_then_closes_stdout_and_sleeps.c",
                "WA",
            ),
            ("wrong_answer/rejected_then_closes_stdout_and_exits.c", "WA"),
        ],
    );
    for name in [
        "rejected_then_closes_stdout_and_sleeps",
        "rejected_then_closes_stdout_and_exits",
    ] {
        assert!(
            line_of(&out, name).contains("2000 is outside 1..1000"),
            "{out}"
        );
    }
    // The validator rejected and exited first: WA with its message, though
    // the submission then spun until it was stopped.
    assert!(
        line_of(&out, "hangs_after_rejection").contains("guess 1: 0 is outside 1..1000"),
        "{out}"
    );
    assert!(
        line_of(&out, "linear.cpp").contains("10 guesses and 42 not found"),
        "{out}"
    );
    // Both waited on each other: the wall clock ended the pair, and says so.
    assert!(
        line_of(&out, "no_flush").contains("wall-clock time exceeded")
            && line_of(&out, "no_flush").contains("neither side had written anything"),
        "{out}"
    );
}

#[test]
fn a_run_reports_the_transcript_like_an_interaction_file() {
    let dir = Dir::new();
    let submission = format!("{}/submissions/accepted/binary.cpp", fixture("guess"));
    let problems = repository().join("tests/fixtures/interactive");
    let run = dir.judge(&[
        "run",
        "--problems-dir",
        &problems.display().to_string(),
        "guess",
        &submission,
        "--json",
        "-",
    ]);
    run.expect_code(0);
    let report = crate::support::report(&run.stdout());
    let tests = report["results"][0]["tests"].as_array().unwrap();
    let sample = tests
        .iter()
        .find(|test| test["name"] == "sample/1")
        .unwrap();
    assert_eq!(sample["verdict"], "AC");
    let expected =
        fs_err::read_to_string(format!("{}/data/sample/1.interaction", fixture("guess"))).unwrap();
    assert_eq!(sample["excerpt"]["actual"], expected.as_str());
}

#[test]
fn a_two_pass_package_runs_the_submission_again_on_nextpass_in() {
    let dir = Dir::new();
    let run = dir.judge(&["grade", "--package", &fixture("twopass")]);
    let out = run.stdout();
    assert_eq!(run.code(), 0, "{out}{}", run.stderr());
    assert!(line_of(&out, "accepted/both.py").contains(": AC "), "{out}");
    // Right in the first pass, wrong in the second: the second pass ran.
    assert!(
        line_of(&out, "first_only.py").contains("pass 2: expected 12, got 7 in pass 2 of 2"),
        "{out}"
    );
    assert!(
        line_of(&out, "crashes_in_second.py").contains("exit code 3 in pass 2 of 2"),
        "{out}"
    );
}

/// A package "double": the validator sends a number, the submission
/// answers twice it; `validator` is the output validator's Python source.
fn double_package(dir: &Dir, yaml: &str, validator: &str) -> String {
    PackageBuilder::kattis(dir, "double")
        .manifest(yaml)
        .test("sample/1", "21\n", "")
        .file("output_validators/v/validate.py", validator)
        .submission(
            "accepted/double.py",
            "n = int(input())\nprint(2 * n, flush=True)\n",
        )
        .build()
        .display()
        .to_string()
}

const INTERACTIVE: &str =
    "problem_format_version: 2023-07-draft\nname: Double\ntype: interactive\nlimits:\n  time_limit: 1\n  validation_time: 1\n";

const FAIR_VALIDATOR: &str =
    "import sys\nn = int(open(sys.argv[1]).read())\nprint(n, flush=True)\n\
     line = sys.stdin.readline()\nsys.exit(42 if line.strip() == str(2 * n) else 43)\n";

#[test]
fn a_fair_validator_accepts_the_double_submission() {
    // The control for the misbehaving ones below: the same package with a
    // validator that keeps the protocol.
    let dir = Dir::new();
    let package = double_package(&dir, INTERACTIVE, FAIR_VALIDATOR);
    let run = dir.judge(&["grade", "--package", &package]);
    assert_eq!(run.code(), 0, "{}{}", run.stdout(), run.stderr());
}

#[test_case::test_case(
    "import sys, time\nprint(int(open(sys.argv[1]).read()), flush=True)\ntime.sleep(60)\n",
    "did not exit within 3000 ms after the submission ended (it had not read 3 bytes the submission sent)" ; "never reads"
)]
#[test_case::test_case(
    "import sys\nprint(int(open(sys.argv[1]).read()), flush=True)\nsys.exit(0)\n",
    "exited with code 0" ; "exits 0 early"
)]
#[test_case::test_case(
    "import sys\nsys.stdout.write('garbage ' * 1000)\nsys.stdout.flush()\nwhile True:\n    sys.stdout.write('x' * 4096)\n",
    "output validator `v`" ; "floods garbage"
)]
#[test_case::test_case(
    "import os, signal, sys\nprint(int(open(sys.argv[1]).read()), flush=True)\nsys.stdin.readline()\nos.kill(os.getpid(), signal.SIGSEGV)\n",
    "was killed by signal 11" ; "crashes"
)]
#[test_case::test_case(
    "import sys\nprint(int(open(sys.argv[1]).read()), flush=True)\nsys.stdin.readline()\nwhile True:\n    pass\n",
    "" ; "hangs"
)]
fn a_misbehaving_validator_is_a_judge_error_naming_it(validator: &str, what: &str) {
    let dir = Dir::new();
    let package = double_package(&dir, INTERACTIVE, validator);
    let run = dir.judge(&["grade", "--package", &package]);
    let out = run.stdout();
    let line = line_of(&out, "accepted/double.py");
    assert!(line.contains(": JE "), "{line}");
    // The folder `output_validators/v/` is one program, named `v`.
    assert!(line.contains("output validator `v`"), "{line}");
    if what.is_empty() {
        // Whichever limit ends a hanging validator first (its CPU time, or
        // the wall clock after the submission ended), it is the cause.
        assert!(
            line.contains("timed out") || line.contains("did not exit within"),
            "{line}"
        );
    } else {
        assert!(line.contains(what), "{line}");
    }
    assert_ne!(run.code(), 0, "{out}");
}

#[test]
fn nextpass_in_on_the_last_pass_is_a_judge_error() {
    let dir = Dir::new();
    let package = double_package(
        &dir,
        "problem_format_version: 2023-07-draft\nname: Double\ntype: [interactive, multi-pass]\nlimits:\n  time_limit: 1\n  validation_passes: 2\n",
        "import os, sys\nn = int(open(sys.argv[1]).read())\nprint(n, flush=True)\nsys.stdin.readline()\n\
         open(os.path.join(sys.argv[3], 'nextpass.in'), 'w').write(str(n + 1) + '\\n')\nsys.exit(42)\n",
    );
    let run = dir.judge(&["grade", "--package", &package]);
    let line = line_of(&run.stdout(), "accepted/double.py").to_owned();
    assert!(line.contains(": JE "), "{line}");
    assert!(
        line.contains("wrote `nextpass.in` in the last pass (2 of 2"),
        "{line}"
    );
}

#[test]
fn an_interactive_problem_needs_a_validator_program() {
    let dir = Dir::new();
    let package = double_package(
        &dir,
        "problem_format_version: 2023-07-draft\nname: Double\ntype: interactive\n",
        FAIR_VALIDATOR,
    );
    std::fs::remove_dir_all(std::path::Path::new(&package).join("output_validators")).unwrap();
    let run = dir.judge(&["grade", "--package", &package]);
    assert_eq!(run.code(), 2, "{}", run.stderr());
    let stderr = run.stderr();
    assert!(
        stderr.contains("problem.yaml")
            && stderr.contains("an interactive problem needs its output validator"),
        "{stderr}"
    );
}

#[test]
fn an_unknown_type_is_refused_with_its_line() {
    let dir = Dir::new();
    let package = double_package(&dir, "name: Double\ntype: submit-answer\n", FAIR_VALIDATOR);
    let run = dir.judge(&["grade", "--package", &package]);
    assert_eq!(run.code(), 2, "{}", run.stderr());
    let stderr = run.stderr();
    assert!(
        stderr.contains("line 2") && stderr.contains("`submit-answer`"),
        "{stderr}"
    );
}

/// The exchange is not output (issue #15): a correct submission that sends
/// its validator more than the output limit (1.2 MiB with `output: 1`) is
/// relayed to the end and accepted.
#[test]
fn a_long_exchange_is_not_cut_at_the_output_limit() {
    let dir = Dir::new();
    let validator = "import sys\nn = int(open(sys.argv[1]).read())\nprint(n, flush=True)\n\
                     for i in range(n):\n    \
                     if sys.stdin.readline().rstrip('\\n') != str(i).rjust(999, '.'):\n        \
                     sys.exit(43)\n    print('ok', flush=True)\nsys.exit(42)\n";
    let yaml = INTERACTIVE.replace("validation_time: 1\n", "validation_time: 5\n  output: 1\n");
    let package = double_package(&dir, &yaml, validator);
    dir.create("double/data/sample/1.in", "1200\n");
    fs_err::remove_file(dir.path().join("double/submissions/accepted/double.py")).unwrap();
    dir.create(
        "double/submissions/accepted/chatty.py",
        "n = int(input())\nfor i in range(n):\n    print(str(i).rjust(999, '.'), flush=True)\n    input()\n",
    );
    let run = dir.judge(&["grade", "--package", &package]);
    let out = run.stdout();
    assert_eq!(run.code(), 0, "{out}{}", run.stderr());
    let line = line_of(&out, "accepted/chatty.py");
    assert!(line.starts_with("ok ") && line.contains(": AC "), "{line}");
}

/// A package whose validator reads lines until `done` (it counts them),
/// with `validator` as its Python source and a C submission that floods
/// it with lines and never says `done`.
fn flood_package(dir: &Dir, validator: &str) -> String {
    let yaml = "problem_format_version: 2023-07-draft\nname: Count\ntype: interactive\n\
                limits:\n  time_limit: 4\n  validation_time: 1\n  output: 1\n";
    let package = double_package(dir, yaml, validator);
    dir.create(
        "double/submissions/time_limit_exceeded/flood.c",
        "#include <stdio.h>\nint main(void) {\n    int n;\n    if (scanf(\"%d\", &n) != 1) return 1;\n    \
         for (;;) fputs(\"1 2 3\\n\", stdout);\n}\n",
    );
    package
}

/// See: issue #15. A submission that floods a validator which reads every
/// line: the validator uses up its own CPU time reading the flood before
/// the submission's time ends. The flood is the submission's fault, so the
/// verdict is TLE, as when the submission's time ends a flood, and the
/// message says what the validator used up and what was sent; never JE.
#[test]
fn a_validator_that_runs_out_of_cpu_reading_a_flood_is_the_submissions_tle() {
    let dir = Dir::new();
    let validator = "import sys\nn = int(open(sys.argv[1]).read())\nprint(n, flush=True)\n\
                     count = 0\nfor line in sys.stdin:\n    \
                     if line.strip() == 'done':\n        break\n    \
                     for _ in range(3):\n        \
                     count += sum(int(word) for word in line.split())\n\
                     sys.exit(43)\n";
    let package = flood_package(&dir, validator);
    let run = dir.judge(&["grade", "--package", &package]);
    let out = run.stdout();
    let line = line_of(&out, "time_limit_exceeded/flood.c");
    assert!(line.contains(": TLE "), "{line}");
    assert!(
        line.contains(
            "the submission flooded the output validator `v`, which used up its 1000 ms of CPU \
             time reading it; the submission had sent the validator "
        ),
        "{line}"
    );
}

/// The control of the one above: a validator that runs out of CPU time
/// without reading the flood (it spins) is the package's fault, JE naming
/// it, whatever the submission sent.
#[test]
fn a_validator_that_spins_while_a_flood_waits_is_a_judge_error() {
    let dir = Dir::new();
    let validator = "import sys\nn = int(open(sys.argv[1]).read())\nprint(n, flush=True)\n\
                     while True:\n    pass\n";
    let package = flood_package(&dir, validator);
    let run = dir.judge(&["grade", "--package", &package]);
    let out = run.stdout();
    let line = line_of(&out, "time_limit_exceeded/flood.c");
    // Whichever limit ends it first (its CPU time, or the wall clock after
    // the submission's time ended), it is the package's fault.
    assert!(
        line.contains(": JE ") && line.contains("output validator `v` "),
        "{line}"
    );
    assert!(!line.contains("flooded"), "{line}");
}
