//! A Codeforces Polygon package (issue #29): a folder with `problem.xml`,
//! `files/`, `solutions/` and usually `tests/`, or the zip of one,
//! assembled into the same [`Package`] a Kattis package becomes.
//!
//! - `problem.xml` is read by [`xml`]; the testset named `tests` (else the
//!   first) gives the time and memory limits, the tests (by its path
//!   patterns, `tests/%02d` and `tests/%02d.a`) and the groups
//!   ([`groups`]).
//! - A test's answer is its `.a` file when the package has it, else the
//!   `main` solution's output; a generated test's input is its file when
//!   the package has it (a "full" package), else made by its generator
//!   ([`generate`]), so a package without `tests/` grades as one with it.
//! - The checker (testlib: 0 OK, 1 WA, 2 PE, 3 FAIL, 7 points), the first
//!   validator and the interactor are compiled beside the package's own
//!   headers ([`programs`]) and run in the sandbox as every package's
//!   programs are.
//! - Every solution keeps its tag, a set of verdicts ([`tags`]).
//! - A package made for Windows has its tests' CRLF line endings read as
//!   LF ([`line_endings`]).
//!
//! Where the package is unpacked, its programs laid out and its generated
//! inputs kept is the cache ([`cache_folder`]). Nothing here prints or
//! decides a grade: `crate::grading::package` grades what this returns.

mod archive;
mod export;
mod generate;
mod groups;
mod line_endings;
mod programs;
pub(crate) mod tags;
mod unique;
mod xml;

use super::format::{
    Answers, Expectations, ExpectedKey, Languages, LimitSources, ListedSubmissions, LoadedPackage,
    LowerBound, OwnSubmissions, PackageFormat, PackageSubmission, StatedLanguage, TimeFactors,
};
use super::{Package, ProblemRef};
use crate::beneath::{Beneath, BeneathError, LinkRefused};
use crate::config::judge::JudgeConfig;
use crate::config::problem::{LimitsToml, PackageTest, ProblemToml};
use crate::config::{ConfigError, ConfigErrorKind};
use crate::external::{
    Checker, CheckerProtocol, ProgramProblem, Role, Toolbox, ValidatorExitCodes,
};
use crate::interaction::InteractorProtocol;
use crate::problems::checkers::BuiltinChecker;
use crate::runner::{LinkScope, SubmissionResult};
use crate::sandbox::{DataFolder, Hidden};
use crate::verdict::Verdict;
pub(crate) use export::{export_parts, ExportParts, ProgramSource};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tags::SolutionTag;
use xml::Method;

/// The file that makes a folder a Polygon package.
pub(crate) const PROBLEM_XML: &str = "problem.xml";

/// The output a test's run may write: Polygon states none, so a generous
/// one (64 MiB) that still stops a program flooding its output.
const OUTPUT_LIMIT_KIB: u64 = 64 * 1024;

/// problemtools' default `time_multiplier`, as for a package of ours; a
/// Polygon package always states its time limit, so it only matters to
/// the report.
const TIME_MULTIPLIER: f64 = 5.0;

/// The Polygon format (`problem.xml`, or the zip of a package).
pub(crate) struct Polygon;

impl PackageFormat for Polygon {
    fn name(&self) -> &'static str {
        "Polygon"
    }

    fn marker(&self) -> &'static str {
        PROBLEM_XML
    }

    /// A folder with `problem.xml`, or a zip file (which must hold one).
    fn recognises(&self, path: &Path) -> bool {
        crate::config::holds_marker(path, PROBLEM_XML) || archive::is_zip(path)
    }

    /// One time limit for every language, as Polygon states it; every
    /// test has its answer (the `main` solution's output when the package
    /// ships none).
    /// No run may read the tests (`tests/`, and the generated ones in the
    /// cache), nor may a compile be lent the package.
    fn secret_folders(&self, dir: &Path) -> Vec<(DataFolder, PathBuf)> {
        vec![
            (DataFolder::PackageTests, dir.join("tests")),
            (
                DataFolder::PackageTests,
                generate::folder(&cache_folder().join("polygon")),
            ),
            (DataFolder::PackageFolder, dir.to_owned()),
        ]
    }

    fn load(
        &self,
        dir: &Path,
        id: &str,
        config: &Languages<'_>,
        _answers: Answers,
        hidden: &Hidden,
    ) -> Result<LoadedPackage, ConfigError> {
        let loaded = load(dir, id, config.get()?, hidden)?;
        let solutions = loaded.listed();
        Ok(LoadedPackage {
            example_constants: None,
            package: loaded.package,
            time_limit_ms: Some(loaded.time_limit_ms),
            time_limit_stated_in: None,
            time_multiplier: TIME_MULTIPLIER,
            time_resolution_ms: 1000,
            time_factors: TimeFactors::SetByTheUser,
            skipped_programs: Vec::new(),
            ignored_files: Vec::new(),
            unchecked_inputs: None,
            notes: loaded.notes,
            warnings: Vec::new(),
            submissions: Box::new(Solutions(solutions)),
        })
    }
}

