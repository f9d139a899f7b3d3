//! Interactive and multi-pass tests (issue #15): the package's output
//! validator, speaking the Kattis protocol (`validator input answer
//! feedback_dir [flags]`), talks to the submission, or reads its output
//! after each pass, and may ask for another pass by writing
//! `feedback_dir/nextpass.in`.
//!
//! Both programs run in the sandbox, each with its own limits and its own
//! sandbox: the submission on the worker's, the validator on one the
//! package lends ([`crate::sandbox::SandboxPool`]: set up once, reused by
//! every test, never shared with a submission). A third thread, the supervisor
//! (`relay`), owns the judge's ends of both pipes and copies between
//! them, so neither program can block the judge, and keeps the
//! transcript. The verdict of a pass is `verdict::decide_pass`, a pure
//! function.

mod engine;
mod error;
mod relay;
mod testlib;
pub(crate) mod verdict;

use super::events::{Excerpt, TestResult};
use super::TestInput;
use crate::interaction::{InteractorProtocol, InteractorSpec};
use crate::problems::text::MAX_TEXT_BYTES;
use crate::runner::program_message::MAX_MESSAGE_BYTES;
use crate::sandbox::left::{self, LeftFileError};
use crate::sandbox::{Connection, Limits, Measured, RunSpec, Sandbox, Termination, Trust};
use crate::verdict::Verdict;
use error::InteractionError;
use relay::{Ends, Relayed, Signals};
use std::ffi::OsString;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;
use verdict::{decide_pass, Ended, PassFacts, PassVerdict};

pub(crate) use engine::run_test as run_engine_test;
pub(crate) use relay::{render, TRANSCRIPT_BYTES};

/// The submission as the worker prepared it.
pub struct SubmissionProgram<'a> {
    pub program: &'a Path,
    pub args: &'a [OsString],
    pub read_paths: &'a [PathBuf],
    pub limits: &'a Limits,
}

/// The most of a validator's feedback shown in a message.
const FEEDBACK_BYTES: usize = 2048;

/// The validator's request for another pass, in its folder.
const NEXT_PASS: &str = "feedback/nextpass.in";

/// Names each test's folder under the interactor's workspace.
static NEXT_RUN: AtomicU64 = AtomicU64::new(0);

/// Runs every pass of one test and decides its verdict; fills `result`'s
/// verdict, message, measurements and excerpt (the transcript). Returns,
/// for an accepted test of a testlib interactor with a checker step, what
/// the interactor wrote to its `output` file, for the checker.
pub fn run_test(
    sandbox: &mut Sandbox,
    spec: &InteractorSpec,
    submission: &SubmissionProgram<'_>,
    input: &TestInput,
    answer: Option<&str>,
    result: &mut TestResult,
) -> Option<String> {
    let dir = match test_dir(spec, input, answer) {
        Ok(dir) => dir,
        Err(error) => {
            result.verdict = Verdict::JudgeError;
            result.message = error.to_string();
            return None;
        }
    };
    let mut outcome = run_passes(sandbox, spec, submission, &dir, result);
    let mut for_checker = None;
    if let (Ok((Verdict::Accepted, _, _)), InteractorProtocol::Testlib { checker: true }) =
        (&outcome, spec.protocol)
    {
        // The interactor's `output` is the checker's contestant output, read
        // as any file it left (issue #35).
        match left::read_left(&dir, "output", MAX_TEXT_BYTES as u64) {
            Ok(bytes) => {
                let bytes = bytes.unwrap_or_default();
                for_checker = Some(String::from_utf8_lossy(&bytes).into_owned());
            }
            Err(error) => {
                outcome = Err(InteractionError::LeftFile {
                    label: spec.label.clone(),
                    error,
                });
            }
        }
    }
    let _ = fs_err::remove_dir_all(&dir);
    record_outcome(result, outcome, input, answer);
    for_checker
}

/// A test's verdict, message and transcript (its excerpt's output) into
/// its result; a failure of the judge's own is JE with its message.
fn record_outcome(
    result: &mut TestResult,
    outcome: Result<Decided, InteractionError>,
    input: &TestInput,
    answer: Option<&str>,
) {
    let (verdict, message, transcript) = match outcome {
        Ok(decided) => decided,
        Err(error) => (Verdict::JudgeError, error.to_string(), String::new()),
    };
    result.verdict = verdict;
    result.message = message;
    result.excerpt = Some(Excerpt::new(
        input.text.as_bytes(),
        answer.map(str::as_bytes),
        transcript.as_bytes(),
    ));
}

