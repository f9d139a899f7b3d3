//! A compile's toolchain: why a language's compiler or run program is
//! missing (and the error that says so), and what an installed compiler
//! is run as and lent to read (its installation, as far as the judge's
//! data allows).

use crate::config::judge::Language;
use crate::sandbox::resolve_program;
use std::path::{Path, PathBuf};

/// Why a language's commands could not be used: the judge's setup (its
/// judge.toml or the machine), never the submission's fault.
#[derive(Debug, thiserror::Error)]
pub(super) enum ToolchainError {
    #[error("language `{language}`: `compile` is empty")]
    EmptyCompile { language: String },
    #[error(
        "language `{language}`: the compiler `{program}` is not installed ({why}); \
         command: `{command}`"
    )]
    NoCompiler {
        language: String,
        program: String,
        command: String,
        /// [`why_not_found`]: not in PATH, or there but not for this user.
        why: String,
    },
    #[error(
        "failed to run the compiler of language `{language}`: {}",
        crate::causes::chain(error)
    )]
    CompilerRun {
        language: String,
        error: crate::sandbox::SandboxError,
    },
    #[error("language `{language}`: `run` is empty")]
    EmptyRun { language: String },
    #[error(
        "language `{language}`: `{program}` (from `run`) is not installed: not found in the \
         sandbox's PATH ({})",
        crate::sandbox::SANDBOX_PATH
    )]
    NoRunProgram { language: String, program: String },
}

/// Why `program` was not found on `search_path`, for the user the judge
/// runs as (issue 32): a candidate that exists but this user may not
/// run, a folder on the path this user may not search (root's
/// `~/.cargo/bin` for another user), or simply not in PATH.
pub(super) fn why_not_found(program: &str, search_path: &str) -> String {
    let folders: Vec<&str> = if program.contains('/') {
        Vec::new()
    } else {
        search_path
            .split(':')
            .filter(|folder| !folder.is_empty())
            .collect()
    };
    let candidates: Vec<PathBuf> = if program.contains('/') {
        vec![PathBuf::from(program)]
    } else {
        folders
            .iter()
            .map(|folder| Path::new(folder).join(program))
            .collect()
    };
    for candidate in &candidates {
        match fs_err::metadata(candidate) {
            Ok(metadata) if metadata.is_file() => {
                return format!(
                    "`{}` is there, but this user may not run it",
                    candidate.display()
                );
            }
            Err(error) if error.kind() == std::io::ErrorKind::PermissionDenied => {
                let folder = candidate.parent().unwrap_or(candidate);
                return format!(
                    "`{}` is in PATH, but this user may not read it: the compiler may be \
                     installed there for another user",
                    folder.display()
                );
            }
            _ => {}
        }
    }
    "not found in PATH".to_owned()
}

/// The program an argv runs: its first word, or for `env NAME=VALUE ...
/// program ...` the program `env` starts.
pub(super) fn program_of(argv: &[String]) -> Option<&str> {
    let (first, rest) = argv.split_first()?;
    if first == "env" || first.ends_with("/env") {
        return rest
            .iter()
            .find(|arg| !arg.contains('=') && !arg.starts_with('-'))
            .map(String::as_str);
    }
    Some(first)
}

/// Why the language `name` cannot run on this machine, when it cannot: its
/// compiler is not installed (looked for as a compile looks for it), or the
/// program its `run` starts is not in the sandbox's PATH (a `run` that
/// starts the compiled `{executable}` is the compile's). The wording is the
/// judge error's that a run in that language would end with.
pub(crate) fn missing_toolchain(name: &str, language: &Language) -> Option<String> {
    if let Some(argv) = &language.compile {
        let program = program_of(argv)?;
        let search_path = match std::env::var("PATH") {
            Ok(path) => format!("{}:{path}", crate::sandbox::SANDBOX_PATH),
            Err(_) => crate::sandbox::SANDBOX_PATH.to_owned(),
        };
        if !program.contains('{') && resolve_program(program, &search_path).is_none() {
            return Some(
                ToolchainError::NoCompiler {
                    language: name.to_owned(),
                    program: program.to_owned(),
                    command: argv.join(" "),
                    why: why_not_found(program, &search_path),
                }
                .to_string(),
            );
        }
    }
    let program = program_of(&language.run)?;
    if !program.contains('{') && resolve_program(program, crate::sandbox::SANDBOX_PATH).is_none() {
        return Some(
            ToolchainError::NoRunProgram {
                language: name.to_owned(),
                program: program.to_owned(),
            }
            .to_string(),
        );
    }
    None
}

