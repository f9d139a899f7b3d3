//! What a package format is: a [`PackageFormat`] (its marker file, its
//! reader, what it builds of itself before a grade, and the folders of a
//! package of it that no program may read), and the one package model
//! every format yields, [`LoadedPackage`] (with the package's own
//! submissions and what it expects of each, [`OwnSubmissions`] and
//! [`Expectations`]), so nothing above this layer asks which format a
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
use crate::config::judge::{JudgeConfig, Language};
use crate::config::kattis_submissions::Rule;
use crate::config::{holds_marker, ConfigError};
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
    /// holding [`Self::marker`] as anything but a folder. A marker that is
    /// no regular file (a FIFO, a link to `/dev/zero` or to nothing) still
    /// makes it this format's package, which its load then refuses naming
    /// the marker, rather than "no package" (issue #34, break-it 45).
    fn recognises(&self, path: &Path) -> bool {
        holds_marker(path, self.marker())
    }

    /// The folders of the package in `dir` (as read: an archive's
    /// unpacked folder) that no run may see, each with why: its tests or
    /// data (masked), its whole folder (kept from compiles,
    /// [`DataFolder::PackageFolder`]). The package's own programs hide them
    /// from the moment it loads, and [`Package::secret_folders`] hands them
    /// to the grading layer, which hides them from every run of the
    /// command.
    fn secret_folders(&self, dir: &Path) -> Vec<(DataFolder, PathBuf)>;

    /// Builds what the package in `dir` makes of itself before its own
    /// submissions are graded (a Kattis package's `data/` from its
    /// `generators/generators.yaml`, issue #34), its programs compiled with
    /// `config`'s languages; `None`: it builds nothing, as by default.
    fn prepare(
        &self,
        _dir: &Path,
        _config: &JudgeConfig,
    ) -> Result<Option<Prepared>, PrepareError> {
        Ok(None)
    }

    /// Builds what the package in `dir` makes of itself as `judge gen
    /// --package` asks: the same build as [`Self::prepare`], but every case
    /// that could not be made is said rather than graded around, and a
    /// wrong file is an error even when the package has tests already (a
    /// Kattis package's `data/` from its `generators.yaml`); `None`: the
    /// format builds nothing, as by default.
    fn build(&self, _dir: &Path, _config: &JudgeConfig) -> Result<Option<Built>, PrepareError> {
        Ok(None)
    }

    /// The folders of the package in `dir` that building it
    /// ([`Self::prepare`]) keeps from its programs, besides
    /// [`Self::secret_folders`]: they stay hidden while its submissions are
    /// graded. None by default.
    fn prepared_folders(&self, _dir: &Path) -> Vec<(DataFolder, PathBuf)> {
        Vec::new()
    }

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

/// What building a package before its grade ([`PackageFormat::prepare`])
/// said: one line per note and a summary, each for stderr.
#[derive(Debug)]
pub(crate) struct Prepared {
    pub(crate) lines: Vec<String>,
}

/// What building a package for `judge gen --package`
/// ([`PackageFormat::build`]) came to.
#[derive(Debug)]
pub(crate) struct Built {
    /// What the build said, one line each, in order.
    pub(crate) lines: Vec<String>,
    /// Each case that could not be made or failed its check, with why; the
    /// package's tests are then left as they were.
    pub(crate) failures: Vec<String>,
}

/// Why a package could not build what it makes of itself before its grade
/// ([`PackageFormat::prepare`]), in terms of whose fault it is: the
/// package's files that say what to build are wrong (the user's to fix),
/// or the judge could not build it (a file not written, a sandbox not
/// made). Each reads as the format's own error.
#[derive(Debug, thiserror::Error)]
pub(crate) enum PrepareError {
    /// A file of the package is wrong: file, line, key.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// The judge failed building the package.
    #[error(transparent)]
    Judge(Box<dyn std::error::Error + Send + Sync>),
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
    /// Where the stated time limit is stated, in the format's words, when
    /// the format says (`` problem.yaml `limits.time_limit` ``, a Kattis
    /// package's deprecated `` `.timelimit` ``); `None`: not said.
    pub(crate) time_limit_stated_in: Option<String>,
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
    /// What the reader accepted though the format does not allow it, and
    /// how it read it (a layout of `test_group.yaml` BAPCtools reads), one
    /// line each.
    pub(crate) warnings: Vec<String>,
    /// The submissions the package lists itself and what each is expected
    /// to get (Kattis' verdict folders and `submissions.yaml`, Polygon's
    /// `<solution tag=...>`), read when they are graded
    /// ([`OwnSubmissions::read`]).
    pub(crate) submissions: Box<dyn OwnSubmissions>,
    /// The constants replaced in the files of the package's example
    /// submissions (a 2025-09 `problem.yaml`'s `constants`; issue #34), as
    /// they are in its own programs; `None`: nothing is replaced.
    pub(crate) example_constants:
        Option<std::sync::Arc<crate::config::kattis_constants::Constants>>,
}

/// One of a package's own submissions, and what its package says it is
/// expected to get, in the format's terms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct PackageSubmission {
    pub(crate) path: PathBuf,
    /// The key the format's [`Expectations`] read what it expects by: a
    /// Kattis package's verdict folder (`accepted`, `wrong_answer`), a
    /// Polygon solution's tag (`time-limit-exceeded-or-accepted`).
    pub(crate) expected_as: String,
    /// The language standard its package states for it (`c++20`, from a
    /// Polygon solution's `type="cpp.g++20"`), compiled with in place of
    /// the language's own `-std=`; `None` for the language's.
    pub(crate) standard: Option<String>,
}

