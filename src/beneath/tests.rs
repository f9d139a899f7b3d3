use super::*;
use std::os::unix::fs::symlink;

/// A package `pkg` in a fresh folder, beside a host file `secret`:
/// `tests/02` a file, `tests/03` a link to it.
fn package() -> (tempfile::TempDir, PathBuf) {
    let root = tempfile::tempdir().unwrap();
    let package = root.path().join("pkg");
    fs_err::create_dir_all(package.join("tests")).unwrap();
    fs_err::write(package.join("tests/02"), "1 2\n").unwrap();
    fs_err::write(root.path().join("secret"), "TOPSECRET\n").unwrap();
    symlink("02", package.join("tests/03")).unwrap();
    (root, package)
}

const BOTH: [Resolver; 2] = [Resolver::Kernel, Resolver::Walk];

fn refused_link(error: BeneathError) -> PathBuf {
    match error {
        BeneathError::Refused(LinkRefused::OutsidePackage { link, .. }) => link,
        other => panic!("not refused as outside: {other:?}"),
    }
}

#[test]
fn a_file_and_a_link_inside_are_read_by_either_resolver() {
    let (_root, package) = package();
    fs_err::create_dir_all(package.join("files")).unwrap();
    symlink("../tests", package.join("files/shared")).unwrap();
    // Up out of the package and back into it by its own name.
    symlink("../../pkg/tests/02", package.join("files/round")).unwrap();
    // An absolute link naming a file inside (which `RESOLVE_BENEATH`
    // refuses: the walk follows it).
    let canonical = fs_err::canonicalize(&package).unwrap();
    symlink(canonical.join("tests/02"), package.join("files/absolute")).unwrap();
    let beneath = Beneath::new(&package).unwrap();
    for resolver in BOTH {
        for path in [
            "tests/02",
            "tests/03",
            "files/shared/03",
            "files/round",
            "files/absolute",
            "./tests/../tests/02",
        ] {
            assert_eq!(
                beneath.read_with(&package.join(path), resolver).unwrap(),
                b"1 2\n",
                "{path} {resolver:?}"
            );
            assert_eq!(beneath.check_with(&package.join(path), resolver), Ok(()));
        }
        // Relative to the folder, and by its canonical path.
        assert!(beneath.read_with(Path::new("tests/03"), resolver).is_ok());
        assert!(beneath
            .read_with(&canonical.join("tests/03"), resolver)
            .is_ok());
    }
}

/// The race's second half, made deterministic: a file that was checked
/// and then became a link out (a package or a generator swapping it) is
/// refused when it is read, the target never opened. No check runs
/// before the read here but the one the read makes itself.
#[test]
fn a_link_out_made_after_the_check_is_refused_when_read() {
    let (root, package) = package();
    let beneath = Beneath::new(&package).unwrap();
    let test = package.join("tests/02");
    assert_eq!(beneath.check(&test), Ok(()));
    fs_err::remove_file(&test).unwrap();
    symlink(root.path().join("secret"), &test).unwrap();
    for resolver in BOTH {
        let error = beneath.read_with(&test, resolver).unwrap_err();
        assert_eq!(refused_link(error), test, "{resolver:?}");
        let error = beneath.open_file_with(&test, resolver).unwrap_err();
        assert_eq!(refused_link(error), test, "{resolver:?}");
    }
    // A folder on the way swapped for a link out.
    fs_err::remove_dir_all(package.join("tests")).unwrap();
    fs_err::create_dir(root.path().join("host")).unwrap();
    fs_err::write(root.path().join("host/02"), "TOPSECRET\n").unwrap();
    symlink(root.path().join("host"), package.join("tests")).unwrap();
    for resolver in BOTH {
        let error = beneath.read_with(&test, resolver).unwrap_err();
        assert_eq!(refused_link(error), package.join("tests"), "{resolver:?}");
    }
}

#[test]
fn a_link_out_by_dot_dot_through_a_folder_link_or_absolute_is_refused() {
    let (root, package) = package();
    // `up` is the folder above the package: `up/secret` is the host file.
    symlink("..", package.join("up")).unwrap();
    symlink("../../secret", package.join("tests/01")).unwrap();
    symlink(root.path().join("secret"), package.join("tests/04")).unwrap();
    symlink("/etc/passwd", package.join("tests/05")).unwrap();
    // A link inside that leads on to a link out: the outer link is named.
    symlink("01", package.join("tests/06")).unwrap();
    // Up and back in by another folder's name.
    fs_err::create_dir(root.path().join("pkg2")).unwrap();
    fs_err::write(root.path().join("pkg2/02"), "TOPSECRET\n").unwrap();
    symlink("../../pkg2/02", package.join("tests/07")).unwrap();
    let beneath = Beneath::new(&package).unwrap();
    for resolver in BOTH {
        for (path, link) in [
            ("up/secret", "up"),
            ("tests/01", "tests/01"),
            ("tests/04", "tests/04"),
            ("tests/05", "tests/05"),
            ("tests/06", "tests/06"),
            ("tests/07", "tests/07"),
            ("up/pkg2/02", "up"),
        ] {
            let error = beneath
                .read_with(&package.join(path), resolver)
                .unwrap_err();
            assert_eq!(
                refused_link(error),
                package.join(link),
                "{path} {resolver:?}"
            );
            assert!(
                beneath.check_with(&package.join(path), resolver).is_err(),
                "{path} {resolver:?}"
            );
        }
    }
    // The kernel itself refuses each (the walk only names the link).
    for path in [
        "up/secret",
        "tests/01",
        "tests/04",
        "tests/06",
        "up/pkg2/02",
    ] {
        assert_eq!(
            beneath
                .open_by_kernel(Path::new(path), Purpose::Read)
                .map(drop),
            Err(Errno::XDEV),
            "{path}"
        );
    }
    assert!(beneath
        .open_by_kernel(Path::new("tests/03"), Purpose::Read)
        .is_ok());
    let error = beneath.read(&package.join("tests/05")).unwrap_err();
    assert_eq!(
        error.to_string(),
        format!(
            "refused `{}`: it is a symbolic link (symlink) to a file outside the package `{}`; \
             its target was not read",
            package.join("tests/05").display(),
            package.display()
        )
    );
    let BeneathError::Refused(refused) = error else {
        panic!("{error:?}");
    };
    assert_eq!(
        refused.hint(),
        Some(Hint::new("put the file itself in the package"))
    );
}