/// [`toolchain`] of `compiler`, asked once per compiler and process: a
/// class of 1,000 C++ hand-ins asked g++ `-print-search-dirs` and
/// `-print-sysroot` before each of its compiles (two more processes per
/// compile, and a wait of up to 5 ms for each). What a compiler reports
/// of its own installation does not change during a grade; what of it may
/// be lent is still decided per compile ([`lendable`]: the judge's data
/// can grow between two compiles).
pub(super) fn toolchain_of(compiler: &Path) -> (PathBuf, Vec<PathBuf>) {
    type Known = std::collections::HashMap<PathBuf, (PathBuf, Vec<PathBuf>)>;
    static KNOWN: std::sync::LazyLock<std::sync::Mutex<Known>> =
        std::sync::LazyLock::new(Default::default);
    let lock = || {
        KNOWN
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    };
    if let Some(known) = lock().get(compiler) {
        return known.clone();
    }
    // Asked without the lock held: another worker's first compile of
    // another language does not wait for this one's answer.
    let found = toolchain(compiler);
    lock()
        .entry(compiler.to_path_buf())
        .or_insert(found)
        .clone()
}

/// The compiler to run and what it may read besides system directories:
/// the toolchain's real installation, never a parent folder of the command
/// (a teacher's wrapper in `course/bin/` must not lend the compile all of
/// `course/`, tests included; issue 18).
///
/// - A rustup proxy (`~/.cargo/bin/rustc` is `rustup`) is replaced by the
///   toolchain's own binary under the sysroot it reports (`--print
///   sysroot`), and only that sysroot is readable: not `~/.cargo` or
///   `~/.rustup` whole.
/// - A GCC-like compiler adds the install, program and library folders it
///   reports (`-print-search-dirs`) and its sysroot (`-print-sysroot`).
/// - Any compiler may read its own file (and, followed through links, the
///   real one); a real binary (ELF, not a script) in a `bin` folder lends
///   the installation folders beside it (`/opt/jdk/bin/javac` ->
///   `/opt/jdk/lib`, `/opt/jdk/conf`, ...), never its prefix whole.
fn toolchain(compiler: &Path) -> (PathBuf, Vec<PathBuf>) {
    let real = fs_err::canonicalize(compiler).unwrap_or_else(|_| compiler.to_path_buf());
    let is_rustup = real
        .file_name()
        .is_some_and(|name| name == "rustup" || name == "rustup-init");
    if is_rustup {
        if let (Some(sysroot), Some(name)) = (
            reported(compiler, &["--print", "sysroot"]),
            compiler.file_name(),
        ) {
            let sysroot = PathBuf::from(sysroot.trim());
            let own = sysroot.join("bin").join(name);
            if sysroot.is_absolute() && own.is_file() {
                return (own, vec![sysroot]);
            }
        }
    }
    let mut paths = vec![compiler.to_path_buf()];
    if real != compiler {
        paths.push(real.clone());
    }
    paths.extend(installation_dirs(&real));
    if let Some(dirs) = reported(compiler, &["-print-search-dirs"]) {
        for line in dirs.lines() {
            let list = line
                .strip_prefix("install:")
                .or_else(|| line.strip_prefix("programs:"))
                .or_else(|| line.strip_prefix("libraries:"));
            let Some(list) = list else { continue };
            let list = list.trim().trim_start_matches('=');
            paths.extend(
                list.split(':')
                    .map(PathBuf::from)
                    .filter(|dir| dir.is_absolute() && dir.is_dir())
                    .filter_map(|dir| fs_err::canonicalize(dir).ok()),
            );
        }
    }
    if let Some(sysroot) = reported(compiler, &["-print-sysroot"]) {
        let sysroot = PathBuf::from(sysroot.trim());
        if sysroot.is_absolute() && sysroot.is_dir() && sysroot != Path::new("/") {
            paths.push(sysroot);
        }
    }
    paths.sort();
    paths.dedup();
    (compiler.to_path_buf(), paths)
}

