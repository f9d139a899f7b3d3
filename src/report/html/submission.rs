//! A submission's section: its tests with verdict, time, memory, the
//! checker's message and the excerpts of input, expected and actual output
//! with a diff.

use super::{anchor, escape, escape_name, memory, verdict_badge};
use crate::diff;
use crate::report::rendering::Context;
use crate::report::source::SourceView;
use crate::runner::events::CompileState;
use crate::runner::{SubmissionResult, TestResult};
use crate::verdict::Verdict;
use std::fmt::Write as _;

/// A scored submission's test groups: a row per group with its verdict,
/// its score of its maximum and its tests.
fn write_groups(page: &mut String, result: &SubmissionResult) {
    if result.groups.is_empty() {
        return;
    }
    page.push_str(
        "<table class=\"groups\">\n<thead><tr><th>group</th><th>verdict</th><th>score</th>\
         <th>tests</th></tr></thead>\n<tbody>\n",
    );
    for group in &result.groups {
        let _ = writeln!(
            page,
            "<tr><td>{}</td><td>{}</td><td>{} of {}</td><td>{}</td></tr>",
            escape(&group.name),
            verdict_badge(group.verdict),
            group.score,
            group.max_score,
            escape(&group.tests.join(", "))
        );
    }
    page.push_str("</tbody>\n</table>\n");
}

