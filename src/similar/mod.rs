//! `judge similar`: how alike the hand-ins of each problem are, pair by
//! pair, as evidence for a person to read. It never decides anything and
//! never touches a grade.
//!
//! The pipeline, one module per step:
//! - [`class`] reads the hand-ins `discovery::discover` found (skipping
//!   unreadable, binary, huge and empty files with the reason) and the
//!   starter code of `--base`;
//! - `tokens` turns each file into normalised tokens with tree-sitter
//!   (plain tokens for a language without a grammar);
//! - `winnow` keeps fingerprints of k-grams of tokens, so that only pairs
//!   that share one are compared in full (a pair that shares none has no
//!   common run of `--min-tokens` tokens, so its similarity is 0);
//! - `tiling` covers each candidate pair with common runs of at least
//!   `--min-tokens` tokens (greedy string tiling); the similarity is the
//!   share of both files' tokens covered;
//! - `html` and `render_text` show the result; `Report` is the JSON;
//!   `pages` writes the HTML: `judge similar`'s own pages, and the section
//!   of `judge grade --similarity`'s class page (the grading layer writes
//!   it without naming this module);
//! - `run` is the whole of it, as `judge similar` and `judge grade
//!   --similarity` run it;
//! - `command` is what those two commands call: the comparison with the
//!   user's mistakes told apart from the judge's, the refusals of `grade
//!   --similarity`, and the report files (`cli/similar.rs` only takes the
//!   arguments and prints).
//!
//! Starter code never counts: a hand-in's tokens that tile with its
//! problem's `--base` file are set aside before any pair is compared, and
//! the base's fingerprints are never candidates.

pub mod class;
pub(crate) mod command;
pub(crate) mod html;
pub(crate) mod pages;
pub(crate) mod run;
pub(crate) mod tiling;
pub(crate) mod tokens;
pub(crate) mod winnow;

use class::{BaseFile, HandIn};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use tiling::Prepared;

/// The JSON format's version (docs/similar.schema.json): bump it when a field changes
/// meaning, and say so in CHANGELOG.md.
pub(crate) const VERSION: u32 = 1;

/// `--min-tokens` by default: JPlag's default for C and C++. Shorter runs
/// are the idioms everybody writes (`for (int i = 0; i < n; i++)` is 13).
pub const DEFAULT_MIN_TOKENS: usize = 12;

/// `judge similar --json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub(crate) struct Report {
    /// The format version, 1.
    pub(crate) version: u32,
    /// The shortest common run of tokens that counts (`--min-tokens`).
    pub(crate) min_tokens: usize,
    /// The starter files whose code never counts (`--base`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) base: Vec<String>,
    /// Per problem: how many hand-ins, pairs and pairs compared in full.
    pub(crate) problems: Vec<ProblemSummary>,
    /// Pairs that share at least one run of `min_tokens` tokens, by problem,
    /// then from most to least similar. Pairs left out share nothing of that
    /// length: their similarity is 0.
    pub(crate) pairs: Vec<Pair>,
    /// Three or more hand-ins of a problem with the same code (every pair
    /// of them similarity 1), each group once: the table lists a group on
    /// one line instead of its pairs. `pairs` still holds every pair.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) same_code: Vec<SameCode>,
    /// Files not compared, and why.
    pub(crate) skipped: Vec<Skipped>,
    /// Files compared with a caveat (no grammar for the language, a syntax
    /// error).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) notes: Vec<Note>,
}

/// One problem's part of the comparison.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ProblemSummary {
    pub(crate) problem: String,
    /// Files compared (a student may have several).
    pub(crate) hand_ins: usize,
    /// Pairs of files of different students in the same family of languages.
    pub(crate) pairs: usize,
    /// Pairs that shared a fingerprint and so were compared in full.
    pub(crate) candidates: usize,
}

/// Two hand-ins of one problem and what they share.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Pair {
    pub(crate) problem: String,
    /// The students, as the layout names them.
    pub(crate) a: String,
    pub(crate) b: String,
    /// `a`'s file, then `b`'s.
    // As shown (`class::shown_path`): two different paths never show alike.
    pub(crate) files: [String; 2],
    /// The files on the disk (not in the JSON): the pages take each file's
    /// text by its path, never by how it is shown.
    #[serde(skip)]
    #[schemars(skip)]
    pub(crate) paths: [std::path::PathBuf; 2],
    /// Tokens covered by common runs, as a share of both files' tokens
    /// (starter code aside): 0 shares nothing, 1 is the same code.
    pub similarity: f64,
    /// Tokens in common runs (on each side).
    pub(crate) matched_tokens: usize,
    /// The common runs, in `a`'s order: lines of `a` and of `b`.
    pub(crate) regions: Vec<Region>,
}

