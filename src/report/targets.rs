//! Where a command's report files go, checked before anything runs: every
//! folder exists, no two reports share a path (standard output, `-`,
//! included), the HTML pages' folder is free or judge's own, and no report
//! lands among the hand-ins.

use super::formats::Chosen;
use std::path::{Path, PathBuf};

/// Where a report goes: `-` is standard output for every report flag.
pub(crate) fn is_stdout(path: &Path) -> bool {
    path == Path::new("-")
}

/// A report path that cannot be written: a usage error (exit 2).
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub(crate) struct TargetError {
    pub(crate) message: String,
    /// A `hint:` line, when there is advice.
    pub(crate) hint: Option<String>,
}

impl TargetError {
    fn new(message: impl Into<String>, hint: Option<String>) -> Self {
        TargetError {
            message: message.into(),
            hint,
        }
    }
}

/// The report files of one command, by flag.
#[derive(Clone, Debug, Default)]
pub(crate) struct Targets<'a> {
    /// `--json` (merge's `-o`).
    pub(crate) json: Option<&'a Path>,
    /// The other reports asked for ([`super::formats::FORMATS`]).
    pub(crate) files: Chosen<'a>,
}

impl Targets<'_> {
    /// Every report asked for, `--json` first: its flag, its path and
    /// whether it is the HTML report (its pages go in a folder beside it).
    fn flags(&self) -> Vec<(String, &Path, bool)> {
        let json = self.json.map(|path| ("--json".to_owned(), path, false));
        let files = self
            .files
            .files
            .iter()
            .map(|(format, path)| (format.flag(), *path, format.is_pages()));
        json.into_iter().chain(files).collect()
    }

    /// Whether one of these reports goes to standard output: then the
    /// table and the summary do not.
    pub(crate) fn any_to_stdout(&self) -> bool {
        self.flags().into_iter().any(|(_, path, _)| is_stdout(path))
    }

    /// Checks every report path before anything runs (issue #8: a typo in
    /// `--json nodir/r.json` used to surface after the whole class was
    /// graded): its folder must exist, and no two reports may share a path
    /// (`-`, standard output, included).
    pub(crate) fn check(&self) -> Result<(), TargetError> {
        let mut seen: Vec<(String, &Path)> = Vec::new();
        for (flag, path, pages) in self.flags() {
            if let Some((other, _)) = seen.iter().find(|(_, seen)| *seen == path) {
                return Err(TargetError::new(
                    format!(
                        "{other} and {flag} both write `{}`; give each report its own file",
                        path.display()
                    ),
                    None,
                ));
            }
            seen.push((flag.clone(), path));
            if is_stdout(path) {
                continue;
            }
            let parent = match path.parent() {
                Some(parent) if !parent.as_os_str().is_empty() => parent,
                _ => Path::new("."),
            };
            if !parent.is_dir() {
                return Err(TargetError::new(
                    format!(
                        "cannot write {flag} `{}`: the folder `{}` does not exist",
                        path.display(),
                        parent.display()
                    ),
                    None,
                ));
            }
            if path.is_dir() {
                return Err(TargetError::new(
                    format!("cannot write {flag} `{}`: it is a folder", path.display()),
                    None,
                ));
            }
            if pages {
                let folder = super::page_folder(path);
                if let Some((other, _)) = seen.iter().find(|(_, seen)| *seen == folder) {
                    return Err(TargetError::new(
                        format!(
                            "{other} writes `{}`, where {flag} `{}` keeps its pages; give \
                             each report its own name",
                            folder.display(),
                            path.display()
                        ),
                        None,
                    ));
                }
                if folder.exists() && !super::is_replaceable_page_folder(&folder) {
                    return Err(TargetError::new(
                        format!(
                            "cannot write {flag} `{}`: its pages go in `{}`, which exists and \
                             does not hold judge's HTML pages",
                            path.display(),
                            folder.display()
                        ),
                        Some(format!("move it away or choose another {flag} file")),
                    ));
                }
            }
        }
        Ok(())
    }

    /// Refuses a report that would be written over or among the hand-ins
    /// (`protected`: the submissions folder, or the submission files): one
    /// typo in `--csv` must not replace a student's source (adversarial
    /// review of issue #8). Paths are compared after resolving links.
    pub(crate) fn refuse_among(&self, protected: &[&Path]) -> Result<(), TargetError> {
        let resolved: Vec<PathBuf> = protected
            .iter()
            .filter_map(|path| fs_err::canonicalize(path).ok())
            .collect();
        for (flag, path, _) in self.flags() {
            if is_stdout(path) {
                continue;
            }
            let parent = match path.parent() {
                Some(parent) if !parent.as_os_str().is_empty() => parent,
                _ => Path::new("."),
            };
            let Some(target) = fs_err::canonicalize(parent)
                .ok()
                .zip(path.file_name())
                .map(|(parent, name)| parent.join(name))
            else {
                continue;
            };
            if let Some(inside) = resolved.iter().find(|guarded| target.starts_with(guarded)) {
                return Err(TargetError::new(
                    format!(
                        "refusing to write {flag} `{}`: it is among the submissions (`{}`)",
                        path.display(),
                        inside.display()
                    ),
                    Some("write reports outside the submissions folder".to_owned()),
                ));
            }
        }
        Ok(())
    }
}
