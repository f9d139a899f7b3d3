//! The HTML view of `judge similar`: a page with each problem's pairs (the
//! students, linked to their files, and a bar for the similarity), and for
//! each pair at or above [`PAGE_THRESHOLD`] a side-by-side page of the two
//! files with each common run highlighted in the same colour on both sides.
//!
//! No scripts, nothing fetched (a Content-Security-Policy says so too), and
//! every name and line of code escaped: hand-ins are written by students.
//! Rendering only; `cli` writes the pages.

use super::class::HandIn;
use super::{Pair, Report, CAVEAT};
use crate::problems::text::plural;
use crate::report::html::escape;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Component, Path};

/// Pairs at least this similar get a side-by-side page.
pub(crate) const PAGE_THRESHOLD: f64 = 0.4;

/// At most this many rows per problem in the table (the JSON has them all).
pub(crate) const MAX_ROWS: usize = 500;

/// At most this many side-by-side pages per problem, the most similar.
pub(crate) const MAX_PAGES: usize = 200;

/// Colours of the common runs, taken in turn.
const COLOURS: usize = 8;

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:1.5em;color:#222}\
table{border-collapse:collapse}td,th{padding:.25em .6em;border-bottom:1px solid #ddd;\
text-align:left;vertical-align:top}th{background:#f4f4f4}.num{text-align:right}\
.caveat{background:#fff8e1;border-left:4px solid #f0b400;padding:.6em 1em;max-width:60em}\
.bar{display:inline-block;width:10em;height:.8em;background:#eee;margin-right:.5em}\
.bar span{display:block;height:100%;background:#c0392b}\
.sides{display:flex;gap:1em;align-items:flex-start}.side{flex:1;min-width:0;overflow-x:auto}\
pre{margin:0;font-size:.85em}.line{display:block;white-space:pre}\
.ln{display:inline-block;width:3.5em;color:#888;user-select:none}\
.m0{background:#ffd7d7}.m1{background:#d7f0ff}.m2{background:#dcffd7}.m3{background:#fff1c2}\
.m4{background:#ecd7ff}.m5{background:#ffe1c7}.m6{background:#c9f5ec}.m7{background:#f0f0c0}";

/// What the CLI writes: the summary page and the pair pages (file names in
/// the page folder, and contents).
pub(crate) struct Pages {
    pub(crate) summary: String,
    pub(crate) pairs: Vec<(String, String)>,
}

/// Where the pages go and how they link: `folder` is the page folder's name
/// as the summary page links to it (`None`: one page, without side-by-side
/// pages, for standard output); `summary_dir` is the absolute folder of the
/// summary page, from which links to the hand-in files are made (`None`: no
/// links); `back` is the link from a side-by-side page to the summary page
/// (from inside the folder); `prefix` starts each side-by-side page's file
/// name.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Placement<'a> {
    pub(crate) folder: Option<&'a str>,
    pub(crate) summary_dir: Option<&'a Path>,
    pub(crate) back: &'a str,
    pub(crate) prefix: &'a str,
}

/// Renders the report as `judge similar`'s own page. `folder`,
/// `summary_dir` and `back` (the summary page from inside the folder,
/// `../similar.html`) as in [`Placement`].
pub(crate) fn render(
    report: &Report,
    hand_ins: &[HandIn],
    folder: Option<&str>,
    summary_dir: Option<&Path>,
    back: &str,
) -> Pages {
    let placement = Placement {
        folder,
        summary_dir,
        back,
        prefix: "pair-",
    };
    let mut summary = String::new();
    page_start(&mut summary, "judge similar");
    summary.push_str("<h1>Similarity of hand-ins</h1>\n");
    let pages = write_body(&mut summary, report, hand_ins, &placement, 2);
    summary.push_str("</body>\n</html>\n");
    Pages {
        summary,
        pairs: pages,
    }
}

/// Renders the report as a section of another page (`judge grade
/// --similarity`'s class page): its own scoped style, the heading, the
/// caveat, the tables; and the side-by-side pages.
pub(crate) fn render_section(
    report: &Report,
    hand_ins: &[HandIn],
    placement: &Placement<'_>,
) -> Pages {
    let mut section = String::new();
    let _ = writeln!(
        section,
        "<section class=\"similarity\" id=\"similarity\">\n<style>{SECTION_STYLE}</style>\n\
         <h2>Similarity of hand-ins</h2>"
    );
    let pages = write_body(&mut section, report, hand_ins, placement, 3);
    section.push_str("</section>\n");
    Pages {
        summary: section,
        pairs: pages,
    }
}

/// The style of [`render_section`], scoped so the host page keeps its own.
const SECTION_STYLE: &str = ".similarity .caveat{background:#fff8e1;border-left:4px solid #f0b400;\
padding:.6em 1em;max-width:60em}.similarity table{border-collapse:collapse}\
.similarity td,.similarity th{padding:.25em .6em;border-bottom:1px solid #ddd;text-align:left}\
.similarity .num{text-align:right}\
.similarity .bar{display:inline-block;width:10em;height:.8em;background:#eee;margin-right:.5em}\
.similarity .bar span{display:block;height:100%;background:#c0392b}";

/// Everything below the page's heading: the caveat, what counted, each
/// problem's pairs (headings at `level`), the files skipped and the notes.
/// Returns the side-by-side pages.
fn write_body(
    summary: &mut String,
    report: &Report,
    hand_ins: &[HandIn],
    placement: &Placement<'_>,
    level: u8,
) -> Vec<(String, String)> {
    let folder = placement.folder;
    let summary_dir = placement.summary_dir;
    // Keyed by path: two files may look alike, never be the same.
    let texts: HashMap<&Path, &HandIn> = hand_ins
        .iter()
        .map(|hand_in| (hand_in.path.as_path(), hand_in))
        .collect();
    let file_link = |path: &Path, depth: usize| -> Option<String> {
        let dir = summary_dir?;
        let file = located(&texts.get(path)?.path)?;
        let href = relative_href(dir, &file)?;
        Some(format!("{}{href}", "../".repeat(depth)))
    };
    let _ = writeln!(summary, "<p class=\"caveat\">{}</p>", escape(CAVEAT));
    let _ = write!(
        summary,
        "<p>Common runs of at least {} tokens count. ",
        report.min_tokens
    );
    if report.base.is_empty() {
        summary.push_str("No starter code was set aside.");
    } else {
        let names: Vec<String> = report.base.iter().map(|name| escape(name)).collect();
        let _ = write!(summary, "Starter code set aside: {}.", names.join(", "));
    }
    if folder.is_some() {
        let _ = write!(
            summary,
            " Pairs at or above {:.0}% have a side-by-side page, the {MAX_PAGES} most similar \
             of each problem at most. Each problem's table shows its {MAX_ROWS} most similar \
             pairs at most; the JSON report (`--json`) holds them all.",
            PAGE_THRESHOLD * 100.0
        );
    }
    summary.push_str("</p>\n");
    let mut pages = Vec::new();
    for problem in &report.problems {
        let pairs: Vec<&Pair> = report
            .pairs
            .iter()
            .filter(|pair| pair.problem == problem.problem)
            .collect();
        if problem.hand_ins == 0 {
            let _ = writeln!(
                summary,
                "<h{level}>{}</h{level}>\n<p>No hand-ins.</p>",
                escape(&problem.problem)
            );
            continue;
        }
        let _ = writeln!(
            summary,
            "<h{level}>{}</h{level}>\n<p>{}, {}; {} a run of {} tokens or more.</p>",
            escape(&problem.problem),
            plural(problem.hand_ins as u64, "hand-in", "hand-ins"),
            plural(problem.pairs as u64, "pair", "pairs"),
            if pairs.len() == 1 {
                "1 shares".to_owned()
            } else {
                format!("{} share", pairs.len())
            },
            report.min_tokens
        );
        if pairs.is_empty() {
            continue;
        }
        summary.push_str(
            "<table>\n<tr><th>#</th><th>student</th><th>student</th><th>similarity</th>\
             <th class=\"num\">matched tokens</th><th class=\"num\">regions</th><th></th></tr>\n",
        );
        for (rank, pair) in pairs.iter().take(MAX_ROWS).enumerate() {
            let student = |name: &str, display: &str, path: &Path| match file_link(path, 0) {
                Some(href) => format!(
                    "<a href=\"{}\" title=\"{}\">{}</a>",
                    escape(&href),
                    shown(display),
                    shown(name)
                ),
                None => format!("<span title=\"{}\">{}</span>", shown(display), shown(name)),
            };
            let percent = pair.similarity * 100.0;
            let compare = match folder {
                Some(folder) if pair.similarity >= PAGE_THRESHOLD && rank < MAX_PAGES => {
                    let name = format!("{}{}.html", placement.prefix, pages.len() + 1);
                    let page = render_pair(pair, &texts, &file_link, placement.back);
                    let link = format!(
                        "<a href=\"{}/{}\">side by side</a>",
                        escape(&encode(folder)),
                        name
                    );
                    pages.push((name, page));
                    link
                }
                _ => String::new(),
            };
            let _ = writeln!(
                summary,
                "<tr><td class=\"num\">{}</td><td>{}</td><td>{}</td><td><span class=\"bar\">\
                 <span style=\"width:{percent:.1}%\"></span></span>{percent:.1}%</td>\
                 <td class=\"num\">{}</td><td class=\"num\">{}</td><td>{compare}</td></tr>",
                rank + 1,
                student(&pair.a, &pair.files[0], &pair.paths[0]),
                student(&pair.b, &pair.files[1], &pair.paths[1]),
                pair.matched_tokens,
                pair.regions.len(),
            );
        }
        summary.push_str("</table>\n");
        if pairs.len() > MAX_ROWS {
            let _ = writeln!(
                summary,
                "<p>Only the {MAX_ROWS} most similar pairs are shown: {} more, none more similar \
                 than the last row (some may be as similar), are in the JSON report \
                 (`--json`).</p>",
                pairs.len() - MAX_ROWS
            );
        }
        let above = pairs
            .iter()
            .filter(|pair| pair.similarity >= PAGE_THRESHOLD)
            .count();
        if folder.is_some() && above > MAX_PAGES {
            let _ = writeln!(
                summary,
                "<p>Only the {MAX_PAGES} most similar pairs have a side-by-side page: {} more \
                 at or above {:.0}% have none.</p>",
                above - MAX_PAGES,
                PAGE_THRESHOLD * 100.0
            );
        }
    }
    if !report.skipped.is_empty() {
        let _ = writeln!(summary, "<h{level}>Not compared</h{level}>\n<ul>");
        for skipped in &report.skipped {
            let _ = writeln!(
                summary,
                "<li><code>{}</code>: {}</li>",
                shown(&skipped.path),
                escape(&skipped.reason)
            );
        }
        summary.push_str("</ul>\n");
    }
    if !report.notes.is_empty() {
        let _ = writeln!(summary, "<h{level}>Notes</h{level}>\n<ul>");
        for note in &report.notes {
            let _ = writeln!(
                summary,
                "<li><code>{}</code>: {}</li>",
                shown(&note.path),
                escape(&note.note)
            );
        }
        summary.push_str("</ul>\n");
    }
    pages
}

/// The side-by-side page of one pair.
fn render_pair(
    pair: &Pair,
    texts: &HashMap<&Path, &HandIn>,
    file_link: &dyn Fn(&Path, usize) -> Option<String>,
    back: &str,
) -> String {
    let mut page = String::new();
    let title = format!("{} and {}: {}", pair.a, pair.b, pair.problem);
    page_start(&mut page, &title);
    let _ = writeln!(
        page,
        "<h1>{}</h1>\n<p class=\"caveat\">{}</p>\n<p><a href=\"{}\">all pairs</a> · \
         similarity {:.1}% · {} matched tokens · {}</p>",
        escape(&title),
        escape(CAVEAT),
        escape(back),
        pair.similarity * 100.0,
        pair.matched_tokens,
        plural(pair.regions.len() as u64, "region", "regions")
    );
    page.push_str("<table>\n<tr><th>region</th><th>lines of a</th><th>lines of b</th></tr>\n");
    for (index, region) in pair.regions.iter().enumerate() {
        let _ = writeln!(
            page,
            "<tr><td class=\"m{}\">{}</td><td>{}–{}</td><td>{}–{}</td></tr>",
            index % COLOURS,
            index + 1,
            region.a[0],
            region.a[1],
            region.b[0],
            region.b[1]
        );
    }
    page.push_str("</table>\n<div class=\"sides\">\n");
    let sides = [
        (&pair.a, &pair.files[0], &pair.paths[0]),
        (&pair.b, &pair.files[1], &pair.paths[1]),
    ];
    for (side, (student, display, path)) in sides.into_iter().enumerate() {
        let heading = match file_link(path, 1) {
            Some(href) => format!("<a href=\"{}\">{}</a>", escape(&href), shown(display)),
            None => shown(display),
        };
        let _ = writeln!(
            page,
            "<div class=\"side\">\n<h2>{}</h2>\n<p>{heading}</p>\n<pre>",
            shown(student)
        );
        let text = texts
            .get(path.as_path())
            .map_or("", |hand_in| &hand_in.text);
        let ranges: Vec<[u32; 2]> = pair
            .regions
            .iter()
            .map(|region| if side == 0 { region.a } else { region.b })
            .collect();
        for (number, line) in (1u32..).zip(text.lines()) {
            let region = ranges
                .iter()
                .position(|range| range[0] <= number && number <= range[1]);
            let class = region.map_or(String::new(), |index| format!(" m{}", index % COLOURS));
            let _ = writeln!(
                page,
                "<span class=\"line{class}\"><span class=\"ln\">{number}</span>{}</span>",
                shown(line)
            );
        }
        page.push_str("</pre>\n</div>\n");
    }
    page.push_str("</div>\n</body>\n</html>\n");
    page
}

fn page_start(page: &mut String, title: &str) {
    page.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    page.push_str(
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; \
         style-src 'unsafe-inline'\">\n",
    );
    let _ = write!(
        page,
        "<title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n",
        escape(title)
    );
}

/// A name or path a student controls, for a page: control characters made
/// visible (`\x1b`), then escaped.
fn shown(text: &str) -> String {
    escape(&crate::report::human::visible(text))
}

/// Percent-encodes one path segment: every byte but ASCII letters, digits
/// and `-_.~`, so no name becomes a scheme, a query or another folder.
pub(crate) fn encode(segment: &str) -> String {
    encode_bytes(segment.as_bytes())
}

/// [`encode`] of raw bytes: a file name that is not UTF-8 keeps its bytes,
/// so the link reaches the file on the disk.
fn encode_bytes(segment: &[u8]) -> String {
    let mut encoded = String::with_capacity(segment.len());
    for &byte in segment {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'_' | b'.' | b'~') {
            encoded.push(char::from(byte));
        } else {
            let _ = write!(encoded, "%{byte:02X}");
        }
    }
    encoded
}

/// Where `path` is on the disk, as an absolute path without `.` or `..`:
/// its folder resolved (links and `..` followed, as the file system does),
/// its own name kept (a link stays the link). Lexically normalised when the
/// folder cannot be resolved. A page links from one such path to another.
pub(crate) fn located(path: &Path) -> Option<std::path::PathBuf> {
    let absolute = std::path::absolute(path).ok()?;
    let lexical = lexically_normal(&absolute);
    let resolved = match (lexical.parent(), lexical.file_name()) {
        (Some(parent), Some(name)) => fs_err::canonicalize(parent)
            .ok()
            .map(|parent| parent.join(name)),
        _ => None,
    };
    Some(resolved.unwrap_or(lexical))
}

/// An absolute path with `.` dropped and each `..` taking off the name
/// before it (never above the root).
fn lexically_normal(path: &Path) -> std::path::PathBuf {
    let mut normal = std::path::PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                normal.pop();
            }
            other => normal.push(other),
        }
    }
    normal
}

/// A relative URL from the folder `from` to the file `to` (both absolute),
/// each segment percent-encoded; `None` when there is no relative way (or
/// a segment is `.` or `..`, which `absolute` keeps).
pub(crate) fn relative_href(from: &Path, to: &Path) -> Option<String> {
    let names = |path: &Path| -> Option<Vec<Vec<u8>>> {
        path.components()
            .filter(|component| !matches!(component, Component::RootDir))
            .map(|component| match component {
                Component::Normal(name) => Some(name.as_encoded_bytes().to_vec()),
                _ => None,
            })
            .collect()
    };
    let from = names(from)?;
    let to = names(to)?;
    let common = from.iter().zip(&to).take_while(|(x, y)| x == y).count();
    let mut segments: Vec<String> = vec!["..".to_owned(); from.len() - common];
    segments.extend(to[common..].iter().map(|name| encode_bytes(name)));
    (!to[common..].is_empty()).then(|| segments.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dot_dot_is_taken_off_lexically() {
        assert_eq!(
            lexically_normal(Path::new("/class/out/../z.html")),
            Path::new("/class/z.html")
        );
        assert_eq!(lexically_normal(Path::new("/../a/./b")), Path::new("/a/b"));
        let located = located(Path::new("./out/../z.html")).unwrap();
        assert!(located.is_absolute());
        assert!(located
            .components()
            .all(|c| matches!(c, Component::RootDir | Component::Normal(_))));
    }

    #[test]
    fn links_are_relative_and_encoded() {
        assert_eq!(
            relative_href(
                Path::new("/class/reports"),
                Path::new("/class/hand-ins/o'brien/a b.c")
            ),
            Some("../hand-ins/o%27brien/a%20b.c".to_owned())
        );
        assert_eq!(
            relative_href(Path::new("/r"), Path::new("/r/x.c")),
            Some("x.c".to_owned())
        );
        assert_eq!(relative_href(Path::new("/r"), Path::new("/r/../x.c")), None);
        #[cfg(unix)]
        {
            use std::os::unix::ffi::OsStrExt as _;
            let name = std::ffi::OsStr::from_bytes(b"caf\xe9");
            assert_eq!(
                relative_href(Path::new("/r"), &Path::new("/r").join(name).join("a.c")),
                Some("caf%E9/a.c".to_owned())
            );
        }
    }
}
