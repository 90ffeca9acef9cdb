//! `bench`: a fixed search of fixed positions whose node count is a signature of the engine's
//! behaviour (it changes only when the search or evaluation does), and a speed figure.

use std::sync::Arc;
use std::time::Instant;

use vizier_rules::Position;

use crate::eval::{Classical, Evaluator};
use crate::nnue::{self, Network};
use crate::search::{self, Limits, Shared};

/// The default depth.
pub const DEFAULT_DEPTH: i32 = 9;

/// The positions searched (the standard start, perft favourites, a middlegame, endgames).
pub const POSITIONS: [&str; 8] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "8/8/4k3/8/2P5/4K3/8/8 w - - 0 1",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
];

/// Searches every position to `depth` on one thread with a fresh 16 MB table, evaluating
/// with `network` (full strength's evaluation when `None`); prints one line per position and
/// the totals, ending with `Nodes searched: N`.
pub fn run(depth: i32, network: Option<&Network>, print: &mut dyn FnMut(&str)) -> u64 {
    let classical = Classical::default();
    let eval: &dyn Evaluator = match network {
        Some(net) => net,
        None if nnue::BY_DEFAULT => Network::embedded(),
        None => &classical,
    };
    let limits = Limits {
        depth: Some(depth),
        multipv: 1,
        ..Limits::default()
    };
    let (mut nodes, start) = (0u64, Instant::now());
    for (i, fen) in POSITIONS.iter().enumerate() {
        let pos = Position::from_fen(fen).expect("bench positions are valid");
        let shared = Arc::new(Shared::new(16));
        let job = search::Job {
            pos: &pos,
            game_keys: &[],
            limits: &limits,
            threads: 1,
            start: Instant::now(),
        };
        let out = search::search(&shared, eval, &job, &mut |_| {});
        print(&format!(
            "position {}: {} nodes, best {}",
            i + 1,
            out.nodes,
            out.best.map_or("none".into(), |m| pos
                .uci(m, vizier_rules::UciCastling::KingStep))
        ));
        nodes += out.nodes;
    }
    let ms = start.elapsed().as_millis().max(1) as u64;
    print(&format!("Total time (ms): {ms}"));
    print(&format!("Nodes/second: {}", nodes * 1000 / ms));
    print(&format!("Nodes searched: {nodes}"));
    nodes
}
