//! A Kattis / ICPC problem package read as it is (issue #9): `problem.yaml`
//! (name, limits, `validation`, `validator_flags`), `data/sample` and
//! `data/secret` (nested groups), `input_validators/`,
//! `output_validator/` or `output_validators/`, and `submissions/<verdict>/`.
//!
//! This module reads and checks those files and builds nothing that runs;
//! [`crate::package::kattis`] assembles the problem from them. A key of
//! `problem.yaml` the judge does not support is an error with its line:
//! nothing is graded against a half-understood package.

use super::kattis_constants::Constants;
use super::kattis_yaml::YamlRefusal;
use super::problem::PackageTest;
use super::{ConfigError, ConfigErrorKind};
use crate::beneath::Beneath;
use crate::problems::checkers::BuiltinChecker;
use std::path::{Path, PathBuf};

pub(crate) use super::kattis_yaml::{FormatVersion, ProblemType, ProblemYaml};

/// The file that makes a folder a Kattis package.
pub(crate) const MARKER: &str = "problem.yaml";

/// One program of `submissions/<folder>/`, as the folders list it (the
/// package layer's `package::format::PackageSubmission` is what a package
/// of any format expects of it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SubmissionFile {
    pub(crate) path: PathBuf,
    /// `accepted`, `wrong_answer`, ...
    pub(crate) folder: String,
}

/// The files of `dir/submissions/<folder>/`, by folder then name. A folder
/// inside a verdict folder (a multi-file submission) is listed too; the
/// caller skips it with a reason. What the format says not to run (see
/// [`ignored_because`]) is not listed: [`ignored_submissions`] lists it.
pub(crate) fn package_submissions(dir: &Path) -> Result<Vec<SubmissionFile>, ConfigError> {
    Ok(submission_entries(dir)?.0)
}

/// The files and folders under `dir/submissions/` that the format says not
/// to run, each with the reason (see [`ignored_because`]), by path.
pub(crate) fn ignored_submissions(dir: &Path) -> Result<Vec<(PathBuf, String)>, ConfigError> {
    Ok(submission_entries(dir)?.1)
}

/// The submissions of `dir`, and what is ignored under `dir/submissions/`.
#[expect(
    clippy::type_complexity,
    reason = "the two lists of one walk, named by the two functions above"
)]
fn submission_entries(
    dir: &Path,
) -> Result<(Vec<SubmissionFile>, Vec<(PathBuf, String)>), ConfigError> {
    let root = dir.join("submissions");
    let mut found = Vec::new();
    let mut ignored = Vec::new();
    if !root.is_dir() {
        return Ok((found, ignored));
    }
    for folder in all_entries(&root)? {
        if !folder.is_dir() {
            continue;
        }
        if let Some(reason) = ignored_because(&folder) {
            ignored.push((folder, reason));
            continue;
        }
        let name = folder
            .file_name()
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_default();
        for path in all_entries(&folder)? {
            match ignored_because(&path) {
                Some(reason) => ignored.push((path, reason)),
                None => {
                    refuse_special_file(&path)?;
                    found.push(SubmissionFile {
                        path,
                        folder: name.clone(),
                    });
                }
            }
        }
    }
    Ok((found, ignored))
}

/// A submission that is a FIFO, a device or a socket (itself or the target
/// of its link) is refused, naming what it is: it was skipped as a file "in
/// a language that is not configured", or blocked the judge in `open`
/// (issue #34). A link that leads nowhere is left to the submission's own
/// reading.
fn refuse_special_file(path: &Path) -> Result<(), ConfigError> {
    let Ok(metadata) = fs_err::metadata(path) else {
        return Ok(());
    };
    let kind = special_file_kind(metadata.file_type());
    match kind {
        None => Ok(()),
        Some(kind) => Err(ConfigError::invalid(
            path,
            "submissions",
            format!("is {kind}, not a file or a folder: a submission is a source file or a folder program"),
        )),
    }
}

/// What a file of `file_type` is, in words, when it is neither a regular
/// file nor a folder.
fn special_file_kind(file_type: std::fs::FileType) -> Option<&'static str> {
    use std::os::unix::fs::FileTypeExt;
    if file_type.is_file() || file_type.is_dir() {
        None
    } else if file_type.is_fifo() {
        Some("a named pipe (FIFO)")
    } else if file_type.is_char_device() || file_type.is_block_device() {
        Some("a device")
    } else if file_type.is_socket() {
        Some("a socket")
    } else {
        Some("not a plain file")
    }
}

