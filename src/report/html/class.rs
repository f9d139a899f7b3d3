//! The class page's sections: the summary, the matrix, per problem its
//! verdicts and the tests failed most, and the students by score.

use super::super::{Ignored, Missing, Standings, Ungraded};
use super::{escape, escape_name, verdict_badge, verdict_class, verdict_title};
use crate::runner::SubmissionResult;
use crate::verdict::Verdict;
use std::fmt::Write as _;

/// The header's counts: the submissions by verdict, a pair with several
/// files handed in counted apart from the compile errors (issue #32), then
/// the class's pairs with nothing handed in, so every figure below it adds
/// up to one above it.
pub(super) fn write_summary(
    page: &mut String,
    results: &[&SubmissionResult],
    handed_in: &[&[String]],
    missing: usize,
) {
    let _ = write!(
        page,
        "<p class=\"summary\">{} submission{}",
        results.len(),
        if results.len() == 1 { "" } else { "s" }
    );
    let (counts, several) = verdict_counts(results, handed_in);
    for (verdict, count) in counts {
        let _ = write!(page, " · {} {count}", verdict_badge(verdict));
    }
    if several > 0 {
        let _ = write!(page, " · {} {several}", several_files_label());
    }
    if missing > 0 {
        let _ = write!(page, " · {missing} missing");
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
    if several > 0 {
        let _ = write!(
            page,
            "<span class=\"item\">{} several files handed in for one problem, none \
             graded</span>",
            several_files_label()
        );
    }
    page.push_str("</p>\n");
}

/// The category's label in counts and the legend.
fn several_files_label() -> &'static str {
    "<span class=\"verdict v-files\" title=\"several files handed in for one problem\">\
     files</span>"
}

/// The submissions per verdict (those with one) in verdict order, and
/// apart, how many were pairs with several files handed in.
fn verdict_counts(
    results: &[&SubmissionResult],
    handed_in: &[&[String]],
) -> (Vec<(Verdict, usize)>, usize) {
    let several = |index: usize| handed_in.get(index).is_some_and(|files| !files.is_empty());
    let counts = Verdict::ALL
        .into_iter()
        .map(|verdict| {
            let count = results
                .iter()
                .enumerate()
                .filter(|&(index, result)| result.verdict == verdict && !several(index))
                .count();
            (verdict, count)
        })
        .filter(|&(_, count)| count > 0)
        .collect();
    let several = (0..results.len()).filter(|&index| several(index)).count();
    (counts, several)
}

/// The problems in order of first appearance.
fn problems_of<'a>(results: &[&'a SubmissionResult]) -> Vec<&'a str> {
    let mut problems: Vec<&str> = Vec::new();
    for result in results {
        position_or_push(&mut problems, result.problem.as_str());
    }
    problems
}

/// The anchor of the `index`th problem's section (an index, so any
/// problem id makes a valid fragment).
fn problem_anchor(index: usize) -> String {
    format!("problem-{}", index + 1)
}

/// The header's links: one per problem, then the students and the matrix.
pub(super) fn write_nav(page: &mut String, results: &[&SubmissionResult], ignored: usize) {
    page.push_str("<nav class=\"problems\">");
    for (index, problem) in problems_of(results).into_iter().enumerate() {
        let _ = write!(
            page,
            "<a href=\"#{}\">{}</a>",
            problem_anchor(index),
            escape(problem)
        );
    }
    if ignored > 0 {
        let _ = write!(page, "<a href=\"#ignored\">ignored files ({ignored})</a>");
    }
    page.push_str(
        "<a href=\"#students\">students by score</a><a href=\"#matrix\">class matrix</a></nav>\n",
    );
}

/// The files under the submissions folder that were not graded, each with
/// the reason (a typo in a problem's name gets its "did you mean"), in a
/// box of its own that scrolls, so a class with many stays one screen;
/// nothing when every file was graded.
pub(super) fn write_ignored(page: &mut String, ignored: &[Ignored]) {
    if ignored.is_empty() {
        return;
    }
    let _ = write!(
        page,
        "<h2 id=\"ignored\">Ignored files <span class=\"muted\">· {} not graded</span></h2>\n\
         <div class=\"scroll\">\n<table class=\"ignored\">\n\
         <thead><tr><th>file</th><th>why it was not graded</th></tr></thead>\n<tbody>\n",
        ignored.len()
    );
    for file in ignored {
        let _ = writeln!(
            page,
            "<tr><td class=\"mono\">{}</td><td>{}</td></tr>",
            escape(&one_line(&file.path)),
            escape(&one_line(&file.reason))
        );
    }
    page.push_str("</tbody>\n</table>\n</div>\n");
}

