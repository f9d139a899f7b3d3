//! The HTML report (`--html`), for a teacher. A class page: the class matrix
//! (students by problems, each cell the verdict and tests passed, coloured by
//! verdict, linking to the submission), per problem a bar of its verdicts
//! and the tests the class fails most, the files under the submissions
//! folder that were not graded (with the reason), and the students by total
//! score. Beside it, one page per submission with its tests: verdict, time,
//! memory, the checker's message and, from the excerpts the runner kept, the
//! input, the expected and the actual output with a unified diff, and the
//! submission's source when the grading layer found it as graded
//! (`Context::sources`, issue #32).
//!
//! A class of 200 students with 60 tests each makes a page of tens of
//! megabytes that a browser needs seconds to open (issue #11), so a file
//! report is a set: `grades.html` and `grades/<student>-<problem>.html`
//! ([`render_pages`]; written by `super::write_page_set`). Standard output
//! gets everything on one page ([`render`]).
//!
//! Self-contained means no script, no external style sheet, font or image:
//! the pages open from a CI artefact or an e-mail attachment as they are, and
//! a Content-Security-Policy forbids fetching anything. Everything a
//! submission or a file controls is escaped; colour is decoration, the verdict
//! code is always written out. Built from results (and the sources handed
//! in with them) only, so a report can be rendered later from merged JSON
//! reports.
//!
//! With `Context::student_view`, hidden tests (every test but the samples,
//! `super::is_sample`) show their verdict, time and message but none of
//! their data, whatever the results hold.

mod class;
mod submission;

