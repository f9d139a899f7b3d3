//! Kattis packages in the shape of BAPCtools' test problems (`hello`,
//! `different`), graded through the binary (issue #34, items 5 and 7):
//! problemtools' language extensions, what the format says not to run, and
//! the package's tests of its own validators (`data/invalid_input/`, ...).

use crate::support::{assert_folder_verdicts, report, Dir, PackageBuilder};

/// A "hello world" package: no input to speak of, an input and an answer
/// validator written in shell (not executable, as a zip or a checkout
/// without modes gives them), submissions in problemtools' extensions.
fn hello(dir: &Dir) {
    PackageBuilder::kattis(dir, "hello")
        .manifest(
            "problem_format_version: 2025-09\nname: Hello\nlimits:\n  time_limit: 2\n",
        )
        .test("sample/1", "\n", "Hello, World!\n")
        .test("secret/1", "\n", "Hello, World!\n")
        // Accepts an empty line only (exit 42), else rejects it (43).
        .file(
            "input_validators/validate.sh",
            "read -r line || exit 43\n[ -z \"$line\" ] || exit 43\nif read -r more; then exit 43; fi\nexit 42\n",
        )
        .file(
            "input_validators/README.md",
            "The validator reads one empty line.\n",
        )
        .submission("accepted/hello.sh", "echo 'Hello, World!'\n")
        .submission("accepted/hello.bash", "printf 'Hello, World!\\n'\n")
        .submission("accepted/hello.py3", "print('Hello, World!')\n")
        .submission("accepted/hello.py2", "print 'Hello, World!'\n")
        .submission(
            "accepted/Hello.kt",
            "fun main() { println(\"Hello, World!\") }\n",
        )
        .submission(
            "accepted/hello.c",
            "#include <stdio.h>\nint main(void) { puts(\"Hello, World!\"); return 0; }\n",
        )
        .submission(
            "accepted/hello-space.c.disabled",
            "int main(void) { return 1; }\n",
        )
        .submission("accepted/.gitkeep", "")
        .submission("accepted/README.txt", "These print the greeting.\n")
        .submission("wrong_answer/shout.sh", "echo 'HELLO, WORLD'\n")
        .submission("run_time_error/fails.sh", "exit 3\n")
        .submission(
            "disabled.disabled/hello.c",
            "int main(void) { return 1; }\n",
        )
        .build();
}

