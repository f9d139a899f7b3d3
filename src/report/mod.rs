//! Renderings of the runner's results: a human table, the JSON report of docs/report.md,
//! JUnit XML, a CSV gradebook and self-contained HTML pages. Reporters only
//! format and return text (they print nothing); verdicts are decided by the
//! runner.
//! Files are written atomically through the leaf `atomic_file` (temporary
//! file + rename), so an interrupted run never leaves half a report; the HTML report's set of pages is written
//! into a temporary folder and renamed into place (`write_page_set`).

pub(crate) mod classroom50;
pub(crate) mod coderunner;
pub(crate) mod collation;
pub mod csv;
pub(crate) mod formats;
pub(crate) mod gradescope;
pub mod html;
pub(crate) mod human;
pub mod json;
pub mod junit;
pub(crate) mod platform;
pub(crate) mod points;
pub(crate) mod prairielearn;
pub(crate) mod progress;
pub(crate) mod rendering;
pub use points::{ItemShare, Part, Shared, Unit};
pub use rendering::{Context, Ranked, Standings};
pub(crate) mod source;
pub(crate) mod stdout;
pub(crate) mod targets;
pub(crate) mod vpl;

use crate::atomic_file::write_atomically;
use crate::runner::{SubmissionResult, TestResult};
use crate::verdict::Verdict;
use std::io::Write;
use std::path::{Path, PathBuf};

/// A report file could not be written: the leaf's error for any file the
/// judge writes whole, under the name the report layer's callers know.
pub(crate) type ReportError = crate::atomic_file::WriteError;

/// The file that marks a folder of HTML pages as written by the judge: only
/// such a folder (or an empty one) is ever replaced.
pub(crate) const PAGE_SET_MARK: &str = ".judge-html";

/// Writes the HTML report as one set: the class page at `path` and the
/// submissions' `pages` in the folder `folder` beside it. The pages are
/// written into a temporary folder beside `folder`, synced, and renamed into
/// place before the class page is written (atomically), so the class page
/// never links to a page that is not there. An earlier set's folder is
/// replaced, but a folder the judge did not write (no [`PAGE_SET_MARK`],
/// not empty) is left alone and is an error.
///
/// Not one atomic step: between the two renames of a folder an earlier set
/// is briefly absent, and a crash there leaves the old class page with no
/// pages; a reader never sees half a page.
pub(crate) fn write_page_set(
    path: &Path,
    folder: &Path,
    class_page: &[u8],
    pages: &[(String, String)],
) -> Result<(), ReportError> {
    let error = |path: &Path| {
        let path = path.to_owned();
        move |source| ReportError { path, source }
    };
    let parent = match folder.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    if folder.exists() && !is_replaceable_page_folder(folder) {
        return Err(ReportError {
            path: folder.to_owned(),
            source: std::io::Error::new(
                std::io::ErrorKind::AlreadyExists,
                "it exists and does not hold judge's HTML pages; move it away or choose \
                 another --html file",
            ),
        });
    }
    let scratch = tempfile::Builder::new()
        .prefix(".judge-")
        .tempdir_in(parent)
        .map_err(error(parent))?;
    // Created the ordinary way (not the 0700 of a temporary folder): a report
    // is meant to be shared (issue #8).
    let fresh = scratch.path().join("pages");
    fs_err::create_dir(&fresh).map_err(error(&fresh))?;
    let mut files: Vec<(&str, &[u8])> = vec![(PAGE_SET_MARK, b"")];
    files.extend(
        pages
            .iter()
            .map(|(name, text)| (name.as_str(), text.as_bytes())),
    );
    for (name, contents) in files {
        let file_path = fresh.join(name);
        let mut file = fs_err::File::create(&file_path).map_err(error(&file_path))?;
        file.write_all(contents).map_err(error(&file_path))?;
        file.sync_all().map_err(error(&file_path))?;
    }
    replace_folder(&fresh, folder, &scratch.path().join("old"))
        .map_err(|swap| error(folder)(swap.source))?;
    write_atomically(path, class_page)
    // Dropping `scratch` removes the earlier set.
}

/// A step of [`replace_folder`] failed: `action` is `move aside` (the old
/// folder) or `move into place` (the new one).
#[derive(Debug)]
pub(crate) struct SwapError {
    pub(crate) action: &'static str,
    pub(crate) source: std::io::Error,
}

