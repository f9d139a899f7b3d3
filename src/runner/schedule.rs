//! A bounded pool of worker threads, each with its own [`Sandbox`], that
//! hands results back in item order.
//!
//! Each worker sets its sandbox up once and reuses it for every item it
//! takes, and results come back over a channel. The
//! calling thread receives completions, holds early ones back, and passes
//! each to `emit` in item order, so what a report sees does not depend on
//! the number of workers or on timing.
//!
//! A [`Cancellation`] stops the pool early: no worker takes another item,
//! and an item that finishes after the request is dropped (the sandbox may
//! have cut it short, so its result is not a verdict). What is emitted is
//! then the longest prefix of items that finished before the request.

use crate::interrupt::Cancellation;
use crate::sandbox::{Hidden, Sandbox, SandboxError};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};

/// Runs `work` on every item with `jobs` workers (each sandbox under
/// `root`, hiding `hidden`), calling `emit` with each result in item order. Fails when a worker could not set its sandbox up;
/// results already emitted stay emitted. After `cancel` only a prefix of
/// the items is emitted (see the module doc); the caller asks `cancel`.
pub(crate) fn run_ordered<Item, Output>(
    jobs: usize,
    root: &Path,
    hidden: &Arc<Hidden>,
    items: &[Item],
    cancel: &Cancellation,
    work: impl Fn(&mut Sandbox, &Item) -> Output + Sync,
    mut emit: impl FnMut(usize, Output),
) -> Result<(), SandboxError>
where
    Item: Sync,
    Output: Send,
{
    run_ordered_watched(jobs, root, hidden, items, cancel, work, |handed| {
        if let Handed::Output(index, output) = handed {
            emit(index, output);
        }
    })
}

/// What [`run_ordered_watched`] hands its caller: as they happen, that a
/// worker took an item and that it finished it (in any order); and each
/// item's output in item order.
pub(crate) enum Handed<Output> {
    Started(usize),
    Ended(usize),
    Output(usize, Output),
}

/// [`run_ordered`], also telling when each item starts and ends (what a
/// progress line names as running, issue #17).
pub(crate) fn run_ordered_watched<Item, Output>(
    jobs: usize,
    root: &Path,
    hidden: &Arc<Hidden>,
    items: &[Item],
    cancel: &Cancellation,
    work: impl Fn(&mut Sandbox, &Item) -> Output + Sync,
    mut emit: impl FnMut(Handed<Output>),
) -> Result<(), SandboxError>
where
    Item: Sync,
    Output: Send,
{
    if items.is_empty() {
        return Ok(());
    }
    let workers = jobs.clamp(1, items.len());
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        let (sender, receiver) = mpsc::channel::<Result<Message<Output>, SandboxError>>();
        for _ in 0..workers {
            let sender = sender.clone();
            let (next, work) = (&next, &work);
            scope.spawn(move || {
                let mut sandbox = match Sandbox::new(root, Arc::clone(hidden)) {
                    Ok(sandbox) => sandbox,
                    Err(error) => {
                        let _ = sender.send(Err(error));
                        return;
                    }
                };
                // The next item is taken before this one is handed back, so
                // one message tells both and the calling thread wakes once
                // per item, not twice (a wake-up costs a futex call on each
                // side and a switch of threads, issue #19).
                let take = || {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    items.get(index).map(|item| (index, item))
                };
                if cancel.is_cancelled() {
                    return;
                }
                let Some(mut current) = take() else { return };
                if sender.send(Ok(Message::Started(current.0))).is_err() {
                    return;
                }
                loop {
                    let (index, item) = current;
                    let output = work(&mut sandbox, item);
                    if cancel.is_cancelled() {
                        let _ = sender.send(Ok(Message::Dropped(index)));
                        return;
                    }
                    let following = take();
                    let started = following.map(|(index, _)| index);
                    if sender
                        .send(Ok(Message::Done(index, output, started)))
                        .is_err()
                    {
                        return; // the caller gave up
                    }
                    let Some(taken) = following else { return };
                    // Told as started, so told as ended too, unrun.
                    if cancel.is_cancelled() {
                        let _ = sender.send(Ok(Message::Dropped(taken.0)));
                        return;
                    }
                    current = taken;
                }
            });
        }
        drop(sender);
        let mut pending = BTreeMap::new();
        let mut expected = 0;
        for message in receiver {
            let (index, output, started) = match message {
                Ok(Message::Started(index)) => {
                    emit(Handed::Started(index));
                    continue;
                }
                Ok(Message::Dropped(index)) => {
                    emit(Handed::Ended(index));
                    continue;
                }
                Ok(Message::Done(index, output, started)) => (index, output, started),
                Err(error) => {
                    // Stop handing out work; running items finish and are dropped.
                    next.store(items.len(), Ordering::Relaxed);
                    return Err(error);
                }
            };
            emit(Handed::Ended(index));
            pending.insert(index, output);
            while let Some(output) = pending.remove(&expected) {
                emit(Handed::Output(expected, output));
                expected += 1;
            }
            if let Some(started) = started {
                emit(Handed::Started(started));
            }
        }
        Ok(())
    })
}

