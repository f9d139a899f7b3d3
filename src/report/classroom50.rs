//! Classroom 50's `result.json` (`--classroom50`; issue #30), the
//! `classroom50/result/v1` contract of Classroom 50's published schema
//! (`schemas/result-v1.schema.json` in its repository): the submission's
//! identity (`classroom`, `assignment`, `assignment_type`, `owner`,
//! `submission`, `commit`, `release`, `review`, `datetime`), whole-number
//! `score` and `max-score`, and `tests`, each with `test-name`, `passed`,
//! `score` and `max-score` (and, as the schema allows, our `output`).
//!
//! The identity is not the judge's to know: Classroom 50's runner gives it
//! to the autograder in its environment (`CLASSROOM`, `ASSIGNMENT`,
//! `USERNAME`, `SUBMISSION_TAG`, `COMMIT_URL`, `RELEASE_URL`,
//! `REVIEW_URL`, and the assignment's mode: `ASSIGNMENT_TYPE`, or the
//! manifest's `MODE` it passes through), and a missing one is a clear
//! error naming the variable. The manifest's modes are `individual`,
//! `group` and `team` (its runner's `assignment_type_for_mode`, in
//! `cli/gh-teacher/skeleton/dotgithub/scripts/runner.py`), while the
//! schema's `assignment_type` is `individual` or `group`: a team is a group
//! assignment, written `group` (the runner stamps its own value over it
//! before it checks the file). `datetime` is `SUBMISSION_DATETIME` when set, else the time of
//! grading (the runner stamps the commit's own time over it).
//!
//! Points are whole numbers: [`super::platform`] shares each problem's
//! score (the CSV's, rounded to a whole point) among its tests in whole
//! points ([`super::points`]), so the tests add up to `score` and
//! `max-score` exactly and a passed test scores its whole `max-score`. Classroom 50 has no "cannot be graded" state: such a hand-in
//! scores 0, and its one test says why.

use super::platform::{self, Graded};
use super::points::Unit;
use super::rendering::{Input, RenderError};
use serde::Serialize;

/// The schema's name, which the file must carry exactly.
pub(crate) const SCHEMA: &str = "classroom50/result/v1";

/// The top level of `result.json`.
#[derive(Debug, Serialize)]
struct Results {
    schema: &'static str,
    #[serde(flatten)]
    identity: Identity,
    score: u64,
    #[serde(rename = "max-score")]
    max_score: u64,
    tests: Vec<Test>,
}

/// One of `tests`.
#[derive(Debug, Serialize)]
struct Test {
    #[serde(rename = "test-name")]
    name: String,
    passed: bool,
    score: u64,
    #[serde(rename = "max-score")]
    max_score: u64,
    output: String,
}

/// The schema's `assignment_type`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
enum AssignmentType {
    Individual,
    Group,
}

impl AssignmentType {
    /// The type of an assignment of `mode`, as Classroom 50's runner sets
    /// it (any case, spaces around): `individual`, `group`, or `team` (a
    /// group assignment); nothing is `individual`, as for the runner.
    /// Anything else is no mode of Classroom 50's.
    fn of_mode(mode: &str) -> Option<AssignmentType> {
        match mode.trim().to_ascii_lowercase().as_str() {
            "" | "individual" => Some(AssignmentType::Individual),
            "group" | "team" => Some(AssignmentType::Group),
            _ => None,
        }
    }
}

/// Who and what was graded, as Classroom 50's runner says it.
#[derive(Debug, Serialize)]
struct Identity {
    classroom: String,
    assignment: String,
    assignment_type: AssignmentType,
    owner: String,
    submission: String,
    commit: String,
    release: String,
    review: String,
    datetime: String,
}

impl Identity {
    fn from(lookup: &dyn Fn(&str) -> Option<String>) -> Result<Self, RenderError> {
        let required = |name: &str| -> Result<String, RenderError> {
            match lookup(name) {
                Some(value) if !value.trim().is_empty() => Ok(value),
                _ => Err(RenderError::Platform(format!(
                    "Classroom 50's result.json needs `{name}`, which Classroom 50's runner \
                     sets for the autograder, and it is not set; set it to grade outside the \
                     runner"
                ))),
            }
        };
        let classroom = required("CLASSROOM")?;
        let assignment = required("ASSIGNMENT")?;
        let owner = required("USERNAME")?;
        // The runner's own mapping when it gives one, else the manifest's
        // mode it passes through.
        let (variable, mode) = match lookup("ASSIGNMENT_TYPE") {
            Some(value) => ("ASSIGNMENT_TYPE", value),
            None => ("MODE", lookup("MODE").unwrap_or_default()),
        };
        let assignment_type = AssignmentType::of_mode(&mode).ok_or_else(|| {
            RenderError::Platform(format!(
                "`{variable}` is `{}`; Classroom 50's assignment modes are `individual`, \
                 `group` and `team`",
                crate::visible::visible(&mode)
            ))
        })?;
        let submission = required("SUBMISSION_TAG")?;
        if !submission.starts_with("submit/") {
            return Err(RenderError::Platform(format!(
                "`SUBMISSION_TAG` is `{submission}`; Classroom 50's submissions are tags \
                 named `submit/...`"
            )));
        }
        let commit = required("COMMIT_URL")?;
        let release = required("RELEASE_URL")?;
        let datetime = match lookup("SUBMISSION_DATETIME") {
            Some(datetime) if is_utc_datetime(&datetime) => datetime,
            Some(datetime) => {
                return Err(RenderError::Platform(format!(
                    "`SUBMISSION_DATETIME` is `{datetime}`; Classroom 50 wants \
                     YYYY-MM-DDTHH:MM:SSZ"
                )))
            }
            None => now_utc(),
        };
        Ok(Identity {
            classroom,
            assignment,
            assignment_type,
            owner,
            submission,
            release,
            review: lookup("REVIEW_URL")
                .filter(|review| !review.is_empty())
                .unwrap_or_else(|| commit.clone()),
            commit,
            datetime,
        })
    }
}