/// A file name (or a reason quoting one) on one line, its line breaks and
/// tabs shown as `\n`, `\r`, `\t` as the terminal shows them: a page
/// shows a raw break as a space, so `new\nline.txt` read as a file
/// `new line.txt` that does not exist.
fn one_line(text: &str) -> String {
    text.replace('\n', "\\n")
        .replace('\r', "\\r")
        .replace('\t', "\\t")
}

/// Students by problems, both in order of first appearance; a student with
/// several submissions for one problem gets one line per submission in the
/// cell.
pub(super) fn write_matrix(
    page: &mut String,
    results: &[&SubmissionResult],
    names: &[String],
    handed_in: &[&[String]],
    links: &[String],
    missing: &[Missing],
    not_graded: &[Ungraded],
) {
    let students = class_list(names, missing, not_graded);
    let mut problems: Vec<&str> = Vec::new();
    let mut cells: Vec<(usize, usize, usize)> = Vec::new();
    for (index, (result, name)) in results.iter().zip(names).enumerate() {
        let problem = position_or_push(&mut problems, result.problem.as_str());
        let Some(student) = students.iter().position(|known| known == name) else {
            continue;
        };
        cells.push((student, problem, index));
    }
    for pair in missing {
        position_or_push(&mut problems, pair.problem.as_str());
    }
    // The pairs an interrupt left: a cell each that says so (issue #32).
    let mut ungraded: std::collections::HashSet<(usize, usize)> = Default::default();
    for pair in not_graded {
        let problem = position_or_push(&mut problems, pair.problem.as_str());
        let Some(student) = students.iter().position(|known| *known == pair.student) else {
            continue;
        };
        ungraded.insert((student, problem));
    }
    let mut at: std::collections::HashMap<(usize, usize), Vec<usize>> =
        std::collections::HashMap::new();
    for &(student, problem, index) in &cells {
        at.entry((student, problem)).or_default().push(index);
    }
    let missing: std::collections::HashSet<(&str, &str)> = missing
        .iter()
        .map(|pair| (pair.student.as_str(), pair.problem.as_str()))
        .collect();
    page.push_str(
        "<h2 id=\"matrix\">Class matrix</h2>\n<div class=\"scroll\">\n<table class=\"matrix\">\n\
         <thead><tr><th>student</th>",
    );
    for problem in &problems {
        let _ = write!(page, "<th>{}</th>", escape(problem));
    }
    page.push_str("</tr></thead>\n<tbody>\n");
    for (student_index, student) in students.iter().enumerate() {
        let _ = write!(page, "<tr><th>{}</th>", escape_name(student));
        for problem_index in 0..problems.len() {
            let here = at
                .get(&(student_index, problem_index))
                .map_or(&[][..], Vec::as_slice);
            if here.is_empty() && ungraded.contains(&(student_index, problem_index)) {
                page.push_str("<td class=\"none not-graded\">not graded</td>");
                continue;
            }
            if here.is_empty() {
                let is_missing = problems
                    .get(problem_index)
                    .is_some_and(|problem| missing.contains(&(student.as_str(), *problem)));
                page.push_str(if is_missing {
                    "<td class=\"none missing\">missing</td>"
                } else {
                    "<td class=\"none\">—</td>"
                });
                continue;
            }
            page.push_str("<td>");
            for &index in here {
                let (Some(result), Some(link)) = (results.get(index), links.get(index)) else {
                    continue;
                };
                let files = handed_in.get(index).copied().unwrap_or(&[]);
                if !files.is_empty() {
                    let names: Vec<String> = files.iter().map(|file| escape_name(file)).collect();
                    let _ = write!(
                        page,
                        "<a class=\"cell v-files\" href=\"{link}\" title=\"{}\">{} files</a>",
                        names.join(", "),
                        files.len()
                    );
                    continue;
                }
                let _ = write!(
                    page,
                    "<a class=\"cell {}\" href=\"{}\" title=\"{}\">{} {}/{}</a>",
                    verdict_class(result.verdict),
                    link,
                    escape_name(&result.submission),
                    result.verdict.code(),
                    result.passed,
                    result.total
                );
            }
            page.push_str("</td>");
        }
        page.push_str("</tr>\n");
    }
    page.push_str("</tbody>\n</table>\n</div>\n");
    // What the cells without a result mean (issue #32).
    page.push_str(
        "<p class=\"legend muted\"><span class=\"item\"><q>missing</q>: a student of the \
         class handed in nothing for this problem (score 0)</span>",
    );
    if !ungraded.is_empty() {
        page.push_str(
            "<span class=\"item\"><q>not graded</q>: handed in, but the grade was interrupted \
             before it was graded (no score yet)</span>",
        );
    }
    page.push_str(
        "<span class=\"item\"><q>—</q>: no submission for this pair and none expected (the \
         problem is not one of the class's, or the layout has no class)</span></p>\n",
    );
}

