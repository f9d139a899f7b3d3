//! A package of ours with a testlib-style interactor (issue #15): problem.toml
//! `[interactor]` talks to the submission with testlib's arguments and exit
//! codes, and the testlib checker then reads what it wrote. A misbehaving
//! interactor is a judge error naming it, never a verdict on the submission.

use crate::support::{assert_folder_verdicts, line_of, repository, Dir, Run};

/// Copies the fixture package into `dir/guess` (to change its files).
fn copy_fixture(dir: &Dir) {
    let source = repository().join("tests/fixtures/interactive/testlib-guess");
    for entry in walkdir::WalkDir::new(&source) {
        let entry = entry.unwrap();
        if entry.file_type().is_file() {
            let relative = entry.path().strip_prefix(&source).unwrap();
            dir.create(
                &format!("guess/{}", relative.display()),
                fs_err::read(entry.path()).unwrap(),
            );
        }
    }
}

/// `judge run guess` on the accepted submission with the JSON report:
/// the run and the report's first test.
fn run_accepted(dir: &Dir) -> (Run, serde_json::Value) {
    let run = dir.judge(&[
        "run",
        "guess",
        "guess/submissions/accepted/binary.py",
        "--problems-dir",
        ".",
        "--json",
        "run.json",
    ]);
    let report = crate::support::report(&dir.read("run.json"));
    (run, report["results"][0]["tests"][0].clone())
}

#[test]
fn every_testlib_guess_submission_gets_its_folders_verdict() {
    let dir = Dir::new();
    copy_fixture(&dir);
    let run = dir.judge(&["grade", "--package", "guess", "--json", "report.json"]);
    let out = run.stdout();
    assert_eq!(run.code(), 0, "{out}{}", run.stderr());
    assert_folder_verdicts(
        &out,
        &[
            ("accepted/binary.py", "AC"),
            ("wrong_answer/linear.py", "WA"),
            ("time_limit_exceeded/no_flush.py", "TLE"),
        ],
    );
    // The interactor's exit 1 and its stderr message.
    assert!(
        line_of(&out, "linear.py").contains("too many guesses: more than 10"),
        "{out}"
    );
    assert!(
        line_of(&out, "no_flush.py").contains("neither side had written anything"),
        "{out}"
    );
    // The checker step ran on what the interactor wrote to `output`.
    let report = crate::support::report(&dir.read("report.json"));
    let accepted = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|result| {
            result["submission"]
                .as_str()
                .unwrap()
                .ends_with("binary.py")
        })
        .unwrap();
    let messages: Vec<&str> = accepted["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|test| test["message"].as_str().unwrap())
        .collect();
    assert_eq!(
        messages,
        [
            "ok 1000 found in 10 guesses",
            "ok 1 found in 9 guesses",
            "ok 357 found in 9 guesses"
        ],
        "{report:#}"
    );
}

/// See: issue #15. The checker decides after the interactor says ok: a
/// checker that disagrees with the interactor's output makes the test WA.
#[test]
fn the_checker_step_decides_after_the_interactor() {
    let dir = Dir::new();
    copy_fixture(&dir);
    // The answers name another number than the interactor finds.
    dir.create("guess/tests/middle.ans", "358\n");
    let run = dir.judge(&[
        "run",
        "guess",
        "guess/submissions/accepted/binary.py",
        "--problems-dir",
        ".",
    ]);
    let out = run.stdout();
    run.expect_code(1);
    assert!(out.contains("found 357, expected 358"), "{out}");
}

/// An interactor (any language) in place of the fixture's.
fn with_interactor(dir: &Dir, script: &str) {
    dir.create("guess/interactor.py", script);
    let manifest = dir.read("guess/problem.toml").replace(
        "program = \"interactor.cpp\"",
        "program = \"interactor.py\"",
    );
    dir.create("guess/problem.toml", manifest);
    fs_err::remove_file(dir.path().join("guess/interactor.cpp")).unwrap();
}

