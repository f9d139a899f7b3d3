use super::*;
use std::os::unix::fs::PermissionsExt;

fn language(compile: Option<&[&str]>, run: &[&str]) -> Language {
    let words = |argv: &[&str]| argv.iter().map(|word| (*word).to_owned()).collect();
    Language {
        extensions: vec!["x".to_owned()],
        source_name: None,
        compile: compile.map(words),
        run: words(run),
        time_factor: None,
        entry: None,
        folder: Default::default(),
    }
}

/// A missing compiler or run program is named; `env` is looked
/// through; the compiled `{executable}` is the compile's.
#[test]
fn a_missing_toolchain_is_named() {
    assert_eq!(
        missing_toolchain("c", &language(Some(&["sh", "{source}"]), &["{executable}"])),
        None
    );
    let missing = missing_toolchain(
        "go",
        &language(
            Some(&["env", "GOCACHE={dir}/c", "no-such-go-xyz", "build"]),
            &["{executable}"],
        ),
    )
    .unwrap();
    assert!(
        missing.contains("the compiler `no-such-go-xyz` is not installed"),
        "{missing}"
    );
    let missing =
        missing_toolchain("py2", &language(None, &["no-such-python-xyz", "{source}"])).unwrap();
    assert!(
        missing.contains("`no-such-python-xyz` (from `run`) is not installed"),
        "{missing}"
    );
}

/// The answer `toolchain_of` keeps is lent only as far as the judge's
/// data allows at each compile: a library folder the compiler reported
/// at its first compile is refused to a later one whose sandbox hides a
/// package under it (a package's lent sandboxes are handed more once the
/// command has gathered it).
#[test]
fn a_kept_answer_is_lent_as_the_data_allows_at_each_compile() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    fs_err::create_dir_all(lib.join("tests")).unwrap();
    let lib = fs_err::canonicalize(&lib).unwrap();
    let compiler = dir.path().join("cc-kept");
    fs_err::write(
        &compiler,
        format!(
            "#!/bin/sh\n[ \"$1\" = -print-search-dirs ] && echo 'libraries: ={}'\nexit 0\n",
            lib.display()
        ),
    )
    .unwrap();
    fs_err::set_permissions(&compiler, std::fs::Permissions::from_mode(0o755)).unwrap();
    let mut hidden = crate::sandbox::Hidden::new();
    let first = lendable("kept", toolchain_of(&compiler).1, &hidden);
    assert!(first.contains(&lib), "{first:?}");
    hidden.hide(
        crate::sandbox::DataFolder::PackageFolder,
        &lib.join("tests"),
    );
    let second = lendable("kept", toolchain_of(&compiler).1, &hidden);
    assert!(!second.contains(&lib), "{second:?}");
    assert!(second.contains(&compiler), "{second:?}");
}

#[test]
fn a_compiler_is_asked_where_it_lives_once_per_process() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("asked.log");
    let script = |name: &str| {
        let path = dir.path().join(name);
        fs_err::write(
            &path,
            format!("#!/bin/sh\necho \"$0 $*\" >>'{}'\n", log.display()),
        )
        .unwrap();
        fs_err::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        path
    };
    let (first, second) = (script("cc-one"), script("cc-two"));
    let asked = || {
        fs_err::read_to_string(&log)
            .unwrap_or_default()
            .lines()
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    let answer = toolchain_of(&first);
    assert_eq!(answer.0, first);
    assert!(answer.1.contains(&first), "{:?}", answer.1);
    // -print-search-dirs and -print-sysroot, once each.
    assert_eq!(asked().len(), 2, "{:?}", asked());
    assert_eq!(toolchain_of(&first), answer);
    assert_eq!(asked().len(), 2, "asked again: {:?}", asked());
    // Another compiler is asked for itself.
    assert_eq!(toolchain_of(&second).0, second);
    let asked = asked();
    assert_eq!(asked.len(), 4, "{asked:?}");
    assert!(
        asked[2..].iter().all(|line| line.contains("cc-two")),
        "{asked:?}"
    );
}

/// Issue 32: why a compiler was not found, for this user.
#[test]
fn why_a_compiler_is_missing_is_precise() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(
        super::why_not_found("no-such-compiler-xyz", &dir.path().display().to_string()),
        "not found in PATH"
    );
    let present = dir.path().join("cc-not-runnable");
    fs_err::write(&present, "").unwrap();
    assert_eq!(
        super::why_not_found("cc-not-runnable", &dir.path().display().to_string()),
        format!(
            "`{}` is there, but this user may not run it",
            present.display()
        )
    );
}
