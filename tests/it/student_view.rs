//! `--student-view` against a program that makes a package's checker quote
//! the hidden test (issue #35): a checker that crashes on a malformed
//! output quotes that output in its traceback, and the JE message went to
//! the student view whole, so a program that printed its hidden input and
//! made the checker crash showed that input to students.

use crate::support::{Dir, PackageBuilder};

/// What the program prints for the hidden test: its input, in a form no
/// other part of the report holds.
const LEAKED: &str = "leak 5-7";

#[test]
fn r35_the_student_view_shows_no_checker_traceback_of_a_hidden_test() {
    // See: issue #35.
    let dir = Dir::new();
    PackageBuilder::kattis(&dir, "sum")
        .manifest("name: Sum\nvalidation: custom\nlimits:\n  time_limit: 1\n")
        .test("sample/1", "1 2\n", "3\n")
        .test("secret/a", "5 7\n", "12\n")
        // Right on the sample; the hidden input, printed, on the rest.
        .submission(
            "accepted/leak.py",
            "import sys\nwords = sys.stdin.read().split()\n\
             print(3 if words == ['1', '2'] else 'leak ' + '-'.join(words))\n",
        )
        // Crashes (a ValueError quoting the output) on anything but a number.
        .file(
            "output_validators/v/validate.py",
            "import sys\nanswer = int(open(sys.argv[2]).read())\ngot = int(sys.stdin.read())\n\
             sys.exit(42 if got == answer else 43)\n",
        )
        .build();
    // The teacher's view quotes the traceback: the control.
    dir.judge(&["grade", "--package", "sum", "--json", "teacher.json"]);
    assert!(dir.read("teacher.json").contains(LEAKED));
    let run = dir.judge(&[
        "grade",
        "--package",
        "sum",
        "--student-view",
        "--json",
        "student.json",
        "--html",
        "student.html",
    ]);
    let json = dir.read("student.json");
    let report = crate::support::report(&json);
    let hidden = &report["results"][0]["tests"][1];
    assert_eq!(hidden["name"], "secret/a", "{report:#}");
    assert_eq!(hidden["verdict"], "JE");
    assert_eq!(hidden["message"], "the checker failed (judge error)");
    assert!(!json.contains(LEAKED), "{json}");
    assert!(!run.stdout().contains(LEAKED), "{}", run.stdout());
    let mut pages = vec![dir.read("student.html")];
    for entry in walkdir::WalkDir::new(dir.path().join("student")) {
        let entry = entry.unwrap();
        if entry.file_type().is_file() {
            pages.push(fs_err::read_to_string(entry.path()).unwrap());
        }
    }
    for page in &pages {
        assert!(!page.contains(LEAKED), "{page}");
    }
    assert!(
        pages
            .iter()
            .any(|page| page.contains("the checker failed (judge error)")),
        "the pages say why the test failed"
    );
}
