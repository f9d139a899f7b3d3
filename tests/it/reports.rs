//! The CSV and HTML reports rendered from the JSON report of a real
//! `judge run` on the bundled `rooks` problem, the way `judge merge` will
//! render them: read the JSON back, then render. Also pins the excerpts the
//! runner keeps for the HTML report.

use crate::support::{repository, Dir};
use judge::runner::{SubmissionResult, EXCERPT_LIMIT_BYTES};
use judge::verdict::Verdict;
use scraper::{Html, Selector};

#[derive(serde::Deserialize)]
struct Report {
    version: u32,
    results: Vec<SubmissionResult>,
}

/// A program whose output is markup and longer than an excerpt keeps: a
/// 7-byte line, then 300 lines of 28 bytes starting with the two-byte "é".
/// The 147th of those starts at byte 7 + 146 * 28 = 4095, so the 4 KiB limit
/// falls inside its "é" and the cut must step back to byte 4095.
const MALLORY: &str = "import sys\n\
    sys.stdout.buffer.write((\"xxxxxx\\n\" + \"é<script>alert(1)</script>\\n\" * 300).encode())\n";

fn mallory_output() -> String {
    format!("xxxxxx\n{}", "é<script>alert(1)</script>\n".repeat(300))
}

/// `judge run rooks` on the bundled wrong-answer example, a hostile printer
/// and a program that does not compile; the JSON report read back.
fn run_rooks(dir: &Dir) -> Report {
    let repository = repository();
    let wrong = repository.join("submissions/rooks/wrong_answer/ignores_walls.py");
    let tests = repository.join("problems/rooks/tests");
    dir.create("rooks/mallory.py", MALLORY);
    dir.create("class/dave/rooks.cpp", "int main( {\n");
    dir.judge(&[
        "run",
        "rooks",
        wrong.to_str().unwrap(),
        "rooks/mallory.py",
        "class/dave/rooks.cpp",
        "--tests",
        tests.to_str().unwrap(),
        "--random",
        "0",
        "--json",
        "report.json",
        "--csv",
        "report.csv",
        "--html",
        "report.html",
    ])
    .expect_code(1);
    serde_json::from_value(crate::support::report(&dir.read("report.json"))).unwrap()
}

#[test]
fn excerpts_hold_the_tests_data_capped() {
    let dir = Dir::new();
    let report = run_rooks(&dir);
    assert_eq!(report.version, 1);
    let tests_dir = repository().join("problems/rooks/tests");
    let wrong = &report.results[0];
    assert_eq!(wrong.verdict, Verdict::WrongAnswer);
    assert_eq!(wrong.tests.len(), 7);
    for test in &wrong.tests {
        let excerpt = test.excerpt.as_ref().expect("every test that ran has one");
        let input = fs_err::read_to_string(tests_dir.join(format!("{}.in", test.name))).unwrap();
        let answer = fs_err::read_to_string(tests_dir.join(format!("{}.ans", test.name))).unwrap();
        assert_eq!(excerpt.expected.as_deref(), Some(answer.as_str()));
        if input.len() <= EXCERPT_LIMIT_BYTES {
            assert_eq!(excerpt.input, input, "{}", test.name);
        } else {
            // The large inputs are ASCII: cut exactly at the limit.
            let (kept, note) = excerpt.input.split_at(EXCERPT_LIMIT_BYTES);
            assert_eq!(kept, &input[..EXCERPT_LIMIT_BYTES], "{}", test.name);
            let more = input.len() - EXCERPT_LIMIT_BYTES;
            assert!(
                note == format!("\n… ({more} more bytes)")
                    || note == format!("… ({more} more bytes)"),
                "{}: {note:?}",
                test.name
            );
        }
        if test.verdict == Verdict::WrongAnswer {
            assert_ne!(excerpt.actual, answer, "{}", test.name);
        }
    }
    let mallory = &report.results[1];
    assert_eq!(mallory.verdict, Verdict::PresentationError);
    let full = mallory_output();
    assert_eq!(full.len(), 8407);
    assert_eq!(&full.as_bytes()[4095..4097], "é".as_bytes());
    for test in &mallory.tests {
        let actual = &test.excerpt.as_ref().unwrap().actual;
        // Byte 4094 ends a line, so no newline is added before the note.
        assert_eq!(
            *actual,
            format!("{}… (4312 more bytes)", &full[..4095]),
            "{}",
            test.name
        );
    }
    let dave = &report.results[2];
    assert_eq!(dave.verdict, Verdict::CompileError);
    assert!(dave.tests.is_empty());
    assert!(!dir.read("report.json").contains("\"excerpt\": null"));
}

