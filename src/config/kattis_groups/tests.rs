//! Reading `testdata.yaml` and `test_group.yaml`: the trees they give and
//! the errors that name the file, the line and the keys allowed.

use super::*;

fn package(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        let path = dir.path().join(name);
        fs_err::create_dir_all(path.parent().unwrap()).unwrap();
        fs_err::write(path, text).unwrap();
    }
    dir
}

const TESTS: [&str; 4] = ["sample/1", "secret/g1/1", "secret/g1/2", "secret/g2/1"];

/// The settings files of a 2025-09 package in `dir`, without constants.
fn settings(dir: &tempfile::TempDir) -> SettingsFiles<'_> {
    SettingsFiles {
        dir: dir.path(),
        format: FormatVersion::V2025_09,
        constants: Constants::none(),
        scoring: false,
    }
}

fn group<'a>(tree: &'a TestGroup, name: &str) -> &'a TestGroup {
    tree.groups()
        .into_iter()
        .find(|group| group.name == name)
        .unwrap_or_else(|| panic!("no group {name}"))
}

#[test]
fn legacy_files_rule_their_folder_and_those_below() {
    let dir = package(&[
        ("data/sample/testdata.yaml", "accept_score: 0\n"),
        (
            "data/secret/testdata.yaml",
            "grader_flags: first_error accept_if_any_accepted\n",
        ),
        (
            "data/secret/g1/testdata.yaml",
            "on_reject: break\naccept_score: 50\nrange: 0 50\ngrader_flags: min\n",
        ),
    ]);
    let tree = read_groups(&settings(&dir), &TESTS, true).unwrap().unwrap();
    assert_eq!(tree.style, ScoringStyle::Legacy);
    let g1 = group(&tree.root, "secret/g1");
    assert_eq!(g1.rules.aggregation, Aggregation::Min);
    assert_eq!(g1.rules.accept_score, Some(50.0));
    assert_eq!(g1.rules.range, Some((0.0, 50.0)));
    // No file of its own: `secret`'s, whole.
    let g2 = group(&tree.root, "secret/g2");
    assert!(g2.rules.accept_if_any_accepted);
    assert_eq!(g2.rules.aggregation, Aggregation::Sum);
    assert_eq!(g2.rules.verdict_mode, VerdictMode::FirstError);
    assert_eq!(group(&tree.root, "sample").rules.accept_score, Some(0.0));
    assert_eq!(tree.root.test_names(), TESTS.to_vec());
}

#[test]
fn a_pass_fail_package_checks_its_files_and_has_no_tree() {
    let dir = package(&[("data/secret/testdata.yaml", "on_reject: continue\n")]);
    assert_eq!(read_groups(&settings(&dir), &TESTS, false).unwrap(), None);
}

#[test]
fn an_unknown_key_names_its_file_line_and_the_keys_allowed() {
    let dir = package(&[("data/secret/testdata.yaml", "on_reject: break\nscore: 5\n")]);
    let message = read_groups(&settings(&dir), &TESTS, true)
        .unwrap_err()
        .to_string();
    assert!(message.contains("data/secret/testdata.yaml"), "{message}");
    assert!(message.contains("line 2"), "{message}");
    assert!(message.contains("unknown field `score`"), "{message}");
    assert!(message.contains("`accept_score`"), "{message}");
}

#[test]
fn bad_values_name_their_key_and_line() {
    for (text, wanted) in [
        (
            "on_reject: stop\n",
            "`stop` is neither `break` nor `continue`",
        ),
        (
            "grader_flags: min best\n",
            "`best` is not a flag of the default grader",
        ),
        ("range: 0\n", "is not two numbers"),
        ("range: 5 1\n", "the low end is above the high end"),
        ("grading: custom\n", "custom graders are not supported"),
    ] {
        let dir = package(&[("data/secret/testdata.yaml", text)]);
        let message = read_groups(&settings(&dir), &TESTS, true)
            .unwrap_err()
            .to_string();
        assert!(message.contains(wanted), "{text}: {message}");
        assert!(message.contains("line 1"), "{text}: {message}");
    }
}

