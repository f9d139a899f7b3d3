//! A small deny list of system calls no contest program needs and that
//! widen the kernel surface a hostile one can reach: tracing other
//! processes, namespaces, mounts, modules, BPF, io_uring, keyrings.
//! Each fails with EPERM (clone3 with ENOSYS, so libc falls back to
//! clone, whose namespace flags are checked); a foreign ABI is killed.
//! `socket(AF_UNIX, ...)` fails too: Landlock does not cover connecting to
//! a socket file, and a socket file anywhere on the host is a channel out
//! of the sandbox (issue #7); `socketpair` stays allowed.

use std::sync::OnceLock;

const AUDIT_ARCH_X86_64: u32 = 0xC000_003E;
const X32_SYSCALL_BIT: u32 = 0x4000_0000;
/// CLONE_NEWNS | NEWCGROUP | NEWUTS | NEWIPC | NEWUSER | NEWPID | NEWNET.
const CLONE_NAMESPACES: u32 = 0x7E02_0000;
const CLONE: u32 = 56;
const CLONE3: u32 = 435;
const SOCKET: u32 = 41;
const AF_UNIX: u32 = 1;
/// x86_64 numbers: ptrace, process_vm_readv/writev, mount, umount2,
/// pivot_root, swapon, swapoff, reboot, sethostname, setdomainname,
/// init_module, delete_module, kexec_load, kexec_file_load,
/// finit_module, bpf, perf_event_open, userfaultfd, keyctl, add_key,
/// request_key, unshare, setns, open_by_handle_at, name_to_handle_at,
/// io_uring_setup/enter/register, acct, quotactl.
const DENIED: &[u32] = &[
    101, 310, 311, 165, 166, 155, 167, 168, 169, 170, 171, 175, 176, 246, 320, 313, 321, 298, 323,
    250, 248, 249, 272, 308, 304, 303, 425, 426, 427, 163, 179,
];

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
        // socket(AF_UNIX, ...): EPERM; any other domain: allowed.
        program.push(jump(equal, SOCKET, 0, 4));
        program.push(statement(load, 16)); // low half of args[0]: the domain
        program.push(jump(equal, AF_UNIX, 0, 1));
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
