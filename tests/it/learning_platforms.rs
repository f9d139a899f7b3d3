//! Classroom 50's `result.json` and Moodle's CodeRunner and VPL outputs
//! (issue #30): each checked against what its platform publishes, then for
//! what the student sees: the score, the samples, and nothing of a hidden
//! test's data.

use crate::support::{Dir, PackageBuilder};
use serde_json::Value;

/// Classroom 50's `classroom50/result/v1` as its published schema
/// (`schemas/result-v1.schema.json` in foundation50/classroom50) states
/// it, restated here: no keys beyond the identity, `graded_at`, `score`,
/// `max-score`, `tests` and `submitted_by`; every identity key a non-empty
/// string; `submission` starting `submit/`; `datetime`
/// `YYYY-MM-DDTHH:MM:SSZ`; `assignment_type` `individual` or `group`;
/// scores whole and not negative; each test with `test-name`, `passed`,
/// `score` and `max-score` (more keys allowed).
fn classroom50_schema() -> Value {
    let text = serde_json::json!({ "type": "string", "minLength": 1 });
    let points = serde_json::json!({ "type": "integer", "minimum": 0 });
    let datetime = serde_json::json!({
        "type": "string",
        "pattern": "^\\d{4}-\\d{2}-\\d{2}T([01]\\d|2[0-3]):[0-5]\\d:[0-5]\\dZ$"
    });
    serde_json::json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "additionalProperties": false,
        "required": ["schema", "classroom", "assignment", "assignment_type", "owner",
                     "submission", "commit", "release", "review", "datetime", "score",
                     "max-score", "tests"],
        "properties": {
            "schema": { "const": "classroom50/result/v1" },
            "classroom": text, "assignment": text, "owner": text, "commit": text,
            "release": text, "review": text,
            "assignment_type": { "enum": ["individual", "group"] },
            "submission": { "type": "string", "pattern": "^submit/" },
            "datetime": datetime, "graded_at": datetime,
            "score": points, "max-score": points,
            "submitted_by": { "type": "object" },
            "tests": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["test-name", "passed", "score", "max-score"],
                    "properties": {
                        "test-name": text,
                        "passed": { "type": "boolean" },
                        "score": points,
                        "max-score": points
                    }
                }
            }
        }
    })
}

/// CodeRunner's combinator grader result, as its documentation and its
/// grader outcome's list of allowed fields state it: only `fraction`,
/// `prologuehtml`, `testresults`, `epiloguehtml`, `feedbackhtml`,
/// `columnformats`, `showdifferences`, `showoutputonly`, `graderstate` and
/// `instructorhtml`; `fraction` (required) from 0 to 1; `testresults` a
/// table of rows; `columnformats` each `%s` or `%h`.
fn coderunner_schema() -> Value {
    serde_json::json!({
        "type": "object",
        "additionalProperties": false,
        "required": ["fraction"],
        "properties": {
            "fraction": { "type": "number", "minimum": 0, "maximum": 1 },
            "prologuehtml": { "type": "string" },
            "epiloguehtml": { "type": "string" },
            "feedbackhtml": { "type": "string" },
            "instructorhtml": { "type": "string" },
            "testresults": { "type": "array", "items": { "type": "array" } },
            "columnformats": { "type": "array", "items": { "enum": ["%s", "%h"] } },
            "showdifferences": { "type": "boolean" },
            "showoutputonly": { "type": "boolean" },
            "graderstate": {}
        }
    })
}

