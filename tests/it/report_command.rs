//! `judge report` (issue #32, item 8): a saved JSON report rendered again
//! into every report format without grading, and compared with a baseline
//! report for a CI job to gate on. Every report here is a real one, written
//! by `judge grade` or `judge run` in the test's folder.

use crate::support::{repository, Dir};
use serde_json::Value;
use std::path::Path;

/// What Classroom 50's runner gives an autograder (its report needs it),
/// with the submission's time (else the time of rendering is written).
const RUNNER: [(&str, &str); 7] = [
    ("SUBMISSION_DATETIME", "2026-06-01T14:32:05Z"),
    ("CLASSROOM", "cs-principles"),
    ("ASSIGNMENT", "rooks"),
    ("USERNAME", "bob"),
    ("SUBMISSION_TAG", "submit/2026-06-01T14-32-05Z-a1b2c3d"),
    ("COMMIT_URL", "https://example.org/commit/a1b2c3d"),
    ("RELEASE_URL", "https://example.org/releases/tag/submit"),
];

fn accepted() -> String {
    fs_err::read_to_string(repository().join("submissions/rooks/accepted/matching.py")).unwrap()
}

fn wrong() -> String {
    fs_err::read_to_string(repository().join("submissions/rooks/wrong_answer/ignores_walls.py"))
        .unwrap()
}

/// A class of rooks with one random test and a fixed seed.
fn class(students: &[(&str, &str)]) -> Dir {
    let dir = Dir::new();
    dir.create(
        "judge.toml",
        "layout = \"problem/student\"\nrandom-tests = 1\njobs = 2\nseed = 1\n",
    );
    hand_in(&dir, students);
    dir
}

/// A package's examples of rooks under layout `expected`, with one random
/// test and a fixed seed: (`verdict/file`, program).
fn examples(examples: &[(&str, &str)]) -> Dir {
    let dir = Dir::new();
    dir.create(
        "judge.toml",
        "layout = \"expected\"\nrandom-tests = 1\njobs = 2\nseed = 1\n",
    );
    for (path, program) in examples {
        dir.create(&format!("submissions/rooks/{path}"), program);
    }
    dir
}

/// Replaces the hand-ins with `students`: (name, program).
fn hand_in(dir: &Dir, students: &[(&str, &str)]) {
    let folder = dir.path().join("submissions");
    if folder.exists() {
        fs_err::remove_dir_all(&folder).unwrap();
    }
    for (name, program) in students {
        dir.create(&format!("submissions/rooks/{name}.py"), program);
    }
}

/// The report flags (`--NAME <FILE>`) of a command's help.
fn file_flags(help: &str) -> Vec<String> {
    help.lines()
        .map(str::trim_start)
        .filter(|line| line.starts_with("--"))
        .filter_map(|line| {
            let (flag, rest) = line.split_once(' ')?;
            rest.starts_with("<FILE>").then(|| flag.to_owned())
        })
        .collect()
}

/// Every file under `dir`, by path relative to it, with its bytes.
fn files_under(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = walkdir::WalkDir::new(dir)
        .into_iter()
        .map(Result::unwrap)
        .filter(|entry| entry.file_type().is_file())
        .map(|entry| {
            let name = entry
                .path()
                .strip_prefix(dir)
                .unwrap()
                .display()
                .to_string();
            (name, fs_err::read(entry.path()).unwrap())
        })
        .collect();
    files.sort();
    files
}

