//! Polygon packages (issue #29): `judge grade --package` on the fixture
//! `tests/fixtures/polygon/sum` (a package in Polygon's shape, with the
//! real testlib.h), as a folder and as a zip, with and without its
//! generated tests, and with a broken `problem.xml`.

use crate::support::{repository, Dir, Run};
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
        out.contains("7 of 7 submissions got their folder's verdict; 1 skipped"),
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
            .contains("7 of 7 submissions got their folder's verdict"),
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
        out.contains("6 of 7 submissions got their folder's verdict"),
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
