//! One run on a worker: the ruleset (made in `ruleset`), the child's setup, the spawn, the
//! supervision under limits, the kill and the cleanup, and what was measured.

use super::cgroups::Cgroups;
use super::reap::{
    has_exited, kill, kill_escaped_orphans, lock_spawned, pidfd_open, reap_within, spawning,
    ProcessTarget,
};
use super::resident;
use super::spawn::{ChildSetup, ExecPlan};
use super::stall::Stall;
use super::streams::Supervised;
use super::{Sandbox, WorkerNamespace, KILL_GRACE, MAX_POLL_INTERVAL};
use crate::sandbox::{
    at_one_x, decide_limit, BenchLayer, Connection, IpcLayer, LimitExceeded, Limits, Measured,
    NamespaceMode, Observation, RunSpec, SandboxError, Termination, Trust, SANDBOX_PATH,
};
use std::ffi::OsString;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

mod fresh;
pub(super) mod ruleset;
mod starved;
mod stdin;

use starved::starved_deadline;
use stdin::{stdin_copy, stdin_file};

impl Sandbox {
    pub(super) fn run_in(
        &mut self,
        spec: &RunSpec,
        workdir: &Path,
        workdir_view: &Path,
        connection: Option<Connection>,
        one_x: Option<&Limits>,
        watch: Option<&crate::sandbox::Watch<'_>>,
    ) -> Result<(Measured, Option<Measured>), SandboxError> {
        let limits = &spec.limits;
        // Per run (a write or two to files opened once per worker): the
        // memory peak and CPU counters must start at zero for this run, or
        // one test's figures (and its MLE) would include the last one's.
        if let Some(cgroups) = &mut self.cgroups {
            cgroups.prepare(limits)?;
        }
        // Per worker: built once per program and paths, and reused.
        let landlock = self.ruleset(spec, workdir, workdir_view)?;
        let setup = self.child_setup(spec, landlock);
        // Watched for a deadlock only where every process of the run is
        // found (its cgroup) and none can write without a thread awake
        // (the seccomp filter refuses io_uring and AIO): see `stall`.
        let watched = !setup.seccomp.is_empty();
        // The filter refuses `CLONE_PARENT` and `clone3`: every process
        // the run makes is in its program's tree (see `Left`).
        let filtered = !setup.seccomp.is_empty();
        let (stdin, given_stdout, stop, stall) = match connection {
            Some(connection) => {
                let stall = match (connection.watch, &self.cgroups) {
                    (Some(watch), Some(cgroups)) if watched => {
                        Stall::new(watch, cgroups.members_dir())
                    }
                    _ => None,
                };
                (
                    connection.stdin,
                    Some(connection.stdout),
                    Some(connection.stop),
                    stall,
                )
            }
            None if self.is_off(BenchLayer::StdinCopy) => {
                (stdin_file(spec.stdin.as_deref())?, None, None, None)
            }
            // Per run: each test has its own input, and the program must
            // get neither the judge's file (its path names the tests) nor a
            // copy it could change for the next run.
            None => (stdin_copy(spec.stdin.as_deref())?, None, None, None),
        };
        let mut environment: Vec<(OsString, OsString)> = vec![
            ("PATH".into(), SANDBOX_PATH.into()),
            ("HOME".into(), workdir.as_os_str().to_owned()),
            ("TMPDIR".into(), workdir.as_os_str().to_owned()),
            ("LANG".into(), "C.UTF-8".into()),
        ];
        for (key, value) in &spec.env {
            environment.retain(|(existing, _)| existing != key);
            environment.push((key.clone(), value.clone()));
        }
        let mut plan = ExecPlan::new(spec, workdir, &environment, stdin.as_raw_fd(), setup)?;
        if let Some(stdout) = &given_stdout {
            plan = plan.with_stdout(stdout.as_raw_fd());
        }
        // Only now, with everything else of the run ready: the scratch and
        // `/dev/shm` the holder mounted anew after the last run (issue #31),
        // then the rules on this `/dev/shm`.
        if let Some(view) = self.await_fresh_scratch(spec, workdir_view)? {
            // In a new namespace: the rules and the plan on its paths.
            let landlock = self.ruleset(spec, workdir, &view)?;
            let setup = self.child_setup(spec, landlock);
            plan = ExecPlan::new(spec, workdir, &environment, stdin.as_raw_fd(), setup)?;
            if let Some(stdout) = &given_stdout {
                plan = plan.with_stdout(stdout.as_raw_fd());
            }
        }
        self.add_fresh_rules()?;
        // What the run writes to its tmpfs mounts is memory it holds: what
        // they hold before it starts is not its own. Only the samples of a
        // run without a memory cgroup ask (a memory cgroup charges the
        // tmpfs pages itself), so only they look (six look-ups through
        // `/proc/self/fd/N/...` a run otherwise: issue #31).
        let files = if self.samples_memory() {
            resident::RunFiles::at_start(&self.run_mounts(spec))
        } else {
            resident::RunFiles::default()
        };
        let started = Instant::now();
        let child = {
            // Held across the spawn, so the orphan sweep of another worker
            // never mistakes this new child for an escaped process (other
            // workers' spawns go on meanwhile).
            let spawning = spawning();
            let off = self.is_off(BenchLayer::PidNamespaceEntry);
            let entry = (self.namespace.as_ref())
                .filter(|_| !off)
                .and_then(WorkerNamespace::thread_pid_entry);
            let child =
                plan.spawn(&mut self.stacks, entry)
                    .map_err(|source| SandboxError::Spawn {
                        program: spec.program.clone(),
                        source,
                    })?;
            lock_spawned().push(child.pid);
            drop(spawning);
            child
        };
        // What the program's `ru_maxrss` starts from (see `resident`).
        let judge_peak_kib = resident::judge_peak_kib();
        drop(stdin);
        drop(given_stdout);
        // The charge starts where the program read the counter, at its
        // `execve`: the set-up before it (joining the cgroup, the
        // namespaces, Landlock, seccomp) is the judge's, not the program's.
        if let (Some(cgroups), Some(text)) = (&mut self.cgroups, &child.charge_at_exec) {
            cgroups.start_charge_at(text);
        }
        let pid = child.pid;
        let pidfd = pidfd_open(pid);
        // Its `/proc` files opened once where the supervisor reads them at
        // every wake-up (no memory cgroup): issue #31.
        let program = if self.samples_memory() {
            resident::Program::open(pid)
        } else {
            resident::Program::unopened(pid)
        };
        // From here on the child must be killed and reaped on every path.
        let outcome = self.supervise(
            child.stdout,
            child.stderr,
            &program,
            pidfd.as_ref(),
            limits,
            one_x,
            started,
            stop.as_deref(),
            watch,
            stall,
            &files,
            super::scratch::WorkdirWatch::new(spec, limits, started),
        );
        // Its descriptors of the run's mounts closed before the holder
        // detaches them, so they are freed at once; the program's `/proc`
        // files before it is reaped.
        drop(files);
        drop(program);
        // The program itself by pid (it may have left its group) and its
        // group; then a bounded wait, then the rest of its cgroup.
        kill(ProcessTarget::Process(pid));
        kill(ProcessTarget::Group(pid));
        let reaped = reap_within(pid, pidfd.as_ref(), KILL_GRACE);
        if reaped.is_ok() {
            lock_spawned().retain(|&other| other != pid);
        }
        // The namespace's init kills and reaps whatever is left in the run's
        // PID namespace, and gives the next run a fresh scratch tmpfs. Per
        // run: a process or a file (its extended attributes, its times, the
        // kernel memory charged for it) left by one run is a channel to the
        // next, which may be another student's (issue 18). Emptying the
        // scratch instead of mounting a new one would not do: a tmpfs numbers
        // its inodes from a counter of its own, so the next run's first file
        // would tell how many the run before made (the hostile test
        // `a_run_cannot_count_what_the_run_before_made`), and its root keeps
        // its times and attributes. Asked for here and awaited below, so the
        // holder's work overlaps the judge's own checks and reads.
        let reset_asked = match &self.namespace {
            Some(_) if self.is_off(BenchLayer::ScratchReset) => Ok(false),
            Some(namespace) => namespace
                .begin_reset(match reaped {
                    Ok(_) if filtered => super::namespaces::Left::OnlyInItsTree,
                    _ => super::namespaces::Left::Unknown,
                })
                .map(|()| true),
            None => Ok(false),
        };
        let cleanup = match &self.cgroups {
            Some(cgroups) => cgroups.kill_all(Some(pid)),
            None if self.namespace.is_none() => {
                kill_escaped_orphans();
                Ok(())
            }
            None => Ok(()),
        };
        // Read once the cgroup is empty (`cleanup`), so they are final.
        let counters = self.counters(
            reaped.as_ref().ok().map(|(_, rusage)| rusage),
            judge_peak_kib,
            started.elapsed() < 2 * resident::SAMPLE_INTERVAL,
            outcome.as_ref().map_or((0, Duration::ZERO), |supervised| {
                (supervised.resident_peak_kib, supervised.sampled_cpu)
            }),
        );
        // Awaited on every path once asked: the run's result must not be
        // handed back before the holder has reported the namespace empty
        // (and whether the scratch was full). Its second report, the
        // scratch fresh, is awaited by the next run (`await_fresh_scratch`).
        let reset = match (&self.namespace, reset_asked) {
            (Some(namespace), Ok(true)) => namespace.finish_reset().map(Some),
            (_, Ok(_)) => Ok(None),
            (_, Err(error)) => Err(error),
        };
        // Once every process of the run is gone, with its descriptors: the
        // sockets it left in flight in the worker's network namespace (an
        // unreachable cycle, with an abstract name the next run would list,
        // and the files sent along, charged to the worker's memory cgroup)
        // are collected before the next run starts, which may be another
        // student's (issue 35). Where some outlive the collector, the
        // worker's next runs are in a new network namespace.
        let collected = match (&reset, &cleanup, self.socket_count()) {
            (Ok(_), Ok(()), Some(sockets)) => sockets.collect(),
            _ => Ok(()),
        };
        let collected = match collected {
            Err(error) => self.renew_network().and(Err(error)),
            Ok(()) => Ok(()),
        };
        if reset.is_err() {
            // The namespace may still hold this run's scratch or processes
            // (or no scratch at all): the next run makes a new one.
            self.namespace = None;
            self.ruleset_cache = None;
        }
        let mut supervised = outcome?;
        let (status, _) = reaped?;
        let scratch_was_full = reset?;
        cleanup?;
        collected?;
        let (cpu_time, memory_kib, oom_killed) = counters?;
        let wall_time = supervised.exited_at.unwrap_or_else(Instant::now) - started;
        supervised.drain(limits);

        let termination = if libc::WIFSIGNALED(status) {
            Termination::Signaled(libc::WTERMSIG(status))
        } else {
            Termination::Exited(libc::WEXITSTATUS(status))
        };
        let scratch_full = spec.trust == Trust::Submission && scratch_was_full == Some(true);
        let observation = Observation {
            seen: supervised.limit,
            termination,
            cpu_time_ms: duration_ms(cpu_time),
            wall_time_ms: duration_ms(wall_time),
            memory_kib,
            oom_killed,
            scratch_full,
            wall_granted_ms: duration_ms(supervised.wall_granted),
        };
        let measured = Measured {
            termination,
            limit_exceeded: decide_limit(&observation, limits),
            cpu_time_ms: observation.cpu_time_ms,
            wall_time_ms: observation.wall_time_ms,
            memory_kib,
            stdout: supervised.stdout,
            stderr: supervised.stderr,
            stderr_discarded_bytes: supervised.stderr_discarded_bytes,
            deadlocked: supervised.deadlocked,
            run_queue_wait_ms: supervised.run_queue_wait.map(duration_ms),
            wall_granted_ms: observation.wall_granted_ms,
        };
        let at_one_x =
            one_x.map(|one_x| at_one_x(&measured, &observation, supervised.crossed, one_x));
        Ok((measured, at_one_x))
    }

