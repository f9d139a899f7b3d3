//! One program of a package (reference, generator, validator, checker):
//! compiled once, on first use, and run in the sandbox as a trusted-ish
//! tool with the package's tool limits.
//!
//! Every way a tool can fail (it does not compile, crashes, times out,
//! floods its output) comes back as a [`ToolFault`] naming the program and
//! what it did: the caller turns it into JE, never into a verdict against
//! a submission (issue #9).

use crate::config::judge::Language;
use crate::config::kattis_constants::Constants;
use crate::runner::program_message::cut;
use crate::runner::{LinkScope, PreparedTool, Settings, Submission, SubmissionKind, Workspace};
use crate::sandbox::{
    Hidden, LimitExceeded, Limits, Measured, RunSpec, Sandbox, SandboxPool, Termination, Trust,
};
use std::ffi::OsString;
use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

/// What a tool did wrong, as one sentence naming it:
/// "checker `check.cpp` was killed by signal 11 (SIGSEGV)".
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub(crate) struct ToolFault(pub String);

/// The most of a tool's stderr shown in a message.
const SHOWN_STDERR_BYTES: usize = 2048;

/// The most of a file a tool left (a message, a score) the judge reads:
/// more is a log, not a reason, and the tool's fault.
const COLLECTED_BYTES: u64 = crate::runner::program_message::MAX_MESSAGE_BYTES as u64;

/// The most of a checker's or validator's stdout the judge keeps (see
/// [`Toolbox::run_message`]): the rest is read and thrown away.
const MESSAGE_STDOUT_BYTES: u64 = 1 << 20;

/// What a tool's stdout is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stdout {
    /// Data (a generator's test, a reference's answer): kept up to a
    /// test's size, past which the run is stopped.
    Data,
    /// At most a message (a checker's, a validator's): its head kept, the
    /// rest thrown away while the tool runs on to its exit code.
    Message,
}

/// What a package's program is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Role {
    Reference,
    Generator,
    Validator,
    Checker,
    /// An interactive problem's own interactor (problem.toml `[interactor]`).
    Interactor,
}

impl Role {
    /// How messages name it: `reference`, `generator`, `validator`,
    /// `checker`, `interactor`.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Role::Reference => "reference",
            Role::Generator => "generator",
            Role::Validator => "validator",
            Role::Checker => "checker",
            Role::Interactor => "interactor",
        }
    }
}

impl std::fmt::Display for Role {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// One program of a package.
#[derive(Debug)]
pub(crate) struct Tool {
    pub(crate) role: Role,
    /// The source (or executable) in the package.
    pub(crate) path: PathBuf,
    /// The configured language, or `None` for an executable run as is (or
    /// a folder with `build` / `run` scripts, built and run by them).
    pub(crate) language: Option<(String, Language)>,
    /// How messages name it, when not by its role and file name.
    described: Option<String>,
    compiled: OnceLock<Result<PreparedTool, ToolFault>>,
}

/// How the files a tool left are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Collect {
    /// A message or a score: at most a message's size, the tool's file
    /// names in it turned into the package's.
    Message,
    /// Test data (a generator's `testcase.in`): up to a test's size, as is.
    Data,
}

/// What a finished tool left: its measurements and the files it wrote in
/// its working directory that the caller asked for.
#[derive(Debug)]
pub(crate) struct ToolRun {
    pub(crate) measured: Measured,
    /// `(name, bytes)` of each file asked for that exists.
    pub(crate) files: Vec<(String, Vec<u8>)>,
    /// `(name, bytes)` of what a message file of `files` held past a
    /// message's bound, not read: the caller says whether a cut file is
    /// still a message (`judgemessage.txt`) or the tool's fault (a score).
    pub(crate) unread: Vec<(String, u64)>,
}

impl Tool {
    pub(crate) fn new(role: Role, path: PathBuf, language: Option<(String, Language)>) -> Tool {
        Tool {
            role,
            path,
            language,
            described: None,
            compiled: OnceLock::new(),
        }
    }

    /// The tool, named `label` in messages ("the package's main solution
    /// `solutions/main.cpp`").
    pub(crate) fn described_as(mut self, label: String) -> Tool {
        self.described = Some(label);
        self
    }

    /// "checker `check.cpp`".
    pub(crate) fn label(&self) -> String {
        if let Some(label) = &self.described {
            return label.clone();
        }
        let name = self.path.file_name().map_or_else(
            || self.path.display().to_string(),
            |name| name.to_string_lossy().into_owned(),
        );
        format!("{} `{name}`", self.role)
    }

