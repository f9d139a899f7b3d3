//! Kattis / ICPC packages read as they are, and `judge grade --package DIR`
//! grading a package's own `submissions/<verdict>/` (issue #9).

use crate::support::Dir;

/// A Kattis package "sum of two" with submissions in every folder the issue
/// names, one in a language that is not configured, and no time limit.
fn sum_package(dir: &Dir, validation: &str) {
    let files: &[(&str, &str)] = &[
        ("problem.yaml", validation),
        ("data/sample/1.in", "1 2\n"),
        ("data/sample/1.ans", "3\n"),
        ("data/secret/group1/a.in", "5 7\n"),
        ("data/secret/group1/a.ans", "12\n"),
        ("data/secret/b.in", "-4 4\n"),
        ("data/secret/b.ans", "0\n"),
        (
            "input_validators/validate.py",
            "import sys\nparts = sys.stdin.read().split()\n\
             sys.exit(42 if len(parts) == 2 and all(p.lstrip('-').isdigit() for p in parts) else 43)\n",
        ),
        ("submissions/accepted/sum.py", "a, b = map(int, input().split())\nprint(a + b)\n"),
        (
            "submissions/accepted/sum.cpp",
            "#include <cstdio>\nint main() { long long a, b; scanf(\"%lld %lld\", &a, &b); printf(\"%lld\\n\", a + b); }\n",
        ),
        ("submissions/accepted/sum.go", "package main\n"),
        ("submissions/wrong_answer/minus.py", "a, b = map(int, input().split())\nprint(a - b)\n"),
        (
            "submissions/time_limit_exceeded/spin.cpp",
            "int main() { volatile unsigned long x = 0; for (;;) x++; }\n",
        ),
        ("submissions/run_time_error/exits.py", "raise SystemExit(1)\n"),
        ("submissions/run_time_error/hog.py", "x = bytearray(1 << 30)\nprint(len(x))\n"),
    ];
    for (name, contents) in files {
        dir.create(&format!("sum/{name}"), contents);
    }
    // Kattis gives every language the same time limit (issue #15): a
    // generous wall-clock backstop keeps a loaded machine from turning a
    // Python start into a TLE.
    dir.create("judge.toml", "[limits]\nwall-time-factor = 10\n");
}

#[test]
fn every_submission_of_a_kattis_package_gets_its_folders_verdict() {
    let dir = Dir::new();
    sum_package(&dir, "name: Sum of two\nsource: judge tests\nvalidator_flags: case_sensitive\nlimits:\n  memory: 256\n");
    let run = dir.judge(&["grade", "--package", "sum"]);
    run.expect_code(0);
    let out = run.stdout();
    for (path, verdict) in [
        ("sum/submissions/accepted/sum.cpp", "AC"),
        ("sum/submissions/accepted/sum.py", "AC"),
        ("sum/submissions/wrong_answer/minus.py", "WA"),
        ("sum/submissions/time_limit_exceeded/spin.cpp", "TLE"),
        ("sum/submissions/run_time_error/exits.py", "RE"),
    ] {
        assert!(
            out.contains(&format!("ok       {path}: {verdict}")),
            "{path}: {out}"
        );
    }
    // A memory overrun counts as run_time_error, whichever way it ends.
    assert!(
        out.contains("ok       sum/submissions/run_time_error/hog.py: "),
        "{out}"
    );
    assert!(
        out.contains("6 of 6 submissions got their folder's verdict; 1 skipped"),
        "{out}"
    );
    let err = run.stderr();
    assert!(
        err.contains(
            "skipped: sum/submissions/accepted/sum.go: its language (`.go`) is not configured"
        ),
        "{err}"
    );
    assert!(
        err.contains("time limit: 1 s, derived from the slowest accepted submission"),
        "{err}"
    );
}

#[test]
fn a_custom_output_validator_and_a_wrong_folder_are_reported() {
    let dir = Dir::new();
    sum_package(
        &dir,
        "name: Sum of two\nvalidation: custom\nlimits:\n  time_limit: 1\n  memory: 256\n",
    );
    dir.create(
        "sum/output_validators/check/check.py",
        "import sys\nanswer = open(sys.argv[2]).read().split()\ngot = sys.stdin.read().split()\n\
         if got != answer:\n    open(sys.argv[3] + 'judgemessage.txt', 'w').write('wrong sum')\n    sys.exit(43)\nsys.exit(42)\n",
    );
    // Filed as accepted, but wrong: the grade must say so and exit 1.
    dir.create("sum/submissions/accepted/misfiled.py", "print(0)\n");
    let run = dir.judge(&["grade", "--package", "sum"]);
    run.expect_code(1);
    let out = run.stdout();
    assert!(
        out.contains("MISMATCH sum/submissions/accepted/misfiled.py: WA (folder accepted) on sample/1: wrong sum"),
        "{out}"
    );
    assert!(
        out.contains("ok       sum/submissions/wrong_answer/minus.py: WA"),
        "{out}"
    );
    assert!(!run.stderr().contains("derived"), "{}", run.stderr());
}

