//! The arguments a Kattis package's validators get for each test (issue
//! #34, item 3): legacy and 2023-07 `input_validator_flags` and
//! `output_validator_flags` of `data/**/testdata.yaml` (a string of words),
//! 2025-09 `input_validator_args` (a list of words, or a map from a
//! validator's name to its list) and `output_validator_args` (a list) of
//! `data/**/test_group.yaml`. Setters use them for subtasks: problemtools'
//! `oddecho` validates `secret/subtask1` with `nFive=1` and the rest with
//! `nFive=0`; BAPCtools' `fltcmp` gives the default output validator its
//! tolerance in `data/test_group.yaml`.
//!
//! A folder's setting holds for the folders below it unless one sets its
//! own, key by key, as problemtools reads it: a test's arguments are those
//! of the nearest folder at or above it that sets the key, `data` itself
//! included.

use super::kattis_groups::{
    folder_of, read_settings, Settings, TestCaseYaml, TestGroupYaml, TestdataYaml, CURRENT_FILE,
    LEGACY_FILE,
};
use super::ConfigError;
use std::collections::BTreeMap;
use std::path::Path;

/// Which validator's arguments are read.
#[derive(Clone, Copy, Debug)]
enum Validator<'a> {
    /// The input validator named so (its file's stem or its folder's name).
    Input(&'a str),
    /// The output validator.
    Output,
}

/// For each of `test_names` (names under `data/`, such as
/// `secret/subtask1/1`) whose folder or an ancestor sets them, the input
/// validator arguments for the validator named `validator` (its file's
/// stem or its folder's name). Tests without any are left out.
pub(crate) fn input_validator_args(
    dir: &Path,
    test_names: &[&str],
    validator: &str,
) -> Result<BTreeMap<String, Vec<String>>, ConfigError> {
    inherited_args(dir, test_names, Validator::Input(validator))
}

/// For each of `test_names` whose folder or an ancestor sets them, the
/// output validator's arguments (`output_validator_flags`,
/// `output_validator_args`). Tests without any are left out.
pub(crate) fn output_validator_args(
    dir: &Path,
    test_names: &[&str],
) -> Result<BTreeMap<String, Vec<String>>, ConfigError> {
    inherited_args(dir, test_names, Validator::Output)
}

fn inherited_args(
    dir: &Path,
    test_names: &[&str],
    validator: Validator<'_>,
) -> Result<BTreeMap<String, Vec<String>>, ConfigError> {
    let data = dir.join("data");
    // What each folder sets itself (`None`: not the key), read once.
    let mut own: BTreeMap<String, Option<Vec<String>>> = BTreeMap::new();
    let mut args = BTreeMap::new();
    for name in test_names {
        if let Some(set) = test_case_args(&data, name, validator)? {
            args.insert((*name).to_owned(), set);
            continue;
        }
        let mut folder = folder_of(name).to_owned();
        let found = loop {
            if !own.contains_key(&folder) {
                let set = folder_args(&data.join(&folder), validator)?;
                own.insert(folder.clone(), set);
            }
            if let Some(Some(set)) = own.get(&folder) {
                break Some(set.clone());
            }
            if folder.is_empty() {
                break None;
            }
            folder = folder_of(&folder).to_owned();
        };
        if let Some(found) = found {
            args.insert((*name).to_owned(), found);
        }
    }
    Ok(args)
}

/// The arguments the test's own `NAME.yaml` (2025-09's test case
/// configuration) sets, if it sets them: they override its groups'.
fn test_case_args(
    data: &Path,
    name: &str,
    validator: Validator<'_>,
) -> Result<Option<Vec<String>>, ConfigError> {
    let Some(settings) = read_settings::<TestCaseYaml>(&data.join(format!("{name}.yaml")))? else {
        return Ok(None);
    };
    settings.yaml.unused();
    if settings
        .yaml
        .args
        .as_ref()
        .is_some_and(|args| !args.is_empty())
    {
        return Err(settings.invalid("args", "arguments to the submission are not supported"));
    }
    let value = match validator {
        Validator::Input(_) => &settings.yaml.input_validator_args,
        Validator::Output => &settings.yaml.output_validator_args,
    };
    yaml_args(&settings, value, validator)
}

