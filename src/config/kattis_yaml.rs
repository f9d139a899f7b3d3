//! `problem.yaml` of a Kattis / ICPC package in each format version the
//! judge reads (issue #15): `legacy` (also `legacy-icpc`, and a file without
//! `problem_format_version`), `2023-07-draft` (also `2023-07`) and
//! `2025-09`. Each version has its own set of keys; a key outside it is an
//! error with its line and the keys that version allows. Every version is
//! read into one model, [`ProblemYaml`].

use serde::Deserialize;
use serde_norway::Value;
use std::collections::BTreeSet;

/// A version of the package format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum FormatVersion {
    /// No `problem_format_version`, `legacy` or `legacy-icpc`.
    Legacy,
    /// `2023-07-draft` (or `2023-07`).
    Draft2023_07,
    /// `2025-09`.
    V2025_09,
}

impl FormatVersion {
    /// The version as `problem_format_version` spells it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            FormatVersion::Legacy => "legacy",
            FormatVersion::Draft2023_07 => "2023-07-draft",
            FormatVersion::V2025_09 => "2025-09",
        }
    }

    /// The version a `problem_format_version` value names.
    pub(crate) fn parse(text: &str) -> Option<FormatVersion> {
        match text {
            "legacy" | "legacy-icpc" => Some(FormatVersion::Legacy),
            "2023-07-draft" | "2023-07" => Some(FormatVersion::Draft2023_07),
            "2025-09" => Some(FormatVersion::V2025_09),
            _ => None,
        }
    }
}

/// A value of `type` (legacy: also what `validation: custom interactive`
/// says).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum ProblemType {
    PassFail,
    Scoring,
    Interactive,
    MultiPass,
    SubmitAnswer,
}

impl ProblemType {
    pub(crate) fn name(self) -> &'static str {
        match self {
            ProblemType::PassFail => "pass-fail",
            ProblemType::Scoring => "scoring",
            ProblemType::Interactive => "interactive",
            ProblemType::MultiPass => "multi-pass",
            ProblemType::SubmitAnswer => "submit-answer",
        }
    }

    fn parse(text: &str) -> Option<ProblemType> {
        [
            ProblemType::PassFail,
            ProblemType::Scoring,
            ProblemType::Interactive,
            ProblemType::MultiPass,
            ProblemType::SubmitAnswer,
        ]
        .into_iter()
        .find(|kind| kind.name() == text)
    }
}

/// The licenses the format defines.
const LICENSES: &[&str] = &[
    "unknown",
    "public domain",
    "cc0",
    "cc by",
    "cc by-sa",
    "educational",
    "permission",
];

/// `problem.yaml`, read from any version into one model. Descriptive keys
/// are kept as written; grading uses the types, the limits, the validation
/// and the flags.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ProblemYaml {
    pub(crate) format: FormatVersion,
    /// Never empty: `pass-fail` when nothing else says `scoring`.
    pub(crate) types: BTreeSet<ProblemType>,
    /// A string, or a map of language to name.
    pub(crate) name: Option<Value>,
    pub(crate) uuid: Option<String>,
    pub(crate) version: Option<String>,
    /// 2023-07 and later: a string or a map of roles to persons.
    pub(crate) credits: Option<Value>,
    /// Legacy.
    pub(crate) author: Option<String>,
    /// A string, a map (`name`, `url`) or a list of them.
    pub(crate) source: Option<Value>,
    /// Legacy.
    pub(crate) source_url: Option<String>,
    pub(crate) license: Option<String>,
    pub(crate) rights_owner: Option<String>,
    pub(crate) embargo_until: Option<Value>,
    pub(crate) keywords: Vec<String>,
    /// `None` for `all`.
    pub(crate) languages: Option<Vec<String>>,
    pub(crate) allow_file_writing: Option<bool>,
    pub(crate) constants: Option<Value>,
    /// Legacy `validation`: `default` or `custom` (its words after
    /// `custom`, `interactive` and `score`, are in [`Self::types`] and
    /// [`Self::custom_score`]). Absent in later versions, where an
    /// `output_validator/` folder makes the validation custom.
    pub(crate) validation: Option<String>,
    /// Legacy `validation: custom score`: the output validator writes the
    /// score.
    pub(crate) custom_score: bool,
    /// Legacy `validator_flags` (later versions put them in the test data
    /// settings).
    pub(crate) validator_flags: Option<String>,
    /// Legacy `grading` (`objective`, `show_test_data_groups`,
    /// `accept_score`, `reject_score`, `range`, `on_reject`), as written.
    pub(crate) grading: Option<Value>,
    pub(crate) limits: Limits,
}