/// Every report format `judge grade` writes, `judge report` writes from
/// the grade's JSON report, byte for byte as the grade wrote it; with the
/// hand-ins gone (nothing is graded again) too, but for the submission
/// pages, which say the source is gone instead of showing it (issue #32).
#[test]
fn rerenders_every_format_of_a_grade_report_as_the_grade_wrote_it() {
    let dir = class(&[("bob", &wrong())]);
    let grade_flags = file_flags(&dir.judge(&["grade", "--help"]).stdout());
    let report_flags = file_flags(&dir.judge(&["report", "--help"]).stdout());
    let formats: Vec<&String> = grade_flags
        .iter()
        .filter(|flag| !["--config", "--json"].contains(&flag.as_str()))
        .collect();
    assert!(formats.len() >= 8, "{grade_flags:?}");
    for flag in &formats {
        assert!(report_flags.contains(flag), "`judge report` lacks {flag}");
    }
    let args = |folder: &str| -> Vec<String> {
        formats
            .iter()
            .flat_map(|flag| {
                let name = format!("{folder}/{}", flag.trim_start_matches('-'));
                let name = if *flag == "--html" {
                    format!("{name}.html")
                } else {
                    name
                };
                [(*flag).clone(), name]
            })
            .collect()
    };
    fs_err::create_dir_all(dir.path().join("graded")).unwrap();
    fs_err::create_dir_all(dir.path().join("rendered")).unwrap();
    let mut grade = vec!["grade".to_owned(), "-q".to_owned()];
    grade.extend(["--json".to_owned(), "report.json".to_owned()]);
    grade.extend(args("graded"));
    let grade: Vec<&str> = grade.iter().map(String::as_str).collect();
    dir.judge_env(&grade, &RUNNER).expect_code(1);
    let graded = files_under(&dir.path().join("graded"));
    assert!(
        graded.len() > formats.len(),
        "the HTML pages too: {graded:?}"
    );
    let names = |files: &[(String, Vec<u8>)]| files.iter().map(|f| f.0.clone()).collect::<Vec<_>>();
    let render_into = |folder: &str| {
        fs_err::create_dir_all(dir.path().join(folder)).unwrap();
        let mut render = vec!["report".to_owned(), "report.json".to_owned()];
        render.extend(args(folder));
        let render: Vec<&str> = render.iter().map(String::as_str).collect();
        let run = dir.judge_env(&render, &RUNNER);
        run.expect_code(1);
        assert!(
            run.stdout().contains("1 submissions: 1 WA"),
            "{}",
            run.stdout()
        );
        files_under(&dir.path().join(folder))
    };

    let rendered = render_into("rendered");
    assert_eq!(names(&graded), names(&rendered));
    for ((name, graded), (_, rendered)) in graded.iter().zip(&rendered) {
        assert!(graded == rendered, "{name} differs from the grade's");
    }

    fs_err::remove_dir_all(dir.path().join("submissions")).unwrap();
    let rendered = render_into("gone");
    assert_eq!(names(&graded), names(&rendered));
    for ((name, graded), (_, rendered)) in graded.iter().zip(&rendered) {
        if name.starts_with("html/") && name.ends_with(".html") {
            let graded = String::from_utf8_lossy(graded);
            let rendered = String::from_utf8_lossy(rendered);
            assert!(graded.contains("<pre class=\"source\">"), "{graded}");
            assert!(
                rendered.contains("it is no longer at <code>submissions/rooks/bob.py</code>"),
                "{rendered}"
            );
            assert!(!rendered.contains("<pre class=\"source\">"), "{rendered}");
        } else {
            assert!(graded == rendered, "{name} differs from the grade's");
        }
    }

    // The JSON report again is the same report.
    let run = dir.judge(&["report", "report.json", "--json", "-"]);
    run.expect_code(1);
    assert_eq!(run.stdout(), dir.read("report.json"));
}

/// `judge run`'s JSON report renders too: its JUnit as the run wrote it,
/// its JSON byte for byte, its summary; an all-AC run exits 0.
#[test]
fn rerenders_a_run_report() {
    let dir = Dir::new();
    dir.create("judge.toml", "random-tests = 1\nseed = 1\n");
    dir.create("a.py", accepted());
    dir.judge(&[
        "run", "rooks", "a.py", "--json", "run.json", "--junit", "run.xml",
    ])
    .expect_code(0);
    let run = dir.judge(&[
        "report",
        "run.json",
        "--junit",
        "again.xml",
        "--json",
        "again.json",
    ]);
    run.expect_code(0);
    assert_eq!(dir.read("again.xml"), dir.read("run.xml"));
    assert_eq!(dir.read("again.json"), dir.read("run.json"));
    // `-` reads the report from standard input.
    let piped = dir.judge_stdin(&["report", "-", "--json", "-"], &dir.read("run.json"));
    piped.expect_code(0);
    assert_eq!(piped.stdout(), dir.read("run.json"));
    let run = dir.judge(&["report", "run.json"]);
    run.expect_code(0);
    assert!(
        run.stdout().contains("1/1 submissions accepted"),
        "{}",
        run.stdout()
    );
}

