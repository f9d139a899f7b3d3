//! Problems backed by a package's own programs instead of a built-in engine
//! (issue #9): a reference solution, an optional generator, an optional
//! input validator and a checker (built-in, or a program speaking the
//! testlib or the Kattis protocol), each compiled once and run in the
//! sandbox with the package's tool limits.
//!
//! [`ProgramProblem`] implements [`Problem`], so every command that works on
//! a built-in problem works on such a package. Whatever a program does
//! wrong (a crash, a timeout, an exit code its protocol does not define, no
//! message, a flood of output) is the judge's fault: a [`CheckerFailure`]
//! or an input error of kind [`InputErrorKind::ProgramFailed`], which
//! become JE and never a verdict against a submission.
//!
//! This module does not read `problem.toml`: [`crate::config::problem`]
//! does, and hands over the checked parts.

mod protocol;
pub(crate) mod shrink;
pub(crate) mod tool;

pub(crate) use protocol::{CheckerProtocol, ValidatorExitCodes, ValidatorVerdict};
pub(crate) use tool::{Collect, Role, Stdout, Tool, ToolFault, Toolbox};

use crate::interaction::InteractorError;
use crate::problems::checkers::BuiltinChecker;
use crate::problems::{
    CheckOptions, CheckOutcome, CheckerFailure, GenerateError, InputError, InputErrorKind, Problem,
    Profile,
};
use rand::RngCore as _;
use rand_chacha::ChaCha8Rng;
use std::collections::{BTreeMap, HashSet};
use std::sync::Mutex;

/// How outputs are decided.
#[derive(Debug)]
pub(crate) enum Checker {
    /// A comparison with the answer that needs no program.
    Builtin(BuiltinChecker),
    /// A program and the protocol it speaks; `args` follow the protocol's
    /// own (Kattis' `validator_flags`).
    Program {
        tool: Box<Tool>,
        protocol: CheckerProtocol,
        args: Vec<String>,
    },
}

/// What one test changes of [`Checker`]: its group gives the output
/// validator other arguments (a Kattis test group's
/// `output_validator_args`, issue #34).
#[derive(Clone, Debug)]
pub(crate) enum TestChecker {
    /// The default output validator with that test's flags.
    Builtin(BuiltinChecker),
    /// The checker program's arguments for that test, in place of the
    /// problem's.
    Args(Vec<String>),
}

/// An interactive or multi-pass problem's way of running its checker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Interaction {
    pub(crate) interactive: bool,
    /// `validation_passes` for a multi-pass problem, else 1.
    pub(crate) passes: u32,
}

/// A problem whose parts are a package's programs.
#[derive(Debug)]
pub struct ProgramProblem {
    pub(crate) id: &'static str,
    pub(crate) title: &'static str,
    pub(crate) profiles: &'static [Profile],
    pub(crate) toolbox: Toolbox,
    /// `None`: a package whose tests all carry their `.ans` and that has
    /// no generator; it cannot answer another input.
    pub(crate) reference: Option<Tool>,
    pub(crate) generator: Option<Tool>,
    pub(crate) validator: Option<(Tool, ValidatorExitCodes, Vec<String>)>,
    pub(crate) checker: Checker,
    /// By the name of one of the package's tests, what that test changes
    /// of `checker`; a test not named here uses `checker` as it is.
    pub(crate) test_checkers: BTreeMap<String, TestChecker>,
    /// How the checker program runs when it is not a plain output check.
    pub(crate) interaction: Option<Interaction>,
    /// An interactor of its own (testlib's, problem.toml `[interactor]`):
    /// it talks to the submission, and `checker` (when a program) reads
    /// what it wrote afterwards; without one the checker program is the
    /// interactor (the Kattis protocol).
    pub(crate) interactor: Option<(Tool, crate::interaction::InteractorProtocol)>,
    /// Profiles whose generator was run twice and agreed.
    reproducible: Mutex<HashSet<String>>,
}

