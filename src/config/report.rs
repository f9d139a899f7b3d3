//! judge.toml's `[report.<format>]` tables, checked generically: each
//! report format declares the settings of its own in its module (a
//! `Declared`: keys, types, defaults, docs, handed in with
//! `inventory::submit!`), and this module checks the tables against what
//! the formats declare as judge.toml loads, so a wrong key or value names
//! its file, line and key before anything runs. The formats read the
//! checked values (`ReportSettings`) from
//! `crate::report::rendering::Input::settings`, each its own table.
//!
//! The declarations are collected rather than listed here because the
//! formats live in the report layer, above this one: `config` names no
//! report format, and a format with a setting of its own is still one
//! module and one line in `report::formats::FORMATS` (issue #33). Not
//! here: what the formats share (the student view, the pairs not handed
//! in), which the grading layer decides.

use super::ConfigError;
use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

/// The settings a report format declares for its `[report.<format>]`
/// table, in its own module (what each does, for users, is in
/// docs/configuration.md, which a test holds to the declarations):
///
/// ```ignore
/// inventory::submit! {
///     Declared { format: "gradescope", settings: &[Setting { key: "hidden-tests", ... }] }
/// }
/// ```
#[derive(Debug)]
pub(crate) struct Declared {
    /// The format's name, as its flag and its table name it.
    pub(crate) format: &'static str,
    pub(crate) settings: &'static [Setting],
}

inventory::collect!(Declared);

/// One key of a format's table.
#[derive(Debug)]
pub(crate) struct Setting {
    /// The key, in kebab case.
    pub(crate) key: &'static str,
    /// What it may be, and its value when neither file sets it.
    pub(crate) kind: Kind,
}

/// What a setting may be (one kind today; a format that needs another
/// adds it here, with its check and its test).
#[derive(Debug, Clone, Copy)]
pub(crate) enum Kind {
    /// One of these names (a string).
    OneOf {
        names: &'static [&'static str],
        default: &'static str,
    },
}

impl Kind {
    /// How the key's value is written, as the error for a table of the
    /// wrong type shows it.
    fn shape(self) -> &'static str {
        match self {
            Kind::OneOf { .. } => "\"...\"",
        }
    }

    fn default(self) -> Value {
        match self {
            Kind::OneOf { default, .. } => Value::Name(default.to_owned()),
        }
    }
}

/// A setting's value, as written and as read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Value {
    /// Of [`Kind::OneOf`].
    Name(String),
}

/// Every format's declaration, by name.
fn declared() -> Vec<&'static Declared> {
    let mut all: Vec<&'static Declared> = inventory::iter::<Declared>.into_iter().collect();
    all.sort_by_key(|declared| declared.format);
    all
}

/// serde's words for "expected one of these names", so a message reads as
/// every other unknown key's does (and gets its "did you mean").
fn expected_one_of(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|name| format!("`{name}`")).collect();
    match quoted.as_slice() {
        [] => "there are no fields".to_owned(),
        [one] => format!("expected {one}"),
        [one, two] => format!("expected {one} or {two}"),
        many => format!("expected one of {}", many.join(", ")),
    }
}

/// `[report]` as written: each format's table, every key one its format
/// declares and of its type (checked as it is read, so toml names the
/// line and column); the names are checked in [`ReportToml::over`].
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct ReportToml {
    tables: BTreeMap<String, BTreeMap<String, Value>>,
}

impl<'de> Deserialize<'de> for ReportToml {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(ReportVisitor(declared()))
    }
}