/// Problemtools' extensions are recognised; shell programs (a validator
/// among them) run; a language whose toolchain is missing is skipped with
/// that reason; what the format says not to run is listed as ignored, in
/// the terminal and in the JSON report; and none of it is an error.
#[test]
fn a_hello_package_in_kattis_languages_grades_and_lists_what_it_ignores() {
    let dir = Dir::new();
    hello(&dir);
    let run = dir.judge(&["grade", "--package", "hello", "--json", "report.json"]);
    run.expect_code(0);
    let out = run.stdout();
    assert_folder_verdicts(
        &out,
        &[
            ("hello/submissions/accepted/hello.sh", "AC"),
            ("hello/submissions/accepted/hello.bash", "AC"),
            ("hello/submissions/accepted/hello.py3", "AC"),
            ("hello/submissions/accepted/hello.c", "AC"),
            ("hello/submissions/wrong_answer/shout.sh", "WA"),
            ("hello/submissions/run_time_error/fails.sh", "RE"),
        ],
    );
    let err = run.stderr();
    for (path, reason) in [
        (
            "hello/submissions/accepted/hello-space.c.disabled",
            "disabled",
        ),
        ("hello/submissions/accepted/.gitkeep", "begins with `.`"),
        (
            "hello/submissions/accepted/README.txt",
            "documents the folder",
        ),
        ("hello/submissions/disabled.disabled", "disabled"),
        ("hello/input_validators/README.md", "documents the folder"),
    ] {
        assert!(
            err.contains(&format!("ignored: {path}: ")) && err.contains(reason),
            "{path}: {err}"
        );
    }
    // Python 2 and Kotlin: graded where installed, else skipped naming the
    // missing program; never a judge error.
    for (file, program) in [("hello.py2", "python2"), ("Hello.kt", "kotlinc")] {
        let path = format!("hello/submissions/accepted/{file}");
        let skipped = err
            .lines()
            .find(|line| line.starts_with(&format!("skipped: {path}: ")));
        match skipped {
            Some(line) => assert!(
                line.contains(&format!("`{program}`")) && line.contains("is not installed"),
                "{line}"
            ),
            None => assert_folder_verdicts(&out, &[(&path, "AC")]),
        }
    }
    let report = report(&dir.read("report.json"));
    let ignored: Vec<(String, String)> = report["ignored"]
        .as_array()
        .unwrap()
        .iter()
        .map(|file| {
            (
                file["path"].as_str().unwrap().to_owned(),
                file["reason"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    for path in [
        "hello/submissions/accepted/hello-space.c.disabled",
        "hello/submissions/accepted/.gitkeep",
        "hello/submissions/accepted/README.txt",
        "hello/input_validators/README.md",
    ] {
        assert!(
            ignored.iter().any(|(found, _)| found == path),
            "{path}: {ignored:?}"
        );
    }
}

/// A language whose compiler is not installed: the submission is skipped
/// with the missing program named, not a judge error (exit 0, not 3); the
/// JSON report lists it with the reason.
#[test]
fn a_submission_whose_compiler_is_missing_is_skipped_not_a_judge_error() {
    let dir = Dir::new();
    hello(&dir);
    dir.create(
        "judge.toml",
        "[languages.zig]\nextensions = [\"zig\"]\ncompile = [\"zig-compiler-not-installed\", \"{source}\"]\nrun = [\"{executable}\"]\n",
    );
    dir.create(
        "hello/submissions/accepted/hello.zig",
        "pub fn main() void {}\n",
    );
    let run = dir.judge(&["grade", "--package", "hello", "--json", "report.json"]);
    run.expect_code(0);
    let err = run.stderr();
    assert!(
        err.contains(
            "skipped: hello/submissions/accepted/hello.zig: language `zig`: the compiler \
             `zig-compiler-not-installed` is not installed"
        ),
        "{err}"
    );
    let report = report(&dir.read("report.json"));
    let listed = report["ignored"]
        .as_array()
        .unwrap()
        .iter()
        .find(|file| file["path"] == "hello/submissions/accepted/hello.zig")
        .unwrap_or_else(|| panic!("{report}"));
    assert!(
        listed["reason"]
            .as_str()
            .unwrap()
            .contains("zig-compiler-not-installed"),
        "{listed}"
    );
}

/// A judge.toml language takes a built-in extension over: `.sh` run by
/// the user's `sh` language instead of the built-in `bash`.
#[test]
fn a_judge_toml_language_overrides_a_built_in_extension() {
    let dir = Dir::new();
    hello(&dir);
    dir.create(
        "judge.toml",
        "[languages.posix]\nextensions = [\"sh\"]\nrun = [\"sh\", \"{source}\"]\n",
    );
    // `bash` alone understands `[[`; under `sh` (dash) it is no command.
    dir.create(
        "hello/submissions/run_time_error/bashism.sh",
        "[[ 1 == 1 ]] || exit 5\necho 'Hello, World!'\n",
    );
    dir.create(
        "hello/submissions/accepted/bashism.bash",
        "if [[ 1 == 1 ]]; then echo 'Hello, World!'; fi\n",
    );
    let run = dir.judge(&["grade", "--package", "hello"]);
    if !std::fs::read_link("/bin/sh").is_ok_and(|target| target.to_string_lossy().contains("dash"))
    {
        // Where `sh` is bash, `[[` works under both: nothing tells them apart.
        assert!(run.code() == 0 || run.code() == 1, "{}", run.transcript());
        return;
    }
    run.expect_code(0);
    assert_folder_verdicts(
        &run.stdout(),
        &[
            ("hello/submissions/run_time_error/bashism.sh", "RE"),
            ("hello/submissions/accepted/bashism.bash", "AC"),
        ],
    );
}

/// A package like BAPCtools' `different` with its validators' own tests:
/// an input validator, the default output validator with a float
/// tolerance, and `data/invalid_input/`, `invalid_output/`,
/// `valid_output/`, `invalid_answer/` that they decide rightly.
fn different(dir: &Dir) {
    PackageBuilder::kattis(dir, "different")
        .manifest(
            "problem_format_version: 2025-09\nname: Different\nlimits:\n  time_limit: 2\n",
        )
        .test("sample/1", "10 12\n", "2\n")
        .test("secret/1", "71293781758123 72784\n", "71293781685339\n")
        .file(
            "input_validators/validate.py",
            "import re, sys\ntext = sys.stdin.read()\n\
             sys.exit(42 if re.fullmatch(r'(0|[1-9][0-9]*) (0|[1-9][0-9]*)\\n', text) else 43)\n",
        )
        // An answer is one number and a newline.
        .file(
            "answer_validators/validate.py",
            "import re, sys\nopen(sys.argv[1]).read()\ntext = sys.stdin.read()\n\
             sys.exit(42 if re.fullmatch(r'(0|[1-9][0-9]*)\\n', text) else 43)\n",
        )
        // A second input validator: the two numbers differ. Each invalid
        // input needs one validator to reject it (`negative.in` is
        // rejected by `validate.py` alone, `equal.in` by this one alone).
        .file(
            "input_validators/distinct.py",
            "import sys\nparts = sys.stdin.read().split()\n\
             sys.exit(43 if len(parts) == 2 and parts[0] == parts[1] else 42)\n",
        )
        .file("data/invalid_input/equal.in", "7 7\n")
        .file("data/invalid_input/negative.in", "-1 2\n")
        .file("data/invalid_input/group/three.in", "1 2 3\n")
        .test("invalid_answer/two", "1 2\n", "1 1\n")
        .test("invalid_output/off", "1 3\n", "2\n")
        .file("data/invalid_output/off.out", "3\n")
        .test("valid_output/spaced", "1 3\n", "2\n")
        .file("data/valid_output/spaced.out", "  2  \n")
        .submission(
            "accepted/different.py",
            "import sys\nfor line in sys.stdin:\n    a, b = map(int, line.split())\n    print(abs(a - b))\n",
        )
        .submission(
            "wrong_answer/no_abs.py",
            "a, b = map(int, input().split())\nprint(a - b)\n",
        )
        .build();
}

#[test]
fn validator_self_tests_that_hold_let_the_package_grade() {
    let dir = Dir::new();
    different(&dir);
    let run = dir.judge(&["grade", "--package", "different"]);
    run.expect_code(0);
    assert_folder_verdicts(
        &run.stdout(),
        &[
            ("different/submissions/accepted/different.py", "AC"),
            ("different/submissions/wrong_answer/no_abs.py", "WA"),
        ],
    );
    // They are no tests of the submissions.
    assert!(!run.stdout().contains("negative"), "{}", run.stdout());
}

/// Each self-test a validator decides wrongly is a configuration error
/// (exit 2, nothing graded) naming the file and what the validator did.
#[test]
fn a_validator_that_decides_a_self_test_wrongly_is_an_error_naming_the_file() {
    for (file, contents, expected) in [
        (
            "data/invalid_input/fine.in",
            "4 5\n",
            "different/data/invalid_input/fine.in`: `invalid_input`: is under \
             `data/invalid_input/`, but every input validator accepts it (exit 42)",
        ),
        (
            "data/invalid_answer/two.ans",
            "1\n",
            "different/data/invalid_answer/two.ans`: `invalid_answer`: is under \
             `data/invalid_answer/`, but every answer validator and the output validator (the \
             default one, given the answer as the output) accept it",
        ),
        (
            "data/invalid_output/off.out",
            "2\n",
            "different/data/invalid_output/off.out`: `invalid_output`: is under \
             `data/invalid_output/`, but the output validator (the default one) accepts it \
             given `off.in` and `off.ans`",
        ),
        (
            "data/valid_output/spaced.out",
            "two\n",
            "different/data/valid_output/spaced.out`: `valid_output`: is under \
             `data/valid_output/`, but the output validator (the default one) rejects it",
        ),
        (
            "data/valid_output/spaced.in",
            "1 x\n",
            "different/data/valid_output/spaced.in`: `data`: must be a valid input (it is the \
             input of `spaced.out`)",
        ),
    ] {
        let dir = Dir::new();
        different(&dir);
        dir.create(&format!("different/{file}"), contents);
        let run = dir.judge(&["grade", "--package", "different"]);
        run.expect_code(2);
        assert!(run.stderr().contains(expected), "{file}: {}", run.stderr());
        assert!(run.stdout().is_empty(), "{file}: {}", run.stdout());
    }
}

/// A custom output validator (the Kattis protocol) decides
/// `invalid_output/` and `valid_output/` given each case's `.in` and
/// `.ans`; one that hangs on a self-test is bounded and named.
#[test]
fn a_custom_output_validator_decides_the_output_self_tests_and_is_bounded() {
    let dir = Dir::new();
    different(&dir);
    // Accepts any number within 1 of the answer.
    dir.create(
        "different/output_validator/check.py",
        "import sys\nanswer = int(open(sys.argv[2]).read())\n\
         try:\n    got = int(sys.stdin.read())\nexcept ValueError:\n    sys.exit(43)\n\
         sys.exit(42 if abs(got - answer) <= 1 else 43)\n",
    );
    // Within 1: valid for this validator, so not invalid.
    let run = dir.judge(&["grade", "--package", "different"]);
    run.expect_code(2);
    assert!(
        run.stderr().contains(
            "different/data/invalid_output/off.out`: `invalid_output`: is under \
             `data/invalid_output/`, but the output validator (`different/output_validator`) \
             accepts it"
        ) || run
            .stderr()
            .contains("output_validator/check.py`) accepts it"),
        "{}",
        run.stderr()
    );
    dir.create("different/data/invalid_output/off.out", "5\n");
    dir.judge(&["grade", "--package", "different"])
        .expect_code(0);
    // A validator that never ends is stopped by the tool limits.
    dir.create(
        "different/output_validator/check.py",
        "import sys\nif sys.stdin.read().strip() == '5':\n    while True:\n        pass\nsys.exit(42)\n",
    );
    dir.create(
        "different/problem.yaml",
        "problem_format_version: 2025-09\nname: Different\nlimits:\n  time_limit: 1\n  validation_time: 1\n",
    );
    let run = dir.judge(&["grade", "--package", "different"]);
    run.expect_code(2);
    assert!(
        run.stderr()
            .contains("different/data/invalid_output/off.out`: `output validator`"),
        "{}",
        run.stderr()
    );
}

/// See: issue #34, item 2 (problemtools' `different_py2.py`). A `.py`
/// submission whose `#!` line asks for Python 2 runs in judge.toml's Python
/// 2 language: where that is not installed it is not graded, with the
/// reason (exit 0, not a CE charged to it); where it is, it runs there
/// (here a stand-in that only a Python 2 file passes under). Without the
/// `#!` line the file stays Python 3.
#[test]
fn a_py_file_asking_for_python2_runs_as_python2_or_is_skipped() {
    let dir = Dir::new();
    hello(&dir);
    fs_err::remove_file(dir.path().join("hello/submissions/accepted/hello.py2")).unwrap();
    dir.create(
        "hello/submissions/accepted/two.py",
        "#!/usr/bin/env python2\nprint 'Hello, World!'\n",
    );
    dir.create(
        "judge.toml",
        "[languages.python2]\nextensions = [\"py2\"]\n\
         compile = [\"python2-not-installed\", \"-m\", \"py_compile\", \"{source}\"]\n\
         run = [\"python2-not-installed\", \"{source}\"]\n",
    );
    let run = dir.judge(&["grade", "--package", "hello", "--json", "report.json"]);
    run.expect_code(0);
    let err = run.stderr();
    assert!(
        err.contains(
            "skipped: hello/submissions/accepted/two.py: its `#!/usr/bin/env python2` line asks \
             for Python 2, and Python 2 is not installed on this host (language `python2`: the \
             compiler `python2-not-installed` is not installed"
        ),
        "{err}"
    );
    assert!(!run.stdout().contains("two.py"), "{}", run.stdout());

    // A stand-in that is surely there, the language that runs `.py2`
    // files: Python 3 told to run the file with its print statement turned
    // into a call.
    dir.create(
        "judge.toml",
        "[languages.standin]\nextensions = [\"py2\"]\n\
         run = [\"python3\", \"-c\", \"import sys; exec(open(sys.argv[1]).read().replace(\\\"print '\\\", \\\"print('\\\").rstrip() + ')')\", \"{source}\"]\n",
    );
    let run = dir.judge(&["grade", "--package", "hello"]);
    run.expect_code(0);
    assert_folder_verdicts(
        &run.stdout(),
        &[("hello/submissions/accepted/two.py", "AC")],
    );

    // Without the line, the same file is Python 3, where it does not compile.
    dir.create(
        "hello/submissions/accepted/two.py",
        "print 'Hello, World!'\n",
    );
    let run = dir.judge(&["grade", "--package", "hello"]);
    run.expect_code(1);
    let out = run.stdout();
    assert!(
        out.lines().any(|line| line.starts_with("MISMATCH")
            && line.contains("hello/submissions/accepted/two.py: CE")),
        "{out}"
    );
}
