//! `judge grade --resume REPORT`: which results of an earlier `judge grade`
//! JSON report can stand for grading again.
//!
//! A result is reused when its submission's bytes (SHA-256) and everything
//! else that decided it (the [`Fingerprint`]: judge version, problem, the
//! package's problem.toml and test files, language, limits, seed) are what
//! this run would use. A
//! teacher who re-grades a class after one late hand-in waits for that one
//! submission. This module decides and counts; it runs nothing and prints
//! nothing: [`open`] and the grades' one calls say its [`Resume::refused`]
//! reason and [`Tally`].

use super::grade::{Grade, GradedResult};
use crate::grading::GradingError;
use crate::package::Package;
use crate::problems::Problem;
use crate::report::json::{self, JUDGE_VERSION, VERSION};
use crate::report::ReportError;
use crate::runner::{Settings, Submission, SubmissionKind, TestsToRun};
use crate::sandbox::Limits;
use crate::verdict::Verdict;
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

mod moved;

/// The SHA-256 of `bytes`, in lowercase hex.
pub(crate) fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

fn hex(digest: &[u8]) -> String {
    let mut hex = String::with_capacity(2 * digest.len());
    for byte in digest {
        let _ = write!(hex, "{byte:02x}");
    }
    hex
}

/// One digest of a problem package as grading uses it: its id, the
/// validated `problem.toml` and every test (name, input, answer, in name
/// order). With the seed, the random-test count and the judge version
/// (whose generators and reference solvers make the random tests) it
/// decides every test a run uses, without generating any: an interrupted
/// run can still tell which earlier results stand.
pub(crate) fn package_sha256(package: &Package) -> std::io::Result<String> {
    let mut hasher = Sha256::new();
    let mut field = |bytes: &[u8]| {
        // Lengths first, so no two different packages hash the same.
        hasher.update((bytes.len() as u64).to_le_bytes());
        hasher.update(bytes);
    };
    field(package.id().as_bytes());
    field(format!("{:?}", package.manifest()).as_bytes());
    for test in package.tests() {
        field(test.name.as_bytes());
        field(test.input.as_bytes());
        match &test.answer {
            Some(answer) => {
                field(b"answer");
                field(answer.as_bytes());
            }
            None => field(b"no answer"),
        }
    }
    Ok(hex(&hasher.finalize()))
}

/// Everything besides the submission's bytes that decides a result. Two
/// runs with equal fingerprints (and equal bytes) give the same verdicts;
/// `jobs` is left out because it changes no verdict (the report is the
/// same JSON for any `--jobs`).
#[derive(Debug, Serialize)]
pub(crate) struct Fingerprint<'a> {
    pub(crate) judge_version: &'a str,
    pub(crate) problem: &'a str,
    /// [`package_sha256`] of the problem's package.
    pub(crate) package_sha256: &'a str,
    /// The checker's options from problem.toml (mayan `lexmin`).
    pub(crate) check_options: String,
    /// The language and its configuration (commands, time factor), or
    /// `executable`.
    pub(crate) language: String,
    /// Per-test limits after the language's time factor.
    pub(crate) limits: String,
    pub(crate) compile_limits: String,
    pub(crate) seed: u64,
    pub(crate) random_tests: u32,
    /// Whether the result stops at its first failing test. Left out when
    /// every test runs, so the fingerprints of a class, and of reports
    /// written before a grade could stop early (which ran every test), stay
    /// what they were.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub(crate) until_first_failure: bool,
    /// Whether the result holds only the tests the problem's groups reach
    /// (issue #15). Left out when false, as `until_first_failure` is.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub(crate) reached_only: bool,
    /// A folder program's language's `folder-*` rules (where it starts,
    /// which sources it takes: issue #33, the language table's). Left out
    /// for a file, whose result they do not decide, so its fingerprint
    /// stays what it was.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) folder_rules: Option<String>,
}

