//! The user's mistakes the grading layer refuses before grading, one
//! variant per kind of mistake: what each says is built from its fields by
//! `#[error]`, and the advice for it, when there is any, is its
//! [`UsageError::hint`], decided in one exhaustive `match` so a new kind
//! cannot be added without deciding its hint. Every one is exit 2
//! ([`crate::error::exit_code`]); nothing was graded.
//!
//! Not here: the refusals of the configuration files (`ConfigError`,
//! with their line and column) and of the layers that wrap this one
//! (`judge similar`'s comparison), which keep their own errors.

use super::merge::refusal::MergeError;
use crate::config::io_reason;
use crate::discovery::{DiscoverError, Ignored};
use crate::hint::Hint;
use crate::input_file::CannotRead;
use crate::package::BadId;
use crate::problems::GenerateError;
use crate::report::json::VERSION;
use std::fmt;
use std::path::PathBuf;

/// A mistake in the command line, its files or a package that the user can
/// fix: nothing was graded.
#[derive(Debug, thiserror::Error)]
pub(crate) enum UsageError {
    // What the command was pointed at.
    /// A file the user named cannot be read.
    #[error("cannot read the {what} `{}`: {}", path.display(), io_reason(error))]
    CannotRead {
        what: Named,
        path: PathBuf,
        error: std::io::Error,
    },
    /// A package is not a folder, a submission not a file.
    #[error("the {what} `{}` is not a {}", path.display(), what.kind())]
    WrongKind { what: Named, path: PathBuf },
    /// A folder holds none of the files that make a package.
    #[error("`{}` is no package: it holds none of {markers}", path.display())]
    NotAPackage {
        path: PathBuf,
        /// The files that would make it one, each with its format.
        markers: String,
    },
    /// `--tests DIR` names no folder.
    #[error("the tests folder `{}` does not exist", path.display())]
    NoTestsFolder { path: PathBuf },
    /// `--tests DIR` cannot be listed.
    #[error("cannot read the tests folder `{}`: {error}", path.display())]
    ReadTestsFolder {
        path: PathBuf,
        error: std::io::Error,
    },
    /// `judge check` on a folder of tests: the outputs are no folder.
    #[error("`{}` is not a folder of outputs", path.display())]
    NotAFolderOfOutputs { path: PathBuf },
    /// A folder of tests holds no input.
    #[error("`{}` holds no `NAME.in` file", path.display())]
    NoInputs { path: PathBuf },
    /// A file of a saved report cannot be read (`judge report`).
    #[error("{0}")]
    Unreadable(CannotRead),

