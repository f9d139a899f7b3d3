//! Preparing a submission to run: copying it into a directory of its own and
//! compiling it there, once, under the compile limits.
//!
//! The verdict is CE only when the compiler ran and rejected the program (or
//! exceeded a compile limit). A compiler that is not installed is the
//! judge's problem (JE), with a message naming the language and command.

use super::events::{CompileResult, CompileState};
use super::java::JavaClasses;
use super::links::{LinkRefused, LinkScope};
use super::{Prepared, Settings, Submission, SubmissionKind};
use crate::config::judge::{Language, Placeholders};
use crate::hint::Hint;
use crate::sandbox::{resolve_program, LimitExceeded, RunSpec, Sandbox, Termination, Trust};
use crate::verdict::Verdict;
use std::ffi::OsString;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

mod scripts;
use scripts::prepare_scripts;
mod toolchain;
pub(crate) use toolchain::missing_toolchain;
use toolchain::{lendable, program_of, toolchain_of, why_not_found, ToolchainError};

/// The most of a compiler's message kept in reports.
pub(crate) const MESSAGE_LIMIT_BYTES: usize = 4096;

/// Environment variables passed to compilers, so toolchains installed under
/// the user's home (rustup, pyenv) still work.
const TOOL_ENVIRONMENT: &[&str] = &[
    "PATH",
    "HOME",
    "RUSTUP_HOME",
    "RUSTUP_TOOLCHAIN",
    "CARGO_HOME",
    "JAVA_HOME",
];

/// Copies and compiles one submission in `dir` (which exists, mode 0755).
pub(crate) fn prepare(
    sandbox: &mut Sandbox,
    submission: &Submission,
    dir: &Path,
    settings: &Settings,
) -> Prepared {
    if let SubmissionKind::Language { .. } = submission.kind {
        // Nothing a compiler or an interpreter says of these helps the
        // student; in every language, they are CE with the reason alone
        // (issue #32: an empty `.py` was PE, an empty `.cpp` a linker's
        // `undefined reference to main`, a binary file CE full of NULs).
        if let Some(reason) = not_source(&submission.path, &submission.link_scope) {
            return Prepared::failed(CompileResult::failed(Verdict::CompileError, reason));
        }
    }
    match prepare_inner(sandbox, submission, dir, settings) {
        Ok((mut prepared, copy)) => {
            prepared.own_paths = own_paths(&submission.path, dir, &copy);
            prepared.compile.message =
                with_own_paths(&prepared.compile.message, &prepared.own_paths);
            prepared
        }
        Err(Failure::Refused(message)) => {
            Prepared::failed(CompileResult::failed(Verdict::CompileError, message))
        }
        Err(Failure::Judge(message)) => {
            Prepared::failed(CompileResult::failed(Verdict::JudgeError, message))
        }
        Err(Failure::Toolchain(message)) => {
            Prepared::failed(CompileResult::missing_toolchain(message))
        }
    }
}

/// How much of a hand-in is read to tell whether it is source code: the
/// first bytes, as `git` and `diff` tell a binary file.
const SNIFF_BYTES: u64 = 64 << 10;

/// Why the file at `path` is not source code to compile or run: empty
/// (nothing but white space), or binary (a NUL byte in its first
/// [`SNIFF_BYTES`]). A file that cannot be read is left to the copy,
/// which says why, and so is a link `scope` does not let it follow: what
/// it points to is never opened, not even to tell that it is empty.
fn not_source(path: &Path, scope: &LinkScope) -> Option<String> {
    use std::io::Read as _;
    if path.is_symlink() && super::links::resolve_link(path, scope).is_err() {
        return None;
    }
    let mut head = Vec::new();
    let read = fs_err::File::open(path)
        .and_then(|file| file.take(SNIFF_BYTES).read_to_end(&mut head))
        .ok()?;
    if head.iter().all(u8::is_ascii_whitespace) && (read as u64) < SNIFF_BYTES {
        return Some("empty file: the submission has no code".to_owned());
    }
    if head.contains(&0) {
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |name| name.to_string_lossy().into_owned(),
        );
        return Some(format!(
            "not a source file: `{name}` holds binary data (NUL bytes), not program text; \
             hand in the source code itself"
        ));
    }
    None
}

