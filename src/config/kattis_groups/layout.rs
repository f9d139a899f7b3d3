//! Where a 2025-09 package's `test_group.yaml` files are, and so which of
//! them a test's validator arguments come from (issue #34): the one rule,
//! for loading a package and for checking the cases `generators.yaml`
//! makes, so a case the generators accept is checked the same way when it
//! is graded.
//!
//! The format allows a file in `data/sample`, `data/secret`, the test data
//! groups directly in `data/secret` and the validators' own test folders,
//! and with groups in `data/secret` every test there is in one; a test
//! gets its own group's file, then `data/test_group.yaml` (BAPCtools').
//! BAPCtools' own test problems (`divsort`, `generatorincludes`) go
//! further: files deeper in the tree, and folders of `data/secret` that
//! are no group beside ones that are. BAPCtools reads such a tree key by
//! key: a test's `input_validator_args` (or any other key) is that of the
//! nearest file at or above its folder that sets the key, up to
//! `data/test_group.yaml` (a map replacing the whole key, never merged
//! entry by entry; `bapctools/problem.py`, `get_test_group_yaml`, and
//! `test_case.py`, `TestGroup`). A pass-fail package laid out so is graded
//! with that rule and one warning; a scoring package is refused, since its
//! scores need the format's groups and BAPCtools scores nothing.
//!
//! Paths here are folders under `data/` written with `/`, `""` for `data`
//! itself; test names are paths under `data/` without extension.

use super::{folder_of, SELF_TEST_FOLDERS};
use std::collections::BTreeSet;

/// Which files a test's arguments come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Inheritance {
    /// 2025-09: the test's own group's file (`sample`, `secret`, its test
    /// data group, or in the validators' own tests its folder), then
    /// `data/test_group.yaml`.
    Format,
    /// BAPCtools': key by key, the nearest file at or above the test's
    /// folder that sets the key.
    Bapctools,
}

/// Whether 2025-09 allows a `test_group.yaml` in a folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Placement {
    Allowed,
    /// Deeper than the format allows, in a folder BAPCtools reads: why.
    Nested(String),
    /// Where no tool reads one (a folder of `data` the format does not
    /// name): why.
    Refused(String),
}

/// Where `data` deviates from the format's layout in a way BAPCtools reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Deviation {
    /// A `test_group.yaml` in `folder`, deeper than the format allows.
    Nested { folder: String },
    /// `path` (a test `secret/NAME.in`, or a folder `secret/NAME`) is in no
    /// test data group, though `group` is one.
    Ungrouped { path: String, group: String },
}

impl Deviation {
    /// The file or folder, under `data/`, and what is wrong with it.
    pub(crate) fn describe(&self) -> String {
        match self {
            Deviation::Nested { folder } => {
                format!("`data/{folder}/test_group.yaml` (deeper than 2025-09 allows)")
            }
            Deviation::Ungrouped { path, group } => format!(
                "`data/{path}` (in no test data group, though `data/{group}` is one, which \
                 2025-09 does not allow)"
            ),
        }
    }
}

/// The layout of a package's `test_group.yaml` files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Layout {
    pub(crate) inheritance: Inheritance,
    /// Every deviation, in path order: empty when the format's layout is
    /// kept.
    pub(crate) deviations: Vec<Deviation>,
}

impl Layout {
    /// The one warning for a package graded with BAPCtools' rule, naming
    /// every file and folder that makes it so.
    pub(crate) fn warning(&self) -> Option<String> {
        if self.inheritance != Inheritance::Bapctools {
            return None;
        }
        let named: Vec<String> = self.deviations.iter().map(Deviation::describe).collect();
        Some(format!(
            "{}: the 2025-09 format does not allow this layout of `test_group.yaml`; it is graded \
             with BAPCtools' inheritance: each validator argument key of a test comes from the \
             nearest `test_group.yaml` at or above its folder that sets it (a map replacing the \
             whole key), up to `data/test_group.yaml`",
            named.join(", ")
        ))
    }

    /// The folders whose file may set the arguments of the test `name`,
    /// nearest first; `has_file` says whether a folder holds a
    /// `test_group.yaml`.
    pub(crate) fn chain(&self, name: &str, has_file: &dyn Fn(&str) -> bool) -> Vec<String> {
        let mut chain = Vec::new();
        match self.inheritance {
            Inheritance::Format => {
                let own = own_group_folder(name, has_file);
                if !own.is_empty() {
                    chain.push(own);
                }
            }
            Inheritance::Bapctools => {
                let mut folder = folder_of(name);
                while !folder.is_empty() {
                    chain.push(folder.to_owned());
                    folder = folder_of(folder);
                }
            }
        }
        chain.push(String::new());
        chain
    }
}

