//! What a fourth red team found of issue 18's holes still open, each as
//! the attack itself, through the binary, as root and as an ordinary user
//! the test creates.

use crate::hostile2::{judge_in, open_dir, ordinary_user, rooks_tests, source};
use crate::support::{compiler_wrapper, embedding_program, require_root};
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

/// Every file under `dir` whose name ends in `.html`, read.
fn html_pages(dir: &Path) -> String {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|entry| entry.path().extension().is_some_and(|ext| ext == "html"))
        .map(|entry| fs_err::read_to_string(entry.path()).unwrap())
        .collect()
}

/// Two students `alice` and `al\u{200b}ice` (a zero-width space) looked
/// the same in every report, and a program's `\r`, line separator and
/// format characters reached the HTML pages raw: each is shown as its code
/// in the terminal table, the HTML pages, the gradebook and JUnit.
#[test]
fn format_characters_of_names_and_outputs_are_shown_visible_in_every_report() {
    let dir = open_dir();
    fs_err::write(
        dir.path().join("judge.toml"),
        "problems = [\"rooks\"]\nrandom-tests = 1\n",
    )
    .unwrap();
    let folder = dir.path().join("submissions/rooks");
    fs_err::create_dir_all(&folder).unwrap();
    let printing = "import sys\nsys.stdout.write('5\\r\\u2028\\u200b\\ufeff\\U000e0041\\n')\n";
    source(&folder, "alice.py", printing);
    source(&folder, "al\u{200b}ice.py", printing);
    let output = std::process::Command::new(assert_cmd::cargo::cargo_bin!("judge"))
        .args([
            "grade",
            "--html",
            "class.html",
            "--csv",
            "grades.csv",
            "--junit",
            "junit.xml",
        ])
        .current_dir(dir.path())
        .env("HOME", dir.path())
        .output()
        .unwrap();
    let terminal = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    let csv = fs_err::read_to_string(dir.path().join("grades.csv")).unwrap();
    let junit = fs_err::read_to_string(dir.path().join("junit.xml")).unwrap();
    let html = html_pages(dir.path());
    for (channel, text) in [
        ("terminal", &terminal),
        ("html", &html),
        ("csv", &csv),
        ("junit", &junit),
    ] {
        assert!(
            text.contains("al\\u{200b}ice"),
            "{channel} does not show the zero-width space:\n{text}\n{stderr}"
        );
        for raw in ['\u{200b}', '\u{2028}', '\u{feff}', '\u{e0041}'] {
            assert!(!text.contains(raw), "{raw:?} raw in the {channel}:\n{text}");
        }
    }
    // The program's output is on the pages, its carriage return as code.
    assert!(html.contains("5\\x0d\\u{2028}"), "{html}");
    assert!(!html.contains('\r'), "a raw carriage return in a page");
}

/// A Kattis package whose submissions pass the sample and, on each hidden
/// test, spin `crc32(input) % 300` ms, print `crc32 % 97` bytes and exit
/// with `crc32 % 256` (`crc.py`), or print `crc32 % 1000` (`zero.py`):
/// every figure of a hidden test's row would carry its input.
fn crc_package(dir: &crate::support::Dir, student_view_in_judge_toml: bool) {
    let crc = "import sys, time, zlib\ndata = sys.stdin.buffer.read()\n\
               if data == b\"1 2\\n\":\n    print(3); sys.exit(0)\nc = zlib.crc32(data)\n\
               end = time.process_time() + (c % 300) / 1000\n\
               while time.process_time() < end:\n    pass\n\
               sys.stdout.write(\"x\" * (c % 97))\nsys.exit(c % 256 or 1)\n";
    let zero = "import sys, zlib\ndata = sys.stdin.buffer.read()\n\
                if data == b\"1 2\\n\":\n    print(3); sys.exit(0)\n\
                print(zlib.crc32(data) % 1000)\n";
    let files: &[(&str, &str)] = &[
        ("problem.yaml", "name: Sum\n"),
        ("data/sample/1.in", "1 2\n"),
        ("data/sample/1.ans", "3\n"),
        ("data/secret/a.in", "5 7\n"),
        ("data/secret/a.ans", "12\n"),
        ("data/secret/b.in", "40 2\n"),
        ("data/secret/b.ans", "42\n"),
        (
            "submissions/accepted/sum.py",
            "a, b = map(int, input().split())\nprint(a + b)\n",
        ),
        ("submissions/run_time_error/crc.py", crc),
        ("submissions/wrong_answer/zero.py", zero),
    ];
    for (name, contents) in files {
        dir.create(&format!("sum/{name}"), contents);
    }
    let view = if student_view_in_judge_toml {
        "student-view = true\n"
    } else {
        ""
    };
    dir.create(
        "judge.toml",
        format!("{view}[limits]\nwall-time-factor = 10\n"),
    );
}

