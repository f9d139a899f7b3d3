/* userns_restricted UID PROGRAM ARGS...: drops to UID (and the same gid),
   then runs PROGRAM in this process as Ubuntu 23.10+ runs a program that
   no AppArmor profile grants `userns` when
   kernel.apparmor_restrict_unprivileged_userns = 1: a user namespace alone
   can still be made, but it holds no capability, so no namespace that
   needs one (mount, network, PID, IPC, UTS, cgroup) can be made with it or
   inside it, and none can be entered. Debian's kernels have no AppArmor
   restriction, so a seccomp filter plays it: clone and unshare with any
   namespace flag but CLONE_NEWUSER fail with EPERM (unprivileged, outside
   a user namespace, they fail so anyway), as does setns; clone3, whose
   flags a filter cannot read, fails with ENOSYS so libc falls back to
   clone. Stacked under the judge's own filter, inherited by everything it
   starts. */
#include <errno.h>
#include <grp.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#define NAMESPACES_BUT_USER                                                   \
    (CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC |             \
     CLONE_NEWPID | CLONE_NEWNET)
#define ERRNO(e) BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (e))

int main(int argc, char **argv) {
    if (argc < 3) return 2;
    unsigned id = (unsigned)strtoul(argv[1], NULL, 10);
    if (setgroups(0, NULL) != 0 || setgid(id) != 0 || setuid(id) != 0) {
        perror("userns_restricted");
        return 2;
    }
    struct sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone3, 0, 1),
        ERRNO(ENOSYS),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_setns, 0, 1),
        ERRNO(EPERM),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone, 1, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_unshare, 0, 3),
        /* The flags: the first argument of both (its low 32 bits). */
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
        BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, NAMESPACES_BUT_USER, 0, 1),
        ERRNO(EPERM),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog program = {
        .len = sizeof filter / sizeof filter[0],
        .filter = filter,
    };
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
        prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) != 0) {
        perror("userns_restricted: seccomp");
        return 2;
    }
    execv(argv[2], argv + 2);
    perror("userns_restricted: exec");
    return 2;
}
