//! The JSON report of docs/report.md (`--json`), `"version": 1`, plus the isolation in
//! force and, for random tests, where each came from; `judge grade`'s
//! report with what grading adds. These are the wire types (the schema):
//! they carry no decision, and the grading layer builds a grade's report
//! and a run's from its own types and reads one back into them, once each
//! way (`crate::grading::grade::wire`, `crate::grading::run::wire`).

use crate::config::judge::Layout;
use crate::runner::SubmissionResult;
use crate::sandbox::Isolation;
use crate::verdict::Verdict;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The report's format version (docs/report.md, "Versioning"); bump it when a field changes
/// meaning, and say so in CHANGELOG.md.
pub(crate) const VERSION: u32 = 1;

/// The version of the judge that writes a report: `judge grade --resume`
/// reuses only results of the same judge, whose checkers and generators
/// decided them.
pub(crate) const JUDGE_VERSION: &str = env!("CARGO_PKG_VERSION");

/// `judge run`'s JSON report.
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
pub(crate) struct RunReport {
    pub(crate) version: u32,
    // `judge run` always writes it, so the schema requires it: the `!`
    // items keep schemars from reading serde's `default` and
    // `skip_serializing_if`, which would drop it from `required`. A report
    // read back without one is written again without one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Isolation", !default, !skip_serializing_if)]
    pub(crate) isolation: Option<RunIsolation>,
    /// Stopped by a signal: `results` holds what finished.
    #[serde(default, skip_serializing_if = "is_false")]
    pub(crate) interrupted: bool,
    /// Stopped before any test ran: what the run was doing (`results` is
    /// empty). Absent when tests ran, and in reports of older judges.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) interrupted_while: Option<BeforeTests>,
    /// Submissions an interrupted run did not finish: no verdict.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) not_graded: Vec<NotGraded>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) tests: Option<TestSelection>,
    pub(crate) results: Vec<SubmissionResult>,
}

/// `isolation` of a [`RunReport`]: the isolation in force, written as the
/// sandbox describes it, or, read back, the text as written, byte for
/// byte (this judge does not read another machine's).
#[derive(Clone, Debug)]
pub(crate) enum RunIsolation {
    /// Written as [`Isolation`] serialises.
    InForce(Isolation),
    /// Written as it was read.
    AsWritten(Box<serde_json::value::RawValue>),
}

impl Serialize for RunIsolation {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            RunIsolation::InForce(isolation) => isolation.serialize(serializer),
            RunIsolation::AsWritten(text) => text.serialize(serializer),
        }
    }
}

impl<'de> Deserialize<'de> for RunIsolation {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Box::<serde_json::value::RawValue>::deserialize(deserializer).map(RunIsolation::AsWritten)
    }
}

/// The JSON Schema of the JSON report, as checked in at
/// `docs/report.schema.json` (`judge schema` prints it): a report is either
/// `judge run`'s (`RunReport`) or `judge grade`'s and `judge
/// merge`'s (`GradeReport`); `layout` tells them apart.
pub fn schema_text() -> Result<String, serde_json::Error> {
    let mut generator = schemars::generate::SchemaSettings::draft2020_12()
        .for_serialize()
        .into_generator();
    let run = generator.subschema_for::<RunReport>();
    let grade = generator.subschema_for::<GradeReport>();
    let definitions = generator.take_definitions(true);
    let schema = serde_json::json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "judge JSON report",
        "description": format!(
            "The JSON report of judge, format version {VERSION}: `judge run` writes a RunReport, \
             `judge grade` and `judge merge` a GradeReport (it has `layout`). Generated from \
             the Rust types; see docs/report.md."
        ),
        "anyOf": [run, grade],
        "$defs": definitions,
    });
    let mut text = serde_json::to_string_pretty(&schema)?;
    text.push('\n');
    Ok(text)
}

fn is_false(value: &bool) -> bool {
    !*value
}

/// The verdict cell (CSV, table) of a pair an interrupted grade left (#32).
pub(crate) const NOT_GRADED: &str = "not graded: interrupted";

