//! The network in floating point, as it is trained: its shape, its forward pass and
//! gradients, Adam's steps, and the quantised file it becomes.

use vizier_engine::nnue::{
    BUCKETS, KING_BUCKETS, Layout, Network, PIECE_INPUTS, QA, QB, Weights, bucket,
};
use vizier_engine::random::mix;

use super::dataset::sigmoid;

/// Weights stay within this, so that the quantised sums fit their integers.
pub(super) const CLIP: f32 = 1.98;

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
    pub(super) fn factorised(self) -> bool {
        self.layout != Layout::Plain
    }

    /// Shared rows of zeros (none for the plain layout).
    pub(super) fn no_shared_rows(self) -> Vec<f32> {
        let rows = if self.factorised() { PIECE_INPUTS } else { 0 };
        vec![0.0; rows * self.hidden]
    }
}

/// The network in floating point, as trained.
#[derive(Clone)]
pub struct FloatNet {
    pub(super) shape: Shape,
    pub(super) rows: Vec<f32>,
    /// Rows shared by every king region (empty for the plain layout): a piece on a square's
    /// weights are its region's row plus its shared row.
    pub(super) shared: Vec<f32>,
    pub(super) bias: Vec<f32>,
    /// Bucket by bucket: the side to move's weights, then the other side's.
    pub(super) out: Vec<f32>,
    pub(super) out_bias: Vec<f32>,
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
pub(super) struct Forward {
    pub(super) set: usize,
    pub(super) output: f32,
}

/// A thread's working space for the passes over positions: both sides' hidden values
/// (White's first) and their gradients, reused from one position to the next.
pub(super) struct Scratch {
    pub(super) acc: [Vec<f32>; 2],
    pub(super) grad: [Vec<f32>; 2],
}

impl Scratch {
    pub(super) fn new(hidden: usize) -> Scratch {
        Scratch {
            acc: [vec![0.0; hidden], vec![0.0; hidden]],
            grad: [vec![0.0; hidden], vec![0.0; hidden]],
        }
    }
}

/// Uniform draws in ±`limit`, deterministic for a seed.
pub(super) fn uniform(seed: u64) -> impl FnMut(f32) -> f32 {
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
    pub(super) fn flipped(&self, input: u16, flip: u16) -> usize {
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
    pub(super) fn add_row(&self, input: usize, acc: &mut [f32]) {
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
    pub(super) fn forward(
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
    pub(super) fn backward(
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
    pub(super) fn add_row_grad(&mut self, input: usize, d: &[f32]) {
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

    pub(super) fn zero(&mut self) {
        self.rows.fill(0.0);
        self.shared.fill(0.0);
        self.bias.fill(0.0);
        self.out.fill(0.0);
        self.out_bias.fill(0.0);
    }

    pub(super) fn params_mut(&mut self) -> impl Iterator<Item = &mut f32> {
        self.rows
            .iter_mut()
            .chain(self.shared.iter_mut())
            .chain(self.bias.iter_mut())
            .chain(self.out.iter_mut())
            .chain(self.out_bias.iter_mut())
    }

    pub(super) fn params(&self) -> impl Iterator<Item = &f32> {
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
