//! A package holds regular files and folders (and links to them), nothing
//! else (issue #34, break-it 45 findings 1 and 2): a FIFO as an input
//! validator's source or a generator hung `grade --package` and `gen
//! --package` in open(2) until a second signal, and a `submissions.yaml`
//! that is a link to a FIFO was taken for no file, so the grade passed on
//! expectations never read (exit 0). Each is refused by name before any of
//! the package is read or built, exit 2, at once.

use crate::data_files_bounded::{kattis_package, mkfifo};
use crate::support::Dir;
use std::time::Duration;

/// `judge ARGS` in `dir`, stopped after two minutes (a hang fails the
/// test instead of the suite): exit 2 and `expected` on stderr.
fn refused_at_once(dir: &Dir, args: &[&str], expected: &str) {
    let output = assert_cmd::cargo::cargo_bin_cmd!("judge")
        .current_dir(dir.path())
        .args(args)
        .timeout(Duration::from_secs(120))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains(expected), "{expected}\n{stderr}");
}

#[test]
fn an_input_validator_that_is_a_fifo_refuses_the_package() {
    let dir = Dir::new();
    kattis_package(&dir);
    mkfifo(&dir.path().join("p/input_validators/v.py"));
    refused_at_once(
        &dir,
        &["grade", "--package", "p"],
        "`p/input_validators/v.py`: is a FIFO (named pipe), not a regular file",
    );
}

#[test]
fn a_generator_that_is_a_fifo_refuses_gen() {
    let dir = Dir::new();
    kattis_package(&dir);
    dir.create(
        "p/generators/generators.yaml",
        "data:\n  secret:\n    data:\n      \"a\":\n        generate: gen.py\n",
    );
    mkfifo(&dir.path().join("p/generators/gen.py"));
    refused_at_once(
        &dir,
        &["gen", "--package", "p"],
        "`p/generators/gen.py`: is a FIFO (named pipe), not a regular file",
    );
}

#[test]
fn a_submissions_yaml_linked_to_a_fifo_refuses_the_package() {
    let dir = Dir::new();
    kattis_package(&dir);
    // The FIFO outside the package: only the link is in it.
    mkfifo(&dir.path().join("elsewhere/fifo"));
    std::os::unix::fs::symlink(
        dir.path().join("elsewhere/fifo"),
        dir.path().join("p/submissions/submissions.yaml"),
    )
    .unwrap();
    refused_at_once(
        &dir,
        &["grade", "--package", "p"],
        "`p/submissions/submissions.yaml`: is a link to a FIFO (named pipe), not a regular file",
    );
}

#[test]
fn a_problem_yaml_that_is_a_fifo_is_named_not_called_no_package() {
    let dir = Dir::new();
    dir.create("p/data/secret/hello.in", "\n");
    mkfifo(&dir.path().join("p/problem.yaml"));
    refused_at_once(
        &dir,
        &["grade", "--package", "p"],
        "`p/problem.yaml`: is a FIFO (named pipe), not a regular file",
    );
}
