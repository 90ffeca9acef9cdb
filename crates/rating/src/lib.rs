//! # vizier-rating
//!
//! How a rated game changes its players' ratings, three ways at once, as Chinese play sites
//! and lichess show them side by side:
//!
//! - [`glicko`]: Glicko-2 (Glickman 2012), configured as lichess configures it: every game is
//!   its own rating period, and the deviation grows with time away;
//! - [`fide`]: the FIDE rating regulations' method (K-factors, the rating-difference table,
//!   the 400-point rule), one game at a time;
//! - [`level`]: the level scheme (30级 … 1级, 100 points each) with its points per game.
//!
//! A rating belongs to one speed [`Class`] (bullet, blitz, rapid, classical, correspondence).
//! Nothing here reads a clock or a database: times are passed in.
//!
//! ```
//! use vizier_rating::{Class, Score};
//! assert_eq!(Class::of_estimate_secs(3 * 60 + 60 * 2), Class::Blitz);
//! assert_eq!(Score::Win.flip(), Score::Loss);
//! ```

pub mod class;
pub mod fide;
pub mod glicko;
pub mod level;
pub mod perf;

pub use class::Class;
pub use perf::Perf;

/// A game's result for one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Win,
    Draw,
    Loss,
}

impl Score {
    /// 1, ½ or 0.
    ///
    /// ```
    /// assert_eq!(vizier_rating::Score::Draw.value(), 0.5);
    /// ```
    pub fn value(self) -> f64 {
        match self {
            Score::Win => 1.0,
            Score::Draw => 0.5,
            Score::Loss => 0.0,
        }
    }

    /// The opponent's result.
    pub fn flip(self) -> Score {
        match self {
            Score::Win => Score::Loss,
            Score::Draw => Score::Draw,
            Score::Loss => Score::Win,
        }
    }
}