/// The test's folder: `input` and `answer` for the validator and its
/// `feedback/` folder, which lives across passes.
fn test_dir(
    spec: &InteractorSpec,
    input: &TestInput,
    answer: Option<&str>,
) -> Result<PathBuf, InteractionError> {
    let number = NEXT_RUN.fetch_add(1, Ordering::Relaxed);
    let dir = spec
        .workspace
        .join(format!("interact-{}-{number}", std::process::id()));
    let made = (|| -> std::io::Result<()> {
        fs_err::create_dir(&dir)?;
        fs_err::set_permissions(&dir, std::fs::Permissions::from_mode(0o755))?;
        // The text the judge read, not a file opened again by its name.
        fs_err::write(dir.join("input"), &input.text)?;
        fs_err::write(dir.join("answer"), answer.unwrap_or(""))?;
        fs_err::create_dir(dir.join("feedback"))?;
        if let InteractorProtocol::Testlib { .. } = spec.protocol {
            // testlib's `output`, which the interactor writes for the
            // checker (lent to the sandbox user with the folder).
            fs_err::write(dir.join("output"), "")?;
        }
        Ok(())
    })();
    made.map_err(|error| InteractionError::Folder {
        label: spec.label.clone(),
        error,
    })?;
    Ok(dir)
}

type Decided = (Verdict, String, String);

fn run_passes(
    sandbox: &mut Sandbox,
    spec: &InteractorSpec,
    submission: &SubmissionProgram<'_>,
    dir: &Path,
    result: &mut TestResult,
) -> Result<Decided, InteractionError> {
    let mut transcript = String::new();
    let passes = spec.passes.max(1);
    let refused = |error| InteractionError::LeftFile {
        label: spec.label.clone(),
        error,
    };
    for pass in 1..=passes {
        let next = dir.join("feedback").join("nextpass.in");
        let _ = fs_err::remove_file(&next);
        for name in ["judgemessage.txt", "judgeerror.txt"] {
            let _ = fs_err::remove_file(dir.join("feedback").join(name));
        }
        let mut ran = if spec.interactive {
            interactive_pass(sandbox, spec, submission, dir)?
        } else {
            offline_pass(sandbox, spec, submission, dir)?
        };
        // Its traceback names the package's file, not its compiled copy.
        ran.validator_stderr = own_paths(spec, &ran.validator_stderr).into_bytes();
        result.time_ms = result.time_ms.max(ran.submission.cpu_time_ms);
        result.wall_ms = result.wall_ms.max(ran.submission.wall_time_ms);
        result.memory_kib = result.memory_kib.max(ran.submission_memory_kib);
        // Measured only when the wall clock ended the run, so only of the
        // pass that ends the test: without it, a run the host starved
        // would be told from a sleeping one by the old rule alone, which
        // misses one starved past twice its limit, and would be a plain
        // TLE with no run alone (issue 32, `execute::wall_time_only`).
        if ran.submission_cpu_wait_ms.is_some() {
            result.cpu_wait_ms = ran.submission_cpu_wait_ms;
        }
        match ran.submission.termination {
            Termination::Exited(code) => result.exit_code = Some(code),
            Termination::Signaled(signal) => result.signal = Some(signal),
        }
        if passes > 1 {
            transcript.push_str(&format!("# pass {pass}\n"));
        }
        transcript.push_str(&ran.transcript);
        let feedback = feedback_of(dir, &ran.validator_stderr).map_err(refused)?;
        let feedback = own_paths(spec, feedback.as_bytes());
        // Opened (and so checked) now, read only when a pass follows.
        let next_pass = left::open_left(dir, NEXT_PASS).map_err(refused)?;
        let wrote_next_pass = next_pass.is_some();
        // The relay's words call the other side the validator, as Kattis
        // does; a testlib interactor is called what it is (issue #29).
        let peer = match spec.protocol {
            InteractorProtocol::Kattis => "the validator",
            InteractorProtocol::Testlib { .. } => "the interactor",
        };
        let waiting = ran.relayed.waiting().replace("the validator", peer);
        let sent = ran
            .relayed
            .sent(submission.limits.stdout_bytes)
            .map(|sent| sent.replace("the validator", peer));
        let facts = PassFacts {
            validator_label: &spec.label,
            peer,
            validator: ran.validator,
            validator_limits: &spec.limits,
            submission: ran.submission,
            submission_limits: submission.limits,
            submission_flooded: ran.relayed.flooded,
            sent: sent.as_deref().unwrap_or(""),
            // A flood it was taking in: it had read more than the
            // submission may write (one that never read it read none).
            validator_swamped: ran.relayed.validator_read() > submission.limits.stdout_bytes,
            validator_first: ran.validator_first,
            waiting: &waiting,
            feedback: &feedback,
            wrote_next_pass,
            pass,
            passes,
        };
        let decided = match spec.protocol {
            InteractorProtocol::Kattis => decide_pass(&facts),
            InteractorProtocol::Testlib { .. } => {
                let (decided, points) = testlib::decide_testlib_pass(&facts, &ran.validator_stderr);
                result.validator_score = points.map(crate::verdict::ValidatorScore::Score);
                decided
            }
        };
        match decided {
            PassVerdict::Final(verdict, message) => {
                result.stderr = super::termination::runtime_stderr(
                    verdict,
                    &ran.submission_stderr,
                    ran.submission_stderr_discarded,
                );
                let message = super::termination::with_refused_call_note(
                    verdict,
                    message,
                    &ran.submission_stderr,
                );
                return Ok((verdict, message, transcript));
            }
            PassVerdict::NextPass => {
                // Copied, never renamed: the next input is a file of the
                // judge's own, written where no link of the validator's
                // can lead it.
                let bytes = match next_pass {
                    Some(file) => file.read(MAX_TEXT_BYTES as u64).map_err(refused)?,
                    None => Vec::new(),
                };
                left::write_fresh(dir, "input", &bytes).map_err(refused)?;
            }
        }
    }
    Err(InteractionError::TooManyPasses {
        label: spec.label.clone(),
        passes,
    })
}