    // Where the command writes.
    /// `judge export --gradescope`: the zip named is a folder.
    #[error("`{}` is a folder; name the zip to write", path.display())]
    ZipIsAFolder { path: PathBuf },
    /// `judge export --kattis`: the folder to write holds something.
    #[error("`{}` exists and is not an empty folder", path.display())]
    TargetNotEmpty { path: PathBuf },
    /// `judge export --kattis`: the folder to write is a file.
    #[error("`{}` exists and is a file; the export is a folder", path.display())]
    TargetIsAFile { path: PathBuf },
    /// `judge export --kattis`: the folder to write is a link that leads
    /// nowhere (issue #34, break-it 45: it was exit 3 naming the staging
    /// folder).
    #[error("`{}` is a link to nothing; the export is a new or empty folder", path.display())]
    TargetIsADanglingLink { path: PathBuf },
    /// `judge export --kattis`: the folder to write cannot be made where it
    /// is asked for (its folder is read-only or not the user's, issue #34):
    /// the user's environment, not the judge failing.
    #[error(
        "cannot write the export `{}`: cannot make a folder in `{}`: {error}",
        path.display(),
        folder.display()
    )]
    TargetUnwritable {
        path: PathBuf,
        folder: PathBuf,
        error: std::io::Error,
    },
    /// `judge export --kattis`: the folder to write is inside the exported
    /// package's own folder (issue #29 break-it).
    #[error(
        "`{}` is inside the package's own folder `{}`; an export never writes into the \
         package it reads",
        path.display(),
        package.display()
    )]
    TargetInPackage { path: PathBuf, package: PathBuf },
    /// `--html` names something other than a regular file.
    #[error(
        "cannot write --html `{}`: it is not a regular file, and an HTML report keeps \
         its pages in a folder beside it",
        path.display()
    )]
    HtmlNotAFile { path: PathBuf },
    /// A report's folder does not exist.
    #[error(
        "cannot write {flag} `{}`: the folder `{}` does not exist",
        path.display(),
        folder.display()
    )]
    NoFolder {
        flag: &'static str,
        path: PathBuf,
        folder: PathBuf,
    },
    /// `judge report`: `--changes -` and another report both on stdout.
    #[error("`--changes -` and another report both write to stdout")]
    BothToStdout,
    /// `judge report`: a report and `--changes` write one file.
    #[error("{flag} and --changes both write `{}`; give each its own file", path.display())]
    SameFile { flag: String, path: PathBuf },
    /// `judge report`: a report would overwrite a report it reads.
    #[error("refusing to write {flag} `{}`: it is a report this command reads", path.display())]
    OverwritesInput { flag: String, path: PathBuf },
    /// `judge gen --out`: the folder already holds a set of that prefix.
    #[error("`{}` already holds tests `{prefix}NNN.in`", dir.display())]
    TestsExist { dir: PathBuf, prefix: String },
    /// `judge gen --prefix`: not a plain file-name prefix.
    #[error("`--prefix {prefix}` must be a plain file-name prefix")]
    BadPrefix { prefix: String },

    // Flags that do not go together.
    /// `grade --package --similarity`.
    #[error("`--package` grades a package's own examples and takes no `--similarity`")]
    PackageWithSimilarity,
    /// `judge check` on a folder of tests, with an ANSWER.
    #[error("with a folder of tests, answers are its `NAME.ans` files: drop ANSWER")]
    AnswerWithFolder,
    /// `grade --similarity` with the student view on.
    #[error(
        "`--similarity` is not for students: refused with {} (the similarity of \
         hand-ins is evidence for the teacher)",
        student_view
    )]
    SimilarityForStudents { student_view: StudentViewFrom },
    /// `grade --similarity` without `--html`.
    #[error("`--similarity` adds a section to the HTML class page, and no `--html` is given")]
    SimilarityWithoutHtml,

    // Names that name nothing.
    /// A generator profile the problem does not have.
    #[error("{0}")]
    UnknownProfile(GenerateError),
    /// A problem id of the wrong shape.
    #[error("{0}")]
    BadProblemId(BadId),
    /// A submission that no language runs and that is not executable.
    #[error(
        "no language for `{}`: its extension is not configured and it is not executable",
        path.display()
    )]
    NoLanguage {
        path: PathBuf,
        /// The languages configured, and where.
        languages: Hint,
    },

    // Nothing to grade.
    /// The submissions folder is missing, a file, or holds nothing that
    /// fits the layout.
    #[error("{error}")]
    SubmissionsFolder {
        error: DiscoverError,
        /// The judge.toml that named the folder; `None`: the defaults.
        config: Option<PathBuf>,
    },
    /// The submissions folder holds no file of a known problem.
    #[error(
        "the submissions folder `{}` holds no submissions of a known problem; {ignored} \
         file(s) ignored",
        folder.display()
    )]
    NoKnownProblem {
        folder: PathBuf,
        ignored: usize,
        /// The first file ignored, in path order, and why.
        first_ignored: Option<Ignored>,
    },
    /// `grade --package`: no example under `submissions/<verdict>/`.
    #[error("`{}` has no submission to grade under `submissions/<verdict>/`", path.display())]
    NoExamples { path: PathBuf },
    /// A problem with no tests to run.
    #[error("no tests for `{id}`: {}", missing.reason())]
    NoTests { id: String, missing: NoTestsIn },
    /// `judge stress` on a problem without a generator.
    #[error("`{id}` has no generator: `judge stress` needs random tests")]
    NoGenerator { id: String },

    // A package's own data.
    /// A package's test groups do not fit its tests.
    #[error("the test groups of `{id}`: {error}")]
    TestGroups { id: String, error: PlanError },
    /// No time limit, and no accepted submission to derive one from.
    #[error("{0}")]
    NoTimeLimit(NoTimeLimit),

    // Reports read back (`judge report`, `judge merge`).
    /// Not a JSON report of the judge.
    #[error(
        "`{}` is not a JSON report of `judge grade`, `judge merge` or `judge run`: {cause}",
        path.display()
    )]
    NotAReport { path: PathBuf, cause: NotJson },
    /// A report of another version of the judge.
    #[error("`{}` has report version {version}; this judge reads version {VERSION}", path.display())]
    ReportVersion { path: PathBuf, version: u32 },
    /// Shard reports that do not combine, or a file that is not one
    /// (boxed: its largest kind names two reports and two settings).
    #[error("{0}")]
    Merge(Box<MergeError>),
    /// A report and a baseline of different kinds (issue 32).
    #[error(
        "cannot compare `{report}` with the baseline `{baseline}`: the report is of {new}, \
         the baseline of {old}"
    )]
    OtherKinds {
        report: String,
        baseline: String,
        new: &'static str,
        old: &'static str,
    },

    /// A platform's results file refused (its flag, then the platform's
    /// reason: one student, an identity missing).
    #[error("{flag}: {reason}")]
    Platform { flag: String, reason: String },
}