    /// The run's CPU time, peak memory and whether the OOM killer struck:
    /// from the cgroup where it measures them, else from the program's
    /// `rusage` (`None` when it was not reaped: the run fails anyway) and
    /// the run sampled while it ran (`resident::peak_kib`, with the pages a
    /// `short` run faulted in; its CPU time counts the orphans the
    /// program's `rusage` leaves out).
    fn counters(
        &mut self,
        rusage: Option<&libc::rusage>,
        judge_peak_kib: u64,
        short: bool,
        (sampled_kib, sampled_cpu): (u64, Duration),
    ) -> Result<(Duration, u64, bool), SandboxError> {
        let (rusage_cpu, max_rss) = rusage.map_or((sampled_cpu, 0), |rusage| {
            (
                (timeval_duration(rusage.ru_utime) + timeval_duration(rusage.ru_stime))
                    .max(sampled_cpu),
                resident::peak_kib(
                    u64::try_from(rusage.ru_maxrss).unwrap_or(0),
                    judge_peak_kib,
                    sampled_kib,
                    short,
                    resident::faulted_kib(rusage),
                ),
            )
        });
        Ok(match &mut self.cgroups {
            Some(cgroups) if cgroups.limits_memory() => (
                cgroups.cpu_time()?,
                cgroups.memory_peak_kib()?,
                cgroups.oom_killed_since_last(),
            ),
            // A subtree delegated without the memory controller: the
            // tree's CPU time, the largest resident set.
            Some(cgroups) => (cgroups.cpu_time()?, max_rss, false),
            None => (rusage_cpu, max_rss, false),
        })
    }

