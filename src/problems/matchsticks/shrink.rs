//! Shrink steps for matchsticks: smaller inputs derived from a failing one,
//! for `judge stress` (see [`crate::problems::Problem::shrink`]).
//!
//! It does not decide whether a candidate still fails or is valid: the
//! caller runs and validates each one.

use super::input::{parse, Board, Input};
use crate::problems::text::Layout;

/// Every input without one of the positions of `text`, first position first,
/// with k rewritten; nothing when k = 1 (problems/matchsticks/statement.md: 1 <= k). Each keeps
/// the promise of any profile `text` kept: the promises are per position.
pub(crate) fn shrink(text: &str) -> Vec<String> {
    let Ok(input) = parse(text, Layout::Lenient) else {
        return Vec::new();
    };
    let boards: Vec<Board> = input
        .positions
        .iter()
        .map(|position| position.board)
        .collect();
    if boards.len() <= 1 {
        return Vec::new();
    }
    (0..boards.len())
        .map(|skipped| {
            let rest: Vec<Board> = boards
                .iter()
                .enumerate()
                .filter(|&(index, _)| index != skipped)
                .map(|(_, board)| *board)
                .collect();
            Input::render(&rest)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problems::matchsticks::validate::validate;
    use crate::problems::matchsticks::validate::PROFILES;

    #[test]
    fn drops_each_position_and_rewrites_k() {
        let text = "2\n0000\n0000\n0000\n1001\n-000\n0010\n";
        assert_eq!(
            shrink(text),
            vec![
                "1\n1001\n-000\n0010\n".to_owned(),
                "1\n0000\n0000\n0000\n".to_owned(),
            ]
        );
    }

    #[test]
    fn a_single_position_has_no_smaller_input() {
        assert!(shrink("1\n0000\n0000\n0000\n").is_empty());
    }

    /// Every candidate is valid under every profile the input was valid
    /// under, and strictly shorter, so greedy shrinking always ends.
    #[test]
    fn every_candidate_is_valid_and_strictly_smaller() {
        for profile in PROFILES {
            for index in 0..5 {
                let mut rng = crate::problems::test_rng(7, "matchsticks", profile.name, index);
                let kind = super::super::validate::ProfileKind::from_name(profile.name).unwrap();
                let text = super::super::generate::generate(kind, &mut rng);
                for candidate in shrink(&text) {
                    assert!(candidate.len() < text.len(), "{candidate:?} from {text:?}");
                    validate(&candidate, Some(profile.name)).unwrap();
                }
            }
        }
    }
}