/// Hand-ins of one problem with the same code, once names, literals,
/// layout and comments are set aside: linked by pairs of similarity 1
/// (issue #32: four copies were listed as six pairs).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct SameCode {
    pub(crate) problem: String,
    /// The students and their files, by student then file.
    pub(crate) students: Vec<String>,
    pub(crate) files: Vec<String>,
}

/// The smallest group [`same_code`] makes: two copies are one pair anyway.
const SAME_CODE_GROUP: usize = 3;

/// The groups of [`SAME_CODE_GROUP`] or more hand-ins that `pairs` links
/// by similarity 1, by problem then by their first student and file.
pub(crate) fn same_code(pairs: &[Pair]) -> Vec<SameCode> {
    // Union-find over (problem, student, file) hand-ins.
    let mut nodes: Vec<(String, String, String)> = Vec::new();
    let mut parents: Vec<usize> = Vec::new();
    fn find(parents: &mut [usize], mut node: usize) -> usize {
        while parents[node] != node {
            parents[node] = parents[parents[node]];
            node = parents[node];
        }
        node
    }
    for pair in pairs.iter().filter(|pair| pair.similarity >= 1.0) {
        let mut ends = [0usize; 2];
        for (end, (student, file)) in ends
            .iter_mut()
            .zip([(&pair.a, &pair.files[0]), (&pair.b, &pair.files[1])])
        {
            let node = (pair.problem.clone(), student.clone(), file.clone());
            *end = match nodes.iter().position(|known| *known == node) {
                Some(index) => index,
                None => {
                    nodes.push(node);
                    parents.push(parents.len());
                    parents.len() - 1
                }
            };
        }
        let (a, b) = (find(&mut parents, ends[0]), find(&mut parents, ends[1]));
        parents[a.max(b)] = a.min(b);
    }
    let mut groups: BTreeMap<usize, Vec<(String, String, String)>> = BTreeMap::new();
    for (index, node) in nodes.iter().enumerate() {
        let root = find(&mut parents, index);
        groups.entry(root).or_default().push(node.clone());
    }
    let mut found: Vec<SameCode> = groups
        .into_values()
        .filter(|group| group.len() >= SAME_CODE_GROUP)
        .map(|mut group| {
            group.sort();
            SameCode {
                problem: group[0].0.clone(),
                students: group
                    .iter()
                    .map(|(_, student, _)| student.clone())
                    .collect(),
                files: group.iter().map(|(_, _, file)| file.clone()).collect(),
            }
        })
        .collect();
    found.sort_by(|x, y| {
        (&x.problem, &x.students, &x.files).cmp(&(&y.problem, &y.students, &y.files))
    });
    found
}

/// One common run as 1-based inclusive line ranges on each side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub(crate) struct Region {
    pub(crate) a: [u32; 2],
    pub(crate) b: [u32; 2],
}

/// A file that was not compared.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Skipped {
    pub(crate) path: String,
    pub(crate) reason: String,
}

/// A file compared with a caveat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Note {
    pub(crate) path: String,
    pub(crate) note: String,
}

/// How to compare.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    pub min_tokens: usize,
    /// Worker threads.
    pub jobs: usize,
}

/// The JSON Schema of `Report`, as checked in at
/// `docs/similar.schema.json`.
pub fn schema_text() -> String {
    let generator = schemars::generate::SchemaSettings::draft2020_12()
        .for_serialize()
        .into_generator();
    let mut schema = generator.into_root_schema_for::<Report>();
    schema.insert(
        "title".to_owned(),
        serde_json::Value::String("judge similar JSON report".to_owned()),
    );
    schema.insert(
        "description".to_owned(),
        serde_json::Value::String(format!(
            "The JSON report of `judge similar`, format version {VERSION}: pairs of hand-ins \
             of each problem from most to least similar. Evidence for a person, never a \
             verdict. Generated from the Rust types; see docs/commands.md."
        )),
    );
    let mut text = serde_json::to_string_pretty(&schema)
        .unwrap_or_else(|error| format!("{{\"error\": \"{error}\"}}"));
    text.push('\n');
    text
}