impl ProgramProblem {
    /// The package's own programs, each that is one: the reference, the
    /// generator, the input validator, the checker (or output validator)
    /// and the interactor.
    pub(crate) fn programs(&self) -> Vec<&Tool> {
        let checker = match &self.checker {
            Checker::Program { tool, .. } => Some(tool.as_ref()),
            Checker::Builtin(_) => None,
        };
        [
            self.reference.as_ref(),
            self.generator.as_ref(),
            self.validator.as_ref().map(|(tool, _, _)| tool),
            checker,
            self.interactor.as_ref().map(|(tool, _)| tool),
        ]
        .into_iter()
        .flatten()
        .collect()
    }

    /// Hides `hidden` from the package's programs from their next run on
    /// (the command's value, once the grading layer has gathered it).
    pub(crate) fn hide(&self, hidden: &std::sync::Arc<crate::sandbox::Hidden>) {
        self.toolbox.hide(hidden);
    }
}

/// Leaks `text`: a package's id, title and profile names live as long as
/// the process, as the built-in problems' do (a handful per command).
pub(crate) fn leak(text: &str) -> &'static str {
    Box::leak(text.to_owned().into_boxed_str())
}

impl ProgramProblem {
    #[expect(
        clippy::too_many_arguments,
        reason = "the parts of a package, each checked by the caller"
    )]
    pub(crate) fn new(
        id: &str,
        title: &str,
        profiles: &[String],
        toolbox: Toolbox,
        reference: Option<Tool>,
        generator: Option<Tool>,
        validator: Option<(Tool, ValidatorExitCodes, Vec<String>)>,
        checker: Checker,
    ) -> ProgramProblem {
        let profiles: Vec<Profile> = profiles
            .iter()
            .map(|name| Profile {
                name: leak(name),
                about: "the package generator's profile",
            })
            .collect();
        ProgramProblem {
            id: leak(id),
            title: leak(title),
            profiles: Box::leak(profiles.into_boxed_slice()),
            toolbox,
            reference,
            generator,
            validator,
            checker,
            test_checkers: BTreeMap::new(),
            interaction: None,
            interactor: None,
            reproducible: Mutex::new(HashSet::new()),
        }
    }

    /// The checker program talks to the submission (`interactive`) and may
    /// ask for up to `passes` runs of it (multi-pass).
    pub(crate) fn with_interaction(mut self, interaction: Interaction) -> ProgramProblem {
        self.interaction = Some(interaction);
        self
    }

    /// The tests whose group gives the output validator other arguments
    /// (issue #34).
    pub(crate) fn with_test_checkers(
        mut self,
        test_checkers: BTreeMap<String, TestChecker>,
    ) -> ProgramProblem {
        self.test_checkers = test_checkers;
        self
    }

    /// `tool` talks to the submission under `protocol` (an interactive
    /// problem with an interactor of its own).
    pub(crate) fn with_interactor(
        mut self,
        tool: Tool,
        protocol: crate::interaction::InteractorProtocol,
    ) -> ProgramProblem {
        self.interaction = Some(Interaction {
            interactive: true,
            passes: 1,
        });
        self.interactor = Some((tool, protocol));
        self
    }

    fn program_failed(fault: ToolFault) -> InputError {
        InputError {
            line: 0,
            column: None,
            kind: InputErrorKind::ProgramFailed(fault.0),
        }
    }

    /// Runs a program that reads `input` and must write text on stdout and
    /// exit 0 (the reference, the generator); `written` says whether
    /// nothing is text enough.
    fn text_of(
        &self,
        tool: &Tool,
        args: &[&str],
        stdin: Option<&[u8]>,
        written: Written,
    ) -> Result<String, ToolFault> {
        let run = self.toolbox.run(tool, args, stdin, &[], &[], &[])?;
        let measured = &run.measured;
        if let Some(fault) = tool::abnormal_end(tool, measured, self.toolbox.limits()) {
            return Err(fault);
        }
        if let crate::sandbox::Termination::Exited(code) = measured.termination {
            if code == 0 {
                return finish(tool, measured, written);
            }
            return Err(tool.fault(tool::with_stderr(
                &format!("exited with code {code}"),
                measured,
            )));
        }
        finish(tool, measured, written)
    }

    /// One run of the generator.
    fn generate_once(
        &self,
        generator: &Tool,
        seed: u64,
        profile: &str,
    ) -> Result<String, ToolFault> {
        let seed = seed.to_string();
        self.text_of(generator, &[&seed, profile], None, Written::Something)
    }
}

