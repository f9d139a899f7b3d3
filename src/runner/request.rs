//! One call of the runner ([`RunRequest`]) and the TLE examples it runs at
//! a margin ([`Margin`]): their verdicts decided at the 1x limits from the
//! same run, as problemtools runs at the time limit times its safety margin
//! and classifies against the real limit.

use super::{Settings, Submission, TestCase, Workspace};
use crate::interrupt::Cancellation;
use crate::problems::Problem;
use crate::sandbox::{Hidden, Limits};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

/// What one runner call runs, and how.
#[derive(Clone, Copy)]
pub(crate) struct RunRequest<'a> {
    pub(crate) problem: &'a dyn Problem,
    pub(crate) submissions: &'a [Submission],
    pub(crate) tests: &'a [TestCase],
    pub(crate) settings: &'a Settings,
    pub(crate) workspace: &'a Workspace,
    /// What no run or compile of the call may see: the command's one value
    /// (the grading layer gathers it: its packages' secret folders, a
    /// `--tests` folder, a class's submissions folder and the folder each
    /// submission was handed in from). The runner adds nothing to it.
    pub(crate) hidden: &'a Arc<Hidden>,
    pub(crate) cancel: &'a Cancellation,
    /// The submissions that run at a margin; `None`: every one runs at
    /// `settings`' limits.
    pub(crate) margin: Option<&'a Margin>,
}

/// How a test's run at the margin ended, when its 1x verdict is decided
/// from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AtMargin {
    /// Accepted within the raised limits.
    Passed,
    /// Not accepted within them.
    Failed,
    /// TLE from the raised wall clock alone, its CPU time under the raised
    /// CPU limit, while it wanted a core (see `execute::wall_time_only`):
    /// beside other runs it may have waited for one, so only a run alone
    /// says whether it passes with more time.
    WaitedForACore,
}

/// The submissions of a runner call that are TLE examples: each of their
/// tests runs once at `limits` (the time limit times the margin), and its
/// verdict is the one a run at the 1x limits gives
/// (`Sandbox::run_marked`); how the run at the margin ended is noted
/// here, for the warning "passes with more time".
pub(crate) struct Margin {
    /// The raised limits, before a language's time factor.
    limits: Limits,
    /// Per submission of the call: whether it runs at `limits`.
    submissions: Vec<bool>,
    /// Per (submission, test) run at the margin: whether it passed there.
    /// Tests of an interactive problem are never run at the margin (their
    /// runner decides at one set of limits) and are absent.
    passed: Mutex<HashMap<(usize, usize), bool>>,
}

impl Margin {
    pub(crate) fn new(limits: Limits, submissions: Vec<bool>) -> Margin {
        Margin {
            limits,
            submissions,
            passed: Mutex::new(HashMap::new()),
        }
    }

    /// The raised limits of `submission` (the call's `index`-th), scaled by
    /// its language's time factor as its 1x limits are; `None` when it runs
    /// at the 1x limits.
    pub(crate) fn limits_for(&self, index: usize, submission: &Submission) -> Option<Limits> {
        self.submissions
            .get(index)
            .copied()
            .unwrap_or(false)
            .then(|| submission.limits(&self.limits))
    }

    pub(super) fn note(&self, submission: usize, test: usize, passed: bool) {
        self.passed
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert((submission, test), passed);
    }

    /// Whether `test` (an index into the call's tests) of `submission`
    /// passed at the margin; `None` when it was not run there.
    pub(crate) fn passed(&self, submission: usize, test: usize) -> Option<bool> {
        self.passed
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&(submission, test))
            .copied()
    }
}