/// `f` of every item, on up to `jobs` threads, in the items' order.
pub(crate) fn parallel_map<T: Sync, R: Send>(
    items: &[T],
    jobs: usize,
    f: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<(usize, R)>> = Mutex::new(Vec::with_capacity(items.len()));
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, items.len().max(1)) {
            scope.spawn(|| {
                let mut mine = Vec::new();
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let Some(item) = items.get(index) else { break };
                    mine.push((index, f(item)));
                }
                if let Ok(mut results) = results.lock() {
                    results.extend(mine);
                }
            });
        }
    });
    let mut results = results
        .into_inner()
        .unwrap_or_else(|poison| poison.into_inner());
    results.sort_unstable_by_key(|(index, _)| *index);
    results.into_iter().map(|(_, result)| result).collect()
}

/// One hand-in made ready: tokens with starter code set aside, and the
/// fingerprints that may make it a candidate.
struct Ready {
    prepared: Prepared,
    fingerprints: Vec<u64>,
}

/// Tokens of `hand_in` that tile with a starter file of its problem and
/// family.
fn starter_tokens(hand_in: &HandIn, base: &[&BaseFile], min_tokens: usize) -> Vec<bool> {
    let mut excluded = vec![false; hand_in.tokens.len()];
    let kinds: Vec<u32> = hand_in.tokens.iter().map(|token| token.kind).collect();
    for file in base {
        let own = Prepared::new(kinds.clone(), excluded.clone(), min_tokens);
        let starter = Prepared::new(
            file.tokens.iter().map(|token| token.kind).collect(),
            Vec::new(),
            min_tokens,
        );
        for tile in tiling::tile(&own, &starter, min_tokens) {
            excluded[tile.a..tile.a + tile.len].fill(true);
        }
    }
    excluded
}

fn ready(
    hand_in: &HandIn,
    base: &[&BaseFile],
    base_grams: &HashSet<u64>,
    options: &Options,
) -> Ready {
    let kinds: Vec<u32> = hand_in.tokens.iter().map(|token| token.kind).collect();
    let excluded = if base.is_empty() {
        Vec::new()
    } else {
        starter_tokens(hand_in, base, options.min_tokens)
    };
    let (k, w) = winnow::parameters(options.min_tokens);
    let mut hashes = winnow::kgram_hashes(&kinds, k);
    for (start, hash) in hashes.iter_mut().enumerate() {
        let starter = !excluded.is_empty() && excluded[start..start + k].contains(&true);
        if starter || base_grams.contains(hash) {
            *hash = winnow::NEVER;
        }
    }
    let mut fingerprints: Vec<u64> = winnow::winnow(&hashes, w)
        .into_iter()
        .map(|(hash, _)| hash)
        .collect();
    fingerprints.sort_unstable();
    fingerprints.dedup();
    Ready {
        prepared: Prepared::new(kinds, excluded, options.min_tokens),
        fingerprints,
    }
}

/// Compares every pair of `hand_ins` of the same problem and family of
/// languages (never two files of one student), with `base`'s code set
/// aside. Pairs come by problem, most similar first; ties by students.
pub fn compare(
    hand_ins: &[HandIn],
    base: &[BaseFile],
    options: &Options,
) -> (Vec<Pair>, Vec<ProblemSummary>) {
    let (pairs, summaries, _) = compare_stopping(hand_ins, base, options, &|| false);
    (pairs, summaries)
}

