//! Preparing a submission to run: copying it into a directory of its own and
//! compiling it there, once, under the compile limits.
//!
//! The verdict is CE only when the compiler ran and rejected the program (or
//! exceeded a compile limit). A compiler that is not installed is the
//! judge's problem (JE), with a message naming the language and command.

use super::events::CompileResult;
use super::{Prepared, Settings, Submission, SubmissionKind};
use crate::config::judge::{Language, Placeholders};
use crate::sandbox::{resolve_program, LimitExceeded, RunSpec, Sandbox, Termination, Trust};
use crate::verdict::Verdict;
use std::ffi::OsString;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// The most of a compiler's message kept in reports.
pub const MESSAGE_LIMIT_BYTES: usize = 4096;

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
    match prepare_inner(sandbox, submission, dir, settings) {
        Ok(prepared) => prepared,
        Err(message) => Prepared::failed(CompileResult {
            ok: false,
            message,
            verdict: Some(Verdict::JudgeError),
        }),
    }
}

fn prepare_inner(
    sandbox: &mut Sandbox,
    submission: &Submission,
    dir: &Path,
    settings: &Settings,
) -> Result<Prepared, String> {
    let file_name = submission
        .path
        .file_name()
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("submission"));
    match &submission.kind {
        SubmissionKind::Executable => {
            let executable = dir.join(&file_name);
            copy_with_mode(&submission.path, &executable, 0o755)?;
            Ok(Prepared {
                compile: CompileResult {
                    ok: true,
                    message: String::new(),
                    verdict: None,
                },
                program: Some((executable.clone(), Vec::new())),
                read_paths: vec![dir.to_path_buf()],
            })
        }
        SubmissionKind::Language { name, language } => {
            let source_name = language
                .source_name
                .as_ref()
                .map(PathBuf::from)
                .unwrap_or(file_name);
            let source = dir.join(source_name);
            copy_with_mode(&submission.path, &source, 0o644)?;
            let executable = dir.join("main");
            let values = Placeholders {
                source: &source,
                executable: &executable,
                dir,
                memory_mib: settings.limits.memory_kib / 1024,
            };
            let compile = match &language.compile {
                None => CompileResult {
                    ok: true,
                    message: String::new(),
                    verdict: None,
                },
                Some(argv) => compile(
                    sandbox,
                    name,
                    &Language::expand(argv, &values),
                    dir,
                    settings,
                )?,
            };
            if !compile.ok {
                return Ok(Prepared::failed(compile));
            }
            let run = Language::expand(&language.run, &values);
            let (program, args) = run
                .split_first()
                .ok_or_else(|| format!("language `{name}`: `run` is empty"))?;
            let program = resolve_program(program, crate::sandbox::SANDBOX_PATH).ok_or_else(|| {
                format!(
                    "language `{name}`: `{program}` (from `run`) is not installed: not found in the \
                     sandbox's PATH ({})",
                    crate::sandbox::SANDBOX_PATH
                )
            })?;
            Ok(Prepared {
                compile,
                program: Some((program, args.iter().map(OsString::from).collect())),
                read_paths: vec![dir.to_path_buf()],
            })
        }
    }
}

