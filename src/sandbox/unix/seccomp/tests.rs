use super::*;

/// A filter variant: its memory files and its unix sockets.
type Variant = (MemoryFiles, UnixSockets);

const VARIANTS: [Variant; 4] = [
    (MemoryFiles::Allowed, UnixSockets::Allowed),
    (MemoryFiles::Allowed, UnixSockets::Refused),
    (MemoryFiles::Refused, UnixSockets::Allowed),
    (MemoryFiles::Refused, UnixSockets::Refused),
];

/// The variant of a run with neither memory files nor unix sockets.
const STRICTEST: Variant = (MemoryFiles::Refused, UnixSockets::Refused);

#[test]
fn the_filters_compile() {
    for variant in VARIANTS {
        let filters = filters(variant.0, variant.1);
        assert!(
            filters.is_ok_and(|filters| filters.len() == 1),
            "{variant:?}: {filters:?}"
        );
    }
}

/// A classic BPF interpreter for what the filter uses; returns the action
/// and how many instructions ran.
fn run(program: &[sock_filter], data: &[u8; 64]) -> (u32, usize) {
    let mut a: u32 = 0;
    let mut pc = 0;
    let mut steps = 0;
    loop {
        let insn = &program[pc];
        steps += 1;
        pc += 1;
        let k = insn.k;
        let code = u32::from(insn.code);
        let taken = |condition: bool| usize::from(if condition { insn.jt } else { insn.jf });
        match code {
            c if c == libc::BPF_LD | libc::BPF_W | libc::BPF_ABS => {
                let at = k as usize;
                a = u32::from_ne_bytes(data[at..at + 4].try_into().unwrap());
            }
            c if c == libc::BPF_ALU | libc::BPF_AND | libc::BPF_K => a &= k,
            c if c == libc::BPF_JMP | libc::BPF_JA => pc += k as usize,
            c if c == libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K => pc += taken(a == k),
            c if c == libc::BPF_JMP | libc::BPF_JGT | libc::BPF_K => pc += taken(a > k),
            c if c == libc::BPF_JMP | libc::BPF_JGE | libc::BPF_K => pc += taken(a >= k),
            c if c == libc::BPF_JMP | libc::BPF_JSET | libc::BPF_K => pc += taken(a & k != 0),
            c if c == libc::BPF_RET | libc::BPF_K => return (k, steps),
            other => panic!("instruction {other:#x} at {}", pc - 1),
        }
    }
}

fn data(arch: u32, number: u32, args: [u64; 6]) -> [u8; 64] {
    let mut bytes = [0u8; 64];
    bytes[..4].copy_from_slice(&number.to_ne_bytes());
    bytes[4..8].copy_from_slice(&arch.to_ne_bytes());
    for (index, arg) in args.iter().enumerate() {
        bytes[16 + 8 * index..24 + 8 * index].copy_from_slice(&arg.to_ne_bytes());
    }
    bytes
}

// The filter as it was before issue #31's compact one: the hand-written
// rules and `seccompiler`'s, in one chain. The filter is checked against it.

use seccompiler::{
    SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter, SeccompRule,
    TargetArch,
};

/// The socket options refused, with the call they are refused in.
const SOCKET_OPTIONS: &[(u32, &[u32])] = &[
    (GETSOCKOPT, GETSOCKOPT_REFUSED),
    (SETSOCKOPT, SETSOCKOPT_REFUSED),
];

/// One condition on the low 32 bits of argument `index`.
fn on_arg(index: u8, operator: SeccompCmpOp, value: u64) -> SeccompRule {
    let condition = SeccompCondition::new(index, SeccompCmpArgLen::Dword, operator, value).unwrap();
    SeccompRule::new(vec![condition]).unwrap()
}

fn compile(rules: BTreeMap<i64, Vec<SeccompRule>>, on_match: SeccompAction) -> BpfProgram {
    let filter =
        SeccompFilter::new(rules, SeccompAction::Allow, on_match, TargetArch::x86_64).unwrap();
    BpfProgram::try_from(filter).unwrap()
}