impl Default for ProblemYaml {
    fn default() -> Self {
        ProblemYaml {
            format: FormatVersion::Legacy,
            types: BTreeSet::from([ProblemType::PassFail]),
            name: None,
            uuid: None,
            version: None,
            credits: None,
            author: None,
            source: None,
            source_url: None,
            license: None,
            rights_owner: None,
            embargo_until: None,
            keywords: Vec::new(),
            languages: None,
            allow_file_writing: None,
            constants: None,
            validation: None,
            custom_score: false,
            validator_flags: None,
            grading: None,
            limits: Limits::default(),
        }
    }
}

/// `limits:` of any version. Legacy's `time_multiplier` and
/// `time_safety_margin` are the later `time_multipliers`'
/// `ac_to_time_limit` and `time_limit_to_tle`.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Limits {
    /// Seconds. Absent: derived from the slowest accepted submission.
    pub(crate) time_limit: Option<f64>,
    /// The slowest accepted submission times this is the time limit
    /// (legacy default 5, later 2).
    pub(crate) ac_to_time_limit: Option<f64>,
    /// A TLE submission must be this much slower than the time limit
    /// (legacy default 2, later 1.5).
    pub(crate) time_limit_to_tle: Option<f64>,
    /// Seconds a derived time limit is rounded up to (default 1).
    pub(crate) time_resolution: Option<f64>,
    /// MiB.
    pub(crate) memory: Option<u64>,
    /// MiB.
    pub(crate) output: Option<u64>,
    /// KiB.
    pub(crate) code: Option<u64>,
    /// Seconds.
    pub(crate) compilation_time: Option<u64>,
    /// MiB.
    pub(crate) compilation_memory: Option<u64>,
    /// Seconds.
    pub(crate) validation_time: Option<u64>,
    /// MiB.
    pub(crate) validation_memory: Option<u64>,
    /// MiB.
    pub(crate) validation_output: Option<u64>,
    /// Multi-pass: the most passes (default 2).
    pub(crate) validation_passes: Option<u64>,
}

impl Limits {
    /// `ac_to_time_limit`, with the version's default.
    pub(crate) fn ac_to_time_limit(&self, format: FormatVersion) -> f64 {
        self.ac_to_time_limit.unwrap_or(match format {
            FormatVersion::Legacy => 5.0,
            _ => 2.0,
        })
    }
}

impl ProblemYaml {
    /// The problem's name: the string, or the English (else the first) of
    /// a map of languages.
    pub(crate) fn title(&self) -> Option<String> {
        match self.name.as_ref()? {
            Value::String(name) => Some(name.clone()),
            Value::Mapping(names) => names
                .get("en")
                .or_else(|| names.values().next())
                .and_then(Value::as_str)
                .map(str::to_owned),
            _ => None,
        }
    }

    /// The first source's name: the string, or `name` of a map, or the
    /// first of a list.
    pub(crate) fn source_name(&self) -> Option<String> {
        fn name_of(value: &Value) -> Option<String> {
            match value {
                Value::String(name) => Some(name.clone()),
                Value::Mapping(map) => map.get("name").and_then(Value::as_str).map(str::to_owned),
                Value::Sequence(list) => list.first().and_then(name_of),
                _ => None,
            }
        }
        self.source.as_ref().and_then(name_of)
    }

    /// Whether the problem is of `kind`.
    pub(crate) fn is(&self, kind: ProblemType) -> bool {
        self.types.contains(&kind)
    }