/// Why the format says not to run the program (file or folder) at `path`,
/// when it says so, by its name alone: the spec has the judge behave as if
/// a name that begins with `.` or `-`, or holds a character outside `a-z`,
/// `A-Z`, `0-9`, `_`, `.`, `-`, were not there (`.gitkeep`); a name ending
/// in `.disabled` is switched off (the convention of BAPCtools and
/// problemtools' examples); a `README` (any extension) documents a folder.
pub(crate) fn ignored_because(path: &Path) -> Option<String> {
    let name = path.file_name()?.to_string_lossy();
    if name.starts_with('.') || name.starts_with('-') {
        return Some(format!(
            "`{name}` begins with `{}`: the format ignores such names",
            &name[..1]
        ));
    }
    if let Some(bad) = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-')))
    {
        return Some(format!(
            "`{name}` holds `{bad}`: the format ignores names with characters outside a-z, A-Z, \
             0-9, `_`, `.`, `-`"
        ));
    }
    if name.ends_with(".disabled") {
        return Some(format!(
            "`{name}` is disabled (its name ends in `.disabled`)"
        ));
    }
    let stem = name.split('.').next().unwrap_or_default();
    if stem.eq_ignore_ascii_case("readme") {
        return Some(format!("`{name}` documents the folder; it is no program"));
    }
    None
}

/// Every entry of `dir`, by name.
pub(crate) fn all_entries(dir: &Path) -> Result<Vec<PathBuf>, ConfigError> {
    let mut entries: Vec<PathBuf> = fs_err::read_dir(dir)
        .map_err(|error| read_error(dir, error))?
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .collect();
    entries.sort();
    Ok(entries)
}

fn read_error(path: &Path, error: std::io::Error) -> ConfigError {
    ConfigError {
        path: path.to_owned(),
        kind: ConfigErrorKind::Read(error),
    }
}

/// A file that is not UTF-8, naming the line and byte of its first bad
/// byte (issue #34: a Latin-1 `name: h\xe9llo`).
fn not_utf8(path: &Path, error: &std::string::FromUtf8Error) -> ConfigError {
    let bytes = error.as_bytes();
    let at = error.utf8_error().valid_up_to();
    let before = bytes.get(..at).unwrap_or(bytes);
    let line = 1 + before.iter().filter(|byte| **byte == b'\n').count();
    let column = 1 + before
        .iter()
        .rev()
        .take_while(|byte| **byte != b'\n')
        .count();
    ConfigError {
        path: path.to_owned(),
        kind: ConfigErrorKind::Parse {
            position: None,
            message: format!(
                "line {line}, byte {column}: is not UTF-8 (byte 0x{:02x}); save the file as UTF-8",
                bytes.get(at).copied().unwrap_or_default()
            ),
        },
    }
}

/// Reads `dir/problem.yaml` in the format version it states (see
/// [`super::kattis_yaml`]): a key outside that version's keys, or a value
/// not allowed, is an error with its line. A `submit-answer` problem is
/// refused here: nothing in the judge grades answers handed in as files.
pub(crate) fn read_problem_yaml(dir: &Path) -> Result<ProblemYamlFile, ConfigError> {
    let yaml_path = dir.join(MARKER);
    let bytes = ConfigError::read_yaml(&yaml_path)?;
    let text = String::from_utf8(bytes).map_err(|error| not_utf8(&yaml_path, &error))?;
    let mut file = ProblemYamlFile {
        path: yaml_path,
        text,
        yaml: ProblemYaml::default(),
        constants: Constants::NONE,
    };
    file.yaml = match super::kattis_yaml::parse(&file.text) {
        Ok(yaml) => yaml,
        Err(YamlRefusal::Parse { position, message }) => {
            return Err(ConfigError {
                path: file.path.clone(),
                kind: ConfigErrorKind::Parse { position, message },
            })
        }
        Err(YamlRefusal::Invalid { key, message }) => return Err(file.invalid(key, message)),
    };
    file.constants = Constants::read(&file.path, &file.text, file.yaml.constants.as_ref())?;
    if file.yaml.is(ProblemType::SubmitAnswer) {
        return Err(file.invalid(
            "type",
            "`submit-answer` problems (answers handed in instead of programs) are not supported: \
             the judge grades programs"
                .to_owned(),
        ));
    }
    Ok(file)
}

