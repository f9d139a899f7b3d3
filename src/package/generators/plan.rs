//! What a `generators.yaml` asks for, as BAPCtools reads it: every test
//! case with its final name under `data/`, its command and `{seed}`, the
//! files written from the yaml, its solution; the test groups'
//! `test_group.yaml`; the cases each `include` links in.
//!
//! The rules, each as BAPCtools' `generate.py` has them:
//! - Names: a map's keys are taken in name order (the root's in the order
//!   `sample`, `secret`, `invalid_output`, `invalid_answer`,
//!   `invalid_input`, `valid_output`); a list's entries are numbered from 1
//!   in order, test cases with one counter over the whole file (its width
//!   the number of all numbered test cases), groups per directory, as
//!   `NN-key` (`NN` alone for an empty key). A test case with `count` is
//!   one case per value, `name-VALUE`, the values zero-padded to one width
//!   when they are consecutive.
//! - `{seed}`: the low 31 bits of SHA-512 of `random_salt`, then
//!   `:{value - 1}` when the count value is not 1, then the command (after
//!   `{count}` is replaced) with leading and trailing white space removed.
//!   `{seed}` or `{seed:N}` may appear once; `{name}` is `testcase`.
//! - Arguments are split as a POSIX shell does (`shlex`), without
//!   running one.
//!
//! Not responsible for running anything: [`super`] does.

use super::yaml::{FileText, RawData, RawEntry, RawNode};
use super::yaml_lines::{line_of, yaml_text};
use crate::config::kattis_constants::Constants;
use crate::config::{ConfigError, ConfigErrorKind};

mod command;
use command::command;
pub(crate) use command::Command;

/// The extensions of a test case's text files, in BAPCtools' order: what
/// a generator may write and what `copy:` copies.
pub(crate) const EXTENSIONS: [&str; 9] = [
    ".in",
    ".ans",
    ".out",
    ".in.statement",
    ".ans.statement",
    ".in.download",
    ".ans.download",
    ".interaction",
    ".yaml",
];
use std::collections::BTreeMap;
use std::path::Path;

/// The folders `data:` may hold at its root, in the order BAPCtools makes
/// them.
pub(crate) const ROOT_FOLDERS: [&str; 8] = [
    "sample",
    "secret",
    "invalid_output",
    "invalid_answer",
    "invalid_input",
    "valid_output",
    "testing_tool_test",
    "fuzz",
];

/// Which `.ans` a case gets when it makes none itself.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Solution {
    /// The package's first accepted submission (no `solution:` anywhere
    /// above the case).
    Default,
    /// `solution:` left empty: no `.ans`.
    Nothing,
    /// A program, relative to the package's root.
    Program(String),
}

