/* as_user UID PROGRAM ARGS...: drops every privilege to UID (and the same
   gid) and runs PROGRAM in this process, keeping its pid and cgroup. */
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
int main(int argc, char **argv) {
    if (argc < 3) return 2;
    unsigned id = (unsigned)strtoul(argv[1], NULL, 10);
    if (setgroups(0, NULL) != 0 || setgid(id) != 0 || setuid(id) != 0) {
        perror("as_user");
        return 2;
    }
    execv(argv[2], argv + 2);
    perror("as_user: exec");
    return 2;
}
