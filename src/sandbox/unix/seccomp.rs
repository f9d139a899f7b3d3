//! A small deny list of system calls no contest program needs and that
//! widen the kernel surface a hostile one can reach: tracing other
//! processes, namespaces, mounts, modules, BPF, io_uring, keyrings.
//! Each fails with EPERM (clone3 with ENOSYS, so libc falls back to
//! clone, whose namespace flags and CLONE_PARENT are checked); a foreign
//! ABI is killed.
//!
//! It also closes the channels between runs that the kernel shares and
//! that no other layer sees (issue 18):
//!
//! - `socket` of every address family but `AF_UNIX` (its network
//!   namespace has no interface; `AF_NETLINK` and `AF_PACKET` reach the
//!   kernel's tables, `AF_VSOCK` the host of a virtual machine), and
//!   `AF_UNIX` too where the run is not in a worker network namespace whose
//!   sockets are collected after each run and a mount namespace that masks
//!   the host's socket folders (see [`UnixSockets`]); `socketpair` stays
//!   allowed for `AF_UNIX`, which links only its own processes;
//! - file locks: `flock`, and `fcntl` lock, lease and directory-notify
//!   commands (`F_GETLK` on a shared read-only file shows another run's
//!   locks: a fast channel between two students);
//! - setting file times (`utimensat` and its older forms: the times of
//!   `/dev/null` are shared by every run);
//! - `kill(0, ...)` (see below);
//! - `inotify` and `fanotify` (a watch on a folder tells what another run
//!   does in it, even where Landlock refuses the listing);
//! - SysV IPC and POSIX message queues (ENOSYS: see [`IPC`]), so a
//!   worker's runs share one IPC namespace instead of making one each;
//!
//! and host-wide counters a run could read to learn what other runs did
//! (issue 35):
//!
//! - the socket options `SO_COOKIE` and `SO_NETNS_COOKIE` (numbers from
//!   counters of the whole host: the next socket's cookie tells how many
//!   sockets every other run made since), and `SO_PEERPIDFD` and
//!   `SO_PASSPIDFD` (they give pidfds): ENOPROTOOPT, as a kernel older than
//!   the options answers (see [`SOCKET_OPTIONS`]);
//! - pidfds: `pidfd_open` and `clone` with `CLONE_PIDFD` fail with ENOSYS
//!   (a pidfd's inode number comes from a host-wide counter, the pidfs
//!   one);
//! - `memfd_secret` (EPERM), and, in a run without a memory cgroup,
//!   `memfd_create` (ENOSYS; see [`MemoryFiles`]).
//!
//! The rules on arguments are compiled to BPF by `seccompiler` (as
//! Firecracker does). Hand-written, before them: the architecture and x32
//! checks (`seccompiler` checks the architecture, not the x32 bit, and an
//! x32 system call number would miss every rule); a binary search over
//! the numbers the rules name (`gate`: a call no rule names is allowed,
//! and one refused whatever its arguments is refused, in a few
//! comparisons); then the rules whose refusal is not EPERM (a
//! `seccompiler` filter has one action on a match): `clone3`, AIO, IPC,
//! `pidfd_open` and `memfd_create` (ENOSYS), `clone` with `CLONE_PIDFD`
//! (ENOSYS), the socket options (ENOPROTOOPT), and the probe. One filter,
//! so a run installs one program, in two variants: with `memfd_create`
//! allowed for a run with a memory cgroup, refused for one without. It is
//! installed per run (a filter binds the process that installs it, and the
//! judge must stay unfiltered) and each variant is compiled once per
//! process.

use seccompiler::{
    sock_filter, BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition,
    SeccompFilter, SeccompRule, TargetArch,
};
use std::collections::BTreeMap;
use std::sync::OnceLock;