/// The arguments `folder`'s own settings file sets, if it sets them.
fn folder_args(
    folder: &Path,
    validator: Validator<'_>,
) -> Result<Option<Vec<String>>, ConfigError> {
    if let Some(settings) = read_settings::<TestdataYaml>(&folder.join(LEGACY_FILE))? {
        let (key, value) = match validator {
            Validator::Input(_) => (
                "input_validator_flags",
                &settings.yaml.input_validator_flags,
            ),
            Validator::Output => (
                "output_validator_flags",
                &settings.yaml.output_validator_flags,
            ),
        };
        return match value {
            None | Some(serde_norway::Value::Null) => Ok(None),
            Some(serde_norway::Value::String(flags)) => {
                Ok(Some(flags.split_whitespace().map(str::to_owned).collect()))
            }
            Some(_) => Err(settings.invalid(key, "must be a string of flags (`nFive=1`)")),
        };
    }
    let Some(settings) = read_settings::<TestGroupYaml>(&folder.join(CURRENT_FILE))? else {
        return Ok(None);
    };
    current_args(&settings, validator)
}

/// 2025-09 `input_validator_args`: a list of words for every validator, or
/// a map from a validator's name to its list; `output_validator_args`: a
/// list of words.
fn current_args(
    settings: &Settings<TestGroupYaml>,
    validator: Validator<'_>,
) -> Result<Option<Vec<String>>, ConfigError> {
    let value = match validator {
        Validator::Input(_) => &settings.yaml.input_validator_args,
        Validator::Output => &settings.yaml.output_validator_args,
    };
    yaml_args(settings, value, validator)
}

