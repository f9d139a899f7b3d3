//! The problems the judge knows (docs/problems.md), behind one small trait.
//!
//! Each problem lives in a folder of its own with the same seven files:
//! `input.rs` (model and parser), `validate.rs` (constraints), `solve.rs`
//! (reference solver), `generate.rs` (profiles), `check.rs` (checker),
//! `shrink.rs` (smaller inputs for `judge stress`) and a `mod.rs` that wires
//! them into [`Problem`] without logic of its own.
//! [`PROBLEMS`] registers them, as ripgrep registers its flags, so the CLI has
//! no per-problem branches.
//!
//! This module does not run programs or read files: callers hand it text.

pub(crate) mod checkers;
pub mod matchsticks;
pub mod mayan;
pub mod rooks;
pub mod text;

use crate::verdict::Verdict;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sha2::{Digest, Sha256};

pub use text::{InputError, InputErrorKind};

/// One generator profile of a problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Profile {
    /// The name given to `--profile`.
    pub name: &'static str,
    /// One line for `judge problems` and `--help`.
    pub about: &'static str,
}

/// Options a problem's `problem.toml` may set for its checker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CheckOptions {
    /// problems/mayan/statement.md: (judge's rule) By default the checker also requires
    /// the lexicographically smallest solution ... `lexmin = false` in
    /// problem.toml accepts any valid solution. Other problems ignore it.
    pub(crate) lexmin: bool,
}

impl Default for CheckOptions {
    fn default() -> Self {
        CheckOptions { lexmin: true }
    }
}

/// A checker's decision on one output: a verdict and a one-line reason.
/// Not an error: a wrong output is a normal outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckOutcome {
    /// [`Verdict::Accepted`], [`Verdict::WrongAnswer`] or [`Verdict::PresentationError`].
    pub verdict: Verdict,
    /// Why, testlib style: "board 2: expected 5, got 4". Empty only for AC
    /// when there is nothing worth saying.
    pub reason: String,
    /// An accepted output's score, when an output validator gave one
    /// (`score.txt` or `score_multiplier.txt`).
    pub(crate) score: Option<crate::verdict::ValidatorScore>,
}

impl CheckOutcome {
    /// Accepted, with a short summary (e.g. "3 boards").
    pub fn accepted(reason: impl Into<String>) -> Self {
        CheckOutcome {
            verdict: Verdict::Accepted,
            reason: reason.into(),
            score: None,
        }
    }

    /// Wrong answer, with the reason.
    pub fn wrong_answer(reason: impl Into<String>) -> Self {
        CheckOutcome {
            verdict: Verdict::WrongAnswer,
            reason: reason.into(),
            score: None,
        }
    }

    /// Presentation error: the output could not be parsed.
    pub fn presentation_error(reason: impl Into<String>) -> Self {
        CheckOutcome {
            verdict: Verdict::PresentationError,
            reason: reason.into(),
            score: None,
        }
    }
}

/// The checker could not decide because the judge's own data is wrong: the
/// input or the answer is malformed, or disagrees with the reference. Always a
/// judge error (JE, `check` exit 3), never the contestant's fault.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct CheckerFailure {
    message: String,
}

impl CheckerFailure {
    /// A failure explained by `message` (a lowercase fragment).
    pub fn new(message: impl Into<String>) -> Self {
        CheckerFailure {
            message: message.into(),
        }
    }

    /// The judge's input did not parse: "the input is invalid: line 3: ...".
    pub fn invalid_input(error: &InputError) -> Self {
        CheckerFailure::new(format!("the input is invalid: {error}"))
    }
}

/// Why an input could not be generated.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GenerateError {
    /// The problem has no such profile.
    #[error("problem `{problem}` has no profile `{profile}`; known: {known}")]
    UnknownProfile {
        problem: &'static str,
        profile: String,
        known: String,
    },
    /// A package's generator program failed, or is not reproducible.
    #[error("{0}")]
    Program(String),
}

/// One problem of docs/problems.md: everything the judge knows about it.
pub trait Problem: Sync {
    /// The id used on the command line and as the package folder name.
    fn id(&self) -> &'static str;

    /// The problem's title, e.g. "Don't Get Rooked".
    fn title(&self) -> &'static str;

    /// Generator profiles; the first is the default of `judge gen`.
    fn profiles(&self) -> &'static [Profile];

