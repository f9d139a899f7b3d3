/* Four children leave the session and spin; the parent only sleeps and
   never waits for them. Their CPU time is the test's: over a 1 s limit it
   is TLE by CPU, long before the wall clock (a judge that counts only the
   processes it reaped sees no CPU time at all). */
#include <unistd.h>
int main(void) {
    for (int i = 0; i < 4; i++) {
        if (fork() == 0) {
            setsid();
            for (volatile unsigned long n = 0;; n++) {
            }
        }
    }
    for (;;) sleep(1);
}
