//! `problem.xml` of a Polygon package, read into [`ProblemXml`]: the
//! testsets (limits, path patterns, tests, groups), the resources and
//! executables of `files/`, the checker, the interactor, the validators and
//! the tagged solutions.
//!
//! Only what grading needs is read; the rest of the file (statements,
//! tutorials, properties, stresses, tags, documents) is left alone, as
//! Polygon adds elements over time. What is read is checked whole: a
//! missing element, a value that is not a number, an unknown tag, method
//! or points policy is an error naming the file, the line and the element.
//! What the parts mean together (a group that no test names, a program
//! that is not in the package) is [`super`]'s to check.

use super::tags::SolutionTag;
use crate::config::{ConfigError, ConfigErrorKind};
use crate::testlib::is_plain_decimal;
use std::collections::HashMap;
use std::path::Path;

/// What grading reads of `problem.xml`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ProblemXml {
    /// `<problem short-name>`, when given.
    pub(crate) short_name: Option<String>,
    /// The first `<names><name value>` (English when there is one).
    pub(crate) title: Option<String>,
    pub(crate) testsets: Vec<TestsetXml>,
    /// `<files><resources><file path>`: headers and files every program
    /// of the package may include (testlib.h).
    pub(crate) resources: Vec<Located<String>>,
    /// `<files><executables><executable><source path>`: the generators
    /// (and other helpers) a test's `cmd` names by file stem.
    pub(crate) executables: Vec<Located<String>>,
    /// `<assets><checker>`.
    pub(crate) checker: Option<CheckerXml>,
    /// `<assets><interactor><source path>`.
    pub(crate) interactor: Option<Located<String>>,
    /// `<assets><validators><validator><source path>`, in order.
    pub(crate) validators: Vec<Located<String>>,
    /// `<assets><solutions><solution>`, in order.
    pub(crate) solutions: Vec<SolutionXml>,
    /// `<properties><property name="tests-wellformed" value="true">`: the
    /// author promises every test ends each line with LF and holds no
    /// other byte below 32, so a CR in a test is not the author's.
    pub(crate) tests_wellformed: bool,
    /// The `type` of every `<source path type>` (`cpp.g++17`), by path.
    pub(crate) source_types: HashMap<String, String>,
}

impl ProblemXml {
    /// The language standard `problem.xml` states for the source at `path`
    /// through its `type`: `c++20` for `cpp.g++20` or
    /// `cpp.gcc13-64-winlibs-g++20`, the number after the last `++`; `None`
    /// for a type that states none (`cpp.ms2017`, `python.3`).
    pub(crate) fn standard_of(&self, path: &str) -> Option<String> {
        cpp_standard(self.source_types.get(path)?)
    }
}

/// The C++ standard a Polygon source type names (see
/// [`ProblemXml::standard_of`]).
fn cpp_standard(kind: &str) -> Option<String> {
    let compiler = kind.strip_prefix("cpp.")?;
    let (_, version) = compiler.rsplit_once("++")?;
    let digits = version.len() == 2 && version.bytes().all(|byte| byte.is_ascii_digit());
    digits.then(|| format!("c++{version}"))
}

/// A value and the line of `problem.xml` it was read from.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Located<T> {
    pub(crate) value: T,
    pub(crate) line: usize,
}

/// `<checker>`: a testlib checker's source, or one of testlib's standard
/// checkers by name (`std::ncmp.cpp`) whose source the package carries
/// all the same.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct CheckerXml {
    /// `<source path>`.
    pub(crate) source: Located<String>,
    /// `<checker name>` (`std::wcmp.cpp`), when given.
    pub(crate) name: Option<String>,
}

/// `<solution tag>` with its `<source path>`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct SolutionXml {
    pub(crate) tag: SolutionTag,
    pub(crate) source: String,
    pub(crate) line: usize,
}

