//! Grading a class's problems side by side (issue #19): each problem's
//! grading runs on a thread of its own, so one problem's waits (a TLE
//! example at its wall limit) overlap the other problems' tests, while the
//! runner keeps every run of the process within `jobs` at once and a run
//! alone alone among all of them (`crate::runner`'s `share`).
//!
//! What the observer sees does not change: the events of the problem whose
//! turn it is (in the order problems were graded one after another) are
//! passed on as they happen, a later problem's are kept and passed on, in
//! their own order, when its turn comes. So the progress line and the
//! reports see exactly the sequence a one-at-a-time grade gives. Only the
//! results journal is told of each finished pair as it finishes, whatever
//! its problem's turn (`on_finished`): a grade killed while an earlier
//! problem waits must not lose a later problem's finished pairs.

use super::grade::GradedResult;
use super::problem::{ClassEvent, ProblemGraded};
use super::settings::SettingsWarning;
use super::GradingError;
use crate::runner::{CompileResult, Event, SubmissionResult, TestResult};
use std::sync::{mpsc, Condvar, Mutex, PoisonError};

/// A [`ClassEvent`] with what it borrows owned, to cross to the thread
/// that passes it on.
#[derive(Debug)]
enum Owned {
    Pairs(usize),
    Problem(String),
    Settings(SettingsWarning),
    Tests(usize),
    Compiled {
        submission: String,
        compile: CompileResult,
    },
    Tested {
        submission: String,
        test: Box<TestResult>,
    },
    Submitted(Box<SubmissionResult>),
    Running {
        submission: String,
        started: bool,
    },
    Graded,
    Finished(Box<GradedResult>),
}

impl Owned {
    fn of(event: &ClassEvent<'_>) -> Owned {
        match event {
            ClassEvent::Pairs(count) => Owned::Pairs(*count),
            ClassEvent::Problem(id) => Owned::Problem((*id).to_owned()),
            ClassEvent::Settings(warning) => Owned::Settings((*warning).clone()),
            ClassEvent::Tests(count) => Owned::Tests(*count),
            ClassEvent::Run(Event::CompileFinished {
                submission,
                compile,
            }) => Owned::Compiled {
                submission: (*submission).to_owned(),
                compile: (*compile).clone(),
            },
            ClassEvent::Run(Event::TestFinished { submission, test }) => Owned::Tested {
                submission: (*submission).to_owned(),
                test: Box::new((*test).clone()),
            },
            ClassEvent::Run(Event::SubmissionFinished { result }) => {
                Owned::Submitted(Box::new((*result).clone()))
            }
            ClassEvent::Run(Event::TestRunning {
                submission,
                started,
            }) => Owned::Running {
                submission: (*submission).to_owned(),
                started: *started,
            },
            ClassEvent::Graded => Owned::Graded,
            ClassEvent::Finished(graded) => Owned::Finished(Box::new((*graded).clone())),
        }
    }

