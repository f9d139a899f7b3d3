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
//! The program is written here, not by `seccompiler` (whose filter has
//! one action on a match, and a chain of loads and comparisons for every
//! rule: 341 instructions in all, issue #31): the architecture and x32
//! checks (an x32 system call number would miss every rule); a binary
//! search over the ranges of numbers with one outcome each (`gate`: a call
//! no rule names is allowed, one refused whatever its arguments returns
//! EPERM or ENOSYS, in a few comparisons); then a short block for each
//! call decided by its arguments ([`argument_rules`]), and the returns
//! they all share. About 120 instructions, where every instruction is paid
//! by every run: the kernel converts and JIT-compiles the filter for each
//! process that installs it. The rules are checked against the old chain
//! of `seccompiler`'s (the tests keep it) for every number and many
//! arguments. One filter, so a run installs one program, in variants:
//! with `memfd_create` allowed for a run with a memory cgroup, refused for
//! one without, and unix sockets allowed or not. It is installed per run
//! (a filter binds the process that installs it, and the judge must stay
//! unfiltered) and each variant is built once per process.

use seccompiler::{sock_filter, BpfProgram};
use std::collections::BTreeMap;
use std::sync::OnceLock;

const X32_SYSCALL_BIT: u32 = 0x4000_0000;
/// CLONE_NEWNS (0x0002_0000), NEWCGROUP (0x0200_0000), NEWUTS
/// (0x0400_0000), NEWIPC (0x0800_0000), NEWUSER (0x1000_0000), NEWPID
/// (0x2000_0000) and NEWNET (0x4000_0000), one bit each.
const CLONE_NAMESPACES: u32 = 0x7e02_0000;
/// `CLONE_PARENT`: the child becomes a child of the caller's parent, which
/// for a run's program is the judge, outside the run's PID namespace: the
/// holder of the namespace, its init, could kill such a child but never reap
/// it, and the judge waits only for the program (a break-it review of issue
/// #35: as an ordinary user every test was JE and a zombie outlived the
/// judge). Refused (EPERM); no runtime a contest program uses needs it.
const CLONE_PARENT: u32 = 0x8000;
const CLONE: u32 = 56;
const CLONE3: u32 = 435;
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
const GETSOCKOPT_REFUSED: &[u32] = &[57, 71, 77];
/// See [`GETSOCKOPT_REFUSED`].
const SETSOCKOPT_REFUSED: &[u32] = &[76];
const SOCKET: u32 = 41;
const SOCKETPAIR: u32 = 53;
const FCNTL: u32 = 72;
const KILL: u32 = 62;
const AF_UNIX: u32 = 1;
/// preadv2 and pwritev2, whose flags are their sixth argument.
const PREADV2: u32 = 327;
const PWRITEV2: u32 = 328;
/// `RWF_NOWAIT`: a read that fails with EAGAIN unless its page is in the
/// page cache — which is host-wide and outlives runs and judges: a run that
/// reads one of two files of `/usr` per bit leaves a message the next run
/// decodes by asking which are cached (a third red team, issue 18). Refused
/// (EPERM); no contest program needs it.
const RWF_NOWAIT: u32 = 0x8;
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
const DENIED: &[u32] = &[
    101, 310, 311, 165, 166, 155, 167, 168, 169, 170, 171, 175, 176, 246, 320, 313, 321, 298, 323,
    250, 248, 249, 272, 308, 304, 303, 425, 426, 427, 163, 179, 73, 132, 235, 261, 280, 253, 254,
    294, 300, 301, 447,
];

/// The calls refused whatever their arguments under `unix_sockets`.
fn denied(unix_sockets: UnixSockets) -> Vec<u32> {
    let mut denied = DENIED.to_vec();
    if unix_sockets == UnixSockets::Refused {
        denied.push(SOCKET);
    }
    denied
}
/// `fcntl` commands refused: F_GETLK, F_SETLK, F_SETLKW, F_OFD_GETLK,
/// F_OFD_SETLK, F_OFD_SETLKW, F_SETLEASE, F_GETLEASE, F_NOTIFY.
const FCNTL_DENIED: &[u32] = &[5, 6, 7, 36, 37, 38, 1024, 1025, 1026];

