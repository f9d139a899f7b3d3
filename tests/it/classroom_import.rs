//! `judge import --autograding` (issue #30): a GitHub Classroom
//! `autograding.json` in the shape `education/autograding` read becomes a
//! package that `judge run` grades as GitHub Classroom did.

use crate::support::{report, Dir};

/// GitHub Classroom's shape: the keys its GUI wrote for every test; a
/// test without `comparison`, `timeout` and `points` (as in
/// `education/autograding`'s Java example); an exit-status test of the
/// program; a `pytest` test and a test of another program, which the
/// package cannot hold.
const AUTOGRADING: &str = r#"{
  "tests": [
    {
      "name": "Greets Jeff",
      "setup": "",
      "run": "python3 hello.py",
      "input": "Jeff",
      "output": "Hello Jeff\nBye",
      "comparison": "exact",
      "timeout": 1,
      "points": 3
    },
    {
      "name": "Greets Ann",
      "setup": "pip install nothing",
      "run": "python3 hello.py",
      "input": "Ann\n",
      "output": "Ann"
    },
    {
      "name": "Greeting shape",
      "setup": "",
      "run": "python3  'hello.py'",
      "input": "Zed",
      "output": "^Hello [A-Z][a-z]+\nBye$",
      "comparison": "regex",
      "timeout": 2,
      "points": 1
    },
    {
      "name": "Runs",
      "setup": "",
      "run": "python3 hello.py",
      "input": "",
      "output": "",
      "comparison": "exact",
      "timeout": 1,
      "points": 1
    },
    {
      "name": "Unit tests",
      "setup": "pip install pytest",
      "run": "pytest -q",
      "input": "",
      "output": "",
      "comparison": "included",
      "timeout": 10,
      "points": 4
    },
    {
      "name": "Other part",
      "setup": "",
      "run": "python3 part2.py",
      "input": "1",
      "output": "2",
      "comparison": "exact",
      "timeout": 1,
      "points": 2
    }
  ]
}
"#;

/// Correct, with CRLF line ends and whitespace around the output that
/// GitHub's trimming ignores; reads no input when there is none.
const CORRECT: &str = "import sys\nname = sys.stdin.read().strip() or 'nobody'\n\
                       sys.stdout.write('\\n  Hello ' + name + '\\r\\nBye  \\n\\n')\n";

/// Wrong: lowercase greeting (fails exact and the pattern, passes
/// included) and crashes without input (fails the exit-status test).
const WRONG: &str = "import sys\nname = sys.stdin.read().strip()\nassert name\n\
                     print('hello ' + name)\nprint('Bye')\n";