    /// Whether the problem is `type: scoring` (its test groups score it).
    pub(crate) fn is_scoring(&self) -> bool {
        self.is(ProblemType::Scoring)
    }
}

/// Legacy `problem.yaml`: the keys of the legacy format, plus
/// `limits.time_limit`, which packages of older judges state.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(expecting = "the keys of problem.yaml")]
struct LegacyFile {
    problem_format_version: Option<Value>,
    #[serde(rename = "type")]
    kind: Option<Value>,
    name: Option<Value>,
    uuid: Option<Value>,
    author: Option<String>,
    source: Option<String>,
    source_url: Option<String>,
    license: Option<String>,
    rights_owner: Option<String>,
    limits: Option<LegacyLimits>,
    validation: Option<String>,
    validator_flags: Option<String>,
    grading: Option<LegacyGrading>,
    keywords: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(expecting = "a map `limits:`")]
struct LegacyLimits {
    time_limit: Option<f64>,
    time_multiplier: Option<f64>,
    time_safety_margin: Option<f64>,
    memory: Option<u64>,
    output: Option<u64>,
    code: Option<u64>,
    compilation_time: Option<u64>,
    compilation_memory: Option<u64>,
    validation_time: Option<u64>,
    validation_memory: Option<u64>,
    validation_output: Option<u64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[expect(dead_code, reason = "read to check its keys; kept as written")]
#[serde(expecting = "a map `grading:`")]
struct LegacyGrading {
    objective: Option<String>,
    show_test_data_groups: Option<bool>,
    accept_score: Option<f64>,
    reject_score: Option<f64>,
    range: Option<String>,
    on_reject: Option<String>,
}

/// `problem.yaml` of 2023-07-draft and 2025-09 (the same keys).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(expecting = "the keys of problem.yaml")]
struct ModernFile {
    #[expect(dead_code, reason = "read before, to pick this version")]
    problem_format_version: Value,
    #[serde(rename = "type")]
    kind: Option<Value>,
    name: Option<Value>,
    uuid: Option<Value>,
    version: Option<String>,
    credits: Option<Value>,
    source: Option<Value>,
    license: Option<String>,
    rights_owner: Option<String>,
    embargo_until: Option<Value>,
    limits: Option<ModernLimits>,
    keywords: Option<Vec<String>>,
    languages: Option<Value>,
    allow_file_writing: Option<bool>,
    constants: Option<Value>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(expecting = "a map `limits:`")]
struct ModernLimits {
    time_multipliers: Option<TimeMultipliers>,
    time_limit: Option<f64>,
    time_resolution: Option<f64>,
    memory: Option<u64>,
    output: Option<u64>,
    code: Option<u64>,
    compilation_time: Option<u64>,
    compilation_memory: Option<u64>,
    validation_time: Option<u64>,
    validation_memory: Option<u64>,
    validation_output: Option<u64>,
    validation_passes: Option<u64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(expecting = "a map `time_multipliers:`")]
struct TimeMultipliers {
    ac_to_time_limit: Option<f64>,
    time_limit_to_tle: Option<f64>,
}

/// Legacy `limits:` are the later keys by other names (see [`Limits`]);
/// legacy has no `time_resolution` nor `validation_passes`.
impl From<LegacyLimits> for ModernLimits {
    fn from(limits: LegacyLimits) -> ModernLimits {
        ModernLimits {
            time_multipliers: Some(TimeMultipliers {
                ac_to_time_limit: limits.time_multiplier,
                time_limit_to_tle: limits.time_safety_margin,
            }),
            time_limit: limits.time_limit,
            time_resolution: None,
            memory: limits.memory,
            output: limits.output,
            code: limits.code,
            compilation_time: limits.compilation_time,
            compilation_memory: limits.compilation_memory,
            validation_time: limits.validation_time,
            validation_memory: limits.validation_memory,
            validation_output: limits.validation_output,
            validation_passes: None,
        }
    }
}

/// The one place `limits:` of any version becomes [`Limits`].
impl From<ModernLimits> for Limits {
    fn from(limits: ModernLimits) -> Limits {
        let times = limits.time_multipliers.as_ref();
        Limits {
            time_limit: limits.time_limit,
            ac_to_time_limit: times.and_then(|times| times.ac_to_time_limit),
            time_limit_to_tle: times.and_then(|times| times.time_limit_to_tle),
            time_resolution: limits.time_resolution,
            memory: limits.memory,
            output: limits.output,
            code: limits.code,
            compilation_time: limits.compilation_time,
            compilation_memory: limits.compilation_memory,
            validation_time: limits.validation_time,
            validation_memory: limits.validation_memory,
            validation_output: limits.validation_output,
            validation_passes: limits.validation_passes,
        }
    }
}

/// Why `problem.yaml` was refused: a YAML error (with its position), or a
/// value not allowed (its key).
#[derive(Debug, PartialEq)]
pub(crate) enum YamlRefusal {
    Parse {
        position: Option<(usize, usize)>,
        message: String,
    },
    Invalid {
        key: &'static str,
        message: String,
    },
}

fn parse_error(error: &serde_norway::Error, format: FormatVersion) -> YamlRefusal {
    let message = without_location(&error.to_string());
    let message = if message.contains("unknown field") {
        format!(
            "{message} (the keys of problem_format_version `{}`)",
            format.name()
        )
    } else {
        message
    };
    YamlRefusal::Parse {
        position: error
            .location()
            .map(|location| (location.line(), location.column())),
        message,
    }
}

/// A YAML error's message without the " at line L column C" the position
/// already says.
pub(crate) fn without_location(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(index) => message[..index].to_owned(),
        None => message.to_owned(),
    }
}

