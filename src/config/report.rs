//! judge.toml's `[report.<format>]` tables: the settings of a report
//! format of its own, as written (`ReportToml`) and as the format reads
//! them (`ReportSettings`), checked when judge.toml loads so a wrong
//! value names its key and line before anything runs. The report layer
//! hands `ReportSettings` to every format
//! (`crate::report::rendering::Input::settings`), and each format's module
//! reads its own table from it: Gradescope's `hidden-tests` is read by
//! `report/gradescope.rs` alone (issue #33). Not here: what the formats
//! share (the student view, the pairs not handed in), which the grading
//! layer decides; and the list of formats, `report::formats::FORMATS`.
//!
//! A format with a setting of its own adds its table here (as written and
//! as read) and its commented default in `default.toml`.

use super::ConfigError;
use serde::Deserialize;
use std::path::Path;

/// `[report]`.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
#[serde(expecting = "a table `[report]`")]
pub(crate) struct ReportToml {
    #[serde(default)]
    pub(crate) gradescope: GradescopeToml,
}

/// `[report.gradescope]`.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
#[serde(expecting = "a table `[report.gradescope]` (`hidden-tests = \"...\"`)")]
pub(crate) struct GradescopeToml {
    /// [`HiddenTests`] by its name, checked in [`ReportToml::over`] so a
    /// wrong one names its key and line.
    pub(crate) hidden_tests: Option<String>,
}

/// When Gradescope shows a student the items of hidden tests (its
/// `visibility` of a test). Gradescope hides the student's total score
/// while any test is `after_due_date` or `after_published`; a `hidden`
/// test does not hide it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum HiddenTests {
    /// Never shown to the student (the teacher sees them); the total score
    /// is shown at once.
    #[default]
    Hidden,
    /// Shown once the due date (and any late days) has passed; until then
    /// the student sees no total score.
    AfterDueDate,
    /// Shown once the teacher publishes the grades; until then the student
    /// sees no total score.
    AfterPublished,
}

impl HiddenTests {
    /// Every one, in the order messages list them.
    const ALL: [HiddenTests; 3] = [
        HiddenTests::Hidden,
        HiddenTests::AfterDueDate,
        HiddenTests::AfterPublished,
    ];

    /// The one named `name` (Gradescope's name).
    fn named(name: &str) -> Option<HiddenTests> {
        HiddenTests::ALL
            .into_iter()
            .find(|visibility| visibility.name() == name)
    }

    /// Gradescope's name of the visibility.
    pub(crate) fn name(self) -> &'static str {
        match self {
            HiddenTests::Hidden => "hidden",
            HiddenTests::AfterDueDate => "after_due_date",
            HiddenTests::AfterPublished => "after_published",
        }
    }
}

/// `[report.*]` as the formats read it: one field per format with a table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct ReportSettings {
    /// `[report.gradescope]`.
    pub(crate) gradescope: GradescopeSettings,
}

/// `[report.gradescope]`, checked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct GradescopeSettings {
    /// `hidden-tests`.
    pub(crate) hidden_tests: HiddenTests,
}

impl ReportToml {
    /// The user's tables (`self`) laid over the built-in ones (`base`),
    /// key by key, and checked; a wrong value names `path` and its key.
    pub(crate) fn over(self, base: ReportToml, path: &Path) -> Result<ReportSettings, ConfigError> {
        let hidden_tests = match self
            .gradescope
            .hidden_tests
            .or(base.gradescope.hidden_tests)
        {
            None => HiddenTests::default(),
            Some(name) => HiddenTests::named(&name).ok_or_else(|| {
                ConfigError::invalid(
                    path,
                    "report.gradescope.hidden-tests",
                    format!(
                        "`{name}` is not one of {}",
                        HiddenTests::ALL
                            .map(|visibility| format!("`{}`", visibility.name()))
                            .join(", ")
                    ),
                )
            })?,
        };
        Ok(ReportSettings {
            gradescope: GradescopeSettings { hidden_tests },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use test_case::test_case;

    fn table(hidden_tests: Option<&str>) -> ReportToml {
        ReportToml {
            gradescope: GradescopeToml {
                hidden_tests: hidden_tests.map(str::to_owned),
            },
        }
    }

    #[test_case(None, None, Ok(HiddenTests::Hidden) ; "neither says: hidden")]
    #[test_case(None, Some("after_due_date"), Ok(HiddenTests::AfterDueDate) ; "the built-in one")]
    #[test_case(Some("after_published"), Some("after_due_date"), Ok(HiddenTests::AfterPublished) ; "the user's over the built-in one")]
    #[test_case(Some("later"), None, Err("`report.gradescope.hidden-tests`") ; "an unknown name names its key")]
    fn gradescope_hidden_tests_are_laid_over_and_checked(
        user: Option<&str>,
        base: Option<&str>,
        wanted: Result<HiddenTests, &str>,
    ) {
        let settings = table(user).over(table(base), Path::new("judge.toml"));
        match (settings, wanted) {
            (Ok(settings), Ok(wanted)) => assert_eq!(settings.gradescope.hidden_tests, wanted),
            (Err(error), Err(names)) => {
                let said = error.to_string();
                assert!(said.contains(names), "{said}");
                assert!(said.contains("`after_due_date`"), "{said}");
            }
            (got, wanted) => panic!("{got:?} is not {wanted:?}"),
        }
    }
}