use super::json::BeforeTests;
use super::rendering::{Context, Ranked, Standings};
use super::Row;
use crate::runner::SubmissionResult;
use crate::verdict::Verdict;
use class::{write_ignored, write_matrix, write_nav, write_problems, write_ranking, write_summary};
use std::fmt::Write as _;
use submission::{write_student_page, write_submission};

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
header.top { position: sticky; top: 0; z-index: 3; background: var(--paper); padding: .5rem 0 .3rem; border-bottom: 1px solid var(--line); }
header.top p { margin: .15rem 0; }
nav.problems a { margin-right: .8rem; }
header.top ~ [id], header.top ~ * [id] { scroll-margin-top: 11rem; }
div.scroll { max-height: 70vh; overflow: auto; border: 1px solid var(--line); margin: .5rem 0 1.5rem; }
div.scroll table { margin: 0; }
div.scroll thead th { position: sticky; top: 0; z-index: 1; }
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
.v-files { background: #ddf4ff; color: #0a3069; }
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
table.failed-most, table.ranking, table.ignored { border-collapse: collapse; margin: .5rem 0 1rem; }
table.failed-most th, table.failed-most td, table.ranking th, table.ranking td,
table.ignored th, table.ignored td {
  border: 1px solid var(--line); padding: .25rem .6rem; text-align: left; vertical-align: top; }
table.failed-most thead th, table.ranking thead th, table.ignored thead th { background: #f6f8fa; }
table.ignored td.mono { overflow-wrap: anywhere; }
table.ranking td { font-variant-numeric: tabular-nums; text-align: right; }
table.ranking td.none { color: var(--muted); text-align: center; }
p.partial { background: #fff8c5; border: 1px solid #d4a72c; border-radius: 3px; padding: .4rem .6rem; margin: .3rem 0; }
table.matrix td.not-graded { color: #9a6700; }
details.source { border-top: 1px solid var(--line); padding-top: .2rem; }
details.source > summary { cursor: pointer; padding: .35rem .2rem; }
p.source { border-top: 1px solid var(--line); padding-top: .5rem; margin-top: .3rem; }
pre.source { counter-reset: line; max-height: 40em; tab-size: 4; }
pre.source span.l { display: block; counter-increment: line; }
pre.source span.l::before { content: counter(line); display: inline-block; width: 5ch; margin-right: 1.5ch;
  text-align: right; color: var(--muted); user-select: none; -webkit-user-select: none; }
"#;

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
pub fn render<R: Row>(rows: &[R]) -> String
where
    [R]: Ranked,
{
    render_with(rows, &Context::default())
}

/// [`render`] with options.
pub(crate) fn render_with<R: Row>(rows: &[R], options: &Context) -> String
where
    [R]: Ranked,
{
    let class = Class::new(rows, options);
    let links: Vec<String> = (0..class.results.len())
        .map(|index| format!("#{}", anchor(index)))
        .collect();
    let mut page = String::new();
    page_start(&mut page, "judge report");
    write_class(&mut page, &class, &links, options);
    for (index, (result, student)) in class.results.iter().zip(&class.students).enumerate() {
        let handed_in = class.handed_in(index);
        let score = class.points(index);
        write_submission(
            &mut page,
            Some(index),
            result,
            student,
            score,
            handed_in,
            options,
        );
    }
    page.push_str("</body>\n</html>\n");
    page
}

/// The report as a set: the class page, whose links go to `folder/<file>`,
/// and each submission's page, which links back to `../<class_file>`.
/// `folder` and `class_file` are plain file names (no `/`).
pub fn render_pages<R: Row>(rows: &[R], class_file: &str, folder: &str, options: &Context) -> Pages
where
    [R]: Ranked,
{
    let class = Class::new(rows, options);
    if options.student_view {
        return student_pages(&class, folder, options);
    }
    let names = page_names(&class.results, &class.students);
    let links: Vec<String> = names
        .iter()
        .map(|name| format!("{}/{}", encode_href(folder), encode_href(name)))
        .collect();
    let mut class_page = String::new();
    page_start(&mut class_page, "judge report");
    write_class(&mut class_page, &class, &links, options);
    class_page.push_str("</body>\n</html>\n");
    let back = format!("../{}", encode_href(class_file));
    let submissions = names
        .into_iter()
        .zip(class.results.iter().zip(&class.students))
        .enumerate()
        .map(|(index, (name, (result, student)))| {
            let mut page = String::new();
            page_start(
                &mut page,
                &format!(
                    "{} · {} — judge report",
                    crate::visible::visible_name(student),
                    crate::visible::visible_name(&result.problem)
                ),
            );
            let _ = writeln!(
                page,
                "<p class=\"back\"><a href=\"{back}\">← class report</a></p>"
            );
            let handed_in = class.handed_in(index);
            let score = class.points(index);
            write_submission(&mut page, None, result, student, score, handed_in, options);
            page.push_str("</body>\n</html>\n");
            (name, page)
        })
        .collect();
    Pages {
        class_page,
        submissions,
    }
}

/// The student view's set (issue #32): a page per student to hand to that
/// student alone, `<student>.html` (named as [`page_names`] names them),
/// with their own results, the problems they handed nothing in for, their
/// files that were not graded and each of their submissions with its
/// tests; no other student's name or score, and no link to the class page.
/// The class page, for the teacher, links each cell to the student's page.
fn student_pages(class: &Class<'_>, folder: &str, options: &Context) -> Pages {
    let students = class::class_list(&class.students, &options.missing, &options.not_graded);
    let names = student_page_names(&students);
    let page_of = |student: &str| {
        students
            .iter()
            .position(|known| known == student)
            .and_then(|index| names.get(index))
    };
    let links: Vec<String> = class
        .students
        .iter()
        .enumerate()
        .map(|(index, student)| {
            page_of(student).map_or_else(String::new, |name| {
                format!(
                    "{}/{}#{}",
                    encode_href(folder),
                    encode_href(name),
                    anchor(index)
                )
            })
        })
        .collect();
    let mut class_page = String::new();
    page_start(&mut class_page, "judge report");
    write_class(&mut class_page, class, &links, options);
    class_page.push_str("</body>\n</html>\n");
    let submissions = students
        .iter()
        .zip(names)
        .map(|(student, name)| {
            let mut page = String::new();
            page_start(
                &mut page,
                &format!("{} — judge report", crate::visible::visible_name(student)),
            );
            write_student_page(&mut page, class, student, options);
            page.push_str("</body>\n</html>\n");
            (name, page)
        })
        .collect();
    Pages {
        class_page,
        submissions,
    }
}

/// A file name for each student's page: `<student>.html`, made safe and
/// unique as [`page_names`] makes a submission's.
fn student_page_names(students: &[String]) -> Vec<String> {
    unique_pages(students.iter().map(|student| safe_part(student)))
}

/// The results and their students, in the report's order.
struct Class<'a> {
    results: Vec<&'a SubmissionResult>,
    students: Vec<String>,
    /// Per result, the files handed in when there were several
    /// ([`Row::handed_in`]).
    handed_in: Vec<&'a [String]>,
    /// Per result, its score in points ([`Row::score_points`], the
    /// grading layer's figure).
    points: Vec<f64>,
    /// The class's scores per student and problem, totals and maxima (the
    /// grading layer's, [`Ranked`]).
    standings: Standings,
}

impl<'a> Class<'a> {
    fn new<R: Row>(rows: &'a [R], options: &Context) -> Class<'a>
    where
        [R]: Ranked,
    {
        Class {
            results: rows.iter().map(Row::result).collect(),
            students: rows.iter().map(Row::student).collect(),
            handed_in: rows.iter().map(Row::handed_in).collect(),
            points: rows.iter().map(Row::score_points).collect(),
            standings: rows.standings(&options.missing),
        }
    }

    /// The `index`th result's score in points.
    fn points(&self, index: usize) -> f64 {
        self.points.get(index).copied().unwrap_or(0.0)
    }

    /// The files handed in for the `index`th result when there were
    /// several, else nothing.
    fn handed_in(&self, index: usize) -> &'a [String] {
        self.handed_in.get(index).copied().unwrap_or(&[])
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

/// Everything of the class page below `<body>`: heading, summary, the
/// problems, the files not graded and why, the students by score and the
/// matrix (each cell linking to `links[index]`).
///
/// Issue #17: at 1,000 students a teacher reads what the class missed
/// first, so the per-problem summaries and the students by score lead and
/// the matrix comes last; a header with the counts and a link per problem
/// stays in view (CSS `position: sticky`, no script; the places it links to
/// stop below it, `scroll-margin-top`), and the long tables
/// scroll in their own boxes under their own sticky headings.
fn write_class(page: &mut String, class: &Class<'_>, links: &[String], options: &Context) {
    page.push_str("<header class=\"top\">\n<h1>judge report</h1>\n");
    match (options.interrupted, options.interrupted_while) {
        (true, Some(doing)) => {
            let problems: std::collections::BTreeSet<&str> = options
                .not_graded
                .iter()
                .map(|pair| pair.problem.as_str())
                .collect();
            write_nothing_graded_banner(page, doing, problems.len());
        }
        (true, None) => {
            write_partial_banner(page, class.results.len(), options.not_graded.len());
        }
        (false, _) => {}
    }
    write_summary(
        page,
        &class.results,
        &class.handed_in,
        options.missing.len(),
    );
    if options.student_view {
        // This page names every student: it is the teacher's.
        page.push_str(
            "<p class=\"muted\">Student view, for the teacher: each student's own page \
             (a cell's link) shows only that student's results; hand out those, not this one.</p>\n",
        );
    }
    write_nav(page, &class.results, options.ignored.len());
    page.push_str("</header>\n");
    write_problems(page, &class.results, &class.handed_in);
    write_ignored(page, &options.ignored);
    write_ranking(
        page,
        &class.standings,
        &class.students,
        &options.missing,
        &options.not_graded,
    );
    write_matrix(
        page,
        &class.results,
        &class.students,
        &class.handed_in,
        links,
        &options.missing,
        &options.not_graded,
    );
}

/// The banner of an interrupted grade's class page (issue #32): the page
/// holds part of the class, and the pairs not graded say so in the matrix.
fn write_partial_banner(page: &mut String, graded: usize, not_graded: usize) {
    let _ = writeln!(
        page,
        "<p class=\"partial\" role=\"alert\"><strong>Partial report: the grade was \
         interrupted.</strong> {graded} of {} pairs were graded; the {not_graded} not graded \
         read <q>not graded</q> in the matrix and are left out of every count and score. \
         <code>judge grade --resume</code> with this grade's JSON report grades only them.</p>",
        graded + not_graded
    );
}

/// The banner of a class page of a grade of `problems` problems stopped
/// before any test ran (issue #34), while `doing`: nothing on the page was
/// graded.
fn write_nothing_graded_banner(page: &mut String, doing: BeforeTests, problems: usize) {
    let _ = writeln!(
        page,
        "<p class=\"partial\" role=\"alert\"><strong>Nothing graded: the grade was \
         interrupted before any test ran</strong> ({}).</p>",
        escape(super::human::while_doing_of(doing, problems))
    );
}

/// A file name for each submission's page: `<student>-<problem>.html` made
/// safe for any name (letters and digits of any script, `-` and `_` kept,
/// anything else `_`, so no `/`, `..` or leading dot; each part at most 80
/// bytes) and unique even on a case-insensitive file system (`-2`, `-3`, ...
/// on a clash).
pub(crate) fn page_names(results: &[&SubmissionResult], students: &[String]) -> Vec<String> {
    unique_pages(
        results.iter().zip(students).map(|(result, student)| {
            format!("{}-{}", safe_part(student), safe_part(&result.problem))
        }),
    )
}

/// `<stem>.html` for each stem, unique even on a case-insensitive file
/// system: a clash gets `-2`, `-3`, ... in order.
fn unique_pages(stems: impl Iterator<Item = String>) -> Vec<String> {
    let mut taken = std::collections::HashSet::new();
    stems
        .map(|stem| {
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

/// Escapes text for element content and quoted attribute values. Control
/// characters but line breaks and tabs (a carriage return too) and
/// invisible format characters are shown visible (`\x1b`, `\x0d`,
/// `\u{202e}`, `\u{200b}`), as in the terminal
/// (`crate::visible::visible`): an output's escape sequences,
/// backspaces or a right-to-left override must not hide or reorder what a
/// reader of the page sees, nor a zero-width space make two students look
/// the same (issue 18, third and fourth red teams).
pub fn escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for character in text.chars() {
        match character {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            '\'' => escaped.push_str("&#39;"),
            other => {
                if !crate::visible::write_visible(&mut escaped, other) {
                    escaped.push(other);
                }
            }
        }
    }
    escaped
}

/// [`escape`] for a name a student controls (a student, a file), through
/// `crate::visible::visible_name`: a page folds runs of spaces,
/// so a space at an end or next to another one is shown as `\x20` (issue
/// 18, fifth red team).
pub fn escape_name(text: &str) -> String {
    escape(&crate::visible::visible_name(text))
}

fn verdict_badge(verdict: Verdict) -> String {
    format!(
        "<span class=\"verdict {}\" title=\"{}\">{}</span>",
        verdict_class(verdict),
        verdict_title(verdict),
        verdict.code()
    )
}

/// The badge of a pair with several files handed in, none run (issue
/// #32): its own category, not a compile error.
fn several_files_badge(files: usize) -> String {
    format!(
        "<span class=\"verdict v-files\" title=\"{files} files handed in for one problem; \
         none was graded\">{files} files</span>"
    )
}

fn verdict_class(verdict: Verdict) -> String {
    format!("v-{}", verdict.code().to_ascii_lowercase())
}

/// The verdicts' names (docs/report.md), for tooltips and the legend.
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

fn memory(kib: u64) -> String {
    if kib >= 1024 {
        format!("{}.{} MiB", kib / 1024, kib % 1024 * 10 / 1024)
    } else {
        format!("{kib} KiB")
    }
}

#[cfg(test)]
mod tests;
