//! The class page's summaries: verdict bars, the tests failed most, the
//! ranking and the class list.

use super::*;
use crate::grading::grade::GradedResult;

/// Three submissions for rooks: two fail test 002 (twice the same
/// message, once another), one fails 003; one compile error runs
/// nothing.
fn problem_fixture() -> Vec<SubmissionResult> {
    let failing = |name: &str, message: &str| {
        let mut test = test_result(name, Verdict::WrongAnswer, None);
        test.message = message.to_owned();
        test
    };
    let ok = |name: &str| test_result(name, Verdict::Accepted, None);
    let mut broken = submission("carol.cpp", "rooks", Vec::new());
    broken.verdict = Verdict::CompileError;
    broken.compile.ok = false;
    broken.compile.verdict = Some(Verdict::CompileError);
    vec![
        submission(
            "alice.py",
            "rooks",
            vec![
                ok("001"),
                failing("002", "board 1: expected 5, got 4"),
                ok("003"),
            ],
        ),
        submission(
            "bob.py",
            "rooks",
            vec![
                ok("001"),
                failing("002", "board 2: expected 1, got 0"),
                failing("003", "line 1: expected an integer"),
            ],
        ),
        submission(
            "dave.py",
            "rooks",
            vec![
                ok("001"),
                failing("002", "board 1: expected 5, got 4"),
                ok("003"),
            ],
        ),
        broken,
        submission("erin.py", "mayan", vec![ok("001")]),
    ]
}

#[test]
fn each_problem_has_a_verdict_bar_and_the_tests_failed_most() {
    let html = Html::parse_document(&render(&problem_fixture()));
    let problems = select(&html, "section.problem");
    assert_eq!(problems.len(), 2);
    let rooks = &problems[0];
    let within = |selector: &str| -> Vec<scraper::ElementRef<'_>> {
        rooks.select(&Selector::parse(selector).unwrap()).collect()
    };
    assert!(text(&within("h3")[0]).starts_with("rooks · 4 submissions"));
    let bar = within("svg.verdict-bar")[0];
    assert_eq!(bar.value().attr("aria-label"), Some("verdicts: WA 3, CE 1"));
    let segments: Vec<(String, String)> = within("svg.verdict-bar rect")
        .iter()
        .map(|rect| (rect.value().attr("width").unwrap().to_owned(), text(rect)))
        .collect();
    assert_eq!(
        segments,
        [
            ("450".to_owned(), "wrong answer: 3".to_owned()),
            ("150".to_owned(), "compile error: 1".to_owned())
        ]
    );
    assert_eq!(text(&within("p.verdicts")[0]), "WA 3 · CE 1");
    let rows: Vec<Vec<String>> = within("table.failed-most tbody tr")
        .iter()
        .map(|row| {
            row.select(&Selector::parse("td").unwrap())
                .map(|cell| text(&cell))
                .collect()
        })
        .collect();
    assert_eq!(
        rows,
        [
            [
                "002",
                "3 of 3",
                "WA board 1: expected 5, got 4 (2×) and 1 other message"
            ],
            ["003", "1 of 3", "WA line 1: expected an integer (1×)"],
        ]
    );
    // The header counts every submission, the column those that ran the
    // test (carol's did not compile): the column says so.
    let columns: Vec<String> = within("table.failed-most thead th")
        .iter()
        .map(text)
        .collect();
    assert_eq!(
        columns,
        [
            "test",
            "failed of the submissions that ran it",
            "most common message"
        ]
    );
    let mayan = &problems[1];
    assert!(text(mayan).contains("No test failed."));
}

