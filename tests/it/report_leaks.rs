//! What the reports show of a run must tell nothing a student may not
//! see and draw nothing a program chose: the student view keeps no figure
//! (CPU time, slowest time) of a hidden test, and control, format and
//! invisible characters of names and outputs are shown as their codes in
//! every report (issue 18, the third to fifth red teams), each through the
//! binary.

use crate::support::{judge_in, open_dir, rooks_tests, source, PackageBuilder};
use std::path::Path;
use std::process::Command;

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
/// Every file under `dir` whose name ends in `.html`, read.
fn html_pages(dir: &Path) -> String {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|entry| entry.path().extension().is_some_and(|ext| ext == "html"))
        .map(|entry| fs_err::read_to_string(entry.path()).unwrap())
        .collect()
}

/// Two students `alice` and `al\u{200b}ice` (a zero-width space) looked
/// the same in every report, and a program's `\r`, line separator and
/// format characters reached the HTML pages raw: each is shown as its code
/// in the terminal table, the HTML pages, the gradebook and JUnit.
#[test]
fn format_characters_of_names_and_outputs_are_shown_visible_in_every_report() {
    let dir = open_dir();
    fs_err::write(
        dir.path().join("judge.toml"),
        "problems = [\"rooks\"]\nrandom-tests = 1\n",
    )
    .unwrap();
    let folder = dir.path().join("submissions/rooks");
    fs_err::create_dir_all(&folder).unwrap();
    let printing = "import sys\nsys.stdout.write('5\\r\\u2028\\u200b\\ufeff\\U000e0041\\n')\n";
    source(&folder, "alice.py", printing);
    source(&folder, "al\u{200b}ice.py", printing);
    let output = std::process::Command::new(assert_cmd::cargo::cargo_bin!("judge"))
        .args([
            "grade",
            "--html",
            "class.html",
            "--csv",
            "grades.csv",
            "--junit",
            "junit.xml",
        ])
        .current_dir(dir.path())
        .env("HOME", dir.path())
        .output()
        .unwrap();
    let terminal = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    let csv = fs_err::read_to_string(dir.path().join("grades.csv")).unwrap();
    let junit = fs_err::read_to_string(dir.path().join("junit.xml")).unwrap();
    let html = html_pages(dir.path());
    for (channel, text) in [
        ("terminal", &terminal),
        ("html", &html),
        ("csv", &csv),
        ("junit", &junit),
    ] {
        assert!(
            text.contains("al\\u{200b}ice"),
            "{channel} does not show the zero-width space:\n{text}\n{stderr}"
        );
        for raw in ['\u{200b}', '\u{2028}', '\u{feff}', '\u{e0041}'] {
            assert!(!text.contains(raw), "{raw:?} raw in the {channel}:\n{text}");
        }
    }
    // The program's output is on the pages, its carriage return as code.
    assert!(html.contains("5\\x0d\\u{2028}"), "{html}");
    assert!(!html.contains('\r'), "a raw carriage return in a page");
}

/// A Kattis package whose submissions pass the sample and, on each hidden
/// test, spin `crc32(input) % 300` ms, print `crc32 % 97` bytes and exit
/// with `crc32 % 256` (`crc.py`), or print `crc32 % 1000` (`zero.py`):
/// every figure of a hidden test's row would carry its input.
fn crc_package(dir: &crate::support::Dir, student_view_in_judge_toml: bool) {
    let crc = "import sys, time, zlib\ndata = sys.stdin.buffer.read()\n\
               if data == b\"1 2\\n\":\n    print(3); sys.exit(0)\nc = zlib.crc32(data)\n\
               end = time.process_time() + (c % 300) / 1000\n\
               while time.process_time() < end:\n    pass\n\
               sys.stdout.write(\"x\" * (c % 97))\nsys.exit(c % 256 or 1)\n";
    let zero = "import sys, zlib\ndata = sys.stdin.buffer.read()\n\
                if data == b\"1 2\\n\":\n    print(3); sys.exit(0)\n\
                print(zlib.crc32(data) % 1000)\n";
    PackageBuilder::kattis(dir, "sum")
        .manifest("name: Sum\n")
        .test("sample/1", "1 2\n", "3\n")
        .test("secret/a", "5 7\n", "12\n")
        .test("secret/b", "40 2\n", "42\n")
        .submission(
            "accepted/sum.py",
            "a, b = map(int, input().split())\nprint(a + b)\n",
        )
        .submission("run_time_error/crc.py", crc)
        .submission("wrong_answer/zero.py", zero)
        .build();
    let view = if student_view_in_judge_toml {
        "student-view = true\n"
    } else {
        ""
    };
    dir.create(
        "judge.toml",
        format!("{view}[limits]\nwall-time-factor = 10\n"),
    );
}

