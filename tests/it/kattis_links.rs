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
    let outside = dir.create("outside/limits.py", "LOW, HIGH = 1, 100\n");
    // Private: only its owner may read it.
    fs_err::set_permissions(
        &outside,
        std::os::unix::fs::PermissionsExt::from_mode(0o600),
    )
    .unwrap();
    relink(
        &dir,
        "linked/input_validators/range/limits.py",
        "../../../outside/limits.py",
    );
    let run = dir.judge(&["grade", "--package", "linked"]);
    run.expect_code(2);
    let err = run.stderr();
    assert!(
        err.contains("refused `linked/input_validators/range/limits.py`: it is a symbolic link (symlink) to `")
            && err.contains("/outside/limits.py`, which is outside the package")
            && err.contains("is not readable by every user of this machine"),
        "{err}"
    );
    assert!(err.contains("copy the file into the package"), "{err}");
}

/// See: issue #34 (BAPCtools' `constants`, `identity`): a validator's
/// header linking to a public file outside the package (the header a
/// BAPCtools installation ships) is read as the file's content, with a
/// note naming the link and its target; a link out to a folder or to a
/// file only its owner may read (`/etc/shadow` for one) is refused naming
/// both, and an export carries content, never a link.
#[test]
fn a_link_out_of_the_package_is_followed_only_to_a_public_file() {
    use std::os::unix::fs::PermissionsExt;
    let dir = Dir::new();
    fs_err::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    copy_fixture(&dir, "kattis/linked", "linked");
    let header = dir.create("tools/headers/limits.py", "LOW, HIGH = 1, 100\n");
    for folder in ["tools", "tools/headers"] {
        fs_err::set_permissions(
            dir.path().join(folder),
            std::fs::Permissions::from_mode(0o755),
        )
        .unwrap();
    }
    fs_err::set_permissions(&header, std::fs::Permissions::from_mode(0o644)).unwrap();
    relink(
        &dir,
        "linked/input_validators/range/limits.py",
        "../../../tools/headers/limits.py",
    );
    let run = dir.judge(&["grade", "--package", "linked"]);
    assert_eq!(run.code(), 0, "{}", run.transcript());
    let err = run.stderr();
    assert!(
        err.contains("note: `")
            && err.contains("linked/input_validators/range/limits.py` is a symbolic link to `")
            && err.contains("tools/headers/limits.py`, outside the package: its content is read"),
        "{err}"
    );
    assert!(
        run.stdout()
            .contains("3 of 3 submissions got their folder's verdict"),
        "{}",
        run.transcript()
    );

    // Only its owner may read it: refused, as a folder is.
    fs_err::set_permissions(&header, std::fs::Permissions::from_mode(0o600)).unwrap();
    let private = dir.judge(&["grade", "--package", "linked"]);
    private.expect_code(2);
    assert!(
        private
            .stderr()
            .contains("is not readable by every user of this machine"),
        "{}",
        private.transcript()
    );
    relink(
        &dir,
        "linked/input_validators/range/limits.py",
        "../../../tools/headers",
    );
    let folder = dir.judge(&["grade", "--package", "linked"]);
    folder.expect_code(2);
    assert!(
        folder.stderr().contains("is a folder"),
        "{}",
        folder.transcript()
    );
}

/// A submission linking out of the package is CE naming it; its target is
/// not run. The other submissions grade.
#[test]
fn a_submission_link_leaving_the_package_is_a_compile_error() {
    let dir = Dir::new();
    copy_fixture(&dir, "kattis/linked", "linked");
    let outside = dir.create("outside/echo.py", "print(int(input()))\n");
    fs_err::set_permissions(
        &outside,
        std::os::unix::fs::PermissionsExt::from_mode(0o600),
    )
    .unwrap();
    relink(
        &dir,
        "linked/submissions/accepted/echo.py",
        "../../../outside/echo.py",
    );
    let run = dir.judge(&["grade", "--package", "linked"]);
    run.expect_code(1);
    let out = run.stdout();
    assert!(
        out.contains("MISMATCH linked/submissions/accepted/echo.py: CE (folder accepted) (CE at compile: refused `linked/submissions/accepted/echo.py`: it is a symbolic link (symlink) to `")
            && out.contains("/outside/echo.py`, which is outside the package"),
        "{out}"
    );
    assert!(
        out.contains("ok       linked/submissions/accepted/linked: AC"),
        "{out}"
    );
}

