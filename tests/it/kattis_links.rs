//! Issue #34: a Kattis package's programs whose files are symbolic links
//! (BAPCtools shares `validation.h` between its validators by links, and
//! links one submission to another), on `tests/fixtures/kattis/linked`: an
//! input validator folder whose `limits.py` links to `shared/`, a
//! submission that is a link, and a folder submission whose `__main__.py`
//! is one. A link inside the package is followed; one that leaves it is
//! refused, naming the link and its target.

use crate::support::{copy_fixture, Dir};

/// Replaces `link` (under `dir`) with a symbolic link to `target`.
fn relink(dir: &Dir, link: &str, target: &str) {
    let link = dir.path().join(link);
    fs_err::remove_file(&link).unwrap();
    std::os::unix::fs::symlink(target, link).unwrap();
}

/// See: issue #34. Links that stay inside the package are followed: the
/// validator imports its linked `limits.py`, and both linked submissions
/// are accepted.
#[test]
fn links_inside_the_package_are_followed() {
    let dir = Dir::new();
    copy_fixture(&dir, "kattis/linked", "linked");
    assert!(dir
        .path()
        .join("linked/input_validators/range/limits.py")
        .is_symlink());
    let run = dir.judge(&["grade", "--package", "linked"]);
    let out = run.stdout();
    assert_eq!(run.code(), 0, "{out}{}", run.stderr());
    assert!(
        out.contains("3 of 3 submissions got their folder's verdict"),
        "{out}"
    );
    assert!(
        out.contains("ok       linked/submissions/accepted/linked: AC"),
        "{out}"
    );
    assert!(
        out.contains("ok       linked/submissions/accepted/echo.py: AC"),
        "{out}"
    );
}

/// A validator's file linking out of the package refuses the package
/// (exit 2) naming the link, where it points and the package.
#[test]
fn a_validator_link_leaving_the_package_refuses_it() {
    let dir = Dir::new();
    copy_fixture(&dir, "kattis/linked", "linked");
    dir.create("outside/limits.py", "LOW, HIGH = 1, 100\n");
    relink(
        &dir,
        "linked/input_validators/range/limits.py",
        "../../../outside/limits.py",
    );
    let run = dir.judge(&["grade", "--package", "linked"]);
    run.expect_code(2);
    let err = run.stderr();
    assert!(
        err.contains("refused `linked/input_validators/range/limits.py`: it is a symbolic link (symlink) to `../../../outside/limits.py`, which is outside the package"),
        "{err}"
    );
    assert!(
        err.contains("hint: copy the file into the package"),
        "{err}"
    );
}

/// A submission linking out of the package is CE naming it; its target is
/// not run. The other submissions grade.
#[test]
fn a_submission_link_leaving_the_package_is_a_compile_error() {
    let dir = Dir::new();
    copy_fixture(&dir, "kattis/linked", "linked");
    dir.create("outside/echo.py", "print(int(input()))\n");
    relink(
        &dir,
        "linked/submissions/accepted/echo.py",
        "../../../outside/echo.py",
    );
    let run = dir.judge(&["grade", "--package", "linked"]);
    run.expect_code(1);
    let out = run.stdout();
    assert!(
        out.contains("MISMATCH linked/submissions/accepted/echo.py: CE (folder accepted) (CE at compile: refused `linked/submissions/accepted/echo.py`: it is a symbolic link (symlink) to `../../../outside/echo.py`, which is outside the package"),
        "{out}"
    );
    assert!(
        out.contains("ok       linked/submissions/accepted/linked: AC"),
        "{out}"
    );
}
