//! Evaluation speed, classical and neural: every position two plies from the `bench` positions, evaluated
//! repeatedly; prints nanoseconds per evaluation (best of several rounds) and a checksum that
//! changes only when the evaluation does.
//!
//! `cargo bench -p vizier-engine --bench eval --profile fast`

use std::hint::black_box;
use std::time::Instant;

use vizier_engine::bench::POSITIONS;
use vizier_engine::eval::{Classical, Evaluator};
use vizier_engine::nnue::Network;
use vizier_rules::Position;

fn main() {
    let mut positions = Vec::new();
    for fen in POSITIONS {
        let root = Position::from_fen(fen).expect("bench positions are valid");
        for &m in root.legal_moves().iter() {
            let mut child = root.clone();
            child.play_unchecked(m);
            for &r in child.legal_moves().iter() {
                let mut grandchild = child.clone();
                grandchild.play_unchecked(r);
                positions.push(grandchild);
            }
        }
    }
    measure("classical", &Classical::default(), &positions);
    measure("neural", Network::embedded(), &positions);
}

fn measure(name: &str, eval: &dyn Evaluator, positions: &[Position]) {
    let checksum: i64 = positions.iter().map(|p| eval.evaluate(p) as i64).sum();
    let rounds = 200;
    let mut best = f64::INFINITY;
    for _ in 0..7 {
        let start = Instant::now();
        for _ in 0..rounds {
            for p in positions {
                black_box(eval.evaluate(black_box(p)));
            }
        }
        let ns = start.elapsed().as_nanos() as f64 / (rounds * positions.len()) as f64;
        best = best.min(ns);
    }
    println!(
        "{name}: {} positions, checksum {checksum}: {best:.1} ns per evaluation (best of 7)",
        positions.len()
    );
}