/// What a command stopped by SIGINT or SIGTERM was doing when the signal
/// came before any test ran: a report's `interrupted_while`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum BeforeTests {
    /// `judge grade --similarity`: comparing a class's hand-ins for the
    /// class page, before the grade looks for what to grade.
    ComparingHandIns,
    /// `judge grade` of a class: finding the hand-ins in the submissions
    /// folder, before any package loads.
    FindingHandIns,
    /// `judge grade --package`: building the package's `data/` from its
    /// `generators/generators.yaml`.
    BuildingData,
    /// Loading the package: compiling its programs, checking its tests
    /// with its validator.
    LoadingPackage,
    /// `judge run --tests DIR`: checking DIR's inputs with the package's
    /// validator.
    ValidatingTests,
    /// `judge grade --package` of a package that states no time limit:
    /// running its accepted submissions to derive one.
    DerivingTimeLimit,
}

impl BeforeTests {
    /// Its name in the JSON report (`building_data`), for the reports that
    /// name it too.
    pub(crate) fn name(self) -> &'static str {
        match self {
            BeforeTests::ComparingHandIns => "comparing_hand_ins",
            BeforeTests::FindingHandIns => "finding_hand_ins",
            BeforeTests::BuildingData => "building_data",
            BeforeTests::LoadingPackage => "loading_package",
            BeforeTests::ValidatingTests => "validating_tests",
            BeforeTests::DerivingTimeLimit => "deriving_time_limit",
        }
    }
}

/// A (submission, problem) pair an interrupted run did not finish. It has no
/// verdict: it is listed so that nobody mistakes its absence from
/// `results` for a missing hand-in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub(crate) struct NotGraded {
    pub(crate) problem: String,
    pub(crate) submission: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) student: Option<String>,
}

/// Who asked for a run's random tests (the JSON report's `random_from`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) enum RandomFrom {
    /// `--random N`.
    #[serde(rename = "--random")]
    Flag,
    /// judge.toml's own `random-tests`.
    #[serde(rename = "judge.toml")]
    JudgeToml,
    /// The built-in `random-tests` (no `--tests` folder).
    #[serde(rename = "default")]
    Default,
    /// Nobody: a `--tests` folder runs exactly, or no generator.
    #[serde(rename = "none")]
    None,
    /// Nobody: a platform's results file grades the package's own tests,
    /// as the platform's autograder does.
    #[serde(rename = "platform")]
    Platform,
}

/// Which tests `judge run` ran, and why that many random ones.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct TestSelection {
    /// Where the fixed tests came from: the `--tests` folder, or `package
    /// <id>`.
    pub(crate) fixed: String,
    /// How many fixed tests.
    pub(crate) fixed_count: usize,
    /// How many random tests were added.
    pub(crate) random: u32,
    /// Who asked for them: `--random`, `judge.toml`, `default` (no
    /// `--tests`: the built-in `random-tests`), `platform` (none: a
    /// platform's results file grades the package's own tests), or `none`.
    #[schemars(with = "String")]
    pub(crate) random_from: RandomFrom,
    /// The `--tests` inputs the problem's validator rejects (they still
    /// run: their verdicts say nothing about the problem). Absent when
    /// every input is valid.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) invalid: Vec<InvalidTest>,
}

/// A `--tests` input that is not a valid input of the problem.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub(crate) struct InvalidTest {
    /// The test's name (its file's stem).
    pub(crate) name: String,
    /// The input file, as given under `--tests`.
    pub(crate) file: String,
    /// What the validator says is wrong (`line L: ...`).
    pub(crate) reason: String,
}

/// The JSON text of a report, pretty-printed, ending with a newline.
pub fn render(
    results: &[SubmissionResult],
    isolation: &Isolation,
    tests: Option<&TestSelection>,
) -> Result<String, serde_json::Error> {
    render_run(&RunReport {
        version: VERSION,
        isolation: Some(RunIsolation::InForce(isolation.clone())),
        interrupted: false,
        interrupted_while: None,
        not_graded: Vec::new(),
        tests: tests.cloned(),
        results: results.to_vec(),
    })
}

/// The JSON text of `judge run`'s report, pretty-printed, ending with a
/// newline.
pub(crate) fn render_run(report: &RunReport) -> Result<String, serde_json::Error> {
    let mut text = serde_json::to_string_pretty(report)?;
    text.push('\n');
    Ok(text)
}

/// Parses `judge run`'s report, whose version the caller has checked.
pub(crate) fn parse_run(text: &str) -> Result<RunReport, serde_json::Error> {
    serde_json::from_str(text)
}