fn imported() -> Dir {
    let dir = Dir::new();
    dir.create(".github/classroom/autograding.json", AUTOGRADING);
    dir.create("hello.py", CORRECT);
    dir.create("wrong.py", WRONG);
    let run = dir.judge(&[
        "import",
        "--autograding",
        ".github/classroom/autograding.json",
        "problems/hello",
    ]);
    run.expect_code(0);
    let stderr = run.stderr();
    // Each test left out is named with its line and the reason.
    assert!(
        stderr.contains(
            "skipped: `.github/classroom/autograding.json`: line 40: test 5 `Unit tests` (4 \
             points): `run` `pytest` runs the repository's own tests"
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains(
            "skipped: `.github/classroom/autograding.json`: line 50: test 6 `Other part` (2 \
             points): runs `python3 part2.py`, not the package's program `python3 hello.py`"
        ),
        "{stderr}"
    );
    // GitHub's minutes of wall clock per whole test are capped as a
    // per-test CPU limit, naming the tests (issue #30, found by a review).
    assert!(
        stderr.contains(
            "note: capped the time limit at 10 s of CPU per test for tests 1 `Greets Jeff` (1 \
             minute), 2 `Greets Ann` (1 minute), 3 `Greeting shape` (2 minutes), 4 `Runs` (1 \
             minute): GitHub's `timeout` was wall clock"
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains("raise `time-limit-ms` in `problems/hello/problem.toml`"),
        "{stderr}"
    );
    assert!(
        stderr.contains("not run: `setup` `pip install nothing` (tests 2)"),
        "{stderr}"
    );
    assert!(
        stderr.contains(
            "wrote the package `hello` in `problems/hello`: 4 of 6 tests worth 5 of the file's \
             11 points (1 of them check only that the program exits 0)"
        ),
        "{stderr}"
    );
    dir
}

#[test]
fn imported_tests_grade_as_github_classroom_did() {
    let dir = imported();
    assert_eq!(dir.read("problems/hello/tests/01-greets-jeff.in"), "Jeff");
    assert_eq!(
        dir.read("problems/hello/tests/01-greets-jeff.ans"),
        "Hello Jeff\nBye"
    );
    let toml = dir.read("problems/hello/problem.toml");
    // The largest timeout (2 minutes) capped at 10 s (issue #30: 120000
    // made a looping hand-in use up Gradescope's budget).
    assert!(toml.contains("time-limit-ms = 10000"), "{toml}");

    let run = dir.judge(&[
        "run",
        "hello",
        "hello.py",
        "--problems-dir",
        "problems",
        "--json",
        "correct.json",
    ]);
    run.expect_code(0);
    // No `--tests` was given: the package has no generator (issue #30,
    // found by a review: the line said `--tests runs exactly its folder`).
    assert!(
        run.stdout().contains(
            "tests: 4 from package hello only (no random tests: the package has no generator of random tests)"
        ),
        "{}",
        run.transcript()
    );
    let result = &report(&dir.read("correct.json"))["results"][0];
    assert_eq!(result["verdict"], "AC", "{result}");
    assert_eq!(result["score"], 5.0, "{result}");
    assert_eq!(result["max_score"], 5.0, "{result}");

    let run = dir.judge(&[
        "run",
        "hello",
        "wrong.py",
        "--problems-dir",
        "problems",
        "--json",
        "wrong.json",
    ]);
    run.expect_code(1);
    let result = &report(&dir.read("wrong.json"))["results"][0];
    let verdicts: Vec<(String, String)> = result["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|test| {
            (
                test["name"].as_str().unwrap().to_owned(),
                test["verdict"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let expected = [
        ("01-greets-jeff", "WA"),
        ("02-greets-ann", "AC"),
        ("03-greeting-shape", "WA"),
        ("04-runs", "RE"),
    ];
    assert_eq!(
        verdicts,
        expected.map(|(name, verdict)| (name.to_owned(), verdict.to_owned())),
        "{result}"
    );
    // Only "Greets Ann" passes; it has no points, as in GitHub Classroom.
    assert_eq!(result["score"], 0.0, "{result}");
    assert_eq!(result["max_score"], 5.0, "{result}");
    let message = result["tests"][0]["message"].as_str().unwrap();
    assert_eq!(message, "line 1: expected 'Hello Jeff', got 'hello Jeff'");
}

/// A course whose tests all compare one way can add tests by hand: the
/// checker compares a test it does not know the same way.
#[test]
fn a_test_added_by_hand_is_compared_like_the_others() {
    let dir = Dir::new();
    dir.create(
        "autograding.json",
        r#"{"tests": [{"name": "one", "setup": "", "run": "./hello", "input": "1",
            "output": "2", "comparison": "included", "timeout": 1}]}"#,
    );
    dir.judge(&["import", "--autograding", "autograding.json", "out/inc"])
        .expect_code(0);
    dir.create("out/inc/tests/02-added.in", "5");
    dir.create("out/inc/tests/02-added.ans", "6");
    dir.create("inc.py", "print('the answer is', int(input()) + 1)\n");
    let run = dir.judge(&["run", "inc", "inc.py", "--problems-dir", "out"]);
    run.expect_code(0);
}

#[test]
fn bad_files_are_refused_naming_file_line_and_key() {
    let dir = Dir::new();
    let cases = [
        ("{\"tests\": [\n", "failed to load `a.json`: line 2, column 0: EOF"),
        (
            "{\"tests\": [\n  {\"name\": \"a\",\n   \"run\": \"./a\",\n   \"comparison\": \"fuzzy\"}\n]}",
            "failed to load `a.json`: line 4: `tests[0].comparison`: `fuzzy` is not `exact`, \
             `included` or `regex`",
        ),
        (
            "{\"tests\": [\n  {\"name\": \"a\"}\n]}",
            "failed to load `a.json`: line 2: `tests[0].run`: missing",
        ),
        (
            "{\"tests\": [{\"name\": \"a\", \"run\": \"./a\", \"ouput\": \"x\"}]}",
            "failed to load `a.json`: line 1: `tests[0].ouput`: unknown key",
        ),
    ];
    for (text, expected) in cases {
        dir.create("a.json", text);
        let run = dir.judge(&["import", "--autograding", "a.json", "out/p"]);
        run.expect_code(2);
        assert!(run.stderr().contains(expected), "{}", run.transcript());
        assert!(!dir.path().join("out/p").exists(), "{}", run.transcript());
    }
}

#[test]
fn a_file_without_io_tests_writes_nothing() {
    let dir = Dir::new();
    dir.create(
        "a.json",
        r#"{"tests": [{"name": "unit", "setup": "", "run": "make test", "input": "",
            "output": "", "comparison": "included", "timeout": 5, "points": 1}]}"#,
    );
    let run = dir.judge(&["import", "--autograding", "a.json", "out/p"]);
    run.expect_code(2);
    assert!(
        run.stderr().contains(
            "`a.json` holds no test the judge can run as an io test of one program: nothing \
             imported\n  skipped: `a.json`: line 1: test 1 `unit` (1 point): `run` `make` runs"
        ),
        "{}",
        run.transcript()
    );
    assert!(!dir.path().join("out").exists());
}

