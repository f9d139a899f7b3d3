//! The steps a namespace holder runs to make its namespace, as C values
//! prepared before the clone, and the system calls that run them.

use std::ffi::CString;
use std::io;
use std::os::fd::RawFd;

/// One step of the holder, prepared as C values before the clone.
pub(super) enum Step {
    /// Makes every mount private, so nothing propagates to the host.
    Private,
    /// Opens a kept path (before it is masked) into `slot`.
    Open {
        path: CString,
        slot: usize,
    },
    Tmpfs {
        target: CString,
        options: CString,
        flags: libc::c_ulong,
    },
    Mkdir {
        path: CString,
        mode: libc::mode_t,
    },
    Touch {
        path: CString,
        mode: libc::mode_t,
    },
    /// Binds what `slot` holds back at `target`.
    Bind {
        slot: usize,
        target: CString,
    },
    /// Binds `source` (a path in the namespace) over `target`.
    BindPath {
        source: CString,
        target: CString,
    },
    /// Makes the file system mounted at `target` read-only.
    ReadOnly {
        target: CString,
    },
    /// Makes every mount read-only and `noatime` (`mount_setattr`,
    /// recursive on `/`). A read-only mount never updates access times,
    /// so reading a file of `/usr` leaves no trace another run could see
    /// (atimes of system files were a channel between students, issue
    /// 18); where the kernel refuses to change the atime mode (a mount a
    /// user namespace inherited has it locked), read-only alone does it.
    ReadOnlyTree,
    /// Makes the mount at `target` writable again (not recursive).
    Writable {
        target: CString,
    },
    /// Opens a file for writing into `slot` if it can (-1 there if not);
    /// never fails.
    OpenOptional {
        path: CString,
        slot: usize,
    },
    /// A private `/proc` with `hidepid`; optional (reported, not fatal).
    Proc {
        options: [CString; 2],
    },
}

/// Writes `/proc/self/fd/<fd>` into `buffer` (NUL-terminated) without
/// allocating.
fn fd_path(fd: RawFd, buffer: &mut [u8; 32]) -> *const libc::c_char {
    let prefix = b"/proc/self/fd/";
    buffer[..prefix.len()].copy_from_slice(prefix);
    let mut digits = [0u8; 12];
    let mut count = 0;
    let mut value = fd.max(0) as u32;
    loop {
        digits[count] = b'0' + (value % 10) as u8;
        count += 1;
        value /= 10;
        if value == 0 {
            break;
        }
    }
    for index in 0..count {
        buffer[prefix.len() + index] = digits[count - 1 - index];
    }
    buffer[prefix.len() + count] = 0;
    buffer.as_ptr().cast()
}