    fn child_setup(&self, spec: &RunSpec, landlock: Option<RawFd>) -> ChildSetup {
        let limits = &spec.limits;
        let cgroup_procs = match &self.cgroups {
            Some(cgroups) => cgroups.procs_fds(),
            None => [-1; 3],
        };
        let kib = |value: u64| value.saturating_mul(1024) as libc::rlim_t;
        let cpu_seconds = cpu_backstop_seconds(limits.cpu_time_ms);
        let mut rlimits = [(libc::RLIMIT_CORE, 0); 7];
        let mut count = 0;
        let mut push = |resource, value: libc::rlim_t| {
            rlimits[count] = (resource, value);
            count += 1;
        };
        push(libc::RLIMIT_CORE, 0);
        push(libc::RLIMIT_CPU, cpu_seconds as libc::rlim_t);
        push(libc::RLIMIT_FSIZE, kib(limits.file_size_kib));
        push(libc::RLIMIT_NOFILE, limits.open_files as libc::rlim_t);
        let cgroup_memory = self.cgroups.as_ref().is_some_and(Cgroups::limits_memory);
        let cgroup_processes = self.cgroups.as_ref().is_some_and(Cgroups::limits_processes);
        // Deep recursion is legitimate up to the memory limit, in a
        // submission and in a package's own programs alike: a Polygon
        // package's main solution, run as the reference, may keep 32 MiB
        // on its stack as Codeforces' 256 MiB allows (issue #29; the
        // inherited 8 MiB was a segfault). glibc also takes RLIMIT_STACK as
        // every thread's default stack size: under a memory cgroup that is
        // only address space, but under an address-space limit one
        // thread's stack would not fit (issue 32: every `std::thread` RE).
        // Without a memory cgroup the main stack is unlimited (bounded by
        // RLIMIT_AS like any memory) and threads get glibc's own default
        // (2 MiB).
        push(
            libc::RLIMIT_STACK,
            if cgroup_memory {
                kib(limits.memory_kib)
            } else {
                libc::RLIM_INFINITY
            },
        );
        if !cgroup_memory {
            // A backstop only: the limit itself is on the resident size,
            // sampled by the supervisor (see `resident`).
            push(
                libc::RLIMIT_AS,
                kib(limits
                    .memory_kib
                    .saturating_add(resident::ADDRESS_SPACE_HEADROOM_KIB)),
            );
        }
        if !cgroup_processes {
            // From Linux 5.14 the kernel counts RLIMIT_NPROC per user
            // namespace: inside the worker's own one only its init (the
            // holder) is there before the run, and the teacher's other
            // processes must not become room for the test (issue 18: 300
            // of them let a run fork 365 under `processes = 64`). Older
            // kernels count the whole user: the baseline taken at start.
            let in_user_namespace = self.namespace.is_some()
                && self.isolation.namespaces == NamespaceMode::UserNamespace
                && kernel_counts_nproc_per_namespace();
            let baseline = if in_user_namespace {
                1
            } else {
                self.baseline_processes
            };
            push(
                libc::RLIMIT_NPROC,
                (baseline + u64::from(limits.processes)) as libc::rlim_t,
            );
        }
        ChildSetup {
            cgroup_procs,
            join_cgroups: self.cgroups.is_some(),
            cpu_counter: self.cgroups.as_ref().map_or(-1, Cgroups::cpu_counter_fd),
            namespaces: match &self.namespace {
                Some(namespace) => {
                    let [user, network, mount, ipc, _] = namespace.setns_targets();
                    [user, network, mount, ipc]
                }
                None => [(-1, 0); 4],
            },
            // Entered by the child without root only; as root the worker
            // thread does it around the clone (`ThreadPidEntry`).
            pid_namespace: match &self.namespace {
                Some(namespace)
                    if !self.is_off(BenchLayer::PidNamespaceEntry)
                        && namespace.thread_pid_entry().is_none() =>
                {
                    namespace.setns_targets()[4].0
                }
                _ => -1,
            },
            // Where the filter refuses every IPC call (`CallsRefused`), the
            // run is in the worker's IPC namespace (entered above) and makes
            // no object there. Else per run: SysV objects and POSIX queues
            // outlive the processes that made them, so a worker-wide
            // namespace would hand one run's segments to the next; a new
            // one dies with its run. Proving a reused one empty
            // (`/proc/sysvipc/*`, the mqueue mount) would not be enough: its
            // identifiers come from a cyclic allocator and a sequence number
            // that live with the namespace, so the next run's first `shmget`
            // would tell how many objects the run before made (the hostile
            // test `a_run_cannot_count_what_the_run_before_made`). The
            // bench's row without the filter gets the per-run namespace back.
            new_ipc_namespace: self.namespace.is_some()
                && !self.is_off(BenchLayer::IpcNamespace)
                && match self.isolation.ipc {
                    IpcLayer::CallsRefused => self.is_off(BenchLayer::Seccomp),
                    IpcLayer::NamespacePerRun => true,
                    IpcLayer::None => false,
                },
            rlimits,
            rlimit_count: count,
            // Compilers too (issue #7): a compile step is hostile code.
            user: self.uid,
            landlock,
            // Compiled once per process; installed per run, since a filter
            // binds the process that installs it and the judge must stay
            // unfiltered. Without a memory cgroup the filter refuses
            // `memfd_create` (issue 35); unix sockets are made only where
            // they reach no other run (issue 32).
            seccomp: if self.is_off(BenchLayer::Seccomp) {
                &[]
            } else {
                super::seccomp_filters(
                    self.cgroups.as_ref().is_some_and(Cgroups::limits_memory),
                    self.unix_sockets_isolated(),
                )
                .unwrap_or(&[])
            },
            umask: match spec.trust {
                Trust::Submission => 0o077,
                Trust::Tool => 0o022,
            },
        }
    }