    /// A fault of this tool: "checker `check.cpp` {what}".
    pub(crate) fn fault(&self, what: impl std::fmt::Display) -> ToolFault {
        ToolFault(format!("{} {what}", self.label()))
    }
}

/// The place tools are compiled and run: a private workspace, the limits,
/// and a counter naming each run's directory.
#[derive(Debug)]
pub(crate) struct Toolbox {
    /// Declared before the workspace: its sandboxes live there and are
    /// removed first.
    sandboxes: SandboxPool,
    workspace: Workspace,
    settings: Settings,
    next_run: AtomicU64,
    /// Replaced in the files of every tool as it is copied to be compiled
    /// (a 2025-09 package's `constants`; issue #34).
    constants: Option<Arc<Constants>>,
    /// Where the links among every tool's files may lead: the package's.
    link_scope: LinkScope,
}

impl Toolbox {
    /// A workspace and lent sandboxes for a package's programs, which
    /// never see what `hidden` holds (what the command hides while the
    /// package loads, and the package's own secret folders; see
    /// [`Toolbox::hide`] for later), and whose links lead where
    /// `link_scope` lets them (the package's, [`LinkScope::package`]).
    pub(crate) fn new(
        compile_limits: Limits,
        run_limits: Limits,
        hidden: Arc<Hidden>,
        link_scope: LinkScope,
    ) -> Result<Toolbox, ToolFault> {
        let workspace = Workspace::new().map_err(|error| {
            ToolFault(format!("failed to make the tools' workspace: {error:#}"))
        })?;
        Ok(Toolbox {
            sandboxes: SandboxPool::new(workspace.path(), hidden),
            workspace,
            settings: Settings {
                limits: run_limits,
                compile_limits,
                jobs: 1,
                check_options: crate::problems::CheckOptions::default(),
            },
            next_run: AtomicU64::new(0),
            constants: None,
            link_scope,
        })
    }

    /// Hides `hidden` from the tools' next run on, in place of what they
    /// hid so far: the command's one value, which holds more than the
    /// package knew when it loaded (other packages, a `--tests` folder,
    /// the hand-ins).
    pub(crate) fn hide(&self, hidden: &Arc<Hidden>) {
        self.sandboxes.hide(Arc::clone(hidden));
    }

    /// The same toolbox, `constants` replaced in every tool's files (none
    /// when it has none).
    pub(crate) fn with_constants(self, constants: &Constants) -> Toolbox {
        Toolbox {
            constants: (!constants.is_empty()).then(|| Arc::new(constants.clone())),
            ..self
        }
    }

    /// The tools' limits.
    pub(crate) fn limits(&self) -> &Limits {
        &self.settings.limits
    }