/// Runs one step; 0 on success, else -1 with errno set.
///
/// # Safety
/// In the holder only: system calls on values prepared before the clone.
pub(super) unsafe fn run_step(
    step: &Step,
    slots: &mut [RawFd],
    private_proc: &mut i32,
) -> libc::c_int {
    let null = std::ptr::null::<libc::c_char>();
    let errno = || {
        io::Error::last_os_error()
            .raw_os_error()
            .unwrap_or(libc::EIO)
    };
    // SAFETY (whole body): NUL-terminated strings and integer flags.
    unsafe {
        match step {
            Step::Private => libc::mount(
                null,
                c"/".as_ptr(),
                null,
                libc::MS_REC | libc::MS_PRIVATE,
                std::ptr::null(),
            ),
            Step::Open { path, slot } => {
                let fd = libc::open(path.as_ptr(), libc::O_PATH | libc::O_CLOEXEC);
                if let Some(entry) = slots.get_mut(*slot) {
                    *entry = fd;
                }
                fd.min(0)
            }
            Step::OpenOptional { path, slot } => {
                let fd = libc::open(path.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
                if let Some(entry) = slots.get_mut(*slot) {
                    *entry = fd;
                }
                0
            }
            Step::Tmpfs {
                target,
                options,
                flags,
            } => libc::mount(
                c"tmpfs".as_ptr(),
                target.as_ptr(),
                c"tmpfs".as_ptr(),
                *flags,
                options.as_ptr().cast(),
            ),
            Step::Mkdir { path, mode } => {
                let result = libc::mkdir(path.as_ptr(), *mode);
                if result != 0 && errno() == libc::EEXIST {
                    0
                } else if result == 0 {
                    // The umask must not widen or narrow it.
                    libc::chmod(path.as_ptr(), *mode)
                } else {
                    result
                }
            }
            Step::Touch { path, mode } => {
                let fd = libc::open(
                    path.as_ptr(),
                    libc::O_CREAT | libc::O_WRONLY | libc::O_CLOEXEC,
                    0o644,
                );
                if fd >= 0 {
                    libc::fchmod(fd, *mode);
                    libc::close(fd);
                }
                fd.min(0)
            }
            Step::Bind { slot, target } => {
                let mut buffer = [0u8; 32];
                let source = fd_path(slots.get(*slot).copied().unwrap_or(-1), &mut buffer);
                libc::mount(
                    source,
                    target.as_ptr(),
                    null,
                    libc::MS_BIND | libc::MS_REC,
                    std::ptr::null(),
                )
            }
            Step::BindPath { source, target } => libc::mount(
                source.as_ptr(),
                target.as_ptr(),
                null,
                libc::MS_BIND,
                std::ptr::null(),
            ),
            Step::ReadOnly { target } => libc::mount(
                null,
                target.as_ptr(),
                null,
                libc::MS_REMOUNT
                    | libc::MS_RDONLY
                    | libc::MS_NOSUID
                    | libc::MS_NODEV
                    | libc::MS_NOEXEC,
                std::ptr::null(),
            ),
            Step::ReadOnlyTree => {
                let set = MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOATIME;
                if mount_setattr(c"/", true, set, MOUNT_ATTR__ATIME) == 0 {
                    0
                } else if errno() == libc::EPERM {
                    mount_setattr(c"/", true, MOUNT_ATTR_RDONLY, 0)
                } else {
                    -1
                }
            }
            Step::Writable { target } => mount_setattr(target, false, 0, MOUNT_ATTR_RDONLY),
            Step::Proc { options } => {
                let flags = libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC;
                for option in options {
                    if libc::mount(
                        c"proc".as_ptr(),
                        c"/proc".as_ptr(),
                        c"proc".as_ptr(),
                        flags,
                        option.as_ptr().cast(),
                    ) == 0
                    {
                        *private_proc = 1;
                        break;
                    }
                    // Refused: the last option's errno, negated, for the
                    // start-up note (EPERM where part of /proc is covered).
                    *private_proc = -errno();
                }
                0
            }
        }
    }
}

const MOUNT_ATTR_RDONLY: u64 = 1;
const MOUNT_ATTR_NOATIME: u64 = 0x10;
/// The mask of the access-time mode: cleared whenever the mode is set.
const MOUNT_ATTR__ATIME: u64 = 0x70;

/// `struct mount_attr` of `mount_setattr(2)`.
#[repr(C)]
struct MountAttr {
    attr_set: u64,
    attr_clr: u64,
    propagation: u64,
    userns_fd: u64,
}

/// Sets and clears mount attributes of the mount at `path` (and, when
/// `recursive`, of every mount below it).
///
/// # Safety
/// In the holder only: a system call on a NUL-terminated path.
unsafe fn mount_setattr(path: &std::ffi::CStr, recursive: bool, set: u64, clear: u64) -> i32 {
    let attr = MountAttr {
        attr_set: set,
        attr_clr: clear,
        propagation: 0,
        userns_fd: 0,
    };
    let flags = if recursive { libc::AT_RECURSIVE } else { 0 };
    // SAFETY: a valid path and a valid struct of the size passed.
    let result = unsafe {
        libc::syscall(
            libc::SYS_mount_setattr,
            libc::AT_FDCWD,
            path.as_ptr(),
            flags,
            &attr as *const MountAttr,
            std::mem::size_of::<MountAttr>(),
        )
    };
    if result < 0 {
        -1
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_descriptor_paths_without_allocating() {
        let mut buffer = [0u8; 32];
        for (fd, expected) in [
            (0, "/proc/self/fd/0"),
            (7, "/proc/self/fd/7"),
            (1234, "/proc/self/fd/1234"),
        ] {
            let pointer = fd_path(fd, &mut buffer);
            // SAFETY: fd_path NUL-terminates the buffer it points into.
            let text = unsafe { std::ffi::CStr::from_ptr(pointer) };
            assert_eq!(text.to_str().ok(), Some(expected));
        }
    }
}