/// Why a submission could not be prepared.
enum Failure {
    /// The hand-in itself is not acceptable (a symbolic link out of its
    /// folder, not a regular file, too large): CE with the reason.
    Refused(String),
    /// The judge failed (JE).
    Judge(String),
    /// The language's compiler or interpreter is missing for this user:
    /// that language's JE, the host's setup (issue 32).
    Toolchain(String),
}

impl From<ToolchainError> for Failure {
    fn from(error: ToolchainError) -> Failure {
        match error {
            ToolchainError::NoCompiler { .. } | ToolchainError::NoRunProgram { .. } => {
                Failure::Toolchain(error.to_string())
            }
            _ => Failure::Judge(error.to_string()),
        }
    }
}

/// The largest submission file read.
const MAX_SUBMISSION_BYTES: u64 = 16 << 20;

fn prepare_inner(
    sandbox: &mut Sandbox,
    submission: &Submission,
    dir: &Path,
    settings: &Settings,
) -> Result<(Prepared, PathBuf), Failure> {
    let file_name = submission
        .path
        .file_name()
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("submission"));
    match &submission.kind {
        SubmissionKind::Executable => {
            let executable = dir.join(&file_name);
            copy_submission(submission, &executable, 0o755)?;
            let prepared = Prepared {
                compile: CompileResult::compiled(String::new()),
                program: Some((executable.clone(), Vec::new())),
                read_paths: vec![dir.to_path_buf()],
                own_paths: Vec::new(),
            };
            Ok((prepared, executable))
        }
        SubmissionKind::Scripts => {
            let prepared = prepare_scripts(sandbox, submission, dir, settings)?;
            Ok((prepared, dir.join("run")))
        }
        SubmissionKind::Language { name, language } => {
            // A folder program (issue #15): the folder copied as it is, all
            // its sources compiled, the entry point run.
            let folder = if submission.path.is_dir() {
                let refused = |refused: super::folder_program::FolderRefused| {
                    Failure::Refused(refused.with_hint())
                };
                let copies = super::folder_program::copy_folder(
                    &submission.path,
                    dir,
                    submission.constants.as_deref(),
                    &submission.link_scope,
                )
                .map_err(refused)?;
                Some(
                    super::folder_program::sources_and_entry(&copies, dir, name, language)
                        .map_err(refused)?,
                )
            } else {
                None
            };
            // A folder's classes are its entry file's (issue #34: the class
            // `TestHello` of `TestHello.java` runs, not `Main`).
            let classes = java_classes(
                folder
                    .as_ref()
                    .map_or(submission.path.as_path(), |(_, entry)| entry.as_path()),
                &submission.link_scope,
                language,
            );
            let source = match &folder {
                Some((_, entry)) => entry.clone(),
                None => {
                    let source_name = language
                        .source_name
                        .as_ref()
                        .map(|name| PathBuf::from(name.replace("{class}", &classes.file)))
                        .unwrap_or(file_name);
                    let source = dir.join(source_name);
                    copy_submission(submission, &source, 0o644)?;
                    source
                }
            };
            let executable = dir.join("main");
            let values = Placeholders {
                source: &source,
                executable: &executable,
                dir,
                memory_mib: settings.limits.memory_kib / 1024,
                class: &classes.file,
                main_class: &classes.main,
            };
            let compile = match &language.compile {
                None => CompileResult::compiled(String::new()),
                Some(argv) => {
                    let mut argv = Language::expand(argv, &values);
                    if let Some((sources, entry)) = &folder {
                        argv =
                            super::folder_program::folder_compile_argv(argv, entry, sources, dir);
                    }
                    compile(sandbox, name, &argv, dir, settings)?
                }
            };
            if compile.state() != CompileState::Compiled {
                return Ok((Prepared::failed(compile), source));
            }
            let run = Language::expand(&language.run, &values);
            let (program, args) = run.split_first().ok_or_else(|| ToolchainError::EmptyRun {
                language: name.clone(),
            })?;
            let program =
                resolve_program(program, crate::sandbox::SANDBOX_PATH).ok_or_else(|| {
                    ToolchainError::NoRunProgram {
                        language: name.clone(),
                        program: program.clone(),
                    }
                })?;
            let prepared = Prepared {
                compile,
                program: Some((program, args.iter().map(OsString::from).collect())),
                read_paths: vec![dir.to_path_buf()],
                own_paths: Vec::new(),
            };
            Ok((prepared, source))
        }
    }
}