/// `problem.yaml` as read: its path and text (for the line of a bad key)
/// and its keys.
#[derive(Debug)]
pub(crate) struct ProblemYamlFile {
    pub(crate) path: PathBuf,
    text: String,
    pub(crate) yaml: ProblemYaml,
    /// Its `constants`, checked (none when it has none).
    pub(crate) constants: Constants,
}

impl ProblemYamlFile {
    /// An invalid value of `key`, with its line when it can be found.
    pub(crate) fn invalid(&self, key: &str, message: String) -> ConfigError {
        let line = self
            .text
            .lines()
            .position(|line| {
                line.trim_start()
                    .starts_with(&format!("{}:", key.rsplit('.').next().unwrap_or(key)))
            })
            .map(|index| index + 1);
        ConfigError {
            path: self.path.clone(),
            kind: ConfigErrorKind::Invalid {
                key: key.to_owned(),
                message,
                line,
            },
        }
    }
}

/// Where `judge export --kattis` writes rooks' output validator (a Python
/// script), and where reading a package back looks for its
/// [`ENGINE_MARKER`].
pub(crate) const EXPORTED_CHECKER: &str = "output_validator/judge_check.py";

/// Where exports before issue #34 wrote the interactive output validator of
/// a package the judge's engine plays (it ran `judge interact`); reading
/// such a package back still looks for its [`ENGINE_MARKER`].
pub(crate) const EXPORTED_INTERACTOR: &str = "output_validator/judge_interact.py";

/// Where `judge export --kattis` writes an output validator it carries
/// whole as one C++ file (matchsticks: issue #34); its [`ENGINE_MARKER`]
/// is on a `//` comment line.
pub(crate) const EXPORTED_CHECKER_CPP: &str = "output_validator/judge_check.cpp";

/// Where `judge export --kattis` writes the interactor of a package the
/// judge's engine plays, carried whole as one C++ file (matchsticks-duel:
/// issue #34).
pub(crate) const EXPORTED_INTERACTOR_CPP: &str = "output_validator/judge_interact.cpp";

/// Where exports in the legacy format (before issue #15) wrote it.
pub(crate) const LEGACY_EXPORTED_CHECKER: &str = "output_validators/judge_check/judge_check.py";

/// The line `judge` recognises in an exported validator: the engine, the
/// package's profiles and the checker's `lexmin`.
pub(crate) const ENGINE_MARKER: &str = "# judge-engine:";

/// The engine, profiles and `lexmin` a validator written by `judge export
/// --kattis` names on its [`ENGINE_MARKER`] line, when it has one.
pub(crate) fn engine_marker(script: &str) -> Option<(String, Vec<String>, bool)> {
    let line = script.lines().find_map(|line| {
        line.strip_prefix(ENGINE_MARKER)
            .or_else(|| line.strip_prefix("// judge-engine:"))
    })?;
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

/// A `validator_flags` of problem.yaml the default output validator does
/// not take.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum ValidatorFlagError {
    /// A tolerance without its number.
    #[error("`{0}` needs a number after it")]
    NoNumber(&'static str),
    /// A flag the validator does not know.
    #[error("`{0}` is not a flag of the default output validator")]
    Unknown(String),
}

/// The default output validator of problemtools, from `validator_flags`:
/// tokens, case-insensitive unless `case_sensitive`, numbers within
/// `float_tolerance` (or the absolute and relative ones) when given, and
/// whitespace exactly the answer's with `space_change_sensitive`.
pub(crate) fn default_validator(flags: &[String]) -> Result<BuiltinChecker, ValidatorFlagError> {
    let mut case_sensitive = false;
    let mut space_change_sensitive = false;
    let mut absolute = None;
    let mut relative = None;
    let mut words = flags.iter();
    while let Some(flag) = words.next() {
        let mut number = |name: &'static str| -> Result<f64, ValidatorFlagError> {
            words
                .next()
                .and_then(|value| value.parse::<f64>().ok())
                .ok_or(ValidatorFlagError::NoNumber(name))
        };
        match flag.as_str() {
            "case_sensitive" => case_sensitive = true,
            "space_change_sensitive" => space_change_sensitive = true,
            "float_tolerance" => {
                let value = number("float_tolerance")?;
                absolute = Some(value);
                relative = Some(value);
            }
            "float_absolute_tolerance" => absolute = Some(number("float_absolute_tolerance")?),
            "float_relative_tolerance" => relative = Some(number("float_relative_tolerance")?),
            other => return Err(ValidatorFlagError::Unknown(other.to_owned())),
        }
    }
    let tolerance = match (absolute, relative) {
        (None, None) => None,
        (absolute, relative) => Some((absolute.unwrap_or(0.0), relative.unwrap_or(0.0))),
    };
    if space_change_sensitive {
        return Ok(BuiltinChecker::SpaceChangeSensitive {
            case_sensitive,
            tolerance,
        });
    }
    Ok(BuiltinChecker::Kattis {
        case_sensitive,
        tolerance,
    })
}

