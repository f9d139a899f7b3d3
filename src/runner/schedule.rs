//! A bounded pool of worker threads, each with its own [`Sandbox`], that
//! hands results back in item order.
//!
//! Each worker sets its sandbox up once and reuses it for every item it
//! takes (STYLE.md: "a bounded pool of worker threads and a channel"). The
//! calling thread receives completions, holds early ones back, and passes
//! each to `emit` in item order, so what a report sees does not depend on
//! the number of workers or on timing.
//!
//! A [`Cancellation`] stops the pool early: no worker takes another item,
//! and an item that finishes after the request is dropped (the sandbox may
//! have cut it short, so its result is not a verdict). What is emitted is
//! then the longest prefix of items that finished before the request.

use crate::interrupt::Cancellation;
use crate::sandbox::{Sandbox, SandboxError};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

/// Runs `work` on every item with `jobs` workers, calling `emit` with each
/// result in item order. Fails when a worker could not set its sandbox up;
/// results already emitted stay emitted. After `cancel` only a prefix of
/// the items is emitted (see the module doc); the caller asks `cancel`.
pub(crate) fn run_ordered<Item, Output>(
    jobs: usize,
    root: &Path,
    items: &[Item],
    cancel: &Cancellation,
    work: impl Fn(&mut Sandbox, &Item) -> Output + Sync,
    mut emit: impl FnMut(usize, Output),
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
        let (sender, receiver) = mpsc::channel::<Result<(usize, Output), SandboxError>>();
        for _ in 0..workers {
            let sender = sender.clone();
            let (next, work) = (&next, &work);
            scope.spawn(move || {
                let mut sandbox = match Sandbox::new(root) {
                    Ok(sandbox) => sandbox,
                    Err(error) => {
                        let _ = sender.send(Err(error));
                        return;
                    }
                };
                loop {
                    if cancel.is_cancelled() {
                        return;
                    }
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let Some(item) = items.get(index) else { return };
                    let output = work(&mut sandbox, item);
                    if cancel.is_cancelled() {
                        return;
                    }
                    if sender.send(Ok((index, output))).is_err() {
                        return; // the caller gave up
                    }
                }
            });
        }
        drop(sender);
        let mut pending = BTreeMap::new();
        let mut expected = 0;
        for message in receiver {
            let (index, output) = match message {
                Ok(done) => done,
                Err(error) => {
                    // Stop handing out work; running items finish and are dropped.
                    next.store(items.len(), Ordering::Relaxed);
                    return Err(error);
                }
            };
            pending.insert(index, output);
            while let Some(output) = pending.remove(&expected) {
                emit(expected, output);
                expected += 1;
            }
        }
        Ok(())
    })
}