#[test]
fn csv_and_html_render_from_the_json_report() {
    let dir = Dir::new();
    let report = run_rooks(&dir);

    let csv_text = judge::report::csv::render(&report.results).unwrap();
    let mut reader = csv::Reader::from_reader(csv_text.as_bytes());
    assert_eq!(
        reader.headers().unwrap(),
        vec![
            "student",
            "problem",
            "score",
            "verdict",
            "passed",
            "total",
            "max_score"
        ]
    );
    let rows: Vec<Vec<String>> = reader
        .records()
        .map(|record| record.unwrap().iter().map(str::to_owned).collect())
        .collect();
    // Rows read as a class list, by student; ignoring walls is right on
    // the four small boards without a wall that matters.
    assert_eq!(
        rows,
        vec![
            ["dave", "rooks", "0.00", "CE", "0", "7", "100.00"]
                .map(str::to_owned)
                .to_vec(),
            [
                "ignores_walls.py",
                "rooks",
                "57.14",
                "WA",
                "4",
                "7",
                "100.00"
            ]
            .map(str::to_owned)
            .to_vec(),
            ["mallory", "rooks", "0.00", "PE", "0", "7", "100.00"]
                .map(str::to_owned)
                .to_vec(),
        ]
    );

    let page = judge::report::html::render(&report.results);
    let html = Html::parse_document(&page);
    let select = |selector: &str| -> Vec<String> {
        html.select(&Selector::parse(selector).unwrap())
            .map(|element| element.text().collect())
            .collect()
    };
    assert_eq!(
        select("table.matrix tbody th"),
        ["dave", "ignores_walls.py", "mallory"]
    );
    assert_eq!(
        select("table.matrix a.cell"),
        ["CE 0/7", "WA 4/7", "PE 0/7"]
    );
    assert!(select("script").is_empty());
    let actual = select("section#submission-2 pre.actual");
    assert_eq!(actual.len(), 7);
    assert!(actual[0].starts_with("xxxxxx\né<script>alert(1)</script>\n"));
    // The sample's first board is where ignoring walls loses a rook.
    let sample = select("section#submission-1 details.test")
        .into_iter()
        .find(|test| test.contains("sample-1"))
        .unwrap();
    assert!(sample.contains("board 1: expected 5, got 4"), "{sample}");
    assert!(select("section#submission-1 pre.diff .del")
        .iter()
        .any(|line| line == "-5"));
    assert!(select("section#submission-3 pre.compile")[0].contains("error"));
}

/// `--csv` and `--html` write exactly what the renderers make from the
/// results, so a report rendered later from the JSON (by `judge merge`) is the
/// same files: the class page and a page per submission beside it.
#[test]
fn run_writes_csv_and_html_equal_to_rendering_the_json() {
    let dir = Dir::new();
    let report = run_rooks(&dir);
    assert_eq!(
        dir.read("report.csv"),
        judge::report::csv::render(&report.results).unwrap()
    );
    let pages = judge::report::html::render_pages(
        &report.results,
        "report.html",
        "report",
        &judge::report::Context::default(),
    );
    assert_eq!(dir.read("report.html"), pages.class_page);
    assert_eq!(pages.submissions.len(), 3);
    for (name, page) in &pages.submissions {
        assert_eq!(dir.read(&format!("report/{name}")), *page, "{name}");
    }
    assert!(dir
        .read("report.csv")
        .starts_with("student,problem,score,verdict,passed,total,max_score\n"));
}

/// A class of two `student/problem` hand-ins of rooks that `judge similar`
/// compares in an instant.
fn similar_class() -> Dir {
    let dir = Dir::new();
    dir.create("judge.toml", "layout = \"student/problem\"\n");
    let code = "#include <stdio.h>\nint main(void) {\n    int n = 0;\n    \
                if (scanf(\"%d\", &n) != 1) return 1;\n    printf(\"%d\\n\", n * 2);\n    \
                return 0;\n}\n";
    dir.create("submissions/ada/rooks.c", code);
    dir.create("submissions/ben/rooks.c", code);
    dir
}

