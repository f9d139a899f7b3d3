//! Polygon packages (issue #29), what a break-it pass found: a package
//! `problem.xml` contradicts is refused with its file, line and names; a
//! main solution that crashes is named as what it is; the id commands
//! take is the one `judge problems` lists; an export never writes into
//! the package; a main solution that times out gets a hint; a solution
//! compiles with the C++ standard its `type` names.

use crate::polygon::{judge, sum_package};
use crate::support::Dir;
use std::path::Path;

/// `problem.xml` of the package in `package` with `from` replaced by `to`
/// (once, and it must be there).
fn edit_xml(package: &Path, from: &str, to: &str) {
    let xml = package.join("problem.xml");
    let text = fs_err::read_to_string(&xml).unwrap();
    assert!(text.contains(from), "the fixture holds `{from}`");
    fs_err::write(&xml, text.replacen(from, to, 1)).unwrap();
}

/// Only the solutions `solutions` (tag, path) in `problem.xml`, each of
/// type `cpp.g++17`.
fn keep_solutions(package: &Path, solutions: &[(&str, &str)]) {
    let typed: Vec<(&str, &str, &str)> = solutions
        .iter()
        .map(|(tag, path)| (*tag, *path, "cpp.g++17"))
        .collect();
    keep_typed_solutions(package, &typed);
}

/// Only the solutions `solutions` (tag, path, Polygon's `type`) in
/// `problem.xml`.
fn keep_typed_solutions(package: &Path, solutions: &[(&str, &str, &str)]) {
    let xml = package.join("problem.xml");
    let text = fs_err::read_to_string(&xml).unwrap();
    let start = text.find("<solutions>").unwrap();
    let end = text.find("</solutions>").unwrap();
    let listed: String = solutions
        .iter()
        .map(|(tag, path, kind)| {
            format!(
                "<solution tag=\"{tag}\"><source path=\"{path}\" type=\"{kind}\"/></solution>\n"
            )
        })
        .collect();
    fs_err::write(
        &xml,
        format!("{}<solutions>\n{listed}{}", &text[..start], &text[end..]),
    )
    .unwrap();
}

/// `judge grade --package sum` refuses the package: exit 2, and stderr
/// holds `wanted`.
fn refused(dir: &Dir, wanted: &str) {
    let run = judge(dir, &["grade", "--package", "sum"]);
    run.expect_code(2);
    let err = run.stderr();
    assert!(err.contains(wanted), "{err}");
    assert!(err.contains("sum/problem.xml`"), "{err}");
}

/// See: issue #29 break-it. Two solutions tagged `main` were graded both,
/// the first answering the tests, silently.
#[test]
fn r29_two_main_solutions_are_refused_with_both_names() {
    let dir = Dir::new();
    let package = sum_package(&dir);
    edit_xml(
        &package,
        r#"<solution tag="accepted">"#,
        r#"<solution tag="main">"#,
    );
    refused(
        &dir,
        "line 68: `<solution>`: `solutions/sum.py` and `solutions/sum.cpp` (line 65) are both \
         tagged `main`",
    );
}

/// See: issue #29 break-it. A group defined twice was merged silently.
#[test]
fn r29_a_group_defined_twice_is_refused() {
    let dir = Dir::new();
    let package = sum_package(&dir);
    edit_xml(
        &package,
        r#"name="2" points-policy="each-test""#,
        r#"name="1" points-policy="each-test""#,
    );
    refused(
        &dir,
        "line 29: `<group>`: the group `1` is defined twice in the testset `tests`, here and on \
         line 24",
    );
}

/// See: issue #29 break-it. Two generators with one stem: `gen 10 20 1`
/// ran one of them.
#[test]
fn r29_two_generators_with_one_name_are_refused() {
    let dir = Dir::new();
    let package = sum_package(&dir);
    edit_xml(
        &package,
        "<executables>",
        "<executables>\n<executable><source path=\"files/gen.py\" type=\"python.3\"/></executable>",
    );
    refused(
        &dir,
        "`<executable>`: `files/gen.cpp` and `files/gen.py` (line 42) share the name `gen`: a \
         test's `cmd` names a generator by it",
    );
}

#[test]
fn r29_a_solution_listed_twice_is_refused() {
    let dir = Dir::new();
    let package = sum_package(&dir);
    edit_xml(&package, "solutions/words.py", "solutions/overflow.py");
    refused(
        &dir,
        "line 74: `<solution>`: `solutions/overflow.py` is listed twice, here and on line 71",
    );
}