#[test]
fn a_link_loop_or_a_missing_target_is_refused_as_not_resolving() {
    let (_root, package) = package();
    symlink("b", package.join("tests/a")).unwrap();
    symlink("a", package.join("tests/b")).unwrap();
    symlink("self", package.join("tests/self")).unwrap();
    symlink("gone/x", package.join("tests/gone")).unwrap();
    symlink("02/x", package.join("tests/through-a-file")).unwrap();
    let beneath = Beneath::new(&package).unwrap();
    for resolver in BOTH {
        for (path, written) in [
            ("tests/a", "b"),
            ("tests/self", "self"),
            ("tests/gone", "gone/x"),
            ("tests/through-a-file", "02/x"),
        ] {
            let link = package.join(path);
            let error = beneath.read_with(&link, resolver).unwrap_err();
            let BeneathError::Refused(refused) = error else {
                panic!("{path} {resolver:?}: {error:?}");
            };
            assert_eq!(
                refused,
                LinkRefused::Dangling {
                    link,
                    written: Some(PathBuf::from(written)),
                    owner: LinkOwner::Package,
                },
                "{resolver:?}"
            );
            assert!(
                refused.to_string().contains("does not resolve"),
                "{refused}"
            );
        }
    }
}

#[test]
fn a_missing_file_or_one_that_is_not_regular_is_not_read_and_not_refused() {
    let (_root, package) = package();
    rustix::fs::mknodat(
        CWD,
        package.join("tests/fifo"),
        rustix::fs::FileType::Fifo,
        Mode::RUSR | Mode::WUSR,
        0,
    )
    .unwrap();
    let beneath = Beneath::new(&package).unwrap();
    for resolver in BOTH {
        match beneath.read_with(&package.join("tests/09"), resolver) {
            Err(BeneathError::Io { path, source }) => {
                assert_eq!(path, package.join("tests/09"));
                assert_eq!(source.kind(), std::io::ErrorKind::NotFound);
            }
            other => panic!("{resolver:?}: {other:?}"),
        }
        assert_eq!(
            beneath.check_with(&package.join("tests/09"), resolver),
            Ok(())
        );
        for path in ["tests/fifo", "tests"] {
            assert!(
                matches!(
                    beneath.read_with(&package.join(path), resolver),
                    Err(BeneathError::NotRegular(_))
                ),
                "{path} {resolver:?}"
            );
        }
    }
    assert!(beneath.read(Path::new("/etc/passwd")).is_err());
}

/// What `no_link_out` pinned before the rule had one home (issue #29).
#[test]
fn a_path_through_a_link_out_of_its_root_is_refused_unread() {
    let root = tempfile::tempdir().unwrap();
    let package = root.path().join("pkg");
    fs_err::create_dir_all(package.join("tests")).unwrap();
    fs_err::write(package.join("tests/02"), "1 2\n").unwrap();
    fs_err::write(root.path().join("secret"), "7 8\n").unwrap();
    symlink("02", package.join("tests/03")).unwrap();
    symlink(root.path().join("secret"), package.join("tests/01")).unwrap();
    symlink(root.path(), package.join("out")).unwrap();
    symlink("missing", package.join("tests/04")).unwrap();
    let beneath = Beneath::new(&package).unwrap();
    assert_eq!(beneath.check(&package.join("tests/02")), Ok(()));
    assert_eq!(beneath.check(&package.join("tests/03")), Ok(()));
    assert_eq!(beneath.check(&package.join("tests/05")), Ok(()));
    for (path, link, why) in [
        ("tests/01", "tests/01", "outside the package"),
        ("out/secret", "out", "outside the package"),
        ("tests/04", "tests/04", "does not resolve"),
    ] {
        let error = beneath.check(&package.join(path)).unwrap_err().to_string();
        assert!(
            error.contains(&format!("refused `{}`", package.join(link).display()))
                && error.contains(why),
            "{path}: {error}"
        );
    }
}