/// A worker's word to the calling thread.
enum Message<Output> {
    Started(usize),
    /// Finished after a stop was asked for: no output.
    Dropped(usize),
    /// Finished, with the item the worker took next (if any), which has
    /// started.
    Done(usize, Output, Option<usize>),
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Items 0..20 where item 6's work requests the stop: what is emitted
    /// is a prefix of the items before 6 (item 6 finished after the request
    /// and is dropped; so may be items still running beside it), in order,
    /// and no item is taken after the request.
    fn emitted_after_cancel_at_item_6(jobs: usize) -> Vec<usize> {
        let root = tempfile::tempdir().unwrap();
        let cancel = Cancellation::new();
        let items: Vec<usize> = (0..20).collect();
        let taken = AtomicUsize::new(0);
        // How many were taken when the stop was asked: under load the
        // other workers may be far past item 6 by then (its worker
        // descheduled before it asks), so the bound counts from there.
        let taken_at_stop = AtomicUsize::new(usize::MAX);
        let mut emitted = Vec::new();
        run_ordered(
            jobs,
            root.path(),
            &Arc::default(),
            &items,
            &cancel,
            |_, &item| {
                taken.fetch_add(1, Ordering::SeqCst);
                if item == 6 {
                    cancel.cancel();
                    taken_at_stop.store(taken.load(Ordering::SeqCst), Ordering::SeqCst);
                }
                item
            },
            |index, output| {
                assert_eq!(index, output);
                emitted.push(output);
            },
        )
        .unwrap();
        // At most one more per worker: an item handed out as the stop was
        // asked; none after.
        assert!(
            taken.load(Ordering::SeqCst) <= taken_at_stop.load(Ordering::SeqCst) + jobs,
            "taken after the stop"
        );
        emitted
    }

    #[test]
    fn a_cancelled_pool_emits_a_prefix_finished_before_the_request() {
        assert_eq!(emitted_after_cancel_at_item_6(1), [0, 1, 2, 3, 4, 5]);
        for jobs in [2, 4] {
            let emitted = emitted_after_cancel_at_item_6(jobs);
            assert!(emitted.len() <= 6, "{emitted:?}");
            assert_eq!(emitted, (0..emitted.len()).collect::<Vec<_>>());
        }
    }

    #[test]
    fn an_uncancelled_pool_emits_every_item_in_order() {
        let root = tempfile::tempdir().unwrap();
        let items: Vec<usize> = (0..50).collect();
        let mut emitted = Vec::new();
        run_ordered(
            4,
            root.path(),
            &Arc::default(),
            &items,
            &Cancellation::new(),
            |_, &item| item * 2,
            |_, output| emitted.push(output),
        )
        .unwrap();
        assert_eq!(emitted, (0..50).map(|item| item * 2).collect::<Vec<_>>());
    }

    /// What `run_ordered_watched` tells of 30 items with `jobs` workers,
    /// the stop asked for by item `cancel_at`'s work (if any): each told
    /// event as (item, 0 started, 1 ended, 2 output).
    fn told(jobs: usize, cancel_at: Option<usize>) -> Vec<(usize, u8)> {
        let root = tempfile::tempdir().unwrap();
        let cancel = Cancellation::new();
        let items: Vec<usize> = (0..30).collect();
        let mut told = Vec::new();
        run_ordered_watched(
            jobs,
            root.path(),
            &Arc::default(),
            &items,
            &cancel,
            |_, &item| {
                if Some(item) == cancel_at {
                    cancel.cancel();
                }
                item
            },
            |handed| {
                told.push(match handed {
                    Handed::Started(index) => (index, 0),
                    Handed::Ended(index) => (index, 1),
                    Handed::Output(index, output) => {
                        assert_eq!(index, output);
                        (index, 2)
                    }
                })
            },
        )
        .unwrap();
        told
    }

    /// The next item's start rides on the previous item's hand-back: every
    /// item told as started is told once, then as ended once (unrun after
    /// a stop, too), and its output, if any, comes after its end; with no
    /// stop, every item is told all three, outputs in item order.
    #[test]
    fn every_started_item_is_told_ended_before_its_output() {
        for jobs in [1, 3] {
            for cancel_at in [None, Some(0), Some(7), Some(29)] {
                let told = told(jobs, cancel_at);
                for item in 0..30 {
                    let events: Vec<u8> = told
                        .iter()
                        .filter(|(index, _)| *index == item)
                        .map(|(_, event)| *event)
                        .collect();
                    let expected: &[&[u8]] = match cancel_at {
                        None => &[&[0, 1, 2]],
                        Some(_) => &[&[], &[0, 1], &[0, 1, 2]],
                    };
                    assert!(
                        expected.contains(&events.as_slice()),
                        "jobs {jobs}, stop at {cancel_at:?}: item {item} told {events:?}"
                    );
                }
                let outputs: Vec<usize> = told
                    .iter()
                    .filter(|(_, event)| *event == 2)
                    .map(|(index, _)| *index)
                    .collect();
                assert_eq!(outputs, (0..outputs.len()).collect::<Vec<_>>());
                if cancel_at.is_none() {
                    assert_eq!(outputs.len(), 30);
                }
            }
        }
    }
}
