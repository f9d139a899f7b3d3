//! What a Kattis package's `submissions/` may hold (issue #34): a
//! submission is a source file or a folder program; a FIFO, a device or a
//! folder the judge cannot copy is the package's defect, refused at load
//! with its name and what it is. It was skipped with exit 0 (a CI gate
//! passed with an accepted example never run), called a file "in a language
//! that is not configured", or blocked the judge in `open` for good.

use crate::support::{Dir, PackageBuilder, Run};
use std::time::Duration;

/// A 2025-09 hello package with an accepted and a wrong submission.
fn hello(dir: &Dir) {
    PackageBuilder::kattis(dir, "hello")
        .manifest(
            "problem_format_version: 2025-09\ntype: pass-fail\nname: Hello\n\
             uuid: 2c4e6a80-1b3d-4f5a-8c7e-9d0f1a2b3c4d\nlicense: cc0\n",
        )
        .test("secret/1", "1\n", "1\n")
        .file("input_validators/validate.py", "import sys\nsys.exit(42)\n")
        .submission("accepted/echo.py", "print(input())\n")
        .submission("wrong_answer/two.py", "print(2)\n")
        .build();
}

fn mkfifo(dir: &Dir, path: &str) {
    let status = std::process::Command::new("mkfifo")
        .arg(dir.path().join(path))
        .status()
        .unwrap();
    assert!(status.success());
}

/// `judge grade --package hello`, killed after two minutes: the FIFO blocked
/// it for good.
fn grade(dir: &Dir) -> Run {
    let args = ["grade", "--package", "hello"];
    let output = assert_cmd::cargo::cargo_bin_cmd!("judge")
        .current_dir(dir.path())
        .args(args)
        .timeout(Duration::from_secs(120))
        .output()
        .unwrap();
    Run::new(&args, output)
}

/// See: issue #34 (break-it finding 6b). A submission that is a FIFO is
/// refused, named as a FIFO; it was "skipped: its language (`.py`) is not
/// configured" with exit 0, and then blocked the judge reading it for
/// DOMjudge's `@EXPECTED_RESULTS@` marker. A link to no file was called a
/// language that is not configured too.
#[test]
fn a_submission_that_is_a_fifo_refuses_the_package_naming_it() {
    let dir = Dir::new();
    hello(&dir);
    mkfifo(&dir, "hello/submissions/accepted/x.py");
    let run = grade(&dir);
    run.expect_code(2);
    let err = run.stderr();
    assert!(
        // Refused by the walk of the whole package before it is read
        // (break-it 45: a FIFO anywhere in a package).
        err.contains(
            "failed to load `hello/submissions/accepted/x.py`: is a FIFO (named pipe), not a \
             regular file"
        ),
        "{err}"
    );
    assert!(!err.contains("not configured"), "{err}");

    // A link that leads nowhere is said as it is, not "not configured".
    fs_err::remove_file(dir.path().join("hello/submissions/accepted/x.py")).unwrap();
    std::os::unix::fs::symlink(
        "nothere.py",
        dir.path().join("hello/submissions/accepted/x.py"),
    )
    .unwrap();
    let run = grade(&dir);
    run.expect_code(2);
    let err = run.stderr();
    assert!(
        err.contains("cannot read the submission `hello/submissions/accepted/x.py`")
            && err.contains("No such file or directory"),
        "{err}"
    );
    assert!(!err.contains("not configured"), "{err}");
}

/// See: issue #34 (break-it finding 6d). An accepted folder program holding
/// a FIFO, or more files than the judge copies, refuses the package naming
/// it; both were "skipped" with exit 0.
#[test]
fn a_folder_submission_the_judge_cannot_copy_refuses_the_package() {
    let dir = Dir::new();
    hello(&dir);
    dir.create(
        "hello/submissions/accepted/fold/main.py",
        "print(input())\n",
    );
    mkfifo(&dir, "hello/submissions/accepted/fold/data.txt");
    let run = grade(&dir);
    run.expect_code(2);
    let err = run.stderr();
    assert!(
        err.contains(
            "failed to load `hello/submissions/accepted/fold/data.txt`: is a FIFO (named pipe), \
             not a regular file"
        ),
        "{err}"
    );
    assert!(!err.contains("skipped"), "{err}");

    fs_err::remove_dir_all(dir.path().join("hello/submissions/accepted/fold")).unwrap();
    dir.create(
        "hello/submissions/accepted/many/main.py",
        "print(input())\n",
    );
    for index in 0..1000 {
        dir.create(
            &format!("hello/submissions/accepted/many/f{index}.txt"),
            "x\n",
        );
    }
    let run = grade(&dir);
    run.expect_code(2);
    let err = run.stderr();
    assert!(
        err.contains(
            "refused `hello/submissions/accepted/many`: a folder program holds at most 1000 \
             files and 64 MiB"
        ),
        "{err}"
    );
    assert!(!err.contains("skipped"), "{err}");
}

/// See: issue #34. A folder program in a language that is not configured
/// is still skipped with the reason (a toolchain this host lacks is no
/// defect of the package), and the rest is graded.
#[test]
fn a_folder_submission_in_no_configured_language_is_still_skipped() {
    let dir = Dir::new();
    hello(&dir);
    dir.create(
        "hello/submissions/accepted/zig/main.zig",
        "pub fn main() void {}\n",
    );
    let run = grade(&dir);
    run.expect_code(0);
    let err = run.stderr();
    assert!(
        err.contains(
            "skipped: hello/submissions/accepted/zig: a folder program that cannot be built"
        ),
        "{err}"
    );
}
