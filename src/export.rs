//! `judge export --kattis`: one of our packages written as a Kattis / ICPC
//! problem package (issue #9), so a problem setter can take it to a Kattis
//! installation or to problemtools.
//!
//! What is written:
//!
//! - `problem.yaml`: name, source, `validation: custom`, the limits;
//! - `problem_statement/problem.en.md`: the package's statement;
//! - `data/sample/` (tests named `sample*`) and `data/secret/` (the rest),
//!   each `.in` with its `.ans` (the reference answer where the package has
//!   none);
//! - `input_validators/judge_validate/judge_validate.py` and
//!   `output_validators/judge_check/judge_check.py`: Python scripts that run
//!   `judge validate` and `judge check` (the `judge` on `PATH`, or `$JUDGE`)
//!   and translate their exit codes to Kattis' (42 accepted, 43 rejected).
//!   Each carries a `# judge-engine:` line, from which `judge` itself, reading
//!   the package back, uses the engine directly instead of running a script
//!   that needs `judge` inside the sandbox.
//!
//! Only packages with a built-in engine are exported; a package with
//! programs of its own is refused with the reason.

use crate::config::problem::{Package, ProblemRef};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Why a package could not be exported.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// The package cannot be expressed in the Kattis format (yet).
    #[error("cannot export `{id}`: {reason}")]
    Unsupported { id: String, reason: String },
    /// A test has no answer and the reference could not make one.
    #[error("cannot export `{id}`: the reference solver rejected test `{test}`: {message}")]
    Reference {
        id: String,
        test: String,
        message: String,
    },
    /// A file could not be written.
    #[error("failed to write `{}`", path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// The line `judge` recognises in an exported validator: the engine, the
/// package's profiles and the checker's `lexmin`.
pub const ENGINE_MARKER: &str = "# judge-engine:";