/// Tests listed per problem in "failed most".
pub(super) const FAILED_MOST_SHOWN: usize = 5;

/// Per problem, in order of first appearance: a bar of its submissions'
/// verdicts and the tests the class fails most, so a teacher sees at a
/// glance which case the lesson missed.
pub(super) fn write_problems(
    page: &mut String,
    results: &[&SubmissionResult],
    handed_in: &[&[String]],
) {
    page.push_str("<h2>Problems</h2>\n");
    for (index, problem) in problems_of(results).into_iter().enumerate() {
        let (here, here_files): (Vec<&SubmissionResult>, Vec<&[String]>) = results
            .iter()
            .copied()
            .zip(handed_in.iter().copied().chain(std::iter::repeat(&[][..])))
            .filter(|(result, _)| result.problem == problem)
            .unzip();
        // "7 of 23" below counts the submissions that ran a test; say how
        // many did, so it adds up to the heading's (issue #32).
        let ran = here
            .iter()
            .filter(|result| !result.tests.is_empty())
            .count();
        let ran = if ran == here.len() {
            String::new()
        } else {
            format!(" · {ran} ran tests")
        };
        let _ = writeln!(
            page,
            "<section class=\"problem\" id=\"{}\">\n<h3>{} <span class=\"muted\">· {} submission{}{ran}</span></h3>",
            problem_anchor(index),
            escape(problem),
            here.len(),
            if here.len() == 1 { "" } else { "s" }
        );
        let (counts, several) = verdict_counts(&here, &here_files);
        // The bar is of the submissions graded: those with several files
        // have no verdict of their own.
        write_verdict_bar(page, &counts, here.len() - several);
        page.push_str("<p class=\"verdicts\">");
        let mut parts: Vec<String> = counts
            .iter()
            .map(|&(verdict, count)| format!("{} {count}", verdict_badge(verdict)))
            .collect();
        if several > 0 {
            parts.push(format!("{} {several}", several_files_label()));
        }
        page.push_str(&parts.join(" · "));
        page.push_str("</p>\n");
        write_failed_most(page, &here);
        page.push_str("</section>\n");
    }
}

