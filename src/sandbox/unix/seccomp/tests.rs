use super::*;

#[test]
fn the_filters_compile() {
    let filters = filters();
    assert!(
        filters.is_ok_and(|filters| filters.len() == 1),
        "{filters:?}"
    );
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

/// The filter as it was before the gate: every rule in one chain, each
/// number compared in turn.
fn linear() -> BpfProgram {
    let mut rules = conditional_rules().unwrap();
    for &number in DENIED {
        rules.entry(number).or_default();
    }
    let mut program = entry()[3..].to_vec();
    program.extend(special_rules().unwrap());
    program.extend(compile(rules, SeccompAction::Errno(libc::EPERM as u32)).unwrap());
    program
}

fn argument_sets() -> Vec<[u64; 6]> {
    let mut sets = vec![[0; 6]];
    for first in [0, 1, 2, 10, u64::from(PROBE_OPTION), 0x11, 0xffff_ffff] {
        for second in (0..=40).chain(1024..=1026) {
            for sixth in [0, 1, RWF_NOWAIT, RWF_NOWAIT | 1] {
                sets.push([first, second, 0, 0, 0, sixth]);
            }
        }
    }
    for &flag in CLONE_NAMESPACES {
        sets.push([flag | 0x11, 0, 0, 0, 0, 0]);
    }
    sets
}

#[test]
fn the_gated_filter_decides_every_call_as_the_linear_chain_did() {
    let gated = &filters().unwrap()[0];
    let linear = linear();
    let named: Vec<u32> = conditional_rules()
        .unwrap()
        .keys()
        .copied()
        .chain(DENIED.iter().copied())
        .chain(special_numbers())
        .map(|number| number as u32)
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
    let refused = |number: i64, args: [u64; 6]| {
        run(gated, &data(AUDIT_ARCH_X86_64, number as u32, args)).0 != libc::SECCOMP_RET_ALLOW
    };
    assert!(refused(101, [0; 6])); // ptrace
    assert!(refused(SOCKET, [1, 1, 0, 0, 0, 0]));
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
    let gated = &filters().unwrap()[0];
    let linear = linear();
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
    let gated = &filters().unwrap()[0];
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
