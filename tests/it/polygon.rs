//! Polygon packages (issue #29): `judge grade --package` on the fixture
//! `tests/fixtures/polygon/sum` (a package in Polygon's shape, with the
//! real testlib.h), as a folder and as a zip, with and without its
//! generated tests, and with a broken `problem.xml`; and on
//! `tests/fixtures/polygon/queries`, a package as Polygon hands it out for
//! Windows (its text files, tests included, end their lines with CRLF),
//! whose main solution answers one test with nothing.

use crate::support::{copy_fixture, repository, Dir, Run};
use std::path::{Path, PathBuf};

/// The fixture copied to `dir/sum`, with a generous wall-clock backstop so
/// a loaded machine does not turn a Python start into a TLE.
pub(crate) fn sum_package(dir: &Dir) -> PathBuf {
    let source = repository().join("tests/fixtures/polygon/sum");
    let target = dir.path().join("sum");
    for entry in walkdir::WalkDir::new(&source) {
        let entry = entry.unwrap();
        let relative = entry.path().strip_prefix(&source).unwrap();
        let copy = target.join(relative);
        if entry.file_type().is_dir() {
            fs_err::create_dir_all(&copy).unwrap();
        } else {
            fs_err::copy(entry.path(), &copy).unwrap();
        }
    }
    dir.create("judge.toml", "[limits]\nwall-time-factor = 10\n");
    target
}

/// `judge ARGS` in `dir` with the cache in `dir/cache`.
pub(crate) fn judge(dir: &Dir, args: &[&str]) -> Run {
    let mut command = assert_cmd::cargo::cargo_bin_cmd!("judge");
    command
        .current_dir(dir.path())
        .args(args)
        .env("JUDGE_CACHE_DIR", dir.path().join("cache"))
        .env_remove("NO_COLOR");
    Run::new(args, command.output().expect("judge runs"))
}

const TAGGED: [(&str, &str); 7] = [
    ("sum.cpp", "AC"),
    ("sum.py", "AC"),
    ("overflow.py", "WA"),
    ("words.py", "PE"),
    ("spin.py", "TLE"),
    ("count.py", "TLE"),
    ("crash.py", "RE"),
];

#[test]
fn every_solution_of_a_polygon_package_agrees_with_its_tag() {
    let dir = Dir::new();
    sum_package(&dir);
    let run = judge(&dir, &["grade", "--package", "sum"]);
    run.expect_code(0);
    let out = run.stdout();
    for (file, verdict) in TAGGED {
        assert!(
            out.contains(&format!("ok       sum/solutions/{file}: {verdict}")),
            "{file}: {out}"
        );
    }
    // `main` scores every group; the groups are Polygon's.
    assert!(
        out.contains("sum/solutions/sum.cpp: AC, score 100 of 100"),
        "{out}"
    );
    assert!(
        out.contains("7 of 7 submissions got their tag's verdict; 1 skipped"),
        "{out}"
    );
    assert!(
        run.stderr()
            .contains("skipped: sum/solutions/draft.py: tagged `do-not-run` in problem.xml"),
        "{}",
        run.stderr()
    );
}

/// The cache's generated inputs and their modification times.
fn cached_inputs(cache: &Path) -> Vec<(String, std::time::SystemTime)> {
    let mut inputs: Vec<(String, std::time::SystemTime)> =
        fs_err::read_dir(cache.join("polygon/tests"))
            .unwrap()
            .map(|entry| {
                let path = entry.unwrap().path();
                let modified = fs_err::metadata(&path).unwrap().modified().unwrap();
                (fs_err::read_to_string(&path).unwrap(), modified)
            })
            .collect();
    inputs.sort();
    inputs
}

#[test]
fn a_package_without_its_generated_tests_makes_them_once() {
    let dir = Dir::new();
    let package = sum_package(&dir);
    let mut committed = Vec::new();
    for name in ["02", "03", "04"] {
        committed.push(fs_err::read_to_string(package.join("tests").join(name)).unwrap());
        fs_err::remove_file(package.join("tests").join(name)).unwrap();
    }
    committed.sort();
    let first = judge(&dir, &["grade", "--package", "sum"]);
    first.expect_code(0);
    assert!(
        first
            .stdout()
            .contains("7 of 7 submissions got their tag's verdict"),
        "{}",
        first.stdout()
    );
    // The generator made what the full package holds, byte for byte.
    let cache = dir.path().join("cache");
    let made = cached_inputs(&cache);
    let texts: Vec<String> = made.iter().map(|(text, _)| text.clone()).collect();
    assert_eq!(texts, committed);
    // A second grade takes them from the cache: nothing is made again.
    let second = judge(&dir, &["grade", "--package", "sum"]);
    second.expect_code(0);
    assert_eq!(cached_inputs(&cache), made);
}