/// One test case to make.
#[derive(Clone, Debug)]
pub(crate) struct Case {
    /// Under `data/`, without extension: `secret/1-small/01-a`.
    pub(crate) path: String,
    /// The key path in the yaml, for messages: `data.secret.data.a`.
    pub(crate) key: String,
    pub(crate) line: Option<usize>,
    pub(crate) generate: Option<Command>,
    /// `copy:`, relative to the package's root, without extension.
    pub(crate) copy: Option<String>,
    /// Files written from the yaml: (extension with its dot, bytes).
    pub(crate) files: Vec<(&'static str, Vec<u8>)>,
    /// `in.download: {link: in}` and the like: (extension, the extension
    /// whose made bytes it gets), both with their dot. BAPCtools makes a
    /// symbolic link; the judge writes a copy, as it does for includes.
    pub(crate) links: Vec<(&'static str, String)>,
    pub(crate) solution: Solution,
    pub(crate) retries: u32,
    /// `input_validator_args` of the `test_group.yaml` it inherits them
    /// from, by the rule loading the package uses
    /// ([`inherit_validator_args`]).
    pub(crate) input_validator_args: Option<serde_norway::Value>,
    /// `output_validator_args`, alike.
    pub(crate) output_validator_args: Option<serde_norway::Value>,
}

impl Case {
    /// `sample`, `secret`, `invalid_input`, ...: the case's root folder.
    pub(crate) fn root(&self) -> &str {
        self.path.split('/').next().unwrap_or("")
    }
}

/// Everything the yaml asks for.
#[derive(Debug, Default)]
pub(crate) struct Plan {
    pub(crate) cases: Vec<Case>,
    /// Directories under `data/` (`""` for `data/` itself) and the text of
    /// their `test_group.yaml`, when the yaml gives one.
    pub(crate) folders: Vec<(String, Option<String>)>,
    /// `(path under data/, index into cases)`: a case included elsewhere.
    pub(crate) includes: Vec<(String, usize)>,
    /// Keys read and ignored, each with why.
    pub(crate) notes: Vec<String>,
}

/// Settings inherited down the tree.
#[derive(Clone, Debug)]
struct Inherited {
    solution: Solution,
    random_salt: String,
    retries: u32,
}

impl Inherited {
    /// The settings below `entry`: its own where it states them.
    fn below(&self, entry: &RawEntry) -> Result<Inherited, String> {
        let mut next = self.clone();
        match &entry.solution {
            None => {}
            Some(None) => next.solution = Solution::Nothing,
            Some(Some(path)) => {
                let Some(relative) = path.strip_prefix('/') else {
                    return Err(format!(
                        "`solution: {path}` must be a path from the package's root, starting \
                         with `/` (e.g. `/submissions/accepted/sol.py`)"
                    ));
                };
                if path.split_whitespace().count() > 1 {
                    return Err(format!(
                        "`solution: {path}` takes no arguments: it reads the input on stdin"
                    ));
                }
                next.solution = Solution::Program(relative.to_owned());
            }
        }
        if let Some(salt) = &entry.random_salt {
            next.random_salt.clone_from(salt);
        }
        if let Some(retries) = entry.retries {
            next.retries = retries.0;
        }
        Ok(next)
    }
}

/// Whether `name` is a valid file name for BAPCtools
/// (`[a-zA-Z0-9_][a-zA-Z0-9_.-]{0,254}`).
fn valid_name(name: &str) -> bool {
    let mut bytes = name.bytes();
    let first_ok = bytes
        .next()
        .is_some_and(|byte| byte.is_ascii_alphanumeric() || byte == b'_');
    first_ok
        && name.len() <= 255
        && bytes.all(|byte| byte.is_ascii_alphanumeric() || matches!(byte, b'_' | b'.' | b'-'))
}

/// Reads the tree into a plan; `path` and `text` are the yaml's, for
/// messages. The package's `constants` are replaced in each `generate:`
/// command before its `{count}` and its seed, as BAPCtools does.
pub(crate) fn plan(
    path: &Path,
    text: &str,
    root: &RawEntry,
    constants: &Constants,
) -> Result<Plan, ConfigError> {
    let mut builder = Builder {
        path,
        text,
        constants,
        plan: Plan::default(),
        next_case: 0,
        case_width: 1,
        known_keys: BTreeMap::new(),
        known_paths: BTreeMap::new(),
    };
    for (key, value) in [
        ("visualizer", &root.visualizer),
        ("gitignore_generated", &root.gitignore_generated),
        ("parallel", &root.parallel),
    ] {
        if value.is_some() {
            builder.plan.notes.push(format!(
                "`{key}` is ignored: BAPCtools deprecated it, and the judge draws no images"
            ));
        }
    }
    if let Some(generators) = &root.generators {
        if !generators.is_empty() {
            return Err(builder.invalid(
                &["generators"],
                "generators",
                "the `generators:` map (programs built from listed files) is not supported: \
                 put each such generator in a folder of its own under `generators/`",
            ));
        }
    }
    let total = root.data.as_ref().map_or(0, numbered_cases);
    builder.case_width = total.to_string().len();
    let inherited = Inherited {
        solution: Solution::Default,
        random_salt: String::new(),
        retries: 1,
    }
    .below(root)
    .map_err(|message| builder.invalid(&["solution"], "solution", message))?;
    builder.directory(&[], "", "", root, &inherited, true)?;
    Ok(builder.plan)
}

/// Gives each case of `plan` the `input_validator_args` and
/// `output_validator_args` it inherits from the groups' `test_group.yaml`
/// (the package's `constants` replaced in their text first, as loading
/// does), by the rule loading the package uses
/// ([`crate::config::kattis_groups::layout`]): so the build checks a case
/// with the arguments it is graded with (issue #34). `scoring`: the
/// problem is `type: scoring`.
pub(crate) fn inherit_validator_args(plan: &mut Plan, constants: &Constants, scoring: bool) {
    let files: BTreeMap<&str, serde_norway::Value> = plan
        .folders
        .iter()
        .filter_map(|(folder, text)| {
            let text = constants.substitute(text.as_ref()?);
            // Written by the plan from a value it read: it reads back.
            let value = serde_norway::from_str(&text).unwrap_or(serde_norway::Value::Null);
            Some((folder.as_str(), value))
        })
        .collect();
    let folders = files.keys().map(|folder| (*folder).to_owned()).collect();
    let names = plan
        .cases
        .iter()
        .map(|case| case.path.as_str())
        .chain(plan.includes.iter().map(|(path, _)| path.as_str()));
    let layout = crate::config::kattis_groups::layout(&folders, names, scoring);
    let has_file = |folder: &str| files.contains_key(folder);
    let inherited = |path: &str, key: &str| {
        layout.chain(path, &has_file).iter().find_map(|folder| {
            let value = files.get(folder.as_str())?.get(key)?;
            (!value.is_null()).then(|| value.clone())
        })
    };
    for case in &mut plan.cases {
        case.input_validator_args = inherited(&case.path, "input_validator_args");
        case.output_validator_args = inherited(&case.path, "output_validator_args");
    }
}

/// How many numbered test cases `data` and the directories below hold
/// (each `count` value one): the width of the test case numbers.
fn numbered_cases(data: &RawData) -> usize {
    data.entries
        .iter()
        .map(|(_, node)| match node {
            RawNode::Entry(entry) if !entry.is_test_case() => {
                entry.data.as_ref().map_or(0, numbered_cases)
            }
            RawNode::Entry(entry) if data.numbered => {
                entry.count.as_ref().map_or(1, |count| count.0.len())
            }
            _ if data.numbered => 1,
            _ => 0,
        })
        .sum()
}

/// What an `include` can name: the cases (indices) under a key.
#[derive(Debug, Clone)]
enum Known {
    Cases(Vec<usize>),
    Ambiguous,
}

struct Builder<'a> {
    path: &'a Path,
    text: &'a str,
    /// The package's, for the commands and the group files' arguments.
    constants: &'a Constants,
    plan: Plan,
    /// The last test case number given out.
    next_case: usize,
    case_width: usize,
    known_keys: BTreeMap<String, Known>,
    /// Every path under data/ given to a case, and the key that made it.
    known_paths: BTreeMap<String, String>,
}

impl Builder<'_> {
    fn invalid(&self, keys: &[&str], key: &str, message: impl Into<String>) -> ConfigError {
        ConfigError {
            path: self.path.to_owned(),
            kind: ConfigErrorKind::Invalid {
                key: key.to_owned(),
                message: message.into(),
                line: line_of(self.text, keys),
            },
        }
    }