impl<'a> Fingerprint<'a> {
    /// The fingerprint of `submission` graded on `problem`, whose package
    /// [`package_sha256`] digests, under `settings`.
    pub(crate) fn new(
        problem: &'a dyn Problem,
        package_sha256: &'a str,
        submission: &Submission,
        settings: &Settings,
        which: TestsToRun,
        seed: u64,
        random_tests: u32,
    ) -> Fingerprint<'a> {
        // Debug renderings: every field of these types, and a change of
        // their shape comes with a new judge version, which is in here too.
        let limits = |limits: &Limits| format!("{limits:?}");
        Fingerprint {
            judge_version: JUDGE_VERSION,
            problem: problem.id(),
            package_sha256,
            check_options: format!("{:?}", settings.check_options),
            language: format!("{:?}", submission.kind),
            limits: limits(&submission.limits(&settings.limits)),
            compile_limits: limits(&settings.compile_limits),
            seed,
            random_tests,
            until_first_failure: which == TestsToRun::UntilFirstFailure,
            reached_only: false,
            folder_rules: match &submission.kind {
                SubmissionKind::Language { language, .. } if submission.path.is_dir() => {
                    Some(format!("{:?}", language.folder))
                }
                _ => None,
            },
        }
    }

    /// This fingerprint, for a result that holds only the tests its
    /// groups reach when `reached_only`.
    pub(crate) fn reached_only(self, reached_only: bool) -> Fingerprint<'a> {
        Fingerprint {
            reached_only,
            ..self
        }
    }

    /// The SHA-256 (hex) of all the fields.
    pub(crate) fn digest(&self) -> Result<String, serde_json::Error> {
        Ok(sha256_hex(serde_json::to_string(self)?.as_bytes()))
    }
}

/// The report given to `--resume` could not be used at all: a usage error
/// (exit 2), naming the file.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ResumeError {
    #[error("cannot read the report `{}` given to `--resume`", path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("`{}` (given to `--resume`) is not a `judge grade` JSON report: {message}", path.display())]
    Parse { path: PathBuf, message: String },
}

/// A report given to `--resume`, ready to be asked about each pair.
#[derive(Debug)]
pub(crate) struct Resume {
    path: PathBuf,
    /// Results by (submission, problem), taken out as they are reused.
    results: BTreeMap<(String, String), GradedResult>,
    /// Why nothing of the report is reused (another judge or format).
    refused: Option<String>,
    tally: Tally,
}

/// What became of the pairs a run asked [`Resume::take`] about.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Tally {
    pub(crate) reused: usize,
    /// Pairs graded again because their submission's bytes changed.
    pub(crate) changed_submissions: Vec<String>,
    /// ... because the language, package, limits, seed or judge changed.
    pub(crate) changed_settings: usize,
    /// ... because the earlier result was a judge error (JE is the judge's
    /// fault, such as a missing compiler: it may not happen again).
    pub(crate) judge_errors: usize,
    /// ... because the report has no result for them.
    pub(crate) absent: usize,
    /// The first pair the report has no result for, and a path the report
    /// does name for its problem: what the note shows when a report was
    /// written for other paths (issue #32).
    pub(crate) first_absent: Option<(String, Option<String>)>,
}

impl Tally {
    /// Pairs graded again.
    pub(crate) fn regraded(&self) -> usize {
        self.changed_submissions.len() + self.changed_settings + self.judge_errors + self.absent
    }
}

/// The results journal of the report `report`: `REPORT.journal` beside it.
pub(crate) fn journal_path(report: &Path) -> PathBuf {
    let mut name = report.as_os_str().to_owned();
    name.push(".journal");
    PathBuf::from(name)
}

