//! What `judge run`, `judge grade` and `judge grade --package` are doing,
//! as data for a progress line (issue #17: a frozen
//! `0/3 submissions graded, 0s (matchsticks)` looked hung for 12 s): how
//! many submissions are graded, which one runs and how far its tests are.
//! Built from the events the grading tells its observer
//! ([`ClassEvent`]); the command line only draws it.

use super::problem::ClassEvent;
use crate::report::progress::ProgressLine;
use crate::runner::events::CompileState;
use crate::runner::Event;
use std::collections::VecDeque;

/// The state of a grading run, folded from its events.
#[derive(Debug, Default)]
pub(crate) struct Progress {
    /// Submissions (pairs) to grade in all.
    total: u64,
    graded: u64,
    /// The problem whose submissions are graded now.
    problem: Option<String>,
    /// Tests each submission of this problem runs.
    tests: usize,
    /// Submissions of this problem that compiled and are not finished, in
    /// the order their tests are handed back; the first is the one shown.
    running: VecDeque<String>,
    /// Tests of the first of `running` handed back so far.
    done: usize,
    /// The submissions with a test on a worker now, in the order they
    /// started, each with how many of its tests are on workers (with
    /// `jobs = 2` two submissions can run at once: the line names each).
    on_workers: Vec<(String, usize)>,
}

impl Progress {
    /// Nothing graded yet.
    pub(crate) fn new() -> Progress {
        Progress {
            total: 0,
            graded: 0,
            problem: None,
            tests: 0,
            running: VecDeque::new(),
            done: 0,
            on_workers: Vec::new(),
        }
    }

    /// Takes in one event.
    pub(crate) fn observe(&mut self, event: &ClassEvent<'_>) {
        match event {
            ClassEvent::Pairs(count) => self.total = *count as u64,
            ClassEvent::Problem(id) => {
                self.problem = Some((*id).to_owned());
                self.running.clear();
                self.done = 0;
                self.on_workers.clear();
            }
            ClassEvent::Tests(count) => self.tests = *count,
            ClassEvent::Graded => self.graded = (self.graded + 1).min(self.total),
            ClassEvent::Run(event) => self.observe_run(event),
            ClassEvent::Settings(_) | ClassEvent::Finished(_) => {}
        }
    }

    fn observe_run(&mut self, event: &Event<'_>) {
        match event {
            Event::CompileFinished {
                submission,
                compile,
            } => {
                if compile.state() == CompileState::Compiled {
                    self.running.push_back((*submission).to_owned());
                }
            }
            Event::TestFinished { submission, .. } => {
                // Tests come back in submission order: one of a later
                // submission means those before it are done (the rest of
                // their tests skipped after a failure).
                while self
                    .running
                    .front()
                    .is_some_and(|front| front != submission)
                    && self.running.iter().any(|name| name == submission)
                {
                    self.running.pop_front();
                    self.done = 0;
                }
                self.done += 1;
            }
            Event::TestRunning {
                submission,
                started,
            } => {
                let at = self
                    .on_workers
                    .iter()
                    .position(|(name, _)| name == submission);
                match (at, *started) {
                    (Some(at), true) => {
                        if let Some((_, count)) = self.on_workers.get_mut(at) {
                            *count += 1;
                        }
                    }
                    (None, true) => self.on_workers.push(((*submission).to_owned(), 1)),
                    (Some(at), false) => {
                        if let Some((_, count)) = self.on_workers.get_mut(at) {
                            *count = count.saturating_sub(1);
                            if *count == 0 {
                                self.on_workers.remove(at);
                            }
                        }
                    }
                    (None, false) => {}
                }
            }
            Event::SubmissionFinished { result } => {
                if let Some(position) = self
                    .running
                    .iter()
                    .position(|name| *name == result.submission)
                {
                    if position == 0 {
                        self.done = 0;
                    }
                    self.running.remove(position);
                }
            }
        }
    }