/// What the validator wrote, with the package's paths in place of its
/// compiled copy's in the judge's temporary folder.
fn own_paths(spec: &InteractorSpec, bytes: &[u8]) -> String {
    super::compile::with_own_paths(&String::from_utf8_lossy(bytes), &spec.own_paths)
}

/// The validator's `judgemessage.txt`, else its stderr, trimmed and cut;
/// a `judgemessage.txt` the judge does not read (issue #35) is the
/// validator's fault, one beyond [`MAX_MESSAGE_BYTES`] is cut there and
/// says so (issue #34: its verdict stands).
fn feedback_of(dir: &Path, stderr: &[u8]) -> Result<String, LeftFileError> {
    let (message, unread) = left::open_left(dir, "feedback/judgemessage.txt")?
        .map(|file| file.read_prefix(MAX_MESSAGE_BYTES as u64))
        .transpose()?
        .unwrap_or_default();
    if !message.iter().all(u8::is_ascii_whitespace) {
        let text = String::from_utf8_lossy(&message);
        return Ok(crate::runner::program_message::cut_unread(
            text.trim(),
            FEEDBACK_BYTES,
            unread,
        ));
    }
    let text = String::from_utf8_lossy(stderr);
    let text = crate::runner::program_message::cut(text.trim(), FEEDBACK_BYTES);
    // Its stderr is the message: say when what it reports may be the
    // sandbox refusing a call (issue #34, BAPCtools' `boolfind`).
    Ok(
        match crate::runner::program_message::refused_call_note(stderr) {
            Some(note) => format!("{text}\n{note}"),
            None => text,
        },
    )
}

/// What one pass did.
struct PassRun {
    submission: Ended,
    submission_memory_kib: u64,
    /// How long the submission waited for a CPU, measured when the wall
    /// clock ended it (`Measured::run_queue_wait_ms`).
    submission_cpu_wait_ms: Option<u64>,
    submission_stderr: Vec<u8>,
    submission_stderr_discarded: u64,
    validator: Ended,
    validator_stderr: Vec<u8>,
    validator_first: bool,
    relayed: Relayed,
    transcript: String,
}

fn ended(measured: &Measured, stopped: bool) -> Ended {
    Ended {
        termination: measured.termination,
        limit: measured.limit_exceeded,
        cpu_time_ms: measured.cpu_time_ms,
        wall_time_ms: measured.wall_time_ms,
        wall_granted_ms: measured.wall_granted_ms,
        stopped: stopped && measured.limit_exceeded.is_none(),
    }
}

