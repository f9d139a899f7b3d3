//! The kernel's CPU backstop of a run.

use super::cpu_backstop_seconds;

#[test]
fn the_kernels_cpu_limit_leaves_the_judge_room_to_decide() {
    for (limit_ms, seconds) in [(1, 3), (1000, 4), (3000, 7), (9000, 16), (10_000, 17)] {
        assert_eq!(cpu_backstop_seconds(limit_ms), seconds, "{limit_ms} ms");
    }
    // Never within half the limit of it, whatever the limit.
    for limit_ms in (0..=60_000).step_by(250) {
        assert!(cpu_backstop_seconds(limit_ms) * 1000 >= limit_ms * 3 / 2 + 2000);
    }
}