    /// Watches a running program: reads its output as it streams, checks CPU
    /// time and the wall clock, and stops at the first limit or at its exit.
    /// With `one_x` (limits under `limits`: a TLE example's run at its
    /// margin) it also wakes at `one_x`'s CPU time and wall clock and notes
    /// where the run first went past them (`Supervised::crossed`, and
    /// `watch.crossed` at once), the same checks a run at `one_x` stops at.
    /// `watch.abandon` is asked at every wake-up, as `stop` is.
    #[expect(
        clippy::too_many_arguments,
        reason = "the parts of one run, all borrowed from run_in"
    )]
    fn supervise(
        &self,
        stdout: Option<OwnedFd>,
        stderr: OwnedFd,
        program: &resident::Program,
        pidfd: Option<&OwnedFd>,
        limits: &Limits,
        one_x: Option<&Limits>,
        started: Instant,
        stop: Option<&AtomicBool>,
        watch: Option<&crate::sandbox::Watch<'_>>,
        mut stall: Option<Stall>,
        files: &resident::RunFiles,
        mut workdir: Option<super::scratch::WorkdirWatch<'_>>,
    ) -> Result<Supervised, SandboxError> {
        let pid = program.pid();
        let mut supervised = Supervised::new(stdout, stderr)?;
        // A message run's (a checker's, a validator's) stderr past its cap
        // is thrown away as its stdout is: its exit code decides, and a
        // chatty stderr must not turn its verdict into a fault (issue 35).
        supervised.stderr_ceiling = workdir
            .as_ref()
            .filter(|_| self.stdout_message.is_none())
            .map(|watch| watch.stderr_ceiling(limits));
        supervised.stdout_kept = self.stdout_message;
        let sampled = self.samples_memory();
        // One sample every `SAMPLE_INTERVAL`, however often the program's
        // output wakes the supervisor, the first one interval after the
        // start: a sample walks every process of the run through `/proc`
        // (its smaps, its descriptors), the most of what the judge did a
        // test without a memory cgroup (issue #31). A sample at the start
        // saw a program that had only just begun, never past a limit; a
        // run that ends before the first sample has the peak its `wait4`
        // gives (see `resident::peak_kib`), and a tree is over its limit at
        // the first sample past it, as before.
        let mut next_sample = started + resident::SAMPLE_INTERVAL;
        let cpu_limit = Duration::from_millis(limits.cpu_time_ms);
        let wall_limit = Duration::from_millis(limits.wall_time_ms);
        let mut wall_deadline = started + wall_limit;
        let one_x = one_x.map(|one_x| {
            (
                Duration::from_millis(one_x.cpu_time_ms),
                started + Duration::from_millis(one_x.wall_time_ms),
            )
        });
        loop {
            // Checked at least every MAX_POLL_INTERVAL, so Ctrl-C ends a
            // running test (and compile) at once, not at its wall limit.
            if crate::interrupt::requested() {
                return Err(SandboxError::Cancelled);
            }
            if stop.is_some_and(|stop| stop.load(Ordering::SeqCst)) {
                return Ok(supervised);
            }
            // A run whose result is no longer wanted (a later test of a
            // submission whose verdict an earlier test decided) ends here,
            // and is cleaned up as after any run.
            if watch.is_some_and(|watch| (watch.abandon)()) {
                return Err(SandboxError::Abandoned);
            }
            // No memory cgroup: the limit is on what the run holds
            // (RLIMIT_AS is only a backstop far above it).
            let sample = (sampled && Instant::now() >= next_sample).then(|| {
                let sample = self.sample_run(program, files);
                next_sample = Instant::now() + resident::SAMPLE_INTERVAL;
                sample
            });
            if let Some(sample) = sample {
                supervised.resident_peak_kib = supervised.resident_peak_kib.max(sample.memory_kib);
                supervised.sampled_cpu = supervised.sampled_cpu.max(sample.cpu);
                if sample.memory_kib > limits.memory_kib {
                    supervised.limit = Some(LimitExceeded::Memory);
                    return Ok(supervised);
                }
            }
            let cpu_used = match (&self.cgroups, sample) {
                (Some(cgroups), _) => cgroups.cpu_time()?,
                (None, Some(sample)) => sample.cpu,
                // Between samples: the program's own time, and no less than
                // the whole run's at the last sample.
                (None, None) => program.cpu_time().max(supervised.sampled_cpu),
            };
            if cpu_used > cpu_limit {
                supervised.limit = Some(LimitExceeded::CpuTime);
                return Ok(supervised);
            }
            let now = Instant::now();
            if now >= wall_deadline {
                // Before the kill: whether it was starved or slept.
                let waited = self.run_queue_wait(program);
                // The wall clock is the limit of a program that sleeps or
                // blocks; the time its threads were runnable but waited
                // for a CPU the host gave others is not its own (issue
                // 32), up to STARVED_WALL_FACTOR times its wall limit. A wait
                // longer than the wall clock is its own threads contending
                // (a fork bomb), not the host: no more time for that.
                if let Some(extended) = starved_deadline(started, now, wall_limit, waited) {
                    if extended > now {
                        wall_deadline = extended;
                        supervised.wall_granted = extended - (started + wall_limit);
                        continue;
                    }
                }
                supervised.limit = Some(LimitExceeded::WallTime);
                supervised.run_queue_wait = waited;
                return Ok(supervised);
            }
            if workdir.as_mut().is_some_and(|watch| watch.full(now)) {
                supervised.limit = Some(LimitExceeded::Scratch);
                return Ok(supervised);
            }
            if stall
                .as_mut()
                .is_some_and(|stall| stall.deadlocked(now, cpu_used))
            {
                supervised.limit = Some(LimitExceeded::WallTime);
                supervised.deadlocked = true;
                return Ok(supervised);
            }
            // Until the run goes past `one_x`, its times are the next
            // deadlines too.
            let (cpu_next, wall_next) = match one_x {
                Some((cpu_one_x, wall_one_x)) if supervised.crossed.is_none() => {
                    let past = if cpu_used > cpu_one_x {
                        Some(LimitExceeded::CpuTime)
                    } else if now >= wall_one_x {
                        Some(LimitExceeded::WallTime)
                    } else {
                        None
                    };
                    if let Some(limit) = past {
                        let crossing = crate::sandbox::Crossing {
                            limit,
                            cpu_time_ms: duration_ms(cpu_used),
                            wall_time_ms: duration_ms(now - started),
                            stdout_len: supervised.stdout.len(),
                            stderr_len: supervised.stderr.len(),
                            stderr_discarded_bytes: supervised.stderr_discarded_bytes,
                            run_queue_wait_ms: (limit == LimitExceeded::WallTime)
                                .then(|| self.run_queue_wait(program).map(duration_ms))
                                .flatten(),
                            memory_kib: match &self.cgroups {
                                Some(cgroups) if cgroups.limits_memory() => {
                                    Some(cgroups.memory_peak_kib()?)
                                }
                                _ => None,
                            },
                        };
                        supervised.crossed = Some(crossing);
                        if let Some(watch) = watch {
                            (watch.crossed)(&crossing);
                        }
                        (cpu_limit, wall_deadline)
                    } else {
                        (cpu_one_x, wall_one_x)
                    }
                }
                _ => (cpu_limit, wall_deadline),
            };
            let due = stall
                .as_ref()
                .and_then(|stall| stall.due_in(now))
                .unwrap_or(MAX_POLL_INTERVAL);
            let timeout = (cpu_next - cpu_used)
                .min(wall_next - now)
                .min(if pidfd.is_some() {
                    MAX_POLL_INTERVAL
                } else {
                    Duration::from_millis(5)
                })
                .min(if sampled {
                    next_sample.saturating_duration_since(now)
                } else {
                    MAX_POLL_INTERVAL
                })
                .min(due)
                .min(
                    workdir
                        .as_ref()
                        .map_or(MAX_POLL_INTERVAL, |_| super::scratch::WORKDIR_LOOK_INTERVAL),
                )
                .max(Duration::from_millis(1));
            let out_of_memory = self.cgroups.as_ref().and_then(Cgroups::out_of_memory_fd);
            let exited = supervised.poll(pidfd, out_of_memory, timeout, limits)?;
            if supervised.limit.is_some() {
                return Ok(supervised);
            }
            if exited || (pidfd.is_none() && has_exited(pid)) {
                supervised.exited_at = Some(Instant::now());
                // The program is a zombie, its orphans may still run: the
                // CPU time they used so far is the run's, and no cgroup
                // keeps it.
                if self.cgroups.is_none() {
                    let last = resident::run_cpu_time(program, self.namespace_holder());
                    supervised.sampled_cpu = supervised.sampled_cpu.max(last);
                }
                return Ok(supervised);
            }
        }
    }

    /// Whether the supervisor samples what a run holds: where no memory
    /// cgroup measures it.
    fn samples_memory(&self) -> bool {
        !self.cgroups.as_ref().is_some_and(Cgroups::limits_memory)
    }

    /// A sample of every process of the run of `pid` (see `resident`):
    /// its tree and, in the worker's PID namespace, every orphan the
    /// namespace's init was handed.
    fn sample_run(
        &self,
        program: &resident::Program,
        files: &resident::RunFiles,
    ) -> resident::Sample {
        resident::sample_run(program, self.namespace_holder(), files)
    }

    /// The init of the PID namespace the runs are in, which every orphan
    /// of a run is handed to (`None`: the runs are not in one).
    fn namespace_holder(&self) -> Option<resident::Reaper<'_>> {
        (self.namespace.as_ref())
            .filter(|_| !self.is_off(BenchLayer::PidNamespaceEntry))
            .map(WorkerNamespace::reaper)
    }

    /// How long the threads of the run of `pid` (as [`Self::sample_run`]
    /// finds them) have waited for a CPU (see `resident::run_queue_wait`).
    fn run_queue_wait(&self, program: &resident::Program) -> Option<Duration> {
        resident::run_queue_wait(program, self.namespace_holder())
    }

    /// The run's tmpfs mounts, as the judge sees them: its scratch (the
    /// namespace's, for a submission) and its private `/dev/shm`.
    fn run_mounts(&self, spec: &RunSpec) -> Vec<PathBuf> {
        let Some(namespace) = &self.namespace else {
            return Vec::new();
        };
        let mut mounts = Vec::new();
        if spec.trust == Trust::Submission {
            let boxdir = self.directory.join("box");
            mounts.push(self.view(&super::namespaces::scratch_in(&boxdir)));
        }
        if namespace.private_shm {
            mounts.push(self.view(Path::new(super::namespaces::SHM)));
        }
        mounts
    }
}

