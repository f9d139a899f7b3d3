//! The gradebook CSV (`--csv`): one row per (student, problem) with the
//! score and the most it could be (`score` of `max_score`: points with
//! test groups, else the percent of tests passed of 100), ready to import
//! into a spreadsheet or an LMS. Quoting is the `csv`
//! crate's (RFC 4180), so a name with a comma or a quote survives. Says
//! nothing about individual tests; the JSON and HTML reports do.

use super::human::visible_name;
use super::json::NOT_GRADED;
use super::{Missing, Row, Ungraded};

/// The verdict cell of a (student, problem) with no hand-in.
pub(crate) const MISSING: &str = "missing";

/// The header row, in column order.
/// `max_score` comes last, so a sheet that reads the first six columns
/// by position reads what it did before.
pub(crate) const HEADER: [&str; 7] = [
    "student",
    "problem",
    "score",
    "verdict",
    "passed",
    "total",
    "max_score",
];

/// The CSV text: a header, then one row per result in the order given.
/// Text cells are `neutralise`d, so the file is safe to open in a
/// spreadsheet. Writing to memory does not fail in practice; if the `csv`
/// crate ever did, the error is returned, never an empty gradebook.
pub fn render<R: Row>(rows: &[R]) -> Result<String, csv::Error> {
    render_gradebook(rows, &[], &[])
}

