//! The similarity of a class's hand-ins as `judge similar` and `judge grade
//! --similarity` ask for it: the comparison ([`crate::similar::run`]) with
//! the user's mistakes told apart from the judge's, and the refusals of
//! `grade --similarity`. Evidence for a person, never a grade.

use crate::config::judge::JudgeConfig;
use crate::discovery::DiscoverError;
use crate::grading::reports::{Analysed, Analysing, ClassPageAnalysis};
use crate::grading::settings::Source;
use crate::grading::usage::{StudentViewFrom, UsageError};
use crate::grading::GradingError;
use crate::hint::Hint;
use crate::interrupt::Cancellation;
use crate::similar::{self, class::BaseError, run};
use std::path::{Path, PathBuf};

/// Why `judge similar` or `grade --similarity` compared nothing, or wrote
/// no report: the grading layer's errors (the user's mistakes, a report
/// that cannot be written) and the command's own failures, each the
/// judge's. [`crate::error::Error`] takes it apart, so its exit code is
/// decided in the one `match` there.
#[derive(Debug, thiserror::Error)]
pub(crate) enum SimilarError {
    /// A usage error, or another failure of the grading layer.
    #[error(transparent)]
    Grading(#[from] GradingError),
    /// The user's mistake in what to compare (the submissions folder,
    /// `--base`, a problem named): nothing was compared.
    #[error(transparent)]
    Refused(Refused),
    /// The comparison failed (a grammar that would not load or parse).
    #[error("{0}")]
    Compare(run::RunError),
    /// `judge similar`'s JSON report could not be serialised.
    #[error("{0}")]
    Json(serde_json::Error),
}

/// Runs the comparison, with the user's mistakes as usage errors (exit 2)
/// and a failed grammar or an unreadable folder as the judge's (exit 3).
///
/// The class compared is the one `judge grade` sees: an entry grade would
/// not run (two files of one student for a problem, a file in no language)
/// is not compared but listed as skipped with grade's reason.
pub(crate) fn analyse(request: &run::Request<'_>) -> Result<run::Analysis, SimilarError> {
    let request = run::Request {
        runnable: Some(grade_would_run),
        ..request.clone()
    };
    run::run(&request).map_err(|error| told_apart(error, request.config))
}

/// [`analyse`], given up once `cancel` is (SIGINT or SIGTERM to `judge
/// grade --similarity`, issue #34): `None` then.
fn analyse_until(
    request: &run::Request<'_>,
    cancel: &Cancellation,
) -> Result<Option<run::Analysis>, SimilarError> {
    let request = run::Request {
        runnable: Some(grade_would_run),
        ..request.clone()
    };
    run::run_until(&request, &|| cancel.is_cancelled())
        .map_err(|error| told_apart(error, request.config))
}

/// The comparison's `error`, the user's mistake (in what `config` names)
/// told apart from the judge's failure.
fn told_apart(error: run::RunError, config: &JudgeConfig) -> SimilarError {
    match error {
        run::RunError::Discover(walk @ DiscoverError::Walk(_)) => {
            GradingError::Discover(walk).into()
        }
        run::RunError::Base(BaseError::Tokenize(_)) | run::RunError::Tokenize(_) => {
            SimilarError::Compare(error)
        }
        run::RunError::Base(_)
        | run::RunError::UnknownProblems { .. }
        | run::RunError::Discover(_)
        | run::RunError::NoHandIns { .. } => SimilarError::Refused(Refused {
            error,
            config: config.path.clone(),
        }),
    }
}

/// What to compare is wrong: the submissions folder (missing, or no
/// hand-ins), `--base`, or a problem named that is neither known nor
/// handed in. The user's to fix (exit 2).
#[derive(Debug, thiserror::Error)]
#[error("{error}")]
pub(crate) struct Refused {
    error: run::RunError,
    /// The judge.toml that names the submissions folder (`None`: the
    /// defaults), for the hint.
    config: Option<PathBuf>,
}

impl Refused {
    /// Where to fix it: `--base`'s shape, or where the submissions folder
    /// is named.
    pub(crate) fn hint(&self) -> Option<Hint> {
        match &self.error {
            run::RunError::Base(_) => Some(Hint::new(
                "--base holds one `<problem>.<ext>` file per problem and language",
            )),
            run::RunError::Discover(_) | run::RunError::NoHandIns { .. } => {
                Some(submissions_hint(self.config.as_deref()))
            }
            run::RunError::UnknownProblems { .. } | run::RunError::Tokenize(_) => None,
        }
    }
}

/// Whether `judge grade` runs `entry`, as its plan prepares it; a file that
/// cannot be opened is left to the comparison, which lists it as skipped.
fn grade_would_run(entry: &crate::discovery::Entry, config: &JudgeConfig) -> run::WouldGrade {
    match crate::grading::submission::prepare_entry(entry, config) {
        Ok(_) | Err(crate::grading::submission::Unrunnable::Unreadable { .. }) => {
            run::WouldGrade::Runs
        }
        Err(unrunnable) => run::WouldGrade::Skips(unrunnable.to_string()),
    }
}

/// Where the submissions folder is named: in `config`, else in the
/// judge.toml one would write.
fn submissions_hint(config: Option<&Path>) -> Hint {
    Hint::new(format!(
        "`submissions` in `{}` names the folder, relative to that file",
        config.unwrap_or(Path::new("judge.toml")).display()
    ))
}

/// What `judge grade --similarity` asks for.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ForGrade<'a> {
    /// `--similarity` was given.
    pub(crate) asked: bool,
    /// Whether the reports are for students, and who asked
    /// ([`crate::grading::settings::student_view`]).
    pub(crate) student_view: Option<Source>,
    /// An HTML report is asked for.
    pub(crate) html: bool,
    /// The teacher's starter code (`--base DIR`).
    pub(crate) base: Option<&'a Path>,
    /// The shortest run of common tokens that counts (`--min-tokens`).
    pub(crate) min_tokens: usize,
}

