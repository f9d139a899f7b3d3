//! The HTML report's tests.
use super::*;
use crate::runner::{CompileResult, Excerpt, RandomOrigin, TestResult};
use scraper::{Html, Selector};

fn test_result(name: &str, verdict: Verdict, excerpt: Option<Excerpt>) -> TestResult {
    TestResult {
        name: name.to_owned(),
        verdict,
        time_ms: 4,
        wall_ms: 6,
        memory_kib: 3120,
        exit_code: Some(0),
        signal: None,
        message: if verdict.is_accepted() {
            "ok".to_owned()
        } else {
            "board 1: expected 2, got 1".to_owned()
        },
        random: None,
        rerun: false,
        cpu_wait_ms: None,
        stderr: None,
        validator_score: None,

        excerpt,
    }
}

fn submission(path: &str, problem: &str, tests: Vec<TestResult>) -> SubmissionResult {
    SubmissionResult::fixture(problem, path, tests)
}

fn select<'a>(html: &'a Html, selector: &str) -> Vec<scraper::ElementRef<'a>> {
    html.select(&Selector::parse(selector).unwrap()).collect()
}

fn text(element: &scraper::ElementRef<'_>) -> String {
    element.text().collect()
}

fn class_fixture() -> Vec<SubmissionResult> {
    let wrong = Excerpt::new(b"1\n.\n0\n", Some(b"1\n"), b"<script>alert(1)</script>\n");
    let right = Excerpt::new(b"1\n.\n0\n", Some(b"1\n"), b"1\n");
    vec![
        submission(
            "submissions/rooks/alice.py",
            "rooks",
            vec![
                test_result("001", Verdict::Accepted, Some(right.clone())),
                test_result("002", Verdict::WrongAnswer, Some(wrong)),
            ],
        ),
        submission(
            "submissions/mayan/alice.py",
            "mayan",
            vec![test_result("001", Verdict::Accepted, Some(right.clone()))],
        ),
        submission(
            "submissions/rooks/bob&<i>.py",
            "rooks",
            vec![test_result("001", Verdict::Accepted, Some(right))],
        ),
    ]
}

#[test]
fn matrix_has_a_row_per_student_and_a_column_per_problem() {
    let html = Html::parse_document(&render(&class_fixture()));
    let headers: Vec<String> = select(&html, "table.matrix thead th")
        .iter()
        .map(text)
        .collect();
    assert_eq!(headers, ["student", "rooks", "mayan"]);
    let rows = select(&html, "table.matrix tbody tr");
    assert_eq!(rows.len(), 2);
    let alice: Vec<String> = rows[0]
        .select(&Selector::parse("th, td").unwrap())
        .map(|cell| text(&cell))
        .collect();
    assert_eq!(alice, ["alice", "WA 1/2", "AC 1/1"]);
    let bob: Vec<String> = rows[1]
        .select(&Selector::parse("th, td").unwrap())
        .map(|cell| text(&cell))
        .collect();
    assert_eq!(bob, ["bob&<i>", "AC 1/1", "—"]);
    let cell = select(&html, "a.cell.v-wa");
    assert_eq!(cell.len(), 1);
    assert_eq!(cell[0].value().attr("href"), Some("#submission-1"));
    assert_eq!(select(&html, "section#submission-1").len(), 1);
}

#[test]
fn output_is_escaped_never_markup() {
    let page = render(&class_fixture());
    assert!(!page.contains("<script"));
    assert!(!page.contains("<i>"));
    let html = Html::parse_document(&page);
    assert!(select(&html, "script").is_empty());
    assert!(select(&html, "i").is_empty());
    let actual: Vec<String> = select(&html, "pre.actual").iter().map(text).collect();
    assert!(actual.contains(&"<script>alert(1)</script>\n".to_owned()));
    let diff = select(&html, "pre.diff .add");
    assert_eq!(text(&diff[0]), "+<script>alert(1)</script>");
    assert_eq!(text(&select(&html, "pre.diff .del")[0]), "-1");
}