fn validate(schema: &Value, instance: &Value) {
    let validator = jsonschema::validator_for(schema).unwrap();
    let errors: Vec<String> = validator
        .iter_errors(instance)
        .map(|error| format!("{error} at {}", error.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}\n{instance:#}");
}

/// The schemas tell a bad file from a good one.
#[test]
fn the_schemas_refuse_what_their_platforms_refuse() {
    let classroom = jsonschema::validator_for(&classroom50_schema()).unwrap();
    let good = serde_json::json!({
        "schema": "classroom50/result/v1", "classroom": "c", "assignment": "a",
        "assignment_type": "individual", "owner": "o", "submission": "submit/x",
        "commit": "u", "release": "r", "review": "u", "datetime": "2026-06-01T14:33:11Z",
        "score": 4, "max-score": 5,
        "tests": [{ "test-name": "t", "passed": true, "score": 4, "max-score": 4 }]
    });
    assert!(classroom.is_valid(&good));
    for (key, bad) in [
        ("score", serde_json::json!(4.5)),
        ("submission", serde_json::json!("v1")),
        ("datetime", serde_json::json!("2026-06-01 14:33:11")),
        ("usernames", serde_json::json!(["o"])),
    ] {
        let mut instance = good.clone();
        instance[key] = bad;
        assert!(!classroom.is_valid(&instance), "{key}");
    }
    let coderunner = jsonschema::validator_for(&coderunner_schema()).unwrap();
    assert!(coderunner.is_valid(&serde_json::json!({ "fraction": 0.5 })));
    assert!(!coderunner.is_valid(&serde_json::json!({ "fraction": 50 })));
    assert!(!coderunner.is_valid(&serde_json::json!({ "fraction": 1, "mark": 1 })));
}

/// A judge.toml for one student's hand-in, laid out `student/problem`.
fn one_student(dir: &Dir) {
    dir.create(
        "judge.toml",
        "submissions = \"class\"\nlayout = \"student/problem\"\nrandom-tests = 0\njobs = 2\n\
         problems = [\"rooks\"]\n",
    );
}

/// Prints `0` for each board: wrong on every test.
const ZERO: &str = r#"import sys
tokens = sys.stdin.read().split()
pos = 0
while pos < len(tokens) and tokens[pos] != "0":
    n = int(tokens[pos])
    pos += 1 + n
    print(0)
"#;

/// The reference's answers: right on every test.
const RIGHT: &str = r#"import sys
tokens = sys.stdin.read().split()
pos = 0
def best(board, row, col):
    n = len(board)
    if row == n:
        return 0
    if col == n:
        return best(board, row + 1, 0)
    result = best(board, row, col + 1)
    if board[row][col] == ".":
        ok = True
        for r in range(row - 1, -1, -1):
            if board[r][col] == "X": break
            if board[r][col] == "R": ok = False; break
        for c in range(col - 1, -1, -1):
            if board[row][c] == "X": break
            if board[row][c] == "R": ok = False; break
        if ok:
            board[row][col] = "R"
            result = max(result, 1 + best(board, row, col + 1))
            board[row][col] = "."
    return result
while pos < len(tokens) and tokens[pos] != "0":
    n = int(tokens[pos])
    board = [list(tokens[pos + 1 + i]) for i in range(n)]
    pos += 1 + n
    print(best(board, 0, 0))
"#;

/// What Classroom 50's runner gives an autograder.
const RUNNER: [(&str, &str); 6] = [
    ("CLASSROOM", "cs-principles"),
    ("ASSIGNMENT", "rooks"),
    ("USERNAME", "alice"),
    ("SUBMISSION_TAG", "submit/2026-06-01T14-32-05Z-a1b2c3d"),
    ("COMMIT_URL", "https://example.org/commit/a1b2c3d"),
    ("RELEASE_URL", "https://example.org/releases/tag/submit"),
];

/// See: issue #30. Classroom 50's result is valid by its schema, in whole
/// points whose tests add up to the score; a hidden test says only its
/// verdict and where it failed.
#[test]
fn classroom50_result_is_valid_and_adds_up() {
    for (program, expected_score) in [(ZERO, 0), (RIGHT, 100)] {
        let dir = Dir::new();
        one_student(&dir);
        dir.create("class/alice/rooks.py", program);
        let run = dir.judge_env(&["grade", "--classroom50", "result.json"], &RUNNER);
        assert!(run.code() <= 1, "{}", run.transcript());
        let result: Value = serde_json::from_str(&dir.read("result.json")).unwrap();
        validate(&classroom50_schema(), &result);
        assert_eq!(result["owner"], "alice");
        assert_eq!(
            result["review"], result["commit"],
            "no REVIEW_URL: the commit"
        );
        assert_eq!(result["score"], expected_score, "{result:#}");
        assert_eq!(result["max-score"], 100);
        let tests = result["tests"].as_array().unwrap();
        let sum = |key: &str| -> u64 { tests.iter().map(|t| t[key].as_u64().unwrap()).sum() };
        assert_eq!(sum("score"), expected_score);
        assert_eq!(sum("max-score"), 100);
        for test in tests {
            let name = test["test-name"].as_str().unwrap();
            let output = test["output"].as_str().unwrap();
            if !name.starts_with("rooks: sample") {
                assert!(!output.contains("expected"), "{test:#}");
            }
        }
    }
}

/// Without the runner's identity there is no result to write: the error
/// names the variable, nothing is written, and the exit is a
/// configuration error's 2 (issue #30, found by a review).
#[test]
fn classroom50_without_the_runners_identity_names_what_is_missing() {
    let dir = Dir::new();
    one_student(&dir);
    dir.create("class/alice/rooks.py", ZERO);
    let run = dir.judge_env(&["grade", "--classroom50", "result.json"], &RUNNER[..2]);
    run.expect_code(2);
    assert!(run.stderr().contains("`USERNAME`"), "{}", run.transcript());
    assert!(!dir.path().join("result.json").exists());
}

/// A hand-in with nothing gradable scores 0 of 0 on Classroom 50, and its
/// first test says why.
#[test]
fn classroom50_says_why_a_hand_in_cannot_be_graded() {
    let dir = Dir::new();
    one_student(&dir);
    dir.create("class/alice/rook.py", ZERO);
    let run = dir.judge_env(&["grade", "--classroom50", "result.json"], &RUNNER);
    assert_ne!(run.code(), 0);
    let result: Value = serde_json::from_str(&dir.read("result.json")).unwrap();
    validate(&classroom50_schema(), &result);
    assert_eq!(result["score"], 0);
    let first = &result["tests"][0];
    assert_eq!(first["passed"], false);
    let output = first["output"].as_str().unwrap();
    assert!(output.contains("did you mean `rooks`?"), "{output}");
}

/// See: issue #30 (found by a review). A missing hand-in is the student's
/// failing grade: every platform's file says so, and `judge grade` exits 1
/// (SPEC: a verdict that is not AC), never 2, which says the grader itself
/// failed (Classroom 50's autograder passes it on as the grader's error).
#[test]
fn r30_a_missing_hand_in_is_a_failing_grade_on_every_platform() {
    for (flag, file) in [
        ("--classroom50", "result.json"),
        ("--gradescope", "results.json"),
        ("--prairielearn", "results.json"),
        ("--coderunner", "grader.json"),
        ("--vpl", "vpl.txt"),
    ] {
        let dir = Dir::new();
        one_student(&dir);
        fs_err::create_dir_all(dir.path().join("class/alice")).unwrap();
        let run = dir.judge_env(&["grade", "--quiet", flag, file], &RUNNER);
        run.expect_code(1);
        let text = dir.read(file);
        assert!(text.contains("your hand-in is empty"), "{flag}: {text}");
        if flag == "--classroom50" {
            let result: Value = serde_json::from_str(&text).unwrap();
            validate(&classroom50_schema(), &result);
            assert_eq!(result["score"], 0, "{result:#}");
            assert_eq!(result["tests"][0]["passed"], false, "{result:#}");
        }
    }
}

/// See: issue #30. CodeRunner's template grader prints its JSON on
/// standard output, and nothing else there: valid by CodeRunner's fields,
/// the fraction the share of points, a row per test with a tick or a
/// cross, hidden rows without data.
#[test]
fn coderunner_prints_only_its_json_on_standard_output() {
    for (program, fraction) in [(ZERO, 0.0), (RIGHT, 1.0)] {
        let dir = Dir::new();
        one_student(&dir);
        dir.create("class/alice/rooks.py", program);
        let run = dir.judge(&["grade", "--coderunner", "-"]);
        assert!(run.code() <= 1, "{}", run.transcript());
        let outcome: Value = serde_json::from_str(&run.stdout()).expect("only JSON");
        validate(&coderunner_schema(), &outcome);
        assert_eq!(outcome["fraction"], fraction);
        let rows = outcome["testresults"].as_array().unwrap();
        assert_eq!(rows[0][0], "iscorrect");
        let correct = if fraction == 1.0 { 1 } else { 0 };
        for row in &rows[1..] {
            assert_eq!(row[0], correct, "{row}");
            if row[3] != "sample" {
                assert!(!row[4].as_str().unwrap().contains("expected"), "{row}");
            }
        }
        // CodeRunner wants a format for each column but `iscorrect` and
        // `ishidden`, and rejects the whole result otherwise.
        let header = rows[0].as_array().unwrap();
        let formatted = header
            .iter()
            .filter(|column| !matches!(column.as_str(), Some("iscorrect" | "ishidden")))
            .count();
        let formats = outcome["columnformats"].as_array().unwrap().len();
        assert_eq!(formats, formatted, "{outcome}");
        assert!(rows
            .iter()
            .all(|row| row.as_array().unwrap().len() == header.len()));
    }
}

/// See: issue #30. VPL reads `Comment :=>>` lines and one `Grade :=>>`
/// on the activity's scale (`VPL_GRADEMAX`); a hand-in that cannot be
/// graded gets no grade line.
#[test]
fn vpl_grades_on_the_activitys_scale() {
    let dir = Dir::new();
    one_student(&dir);
    dir.create("class/alice/rooks.py", RIGHT);
    let run = dir.judge_env(&["grade", "--vpl", "-"], &[("VPL_GRADEMAX", "10")]);
    run.expect_code(0);
    let out = run.stdout();
    assert!(
        out.lines()
            .all(|line| line.starts_with("Comment :=>>") || line.starts_with("Grade :=>>")),
        "{out}"
    );
    assert_eq!(out.lines().last(), Some("Grade :=>>10.00"), "{out}");

    let empty = Dir::new();
    one_student(&empty);
    empty.create("class/alice/rook.py", ZERO);
    let run = empty.judge(&["grade", "--vpl", "-"]);
    assert_ne!(run.code(), 0);
    let out = run.stdout();
    assert!(!out.contains("Grade :=>>"), "{out}");
    assert!(
        out.contains("Comment :=>>-This hand-in cannot be graded"),
        "{out}"
    );
}

/// See: issue #30 (found by a review). A `VPL_GRADEMAX` that is no number
/// is the teacher's mistake: exit 2, and, since VPL drops the grader's
/// standard error, a comment tells the student the grader is
/// misconfigured instead of an empty evaluation; no grade line.
#[test]
fn vpl_with_a_scale_that_is_no_number_says_so_to_the_student() {
    let dir = Dir::new();
    one_student(&dir);
    dir.create("class/alice/rooks.py", RIGHT);
    let run = dir.judge_env(&["grade", "--vpl", "-"], &[("VPL_GRADEMAX", "abc")]);
    run.expect_code(2);
    let out = run.stdout();
    assert!(
        out.contains("Comment :=>>-The grader is misconfigured"),
        "{}",
        run.transcript()
    );
    assert!(
        out.lines().all(|line| line.starts_with("Comment :=>>")),
        "{out}"
    );
    assert!(
        run.stderr().contains("--vpl: `VPL_GRADEMAX` is `abc`"),
        "{}",
        run.transcript()
    );
}

/// A problem of a test per `n` (answer `n(n+1)/2`) and a program right
/// on the tests whose `n` is odd.
fn sums_class(dir: &Dir, ns: &[u64]) {
    let mut package = PackageBuilder::ours(dir, "problems/sums")
        .manifest(
            "title = \"Sums\"\norigin = \"judge tests\"\nprofiles = [\"data\"]\n\
             reference = \"reference.py\"\n\
             [limits]\ntime-limit-ms = 2000\nmemory-limit-mib = 256\noutput-limit-kib = 64\n\
             [tests]\nseed = 1\n",
        )
        .file(
            "reference.py",
            "n = int(input())\nprint(n * (n + 1) // 2)\n",
        );
    for (index, n) in ns.iter().enumerate() {
        let name = format!("t-{:02}", index + 1);
        package = package.test(&name, format!("{n}\n"), format!("{}\n", n * (n + 1) / 2));
    }
    package.build();
    dir.create(
        "judge.toml",
        "submissions = \"class\"\nlayout = \"student/problem\"\nrandom-tests = 0\njobs = 2\n\
         problems = [\"sums\"]\n",
    );
    dir.create(
        "class/alice/sums.py",
        "n = int(input())\nprint(n * (n + 1) // 2 + (n + 1) % 2)\n",
    );
}

/// See: issue #30. 4 of 7 tests passed (the first four) is 57.14 in the
/// CSV, and Gradescope's tests summed to 57.16 and Classroom 50's to 58
/// (the first tests took the odd hundredths, then the odd points); 11 of
/// 17 is 64.71, and PrairieLearn said `0.6470999999999999` (a float sum
/// over 100) and Classroom 50 66. Every platform's total is now the CSV's
/// score at its precision, its items add up to it and to the maximum
/// exactly, and a passed test scores its maximum.
#[test]
fn r30_every_platform_scores_what_the_csv_says() {
    /// The tests' `n`s, then what every platform must say.
    struct Case {
        ns: &'static [u64],
        csv_score: &'static str,
        hundredths_score: u64,
        fraction: &'static str,
        whole_score: u64,
        grade: &'static str,
    }
    let cases = [
        Case {
            ns: &[3, 5, 7, 9, 2, 4, 6],
            csv_score: "57.14",
            hundredths_score: 5714,
            fraction: "0.5714",
            whole_score: 57,
            grade: "5.71",
        },
        Case {
            ns: &[1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 2, 4, 6, 8, 10, 12],
            csv_score: "64.71",
            hundredths_score: 6471,
            fraction: "0.6471",
            whole_score: 65,
            grade: "6.47",
        },
    ];
    for Case {
        ns,
        csv_score,
        hundredths_score,
        fraction,
        whole_score,
        grade,
    } in cases
    {
        let dir = Dir::new();
        sums_class(&dir, ns);
        let run = dir.judge_env(
            &[
                "grade",
                "--problems-dir",
                "problems",
                "--csv",
                "grades.csv",
                "--gradescope",
                "gs.json",
                "--prairielearn",
                "pl.json",
                "--classroom50",
                "result.json",
                "--coderunner",
                "coderunner.json",
            ],
            &RUNNER,
        );
        run.expect_code(1);
        let csv = dir.read("grades.csv");
        let row: Vec<&str> = csv.lines().nth(1).unwrap().split(',').collect();
        assert_eq!(row[2], csv_score, "{csv}");

        let hundredths = |value: &Value| (value.as_f64().unwrap() * 100.0).round() as u64;
        let gradescope: Value = serde_json::from_str(&dir.read("gs.json")).unwrap();
        crate::platforms::check_gradescope(&gradescope);
        assert_eq!(hundredths(&gradescope["score"]), hundredths_score);
        let tests = gradescope["tests"].as_array().unwrap();
        assert_eq!(tests.len(), ns.len());
        let sum = |key: &str| -> u64 { tests.iter().map(|test| hundredths(&test[key])).sum() };
        assert_eq!(
            (sum("score"), sum("max_score")),
            (hundredths_score, 10_000),
            "{gradescope:#}"
        );
        let share = 10_000 / ns.len() as u64;
        for test in tests {
            let (score, max) = (hundredths(&test["score"]), hundredths(&test["max_score"]));
            assert!(max == share || max == share + 1, "{test:#}");
            match test["status"].as_str() {
                Some("passed") => assert_eq!(score, max, "{test:#}"),
                _ => assert_eq!(score, 0, "{test:#}"),
            }
        }

        let text = dir.read("pl.json");
        assert!(text.contains(&format!("\"score\": {fraction},")), "{text}");
        let learn: Value = serde_json::from_str(&text).unwrap();
        let points: u64 = learn["tests"]
            .as_array()
            .unwrap()
            .iter()
            .map(|test| hundredths(&test["points"]))
            .sum();
        assert_eq!(points, hundredths_score);

        let text = dir.read("coderunner.json");
        assert!(
            text.contains(&format!("\"fraction\":{fraction},")),
            "{text}"
        );
        validate(&coderunner_schema(), &serde_json::from_str(&text).unwrap());

        let result: Value = serde_json::from_str(&dir.read("result.json")).unwrap();
        validate(&classroom50_schema(), &result);
        assert_eq!(result["score"], whole_score, "{result:#}");
        assert_eq!(result["max-score"], 100);
        let tests = result["tests"].as_array().unwrap();
        let whole =
            |key: &str| -> u64 { tests.iter().map(|test| test[key].as_u64().unwrap()).sum() };
        assert_eq!((whole("score"), whole("max-score")), (whole_score, 100));
        for test in tests {
            if test["passed"] == true {
                assert_eq!(test["score"], test["max-score"], "{test:#}");
            } else {
                assert_eq!(test["score"], 0, "{test:#}");
            }
        }

        let vpl = dir.judge_env(
            &["grade", "--problems-dir", "problems", "--vpl", "-"],
            &[("VPL_GRADEMAX", "10")],
        );
        vpl.expect_code(1);
        let last = format!("Grade :=>>{grade}");
        assert_eq!(
            vpl.stdout().lines().last(),
            Some(last.as_str()),
            "{}",
            vpl.stdout()
        );
    }
}

/// See: issue #30. Classroom 50's runner gives a team assignment's mode as
/// `team` (its manifest's modes are `individual`, `group` and `team`, in
/// `MODE`, and it passes the mapped `ASSIGNMENT_TYPE` to an autograder),
/// while the schema's `assignment_type` is `individual` or `group`: a team
/// is written `group`. A mode Classroom 50 does not have is a usage error
/// naming it, and nothing is written.
#[test]
fn r30_a_team_assignment_is_a_group_and_an_unknown_mode_is_refused() {
    for (variable, mode, expected) in [
        ("MODE", "team", "group"),
        ("MODE", "Group", "group"),
        ("ASSIGNMENT_TYPE", "team", "group"),
        ("MODE", "individual", "individual"),
    ] {
        let dir = Dir::new();
        one_student(&dir);
        dir.create("class/alice/rooks.py", RIGHT);
        let mut env = RUNNER.to_vec();
        env.push((variable, mode));
        let run = dir.judge_env(&["grade", "--classroom50", "result.json"], &env);
        run.expect_code(0);
        let result: Value = serde_json::from_str(&dir.read("result.json")).unwrap();
        validate(&classroom50_schema(), &result);
        assert_eq!(result["assignment_type"], expected, "{variable}={mode}");
    }
    let dir = Dir::new();
    one_student(&dir);
    dir.create("class/alice/rooks.py", RIGHT);
    let mut env = RUNNER.to_vec();
    env.push(("MODE", "pairs"));
    let run = dir.judge_env(&["grade", "--classroom50", "result.json"], &env);
    run.expect_code(2);
    assert!(
        run.stderr().contains("`MODE` is `pairs`"),
        "{}",
        run.transcript()
    );
    assert!(!dir.path().join("result.json").exists());
}

/// See: issue #30 (found by a review). `--classroom50` without the runner's
/// identity, or with a `SUBMISSION_TAG` that is no `submit/...` tag, is
/// refused before anything compiles (it was checked once the whole grade
/// had run): `grade`, `run` and `grade --package` alike.
#[test]
fn r30_classroom50_checks_the_runners_identity_before_grading() {
    let mut bad_tag = RUNNER.to_vec();
    bad_tag[3] = ("SUBMISSION_TAG", "v1.0");
    for (environment, said) in [
        (&RUNNER[..5], "`RELEASE_URL`"),
        (&bad_tag[..], "`SUBMISSION_TAG` is `v1.0`"),
    ] {
        let dir = Dir::new();
        one_student(&dir);
        dir.create("class/alice/rooks.py", ZERO);
        for args in [
            &["grade", "--classroom50", "result.json"][..],
            &[
                "run",
                "rooks",
                "class/alice/rooks.py",
                "--classroom50",
                "result.json",
            ][..],
        ] {
            let run = dir.judge_env(args, environment);
            run.expect_code(2);
            let transcript = run.transcript();
            assert!(transcript.contains("--classroom50: "), "{transcript}");
            assert!(transcript.contains(said), "{transcript}");
            // Nothing was graded: no verdict, no table.
            assert!(!transcript.contains("WA"), "{transcript}");
            assert!(!transcript.contains("sample-1"), "{transcript}");
            assert!(!dir.path().join("result.json").exists());
        }
        let package = crate::support::repository().join("problems/rooks");
        let run = dir.judge_env(
            &[
                "grade",
                "--package",
                package.to_str().unwrap(),
                "--classroom50",
                "result.json",
            ],
            environment,
        );
        run.expect_code(2);
        assert!(run.transcript().contains(said), "{}", run.transcript());
    }
}

/// See: issue #30 (found by a review). CodeRunner: why part of an answer
/// was not graded is in `prologuehtml`, above the table, as docs/moodle.md
/// says (the docs said `epiloguehtml`); a problem that did not compile is
/// a row of the whole problem, not a `sample`. VPL says the compiler's
/// message once. Two files for one problem are counted as not graded, not
/// as `1 CE`.
#[test]
fn r30_moodle_says_what_was_not_graded_where_it_is_read() {
    let dir = Dir::new();
    dir.create(
        "judge.toml",
        "submissions = \"class\"\nlayout = \"student/problem\"\nrandom-tests = 0\njobs = 2\n\
         problems = [\"rooks\", \"mayan\"]\n",
    );
    dir.create("class/alice/rooks.py", "print 1\n");
    dir.create("class/alice/mayan.py", ZERO);
    dir.create("class/alice/mayan.cpp", "int main() {}\n");
    let run = dir.judge(&["grade", "--coderunner", "cr.json", "--vpl", "vpl.txt"]);
    run.expect_code(1);
    let transcript = run.transcript();
    assert!(
        transcript.contains("2 submissions: 1 CE, 1 with several files"),
        "{transcript}"
    );
    let outcome: Value = serde_json::from_str(&dir.read("cr.json")).unwrap();
    validate(&coderunner_schema(), &outcome);
    let prologue = outcome["prologuehtml"].as_str().unwrap();
    assert!(prologue.contains("<p>Not graded:</p>"), "{prologue}");
    assert!(prologue.contains("mayan: 2 files handed in"), "{prologue}");
    assert_eq!(outcome["epiloguehtml"], "", "{outcome:#}");
    let rows = outcome["testresults"].as_array().unwrap();
    let rooks = rows
        .iter()
        .find(|row| row[1] == "rooks")
        .unwrap_or_else(|| panic!("{outcome:#}"));
    assert_eq!(rooks[3], "the whole problem", "{outcome:#}");
    let vpl = dir.read("vpl.txt");
    assert_eq!(vpl.matches("SyntaxError").count(), 1, "{vpl}");
}