const X32_SYSCALL_BIT: u32 = 0x4000_0000;
/// CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET.
const CLONE_NAMESPACES: &[u64] = &[
    0x0002_0000,
    0x0200_0000,
    0x0400_0000,
    0x0800_0000,
    0x1000_0000,
    0x2000_0000,
    0x4000_0000,
];
/// `CLONE_PARENT`: the child becomes a child of the caller's parent, which
/// for a run's program is the judge, outside the run's PID namespace: the
/// holder of the namespace, its init, could kill such a child but never reap
/// it, and the judge waits only for the program (a break-it review of issue
/// #35: as an ordinary user every test was JE and a zombie outlived the
/// judge). Refused (EPERM); no runtime a contest program uses needs it.
const CLONE_PARENT: u64 = 0x8000;
const CLONE: i64 = 56;
const CLONE3: i64 = 435;
/// `CLONE_PIDFD`: the clone returns a pidfd of the child.
const CLONE_PIDFD: u32 = 0x1000;
const PIDFD_OPEN: u32 = 434;
const MEMFD_CREATE: u32 = 319;
const SETSOCKOPT: u32 = 54;
const GETSOCKOPT: u32 = 55;
const SOL_SOCKET: u32 = 1;
/// The socket options refused with ENOPROTOOPT, with the call they are
/// refused in: `getsockopt` of `SO_COOKIE` (57) and `SO_NETNS_COOKIE`
/// (71), whose values come from counters of the whole host, so two
/// sockets' cookies tell how many sockets were made on the host between
/// them (by other runs too: a channel between students); `getsockopt` of
/// `SO_PEERPIDFD` (77) and `setsockopt` of `SO_PASSPIDFD` (76), which give
/// pidfds (their inode numbers count every pidfd of the host, as
/// `pidfd_open`'s do). A kernel older than the options answers the same,
/// and no contest program asks for them.
const SOCKET_OPTIONS: &[(u32, &[u32])] = &[(GETSOCKOPT, &[57, 71, 77]), (SETSOCKOPT, &[76])];
const SOCKET: i64 = 41;
const SOCKETPAIR: i64 = 53;
const FCNTL: i64 = 72;
const KILL: i64 = 62;
const AF_UNIX: u64 = 1;
/// preadv2 and pwritev2, whose flags are their sixth argument.
const PREADV2: i64 = 327;
const PWRITEV2: i64 = 328;
/// `RWF_NOWAIT`: a read that fails with EAGAIN unless its page is in the
/// page cache — which is host-wide and outlives runs and judges: a run that
/// reads one of two files of `/usr` per bit leaves a message the next run
/// decodes by asking which are cached (a third red team, issue 18). Refused
/// (EPERM); no contest program needs it.
const RWF_NOWAIT: u64 = 0x8;
/// io_setup, io_destroy, io_getevents, io_submit, io_cancel,
/// io_pgetevents: refused with ENOSYS, as if the kernel had no Linux AIO.
/// `io_setup` raises the host-wide `/proc/sys/fs/aio-nr`, a counter any
/// other run (of any user, in any namespace) reads: a channel between
/// students (issue 18). No contest program needs AIO; libc's POSIX AIO is
/// threads and falls back without it.
const AIO: &[u32] = &[206, 207, 208, 209, 210, 333];
/// SysV IPC (shmget, shmat, shmctl, semget, semop, semctl, shmdt, msgget,
/// msgsnd, msgrcv, msgctl, semtimedop) and POSIX message queues (mq_open,
/// mq_unlink, mq_timedsend, mq_timedreceive, mq_notify, mq_getsetattr):
/// refused with ENOSYS, as a kernel built without them answers. Their
/// objects outlive the processes that made them, and their identifiers
/// come from a counter of the IPC namespace, so in a namespace two runs
/// share, a run could leave an answer for the next one, or tell it how
/// many objects it made (issue 7, 18). Refused, a worker's runs can share
/// one namespace made once, where a fresh one per run cost about 0.2 ms of
/// every run (issue 19). No contest program needs them: `MAP_SHARED`
/// memory and unnamed POSIX semaphores in it (`sem_init`) remain.
const IPC: &[u32] = &[
    29, 30, 31, 64, 65, 66, 67, 68, 69, 70, 71, 220, 240, 241, 242, 243, 244, 245,
];