/// The folder of a Kattis package's tests (`data/`), which no run may read:
/// the package layer hands it to the sandbox to mask.
pub(crate) fn data_folder(dir: &Path) -> PathBuf {
    dir.join("data")
}

/// `data/sample` then `data/secret`, each searched in depth (nested groups),
/// in name order; every `.in` needs its `.ans`. Each folder's tests are
/// listed by [`crate::test_files::list`] (a name that is not UTF-8 is an
/// error naming the file); a test is named by its path under `data/`.
pub(crate) fn read_tests(dir: &Path) -> Result<Vec<PackageTest>, ConfigError> {
    let data = data_folder(dir);
    let package = Beneath::new(dir).map_err(|error| ConfigError::beneath(dir, error))?;
    let mut tests = Vec::new();
    for group in ["sample", "secret"] {
        let root = data.join(group);
        if !root.is_dir() {
            continue;
        }
        let mut inputs = Vec::new();
        for folder in test_folders(&root) {
            let folder = folder?;
            inputs.extend(
                crate::test_files::list(&folder).map_err(|error| read_error(&folder, error))?,
            );
        }
        inputs.sort_by(|a, b| a.input.cmp(&b.input));
        for test in inputs {
            let path = test.input.clone();
            let answer_path = test.answer();
            // `exists`, not `is_file`: a FIFO or device there is named as
            // such by the read below, not called missing (issue #34).
            if !answer_path.exists() {
                return Err(ConfigError::invalid(
                    &path,
                    "answer",
                    format!(
                        "the test has no answer `{}` beside it",
                        answer_path.display()
                    ),
                ));
            }
            // Opened beneath the package (issue #34): a link swapped in
            // after `data/`'s links were checked is refused, not followed.
            let read = |path: &Path| -> Result<String, ConfigError> {
                let bytes = package
                    .read(path)
                    .map_err(|error| ConfigError::beneath(path, error))?;
                String::from_utf8(bytes)
                    .map_err(|_| ConfigError::invalid(path, "text", "is not UTF-8"))
            };
            let folder = path.parent().unwrap_or(&data);
            let group_name = folder.strip_prefix(&data).unwrap_or(folder);
            let Some(group_name) = group_name.to_str() else {
                return Err(ConfigError::invalid(
                    folder,
                    "name",
                    "the name of the test group is not UTF-8; rename the folder",
                ));
            };
            tests.push(PackageTest {
                name: format!("{group_name}/{}", test.name),
                input: read(&path)?,
                answer: Some(read(&answer_path)?),
                path,
            });
        }
    }
    Ok(tests)
}

/// The tests under `data/<folder>` (nested groups too), each named by its
/// path under `data/` without `.in` (`secret/group1/001`), in the order
/// [`read_tests`] reads them: the same folders (a test's `NAME.files/` is
/// no group) and the same listing ([`crate::test_files::list`]). For the
/// group layout and the output validator's self-tests, read after the
/// tests loaded: a folder that cannot be read lists nothing here, since
/// the load has named it already.
pub(crate) fn test_names(data: &Path, folder: &str) -> Vec<String> {
    let root = data.join(folder);
    if !root.is_dir() {
        return Vec::new();
    }
    let mut inputs: Vec<_> = test_folders(&root)
        .filter_map(Result::ok)
        .filter_map(|folder| crate::test_files::list(&folder).ok())
        .flatten()
        .collect();
    inputs.sort_by(|a, b| a.input.cmp(&b.input));
    inputs
        .iter()
        .filter_map(|test| {
            let name = test.input.with_extension("");
            Some(name.strip_prefix(data).ok()?.to_string_lossy().into_owned())
        })
        .collect()
}

