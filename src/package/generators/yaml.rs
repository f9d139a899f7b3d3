//! `generators/generators.yaml` as written: the serde model of its keys
//! and the visitors that tell its two shapes apart (a test case or a
//! directory), each refusing an unknown key or a bad value at its line.
//!
//! Not responsible for what the tree means (names, numbering, includes,
//! seeds): [`super::plan`] turns the model into the cases to make.

use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use std::fmt;

/// A directory or a test case, as written: the keys of both, told apart
/// afterwards by which are present (BAPCtools: a map with any of `copy`,
/// `generate`, `count`, `match` or a file extension is a test case).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(expecting = "a map of a directory's or a test case's keys")]
pub(crate) struct RawEntry {
    // A directory's keys.
    pub(crate) data: Option<RawData>,
    pub(crate) include: Option<Vec<String>>,
    /// `Some(Null)`: the key is there and empty.
    #[serde(rename = "test_group.yaml", default, deserialize_with = "present")]
    pub(crate) test_group_yaml: Option<serde_norway::Value>,
    // Inherited by everything below.
    /// `Some(None)`: `solution:` left empty, no `.ans` is made.
    #[serde(default, deserialize_with = "present")]
    pub(crate) solution: Option<Option<String>>,
    pub(crate) random_salt: Option<String>,
    pub(crate) retries: Option<Retries>,
    // A test case's keys.
    pub(crate) generate: Option<String>,
    pub(crate) copy: Option<String>,
    pub(crate) count: Option<Count>,
    #[serde(rename = "match")]
    pub(crate) patterns: Option<serde_norway::Value>,
    #[serde(rename = "in")]
    pub(crate) input: Option<FileText>,
    pub(crate) ans: Option<FileText>,
    pub(crate) out: Option<FileText>,
    pub(crate) yaml: Option<serde_norway::Value>,
    pub(crate) interaction: Option<FileText>,
    #[serde(rename = "in.statement")]
    pub(crate) in_statement: Option<serde_norway::Value>,
    #[serde(rename = "ans.statement")]
    pub(crate) ans_statement: Option<serde_norway::Value>,
    #[serde(rename = "in.download")]
    pub(crate) in_download: Option<serde_norway::Value>,
    #[serde(rename = "ans.download")]
    pub(crate) ans_download: Option<serde_norway::Value>,
    // The root's keys.
    pub(crate) generators: Option<serde_norway::Mapping>,
    pub(crate) version: Option<serde_norway::Value>,
    /// Deprecated by BAPCtools; read and ignored with a note.
    pub(crate) visualizer: Option<serde_norway::Value>,
    pub(crate) gitignore_generated: Option<serde_norway::Value>,
    pub(crate) parallel: Option<serde_norway::Value>,
}

impl RawEntry {
    /// Whether the entry is a test case: it has a key only a test case has.
    pub(crate) fn is_test_case(&self) -> bool {
        self.generate.is_some()
            || self.copy.is_some()
            || self.count.is_some()
            || self.patterns.is_some()
            || self.input.is_some()
            || self.ans.is_some()
            || self.out.is_some()
            || self.yaml.is_some()
            || self.interaction.is_some()
            || self.in_statement.is_some()
            || self.ans_statement.is_some()
            || self.in_download.is_some()
            || self.ans_download.is_some()
    }
}

/// A key that is there, even when its value is empty.
fn present<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    T::deserialize(deserializer).map(Some)
}

/// The contents of a file written from the yaml (`in: 1 2`): a string.
/// BAPCtools refuses numbers here ("values must be strings, so `1` is
/// wrapped in quotes"), so a number is an error at its line.
#[derive(Debug)]
pub(crate) struct FileText(pub(crate) String);

impl<'de> Deserialize<'de> for FileText {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct TextVisitor;
        impl Visitor<'_> for TextVisitor {
            type Value = FileText;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string (quote a number: `ans: \"1\"`)")
            }
            fn visit_str<E: de::Error>(self, text: &str) -> Result<FileText, E> {
                Ok(FileText(text.to_owned()))
            }
        }
        deserializer.deserialize_any(TextVisitor)
    }
}

/// `retries: N`, N at least 1.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Retries(pub(crate) u32);

impl<'de> Deserialize<'de> for Retries {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = u32::deserialize(deserializer)?;
        if value == 0 {
            return Err(de::Error::custom("`retries` must be at least 1"));
        }
        Ok(Retries(value))
    }
}

/// `count:` as BAPCtools reads it: `N` (1 to 100: the values 1..=N), a
/// list of distinct integers, or an inclusive range `A..=B` of at most 100.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Count(pub(crate) Vec<i64>);

