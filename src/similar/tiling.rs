//! Greedy string tiling (Wise, "Running Karp-Rabin matching and greedy
//! string tiling", 1993; the method of JPlag): cover two token sequences
//! with non-overlapping common runs ("tiles"), longest first, each at least
//! `min_tokens` long. Reordered functions, inserted dead code and rewritten
//! loops only cut the runs; they still tile.
//!
//! How: every common run of `min_tokens` tokens lies on one diagonal (a
//! fixed offset between the sequences) inside one maximal run. The maximal
//! runs are found from the equal `min_tokens`-grams of both sides (a merge
//! of two sorted lists prepared once per file); then the longest run is
//! taken as a tile, and a run that meets a tile already taken is cut into
//! its free parts, which go back into the queue. That is exactly the greedy
//! choice of the original algorithm, without its repeated scans.

use super::winnow::kgram_hashes;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// At most this many occurrences of one gram are kept per file: a file of
/// one line repeated ten thousand times must not make every pair with it
/// quadratic. Runs through later occurrences are still found from their
/// neighbours on the same diagonal, but a run that lies wholly after them
/// (the second half of a repetitive file, past an inserted line) has no
/// kept gram on its diagonal: see [`FULL_SCAN_CELLS`].
const OCCURRENCES_PER_GRAM: usize = 32;

/// A pair in which a file lost occurrences of a gram to
/// [`OCCURRENCES_PER_GRAM`] is tiled by scanning every diagonal instead,
/// which finds every common run, when the two files have at most this many
/// token pairs (two files of 4,096 tokens: a few milliseconds). Larger
/// repetitive pairs rescan the diagonals of the runs found
/// ([`rescan_diagonals`]), within a budget, and may still score lower than
/// their copying deserves when a copied run lies on a diagonal no kept gram
/// reaches (docs/commands.md, `judge similar`).
pub(crate) const FULL_SCAN_CELLS: usize = 1 << 24;

/// One file's tokens made ready for tiling against many others.
#[derive(Clone, Debug)]
pub(crate) struct Prepared {
    pub(crate) kinds: Vec<u32>,
    /// Tokens that never match (the starter code's).
    pub(crate) excluded: Vec<bool>,
    /// The hash and start of every `min_tokens`-gram free of excluded
    /// tokens, sorted.
    grams: Vec<(u64, u32)>,
    /// Whether occurrences of a gram were dropped ([`OCCURRENCES_PER_GRAM`]).
    capped: bool,
}

impl Prepared {
    /// `kinds` with `excluded` tokens (same length, or empty for none).
    pub(crate) fn new(kinds: Vec<u32>, excluded: Vec<bool>, min_tokens: usize) -> Prepared {
        let excluded = if excluded.len() == kinds.len() {
            excluded
        } else {
            vec![false; kinds.len()]
        };
        let min_tokens = min_tokens.max(1);
        // Excluded tokens seen in the last `min_tokens` positions.
        let mut blocked = 0usize;
        let mut grams: Vec<(u64, u32)> = Vec::new();
        for (start, hash) in kgram_hashes(&kinds, min_tokens).into_iter().enumerate() {
            if start == 0 {
                blocked = excluded[..min_tokens].iter().filter(|x| **x).count();
            } else {
                blocked -= usize::from(excluded[start - 1]);
                blocked += usize::from(excluded[start + min_tokens - 1]);
            }
            if blocked == 0 {
                grams.push((hash, start as u32));
            }
        }
        grams.sort_unstable();
        let mut kept = Vec::with_capacity(grams.len());
        let all = grams.len();
        let mut run = 0;
        for (index, gram) in grams.iter().enumerate() {
            run = if index > 0 && grams[index - 1].0 == gram.0 {
                run + 1
            } else {
                0
            };
            if run < OCCURRENCES_PER_GRAM {
                kept.push(*gram);
            }
        }
        Prepared {
            kinds,
            excluded,
            capped: kept.len() < all,
            grams: kept,
        }
    }

    /// Tokens that may match (not excluded).
    pub(crate) fn free_tokens(&self) -> usize {
        self.excluded.iter().filter(|excluded| !**excluded).count()
    }
}

/// A common run: `len` tokens from `a` in the first sequence and `b` in the
/// second.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Tile {
    pub(crate) a: usize,
    pub(crate) b: usize,
    pub(crate) len: usize,
}