#[test]
fn an_unsupported_problem_yaml_key_is_refused_with_its_line() {
    let dir = Dir::new();
    // `grading` is a key of the legacy format; `scoring` is of none.
    sum_package(
        &dir,
        "name: Sum of two\ngrading:\n  on_reject: first_error\nscoring:\n  objective: max\n",
    );
    let run = dir.judge(&["grade", "--package", "sum"]);
    run.expect_code(2);
    let err = run.stderr();
    assert!(
        err.contains("problem.yaml`: line 4, column 1: unknown field `scoring`, expected one of"),
        "{err}"
    );
    assert!(err.contains("`validator_flags`"), "{err}");
    assert!(
        err.contains("(the keys of problem_format_version `legacy`)"),
        "{err}"
    );
    assert!(run.stdout().is_empty());
}

/// See: issue #15 (item 5): `--json`, `--junit`, `--csv` and `-q` work with
/// `--package`; the JSON says each submission's folder and verdict.
#[test]
fn package_grading_writes_the_reports_of_grade() {
    let dir = Dir::new();
    sum_package(
        &dir,
        "name: Sum of two\nlimits:\n  time_limit: 1\n  memory: 256\n",
    );
    let run = dir.judge(&[
        "grade",
        "--package",
        "sum",
        "--json",
        "report.json",
        "--junit",
        "report.xml",
        "--csv",
        "grades.csv",
        "-q",
    ]);
    run.expect_code(0);
    let out = run.stdout();
    assert!(
        !out.contains("ok       "),
        "-q prints no agreeing row: {out}"
    );
    assert!(
        out.contains("6 of 6 submissions got their folder's verdict"),
        "{out}"
    );
    let report: serde_json::Value =
        serde_json::from_str(&dir.read("report.json")).expect("the JSON report parses");
    assert_eq!(report["layout"], "expected");
    let results = report["results"].as_array().expect("results");
    assert_eq!(results.len(), 6);
    let minus = results
        .iter()
        .find(|result| result["submission"] == "sum/submissions/wrong_answer/minus.py")
        .expect("minus.py is in the report");
    assert_eq!(minus["verdict"], "WA");
    assert_eq!(minus["expected"]["folder"], "wrong_answer");
    assert_eq!(minus["expected"]["verdict"], "WA");
    // A memory overrun counts as run_time_error: the JSON says so too.
    let hog = results
        .iter()
        .find(|result| result["submission"] == "sum/submissions/run_time_error/hog.py")
        .expect("hog.py is in the report");
    assert_eq!(hog["expected"]["also"], serde_json::json!(["MLE"]));
    assert!(dir.read("report.xml").contains("<testsuite"));
    assert!(dir.read("grades.csv").contains("minus.py"));
}

/// See: issue #15 (item 5): `--shard` grades a part, `--resume` reuses.
#[test]
fn package_grading_shards_and_resumes() {
    let dir = Dir::new();
    sum_package(
        &dir,
        "name: Sum of two\nlimits:\n  time_limit: 1\n  memory: 256\n",
    );
    let first = dir.judge(&[
        "grade",
        "--package",
        "sum",
        "--shard",
        "1/2",
        "--json",
        "a.json",
    ]);
    first.expect_code(0);
    let shard: serde_json::Value = serde_json::from_str(&dir.read("a.json")).unwrap();
    assert_eq!(shard["shard"]["pairs"], 6);
    assert_eq!(shard["results"].as_array().unwrap().len(), 3);
    let whole = dir.judge(&[
        "grade",
        "--package",
        "sum",
        "--resume",
        "a.json",
        "--json",
        "b.json",
    ]);
    whole.expect_code(0);
    assert!(whole.stderr().contains("reused 3"), "{}", whole.stderr());
    let report: serde_json::Value = serde_json::from_str(&dir.read("b.json")).unwrap();
    assert_eq!(report["results"].as_array().unwrap().len(), 6);
}

#[test]
fn every_command_reads_a_kattis_package_from_the_problems_dir() {
    let dir = Dir::new();
    sum_package(&dir, "name: Sum of two\nlimits:\n  time_limit: 2\n");
    let with = |args: &[&str]| {
        let mut all = args.to_vec();
        all.extend_from_slice(&["--problems-dir", "."]);
        dir.judge(&all)
    };
    with(&["validate", "sum", "sum/data/secret/b.in"]).expect_code(0);
    dir.create("bad.in", "1 2 3\n");
    with(&["validate", "sum", "bad.in"]).expect_code(1);
    let solved = with(&["solve", "sum", "sum/data/secret/group1/a.in"]);
    solved.expect_code(0);
    assert_eq!(solved.stdout(), "12\n");
    dir.create("out", "13\n");
    let checked = with(&[
        "check",
        "sum",
        "sum/data/secret/group1/a.in",
        "out",
        "sum/data/secret/group1/a.ans",
    ]);
    checked.expect_code(1);
    assert_eq!(checked.stdout(), "WA token 1: expected `12`, got `13`\n");
    let run = with(&[
        "run",
        "sum",
        "sum/submissions/accepted/sum.py",
        "sum/submissions/wrong_answer/minus.py",
    ]);
    run.expect_code(1);
    assert!(
        run.stdout()
            .contains("sum sum/submissions/accepted/sum.py (python): AC 3/3"),
        "{}",
        run.stdout()
    );
    assert!(
        run.stdout()
            .contains("sum sum/submissions/wrong_answer/minus.py (python): WA 0/3"),
        "{}",
        run.stdout()
    );
    let listed = with(&["problems"]);
    assert!(
        listed.stdout().contains("Sum of two"),
        "{}",
        listed.stdout()
    );
}
