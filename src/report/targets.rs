//! Where a command's report files go, checked before anything runs: every
//! folder exists, no two reports share a path (standard output, `-`,
//! included), the HTML pages' folder is free or judge's own, and no report
//! lands among the hand-ins.

use super::formats::Chosen;
use crate::hint::Hint;
use std::path::{Path, PathBuf};

/// Where a report goes: `-` is standard output for every report flag.
pub(crate) fn is_stdout(path: &Path) -> bool {
    path == Path::new("-")
}

/// A report path that cannot be written: a usage error (exit 2). `flag`
/// is the report's (`--json`, `--csv`, ...).
#[derive(Debug, thiserror::Error)]
pub(crate) enum TargetError {
    /// Two reports write one path (`-` included).
    #[error("{other} and {flag} both write `{}`; give each report its own file", path.display())]
    SamePath {
        other: String,
        flag: String,
        path: PathBuf,
    },
    /// The report's folder does not exist.
    #[error(
        "cannot write {flag} `{}`: the folder `{}` does not exist",
        path.display(),
        folder.display()
    )]
    NoFolder {
        flag: String,
        path: PathBuf,
        folder: PathBuf,
    },
    /// The report's path is a folder.
    #[error("cannot write {flag} `{}`: it is a folder", path.display())]
    IsAFolder { flag: String, path: PathBuf },
    /// Another report writes where the HTML report keeps its pages.
    #[error(
        "{other} writes `{}`, where {flag} `{}` keeps its pages; give each report its own name",
        folder.display(),
        path.display()
    )]
    OnThePages {
        other: String,
        flag: String,
        path: PathBuf,
        folder: PathBuf,
    },
    /// The HTML report's pages folder exists and is not judge's.
    #[error(
        "cannot write {flag} `{}`: its pages go in `{}`, which exists and does not hold \
         judge's HTML pages",
        path.display(),
        folder.display()
    )]
    PagesFolderTaken {
        flag: String,
        path: PathBuf,
        folder: PathBuf,
    },
    /// The report would land over or among the hand-ins.
    #[error(
        "refusing to write {flag} `{}`: it is among the submissions (`{}`)",
        path.display(),
        inside.display()
    )]
    AmongSubmissions {
        flag: String,
        path: PathBuf,
        inside: PathBuf,
    },
}

impl TargetError {
    /// The advice printed after the error, when there is a likely fix.
    pub(crate) fn hint(&self) -> Option<Hint> {
        match self {
            TargetError::PagesFolderTaken { flag, .. } => Some(Hint::new(format!(
                "move it away or choose another {flag} file"
            ))),
            TargetError::AmongSubmissions { .. } => {
                Some(Hint::new("write reports outside the submissions folder"))
            }
            TargetError::SamePath { .. }
            | TargetError::NoFolder { .. }
            | TargetError::IsAFolder { .. }
            | TargetError::OnThePages { .. } => None,
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
                return Err(TargetError::SamePath {
                    other: other.clone(),
                    flag,
                    path: path.to_owned(),
                });
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
                return Err(TargetError::NoFolder {
                    flag,
                    path: path.to_owned(),
                    folder: parent.to_owned(),
                });
            }
            if path.is_dir() {
                return Err(TargetError::IsAFolder {
                    flag,
                    path: path.to_owned(),
                });
            }
            if pages {
                let folder = super::page_folder(path);
                if let Some((other, _)) = seen.iter().find(|(_, seen)| *seen == folder) {
                    return Err(TargetError::OnThePages {
                        other: other.clone(),
                        flag,
                        path: path.to_owned(),
                        folder,
                    });
                }
                if folder.exists() && !super::is_replaceable_page_folder(&folder) {
                    return Err(TargetError::PagesFolderTaken {
                        flag,
                        path: path.to_owned(),
                        folder,
                    });
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
                return Err(TargetError::AmongSubmissions {
                    flag,
                    path: path.to_owned(),
                    inside: inside.clone(),
                });
            }
        }
        Ok(())
    }
}
