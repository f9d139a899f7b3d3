//! What a teacher and a student see (issue #17): nothing handed in
//! vanishes, crashes and compile errors explain themselves with the
//! hand-in's own path, every (student, problem) has a gradebook row.

use crate::support::{repository, Dir, PackageBuilder};
use serde_json::Value;

fn bundled(path: &str) -> String {
    fs_err::read_to_string(repository().join("submissions").join(path)).unwrap()
}

/// A class of `student/problem` hand-ins with `extra` in judge.toml.
fn class(extra: &str) -> Dir {
    let dir = Dir::new();
    dir.create(
        "judge.toml",
        format!("submissions = \"hand-ins\"\nlayout = \"student/problem\"\nrandom-tests = 1\njobs = 2\n{extra}"),
    );
    dir
}

/// A [`class`] where alice handed in `rooks.py` and eve `rook.py` (a
/// name one edit from `rooks`), both the accepted matching solution.
fn class_with_rook_typo(extra: &str) -> Dir {
    let dir = class(extra);
    for hand_in in ["hand-ins/alice/rooks.py", "hand-ins/eve/rook.py"] {
        dir.create(hand_in, bundled("rooks/accepted/matching.py"));
    }
    dir
}

fn ignored(report: &Value) -> Vec<(String, String)> {
    report["ignored"]
        .as_array()
        .unwrap()
        .iter()
        .map(|ignored| {
            (
                ignored["path"].as_str().unwrap().to_owned(),
                ignored["reason"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

/// Every file under the submissions folder is a graded row or ignored with
/// the reason; a name one edit from a problem gets a "did you mean".
#[test]
fn r17_every_hand_in_is_graded_or_ignored_with_the_reason() {
    let dir = class_with_rook_typo("problems = [\"rooks\", \"matchsticks\"]\n");
    dir.create("hand-ins/carol/README.txt", "my notes");
    dir.create("hand-ins/carol/rooks.cpp/main.cpp", "int main() {}\n");
    fs_err::create_dir_all(dir.path().join("hand-ins/bob/matchsticks.cpp")).unwrap();
    let run = dir.judge(&["grade", "--json", "report.json"]);
    let report = crate::support::report(&dir.read("report.json"));
    let graded: Vec<&str> = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|result| result["submission"].as_str().unwrap())
        .collect();
    assert_eq!(graded, ["hand-ins/alice/rooks.py"], "{report:#}");
    let shape = "(<student>/<problem>.<ext>)";
    assert_eq!(
        ignored(&report),
        [
            (
                "hand-ins/bob/matchsticks.cpp".to_owned(),
                format!("a folder where layout `student/problem` expects a file {shape}")
            ),
            (
                "hand-ins/carol/README.txt".to_owned(),
                "`README` is not one of `problems` (rooks, matchsticks)".to_owned()
            ),
            (
                "hand-ins/carol/rooks.cpp".to_owned(),
                format!("a folder where layout `student/problem` expects a file {shape}")
            ),
            (
                "hand-ins/eve/rook.py".to_owned(),
                "`rook` is not one of `problems` (rooks, matchsticks); did you mean `rooks`?"
                    .to_owned()
            ),
        ]
    );
    assert!(
        run.stderr().contains(
            "ignored: hand-ins/eve/rook.py: `rook` is not one of `problems` (rooks, matchsticks); did you mean `rooks`?"
        ),
        "{}",
        run.stderr()
    );

    // Without `problems`: a README is not a problem, so neither a row nor
    // a column of the gradebook.
    let dir = class_with_rook_typo("");
    dir.create("hand-ins/carol/README.txt", "my notes");
    let run = dir.judge(&["grade", "--csv", "-", "--json", "report.json"]);
    assert!(!run.stdout().contains("README"), "{}", run.stdout());
    let report = crate::support::report(&dir.read("report.json"));
    let reasons: Vec<String> = ignored(&report)
        .into_iter()
        .map(|(_, reason)| reason)
        .collect();
    assert_eq!(reasons.len(), 2, "{reasons:?}");
    assert!(
        reasons[0].starts_with("`README` is not a problem (known: rooks"),
        "{reasons:?}"
    );
    assert!(
        reasons[1].ends_with("; did you mean `rooks`?"),
        "{reasons:?}"
    );
}

/// `judge similar` lists a folder named like a hand-in as ignored.
#[test]
fn r17_similar_lists_a_folder_named_like_a_hand_in() {
    let dir = class("");
    dir.create(
        "hand-ins/alice/rooks.py",
        bundled("rooks/accepted/matching.py"),
    );
    dir.create(
        "hand-ins/bob/rooks.py",
        bundled("rooks/wrong_answer/ignores_walls.py"),
    );
    fs_err::create_dir_all(dir.path().join("hand-ins/carol/rooks.cpp")).unwrap();
    let run = dir.judge(&["similar"]);
    run.expect_code(0);
    assert!(
        run.stderr().contains(
            "ignored: hand-ins/carol/rooks.cpp: a folder where layout `student/problem` expects a file"
        ),
        "{}",
        run.stderr()
    );
}

/// A crash deep in a recursion: the exception (the last line of a Python
/// traceback) is kept with the head, the cut is counted, and the terminal
/// table of `judge run` shows it under the crashing test.
#[test]
fn r17_a_crash_keeps_the_head_and_the_tail_of_stderr() {
    let dir = Dir::new();
    dir.create(
        "deep.py",
        "import sys\nsys.setrecursionlimit(10000)\n\ndef search(depth):\n    if depth == 0:\n        return [][1]\n    return search(depth - 1) + 1\n\nprint(search(40))\n",
    );
    dir.create("t/one.in", "1\n.\n0\n");
    let run = dir.judge(&[
        "run",
        "rooks",
        "deep.py",
        "--tests",
        "t",
        "--json",
        "report.json",
    ]);
    run.expect_code(1);
    let report = crate::support::report(&dir.read("report.json"));
    let stderr = report["results"][0]["tests"][0]["stderr"].as_str().unwrap();
    assert!(
        stderr.starts_with("Traceback (most recent call last):"),
        "{stderr}"
    );
    assert!(
        stderr.ends_with("IndexError: list index out of range"),
        "{stderr}"
    );
    assert!(stderr.contains(" line(s), "), "{stderr}");
    assert!(stderr.contains(" cut …]"), "{stderr}");
    let table = run.stdout();
    assert!(table.contains("  standard error of one:"), "{table}");
    assert!(
        table.contains("    IndexError: list index out of range"),
        "{table}"
    );
}

/// Compile errors and tracebacks name the hand-in's own path, never the
/// judge's temporary folder, in the table and in every report.
#[test]
fn r17_messages_name_the_hand_in_not_a_temporary_path() {
    let dir = class("");
    dir.create(
        "hand-ins/bob/rooks.cpp",
        "int main() { return undeclared; }\n",
    );
    dir.create(
        "hand-ins/carol/rooks.py",
        "import sys\nsys.stdin.read()\nraise ValueError('carol')\n",
    );
    let run = dir.judge(&[
        "grade",
        "--json",
        "report.json",
        "--html",
        "class.html",
        "--junit",
        "junit.xml",
    ]);
    let report = crate::support::report(&dir.read("report.json"));
    let bob = report["results"][0]["compile"]["message"].as_str().unwrap();
    assert!(bob.contains("hand-ins/bob/rooks.cpp:1:"), "{bob}");
    let carol = report["results"][1]["tests"][0]["stderr"].as_str().unwrap();
    assert!(
        carol.contains("File \"hand-ins/carol/rooks.py\", line 3"),
        "{carol}"
    );
    let mut everything = vec![
        run.stdout(),
        run.stderr(),
        dir.read("report.json"),
        dir.read("junit.xml"),
    ];
    for page in fs_err::read_dir(dir.path().join("class")).unwrap() {
        everything.push(fs_err::read_to_string(page.unwrap().path()).unwrap());
    }
    everything.push(dir.read("class.html"));
    for text in everything {
        assert!(!text.contains("/judge-"), "{text}");
        assert!(!text.contains("submission-1/"), "{text}");
    }
}

const JAVA_SUM: &str = "import java.util.Scanner;\n\npublic class CLASS {\n    public static void main(String[] args) {\n        Scanner in = new Scanner(System.in);\n        long a = in.nextLong(), b = in.nextLong();\n        System.out.println(a + b);\n    }\n}\n";

/// Java as students write it: the file is named after the public class
/// with `main` (`Solution`, `hello`), in a class's hand-ins and in a Kattis
/// package's submissions alike; a file with no public class still works.
#[test]
fn r17_java_is_named_after_its_public_class() {
    let dir = Dir::new();
    PackageBuilder::kattis(&dir, "sum")
        .manifest("name: Sum of two\n")
        .test("sample/1", "1 2\n", "3\n")
        .test("secret/b", "-4 4\n", "0\n")
        .submission("accepted/hello.java", JAVA_SUM.replace("CLASS", "hello"))
        .submission("accepted/sum.java", JAVA_SUM.replace("CLASS", "Solution"))
        .submission(
            "accepted/plain.java",
            JAVA_SUM.replace("public class CLASS", "class Sum"),
        )
        .submission(
            "accepted/helper.java",
            JAVA_SUM.replace("public class CLASS", "public class Helper {}\nclass Main"),
        )
        // An IDE's `package` line: the class runs as `hw1.Solution`.
        .submission(
            "accepted/packaged.java",
            format!("package hw1;\n\n{}", JAVA_SUM.replace("CLASS", "Solution")),
        )
        .build();
    let run = dir.judge(&["grade", "--package", "sum"]);
    let out = run.stdout();
    for name in ["hello", "sum", "plain", "packaged"] {
        assert!(
            out.contains(&format!(
                "ok       sum/submissions/accepted/{name}.java: AC"
            )),
            "{name}: {out}{}",
            run.stderr()
        );
    }
    // A public class without `main` names the file; the class with `main`
    // runs.
    assert!(
        out.contains("ok       sum/submissions/accepted/helper.java: AC"),
        "{out}"
    );
    run.expect_code(0);

    // The same through `judge run` on a problem of the judge's: rooks'
    // sample is not a sum, so WA, never CE.
    let dir = Dir::new();
    dir.create("Solution.java", JAVA_SUM.replace("CLASS", "Solution"));
    dir.create("rooks.java", JAVA_SUM.replace("CLASS", "Solution"));
    let run = dir.judge(&["run", "rooks", "rooks.java", "--json", "report.json"]);
    let report = crate::support::report(&dir.read("report.json"));
    assert_ne!(report["results"][0]["verdict"], "CE", "{report:#}");
    assert!(
        report["results"][0]["compile"]["message"]
            .as_str()
            .unwrap_or("")
            .is_empty(),
        "{report:#}"
    );
    assert!(
        run.stdout().contains("rooks rooks.java (java): "),
        "{}",
        run.stdout()
    );
}

/// A complete gradebook: every (student, problem) of the class has a row,
/// `missing` with score 0 when nothing was handed in, in the CSV, the JSON
/// and the HTML matrix; a problem nobody handed in is still a column.
#[test]
fn r17_the_gradebook_has_a_row_for_every_student_and_problem() {
    let dir = class("problems = [\"rooks\", \"matchsticks\", \"mayan\"]\n");
    dir.create(
        "hand-ins/alice/rooks.py",
        bundled("rooks/accepted/matching.py"),
    );
    dir.create("hand-ins/alice/matchsticks.py", "print(0)\n");
    dir.create(
        "hand-ins/bob/rooks.py",
        bundled("rooks/accepted/matching.py"),
    );
    let run = dir.judge(&[
        "grade",
        "--csv",
        "grades.csv",
        "--json",
        "report.json",
        "--html",
        "class.html",
    ]);
    assert_eq!(run.code(), 1, "{}", run.stderr());
    let csv = dir.read("grades.csv");
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 7, "{csv}");
    for row in [
        "alice,mayan,0.00,missing,0,,",
        "bob,matchsticks,0.00,missing,0,,",
        "bob,mayan,0.00,missing,0,,",
    ] {
        assert!(lines.contains(&row), "{row}: {csv}");
    }
    assert!(csv.contains("bob,rooks,100.00,AC,"), "{csv}");
    let report = crate::support::report(&dir.read("report.json"));
    assert_eq!(
        report["missing"],
        serde_json::json!([
            { "student": "alice", "problem": "mayan" },
            { "student": "bob", "problem": "matchsticks" },
            { "student": "bob", "problem": "mayan" },
        ])
    );
    let html = dir.read("class.html");
    assert_eq!(html.matches(">missing</td>").count(), 3, "{html}");
    assert!(html.contains("<th>mayan</th>"), "{html}");

    // Examples (layout `expected`) are not a class: nothing is missing.
    let dir = Dir::new();
    dir.create("judge.toml", "layout = \"expected\"\nrandom-tests = 1\n");
    dir.create(
        "submissions/rooks/accepted/a.py",
        bundled("rooks/accepted/matching.py"),
    );
    dir.create("submissions/mayan/wrong_answer/b.py", "print(0)\n");
    let report = crate::support::report(&dir.judge(&["grade", "--json", "-"]).stdout());
    assert!(report["missing"].is_null(), "{report:#}");
}

/// Messages a new user meets, in words: no judge.toml, a mistyped key, a
/// value of the wrong type, a limit of 0 or -5, `--jobs 0`.
#[test]
fn r17_messages_say_what_is_wrong_in_words() {
    let dir = Dir::new();
    let run = dir.judge(&["grade"]);
    run.expect_code(2);
    assert!(
        run.stderr()
            .contains("hint: there is no judge.toml here, so the built-in defaults were used")
            && run.stderr().contains("pass `--config FILE`"),
        "{}",
        run.stderr()
    );

    dir.create("judge.toml", "random_tests = 3\n");
    let run = dir.judge(&["grade"]);
    run.expect_code(2);
    assert!(
        run.stderr().contains("unknown field `random_tests`")
            && run.stderr().contains("; did you mean `random-tests`?"),
        "{}",
        run.stderr()
    );
    dir.create("judge.toml", "jobs = \"one\"\n");
    let run = dir.judge(&["grade"]);
    run.expect_code(2);
    assert!(
        run.stderr().contains("expected a whole number, 0 or more"),
        "{}",
        run.stderr()
    );

    dir.create("t/one.in", "1\n.\n0\n");
    dir.create("one.py", "print(1)\n");
    for value in ["0", "-5"] {
        let run = dir.judge(&[
            "run",
            "rooks",
            "one.py",
            "--tests",
            "t",
            "--time-limit",
            value,
        ]);
        run.expect_code(2);
        assert!(
            run.stderr().contains(&format!(
                "expected a whole number of at least 1, found `{value}`"
            )),
            "{}",
            run.stderr()
        );
    }
    dir.create("judge.toml", "random-tests = 0\n");
    dir.judge(&["run", "rooks", "one.py", "--tests", "t", "--jobs", "0"])
        .expect_code(0);
}

/// `problems` in judge.toml may name a package of `--problems-dir`, for
/// `grade` and for `problems` (which reads judge.toml for its programs).
#[test]
fn r17_problems_may_name_a_package_of_the_problems_dir() {
    let dir = Dir::new();
    dir.create(
        "judge.toml",
        "submissions = \"hand-ins\"\nlayout = \"student/problem\"\nproblems = [\"sc\"]\n",
    );
    dir.judge(&["new", "sc", "--dir", "pk"]).expect_code(0);
    dir.create("hand-ins/ann/sc.py", dir.read("pk/sc/reference.py"));
    let run = dir.judge(&["grade", "--problems-dir", "pk", "--csv", "-"]);
    run.expect_code(0);
    assert!(
        run.stdout().contains("ann,sc,100.00,AC"),
        "{}",
        run.stdout()
    );
    let run = dir.judge(&["problems", "--problems-dir", "pk"]);
    run.expect_code(0);
    assert!(run.stdout().contains("\nsc "), "{}", run.stdout());
    // Without the folder, `sc` is unknown, as before.
    let run = dir.judge(&["grade"]);
    run.expect_code(2);
    assert!(
        run.stderr().contains("unknown problem `sc`"),
        "{}",
        run.stderr()
    );
}

/// The (student, problem) pairs of a CSV gradebook.
fn gradebook(csv: &str) -> Vec<(String, String, String)> {
    csv.lines()
        .skip(1)
        .map(|line| {
            let cells: Vec<&str> = line.split(',').collect();
            (
                cells[0].to_owned(),
                cells[1].to_owned(),
                cells[3].to_owned(),
            )
        })
        .collect()
}

/// Every student folder gets a row per problem, `missing` when nothing of
/// it was graded (a typo'd name, a file too deep, a hidden file, an empty
/// folder); hidden files are listed as ignored.
#[test]
fn r17_every_student_folder_has_a_row_per_problem() {
    let dir = Dir::new();
    dir.create(
        "judge.toml",
        "submissions = \"hand-ins\"\nlayout = \"student/problem\"\nproblems = [\"rooks\", \"matchsticks\"]\n",
    );
    let accepted = bundled("rooks/accepted/matching.py");
    dir.create("hand-ins/alice/rooks.py", &accepted);
    dir.create("hand-ins/gina/Rooks.py", &accepted);
    dir.create("hand-ins/bert/sub/rooks.py", &accepted);
    dir.create("hand-ins/hugo/.rooks.py", &accepted);
    dir.create("hand-ins/.DS_Store", "");
    fs_err::create_dir_all(dir.path().join("hand-ins/emma")).unwrap();
    let run = dir.judge(&["grade", "--csv", "-", "--json", "report.json"]);
    run.expect_code(0);
    let mut rows = gradebook(&run.stdout());
    rows.sort();
    let mut expected = vec![("alice".to_owned(), "rooks".to_owned(), "AC".to_owned())];
    for (student, problem) in [
        ("alice", "matchsticks"),
        ("bert", "matchsticks"),
        ("bert", "rooks"),
        ("emma", "matchsticks"),
        ("emma", "rooks"),
        ("gina", "matchsticks"),
        ("gina", "rooks"),
        ("hugo", "matchsticks"),
        ("hugo", "rooks"),
    ] {
        expected.push((student.to_owned(), problem.to_owned(), "missing".to_owned()));
    }
    expected.sort();
    assert_eq!(rows, expected, "{}", run.stdout());
    let report = crate::support::report(&dir.read("report.json"));
    let ignored = ignored(&report);
    assert!(
        ignored.contains(&(
            "hand-ins/hugo/.rooks.py".to_owned(),
            "a hidden file, not a submission".to_owned()
        )),
        "{ignored:?}"
    );
    assert!(
        ignored.iter().any(|(path, _)| path == "hand-ins/.DS_Store"),
        "{ignored:?}"
    );
}

/// Layout `problem/student`: a file in no configured language (a
/// `README.txt` in a problem folder) is ignored with the reason, never a
/// row; a student whose only hand-in is in a misspelled problem folder
/// has `missing` rows.
#[test]
fn r17_problem_student_ignores_a_readme_and_keeps_every_student() {
    let dir = Dir::new();
    dir.create(
        "judge.toml",
        "submissions = \"hand-ins\"\nlayout = \"problem/student\"\nproblems = [\"rooks\", \"matchsticks\"]\n",
    );
    dir.create(
        "hand-ins/rooks/ann.py",
        bundled("rooks/accepted/matching.py"),
    );
    dir.create(
        "hand-ins/matchsticks/bob.py",
        bundled("matchsticks/accepted/memo.py"),
    );
    dir.create(
        "hand-ins/rook/cat.py",
        bundled("rooks/accepted/matching.py"),
    );
    dir.create("hand-ins/rooks/README.txt", "hand-in notes");
    let run = dir.judge(&["grade", "--csv", "-", "--json", "report.json"]);
    run.expect_code(0);
    let mut rows = gradebook(&run.stdout());
    rows.sort();
    let row = |s: &str, p: &str, v: &str| (s.to_owned(), p.to_owned(), v.to_owned());
    assert_eq!(
        rows,
        [
            row("ann", "matchsticks", "missing"),
            row("ann", "rooks", "AC"),
            row("bob", "matchsticks", "AC"),
            row("bob", "rooks", "missing"),
            row("cat", "matchsticks", "missing"),
            row("cat", "rooks", "missing"),
        ],
        "{}",
        run.stdout()
    );
    let report = crate::support::report(&dir.read("report.json"));
    let ignored = ignored(&report);
    let readme = ignored
        .iter()
        .find(|(path, _)| path == "hand-ins/rooks/README.txt")
        .unwrap_or_else(|| panic!("{ignored:?}"));
    assert!(
        readme
            .1
            .starts_with("in no configured language and not executable"),
        "{readme:?}"
    );
}

/// The class page's header stays in view, so a link of it (a problem, the
/// students by score, the matrix) must stop below it: every place it links
/// to exists and is kept clear of the header by `scroll-margin-top` (seen
/// in a browser: without it the problem's heading and bar, and the first of
/// the tests the class fails most, were under the header).
#[test]
fn r17_the_class_page_links_land_below_its_sticky_header() {
    let dir = class("problems = [\"rooks\", \"matchsticks\"]\n");
    dir.create(
        "hand-ins/alice/rooks.py",
        bundled("rooks/accepted/matching.py"),
    );
    dir.create("hand-ins/bob/matchsticks.py", "print(0)\n");
    dir.judge(&["grade", "--html", "grades.html"])
        .expect_code(1);
    let page = dir.read("grades.html");
    let header = &page[page.find("<header class=\"top\">").unwrap()..];
    let header = &header[..header.find("</header>").unwrap()];
    let targets: Vec<&str> = header
        .split("href=\"#")
        .skip(1)
        .map(|rest| &rest[..rest.find('"').unwrap()])
        .collect();
    assert_eq!(targets, ["problem-1", "problem-2", "students", "matrix"]);
    for target in &targets {
        assert!(
            page.contains(&format!("id=\"{target}\"")),
            "the header links to #{target}, which the page lacks"
        );
    }
    let style = &page[page.find("<style>").unwrap()..page.find("</style>").unwrap()];
    let rule = style
        .lines()
        .find(|line| line.contains("scroll-margin-top"))
        .unwrap_or_else(|| panic!("no scroll-margin-top in the class page's style:\n{style}"));
    assert!(
        rule.starts_with("header.top ~ [id], header.top ~ * [id] {"),
        "the scroll margin applies to what the header links to: {rule}"
    );
    let rem: f64 = rule
        .split("scroll-margin-top:")
        .nth(1)
        .and_then(|value| value.trim().strip_suffix("rem; }"))
        .and_then(|value| value.parse().ok())
        .unwrap_or_else(|| panic!("a margin in rem: {rule}"));
    assert!(rem >= 8.0, "the header is about 8rem high: {rule}");
}

/// The class page lists the files that were not graded, each with the
/// reason (escaped), linked from its header: a teacher who reads only the
/// page sees `eve/rook.py` and its "did you mean" (review of issue #17).
#[test]
fn r17_the_class_page_lists_the_ignored_files() {
    let dir = class_with_rook_typo("problems = [\"rooks\", \"matchsticks\"]\n");
    dir.create("hand-ins/mallory/<b>x.py", "print(1)\n");
    dir.create("hand-ins/mallory/new\nline.txt", "");
    let run = dir.judge(&["grade", "--html", "class.html"]);
    run.expect_code(0);
    let html = dir.read("class.html");
    assert!(
        html.contains(
            "<tr><td class=\"mono\">hand-ins/eve/rook.py</td><td>`rook` is not one of `problems` \
             (rooks, matchsticks); did you mean `rooks`?</td></tr>"
        ),
        "{html}"
    );
    assert!(html.contains("hand-ins/mallory/&lt;b&gt;x.py"), "{html}");
    assert!(!html.contains("<b>x"), "{html}");
    // A line break in a name is shown as the terminal shows it, not as a
    // space that names another file.
    assert!(
        html.contains(
            "<tr><td class=\"mono\">hand-ins/mallory/new\\nline.txt</td><td>`new\\nline` is not"
        ),
        "{html}"
    );
    assert!(!html.contains("new\nline"), "{html}");
    assert!(
        html.contains("<a href=\"#ignored\">ignored files (3)</a>"),
        "{html}"
    );
    // After what the class missed, before the long tables.
    let at = |text: &str| html.find(text).unwrap_or_else(|| panic!("{text}: {html}"));
    assert!(at("<h2>Problems</h2>") < at("<h2 id=\"ignored\">"));
    assert!(at("<h2 id=\"ignored\">") < at("<h2 id=\"students\">"));
    // A class with every file graded has no such section.
    let dir = class("");
    dir.create(
        "hand-ins/alice/rooks.py",
        bundled("rooks/accepted/matching.py"),
    );
    dir.judge(&["grade", "--html", "class.html"]).expect_code(0);
    assert!(!dir.read("class.html").contains("Ignored files"));
}

/// A Java stack trace names the hand-in (`hand-ins/frank/rooks.java:4`),
/// not the copy named after its class (`Solution.java:4`).
#[test]
fn r17_a_java_stack_trace_names_the_hand_in() {
    let dir = class("");
    dir.create(
        "hand-ins/frank/rooks.java",
        "public class Solution {\n    public static void main(String[] args) {\n        int[] none = new int[0];\n        System.out.println(none[1]);\n    }\n}\n",
    );
    let run = dir.judge(&["grade", "--json", "report.json"]);
    run.expect_code(1);
    let report = crate::support::report(&dir.read("report.json"));
    let result = &report["results"][0];
    assert_eq!(result["verdict"], "RE", "{report:#}");
    let stderr = result["tests"][0]["stderr"].as_str().unwrap();
    assert!(
        stderr.contains("at Solution.main(hand-ins/frank/rooks.java:4)"),
        "{stderr}"
    );
    assert!(!stderr.contains("Solution.java"), "{stderr}");
    assert!(!run.stdout().contains("Solution.java"), "{}", run.stdout());
}

/// `judge grade`'s terminal table has a `missing` row for each (student,
/// problem) of the class with no hand-in, as the CSV, JSON and HTML do.
#[test]
fn r17_the_terminal_table_has_the_missing_rows() {
    let dir = class("problems = [\"rooks\", \"matchsticks\"]\n");
    dir.create(
        "hand-ins/alice/rooks.py",
        bundled("rooks/accepted/matching.py"),
    );
    dir.create(
        "hand-ins/bob/matchsticks.py",
        bundled("rooks/accepted/matching.py"),
    );
    let run = dir.judge(&["grade"]);
    let table = run.stdout();
    let rows: Vec<Vec<&str>> = table
        .lines()
        .map(|line| line.split_whitespace().collect())
        .collect();
    for (problem, student) in [("matchsticks", "alice"), ("rooks", "bob")] {
        assert!(
            rows.contains(&vec![problem, "-", student, "missing", "-", "0%", "-"]),
            "{problem}, {student}: {table}"
        );
    }
    assert_eq!(table.lines().count(), 6, "{table}");
}

/// Issue #32: the terminal table lists a class as the class page does: by
/// student as a class list orders names (not by bytes: `Bob` and `Zoë`
/// before `alice`), each student's `missing` rows with their graded ones,
/// by problem in the order of the class page's columns (judge.toml's
/// `problems`), not all after every graded row.
#[test]
fn r32_the_terminal_table_orders_students_as_the_class_page_with_their_missing_rows() {
    let dir = class("problems = [\"rooks\", \"mayan\"]\n");
    for hand_in in [
        "hand-ins/alice/mayan.py",
        "hand-ins/Bob/rooks.py",
        "hand-ins/Émile/mayan.py",
        "hand-ins/Émile/rooks.py",
        "hand-ins/Zoë/rooks.py",
    ] {
        dir.create(hand_in, "print(0)\n");
    }
    let run = dir.judge(&["grade"]);
    run.expect_code(1);
    let table = run.stdout();
    let rows: Vec<(String, String, String)> = table
        .lines()
        .skip(1)
        .map(|line| line.split_whitespace().collect::<Vec<_>>())
        .filter(|cells| cells.len() >= 7 && (cells[1] == "-" || cells[1].starts_with("hand-ins/")))
        .map(|cells| {
            let verdict = if cells[3] == "missing" {
                "missing"
            } else {
                "graded"
            };
            (cells[2].to_owned(), cells[0].to_owned(), verdict.to_owned())
        })
        .collect();
    let expected = [
        ("alice", "rooks", "missing"),
        ("alice", "mayan", "graded"),
        ("Bob", "rooks", "graded"),
        ("Bob", "mayan", "missing"),
        ("Émile", "rooks", "graded"),
        ("Émile", "mayan", "graded"),
        ("Zoë", "rooks", "graded"),
        ("Zoë", "mayan", "missing"),
    ]
    .map(|(student, problem, verdict)| {
        (student.to_owned(), problem.to_owned(), verdict.to_owned())
    });
    assert_eq!(rows, expected, "{table}");
}

/// A checker that crashes: its row is cut at the table's width with `…`,
/// and the whole reason (the exception) is written below the table.
#[test]
fn r17_the_table_keeps_a_checker_crash_reason() {
    let dir = Dir::new();
    dir.judge(&["new", "hello", "--dir", "pk"]).expect_code(0);
    let manifest = dir.read("pk/hello/problem.toml").replace(
        "kind = \"tokens\"",
        "kind = \"testlib\"\nprogram = \"check.py\"\n#",
    );
    dir.create("pk/hello/problem.toml", manifest);
    dir.create(
        "pk/hello/check.py",
        "import sys\nout = open(sys.argv[2]).read()\nvalue = int(\"x\" + out)\n",
    );
    let run = dir.judge(&[
        "run",
        "hello",
        "pk/hello/submissions/accepted/reference.py",
        "--problems-dir",
        "pk",
    ]);
    run.expect_code(3);
    let table = run.stdout();
    let rows: Vec<&str> = table
        .lines()
        .filter(|line| line.contains("  JE  "))
        .collect();
    assert!(!rows.is_empty(), "{table}");
    for row in &rows {
        let message = row.split("  checker failure").nth(1).unwrap_or_default();
        assert!(row.ends_with('…'), "{row}");
        assert!(message.chars().count() < 60, "{row}");
    }
    assert!(table.contains("\n  message of "), "{table}");
    assert!(
        table.contains(
            "    checker failure: checker `check.py` crashed with an uncaught exception \
             (ValueError: invalid literal for int() with base 10:"
        ),
        "{table}"
    );
}
