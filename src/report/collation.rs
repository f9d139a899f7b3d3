//! The order in which people read a class: names as a reader sorts them,
//! not by their bytes. Byte order put every capital before every small
//! letter and every accented letter after `z` ("Zoë Müller" before
//! "alice", "Émile" after "zed"; issue #32).

use std::cmp::Ordering;
use unicode_normalization::char::is_combining_mark;
use unicode_normalization::UnicodeNormalization;

/// `a` against `b` as a class list orders them: by the letters without
/// their accents and case ("alice" < "Émile" < "zed"), then with them, so
/// the order is total and the same on every machine.
pub(crate) fn names(a: &str, b: &str) -> Ordering {
    folded(a).cmp(&folded(b)).then_with(|| a.cmp(b))
}

/// A name decomposed (NFKD), its combining marks dropped and its letters
/// in lower case.
fn folded(name: &str) -> String {
    name.nfkd()
        .filter(|&character| !is_combining_mark(character))
        .flat_map(char::to_lowercase)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn names_read_as_a_class_list_not_as_bytes() {
        let mut class = vec![
            "Zoë Müller",
            "alice",
            "Émile",
            "zed",
            "Bob",
            "bob",
            "Ångström",
        ];
        class.sort_by(|a, b| names(a, b));
        assert_eq!(
            class,
            [
                "alice",
                "Ångström",
                "Bob",
                "bob",
                "Émile",
                "zed",
                "Zoë Müller"
            ]
        );
    }

    proptest! {
        /// A total order: antisymmetric, and equal only for equal names.
        #[test]
        fn the_order_is_total(a in "\\PC{0,8}", b in "\\PC{0,8}") {
            prop_assert_eq!(names(&a, &b), names(&b, &a).reverse());
            prop_assert_eq!(names(&a, &b) == Ordering::Equal, a == b);
        }
    }
}