/// A Polygon package, ready to grade.
#[derive(Debug)]
pub(crate) struct PolygonPackage {
    pub(crate) package: Package,
    /// The graded testset's time limit.
    pub(crate) time_limit_ms: u64,
    /// Every solution with its tag, in `problem.xml`'s order.
    pub(crate) solutions: Vec<Solution>,
    /// What loading did that a user should know, one line each.
    pub(crate) notes: Vec<String>,
}

/// A `<solution>`.
#[derive(Clone, Debug)]
pub(crate) struct Solution {
    pub(crate) path: PathBuf,
    pub(crate) tag: SolutionTag,
    /// The C++ standard its `type` states (`c++17` for `cpp.g++17`).
    pub(crate) standard: Option<String>,
}

/// The folder where packages are unpacked, their programs laid out and
/// their generated inputs kept: `$JUDGE_CACHE_DIR`, else
/// `$XDG_CACHE_HOME/judge`, else `~/.cache/judge`, else `judge-cache` in
/// the temporary folder.
pub(crate) fn cache_folder() -> PathBuf {
    let from = |name: &str| std::env::var_os(name).filter(|value| !value.is_empty());
    if let Some(dir) = from("JUDGE_CACHE_DIR") {
        return PathBuf::from(dir);
    }
    if let Some(dir) = from("XDG_CACHE_HOME") {
        return PathBuf::from(dir).join("judge");
    }
    if let Some(home) = from("HOME") {
        return PathBuf::from(home).join(".cache").join("judge");
    }
    std::env::temp_dir().join("judge-cache")
}

/// `relative` (as `problem.xml` at `xml` names it in `element`, on `line`)
/// inside the package in `dir`; a path that leaves the package is refused.
fn inside(
    dir: &Path,
    xml: &Path,
    (element, line): (&str, usize),
    relative: &str,
) -> Result<PathBuf, ConfigError> {
    let lexical = inside_lexically(dir, xml, (element, line), relative)?;
    not_linked_out(dir, xml, (element, line), &lexical)?;
    Ok(lexical)
}

/// Refuses `path` in the package in `dir` when it, or a folder on the way
/// to it, is a symbolic link out of the package (issue #29): its target is
/// never read, so a hostile package cannot hand a host file to the
/// solutions as a test, or print it in a report.
fn not_linked_out(
    dir: &Path,
    xml: &Path,
    (element, line): (&str, usize),
    path: &Path,
) -> Result<(), ConfigError> {
    let refused = |refused: LinkRefused| {
        ConfigError::invalid_on(xml, line, format!("<{element}>"), refused.with_hint())
    };
    match Beneath::new(dir) {
        Ok(package) => package.check(path).map_err(refused),
        Err(BeneathError::Refused(link)) => Err(refused(link)),
        // The package's folder itself unreadable: its files' readers say so.
        Err(BeneathError::Io { .. } | BeneathError::NotRegular(_) | BeneathError::TooLarge(..)) => {
            Ok(())
        }
    }
}

/// `relative` inside the package, checked only as a path (a test's
/// pattern): its links are checked on the test's own line.
fn inside_lexically(
    dir: &Path,
    xml: &Path,
    (element, line): (&str, usize),
    relative: &str,
) -> Result<PathBuf, ConfigError> {
    let path = Path::new(relative);
    let plain = path
        .components()
        .all(|component| matches!(component, std::path::Component::Normal(_)));
    if !plain || relative.is_empty() {
        return Err(ConfigError::invalid_on(
            xml,
            line,
            format!("<{element}>"),
            format!("`{relative}` is not a path inside the package"),
        ));
    }
    Ok(dir.join(path))
}

