//! A small deny list of system calls no contest program needs and that
//! widen the kernel surface a hostile one can reach: tracing other
//! processes, namespaces, mounts, modules, BPF, io_uring, keyrings.
//! Each fails with EPERM (clone3 with ENOSYS, so libc falls back to
//! clone, whose namespace flags are checked); a foreign ABI is killed.
//!
//! It also closes the channels between runs that the kernel shares and
//! that no other layer sees (issue 18):
//!
//! - `socket` of every address family (a run needs none: its network
//!   namespace has no interface, and Landlock does not cover connecting to
//!   a socket file; `AF_VSOCK` would reach the host of a virtual machine);
//!   `socketpair` stays allowed for `AF_UNIX`, which links only its own
//!   processes;
//! - file locks: `flock`, and `fcntl` lock, lease and directory-notify
//!   commands (`F_GETLK` on a shared read-only file shows another run's
//!   locks: a fast channel between two students);
//! - setting file times (`utimensat` and its older forms: the times of
//!   `/dev/null` are shared by every run);
//! - `kill(0, ...)` (see below);
//! - `inotify` and `fanotify` (a watch on a folder tells what another run
//!   does in it, even where Landlock refuses the listing).

use std::sync::OnceLock;

const AUDIT_ARCH_X86_64: u32 = 0xC000_003E;
const X32_SYSCALL_BIT: u32 = 0x4000_0000;
/// CLONE_NEWNS | NEWCGROUP | NEWUTS | NEWIPC | NEWUSER | NEWPID | NEWNET.
const CLONE_NAMESPACES: u32 = 0x7E02_0000;
const CLONE: u32 = 56;
const CLONE3: u32 = 435;
const SOCKET: u32 = 41;
const SOCKETPAIR: u32 = 53;
const FCNTL: u32 = 72;
const KILL: u32 = 62;
const AF_UNIX: u32 = 1;
/// x86_64 numbers: ptrace, process_vm_readv/writev, mount, umount2,
/// pivot_root, swapon, swapoff, reboot, sethostname, setdomainname,
/// init_module, delete_module, kexec_load, kexec_file_load,
/// finit_module, bpf, perf_event_open, userfaultfd, keyctl, add_key,
/// request_key, unshare, setns, open_by_handle_at, name_to_handle_at,
/// io_uring_setup/enter/register, acct, quotactl; then (issue 18) flock,
/// utime, utimes, futimesat, utimensat, inotify_init, inotify_add_watch,
/// inotify_init1, fanotify_init, fanotify_mark, socket.
const DENIED: &[u32] = &[
    101, 310, 311, 165, 166, 155, 167, 168, 169, 170, 171, 175, 176, 246, 320, 313, 321, 298, 323,
    250, 248, 249, 272, 308, 304, 303, 425, 426, 427, 163, 179, 73, 132, 235, 261, 280, 253, 254,
    294, 300, 301, SOCKET,
];
/// `fcntl` commands refused: F_GETLK, F_SETLK, F_SETLKW, F_OFD_GETLK,
/// F_OFD_SETLK, F_OFD_SETLKW, F_SETLEASE, F_GETLEASE, F_NOTIFY.
const FCNTL_DENIED: &[u32] = &[5, 6, 7, 36, 37, 38, 1024, 1025, 1026];

fn statement(code: u32, k: u32) -> libc::sock_filter {
    libc::sock_filter {
        code: code as u16,
        jt: 0,
        jf: 0,
        k,
    }
}

fn jump(code: u32, k: u32, jt: u8, jf: u8) -> libc::sock_filter {
    libc::sock_filter {
        code: code as u16,
        jt,
        jf,
        k,
    }
}

/// The filter, built once before any fork.
pub fn filter() -> &'static [libc::sock_filter] {
    static FILTER: OnceLock<Vec<libc::sock_filter>> = OnceLock::new();
    FILTER.get_or_init(|| {
        let load = libc::BPF_LD | libc::BPF_W | libc::BPF_ABS;
        let equal = libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K;
        let any_bit = libc::BPF_JMP | libc::BPF_JSET | libc::BPF_K;
        let ret = libc::BPF_RET | libc::BPF_K;
        let deny = libc::SECCOMP_RET_ERRNO | libc::EPERM as u32;
        let mut program = vec![
            statement(load, 4), // seccomp_data.arch
            jump(equal, AUDIT_ARCH_X86_64, 1, 0),
            statement(ret, libc::SECCOMP_RET_KILL_PROCESS),
            statement(load, 0), // seccomp_data.nr
            jump(any_bit, X32_SYSCALL_BIT, 0, 1),
            statement(ret, libc::SECCOMP_RET_KILL_PROCESS),
        ];
        for &number in DENIED {
            program.push(jump(equal, number, 0, 1));
            program.push(statement(ret, deny));
        }
        program.push(jump(equal, CLONE3, 0, 1));
        program.push(statement(
            ret,
            libc::SECCOMP_RET_ERRNO | libc::ENOSYS as u32,
        ));
        // socketpair(AF_UNIX, ...) only.
        program.push(jump(equal, SOCKETPAIR, 0, 4));
        program.push(statement(load, 16)); // low half of args[0]: the domain
        program.push(jump(equal, AF_UNIX, 1, 0));
        program.push(statement(ret, deny));
        program.push(statement(ret, libc::SECCOMP_RET_ALLOW));
        // fcntl(fd, cmd, ...) with a lock, lease or notify command.
        let commands = u8::try_from(FCNTL_DENIED.len()).unwrap_or(u8::MAX);
        program.push(jump(equal, FCNTL, 0, commands + 3));
        program.push(statement(load, 24)); // low half of args[1]: the command
        for (index, &command) in FCNTL_DENIED.iter().enumerate() {
            // Jump to the deny after the last comparison.
            let to_deny = commands - u8::try_from(index).unwrap_or(0);
            program.push(jump(equal, command, to_deny, 0));
        }
        program.push(statement(ret, libc::SECCOMP_RET_ALLOW));
        program.push(statement(ret, deny));
        // kill(0, ...): a run's parent (the judge) is outside its PID
        // namespace, so `getppid()` is 0 there and `kill(getppid(), ...)`
        // would hit its own group: refused, as a kill of the judge always
        // was. Every other kill stays within the run's PID namespace.
        program.push(jump(equal, KILL, 0, 4));
        program.push(statement(load, 16)); // low half of args[0]: the pid
        program.push(jump(equal, 0, 0, 1));
        program.push(statement(ret, deny));
        program.push(statement(ret, libc::SECCOMP_RET_ALLOW));
        program.push(jump(equal, CLONE, 0, 3));
        program.push(statement(load, 16)); // low half of args[0]: the flags
        program.push(jump(any_bit, CLONE_NAMESPACES, 0, 1));
        program.push(statement(ret, deny));
        program.push(statement(ret, libc::SECCOMP_RET_ALLOW));
        program
    })
}
