//! The test groups of a Kattis package (issue #15): the legacy and 2023-07
//! `data/**/testdata.yaml` and the 2025-09 `data/**/test_group.yaml`, read
//! into one [`GroupTree`]. Reading and validation only: a key outside the
//! format is refused with its file, line and the keys the format allows,
//! and a setting the judge cannot honour (a custom grader, arguments to the
//! submission, unbounded scores) is refused rather than ignored. The
//! validators' arguments of each test are read by
//! [`super::kattis_validator_args`] from the same files.
//!
//! 2025-09 (issue #34, item 2), as the format says: `test_group.yaml` may
//! be in `data/sample`, `data/secret` and each test data group (a folder
//! directly in `data/secret` that holds one), and in the folders of the
//! validators' own tests (`invalid_input`, ..., for the tests in the same
//! folder); "the test data groups themselves can contain directories, but
//! not further groups", `data/secret` holds groups or tests, never both,
//! and a file is not inherited by the groups below it. `data/test_group.yaml`,
//! which the format does not name, is read as BAPCtools reads it (its
//! arguments reach every test whose own file does not set them).

use super::groups::{
    Aggregation, GroupNode, GroupRules, GroupTree, OnReject, ScoringStyle, TestGroup, VerdictMode,
};
use super::kattis_constants::Constants;
use super::kattis_yaml::FormatVersion;
use super::{ConfigError, ConfigErrorKind};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

mod layout;
mod legacy;
pub(crate) use layout::{layout, Inheritance, Layout};
use layout::{placement, Placement};
use legacy::legacy_tree;
#[cfg(test)]
use legacy::parse_range;

/// The legacy settings file.
pub(crate) const LEGACY_FILE: &str = "testdata.yaml";
/// The 2025-09 settings file.
pub(crate) const CURRENT_FILE: &str = "test_group.yaml";

/// The folders of `data/` that hold the validators' own tests, where a
/// `test_group.yaml` sets the arguments of the tests in its folder
/// (`invalid_answer`: BAPCtools').
pub(crate) const SELF_TEST_FOLDERS: [&str; 4] = [
    "invalid_input",
    "invalid_answer",
    "invalid_output",
    "valid_output",
];

/// A package's `data/` as its settings files are read.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SettingsFiles<'a> {
    /// The package (the files are under its `data/`).
    pub(crate) dir: &'a Path,
    /// The version `problem.yaml` states: a 2025-09 package without any
    /// settings file has the format's default groups.
    pub(crate) format: FormatVersion,
    /// Its constants, replaced in each settings file before it is read (the
    /// format: "all constant sequences in the following files will be
    /// replaced: ... `test_group.yaml`"; 2023-07 named `testdata.yaml`).
    pub(crate) constants: &'a Constants,
    /// The problem is `type: scoring`: a layout of `test_group.yaml` the
    /// format does not allow is then refused, not read as BAPCtools reads
    /// it ([`layout`]).
    pub(crate) scoring: bool,
}

impl SettingsFiles<'_> {
    /// The package's `data/`.
    pub(crate) fn data(&self) -> PathBuf {
        self.dir.join("data")
    }

    /// The folders under `data/` (`""` for `data` itself) that hold a
    /// `test_group.yaml`.
    pub(crate) fn current_folders(&self) -> std::collections::BTreeSet<String> {
        let data = self.data();
        walkdir::WalkDir::new(&data)
            .sort_by_file_name()
            .into_iter()
            .filter_map(Result::ok)
            .filter(|entry| entry.file_type().is_file() && entry.file_name() == CURRENT_FILE)
            .filter_map(|entry| {
                let folder = entry.path().parent()?.strip_prefix(&data).ok()?;
                Some(folder.to_string_lossy().into_owned())
            })
            .collect()
    }

    /// The layout of the package's `test_group.yaml` files over its tests
    /// (every `.in` under `data/secret`), which says which files a test's
    /// validator arguments come from (see [`layout`]).
    pub(crate) fn layout(&self) -> Layout {
        let data = self.data();
        let secret = super::kattis::test_names(&data, "secret");
        layout(
            &self.current_folders(),
            secret.iter().map(String::as_str),
            self.scoring,
        )
    }
}

/// `testdata.yaml` (legacy and 2023-07) as written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct TestdataYaml {
    on_reject: Option<String>,
    grading: Option<String>,
    grader_flags: Option<String>,
    pub(super) input_validator_flags: Option<serde_norway::Value>,
    pub(super) output_validator_flags: Option<serde_norway::Value>,
    accept_score: Option<f64>,
    reject_score: Option<f64>,
    range: Option<String>,
}