    /// Reads one directory (`folder` under data/, `""` for the root) and
    /// everything below it; returns the cases it holds, includes too.
    fn directory(
        &mut self,
        keys: &[&str],
        folder: &str,
        yaml_key: &str,
        entry: &RawEntry,
        inherited: &Inherited,
        is_root: bool,
    ) -> Result<Vec<usize>, ConfigError> {
        let dotted = keys.join(".");
        if !is_root {
            for (name, present) in [
                ("generators", entry.generators.is_some()),
                ("version", entry.version.is_some()),
                ("visualizer", entry.visualizer.is_some()),
            ] {
                if present {
                    let mut at = keys.to_vec();
                    at.push(name);
                    return Err(self.invalid(
                        &at,
                        &format!("{dotted}.{name}"),
                        "is a key of the file's root only",
                    ));
                }
            }
        }
        let test_group = match &entry.test_group_yaml {
            None | Some(serde_norway::Value::Null) => None,
            Some(value) => {
                let at: Vec<&str> = keys.iter().copied().chain(["test_group.yaml"]).collect();
                Some(yaml_text(self.text, &at, value).map_err(|error| {
                    self.invalid(keys, &format!("{dotted}.test_group.yaml"), error)
                })?)
            }
        };
        self.plan.folders.push((folder.to_owned(), test_group));
        let mut held = Vec::new();
        // Includes first: a directory cannot include its own children.
        let mut included = Vec::new();
        for name in entry.include.iter().flatten() {
            let at: Vec<&str> = keys.iter().copied().chain(["include"]).collect();
            let key = format!("{dotted}.include");
            if name.contains('/') {
                return Err(self.invalid(
                    &at,
                    &key,
                    format!("`{name}` must be a test case or group key, not a path"),
                ));
            }
            match self.known_keys.get(name) {
                None => {
                    return Err(self.invalid(
                        &at,
                        &key,
                        format!("`{name}` names no test case or group written before it"),
                    ))
                }
                Some(Known::Ambiguous) => {
                    return Err(self.invalid(
                        &at,
                        &key,
                        format!(
                            "`{name}` is ambiguous: more than one test case or group has that key"
                        ),
                    ))
                }
                Some(Known::Cases(cases)) => included.extend(cases.iter().copied()),
            }
        }
        let default = RawData::default();
        let data = entry.data.as_ref().unwrap_or(&default);
        if is_root && data.numbered {
            return Err(self.invalid(
                &["data"],
                "data",
                "the root's `data` must be a map, not a numbered list",
            ));
        }
        let mut entries: Vec<&(Option<String>, RawNode)> = data.entries.iter().collect();
        if is_root {
            for (key, _) in &entries {
                let name = key.as_deref().unwrap_or("");
                if !ROOT_FOLDERS.contains(&name) {
                    let hint = name
                        .strip_suffix('s')
                        .filter(|singular| ROOT_FOLDERS.contains(singular))
                        .map(|singular| format!(" (did you mean `{singular}`?)"))
                        .unwrap_or_default();
                    return Err(self.invalid(
                        &["data", name],
                        &format!("data.{name}"),
                        format!(
                            "unknown folder `{name}`{hint}; `data` holds {}",
                            ROOT_FOLDERS.join(", ")
                        ),
                    ));
                }
            }
            entries.sort_by_key(|(key, _)| {
                ROOT_FOLDERS
                    .iter()
                    .position(|known| Some(*known) == key.as_deref())
            });
        } else if !data.numbered {
            entries.sort_by(|(a, _), (b, _)| {
                a.as_deref().unwrap_or("").cmp(b.as_deref().unwrap_or(""))
            });
        }
        let groups = entries
            .iter()
            .filter(|(_, node)| matches!(node, RawNode::Entry(entry) if !entry.is_test_case()))
            .count();
        let group_width = groups.to_string().len();
        let mut next_group = 0;
        for (key, node) in entries {
            let key = key.clone().unwrap_or_default();
            let mut at: Vec<&str> = keys.to_vec();
            at.push("data");
            at.push(&key);
            let dotted_child = at.join(".");
            if !data.numbered && key.is_empty() {
                return Err(self.invalid(
                    &at,
                    &dotted_child,
                    "an empty key is allowed only in a numbered list",
                ));
            }
            let is_group = matches!(node, RawNode::Entry(entry) if !entry.is_test_case());
            if is_group {
                let RawNode::Entry(child) = node else {
                    continue;
                };
                let name = if data.numbered {
                    next_group += 1;
                    numbered(next_group, group_width, &key)
                } else {
                    key.clone()
                };
                if !valid_name(&name) {
                    return Err(self.invalid(
                        &at,
                        &dotted_child,
                        format!("`{name}` is not a valid folder name"),
                    ));
                }
                let child_folder = join(folder, &name);
                let below = inherited
                    .below(child)
                    .map_err(|message| self.invalid(&at, &dotted_child, message))?;
                let cases = self.directory(&at, &child_folder, &key, child, &below, false)?;
                held.extend(cases);
            } else {
                let cases = self.test_case(&at, folder, &key, node, inherited, data.numbered)?;
                held.extend(cases);
            }
        }
        // Included cases keep their own name, in this folder.
        for index in included {
            let name = self.plan.cases[index]
                .path
                .rsplit('/')
                .next()
                .unwrap_or_default()
                .to_owned();
            let target = join(folder, &name);
            if let Some(owner) = self.known_paths.get(&target) {
                if *owner != self.plan.cases[index].key {
                    return Err(self.invalid(
                        keys,
                        &format!("{dotted}.include"),
                        format!("includes `{name}`, but `{target}` is already made by `{owner}`"),
                    ));
                }
                continue;
            }
            self.known_paths
                .insert(target.clone(), self.plan.cases[index].key.clone());
            self.plan.includes.push((target, index));
            held.push(index);
        }
        if !is_root {
            self.remember(yaml_key, held.clone());
        }
        Ok(held)
    }

