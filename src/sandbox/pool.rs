//! Sandboxes for a package's own programs (checkers, validators,
//! references, generators, interactive validators), each set up once on a
//! thread of its own and lent to whichever worker needs one (issue #19).
//!
//! A [`Sandbox`] belongs to the thread that made it (its network namespace
//! is that thread's), and a worker's own sandbox is busy with the
//! submission while the submission's interactive validator runs, so a
//! package program cannot simply use the caller's. Before this pool every
//! call made a thread and a sandbox of its own (a network namespace, a
//! cgroup, a mount and PID namespace with its holder), which cost more than
//! a small checker's whole run, once per test. Now a call takes an idle
//! lent sandbox (or starts one when every one is busy, so there are at most
//! as many as calls at once: one per worker, and one more per interactive
//! test in flight), runs on its thread, and gives it back.
//!
//! What stays per call, and why it must: everything [`Sandbox::run`] does
//! per run (a fresh IPC namespace, a fresh scratch, the cgroup reset, the
//! kill and reap of every process the run left), so one program's run
//! leaves nothing for the next; and the caller's fresh working directory.
//! What is now per lent sandbox instead of per call: the thread, the
//! network namespace (it has no interfaces, so there is nothing in it to
//! pass on), the cgroups (reset before each run) and the mount and PID
//! namespace (its init kills what a run left; its scratch tmpfs is
//! remounted between runs). A lent sandbox only ever runs the programs of
//! the package that owns the pool, never a submission, so even what a
//! namespace does keep could only pass between programs of one author.
//!
//! What the lent sandboxes hide is the value the pool's owner gives it
//! ([`SandboxPool::new`], and [`SandboxPool::hide`] when the command has
//! gathered more): each job's sandbox hides the value given last.
//!
//! Dropping the last handle ends the threads and waits for them, so every
//! sandbox has removed its cgroups and folders before the caller removes
//! the workspace they live in.

use super::{Hidden, Sandbox, SandboxError};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// A job for a lent sandbox's thread.
type Job = Box<dyn FnOnce(&mut Sandbox) + Send>;

/// One lent sandbox: its thread and the way to hand it work.
struct Lent {
    jobs: mpsc::Sender<Job>,
}

struct Shared {
    root: PathBuf,
    /// What the lent sandboxes hide, as the pool's owner gave it last.
    hidden: Mutex<Arc<Hidden>>,
    idle: Mutex<Vec<Lent>>,
    threads: Mutex<Vec<JoinHandle<()>>>,
}

impl Drop for Shared {
    fn drop(&mut self) {
        // Closing every channel ends its thread's loop; the sandbox is
        // dropped (cgroups, namespace holder, folder) before the join ends.
        if let Ok(idle) = self.idle.get_mut() {
            idle.clear();
        }
        if let Ok(threads) = self.threads.get_mut() {
            for thread in threads.drain(..) {
                let _ = thread.join();
            }
        }
    }
}

/// Lent sandboxes under one workspace; cloning shares them.
#[derive(Clone)]
pub struct SandboxPool {
    shared: Arc<Shared>,
}

impl std::fmt::Debug for SandboxPool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let idle = self.shared.idle.lock().map(|idle| idle.len()).unwrap_or(0);
        f.debug_struct("SandboxPool")
            .field("root", &self.shared.root)
            .field("idle", &idle)
            .finish()
    }
}

impl SandboxPool {
    /// A pool whose sandboxes live under `root` (mode 0711, as for
    /// [`Sandbox::new`]) and hide `hidden`; none is made before the first
    /// call.
    pub fn new(root: &Path, hidden: Arc<Hidden>) -> SandboxPool {
        SandboxPool {
            shared: Arc::new(Shared {
                root: root.to_path_buf(),
                hidden: Mutex::new(hidden),
                idle: Mutex::new(Vec::new()),
                threads: Mutex::new(Vec::new()),
            }),
        }
    }

    /// Hides `hidden` from the next job on, in every lent sandbox (a
    /// job already running keeps what it started with).
    pub(crate) fn hide(&self, hidden: Arc<Hidden>) {
        *self
            .shared
            .hidden
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = hidden;
    }

    /// What the lent sandboxes hide now.
    fn hidden(&self) -> Arc<Hidden> {
        Arc::clone(
            &self
                .shared
                .hidden
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        )
    }

    /// The sandboxes set up so far (busy or idle); for the unit tests.
    #[cfg(test)]
    pub(crate) fn started(&self) -> usize {
        self.shared
            .threads
            .lock()
            .map(|threads| threads.len())
            .unwrap_or(0)
    }

