//! Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2012), and the way lichess
//! runs it: every game is a rating period of its own, so ratings change the moment a game
//! ends, and a player's deviation grows with the time since their last rated game.
//!
//! ```
//! use vizier_rating::glicko::{self, Rating};
//! use vizier_rating::Score;
//! let (white, black) = (Rating::DEFAULT, Rating::DEFAULT);
//! let won = glicko::after_game(white, 0.0, black, 0.0, Score::Win);
//! assert!(won.rating > 1500.0 && won.deviation < 500.0);
//! assert!(won.provisional());
//! ```

use crate::Score;

/// Glicko-2's scale factor between the Glicko scale (1500 ± RD) and its own (0 ± φ).
const SCALE: f64 = 173.7178;

/// How far the volatility iteration goes (the paper's ε).
const CONVERGENCE: f64 = 0.000_001;

/// The system constant lichess uses: how much the volatility may change.
pub const TAU: f64 = 0.75;

/// Rating periods per day of absence: a typical player's deviation goes from 60 to 110 in a
/// year away (lichess's figure).
pub const PERIODS_PER_DAY: f64 = 0.21436;

/// The deviation never falls below this (lichess)...
pub const MIN_DEVIATION: f64 = 45.0;
/// ...nor rises above it, a new player's.
pub const MAX_DEVIATION: f64 = 500.0;
/// Past this the volatility might never settle again.
pub const MAX_VOLATILITY: f64 = 0.1;
/// Ratings stay within these bounds.
pub const MIN_RATING: f64 = 400.0;
pub const MAX_RATING: f64 = 4000.0;

/// A rating is provisional (shown with `?`) while its deviation is above this.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// A Glicko-2 rating on the Glicko scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    pub rating: f64,
    /// The rating deviation (RD).
    pub deviation: f64,
    /// σ, on Glicko-2's own scale.
    pub volatility: f64,
}

impl Rating {
    /// A new player's rating: 1500, RD 500, σ 0.09 (lichess's start).
    pub const DEFAULT: Rating = Rating {
        rating: 1500.0,
        deviation: MAX_DEVIATION,
        volatility: 0.09,
    };

    /// Whether it is still provisional (RD > 110).
    ///
    /// ```
    /// use vizier_rating::glicko::Rating;
    /// assert!(Rating::DEFAULT.provisional());
    /// assert!(!Rating { deviation: 110.0, ..Rating::DEFAULT }.provisional());
    /// ```
    pub fn provisional(&self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION
    }

    /// The rating as shown: whole points, `?` while provisional.
    ///
    /// ```
    /// use vizier_rating::glicko::Rating;
    /// assert_eq!(Rating::DEFAULT.display(), "1500?");
    /// ```
    pub fn display(&self) -> String {
        let mark = if self.provisional() { "?" } else { "" };
        format!("{}{mark}", self.rating.round() as i64)
    }

    /// The rating after `days` without a rated game: its deviation grows as
    /// √(φ² + t·σ²), t rating periods, up to a new player's.
    ///
    /// ```
    /// use vizier_rating::glicko::Rating;
    /// let settled = Rating { rating: 1800.0, deviation: 60.0, volatility: 0.06 };
    /// let year = settled.aged(365.0);
    /// assert!(year.deviation > 100.0 && year.deviation < 120.0);
    /// assert_eq!(year.rating, 1800.0);
    /// ```
    pub fn aged(&self, days: f64) -> Rating {
        let periods = days.max(0.0) * PERIODS_PER_DAY;
        if periods == 0.0 {
            return *self;
        }
        let phi = self.deviation / SCALE;
        let aged = (phi * phi + periods * self.volatility * self.volatility).sqrt() * SCALE;
        Rating {
            deviation: aged.min(MAX_DEVIATION),
            ..*self
        }
    }
}

/// One game of a rating period: the opponent's rating and the result.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Game {
    pub opponent: Rating,
    pub score: Score,
}

/// A player's rating after one rating period with `games` (steps 1–8 of the paper), with
/// system constant `tau`. Without games only the deviation grows (step 6).
///
/// ```
/// use vizier_rating::glicko::{rate, Game, Rating};
/// use vizier_rating::Score;
/// let player = Rating { rating: 1500.0, deviation: 200.0, volatility: 0.06 };
/// let opponent = |rating, deviation| Rating { rating, deviation, volatility: 0.06 };
/// let games = [
///     Game { opponent: opponent(1400.0, 30.0), score: Score::Win },
///     Game { opponent: opponent(1550.0, 100.0), score: Score::Loss },
///     Game { opponent: opponent(1700.0, 300.0), score: Score::Loss },
/// ];
/// let after = rate(player, &games, 0.5);
/// assert_eq!(format!("{:.2} {:.2}", after.rating, after.deviation), "1464.05 151.52");
/// ```
pub fn rate(player: Rating, games: &[Game], tau: f64) -> Rating {
    let mu = (player.rating - 1500.0) / SCALE;
    let phi = player.deviation / SCALE;
    let sigma = player.volatility;
    if games.is_empty() {
        return Rating {
            deviation: (phi * phi + sigma * sigma).sqrt() * SCALE,
            ..player
        };
    }
    // Steps 3 and 4: the estimated variance v and improvement Δ.
    let (mut inverse_v, mut sum) = (0.0, 0.0);
    for game in games {
        let mu_j = (game.opponent.rating - 1500.0) / SCALE;
        let phi_j = game.opponent.deviation / SCALE;
        let g = g(phi_j);
        let e = 1.0 / (1.0 + (-g * (mu - mu_j)).exp());
        inverse_v += g * g * e * (1.0 - e);
        sum += g * (game.score.value() - e);
    }
    let v = 1.0 / inverse_v;
    let delta = v * sum;
    let sigma = volatility(phi, sigma, v, delta, tau);
    // Steps 6–8.
    let phi_star = (phi * phi + sigma * sigma).sqrt();
    let phi = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
    let mu = mu + phi * phi * sum;
    Rating {
        rating: SCALE * mu + 1500.0,
        deviation: SCALE * phi,
        volatility: sigma,
    }
}

fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

/// Step 5: the new volatility σ′, by the Illinois algorithm.
fn volatility(phi: f64, sigma: f64, v: f64, delta: f64, tau: f64) -> f64 {
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        let d = phi * phi + v + ex;
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * tau) < 0.0 {
            k += 1.0;
        }
        a - k * tau
    };
    let (mut f_a, mut f_b) = (f(big_a), f(big_b));
    // The bracket halves at least every other step; the bound only guards against NaN.
    for _ in 0..200 {
        if (big_b - big_a).abs() <= CONVERGENCE {
            break;
        }
        let c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        let f_c = f(c);
        if f_c * f_b <= 0.0 {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = c;
        f_b = f_c;
    }
    (big_a / 2.0).exp()
}

/// A player's rating after one rated game, as lichess computes it: `days` since the
/// player's last rated game (and `opponent_days` since the opponent's) age both deviations
/// first; the game is then a rating period of its own, with τ = [`TAU`]; the result stays
/// within lichess's bounds.
pub fn after_game(
    player: Rating,
    days: f64,
    opponent: Rating,
    opponent_days: f64,
    score: Score,
) -> Rating {
    let game = Game {
        opponent: opponent.aged(opponent_days),
        score,
    };
    let after = rate(player.aged(days), &[game], TAU);
    if !(after.rating.is_finite() && after.deviation.is_finite() && after.volatility.is_finite()) {
        return player;
    }
    Rating {
        rating: after.rating.clamp(MIN_RATING, MAX_RATING),
        deviation: after.deviation.clamp(MIN_DEVIATION, MAX_DEVIATION),
        volatility: after.volatility.min(MAX_VOLATILITY),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(rating: f64, deviation: f64) -> Rating {
        Rating {
            rating,
            deviation,
            volatility: 0.06,
        }
    }

    /// The worked example of Glickman's paper: 1500/200/0.06 with τ 0.5 against 1400/30
    /// (win), 1550/100 (loss), 1700/300 (loss) gives 1464.06, 151.52, 0.05999.
    #[test]
    fn glickmans_example() {
        let games = [
            Game {
                opponent: r(1400.0, 30.0),
                score: Score::Win,
            },
            Game {
                opponent: r(1550.0, 100.0),
                score: Score::Loss,
            },
            Game {
                opponent: r(1700.0, 300.0),
                score: Score::Loss,
            },
        ];
        let after = rate(r(1500.0, 200.0), &games, 0.5);
        assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
        assert!((after.deviation - 151.52).abs() < 0.01, "{after:?}");
        assert!((after.volatility - 0.05999).abs() < 0.000_01, "{after:?}");
    }

    #[test]
    fn a_period_without_games_only_widens() {
        let after = rate(r(1500.0, 200.0), &[], 0.5);
        assert_eq!(after.rating, 1500.0);
        assert!((after.deviation - 200.2714).abs() < 0.001, "{after:?}");
    }

    #[test]
    fn one_game_moves_both_the_same_way_round() {
        let (a, b) = (r(1700.0, 80.0), r(1600.0, 80.0));
        let a_won = after_game(a, 0.0, b, 0.0, Score::Win);
        let b_lost = after_game(b, 0.0, a, 0.0, Score::Loss);
        assert!(a_won.rating > a.rating && b_lost.rating < b.rating);
        // Equal deviations: what one gains the other loses.
        assert!((a_won.rating - a.rating + b_lost.rating - b.rating).abs() < 0.01);
        let upset = after_game(b, 0.0, a, 0.0, Score::Win);
        assert!(upset.rating - b.rating > a_won.rating - a.rating);
        let drawn = after_game(a, 0.0, b, 0.0, Score::Draw);
        assert!(drawn.rating < a.rating);
    }

    #[test]
    fn bounds_hold() {
        let mut p = Rating::DEFAULT;
        let strong = r(3000.0, 45.0);
        for _ in 0..200 {
            p = after_game(p, 0.0, strong, 0.0, Score::Loss);
        }
        assert!(p.rating >= MIN_RATING);
        assert!(p.deviation >= MIN_DEVIATION);
        assert!(p.volatility <= MAX_VOLATILITY);
        let aged = r(1500.0, 480.0).aged(10_000.0);
        assert_eq!(aged.deviation, MAX_DEVIATION);
        assert_eq!(r(1500.0, 60.0).aged(-5.0).deviation, 60.0);
    }
}
