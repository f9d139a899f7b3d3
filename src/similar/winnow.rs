//! Fingerprints of a token sequence by winnowing (Schleimer, Wilkerson and
//! Aiken, "Winnowing: local algorithms for document fingerprinting", 2003;
//! the method of MOSS and Dolos): hash every k-gram of tokens, and in every
//! window of `w` consecutive k-gram hashes keep the smallest (the rightmost
//! on a tie), each kept position once.
//!
//! The guarantee this module exists for: two sequences that share a run of
//! at least `w + k - 1` tokens share at least one fingerprint, since the
//! run holds a whole window and both sides keep that window's minimum. So
//! pairs with no common fingerprint cannot have a common run that long, and
//! need not be compared in full.

/// A hash no k-gram is given: the hash of a k-gram that must never count
/// (it is in the starter code, or it covers starter tokens).
pub(crate) const NEVER: u64 = u64::MAX;

/// The k-gram length and window for runs of at least `min_tokens` tokens:
/// `k + w - 1 == min_tokens`, with k about half of it (shorter k-grams find
/// more, longer ones are more selective).
pub(crate) fn parameters(min_tokens: usize) -> (usize, usize) {
    let min_tokens = min_tokens.max(1);
    let k = min_tokens.div_ceil(2);
    (k, min_tokens - k + 1)
}

/// The hash of each k-gram `kinds[i..i + k]`, for every `i` (none when the
/// sequence is shorter than `k`). A polynomial rolling hash, mixed so that
/// the minimum of a window is not biased towards small token kinds; never
/// [`NEVER`].
pub(crate) fn kgram_hashes(kinds: &[u32], k: usize) -> Vec<u64> {
    if k == 0 || kinds.len() < k {
        return Vec::new();
    }
    const BASE: u64 = 0x9e37_79b9_7f4a_7c15 | 1;
    let top = (1..k).fold(1u64, |power, _| power.wrapping_mul(BASE));
    let mut hash = kinds[..k].iter().fold(0u64, |hash, kind| {
        hash.wrapping_mul(BASE).wrapping_add(u64::from(*kind))
    });
    let mut hashes = Vec::with_capacity(kinds.len() - k + 1);
    hashes.push(mix(hash));
    for i in k..kinds.len() {
        hash = hash
            .wrapping_sub(u64::from(kinds[i - k]).wrapping_mul(top))
            .wrapping_mul(BASE)
            .wrapping_add(u64::from(kinds[i]));
        hashes.push(mix(hash));
    }
    hashes
}

/// splitmix64's finaliser, kept clear of [`NEVER`].
fn mix(mut value: u64) -> u64 {
    value ^= value >> 30;
    value = value.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    value ^= value >> 27;
    value = value.wrapping_mul(0x94d0_49bb_1331_11eb);
    value ^= value >> 31;
    value.min(NEVER - 1)
}

/// Robust winnowing: the positions (and hashes) kept from `hashes` with
/// windows of `w`. A window whose every hash is [`NEVER`] keeps nothing. A
/// sequence shorter than one window keeps its minimum.
pub(crate) fn winnow(hashes: &[u64], w: usize) -> Vec<(u64, usize)> {
    let w = w.max(1);
    let mut kept: Vec<(u64, usize)> = Vec::new();
    if hashes.is_empty() {
        return kept;
    }
    let windows = hashes.len().saturating_sub(w) + 1;
    let width = w.min(hashes.len());
    for start in 0..windows {
        let window = &hashes[start..start + width];
        let mut best = 0;
        for (offset, hash) in window.iter().enumerate() {
            if *hash <= window[best] {
                best = offset;
            }
        }
        let position = start + best;
        if window[best] == NEVER {
            continue;
        }
        if kept.last().is_none_or(|(_, last)| *last != position) {
            kept.push((window[best], position));
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn parameters_cover_runs_of_min_tokens() {
        for min_tokens in 1..40 {
            let (k, w) = parameters(min_tokens);
            assert!(k >= 1 && w >= 1);
            assert_eq!(k + w - 1, min_tokens.max(1));
        }
        assert_eq!(parameters(12), (6, 7));
    }

    #[test]
    fn equal_kgrams_hash_equal_wherever_they_are() {
        let hashes = kgram_hashes(&[1, 2, 3, 9, 1, 2, 3], 3);
        assert_eq!(hashes.len(), 5);
        assert_eq!(hashes[0], hashes[4]);
        assert_ne!(hashes[0], hashes[1]);
        assert!(kgram_hashes(&[1, 2], 3).is_empty());
    }

    #[test]
    fn winnowing_keeps_the_rightmost_minimum_once() {
        let kept = winnow(&[5, 3, 7, 3, 8, 9, 9, 1], 3);
        assert_eq!(kept, [(3, 1), (3, 3), (8, 4), (1, 7)]);
        assert_eq!(winnow(&[4, 2], 5), [(2, 1)]);
        assert!(winnow(&[NEVER, NEVER, NEVER], 2).is_empty());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// Two sequences that share a run of `w + k - 1` tokens share a
        /// fingerprint, wherever the run sits in each.
        #[test]
        fn a_shared_run_of_min_tokens_shares_a_fingerprint(
            run in proptest::collection::vec(0u32..6, 12..30),
            left in proptest::collection::vec(0u32..6, 0..40),
            right in proptest::collection::vec(0u32..6, 0..40),
            min_tokens in 2usize..12,
        ) {
            let (k, w) = parameters(min_tokens);
            let a: Vec<u32> = left.iter().chain(&run).copied().collect();
            let b: Vec<u32> = run.iter().chain(&right).copied().collect();
            let fingerprints = |kinds: &[u32]| -> std::collections::HashSet<u64> {
                winnow(&kgram_hashes(kinds, k), w).into_iter().map(|(hash, _)| hash).collect()
            };
            prop_assert!(!fingerprints(&a).is_disjoint(&fingerprints(&b)));
        }
    }
}