fn make_node(path: &std::path::Path, args: &[&str]) {
    let status = std::process::Command::new(args[0])
        .arg(path)
        .args(&args[1..])
        .status()
        .unwrap();
    assert!(status.success(), "{args:?} {}", path.display());
}

/// A report to a character device, to a FIFO or through a symbolic link is
/// written into it: the device stays a device (never replaced by a regular
/// file, as `--json /dev/null` once did), the FIFO's reader gets the
/// report, a link stays a link and its target holds the report.
/// See: issue #16.
#[cfg(unix)]
#[test]
fn r16_reports_to_devices_fifos_and_links_are_written_into_them() {
    use std::os::unix::fs::FileTypeExt as _;
    let dir = similar_class();
    // Root makes a device node; the test fails loudly without it.
    make_node(&dir.path().join("null"), &["mknod", "c", "1", "3"]);
    dir.judge(&["similar", "--json", "null"]).expect_code(0);
    let kind = fs_err::symlink_metadata(dir.path().join("null"))
        .unwrap()
        .file_type();
    assert!(kind.is_char_device(), "{kind:?}");

    let fifo = dir.path().join("fifo");
    make_node(&fifo, &["mkfifo"]);
    let (send, receive) = std::sync::mpsc::channel();
    let reader_path = fifo.clone();
    std::thread::spawn(move || {
        let text = fs_err::read_to_string(reader_path);
        let _ = send.send(text);
    });
    dir.judge(&["similar", "--json", "fifo"]).expect_code(0);
    let kind = fs_err::symlink_metadata(&fifo).unwrap().file_type();
    assert!(kind.is_fifo(), "the FIFO was replaced: {kind:?}");
    let text = receive
        .recv_timeout(std::time::Duration::from_secs(60))
        .unwrap()
        .unwrap();
    assert!(text.contains("\"pairs\""), "{text}");

    dir.create("real/target.json", "old");
    std::os::unix::fs::symlink("real/target.json", dir.path().join("link.json")).unwrap();
    // A dangling link: its target is made.
    std::os::unix::fs::symlink("real/new.json", dir.path().join("dangling.json")).unwrap();
    for (link, target) in [
        ("link.json", "real/target.json"),
        ("dangling.json", "real/new.json"),
    ] {
        dir.judge(&["similar", "--json", link]).expect_code(0);
        let meta = fs_err::symlink_metadata(dir.path().join(link)).unwrap();
        assert!(meta.file_type().is_symlink(), "{link} is no longer a link");
        let text = dir.read(target);
        assert!(text.contains("\"pairs\""), "{target}: {text}");
    }
}

/// An HTML report needs a folder of pages beside it: to a device it is
/// refused (exit 2, naming it) before anything is made, never a
/// `full_files/` beside the device; `-` still prints the one page.
/// See: issue #16.
#[cfg(unix)]
#[test]
fn r16_an_html_report_to_a_device_is_refused_naming_it() {
    let dir = similar_class();
    make_node(&dir.path().join("full"), &["mknod", "c", "1", "7"]);
    let run = dir.judge(&["similar", "--html", "full"]);
    run.expect_code(2);
    assert!(run.stderr().contains("`full`"), "{}", run.transcript());
    assert!(!dir.path().join("full_files").exists());
    assert!(!dir.path().join("full").is_file());
    let run = dir.judge(&["similar", "--html", "-"]);
    run.expect_code(0);
    assert!(run.stdout().contains("<html"), "{}", run.transcript());
}

/// `judge grade --package` says every report it could not write (each a
/// link to `/dev/full`, which takes no byte), not only the first, each with
/// its cause, and exits 3.
#[test]
fn every_report_that_cannot_be_written_is_said() {
    let dir = Dir::new();
    dir.judge(&["new", "hello"]).expect_code(0);
    for name in ["a.xml", "b.csv", "c.json"] {
        std::os::unix::fs::symlink("/dev/full", dir.path().join(name)).unwrap();
    }
    let graded = dir.judge(&[
        "grade",
        "--package",
        "problems/hello",
        "--junit",
        "a.xml",
        "--csv",
        "b.csv",
        "--json",
        "c.json",
    ]);
    graded.expect_code(3);
    let stderr = graded.stderr();
    // Each with its cause, not only the one the grade ends with.
    for name in ["a.xml", "b.csv", "c.json"] {
        assert!(
            stderr.contains(&format!(
                "error: failed to write `{name}`: No space left on device"
            )),
            "{name}: {stderr}"
        );
    }
}