/// `test_group.yaml` (2025-09) as written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct TestGroupYaml {
    max_score: Option<serde_norway::Value>,
    score_aggregation: Option<String>,
    static_validation_score: Option<serde_norway::Value>,
    require_pass: Option<serde_norway::Value>,
    args: Option<Vec<String>>,
    pub(super) input_validator_args: Option<serde_norway::Value>,
    static_validator_args: Option<Vec<String>>,
    pub(super) output_validator_args: Option<serde_norway::Value>,
    /// BAPCtools': the answer validators' arguments (a list, or a map by
    /// validator), for the answers of `data/invalid_answer/`.
    pub(super) answer_validator_args: Option<serde_norway::Value>,
    input_visualizer_args: Option<Vec<String>>,
    output_visualizer_args: Option<Vec<String>>,
    full_feedback: Option<bool>,
}

/// A test case's own `NAME.yaml` (2025-09), beside its `NAME.in`: the
/// arguments of its validators override the group's. Any other key the
/// format defines is read and checked like the group's (`args` to the
/// submission is refused when not empty); an unknown key is an error.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct TestCaseYaml {
    pub(super) args: Option<Vec<String>>,
    pub(super) input_validator_args: Option<serde_norway::Value>,
    pub(super) output_validator_args: Option<serde_norway::Value>,
    /// BAPCtools' (see [`TestGroupYaml`]).
    pub(super) answer_validator_args: Option<serde_norway::Value>,
    input_visualizer_args: Option<Vec<String>>,
    output_visualizer_args: Option<Vec<String>>,
    full_feedback: Option<bool>,
    hint: Option<String>,
    description: Option<String>,
}

impl TestCaseYaml {
    /// Keys read for their type only: visualizers are not run, every
    /// verdict is shown in full, and a hint or description is not shown.
    pub(super) fn unused(&self) {
        let _ = (
            &self.input_visualizer_args,
            &self.output_visualizer_args,
            self.full_feedback,
            &self.hint,
            &self.description,
        );
    }
}

/// A settings file as read: its path and text, for the line of a bad value.
pub(super) struct Settings<T> {
    pub(super) path: PathBuf,
    text: String,
    pub(super) yaml: T,
}

impl<T> Settings<T> {
    pub(super) fn invalid(&self, key: &str, message: impl Into<String>) -> ConfigError {
        let line = self
            .text
            .lines()
            .position(|line| line.trim_start().starts_with(&format!("{key}:")))
            .map(|index| index + 1);
        self.invalid_at(key, line, message)
    }

    /// [`Self::invalid`] for `entry`, a key of the map `key` holds: the
    /// line is the entry's (the first line after `key`'s that starts with
    /// `entry:`), else `key`'s.
    pub(super) fn invalid_entry(
        &self,
        key: &str,
        entry: &str,
        message: impl Into<String>,
    ) -> ConfigError {
        let lines: Vec<&str> = self.text.lines().collect();
        let key_line = lines
            .iter()
            .position(|line| line.trim_start().starts_with(&format!("{key}:")));
        let entry_line = key_line.and_then(|start| {
            lines[start + 1..]
                .iter()
                .position(|line| {
                    let line = line.trim_start();
                    [
                        entry.to_owned(),
                        format!("\"{entry}\""),
                        format!("'{entry}'"),
                    ]
                    .iter()
                    .any(|name| line.starts_with(&format!("{name}:")))
                })
                .map(|offset| start + 1 + offset)
        });
        self.invalid_at(
            &format!("{key}.{entry}"),
            entry_line.or(key_line).map(|index| index + 1),
            message,
        )
    }

    fn invalid_at(
        &self,
        key: &str,
        line: Option<usize>,
        message: impl Into<String>,
    ) -> ConfigError {
        ConfigError {
            path: self.path.clone(),
            kind: ConfigErrorKind::Invalid {
                key: key.to_owned(),
                message: message.into(),
                line,
            },
        }
    }
}

