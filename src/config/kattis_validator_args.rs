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
//! A test's own `NAME.yaml` (2025-09) sets them first. Then, in
//! `testdata.yaml`, a folder's setting holds for the folders below it
//! unless one sets its own, key by key, as problemtools reads it: a test's
//! arguments are those of the nearest folder at or above it that sets the
//! key, `data` itself included. In `test_group.yaml` (2025-09), as the
//! format says, a test gets those of its own group's file (`sample`,
//! `secret`, or its test data group; in the validators' own tests, its
//! folder's), not those of a level above: `secret`'s do not reach its
//! groups (issue #34, item 2). `data/test_group.yaml`, which the format
//! does not name, comes last, as BAPCtools reads it: BAPCtools' `fltcmp`
//! sets its tolerance there for every test. A pass-fail package whose
//! files lie deeper than the format allows (BAPCtools' `divsort`) is read
//! with BAPCtools' rule, key by key the nearest file at or above the test
//! that sets the key ([`super::kattis_groups::layout`]).

use super::kattis_constants::Constants;
use super::kattis_groups::{
    folder_of, read_settings, Settings, SettingsFiles, TestCaseYaml, TestGroupYaml, TestdataYaml,
    CURRENT_FILE, LEGACY_FILE,
};
use super::ConfigError;
use std::collections::BTreeMap;
use std::path::Path;

/// Which validator's arguments are read.
#[derive(Clone, Copy, Debug)]
enum Validator<'a> {
    /// The input validator named so (its file's stem or its folder's name),
    /// and the names of all the package's input validators.
    Input(&'a str, &'a [String]),
    /// The output validator.
    Output,
    /// The answer validator named so (BAPCtools' `answer_validators/`,
    /// `answer_validator_args`), and the names of all of them.
    Answer(&'a str, &'a [String]),
}

impl Validator<'_> {
    /// The 2025-09 key.
    fn key(self) -> &'static str {
        match self {
            Validator::Input(..) => "input_validator_args",
            Validator::Output => "output_validator_args",
            Validator::Answer(..) => "answer_validator_args",
        }
    }
}

/// For each of `test_names` (names under `data/`, such as
/// `secret/subtask1/1`) that has them, the input validator arguments for
/// the validator named `validator` (its file's stem or its folder's name).
/// Tests without any are left out. `known` names every input validator of
/// the package: a map naming another is refused, naming its file, line
/// and key (issue #34), as a misspelt name would silently drop a
/// constraint.
pub(crate) fn input_validator_args(
    files: &SettingsFiles<'_>,
    test_names: &[&str],
    validator: &str,
    known: &[String],
) -> Result<BTreeMap<String, Vec<String>>, ConfigError> {
    inherited_args(files, test_names, Validator::Input(validator, known))
}

/// For each of `test_names` that has them, the output validator's
/// arguments (`output_validator_flags`, `output_validator_args`). Tests
/// without any are left out.
pub(crate) fn output_validator_args(
    files: &SettingsFiles<'_>,
    test_names: &[&str],
) -> Result<BTreeMap<String, Vec<String>>, ConfigError> {
    inherited_args(files, test_names, Validator::Output)
}

/// For each of `test_names` (answers of `data/invalid_answer/`) that has
/// them, BAPCtools' `answer_validator_args` for the answer validator named
/// `validator`, read as `input_validator_args` is (`known` names every
/// answer validator). Tests without any are left out.
pub(crate) fn answer_validator_args(
    files: &SettingsFiles<'_>,
    test_names: &[&str],
    validator: &str,
    known: &[String],
) -> Result<BTreeMap<String, Vec<String>>, ConfigError> {
    inherited_args(files, test_names, Validator::Answer(validator, known))
}