    /// A fresh directory under the workspace, mode 0755.
    fn fresh_dir(&self, prefix: &str) -> Result<PathBuf, ToolFault> {
        let number = self.next_run.fetch_add(1, Ordering::Relaxed);
        let dir = self.workspace.path().join(format!("{prefix}-{number}"));
        fs_err::create_dir(&dir)
            .and_then(|()| fs_err::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)))
            .map_err(|error| {
                ToolFault(format!("failed to make a directory for a tool: {error}"))
            })?;
        Ok(dir)
    }

    /// Runs `work` on one of the package's lent sandboxes
    /// ([`SandboxPool`]): the caller may be one of the runner's workers,
    /// whose own sandbox is the submission's, and a sandbox belongs to the
    /// thread that made it, so the work goes to the lent sandbox's thread.
    fn with_sandbox<T: Send + 'static>(
        &self,
        work: impl FnOnce(&mut Sandbox) -> Result<T, ToolFault> + Send + 'static,
    ) -> Result<T, ToolFault> {
        self.sandboxes.run(work).map_err(|error| {
            ToolFault(format!(
                "failed to set up the sandbox for a tool: {error:#}"
            ))
        })?
    }

    /// The package's lent sandboxes (the unit tests count them).
    #[cfg(test)]
    pub(crate) fn sandboxes(&self) -> &SandboxPool {
        &self.sandboxes
    }

    /// Compiles `tool` on its first use; later uses get the same program.
    pub(crate) fn prepare(&self, tool: &Tool) -> Result<PreparedTool, ToolFault> {
        tool.compiled
            .get_or_init(|| {
                let dir = self.fresh_dir("tool")?;
                let kind = match &tool.language {
                    Some((name, language)) => SubmissionKind::Language {
                        name: name.clone(),
                        language: language.clone(),
                    },
                    None if crate::runner::has_scripts(&tool.path) => SubmissionKind::Scripts,
                    None => SubmissionKind::Executable,
                };
                let program = Submission {
                    path: tool.path.clone(),
                    constants: self.constants.clone(),
                    kind,
                    link_scope: self.link_scope.clone(),
                };
                let settings = self.settings.clone();
                let label = tool.label();
                self.with_sandbox(move |sandbox| {
                    crate::runner::prepare_tool(sandbox, &program, &dir, &settings)
                        .map_err(|not_compiled| ToolFault(format!("{label} {not_compiled}")))
                })
            })
            .clone()
    }

    /// `tool` as the output validator of an interactive or multi-pass
    /// problem: compiled, with the tools' limits and workspace.
    pub(crate) fn interactor_spec(
        &self,
        tool: &Tool,
        flags: &[String],
        interactive: bool,
        passes: u32,
        protocol: crate::interaction::InteractorProtocol,
    ) -> Result<crate::interaction::InteractorSpec, ToolFault> {
        let prepared = self.prepare(tool)?;
        let name = tool.path.file_name().map_or_else(
            || tool.path.display().to_string(),
            |name| name.to_string_lossy().into_owned(),
        );
        Ok(crate::interaction::InteractorSpec {
            label: match protocol {
                crate::interaction::InteractorProtocol::Kattis => {
                    format!("output validator `{name}`")
                }
                crate::interaction::InteractorProtocol::Testlib { .. } => {
                    format!("interactor `{name}`")
                }
            },
            program: prepared.program,
            args: prepared.args,
            read_paths: prepared.read_paths,
            own_paths: prepared.own_paths,
            limits: self.settings.limits,
            flags: flags.to_vec(),
            interactive,
            passes,
            workspace: self.workspace.path().to_path_buf(),
            protocol,
            sandboxes: self.sandboxes.clone(),
        })
    }

    /// Runs `tool` with `args` (file names relative to its working
    /// directory), `stdin`, and `files` written into that directory first;
    /// `dirs` are made there too (a Kattis feedback directory). Returns what
    /// it did and the files named in `collect`.
    pub(crate) fn run(
        &self,
        tool: &Tool,
        args: &[&str],
        stdin: Option<&[u8]>,
        files: &[(&str, &[u8])],
        dirs: &[&str],
        collect: &[&str],
    ) -> Result<ToolRun, ToolFault> {
        self.run_collecting(
            tool,
            args,
            stdin,
            files,
            dirs,
            collect,
            Collect::Message,
            Stdout::Data,
        )
    }

    /// [`Toolbox::run`] for a checker or a validator, whose stdout is at
    /// most a message: its first MiB is kept and the rest thrown away, so
    /// one that floods stdout neither grows the judge nor ends as a fault,
    /// and its exit code decides (issue #35).
    pub(crate) fn run_message(
        &self,
        tool: &Tool,
        args: &[&str],
        stdin: Option<&[u8]>,
        files: &[(&str, &[u8])],
        dirs: &[&str],
        collect: &[&str],
    ) -> Result<ToolRun, ToolFault> {
        self.run_collecting(
            tool,
            args,
            stdin,
            files,
            dirs,
            collect,
            Collect::Message,
            Stdout::Message,
        )
    }

    /// [`Toolbox::run`], reading the files named in `collect` as `how`
    /// says: a generator's test files are data, up to a test's size, and
    /// kept byte for byte.
    #[expect(
        clippy::too_many_arguments,
        reason = "`run`'s arguments and how its files are read"
    )]
    pub(crate) fn run_collecting(
        &self,
        tool: &Tool,
        args: &[&str],
        stdin: Option<&[u8]>,
        files: &[(&str, &[u8])],
        dirs: &[&str],
        collect: &[&str],
        how: Collect,
        stdout: Stdout,
    ) -> Result<ToolRun, ToolFault> {
        let prepared = self.prepare(tool)?;
        let workdir = self.fresh_dir("run")?;
        let io_fault = |error: std::io::Error| {
            ToolFault(format!(
                "failed to prepare a run of the {}: {error}",
                tool.label()
            ))
        };
        for (name, bytes) in files {
            fs_err::write(workdir.join(name), bytes).map_err(io_fault)?;
        }
        for name in dirs {
            fs_err::create_dir(workdir.join(name)).map_err(io_fault)?;
        }
        let stdin_path = match stdin {
            Some(bytes) => {
                let path = workdir.with_extension("stdin");
                fs_err::write(&path, bytes).map_err(io_fault)?;
                Some(path)
            }
            None => None,
        };
        let mut all_args = prepared.args.clone();
        all_args.extend(args.iter().map(OsString::from));
        let spec = RunSpec {
            program: prepared.program.clone(),
            args: all_args,
            stdin: stdin_path.clone(),
            workdir: Some(workdir.clone()),
            env: Vec::new(),
            read_paths: prepared.read_paths.clone(),
            limits: self.settings.limits,
            trust: Trust::Tool,
        };
        let label = tool.label();
        let measured = self.with_sandbox(move |sandbox| {
            match stdout {
                Stdout::Data => sandbox.run(&spec),
                Stdout::Message => sandbox.run_message(&spec, MESSAGE_STDOUT_BYTES),
            }
            .map_err(|error| ToolFault(format!("failed to run the {label}: {error:#}")))
        });
        let mut collected = Vec::new();
        let mut unread = Vec::new();
        let mut refused = None;
        if measured.is_ok() {
            for name in collect {
                // Read as the sandbox's files are, never through a link
                // (issue #35); one it may not be read from is its fault.
                // A message is cut at its bound (what is past it counted,
                // not read); test data over its bound is refused.
                let read = crate::sandbox::left::open_left(&workdir, name).and_then(|file| {
                    file.map(|file| match how {
                        Collect::Message => file.read_prefix(COLLECTED_BYTES),
                        Collect::Data => file
                            .read(crate::problems::text::MAX_TEXT_BYTES as u64)
                            .map(|bytes| (bytes, 0)),
                    })
                    .transpose()
                });
                match read {
                    // A message naming the tool's file names the package's.
                    Ok(Some((bytes, more))) if how == Collect::Message => {
                        collected.push(((*name).to_owned(), prepared.own_bytes(&bytes)));
                        if more > 0 {
                            unread.push(((*name).to_owned(), more));
                        }
                    }
                    Ok(Some((bytes, _))) => collected.push(((*name).to_owned(), bytes)),
                    Ok(None) => {}
                    Err(error) => {
                        refused = Some(
                            tool.fault(format!("left a file the judge does not read: {error}")),
                        );
                        break;
                    }
                }
            }
        }
        let _ = fs_err::remove_dir_all(&workdir);
        if let Some(path) = stdin_path {
            let _ = fs_err::remove_file(path);
        }
        let mut measured = measured?;
        if let Some(fault) = refused {
            return Err(fault);
        }
        // A traceback names the package's file, not its compiled copy.
        measured.stderr = prepared.own_bytes(&measured.stderr);
        Ok(ToolRun {
            measured,
            files: collected,
            unread,
        })
    }
}

