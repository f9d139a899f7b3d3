//! Constraints beyond syntax: every position has a legal move, and each
//! generator profile's promise about its positions.
//!
//! Syntax and the range of k are `input.rs`'s; who wins is `solve.rs`'s.

use super::input::{parse, Input};
use super::solve::{best_move, greedy_move, outcome, Outcome};
use crate::problems::text::Layout;
use crate::problems::{InputError, Profile};

/// The profiles of `judge gen matchsticks`, in [`ProfileKind::ALL`] order.
pub(crate) static PROFILES: &[Profile] = &[
    Profile {
        name: "random",
        about: "positions reached by play and arbitrary boards, each with a legal move",
    },
    Profile {
        name: "lost",
        about: "positions where every legal move loses, so any legal move is right",
    },
    Profile {
        name: "tricky",
        about: "won positions where the greedy fewest-replies move loses",
    },
];

/// The generator profiles, each with the promise `validate` checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProfileKind {
    /// Positions reachable by play and arbitrary boards: nothing beyond the
    /// original constraints.
    Random,
    /// Every legal move loses: any legal move is a right answer.
    Lost,
    /// Won positions where the greedy move loses the win.
    Tricky,
}

impl ProfileKind {
    /// Every profile, `random` first (the default of `judge gen`).
    pub const ALL: [ProfileKind; 3] = [ProfileKind::Random, ProfileKind::Lost, ProfileKind::Tricky];

    /// The name given to `--profile`.
    pub fn name(self) -> &'static str {
        match self {
            ProfileKind::Random => "random",
            ProfileKind::Lost => "lost",
            ProfileKind::Tricky => "tricky",
        }
    }

    /// The profile called `name`.
    pub(crate) fn from_name(name: &str) -> Option<ProfileKind> {
        ProfileKind::ALL
            .into_iter()
            .find(|profile| profile.name() == name)
    }
}

/// Checks the rules every input obeys, whatever its profile: each position
/// has at least one legal move.
pub(crate) fn check_positions(input: &Input) -> Result<(), InputError> {
    match input
        .positions
        .iter()
        .find(|position| !position.board.has_legal_move())
    {
        Some(position) => Err(position.no_legal_move()),
        None => Ok(()),
    }
}

/// Checks that every position keeps `profile`'s promise.
pub(crate) fn check_profile(input: &Input, profile: ProfileKind) -> Result<(), InputError> {
    for position in &input.positions {
        let broken = |promise: String| {
            InputError::constraint(
                position.first_line,
                format!(
                    "{} {promise}, but profile `{}` promises {}",
                    position.describe(),
                    profile.name(),
                    match profile {
                        ProfileKind::Random => "nothing more",
                        ProfileKind::Lost => "that every legal move loses",
                        ProfileKind::Tricky => "a won position where the greedy move loses",
                    }
                ),
            )
        };
        let board = &position.board;
        match profile {
            ProfileKind::Random => {}
            ProfileKind::Lost => {
                if outcome(board) == Outcome::Win {
                    let winning = best_move(board).map(|chosen| chosen.to_string());
                    return Err(broken(format!(
                        "is won for the player to move ({} wins)",
                        winning.unwrap_or_default()
                    )));
                }
            }
            ProfileKind::Tricky => {
                if outcome(board) == Outcome::Loss {
                    return Err(broken("is lost for the player to move".to_owned()));
                }
                if let Some(greedy) = greedy_move(board) {
                    if outcome(&board.with(greedy)) == Outcome::Loss {
                        return Err(broken(format!(
                            "has a greedy move {greedy} that keeps the win"
                        )));
                    }
                }
            }
        }
    }
    Ok(())
}

/// `judge validate matchsticks [--profile P]`: the strict layout, the
/// original constraints, and `profile`'s promise when one is named.
pub(crate) fn validate(text: &str, profile: Option<&str>) -> Result<Input, InputError> {
    let profile = match profile {
        None => None,
        Some(name) => Some(ProfileKind::from_name(name).ok_or_else(|| {
            InputError::constraint(
                0,
                format!(
                    "problem `matchsticks` has no profile `{name}`; known: {}",
                    ProfileKind::ALL.map(ProfileKind::name).join(", ")
                ),
            )
        })?),
    };
    let input = parse(text, Layout::Strict)?;
    check_positions(&input)?;
    if let Some(profile) = profile {
        check_profile(&input, profile)?;
    }
    Ok(input)
}

#[cfg(test)]
mod tests {
    use super::*;
    use test_case::test_case;

    const SAMPLE: &str = "2\n0111\n-000\n-000\n1111\n----\n0010\n";

    #[test_case(SAMPLE, None ; "sample")]
    #[test_case(SAMPLE, Some("random") ; "sample as random")]
    #[test_case("1\n1-1-\n-1-1\n1-10\n", Some("random") ; "one move left")]
    #[test_case("1\n1-1-\n-1-1\n1-00\n", Some("lost") ; "one move that unblocks the reply")]
    fn accepts(text: &str, profile: Option<&str>) {
        validate(text, profile).unwrap();
    }

    #[test_case("1\n1-1-\n-1-1\n1-1-\n", None,
        "line 2: position 1 (lines 2-4: \"1-1-\", \"-1-1\", \"1-1-\") has no legal move" ; "full board")]
    #[test_case("2\n0000\n0000\n0000\n-1-1\n1-1-\n-1-1\n", Some("random"),
        "line 5: position 2 (lines 5-7: \"-1-1\", \"1-1-\", \"-1-1\") has no legal move" ; "second position full")]
    #[test_case("1\n1-1-\n-1-1\n1-10\n", Some("lost"),
        "line 2: position 1 (lines 2-4: \"1-1-\", \"-1-1\", \"1-10\") is won for the player to move (2 3 - wins), but profile `lost` promises that every legal move loses" ; "won position in lost")]
    #[test_case("1\n1-1-\n-1-1\n1-00\n", Some("tricky"),
        "line 2: position 1 (lines 2-4: \"1-1-\", \"-1-1\", \"1-00\") is lost for the player to move, but profile `tricky` promises a won position where the greedy move loses" ; "lost position in tricky")]
    #[test_case("1\n1-1-\n-1-1\n1-10\n", Some("tricky"),
        "line 2: position 1 (lines 2-4: \"1-1-\", \"-1-1\", \"1-10\") has a greedy move 2 3 - that keeps the win, but profile `tricky` promises a won position where the greedy move loses" ; "greedy wins in tricky")]
    #[test_case(SAMPLE, Some("hard"),
        "problem `matchsticks` has no profile `hard`; known: random, lost, tricky" ; "unknown profile")]
    #[test_case("1\r\n0000\n0000\n0000\n", None,
        "line 1, column 2: expected a line ending in \\n, found \\r (Windows CRLF line ending)" ; "strict layout")]
    fn rejects(text: &str, profile: Option<&str>, message: &str) {
        assert_eq!(validate(text, profile).unwrap_err().to_string(), message);
    }
}
