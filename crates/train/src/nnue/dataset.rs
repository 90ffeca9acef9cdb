//! The training positions: each one's active inputs, its search score and its game's
//! result, read from self-play lines; every twentieth held out.

use std::fmt;

use vizier_rules::{Color, Position, Role};

use vizier_engine::eval::{Classical, Evaluator};
use vizier_engine::nnue::{Layout, View};

/// Training positions: each one's active inputs from White's side, then from Black's.
pub struct Dataset {
    /// How the inputs are numbered.
    pub(super) layout: Layout,
    pub(super) inputs: Vec<u16>,
    pub(super) starts: Vec<u32>,
    pub(super) black_to_move: Vec<bool>,
    pub(super) scores: Vec<i16>,
    /// 0, 1 or 2 halves of a point for White.
    pub(super) results: Vec<u8>,
    /// The classical evaluation of each position, for the side to move: the bar a network
    /// must beat, and what a correcting network adds to.
    pub(super) classical_evals: Vec<f32>,
    pub(super) classical: Classical,
    /// The network trained on this set corrects the classical evaluation.
    pub(super) residual: bool,
}

/// Why a line of training data was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineError {
    /// Not three `;`-separated fields.
    Fields,
    /// The FEN does not parse.
    Fen,
    /// The score is not a number within ±30,000.
    Score,
    /// The result is not 1, 0.5 or 0.
    Result,
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LineError::Fields => "expected FEN;SCORE;RESULT",
            LineError::Fen => "invalid FEN",
            LineError::Score => "invalid score",
            LineError::Result => "invalid result",
        })
    }
}

impl std::error::Error for LineError {}

/// Whether the `i`-th position read is held out: every sixteenth block of 256 positions (about
/// two games).
pub(super) fn held_out(i: usize) -> bool {
    (i / 256).is_multiple_of(16)
}

/// Appends the position's active inputs seen from White, then from Black.
pub(super) fn inputs_of(layout: Layout, pos: &Position, out: &mut Vec<u16>) {
    for side in Color::ALL {
        let view: View = layout.view(side, pos.king(side));
        for color in Color::ALL {
            for role in Role::ALL {
                for sq in pos.pieces(color, role) {
                    out.push(view.feature(side, color, role, sq) as u16);
                }
            }
        }
    }
}

impl Dataset {
    /// An empty set, its inputs numbered by `layout`.
    pub fn new(layout: Layout) -> Dataset {
        Dataset {
            layout,
            inputs: Vec::new(),
            starts: vec![0],
            black_to_move: Vec::new(),
            scores: Vec::new(),
            results: Vec::new(),
            classical_evals: Vec::new(),
            classical: Classical::default(),
            residual: false,
        }
    }

    /// An empty set for a network that corrects the classical evaluation (see
    /// [`Network`]).
    pub fn residual(layout: Layout) -> Dataset {
        Dataset {
            residual: true,
            ..Dataset::new(layout)
        }
    }

    /// Whether the network trained on this set corrects the classical evaluation.
    pub fn is_residual(&self) -> bool {
        self.residual
    }

    /// What the network's output adds to at position `i`, for the side to move, in
    /// centipawns: the classical evaluation for a correcting network, else nothing.
    pub(super) fn base(&self, i: usize) -> f32 {
        if self.residual {
            self.classical_evals[i]
        } else {
            0.0
        }
    }

    /// The mean loss of the classical evaluation itself, with the given scale.
    pub fn classical_loss(&self, scale: f32, wdl: f32) -> f64 {
        let total: f64 = (0..self.len())
            .map(|i| {
                let p = sigmoid(self.classical_evals[i] / scale);
                let t = target(self, i, scale, wdl);
                ((p - t) * (p - t)) as f64
            })
            .sum();
        total / self.len().max(1) as f64
    }

    /// Positions held.
    pub fn len(&self) -> usize {
        self.scores.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.scores.is_empty()
    }

    /// Adds one `FEN;SCORE;RESULT` line (White's score in centipawns, White's result).
    pub fn add_line(&mut self, line: &str) -> Result<(), LineError> {
        let mut fields = line.trim().split(';');
        let (Some(fen), Some(score), Some(result), None) =
            (fields.next(), fields.next(), fields.next(), fields.next())
        else {
            return Err(LineError::Fields);
        };
        let pos = Position::from_fen(fen).map_err(|_| LineError::Fen)?;
        let score: i16 = score
            .parse()
            .ok()
            .filter(|s: &i16| s.abs() <= 30_000)
            .ok_or(LineError::Score)?;
        let result = match result {
            "1" | "1.0" => 2,
            "0.5" => 1,
            "0" | "0.0" => 0,
            _ => return Err(LineError::Result),
        };
        self.classical_evals
            .push(self.classical.evaluate(&pos) as f32);
        inputs_of(self.layout, &pos, &mut self.inputs);
        self.starts.push(self.inputs.len() as u32);
        self.black_to_move.push(pos.turn() == Color::Black);
        self.scores.push(score);
        self.results.push(result);
        Ok(())
    }

    /// Position `i`'s inputs from White's side and from Black's.
    pub(super) fn inputs(&self, i: usize) -> [&[u16]; 2] {
        let all = &self.inputs[self.starts[i] as usize..self.starts[i + 1] as usize];
        let (white, black) = all.split_at(all.len() / 2);
        [white, black]
    }

    /// Moves the held-out positions ([`held_out`]) into a new set, to measure how the fit
    /// generalises.
    pub fn split_off(&mut self) -> Dataset {
        let empty = || Dataset {
            residual: self.residual,
            ..Dataset::new(self.layout)
        };
        let (mut kept, mut held) = (empty(), empty());
        for i in 0..self.len() {
            let to = if held_out(i) { &mut held } else { &mut kept };
            for side in self.inputs(i) {
                to.inputs.extend_from_slice(side);
            }
            to.starts.push(to.inputs.len() as u32);
            to.black_to_move.push(self.black_to_move[i]);
            to.scores.push(self.scores[i]);
            to.results.push(self.results[i]);
            to.classical_evals.push(self.classical_evals[i]);
        }
        *self = kept;
        held
    }

    /// The centipawn scale `K` with which `σ(score / K)` predicts the results best.
    pub fn fit_scale(&self) -> f32 {
        let error = |k: f32| -> f64 {
            (0..self.len())
                .map(|i| {
                    let p = sigmoid(self.scores[i] as f32 / k);
                    let r = self.results[i] as f32 / 2.0;
                    ((p - r) * (p - r)) as f64
                })
                .sum()
        };
        (5..=120)
            .map(|k| k as f32 * 10.0)
            .min_by(|&a, &b| error(a).total_cmp(&error(b)))
            .unwrap_or(400.0)
    }
}

/// The logistic function.
pub(super) fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The target of position `i`, for the side to move.
pub(super) fn target(data: &Dataset, i: usize, scale: f32, wdl: f32) -> f32 {
    let white =
        (1.0 - wdl) * sigmoid(data.scores[i] as f32 / scale) + wdl * data.results[i] as f32 / 2.0;
    if data.black_to_move[i] {
        1.0 - white
    } else {
        white
    }
}