/// The tiles of `a` and `b` (both prepared with the same `min_tokens`),
/// longest first.
pub(crate) fn tile(a: &Prepared, b: &Prepared, min_tokens: usize) -> Vec<Tile> {
    let min_tokens = min_tokens.max(1);
    let same = |i: usize, j: usize| a.kinds[i] == b.kinds[j] && !a.excluded[i] && !b.excluded[j];
    let mut heap = if (a.capped || b.capped)
        && a.kinds.len().saturating_mul(b.kinds.len()) <= FULL_SCAN_CELLS
    {
        every_run(a.kinds.len(), b.kinds.len(), min_tokens, &same)
    } else if a.capped || b.capped {
        let runs = runs_from_grams(a, b, min_tokens, &same);
        rescan_diagonals(runs, a.kinds.len(), b.kinds.len(), min_tokens, &same)
    } else {
        runs_from_grams(a, b, min_tokens, &same)
    };
    let mut taken_a = vec![false; a.kinds.len()];
    let mut taken_b = vec![false; b.kinds.len()];
    let mut tiles = Vec::new();
    while let Some((len, Reverse(i), Reverse(j))) = heap.pop() {
        let free = |t: usize| !taken_a[i + t] && !taken_b[j + t];
        if (0..len).all(free) {
            for t in 0..len {
                taken_a[i + t] = true;
                taken_b[j + t] = true;
            }
            tiles.push(Tile { a: i, b: j, len });
            continue;
        }
        let mut start = None;
        for t in 0..=len {
            match (t < len && free(t), start) {
                (true, None) => start = Some(t),
                (false, Some(from)) => {
                    if t - from >= min_tokens {
                        heap.push((t - from, Reverse(i + from), Reverse(j + from)));
                    }
                    start = None;
                }
                _ => {}
            }
        }
    }
    tiles
}

/// Maximal common runs, longest first (then leftmost).
type Runs = BinaryHeap<(usize, Reverse<usize>, Reverse<usize>)>;

/// The maximal runs through equal kept grams: each found once per diagonal.
fn runs_from_grams(
    a: &Prepared,
    b: &Prepared,
    min_tokens: usize,
    same: &dyn Fn(usize, usize) -> bool,
) -> Runs {
    // Equal grams, by diagonal then position.
    let mut matches: Vec<(isize, usize)> = Vec::new();
    let (mut x, mut y) = (0, 0);
    while x < a.grams.len() && y < b.grams.len() {
        let (hash_a, hash_b) = (a.grams[x].0, b.grams[y].0);
        if hash_a < hash_b {
            x += 1;
        } else if hash_b < hash_a {
            y += 1;
        } else {
            let end_x = x + a.grams[x..].iter().take_while(|g| g.0 == hash_a).count();
            let end_y = y + b.grams[y..].iter().take_while(|g| g.0 == hash_b).count();
            for &(_, i) in &a.grams[x..end_x] {
                for &(_, j) in &b.grams[y..end_y] {
                    let (i, j) = (i as usize, j as usize);
                    matches.push((i as isize - j as isize, i));
                }
            }
            x = end_x;
            y = end_y;
        }
    }
    matches.sort_unstable();
    // Maximal runs, each found once per diagonal.
    let mut heap: Runs = BinaryHeap::new();
    let mut covered: Option<(isize, usize)> = None;
    for (diagonal, i) in matches {
        if covered.is_some_and(|(d, end)| d == diagonal && i < end) {
            continue;
        }
        let j = (i as isize - diagonal) as usize;
        let (mut start_a, mut start_b) = (i, j);
        while start_a > 0 && start_b > 0 && same(start_a - 1, start_b - 1) {
            start_a -= 1;
            start_b -= 1;
        }
        let mut len = i - start_a;
        while start_a + len < a.kinds.len()
            && start_b + len < b.kinds.len()
            && same(start_a + len, start_b + len)
        {
            len += 1;
        }
        covered = Some((diagonal, start_a + len.max(1)));
        if len >= min_tokens {
            heap.push((len, Reverse(start_a), Reverse(start_b)));
        }
    }
    heap
}