/// What `--resume` and `--json` come to before a grade runs: the earlier
/// report's results to reuse, where the new JSON report goes and the
/// journal beside it.
#[derive(Debug)]
pub(crate) struct Opened<'a> {
    /// The report of `--resume`, ready to be asked about each pair.
    pub(crate) resume: Option<Resume>,
    /// Where the JSON report goes: `--json FILE`, else the `--resume FILE`
    /// it brings up to date.
    pub(crate) json: Option<&'a Path>,
    /// The results journal beside `json`, started empty; none for
    /// standard output (`-`) or without a JSON report.
    pub(crate) journal: Option<Journal>,
}

/// The one entry of `--resume` for a grade: reads the report of `resume`
/// ([`load`]), hands `say` the note of why none of its results can be
/// reused when none can, and only then starts the journal beside the JSON
/// report ([`report_and_journal`]), which replaces the journal just read.
pub(crate) fn open<'a>(
    json: Option<&'a Path>,
    resume: Option<&'a Path>,
    say: &mut dyn FnMut(&str),
) -> Result<Opened<'a>, GradingError> {
    let earlier = match resume {
        Some(path) => {
            let earlier = load(path)?;
            if let Some(note) = refused_note(path, &earlier) {
                say(&note);
            }
            Some(earlier)
        }
        None => None,
    };
    let (json, journal) = report_and_journal(json, resume)?;
    Ok(Opened {
        resume: earlier,
        json,
        journal,
    })
}

/// The note saying that the report `path` reuses nothing, and why, when
/// it does.
fn refused_note(path: &Path, resume: &Resume) -> Option<String> {
    resume
        .refused()
        .map(|reason| format!("note: reusing no result of `{}`: {reason}", path.display()))
}

/// Where a grade writes its JSON report and the journal beside it: `--json
/// FILE`, else the `--resume FILE` it brings up to date (`--resume FILE`
/// alone). The journal starts empty (`--resume` has read the earlier one by
/// then); standard output (`-`) gets none.
fn report_and_journal<'a>(
    json: Option<&'a Path>,
    resume: Option<&'a Path>,
) -> Result<(Option<&'a Path>, Option<Journal>), ReportError> {
    let json = json.or(resume);
    let journal = match json {
        Some(path) if !crate::report::targets::is_stdout(path) => {
            Some(Journal::create(&journal_path(path))?)
        }
        _ => None,
    };
    Ok((json, journal))
}

/// A results journal being written: one JSON line per finished (submission,
/// problem) result, each written whole and synced before the grade goes on,
/// so a grade killed at any point (SIGKILL, the OOM killer, a reboot)
/// leaves every finished result but the one being written, whose torn line
/// [`load`] ignores.
#[derive(Debug)]
pub(crate) struct Journal {
    path: PathBuf,
    file: fs_err::File,
}

impl Journal {
    /// Starts an empty journal at `path`, replacing an earlier one (whose
    /// results `--resume` has read by then). A journal that cannot be
    /// written is a report that cannot: the grade stops (exit 3).
    pub(crate) fn create(path: &Path) -> Result<Journal, ReportError> {
        let file = fs_err::File::create(path).map_err(|source| ReportError {
            path: path.to_owned(),
            source,
        })?;
        Ok(Journal {
            path: path.to_owned(),
            file,
        })
    }

    /// Appends `graded` as one line and syncs it.
    pub(crate) fn append(&mut self, graded: &GradedResult) -> Result<(), ReportError> {
        use std::io::Write as _;
        let error = |source| ReportError {
            path: self.path.clone(),
            source,
        };
        let mut line =
            serde_json::to_vec(&json::GradedResult::from(graded)).map_err(|e| error(e.into()))?;
        line.push(b'\n');
        self.file.write_all(&line).map_err(error)?;
        self.file.sync_data().map_err(error)
    }

    /// Removes the journal: the report it backs is written whole.
    pub(crate) fn remove(self) -> Result<(), ReportError> {
        let Journal { path, file } = self;
        drop(file);
        fs_err::remove_file(&path).map_err(|source| ReportError { path, source })
    }
}