    /// Parses an input in the strict layout and checks every constraint of
    /// its statement (problems/*/statement.md), and those of `profile` when one is given (e.g. rooks'
    /// `large` allows n up to 100). The error names the line and what was wrong.
    fn validate(&self, input: &str, profile: Option<&str>) -> Result<(), InputError>;

    /// The reference answer for an input (read leniently; every profile's
    /// inputs are accepted).
    fn solve(&self, input: &str) -> Result<String, InputError>;

    /// One random valid input for `profile`: the same RNG state gives the same
    /// bytes on every machine.
    fn generate(&self, profile: &str, rng: &mut ChaCha8Rng) -> Result<String, GenerateError>;

    /// Decides one contestant output. `answer` is the judge's answer file when
    /// there is one; a fault in `input` or `answer` is a [`CheckerFailure`].
    fn check(
        &self,
        input: &str,
        output: &str,
        answer: Option<&str>,
        options: &CheckOptions,
    ) -> Result<CheckOutcome, CheckerFailure>;

    /// [`Problem::check`] for the problem's own test named `test`: a
    /// package may give its output validator other arguments for some of
    /// its tests (a Kattis test group's `output_validator_args`, issue
    /// #34). Every other problem checks all tests alike.
    fn check_test(
        &self,
        test: &str,
        input: &str,
        output: &str,
        answer: Option<&str>,
        options: &CheckOptions,
    ) -> Result<CheckOutcome, CheckerFailure> {
        let _ = test;
        self.check(input, output, answer, options)
    }

    /// Whether [`Problem::generate`] can make inputs at all: a package with
    /// programs of its own may have no generator, and then gets no random
    /// tests rather than a JE for each.
    fn has_generator(&self) -> bool {
        true
    }

    /// Whether [`Problem::validate`] with a profile checks something the
    /// original constraints do not (rooks' `large` boards above n = 4):
    /// `judge stress` then validates a shrink candidate the profile rejects
    /// once more without it. A package's validator never sees the profile,
    /// so asking it twice would run the same program on the same input
    /// twice (issue #32).
    fn validates_profiles(&self) -> bool {
        true
    }

    /// Smaller inputs derived from `input`, most promising first: the steps
    /// `judge stress` takes to shrink a failing input to the smallest one
    /// that still fails.
    ///
    /// This is the extension point for shrinking. Each candidate should be
    /// valid and shorter than `input` in bytes; the caller still validates
    /// every candidate and skips the ones that are not, so a step that
    /// occasionally breaks a rule costs a skipped candidate, not a wrong
    /// report. An input that does not parse has no candidates. The default
    /// has none: `judge stress` then reports the failing input as found.
    fn shrink(&self, input: &str) -> Vec<String> {
        let _ = input;
        Vec::new()
    }

    /// The output validator that talks to the submission (an interactive
    /// problem) or runs it pass after pass (a multi-pass problem), compiled
    /// on first use; `None` for a problem whose output is checked once.
    /// `Err` is the package's fault (it does not compile): JE.
    fn interactor(
        &self,
    ) -> Option<Result<crate::interaction::InteractorSpec, crate::interaction::InteractorError>>
    {
        None
    }

    /// [`Problem::interactor`] for the problem's own test named `test`,
    /// with the arguments that test's group gives it (issue #34).
    fn interactor_for_test(
        &self,
        test: &str,
    ) -> Option<Result<crate::interaction::InteractorSpec, crate::interaction::InteractorError>>
    {
        let _ = test;
        self.interactor()
    }

    /// Whether the judge itself plays against the submission (a built-in
    /// interactive engine, [`Problem::engine_session`]).
    fn plays_the_submission(&self) -> bool {
        false
    }

    /// For a problem whose judge plays against the submission itself (a
    /// built-in engine): a new game session for `input`. `None` for every
    /// other problem.
    fn engine_session(&self, input: &str) -> Option<Box<dyn crate::interaction::EngineSession>> {
        let _ = input;
        None
    }
}

impl std::fmt::Debug for dyn Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Problem({})", self.id())
    }
}

/// Every problem, in the order `judge problems` lists them.
pub static PROBLEMS: &[&dyn Problem] = &[
    &rooks::Rooks,
    &matchsticks::Matchsticks,
    &matchsticks::duel::MatchsticksDuel,
    &mayan::Mayan,
];

/// The problem with this id.
pub fn find(id: &str) -> Option<&'static dyn Problem> {
    PROBLEMS.iter().copied().find(|problem| problem.id() == id)
}