/// The Java classes of the hand-in (of a folder: of its entry file at
/// `source`, its copy), read in `scope` only when the language's commands
/// or `source-name` use `{class}` or `{main_class}`; `Main` for both
/// otherwise (or when the file cannot be read: copying it says why).
fn java_classes(source: &Path, scope: &LinkScope, language: &Language) -> JavaClasses {
    let uses = |text: &String| text.contains("{class}") || text.contains("{main_class}");
    let needed = language.source_name.iter().any(uses)
        || language.run.iter().any(uses)
        || language.compile.iter().flatten().any(uses);
    match needed.then(|| read_submission(source, scope)) {
        Some(Ok(bytes)) => super::java::classes(&String::from_utf8_lossy(&bytes)),
        _ => JavaClasses {
            file: "Main".to_owned(),
            main: "Main".to_owned(),
        },
    }
}

/// The replacements that give `dir`'s copy `copy` of the hand-in at
/// `original` its own path back in messages: the copy's path first, then
/// the folder's files (`main`, a class file) as files of the hand-in's
/// folder, then the copy's bare name in a stack frame (Java's).
fn own_paths(original: &Path, dir: &Path, copy: &Path) -> Vec<(String, String)> {
    let shown = original.display().to_string();
    if original.is_dir() {
        // A folder program: the copy's files are the folder's files.
        let mut dirs = vec![dir.to_path_buf()];
        if let Ok(real) = fs_err::canonicalize(dir) {
            if real != dir {
                dirs.push(real);
            }
        }
        return dirs
            .iter()
            .map(|dir| (format!("{}/", dir.display()), format!("{shown}/")))
            .collect();
    }
    let folder = original
        .parent()
        .map(|parent| parent.display().to_string())
        .filter(|parent| !parent.is_empty())
        .unwrap_or_else(|| ".".to_owned());
    let mut pairs = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    if let Ok(real) = fs_err::canonicalize(dir) {
        if real != dir {
            dirs.push(real);
        }
    }
    for dir in &dirs {
        if let Some(name) = copy.file_name() {
            pairs.push((dir.join(name).display().to_string(), shown.clone()));
        }
    }
    for dir in &dirs {
        pairs.push((format!("{}/", dir.display()), format!("{folder}/")));
    }
    // A stack frame names the source file alone, `at Solution.main(Solution.java:29)`
    // for the copy Java needs named after its class (issue #17): the frame
    // then names the hand-in, `(hand-ins/frank/rooks.java:29)`.
    if let Some(name) = copy.file_name() {
        let name = name.to_string_lossy();
        pairs.push((format!("({name}:"), format!("({shown}:")));
    }
    pairs
}

/// `text` with each temporary path of `pairs` replaced by its own.
pub(crate) fn with_own_paths(text: &str, pairs: &[(String, String)]) -> String {
    let mut text = text.to_owned();
    for (temporary, own) in pairs {
        if text.contains(temporary.as_str()) {
            text = text.replace(temporary.as_str(), own);
        }
    }
    text
}