/// Why the system-call filter could not be compiled: always a bug of the
/// judge (its rules are constants), reported as the sandbox's JE.
#[derive(Debug, thiserror::Error)]
pub(super) enum FilterError {
    /// A jump does not fit a BPF offset, or goes backwards.
    #[error("a jump of the system-call filter does not fit: {0}")]
    Jump(#[from] std::num::TryFromIntError),
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
const PROBE_RETURN: u32 = libc::SECCOMP_RET_ERRNO | PROBE_ERRNO;

/// What a rule asks of the low 32 bits of an argument (the kernel reads
/// these arguments as `int`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Test {
    /// Equal to one of these.
    OneOf(&'static [u32]),
    /// Equal to none of these.
    NoneOf(&'static [u32]),
    /// Has one of these bits set.
    AnyBit(u32),
}

/// A rule on a call's arguments: when every test passes (each on the low
/// 32 bits of argument `index`), the call returns `action`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Rule {
    tests: &'static [(u32, Test)],
    action: u32,
}

/// `clone` with `CLONE_PIDFD`: ENOSYS, as a kernel without pidfds answers,
/// which runtimes fall back from (`posix_spawn`, `fork` and Python's and
/// the JVM's process starts ask for none).
const CLONE_PIDFD_RULE: Rule = Rule {
    tests: &[(0, Test::AnyBit(CLONE_PIDFD))],
    action: ENOSYS,
};
/// `clone` with any namespace flag, or with `CLONE_PARENT`: EPERM.
const CLONE_FLAGS_RULE: Rule = Rule {
    tests: &[(0, Test::AnyBit(CLONE_NAMESPACES | CLONE_PARENT))],
    action: EPERM,
};
/// `socket` and `socketpair` of any family but `AF_UNIX`: EPERM.
const UNIX_ONLY: Rule = Rule {
    tests: &[(0, Test::NoneOf(&[AF_UNIX]))],
    action: EPERM,
};

/// The calls decided by their arguments, each with its rules in order:
/// the first rule whose tests all pass decides, and a call no rule passes
/// is allowed.
fn argument_rules(unix_sockets: UnixSockets) -> Vec<(u32, Vec<Rule>)> {
    let mut rules = vec![
        // A pidfd first: `clone` with it and a namespace flag is ENOSYS.
        (CLONE, vec![CLONE_PIDFD_RULE, CLONE_FLAGS_RULE]),
        (SOCKETPAIR, vec![UNIX_ONLY]),
        // fcntl(fd, cmd, ...) with a lock, lease or notify command.
        (
            FCNTL,
            vec![Rule {
                tests: &[(1, Test::OneOf(FCNTL_DENIED))],
                action: EPERM,
            }],
        ),
        // kill(0, ...): a run's parent (the judge) is outside its PID
        // namespace, so `getppid()` is 0 there and `kill(getppid(), ...)`
        // would hit its own group: refused, as a kill of the judge always
        // was. Every other kill stays within the run's PID namespace.
        (
            KILL,
            vec![Rule {
                tests: &[(0, Test::OneOf(&[0]))],
                action: EPERM,
            }],
        ),
        // The probe: prctl(PROBE_OPTION, ...) fails with PROBE_ERRNO.
        (
            PRCTL,
            vec![Rule {
                tests: &[(0, Test::OneOf(&[PROBE_OPTION]))],
                action: PROBE_RETURN,
            }],
        ),
    ];
    // preadv2/pwritev2 with RWF_NOWAIT: a probe of the page cache.
    for number in [PREADV2, PWRITEV2] {
        rules.push((
            number,
            vec![Rule {
                tests: &[(5, Test::AnyBit(RWF_NOWAIT))],
                action: EPERM,
            }],
        ));
    }
    // The socket options of [`GETSOCKOPT_REFUSED`] and
    // [`SETSOCKOPT_REFUSED`], on `SOL_SOCKET`.
    for (number, tests) in [
        (
            GETSOCKOPT,
            &[
                (1u32, Test::OneOf(&[SOL_SOCKET])),
                (2, Test::OneOf(GETSOCKOPT_REFUSED)),
            ] as &'static [(u32, Test)],
        ),
        (
            SETSOCKOPT,
            &[
                (1, Test::OneOf(&[SOL_SOCKET])),
                (2, Test::OneOf(SETSOCKOPT_REFUSED)),
            ],
        ),
    ] {
        rules.push((
            number,
            vec![Rule {
                tests,
                action: ENOPROTOOPT,
            }],
        ));
    }
    // socket(AF_UNIX, ...) only, where unix sockets are allowed at all
    // (elsewhere `socket` is refused whole: [`denied`]).
    if unix_sockets == UnixSockets::Allowed {
        rules.push((SOCKET, vec![UNIX_ONLY]));
    }
    rules
}

/// Where a jump of the filter goes, resolved once every instruction is in
/// place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Label(usize);

/// One instruction whose jump targets are labels.
enum Instruction {
    /// Loads the word at `offset` of `seccomp_data`.
    Load(u32),
    /// A conditional jump (`BPF_JEQ`, `BPF_JGE`, `BPF_JSET`) on `k`.
    Jump {
        operation: u32,
        k: u32,
        on_true: Label,
        on_false: Label,
    },
    /// `BPF_JA`.
    Always(Label),
    Return(u32),
}

/// The filter as it is written: instructions and where each label is.
#[derive(Default)]
struct Assembler {
    instructions: Vec<Instruction>,
    bound: Vec<Option<usize>>,
}

impl Assembler {
    fn label(&mut self) -> Label {
        self.bound.push(None);
        Label(self.bound.len() - 1)
    }

    /// `label` is the next instruction.
    fn bind(&mut self, label: Label) {
        self.bound[label.0] = Some(self.instructions.len());
    }

    fn push(&mut self, instruction: Instruction) {
        self.instructions.push(instruction);
    }

    /// A conditional jump to `on_true` or `on_false`.
    fn test(&mut self, operation: u32, k: u32, on_true: Label, on_false: Label) {
        self.push(Instruction::Jump {
            operation,
            k,
            on_true,
            on_false,
        });
    }

    /// The program, every jump forward and within a BPF offset.
    fn finish(self) -> Result<Vec<sock_filter>, FilterError> {
        let offset = |from: usize, to: Label| -> Result<usize, FilterError> {
            let target = self.bound[to.0].unwrap_or(usize::MAX);
            Ok(usize::try_from(
                i64::try_from(target)? - i64::try_from(from + 1)?,
            )?)
        };
        let mut program = Vec::with_capacity(self.instructions.len());
        for (index, instruction) in self.instructions.iter().enumerate() {
            program.push(match *instruction {
                Instruction::Load(at) => load(at),
                Instruction::Jump {
                    operation,
                    k,
                    on_true,
                    on_false,
                } => jump(
                    operation,
                    k,
                    u8::try_from(offset(index, on_true)?)?,
                    u8::try_from(offset(index, on_false)?)?,
                ),
                Instruction::Always(to) => sock_filter {
                    code: (libc::BPF_JMP | libc::BPF_JA) as u16,
                    jt: 0,
                    jf: 0,
                    k: u32::try_from(offset(index, to)?)?,
                },
                Instruction::Return(value) => ret(value),
            });
        }
        Ok(program)
    }
}

/// The returns every part of the filter jumps to, written last.
struct Returns {
    allow: Label,
    by_value: BTreeMap<u32, Label>,
}

impl Returns {
    fn of(&mut self, assembler: &mut Assembler, value: u32) -> Label {
        if value == libc::SECCOMP_RET_ALLOW {
            return self.allow;
        }
        *self
            .by_value
            .entry(value)
            .or_insert_with(|| assembler.label())
    }
}

/// What the gate does with a number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Target {
    /// Returns this whatever the arguments.
    Return(u32),
    /// On to the rules on its arguments, the `n`-th block.
    Rules(usize),
}

/// The gate, run with the system call number loaded: a binary search over
/// the ranges of numbers with one target each (a call no rule names is
/// allowed), one `JGE` for each boundary between two ranges, so that a
/// call is decided after about `log2` of their count of comparisons and
/// the whole gate is one instruction a range. The kernel converts and
/// compiles the filter for every run that installs it (and runs it once
/// for every system call number, to cache the calls it always allows):
/// each instruction is paid by every run (issue #31).
fn gate(assembler: &mut Assembler, ranges: &[(u32, Label)]) {
    match ranges {
        [] => {}
        [(_, label)] => assembler.push(Instruction::Always(*label)),
        _ => {
            // The first range of the upper half is the boundary: a leaf is
            // jumped to directly, a subtree written after this comparison.
            let (low, high) = ranges.split_at(ranges.len() / 2);
            let leaf = |part: &[(u32, Label)]| match part {
                [(_, label)] => Some(*label),
                _ => None,
            };
            let high_label = leaf(high).unwrap_or_else(|| assembler.label());
            let low_label = leaf(low).unwrap_or_else(|| assembler.label());
            assembler.test(libc::BPF_JGE, high[0].0, high_label, low_label);
            if leaf(low).is_none() {
                assembler.bind(low_label);
                gate(assembler, low);
            }
            if leaf(high).is_none() {
                assembler.bind(high_label);
                gate(assembler, high);
            }
        }
    }
}

/// Writes a block of `rules` (see [`argument_rules`]): each test loads its
/// argument.
fn rules_block(assembler: &mut Assembler, returns: &mut Returns, rules: &[Rule]) {
    for (rule_index, rule) in rules.iter().enumerate() {
        let failed = if rule_index + 1 == rules.len() {
            returns.allow
        } else {
            assembler.label()
        };
        let action = returns.of(assembler, rule.action);
        for (test_index, &(index, test)) in rule.tests.iter().enumerate() {
            let passed = if test_index + 1 == rule.tests.len() {
                action
            } else {
                assembler.label()
            };
            assembler.push(Instruction::Load(16 + 8 * index)); // args[index], low 32 bits
            match test {
                Test::OneOf(values) | Test::NoneOf(values) => {
                    let (on_equal, on_none) = match test {
                        Test::OneOf(_) => (passed, failed),
                        _ => (failed, passed),
                    };
                    for (value_index, &value) in values.iter().enumerate() {
                        if value_index + 1 == values.len() {
                            assembler.test(libc::BPF_JEQ, value, on_equal, on_none);
                        } else {
                            let next = assembler.label();
                            assembler.test(libc::BPF_JEQ, value, on_equal, next);
                            assembler.bind(next);
                        }
                    }
                }
                Test::AnyBit(bits) => assembler.test(libc::BPF_JSET, bits, passed, failed),
            }
            if test_index + 1 != rule.tests.len() {
                assembler.bind(passed);
            }
        }
        if rule_index + 1 != rules.len() {
            assembler.bind(failed);
        }
    }
}

/// The numbers each target takes, as ranges from their first number (the
/// last range, from the highest named number plus one, is allowed).
fn ranges(targets: &BTreeMap<u32, Target>) -> Vec<(u32, Target)> {
    let allowed = Target::Return(libc::SECCOMP_RET_ALLOW);
    let mut ranges: Vec<(u32, Target)> = Vec::new();
    let mut next = 0u32;
    for (&number, &target) in targets {
        if number > next && ranges.last().is_none_or(|&(_, last)| last != allowed) {
            ranges.push((next, allowed));
        }
        if ranges.last().is_none_or(|&(_, last)| last != target) {
            ranges.push((number, target));
        }
        next = number + 1;
    }
    if ranges.last().is_none_or(|&(_, last)| last != allowed) {
        ranges.push((next, allowed));
    }
    ranges
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

/// The one program of a run: the entry, the gate, the blocks of rules on
/// arguments, and the returns they all jump to.
fn build(
    memory_files: MemoryFiles,
    unix_sockets: UnixSockets,
) -> Result<Vec<BpfProgram>, FilterError> {
    // Refused whatever the arguments; a call on the ENOSYS list (and
    // `clone3`, so libc falls back to `clone`, whose flags are checked)
    // is ENOSYS; a call with rules on its arguments goes to them.
    let mut targets: BTreeMap<u32, Target> = BTreeMap::new();
    for number in denied(unix_sockets) {
        targets.insert(number, Target::Return(EPERM));
    }
    for number in enosys_calls(memory_files).chain([CLONE3]) {
        targets.insert(number, Target::Return(ENOSYS));
    }
    let mut blocks: Vec<Vec<Rule>> = Vec::new();
    for (number, rules) in argument_rules(unix_sockets) {
        // Calls with the same rules share one block.
        let block = match blocks.iter().position(|block| *block == rules) {
            Some(block) => block,
            None => {
                blocks.push(rules);
                blocks.len() - 1
            }
        };
        targets.insert(number, Target::Rules(block));
    }
    let mut assembler = Assembler::default();
    let mut returns = Returns {
        allow: assembler.label(),
        by_value: BTreeMap::new(),
    };
    let block_labels: Vec<Label> = blocks.iter().map(|_| assembler.label()).collect();
    let gate_ranges: Vec<(u32, Label)> = ranges(&targets)
        .into_iter()
        .map(|(first, target)| match target {
            Target::Return(value) => (first, returns.of(&mut assembler, value)),
            Target::Rules(block) => (first, block_labels[block]),
        })
        .collect();
    gate(&mut assembler, &gate_ranges);
    for (block, label) in blocks.iter().zip(&block_labels) {
        assembler.bind(*label);
        rules_block(&mut assembler, &mut returns, block);
    }
    assembler.bind(returns.allow);
    assembler.push(Instruction::Return(libc::SECCOMP_RET_ALLOW));
    for (&value, &label) in &returns.by_value {
        assembler.bind(label);
        assembler.push(Instruction::Return(value));
    }
    let mut program = entry();
    program.extend(assembler.finish()?);
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