/// The folder whose file holds for the test `name` under the format:
/// `sample`; `secret/GROUP` when the test is in a test data group;
/// `secret` otherwise; in the validators' own tests, the test's own folder.
/// As the format says, a file holds for the tests of its group alone:
/// `secret`'s does not reach the tests of its groups.
fn own_group_folder(name: &str, has_file: &dyn Fn(&str) -> bool) -> String {
    let parts: Vec<&str> = name.split('/').collect();
    match parts.as_slice() {
        ["secret", group, _, ..] if has_file(&format!("secret/{group}")) => {
            format!("secret/{group}")
        }
        [root @ ("sample" | "secret"), _, ..] => (*root).to_owned(),
        _ => folder_of(name).to_owned(),
    }
}

/// Whether the format allows a `test_group.yaml` in `folder`: in
/// `data/sample`, `data/secret`, a folder directly in `data/secret` (which
/// the file makes a test data group), any folder of the validators' own
/// tests, and `data` itself as BAPCtools reads it.
pub(crate) fn placement(folder: &str, has_file: &dyn Fn(&str) -> bool) -> Placement {
    let parts: Vec<&str> = folder.split('/').filter(|part| !part.is_empty()).collect();
    match parts.as_slice() {
        [] | ["sample"] | ["secret"] | ["secret", _] => Placement::Allowed,
        [first, ..] if SELF_TEST_FOLDERS.contains(first) => Placement::Allowed,
        ["sample", ..] => Placement::Nested(
            "is inside `data/sample`, which holds no test data groups; 2025-09 allows a \
             `test_group.yaml` in `data/sample` itself"
                .to_owned(),
        ),
        ["secret", group, ..] if has_file(&format!("secret/{group}")) => {
            Placement::Nested(format!(
                "is inside the test data group `secret/{group}`; a group may hold folders but \
                 no further groups (2025-09: no `test_group.yaml` below a group's)"
            ))
        }
        ["secret", folder, ..] => Placement::Nested(format!(
            "is inside `data/secret/{folder}`, which is no test data group (it has no \
             `test_group.yaml`); 2025-09 allows one in `data/secret` and in the folders directly \
             in it, which it makes test data groups, and no deeper"
        )),
        _ => Placement::Refused(
            "is allowed only in `data/sample`, `data/secret`, the test data groups directly in \
             `data/secret`, the folders of `data/invalid_input`, `data/invalid_answer`, \
             `data/invalid_output` and `data/valid_output`, and `data` itself"
                .to_owned(),
        ),
    }
}