/// The ids of every problem, comma-separated, for error messages.
pub(crate) fn known_ids() -> String {
    PROBLEMS
        .iter()
        .map(|problem| problem.id())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Looks a profile up by name, or explains which exist.
pub(crate) fn find_profile(problem: &dyn Problem, name: &str) -> Result<Profile, GenerateError> {
    problem
        .profiles()
        .iter()
        .copied()
        .find(|profile| profile.name == name)
        .ok_or_else(|| GenerateError::UnknownProfile {
            problem: problem.id(),
            profile: name.to_owned(),
            known: problem
                .profiles()
                .iter()
                .map(|profile| profile.name)
                .collect::<Vec<_>>()
                .join(", "),
        })
}

/// The RNG for test `index` (0-based) of `profile` of `problem` under
/// `master_seed`.
///
/// The seed is SHA-256 of a versioned, NUL-separated string, so every test has
/// an independent stream, the derivation is the same on every platform, and
/// adding a profile or a problem changes no existing test. Changing this
/// function changes every generated test: bump the `judge-seed-v1` tag and say
/// so in CHANGELOG.md.
pub fn test_rng(master_seed: u64, problem: &str, profile: &str, index: u64) -> ChaCha8Rng {
    let mut hasher = Sha256::new();
    hasher.update(b"judge-seed-v1\0");
    hasher.update(problem.as_bytes());
    hasher.update(b"\0");
    hasher.update(profile.as_bytes());
    hasher.update(b"\0");
    hasher.update(master_seed.to_le_bytes());
    hasher.update(index.to_le_bytes());
    ChaCha8Rng::from_seed(hasher.finalize().into())
}

/// Whether `candidate` is smaller than `input` in the order `judge stress`
/// shrinks by: shorter, or as long and lexicographically smaller. A strict
/// order on texts no longer than the first, so greedy shrinking ends, and it
/// lets a step that keeps the length (mayan's lower n, rooks' wall to empty
/// cell) count as progress.
pub(crate) fn is_smaller(candidate: &str, input: &str) -> bool {
    (candidate.len(), candidate) < (input.len(), input)
}

/// Decides an output given as raw bytes: text that is not UTF-8 (or is larger
/// than `text::MAX_TEXT_BYTES`) is a presentation error, never a panic.
pub fn check_bytes(
    problem: &dyn Problem,
    input: &str,
    output: &[u8],
    answer: Option<&str>,
    options: &CheckOptions,
) -> Result<CheckOutcome, CheckerFailure> {
    match text::decode(output) {
        Ok(output) => problem.check(input, output, answer, options),
        Err(error) => Ok(CheckOutcome::presentation_error(format!("output {error}"))),
    }
}

/// [`check_bytes`] for the problem's own test named `test`
/// ([`Problem::check_test`]).
pub(crate) fn check_test_bytes(
    problem: &dyn Problem,
    test: &str,
    input: &str,
    output: &[u8],
    answer: Option<&str>,
    options: &CheckOptions,
) -> Result<CheckOutcome, CheckerFailure> {
    match text::decode(output) {
        Ok(output) => problem.check_test(test, input, output, answer, options),
        Err(error) => Ok(CheckOutcome::presentation_error(format!("output {error}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::RngCore;

    #[test]
    fn test_rng_is_pinned() {
        // If this fails, every generated test changed: see `test_rng`'s doc.
        let mut rng = test_rng(1, "rooks", "small", 0);
        let first = rng.next_u64();
        let mut again = test_rng(1, "rooks", "small", 0);
        assert_eq!(again.next_u64(), first);
        assert_ne!(test_rng(1, "rooks", "small", 1).next_u64(), first);
        assert_ne!(test_rng(2, "rooks", "small", 0).next_u64(), first);
        assert_ne!(test_rng(1, "rooks", "large", 0).next_u64(), first);
        assert_eq!(first, PINNED_FIRST_VALUE);
    }

    /// `test_rng(1, "rooks", "small", 0).next_u64()`, recorded when the
    /// derivation was written.
    const PINNED_FIRST_VALUE: u64 = 5_625_343_709_635_073_897;

    #[test]
    fn every_problem_is_registered_once_with_profiles() {
        let mut ids: Vec<_> = PROBLEMS.iter().map(|problem| problem.id()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), PROBLEMS.len());
        for problem in PROBLEMS {
            assert!(
                !problem.profiles().is_empty(),
                "{} has no profile",
                problem.id()
            );
            assert!(find(problem.id()).is_some());
        }
    }
}