/// `judge grade`'s JSON report: `version` and `results`, each
/// result with what grading adds (the student, the expected verdict, the
/// limits after the language's time factor, time-limit warnings), and which
/// shard of a split run it is. `judge merge` reads these back.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub(crate) struct GradeReport {
    pub(crate) version: u32,
    /// The isolation in force (see `judge run`'s report); kept as written,
    /// since a merged report may come from other machines.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<Isolation>")]
    pub(crate) isolation: Option<serde_json::Value>,
    /// judge.toml's `layout`, by its name.
    #[schemars(with = "String")]
    pub(crate) layout: Layout,
    /// Which part of a split run this is; absent for a whole run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) shard: Option<ShardInfo>,
    /// The judge that wrote the report ([`JUDGE_VERSION`]); absent in
    /// reports written before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) judge_version: Option<String>,
    /// Stopped by SIGINT or SIGTERM: `results` holds the pairs that
    /// finished, `not_graded` the others.
    #[serde(default, skip_serializing_if = "is_false")]
    pub(crate) interrupted: bool,
    /// Stopped before any test ran: what the grade was doing (`results`
    /// is empty; `not_graded` lists the pairs when they were known by
    /// then). Absent when tests ran, and in reports of older judges.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) interrupted_while: Option<BeforeTests>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) not_graded: Vec<NotGraded>,
    /// What the results depend on besides the submissions: `judge merge`
    /// refuses shards that differ in any of it. Absent in reports of older
    /// judges.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) graded_with: Option<GradedWith>,
    /// Files under the submissions folder that were not graded, and why
    /// (they do not fit the layout). `judge grade --package`: the
    /// package's files its format says not to run (`*.disabled`, dotfiles,
    /// a README), the programs it does without and the submissions skipped
    /// (a language whose toolchain is missing), each with the reason.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) ignored: Vec<IgnoredFile>,
    /// A class (`problem/student`, `student/problem`): each (student,
    /// problem) of the class with no hand-in, by student then problem. The
    /// class's problems are `problems` of judge.toml, else every problem
    /// someone handed in; its students, everyone who handed in something.
    /// Each is a `missing` row (score 0) of the CSV gradebook and the HTML
    /// matrix; `results` holds only what was handed in.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) missing: Vec<MissingPair>,
    /// In the unsharded order: by submission path, then problem.
    pub(crate) results: Vec<GradedResult>,
}

/// One of `missing` of a [`GradeReport`]: a (student, problem) of the
/// class with no hand-in.
#[derive(
    Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema,
)]
pub(crate) struct MissingPair {
    pub(crate) student: String,
    pub(crate) problem: String,
}

/// One of `ignored` of a [`GradeReport`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub(crate) struct IgnoredFile {
    pub(crate) path: String,
    pub(crate) reason: String,
}

/// `graded_with` of a [`GradeReport`]: the judge and the judge.toml settings
/// that decide which tests run and under which limits.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub(crate) struct GradedWith {
    /// The judge's version (Cargo's `CARGO_PKG_VERSION`).
    pub(crate) judge_version: String,
    /// judge.toml's master seed; absent: each package's own.
    #[serde(default)]
    pub(crate) seed: Option<u64>,
    /// Random tests per package.
    pub(crate) random_tests: u32,
    /// judge.toml's `[limits]` that replace the packages' (absent: the
    /// package's own), and the wall-clock factor.
    #[serde(default)]
    pub(crate) time_limit_ms: Option<u64>,
    #[serde(default)]
    pub(crate) memory_limit_mib: Option<u64>,
    #[serde(default)]
    pub(crate) output_limit_kib: Option<u64>,
    pub(crate) wall_time_factor: f64,
}

/// `shard` of a [`GradeReport`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub(crate) struct ShardInfo {
    /// 1-based.
    pub(crate) index: usize,
    pub(crate) count: usize,
    /// (submission, problem) pairs of the whole run, so a merge can tell
    /// that a shard is missing; absent when the shard did not know them (a
    /// signal stopped it before its package was loaded: `interrupted_while`
    /// says when).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) pairs: Option<usize>,
}