#[test]
fn is_self_contained() {
    let page = render(&class_fixture());
    let html = Html::parse_document(&page);
    for tag in ["script", "link", "img", "iframe", "object"] {
        assert!(select(&html, tag).is_empty(), "found <{tag}>");
    }
    assert!(!page.contains("http://") && !page.contains("https://"));
    assert!(!page.contains("url("));
    let policy = select(&html, "meta[http-equiv=Content-Security-Policy]");
    assert!(policy[0]
        .value()
        .attr("content")
        .unwrap()
        .contains("default-src 'none'"));
}

#[test]
fn every_test_shows_its_verdict_data_and_message() {
    let html = Html::parse_document(&render(&class_fixture()));
    let tests = select(&html, "section#submission-1 details.test");
    assert_eq!(tests.len(), 2);
    // Only the first failing test is open.
    assert_eq!(tests[0].value().attr("open"), None);
    assert_eq!(tests[1].value().attr("open"), Some(""));
    let summary = text(&tests[1]);
    assert!(summary.contains("WA"));
    assert!(summary.contains("board 1: expected 2, got 1"));
    assert!(summary.contains("4 ms CPU, 6 ms wall"));
    assert!(summary.contains("3.0 MiB"));
    let inputs = select(&html, "section#submission-1 pre.input");
    assert_eq!(text(&inputs[1]), "1\n.\n0\n");
    let expected = select(&html, "section#submission-1 pre.expected");
    assert_eq!(text(&expected[1]), "1\n");
    // The accepted test with identical output has no diff.
    assert_eq!(select(&html, "section#submission-1 pre.diff").len(), 1);
    assert!(text(&tests[0]).contains("byte for byte"));
    assert!(!summary.contains("exit code 0"));
}

#[test]
fn compile_errors_random_origins_and_missing_excerpts() {
    let mut failed = submission("class/carol/rooks.cpp", "rooks", Vec::new());
    failed.compile = CompileResult {
        ok: false,
        message: "rooks.cpp:3: error: expected `;` before `<<`".to_owned(),
        verdict: Some(Verdict::CompileError),
        toolchain_missing: false,
    };
    failed.verdict = Verdict::CompileError;
    let mut random = test_result("gen-small-001", Verdict::RuntimeError, None);
    random.random = Some(RandomOrigin {
        seed: 7,
        profile: "small".to_owned(),
        index: 0,
    });
    let mut exited = test_result("002", Verdict::RuntimeError, None);
    exited.exit_code = Some(3);
    exited.message = "exit code 3".to_owned();
    let mut signalled = test_result("003", Verdict::RuntimeError, None);
    signalled.exit_code = None;
    signalled.signal = Some(11);
    signalled.message = "killed by signal 11 (SIGSEGV)".to_owned();
    let crashed = submission(
        "class/dave/rooks.py",
        "rooks",
        vec![random, exited, signalled],
    );
    let html = Html::parse_document(&render(&[failed, crashed]));
    let tests: Vec<String> = select(&html, "section#submission-2 details.test")
        .iter()
        .map(text)
        .collect();
    assert_eq!(tests[1].matches("exit code 3").count(), 1, "{}", tests[1]);
    assert_eq!(tests[2].matches("signal 11").count(), 1, "{}", tests[2]);
    let compile = select(&html, "section#submission-1 pre.compile");
    assert_eq!(
        text(&compile[0]),
        "rooks.cpp:3: error: expected `;` before `<<`"
    );
    let cells: Vec<String> = select(&html, "a.cell").iter().map(text).collect();
    assert_eq!(cells, ["CE 0/0", "RE 0/3"]);
    let body = text(&select(&html, "section#submission-2 details.test")[0]);
    assert!(body.contains("judge gen rooks --seed 7 --profile small"));
    assert!(body.contains("the program did not run"));
}