/// Each namespace flag of `clone`, alone.
fn clone_namespace_flags() -> Vec<u32> {
    (0..32)
        .map(|bit| 1u32 << bit)
        .filter(|flag| CLONE_NAMESPACES & flag != 0)
        .collect()
}

/// The rules with conditions on arguments, compiled by `seccompiler`.
fn conditional_rules(unix_sockets: UnixSockets) -> BTreeMap<i64, Vec<SeccompRule>> {
    let mut rules: BTreeMap<i64, Vec<SeccompRule>> = BTreeMap::new();
    let unix = u64::from(AF_UNIX);
    rules.insert(SOCKETPAIR.into(), vec![on_arg(0, SeccompCmpOp::Ne, unix)]);
    if unix_sockets == UnixSockets::Allowed {
        rules.insert(SOCKET.into(), vec![on_arg(0, SeccompCmpOp::Ne, unix)]);
    }
    rules.insert(
        FCNTL.into(),
        FCNTL_DENIED
            .iter()
            .map(|&command| on_arg(1, SeccompCmpOp::Eq, command.into()))
            .collect(),
    );
    for number in [PREADV2, PWRITEV2] {
        let nowait = u64::from(RWF_NOWAIT);
        rules.insert(
            number.into(),
            vec![on_arg(5, SeccompCmpOp::MaskedEq(nowait), nowait)],
        );
    }
    rules.insert(KILL.into(), vec![on_arg(0, SeccompCmpOp::Eq, 0)]);
    rules.insert(
        CLONE.into(),
        clone_namespace_flags()
            .into_iter()
            .chain([CLONE_PARENT])
            .map(|flag| on_arg(0, SeccompCmpOp::MaskedEq(flag.into()), flag.into()))
            .collect(),
    );
    rules
}

fn jump_ahead(count: u32) -> sock_filter {
    sock_filter {
        code: (libc::BPF_JMP | libc::BPF_JA) as u16,
        jt: 0,
        jf: 0,
        k: count,
    }
}

/// A hand-written rule on arguments, run with the number loaded.
fn on_arguments(number: u32, tests: &[(u32, Test)], action: u32) -> Vec<sock_filter> {
    let length = |test: &Test| match test {
        Test::OneOf(values) | Test::NoneOf(values) => values.len() + 1,
        Test::AnyBit(_) => 1,
    };
    let body_length = tests
        .iter()
        .map(|(_, test)| 1 + length(test))
        .sum::<usize>()
        + 2;
    let reload = body_length - 1;
    let mut body = Vec::with_capacity(body_length);
    for &(index, test) in tests {
        body.push(load(16 + 8 * index));
        match test {
            Test::OneOf(values) => {
                let next = body.len() + values.len() + 1;
                for &value in values {
                    let skip = next - (body.len() + 1);
                    body.push(jump(libc::BPF_JEQ, value, skip as u8, 0));
                }
                let skip = reload - (body.len() + 1);
                body.push(jump_ahead(skip as u32));
            }
            Test::AnyBit(bits) => {
                let skip = reload - (body.len() + 1);
                body.push(jump(libc::BPF_JSET, bits, 0, skip as u8));
            }
            Test::NoneOf(_) => unreachable!("the old chain had no such test"),
        }
    }
    body.push(ret(action));
    body.push(load(0));
    let mut program = vec![jump(libc::BPF_JEQ, number, 0, body_length as u8)];
    program.extend(body);
    program
}

/// The old hand-written rules, run with the number loaded.
fn special_rules(memory_files: MemoryFiles) -> Vec<sock_filter> {
    let mut program = vec![jump(libc::BPF_JEQ, CLONE3, 0, 1), ret(ENOSYS)];
    let count = enosys_calls(memory_files).count();
    for (index, number) in enosys_calls(memory_files).enumerate() {
        program.push(jump(libc::BPF_JEQ, number, (count - index) as u8, 0));
    }
    program.push(jump_ahead(1));
    program.push(ret(ENOSYS));
    program.extend(on_arguments(
        CLONE,
        &[(0, Test::AnyBit(CLONE_PIDFD))],
        ENOSYS,
    ));
    for &(number, options) in SOCKET_OPTIONS {
        program.extend(on_arguments(
            number,
            &[(1, Test::OneOf(&[SOL_SOCKET])), (2, Test::OneOf(options))],
            ENOPROTOOPT,
        ));
    }
    program.push(jump(libc::BPF_JEQ, PRCTL, 0, 3));
    program.push(load(16));
    program.push(jump(libc::BPF_JEQ, PROBE_OPTION, 0, 1));
    program.push(ret(libc::SECCOMP_RET_ERRNO | PROBE_ERRNO));
    program
}