/// The diagonals of `runs` (found from capped grams) scanned whole, longest
/// run's first, within [`rescan_budget`] token pairs: repetitive code
/// copied with a change in each repetition (N near-identical functions)
/// lies on a few diagonals, each cut into N runs of which the capped grams
/// seed only the first; the scan finds them all. A diagonal left unscanned
/// keeps the runs found from its grams.
fn rescan_diagonals(
    runs: Runs,
    len_a: usize,
    len_b: usize,
    min_tokens: usize,
    same: &dyn Fn(usize, usize) -> bool,
) -> Runs {
    let runs = runs.into_sorted_vec();
    let diagonal = |i: usize, j: usize| i as isize - j as isize;
    let mut order: Vec<isize> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    // Longest first (`into_sorted_vec` is ascending).
    for &(_, Reverse(i), Reverse(j)) in runs.iter().rev() {
        if seen.insert(diagonal(i, j)) {
            order.push(diagonal(i, j));
        }
    }
    let budget = rescan_budget(len_a, len_b);
    let mut spent = 0usize;
    let mut scanned = std::collections::HashSet::new();
    let mut heap = Runs::new();
    for d in order {
        let (i, j) = if d >= 0 {
            (d as usize, 0)
        } else {
            (0, (-d) as usize)
        };
        let cells = (len_a - i).min(len_b - j);
        if spent + cells > budget {
            continue;
        }
        spent += cells;
        scanned.insert(d);
        scan_diagonal(i, j, len_a, len_b, min_tokens, same, &mut heap);
    }
    for run in runs {
        let (_, Reverse(i), Reverse(j)) = run;
        if !scanned.contains(&diagonal(i, j)) {
            heap.push(run);
        }
    }
    heap
}

/// Token pairs [`rescan_diagonals`] may compare for one pair of files: 256
/// per token of both files, and at least [`FULL_SCAN_CELLS`], so the time
/// stays proportional to the files' sizes (two 1 MiB files: about 10^8
/// steps).
pub(crate) fn rescan_budget(len_a: usize, len_b: usize) -> usize {
    (len_a + len_b).saturating_mul(256).max(FULL_SCAN_CELLS)
}

/// The maximal runs of at least `min_tokens` on the diagonal from `(i, j)`.
fn scan_diagonal(
    mut i: usize,
    mut j: usize,
    len_a: usize,
    len_b: usize,
    min_tokens: usize,
    same: &dyn Fn(usize, usize) -> bool,
    heap: &mut Runs,
) {
    let mut start: Option<(usize, usize)> = None;
    loop {
        let equal = i < len_a && j < len_b && same(i, j);
        match (equal, start) {
            (true, None) => start = Some((i, j)),
            (false, Some((from_a, from_b))) => {
                if i - from_a >= min_tokens {
                    heap.push((i - from_a, Reverse(from_a), Reverse(from_b)));
                }
                start = None;
            }
            _ => {}
        }
        if i >= len_a || j >= len_b {
            break;
        }
        i += 1;
        j += 1;
    }
}

