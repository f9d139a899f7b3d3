//! The platforms' results files (issue #30): `judge grade --gradescope
//! results.json` and `--prairielearn results.json`, each checked against
//! what its platform documents, then for what the student sees: the
//! samples, the score, and nothing of a hidden test's data.

use crate::support::{repository, triangle_sums_package, Dir};
use serde_json::Value;

/// Gradescope's `results.json` as its "Autograder Specifications" page
/// (gradescope-autograders.readthedocs.io, "Output format") describes it,
/// written as a JSON Schema: the top level's keys are among `score`,
/// `execution_time`, `output`, `output_format`, `test_output_format`,
/// `test_name_format`, `visibility`, `stdout_visibility`, `extra_data`,
/// `tests` and `leaderboard`; `score` a number (required when a test has
/// none); a visibility one of `hidden`, `after_due_date`,
/// `after_published` and `visible`; an output format one of `text`,
/// `html`, `simple_format`, `md` and `ansi`; each test's keys among
/// `score`, `max_score`, `status`, `name`, `name_format`, `number`,
/// `output`, `output_format`, `tags`, `visibility` and `extra_data`, its
/// `status` `passed` or `failed`.
fn gradescope_schema() -> Value {
    let visibility = serde_json::json!({
        "enum": ["hidden", "after_due_date", "after_published", "visible"]
    });
    let format = serde_json::json!({ "enum": ["text", "html", "simple_format", "md", "ansi"] });
    serde_json::json!({
        "type": "object",
        "additionalProperties": false,
        "required": ["score"],
        "properties": {
            "score": { "type": "number" },
            "execution_time": { "type": "number" },
            "output": { "type": "string" },
            "output_format": format,
            "test_output_format": format,
            "test_name_format": format,
            "visibility": visibility,
            "stdout_visibility": visibility,
            "extra_data": { "type": "object" },
            "leaderboard": { "type": "array" },
            "tests": {
                "type": "array",
                "items": {
                    "type": "object",
                    "additionalProperties": false,
                    "properties": {
                        "score": { "type": "number" },
                        "max_score": { "type": "number" },
                        "status": { "enum": ["passed", "failed"] },
                        "name": { "type": "string" },
                        "name_format": format,
                        "number": { "type": "string" },
                        "output": { "type": "string" },
                        "output_format": format,
                        "tags": { "type": "array", "items": { "type": "string" } },
                        "visibility": visibility,
                        "extra_data": { "type": "object" }
                    }
                }
            }
        }
    })
}

/// PrairieLearn's external grading `results.json` as its "External
/// Grading" page (docs.prairielearn.com, "Grading results") describes it,
/// and as its grader reads it, written as a JSON Schema: `gradable` a
/// boolean, `score` a number from 0 to 1, `message` and `output` strings
/// shown to the student, `format_errors` a string or a list of strings,
/// `tests` a list of objects with `name`, `points` and `max_points` (and
/// optionally `description`, `message`, `output`). The whole file must be
/// under 1 MB, which a schema cannot say: [`check_prairielearn`] does.
fn prairielearn_schema() -> Value {
    serde_json::json!({
        "type": "object",
        "required": ["gradable", "score"],
        "properties": {
            "gradable": { "type": "boolean" },
            "score": { "type": "number", "minimum": 0, "maximum": 1 },
            "message": { "type": "string" },
            "output": { "type": "string" },
            "format_errors": {
                "anyOf": [
                    { "type": "string" },
                    { "type": "array", "items": { "type": "string" } }
                ]
            },
            "tests": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["name", "points", "max_points"],
                    "properties": {
                        "name": { "type": "string" },
                        "description": { "type": "string" },
                        "points": { "type": "number", "minimum": 0 },
                        "max_points": { "type": "number", "minimum": 0 },
                        "message": { "type": "string" },
                        "output": { "type": "string" }
                    }
                }
            }
        }
    })
}

