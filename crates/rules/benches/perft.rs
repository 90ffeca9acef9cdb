//! Perft speed side by side with shakmaty 0.30, in one process, best of several runs each.
//!
//! `cargo bench -p vizier-rules --bench perft` (add `-- quick` for one run of each).

use std::hint::black_box;
use std::time::Instant;

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position as _};
use vizier_rules::{Position, perft, perft_full};

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn shakmaty_full(pos: &Chess, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    pos.legal_moves()
        .into_iter()
        .map(|m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            shakmaty_full(&child, depth - 1)
        })
        .sum()
}

/// Best wall time in seconds over `runs`, checking the count every time.
fn best(runs: usize, expected: u64, mut f: impl FnMut() -> u64) -> f64 {
    (0..runs)
        .map(|_| {
            let t = Instant::now();
            let n = black_box(f());
            assert_eq!(n, expected);
            t.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

fn main() {
    let runs = if std::env::args().any(|a| a == "quick") {
        1
    } else {
        5
    };
    println!(
        "{:<34} {:>12} {:>10} {:>10} {:>8}",
        "case", "nodes", "vizier", "shakmaty", "ratio"
    );
    for (name, fen, depth, bulk) in [
        ("startpos d6, bulk", None, 6, true),
        ("kiwipete d5, bulk", Some(KIWIPETE), 5, true),
        ("startpos d5, every leaf played", None, 5, false),
        ("kiwipete d4, every leaf played", Some(KIWIPETE), 4, false),
    ] {
        let ours = fen.map_or_else(Position::new, |f| Position::from_fen_relaxed(f).unwrap());
        let theirs: Chess = fen.map_or_else(Chess::default, |f| {
            f.parse::<Fen>()
                .unwrap()
                .into_position(CastlingMode::Standard)
                .unwrap()
        });
        let nodes = if bulk {
            perft(&ours, depth)
        } else {
            perft_full(&ours, depth)
        };
        // Interleave the two so that machine noise hits both alike.
        let (mut t_ours, mut t_theirs) = (f64::INFINITY, f64::INFINITY);
        for _ in 0..runs {
            t_ours = t_ours.min(best(1, nodes, || {
                if bulk {
                    perft(&ours, depth)
                } else {
                    perft_full(&ours, depth)
                }
            }));
            t_theirs = t_theirs.min(best(1, nodes, || {
                if bulk {
                    shakmaty::perft(&theirs, depth)
                } else {
                    shakmaty_full(&theirs, depth)
                }
            }));
        }
        println!(
            "{:<34} {:>12} {:>8.1}Mn {:>8.1}Mn {:>7.2}x",
            name,
            nodes,
            nodes as f64 / t_ours / 1e6,
            nodes as f64 / t_theirs / 1e6,
            t_theirs / t_ours
        );
    }
}
