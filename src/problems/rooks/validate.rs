//! Which inputs are valid for rooks, and for each generator profile.
//!
//! The only rule beyond syntax is the board size, and it depends on the
//! profile, so this module picks the size limit and lets [`super::input`]
//! enforce it while parsing (a size line must be judged before its rows can
//! be read). It does not parse anything itself.

use super::input::{parse_input, Board, MAX_SIZE};
use super::Rooks;
use crate::problems::text::{InputError, Layout};
use crate::problems::{find_profile, Profile};

/// The generator profiles; the first is the default of `judge gen`.
pub static PROFILES: &[Profile] = &[
    Profile {
        name: "small",
        about: "the original constraint n <= 4: several boards, walls from none to all",
    },
    Profile {
        name: "large",
        about: "n up to 100 (sometimes exactly 100): a few boards that defeat backtracking",
    },
];

/// problems/rooks/statement.md: Original constraint: 1 <= n <= 4. Also the promise
/// of the `small` profile.
pub(crate) const ORIGINAL_MAX_SIZE: usize = 4;

/// The largest board side `profile` promises: the original constraint without
/// a profile or for `small`, [`MAX_SIZE`] for `large`. problems/rooks/statement.md:
/// "`judge validate rooks --profile large` accepts such inputs; the default
/// profile enforces the original n <= 4."
pub(crate) fn max_size(profile: Option<&str>) -> Result<usize, InputError> {
    match profile {
        None | Some("small") => Ok(ORIGINAL_MAX_SIZE),
        Some("large") => Ok(MAX_SIZE),
        // Line 0: the fault is in the request, not in any line of the file.
        Some(other) => Err(InputError::constraint(
            0,
            match find_profile(&Rooks, other) {
                Err(error) => error.to_string(),
                Ok(profile) => format!("profile `{}` has no size rule", profile.name),
            },
        )),
    }
}

/// Checks `text` in the strict layout against every rule of problems/rooks/statement.md and
/// the promise of `profile`, and returns the boards.
pub(crate) fn validate(text: &str, profile: Option<&str>) -> Result<Vec<Board>, InputError> {
    parse_input(text, Layout::Strict, max_size(profile)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use test_case::test_case;

    const FIVE_BY_FIVE: &str = "5\n.....\n..X..\n.....\n.....\n.....\n0\n";

    #[test_case(None, "4\n....\n....\n....\n....\n0\n" ; "original size four")]
    #[test_case(Some("small"), "1\nX\n2\n..\n.X\n0\n" ; "small profile")]
    #[test_case(Some("large"), FIVE_BY_FIVE ; "large profile allows five")]
    fn accepts(profile: Option<&str>, text: &str) {
        assert!(validate(text, profile).is_ok());
    }

    #[test_case(None, FIVE_BY_FIVE, "line 1: the board size n = 5 is outside 1..=4" ; "original rejects five")]
    #[test_case(Some("small"), FIVE_BY_FIVE, "line 1: the board size n = 5 is outside 1..=4" ; "small rejects five")]
    #[test_case(Some("large"), "101\n", "line 1: the board size n = 101 is outside 1..=100" ; "large rejects one hundred and one")]
    #[test_case(Some("huge"), "1\n.\n0\n", "problem `rooks` has no profile `huge`; known: small, large" ; "unknown profile")]
    #[test_case(None, "1\n.\n0", "line 3: expected a line ending in \\n, found end of file (the last line has no newline)" ; "no final newline")]
    #[test_case(None, "1\n.\n\n0\n", "line 3: expected a line, found an empty line" ; "blank line")]
    fn rejects(profile: Option<&str>, text: &str, message: &str) {
        assert_eq!(
            validate(text, profile).map_err(|error| error.to_string()),
            Err(message.to_owned())
        );
    }

    #[test]
    fn every_generator_profile_has_a_size_rule() {
        for profile in PROFILES {
            assert!(max_size(Some(profile.name)).is_ok(), "{}", profile.name);
        }
    }

    #[test]
    fn large_profile_accepts_the_largest_board() {
        let board = Board::from_fn(MAX_SIZE, |_, _| super::super::input::Cell::Empty);
        let text = super::super::input::print_input(&[board]);
        assert!(validate(&text, Some("large")).is_ok());
        assert!(validate(&text, None).is_err());
    }
}
