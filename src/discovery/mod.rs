//! What `judge grade` grades: finding submissions under the configured
//! layout, their expected verdicts (layout `expected`), and the shards of a
//! run split over machines.
//!
//! This module decides which (submission, problem) pairs exist and in which
//! order; it runs nothing (the runner does) and prints nothing (the CLI and
//! `report/` do). The verdict folders of a package's `submissions/` and what
//! each accepts are here too, for `grade` and `grade --package` alike;
//! `shard` reads `--shard auto` from a job engine's variables. (Named for
//! what it does, so that `grade` means the grading layer, `crate::grading`:
//! issue #33.)

pub(crate) mod shard;

use crate::config::judge::Layout;
use crate::runner::SubmissionResult;
use crate::verdict::{Points, Verdict};
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// The folder of programs that must be accepted; a Kattis package's
/// reference is the first of them.
pub(crate) const ACCEPTED_FOLDER: &str = "accepted";

/// The folder a partial solution of a scored package is in
/// (`grade --package`).
pub(crate) const PARTIAL_FOLDER: &str = "partially_accepted";

/// The folders of the `expected` layout and the verdict each demands (the
/// Kattis problem package format's `submissions/` folders).
pub(crate) const VERDICT_FOLDERS: &[(&str, Verdict)] = &[
    (ACCEPTED_FOLDER, Verdict::Accepted),
    ("wrong_answer", Verdict::WrongAnswer),
    ("time_limit_exceeded", Verdict::TimeLimitExceeded),
    ("run_time_error", Verdict::RuntimeError),
    ("memory_limit_exceeded", Verdict::MemoryLimitExceeded),
    ("output_limit_exceeded", Verdict::OutputLimitExceeded),
    ("compile_error", Verdict::CompileError),
];

/// The verdict a folder of the `expected` layout demands.
pub fn verdict_of_folder(folder: &str) -> Option<Verdict> {
    VERDICT_FOLDERS
        .iter()
        .find(|(name, _)| *name == folder)
        .map(|(_, verdict)| *verdict)
}

/// Whether `verdict` agrees with the folder of a package's
/// `submissions/<folder>/`, with Kattis' meanings (problemtools): a memory
/// overrun counts as `run_time_error`, `slow_accepted` passes as AC or
/// TLE, an output the judge cannot parse (PE) is a `wrong_answer`. `None`
/// for a folder Kattis does not define.
pub(crate) fn kattis_folder_agrees(folder: &str, verdict: Verdict) -> Option<bool> {
    use Verdict::*;
    let agrees = match (folder, verdict_of_folder(folder)) {
        (_, Some(WrongAnswer)) => matches!(verdict, WrongAnswer | PresentationError),
        (_, Some(RuntimeError)) => matches!(verdict, RuntimeError | MemoryLimitExceeded),
        (_, Some(expected)) => verdict == expected,
        ("slow_accepted", None) => matches!(verdict, Accepted | TimeLimitExceeded),
        (_, None) => return None,
    };
    Some(agrees)
}

/// The verdicts other than its own that `folder` accepts, with Kattis'
/// meanings (see [`kattis_folder_agrees`]), in the order of docs/report.md.
pub(crate) fn also_accepted(folder: &str, own: Option<Verdict>) -> Vec<Verdict> {
    Verdict::ALL
        .into_iter()
        .filter(|verdict| Some(*verdict) != own)
        .filter(|verdict| kattis_folder_agrees(folder, *verdict) == Some(true))
        .collect()
}

/// Whether a graded submission got what its folder demands. With groups,
/// `accepted/` must score the maximum (and be accepted), and
/// `partially_accepted/` must score strictly between 0 and the maximum;
/// every other folder is judged by the verdict alone.
pub(crate) fn folder_agrees(folder: &str, result: &SubmissionResult, scored: bool) -> bool {
    let (score, max) = (
        result.score.unwrap_or(Points(0.0)).0,
        result.max_score.unwrap_or(Points(0.0)).0,
    );
    let full = (score - max).abs() < 1e-9;
    match folder {
        PARTIAL_FOLDER if scored => score > 1e-9 && score < max - 1e-9,
        ACCEPTED_FOLDER if scored => result.verdict == Verdict::Accepted && full,
        _ => kattis_folder_agrees(folder, result.verdict).unwrap_or(false),
    }
}

