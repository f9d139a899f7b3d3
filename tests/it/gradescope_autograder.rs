//! `judge export --gradescope PROBLEM... OUT` (issue #30): the autograder
//! zip, run end to end in Gradescope's folder layout (under a temporary
//! root): a hand-in graded, and a grader that crashes, runs out of time or
//! is cut short still leaves a `results.json` that says what happened.

use crate::platforms::check_gradescope;
use crate::support::{Dir, PackageBuilder};
use serde_json::Value;
use std::process::Command;

/// The autograder of `rooks`, extracted to `autograder/source` as
/// Gradescope does, with `hand_in` as `autograder/submission/rooks.py`.
fn autograder(dir: &Dir, hand_in: &str) -> std::path::PathBuf {
    let run = dir.judge(&["export", "--gradescope", "rooks", "autograder.zip"]);
    run.expect_code(0);
    let root = dir.path().join("autograder");
    let unzip = Command::new("python3")
        .args(["-m", "zipfile", "-e", "autograder.zip"])
        .arg(root.join("source"))
        .current_dir(dir.path())
        .status()
        .unwrap();
    assert!(unzip.success());
    for file in ["setup.sh", "run_autograder", "judge.toml", "judge"] {
        assert!(root.join("source").join(file).is_file(), "{file}");
    }
    let setup = dir.read("autograder/source/setup.sh");
    assert!(setup.contains("apt-get install -y"), "{setup}");
    assert!(
        setup.contains("python3") && setup.contains("g++"),
        "{setup}"
    );
    // What setup.sh's `install -m 0755` does (Python's zipfile keeps no
    // modes).
    fs_err::set_permissions(
        root.join("source/judge"),
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    dir.create("autograder/submission/rooks.py", hand_in);
    root
}

/// Runs `run_autograder` with `judge` as the judge and `budget` seconds.
fn run_autograder(root: &std::path::Path, judge: &std::path::Path, budget: &str) -> Value {
    let status = Command::new("bash")
        .arg(root.join("source/run_autograder"))
        .env("AUTOGRADER_ROOT", root)
        .env("JUDGE", judge)
        .env("JUDGE_TIME_BUDGET", budget)
        .status()
        .unwrap();
    assert!(
        status.success(),
        "run_autograder always ends well: {status}"
    );
    let text = fs_err::read_to_string(root.join("results/results.json")).unwrap();
    let results: Value =
        serde_json::from_str(&text).unwrap_or_else(|error| panic!("{error}: {text}"));
    check_gradescope(&results);
    results
}

const ZERO: &str = "import sys\nt = sys.stdin.read().split()\np = 0\nwhile p < len(t) and t[p] != '0':\n    n = int(t[p]); p += 1 + n; print(0)\n";

#[test]
fn the_autograder_grades_the_hand_in() {
    let dir = Dir::new();
    let root = autograder(&dir, ZERO);
    let judge = root.join("source/judge");
    let results = run_autograder(&root, &judge, "300");
    assert_eq!(results["score"], 0.0, "{results:#}");
    let tests = results["tests"].as_array().unwrap();
    assert!(tests.len() > 1, "{results:#}");
    assert!(results["output"]
        .as_str()
        .unwrap()
        .contains("rooks: 0.00 of 100.00 (WA)"));
}

/// A judge that crashes (a signal, nothing written) leaves a 0 that says
/// the grader failed, not a missing file.
#[test]
fn a_crashing_grader_still_leaves_a_result() {
    let dir = Dir::new();
    let root = autograder(&dir, ZERO);
    let judge = dir.create("crash.sh", "#!/bin/sh\nkill -SEGV $$\n");
    fs_err::set_permissions(&judge, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let results = run_autograder(&root, &judge, "300");
    assert_eq!(results["score"], 0.0);
    let output = results["output"].as_str().unwrap();
    assert!(
        output.contains("The grader failed (exit status 139)"),
        "{output}"
    );
}

/// A judge killed by SIGKILL long before the budget (the kernel's OOM
/// killer, the platform) is not said to have run out of time. See: issue
/// #30 (found by a review)
#[test]
fn r30_a_grader_killed_before_its_budget_is_not_out_of_time() {
    let dir = Dir::new();
    let root = autograder(&dir, ZERO);
    let judge = dir.create("killed.sh", "#!/bin/sh\nkill -KILL $$\n");
    fs_err::set_permissions(&judge, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let results = run_autograder(&root, &judge, "300");
    assert_eq!(results["score"], 0.0);
    let output = results["output"].as_str().unwrap();
    assert!(
        output.contains("The grader was killed (SIGKILL"),
        "{output}"
    );
    assert!(!output.contains("ran out of time"), "{output}");
}

/// A judge that never ends is stopped at the budget, and the result says
/// the grader ran out of time.
#[test]
fn a_grader_out_of_time_still_leaves_a_result() {
    let dir = Dir::new();
    let root = autograder(&dir, ZERO);
    let judge = dir.create("hang.sh", "#!/bin/sh\nexec sleep 120\n");
    fs_err::set_permissions(&judge, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let results = run_autograder(&root, &judge, "1");
    let output = results["output"].as_str().unwrap();
    assert!(output.contains("ran out of time (1 s)"), "{output}");
}

/// The real judge, cut short by the budget while a slow hand-in runs,
/// writes its own interrupted result: a 0 that says it is no grade.
#[test]
fn a_grade_cut_short_says_it_was_interrupted() {
    let dir = Dir::new();
    let root = autograder(&dir, "import time\nwhile True:\n    time.sleep(0.1)\n");
    let judge = root.join("source/judge");
    let results = run_autograder(&root, &judge, "2");
    assert_eq!(results["score"], 0.0);
    let output = results["output"].as_str().unwrap();
    assert!(output.contains("interrupted"), "{output}");
}

/// See: issue #30 (found by a review). A hand-in nested a folder deeper
/// (`/autograder/submission/myproject/main.py`), or none at all: the
/// output says in the student's words what was found, what name was
/// expected and that the files are a folder too deep, and names no path
/// of the grader's (`/tmp/tmp.x/class`).
#[test]
fn r30_a_nested_or_missing_hand_in_is_said_in_the_students_words() {
    let dir = Dir::new();
    let root = autograder(&dir, ZERO);
    let judge = root.join("source/judge");
    fs_err::remove_file(root.join("submission/rooks.py")).unwrap();
    dir.create("autograder/submission/myproject/main.py", ZERO);
    let results = run_autograder(&root, &judge, "300");
    assert_eq!(results["score"], 0.0);
    let output = results["output"].as_str().unwrap();
    for words in [
        "`myproject/main.py`",
        "`rooks.<ext>`",
        "one folder too deep (inside `myproject/`)",
    ] {
        assert!(output.contains(words), "`{words}` not in {output}");
    }
    assert!(!output.contains("/tmp"), "{output}");

    fs_err::remove_dir_all(root.join("submission/myproject")).unwrap();
    let results = run_autograder(&root, &judge, "300");
    let output = results["output"].as_str().unwrap();
    assert!(output.contains("your hand-in is empty"), "{output}");
    assert!(output.contains("`rooks.<ext>`"), "{output}");
    assert!(!output.contains("/tmp"), "{output}");
}

/// See: issue #30 (found by a review). Two files for the one problem: the
/// output names them as the student handed them in (`rooks.cpp`), never by
/// the grader's copy of the hand-in (`/tmp/tmp.x/class/student`).
#[test]
fn r30_two_files_for_a_problem_are_said_in_the_students_words() {
    let dir = Dir::new();
    let root = autograder(&dir, ZERO);
    let judge = root.join("source/judge");
    dir.create(
        "autograder/submission/rooks.cpp",
        "int main() { return 0; }\n",
    );
    let results = run_autograder(&root, &judge, "300");
    assert_eq!(results["score"], 0.0);
    let output = results["output"].as_str().unwrap();
    assert!(
        output.contains("2 files handed in: `rooks.cpp`, `rooks.py`; hand in only one"),
        "{output}"
    );
    assert!(!output.contains("/tmp"), "{output}");
    assert!(!output.contains("class/"), "{output}");
}

/// The packages `apt-get install` gets in the `setup.sh` of the autograder
/// that `judge export --gradescope ARGS...` writes, in its order.
fn setup_packages(dir: &Dir, args: &[&str]) -> Vec<String> {
    let mut command = vec!["export", "--gradescope"];
    command.extend(args);
    dir.judge(&command).expect_code(0);
    let zip = args.last().unwrap();
    let unzip = Command::new("python3")
        .args(["-m", "zipfile", "-e", zip, "unzipped"])
        .current_dir(dir.path())
        .status()
        .unwrap();
    assert!(unzip.success());
    let setup = dir.read("unzipped/setup.sh");
    let line = setup
        .lines()
        .find_map(|line| line.strip_prefix("apt-get install -y --no-install-recommends "))
        .unwrap_or_else(|| panic!("no install line: {setup}"));
    line.split_whitespace().map(str::to_owned).collect()
}

/// See: issue #30. Without `--languages`, setup.sh installs the toolchain
/// of every language the judge knows (a hand-in may be in any of them);
/// with it, only those of the languages named, beside what the packages'
/// own programs need (a built-in problem's are in the judge).
#[test]
fn r30_setup_installs_the_languages_hand_ins_may_be_in() {
    let dir = Dir::new();
    let every = setup_packages(&dir, &["rooks", "every.zip"]);
    for package in [
        "coreutils",
        "gcc",
        "g++",
        "python3",
        "rustc",
        "default-jdk-headless",
    ] {
        assert!(every.contains(&package.to_owned()), "{package}: {every:?}");
    }
    let dir = Dir::new();
    let python = setup_packages(&dir, &["rooks", "--languages", "python", "python.zip"]);
    assert_eq!(python, ["coreutils", "python3"]);
    let dir = Dir::new();
    let c = setup_packages(&dir, &["rooks", "--languages", "c,cpp", "c.zip"]);
    assert_eq!(c, ["coreutils", "gcc", "g++"]);
}

/// See: issue #30. A package's own programs need their toolchains whatever
/// the hand-ins are in: a C++ checker and a Python reference give `g++`
/// and `python3` to an assignment of C hand-ins.
#[test]
fn r30_setup_installs_what_the_packages_own_programs_need() {
    let dir = Dir::new();
    PackageBuilder::ours(&dir, "problems/sums")
        .manifest(
            "title = \"Sums\"\norigin = \"judge tests\"\nprofiles = [\"data\"]\n\
             reference = \"reference.py\"\n\
             [limits]\ntime-limit-ms = 2000\nmemory-limit-mib = 256\noutput-limit-kib = 64\n\
             [checker]\nkind = \"testlib\"\nprogram = \"check.cpp\"\n\
             [tests]\nseed = 1\n",
        )
        .file(
            "reference.py",
            "n = int(input())\nprint(n * (n + 1) // 2)\n",
        )
        .file("check.cpp", "int main() { return 0; }\n")
        .test("t-1", "3\n", "6\n")
        .build();
    let packages = setup_packages(
        &dir,
        &[
            "--problems-dir",
            "problems",
            "sums",
            "--languages",
            "c",
            "sums.zip",
        ],
    );
    assert_eq!(packages, ["coreutils", "python3", "g++", "gcc"]);
}

/// See: issue #30. A language the judge does not know is a usage error
/// naming it, with the likely one; nothing is written.
#[test]
fn r30_an_unknown_language_is_refused_with_a_suggestion() {
    let dir = Dir::new();
    let run = dir.judge(&[
        "export",
        "--gradescope",
        "rooks",
        "--languages",
        "c,pyhton",
        "autograder.zip",
    ]);
    run.expect_code(2);
    let stderr = run.stderr();
    assert!(
        stderr.contains("`--languages`: `pyhton` is no language of the judge"),
        "{stderr}"
    );
    assert!(stderr.contains("did you mean `python`?"), "{stderr}");
    assert!(!dir.path().join("autograder.zip").exists());
}

/// See: issue #30 (found by a review). Each language the judge knows
/// brings the Ubuntu 22.04 package of its compiler or interpreter:
/// `--languages go` installed only `coreutils`, and the default export
/// left out Go, Node, Ruby, PHP, GHC, Mono, OCaml, Free Pascal and Python 2.
#[test]
fn r30_every_language_brings_its_ubuntu_package() {
    let rows: &[(&str, &[&str])] = &[
        ("c", &["gcc"]),
        ("cpp", &["g++"]),
        ("rust", &["rustc"]),
        ("python", &["python3"]),
        ("java", &["default-jdk-headless"]),
        ("bash", &["bash"]),
        ("python2", &["python2"]),
        ("javascript", &["nodejs"]),
        ("ruby", &["ruby"]),
        ("go", &["golang-go"]),
        ("kotlin", &["kotlin", "default-jdk-headless"]),
        ("haskell", &["ghc"]),
        ("csharp", &["mono-mcs", "mono-runtime"]),
        ("ocaml", &["ocaml-nox"]),
        ("pascal", &["fp-compiler"]),
        ("php", &["php-cli"]),
    ];
    let mut every_expected = Vec::new();
    for (language, packages) in rows {
        let dir = Dir::new();
        let got = setup_packages(&dir, &["rooks", "--languages", language, "out.zip"]);
        let mut expected = vec!["coreutils".to_owned()];
        expected.extend(packages.iter().map(|package| (*package).to_owned()));
        assert_eq!(got, expected, "{language}");
        every_expected.extend(packages.iter().copied());
    }
    let dir = Dir::new();
    let every = setup_packages(&dir, &["rooks", "every.zip"]);
    for package in every_expected {
        assert!(
            every.iter().any(|got| got == package),
            "{package}: {every:?}"
        );
    }
}

/// See: issue #30 (found by a review). A language whose compiler no known
/// package gives is refused by name (exit 2), never left out of setup.sh.
#[test]
fn r30_a_language_without_a_known_package_is_refused() {
    let dir = Dir::new();
    dir.create(
        "judge.toml",
        "[languages.zig]\nextensions = [\"zig\"]\ncompile = [\"zig\", \"build-exe\", \"{source}\"]\nrun = [\"{executable}\"]\n",
    );
    for args in [
        &["export", "--gradescope", "rooks", "out.zip"][..],
        &[
            "export",
            "--gradescope",
            "rooks",
            "--languages",
            "c,zig",
            "out.zip",
        ][..],
    ] {
        let run = dir.judge(args);
        run.expect_code(2);
        let stderr = run.stderr();
        assert!(
            stderr.contains("the language `zig` runs `zig`, and no Ubuntu 22.04 package"),
            "{stderr}"
        );
        assert!(!dir.path().join("out.zip").exists());
    }
    dir.judge(&[
        "export",
        "--gradescope",
        "rooks",
        "--languages",
        "c",
        "out.zip",
    ])
    .expect_code(0);
}

/// `count` io tests of GitHub Classroom, each with `timeout` minutes.
fn classroom_tests(count: usize, timeout: u32) -> String {
    let tests: Vec<String> = (0..count)
        .map(|index| {
            format!(
                "{{\"name\": \"t{index}\", \"setup\": \"\", \"run\": \"./a.out\", \
                 \"input\": \"{index}\", \"output\": \"{index}\", \"comparison\": \"exact\", \
                 \"timeout\": {timeout}, \"points\": 1}}"
            )
        })
        .collect();
    format!("{{\"tests\": [{}]}}", tests.join(",\n"))
}

/// See: issue #30 (found by a review). GitHub's `"timeout": 10` (minutes
/// for a whole test) became a 600 s time limit, so on Gradescope a
/// hand-in that loops used up run_autograder's budget and got "the grade
/// was interrupted ... this is not a grade", never TLE. The import caps
/// the limit and says so; the autograder then grades the loop as TLE,
/// with a score.
#[test]
fn r30_a_looping_hand_in_of_an_imported_package_is_tle_with_a_score() {
    let dir = Dir::new();
    dir.create("autograding.json", classroom_tests(1, 10));
    let run = dir.judge(&[
        "import",
        "--autograding",
        "autograding.json",
        "problems/echo",
    ]);
    run.expect_code(0);
    assert!(
        run.stderr().contains(
            "capped the time limit at 10 s of CPU per test for tests 1 `t0` (10 minutes)"
        ),
        "{}",
        run.transcript()
    );
    let export = dir.judge(&[
        "export",
        "--gradescope",
        "--problems-dir",
        "problems",
        "echo",
        "--languages",
        "c",
        "autograder.zip",
    ]);
    export.expect_code(0);
    assert!(
        !export.stderr().contains("warning"),
        "{}",
        export.transcript()
    );
    let root = dir.path().join("autograder");
    let unzip = Command::new("python3")
        .args(["-m", "zipfile", "-e", "autograder.zip"])
        .arg(root.join("source"))
        .current_dir(dir.path())
        .status()
        .unwrap();
    assert!(unzip.success());
    let judge = root.join("source/judge");
    fs_err::set_permissions(&judge, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    dir.create(
        "autograder/submission/echo.c",
        "int main(void) { for (;;) {} }\n",
    );
    // A budget the 10 s limit fits in, and 600 s never would.
    let results = run_autograder(&root, &judge, "120");
    let output = results["output"].as_str().unwrap();
    assert!(!output.contains("interrupted"), "{output}");
    assert!(output.contains("echo: 0.00 of 1.00 (TLE)"), "{output}");
    assert_eq!(results["tests"][0]["status"], "failed", "{results:#}");
    assert!(
        results["tests"][0]["output"]
            .as_str()
            .unwrap()
            .contains("TLE"),
        "{results:#}"
    );
}

/// See: issue #30 (found by a review). An export whose tests, each run to
/// its time limit, cannot fit the autograder's budget says so.
#[test]
fn r30_an_export_that_cannot_fit_the_budget_warns() {
    let dir = Dir::new();
    dir.create("autograding.json", classroom_tests(60, 1));
    dir.judge(&[
        "import",
        "--autograding",
        "autograding.json",
        "problems/many",
    ])
    .expect_code(0);
    let export = dir.judge(&[
        "export",
        "--gradescope",
        "--problems-dir",
        "problems",
        "many",
        "--languages",
        "c,python",
        "many.zip",
    ]);
    export.expect_code(0);
    let stderr = export.stderr();
    assert!(
        stderr.contains(
            "warning: a hand-in that loops runs 60 tests to their time limit (x3 for `python`): \
             1800 s, more than the autograder's 540 s budget"
        ),
        "{stderr}"
    );
}

/// See: issue #30 (found by a review). The autograder shows hidden tests
/// as the exporting judge.toml's `[report.gradescope] hidden-tests` says.
#[test]
fn r30_the_autograder_keeps_the_hidden_tests_setting() {
    let dir = Dir::new();
    dir.create(
        "judge.toml",
        "[report.gradescope]\nhidden-tests = \"after_published\"\n",
    );
    setup_packages(&dir, &["rooks", "--languages", "python", "out.zip"]);
    let toml = dir.read("unzipped/judge.toml");
    assert!(
        toml.contains("hidden-tests = \"after_published\""),
        "{toml}"
    );
}

/// Starts run_autograder with `judge`, waits until the judge runs, sends
/// the script SIGTERM (as Gradescope stops a grader) and returns the
/// results once the script has ended.
fn stopped_autograder(root: &std::path::Path, judge: &std::path::Path, grace: &str) -> Value {
    let mut script = Command::new("bash")
        .arg(root.join("source/run_autograder"))
        .env("AUTOGRADER_ROOT", root)
        .env("JUDGE", judge)
        .env("JUDGE_TIME_BUDGET", "300")
        .env("JUDGE_GRACE", grace)
        .spawn()
        .unwrap();
    let mut polls = 0;
    while crate::support::processes_mentioning(judge).is_empty() {
        polls += 1;
        assert!(polls < 600, "the judge never started");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    // Let the grade get under way.
    std::thread::sleep(std::time::Duration::from_secs(1));
    let kill = Command::new("kill")
        .args(["-TERM", &script.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let status = script.wait().unwrap();
    assert!(
        status.success(),
        "run_autograder always ends well: {status}"
    );
    // A judge killed with SIGKILL just before the script ended may still
    // be on its way out on a busy machine: it is given 10 s to be gone,
    // while a judge left running (the `sleep 300`) is still found.
    let mut left = crate::support::processes_mentioning(judge);
    for _ in 0..100 {
        if left.is_empty() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
        left = crate::support::processes_mentioning(judge);
    }
    assert!(left.is_empty(), "left running: {left:#?}");
    let text = fs_err::read_to_string(root.join("results/results.json")).unwrap();
    let results: Value =
        serde_json::from_str(&text).unwrap_or_else(|error| panic!("{error}: {text}"));
    check_gradescope(&results);
    results
}

/// See: issue #30 (found by a review). Gradescope stops a grader with
/// SIGTERM: run_autograder passes it on to the judge, which writes its
/// interrupted result, and nothing is left running.
#[test]
fn r30_a_stopped_autograder_leaves_the_judges_interrupted_result() {
    let dir = Dir::new();
    let root = autograder(&dir, "import time\nwhile True:\n    time.sleep(0.1)\n");
    let judge = root.join("source/judge");
    let results = stopped_autograder(&root, &judge, "10");
    assert_eq!(results["score"], 0.0);
    let output = results["output"].as_str().unwrap();
    assert!(output.contains("interrupted"), "{output}");
}

/// See: issue #30 (found by a review). A judge that does not end when told
/// to is killed after the grace period, and the result says the grader
/// was stopped.
#[test]
fn r30_a_stopped_autograder_whose_judge_hangs_still_leaves_a_result() {
    let dir = Dir::new();
    let root = autograder(&dir, ZERO);
    // Named after itself, so a leftover is found.
    let judge = dir.create(
        "deaf.sh",
        "#!/bin/bash\ntrap '' TERM\nexec -a \"$0-sleeping\" sleep 300\n",
    );
    fs_err::set_permissions(&judge, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let results = stopped_autograder(&root, &judge, "1");
    assert_eq!(results["score"], 0.0);
    let output = results["output"].as_str().unwrap();
    assert!(
        output.contains("The grader was stopped (SIGTERM"),
        "{output}"
    );
}

/// See: issue #30 (found by a review). The preview the docs give, `judge
/// run rooks HAND-IN --gradescope FILE`, added 10 random tests (64.71 of
/// 17 tests where the autograder gave 57.14 of 7): it now gives exactly
/// the autograder's grade, test for test.
#[test]
fn r30_the_preview_is_the_autograders_grade() {
    let dir = Dir::new();
    let root = autograder(&dir, ZERO);
    let judge = root.join("source/judge");
    let graded = run_autograder(&root, &judge, "300");
    let run = dir.judge(&[
        "run",
        "rooks",
        "autograder/submission/rooks.py",
        "--gradescope",
        "preview.json",
    ]);
    assert!(run.code() <= 1, "{}", run.transcript());
    assert!(
        run.stdout()
            .contains("tests: 7 from package rooks only (no random tests: a platform's"),
        "{}",
        run.transcript()
    );
    let preview: Value = serde_json::from_str(&dir.read("preview.json")).unwrap();
    check_gradescope(&preview);
    assert_eq!(preview["score"], graded["score"], "{preview:#}\n{graded:#}");
    assert_eq!(preview["tests"], graded["tests"], "{preview:#}\n{graded:#}");
    assert_eq!(preview["output"], graded["output"]);
}

/// See: issue #30 (found by a review). With `--languages c,cpp,python` the
/// student who misnamed a file heard every extension (`bash`, ..., `rs`,
/// `sh`): only the exported languages' are listed now.
#[test]
fn r30_the_student_hears_only_the_exported_languages() {
    let dir = Dir::new();
    dir.judge(&[
        "export",
        "--gradescope",
        "rooks",
        "--languages",
        "c,cpp,python",
        "autograder.zip",
    ])
    .expect_code(0);
    let root = dir.path().join("autograder");
    let unzip = Command::new("python3")
        .args(["-m", "zipfile", "-e", "autograder.zip"])
        .arg(root.join("source"))
        .current_dir(dir.path())
        .status()
        .unwrap();
    assert!(unzip.success());
    let judge = root.join("source/judge");
    fs_err::set_permissions(&judge, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    dir.create("autograder/submission/rook.py", ZERO);
    let results = run_autograder(&root, &judge, "300");
    let output = results["output"].as_str().unwrap();
    assert!(
        output.contains("where <ext> is one of `c`, `cc`, `cpp`, `cxx`, `py3`, `py`, at the top"),
        "{output}"
    );
    assert!(!output.contains("`rs`"), "{output}");
}