/// Reads the Polygon package at `path` (a folder or a zip) as the problem
/// `id`; its programs hide `hidden` and its secret folders.
///
/// The id is the name commands know the package by (its folder's, or its
/// zip's, in the problems folder), never `<problem short-name>`: `judge
/// problems` lists it and `judge run ID` finds it (issue #29 break-it:
/// the short name was listed, and refused as unknown).
fn load(
    path: &Path,
    id: &str,
    config: &JudgeConfig,
    hidden: &Hidden,
) -> Result<PolygonPackage, ConfigError> {
    let cache = cache_folder().join("polygon");
    if !archive::is_zip(path) {
        return load_folder(path, path, id, config, hidden, &cache);
    }
    let dir = archive::unpack(path, &cache)?;
    // An error names the zip and the file in it (`sum.zip/problem.xml`),
    // not the cache folder it was unpacked to (issue #29 break-it).
    load_folder(path, &dir, id, config, hidden, &cache).map_err(|mut error| {
        if let Ok(relative) = error.path.strip_prefix(&dir) {
            error.path = path.join(relative);
        }
        error
    })
}

/// [`load`] of the package in the folder `dir` (the zip at `path`
/// unpacked, or `path` itself).
fn load_folder(
    path: &Path,
    dir: &Path,
    id: &str,
    config: &JudgeConfig,
    hidden: &Hidden,
    cache: &Path,
) -> Result<PolygonPackage, ConfigError> {
    let dir = dir.to_owned();
    let cache = cache.to_owned();
    let xml_path = dir.join(PROBLEM_XML);
    let problem = xml::read(&dir, &xml_path)?;
    let testset = problem.graded_testset(&xml_path)?;
    unique::check(&xml_path, &problem, testset)?;
    let id = id.to_owned();
    let secret_folders = Polygon.secret_folders(&dir);
    let hidden = Arc::new(hidden.with(&secret_folders));

    let limits = LimitsToml {
        time_limit_ms: testset.time_limit_ms,
        memory_limit_mib: testset.memory_limit_bytes.div_ceil(1 << 20),
        output_limit_kib: OUTPUT_LIMIT_KIB,
        tool_time_limit_ms: None,
        tool_memory_limit_mib: None,
    };
    let headers = programs::Headers::read(&dir, &xml_path, &problem.resources)?;
    let stage = |element: &str, line: usize, source: &str| {
        programs::stage(
            &dir,
            &xml_path,
            (element, line),
            source,
            problem.standard_of(source).as_deref(),
            &headers,
            config,
            &cache,
        )
    };
    let toolbox = || {
        Toolbox::new(
            config.compile_limits(),
            config.tool_limits(&limits),
            Arc::clone(&hidden),
            LinkScope::package(&dir),
        )
        .map_err(|fault| ConfigError::invalid(&dir, "programs", fault.0))
    };

    let mut solutions = Vec::new();
    for solution in &problem.solutions {
        let path = inside(
            &dir,
            &xml_path,
            ("solution", solution.line),
            &solution.source,
        )?;
        if !path.is_file() {
            return Err(ConfigError {
                path: xml_path.clone(),
                kind: ConfigErrorKind::Invalid {
                    key: "<solution>".to_owned(),
                    message: format!(
                        "`{}` (tag `{}`) is not a file of the package",
                        solution.source, solution.tag
                    ),
                    line: Some(solution.line),
                },
            });
        }
        solutions.push(Solution {
            path,
            tag: solution.tag,
            standard: problem.standard_of(&solution.source),
        });
    }
    let main = problem
        .solutions
        .iter()
        .find(|solution| solution.tag == SolutionTag::Main)
        .ok_or_else(|| {
            ConfigError::invalid(
                &xml_path,
                "<solutions>",
                "no solution is tagged `main`; the main solution answers the tests",
            )
        })?;
    let reference = stage("solution", main.line, &main.source)?
        .tool(Role::Reference)
        .described_as(format!("the package's main solution `{}`", main.source));

    let validator = problem
        .validators
        .first()
        .map(|source| {
            stage("validator", source.line, &source.value).map(|program| {
                (
                    program.tool(Role::Validator),
                    ValidatorExitCodes::Testlib,
                    Vec::new(),
                )
            })
        })
        .transpose()?;
    let checker = match &problem.checker {
        Some(checker) => Checker::Program {
            tool: Box::new(
                stage("checker", checker.source.line, &checker.source.value)?.tool(Role::Checker),
            ),
            protocol: CheckerProtocol::Testlib,
            args: Vec::new(),
        },
        // Polygon always names a checker; a hand-made package without
        // one is compared token by token.
        None => Checker::Builtin(BuiltinChecker::Tokens),
    };
    let interactor = problem
        .interactor
        .as_ref()
        .map(|source| stage("interactor", source.line, &source.value))
        .transpose()?;

    // The tests, in order: from the package when it has them, else made.
    let mut text = line_endings::TestText::new(line_endings::WindowsMark::of(
        &dir,
        problem.tests_wellformed,
    ));
    let mut generators = None;
    let mut tests = Vec::with_capacity(testset.tests.len());
    for (index, test) in testset.tests.iter().enumerate() {
        let number = index + 1;
        let input_relative = xml::expand_pattern(&testset.input_path_pattern, number);
        let answer_relative = xml::expand_pattern(&testset.answer_path_pattern, number);
        let (input_line, answer_line) = testset.pattern_lines;
        let input_path = inside_lexically(
            &dir,
            &xml_path,
            ("input-path-pattern", input_line),
            &input_relative,
        )?;
        let answer_path = inside_lexically(
            &dir,
            &xml_path,
            ("answer-path-pattern", answer_line),
            &answer_relative,
        )?;
        for path in [&input_path, &answer_path] {
            not_linked_out(&dir, &xml_path, ("test", test.line), path)?;
        }
        let name = input_path
            .file_name()
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_else(|| format!("{number:02}"));
        let in_package = input_path.is_file();
        let input = if in_package {
            text.read(read_text(&dir, &input_path)?).0
        } else {
            let input = match &test.method {
                Method::Manual => {
                    return Err(ConfigError {
                        path: xml_path.clone(),
                        kind: ConfigErrorKind::Invalid {
                            key: "<test>".to_owned(),
                            message: format!(
                                "test {name} is written by hand, but `{input_relative}` is not in \
                                 the package"
                            ),
                            line: Some(test.line),
                        },
                    })
                }
                Method::Generated { cmd } => {
                    if generators.is_none() {
                        let mut staged = Vec::new();
                        for executable in &problem.executables {
                            let name = Path::new(&executable.value)
                                .file_stem()
                                .map(|stem| stem.to_string_lossy().into_owned())
                                .unwrap_or_default();
                            staged.push((
                                name,
                                stage("executable", executable.line, &executable.value)?,
                            ));
                        }
                        generators = Some(generate::Generators::new(toolbox()?, staged, &cache));
                    }
                    let Some(generators) = generators.as_mut() else {
                        continue;
                    };
                    generators.input(
                        cmd,
                        &generate::Origin {
                            xml: &xml_path,
                            line: test.line,
                            test: &name,
                        },
                    )?
                }
            };
            input
        };
        let answer = if answer_path.is_file() {
            Some(text.read(read_text(&dir, &answer_path)?).0)
        } else {
            None
        };
        tests.push(PackageTest {
            name,
            path: input_path,
            input,
            answer,
        });
    }
    if tests.is_empty() {
        return Err(ConfigError::invalid(
            &xml_path,
            "<testset>",
            format!("the testset `{}` has no test", testset.name),
        ));
    }
    let names: Vec<String> = tests.iter().map(|test| test.name.clone()).collect();
    let groups = groups::group_tree(&xml_path, testset, &names)?;

    let title = problem
        .title
        .clone()
        .or_else(|| problem.short_name.clone())
        .unwrap_or_else(|| id.clone());
    let profiles = vec![testset.name.clone()];
    let mut program = ProgramProblem::new(
        &id,
        &title,
        &profiles,
        toolbox()?,
        Some(reference),
        None,
        validator,
        checker,
    );
    if let Some(interactor) = interactor {
        program = program.with_interactor(
            interactor.tool(Role::Interactor),
            InteractorProtocol::Testlib {
                checker: problem.checker.is_some(),
            },
        );
    }
    let manifest = ProblemToml::of_programs(title, String::new(), profiles, limits);
    let package = Package {
        id,
        problem: ProblemRef::Programs(Arc::new(program)),
        manifest,
        dir: Some(dir.clone()),
        tests,
        groups,
        secret_folders,
    };
    package.check_tests()?;
    Ok(PolygonPackage {
        package,
        time_limit_ms: testset.time_limit_ms,
        solutions,
        notes: text.note(path).into_iter().collect(),
    })
}

