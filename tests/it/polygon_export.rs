//! `judge export --kattis` of a Polygon package (issue #29, item 4): the
//! fixtures `tests/fixtures/polygon/sum` and `guess` (interactive: a testlib
//! interactor, then the checker on what it wrote) exported, its testlib checker and
//! validator carried as one C++ file each under Kattis' protocol, its
//! solutions filed by tag (the "or" tags left out, said why), then graded
//! back by `judge grade --package` and checked by Kattis' `verifyproblem`.

use crate::polygon::{judge, sum_package};
use crate::support::Dir;
use std::path::Path;
use std::process::{Command, Stdio};

/// The fixture exported to `dir/export`; returns what the command said
/// (stdout, then stderr, where the files left out are listed).
fn export(dir: &Dir) -> String {
    sum_package(dir);
    let run = judge(
        dir,
        &["export", "--kattis", "sum", "--problems-dir", ".", "export"],
    );
    run.expect_code(0);
    format!("{}{}", run.stdout(), run.stderr())
}

#[test]
fn a_polygon_package_is_exported_with_its_programs_and_its_solutions_by_tag() {
    let dir = Dir::new();
    let out = export(&dir);
    let export = dir.path().join("export");
    for file in [
        "output_validator/judge_testlib_checker.cpp",
        "input_validators/judge_testlib_validator.cpp",
        "submissions/accepted/sum.cpp",
        "submissions/accepted/sum.py",
        "submissions/wrong_answer/overflow.py",
        // Kattis has no presentation error: a rejected output is WA.
        "submissions/wrong_answer/words.py",
        "submissions/time_limit_exceeded/spin.py",
        "data/sample/01.in",
        "data/sample/01.ans",
        "data/secret/04.in",
        "statement/problem.en.md",
    ] {
        assert!(export.join(file).is_file(), "{file} missing:\n{out}");
    }
    // The checker decides; no default comparison is set beside it.
    assert!(!export.join("data/testdata.yaml").exists(), "{out}");
    assert!(!export.join("data/secret/01.in").exists(), "{out}");
    for (file, why) in [
        (
            "solutions/count.py",
            "tag `time-limit-exceeded-or-accepted`: a set of verdicts",
        ),
        ("solutions/crash.py", "tag `rejected`: a set of verdicts"),
        ("solutions/draft.py", "tag `do-not-run`"),
        ("problem.xml's groups and points", "the export is pass-fail"),
    ] {
        assert!(
            out.contains(&format!("not exported: {file}: {why}")),
            "{file}:\n{out}"
        );
        assert!(!export.join(format!("submissions/{file}")).exists());
    }
    let checker =
        fs_err::read_to_string(export.join("output_validator/judge_testlib_checker.cpp")).unwrap();
    // One file: testlib inlined, never included from the host.
    assert!(
        !checker.contains("#include \"testlib.h\""),
        "testlib.h included"
    );
    assert!(checker.contains("// testlib.h, inlined"));

    // Graded back, every carried solution gets its folder's verdict.
    let run = judge(&dir, &["grade", "--package", "export"]);
    let out = run.stdout();
    assert!(
        out.contains("5 of 5 submissions got their folder's verdict"),
        "{out}\n{}",
        run.stderr()
    );
    run.expect_code(0);
}

/// Compiles an exported program with the host's g++, as a judging host
/// would.
fn compile(source: &Path, binary: &Path) {
    let status = Command::new("g++")
        .args(["-O2", "-std=gnu++17", "-o"])
        .arg(binary)
        .arg(source)
        .status()
        .expect("g++ runs");
    assert!(status.success(), "{} does not compile", source.display());
}

/// Runs `program args < stdin`; its exit code.
fn exit_code(program: &Path, args: &[&Path], stdin: &str) -> i32 {
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    use std::io::Write as _;
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    child.wait().unwrap().code().unwrap_or(-1)
}

#[test]
fn the_exported_checker_and_validator_speak_kattis_protocol() {
    let dir = Dir::new();
    export(&dir);
    let export = dir.path().join("export");
    let checker = dir.path().join("checker");
    let validator = dir.path().join("validator");
    compile(
        &export.join("output_validator/judge_testlib_checker.cpp"),
        &checker,
    );
    compile(
        &export.join("input_validators/judge_testlib_validator.cpp"),
        &validator,
    );
    let input = export.join("data/sample/01.in");
    let answer = export.join("data/sample/01.ans");
    let expected = fs_err::read_to_string(&answer).unwrap();
    for (output, code, message) in [
        (expected.as_str(), 42, "ok the sum is"),
        ("4\n", 43, "wrong answer expected 3, found 4"),
        // testlib's presentation error: rejected too.
        ("three\n", 43, "wrong output format"),
    ] {
        let feedback = tempfile::tempdir().unwrap();
        let got = exit_code(&checker, &[&input, &answer, feedback.path()], output);
        let said = fs_err::read_to_string(feedback.path().join("judgemessage.txt")).unwrap();
        assert_eq!(got, code, "{output:?}: {said}");
        assert!(said.contains(message), "{output:?}: {said}");
    }
    let valid = fs_err::read_to_string(&input).unwrap();
    assert_eq!(exit_code(&validator, &[], &valid), 42);
    assert_eq!(exit_code(&validator, &[], "1 2 3\n"), 43);
    assert_eq!(exit_code(&validator, &[], "-5 2\n"), 43);
}

