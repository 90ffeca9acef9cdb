//! The level scheme of Chinese play sites: points start at 0 (无级别, "no level"), 100 points
//! reach 30级, and every further 100 points one level more, up to 1级. What a game is worth
//! depends on the gap between the two players' points:
//!
//! | result               | gap < 10 | 10–99          | 100–199 | ≥ 200  |
//! |----------------------|----------|----------------|---------|--------|
//! | draw (lower gains)   | 0        | (10 + gap/10)/2 | gap/4  | gap/4  |
//! | lower-rated wins     | 10       | 10 + gap/10    | gap/2   | gap/2  |
//! | higher-rated wins    | 10       | 10 − gap/12.5  | 2       | 0      |
//!
//! The loser loses what the winner gains; a draw moves the amount from the higher to the
//! lower; points never go below 0. The gap is taken between whole points, and points are
//! kept in hundredths, so that every amount in the table is exact.
//!
//! ```
//! use vizier_rating::level::{Level, Points};
//! use vizier_rating::Score;
//! let (a, b) = Points::after_game(Points::from_whole(150), Points::from_whole(100), Score::Loss);
//! assert_eq!((a.whole(), b.whole()), (135, 115)); // gap 50: the lower gains 10 + 5
//! assert_eq!(b.level(), Level::Grade(30));
//! assert_eq!(Points::ZERO.level(), Level::None);
//! ```

use crate::Score;

/// A player's points, in hundredths.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Points(pub i64);

/// A level: none yet, or 30级 (the first) to 1级 (the highest).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// 无级别: fewer than 100 points.
    None,
    /// n级, from 30 down to 1.
    Grade(u8),
}

impl Points {
    /// Where everyone starts.
    pub const ZERO: Points = Points(0);

    /// `n` whole points.
    pub fn from_whole(n: i64) -> Points {
        Points(n * 100)
    }

    /// The whole points, as shown.
    pub fn whole(self) -> i64 {
        self.0.div_euclid(100)
    }

    /// The level these points reach.
    ///
    /// ```
    /// use vizier_rating::level::{Level, Points};
    /// assert_eq!(Points::from_whole(99).level(), Level::None);
    /// assert_eq!(Points::from_whole(199).level(), Level::Grade(30));
    /// assert_eq!(Points::from_whole(200).level(), Level::Grade(29));
    /// assert_eq!(Points::from_whole(3_000).level(), Level::Grade(1));
    /// assert_eq!(Points::from_whole(9_999).level(), Level::Grade(1));
    /// ```
    pub fn level(self) -> Level {
        match self.whole() / 100 {
            n if n < 1 => Level::None,
            n => Level::Grade((31 - n.min(30)) as u8),
        }
    }

    /// Both players' points after a game that `self` scored `score` in.
    pub fn after_game(self, opponent: Points, score: Score) -> (Points, Points) {
        let amount = stake(self, opponent, score);
        // `amount` moves from the loser (or the higher, in a draw) to the other.
        let gains = match score {
            Score::Win => true,
            Score::Loss => false,
            Score::Draw => self.whole() < opponent.whole(),
        };
        let floor = |p: i64| Points(p.max(0));
        if gains {
            (Points(self.0 + amount), floor(opponent.0 - amount))
        } else {
            (floor(self.0 - amount), Points(opponent.0 + amount))
        }
    }
}

/// What changes hands, in hundredths, when `a` scores `score` against `b`.
fn stake(a: Points, b: Points, score: Score) -> i64 {
    let gap = (a.whole() - b.whole()).abs();
    let a_lower = a.whole() < b.whole();
    match score {
        Score::Draw => match gap {
            0..10 => 0,
            10..100 => 500 + gap * 5,
            _ => gap * 25,
        },
        Score::Win | Score::Loss => {
            let winner_lower = a_lower == (score == Score::Win);
            match (gap, winner_lower) {
                (0..10, _) => 1_000,
                (10..100, true) => 1_000 + gap * 10,
                (_, true) => gap * 50,
                (10..100, false) => 1_000 - gap * 8,
                (100..200, false) => 200,
                (_, false) => 0,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the winner gains (or the lower gains, in a draw) between players `gap` apart.
    fn gained(gap: i64, score_of_lower: Score) -> (Points, Points) {
        let lower = Points::from_whole(1_000);
        let higher = Points::from_whole(1_000 + gap);
        let (l, h) = lower.after_game(higher, score_of_lower);
        (Points(l.0 - lower.0), Points(h.0 - higher.0))
    }

    #[test]
    fn every_boundary() {
        // (gap, lower wins, higher wins, draw), in hundredths moved.
        let table = [
            (0, 1_000, 1_000, 0),
            (9, 1_000, 1_000, 0),
            (10, 1_100, 920, 550),
            (50, 1_500, 600, 750),
            (99, 1_990, 208, 995),
            (100, 5_000, 200, 2_500),
            (199, 9_950, 200, 4_975),
            (200, 10_000, 0, 5_000),
            (450, 22_500, 0, 11_250),
        ];
        for (gap, lower_wins, higher_wins, draw) in table {
            assert_eq!(
                gained(gap, Score::Win),
                (Points(lower_wins), Points(-lower_wins)),
                "gap {gap}: lower wins"
            );
            assert_eq!(
                gained(gap, Score::Loss),
                (Points(-higher_wins), Points(higher_wins)),
                "gap {gap}: higher wins"
            );
            assert_eq!(
                gained(gap, Score::Draw),
                (Points(draw), Points(-draw)),
                "gap {gap}: draw"
            );
        }
    }

    #[test]
    fn seen_from_either_side() {
        let (a, b) = (Points::from_whole(1_234), Points::from_whole(1_180));
        for score in [Score::Win, Score::Draw, Score::Loss] {
            let (a1, b1) = a.after_game(b, score);
            let (b2, a2) = b.after_game(a, score.flip());
            assert_eq!((a1, b1), (a2, b2), "{score:?}");
        }
    }

    #[test]
    fn never_below_zero() {
        let (winner, loser) = Points::ZERO.after_game(Points::from_whole(4), Score::Win);
        assert_eq!((winner, loser), (Points::from_whole(10), Points::ZERO));
        let (a, b) = Points::ZERO.after_game(Points::ZERO, Score::Draw);
        assert_eq!((a, b), (Points::ZERO, Points::ZERO));
    }

    #[test]
    fn levels() {
        assert_eq!(Points::from_whole(0).level(), Level::None);
        assert_eq!(Points::from_whole(100).level(), Level::Grade(30));
        assert_eq!(Points::from_whole(1_874).level(), Level::Grade(13));
        assert_eq!(Points::from_whole(2_999).level(), Level::Grade(2));
        assert_eq!(Points(19_999).whole(), 199);
    }
}