/// Reverses [`encode_href`], for following a link in a test.
fn decode_href(href: &str) -> String {
    let bytes = href.as_bytes();
    let mut decoded = Vec::new();
    let mut index = 0;
    while let Some(&byte) = bytes.get(index) {
        if byte == b'%' {
            decoded.push(u8::from_str_radix(&href[index + 1..index + 3], 16).unwrap());
            index += 3;
        } else {
            decoded.push(byte);
            index += 1;
        }
    }
    String::from_utf8(decoded).unwrap()
}

#[test]
fn page_names_are_safe_and_unique_for_any_student_name() {
    let long = "ж".repeat(200);
    let students = [
        "alice",
        "Alice",
        "../../etc",
        "a/b",
        "a_b",
        "Zoë Ødegård",
        "",
        ".hidden",
        "a-b",
        &long,
    ]
    .map(str::to_owned);
    let results: Vec<SubmissionResult> = students
        .iter()
        .map(|_| submission("x.py", "rooks", Vec::new()))
        .collect();
    let mut all: Vec<&SubmissionResult> = results.iter().collect();
    // The same student twice for one problem, and a problem that joins
    // with a student into another pair's name ("a-b" + "rooks" versus
    // "a" + "b-rooks").
    let again = submission("y.py", "rooks", Vec::new());
    let joined = submission("z.py", "b-rooks", Vec::new());
    all.push(&again);
    all.push(&joined);
    let mut names_in: Vec<String> = students.to_vec();
    names_in.push("alice".to_owned());
    names_in.push("a".to_owned());
    let names = page_names(&all, &names_in);
    assert_eq!(
        &names[..9],
        [
            "alice-rooks.html",
            "Alice-rooks-2.html",
            "______etc-rooks.html",
            "a_b-rooks.html",
            "a_b-rooks-2.html",
            "Zoë_Ødegård-rooks.html",
            "_-rooks.html",
            "_hidden-rooks.html",
            "a-b-rooks.html",
        ]
    );
    assert_eq!(names[10], "alice-rooks-3.html");
    assert_eq!(names[11], "a-b-rooks-2.html");
    let mut folded: Vec<String> = names.iter().map(|name| name.to_lowercase()).collect();
    folded.sort();
    folded.dedup();
    assert_eq!(folded.len(), names.len(), "{names:?}");
    for name in &names {
        assert!(name.len() <= 255, "{name}");
        assert!(!name.contains('/') && !name.contains("..") && !name.starts_with('.'));
        assert!(name.ends_with(".html"));
    }
    assert_eq!(encode_href("Zoë a.html"), "Zo%C3%AB%20a.html");
    assert_eq!(decode_href(&encode_href("Zoë a.html")), "Zoë a.html");
}

#[test]
fn every_cell_links_to_its_submissions_page_and_back() {
    let fixture = class_fixture();
    let pages = render_pages(&fixture, "grades ü.html", "grades ü", &Context::default());
    let html = Html::parse_document(&pages.class_page);
    let hrefs: Vec<String> = select(&html, "table.matrix a.cell")
        .iter()
        .map(|cell| cell.value().attr("href").unwrap().to_owned())
        .collect();
    let expected: Vec<String> = pages
        .submissions
        .iter()
        .map(|(name, _)| format!("grades ü/{name}"))
        .collect();
    let decoded: Vec<String> = hrefs.iter().map(|href| decode_href(href)).collect();
    assert_eq!(decoded, expected);
    // The class page holds no test: those are on the submissions' pages.
    assert!(select(&html, "details.test").is_empty());
    assert!(select(&html, "section.submission").is_empty());
    let (name, alice) = &pages.submissions[0];
    assert_eq!(name, "alice-rooks.html");
    let alice = Html::parse_document(alice);
    assert_eq!(select(&alice, "details.test").len(), 2);
    let back = select(&alice, "p.back a");
    assert_eq!(
        decode_href(back[0].value().attr("href").unwrap()),
        "../grades ü.html"
    );
    assert_eq!(
        text(&select(&alice, "title")[0]),
        "alice · rooks — judge report"
    );
}