#[test]
fn current_groups_read_max_score_aggregation_and_require_pass() {
    let dir = package(&[
        (
            "data/secret/g1/test_group.yaml",
            "max_score: 40\nscore_aggregation: min\n",
        ),
        (
            "data/secret/g2/test_group.yaml",
            "max_score: 60\nrequire_pass: [sample, secret/g1]\n",
        ),
    ]);
    let tree = read_groups(&settings(&dir), &TESTS, true).unwrap().unwrap();
    assert_eq!(tree.style, ScoringStyle::Current);
    let secret = group(&tree.root, "secret");
    assert_eq!(secret.rules.max_score, Some(100.0));
    assert_eq!(secret.rules.aggregation, Aggregation::Sum);
    let g1 = group(&tree.root, "secret/g1");
    assert_eq!(
        (g1.rules.aggregation, g1.rules.max_score),
        (Aggregation::Min, Some(40.0))
    );
    assert_eq!(g1.rules.on_reject, OnReject::Break);
    let g2 = group(&tree.root, "secret/g2");
    assert_eq!(g2.rules.aggregation, Aggregation::PassFail);
    assert_eq!(g2.rules.require_pass, vec!["sample", "secret/g1"]);
}

#[test]
fn current_files_are_refused_where_the_format_refuses_them() {
    for (files, wanted) in [
        (
            vec![("data/sample/test_group.yaml", "max_score: 5\n")],
            "is not allowed in `data/sample`",
        ),
        (
            vec![("data/secret/g1/test_group.yaml", "score_aggregation: min\n")],
            "needs a `max_score`",
        ),
        (
            vec![("data/secret/g1/test_group.yaml", "max_score: unbounded\n")],
            "`unbounded` scores are not supported",
        ),
        (
            vec![(
                "data/secret/g1/test_group.yaml",
                "max_score: 50\nrequire_pass: secret/g2\n",
            )],
            "does not come before",
        ),
        (
            vec![
                ("data/secret/g1/test_group.yaml", "max_score: 50\n"),
                (
                    "data/secret/g2/test_group.yaml",
                    "max_score: 50\nrequire_pass: g1\n",
                ),
            ],
            "line 2: `require_pass`: `g1` is no test group",
        ),
        (
            // A name that is no group's path is no group, not out of order.
            vec![
                ("data/secret/g1/test_group.yaml", "max_score: 50\n"),
                (
                    "data/secret/g2/test_group.yaml",
                    "max_score: 50\nrequire_pass: tiebreak\n",
                ),
            ],
            "line 2: `require_pass`: `tiebreak` is no test group of the package (`sample` or \
             `secret/GROUP` holding tests)",
        ),
        (
            vec![(
                "data/secret/g1/test_group.yaml",
                "max_score: 50\nweight: 2\n",
            )],
            "unknown field `weight`",
        ),
        (
            vec![
                ("data/secret/g1/test_group.yaml", "max_score: 50\n"),
                ("data/secret/g2/testdata.yaml", "on_reject: continue\n"),
            ],
            "not both",
        ),
    ] {
        let dir = package(&files);
        let message = read_groups(&settings(&dir), &TESTS, true)
            .unwrap_err()
            .to_string();
        assert!(message.contains(wanted), "{files:?}: {message}");
    }
}

