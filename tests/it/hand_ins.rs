//! Hand-ins that are not source code (issue #32, found by a review): an
//! empty file and a binary file are CE in every language, with the reason
//! alone.

use crate::support::Dir;
use serde_json::Value;

fn compile_of(dir: &Dir, file: &str) -> (String, String) {
    let run = dir.judge(&["run", "rooks", file, "--json", "report.json"]);
    run.expect_code(1);
    let report: Value = serde_json::from_str(&dir.read("report.json")).unwrap();
    let result = &report["results"][0];
    (
        result["verdict"].as_str().unwrap().to_owned(),
        result["compile"]["message"].as_str().unwrap().to_owned(),
    )
}

/// See: issue #32. An empty `rooks.py` was PE (it ran and printed
/// nothing); an empty `rooks.cpp` said "empty file" and then the linker's
/// error. Both are CE that says "empty file", and only that.
#[test]
fn r32_an_empty_hand_in_is_an_empty_file_in_every_language() {
    for file in ["rooks.py", "rooks.cpp", "rooks.c"] {
        let dir = Dir::new();
        dir.create(file, " \n\n");
        let (verdict, message) = compile_of(&dir, file);
        assert_eq!(verdict, "CE", "{file}");
        assert_eq!(message, "empty file: the submission has no code", "{file}");
    }
}

/// See: issue #32. A binary hand-in (a compiled program saved as
/// `rooks.cpp`, a zip) was graded as source and its CE message was full
/// of NULs: it is "not a source file", naming the file.
#[test]
fn r32_a_binary_hand_in_is_not_a_source_file() {
    for file in ["rooks.cpp", "rooks.py"] {
        let dir = Dir::new();
        let mut bytes = b"\x7fELF\x02\x01\x01\x00\x00\x00".to_vec();
        bytes.extend(std::iter::repeat_n(0u8, 300));
        bytes.extend(b"int main() {}\n");
        dir.create(file, bytes);
        let (verdict, message) = compile_of(&dir, file);
        assert_eq!(verdict, "CE", "{file}");
        assert!(
            message.starts_with(&format!("not a source file: `{file}` holds binary data")),
            "{message}"
        );
        assert!(!message.contains('\0'), "{message:?}");
    }
}

/// See: issue #34, item 5, found when the Kattis languages were built in:
/// a class's hand-in whose compiler is started through `env` (Go's `env
/// GOCACHE=... go build`) on a host without it was the student's CE
/// ("env: 'go': Permission denied"). Like any missing compiler (issue #8)
/// it is the judge's error, with the student's row and the missing
/// compiler named; the rest of the class grades.
#[test]
fn a_hand_in_whose_compiler_is_missing_behind_env_is_a_judge_error_naming_it() {
    let dir = Dir::new();
    dir.create(
        "judge.toml",
        "problems = [\"rooks\"]\nrandom-tests = 0\n\
         [languages.wrapped]\nextensions = [\"wr\"]\n\
         compile = [\"env\", \"CACHE={dir}/.cache\", \"judge-test-no-such-compiler\", \"{source}\"]\n\
         run = [\"{executable}\"]\n",
    );
    dir.create(
        "submissions/rooks/bob.py",
        fs_err::read_to_string(
            crate::support::repository().join("submissions/rooks/accepted/matching.py"),
        )
        .unwrap(),
    );
    dir.create("submissions/rooks/dave.wr", "program\n");
    let run = dir.judge(&["grade", "--json", "report.json"]);
    // See: issue 32. That language's JE, not the judge failing: exit 1.
    run.expect_code(1);
    assert!(
        run.stderr().contains(
            "warning: submissions/rooks/dave.wr: JE: language `wrapped`: the compiler \
             `judge-test-no-such-compiler` is not installed"
        ),
        "{}",
        run.transcript()
    );
    let report: Value = serde_json::from_str(&dir.read("report.json")).unwrap();
    let verdicts: Vec<(&str, &str)> = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|result| {
            (
                result["student"].as_str().unwrap(),
                result["verdict"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(verdicts, [("bob", "AC"), ("dave", "JE")], "{report:#}");
}

/// A single submission in such a language (`judge run`) is a judge error
/// naming the missing compiler, also when `env` starts it: never the
/// student's CE.
#[test]
fn a_compiler_started_through_env_that_is_missing_is_a_judge_error() {
    let dir = Dir::new();
    dir.create(
        "judge.toml",
        "[languages.wrapped]\nextensions = [\"wr\"]\n\
         compile = [\"env\", \"CACHE={dir}/.cache\", \"judge-test-no-such-compiler\", \"{source}\"]\n\
         run = [\"{executable}\"]\n",
    );
    dir.create("rooks.wr", "program\n");
    let run = dir.judge(&["run", "rooks", "rooks.wr", "--random", "0"]);
    // See: issue 32. That language's JE, not the judge failing: exit 1.
    run.expect_code(1);
    assert!(
        run.transcript()
            .contains("JE: not compiled: the judging host has no compiler for it")
            && run
                .transcript()
                .contains("the compiler `judge-test-no-such-compiler` is not installed"),
        "{}",
        run.transcript()
    );
}