fn invalid(key: &'static str, message: impl Into<String>) -> YamlRefusal {
    YamlRefusal::Invalid {
        key,
        message: message.into(),
    }
}

/// Reads the text of a `problem.yaml`: its version first, then its keys as
/// that version defines them.
pub(crate) fn parse(text: &str) -> Result<ProblemYaml, YamlRefusal> {
    if text.trim().is_empty() {
        return Ok(ProblemYaml::default());
    }
    let loose: Value =
        serde_norway::from_str(text).map_err(|error| parse_error(&error, FormatVersion::Legacy))?;
    let format = match loose.get("problem_format_version") {
        None | Some(Value::Null) => FormatVersion::Legacy,
        Some(Value::String(version)) => FormatVersion::parse(version).ok_or_else(|| {
            invalid(
                "problem_format_version",
                format!(
                    "`{version}` is not a version this judge reads; it reads `legacy`, \
                     `legacy-icpc`, `2023-07-draft` and `2025-09`"
                ),
            )
        })?,
        Some(_) => {
            return Err(invalid(
                "problem_format_version",
                "must be a string such as `2025-09`",
            ))
        }
    };
    let yaml = match format {
        FormatVersion::Legacy => {
            let file: LegacyFile =
                serde_norway::from_str(text).map_err(|error| parse_error(&error, format))?;
            legacy(file, &loose)?
        }
        _ => {
            let file: ModernFile =
                serde_norway::from_str(text).map_err(|error| parse_error(&error, format))?;
            modern(file, format)?
        }
    };
    check_common(&yaml)?;
    Ok(yaml)
}