/// See: issue #34, item 2. `data/test_group.yaml` is allowed (BAPCtools'
/// `fltcmp` sets its output validator's arguments there), and a pass-fail
/// package's group files set arguments without any scoring key.
#[test]
fn a_pass_fail_package_may_have_test_group_files_anywhere_the_spec_allows() {
    let dir = package(&[
        (
            "data/test_group.yaml",
            "output_validator_args: [float_tolerance, \"1E-6\"]\n",
        ),
        (
            "data/sample/test_group.yaml",
            "output_visualizer_args: [--draw]\n",
        ),
        (
            "data/secret/g1/test_group.yaml",
            "input_validator_args: [a]\n",
        ),
        ("data/secret/g2/test_group.yaml", "full_feedback: true\n"),
        (
            "data/invalid_input/test_group.yaml",
            "input_validator_args: [b]\n",
        ),
        ("data/valid_output/deep/test_group.yaml", ""),
    ]);
    assert_eq!(read_groups(&settings(&dir), &TESTS, false).unwrap(), None);
    // Scoring keys stay a scoring problem's.
    let dir = package(&[("data/secret/g1/test_group.yaml", "max_score: 5\n")]);
    let message = read_groups(&settings(&dir), &TESTS, false)
        .unwrap_err()
        .to_string();
    assert!(message.contains("only in a scoring problem"), "{message}");
}

/// See: issue #34, item 2. A folder of `secret` is a test data group when
/// it holds a `test_group.yaml`; without any, its tests are `secret`'s.
#[test]
fn folders_of_secret_without_settings_are_no_groups() {
    let dir = package(&[("data/secret/test_group.yaml", "max_score: 10\n")]);
    let tree = read_groups(&settings(&dir), &TESTS, true).unwrap().unwrap();
    let secret = group(&tree.root, "secret");
    assert_eq!(secret.rules.max_score, Some(10.0));
    assert!(
        secret
            .children
            .iter()
            .all(|child| matches!(child, GroupNode::Test(_))),
        "{secret:?}"
    );
    assert_eq!(tree.root.test_names(), TESTS.to_vec());
    // Tests directly in `secret` and in its folders, no groups: allowed.
    let tests = ["secret/1", "secret/a/2"];
    let dir = package(&[("data/test_group.yaml", "")]);
    let tree = read_groups(&settings(&dir), &tests, true).unwrap().unwrap();
    assert_eq!(tree.root.test_names(), tests.to_vec());
}

#[test]
fn test_group_files_out_of_place_and_mixed_secrets_are_refused() {
    for (files, tests, wanted) in [
        (
            vec![("data/secret/g1/deep/test_group.yaml", "")],
            TESTS.to_vec(),
            "data/secret/g1/deep/test_group.yaml`: `test_group.yaml`: is inside \
             `data/secret/g1`, which is no test data group",
        ),
        (
            vec![
                ("data/secret/g1/test_group.yaml", ""),
                ("data/secret/g1/deep/test_group.yaml", ""),
            ],
            TESTS.to_vec(),
            "data/secret/g1/deep/test_group.yaml`: `test_group.yaml`: is inside the test data \
             group `secret/g1`; a group may hold folders but no further groups",
        ),
        (
            vec![("data/sample/deep/test_group.yaml", "")],
            TESTS.to_vec(),
            "is inside `data/sample`, which holds no test data groups",
        ),
        (
            vec![("data/other/test_group.yaml", "")],
            TESTS.to_vec(),
            "is allowed only in `data/sample`, `data/secret`",
        ),
        (
            vec![
                ("data/secret/g1/test_group.yaml", "max_score: 50\n"),
                ("data/secret/g2/test_group.yaml", "max_score: 50\n"),
                ("data/secret/g3/test_group.yaml", "max_score: 50\n"),
            ],
            TESTS.to_vec(),
            "data/secret/g3/test_group.yaml`: `test_group.yaml`: makes `data/secret/g3` a test \
             data group, but it holds no test case",
        ),
        (
            vec![("data/secret/test_group.yaml", "")],
            vec!["sample/1", "secret/a/test_group"],
            "data/secret/a/test_group.in`: `test case`: is named `test_group`",
        ),
        (
            vec![("data/secret/huge/x", "")],
            vec!["sample/1", "secret/huge"],
            "data/secret/huge.in`: `test case`: has the name of the folder `data/secret/huge`",
        ),
        (
            vec![("data/secret/g1/test_group.yaml", "max_score: 50\n")],
            TESTS.to_vec(),
            "data/secret/g2`: `secret`: is a folder of `data/secret` without a `test_group.yaml`, \
             but `data/secret/g1` is a test data group",
        ),
        (
            vec![("data/secret/g1/test_group.yaml", "max_score: 50\n")],
            vec!["secret/g1/1", "secret/2"],
            "data/secret/2.in`: `secret`: is a test directly in `data/secret`",
        ),
        (
            vec![("data/test_group.yaml", "max_score: 50\n")],
            TESTS.to_vec(),
            "is not allowed in `data`; it belongs to `data/secret`",
        ),
        (
            vec![("data/invalid_input/test_group.yaml", "score: 1\n")],
            TESTS.to_vec(),
            "unknown field `score`",
        ),
    ] {
        let dir = package(&files);
        let message = read_groups(&settings(&dir), &tests, true)
            .unwrap_err()
            .to_string();
        assert!(message.contains(wanted), "{files:?}: {message}");
    }
}

