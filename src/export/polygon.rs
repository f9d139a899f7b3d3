//! A Polygon package in Kattis' shape (issue #29, item 4), lossless where
//! the format can say it and the rest named:
//!
//! - the testlib checker (with the interactor, for an interactive
//!   problem) and the validator each become one C++ file, as the engines'
//!   are (a folder of several files reads as several programs to
//!   problemtools): the package's headers (`testlib.h`) inlined, each
//!   program in a namespace of its own, and `cpp/testlib_shim.cpp` around
//!   them, which runs each in a child process and turns testlib's exit
//!   codes into Kattis' (42 accepted, 43 rejected, the checker's message in
//!   `judgemessage.txt`; an interactor's output then checked by the
//!   checker, as Polygon does);
//! - the solutions go to the folder of their tag: `main` and `accepted` to
//!   `accepted/`, `wrong-answer` and `presentation-error` (Kattis has no
//!   presentation error) to `wrong_answer/`, `time-limit-exceeded` to
//!   `time_limit_exceeded/`, `memory-limit-exceeded` to `run_time_error/`
//!   (Kattis reports a memory overrun as a run-time error); a tag that is a
//!   set of verdicts (`rejected`, the `-or-` tags), `failed` and
//!   `do-not-run` have no folder and are left out, each with the reason;
//! - the sample tests go to `data/sample/`.
//!
//! Polygon's groups and points are not carried (the export is pass-fail),
//! and a program in another language than C++ is refused: its build would
//! need the judging host's commands for that language.

use super::ExportError;
use crate::package::polygon::tags::SolutionTag;
use crate::package::polygon::{ExportParts, ProgramSource};
use std::path::Path;

/// The shim that runs a testlib program under the Kattis protocol.
const SHIM: &str = include_str!("cpp/testlib_shim.cpp");
/// A file the export writes: its path in the package, bytes, executable.
pub(super) type File = (String, Vec<u8>, bool);

/// The file a line `#include "NAME"` or `#include <NAME>` names.
fn included(line: &str) -> Option<&str> {
    let rest = line.trim_start().strip_prefix('#')?.trim_start();
    let rest = rest.strip_prefix("include")?.trim_start();
    let close = match rest.chars().next()? {
        '"' => '"',
        '<' => '>',
        _ => return None,
    };
    let inner = &rest[1..];
    inner.find(close).map(|end| &inner[..end])
}

/// `text` with each `#include` of one of the package's headers replaced by
/// that header's text the first time (recursively) and by nothing after,
/// as the header's own include guard would.
fn inline_headers(
    text: &str,
    headers: &[(String, Vec<u8>)],
    inlined: &mut std::collections::BTreeSet<String>,
) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let header = included(line).and_then(|name| {
            let file = Path::new(name).file_name()?.to_string_lossy().into_owned();
            headers.iter().find(|(header, _)| *header == file)
        });
        match header {
            Some((name, bytes)) => {
                if inlined.insert(name.clone()) {
                    let inner = String::from_utf8_lossy(bytes).into_owned();
                    out.push_str(&format!("// {name}, inlined\n"));
                    out.push_str(&inline_headers(&inner, headers, inlined));
                    if !out.ends_with('\n') {
                        out.push('\n');
                    }
                } else {
                    out.push_str(&format!("// {name}: inlined above\n"));
                }
            }
            None => out.push_str(line),
        }
    }
    out
}

/// What a Polygon package becomes.
pub(super) struct Carried {
    /// The programs' folders, file by file.
    pub(super) files: Vec<File>,
    /// `(verdict folder, file name, bytes)` of each solution carried.
    pub(super) submissions: Vec<(String, String, Vec<u8>)>,
    /// What was left out, with the reason.
    pub(super) left_out: Vec<(String, String)>,
    pub(super) samples: std::collections::BTreeSet<String>,
    /// `statement/problem.en.md`, when the package has a statement.
    pub(super) statement: Option<String>,
    /// The package has an interactor: `type: interactive`.
    pub(super) interactive: bool,
}

/// The Kattis folder of a tag, or why it has none.
fn folder(tag: SolutionTag) -> Result<&'static str, &'static str> {
    match tag {
        SolutionTag::Main | SolutionTag::Accepted => Ok("accepted"),
        SolutionTag::WrongAnswer | SolutionTag::PresentationError => Ok("wrong_answer"),
        SolutionTag::TimeLimitExceeded => Ok("time_limit_exceeded"),
        SolutionTag::MemoryLimitExceeded => Ok("run_time_error"),
        SolutionTag::Rejected
        | SolutionTag::TimeLimitExceededOrAccepted
        | SolutionTag::TimeLimitExceededOrMemoryLimitExceeded => {
            Err("a set of verdicts, which the exported format's submission folders cannot say")
        }
        SolutionTag::Failed => Err("the checker must fail on it, which no Kattis folder says"),
        SolutionTag::DoNotRun => Err("it is not to be run"),
    }
}

