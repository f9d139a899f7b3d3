//! The judge's data under another name is not lent to a compile either:
//! a hard link to an answer (at any depth), a bind mount of the tests, a
//! bind mount of the course holding them, a hard link to the judge itself
//! beside a teacher's compiler wrapper, an answer bind-mounted onto a file
//! in `course/include`, an overlay of the tests as `course/include` (issue
//! 18, the fifth red team; issue 35), each as the attack itself, through
//! the binary, as root and as an ordinary user the test creates.

use crate::support::{compiler_wrapper, embedding_program, readable_by_all, require_root};
use crate::support::{judge_in, open_dir, ordinary_user, rooks_tests, source};
use crate::toolchain_lending::embedding_is_ce_and_honest_is_ac;
use std::path::{Path, PathBuf};
use std::process::Command;

const CHECKS_REACH: &str =
    "it checks what the sandbox user may reach, or runs the judge as a user it creates";

/// How the tests reach a folder beside a teacher's compiler wrapper in
/// `course/bin/` under another name than their own.
#[derive(Clone, Copy)]
enum Alias {
    /// `course/share/answer` is a hard link to `tests/sample-1.ans`.
    HardLink,
    /// The tests are bind-mounted at `course/lib/tests`.
    BindMount,
    /// `course/include` is a bind mount of `course` itself (it holds the
    /// tests).
    BindOfTheParent,
    /// `tests/sample-1.ans` is bind-mounted onto the file
    /// `course/include/x`: one name, so a check by count of names lent it
    /// (issue 35).
    BindMountedFile,
    /// `course/include` is an overlay whose lower layer is the tests:
    /// through it an answer has its inode number and another device, so
    /// no identity matched (issue 35).
    Overlay,
}

/// Unmounts what a test mounted, also when it fails.
struct Mounted(PathBuf);

impl Drop for Mounted {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(&self.0).status();
    }
}

fn mount_bind(source: &Path, target: &Path) -> Mounted {
    if source.is_dir() {
        fs_err::create_dir_all(target).unwrap();
    } else {
        fs_err::write(target, "").unwrap();
    }
    readable_by_all(target);
    let status = Command::new("mount")
        .arg("--bind")
        .arg(source)
        .arg(target)
        .status()
        .expect("mount runs");
    assert!(status.success(), "mount --bind failed");
    Mounted(target.to_path_buf())
}

/// Lays out `alias` under `course` and returns the path the hand-in
/// embeds the answer through (and what to unmount).
fn lay_out(course: &Path, tests: &Path, alias: Alias) -> (PathBuf, Option<Mounted>) {
    match alias {
        Alias::HardLink => {
            let share = course.join("share");
            fs_err::create_dir(&share).unwrap();
            readable_by_all(&share);
            let answer = share.join("answer");
            fs_err::hard_link(tests.join("sample-1.ans"), &answer).unwrap();
            (answer, None)
        }
        Alias::BindMount => {
            let lib = course.join("lib");
            fs_err::create_dir(&lib).unwrap();
            readable_by_all(&lib);
            let mounted = mount_bind(tests, &lib.join("tests"));
            (lib.join("tests/sample-1.ans"), Some(mounted))
        }
        Alias::BindOfTheParent => {
            let include = course.join("include");
            let mounted = mount_bind(course, &include);
            (include.join("tests/sample-1.ans"), Some(mounted))
        }
        Alias::BindMountedFile => {
            let include = course.join("include");
            fs_err::create_dir(&include).unwrap();
            readable_by_all(&include);
            let file = include.join("x");
            let mounted = mount_bind(&tests.join("sample-1.ans"), &file);
            (file, Some(mounted))
        }
        Alias::Overlay => {
            let include = course.join("include");
            let beside = course.parent().expect("the course is in the test's folder");
            let (upper, work) = (beside.join("upper"), beside.join("work"));
            for folder in [&include, &upper, &work] {
                fs_err::create_dir(folder).unwrap();
                readable_by_all(folder);
            }
            let options = format!(
                "lowerdir={},upperdir={},workdir={}",
                tests.display(),
                upper.display(),
                work.display()
            );
            let status = Command::new("mount")
                .args(["-t", "overlay", "overlay", "-o", &options])
                .arg(&include)
                .status()
                .expect("mount runs");
            assert!(status.success(), "mount -t overlay failed");
            let mounted = Mounted(include.clone());
            (include.join("sample-1.ans"), Some(mounted))
        }
    }
}

