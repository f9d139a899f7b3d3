//! The one list of report formats besides the JSON report (issue #33, the
//! way ripgrep chooses its one printer in one place): each format's flag,
//! what it holds (the flag's help) and how it is written. The command-line
//! flags, the checks of the report paths and the writing all read
//! [`FORMATS`], so a new format is a renderer module and one line there.
//!
//! Every format renders the same input ([`Input`]): the rows of a run or a
//! grade, the context every format shares ([`Context`]: who handed nothing
//! in, the files not graded, whether the student view is asked for), and
//! the formats' own settings (judge.toml's `[report.<format>]`), of which
//! each format's module reads its own table. So a new format, even one
//! with a setting of its own, is its module and one line here (and, for a
//! setting, its table in `crate::config::report`).

pub(crate) use super::rendering::{Context, Input, RenderError};
use crate::config::report::ReportSettings;
use std::path::Path;

/// How a format is written.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Writes {
    /// One text, written atomically to its path (or to standard output
    /// for `-`).
    Text(fn(&Input<'_>) -> Result<String, RenderError>),
    /// The HTML report's page set: the class page at its path and a page
    /// per submission in a folder beside it (`crate::grading::reports`).
    Pages,
}

/// One report format: its flag (`--NAME FILE`) and how it is written.
#[derive(Debug)]
pub(crate) struct Format {
    /// The flag's name, without the dashes.
    pub(crate) name: &'static str,
    /// The flag's help, as `judge grade --help` shows it.
    pub(crate) help: &'static str,
    pub(crate) writes: Writes,
    /// A platform's results file for one student (the platform's name):
    /// written even when the grade finds no hand-in at all, saying why,
    /// since the platform shows the student what the file says, and
    /// refused before anything runs for a class of several students.
    pub(crate) platform: Option<&'static str>,
    /// What the format checks before anything is graded, so a grade never
    /// runs whole to end in a file it cannot write (Classroom 50's identity
    /// from the environment, issue #30); the error is the reason a usage
    /// error names the flag with.
    pub(crate) precheck: Option<fn() -> Result<(), RenderError>>,
}

impl Format {
    /// `--NAME`, as messages name the report.
    pub(crate) fn flag(&self) -> String {
        format!("--{}", self.name)
    }

    /// Whether this is the HTML report, whose pages need a folder beside it.
    pub(crate) fn is_pages(&self) -> bool {
        matches!(self.writes, Writes::Pages)
    }
}

/// The reports a command was asked for, in [`FORMATS`]' order, each with
/// its path.
#[derive(Clone, Debug, Default)]
pub(crate) struct Chosen<'a> {
    pub(crate) files: Vec<(&'static Format, &'a Path)>,
    /// The formats' own settings (judge.toml's `[report.<format>]`; the
    /// defaults until [`Chosen::with_config`]).
    pub(crate) settings: ReportSettings,
}

impl<'a> Chosen<'a> {
    /// These reports as `config` says to render them.
    pub(crate) fn with_config(self, config: &crate::config::judge::JudgeConfig) -> Self {
        Chosen {
            settings: config.report.clone(),
            ..self
        }
    }

    /// The reports of `paths`, each a format's name and where it goes;
    /// a name no format has is a bug of the caller.
    #[cfg(test)]
    pub(crate) fn of(paths: &[(&str, &'a Path)]) -> Self {
        let mut files: Vec<(&'static Format, &'a Path)> = paths
            .iter()
            .map(|(name, path)| (named(name).expect("a report format"), *path))
            .collect();
        files.sort_by_key(|(format, _)| position(format));
        Chosen {
            files,
            ..Chosen::default()
        }
    }

    /// Whether the report of pages (HTML) was asked for.
    pub(crate) fn has_pages(&self) -> bool {
        self.files.iter().any(|(format, _)| format.is_pages())
    }
}

/// The format that writes a set of pages (HTML), as the list says: what
/// `judge similar --html` writes.
pub(crate) fn pages() -> Option<&'static Format> {
    FORMATS.iter().find(|format| format.is_pages())
}

/// The format whose flag is `--NAME` (tests name the reports they ask for).
#[cfg(test)]
pub(crate) fn named(name: &str) -> Option<&'static Format> {
    FORMATS.iter().find(|format| format.name == name)
}

/// Where `format` is in [`FORMATS`].
#[cfg(test)]
fn position(format: &Format) -> usize {
    FORMATS
        .iter()
        .position(|other| other.name == format.name)
        .unwrap_or(FORMATS.len())
}

