//! A teacher's compiler wrapper (`course/bin/cc`, a script or an ELF
//! program) is lent its installation folders, never the judge's data: the
//! tests beside it under a link, named `lib`, or under `share`, the course
//! folder an ELF wrapper lives in, and the descriptors the judge inherited
//! when it asks the compiler where it lives (issue 18, the third and fourth
//! red teams), each as the attack itself, through the binary, as root and
//! as an ordinary user the test creates.

use crate::support::{compiler_wrapper, embedding_program, is_root, require_root};
use crate::support::{judge_in, open_dir, ordinary_user, rooks_tests, source};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

const CHECKS_REACH: &str =
    "it checks what the sandbox user may reach, or runs the judge as a user it creates";

/// Where the fourth red team put the tests beside a teacher's compiler
/// wrapper in `course/bin/`, so the "installation folders" lent to the
/// compile held them.
#[derive(Clone, Copy)]
enum Shape {
    /// `course/include -> tests`: a link beside `bin/` to the tests.
    LinkToTests,
    /// The `--tests` folder is `course/lib` itself.
    TestsNamedLib,
    /// The tests are `course/share/tests`.
    TestsUnderShare,
}

/// The tests folder of `shape` under `course`, and the path the hand-in
/// embeds its answer through.
fn lay_out(course: &Path, shape: Shape) -> (PathBuf, PathBuf) {
    match shape {
        Shape::LinkToTests => {
            let tests = rooks_tests(course);
            std::os::unix::fs::symlink("tests", course.join("include")).unwrap();
            (tests, course.join("include/sample-1.ans"))
        }
        Shape::TestsNamedLib => {
            let tests = rooks_tests(course);
            let lib = course.join("lib");
            fs_err::rename(&tests, &lib).unwrap();
            (lib.clone(), lib.join("sample-1.ans"))
        }
        Shape::TestsUnderShare => {
            let share = course.join("share");
            fs_err::create_dir(&share).unwrap();
            crate::support::readable_by_all(&share);
            let tests = rooks_tests(&share);
            (tests.clone(), tests.join("sample-1.ans"))
        }
    }
}

fn a_wrapper_is_not_lent_the_tests(shape: Shape, user: Option<(u32, u32)>) {
    require_root(CHECKS_REACH);
    let dir = open_dir();
    let course = dir.path().join("course");
    compiler_wrapper(&course, dir.path(), true);
    let (tests, embedded) = lay_out(&course, shape);
    crate::support::readable_by_all(&tests.join("sample-1.ans"));
    embedding_is_ce_and_honest_is_ac(dir.path(), &tests, &embedded, user, "the judge's data");
}

