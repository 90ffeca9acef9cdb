//! A player's standing in one speed class: the three ratings side by side and the games that
//! made them.

use crate::Score;
use crate::fide::Elo;
use crate::glicko;
use crate::level::Points;

/// Milliseconds in a day.
const DAY_MS: f64 = 86_400_000.0;

/// One player's ratings in one class.
///
/// ```
/// use vizier_rating::{Perf, Score};
/// let (a, b) = (Perf::NEW, Perf::NEW);
/// let (a2, b2) = Perf::after_game(&a, &b, Score::Win, 1_000);
/// assert!(a2.glicko.rating > 1500.0 && b2.glicko.rating < 1500.0);
/// assert_eq!((a2.elo.rating, b2.elo.rating), (1520, 1480));
/// assert_eq!((a2.points.whole(), b2.points.whole()), (10, 0));
/// assert_eq!((a2.wins, b2.losses, a2.games), (1, 1, 1));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Perf {
    pub glicko: glicko::Rating,
    /// When the last rated game ended (Unix ms), from which the deviation grows.
    pub rated_at: Option<i64>,
    pub elo: Elo,
    pub points: Points,
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Perf {
    /// A player who has not played a rated game of the class.
    pub const NEW: Perf = Perf {
        glicko: glicko::Rating::DEFAULT,
        rated_at: None,
        elo: Elo::START,
        points: Points::ZERO,
        games: 0,
        wins: 0,
        draws: 0,
        losses: 0,
    };

    /// Days since the last rated game, at `now` (Unix ms).
    fn days_away(&self, now: i64) -> f64 {
        self.rated_at
            .map_or(0.0, |at| (now - at).max(0) as f64 / DAY_MS)
    }

    /// The Glicko-2 rating as of `now`: its deviation grown with the time away.
    pub fn glicko_at(&self, now: i64) -> glicko::Rating {
        self.glicko.aged(self.days_away(now))
    }

    /// Both players' standings after a rated game that `a` scored `score` in against `b`,
    /// ending at `now` (Unix ms). Each side is computed from the other's standing before it.
    pub fn after_game(a: &Perf, b: &Perf, score: Score, now: i64) -> (Perf, Perf) {
        let (points_a, points_b) = a.points.after_game(b.points, score);
        let one = |me: &Perf, them: &Perf, score: Score, points: Points| Perf {
            glicko: glicko::after_game(
                me.glicko,
                me.days_away(now),
                them.glicko,
                them.days_away(now),
                score,
            ),
            rated_at: Some(now),
            elo: me.elo.after_game(them.elo.rating, score),
            points,
            games: me.games + 1,
            wins: me.wins + u32::from(score == Score::Win),
            draws: me.draws + u32::from(score == Score::Draw),
            losses: me.losses + u32::from(score == Score::Loss),
        };
        (
            one(a, b, score, points_a),
            one(b, a, score.flip(), points_b),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_away_widens_the_deviation_before_the_game() {
        let settled = Perf {
            glicko: glicko::Rating {
                rating: 1800.0,
                deviation: 60.0,
                volatility: 0.06,
            },
            rated_at: Some(0),
            ..Perf::NEW
        };
        let year = 365 * 86_400_000;
        assert!(settled.glicko_at(year).deviation > 100.0);
        let opponent = Perf {
            rated_at: Some(year),
            ..settled
        };
        let (fresh, _) = Perf::after_game(&settled, &opponent, Score::Win, 1);
        let (back, _) = Perf::after_game(&settled, &opponent, Score::Win, year);
        assert!(back.glicko.rating - 1800.0 > fresh.glicko.rating - 1800.0);
    }
}
