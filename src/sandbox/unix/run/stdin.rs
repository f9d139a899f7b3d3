//! A run's stdin: a sealed copy of its input, or (for the runner bench
//! alone) the input file itself.

use crate::sandbox::SandboxError;
use std::os::fd::OwnedFd;
use std::path::Path;

/// The program's stdin: a sealed copy of the input in memory, so
/// `readlink /proc/self/fd/0` does not tell where the judge keeps its
/// tests (issue #7) and the program cannot change the judge's file.
pub(super) fn stdin_copy(path: Option<&Path>) -> Result<OwnedFd, SandboxError> {
    let Some(path) = path else {
        return fs_err::File::open("/dev/null")
            .map(|file| OwnedFd::from(file.into_parts().0))
            .map_err(|source| SandboxError::path("open", "/dev/null", source));
    };
    let mut input = fs_err::File::open(path)
        .map_err(|source| SandboxError::path("open the input", path, source))?;
    use rustix::fs::{fcntl_add_seals, memfd_create, MemfdFlags, SealFlags};
    let fd = memfd_create(c"stdin", MemfdFlags::CLOEXEC | MemfdFlags::ALLOW_SEALING).map_err(
        |errno| SandboxError::Syscall {
            syscall: "memfd_create",
            purpose: "copying the input for the program",
            source: errno.into(),
        },
    )?;
    let mut copy = std::fs::File::from(fd);
    std::io::copy(&mut input, &mut copy)
        .map_err(|source| SandboxError::path("copy the input", path, source))?;
    use std::io::Seek;
    copy.rewind()
        .map_err(|source| SandboxError::path("copy the input", path, source))?;
    let seals = SealFlags::WRITE | SealFlags::GROW | SealFlags::SHRINK | SealFlags::SEAL;
    fcntl_add_seals(&copy, seals).map_err(|errno| SandboxError::Syscall {
        syscall: "fcntl(F_ADD_SEALS)",
        purpose: "making the program's input read-only",
        source: errno.into(),
    })?;
    Ok(OwnedFd::from(copy))
}

/// The input file itself as stdin, for the runner bench's row without the
/// copy (the program could learn the file's path through `/proc`).
pub(super) fn stdin_file(path: Option<&Path>) -> Result<OwnedFd, SandboxError> {
    let path = path.unwrap_or(Path::new("/dev/null"));
    fs_err::File::open(path)
        .map(|file| OwnedFd::from(file.into_parts().0))
        .map_err(|source| SandboxError::path("open the input", path, source))
}
