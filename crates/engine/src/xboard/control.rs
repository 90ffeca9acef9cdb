//! CECP time controls: `level`, `st`, `sd`, `nps`, `time` and `otim`, turned into the
//! search's limits for one move.

use crate::timeman::{self, TimeLeft};

/// The game's time control and the clocks as the GUI last told them.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Control {
    /// Moves per period (`level`'s first field; 0: the whole game).
    pub moves_per_period: u32,
    /// A period's time in ms.
    pub base_ms: u64,
    /// The increment per move in ms.
    pub inc_ms: u64,
    /// `st`: exactly this long for every move, in ms.
    pub per_move_ms: Option<u64>,
    /// `sd`: search no deeper.
    pub depth: Option<i32>,
    /// `nps`: count nodes instead of time, at this many a second.
    pub nps: Option<u64>,
    /// `time`: the engine's clock in ms.
    pub own_ms: Option<u64>,
    /// `otim`: the opponent's clock in ms.
    pub opponent_ms: Option<u64>,
}

/// What one move may spend.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Budget {
    /// (soft, hard) in ms; 0: no limit.
    pub time: (u64, u64),
    pub nodes: Option<u64>,
    pub depth: Option<i32>,
}

/// Why a time-control command was refused.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct BadControl;

/// Seconds, maybe with a fraction (`0.5`), as ms.
fn seconds(text: &str) -> Option<u64> {
    let s: f64 = text.parse().ok()?;
    (0.0..1e9).contains(&s).then(|| (s * 1000.0).round() as u64)
}

/// `5` (minutes) or `0:30` (minutes and seconds) as ms.
fn minutes(text: &str) -> Option<u64> {
    match text.split_once(':') {
        Some((m, s)) => {
            let m: u64 = m.parse().ok()?;
            let s: u64 = s.parse().ok()?;
            (m < 1_000_000 && s < 60).then_some(m * 60_000 + s * 1000)
        }
        None => seconds(text).map(|ms| ms.saturating_mul(60)),
    }
}

/// A clock in centiseconds, as `time` and `otim` give it (negative once the flag fell).
fn centiseconds(text: &str) -> Option<u64> {
    let cs: i64 = text.parse().ok()?;
    Some(cs.max(0) as u64 * 10)
}

impl Control {
    /// Applies one time-control command (`level 40 5 0`, `st 2`, `sd 8`, `nps 1000`,
    /// `time 6000`, `otim 5800`); `Err` leaves the control as it was.
    pub fn apply(&mut self, command: &str, args: &[&str]) -> Result<(), BadControl> {
        let one = || match args {
            [a] => Ok(*a),
            _ => Err(BadControl),
        };
        match command {
            "level" => {
                let [mps, base, inc] = args else {
                    return Err(BadControl);
                };
                let mps: u32 = mps.parse().map_err(|_| BadControl)?;
                let base = minutes(base).ok_or(BadControl)?;
                let inc = seconds(inc).ok_or(BadControl)?;
                (self.moves_per_period, self.base_ms, self.inc_ms) = (mps, base, inc);
                self.per_move_ms = None;
            }
            "st" => {
                let ms = seconds(one()?).filter(|&ms| ms > 0).ok_or(BadControl)?;
                self.per_move_ms = Some(ms);
            }
            "sd" => {
                let d: i32 = one()?.parse().map_err(|_| BadControl)?;
                self.depth = Some(d.clamp(1, 100));
            }
            "nps" => {
                let n: u64 = one()?.parse().map_err(|_| BadControl)?;
                self.nps = (n > 0).then_some(n);
            }
            "time" => self.own_ms = Some(centiseconds(one()?).ok_or(BadControl)?),
            "otim" => self.opponent_ms = Some(centiseconds(one()?).ok_or(BadControl)?),
            _ => return Err(BadControl),
        }
        Ok(())
    }

    /// The budget for a move, `moves_made` being the engine's moves so far this game and
    /// `overhead` what the GUI loses per move in ms. Without any control at all, five minutes
    /// for the game, as xboard's own default.
    pub fn budget(&self, moves_made: u32, overhead: u64) -> Budget {
        let time = if let Some(ms) = self.per_move_ms {
            let t = ms.saturating_sub(overhead).max(1);
            (t, t)
        } else if self.depth.is_some() && self.own_ms.is_none() && self.base_ms == 0 {
            (0, 0)
        } else {
            let left = self.own_ms.unwrap_or(if self.base_ms > 0 {
                self.base_ms
            } else {
                300_000
            });
            let movestogo = (self.moves_per_period > 0)
                .then(|| self.moves_per_period - moves_made % self.moves_per_period);
            timeman::allocate(
                TimeLeft {
                    time: left,
                    inc: self.inc_ms,
                    movestogo: movestogo.map(u64::from),
                },
                overhead,
            )
        };
        match self.nps {
            // Nodes stand for time: the search ends near the soft limit, so that is the count.
            Some(nps) => Budget {
                time: (0, 0),
                nodes: Some((time.0.max(1).saturating_mul(nps) / 1000).max(1)),
                depth: self.depth,
            },
            None => Budget {
                time,
                nodes: None,
                depth: self.depth,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn control(commands: &[&str]) -> Control {
        let mut c = Control::default();
        for line in commands {
            let words: Vec<&str> = line.split_whitespace().collect();
            c.apply(words[0], &words[1..]).unwrap();
        }
        c
    }

    #[test]
    fn level_reads_minutes_seconds_and_fractional_increments() {
        let c = control(&["level 40 0:30 0.5"]);
        assert_eq!((c.moves_per_period, c.base_ms, c.inc_ms), (40, 30_000, 500));
        let c = control(&["level 0 5 2"]);
        assert_eq!(
            (c.moves_per_period, c.base_ms, c.inc_ms),
            (0, 300_000, 2_000)
        );
        let mut c = Control::default();
        for bad in [
            "level 40 5",
            "level x 5 0",
            "level 40 0:75 0",
            "level 40 5 -1",
            "st 0",
            "st abc",
            "sd",
            "time",
        ] {
            let words: Vec<&str> = bad.split_whitespace().collect();
            assert_eq!(c.apply(words[0], &words[1..]), Err(BadControl), "{bad}");
        }
        assert_eq!(c, Control::default());
    }

    #[test]
    fn st_is_the_time_for_every_move_and_nps_turns_it_into_nodes() {
        let c = control(&["st 0.1"]);
        assert_eq!(c.budget(0, 30).time, (70, 70));
        let c = control(&["nps 1", "st 5000"]);
        let b = c.budget(0, 0);
        assert_eq!((b.time, b.nodes), ((0, 0), Some(5000)));
    }

    #[test]
    fn the_clock_is_shared_over_the_moves_left_in_the_period() {
        let c = control(&["level 40 5 0", "time 6000"]);
        let early = c.budget(0, 0).time.0;
        let late = c.budget(38, 0).time.0;
        assert!(
            late > early * 5,
            "{early} ms with 40 moves to go, {late} with 2"
        );
        assert!(c.budget(38, 0).time.1 <= 60_000 / 3);
    }

    #[test]
    fn a_depth_limit_alone_has_no_clock() {
        let c = control(&["sd 4"]);
        let b = c.budget(0, 30);
        assert_eq!((b.time, b.depth), ((0, 0), Some(4)));
        let none = Control::default().budget(0, 30);
        assert!(none.time.1 > 0 && none.time.1 <= 100_000, "{none:?}");
    }
}