#[test_case::test_case(
    "import sys\nsys.stderr.write('the input is broken')\nsys.exit(3)\n",
    "interactor `interactor.py` reported a failure (exit code 3): the input is broken" ;
    "a failure"
)]
#[test_case::test_case(
    "import sys\nsys.exit(42)\n",
    "interactor `interactor.py` exited with code 42, which testlib does not define" ;
    "an undefined code"
)]
#[test_case::test_case(
    "import sys\ninput()\nprint('correct', flush=True)\nsys.stderr.write('fine')\nsys.exit(0)\n",
    "the interactor wrote no result" ;
    "ok without an output for the checker"
)]
#[test_case::test_case(
    "import sys\ninput()\nprint('correct', flush=True)\nsys.stderr.write('well done')\nsys.exit(7)\n",
    "exited with code 7 (points) but its message does not start with a score" ;
    "points without a score"
)]
#[test_case::test_case(
    "import sys\nraise RuntimeError('interactor bug')\n",
    "interactor `interactor.py` crashed with an uncaught exception (RuntimeError: interactor bug)" ;
    "an uncaught exception"
)]
fn a_misbehaving_testlib_interactor_is_a_judge_error_naming_it(script: &str, what: &str) {
    let dir = Dir::new();
    copy_fixture(&dir);
    with_interactor(&dir, script);
    let (run, test) = run_accepted(&dir);
    run.expect_code(3);
    assert_eq!(test["verdict"], "JE", "{test:#}");
    assert!(test["message"].as_str().unwrap().contains(what), "{test:#}");
}

/// See: issue #15. An interactor's traceback in its judge error names the
/// package's own file, as a submission's names the hand-in, not its
/// compiled copy in the judge's temporary folder.
#[test]
fn an_interactors_traceback_names_the_packages_file() {
    let dir = Dir::new();
    copy_fixture(&dir);
    with_interactor(
        &dir,
        "import sys
sys.stdin.readline()
raise RuntimeError('interactor bug')
",
    );
    let (run, test) = run_accepted(&dir);
    run.expect_code(3);
    assert_eq!(test["verdict"], "JE", "{test:#}");
    let message = test["message"].as_str().unwrap();
    assert!(
        message.contains("guess/interactor.py\", line 3"),
        "{message}"
    );
    assert!(!message.contains("judge-"), "{message}");
}

/// See: issue #15. A checker's traceback names the package's file too.
#[test]
fn a_checkers_traceback_names_the_packages_file() {
    let dir = Dir::new();
    copy_fixture(&dir);
    dir.create(
        "guess/check.py",
        "import sys
raise ValueError('checker bug')
",
    );
    let manifest = dir
        .read("guess/problem.toml")
        .replace("program = \"check.cpp\"", "program = \"check.py\"");
    dir.create("guess/problem.toml", manifest);
    fs_err::remove_file(dir.path().join("guess/check.cpp")).unwrap();
    let (run, test) = run_accepted(&dir);
    run.expect_code(3);
    assert_eq!(test["verdict"], "JE", "{test:#}");
    let message = test["message"].as_str().unwrap();
    assert!(message.contains("ValueError: checker bug"), "{message}");
    assert!(message.contains("guess/check.py\", line 2"), "{message}");
    assert!(!message.contains("judge-"), "{message}");
}

/// Polygon and Codeforces packages carry `interactor.cpp`: one that
/// problem.toml does not declare refuses the package, with the fix.
#[test]
fn an_undeclared_interactor_refuses_the_package() {
    let dir = Dir::new();
    copy_fixture(&dir);
    let manifest = dir.read("guess/problem.toml").replace(
        "[interactor]\nprogram = \"interactor.cpp\"\nprotocol = \"testlib\"\n",
        "",
    );
    dir.create("guess/problem.toml", manifest);
    let run = dir.judge(&["grade", "--package", "guess"]);
    run.expect_code(2);
    let err = run.stderr();
    assert!(err.contains("guess/problem.toml"), "{err}");
    assert!(
        err.contains(
            "the package holds `interactor.cpp` but problem.toml declares no `[interactor]`"
        ),
        "{err}"
    );
}

#[test]
fn a_kattis_interactor_with_a_checker_is_refused_with_its_line() {
    let dir = Dir::new();
    copy_fixture(&dir);
    let manifest = dir
        .read("guess/problem.toml")
        .replace("protocol = \"testlib\"", "protocol = \"kattis\"");
    dir.create("guess/problem.toml", manifest);
    let run = dir.judge(&["grade", "--package", "guess"]);
    run.expect_code(2);
    let err = run.stderr();
    assert!(err.contains("line 11"), "{err}");
    assert!(
        err.contains("a `kattis` interactor decides the test itself"),
        "{err}"
    );
}

/// The exchange is not output: a correct submission that sends more than its
/// output limit (about 100 KiB with `output-limit-kib = 64`) to the
/// interactor is relayed to the end and accepted.
#[test]
fn a_long_exchange_is_not_cut_at_the_output_limit() {
    let dir = Dir::new();
    let package = repository().join("tests/fixtures/interactive/testlib-chatty");
    let run = dir.judge(&["grade", "--package", package.to_str().unwrap()]);
    let out = run.stdout();
    assert_eq!(run.code(), 0, "{out}{}", run.stderr());
    let line = line_of(&out, "accepted/chatty.py");
    assert!(line.starts_with("ok ") && line.contains(": AC "), "{line}");
}