/// Validates `instance` against `schema`, saying every error.
fn validate(schema: &Value, instance: &Value) {
    let validator = jsonschema::validator_for(schema).unwrap();
    let errors: Vec<String> = validator
        .iter_errors(instance)
        .map(|error| format!("{error} at {}", error.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}\n{instance:#}");
}

pub fn check_gradescope(results: &Value) {
    validate(&gradescope_schema(), results);
}

fn check_prairielearn(text: &str) -> Value {
    assert!(text.len() < 1_000_000, "{} bytes", text.len());
    let results: Value = serde_json::from_str(text).expect("JSON");
    validate(&prairielearn_schema(), &results);
    results
}

/// The schemas tell a bad file from a good one: they are not `true`.
#[test]
fn the_platforms_schemas_refuse_what_their_docs_refuse() {
    let gradescope = jsonschema::validator_for(&gradescope_schema()).unwrap();
    assert!(gradescope.is_valid(&serde_json::json!({ "score": 1, "tests": [] })));
    assert!(!gradescope.is_valid(&serde_json::json!({ "score": "1" })));
    assert!(!gradescope.is_valid(&serde_json::json!({
        "score": 1, "tests": [{ "status": "ok" }]
    })));
    assert!(!gradescope.is_valid(&serde_json::json!({ "score": 1, "visibility": "now" })));
    let learn = jsonschema::validator_for(&prairielearn_schema()).unwrap();
    assert!(learn.is_valid(&serde_json::json!({ "gradable": true, "score": 0.5 })));
    assert!(!learn.is_valid(&serde_json::json!({ "gradable": true, "score": 50 })));
    assert!(!learn.is_valid(&serde_json::json!({
        "gradable": false, "score": 0, "format_errors": [1]
    })));
}

/// A judge.toml for one student's hand-in, laid out `student/problem`.
fn one_student(dir: &Dir, problems: &str) {
    dir.create(
        "judge.toml",
        format!(
            "submissions = \"class\"\nlayout = \"student/problem\"\nrandom-tests = 0\njobs = 2\n\
             problems = [{problems}]\n"
        ),
    );
}

/// Prints `0` for each board: wrong on every test but none.
const ZERO: &str = r#"import sys
tokens = sys.stdin.read().split()
pos = 0
while pos < len(tokens) and tokens[pos] != "0":
    n = int(tokens[pos])
    pos += 1 + n
    print(0)
"#;

fn read_json(dir: &Dir, name: &str) -> Value {
    serde_json::from_str(&dir.read(name)).expect("JSON")
}

/// See: issue #30. Samples are visible now and show the checker's words;
/// a hidden test is never shown to the student (the teacher sees its
/// verdict and where it failed only: no expected value, no figure of its
/// input).
#[test]
fn gradescope_shows_the_samples_now_and_no_data_of_a_hidden_test() {
    let dir = Dir::new();
    one_student(&dir, "\"rooks\"");
    dir.create("class/alice/rooks.py", ZERO);
    let run = dir.judge(&[
        "grade",
        "--gradescope",
        "gradescope.json",
        "--prairielearn",
        "prairielearn.json",
    ]);
    run.expect_code(1);
    let results = read_json(&dir, "gradescope.json");
    check_gradescope(&results);
    assert_eq!(results["stdout_visibility"], "hidden");
    let tests = results["tests"].as_array().unwrap();
    let count = fs_err::read_dir(repository().join("problems/rooks/tests"))
        .unwrap()
        .count()
        / 2;
    assert_eq!(tests.len(), count, "a test per test: {results:#}");
    let mut samples = 0;
    for test in tests {
        let name = test["name"].as_str().unwrap().trim_start_matches("rooks: ");
        let output = test["output"].as_str().unwrap();
        if name.starts_with("sample") {
            samples += 1;
            assert_eq!(test["visibility"], "visible");
        } else {
            // `hidden` by default: Gradescope then still shows the
            // student's total score (issue #30, found by a review).
            assert_eq!(test["visibility"], "hidden", "{test:#}");
            // The judge's student view: `board 3: wrong answer`, never
            // `expected 5, got 0`.
            let said = output
                .strip_prefix(&format!("{name}: "))
                .unwrap_or_else(|| panic!("{output}"));
            assert!(student_view_words(said), "a hidden test says `{said}`");
        }
    }
    assert!(samples > 0);
    // Per test: each worth its share of 100, the score their sum.
    let sum: f64 = tests
        .iter()
        .map(|test| test["score"].as_f64().unwrap())
        .sum();
    let max: f64 = tests
        .iter()
        .map(|test| test["max_score"].as_f64().unwrap())
        .sum();
    assert!((max - 100.0).abs() < 0.1, "{max}");
    let score = results["score"].as_f64().unwrap();
    assert!((sum - score).abs() < 0.1, "{sum} {score}");
    let csv_score = {
        dir.judge(&["grade", "--csv", "grades.csv"]).expect_code(1);
        let csv = dir.read("grades.csv");
        let row: Vec<String> = csv
            .lines()
            .nth(1)
            .unwrap()
            .split(',')
            .map(str::to_owned)
            .collect();
        row[2].parse::<f64>().unwrap()
    };
    assert_eq!(score, csv_score, "the CSV's score");
    let learn = check_prairielearn(&dir.read("prairielearn.json"));
    assert_eq!(learn["gradable"], true);
    assert!((learn["score"].as_f64().unwrap() - score / 100.0).abs() < 1e-9);
    assert_eq!(learn["tests"].as_array().unwrap().len(), count);
    // PrairieLearn shows every test at once: a hidden one says no more.
    for test in learn["tests"].as_array().unwrap() {
        if !test["name"].as_str().unwrap().starts_with("rooks: sample") {
            assert!(
                !test["output"].as_str().unwrap().contains("expected"),
                "{test:#}"
            );
        }
    }
}

/// Kattis' `rooks` is not scored; a package with test groups is scored by
/// them: an item per group, with its points (issue #30, item 5).
#[test]
fn the_platforms_score_by_the_packages_test_groups() {
    let dir = Dir::new();
    triangle_sums_package(&dir, "problems/tri").build();
    one_student(&dir, "\"tri\"");
    // 32 bits: the small group, no test of the large one.
    dir.create(
        "class/bob/tri.py",
        "n = int(input())\nprint(n * (n + 1) // 2 % 2**32)\n",
    );
    dir.judge(&[
        "grade",
        "--problems-dir",
        "problems",
        "--gradescope",
        "gs.json",
        "--prairielearn",
        "pl.json",
    ])
    .expect_code(1);
    let results = read_json(&dir, "gs.json");
    check_gradescope(&results);
    assert_eq!(results["score"], 30.0);
    let items: Vec<(&str, f64, f64, &str)> = results["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|test| {
            (
                test["name"].as_str().unwrap(),
                test["score"].as_f64().unwrap(),
                test["max_score"].as_f64().unwrap(),
                test["status"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        items,
        [
            ("tri: small", 30.0, 30.0, "passed"),
            ("tri: large", 0.0, 70.0, "failed")
        ]
    );
    let learn = check_prairielearn(&dir.read("pl.json"));
    assert_eq!(learn["score"], 0.3);
    assert_eq!(learn["tests"][1]["points"], 0.0);
    assert_eq!(learn["tests"][1]["max_points"], 70.0);
}

/// See: issue #30 (found by a review). PrairieLearn's `/grade/student`,
/// copied into a student folder as docs/prairielearn.md's `run.sh` does:
/// a hand-in nested a folder deeper, or none at all, is `gradable: false`
/// (exit 1: the student's failing grade, not the grader's failure), and
/// `format_errors` says in the student's words which files were found
/// (named from the top of the hand-in), which name was expected and that
/// the files are a folder too deep; never a path of the grader's.
#[test]
fn r30_a_nested_or_missing_hand_in_is_said_in_the_students_words() {
    let cases: [(&[&str], &[&str]); 3] = [
        (
            &["student/sub/x.py"],
            &["`sub/x.py`", "`rooks.<ext>`", "`py`", "one folder too deep"],
        ),
        (
            &["student/myproject/rooks.py", "student/myproject/notes.txt"],
            &[
                "2 files: `myproject/notes.txt`, `myproject/rooks.py`",
                "one folder too deep (inside `myproject/`)",
                "hand in `rooks.py` itself",
            ],
        ),
        (&[], &["your hand-in is empty", "`rooks.<ext>`"]),
    ];
    for (files, said) in cases {
        let dir = Dir::new();
        one_student(&dir, "\"rooks\"");
        fs_err::create_dir_all(dir.path().join("class/student")).unwrap();
        for file in files {
            dir.create(&format!("class/{file}"), ZERO);
        }
        let run = dir.judge(&["grade", "--prairielearn", "pl.json"]);
        run.expect_code(1);
        let text = dir.read("pl.json");
        let learn = check_prairielearn(&text);
        assert_eq!(learn["gradable"], false, "{files:?}: {learn:#}");
        let errors = learn["format_errors"].to_string();
        for words in said {
            assert!(
                errors.contains(words),
                "{files:?}: `{words}` not in {errors}"
            );
        }
        let root = dir.path().to_string_lossy().into_owned();
        assert!(
            !text.contains(&root),
            "{files:?}: a grader's path in {text}"
        );
        assert!(!errors.contains("class"), "{files:?}: {errors}");
    }
}

/// See: issue #30 (found by a review). Two files for one problem: the
/// reason names them from the top of the hand-in (`rooks.cpp`), never by
/// the grader's folders (`/tmp/tmp.x/class/student/rooks.cpp`).
#[test]
fn r30_two_files_for_a_problem_are_named_from_the_hand_in() {
    let dir = Dir::new();
    one_student(&dir, "\"rooks\"");
    dir.create("class/student/rooks.py", ZERO);
    dir.create("class/student/rooks.cpp", "int main() { return 0; }\n");
    let run = dir.judge(&["grade", "--quiet", "--prairielearn", "pl.json"]);
    run.expect_code(1);
    let text = dir.read("pl.json");
    let learn = check_prairielearn(&text);
    let errors = learn["format_errors"].to_string();
    assert!(
        errors.contains("2 files handed in: `rooks.cpp`, `rooks.py`; hand in only one"),
        "{errors}"
    );
    let root = dir.path().to_string_lossy().into_owned();
    assert!(!text.contains(&root), "a grader's path in {text}");
    assert!(!text.contains("class/"), "{text}");
}

/// See: issue #30 (found by a review). Of two problems, one handed in at
/// the top and one a folder deeper: the nested file is named from the top
/// of the hand-in and said to be a folder too deep, never by a path of the
/// grader's (`class/student/sub/mayan.py`).
#[test]
fn r30_a_file_nested_beside_a_graded_one_is_named_from_the_hand_in() {
    let dir = Dir::new();
    one_student(&dir, "\"rooks\", \"mayan\"");
    dir.create("class/student/rooks.py", ZERO);
    dir.create("class/student/sub/mayan.py", ZERO);
    let run = dir.judge(&["grade", "--quiet", "--prairielearn", "pl.json"]);
    run.expect_code(1);
    let learn = check_prairielearn(&dir.read("pl.json"));
    let message = learn["message"].as_str().unwrap();
    assert!(
        message.contains(
            "`sub/mayan.py` was not graded: it is one folder too deep; hand in `mayan.py` at the \
             top of the hand-in"
        ),
        "{message}"
    );
    assert!(!message.contains("class/"), "{message}");
}

/// See: issue #30. A hand-in that cannot be graded is `gradable: false`
/// with the reason in `format_errors` (PrairieLearn then counts no
/// attempt), and on Gradescope a 0 whose output says why: two files for
/// one problem, a misnamed file, no file.
#[test]
fn a_hand_in_that_cannot_be_graded_says_why() {
    let cases: [(&str, &[&str], &str); 3] = [
        (
            "\"rooks\"",
            &["alice/rooks.py", "alice/rooks.cpp"],
            "2 files handed in",
        ),
        ("\"rooks\"", &["alice/rook.py"], "did you mean `rooks`?"),
        ("\"rooks\"", &["alice/.keep"], "your hand-in is empty"),
    ];
    for (problems, files, reason) in cases {
        let dir = Dir::new();
        one_student(&dir, problems);
        for file in files {
            dir.create(&format!("class/{file}"), ZERO);
        }
        let run = dir.judge(&[
            "grade",
            "--gradescope",
            "gs.json",
            "--prairielearn",
            "pl.json",
        ]);
        assert_ne!(run.code(), 0, "{}", run.transcript());
        let learn = check_prairielearn(&dir.read("pl.json"));
        assert_eq!(learn["gradable"], false, "{files:?}: {learn:#}");
        assert_eq!(learn["score"], 0.0);
        let errors = learn["format_errors"].to_string();
        assert!(
            errors.contains(reason),
            "{files:?}: `{reason}` not in {errors}"
        );
        let results = read_json(&dir, "gs.json");
        check_gradescope(&results);
        assert_eq!(results["score"], 0.0, "{results:#}");
        let output = results["output"].as_str().unwrap();
        assert!(
            output.starts_with("This hand-in cannot be graded"),
            "{output}"
        );
        assert!(output.contains(reason), "{output}");
    }
}

/// See: issue #30 (found by a review). A problem of two that was not
/// handed in costs that problem's points, not the whole assignment's: the
/// graded one keeps its score, and the missing one is named first.
#[test]
fn a_missing_problem_costs_only_its_own_points() {
    let dir = Dir::new();
    one_student(&dir, "\"rooks\", \"mayan\"");
    let accepted = fs_err::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("submissions/rooks/accepted/matching.py"),
    )
    .expect("the bundled rooks solution");
    dir.create("class/alice/rooks.py", &accepted);
    dir.judge(&[
        "grade",
        "--gradescope",
        "gs.json",
        "--prairielearn",
        "pl.json",
    ]);
    let learn = check_prairielearn(&dir.read("pl.json"));
    assert_eq!(learn["gradable"], true, "{learn:#}");
    assert_eq!(learn["score"], 0.5, "{learn:#}");
    assert!(
        learn["message"]
            .as_str()
            .unwrap()
            .contains("no file for problem `mayan`"),
        "{learn:#}"
    );
    let results = read_json(&dir, "gs.json");
    check_gradescope(&results);
    assert_eq!(results["score"], 100.0, "{results:#}");
    let output = results["output"].as_str().unwrap();
    assert!(
        output.starts_with("Part of this hand-in could not be graded"),
        "{output}"
    );
    assert!(output.contains("no file for problem `mayan`"), "{output}");
    let max: f64 = results["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|test| test["max_score"].as_f64().unwrap())
        .sum();
    assert!((max - 200.0).abs() < 1e-9, "the items add up to 200: {max}");
}

/// See: issue #30. A platform's results file is one student's: asked of a
/// class of several it is refused as a usage error naming the flag and
/// the students, before anything compiles or runs (discovery already knows
/// who handed in): no table, no result journal, no report of any kind.
#[test]
fn a_platform_file_of_a_whole_class_is_refused_before_anything_runs() {
    for flag in [
        "--gradescope",
        "--prairielearn",
        "--vpl",
        "--coderunner",
        "--classroom50",
    ] {
        let dir = Dir::new();
        one_student(&dir, "\"rooks\"");
        dir.create("class/alice/rooks.py", ZERO);
        dir.create("class/bob/rooks.py", ZERO);
        // What Classroom 50's runner sets; the other platforms ignore it.
        let runner = [
            ("CLASSROOM", "cs-principles"),
            ("ASSIGNMENT", "rooks"),
            ("USERNAME", "alice"),
            ("SUBMISSION_TAG", "submit/2026-06-01T14-32-05Z-a1b2c3d"),
            ("COMMIT_URL", "https://example.org/commit/a1b2c3d"),
            ("RELEASE_URL", "https://example.org/releases/tag/submit"),
        ];
        let run = dir.judge_env(
            &[
                "grade",
                flag,
                "platform.out",
                "--csv",
                "grades.csv",
                "--json",
                "report.json",
            ],
            &runner,
        );
        run.expect_code(2);
        let stderr = run.stderr();
        for words in [
            &format!("{flag}: "),
            "one student's, and this grade holds 2 students (alice, bob)",
        ] {
            assert!(stderr.contains(words), "{flag}: `{words}` not in {stderr}");
        }
        // Nothing ran: no table or summary, no finished pair in a journal,
        // no report.
        assert_eq!(run.stdout(), "", "{flag}: {}", run.transcript());
        assert!(!stderr.contains("WA"), "{flag}: {stderr}");
        for file in [
            "platform.out",
            "grades.csv",
            "report.json",
            "report.json.journal",
        ] {
            assert!(
                !dir.path().join(file).exists(),
                "{flag}: `{file}` was written"
            );
        }
    }
}

/// See: issue #30. `judge run` of two students' programs with a
/// platform's file is refused the same way, before anything runs.
#[test]
fn a_platform_file_of_two_students_runs_is_refused_before_anything_runs() {
    let dir = Dir::new();
    dir.create("alice/rooks.py", ZERO);
    dir.create("bob/rooks.py", ZERO);
    let run = dir.judge(&[
        "run",
        "rooks",
        "alice/rooks.py",
        "bob/rooks.py",
        "--gradescope",
        "results.json",
        "--json",
        "report.json",
    ]);
    run.expect_code(2);
    assert!(
        run.stderr()
            .contains("--gradescope: a Gradescope results file is one student's"),
        "{}",
        run.transcript()
    );
    assert_eq!(run.stdout(), "", "{}", run.transcript());
    assert!(!dir.path().join("results.json").exists());
    assert!(!dir.path().join("report.json").exists());
}

/// `AC (accepted)`, `WA (wrong answer)` or `WA (board 3: wrong answer)`:
/// all the judge's student view says of a hidden test here.
fn student_view_words(said: &str) -> bool {
    let Some(inner) = said
        .strip_prefix("WA (")
        .and_then(|rest| rest.strip_suffix("wrong answer)"))
    else {
        return said == "AC (accepted)";
    };
    let locator: Vec<&str> = inner.split_whitespace().collect();
    match locator.as_slice() {
        [] => true,
        [word, number] => {
            word.chars().all(char::is_alphabetic)
                && number
                    .strip_suffix(':')
                    .is_some_and(|number| number.chars().all(|c| c.is_ascii_digit()))
        }
        _ => false,
    }
}

/// See: issue #30 (found by a review). Thousands of misnamed files in a
/// hand-in made a PrairieLearn file of 5.5 MB with a reason per file (over
/// its 1 MB cap), and CodeRunner's and VPL's as large: every platform file
/// names the first files, counts the rest, and stays under its cap, alone
/// or beside two files for the problem.
#[test]
fn r30_thousands_of_misnamed_files_stay_under_every_cap() {
    const FILES: usize = 3000;
    for two_files in [false, true] {
        let dir = Dir::new();
        one_student(&dir, "\"rooks\"");
        for index in 0..FILES {
            dir.create(&format!("class/alice/misnamed-{index:05}.py"), "x");
        }
        if two_files {
            // Two files for the problem: the files not taken are then
            // said beside that reason.
            dir.create("class/alice/rooks.py", ZERO);
            dir.create("class/alice/rooks.cpp", "int main() {}\n");
        }
        let run = dir.judge(&[
            "grade",
            "--gradescope",
            "gs.json",
            "--prairielearn",
            "pl.json",
            "--coderunner",
            "cr.json",
            "--vpl",
            "vpl.txt",
        ]);
        assert_eq!(run.code(), 1, "{}", run.transcript());
        let more = format!("and {} more files were not graded", FILES - 10);
        for (file, cap) in [
            ("gs.json", 64 * 1024),
            ("pl.json", 1_000_000),
            ("cr.json", 256 * 1024),
            ("vpl.txt", 256 * 1024),
        ] {
            let text = dir.read(file);
            assert!(text.len() < cap, "{file}: {} bytes", text.len());
            assert!(text.contains(&more), "{file}: `{more}` not in {text}");
            assert!(text.contains("misnamed-00000.py"), "{file}");
            assert!(!text.contains("misnamed-00025.py"), "{file}");
        }
        let learn = check_prairielearn(&dir.read("pl.json"));
        assert_eq!(learn["gradable"], false, "{learn:#}");
        let errors = learn["format_errors"].as_array().unwrap();
        assert!(errors.len() <= 13, "{}", errors.len());
        for error in errors {
            assert!(error.as_str().unwrap().len() <= 4096 + 40, "{error}");
        }
        check_gradescope(&read_json(&dir, "gs.json"));
    }
}

/// See: issue #30 (found by a review). Gradescope hides a student's total
/// score while a test is `after_due_date` or `after_published`, and every
/// hidden test was `after_due_date` with no way to change it: judge.toml's
/// `[report.gradescope] hidden-tests` says which; an unknown value is an
/// error naming the file, the line and the key.
#[test]
fn r30_judge_toml_says_when_gradescope_shows_hidden_tests() {
    for (setting, expected) in [
        ("", "hidden"),
        ("hidden-tests = \"hidden\"\n", "hidden"),
        ("hidden-tests = \"after_due_date\"\n", "after_due_date"),
        ("hidden-tests = \"after_published\"\n", "after_published"),
    ] {
        let dir = Dir::new();
        dir.create(
            "judge.toml",
            format!(
                "submissions = \"class\"\nlayout = \"student/problem\"\nrandom-tests = 0\n\
                 problems = [\"rooks\"]\n[report.gradescope]\n{setting}"
            ),
        );
        dir.create("class/alice/rooks.py", ZERO);
        dir.judge(&["grade", "--gradescope", "gs.json"])
            .expect_code(1);
        let results = read_json(&dir, "gs.json");
        check_gradescope(&results);
        let hidden: Vec<&Value> = results["tests"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|test| !test["name"].as_str().unwrap().starts_with("rooks: sample"))
            .collect();
        assert!(!hidden.is_empty());
        for test in hidden {
            assert_eq!(test["visibility"], expected, "{setting}: {test:#}");
        }
        // `judge run`, the preview, reads the same setting.
        dir.judge(&[
            "run",
            "rooks",
            "class/alice/rooks.py",
            "--gradescope",
            "run.json",
        ])
        .expect_code(1);
        let run = read_json(&dir, "run.json");
        assert!(
            run["tests"]
                .as_array()
                .unwrap()
                .iter()
                .any(|test| test["visibility"] == expected),
            "{setting}: {run:#}"
        );
    }
    let dir = Dir::new();
    dir.create(
        "judge.toml",
        "problems = [\"rooks\"]\n[report.gradescope]\nhidden-tests = \"later\"\n",
    );
    dir.create("submissions/rooks/alice.py", ZERO);
    let run = dir.judge(&["grade", "--gradescope", "gs.json"]);
    run.expect_code(2);
    let stderr = run.stderr();
    assert!(stderr.contains("judge.toml"), "{stderr}");
    assert!(stderr.contains("line 3"), "{stderr}");
    assert!(stderr.contains("hidden-tests"), "{stderr}");
    assert!(stderr.contains("after_due_date"), "{stderr}");
}

/// See: issue #30 (found by a review). A program that does not compile is
/// PrairieLearn's own example of `gradable: false`: no attempt is used
/// up, and `format_errors` holds the compiler's message, cut to a page.
#[test]
fn r30_a_compile_error_is_not_gradable_on_prairielearn() {
    let dir = Dir::new();
    one_student(&dir, "\"rooks\"");
    dir.create(
        "class/alice/rooks.py",
        format!("# {}\nprint 1\n", "x".repeat(10_000)),
    );
    let run = dir.judge(&[
        "grade",
        "--prairielearn",
        "pl.json",
        "--gradescope",
        "gs.json",
    ]);
    run.expect_code(1);
    let learn = check_prairielearn(&dir.read("pl.json"));
    assert_eq!(learn["gradable"], false, "{learn:#}");
    assert_eq!(learn["score"], 0.0);
    let errors = learn["format_errors"].as_array().unwrap();
    assert_eq!(errors.len(), 1, "{learn:#}");
    let error = errors[0].as_str().unwrap();
    assert!(
        error.starts_with("rooks: your program did not compile: "),
        "{error}"
    );
    assert!(error.contains("SyntaxError"), "{error}");
    assert!(error.len() <= 4096 + 40, "{}", error.len());
    // Gradescope has no such state: a 0 that says CE.
    let results = read_json(&dir, "gs.json");
    assert!(results["output"].as_str().unwrap().contains("(CE)"));
}