/// The validator's run: `validator input answer feedback/ flags...` in the
/// test's folder, with its own limits.
fn validator_spec(spec: &InteractorSpec, dir: &Path, wall_time_ms: u64) -> RunSpec {
    let mut args = spec.args.clone();
    match spec.protocol {
        InteractorProtocol::Kattis => {
            args.extend(["input", "answer", "feedback/"].map(OsString::from));
            args.extend(spec.flags.iter().map(OsString::from));
        }
        // testlib's `interactor <input> <output> [<answer>]`.
        InteractorProtocol::Testlib { .. } => {
            args.extend(["input", "output", "answer"].map(OsString::from));
        }
    }
    RunSpec {
        program: spec.program.clone(),
        args,
        stdin: None,
        workdir: Some(dir.to_owned()),
        env: Vec::new(),
        read_paths: spec.read_paths.clone(),
        limits: Limits {
            wall_time_ms,
            ..spec.limits
        },
        trust: Trust::Tool,
    }
}

fn submission_spec(submission: &SubmissionProgram<'_>, stdin: Option<PathBuf>) -> RunSpec {
    RunSpec {
        program: submission.program.to_owned(),
        args: submission.args.to_vec(),
        stdin,
        workdir: None,
        env: Vec::new(),
        read_paths: submission.read_paths.to_vec(),
        limits: *submission.limits,
        trust: Trust::Submission,
    }
}

/// One interactive pass: both programs at once, the supervisor between.
fn interactive_pass(
    sandbox: &mut Sandbox,
    spec: &InteractorSpec,
    submission: &SubmissionProgram<'_>,
    dir: &Path,
) -> Result<PassRun, InteractionError> {
    let pipe = || relay::pipe().map_err(InteractionError::io("make the interaction's pipes"));
    let (submission_in_read, submission_in) = pipe()?;
    let (submission_out, submission_out_write) = pipe()?;
    let (validator_in_read, validator_in) = pipe()?;
    let (validator_out, validator_out_write) = pipe()?;
    let (wake_read, wake_write) = pipe()?;
    let signals = Signals {
        wake: wake_read,
        submission_done: Arc::new(AtomicBool::new(false)),
        validator_done: Arc::new(AtomicBool::new(false)),
        stop_submission: Arc::new(AtomicBool::new(false)),
        stop_validator: Arc::new(AtomicBool::new(false)),
        validator_rejected: Arc::new(AtomicBool::new(false)),
        validator_grace: Duration::from_millis(spec.limits.wall_time_ms),
    };
    let ends = Ends {
        submission_in,
        submission_out,
        validator_in,
        validator_out,
    };
    // The validator's wall clock is a backstop only: the supervisor stops
    // it once it outlives the submission by its own wall limit.
    let validator_run = validator_spec(
        spec,
        dir,
        submission
            .limits
            .wall_time_ms
            .saturating_add(spec.limits.wall_time_ms)
            .saturating_add(1000),
    );
    let wake_write = Arc::new(wake_write);
    let label = spec.label.clone();
    std::thread::scope(|scope| {
        let relay_thread = scope.spawn(|| relay::relay(ends, &signals));
        let validator_connection = Connection {
            stdin: validator_in_read,
            stdout: validator_out_write,
            stop: Arc::clone(&signals.stop_validator),
            watch: None,
        };
        let validator_done = Arc::clone(&signals.validator_done);
        let protocol = spec.protocol;
        let validator_rejected = Arc::clone(&signals.validator_rejected);
        let validator_wake = Arc::clone(&wake_write);
        let finished = move |measured: Result<Measured, InteractionError>| {
            let accepted = matches!(
                &measured,
                Ok(Measured { limit_exceeded: None, termination: Termination::Exited(code), .. })
                    if protocol.accepts(*code)
            );
            validator_rejected.store(!accepted, Ordering::SeqCst);
            validator_done.store(true, Ordering::SeqCst);
            relay::wake(&validator_wake);
            measured
        };
        // The validator runs on one of the package's lent sandboxes, never
        // on the worker's: that one is the submission's, and the two run
        // at once, each confined apart from the other.
        let validator_label = label.clone();
        let finished_here = finished.clone();
        let pending = spec.sandboxes.start_work(move |own| {
            finished(
                own.run_connected(&validator_run, validator_connection)
                    .map_err(|error| InteractionError::Validator {
                        label: validator_label,
                        error,
                    }),
            )
        });
        let pending = match pending {
            Ok(pending) => Ok(pending),
            Err(error) => Err(finished_here(Err(InteractionError::ValidatorSandbox {
                label: label.clone(),
                error,
            }))),
        };
        let connection = Connection {
            stdin: submission_in_read,
            stdout: submission_out_write,
            stop: Arc::clone(&signals.stop_submission),
            // Not watched for a deadlock: the validator is a program, whose
            // own wait the judge cannot prove.
            watch: None,
        };
        let measured = sandbox
            .run_connected(&submission_spec(submission, None), connection)
            .map_err(InteractionError::Sandbox);
        signals.submission_done.store(true, Ordering::SeqCst);
        relay::wake(&wake_write);
        let validator = match pending {
            Ok(pending) => pending.wait().unwrap_or_else(|error| {
                Err(InteractionError::Validator {
                    label: label.clone(),
                    error,
                })
            }),
            Err(failed) => failed,
        };
        let relayed = relay_thread
            .join()
            .map_err(|_| InteractionError::Panicked("interaction's supervisor"))?
            .map_err(InteractionError::io("relay the interaction"))?;
        let measured = measured?;
        let validator = validator?;
        let stopped = signals.stop_submission.load(Ordering::SeqCst);
        Ok(PassRun {
            submission: ended(&measured, stopped),
            submission_memory_kib: measured.memory_kib,
            submission_cpu_wait_ms: measured.run_queue_wait_ms,
            submission_stderr_discarded: measured.stderr_discarded_bytes,
            submission_stderr: measured.stderr,
            validator: ended(&validator, relayed.stopped_validator),
            validator_stderr: validator.stderr,
            validator_first: relayed.validator_first(),
            transcript: render(&relayed.transcript),
            relayed,
        })
    })
}