/// `<judging><testset>`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct TestsetXml {
    pub(crate) name: String,
    pub(crate) line: usize,
    pub(crate) time_limit_ms: u64,
    pub(crate) memory_limit_bytes: u64,
    /// `tests/%02d`.
    pub(crate) input_path_pattern: String,
    /// `tests/%02d.a`.
    pub(crate) answer_path_pattern: String,
    /// The lines of `<input-path-pattern>` and `<answer-path-pattern>`.
    pub(crate) pattern_lines: (usize, usize),
    pub(crate) tests: Vec<TestXml>,
    pub(crate) groups: Vec<GroupXml>,
}

/// How a test's input is made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Method {
    /// Written by hand: the file the input path pattern names.
    Manual,
    /// Printed by a generator: `cmd` is `gen 10 20 1` (the program's name,
    /// then its arguments).
    Generated { cmd: String },
}

/// `<test>`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct TestXml {
    pub(crate) line: usize,
    pub(crate) method: Method,
    pub(crate) sample: bool,
    /// `group`, when the testset has groups.
    pub(crate) group: Option<String>,
    /// `points`, when the testset scores tests.
    pub(crate) points: Option<f64>,
}

/// How a group's points are earned (`points-policy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PointsPolicy {
    /// `complete-group`: the group's points only when every test passes.
    CompleteGroup,
    /// `each-test`: each passed test's own points.
    EachTest,
}

/// `<group>`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct GroupXml {
    pub(crate) name: String,
    pub(crate) line: usize,
    /// `points` of the group itself, when given (else its tests' sum).
    pub(crate) points: Option<f64>,
    pub(crate) policy: PointsPolicy,
    /// `<dependencies><dependency group>`: groups every test of which
    /// must pass before this one scores.
    pub(crate) dependencies: Vec<String>,
}

/// The longest `<time-limit>` the judge applies: 10 minutes, far above any
/// contest's (Polygon's own limits are seconds).
const MAX_TIME_LIMIT_MS: u64 = 10 * 60 * 1000;

/// The largest `<memory-limit>` the judge applies: 64 GiB. A larger one
/// would be no limit at all on most hosts, so it is refused, never taken
/// as "unlimited".
const MAX_MEMORY_LIMIT_BYTES: u64 = 64 << 30;

/// Reads and parses the file at `path`, the `problem.xml` of the package
/// in `dir`, opened beneath the package's folder (issue #29: a
/// `problem.xml` that is a link out of the package is refused unread).
pub(crate) fn read(dir: &Path, path: &Path) -> Result<ProblemXml, ConfigError> {
    let bytes =
        super::read_beneath(dir, path).map_err(|error| ConfigError::beneath(path, error))?;
    let text = crate::config::problem::decode(path, &bytes)?;
    parse(path, &text)
}

impl ProblemXml {
    /// The testset the package is graded on: the one named `tests` (as
    /// Polygon names it), else the first; `path` is this file's, for the
    /// error when there is none.
    pub(crate) fn graded_testset(&self, path: &Path) -> Result<&TestsetXml, ConfigError> {
        self.testsets
            .iter()
            .find(|testset| testset.name == "tests")
            .or_else(|| self.testsets.first())
            .ok_or_else(|| ConfigError::invalid(path, "<judging>", "has no `<testset>`"))
    }
}

/// Reads `text`, the `problem.xml` at `path`.
pub(crate) fn parse(path: &Path, text: &str) -> Result<ProblemXml, ConfigError> {
    let document = roxmltree::Document::parse(text).map_err(|error| {
        let position = error.pos();
        ConfigError {
            path: path.to_owned(),
            kind: ConfigErrorKind::Parse {
                position: Some((position.row as usize, position.col as usize)),
                message: error.to_string(),
            },
        }
    })?;
    Reader {
        path,
        document: &document,
    }
    .problem()
}