/// Every report format, in the order their flags are listed, checked and
/// written (a failure of each is said in this order too).
pub(crate) const FORMATS: &[Format] = &[
    Format {
        name: "junit",
        help: "Write a JUnit XML report here: one suite per submission and problem",
        writes: Writes::Text(junit),
        platform: None,
        precheck: None,
    },
    Format {
        name: "csv",
        help: "Write a CSV gradebook here: student, problem, score, verdict, passed, total",
        writes: Writes::Text(csv),
        platform: None,
        precheck: None,
    },
    Format {
        name: "html",
        help: "Write an HTML report here: the class page (matrix, per-problem summaries, \
               students by score) and, in a folder beside it named after FILE \
               (`grades.html`: `grades/`), a page per submission with each test's input, \
               expected and actual output and a diff; `-` prints one page",
        writes: Writes::Pages,
        platform: None,
        precheck: None,
    },
    Format {
        name: "gradescope",
        help: "Write Gradescope's results.json here, for one student: a test per test (or \
               test group), samples visible, hidden tests after the due date and without \
               their data",
        writes: Writes::Text(super::gradescope::render),
        platform: Some("Gradescope"),
        precheck: None,
    },
    Format {
        name: "prairielearn",
        help: "Write PrairieLearn's external grading results.json here, for one student: \
               score 0 to 1, a test per test (or test group), hidden tests without their \
               data; `gradable: false` when the hand-in cannot be graded",
        writes: Writes::Text(super::prairielearn::render),
        platform: Some("PrairieLearn"),
        precheck: None,
    },
    Format {
        name: "classroom50",
        help: "Write Classroom 50's result.json here (classroom50/result/v1), for one \
               student: whole points, a test per test (or test group), hidden tests without \
               their data; the submission's identity from the runner's environment \
               (CLASSROOM, ASSIGNMENT, USERNAME, SUBMISSION_TAG, COMMIT_URL, RELEASE_URL)",
        writes: Writes::Text(super::classroom50::render),
        platform: Some("Classroom 50"),
        precheck: Some(super::classroom50::check_identity),
    },
    Format {
        name: "coderunner",
        help: "Write Moodle CodeRunner's combinator grader JSON here, for one student: \
               fraction 0 to 1, a result table row per test (or test group), hidden tests \
               without their data; `-` prints it, as a template grader must",
        writes: Writes::Text(super::coderunner::render),
        platform: Some("CodeRunner"),
        precheck: None,
    },
    Format {
        name: "vpl",
        help: "Write Moodle VPL's evaluation lines here, for one student: `Comment :=>>` \
               lines and a `Grade :=>>` on the scale of VPL_GRADEMAX (none when the \
               hand-in cannot be graded); `-` prints them, as vpl_evaluate.sh must",
        writes: Writes::Text(super::vpl::render),
        platform: Some("VPL"),
        precheck: None,
    },
];

fn junit(input: &Input<'_>) -> Result<String, RenderError> {
    let context = input.context;
    let not_graded = context.interrupted.then_some(context.not_graded.as_slice());
    Ok(super::junit::render_partial(
        input.rows,
        not_graded,
        context.interrupted_while,
    )?)
}

fn csv(input: &Input<'_>) -> Result<String, RenderError> {
    Ok(super::csv::render_gradebook(
        input.rows,
        &input.context.missing,
        &input.context.not_graded,
    )?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_format_has_its_own_flag() {
        let mut names: Vec<&str> = FORMATS.iter().map(|format| format.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), FORMATS.len());
        assert!(!names.contains(&"json"), "--json is each command's own");
        assert_eq!(FORMATS.iter().filter(|format| format.is_pages()).count(), 1);
    }

    /// A format's own check before a grade is on its entry (issue #33),
    /// found by no name: Classroom 50's identity is the one today.
    #[test]
    fn a_formats_precheck_is_on_its_entry() {
        let checked: Vec<&str> = FORMATS
            .iter()
            .filter(|format| format.precheck.is_some())
            .map(|format| format.name)
            .collect();
        assert_eq!(checked, ["classroom50"]);
    }

    /// A format's settings are declared in its own module and checked by
    /// `config::report` against the declarations (issue #33): each names a
    /// format of this list, so a table `[report.<format>]` is always one a
    /// flag writes.
    #[test]
    fn every_declared_table_is_a_listed_formats() {
        let declared: Vec<&str> = inventory::iter::<crate::config::report::Declared>
            .into_iter()
            .map(|declared| declared.format)
            .collect();
        assert_eq!(declared, ["gradescope"]);
        for name in declared {
            assert!(named(name).is_some(), "`[report.{name}]` is no format's");
        }
    }

    /// A format's own setting is read by that format alone (issue #33):
    /// Gradescope's `hidden-tests` changes Gradescope's file and no other
    /// format's, all of them rendering the same rows and context.
    #[test]
    fn a_formats_own_setting_changes_only_that_format() {
        use crate::config::report::Value;
        use crate::runner::{SubmissionResult, TestResult};
        use crate::verdict::Verdict;
        let result = SubmissionResult::fixture(
            "rooks",
            "alice/rooks.py",
            vec![
                TestResult::fixture("sample-1", Verdict::Accepted),
                TestResult::fixture("001", Verdict::WrongAnswer),
            ],
        );
        let rows: [&dyn super::super::Row; 1] = [&result];
        let context = Context::default();
        let render = |format: &Format, settings: &ReportSettings| match format.writes {
            Writes::Text(render) => render(&Input {
                rows: &rows,
                context: &context,
                settings,
                cannot_grade: &[],
            })
            .map_err(|error| error.to_string()),
            Writes::Pages => Ok(String::new()),
        };
        let later = ReportSettings::default().with(
            "gradescope",
            "hidden-tests",
            Value::Name("after_published".to_owned()),
        );
        let changed: Vec<&str> = FORMATS
            .iter()
            .filter(|format| render(format, &ReportSettings::default()) != render(format, &later))
            .map(|format| format.name)
            .collect();
        assert_eq!(changed, ["gradescope"]);
        let gradescope = named("gradescope").expect("a format");
        let text = render(gradescope, &later).expect("renders");
        assert!(text.contains("\"after_published\""), "{text}");
    }
}