#[test]
fn student_view_hides_hidden_tests_data_but_not_samples() {
    let data = Excerpt::new(
        b"SECRET-INPUT\n",
        Some(b"SECRET-ANSWER\n"),
        b"SECRET-OUTPUT\n",
    );
    let sample = Excerpt::new(b"sample input\n", Some(b"5\n"), b"4\n");
    let mut hidden = test_result("small-001", Verdict::WrongAnswer, Some(data));
    hidden.stderr = Some("SECRET-STDERR".to_owned());
    hidden.random = Some(RandomOrigin {
        seed: 7,
        profile: "small".to_owned(),
        index: 0,
    });
    let results = vec![submission(
        "alice.py",
        "rooks",
        vec![
            test_result("sample-1", Verdict::WrongAnswer, Some(sample)),
            hidden,
        ],
    )];
    let options = Context {
        student_view: true,
        ..Context::default()
    };
    let page = render_pages(&results, "grades.html", "grades", &options).submissions[0]
        .1
        .clone();
    assert!(!page.contains("SECRET"), "{page}");
    assert!(!page.contains("--seed 7"));
    let html = Html::parse_document(&page);
    let tests = select(&html, "details.test");
    assert_eq!(tests.len(), 2);
    // The sample whole; the hidden test's verdict and message, its time
    // and memory withheld (issue #32: "0 ms, 0 KiB" read as data).
    assert_eq!(text(&select(&html, "pre.input")[0]), "sample input\n");
    assert_eq!(select(&html, "pre.input").len(), 1);
    let hidden = text(&tests[1]);
    for shown in ["WA", "small-001", "board 1: wrong answer", "hidden test"] {
        assert!(hidden.contains(shown), "{shown}: {hidden}");
    }
    // Where it failed, not what was expected (issue 18).
    assert!(!hidden.contains("expected 2"), "{hidden}");
    assert_eq!(text(&select(&html, "details.test .time")[1]), "hidden");
    assert_eq!(text(&select(&html, "details.test .memory")[1]), "hidden");
    assert!(!hidden.contains("ms CPU"), "{hidden}");
    assert!(text(&tests[0]).contains("ms CPU"));
    // Without the option, the same results show everything.
    let teacher = render_with(&results, &Context::default());
    assert!(teacher.contains("SECRET-INPUT") && teacher.contains("--seed 7"));
}

/// At class scale the class page stays small: its size grows with the
/// number of submissions, not with their tests or data (issue #11: 200
/// students x 3 problems x 20 tests was one 22 MB page).
#[test]
fn class_page_stays_small_at_class_scale() {
    let class = |tests: usize| -> Vec<crate::grading::grade::GradedResult> {
        let excerpt = Excerpt::new(&[b'7'; 1024], Some(&[b'8'; 1024]), &[b'9'; 1024]);
        let mut rows = Vec::new();
        for student in 0..200 {
            for problem in ["rooks", "matchsticks", "mayan"] {
                let tests = (0..tests)
                    .map(|test| {
                        let verdict = if (student + test) % 7 == 0 {
                            Verdict::WrongAnswer
                        } else {
                            Verdict::Accepted
                        };
                        test_result(&format!("gen-{test:03}"), verdict, Some(excerpt.clone()))
                    })
                    .collect();
                let result = submission(
                    &format!("submissions/{problem}/student-{student:03}.py"),
                    problem,
                    tests,
                );
                rows.push(crate::grading::grade::GradedResult::fixture(
                    result,
                    &format!("student-{student:03}"),
                ));
            }
        }
        rows
    };
    let options = Context::default();
    let big = render_pages(&class(20), "grades.html", "grades", &options);
    let small = render_pages(&class(1), "grades.html", "grades", &options);
    let per_submission = big.class_page.len() / 600;
    assert!(
        per_submission < 600,
        "{} bytes, {per_submission} per submission",
        big.class_page.len()
    );
    // Twenty tests instead of one add only the failed-most tables.
    assert!(big.class_page.len() < small.class_page.len() + 10_000);
    assert_eq!(big.submissions.len(), 600);
    assert!(big.submissions[0].1.len() > 20 * 3 * 1024);
}