/// See: issue #34. A test-data file that links out of the package refuses
/// the package (exit 2) naming the link and where it points, before any
/// of it is read: `data/secret/1.ans -> /etc/shadow` must not put the
/// file's bytes on stderr or in the report. That holds for a private file,
/// a public one, any file under `data/` (an input, an `invalid_input/`
/// case, `test_group.yaml`) and `data/` itself; a link inside the package
/// stays allowed.
#[test]
fn a_test_data_link_leaving_the_package_refuses_it_unread() {
    const SECRET: &str = "root:TOPSECRETHASH:20228:0:99999:7:::";
    for (mode, link) in [
        (0o600, "linked/data/secret/1.ans"),
        (0o644, "linked/data/secret/1.ans"),
        (0o600, "linked/data/sample/1.in"),
        (0o600, "linked/data/invalid_input/bad.in"),
        (0o600, "linked/data/secret/test_group.yaml"),
    ] {
        let dir = Dir::new();
        copy_fixture(&dir, "kattis/linked", "linked");
        let outside = dir.create("outside/shadow", format!("{SECRET}\n"));
        fs_err::set_permissions(&outside, std::os::unix::fs::PermissionsExt::from_mode(mode))
            .unwrap();
        let at = dir.path().join(link);
        fs_err::create_dir_all(at.parent().unwrap()).unwrap();
        if at.exists() {
            fs_err::remove_file(&at).unwrap();
        }
        std::os::unix::fs::symlink(&outside, &at).unwrap();
        let report = dir.path().join("report.json");
        let run = dir.judge(&[
            "grade",
            "--package",
            "linked",
            "--json",
            report.to_str().unwrap(),
        ]);
        let (out, err) = (run.stdout(), run.stderr());
        assert_eq!(run.code(), 2, "{link} {mode:o}: {out}{err}");
        assert!(
            err.contains(&format!(
                "`{link}`: refused: it is a symbolic link (symlink) to `"
            )) && err.contains("/outside/shadow`, outside the package")
                && err.contains("its target was not read"),
            "{link} {mode:o}: {err}"
        );
        assert!(
            !out.contains("TOPSECRET") && !err.contains("TOPSECRET"),
            "{link}: {out}{err}"
        );
        let written = fs_err::read_to_string(&report).unwrap_or_default();
        assert!(!written.contains("TOPSECRET"), "{link}: {written}");
    }
    // `data/` itself linking out.
    let dir = Dir::new();
    copy_fixture(&dir, "kattis/linked", "linked");
    fs_err::rename(dir.path().join("linked/data"), dir.path().join("data")).unwrap();
    std::os::unix::fs::symlink("../data", dir.path().join("linked/data")).unwrap();
    let run = dir.judge(&["grade", "--package", "linked"]);
    run.expect_code(2);
    assert!(
        run.stderr()
            .contains("`linked/data`: refused: it is a symbolic link (symlink) to `../data`"),
        "{}",
        run.stderr()
    );
}

/// A test-data link inside the package (an answer shared by two tests, a
/// group folder linked to another) is read as its target.
#[test]
fn a_test_data_link_inside_the_package_is_followed() {
    let dir = Dir::new();
    copy_fixture(&dir, "kattis/linked", "linked");
    relink(&dir, "linked/data/secret/1.ans", "../sample/1.ans");
    relink(&dir, "linked/data/secret/1.in", "../sample/1.in");
    let run = dir.judge(&["grade", "--package", "linked"]);
    assert_eq!(run.code(), 0, "{}{}", run.stdout(), run.stderr());
}