/// `[report]` read against these declarations (every format's, or a
/// test's own).
struct ReportVisitor(Vec<&'static Declared>);

impl<'de> de::DeserializeSeed<'de> for ReportVisitor {
    type Value = ReportToml;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<ReportToml, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for ReportVisitor {
    type Value = ReportToml;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a table `[report]`")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ReportToml, A::Error> {
        let all = self.0;
        let mut tables = BTreeMap::new();
        let names: Vec<&'static str> = all.iter().map(|declared| declared.format).collect();
        while let Some(name) = map.next_key_seed(KeySeed(&names))? {
            // `KeySeed` refused any other name: this always finds.
            let Some(format) = all.iter().find(|declared| declared.format == name) else {
                continue;
            };
            let table = map.next_value_seed(TableSeed(format))?;
            tables.insert(name.to_owned(), table);
        }
        Ok(ReportToml { tables })
    }
}

/// A key that must be one of these: refused as it is read, so toml names
/// the key's own line and column.
struct KeySeed<'a>(&'a [&'static str]);

impl<'de> de::DeserializeSeed<'de> for KeySeed<'_> {
    type Value = &'static str;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KeySeed<'_> {
    type Value = &'static str;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&expected_one_of(self.0))
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<&'static str, E> {
        self.0
            .iter()
            .copied()
            .find(|known| *known == key)
            .ok_or_else(|| {
                E::custom(format!(
                    "unknown field `{key}`, {}",
                    expected_one_of(self.0)
                ))
            })
    }
}

/// One format's table, read against its declaration.
struct TableSeed(&'static Declared);

impl<'de> de::DeserializeSeed<'de> for TableSeed {
    type Value = BTreeMap<String, Value>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for TableSeed {
    type Value = BTreeMap<String, Value>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let keys: Vec<String> = self
            .0
            .settings
            .iter()
            .map(|setting| format!("`{} = {}`", setting.key, setting.kind.shape()))
            .collect();
        write!(
            f,
            "a table `[report.{}]` ({})",
            self.0.format,
            keys.join(", ")
        )
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut table = BTreeMap::new();
        let keys: Vec<&'static str> = self.0.settings.iter().map(|setting| setting.key).collect();
        while let Some(key) = map.next_key_seed(KeySeed(&keys))? {
            // `KeySeed` refused any other key: this always finds.
            let Some(setting) = self.0.settings.iter().find(|setting| setting.key == key) else {
                continue;
            };
            let value = match setting.kind {
                Kind::OneOf { .. } => Value::Name(map.next_value::<String>()?),
            };
            table.insert(key.to_owned(), value);
        }
        Ok(table)
    }
}

/// `[report.*]` as the formats read it: every key every format declares,
/// the user's value, else the built-in one, else the declared default.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ReportSettings {
    values: BTreeMap<(&'static str, &'static str), Value>,
}

impl Default for ReportSettings {
    /// Every declared default.
    fn default() -> Self {
        ReportSettings::defaults(&declared())
    }
}

impl ReportSettings {
    /// The defaults `all` declare.
    fn defaults(all: &[&'static Declared]) -> Self {
        let values = all
            .iter()
            .flat_map(|declared| {
                declared
                    .settings
                    .iter()
                    .map(|setting| ((declared.format, setting.key), setting.kind.default()))
            })
            .collect();
        ReportSettings { values }
    }

    fn value(&self, format: &str, key: &str) -> Option<&Value> {
        self.values
            .iter()
            .find(|((declarer, declared), _)| *declarer == format && *declared == key)
            .map(|(_, value)| value)
    }

    /// The name `format`'s `key` holds; `None` for a key no format declares
    /// as one of names.
    pub(crate) fn name(&self, format: &str, key: &str) -> Option<&str> {
        match self.value(format, key)? {
            Value::Name(name) => Some(name),
        }
    }

    /// These settings with `format`'s `key` set to `value` (a test's
    /// settings, as judge.toml would say them).
    #[cfg(test)]
    pub(crate) fn with(mut self, format: &'static str, key: &'static str, value: Value) -> Self {
        self.values.insert((format, key), value);
        self
    }
}

impl ReportToml {
    /// The user's tables (`self`) laid over the built-in ones (`base`),
    /// key by key, over the declared defaults, and checked; a wrong value
    /// names `path` and its key.
    pub(crate) fn over(self, base: ReportToml, path: &Path) -> Result<ReportSettings, ConfigError> {
        self.over_declared(base, path, &declared())
    }

    /// [`ReportToml::over`] against the declarations `all`.
    fn over_declared(
        self,
        base: ReportToml,
        path: &Path,
        all: &[&'static Declared],
    ) -> Result<ReportSettings, ConfigError> {
        let mut settings = ReportSettings::defaults(all);
        for declared in all {
            for setting in declared.settings {
                let written = |toml: &ReportToml| {
                    toml.tables
                        .get(declared.format)
                        .and_then(|table| table.get(setting.key))
                        .cloned()
                };
                let Some(value) = written(&self).or_else(|| written(&base)) else {
                    continue;
                };
                let (Kind::OneOf { names, .. }, Value::Name(name)) = (setting.kind, &value);
                if !names.contains(&name.as_str()) {
                    let known: Vec<String> = names.iter().map(|name| format!("`{name}`")).collect();
                    return Err(ConfigError::invalid(
                        path,
                        format!("report.{}.{}", declared.format, setting.key),
                        format!("`{name}` is not one of {}", known.join(", ")),
                    ));
                }
                settings
                    .values
                    .insert((declared.format, setting.key), value);
            }
        }
        Ok(settings)
    }
}

#[cfg(test)]
mod tests;