fn legacy(file: LegacyFile, loose: &Value) -> Result<ProblemYaml, YamlRefusal> {
    let _ = file.problem_format_version;
    let mut types = BTreeSet::new();
    match &file.kind {
        None => {}
        Some(Value::String(kind)) if kind == "pass-fail" || kind == "scoring" => {
            types.insert(ProblemType::parse(kind).unwrap_or(ProblemType::PassFail));
        }
        Some(other) => {
            return Err(invalid(
                "type",
                format!(
                    "{} is not a type of the legacy format: `pass-fail` or `scoring` (interactive \
                     problems say `validation: custom interactive`; other types need \
                     problem_format_version `2025-09`)",
                    describe(other)
                ),
            ))
        }
    }
    let mut custom_score = false;
    if let Some(validation) = &file.validation {
        let mut words = validation.split_whitespace();
        match words.next() {
            Some("default") if words.clone().next().is_none() => {}
            Some("custom") => {
                for word in words {
                    match word {
                        "interactive" => {
                            types.insert(ProblemType::Interactive);
                        }
                        "score" => custom_score = true,
                        other => {
                            return Err(invalid(
                                "validation",
                                format!(
                                    "`{other}` is not a word of `validation: custom ...`; the \
                                     legacy format knows `interactive` and `score`"
                                ),
                            ))
                        }
                    }
                }
            }
            _ => {
                return Err(invalid(
                    "validation",
                    format!(
                        "`{validation}` is not `default` or `custom` (optionally followed by \
                         `interactive` and `score`)"
                    ),
                ))
            }
        }
    }
    if !types.contains(&ProblemType::Scoring) {
        types.insert(ProblemType::PassFail);
    }
    let limits = file
        .limits
        .map_or_else(Limits::default, |limits| ModernLimits::from(limits).into());
    Ok(ProblemYaml {
        format: FormatVersion::Legacy,
        types,
        name: file.name,
        uuid: uuid(file.uuid)?,
        version: None,
        credits: None,
        author: file.author,
        source: file.source.map(Value::String),
        source_url: file.source_url,
        license: file.license,
        rights_owner: file.rights_owner,
        embargo_until: None,
        keywords: file
            .keywords
            .map(|words| words.split_whitespace().map(str::to_owned).collect())
            .unwrap_or_default(),
        languages: None,
        allow_file_writing: None,
        constants: None,
        validation: file.validation,
        custom_score,
        validator_flags: file.validator_flags,
        grading: file.grading.and(loose.get("grading").cloned()),
        limits,
    })
}

fn modern(file: ModernFile, format: FormatVersion) -> Result<ProblemYaml, YamlRefusal> {
    let mut types = BTreeSet::new();
    let listed: Vec<&Value> = match &file.kind {
        None => Vec::new(),
        Some(Value::Sequence(list)) if !list.is_empty() => list.iter().collect(),
        Some(Value::Sequence(_)) => {
            return Err(invalid("type", "is an empty list; give at least one type"))
        }
        Some(one) => vec![one],
    };
    for value in listed {
        let kind = value.as_str().and_then(ProblemType::parse).ok_or_else(|| {
            invalid(
                "type",
                format!(
                    "{} is not a problem type: `pass-fail`, `scoring`, `interactive`, \
                     `multi-pass` or `submit-answer`",
                    describe(value)
                ),
            )
        })?;
        if !types.insert(kind) {
            return Err(invalid(
                "type",
                format!("`{}` is listed twice", kind.name()),
            ));
        }
    }
    for (one, other) in [
        (ProblemType::PassFail, ProblemType::Scoring),
        (ProblemType::SubmitAnswer, ProblemType::MultiPass),
        (ProblemType::SubmitAnswer, ProblemType::Interactive),
    ] {
        if types.contains(&one) && types.contains(&other) {
            return Err(invalid(
                "type",
                format!(
                    "`{}` and `{}` cannot both be the problem's type",
                    one.name(),
                    other.name()
                ),
            ));
        }
    }
    if !types.contains(&ProblemType::Scoring) {
        types.insert(ProblemType::PassFail);
    }
    let languages = match file.languages {
        None => None,
        Some(Value::String(all)) if all == "all" => None,
        Some(Value::String(one)) => Some(vec![one]),
        Some(Value::Sequence(list)) if !list.is_empty() => Some(
            list.iter()
                .map(|value| {
                    value.as_str().map(str::to_owned).ok_or_else(|| {
                        invalid("languages", "must be `all` or a list of language codes")
                    })
                })
                .collect::<Result<_, _>>()?,
        ),
        Some(_) => {
            return Err(invalid(
                "languages",
                "must be `all` or a non-empty list of language codes",
            ))
        }
    };
    let limits = file.limits.map_or_else(Limits::default, Limits::from);
    if let Some(passes) = limits.validation_passes {
        if passes < 2 {
            return Err(invalid("validation_passes", "must be at least 2"));
        }
        if !types.contains(&ProblemType::MultiPass) {
            return Err(invalid(
                "validation_passes",
                "applies only to a problem of type `multi-pass`",
            ));
        }
    }
    if let Some(name) = &file.name {
        let well_formed = match name {
            Value::String(_) => true,
            Value::Mapping(names) => {
                !names.is_empty()
                    && names
                        .iter()
                        .all(|(language, name)| language.is_string() && name.is_string())
            }
            _ => false,
        };
        if !well_formed {
            return Err(invalid(
                "name",
                "must be a string or a map of language codes to names",
            ));
        }
    }
    Ok(ProblemYaml {
        format,
        types,
        name: file.name,
        uuid: uuid(file.uuid)?,
        version: file.version,
        credits: file.credits,
        author: None,
        source: file.source,
        source_url: None,
        license: file.license,
        rights_owner: file.rights_owner,
        embargo_until: file.embargo_until,
        keywords: file.keywords.unwrap_or_default(),
        languages,
        allow_file_writing: file.allow_file_writing,
        constants: file.constants,
        validation: None,
        custom_score: false,
        validator_flags: None,
        grading: None,
        limits,
    })
}