/// Moves the folder `fresh` to `target`, replacing the folder there: the
/// one way the judge swaps a whole folder (the HTML report's pages, a
/// `judge gen --out` set). One rename when `target` is absent or empty;
/// else the old folder is renamed to `aside` (on the same file system) and
/// the new one renamed in, and when that fails the old one is renamed back,
/// so a failure leaves the old folder as it was. The old folder is left at
/// `aside` for the caller to remove. A reader sees the old folder or the
/// new one, or between the two renames none.
pub(crate) fn replace_folder(fresh: &Path, target: &Path, aside: &Path) -> Result<(), SwapError> {
    if fs_err::rename(fresh, target).is_ok() {
        return Ok(());
    }
    fs_err::rename(target, aside).map_err(|source| SwapError {
        action: "move aside",
        source,
    })?;
    if let Err(source) = fs_err::rename(fresh, target) {
        let _ = fs_err::rename(aside, target);
        return Err(SwapError {
            action: "move into place",
            source,
        });
    }
    Ok(())
}

/// An empty folder, or one holding [`PAGE_SET_MARK`].
pub(crate) fn is_replaceable_page_folder(folder: &Path) -> bool {
    if !folder.is_dir() {
        return false;
    }
    if folder.join(PAGE_SET_MARK).is_file() {
        return true;
    }
    fs_err::read_dir(folder).is_ok_and(|mut entries| entries.next().is_none())
}

/// The folder of an HTML report's pages: `grades.html` keeps them in
/// `grades/`, a name without an extension (`grades`) in `grades_files/`.
pub(crate) fn page_folder(path: &Path) -> PathBuf {
    let stem = path.file_stem().unwrap_or(path.as_os_str());
    let mut name = stem.to_os_string();
    if path.extension().is_none() {
        name.push("_files");
    }
    path.with_file_name(name)
}

pub(crate) use crate::config::problem::is_sample;

/// A test as students may see it (`--student-view`): a hidden test (not a
/// sample) keeps its verdict and the checker's message, but loses its
/// data: the excerpts of input, expected and actual output, the standard
/// error (a program may print its input there) and the random origin (from
/// which `judge gen` would make the input).
///
/// Its message becomes [`student_message`], its exit code and signal go,
/// and its CPU time, wall time and memory are 0 (issue 18: `expected 3, got
/// 0` and `exit code 205` taught the hidden answers in a few resubmissions;
/// a program chooses its memory and time from the input too: `4 + v` MiB
/// told a byte of input per test).
pub(crate) fn hide_test_data(test: &mut TestResult) {
    if !is_sample(&test.name) {
        test.excerpt = None;
        test.stderr = None;
        test.random = None;
        test.message = student_message(test);
        test.exit_code = None;
        test.signal = None;
        test.time_ms = 0;
        test.wall_ms = 0;
        test.memory_kib = 0;
        // Whether a wall-clock TLE was re-run alone follows from how the
        // program spent its time (sleeping or spinning), which it chooses;
        // so does how long it waited for a CPU.
        test.rerun = false;
        test.cpu_wait_ms = None;
    }
}

/// How a wall-clock TLE's message names its limit.
const WALL_LIMIT_WORDS: &str = "wall-clock time exceeded";

/// The message a student sees for a hidden test (issue 18): its verdict
/// and where it failed (`board 1`), but no expected value, no figure
/// derived from the input (nor the CPU time of a TLE, which the program
/// chooses), no exit code or signal. A few resubmissions
/// must not build a table of the hidden answers. Limits (time, memory,
/// output) are the problem's, public anyway, and stay. Applying it twice
/// gives the same message.
pub(crate) fn student_message(test: &TestResult) -> String {
    let what = match test.verdict {
        Verdict::WrongAnswer => "wrong answer",
        Verdict::PresentationError => "presentation error",
        Verdict::RuntimeError => return "runtime error".to_owned(),
        // `3 boards`: a figure derived from the input (third red team).
        Verdict::Accepted => return "accepted".to_owned(),
        // The limit that was exceeded, public anyway, but not the CPU time
        // the program used (`(CPU time 137 ms)`) nor a note on it: the
        // program chooses how long it spins from the input, so the figure
        // would carry the hidden test's data (third red team).
        // A TLE the host starved says how long the program waited and ran,
        // figures it chose as much as its CPU time (a spin as long as the
        // input says, on a busy host): only its limit's words are kept, so
        // it reads as any wall-clock TLE of the test.
        Verdict::TimeLimitExceeded => {
            let message = match test.message.find(WALL_LIMIT_WORDS) {
                Some(at) if test.message.starts_with(crate::runner::HOST_OVERLOADED) => {
                    &test.message[at..]
                }
                _ => test.message.as_str(),
            };
            let cut = message.find([';', '(']).unwrap_or(message.len());
            return message[..cut].trim_end().to_owned();
        }
        Verdict::JudgeError => return judge_error_summary(&test.message),
        _ => return test.message.clone(),
    };
    // A locator is a word and a number before the first colon: `board 1`.
    let locator = test
        .message
        .split_once(':')
        .map(|(head, _)| head.trim())
        .filter(|head| {
            let mut words = head.split_whitespace();
            matches!(
                (words.next(), words.next(), words.next()),
                (Some(word), Some(number), None)
                    if word.chars().all(char::is_alphabetic)
                        && number.chars().all(|c| c.is_ascii_digit())
            )
        });
    match locator {
        Some(locator) => format!("{locator}: {what}"),
        None => what.to_owned(),
    }
}