/// See: issue #29 break-it. A path pattern leading out of the package was
/// refused without its line.
#[test]
fn r29_a_path_pattern_out_of_the_package_names_its_line() {
    let dir = Dir::new();
    let package = sum_package(&dir);
    edit_xml(
        &package,
        "<input-path-pattern>tests/%02d<",
        "<input-path-pattern>../%02d<",
    );
    refused(
        &dir,
        "line 14: `<input-path-pattern>`: `../01` is not a path inside the package",
    );
}

/// See: issue #29 break-it. A main solution that crashed on a test made
/// every solution's JE there say "the reference solver rejected the
/// input": it names the package's main solution, the signal and the test.
#[test]
fn r29_a_crashing_main_solution_is_named_with_its_signal_and_test() {
    let dir = Dir::new();
    let package = sum_package(&dir);
    keep_solutions(
        &package,
        &[
            ("main", "solutions/sum.cpp"),
            ("accepted", "solutions/right.cpp"),
        ],
    );
    let right = fs_err::read_to_string(package.join("solutions/sum.cpp")).unwrap();
    dir.create("sum/solutions/right.cpp", right);
    // Crashes on test 03 (680620 574506) and 04, answers 02 (13 18).
    dir.create(
        "sum/solutions/sum.cpp",
        "#include <cstdio>\nint main() {\n    long long a, b;\n    if (scanf(\"%lld %lld\", &a, \
         &b) != 2) return 1;\n    if (a > 1000) { volatile int* p = nullptr; *p = 1; }\n    \
         printf(\"%lld\\n\", a + b);\n}\n",
    );
    let run = judge(&dir, &["grade", "--package", "sum", "--json", "r.json"]);
    run.expect_code(3);
    let report = crate::support::report(&dir.read("r.json"));
    let right = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|result| {
            result["submission"]
                .as_str()
                .unwrap()
                .ends_with("right.cpp")
        })
        .unwrap();
    let test = right["tests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|test| test["name"] == "03")
        .unwrap();
    assert_eq!(test["verdict"], "JE", "{test:#}");
    let message = test["message"].as_str().unwrap();
    assert!(
        message.starts_with(
            "no answer for test 03: the package's main solution `solutions/sum.cpp` was killed \
             by signal 11 (SIGSEGV)"
        ),
        "{message}"
    );
    assert!(!message.contains("rejected the input"), "{message}");
}

