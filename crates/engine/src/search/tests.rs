use super::*;
use crate::eval::Classical;
use vizier_rules::UciCastling;

fn search_to(shared: &Arc<Shared>, pos: &Position, depth: i32) -> SearchResult {
    let limits = Limits {
        depth: Some(depth),
        multipv: 1,
        ..Limits::default()
    };
    let job = Job {
        pos,
        game_keys: &[],
        limits: &limits,
        threads: 1,
        start: Instant::now(),
    };
    search(shared, &Classical::default(), &job, &mut |_| {})
}

#[test]
fn pruning_keeps_the_tactics() {
    // Positions from the Win at Chess suite (1, 3, 4, 5) and two mates, with their
    // solutions and the depth that finds them: no pruning rule may hide them deeper.
    // The queen sacrifice of the first (mate in two) is found only at depth 13: the root
    // reduces it, and at the reduced depth reverse futility stands pat on the queen won.
    let cases = [
        (
            "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
            "g3g6",
            14,
        ),
        (
            "5rk1/1ppb3p/p1pb4/6q1/3P1p1r/2P1R2P/PP1BQ1P1/5RKN w - - 0 1",
            "e3g3",
            10,
        ),
        (
            "r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - 0 1",
            "h6h7",
            10,
        ),
        (
            "5k2/6pp/p1qN4/1p1p4/3P4/2PKP2Q/PP3r2/3R4 b - - 0 1",
            "c6c4",
            10,
        ),
        ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "d1d8", 10),
        (
            "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1",
            "d5f6",
            10,
        ),
    ];
    for (fen, solution, depth) in cases {
        let shared = Arc::new(Shared::new(16));
        let pos = Position::from_fen(fen).unwrap();
        let best = search_to(&shared, &pos, depth).best.unwrap();
        assert_eq!(pos.uci(best, UciCastling::KingStep), solution, "{fen}");
    }
}

#[test]
fn a_small_node_limit_is_met_and_still_finds_a_move() {
    // Counted 1,024 at a time from node 0, `go nodes 1000` once stopped before searching
    // anything and played the first legal move (g1f1) in a mate in one.
    for limit in [1, 200, 1_000, 3_000] {
        let shared = Arc::new(Shared::new(1));
        let pos = Position::from_fen("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1").unwrap();
        let limits = Limits {
            nodes: Some(limit),
            multipv: 1,
            ..Limits::default()
        };
        let job = Job {
            pos: &pos,
            game_keys: &[],
            limits: &limits,
            threads: 1,
            start: Instant::now(),
        };
        let mut reports = 0;
        let found = search(&shared, &Classical::default(), &job, &mut |_| reports += 1);
        let best = pos.uci(found.best.unwrap(), UciCastling::KingStep);
        assert_eq!(best, "d1d8", "nodes {limit}");
        assert!(reports > 0, "nodes {limit}: no info");
        assert!(
            found.nodes <= limit.max(64) + 64,
            "nodes {limit}: {}",
            found.nodes
        );
    }
}

#[test]
fn history_is_kept_between_moves_and_forgotten_for_a_new_game() {
    let shared = Arc::new(Shared::new(1));
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let pos = Position::from_fen(fen).unwrap();
    search_to(&shared, &pos, 7);
    let learnt = |shared: &Shared| {
        let memory = shared.memory.lock().unwrap();
        memory.first().map(|m| {
            let continuation = m.continuation.iter().flatten().filter(|&&v| v != 0);
            let history = m.history.iter().flatten().flatten().filter(|&&v| v != 0);
            let captures = m.captures.iter().flatten().filter(|&&v| v != 0);
            (history.count(), continuation.count(), captures.count())
        })
    };
    let (history, continuation, captures) = learnt(&shared).expect("the thread's memory is kept");
    assert!(
        history > 0 && continuation > 0 && captures > 0,
        "{history} {continuation} {captures}"
    );
    shared.clear();
    assert_eq!(learnt(&shared), None);
}
