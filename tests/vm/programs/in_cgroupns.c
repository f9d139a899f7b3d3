/* in_cgroupns UID PROGRAM ARGS...: what a container with a private cgroup
   namespace gives its program. A new cgroup namespace rooted at this
   process's cgroup and a new mount namespace whose /sys/fs/cgroup is
   cgroup2 mounted anew from inside (so /proc/self/cgroup says `0::/` and
   the mount's root is the namespace's root, as in `unshare --cgroup
   --mount` followed by a remount); then drops to UID (0: stays root) and
   runs PROGRAM in this process. */
#define _GNU_SOURCE
#include <grp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <unistd.h>
int main(int argc, char **argv) {
    if (argc < 3) return 2;
    if (unshare(CLONE_NEWCGROUP | CLONE_NEWNS) != 0) {
        perror("in_cgroupns: unshare");
        return 2;
    }
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0 ||
        umount2("/sys/fs/cgroup", MNT_DETACH) != 0 ||
        mount("cgroup2", "/sys/fs/cgroup", "cgroup2", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) != 0) {
        perror("in_cgroupns: remounting cgroup2");
        return 2;
    }
    unsigned id = (unsigned)strtoul(argv[1], NULL, 10);
    if (id != 0 && (setgroups(0, NULL) != 0 || setgid(id) != 0 || setuid(id) != 0)) {
        perror("in_cgroupns: dropping privileges");
        return 2;
    }
    execv(argv[2], argv + 2);
    perror("in_cgroupns: exec");
    return 2;
}
