//! Leaving: when a player's sockets are all gone from a game with a clock, the opponent may,
//! after a wait that grows with the time control, claim the win or a draw, as on lichess.

use vizier_arbiter::{Millis, TimeControl};
use vizier_rules::Color;

use super::Round;
use vizier_store::record::Seat;

/// How long a player may be gone before the opponent may claim the game: a tenth of the
/// game's estimated length a player (base + 60 × increment), from 10 s to 2 minutes; never
/// for correspondence or without a clock.
///
/// ```
/// use vizier_arbiter::TimeControl;
/// use vizier_play::round::leave_wait_ms;
/// let tc = |s| TimeControl::parse_pgn(s).unwrap();
/// assert_eq!(leave_wait_ms(&tc("60")), Some(10_000));
/// assert_eq!(leave_wait_ms(&tc("180+2")), Some(30_000));
/// assert_eq!(leave_wait_ms(&tc("5400+30")), Some(120_000));
/// assert_eq!(leave_wait_ms(&tc("-")), None);
/// ```
pub fn leave_wait_ms(control: &TimeControl) -> Option<Millis> {
    match control {
        TimeControl::Clock(periods) => {
            let base: Millis = periods.iter().map(|p| p.base_ms).sum();
            let per_move = periods.first().map_or(0, |p| p.increment_ms + p.delay.ms());
            Some(((base + 60 * per_move) / 10).clamp(10_000, 120_000))
        }
        TimeControl::Unlimited | TimeControl::Correspondence { .. } => None,
    }
}

impl Round {
    /// Notes who is gone at `now`: a person's side in a game being played between two
    /// people, with a clock, whose player has no socket open.
    pub(super) fn update_gone(&mut self, now: Millis) {
        // A game adjourned with a sealed move waits for both: nobody is gone from it.
        let playing = self.game.as_ref().is_some_and(|g| {
            g.outcome().is_none()
                && !matches!(
                    g.adjournment(),
                    Some(vizier_arbiter::Adjournment::Sealed(_))
                )
        }) && leave_wait_ms(&self.table.setup.control).is_some()
            && matches!(&self.seats, [Seat::Player(w), Seat::Player(b)] if w != b);
        let present = self.presence();
        for c in Color::ALL {
            let i = c.index();
            self.gone[i] = if playing && !present[i] {
                self.gone[i].or(Some(now))
            } else {
                None
            };
        }
    }

    /// Whether `by` may claim the game at `now`: both have moved (before that, a game
    /// nobody plays is aborted), and the opponent has been gone long enough.
    pub(super) fn may_claim_left(&self, by: Color, now: Millis) -> bool {
        let Some(wait) = leave_wait_ms(&self.table.setup.control) else {
            return false;
        };
        if self.game.as_ref().is_none_or(|g| g.plies().len() < 2) {
            return false;
        }
        self.gone[(!by).index()].is_some_and(|since| now >= since + wait)
            && self.gone[by.index()].is_none()
    }
}