/// An interrupted grade's report (the pairs it did not finish in
/// `not_graded`) stays partial in the CSV, the JUnit and the HTML page, and
/// re-rendering it never exits 0, though every pair it holds is AC.
#[test]
fn a_partial_report_stays_partial_in_every_rendering() {
    let dir = class(&[("alice", &accepted()), ("bob", &accepted())]);
    dir.judge(&["grade", "-q", "--json", "whole.json"])
        .expect_code(0);
    // What an interrupted grade writes: bob's pair not finished.
    let mut report: Value = serde_json::from_str(&dir.read("whole.json")).unwrap();
    let results = report["results"].as_array_mut().unwrap();
    let bob = results.pop().unwrap();
    assert_eq!(bob["student"], "bob");
    report["interrupted"] = Value::Bool(true);
    report["not_graded"] = serde_json::json!([{
        "problem": "rooks", "submission": bob["submission"], "student": "bob"
    }]);
    dir.create(
        "partial.json",
        serde_json::to_string_pretty(&report).unwrap(),
    );

    let run = dir.judge(&[
        "report",
        "partial.json",
        "--csv",
        "grades.csv",
        "--junit",
        "grades.xml",
        "--html",
        "grades.html",
    ]);
    run.expect_code(1);
    assert!(
        run.stderr()
            .contains("`partial.json` is a partial report (interrupted): 1 pair(s) not graded"),
        "{}",
        run.stderr()
    );
    assert!(
        run.stdout().contains("partial (interrupted)"),
        "{}",
        run.stdout()
    );
    let csv = dir.read("grades.csv");
    assert!(
        csv.lines()
            .any(|line| line.starts_with("bob,rooks,") && line.contains("not graded: interrupted")),
        "{csv}"
    );
    let junit = dir.read("grades.xml");
    assert!(junit.contains("judge (interrupted: partial)"), "{junit}");
    assert!(junit.contains("not graded (interrupted)"), "{junit}");
    let html = dir.read("grades.html");
    assert!(html.contains("Partial report: the grade was"), "{html}");

    // Against the whole run as baseline, bob's pair is not graded: a
    // regression, since it passed there.
    let run = dir.judge(&["report", "partial.json", "--baseline", "whole.json"]);
    run.expect_code(1);
    let out = run.stdout();
    assert!(out.contains("not graded: rooks bob: was AC 100%"), "{out}");
    assert!(
        out.contains("partial (interrupted): compared with `whole.json`: 1 not graded, 1 unchanged; 1 regression"),
        "{out}"
    );
}

/// A file that is not a report is a usage error (2) naming it, with the
/// line and column of bad JSON; so is another version, and a missing file.
#[test]
fn a_report_that_cannot_be_read_is_a_usage_error_naming_the_file() {
    let dir = Dir::new();
    dir.create("broken.json", "{\"version\": 1,\n  \"results\": [}\n");
    let run = dir.judge(&["report", "broken.json", "--csv", "out.csv"]);
    run.expect_code(2);
    assert!(
        run.stderr()
            .contains("error: `broken.json` is not a JSON report")
            && run.stderr().contains("line 2 column 15"),
        "{}",
        run.stderr()
    );
    assert!(!dir.path().join("out.csv").exists(), "nothing half-written");
    dir.create("similar.json", "{\"version\": 1, \"pairs\": []}");
    let run = dir.judge(&["report", "similar.json"]);
    run.expect_code(2);
    assert!(
        run.stderr().contains("`similar.json` is not a JSON report")
            && run.stderr().contains("missing field `results`"),
        "{}",
        run.stderr()
    );
    dir.create("future.json", "{\"version\": 2, \"results\": 7}");
    let run = dir.judge(&["report", "future.json"]);
    run.expect_code(2);
    assert!(
        run.stderr()
            .contains("`future.json` has report version 2; this judge reads version 1"),
        "{}",
        run.stderr()
    );
    let run = dir.judge(&["report", "new.json", "--baseline", "missing.json"]);
    run.expect_code(2);
    assert!(run.stderr().contains("new.json"), "{}", run.stderr());
    dir.create("run.json", "{\"version\": 1, \"results\": []}");
    // No output may replace a report it reads, nor go to a missing folder.
    for (args, said) in [
        (
            &["report", "run.json", "--csv", "./run.json"][..],
            "refusing to write --csv `./run.json`: it is a report this command reads",
        ),
        (
            &[
                "report",
                "run.json",
                "--baseline",
                "run.json",
                "--changes",
                "nodir/c.json",
            ][..],
            "cannot write --changes `nodir/c.json`: the folder `nodir` does not exist",
        ),
        (
            &[
                "report",
                "run.json",
                "--baseline",
                "run.json",
                "--changes",
                "c",
                "--csv",
                "c",
            ][..],
            "--csv and --changes both write `c`",
        ),
    ] {
        let run = dir.judge(args);
        run.expect_code(2);
        assert!(run.stderr().contains(said), "{}", run.stderr());
    }
    assert_eq!(dir.read("run.json"), "{\"version\": 1, \"results\": []}");
    let run = dir.judge(&["report", "run.json", "--baseline", "missing.json"]);
    run.expect_code(2);
    assert!(run.stderr().contains("`missing.json`"), "{}", run.stderr());
}