/// One (submission, problem) pair of `judge grade`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub(crate) struct GradedResult {
    #[serde(flatten)]
    pub(crate) result: SubmissionResult,
    /// The student (layouts `problem/student`, `student/problem`) or the
    /// example's file stem (`expected`).
    pub(crate) student: String,
    /// Layout `expected`: the verdict folder and the verdict it demands
    /// (absent for a folder that names no verdict).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) expected: Option<Expected>,
    /// The CPU time limit of each test, after the language's `time-factor`.
    pub(crate) time_limit_ms: u64,
    pub(crate) memory_limit_mib: u64,
    /// Verdicts sensitive to the time limit, and similar notes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) warnings: Vec<String>,
    /// SHA-256 of the submission's bytes (hex), when it could be read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) submission_sha256: Option<String>,
    /// SHA-256 (hex) of everything else that decided the result: judge
    /// version, problem, the package (problem.toml and tests), language,
    /// limits and seed (`crate::grading::resume::Fingerprint`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) fingerprint: Option<String>,
    /// Taken from the report given to `--resume` instead of graded again.
    #[serde(default, skip_serializing_if = "is_false")]
    pub(crate) reused: bool,
    /// Every file handed in for this one (student, problem) pair when there
    /// were several (`rooks.py` and `rooks.cpp`): none was run, and the
    /// result (a CE with score 0 whose `submission` is the first) is no
    /// compile error but this; the class page says so and names each
    /// (issue #32). Absent for one file.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) handed_in: Vec<String>,
}

/// `expected` of a [`GradedResult`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub(crate) struct Expected {
    /// The verdict folder, or what the package's format expects the
    /// submission by in its place (a Polygon tag: see `kind`).
    pub(crate) folder: String,
    /// What `folder` names: `folder` (absent, as in reports written before
    /// this field) or `tag` (a Polygon solution's tag; issue #33).
    #[serde(default, skip_serializing_if = "ExpectedKind::is_folder")]
    pub(crate) kind: ExpectedKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) verdict: Option<Verdict>,
    /// Other verdicts the folder accepts (`judge grade --package`, with
    /// Kattis' meanings: a memory overrun in `run_time_error/`, a PE in
    /// `wrong_answer/`, a TLE in `slow_accepted/`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) also: Vec<Verdict>,
    /// Whether the submission met what its folder demands, decided when it
    /// was graded, where the verdict alone does not decide it (`judge grade
    /// --package`: a score in `partially_accepted/`, the full score in
    /// `accepted/` of a scored package, a `submissions.yaml` entry).
    /// Absent: the verdict decides: the folder's verdict, or one it also
    /// accepts, agrees (`crate::grading::graded::agrees`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) agrees: Option<bool>,
}

/// What `expected.folder` names.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub(crate) enum ExpectedKind {
    /// A verdict folder (`accepted`, `wrong_answer`).
    #[default]
    Folder,
    /// A Polygon solution's tag (`main`, `time-limit-exceeded-or-accepted`).
    Tag,
}

impl ExpectedKind {
    fn is_folder(&self) -> bool {
        *self == ExpectedKind::Folder
    }
}

/// The JSON text of a grade report, pretty-printed, ending with a newline.
pub(crate) fn render_grade(report: &GradeReport) -> Result<String, serde_json::Error> {
    let mut text = serde_json::to_string_pretty(report)?;
    text.push('\n');
    Ok(text)
}

/// A file that is not a grade report this judge reads (`judge merge`,
/// `judge report`, `judge grade --resume`). A usage error: the user gave
/// the wrong file.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ReadError {
    /// A file is not a grade report.
    #[error("`{}` is not a `judge grade` JSON report: {message}", path.display())]
    Parse { path: PathBuf, message: String },
    /// A report of another format version.
    #[error("`{}` has report version {found}; this judge reads version {VERSION}", path.display())]
    Version { path: PathBuf, found: u32 },
}

/// Parses one grade report; `path` names it in errors.
pub(crate) fn parse_grade(path: &Path, text: &str) -> Result<GradeReport, ReadError> {
    // The version first, so a report of another version is named as such
    // rather than as a parse error on a field that changed.
    #[derive(Deserialize)]
    struct Versioned {
        version: u32,
    }
    let parse_error = |error: serde_json::Error| ReadError::Parse {
        path: path.to_owned(),
        message: error.to_string(),
    };
    let versioned: Versioned = serde_json::from_str(text).map_err(parse_error)?;
    if versioned.version != VERSION {
        return Err(ReadError::Version {
            path: path.to_owned(),
            found: versioned.version,
        });
    }
    serde_json::from_str(text).map_err(parse_error)
}

#[cfg(test)]
mod tests;