/// Reads one document, naming `path` and the line in every error.
struct Reader<'a, 'input> {
    path: &'a Path,
    document: &'a roxmltree::Document<'input>,
}

type Node<'a, 'input> = roxmltree::Node<'a, 'input>;

impl<'a, 'input> Reader<'a, 'input> {
    fn line(&self, node: Node<'_, '_>) -> usize {
        self.document.text_pos_at(node.range().start).row as usize
    }

    /// An error about `node`: `line L: `<element>`: message`.
    fn invalid(&self, node: Node<'_, '_>, message: impl Into<String>) -> ConfigError {
        ConfigError {
            path: self.path.to_owned(),
            kind: ConfigErrorKind::Invalid {
                key: format!("<{}>", node.tag_name().name()),
                message: message.into(),
                line: Some(self.line(node)),
            },
        }
    }

    fn children<'n>(
        &self,
        node: Node<'n, 'input>,
        name: &'static str,
    ) -> impl Iterator<Item = Node<'n, 'input>> {
        node.children()
            .filter(move |child| child.is_element() && child.tag_name().name() == name)
    }

    fn child<'n>(&self, node: Node<'n, 'input>, name: &'static str) -> Option<Node<'n, 'input>> {
        self.children(node, name).next()
    }

    fn required_child<'n>(
        &self,
        node: Node<'n, 'input>,
        name: &'static str,
    ) -> Result<Node<'n, 'input>, ConfigError> {
        self.child(node, name)
            .ok_or_else(|| self.invalid(node, format!("has no `<{name}>`")))
    }

    fn attribute(&self, node: Node<'_, '_>, name: &str) -> Result<String, ConfigError> {
        node.attribute(name)
            .map(str::to_owned)
            .ok_or_else(|| self.invalid(node, format!("has no `{name}` attribute")))
    }

    /// The text of `<name>` under `node`, as a whole number.
    fn number_child(&self, node: Node<'_, '_>, name: &'static str) -> Result<u64, ConfigError> {
        let child = self.required_child(node, name)?;
        let text = child.text().unwrap_or("").trim();
        text.parse().map_err(|_| {
            let digits = !text.is_empty() && text.bytes().all(|byte| byte.is_ascii_digit());
            let message = if digits {
                format!("`{text}` is too large a number (at most {})", u64::MAX)
            } else {
                format!("expected a whole number, 0 or more, found `{text}`")
            };
            self.invalid(child, message)
        })
    }

    fn text_child(&self, node: Node<'_, '_>, name: &'static str) -> Result<String, ConfigError> {
        let child = self.required_child(node, name)?;
        let text = child.text().unwrap_or("").trim();
        if text.is_empty() {
            return Err(self.invalid(child, "is empty"));
        }
        Ok(text.to_owned())
    }

    /// `points`: a number of at least 0 as Polygon writes it (`20`,
    /// `2.5`); an exponent, a sign or anything else is refused.
    fn points(&self, node: Node<'_, '_>) -> Result<Option<f64>, ConfigError> {
        node.attribute("points")
            .map(|text| {
                let trimmed = text.trim();
                match trimmed.parse::<f64>() {
                    Ok(points) if is_plain_decimal(trimmed) && points.is_finite() => Ok(points),
                    _ => Err(self.invalid(
                        node,
                        format!(
                            "`points`: expected a number of at least 0 (such as `20` or `2.5`), \
                             found `{text}`"
                        ),
                    )),
                }
            })
            .transpose()
    }

    /// `<source path>` under `node`.
    fn source(&self, node: Node<'_, '_>) -> Result<Located<String>, ConfigError> {
        let source = self.required_child(node, "source")?;
        Ok(Located {
            value: self.attribute(source, "path")?,
            line: self.line(source),
        })
    }

    fn problem(&self) -> Result<ProblemXml, ConfigError> {
        let root = self.document.root_element();
        if root.tag_name().name() != "problem" {
            return Err(self.invalid(root, "expected the root element `<problem>`"));
        }
        let title = self.child(root, "names").and_then(|names| {
            let mut all = self.children(names, "name");
            let english = self
                .children(names, "name")
                .find(|name| name.attribute("language") == Some("english"));
            english
                .or_else(|| all.next())
                .and_then(|name| name.attribute("value"))
                .map(str::to_owned)
        });
        let judging = self.required_child(root, "judging")?;
        // Only the graded testset is read (the one named `tests`, else the
        // first): a `pretests` testset it does not grade cannot stop it
        // (issue #29 break-it).
        let graded = self
            .children(judging, "testset")
            .find(|testset| testset.attribute("name") == Some("tests"))
            .or_else(|| self.children(judging, "testset").next());
        let testsets = graded
            .map(|testset| self.testset(testset))
            .into_iter()
            .collect::<Result<Vec<_>, _>>()?;
        if testsets.is_empty() {
            return Err(self.invalid(judging, "has no `<testset>`"));
        }
        let mut resources = Vec::new();
        let mut executables = Vec::new();
        if let Some(files) = self.child(root, "files") {
            if let Some(list) = self.child(files, "resources") {
                for file in self.children(list, "file") {
                    resources.push(Located {
                        value: self.attribute(file, "path")?,
                        line: self.line(file),
                    });
                }
            }
            if let Some(list) = self.child(files, "executables") {
                for executable in self.children(list, "executable") {
                    executables.push(self.source(executable)?);
                }
            }
        }
        let mut checker = None;
        let mut interactor = None;
        let mut validators = Vec::new();
        let mut solutions = Vec::new();
        if let Some(assets) = self.child(root, "assets") {
            if let Some(node) = self.child(assets, "checker") {
                if let Some(kind) = node.attribute("type") {
                    if kind != "testlib" {
                        return Err(self.invalid(
                            node,
                            format!(
                                "checker type `{kind}` is not read: the judge runs `testlib` \
                                 checkers"
                            ),
                        ));
                    }
                }
                checker = Some(CheckerXml {
                    source: self.source(node)?,
                    name: node.attribute("name").map(str::to_owned),
                });
            }
            if let Some(node) = self.child(assets, "interactor") {
                interactor = Some(self.source(node)?);
            }
            if let Some(list) = self.child(assets, "validators") {
                for validator in self.children(list, "validator") {
                    validators.push(self.source(validator)?);
                }
            }
            if let Some(list) = self.child(assets, "solutions") {
                for solution in self.children(list, "solution") {
                    solutions.push(self.solution(solution)?);
                }
            }
        }
        Ok(ProblemXml {
            short_name: root.attribute("short-name").map(str::to_owned),
            title,
            testsets,
            resources,
            executables,
            checker,
            interactor,
            validators,
            solutions,
            tests_wellformed: self.tests_wellformed(root)?,
            source_types: root
                .descendants()
                .filter(|node| node.is_element() && node.tag_name().name() == "source")
                .filter_map(|node| Some((node.attribute("path")?, node.attribute("type")?)))
                .map(|(path, kind)| (path.to_owned(), kind.to_owned()))
                .collect(),
        })
    }

    /// `<properties><property name="tests-wellformed" value>`: `true` or
    /// `false`, and false when absent. Other properties are Polygon's to
    /// add and are left alone.
    fn tests_wellformed(&self, root: Node<'_, '_>) -> Result<bool, ConfigError> {
        let Some(list) = self.child(root, "properties") else {
            return Ok(false);
        };
        let mut wellformed = false;
        for property in self.children(list, "property") {
            if property.attribute("name") != Some("tests-wellformed") {
                continue;
            }
            wellformed = match self.attribute(property, "value")?.as_str() {
                "true" => true,
                "false" => false,
                other => {
                    return Err(self.invalid(
                        property,
                        format!("`tests-wellformed`: expected `true` or `false`, found `{other}`"),
                    ))
                }
            };
        }
        Ok(wellformed)
    }

    fn solution(&self, node: Node<'_, '_>) -> Result<SolutionXml, ConfigError> {
        let tag = self.attribute(node, "tag")?;
        let tag = SolutionTag::parse(&tag).ok_or_else(|| {
            self.invalid(
                node,
                format!(
                    "unknown solution tag `{tag}`; known: {}",
                    SolutionTag::ALL
                        .iter()
                        .map(|tag| tag.name())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )
        })?;
        Ok(SolutionXml {
            tag,
            source: self.source(node)?.value,
            line: self.line(node),
        })
    }

    fn testset(&self, node: Node<'_, '_>) -> Result<TestsetXml, ConfigError> {
        let name = self.attribute(node, "name")?;
        let time_limit_ms = self.number_child(node, "time-limit")?;
        if time_limit_ms == 0 {
            let child = self.required_child(node, "time-limit")?;
            return Err(self.invalid(child, "must be at least 1 (milliseconds)"));
        }
        if time_limit_ms > MAX_TIME_LIMIT_MS {
            let child = self.required_child(node, "time-limit")?;
            return Err(self.invalid(
                child,
                format!(
                    "{time_limit_ms} ms is more than the {MAX_TIME_LIMIT_MS} ms (10 minutes) the \
                     judge applies (the limit is in milliseconds)"
                ),
            ));
        }
        let memory_limit_bytes = self.number_child(node, "memory-limit")?;
        if memory_limit_bytes < 1024 * 1024 {
            let child = self.required_child(node, "memory-limit")?;
            return Err(self.invalid(
                child,
                format!("{memory_limit_bytes} bytes is less than 1 MiB (the limit is in bytes)"),
            ));
        }
        if memory_limit_bytes > MAX_MEMORY_LIMIT_BYTES {
            let child = self.required_child(node, "memory-limit")?;
            return Err(self.invalid(
                child,
                format!(
                    "{memory_limit_bytes} bytes is more than the {} GiB the judge applies (the \
                     limit is in bytes)",
                    MAX_MEMORY_LIMIT_BYTES >> 30
                ),
            ));
        }
        let count = self.number_child(node, "test-count")?;
        let input_path_pattern = self.text_child(node, "input-path-pattern")?;
        let answer_path_pattern = self.text_child(node, "answer-path-pattern")?;
        for (element, pattern) in [
            ("input-path-pattern", &input_path_pattern),
            ("answer-path-pattern", &answer_path_pattern),
        ] {
            if let Err(message) = check_pattern(pattern) {
                let child = self.required_child(node, element)?;
                return Err(self.invalid(child, message));
            }
        }
        if expand_pattern(&answer_path_pattern, 1) == expand_pattern(&input_path_pattern, 1) {
            let child = self.required_child(node, "answer-path-pattern")?;
            return Err(self.invalid(
                child,
                format!(
                    "`{answer_path_pattern}` names the input files (`<input-path-pattern>` is \
                     `{input_path_pattern}`): the answers would be the inputs; Polygon's answers \
                     are `tests/%02d.a`"
                ),
            ));
        }
        let pattern_lines = (
            self.line(self.required_child(node, "input-path-pattern")?),
            self.line(self.required_child(node, "answer-path-pattern")?),
        );
        let tests = match self.child(node, "tests") {
            Some(list) => self
                .children(list, "test")
                .map(|test| self.test(test))
                .collect::<Result<Vec<_>, _>>()?,
            None => Vec::new(),
        };
        if tests.len() as u64 != count {
            let child = self.required_child(node, "test-count")?;
            return Err(self.invalid(
                child,
                format!("says {count} tests, but `<tests>` lists {}", tests.len()),
            ));
        }
        let mut groups = Vec::new();
        if let Some(list) = self.child(node, "groups") {
            for group in self.children(list, "group") {
                groups.push(self.group(group)?);
            }
        }
        Ok(TestsetXml {
            name,
            line: self.line(node),
            time_limit_ms,
            memory_limit_bytes,
            input_path_pattern,
            answer_path_pattern,
            pattern_lines,
            tests,
            groups,
        })
    }

    fn test(&self, node: Node<'_, '_>) -> Result<TestXml, ConfigError> {
        let method = match node.attribute("method") {
            None | Some("manual") => Method::Manual,
            Some("generated") => {
                let cmd = self.attribute(node, "cmd")?;
                if cmd.split_whitespace().next().is_none() {
                    return Err(self.invalid(node, "`cmd` is empty"));
                }
                Method::Generated { cmd }
            }
            Some(other) => {
                return Err(self.invalid(
                    node,
                    format!("`method`: expected `manual` or `generated`, found `{other}`"),
                ))
            }
        };
        let sample = match node.attribute("sample") {
            None | Some("false") => false,
            Some("true") => true,
            Some(other) => {
                return Err(self.invalid(
                    node,
                    format!("`sample`: expected `true` or `false`, found `{other}`"),
                ))
            }
        };
        Ok(TestXml {
            line: self.line(node),
            method,
            sample,
            group: node.attribute("group").map(str::to_owned),
            points: self.points(node)?,
        })
    }

    fn group(&self, node: Node<'_, '_>) -> Result<GroupXml, ConfigError> {
        let name = self.attribute(node, "name")?;
        let policy = match node.attribute("points-policy") {
            None | Some("complete-group") => PointsPolicy::CompleteGroup,
            Some("each-test") => PointsPolicy::EachTest,
            Some(other) => {
                return Err(self.invalid(
                    node,
                    format!(
                        "`points-policy`: expected `complete-group` or `each-test`, found \
                         `{other}`"
                    ),
                ))
            }
        };
        let mut dependencies = Vec::new();
        if let Some(list) = self.child(node, "dependencies") {
            for dependency in self.children(list, "dependency") {
                dependencies.push(self.attribute(dependency, "group")?);
            }
        }
        Ok(GroupXml {
            name,
            line: self.line(node),
            points: self.points(node)?,
            policy,
            dependencies,
        })
    }
}