/// A grade compared with a committed baseline: each (problem, student)
/// that changed on a line (regressed with the tests newly failing,
/// improved, added, removed), a summary, the changes as JSON, and exit 1
/// for a regression; 0 against itself and when only improvements came.
#[test]
fn baseline_comparison_says_what_changed_and_exits_1_on_a_regression() {
    let (right, wrong) = (accepted(), wrong());
    let dir = class(&[
        ("alice", &right),
        ("bob", &wrong),
        ("carol", &right),
        ("erin", &right),
    ]);
    dir.judge(&["grade", "-q", "--json", "baseline.json"])
        .expect_code(1);
    hand_in(
        &dir,
        &[
            ("alice", &right),
            ("bob", &right),
            ("carol", &wrong),
            ("dave", &wrong),
        ],
    );
    dir.judge(&["grade", "-q", "--json", "new.json"])
        .expect_code(1);

    let run = dir.judge(&[
        "report",
        "new.json",
        "--baseline",
        "baseline.json",
        "--changes",
        "changes.json",
    ]);
    run.expect_code(1);
    let out = run.stdout();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5, "{out}");
    assert!(
        lines[0].starts_with("improved: rooks bob: WA 50% -> AC 100%; newly passing: "),
        "{out}"
    );
    assert!(
        lines[1].starts_with("regressed: rooks carol: AC 100% -> WA 50%; newly failing: sample-1"),
        "{out}"
    );
    assert_eq!(lines[2], "added: rooks dave: WA 50%");
    assert_eq!(lines[3], "removed: rooks erin: was AC 100%");
    assert_eq!(
        lines[4],
        "compared with `baseline.json`: 1 regressed, 1 removed, 1 improved, 1 added, 1 unchanged; 2 regressions"
    );
    let changes: Value = serde_json::from_str(&dir.read("changes.json")).unwrap();
    assert_eq!(changes["version"], 1);
    assert_eq!(changes["regressions"], 2);
    assert_eq!(changes["counts"]["unchanged"], 1);
    let carol = changes["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|pair| pair["student"] == "carol")
        .unwrap();
    assert_eq!(carol["change"], "regressed");
    assert_eq!(carol["regression"], true);
    assert_eq!(carol["before"]["verdict"], "AC");
    assert_eq!(carol["after"]["verdict"], "WA");
    assert_eq!(carol["after"]["score"], 50);
    assert!(carol["newly_failing"]
        .as_array()
        .unwrap()
        .contains(&Value::from("sample-1")));

    // `--changes -`: the JSON alone on stdout.
    let run = dir.judge(&[
        "report",
        "new.json",
        "--baseline",
        "baseline.json",
        "--changes",
        "-",
    ]);
    run.expect_code(1);
    let printed: Value = serde_json::from_str(&run.stdout()).unwrap();
    assert_eq!(printed["regressions"], 2);

    // The same report: nothing changed.
    let run = dir.judge(&["report", "new.json", "--baseline", "new.json"]);
    run.expect_code(0);
    assert_eq!(
        run.stdout(),
        "compared with `new.json`: 4 unchanged; no regression\n"
    );

    // Only better: carol fixed, erin back, nobody removed.
    hand_in(
        &dir,
        &[
            ("alice", &right),
            ("bob", &right),
            ("carol", &right),
            ("dave", &wrong),
            ("erin", &right),
        ],
    );
    dir.judge(&["grade", "-q", "--json", "fixed.json"])
        .expect_code(1);
    let run = dir.judge(&["report", "fixed.json", "--baseline", "new.json"]);
    run.expect_code(0);
    assert!(
        run.stdout().ends_with("; no regression\n"),
        "{}",
        run.stdout()
    );
    assert!(
        run.stdout().contains("improved: rooks carol"),
        "{}",
        run.stdout()
    );
    assert!(
        run.stdout().contains("added: rooks erin"),
        "{}",
        run.stdout()
    );
}