/// Whether an export to the Kattis format keeps the examples of `folder`:
/// the submission folders Kattis' tools know (`accepted/`,
/// `partially_accepted/`, `wrong_answer/`, `run_time_error/`,
/// `time_limit_exceeded/`); examples in others (`compile_error/`,
/// `memory_limit_exceeded/`) are left out.
pub(crate) fn kattis_exports(folder: &str) -> bool {
    use Verdict::*;
    folder == PARTIAL_FOLDER
        || matches!(
            verdict_of_folder(folder),
            Some(Accepted | WrongAnswer | RuntimeError | TimeLimitExceeded)
        )
}

/// The folder names of the `expected` layout, comma-separated, for messages.
pub(crate) fn verdict_folder_names() -> String {
    VERDICT_FOLDERS
        .iter()
        .map(|(name, _)| *name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// A file name (or path) as text without losing anything: valid UTF-8 as
/// it is, each byte that is not as `\xNN`, so two students whose folder
/// names differ only in such bytes never become one, and a page or a
/// message names the folder that is on the disk.
pub(crate) fn lossless(name: &std::ffi::OsStr) -> String {
    use std::fmt::Write as _;
    let mut text = String::new();
    for chunk in name.as_encoded_bytes().utf8_chunks() {
        text.push_str(chunk.valid());
        for byte in chunk.invalid() {
            let _ = write!(text, "\\x{byte:02x}");
        }
    }
    text
}

/// Who a submission given to `judge run` belongs to, for its CSV gradebook
/// and HTML page. `judge run` has no layout, so the path is read: when the
/// parent folder is the problem id (or a verdict folder such as
/// `wrong_answer/`), the student is the file stem (the whole file name in a
/// verdict folder, where examples differ by language); otherwise the parent
/// folder. `judge grade` never calls this: [`discover`] takes the student
/// from the layout, and every report uses that.
///
/// ```
/// use judge::discovery::student_from_path;
/// assert_eq!(student_from_path("submissions/rooks/alice.cpp", "rooks"), "alice");
/// assert_eq!(student_from_path("class/bob/rooks.py", "rooks"), "bob");
/// ```
pub fn student_from_path(submission: &str, problem: &str) -> String {
    let path = Path::new(submission);
    let stem = path
        .file_stem()
        .map(|stem| stem.to_string_lossy().into_owned())
        .unwrap_or_else(|| submission.to_owned());
    let parent = path
        .parent()
        .and_then(Path::file_name)
        .map(|name| name.to_string_lossy().into_owned());
    match parent {
        Some(parent) if verdict_of_folder(&parent).is_some() => path
            .file_name()
            .map_or(stem, |name| name.to_string_lossy().into_owned()),
        Some(parent) if parent != problem => parent,
        _ => stem,
    }
}

/// One file to grade, as its path describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The file, as found under the submissions folder (that folder joined
    /// with the relative path), so messages name it as the user wrote it.
    pub(crate) path: PathBuf,
    /// The problem id its path names (not necessarily a known one).
    pub(crate) problem: String,
    /// Who handed it in: the student's name, or the example's file name.
    pub(crate) student: String,
    /// Layout `expected`: the verdict folder, and the verdict it demands
    /// (`None` for a folder that is not one of [`VERDICT_FOLDERS`]).
    pub(crate) expected: Option<(String, Option<Verdict>)>,
    /// Other files handed in for the same (student, problem): the pair is
    /// then an error row naming all of them, never two grades.
    pub(crate) others: Vec<PathBuf>,
    /// The language (judge.toml's name) and entry point a package's
    /// `submissions.yaml` states for it, when it states one (issue #34).
    pub(crate) stated: Option<(String, Option<String>)>,
    /// The language standard its package states for it (`c++20`, from a
    /// Polygon solution's `type`), in place of the language's `-std=`.
    pub(crate) standard: Option<String>,
    /// The constants replaced in its files: a 2025-09 package's, for its
    /// own example submissions (issue #34); never a hand-in's.
    pub(crate) constants: Option<std::sync::Arc<crate::config::kattis_constants::Constants>>,
    /// Where its links may lead: a hand-in's folder, or, for a package's
    /// own example, its package.
    pub(crate) link_scope: crate::runner::LinkScope,
}

/// A file under the submissions folder that is not graded, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Ignored {
    pub(crate) path: PathBuf,
    pub(crate) reason: String,
}