/// The numbers the old hand-written rules looked at.
fn special_numbers(memory_files: MemoryFiles) -> Vec<u32> {
    let mut numbers = vec![CLONE3, CLONE, PRCTL];
    numbers.extend(enosys_calls(memory_files));
    numbers.extend(SOCKET_OPTIONS.iter().map(|&(number, _)| number));
    numbers
}

/// The filter as it was before the gate: every rule in one chain, each
/// number compared in turn.
fn linear(variant: Variant) -> BpfProgram {
    let mut rules = conditional_rules(variant.1);
    for number in denied(variant.1) {
        rules.entry(number.into()).or_default();
    }
    let mut program = entry()[3..].to_vec();
    program.extend(special_rules(variant.0));
    program.extend(compile(rules, SeccompAction::Errno(libc::EPERM as u32)));
    program
}

fn argument_sets() -> Vec<[u64; 6]> {
    let mut sets = vec![[0; 6]];
    for first in [0, 1, 2, 10, u64::from(PROBE_OPTION), 0x11, 0xffff_ffff] {
        for second in (0..=40).chain(1024..=1026) {
            for sixth in [0, 1, 0x8, 0x9, 0x1_0000_0008] {
                sets.push([first, second, 0, 0, 0, sixth]);
            }
        }
    }
    for flag in clone_namespace_flags().into_iter().chain([CLONE_PARENT]) {
        let flag = u64::from(flag);
        sets.push([flag | 0x11, 0, 0, 0, 0, 0]);
        sets.push([flag | u64::from(CLONE_PIDFD) | 0x11, 0, 0, 0, 0, 0]);
        // Only the low 32 bits are the flags the kernel reads.
        sets.push([(flag << 32) | 0x11, 0, 0, 0, 0, 0]);
    }
    sets.push([u64::from(CLONE_PIDFD) | 0x11, 0, 0, 0, 0, 0]);
    // kill(0, ...) and its neighbours, the probe with high bits.
    for first in [0x1_0000_0000, 0xffff_ffff_ffff_ffff, 0x1_4a55_4447] {
        sets.push([first, 0, 0, 0, 0, 0]);
    }
    sets.push([0xffff_ffff_0000_0011, 0, 0, 0, 0, 0]);
    // getsockopt and setsockopt: every option on SOL_SOCKET and another level.
    for level in [0, 1, 6, 0x1_0000_0001] {
        for option in 0..=80 {
            sets.push([3, level, option, 0, 0, 0]);
        }
    }
    sets
}

#[test]
fn the_gated_filter_decides_every_call_as_the_linear_chain_did() {
    for variant in VARIANTS {
        gated_decides_as_linear(variant);
    }
}

