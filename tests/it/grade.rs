//! `judge grade` and `judge merge` on small temporary trees: configuration
//! errors, each layout, a missing toolchain, expected verdicts, shards and
//! their merge, and the report files.

use crate::support::{repository, Dir};
use serde_json::Value;

/// The bundled accepted Python rooks solver, and one that always answers 0.
fn accepted() -> String {
    fs_err::read_to_string(repository().join("submissions/rooks/accepted/matching.py")).unwrap()
}

const ZERO: &str = r#"import sys
tokens = sys.stdin.read().split()
pos = 0
while pos < len(tokens) and tokens[pos] != "0":
    n = int(tokens[pos])
    pos += 1 + n
    print(0)
"#;

/// A judge.toml with two random tests (one `small`, one `large` rooks board
/// set) and `extra` appended.
fn config(dir: &Dir, layout: &str, extra: &str) {
    dir.create(
        "judge.toml",
        format!("layout = \"{layout}\"\nrandom-tests = 2\njobs = 2\n{extra}"),
    );
}

fn json(dir: &Dir, name: &str) -> Value {
    crate::support::report(&dir.read(name))
}

/// (submission, problem, student, verdict) of every result.
fn rows(report: &Value) -> Vec<(String, String, String, String)> {
    report["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|result| {
            (
                result["submission"].as_str().unwrap().to_owned(),
                result["problem"].as_str().unwrap().to_owned(),
                result["student"].as_str().unwrap().to_owned(),
                result["verdict"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

fn row(
    submission: &str,
    problem: &str,
    student: &str,
    verdict: &str,
) -> (String, String, String, String) {
    (
        submission.into(),
        problem.into(),
        student.into(),
        verdict.into(),
    )
}

#[test]
fn an_unknown_key_is_a_config_error_naming_file_line_and_key() {
    let dir = Dir::new();
    dir.create("judge.toml", "jobs = 1\nlayuot = \"expected\"\n");
    let run = dir.judge(&["grade"]);
    run.expect_code(2);
    assert!(
        run.stderr().starts_with(
            "error: failed to load `judge.toml`: line 2, column 1: unknown field `layuot`, expected one of"
        ),
        "{}",
        run.stderr()
    );
}

#[test]
fn a_bad_layout_is_a_config_error_listing_the_layouts() {
    let dir = Dir::new();
    dir.create("judge.toml", "layout = \"by-student\"\n");
    let run = dir.judge(&["grade"]);
    run.expect_code(2);
    assert_eq!(
        run.stderr(),
        "error: failed to load `judge.toml`: line 1, column 10: unknown variant `by-student`, \
         expected one of `problem/student`, `student/problem`, `expected`\n"
    );
}

#[test]
fn a_missing_submissions_folder_is_a_usage_error_with_a_hint() {
    let dir = Dir::new();
    dir.create("judge.toml", "submissions = \"hand-ins\"\n");
    let run = dir.judge(&["grade"]);
    run.expect_code(2);
    assert_eq!(
        run.stderr(),
        "error: the submissions folder `hand-ins` does not exist\n\n\
         hint: `submissions` in `judge.toml` names the folder, relative to that file\n"
    );
}

#[test]
fn a_bad_shard_is_a_usage_error() {
    let dir = Dir::new();
    for shard in ["0/2", "3/2", "x"] {
        let run = dir.judge(&["grade", "--shard", shard]);
        run.expect_code(2);
        assert!(
            run.stderr().contains("expected K/N with 1 <= K <= N"),
            "{}",
            run.stderr()
        );
    }
}

#[test]
fn layout_problem_student_grades_each_file_for_its_folder() {
    let dir = Dir::new();
    config(&dir, "problem/student", "");
    dir.create("submissions/rooks/alice.py", accepted());
    dir.create("submissions/rooks/bob.py", ZERO);
    dir.create("submissions/rooks/carol.txt", "not a program");
    dir.create("submissions/rook/dave.py", ZERO);
    let run = dir.judge(&["grade", "--json", "report.json"]);
    run.expect_code(1);
    let report = json(&dir, "report.json");
    assert_eq!(
        rows(&report),
        [
            row("submissions/rooks/alice.py", "rooks", "alice", "AC"),
            row("submissions/rooks/bob.py", "rooks", "bob", "WA"),
        ]
    );
    // A folder named after no problem is not a gradebook row: ignored,
    // with the problem it is one letter from (issue #17).
    assert_eq!(
        report["ignored"][0]["reason"],
        "`rook` is not a problem (known: rooks, rooks-large, matchsticks, matchsticks-duel, mayan); did you mean `rooks`?"
    );
    // A file in no configured language is not a hand-in (issue #17).
    assert_eq!(report["ignored"][1]["path"], "submissions/rooks/carol.txt");
    assert!(report["ignored"][1]["reason"]
        .as_str()
        .unwrap()
        .starts_with("in no configured language and not executable"));
    // The bundled package's tests come first (built in, so found away
    // from the repository), then random tests from the package's profiles
    // only: rooks is UVa 639 as set, `small`.
    let tests = report["results"][0]["tests"].as_array().unwrap();
    assert_eq!(tests[0]["name"], "sample-1");
    let random: Vec<&serde_json::Value> = tests
        .iter()
        .filter(|test| !test["random"].is_null())
        .collect();
    assert!(!random.is_empty());
    assert!(random
        .iter()
        .all(|test| test["random"]["profile"] == "small"));
    // Python's time factor of 3 is applied and shown.
    assert_eq!(report["results"][0]["time_limit_ms"], 3000);
    assert!(
        run.stdout().contains("2 submissions: 1 AC, 1 WA"),
        "{}",
        run.stdout()
    );
}

#[test]
fn layout_student_problem_takes_the_problem_from_the_file_name() {
    let dir = Dir::new();
    config(&dir, "student/problem", "problems = [\"rooks\"]\n");
    dir.create("submissions/alice/rooks.py", accepted());
    dir.create("submissions/alice/mayan.py", ZERO);
    dir.create("submissions/bob/rooks.py", accepted());
    let run = dir.judge(&["grade", "--json", "report.json"]);
    run.expect_code(0);
    assert_eq!(
        rows(&json(&dir, "report.json")),
        [
            row("submissions/alice/rooks.py", "rooks", "alice", "AC"),
            row("submissions/bob/rooks.py", "rooks", "bob", "AC"),
        ]
    );
}

#[test]
fn layout_expected_exits_0_when_every_example_gets_its_folders_verdict() {
    let dir = Dir::new();
    config(&dir, "expected", "");
    dir.create("submissions/rooks/accepted/good.py", accepted());
    dir.create("submissions/rooks/wrong_answer/zero.py", ZERO);
    dir.create("submissions/rooks/compile_error/broken.cpp", "int main( {");
    let run = dir.judge(&["grade", "--json", "report.json"]);
    run.expect_code(0);
    let report = json(&dir, "report.json");
    assert_eq!(report["layout"], "expected");
    assert_eq!(
        rows(&report),
        [
            row(
                "submissions/rooks/accepted/good.py",
                "rooks",
                "good.py",
                "AC"
            ),
            row(
                "submissions/rooks/compile_error/broken.cpp",
                "rooks",
                "broken.cpp",
                "CE"
            ),
            row(
                "submissions/rooks/wrong_answer/zero.py",
                "rooks",
                "zero.py",
                "WA"
            ),
        ]
    );
    assert_eq!(report["results"][2]["expected"]["folder"], "wrong_answer");
    assert_eq!(report["results"][2]["expected"]["verdict"], "WA");
    assert!(run
        .stdout()
        .contains("3 of 3 submissions got their folder's verdict"));
}

#[test]
fn an_example_in_the_wrong_folder_exits_1_with_a_clear_line() {
    let dir = Dir::new();
    config(&dir, "expected", "");
    dir.create("submissions/rooks/accepted/zero.py", ZERO);
    dir.create("submissions/rooks/wrong_answer/good.py", accepted());
    dir.create("submissions/rooks/acepted/typo.py", accepted());
    let run = dir.judge(&["grade"]);
    run.expect_code(1);
    let stderr = run.stderr();
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(
        lines,
        [
            lines[0],
            "submissions/rooks/acepted/typo.py: the folder `acepted` names no verdict; known: \
             accepted, wrong_answer, time_limit_exceeded, run_time_error, memory_limit_exceeded, \
             output_limit_exceeded, compile_error",
            "submissions/rooks/wrong_answer/good.py: expected WA, got AC",
        ],
        "{stderr}"
    );
    assert!(
        lines[0].starts_with(
            "submissions/rooks/accepted/zero.py: expected AC, got WA (test sample-1: board 1: expected "
        ),
        "{stderr}"
    );
}

#[test]
fn a_missing_toolchain_is_reported_and_the_rest_graded() {
    let dir = Dir::new();
    config(
        &dir,
        "problem/student",
        "[languages.zz]\nextensions = [\"zz\"]\ncompile = [\"no-such-compiler-zz\", \"{source}\"]\nrun = [\"{executable}\"]\n",
    );
    dir.create("submissions/rooks/alice.zz", "whatever");
    dir.create("submissions/rooks/bob.py", accepted());
    let run = dir.judge(&["grade", "--json", "report.json"]);
    // See: issue 32. That language's JE, not the judge failing: exit 1.
    run.expect_code(1);
    let report = json(&dir, "report.json");
    assert_eq!(
        rows(&report),
        [
            row("submissions/rooks/alice.zz", "rooks", "alice", "JE"),
            row("submissions/rooks/bob.py", "rooks", "bob", "AC"),
        ]
    );
    assert!(report["results"][0]["compile"]["message"]
        .as_str()
        .unwrap()
        .contains("no-such-compiler-zz"));
    // See: issue #8. The terminal says why, as `judge run` does.
    assert!(
        run.stderr().contains(
            "warning: submissions/rooks/alice.zz: JE: language `zz`: the compiler \
             `no-such-compiler-zz` is not installed (not found in PATH)"
        ),
        "{}",
        run.stderr()
    );
}

#[test]
fn json_and_junit_reports_are_written_and_junit_parses() {
    let dir = Dir::new();
    config(&dir, "problem/student", "");
    dir.create("submissions/rooks/alice.py", accepted());
    dir.create("submissions/rooks/bob.py", ZERO);
    let run = dir.judge(&["grade", "--json", "report.json", "--junit", "report.xml"]);
    run.expect_code(1);
    assert_eq!(json(&dir, "report.json")["version"], 1);
    let xml = dir.read("report.xml");
    let document = roxmltree::Document::parse(&xml).unwrap();
    let suites: Vec<_> = document
        .descendants()
        .filter(|node| node.has_tag_name("testsuite"))
        .collect();
    assert_eq!(suites.len(), 2);
    assert_eq!(
        suites[1].attribute("name"),
        Some("rooks submissions/rooks/bob.py")
    );
    let failures: Vec<_> = suites[1]
        .descendants()
        .filter(|node| node.has_tag_name("failure"))
        .collect();
    // The bundled package's 7 tests and 2 random ones.
    assert_eq!(failures.len(), 9);
    assert_eq!(failures[0].attribute("type"), Some("WA"));
    assert_eq!(
        suites[0]
            .descendants()
            .filter(|node| node.has_tag_name("testcase"))
            .count(),
        9
    );
}

/// The report with what varies between runs removed: what follows the
/// machine's load, and the shard.
fn timeless(report: Value) -> Value {
    crate::support::without_load(report, &["shard"])
}

#[test]
fn shards_are_disjoint_cover_the_run_and_merge_into_it() {
    let dir = Dir::new();
    config(&dir, "problem/student", "");
    for name in ["a", "b", "c", "d", "e"] {
        let program = if name == "c" {
            ZERO.to_owned()
        } else {
            accepted()
        };
        dir.create(&format!("submissions/rooks/{name}.py"), program);
    }
    dir.judge(&["grade", "-q", "--json", "all.json"])
        .expect_code(1);
    let mut sharded = Vec::new();
    for shard in 1..=3 {
        let file = format!("shard-{shard}.json");
        let run = dir.judge(&[
            "grade",
            "-q",
            "--shard",
            &format!("{shard}/3"),
            "--json",
            &file,
        ]);
        run.expect_code(if shard == 3 { 1 } else { 0 });
        sharded.extend(rows(&json(&dir, &file)));
    }
    sharded.sort();
    let whole = rows(&json(&dir, "all.json"));
    assert_eq!(sharded, whole, "the shards hold each pair exactly once");

    let run = dir.judge(&[
        "merge",
        "shard-3.json",
        "shard-1.json",
        "shard-2.json",
        "-o",
        "merged.json",
        "--junit",
        "merged.xml",
    ]);
    run.expect_code(1);
    assert_eq!(
        timeless(json(&dir, "merged.json")),
        timeless(json(&dir, "all.json"))
    );
    roxmltree::Document::parse(&dir.read("merged.xml")).unwrap();

    let run = dir.judge(&["merge", "shard-1.json", "shard-1.json", "-o", "x.json"]);
    run.expect_code(2);
    assert_eq!(
        run.stderr(),
        "error: `submissions/rooks/a.py` (rooks) is in both `shard-1.json` and `shard-1.json`\n"
    );
    let run = dir.judge(&["merge", "shard-1.json", "shard-2.json", "-o", "x.json"]);
    run.expect_code(2);
    assert_eq!(
        run.stderr(),
        "error: shard 3/3 is missing: the reports hold 4 of the run's 5 pairs\n"
    );
    let mut old = json(&dir, "shard-1.json");
    old["version"] = Value::from(2);
    dir.create("old.json", old.to_string());
    let run = dir.judge(&["merge", "old.json", "-o", "x.json"]);
    run.expect_code(2);
    assert_eq!(
        run.stderr(),
        "error: `old.json` has report version 2; this judge reads version 1\n"
    );
}

#[test]
fn grade_and_merge_help_are_stable() {
    let dir = Dir::new();
    insta::assert_snapshot!("grade_help", dir.judge(&["grade", "--help"]).stdout());
    insta::assert_snapshot!("merge_help", dir.judge(&["merge", "--help"]).stdout());
}

/// The grade table, the summary and the JSON report are part of the
/// interface: pinned as snapshots with times, memory (the one helper's
/// load-dependent fields) and excerpts redacted, so any change to what a teacher or a script reads shows
/// up in review.
#[test]
fn grade_table_and_json_report_snapshots() {
    let dir = Dir::new();
    config(&dir, "problem/student", "");
    dir.create("submissions/rooks/alice.py", accepted());
    dir.create("submissions/rooks/bob.py", ZERO);
    dir.create("submissions/rooks/carol.cpp", "int main( {\n");
    let run = dir.judge(&["grade", "--json", "report.json"]);
    run.expect_code(1);
    let mut settings = insta::Settings::clone_current();
    settings.add_filter(r"\d+ ms", "[TIME]");
    settings.add_filter(r" +\[TIME\]", " [TIME]");
    // The time column is as wide as its widest time, which varies with the
    // machine's load: its header and a missing time are aligned to it.
    settings.add_filter(r"score +time", "score [TIME-COLUMN]");
    settings.add_filter(r" +- /", " - /");
    settings.bind(|| insta::assert_snapshot!(run.stdout()));

    let mut report = timeless(json(&dir, "report.json"));
    for result in report["results"].as_array_mut().unwrap() {
        result["compile"]["message"] = Value::from("[COMPILER MESSAGE]");
        // Digests every test and the judge's version: changes with either.
        if result.get("fingerprint").is_some() {
            result["fingerprint"] = Value::from("[FINGERPRINT]");
        }
        for test in result["tests"].as_array_mut().unwrap() {
            if test.get("excerpt").is_some() {
                test["excerpt"] = Value::from("[EXCERPT]");
            }
        }
    }
    report["isolation"] = Value::from("[ISOLATION]");
    report["judge_version"] = Value::from("[JUDGE VERSION]");
    insta::assert_json_snapshot!(report);
}

/// See: issue #8. The gradebook and the HTML page name the student the
/// layout says (a student folder called `accepted` is a student, not a
/// verdict folder), and a name that looks like a formula is neutralised.
#[test]
fn r8_reports_take_the_student_from_the_layout_and_neutralise_formulas() {
    let dir = Dir::new();
    config(&dir, "student/problem", "");
    dir.create("submissions/accepted/rooks.py", accepted());
    dir.create("submissions/=HYPERLINK(1)/rooks.py", accepted());
    dir.judge(&["grade", "--csv", "grades.csv", "--html", "grades.html"])
        .expect_code(0);
    let csv = dir.read("grades.csv");
    let students: Vec<&str> = csv
        .lines()
        .skip(1)
        .map(|line| line.split(',').next().unwrap())
        .collect();
    assert_eq!(students, ["'=HYPERLINK(1)", "accepted"], "{csv}");
    let html = dir.read("grades.html");
    assert!(html.contains("<tr><th>accepted</th>"), "{html}");
}

/// See: issue #8. `judge merge` refuses shards graded with another seed,
/// random-test count, limits or judge version, and says which differs.
#[test]
fn r8_merge_refuses_shards_graded_differently() {
    let dir = Dir::new();
    config(&dir, "problem/student", "seed = 5\n");
    dir.create("submissions/rooks/a.py", accepted());
    dir.create("submissions/rooks/b.py", accepted());
    dir.judge(&["grade", "-q", "--shard", "1/2", "--json", "one.json"])
        .expect_code(0);
    dir.judge(&["grade", "-q", "--shard", "2/2", "--json", "two.json"])
        .expect_code(0);
    dir.judge(&["merge", "one.json", "two.json", "-o", "all.json"])
        .expect_code(0);
    let two = json(&dir, "two.json");
    for (field, value, what) in [
        (
            "seed",
            serde_json::json!(6),
            "seed 6, but `one.json` with 5",
        ),
        (
            "random_tests",
            serde_json::json!(3),
            "random-tests 3, but `one.json` with 2",
        ),
        (
            "time_limit_ms",
            serde_json::json!(50),
            "limits.time-limit-ms 50, but `one.json` with the package's",
        ),
        (
            "judge_version",
            serde_json::json!("0.0.1"),
            "judge version 0.0.1, but `one.json` with",
        ),
    ] {
        let mut changed = two.clone();
        changed["graded_with"][field] = value;
        dir.create("changed.json", serde_json::to_string(&changed).unwrap());
        let run = dir.judge(&["merge", "one.json", "changed.json", "-o", "all.json"]);
        run.expect_code(2);
        assert!(
            run.stderr()
                .contains(&format!("error: `changed.json` was graded with {what}")),
            "{field}: {}",
            run.stderr()
        );
    }
}

/// See: issue #8. What a teacher's folder really holds: a name that is not
/// UTF-8 grades like any other file; two files for one (student, problem)
/// are one error row naming both; files that do not fit the layout are
/// listed as ignored with the reason, never graded.
#[test]
fn r8_a_real_class_folder_grades_each_pair_once_and_lists_what_it_ignores() {
    use std::os::unix::ffi::OsStrExt as _;
    let dir = Dir::new();
    config(&dir, "student/problem", "");
    let rene = std::ffi::OsStr::from_bytes(b"ren\xe9.py");
    let rene_path = dir.path().join("submissions/rooks").join(rene);
    fs_err::create_dir_all(rene_path.parent().unwrap()).unwrap();
    fs_err::write(&rene_path, accepted()).unwrap();
    dir.create("submissions/alice/rooks.py", accepted());
    dir.create("submissions/alice/rooks.cpp", "int main() {}\n");
    dir.create("submissions/README.txt", "hand in here");
    dir.create("submissions/alice/__pycache__/rooks.cpython-311.pyc", "");
    dir.create("submissions/bob/deep/rooks.py", accepted());
    // The layout is student/problem: the non-UTF-8 name is the problem
    // file of student `rooks`, so it must be named after a problem.
    let run = dir.judge(&["grade", "--json", "report.json"]);
    let report = json(&dir, "report.json");
    let results = report["results"].as_array().unwrap();
    assert_eq!(results.len(), 1, "{report:#}");
    let alice = &results[0];
    assert_eq!(alice["student"], "alice");
    assert_eq!(alice["verdict"], "CE");
    let message = alice["compile"]["message"].as_str().unwrap();
    assert!(
        message.starts_with("2 files for student `alice`, problem `rooks`: ")
            && message.contains("alice/rooks.cpp")
            && message.contains("alice/rooks.py"),
        "{message}"
    );
    // `ren\xe9.py` is not a problem id: ignored with the reason, like the
    // README and the files that do not fit the layout.
    let ignored: Vec<&str> = report["ignored"]
        .as_array()
        .unwrap()
        .iter()
        .map(|ignored| ignored["reason"].as_str().unwrap())
        .collect();
    assert_eq!(ignored.len(), 4, "{ignored:?}");
    assert!(
        ignored
            .iter()
            .any(|reason| reason.starts_with("`ren\\xe9` is not a problem")),
        "{ignored:?}"
    );
    assert!(
        run.stderr().contains(
            "ignored: submissions/bob/deep/rooks.py: too deep for layout `student/problem`"
        ),
        "{}",
        run.stderr()
    );

    // problem/student: the non-UTF-8 file is a student's and is accepted.
    let dir = Dir::new();
    config(&dir, "problem/student", "");
    let rene_path = dir.path().join("submissions/rooks").join(rene);
    fs_err::create_dir_all(rene_path.parent().unwrap()).unwrap();
    fs_err::write(&rene_path, accepted()).unwrap();
    dir.judge(&["grade", "--json", "report.json"])
        .expect_code(0);
    let report = json(&dir, "report.json");
    assert_eq!(report["results"][0]["verdict"], "AC");
}

/// See: issue #8. A submissions folder that is empty, missing or a file is
/// a configuration error; report paths are checked before anything runs;
/// `-` is standard output for every report flag.
#[test]
fn r8_folders_and_report_paths_are_checked_up_front() {
    let dir = Dir::new();
    config(&dir, "problem/student", "");
    let run = dir.judge(&["grade"]);
    run.expect_code(2);
    assert!(run.stderr().contains("does not exist"), "{}", run.stderr());
    fs_err::create_dir_all(dir.path().join("submissions")).unwrap();
    let run = dir.judge(&["grade"]);
    run.expect_code(2);
    assert!(
        run.stderr().contains("holds no submissions"),
        "{}",
        run.stderr()
    );
    config(&dir, "problem/student", "submissions = \"judge.toml\"\n");
    let run = dir.judge(&["grade"]);
    run.expect_code(2);
    assert!(run.stderr().contains("is not a folder"), "{}", run.stderr());

    config(&dir, "problem/student", "");
    dir.create("submissions/rooks/alice.py", accepted());
    let run = dir.judge(&["grade", "--csv", "grades.csv", "--json", "nodir/r.json"]);
    run.expect_code(2);
    assert!(
        run.stderr()
            .contains("cannot write --json `nodir/r.json`: the folder `nodir` does not exist"),
        "{}",
        run.stderr()
    );
    assert!(!dir.path().join("grades.csv").exists());
    let run = dir.judge(&["grade", "--csv", "same", "--html", "same"]);
    run.expect_code(2);
    assert!(
        run.stderr().contains("--csv and --html both write `same`"),
        "{}",
        run.stderr()
    );
    let run = dir.judge(&["grade", "--csv", "-"]);
    run.expect_code(0);
    assert!(
        run.stdout().starts_with(
            "student,problem,score,verdict,passed,total,max_score\nalice,rooks,100.00,AC,"
        ),
        "{}",
        run.stdout()
    );
    assert!(!dir.path().join("-").exists());
}

/// A report path among the hand-ins is refused before anything runs: one
/// typo in `--csv` must not replace a student's source.
// See: issue #8 (adversarial review: `--csv h/alice/rooks.cpp` overwrote it).
#[test]
fn r8_a_report_is_never_written_over_a_hand_in() {
    let dir = Dir::new();
    config(&dir, "problem/student", "");
    dir.create("submissions/rooks/alice.py", accepted());
    for args in [
        &["grade", "--csv", "submissions/rooks/alice.py"][..],
        &["grade", "--json", "submissions/rooks/new.json"][..],
    ] {
        let run = dir.judge(args);
        run.expect_code(2);
        assert!(
            run.stderr().contains("it is among the submissions"),
            "{}",
            run.stderr()
        );
    }
    assert_eq!(dir.read("submissions/rooks/alice.py"), accepted());
    assert!(!dir.path().join("submissions/rooks/new.json").exists());
    let run = dir.judge(&[
        "run",
        "rooks",
        "submissions/rooks/alice.py",
        "--csv",
        "submissions/rooks/alice.py",
    ]);
    run.expect_code(2);
    assert_eq!(dir.read("submissions/rooks/alice.py"), accepted());
}

/// Percent-decodes a relative link of the HTML report.
fn decode_href(href: &str) -> String {
    let bytes = href.as_bytes();
    let mut decoded = Vec::new();
    let mut index = 0;
    while let Some(&byte) = bytes.get(index) {
        if byte == b'%' {
            decoded.push(u8::from_str_radix(&href[index + 1..index + 3], 16).unwrap());
            index += 3;
        } else {
            decoded.push(byte);
            index += 1;
        }
    }
    String::from_utf8(decoded).unwrap()
}

/// The `href` of every element `selector` picks in `page`.
fn hrefs(page: &str, selector: &str) -> Vec<String> {
    let html = scraper::Html::parse_document(page);
    html.select(&scraper::Selector::parse(selector).unwrap())
        .map(|element| element.value().attr("href").unwrap().to_owned())
        .collect()
}

/// See: issue #11. `--html grades.html` writes the class page and a page per
/// submission in `grades/`; every cell of the matrix links to a page that was
/// written, whatever the student's name, and a second run replaces the set.
#[test]
fn r11_html_is_a_class_page_with_a_page_per_submission() {
    let dir = Dir::new();
    config(&dir, "student/problem", "");
    let students = ["Zoë", "a b", "<b>&", "Alice", "alice"];
    for student in students {
        dir.create(&format!("submissions/{student}/rooks.py"), accepted());
    }
    dir.create("submissions/alice/matchsticks.py", "print(1)\n");
    fs_err::create_dir(dir.path().join("out")).unwrap();
    dir.judge(&["grade", "-q", "--html", "out/grades.html"])
        .expect_code(1);
    let class_page = dir.read("out/grades.html");
    let links = hrefs(&class_page, "table.matrix a.cell");
    assert_eq!(links.len(), 6, "{class_page}");
    for link in &links {
        let path = dir.path().join("out").join(decode_href(link));
        assert!(path.is_file(), "{link} -> {}", path.display());
        let page = fs_err::read_to_string(&path).unwrap();
        assert_eq!(hrefs(&page, "p.back a"), ["../grades.html"]);
        assert!(page.contains("<details class=\"test\""), "{link}");
    }
    let written = fs_err::read_dir(dir.path().join("out/grades"))
        .unwrap()
        .count();
    assert_eq!(written, 6 + 1, "the pages and the mark");
    assert!(
        !class_page.contains("<details"),
        "no test on the class page"
    );
    // The per-problem summary and the students by score are on the page.
    let html = scraper::Html::parse_document(&class_page);
    let count = |selector: &str| {
        html.select(&scraper::Selector::parse(selector).unwrap())
            .count()
    };
    assert_eq!(count("section.problem svg.verdict-bar"), 2);
    assert_eq!(count("table.ranking tbody tr"), 5);

    // Graded again with fewer students, the set holds only theirs.
    fs_err::remove_dir_all(dir.path().join("submissions/a b")).unwrap();
    dir.judge(&["grade", "-q", "--html", "out/grades.html"])
        .expect_code(1);
    let links = hrefs(&dir.read("out/grades.html"), "table.matrix a.cell");
    assert_eq!(links.len(), 5);
    let written = fs_err::read_dir(dir.path().join("out/grades"))
        .unwrap()
        .count();
    assert_eq!(written, 5 + 1);
    let leftovers = fs_err::read_dir(dir.path().join("out")).unwrap().count();
    assert_eq!(leftovers, 2, "only grades.html and grades/");
}

/// See: issue #11. A folder the judge did not write is never replaced by the
/// pages: a usage error before anything runs.
#[test]
fn r11_html_refuses_a_page_folder_it_did_not_write() {
    let dir = Dir::new();
    config(&dir, "problem/student", "");
    dir.create("submissions/rooks/alice.py", accepted());
    dir.create("grades/keep.txt", "mine");
    let run = dir.judge(&["grade", "--html", "grades.html"]);
    run.expect_code(2);
    assert!(
        run.stderr().contains(
            "cannot write --html `grades.html`: its pages go in `grades`, which exists and \
             does not hold judge's HTML pages"
        ),
        "{}",
        run.stderr()
    );
    assert_eq!(dir.read("grades/keep.txt"), "mine");
    assert!(!dir.path().join("grades.html").exists());
    let run = dir.judge(&["grade", "--csv", "r", "--html", "r.html"]);
    run.expect_code(2);
    assert!(
        run.stderr().contains(
            "--csv writes `r`, where --html `r.html` keeps its pages; give each report its own name"
        ),
        "{}",
        run.stderr()
    );
    // `--html -` prints one page with every test.
    let run = dir.judge(&["grade", "--html", "-"]);
    run.expect_code(0);
    assert!(run.stdout().contains("<details class=\"test\""));
    assert!(hrefs(&run.stdout(), "table.matrix a.cell")[0].starts_with('#'));
}

/// See: issue #11. `--student-view` (or judge.toml `student-view = true`):
/// hidden tests keep verdict and message but lose their data in the
/// HTML pages (a page per student, issue #32) and the JSON report; the
/// samples stay whole.
#[test]
fn r11_student_view_hides_the_data_of_hidden_tests() {
    for (extra, flag) in [
        ("", Some("--student-view")),
        ("student-view = true\n", None),
    ] {
        let dir = Dir::new();
        config(&dir, "problem/student", extra);
        dir.create("submissions/rooks/alice.py", ZERO);
        let mut args = vec!["grade", "-q", "--json", "r.json", "--html", "grades.html"];
        args.extend(flag);
        dir.judge(&args).expect_code(1);
        let report = json(&dir, "r.json");
        // No seed to remake the hidden random tests with `judge gen`.
        assert!(report.get("graded_with").is_none(), "{report:#}");
        assert!(report["results"][0].get("fingerprint").is_none());
        let tests = report["results"][0]["tests"].as_array().unwrap();
        assert!(tests.len() > 2);
        for test in tests {
            let name = test["name"].as_str().unwrap();
            let sample = name.starts_with("sample");
            assert_eq!(test.get("excerpt").is_some(), sample, "{name}");
            assert!(test.get("random").is_none() || sample, "{name}");
            assert!(!test["message"].as_str().unwrap().is_empty(), "{name}");
        }
        let page = dir.read("grades/alice.html");
        let html = scraper::Html::parse_document(&page);
        let select = |selector: &str| -> Vec<String> {
            html.select(&scraper::Selector::parse(selector).unwrap())
                .map(|element| element.text().collect())
                .collect()
        };
        let summaries = select("details.test > summary");
        assert_eq!(summaries.len(), tests.len());
        assert!(summaries.iter().all(|summary| summary.contains("WA")));
        let samples = tests
            .iter()
            .filter(|test| test["name"].as_str().unwrap().starts_with("sample"))
            .count();
        assert_eq!(samples, 1);
        assert_eq!(select("pre.input").len(), samples, "{page}");
        assert_eq!(select("pre.expected").len(), samples);
        assert_eq!(select("pre.actual").len(), samples);
        assert_eq!(select("p.hidden-test").len(), tests.len() - samples);
        assert!(!page.contains("judge gen rooks --seed"));
    }
    // Without it, every test's input is there.
    let dir = Dir::new();
    config(&dir, "problem/student", "");
    dir.create("submissions/rooks/alice.py", ZERO);
    dir.judge(&["grade", "-q", "--html", "grades.html"])
        .expect_code(1);
    let page = dir.read("grades/alice-rooks.html");
    assert_eq!(
        page.matches("<pre class=\"input\">").count(),
        page.matches("<details class=\"test\"").count()
    );
}

/// `grade --package --student-view` (or judge.toml's `student-view`) hides
/// the data of a package's hidden tests as `judge grade` does; without it
/// every test keeps its data.
#[test]
fn a_packages_reports_take_the_student_view_too() {
    for (extra, flag) in [
        ("", Some("--student-view")),
        ("student-view = true\n", None),
    ] {
        let dir = Dir::new();
        dir.judge(&["new", "hello"]).expect_code(0);
        dir.create("judge.toml", extra);
        let mut args = vec![
            "grade",
            "--package",
            "problems/hello",
            "-q",
            "--json",
            "r.json",
            "--html",
            "grades.html",
        ];
        args.extend(flag);
        dir.judge(&args).expect_code(0);
        let report = json(&dir, "r.json");
        assert!(report.get("graded_with").is_none(), "{report:#}");
        let mut hidden = 0;
        for result in report["results"].as_array().unwrap() {
            assert!(result.get("fingerprint").is_none(), "{result:#}");
            for test in result["tests"].as_array().unwrap() {
                let name = test["name"].as_str().unwrap();
                let sample = name.starts_with("sample");
                assert_eq!(test.get("excerpt").is_some(), sample, "{name}: {test:#}");
                hidden += usize::from(!sample);
            }
        }
        assert!(hidden > 0, "{report:#}");
        let pages = dir.path().join("grades");
        let page_text: String = fs_err::read_dir(&pages)
            .unwrap()
            .map(|entry| fs_err::read_to_string(entry.unwrap().path()).unwrap())
            .collect();
        assert_eq!(page_text.matches("hidden-test\"").count(), hidden);
    }
    let dir = Dir::new();
    dir.judge(&["new", "hello"]).expect_code(0);
    dir.judge(&[
        "grade",
        "--package",
        "problems/hello",
        "-q",
        "--json",
        "r.json",
    ])
    .expect_code(0);
    let report = json(&dir, "r.json");
    assert!(report.get("graded_with").is_some(), "{report:#}");
    for result in report["results"].as_array().unwrap() {
        for test in result["tests"].as_array().unwrap() {
            assert!(test.get("excerpt").is_some(), "{test:#}");
        }
    }
}

/// A WA example slow on the first test only: with two workers its second
/// test fails first, which must not decide anything.
fn zero_slow_on_the_sample() -> String {
    let sample =
        fs_err::read_to_string(repository().join("problems/rooks/tests/sample-1.in")).unwrap();
    format!(
        "import sys, time\ndata = sys.stdin.read()\nif data == {sample:?}:\n    time.sleep(0.5)\n{}",
        ZERO.lines()
            .skip(1)
            .map(|line| format!("{line}\n"))
            .collect::<String>()
            .replace("tokens = sys.stdin.read().split()", "tokens = data.split()")
    )
}

/// The test names of each result.
fn test_names(report: &Value) -> Vec<Vec<String>> {
    report["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|result| {
            result["tests"]
                .as_array()
                .unwrap()
                .iter()
                .map(|test| test["name"].as_str().unwrap().to_owned())
                .collect()
        })
        .collect()
}

// See: issue #19 (item 4).
#[test]
fn r19_an_example_stops_at_its_first_failing_test_for_any_jobs() {
    let dir = Dir::new();
    config(&dir, "expected", "");
    dir.create("submissions/rooks/accepted/good.py", accepted());
    dir.create(
        "submissions/rooks/wrong_answer/zero.py",
        zero_slow_on_the_sample(),
    );
    let mut reports = Vec::new();
    for jobs in ["1", "2"] {
        let name = format!("report-{jobs}.json");
        dir.judge(&["grade", "--jobs", jobs, "--json", &name])
            .expect_code(0);
        reports.push(timeless(json(&dir, &name)));
    }
    assert_eq!(reports[0], reports[1], "the report depends on --jobs");
    let report = &reports[0];
    let names = test_names(report);
    let total = report["results"][0]["total"].as_u64().unwrap() as usize;
    assert!(total > 2, "{total}");
    assert_eq!(
        names[0].len(),
        total,
        "the accepted example runs every test"
    );
    assert_eq!(names[1], ["sample-1"], "the WA example stops at its first");
    assert_eq!(report["results"][1]["total"].as_u64(), Some(total as u64));
    assert_eq!(report["results"][1]["passed"].as_u64(), Some(0));

    dir.judge(&["grade", "--all-tests", "--jobs", "2", "--json", "all.json"])
        .expect_code(0);
    let all = json(&dir, "all.json");
    assert_eq!(
        test_names(&all)[1].len(),
        total,
        "--all-tests runs them all"
    );
    assert_eq!(all["results"][1]["verdict"], "WA");
}

// See: issue #19 (item 4): scores need every test.
#[test]
fn r19_a_class_runs_every_test_of_a_failing_submission() {
    let dir = Dir::new();
    config(&dir, "problem/student", "");
    dir.create("submissions/rooks/zero.py", ZERO);
    dir.judge(&["grade", "--json", "report.json"])
        .expect_code(1);
    let report = json(&dir, "report.json");
    let total = report["results"][0]["total"].as_u64().unwrap() as usize;
    assert!(total > 2, "{total}");
    assert_eq!(test_names(&report)[0].len(), total);
}

/// Problems are graded side by side (issue #19): a grade of two problems,
/// the first of them slower (its accepted hand-in sleeps first, so the
/// second problem's pairs finish before it), reports exactly what grading
/// each problem alone reports, in the same order, verdicts and messages.
#[test]
fn problems_graded_side_by_side_report_what_each_graded_alone_reports() {
    let dir = Dir::new();
    let both = "layout = \"problem/student\"\nrandom-tests = 2\njobs = 2\nseed = 3\n";
    dir.create("judge.toml", both);
    for problem in ["matchsticks", "rooks"] {
        dir.create(
            &format!("{problem}.toml"),
            format!("{both}problems = [\"{problem}\"]\n"),
        );
    }
    let memo =
        fs_err::read_to_string(repository().join("submissions/matchsticks/accepted/memo.py"))
            .unwrap();
    let greedy = fs_err::read_to_string(
        repository().join("submissions/matchsticks/wrong_answer/greedy_fewest_replies.py"),
    )
    .unwrap();
    dir.create(
        "submissions/matchsticks/ann.py",
        format!("import time\ntime.sleep(0.5)\n{memo}"),
    );
    dir.create("submissions/matchsticks/bob.py", greedy);
    dir.create("submissions/rooks/ann.py", accepted());
    dir.create("submissions/rooks/bob.py", ZERO);
    dir.judge(&["grade", "-q", "--json", "both.json"])
        .expect_code(1);
    let mut alone = Vec::new();
    for problem in ["matchsticks", "rooks"] {
        let report = format!("{problem}.json");
        dir.judge(&[
            "grade",
            "-q",
            "--config",
            &format!("{problem}.toml"),
            "--json",
            &report,
        ])
        .expect_code(1);
        alone.extend(
            timeless(json(&dir, &report))["results"]
                .as_array()
                .unwrap()
                .clone(),
        );
    }
    let both = timeless(json(&dir, "both.json"));
    assert_eq!(both["results"], Value::Array(alone));
    assert_eq!(
        rows(&json(&dir, "both.json")),
        [
            row("submissions/matchsticks/ann.py", "matchsticks", "ann", "AC"),
            row("submissions/matchsticks/bob.py", "matchsticks", "bob", "WA"),
            row("submissions/rooks/ann.py", "rooks", "ann", "AC"),
            row("submissions/rooks/bob.py", "rooks", "bob", "WA"),
        ]
    );
}

/// See: issue #32 (item 10). A class of three on a package of three tests:
/// 2 of 3 tests reads 67% (it read 66%), the summary counts the class's
/// missing pairs, and an empty C file is CE saying "empty file", not only
/// the linker's complaint.
#[test]
fn r32_percent_rounds_summary_counts_missing_and_an_empty_file_says_so() {
    let dir = Dir::new();
    dir.judge(&["new", "hello"]).expect_code(0);
    for name in ["edges-1.in", "edges-1.ans"] {
        fs_err::remove_file(dir.path().join("problems/hello/tests").join(name)).unwrap();
    }
    dir.create("problems/hello/tests/seven.in", "1\n7\n");
    dir.create("problems/hello/tests/seven.ans", "7\n");
    dir.create("problems/hello/tests/eight.in", "1\n8\n");
    dir.create("problems/hello/tests/eight.ans", "8\n");
    dir.create(
        "judge.toml",
        "submissions = \"class\"\nlayout = \"problem/student\"\nrandom-tests = 0\njobs = 2\n\
         problems = [\"hello\", \"rooks\"]\n",
    );
    // Wrong on the sum 8 only: 2 of the 3 tests.
    dir.create(
        "class/hello/ann.py",
        "input()\ns = sum(map(int, input().split()))\nprint(0 if s == 8 else s)\n",
    );
    dir.create("class/rooks/ben.py", accepted());
    dir.create("class/hello/cat.c", "");
    let run = dir.judge(&[
        "grade",
        "--problems-dir",
        "problems",
        "--json",
        "grades.json",
    ]);
    run.expect_code(1);
    let stdout = run.stdout();
    let ann = stdout
        .lines()
        .find(|line| line.contains("class/hello/ann.py"))
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(ann.contains(" 2/3 ") && ann.contains(" 67% "), "{ann}");
    assert!(
        stdout.contains("3 submissions: 1 AC, 1 WA, 1 CE, 3 missing\n"),
        "{stdout}"
    );
    let report = json(&dir, "grades.json");
    let cat = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|result| result["submission"] == "class/hello/cat.c")
        .unwrap();
    assert_eq!(cat["verdict"], "CE");
    let message = cat["compile"]["message"].as_str().unwrap();
    // The reason alone: no linker's `undefined reference to main` after it.
    assert_eq!(message, "empty file: the submission has no code");
}

/// A hand-in that is a FIFO (`mkfifo eve.py`) is refused by what it is,
/// unread, and the rest of the class graded: its open blocked the whole
/// grade for good, and SIGTERM did not end it (a break-it pass, b36).
#[test]
fn a_hand_in_that_is_a_fifo_is_refused_and_the_class_graded() {
    let dir = Dir::new();
    config(&dir, "problem/student", "");
    dir.create("submissions/rooks/alice.py", accepted());
    let fifo = dir.path().join("submissions/rooks/eve.py");
    rustix::fs::mkfifoat(
        rustix::fs::CWD,
        &fifo,
        rustix::fs::Mode::from_raw_mode(0o644),
    )
    .unwrap();
    let output = assert_cmd::cargo::cargo_bin_cmd!("judge")
        .current_dir(dir.path())
        .args(["grade", "--json", "report.json"])
        .timeout(std::time::Duration::from_secs(120))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        output.status.code(),
        Some(1),
        "timed out or failed: {stderr}"
    );
    let report = json(&dir, "report.json");
    assert_eq!(
        rows(&report),
        [
            row("submissions/rooks/alice.py", "rooks", "alice", "AC"),
            row("submissions/rooks/eve.py", "rooks", "eve", "CE"),
        ]
    );
    let message = report["results"][1]["compile"]["message"]
        .as_str()
        .unwrap_or_default();
    assert!(
        message.contains("cannot read the submission `submissions/rooks/eve.py`: it is a FIFO (named pipe), not a regular file"),
        "{message:?}"
    );
}