/// A path pattern holds exactly one `%d` conversion (`%02d`, `%d`, `%03d`)
/// and nothing else `printf` would read.
fn check_pattern(pattern: &str) -> Result<(), String> {
    let mut conversions = 0;
    let mut rest = pattern;
    while let Some(at) = rest.find('%') {
        let after = &rest[at + 1..];
        if let Some(escaped) = after.strip_prefix('%') {
            rest = escaped;
            continue;
        }
        let digits = after.chars().take_while(char::is_ascii_digit).count();
        if after[digits..].starts_with('d') {
            conversions += 1;
            rest = &after[digits + 1..];
        } else {
            return Err(format!(
                "`{pattern}` holds a `%` that is not `%d` (a test number such as `%02d`)"
            ));
        }
    }
    if conversions == 1 {
        Ok(())
    } else {
        Err(format!(
            "`{pattern}` must hold one `%d` (the test number, such as `%02d`), found {conversions}"
        ))
    }
}

/// `pattern` with the test number in place of its `%d` (`tests/%02d`, 3 →
/// `tests/03`); [`check_pattern`] has checked it.
pub(crate) fn expand_pattern(pattern: &str, number: usize) -> String {
    let mut out = String::new();
    let mut rest = pattern;
    while let Some(at) = rest.find('%') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        if let Some(escaped) = after.strip_prefix('%') {
            out.push('%');
            rest = escaped;
            continue;
        }
        let digits: String = after.chars().take_while(char::is_ascii_digit).collect();
        let width: usize = digits.parse().unwrap_or(0);
        out.push_str(&format!("{number:0width$}"));
        rest = after.get(digits.len() + 1..).unwrap_or("");
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests;
