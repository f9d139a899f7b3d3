//! The one conversion between a grade and its JSON report (issue #33):
//! [`Grade`] to `report::json::GradeReport` when a report or a journal
//! line is written, and back once at the edge when one is read (`judge
//! report`, `judge merge`, `--resume`). Every field is named on both
//! sides (no `..`), so a field added to either cannot be dropped silently.
//!
//! Reading back decides what the wire leaves open: the student of a pair
//! not graded that the report does not record (`judge run`'s, an older
//! judge's) is the one its path names.

use super::{Expected, Grade, GradedResult, GradedWith, ShardInfo};
use crate::package::format::ExpectedKey;
use crate::report::json;
use crate::report::{Ignored, Missing, Ungraded};

impl From<&Grade> for json::GradeReport {
    fn from(grade: &Grade) -> json::GradeReport {
        let Grade {
            isolation,
            layout,
            shard,
            judge_version,
            interrupted,
            interrupted_while,
            not_graded,
            graded_with,
            ignored,
            missing,
            results,
        } = grade;
        json::GradeReport {
            version: json::VERSION,
            isolation: isolation.clone(),
            layout: *layout,
            shard: shard.map(|shard| json::ShardInfo::from(&shard)),
            judge_version: judge_version.clone(),
            interrupted: *interrupted,
            interrupted_while: *interrupted_while,
            not_graded: not_graded.iter().map(json::NotGraded::from).collect(),
            graded_with: graded_with.as_ref().map(json::GradedWith::from),
            ignored: ignored.iter().map(json::IgnoredFile::from).collect(),
            missing: missing.iter().map(json::MissingPair::from).collect(),
            results: results.iter().map(json::GradedResult::from).collect(),
        }
    }
}

/// A report already checked to be of this version (`json::parse_grade`):
/// its `version` says nothing more.
impl From<json::GradeReport> for Grade {
    fn from(report: json::GradeReport) -> Grade {
        let json::GradeReport {
            version: _,
            isolation,
            layout,
            shard,
            judge_version,
            interrupted,
            interrupted_while,
            not_graded,
            graded_with,
            ignored,
            missing,
            results,
        } = report;
        Grade {
            isolation,
            layout,
            shard: shard.map(ShardInfo::from),
            judge_version,
            interrupted,
            interrupted_while,
            not_graded: not_graded.into_iter().map(Ungraded::from).collect(),
            graded_with: graded_with.map(GradedWith::from),
            ignored: ignored.into_iter().map(Ignored::from).collect(),
            missing: missing.into_iter().map(Missing::from).collect(),
            results: results.into_iter().map(GradedResult::from).collect(),
        }
    }
}

impl From<&GradedResult> for json::GradedResult {
    fn from(graded: &GradedResult) -> json::GradedResult {
        let GradedResult {
            result,
            student,
            expected,
            time_limit_ms,
            memory_limit_mib,
            warnings,
            submission_sha256,
            fingerprint,
            reused,
            handed_in,
        } = graded;
        json::GradedResult {
            result: result.clone(),
            student: student.clone(),
            expected: expected.as_ref().map(json::Expected::from),
            time_limit_ms: *time_limit_ms,
            memory_limit_mib: *memory_limit_mib,
            warnings: warnings.clone(),
            submission_sha256: submission_sha256.clone(),
            fingerprint: fingerprint.clone(),
            reused: *reused,
            handed_in: handed_in.clone(),
        }
    }
}

impl From<json::GradedResult> for GradedResult {
    fn from(graded: json::GradedResult) -> GradedResult {
        let json::GradedResult {
            result,
            student,
            expected,
            time_limit_ms,
            memory_limit_mib,
            warnings,
            submission_sha256,
            fingerprint,
            reused,
            handed_in,
        } = graded;
        GradedResult {
            result,
            student,
            expected: expected.map(Expected::from),
            time_limit_ms,
            memory_limit_mib,
            warnings,
            submission_sha256,
            fingerprint,
            reused,
            handed_in,
        }
    }
}

impl From<&Expected> for json::Expected {
    fn from(expected: &Expected) -> json::Expected {
        let Expected {
            folder,
            kind,
            verdict,
            also,
            agrees,
        } = expected;
        json::Expected {
            folder: folder.clone(),
            kind: match kind {
                ExpectedKey::Folder => json::ExpectedKind::Folder,
                ExpectedKey::Tag => json::ExpectedKind::Tag,
            },
            verdict: *verdict,
            also: also.clone(),
            agrees: *agrees,
        }
    }
}

