//! What `judge export --kattis` carries of a Polygon package (issue #29,
//! item 4): the sources of its testlib programs with the package's headers,
//! its solutions with their tags, and which tests are samples, read from
//! `problem.xml` again (loading made the same checks, so a package that
//! loaded reads here too). Writing them in Kattis' shape is
//! `crate::export`'s.

use super::tags::SolutionTag;
use super::{inside, xml, PROBLEM_XML};
use crate::beneath::{Beneath, BeneathError};
use crate::config::ConfigError;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// A testlib program of the package: its source file and the element of
/// `problem.xml` that names it.
#[derive(Clone, Debug)]
pub(crate) struct ProgramSource {
    pub(crate) path: PathBuf,
    /// `checker`, `validator`, `interactor`.
    pub(crate) element: &'static str,
}

/// The parts of a Polygon package an export carries.
#[derive(Debug)]
pub(crate) struct ExportParts {
    pub(crate) checker: Option<ProgramSource>,
    /// The first validator (the one the judge runs).
    pub(crate) validator: Option<ProgramSource>,
    pub(crate) interactor: Option<ProgramSource>,
    /// The header resources (`testlib.h` ...), by file name, laid beside
    /// every program as Polygon compiles them.
    pub(crate) headers: Vec<(String, Vec<u8>)>,
    /// Every solution and its tag, in `problem.xml`'s order.
    pub(crate) solutions: Vec<(PathBuf, SolutionTag)>,
    /// The names of the graded testset's sample tests (as the loaded
    /// package names its tests: the input file's name, `01`).
    pub(crate) samples: BTreeSet<String>,
    /// Whether the graded testset scores points (groups or points).
    pub(crate) scored: bool,
    /// The statement in Markdown, and whether it is only the LaTeX source.
    pub(crate) statement: Option<(String, bool)>,
}

/// The English statement (else the first language's) in Markdown: the
/// title, then the sections Polygon keeps in
/// `statement-sections/<language>/` (legend, input, output, notes) as they
/// are written (LaTeX math reads the same in Markdown); a package with
/// only `statements/<language>/problem.tex` gets that file as LaTeX source,
/// said to be so. Each file is read beneath the package's folder (issue
/// #29): a statement file that is a link out of the package refuses the
/// export, naming the link, so no host file is copied into what it writes.
fn statement(dir: &Path, title: &str) -> Result<Option<(String, bool)>, ConfigError> {
    let language = |root: &str| -> Option<PathBuf> {
        let root = dir.join(root);
        if root.join("english").is_dir() {
            return Some(root.join("english"));
        }
        let mut languages: Vec<PathBuf> = fs_err::read_dir(&root)
            .ok()?
            .flatten()
            .map(|entry| entry.path())
            .filter(|path| path.is_dir() && !path.ends_with(".html") && !path.ends_with(".pdf"))
            .collect();
        languages.sort();
        languages.into_iter().next()
    };
    let package = Beneath::new(dir).map_err(|error| ConfigError::beneath(dir, error))?;
    let read = |path: PathBuf| -> Result<Option<String>, ConfigError> {
        match package.read_text(&path) {
            Ok(Ok(text)) => Ok(Some(text).filter(|text| !text.trim().is_empty())),
            Err(error @ (BeneathError::Refused(_) | BeneathError::TooLarge(..))) => {
                Err(ConfigError::beneath(&path, error))
            }
            // Missing, not a file, not UTF-8: no section.
            Ok(Err(_)) | Err(BeneathError::Io { .. } | BeneathError::NotRegular(_)) => Ok(None),
        }
    };
    if let Some(sections) = language("statement-sections") {
        let mut text = format!("# {title}\n");
        let mut any = false;
        for (file, heading) in [
            ("legend.tex", None),
            ("input.tex", Some("Input")),
            ("output.tex", Some("Output")),
            ("interaction.tex", Some("Interaction")),
            ("notes.tex", Some("Notes")),
        ] {
            if let Some(section) = read(sections.join(file))? {
                any = true;
                if let Some(heading) = heading {
                    text.push_str(&format!("\n## {heading}\n"));
                }
                text.push('\n');
                text.push_str(section.trim_end());
                text.push('\n');
            }
        }
        if any {
            return Ok(Some((text, false)));
        }
    }
    let Some(statements) = language("statements") else {
        return Ok(None);
    };
    let Some(source) = read(statements.join("problem.tex"))? else {
        return Ok(None);
    };
    Ok(Some((
        format!(
            "# {title}\n\nThe statement, as Polygon's LaTeX source:\n\n```latex\n{}\n```\n",
            source.trim_end()
        ),
        true,
    )))
}

/// The export's parts of the Polygon package in `dir` (unpacked), or
/// `None` when `dir` is not one.
pub(crate) fn export_parts(dir: &Path) -> Result<Option<ExportParts>, ConfigError> {
    // The one detection: a folder that is a package of another format
    // first (a `problem.toml` beside `problem.xml`) was not read as Polygon.
    if !crate::package::is_of(dir, &super::Polygon) {
        return Ok(None);
    }
    let xml_path = dir.join(PROBLEM_XML);
    let problem = xml::read(dir, &xml_path)?;
    let testset = problem.graded_testset(&xml_path)?;
    let program = |element: &'static str,
                   source: &xml::Located<String>|
     -> Result<ProgramSource, ConfigError> {
        Ok(ProgramSource {
            path: inside(dir, &xml_path, (element, source.line), &source.value)?,
            element,
        })
    };
    let headers = super::programs::Headers::read(dir, &xml_path, &problem.resources)?;
    let mut samples = BTreeSet::new();
    for (index, test) in testset.tests.iter().enumerate() {
        if test.sample {
            let relative = xml::expand_pattern(&testset.input_path_pattern, index + 1);
            let name = Path::new(&relative)
                .file_name()
                .map(|name| name.to_string_lossy().into_owned())
                .unwrap_or_else(|| format!("{:02}", index + 1));
            samples.insert(name);
        }
    }
    let scored = !testset.groups.is_empty()
        || testset
            .tests
            .iter()
            .any(|test| test.points.is_some_and(|points| points > 0.0));
    Ok(Some(ExportParts {
        checker: problem
            .checker
            .as_ref()
            .map(|checker| program("checker", &checker.source))
            .transpose()?,
        validator: problem
            .validators
            .first()
            .map(|validator| program("validator", validator))
            .transpose()?,
        interactor: problem
            .interactor
            .as_ref()
            .map(|interactor| program("interactor", interactor))
            .transpose()?,
        headers: headers.files().to_vec(),
        solutions: problem
            .solutions
            .iter()
            .map(|solution| {
                inside(
                    dir,
                    &xml_path,
                    ("solution", solution.line),
                    &solution.source,
                )
                .map(|path| (path, solution.tag))
            })
            .collect::<Result<_, _>>()?,
        samples,
        scored,
        statement: statement(
            dir,
            problem
                .title
                .as_deref()
                .or(problem.short_name.as_deref())
                .unwrap_or("Problem"),
        )?,
    }))
}