    /// What a progress line shows now: the test running is the one after
    /// those handed back; when tests of several submissions are on the
    /// workers, each of them is named (`2 running: a.py, c.py`).
    pub(crate) fn line(&self) -> ProgressLine {
        let (mut test, mut running) = match self.running.front() {
            Some(name) if self.tests > 0 => (
                Some(((self.done + 1).min(self.tests), self.tests)),
                name.clone(),
            ),
            Some(name) => (None, name.clone()),
            None => (None, self.problem.clone().unwrap_or_default()),
        };
        if let [(only, _)] = self.on_workers.as_slice() {
            // The one on a worker is not the first not finished (whose
            // tests are all back, its result not yet): tests come back in
            // submission order, so none of this one's are back, and the
            // count is its own, not the first's (`test 17/17` beside a
            // submission on its first test, seen with `jobs = 2`).
            if self.running.front() != Some(only) {
                test = (self.tests > 0 && self.running.contains(only)).then_some((1, self.tests));
            }
            running.clone_from(only);
        } else if self.on_workers.len() > 1 {
            let names: Vec<&str> = self
                .on_workers
                .iter()
                .map(|(name, _)| name.as_str())
                .collect();
            running = format!("{} running: {}", names.len(), names.join(", "));
        }
        ProgressLine {
            graded: self.graded,
            total: self.total,
            test,
            running,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::{CompileResult, SubmissionResult, TestResult};
    use crate::verdict::Verdict;

    fn test_result() -> TestResult {
        serde_json::from_value(serde_json::json!({
            "name": "t", "verdict": "AC", "time_ms": 1, "wall_ms": 1, "memory_kib": 1,
            "exit_code": 0, "signal": null, "message": ""
        }))
        .unwrap()
    }

    fn finished(name: &str) -> SubmissionResult {
        let mut result = SubmissionResult::fixture("rooks", name, Vec::new());
        result.total = 3;
        result
    }

    #[test]
    fn counts_tests_and_names_the_submission_that_runs() {
        let mut progress = Progress::new();
        progress.observe(&ClassEvent::Pairs(3));
        progress.observe(&ClassEvent::Problem("rooks"));
        assert_eq!(progress.line().running, "rooks");
        assert_eq!(progress.line().test, None);
        progress.observe(&ClassEvent::Tests(3));
        let ok = CompileResult::compiled(String::new());
        let failed = CompileResult::failed(Verdict::CompileError, "no".to_owned());
        for (name, compile) in [("a.py", &ok), ("b.cpp", &failed), ("c.py", &ok)] {
            progress.observe(&ClassEvent::Run(Event::CompileFinished {
                submission: name,
                compile,
            }));
        }
        assert_eq!(progress.line().running, "a.py");
        assert_eq!(progress.line().test, Some((1, 3)));
        let test = test_result();
        progress.observe(&ClassEvent::Run(Event::TestFinished {
            submission: "a.py",
            test: &test,
        }));
        assert_eq!(progress.line().test, Some((2, 3)));
        // a.py stopped at its first failure: c.py's test comes next.
        progress.observe(&ClassEvent::Run(Event::TestFinished {
            submission: "c.py",
            test: &test,
        }));
        assert_eq!(progress.line().running, "c.py");
        assert_eq!(progress.line().test, Some((2, 3)));
        progress.observe(&ClassEvent::Graded);
        progress.observe(&ClassEvent::Graded);
        let result = finished("c.py");
        progress.observe(&ClassEvent::Run(Event::SubmissionFinished {
            result: &result,
        }));
        progress.observe(&ClassEvent::Graded);
        let line = progress.line();
        assert_eq!((line.graded, line.total), (3, 3));
        assert_eq!(line.running, "rooks");
        // Never more graded than there are.
        progress.observe(&ClassEvent::Graded);
        assert_eq!(progress.line().graded, 3);
    }

    #[test]
    fn names_each_submission_with_a_test_on_a_worker() {
        let mut progress = Progress::new();
        progress.observe(&ClassEvent::Pairs(2));
        progress.observe(&ClassEvent::Problem("rooks"));
        progress.observe(&ClassEvent::Tests(1));
        let ok = CompileResult::compiled(String::new());
        for name in ["a.py", "b.py"] {
            progress.observe(&ClassEvent::Run(Event::CompileFinished {
                submission: name,
                compile: &ok,
            }));
        }
        let running = |submission, started| {
            ClassEvent::Run(Event::TestRunning {
                submission,
                started,
            })
        };
        progress.observe(&running("a.py", true));
        assert_eq!(progress.line().running, "a.py");
        progress.observe(&running("b.py", true));
        assert_eq!(progress.line().running, "2 running: a.py, b.py");
        progress.observe(&running("a.py", false));
        progress.observe(&running("b.py", true));
        progress.observe(&running("b.py", false));
        assert_eq!(progress.line().running, "b.py");
        // None on a worker: the first not finished, as before.
        progress.observe(&running("b.py", false));
        progress.observe(&running("b.py", false));
        assert_eq!(progress.line().running, "a.py");
    }

    #[test]
    fn the_test_count_is_that_of_the_submission_named() {
        let mut progress = Progress::new();
        progress.observe(&ClassEvent::Pairs(2));
        progress.observe(&ClassEvent::Problem("rooks"));
        progress.observe(&ClassEvent::Tests(2));
        let ok = CompileResult::compiled(String::new());
        for name in ["a.py", "b.py"] {
            progress.observe(&ClassEvent::Run(Event::CompileFinished {
                submission: name,
                compile: &ok,
            }));
        }
        let test = test_result();
        for _ in 0..2 {
            progress.observe(&ClassEvent::Run(Event::TestFinished {
                submission: "a.py",
                test: &test,
            }));
        }
        // a.py's tests are all back, its result not yet; b.py's first
        // test is the one on a worker.
        progress.observe(&ClassEvent::Run(Event::TestRunning {
            submission: "b.py",
            started: true,
        }));
        let line = progress.line();
        assert_eq!(line.running, "b.py");
        assert_eq!(line.test, Some((1, 2)));
    }
}