fn an_alias_of_the_tests_is_not_lent(alias: Alias, user: Option<(u32, u32)>) {
    require_root(CHECKS_REACH);
    let dir = open_dir();
    let course = dir.path().join("course");
    compiler_wrapper(&course, dir.path(), true);
    let tests = rooks_tests(&course);
    readable_by_all(&tests.join("sample-1.ans"));
    let (embedded, mounted) = lay_out(&course, &tests, alias);
    // What an overlay shows cannot be told by identity: it is refused as a
    // mount, the others as the judge's data.
    let refused_because = match alias {
        Alias::Overlay => "include` is a mount point at a lent folder",
        _ => "the judge's",
    };
    embedding_is_ce_and_honest_is_ac(dir.path(), &tests, &embedded, user, refused_because);
    drop(mounted);
}

#[test]
#[ignore = "needs root (it checks what the sandbox user may reach); CI runs it as root: `cargo test --test it -- --ignored`"]
fn a_hard_link_to_an_answer_beside_a_wrappers_bin_is_not_lent_as_root() {
    an_alias_of_the_tests_is_not_lent(Alias::HardLink, None);
}

#[test]
#[ignore = "needs root (it creates a user and runs the judge as that user); CI runs it as root: `cargo test --test it -- --ignored`"]
fn a_hard_link_to_an_answer_beside_a_wrappers_bin_is_not_lent_without_root() {
    an_alias_of_the_tests_is_not_lent(Alias::HardLink, Some(ordinary_user()));
}

#[test]
#[ignore = "needs root (it bind-mounts the tests and checks what the sandbox user may reach); CI runs it as root: `cargo test --test it -- --ignored`"]
fn a_bind_mount_of_the_tests_inside_a_wrappers_lib_is_not_lent_as_root() {
    an_alias_of_the_tests_is_not_lent(Alias::BindMount, None);
}

#[test]
#[ignore = "needs root (it bind-mounts the tests and creates a user); CI runs it as root: `cargo test --test it -- --ignored`"]
fn a_bind_mount_of_the_tests_inside_a_wrappers_lib_is_not_lent_without_root() {
    an_alias_of_the_tests_is_not_lent(Alias::BindMount, Some(ordinary_user()));
}

#[test]
#[ignore = "needs root (it bind-mounts the course and checks what the sandbox user may reach); CI runs it as root: `cargo test --test it -- --ignored`"]
fn a_bind_mount_of_the_course_as_a_wrappers_include_is_not_lent_as_root() {
    an_alias_of_the_tests_is_not_lent(Alias::BindOfTheParent, None);
}

#[test]
#[ignore = "needs root (it bind-mounts the course and creates a user); CI runs it as root: `cargo test --test it -- --ignored`"]
fn a_bind_mount_of_the_course_as_a_wrappers_include_is_not_lent_without_root() {
    an_alias_of_the_tests_is_not_lent(Alias::BindOfTheParent, Some(ordinary_user()));
}

#[test]
#[ignore = "needs root (it bind-mounts an answer and checks what the sandbox user may reach); CI runs it as root: `cargo test --test it -- --ignored`"]
fn an_answer_bind_mounted_onto_a_wrappers_include_file_is_not_lent_as_root() {
    an_alias_of_the_tests_is_not_lent(Alias::BindMountedFile, None);
}

#[test]
#[ignore = "needs root (it bind-mounts an answer and creates a user); CI runs it as root: `cargo test --test it -- --ignored`"]
fn an_answer_bind_mounted_onto_a_wrappers_include_file_is_not_lent_without_root() {
    an_alias_of_the_tests_is_not_lent(Alias::BindMountedFile, Some(ordinary_user()));
}

