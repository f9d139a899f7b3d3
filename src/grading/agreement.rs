//! How many of a grade's examples got what they were expected to get, in
//! the words of what they were expected by: the one wording of the tally
//! (issue #33), said by `grade --package`'s table
//! ([`super::package_table`]) and by the summary of a grade of layout
//! `expected`, whether graded, merged or saved and rendered again
//! ([`super::reports::Shown::view`]). The count is the caller's; this
//! only words it.

use crate::package::format::ExpectedKey;

/// `agree` of `total` examples agreed, expected by `key` (a verdict
/// folder, a Polygon tag; `None` when a report mixes them). Issue #33: a
/// saved Polygon report's summary named folders.
pub(crate) fn tally(agree: usize, total: usize, key: Option<ExpectedKey>) -> String {
    match key {
        Some(key) => format!(
            "{agree} of {total} submissions got their {}'s verdict",
            key.word()
        ),
        None => format!("{agree} of {total} submissions got their expected verdict"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tally_names_what_the_examples_were_expected_by() {
        assert_eq!(
            tally(2, 3, Some(ExpectedKey::Folder)),
            "2 of 3 submissions got their folder's verdict"
        );
        assert_eq!(
            tally(0, 1, Some(ExpectedKey::Tag)),
            "0 of 1 submissions got their tag's verdict"
        );
        assert_eq!(
            tally(1, 2, None),
            "1 of 2 submissions got their expected verdict"
        );
    }
}