    fn remember(&mut self, key: &str, cases: Vec<usize>) {
        let known = match self.known_keys.get(key) {
            None => Known::Cases(cases),
            Some(_) => Known::Ambiguous,
        };
        self.known_keys.insert(key.to_owned(), known);
    }

    /// Reads one test case entry: one case, or one per `count` value.
    fn test_case(
        &mut self,
        at: &[&str],
        folder: &str,
        key: &str,
        node: &RawNode,
        inherited: &Inherited,
        numbered_list: bool,
    ) -> Result<Vec<usize>, ConfigError> {
        let dotted = at.join(".");
        let line = line_of(self.text, at);
        let refuse = |message: String| ConfigError {
            path: self.path.to_owned(),
            kind: ConfigErrorKind::Invalid {
                key: dotted.clone(),
                message,
                line,
            },
        };
        let owned;
        let entry: &RawEntry = match node {
            RawNode::Empty => {
                return Err(refuse(
                    "is empty: a test case needs `generate`, `copy` or `in`".to_owned(),
                ))
            }
            RawNode::Command(text) => {
                owned = match text.trim().strip_suffix(".in") {
                    Some(copy) if !copy.contains(char::is_whitespace) => RawEntry {
                        copy: Some(copy.to_owned()),
                        ..RawEntry::default()
                    },
                    _ => RawEntry {
                        generate: Some(text.clone()),
                        ..RawEntry::default()
                    },
                };
                &owned
            }
            RawNode::Entry(entry) => entry,
        };
        if entry.data.is_some() || entry.include.is_some() || entry.test_group_yaml.is_some() {
            return Err(refuse(
                "mixes a test case's keys with a directory's (`data`, `include`, \
                 `test_group.yaml`)"
                    .to_owned(),
            ));
        }
        if entry.generators.is_some() || entry.version.is_some() || entry.visualizer.is_some() {
            return Err(refuse("holds a key of the file's root only".to_owned()));
        }
        let inherited = inherited.below(entry).map_err(&refuse)?;
        let values = entry.count.as_ref().map(|count| count.0.clone());
        let consecutive = values.as_ref().is_some_and(|values| {
            let low = values.iter().min().copied().unwrap_or(0);
            let high = values.iter().max().copied().unwrap_or(0);
            high.saturating_sub(low) == values.len() as i64 - 1
        });
        let padding = match &values {
            Some(values) if consecutive => values
                .iter()
                .map(|value| value.to_string().len())
                .max()
                .unwrap_or(0),
            _ => 0,
        };
        let mut files: Vec<(&'static str, Vec<u8>)> = Vec::new();
        for (extension, value) in [
            (".in", &entry.input),
            (".ans", &entry.ans),
            (".out", &entry.out),
            (".interaction", &entry.interaction),
        ] {
            if let Some(FileText(text)) = value {
                files.push((extension, with_newline(text)));
            }
        }
        let mut links: Vec<(&'static str, String)> = Vec::new();
        for (extension, value) in [
            (".in.statement", &entry.in_statement),
            (".ans.statement", &entry.ans_statement),
            (".in.download", &entry.in_download),
            (".ans.download", &entry.ans_download),
        ] {
            let target = match value {
                None => continue,
                Some(serde_norway::Value::String(text)) => {
                    files.push((extension, with_newline(text)));
                    continue;
                }
                Some(serde_norway::Value::Mapping(map)) if map.len() == 1 => map
                    .get("link")
                    .and_then(serde_norway::Value::as_str)
                    .map(|target| format!(".{target}")),
                Some(_) => None,
            };
            match target {
                Some(target) if EXTENSIONS.contains(&target.as_str()) && target != extension => {
                    links.push((extension, target));
                }
                _ => {
                    return Err(refuse(format!(
                        "`{}`: must be a string, or `{{link: EXT}}` naming another file of the \
                         case (`in`, `ans`, `in.statement`, ...)",
                        &extension[1..]
                    )))
                }
            }
        }
        if let Some(yaml) = &entry.yaml {
            let text = match yaml {
                serde_norway::Value::String(text) => with_newline(text),
                other => {
                    let keys: Vec<&str> = at.iter().copied().chain(["yaml"]).collect();
                    yaml_text(self.text, &keys, other)
                        .map_err(|error| refuse(format!("`yaml`: {error}")))?
                        .into_bytes()
                }
            };
            files.push((".yaml", text));
        }
        let copy = match &entry.copy {
            Some(copy) if copy.starts_with('/') => {
                return Err(refuse(format!(
                    "`copy: {copy}` must be relative to `generators/`, not absolute"
                )))
            }
            Some(copy) if climbs_out(copy) => {
                return Err(refuse(format!(
                    "`copy: {copy}` climbs out of the package with `..`: it must name a file \
                     inside the package (issue #34)"
                )))
            }
            Some(copy) => Some(format!("generators/{copy}")),
            None => None,
        };
        if entry.generate.is_none()
            && copy.is_none()
            && !files.iter().any(|(extension, _)| *extension == ".in")
        {
            return Err(refuse(
                "makes no input: a test case needs `generate`, `copy` or `in`".to_owned(),
            ));
        }
        let mut made = Vec::new();
        for value in values.clone().unwrap_or_else(|| vec![1]) {
            let base = if numbered_list {
                self.next_case += 1;
                numbered(self.next_case, self.case_width, key)
            } else {
                key.to_owned()
            };
            let name = match &values {
                Some(_) => format!("{base}-{value:0padding$}"),
                None => base,
            };
            if name == "test_group" || !valid_name(&format!("{name}.in")) {
                return Err(refuse(format!("`{name}` is not a valid test case name")));
            }
            let generate = match &entry.generate {
                Some(text) => {
                    let (command, note) = command(
                        &self.constants.substitute(text),
                        values.as_ref().map(|_| value),
                        &inherited.random_salt,
                    )
                    .map_err(&refuse)?;
                    if let Some(note) = note {
                        self.plan.notes.push(format!("`{dotted}` {note}"));
                    }
                    Some(command)
                }
                None => None,
            };
            let path = join(folder, &name);
            if let Some(owner) = self.known_paths.get(&path) {
                return Err(refuse(format!(
                    "makes `data/{path}`, which `{owner}` makes too"
                )));
            }
            self.known_paths.insert(path.clone(), dotted.clone());
            self.plan.cases.push(Case {
                path,
                key: dotted.clone(),
                line,
                generate,
                copy: copy.clone(),
                files: files.clone(),
                links: links.clone(),
                solution: inherited.solution.clone(),
                retries: inherited.retries,
                input_validator_args: None,
                output_validator_args: None,
            });
            made.push(self.plan.cases.len() - 1);
        }
        self.remember(key, made.clone());
        Ok(made)
    }
}

/// Whether `copy` (relative to `generators/`) climbs above the package's
/// folder with its `..` names, read as written (a link on the way is
/// [`crate::beneath`]'s to refuse when the file is opened).
fn climbs_out(copy: &str) -> bool {
    // `generators/` is one folder below the package.
    let mut depth: usize = 1;
    for name in copy.split('/') {
        match name {
            "" | "." => {}
            ".." => match depth.checked_sub(1) {
                Some(up) => depth = up,
                None => return true,
            },
            _ => depth += 1,
        }
    }
    false
}

/// `NN-key`, or `NN` for an empty key.
fn numbered(number: usize, width: usize, key: &str) -> String {
    if key.is_empty() {
        format!("{number:0width$}")
    } else {
        format!("{number:0width$}-{key}")
    }
}

fn join(folder: &str, name: &str) -> String {
    if folder.is_empty() {
        name.to_owned()
    } else {
        format!("{folder}/{name}")
    }
}

/// A file's text as BAPCtools writes it: a newline added to a non-empty
/// text that does not end with one.
fn with_newline(text: &str) -> Vec<u8> {
    let mut bytes = text.as_bytes().to_vec();
    if !bytes.is_empty() && !text.ends_with('\n') {
        bytes.push(b'\n');
    }
    bytes
}

#[cfg(test)]
mod tests;
