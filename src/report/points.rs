//! The platforms' score model (issue #30): a problem's points shared among
//! its items (tests, or top-level groups) in whole units of the platform's
//! precision, so that everything adds up.
//!
//! The problem's total is the CSV gradebook's score rounded to the unit
//! (the grading layer's [`super::Row::score_points`], in hundredths; whole
//! points for Classroom 50), and its maximum likewise. Each item's exact points are split in two: what
//! it scored and what it lost (its maximum less its score). The scores
//! share the total by largest remainder, and the losses share the maximum
//! less the total the same way; an item's maximum is its score plus its
//! loss. So:
//!
//! - the items' scores add up to the total, and their maxima to the
//!   maximum, exactly;
//! - a passed item (it lost nothing) scores its whole maximum;
//! - each score and each loss is the floor or the ceiling of its exact
//!   value (4 of 7 tests worth 100 passed: the passed tests are worth
//!   14.29, 14.29, 14.28 and 14.28, the failed ones 14.29, 14.29, 14.29;
//!   57.14 of 100.00, as the CSV says).
//!
//! Everything here is integer arithmetic: a fraction computed from units
//! ([`fraction`]) prints as `0.5714`, never `0.6470999999999999`.

use std::cmp::Ordering;

/// How finely a platform counts points.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Unit {
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

/// An exact number of units: a ratio of integers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Exact {
    numerator: u128,
    denominator: u128,
}

/// Group points (decimals a package or a validator wrote, and their sums)
/// are taken to a millionth of a unit.
const GROUP_PRECISION: u128 = 1_000_000;

impl Exact {
    pub(crate) const ZERO: Exact = Exact {
        numerator: 0,
        denominator: 1,
    };

    /// `numerator / denominator` units (a denominator of 0 is taken as 1).
    pub(crate) fn ratio(numerator: u128, denominator: u128) -> Exact {
        Exact {
            numerator,
            denominator: denominator.max(1),
        }
    }

    /// `points` (a group's, never negative) in `unit`, to a millionth.
    pub(crate) fn of_points(points: f64, unit: Unit) -> Exact {
        let scale = GROUP_PRECISION as f64 * 100.0 / unit.hundredths() as f64;
        Exact::ratio((points.max(0.0) * scale).round() as u128, GROUP_PRECISION)
    }

    /// The whole units below it.
    pub(crate) fn floor(self) -> u64 {
        u64::try_from(self.numerator / self.denominator).unwrap_or(u64::MAX)
    }

    /// The whole units at or above it.
    #[cfg(test)]
    pub(crate) fn ceil(self) -> u64 {
        self.floor()
            .saturating_add(u64::from(self.numerator % self.denominator != 0))
    }

    /// Whether it is a whole number of units.
    fn remainder_is_zero(self) -> bool {
        self.numerator % self.denominator == 0
    }

    /// Which of two has the larger part below one unit.
    fn remainder_cmp(self, other: Exact) -> Ordering {
        let mine = (self.numerator % self.denominator).saturating_mul(other.denominator);
        let theirs = (other.numerator % other.denominator).saturating_mul(self.denominator);
        mine.cmp(&theirs)
    }
}

/// One item's exact points: what it scored and what it lost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Share {
    pub(crate) score: Exact,
    pub(crate) lost: Exact,
}

/// The items' (score, maximum) in units: the scores share `score`, the
/// losses share `max - score` (see the module's documentation).
pub(crate) fn allocate(shares: &[Share], score: u64, max: u64) -> Vec<(u64, u64)> {
    let score = score.min(max);
    let scores = largest_remainder(
        &shares.iter().map(|share| share.score).collect::<Vec<_>>(),
        score,
    );
    let losses = largest_remainder(
        &shares.iter().map(|share| share.lost).collect::<Vec<_>>(),
        max - score,
    );
    scores
        .into_iter()
        .zip(losses)
        .map(|(score, lost)| (score, score.saturating_add(lost)))
        .collect()
}