fn compile(
    sandbox: &mut Sandbox,
    name: &str,
    argv: &[String],
    dir: &Path,
    settings: &Settings,
) -> Result<CompileResult, ToolchainError> {
    let (program, args) = argv
        .split_first()
        .ok_or_else(|| ToolchainError::EmptyCompile {
            language: name.to_owned(),
        })?;
    // The system's toolchain first, the one runs use too (a `python3` shim
    // under the judge's home would compile with another interpreter than
    // the one that runs the program); then the judge's own PATH (rustup).
    let search_path = match std::env::var("PATH") {
        Ok(path) => format!("{}:{path}", crate::sandbox::SANDBOX_PATH),
        Err(_) => crate::sandbox::SANDBOX_PATH.to_owned(),
    };
    let resolved =
        resolve_program(program, &search_path).ok_or_else(|| ToolchainError::NoCompiler {
            language: name.to_owned(),
            program: program.clone(),
            command: argv.join(" "),
            why: why_not_found(program, &search_path),
        })?;
    // A compile started through `env` (`env GOCACHE=... go build`): the
    // program `env` would start must be there too, or the missing compiler
    // reads as the hand-in's CE ("env: 'go': No such file or directory").
    if let Some(wrapped) = program_of(argv).filter(|wrapped| *wrapped != program.as_str()) {
        if !wrapped.contains('{') && resolve_program(wrapped, &search_path).is_none() {
            return Err(ToolchainError::NoCompiler {
                language: name.to_owned(),
                program: wrapped.to_owned(),
                command: argv.join(" "),
                why: why_not_found(wrapped, &search_path),
            });
        }
    }
    let env = TOOL_ENVIRONMENT
        .iter()
        .filter_map(|key| std::env::var_os(key).map(|value| (OsString::from(key), value)))
        .chain([
            (OsString::from("TMPDIR"), dir.as_os_str().to_owned()),
            // Python 3.11+: never import from the submission's folder while
            // compiling, even under a judge.toml without `-I` (issue #7).
            (OsString::from("PYTHONSAFEPATH"), OsString::from("1")),
        ])
        .collect();
    let (program, read_paths) = toolchain_of(&resolved);
    let read_paths = lendable(name, read_paths, sandbox.hidden());
    let spec = RunSpec {
        read_paths,
        program,
        args: args.iter().map(OsString::from).collect(),
        stdin: None,
        workdir: Some(dir.to_path_buf()),
        env,
        limits: settings.compile_limits,
        trust: Trust::Tool,
    };
    let measured = sandbox
        .run(&spec)
        .map_err(|error| ToolchainError::CompilerRun {
            language: name.to_owned(),
            error,
        })?;
    Ok(compile_outcome(
        &measured,
        &settings.compile_limits,
        "compilation",
        "the compiler",
    ))
}

/// What a compile step that ran came to: compiled, with what it said, or
/// CE with why (`step` names the step in a limit's message, `who` the
/// program: "compilation" and "the compiler", or a `build` script's).
fn compile_outcome(
    measured: &crate::sandbox::Measured,
    limits: &crate::sandbox::Limits,
    step: &str,
    who: &str,
) -> CompileResult {
    let mut output = String::from_utf8_lossy(&measured.stderr).into_owned();
    if !measured.stdout.is_empty() {
        output.push_str(&String::from_utf8_lossy(&measured.stdout));
    }
    let reason = match (measured.limit_exceeded, measured.termination) {
        (None, Termination::Exited(0)) => return CompileResult::compiled(trim_message(&output)),
        (Some(LimitExceeded::CpuTime | LimitExceeded::WallTime), _) => {
            format!("{step} exceeded the time limit ({} ms)", limits.cpu_time_ms)
        }
        (Some(LimitExceeded::Memory), _) => format!(
            "{step} exceeded the memory limit ({} MiB)",
            limits.memory_kib / 1024
        ),
        (Some(LimitExceeded::Output), _) => format!("{who}'s output exceeded its limit"),
        (Some(LimitExceeded::Scratch), _) => format!(
            "{who} wrote more than {} MiB (or {} files) in its working folder",
            limits.file_size_kib / 1024,
            crate::sandbox::scratch_files(limits.file_size_kib)
        ),
        (None, Termination::Exited(code)) => format!("{who} exited with code {code}"),
        (None, Termination::Signaled(signal)) => format!("{who} was killed by signal {signal}"),
    };
    let reason = if hit_file_size_limit(measured.termination, &output) {
        format!(
            "{reason}: a file it wrote reached the compile's file size limit ({} MiB; a larger \
             `file-size-kib` under `[limits]` in judge.toml raises it)",
            limits.file_size_kib / 1024
        )
    } else {
        reason
    };
    CompileResult::failed(
        Verdict::CompileError,
        trim_message(&format!("{reason}\n{output}")),
    )
}

/// Whether a compile step ended because a file it wrote reached its file
/// size limit (`RLIMIT_FSIZE`): it died of `SIGXFSZ` itself, or a driver
/// reports a tool of its that did (`g++: internal compiler error: File
/// size limit exceeded signal terminated program as`, the signal's name as
/// `strsignal` gives it). Issue #34: DOMjudge's `test-memstatic.cc`, a 512
/// MiB initialised array, makes an object file that large.
fn hit_file_size_limit(termination: Termination, output: &str) -> bool {
    termination == Termination::Signaled(libc::SIGXFSZ)
        || output.contains("File size limit exceeded")
}