/// Which part of the judge failed, by how the judge's own JE messages
/// start, and how a student is told so.
const JUDGE_PARTS: &[(&str, &str)] = &[
    ("checker failure: ", "the checker"),
    ("checker ", "the checker"),
    ("output validator ", "the output validator"),
    ("interactor ", "the interactor"),
    ("validator ", "the input validator"),
    ("reference ", "the reference solution"),
    ("generator ", "the generator"),
];

/// A hidden test's JE as a student sees it: which part of the judge
/// failed, in words the judge wrote, and nothing of the message itself. A
/// JE message quotes what a package's program wrote: a checker that
/// crashes on a malformed output quotes that output in its traceback, so a
/// program that printed its hidden input and made the checker crash
/// showed the input (issue #35). Applying it twice gives the same message.
fn judge_error_summary(message: &str) -> String {
    let summary = |who: &str| format!("{who} failed (judge error)");
    let mut parts = JUDGE_PARTS.iter().map(|(_, who)| *who).chain(["the judge"]);
    if parts.any(|who| message == summary(who)) {
        return message.to_owned();
    }
    let who = JUDGE_PARTS
        .iter()
        .find(|(start, _)| message.starts_with(start))
        .map_or("the judge", |(_, who)| who);
    summary(who)
}

/// What the CSV gradebook and the HTML page need of a result: the result
/// and who handed it in.
pub trait Row {
    /// The runner's result.
    fn result(&self) -> &SubmissionResult;
    /// The student (or example) the row is for.
    fn student(&self) -> String;
    /// Whether the submission got what its verdict folder demands; `None`
    /// without an expectation. The grading layer's decision
    /// (`crate::grading::graded`), as every report asks it.
    fn agrees(&self) -> Option<bool>;
    /// The score in percent the table and the summary show (the grading
    /// layer's rounding, `crate::grading::graded::score_percent`).
    fn score_percent(&self) -> u32;
    /// The score the gradebook, the HTML pages and the platforms' files
    /// show, two decimals: with test groups the groups' points, else the
    /// percent of tests passed (the grading layer's figure,
    /// `crate::grading::graded::score_points`).
    fn score_points(&self) -> f64;
    /// The most [`Row::score_points`] could be, two decimals: the groups'
    /// maximum, else 100 (`crate::grading::graded::max_score_points`).
    fn max_score_points(&self) -> f64;
    /// The problem's points in a platform's `unit`, shared among its
    /// items (tests, or top-level groups): the grading layer's
    /// (`crate::grading::shares`).
    fn shared(&self, unit: Unit) -> Shared;
    /// What the submission had to get (layout `expected`, a package's
    /// folders): `None` without an expectation (`judge run`, a class).
    fn expectation(&self) -> Option<Expectation> {
        None
    }

    /// Why the hand-in could not be graded at all (two files for one
    /// problem, an unreadable file), when it could not: the platforms'
    /// renderers say it as a format error, not as a score.
    fn not_gradable(&self) -> Option<&str> {
        None
    }

    /// Every file handed in for the pair when there were several (none was
    /// run; see `json::GradedResult::handed_in`), else nothing.
    fn handed_in(&self) -> &[String] {
        &[]
    }

    /// The CPU time limit of each test, after the language's time factor
    /// (a grade's row; `judge run`'s rows say none).
    fn time_limit_ms(&self) -> Option<u64> {
        None
    }