impl UsageError {
    /// The advice printed after the error, when there is a likely fix.
    pub(crate) fn hint(&self) -> Option<Hint> {
        use UsageError as E;
        match self {
            E::NotAFolderOfOutputs { .. } => Some(Hint::new(
                "with a folder of tests, the second argument is a folder of NAME.out files",
            )),
            E::TargetNotEmpty { .. }
            | E::TargetIsAFile { .. }
            | E::TargetIsADanglingLink { .. } => Some(Hint::new("export into a new folder")),
            E::TargetUnwritable { .. } => Some(Hint::new("export into a folder you may write")),
            E::TargetInPackage { .. } => {
                Some(Hint::new("export into a new folder outside the package"))
            }
            E::HtmlNotAFile { .. } => Some(Hint::new(
                "give --html a file name, or `-` for the one page on standard output",
            )),
            E::BothToStdout => Some(Hint::new("write one of them to a file")),
            E::OverwritesInput { .. } => {
                Some(Hint::new("write the rendered reports to other files"))
            }
            E::TestsExist { .. } => Some(Hint::new(
                "pass --force to replace them, --append to add tests after them, or --prefix \
                 P for another set beside them",
            )),
            E::SimilarityForStudents { .. } => Some(Hint::new(
                "grade once for the students and once with `--similarity` for yourself",
            )),
            E::SimilarityWithoutHtml => {
                Some(Hint::new("add `--html FILE` (say `--html grades.html`)"))
            }
            E::NoLanguage { languages, .. } => Some(languages.clone()),
            E::SubmissionsFolder { config, .. } => Some(Hint::new(match config {
                Some(path) => format!(
                    "`submissions` in `{}` names the folder, relative to that file",
                    path.display()
                )
                .into(),
                None => std::borrow::Cow::Borrowed(
                    "there is no judge.toml here, so the built-in defaults were used \
                     (`submissions = \"submissions\"`, `layout = \"problem/student\"`); \
                     write a judge.toml or pass `--config FILE`",
                ),
            })),
            E::NoKnownProblem { first_ignored, .. } => first_ignored
                .as_ref()
                .map(|first| Hint::new(format!("`{}`: {}", first.path.display(), first.reason))),
            E::NoTests { missing, .. } => Some(Hint::new(match missing {
                NoTestsIn::Package => "set `random-tests` in `judge.toml`",
                NoTestsIn::TestsFolder => "pass `--random N`",
            })),
            E::NoGenerator { .. } => Some(Hint::new("name one with `generator` in problem.toml")),
            E::ReportVersion { .. } => Some(Hint::new("render it with the judge that wrote it")),
            E::OtherKinds { .. } => Some(Hint::new(
                "compare a report with a baseline of the same command and layout",
            )),
            E::CannotRead { .. }
            | E::WrongKind { .. }
            | E::NotAPackage { .. }
            | E::NoTestsFolder { .. }
            | E::ReadTestsFolder { .. }
            | E::NoInputs { .. }
            | E::Unreadable(_)
            | E::ZipIsAFolder { .. }
            | E::NoFolder { .. }
            | E::SameFile { .. }
            | E::BadPrefix { .. }
            | E::PackageWithSimilarity
            | E::AnswerWithFolder
            | E::UnknownProfile(_)
            | E::BadProblemId(_)
            | E::NoExamples { .. }
            | E::TestGroups { .. }
            | E::NoTimeLimit(_)
            | E::NotAReport { .. }
            | E::Merge(_)
            | E::Platform { .. } => None,
        }
    }
}