/// At most [`MESSAGE_LIMIT_BYTES`] of a message, cut at a character
/// boundary, with a note saying how much was left out.
pub(crate) fn trim_message(message: &str) -> String {
    let message = message.trim_end();
    if message.len() <= MESSAGE_LIMIT_BYTES {
        return message.to_owned();
    }
    let mut end = MESSAGE_LIMIT_BYTES;
    while !message.is_char_boundary(end) {
        end -= 1;
    }
    format!(
        "{}\n... ({} more bytes not shown)",
        &message[..end],
        message.len() - end
    )
}

/// Reads a program's file without trusting it (issue #7): a symbolic link
/// is followed only where `scope` lets it resolve ([`super::links`]): a
/// hand-in's inside the folder that holds it (a link to `/root/secret` or
/// to another student's folder is refused, and its target never read), a
/// package's own program's inside the package or to a public file (issue
/// #34). Only a regular file of at most [`MAX_SUBMISSION_BYTES`] is read,
/// so a FIFO or a device cannot block or flood the judge. Every reader of a
/// submission's bytes goes through here.
pub(crate) fn read_submission(
    from: &Path,
    scope: &LinkScope,
) -> Result<Vec<u8>, SubmissionRefused> {
    use fs_err::os::unix::fs::OpenOptionsExt;
    use std::io::Read;
    let name = from.display();
    let unreadable = |error: std::io::Error| {
        SubmissionRefused::Unreadable(format!("failed to read the submission: {error}"))
    };
    let metadata = fs_err::symlink_metadata(from).map_err(unreadable)?;
    let mut path = from.to_path_buf();
    if metadata.file_type().is_symlink() {
        path = super::links::resolve_link(from, scope).map_err(SubmissionRefused::Link)?;
    }
    let file = fs_err::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(&path)
        .map_err(unreadable)?;
    let metadata = file.metadata().map_err(unreadable)?;
    if !metadata.is_file() {
        return Err(SubmissionRefused::Refused(format!(
            "refused `{name}`: it is not a regular file"
        )));
    }
    if metadata.len() > MAX_SUBMISSION_BYTES {
        return Err(SubmissionRefused::Refused(format!(
            "refused `{name}`: it is larger than {} MiB",
            MAX_SUBMISSION_BYTES >> 20
        )));
    }
    let mut bytes = Vec::new();
    file.take(MAX_SUBMISSION_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(unreadable)?;
    Ok(bytes)
}

/// Why a submission's bytes were not read: the hand-in's fault (a CE
/// with the reason) or the judge's (JE).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum SubmissionRefused {
    /// A symbolic link the link rule refuses ([`super::links`]), its advice
    /// a hint beside it ([`LinkRefused::hint`]), never inside its words.
    #[error(transparent)]
    Link(LinkRefused),
    /// Not a regular file, or too large.
    #[error("{0}")]
    Refused(String),
    /// It could not be read (JE).
    #[error("{0}")]
    Unreadable(String),
}

impl SubmissionRefused {
    /// The advice printed after the refusal, when it has any.
    pub(crate) fn hint(&self) -> Option<Hint> {
        match self {
            SubmissionRefused::Link(refused) => refused.hint(),
            SubmissionRefused::Refused(_) | SubmissionRefused::Unreadable(_) => None,
        }
    }

    /// The refusal as one text, its hint after a blank line: what a report
    /// or a list of skipped files shows, which no printer of errors sees
    /// ([`crate::hint::with_hint`]).
    pub(crate) fn with_hint(&self) -> String {
        crate::hint::with_hint(self, self.hint())
    }
}

/// Copies a hand-in into its directory, read by [`read_submission`].
/// Copies the file of `submission` to `to` with `mode`, its constants
/// replaced (a package's own program).
fn copy_submission(submission: &Submission, to: &Path, mode: u32) -> Result<(), Failure> {
    let bytes =
        read_submission(&submission.path, &submission.link_scope).map_err(
            |refusal| match refusal {
                SubmissionRefused::Link(_) | SubmissionRefused::Refused(_) => {
                    Failure::Refused(refusal.with_hint())
                }
                SubmissionRefused::Unreadable(message) => Failure::Judge(message),
            },
        )?;
    let bytes = match &submission.constants {
        Some(constants) => constants.substitute_bytes(bytes),
        None => bytes,
    };
    fs_err::write(to, &bytes)
        .and_then(|()| fs_err::set_permissions(to, std::fs::Permissions::from_mode(mode)))
        .map_err(|error| Failure::Judge(format!("failed to copy the submission: {error}")))
}

#[cfg(test)]
mod tests;
