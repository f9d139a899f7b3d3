//! How a file runs: in the language its extension names in judge.toml, or
//! as an executable; anything else cannot be graded, and says why.

use super::usage::{Named, UsageError};
use super::GradingError;
use crate::config::judge::{JudgeConfig, Language};
use crate::config::languages::RunsAs;
use crate::discovery::Entry;
use crate::hint::Hint;
use crate::runner::{LinkScope, Submission, SubmissionKind};
use std::fmt;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

/// A submission's language by extension, or an executable; anything else is
/// a usage error naming the known languages. Its links may lead where
/// `scope` says (a hand-in's, or a package's own submission's). A hand-in
/// that links to nothing (a missing target, a loop) is the student's own
/// fault, not the user's mistake: it is taken by its own name, in its
/// language or as an executable, and preparing it to run refuses it, a CE
/// naming the link and where it points, as a grade does (issue #34: `judge
/// run` of such a link was a usage error, exit 2, nothing graded). A
/// package's own submission that does is the package's fault: it is
/// refused (exit 2), naming it.
pub(crate) fn classify(
    path: &Path,
    scope: &LinkScope,
    config: &JudgeConfig,
) -> Result<Submission, GradingError> {
    let metadata = match fs_err::metadata(path) {
        Ok(metadata) => metadata,
        Err(_) if matches!(scope, LinkScope::HandIn) && links_to_nothing(path) => {
            let kind = match config.runs_as(path) {
                Some(RunsAs::Language(name, language)) => SubmissionKind::Language {
                    name: name.to_owned(),
                    language: language.clone(),
                },
                Some(RunsAs::Executable) | None => SubmissionKind::Executable,
            };
            return Ok(Submission {
                path: path.to_owned(),
                constants: None,
                kind,
                link_scope: scope.clone(),
            });
        }
        Err(error) => {
            return Err(UsageError::CannotRead {
                what: Named::Submission,
                path: path.to_owned(),
                error,
            }
            .into())
        }
    };
    if metadata.is_dir() && crate::runner::has_scripts(path) {
        // A folder that builds and runs itself (`build` / `run` scripts).
        return Ok(Submission {
            path: path.to_owned(),
            constants: None,
            kind: SubmissionKind::Scripts,
            link_scope: scope.clone(),
        });
    }
    if metadata.is_dir() {
        // A folder program (a Kattis package's submission): one program in
        // the language its sources share.
        let (name, language) =
            crate::package::kattis_programs::folder_language(path, scope, config)?;
        return Ok(Submission {
            path: path.to_owned(),
            constants: None,
            kind: SubmissionKind::Language { name, language },
            link_scope: scope.clone(),
        });
    }
    if !metadata.is_file() {
        return Err(UsageError::WrongKind {
            what: Named::Submission,
            path: path.to_owned(),
        }
        .into());
    }
    match config.runs_as(path) {
        Some(RunsAs::Language(name, language)) => {
            let mut language = language.clone();
            // Compile and run commands are text: a file name that is not
            // UTF-8 (`ren\xe9.py`) would reach the compiler mangled and end
            // as CE (issue #8). The sandboxed copy gets a plain name
            // instead; the reports keep the real path.
            if language.source_name.is_none() && path.file_name().and_then(|n| n.to_str()).is_none()
            {
                let extension = path
                    .extension()
                    .and_then(|extension| extension.to_str())
                    .unwrap_or("txt");
                language.source_name = Some(format!("submission.{extension}"));
            }
            return Ok(Submission {
                path: path.to_owned(),
                constants: None,
                kind: SubmissionKind::Language {
                    name: name.to_owned(),
                    language,
                },
                link_scope: scope.clone(),
            });
        }
        Some(RunsAs::Executable) => {
            return Ok(Submission {
                path: path.to_owned(),
                constants: None,
                kind: SubmissionKind::Executable,
                link_scope: scope.clone(),
            })
        }
        None => {}
    }
    Err(UsageError::NoLanguage {
        path: path.to_owned(),
        languages: Hint::new(config.languages_hint()),
    }
    .into())
}

/// Whether `path` is a symbolic link that leads to no file: its target is
/// missing, or the links loop.
fn links_to_nothing(path: &Path) -> bool {
    fs_err::symlink_metadata(path).is_ok_and(|metadata| metadata.file_type().is_symlink())
        && std::fs::metadata(path).is_err()
}

/// Why a handed-in file is not run: the submission's fault, reported as CE
/// with this as the compile message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Unrunnable {
    /// More than one file for the same (student, problem).
    SeveralFiles {
        student: String,
        problem: String,
        files: Vec<PathBuf>,
    },
    /// The file cannot be opened.
    Unreadable { path: PathBuf, reason: String },
    /// [`classify`] refused it (no language, not executable, not a file).
    Refused(String),
}

impl fmt::Display for Unrunnable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unrunnable::SeveralFiles {
                student,
                problem,
                files,
            } => {
                let names: Vec<String> = files
                    .iter()
                    .map(|path| format!("`{}`", path.display()))
                    .collect();
                write!(
                    f,
                    "{} files for student `{student}`, problem `{problem}`: {}; hand in one",
                    files.len(),
                    names.join(", ")
                )
            }
            Unrunnable::Unreadable { path, reason } => write!(
                f,
                "cannot read the submission `{}`: {reason}",
                path.display()
            ),
            Unrunnable::Refused(message) => f.write_str(message),
        }
    }
}