/// `exact` in whole units adding up to `target`: each its floor, then one
/// more for the largest parts below one unit (the first of equals first)
/// until the target is met. A target outside the floors' and ceilings'
/// sums (the total and the maximum are rounded on their own, so a loss can
/// be one unit past) is still met, the units then going round in the same
/// order among the parts that are not nothing, so the items always add up.
fn largest_remainder(exact: &[Exact], target: u64) -> Vec<u64> {
    let mut units: Vec<u64> = exact.iter().map(|value| value.floor()).collect();
    if units.is_empty() {
        return units;
    }
    let mut order: Vec<usize> = (0..exact.len()).collect();
    order.sort_by(|&a, &b| exact[b].remainder_cmp(exact[a]).then(a.cmp(&b)));
    let mut sum: u64 = units.iter().fold(0, |sum, &unit| sum.saturating_add(unit));
    // Units past the ceilings (the target was rounded on its own) go to
    // parts that are not nothing, so a group that lost nothing never loses
    // a unit of rounding, nor one that scored nothing gains one.
    let mut beyond: Vec<usize> = order
        .iter()
        .copied()
        .filter(|&index| exact[index].numerator != 0)
        .collect();
    if beyond.is_empty() {
        beyond.clone_from(&order);
    }
    let mut round = 0;
    while sum < target {
        let turn = if round == 0 { &order } else { &beyond };
        for &index in turn {
            if sum == target {
                break;
            }
            // The first round gives each part its ceiling, no more.
            if round == 0 && exact[index].remainder_is_zero() {
                continue;
            }
            units[index] += 1;
            sum += 1;
        }
        round += 1;
    }
    while sum > target {
        let before = sum;
        for &index in order.iter().rev() {
            if sum == target {
                break;
            }
            if units[index] > 0 {
                units[index] -= 1;
                sum -= 1;
            }
        }
        if sum == before {
            break;
        }
    }
    units
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
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

    #[test]
    fn seven_tests_of_one_hundred_whole_points() {
        let share = Exact::ratio(100, 7);
        let shares = [Share {
            score: Exact::ZERO,
            lost: share,
        }; 7];
        let maxima: Vec<u64> = allocate(&shares, 0, 100)
            .into_iter()
            .map(|(_, max)| max)
            .collect();
        assert_eq!(maxima, [15, 15, 14, 14, 14, 14, 14]);
    }

    /// A test of `count` passed or failed, as the model shares a problem
    /// of `max` units among `count` tests.
    fn per_test(passed: &[bool], max: u128) -> Vec<Share> {
        let share = Exact::ratio(max, passed.len() as u128);
        passed
            .iter()
            .map(|&passed| Share {
                score: if passed { share } else { Exact::ZERO },
                lost: if passed { Exact::ZERO } else { share },
            })
            .collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// Whatever tests pass, of however many worth however much: the
        /// items' scores add up to the total rounded to the unit, their
        /// maxima to the maximum; a passed test scores its maximum, a
        /// failed one 0; every score and maximum is the floor or the
        /// ceiling of the test's exact share.
        #[test]
        fn per_test_shares_add_up(
            passed in proptest::collection::vec(any::<bool>(), 1..60),
            max_hundredths in 0u64..100_000,
            whole in any::<bool>(),
        ) {
            let unit = if whole { Unit::Whole } else { Unit::Hundredths };
            let count = passed.len() as u128;
            let passed_count = passed.iter().filter(|&&passed| passed).count() as u128;
            // The CSV's score: the exact share of the passed tests, in
            // hundredths, rounded half up; then to the unit.
            let score_hundredths =
                divide_rounded(u128::from(max_hundredths) * passed_count, count) as u64;
            let score = unit.of_hundredths(score_hundredths);
            let max = unit.of_hundredths(max_hundredths);
            let size = u128::from(unit.hundredths());
            let exact = Exact::ratio(u128::from(max_hundredths), count * size);
            let shares = per_test(&passed, u128::from(max_hundredths))
                .into_iter()
                .map(|share| Share {
                    score: Exact::ratio(share.score.numerator, share.score.denominator * size),
                    lost: Exact::ratio(share.lost.numerator, share.lost.denominator * size),
                })
                .collect::<Vec<_>>();
            let items = allocate(&shares, score, max);
            prop_assert_eq!(items.iter().map(|item| item.0).sum::<u64>(), score);
            prop_assert_eq!(items.iter().map(|item| item.1).sum::<u64>(), max);
            for (&passed, &(item_score, item_max)) in passed.iter().zip(&items) {
                prop_assert!(item_max == exact.floor() || item_max == exact.ceil(),
                    "{item_max} is not {exact:?} rounded");
                if passed {
                    prop_assert_eq!(item_score, item_max);
                } else {
                    prop_assert_eq!(item_score, 0);
                }
            }
        }

        /// Groups with partial points: the scores add up to the total and
        /// the maxima to the maximum, no item scores above its maximum, a
        /// group that lost nothing scores its maximum, every score is the
        /// floor or the ceiling of its exact value and every loss is within
        /// one unit of them.
        #[test]
        fn group_shares_add_up(
            groups in proptest::collection::vec((0u32..5_000, 0u32..5_000, any::<bool>()), 1..12),
            whole in any::<bool>(),
        ) {
            let unit = if whole { Unit::Whole } else { Unit::Hundredths };
            // (score, max) in points with up to three decimals; some full.
            let points: Vec<(f64, f64)> = groups
                .iter()
                .map(|&(a, b, full)| {
                    let max = f64::from(a.max(b)) / 1000.0 * 7.0;
                    let score = if full { max } else { f64::from(a.min(b)) / 1000.0 * 7.0 };
                    (score, max)
                })
                .collect();
            let total: f64 = points.iter().map(|point| point.0).sum();
            let most: f64 = points.iter().map(|point| point.1).sum();
            let score = unit.of_hundredths(hundredths(total));
            let max = unit.of_hundredths(hundredths(most));
            let shares: Vec<Share> = points
                .iter()
                .map(|&(score, max)| Share {
                    score: Exact::of_points(score, unit),
                    lost: Exact::of_points(max - score, unit),
                })
                .collect();
            let items = allocate(&shares, score, max);
            prop_assert_eq!(items.iter().map(|item| item.0).sum::<u64>(), score);
            prop_assert_eq!(items.iter().map(|item| item.1).sum::<u64>(), max);
            for ((share, &(item_score, item_max)), &(exact_score, exact_max)) in
                shares.iter().zip(&items).zip(&points)
            {
                prop_assert!(item_score <= item_max);
                prop_assert!(item_score == share.score.floor() || item_score == share.score.ceil());
                // The problem's score and its maximum are each rounded on
                // their own (as the CSV shows them), so what is lost may be
                // one unit past its exact floor or ceiling: 6.615 of 12.145
                // is 6.61 of 12.15, 5.54 lost where 5.53 was.
                let lost = item_max - item_score;
                prop_assert!(
                    lost + 1 >= share.lost.floor() && lost <= share.lost.ceil() + 1,
                    "lost {} of exact {:?}", lost, share.lost
                );
                if exact_score == exact_max {
                    prop_assert_eq!(item_score, item_max);
                }
            }
        }
    }
}
