//! The FIDE rating regulations' method, applied one game at a time: the expected score from
//! the rating-difference table (8.1.2) with the 400-point rule (8.3.1), the development
//! coefficient K (8.3.3), and the change rounded to a whole number, 0.5 away from zero
//! (8.3.4). Every account starts at [`START`].
//!
//! ```
//! use vizier_rating::fide::{Elo, expected};
//! use vizier_rating::Score;
//! assert_eq!(expected(1900, 1800), 0.64);
//! let new = Elo::START;
//! let after = new.after_game(1600, Score::Win);
//! assert_eq!(after.rating, 1500 + 26); // K 40 × (1 − 0.36)
//! assert_eq!(after.games, 1);
//! ```

use crate::Score;

/// Where every account's FIDE-method rating starts.
pub const START: i32 = 1500;

/// Rating differences beyond this count as this (the 400-point rule).
pub const MAX_DIFFERENCE: i32 = 400;

/// A player's FIDE-method rating and what its K-factor depends on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Elo {
    pub rating: i32,
    /// Rated games played.
    pub games: u32,
    /// Whether the rating has ever reached 2400 (K stays 10 from then on).
    pub reached_2400: bool,
}

impl Elo {
    /// A new player's.
    pub const START: Elo = Elo {
        rating: START,
        games: 0,
        reached_2400: false,
    };

    /// The development coefficient: 40 until 30 games are completed, then 20 while the rating
    /// has never reached 2400, and 10 once it has.
    ///
    /// ```
    /// use vizier_rating::fide::Elo;
    /// assert_eq!(Elo { rating: 2450, games: 29, reached_2400: true }.k(), 40);
    /// assert_eq!(Elo { rating: 2399, games: 30, reached_2400: false }.k(), 20);
    /// assert_eq!(Elo { rating: 2350, games: 30, reached_2400: true }.k(), 10);
    /// ```
    pub fn k(&self) -> i32 {
        if self.games < 30 {
            40
        } else if self.reached_2400 || self.rating >= 2400 {
            10
        } else {
            20
        }
    }

    /// The rating change of one game against an opponent rated `opponent`.
    ///
    /// ```
    /// use vizier_rating::fide::Elo;
    /// use vizier_rating::Score;
    /// let settled = Elo { rating: 2000, games: 100, reached_2400: false };
    /// assert_eq!(settled.change(2000, Score::Draw), 0);
    /// assert_eq!(settled.change(2500, Score::Loss), -2); // 20 × (0 − 0.08) = −1.6
    /// ```
    pub fn change(&self, opponent: i32, score: Score) -> i32 {
        // In hundredths, so that K × (S − PD) is exact; then rounded half away from zero.
        let pd = (expected(self.rating, opponent) * 100.0).round() as i32;
        let hundredths = self.k() * (score_hundredths(score) - pd);
        let rounded = (hundredths.abs() + 50) / 100;
        rounded * hundredths.signum()
    }

    /// The rating after one game against an opponent rated `opponent`.
    pub fn after_game(&self, opponent: i32, score: Score) -> Elo {
        let rating = self.rating + self.change(opponent, score);
        Elo {
            rating,
            games: self.games + 1,
            reached_2400: self.reached_2400 || rating >= 2400,
        }
    }
}

fn score_hundredths(score: Score) -> i32 {
    match score {
        Score::Win => 100,
        Score::Draw => 50,
        Score::Loss => 0,
    }
}

/// Table 8.1.2: the largest rating difference D for each score probability of the higher
/// rated player, from .50 (D 0–3) to .99 (D 620–735); beyond, 1.00.
const TABLE: [(i32, f64); 50] = [
    (3, 0.50),
    (10, 0.51),
    (17, 0.52),
    (25, 0.53),
    (32, 0.54),
    (39, 0.55),
    (46, 0.56),
    (53, 0.57),
    (61, 0.58),
    (68, 0.59),
    (76, 0.60),
    (83, 0.61),
    (91, 0.62),
    (98, 0.63),
    (106, 0.64),
    (113, 0.65),
    (121, 0.66),
    (129, 0.67),
    (137, 0.68),
    (145, 0.69),
    (153, 0.70),
    (162, 0.71),
    (170, 0.72),
    (179, 0.73),
    (188, 0.74),
    (197, 0.75),
    (206, 0.76),
    (215, 0.77),
    (225, 0.78),
    (235, 0.79),
    (245, 0.80),
    (256, 0.81),
    (267, 0.82),
    (278, 0.83),
    (290, 0.84),
    (302, 0.85),
    (315, 0.86),
    (328, 0.87),
    (344, 0.88),
    (357, 0.89),
    (374, 0.90),
    (391, 0.91),
    (411, 0.92),
    (432, 0.93),
    (456, 0.94),
    (484, 0.95),
    (517, 0.96),
    (559, 0.97),
    (619, 0.98),
    (735, 0.99),
];

