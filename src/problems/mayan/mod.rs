//! mayan — NOIP 2011 "Mayan 游戏" (Luogu P1312), problems/mayan/statement.md's third
//! problem: clear a 5 x 7 board of coloured blocks in exactly n moves.
//!
//! This file only wires the parts into [`Problem`]: the model, rules and
//! parser (`input`), profile promises (`validate`), the solver (`solve`),
//! the generator (`generate`), the checker (`check`) and the shrink steps
//! of `judge stress` (`shrink`).

mod bits;
pub mod check;
pub mod generate;
pub mod input;
pub(crate) mod shrink;
pub mod solve;
mod spread;
pub(crate) mod validate;

use crate::problems::text::Layout;
use crate::problems::{
    CheckOptions, CheckOutcome, CheckerFailure, GenerateError, InputError, Problem, Profile,
};
use rand_chacha::ChaCha8Rng;

/// The mayan problem.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Mayan;

impl Problem for Mayan {
    fn id(&self) -> &'static str {
        "mayan"
    }

    fn title(&self) -> &'static str {
        "Mayan Puzzle"
    }

    fn profiles(&self) -> &'static [Profile] {
        validate::PROFILES
    }

    fn validate(&self, input: &str, profile: Option<&str>) -> Result<(), InputError> {
        validate::validate(input, profile).map(drop)
    }

    fn solve(&self, input: &str) -> Result<String, InputError> {
        let puzzle = input::parse(input, Layout::Lenient)?;
        let solution = solve::solve(
            &puzzle.board,
            puzzle.moves,
            solve::Reading::WithoutSameColourSwaps,
        );
        Ok(solve::render(solution.as_deref()))
    }

    fn generate(&self, profile: &str, rng: &mut ChaCha8Rng) -> Result<String, GenerateError> {
        generate::generate(profile, rng)
    }

    fn check(
        &self,
        input: &str,
        output: &str,
        answer: Option<&str>,
        options: &CheckOptions,
    ) -> Result<CheckOutcome, CheckerFailure> {
        check::check(input, output, answer, options)
    }

    fn shrink(&self, input: &str) -> Vec<String> {
        shrink::shrink(input)
    }
}