/// The submission to run for a discovered entry, or why it cannot be.
pub(crate) fn prepare_entry(entry: &Entry, config: &JudgeConfig) -> Result<Submission, Unrunnable> {
    if !entry.others.is_empty() {
        return Err(Unrunnable::SeveralFiles {
            student: entry.student.clone(),
            problem: entry.problem.clone(),
            files: std::iter::once(&entry.path)
                .chain(&entry.others)
                .cloned()
                .collect(),
        });
    }
    // A link goes through the link rule first, which refuses a link out of
    // the hand-in's folder unopened (its target may be a FIFO, which blocks
    // an open, or a device); its target is then only looked at. Anything
    // else is opened without blocking or following and looked at on the
    // handle: a hand-in that is a FIFO (`mkfifo eve.py`) blocked this open,
    // and the whole grade, for good.
    let is_link = fs_err::symlink_metadata(&entry.path).is_ok_and(|m| m.file_type().is_symlink());
    let looked = if is_link {
        match crate::runner::resolve_link(&entry.path, &entry.link_scope) {
            Err(refused) => {
                return Err(Unrunnable::Refused(
                    crate::runner::SubmissionRefused::Link(refused).with_hint(),
                ))
            }
            Ok(target) => std::fs::metadata(target),
        }
    } else {
        let flags = rustix::fs::OFlags::NONBLOCK
            | rustix::fs::OFlags::NOCTTY
            | rustix::fs::OFlags::NOFOLLOW;
        std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(flags.bits() as i32)
            .open(&entry.path)
            .and_then(|file| file.metadata())
    };
    match looked {
        Err(error) => {
            return Err(Unrunnable::Unreadable {
                path: entry.path.clone(),
                reason: crate::config::io_reason(&error),
            })
        }
        Ok(metadata) if !metadata.is_file() && !metadata.is_dir() => {
            return Err(Unrunnable::Unreadable {
                path: entry.path.clone(),
                reason: format!(
                    "it is {}, not a regular file",
                    crate::data_file::kind_of(metadata.file_type())
                ),
            })
        }
        Ok(_) => {}
    }
    let classified = match &entry.stated {
        Some((name, stated_entry)) => match config.languages.get(name) {
            Some(language) => with_stated(
                classify(&entry.path, &entry.link_scope, config),
                &entry.path,
                &entry.link_scope,
                Some((
                    name.clone(),
                    Language {
                        entry: stated_entry.clone(),
                        ..language.clone()
                    },
                )),
            ),
            None => classify(&entry.path, &entry.link_scope, config),
        },
        None => classify(&entry.path, &entry.link_scope, config),
    };
    let classified = match (&entry.standard, classified) {
        (
            Some(standard),
            Ok(Submission {
                kind: SubmissionKind::Language { name, language },
                path,
                constants,
                link_scope,
            }),
        ) => Ok(Submission {
            kind: SubmissionKind::Language {
                name,
                language: language.with_standard(standard).unwrap_or(language),
            },
            path,
            constants,
            link_scope,
        }),
        (_, classified) => classified,
    };
    classified
        .map(|submission| submission.with_constants(entry.constants.clone()))
        .map_err(|error| Unrunnable::Refused(error.to_string()))
}

/// `classified` in the `stated` language when one is stated (a package's
/// `submissions.yaml` `language` or `entrypoint`): a file or a folder
/// without scripts runs in it (a folder of several languages is then one
/// program in the stated one, its links leading where `scope` says); a
/// folder with scripts builds and runs itself.
pub(crate) fn with_stated(
    classified: Result<Submission, GradingError>,
    path: &Path,
    scope: &LinkScope,
    stated: Option<(String, Language)>,
) -> Result<Submission, GradingError> {
    let Some((name, language)) = stated else {
        return classified;
    };
    match classified {
        Ok(Submission {
            kind: SubmissionKind::Scripts,
            ..
        }) => classified,
        Ok(Submission {
            kind:
                SubmissionKind::Language {
                    name: own_name,
                    language: own,
                },
            path,
            constants,
            link_scope,
        }) => {
            // The same language keeps the file name its copy was given (a
            // name that is not UTF-8 gets a plain one).
            let source_name = if own_name == name {
                own.source_name
            } else {
                language.source_name.clone()
            };
            Ok(Submission {
                path,
                constants,
                kind: SubmissionKind::Language {
                    name,
                    language: Language {
                        source_name,
                        ..language
                    },
                },
                link_scope,
            })
        }
        Ok(_) | Err(_) => Ok(Submission {
            path: path.to_owned(),
            constants: None,
            kind: SubmissionKind::Language { name, language },
            link_scope: scope.clone(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt as _;

    #[test]
    fn a_file_in_no_language_and_not_executable_is_refused_with_the_languages() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("notes.txt");
        fs_err::write(&path, "hello").unwrap();
        let config = JudgeConfig::defaults().unwrap();
        match classify(&path, &LinkScope::HandIn, &config) {
            Err(error @ GradingError::Usage(UsageError::NoLanguage { .. })) => {
                let message = error.to_string();
                assert!(message.starts_with("no language for `"), "{message}");
                assert_eq!(error.hint(), Some(Hint::new(config.languages_hint())));
            }
            other => panic!("{other:?}"),
        }
        let mode = std::fs::Permissions::from_mode(0o755);
        fs_err::set_permissions(&path, mode).unwrap();
        assert!(matches!(
            classify(&path, &LinkScope::HandIn, &config).map(|submission| submission.kind),
            Ok(SubmissionKind::Executable)
        ));
    }
}
