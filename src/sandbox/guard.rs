//! What the judge does about itself before anything runs: it refuses to
//! run inside a judge's run, and it keeps the descriptors it was started
//! with from every program it starts.

#[cfg(target_os = "linux")]
use super::unix;

/// Whether this process was started inside a run of a judge (as a
/// submission's child): the run's system-call filter answers a probe no
/// kernel answers. The binary refuses to run there, so no copy of the
/// judge (another installed one, a hard link) hands a run its reference
/// solvers. Always `false` off Linux or x86_64 (no filter).
pub(crate) fn inside_a_run() -> bool {
    #[cfg(target_os = "linux")]
    return unix::inside_a_run();
    #[cfg(not(target_os = "linux"))]
    return false;
}

/// Marks every descriptor the judge was started with, but 0, 1 and 2,
/// close-on-exec, so no program the judge starts outside a sandbox (a
/// compiler asked where it is installed, a tool's version probe) inherits
/// one: `judge run ... 3<answers.txt` hands them nothing. The judge itself
/// can still read them (`--tests /dev/fd/3`). Programs in a sandbox get
/// `close_range` in the child as well.
pub(crate) fn seal_inherited_descriptors() {
    #[cfg(target_os = "linux")]
    unix::seal_inherited_descriptors();
}