fn inherited_args(
    files: &SettingsFiles<'_>,
    test_names: &[&str],
    validator: Validator<'_>,
) -> Result<BTreeMap<String, Vec<String>>, ConfigError> {
    let data = files.data();
    // What each folder's file sets itself (`None`: not the key), read once.
    let mut legacy: BTreeMap<String, Option<Vec<String>>> = BTreeMap::new();
    let mut current: BTreeMap<String, Option<Vec<String>>> = BTreeMap::new();
    let mut args = BTreeMap::new();
    let layout = files.layout();
    let folders = files.current_folders();
    let has_file = |folder: &str| folders.contains(folder);
    for name in test_names {
        if let Some(set) = test_case_args(&data, name, validator)? {
            args.insert((*name).to_owned(), set);
            continue;
        }
        // `testdata.yaml`: the nearest folder at or above the test's that
        // sets the key.
        let mut folder = folder_of(name).to_owned();
        let mut found = loop {
            if !legacy.contains_key(&folder) {
                let set = legacy_args(&data, &folder, validator, files.constants)?;
                legacy.insert(folder.clone(), set);
            }
            if let Some(Some(set)) = legacy.get(&folder) {
                break Some(set.clone());
            }
            if folder.is_empty() {
                break None;
            }
            folder = folder_of(&folder).to_owned();
        };
        // `test_group.yaml`: the test's group's, then `data`'s; or, in a
        // package laid out as BAPCtools reads it, the nearest that sets it.
        if found.is_none() {
            for folder in layout.chain(name, &has_file) {
                if !current.contains_key(&folder) {
                    let set = current_args(&data, &folder, validator, files.constants)?;
                    current.insert(folder.clone(), set);
                }
                if let Some(Some(set)) = current.get(&folder) {
                    found = Some(set.clone());
                    break;
                }
            }
        }
        if let Some(found) = found {
            args.insert((*name).to_owned(), found);
        }
    }
    Ok(args)
}

/// The arguments the test's own `NAME.yaml` (2025-09's test case
/// configuration) sets, if it sets them: they override its groups'. It is
/// test data, where the format replaces no constant.
fn test_case_args(
    data: &Path,
    name: &str,
    validator: Validator<'_>,
) -> Result<Option<Vec<String>>, ConfigError> {
    let Some(settings) =
        read_settings::<TestCaseYaml>(data, &data.join(format!("{name}.yaml")), Constants::none())?
    else {
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
        Validator::Input(..) => &settings.yaml.input_validator_args,
        Validator::Output => &settings.yaml.output_validator_args,
        Validator::Answer(..) => &settings.yaml.answer_validator_args,
    };
    yaml_args(&settings, value, validator)
}

/// The arguments the own `testdata.yaml` of `folder` (under `data`) sets,
/// if it sets them.
fn legacy_args(
    data: &Path,
    folder: &str,
    validator: Validator<'_>,
    constants: &Constants,
) -> Result<Option<Vec<String>>, ConfigError> {
    let path = data.join(folder).join(LEGACY_FILE);
    let Some(settings) = read_settings::<TestdataYaml>(data, &path, constants)? else {
        return Ok(None);
    };
    let (key, value) = match validator {
        Validator::Input(..) => (
            "input_validator_flags",
            &settings.yaml.input_validator_flags,
        ),
        Validator::Output => (
            "output_validator_flags",
            &settings.yaml.output_validator_flags,
        ),
        // The legacy formats have no answer validators.
        Validator::Answer(..) => return Ok(None),
    };
    match value {
        None | Some(serde_norway::Value::Null) => Ok(None),
        Some(serde_norway::Value::String(flags)) => {
            Ok(Some(flags.split_whitespace().map(str::to_owned).collect()))
        }
        Some(_) => Err(settings.invalid(key, "must be a string of flags (`nFive=1`)")),
    }
}

