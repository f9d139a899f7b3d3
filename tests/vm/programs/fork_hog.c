/* Eight children of 200 MB each, all alive at once: the tree needs 1.6 GB.
   Under a 256 MiB limit only a tree-wide memory cgroup stops it (MLE) and
   measures it; per-process limits see 200 MB each. */
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
int main(void) {
    for (int i = 0; i < 8; i++) {
        if (fork() == 0) {
            size_t size = 200u << 20;
            /* volatile: the compiler must not drop writes nobody reads. */
            volatile char *block = malloc(size);
            if (!block) return 1;
            for (size_t at = 0; at < size; at += 4096) block[at] = 1;
            pause();
            return 0;
        }
    }
    while (wait(NULL) > 0) {
    }
    return 0;
}