#[test]
fn a_range_is_two_ordered_numbers_and_says_what_is_wrong() {
    assert_eq!(parse_range("0 inf"), Ok((0.0, f64::INFINITY)));
    assert_eq!(parse_range("-inf 3"), Ok((f64::NEG_INFINITY, 3.0)));
    let rows = [
        ("0 x", "`x` is not a number"),
        ("1", "`1` is not two numbers (`LOW HIGH`)"),
        ("3 1", "`3 1`: the low end is above the high end"),
    ];
    for (text, message) in rows {
        assert_eq!(
            parse_range(text).map_err(|error| error.to_string()),
            Err(message.to_owned()),
            "{text}"
        );
    }
}

/// See: issue #34, item 2. A 2025-09 scoring package without any
/// `test_group.yaml` has the format's defaults: `secret` sums its tests to
/// 100, the samples score nothing; an older one, the legacy defaults.
#[test]
fn a_2025_09_package_without_files_has_the_formats_default_groups() {
    let dir = package(&[("data/secret/g1/1.in", "")]);
    let tree = read_groups(&settings(&dir), &TESTS, true).unwrap().unwrap();
    assert_eq!(tree.style, ScoringStyle::Current);
    let secret = group(&tree.root, "secret");
    assert_eq!(
        (secret.rules.aggregation, secret.rules.max_score),
        (Aggregation::Sum, Some(100.0))
    );
    assert_eq!(tree.root.test_names(), TESTS.to_vec());
    let legacy = SettingsFiles {
        format: FormatVersion::Draft2023_07,
        ..settings(&dir)
    };
    let tree = read_groups(&legacy, &TESTS, true).unwrap().unwrap();
    assert_eq!(tree.style, ScoringStyle::Legacy);
}

/// See: issue #34 (break-it 9). A group's bare name that sorts after the
/// group naming it (`subtask1` in `secret/subtask2`) is said to be no group,
/// with the path it takes; a name that is no group's, with no guess.
#[test]
fn a_groups_bare_name_in_require_pass_is_named_with_its_path() {
    let tests = ["secret/subtask1/1", "secret/subtask2/1"];
    for (required, wanted) in [
        (
            "subtask1",
            "line 2: `require_pass`: `subtask1` is no test group of the package (`sample` or \
             `secret/GROUP` holding tests); a group is named by its path from `data/`: did you \
             mean `secret/subtask1`?",
        ),
        (
            "nosuch",
            "`nosuch` is no test group of the package (`sample` or `secret/GROUP` holding \
             tests)\n",
        ),
    ] {
        let dir = package(&[
            ("data/secret/subtask1/test_group.yaml", "max_score: 50\n"),
            (
                "data/secret/subtask2/test_group.yaml",
                &format!("max_score: 50\nrequire_pass: {required}\n"),
            ),
        ]);
        let message = format!(
            "{}\n",
            read_groups(&settings(&dir), &tests, true)
                .unwrap_err()
                .to_string()
                .trim_end()
        );
        assert!(message.contains(wanted), "{required}: {message}");
    }
}