/// See: issue #33. A Polygon package's solutions are expected by their
/// tags, and every place says so in its words: the table (`tag
/// wrong-answer`, never `folder`), its tally, and the JSON report's
/// `expected.kind` beside the `folder` that holds the tag.
#[test]
fn r33_a_polygon_packages_table_and_report_say_tag() {
    let dir = Dir::new();
    let package = sum_package(&dir);
    let xml = package.join("problem.xml");
    let text = fs_err::read_to_string(&xml).unwrap();
    let wrong = text.replace(r#"tag="presentation-error""#, r#"tag="wrong-answer""#);
    assert_ne!(text, wrong);
    fs_err::write(&xml, wrong).unwrap();
    let run = judge(&dir, &["grade", "--package", "sum", "--json", "sum.json"]);
    run.expect_code(1);
    let out = run.stdout();
    assert!(
        out.lines().any(
            |line| line.starts_with("MISMATCH sum/solutions/words.py: PE")
                && line.contains("(tag wrong-answer)")
        ),
        "{out}"
    );
    assert!(out.contains("(tag main)"), "{out}");
    assert!(!out.contains("(folder "), "{out}");
    assert!(
        out.contains("6 of 7 submissions got their tag's verdict"),
        "{out}"
    );
    let report = crate::support::report(&dir.read("sum.json"));
    let results = report["results"].as_array().unwrap();
    assert_eq!(results.len(), 7, "{report:#}");
    for result in results {
        assert_eq!(result["expected"]["kind"], "tag", "{result:#}");
    }
    let words = results
        .iter()
        .find(|result| result["submission"] == "sum/solutions/words.py")
        .unwrap();
    assert_eq!(words["expected"]["folder"], "wrong-answer", "{words:#}");
}

#[test]
fn a_zipped_package_with_a_wrong_tag_is_reported() {
    use std::io::Write as _;
    let dir = Dir::new();
    let package = sum_package(&dir);
    let xml = package.join("problem.xml");
    let text = fs_err::read_to_string(&xml).unwrap();
    let wrong = text.replace(r#"tag="presentation-error""#, r#"tag="wrong-answer""#);
    assert_ne!(text, wrong);
    fs_err::write(&xml, wrong).unwrap();
    let zip_path = dir.path().join("sum-4$linux.zip");
    let mut writer = zip::ZipWriter::new(fs_err::File::create(&zip_path).unwrap());
    for entry in walkdir::WalkDir::new(&package) {
        let entry = entry.unwrap();
        if entry.file_type().is_file() {
            let name = entry.path().strip_prefix(dir.path()).unwrap();
            writer
                .start_file(
                    name.to_string_lossy(),
                    zip::write::SimpleFileOptions::default(),
                )
                .unwrap();
            writer
                .write_all(&fs_err::read(entry.path()).unwrap())
                .unwrap();
        }
    }
    writer.finish().unwrap();
    fs_err::remove_dir_all(&package).unwrap();
    let run = judge(&dir, &["grade", "--package", "sum-4$linux.zip"]);
    run.expect_code(1);
    let out = run.stdout();
    assert!(
        out.lines()
            .any(|line| line.starts_with("MISMATCH") && line.contains("/solutions/words.py: PE")),
        "{out}"
    );
    assert!(
        out.contains("6 of 7 submissions got their tag's verdict"),
        "{out}"
    );
}

#[test]
fn a_bad_problem_xml_names_file_line_and_element() {
    let dir = Dir::new();
    let package = sum_package(&dir);
    let xml = package.join("problem.xml");
    let text = fs_err::read_to_string(&xml).unwrap();
    fs_err::write(&xml, text.replace("<time-limit>1000<", "<time-limit>1s<")).unwrap();
    let run = judge(&dir, &["grade", "--package", "sum"]);
    run.expect_code(2);
    let err = run.stderr();
    assert!(
        err.contains(
            "sum/problem.xml`: line 11: `<time-limit>`: expected a whole number, 0 or more, \
             found `1s`"
        ),
        "{err}"
    );
    fs_err::write(&xml, text.replace(r#"tag="rejected""#, r#"tag="crashes""#)).unwrap();
    let err = judge(&dir, &["grade", "--package", "sum"]).stderr();
    assert!(
        err.contains("line 83: `<solution>`: unknown solution tag `crashes`"),
        "{err}"
    );
}

/// The Windows-made fixture `queries` copied to `dir/queries`, with the
/// testlib.h of `sum` (one copy of it in the repository is enough).
fn queries_package(dir: &Dir) -> PathBuf {
    copy_fixture(dir, "polygon/queries", "queries");
    let testlib = repository().join("tests/fixtures/polygon/sum/files/testlib.h");
    dir.create("queries/files/testlib.h", fs_err::read(testlib).unwrap());
    dir.create("judge.toml", "[limits]\nwall-time-factor = 10\n");
    dir.path().join("queries")
}

/// `text` with every LF written as CRLF, as Polygon's package for Windows
/// writes a text file.
fn as_windows_text(text: &str) -> String {
    text.replace('\n', "\r\n")
}

/// A package made for Windows (its `doall.bat` ends its lines with CRLF)
/// grades as its authors meant: the validator, the checker and every
/// solution read its tests with LF line endings (`strict.py` crashes on
/// a CR), and one note says so. Its test 03 asks for nothing, so the main
/// solution's answer is empty: an answer, not a judge error for the
/// solutions that reach the checker.
#[test]
fn r29_a_windows_package_reads_its_crlf_tests_as_lf() {
    let dir = Dir::new();
    let package = queries_package(&dir);
    let committed = fs_err::read(package.join("tests/02")).unwrap();
    assert!(committed.ends_with(b"\r\n"), "the fixture is Windows text");
    let run = judge(&dir, &["grade", "--package", "queries", "--json", "r.json"]);
    run.expect_code(0);
    let out = run.stdout();
    crate::support::assert_folder_verdicts(
        &out,
        &[
            ("queries/solutions/main.cpp", "AC"),
            ("queries/solutions/strict.py", "AC"),
            ("queries/solutions/replay.py", "AC"),
            ("queries/solutions/stale.py", "WA"),
        ],
    );
    assert!(
        out.contains("4 of 4 submissions got their tag's verdict"),
        "{out}"
    );
    let note = "note: `queries` is a Polygon package for Windows (its `doall.bat` ends its \
                lines with CRLF): 4 test files (inputs and answers) written with CRLF line \
                endings are read with each CRLF turned into LF; the files themselves are left \
                as they are";
    assert_eq!(run.stderr().matches(note).count(), 1, "{}", run.stderr());
    // Test 03 was run and checked against the empty answer.
    let report = crate::support::report(&dir.read("r.json"));
    let replay = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|result| {
            result["submission"]
                .as_str()
                .unwrap()
                .ends_with("replay.py")
        })
        .unwrap();
    let verdicts: Vec<&str> = replay["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|test| test["verdict"].as_str().unwrap())
        .collect();
    assert_eq!(verdicts, ["AC", "AC", "AC"]);
    // The package itself is left as it was.
    assert_eq!(fs_err::read(package.join("tests/02")).unwrap(), committed);
}

/// A package nothing marks as made for Windows (its `doall.bat` ends its
/// lines with LF, and `problem.xml` does not say its tests are
/// well-formed) may mean the CRs of its tests: they are read byte for
/// byte, so here the validator refuses them.
#[test]
fn r29_an_unmarked_package_keeps_the_crs_of_its_tests() {
    let dir = Dir::new();
    let package = queries_package(&dir);
    let script = fs_err::read_to_string(package.join("doall.bat")).unwrap();
    fs_err::write(package.join("doall.bat"), script.replace("\r\n", "\n")).unwrap();
    let run = judge(&dir, &["grade", "--package", "queries"]);
    run.expect_code(2);
    let err = run.stderr();
    assert!(
        err.contains(
            "queries/tests/01`: the validator `validator` rejected the input: FAIL Expected EOLN"
        ),
        "{err}"
    );
    assert!(!err.contains("note:"), "{err}");
}

/// `problem.xml`'s `tests-wellformed` promises tests whose lines end with
/// LF alone, so CRLF tests in such a package are a Windows package's even
/// without a `doall.bat`.
#[test]
fn r29_well_formed_tests_written_with_crlf_are_read_as_lf() {
    let dir = Dir::new();
    let package = sum_package(&dir);
    let xml = package.join("problem.xml");
    let text = fs_err::read_to_string(&xml).unwrap();
    assert!(text.contains(r#"<property name="tests-wellformed" value="true"/>"#));
    // Only the main solution, to keep the run short.
    let start = text.find("<solutions>").unwrap();
    let end = text.find("</solutions>").unwrap();
    let main_only = format!(
        "{}<solutions>\n<solution tag=\"main\"><source path=\"solutions/sum.cpp\" \
         type=\"cpp.g++17\"/></solution>\n{}",
        &text[..start],
        &text[end..]
    );
    fs_err::write(&xml, main_only).unwrap();
    for name in ["01", "01.a", "02", "03", "04"] {
        let path = package.join("tests").join(name);
        let windows = as_windows_text(&fs_err::read_to_string(&path).unwrap());
        fs_err::write(&path, windows).unwrap();
    }
    let run = judge(&dir, &["grade", "--package", "sum"]);
    run.expect_code(0);
    assert!(
        run.stdout().contains("ok       sum/solutions/sum.cpp: AC"),
        "{}",
        run.stdout()
    );
    assert!(
        run.stderr().contains(
            "(`problem.xml` marks its tests well-formed (`tests-wellformed`), a promise of LF \
             line endings): 5 test files (inputs and answers) written with CRLF line endings \
             are read with each CRLF turned into LF"
        ),
        "{}",
        run.stderr()
    );
}

/// A testlib checker that scores: the exact sum is accepted, one too many
/// is worth 15 points (`quitp`, exit code 7), anything else is wrong.
const SCORING_CHECKER: &str = r#"#include "testlib.h"

int main(int argc, char* argv[]) {
    registerTestlibCmd(argc, argv);
    long long expected = ans.readLong();
    long long found = ouf.readLong();
    if (found == expected)
        quitf(_ok, "the sum is %lld", found);
    if (found == expected + 1)
        quitp(15, "one too many");
    quitf(_wa, "expected %lld, found %lld", expected, found);
}
"#;

/// See: issue #29. The points a testlib checker gives (`quitp`) are the
/// test's score: `overflow.py` is one too many on tests 03 and 04, so it
/// scores group 1 whole (40: both its tests are accepted) and 15 of test
/// 04's 60; it was a judge error (exit code 7 undefined).
#[test]
fn r29_the_points_of_a_testlib_checker_are_the_tests_score() {
    let dir = Dir::new();
    let package = sum_package(&dir);
    dir.create("sum/files/check.cpp", SCORING_CHECKER);
    let xml = package.join("problem.xml");
    let text = fs_err::read_to_string(&xml).unwrap();
    let start = text.find("<solutions>").unwrap();
    let end = text.find("</solutions>").unwrap();
    let solutions = r#"<solutions>
<solution tag="main"><source path="solutions/sum.cpp" type="cpp.g++17"/></solution>
<solution tag="accepted"><source path="solutions/overflow.py" type="python.3"/></solution>
"#;
    fs_err::write(
        &xml,
        format!("{}{solutions}{}", &text[..start], &text[end..]),
    )
    .unwrap();
    let run = judge(&dir, &["grade", "--package", "sum", "--json", "r.json"]);
    run.expect_code(0);
    let report = crate::support::report(&dir.read("r.json"));
    let overflow = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|result| {
            result["submission"]
                .as_str()
                .unwrap()
                .ends_with("overflow.py")
        })
        .unwrap();
    assert_eq!(overflow["verdict"], "AC", "{overflow:#}");
    assert_eq!(overflow["score"], 55.0, "{overflow:#}");
    assert_eq!(overflow["max_score"], 100.0, "{overflow:#}");
    let test = |name: &str| {
        overflow["tests"]
            .as_array()
            .unwrap()
            .iter()
            .find(|test| test["name"] == name)
            .unwrap()
            .clone()
    };
    assert_eq!(test("04")["verdict"], "AC");
    assert_eq!(test("04")["message"], "points 15 one too many");
    assert_eq!(
        test("04")["validator_score"],
        serde_json::json!({ "score": 15.0 })
    );
    let group = |name: &str| {
        overflow["groups"]
            .as_array()
            .unwrap()
            .iter()
            .find(|group| group["name"] == name)
            .unwrap_or_else(|| panic!("no group {name}: {overflow:#}"))["score"]
            .clone()
    };
    assert_eq!(group("1"), 40.0);
    assert_eq!(group("2"), 15.0);
}
