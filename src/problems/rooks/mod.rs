//! rooks: UVa 639 "Don't Get Rooked" (problems/rooks/statement.md).
//!
//! Wires the seven parts into [`Problem`] and holds no logic of its own: the
//! input model in [`input`], size rules per profile in [`validate`], the
//! matching solver in [`solve`], generator profiles in [`generate`], the
//! checker in `check` and the shrink steps of `judge stress` in `shrink`.

pub(crate) mod check;
pub mod generate;
pub mod input;
pub(crate) mod shrink;
pub mod solve;
pub mod validate;

use crate::problems::text::{InputError, Layout};
use crate::problems::{
    CheckOptions, CheckOutcome, CheckerFailure, GenerateError, Problem, Profile,
};
use rand_chacha::ChaCha8Rng;

/// The rooks problem.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Rooks;

impl Problem for Rooks {
    fn id(&self) -> &'static str {
        "rooks"
    }

    fn title(&self) -> &'static str {
        "Don't Get Rooked"
    }

    fn profiles(&self) -> &'static [Profile] {
        validate::PROFILES
    }

    fn validate(&self, input: &str, profile: Option<&str>) -> Result<(), InputError> {
        validate::validate(input, profile).map(drop)
    }

    fn solve(&self, input: &str) -> Result<String, InputError> {
        let boards = input::parse_input(input, Layout::Lenient, input::MAX_SIZE)?;
        Ok(solve::solve(&boards))
    }

    fn generate(&self, profile: &str, rng: &mut ChaCha8Rng) -> Result<String, GenerateError> {
        generate::generate(profile, rng)
    }

    /// `options` is ignored: rooks has a single right count per board.
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
