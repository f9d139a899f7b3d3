//! The least sideways travel a colour's blocks need before they can vanish
//! ([`spread_cost`]), and its table over every column count ([`table`]).
//!
//! Self-contained (no crate imports): `build.rs` includes this file to
//! compute [`table`] once, at build time, and embeds it in the binary, so no
//! solve computes an entry (filling the table as counts occurred was a tenth
//! of a hard board's instructions, issue #19).

/// Columns of a board (`input::COLUMNS`, checked by a test).
pub(crate) const COLUMNS: usize = 5;
/// Rows of a board (`input::ROWS`, checked by a test).
pub(crate) const ROWS: usize = 7;
/// The size of [`table`]: 5 columns of counts 0..=7, read as a base-8
/// number with column 0 as its highest digit.
pub(crate) const SPREAD_TABLE: usize = 8 * 8 * 8 * 8 * 8;
/// [`table`]: the colour can never vanish (a travel this large, 254 steps,
/// is impossible too: 35 blocks cross at most 4 columns).
pub(crate) const SPREAD_NONE: u8 = u8::MAX - 1;

/// [`spread_cost`] of every column count packed as a base-8 number (column
/// 0 the highest digit), [`SPREAD_NONE`] for `None`.
#[allow(dead_code, reason = "used by build.rs and the tests, not the crate")]
pub(crate) fn table() -> Vec<u8> {
    (0..SPREAD_TABLE)
        .map(|index| {
            let counts: [u8; COLUMNS] =
                std::array::from_fn(|x| (index >> (3 * (COLUMNS - 1 - x)) & 7) as u8);
            spread_cost(&counts)
                .and_then(|cost| u8::try_from(cost).ok())
                .filter(|&cost| cost < SPREAD_NONE)
                .unwrap_or(SPREAD_NONE)
        })
        .collect()
}

/// The least number of one-column steps that bring blocks counted by
/// `counts` (per column) into counts where every column holding 1 or 2
/// blocks lies in a stretch of 3 or more neighbouring non-empty columns —
/// the shape every colour must reach before it can vanish (see
/// `solve::Search::spread`). `None` when no such counts exist (fewer than 3
/// blocks).
///
/// Moving blocks along a line costs the sum over column boundaries of how
/// many blocks cross it, |prefix of the new counts - prefix of the old|, so a
/// dynamic programme over columns finds the minimum: its state is that prefix
/// difference, the length of the current stretch of non-empty columns (capped
/// at 3) and whether the stretch holds a column with 1 or 2 blocks that still
/// needs the stretch to grow to 3.
pub(crate) fn spread_cost(counts: &[u8; COLUMNS]) -> Option<usize> {
    let total: usize = counts.iter().map(|&count| usize::from(count)).sum();
    if total < 3 {
        return None;
    }
    // The least cost so far of each state (placed, stretch, pending), flat,
    // in fixed arrays: the search fills its table of these costs as counts
    // occur, thousands of times a solve, and a heap allocation per column
    // was a third of that time (issue #19).
    let index = |placed: usize, stretch: usize, pending: bool| {
        placed * 8 + stretch * 2 + usize::from(pending)
    };
    let states_len = (total + 1) * 8;
    let mut states = [UNREACHED; SPREAD_STATES];
    states[index(0, 0, false)] = 0;
    let mut prefix = 0;
    for &count in counts {
        prefix += usize::from(count);
        let mut next = [UNREACHED; SPREAD_STATES];
        for (state, &cost) in states[..states_len].iter().enumerate() {
            if cost == UNREACHED {
                continue;
            }
            let (placed, stretch, pending) = (state / 8, state / 2 % 4, state % 2 == 1);
            for here in 0..=total - placed {
                let (stretch, pending) = if here == 0 {
                    if pending {
                        continue;
                    }
                    (0, false)
                } else {
                    let stretch = (stretch + 1).min(3);
                    (stretch, stretch < 3 && (pending || here <= 2))
                };
                let placed = placed + here;
                // At most 35 blocks cross each of 4 boundaries: it fits.
                let cost = cost + placed.abs_diff(prefix) as u16;
                let best = &mut next[index(placed, stretch, pending)];
                *best = (*best).min(cost);
            }
        }
        states = next;
    }
    // The last column crosses no boundary, but the programme added
    // |placed - prefix| for it, which is 0 exactly when every block is placed.
    (0..4)
        .map(|stretch| states[index(total, stretch, false)])
        .filter(|&cost| cost != UNREACHED)
        .min()
        .map(usize::from)
}

/// [`spread_cost`]'s states: up to 35 blocks placed (5 columns of 7), 4
/// stretch lengths, pending or not.
const SPREAD_STATES: usize = (COLUMNS * ROWS + 1) * 8;
/// [`spread_cost`]: a state no placement reaches.
const UNREACHED: u16 = u16::MAX;
