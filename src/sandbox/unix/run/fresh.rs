//! The fresh scratch a run awaits before it starts: the holder's second
//! report of the reset after the last run (issue #31), and a new namespace
//! for the run where that report does not come.

use crate::sandbox::unix::Sandbox;
use crate::sandbox::{RunSpec, SandboxError};
use std::path::{Path, PathBuf};

impl Sandbox {
    /// Waits, where a reset after the last run is under way, for the
    /// holder's report that the scratch and `/dev/shm` the run is about to
    /// use are fresh. Without it no run may start there: the namespace is
    /// dropped and a new one made for this run, whose work directory (seen
    /// by the judge at `workdir_view` in the old one) is returned as the
    /// judge sees it in the new one; `None` where the namespace is kept.
    ///
    /// The failure is the judge's own housekeeping, and the run may be an
    /// honest student's: it runs, in the new namespace, rather than being
    /// a JE (the namespace's holder left nothing of the old one to it).
    pub(super) fn await_fresh_scratch(
        &mut self,
        spec: &RunSpec,
        workdir_view: &Path,
    ) -> Result<Option<PathBuf>, SandboxError> {
        let Some(namespace) = &self.namespace else {
            return Ok(None);
        };
        let Err(error) = namespace.await_fresh() else {
            return Ok(None);
        };
        // The work directory as the host names it, to be seen again
        // through the new namespace.
        let workdir = (workdir_view.strip_prefix(namespace.view(Path::new("/"))))
            .map(|relative| Path::new("/").join(relative));
        self.namespace = None;
        self.ruleset_cache = None;
        // A view that is not the namespace's is no run's the judge makes
        // (`Sandbox::run_with` sees the work directory through it).
        let workdir = workdir.map_err(|_| error)?;
        self.ensure_namespace(spec)?;
        Ok(Some(self.view(&workdir)))
    }
}