/// The most test cases one `count` makes (BAPCtools' bound).
const MAX_COUNT: usize = 100;

impl<'de> Deserialize<'de> for Count {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct CountVisitor;
        impl<'de> Visitor<'de> for CountVisitor {
            type Value = Count;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(
                    "a number of test cases (1 to 100), a list of integers or a range `A..=B`",
                )
            }
            fn visit_i64<E: de::Error>(self, count: i64) -> Result<Count, E> {
                if !(1..=MAX_COUNT as i64).contains(&count) {
                    return Err(E::custom(format!(
                        "invalid count {count}: must be between 1 and {MAX_COUNT}"
                    )));
                }
                Ok(Count((1..=count).collect()))
            }
            fn visit_u64<E: de::Error>(self, count: u64) -> Result<Count, E> {
                self.visit_i64(i64::try_from(count).unwrap_or(i64::MAX))
            }
            fn visit_str<E: de::Error>(self, text: &str) -> Result<Count, E> {
                parse_range(text).map_err(E::custom)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Count, A::Error> {
                let mut values = Vec::new();
                while let Some(value) = seq.next_element::<i64>()? {
                    if values.contains(&value) {
                        return Err(de::Error::custom(format!(
                            "invalid count list: {value} is there twice"
                        )));
                    }
                    values.push(value);
                }
                if values.is_empty() || values.len() > MAX_COUNT {
                    return Err(de::Error::custom(format!(
                        "invalid count list: must hold 1 to {MAX_COUNT} integers"
                    )));
                }
                Ok(Count(values))
            }
        }
        deserializer.deserialize_any(CountVisitor)
    }
}

/// `A..=B` (Rust's inclusive range, as BAPCtools writes it).
fn parse_range(text: &str) -> Result<Count, String> {
    let refuse = || format!("invalid count expression `{text}`: expected a range like `-4..=5`");
    let (low, high) = text.trim().split_once("..=").ok_or_else(refuse)?;
    let low: i64 = low.parse().map_err(|_| refuse())?;
    let high: i64 = high.parse().map_err(|_| refuse())?;
    if low > high {
        return Err(format!(
            "invalid count range `{text}`: the start {low} is after the end {high}"
        ));
    }
    if high.saturating_sub(low) >= MAX_COUNT as i64 {
        return Err(format!(
            "count range `{text}` is too large: more than {MAX_COUNT} test cases"
        ));
    }
    Ok(Count((low..=high).collect()))
}

/// A value under `data:`: a command (`name: gen.py 3`), nothing (an
/// error, later, naming the key), or a map (a test case or a directory).
#[derive(Debug)]
pub(crate) enum RawNode {
    Command(String),
    Empty,
    Entry(Box<RawEntry>),
}

impl<'de> Deserialize<'de> for RawNode {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct NodeVisitor;
        impl<'de> Visitor<'de> for NodeVisitor {
            type Value = RawNode;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a command, a test case or a directory")
            }
            fn visit_str<E: de::Error>(self, text: &str) -> Result<RawNode, E> {
                Ok(RawNode::Command(text.to_owned()))
            }
            fn visit_unit<E: de::Error>(self) -> Result<RawNode, E> {
                Ok(RawNode::Empty)
            }
            fn visit_none<E: de::Error>(self) -> Result<RawNode, E> {
                Ok(RawNode::Empty)
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<RawNode, A::Error> {
                RawEntry::deserialize(de::value::MapAccessDeserializer::new(map))
                    .map(|entry| RawNode::Entry(Box::new(entry)))
            }
        }
        deserializer.deserialize_any(NodeVisitor)
    }
}

/// `data:` as written: a map (`numbered: false`), or a list of one-key
/// maps whose entries are numbered in order.
#[derive(Debug, Default)]
pub(crate) struct RawData {
    pub(crate) numbered: bool,
    /// `(key, value)` in the order written; a `~` key is `None`.
    pub(crate) entries: Vec<(Option<String>, RawNode)>,
}

