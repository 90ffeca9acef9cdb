//! The quantised network of one hidden size: its weights and arithmetic. Integer, as
//! trained: inputs scaled by [`QA`], output weights by [`QB`].

use vizier_rules::{Color, Position, Role, Square};

use super::file::Weights;
use super::layout::{BUCKETS, Layout, View};
use crate::eval::Score;

/// Fixed-point scale of the first layer (an activation of 1.0 is `QA`).
pub const QA: i32 = 255;
/// Fixed-point scale of the output weights.
pub const QB: i32 = 64;
/// The largest evaluation a network gives, far from the mate scores whatever the file says.
const LIMIT: i64 = 10_000;

/// One side's hidden values, or one input's weights into them.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
pub struct Row<const H: usize>(pub [i16; H]);

/// A network with `H` hidden values per side.
pub struct Layers<const H: usize> {
    pub layout: Layout,
    rows: Vec<Row<H>>,
    bias: Row<H>,
    /// Output weights by bucket: the side to move's activations, then the other side's.
    out: [[Row<H>; 2]; BUCKETS],
    /// Output bias by bucket, in units of `QA · QB`.
    out_bias: [i32; BUCKETS],
}

impl<const H: usize> Layers<H> {
    /// The layers of `w`, whose hidden size must be `H`.
    pub fn new(w: &Weights) -> Box<Layers<H>> {
        assert_eq!(w.hidden, H, "the caller picks the size");
        let row = |values: &[i16]| Row(values.try_into().expect("H values"));
        let mut out = [[Row([0; H]); 2]; BUCKETS];
        for (b, set) in out.iter_mut().enumerate() {
            for (k, r) in set.iter_mut().enumerate() {
                *r = row(&w.out[(2 * b + k) * H..][..H]);
            }
        }
        Box::new(Layers {
            layout: w.layout,
            rows: w.rows.chunks_exact(H).map(row).collect(),
            bias: row(&w.bias),
            out,
            out_bias: w.out_bias.clone().try_into().expect("BUCKETS biases"),
        })
    }

    /// The weights as the file holds them.
    pub fn weights(&self, scale: u32, residual: bool) -> Weights {
        let flat = |rows: &[Row<H>]| rows.iter().flat_map(|r| r.0).collect::<Vec<i16>>();
        Weights {
            layout: self.layout,
            hidden: H,
            rows: flat(&self.rows),
            bias: self.bias.0.to_vec(),
            out: flat(self.out.as_flattened()),
            out_bias: self.out_bias.to_vec(),
            scale,
            residual,
        }
    }

    /// The weights a `color` `role` on `sq` adds to the accumulator of `view`'s side.
    #[inline(always)]
    pub fn row(&self, view: View, side: Color, color: Color, role: Role, sq: Square) -> &Row<H> {
        &self.rows[view.feature(side, color, role, sq)]
    }

    /// Adds to `acc`, an accumulator of `view`, the rows of the `added` pieces and subtracts
    /// those of the `removed` ones (numbered as [`super::layout::piece_index`] does), a chunk
    /// at a time so that the accumulator is read and written once, however many changed.
    #[inline(always)]
    pub fn update(&self, acc: &mut Row<H>, view: View, added: &[u16], removed: &[u16]) {
        const { assert!(H.is_multiple_of(CHUNK)) };
        for start in (0..H).step_by(CHUNK) {
            let mut values: [i16; CHUNK] = acc.0[start..start + CHUNK].try_into().expect("a chunk");
            for &piece in added {
                let row = &self.rows[view.input(piece as usize)].0[start..start + CHUNK];
                for (v, &w) in values.iter_mut().zip(row) {
                    *v = v.wrapping_add(w);
                }
            }
            for &piece in removed {
                let row = &self.rows[view.input(piece as usize)].0[start..start + CHUNK];
                for (v, &w) in values.iter_mut().zip(row) {
                    *v = v.wrapping_sub(w);
                }
            }
            acc.0[start..start + CHUNK].copy_from_slice(&values);
        }
    }

    /// `side`'s accumulator computed from scratch.
    #[inline(always)]
    pub fn refresh(&self, pos: &Position, side: Color, view: View, acc: &mut Row<H>) {
        *acc = self.bias;
        for color in Color::ALL {
            for role in Role::ALL {
                for sq in pos.pieces(color, role) {
                    add(acc, self.row(view, side, color, role, sq));
                }
            }
        }
    }

    /// The output for the side to move from its accumulator and the other side's, with the
    /// weights of `bucket`, in centipawns at `scale` per unit.
    #[inline(always)]
    pub fn output(&self, us: &Row<H>, them: &Row<H>, bucket: usize, scale: i32) -> Score {
        let out = &self.out[bucket];
        let sum = activate(us, &out[0]) as i64 + activate(them, &out[1]) as i64;
        let raw = sum / QA as i64 + self.out_bias[bucket] as i64;
        (raw * scale as i64 / (QA * QB) as i64).clamp(-LIMIT, LIMIT) as Score
    }
}

/// Σ clip(x)² · w, the squared clipped activations weighed. It fits an i32 for up to 256
/// hidden values (256 · 255² · 127 < 2³¹; files with |w| > 127 are refused).
///
/// `clip(x) · w` fits an i16 (255 · 127), so the sum is of products of 16-bit values, which
/// vector units multiply and add pairwise into 32 bits in one instruction.
#[inline(always)]
fn activate<const H: usize>(acc: &Row<H>, weights: &Row<H>) -> i32 {
    const { assert!(H <= 256, "the sum would overflow") };
    let mut sum = 0i32;
    for (&x, &w) in acc.0.iter().zip(weights.0.iter()) {
        let c = x.clamp(0, QA as i16);
        sum += (c * w) as i32 * c as i32;
    }
    sum
}

/// Values updated at once by [`Layers::update`]: a few vector registers' worth.
const CHUNK: usize = 64;

#[inline(always)]
pub fn add<const H: usize>(acc: &mut Row<H>, row: &Row<H>) {
    for (a, &w) in acc.0.iter_mut().zip(row.0.iter()) {
        *a = a.wrapping_add(w);
    }
}
