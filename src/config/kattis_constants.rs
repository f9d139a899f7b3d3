//! The `constants` of a 2025-09 `problem.yaml` (issue #34, item 2): names
//! with a value and, optionally, variants of it, and the substitution of
//! their constant sequences `{{name}}` and `{{name.variant}}` in the files
//! the format names.
//!
//! The format: "A constant value is either a scalar (integer, float, or
//! string), or a map with a required `value` key (integer, float, or
//! string) and optional variant keys providing alternative
//! representations"; names match `[a-zA-Z_][a-zA-Z0-9_]*`;
//! `{{name}}` is `{{name.value}}`. "Any constant sequences referring to
//! undefined constants are not replaced, but tools may warn for them", and
//! a package without `constants` has nothing replaced at all.
//!
//! This module reads the map (a name or value the format does not allow is
//! an error naming the file, its line and the key) and replaces sequences
//! in a text; which files get replaced is decided by their readers:
//! `test_group.yaml` ([`super::kattis_groups`]), the programs' sources (the
//! runner's copy of a program), `generators.yaml`'s commands.

use super::{ConfigError, ConfigErrorKind};
use serde_norway::Value;
use std::collections::BTreeMap;
use std::path::Path;

/// The constants of a package: each sequence's inside (`name`,
/// `name.value`, `name.variant`) and the text that replaces it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Constants {
    values: BTreeMap<String, String>,
}

/// A sequence of the form `{{name}}` or `{{name.variant}}` that names no
/// constant of the package, left as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Undefined {
    /// 1-based.
    pub(crate) line: usize,
    /// As written, braces included.
    pub(crate) sequence: String,
}

impl Constants {
    /// No constants: nothing is replaced.
    pub(crate) const NONE: Constants = Constants {
        values: BTreeMap::new(),
    };

    /// No constants, for as long as needed.
    pub(crate) fn none() -> &'static Constants {
        static NONE: Constants = Constants::NONE;
        &NONE
    }

    /// Reads the `constants` value of `problem.yaml` (at `path`, whose
    /// text is `text`, for the line of a bad key); `None` when the file
    /// has none.
    pub(crate) fn read(
        path: &Path,
        text: &str,
        value: Option<&Value>,
    ) -> Result<Constants, ConfigError> {
        let invalid = |keys: &[&str], message: String| {
            let mut dotted = vec!["constants"];
            dotted.extend_from_slice(keys);
            ConfigError {
                path: path.to_owned(),
                kind: ConfigErrorKind::Invalid {
                    key: dotted.join("."),
                    message,
                    line: line_of(text, &dotted),
                },
            }
        };
        let mut values = BTreeMap::new();
        let map = match value {
            None | Some(Value::Null) => return Ok(Constants { values }),
            Some(Value::Mapping(map)) => map,
            Some(_) => {
                return Err(invalid(
                    &[],
                    "must be a map of constant names to values".to_owned(),
                ))
            }
        };
        for (name, value) in map {
            let Some(name) = name.as_str().filter(|name| is_name(name)) else {
                return Err(invalid(
                    &[],
                    format!(
                        "{} is not a constant name (`[a-zA-Z_][a-zA-Z0-9_]*`)",
                        shown(name)
                    ),
                ));
            };
            let is_map = matches!(value, Value::Mapping(_));
            let variants: Vec<(&str, &Value)> = match value {
                Value::Mapping(variants) => {
                    let mut found = Vec::new();
                    for (variant, value) in variants {
                        let Some(variant) = variant.as_str().filter(|variant| is_name(variant))
                        else {
                            return Err(invalid(
                                &[name],
                                format!(
                                    "{} is not a variant name (`[a-zA-Z_][a-zA-Z0-9_]*`)",
                                    shown(variant)
                                ),
                            ));
                        };
                        found.push((variant, value));
                    }
                    if !found.iter().any(|(variant, _)| *variant == "value") {
                        return Err(invalid(
                            &[name],
                            "a map needs its `value` (the variants are other ways to write it)"
                                .to_owned(),
                        ));
                    }
                    found
                }
                scalar => vec![("value", scalar)],
            };
            for (variant, value) in variants {
                let text = match value {
                    Value::String(text) => text.clone(),
                    Value::Number(number) => number.to_string(),
                    other => {
                        let keys = if is_map {
                            vec![name, variant]
                        } else {
                            vec![name]
                        };
                        return Err(invalid(
                            &keys,
                            format!(
                                "`{name}.{variant}` is {}; a constant is an integer, a float or \
                                 a string",
                                kind(other)
                            ),
                        ));
                    }
                };
                if variant == "value" {
                    values.insert(name.to_owned(), text.clone());
                }
                values.insert(format!("{name}.{variant}"), text);
            }
        }
        Ok(Constants { values })
    }

    /// Whether the package defines no constant (then nothing is replaced).
    pub(crate) fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// `text` with every sequence that names a constant replaced by its
    /// value; the others are left as written.
    pub(crate) fn substitute(&self, text: &str) -> String {
        if self.is_empty() {
            return text.to_owned();
        }
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some((before, inside, after)) = next_sequence(rest) {
            out.push_str(before);
            match self.values.get(inside) {
                Some(value) => out.push_str(value),
                None => {
                    out.push_str("{{");
                    out.push_str(inside);
                    out.push_str("}}");
                }
            }
            rest = after;
        }
        out.push_str(rest);
        out
    }

    /// The bytes of a program's file with its sequences replaced, when they
    /// are UTF-8 text; other bytes (a compiled program) are left as they
    /// are.
    pub(crate) fn substitute_bytes(&self, bytes: Vec<u8>) -> Vec<u8> {
        if self.is_empty() {
            return bytes;
        }
        match String::from_utf8(bytes) {
            Ok(text) => self.substitute(&text).into_bytes(),
            Err(error) => error.into_bytes(),
        }
    }

    /// The sequences in `text` that name no constant, each with its line;
    /// none when the package defines no constant (the format: with no
    /// constants, nothing is done).
    pub(crate) fn undefined(&self, text: &str) -> Vec<Undefined> {
        let mut found = Vec::new();
        if self.is_empty() {
            return found;
        }
        let mut rest = text;
        let mut line = 1;
        while let Some((before, inside, after)) = next_sequence(rest) {
            line += before.matches('\n').count();
            if !self.values.contains_key(inside) {
                found.push(Undefined {
                    line,
                    sequence: format!("{{{{{inside}}}}}"),
                });
            }
            rest = after;
        }
        found
    }

    /// Every sequence's inside and its value, in name order (what a cache
    /// of things made with them hashes).
    pub(crate) fn pairs(&self) -> impl Iterator<Item = (&str, &str)> {
        self.values
            .iter()
            .map(|(inside, value)| (inside.as_str(), value.as_str()))
    }
}