/// The export of the Polygon package `id` whose parts are `parts`.
pub(super) fn carry(id: &str, parts: &ExportParts) -> Result<Carried, ExportError> {
    let unsupported = |reason: String| ExportError::Unsupported {
        id: id.to_owned(),
        reason,
    };
    let read = |path: &Path| {
        fs_err::read(path).map_err(|source| ExportError::Write {
            path: path.to_owned(),
            source,
        })
    };
    for program in [&parts.checker, &parts.validator, &parts.interactor]
        .into_iter()
        .flatten()
    {
        let cpp = program
            .path
            .extension()
            .and_then(|extension| extension.to_str())
            .is_some_and(|extension| ["cpp", "cc", "cxx", "c++"].contains(&extension));
        if !cpp {
            return Err(unsupported(format!(
                "its {} `{}` is not C++; the export builds testlib programs with g++ only",
                program.element,
                program.path.display()
            )));
        }
    }
    let mut files = Vec::new();
    let mut single_file = |path: &str,
                           programs: &[(&ProgramSource, &str)],
                           defines: &[&str]|
     -> Result<(), ExportError> {
        let mut source = format!(
            "// Written by `judge export --kattis {id}`: the Polygon package's testlib \
             program(s) and\n// the Kattis protocol around them, in one C++17 file (POSIX, \
             the standard library\n// and the package's headers, inlined) that the judging \
             host compiles.\n"
        );
        for define in defines {
            source.push_str(&format!("#define {define} 1\n"));
        }
        // Every standard header first, so a program's own includes, inside
        // its namespace below, add nothing.
        source.push_str("#include <bits/stdc++.h>\n");
        let mut inlined = std::collections::BTreeSet::new();
        source.push_str(&inline_headers(
            "#include \"testlib.h\"\n",
            &parts.headers,
            &mut inlined,
        ));
        if !inlined.contains("testlib.h") {
            return Err(unsupported(
                "its resources have no `testlib.h` to build its testlib programs with".to_owned(),
            ));
        }
        for (program, namespace) in programs {
            let text = String::from_utf8_lossy(&read(&program.path)?).into_owned();
            source.push_str(&format!(
                "\n// {}: {}\nnamespace judge_polygon_{namespace} {{\n",
                program.element,
                program
                    .path
                    .file_name()
                    .unwrap_or_default()
                    .to_string_lossy()
            ));
            // Its `main` becomes an ordinary function in the namespace, which
            // must not flow off its end as `main` may.
            let text = super::polygon_main::with_main_returning_zero(&text).ok_or_else(|| {
                unsupported(format!(
                    "its {} `{}` has no `int main(...) {{ ... }}` the export can find whole",
                    program.element,
                    program.path.display()
                ))
            })?;
            source.push_str(&inline_headers(&text, &parts.headers, &mut inlined));
            source.push_str(&format!("\n}}  // namespace judge_polygon_{namespace}\n"));
        }
        source.push('\n');
        source.push_str(SHIM);
        files.push((path.to_owned(), source.into_bytes(), false));
        Ok(())
    };
    match (&parts.interactor, &parts.checker) {
        (Some(interactor), Some(checker)) => single_file(
            "output_validator/judge_testlib_interactor.cpp",
            &[(interactor, "interactor"), (checker, "checker")],
            &["JUDGE_SHIM_INTERACTOR", "JUDGE_SHIM_HAS_CHECKER"],
        )?,
        (Some(interactor), None) => single_file(
            "output_validator/judge_testlib_interactor.cpp",
            &[(interactor, "interactor")],
            &["JUDGE_SHIM_INTERACTOR"],
        )?,
        (None, Some(checker)) => single_file(
            "output_validator/judge_testlib_checker.cpp",
            &[(checker, "checker")],
            &["JUDGE_SHIM_CHECKER"],
        )?,
        (None, None) => {}
    }
    if let Some(validator) = &parts.validator {
        single_file(
            "input_validators/judge_testlib_validator.cpp",
            &[(validator, "validator")],
            &["JUDGE_SHIM_VALIDATOR"],
        )?;
    }

    let mut submissions = Vec::new();
    let mut left_out = Vec::new();
    for (path, tag) in &parts.solutions {
        let name = path
            .file_name()
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_default();
        match folder(*tag) {
            Ok(folder) => submissions.push((folder.to_owned(), name, read(path)?)),
            Err(reason) => left_out.push((
                format!("solutions/{name}"),
                format!("tag `{}`: {reason}", tag.name()),
            )),
        }
    }
    if parts.scored {
        left_out.push((
            "problem.xml's groups and points".to_owned(),
            "the export is pass-fail: every test must pass".to_owned(),
        ));
    }
    if parts
        .statement
        .as_ref()
        .is_some_and(|(_, source_only)| *source_only)
    {
        left_out.push((
            "statements/*/problem.tex".to_owned(),
            "carried as LaTeX source in statement/problem.en.md (the package has no \
             statement-sections/ to write Markdown from)"
                .to_owned(),
        ));
    }
    Ok(Carried {
        files,
        submissions,
        left_out,
        samples: parts.samples.clone(),
        statement: parts.statement.as_ref().map(|(text, _)| text.clone()),
        interactive: parts.interactor.is_some(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every tag has a folder or a reason, and only single verdicts have a
    /// folder (issue #29: an "or" tag is never collapsed into one verdict).
    #[test]
    fn only_tags_of_one_verdict_have_a_folder() {
        for tag in SolutionTag::ALL {
            let single = tag.verdicts().len() == 1 && tag != SolutionTag::Failed;
            assert_eq!(folder(tag).is_ok(), single, "{}", tag.name());
        }
    }
}
