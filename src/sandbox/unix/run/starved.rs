//! The wall clock a run the host starved is given: the time its threads
//! waited for a CPU while runnable, on top of its limit (issue 32).

use std::time::{Duration, Instant};

/// How far past its wall limit a starved run may go: the time its threads
/// were runnable but waited for a CPU is not counted against it.
const STARVED_WALL_FACTOR: u32 = 2;

/// The wall-clock deadline, at `now`, of a run started at `started` with
/// `wall_limit` whose threads have waited `waited` for a CPU: its limit
/// plus that wait, at most [`STARVED_WALL_FACTOR`] times the limit. `None`
/// when the kernel did not say, or when the run waited longer than it ran
/// (its own threads or processes contending, not the host).
pub(super) fn starved_deadline(
    started: Instant,
    now: Instant,
    wall_limit: Duration,
    waited: Option<Duration>,
) -> Option<Instant> {
    let waited = waited.filter(|&waited| waited <= now.saturating_duration_since(started))?;
    let cap = wall_limit.saturating_mul(STARVED_WALL_FACTOR);
    Some(started + wall_limit.saturating_add(waited).min(cap))
}

#[cfg(test)]
mod tests {
    use super::starved_deadline;
    use std::time::{Duration, Instant};

    #[test]
    fn a_starved_run_is_given_its_wait_up_to_twice_its_limit() {
        let started = Instant::now();
        let limit = Duration::from_millis(3000);
        let at = |ms| started + Duration::from_millis(ms);
        let wait = |ms| Some(Duration::from_millis(ms));
        // Its wait, on top of its limit.
        assert_eq!(
            starved_deadline(started, at(3000), limit, wait(1200)),
            Some(at(4200))
        );
        // At most twice its limit.
        assert_eq!(
            starved_deadline(started, at(4200), limit, wait(3500)),
            Some(at(6000))
        );
        // A wait longer than it ran is its own threads contending: nothing.
        assert_eq!(
            starved_deadline(started, at(3000), limit, wait(19_768)),
            None
        );
        // The kernel did not say.
        assert_eq!(starved_deadline(started, at(3000), limit, None), None);
    }
}