/// See: issue #29 break-it. `judge problems` listed `<problem
/// short-name>`, which no command took: it lists the folder's name, and
/// the short name stays the title when there is no other.
#[test]
fn r29_problems_lists_the_name_commands_take() {
    let dir = Dir::new();
    let package = sum_package(&dir);
    fs_err::create_dir(dir.path().join("contest")).unwrap();
    fs_err::rename(&package, dir.path().join("contest/a-plus-b")).unwrap();
    let run = judge(&dir, &["problems", "--problems-dir", "contest"]);
    run.expect_code(0);
    let out = run.stdout();
    let line = out
        .lines()
        .find(|line| line.contains("Sum of Two"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(line.starts_with("a-plus-b "), "{out}");
    assert!(!out.lines().any(|line| line.starts_with("sum ")), "{out}");
}

/// See: issue #29 break-it. `judge export` into the package's own folder
/// wrote the export there; into a file it said too little.
#[test]
fn r29_an_export_never_writes_into_the_package() {
    let dir = Dir::new();
    let package = sum_package(&dir);
    let run = judge(
        &dir,
        &[
            "export",
            "--kattis",
            "sum",
            "--problems-dir",
            ".",
            "sum/kattis",
        ],
    );
    run.expect_code(2);
    assert!(
        run.stderr()
            .contains("`sum/kattis` is inside the package's own folder `./sum`"),
        "{}",
        run.stderr()
    );
    assert!(!package.join("kattis").exists());
    dir.create("taken", "x");
    let run = judge(
        &dir,
        &["export", "--kattis", "sum", "--problems-dir", ".", "taken"],
    );
    run.expect_code(2);
    assert!(
        run.stderr()
            .contains("`taken` exists and is a file; the export is a folder"),
        "{}",
        run.stderr()
    );
    assert_eq!(dir.read("taken"), "x");
}

/// See: issue #29 break-it. A main solution that times out here, though
/// Polygon's machine met its limit, gets a hint at the language's
/// `time-factor`.
#[test]
fn r29_a_main_solution_out_of_time_gets_a_hint() {
    let dir = Dir::new();
    let package = sum_package(&dir);
    keep_solutions(&package, &[("main", "solutions/sum.cpp")]);
    // The tests keep their answers: the slow main solution does not answer them.
    for name in ["02", "03", "04"] {
        let input = dir.read(&format!("sum/tests/{name}"));
        let sum: i64 = input
            .split_whitespace()
            .map(|word| word.parse::<i64>().unwrap())
            .sum();
        dir.create(&format!("sum/tests/{name}.a"), format!("{sum}\n"));
    }
    dir.create(
        "sum/solutions/sum.cpp",
        "#include <cstdio>\nint main() {\n    long long a, b;\n    if (scanf(\"%lld %lld\", &a, \
         &b) != 2) return 1;\n    for (volatile long long i = 0; i >= 0; ++i) {}\n    \
         printf(\"%lld\\n\", a + b);\n}\n",
    );
    let run = judge(&dir, &["grade", "--package", "sum"]);
    run.expect_code(1);
    assert!(
        run.stdout().contains("sum/solutions/sum.cpp: TLE"),
        "{}",
        run.stdout()
    );
    assert!(
        run.stderr().contains(
            "\nhint: `sum/solutions/sum.cpp` (the package's main solution) exceeded the time limit \
             here, which Polygon's machine met; when this host is slower, give its language a \
             `time-factor` in judge.toml ([languages.cpp] time-factor = 1.5"
        ),
        "{}",
        run.stderr()
    );
}

/// See: issue #29 break-it. Every C++ source compiled with the language's
/// one `-std=gnu++17`: a solution of `type="cpp.g++20"` using C++20 did not
/// compile. It compiles as C++20, and one of `cpp.g++17` as C++17.
#[test]
fn r29_a_solution_compiles_with_the_standard_its_type_names() {
    let dir = Dir::new();
    let package = sum_package(&dir);
    // `consteval` is C++20: g++ refuses it under -std=c++17.
    let modern = "#include <cstdio>\nconsteval long long twice(long long x) { return 2 * x; }\n\
                  int main() {\n    long long a, b;\n    if (scanf(\"%lld %lld\", &a, &b) != 2) \
                  return 1;\n    printf(\"%lld\\n\", a + b + twice(0));\n}\n";
    dir.create("sum/solutions/modern.cpp", modern);
    dir.create("sum/solutions/modern17.cpp", modern);
    keep_typed_solutions(
        &package,
        &[
            ("main", "solutions/sum.cpp", "cpp.g++17"),
            ("accepted", "solutions/modern.cpp", "cpp.g++20"),
            ("rejected", "solutions/modern17.cpp", "cpp.g++17"),
        ],
    );
    let run = judge(&dir, &["grade", "--package", "sum"]);
    let out = run.stdout();
    assert!(
        out.contains("ok       sum/solutions/modern.cpp: AC"),
        "{out}{}",
        run.stderr()
    );
    assert!(
        out.contains("MISMATCH sum/solutions/modern17.cpp: CE"),
        "{out}{}",
        run.stderr()
    );
    run.expect_code(1);
}

/// See: issue #29 break-it. A test file that was a symbolic link out of
/// the package was followed: every solution got the host file as input,
/// and the report echoed it. A test's input or answer, the checker and a
/// resource of `files/` that leads out of the package are refused, naming
/// the line and the link, the target unread; so is a link on the way (the
/// folder `tests/` itself).
#[test]
fn r29_a_link_out_of_the_package_is_refused_unread() {
    for (link, line, element) in [
        ("tests/01", 17, "<test>"),
        ("tests/01.a", 17, "<test>"),
        ("files/check.cpp", 54, "<checker>"),
        ("files/testlib.h", 39, "<file>"),
        ("tests", 17, "<test>"),
    ] {
        let dir = Dir::new();
        let package = sum_package(&dir);
        let secret = dir.path().join("secret");
        fs_err::create_dir_all(&secret).unwrap();
        fs_err::write(secret.join("01"), "7 8\n").unwrap();
        fs_err::write(secret.join("01.a"), "15\n").unwrap();
        let target = if link == "tests" {
            secret.clone()
        } else {
            fs_err::copy(package.join(link), secret.join("copy")).unwrap();
            secret.join("copy")
        };
        let path = package.join(link);
        if path.is_dir() {
            fs_err::remove_dir_all(&path).unwrap();
        } else {
            fs_err::remove_file(&path).unwrap();
        }
        std::os::unix::fs::symlink(&target, &path).unwrap();
        refused(
            &dir,
            &format!(
                "line {line}: `{element}`: refused `sum/{link}`: it is a symbolic link (symlink) \
                 to a file outside the package `sum`; its target was not read"
            ),
        );
    }
}

/// See: issue #29 break-it. An answer path pattern equal to the input's
/// was accepted, and every input was taken as its own answer.
#[test]
fn r29_an_answer_pattern_naming_the_inputs_is_refused() {
    let dir = Dir::new();
    let package = sum_package(&dir);
    edit_xml(
        &package,
        "<answer-path-pattern>tests/%02d.a<",
        "<answer-path-pattern>tests/%02d<",
    );
    refused(
        &dir,
        "line 15: `<answer-path-pattern>`: `tests/%02d` names the input files",
    );
}

/// See: issue #29 break-it. A testset that is not graded (`pretests`) was
/// read and checked, and its limit of 1 byte stopped the grade of `tests`.
#[test]
fn r29_a_testset_that_is_not_graded_is_not_read() {
    let dir = Dir::new();
    let package = sum_package(&dir);
    keep_solutions(&package, &[("main", "solutions/sum.cpp")]);
    edit_xml(
        &package,
        "<testset name=\"tests\">",
        "<testset name=\"pretests\"><time-limit>0</time-limit><memory-limit>1</memory-limit>\
         </testset>\n<testset name=\"tests\">",
    );
    let run = judge(&dir, &["grade", "--package", "sum"]);
    run.expect_code(0);
}

/// See: issue #29 break-it. A zipped package's load error named the file
/// in the cache folder it was unpacked to; it names the zip.
#[test]
fn r29_a_zipped_package_error_names_the_zip() {
    use std::io::Write as _;
    let dir = Dir::new();
    let package = sum_package(&dir);
    edit_xml(&package, "<time-limit>1000<", "<time-limit>1s<");
    let zip_path = dir.path().join("sum.zip");
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
    let run = judge(&dir, &["grade", "--package", "sum.zip"]);
    run.expect_code(2);
    let err = run.stderr();
    assert!(
        err.contains("sum.zip/problem.xml`: line 11: `<time-limit>`"),
        "{err}"
    );
    assert!(!err.contains("archives"), "{err}");
}

/// See: issue #29 break-it. `problem.xml` itself, a symbolic link out of
/// the package, was read: a package could be made of a host file. It is
/// opened beneath the package's folder and refused unread, naming it.
#[test]
fn r29_a_problem_xml_linking_out_of_the_package_is_refused_unread() {
    let dir = Dir::new();
    let package = sum_package(&dir);
    let outside = dir.path().join("elsewhere.xml");
    fs_err::rename(package.join("problem.xml"), &outside).unwrap();
    std::os::unix::fs::symlink(&outside, package.join("problem.xml")).unwrap();
    refused(
        &dir,
        "failed to load `sum/problem.xml`: refused `sum/problem.xml`: it is a symbolic link \
         (symlink) to a file outside the package `sum`; its target was not read",
    );
    let run = judge(&dir, &["grade", "--package", "sum"]);
    assert!(
        run.stderr()
            .contains("hint: put the file itself in the package"),
        "{}",
        run.stderr()
    );
    // A link inside the package is read as its target.
    fs_err::rename(&outside, package.join("files/problem.xml")).unwrap();
    fs_err::remove_file(package.join("problem.xml")).unwrap();
    std::os::unix::fs::symlink("files/problem.xml", package.join("problem.xml")).unwrap();
    let run = judge(&dir, &["grade", "--package", "sum"]);
    assert_ne!(run.code(), 2, "{}", run.stderr());
}

/// See: issue #29 break-it. A statement file that was a symbolic link out
/// of the package was copied into what `judge export` wrote: a host file
/// published with the problem. The export is refused, naming the link,
/// and writes no copy of the file.
#[test]
fn r29_an_export_refuses_a_statement_linking_out_of_the_package() {
    const SECRET: &str = "TOPSECRET statement of the host";
    let dir = Dir::new();
    let package = sum_package(&dir);
    let statement = package.join("statements/english/problem.tex");
    let outside = dir.create("host/problem.tex", SECRET);
    fs_err::remove_file(&statement).unwrap();
    std::os::unix::fs::symlink(&outside, &statement).unwrap();
    let run = judge(
        &dir,
        &["export", "--kattis", "sum", "--problems-dir", ".", "export"],
    );
    run.expect_code(2);
    let err = run.stderr();
    assert!(
        err.contains(
            "refused `./sum/statements/english/problem.tex`: it is a symbolic link (symlink) to \
             a file outside the package `./sum`; its target was not read"
        ),
        "{err}"
    );
    assert!(!run.stdout().contains("TOPSECRET") && !err.contains("TOPSECRET"));
    for entry in walkdir::WalkDir::new(dir.path().join("export"))
        .into_iter()
        .filter_map(Result::ok)
        .filter(|entry| entry.file_type().is_file())
    {
        let text = fs_err::read_to_string(entry.path()).unwrap_or_default();
        assert!(!text.contains("TOPSECRET"), "{}", entry.path().display());
    }
}