/// The arguments the own `test_group.yaml` of `folder` (under `data`)
/// sets, if it sets them
/// (2025-09 `input_validator_args`: a list of words for every validator,
/// or a map from a validator's name to its list; `output_validator_args`:
/// a list of words).
fn current_args(
    data: &Path,
    folder: &str,
    validator: Validator<'_>,
    constants: &Constants,
) -> Result<Option<Vec<String>>, ConfigError> {
    let path = data.join(folder).join(CURRENT_FILE);
    let Some(settings) = read_settings::<TestGroupYaml>(data, &path, constants)? else {
        return Ok(None);
    };
    let value = match validator {
        Validator::Input(..) => &settings.yaml.input_validator_args,
        Validator::Output => &settings.yaml.output_validator_args,
        Validator::Answer(..) => &settings.yaml.answer_validator_args,
    };
    yaml_args(&settings, value, validator)
}

/// `value` of `input_validator_args`, `output_validator_args` or
/// `answer_validator_args` in a 2025-09 file (a group's or a test case's),
/// for `validator`.
fn yaml_args<T>(
    settings: &Settings<T>,
    value: &Option<serde_norway::Value>,
    validator: Validator<'_>,
) -> Result<Option<Vec<String>>, ConfigError> {
    let key = validator.key();
    let words = |value: &serde_norway::Value| -> Result<Vec<String>, ConfigError> {
        let serde_norway::Value::Sequence(items) = value else {
            return Err(settings.invalid(
                key,
                match validator {
                    Validator::Input(..) | Validator::Answer(..) => {
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
    let validator_kind = validator;
    match (value, validator) {
        (None | Some(serde_norway::Value::Null), _) => Ok(None),
        (
            Some(serde_norway::Value::Mapping(map)),
            Validator::Input(validator, known) | Validator::Answer(validator, known),
        ) => {
            // A map sets the key for every validator: one it does not name
            // gets no arguments. A name that is no validator's is refused:
            // a misspelt one would drop its constraint without a word.
            let mut found = Vec::new();
            for (name, value) in map {
                let Some(name) = name.as_str() else {
                    return Err(settings.invalid(key, "a validator's name must be a string"));
                };
                if !known.iter().any(|known| known == name) {
                    let kind = match validator_kind {
                        Validator::Answer(..) => "answer",
                        _ => "input",
                    };
                    let have = known
                        .iter()
                        .map(|name| format!("`{name}`"))
                        .collect::<Vec<_>>()
                        .join(", ");
                    return Err(settings.invalid_entry(
                        key,
                        name,
                        format!(
                            "`{name}` names no {kind} validator of the package (it has: \
                             {have}; a validator is named by its file's stem or its folder's \
                             name){}",
                            crate::suggest::did_you_mean(name, known.iter().map(String::as_str))
                        ),
                    ));
                }
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

    fn known(names: &[&str]) -> Vec<String> {
        names.iter().map(|name| (*name).to_owned()).collect()
    }

    const TESTS: [&str; 4] = ["sample/1", "secret/g1/1", "secret/g1/deep/2", "secret/g2/3"];

    fn files(dir: &tempfile::TempDir) -> SettingsFiles<'_> {
        SettingsFiles {
            dir: dir.path(),
            format: super::super::kattis_yaml::FormatVersion::V2025_09,
            constants: Constants::none(),
            scoring: false,
        }
    }

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
        let args = input_validator_args(
            &files(&dir),
            &TESTS,
            "validator",
            &known(&["validator", "other", "third", "v"]),
        )
        .expect("read");
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
        let args = input_validator_args(
            &files(&dir),
            &TESTS,
            "validator",
            &known(&["validator", "other", "third", "v"]),
        )
        .expect("read");
        assert_eq!(args["sample/1"], vec!["--all"]);
        assert_eq!(args["secret/g2/3"], vec!["--all"]);
        assert_eq!(args["secret/g1/deep/2"], vec!["--max", "10"]);
        let other = input_validator_args(
            &files(&dir),
            &TESTS,
            "third",
            &known(&["validator", "other", "third", "v"]),
        )
        .expect("read");
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
        let args = input_validator_args(
            &files(&dir),
            &TESTS,
            "validator",
            &known(&["validator", "other", "third", "v"]),
        )
        .expect("read");
        assert_eq!(args["secret/g1/1"], vec!["", "gen.py {seed}"]);
        assert_eq!(args["secret/g1/deep/2"], vec!["--all"]);
        // Sets only the output validator's: the groups' input arguments hold.
        assert_eq!(args["secret/g2/3"], vec!["--all"]);
        let output = output_validator_args(&files(&dir), &TESTS).expect("read");
        assert_eq!(output["secret/g2/3"], vec!["case_sensitive"]);
        assert!(!output.contains_key("secret/g1/1"), "{output:?}");

        let bad = package(&[("data/sample/1.yaml", "hint: x\ntime_limit: 3\n")]);
        let error = input_validator_args(
            &files(&bad),
            &TESTS,
            "validator",
            &known(&["validator", "other", "third", "v"]),
        )
        .expect_err("an unknown key")
        .to_string();
        assert!(
            error.contains("1.yaml") && error.contains("time_limit"),
            "{error}"
        );
        let args = package(&[("data/sample/1.yaml", "args: [--fast]\n")]);
        let error = output_validator_args(&files(&args), &TESTS)
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
        let args = output_validator_args(&files(&dir), &TESTS).expect("read");
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
        let args = output_validator_args(&files(&dir), &TESTS).expect("read");
        assert_eq!(args["secret/g2/3"], vec!["float_tolerance", "1e-4"]);
        assert_eq!(args["secret/g1/1"], vec!["case_sensitive"]);
        let dir = package(&[(
            "data/secret/test_group.yaml",
            "\noutput_validator_args:\n  v: [a]\n",
        )]);
        let message = output_validator_args(&files(&dir), &TESTS)
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
        let message = input_validator_args(
            &files(&dir),
            &TESTS,
            "v",
            &known(&["validator", "other", "third", "v"]),
        )
        .expect_err("a list")
        .to_string();
        assert!(message.contains("data/secret/testdata.yaml"), "{message}");
        assert!(message.contains("line 2"), "{message}");
        assert!(message.contains("must be a string of flags"), "{message}");
    }

    /// See: issue #34, item 2. 2025-09: a test data group's file is not
    /// inherited from `secret`'s (the format: a test's settings come from
    /// its group's `test_group.yaml`); `data`'s, which the format does not
    /// name, hold where a group's file does not set the key.
    #[test]
    fn secrets_arguments_do_not_reach_its_groups_and_datas_come_last() {
        let dir = package(&[
            ("data/test_group.yaml", "input_validator_args: [--data]\n"),
            (
                "data/secret/test_group.yaml",
                "input_validator_args: [--secret]\n",
            ),
            ("data/secret/g1/test_group.yaml", "max_score: 40\n"),
        ]);
        let args = input_validator_args(
            &files(&dir),
            &TESTS,
            "validator",
            &known(&["validator", "other", "third", "v"]),
        )
        .expect("read");
        // `g1` is a group: `secret`'s arguments are not its, `data`'s are.
        assert_eq!(args["secret/g1/1"], vec!["--data"]);
        assert_eq!(args["secret/g1/deep/2"], vec!["--data"]);
        assert_eq!(args["sample/1"], vec!["--data"]);
        // `g2` holds no file, so it is no group: its tests are `secret`'s.
        assert_eq!(args["secret/g2/3"], vec!["--secret"]);
    }

    /// See: issue #34, item 2. In the validators' own tests a file holds
    /// for the tests of its folder (the format: "`test_group.yaml` for all
    /// test cases in the same directory"), and BAPCtools'
    /// `answer_validator_args` is read like `input_validator_args`.
    #[test]
    fn a_self_test_folders_file_holds_for_its_own_folder() {
        let dir = package(&[
            (
                "data/invalid_input/test_group.yaml",
                "input_validator_args: [--top]\n",
            ),
            (
                "data/invalid_answer/strict/test_group.yaml",
                "answer_validator_args:\n  format: [--forbid_abcd]\n",
            ),
        ]);
        let names = [
            "invalid_input/1",
            "invalid_input/deep/2",
            "invalid_answer/strict/3",
        ];
        let args = input_validator_args(
            &files(&dir),
            &names,
            "validator",
            &known(&["validator", "other", "third", "v"]),
        )
        .expect("read");
        assert_eq!(args["invalid_input/1"], vec!["--top"]);
        assert!(!args.contains_key("invalid_input/deep/2"), "{args:?}");
        let answers =
            answer_validator_args(&files(&dir), &names, "format", &known(&["format", "other"]))
                .expect("read");
        assert_eq!(answers["invalid_answer/strict/3"], vec!["--forbid_abcd"]);
        let other =
            answer_validator_args(&files(&dir), &names, "other", &known(&["format", "other"]))
                .expect("read");
        assert!(other["invalid_answer/strict/3"].is_empty(), "{other:?}");
    }

    /// See: issue #34, item 2. A constant of problem.yaml is replaced in a
    /// `test_group.yaml` before it is read (quoted or not), never in a
    /// test's own `NAME.yaml`, which is test data.
    #[test]
    fn constants_are_replaced_in_group_files_only() {
        let dir = package(&[
            (
                "data/secret/test_group.yaml",
                "input_validator_args: [--max, {{MAX}}, \"{{MAX.tex}}\"]\n",
            ),
            (
                "data/secret/g2/3.yaml",
                "input_validator_args: [\"{{MAX}}\"]\n",
            ),
        ]);
        let yaml = "constants:\n  MAX:\n    value: 100\n    tex: 10^2\n";
        let value: serde_norway::Value = serde_norway::from_str(yaml).expect("YAML");
        let constants =
            Constants::read(Path::new("problem.yaml"), yaml, value.get("constants")).expect("read");
        let files = SettingsFiles {
            constants: &constants,
            ..files(&dir)
        };
        let args = input_validator_args(
            &files,
            &TESTS,
            "validator",
            &known(&["validator", "other", "third", "v"]),
        )
        .expect("read");
        assert_eq!(args["secret/g1/1"], vec!["--max", "100", "10^2"]);
        assert_eq!(args["secret/g2/3"], vec!["{{MAX}}"]);
    }

    /// See: issue #34 (break-it finding 8). A map naming no validator of
    /// the package is refused, naming the file, the entry's line and the
    /// key, with the close name: a misspelt name would drop its
    /// constraint without a word.
    #[test]
    fn a_map_naming_no_validator_is_refused_with_its_line() {
        let dir = package(&[(
            "data/secret/g1/test_group.yaml",
            "# subtask 1\ninput_validator_args:\n  validatr: [nFive=1]\n",
        )]);
        let error = input_validator_args(&files(&dir), &TESTS, "validator", &known(&["validator"]))
            .expect_err("a misspelt validator name")
            .to_string();
        assert!(
            error.contains("secret/g1/test_group.yaml")
                && error.contains("line 3: `input_validator_args.validatr`")
                && error.contains(
                    "`validatr` names no input validator of the package (it has: `validator`"
                )
                && error.contains("did you mean `validator`?"),
            "{error}"
        );
        // Far from every name: no guess, the names listed.
        let far = package(&[(
            "data/secret/g1/test_group.yaml",
            "input_validator_args:\n  \"checker\": [x]\n",
        )]);
        let error = input_validator_args(&files(&far), &TESTS, "a", &known(&["a", "b"]))
            .expect_err("an unknown validator name")
            .to_string();
        assert!(
            error.contains("line 2: `input_validator_args.checker`")
                && error.contains("(it has: `a`, `b`;")
                && !error.contains("did you mean"),
            "{error}"
        );
        let answers = package(&[(
            "data/invalid_answer/test_group.yaml",
            "answer_validator_args:\n  formt: [--strict]\n",
        )]);
        let error = answer_validator_args(
            &files(&answers),
            &["invalid_answer/1"],
            "format",
            &known(&["format"]),
        )
        .expect_err("a misspelt answer validator name")
        .to_string();
        assert!(
            error.contains("names no answer validator") && error.contains("did you mean `format`?"),
            "{error}"
        );
    }
}
