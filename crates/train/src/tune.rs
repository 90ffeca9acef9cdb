//! The Texel tuner: fits the evaluation's weights to game results.
//!
//! Every quiet position of a set of games becomes a sample: its feature counts (White minus
//! Black, from [`features::walk`]), its phase and the game's result. The tuner finds the scale
//! `K` that best maps the current evaluation to results through a logistic curve, then moves
//! all weights by Adam on the mean squared error between `sigmoid(K · eval)` and the results.

use std::collections::HashSet;
use std::fmt::Write as _;

use vizier_rules::pgn::Game;
use vizier_rules::{Color, Position};

use vizier_engine::eval::features::{self, COUNT, SECTIONS, Sink};
use vizier_engine::eval::weights::WEIGHTS;
use vizier_engine::eval::{FULL_SCALE, Pair, endgame_scale, phase};
use vizier_engine::see::see_ge;

/// The positions of many games, stored compactly: one feature list per position.
pub struct Dataset {
    features: Vec<(u16, i16)>,
    starts: Vec<u32>,
    phases: Vec<u8>,
    /// The endgame scale ([`endgame_scale`]), the stronger side judged by the current weights.
    scales: Vec<u8>,
    results: Vec<f32>,
    games_seen: HashSet<(u64, u64, usize)>,
}

/// Feature counts, White minus Black.
struct Trace([i32; COUNT]);

impl Sink for Trace {
    fn add(&mut self, feature: usize, color: Color, n: i32) {
        self.0[feature] += if color == Color::White { n } else { -n };
    }
}

/// Why a game gave no samples.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Skipped {
    /// Its result is not 1-0, 0-1 or 1/2-1/2.
    NoResult,
    /// The same moves from the same start were added before.
    Duplicate,
}

