//! Folder programs with `build` / `run` scripts (the Kattis format's
//! programs; see [`crate::runner::has_scripts`]): built by `build`
//! as a compile step, run by `run`.

use super::*;

/// Prepares a folder program with `build` / `run` scripts (see
/// [`crate::runner::has_scripts`]): the folder is copied into `dir`, its
/// `build` (when there is one) runs there as a compile step does (same
/// sandbox, same compile limits, `dir` its working directory and the only
/// place it may write), and `run`, which must then be an executable
/// regular file in `dir`, is the program. A script that fails, or a
/// missing or unusable `run`, is CE with the reason.
pub(super) fn prepare_scripts(
    sandbox: &mut Sandbox,
    submission: &Submission,
    dir: &Path,
    settings: &Settings,
) -> Result<Prepared, Failure> {
    let folder = submission.path.as_path();
    crate::runner::folder_program::copy_folder(
        folder,
        dir,
        submission.constants.as_deref(),
        &submission.link_scope,
    )
    .map_err(|refused| Failure::Refused(refused.with_hint()))?;
    // Messages name the package's (or hand-in's) own scripts.
    let own = |name: &str| format!("`{}`", folder.join(name).display());
    let build = dir.join("build");
    // Asked of the hand-in's own folder: the copy holds regular files only,
    // so a `build` that is a folder would be missing there, and the
    // program run without it. A `build` or `run` that is a link was copied
    // as its target by the link rule (issue #34: setters share one script
    // among submissions through links), so only the copy is checked.
    let built = fs_err::symlink_metadata(folder.join("build")).is_ok();
    let compile = if built {
        if let Some(reason) =
            a_folder(&folder.join("build")).or_else(|| not_an_executable_file(&build))
        {
            return Err(Failure::Refused(format!("{} {reason}", own("build"))));
        }
        run_build(sandbox, &build, &own("build"), dir, settings)?
    } else {
        CompileResult::compiled(String::new())
    };
    if compile.state() != CompileState::Compiled {
        return Ok(Prepared::failed(compile));
    }
    let run = dir.join("run");
    if !built {
        if let Some(reason) = a_folder(&folder.join("run")) {
            return Err(Failure::Refused(format!("{} {reason}", own("run"))));
        }
    }
    if fs_err::symlink_metadata(&run).is_err() {
        return Err(Failure::Refused(if built {
            format!(
                "{} finished without making `run`, the program the folder needs",
                own("build")
            )
        } else {
            format!(
                "{} is missing: the folder has no program to run",
                own("run")
            )
        }));
    }
    if let Some(reason) = not_an_executable_file(&run) {
        return Err(Failure::Refused(format!("{} {reason}", own("run"))));
    }
    Ok(Prepared {
        compile,
        program: Some((run, Vec::new())),
        read_paths: vec![dir.to_path_buf()],
        own_paths: Vec::new(),
    })
}

/// Why the package's own `build` or `run` at `path` cannot be a script:
/// it is a folder (itself, not through a link: a link to a folder was
/// refused by the copy, a link to a file copied as the file).
fn a_folder(path: &Path) -> Option<String> {
    fs_err::symlink_metadata(path)
        .is_ok_and(|metadata| metadata.is_dir())
        .then(|| "is a folder; it must be an executable file (or a link to one)".to_owned())
}

/// Why the copy at `path` cannot be run as a script: not a regular file (a
/// link or a folder a `build` made), or not executable (the format wants
/// `build` and `run` executable; nothing is run through a shell in their
/// place).
fn not_an_executable_file(path: &Path) -> Option<String> {
    let metadata = fs_err::symlink_metadata(path).ok()?;
    if !metadata.file_type().is_file() {
        return Some(
            "is not a regular file (a link or a folder); it must be an executable file".to_owned(),
        );
    }
    if metadata.permissions().mode() & 0o100 == 0 {
        return Some("is not executable: set its execute bit (`chmod +x`)".to_owned());
    }
    cannot_start(path).map(|reason| format!("cannot start: {reason}"))
}

/// Why the executable file `path` cannot be started by `execve`, read from
/// its first line (issue #34): started anyway, the kernel's refusal was a
/// judge error naming a copy in a temporary folder. A binary (ELF) starts;
/// a script needs a `#!` line naming an interpreter that exists, without
/// the carriage return a file saved with CRLF line ends carries (the
/// kernel would look for `/bin/sh\r`).
fn cannot_start(path: &Path) -> Option<String> {
    use std::io::Read as _;
    let mut head = Vec::with_capacity(256);
    fs_err::File::open(path)
        .ok()?
        .take(256)
        .read_to_end(&mut head)
        .ok()?;
    if head.starts_with(b"\x7fELF") {
        return None;
    }
    let Some(line) = head.strip_prefix(b"#!") else {
        return Some(
            "it has no `#!` line and is no binary: its first line must name its interpreter \
             (`#!/bin/sh`)"
                .to_owned(),
        );
    };
    let line = line.split(|byte| *byte == b'\n').next().unwrap_or_default();
    if line.ends_with(b"\r") {
        return Some(
            "the `#!` line ends in a carriage return (CRLF line ends); save it with LF line ends"
                .to_owned(),
        );
    }
    let line = String::from_utf8_lossy(line);
    let interpreter = line.split_whitespace().next().unwrap_or_default();
    if interpreter.is_empty() {
        return Some("its `#!` line names no interpreter".to_owned());
    }
    if fs_err::metadata(interpreter).is_err() {
        return Some(format!(
            "its `#!` interpreter `{interpreter}` does not exist here"
        ));
    }
    None
}

/// Runs the `build` script `script` (`shown` in messages) in `dir` as a
/// compile: the compile limits, [`Trust::Tool`] (it writes only `dir`,
/// reads only `dir` and the system's directories), the compilers'
/// environment with the sandbox's `PATH` first (`cc`, `c++` and `python3` are found there, as
/// the format promises).
fn run_build(
    sandbox: &mut Sandbox,
    script: &Path,
    shown: &str,
    dir: &Path,
    settings: &Settings,
) -> Result<CompileResult, Failure> {
    let path = match std::env::var("PATH") {
        Ok(path) => format!("{}:{path}", crate::sandbox::SANDBOX_PATH),
        Err(_) => crate::sandbox::SANDBOX_PATH.to_owned(),
    };
    let env = TOOL_ENVIRONMENT
        .iter()
        .filter(|key| **key != "PATH")
        .filter_map(|key| std::env::var_os(key).map(|value| (OsString::from(key), value)))
        .chain([
            (OsString::from("PATH"), OsString::from(path)),
            (OsString::from("TMPDIR"), dir.as_os_str().to_owned()),
        ])
        .collect();
    let spec = RunSpec {
        read_paths: vec![dir.to_path_buf()],
        program: script.to_path_buf(),
        args: Vec::new(),
        stdin: None,
        workdir: Some(dir.to_path_buf()),
        env,
        limits: settings.compile_limits,
        trust: Trust::Tool,
    };
    let measured = sandbox
        .run(&spec)
        .map_err(|error| Failure::Judge(format!("failed to run {shown}: {error:#}")))?;
    Ok(compile_outcome(
        &measured,
        &settings.compile_limits,
        shown,
        shown,
    ))
}
