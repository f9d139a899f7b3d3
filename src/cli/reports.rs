//! The report flags of `judge run`, `judge grade`, `judge merge` and
//! `judge report`: a `--NAME FILE` per format of the list, handed to the
//! library as [`Targets`]. Which files a command writes, the checks of
//! their paths and what writing them came to are the grading layer's
//! ([`crate::grading::reports`]).

use crate::report::formats::{self, Chosen, Format, FORMATS};
use crate::report::targets::{TargetError, Targets};
use std::path::{Path, PathBuf};

// Report files rendered from results, by `judge run`, `judge grade` and
// `judge merge` alike: a flag per format of the one list
// ([`formats::FORMATS`]), so a new format needs no line here.
#[derive(Debug, Clone, Default)]
pub(crate) struct ReportArgs {
    /// The paths given, in the list's order.
    paths: Vec<(&'static Format, PathBuf)>,
}

impl ReportArgs {
    /// Only the report of pages (HTML, as the list of formats names it),
    /// to `path`.
    pub(crate) fn only_pages(path: Option<PathBuf>) -> Self {
        let paths = formats::pages().zip(path).into_iter().collect();
        ReportArgs { paths }
    }

    /// The report paths, with the command's `--json` (merge's `-o`).
    pub(crate) fn targets<'a>(&'a self, json: Option<&'a Path>) -> Targets<'a> {
        Targets {
            json,
            files: self.files(),
        }
    }

    /// Checks every report path before anything runs ([`Targets::check`]).
    pub(crate) fn check(&self, json: Option<&Path>) -> Result<(), TargetError> {
        self.targets(json).check()
    }

    /// Refuses a report among the hand-ins ([`Targets::refuse_among`]).
    pub(crate) fn refuse_among(
        &self,
        json: Option<&Path>,
        protected: &[&Path],
    ) -> Result<(), TargetError> {
        self.targets(json).refuse_among(protected)
    }

    /// The files asked for, as the library writes them.
    pub(crate) fn files(&self) -> Chosen<'_> {
        Chosen {
            files: self
                .paths
                .iter()
                .map(|(format, path)| (*format, path.as_path()))
                .collect(),
            ..Chosen::default()
        }
    }
}

/// A `--NAME FILE` flag per format of the list, with the format's help.
impl clap::Args for ReportArgs {
    fn augment_args(command: clap::Command) -> clap::Command {
        FORMATS.iter().fold(command, |command, format| {
            command.arg(
                clap::Arg::new(format.name)
                    .long(format.name)
                    .value_name("FILE")
                    .action(clap::ArgAction::Set)
                    .value_parser(clap::value_parser!(PathBuf))
                    .help(format.help),
            )
        })
    }

    fn augment_args_for_update(command: clap::Command) -> clap::Command {
        Self::augment_args(command)
    }
}

impl clap::FromArgMatches for ReportArgs {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let mut args = ReportArgs::default();
        args.update_from_arg_matches(matches)?;
        Ok(args)
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        for format in FORMATS {
            // Absent from `matches` only when a command does not offer the
            // reports; then none was asked for.
            let Ok(Some(path)) = matches.try_get_one::<PathBuf>(format.name) else {
                continue;
            };
            self.paths.retain(|(chosen, _)| chosen.name != format.name);
            self.paths.push((format, path.clone()));
        }
        let order = |format: &Format| FORMATS.iter().position(|other| other.name == format.name);
        self.paths.sort_by_key(|(format, _)| order(format));
        Ok(())
    }
}