/// The layout of `folders` (each holding a `test_group.yaml`) over the
/// tests `names`: BAPCtools' rule when a pass-fail package deviates from
/// the format's, else the format's. A folder the format refuses outright
/// ([`Placement::Refused`]) is the reader's to refuse, not a deviation.
pub(crate) fn layout<'a>(
    folders: &BTreeSet<String>,
    names: impl IntoIterator<Item = &'a str>,
    scoring: bool,
) -> Layout {
    let has_file = |folder: &str| folders.contains(folder);
    let mut deviations: Vec<Deviation> = folders
        .iter()
        .filter_map(|folder| match placement(folder, &has_file) {
            Placement::Nested(_) => Some(Deviation::Nested {
                folder: folder.clone(),
            }),
            Placement::Allowed | Placement::Refused(_) => None,
        })
        .collect();
    if let Some(group) = folders
        .iter()
        .find(|folder| folder.split('/').count() == 2 && folder.starts_with("secret/"))
    {
        let mut strays = BTreeSet::new();
        for name in names {
            let parts: Vec<&str> = name.split('/').collect();
            match parts.as_slice() {
                ["secret", _] => {
                    strays.insert(format!("{name}.in"));
                }
                ["secret", folder, _, ..] if !has_file(&format!("secret/{folder}")) => {
                    strays.insert(format!("secret/{folder}"));
                }
                _ => {}
            }
        }
        deviations.extend(strays.into_iter().map(|path| Deviation::Ungrouped {
            path,
            group: group.clone(),
        }));
    }
    let inheritance = if deviations.is_empty() || scoring {
        Inheritance::Format
    } else {
        Inheritance::Bapctools
    };
    Layout {
        inheritance,
        deviations,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folders(list: &[&str]) -> BTreeSet<String> {
        list.iter().map(|folder| (*folder).to_owned()).collect()
    }

    /// BAPCtools' `divsort`: files in folders of a folder of `secret` that
    /// is no group, beside groups.
    const DIVSORT: [&str; 6] = [
        "secret",
        "secret/integers",
        "secret/sorted",
        "secret/general/nested_1",
        "secret/general/nested_2",
        "secret/tolerant",
    ];

    const DIVSORT_TESTS: [&str; 5] = [
        "secret/integers/1-unsorted-integer",
        "secret/sorted/2-sorted-integer",
        "secret/general/nested_1/small_floats",
        "secret/general/nested_2/3-large_integers",
        "secret/tolerant/5-tiny_floats",
    ];

    #[test]
    fn a_pass_fail_package_with_nested_files_takes_bapctools_rule() {
        let found = layout(&folders(&DIVSORT), DIVSORT_TESTS, false);
        assert_eq!(found.inheritance, Inheritance::Bapctools);
        assert_eq!(
            found
                .deviations
                .iter()
                .map(Deviation::describe)
                .collect::<Vec<_>>(),
            [
                "`data/secret/general/nested_1/test_group.yaml` (deeper than 2025-09 allows)",
                "`data/secret/general/nested_2/test_group.yaml` (deeper than 2025-09 allows)",
                "`data/secret/general` (in no test data group, though `data/secret/integers` is \
                 one, which 2025-09 does not allow)",
            ]
        );
        let has_file = |folder: &str| DIVSORT.contains(&folder);
        assert_eq!(
            found.chain("secret/general/nested_2/3-large_integers", &has_file),
            ["secret/general/nested_2", "secret/general", "secret", ""]
        );
        let warning = found.warning().expect("a warning");
        assert!(warning.contains("nested_1/test_group.yaml"), "{warning}");
        assert!(warning.contains("BAPCtools' inheritance"), "{warning}");
    }

    #[test]
    fn a_scoring_package_keeps_the_format_rule_and_its_deviations() {
        let found = layout(&folders(&DIVSORT), DIVSORT_TESTS, true);
        assert_eq!(found.inheritance, Inheritance::Format);
        assert_eq!(found.deviations.len(), 3);
        assert_eq!(found.warning(), None);
    }

    #[test]
    fn the_format_layout_takes_the_own_group_then_data() {
        let list = ["", "secret", "secret/g1"];
        let found = layout(&folders(&list), ["secret/g1/a/1", "sample/1"], false);
        assert_eq!(found.inheritance, Inheritance::Format);
        assert!(found.deviations.is_empty());
        let has_file = |folder: &str| list.contains(&folder);
        assert_eq!(found.chain("secret/g1/a/1", &has_file), ["secret/g1", ""]);
        assert_eq!(found.chain("sample/1", &has_file), ["sample", ""]);
        assert_eq!(
            found.chain("invalid_input/x/1", &has_file),
            ["invalid_input/x", ""]
        );
    }

    #[test]
    fn a_folder_of_secret_without_a_file_beside_a_group_is_a_deviation() {
        // BAPCtools' `generatorincludes`.
        let found = layout(
            &folders(&["secret/1-small"]),
            [
                "secret/1-small/positive/1",
                "secret/2-general/3-lg",
                "secret/9",
            ],
            false,
        );
        assert_eq!(found.inheritance, Inheritance::Bapctools);
        assert_eq!(
            found.deviations,
            [
                Deviation::Ungrouped {
                    path: "secret/2-general".to_owned(),
                    group: "secret/1-small".to_owned()
                },
                Deviation::Ungrouped {
                    path: "secret/9.in".to_owned(),
                    group: "secret/1-small".to_owned()
                },
            ]
        );
    }

    #[test]
    fn a_file_in_a_folder_the_format_does_not_name_is_refused_not_a_deviation() {
        let found = layout(&folders(&["extra"]), ["secret/1"], false);
        assert!(found.deviations.is_empty());
        assert!(matches!(
            placement("extra", &|_| false),
            Placement::Refused(_)
        ));
    }
}
