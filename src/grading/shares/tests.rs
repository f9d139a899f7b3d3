use super::*;
use crate::report::points::divide_rounded;
use crate::verdict::Points;
use proptest::prelude::*;

fn group(name: &str, tests: &[&str], score: f64) -> GroupScore {
    GroupScore {
        name: name.to_owned(),
        score: Points(score),
        max_score: Points(50.0),
        verdict: Verdict::Accepted,
        tests: tests.iter().map(|test| (*test).to_owned()).collect(),
    }
}

#[test]
fn the_items_of_a_grouped_problem_are_its_top_level_groups() {
    let groups = [
        group("sample", &["sample-1"], 0.0),
        group("secret", &["a", "b", "c"], 50.0),
        group("secret/g1", &["a", "b"], 20.0),
        group("secret/g2", &["c"], 30.0),
    ];
    let names: Vec<&str> = top_level(&groups)
        .into_iter()
        .map(|index| groups[index].name.as_str())
        .collect();
    assert_eq!(names, ["sample", "secret"]);
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
