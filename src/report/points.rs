//! The platforms' points (issue #30): the unit a platform counts in, the
//! conversions of points to units and to text, and a problem's points
//! shared among its items (tests, or top-level groups) as the grading
//! layer hands them ([`Shared`], answered by `crate::grading::shares`
//! through [`super::Row::shared`]: the report decides nothing, issue #33).
//!
//! Everything here is integer arithmetic: a fraction computed from units
//! ([`fraction`]) prints as `0.5714`, never `0.6470999999999999`.

/// How finely a platform counts points.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Unit {
    /// Hundredths of a point (Gradescope, PrairieLearn, CodeRunner, VPL).
    #[default]
    Hundredths,
    /// Whole points (Classroom 50's schema has integers only).
    Whole,
}

impl Unit {
    /// How many hundredths one unit is.
    pub(crate) fn hundredths(self) -> u64 {
        match self {
            Unit::Hundredths => 1,
            Unit::Whole => 100,
        }
    }

    /// `hundredths` in this unit, rounded half up.
    pub(crate) fn of_hundredths(self, hundredths: u64) -> u64 {
        let size = self.hundredths();
        hundredths.saturating_add(size / 2) / size
    }

    /// `units` as points (`1429` hundredths: `14.29`).
    pub(crate) fn points(self, units: u64) -> f64 {
        // Points are far below 2^52 units: the conversion is exact, and
        // the division by 100 the nearest double to the decimal.
        match self {
            Unit::Hundredths => units as f64 / 100.0,
            Unit::Whole => units as f64,
        }
    }
}

/// Points (as reports show them, two decimals) in hundredths, never
/// negative.
pub(crate) fn hundredths(points: f64) -> u64 {
    // Finite points far below 2^52 hundredths; anything else saturates.
    (points * 100.0).round().max(0.0) as u64
}

/// Hundredths as reports write points: `57.14`.
pub(crate) fn hundredths_text(hundredths: u64) -> String {
    format!("{}.{:02}", hundredths / 100, hundredths % 100)
}

/// `score` of `max`, in millionths, as a number in [0, 1] that prints as
/// its decimals (`0.5714`); 0 of nothing.
pub(crate) fn fraction(score: u64, max: u64) -> f64 {
    if max == 0 {
        return 0.0;
    }
    let millionths = divide_rounded(u128::from(score.min(max)) * 1_000_000, u128::from(max));
    // At most a million: exact, and the nearest double to the decimal.
    millionths as f64 / 1_000_000.0
}

/// `numerator / denominator` rounded half up (`denominator` > 0).
pub(crate) fn divide_rounded(numerator: u128, denominator: u128) -> u128 {
    (numerator * 2 + denominator) / (denominator * 2)
}

/// A problem's points in a platform's unit, and how its items share them:
/// they add up to its score and its maximum exactly.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Shared {
    /// The problem's score (the gradebook's, rounded to the unit, never
    /// above the maximum) and maximum, in units.
    pub(crate) score: u64,
    pub(crate) max_score: u64,
    pub(crate) items: Vec<ItemShare>,
}

/// One item of a problem and its points, in units.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ItemShare {
    pub(crate) part: Part,
    pub(crate) score: u64,
    pub(crate) max_score: u64,
    pub(crate) passed: bool,
    /// Shown to the student now (a sample; every test of a group a
    /// sample; the whole problem).
    pub(crate) sample: bool,
}

/// What an item of a problem is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Part {
    /// The whole problem as one item: not compiled or no tests (`groups`
    /// empty), or these top-level groups (indices into the result's
    /// `groups`), whose points do not add up to the problem's (a root that
    /// takes their minimum or mean), which no items could share honestly.
    Whole { groups: Vec<usize> },
    /// A top-level group: an index into the result's `groups`.
    Group(usize),
    /// A test: an index into the result's `tests`.
    Test(usize),
    /// This many tests not run (an earlier test failed).
    NotRun(usize),
}

#[cfg(test)]
mod tests {
    use super::*;
    use test_case::test_case;

    #[test_case(5714, 10000, 0.5714 ; "four of seven")]
    #[test_case(1, 3, 0.333333 ; "a third to a millionth")]
    #[test_case(0, 0, 0.0 ; "nothing of nothing")]
    #[test_case(7, 5, 1.0 ; "never above one")]
    fn fractions_print_as_their_decimals(score: u64, max: u64, expected: f64) {
        assert_eq!(fraction(score, max), expected);
        assert_eq!(
            serde_json::to_string(&fraction(score, max)).expect("a number"),
            serde_json::to_string(&expected).expect("a number")
        );
    }

    #[test_case(Unit::Hundredths, 5714, 5714)]
    #[test_case(Unit::Whole, 5714, 57)]
    #[test_case(Unit::Whole, 5650, 57 ; "half up")]
    #[test_case(Unit::Whole, 5649, 56)]
    fn units_of_hundredths(unit: Unit, hundredths: u64, expected: u64) {
        assert_eq!(unit.of_hundredths(hundredths), expected);
    }
}