fn gated_decides_as_linear(variant: Variant) {
    let gated = &filters(variant.0, variant.1).unwrap()[0];
    let linear = linear(variant);
    let named: Vec<u32> = conditional_rules(variant.1)
        .keys()
        .map(|&number| number as u32)
        .chain(denied(variant.1))
        .chain(special_numbers(variant.0))
        .collect();
    let all_args = argument_sets();
    for number in 0..1100u32 {
        let sets: &[[u64; 6]] = if named.contains(&number) {
            &all_args
        } else {
            &all_args[..9]
        };
        for &args in sets {
            for number in [number, number | X32_SYSCALL_BIT] {
                let input = data(AUDIT_ARCH_X86_64, number, args);
                assert_eq!(
                    run(gated, &input).0,
                    run(&linear, &input).0,
                    "system call {number:#x}, arguments {args:?}"
                );
            }
        }
        // Any other architecture is killed at once, whatever the call.
        for arch in [0x4000_0003, 0, 0xc000_00b7] {
            let input = data(arch, number, [0; 6]);
            assert_eq!(
                run(gated, &input).0,
                libc::SECCOMP_RET_KILL_PROCESS,
                "{arch:#x}"
            );
        }
    }
    // What the rules refuse is still refused: a sample, by hand.
    let refused = |number: u32, args: [u64; 6]| {
        run(gated, &data(AUDIT_ARCH_X86_64, number, args)).0 != libc::SECCOMP_RET_ALLOW
    };
    assert!(refused(101, [0; 6])); // ptrace
    assert!(refused(SOCKET, [2, 1, 0, 0, 0, 0])); // AF_INET
    assert!(refused(SOCKET, [16, 3, 0, 0, 0, 0])); // AF_NETLINK
    assert!(refused(SOCKET, [17, 3, 0, 0, 0, 0])); // AF_PACKET
    assert_eq!(
        refused(SOCKET, [1, 1, 0, 0, 0, 0]), // AF_UNIX
        variant.1 == UnixSockets::Refused
    );
    assert!(refused(FCNTL, [3, 5, 0, 0, 0, 0])); // F_GETLK
    assert!(!refused(FCNTL, [3, 1, 0, 0, 0, 0])); // F_GETFD
    assert!(refused(CLONE, [0x2000_0011, 0, 0, 0, 0, 0])); // CLONE_NEWPID
    assert!(!refused(CLONE, [0x11, 0, 0, 0, 0, 0]));
    assert!(refused(CLONE3, [0; 6]));
    assert!(!refused(0, [0; 6])); // read
}

/// The kernel runs the filter for every system call number when a run
/// installs it; a call no rule names must be decided in a few
/// instructions, not after the whole chain.
#[test]
fn a_call_no_rule_names_is_allowed_within_a_few_instructions() {
    let gated = &filters(STRICTEST.0, STRICTEST.1).unwrap()[0];
    let linear = linear(STRICTEST);
    let (mut gated_most, mut linear_most) = (0, 0);
    for number in [0u32, 1, 2, 3, 9, 12, 60, 231, 257, 262, 334, 400, 450] {
        let input = data(AUDIT_ARCH_X86_64, number, [0; 6]);
        let (action, steps) = run(gated, &input);
        assert_eq!(action, libc::SECCOMP_RET_ALLOW, "{number}");
        gated_most = gated_most.max(steps);
        linear_most = linear_most.max(run(&linear, &input).1);
    }
    assert!(gated_most <= 16, "{gated_most} instructions");
    assert!(
        linear_most > 4 * gated_most,
        "{linear_most} against {gated_most}"
    );
}

/// Every SysV IPC and POSIX message queue call fails with ENOSYS, whatever
/// its arguments, and the numbers are the kernel's (libc's names).
#[test]
fn every_ipc_call_fails_with_enosys() {
    let gated = &filters(STRICTEST.0, STRICTEST.1).unwrap()[0];
    let calls = [
        libc::SYS_shmget,
        libc::SYS_shmat,
        libc::SYS_shmctl,
        libc::SYS_shmdt,
        libc::SYS_semget,
        libc::SYS_semop,
        libc::SYS_semctl,
        libc::SYS_semtimedop,
        libc::SYS_msgget,
        libc::SYS_msgsnd,
        libc::SYS_msgrcv,
        libc::SYS_msgctl,
        libc::SYS_mq_open,
        libc::SYS_mq_unlink,
        libc::SYS_mq_timedsend,
        libc::SYS_mq_timedreceive,
        libc::SYS_mq_notify,
        libc::SYS_mq_getsetattr,
    ];
    let mut listed: Vec<i64> = IPC.iter().map(|&number| i64::from(number)).collect();
    let mut named = calls.to_vec();
    listed.sort_unstable();
    named.sort_unstable();
    assert_eq!(listed, named);
    for number in calls {
        for args in argument_sets() {
            let input = data(AUDIT_ARCH_X86_64, number as u32, args);
            assert_eq!(
                run(gated, &input).0,
                ENOSYS,
                "system call {number}, arguments {args:?}"
            );
        }
    }
    // Their neighbours are not refused.
    for number in [
        libc::SYS_mmap,
        libc::SYS_munmap,
        libc::SYS_dup2,
        libc::SYS_getpid,
    ] {
        let input = data(AUDIT_ARCH_X86_64, number as u32, [0; 6]);
        assert_eq!(run(gated, &input).0, libc::SECCOMP_RET_ALLOW, "{number}");
    }
}

