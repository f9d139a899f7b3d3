//! Finding an earlier result of `judge grade --resume` whose hand-in was
//! named from another folder (issue #32: a grade run from the folder above
//! the class's reused 0 of 40 results).

use super::Resume;
use crate::grading::grade::GradedResult;
use std::path::{Component, Path};

impl Resume {
    /// The earlier result of `problem` whose submission path ends as
    /// `submission` does in the most components (at least the file name),
    /// when exactly one does: the same hand-in, named from another folder
    /// (`class/submissions/rooks/a.py` run from the parent folder,
    /// `submissions/rooks/a.py` from the class's; issue #32). Its bytes are
    /// still checked against this run's ([`Resume::take`]), so a wrong
    /// match can only be a file of the same bytes under the same settings.
    pub(super) fn take_moved(&mut self, submission: &str, problem: &str) -> Option<GradedResult> {
        let components = |path: &str| -> Vec<String> {
            Path::new(path)
                .components()
                .filter(|component| matches!(component, Component::Normal(_)))
                .map(|component| component.as_os_str().to_string_lossy().into_owned())
                .collect()
        };
        let wanted = components(submission);
        let common = |path: &str| {
            components(path)
                .iter()
                .rev()
                .zip(wanted.iter().rev())
                .take_while(|(a, b)| a == b)
                .count()
        };
        let mut best: Option<((String, String), usize)> = None;
        let mut tied = false;
        for (path, of) in self.results.keys() {
            if of != problem {
                continue;
            }
            let shared = common(path);
            if shared == 0 {
                continue;
            }
            match &best {
                Some((_, most)) if shared < *most => {}
                Some((_, most)) if shared == *most => tied = true,
                _ => {
                    best = Some(((path.clone(), of.clone()), shared));
                    tied = false;
                }
            }
        }
        match best {
            Some((key, _)) if !tied => self.results.remove(&key),
            _ => None,
        }
    }
}