/// An inline SVG bar, one segment per verdict, as wide as its share of the
/// submissions; each segment has a `<title>` (tooltip) and the counts are
/// also written out beside it.
pub(super) fn write_verdict_bar(page: &mut String, counts: &[(Verdict, usize)], total: usize) {
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
pub(super) fn verdict_fill(verdict: Verdict) -> &'static str {
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
pub(super) struct TestTally<'a> {
    name: &'a str,
    ran: usize,
    failed: usize,
    /// Each failing (verdict, message) with its count.
    messages: Vec<(Verdict, &'a str, usize)>,
}

/// The tests most submissions fail, most first (ties in test order), each
/// with how many failed of how many ran it and its most common message.
pub(super) fn write_failed_most(page: &mut String, results: &[&SubmissionResult]) {
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
                match tally.messages.iter_mut().find(|(verdict, message, _)| {
                    *verdict == test.verdict && *message == test.message
                }) {
                    Some((_, _, count)) => *count += 1,
                    None => tally.messages.push((test.verdict, &test.message, 1)),
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
        "<table class=\"failed-most\">\n<thead><tr><th>test</th>\
         <th>failed <span class=\"muted\">of the submissions that ran it</span></th>\
         <th>most common message</th></tr></thead>\n<tbody>\n",
    );
    for tally in tallies.iter().take(FAILED_MOST_SHOWN) {
        let _ = writeln!(
            page,
            "<tr><td class=\"mono\">{}</td><td>{} of {}</td><td>{}</td></tr>",
            escape(tally.name),
            tally.failed,
            tally.ran,
            common_messages(&tally.messages)
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

/// The messages a test failed with, for the "most common message" cell,
/// each after its verdict: the most frequent one with its count; when
/// several are equally frequent, each of them (up to three), never one
/// picked arbitrarily; then how many other messages there were (issue #32:
/// one student's MLE was shown for a test seven students failed five
/// ways). Ties are ordered by verdict (`Verdict::ALL`'s order), then by
/// message, so the cell does not change with the order of the results.
fn common_messages(messages: &[(Verdict, &str, usize)]) -> String {
    const TIED_SHOWN: usize = 3;
    let most = messages
        .iter()
        .map(|&(_, _, count)| count)
        .max()
        .unwrap_or(0);
    let mut tied: Vec<(Verdict, &str)> = messages
        .iter()
        .filter(|&&(_, _, count)| count == most)
        .map(|&(verdict, message, _)| (verdict, message))
        .collect();
    let rank = |verdict: Verdict| Verdict::ALL.iter().position(|known| *known == verdict);
    tied.sort_by(|a, b| rank(a.0).cmp(&rank(b.0)).then_with(|| a.1.cmp(b.1)));
    let mut cell = String::new();
    if tied.len() > 1 {
        let _ = write!(
            cell,
            "<span class=\"muted\">{} messages tied at {most}×:</span> ",
            tied.len()
        );
    }
    let shown: Vec<String> = tied
        .iter()
        .take(TIED_SHOWN)
        .map(|&(verdict, message)| format!("{} {}", verdict.code(), escape(message)))
        .collect();
    cell.push_str(&shown.join(" <span class=\"muted\">·</span> "));
    if tied.len() == 1 {
        let _ = write!(cell, " <span class=\"muted\">({most}×)</span>");
    }
    let others = messages.len() - tied.len().min(TIED_SHOWN);
    if others > 0 {
        let _ = write!(
            cell,
            " <span class=\"muted\">and {others} other message{}</span>",
            if others == 1 { "" } else { "s" }
        );
    }
    cell
}

/// The students by total score, highest first; equal totals keep the
/// matrix's order (a class list's), as the grading layer ranked them
/// ([`Standings`]). Every
/// student of the class is there, those with nothing graded too (their
/// files misnamed, or nothing handed in), as in the CSV and the matrix.
pub(super) fn write_ranking(
    page: &mut String,
    standings: &Standings,
    names: &[String],
    missing: &[Missing],
    not_graded: &[Ungraded],
) {
    let students = class_list(names, missing, not_graded);
    let mut order: Vec<(usize, f64)> = students
        .iter()
        .map(|student| standings.total(student))
        .enumerate()
        .collect();
    order.sort_by(|a, b| b.1.total_cmp(&a.1));
    let _ = write!(
        page,
        "<h2 id=\"students\">Students by score</h2>\n<div class=\"scroll\">\n<table class=\"ranking\">\n\
         <thead><tr><th>#</th><th>student</th>\
         <th>total <span class=\"muted\">of {}</span></th>",
        crate::verdict::Points(standings.most)
    );
    for problem in standings.problems() {
        let _ = write!(page, "<th>{}</th>", escape(problem));
    }
    page.push_str("</tr></thead>\n<tbody>\n");
    for (rank, (student, total)) in order.iter().enumerate() {
        let Some(name) = students.get(*student) else {
            continue;
        };
        let _ = write!(
            page,
            "<tr><td>{}</td><th>{}</th><td class=\"total\">{total:.2}</td>",
            rank + 1,
            escape_name(name)
        );
        for problem in standings.problems() {
            match standings.score(name, problem) {
                Some(score) => {
                    let _ = write!(page, "<td>{score:.2}</td>");
                }
                None => page.push_str("<td class=\"none\">—</td>"),
            }
        }
        page.push_str("</tr>\n");
    }
    page.push_str("</tbody>\n</table>\n</div>\n");
    page.push_str(
        "<p class=\"legend muted\"><span class=\"item\"><q>—</q>: no result for this problem \
         (nothing handed in, or not graded); it counts 0 in the total</span></p>\n",
    );
}

/// Every student of the class — with a result, or with only pairs that are
/// missing (their files were misnamed, or they handed in nothing) or not
/// graded — once each, as a class list orders names.
pub(super) fn class_list(
    names: &[String],
    missing: &[Missing],
    not_graded: &[Ungraded],
) -> Vec<String> {
    let mut students: Vec<String> = Vec::new();
    for name in names {
        position_or_push(&mut students, name.clone());
    }
    for pair in missing {
        position_or_push(&mut students, pair.student.clone());
    }
    for pair in not_graded {
        position_or_push(&mut students, pair.student.clone());
    }
    students.sort_by(|a, b| crate::report::collation::names(a, b));
    students
}

pub(super) fn position_or_push<T: PartialEq>(items: &mut Vec<T>, item: T) -> usize {
    match items.iter().position(|existing| *existing == item) {
        Some(position) => position,
        None => {
            items.push(item);
            items.len() - 1
        }
    }
}
