//! `--junit` agrees with the judge's exit code (issue #32, item 2): in layout
//! `expected` an example that got the verdict its folder names is a passing
//! test case, one that did not is a failure; the verdict stays in the case's
//! properties and output.

use crate::support::{repository, Dir};

/// The bundled accepted Python rooks solver.
fn accepted() -> String {
    fs_err::read_to_string(repository().join("submissions/rooks/accepted/matching.py")).unwrap()
}

/// The bundled rooks example that answers wrongly (WA).
fn wrong() -> String {
    fs_err::read_to_string(repository().join("submissions/rooks/wrong_answer/ignores_walls.py"))
        .unwrap()
}

/// The `<testsuites>` element's `attribute`, as a number.
fn count(document: &roxmltree::Document<'_>, attribute: &str) -> usize {
    document
        .root_element()
        .attribute(attribute)
        .unwrap_or_else(|| panic!("no {attribute}"))
        .parse()
        .unwrap()
}

/// The test cases of the suite named `suite`: (name, failure type or "").
fn cases(document: &roxmltree::Document<'_>, suite: &str) -> Vec<(String, String)> {
    let suite = document
        .descendants()
        .find(|node| node.has_tag_name("testsuite") && node.attribute("name") == Some(suite))
        .unwrap_or_else(|| panic!("no suite {suite}"));
    suite
        .children()
        .filter(|node| node.has_tag_name("testcase"))
        .map(|case| {
            let failure = case
                .children()
                .find(|node| node.has_tag_name("failure") || node.has_tag_name("error"))
                .and_then(|node| node.attribute("type"))
                .unwrap_or("");
            (
                case.attribute("name").unwrap().to_owned(),
                failure.to_owned(),
            )
        })
        .collect()
}

/// The verdict property of the case `name` of `suite`.
fn case_verdict(document: &roxmltree::Document<'_>, suite: &str, name: &str) -> String {
    document
        .descendants()
        .find(|node| node.has_tag_name("testsuite") && node.attribute("name") == Some(suite))
        .unwrap()
        .children()
        .find(|node| node.has_tag_name("testcase") && node.attribute("name") == Some(name))
        .unwrap()
        .descendants()
        .find(|node| node.has_tag_name("property") && node.attribute("name") == Some("verdict"))
        .and_then(|node| node.attribute("value"))
        .unwrap()
        .to_owned()
}

/// See: issue #32 (item 2). `judge grade --junit` of examples that all get
/// their folders' verdicts exits 0 and the XML has no failure; the WA and CE
/// are in the cases' `verdict` property and output.
#[test]
fn r32_junit_of_a_passing_expected_grade_has_no_failure() {
    let dir = Dir::new();
    dir.create(
        "judge.toml",
        "layout = \"expected\"\nrandom-tests = 1\njobs = 2\n",
    );
    dir.create("submissions/rooks/accepted/good.py", accepted());
    dir.create("submissions/rooks/wrong_answer/walls.py", wrong());
    dir.create("submissions/rooks/compile_error/broken.cpp", "int main( {");
    let run = dir.judge(&["grade", "-q", "--junit", "grade.xml"]);
    run.expect_code(0);
    let xml = dir.read("grade.xml");
    let document = roxmltree::Document::parse(&xml).unwrap();
    assert_eq!(count(&document, "failures"), 0, "{xml}");
    assert_eq!(count(&document, "errors"), 0, "{xml}");
    let walls = "rooks submissions/rooks/wrong_answer/walls.py";
    let cases_of_walls = cases(&document, walls);
    assert_eq!(
        cases_of_walls[0],
        ("expected verdict".to_owned(), String::new())
    );
    assert!(cases_of_walls.len() > 1, "{xml}");
    assert_eq!(case_verdict(&document, walls, "expected verdict"), "WA");
    // The test that failed keeps its verdict and the checker's message.
    let failed = cases_of_walls
        .iter()
        .find(|(name, _)| {
            case_verdict(&document, walls, name) == "WA" && name != "expected verdict"
        })
        .unwrap_or_else(|| panic!("no WA test: {xml}"));
    assert_eq!(failed.1, "");
    assert!(xml.contains("<system-out>WA: "), "{xml}");
    let broken = "rooks submissions/rooks/compile_error/broken.cpp";
    assert_eq!(case_verdict(&document, broken, "compile"), "CE");
    assert!(cases(&document, broken)
        .iter()
        .all(|(_, failure)| failure.is_empty()));
}

/// See: issue #32 (item 2). An example that does not get its folder's
/// verdict (an AC program under `wrong_answer/`, a WA one under
/// `accepted/`) exits 1 and is a failure in the XML, whose message says
/// what was expected.
#[test]
fn r32_junit_fails_the_examples_that_miss_their_folders_verdict() {
    let dir = Dir::new();
    dir.create(
        "judge.toml",
        "layout = \"expected\"\nrandom-tests = 1\njobs = 2\n",
    );
    dir.create("submissions/rooks/accepted/good.py", accepted());
    dir.create("submissions/rooks/wrong_answer/passes.py", accepted());
    dir.create("submissions/rooks/accepted/walls.py", wrong());
    let run = dir.judge(&["grade", "-q", "--junit", "grade.xml"]);
    run.expect_code(1);
    let xml = dir.read("grade.xml");
    let document = roxmltree::Document::parse(&xml).unwrap();
    assert!(count(&document, "failures") >= 2, "{xml}");
    let passes = cases(&document, "rooks submissions/rooks/wrong_answer/passes.py");
    assert_eq!(passes[0], ("expected verdict".to_owned(), "AC".to_owned()));
    assert!(
        xml.contains("submissions/rooks/wrong_answer/passes.py: expected WA, got AC"),
        "{xml}"
    );
    let walls = cases(&document, "rooks submissions/rooks/accepted/walls.py");
    assert_eq!(walls[0], ("expected verdict".to_owned(), "WA".to_owned()));
    assert!(
        walls[1..].iter().any(|(_, failure)| failure == "WA"),
        "{xml}"
    );
    let good = cases(&document, "rooks submissions/rooks/accepted/good.py");
    assert!(good.iter().all(|(_, failure)| failure.is_empty()), "{xml}");
}