/// Every maximal run of at least `min_tokens` on every diagonal: complete,
/// and `len_a * len_b` steps.
fn every_run(
    len_a: usize,
    len_b: usize,
    min_tokens: usize,
    same: &dyn Fn(usize, usize) -> bool,
) -> Runs {
    let mut heap = Runs::new();
    for diagonal in -(len_b as isize - 1)..len_a as isize {
        let (mut i, mut j) = if diagonal >= 0 {
            (diagonal as usize, 0)
        } else {
            (0, (-diagonal) as usize)
        };
        let mut start: Option<(usize, usize)> = None;
        while i <= len_a && j <= len_b {
            let equal = i < len_a && j < len_b && same(i, j);
            match (equal, start) {
                (true, None) => start = Some((i, j)),
                (false, Some((from_a, from_b))) => {
                    if i - from_a >= min_tokens {
                        heap.push((i - from_a, Reverse(from_a), Reverse(from_b)));
                    }
                    start = None;
                }
                _ => {}
            }
            if i == len_a || j == len_b {
                break;
            }
            i += 1;
            j += 1;
        }
    }
    heap
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn prepared(kinds: &[u32], min_tokens: usize) -> Prepared {
        Prepared::new(kinds.to_vec(), Vec::new(), min_tokens)
    }

    fn covered(tiles: &[Tile]) -> usize {
        tiles.iter().map(|tile| tile.len).sum()
    }

    #[test]
    fn a_repetitive_copy_with_a_line_inserted_is_tiled_whole() {
        // 400 repetitions of a 5-token line: every gram occurs far more often
        // than OCCURRENCES_PER_GRAM. The copy has a 3-token line inserted in
        // the middle, so its second half lies on a diagonal of its own.
        let line = [1, 2, 3, 4, 5];
        let original: Vec<u32> = line.iter().copied().cycle().take(2000).collect();
        let mut copy = original[..1000].to_vec();
        copy.extend([9, 9, 9]);
        copy.extend(&original[1000..]);
        let (a, b) = (prepared(&original, 12), prepared(&copy, 12));
        assert!(a.capped && b.capped);
        let tiles = tile(&a, &b, 12);
        assert_eq!(covered(&tiles), 2000, "{tiles:?}");
    }

    #[test]
    fn a_long_repetitive_copy_changed_in_each_repetition_is_tiled() {
        // 150 functions of 36 tokens, the copy changing one token in each:
        // 5,400 tokens a side, past FULL_SCAN_CELLS, and every gram of a
        // function occurs 150 times.
        let function = |changed: u32| -> Vec<u32> {
            let mut kinds: Vec<u32> = (10..46).collect();
            kinds[2] = changed;
            kinds
        };
        let original: Vec<u32> = (0..150).flat_map(|_| function(1)).collect();
        let copy: Vec<u32> = (0..150).flat_map(|_| function(2)).collect();
        assert!(original.len() * copy.len() > FULL_SCAN_CELLS);
        let (a, b) = (prepared(&original, 12), prepared(&copy, 12));
        assert!(a.capped && b.capped);
        let tiles = tile(&a, &b, 12);
        assert!(covered(&tiles) >= 5000, "{}", covered(&tiles));
    }

    #[test]
    fn identical_sequences_are_one_tile() {
        let kinds: Vec<u32> = (0..50).collect();
        let tiles = tile(&prepared(&kinds, 5), &prepared(&kinds, 5), 5);
        assert_eq!(
            tiles,
            [Tile {
                a: 0,
                b: 0,
                len: 50
            }]
        );
    }

    #[test]
    fn swapped_halves_are_two_tiles() {
        let first: Vec<u32> = (0..20).collect();
        let second: Vec<u32> = (100..130).collect();
        let a: Vec<u32> = first.iter().chain(&second).copied().collect();
        let b: Vec<u32> = second.iter().chain(&first).copied().collect();
        let tiles = tile(&prepared(&a, 5), &prepared(&b, 5), 5);
        assert_eq!(
            tiles,
            [
                Tile {
                    a: 20,
                    b: 0,
                    len: 30
                },
                Tile {
                    a: 0,
                    b: 30,
                    len: 20
                }
            ]
        );
    }

    #[test]
    fn runs_shorter_than_min_tokens_do_not_count() {
        let a = [1, 2, 3, 4, 9, 9, 9, 9, 9, 9];
        let b = [1, 2, 3, 4, 8, 8, 8, 8, 8, 8];
        assert!(tile(&prepared(&a, 5), &prepared(&b, 5), 5).is_empty());
        assert_eq!(covered(&tile(&prepared(&a, 4), &prepared(&b, 4), 4)), 4);
    }

    #[test]
    fn the_greedy_choice_takes_the_longest_run_first() {
        // b holds a's 8-token run once, and inside it a 4-token run that a
        // also has elsewhere: the 8-run wins, the 4-run is then taken.
        let a = [1, 2, 3, 4, 5, 6, 7, 8, 0, 3, 4, 5, 6];
        let b = [3, 4, 5, 6, 9, 1, 2, 3, 4, 5, 6, 7, 8];
        let tiles = tile(&prepared(&a, 3), &prepared(&b, 3), 3);
        assert_eq!(tiles[0], Tile { a: 0, b: 5, len: 8 });
        assert_eq!(covered(&tiles), 12);
    }

    #[test]
    fn excluded_tokens_never_match() {
        let kinds: Vec<u32> = (0..30).collect();
        let mut excluded = vec![false; 30];
        excluded[15] = true;
        let a = Prepared::new(kinds.clone(), excluded, 5);
        let tiles = tile(&a, &prepared(&kinds, 5), 5);
        assert_eq!(covered(&tiles), 29);
        assert_eq!(a.free_tokens(), 29);
    }

    #[test]
    fn a_repeated_line_stays_bounded_and_tiles_whole() {
        let kinds: Vec<u32> = (0..60_000).map(|i| i % 6).collect();
        let tiles = tile(&prepared(&kinds, 12), &prepared(&kinds, 12), 12);
        assert_eq!(covered(&tiles), 60_000);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// Tiles are common runs of at least `min_tokens`, and no token is
        /// in two tiles on either side.
        #[test]
        fn tiles_are_disjoint_common_runs(
            a in proptest::collection::vec(0u32..4, 0..80),
            b in proptest::collection::vec(0u32..4, 0..80),
            min_tokens in 2usize..6,
        ) {
            let tiles = tile(&prepared(&a, min_tokens), &prepared(&b, min_tokens), min_tokens);
            let mut used_a = vec![false; a.len()];
            let mut used_b = vec![false; b.len()];
            for tile in &tiles {
                prop_assert!(tile.len >= min_tokens);
                prop_assert_eq!(&a[tile.a..tile.a + tile.len], &b[tile.b..tile.b + tile.len]);
                for t in 0..tile.len {
                    prop_assert!(!used_a[tile.a + t] && !used_b[tile.b + t]);
                    used_a[tile.a + t] = true;
                    used_b[tile.b + t] = true;
                }
            }
        }

    }
}