/// What a [`UsageError`] names by its role.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Named {
    /// A package folder (`grade --package DIR`).
    Package,
    /// A submission file.
    Submission,
    /// A JSON report (`judge merge`).
    Report,
}

impl Named {
    /// What it must be: a folder or a file.
    fn kind(self) -> &'static str {
        match self {
            Named::Package => "folder",
            Named::Submission | Named::Report => "file",
        }
    }
}

impl fmt::Display for Named {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(match self {
            Named::Package => "package",
            Named::Submission => "submission",
            Named::Report => "report",
        })
    }
}

/// Where the tests of a problem with no tests were looked for; its hint
/// names the setting that adds random ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NoTestsIn {
    /// The package (`judge grade`: `random-tests` of judge.toml).
    Package,
    /// The `--tests` folder (`judge run`: `--random N`).
    TestsFolder,
}

impl NoTestsIn {
    fn reason(self) -> &'static str {
        match self {
            NoTestsIn::Package => "no tests in the package and no random tests",
            NoTestsIn::TestsFolder => "the tests folder is empty and no random tests",
        }
    }
}

/// Why a saved report is not JSON the judge reads.
#[derive(Debug)]
pub(crate) enum NotJson {
    /// Its bytes are not UTF-8.
    Utf8(std::str::Utf8Error),
    /// serde_json's reason, with its line and column.
    Json(serde_json::Error),
}

impl fmt::Display for NotJson {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotJson::Utf8(error) => write!(formatter, "it is not UTF-8 ({error})"),
            NotJson::Json(error) => write!(formatter, "{error}"),
        }
    }
}

/// Where the student view was asked for, as `grade --similarity`'s refusal
/// names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum StudentViewFrom {
    /// `--student-view`.
    Flag,
    /// `student-view = true` in judge.toml.
    JudgeToml,
}

impl fmt::Display for StudentViewFrom {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(match self {
            StudentViewFrom::Flag => "`--student-view`",
            StudentViewFrom::JudgeToml => "`student-view = true` in judge.toml",
        })
    }
}

/// Why a package's test groups do not fit its tests.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum PlanError {
    /// A group names a test the package does not have.
    #[error("group `{group}` names no test `{test}`")]
    NoSuchTest { group: String, test: String },
    /// The groups hold fewer tests than the package (`missing`, the first
    /// test in none, when one is).
    #[error(
        "the groups hold {held} tests, the package {tests}{}",
        missing.as_ref().map_or_else(String::new, |name| format!(" (`{name}` is in none)"))
    )]
    Count {
        held: usize,
        tests: usize,
        missing: Option<String>,
    },
    /// A group with no maximum and no score per accepted test.
    #[error("group `{group}` states neither a maximum score nor a score per accepted test")]
    NoMaximum { group: String },
    /// The groups list the tests in another order than the package.
    #[error("the groups list the tests out of the package's order")]
    Order,
}

/// A package with no time limit whose limit cannot be derived: no
/// accepted submission passed (each failure named), or none to run. The
/// user's to fix, unless a run met a judge error (then the same words are
/// the judge failing, [`super::GradingError::NoDerivedLimit`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "no time limit in {}, and {}",
    sources.stated_in,
    if failures.is_empty() {
        format!(
            "{} holds no submission in a configured language to derive one from",
            sources.derived_from
        )
    } else {
        format!("no accepted submission passed to derive one from: {}", failures.join("; "))
    }
)]
pub(crate) struct NoTimeLimit {
    /// "`path` VERDICT (why)" for each accepted submission that ran.
    pub(crate) failures: Vec<String>,
    /// Where the package's format states a limit and keeps the accepted
    /// submissions, in its words (`problem.yaml`).
    pub(crate) sources: crate::package::format::LimitSources,
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    /// The Kattis format's words for where a limit comes from.
    const KATTIS_SOURCES: crate::package::format::LimitSources =
        crate::package::format::LimitSources {
            stated_in: "problem.yaml",
            derived_from: "`submissions/accepted/`",
        };

