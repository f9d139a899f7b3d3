//! The compiles of one runner call interleaved with its tests (issue 32):
//! a submission is compiled shortly before its tests run, not every
//! submission before any test, so the first results are final (and in the
//! results journal) within seconds of the start rather than after a whole
//! class has compiled, and an interrupted grade keeps them.
//!
//! The work is one list in the order workers take it ([`interleave`]):
//! the compile of a submission comes before its tests and before the
//! tests of the submissions `ahead` of it, so a worker seldom waits for a
//! compile; a test whose compile is still running on another worker
//! waits for it ([`Compiled::wait`]). Which submissions share one
//! compile is decided here too ([`compile_groups`]).

use super::{Prepared, Submission, SubmissionKind};
use crate::interrupt::Cancellation;
use sha2::Digest as _;
use std::ffi::OsString;
use std::sync::{Condvar, Mutex, OnceLock, PoisonError};
use std::time::Duration;

/// One piece of a runner call's work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Item {
    /// Compile submission `.0` (the first of its compile group).
    Compile(usize),
    /// Run test `.1` of submission `.0`.
    Test(usize, usize),
}

/// The work of `first_of_group.len()` submissions with `tests` tests
/// each, in the order workers take it: submission by submission, its
/// tests after the compile of every group whose first submission is at
/// most `ahead` submissions further on (so those compile while its tests
/// run). A compile always comes before the tests of every submission of
/// its group.
pub(super) fn interleave(first_of_group: &[usize], tests: usize, ahead: usize) -> Vec<Item> {
    let compiles: Vec<usize> = (0..first_of_group.len())
        .filter(|&index| first_of_group[index] == index)
        .collect();
    let mut items = Vec::with_capacity(compiles.len() + first_of_group.len() * tests);
    let mut next_compile = 0;
    for submission in 0..first_of_group.len() {
        while let Some(&compile) = compiles.get(next_compile) {
            if compile > submission.saturating_add(ahead) {
                break;
            }
            items.push(Item::Compile(compile));
            next_compile += 1;
        }
        items.extend((0..tests).map(|test| Item::Test(submission, test)));
    }
    items
}

/// How long a test waiting for its compile sleeps between looks at the
/// cancellation (a compile dropped at a stop never comes).
const CANCEL_POLL: Duration = Duration::from_millis(50);

/// Each submission's compile, as it finishes, for the tests that wait.
pub(super) struct Compiled {
    slots: Vec<OnceLock<Prepared>>,
    lock: Mutex<()>,
    ready: Condvar,
}

impl Compiled {
    pub(super) fn new(count: usize) -> Compiled {
        Compiled {
            slots: (0..count).map(|_| OnceLock::new()).collect(),
            lock: Mutex::new(()),
            ready: Condvar::new(),
        }
    }

    /// Keeps submission `index`'s compile and wakes the tests waiting.
    pub(super) fn set(&self, index: usize, prepared: Prepared) {
        let _guard = self.lock.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(slot) = self.slots.get(index) {
            let _ = slot.set(prepared);
        }
        self.ready.notify_all();
    }

    /// Submission `index`'s compile, if it finished.
    pub(super) fn get(&self, index: usize) -> Option<&Prepared> {
        self.slots.get(index)?.get()
    }

    /// Submission `index`'s compile, once it finishes; `None` when `cancel`
    /// is asked first.
    pub(super) fn wait(&self, index: usize, cancel: &Cancellation) -> Option<&Prepared> {
        loop {
            if let Some(prepared) = self.get(index) {
                return Some(prepared);
            }
            if cancel.is_cancelled() {
                return None;
            }
            let guard = self.lock.lock().unwrap_or_else(PoisonError::into_inner);
            if self.get(index).is_some() {
                continue;
            }
            let _ = self
                .ready
                .wait_timeout(guard, CANCEL_POLL)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }
}

/// For each submission, the index of the first submission that compiles to
/// the same program: the same bytes, the same language and the same file
/// name once copied (the language's `source-name`, else the submission's).
/// Only languages with a `compile` step are grouped; executables and
/// interpreted sources have nothing to share.
///
/// The file name is part of the key because the compiler's messages name
/// the file (`alice.cpp:3:5: warning ...`): sharing `alice.cpp`'s compile
/// with `bob.cpp` would put Alice's name in Bob's report. Copies under the
/// same name (a `student/problem` class, Java's `{class}.java`, a file given
/// twice) compile once.
pub(super) fn compile_groups(submissions: &[Submission]) -> Vec<usize> {
    let mut first_by_key: std::collections::HashMap<(String, OsString, [u8; 32]), usize> =
        std::collections::HashMap::new();
    (0..submissions.len())
        .map(|index| {
            let submission = &submissions[index];
            let SubmissionKind::Language { name, language } = &submission.kind else {
                return index;
            };
            if language.compile.is_none() {
                return index;
            }
            let copied_name = match &language.source_name {
                Some(source_name) => OsString::from(source_name),
                None => submission
                    .path
                    .file_name()
                    .map(OsString::from)
                    .unwrap_or_default(),
            };
            // Unreadable or refused: compiling reports why, on its own.
            let read = super::compile::read_submission(&submission.path, &submission.link_scope);
            let Ok(bytes) = read else {
                return index;
            };
            // What is compiled: the bytes with the constants replaced.
            let bytes = match &submission.constants {
                Some(constants) => constants.substitute_bytes(bytes),
                None => bytes,
            };
            let digest: [u8; 32] = sha2::Sha256::digest(&bytes).into();
            *first_by_key
                .entry((name.clone(), copied_name, digest))
                .or_insert(index)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use Item::{Compile, Test};

    #[test]
    fn compiles_come_ahead_of_the_tests_of_their_groups() {
        // Five submissions, the fourth compiled with the second (same
        // source), two tests each, one submission ahead.
        let items = interleave(&[0, 1, 2, 1, 4], 2, 1);
        assert_eq!(
            items,
            [
                Compile(0),
                Compile(1),
                Test(0, 0),
                Test(0, 1),
                Compile(2),
                Test(1, 0),
                Test(1, 1),
                Test(2, 0),
                Test(2, 1),
                Compile(4),
                Test(3, 0),
                Test(3, 1),
                Test(4, 0),
                Test(4, 1),
            ]
        );
        // Every test after its group's compile, for any look-ahead.
        for ahead in 0..4 {
            let first_of_group = [0, 1, 0, 3, 1, 5, 3];
            let items = interleave(&first_of_group, 3, ahead);
            for (position, item) in items.iter().enumerate() {
                if let Test(submission, _) = *item {
                    let compile = Compile(first_of_group[submission]);
                    assert!(items[..position].contains(&compile), "{ahead}: {items:?}");
                }
            }
            let compiles = items.iter().filter(|item| matches!(item, Compile(_)));
            assert_eq!(compiles.count(), 4);
            assert_eq!(items.len(), 4 + 7 * 3);
        }
    }

    #[test]
    fn a_wait_ends_with_the_compile_or_at_a_stop() {
        let compiled = Compiled::new(2);
        let cancel = Cancellation::new();
        std::thread::scope(|scope| {
            let waiter = scope.spawn(|| compiled.wait(1, &cancel).map(|p| p.program.is_none()));
            compiled.set(1, Prepared::failed(super::super::CompileResult::not_run()));
            assert_eq!(waiter.join().unwrap(), Some(true));
        });
        cancel.cancel();
        assert!(compiled.wait(0, &cancel).is_none());
    }
}
