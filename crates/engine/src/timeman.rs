//! Time management: how long to think, from the clock, increment and moves to go.

/// The clock situation for the side to move (all in ms).
#[derive(Clone, Copy, Debug, Default)]
pub struct Clock {
    /// Time left.
    pub time: u64,
    /// Increment per move.
    pub inc: u64,
    /// Moves until the next time control, if known.
    pub movestogo: Option<u64>,
}

/// (soft, hard) limits in ms: after `soft` no new iteration starts, at `hard` the search stops.
/// `overhead` is kept in reserve for communication delays.
pub fn allocate(clock: Clock, overhead: u64) -> (u64, u64) {
    let available = clock.time.saturating_sub(overhead).max(1);
    let moves = clock.movestogo.unwrap_or(30).clamp(1, 50);
    let soft = (available / moves + clock.inc * 3 / 4)
        .min(available / 2)
        .max(1);
    let hard = (soft * 4).min(available * 3 / 4).max(soft);
    (soft, hard)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn never_more_than_the_clock() {
        for time in [10, 100, 1_000, 60_000, 3_600_000] {
            for inc in [0, 100, 2_000] {
                for movestogo in [None, Some(1), Some(40)] {
                    let (soft, hard) = allocate(
                        Clock {
                            time,
                            inc,
                            movestogo,
                        },
                        30,
                    );
                    assert!(soft <= hard);
                    assert!(hard < time.max(2), "{time} {inc} {movestogo:?}: {hard}");
                }
            }
        }
    }
}