    /// What the grade noted on the row (a verdict sensitive to the time
    /// limit), each said as a warning.
    fn warnings(&self) -> &[String] {
        &[]
    }
}

/// A (student, problem) of a class with no hand-in: a `missing` row of
/// every report (score 0).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Missing {
    pub(crate) student: String,
    pub(crate) problem: String,
}

/// A file that was not graded, and why (it does not fit the layout; a
/// package's file its format says not to run).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Ignored {
    pub(crate) path: String,
    pub(crate) reason: String,
}

/// A pair an interrupted run did not grade, as every report shows it: no
/// verdict, and the student it belongs to as the grading layer decided it
/// (`crate::grading::graded::ungraded`), never worked out here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Ungraded {
    pub(crate) problem: String,
    pub(crate) submission: String,
    /// The student the pair belongs to.
    pub(crate) student: String,
    /// Whether the report recorded the student; else it was read from the
    /// submission's path (`judge run`, a report of an older judge), and the
    /// terminal table shows `-` for it.
    pub(crate) recorded: bool,
}

/// What a submission had to get and whether it did ([`Row::expectation`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expectation {
    /// The folder that names it (`wrong_answer`), or the tag in its place.
    pub folder: String,
    /// The word for what `folder` names, as its package's format says it:
    /// `folder`, or `tag` for a Polygon solution's tag.
    pub folder_word: &'static str,
    /// The verdict the folder demands; `None` for a folder that names none.
    pub verdict: Option<Verdict>,
    /// Every verdict the folder accepts, AC among them for a test.
    pub accepted: Vec<Verdict>,
    /// Whether the submission met it (the verdict its folder demands, or
    /// what `submissions.yaml` asks).
    pub agrees: bool,
    /// The line that says why not (`expected AC, got WA (test ...)`).
    pub disagreement: Option<String>,
}

/// The verdict cell of a row in the terminal table, the summary and the
/// CSV: `N files` where several files were handed in for one problem (none
/// was run: no compile error, whatever the result's placeholder CE says,
/// as the class page shows it: issue 32), else the verdict's code.
pub(crate) fn verdict_cell(verdict: Verdict, handed_in: &[String]) -> String {
    if handed_in.is_empty() {
        verdict.code().to_owned()
    } else {
        format!("{} files", handed_in.len())
    }
}

/// A row behind a reference: the rows every report format renders are
/// `&dyn Row`.
impl<T: Row + ?Sized> Row for &T {
    fn result(&self) -> &SubmissionResult {
        (**self).result()
    }

    fn student(&self) -> String {
        (**self).student()
    }

    fn agrees(&self) -> Option<bool> {
        (**self).agrees()
    }

    fn score_percent(&self) -> u32 {
        (**self).score_percent()
    }

    fn shared(&self, unit: Unit) -> Shared {
        (**self).shared(unit)
    }

    fn score_points(&self) -> f64 {
        (**self).score_points()
    }

    fn max_score_points(&self) -> f64 {
        (**self).max_score_points()
    }

    fn not_gradable(&self) -> Option<&str> {
        (**self).not_gradable()
    }

    fn handed_in(&self) -> &[String] {
        (**self).handed_in()
    }

    fn expectation(&self) -> Option<Expectation> {
        (**self).expectation()
    }

    fn time_limit_ms(&self) -> Option<u64> {
        (**self).time_limit_ms()
    }

    fn warnings(&self) -> &[String] {
        (**self).warnings()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replacing_a_folder_swaps_it_whole_and_a_failure_keeps_the_old_one() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("set");
        let aside = dir.path().join("aside");
        let fresh = |text: &str| {
            let fresh = dir.path().join(format!("fresh-{text}"));
            fs_err::create_dir(&fresh).unwrap();
            fs_err::write(fresh.join("a.txt"), text).unwrap();
            fresh
        };
        // Absent: one rename.
        replace_folder(&fresh("one"), &target, &aside).unwrap();
        assert_eq!(fs_err::read_to_string(target.join("a.txt")).unwrap(), "one");
        assert!(!aside.exists());
        // Present: the old folder is moved aside, the new one is in place.
        replace_folder(&fresh("two"), &target, &aside).unwrap();
        assert_eq!(fs_err::read_to_string(target.join("a.txt")).unwrap(), "two");
        assert_eq!(fs_err::read_to_string(aside.join("a.txt")).unwrap(), "one");
        fs_err::remove_dir_all(&aside).unwrap();
        // The new folder cannot be moved in (it is gone): the old one stays.
        let missing = dir.path().join("missing");
        let failure = replace_folder(&missing, &target, &aside).unwrap_err();
        assert_eq!(failure.action, "move into place");
        assert_eq!(fs_err::read_to_string(target.join("a.txt")).unwrap(), "two");
        assert!(!aside.exists());
        // The old folder cannot be moved aside (no such parent): untouched.
        let nowhere = dir.path().join("no").join("aside");
        let failure = replace_folder(&fresh("three"), &target, &nowhere).unwrap_err();
        assert_eq!(failure.action, "move aside");
        assert_eq!(fs_err::read_to_string(target.join("a.txt")).unwrap(), "two");
    }