#[test]
fn an_existing_package_is_never_overwritten() {
    let dir = Dir::new();
    dir.create("a.json", AUTOGRADING);
    dir.create("problems/hello/problem.toml", "mine");
    let run = dir.judge(&["import", "--autograding", "a.json", "problems/hello"]);
    run.expect_code(2);
    assert!(
        run.stderr()
            .contains("`problems/hello` exists and is not an empty folder"),
        "{}",
        run.transcript()
    );
    assert_eq!(dir.read("problems/hello/problem.toml"), "mine");
    // An empty folder is taken.
    fs_err::create_dir_all(dir.path().join("problems/empty")).unwrap();
    dir.judge(&["import", "--autograding", "a.json", "problems/empty"])
        .expect_code(0);
    assert!(dir.path().join("problems/empty/problem.toml").is_file());
    let leftovers: Vec<_> = fs_err::read_dir(dir.path().join("problems"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name())
        .collect();
    assert_eq!(leftovers.len(), 2, "{leftovers:?}");
}

/// With mixed comparisons the checker cannot guess how a test added by
/// hand compares: the judge's error, saying what to do, never a verdict on
/// the hand-in. A JavaScript named group reads as GitHub read it.
#[test]
fn a_test_added_by_hand_to_mixed_comparisons_is_a_judge_error() {
    let dir = Dir::new();
    dir.create(
        "autograding.json",
        r#"{"tests": [
            {"name": "exact", "setup": "", "run": "./echo", "input": "abc 12",
             "output": "abc 12", "comparison": "exact", "timeout": 1, "points": 0},
            {"name": "named group", "setup": "", "run": "./echo", "input": "xyz 7",
             "output": "^(?<word>[a-z]+) \\d+$", "comparison": "regex", "timeout": 1,
             "points": 0}]}"#,
    );
    dir.judge(&["import", "--autograding", "autograding.json", "out/echo"])
        .expect_code(0);
    dir.create("echo.py", "print(input())\n");
    dir.judge(&["run", "echo", "echo.py", "--problems-dir", "out"])
        .expect_code(0);
    dir.create("out/echo/tests/03-added.in", "5");
    dir.create("out/echo/tests/03-added.ans", "5");
    let run = dir.judge(&["run", "echo", "echo.py", "--problems-dir", "out"]);
    run.expect_code(3);
    assert!(
        run.stdout().contains("03-added") && run.stdout().contains("JE"),
        "{}",
        run.transcript()
    );
    assert!(
        run.transcript()
            .contains("add the test's key and comparison to COMPARISONS in checker.py"),
        "{}",
        run.transcript()
    );
}