/// A name of the format: `[a-zA-Z_][a-zA-Z0-9_]*`.
fn is_name(text: &str) -> bool {
    let mut chars = text.chars();
    chars
        .next()
        .is_some_and(|first| first.is_ascii_alphabetic() || first == '_')
        && chars.all(|next| next.is_ascii_alphanumeric() || next == '_')
}

/// The length of the name at the start of `text`, if one starts there.
fn name_length(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let first = *bytes.first()?;
    if !(first.is_ascii_alphabetic() || first == b'_') {
        return None;
    }
    Some(
        bytes
            .iter()
            .take_while(|byte| byte.is_ascii_alphanumeric() || **byte == b'_')
            .count(),
    )
}

/// The first sequence `{{name}}` or `{{name.variant}}` in `text`: the text
/// before it, its inside, the text after it. A `{{` that starts none is
/// passed over one brace at a time, so `{{{x}}}` holds `{{x}}`.
fn next_sequence(text: &str) -> Option<(&str, &str, &str)> {
    let mut from = 0;
    loop {
        let start = from + text[from..].find("{{")?;
        let inside_start = start + 2;
        let rest = &text[inside_start..];
        let inside_length = name_length(rest).and_then(|name| {
            let after_name = &rest[name..];
            let variant = match after_name.strip_prefix('.') {
                Some(variant) => 1 + name_length(variant)?,
                None => 0,
            };
            rest[name + variant..]
                .starts_with("}}")
                .then_some(name + variant)
        });
        match inside_length {
            Some(length) => {
                let end = inside_start + length;
                return Some((&text[..start], &text[inside_start..end], &text[end + 2..]));
            }
            // `{` is one byte: the next search starts inside the text.
            None => from = start + 1,
        }
    }
}

/// The line of the dotted key `keys` (`constants`, `constants.k`,
/// `constants.k.tex`) in a block-style YAML `text`: each key looked for
/// after the line of the one before it.
fn line_of(text: &str, keys: &[&str]) -> Option<usize> {
    let lines: Vec<&str> = text.lines().collect();
    let mut from = 0;
    let mut found = None;
    for key in keys {
        let wanted = format!("{key}:");
        let index = lines[from..]
            .iter()
            .position(|line| line.trim_start().starts_with(&wanted))?;
        found = Some(from + index + 1);
        from += index + 1;
    }
    found
}

