//! The legacy and 2023-07 `testdata.yaml`: every folder a group, ruled by
//! the nearest file at or above it, and the `range` it may give.

use super::*;

/// Legacy: every folder is a group, ruled by the nearest `testdata.yaml`
/// at or above it (the whole file; defaults for what it leaves out).
pub(super) fn legacy_tree(
    data: &Path,
    test_names: &[&str],
    constants: &Constants,
) -> Result<GroupTree, ConfigError> {
    let mut rules_of = |folder: &str| -> Result<GroupRules, ConfigError> {
        let mut at = folder.to_owned();
        loop {
            let path = data.join(&at).join(LEGACY_FILE);
            if let Some(settings) = read_settings::<TestdataYaml>(data, &path, constants)? {
                return legacy_rules(&settings);
            }
            if at.is_empty() {
                return Ok(GroupRules::default());
            }
            at = folder_of(&at).to_owned();
        }
    };
    let root = build_tree(
        test_names,
        &|name| folder_of(name).to_owned(),
        &mut rules_of,
    )?;
    Ok(GroupTree {
        style: ScoringStyle::Legacy,
        root,
    })
}

fn legacy_rules(settings: &Settings<TestdataYaml>) -> Result<GroupRules, ConfigError> {
    let yaml = &settings.yaml;
    let mut rules = GroupRules::default();
    match yaml.on_reject.as_deref() {
        None | Some("break") => rules.on_reject = OnReject::Break,
        Some("continue") => rules.on_reject = OnReject::Continue,
        Some(other) => {
            return Err(settings.invalid(
                "on_reject",
                format!("`{other}` is neither `break` nor `continue`"),
            ))
        }
    }
    match yaml.grading.as_deref() {
        None | Some("default") => {}
        Some("custom") => {
            return Err(settings.invalid(
                "grading",
                "custom graders are not supported; the default grader's flags are",
            ))
        }
        Some(other) => {
            return Err(settings.invalid(
                "grading",
                format!("`{other}` is neither `default` nor `custom`"),
            ))
        }
    }
    // `input_validator_flags` and `output_validator_flags` are read with
    // the tests (`kattis_validator_args`).
    for flag in yaml
        .grader_flags
        .as_deref()
        .unwrap_or("")
        .split_whitespace()
    {
        match flag {
            "worst_error" => rules.verdict_mode = VerdictMode::WorstError,
            "first_error" => rules.verdict_mode = VerdictMode::FirstError,
            "always_accept" => rules.verdict_mode = VerdictMode::AlwaysAccept,
            "sum" => rules.aggregation = Aggregation::Sum,
            "avg" => rules.aggregation = Aggregation::Avg,
            "min" => rules.aggregation = Aggregation::Min,
            "max" => rules.aggregation = Aggregation::Max,
            "ignore_sample" => rules.ignore_sample = true,
            "accept_if_any_accepted" => rules.accept_if_any_accepted = true,
            other => {
                return Err(settings.invalid(
                    "grader_flags",
                    format!(
                        "`{other}` is not a flag of the default grader (worst_error, \
                         first_error, always_accept, sum, avg, min, max, ignore_sample, \
                         accept_if_any_accepted)"
                    ),
                ))
            }
        }
    }
    if let Some(score) = yaml.accept_score {
        rules.accept_score = Some(finite(settings, "accept_score", score)?);
    }
    if let Some(score) = yaml.reject_score {
        rules.reject_score = finite(settings, "reject_score", score)?;
    }
    if let Some(range) = &yaml.range {
        rules.range =
            Some(parse_range(range).map_err(|error| settings.invalid("range", error.to_string()))?);
    }
    Ok(rules)
}

fn finite<T>(settings: &Settings<T>, key: &str, value: f64) -> Result<f64, ConfigError> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(settings.invalid(key, format!("`{value}` is not a finite number")))
    }
}

/// A `range` of a test group that is not one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum RangeError {
    /// An end that is no number.
    #[error("`{0}` is not a number")]
    NotANumber(String),
    /// Not two words.
    #[error("`{0}` is not two numbers (`LOW HIGH`)")]
    NotTwo(String),
    /// The low end above the high end.
    #[error("`{0}`: the low end is above the high end")]
    Reversed(String),
}

/// `range`: two numbers, `inf`, `+inf` and `-inf` allowed, the first at
/// most the second.
pub(crate) fn parse_range(text: &str) -> Result<(f64, f64), RangeError> {
    let number = |word: &str| -> Result<f64, RangeError> {
        match word {
            "inf" | "+inf" => Ok(f64::INFINITY),
            "-inf" => Ok(f64::NEG_INFINITY),
            _ => word
                .parse::<f64>()
                .ok()
                .filter(|value| value.is_finite())
                .ok_or_else(|| RangeError::NotANumber(word.to_owned())),
        }
    };
    let words: Vec<&str> = text.split_whitespace().collect();
    let [low, high] = words.as_slice() else {
        return Err(RangeError::NotTwo(text.to_owned()));
    };
    let (low, high) = (number(low)?, number(high)?);
    if low > high {
        return Err(RangeError::Reversed(text.to_owned()));
    }
    Ok((low, high))
}