/// Writes `package` into `dir` (which must not exist or be empty) and
/// returns the files written.
pub fn kattis(package: &Package, dir: &Path) -> Result<Vec<PathBuf>, ExportError> {
    let ProblemRef::Engine(engine) = &package.problem else {
        return Err(ExportError::Unsupported {
            id: package.id.clone(),
            reason: "only packages with a built-in engine are exported; copy a package's own \
                     programs into the Kattis folders by hand"
                .to_owned(),
        });
    };
    let mut written = Vec::new();
    let mut write =
        |relative: &str, contents: &[u8], executable: bool| -> Result<(), ExportError> {
            let path = dir.join(relative);
            let error = |source| ExportError::Write {
                path: path.clone(),
                source,
            };
            if let Some(parent) = path.parent() {
                fs_err::create_dir_all(parent).map_err(error)?;
            }
            fs_err::write(&path, contents).map_err(error)?;
            if executable {
                use std::os::unix::fs::PermissionsExt;
                fs_err::set_permissions(&path, std::fs::Permissions::from_mode(0o755))
                    .map_err(error)?;
            }
            written.push(path);
            Ok(())
        };
    let limits = &package.manifest.limits;
    let mut yaml = String::new();
    let _ = writeln!(yaml, "# Written by `judge export --kattis {}`.", package.id);
    let _ = writeln!(yaml, "name: {}", yaml_string(&package.manifest.title));
    let _ = writeln!(yaml, "source: {}", yaml_string(&package.manifest.origin));
    let _ = writeln!(yaml, "validation: custom");
    let _ = writeln!(yaml, "limits:");
    let _ = writeln!(
        yaml,
        "  time_limit: {}",
        limits.time_limit_ms as f64 / 1000.0
    );
    let _ = writeln!(yaml, "  memory: {}", limits.memory_limit_mib);
    let _ = writeln!(
        yaml,
        "  output: {}",
        limits.output_limit_kib.div_ceil(1024).max(1)
    );
    write("problem.yaml", yaml.as_bytes(), false)?;

    let statement = match &package.dir {
        Some(source) => fs_err::read(source.join("statement.md")).ok(),
        None => crate::config::bundled::file(&format!("{}/statement.md", package.id))
            .map(<[u8]>::to_vec),
    };
    if let Some(statement) = statement {
        write("problem_statement/problem.en.md", &statement, false)?;
    }

    for test in &package.tests {
        let answer = match &test.answer {
            Some(answer) => answer.clone(),
            None => engine
                .solve(&test.input)
                .map_err(|error| ExportError::Reference {
                    id: package.id.clone(),
                    test: test.name.clone(),
                    message: error.to_string(),
                })?,
        };
        let group = if test.name.starts_with("sample") {
            "sample"
        } else {
            "secret"
        };
        write(
            &format!("data/{group}/{}.in", test.name),
            test.input.as_bytes(),
            false,
        )?;
        write(
            &format!("data/{group}/{}.ans", test.name),
            answer.as_bytes(),
            false,
        )?;
    }

    let marker = format!(
        "{ENGINE_MARKER} {} profiles={} lexmin={}",
        engine.id(),
        package.manifest.profiles.join(","),
        package.check_options().lexmin
    );
    let any_solution = if package.check_options().lexmin {
        ""
    } else {
        ", \"--any-solution\""
    };
    let check = format!(
        r#"#!/usr/bin/env python3
# Kattis output validator written by `judge export --kattis {id}`: runs
# `judge check {id} INPUT OUTPUT ANSWER` (the `judge` on PATH, or $JUDGE) and
# turns its testlib exit code into Kattis' (0 -> 42 accepted, 1 or 2 -> 43
# wrong answer, anything else -> 1, a judge error). Its verdict line goes to
# FEEDBACK_DIR/judgemessage.txt.
{marker}
import os, subprocess, sys, tempfile

input_path, answer_path, feedback_dir = sys.argv[1:4]
with tempfile.NamedTemporaryFile(delete=False) as output:
    output.write(sys.stdin.buffer.read())
judge = os.environ.get("JUDGE", "judge")
result = subprocess.run([judge, "check", "{id}", input_path, output.name, answer_path{any_solution}],
                        capture_output=True, text=True)
os.unlink(output.name)
with open(os.path.join(feedback_dir, "judgemessage.txt"), "w") as message:
    message.write(result.stdout.strip() or result.stderr.strip())
sys.exit({{0: 42, 1: 43, 2: 43}}.get(result.returncode, 1))
"#,
        id = package.id
    );
    write(
        "output_validators/judge_check/judge_check.py",
        check.as_bytes(),
        true,
    )?;
    let validate = format!(
        r#"#!/usr/bin/env python3
# Kattis input validator written by `judge export --kattis {id}`: runs
# `judge validate {id}` on stdin (the `judge` on PATH, or $JUDGE): exit 42
# valid, 43 invalid (with judge's "line L: ..." on stderr).
{marker}
import os, subprocess, sys

judge = os.environ.get("JUDGE", "judge")
result = subprocess.run([judge, "validate", "{id}"], stdin=sys.stdin)
sys.exit({{0: 42, 1: 43}}.get(result.returncode, 1))
"#,
        id = package.id
    );
    write(
        "input_validators/judge_validate/judge_validate.py",
        validate.as_bytes(),
        true,
    )?;
    Ok(written)
}

/// A YAML scalar in double quotes, escaped.
fn yaml_string(text: &str) -> String {
    format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
}

/// The engine, profiles and `lexmin` a validator written by [`kattis`]
/// names on its [`ENGINE_MARKER`] line, when it has one.
pub fn engine_marker(script: &str) -> Option<(String, Vec<String>, bool)> {
    let line = script
        .lines()
        .find_map(|line| line.strip_prefix(ENGINE_MARKER))?;
    let mut words = line.split_whitespace();
    let engine = words.next()?.to_owned();
    let mut profiles = Vec::new();
    let mut lexmin = true;
    for word in words {
        if let Some(list) = word.strip_prefix("profiles=") {
            profiles = list
                .split(',')
                .filter(|name| !name.is_empty())
                .map(str::to_owned)
                .collect();
        } else if let Some(value) = word.strip_prefix("lexmin=") {
            lexmin = value != "false";
        }
    }
    Some((engine, profiles, lexmin))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_back_the_engine_marker() {
        assert_eq!(
            engine_marker(
                "#!/usr/bin/env python3\n# judge-engine: rooks profiles=small lexmin=true\n"
            ),
            Some(("rooks".to_owned(), vec!["small".to_owned()], true))
        );
        assert_eq!(engine_marker("print(1)\n"), None);
    }
}