/// [`render`], then a row per (student, problem) of the class with no
/// hand-in: verdict `missing`, score 0, passed 0, total and max_score
/// empty; then a row per pair an interrupted grade did not grade
/// (`not_graded`): verdict [`NOT_GRADED`], every number empty.
pub(crate) fn render_gradebook<R: Row>(
    rows: &[R],
    missing: &[Missing],
    not_graded: &[Ungraded],
) -> Result<String, csv::Error> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    // Writing records of strings to memory has no failure left: the `csv`
    // crate fails only on I/O (none with a `Vec`) or on serialising
    // structures, which `write_record` does not do.
    writer.write_record(HEADER)?;
    // Each student's rows together, graded or not, students as a class
    // list orders them; within a student, problems in order of first
    // appearance (issue #32: `missing` rows came after every graded row,
    // and "Zoë" before "alice").
    let mut lines: Vec<(String, String, [String; 7])> = Vec::new();
    for row in rows {
        let result = row.result();
        lines.push((
            row.student(),
            result.problem.clone(),
            [
                neutralise(&visible_name(&row.student())),
                neutralise(&visible_name(&result.problem)),
                format!("{:.2}", row.score_points()),
                super::verdict_cell(result.verdict, row.handed_in()),
                result.passed.to_string(),
                result.total.to_string(),
                format!("{:.2}", row.max_score_points()),
            ],
        ));
    }
    for pair in missing {
        lines.push((
            pair.student.clone(),
            pair.problem.clone(),
            [
                neutralise(&visible_name(&pair.student)),
                neutralise(&visible_name(&pair.problem)),
                "0.00".to_owned(),
                MISSING.to_owned(),
                "0".to_owned(),
                String::new(),
                String::new(),
            ],
        ));
    }
    for pair in not_graded {
        lines.push((
            pair.student.clone(),
            pair.problem.clone(),
            [
                neutralise(&visible_name(&pair.student)),
                neutralise(&visible_name(&pair.problem)),
                String::new(),
                NOT_GRADED.to_owned(),
                String::new(),
                String::new(),
                String::new(),
            ],
        ));
    }
    let mut problems: Vec<&str> = Vec::new();
    for (_, problem, _) in &lines {
        if !problems.contains(&problem.as_str()) {
            problems.push(problem);
        }
    }
    let position = |problem: &str| problems.iter().position(|known| *known == problem);
    let mut order: Vec<usize> = (0..lines.len()).collect();
    // Stable: a pair's several submissions keep their order.
    order.sort_by(|&a, &b| {
        let (a, b) = (&lines[a], &lines[b]);
        crate::report::collation::names(&a.0, &b.0)
            .then_with(|| position(&a.1).cmp(&position(&b.1)))
    });
    for index in order {
        writer.write_record(&lines[index].2)?;
    }
    let bytes = writer
        .into_inner()
        .map_err(|error| csv::Error::from(error.into_error()))?;
    // Every cell is a `String`: the bytes are UTF-8 and nothing is lost.
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// A cell a spreadsheet would read as a formula (starting with `=`, `+`,
/// `-`, `@`, a tab or a carriage return; a student folder named
/// `=HYPERLINK(...)`) gets a leading single quote, as OWASP's "CSV
/// Injection" page recommends, so it shows as text (issue #8).
pub(crate) fn neutralise(cell: &str) -> String {
    // Some spreadsheets trim leading spaces before they parse a cell, so
    // ` =1` is a formula too (adversarial review of issue #8).
    let start = cell.trim_start_matches([' ', '\u{a0}']);
    if cell.starts_with(['=', '+', '-', '@', '\t', '\r'])
        || start.starts_with(['=', '+', '-', '@', '\t', '\r'])
    {
        format!("'{cell}")
    } else {
        cell.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grading::graded::score_points as score;
    use crate::runner::SubmissionResult;
    use test_case::test_case;

    #[test_case("=HYPERLINK(\"http://x\")", "'=HYPERLINK(\"http://x\")" ; "equals")]
    #[test_case("+1", "'+1" ; "plus")]
    #[test_case("-2+3", "'-2+3" ; "minus")]
    #[test_case("@SUM(A1)", "'@SUM(A1)" ; "at")]
    #[test_case("\tx", "'\tx" ; "tab")]
    #[test_case("\rx", "'\rx" ; "carriage return")]
    #[test_case(" =sp", "' =sp" ; "space then equals")]
    #[test_case("alice", "alice" ; "plain")]
    #[test_case("o'brien-=", "o'brien-=" ; "not at the start")]
    fn neutralises_formula_cells(cell: &str, expected: &str) {
        assert_eq!(neutralise(cell), expected);
    }

    /// See: issue #8. A student folder named like a formula reaches the
    /// gradebook as text.
    #[test]
    fn r8_a_formula_student_is_text_in_the_gradebook() {
        let text = render(&[result("=HYPERLINK(1)/rooks.py", "rooks", 1, 1)]).expect("renders");
        let rows = read(&text);
        assert_eq!(rows[1][0], "'=HYPERLINK(1)");
    }
    use crate::runner::CompileResult;
    use crate::verdict::Verdict;

    fn result(submission: &str, problem: &str, passed: usize, total: usize) -> SubmissionResult {
        let mut result = SubmissionResult::fixture(problem, submission, Vec::new());
        result.verdict = if passed == total {
            Verdict::Accepted
        } else {
            Verdict::WrongAnswer
        };
        result.passed = passed;
        result.total = total;
        result
    }

    fn read(text: &str) -> Vec<Vec<String>> {
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(text.as_bytes());
        reader
            .records()
            .map(|record| record.unwrap().iter().map(str::to_owned).collect())
            .collect()
    }

    #[test]
    fn one_row_per_submission_with_header_and_scores() {
        let text = render(&[
            result("submissions/rooks/alice.cpp", "rooks", 2, 3),
            result("class/bob/mayan.py", "mayan", 20, 20),
        ])
        .expect("renders");
        assert_eq!(
            text,
            "student,problem,score,verdict,passed,total,max_score\n\
             alice,rooks,66.67,WA,2,3,100.00\n\
             bob,mayan,100.00,AC,20,20,100.00\n"
        );
    }

    #[test]
    fn names_with_commas_and_quotes_round_trip() {
        let name = "o'brien, \"jr\"";
        let text = render(&[result(&format!("rooks/{name}.py"), "rooks", 1, 1)]).expect("renders");
        let rows = read(&text);
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0], HEADER.map(str::to_owned).to_vec());
        assert_eq!(rows[1][0], name);
        assert_eq!(rows[1][1], "rooks");
        assert_eq!(rows[1][2], "100.00");
    }

    /// See: issue 18. A student folder named with escape sequences and a
    /// line break reaches `cat grades.csv` with them made visible.
    #[test]
    fn control_characters_in_names_are_visible_in_the_gradebook() {
        let name = "x\u{1b}[2J\nrooks mallory AC";
        let text = render(&[result(&format!("rooks/{name}.py"), "rooks", 0, 1)]).expect("renders");
        assert!(!text.contains('\u{1b}'), "{text:?}");
        let rows = read(&text);
        assert_eq!(rows[1][0], "x\\x1b[2J\\nrooks mallory AC");
    }

    #[test]
    fn compile_errors_and_empty_runs_score_zero() {
        let mut failed = result("rooks/carol.cpp", "rooks", 0, 5);
        failed.verdict = Verdict::CompileError;
        failed.compile = CompileResult {
            ok: false,
            message: "error: expected `;`".to_owned(),
            verdict: Some(Verdict::CompileError),
            toolchain_missing: false,
        };
        assert_eq!(score(&failed), 0.0);
        assert_eq!(score(&result("rooks/dave.cpp", "rooks", 0, 0)), 0.0);
        let rows = read(&render(&[failed]).expect("renders"));
        assert_eq!(
            rows[1],
            ["carol", "rooks", "0.00", "CE", "0", "5", "100.00"]
        );
    }

    /// See: issue #15. A scored result's gradebook score is its `score`,
    /// of its `max_score`: points of the groups' maximum, never a percent
    /// in the same column without saying so.
    #[test]
    fn a_scored_result_shows_its_score_and_its_maximum() {
        let mut scored = result("tri/narrow.py", "tri", 3, 4);
        scored.score = Some(crate::verdict::Points(37.5));
        scored.max_score = Some(crate::verdict::Points(250.0));
        assert_eq!(score(&scored), 37.5);
        let rows = read(&render(&[scored]).expect("renders"));
        assert_eq!(rows[0][6], "max_score");
        assert_eq!(rows[1][2], "37.50");
        assert_eq!(rows[1][6], "250.00");
        // Without groups the score is a percent: of 100.
        let rows = read(&render(&[result("rooks/a.py", "rooks", 1, 4)]).expect("renders"));
        assert_eq!(
            (rows[1][2].as_str(), rows[1][6].as_str()),
            ("25.00", "100.00")
        );
    }
}
