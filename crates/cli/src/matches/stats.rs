//! Match statistics: Elo with a 95% interval, and the sequential probability ratio test.

/// Wins, draws and losses of the first engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

fn elo_of(score: f64) -> f64 {
    let s = score.clamp(1e-6, 1.0 - 1e-6);
    -400.0 * (1.0 / s - 1.0).log10()
}

fn score_of(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

impl Score {
    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Mean score and its per-game variance.
    fn mean_var(&self) -> (f64, f64) {
        let n = self.games().max(1) as f64;
        let (w, d, l) = (
            self.wins as f64 / n,
            self.draws as f64 / n,
            self.losses as f64 / n,
        );
        let s = w + d / 2.0;
        let var = w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2);
        (s, var)
    }

    /// Elo difference and the half-width of its 95% interval.
    pub fn elo(&self) -> (f64, f64) {
        let (s, var) = self.mean_var();
        let n = self.games().max(1) as f64;
        let margin = 1.959_964 * (var / n).sqrt();
        let elo = elo_of(s);
        let high = elo_of((s + margin).min(1.0 - 1e-6));
        let low = elo_of((s - margin).max(1e-6));
        (elo, (high - low) / 2.0)
    }

    /// The log-likelihood ratio of H1 (elo1) against H0 (elo0), by the normal approximation
    /// of the game-score distribution.
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        let (s, var) = self.mean_var();
        let n = self.games() as f64;
        if n == 0.0 || var <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_of(elo0), score_of(elo1));
        (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var / n)
    }
}

/// SPRT bounds (lower, upper) for error rates alpha and beta.
pub fn sprt_bounds(alpha: f64, beta: f64) -> (f64, f64) {
    ((beta / (1.0 - alpha)).ln(), ((1.0 - beta) / alpha).ln())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_is_zero_for_an_even_score_and_symmetric() {
        let even = Score {
            wins: 10,
            draws: 10,
            losses: 10,
        };
        assert!(even.elo().0.abs() < 1e-9);
        let up = Score {
            wins: 60,
            draws: 20,
            losses: 20,
        };
        let down = Score {
            wins: 20,
            draws: 20,
            losses: 60,
        };
        assert!((up.elo().0 + down.elo().0).abs() < 1e-9);
        // 70% scores about +147 Elo.
        assert!((up.elo().0 - 147.2).abs() < 0.5, "{}", up.elo().0);
    }

    #[test]
    fn llr_moves_towards_the_true_hypothesis() {
        let strong = Score {
            wins: 300,
            draws: 400,
            losses: 200,
        };
        assert!(strong.llr(0.0, 10.0) > 0.0);
        let weak = Score {
            wins: 200,
            draws: 400,
            losses: 300,
        };
        assert!(weak.llr(0.0, 10.0) < 0.0);
        let (lo, hi) = sprt_bounds(0.05, 0.05);
        assert!((lo + 2.944).abs() < 0.01 && (hi - 2.944).abs() < 0.01);
    }
}