/// `root` and every folder under it, in name order. A test's `NAME.files/`
/// folder holds files for the run, never tests; `.desc`, `.hint` and a
/// sample's `.interaction` beside a test document it.
fn test_folders(root: &Path) -> impl Iterator<Item = Result<PathBuf, ConfigError>> {
    walkdir::WalkDir::new(root)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|entry| {
            entry.file_type().is_dir()
                && entry
                    .path()
                    .extension()
                    .is_none_or(|extension| extension != "files")
        })
        .map(|entry| match entry {
            Ok(entry) => Ok(entry.into_path()),
            Err(error) => {
                let path = error.path().unwrap_or(Path::new("data")).to_owned();
                Err(read_error(&path, error.into()))
            }
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The group layout's and the self-tests' names come from the folders
    /// and listing the load reads: a test's `NAME.files/` holds no test,
    /// nested groups are named by their path, in the load's order.
    #[test]
    fn test_names_are_the_loads_tests_by_their_path_under_data() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let data = dir.path().join("data");
        for file in [
            "secret/2.in",
            "secret/2.ans",
            "secret/2.files/extra.in",
            "secret/g/1.in",
            "secret/g/1.ans",
            "secret/g/notes.txt",
            "invalid_output/bad.in",
        ] {
            let path = data.join(file);
            fs_err::create_dir_all(path.parent().expect("a folder")).expect("made");
            fs_err::write(&path, "1\n").expect("written");
        }
        assert_eq!(test_names(&data, "secret"), ["secret/2", "secret/g/1"]);
        assert_eq!(test_names(&data, "invalid_output"), ["invalid_output/bad"]);
        assert!(test_names(&data, "valid_output").is_empty());
    }

    #[test]
    fn a_problem_yaml_that_is_not_utf8_names_the_line_and_byte() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        fs_err::write(
            dir.path().join(MARKER),
            b"problem_format_version: 2025-09\r\nname: h\xe9llo\r\n",
        )
        .expect("written");
        let error = read_problem_yaml(dir.path())
            .expect_err("refused")
            .to_string();
        assert!(
            error.contains("problem.yaml`: line 2, byte 8: is not UTF-8 (byte 0xe9)"),
            "{error}"
        );
    }

    fn flags(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_owned).collect()
    }

    fn package_with(files: &[&str]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("a temporary folder");
        for name in files {
            let path = dir.path().join(name);
            fs_err::create_dir_all(path.parent().expect("under the folder")).expect("mkdir");
            fs_err::write(&path, "1\n").expect("write");
        }
        dir
    }

    #[test]
    fn tests_are_named_by_their_path_under_data_in_name_order() {
        let dir = package_with(&[
            "data/secret/b.in",
            "data/secret/b.ans",
            "data/secret/group1/a.in",
            "data/secret/group1/a.ans",
            "data/secret/a.b.in",
            "data/secret/a.b.ans",
            "data/secret/a.files/x.in",
            "data/secret/b.desc",
            "data/sample/1.in",
            "data/sample/1.ans",
        ]);
        let tests = read_tests(dir.path()).expect("reads");
        let names: Vec<&str> = tests.iter().map(|test| test.name.as_str()).collect();
        assert_eq!(
            names,
            ["sample/1", "secret/a.b", "secret/b", "secret/group1/a"]
        );
    }

    /// Issue #34: a test file that becomes a link out of the package after
    /// `data/`'s links were checked cannot be timed end to end, so the
    /// layer is tested: `read_tests` alone, no check before it, refuses a
    /// link out (the target unread) and reads a link inside as its target.
    #[test]
    fn tests_are_read_beneath_the_package_with_no_check_before() {
        let dir = package_with(&["data/sample/1.in", "data/sample/1.ans", "data/secret/2.in"]);
        let host = tempfile::tempdir().expect("a temporary folder");
        fs_err::write(host.path().join("shadow"), "TOPSECRET\n").expect("write");
        let secret = dir.path().join("data/secret");
        std::os::unix::fs::symlink("../sample/1.ans", secret.join("2.ans")).expect("link");
        let tests = read_tests(dir.path()).expect("a link inside is read");
        assert_eq!(tests[1].answer.as_deref(), Some("1\n"));
        fs_err::remove_file(secret.join("2.ans")).expect("remove");
        std::os::unix::fs::symlink(host.path().join("shadow"), secret.join("2.ans")).expect("link");
        let error = read_tests(dir.path()).expect_err("refused").to_string();
        assert!(
            error.contains(&format!(
                "refused `{}`: it is a symbolic link (symlink) to a file outside the package",
                secret.join("2.ans").display()
            )) && !error.contains("TOPSECRET"),
            "{error}"
        );
    }

    #[test]
    fn a_test_name_that_is_not_utf8_is_an_error_naming_the_file() {
        use std::os::unix::ffi::OsStrExt as _;
        let dir = package_with(&["data/secret/1.in", "data/secret/1.ans"]);
        let secret = dir.path().join("data/secret");
        // Latin-1 é: a byte that is not UTF-8.
        for name in [&b"caf\xe9.in"[..], b"caf\xe9.ans"] {
            fs_err::write(secret.join(std::ffi::OsStr::from_bytes(name)), "1\n").expect("write");
        }
        let error = read_tests(dir.path()).expect_err("refused").to_string();
        assert!(
            error.contains("caf") && error.contains("is not UTF-8"),
            "{error}"
        );
    }

    #[test]
    fn a_group_folder_name_that_is_not_utf8_is_an_error_naming_it() {
        use std::os::unix::ffi::OsStrExt as _;
        let dir = package_with(&[]);
        let group = dir
            .path()
            .join("data/secret")
            .join(std::ffi::OsStr::from_bytes(b"gr\xfcppe"));
        fs_err::create_dir_all(&group).expect("mkdir");
        fs_err::write(group.join("1.in"), "1\n").expect("write");
        fs_err::write(group.join("1.ans"), "1\n").expect("write");
        let error = read_tests(dir.path()).expect_err("refused").to_string();
        assert!(
            error.contains("gr") && error.contains("not UTF-8"),
            "{error}"
        );
    }

    #[test]
    fn names_the_format_ignores_are_told_by_their_name() {
        for (name, reason) in [
            (".gitkeep", "begins with `.`"),
            ("-x.c", "begins with `-`"),
            ("a b.c", "holds ` `"),
            ("é.py", "holds `é`"),
            ("test-hello.c.disabled", "ends in `.disabled`"),
            ("prolog.disabled", "ends in `.disabled`"),
            ("README", "documents the folder"),
            ("readme.md", "documents the folder"),
        ] {
            let found = ignored_because(Path::new("submissions/accepted").join(name).as_path());
            assert!(
                found.as_deref().is_some_and(|found| found.contains(reason)),
                "{name}: {found:?}"
            );
        }
        for name in [
            "hello.py3",
            "test-hello.sh",
            "Main.java",
            "a_b-c.d.cc",
            "readme_solution.py",
        ] {
            assert_eq!(ignored_because(Path::new(name)), None, "{name}");
        }
    }

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

    #[test]
    fn reads_the_default_validators_flags() {
        assert_eq!(
            default_validator(&[]),
            Ok(BuiltinChecker::Kattis {
                case_sensitive: false,
                tolerance: None,
            })
        );
        // See: issue #34 (the flag was read and dropped).
        assert_eq!(
            default_validator(&flags("space_change_sensitive case_sensitive")),
            Ok(BuiltinChecker::SpaceChangeSensitive {
                case_sensitive: true,
                tolerance: None,
            })
        );
        assert_eq!(
            default_validator(&flags(
                "space_change_sensitive float_relative_tolerance 0.5"
            )),
            Ok(BuiltinChecker::SpaceChangeSensitive {
                case_sensitive: false,
                tolerance: Some((0.0, 0.5)),
            })
        );
        assert_eq!(
            default_validator(&flags("case_sensitive")),
            Ok(BuiltinChecker::Kattis {
                case_sensitive: true,
                tolerance: None,
            })
        );
        assert_eq!(
            default_validator(&flags("float_tolerance 1e-4")),
            Ok(BuiltinChecker::Kattis {
                case_sensitive: false,
                tolerance: Some((1e-4, 1e-4)),
            })
        );
        assert_eq!(
            default_validator(&flags("case_sensitive float_absolute_tolerance 0.5")),
            Ok(BuiltinChecker::Kattis {
                case_sensitive: true,
                tolerance: Some((0.5, 0.0)),
            })
        );
        assert_eq!(
            default_validator(&flags("float_tolerance")),
            Err(ValidatorFlagError::NoNumber("float_tolerance"))
        );
        assert_eq!(
            default_validator(&flags("ignore_case")),
            Err(ValidatorFlagError::Unknown("ignore_case".to_owned()))
        );
        assert_eq!(
            default_validator(&flags("ignore_case"))
                .map_err(|error| error.to_string())
                .err()
                .as_deref(),
            Some("`ignore_case` is not a flag of the default output validator")
        );
        assert_eq!(
            ValidatorFlagError::NoNumber("float_tolerance").to_string(),
            "`float_tolerance` needs a number after it"
        );
    }
}