/// `judge grade --similarity`: the comparison for the class page, run
/// before anything is graded so that a mistake costs nothing, with the
/// lines that say which files it skipped. Refused without an HTML report,
/// and for students (`--student-view`, or `student-view` of judge.toml).
/// Given up once `cancel` is (SIGINT or SIGTERM, issue #34).
pub(crate) fn for_grade(
    asked: &ForGrade<'_>,
    config: &JudgeConfig,
    cancel: &Cancellation,
) -> Result<Analysing<run::Analysis>, SimilarError> {
    if !asked.asked {
        return Ok(Analysing::NotAsked);
    }
    if let Some(source) = asked.student_view {
        let student_view = match source {
            Source::Flag => StudentViewFrom::Flag,
            Source::JudgeToml | Source::ProblemToml | Source::Default => StudentViewFrom::JudgeToml,
        };
        return Err(GradingError::from(UsageError::SimilarityForStudents { student_view }).into());
    }
    if !asked.html {
        return Err(GradingError::from(UsageError::SimilarityWithoutHtml).into());
    }
    let request = run::Request {
        config,
        problems: None,
        base: asked.base,
        min_tokens: asked.min_tokens,
        runnable: None,
    };
    Ok(match analyse_until(&request, cancel)? {
        Some(analysis) => Analysing::Made(Analysed {
            lines: similar::render_files(&analysis.report, "similarity: ", false),
            section: analysis,
        }),
        None => Analysing::Stopped,
    })
}

/// `judge grade --similarity`'s flags: the comparison its class page
/// gains ([`for_grade`]), handed to the grade as its
/// [`ClassPageAnalysis`], with the lines that say which files it skipped.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Similarity<'a> {
    /// `--similarity` was given.
    pub(crate) asked: bool,
    /// The teacher's starter code (`--base DIR`).
    pub(crate) base: Option<&'a Path>,
    /// The shortest run of common tokens that counts (`--min-tokens`).
    pub(crate) min_tokens: usize,
}

impl ClassPageAnalysis for Similarity<'_> {
    type Section = run::Analysis;
    type Error = SimilarError;

    fn analyse(
        &self,
        config: &JudgeConfig,
        student_view: Option<Source>,
        pages: bool,
        cancel: &Cancellation,
    ) -> Result<Analysing<run::Analysis>, SimilarError> {
        let asked = ForGrade {
            asked: self.asked,
            student_view,
            html: pages,
            base: self.base,
            min_tokens: self.min_tokens,
        };
        for_grade(&asked, config, cancel)
    }
}

/// The default of `--min-tokens`.
pub(crate) const DEFAULT_MIN_TOKENS: usize = similar::DEFAULT_MIN_TOKENS;