#[test]
fn students_are_listed_by_total_score_in_a_stable_order() {
    let mut results = problem_fixture();
    // Erin's mayan makes her first; alice and dave tie (66.67) and keep
    // the matrix's order.
    results.push(submission(
        "zed.py",
        "mayan",
        vec![test_result("001", Verdict::WrongAnswer, None)],
    ));
    let html = Html::parse_document(&render(&results));
    let rows: Vec<Vec<String>> = select(&html, "table.ranking tbody tr")
        .iter()
        .map(|row| {
            row.select(&Selector::parse("td, th").unwrap())
                .map(|cell| text(&cell))
                .collect()
        })
        .collect();
    let header: Vec<String> = select(&html, "table.ranking thead th")
        .iter()
        .map(text)
        .collect();
    assert_eq!(header, ["#", "student", "total of 200", "rooks", "mayan"]);
    assert_eq!(
        rows,
        [
            ["1", "erin", "100.00", "—", "100.00"],
            ["2", "alice", "66.67", "66.67", "—"],
            ["3", "dave", "66.67", "66.67", "—"],
            ["4", "bob", "33.33", "33.33", "—"],
            ["5", "carol", "0.00", "0.00", "—"],
            ["6", "zed", "0.00", "—", "0.00"],
        ]
    );
}

#[test]
fn a_problem_scored_by_groups_counts_its_maximum_in_the_total() {
    let mut results = problem_fixture();
    // mayan scored by groups, out of 70: the total is out of 100 + 70.
    for result in results
        .iter_mut()
        .filter(|result| result.problem == "mayan")
    {
        result.max_score = Some(crate::verdict::Points(70.0));
        result.score = Some(crate::verdict::Points(35.0));
    }
    let html = Html::parse_document(&render(&results));
    let header: Vec<String> = select(&html, "table.ranking thead th")
        .iter()
        .map(text)
        .collect();
    assert_eq!(header, ["#", "student", "total of 170", "rooks", "mayan"]);
}

/// See: issue #17. The class page leads with the per-problem summaries
/// (verdict bar, tests failed most), then the students by score, then the
/// matrix; a header with a link per problem stays in view (sticky, no
/// script); every link on it resolves.
#[test]
fn class_page_leads_with_summaries_keeps_its_header_in_view_and_links_resolve() {
    let page = render(&class_fixture());
    let at = |needle: &str| {
        page.find(needle)
            .unwrap_or_else(|| panic!("no {needle:?} in the page"))
    };
    let order = [
        at("<header class=\"top\">"),
        at("<h2>Problems</h2>"),
        at("<svg class=\"verdict-bar\""),
        at("<table class=\"failed-most\">"),
        at("<h2 id=\"students\">"),
        at("<h2 id=\"matrix\">"),
    ];
    assert!(order.windows(2).all(|pair| pair[0] < pair[1]), "{order:?}");
    assert!(page.contains("header.top { position: sticky; top: 0;"));
    assert!(page.contains("div.scroll thead th { position: sticky; top: 0;"));
    assert!(!page.contains("<script"), "no scripts");
    let html = Html::parse_document(&page);
    let nav: Vec<String> = select(&html, "header.top nav a").iter().map(text).collect();
    assert_eq!(nav, ["rooks", "mayan", "students by score", "class matrix"]);
    // Every in-page link has its target, once.
    let fragments: Vec<String> = select(&html, "a[href^='#']")
        .iter()
        .filter_map(|link| link.value().attr("href").map(|href| href[1..].to_owned()))
        .collect();
    assert!(fragments.len() >= 7, "{fragments:?}");
    for fragment in fragments {
        let targets = select(&html, &format!("[id='{fragment}']"));
        assert_eq!(targets.len(), 1, "#{fragment}");
    }
    let rooks = select(&html, "section.problem#problem-1 h3");
    assert!(text(&rooks[0]).starts_with("rooks"));
    // With a page per submission, each cell links to its page.
    let results = class_fixture();
    let rows: Vec<crate::grading::grade::GradedResult> = results
        .into_iter()
        .map(|result| GradedResult::fixture(result, "alice"))
        .collect();
    let pages = render_pages(&rows, "grades.html", "grades", &Context::default());
    let html = Html::parse_document(&pages.class_page);
    let names: Vec<String> = pages
        .submissions
        .iter()
        .map(|(name, _)| format!("grades/{name}"))
        .collect();
    let cells = select(&html, "table.matrix a.cell");
    assert_eq!(cells.len(), names.len());
    for cell in cells {
        let href = cell.value().attr("href").unwrap_or_default().to_owned();
        assert!(names.contains(&href), "{href} not in {names:?}");
    }
}