/// `judge grade` of a class grades the imported package the same way:
/// each student's score is the points of the tests passed.
#[test]
fn a_class_is_graded_with_the_imported_package() {
    let dir = imported();
    dir.create(
        "judge.toml",
        "submissions = \"hand-ins\"\nlayout = \"student/problem\"\nproblems = [\"hello\"]\n\
         random-tests = 0\n",
    );
    dir.create("hand-ins/alice/hello.py", CORRECT);
    dir.create("hand-ins/bob/hello.py", WRONG);
    let run = dir.judge(&[
        "grade",
        "--problems-dir",
        "problems",
        "--json",
        "class.json",
    ]);
    run.expect_code(1);
    let report = report(&dir.read("class.json"));
    let mut scores: Vec<(String, String, f64)> = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|result| {
            (
                result["submission"].as_str().unwrap().to_owned(),
                result["verdict"].as_str().unwrap().to_owned(),
                result["score"].as_f64().unwrap(),
            )
        })
        .collect();
    scores.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(
        scores,
        [
            ("hand-ins/alice/hello.py".to_owned(), "AC".to_owned(), 5.0),
            ("hand-ins/bob/hello.py".to_owned(), "WA".to_owned(), 0.0),
        ],
        "{report}"
    );
}

/// See: issue #30 (found by a review). JavaScript's named back-references
/// (`\k<w>`) and `[^]` read as GitHub read them (they were a judge error
/// for every student); a pattern the checker cannot run (a lookbehind of
/// varying width, which JavaScript allows) is refused at import, naming
/// the file, the line, the test and why, and nothing is written.
#[test]
fn r30_regex_patterns_are_checked_at_import() {
    let dir = Dir::new();
    dir.create(
        "autograding.json",
        r#"{"tests": [
            {"name": "twice", "setup": "", "run": "./echo", "input": "ab ab",
             "output": "^(?<w>[a-z]+) \\k<w>$", "comparison": "regex", "timeout": 1},
            {"name": "any", "setup": "", "run": "./echo", "input": "a\nb",
             "output": "^a[^]b$", "comparison": "regex", "timeout": 1}]}"#,
    );
    dir.judge(&["import", "--autograding", "autograding.json", "out/echo"])
        .expect_code(0);
    dir.create(
        "echo.py",
        "import sys\nsys.stdout.write(sys.stdin.read())\n",
    );
    let run = dir.judge(&["run", "echo", "echo.py", "--problems-dir", "out"]);
    run.expect_code(0);
    dir.create("wrong.py", "import sys\nprint('ab cd')\n");
    let run = dir.judge(&["run", "echo", "wrong.py", "--problems-dir", "out"]);
    run.expect_code(1);
    assert!(!run.stdout().contains("JE"), "{}", run.transcript());

    dir.create(
        "bad.json",
        "{\"tests\": [\n  {\"name\": \"ok\", \"run\": \"./a\", \"input\": \"x\", \"output\": \"x\", \
         \"comparison\": \"regex\"},\n  {\"name\": \"behind\", \"run\": \"./a\", \"input\": \"x\",\n   \
         \"output\": \"(?<=a+)b\", \"comparison\": \"regex\"}\n]}",
    );
    let run = dir.judge(&["import", "--autograding", "bad.json", "out/bad"]);
    run.expect_code(2);
    let stderr = run.stderr();
    assert!(
        stderr.contains("failed to load `bad.json`: line 3: `tests[1].output`: test 2 `behind`: the pattern \"(?<=a+)b\" cannot run in the judge's checker"),
        "{stderr}"
    );
    assert!(stderr.contains("look-behind"), "{stderr}");
    assert!(!dir.path().join("out/bad").exists());
}

