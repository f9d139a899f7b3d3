//! `submissions/submissions.yaml` of a 2025-09 package (issues #15, #34):
//! what the package's example submissions are expected to get, and how
//! some of them are run. Its top-level keys are globs over paths under
//! `submissions/` (`accepted`, `mixed/slow.py`, `ac.{py,cpp}`; see
//! [`super::kattis_glob`]); each maps to keys of the format:
//!
//! - `permitted`, `required`, `score`, `message`: what every submission
//!   the glob matches must get, over all its tests; the same four keys
//!   under a key that is a test group or test case glob (`sample`,
//!   `secret/group1`, `secret/*-hard`) apply to the tests of that group
//!   only (a `score` there: the group's own score);
//! - `use_for_time_limit`: `false` keeps an accepted submission out of the
//!   derived time limit, `true` is the default (no opt-out); `lower` and `upper` are, as the format says,
//!   `permitted: [AC, WA, RTE]` and `required: [TLE]`, and `lower` also
//!   puts the submission into the derived limit;
//! - `language` (a code of the format's language list) and `entrypoint`
//!   (the file, or Java's class, a folder program starts from): how it
//!   runs;
//! - `authors`, `model_solution`: documentation, checked for shape only.
//!
//! A key that is none of these and no test group glob is refused with its
//! line, as a misspelt `permited` must not grade without its demand. A
//! glob that is exactly a default folder of the format (`accepted`)
//! replaces that folder's default demand, keys it does not give inherited.
//!
//! Read here, checked whole (a bad entry refuses the package with its file
//! and line); what a result must be to agree is
//! `crate::package::verdict_folders`.

use super::kattis_glob::Glob;
use super::kattis_yaml::without_location;
use super::{ConfigError, ConfigErrorKind};
use crate::verdict::Verdict;
use serde_norway::Value;
use std::path::Path;

/// The file, relative to the package.
pub(crate) const FILE: &str = "submissions/submissions.yaml";

/// The keys of a glob's entry besides test group globs.
const ENTRY_KEYS: &str = "`language`, `entrypoint`, `authors`, `model_solution`, `permitted`, \
                          `required`, `score`, `message`, `use_for_time_limit`";

/// The format's default folders and their demand (permitted, required),
/// 2025-09 "Default directories".
const DEFAULT_FOLDERS: [(&str, &[Verdict], &[Verdict]); 6] = {
    use Verdict::{
        Accepted as AC, RuntimeError as RTE, TimeLimitExceeded as TLE, WrongAnswer as WA,
    };
    [
        ("accepted", &[AC], &[]),
        ("rejected", &[], &[RTE, TLE, WA]),
        ("wrong_answer", &[AC, WA], &[WA]),
        ("time_limit_exceeded", &[AC, TLE], &[TLE]),
        ("run_time_error", &[AC, RTE], &[RTE]),
        ("brute_force", &[AC, RTE, TLE], &[RTE, TLE]),
    ]
};

/// The format's language codes (its appendix "Languages") and a file
/// extension of each: the judge runs a submission said to be in a code in
/// the language of judge.toml that runs files of that extension.
const LANGUAGE_CODES: &[(&str, &str)] = &[
    ("ada", "adb"),
    ("algol68", "a68"),
    ("apl", "apl"),
    ("bash", "sh"),
    ("c", "c"),
    ("cgmp", "c"),
    ("cobol", "cob"),
    ("cpp", "cpp"),
    ("cppgmp", "cpp"),
    ("crystal", "cr"),
    ("csharp", "cs"),
    ("d", "d"),
    ("dart", "dart"),
    ("elixir", "ex"),
    ("erlang", "erl"),
    ("forth", "fth"),
    ("fortran", "f90"),
    ("fsharp", "fs"),
    ("gerbil", "ss"),
    ("go", "go"),
    ("haskell", "hs"),
    ("java", "java"),
    ("javaalgs4", "java"),
    ("javascript", "js"),
    ("julia", "jl"),
    ("kotlin", "kt"),
    ("lisp", "lisp"),
    ("lua", "lua"),
    ("modula2", "mod"),
    ("nim", "nim"),
    ("objectivec", "m"),
    ("ocaml", "ml"),
    ("octave", "m"),
    ("odin", "odin"),
    ("pascal", "pas"),
    ("perl", "pm"),
    ("php", "php"),
    ("prolog", "pl"),
    ("python2", "py2"),
    ("python3", "py"),
    ("python3numpy", "py"),
    ("racket", "rkt"),
    ("ruby", "rb"),
    ("rust", "rs"),
    ("scala", "scala"),
    ("simula", "sim"),
    ("smalltalk", "st"),
    ("snobol", "sno"),
    ("swift", "swift"),
    ("typescript", "ts"),
    ("visualbasic", "vb"),
    ("zig", "zig"),
];