/// One pass of a multi-pass problem that is not interactive: the
/// submission runs on the pass's input, then the validator reads its output.
fn offline_pass(
    sandbox: &mut Sandbox,
    spec: &InteractorSpec,
    submission: &SubmissionProgram<'_>,
    dir: &Path,
) -> Result<PassRun, InteractionError> {
    let measured = sandbox
        .run(&submission_spec(submission, Some(dir.join("input"))))
        .map_err(InteractionError::Sandbox)?;
    let run_ok = measured.succeeded();
    let output = dir.join("output");
    // Anew, never through a link the validator of the pass before left as
    // `output` (issue #35).
    left::write_fresh(dir, "output", &measured.stdout).map_err(|error| {
        InteractionError::LeftFile {
            label: spec.label.clone(),
            error,
        }
    })?;
    let mut validator_run = validator_spec(spec, dir, spec.limits.wall_time_ms);
    validator_run.stdin = Some(output);
    let validator = if run_ok {
        spec.sandboxes
            .run(move |own| own.run(&validator_run))
            .and_then(|measured| measured)
            .map_err(|error| InteractionError::Validator {
                label: spec.label.clone(),
                error,
            })?
    } else {
        // A failed run is decided without the validator: it is told
        // nothing, and the submission's own failure comes first.
        Measured {
            termination: Termination::Exited(verdict::ACCEPT),
            limit_exceeded: None,
            cpu_time_ms: 0,
            wall_time_ms: 0,
            memory_kib: 0,
            stdout: Vec::new(),
            stderr: Vec::new(),
            stderr_discarded_bytes: 0,
            deadlocked: false,
            run_queue_wait_ms: None,
            wall_granted_ms: 0,
        }
    };
    let mut shown = measured.stdout.clone();
    shown.truncate(TRANSCRIPT_BYTES);
    let relayed = Relayed {
        transcript: vec![(relay::Direction::ToValidator, shown)],
        ..Relayed::default()
    };
    Ok(PassRun {
        submission: ended(&measured, false),
        submission_memory_kib: measured.memory_kib,
        submission_cpu_wait_ms: measured.run_queue_wait_ms,
        submission_stderr_discarded: measured.stderr_discarded_bytes,
        submission_stderr: measured.stderr,
        validator: ended(&validator, false),
        validator_stderr: validator.stderr,
        validator_first: false,
        transcript: render(&relayed.transcript),
        relayed,
    })
}