/// What a program that exited 0 must have written on stdout, beside being
/// UTF-8.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Written {
    /// Something besides white space: an input (an empty input is a
    /// generator that failed without saying so).
    Something,
    /// Any text, nothing included: an answer, which may be empty (issue
    /// #29: a Polygon test whose queries ask for no output, answered
    /// empty by the main solution as by Polygon's `.a` file).
    AnyText,
}

/// The text a program that exited 0 wrote: UTF-8, and something unless
/// `written` allows nothing.
fn finish(
    tool: &Tool,
    measured: &crate::sandbox::Measured,
    written: Written,
) -> Result<String, ToolFault> {
    if written == Written::Something && measured.stdout.iter().all(u8::is_ascii_whitespace) {
        return Err(tool.fault(tool::with_stderr("wrote nothing on stdout", measured)));
    }
    String::from_utf8(measured.stdout.clone())
        .map_err(|_| tool.fault("wrote output that is not UTF-8 text"))
}

impl ProgramProblem {
    /// Runs the input validator on `input` with its own arguments, then
    /// `extra` (a Kattis test group's `input_validator_flags`, issue #34).
    pub(crate) fn validate_with(&self, input: &str, extra: &[String]) -> Result<(), InputError> {
        let Some((tool, exit_codes, args)) = &self.validator else {
            return Ok(());
        };
        let args: Vec<&str> = args.iter().chain(extra).map(String::as_str).collect();
        let run = self
            .toolbox
            .run_message(tool, &args, Some(input.as_bytes()), &[], &[], &[])
            .map_err(Self::program_failed)?;
        match protocol::validator_verdict(tool, *exit_codes, &run.measured, self.toolbox.limits()) {
            ValidatorVerdict::Valid => Ok(()),
            ValidatorVerdict::Invalid(message) => Err(InputError::constraint(0, message)),
            ValidatorVerdict::Fault(fault) => Err(Self::program_failed(fault)),
        }
    }
}