#[test]
fn report_help_is_stable() {
    insta::assert_snapshot!(
        "report_help",
        Dir::new().judge(&["report", "--help"]).stdout()
    );
}

/// With layout `expected`, a pair passes by getting its folder's verdict:
/// the comparison says an accepted example that now fails regressed, and a
/// wrong-answer example that still gets WA did not.
#[test]
fn examples_regress_by_leaving_their_folders_verdict() {
    let dir = examples(&[
        ("accepted/fast.py", &accepted()),
        ("wrong_answer/walls.py", &wrong()),
    ]);
    dir.judge(&["grade", "-q", "--json", "baseline.json"])
        .expect_code(0);
    dir.create("submissions/rooks/accepted/fast.py", wrong());
    dir.judge(&["grade", "-q", "--json", "new.json"])
        .expect_code(1);
    let run = dir.judge(&["report", "new.json", "--baseline", "baseline.json"]);
    run.expect_code(1);
    assert_eq!(
        run.stdout(),
        "regressed: rooks fast.py: AC 100% -> WA 0%; newly failing: sample-1\n\
         compared with `baseline.json`: 1 regressed, 1 unchanged; 1 regression\n"
    );
}

/// `--student-view` renders what students may see from a teacher's report:
/// hidden tests lose their data, samples keep theirs, the settings that
/// would let a student remake the hidden tests go.
#[test]
fn student_view_hides_what_students_may_not_see() {
    let dir = class(&[("bob", &wrong())]);
    dir.judge(&["grade", "-q", "--json", "teacher.json"])
        .expect_code(1);
    let teacher: Value = serde_json::from_str(&dir.read("teacher.json")).unwrap();
    assert!(teacher.get("graded_with").is_some());
    dir.judge(&[
        "report",
        "teacher.json",
        "--student-view",
        "--json",
        "student.json",
        "--html",
        "student.html",
    ])
    .expect_code(1);
    let student: Value = serde_json::from_str(&dir.read("student.json")).unwrap();
    assert!(student.get("graded_with").is_none(), "{student}");
    let tests = student["results"][0]["tests"].as_array().unwrap();
    for test in tests {
        let sample = test["name"].as_str().unwrap().starts_with("sample");
        assert_eq!(test.get("excerpt").is_some(), sample, "{test}");
    }
    assert!(tests.iter().any(|test| test.get("excerpt").is_none()));
}