/// The settings file at `path` under the package's `data` folder, if
/// there is one, with `constants` replaced in its text first. It is read
/// beneath the package's folder (issue #34): a link out of the package
/// made after `data/`'s links were checked is refused, not followed.
pub(super) fn read_settings<T: for<'de> Deserialize<'de> + Default>(
    data: &Path,
    path: &Path,
    constants: &Constants,
) -> Result<Option<Settings<T>>, ConfigError> {
    if !path.is_file() {
        return Ok(None);
    }
    let package = data.parent().unwrap_or(data);
    let bytes = crate::beneath::Beneath::new(package)
        .and_then(|package| package.read_at_most(path, crate::data_file::MAX_YAML_BYTES))
        .map_err(|error| ConfigError::beneath(path, error))?;
    let text = String::from_utf8(bytes).map_err(|_| ConfigError {
        path: path.to_owned(),
        kind: ConfigErrorKind::Read(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "stream did not contain valid UTF-8",
        )),
    })?;
    let text = constants.substitute(&text);
    let yaml = if text.trim().is_empty() {
        T::default()
    } else {
        serde_norway::from_str(&text).map_err(|error| ConfigError {
            path: path.to_owned(),
            kind: ConfigErrorKind::Parse {
                position: error
                    .location()
                    .map(|location| (location.line(), location.column())),
                message: without_location(&error.to_string()),
            },
        })?
    };
    Ok(Some(Settings {
        path: path.to_owned(),
        text,
        yaml,
    }))
}

fn without_location(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(index) => message[..index].to_owned(),
        None => message.to_owned(),
    }
}

/// The groups of the package whose settings are `files`, whose tests are
/// `test_names` (their names under `data/`, in judging order). `scoring`:
/// the problem is `type: scoring`; a pass-fail package's files are
/// checked, and `None` returned, since every test must pass anyway.
pub(crate) fn read_groups(
    files: &SettingsFiles<'_>,
    test_names: &[&str],
    scoring: bool,
) -> Result<Option<GroupTree>, ConfigError> {
    let data = files.data();
    let mut legacy = Vec::new();
    let mut current = Vec::new();
    for entry in walkdir::WalkDir::new(&data)
        .sort_by_file_name()
        .into_iter()
        .filter_map(Result::ok)
    {
        let name = entry.file_name().to_string_lossy();
        if name == LEGACY_FILE {
            legacy.push(entry.path().to_owned());
        } else if name == CURRENT_FILE {
            current.push(entry.path().to_owned());
        }
    }
    if let (Some(old), Some(new)) = (legacy.first(), current.first()) {
        return Err(ConfigError::invalid(
            new,
            CURRENT_FILE,
            format!(
                "a package uses `{LEGACY_FILE}` (legacy, 2023-07) or `{CURRENT_FILE}` (2025-09), \
                 not both; `{}` is the other",
                old.display()
            ),
        ));
    }
    // A 2025-09 package without any file has the format's defaults
    // (`secret` scores 100, each test an equal share), not the legacy ones.
    let tree =
        if current.is_empty() && (!legacy.is_empty() || files.format != FormatVersion::V2025_09) {
            legacy_tree(&data, test_names, files.constants)?
        } else {
            current_tree(
                &data,
                test_names,
                &current,
                scoring,
                files.constants,
                &SettingsFiles { scoring, ..*files }.layout(),
            )?
        };
    Ok(scoring.then_some(tree))
}

/// The group (folder under `data/`) each test is directly in, and the
/// groups in order: `""` is `data` itself.
pub(crate) fn folder_of(name: &str) -> &str {
    name.rfind('/').map_or("", |index| &name[..index])
}