/// Whether a game belongs to the held-out eighth (decided by its moves, so copies of a game
/// agree).
///
/// ```
/// let game = vizier_rules::pgn::read_str("1. e4 e5 1-0").remove(0).unwrap();
/// assert_eq!(vizier_train::tune::held_out_game(&game), vizier_train::tune::held_out_game(&game.clone()));
/// ```
pub fn held_out_game(game: &Game) -> bool {
    let (start, end, plies) = identity(game);
    (start ^ end.rotate_left(17) ^ plies as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 60 < 2
}

fn identity(game: &Game) -> (u64, u64, usize) {
    (
        game.start.hash(),
        game.end_position().hash(),
        game.mainline.nodes.len(),
    )
}

/// Whether a position is quiet enough for its static evaluation to mean something: not in
/// check, the move played is not a capture or a promotion, and no capture wins material.
fn quiet(pos: &Position, played: vizier_rules::Move) -> bool {
    if pos.is_check() || pos.is_capture_move(played) || played.promotion().is_some() {
        return false;
    }
    let theirs = pos.by_color(!pos.turn());
    !pos.legal_moves_to(theirs)
        .iter()
        .any(|&m| see_ge(pos, m, 1))
}

impl Default for Dataset {
    fn default() -> Dataset {
        Dataset::new()
    }
}

impl Dataset {
    /// An empty dataset.
    pub fn new() -> Dataset {
        Dataset {
            features: Vec::new(),
            starts: vec![0],
            phases: Vec::new(),
            scales: Vec::new(),
            results: Vec::new(),
            games_seen: HashSet::new(),
        }
    }

    /// The number of positions.
    pub fn len(&self) -> usize {
        self.results.len()
    }

    /// Whether there are no positions.
    pub fn is_empty(&self) -> bool {
        self.results.is_empty()
    }

    /// Adds the quiet main-line positions of a finished game; returns how many.
    ///
    /// ```
    /// use vizier_train::tune::{Dataset, Skipped};
    /// let game = vizier_rules::pgn::read_str("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0").remove(0).unwrap();
    /// let mut data = Dataset::new();
    /// assert_eq!(data.add_game(&game), Ok(6));
    /// assert_eq!(data.add_game(&game), Err(Skipped::Duplicate));
    /// ```
    pub fn add_game(&mut self, game: &Game) -> Result<usize, Skipped> {
        let result = match game.result.as_str() {
            "1-0" => 1.0,
            "0-1" => 0.0,
            "1/2-1/2" => 0.5,
            _ => return Err(Skipped::NoResult),
        };
        if !self.games_seen.insert(identity(game)) {
            return Err(Skipped::Duplicate);
        }
        let mut pos = game.start.clone();
        let mut added = 0;
        for node in &game.mainline.nodes {
            if !node.mv.is_null() && quiet(&pos, node.mv) {
                self.push(&pos, result);
                added += 1;
            }
            pos.play_or_pass(node.mv);
        }
        Ok(added)
    }

    fn push(&mut self, pos: &Position, result: f32) {
        let mut trace = Trace([0; COUNT]);
        features::walk(pos, &mut trace);
        let mut endgame = 0;
        for (i, &n) in trace.0.iter().enumerate() {
            if n != 0 {
                self.features.push((i as u16, n as i16));
                endgame += WEIGHTS[i].1 * n;
            }
        }
        let strong = if endgame >= 0 {
            Color::White
        } else {
            Color::Black
        };
        self.scales.push(endgame_scale(pos, strong) as u8);
        self.starts.push(self.features.len() as u32);
        self.phases.push(phase(pos) as u8);
        self.results.push(result);
    }

    fn sample(&self, i: usize) -> &[(u16, i16)] {
        &self.features[self.starts[i] as usize..self.starts[i + 1] as usize]
    }

    /// White's evaluation of position `i` under `weights` (middlegame, endgame interleaved).
    fn eval(&self, weights: &[f64], i: usize) -> f64 {
        let (mut mg, mut eg) = (0.0, 0.0);
        for &(f, n) in self.sample(i) {
            mg += weights[2 * f as usize] * n as f64;
            eg += weights[2 * f as usize + 1] * n as f64;
        }
        let ph = self.phases[i] as f64;
        (mg * ph + eg * self.endgame_share(i) * (24.0 - ph)) / 24.0
    }

    /// How much of position `i`'s endgame score counts (its scale as a fraction).
    fn endgame_share(&self, i: usize) -> f64 {
        f64::from(self.scales[i]) / f64::from(FULL_SCALE)
    }

    /// Mean squared error of `sigmoid(k · eval)` against the results.
    pub fn error(&self, weights: &[f64], k: f64) -> f64 {
        let chunks = self.chunks();
        let total: f64 = std::thread::scope(|s| {
            let handles: Vec<_> = chunks
                .iter()
                .map(|r| {
                    let r = r.clone();
                    s.spawn(move || {
                        r.map(|i| {
                            (self.results[i] as f64 - sigmoid(k * self.eval(weights, i))).powi(2)
                        })
                        .sum::<f64>()
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("no panic"))
                .sum()
        });
        total / self.len() as f64
    }

    /// The gradient of [`Dataset::error`] with respect to every weight.
    fn gradient(&self, weights: &[f64], k: f64) -> Vec<f64> {
        let chunks = self.chunks();
        std::thread::scope(|s| {
            let handles: Vec<_> = chunks
                .iter()
                .map(|r| {
                    let r = r.clone();
                    s.spawn(move || {
                        let mut g = vec![0.0; 2 * COUNT];
                        for i in r {
                            let p = sigmoid(k * self.eval(weights, i));
                            let d = (p - self.results[i] as f64) * p * (1.0 - p) * k;
                            let ph = self.phases[i] as f64 / 24.0;
                            let eg = (1.0 - ph) * self.endgame_share(i);
                            for &(f, n) in self.sample(i) {
                                g[2 * f as usize] += d * n as f64 * ph;
                                g[2 * f as usize + 1] += d * n as f64 * eg;
                            }
                        }
                        g
                    })
                })
                .collect();
            let mut total = vec![0.0; 2 * COUNT];
            for h in handles {
                for (t, x) in total.iter_mut().zip(h.join().expect("no panic")) {
                    *t += x;
                }
            }
            let scale = 2.0 / self.len() as f64;
            total.iter_mut().for_each(|t| *t *= scale);
            total
        })
    }

    fn chunks(&self) -> Vec<std::ops::Range<usize>> {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let size = self.len().div_ceil(threads).max(1);
        (0..self.len())
            .step_by(size)
            .map(|a| a..(a + size).min(self.len()))
            .collect()
    }

    /// The scale `k` (per centipawn) that best fits the current weights, by golden-section
    /// search.
    pub fn fit_k(&self, weights: &[f64]) -> f64 {
        let (mut lo, mut hi) = (0.0005, 0.02);
        let phi = (5f64.sqrt() - 1.0) / 2.0;
        for _ in 0..40 {
            let a = hi - phi * (hi - lo);
            let b = lo + phi * (hi - lo);
            if self.error(weights, a) < self.error(weights, b) {
                hi = b;
            } else {
                lo = a;
            }
        }
        (lo + hi) / 2.0
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Settings of a tuning run.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Passes over the whole dataset.
    pub epochs: usize,
    /// Adam's step size, in centipawns.
    pub rate: f64,
    /// Weight of the penalty on the squared distance from the starting weights: keeps
    /// features that few positions show (rare squares, long king-attack counts) from being
    /// fitted to noise.
    pub l2: f64,
}

/// Weights as floats, middlegame and endgame interleaved.
pub fn to_floats(weights: &[Pair; COUNT]) -> Vec<f64> {
    weights
        .iter()
        .flat_map(|p| [p.0 as f64, p.1 as f64])
        .collect()
}

/// Rounded back to centipawns.
pub fn to_pairs(weights: &[f64]) -> [Pair; COUNT] {
    std::array::from_fn(|i| {
        Pair(
            weights[2 * i].round() as i32,
            weights[2 * i + 1].round() as i32,
        )
    })
}

/// Runs Adam from `start` for `settings.epochs` passes at scale `k`; `progress` hears the
/// epoch and the error now and then. Returns the tuned weights.
pub fn tune(
    data: &Dataset,
    start: &[Pair; COUNT],
    k: f64,
    settings: &Settings,
    progress: &mut dyn FnMut(usize, f64),
) -> Vec<f64> {
    let origin = to_floats(start);
    let mut w = origin.clone();
    let (mut m, mut v) = (vec![0.0; w.len()], vec![0.0; w.len()]);
    let (b1, b2, eps) = (0.9, 0.999, 1e-12);
    for epoch in 1..=settings.epochs {
        let mut g = data.gradient(&w, k);
        for i in 0..w.len() {
            if g[i] != 0.0 {
                g[i] += 2.0 * settings.l2 * (w[i] - origin[i]);
            }
            m[i] = b1 * m[i] + (1.0 - b1) * g[i];
            v[i] = b2 * v[i] + (1.0 - b2) * g[i] * g[i];
            let mh = m[i] / (1.0 - b1.powi(epoch as i32));
            let vh = v[i] / (1.0 - b2.powi(epoch as i32));
            if vh > 0.0 {
                w[i] -= settings.rate * mh / (vh.sqrt() + eps);
            }
        }
        if epoch % 50 == 0 || epoch == settings.epochs {
            progress(epoch, data.error(&w, k));
        }
    }
    w
}

/// The Rust source of `crates/engine/src/eval/weights.rs` for these weights, one commented
/// block per section of the feature vector.
pub fn source(weights: &[Pair; COUNT], provenance: &str) -> String {
    let mut s = String::new();
    s.push_str(
        "//! The evaluation's weights, one middlegame/endgame pair per feature of \
         [`super::features`].\n//!\n//! Written by `vizier tune` (see docs/engine.md); edit by \
         hand only to seed a new feature.\n",
    );
    for line in provenance.lines() {
        let _ = writeln!(s, "//! {line}");
    }
    s.push_str(
        "\nuse super::Pair;\nuse super::features::COUNT;\n\n/// The weights in use.\n\
         #[rustfmt::skip]\npub const WEIGHTS: [Pair; COUNT] = [\n",
    );
    for pair in SECTIONS.windows(2) {
        let (name, from, _) = pair[0];
        let to = pair[1].1;
        let _ = writeln!(s, "    // {name}");
        for row in weights[from..to].chunks(8) {
            let cells: Vec<String> = row
                .iter()
                .map(|p| format!("Pair({}, {}),", p.0, p.1))
                .collect();
            let _ = writeln!(s, "    {}", cells.join(" "));
        }
    }
    s.push_str("];\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use vizier_engine::eval::{Classical, Evaluator};

    fn games() -> Vec<Game> {
        let text = "[Result \"1-0\"]\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. Ng5 d5 5. exd5 Na5 6. Bb5+ c6 \
                    7. dxc6 bxc6 8. Be2 h6 9. Nf3 e4 10. Ne5 Bd6 1-0\n\n\
                    [Result \"0-1\"]\n1. f3 e5 2. g4 Qh4# 0-1\n\n\
                    [Result \"1/2-1/2\"]\n1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7 1/2-1/2\n";
        vizier_rules::pgn::read_str(text)
            .into_iter()
            .map(|g| g.unwrap())
            .collect()
    }

    #[test]
    fn the_trace_reproduces_the_engines_evaluation() {
        let mut data = Dataset::new();
        let mut positions = Vec::new();
        for game in games() {
            data.add_game(&game).unwrap();
            let mut pos = game.start.clone();
            for node in &game.mainline.nodes {
                if !node.mv.is_null() && quiet(&pos, node.mv) {
                    positions.push(pos.clone());
                }
                pos.play_or_pass(node.mv);
            }
        }
        assert_eq!(positions.len(), data.len());
        let w = to_floats(&WEIGHTS);
        let eval = Classical::default();
        for (i, pos) in positions.iter().enumerate() {
            let white = if pos.turn() == Color::White { 1 } else { -1 } * eval.evaluate(pos);
            // The engine divides in integers; the tuner does not.
            assert!(
                (data.eval(&w, i) - white as f64).abs() < 1.0,
                "{}",
                pos.fen()
            );
        }
    }

    #[test]
    fn captures_and_checks_are_not_samples() {
        let game = &games()[0];
        let mut data = Dataset::new();
        let added = data.add_game(game).unwrap();
        // 20 moves, of which 5.exd5, 6.Bb5+ (check follows: 6...c6 is in check), 7.dxc6 and
        // 7...bxc6 are loud; positions with a winning capture available are dropped too.
        assert!((10..20).contains(&added), "{added}");
    }

    #[test]
    fn tuning_lowers_the_error() {
        let mut data = Dataset::new();
        for game in games() {
            data.add_game(&game).unwrap();
        }
        let start = to_floats(&WEIGHTS);
        let k = data.fit_k(&start);
        let before = data.error(&start, k);
        let settings = Settings {
            epochs: 50,
            rate: 1.0,
            l2: 1e-7,
        };
        let tuned = tune(&data, &WEIGHTS, k, &settings, &mut |_, _| {});
        assert!(data.error(&tuned, k) < before);
    }

    #[test]
    fn about_an_eighth_of_the_games_are_held_out() {
        let start = Position::new();
        let mut held = 0;
        let mut total = 0;
        for &first in start.legal_moves().iter() {
            let mut after = start.clone();
            after.play_unchecked(first);
            for &reply in after.legal_moves().iter() {
                let text = format!("{} {} 1-0", start.san(first), after.san(reply));
                let game = vizier_rules::pgn::read_str(&text).remove(0).unwrap();
                held += held_out_game(&game) as usize;
                total += 1;
            }
        }
        assert_eq!(total, 400);
        assert!((25..=75).contains(&held), "{held} of 400");
    }

    #[test]
    fn the_sections_cover_every_feature_once() {
        for pair in SECTIONS.windows(2) {
            let ((name, start, len), (_, next, _)) = (pair[0], pair[1]);
            assert_eq!(start + len, next, "{name}");
        }
        assert_eq!(SECTIONS[0].1, 0);
        assert_eq!(SECTIONS.last().unwrap().1, COUNT);
    }

    #[test]
    fn the_source_is_the_weights_file() {
        let written = source(&WEIGHTS, "");
        let count = written.matches("Pair(").count();
        assert_eq!(count, COUNT);
        assert!(written.contains("// king attack"));
    }
}