/// Hands in, from `dir`, a program that embeds `embedded` with `.incbin`
/// and an honest one, runs them on `tests` (as `user`, or root) with the
/// compiler wrapper of `dir`'s judge.toml, and asserts the first is CE and
/// the second AC: the wrapper still compiles (gcc needs none of course/),
/// but the answer is not there for the compile, and stderr says what was
/// not lent and why (`refused_because`).
pub(crate) fn embedding_is_ce_and_honest_is_ac(
    dir: &Path,
    tests: &Path,
    embedded: &Path,
    user: Option<(u32, u32)>,
    refused_because: &str,
) {
    source(dir, "embed.wc", &embedding_program(embedded));
    source(
        dir,
        "honest.wc",
        "#include <stdio.h>\nint main(void) { puts(\"5\\n1\\n5\\n2\\n4\"); return 0; }\n",
    );
    let judge = assert_cmd::cargo::cargo_bin!("judge");
    let (_, report, stderr) = judge_in(
        dir,
        judge,
        user,
        &format!("run rooks embed.wc honest.wc --tests {}", tests.display()),
        "",
    );
    let verdicts: Vec<&str> = (0..2)
        .map(|index| report["results"][index]["verdict"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(verdicts, ["CE", "AC"], "{report:#}\n{stderr}");
    assert!(
        stderr.contains("note: the compile of language `wrapped` is not lent")
            && stderr.contains(refused_because),
        "{stderr}"
    );
}

#[test]
#[ignore = "needs root (it checks what the sandbox user may reach); CI runs it as root: `cargo test --test it -- --ignored`"]
fn a_link_beside_a_wrappers_bin_to_the_tests_is_not_lent_as_root() {
    a_wrapper_is_not_lent_the_tests(Shape::LinkToTests, None);
}

#[test]
#[ignore = "needs root (it creates a user and runs the judge as that user); CI runs it as root: `cargo test --test it -- --ignored`"]
fn a_link_beside_a_wrappers_bin_to_the_tests_is_not_lent_without_root() {
    a_wrapper_is_not_lent_the_tests(Shape::LinkToTests, Some(ordinary_user()));
}

#[test]
#[ignore = "needs root (it checks what the sandbox user may reach); CI runs it as root: `cargo test --test it -- --ignored`"]
fn a_tests_folder_named_lib_beside_a_wrappers_bin_is_not_lent_as_root() {
    a_wrapper_is_not_lent_the_tests(Shape::TestsNamedLib, None);
}

#[test]
#[ignore = "needs root (it creates a user and runs the judge as that user); CI runs it as root: `cargo test --test it -- --ignored`"]
fn a_tests_folder_named_lib_beside_a_wrappers_bin_is_not_lent_without_root() {
    a_wrapper_is_not_lent_the_tests(Shape::TestsNamedLib, Some(ordinary_user()));
}

#[test]
#[ignore = "needs root (it checks what the sandbox user may reach); CI runs it as root: `cargo test --test it -- --ignored`"]
fn tests_under_share_beside_a_wrappers_bin_are_not_lent_as_root() {
    a_wrapper_is_not_lent_the_tests(Shape::TestsUnderShare, None);
}

#[test]
#[ignore = "needs root (it creates a user and runs the judge as that user); CI runs it as root: `cargo test --test it -- --ignored`"]
fn tests_under_share_beside_a_wrappers_bin_are_not_lent_without_root() {
    a_wrapper_is_not_lent_the_tests(Shape::TestsUnderShare, Some(ordinary_user()));
}
fn mode(path: &Path, mode: u32) {
    fs_err::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// A teacher's compiler wrapper that is a compiled program (ELF, not a
/// script) in `course/bin/`: the compile must not read `course/tests` (the
/// `--tests` folder) or `course/solutions` through `.incbin`, which it
/// did when the wrapper's "installation prefix" `course/` was lent whole.
fn an_elf_wrapper_lends_no_course_folder(user: Option<(u32, u32)>) {
    assert!(
        is_root(),
        "this test needs root (it checks what the sandbox user may reach)"
    );
    let dir = open_dir();
    let course = dir.path().join("course");
    compiler_wrapper(&course, dir.path(), true);
    let solutions = course.join("solutions");
    fs_err::create_dir_all(&solutions).unwrap();
    mode(&solutions, 0o755);
    let tests = rooks_tests(&course);
    let answer = tests.join("sample-1.ans");
    mode(&answer, 0o644);
    let solution = solutions.join("answers.txt");
    fs_err::write(&solution, "5\n1\n5\n2\n4\n").unwrap();
    mode(&solution, 0o644);
    source(dir.path(), "tests.wc", &embedding_program(&answer));
    source(dir.path(), "solutions.wc", &embedding_program(&solution));
    source(
        dir.path(),
        "honest.wc",
        "#include <stdio.h>\nint main(void) { puts(\"5\\n1\\n5\\n2\\n4\"); return 0; }\n",
    );
    let judge = assert_cmd::cargo::cargo_bin!("judge");
    let (_, report, stderr) = judge_in(
        dir.path(),
        judge,
        user,
        &format!(
            "run rooks tests.wc solutions.wc honest.wc --tests {}",
            tests.display()
        ),
        "",
    );
    let verdicts: Vec<&str> = (0..3)
        .map(|index| report["results"][index]["verdict"].as_str().unwrap_or(""))
        .collect();
    // The wrapper works (an honest program is AC), but neither file is
    // there for the compile.
    assert_eq!(verdicts, ["CE", "CE", "AC"], "{report:#}\n{stderr}");
}

#[test]
#[ignore = "needs root (it checks what the sandbox user may reach); CI runs it as root: `cargo test --test it -- --ignored`"]
fn an_elf_compiler_wrapper_in_course_bin_lends_no_course_folder_as_root() {
    an_elf_wrapper_lends_no_course_folder(None);
}

#[test]
#[ignore = "needs root (it creates a user and runs the judge as that user); CI runs it as root: `cargo test --test it -- --ignored`"]
fn an_elf_compiler_wrapper_in_course_bin_lends_no_course_folder_without_root() {
    an_elf_wrapper_lends_no_course_folder(Some(ordinary_user()));
}
/// The judge asks a teacher's compiler where it is installed
/// (`-print-search-dirs`) outside any sandbox: that query must not inherit
/// the descriptors the judge was started with (`3<answers.txt`), which
/// it did (issue 18, item 3; a third red team's finding).
#[test]
fn a_compiler_asked_where_it_lives_inherits_no_descriptor() {
    let dir = open_dir();
    let tests = rooks_tests(dir.path());
    fs_err::write(dir.path().join("answers.txt"), "5\n1\n5\n2\n4\n").unwrap();
    let seen = dir.path().join("seen.txt");
    let probe = dir.path().join("probe-cc");
    fs_err::write(
        &probe,
        format!(
            "#!/bin/sh\nif [ \"$1\" = -print-search-dirs ]; then\n  echo asked >> '{seen}'\n  \
             [ -e /proc/$$/fd/3 ] && echo 'descriptor 3 open' >> '{seen}'\n  exit 1\nfi\n\
             exec gcc \"$@\"\n",
            seen = seen.display()
        ),
    )
    .unwrap();
    mode(&probe, 0o755);
    fs_err::write(
        dir.path().join("judge.toml"),
        format!(
            "random-tests = 0\n[languages.probed]\nextensions = [\"pc\"]\ncompile = [\"{}\", \
             \"-x\", \"c\", \"-o\", \"{{executable}}\", \"{{source}}\"]\nrun = [\"{{executable}}\"]\n",
            probe.display()
        ),
    )
    .unwrap();
    source(
        dir.path(),
        "honest.pc",
        "#include <stdio.h>\nint main(void) { puts(\"5\\n1\\n5\\n2\\n4\"); return 0; }\n",
    );
    let judge = assert_cmd::cargo::cargo_bin!("judge");
    let (_, report, stderr) = judge_in(
        dir.path(),
        judge,
        None,
        &format!("run rooks honest.pc --tests {}", tests.display()),
        "3<answers.txt",
    );
    let seen = fs_err::read_to_string(&seen).unwrap_or_default();
    assert!(
        seen.contains("asked"),
        "the compiler was never asked: {seen}\n{report:#}\n{stderr}"
    );
    assert!(
        !seen.contains("descriptor 3"),
        "the compiler query inherited descriptor 3: {seen}"
    );
}