    /// Runs `work` on a lent sandbox's thread and waits for it. `Err` when
    /// no sandbox could be set up, or `work` panicked (that sandbox is then
    /// dropped, never lent again).
    pub(crate) fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce(&mut Sandbox) -> T + Send + 'static,
    ) -> Result<T, SandboxError> {
        self.start_work(work)?.wait()
    }

    /// Starts `work` on a lent sandbox's thread and returns at once; the
    /// sandbox is lent until [`Pending::wait`] (or dropping it, which waits).
    pub(crate) fn start_work<T: Send + 'static>(
        &self,
        work: impl FnOnce(&mut Sandbox) -> T + Send + 'static,
    ) -> Result<Pending<T>, SandboxError> {
        let lent = match self.shared.idle.lock().ok().and_then(|mut idle| idle.pop()) {
            Some(lent) => lent,
            None => self.start()?,
        };
        let (done, result) = mpsc::sync_channel::<T>(1);
        let hidden = self.hidden();
        let job: Job = Box::new(move |sandbox: &mut Sandbox| {
            sandbox.hide(hidden);
            let _ = done.send(work(sandbox));
        });
        if lent.jobs.send(job).is_err() {
            return Err(lost());
        }
        Ok(Pending {
            pool: self.clone(),
            lent: Some(lent),
            result,
        })
    }

    /// A new sandbox on a new thread, once it is set up.
    fn start(&self) -> Result<Lent, SandboxError> {
        let (jobs, queue) = mpsc::channel::<Job>();
        let (ready, set_up) = mpsc::sync_channel::<Result<(), SandboxError>>(1);
        let root = self.shared.root.clone();
        let hidden = self.hidden();
        let thread = std::thread::Builder::new()
            .name("judge-tools".to_owned())
            .spawn(move || {
                let mut sandbox = match Sandbox::new(&root, hidden) {
                    Ok(sandbox) => {
                        let _ = ready.send(Ok(()));
                        sandbox
                    }
                    Err(error) => {
                        let _ = ready.send(Err(error));
                        return;
                    }
                };
                for job in queue {
                    job(&mut sandbox);
                }
            })
            .map_err(|source| SandboxError::Syscall {
                syscall: "clone",
                purpose: "starting the thread of a package program's sandbox",
                source,
            })?;
        let outcome = set_up.recv().unwrap_or_else(|_| Err(lost()));
        if let Err(error) = outcome {
            let _ = thread.join();
            return Err(error);
        }
        if let Ok(mut threads) = self.shared.threads.lock() {
            threads.push(thread);
        }
        Ok(Lent { jobs })
    }
}

/// Work running on a lent sandbox.
pub(crate) struct Pending<T> {
    pool: SandboxPool,
    lent: Option<Lent>,
    result: mpsc::Receiver<T>,
}

impl<T> Pending<T> {
    /// The work's value, once it is done; the sandbox goes back to the pool.
    pub(crate) fn wait(mut self) -> Result<T, SandboxError> {
        let value = self.result.recv().map_err(|_| lost());
        let lent = self.lent.take();
        if let (Ok(_), Some(lent)) = (&value, lent) {
            if let Ok(mut idle) = self.pool.shared.idle.lock() {
                idle.push(lent);
            }
        }
        value
    }
}

impl<T> Drop for Pending<T> {
    fn drop(&mut self) {
        // Never lend a sandbox that may still be running someone's work.
        if let Some(lent) = self.lent.take() {
            if self.result.recv().is_ok() {
                if let Ok(mut idle) = self.pool.shared.idle.lock() {
                    idle.push(lent);
                }
            }
        }
    }
}