/// The text of `result.json` for the one student of `input`, the identity
/// from the process's environment.
pub(crate) fn render(input: &Input<'_>) -> Result<String, RenderError> {
    render_with(input, &|name| std::env::var(name).ok())
}

/// Whether the process's environment gives the identity a result needs
/// (Classroom 50's runner sets it): checked before anything is graded, so
/// a grade never runs whole to end in a missing variable.
pub(crate) fn check_identity() -> Result<(), RenderError> {
    Identity::from(&|name| std::env::var(name).ok()).map(|_| ())
}

/// [`render`] with the identity looked up in `lookup`.
pub(crate) fn render_with(
    input: &Input<'_>,
    lookup: &dyn Fn(&str) -> Option<String>,
) -> Result<String, RenderError> {
    let identity = Identity::from(lookup)?;
    let graded = platform::graded(input, "Classroom 50", Unit::Whole)?;
    let mut text = serde_json::to_string_pretty(&results(identity, graded))?;
    text.push('\n');
    Ok(text)
}

fn results(identity: Identity, graded: Graded) -> Results {
    let gradable = graded.format_errors.is_empty();
    let mut tests: Vec<Test> = graded
        .items
        .into_iter()
        .map(|item| Test {
            name: item.name,
            passed: gradable && item.passed,
            score: if gradable { item.score } else { 0 },
            max_score: item.max_score,
            output: item.output,
        })
        .collect();
    if !gradable {
        let mut lines = vec!["This hand-in cannot be graded:".to_owned()];
        lines.extend(
            graded
                .format_errors
                .iter()
                .map(|error| format!("- {error}")),
        );
        tests.insert(
            0,
            Test {
                name: "hand-in".to_owned(),
                passed: false,
                score: 0,
                max_score: 0,
                output: platform::cut(&lines.join("\n")),
            },
        );
    }
    Results {
        schema: SCHEMA,
        identity,
        score: tests.iter().map(|test| test.score).sum(),
        max_score: tests.iter().map(|test| test.max_score).sum(),
        tests,
    }
}

/// Whether `text` is `YYYY-MM-DDTHH:MM:SSZ`, as the schema's pattern asks.
fn is_utc_datetime(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.len() == 20
        && bytes.iter().enumerate().all(|(index, &byte)| match index {
            4 | 7 => byte == b'-',
            10 => byte == b'T',
            13 | 16 => byte == b':',
            19 => byte == b'Z',
            _ => byte.is_ascii_digit(),
        })
        && text[11..13] < *"24"
        && text[14..16] < *"60"
        && text[17..19] < *"60"
}

/// The time now, UTC, as `YYYY-MM-DDTHH:MM:SSZ`.
fn now_utc() -> String {
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |since| since.as_secs());
    utc_datetime(seconds)
}

/// `seconds` since the Unix epoch as a UTC date and time (the civil
/// calendar from a day count, as in Howard Hinnant's `civil_from_days`).
fn utc_datetime(seconds: u64) -> String {
    let days = seconds / 86_400;
    let of_day = seconds % 86_400;
    let shifted = days + 719_468;
    let era = shifted / 146_097;
    let day_of_era = shifted % 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_index + 2) / 5 + 1;
    let month = if month_index < 10 {
        month_index + 3
    } else {
        month_index - 9
    };
    let year = era * 400 + year_of_era + u64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        of_day / 3600,
        of_day % 3600 / 60,
        of_day % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use test_case::test_case;

    #[test_case("individual", Some(AssignmentType::Individual))]
    #[test_case("", Some(AssignmentType::Individual) ; "unset is individual as for the runner")]
    #[test_case("group", Some(AssignmentType::Group))]
    #[test_case("team", Some(AssignmentType::Group) ; "a team is a group")]
    #[test_case(" Team\n", Some(AssignmentType::Group) ; "any case and spaces")]
    #[test_case("pairs", None ; "unknown")]
    fn assignment_modes_are_the_runners(mode: &str, expected: Option<AssignmentType>) {
        assert_eq!(AssignmentType::of_mode(mode), expected);
    }

    #[test_case(0, "1970-01-01T00:00:00Z")]
    #[test_case(951_782_400, "2000-02-29T00:00:00Z")]
    #[test_case(1_796_482_861, "2026-12-05T15:01:01Z")]
    fn utc_datetime_is_the_civil_calendar(seconds: u64, expected: &str) {
        assert_eq!(utc_datetime(seconds), expected);
        assert!(is_utc_datetime(expected));
    }

    #[test_case("2026-12-05T15:01:01Z", true)]
    #[test_case("2026-12-05 15:41:01Z", false)]
    #[test_case("2026-12-05T24:00:00Z", false)]
    #[test_case("2026-12-05T15:41:01", false)]
    fn datetimes_are_the_schemas_pattern(text: &str, valid: bool) {
        assert_eq!(is_utc_datetime(text), valid);
    }
}