/// A submission's traceback in an interactive run names the hand-in by its
/// own path, as a run on a file does, not by its copy in the judge's
/// temporary folder.
#[test]
fn an_interactive_traceback_names_the_hand_in() {
    let dir = Dir::new();
    copy_fixture(&dir);
    // Reads the first guess, then exits: the submission's next read meets
    // end of file and crashes. (An interactor that exits before reading
    // races the first write: the crash is then a broken pipe instead.)
    with_interactor(&dir, "import sys\nsys.stdin.readline()\nsys.exit(0)\n");
    let (run, test) = run_accepted(&dir);
    assert_eq!(test["verdict"], "RE", "{test:#}");
    let stderr = test["stderr"].as_str().unwrap();
    assert!(stderr.contains("EOFError"), "{stderr}");
    assert!(
        stderr.contains("File \"guess/submissions/accepted/binary.py\""),
        "{stderr}"
    );
    assert!(!stderr.contains("judge-"), "{stderr}");
    run.expect_code(1);
}

/// See: issue #15. A submission that floods an interactor that keeps
/// reading: the exchange is not output, so it is no OLE; only the time limit
/// ends it, the verdict is TLE every time, and the message says how much
/// the submission sent and that the interactor read it, in place of the
/// bytes in flight when the run ended (a matter of timing).
#[test]
fn a_flood_into_a_reading_interactor_is_a_time_limit_that_says_so() {
    let dir = Dir::new();
    let package = repository().join("tests/fixtures/interactive/testlib-flood");
    let run = dir.judge(&[
        "grade",
        "--package",
        package.to_str().unwrap(),
        "--json",
        "report.json",
    ]);
    let out = run.stdout();
    assert_eq!(run.code(), 0, "{out}{}", run.stderr());
    assert_folder_verdicts(
        &out,
        &[
            ("accepted/count.py", "AC"),
            ("time_limit_exceeded/flood.py", "TLE"),
        ],
    );
    let report = crate::support::report(&dir.read("report.json"));
    let flood = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|result| result["submission"].as_str().unwrap().ends_with("flood.py"))
        .unwrap();
    let message = flood["tests"][0]["message"].as_str().unwrap();
    assert!(message.contains("time exceeded"), "{message}");
    assert!(
        message.contains("the submission had sent the interactor ")
            && message.contains(
                "(the exchange is not output: its 64 KiB output limit does not apply, the time \
                 limit ends a flood) and the interactor had read "
            ),
        "{message}"
    );
    assert!(!message.contains("had not read"), "{message}");
}

/// See: issue #15. A submission that floods an interactor which never reads
/// it (it sends `n`, then waits far longer than the submission's wall limit
/// before it gives up with testlib's wrong answer): the flood fills the
/// pipes and blocks, the submission's wall limit ends it first, so the
/// verdict is the submission's TLE (never OLE: the exchange is not output),
/// and the message says how much it sent and that the interactor read none
/// of it.
#[test]
fn a_flood_the_interactor_never_reads_is_a_time_limit_that_says_so() {
    let dir = Dir::new();
    let source = repository().join("tests/fixtures/interactive/testlib-flood");
    for name in [
        "problem.toml",
        "reference.py",
        "tests/lines.in",
        "tests/lines.ans",
        "submissions/time_limit_exceeded/flood.py",
    ] {
        dir.create(
            &format!("flood/{name}"),
            fs_err::read(source.join(name)).unwrap(),
        );
    }
    dir.create(
        "flood/interactor.py",
        "import sys, time\nprint(int(open(sys.argv[1]).read()), flush=True)\ntime.sleep(6)\n\
         sys.stderr.write('gave up without reading\\n')\nsys.exit(1)\n",
    );
    let run = dir.judge(&["grade", "--package", "flood", "--json", "report.json"]);
    let out = run.stdout();
    let line = line_of(&out, "time_limit_exceeded/flood.py");
    assert!(
        line.contains(": TLE ") && line.contains("wall-clock time exceeded"),
        "{line}"
    );
    let report = crate::support::report(&dir.read("report.json"));
    let message = report["results"][0]["tests"][0]["message"]
        .as_str()
        .unwrap();
    assert!(
        message.contains("the submission had sent the interactor ")
            && message.contains(
                "(the exchange is not output: its 64 KiB output limit does not apply, the time \
                 limit ends a flood) and the interactor had read 0 bytes"
            ),
        "{message}"
    );
    run.expect_code(0);
}
