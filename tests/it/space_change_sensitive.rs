//! The Kattis default output validator's `space_change_sensitive` flag
//! (issue #34, break-it finding 17: it was read and ignored, so a doubled
//! space or a missing final newline got AC where problemtools says WA).

use crate::support::{hello_world_package, Dir};

/// A package whose one test's answer is `Hello World!\n`, with
/// submissions printing it exactly, with two spaces, and with no final
/// newline. `legacy`: the flag in problem.yaml's `validator_flags`, else
/// in a 2025-09 `test_group.yaml`'s `output_validator_args`.
fn package(dir: &Dir, legacy: bool) {
    let package = if legacy {
        hello_world_package(
            dir,
            "p",
            "problem_format_version: legacy\nname: Hello\nvalidator_flags: space_change_sensitive\n",
        )
    } else {
        hello_world_package(
            dir,
            "p",
            "problem_format_version: 2025-09\ntype: pass-fail\nname: Hello\n",
        )
        .file(
            "data/secret/test_group.yaml",
            "output_validator_args: [space_change_sensitive]\n",
        )
    };
    package
        .submission("wrong_answer/doubled.py", "print('Hello  World!')\n")
        .submission(
            "wrong_answer/no_newline.py",
            "print('Hello World!', end='')\n",
        )
        .build();
}

fn grades_whitespace_changes_as_wrong(legacy: bool) {
    let dir = Dir::new();
    package(&dir, legacy);
    let run = dir.judge(&["grade", "--package", "p"]);
    run.expect_code(0);
    let said = format!("{}{}", run.stdout(), run.stderr());
    for expected in [
        "doubled.py: WA (folder wrong_answer) on secret/hello: whitespace after token 1: \
         expected \" \", got \"  \" (space_change_sensitive)",
        "no_newline.py: WA (folder wrong_answer) on secret/hello: whitespace after token 2: \
         expected \"\\n\", got \"\" (space_change_sensitive)",
        "3 of 3 submissions got their folder's verdict",
    ] {
        assert!(said.contains(expected), "{expected}\n{}", run.transcript());
    }
}

#[test]
fn grades_whitespace_changes_as_wrong_with_test_group_args() {
    grades_whitespace_changes_as_wrong(false);
}

#[test]
fn grades_whitespace_changes_as_wrong_with_legacy_validator_flags() {
    grades_whitespace_changes_as_wrong(true);
}