/// A call made in a filtered child: 0 when it worked, else its errno.
type Probe = fn() -> i32;

/// Forks a child that installs the filter of `variant` and exits with what
/// `probe` returns: 0 when the call worked, else the errno it failed with
/// (200: the filter could not be installed).
fn in_filtered_child(variant: Variant, probe: Probe) -> i32 {
    let filters = filters(variant.0, variant.1).unwrap();
    // SAFETY: the child only makes system calls (and `posix_spawn`, which
    // allocates nothing) before `_exit`.
    let pid = unsafe { libc::fork() };
    assert!(pid >= 0, "fork: {}", std::io::Error::last_os_error());
    if pid == 0 {
        let code = match filters
            .iter()
            .try_for_each(|filter| seccompiler::apply_filter(filter))
        {
            Ok(()) => probe(),
            Err(_) => 200,
        };
        // SAFETY: ends the forked child without running the parent's
        // destructors or atexit handlers.
        unsafe { libc::_exit(code) };
    }
    let mut status = 0;
    // SAFETY: reaps the child forked above.
    assert_eq!(unsafe { libc::waitpid(pid, &mut status, 0) }, pid);
    assert!(libc::WIFEXITED(status), "the child ended by {status:#x}");
    libc::WEXITSTATUS(status)
}

/// The errno of a failed call (`result` < 0), 0 after one that worked.
fn errno_of(result: i64) -> i32 {
    if result < 0 {
        std::io::Error::last_os_error()
            .raw_os_error()
            .unwrap_or(255)
    } else {
        0
    }
}

/// `getsockopt(SOL_SOCKET, option)` on one end of a unix socketpair.
fn get_socket_option(option: i32) -> i32 {
    let mut ends = [0; 2];
    // SAFETY: `ends` has room for the two descriptors.
    if unsafe { libc::socketpair(libc::AF_UNIX, libc::SOCK_STREAM, 0, ends.as_mut_ptr()) } != 0 {
        return 201;
    }
    let mut value = [0u8; 8]; // SO_NETNS_COOKIE wants exactly 8 bytes
    let mut length = value.len() as libc::socklen_t;
    // SAFETY: `value` has `length` bytes.
    let result = unsafe {
        libc::getsockopt(
            ends[0],
            libc::SOL_SOCKET,
            option,
            value.as_mut_ptr().cast(),
            &mut length,
        )
    };
    errno_of(result.into())
}

fn so_cookie() -> i32 {
    get_socket_option(libc::SO_COOKIE)
}

fn so_netns_cookie() -> i32 {
    get_socket_option(71)
}

fn so_peerpidfd() -> i32 {
    get_socket_option(77)
}

fn so_type() -> i32 {
    get_socket_option(libc::SO_TYPE)
}

fn so_passpidfd() -> i32 {
    let mut ends = [0; 2];
    // SAFETY: `ends` has room for the two descriptors.
    if unsafe { libc::socketpair(libc::AF_UNIX, libc::SOCK_STREAM, 0, ends.as_mut_ptr()) } != 0 {
        return 201;
    }
    let on: libc::c_int = 1;
    // SAFETY: `on` is an int, as the option's length says.
    let result = unsafe {
        libc::setsockopt(
            ends[0],
            libc::SOL_SOCKET,
            76,
            std::ptr::from_ref(&on).cast(),
            std::mem::size_of::<libc::c_int>() as libc::socklen_t,
        )
    };
    errno_of(result.into())
}

fn pidfd_open() -> i32 {
    // SAFETY: pidfd_open of the caller itself; the descriptor is left to exit.
    errno_of(unsafe { libc::syscall(libc::SYS_pidfd_open, libc::getpid(), 0) })
}