/// `judge grade --package DIR --student-view` showed a hidden test's exit
/// code and expected value in its table (`on secret/a: exit code 69`,
/// `expected `12`, got `605``) and the slowest accepted submission's time
/// in the derived-limit line; no channel may show a figure of a hidden
/// test.
fn the_package_student_view_shows_no_figure_of_a_hidden_test(in_judge_toml: bool) {
    let dir = crate::support::Dir::new();
    crc_package(&dir, in_judge_toml);
    let mut args = vec![
        "grade",
        "--package",
        "sum",
        "--all-tests",
        "--json",
        "report.json",
        "--html",
        "page.html",
        "--csv",
        "grades.csv",
        "--junit",
        "junit.xml",
    ];
    if !in_judge_toml {
        args.push("--student-view");
    }
    let run = dir.judge(&args);
    let (terminal, stderr) = (run.stdout(), run.stderr());
    for row in terminal.lines().filter(|line| line.contains("secret/")) {
        assert!(
            !row.contains("exit code") && !row.contains("expected") && !row.contains("got"),
            "a hidden test's figure in the table: {row}\n{terminal}"
        );
    }
    assert!(
        terminal.contains("crc.py: RE") && terminal.contains("zero.py: WA"),
        "{terminal}\n{stderr}"
    );
    let derived = stderr
        .lines()
        .find(|line| line.starts_with("time limit:"))
        .unwrap_or_else(|| panic!("no derived-limit line:\n{stderr}"));
    assert!(!derived.contains(" ms)"), "{derived}");
    let report: serde_json::Value = serde_json::from_str(&dir.read("report.json")).unwrap();
    let results = report["results"].as_array().expect("results");
    assert_eq!(results.len(), 3, "{report:#}");
    for result in results {
        for test in result["tests"].as_array().expect("tests") {
            if !test["name"].as_str().unwrap_or("").starts_with("secret/") {
                continue;
            }
            for key in ["time_ms", "wall_ms", "memory_kib"] {
                assert_eq!(test[key], 0, "{key} of a hidden test: {test:#}");
            }
            for key in ["exit_code", "signal", "excerpt", "stderr"] {
                assert!(test[key].is_null(), "{key} of a hidden test: {test:#}");
            }
        }
    }
    // The two hidden tests of a submission read the same in every file.
    let junit = dir.read("junit.xml");
    for name in ["secret/a", "secret/b"] {
        let case = junit
            .lines()
            .skip_while(|line| !line.contains(&format!("name=\"{name}\"")))
            .take(2)
            .collect::<String>();
        assert!(case.contains("time=\"0.000\""), "{case}");
        assert!(
            !case.contains("exit code") && !case.contains("expected"),
            "{case}"
        );
    }
    let pages = html_pages(dir.path());
    assert!(
        !pages.contains("exit code 69") && !pages.contains("605"),
        "{pages}"
    );
    let csv = dir.read("grades.csv");
    assert!(csv.contains("crc.py,sum,33.33,RE,1,3"), "{csv}");
}

#[test]
fn the_package_student_view_flag_shows_no_figure_of_a_hidden_test() {
    the_package_student_view_shows_no_figure_of_a_hidden_test(false);
}

#[test]
fn the_package_student_view_of_judge_toml_shows_no_figure_of_a_hidden_test() {
    the_package_student_view_shows_no_figure_of_a_hidden_test(true);
}
/// Students whose names differ from `alice` only by a character drawn as
/// nothing or as a plain space that is not a format character (a
/// variation selector, the combining grapheme joiner, a Hangul filler, a
/// no-break space, a variation selector of the supplement, a trailing
/// space): each looked like `alice` (or `ali ce`) in every report, and a
/// line break in a name drew a fake row in `judge grade`'s table; each is shown as its code in
/// the terminal, the HTML pages, the gradebook and JUnit, and the JSON
/// report keeps the name exact.
#[test]
fn invisible_marks_fillers_and_spaces_in_names_are_shown_in_every_report() {
    let dir = open_dir();
    fs_err::write(
        dir.path().join("judge.toml"),
        "problems = [\"rooks\"]\nrandom-tests = 1\n",
    )
    .unwrap();
    let folder = dir.path().join("submissions/rooks");
    fs_err::create_dir_all(&folder).unwrap();
    let printing = "print(5)\n";
    let names = [
        ("alice\u{fe0f}", "alice\\u{fe0f}"),
        ("alice\u{34f}", "alice\\u{034f}"),
        ("alice\u{3164}", "alice\\u{3164}"),
        ("ali\u{a0}ce", "ali\\u{00a0}ce"),
        ("alice\u{e0100}", "alice\\u{e0100}"),
        ("alice ", "alice\\x20"),
        (
            "eve\nrooks    mallory  AC  8 of 8  100%",
            "eve\\nrooks\\x20\\x20\\x20\\x20mallory",
        ),
    ];
    source(&folder, "alice.py", printing);
    for (name, _) in names {
        source(&folder, &format!("{name}.py"), printing);
    }
    let output = Command::new(assert_cmd::cargo::cargo_bin!("judge"))
        .args([
            "grade",
            "--html",
            "class.html",
            "--csv",
            "grades.csv",
            "--junit",
            "junit.xml",
            "--json",
            "report.json",
        ])
        .current_dir(dir.path())
        .env("HOME", dir.path())
        .output()
        .unwrap();
    let terminal = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    let csv = fs_err::read_to_string(dir.path().join("grades.csv")).unwrap();
    let junit = fs_err::read_to_string(dir.path().join("junit.xml")).unwrap();
    let json = fs_err::read_to_string(dir.path().join("report.json")).unwrap();
    let html = html_pages(dir.path());
    for (channel, text) in [
        ("terminal", &terminal),
        ("html", &html),
        ("csv", &csv),
        ("junit", &junit),
    ] {
        for (raw, shown) in names {
            // JUnit names a suite by the file (`alice .py`), where the
            // space is not at an end.
            let shown = if channel == "junit" && raw == "alice " {
                "alice .py"
            } else {
                shown
            };
            assert!(
                text.contains(shown),
                "{channel} does not show {raw:?} as {shown}:\n{text}\n{stderr}"
            );
            if !raw.ends_with(' ') {
                assert!(!text.contains(raw), "{raw:?} raw in the {channel}:\n{text}");
            }
        }
    }
    // JSON is data: the names as they are.
    let report: serde_json::Value = serde_json::from_str(&json).unwrap();
    let students: Vec<&str> = report["results"]
        .as_array()
        .expect("results")
        .iter()
        .filter_map(|result| result["student"].as_str())
        .collect();
    for (raw, _) in names {
        assert!(
            students.contains(&raw),
            "{raw:?} not exact in the JSON:\n{json}"
        );
    }
}