/// `--min-tokens` as the comparison takes it (clap bounds it to 2..=1000).
pub(crate) fn min_tokens(flag: u64) -> usize {
    usize::try_from(flag).unwrap_or(similar::DEFAULT_MIN_TOKENS)
}

/// `judge similar --json`'s text: the report, pretty, with a final newline.
pub(crate) fn json_text(report: &similar::Report) -> Result<String, SimilarError> {
    let mut text = serde_json::to_string_pretty(report).map_err(SimilarError::Json)?;
    text.push('\n');
    Ok(text)
}

/// Writes `judge similar`'s reports in their order: the JSON report to
/// `json`, then the HTML pages to `html` ([`super::pages::write_html`]);
/// one that cannot be written ends it there.
pub(crate) fn write_reports(
    analysis: &run::Analysis,
    json: Option<&Path>,
    html: Option<&Path>,
) -> Result<(), SimilarError> {
    if let Some(path) = json {
        crate::grading::reports::write_report(path, &json_text(&analysis.report)?)?;
    }
    if let Some(path) = html {
        super::pages::write_html(path, analysis)?;
    }
    Ok(())
}

/// Whether `judge similar` prints its table on standard output: not when a
/// report (`-`) takes it.
pub(crate) fn table_on_stdout(json: Option<&Path>, html: Option<&Path>) -> bool {
    ![json, html]
        .into_iter()
        .flatten()
        .any(crate::report::targets::is_stdout)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no_pairs() -> run::Analysis {
        run::Analysis {
            report: similar::Report {
                version: 1,
                min_tokens: DEFAULT_MIN_TOKENS,
                base: Vec::new(),
                problems: Vec::new(),
                pairs: Vec::new(),
                same_code: Vec::new(),
                skipped: Vec::new(),
                notes: Vec::new(),
            },
            hand_ins: Vec::new(),
            ignored: Vec::new(),
        }
    }

    #[test]
    fn the_json_report_is_written_before_the_html_pages() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let (json, html) = (dir.path().join("s.json"), dir.path().join("s.html"));
        write_reports(&no_pairs(), Some(&json), Some(&html)).expect("writes");
        assert!(json.is_file() && html.is_file());
        let (json, html) = (
            dir.path().join("t.json"),
            dir.path().join("none").join("t.html"),
        );
        assert!(write_reports(&no_pairs(), Some(&json), Some(&html)).is_err());
        assert!(json.is_file(), "the JSON report came first");
        let nowhere = dir.path().join("none").join("u.json");
        let html = dir.path().join("u.html");
        assert!(write_reports(&no_pairs(), Some(&nowhere), Some(&html)).is_err());
        assert!(!html.exists(), "nothing after a report that failed");
    }

    #[test]
    fn the_table_goes_to_stdout_unless_a_report_does() {
        let (file, dash) = (Path::new("s.json"), Path::new("-"));
        let rows = [
            (None, None, true),
            (Some(file), Some(file), true),
            (Some(dash), None, false),
            (None, Some(dash), false),
        ];
        for (json, html, expected) in rows {
            assert_eq!(table_on_stdout(json, html), expected, "{json:?} {html:?}");
        }
    }

    fn asked() -> ForGrade<'static> {
        ForGrade {
            asked: true,
            student_view: None,
            html: true,
            base: None,
            min_tokens: DEFAULT_MIN_TOKENS,
        }
    }

    #[test]
    fn grade_similarity_is_refused_for_students_and_without_html() {
        let config = JudgeConfig::defaults().expect("the built-in defaults parse");
        let students = ForGrade {
            student_view: Some(Source::Flag),
            ..asked()
        };
        let error = for_grade(&students, &config, &Cancellation::new()).expect_err("refused");
        assert!(error.to_string().contains("not for students"), "{error}");
        let no_html = ForGrade {
            html: false,
            ..asked()
        };
        let error = for_grade(&no_html, &config, &Cancellation::new()).expect_err("refused");
        assert!(
            error.to_string().contains("no `--html` is given"),
            "{error}"
        );
        let not_asked = ForGrade {
            asked: false,
            ..no_html
        };
        assert!(matches!(
            for_grade(&not_asked, &config, &Cancellation::new()).expect("nothing to do"),
            Analysing::NotAsked
        ));
    }
}