/// Seven students fail one test five ways, no message more than twice:
/// the cell names each message tied for most after its verdict, in
/// verdict order then by message, never one picked by the order the
/// students came in (issue #32).
#[test]
fn the_most_common_message_of_a_tie_names_every_tied_message() {
    let failures = [
        (Verdict::MemoryLimitExceeded, "memory limit exceeded"),
        (Verdict::RuntimeError, "exit code 1"),
        (Verdict::WrongAnswer, "board 2: expected 1, got 0"),
        (Verdict::RuntimeError, "exit code 1"),
        (Verdict::WrongAnswer, "board 1: expected 5, got 4"),
        (Verdict::WrongAnswer, "board 2: expected 1, got 0"),
        (Verdict::TimeLimitExceeded, "time limit exceeded"),
    ];
    let cell = |order: &mut dyn Iterator<Item = &(Verdict, &str)>| -> Vec<String> {
        let results: Vec<SubmissionResult> = order
            .enumerate()
            .map(|(index, &(verdict, message))| {
                let mut test = test_result("001", verdict, None);
                test.message = message.to_owned();
                submission(&format!("student{index}.py"), "rooks", vec![test])
            })
            .collect();
        let html = Html::parse_document(&render(&results));
        select(&html, "table.failed-most tbody td")
            .iter()
            .map(text)
            .collect()
    };
    let expected = [
        "001",
        "7 of 7",
        "2 messages tied at 2×: WA board 2: expected 1, got 0 · RE exit code 1 \
         and 3 other messages",
    ];
    assert_eq!(cell(&mut failures.iter()), expected);
    assert_eq!(cell(&mut failures.iter().rev()), expected);
}

/// Students as a class list orders them ("alice" before "Zoë Müller",
/// "Émile" between), in the matrix and the ranking alike; a student whose
/// only file was misnamed (a `missing` pair, nothing graded) is in the
/// ranking too, with 0, as in the CSV and the matrix (issue #32).
#[test]
fn students_read_as_a_class_list_and_none_is_left_out_of_the_ranking() {
    let ok = |name: &str| test_result(name, Verdict::Accepted, None);
    let results = vec![
        submission("submissions/rooks/Zoë Müller.py", "rooks", vec![ok("001")]),
        submission("submissions/rooks/alice.py", "rooks", vec![ok("001")]),
        submission("submissions/rooks/Émile.py", "rooks", vec![ok("001")]),
    ];
    let rows: Vec<crate::grading::grade::GradedResult> = results
        .into_iter()
        .map(|result| {
            let student = crate::discovery::student_from_path(&result.submission, "rooks");
            GradedResult::fixture(result, &student)
        })
        .collect();
    let options = Context {
        missing: vec![crate::report::Missing {
            student: "bob".to_owned(),
            problem: "rooks".to_owned(),
        }],
        ..Context::default()
    };
    let html = Html::parse_document(&render_with(&rows, &options));
    let first_cells =
        |selector: &str| -> Vec<String> { select(&html, selector).iter().map(text).collect() };
    assert_eq!(
        first_cells("table.matrix tbody th"),
        ["alice", "bob", "Émile", "Zoë Müller"]
    );
    assert_eq!(
        first_cells("table.ranking tbody th"),
        ["alice", "Émile", "Zoë Müller", "bob"]
    );
    let bob: Vec<String> = select(&html, "table.ranking tbody tr")[3]
        .select(&Selector::parse("td").unwrap())
        .map(|cell| text(&cell))
        .collect();
    assert_eq!(bob, ["4", "0.00", "—"]);
}