/// [`compare`], given up as soon as `stop` says so (SIGINT or SIGTERM to
/// `judge grade --similarity`, issue #34): then the pairs found so far and
/// `true`, which the caller must not take for the comparison.
pub(crate) fn compare_stopping(
    hand_ins: &[HandIn],
    base: &[BaseFile],
    options: &Options,
    stop: &(dyn Fn() -> bool + Sync),
) -> (Vec<Pair>, Vec<ProblemSummary>, bool) {
    let mut groups: BTreeMap<(&str, &str), Vec<usize>> = BTreeMap::new();
    for (index, hand_in) in hand_ins.iter().enumerate() {
        groups
            .entry((&hand_in.problem, &hand_in.family))
            .or_default()
            .push(index);
    }
    let mut summaries: BTreeMap<&str, ProblemSummary> = BTreeMap::new();
    let mut pairs = Vec::new();
    let (k, _) = winnow::parameters(options.min_tokens);
    for ((problem, family), members) in groups {
        if stop() {
            break;
        }
        let starters: Vec<&BaseFile> = base
            .iter()
            .filter(|file| file.problem == problem && file.family == family)
            .collect();
        let base_grams: HashSet<u64> = starters
            .iter()
            .flat_map(|file| {
                let kinds: Vec<u32> = file.tokens.iter().map(|token| token.kind).collect();
                winnow::kgram_hashes(&kinds, k)
            })
            .collect();
        let group: Vec<&HandIn> = members.iter().map(|index| &hand_ins[*index]).collect();
        let ready: Vec<Ready> = parallel_map(&group, options.jobs, |hand_in| {
            ready(hand_in, &starters, &base_grams, options)
        });
        let mut postings: HashMap<u64, Vec<u32>> = HashMap::new();
        for (index, one) in ready.iter().enumerate() {
            for hash in &one.fingerprints {
                postings.entry(*hash).or_default().push(index as u32);
            }
        }
        let indices: Vec<usize> = (0..group.len()).collect();
        let found: Vec<(usize, Vec<Pair>)> = parallel_map(&indices, options.jobs, |&a| {
            if stop() {
                return (0, Vec::new());
            }
            let mut seen = vec![false; group.len()];
            let mut candidates = Vec::new();
            for hash in &ready[a].fingerprints {
                for &b in postings.get(hash).map_or(&[][..], Vec::as_slice) {
                    let b = b as usize;
                    if b > a && !seen[b] && group[b].student != group[a].student {
                        seen[b] = true;
                        candidates.push(b);
                    }
                }
            }
            candidates.sort_unstable();
            let pairs = candidates
                .iter()
                .take_while(|_| !stop())
                .filter_map(|&b| pair(group[a], group[b], &ready[a], &ready[b], options))
                .collect();
            (candidates.len(), pairs)
        });
        let summary = summaries.entry(problem).or_insert_with(|| ProblemSummary {
            problem: problem.to_owned(),
            hand_ins: 0,
            pairs: 0,
            candidates: 0,
        });
        summary.hand_ins += group.len();
        for (a, one) in group.iter().enumerate() {
            summary.pairs += group[a + 1..]
                .iter()
                .filter(|other| other.student != one.student)
                .count();
        }
        for (candidates, found) in found {
            summary.candidates += candidates;
            pairs.extend(found);
        }
    }
    pairs.sort_by(|x, y| {
        x.problem
            .cmp(&y.problem)
            .then(y.similarity.total_cmp(&x.similarity))
            .then(y.matched_tokens.cmp(&x.matched_tokens))
            .then_with(|| (&x.a, &x.b, &x.files).cmp(&(&y.a, &y.b, &y.files)))
    });
    (pairs, summaries.into_values().collect(), stop())
}

/// The pair of `a` and `b` when they share a run, else `None`.
fn pair(
    a: &HandIn,
    b: &HandIn,
    ready_a: &Ready,
    ready_b: &Ready,
    options: &Options,
) -> Option<Pair> {
    let mut tiles = tiling::tile(&ready_a.prepared, &ready_b.prepared, options.min_tokens);
    let matched: usize = tiles.iter().map(|tile| tile.len).sum();
    if matched == 0 {
        return None;
    }
    let free = ready_a.prepared.free_tokens() + ready_b.prepared.free_tokens();
    let similarity = (2.0 * matched as f64 / free.max(1) as f64).min(1.0);
    tiles.sort_by_key(|tile| (tile.a, tile.b));
    let lines = |tokens: &[tokens::Token], start: usize, len: usize| {
        [tokens[start].line, tokens[start + len - 1].line]
    };
    Some(Pair {
        problem: a.problem.clone(),
        a: a.student.clone(),
        b: b.student.clone(),
        files: [a.display.clone(), b.display.clone()],
        paths: [a.path.clone(), b.path.clone()],
        similarity: (similarity * 10_000.0).round() / 10_000.0,
        matched_tokens: matched,
        regions: tiles
            .iter()
            .map(|tile| Region {
                a: lines(&a.tokens, tile.a, tile.len),
                b: lines(&b.tokens, tile.b, tile.len),
            })
            .collect(),
    })
}

/// The words every rendering of the report says first.
pub(crate) const CAVEAT: &str = "Similarity is evidence for a person to read, never a verdict: \
    a high score means two hand-ins share long runs of code once names, literals, layout and \
    comments are set aside. Starter code, a textbook solution or a short problem can make \
    independent work look alike; read both files before concluding anything.";