/// Issue #32: each submission's page shows the source graded, escaped and
/// numbered by line; rendered again from the JSON report (which holds no
/// source), a file changed since grading is not shown but named as
/// changed, a binary one is named by its size; a package's examples are
/// never shown in the student view.
#[test]
fn submission_pages_show_the_graded_source_never_a_changed_one() {
    let hostile = format!("# </pre><script>alert(1)</script>\n{}", wrong());
    let dir = class(&[("bob", &hostile), ("eve", &accepted())]);
    dir.create("submissions/rooks/zed.py", b"\x7fELF\0\0\0binary");
    fs_err::create_dir_all(dir.path().join("graded")).unwrap();
    dir.judge(&[
        "grade",
        "-q",
        "--json",
        "report.json",
        "--html",
        "graded/grades.html",
    ])
    .expect_code(1);
    let bob = dir.read("graded/grades/bob-rooks.html");
    assert!(
        bob.contains(
            "<pre class=\"source\"><span class=\"l\"># &lt;/pre&gt;&lt;script&gt;alert(1)&lt;/script&gt;\n</span>"
        ),
        "{bob}"
    );
    assert!(!bob.contains("<script>"));
    let lines = bob.matches("<span class=\"l\">").count();
    assert_eq!(lines, hostile.lines().count());
    let zed = dir.read("graded/grades/zed-rooks.html");
    assert!(zed.contains("binary file, 13 bytes, not shown"), "{zed}");

    dir.create("submissions/rooks/bob.py", accepted());
    fs_err::create_dir_all(dir.path().join("later")).unwrap();
    dir.judge(&["report", "report.json", "--html", "later/grades.html"])
        .expect_code(1);
    let bob = dir.read("later/grades/bob-rooks.html");
    assert!(!bob.contains("<pre class=\"source\">"), "{bob}");
    assert!(
        bob.contains("<code>submissions/rooks/bob.py</code> changed since it was graded"),
        "{bob}"
    );
    // Eve's file is as graded: the same page as the grade's.
    assert_eq!(
        dir.read("later/grades/eve-rooks.html"),
        dir.read("graded/grades/eve-rooks.html")
    );
    // The JSON report holds the digest, not the source.
    assert!(!dir.read("report.json").contains("alert(1)"));
}

/// Issue #32: the examples of layout `expected` are the setter's (an
/// accepted solution among them): a student's page never shows their
/// source, while the teacher's pages do.
#[test]
fn the_student_view_never_shows_a_package_example() {
    let dir = examples(&[("accepted/matching.py", &accepted())]);
    fs_err::create_dir_all(dir.path().join("teacher")).unwrap();
    fs_err::create_dir_all(dir.path().join("students")).unwrap();
    dir.judge(&[
        "grade",
        "-q",
        "--json",
        "report.json",
        "--html",
        "teacher/grades.html",
    ])
    .expect_code(0);
    dir.judge(&[
        "report",
        "report.json",
        "--student-view",
        "--html",
        "students/grades.html",
    ])
    .expect_code(0);
    let pages = |folder: &str| -> String {
        files_under(&dir.path().join(folder))
            .into_iter()
            .map(|(_, bytes)| String::from_utf8(bytes).unwrap())
            .collect()
    };
    let first_line = accepted().lines().next().unwrap().to_owned();
    assert!(pages("teacher").contains("<pre class=\"source\">"));
    let students = pages("students");
    assert!(!students.contains("class=\"source"), "{students}");
    assert!(!students.contains(&first_line));
}

/// See: issue #32. A report of examples judged by their folders (layout
/// `expected`) and a class's report are not of one kind: their pairs
/// never match, so the comparison would list every pair as removed or
/// added and count noise as regressions. It is refused (exit 2), naming
/// both kinds, and nothing is written.
#[test]
fn r32_a_baseline_of_another_kind_is_refused() {
    let dir = Dir::new();
    dir.create(
        "judge.toml",
        "layout = \"expected\"\nrandom-tests = 1\njobs = 2\nseed = 1\n",
    );
    dir.create("submissions/rooks/accepted/fast.py", accepted());
    dir.judge(&["grade", "-q", "--json", "examples.json"])
        .expect_code(0);
    dir.create(
        "judge.toml",
        "layout = \"problem/student\"\nrandom-tests = 1\njobs = 2\nseed = 1\n",
    );
    fs_err::remove_dir_all(dir.path().join("submissions")).unwrap();
    dir.create("submissions/rooks/alice.py", accepted());
    dir.judge(&["grade", "-q", "--json", "class.json"])
        .expect_code(0);
    let run = dir.judge(&[
        "report",
        "class.json",
        "--baseline",
        "examples.json",
        "--changes",
        "changes.json",
    ]);
    run.expect_code(2);
    let stderr = run.stderr();
    assert!(
        stderr.contains(
            "cannot compare `class.json` with the baseline `examples.json`: the report is of \
             a class (layout `student/problem` or `problem/student`), the baseline of examples \
             judged by their verdict folders"
        ),
        "{stderr}"
    );
    assert!(run.stdout().is_empty(), "{}", run.stdout());
    assert!(!dir.path().join("changes.json").exists());
    // Reports of one kind still compare.
    dir.judge(&["report", "class.json", "--baseline", "class.json"])
        .expect_code(0);
}