/// The sandbox's thread ended without an answer (its work panicked).
fn lost() -> SandboxError {
    SandboxError::Syscall {
        syscall: "thread",
        purpose: "running a package program in its lent sandbox",
        source: std::io::Error::other("the sandbox's thread ended without an answer"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sandbox::{Limits, RunSpec, Trust};

    fn echo(text: &str) -> RunSpec {
        RunSpec {
            program: PathBuf::from("/bin/sh"),
            args: vec!["-c".into(), format!("echo {text}").into()],
            stdin: None,
            workdir: None,
            env: Vec::new(),
            read_paths: Vec::new(),
            limits: Limits {
                cpu_time_ms: 1000,
                wall_time_ms: 5000,
                memory_kib: 128 * 1024,
                stdout_bytes: 1024,
                stderr_bytes: 1024,
                processes: 8,
                open_files: 64,
                file_size_kib: 1024,
                scratch_kib: 4096,
            },
            trust: Trust::Submission,
        }
    }

    fn root() -> tempfile::TempDir {
        let root = tempfile::tempdir().unwrap();
        fs_err::set_permissions(
            root.path(),
            std::os::unix::fs::PermissionsExt::from_mode(0o711),
        )
        .unwrap();
        root
    }

    #[test]
    fn calls_one_after_another_reuse_one_sandbox() {
        let root = root();
        let pool = SandboxPool::new(root.path(), Arc::default());
        for round in 0..5 {
            let spec = echo(&round.to_string());
            let measured = pool
                .run(move |sandbox| sandbox.run(&spec))
                .unwrap()
                .unwrap();
            assert_eq!(measured.stdout, format!("{round}\n").into_bytes());
        }
        assert_eq!(pool.started(), 1);
    }

    #[test]
    fn calls_at_once_get_a_sandbox_each() {
        let root = root();
        let pool = SandboxPool::new(root.path(), Arc::default());
        let (entered, wait) = mpsc::channel::<()>();
        let (release, held) = mpsc::channel::<()>();
        std::thread::scope(|scope| {
            let first = pool.clone();
            scope.spawn(move || {
                first
                    .run(move |_| {
                        entered.send(()).unwrap();
                        held.recv().unwrap();
                    })
                    .unwrap();
            });
            wait.recv().unwrap();
            // The first sandbox is busy: this call must not wait for it.
            let spec = echo("second");
            let measured = pool
                .run(move |sandbox| sandbox.run(&spec))
                .unwrap()
                .unwrap();
            assert_eq!(measured.stdout, b"second\n");
            release.send(()).unwrap();
        });
        assert_eq!(pool.started(), 2);
    }

    #[test]
    fn a_panicking_call_is_an_error_and_its_sandbox_is_not_lent_again() {
        let root = root();
        let pool = SandboxPool::new(root.path(), Arc::default());
        let failed = pool.run(|_| -> () { panic!("a tool's work panicked") });
        assert!(failed.is_err());
        let spec = echo("after");
        let measured = pool
            .run(move |sandbox| sandbox.run(&spec))
            .unwrap()
            .unwrap();
        assert_eq!(measured.stdout, b"after\n");
        assert_eq!(pool.started(), 2);
    }

    #[test]
    fn dropping_the_pool_removes_every_sandbox_folder() {
        let root = root();
        let pool = SandboxPool::new(root.path(), Arc::default());
        let spec = echo("x");
        pool.run(move |sandbox| sandbox.run(&spec))
            .unwrap()
            .unwrap();
        assert_eq!(fs_err::read_dir(root.path()).unwrap().count(), 1);
        drop(pool);
        assert_eq!(fs_err::read_dir(root.path()).unwrap().count(), 0);
    }

    /// A package program run as a tool, in a fresh working directory.
    fn tool(script: &str, workdir: &Path) -> RunSpec {
        let mut spec = echo("");
        spec.args = vec!["-c".into(), script.into()];
        spec.workdir = Some(workdir.to_path_buf());
        spec.trust = Trust::Tool;
        spec
    }

    fn workdir(root: &Path, name: &str) -> PathBuf {
        let dir = root.join(name);
        fs_err::create_dir(&dir).unwrap();
        fs_err::set_permissions(&dir, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
        dir
    }

    /// What a program leaves in the shared places or running does not
    /// reach the next program on the same lent sandbox.
    #[test]
    fn a_run_on_a_lent_sandbox_leaves_nothing_for_the_next() {
        let root = root();
        let pool = SandboxPool::new(root.path(), Arc::default());
        let first = tool(
            "echo left > /tmp/left; echo left > /dev/shm/left 2>/dev/null; \
             (sleep 30 &) ; echo started",
            &workdir(root.path(), "first"),
        );
        let measured = pool
            .run(move |sandbox| sandbox.run(&first))
            .unwrap()
            .unwrap();
        // A tool may write only its working directory (the shared places
        // are refused); a process it leaves is killed at its end.
        assert_eq!(measured.stdout, b"started\n");
        let second = tool(
            "cat /tmp/left /dev/shm/left 2>/dev/null; \
             for p in /proc/[0-9]*; do cat $p/comm 2>/dev/null; done",
            &workdir(root.path(), "second"),
        );
        let measured = pool
            .run(move |sandbox| sandbox.run(&second))
            .unwrap()
            .unwrap();
        let seen = String::from_utf8_lossy(&measured.stdout).into_owned();
        assert!(!seen.contains("left"), "a file passed between runs: {seen}");
        assert!(
            !seen.contains("sleep"),
            "a process outlived its run: {seen}"
        );
        assert_eq!(pool.started(), 1);
    }
}