/// The stderr lines about the files of a comparison: `{prefix}skipped:
/// PATH: reason` for each file left out, then (`with_notes`) `note: PATH:
/// note` for each compared by plain tokens. Names are shown visible:
/// a control character in a student's file name never reaches the terminal.
pub(crate) fn render_files(report: &Report, prefix: &str, with_notes: bool) -> Vec<String> {
    use crate::report::human::visible;
    let skipped = report.skipped.iter().map(|skipped| {
        format!(
            "{prefix}skipped: {}: {}",
            visible(&skipped.path),
            skipped.reason
        )
    });
    let notes = report
        .notes
        .iter()
        .filter(|_| with_notes)
        .map(|note| format!("note: {}: {}", visible(&note.path), note.note));
    skipped.chain(notes).collect()
}

/// The terminal's view: per problem, the `top` most similar pairs.
pub(crate) fn render_text(report: &Report, top: usize) -> String {
    use crate::problems::text::plural;
    use crate::report::human::visible;
    use std::fmt::Write as _;
    let mut text = String::new();
    let _ = writeln!(text, "{CAVEAT}\n");
    for summary in &report.problems {
        let pairs: Vec<&Pair> = report
            .pairs
            .iter()
            .filter(|pair| pair.problem == summary.problem)
            .collect();
        if summary.hand_ins == 0 {
            let _ = writeln!(text, "{}: no hand-ins", summary.problem);
            continue;
        }
        let _ = writeln!(
            text,
            "{}: {}, {}, {} sharing a run of {}+ tokens",
            summary.problem,
            plural(summary.hand_ins as u64, "hand-in", "hand-ins"),
            plural(summary.pairs as u64, "pair", "pairs"),
            pairs.len(),
            report.min_tokens
        );
        // A group with the same code is one line, not its pairs; a pair
        // with a member of a group is shown once, for the group's first
        // member (issue #32).
        let groups: Vec<&SameCode> = report
            .same_code
            .iter()
            .filter(|group| group.problem == summary.problem)
            .collect();
        let group_of = |student: &String, file: &String| {
            groups.iter().position(|group| {
                group
                    .students
                    .iter()
                    .zip(&group.files)
                    .any(|(s, f)| s == student && f == file)
            })
        };
        let first_of = |group: usize, student: &String, file: &String| {
            groups.get(group).is_some_and(|group| {
                group.students.first() == Some(student) && group.files.first() == Some(file)
            })
        };
        // A group is a row of `top` as a pair is, listed first: its
        // similarity is the highest.
        for group in groups.iter().take(top) {
            let names: Vec<String> = group.students.iter().map(|name| visible(name)).collect();
            let files: Vec<String> = group.files.iter().map(|file| visible(file)).collect();
            let _ = writeln!(
                text,
                "  100.0%  same code in {} ({}): {}\n           {}",
                plural(group.students.len() as u64, "hand-in", "hand-ins"),
                plural(
                    (group.students.len() * (group.students.len() - 1) / 2) as u64,
                    "pair",
                    "pairs"
                ),
                names.join(", "),
                files.join("  ")
            );
        }
        let named = |student: &String, file: &String| match group_of(student, file) {
            Some(group) => format!(
                "{} (+{} same code)",
                visible(student),
                groups
                    .get(group)
                    .map_or(0, |group| group.students.len() - 1)
            ),
            None => visible(student),
        };
        let pairs: Vec<&Pair> = pairs
            .into_iter()
            .filter(|pair| {
                let a = group_of(&pair.a, &pair.files[0]);
                let b = group_of(&pair.b, &pair.files[1]);
                let inside = a.is_some() && a == b;
                let first_or_alone = |group: Option<usize>, student, file| {
                    group.is_none_or(|group| first_of(group, student, file))
                };
                !inside
                    && first_or_alone(a, &pair.a, &pair.files[0])
                    && first_or_alone(b, &pair.b, &pair.files[1])
            })
            .collect();
        // Names and files a student controls, made visible (`\x1b`) so they
        // cannot move the cursor or draw on the terminal.
        let hidden_groups = groups.len().saturating_sub(top);
        let top = top.saturating_sub(groups.len());
        let shown: Vec<[String; 4]> = pairs
            .iter()
            .take(top)
            .map(|pair| {
                [
                    named(&pair.a, &pair.files[0]),
                    named(&pair.b, &pair.files[1]),
                    visible(&pair.files[0]),
                    visible(&pair.files[1]),
                ]
            })
            .collect();
        let width = |column: usize| {
            shown
                .iter()
                .map(|row| row[column].chars().count())
                .max()
                .unwrap_or(0)
        };
        let (width_a, width_b) = (width(0), width(1));
        for (pair, [a, b, file_a, file_b]) in pairs.iter().zip(&shown) {
            let _ = writeln!(
                text,
                "  {:>5.1}%  {a:<width_a$}  {b:<width_b$}  {:>5} tokens  {}  {file_a}  {file_b}",
                pair.similarity * 100.0,
                pair.matched_tokens,
                plural(pair.regions.len() as u64, "region", "regions"),
            );
        }
        if hidden_groups > 0 {
            let _ = writeln!(
                text,
                "  ... {}",
                plural(
                    hidden_groups as u64,
                    "more group with the same code",
                    "more groups with the same code"
                )
            );
        }
        if pairs.len() > top {
            let more = pairs.len() - top;
            let _ = writeln!(
                text,
                "  ... {}",
                plural(more as u64, "more pair", "more pairs")
            );
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hand_in(student: &str, name: &str, text: &str) -> HandIn {
        let grammar = tokens::Grammar::for_extension(
            std::path::Path::new(name)
                .extension()
                .unwrap()
                .to_str()
                .unwrap(),
        )
        .unwrap();
        HandIn {
            problem: "p".to_owned(),
            student: student.to_owned(),
            path: name.into(),
            display: name.to_owned(),
            family: grammar.family().to_owned(),
            text: text.to_owned(),
            tokens: tokens::parse(grammar, text, std::path::Path::new(name))
                .unwrap()
                .tokens,
        }
    }

    const PROGRAM: &str = "#include <stdio.h>\nint main(void) {\n  int n, total = 0;\n  scanf(\"%d\", &n);\n  for (int i = 0; i < n; i++) {\n    if (i % 3 == 0) total += i * i;\n    else total -= i;\n  }\n  printf(\"%d\\n\", total);\n  return 0;\n}\n";

    #[test]
    fn a_renamed_copy_is_the_same_code_and_other_languages_never_pair() {
        let renamed = PROGRAM
            .replace("total", "acc")
            .replace(" n", " count")
            .replace("&n", "&count")
            .replace("< n", "< count");
        let class = [
            hand_in("alice", "alice.c", PROGRAM),
            hand_in("bob", "bob.cpp", &renamed),
            hand_in("carol", "carol.py", "n = int(input())\nprint(n)\n"),
        ];
        let options = Options {
            min_tokens: 12,
            jobs: 2,
        };
        let (pairs, summaries) = compare(&class, &[], &options);
        assert_eq!(pairs.len(), 1, "{pairs:?}");
        assert_eq!((pairs[0].a.as_str(), pairs[0].b.as_str()), ("alice", "bob"));
        assert_eq!(pairs[0].similarity, 1.0);
        // The closing brace is not a token: the run ends on `return 0;`.
        assert_eq!(
            pairs[0].regions,
            [Region {
                a: [1, 10],
                b: [1, 10]
            }]
        );
        assert_eq!(summaries[0].hand_ins, 3);
        assert_eq!(summaries[0].pairs, 1);
    }

    #[test]
    fn starter_code_never_counts() {
        let class = [
            hand_in("alice", "a.c", PROGRAM),
            hand_in("bob", "b.c", PROGRAM),
        ];
        let base = [BaseFile {
            problem: "p".to_owned(),
            family: "c/c++".to_owned(),
            path: "p.c".into(),
            tokens: class[0].tokens.clone(),
        }];
        let options = Options {
            min_tokens: 12,
            jobs: 1,
        };
        let (pairs, summaries) = compare(&class, &base, &options);
        assert!(pairs.is_empty(), "{pairs:?}");
        assert_eq!(summaries[0].candidates, 0);
    }

    #[test]
    fn parallel_map_keeps_the_order() {
        let items: Vec<u32> = (0..100).collect();
        assert_eq!(
            parallel_map(&items, 4, |x| x * 2),
            items.iter().map(|x| x * 2).collect::<Vec<_>>()
        );
        assert!(parallel_map(&[] as &[u32], 4, |x| *x).is_empty());
    }
}