/// A fork through the raw `clone` with `flags`; the child exits at once.
fn clone_with(flags: libc::c_ulong) -> i32 {
    let mut pidfd: libc::c_int = -1;
    // SAFETY: a fork-like clone (no CLONE_VM): the child has its own copy
    // of the stack and exits at once.
    let pid = unsafe {
        libc::syscall(
            libc::SYS_clone,
            flags | libc::SIGCHLD as libc::c_ulong,
            0,
            std::ptr::from_mut(&mut pidfd),
            0,
            0,
        )
    };
    if pid == 0 {
        // SAFETY: the clone's child ends here.
        unsafe { libc::_exit(0) };
    }
    let errno = errno_of(pid);
    if pid > 0 {
        // SAFETY: reaps the child made above.
        unsafe { libc::waitpid(pid as libc::pid_t, std::ptr::null_mut(), 0) };
    }
    errno
}

fn clone_pidfd() -> i32 {
    clone_with(libc::CLONE_PIDFD as libc::c_ulong)
}

fn clone_parent() -> i32 {
    clone_with(libc::CLONE_PARENT as libc::c_ulong)
}

fn clone_plain() -> i32 {
    clone_with(0)
}

fn memfd_secret() -> i32 {
    // SAFETY: makes a descriptor (left to exit) and reads no memory.
    errno_of(unsafe { libc::syscall(libc::SYS_memfd_secret, 0) })
}

fn memfd_create() -> i32 {
    // SAFETY: the name is a C string; the descriptor is left to exit.
    errno_of(unsafe { libc::memfd_create(c"probe".as_ptr(), 0) }.into())
}

/// The counters shared by the whole host are out of a run's reach, with or
/// without a memory cgroup: the socket cookies and the pidfd socket
/// options (ENOPROTOOPT), `pidfd_open` and `clone` with `CLONE_PIDFD`
/// (ENOSYS), `memfd_secret` (EPERM). A fork and another socket option
/// still work. See: issue #35
#[test]
fn r35_host_wide_counters_are_refused() {
    for variant in VARIANTS {
        let rows: [(&str, Probe, i32); 9] = [
            ("SO_COOKIE", so_cookie, libc::ENOPROTOOPT),
            ("SO_NETNS_COOKIE", so_netns_cookie, libc::ENOPROTOOPT),
            ("SO_PEERPIDFD", so_peerpidfd, libc::ENOPROTOOPT),
            ("SO_PASSPIDFD", so_passpidfd, libc::ENOPROTOOPT),
            ("pidfd_open", pidfd_open, libc::ENOSYS),
            ("clone with CLONE_PIDFD", clone_pidfd, libc::ENOSYS),
            ("memfd_secret", memfd_secret, libc::EPERM),
            ("clone", clone_plain, 0),
            ("SO_TYPE", so_type, 0),
        ];
        for (name, probe, expected) in rows {
            assert_eq!(
                in_filtered_child(variant, probe),
                expected,
                "{name} with memory files and unix sockets {variant:?}"
            );
        }
    }
}

/// A run's process cannot make a child of the judge: `clone` with
/// `CLONE_PARENT` is refused, under either variant. See: issue #35
#[test]
fn r35_clone_parent_is_refused() {
    for variant in VARIANTS {
        assert_eq!(
            in_filtered_child(variant, clone_parent),
            libc::EPERM,
            "{variant:?}"
        );
        assert_eq!(in_filtered_child(variant, clone_plain), 0, "{variant:?}");
    }
}

/// `memfd_create` fails with ENOSYS in a run without a memory cgroup (its
/// pages, left in flight in a unix socket, would outlive the run on no
/// one's account) and works in one with. See: issue #35
#[test]
fn r35_memfd_create_is_refused_without_a_memory_cgroup() {
    assert_eq!(
        in_filtered_child((MemoryFiles::Refused, UnixSockets::Allowed), memfd_create),
        libc::ENOSYS
    );
    assert_eq!(
        in_filtered_child((MemoryFiles::Allowed, UnixSockets::Refused), memfd_create),
        0
    );
}