/// See: issue #30 (found by a review). A test's name keeps its letters
/// (`émoji` was `moji`); `[42]` names its line (and a test after it keeps
/// its own); a path of folders that do not exist is refused, not made; the
/// command given for a package named `-weird` puts it after `--`, and
/// works.
#[test]
fn r30_import_names_lines_folders_and_hints() {
    let dir = Dir::new();
    dir.create(
        "a.json",
        "{\"tests\": [{\"name\": \"\u{e9}moji \u{2713} / slash\", \"run\": \"python3 a.py\", \
         \"input\": \"1\", \"output\": \"1\", \"comparison\": \"exact\"}]}",
    );
    let run = dir.judge(&["import", "--autograding", "a.json", "out/-weird"]);
    run.expect_code(0);
    assert!(
        dir.path()
            .join("out/-weird/tests/01-emoji-slash.in")
            .is_file(),
        "{}",
        run.transcript()
    );
    assert!(
        run.stderr()
            .contains("try:\n  judge run --problems-dir out -- -weird HAND-IN"),
        "{}",
        run.transcript()
    );
    dir.create("a.py", "print(input())\n");
    dir.judge(&["run", "--problems-dir", "out", "--", "-weird", "a.py"])
        .expect_code(0);

    dir.create(
        "b.json",
        "{\"tests\": [\n  42,\n  {\"name\": \"a\", \"run\": \"./a\", \"ouput\": \"x\"}\n]}",
    );
    let run = dir.judge(&["import", "--autograding", "b.json", "out/b"]);
    run.expect_code(2);
    assert!(
        run.stderr().contains(
            "failed to load `b.json`: line 2: `tests[0]`: expected a test object, found a number"
        ),
        "{}",
        run.transcript()
    );
    dir.create(
        "c.json",
        "{\"tests\": [\n  {\"name\": \"a\", \"run\": \"./a\"},\n  \"x\",\n  {\"name\": \"b\",\n   \
         \"run\": \"./a\", \"ouput\": \"x\"}\n]}",
    );
    let run = dir.judge(&["import", "--autograding", "c.json", "out/c"]);
    run.expect_code(2);
    assert!(
        run.stderr()
            .contains("line 3: `tests[1]`: expected a test object, found text"),
        "{}",
        run.transcript()
    );

    let deep = dir.path().join("missing/deeper/x");
    let run = dir.judge(&["import", "--autograding", "a.json", deep.to_str().unwrap()]);
    run.expect_code(2);
    assert!(
        run.stderr().contains("is no folder to import into"),
        "{}",
        run.transcript()
    );
    assert!(!dir.path().join("missing").exists());
}

/// See: issue #30 (found by a review). A pattern that Python's `re` reads
/// but that means something else to JavaScript is read as JavaScript
/// (`new RegExp`, as GitHub ran it) reads it: `[]` matches nothing, a `]`
/// outside a class and a `{` that starts no quantifier are characters,
/// an escaped letter without a meaning is the letter. What JavaScript
/// refuses (`(?P<x>`, `(?#...)`, inline flags) is refused at import.
#[test]
fn r30_regex_patterns_mean_what_they_meant_to_javascript() {
    let dir = Dir::new();
    dir.create(
        "autograding.json",
        r#"{"tests": [
            {"name": "braces", "setup": "", "run": "./echo", "input": "a{,2}",
             "output": "^a{,2}$", "comparison": "regex", "timeout": 1},
            {"name": "letters", "setup": "", "run": "./echo", "input": "AZN",
             "output": "^\\A\\Z\\N$", "comparison": "regex", "timeout": 1},
            {"name": "bracket", "setup": "", "run": "./echo", "input": "x]",
             "output": "^x]$", "comparison": "regex", "timeout": 1}]}"#,
    );
    dir.judge(&["import", "--autograding", "autograding.json", "out/echo"])
        .expect_code(0);
    dir.create(
        "echo.py",
        "import sys\nsys.stdout.write(sys.stdin.read())\n",
    );
    let run = dir.judge(&["run", "echo", "echo.py", "--problems-dir", "out"]);
    run.expect_code(0);
    // `a{,2}` is not "zero to two a's" in JavaScript.
    dir.create("two.py", "print('aa')\n");
    let run = dir.judge(&["run", "echo", "two.py", "--problems-dir", "out"]);
    run.expect_code(1);
    assert!(!run.stdout().contains("JE"), "{}", run.transcript());

    for (pattern, shown) in [
        (r"(?P<x>a)", "`(?P` is not JavaScript"),
        (r"(?#note)a", "`(?#` is not JavaScript"),
        (r"(?i)a", "`(?i` is not JavaScript"),
    ] {
        let json = format!(
            "{{\"tests\": [\n  {{\"name\": \"p\", \"run\": \"./a\", \"input\": \"x\",\n   \
             \"output\": {}, \"comparison\": \"regex\"}}\n]}}",
            serde_json::Value::from(pattern)
        );
        dir.create("bad.json", json);
        let run = dir.judge(&["import", "--autograding", "bad.json", "out/bad"]);
        run.expect_code(2);
        let stderr = run.stderr();
        assert!(
            stderr.contains("failed to load `bad.json`: line 2: `tests[0].output`: test 1 `p`"),
            "{stderr}"
        );
        assert!(stderr.contains(shown), "{pattern}: {stderr}");
        assert!(!dir.path().join("out/bad").exists());
    }
}
