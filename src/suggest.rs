//! "Did you mean …?": the one known name a mistyped one is close to.

/// The candidate one edit away from `word` (a letter added, dropped,
/// changed or two swapped; `_` and `-` count as the same), when exactly one
/// is. An exact match is no suggestion: `rook` is close to `rooks` of
/// `rooks`, `matchsticks` and `mayan`, `README` to none. A word of fewer
/// than two letters is too short to guess from (`` is one edit from `c`).
pub(crate) fn one_edit_away<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    if word.trim().chars().count() < 2 {
        return None;
    }
    let fold = |text: &str| text.replace('_', "-").to_lowercase();
    let folded = fold(word);
    let mut close = candidates.into_iter().filter(|candidate| {
        *candidate != word && strsim::damerau_levenshtein(&fold(candidate), &folded) <= 1
    });
    let first = close.next()?;
    close.next().is_none().then_some(first)
}

/// `"; did you mean `x`?"` for [`one_edit_away`], or nothing.
pub(crate) fn did_you_mean<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> String {
    one_edit_away(word, candidates)
        .map_or_else(String::new, |found| format!("; did you mean `{found}`?"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_only_a_single_close_name() {
        let keys = ["random-tests", "seed", "jobs", "layout"];
        assert_eq!(one_edit_away("random_tests", keys), Some("random-tests"));
        assert_eq!(one_edit_away("randomtests", keys), Some("random-tests"));
        assert_eq!(one_edit_away("sede", keys), Some("seed"));
        assert_eq!(one_edit_away("seed", keys), None);
        assert_eq!(one_edit_away("colour", keys), None);
        // Two names as close: no guess.
        assert_eq!(one_edit_away("ab", ["aa", "bb"]), None);
        assert_eq!(did_you_mean("jbs", keys), "; did you mean `jobs`?");
        assert_eq!(did_you_mean("xyz", keys), "");
        let known = ["rooks", "matchsticks", "mayan"];
        assert_eq!(one_edit_away("rook", known), Some("rooks"));
        assert_eq!(one_edit_away("README", known), None);
        // Too short to guess from.
        let languages = ["c", "cpp", "go"];
        assert_eq!(one_edit_away("", languages), None);
        assert_eq!(one_edit_away(" ", languages), None);
        assert_eq!(one_edit_away("x", languages), None);
        assert_eq!(one_edit_away("cp", languages), None);
        assert_eq!(one_edit_away("gp", languages), Some("go"));
    }
}
