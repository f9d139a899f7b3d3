//! A problem's points shared among its items on a platform's file
//! (issue #30; decided here, issue #33: the report decides nothing): with
//! test groups whose points add up to the problem's, an item per
//! top-level group; else an item per test, worth its share of the
//! problem's maximum, and one for the tests not run; the whole problem as
//! one item when it did not compile, has no tests, or its groups do not
//! add up.
//!
//! The problem's total is the CSV gradebook's score rounded to the unit
//! ([`Row::score_points`], in hundredths; whole points for Classroom 50),
//! and its maximum likewise. Each item's exact points are split in two:
//! what it scored and what it lost (its maximum less its score). The
//! scores share the total by largest remainder, and the losses share the
//! maximum less the total the same way; an item's maximum is its score
//! plus its loss. So:
//!
//! - the items' scores add up to the total, and their maxima to the
//!   maximum, exactly;
//! - a passed item (it lost nothing) scores its whole maximum;
//! - each score and each loss is the floor or the ceiling of its exact
//!   value (4 of 7 tests worth 100 passed: the passed tests are worth
//!   14.29, 14.29, 14.28 and 14.28, the failed ones 14.29, 14.29, 14.29;
//!   57.14 of 100.00, as the CSV says).

use crate::config::problem::is_sample;
use crate::report::points::{hundredths, ItemShare, Part, Shared, Unit};
use crate::report::Row;
use crate::runner::{GroupScore, SubmissionResult};
use crate::verdict::Verdict;
use std::cmp::Ordering;

/// `row`'s problem in `unit`: its score and maximum, and its items.
pub(crate) fn of(row: &dyn Row, unit: Unit) -> Shared {
    let result = row.result();
    let max_points = row.max_score_points();
    let max_score = unit.of_hundredths(hundredths(max_points));
    // Never above the maximum, whatever a validator's score said.
    let score = unit
        .of_hundredths(hundredths(row.score_points()))
        .min(max_score);
    Shared {
        score,
        max_score,
        items: items(result, unit, max_points, (score, max_score)),
    }
}

/// The items of `result`, sharing its `(score, max_score)` in units;
/// `max_points` is the problem's maximum in points, which its tests share.
fn items(
    result: &SubmissionResult,
    unit: Unit,
    max_points: f64,
    (score, max_score): (u64, u64),
) -> Vec<ItemShare> {
    let whole = |groups: Vec<usize>| {
        vec![ItemShare {
            part: Part::Whole { groups },
            score,
            max_score,
            passed: result.verdict == Verdict::Accepted && score == max_score,
            sample: true,
        }]
    };
    let groups = top_level(&result.groups);
    if result.score.is_some() && !groups.is_empty() {
        if !groups_add_up(result, &groups) {
            return whole(groups);
        }
        let shares: Vec<Share> = groups
            .iter()
            .filter_map(|&index| result.groups.get(index))
            .map(|group| Share {
                score: Exact::of_points(group.score.0.min(group.max_score.0), unit),
                lost: Exact::of_points(group.max_score.0 - group.score.0, unit),
            })
            .collect();
        return groups
            .iter()
            .filter_map(|&index| Some((index, result.groups.get(index)?)))
            .zip(allocate(&shares, score, max_score))
            .map(|((index, group), (score, max_score))| ItemShare {
                part: Part::Group(index),
                score,
                max_score,
                // Passed: accepted with nothing lost (an accepted group a
                // validator scored lower is partly right, not passed).
                passed: group.verdict == Verdict::Accepted
                    && group.score.0 >= group.max_score.0
                    && score == max_score,
                sample: !group.tests.is_empty() && group.tests.iter().all(|t| is_sample(t)),
            })
            .collect();
    }
    let tests = &result.tests;
    if result.total == 0 || tests.is_empty() {
        return whole(Vec::new());
    }
    // Each test's exact share of the maximum: the CSV's maximum in
    // hundredths, over the tests, in units.
    let count = result.total.max(tests.len());
    let not_run = count - tests.len();
    let exact = |weight: usize| {
        Exact::ratio(
            u128::from(hundredths(max_points)) * weight as u128,
            count as u128 * u128::from(unit.hundredths()),
        )
    };
    let mut shares: Vec<Share> = tests
        .iter()
        .map(|test| {
            if test.verdict == Verdict::Accepted {
                Share {
                    score: exact(1),
                    lost: Exact::ZERO,
                }
            } else {
                Share {
                    score: Exact::ZERO,
                    lost: exact(1),
                }
            }
        })
        .collect();
    if not_run > 0 {
        shares.push(Share {
            score: Exact::ZERO,
            lost: exact(not_run),
        });
    }
    let mut allocated = allocate(&shares, score, max_score).into_iter();
    let mut items: Vec<ItemShare> = tests
        .iter()
        .zip(allocated.by_ref())
        .enumerate()
        .map(|(index, (test, (score, max_score)))| ItemShare {
            part: Part::Test(index),
            score,
            max_score,
            passed: test.verdict == Verdict::Accepted,
            sample: is_sample(&test.name),
        })
        .collect();
    if let Some((_, max_score)) = allocated.next() {
        items.push(ItemShare {
            part: Part::NotRun(not_run),
            score: 0,
            max_score,
            passed: false,
            sample: false,
        });
    }
    items
}

/// Whether the top-level `groups` of `result` add up to its score and its
/// maximum (to a millionth of a point): a root that sums its groups.
fn groups_add_up(result: &SubmissionResult, groups: &[usize]) -> bool {
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-6 * (1.0 + b.abs());
    let (score, max_score) = groups
        .iter()
        .filter_map(|&index| result.groups.get(index))
        .fold((0.0, 0.0), |(score, max), group| {
            (score + group.score.0, max + group.max_score.0)
        });
    result.score.is_some_and(|total| close(score, total.0))
        && result
            .max_score
            .is_some_and(|most| close(max_score, most.0))
}

/// The groups right below the root, as indices into `groups`: a group is
/// depth first after the group that holds it, and holds every test of it.
fn top_level(groups: &[GroupScore]) -> Vec<usize> {
    let mut top: Vec<usize> = Vec::new();
    for (index, group) in groups.iter().enumerate() {
        let inside = groups[..index]
            .iter()
            .any(|outer| group.tests.iter().all(|test| outer.tests.contains(test)));
        if !inside {
            top.push(index);
        }
    }
    top
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
mod tests;