/// What a format's submissions are expected by (the key
/// [`PackageSubmission::expected_as`] holds), as its words name it: the
/// table of `grade --package`, its tally and the report say it (issue #33:
/// a Polygon tag was called a folder).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ExpectedKey {
    /// A verdict folder (`submissions/accepted/`): Kattis and ours.
    Folder,
    /// A solution's tag in `problem.xml`: Polygon.
    Tag,
}

impl ExpectedKey {
    /// The word: `folder`, `tag`.
    pub(crate) fn word(self) -> &'static str {
        match self {
            ExpectedKey::Folder => "folder",
            ExpectedKey::Tag => "tag",
        }
    }
}

/// Where a package lists its own submissions. The list is read only when
/// they are graded (`grade --package`), so that a broken list keeps no
/// other command from using the package.
pub(crate) trait OwnSubmissions: Send + Sync + std::fmt::Debug {
    /// The submissions, each with what it is expected to get.
    fn read(&self) -> Result<ListedSubmissions, ConfigError>;
}

/// A package's own submissions, and what the package expects of them.
#[derive(Debug)]
pub(crate) struct ListedSubmissions {
    /// Each submission, with its verdict folder or tag (`expected_as`).
    pub(crate) submissions: Vec<PackageSubmission>,
    pub(crate) expectations: Box<dyn Expectations>,
    /// What reading the list found that a user should know (a key of
    /// `submissions.yaml` that matches nothing, a marker ignored), one
    /// line each.
    pub(crate) warnings: Vec<String>,
}

/// What a package expects of each of its own submissions, in its format's
/// terms (Kattis' verdict folders and `submissions.yaml`, Polygon's tags),
/// for the grading layer, which never asks which format it is.
pub(crate) trait Expectations: Send + Sync + std::fmt::Debug {
    /// Why `listed` is not graded, when the format does not grade it.
    fn not_graded(&self, listed: &PackageSubmission) -> Option<String>;

    /// The language and entry point the package states for `listed`, the
    /// language as `config` runs it; `Err`: why it is skipped (a language
    /// `config` does not have, two different ones stated).
    fn stated(
        &self,
        listed: &PackageSubmission,
        config: &JudgeConfig,
    ) -> Result<StatedLanguage, String>;

    /// Whether the package names the language of `listed` itself.
    fn names_language(&self, listed: &PackageSubmission) -> bool;

    /// The verdict a submission expected as `expected_as` (its verdict
    /// folder, its tag) is expected to get, if one, and the others it may
    /// get.
    fn verdicts(&self, expected_as: &str) -> (Option<Verdict>, Vec<Verdict>);

    /// What the format's submissions are expected by, for the words the
    /// table, its tally and the report use.
    fn key(&self) -> ExpectedKey;

    /// Whether `result` is what the package expects of `listed`.
    fn agrees(&self, listed: &PackageSubmission, result: &SubmissionResult) -> bool;

    /// What decided the expectation of `listed`, in the format's words, for
    /// the table of `grade --package` (`folder accepted`,
    /// `` submissions.yaml `mixed/*` line 3: permitted AC, WA ``).
    fn decided_by(&self, listed: &PackageSubmission) -> String;

    /// Where the package states a time limit and keeps the submissions a
    /// derived one comes from, in the format's words, for the error when
    /// none can be derived.
    fn limit_sources(&self) -> LimitSources;

    /// How the runs of `listed` bound a derived time limit from below.
    fn lower_bound(&self, listed: &PackageSubmission) -> LowerBound<'_>;

    /// Whether a demand looks at a test group's tests, so every test must
    /// run, not only those up to the first failure.
    fn runs_every_test(&self) -> bool;

    /// What a user may do about `result` disagreeing with what the package
    /// expects of `listed`, when the format knows (a solution its authors
    /// saw pass, timed out here).
    fn hint(
        &self,
        _listed: &PackageSubmission,
        _result: &SubmissionResult,
    ) -> Option<crate::hint::Hint> {
        None
    }
}

/// Where a package states its time limit (`problem.yaml`) and keeps the
/// submissions a derived limit comes from (`` `submissions/accepted/` ``).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct LimitSources {
    pub(crate) stated_in: &'static str,
    pub(crate) derived_from: &'static str,
}

/// The language and entry point a package states for a submission.
#[derive(Debug, Default)]
pub(crate) struct StatedLanguage {
    /// The language stated, as judge.toml names and runs it.
    pub(crate) language: Option<(String, Language)>,
    /// The entry point stated (`main.py`, Java's `Main`).
    pub(crate) entry: Option<String>,
    /// Why the submission is not graded when the language stated cannot
    /// run here, its toolchain's own reason following in parentheses (a
    /// Kattis `.py` file whose `#!` line asks for Python 2); `None`: the
    /// toolchain's reason alone.
    pub(crate) unavailable: Option<String>,
}

/// Which runs of a submission bound a derived time limit from below.
#[derive(Debug)]
pub(crate) enum LowerBound<'a> {
    /// None (not accepted, or `use_for_time_limit: false`).
    None,
    /// Every test: an accepted submission (which must pass), or one whose
    /// own `use_for_time_limit: lower` puts it in (which must not run out
    /// of time).
    All { must_pass: bool },
    /// The tests of these test group rules (`secret: {use_for_time_limit:
    /// lower}`), each of which must not run out of time.
    Groups(Vec<&'a Rule>),
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
