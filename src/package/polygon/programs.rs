//! The package's own programs (checker, validator, interactor,
//! generators) made ready to compile: Polygon compiles `files/check.cpp`
//! beside the package's resources (its own `testlib.h`), so each program
//! is laid out as a folder program of its own, its source and the
//! package's header resources side by side, in the cache (content
//! addressed: the same source and headers give the same folder, so a
//! second load writes nothing). The runner copies that folder whole into
//! the sandbox and compiles its one source.
//!
//! Only headers are laid beside a program (`.h`, `.hpp`, `.hh`, `.hxx`,
//! `.inc`): another resource in a compiled language would be a second
//! source with a `main` of its own.

use super::xml::Located;
use crate::config::judge::{JudgeConfig, Language};
use crate::config::ConfigError;
use crate::external::{Role, Tool};
use sha2::{Digest as _, Sha256};
use std::path::{Path, PathBuf};

/// The extensions of resources laid beside every program.
const HEADER_EXTENSIONS: [&str; 5] = ["h", "hpp", "hh", "hxx", "inc"];

/// A program of the package, laid out and ready to become a [`Tool`].
#[derive(Clone, Debug)]
pub(crate) struct StagedProgram {
    /// The folder holding the source and the headers.
    pub(crate) folder: PathBuf,
    pub(crate) language: (String, Language),
    /// A digest of everything that makes the program: its source, the
    /// headers, its language's commands.
    pub(crate) digest: String,
}

impl StagedProgram {
    pub(crate) fn tool(&self, role: Role) -> Tool {
        Tool::new(role, self.folder.clone(), Some(self.language.clone()))
    }
}

/// The package's headers (`<resources>` that are headers), read once.
#[derive(Debug)]
pub(crate) struct Headers {
    files: Vec<(String, Vec<u8>)>,
}

impl Headers {
    /// The headers: file name and bytes.
    pub(crate) fn files(&self) -> &[(String, Vec<u8>)] {
        &self.files
    }

    /// Reads the resources of `problem.xml` (at `xml`) that are headers;
    /// each must be a file of the package in `dir`.
    pub(crate) fn read(
        dir: &Path,
        xml: &Path,
        resources: &[Located<String>],
    ) -> Result<Headers, ConfigError> {
        let mut files = Vec::new();
        for located in resources {
            let resource = &located.value;
            let path = Path::new(resource);
            let is_header = path
                .extension()
                .and_then(|extension| extension.to_str())
                .is_some_and(|extension| HEADER_EXTENSIONS.contains(&extension));
            if !is_header {
                continue;
            }
            let Some(name) = path.file_name() else {
                continue;
            };
            let full = super::inside(dir, xml, ("file", located.line), resource)?;
            let bytes = super::read_beneath(dir, &full).map_err(|error| {
                ConfigError::invalid_on(
                    xml,
                    located.line,
                    "<file>",
                    format!("the resource `{resource}` cannot be read: {error}"),
                )
            })?;
            files.push((name.to_string_lossy().into_owned(), bytes));
        }
        Ok(Headers { files })
    }
}

/// Lays out the program whose source is `source` (relative to `dir`, as
/// `problem.xml` at `xml` names it, `element` on `line`) in `cache`; it
/// compiles with the language `standard` its `type` states (`c++20`), when
/// it states one and the language's compile command names a `-std=`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn stage(
    dir: &Path,
    xml: &Path,
    (element, line): (&str, usize),
    source: &str,
    standard: Option<&str>,
    headers: &Headers,
    config: &JudgeConfig,
    cache: &Path,
) -> Result<StagedProgram, ConfigError> {
    let invalid = |message: String| ConfigError {
        path: xml.to_owned(),
        kind: crate::config::ConfigErrorKind::Invalid {
            key: format!("<{element}>"),
            message,
            line: Some(line),
        },
    };
    let path = super::inside(dir, xml, (element, line), source)?;
    if !path.is_file() {
        return Err(invalid(format!(
            "`{source}` is not a file of the package (looked for `{}`)",
            path.display()
        )));
    }
    let Some((name, language)) = config.language_for(&path) else {
        let extension = path
            .extension()
            .map_or_else(|| "(none)".to_owned(), |e| e.to_string_lossy().into_owned());
        return Err(invalid(format!(
            "`{source}` is {}",
            config.not_runnable(Some(&extension))
        )));
    };
    let language = standard
        .and_then(|standard| language.with_standard(standard))
        .unwrap_or_else(|| language.clone());
    let bytes = super::read_beneath(dir, &path)
        .map_err(|error| invalid(format!("cannot read `{source}`: {error}")))?;
    let file_name = path
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_else(|| "program".to_owned());
    let stem = path
        .file_stem()
        .map(|stem| stem.to_string_lossy().into_owned())
        .unwrap_or_else(|| "program".to_owned());
    let mut hasher = Sha256::new();
    hasher.update(b"polygon program v1\0");
    hasher.update(file_name.as_bytes());
    hasher.update(b"\0");
    hasher.update(&bytes);
    for (header, contents) in &headers.files {
        if *header == file_name {
            continue;
        }
        hasher.update(b"\0header\0");
        hasher.update(header.as_bytes());
        hasher.update(b"\0");
        hasher.update(contents);
    }
    hasher.update(b"\0language\0");
    hasher.update(name.as_bytes());
    for word in language.compile.iter().flatten().chain(&language.run) {
        hasher.update(b"\0");
        hasher.update(word.as_bytes());
    }
    let digest = hex(&hasher.finalize());
    let folder = cache.join("programs").join(&digest).join(&stem);
    if !folder.join(&file_name).is_file() {
        let cache_error = |error: std::io::Error| {
            ConfigError::invalid(
                cache,
                "cache",
                format!("cannot lay out the program `{source}`: {error}"),
            )
        };
        let parent = cache.join("programs");
        fs_err::create_dir_all(&parent).map_err(cache_error)?;
        // Laid out whole in a fresh folder, then renamed into place: a
        // judge stopped half-way leaves no half program behind.
        let scratch = tempfile::tempdir_in(&parent).map_err(cache_error)?;
        let staged = scratch.path().join(&stem);
        fs_err::create_dir(&staged).map_err(cache_error)?;
        for (header, contents) in &headers.files {
            if *header != file_name {
                fs_err::write(staged.join(header), contents).map_err(cache_error)?;
            }
        }
        fs_err::write(staged.join(&file_name), &bytes).map_err(cache_error)?;
        let target = parent.join(&digest);
        // Another judge may have laid out the same program meanwhile: its
        // folder is the same, keep it.
        if fs_err::rename(scratch.path(), &target).is_err() && !folder.join(&file_name).is_file() {
            return Err(cache_error(std::io::Error::other(format!(
                "cannot move it to `{}`",
                target.display()
            ))));
        }
    }
    Ok(StagedProgram {
        folder,
        language: (name.to_owned(), language),
        digest,
    })
}

/// Lower-case hexadecimal.
pub(crate) fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    bytes.iter().fold(String::new(), |mut text, byte| {
        let _ = write!(text, "{byte:02x}");
        text
    })
}
