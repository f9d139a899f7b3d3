//! The HTML report (`--html`), for a teacher. A class page: the class matrix
//! (students by problems, each cell the verdict and tests passed, coloured by
//! verdict, linking to the submission), then per problem a bar of its
//! verdicts and the tests the class fails most, then the students by total
//! score. Beside it, one page per submission with its tests: verdict, time,
//! memory, the checker's message and, from the excerpts the runner kept, the
//! input, the expected and the actual output with a unified diff.
//!
//! A class of 200 students with 60 tests each makes a page of tens of
//! megabytes that a browser needs seconds to open (issue #11), so a file
//! report is a set: `grades.html` and `grades/<student>-<problem>.html`
//! ([`render_pages`]; written by [`super::write_page_set`]). Standard output
//! gets everything on one page ([`render`]).
//!
//! Self-contained means no script, no external style sheet, font or image:
//! the pages open from a CI artefact or an e-mail attachment as they are, and
//! a Content-Security-Policy forbids fetching anything. Everything a
//! submission or a file controls is escaped; colour is decoration, the verdict
//! code is always written out (STYLE.md 7.6). Built from results only, so a
//! report can be rendered later from merged JSON reports.
//!
//! With [`Options::student_view`], hidden tests (every test but the samples,
//! [`super::is_sample`]) show their verdict, time and a message saying where
//! they failed ([`student_message`]: no expected value, no exit code or
//! signal) but none of their data, whatever the results hold.

use super::Row;
use crate::diff;
use crate::runner::{SubmissionResult, TestResult};
use crate::verdict::Verdict;
use std::fmt::Write as _;

const STYLE: &str = r#"
:root { --ink: #1f2328; --muted: #59636e; --line: #d1d9e0; --paper: #ffffff; }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 1200px; padding: 1.5rem; color: var(--ink);
  background: var(--paper); font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; }
