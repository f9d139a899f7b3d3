//! [`spread_cost`] against the cheapest placement found by trying them all.

use crate::problems::mayan::input::COLUMNS;
use crate::problems::mayan::spread::spread_cost;
use test_case::test_case;

/// Every way to place `total` blocks in the 5 columns.
fn placements(total: u8) -> Vec<[u8; COLUMNS]> {
    let mut all = Vec::new();
    for a in 0..=total {
        for b in 0..=total - a {
            for c in 0..=total - a - b {
                for d in 0..=total - a - b - c {
                    all.push([a, b, c, d, total - a - b - c - d]);
                }
            }
        }
    }
    all
}

/// The shape [`spread_cost`] aims at: every column with 1 or 2 blocks
/// in a stretch of 3 or more neighbouring non-empty columns.
fn can_vanish(counts: &[u8; COLUMNS]) -> bool {
    (0..COLUMNS).all(|x| {
        if !(1..=2).contains(&counts[x]) {
            return true;
        }
        let left = (0..x).rev().take_while(|&at| counts[at] > 0).count();
        let right = (x + 1..COLUMNS).take_while(|&at| counts[at] > 0).count();
        left + 1 + right >= 3
    })
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 200, ..Default::default() })]

    /// Invariant: [`spread_cost`]'s programme finds the cheapest of all
    /// placements of the same blocks that can vanish, the cost of one
    /// being how many blocks cross each column boundary.
    #[test]
    fn spread_cost_is_the_cheapest_placement(
        counts in proptest::array::uniform5(0u8..=4),
    ) {
        let total: u8 = counts.iter().sum();
        let cost_of = |target: &[u8; COLUMNS]| {
            let (mut from, mut to, mut cost) = (0i32, 0i32, 0usize);
            for (&here, &there) in counts.iter().zip(target) {
                from += i32::from(here);
                to += i32::from(there);
                cost += from.abs_diff(to) as usize;
            }
            cost
        };
        let cheapest = if total < 3 {
            None
        } else {
            placements(total).iter().filter(|target| can_vanish(target)).map(cost_of).min()
        };
        proptest::prop_assert_eq!(spread_cost(&counts), cheapest);
    }
}

#[test_case([3, 0, 0, 0, 0], Some(0) ; "a column run")]
#[test_case([1, 1, 1, 0, 0], Some(0) ; "a row run")]
#[test_case([1, 0, 1, 0, 1], Some(2) ; "spread over the row")]
#[test_case([2, 0, 0, 0, 1], Some(3) ; "two far apart")]
#[test_case([2, 1, 0, 0, 0], Some(1) ; "a pair and a neighbour")]
#[test_case([1, 1, 0, 0, 0], None ; "too few to vanish")]
#[test_case([0, 0, 0, 0, 0], None ; "none")]
fn spread_cost_is_the_least_sideways_travel(counts: [u8; COLUMNS], cost: Option<usize>) {
    assert_eq!(spread_cost(&counts), cost);
}

/// The table `build.rs` embedded is [`super::super::spread::table`], built
/// with the board's sizes.
#[test]
fn the_embedded_table_is_the_spread_cost_of_every_count() {
    use crate::problems::mayan::{input, spread};
    assert_eq!(
        (spread::COLUMNS, spread::ROWS),
        (input::COLUMNS, input::ROWS)
    );
    let table = spread::table();
    assert_eq!(&table[..], &super::SPREAD_COSTS[..]);
    // Spot checks of the packing: column 0 is the highest digit.
    let index = |counts: [usize; COLUMNS]| counts.iter().fold(0, |index, &count| index * 8 + count);
    assert_eq!(table[index([3, 0, 0, 0, 0])], 0);
    assert_eq!(table[index([1, 0, 1, 0, 1])], 2);
    assert_eq!(table[index([2, 0, 0, 0, 0])], spread::SPREAD_NONE);
}