/// One submission's section; `index` gives it an anchor on the one-page
/// report.
pub(super) fn write_submission(
    page: &mut String,
    index: Option<usize>,
    result: &SubmissionResult,
    student: &str,
    score: f64,
    handed_in: &[String],
    options: &Context,
) {
    let id = index.map_or(String::new(), |index| format!(" id=\"{}\"", anchor(index)));
    if !handed_in.is_empty() {
        write_several_files(page, &id, (result, score), student, handed_in);
        return;
    }
    let _ = write!(
        page,
        "<section class=\"submission\"{id}>\n<h2>{} {} <span class=\"muted\">·</span> {}</h2>\n",
        verdict_badge(result.verdict),
        escape_name(student),
        escape(&result.problem)
    );
    let _ = writeln!(
        page,
        "<p class=\"muted\"><code>{}</code> · {} · {}/{} tests passed · score {:.2}</p>",
        escape_name(&result.submission),
        escape(&result.language),
        result.passed,
        result.total,
        score
    );
    write_groups(page, result);
    let compiled = result.compile.state() == CompileState::Compiled;
    if !compiled || !result.compile.message.is_empty() {
        let heading = if compiled {
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
    if let Some(source) = options.sources.get(&result.submission) {
        write_source(page, &result.submission, source);
    }
    page.push_str("</section>\n");
}

/// The most lines of a source shown open; a longer one starts collapsed,
/// so the tests above stay in reach.
const OPEN_LINES: usize = 80;

/// A submission's source (issue #32), numbered by line (the numbers are
/// drawn by the style sheet, so a copy of the text has none), or why it is
/// not shown.
fn write_source(page: &mut String, path: &str, source: &SourceView) {
    let path = escape_name(path);
    let text = match source {
        SourceView::Text { text, .. } => text,
        SourceView::Binary { bytes: size } => {
            let _ = writeln!(
                page,
                "<p class=\"muted source\">Source <code>{path}</code>: binary file, {size} bytes, \
                 not shown.</p>"
            );
            return;
        }
        SourceView::Changed => {
            let _ = writeln!(
                page,
                "<p class=\"muted source\">Source not shown: <code>{path}</code> changed since \
                 it was graded (its SHA-256 is not the one the report recorded).</p>"
            );
            return;
        }
        SourceView::Gone => {
            let _ = writeln!(
                page,
                "<p class=\"muted source\">Source not shown: it is no longer at \
                 <code>{path}</code>.</p>"
            );
            return;
        }
        SourceView::NotShown(reason) => {
            let _ = writeln!(
                page,
                "<p class=\"muted source\">Source <code>{path}</code> not shown: {}.</p>",
                escape(reason)
            );
            return;
        }
    };
    let lines = text.lines().count();
    let size = match source {
        SourceView::Text { total_bytes, .. } if source.is_cut() => format!(
            "the first {} of {} shown",
            bytes(text.len() as u64),
            bytes(*total_bytes)
        ),
        _ => bytes(text.len() as u64),
    };
    let open = if lines <= OPEN_LINES && !source.is_cut() {
        " open"
    } else {
        ""
    };
    let _ = write!(
        page,
        "<details class=\"source\"{open}>\n<summary>Source <code>{path}</code> \
         <span class=\"muted\">· {lines} {} · {size}</span></summary>\n<pre class=\"source\">",
        if lines == 1 { "line" } else { "lines" }
    );
    for line in text.lines() {
        let _ = write!(page, "<span class=\"l\">{}\n</span>", escape(line));
    }
    page.push_str("</pre>\n");
    if source.is_cut() {
        let _ = writeln!(
            page,
            "<p class=\"muted\">Cut: the page shows the first {} of the file.</p>",
            bytes(text.len() as u64)
        );
    }
    page.push_str("</details>\n");
}

/// A size in bytes, KiB or MiB.
fn bytes(count: u64) -> String {
    if count < 1024 {
        format!("{count} bytes")
    } else if count < 1 << 20 {
        format!("{}.{} KiB", count >> 10, ((count & 1023) * 10) >> 10)
    } else {
        format!(
            "{}.{} MiB",
            count >> 20,
            ((count & ((1 << 20) - 1)) * 10) >> 20
        )
    }
}

/// The section of a pair with several files handed in (issue #32): not a
/// compile error, and every file named.
fn write_several_files(
    page: &mut String,
    id: &str,
    (result, score): (&SubmissionResult, f64),
    student: &str,
    handed_in: &[String],
) {
    let _ = write!(
        page,
        "<section class=\"submission\"{id}>\n<h2>{} {} <span class=\"muted\">·</span> {}</h2>\n\
         <p class=\"muted\">score {:.2}</p>\n<h3>{} files handed in for one problem: none was \
         graded</h3>\n<ul class=\"handed-in\">\n",
        super::several_files_badge(handed_in.len()),
        escape_name(student),
        escape(&result.problem),
        score,
        handed_in.len()
    );
    for file in handed_in {
        let _ = writeln!(page, "<li><code>{}</code></li>", escape_name(file));
    }
    let _ = writeln!(
        page,
        "</ul>\n<p>Hand in one file named <code>{}.&lt;ext&gt;</code>.</p>\n</section>",
        escape(&result.problem)
    );
}

pub(super) fn write_test(
    page: &mut String,
    problem: &str,
    test: &TestResult,
    open: bool,
    options: &Context,
) {
    let hidden = options.student_view && !crate::report::is_sample(&test.name);
    let message = if hidden {
        crate::report::student_message(test)
    } else {
        test.message.clone()
    };
    // A hidden test's figures are withheld (`hide_test_data` zeroes them):
    // "0 ms, 0 KiB" read as a measurement (issue #32).
    let (time, memory_used) = if hidden {
        ("hidden".to_owned(), "hidden".to_owned())
    } else {
        (
            format!("{} ms CPU, {} ms wall", test.time_ms, test.wall_ms),
            memory(test.memory_kib),
        )
    };
    let _ = write!(
        page,
        "<details class=\"test\"{}>\n<summary>{} <span class=\"name\">{}</span> \
         <span class=\"time\">{time}</span> <span class=\"memory\">{memory_used}</span> \
         <span class=\"message\">{}</span></summary>\n<div class=\"test-body\">\n",
        if open { " open" } else { "" },
        verdict_badge(test.verdict),
        escape(&test.name),
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
            "<figure><figcaption>standard error (first and last lines)</figcaption>\
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

pub(super) fn write_stream(page: &mut String, class: &str, caption: &str, text: &str) {
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

pub(super) fn write_diff(page: &mut String, verdict: Verdict, expected: &str, actual: &str) {
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

/// A student's own page in the student view (issue #32): their total, a
/// row per problem of the class (their verdict and score, `missing` or
/// `not graded`), their files that were not graded and why, then each of
/// their submissions; nothing of any other student.
pub(super) fn write_student_page(
    page: &mut String,
    class: &super::Class<'_>,
    student: &str,
    options: &Context,
) {
    let standings = &class.standings;
    let _ = writeln!(
        page,
        "<header class=\"top\">\n<h1>{}</h1>\n<p class=\"summary\">total {:.2} \
         <span class=\"muted\">of {}</span></p>\n</header>",
        escape_name(student),
        standings.total(student),
        crate::verdict::Points(standings.most)
    );
    let not_graded: Vec<&str> = options
        .not_graded
        .iter()
        .filter(|pair| pair.student == student)
        .map(|pair| pair.problem.as_str())
        .collect();
    if options.interrupted && !not_graded.is_empty() {
        page.push_str(
            "<p class=\"partial\" role=\"alert\"><strong>Partial: the grade was interrupted \
             before every hand-in of yours was graded.</strong> The problems marked \
             <q>not graded</q> have no score yet.</p>\n",
        );
    }
    let mine: Vec<usize> = (0..class.results.len())
        .filter(|&index| {
            class
                .students
                .get(index)
                .is_some_and(|name| name == student)
        })
        .collect();
    page.push_str(
        "<table class=\"ranking\">\n<thead><tr><th>problem</th><th>verdict</th><th>tests</th>\
         <th>score</th></tr></thead>\n<tbody>\n",
    );
    for problem in standings.problems() {
        let here: Vec<&SubmissionResult> = mine
            .iter()
            .filter_map(|&index| class.results.get(index).copied())
            .filter(|result| result.problem == *problem)
            .collect();
        let here_files: Vec<&[String]> = mine
            .iter()
            .filter(|&&index| {
                class
                    .results
                    .get(index)
                    .is_some_and(|result| result.problem == *problem)
            })
            .map(|&index| class.handed_in(index))
            .collect();
        let verdict = if here.is_empty() {
            let missing = options
                .missing
                .iter()
                .any(|pair| pair.student == student && pair.problem == *problem);
            if not_graded.contains(&problem) {
                "<span class=\"muted\">not graded</span>".to_owned()
            } else if missing {
                "<span class=\"muted\">missing: nothing handed in</span>".to_owned()
            } else {
                continue;
            }
        } else {
            here.iter()
                .zip(&here_files)
                .map(|(result, files)| {
                    if files.is_empty() {
                        verdict_badge(result.verdict)
                    } else {
                        super::several_files_badge(files.len())
                    }
                })
                .collect::<Vec<_>>()
                .join(" ")
        };
        let tests: Vec<String> = here
            .iter()
            .map(|result| format!("{}/{}", result.passed, result.total))
            .collect();
        let score = match standings.score(student, problem) {
            Some(score) => format!("{score:.2}"),
            None => "0.00".to_owned(),
        };
        let _ = writeln!(
            page,
            "<tr><th>{}</th><td>{verdict}</td><td>{}</td><td>{score}</td></tr>",
            escape(problem),
            tests.join(", ")
        );
    }
    page.push_str("</tbody>\n</table>\n");
    let theirs: Vec<&crate::report::Ignored> = options
        .ignored
        .iter()
        .filter(|file| names_student(&file.path, student))
        .collect();
    if !theirs.is_empty() {
        page.push_str(
            "<h2>Files not graded</h2>\n<table class=\"ignored\">\n<thead><tr><th>file</th>\
             <th>why it was not graded</th></tr></thead>\n<tbody>\n",
        );
        for file in theirs {
            let _ = writeln!(
                page,
                "<tr><td class=\"mono\">{}</td><td>{}</td></tr>",
                escape_name(&file.path),
                escape(&file.reason)
            );
        }
        page.push_str("</tbody>\n</table>\n");
    }
    for index in mine {
        let (Some(result), Some(name)) = (class.results.get(index), class.students.get(index))
        else {
            continue;
        };
        let handed_in = class.handed_in(index);
        let score = class.points(index);
        write_submission(page, Some(index), result, name, score, handed_in, options);
    }
}

/// Whether an ignored file's path names `student`: a folder of it (layout
/// `student/problem`) or its file stem (`problem/student`).
fn names_student(path: &str, student: &str) -> bool {
    let path = std::path::Path::new(path);
    let folder = path
        .parent()
        .is_some_and(|parent| parent.iter().any(|part| part == student));
    folder || path.file_stem().is_some_and(|stem| stem == student)
}
