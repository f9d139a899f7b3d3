//! Tests of [`super`]: every format version read into one model.
use super::*;

fn refusal(text: &str) -> String {
    match parse(text).unwrap_err() {
        YamlRefusal::Parse {
            position: Some((line, _)),
            message,
        } => format!("line {line}: {message}"),
        YamlRefusal::Parse { message, .. } => message,
        YamlRefusal::Invalid { key, message } => format!("{key}: {message}"),
    }
}

#[test]
fn every_version_is_read_into_one_model() {
    let legacy = parse(
        "name: Sum\nvalidation: custom interactive\nlimits:\n  time_multiplier: 3\n  \
         time_safety_margin: 4\n  memory: 512\nkeywords: graph easy\ngrading:\n  on_reject: \
         worst_error\n",
    )
    .unwrap();
    assert_eq!(legacy.format, FormatVersion::Legacy);
    assert!(legacy.is(ProblemType::Interactive) && legacy.is(ProblemType::PassFail));
    assert_eq!(legacy.limits.ac_to_time_limit(legacy.format), 3.0);
    assert_eq!(legacy.limits.time_limit_to_tle, Some(4.0));
    assert_eq!(legacy.keywords, ["graph", "easy"]);
    assert!(legacy.grading.is_some());

    let draft = parse(
        "problem_format_version: 2023-07-draft\nname:\n  en: Guess\n  sv: Gissa\ntype: \
         interactive\nuuid: 4b2e1f57-1a3c-4c1e-9d51-0d6b2a1f0c11\nlimits:\n  \
         time_multipliers:\n    time_limit_to_tle: 4\n",
    )
    .unwrap();
    assert_eq!(draft.format, FormatVersion::Draft2023_07);
    assert_eq!(draft.title().as_deref(), Some("Guess"));
    assert_eq!(draft.limits.time_limit_to_tle, Some(4.0));
    assert_eq!(draft.limits.ac_to_time_limit(draft.format), 2.0);

    let current = parse(
        "problem_format_version: 2025-09\nname: Echo\ntype: [scoring, multi-pass]\n\
         source:\n  - name: A Cup\n    url: https://cup.example\n  - Another\ncredits: Ann \
         <ann@example.com>\nlicense: cc by-sa\nkeywords: [strings]\nlanguages: [cpp, \
         python3]\nlimits:\n  time_limit: 2.5\n  time_resolution: 0.5\n  \
         validation_passes: 3\n  memory: 1024\nallow_file_writing: true\nconstants:\n  \
         max_n: 100\n",
    )
    .unwrap();
    assert_eq!(current.format, FormatVersion::V2025_09);
    assert_eq!(
        current.types,
        BTreeSet::from([ProblemType::Scoring, ProblemType::MultiPass])
    );
    assert_eq!(current.source_name().as_deref(), Some("A Cup"));
    assert_eq!(current.limits.validation_passes, Some(3));
    assert_eq!(
        current.languages,
        Some(vec!["cpp".to_owned(), "python3".to_owned()])
    );
}

#[test]
fn a_key_outside_the_versions_spec_names_its_line_and_the_allowed_keys() {
    // `validation` is legacy only.
    let message = refusal("problem_format_version: 2025-09\nname: A\nvalidation: custom\n");
    assert!(
        message.starts_with("line 3: unknown field `validation`"),
        "{message}"
    );
    assert!(message.contains("expected one of"), "{message}");
    assert!(message.contains("`allow_file_writing`"), "{message}");
    assert!(
        message.contains("problem_format_version `2025-09`"),
        "{message}"
    );
    // `time_multipliers` is not legacy.
    let message = refusal("name: A\nlimits:\n  time_multipliers:\n    ac_to_time_limit: 2\n");
    assert!(
        message.starts_with("line 3: limits: unknown field `time_multipliers`"),
        "{message}"
    );
    assert!(message.contains("`time_safety_margin`"), "{message}");
    let message = refusal("problem_format_version: 2023-07-draft\nlimits:\n  time_multiplier: 2\n");
    assert!(
        message.starts_with("line 3: limits: unknown field `time_multiplier`"),
        "{message}"
    );
}

#[test]
fn bad_values_are_refused_with_their_key() {
    for (text, expected) in [
        (
            "problem_format_version: 2031-01\n",
            "problem_format_version: `2031-01` is not",
        ),
        (
            "type: interactive\n",
            "type: `interactive` is not a type of the legacy format",
        ),
        (
            "validation: custom fancy\n",
            "validation: `fancy` is not a word",
        ),
        (
            "problem_format_version: 2025-09\ntype: [pass-fail, scoring]\n",
            "type: `pass-fail` and `scoring` cannot both",
        ),
        (
            "problem_format_version: 2025-09\ntype: [submit-answer, interactive]\n",
            "type: `submit-answer` and `interactive` cannot both be",
        ),
        (
            "problem_format_version: 2025-09\ntype: []\n",
            "type: is an empty list",
        ),
        (
            "problem_format_version: 2025-09\nlimits:\n  validation_passes: 3\n",
            "validation_passes: applies only to a problem of type `multi-pass`",
        ),
        ("license: mine\n", "license: `mine` is not a license"),
        ("uuid: 12\n", "uuid: `12` is not a UUID"),
        (
            "limits:\n  time_limit: 0\n",
            "time_limit: must be a number of seconds above 0",
        ),
    ] {
        let message = refusal(text);
        assert!(message.starts_with(expected), "{text}: {message}");
    }
}

#[test]
fn an_empty_file_is_a_legacy_pass_fail_problem() {
    let yaml = parse("\n").unwrap();
    assert_eq!(yaml.format, FormatVersion::Legacy);
    assert_eq!(yaml.types, BTreeSet::from([ProblemType::PassFail]));
}