/// A tree whose groups are `folders` (each a path under `data/`, `""` the
/// root), every test in the folder `group_of` names.
fn build_tree(
    test_names: &[&str],
    group_of: &dyn Fn(&str) -> String,
    rules_of: &mut dyn FnMut(&str) -> Result<GroupRules, ConfigError>,
) -> Result<TestGroup, ConfigError> {
    // Every folder and its ancestors, each with its rules.
    let mut rules: BTreeMap<String, GroupRules> = BTreeMap::new();
    for name in test_names {
        let mut folder = group_of(name);
        loop {
            if !rules.contains_key(&folder) {
                let made = rules_of(&folder)?;
                rules.insert(folder.clone(), made);
            }
            if folder.is_empty() {
                break;
            }
            folder = folder_of(&folder).to_owned();
        }
    }
    if rules.is_empty() {
        rules.insert(String::new(), rules_of("")?);
    }
    fn insert(
        group: &mut TestGroup,
        path: &[String],
        test: &str,
        rules: &BTreeMap<String, GroupRules>,
    ) {
        let Some((first, rest)) = path.split_first() else {
            group.children.push(GroupNode::Test(test.to_owned()));
            return;
        };
        let position = group
            .children
            .iter()
            .position(|child| matches!(child, GroupNode::Group(inner) if inner.name == *first));
        let position = position.unwrap_or_else(|| {
            group.children.push(GroupNode::Group(TestGroup {
                name: first.clone(),
                rules: rules.get(first).cloned().unwrap_or_default(),
                children: Vec::new(),
            }));
            group.children.len() - 1
        });
        if let Some(GroupNode::Group(inner)) = group.children.get_mut(position) {
            insert(inner, rest, test, rules);
        }
    }
    let mut root = TestGroup {
        name: "data".to_owned(),
        rules: rules.get("").cloned().unwrap_or_default(),
        children: Vec::new(),
    };
    for name in test_names {
        let folder = group_of(name);
        // `secret/a/b` lies under `secret` then `secret/a` then `secret/a/b`.
        let mut path = Vec::new();
        let mut prefix = String::new();
        for part in folder.split('/').filter(|part| !part.is_empty()) {
            if !prefix.is_empty() {
                prefix.push('/');
            }
            prefix.push_str(part);
            path.push(prefix.clone());
        }
        insert(&mut root, &path, name, &rules);
    }
    Ok(root)
}

/// Why a layout BAPCtools reads is refused in a scoring problem.
const SCORING_NEEDS_GROUPS: &str = "a pass-fail problem laid out so is graded with BAPCtools' \
     inheritance, but a scoring one needs the format's test data groups";

/// 2025-09: `sample`, `secret` and each folder directly in `secret` that
/// holds a `test_group.yaml` are groups (a group's deeper folders belong
/// to it). Without such folders, `secret`'s tests, in folders or not, are
/// `secret`'s. The arguments of each test (`input_validator_args`,
/// `output_validator_args`) are read by [`super::kattis_validator_args`];
/// the scoring keys are each level's own.
fn current_tree(
    data: &Path,
    test_names: &[&str],
    files: &[PathBuf],
    scoring: bool,
    constants: &Constants,
    layout: &Layout,
) -> Result<GroupTree, ConfigError> {
    let mut groups = std::collections::BTreeSet::new();
    let has_file = |folder: &str| data.join(folder).join(CURRENT_FILE).is_file();
    for file in files {
        let folder = file
            .parent()
            .and_then(|parent| parent.strip_prefix(data).ok())
            .map(|folder| folder.to_string_lossy().into_owned())
            .unwrap_or_default();
        match placement(&folder, &has_file) {
            Placement::Allowed => {}
            Placement::Refused(why) => return Err(ConfigError::invalid(file, CURRENT_FILE, why)),
            Placement::Nested(why) if layout.inheritance == Inheritance::Format => {
                return Err(ConfigError::invalid(
                    file,
                    CURRENT_FILE,
                    format!("{why}; {SCORING_NEEDS_GROUPS}"),
                ))
            }
            Placement::Nested(_) => {
                // Read as BAPCtools reads it, for its arguments alone: its
                // keys are checked as a pass-fail problem's.
                let settings = read_settings::<TestGroupYaml>(data, file, constants)?;
                current_rules(&folder, settings.as_ref(), false)?;
                continue;
            }
        }
        if folder.starts_with("secret/") {
            groups.insert(folder);
        } else if !matches!(folder.as_str(), "" | "sample" | "secret") {
            // A self-test folder's: its keys are checked here, though no
            // group of the judged tests is ruled by it, so it scores
            // nothing even in a scoring problem (it used to be asked for a
            // `max_score` there).
            let settings = read_settings::<TestGroupYaml>(data, file, constants)?;
            current_rules(&folder, settings.as_ref(), false)?;
        }
    }
    check_test_names(data, test_names)?;
    // "Each test data group must contain at least one test case."
    if let Some(empty) = groups.iter().find(|group| {
        let prefix = format!("{group}/");
        !test_names.iter().any(|test| test.starts_with(&prefix))
    }) {
        return Err(ConfigError::invalid(
            &data.join(empty).join(CURRENT_FILE),
            CURRENT_FILE,
            format!(
                "makes `data/{empty}` a test data group, but it holds no test case (`.in` with \
                 its `.ans`); 2025-09: each group holds at least one"
            ),
        ));
    }
    let group_of = |name: &str| -> String {
        let parts: Vec<&str> = name.split('/').collect();
        match parts.as_slice() {
            ["secret", group, _, ..] if groups.contains(&format!("secret/{group}")) => {
                format!("secret/{group}")
            }
            [top, _, ..] => (*top).to_owned(),
            _ => String::new(),
        }
    };
    let mut rules_of = |folder: &str| -> Result<GroupRules, ConfigError> {
        let path = data.join(folder).join(CURRENT_FILE);
        let settings = read_settings::<TestGroupYaml>(data, &path, constants)?;
        let rules = current_rules(folder, settings.as_ref(), scoring)?;
        // A name that is no group would never pass: every submission would
        // score 0 on the group, so it is refused (with the file's line).
        let is_group = |name: &str| {
            let prefix = format!("{name}/");
            (name == "sample" || groups.contains(name))
                && test_names.iter().any(|test| test.starts_with(&prefix))
        };
        if let (Some(unknown), Some(settings)) = (
            rules.require_pass.iter().find(|name| !is_group(name)),
            settings.as_ref(),
        ) {
            // A group's bare name is the likely slip: named with its path
            // when that is a group (issue #34, break-it 9).
            let path = format!("secret/{unknown}");
            let guess = if is_group(&path) {
                format!("; a group is named by its path from `data/`: did you mean `{path}`?")
            } else {
                String::new()
            };
            return Err(settings.invalid(
                "require_pass",
                format!(
                    "`{unknown}` is no test group of the package (`sample` or \
                     `secret/GROUP` holding tests){guess}"
                ),
            ));
        }
        Ok(rules)
    };
    let root = build_tree(test_names, &group_of, &mut rules_of)?;
    // With groups in `secret`, every test there is in one of them (a
    // pass-fail package laid out otherwise is read as BAPCtools reads it).
    if let (Some(group), Inheritance::Format) = (groups.iter().next(), layout.inheritance) {
        if let Some(stray) = test_names
            .iter()
            .find(|name| name.starts_with("secret/") && group_of(name) == "secret")
        {
            let parts: Vec<&str> = stray.split('/').collect();
            let (path, what) = match parts.as_slice() {
                ["secret", _] => (
                    data.join(format!("{stray}.in")),
                    "is a test directly in `data/secret`",
                ),
                _ => (
                    data.join(parts[..2].join("/")),
                    "is a folder of `data/secret` without a `test_group.yaml`",
                ),
            };
            return Err(ConfigError::invalid(
                &path,
                "secret",
                format!(
                    "{what}, but `data/{group}` is a test data group; 2025-09 allows test \
                     data groups in `data/secret` or tests, not both; {SCORING_NEEDS_GROUPS}"
                ),
            ));
        }
    }
    Ok(GroupTree {
        style: ScoringStyle::Current,
        root,
    })
}

