//! The trainer of the neural evaluation: fits a floating-point copy of the network to
//! self-play positions ([`crate::datagen`]) by Adam, then writes it quantised.
//!
//! The target of a position blends the search's score and the game's result, both as a
//! win expectation: `(1 − wdl) · σ(score / K) + wdl · result`, where `K` is fitted first so that
//! `σ(score / K)` predicts the results best (it is the network's centipawn scale, kept in the
//! file). The loss is the squared distance from `σ(output)`.
//!
//! A network with king buckets ([`Layout::KingBuckets`]) is trained with a factoriser: each
//! input's weights are the sum of its bucket's row and a row shared by all buckets, so that
//! what a piece on a square means wherever the king is is learned from every position;
//! the file gets the sums.

use std::fmt;

use vizier_rules::{Color, Position, Role};

use vizier_engine::eval::{Classical, Evaluator};
use vizier_engine::nnue::{
    BUCKETS, KING_BUCKETS, Layout, Network, PIECE_INPUTS, QA, QB, View, Weights, bucket,
};
use vizier_engine::random::mix;

/// Weights stay within this, so that the quantised sums fit their integers.
const CLIP: f32 = 1.98;

/// Training positions: each one's active inputs from White's side, then from Black's.
pub struct Dataset {
    /// How the inputs are numbered.
    layout: Layout,
    inputs: Vec<u16>,
    starts: Vec<u32>,
    black_to_move: Vec<bool>,
    scores: Vec<i16>,
    /// 0, 1 or 2 halves of a point for White.
    results: Vec<u8>,
    /// The classical evaluation of each position, for the side to move: the bar a network
    /// must beat, and what a correcting network adds to.
    classical_evals: Vec<f32>,
    classical: Classical,
    /// The network trained on this set corrects the classical evaluation.
    residual: bool,
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
fn held_out(i: usize) -> bool {
    (i / 256).is_multiple_of(16)
}

/// Appends the position's active inputs seen from White, then from Black.
fn inputs_of(layout: Layout, pos: &Position, out: &mut Vec<u16>) {
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
    fn base(&self, i: usize) -> f32 {
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
    fn inputs(&self, i: usize) -> [&[u16]; 2] {
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
fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The shape of a network: how its inputs are numbered and how many hidden values a side has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    pub layout: Layout,
    pub hidden: usize,
}

impl Shape {
    /// 128 hidden values over the plain inputs (file versions 1 and 2).
    pub const PLAIN: Shape = Shape {
        layout: Layout::Plain,
        hidden: 128,
    };
    /// 256 hidden values over inputs by the king's region (version 3).
    pub const KING_BUCKETS: Shape = Shape {
        layout: Layout::KingBuckets,
        hidden: 256,
    };

    /// Whether the inputs have a shared part to train ([`FloatNet`]'s factoriser).
    fn factorised(self) -> bool {
        self.layout != Layout::Plain
    }

    /// Shared rows of zeros (none for the plain layout).
    fn no_shared_rows(self) -> Vec<f32> {
        let rows = if self.factorised() { PIECE_INPUTS } else { 0 };
        vec![0.0; rows * self.hidden]
    }
}

/// The network in floating point, as trained.
#[derive(Clone)]
pub struct FloatNet {
    shape: Shape,
    rows: Vec<f32>,
    /// Rows shared by every king region (empty for the plain layout): a piece on a square's
    /// weights are its region's row plus its shared row.
    shared: Vec<f32>,
    bias: Vec<f32>,
    /// Bucket by bucket: the side to move's weights, then the other side's.
    out: Vec<f32>,
    out_bias: Vec<f32>,
}

/// A network file read for training further.
pub struct Saved {
    pub net: FloatNet,
    /// Its centipawns per unit of output: its evaluations keep their scale if it is trained
    /// further with this `K`.
    pub scale: f32,
    /// Whether it corrects the classical evaluation.
    pub residual: bool,
}

/// A position's output weight set and output (its hidden values are left in [`Scratch`]).
struct Forward {
    set: usize,
    output: f32,
}

/// A thread's working space for the passes over positions: both sides' hidden values
/// (White's first) and their gradients, reused from one position to the next.
struct Scratch {
    acc: [Vec<f32>; 2],
    grad: [Vec<f32>; 2],
}

impl Scratch {
    fn new(hidden: usize) -> Scratch {
        Scratch {
            acc: [vec![0.0; hidden], vec![0.0; hidden]],
            grad: [vec![0.0; hidden], vec![0.0; hidden]],
        }
    }
}

/// Uniform draws in ±`limit`, deterministic for a seed.
fn uniform(seed: u64) -> impl FnMut(f32) -> f32 {
    let mut drawn = 0u64;
    move |limit| {
        drawn += 1;
        ((mix(seed ^ drawn) >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * limit
    }
}

impl FloatNet {
    /// Small random weights (deterministic for a seed).
    pub fn random(shape: Shape, seed: u64) -> FloatNet {
        let mut uniform = uniform(seed);
        let h = shape.hidden;
        let rows = (0..shape.layout.inputs() * h)
            .map(|_| uniform(0.05))
            .collect();
        let out = (0..BUCKETS * 2 * h).map(|_| uniform(0.1)).collect();
        FloatNet {
            shape,
            rows,
            shared: shape.no_shared_rows(),
            bias: vec![0.0; h],
            out,
            out_bias: vec![0.0; BUCKETS],
        }
    }

    /// The network's shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// A network in floating point, to train further: the weights exactly as quantised, so
    /// that writing it back untrained gives the same file.
    pub fn from_network(net: &Network) -> Saved {
        let w = net.weights();
        let float =
            |ws: &[i16], q: i32| -> Vec<f32> { ws.iter().map(|&w| w as f32 / q as f32).collect() };
        let shape = Shape {
            layout: w.layout,
            hidden: w.hidden,
        };
        Saved {
            net: FloatNet {
                shape,
                rows: float(&w.rows, QA),
                shared: shape.no_shared_rows(),
                bias: float(&w.bias, QA),
                out: float(&w.out, QB),
                out_bias: w
                    .out_bias
                    .iter()
                    .map(|&b| b as f32 / (QA * QB) as f32)
                    .collect(),
            },
            scale: w.scale as f32,
            residual: w.residual,
        }
    }

    /// This plain network grown into `shape`, evaluating exactly as before: its hidden
    /// values become the first of the new ones, through the shared rows (every king
    /// bucket's own rows start at zero); the new hidden values start with small random
    /// input weights (`seed`) and no output weight, so they change nothing until trained.
    pub fn widened(&self, shape: Shape, seed: u64) -> Option<FloatNet> {
        let old = self.shape;
        if old.layout != Layout::Plain || shape.hidden < old.hidden || !shape.factorised() {
            return None;
        }
        let mut uniform = uniform(seed);
        let (h, o) = (shape.hidden, old.hidden);
        let grow = |from: &[f32], fill: &mut dyn FnMut() -> f32| -> Vec<f32> {
            from.chunks_exact(o)
                .flat_map(|row| {
                    let mut new: Vec<f32> = row.to_vec();
                    new.extend((o..h).map(|_| fill()));
                    new
                })
                .collect()
        };
        Some(FloatNet {
            shape,
            rows: vec![0.0; shape.layout.inputs() * h],
            shared: grow(&self.rows, &mut || uniform(0.05)),
            bias: grow(&self.bias, &mut || 0.0),
            out: grow(&self.out, &mut || 0.0),
            out_bias: self.out_bias.clone(),
        })
    }

    /// The input `input` becomes when the board is mirrored left to right (`flip` 7) or not
    /// (0): the square mirrored, and the king's bucket moved to its twin on the other half.
    #[inline(always)]
    fn flipped(&self, input: u16, flip: u16) -> usize {
        let input = input as usize;
        if flip == 0 {
            return input;
        }
        let (bucket, piece) = (input / PIECE_INPUTS, input % PIECE_INPUTS);
        let twin = if self.shape.factorised() {
            bucket ^ (KING_BUCKETS / 2)
        } else {
            bucket
        };
        twin * PIECE_INPUTS + (piece ^ 7)
    }

    /// Input `input`'s weights: its row, plus its shared row where there is one.
    #[inline(always)]
    fn add_row(&self, input: usize, acc: &mut [f32]) {
        let h = self.shape.hidden;
        for (x, r) in acc.iter_mut().zip(&self.rows[input * h..][..h]) {
            *x += r;
        }
        if self.shape.factorised() {
            let shared = &self.shared[(input % PIECE_INPUTS) * h..][..h];
            for (x, r) in acc.iter_mut().zip(shared) {
                *x += r;
            }
        }
    }

    /// `flip` 7 mirrors the board left to right (0: as it is); `base` (in output units) is
    /// added to the output. The hidden values are left in `acc`.
    fn forward(
        &self,
        inputs: [&[u16]; 2],
        black_to_move: bool,
        flip: u16,
        base: f32,
        acc: &mut [Vec<f32>; 2],
    ) -> Forward {
        let h = self.shape.hidden;
        for (side, a) in acc.iter_mut().enumerate() {
            a.copy_from_slice(&self.bias);
            for &input in inputs[side] {
                self.add_row(self.flipped(input, flip), a);
            }
        }
        let (us, them) = if black_to_move { (1, 0) } else { (0, 1) };
        let set = bucket(inputs[0].len() as u32);
        let mut output = self.out_bias[set] + base;
        for (k, side) in [us, them].into_iter().enumerate() {
            let weights = &self.out[(2 * set + k) * h..][..h];
            for (x, w) in acc[side].iter().zip(weights) {
                let c = x.clamp(0.0, 1.0);
                output += c * c * w;
            }
        }
        Forward { set, output }
    }

    /// Adds the gradient of the loss at one position to `grad`; returns the loss.
    #[allow(clippy::too_many_arguments)]
    fn backward(
        &self,
        inputs: [&[u16]; 2],
        black_to_move: bool,
        flip: u16,
        base: f32,
        target: f32,
        grad: &mut FloatNet,
        scratch: &mut Scratch,
    ) -> f32 {
        let h = self.shape.hidden;
        let f = self.forward(inputs, black_to_move, flip, base, &mut scratch.acc);
        let (acc, hidden_grad) = (&scratch.acc, &mut scratch.grad);
        let p = sigmoid(f.output);
        let g = 2.0 * (p - target) * p * (1.0 - p);
        grad.out_bias[f.set] += g;
        let (us, them) = if black_to_move { (1, 0) } else { (0, 1) };
        for (k, side) in [us, them].into_iter().enumerate() {
            let at = (2 * f.set + k) * h;
            let weights = &self.out[at..][..h];
            let out_grad = &mut grad.out[at..][..h];
            let hg = &mut hidden_grad[side];
            for i in 0..h {
                let x = acc[side][i];
                let c = x.clamp(0.0, 1.0);
                out_grad[i] += g * c * c;
                hg[i] = if x > 0.0 && x < 1.0 {
                    g * weights[i] * 2.0 * c
                } else {
                    0.0
                };
            }
        }
        for (side, hg) in hidden_grad.iter().enumerate() {
            for (b, d) in grad.bias.iter_mut().zip(hg) {
                *b += d;
            }
            for &input in inputs[side] {
                grad.add_row_grad(self.flipped(input, flip), hg);
            }
        }
        (p - target) * (p - target)
    }

    /// Adds `d` to the gradient of input `input`'s weights (its row and its shared row).
    #[inline(always)]
    fn add_row_grad(&mut self, input: usize, d: &[f32]) {
        let h = self.shape.hidden;
        for (r, d) in self.rows[input * h..][..h].iter_mut().zip(d) {
            *r += d;
        }
        if self.shape.factorised() {
            for (r, d) in self.shared[(input % PIECE_INPUTS) * h..][..h]
                .iter_mut()
                .zip(d)
            {
                *r += d;
            }
        }
    }

    fn zero(&mut self) {
        self.rows.fill(0.0);
        self.shared.fill(0.0);
        self.bias.fill(0.0);
        self.out.fill(0.0);
        self.out_bias.fill(0.0);
    }

    fn params_mut(&mut self) -> impl Iterator<Item = &mut f32> {
        self.rows
            .iter_mut()
            .chain(self.shared.iter_mut())
            .chain(self.bias.iter_mut())
            .chain(self.out.iter_mut())
            .chain(self.out_bias.iter_mut())
    }

    fn params(&self) -> impl Iterator<Item = &f32> {
        self.rows
            .iter()
            .chain(self.shared.iter())
            .chain(self.bias.iter())
            .chain(self.out.iter())
            .chain(self.out_bias.iter())
    }

    /// The quantised network file, `scale` centipawns per unit of output, `residual` when
    /// it corrects the classical evaluation (see [`Network::from_bytes`]).
    pub fn to_bytes(&self, scale: f32, residual: bool) -> Vec<u8> {
        let quantise = |ws: &[f32], q: i32| -> Vec<i16> {
            ws.iter()
                .map(|&x| (x * q as f32).round().clamp(-32_767.0, 32_767.0) as i16)
                .collect()
        };
        let h = self.shape.hidden;
        let mut rows = self.rows.clone();
        if self.shape.factorised() {
            for (input, row) in rows.chunks_exact_mut(h).enumerate() {
                let shared = &self.shared[(input % PIECE_INPUTS) * h..][..h];
                row.iter_mut().zip(shared).for_each(|(r, s)| *r += s);
            }
        }
        Weights {
            layout: self.shape.layout,
            hidden: h,
            rows: quantise(&rows, QA),
            bias: quantise(&self.bias, QA),
            out: quantise(&self.out, QB),
            out_bias: self
                .out_bias
                .iter()
                .map(|&b| (b * (QA * QB) as f32).round() as i32)
                .collect(),
            scale: scale.round() as u32,
            residual,
        }
        .to_bytes()
    }
}

/// How to train.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Passes over the data.
    pub epochs: usize,
    /// Positions per step.
    pub batch: usize,
    /// Adam's step size at the start; it falls tenfold over the last 40% of the epochs.
    pub rate: f32,
    /// Weight of the game's result in the target (the rest is the search's score).
    pub wdl: f32,
    /// Threads computing gradients.
    pub threads: usize,
    /// Seeds the initial weights and the order of the positions.
    pub seed: u64,
    /// Mirror positions left to right at random.
    pub mirror: bool,
    /// The step size of the king buckets' own rows, as a fraction of `rate`: below 1, what
    /// the data says about a piece whatever the king's bucket (the shared rows) is learned
    /// before what it says about each bucket, which fewer positions show.
    pub bucket_rate: f32,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            epochs: 20,
            batch: 16_384,
            rate: 0.001,
            wdl: 0.3,
            threads: 2,
            seed: 1,
            mirror: true,
            bucket_rate: 1.0,
        }
    }
}

/// The mean loss over a set with the given scale.
pub fn loss(net: &FloatNet, data: &Dataset, scale: f32, wdl: f32) -> f64 {
    let mut acc = Scratch::new(net.shape.hidden).acc;
    let total: f64 = (0..data.len())
        .map(|i| {
            let f = net.forward(
                data.inputs(i),
                data.black_to_move[i],
                0,
                data.base(i) / scale,
                &mut acc,
            );
            let t = target(data, i, scale, wdl);
            let p = sigmoid(f.output);
            ((p - t) * (p - t)) as f64
        })
        .sum();
    total / data.len().max(1) as f64
}

/// The target of position `i`, for the side to move.
fn target(data: &Dataset, i: usize, scale: f32, wdl: f32) -> f32 {
    let white =
        (1.0 - wdl) * sigmoid(data.scores[i] as f32 / scale) + wdl * data.results[i] as f32 / 2.0;
    if data.black_to_move[i] {
        1.0 - white
    } else {
        white
    }
}

/// Trains `net` on `data` with Adam; `report` hears each epoch's number and mean loss, and
/// sees the network as it stands.
pub fn train(
    net: &mut FloatNet,
    data: &Dataset,
    scale: f32,
    settings: &Settings,
    report: &mut dyn FnMut(usize, f64, &FloatNet),
) {
    let n = data.len();
    let params = net.params().count();
    let (mut m, mut v) = (vec![0f32; params], vec![0f32; params]);
    let (beta1, beta2) = (0.9f32, 0.999f32);
    let mut step = 0i32;
    let mut order: Vec<u32> = (0..n as u32).collect();
    let threads = settings.threads.max(1);
    let mut grads: Vec<FloatNet> = (0..threads).map(|_| net.clone()).collect();
    let mirror = settings.mirror;
    // The king buckets' own rows come first among the parameters.
    let bucket_rows = if net.shape.factorised() {
        net.rows.len()
    } else {
        0
    };
    for epoch in 0..settings.epochs {
        let epoch_key = mix(settings.seed ^ ((epoch as u64) << 40));
        // Fisher–Yates.
        for i in (1..n).rev() {
            order.swap(i, (mix(epoch_key ^ i as u64) % (i as u64 + 1)) as usize);
        }
        let progress = epoch as f32 / settings.epochs as f32;
        let rate = if progress < 0.6 {
            settings.rate
        } else {
            settings.rate * 0.1f32.powf((progress - 0.6) / 0.4)
        };
        let mut epoch_loss = 0f64;
        for batch in order.chunks(settings.batch) {
            let chunk = batch.len().div_ceil(threads);
            let net_ref = &*net;
            let losses: Vec<f64> = std::thread::scope(|s| {
                let handles: Vec<_> = grads
                    .iter_mut()
                    .zip(batch.chunks(chunk))
                    .map(|(grad, part)| {
                        s.spawn(move || {
                            grad.zero();
                            let mut scratch = Scratch::new(net_ref.shape.hidden);
                            part.iter()
                                .map(|&i| {
                                    let i = i as usize;
                                    let t = target(data, i, scale, settings.wdl);
                                    // Half the positions mirrored left to right each
                                    // epoch: the evaluation hardly depends on the side of
                                    // the board, and the data goes twice as far (a king
                                    // moves to its twin bucket: `FloatNet::flipped`).
                                    let flip = if mirror && mix(!epoch_key ^ i as u64) & 1 == 1 {
                                        7
                                    } else {
                                        0
                                    };
                                    net_ref.backward(
                                        data.inputs(i),
                                        data.black_to_move[i],
                                        flip,
                                        data.base(i) / scale,
                                        t,
                                        grad,
                                        &mut scratch,
                                    ) as f64
                                })
                                .sum()
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().unwrap_or(0.0))
                    .collect()
            });
            epoch_loss += losses.iter().sum::<f64>();
            let used = batch.chunks(chunk).count();
            step += 1;
            let (c1, c2) = (1.0 - beta1.powi(step), 1.0 - beta2.powi(step));
            let scale_grad = 1.0 / batch.len() as f32;
            // The threads' gradients summed into the first.
            let (sums, others) = grads.split_at_mut(1);
            let sums = &mut sums[0];
            for g in &others[..used - 1] {
                for (a, b) in sums.params_mut().zip(g.params()) {
                    *a += b;
                }
            }
            for (k, (((w, g), m), v)) in net
                .params_mut()
                .zip(sums.params())
                .zip(&mut m)
                .zip(&mut v)
                .enumerate()
            {
                let g = g * scale_grad;
                *m = beta1 * *m + (1.0 - beta1) * g;
                *v = beta2 * *v + (1.0 - beta2) * g * g;
                let rate = if k < bucket_rows {
                    rate * settings.bucket_rate
                } else {
                    rate
                };
                *w -= rate * (*m / c1) / ((*v / c2).sqrt() + 1e-8);
                *w = w.clamp(-CLIP, CLIP);
            }
        }
        report(epoch + 1, epoch_loss / n.max(1) as f64, net);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_network_read_for_training_writes_back_the_same_file() {
        let saved = FloatNet::from_network(Network::embedded());
        assert!(!saved.residual);
        let again = Network::from_bytes(&saved.net.to_bytes(saved.scale, saved.residual));
        assert_eq!(again.unwrap().weights(), Network::embedded().weights());
    }

    /// The network's score of `fen` as the engine computes it.
    fn engine_eval(bytes: &[u8], fen: &str) -> i32 {
        let net = Network::from_bytes(bytes).unwrap();
        net.evaluate(&Position::from_fen(fen).unwrap())
    }

    #[test]
    fn a_widened_network_evaluates_as_the_one_it_grew_from() {
        let saved = FloatNet::from_network(Network::embedded());
        assert!(saved.net.widened(Shape::PLAIN, 1).is_none());
        let wide = saved.net.widened(Shape::KING_BUCKETS, 1).unwrap();
        let (plain, wide) = (
            saved.net.to_bytes(saved.scale, false),
            wide.to_bytes(saved.scale, false),
        );
        // Every king bucket starts as the plain rows; the new hidden values weigh nothing.
        for fen in [
            "r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/3P1N2/PPP2PPP/RNBQ1RK1 w - - 4 6",
            "8/5k2/8/3p4/8/5K2/1P6/8 b - - 0 1",
            "2kr3r/ppp2ppp/2n5/8/8/5N2/PPP2PPP/2KR3R w - - 0 12",
            "8/8/1k6/8/2p5/2P5/4K3/8 w - - 0 1",
        ] {
            assert_eq!(engine_eval(&plain, fen), engine_eval(&wide, fen), "{fen}");
        }
    }

    #[test]
    fn mirroring_moves_the_king_to_the_twin_bucket() {
        let net = FloatNet::random(Shape::KING_BUCKETS, 1);
        let mut data = Dataset::new(Layout::KingBuckets);
        data.add_line("2kr3r/ppp2ppp/2n5/8/8/5N2/PPP2PPP/2KR3R w - - 0 12;0;0.5")
            .unwrap();
        let mut mirrored = Dataset::new(Layout::KingBuckets);
        mirrored
            .add_line("r3rk2/ppp2ppp/5n2/8/8/2N5/PPP2PPP/R3RK2 w - - 0 12;0;0.5")
            .unwrap();
        let flip = |i: u16| net.flipped(i, 7) as u16;
        for side in 0..2 {
            let mut a: Vec<u16> = data.inputs(0)[side].iter().map(|&i| flip(i)).collect();
            let mut b = mirrored.inputs(0)[side].to_vec();
            a.sort();
            b.sort();
            assert_eq!(a, b);
        }
    }

    #[test]
    fn bad_lines_are_refused() {
        let mut data = Dataset::new(Layout::Plain);
        assert_eq!(data.add_line("nonsense"), Err(LineError::Fields));
        assert_eq!(data.add_line("8/8/8 w - - 0 1;0;1"), Err(LineError::Fen));
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(
            data.add_line(&format!("{start};x;1")),
            Err(LineError::Score)
        );
        assert_eq!(
            data.add_line(&format!("{start};99999;1")),
            Err(LineError::Score)
        );
        assert_eq!(
            data.add_line(&format!("{start};10;2")),
            Err(LineError::Result)
        );
        assert_eq!(
            data.add_line(&format!("{start};10;1;")),
            Err(LineError::Fields)
        );
        assert!(data.is_empty());
        assert_eq!(data.add_line(&format!("{start};10;0.5")), Ok(()));
        assert_eq!(data.len(), 1);
    }

    #[test]
    fn training_learns_material_and_the_quantised_net_agrees() {
        for shape in [Shape::PLAIN, Shape::KING_BUCKETS] {
            learn_material(shape);
        }
    }

    fn learn_material(shape: Shape) {
        // Positions where White is a queen up (winning) or down (losing), either side to move.
        let mut data = Dataset::new(shape.layout);
        let up = [
            "4k3/8/8/8/8/8/8/3QK3",
            "4k3/8/8/8/8/8/3Q4/4K3",
            "3k4/8/8/8/8/8/8/Q3K3",
        ];
        let down = [
            "3qk3/8/8/8/8/8/8/4K3",
            "4k3/3q4/8/8/8/8/8/4K3",
            "q3k3/8/8/8/8/8/8/3K4",
        ];
        for turn in ["w", "b"] {
            for board in up {
                data.add_line(&format!("{board} {turn} - - 0 1;900;1"))
                    .unwrap();
            }
            for board in down {
                data.add_line(&format!("{board} {turn} - - 0 1;-900;0"))
                    .unwrap();
            }
        }
        let scale = 400.0;
        let mut net = FloatNet::random(shape, 3);
        let before = loss(&net, &data, scale, 0.5);
        let settings = Settings {
            // Each step of the larger shape costs a pass over its 1.8 M weights.
            epochs: if shape == Shape::PLAIN { 300 } else { 60 },
            batch: 4,
            rate: 0.01,
            wdl: 0.5,
            threads: 2,
            seed: 5,
            mirror: false,
            bucket_rate: 1.0,
        };
        train(&mut net, &data, scale, &settings, &mut |_, _, _| {});
        let after = loss(&net, &data, scale, 0.5);
        assert!(after < before / 4.0, "{shape:?}: loss {before} -> {after}");
        let quantised = Network::from_bytes(&net.to_bytes(scale, false)).unwrap();
        for (board, sign) in [(up[0], 1), (down[1], -1)] {
            let pos = Position::from_fen(&format!("{board} w - - 0 1")).unwrap();
            let q = quantised.evaluate(&pos);
            assert!(q * sign > 300, "{shape:?} {board}: {q}");
            let mut inputs = Vec::new();
            inputs_of(shape.layout, &pos, &mut inputs);
            let (white, black) = inputs.split_at(inputs.len() / 2);
            let mut acc = Scratch::new(shape.hidden).acc;
            let exact = net.forward([white, black], false, 0, 0.0, &mut acc).output * scale;
            // Rounding the output weights to 1/QB costs a few percent (more with more
            // hidden values, whose rounding errors add up).
            let tolerance = (10.0 + exact.abs() / 50.0) * (shape.hidden as f32 / 128.0);
            assert!(
                (q as f32 - exact).abs() < tolerance,
                "{shape:?} {board}: {q} vs {exact}"
            );
        }
    }
}
