//! Tests a Polygon package makes with its generators (`<test
//! method="generated" cmd="gen 10 20 1">`): the generator named by the
//! command's first word (an executable of `problem.xml`, by its file stem)
//! is compiled with the package's headers and run in the sandbox with the
//! package's tool limits and the rest of the command as its arguments; its
//! standard output is the test's input.
//!
//! A generator must be deterministic (testlib seeds its random numbers from
//! the arguments): each input is made twice the first time and the two
//! must agree. It is then kept in the cache under a digest of the command
//! and of everything that makes the generator (its source, the headers,
//! its language's commands), so a second load runs nothing; changing any
//! of them makes the input anew.
//!
//! Commands are taken as words: a redirection (`> $`), a pipe or a
//! FreeMarker expression (`${...}`, `<#...>`) is refused with the reason,
//! as it needs Polygon's script engine.

use super::programs::{hex, StagedProgram};
use crate::config::{ConfigError, ConfigErrorKind};
use crate::external::{tool, Role, Tool, Toolbox};
use crate::sandbox::Termination;
use sha2::{Digest as _, Sha256};
use std::path::{Path, PathBuf};

/// The package's generators and where their inputs are kept.
pub(crate) struct Generators {
    toolbox: Toolbox,
    /// `(name, program, tool)`: the name is the source's file stem.
    programs: Vec<(String, StagedProgram, Tool)>,
    /// `<cache>/tests/`.
    folder: PathBuf,
}

impl std::fmt::Debug for Generators {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Generators")
            .field("programs", &self.programs.len())
            .field("folder", &self.folder)
            .finish()
    }
}

/// Where a command came from, for errors: `problem.xml` and the `<test>`'s
/// line.
pub(crate) struct Origin<'a> {
    pub(crate) xml: &'a Path,
    pub(crate) line: usize,
    /// The test's name (`03`).
    pub(crate) test: &'a str,
}

impl Origin<'_> {
    fn invalid(&self, message: String) -> ConfigError {
        ConfigError {
            path: self.xml.to_owned(),
            kind: ConfigErrorKind::Invalid {
                key: "<test>".to_owned(),
                message: format!("test {}: {message}", self.test),
                line: Some(self.line),
            },
        }
    }
}

impl Generators {
    pub(crate) fn new(
        toolbox: Toolbox,
        programs: Vec<(String, StagedProgram)>,
        cache: &Path,
    ) -> Generators {
        // Generated inputs are tests: no run may read them (the folder is
        // among the package's secret folders).
        let folder = folder(cache);
        Generators {
            toolbox,
            programs: programs
                .into_iter()
                .map(|(name, program)| {
                    let tool = program.tool(Role::Generator);
                    (name, program, tool)
                })
                .collect(),
            folder,
        }
    }

    /// The input `cmd` makes (from the cache when it was made before).
    pub(crate) fn input(&mut self, cmd: &str, origin: &Origin<'_>) -> Result<String, ConfigError> {
        let words = words(cmd).map_err(|message| origin.invalid(message))?;
        let Some((name, args)) = words.split_first() else {
            return Err(origin.invalid("`cmd` is empty".to_owned()));
        };
        let Some((_, program, tool)) = self.programs.iter().find(|(known, ..)| known == name)
        else {
            let known: Vec<&str> = self
                .programs
                .iter()
                .map(|(name, ..)| name.as_str())
                .collect();
            return Err(origin.invalid(format!(
                "`{cmd}` names the generator `{name}`, which is not an executable of the \
                 package (known: {})",
                if known.is_empty() {
                    "none".to_owned()
                } else {
                    known.join(", ")
                }
            )));
        };
        let mut hasher = Sha256::new();
        hasher.update(b"polygon generated test v1\0");
        hasher.update(program.digest.as_bytes());
        for arg in args {
            hasher.update(b"\0");
            hasher.update(arg.as_bytes());
        }
        let cached = self.folder.join(format!("{}.in", hex(&hasher.finalize())));
        // Read beneath the cache's folder (issue #34): a link planted there
        // is no cached test, and is replaced by the test made below.
        let kept = crate::beneath::Beneath::new(&self.folder)
            .and_then(|folder| folder.read(&cached))
            .ok()
            .and_then(|bytes| String::from_utf8(bytes).ok());
        if let Some(text) = kept {
            return Ok(text);
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let first = run(&self.toolbox, tool, &args).map_err(|fault| origin.invalid(fault))?;
        let second = run(&self.toolbox, tool, &args).map_err(|fault| origin.invalid(fault))?;
        if first != second {
            return Err(origin.invalid(format!(
                "`{cmd}` printed two different inputs in two runs: a generator must give the \
                 same input for the same arguments (seed testlib's `rnd` from them with \
                 `registerGen(argc, argv, 1)`)"
            )));
        }
        let cache_error = |error: std::io::Error| {
            ConfigError::invalid(
                &self.folder,
                "cache",
                format!("cannot keep a generated test: {error}"),
            )
        };
        fs_err::create_dir_all(&self.folder).map_err(cache_error)?;
        crate::atomic_file::write_atomically(&cached, first.as_bytes()).map_err(|error| {
            ConfigError::invalid(
                &cached,
                "cache",
                format!("cannot keep a generated test: {error}"),
            )
        })?;
        Ok(first)
    }
}

/// Where the inputs generators made are kept under `cache`.
pub(crate) fn folder(cache: &Path) -> PathBuf {
    cache.join("tests")
}

/// One run of the generator: its standard output, which must be text.
fn run(toolbox: &Toolbox, tool: &Tool, args: &[&str]) -> Result<String, String> {
    let run = toolbox
        .run(tool, args, None, &[], &[], &[])
        .map_err(|fault| fault.0)?;
    let measured = &run.measured;
    if let Some(fault) = tool::abnormal_end(tool, measured, toolbox.limits()) {
        return Err(fault.0);
    }
    match measured.termination {
        Termination::Exited(0) => {}
        Termination::Exited(code) => {
            return Err(tool
                .fault(tool::with_stderr(
                    &format!("exited with code {code}"),
                    measured,
                ))
                .0)
        }
        _ => return Err(tool.fault("ended without an exit code").0),
    }
    String::from_utf8(measured.stdout.clone())
        .map_err(|_| tool.fault("printed an input that is not UTF-8 text").0)
}

/// The words of a command; what needs a shell or FreeMarker is refused.
fn words(cmd: &str) -> Result<Vec<String>, String> {
    if cmd.contains("${") || cmd.contains("<#") || cmd.contains("</#") {
        return Err(format!(
            "`{cmd}` holds a FreeMarker expression; the judge runs plain commands (`gen 10 20 1`)"
        ));
    }
    let words: Vec<String> = cmd.split_whitespace().map(str::to_owned).collect();
    if let Some(word) = words
        .iter()
        .find(|word| word.starts_with(['>', '<', '|']) || word.contains('>'))
    {
        return Err(format!(
            "`{cmd}`: `{word}` is a redirection or a pipe; the judge takes a generator's input \
             from its standard output, one test a command"
        ));
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_are_words() {
        assert_eq!(
            words("gen  10 20\t1").unwrap(),
            vec!["gen", "10", "20", "1"]
        );
        assert!(words("gen 10 > $").unwrap_err().contains("redirection"));
        assert!(words("gen ${n}").unwrap_err().contains("FreeMarker"));
        assert!(words("gen 1 | sort").unwrap_err().contains("pipe"));
    }
}