/// Whether a run may make memory files (`memfd_create`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum MemoryFiles {
    /// The run has a memory cgroup: a memfd's pages are charged to it, also
    /// when the memfd is left in flight in a unix socket (they are freed
    /// with the sockets after the run). Pro: programs that use memfds run.
    Allowed,
    /// No memory cgroup: `memfd_create` fails with ENOSYS, as on a kernel
    /// before 3.17. Without a cgroup the judge counts a memfd's pages only
    /// while a process of the run holds it, and one left in flight in an
    /// unreachable cycle of unix sockets holds its pages past the run, on
    /// no one's account (issue 35). Con: a program that needs memfds is RE.
    Refused,
}

/// Whether a run may make unix sockets (`socket(AF_UNIX, ...)`; every
/// other family is refused either way). Python's `multiprocessing.Manager`
/// and its `forkserver` start method need them (issue 32).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum UnixSockets {
    /// The run is in its worker's network namespace, which no run of
    /// another worker shares and whose sockets are all collected before
    /// the worker's next run starts (`sockets`), so an abstract name is
    /// reachable only by the run that bound it (Landlock's scope of
    /// abstract sockets, ABI 6, keeps even that to the run's own domain);
    /// and in a mount namespace with private `/tmp`, `/var/tmp`, `/run`
    /// and `/dev/shm` and a fresh scratch, so the socket files it binds are
    /// in places of its own and the host's usual socket folders are out of
    /// sight.
    Allowed,
    /// Anywhere else: an abstract name would be in the host's namespace,
    /// seen by other runs and other programs. `socket` fails with EPERM.
    Refused,
}

/// The calls that fail with ENOSYS (`clone3` apart): AIO, IPC,
/// `pidfd_open`, and `memfd_create` where memory files are refused.
fn enosys_calls(memory_files: MemoryFiles) -> impl Iterator<Item = u32> {
    let memfd = match memory_files {
        MemoryFiles::Allowed => None,
        MemoryFiles::Refused => Some(MEMFD_CREATE),
    };
    (AIO.iter().chain(IPC).copied())
        .chain([PIDFD_OPEN])
        .chain(memfd)
}
const PRCTL: u32 = 157;
/// The probe: `prctl` with this option (no kernel has it, so outside a
/// run it fails with EINVAL) returns [`PROBE_ERRNO`] inside one. A judge
/// started inside a run (another installed copy, a hard link: it holds
/// the reference solvers) asks first thing and refuses to run.
pub(crate) const PROBE_OPTION: u32 = 0x4a55_4447;
/// What the probe returns inside a run: an errno no kernel gives `prctl`.
pub(crate) const PROBE_ERRNO: u32 = 3071;
/// x86_64 numbers: ptrace, process_vm_readv/writev, mount, umount2,
/// pivot_root, swapon, swapoff, reboot, sethostname, setdomainname,
/// init_module, delete_module, kexec_load, kexec_file_load,
/// finit_module, bpf, perf_event_open, userfaultfd, keyctl, add_key,
/// request_key, unshare, setns, open_by_handle_at, name_to_handle_at,
/// io_uring_setup/enter/register, acct, quotactl; then (issue 18) flock,
/// utime, utimes, futimesat, utimensat, inotify_init, inotify_add_watch,
/// inotify_init1, fanotify_init, fanotify_mark; then (issue 35)
/// memfd_secret (memory not even the kernel maps, unevictable: no contest
/// program needs it). `socket` is refused whole too where unix sockets are
/// ([`UnixSockets::Refused`]), and for every other family otherwise.
const DENIED: &[i64] = &[
    101, 310, 311, 165, 166, 155, 167, 168, 169, 170, 171, 175, 176, 246, 320, 313, 321, 298, 323,
    250, 248, 249, 272, 308, 304, 303, 425, 426, 427, 163, 179, 73, 132, 235, 261, 280, 253, 254,
    294, 300, 301, 447,
];

/// The calls refused whatever their arguments under `unix_sockets`.
fn denied(unix_sockets: UnixSockets) -> Vec<i64> {
    let mut denied = DENIED.to_vec();
    if unix_sockets == UnixSockets::Refused {
        denied.push(SOCKET);
    }
    denied
}
/// `fcntl` commands refused: F_GETLK, F_SETLK, F_SETLKW, F_OFD_GETLK,
/// F_OFD_SETLK, F_OFD_SETLKW, F_SETLEASE, F_GETLEASE, F_NOTIFY.
const FCNTL_DENIED: &[u64] = &[5, 6, 7, 36, 37, 38, 1024, 1025, 1026];