/// `value` of `input_validator_args` or `output_validator_args` in a
/// 2025-09 file (a group's or a test case's), for `validator`.
fn yaml_args<T>(
    settings: &Settings<T>,
    value: &Option<serde_norway::Value>,
    validator: Validator<'_>,
) -> Result<Option<Vec<String>>, ConfigError> {
    let key = match validator {
        Validator::Input(_) => "input_validator_args",
        Validator::Output => "output_validator_args",
    };
    let words = |value: &serde_norway::Value| -> Result<Vec<String>, ConfigError> {
        let serde_norway::Value::Sequence(items) = value else {
            return Err(settings.invalid(
                key,
                match validator {
                    Validator::Input(_) => {
                        "must be a list of strings, or a map from a validator's name to one"
                    }
                    Validator::Output => "must be a list of strings",
                },
            ));
        };
        items
            .iter()
            .map(|item| match item {
                serde_norway::Value::String(word) => Ok(word.clone()),
                serde_norway::Value::Number(number) => Ok(number.to_string()),
                _ => Err(settings.invalid(key, "must be a list of strings")),
            })
            .collect()
    };
    match (value, validator) {
        (None | Some(serde_norway::Value::Null), _) => Ok(None),
        (Some(serde_norway::Value::Mapping(map)), Validator::Input(validator)) => {
            // A map sets the key for every validator: one it does not name
            // gets no arguments.
            let mut found = Vec::new();
            for (name, value) in map {
                let Some(name) = name.as_str() else {
                    return Err(settings.invalid(key, "a validator's name must be a string"));
                };
                if name == validator {
                    found = words(value)?;
                }
            }
            Ok(Some(found))
        }
        (Some(value), _) => words(value).map(Some),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn package(files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("a temporary folder");
        for (name, text) in files {
            let path = dir.path().join(name);
            fs_err::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
            fs_err::write(path, text).expect("write");
        }
        dir
    }

    const TESTS: [&str; 4] = ["sample/1", "secret/g1/1", "secret/g1/deep/2", "secret/g2/3"];

    #[test]
    fn legacy_flags_hold_for_subgroups_key_by_key() {
        let dir = package(&[
            (
                "data/sample/testdata.yaml",
                "input_validator_flags: nFive=0\n",
            ),
            ("data/secret/testdata.yaml", "input_validator_flags: all\n"),
            (
                "data/secret/g1/testdata.yaml",
                "input_validator_flags: nFive=1 x\n",
            ),
            // Sets other keys only: the flags come from `secret`.
            ("data/secret/g2/testdata.yaml", "on_reject: break\n"),
        ]);
        let args = input_validator_args(dir.path(), &TESTS, "validator").expect("read");
        let words = |name: &str| args.get(name).cloned();
        assert_eq!(words("sample/1"), Some(vec!["nFive=0".to_owned()]));
        assert_eq!(
            words("secret/g1/1"),
            Some(vec!["nFive=1".to_owned(), "x".to_owned()])
        );
        assert_eq!(words("secret/g1/deep/2"), words("secret/g1/1"));
        assert_eq!(words("secret/g2/3"), Some(vec!["all".to_owned()]));
    }

    #[test]
    fn current_args_are_a_list_or_a_map_by_validator_name() {
        let dir = package(&[
            ("data/test_group.yaml", "input_validator_args: [--all]\n"),
            (
                "data/secret/g1/test_group.yaml",
                "input_validator_args:\n  validator: [--max, 10]\n  other: [--no]\n",
            ),
        ]);
        let args = input_validator_args(dir.path(), &TESTS, "validator").expect("read");
        assert_eq!(args["sample/1"], vec!["--all"]);
        assert_eq!(args["secret/g2/3"], vec!["--all"]);
        assert_eq!(args["secret/g1/deep/2"], vec!["--max", "10"]);
        let other = input_validator_args(dir.path(), &TESTS, "third").expect("read");
        assert!(other["secret/g1/1"].is_empty(), "{other:?}");
    }

    /// See: issue #34 (BAPCtools' `testseed`): a test's own `NAME.yaml`
    /// overrides its groups', an empty word stays a word, and a key the
    /// test case configuration does not define is refused with its line.
    #[test]
    fn a_test_cases_own_yaml_overrides_its_groups() {
        let dir = package(&[
            ("data/test_group.yaml", "input_validator_args: [--all]\n"),
            (
                "data/secret/g1/1.yaml",
                "description: seeded\ninput_validator_args: [\"\", \"gen.py {seed}\"]\n",
            ),
            (
                "data/secret/g2/3.yaml",
                "output_validator_args: [case_sensitive]\nhint: none\n",
            ),
        ]);
        let args = input_validator_args(dir.path(), &TESTS, "validator").expect("read");
        assert_eq!(args["secret/g1/1"], vec!["", "gen.py {seed}"]);
        assert_eq!(args["secret/g1/deep/2"], vec!["--all"]);
        // Sets only the output validator's: the groups' input arguments hold.
        assert_eq!(args["secret/g2/3"], vec!["--all"]);
        let output = output_validator_args(dir.path(), &TESTS).expect("read");
        assert_eq!(output["secret/g2/3"], vec!["case_sensitive"]);
        assert!(!output.contains_key("secret/g1/1"), "{output:?}");

        let bad = package(&[("data/sample/1.yaml", "hint: x\ntime_limit: 3\n")]);
        let error = input_validator_args(bad.path(), &TESTS, "validator")
            .expect_err("an unknown key")
            .to_string();
        assert!(
            error.contains("1.yaml") && error.contains("time_limit"),
            "{error}"
        );
        let args = package(&[("data/sample/1.yaml", "args: [--fast]\n")]);
        let error = output_validator_args(args.path(), &TESTS)
            .expect_err("arguments to the submission")
            .to_string();
        assert!(
            error.contains("line 1") && error.contains("args"),
            "{error}"
        );
    }

    #[test]
    fn output_args_are_inherited_from_data_down_and_numbers_are_words() {
        let dir = package(&[
            (
                "data/test_group.yaml",
                "output_validator_args: [float_tolerance, 1e-6]\n",
            ),
            (
                "data/secret/g1/test_group.yaml",
                "output_validator_args: [case_sensitive]\n",
            ),
            // Sets another key only: `data`'s hold.
            (
                "data/secret/g2/test_group.yaml",
                "input_validator_args: [x]\n",
            ),
        ]);
        let args = output_validator_args(dir.path(), &TESTS).expect("read");
        assert_eq!(args["sample/1"], vec!["float_tolerance", "1e-6"]);
        assert_eq!(args["secret/g1/deep/2"], vec!["case_sensitive"]);
        assert_eq!(args["secret/g2/3"], args["sample/1"]);
    }

    #[test]
    fn legacy_output_flags_are_inherited_and_a_map_is_refused_for_them() {
        let dir = package(&[
            (
                "data/testdata.yaml",
                "output_validator_flags: float_tolerance 1e-4\n",
            ),
            (
                "data/secret/g1/testdata.yaml",
                "output_validator_flags: case_sensitive\n",
            ),
        ]);
        let args = output_validator_args(dir.path(), &TESTS).expect("read");
        assert_eq!(args["secret/g2/3"], vec!["float_tolerance", "1e-4"]);
        assert_eq!(args["secret/g1/1"], vec!["case_sensitive"]);
        let dir = package(&[(
            "data/secret/test_group.yaml",
            "\noutput_validator_args:\n  v: [a]\n",
        )]);
        let message = output_validator_args(dir.path(), &TESTS)
            .expect_err("a map")
            .to_string();
        assert!(message.contains("line 2"), "{message}");
        assert!(message.contains("must be a list of strings"), "{message}");
    }

    #[test]
    fn flags_that_are_not_words_name_the_file_and_line() {
        let dir = package(&[(
            "data/secret/testdata.yaml",
            "on_reject: break\ninput_validator_flags: [a]\n",
        )]);
        let message = input_validator_args(dir.path(), &TESTS, "v")
            .expect_err("a list")
            .to_string();
        assert!(message.contains("data/secret/testdata.yaml"), "{message}");
        assert!(message.contains("line 2"), "{message}");
        assert!(message.contains("must be a string of flags"), "{message}");
    }
}