impl From<json::Expected> for Expected {
    fn from(expected: json::Expected) -> Expected {
        let json::Expected {
            folder,
            kind,
            verdict,
            also,
            agrees,
        } = expected;
        Expected {
            folder,
            kind: match kind {
                json::ExpectedKind::Folder => ExpectedKey::Folder,
                json::ExpectedKind::Tag => ExpectedKey::Tag,
            },
            verdict,
            also,
            agrees,
        }
    }
}

impl From<&GradedWith> for json::GradedWith {
    fn from(with: &GradedWith) -> json::GradedWith {
        let GradedWith {
            judge_version,
            seed,
            random_tests,
            time_limit_ms,
            memory_limit_mib,
            output_limit_kib,
            wall_time_factor,
        } = with;
        json::GradedWith {
            judge_version: judge_version.clone(),
            seed: *seed,
            random_tests: *random_tests,
            time_limit_ms: *time_limit_ms,
            memory_limit_mib: *memory_limit_mib,
            output_limit_kib: *output_limit_kib,
            wall_time_factor: *wall_time_factor,
        }
    }
}

impl From<json::GradedWith> for GradedWith {
    fn from(with: json::GradedWith) -> GradedWith {
        let json::GradedWith {
            judge_version,
            seed,
            random_tests,
            time_limit_ms,
            memory_limit_mib,
            output_limit_kib,
            wall_time_factor,
        } = with;
        GradedWith {
            judge_version,
            seed,
            random_tests,
            time_limit_ms,
            memory_limit_mib,
            output_limit_kib,
            wall_time_factor,
        }
    }
}

impl From<&ShardInfo> for json::ShardInfo {
    fn from(shard: &ShardInfo) -> json::ShardInfo {
        let ShardInfo {
            index,
            count,
            pairs,
        } = *shard;
        json::ShardInfo {
            index,
            count,
            pairs,
        }
    }
}

impl From<json::ShardInfo> for ShardInfo {
    fn from(shard: json::ShardInfo) -> ShardInfo {
        let json::ShardInfo {
            index,
            count,
            pairs,
        } = shard;
        ShardInfo {
            index,
            count,
            pairs,
        }
    }
}

/// A pair not graded as the wire writes it: its student only when the
/// report recorded one (`judge run`'s report records none).
impl From<&Ungraded> for json::NotGraded {
    fn from(pair: &Ungraded) -> json::NotGraded {
        let Ungraded {
            problem,
            submission,
            student,
            recorded,
        } = pair;
        json::NotGraded {
            problem: problem.clone(),
            submission: submission.clone(),
            student: recorded.then(|| student.clone()),
        }
    }
}

/// A pair not graded as read back: the student recorded, else the one its
/// path names under the layouts (`judge run`'s report, an older judge's).
impl From<json::NotGraded> for Ungraded {
    fn from(pair: json::NotGraded) -> Ungraded {
        let json::NotGraded {
            problem,
            submission,
            student,
        } = pair;
        match student {
            Some(student) => Ungraded {
                problem,
                submission,
                student,
                recorded: true,
            },
            None => super::unrecorded(problem, submission),
        }
    }
}

impl From<&Missing> for json::MissingPair {
    fn from(pair: &Missing) -> json::MissingPair {
        let Missing { student, problem } = pair;
        json::MissingPair {
            student: student.clone(),
            problem: problem.clone(),
        }
    }
}

impl From<json::MissingPair> for Missing {
    fn from(pair: json::MissingPair) -> Missing {
        let json::MissingPair { student, problem } = pair;
        Missing { student, problem }
    }
}

impl From<&Ignored> for json::IgnoredFile {
    fn from(file: &Ignored) -> json::IgnoredFile {
        let Ignored { path, reason } = file;
        json::IgnoredFile {
            path: path.clone(),
            reason: reason.clone(),
        }
    }
}

impl From<json::IgnoredFile> for Ignored {
    fn from(file: json::IgnoredFile) -> Ignored {
        let json::IgnoredFile { path, reason } = file;
        Ignored { path, reason }
    }
}

/// The JSON text of a grade's report, pretty-printed, ending with a newline.
pub(crate) fn render(grade: &Grade) -> Result<String, serde_json::Error> {
    json::render_grade(&json::GradeReport::from(grade))
}

/// Reads a grade's report (`path` names it in errors) into a grade.
pub(crate) fn parse(path: &std::path::Path, text: &str) -> Result<Grade, json::ReadError> {
    json::parse_grade(path, text).map(Grade::from)
}