/// The folders of `paths` a compile may be lent (the compiler's own files
/// always): never one that is, holds or resolves to the judge's data or
/// binary, as `hidden` (the compiling sandbox's) has it
/// (`Hidden::lending_refused`). Each folder refused is said once per
/// process on stderr, with why; the compile goes on without it (a
/// toolchain that needs it fails to compile, and says so).
pub(super) fn lendable(
    language: &str,
    paths: Vec<PathBuf>,
    hidden: &crate::sandbox::Hidden,
) -> Vec<PathBuf> {
    static SAID: std::sync::Mutex<std::collections::BTreeSet<String>> =
        std::sync::Mutex::new(std::collections::BTreeSet::new());
    paths
        .into_iter()
        .filter(|path| {
            let refused = path
                .is_dir()
                .then(|| hidden.lending_refused(path))
                .flatten();
            let Some(reason) = refused else {
                return true;
            };
            let line = format!(
                "note: the compile of language `{language}` is not lent `{}`: {reason}",
                path.display()
            );
            let mut said = SAID
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if said.insert(line.clone()) {
                crate::stderr::say_line(&crate::visible::visible(&line));
            }
            false
        })
        .collect()
}

/// The installation folders next to a real compiler binary in
/// `PREFIX/bin/` (`/opt/jdk/bin/javac` -> `/opt/jdk/lib`, `/opt/jdk/conf`,
/// ...): only for an ELF file (a script is a wrapper, whatever folder it is
/// in), never under `/`, and never `PREFIX` itself: a teacher's compiled
/// wrapper in `course/bin/` must not lend the compile `course/tests` or
/// `course/solutions` (issue 18, third red team).
fn installation_dirs(real: &Path) -> Vec<PathBuf> {
    use std::io::Read;
    let mut magic = [0u8; 4];
    let is_elf = fs_err::File::open(real)
        .and_then(|mut file| file.read_exact(&mut magic))
        .is_ok()
        && magic == *b"\x7fELF";
    let Some(prefix) = real
        .parent()
        .filter(|bin| is_elf && bin.file_name().is_some_and(|name| name == "bin"))
        .and_then(Path::parent)
        .filter(|prefix| *prefix != Path::new("/") && !prefix.as_os_str().is_empty())
    else {
        return Vec::new();
    };
    INSTALLATION_DIRS
        .iter()
        .map(|name| prefix.join(name))
        .filter(|dir| dir.is_dir())
        .collect()
}

/// The folders of an installation prefix a compiler may need: its
/// libraries, helper programs, headers, data and configuration.
const INSTALLATION_DIRS: &[&str] = &[
    "lib", "lib32", "lib64", "libexec", "include", "share", "conf", "jmods",
];

/// What `compiler ARGS` prints, when it succeeds within a few seconds (the
/// compiler is the teacher's, from judge.toml; this asks it where it lives,
/// with no submission involved).
fn reported(compiler: &Path, args: &[&str]) -> Option<String> {
    use std::process::{Command, Stdio};
    let mut child = Command::new(compiler)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        match child.try_wait() {
            Ok(Some(status)) if status.success() => break,
            Ok(Some(_)) | Err(_) => return None,
            Ok(None) if std::time::Instant::now() >= deadline => {
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
            Ok(None) => std::thread::sleep(std::time::Duration::from_millis(5)),
        }
    }
    let mut text = String::new();
    use std::io::Read;
    child
        .stdout
        .take()?
        .take(1 << 20)
        .read_to_string(&mut text)
        .ok()?;
    Some(text)
}

#[cfg(test)]
mod tests;