    /// The words and the hint of each kind, as the integration tests
    /// expect them through the binary.
    #[test]
    fn each_kind_says_its_fields_and_its_hint() {
        let path = || PathBuf::from("dir");
        let rows: Vec<(UsageError, &str, Option<&str>)> = vec![
            (
                UsageError::WrongKind {
                    what: Named::Package,
                    path: path(),
                },
                "the package `dir` is not a folder",
                None,
            ),
            (
                UsageError::WrongKind {
                    what: Named::Submission,
                    path: path(),
                },
                "the submission `dir` is not a file",
                None,
            ),
            (
                UsageError::CannotRead {
                    what: Named::Report,
                    path: path(),
                    error: std::io::Error::from(std::io::ErrorKind::NotFound),
                },
                "cannot read the report `dir`: entity not found",
                None,
            ),
            (
                UsageError::NoTests {
                    id: "rooks".to_owned(),
                    missing: NoTestsIn::TestsFolder,
                },
                "no tests for `rooks`: the tests folder is empty and no random tests",
                Some("pass `--random N`"),
            ),
            (
                UsageError::NoTests {
                    id: "rooks".to_owned(),
                    missing: NoTestsIn::Package,
                },
                "no tests for `rooks`: no tests in the package and no random tests",
                Some("set `random-tests` in `judge.toml`"),
            ),
            (
                UsageError::SimilarityForStudents {
                    student_view: StudentViewFrom::JudgeToml,
                },
                "`--similarity` is not for students: refused with `student-view = true` in \
                 judge.toml (the similarity of hand-ins is evidence for the teacher)",
                Some("grade once for the students and once with `--similarity` for yourself"),
            ),
            (
                UsageError::NoKnownProblem {
                    folder: path(),
                    ignored: 1,
                    first_ignored: Some(Ignored {
                        path: PathBuf::from("dir/README.txt"),
                        reason: "not a submission".to_owned(),
                    }),
                },
                "the submissions folder `dir` holds no submissions of a known problem; 1 \
                 file(s) ignored",
                Some("`dir/README.txt`: not a submission"),
            ),
            (
                UsageError::NoKnownProblem {
                    folder: path(),
                    ignored: 0,
                    first_ignored: None,
                },
                "the submissions folder `dir` holds no submissions of a known problem; 0 \
                 file(s) ignored",
                None,
            ),
            (
                UsageError::SubmissionsFolder {
                    error: DiscoverError::Missing { path: path() },
                    config: Some(PathBuf::from("class/judge.toml")),
                },
                "the submissions folder `dir` does not exist",
                Some("`submissions` in `class/judge.toml` names the folder, relative to that file"),
            ),
            (
                UsageError::NotAReport {
                    path: path(),
                    cause: NotJson::Json(
                        serde_json::from_str::<u32>("x").expect_err("not a number"),
                    ),
                },
                "`dir` is not a JSON report of `judge grade`, `judge merge` or `judge run`: \
                 expected value at line 1 column 1",
                None,
            ),
            (
                UsageError::NoTimeLimit(NoTimeLimit {
                    failures: Vec::new(),
                    sources: KATTIS_SOURCES,
                }),
                "no time limit in problem.yaml, and `submissions/accepted/` holds no \
                 submission in a configured language to derive one from",
                None,
            ),
            (
                UsageError::NoTimeLimit(NoTimeLimit {
                    failures: vec!["`a.py` WA".to_owned(), "`b.py` TLE".to_owned()],
                    sources: KATTIS_SOURCES,
                }),
                "no time limit in problem.yaml, and no accepted submission passed to derive \
                 one from: `a.py` WA; `b.py` TLE",
                None,
            ),
        ];
        for (error, message, hint) in rows {
            assert_eq!(error.to_string(), message);
            assert_eq!(
                error.hint().map(|hint| hint.to_string()).as_deref(),
                hint,
                "{message}"
            );
        }
    }

    /// The hint of a submissions folder judge.toml did not name says the
    /// defaults were used.
    #[test]
    fn without_a_judge_toml_the_hint_names_the_defaults() {
        let error = UsageError::SubmissionsFolder {
            error: DiscoverError::NotAFolder {
                path: Path::new("submissions").to_owned(),
            },
            config: None,
        };
        let hint = error.hint().expect("a hint").to_string();
        assert!(hint.starts_with("there is no judge.toml here"), "{hint}");
    }
}
