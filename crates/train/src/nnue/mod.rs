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

mod dataset;
mod net;

use vizier_engine::random::mix;

pub use dataset::{Dataset, LineError};
use dataset::{sigmoid, target};
use net::{CLIP, Scratch};
pub use net::{FloatNet, Saved, Shape};

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
mod tests;