/// A hard link to the judge's own binary in `course/libexec` (the teacher
/// keeps the judge beside the wrapper): the compile was lent the folder, so
/// a hand-in embedded the reference solvers with `.incbin`.
fn a_hard_link_to_the_judge_is_not_lent(user: Option<(u32, u32)>) {
    use std::os::unix::fs::PermissionsExt;
    require_root(CHECKS_REACH);
    let dir = open_dir();
    let course = dir.path().join("course");
    compiler_wrapper(&course, dir.path(), true);
    let tests = rooks_tests(&course);
    // The judge run is a copy in the test's folder, so the hard link is
    // made on one file system.
    let judge = dir.path().join("judge");
    fs_err::copy(assert_cmd::cargo::cargo_bin!("judge"), &judge).unwrap();
    fs_err::set_permissions(&judge, std::fs::Permissions::from_mode(0o755)).unwrap();
    let libexec = course.join("libexec");
    fs_err::create_dir(&libexec).unwrap();
    readable_by_all(&libexec);
    fs_err::hard_link(&judge, libexec.join("judge")).unwrap();
    source(
        dir.path(),
        "embed.wc",
        &embedding_program(&libexec.join("judge")),
    );
    let (_, report, stderr) = judge_in(
        dir.path(),
        &judge,
        user,
        &format!("run rooks embed.wc --tests {}", tests.display()),
        "",
    );
    assert_eq!(
        report["results"][0]["verdict"].as_str(),
        Some("CE"),
        "{report:#}\n{stderr}"
    );
    assert!(stderr.contains("is a hard link to the judge's"), "{stderr}");
}

#[test]
#[ignore = "needs root (it checks what the sandbox user may reach); CI runs it as root: `cargo test --test it -- --ignored`"]
fn a_hard_link_to_the_judge_beside_a_wrappers_bin_is_not_lent_as_root() {
    a_hard_link_to_the_judge_is_not_lent(None);
}

#[test]
#[ignore = "needs root (it creates a user and runs the judge as that user); CI runs it as root: `cargo test --test it -- --ignored`"]
fn a_hard_link_to_the_judge_beside_a_wrappers_bin_is_not_lent_without_root() {
    a_hard_link_to_the_judge_is_not_lent(Some(ordinary_user()));
}
/// `course/include/d1/.../d17/answer`, a hard link to `tests/sample-1.ans`
/// at depth 18 of a folder lent to a teacher's compiler wrapper: the walk
/// for hard links stopped at depth 16, so the folder was lent and a hand-in
/// embedded the answer with `.incbin`. The walk now reaches every depth.
fn a_hard_link_deeper_than_a_fixed_walk_is_not_lent(user: Option<(u32, u32)>) {
    require_root(CHECKS_REACH);
    let dir = open_dir();
    let course = dir.path().join("course");
    compiler_wrapper(&course, dir.path(), true);
    let tests = rooks_tests(&course);
    readable_by_all(&tests.join("sample-1.ans"));
    let mut deep = course.join("include");
    for level in 1..=17 {
        deep.push(format!("d{level}"));
    }
    fs_err::create_dir_all(&deep).unwrap();
    for folder in deep
        .ancestors()
        .take_while(|folder| folder.starts_with(&course))
    {
        readable_by_all(folder);
    }
    let answer = deep.join("answer");
    fs_err::hard_link(tests.join("sample-1.ans"), &answer).unwrap();
    embedding_is_ce_and_honest_is_ac(
        dir.path(),
        &tests,
        &answer,
        user,
        "is a hard link to the judge's",
    );
}

#[test]
#[ignore = "needs root (it checks what the sandbox user may reach); CI runs it as root: `cargo test --test it -- --ignored`"]
fn a_hard_link_to_an_answer_at_depth_18_beside_a_wrappers_bin_is_not_lent_as_root() {
    a_hard_link_deeper_than_a_fixed_walk_is_not_lent(None);
}

#[test]
#[ignore = "needs root (it creates a user and runs the judge as that user); CI runs it as root: `cargo test --test it -- --ignored`"]
fn a_hard_link_to_an_answer_at_depth_18_beside_a_wrappers_bin_is_not_lent_without_root() {
    a_hard_link_deeper_than_a_fixed_walk_is_not_lent(Some(ordinary_user()));
}

#[test]
#[ignore = "needs root (it mounts an overlay of the tests and checks what the sandbox user may reach); CI runs it as root: `cargo test --test it -- --ignored`"]
fn an_overlay_of_the_tests_as_a_wrappers_include_is_not_lent_as_root() {
    an_alias_of_the_tests_is_not_lent(Alias::Overlay, None);
}

#[test]
#[ignore = "needs root (it mounts an overlay of the tests and creates a user); CI runs it as root: `cargo test --test it -- --ignored`"]
fn an_overlay_of_the_tests_as_a_wrappers_include_is_not_lent_without_root() {
    an_alias_of_the_tests_is_not_lent(Alias::Overlay, Some(ordinary_user()));
}