/// How a tool's run went wrong before its exit code means anything: a
/// limit, or a signal. `None` when it exited normally within its limits.
pub(crate) fn abnormal_end(tool: &Tool, measured: &Measured, limits: &Limits) -> Option<ToolFault> {
    let what = match measured.limit_exceeded {
        Some(LimitExceeded::CpuTime) => format!(
            "timed out: it used more than {} ms of CPU",
            limits.cpu_time_ms
        ),
        // Worded from what was measured (issue #29 break-it: a spinning
        // generator on a busy host was said to wait for input): a run that
        // spent most of its time on the CPU was computing.
        Some(LimitExceeded::WallTime) if measured.cpu_time_ms * 2 >= measured.wall_time_ms => {
            format!(
                "timed out: it ran for more than {} ms, {} ms of them on the CPU (it was \
                 computing; on a busy host its CPU limit of {} ms is reached later)",
                limits.wall_time_ms, measured.cpu_time_ms, limits.cpu_time_ms
            )
        }
        Some(LimitExceeded::WallTime) => format!(
            "timed out: it ran for more than {} ms but used only {} ms of CPU (it may hang or \
             wait for input)",
            limits.wall_time_ms, measured.cpu_time_ms
        ),
        Some(LimitExceeded::Memory) => {
            format!("used more than {} MiB of memory", limits.memory_kib / 1024)
        }
        // Stopped by a flood of stderr (a generator's, past the ceiling of
        // a tool's stderr) while its stdout was within its limit: said as
        // what it was, not as stdout.
        Some(LimitExceeded::Output)
            if measured.stderr_discarded_bytes > 0
                && (measured.stdout.len() as u64) < limits.stdout_bytes =>
        {
            let written = measured.stderr.len() as u64 + measured.stderr_discarded_bytes;
            format!("wrote more than {} KiB on stderr", written / 1024)
        }
        Some(LimitExceeded::Output) => format!(
            "wrote more than {} KiB on stdout",
            limits.stdout_bytes / 1024
        ),
        Some(LimitExceeded::Scratch) => "filled its scratch space".to_owned(),
        None => match measured.termination {
            Termination::Signaled(signal) => format!(
                "was killed by {}",
                crate::runner::termination::signal_words(signal)
            ),
            Termination::Exited(_) => return None,
        },
    };
    Some(tool.fault(with_stderr(&what, measured)))
}

