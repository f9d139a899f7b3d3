//! Landlock through the `landlock` crate (its kernel maintainers' own):
//! the ABI in force, and rulesets built best-effort, so a right or scope
//! the kernel does not know is left out rather than failing the run.
//!
//! Rules hold inodes, not names: a path opened through a worker's mount
//! namespace (`/proc/self/fd/N/...`) gives the rule for what the program
//! will see there, such as its private `/proc` and its scratch tmpfs.
//!
//! The ruleset is built by the judge's thread; the child between clone and
//! exec only passes its descriptor to `landlock_restrict_self` (see
//! `spawn`), since nothing may allocate or move values there.

use crate::sandbox::SandboxError;
use landlock::{
    Access, AccessFs, AccessNet, BitFlags, LandlockStatus, PathBeneath, PathFd, Ruleset,
    RulesetAttr, RulesetCreated, RulesetCreatedAttr, RulesetError, Scope, ABI,
};
use std::os::fd::OwnedFd;
use std::path::Path;

/// The newest ABI whose filesystem rights the judge handles (up to
/// `IOCTL_DEV`); TCP is ABI 4's, scopes (signals, abstract sockets) ABI 6's.
const FS_ABI: ABI = ABI::V5;
const NET_ABI: ABI = ABI::V4;
const SCOPE_ABI: ABI = ABI::V6;

/// What a rule grants beneath a path.
#[derive(Clone, Copy, Debug)]
pub(super) enum Grant {
    /// Read files, list folders, execute.
    Read,
    /// Read and write files (device nodes such as `/dev/null`).
    Device,
    /// Everything but making device nodes (the work directory).
    Workdir,
}

impl Grant {
    fn rights(self) -> BitFlags<AccessFs> {
        match self {
            Grant::Read => AccessFs::ReadFile | AccessFs::ReadDir | AccessFs::Execute,
            Grant::Device => AccessFs::ReadFile | AccessFs::WriteFile,
            Grant::Workdir => {
                AccessFs::from_all(FS_ABI) & !(AccessFs::MakeChar | AccessFs::MakeBlock)
            }
        }
    }
}

/// The kernel's Landlock ABI version, or `None` without Landlock.
///
/// The crate tells the ABI only as the outcome of a restriction, so a
/// throwaway thread restricts itself (Landlock applies to the calling
/// thread alone) and ends.
pub(super) fn abi() -> Option<u32> {
    std::thread::spawn(|| {
        let status = Ruleset::default()
            .handle_access(AccessFs::Execute)
            .ok()?
            .create()
            .ok()?
            .restrict_self()
            .ok()?;
        match status.landlock {
            LandlockStatus::Available {
                effective_abi,
                kernel_abi,
            } => kernel_abi
                .and_then(|version| u32::try_from(version).ok())
                .or(Some(effective_abi as u32)),
            LandlockStatus::NotEnabled | LandlockStatus::NotImplemented => None,
        }
    })
    .join()
    .ok()
    .flatten()
    .filter(|&version| version >= 1)
}

fn failed(purpose: &'static str, syscall: &'static str) -> impl Fn(RulesetError) -> SandboxError {
    move |error| SandboxError::Syscall {
        syscall,
        purpose,
        source: std::io::Error::other(error),
    }
}

/// A ruleset under construction: every filesystem right the judge knows is
/// denied unless a rule allows it, TCP is denied, signals and abstract
/// sockets are scoped to the run.
pub(super) struct Rules {
    ruleset: RulesetCreated,
}

impl Rules {
    pub(super) fn new() -> Result<Rules, SandboxError> {
        let create = failed(
            "building the submission's filesystem rules",
            "landlock_create_ruleset",
        );
        let ruleset = Ruleset::default()
            .handle_access(AccessFs::from_all(FS_ABI))
            .and_then(|ruleset| ruleset.handle_access(AccessNet::from_all(NET_ABI)))
            .and_then(|ruleset| ruleset.scope(Scope::from_all(SCOPE_ABI)))
            .and_then(Ruleset::create)
            .map_err(create)?;
        Ok(Rules { ruleset })
    }

    /// Allows `grant` beneath `path`; a missing path is skipped, and a file
    /// gets only the rights that make sense on a file.
    pub(super) fn allow(&mut self, path: &Path, grant: Grant) -> Result<(), SandboxError> {
        match Opened::open(path, grant) {
            Some(opened) => self.add(&opened),
            None => Ok(()),
        }
    }

    /// Allows what `opened` grants beneath the inode it holds.
    fn add(&mut self, opened: &Opened) -> Result<(), SandboxError> {
        let add = failed("allowing a path to the submission", "landlock_add_rule");
        self.ruleset
            .as_mut()
            .add_rule(PathBeneath::new(&opened.path, opened.rights))
            .map_err(add)?;
        Ok(())
    }

    /// The ruleset's descriptor, for the child to restrict itself with
    /// (`None` when the kernel has no Landlock).
    pub(super) fn into_fd(self) -> Option<OwnedFd> {
        self.ruleset.into()
    }
}

/// A rule's path, opened (`O_PATH`) and looked at once, with the rights
/// it gets: the inode a rule holds, kept so that a ruleset can be made
/// again from it without a new look-up of the path.
struct Opened {
    path: PathFd,
    rights: BitFlags<AccessFs>,
}

impl Opened {
    /// `None` for a missing path, or a grant that leaves a file no right.
    fn open(path: &Path, grant: Grant) -> Option<Opened> {
        let opened = PathFd::new(path).ok()?;
        let mut rights = grant.rights();
        // The inode the rule holds, not a second look-up of the path (one
        // through `/proc/N/root/...` per run for `/dev/shm`: issue #31).
        let is_dir = rustix::fs::fstat(std::os::fd::AsFd::as_fd(&opened))
            .is_ok_and(|stat| rustix::fs::FileType::from_raw_mode(stat.st_mode).is_dir());
        if !is_dir {
            rights &= AccessFs::from_file(FS_ABI);
        }
        (!rights.is_empty()).then_some(Opened {
            path: opened,
            rights,
        })
    }
}

/// The rules of a worker's runs that outlive a run, each path opened once
/// ([`Opened`]), from which a ruleset is made per run together with the
/// run's own paths (its fresh `/dev/shm`): the same rules, on the same
/// inodes, as opening every path again, without the look-ups (some 20
/// paths through `/proc/self/fd/N/...`, most of what a ruleset cost).
pub(super) struct PreparedRules {
    opened: Vec<Opened>,
}

impl PreparedRules {
    pub(super) fn new() -> PreparedRules {
        PreparedRules { opened: Vec::new() }
    }

    /// As [`Rules::allow`], kept for every ruleset made from these rules.
    pub(super) fn allow(&mut self, path: &Path, grant: Grant) {
        self.opened.extend(Opened::open(path, grant));
    }

    /// A new ruleset holding these rules and `grant` beneath each of
    /// `fresh` (opened now: a path mounted anew for this run).
    pub(super) fn ruleset(
        &self,
        fresh: &[(&Path, Grant)],
    ) -> Result<Option<OwnedFd>, SandboxError> {
        let mut rules = Rules::new()?;
        for opened in &self.opened {
            rules.add(opened)?;
        }
        for &(path, grant) in fresh {
            rules.allow(path, grant)?;
        }
        Ok(rules.into_fd())
    }
}
