//! `judge export --kattis` and `judge new` (issue #9): an exported package
//! reads back and grades as the original; a new package validates and
//! grades out of the box.

use crate::support::{repository, Dir};
use std::path::Path;

/// `(file name, verdict)` for each line of `judge run`'s table header
/// ("rooks NAME (LANGUAGE): VERDICT N/M").
fn run_verdicts(stdout: &str) -> Vec<(String, String)> {
    stdout
        .lines()
        .filter(|line| line.starts_with("rooks "))
        .filter_map(|line| {
            let path = line.split_whitespace().nth(1)?;
            let name = Path::new(path).file_name()?.to_string_lossy().into_owned();
            let verdict = line
                .split("): ")
                .nth(1)?
                .split_whitespace()
                .next()?
                .to_owned();
            Some((name, verdict))
        })
        .collect()
}

#[test]
fn an_exported_rooks_package_grades_the_bundled_examples_identically() {
    let dir = Dir::new();
    dir.judge(&["export", "--kattis", "rooks", "rooks-kattis"])
        .expect_code(0);
    for file in [
        "problem.yaml",
        "data/sample/sample-1.in",
        "data/sample/sample-1.ans",
        "data/secret/small-001.ans",
    ] {
        assert!(
            dir.path().join("rooks-kattis").join(file).is_file(),
            "{file}"
        );
    }
    let script = dir.read("rooks-kattis/output_validators/judge_check/judge_check.py");
    assert!(script.contains("judge check"), "{script}");

    let examples = repository().join("submissions/rooks");
    let mut files = Vec::new();
    for folder in fs_err::read_dir(&examples).unwrap() {
        let folder = folder.unwrap().path();
        let name = folder.file_name().unwrap().to_string_lossy().into_owned();
        for file in fs_err::read_dir(&folder).unwrap() {
            let file = file.unwrap().path();
            let target = format!(
                "rooks-kattis/submissions/{name}/{}",
                file.file_name().unwrap().to_string_lossy()
            );
            dir.create(&target, fs_err::read(&file).unwrap());
            files.push(file.display().to_string());
        }
    }
    files.sort();
    let graded = dir.judge(&["grade", "--package", "rooks-kattis"]);
    graded.expect_code(0);
    let mut from_package: Vec<(String, String)> = graded
        .stdout()
        .lines()
        .filter(|line| line.starts_with("ok "))
        .map(|line| {
            let path = line
                .split_whitespace()
                .nth(1)
                .unwrap()
                .trim_end_matches(':');
            let name = Path::new(path)
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into_owned();
            (
                name,
                line.split(": ")
                    .nth(1)
                    .unwrap()
                    .split_whitespace()
                    .next()
                    .unwrap()
                    .to_owned(),
            )
        })
        .collect();
    from_package.sort();
    assert_eq!(from_package.len(), files.len(), "{}", graded.stdout());

    let mut args = vec!["run", "rooks", "--random", "0"];
    args.extend(files.iter().map(String::as_str));
    let run = dir.judge(&args);
    let mut from_bundled = run_verdicts(&run.stdout());
    from_bundled.sort();
    assert_eq!(from_package, from_bundled, "{}", run.stdout());
}

#[test]
fn exporting_into_a_folder_that_is_not_empty_is_refused() {
    let dir = Dir::new();
    dir.create("taken/file", "x");
    let run = dir.judge(&["export", "--kattis", "mayan", "taken"]);
    run.expect_code(2);
    assert!(
        run.stderr()
            .contains("`taken` exists and is not an empty folder"),
        "{}",
        run.stderr()
    );
}

#[test]
fn a_new_package_validates_generates_and_grades_out_of_the_box() {
    let dir = Dir::new();
    dir.judge(&["new", "hello"]).expect_code(0);
    let manifest = dir.read("problems/hello/problem.toml");
    for key in [
        "engine",
        "reference",
        "generator",
        "exit-codes",
        "tool-time-limit-ms",
        "absolute-tolerance",
        "generated",
    ] {
        assert!(manifest.contains(key), "{key} is not in:\n{manifest}");
    }
    let with = |args: &[&str]| {
        let mut all = args.to_vec();
        all.extend_from_slice(&["--problems-dir", "problems"]);
        dir.judge(&all)
    };
    with(&["validate", "hello", "problems/hello/tests/sample-1.in"]).expect_code(0);
    with(&[
        "gen",
        "hello",
        "--profile",
        "large",
        "--count",
        "3",
        "--out",
        "gen",
    ])
    .expect_code(0);
    for name in ["001", "002", "003"] {
        with(&["validate", "hello", &format!("gen/{name}.in")]).expect_code(0);
    }
    let graded = dir.judge(&["grade", "--package", "problems/hello"]);
    graded.expect_code(0);
    assert!(
        graded
            .stdout()
            .contains("2 of 2 submissions got their folder's verdict"),
        "{}",
        graded.stdout()
    );
    with(&[
        "run",
        "hello",
        "problems/hello/reference.py",
        "--random",
        "4",
    ])
    .expect_code(0);
    // A second `new` never overwrites.
    dir.judge(&["new", "hello"]).expect_code(2);
}

#[test]
fn a_package_with_programs_is_exported_as_far_as_kattis_can_say_it() {
    let dir = Dir::new();
    dir.judge(&["new", "hello"]).expect_code(0);
    // The scaffold's validator follows testlib's exit codes: refused.
    let run = dir.judge(&[
        "export",
        "--kattis",
        "hello",
        "out",
        "--problems-dir",
        "problems",
    ]);
    run.expect_code(2);
    assert!(
        run.stderr()
            .contains("its validator follows testlib's exit codes"),
        "{}",
        run.stderr()
    );

    let manifest = dir
        .read("problems/hello/problem.toml")
        .replace("exit-codes = \"testlib\"", "exit-codes = \"kattis\"");
    dir.create("problems/hello/problem.toml", manifest);
    dir.create(
        "problems/hello/validator.py",
        "import sys\nlines = sys.stdin.read().split('\\n')\n\
         ok = len(lines) == 3 and lines[0].isdigit() and len(lines[1].split()) == int(lines[0])\n\
         sys.exit(42 if ok else 43)\n",
    );
    dir.judge(&[
        "export",
        "--kattis",
        "hello",
        "out",
        "--problems-dir",
        "problems",
    ])
    .expect_code(0);
    let yaml = dir.read("out/problem.yaml");
    assert!(
        yaml.contains("validation: default\nvalidator_flags: \"case_sensitive\""),
        "{yaml}"
    );
    assert!(dir
        .path()
        .join("out/submissions/accepted/reference.py")
        .is_file());
    assert!(dir
        .path()
        .join("out/input_validators/validator/validator.py")
        .is_file());
    let graded = dir.judge(&["grade", "--package", "out"]);
    graded.expect_code(0);
    assert!(
        graded
            .stdout()
            .contains("ok       out/submissions/wrong_answer/off_by_one.py: WA"),
        "{}",
        graded.stdout()
    );
}