fn shown(value: &Value) -> String {
    match value {
        Value::String(text) => format!("`{text}`"),
        Value::Number(number) => format!("`{number}`"),
        Value::Bool(flag) => format!("`{flag}`"),
        other => kind(other).to_owned(),
    }
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "empty",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Sequence(_) => "a list",
        Value::Mapping(_) => "a map",
        Value::Tagged(_) => "a tagged value",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use test_case::test_case;

    fn constants(yaml: &str) -> Result<Constants, String> {
        let value: Value = serde_norway::from_str(yaml).expect("YAML");
        Constants::read(Path::new("problem.yaml"), yaml, value.get("constants"))
            .map_err(|error| error.to_string())
    }

    const BAPC: &str = "name: x\nconstants:\n  FIVE:\n    value: 5\n    STRING: \"5\"\n    \
                        WORD: five\n  SIX: 6\n  FLOAT:\n    value: 10.0\n    GERMAN: \"10,0\"\n  \
                        NAME: judge\n";

    /// The format: `{{name}}` is `{{name.value}}`; a variant is its own
    /// text; numbers are written as YAML read them.
    #[test_case("{{FIVE}} {{FIVE.value}} {{FIVE.STRING}}", "5 5 5" ; "a value and its variants")]
    #[test_case("{{SIX}}{{SIX.value}}", "66" ; "a scalar is its value")]
    #[test_case("{{FLOAT}} {{FLOAT.GERMAN}}", "10.0 10,0" ; "a float as written")]
    #[test_case("hello {{NAME}}!", "hello judge!" ; "a string")]
    #[test_case("{{{FIVE}}}", "{5}" ; "a brace more on each side")]
    #[test_case("{{FIVE.WORD}}{{FIVE}}", "five5" ; "sequences side by side")]
    #[test_case("{{SEVEN}} {{FIVE.ROMAN}}", "{{SEVEN}} {{FIVE.ROMAN}}" ; "undefined names stay")]
    #[test_case("{{ FIVE }} {{FIVE.}} {{5}} {FIVE}", "{{ FIVE }} {{FIVE.}} {{5}} {FIVE}" ; "no sequences")]
    #[test_case("int a[1][1] = {{x}};", "int a[1][1] = {{x}};" ; "code that looks like one")]
    fn sequences_are_replaced_as_the_format_says(text: &str, replaced: &str) {
        assert_eq!(constants(BAPC).unwrap().substitute(text), replaced);
    }

    #[test]
    fn undefined_sequences_are_found_with_their_lines_and_none_without_constants() {
        let found = constants(BAPC)
            .unwrap()
            .undefined("{{FIVE}}\nx {{SEVEN}}\n\n{{FIVE.ROMAN}} {{FIVE.WORD}}");
        assert_eq!(
            found,
            [
                Undefined {
                    line: 2,
                    sequence: "{{SEVEN}}".to_owned()
                },
                Undefined {
                    line: 4,
                    sequence: "{{FIVE.ROMAN}}".to_owned()
                },
            ]
        );
        let none = constants("name: x\n").unwrap();
        assert!(none.undefined("{{SEVEN}}").is_empty());
        assert_eq!(none.substitute("{{SEVEN}}"), "{{SEVEN}}");
    }

    #[test]
    fn bytes_that_are_not_text_are_left_alone() {
        let five = constants(BAPC).unwrap();
        let mut binary = b"{{FIVE}}".to_vec();
        binary.push(0xff);
        assert_eq!(five.substitute_bytes(binary.clone()), binary);
        assert_eq!(five.substitute_bytes(b"x={{FIVE}}".to_vec()), b"x=5");
    }

    #[test_case("constants: [a]\n", "line 1: `constants`: must be a map" ; "not a map")]
    #[test_case("constants:\n  1x: 5\n", "line 1: `constants`: `1x` is not a constant name" ; "a bad name")]
    #[test_case("constants:\n  k:\n    tex: 5\n", "line 2: `constants.k`: a map needs its `value`" ; "no value")]
    #[test_case("constants:\n  k:\n    value: 5\n    a-b: 6\n", "line 2: `constants.k`: `a-b` is not a variant name" ; "a bad variant name")]
    #[test_case("constants:\n  j: 1\n  k:\n    value: 5\n    tex: [5]\n", "line 5: `constants.k.tex`: `k.tex` is a list" ; "a list variant")]
    #[test_case("constants:\n  k: true\n", "line 2: `constants.k`: `k.value` is a boolean" ; "a boolean")]
    #[test_case("constants:\n  k:\n", "line 2: `constants.k`: `k.value` is empty" ; "nothing")]
    fn a_bad_constant_names_the_file_its_line_and_key(yaml: &str, wanted: &str) {
        let message = constants(yaml).unwrap_err();
        assert!(message.contains("problem.yaml"), "{message}");
        assert!(message.contains(wanted), "{message}");
    }
}
