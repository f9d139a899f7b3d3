//! A worker's Landlock ruleset: the rules of a program and its paths,
//! opened once and kept between runs, the run's fresh `/dev/shm` added per
//! run, and the key that says when they are made anew.

use crate::sandbox::hidden::SYSTEM_READ_PATHS;
use crate::sandbox::unix::landlock::{allow_fresh_folder, Grant, PreparedRules};
use crate::sandbox::unix::Sandbox;
use crate::sandbox::{BenchLayer, RunSpec, SandboxError, Trust};
use std::os::fd::{AsFd, AsRawFd, OwnedFd, RawFd};
use std::path::{Path, PathBuf};

/// Device files a submission may read and write.
const DEVICE_PATHS: &[&str] = &["/dev/null", "/dev/zero", "/dev/urandom", "/dev/random"];

/// A worker's Landlock rules for its last program and paths.
pub(in crate::sandbox::unix) struct CachedRules {
    key: RulesetKey,
    prepared: PreparedRules,
    /// The ruleset of the current run (made anew per run where the run has
    /// a fresh `/dev/shm`; `None` where the kernel has no Landlock).
    ruleset: Option<OwnedFd>,
}

/// What a Landlock ruleset depends on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(in crate::sandbox::unix) struct RulesetKey {
    trust: Trust,
    program: PathBuf,
    read_paths: Vec<PathBuf>,
    workdir: PathBuf,
    /// Landlock rules hold inodes, not names: a scratch directory made anew
    /// needs a new ruleset, and so does a new namespace.
    workdir_inode: (u64, u64),
    /// The program's file as the host shows it: a program written anew at
    /// the same path gets rules on its new inode.
    program_inode: (u64, u64),
    namespace_generation: u64,
}

impl Sandbox {
    /// The Landlock ruleset for this run, built once per distinct program
    /// and paths and reused: a worker runs the same program test after test.
    pub(super) fn ruleset(
        &mut self,
        spec: &RunSpec,
        workdir: &Path,
        workdir_view: &Path,
    ) -> Result<Option<RawFd>, SandboxError> {
        let key = RulesetKey {
            trust: spec.trust,
            program: spec.program.clone(),
            read_paths: spec.read_paths.clone(),
            workdir: workdir.to_path_buf(),
            // The box is made with the worker's namespace, whose
            // generation is in the key: no look at it per run (a path
            // through the holder's `/proc/N/root`, issue #31).
            workdir_inode: if self.namespace.is_some()
                && workdir_view == self.view(&self.directory.join("box"))
            {
                (0, 0)
            } else {
                inode_of(workdir_view)
            },
            program_inode: inode_of(&spec.program),
            namespace_generation: self.namespace_generation,
        };
        // The run's `/dev/shm` is a tmpfs mounted anew for every run, with
        // nothing above it that lives longer (the scratch has the box): a
        // rule holds the inode of the one it was made for, and the next
        // one may even have the same device and inode numbers. So with it
        // a ruleset is made for every run, from the other rules' paths
        // opened once (`PreparedRules`), and the fresh `/dev/shm` is added
        // to it by `add_fresh_rules` once it is mounted: the same rules as
        // opening every path again (issue #31: the look-ups were a fifth
        // of the judge's CPU a test).
        let fresh = self.fresh_shm().is_some();
        match &mut self.ruleset_cache {
            Some(cached) if cached.key == key => {
                if fresh {
                    cached.ruleset = cached.prepared.ruleset()?;
                }
            }
            _ => {
                self.ruleset_cache = None;
                let Some(prepared) = self.prepare_rules(spec, workdir_view) else {
                    return Ok(None);
                };
                let ruleset = prepared.ruleset()?;
                self.ruleset_cache = Some(CachedRules {
                    key,
                    prepared,
                    ruleset,
                });
            }
        }
        Ok((self.ruleset_cache.as_ref())
            .and_then(|cached| cached.ruleset.as_ref())
            .map(AsRawFd::as_raw_fd))
    }

    /// Adds the run's own paths (its fresh `/dev/shm`, once mounted) to
    /// the ruleset [`Sandbox::ruleset`] made for it.
    pub(super) fn add_fresh_rules(&self) -> Result<(), SandboxError> {
        let (Some(shm), Some(ruleset)) = (
            self.fresh_shm(),
            (self.ruleset_cache.as_ref()).and_then(|cached| cached.ruleset.as_ref()),
        ) else {
            return Ok(());
        };
        allow_fresh_folder(ruleset.as_fd(), &shm, Grant::Workdir)
    }

