//! Evaluation speed, classical and neural: every position two plies from the `bench` positions, evaluated
//! repeatedly; prints nanoseconds per evaluation (best of several rounds) and a checksum that
//! changes only when the evaluation does.
//!
//! `cargo bench -p vizier-engine --bench eval --profile fast [-- NETWORK_FILE]`: the neural
//! evaluation with each instruction set this processor has.

use std::hint::black_box;
use std::time::Instant;

use vizier_engine::bench::POSITIONS;
use vizier_engine::eval::{Classical, Evaluator};
use vizier_engine::nnue::{Network, Simd};
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
    let classical = Classical::default();
    measure("classical", &|p| classical.evaluate(p), &positions);
    let file = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    let loaded = file.as_ref().map(|path| match Network::read(path) {
        Ok(net) => net,
        Err(e) => panic!("{path}: {e}"),
    });
    let net = loaded.as_ref().unwrap_or(Network::embedded());
    println!(
        "network: {}, {:?} inputs",
        file.as_deref().unwrap_or("embedded"),
        net.layout()
    );
    for simd in [Simd::Baseline, Simd::Avx2, Simd::Avx512] {
        if simd <= Simd::detect() {
            measure(
                &format!("neural, {}", simd.name()),
                &|p| net.evaluate_with(simd, p),
                &positions,
            );
        }
    }
}

fn measure(name: &str, eval: &dyn Fn(&Position) -> i32, positions: &[Position]) {
    let checksum: i64 = positions.iter().map(|p| eval(p) as i64).sum();
    let rounds = 200;
    let mut best = f64::INFINITY;
    for _ in 0..7 {
        let start = Instant::now();
        for _ in 0..rounds {
            for p in positions {
                black_box(eval(black_box(p)));
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
