//! The verdict of one test or one submission (docs/report.md).
//!
//! Verdicts are values, never errors: a submission that crashes gets
//! `Ok(Verdict::RuntimeError)`; an `Err` anywhere means the judge failed.

use serde::{Deserialize, Serialize};
use std::fmt;

/// One verdict, descriptive in code and SPEC's abbreviation on the wire.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
pub enum Verdict {
    /// The output was accepted by the checker.
    #[serde(rename = "AC")]
    Accepted,
    /// The output was read but is not a right answer.
    #[serde(rename = "WA")]
    WrongAnswer,
    /// The output could not be parsed.
    #[serde(rename = "PE")]
    PresentationError,
    /// The CPU or the wall-clock limit was exceeded.
    #[serde(rename = "TLE")]
    TimeLimitExceeded,
    /// The memory limit was exceeded.
    #[serde(rename = "MLE")]
    MemoryLimitExceeded,
    /// The output limit was exceeded.
    #[serde(rename = "OLE")]
    OutputLimitExceeded,
    /// Non-zero exit or death by a signal.
    #[serde(rename = "RE")]
    RuntimeError,
    /// The submission did not compile.
    #[serde(rename = "CE")]
    CompileError,
    /// The checker or the reference failed: never the submission's fault.
    #[serde(rename = "JE")]
    JudgeError,
}

impl Verdict {
    /// Every verdict, in the order of docs/report.md.
    pub(crate) const ALL: [Verdict; 9] = [
        Verdict::Accepted,
        Verdict::WrongAnswer,
        Verdict::PresentationError,
        Verdict::TimeLimitExceeded,
        Verdict::MemoryLimitExceeded,
        Verdict::OutputLimitExceeded,
        Verdict::RuntimeError,
        Verdict::CompileError,
        Verdict::JudgeError,
    ];

    /// The abbreviation: `AC`, `WA`, ...
    pub fn code(self) -> &'static str {
        match self {
            Verdict::Accepted => "AC",
            Verdict::WrongAnswer => "WA",
            Verdict::PresentationError => "PE",
            Verdict::TimeLimitExceeded => "TLE",
            Verdict::MemoryLimitExceeded => "MLE",
            Verdict::OutputLimitExceeded => "OLE",
            Verdict::RuntimeError => "RE",
            Verdict::CompileError => "CE",
            Verdict::JudgeError => "JE",
        }
    }

    /// True for [`Verdict::Accepted`].
    pub fn is_accepted(self) -> bool {
        self == Verdict::Accepted
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// A score (a test's, a group's or a submission's): a finite, non-negative
/// number. Reading one refuses anything else (see `Points::parse`), which
/// is what makes it `Eq`.
#[derive(
    Clone, Copy, Debug, PartialEq, PartialOrd, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(transparent)]
pub struct Points(pub f64);

// Never NaN: every constructor in the judge is a finite sum, minimum,
// mean or product of parsed finite numbers.
impl Eq for Points {}

/// A score that is not one ([`Points::parse`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum BadScore {
    /// Negative, infinite or NaN.
    #[error("`{0}` is not a finite score of at least 0")]
    OutOfRange(String),
    /// Not a number at all.
    #[error("`{0}` is not a number")]
    NotANumber(String),
}

impl Points {
    /// A score as a validator writes it (`score.txt`): one finite number,
    /// at least 0, surrounded by whitespace at most.
    pub(crate) fn parse(text: &str) -> Result<Points, BadScore> {
        let trimmed = text.trim();
        match trimmed.parse::<f64>() {
            Ok(value) if value.is_finite() && value >= 0.0 => Ok(Points(value)),
            Ok(_) => Err(BadScore::OutOfRange(trimmed.to_owned())),
            Err(_) => Err(BadScore::NotANumber(trimmed.to_owned())),
        }
    }

    /// Rounded to two decimals, as reports show it.
    pub(crate) fn rounded(self) -> f64 {
        (self.0 * 100.0).round() / 100.0
    }
}

impl fmt::Display for Points {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rounded = self.rounded();
        if rounded.fract() == 0.0 {
            write!(f, "{rounded:.0}")
        } else {
            write!(f, "{rounded}")
        }
    }
}

/// What an output validator said about an accepted output's score, in its
/// feedback folder: `score.txt` (the score itself) or
/// `score_multiplier.txt` (a share, 0 to 1, of the test's maximum).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ValidatorScore {
    Score(Points),
    Multiplier(Points),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serialises_as_spec_abbreviation_and_back() {
        for verdict in Verdict::ALL {
            let json = serde_json::to_string(&verdict).unwrap();
            assert_eq!(json, format!("\"{}\"", verdict.code()));
            assert_eq!(serde_json::from_str::<Verdict>(&json).unwrap(), verdict);
            assert_eq!(verdict.to_string(), verdict.code());
        }
    }
}