/// Reads a report for `--resume`: `path`, or its journal
/// ([`journal_path`]) when `path` is missing or older than the journal (a
/// grade that was killed before it wrote `path`). When both are there the
/// journal's results come over the report's: a killed re-grade had not yet
/// journaled every result it would have reused from the report. A file
/// that is not a `judge grade` report is an error; a report of another
/// format version or judge version is read but reuses nothing
/// ([`Resume::refused`] says why).
pub(crate) fn load(path: &Path) -> Result<Resume, ResumeError> {
    let journal = journal_path(path);
    let modified = |path: &Path| fs_err::metadata(path).and_then(|m| m.modified()).ok();
    let Some(journal_time) = modified(&journal) else {
        return load_report(path);
    };
    match modified(path) {
        None => load_journal(&journal),
        Some(report_time) if report_time <= journal_time => {
            let mut resume = load_journal(&journal)?;
            let report = load_report(path)?;
            if report.refused.is_none() {
                for (key, graded) in report.results {
                    resume.results.entry(key).or_insert(graded);
                }
            }
            Ok(resume)
        }
        Some(_) => load_report(path),
    }
}

/// Reads a results journal: one result per line. A last line without its
/// newline was being written when the grade died and is ignored; any other
/// line that is not a result is an error naming it.
pub(crate) fn load_journal(path: &Path) -> Result<Resume, ResumeError> {
    let bytes = fs_err::read(path).map_err(|source| ResumeError::Read {
        path: path.to_owned(),
        source,
    })?;
    let complete = match bytes.iter().rposition(|&byte| byte == b'\n') {
        Some(end) => &bytes[..=end],
        None => &[][..],
    };
    let mut results = BTreeMap::new();
    for (number, line) in complete.split(|&byte| byte == b'\n').enumerate() {
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let graded: json::GradedResult =
            serde_json::from_slice(line).map_err(|error| ResumeError::Parse {
                path: path.to_owned(),
                message: format!("line {}: {error}", number + 1),
            })?;
        let graded = GradedResult::from(graded);
        let key = (
            graded.result.submission.clone(),
            graded.result.problem.clone(),
        );
        results.insert(key, graded);
    }
    Ok(Resume {
        path: path.to_owned(),
        results,
        refused: None,
        tally: Tally::default(),
    })
}

fn load_report(path: &Path) -> Result<Resume, ResumeError> {
    let bytes = fs_err::read(path).map_err(|source| ResumeError::Read {
        path: path.to_owned(),
        source,
    })?;
    let parse_error = |message: String| ResumeError::Parse {
        path: path.to_owned(),
        message,
    };
    let value: serde_json::Value =
        serde_json::from_slice(&bytes).map_err(|error| parse_error(error.to_string()))?;
    let resume = |refused: Option<String>, results| Resume {
        path: path.to_owned(),
        results,
        refused,
        tally: Tally::default(),
    };
    let version = value.get("version").and_then(serde_json::Value::as_u64);
    if version != Some(u64::from(VERSION)) {
        if version.is_none() || value.get("results").is_none() {
            return Err(parse_error(
                "no `version` number and `results` list at the top".to_owned(),
            ));
        }
        return Ok(resume(
            Some(format!(
                "it has report version {}; this judge writes version {VERSION}",
                version.unwrap_or_default()
            )),
            BTreeMap::new(),
        ));
    }
    let report: json::GradeReport =
        serde_json::from_value(value).map_err(|error| parse_error(error.to_string()))?;
    let report = Grade::from(report);
    if report.judge_version.as_deref() != Some(JUDGE_VERSION) {
        let written_by = report
            .judge_version
            .map_or_else(|| "an older judge".to_owned(), |v| format!("judge {v}"));
        return Ok(resume(
            Some(format!(
                "it was written by {written_by}; this is judge {JUDGE_VERSION}"
            )),
            BTreeMap::new(),
        ));
    }
    let results = report
        .results
        .into_iter()
        .map(|graded| {
            let key = (
                graded.result.submission.clone(),
                graded.result.problem.clone(),
            );
            (key, graded)
        })
        .collect();
    Ok(resume(None, results))
}