/// What every version checks alike: the license, positive limits.
fn check_common(yaml: &ProblemYaml) -> Result<(), YamlRefusal> {
    if let Some(license) = &yaml.license {
        if !LICENSES.contains(&license.as_str()) {
            return Err(invalid(
                "license",
                format!(
                    "`{license}` is not a license of the format; one of: {}",
                    LICENSES.join(", ")
                ),
            ));
        }
    }
    let limits = &yaml.limits;
    for (key, value) in [
        ("time_limit", limits.time_limit),
        ("time_resolution", limits.time_resolution),
    ] {
        if value.is_some_and(|value| !(value > 0.0 && value.is_finite())) {
            return Err(invalid(key, "must be a number of seconds above 0"));
        }
    }
    for (key, value) in [
        ("ac_to_time_limit", limits.ac_to_time_limit),
        ("time_limit_to_tle", limits.time_limit_to_tle),
    ] {
        if value.is_some_and(|value| !(value >= 1.0 && value.is_finite())) {
            return Err(invalid(key, "must be a number of at least 1"));
        }
    }
    for (key, value) in [
        ("memory", limits.memory),
        ("output", limits.output),
        ("code", limits.code),
        ("compilation_time", limits.compilation_time),
        ("compilation_memory", limits.compilation_memory),
        ("validation_time", limits.validation_time),
        ("validation_memory", limits.validation_memory),
        ("validation_output", limits.validation_output),
    ] {
        if value == Some(0) {
            return Err(invalid(key, "must be above 0"));
        }
    }
    Ok(())
}

/// `uuid`: the 8-4-4-4-12 hexadecimal form.
fn uuid(value: Option<Value>) -> Result<Option<String>, YamlRefusal> {
    let Some(value) = value else {
        return Ok(None);
    };
    let text = value.as_str().unwrap_or("");
    let groups: Vec<&str> = text.split('-').collect();
    let well_formed = groups.len() == 5
        && groups.iter().zip([8, 4, 4, 4, 12]).all(|(group, length)| {
            group.len() == length && group.chars().all(|c| c.is_ascii_hexdigit())
        });
    if well_formed {
        Ok(Some(text.to_owned()))
    } else {
        Err(invalid(
            "uuid",
            format!(
                "{} is not a UUID (8-4-4-4-12 hexadecimal digits)",
                describe(&value)
            ),
        ))
    }
}

/// A YAML value for a message: `` `text` `` or its kind.
fn describe(value: &Value) -> String {
    match value {
        Value::String(text) => format!("`{text}`"),
        Value::Number(number) => format!("`{number}`"),
        Value::Bool(flag) => format!("`{flag}`"),
        Value::Sequence(_) => "a list".to_owned(),
        Value::Mapping(_) => "a map".to_owned(),
        _ => "this value".to_owned(),
    }
}

#[cfg(test)]
mod tests;
