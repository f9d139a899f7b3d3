//! How the runs of one judge process share the machine when several runner
//! calls run at once (`judge grade` grades its problems side by side): at
//! most `jobs` runs at a time across all of them ([`Slots`]), and a run that
//! must be alone waits for every other run of the process to end
//! ([`Alone`]). With one runner call at a time both change nothing: its
//! pool never has more than `jobs` workers.

use std::sync::{Condvar, Mutex, PoisonError, RwLock};

/// Lets one run go with no other run of the process beside it: runs take
/// [`Alone::shared`], a run alone takes [`Alone::exclusive`], which waits
/// for the running ones to end and keeps new ones from starting (the gate)
/// until it is done.
pub(crate) struct Alone {
    gate: Mutex<()>,
    running: RwLock<()>,
}

/// The process's one [`Alone`]: a re-run alone of one problem's test must
/// not share the machine with another problem's tests either.
pub(crate) static ALONE: Alone = Alone {
    gate: Mutex::new(()),
    running: RwLock::new(()),
};

impl Alone {
    pub(crate) fn shared<T>(&self, work: impl FnOnce() -> T) -> T {
        let running = {
            let _gate = self.gate.lock().unwrap_or_else(PoisonError::into_inner);
            self.running.read().unwrap_or_else(PoisonError::into_inner)
        };
        let output = work();
        drop(running);
        output
    }

    pub(crate) fn exclusive<T>(&self, work: impl FnOnce() -> T) -> T {
        let _gate = self.gate.lock().unwrap_or_else(PoisonError::into_inner);
        let _running = self.running.write().unwrap_or_else(PoisonError::into_inner);
        work()
    }
}

/// A count of runs in progress, so that runner calls going at once never
/// run more than `jobs` programs together (more than the cores would turn
/// waits for a core into wall-clock TLEs, issue #8).
pub(crate) struct Slots {
    count: Mutex<Count>,
    freed: Condvar,
}

/// The runs in progress and the workers waiting for one of them to end.
struct Count {
    busy: usize,
    waiting: usize,
}

/// The process's one [`Slots`].
pub(crate) static SLOTS: Slots = Slots::new();

impl Slots {
    const fn new() -> Slots {
        Slots {
            count: Mutex::new(Count {
                busy: 0,
                waiting: 0,
            }),
            freed: Condvar::new(),
        }
    }

    /// Runs `work` once fewer than `jobs` runs are in progress.
    pub(crate) fn with<T>(&self, jobs: usize, work: impl FnOnce() -> T) -> T {
        {
            let mut count = self.count.lock().unwrap_or_else(PoisonError::into_inner);
            while count.busy >= jobs.max(1) {
                count.waiting += 1;
                count = self
                    .freed
                    .wait(count)
                    .unwrap_or_else(PoisonError::into_inner);
                count.waiting -= 1;
            }
            count.busy += 1;
        }
        // Freed even when `work` panics, so no other worker waits forever.
        // A wake-up is a system call even with no one waiting, so it is
        // made only when someone waits (with one runner call at a time,
        // never: its pool has at most `jobs` workers).
        struct Release<'a>(&'a Slots);
        impl Drop for Release<'_> {
            fn drop(&mut self) {
                let mut count = self.0.count.lock().unwrap_or_else(PoisonError::into_inner);
                count.busy -= 1;
                if count.waiting > 0 {
                    self.0.freed.notify_one();
                }
            }
        }
        let _release = Release(self);
        work()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// Eight threads through slots of 2 (a fresh count, not the process's):
    /// never more than 2 at once, and every one gets through.
    #[test]
    fn slots_never_let_more_than_jobs_run_at_once() {
        let slots = Slots::new();
        let (now, most, done) = (
            AtomicUsize::new(0),
            AtomicUsize::new(0),
            AtomicUsize::new(0),
        );
        std::thread::scope(|scope| {
            for _ in 0..8 {
                scope.spawn(|| {
                    slots.with(2, || {
                        let running = now.fetch_add(1, Ordering::SeqCst) + 1;
                        most.fetch_max(running, Ordering::SeqCst);
                        std::thread::sleep(std::time::Duration::from_millis(5));
                        now.fetch_sub(1, Ordering::SeqCst);
                        done.fetch_add(1, Ordering::SeqCst);
                    });
                });
            }
        });
        assert_eq!(done.load(Ordering::SeqCst), 8);
        assert!(most.load(Ordering::SeqCst) <= 2, "{most:?}");
    }
}