fn compile(
    sandbox: &mut Sandbox,
    name: &str,
    argv: &[String],
    dir: &Path,
    settings: &Settings,
) -> Result<CompileResult, String> {
    let (program, args) = argv
        .split_first()
        .ok_or_else(|| format!("language `{name}`: `compile` is empty"))?;
    let search_path =
        std::env::var("PATH").unwrap_or_else(|_| crate::sandbox::SANDBOX_PATH.to_owned());
    let resolved = resolve_program(program, &search_path).ok_or_else(|| {
        format!(
            "language `{name}`: the compiler `{program}` is not installed (not found in PATH); \
             command: `{}`",
            argv.join(" ")
        )
    })?;
    let env = TOOL_ENVIRONMENT
        .iter()
        .filter_map(|key| std::env::var_os(key).map(|value| (OsString::from(key), value)))
        .chain([(OsString::from("TMPDIR"), dir.as_os_str().to_owned())])
        .collect();
    let spec = RunSpec {
        read_paths: toolchain_paths(&resolved),
        program: resolved,
        args: args.iter().map(OsString::from).collect(),
        stdin: None,
        workdir: Some(dir.to_path_buf()),
        env,
        limits: settings.compile_limits,
        trust: Trust::Tool,
    };
    let measured = sandbox
        .run(&spec)
        .map_err(|error| format!("failed to run the compiler of language `{name}`: {error:#}"))?;
    let mut output = String::from_utf8_lossy(&measured.stderr).into_owned();
    if !measured.stdout.is_empty() {
        output.push_str(&String::from_utf8_lossy(&measured.stdout));
    }
    let reason = match (measured.limit_exceeded, measured.termination) {
        (None, Termination::Exited(0)) => {
            return Ok(CompileResult {
                ok: true,
                message: trim_message(&output),
                verdict: None,
            })
        }
        (Some(LimitExceeded::CpuTime | LimitExceeded::WallTime), _) => format!(
            "compilation exceeded the time limit ({} ms)",
            settings.compile_limits.cpu_time_ms
        ),
        (Some(LimitExceeded::Memory), _) => format!(
            "compilation exceeded the memory limit ({} MiB)",
            settings.compile_limits.memory_kib / 1024
        ),
        (Some(LimitExceeded::Output), _) => "the compiler's output exceeded its limit".to_owned(),
        (None, Termination::Exited(code)) => format!("the compiler exited with code {code}"),
        (None, Termination::Signaled(signal)) => {
            format!("the compiler was killed by signal {signal}")
        }
    };
    Ok(CompileResult {
        ok: false,
        message: trim_message(&format!("{reason}\n{output}")),
        verdict: Some(Verdict::CompileError),
    })
}

/// What a compiler may read besides system directories: the tree it is
/// installed in (`/opt/x/bin/cc` -> `/opt/x`, following links), and for a
/// rustup proxy under `$CARGO_HOME` the toolchains under `$RUSTUP_HOME`.
fn toolchain_paths(compiler: &Path) -> Vec<PathBuf> {
    let mut paths = Vec::new();
    for path in [
        compiler.to_path_buf(),
        fs_err::canonicalize(compiler).unwrap_or_default(),
    ] {
        if let Some(root) = path.parent().and_then(Path::parent) {
            if root != Path::new("/") && !root.as_os_str().is_empty() {
                paths.push(root.to_path_buf());
            }
        }
    }
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let cargo_home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| home.as_ref().map(|home| home.join(".cargo")));
    let rustup_home = std::env::var_os("RUSTUP_HOME")
        .map(PathBuf::from)
        .or_else(|| home.as_ref().map(|home| home.join(".rustup")));
    if let (Some(cargo_home), Some(rustup_home)) = (cargo_home, rustup_home) {
        if paths.iter().any(|path| path.starts_with(&cargo_home)) {
            paths.push(rustup_home);
        }
    }
    paths
}

/// At most [`MESSAGE_LIMIT_BYTES`] of a message, cut at a character
/// boundary, with a note saying how much was left out.
pub fn trim_message(message: &str) -> String {
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

fn copy_with_mode(from: &Path, to: &Path, mode: u32) -> Result<(), String> {
    fs_err::copy(from, to).map_err(|error| format!("failed to copy the submission: {error}"))?;
    fs_err::set_permissions(to, std::fs::Permissions::from_mode(mode))
        .map_err(|error| format!("failed to copy the submission: {error}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trims_long_messages_with_a_note() {
        let long = "é".repeat(MESSAGE_LIMIT_BYTES);
        let trimmed = trim_message(&long);
        assert!(trimmed.ends_with(&format!("({} more bytes not shown)", MESSAGE_LIMIT_BYTES)));
        assert_eq!(trim_message("short\n\n"), "short");
    }
}