/// What [`discover`] found: the pairs to grade, and the files it ignored.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Discovery {
    pub entries: Vec<Entry>,
    pub(crate) ignored: Vec<Ignored>,
    /// The class's students, each with the files that make them one: none
    /// for a student folder (layout `student/problem`, even an empty one),
    /// the hand-ins named after them in a problem folder (layout
    /// `problem/student`, graded or not). None for layout `expected`.
    pub(crate) students: std::collections::BTreeMap<String, Vec<PathBuf>>,
}

/// Why the submissions folder could not be searched: a usage error.
#[derive(Debug, thiserror::Error)]
pub enum DiscoverError {
    /// The folder does not exist.
    #[error("the submissions folder `{}` does not exist", path.display())]
    Missing { path: PathBuf },
    /// `submissions` names a file.
    #[error("the submissions folder `{}` is not a folder", path.display())]
    NotAFolder { path: PathBuf },
    /// Nothing in it fits the layout (or the `problems` chosen).
    #[error("the submissions folder `{}` holds no submissions{detail}", path.display())]
    Empty { path: PathBuf, detail: String },
    /// A directory in it could not be listed.
    #[error("failed to list the submissions folder")]
    Walk(#[from] walkdir::Error),
}

/// Every file under `root` laid out as `layout` says, hidden files and
/// folders skipped, sorted by path (the order of the unsharded run). Files
/// whose problem is not in `problems` (when given) are ignored, with a
/// "did you mean" when the name is one edit from one of them. Files that
/// do not fit the layout (a `README.txt` beside the folders, anything under
/// `__pycache__`, a file too deep, a folder where a file belongs) are
/// listed as ignored with the reason,
/// never graded. Several files for one (student, problem) are one entry
/// naming them all (issue #8).
///
/// Paths are kept as the operating system gave them, so a file name that is
/// not UTF-8 is graded like any other; only names shown to people are
/// converted (lossily).
pub fn discover(
    root: &Path,
    layout: Layout,
    problems: Option<&[String]>,
) -> Result<Discovery, DiscoverError> {
    if !root.exists() {
        return Err(DiscoverError::Missing {
            path: root.to_owned(),
        });
    }
    if !root.is_dir() {
        return Err(DiscoverError::NotAFolder {
            path: root.to_owned(),
        });
    }
    let (depth, shape) = match layout {
        Layout::ProblemStudent => (2, "<problem>/<student>.<ext>"),
        Layout::StudentProblem => (2, "<student>/<problem>.<ext>"),
        Layout::Expected => (3, "<problem>/<verdict-folder>/<name>.<ext>"),
    };
    let mut discovery = Discovery::default();
    let mut walker = walkdir::WalkDir::new(root)
        .min_depth(1)
        .sort_by_file_name()
        .into_iter();
    while let Some(entry) = walker.next() {
        let entry = entry?;
        if entry.file_name().as_encoded_bytes().starts_with(b".") {
            // Hidden (`.DS_Store`, `.git/`, `.rooks.py`): never graded,
            // listed once, never dropped unseen.
            let what = if entry.file_type().is_dir() {
                walker.skip_current_dir();
                "folder"
            } else {
                "file"
            };
            discovery.ignored.push(Ignored {
                path: entry.path().to_owned(),
                reason: format!("a hidden {what}, not a submission"),
            });
            continue;
        }
        if entry.file_type().is_dir() {
            if entry.depth() == 1 && layout == Layout::StudentProblem {
                discovery
                    .students
                    .entry(lossless(entry.file_name()))
                    .or_default();
            }
            // A folder named like a hand-in where the layout puts a file
            // (`alice/rooks.cpp/`): listed once, its contents with it,
            // never dropped unseen.
            let named_like_a_file = Path::new(entry.file_name()).extension().is_some();
            if entry.depth() == depth && named_like_a_file {
                discovery.ignored.push(Ignored {
                    path: entry.path().to_owned(),
                    reason: format!(
                        "a folder where layout `{}` expects a file ({shape})",
                        layout.name()
                    ),
                });
                walker.skip_current_dir();
            }
            continue;
        }
        let relative = entry.path().strip_prefix(root).unwrap_or(entry.path());
        let parts: Vec<String> = relative.iter().map(lossless).collect();
        let ignore = |reason: String| Ignored {
            path: entry.path().to_owned(),
            reason,
        };
        if parts.iter().any(|part| part == "__pycache__") {
            discovery.ignored.push(ignore(
                "Python's bytecode cache, not a submission".to_owned(),
            ));
            continue;
        }
        if parts.len() != depth {
            let place = if parts.len() < depth {
                "not deep enough"
            } else {
                "too deep"
            };
            discovery.ignored.push(ignore(format!(
                "{place} for layout `{}` ({shape})",
                layout.name()
            )));
            continue;
        }
        let stem = |name: &str| {
            Path::new(name)
                .file_stem()
                .map_or_else(String::new, lossless)
        };
        let (problem, student, expected) = match (layout, parts.as_slice()) {
            (Layout::ProblemStudent, [problem, file]) => {
                let student = stem(file);
                let files = discovery.students.entry(student.clone()).or_default();
                files.push(entry.path().to_owned());
                (problem.clone(), student, None)
            }
            (Layout::StudentProblem, [student, file]) => (stem(file), student.clone(), None),
            // Examples differ by language (`dfs_memo.cpp`, `dfs_memo.py`):
            // the whole file name tells them apart.
            (Layout::Expected, [problem, folder, file]) => (
                problem.clone(),
                file.clone(),
                Some((folder.clone(), verdict_of_folder(folder))),
            ),
            _ => continue,
        };
        match problems {
            Some(wanted) if !wanted.contains(&problem) => {
                discovery.ignored.push(ignore(format!(
                    "`{problem}` is not one of `problems` ({}){}",
                    wanted.join(", "),
                    crate::suggest::did_you_mean(&problem, wanted.iter().map(String::as_str))
                )));
            }
            _ => discovery.entries.push(Entry {
                path: entry.path().to_owned(),
                problem,
                student,
                expected,
                others: Vec::new(),
                stated: None,
                standard: None,
                constants: None,
                link_scope: crate::runner::LinkScope::HandIn,
            }),
        }
    }
    discovery.ignored.sort_by(|a, b| a.path.cmp(&b.path));
    discovery
        .entries
        .sort_by(|a, b| order_key(&a.path, &a.problem).cmp(&order_key(&b.path, &b.problem)));
    // One entry per (student, problem): the first file, naming the others.
    let mut kept: Vec<Entry> = Vec::with_capacity(discovery.entries.len());
    for entry in discovery.entries {
        match kept
            .iter_mut()
            .find(|seen| seen.problem == entry.problem && seen.student == entry.student)
        {
            Some(seen) => seen.others.push(entry.path),
            None => kept.push(entry),
        }
    }
    discovery.entries = kept;
    if discovery.entries.is_empty() {
        let detail = match (problems, discovery.ignored.len()) {
            (Some(problems), _) => format!(" for {}", problems.join(", ")),
            (None, 0) => String::new(),
            (None, count) => format!(
                " laid out as `{}` ({shape}); {count} file(s) ignored",
                layout.name()
            ),
        };
        return Err(DiscoverError::Empty {
            path: root.to_owned(),
            detail,
        });
    }
    Ok(discovery)
}

/// The order of results in an unsharded run, and of a merged report: by
/// submission path, then problem.
pub(crate) fn order_key<'a>(submission: &'a Path, problem: &'a str) -> (&'a Path, &'a str) {
    (submission, problem)
}

