use super::dataset::inputs_of;
use super::*;
use vizier_engine::eval::Evaluator;
use vizier_engine::nnue::{Layout, Network};
use vizier_rules::Position;

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