/// libc's `posix_spawn` (clone3, then clone with CLONE_VM | CLONE_VFORK)
/// and Python's `subprocess` still start programs under either filter.
#[test]
fn posix_spawn_and_python_subprocess_still_work() {
    fn spawn_and_wait(argv: &[&std::ffi::CStr]) -> i32 {
        let mut pointers: Vec<*mut libc::c_char> =
            argv.iter().map(|arg| arg.as_ptr().cast_mut()).collect();
        pointers.push(std::ptr::null_mut());
        let mut pid = 0;
        // SAFETY: `pointers` is a null-terminated array of C strings that
        // outlive the call; the environment is the process's.
        let spawned = unsafe {
            libc::posix_spawnp(
                &mut pid,
                pointers[0],
                std::ptr::null(),
                std::ptr::null(),
                pointers.as_ptr(),
                std::ptr::null(),
            )
        };
        if spawned != 0 {
            return spawned;
        }
        let mut status = 0;
        // SAFETY: reaps the child spawned above.
        unsafe { libc::waitpid(pid, &mut status, 0) };
        if libc::WIFEXITED(status) {
            libc::WEXITSTATUS(status)
        } else {
            202
        }
    }
    fn true_program() -> i32 {
        spawn_and_wait(&[c"true"])
    }
    fn python_subprocess() -> i32 {
        spawn_and_wait(&[
            c"python3",
            c"-c",
            c"import subprocess, sys; sys.exit(subprocess.run(['true']).returncode)",
        ])
    }
    for variant in VARIANTS {
        assert_eq!(in_filtered_child(variant, true_program), 0, "{variant:?}");
        assert_eq!(
            in_filtered_child(variant, python_subprocess),
            0,
            "{variant:?}"
        );
    }
}

fn socket_of(family: i32) -> i32 {
    // SAFETY: makes a socket, left to exit.
    errno_of(unsafe { libc::socket(family, libc::SOCK_STREAM, 0) }.into())
}

fn unix_socket() -> i32 {
    socket_of(libc::AF_UNIX)
}

fn inet_socket() -> i32 {
    socket_of(libc::AF_INET)
}

fn inet6_socket() -> i32 {
    socket_of(libc::AF_INET6)
}

fn netlink_socket() -> i32 {
    // SAFETY: makes a socket, left to exit.
    errno_of(unsafe { libc::socket(libc::AF_NETLINK, libc::SOCK_RAW, 0) }.into())
}

fn packet_socket() -> i32 {
    // SAFETY: makes a socket, left to exit.
    errno_of(unsafe { libc::socket(libc::AF_PACKET, libc::SOCK_RAW, 0) }.into())
}

/// `socket(AF_UNIX)` works where unix sockets are allowed and fails with
/// EPERM where they are refused; every other family fails with EPERM under
/// every variant. See: issue #32
#[test]
fn r32_only_unix_sockets_are_made_and_only_where_allowed() {
    for variant in VARIANTS {
        let expected = match variant.1 {
            UnixSockets::Allowed => 0,
            UnixSockets::Refused => libc::EPERM,
        };
        assert_eq!(
            in_filtered_child(variant, unix_socket),
            expected,
            "{variant:?}"
        );
        for (name, probe) in [
            ("AF_INET", inet_socket as Probe),
            ("AF_INET6", inet6_socket),
            ("AF_NETLINK", netlink_socket),
            ("AF_PACKET", packet_socket),
        ] {
            assert_eq!(
                in_filtered_child(variant, probe),
                libc::EPERM,
                "{name} under {variant:?}"
            );
        }
    }
}

/// The kernel converts and JIT-compiles the filter for every run that
/// installs it, in time that grows with its length: the compact filter is
/// a third of what it was (issue #31: 341 instructions, about 0.12 ms of
/// every run's set-up).
#[test]
fn r31_the_filter_is_short() {
    // See: issue #31
    for variant in VARIANTS {
        let filter = &filters(variant.0, variant.1).unwrap()[0];
        assert!(
            filter.len() <= 130,
            "{variant:?}: {} instructions",
            filter.len()
        );
    }
}