/// `what`, followed by the tool's stderr between rulers (or a note that it
/// was empty), cut at [`SHOWN_STDERR_BYTES`].
pub(crate) fn with_stderr(what: &str, measured: &Measured) -> String {
    let stderr = String::from_utf8_lossy(&measured.stderr);
    let stderr = stderr.trim_end();
    if stderr.is_empty() {
        return format!("{what} <stderr is empty>");
    }
    let shown = format!("{what}; its stderr:\n{}", cut(stderr, SHOWN_STDERR_BYTES));
    match crate::runner::program_message::refused_call_note(&measured.stderr) {
        Some(note) => format!("{shown}\n{note}"),
        None => shown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits() -> Limits {
        Limits {
            cpu_time_ms: 2000,
            wall_time_ms: 10_000,
            memory_kib: 256 * 1024,
            stdout_bytes: 1 << 16,
            stderr_bytes: 1 << 12,
            processes: 16,
            open_files: 64,
            file_size_kib: 1024,
            scratch_kib: 4096,
        }
    }

    /// A Kattis output validator that floods stdout (16 MiB, past what a
    /// test's output may be here) is still decided by its exit code and
    /// message, and the judge keeps only the head of that stdout (issue
    /// #35: it was read whole, up to a test's size, and past it the run
    /// ended as the validator's fault).
    #[test]
    fn a_checker_flooding_stdout_is_decided_by_its_exit_code() {
        let package = tempfile::tempdir().unwrap();
        fs_err::set_permissions(package.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        let script = package.path().join("validate.sh");
        fs_err::write(
            &script,
            "#!/bin/sh
head -c 16777216 /dev/zero | tr '\\0' x
\
             echo 'wrong count' > feedback/judgemessage.txt
exit 43
",
        )
        .unwrap();
        fs_err::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        let test_sized = Limits {
            stdout_bytes: 4 << 20,
            cpu_time_ms: 10_000,
            wall_time_ms: 20_000,
            ..limits()
        };
        let toolbox =
            Toolbox::new(test_sized, test_sized, Arc::default(), LinkScope::HandIn).unwrap();
        let tool = Tool::new(Role::Checker, script, None);
        let outcome = crate::external::CheckerProtocol::Kattis
            .check(&toolbox, &tool, &[], "1 2\n", "4\n", "3\n")
            .unwrap();
        assert_eq!(outcome.verdict, crate::verdict::Verdict::WrongAnswer);
        assert!(outcome.reason.contains("wrong count"), "{}", outcome.reason);
        let run = toolbox
            .run_message(
                &tool,
                &["input", "answer", "feedback/"],
                None,
                &[],
                &["feedback"],
                &[],
            )
            .unwrap();
        assert_eq!(run.measured.stdout.len() as u64, MESSAGE_STDOUT_BYTES);
        assert!(run.measured.stdout.iter().all(|&byte| byte == b'x'));
    }

    /// A Kattis output validator that floods stderr (20 MiB, past the
    /// ceiling of a compile's stderr) and exits 42 is AC: a message run's
    /// stderr past its cap is thrown away, as its stdout is (issue #35: the
    /// run was ended as output past its limit, a JE naming stdout).
    #[test]
    fn a_checker_flooding_stderr_is_decided_by_its_exit_code() {
        let package = tempfile::tempdir().unwrap();
        fs_err::set_permissions(package.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        let script = package.path().join("validate.sh");
        fs_err::write(
            &script,
            "#!/bin/sh\nhead -c 20971520 /dev/zero | tr '\\0' x >&2\nexit 42\n",
        )
        .unwrap();
        fs_err::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        let generous = Limits {
            cpu_time_ms: 10_000,
            wall_time_ms: 20_000,
            ..limits()
        };
        let toolbox = Toolbox::new(generous, generous, Arc::default(), LinkScope::HandIn).unwrap();
        let tool = Tool::new(Role::Checker, script, None);
        let outcome = crate::external::CheckerProtocol::Kattis
            .check(&toolbox, &tool, &[], "1 2\n", "3\n", "3\n")
            .unwrap();
        assert_eq!(outcome.verdict, crate::verdict::Verdict::Accepted);
    }

    /// A tool stopped by a flood of stderr (a generator's, past the
    /// ceiling of a tool's stderr) is said to have flooded stderr, not
    /// stdout (issue #35).
    #[test]
    fn a_tool_stopped_for_its_stderr_names_stderr() {
        let measured = Measured {
            termination: Termination::Signaled(9),
            limit_exceeded: Some(LimitExceeded::Output),
            cpu_time_ms: 1,
            wall_time_ms: 1,
            memory_kib: 1,
            stdout: b"1 2\n".to_vec(),
            stderr: vec![b'x'; 4096],
            stderr_discarded_bytes: 17 << 20,
            deadlocked: false,
            run_queue_wait_ms: None,
            wall_granted_ms: 0,
        };
        let tool = Tool::new(Role::Generator, PathBuf::from("gen.sh"), None);
        let fault = abnormal_end(&tool, &measured, &limits()).unwrap();
        assert!(
            fault.0.contains("wrote more than 17412 KiB on stderr"),
            "{}",
            fault.0
        );
    }

    /// See: issue #29 break-it. A tool out of wall time is worded from
    /// what was measured: one that burnt CPU was computing, one that did
    /// not may wait for input.
    #[test]
    fn a_tool_out_of_wall_time_is_worded_from_its_cpu_time() {
        let measured = |cpu_time_ms: u64| Measured {
            termination: Termination::Signaled(9),
            limit_exceeded: Some(LimitExceeded::WallTime),
            cpu_time_ms,
            wall_time_ms: 30_500,
            memory_kib: 1,
            stdout: Vec::new(),
            stderr: Vec::new(),
            stderr_discarded_bytes: 0,
            deadlocked: false,
            run_queue_wait_ms: None,
            wall_granted_ms: 0,
        };
        let tool = Tool::new(Role::Generator, PathBuf::from("gen.sh"), None);
        let spinning = abnormal_end(&tool, &measured(20_000), &limits()).unwrap().0;
        assert!(
            spinning.contains("20000 ms of them on the CPU (it was computing")
                && !spinning.contains("wait for input"),
            "{spinning}"
        );
        let waiting = abnormal_end(&tool, &measured(3), &limits()).unwrap().0;
        assert!(
            waiting.contains("used only 3 ms of CPU (it may hang or wait for input)"),
            "{waiting}"
        );
    }

    /// A checker called once per test sets one sandbox up per worker, not
    /// one per call (issue #19): sequential calls share one, two workers at
    /// once at most two.
    #[test]
    fn a_tool_called_per_test_reuses_one_sandbox_per_worker() {
        let package = tempfile::tempdir().unwrap();
        fs_err::set_permissions(package.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        let script = package.path().join("check.sh");
        fs_err::write(&script, "#!/bin/sh\ncat input\n").unwrap();
        fs_err::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        let toolbox = Toolbox::new(limits(), limits(), Arc::default(), LinkScope::HandIn).unwrap();
        let tool = Tool::new(Role::Checker, script, None);
        let call = |index: usize| {
            let text = format!("test {index}\n");
            let run = toolbox
                .run(&tool, &[], None, &[("input", text.as_bytes())], &[], &[])
                .unwrap();
            assert_eq!(run.measured.stdout, text.as_bytes());
        };
        for index in 0..10 {
            call(index);
        }
        assert_eq!(toolbox.sandboxes().started(), 1);
        std::thread::scope(|scope| {
            for worker in 0..2 {
                scope.spawn(move || (0..10).for_each(|index| call(worker * 100 + index)));
            }
        });
        assert!(toolbox.sandboxes().started() <= 2);
    }
}