impl Problem for ProgramProblem {
    fn id(&self) -> &'static str {
        self.id
    }

    fn title(&self) -> &'static str {
        self.title
    }

    fn profiles(&self) -> &'static [Profile] {
        self.profiles
    }

    fn validate(&self, input: &str, _profile: Option<&str>) -> Result<(), InputError> {
        self.validate_with(input, &[])
    }

    fn solve(&self, input: &str) -> Result<String, InputError> {
        let Some(reference) = &self.reference else {
            return Err(Self::program_failed(ToolFault(format!(
                "the package `{}` has no reference solution (`reference` in problem.toml, an accepted \
                 submission in a Kattis package): \
                 it answers no input but its tests' own `.ans`",
                self.id
            ))));
        };
        self.text_of(reference, &[], Some(input.as_bytes()), Written::AnyText)
            .map_err(Self::program_failed)
    }

    /// The generator is called as `generator SEED PROFILE`, SEED drawn from
    /// `rng`. On the first use of a profile it runs twice, and a generator
    /// that writes two different inputs for one seed is refused (issue #9:
    /// a test must be remade from its seed).
    fn generate(&self, profile: &str, rng: &mut ChaCha8Rng) -> Result<String, GenerateError> {
        let Some(generator) = &self.generator else {
            return Err(GenerateError::Program(format!(
                "the package `{}` has no generator (set `generator` in problem.toml)",
                self.id
            )));
        };
        crate::problems::find_profile(self, profile)?;
        let seed = rng.next_u64();
        let first = self
            .generate_once(generator, seed, profile)
            .map_err(|fault| GenerateError::Program(fault.0))?;
        let checked = self
            .reproducible
            .lock()
            .map(|set| set.contains(profile))
            .unwrap_or(false);
        if !checked {
            let second = self
                .generate_once(generator, seed, profile)
                .map_err(|fault| GenerateError::Program(fault.0))?;
            if first != second {
                return Err(GenerateError::Program(
                    generator
                        .fault(format!(
                            "is not reproducible: seed {seed} (profile `{profile}`) gave two different \
                             inputs{}; a generator must draw its randomness from the seed it is given",
                            protocol::first_difference(&first, &second)
                        ))
                        .0,
                ));
            }
            if let Ok(mut set) = self.reproducible.lock() {
                set.insert(profile.to_owned());
            }
        }
        Ok(first)
    }

    fn check(
        &self,
        input: &str,
        output: &str,
        answer: Option<&str>,
        _options: &CheckOptions,
    ) -> Result<CheckOutcome, CheckerFailure> {
        self.check_as(None, input, output, answer)
    }

    fn check_test(
        &self,
        test: &str,
        input: &str,
        output: &str,
        answer: Option<&str>,
        _options: &CheckOptions,
    ) -> Result<CheckOutcome, CheckerFailure> {
        self.check_as(self.test_checkers.get(test), input, output, answer)
    }

    fn has_generator(&self) -> bool {
        self.generator.is_some()
    }

    fn interactor(
        &self,
    ) -> Option<Result<crate::interaction::InteractorSpec, crate::interaction::InteractorError>>
    {
        self.interactor_as(None)
    }

    fn interactor_for_test(
        &self,
        test: &str,
    ) -> Option<Result<crate::interaction::InteractorSpec, crate::interaction::InteractorError>>
    {
        self.interactor_as(self.test_checkers.get(test))
    }

    fn validates_profiles(&self) -> bool {
        false
    }

    fn shrink(&self, input: &str) -> Vec<String> {
        shrink::generic(input)
    }
}

impl ProgramProblem {
    /// [`Problem::check`] with what a test changes of the checker.
    fn check_as(
        &self,
        changed: Option<&TestChecker>,
        input: &str,
        output: &str,
        answer: Option<&str>,
    ) -> Result<CheckOutcome, CheckerFailure> {
        let solved;
        let answer = match answer {
            Some(answer) => answer,
            None => {
                solved = self
                    .solve(input)
                    .map_err(|error| CheckerFailure::new(error.to_string()))?;
                &solved
            }
        };
        match (&self.checker, changed) {
            (Checker::Builtin(_), Some(TestChecker::Builtin(builtin)))
            | (Checker::Builtin(builtin), _) => Ok(builtin.check(output, answer)),
            (
                Checker::Program {
                    tool,
                    protocol,
                    args,
                },
                changed,
            ) => {
                let args = match changed {
                    Some(TestChecker::Args(args)) => args,
                    _ => args,
                };
                protocol.check(&self.toolbox, tool, args, input, output, answer)
            }
        }
    }

    /// [`Problem::interactor`] with what a test changes of the checker.
    fn interactor_as(
        &self,
        changed: Option<&TestChecker>,
    ) -> Option<Result<crate::interaction::InteractorSpec, crate::interaction::InteractorError>>
    {
        let interaction = self.interaction?;
        if let Some((tool, protocol)) = &self.interactor {
            return Some(
                self.toolbox
                    .interactor_spec(tool, &[], true, 1, *protocol)
                    .map_err(|fault| InteractorError::Tool(fault.0)),
            );
        }
        let Checker::Program { tool, args, .. } = &self.checker else {
            return Some(Err(InteractorError::NoValidator {
                problem: self.id.to_owned(),
                interactive: interaction.interactive,
            }));
        };
        let args = match changed {
            Some(TestChecker::Args(args)) => args,
            _ => args,
        };
        Some(
            self.toolbox
                .interactor_spec(
                    tool,
                    args,
                    interaction.interactive,
                    interaction.passes,
                    crate::interaction::InteractorProtocol::Kattis,
                )
                .map_err(|fault| InteractorError::Tool(fault.0)),
        )
    }
}