    /// Passes the event on as the [`ClassEvent`] it was.
    fn replay(&self, on_event: &mut dyn FnMut(ClassEvent<'_>)) {
        on_event(match self {
            Owned::Pairs(count) => ClassEvent::Pairs(*count),
            Owned::Problem(id) => ClassEvent::Problem(id),
            Owned::Settings(warning) => ClassEvent::Settings(warning),
            Owned::Tests(count) => ClassEvent::Tests(*count),
            Owned::Compiled {
                submission,
                compile,
            } => ClassEvent::Run(Event::CompileFinished {
                submission,
                compile,
            }),
            Owned::Tested { submission, test } => {
                ClassEvent::Run(Event::TestFinished { submission, test })
            }
            Owned::Submitted(result) => ClassEvent::Run(Event::SubmissionFinished { result }),
            Owned::Running {
                submission,
                started,
            } => ClassEvent::Run(Event::TestRunning {
                submission,
                started: *started,
            }),
            Owned::Graded => ClassEvent::Graded,
            Owned::Finished(graded) => ClassEvent::Finished(graded),
        });
    }
}

/// What a problem's thread tells the passing-on thread.
enum Word {
    Event(Owned),
    Done(Result<ProblemGraded, GradingError>),
}

/// One problem's grading: given a sink for its events, its graded pairs.
pub(super) type Job<'a> = Box<
    dyn FnOnce(&mut dyn FnMut(ClassEvent<'_>)) -> Result<ProblemGraded, GradingError> + Send + 'a,
>;

/// Runs the jobs side by side, each on its own thread, at most `at_once`
/// at a time and started in job order (each running job holds its
/// workers' sandboxes: a class of many problems must not set up a pool per
/// problem at once), and returns their results in job order, `on_event`
/// seeing each job's events in job order as described in the module doc,
/// and `on_finished` each [`ClassEvent::Finished`] pair as soon as its job
/// sends it (before `on_event` sees it, in its turn). The first job (in order) that fails stops the others (`stop`) and its
/// error is returned.
pub(super) fn grade_side_by_side(
    jobs: Vec<Job<'_>>,
    at_once: usize,
    stop: &(dyn Fn() + Sync),
    on_finished: &mut dyn FnMut(&GradedResult),
    on_event: &mut dyn FnMut(ClassEvent<'_>),
) -> Result<Vec<ProblemGraded>, GradingError> {
    let count = jobs.len();
    // (the next job to start, the jobs running)
    let turns = (Mutex::new((0usize, 0usize)), Condvar::new());
    std::thread::scope(|scope| {
        let (sender, receiver) = mpsc::channel::<(usize, Word)>();
        for (index, job) in jobs.into_iter().enumerate() {
            let sender = sender.clone();
            let turns = &turns;
            scope.spawn(move || {
                let (state, changed) = turns;
                {
                    let mut started = state.lock().unwrap_or_else(PoisonError::into_inner);
                    while started.0 != index || started.1 >= at_once.max(1) {
                        started = changed
                            .wait(started)
                            .unwrap_or_else(PoisonError::into_inner);
                    }
                    *started = (index + 1, started.1 + 1);
                    changed.notify_all();
                }
                // The turn is given back even when the job panics, so the
                // jobs after it still start (and the panic reaches the caller).
                struct Leave<'a>(&'a (Mutex<(usize, usize)>, Condvar));
                impl Drop for Leave<'_> {
                    fn drop(&mut self) {
                        let (state, changed) = self.0;
                        state.lock().unwrap_or_else(PoisonError::into_inner).1 -= 1;
                        changed.notify_all();
                    }
                }
                let _leave = Leave(turns);
                let graded = job(&mut |event| {
                    // The receiver lives until every job is done.
                    let _ = sender.send((index, Word::Event(Owned::of(&event))));
                });
                let _ = sender.send((index, Word::Done(graded)));
            });
        }
        drop(sender);
        let mut held: Vec<Vec<Owned>> = (0..count).map(|_| Vec::new()).collect();
        let mut done: Vec<Option<Result<ProblemGraded, GradingError>>> =
            (0..count).map(|_| None).collect();
        let mut turn = 0;
        let mut graded = Vec::with_capacity(count);
        let mut failed = None;
        for (index, word) in receiver {
            if let Word::Event(Owned::Finished(graded)) = &word {
                on_finished(graded);
            }
            match word {
                Word::Event(event) if index == turn && failed.is_none() => event.replay(on_event),
                Word::Event(event) => held[index].push(event),
                Word::Done(result) => done[index] = Some(result),
            }
            // The jobs whose turn has come and gone, in order.
            while failed.is_none() && turn < count {
                let Some(result) = done[turn].take() else {
                    break;
                };
                match result {
                    Ok(problem) => graded.push(problem),
                    Err(error) => {
                        stop();
                        failed = Some(error);
                        break;
                    }
                }
                turn += 1;
                if let Some(next) = held.get_mut(turn) {
                    for event in next.drain(..) {
                        event.replay(on_event);
                    }
                }
            }
        }
        match failed {
            Some(error) => Err(error),
            None => Ok(graded),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem(tag: &str) -> ProblemGraded {
        ProblemGraded {
            results: Vec::new(),
            not_graded: vec![crate::report::Ungraded {
                submission: tag.to_owned(),
                problem: tag.to_owned(),
                student: tag.to_owned(),
                recorded: true,
            }],
        }
    }

    /// Three jobs where the last finishes first and the first last (`a`
    /// waits for `b`, which waits for `c`: jobs run one after another would
    /// never end): the events come out job by job in job order, each job's
    /// in its own order, and the results in job order.
    #[test]
    fn events_and_results_come_out_in_job_order_whatever_finishes_first() {
        let (first_go, first_wait) = mpsc::channel::<()>();
        let (second_go, second_wait) = mpsc::channel::<()>();
        let first_wait = std::sync::Mutex::new(first_wait);
        let second_wait = std::sync::Mutex::new(second_wait);
        let jobs: Vec<Job<'_>> = vec![
            Box::new(|on_event| {
                on_event(ClassEvent::Problem("a"));
                first_wait.lock().unwrap().recv().unwrap();
                on_event(ClassEvent::Tests(1));
                Ok(problem("a"))
            }),
            Box::new(|on_event| {
                on_event(ClassEvent::Problem("b"));
                second_wait.lock().unwrap().recv().unwrap();
                on_event(ClassEvent::Tests(2));
                first_go.send(()).unwrap();
                Ok(problem("b"))
            }),
            Box::new(|on_event| {
                on_event(ClassEvent::Problem("c"));
                on_event(ClassEvent::Tests(3));
                second_go.send(()).unwrap();
                Ok(problem("c"))
            }),
        ];
        let mut seen = Vec::new();
        let graded = grade_side_by_side(jobs, 3, &|| {}, &mut |_| {}, &mut |event| {
            seen.push(format!("{event:?}"))
        })
        .unwrap();
        assert_eq!(
            seen,
            [
                "Problem(\"a\")",
                "Tests(1)",
                "Problem(\"b\")",
                "Tests(2)",
                "Problem(\"c\")",
                "Tests(3)"
            ]
        );
        let order: Vec<&str> = graded
            .iter()
            .map(|problem| problem.not_graded[0].problem.as_str())
            .collect();
        assert_eq!(order, ["a", "b", "c"]);
    }

    /// Four jobs, one and then two at a time: never more than that run at
    /// once, and they start in job order. A job's first step after taking
    /// its turn is not in that order when two start together (the later
    /// one's thread may be scheduled first: seen under load), so with two
    /// at a time the order shows as what it implies: job `i` starts only
    /// once `i - 1` jobs have ended.
    #[test]
    fn at_most_at_once_jobs_run_and_they_start_in_order() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        for at_once in [1, 2] {
            let (now, most, ended) = (
                AtomicUsize::new(0),
                AtomicUsize::new(0),
                AtomicUsize::new(0),
            );
            let order = Mutex::new(Vec::new());
            let jobs: Vec<Job<'_>> = (0..4)
                .map(|index| -> Job<'_> {
                    let (now, most, ended, order) = (&now, &most, &ended, &order);
                    Box::new(move |_| {
                        order
                            .lock()
                            .unwrap()
                            .push((index, ended.load(Ordering::SeqCst)));
                        most.fetch_max(now.fetch_add(1, Ordering::SeqCst) + 1, Ordering::SeqCst);
                        std::thread::sleep(std::time::Duration::from_millis(20));
                        now.fetch_sub(1, Ordering::SeqCst);
                        ended.fetch_add(1, Ordering::SeqCst);
                        Ok(problem("x"))
                    })
                })
                .collect();
            let graded =
                grade_side_by_side(jobs, at_once, &|| {}, &mut |_| {}, &mut |_| {}).unwrap();
            assert_eq!(graded.len(), 4);
            assert!(most.load(Ordering::SeqCst) <= at_once, "{most:?}");
            let order = order.into_inner().unwrap();
            if at_once == 1 {
                assert_eq!(order, [(0, 0), (1, 1), (2, 2), (3, 3)]);
            }
            for &(index, ended_before) in &order {
                assert!(
                    ended_before + at_once > index,
                    "job {index} started with {ended_before} ended ({at_once} at once): {order:?}"
                );
            }
        }
    }

    /// The first failing job in order is the error, and it stops the rest.
    #[test]
    fn the_first_failure_in_order_is_returned_and_stops_the_others() {
        let stopped = std::sync::atomic::AtomicBool::new(false);
        let jobs: Vec<Job<'_>> = vec![
            Box::new(|_| Ok(problem("a"))),
            Box::new(|_| Err(GradingError::UncheckedInputs("b failed".to_owned()))),
            Box::new(|_| Err(GradingError::UncheckedInputs("c failed".to_owned()))),
        ];
        let error = grade_side_by_side(
            jobs,
            2,
            &|| stopped.store(true, std::sync::atomic::Ordering::SeqCst),
            &mut |_| {},
            &mut |_| {},
        )
        .unwrap_err();
        assert_eq!(error.to_string(), "b failed");
        assert!(stopped.load(std::sync::atomic::Ordering::SeqCst));
    }

    fn finished(problem: &str) -> GradedResult {
        let result = SubmissionResult {
            language: "python3".to_owned(),
            ..SubmissionResult::fixture(problem, &format!("submissions/{problem}/x.py"), Vec::new())
        };
        GradedResult::fixture(result, "x")
    }

    /// The results journal's sink: a later job's finished pair reaches
    /// `on_finished` while the first job is still running (the first job
    /// waits for it to be seen, so a sink told only in turn would leave it
    /// waiting: it gives up after a minute and fails), and `on_event` still
    /// sees it in its turn, after the first job's events.
    #[test]
    fn a_later_jobs_finished_pair_is_told_at_once_while_the_first_runs() {
        let (seen_go, seen_wait) = mpsc::channel::<String>();
        let seen_wait = Mutex::new(seen_wait);
        let (first, second) = (finished("a"), finished("b"));
        let jobs: Vec<Job<'_>> = vec![
            Box::new(|on_event| {
                on_event(ClassEvent::Problem("a"));
                let told = seen_wait
                    .lock()
                    .unwrap()
                    .recv_timeout(std::time::Duration::from_secs(60));
                assert_eq!(
                    told.as_deref(),
                    Ok("b"),
                    "b's pair was not told while a ran"
                );
                on_event(ClassEvent::Finished(&first));
                Ok(problem("a"))
            }),
            Box::new(|on_event| {
                on_event(ClassEvent::Problem("b"));
                on_event(ClassEvent::Finished(&second));
                Ok(problem("b"))
            }),
        ];
        let mut told = Vec::new();
        let mut events = Vec::new();
        grade_side_by_side(
            jobs,
            2,
            &|| {},
            &mut |graded| {
                told.push(graded.result.problem.clone());
                let _ = seen_go.send(graded.result.problem.clone());
            },
            &mut |event| {
                events.push(match event {
                    ClassEvent::Finished(graded) => format!("Finished({})", graded.result.problem),
                    other => format!("{other:?}"),
                })
            },
        )
        .unwrap();
        assert_eq!(told, ["b", "a"]);
        assert_eq!(
            events,
            [
                "Problem(\"a\")",
                "Finished(a)",
                "Problem(\"b\")",
                "Finished(b)"
            ]
        );
    }
}