impl<'de> Deserialize<'de> for RawData {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Entries(Vec<(Option<String>, RawNode)>);
        impl<'de> Deserialize<'de> for Entries {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                struct MapVisitor;
                impl<'de> Visitor<'de> for MapVisitor {
                    type Value = Entries;
                    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                        f.write_str("a map of test case and group names")
                    }
                    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Entries, A::Error> {
                        let mut entries: Vec<(Option<String>, RawNode)> = Vec::new();
                        while let Some(key) = map.next_key::<Option<String>>()? {
                            if entries.iter().any(|(known, _)| *known == key) {
                                return Err(de::Error::custom(format!(
                                    "the key `{}` is there twice",
                                    key.unwrap_or_default()
                                )));
                            }
                            let value = map.next_value::<RawNode>()?;
                            entries.push((key, value));
                        }
                        Ok(Entries(entries))
                    }
                }
                deserializer.deserialize_map(MapVisitor)
            }
        }
        struct DataVisitor;
        impl<'de> Visitor<'de> for DataVisitor {
            type Value = RawData;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a map of test cases and groups, or a list of one-entry maps")
            }
            fn visit_unit<E: de::Error>(self) -> Result<RawData, E> {
                Ok(RawData::default())
            }
            fn visit_none<E: de::Error>(self) -> Result<RawData, E> {
                Ok(RawData::default())
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<RawData, A::Error> {
                let Entries(entries) =
                    Entries::deserialize(de::value::MapAccessDeserializer::new(map))?;
                Ok(RawData {
                    numbered: false,
                    entries,
                })
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<RawData, A::Error> {
                let mut entries = Vec::new();
                while let Some(Entries(item)) = seq.next_element::<Entries>()? {
                    if item.len() != 1 {
                        return Err(de::Error::custom(format!(
                            "a numbered entry holds exactly one test case or group, found {} \
                             keys (indent a test case's keys one level more)",
                            item.len()
                        )));
                    }
                    entries.extend(item);
                }
                Ok(RawData {
                    numbered: true,
                    entries,
                })
            }
        }
        deserializer.deserialize_any(DataVisitor)
    }
}

/// A yaml that could not be read: where, and why.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Refusal {
    pub(crate) position: Option<(usize, usize)>,
    pub(crate) message: String,
}

/// The root of `generators.yaml`.
pub(crate) fn parse(text: &str) -> Result<RawEntry, Refusal> {
    if text.trim().is_empty() {
        return Ok(RawEntry::default());
    }
    serde_norway::from_str::<RawEntry>(text).map_err(|error| Refusal {
        position: error
            .location()
            .map(|location| (location.line(), location.column())),
        message: crate::config::kattis_yaml::without_location(&error.to_string()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use test_case::test_case;

    #[test_case("data:\n  sample:\n    data:\n      a:\n        generat: x.py\n",
                5, "unknown field `generat`" ; "a misspelt key names its line")]
    #[test_case("data:\n  secret:\n    data:\n      a:\n        generate: x.py\n        count: 0\n",
                6, "invalid count 0" ; "a count of zero")]
    #[test_case("data:\n  secret:\n    data:\n      a:\n        generate: x.py\n        count: 3..=1\n",
                6, "the start 3 is after the end 1" ; "a backward range")]
    #[test_case("data:\n  secret:\n    data:\n      a:\n        in: 1\n",
                5, "expected a string" ; "a number as a file's contents")]
    #[test_case("data:\n  secret:\n    data:\n      - a: x.py\n        b: y.py\n",
                4, "exactly one test case or group" ; "two keys in a numbered entry")]
    #[test_case("retries: 0\n", 1, "at least 1" ; "no retries")]
    fn refuses_at_the_line(text: &str, line: usize, reason: &str) {
        let refusal = parse(text).unwrap_err();
        assert_eq!(
            refusal.position.map(|(line, _)| line),
            Some(line),
            "{refusal:?}"
        );
        assert!(refusal.message.contains(reason), "{refusal:?}");
    }

    #[test_case(serde_norway::from_str::<Count>("3").unwrap(), &[1, 2, 3] ; "a number")]
    #[test_case(serde_norway::from_str::<Count>("[7, -3]").unwrap(), &[7, -3] ; "a list")]
    #[test_case(serde_norway::from_str::<Count>("-2..=1").unwrap(), &[-2, -1, 0, 1] ; "a range")]
    fn reads_counts(count: Count, values: &[i64]) {
        assert_eq!(count.0, values);
    }

    #[test]
    fn tells_a_test_case_from_a_directory() {
        let root = parse("data:\n  sample:\n    data:\n      - '': {in: '1'}\n").unwrap();
        let data = root.data.unwrap();
        let RawNode::Entry(sample) = &data.entries[0].1 else {
            panic!("sample is a map")
        };
        assert!(!sample.is_test_case());
        let inner = sample.data.as_ref().unwrap();
        assert!(inner.numbered);
        let RawNode::Entry(case) = &inner.entries[0].1 else {
            panic!("the case is a map")
        };
        assert!(case.is_test_case());
    }
}