/// The names 2025-09 forbids: a test named `test_group` (its
/// `test_group.yaml` would configure both it and its group), and a folder
/// named as a test beside it (`huge.in` and `huge/`).
fn check_test_names(data: &Path, test_names: &[&str]) -> Result<(), ConfigError> {
    for name in test_names {
        let input = data.join(format!("{name}.in"));
        if name.rsplit('/').next() == Some("test_group") {
            return Err(ConfigError::invalid(
                &input,
                "test case",
                "is named `test_group`, which 2025-09 forbids: `test_group.yaml` would then \
                 configure both the test and its group",
            ));
        }
        if data.join(name).is_dir() {
            return Err(ConfigError::invalid(
                &input,
                "test case",
                format!(
                    "has the name of the folder `data/{name}` beside it, which 2025-09 forbids"
                ),
            ));
        }
    }
    Ok(())
}

fn current_rules(
    folder: &str,
    settings: Option<&Settings<TestGroupYaml>>,
    scoring: bool,
) -> Result<GroupRules, ConfigError> {
    let default = TestGroupYaml::default();
    let yaml = settings.map_or(&default, |settings| &settings.yaml);
    let invalid = |key: &str, message: String| match settings {
        Some(settings) => settings.invalid(key, message),
        None => ConfigError::invalid(Path::new(folder), key, message),
    };
    let is_sample = folder == "sample";
    let is_secret = folder == "secret";
    // The scoring keys belong to `secret` and its groups, in a scoring
    // problem; a pass-fail problem's files set arguments alone.
    let scored_here = is_secret || folder.starts_with("secret/");
    for (key, stated) in [
        ("max_score", yaml.max_score.is_some()),
        ("score_aggregation", yaml.score_aggregation.is_some()),
        ("require_pass", yaml.require_pass.is_some()),
    ] {
        if !stated {
            continue;
        }
        if !scored_here {
            return Err(invalid(
                key,
                format!(
                    "is not allowed in `{}`; it belongs to `data/secret` and its test data \
                     groups",
                    if folder.is_empty() {
                        "data".to_owned()
                    } else {
                        format!("data/{folder}")
                    }
                ),
            ));
        }
        if !scoring {
            return Err(invalid(
                key,
                "is allowed only in a scoring problem (`type: scoring`)".to_owned(),
            ));
        }
    }
    if yaml.static_validation_score.is_some() {
        return Err(invalid(
            "static_validation_score",
            "static validation is not supported".to_owned(),
        ));
    }
    if yaml.args.as_ref().is_some_and(|args| !args.is_empty()) {
        return Err(invalid(
            "args",
            "arguments to the submission are not supported".to_owned(),
        ));
    }
    // `input_validator_args` and `output_validator_args` are read with the
    // tests (`kattis_validator_args`); visualizers are not run, and every
    // verdict is shown in full (`full_feedback`).
    let _ = (
        &yaml.static_validator_args,
        &yaml.input_visualizer_args,
        &yaml.output_visualizer_args,
        yaml.full_feedback,
    );
    if !scoring {
        return Ok(GroupRules::default());
    }
    if folder.is_empty() {
        // `data`: the score is `secret`'s; the samples score nothing.
        return Ok(GroupRules {
            aggregation: Aggregation::Sum,
            verdict_mode: VerdictMode::FirstError,
            on_reject: OnReject::Continue,
            accept_score: Some(0.0),
            ..GroupRules::default()
        });
    }
    if is_sample {
        return Ok(GroupRules {
            aggregation: Aggregation::PassFail,
            verdict_mode: VerdictMode::FirstError,
            on_reject: OnReject::Break,
            accept_score: Some(0.0),
            max_score: Some(0.0),
            ..GroupRules::default()
        });
    }
    let aggregation = match yaml.score_aggregation.as_deref() {
        None if is_secret => Aggregation::Sum,
        None => Aggregation::PassFail,
        Some("pass-fail") => Aggregation::PassFail,
        Some("sum") => Aggregation::Sum,
        Some("min") => Aggregation::Min,
        Some(other) => {
            return Err(invalid(
                "score_aggregation",
                format!("`{other}` is not `pass-fail`, `sum` or `min`"),
            ))
        }
    };
    let max_score = match &yaml.max_score {
        None if is_secret => 100.0,
        None => {
            return Err(invalid(
                "max_score",
                format!("group `{folder}` needs a `max_score`, since `secret`'s is bounded"),
            ))
        }
        Some(value) => match value.as_u64() {
            Some(points) => points as f64,
            None if value.as_str() == Some("unbounded") => {
                return Err(invalid(
                    "max_score",
                    "`unbounded` scores are not supported; give a whole number".to_owned(),
                ))
            }
            None => {
                return Err(invalid(
                    "max_score",
                    "is not a whole number of at least 0".to_owned(),
                ))
            }
        },
    };
    let require_pass = match &yaml.require_pass {
        None => Vec::new(),
        Some(serde_norway::Value::String(name)) => vec![name.clone()],
        Some(serde_norway::Value::Sequence(names)) => names
            .iter()
            .map(|name| {
                name.as_str().map(str::to_owned).ok_or_else(|| {
                    invalid(
                        "require_pass",
                        "lists a name that is not a string".to_owned(),
                    )
                })
            })
            .collect::<Result<_, _>>()?,
        Some(_) => {
            return Err(invalid(
                "require_pass",
                "is neither a group name nor a list of them".to_owned(),
            ))
        }
    };
    // Only a group's path is checked for order here: any other name is no
    // group, which is said once the groups are known (a bare `subtask1`
    // sorts after `secret/subtask2` and would read as out of order).
    if let Some(later) = require_pass
        .iter()
        .find(|name| (*name == "sample" || name.starts_with("secret/")) && name.as_str() >= folder)
    {
        return Err(invalid(
            "require_pass",
            format!("`{later}` does not come before `{folder}`"),
        ));
    }
    Ok(GroupRules {
        aggregation,
        verdict_mode: VerdictMode::FirstError,
        on_reject: match aggregation {
            Aggregation::Sum => OnReject::Continue,
            _ => OnReject::Break,
        },
        accept_score: None,
        max_score: Some(max_score),
        require_pass,
        ..GroupRules::default()
    })
}

#[cfg(test)]
mod tests;