fn timeval_duration(time: libc::timeval) -> Duration {
    Duration::from_secs(time.tv_sec.max(0) as u64)
        + Duration::from_micros(time.tv_usec.max(0) as u64)
}

fn duration_ms(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

/// Whether the running kernel counts `RLIMIT_NPROC` per user namespace
/// (Linux 5.14 and later, the `ucounts` rework).
fn kernel_counts_nproc_per_namespace() -> bool {
    static PER_NAMESPACE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *PER_NAMESPACE.get_or_init(|| {
        let text = fs_err::read_to_string("/proc/sys/kernel/osrelease").unwrap_or_default();
        let mut numbers = text
            .split(|c: char| !c.is_ascii_digit())
            .filter_map(|part| part.parse::<u32>().ok());
        let major = numbers.next().unwrap_or(0);
        let minor = numbers.next().unwrap_or(0);
        (major, minor) >= (5, 14)
    })
}

/// RLIMIT_CPU of a run, in whole seconds: a per-process backstop only (the
/// judge enforces the tree's CPU limit to the millisecond by polling the
/// cgroup or the process's own clock, and decides TLE from that). The kernel
/// checks RLIMIT_CPU against tick-sampled user + system time, which on a
/// busy host (many short processes starting and ending, as when judges run
/// side by side) can run seconds ahead of the precise clock the judge reads:
/// with one second of headroom a 9 s program was killed by the kernel at
/// 8.1 s and came out RE instead of TLE. Half the limit again plus two
/// seconds leaves the polling judge to decide.
fn cpu_backstop_seconds(cpu_time_ms: u64) -> u64 {
    cpu_time_ms.saturating_mul(3).div_ceil(2).div_ceil(1000) + 2
}

#[cfg(test)]
mod tests;