/// `judge grade --package DIR --student-view` showed a hidden test's exit
/// code and expected value in its table (`on secret/a: exit code 69`,
/// `expected `12`, got `605``) and the slowest accepted submission's time
/// in the derived-limit line; no channel may show a figure of a hidden
/// test.
fn the_package_student_view_shows_no_figure_of_a_hidden_test(in_judge_toml: bool) {
    let dir = crate::support::Dir::new();
    crc_package(&dir, in_judge_toml);
    let mut args = vec![
        "grade",
        "--package",
        "sum",
        "--all-tests",
        "--json",
        "report.json",
        "--html",
        "page.html",
        "--csv",
        "grades.csv",
        "--junit",
        "junit.xml",
    ];
    if !in_judge_toml {
        args.push("--student-view");
    }
    let run = dir.judge(&args);
    let (terminal, stderr) = (run.stdout(), run.stderr());
    for row in terminal.lines().filter(|line| line.contains("secret/")) {
        assert!(
            !row.contains("exit code") && !row.contains("expected") && !row.contains("got"),
            "a hidden test's figure in the table: {row}\n{terminal}"
        );
    }
    assert!(
        terminal.contains("crc.py: RE") && terminal.contains("zero.py: WA"),
        "{terminal}\n{stderr}"
    );
    let derived = stderr
        .lines()
        .find(|line| line.starts_with("time limit:"))
        .unwrap_or_else(|| panic!("no derived-limit line:\n{stderr}"));
    assert!(!derived.contains(" ms)"), "{derived}");
    let report: serde_json::Value = serde_json::from_str(&dir.read("report.json")).unwrap();
    let results = report["results"].as_array().expect("results");
    assert_eq!(results.len(), 3, "{report:#}");
    for result in results {
        for test in result["tests"].as_array().expect("tests") {
            if !test["name"].as_str().unwrap_or("").starts_with("secret/") {
                continue;
            }
            for key in ["time_ms", "wall_ms", "memory_kib"] {
                assert_eq!(test[key], 0, "{key} of a hidden test: {test:#}");
            }
            for key in ["exit_code", "signal", "excerpt", "stderr"] {
                assert!(test[key].is_null(), "{key} of a hidden test: {test:#}");
            }
        }
    }
    // The two hidden tests of a submission read the same in every file.
    let junit = dir.read("junit.xml");
    for name in ["secret/a", "secret/b"] {
        let case = junit
            .lines()
            .skip_while(|line| !line.contains(&format!("name=\"{name}\"")))
            .take(2)
            .collect::<String>();
        assert!(case.contains("time=\"0.000\""), "{case}");
        assert!(
            !case.contains("exit code") && !case.contains("expected"),
            "{case}"
        );
    }
    let pages = html_pages(dir.path());
    assert!(
        !pages.contains("exit code 69") && !pages.contains("605"),
        "{pages}"
    );
    let csv = dir.read("grades.csv");
    assert!(csv.contains("crc.py,sum,33.33,RE,1,3"), "{csv}");
}

#[test]
fn the_package_student_view_flag_shows_no_figure_of_a_hidden_test() {
    the_package_student_view_shows_no_figure_of_a_hidden_test(false);
}

#[test]
fn the_package_student_view_of_judge_toml_shows_no_figure_of_a_hidden_test() {
    the_package_student_view_shows_no_figure_of_a_hidden_test(true);
}
