//! What a package format is: a [`PackageFormat`] (its marker file, its
//! reader, and the folders of a package of it that no program may read),
//! and the one package model every format yields,
//! [`LoadedPackage`], so nothing above this layer asks which format a
//! problem came from. The formats are listed once, in
//! [`super::FORMATS`] (as ripgrep lists its flags), and told apart once, by
//! [`super::detect`].
//!
//! Adding a format is one module (its reader) and one line in
//! [`super::FORMATS`].
//! Not responsible for reading a format's files (its module and
//! [`crate::config`] do) nor for the bundled packages, which are always
//! ours ([`super::Package::bundled`]).

use super::Package;
use crate::config::judge::JudgeConfig;
use crate::config::kattis::PackageSubmission;
use crate::config::ConfigError;
use crate::runner::SubmissionResult;
use crate::sandbox::{DataFolder, Hidden};
use crate::verdict::Verdict;
use std::cell::OnceCell;
use std::path::{Path, PathBuf};

/// One package format: how a folder is recognised, and how it is read
/// into the one package model.
pub(crate) trait PackageFormat: Sync {
    /// The format's name in messages (`Kattis`).
    fn name(&self) -> &'static str;

    /// The file whose presence makes a folder a package of this format
    /// (`problem.yaml`).
    fn marker(&self) -> &'static str;

    /// Whether `path` is a package of this format: by default a folder
    /// holding [`Self::marker`] as a file.
    fn recognises(&self, path: &Path) -> bool {
        path.join(self.marker()).is_file()
    }

    /// The folders of the package in `dir` (as read: an archive's
    /// unpacked folder) that no run may see, each with why: its tests or
    /// data (masked), its whole folder (kept from compiles,
    /// [`DataFolder::PackageFolder`]). The package's own programs hide them
    /// from the moment it loads, and [`Package::secret_folders`] hands them
    /// to the grading layer, which hides them from every run of the
    /// command.
    fn secret_folders(&self, dir: &Path) -> Vec<(DataFolder, PathBuf)>;

    /// Reads the package in `dir`, whose id is `id`. `config` gives the
    /// languages its programs are compiled with, read only when it has
    /// programs; `answers` says whether every fixed test needs its answer.
    /// Its programs hide `hidden` (what the command hid before) and the
    /// package's [`Self::secret_folders`] while it loads.
    fn load(
        &self,
        dir: &Path,
        id: &str,
        config: &Languages<'_>,
        answers: Answers,
        hidden: &Hidden,
    ) -> Result<LoadedPackage, ConfigError>;
}

/// Whether loading a package requires every fixed test of a package with
/// programs of its own to have its answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Answers {
    Required,
    Optional,
}

/// Which languages' `time-factor` multiply a package's time limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TimeFactors {
    /// The judge's: the built-in defaults and judge.toml's.
    Configured,
    /// Only those judge.toml sets itself: the format states one time limit
    /// for every language (Kattis).
    SetByTheUser,
}

impl TimeFactors {
    /// `config` with the time factors this rule keeps.
    pub(crate) fn apply(self, config: &JudgeConfig) -> JudgeConfig {
        match self {
            TimeFactors::Configured => config.clone(),
            TimeFactors::SetByTheUser => config.without_default_time_factors(),
        }
    }
}

/// A package of any format, with what grading its own submissions needs
/// to know of its time limit and its programs.
#[derive(Debug)]
pub(crate) struct LoadedPackage {
    pub(crate) package: Package,
    /// The time limit the package states, if it does (else one is derived
    /// from its accepted submissions).
    pub(crate) time_limit_ms: Option<u64>,
    /// The slowest accepted run times this is a derived time limit.
    pub(crate) time_multiplier: f64,
    /// A derived time limit is rounded up to a multiple of this.
    pub(crate) time_resolution_ms: u64,
    /// Which `time-factor`s apply to the limit.
    pub(crate) time_factors: TimeFactors,
    /// The package's programs the judge cannot run and does without (an
    /// input validator in checktestdata beside a runnable one), with the
    /// reason.
    pub(crate) skipped_programs: Vec<(PathBuf, String)>,
    /// The package's files the format says not to run (`*.disabled`,
    /// dotfiles, a README among programs), with the reason.
    pub(crate) ignored_files: Vec<(PathBuf, String)>,
    /// Why the inputs cannot be checked, when no validator the judge runs
    /// checks them: grading is then a judge error.
    pub(crate) unchecked_inputs: Option<String>,
    /// What the reader did that a user should know (a symbolic link out of
    /// the package followed), one line each.
    pub(crate) notes: Vec<String>,
    /// The submissions the package lists itself, each with a tag naming
    /// the verdicts it may get (Polygon's `<solution tag=...>`); `None`:
    /// those in the verdict folders under `submissions/`.
    pub(crate) tagged: Option<TaggedSolutions>,
    /// The constants replaced in the files of the package's example
    /// submissions (a 2025-09 `problem.yaml`'s `constants`; issue #34), as
    /// they are in its own programs; `None`: nothing is replaced.
    pub(crate) example_constants:
        Option<std::sync::Arc<crate::config::kattis_constants::Constants>>,
}

/// A package's own list of its submissions, and what their tags mean.
#[derive(Debug)]
pub(crate) struct TaggedSolutions {
    /// Each submission, its `folder` the tag.
    pub(crate) solutions: Vec<PackageSubmission>,
    pub(crate) tags: &'static dyn SolutionTags,
}

/// What a format's solution tags mean, in place of Kattis' verdict
/// folders.
pub(crate) trait SolutionTags: Sync + std::fmt::Debug {
    /// Why a submission tagged `tag` is not graded, when it is not.
    fn not_graded(&self, tag: &str) -> Option<String>;

    /// The verdicts `tag` allows, the one it names first.
    fn verdicts(&self, tag: &str) -> Vec<Verdict>;

    /// Whether `result` agrees with `tag`.
    fn agrees(&self, tag: &str, result: &SubmissionResult) -> bool;

    /// What a user may do about `result` disagreeing with `tag`, when the
    /// format knows (a solution its authors saw pass, timed out here).
    fn hint(&self, _tag: &str, _result: &SubmissionResult) -> Option<String> {
        None
    }
}

/// The configuration a package's programs are compiled with: the one given,
/// else the one of `--config`'s rule for the problems folder, read the first
/// time it is asked for (a package without programs never reads it).
pub(crate) struct Languages<'a> {
    given: Option<&'a JudgeConfig>,
    problems_dir: &'a Path,
    read: OnceCell<JudgeConfig>,
}

impl<'a> Languages<'a> {
    pub(crate) fn new(given: Option<&'a JudgeConfig>, problems_dir: &'a Path) -> Languages<'a> {
        Languages {
            given,
            problems_dir,
            read: OnceCell::new(),
        }
    }

    /// The configuration: the one given, else `./judge.toml` or the defaults.
    pub(crate) fn get(&self) -> Result<&JudgeConfig, ConfigError> {
        if let Some(config) = self.given {
            return Ok(config);
        }
        if let Some(config) = self.read.get() {
            return Ok(config);
        }
        let config = super::load_config(None, Some(self.problems_dir))?;
        Ok(self.read.get_or_init(|| config))
    }
}