/// A test file's text.
fn read_text(dir: &Path, path: &Path) -> Result<String, ConfigError> {
    let bytes = read_beneath(dir, path).map_err(|error| ConfigError::beneath(path, error))?;
    crate::config::problem::decode(path, &bytes)
}

/// The bytes of the file at `path` in the package in `dir`, opened beneath
/// the package's folder (issue #34): a link on the way that leads out of
/// the package is refused by the kernel when the file is opened, so one
/// made after [`not_linked_out`] looked is never followed either.
pub(super) fn read_beneath(dir: &Path, path: &Path) -> Result<Vec<u8>, BeneathError> {
    Beneath::new(dir)?.read(path)
}

impl PolygonPackage {
    /// The solutions as a package's submissions: each one is expected as
    /// its tag (`time-limit-exceeded-or-accepted`).
    fn listed(&self) -> Vec<PackageSubmission> {
        self.solutions
            .iter()
            .map(|solution| PackageSubmission {
                path: solution.path.clone(),
                expected_as: solution.tag.name().to_owned(),
                standard: solution.standard.clone(),
            })
            .collect()
    }
}

/// A Polygon package's solutions, listed by `problem.xml` as it loaded.
#[derive(Debug)]
struct Solutions(Vec<PackageSubmission>);

impl OwnSubmissions for Solutions {
    fn read(&self) -> Result<ListedSubmissions, ConfigError> {
        Ok(ListedSubmissions {
            submissions: self.0.clone(),
            expectations: Box::new(Tags),
            warnings: Vec::new(),
        })
    }
}