#[test]
fn escape_covers_markup_and_attribute_quotes() {
    assert_eq!(
        escape(r#"<a href="x" title='y'>&</a>"#),
        "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;"
    );
    // Control characters are shown, never passed on.
    assert_eq!(
        escape("a\x1b[2J\x08\u{202e}b\tc\n"),
        "a\\x1b[2J\\x08\\u{202e}b\tc\n"
    );
}

#[test]
fn memory_reads_in_kib_or_mib() {
    assert_eq!(memory(512), "512 KiB");
    assert_eq!(memory(3120), "3.0 MiB");
    assert_eq!(memory(1536), "1.5 MiB");
}

/// Issue 18, item 10: a hidden test keeps where it failed, never the
/// expected value, the exit code or the signal.
#[test]
fn a_hidden_tests_message_keeps_where_but_not_what() {
    let mut wrong = test_result("small-001", Verdict::WrongAnswer, None);
    wrong.message = "board 1: expected 3, got 0".to_owned();
    assert_eq!(
        crate::report::student_message(&wrong),
        "board 1: wrong answer"
    );
    wrong.message = "expected 3 boards, found 2".to_owned();
    assert_eq!(crate::report::student_message(&wrong), "wrong answer");
    let mut crashed = test_result("small-002", Verdict::RuntimeError, None);
    crashed.message = "exit code 205".to_owned();
    crashed.exit_code = Some(205);
    assert_eq!(crate::report::student_message(&crashed), "runtime error");
    // The CPU time of a TLE is the program's to choose from the input, and
    // a board count is read from it: neither is shown.
    let mut slow = test_result("small-003", Verdict::TimeLimitExceeded, None);
    slow.message = "wall-clock time exceeded 600 ms (CPU time 137 ms); note".to_owned();
    assert_eq!(
        crate::report::student_message(&slow),
        "wall-clock time exceeded 600 ms"
    );
    slow.message = "CPU time exceeded 200 ms; passes at 1.5x".to_owned();
    assert_eq!(
        crate::report::student_message(&slow),
        "CPU time exceeded 200 ms"
    );
    let mut right = test_result("small-004", Verdict::Accepted, None);
    right.message = "3 boards".to_owned();
    assert_eq!(crate::report::student_message(&right), "accepted");
    let options = Context {
        student_view: true,
        ..Context::default()
    };
    let mut page = String::new();
    super::submission::write_test(&mut page, "rooks", &crashed, true, &options);
    assert!(!page.contains("205"), "{page}");
    let mut hidden = crashed.clone();
    crate::report::hide_test_data(&mut hidden);
    assert_eq!((hidden.exit_code, hidden.signal), (None, None));
    assert_eq!(hidden.message, "runtime error");
}

/// See: issue #15. A scored submission's page has a row per test group
/// with its verdict and its score of its maximum.
#[test]
fn a_scored_submission_shows_a_row_per_group() {
    use crate::runner::GroupScore;
    use crate::verdict::Points;
    let mut scored = submission(
        "tri/partially_accepted/narrow.py",
        "tri",
        vec![
            test_result("secret/a/1", Verdict::Accepted, None),
            test_result("secret/b/1", Verdict::WrongAnswer, None),
        ],
    );
    scored.score = Some(Points(30.0));
    scored.max_score = Some(Points(100.0));
    scored.groups = vec![
        GroupScore {
            name: "secret/a".to_owned(),
            score: Points(30.0),
            max_score: Points(30.0),
            verdict: Verdict::Accepted,
            tests: vec!["secret/a/1".to_owned()],
        },
        GroupScore {
            name: "secret/b".to_owned(),
            score: Points(0.0),
            max_score: Points(70.0),
            verdict: Verdict::WrongAnswer,
            tests: vec!["secret/b/1".to_owned()],
        },
    ];
    let html = Html::parse_document(&render(&[scored]));
    let rows: Vec<String> = select(&html, "table.groups tbody tr")
        .iter()
        .map(text)
        .collect();
    assert_eq!(rows.len(), 2, "{rows:?}");
    assert!(
        rows[0].contains("secret/a") && rows[0].contains("30 of 30"),
        "{rows:?}"
    );
    assert!(
        rows[1].contains("WA") && rows[1].contains("0 of 70"),
        "{rows:?}"
    );
    let summary = select(&html, "section#submission-1 p.muted");
    assert!(
        text(&summary[0]).contains("score 30.00"),
        "{}",
        text(&summary[0])
    );
}

mod class_page;

/// The page of `result` rendered with `source` as its source.
fn page_with_source(source: crate::report::source::SourceView) -> String {
    let result = submission("submissions/rooks/bob.py", "rooks", Vec::new());
    let options = Context {
        sources: [(result.submission.clone(), source)].into_iter().collect(),
        ..Context::default()
    };
    render_pages(&[result], "grades.html", "grades", &options).submissions[0]
        .1
        .clone()
}

/// Issue #32: the source is on the submission's page, escaped, a line per
/// numbered block (the numbers drawn by the style sheet), open when short.
#[test]
fn a_short_source_is_shown_open_escaped_and_numbered_by_line() {
    use crate::report::source::SourceView;
    let page = page_with_source(SourceView::Text {
        text: "# <script>alert(1)</script>\r\n\nprint(1)\n".to_owned(),
        total_bytes: 39,
    });
    let html = Html::parse_document(&page);
    let details = select(&html, "details.source");
    assert_eq!(details.len(), 1, "{page}");
    assert!(details[0].value().attr("open").is_some());
    let lines: Vec<String> = select(&html, "pre.source span.l")
        .iter()
        .map(text)
        .collect();
    assert_eq!(
        lines,
        ["# <script>alert(1)</script>\n", "\n", "print(1)\n"],
        "{page}"
    );
    assert!(!page.contains("<script>"));
    assert!(text(&select(&html, "details.source summary")[0]).contains("3 lines"));
}

#[test]
fn a_long_or_cut_source_starts_collapsed_and_a_cut_one_says_so() {
    use crate::report::source::SourceView;
    let long = "x\n".repeat(200);
    let page = page_with_source(SourceView::Text {
        text: long.clone(),
        total_bytes: 400,
    });
    let html = Html::parse_document(&page);
    assert!(select(&html, "details.source")[0]
        .value()
        .attr("open")
        .is_none());
    assert!(!page.contains("Cut:"));
    let page = page_with_source(SourceView::Text {
        text: long,
        total_bytes: 3 << 30,
    });
    let html = Html::parse_document(&page);
    assert!(select(&html, "details.source")[0]
        .value()
        .attr("open")
        .is_none());
    let summary = text(&select(&html, "details.source summary")[0]);
    assert!(
        summary.contains("the first 400 bytes of 3072.0 MiB shown"),
        "{summary}"
    );
    assert!(page.contains("Cut: the page shows the first 400 bytes of the file."));
}

#[test]
fn a_source_not_shown_says_why() {
    use crate::report::source::SourceView;
    for (source, says) in [
        (
            SourceView::Binary { bytes: 1 << 30 },
            "binary file, 1073741824 bytes, not shown",
        ),
        (SourceView::Changed, "changed since it was graded"),
        (
            SourceView::Gone,
            "it is no longer at submissions/rooks/bob.py",
        ),
        (
            SourceView::NotShown("refused `x`: it is not a regular file".to_owned()),
            "not shown: refused `x`: it is not a regular file.",
        ),
    ] {
        let page = page_with_source(source);
        let html = Html::parse_document(&page);
        assert!(select(&html, "pre.source").is_empty(), "{page}");
        let note = text(&select(&html, "p.source")[0]);
        assert!(note.contains(says), "{note}");
    }
}

#[test]
fn a_submission_without_a_source_has_no_source_section() {
    let result = submission("submissions/rooks/bob.py", "rooks", Vec::new());
    let page = render_pages(&[result], "grades.html", "grades", &Context::default()).submissions[0]
        .1
        .clone();
    assert!(!page.contains("class=\"source"), "{page}");
}