/// The score probability PD of a player rated `rating` against one rated `opponent`, from
/// table 8.1.2, a difference over 400 counting as 400.
///
/// ```
/// use vizier_rating::fide::expected;
/// assert_eq!(expected(2000, 2000), 0.50);
/// assert_eq!(expected(2000, 1996), 0.51);
/// assert_eq!(expected(1600, 2100), 0.08);
/// assert_eq!(expected(2100, 1600), 0.92);
/// ```
pub fn expected(rating: i32, opponent: i32) -> f64 {
    let d = (rating - opponent).abs().min(MAX_DIFFERENCE);
    let higher = TABLE
        .iter()
        .find(|(most, _)| d <= *most)
        .map_or(1.0, |&(_, p)| p);
    if rating >= opponent {
        higher
    } else {
        // Two decimals exactly, as the table prints them.
        ((1.0 - higher) * 100.0).round() / 100.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_at_its_edges() {
        for (d, h) in [
            (0, 0.50),
            (3, 0.50),
            (4, 0.51),
            (10, 0.51),
            (11, 0.52),
            (98, 0.63),
            (99, 0.64),
            (106, 0.64),
            (107, 0.65),
            (153, 0.70),
            (154, 0.71),
            (245, 0.80),
            (246, 0.81),
            (391, 0.91),
            (392, 0.92),
            (400, 0.92),
            // The 400-point rule: never beyond .92.
            (401, 0.92),
            (735, 0.92),
            (2000, 0.92),
        ] {
            assert_eq!(expected(1500 + d, 1500), h, "D {d}");
            let l = ((1.0 - h) * 100.0_f64).round() / 100.0;
            assert_eq!(expected(1500, 1500 + d), l, "D −{d}");
        }
        // The table itself rises by one hundredth a row.
        for (i, row) in TABLE.iter().enumerate() {
            assert_eq!((row.1 * 100.0).round() as usize, 50 + i);
        }
        assert!(TABLE.windows(2).all(|w| w[0].0 < w[1].0));
    }

    #[test]
    fn k_factors() {
        let mut p = Elo::START;
        for _ in 0..29 {
            p = p.after_game(p.rating, Score::Draw);
        }
        assert_eq!((p.games, p.k()), (29, 40));
        p = p.after_game(p.rating, Score::Draw);
        assert_eq!((p.games, p.k()), (30, 20));
        // Reaching 2400 makes K 10 for good, even after falling back.
        let high = Elo {
            rating: 2390,
            games: 50,
            reached_2400: false,
        };
        assert_eq!(high.k(), 20);
        let up = high.after_game(2390, Score::Win);
        assert_eq!(up.rating, 2400);
        assert!(up.reached_2400);
        let down = up.after_game(2400, Score::Loss);
        assert_eq!(down.rating, 2395);
        assert_eq!(down.k(), 10);
    }

    #[test]
    fn changes_round_half_away_from_zero() {
        // K 20: D 100 → PD .64, a win is 20 × .36 = 7.2 → 7; a loss −12.8 → −13.
        let p = Elo {
            rating: 1900,
            games: 40,
            reached_2400: false,
        };
        assert_eq!(p.change(1800, Score::Win), 7);
        assert_eq!(p.change(1800, Score::Loss), -13);
        assert_eq!(p.change(1800, Score::Draw), -3); // −2.8
        // K 10: D 0, a win is +5 exactly; D 10 (.51 / .49): a draw ±0.1 → 0.
        let top = Elo {
            rating: 2500,
            games: 40,
            reached_2400: true,
        };
        assert_eq!(top.change(2500, Score::Win), 5);
        assert_eq!(top.change(2490, Score::Draw), 0);
        // K 10: D 30 (.54): a draw is −0.4 → 0; .55: −0.5 → −1 (away from zero).
        assert_eq!(top.change(2470, Score::Draw), 0);
        assert_eq!(top.change(2465, Score::Draw), -1);
        assert_eq!(top.change(2535, Score::Draw), 1);
    }
}