/// The format's default demand of the folder `folder` (`accepted`:
/// permitted AC), as the rule it is; `None` for a folder without one.
pub(crate) fn default_demand(folder: &str) -> Option<Rule> {
    DEFAULT_FOLDERS
        .iter()
        .find(|(name, _, _)| *name == folder)
        .map(|(_, permitted, required)| Rule {
            permitted: (!permitted.is_empty()).then(|| permitted.to_vec()),
            required: (!required.is_empty()).then(|| required.to_vec()),
            ..Rule::default()
        })
}

/// The file extension the judge looks up for the format's language `code`.
pub(crate) fn extension_of_code(code: &str) -> Option<&'static str> {
    LANGUAGE_CODES
        .iter()
        .find(|(known, _)| *known == code)
        .map(|(_, extension)| *extension)
}

/// What `use_for_time_limit` says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TimeLimitUse {
    /// `false`: not used for the time limit.
    Excluded,
    /// `lower`: bounds it from below (`permitted: [AC, WA, RTE]`).
    Lower,
    /// `upper`: bounds it from above (`required: [TLE]`).
    Upper,
}

/// The tests a rule applies to: all, or those of a test group glob.
#[derive(Clone, Debug)]
pub(crate) struct Scope {
    /// As written (`secret/group1`).
    pub(crate) glob: String,
    /// Its 1-based line in the file (0: not found).
    pub(crate) line: usize,
    pattern: Glob,
}

/// One set of demands: an entry's own, or those under one of its test
/// group globs.
#[derive(Clone, Debug, Default)]
pub(crate) struct Rule {
    /// `None`: every test.
    pub(crate) scope: Option<Scope>,
    /// Verdicts any test may have (`None`: any).
    pub(crate) permitted: Option<Vec<Verdict>>,
    /// Verdicts of which one test must have one (`None`: no demand).
    pub(crate) required: Option<Vec<Verdict>>,
    /// The inclusive range the score must be in (a group's score, under a
    /// group glob).
    pub(crate) score: Option<(f64, f64)>,
    /// Text that some test's message must contain.
    pub(crate) message: Option<String>,
    pub(crate) use_for_time_limit: Option<TimeLimitUse>,
}

impl Rule {
    /// Whether the rule applies to the test named `test` (its path under
    /// `data/` without `.in`: `secret/group1/3`).
    pub(crate) fn applies_to(&self, test: &str) -> bool {
        self.scope
            .as_ref()
            .is_none_or(|scope| scope.pattern.matches(test))
    }

    /// Whether the group named `group` is one whose score this rule
    /// bounds.
    pub(crate) fn bounds_group(&self, group: &str) -> bool {
        self.scope
            .as_ref()
            .is_some_and(|scope| scope.pattern.matches_exactly(group))
    }

    pub(crate) fn demands(&self) -> bool {
        self.permitted.is_some()
            || self.required.is_some()
            || self.score.is_some()
            || self.message.is_some()
    }