/// The meanings of Polygon's solution tags (see [`tags`]), each
/// solution expected as its tag.
#[derive(Debug)]
struct Tags;

impl Expectations for Tags {
    /// `do-not-run`, and a name that is no tag, are not graded.
    fn not_graded(&self, listed: &PackageSubmission) -> Option<String> {
        let tag = &listed.expected_as;
        match SolutionTag::parse(tag) {
            Some(SolutionTag::DoNotRun) => Some("tagged `do-not-run` in problem.xml".to_owned()),
            Some(_) => None,
            None => Some(format!("`{tag}` is not a Polygon solution tag")),
        }
    }

    /// `problem.xml` states no language: a solution runs by its extension.
    fn stated(
        &self,
        _listed: &PackageSubmission,
        _config: &JudgeConfig,
    ) -> Result<StatedLanguage, String> {
        Ok(StatedLanguage::default())
    }

    fn names_language(&self, _listed: &PackageSubmission) -> bool {
        false
    }

    /// The tag's verdicts, the one it names first.
    fn verdicts(&self, tag: &str) -> (Option<Verdict>, Vec<Verdict>) {
        let verdicts = SolutionTag::parse(tag).map_or_else(Vec::new, SolutionTag::verdicts);
        (
            verdicts.first().copied(),
            verdicts.into_iter().skip(1).collect(),
        )
    }

    fn key(&self) -> ExpectedKey {
        ExpectedKey::Tag
    }

    /// A solution that did not compile agrees with no tag.
    fn agrees(&self, listed: &PackageSubmission, result: &SubmissionResult) -> bool {
        let Some(tag) = SolutionTag::parse(&listed.expected_as) else {
            return false;
        };
        if result.compile.verdict.is_some() {
            return false;
        }
        let tests: Vec<Verdict> = result.tests.iter().map(|test| test.verdict).collect();
        tag.agrees(result.verdict, &tests)
    }

    /// The tag alone decides: `tag main`.
    fn decided_by(&self, listed: &PackageSubmission) -> String {
        format!("{} {}", self.key().word(), listed.expected_as)
    }

    /// `problem.xml` states the limit (a Polygon package always does, so
    /// none is derived).
    fn limit_sources(&self) -> LimitSources {
        LimitSources {
            stated_in: "problem.xml",
            derived_from: "the solutions tagged `main` or `accepted`",
        }
    }

    /// An `accepted` solution must pass, and bounds the limit (a Polygon
    /// package states its limit, so none is derived).
    fn lower_bound(&self, listed: &PackageSubmission) -> LowerBound<'_> {
        if listed.expected_as == crate::discovery::ACCEPTED_FOLDER {
            LowerBound::All { must_pass: true }
        } else {
            LowerBound::None
        }
    }

    fn runs_every_test(&self) -> bool {
        false
    }

    /// A solution that must pass (`main`, `accepted`) and timed out: its
    /// authors saw it pass on Polygon's machine, which may be faster than
    /// this host.
    fn hint(
        &self,
        listed: &PackageSubmission,
        result: &SubmissionResult,
    ) -> Option<crate::hint::Hint> {
        let tag = SolutionTag::parse(&listed.expected_as)?;
        if !matches!(tag, SolutionTag::Main | SolutionTag::Accepted)
            || result.verdict != Verdict::TimeLimitExceeded
        {
            return None;
        }
        let which = if tag == SolutionTag::Main {
            "the package's main solution"
        } else {
            "tagged `accepted`"
        };
        Some(crate::hint::Hint::new(format!(
            "`{}` ({which}) exceeded the time limit here, which Polygon's machine met; when this \
             host is slower, give its language a `time-factor` in judge.toml ([languages.{}] \
             time-factor = 1.5; see docs/polygon.md)",
            result.submission, result.language
        )))
    }
}
