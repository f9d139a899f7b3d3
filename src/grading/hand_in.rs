//! Why one student's hand-in holds nothing to grade, in the student's
//! words (issue #30): the files found, named from the top of the hand-in,
//! the names expected, and files that sit a folder too deep. A platform's
//! results file says this to a student who cannot see the grader's
//! folders, so no path of the grader (`/tmp/tmp.x/class/...`) appears.
//!
//! Not here: deciding what is graded (`crate::discovery`), or the words of
//! a hand-in that is graded (`crate::report::platform`).

use crate::config::judge::{JudgeConfig, Layout};
use crate::discovery::lossless;
use std::path::{Path, PathBuf};

/// The most files a reason lists by name; more are counted.
const FILES_LISTED: usize = 20;

/// The most files whose own reason is said; more are counted (as
/// `crate::report::platform::IGNORED_LISTED`).
const REASONS_LISTED: usize = 10;

/// The reasons, in the student's words, that the hand-in of `config`'s
/// submissions folder cannot be graded, for a grade that found nothing in
/// it to grade. The hand-in is the one student's folder (layout
/// `student/problem`, as the platforms' scripts lay it out), else the
/// submissions folder.
pub(crate) fn nothing_to_grade(config: &JudgeConfig) -> Vec<String> {
    let hand_in = hand_in_folder(&config.submissions, config.layout);
    let files = files_under(&hand_in);
    let expected = expected_names(config);
    if files.is_empty() {
        return vec![format!(
            "your hand-in is empty: no file was found; expected {expected}"
        )];
    }
    let mut reasons = vec![format!(
        "your hand-in holds {}; expected {expected}, at the top of the hand-in",
        listed(&files)
    )];
    let nested: Vec<&PathBuf> = files
        .iter()
        .filter(|file| file.components().count() > 1)
        .collect();
    if !nested.is_empty() && nested.len() == files.len() {
        let depth = nested
            .iter()
            .map(|file| file.components().count() - 1)
            .min()
            .unwrap_or(1);
        let how_deep = if depth == 1 {
            "one folder".to_owned()
        } else {
            format!("{depth} folders")
        };
        let folders: Vec<String> = {
            let mut folders: Vec<String> = nested
                .iter()
                .filter_map(|file| file.components().next())
                .map(|first| format!("`{}/`", lossless(first.as_os_str())))
                .collect();
            folders.dedup();
            folders
        };
        reasons.push(format!(
            "your files are {how_deep} too deep (inside {}): hand in the files themselves, \
             not the folder that holds them",
            folders.join(", ")
        ));
    }
    let mut per_file = Vec::new();
    for file in &files {
        let Some(name) = file.file_name() else {
            continue;
        };
        let name = lossless(name);
        let Some((stem, extension)) = split_name(&name) else {
            continue;
        };
        let known_problem = config
            .problems
            .as_ref()
            .is_none_or(|problems| problems.iter().any(|problem| problem == stem));
        let known_extension = config
            .languages
            .values()
            .any(|language| language.extensions.iter().any(|ext| ext == extension));
        if file.components().count() > 1 && known_problem && known_extension {
            per_file.push(format!(
                "`{}` would be graded at the top of the hand-in: hand in `{name}` itself, \
                 not inside a folder",
                file.display()
            ));
        } else if file.components().count() == 1 && !known_problem {
            if let Some(problems) = &config.problems {
                per_file.push(format!(
                    "`{name}` is not named after a problem of this assignment ({}){}",
                    problems.join(", "),
                    crate::suggest::did_you_mean(stem, problems.iter().map(String::as_str))
                ));
            }
        } else if file.components().count() == 1 && !known_extension {
            per_file.push(format!(
                "`{name}` has the extension `.{extension}`, which is no language of this \
                 assignment's ({})",
                extensions(config).join(", ")
            ));
        }
    }
    // The first few files said one by one, the rest counted: a platform's
    // file stays a page (issue #30: 20,000 misnamed files made 5.5 MB).
    let more = per_file.len().saturating_sub(REASONS_LISTED);
    reasons.extend(per_file.into_iter().take(REASONS_LISTED));
    if more > 0 {
        reasons.push(format!("and {more} more files were not graded"));
    }
    reasons
}

/// The student's folder when the layout puts each student in one and the
/// submissions folder holds exactly one; else the submissions folder.
fn hand_in_folder(submissions: &Path, layout: Layout) -> PathBuf {
    if layout != Layout::StudentProblem {
        return submissions.to_owned();
    }
    let folders: Vec<PathBuf> = fs_err::read_dir(submissions)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .filter(|entry| entry.path().is_dir())
                .filter(|entry| !entry.file_name().as_encoded_bytes().starts_with(b"."))
                .map(|entry| entry.path())
                .collect()
        })
        .unwrap_or_default();
    match folders.as_slice() {
        [one] => one.clone(),
        _ => submissions.to_owned(),
    }
}

/// Every file under `folder` (hidden ones, and those in hidden folders,
/// left out as discovery leaves them out), relative to it, sorted.
fn files_under(folder: &Path) -> Vec<PathBuf> {
    walkdir::WalkDir::new(folder)
        .min_depth(1)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|entry| !entry.file_name().as_encoded_bytes().starts_with(b"."))
        .filter_map(Result::ok)
        .filter(|entry| entry.file_type().is_file())
        .filter_map(|entry| entry.path().strip_prefix(folder).ok().map(Path::to_owned))
        .collect()
}

/// `` `a.py`, `b/c.py` `` with at most [`FILES_LISTED`] named.
fn listed(files: &[PathBuf]) -> String {
    let mut names: Vec<String> = files
        .iter()
        .take(FILES_LISTED)
        .map(|file| crate::visible::visible_name(&format!("`{}`", file.to_string_lossy())))
        .collect();
    if files.len() > FILES_LISTED {
        names.push(format!("and {} more", files.len() - FILES_LISTED));
    }
    let count = if files.len() == 1 {
        "1 file".to_owned()
    } else {
        format!("{} files", files.len())
    };
    format!("{count}: {}", names.join(", "))
}

/// `a file named `rooks.<ext>`` (or one per problem), `<ext>` one of the
/// configured languages' extensions.
fn expected_names(config: &JudgeConfig) -> String {
    let names = match &config.problems {
        Some(problems) if !problems.is_empty() => problems
            .iter()
            .map(|problem| format!("`{problem}.<ext>`"))
            .collect::<Vec<_>>()
            .join(", "),
        _ => "`<problem>.<ext>`".to_owned(),
    };
    let one = match &config.problems {
        Some(problems) if problems.len() > 1 => "a file per problem, named",
        _ => "one file named",
    };
    format!(
        "{one} {names}, where <ext> is one of {}",
        extensions(config).join(", ")
    )
}

/// The configured languages' extensions, sorted, each once.
fn extensions(config: &JudgeConfig) -> Vec<String> {
    let mut extensions: Vec<String> = config
        .languages
        .values()
        .flat_map(|language| language.extensions.iter().map(|ext| format!("`{ext}`")))
        .collect();
    extensions.sort();
    extensions.dedup();
    extensions
}

/// `rooks.py` as (`rooks`, `py`); a name without an extension is `None`.
fn split_name(name: &str) -> Option<(&str, &str)> {
    name.rsplit_once('.')
        .filter(|(stem, extension)| !stem.is_empty() && !extension.is_empty())
}
