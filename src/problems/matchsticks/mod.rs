//! matchsticks — Lanqiao Cup "纵横放火柴游戏" (problems/matchsticks/statement.md).
//!
//! Wires the parts into [`Problem`]; no logic lives here. The rules of
//! placement are in [`input`], the solved game in [`solve`], profile promises
//! in `validate`, generators in `generate`, the checker in `check` and
//! the shrink steps of `judge stress` in `shrink`.

pub(crate) mod check;
pub(crate) mod duel;
pub(crate) mod generate;
pub mod input;
pub(crate) mod shrink;
pub mod solve;
pub(crate) mod validate;

pub use input::{Board, Cell, IllegalMove, Input, Move, Orientation, Position};
pub use solve::{best_move, greedy_move, outcome, Outcome};
pub use validate::ProfileKind;

use super::text::Layout;
use super::{
    find_profile, CheckOptions, CheckOutcome, CheckerFailure, GenerateError, InputError, Problem,
    Profile,
};
use rand_chacha::ChaCha8Rng;

/// The matchsticks problem.
pub struct Matchsticks;

impl Problem for Matchsticks {
    fn id(&self) -> &'static str {
        "matchsticks"
    }

    fn title(&self) -> &'static str {
        "Matchsticks Across and Down"
    }

    fn profiles(&self) -> &'static [Profile] {
        validate::PROFILES
    }

    fn validate(&self, input: &str, profile: Option<&str>) -> Result<(), InputError> {
        validate::validate(input, profile).map(|_| ())
    }

    fn solve(&self, input: &str) -> Result<String, InputError> {
        solve::solve(&input::parse(input, Layout::Lenient)?)
    }

    fn generate(&self, profile: &str, rng: &mut ChaCha8Rng) -> Result<String, GenerateError> {
        let known = find_profile(self, profile)?;
        let kind =
            ProfileKind::from_name(known.name).ok_or_else(|| GenerateError::UnknownProfile {
                problem: "matchsticks",
                profile: profile.to_owned(),
                known: ProfileKind::ALL.map(ProfileKind::name).join(", "),
            })?;
        Ok(generate::generate(kind, rng))
    }

    fn check(
        &self,
        input: &str,
        output: &str,
        answer: Option<&str>,
        _options: &CheckOptions,
    ) -> Result<CheckOutcome, CheckerFailure> {
        check::check(input, output, answer)
    }

    fn shrink(&self, input: &str) -> Vec<String> {
        shrink::shrink(input)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profiles_match_the_profile_kinds() {
        let names: Vec<_> = validate::PROFILES
            .iter()
            .map(|profile| profile.name)
            .collect();
        assert_eq!(names, ProfileKind::ALL.map(ProfileKind::name));
    }
}