    fn pages(names: &[&str], text: &str) -> Vec<(String, String)> {
        names
            .iter()
            .map(|name| ((*name).to_owned(), text.to_owned()))
            .collect()
    }

    #[test]
    fn a_page_set_replaces_the_earlier_set_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("grades.html");
        let folder = page_folder(&path);
        assert_eq!(folder, dir.path().join("grades"));
        write_page_set(
            &path,
            &folder,
            b"one",
            &pages(&["a-rooks.html", "b-rooks.html"], "1"),
        )
        .unwrap();
        write_page_set(&path, &folder, b"two", &pages(&["c-rooks.html"], "2")).unwrap();
        assert_eq!(fs_err::read(&path).unwrap(), b"two");
        let mut names: Vec<String> = fs_err::read_dir(&folder)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names, [PAGE_SET_MARK, "c-rooks.html"]);
        assert_eq!(
            fs_err::read_to_string(folder.join("c-rooks.html")).unwrap(),
            "2"
        );
        // No temporary folder or earlier set is left beside them.
        assert_eq!(fs_err::read_dir(dir.path()).unwrap().count(), 2);
        use std::os::unix::fs::PermissionsExt as _;
        let mode = fs_err::metadata(&folder).unwrap().permissions().mode();
        assert_ne!(
            mode & 0o077,
            0,
            "the folder is shared like a report: {mode:o}"
        );
    }

    #[test]
    fn a_page_set_never_replaces_a_folder_judge_did_not_write() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("grades.html");
        let folder = dir.path().join("grades");
        fs_err::create_dir(&folder).unwrap();
        fs_err::write(folder.join("alice.py"), "print(1)").unwrap();
        let error = write_page_set(&path, &folder, b"x", &pages(&["a.html"], "1")).unwrap_err();
        assert_eq!(error.path, folder);
        assert!(error
            .source
            .to_string()
            .contains("does not hold judge's HTML pages"));
        assert_eq!(
            fs_err::read_to_string(folder.join("alice.py")).unwrap(),
            "print(1)"
        );
        assert!(!path.exists());
        // A file of that name is refused too; an empty folder is used.
        fs_err::remove_dir_all(&folder).unwrap();
        fs_err::write(&folder, "").unwrap();
        assert!(!is_replaceable_page_folder(&folder));
        fs_err::remove_file(&folder).unwrap();
        fs_err::create_dir(&folder).unwrap();
        write_page_set(&path, &folder, b"x", &pages(&["a.html"], "1")).unwrap();
        assert!(folder.join("a.html").is_file());
    }

    #[test]
    fn page_folder_is_named_after_the_report() {
        assert_eq!(
            page_folder(Path::new("out/grades.html")),
            Path::new("out/grades")
        );
        assert_eq!(page_folder(Path::new("grades")), Path::new("grades_files"));
        assert_eq!(page_folder(Path::new("a.b.html")), Path::new("a.b"));
    }

    #[test]
    fn student_view_keeps_samples_and_hides_the_data_of_the_rest() {
        let test = |name: &str| TestResult {
            name: name.to_owned(),
            verdict: crate::verdict::Verdict::WrongAnswer,
            time_ms: 3,
            wall_ms: 4,
            memory_kib: 100,
            exit_code: Some(1),
            signal: None,
            message: "board 1: expected 5, got 4".to_owned(),
            random: Some(crate::runner::RandomOrigin {
                seed: 1,
                profile: "small".to_owned(),
                index: 0,
            }),
            excerpt: Some(crate::runner::Excerpt::new(b"1", Some(b"2"), b"3")),
            rerun: true,
            cpu_wait_ms: None,
            stderr: Some("Traceback".to_owned()),
            validator_score: None,
        };
        let mut sample = test("sample-1");
        hide_test_data(&mut sample);
        assert_eq!(sample, test("sample-1"));
        let mut hidden = test("gen-small-001");
        hide_test_data(&mut hidden);
        assert_eq!(
            hidden,
            TestResult {
                excerpt: None,
                stderr: None,
                validator_score: None,
                random: None,
                // Where it failed, not the expected value nor the exit code
                // (issue 18).
                message: "board 1: wrong answer".to_owned(),
                exit_code: None,
                // Chosen by the program from the input (issue 18).
                time_ms: 0,
                wall_ms: 0,
                memory_kib: 0,
                // Whether it slept or spun, chosen too (fifth red team).
                rerun: false,
                cpu_wait_ms: None,
                ..test("gen-small-001")
            }
        );
    }

    /// A hidden TLE shows its limit and no figure of the run: neither the
    /// CPU time of a wall-clock TLE nor, when the host starved it, how long
    /// it waited and ran (a report on a busy host listed "the program
    /// waited 1422 ms for a CPU of its 4128 ms"); twice the same.
    #[test_case::test_case("wall-clock time exceeded 2700 ms (CPU time 137 ms)", "wall-clock time exceeded 2700 ms" ; "wall clock")]
    #[test_case::test_case("CPU time exceeded 900 ms", "CPU time exceeded 900 ms" ; "cpu")]
    #[test_case::test_case("wall-clock time exceeded 2700 ms (CPU time 12 ms); 40 ms of wall clock were added to the limit for the time the program waited for a CPU", "wall-clock time exceeded 2700 ms" ; "wall clock added")]
    #[test_case::test_case("the host was busy: the program waited 1422 ms for a CPU of its 4128 ms of wall clock (CPU time 88 ms of the 900 ms limit), also in 2 runs alone: wall-clock time exceeded 2700 ms; grade it again on a quieter host (unless its own threads or processes, more than the CPUs it may use, kept it waiting)", "wall-clock time exceeded 2700 ms" ; "host busy")]
    fn a_hidden_tle_shows_its_limit_and_no_figure_of_the_run(message: &str, shown: &str) {
        let mut test = TestResult {
            name: "secret/a".to_owned(),
            verdict: crate::verdict::Verdict::TimeLimitExceeded,
            time_ms: 88,
            wall_ms: 4128,
            memory_kib: 100,
            exit_code: None,
            signal: Some(9),
            message: message.to_owned(),
            random: None,
            excerpt: None,
            rerun: true,
            cpu_wait_ms: Some(1422),
            stderr: None,
            validator_score: None,
        };
        hide_test_data(&mut test);
        assert_eq!((test.message.as_str(), test.cpu_wait_ms), (shown, None));
        hide_test_data(&mut test);
        assert_eq!(test.message, shown);
    }

    /// See: issue #35. A hidden test's JE shows which part of the judge
    /// failed and none of what a program wrote (a checker's traceback
    /// quotes the output, which may be the hidden input); twice the same.
    #[test_case::test_case("checker failure: checker `v` exited with code 1; its stderr:\nValueError: invalid literal for int(): 'leak 5 7'", "the checker failed (judge error)" ; "a checker's traceback")]
    #[test_case::test_case("output validator `v.py` exited with code 1; it said: leak 5 7", "the output validator failed (judge error)" ; "a validator's message")]
    #[test_case::test_case("interactor `i.cpp` crashed with an uncaught exception (leak):\n5 7", "the interactor failed (judge error)" ; "an interactor's crash")]
    #[test_case::test_case("output validator `v` left a file the judge does not read: `feedback/nextpass.in` is a symbolic link", "the output validator failed (judge error)" ; "a file left")]
    #[test_case::test_case("sandbox failure: leak 5 7", "the judge failed (judge error)" ; "anything else")]
    fn r35_a_hidden_tests_judge_error_shows_only_the_judges_words(message: &str, shown: &str) {
        let mut test = TestResult {
            name: "secret/a".to_owned(),
            verdict: crate::verdict::Verdict::JudgeError,
            time_ms: 3,
            wall_ms: 4,
            memory_kib: 100,
            exit_code: Some(0),
            signal: None,
            message: message.to_owned(),
            random: None,
            excerpt: None,
            rerun: false,
            cpu_wait_ms: None,
            stderr: None,
            validator_score: None,
        };
        hide_test_data(&mut test);
        assert_eq!(test.message, shown);
        hide_test_data(&mut test);
        assert_eq!(test.message, shown);
    }
}