/// Why the system-call filter could not be compiled: always a bug of the
/// judge (its rules are constants), reported as the sandbox's JE.
#[derive(Debug, thiserror::Error)]
pub(super) enum FilterError {
    /// seccompiler refused a condition, a rule or the filter.
    #[error("{0}")]
    Rules(#[from] seccompiler::BackendError),
    /// A jump of the hand-written prefix does not fit a BPF offset.
    #[error("{0}")]
    Jump(#[from] std::num::TryFromIntError),
}

/// One condition on the low 32 bits of argument `index` (the kernel reads
/// these arguments as `int`).
fn on_arg(index: u8, operator: SeccompCmpOp, value: u64) -> Result<SeccompRule, FilterError> {
    let condition = SeccompCondition::new(index, SeccompCmpArgLen::Dword, operator, value)?;
    Ok(SeccompRule::new(vec![condition])?)
}

fn compile(
    rules: BTreeMap<i64, Vec<SeccompRule>>,
    on_match: SeccompAction,
) -> Result<BpfProgram, FilterError> {
    let filter = SeccompFilter::new(rules, SeccompAction::Allow, on_match, TargetArch::x86_64)?;
    Ok(BpfProgram::try_from(filter)?)
}

/// The rules with conditions on arguments, compiled by `seccompiler`.
fn conditional_rules(
    unix_sockets: UnixSockets,
) -> Result<BTreeMap<i64, Vec<SeccompRule>>, FilterError> {
    let mut rules: BTreeMap<i64, Vec<SeccompRule>> = BTreeMap::new();
    // socketpair(AF_UNIX, ...) only.
    rules.insert(SOCKETPAIR, vec![on_arg(0, SeccompCmpOp::Ne, AF_UNIX)?]);
    // socket(AF_UNIX, ...) only, where unix sockets are allowed at all.
    if unix_sockets == UnixSockets::Allowed {
        rules.insert(SOCKET, vec![on_arg(0, SeccompCmpOp::Ne, AF_UNIX)?]);
    }
    // fcntl(fd, cmd, ...) with a lock, lease or notify command.
    rules.insert(
        FCNTL,
        FCNTL_DENIED
            .iter()
            .map(|&command| on_arg(1, SeccompCmpOp::Eq, command))
            .collect::<Result<_, _>>()?,
    );
    // preadv2/pwritev2 with RWF_NOWAIT: a probe of the page cache.
    for number in [PREADV2, PWRITEV2] {
        rules.insert(
            number,
            vec![on_arg(5, SeccompCmpOp::MaskedEq(RWF_NOWAIT), RWF_NOWAIT)?],
        );
    }
    // kill(0, ...): a run's parent (the judge) is outside its PID
    // namespace, so `getppid()` is 0 there and `kill(getppid(), ...)` would
    // hit its own group: refused, as a kill of the judge always was. Every
    // other kill stays within the run's PID namespace.
    rules.insert(KILL, vec![on_arg(0, SeccompCmpOp::Eq, 0)?]);
    // clone with any namespace flag, or with CLONE_PARENT.
    rules.insert(
        CLONE,
        CLONE_NAMESPACES
            .iter()
            .chain([&CLONE_PARENT])
            .map(|&flag| on_arg(0, SeccompCmpOp::MaskedEq(flag), flag))
            .collect::<Result<_, _>>()?,
    );
    Ok(rules)
}

fn jump(operation: u32, k: u32, jt: u8, jf: u8) -> sock_filter {
    sock_filter {
        code: (libc::BPF_JMP | operation | libc::BPF_K) as u16,
        jt,
        jf,
        k,
    }
}

fn ret(k: u32) -> sock_filter {
    sock_filter {
        code: (libc::BPF_RET | libc::BPF_K) as u16,
        jt: 0,
        jf: 0,
        k,
    }
}

fn load(offset: u32) -> sock_filter {
    sock_filter {
        code: (libc::BPF_LD | libc::BPF_W | libc::BPF_ABS) as u16,
        jt: 0,
        jf: 0,
        k: offset,
    }
}

const EPERM: u32 = libc::SECCOMP_RET_ERRNO | libc::EPERM as u32;
const ENOSYS: u32 = libc::SECCOMP_RET_ERRNO | libc::ENOSYS as u32;
const ENOPROTOOPT: u32 = libc::SECCOMP_RET_ERRNO | libc::ENOPROTOOPT as u32;

/// What a hand-written rule asks of the low 32 bits of an argument.
#[derive(Clone, Copy)]
enum Test {
    /// Equal to one of these.
    OneOf(&'static [u32]),
    /// Has one of these bits set.
    AnyBit(u32),
}

/// A hand-written rule on arguments, run with the system call number
/// loaded: `number` whose arguments pass every test (each on the low 32
/// bits of argument `index`, which the kernel reads as `int`) returns
/// `action`. Any other call goes on with the number loaded again.
fn on_arguments(
    number: u32,
    tests: &[(u32, Test)],
    action: u32,
) -> Result<Vec<sock_filter>, FilterError> {
    let length = |test: &Test| match test {
        Test::OneOf(values) => values.len() + 1,
        Test::AnyBit(_) => 1,
    };
    // Each test loads its argument; then the return and the reload.
    let body_length = tests
        .iter()
        .map(|(_, test)| 1 + length(test))
        .sum::<usize>()
        + 2;
    let reload = body_length - 1;
    let mut body = Vec::with_capacity(body_length);
    for &(index, test) in tests {
        body.push(load(16 + 8 * index)); // seccomp_data.args[index], low 32 bits
        match test {
            Test::OneOf(values) => {
                let next = body.len() + values.len() + 1;
                for &value in values {
                    let skip = next - (body.len() + 1);
                    body.push(jump(libc::BPF_JEQ, value, u8::try_from(skip)?, 0));
                }
                let skip = reload - (body.len() + 1);
                body.push(jump_ahead(u32::try_from(skip)?));
            }
            Test::AnyBit(bits) => {
                let skip = reload - (body.len() + 1);
                body.push(jump(libc::BPF_JSET, bits, 0, u8::try_from(skip)?));
            }
        }
    }
    body.push(ret(action));
    body.push(load(0)); // seccomp_data.nr
    let mut program = vec![jump(libc::BPF_JEQ, number, 0, u8::try_from(body_length)?)];
    program.extend(body);
    Ok(program)
}

fn jump_ahead(count: u32) -> sock_filter {
    sock_filter {
        code: (libc::BPF_JMP | libc::BPF_JA) as u16,
        jt: 0,
        jf: 0,
        k: count,
    }
}

/// The hand-written rules, run with the system call number loaded: clone3
/// (ENOSYS), the ENOSYS list (AIO, IPC, `pidfd_open`, maybe
/// `memfd_create`), `clone` with `CLONE_PIDFD` (ENOSYS), the socket
/// options (ENOPROTOOPT) and the probe.
fn special_rules(memory_files: MemoryFiles) -> Result<Vec<sock_filter>, FilterError> {
    // clone3 fails with ENOSYS, so libc falls back to clone, whose
    // namespace flags are checked by the rules.
    let mut program = vec![jump(libc::BPF_JEQ, CLONE3 as u32, 0, 1), ret(ENOSYS)];
    // AIO and IPC: each jumps to the ENOSYS return after the list; the
    // list ends with a jump over that return.
    let count = enosys_calls(memory_files).count();
    for (index, number) in enosys_calls(memory_files).enumerate() {
        program.push(jump(libc::BPF_JEQ, number, u8::try_from(count - index)?, 0));
    }
    program.push(jump_ahead(1));
    program.push(ret(ENOSYS));
    // A pidfd from clone: ENOSYS, as a kernel without pidfds answers, which
    // runtimes fall back from (`posix_spawn`, `fork` and Python's and the
    // JVM's process starts ask for none). The namespace flags are the
    // rules' below.
    program.extend(on_arguments(
        CLONE as u32,
        &[(0, Test::AnyBit(CLONE_PIDFD))],
        ENOSYS,
    )?);
    for &(number, options) in SOCKET_OPTIONS {
        program.extend(on_arguments(
            number,
            &[(1, Test::OneOf(&[SOL_SOCKET])), (2, Test::OneOf(options))],
            ENOPROTOOPT,
        )?);
    }
    // The probe: prctl(PROBE_OPTION, ...) fails with PROBE_ERRNO. It
    // loads the first argument; the rules below load what they need.
    program.push(jump(libc::BPF_JEQ, PRCTL, 0, 3));
    program.push(load(16)); // seccomp_data.args[0], low 32 bits
    program.push(jump(libc::BPF_JEQ, PROBE_OPTION, 0, 1));
    program.push(ret(libc::SECCOMP_RET_ERRNO | PROBE_ERRNO));
    Ok(program)
}

/// Where a step of the gate goes.
#[derive(Clone, Copy, Debug, PartialEq)]
enum To {
    /// This many instructions ahead (0: the next one).
    Skip(usize),
    /// Allowed: a call no rule names.
    Allow,
    /// Refused with EPERM: a call refused whatever its arguments.
    Deny,
    /// On to the rules that look at arguments (and the special ones).
    Rules,
}

/// One instruction of the gate before its targets are resolved.
struct Step {
    operation: u32,
    k: u32,
    on_true: To,
    on_false: To,
}

/// A binary search over the numbers the rules name, each with where it
/// goes: `Deny` or `Rules`; every other number is allowed.
fn gate_tree(keys: &[(u32, To)]) -> Vec<Step> {
    if keys.len() <= 3 {
        let mut steps: Vec<Step> = keys
            .iter()
            .map(|&(number, to)| Step {
                operation: libc::BPF_JEQ,
                k: number,
                on_true: to,
                on_false: To::Skip(0),
            })
            .collect();
        steps.push(Step {
            operation: libc::BPF_JA,
            k: 0,
            on_true: To::Allow,
            on_false: To::Allow,
        });
        return steps;
    }
    let (low, high) = keys.split_at(keys.len() / 2);
    let low_steps = gate_tree(low);
    let mut steps = vec![Step {
        operation: libc::BPF_JGE,
        k: high[0].0,
        on_true: To::Skip(low_steps.len()),
        on_false: To::Skip(0),
    }];
    steps.extend(low_steps);
    steps.extend(gate_tree(high));
    steps
}

/// The gate, run with the system call number loaded: a call no rule names
/// is allowed, and one refused whatever its arguments refused, after about
/// `log2` of the rules' count of comparisons, not one or two per rule. The
/// kernel runs the filter once for every system call number when a run
/// installs it (to cache the calls it always allows), with interrupts off:
/// with the rules in one linear chain that was 0.2 ms of every run.
fn gate(denied: &[i64], to_rules: &[i64]) -> Result<Vec<sock_filter>, FilterError> {
    let mut keys: BTreeMap<u32, To> = BTreeMap::new();
    for &number in denied {
        keys.insert(u32::try_from(number)?, To::Deny);
    }
    // A number with rules on its arguments goes to them, as a later
    // insert into one map of rules replaced an earlier one.
    for &number in to_rules {
        keys.insert(u32::try_from(number)?, To::Rules);
    }
    let keys: Vec<(u32, To)> = keys.into_iter().collect();
    let steps = gate_tree(&keys);
    // The gate ends with its two returns; the rules follow.
    let allow_at = steps.len();
    let mut program = Vec::with_capacity(steps.len() + 2);
    for (index, step) in steps.iter().enumerate() {
        let offset = |to: To| match to {
            To::Skip(count) => count,
            To::Allow => allow_at - (index + 1),
            To::Deny => allow_at + 1 - (index + 1),
            To::Rules => allow_at + 2 - (index + 1),
        };
        if step.operation == libc::BPF_JA {
            program.push(sock_filter {
                code: (libc::BPF_JMP | libc::BPF_JA) as u16,
                jt: 0,
                jf: 0,
                k: u32::try_from(offset(step.on_true))?,
            });
        } else {
            program.push(jump(
                step.operation,
                step.k,
                u8::try_from(offset(step.on_true))?,
                u8::try_from(offset(step.on_false))?,
            ));
        }
    }
    program.push(ret(libc::SECCOMP_RET_ALLOW));
    program.push(ret(EPERM));
    Ok(program)
}

/// The numbers the hand-written rules look at.
fn special_numbers(memory_files: MemoryFiles) -> Vec<i64> {
    let mut numbers = vec![CLONE3, CLONE, i64::from(PRCTL)];
    numbers.extend(enosys_calls(memory_files).map(i64::from));
    numbers.extend(SOCKET_OPTIONS.iter().map(|&(number, _)| i64::from(number)));
    numbers
}

/// The architecture check (any other kills the process), the number, the
/// x32 check (an x32 system call has the same audit arch and its number |
/// X32_SYSCALL_BIT, which would miss every rule: it kills, before any rule
/// is looked at).
fn entry() -> Vec<sock_filter> {
    vec![
        load(4), // seccomp_data.arch
        jump(libc::BPF_JEQ, AUDIT_ARCH_X86_64, 1, 0),
        ret(libc::SECCOMP_RET_KILL_PROCESS),
        load(0), // seccomp_data.nr
        jump(libc::BPF_JSET, X32_SYSCALL_BIT, 0, 1),
        ret(libc::SECCOMP_RET_KILL_PROCESS),
    ]
}

const AUDIT_ARCH_X86_64: u32 = 0xc000_003e;

fn build(
    memory_files: MemoryFiles,
    unix_sockets: UnixSockets,
) -> Result<Vec<BpfProgram>, FilterError> {
    let rules = conditional_rules(unix_sockets)?;
    let mut to_rules: Vec<i64> = rules.keys().copied().collect();
    to_rules.extend(special_numbers(memory_files));
    let mut program = entry();
    program.extend(gate(&denied(unix_sockets), &to_rules)?);
    program.extend(special_rules(memory_files)?);
    // `seccompiler`'s program checks the architecture again and loads the
    // number itself.
    program.extend(compile(rules, SeccompAction::Errno(libc::EPERM as u32))?);
    Ok(vec![program])
}

/// The filters of a run whose memory files are `memory_files` and whose
/// unix sockets are `unix_sockets`, in the order they are installed; each
/// variant built once, before any clone (`Err`: they could not be
/// compiled, which is a bug of the judge).
pub(super) fn filters(
    memory_files: MemoryFiles,
    unix_sockets: UnixSockets,
) -> Result<&'static [BpfProgram], &'static FilterError> {
    type Built = OnceLock<Result<Vec<BpfProgram>, FilterError>>;
    static BUILT: [Built; 4] = [const { OnceLock::new() }; 4];
    let index = match (memory_files, unix_sockets) {
        (MemoryFiles::Allowed, UnixSockets::Allowed) => 0,
        (MemoryFiles::Allowed, UnixSockets::Refused) => 1,
        (MemoryFiles::Refused, UnixSockets::Allowed) => 2,
        (MemoryFiles::Refused, UnixSockets::Refused) => 3,
    };
    match BUILT[index].get_or_init(|| build(memory_files, unix_sockets)) {
        Ok(filters) => Ok(filters),
        Err(error) => Err(error),
    }
}

/// Whether this process runs inside a judge's run (its system-call filter
/// answers the probe). The call is made with the `syscall` instruction
/// itself, not through libc, so an `LD_PRELOAD` library cannot answer it.
pub(crate) fn inside_a_run() -> bool {
    let result: i64;
    // SAFETY: `prctl` with an option no kernel knows reads and changes
    // nothing; the registers the instruction clobbers are declared.
    unsafe {
        std::arch::asm!(
            "syscall",
            inlateout("rax") i64::from(PRCTL) => result,
            in("rdi") u64::from(PROBE_OPTION),
            in("rsi") 0u64,
            in("rdx") 0u64,
            in("r10") 0u64,
            in("r8") 0u64,
            lateout("rcx") _,
            lateout("r11") _,
            options(nostack),
        );
    }
    result == -i64::from(PROBE_ERRNO)
}

#[cfg(test)]
mod tests;