impl Resume {
    /// The report's path, as given.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// Why no result of the report is reused, when none is.
    pub(crate) fn refused(&self) -> Option<&str> {
        self.refused.as_deref()
    }

    /// What happened to the pairs asked about so far.
    pub(crate) fn tally(&self) -> &Tally {
        &self.tally
    }

    /// One note of how much was reused, and why the rest was not.
    pub(crate) fn summary(&self) -> String {
        let tally = self.tally();
        let mut reasons = Vec::new();
        if !tally.changed_submissions.is_empty() {
            const SHOWN: usize = 5;
            let mut names = tally
                .changed_submissions
                .iter()
                .take(SHOWN)
                .map(|name| format!("`{name}`"))
                .collect::<Vec<_>>()
                .join(", ");
            if tally.changed_submissions.len() > SHOWN {
                names.push_str(", ...");
            }
            reasons.push(format!(
                "{} changed submission(s): {names}",
                tally.changed_submissions.len()
            ));
        }
        if tally.changed_settings > 0 {
            reasons.push(format!(
                "{} with another language, package, limits or seed",
                tally.changed_settings
            ));
        }
        if tally.judge_errors > 0 {
            reasons.push(format!("{} judge error(s) (JE)", tally.judge_errors));
        }
        if tally.absent > 0 {
            let mut reason = format!("{} not in the report", tally.absent);
            // Nothing reused: say what the report names instead, so paths
            // written from another folder show (issue #32).
            match &tally.first_absent {
                Some((path, Some(named))) if tally.reused == 0 => reason.push_str(&format!(
                    ", such as `{path}`: the report names no path ending as it does \
                     (it names e.g. `{named}`)"
                )),
                Some((path, _)) => reason.push_str(&format!(", such as `{path}`")),
                None => {}
            }
            reasons.push(reason);
        }
        let mut line = format!(
            "note: `{}`: reused {} result(s), graded {} again",
            self.path().display(),
            tally.reused,
            tally.regraded()
        );
        if !reasons.is_empty() {
            line.push_str(&format!(" ({})", reasons.join("; ")));
        }
        line
    }

    /// The earlier result of `submission` for `problem`, when its bytes
    /// (`sha256`, `None` when unreadable) and `fingerprint` are unchanged and
    /// it was not a judge error; it is then marked `reused`. Counts the
    /// outcome either way.
    pub(crate) fn take(
        &mut self,
        submission: &str,
        problem: &str,
        sha256: Option<&str>,
        fingerprint: &str,
    ) -> Option<GradedResult> {
        if self.refused.is_some() {
            self.tally.absent += 1;
            return None;
        }
        let key = (submission.to_owned(), problem.to_owned());
        let found = match self.results.remove(&key) {
            Some(earlier) => Some(earlier),
            None => self.take_moved(submission, problem),
        };
        let Some(mut earlier) = found else {
            self.tally.absent += 1;
            if self.tally.first_absent.is_none() {
                let named = self
                    .results
                    .keys()
                    .find(|(_, of)| of == problem)
                    .map(|(path, _)| path.clone());
                self.tally.first_absent = Some((submission.to_owned(), named));
            }
            return None;
        };
        // Found under another path (a grade run from another folder): the
        // result is this run's pair's from now on.
        earlier.result.submission = submission.to_owned();
        if sha256.is_none() || earlier.submission_sha256.as_deref() != sha256 {
            self.tally.changed_submissions.push(submission.to_owned());
            return None;
        }
        if earlier.fingerprint.as_deref() != Some(fingerprint) {
            self.tally.changed_settings += 1;
            return None;
        }
        if earlier.result.verdict == Verdict::JudgeError {
            self.tally.judge_errors += 1;
            return None;
        }
        self.tally.reused += 1;
        Some(GradedResult {
            reused: true,
            ..earlier
        })
    }
}

#[cfg(test)]
mod tests;