/// The interactive fixture `guess` exported to `dir/export`.
fn export_guess(dir: &Dir) {
    let source = crate::support::repository().join("tests/fixtures/polygon/guess");
    let problems = dir.path().join("problems");
    for entry in walkdir::WalkDir::new(&source) {
        let entry = entry.unwrap();
        let copy = problems
            .join("guess")
            .join(entry.path().strip_prefix(&source).unwrap());
        if entry.file_type().is_dir() {
            fs_err::create_dir_all(&copy).unwrap();
        } else {
            fs_err::copy(entry.path(), &copy).unwrap();
        }
    }
    dir.create("judge.toml", "[limits]\nwall-time-factor = 10\n");
    judge(
        dir,
        &[
            "export",
            "--kattis",
            "guess",
            "--problems-dir",
            "problems",
            "export",
        ],
    )
    .expect_code(0);
}

#[test]
fn an_interactive_polygon_package_exports_its_interactor_and_checker_in_one_program() {
    let dir = Dir::new();
    export_guess(&dir);
    let export = dir.path().join("export");
    let yaml = fs_err::read_to_string(export.join("problem.yaml")).unwrap();
    assert!(yaml.contains("\ntype: interactive\n"), "{yaml}");
    assert!(export
        .join("output_validator/judge_testlib_interactor.cpp")
        .is_file());
    // The interactor allows 100 questions, the checker 30: dawdle.py is
    // rejected by the checker, after the interactor accepted its guess.
    let run = judge(&dir, &["grade", "--package", "export"]);
    let out = run.stdout();
    for (file, verdict) in [
        ("accepted/search.cpp", "AC"),
        ("wrong_answer/dawdle.py", "WA"),
        ("wrong_answer/linear.py", "WA"),
        ("wrong_answer/wrong.py", "WA"),
    ] {
        assert!(
            out.contains(&format!("ok       export/submissions/{file}: {verdict}")),
            "{file}: {out}\n{}",
            run.stderr()
        );
    }
    assert!(out.contains("43 questions, more than 30"), "{out}");
    run.expect_code(0);
}

#[test]
#[ignore = "needs problemtools' verifyproblem: .ci/run installs it into target/problemtools and \
            runs the ignored tests"]
fn kattis_verifyproblem_accepts_an_exported_interactive_polygon_package() {
    let dir = Dir::new();
    export_guess(&dir);
    let out = crate::export::verify(&dir, "export", false);
    assert!(out.contains("tested: 0 errors"), "{out}");
}

#[test]
#[ignore = "needs problemtools' verifyproblem: .ci/run installs it into target/problemtools and \
            runs the ignored tests"]
fn kattis_verifyproblem_accepts_an_exported_polygon_package() {
    let dir = Dir::new();
    export(&dir);
    let out = crate::export::verify(&dir, "export", false);
    assert!(out.contains("tested: 0 errors"), "{out}");
}

/// See: issue #29 (found by a break-it review). A testlib validator may end
/// its `main` without `return 0;` (most do: `inf.readEof(); }`); moved into
/// a namespace it is an ordinary function, which must not flow off its
/// end, so the export ends it with `return 0;`: every valid test is 42.
#[test]
fn a_validator_whose_main_ends_without_return_accepts_valid_tests() {
    let dir = Dir::new();
    let package = sum_package(&dir);
    let validator_source = package.join("files/validator.cpp");
    let text = fs_err::read_to_string(&validator_source).unwrap();
    assert!(text.contains("    return 0;\n"));
    fs_err::write(&validator_source, text.replace("    return 0;\n", "")).unwrap();
    let run = judge(
        &dir,
        &["export", "--kattis", "sum", "--problems-dir", ".", "export"],
    );
    run.expect_code(0);
    let validator = dir.path().join("validator");
    compile(
        &dir.path()
            .join("export/input_validators/judge_testlib_validator.cpp"),
        &validator,
    );
    let valid = fs_err::read_to_string(dir.path().join("export/data/sample/01.in")).unwrap();
    for _ in 0..3 {
        assert_eq!(exit_code(&validator, &[], &valid), 42);
    }
    assert_eq!(exit_code(&validator, &[], "1 2 3\n"), 43);
}
