//! What a third red team found of issue 18's holes still open, each as the
//! attack itself, through the binary, as root and as an ordinary user the
//! test creates.

use crate::hostile2::{judge_in, open_dir, ordinary_user, rooks_tests, source};
use crate::support::{compiler_wrapper, embedding_program, is_root};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

fn mode(path: &Path, mode: u32) {
    fs_err::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// A teacher's compiler wrapper that is a compiled program (ELF, not a
/// script) in `course/bin/`: the compile must not read `course/tests` (the
/// `--tests` folder) or `course/solutions` through `.incbin`, which it
/// did when the wrapper's "installation prefix" `course/` was lent whole.
fn an_elf_wrapper_lends_no_course_folder(user: Option<(u32, u32)>) {
    assert!(
        is_root(),
        "this test needs root (it checks what the sandbox user may reach)"
    );
    let dir = open_dir();
    let course = dir.path().join("course");
    compiler_wrapper(&course, dir.path(), true);
    let solutions = course.join("solutions");
    fs_err::create_dir_all(&solutions).unwrap();
    mode(&solutions, 0o755);
    let tests = rooks_tests(&course);
    let answer = tests.join("sample-1.ans");
    mode(&answer, 0o644);
    let solution = solutions.join("answers.txt");
    fs_err::write(&solution, "5\n1\n5\n2\n4\n").unwrap();
    mode(&solution, 0o644);
    source(dir.path(), "tests.wc", &embedding_program(&answer));
    source(dir.path(), "solutions.wc", &embedding_program(&solution));
    source(
        dir.path(),
        "honest.wc",
        "#include <stdio.h>\nint main(void) { puts(\"5\\n1\\n5\\n2\\n4\"); return 0; }\n",
    );
    let judge = assert_cmd::cargo::cargo_bin!("judge");
    let (_, report, stderr) = judge_in(
        dir.path(),
        judge,
        user,
        &format!(
            "run rooks tests.wc solutions.wc honest.wc --tests {}",
            tests.display()
        ),
        "",
    );
    let verdicts: Vec<&str> = (0..3)
        .map(|index| report["results"][index]["verdict"].as_str().unwrap_or(""))
        .collect();
    // The wrapper works (an honest program is AC), but neither file is
    // there for the compile.
    assert_eq!(verdicts, ["CE", "CE", "AC"], "{report:#}\n{stderr}");
}

#[test]
#[ignore = "needs root (it checks what the sandbox user may reach); CI runs it as root: `cargo test --test it -- --ignored`"]
fn an_elf_compiler_wrapper_in_course_bin_lends_no_course_folder_as_root() {
    an_elf_wrapper_lends_no_course_folder(None);
}

#[test]
#[ignore = "needs root (it creates a user and runs the judge as that user); CI runs it as root: `cargo test --test it -- --ignored`"]
fn an_elf_compiler_wrapper_in_course_bin_lends_no_course_folder_without_root() {
    an_elf_wrapper_lends_no_course_folder(Some(ordinary_user()));
}

/// `--student-view` on hidden tests: a program that spins for a time chosen
/// from the input and then sleeps is TLE on the wall clock, and the message
/// said `(CPU time 137 ms)`: a figure of the hidden input in each row. All
/// its hidden tests must read the same.
#[test]
fn the_student_view_shows_no_cpu_time_of_a_hidden_tle() {
    let dir = open_dir();
    fs_err::write(
        dir.path().join("judge.toml"),
        "problems = [\"rooks\"]\nrandom-tests = 2\nstudent-view = true\n[limits]\ntime-limit-ms = 300\n",
    )
    .unwrap();
    let folder = dir.path().join("submissions/rooks");
    fs_err::create_dir_all(&folder).unwrap();
    source(
        &folder,
        "alice.py",
        "import sys, time\ndata = sys.stdin.read()\nend = time.process_time() + (len(data) % 7) \
         * 0.02\nwhile time.process_time() < end:\n    pass\ntime.sleep(60)\n",
    );
    let judge = assert_cmd::cargo::cargo_bin!("judge");
    let (_, report, stderr) = judge_in(dir.path(), judge, None, "grade", "");
    let tests = report["results"][0]["tests"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let hidden: Vec<&str> = tests
        .iter()
        .filter(|test| !test["name"].as_str().unwrap_or("").starts_with("sample"))
        .map(|test| test["message"].as_str().unwrap_or(""))
        .collect();
    assert!(hidden.len() > 2, "{report:#}\n{stderr}");
    for message in &hidden {
        assert!(
            message.starts_with("wall-clock time exceeded") && !message.contains("CPU time"),
            "{hidden:#?}"
        );
    }
}

/// The HTML pages showed a program's output with its control characters
/// raw (`\x1b[2J`, backspaces, a right-to-left override): what a reader
/// sees could differ from what was printed. They are shown visible, as in
/// the terminal.
#[test]
fn the_html_pages_show_control_characters_of_an_output_visible() {
    let dir = open_dir();
    let tests = rooks_tests(dir.path());
    source(
        dir.path(),
        "draw.py",
        "import sys\nsys.stdout.write('\\x1b[2J\\x08\\u202e5\\n')\n",
    );
    let judge = assert_cmd::cargo::cargo_bin!("judge");
    let (_, report, stderr) = judge_in(
        dir.path(),
        judge,
        None,
        &format!(
            "run rooks draw.py --tests {} --html page.html",
            tests.display()
        ),
        "",
    );
    let mut pages = vec![fs_err::read_to_string(dir.path().join("page.html")).unwrap()];
    for entry in fs_err::read_dir(dir.path().join("page")).unwrap() {
        pages.push(fs_err::read_to_string(entry.unwrap().path()).unwrap());
    }
    let all = pages.concat();
    assert!(all.contains("\\x1b[2J"), "{report:#}\n{stderr}");
    for raw in ['\u{1b}', '\u{8}', '\u{202e}'] {
        assert!(!all.contains(raw), "{raw:?} in a page");
    }
}

/// The judge asks a teacher's compiler where it is installed
/// (`-print-search-dirs`) outside any sandbox: that query must not inherit
/// the descriptors the judge was started with (`3<answers.txt`), which
/// it did (issue 18, item 3; a third red team's finding).
#[test]
fn a_compiler_asked_where_it_lives_inherits_no_descriptor() {
    let dir = open_dir();
    let tests = rooks_tests(dir.path());
    fs_err::write(dir.path().join("answers.txt"), "5\n1\n5\n2\n4\n").unwrap();
    let seen = dir.path().join("seen.txt");
    let probe = dir.path().join("probe-cc");
    fs_err::write(
        &probe,
        format!(
            "#!/bin/sh\nif [ \"$1\" = -print-search-dirs ]; then\n  echo asked >> '{seen}'\n  \
             [ -e /proc/$$/fd/3 ] && echo 'descriptor 3 open' >> '{seen}'\n  exit 1\nfi\n\
             exec gcc \"$@\"\n",
            seen = seen.display()
        ),
    )
    .unwrap();
    mode(&probe, 0o755);
    fs_err::write(
        dir.path().join("judge.toml"),
        format!(
            "random-tests = 0\n[languages.probed]\nextensions = [\"pc\"]\ncompile = [\"{}\", \
             \"-x\", \"c\", \"-o\", \"{{executable}}\", \"{{source}}\"]\nrun = [\"{{executable}}\"]\n",
            probe.display()
        ),
    )
    .unwrap();
    source(
        dir.path(),
        "honest.pc",
        "#include <stdio.h>\nint main(void) { puts(\"5\\n1\\n5\\n2\\n4\"); return 0; }\n",
    );
    let judge = assert_cmd::cargo::cargo_bin!("judge");
    let (_, report, stderr) = judge_in(
        dir.path(),
        judge,
        None,
        &format!("run rooks honest.pc --tests {}", tests.display()),
        "3<answers.txt",
    );
    let seen = fs_err::read_to_string(&seen).unwrap_or_default();
    assert!(
        seen.contains("asked"),
        "the compiler was never asked: {seen}\n{report:#}\n{stderr}"
    );
    assert!(
        !seen.contains("descriptor 3"),
        "the compiler query inherited descriptor 3: {seen}"
    );
}

/// `--student-view` in the terminal: the table's `time` column was the
/// slowest test, hidden ones included, so a program that spins for a time
/// chosen from a hidden input showed it there (a fourth red team's
/// finding). The terminal shows what the student view keeps: the samples'
/// times only, the same as the JSON report's.
#[test]
fn the_student_views_table_shows_no_time_of_a_hidden_test() {
    let dir = open_dir();
    fs_err::write(
        dir.path().join("judge.toml"),
        "problems = [\"rooks\"]\nrandom-tests = 3\nstudent-view = true\n",
    )
    .unwrap();
    let folder = dir.path().join("submissions/rooks");
    fs_err::create_dir_all(&folder).unwrap();
    let sample = fs_err::read_to_string(
        crate::support::repository().join("problems/rooks/tests/sample-1.in"),
    )
    .unwrap();
    let answer = fs_err::read_to_string(
        crate::support::repository().join("problems/rooks/tests/sample-1.ans"),
    )
    .unwrap();
    source(
        &folder,
        "alice.py",
        &format!(
            "import sys, time\ndata = sys.stdin.read()\nif data == {sample:?}:\n    \
             sys.stdout.write({answer:?})\nelse:\n    end = time.process_time() + 0.5\n    \
             while time.process_time() < end:\n        pass\n    print(0)\n"
        ),
    );
    let output = Command::new(assert_cmd::cargo::cargo_bin!("judge"))
        .args(["grade", "--json", "report.json"])
        .current_dir(dir.path())
        .env("HOME", dir.path())
        .env("TMPDIR", dir.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let report: serde_json::Value =
        serde_json::from_str(&fs_err::read_to_string(dir.path().join("report.json")).unwrap())
            .unwrap();
    let tests = report["results"][0]["tests"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(tests.len() > 1, "{report:#}");
    let samples = tests
        .iter()
        .filter(|test| test["name"].as_str().unwrap_or("").starts_with("sample"))
        .map(|test| test["time_ms"].as_u64().unwrap_or(0))
        .max()
        .expect("a sample test");
    let row = stdout
        .lines()
        .find(|line| line.contains("alice"))
        .unwrap_or_else(|| panic!("no row of alice:\n{stdout}"));
    let shown: u64 = row
        .split(" ms /")
        .next()
        .and_then(|head| head.split_whitespace().last())
        .and_then(|number| number.parse().ok())
        .unwrap_or_else(|| panic!("no time in the row: {row}"));
    assert_eq!(
        shown, samples,
        "the table's time is not the samples': {row}"
    );
}