/// `--shard K/N`: the K-th of N disjoint parts of a run (K from 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Shard {
    /// 1-based.
    pub(crate) index: usize,
    pub(crate) count: usize,
}

impl Shard {
    /// Whether the item at `position` of the sorted list belongs to this
    /// shard. Positions are dealt round-robin, so the costly examples of
    /// one folder (all the TLE ones) spread over every shard.
    pub(crate) fn contains(self, position: usize) -> bool {
        position % self.count == self.index - 1
    }

    /// The items of `items` this shard grades, in order.
    pub(crate) fn select<T>(self, items: Vec<T>) -> Vec<T> {
        items
            .into_iter()
            .enumerate()
            .filter(|(position, _)| self.contains(*position))
            .map(|(_, item)| item)
            .collect()
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// A `--shard` that is not `K/N` with `1 <= K <= N`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("expected K/N with 1 <= K <= N, like 2/4; found `{0}`")]
pub(crate) struct BadShard(String);

impl FromStr for Shard {
    type Err = BadShard;

    fn from_str(text: &str) -> Result<Shard, BadShard> {
        let shape = || BadShard(text.to_owned());
        let (index, count) = text.split_once('/').ok_or_else(shape)?;
        let index: usize = index.trim().parse().map_err(|_| shape())?;
        let count: usize = count.trim().parse().map_err(|_| shape())?;
        if index == 0 || count == 0 || index > count {
            return Err(shape());
        }
        Ok(Shard { index, count })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use test_case::test_case;

    /// What each folder accepts besides its own verdict, and which an
    /// export to the Kattis format keeps.
    #[test]
    fn a_folder_accepts_its_verdict_and_kattis_neighbours() {
        use Verdict::*;
        let rows: [(&str, &[Verdict], bool); 5] = [
            ("accepted", &[], true),
            ("wrong_answer", &[PresentationError], true),
            ("run_time_error", &[MemoryLimitExceeded], true),
            ("slow_accepted", &[Accepted, TimeLimitExceeded], false),
            ("compile_error", &[], false),
        ];
        for (folder, also, exported) in rows {
            assert_eq!(
                also_accepted(folder, verdict_of_folder(folder)),
                also,
                "{folder}"
            );
            assert_eq!(kattis_exports(folder), exported, "{folder}");
        }
        assert!(kattis_exports(PARTIAL_FOLDER));
        assert!(!kattis_exports("memory_limit_exceeded"));
    }

    /// Kattis' meanings: each row a folder, a verdict, and whether they
    /// agree (`None`: not a Kattis folder).
    #[test]
    fn kattis_folders_agree_with_kattis_meanings() {
        use Verdict::*;
        let rows = [
            ("accepted", Accepted, Some(true)),
            ("accepted", TimeLimitExceeded, Some(false)),
            ("wrong_answer", PresentationError, Some(true)),
            ("wrong_answer", WrongAnswer, Some(true)),
            ("run_time_error", MemoryLimitExceeded, Some(true)),
            ("memory_limit_exceeded", RuntimeError, Some(false)),
            ("slow_accepted", TimeLimitExceeded, Some(true)),
            ("slow_accepted", WrongAnswer, Some(false)),
            ("compile_error", CompileError, Some(true)),
            ("output_limit_exceeded", OutputLimitExceeded, Some(true)),
            ("time_limit_exceeded", TimeLimitExceeded, Some(true)),
            ("partially_accepted", Accepted, None),
        ];
        for (folder, verdict, agrees) in rows {
            assert_eq!(
                kattis_folder_agrees(folder, verdict),
                agrees,
                "{folder} {verdict}"
            );
        }
    }

    #[test_case("1/1", Some((1, 1)))]
    #[test_case("3/4", Some((3, 4)))]
    #[test_case("0/4", None ; "zero index")]
    #[test_case("5/4", None ; "index past count")]
    #[test_case("1/0", None ; "zero count")]
    #[test_case("2", None ; "no slash")]
    #[test_case("a/b", None ; "not numbers")]
    fn parses_shards(text: &str, expected: Option<(usize, usize)>) {
        let parsed = text.parse::<Shard>();
        if expected.is_none() {
            let error = parsed.as_ref().map(|_| ()).unwrap_err().to_string();
            assert_eq!(
                error,
                format!("expected K/N with 1 <= K <= N, like 2/4; found `{text}`")
            );
        }
        let parsed = parsed.ok().map(|shard| (shard.index, shard.count));
        assert_eq!(parsed, expected);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// The N shards of a list are disjoint and together hold every item,
        /// each shard keeping the list's order.
        #[test]
        fn shards_are_disjoint_and_cover(len in 0usize..60, count in 1usize..9) {
            let items: Vec<usize> = (0..len).collect();
            let mut seen = Vec::new();
            for index in 1..=count {
                let part = Shard { index, count }.select(items.clone());
                prop_assert!(part.windows(2).all(|pair| pair[0] < pair[1]));
                seen.extend(part);
            }
            seen.sort_unstable();
            prop_assert_eq!(seen, items);
        }
    }

    #[test]
    fn discovers_each_layout_sorted_and_skips_hidden_files() {
        let dir = tempfile::tempdir().unwrap();
        let write = |name: &str| {
            let path = dir.path().join(name);
            fs_err::create_dir_all(path.parent().unwrap()).unwrap();
            fs_err::write(path, "").unwrap();
        };
        write("rooks/bob.py");
        write("rooks/alice.cpp");
        write("mayan/.hidden.py");
        write(".git/config");
        let entries = discover(dir.path(), Layout::ProblemStudent, None)
            .unwrap()
            .entries;
        let found: Vec<_> = entries
            .iter()
            .map(|entry| (entry.problem.as_str(), entry.student.as_str()))
            .collect();
        assert_eq!(found, [("rooks", "alice"), ("rooks", "bob")]);
        let only_mayan = vec!["mayan".to_owned()];
        assert!(matches!(
            discover(dir.path(), Layout::ProblemStudent, Some(&only_mayan)),
            Err(DiscoverError::Empty { .. })
        ));
    }

    /// See: issue #8. Files that do not fit the layout are ignored with the
    /// reason; two files for one (student, problem) are one entry naming
    /// both; a name that is not UTF-8 keeps its bytes, shown as `\xNN`
    /// (issue #16), so two such names never become one.
    #[test]
    fn r8_ignores_misfits_and_joins_two_files_for_one_pair() {
        use std::os::unix::ffi::OsStrExt as _;
        let dir = tempfile::tempdir().unwrap();
        let write = |name: &Path| {
            let path = dir.path().join(name);
            fs_err::create_dir_all(path.parent().unwrap()).unwrap();
            fs_err::write(path, "").unwrap();
        };
        write(Path::new("README.txt"));
        write(Path::new("alice/rooks.cpp"));
        write(Path::new("alice/rooks.py"));
        write(Path::new("alice/__pycache__/rooks.cpython-311.pyc"));
        write(Path::new("bob/deep/mayan.py"));
        let rene = std::ffi::OsStr::from_bytes(b"ren\xe9");
        write(&Path::new(rene).join("mayan.py"));
        let found = discover(dir.path(), Layout::StudentProblem, None).unwrap();
        let entries: Vec<_> = found
            .entries
            .iter()
            .map(|entry| {
                (
                    entry.student.as_str(),
                    entry.problem.as_str(),
                    entry.others.len(),
                )
            })
            .collect();
        assert_eq!(entries, [("alice", "rooks", 1), ("ren\\xe9", "mayan", 0)]);
        assert_eq!(found.entries[0].others, [dir.path().join("alice/rooks.py")]);
        assert_eq!(
            found.entries[1].path,
            dir.path().join(rene).join("mayan.py")
        );
        let ignored: Vec<_> = found
            .ignored
            .iter()
            .map(|ignored| {
                (
                    ignored
                        .path
                        .strip_prefix(dir.path())
                        .unwrap()
                        .to_str()
                        .unwrap(),
                    ignored.reason.as_str(),
                )
            })
            .collect();
        assert_eq!(
            ignored,
            [
                (
                    "README.txt",
                    "not deep enough for layout `student/problem` (<student>/<problem>.<ext>)"
                ),
                (
                    "alice/__pycache__/rooks.cpython-311.pyc",
                    "Python's bytecode cache, not a submission"
                ),
                (
                    "bob/deep/mayan.py",
                    "too deep for layout `student/problem` (<student>/<problem>.<ext>)"
                ),
            ]
        );
    }

    #[test]
    fn an_empty_folder_or_a_file_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let error = discover(dir.path(), Layout::Expected, None).unwrap_err();
        assert!(
            error.to_string().ends_with("holds no submissions"),
            "{error}"
        );
        let file = dir.path().join("file");
        fs_err::write(&file, "").unwrap();
        let error = discover(&file, Layout::Expected, None).unwrap_err();
        assert!(error.to_string().ends_with("is not a folder"), "{error}");
    }

    #[test]
    fn student_is_the_file_stem_in_problem_folders() {
        assert_eq!(
            student_from_path("submissions/rooks/alice.cpp", "rooks"),
            "alice"
        );
        assert_eq!(
            student_from_path("rooks/o'brien, jr.py", "rooks"),
            "o'brien, jr"
        );
        assert_eq!(
            student_from_path("submissions/rooks/wrong_answer/ignores_walls.py", "rooks"),
            "ignores_walls.py"
        );
        assert_eq!(student_from_path("alice.cpp", "rooks"), "alice");
        assert_eq!(student_from_path("./alice.cpp", "rooks"), "alice");
    }

    #[test]
    fn student_is_the_parent_folder_in_student_folders() {
        assert_eq!(student_from_path("class/bob/rooks.py", "rooks"), "bob");
        assert_eq!(student_from_path("/home/carol/mayan.rs", "mayan"), "carol");
        // The file stem need not be the problem id.
        assert_eq!(
            student_from_path("class/dave/solution.cpp", "rooks"),
            "dave"
        );
    }

    #[test]
    fn a_missing_folder_is_named() {
        let error = discover(Path::new("no/such"), Layout::Expected, None).unwrap_err();
        assert_eq!(
            error.to_string(),
            "the submissions folder `no/such` does not exist"
        );
    }
}