    /// `permitted AC, TLE; score 60 to 70`, with its scope first.
    pub(crate) fn demand(&self) -> String {
        let names = |verdicts: &[Verdict]| {
            verdicts
                .iter()
                .map(|verdict| verdict.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut parts = Vec::new();
        if let Some(permitted) = &self.permitted {
            parts.push(format!("permitted {}", names(permitted)));
        }
        if let Some(required) = &self.required {
            parts.push(format!("required {}", names(required)));
        }
        if let Some((low, high)) = self.score {
            parts.push(format!("score {low} to {high}"));
        }
        if let Some(message) = &self.message {
            parts.push(format!("message {message:?}"));
        }
        let parts = parts.join("; ");
        match &self.scope {
            Some(scope) => format!("on `{}`: {parts}", scope.glob),
            None => parts,
        }
    }
}

/// What the submissions a glob matches must get, and how they run.
#[derive(Clone, Debug)]
pub(crate) struct Expectation {
    /// The glob as written, and its line in the file (for messages).
    pub(crate) glob: String,
    pub(crate) line: usize,
    pattern: Glob,
    /// The glob is exactly one of the format's default folders: its rule
    /// replaces the folder's default demand.
    pub(crate) replaces_folder: Option<&'static str>,
    /// The format's language code (`python3`).
    pub(crate) language: Option<String>,
    /// The entry point of a folder program (`main.py`, Java's `Main`).
    pub(crate) entrypoint: Option<String>,
    /// The entry's own rule first, then one per test group glob, in the
    /// order written.
    pub(crate) rules: Vec<Rule>,
}

impl Expectation {
    /// Whether the glob matches `relative`, a path under `submissions/`
    /// (`accepted/a.py`), or a folder holding it.
    pub(crate) fn matches(&self, relative: &Path) -> bool {
        let path = relative
            .components()
            .map(|part| part.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/");
        self.pattern.matches(&path)
    }

    /// What it demands, for messages: `permitted AC, TLE; score 60 to 70`,
    /// a test group's demand after its own (`on `sample`: permitted AC`).
    pub(crate) fn demand(&self) -> String {
        self.rules
            .iter()
            .filter(|rule| rule.demands())
            .map(Rule::demand)
            .collect::<Vec<_>>()
            .join("; ")
    }

    /// Whether it demands anything of a result (an entry with only
    /// `authors` leaves the folder's rule in force).
    pub(crate) fn demands(&self) -> bool {
        self.rules.iter().any(Rule::demands)
    }

    /// Whether it demands anything of a test group's tests: then every test
    /// must run, not only those up to the first failure.
    pub(crate) fn has_group_rules(&self) -> bool {
        self.rules
            .iter()
            .any(|rule| rule.scope.is_some() && rule.demands())
    }

    /// Its own `use_for_time_limit` (a test group's is checked as its
    /// demand only).
    pub(crate) fn use_for_time_limit(&self) -> Option<TimeLimitUse> {
        self.rules
            .iter()
            .find(|rule| rule.scope.is_none())
            .and_then(|rule| rule.use_for_time_limit)
    }
}

/// The verdicts the format names, as the judge's.
fn verdict_of(name: &str) -> Option<Verdict> {
    match name {
        "AC" => Some(Verdict::Accepted),
        "WA" => Some(Verdict::WrongAnswer),
        "RTE" => Some(Verdict::RuntimeError),
        "TLE" => Some(Verdict::TimeLimitExceeded),
        _ => None,
    }
}

/// Whether `line` writes the key `key` (quoted or not) at its start.
fn writes_key(line: &str, key: &str) -> bool {
    line.trim_start()
        .trim_start_matches(['"', '\''])
        .strip_prefix(key)
        .map(|rest| rest.trim_start_matches(['"', '\'']))
        .is_some_and(|rest| rest.trim_start().starts_with(':'))
}

/// The 1-based line where the top-level key `key` is written.
fn line_of(text: &str, key: &str) -> Option<usize> {
    text.lines()
        .position(|line| !line.starts_with([' ', '\t', '#']) && writes_key(line, key))
        .map(|index| index + 1)
}

/// The 1-based line of the key `key` inside the entry written at `entry`
/// (its indented lines after it); the entry's line when not found.
fn line_in_entry(text: &str, entry: usize, key: &str) -> usize {
    text.lines()
        .enumerate()
        .skip(entry)
        .take_while(|(_, line)| line.is_empty() || line.starts_with([' ', '\t', '#', '-']))
        .find(|(_, line)| line.starts_with([' ', '\t']) && writes_key(line, key))
        .map_or(entry, |(index, _)| index + 1)
}

/// Reads `submissions/submissions.yaml` of the package in `dir`; `None`
/// when there is none.
pub(crate) fn read(dir: &Path) -> Result<Option<Vec<Expectation>>, ConfigError> {
    let path = dir.join(FILE);
    if !path.is_file() {
        return Ok(None);
    }
    let text = ConfigError::read_yaml_text(&path)?;
    parse(&text)
        .map(Some)
        .map_err(|kind| ConfigError { path, kind })
}

/// Refuses a `score` in `submissions/submissions.yaml` of the pass-fail
/// package in `dir`, naming its line and glob (issue #34): the format
/// allows it "only for scoring problems", and a pass-fail run has no score
/// to meet it.
pub(crate) fn refuse_score_on_pass_fail(dir: &Path) -> Result<(), ConfigError> {
    let path = dir.join(FILE);
    let Some(expectations) = read(dir)? else {
        return Ok(());
    };
    let Some(expectation) = expectations
        .iter()
        .find(|expectation| expectation.rules.iter().any(|rule| rule.score.is_some()))
    else {
        return Ok(());
    };
    let text = ConfigError::read_yaml_text(&path)?;
    let line = line_in_entry(&text, expectation.line, "score");
    Err(ConfigError::invalid_on(
        &path,
        line,
        expectation.glob.clone(),
        "`score` is only for scoring problems, and problem.yaml makes this one pass-fail: \
         remove it, or state `type: scoring` in problem.yaml",
    ))
}

/// `expectations` and the format's default demand of `rejected/` and
/// `brute_force/` (the folders without one of the judge's own), unless a
/// glob replaces it; a default is at line 0.
pub(crate) fn with_defaults(mut expectations: Vec<Expectation>) -> Vec<Expectation> {
    for folder in ["rejected", "brute_force"] {
        if expectations
            .iter()
            .any(|expectation| expectation.replaces_folder == Some(folder))
        {
            continue;
        }
        let at = EntryAt {
            text: "",
            glob: folder,
            line: None,
        };
        if let Ok(default) = parse_entry(&at, Value::Null) {
            expectations.push(default);
        }
    }
    expectations
}

/// Where an error of one entry is: its glob and the text, for lines.
struct EntryAt<'a> {
    text: &'a str,
    glob: &'a str,
    line: Option<usize>,
}

impl EntryAt<'_> {
    /// An error of the entry itself, at its line.
    fn invalid(&self, message: String) -> ConfigErrorKind {
        ConfigErrorKind::Invalid {
            key: self.glob.to_owned(),
            message,
            line: self.line,
        }
    }

    /// An error of its key `key`, at that key's line.
    fn invalid_key(&self, key: &str, message: String) -> ConfigErrorKind {
        ConfigErrorKind::Invalid {
            key: self.glob.to_owned(),
            message,
            line: self
                .line
                .map(|line| line_in_entry(self.text, line, key.trim_matches(['"', '\'']))),
        }
    }
}

/// The expectations `text` states, in the order written.
pub(crate) fn parse(text: &str) -> Result<Vec<Expectation>, ConfigErrorKind> {
    if text.trim().is_empty() {
        return Ok(Vec::new());
    }
    let mapping: serde_norway::Mapping =
        serde_norway::from_str(text).map_err(|error| ConfigErrorKind::Parse {
            position: error
                .location()
                .map(|location| (location.line(), location.column())),
            message: without_location(&error.to_string()),
        })?;
    let mut expectations = Vec::with_capacity(mapping.len());
    for (key, value) in mapping {
        let Some(glob) = key.as_str().map(str::to_owned) else {
            return Err(ConfigErrorKind::Invalid {
                key: format!("{key:?}"),
                message: "a key must be a glob over paths under `submissions/`".to_owned(),
                line: None,
            });
        };
        let at = EntryAt {
            text,
            line: line_of(text, &glob),
            glob: &glob,
        };
        expectations.push(parse_entry(&at, value)?);
    }
    Ok(expectations)
}

/// One glob's entry.
fn parse_entry(at: &EntryAt<'_>, value: Value) -> Result<Expectation, ConfigErrorKind> {
    let pattern =
        Glob::parse(at.glob).map_err(|error| at.invalid(format!("not a glob: {error}")))?;
    let fields = match value {
        Value::Mapping(fields) => fields,
        Value::Null => serde_norway::Mapping::new(),
        _ => {
            return Err(at.invalid(format!(
                "must map to keys of the format ({ENTRY_KEYS}, or a test group glob)"
            )))
        }
    };
    let mut own = Rule::default();
    let mut groups = Vec::new();
    let mut language = None;
    let mut entrypoint = None;
    for (key, value) in fields {
        let Some(name) = key.as_str() else {
            return Err(at.invalid(format!("a key must be a string, not {key:?}")));
        };
        match name {
            "language" => {
                let code = string(at, name, &value)?;
                if extension_of_code(&code).is_none() {
                    return Err(at.invalid_key(
                        name,
                        format!(
                            "`language`: `{code}` is not a language code of the format \
                             (`python3`, `cpp`, `java`, ...: its appendix \"Languages\")"
                        ),
                    ));
                }
                language = Some(code);
            }
            "entrypoint" => entrypoint = Some(string(at, name, &value)?),
            "authors" => persons(at, &value)?,
            "model_solution" => {
                if !value.is_bool() {
                    return Err(
                        at.invalid_key(name, "`model_solution` must be true or false".into())
                    );
                }
            }
            _ if rule_key(&mut own, at, name, &value)? => {}
            _ => groups.push(group_rule(at, name, value)?),
        }
    }
    consistent(at, &own)?;
    let replaces_folder = DEFAULT_FOLDERS
        .iter()
        .find(|(folder, _, _)| *folder == at.glob.trim_end_matches('/'))
        .map(|(folder, permitted, required)| {
            if own.permitted.is_none() && !permitted.is_empty() {
                own.permitted = Some(permitted.to_vec());
            }
            if own.required.is_none() && !required.is_empty() {
                own.required = Some(required.to_vec());
            }
            *folder
        });
    let mut rules = vec![own];
    rules.extend(groups);
    for rule in &mut rules {
        equivalent_demands(rule);
    }
    Ok(Expectation {
        glob: at.glob.to_owned(),
        line: at.line.unwrap_or(0),
        pattern,
        replaces_folder,
        language,
        entrypoint,
        rules,
    })
}

/// Reads `name` into `rule` when it is one of a rule's keys; `false` when
/// it is not one.
fn rule_key(
    rule: &mut Rule,
    at: &EntryAt<'_>,
    name: &str,
    value: &Value,
) -> Result<bool, ConfigErrorKind> {
    match name {
        "permitted" => rule.permitted = Some(verdicts(at, name, value)?),
        "required" => rule.required = Some(verdicts(at, name, value)?),
        "score" => {
            rule.score = Some(score_range(value).ok_or_else(|| {
                at.invalid_key(
                    name,
                    "`score` must be a number of at least 0, or `[LOW, HIGH]` with LOW <= HIGH"
                        .to_owned(),
                )
            })?);
        }
        "message" => rule.message = Some(string(at, name, value)?),
        "use_for_time_limit" => {
            // The format's type is "Bool or string": `true` opts nothing
            // out nor in, the default (issue #34).
            rule.use_for_time_limit = match value {
                Value::Bool(true) => None,
                Value::Bool(false) => Some(TimeLimitUse::Excluded),
                Value::String(text) if text == "lower" => Some(TimeLimitUse::Lower),
                Value::String(text) if text == "upper" => Some(TimeLimitUse::Upper),
                _ => {
                    return Err(at.invalid_key(
                        name,
                        "`use_for_time_limit` must be `true`, `false`, `lower` or `upper`"
                            .to_owned(),
                    ))
                }
            };
        }
        _ => return Ok(false),
    }
    Ok(true)
}

/// The demands under the test group glob `name`.
fn group_rule(at: &EntryAt<'_>, name: &str, value: Value) -> Result<Rule, ConfigErrorKind> {
    let unknown = || {
        at.invalid_key(
            name,
            format!(
                "unknown key `{name}`: expected one of {ENTRY_KEYS}, or a test group glob under \
                 `data/` (`sample`, `secret/...`) mapping to expectations"
            ),
        )
    };
    let pattern = Glob::parse(name).map_err(|_| unknown())?;
    if !pattern
        .first_names()
        .all(|first| matches!(first, "sample" | "secret") || first.starts_with('*'))
    {
        return Err(unknown());
    }
    let Value::Mapping(fields) = value else {
        return Err(at.invalid_key(
            name,
            format!(
                "the test group glob `{name}` must map to `permitted`, `required`, `score`, \
                 `message` or `use_for_time_limit`"
            ),
        ));
    };
    let mut rule = Rule {
        scope: Some(Scope {
            glob: name.to_owned(),
            line: at.line.map_or(0, |line| {
                line_in_entry(at.text, line, name.trim_matches(['"', '\'']))
            }),
            pattern,
        }),
        ..Rule::default()
    };
    for (key, value) in fields {
        let key = key.as_str().unwrap_or_default();
        if !rule_key(&mut rule, at, key, &value)? {
            return Err(at.invalid_key(
                key,
                format!(
                    "`{name}`: unknown key `{key}`: expected one of `permitted`, `required`, \
                     `score`, `message`, `use_for_time_limit`"
                ),
            ));
        }
    }
    consistent(at, &rule)?;
    Ok(rule)
}

/// The format: `use_for_time_limit` "should error when it is inconsistent
/// with other constraints": `lower` beside a `required` only TLE meets,
/// `upper` beside a `permitted` without TLE.
fn consistent(at: &EntryAt<'_>, rule: &Rule) -> Result<(), ConfigErrorKind> {
    let tle = Verdict::TimeLimitExceeded;
    let clash = match rule.use_for_time_limit {
        Some(TimeLimitUse::Lower) => rule.required.as_ref().is_some_and(|r| r == &[tle]),
        Some(TimeLimitUse::Upper) => rule.permitted.as_ref().is_some_and(|p| !p.contains(&tle)),
        _ => false,
    };
    if clash {
        return Err(at.invalid_key(
            "use_for_time_limit",
            "`use_for_time_limit` contradicts the `permitted` or `required` beside it (`lower` \
             forbids TLE, `upper` requires it)"
                .to_owned(),
        ));
    }
    Ok(())
}

/// `lower` and `upper` as the demands the format says they are.
fn equivalent_demands(rule: &mut Rule) {
    use Verdict::*;
    match rule.use_for_time_limit {
        Some(TimeLimitUse::Lower) => {
            let lower = [Accepted, WrongAnswer, RuntimeError];
            rule.permitted = Some(match rule.permitted.take() {
                Some(permitted) => permitted
                    .into_iter()
                    .filter(|v| lower.contains(v))
                    .collect(),
                None => lower.to_vec(),
            });
        }
        Some(TimeLimitUse::Upper) if rule.required.is_none() => {
            rule.required = Some(vec![TimeLimitExceeded]);
        }
        Some(TimeLimitUse::Upper | TimeLimitUse::Excluded) | None => {}
    }
}

/// A string value.
fn string(at: &EntryAt<'_>, key: &str, value: &Value) -> Result<String, ConfigErrorKind> {
    match value {
        Value::String(text) if !text.trim().is_empty() => Ok(text.clone()),
        _ => Err(at.invalid_key(key, format!("`{key}` must be a non-empty string"))),
    }
}

/// `permitted` or `required`: verdicts of the format, at least one.
fn verdicts(at: &EntryAt<'_>, key: &str, value: &Value) -> Result<Vec<Verdict>, ConfigErrorKind> {
    let Value::Sequence(names) = value else {
        return Err(at.invalid_key(key, format!("`{key}` must be a list of verdicts")));
    };
    if names.is_empty() {
        return Err(at.invalid_key(key, format!("`{key}` lists no verdict")));
    }
    names
        .iter()
        .map(|name| {
            name.as_str().and_then(verdict_of).ok_or_else(|| {
                let name = name
                    .as_str()
                    .map_or_else(|| format!("{name:?}"), str::to_owned);
                at.invalid_key(
                    key,
                    format!("`{key}`: `{name}` is not a verdict of the format (AC, WA, RTE, TLE)"),
                )
            })
        })
        .collect()
}

/// `authors`: a person or a list of at least one; a person is a string
/// (`Name <email>`) or a map with `name` and optionally `email`, `orcid`,
/// `kattis`.
fn persons(at: &EntryAt<'_>, value: &Value) -> Result<(), ConfigErrorKind> {
    let person = |value: &Value| match value {
        Value::String(name) => !name.trim().is_empty(),
        Value::Mapping(fields) => {
            fields.get("name").is_some_and(Value::is_string)
                && fields.iter().all(|(key, value)| {
                    matches!(key.as_str(), Some("name" | "email" | "orcid" | "kattis"))
                        && value.is_string()
                })
        }
        _ => false,
    };
    let fine = match value {
        Value::Sequence(list) => !list.is_empty() && list.iter().all(person),
        single => person(single),
    };
    if fine {
        Ok(())
    } else {
        Err(at.invalid_key(
            "authors",
            "`authors` must be a person or a list of persons: `Name <email>`, or a map with \
             `name` and optionally `email`, `orcid`, `kattis`"
                .to_owned(),
        ))
    }
}

/// `score: 50` or `score: [20, 60]`.
fn score_range(value: &Value) -> Option<(f64, f64)> {
    let number = |value: &Value| value.as_f64().filter(|v| v.is_finite() && *v >= 0.0);
    match value {
        Value::Sequence(pair) => match pair.as_slice() {
            [low, high] => {
                let (low, high) = (number(low)?, number(high)?);
                (low <= high).then_some((low, high))
            }
            _ => None,
        },
        single => number(single).map(|score| (score, score)),
    }
}

#[cfg(test)]
mod tests;