h1 { font-size: 1.6rem; margin: 0 0 .25rem; }
h2 { font-size: 1.2rem; margin: 1rem 0 .4rem; display: flex; gap: .6rem; align-items: center; }
h3 { font-size: 1rem; margin: 1rem 0 .4rem; }
p { margin: .3rem 0; }
code, pre, .mono { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: 13px; }
.muted { color: var(--muted); }
table.matrix { border-collapse: collapse; margin: .8rem 0 1.5rem; }
table.matrix th, table.matrix td { border: 1px solid var(--line); padding: .35rem .6rem; text-align: left; vertical-align: middle; }
table.matrix thead th { background: #f6f8fa; }
table.matrix td.none { color: var(--muted); text-align: center; }
a.cell { display: block; text-decoration: none; padding: .2rem .45rem; border-radius: 4px; margin: 1px 0;
  font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 13px; white-space: nowrap; }
a.cell:hover { outline: 2px solid var(--ink); }
.verdict { display: inline-block; min-width: 3.2em; text-align: center; padding: .05rem .4rem;
  border-radius: 4px; font: bold 12px/1.6 ui-monospace, Menlo, Consolas, monospace; }
.v-ac { background: #d1f0d9; color: #0f5323; }
.v-wa { background: #fbd5d8; color: #7d1a24; }
.v-pe { background: #ffe2c2; color: #7a3e00; }
.v-tle, .v-mle, .v-ole { background: #fff0b3; color: #5c4400; }
.v-re { background: #e6dcf7; color: #3d2a73; }
.v-ce { background: #e3e5e8; color: #30363d; }
.v-je { background: #30363d; color: #ffffff; }
.legend .verdict { margin-right: .2rem; }
.legend span.item { margin-right: .9rem; white-space: nowrap; }
section.submission { border: 1px solid var(--line); border-radius: 8px; padding: 1rem; margin: 1.2rem 0; }
section.submission > h2 { margin-top: 0; }
details.test { border-top: 1px solid var(--line); }
/* One grid per summary with fixed tracks, so the columns line up from test
   to test; the disclosure marker is drawn by hand because a grid summary
   loses the built-in one. */
details.test > summary { cursor: pointer; padding: .35rem .2rem; list-style: none; display: grid;
  grid-template-columns: .9em 3.6em 11em 13em 5.5em minmax(0, 1fr); column-gap: .6em; align-items: baseline; }
details.test > summary > .verdict { justify-self: start; }
details.test > summary::-webkit-details-marker { display: none; }
details.test > summary::before { content: "▸"; color: var(--muted); }
details.test[open] > summary::before { content: "▾"; }
summary .name { font-family: ui-monospace, Menlo, Consolas, monospace; overflow-wrap: anywhere; padding-right: .5em; }
summary .time, summary .memory { color: var(--muted); }
summary .message { overflow-wrap: anywhere; }
.test-body { padding: .2rem 0 .8rem 1.2rem; }
.streams { display: grid; grid-template-columns: repeat(3, minmax(0, 1fr)); gap: .6rem; }
figure { margin: 0; min-width: 0; }
figcaption { font-size: 12px; color: var(--muted); margin: .3rem 0 .15rem; }
pre { margin: 0; padding: .45rem .6rem; background: #f6f8fa; border: 1px solid var(--line); border-radius: 4px;
  overflow: auto; max-height: 22em; white-space: pre; }
pre.diff span { display: block; }
pre.diff .add { background: #dafbe1; color: #116329; }
pre.diff .del { background: #ffebe9; color: #82071e; }
pre.diff .hunk { color: #0550ae; }
pre.diff .file { color: var(--muted); }
pre.diff .note { color: var(--muted); font-style: italic; }
.same { color: #116329; }
p.back { margin: 0 0 .6rem; }
section.problem { margin: .4rem 0 1.2rem; }
svg.verdict-bar { display: block; max-width: 100%; height: auto; border: 1px solid var(--line); border-radius: 3px; margin: .3rem 0; }
table.failed-most, table.ranking { border-collapse: collapse; margin: .5rem 0 1rem; }
table.failed-most th, table.failed-most td, table.ranking th, table.ranking td {
  border: 1px solid var(--line); padding: .25rem .6rem; text-align: left; vertical-align: top; }
table.failed-most thead th, table.ranking thead th { background: #f6f8fa; }
table.ranking td { font-variant-numeric: tabular-nums; text-align: right; }
table.ranking td.none { color: var(--muted); text-align: center; }
"#;

/// How the pages are rendered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// For students: hidden tests show no input, expected or actual output,
    /// standard error or random origin (`--student-view`).
    pub student_view: bool,
}

/// A report as a set of files: the class page and, in a folder beside it,
/// one page per submission.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pages {
    /// The class page (`grades.html`).
    pub class_page: String,
    /// File name (safe, unique) and text of each submission's page, in the
    /// order of the results.
    pub submissions: Vec<(String, String)>,
}

/// The whole report on one page (for standard output): the class page with
/// every submission's section below it.
pub fn render<R: Row>(rows: &[R]) -> String {
    render_with(rows, &Options::default())
}

/// [`render`] with options.
pub fn render_with<R: Row>(rows: &[R], options: &Options) -> String {
    let class = Class::new(rows);
    let links: Vec<String> = (0..class.results.len())
        .map(|index| format!("#{}", anchor(index)))
        .collect();
    let mut page = String::new();
    page_start(&mut page, "judge report");
    write_class(&mut page, &class, &links);
    for (index, (result, student)) in class.results.iter().zip(&class.students).enumerate() {
        write_submission(&mut page, Some(index), result, student, options);
    }
    page.push_str("</body>\n</html>\n");
    page
}

/// The report as a set: the class page, whose links go to `folder/<file>`,
/// and each submission's page, which links back to `../<class_file>`.
/// `folder` and `class_file` are plain file names (no `/`).
pub fn render_pages<R: Row>(
    rows: &[R],
    class_file: &str,
    folder: &str,
    options: &Options,
) -> Pages {
    let class = Class::new(rows);
    let names = page_names(&class.results, &class.students);
    let links: Vec<String> = names
        .iter()
        .map(|name| format!("{}/{}", encode_href(folder), encode_href(name)))
        .collect();
    let mut class_page = String::new();
    page_start(&mut class_page, "judge report");
    write_class(&mut class_page, &class, &links);
    class_page.push_str("</body>\n</html>\n");
    let back = format!("../{}", encode_href(class_file));
    let submissions = names
        .into_iter()
        .zip(class.results.iter().zip(&class.students))
        .map(|(name, (result, student))| {
            let mut page = String::new();
            page_start(
                &mut page,
                &format!("{student} · {} — judge report", result.problem),
            );
            let _ = writeln!(
                page,
                "<p class=\"back\"><a href=\"{back}\">← class report</a></p>"
            );
            write_submission(&mut page, None, result, student, options);
            page.push_str("</body>\n</html>\n");
            (name, page)
        })
        .collect();
    Pages {
        class_page,
        submissions,
    }
}

/// The results and their students, in the report's order.
struct Class<'a> {
    results: Vec<&'a SubmissionResult>,
    students: Vec<String>,
}

impl<'a> Class<'a> {
    fn new<R: Row>(rows: &'a [R]) -> Class<'a> {
        Class {
            results: rows.iter().map(Row::result).collect(),
            students: rows.iter().map(Row::student).collect(),
        }
    }
}

fn page_start(page: &mut String, title: &str) {
    page.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    // Defence in depth behind the escaping: even injected markup could
    // neither run a script nor fetch anything.
    page.push_str(
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; \
         style-src 'unsafe-inline'\">\n",
    );
    page.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    let _ = write!(page, "<title>{}</title>\n<style>", escape(title));
    page.push_str(STYLE);
    page.push_str("</style>\n</head>\n<body>\n");
}

/// Everything of the class page below `<body>`: heading, summary, matrix
/// (each cell linking to `links[index]`), the problems and the students by
/// score.
fn write_class(page: &mut String, class: &Class<'_>, links: &[String]) {
    page.push_str("<h1>judge report</h1>\n");
    write_summary(page, &class.results);
    write_matrix(page, &class.results, &class.students, links);
    write_problems(page, &class.results);
    write_ranking(page, &class.results, &class.students);
}

/// A file name for each submission's page: `<student>-<problem>.html` made
/// safe for any name (letters and digits of any script, `-` and `_` kept,
/// anything else `_`, so no `/`, `..` or leading dot; each part at most 80
/// bytes) and unique even on a case-insensitive file system (`-2`, `-3`, ...
/// on a clash).
pub fn page_names(results: &[&SubmissionResult], students: &[String]) -> Vec<String> {
    let mut taken = std::collections::HashSet::new();
    results
        .iter()
        .zip(students)
        .map(|(result, student)| {
            let stem = format!("{}-{}", safe_part(student), safe_part(&result.problem));
            let mut name = format!("{stem}.html");
            let mut number = 1;
            while !taken.insert(name.to_lowercase()) {
                number += 1;
                name = format!("{stem}-{number}.html");
            }
            name
        })
        .collect()
}

fn safe_part(text: &str) -> String {
    const MAX_BYTES: usize = 80;
    let mut part = String::new();
    for character in text.chars() {
        let character = if character.is_alphanumeric() || character == '-' || character == '_' {
            character
        } else {
            '_'
        };
        if part.len() + character.len_utf8() > MAX_BYTES {
            break;
        }
        part.push(character);
    }
    if part.is_empty() {
        part.push('_');
    }
    part
}

/// A file name as a relative URL: every byte but ASCII letters, digits and
/// `-_.~` percent-encoded, so no name can become a path or a scheme.
fn encode_href(name: &str) -> String {
    let mut encoded = String::with_capacity(name.len());
    for byte in name.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'_' | b'.' | b'~') {
            encoded.push(char::from(byte));
        } else {
            let _ = write!(encoded, "%{byte:02X}");
        }
    }
    encoded
}

/// Escapes text for element content and quoted attribute values.
pub fn escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for character in text.chars() {
        match character {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            '\'' => escaped.push_str("&#39;"),
            other => escaped.push(other),
        }
    }
    escaped
}

fn verdict_badge(verdict: Verdict) -> String {
    format!(
        "<span class=\"verdict {}\" title=\"{}\">{}</span>",
        verdict_class(verdict),
        verdict_title(verdict),
        verdict.code()
    )
}

fn verdict_class(verdict: Verdict) -> String {
    format!("v-{}", verdict.code().to_ascii_lowercase())
}

/// SPEC.md's names of the verdicts, for tooltips and the legend.
fn verdict_title(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Accepted => "accepted",
        Verdict::WrongAnswer => "wrong answer",
        Verdict::PresentationError => "presentation error",
        Verdict::TimeLimitExceeded => "time limit exceeded",
        Verdict::MemoryLimitExceeded => "memory limit exceeded",
        Verdict::OutputLimitExceeded => "output limit exceeded",
        Verdict::RuntimeError => "runtime error",
        Verdict::CompileError => "compile error",
        Verdict::JudgeError => "judge error",
    }
}

fn anchor(index: usize) -> String {
    format!("submission-{}", index + 1)
}

fn write_summary(page: &mut String, results: &[&SubmissionResult]) {
    let _ = write!(
        page,
        "<p class=\"summary\">{} submission{}",
        results.len(),
        if results.len() == 1 { "" } else { "s" }
    );
    for verdict in Verdict::ALL {
        let count = results
            .iter()
            .filter(|result| result.verdict == verdict)
            .count();
        if count > 0 {
            let _ = write!(page, " · {} {count}", verdict_badge(verdict));
        }
    }
    page.push_str("</p>\n<p class=\"legend muted\">");
    for verdict in Verdict::ALL {
        let _ = write!(
            page,
            "<span class=\"item\">{} {}</span>",
            verdict_badge(verdict),
            verdict_title(verdict)
        );
    }
    page.push_str("</p>\n");
}

/// Students by problems, both in order of first appearance; a student with
/// several submissions for one problem gets one line per submission in the
/// cell.
fn write_matrix(
    page: &mut String,
    results: &[&SubmissionResult],
    names: &[String],
    links: &[String],
) {
    let mut problems: Vec<&str> = Vec::new();
    let mut students: Vec<String> = Vec::new();
    let mut cells: Vec<(usize, usize, usize)> = Vec::new();
    for (index, (result, name)) in results.iter().zip(names).enumerate() {
        let problem = position_or_push(&mut problems, result.problem.as_str());
        let student = position_or_push(&mut students, name.clone());
        cells.push((student, problem, index));
    }
    page.push_str("<h2>Class matrix</h2>\n<table class=\"matrix\">\n<thead><tr><th>student</th>");
    for problem in &problems {
        let _ = write!(page, "<th>{}</th>", escape(problem));
    }
    page.push_str("</tr></thead>\n<tbody>\n");
    for (student_index, student) in students.iter().enumerate() {
        let _ = write!(page, "<tr><th>{}</th>", escape(student));
        for problem_index in 0..problems.len() {
            let here: Vec<usize> = cells
                .iter()
                .filter(|&&(student, problem, _)| {
                    student == student_index && problem == problem_index
                })
                .map(|&(_, _, index)| index)
                .collect();
            if here.is_empty() {
                page.push_str("<td class=\"none\">—</td>");
                continue;
            }
            page.push_str("<td>");
            for index in here {
                let (Some(result), Some(link)) = (results.get(index), links.get(index)) else {
                    continue;
                };
                let _ = write!(
                    page,
                    "<a class=\"cell {}\" href=\"{}\" title=\"{}\">{} {}/{}</a>",
                    verdict_class(result.verdict),
                    link,
                    escape(&result.submission),
                    result.verdict.code(),
                    result.passed,
                    result.total
                );
            }
            page.push_str("</td>");
        }
        page.push_str("</tr>\n");
    }
    page.push_str("</tbody>\n</table>\n");
}

/// Tests listed per problem in "failed most".
const FAILED_MOST_SHOWN: usize = 5;

/// Per problem, in order of first appearance: a bar of its submissions'
/// verdicts and the tests the class fails most, so a teacher sees at a
/// glance which case the lesson missed.
fn write_problems(page: &mut String, results: &[&SubmissionResult]) {
    let mut problems: Vec<&str> = Vec::new();
    for result in results {
        position_or_push(&mut problems, result.problem.as_str());
    }
    page.push_str("<h2>Problems</h2>\n");
    for problem in problems {
        let here: Vec<&SubmissionResult> = results
            .iter()
            .copied()
            .filter(|result| result.problem == problem)
            .collect();
        let _ = writeln!(
            page,
            "<section class=\"problem\">\n<h3>{} <span class=\"muted\">· {} submission{}</span></h3>",
            escape(problem),
            here.len(),
            if here.len() == 1 { "" } else { "s" }
        );
        let counts: Vec<(Verdict, usize)> = Verdict::ALL
            .into_iter()
            .map(|verdict| {
                let count = here
                    .iter()
                    .filter(|result| result.verdict == verdict)
                    .count();
                (verdict, count)
            })
            .filter(|&(_, count)| count > 0)
            .collect();
        write_verdict_bar(page, &counts, here.len());
        page.push_str("<p class=\"verdicts\">");
        let parts: Vec<String> = counts
            .iter()
            .map(|&(verdict, count)| format!("{} {count}", verdict_badge(verdict)))
            .collect();
        page.push_str(&parts.join(" · "));
        page.push_str("</p>\n");
        write_failed_most(page, &here);
        page.push_str("</section>\n");
    }
}

/// An inline SVG bar, one segment per verdict, as wide as its share of the
/// submissions; each segment has a `<title>` (tooltip) and the counts are
/// also written out beside it.
fn write_verdict_bar(page: &mut String, counts: &[(Verdict, usize)], total: usize) {
    const WIDTH: usize = 600;
    const HEIGHT: usize = 16;
    let label: Vec<String> = counts
        .iter()
        .map(|&(verdict, count)| format!("{} {count}", verdict.code()))
        .collect();
    let _ = write!(
        page,
        "<svg class=\"verdict-bar\" role=\"img\" aria-label=\"verdicts: {}\" \
         width=\"{WIDTH}\" height=\"{HEIGHT}\" viewBox=\"0 0 {WIDTH} {HEIGHT}\">",
        label.join(", ")
    );
    let mut x = 0;
    let mut before = 0;
    for &(verdict, count) in counts {
        // Edges at rounded cumulative shares: the segments tile the bar.
        before += count;
        let end = (before * WIDTH).checked_div(total).unwrap_or(0);
        let _ = write!(
            page,
            "<rect class=\"{}\" x=\"{x}\" y=\"0\" width=\"{}\" height=\"{HEIGHT}\" fill=\"{}\">\
             <title>{}: {count}</title></rect>",
            verdict_class(verdict),
            end - x,
            verdict_fill(verdict),
            verdict_title(verdict)
        );
        x = end;
    }
    page.push_str("</svg>\n");
}

/// The bar's colour of a verdict: the badge's background, a shade darker
/// where the badge's is too pale to see on white.
fn verdict_fill(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Accepted => "#4ac26b",
        Verdict::WrongAnswer => "#e5534b",
        Verdict::PresentationError => "#f0883e",
        Verdict::TimeLimitExceeded
        | Verdict::MemoryLimitExceeded
        | Verdict::OutputLimitExceeded => "#d4a72c",
        Verdict::RuntimeError => "#8a63d2",
        Verdict::CompileError => "#8c959f",
        Verdict::JudgeError => "#30363d",
    }
}

/// One test of a problem as the class did on it.
struct TestTally<'a> {
    name: &'a str,
    ran: usize,
    failed: usize,
    /// Each failing message with its count, in order of first appearance.
    messages: Vec<(&'a str, usize)>,
}

/// The tests most submissions fail, most first (ties in test order), each
/// with how many failed of how many ran it and its most common message.
fn write_failed_most(page: &mut String, results: &[&SubmissionResult]) {
    let mut tallies: Vec<TestTally<'_>> = Vec::new();
    for result in results {
        for test in &result.tests {
            let position = match tallies.iter().position(|tally| tally.name == test.name) {
                Some(position) => position,
                None => {
                    tallies.push(TestTally {
                        name: &test.name,
                        ran: 0,
                        failed: 0,
                        messages: Vec::new(),
                    });
                    tallies.len() - 1
                }
            };
            let Some(tally) = tallies.get_mut(position) else {
                continue;
            };
            tally.ran += 1;
            if !test.verdict.is_accepted() {
                tally.failed += 1;
                match tally
                    .messages
                    .iter_mut()
                    .find(|(message, _)| *message == test.message)
                {
                    Some((_, count)) => *count += 1,
                    None => tally.messages.push((&test.message, 1)),
                }
            }
        }
    }
    tallies.retain(|tally| tally.failed > 0);
    // A stable sort keeps the test order among equal counts.
    tallies.sort_by_key(|tally| std::cmp::Reverse(tally.failed));
    if tallies.is_empty() {
        page.push_str("<p class=\"muted\">No test failed.</p>\n");
        return;
    }
    page.push_str(
        "<table class=\"failed-most\">\n<thead><tr><th>test</th><th>failed</th>\
         <th>most common message</th></tr></thead>\n<tbody>\n",
    );
    for tally in tallies.iter().take(FAILED_MOST_SHOWN) {
        // The first of the most frequent: `max_by_key` would take the last.
        let mut common: Option<(&str, usize)> = None;
        for &(message, count) in &tally.messages {
            if common.is_none_or(|(_, best)| count > best) {
                common = Some((message, count));
            }
        }
        let (message, count) = common.unwrap_or(("", 0));
        let _ = writeln!(
            page,
            "<tr><td class=\"mono\">{}</td><td>{} of {}</td><td>{} <span class=\"muted\">({count}×)</span></td></tr>",
            escape(tally.name),
            tally.failed,
            tally.ran,
            escape(message)
        );
    }
    page.push_str("</tbody>\n</table>\n");
    if tallies.len() > FAILED_MOST_SHOWN {
        let _ = writeln!(
            page,
            "<p class=\"muted\">and {} more failing test{}</p>",
            tallies.len() - FAILED_MOST_SHOWN,
            if tallies.len() - FAILED_MOST_SHOWN == 1 {
                ""
            } else {
                "s"
            }
        );
    }
}

/// The students by total score, highest first; equal totals keep the
/// matrix's order. A student's score on a problem is their best submission's
/// (the gradebook's score, 0 to 100), the total the sum over problems.
fn write_ranking(page: &mut String, results: &[&SubmissionResult], names: &[String]) {
    let mut problems: Vec<&str> = Vec::new();
    let mut students: Vec<&str> = Vec::new();
    for (result, name) in results.iter().zip(names) {
        position_or_push(&mut problems, result.problem.as_str());
        position_or_push(&mut students, name.as_str());
    }
    // scores[student][problem], None when nothing was handed in.
    let mut scores: Vec<Vec<Option<f64>>> = vec![vec![None; problems.len()]; students.len()];
    for (result, name) in results.iter().zip(names) {
        let student = students.iter().position(|s| *s == name.as_str());
        let problem = problems.iter().position(|p| *p == result.problem.as_str());
        if let Some(cell) = student
            .zip(problem)
            .and_then(|(student, problem)| scores.get_mut(student)?.get_mut(problem))
        {
            let score = super::csv::score(result);
            *cell = Some(cell.map_or(score, |best: f64| best.max(score)));
        }
    }
    let mut order: Vec<(usize, f64)> = scores
        .iter()
        .map(|row| row.iter().flatten().sum::<f64>())
        .enumerate()
        .collect();
    order.sort_by(|a, b| b.1.total_cmp(&a.1));
    let _ = write!(
        page,
        "<h2>Students by score</h2>\n<table class=\"ranking\">\n<thead><tr><th>#</th><th>student</th>\
         <th>total <span class=\"muted\">of {}</span></th>",
        problems.len() * 100
    );
    for problem in &problems {
        let _ = write!(page, "<th>{}</th>", escape(problem));
    }
    page.push_str("</tr></thead>\n<tbody>\n");
    for (rank, (student, total)) in order.iter().enumerate() {
        let (Some(name), Some(row)) = (students.get(*student), scores.get(*student)) else {
            continue;
        };
        let _ = write!(
            page,
            "<tr><td>{}</td><th>{}</th><td class=\"total\">{total:.2}</td>",
            rank + 1,
            escape(name)
        );
        for score in row {
            match score {
                Some(score) => {
                    let _ = write!(page, "<td>{score:.2}</td>");
                }
                None => page.push_str("<td class=\"none\">—</td>"),
            }
        }
        page.push_str("</tr>\n");
    }
    page.push_str("</tbody>\n</table>\n");
}

fn position_or_push<T: PartialEq>(items: &mut Vec<T>, item: T) -> usize {
    match items.iter().position(|existing| *existing == item) {
        Some(position) => position,
        None => {
            items.push(item);
            items.len() - 1
        }
    }
}

/// One submission's section; `index` gives it an anchor on the one-page
/// report.
fn write_submission(
    page: &mut String,
    index: Option<usize>,
    result: &SubmissionResult,
    student: &str,
    options: &Options,
) {
    let id = index.map_or(String::new(), |index| format!(" id=\"{}\"", anchor(index)));
    let _ = write!(
        page,
        "<section class=\"submission\"{id}>\n<h2>{} {} <span class=\"muted\">·</span> {}</h2>\n",
        verdict_badge(result.verdict),
        escape(student),
        escape(&result.problem)
    );
    let _ = writeln!(
        page,
        "<p class=\"muted\"><code>{}</code> · {} · {}/{} tests passed · score {:.2}</p>",
        escape(&result.submission),
        escape(&result.language),
        result.passed,
        result.total,
        super::csv::score(result)
    );
    if !result.compile.ok || !result.compile.message.is_empty() {
        let heading = if result.compile.ok {
            "Compiler output"
        } else {
            "Did not compile"
        };
        let _ = writeln!(
            page,
            "<h3>{heading}</h3>\n<pre class=\"compile\">{}</pre>",
            escape(&result.compile.message)
        );
    }
    // Open the first failing test: that is what a reader came for.
    let first_failure = result
        .tests
        .iter()
        .position(|test| !test.verdict.is_accepted());
    for (position, test) in result.tests.iter().enumerate() {
        write_test(
            page,
            &result.problem,
            test,
            Some(position) == first_failure,
            options,
        );
    }
    page.push_str("</section>\n");
}

/// The message a student sees for a hidden test (issue 18): its verdict
/// and where it failed (`board 1`), but no expected value, no figure
/// derived from the input, no exit code or signal. A few resubmissions
/// must not build a table of the hidden answers. Limits (time, memory,
/// output) are the problem's, public anyway, and stay.
pub fn student_message(test: &TestResult) -> String {
    let what = match test.verdict {
        Verdict::WrongAnswer => "wrong answer",
        Verdict::PresentationError => "presentation error",
        Verdict::RuntimeError => return "runtime error".to_owned(),
        Verdict::TimeLimitExceeded
        | Verdict::MemoryLimitExceeded
        | Verdict::OutputLimitExceeded => return test.message.clone(),
        _ => return test.message.clone(),
    };
    // A locator is a word and a number before the first colon: `board 1`.
    let locator = test.message.split_once(':').map(|(head, _)| head.trim()).filter(|head| {
        let mut words = head.split_whitespace();
        matches!(
            (words.next(), words.next(), words.next()),
            (Some(word), Some(number), None)
                if word.chars().all(char::is_alphabetic) && number.chars().all(|c| c.is_ascii_digit())
        )
    });
    match locator {
        Some(locator) => format!("{locator}: {what}"),
        None => what.to_owned(),
    }
}

fn write_test(page: &mut String, problem: &str, test: &TestResult, open: bool, options: &Options) {
    let hidden = options.student_view && !super::is_sample(&test.name);
    let message = if hidden {
        student_message(test)
    } else {
        test.message.clone()
    };
    let _ = write!(
        page,
        "<details class=\"test\"{}>\n<summary>{} <span class=\"name\">{}</span> \
         <span class=\"time\">{} ms CPU, {} ms wall</span> <span class=\"memory\">{}</span> \
         <span class=\"message\">{}</span></summary>\n<div class=\"test-body\">\n",
        if open { " open" } else { "" },
        verdict_badge(test.verdict),
        escape(&test.name),
        test.time_ms,
        test.wall_ms,
        memory(test.memory_kib),
        escape(&message)
    );
    let mut facts = Vec::new();
    // A clean exit is the norm, and the runner's message already names a
    // crash ("exit code 1", "killed by signal 11 (SIGSEGV)"): say it only
    // when it adds something.
    if let Some(code) = test.exit_code.filter(|&code| code != 0 && !hidden) {
        let fact = format!("exit code {code}");
        if test.message != fact {
            facts.push(fact);
        }
    }
    if let Some(signal) = test.signal.filter(|_| !hidden) {
        if !test.message.starts_with("killed by signal") {
            facts.push(format!("signal {signal}"));
        }
    }
    if let Some(random) = test.random.as_ref().filter(|_| !hidden) {
        facts.push(format!(
            "random test: <code>judge gen {} --seed {} --profile {}</code> makes it as test {} (0-based)",
            escape(problem),
            random.seed,
            escape(&random.profile),
            random.index
        ));
    }
    if !facts.is_empty() {
        let _ = writeln!(page, "<p class=\"muted\">{}</p>", facts.join(" · "));
    }
    if hidden {
        page.push_str(
            "<p class=\"muted hidden-test\">A hidden test: its input and outputs are not shown.</p>\n\
             </div>\n</details>\n",
        );
        return;
    }
    if let Some(stderr) = &test.stderr {
        let _ = writeln!(
            page,
            "<figure><figcaption>standard error (first lines)</figcaption>\
             <pre class=\"stderr\">{}</pre></figure>",
            escape(stderr)
        );
    }
    match &test.excerpt {
        None => page.push_str("<p class=\"muted\">No data: the program did not run.</p>\n"),
        Some(excerpt) => {
            page.push_str("<div class=\"streams\">\n");
            write_stream(page, "input", "input", &excerpt.input);
            match &excerpt.expected {
                Some(expected) => write_stream(page, "expected", "expected answer", expected),
                None => page.push_str(
                    "<figure><figcaption>expected answer</figcaption>\
                     <p class=\"muted\">none (the checker decides alone, or the answer could not be read: see the message)</p></figure>\n",
                ),
            }
            write_stream(page, "actual", "actual output", &excerpt.actual);
            page.push_str("</div>\n");
            if let Some(expected) = &excerpt.expected {
                write_diff(page, test.verdict, expected, &excerpt.actual);
            }
        }
    }
    page.push_str("</div>\n</details>\n");
}

fn write_stream(page: &mut String, class: &str, caption: &str, text: &str) {
    let body = if text.is_empty() {
        "<span class=\"muted\">(empty)</span>".to_owned()
    } else {
        escape(text)
    };
    let _ = writeln!(
        page,
        "<figure><figcaption>{caption}</figcaption><pre class=\"{class}\">{body}</pre></figure>"
    );
}

fn write_diff(page: &mut String, verdict: Verdict, expected: &str, actual: &str) {
    if expected == actual {
        page.push_str("<p class=\"same\">The output is the expected answer, byte for byte.</p>\n");
        return;
    }
    let caption = if verdict.is_accepted() {
        "diff, expected → actual (the checker accepted another correct answer)"
    } else {
        "diff, expected → actual (the checker decides; the reference is one correct answer)"
    };
    let _ = write!(
        page,
        "<figure><figcaption>{caption}</figcaption><pre class=\"diff\">"
    );
    let text = diff::unified(expected, actual, "expected", "actual", false);
    for (number, line) in text.lines().enumerate() {
        let class = if number < 2 {
            "file"
        } else if line.starts_with("@@") {
            "hunk"
        } else if line.starts_with('+') {
            "add"
        } else if line.starts_with('-') {
            "del"
        } else if line.starts_with('\\') {
            "note"
        } else {
            "context"
        };
        // An empty block still takes a line's height only with content.
        let body = if line.is_empty() {
            " ".to_owned()
        } else {
            escape(line)
        };
        let _ = write!(page, "<span class=\"{class}\">{body}</span>");
    }
    page.push_str("</pre></figure>\n");
}

fn memory(kib: u64) -> String {
    if kib >= 1024 {
        format!("{}.{} MiB", kib / 1024, kib % 1024 * 10 / 1024)
    } else {
        format!("{kib} KiB")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hidden_tests_message_keeps_where_but_not_what() {
        let mut wrong = test_result("small-001", Verdict::WrongAnswer, None);
        wrong.message = "board 1: expected 3, got 0".to_owned();
        assert_eq!(student_message(&wrong), "board 1: wrong answer");
        wrong.message = "expected 3 boards, found 2".to_owned();
        assert_eq!(student_message(&wrong), "wrong answer");
        let mut crashed = test_result("small-002", Verdict::RuntimeError, None);
        crashed.message = "exit code 205".to_owned();
        crashed.exit_code = Some(205);
        assert_eq!(student_message(&crashed), "runtime error");
        let options = Options { student_view: true };
        let mut page = String::new();
        write_test(&mut page, "rooks", &crashed, true, &options);
        assert!(!page.contains("205"), "{page}");
    }
    use crate::runner::{CompileResult, Excerpt, RandomOrigin};
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
            stderr: None,

            excerpt,
        }
    }

    fn submission(path: &str, problem: &str, tests: Vec<TestResult>) -> SubmissionResult {
        let compile = CompileResult {
            ok: true,
            message: String::new(),
            verdict: None,
        };
        SubmissionResult {
            problem: problem.to_owned(),
            submission: path.to_owned(),
            language: "py".to_owned(),
            verdict: SubmissionResult::overall(&compile, &tests),
            passed: tests.iter().filter(|t| t.verdict.is_accepted()).count(),
            total: tests.len(),
            compile,
            tests,
        }
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
        let pages = render_pages(&fixture, "grades ü.html", "grades ü", &Options::default());
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
                ["002", "3 of 3", "board 1: expected 5, got 4 (2×)"],
                ["003", "1 of 3", "line 1: expected an integer (1×)"],
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
        let options = Options { student_view: true };
        let page = render_pages(&results, "grades.html", "grades", &options).submissions[0]
            .1
            .clone();
        assert!(!page.contains("SECRET"), "{page}");
        assert!(!page.contains("--seed 7"));
        let html = Html::parse_document(&page);
        let tests = select(&html, "details.test");
        assert_eq!(tests.len(), 2);
        // The sample whole; the hidden test's verdict, time and message.
        assert_eq!(text(&select(&html, "pre.input")[0]), "sample input\n");
        assert_eq!(select(&html, "pre.input").len(), 1);
        let hidden = text(&tests[1]);
        for shown in [
            "WA",
            "small-001",
            "4 ms CPU",
            "board 1: wrong answer",
            "hidden test",
        ] {
            assert!(hidden.contains(shown), "{shown}: {hidden}");
        }
        // Where it failed, not what was expected (issue 18).
        assert!(!hidden.contains("expected 2"), "{hidden}");
        // Without the option, the same results show everything.
        let teacher = render_with(&results, &Options::default());
        assert!(teacher.contains("SECRET-INPUT") && teacher.contains("--seed 7"));
    }

    /// At class scale the class page stays small: its size grows with the
    /// number of submissions, not with their tests or data (issue #11: 200
    /// students x 3 problems x 20 tests was one 22 MB page).
    #[test]
    fn class_page_stays_small_at_class_scale() {
        let class = |tests: usize| -> Vec<crate::report::json::GradedResult> {
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
                    rows.push(graded(result, &format!("student-{student:03}")));
                }
            }
            rows
        };
        let options = Options::default();
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

    fn graded(result: SubmissionResult, student: &str) -> crate::report::json::GradedResult {
        crate::report::json::GradedResult {
            result,
            student: student.to_owned(),
            expected: None,
            time_limit_ms: 1000,
            memory_limit_mib: 256,
            warnings: Vec::new(),
            submission_sha256: None,
            fingerprint: None,
            reused: false,
        }
    }

    #[test]
    fn escape_covers_markup_and_attribute_quotes() {
        assert_eq!(
            escape(r#"<a href="x" title='y'>&</a>"#),
            "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;"
        );
    }

    #[test]
    fn memory_reads_in_kib_or_mib() {
        assert_eq!(memory(512), "512 KiB");
        assert_eq!(memory(3120), "3.0 MiB");
        assert_eq!(memory(1536), "1.5 MiB");
    }
}
