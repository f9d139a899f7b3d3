//! What a fifth red team found of issue 18's holes still open after the
//! fourth one's fixes, each as the attack itself, through the binary, as
//! root and as an ordinary user the test creates.

use crate::hostile2::{judge_in, open_dir, ordinary_user, rooks_tests, source};
use crate::hostile6::embedding_is_ce_and_honest_is_ac;
use crate::support::{compiler_wrapper, embedding_program, readable_by_all, require_root};
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
}

/// Unmounts what a test mounted, also when it fails.
struct Mounted(PathBuf);

impl Drop for Mounted {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(&self.0).status();
    }
}

fn mount_bind(source: &Path, target: &Path) -> Mounted {
    fs_err::create_dir_all(target).unwrap();
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
    embedding_is_ce_and_honest_is_ac(dir.path(), &tests, &embedded, user, "the judge's");
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

/// Every file under `dir` whose name ends in `.html`, read.
fn html_pages(dir: &Path) -> String {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|entry| entry.path().extension().is_some_and(|ext| ext == "html"))
        .map(|entry| fs_err::read_to_string(entry.path()).unwrap())
        .collect()
}

/// Students whose names differ from `alice` only by a character drawn as
/// nothing or as a plain space that is not a format character (a
/// variation selector, the combining grapheme joiner, a Hangul filler, a
/// no-break space, a variation selector of the supplement, a trailing
/// space): each looked like `alice` (or `ali ce`) in every report, and a
/// line break in a name drew a fake row in `judge grade`'s table; each is shown as its code in
/// the terminal, the HTML pages, the gradebook and JUnit, and the JSON
/// report keeps the name exact.
#[test]
fn invisible_marks_fillers_and_spaces_in_names_are_shown_in_every_report() {
    let dir = open_dir();
    fs_err::write(
        dir.path().join("judge.toml"),
        "problems = [\"rooks\"]\nrandom-tests = 1\n",
    )
    .unwrap();
    let folder = dir.path().join("submissions/rooks");
    fs_err::create_dir_all(&folder).unwrap();
    let printing = "print(5)\n";
    let names = [
        ("alice\u{fe0f}", "alice\\u{fe0f}"),
        ("alice\u{34f}", "alice\\u{034f}"),
        ("alice\u{3164}", "alice\\u{3164}"),
        ("ali\u{a0}ce", "ali\\u{00a0}ce"),
        ("alice\u{e0100}", "alice\\u{e0100}"),
        ("alice ", "alice\\x20"),
        (
            "eve\nrooks    mallory  AC  8 of 8  100%",
            "eve\\nrooks\\x20\\x20\\x20\\x20mallory",
        ),
    ];
    source(&folder, "alice.py", printing);
    for (name, _) in names {
        source(&folder, &format!("{name}.py"), printing);
    }
    let output = Command::new(assert_cmd::cargo::cargo_bin!("judge"))
        .args([
            "grade",
            "--html",
            "class.html",
            "--csv",
            "grades.csv",
            "--junit",
            "junit.xml",
            "--json",
            "report.json",
        ])
        .current_dir(dir.path())
        .env("HOME", dir.path())
        .output()
        .unwrap();
    let terminal = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    let csv = fs_err::read_to_string(dir.path().join("grades.csv")).unwrap();
    let junit = fs_err::read_to_string(dir.path().join("junit.xml")).unwrap();
    let json = fs_err::read_to_string(dir.path().join("report.json")).unwrap();
    let html = html_pages(dir.path());
    for (channel, text) in [
        ("terminal", &terminal),
        ("html", &html),
        ("csv", &csv),
        ("junit", &junit),
    ] {
        for (raw, shown) in names {
            // JUnit names a suite by the file (`alice .py`), where the
            // space is not at an end.
            let shown = if channel == "junit" && raw == "alice " {
                "alice .py"
            } else {
                shown
            };
            assert!(
                text.contains(shown),
                "{channel} does not show {raw:?} as {shown}:\n{text}\n{stderr}"
            );
            if !raw.ends_with(' ') {
                assert!(!text.contains(raw), "{raw:?} raw in the {channel}:\n{text}");
            }
        }
    }
    // JSON is data: the names as they are.
    let report: serde_json::Value = serde_json::from_str(&json).unwrap();
    let students: Vec<&str> = report["results"]
        .as_array()
        .expect("results")
        .iter()
        .filter_map(|result| result["student"].as_str())
        .collect();
    for (raw, _) in names {
        assert!(
            students.contains(&raw),
            "{raw:?} not exact in the JSON:\n{json}"
        );
    }
}