    /// The run's private `/dev/shm` as the judge sees it, where runs have
    /// one (mounted anew for each).
    fn fresh_shm(&self) -> Option<PathBuf> {
        (self.namespace.as_ref())
            .filter(|namespace| namespace.private_shm)
            .map(|_| self.view(Path::new(crate::sandbox::unix::namespaces::SHM)))
    }

    /// The rules of every run of `spec`'s program and paths on this worker
    /// (`None` without Landlock), each path opened once.
    fn prepare_rules(&self, spec: &RunSpec, workdir_view: &Path) -> Option<PreparedRules> {
        if self.isolation.landlock_abi.is_none() || self.is_off(BenchLayer::Landlock) {
            return None;
        }
        // The same rules for submissions and compilers: reads from system
        // directories, the program (or toolchain) and its own folder, so a
        // submission cannot read an answer file and a compile of
        // `#include "/path/to/1.ans"` fails; writes to the work directory
        // only (and the run's own `/dev/shm`, added per run), and never a
        // device node. Paths are opened as the program will see them (its
        // own /proc, its scratch tmpfs).
        let mut rules = PreparedRules::new();
        for path in SYSTEM_READ_PATHS {
            rules.allow(&self.view(Path::new(path)), Grant::Read);
        }
        for path in &spec.read_paths {
            rules.allow(&self.view(path), Grant::Read);
        }
        rules.allow(&self.view(&spec.program), Grant::Read);
        for path in DEVICE_PATHS {
            rules.allow(&self.view(Path::new(path)), Grant::Device);
        }
        rules.allow(workdir_view, Grant::Workdir);
        Some(rules)
    }
}

/// The device and inode of `path`, `(0, 0)` when it cannot be read.
fn inode_of(path: &Path) -> (u64, u64) {
    fs_err::metadata(path).map_or((0, 0), |metadata| {
        use std::os::unix::fs::MetadataExt;
        (metadata.dev(), metadata.ino())
    })
}

/// The Landlock rules a worker keeps between runs (issue #31): the paths
/// opened once, the run's fresh `/dev/shm` added per run, a program written
/// anew given rules on its new inode.
#[cfg(test)]
mod tests {
    use crate::sandbox::tests::shell;
    use crate::sandbox::{RunSpec, Sandbox};
    use std::os::unix::fs::PermissionsExt;

    /// A sandbox and its root directory (kept alive with it).
    fn sandbox() -> (tempfile::TempDir, Sandbox) {
        let root = tempfile::tempdir().unwrap();
        fs_err::set_permissions(root.path(), PermissionsExt::from_mode(0o711)).unwrap();
        let sandbox = Sandbox::new(root.path(), std::sync::Arc::default()).unwrap();
        (root, sandbox)
    }

    #[test]
    #[ignore = "needs root: the worker namespace with its private /dev/shm; .ci/run runs it as root: cargo test --locked --lib -- --ignored"]
    fn every_run_of_a_worker_may_write_its_own_fresh_shm() {
        let (_root, mut sandbox) = sandbox();
        for round in 0..5 {
            let measured = sandbox
                .run(&shell(
                    "test ! -e /dev/shm/left && echo 5 > /dev/shm/left && cat /dev/shm/left",
                ))
                .unwrap();
            assert!(measured.succeeded(), "round {round}: {measured:?}");
            assert_eq!(measured.stdout, b"5\n", "round {round}");
        }
    }

    #[test]
    #[ignore = "needs root: the worker namespace and Landlock rules on the program alone; .ci/run runs it as root: cargo test --locked --lib -- --ignored"]
    fn a_program_written_anew_at_its_path_runs_as_written() {
        let (_root, mut sandbox) = sandbox();
        // Outside the masked `/tmp`, so the run sees the folder as the host
        // does rather than a bind of the first file.
        let folder = tempfile::tempdir_in(env!("CARGO_MANIFEST_DIR")).unwrap();
        fs_err::set_permissions(folder.path(), PermissionsExt::from_mode(0o755)).unwrap();
        let program = folder.path().join("program");
        for (round, word) in ["first", "second"].into_iter().enumerate() {
            // Written beside it and renamed over it: a new inode.
            let written = folder.path().join("program.new");
            fs_err::write(&written, format!("#!/bin/sh\necho {word}\n")).unwrap();
            fs_err::set_permissions(&written, PermissionsExt::from_mode(0o755)).unwrap();
            fs_err::rename(&written, &program).unwrap();
            let measured = sandbox
                .run(&RunSpec {
                    program: program.clone(),
                    args: Vec::new(),
                    ..shell("")
                })
                .unwrap();
            assert!(measured.succeeded(), "round {round}: {measured:?}");
            assert_eq!(measured.stdout, format!("{word}\n").as_bytes());
        }
    }
}
