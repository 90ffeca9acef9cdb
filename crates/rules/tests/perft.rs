//! Perft suites: standard positions, all 960 Chess960 starts and 960 Chess960 middlegames.
//! CI runs every listed depth of the standard suite and depth 4 of the Chess960 suites;
//! `cargo test --release -- --ignored perft_deep` runs to `VIZIER_PERFT_DEPTH` (default 6).

use vizier_rules::{Position, perft};

struct Case {
    id: String,
    fen: String,
    counts: Vec<(u32, u64)>,
}

fn load(name: &str) -> Vec<Case> {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut cases: Vec<Case> = Vec::new();
    for line in text.lines().map(str::trim) {
        if let Some(id) = line.strip_prefix("id ") {
            cases.push(Case {
                id: id.to_string(),
                fen: String::new(),
                counts: Vec::new(),
            });
        } else if let Some(fen) = line.strip_prefix("epd ") {
            cases.last_mut().expect("id before epd").fen = fen.to_string();
        } else if let Some(rest) = line.strip_prefix("perft ") {
            let mut it = rest
                .split_whitespace()
                .map(|s| s.parse::<u64>().expect("number"));
            let (d, n) = (it.next().unwrap(), it.next().unwrap());
            cases
                .last_mut()
                .expect("id before perft")
                .counts
                .push((d as u32, n));
        }
    }
    assert!(!cases.is_empty(), "{path} has no cases");
    cases
}

/// Runs every case up to `max_depth` on two threads; returns the number of nodes checked.
fn check(cases: &[Case], max_depth: u32) -> u64 {
    let half = cases.len().div_ceil(2);
    std::thread::scope(|s| {
        let handles: Vec<_> = cases
            .chunks(half.max(1))
            .map(|chunk| {
                s.spawn(move || {
                    let mut nodes = 0;
                    for case in chunk {
                        let pos = Position::from_fen_relaxed(&case.fen)
                            .unwrap_or_else(|e| panic!("{}: bad FEN {}: {e}", case.id, case.fen));
                        for &(depth, expected) in
                            case.counts.iter().filter(|(d, _)| *d <= max_depth)
                        {
                            let got = perft(&pos, depth);
                            assert_eq!(got, expected, "{} ({}) depth {depth}", case.id, case.fen);
                            nodes += got;
                        }
                    }
                    nodes
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).sum()
    })
}

#[test]
fn perft_standard_all_depths() {
    check(&load("standard.perft"), u32::MAX);
}

#[test]
fn perft_chess960_starts_depth_4() {
    let cases = load("chess960-start.perft");
    assert_eq!(cases.len(), 960);
    check(&cases, 4);
}

#[test]
fn perft_chess960_middlegames_depth_4() {
    let cases = load("chess960-middlegame.perft");
    assert_eq!(cases.len(), 960);
    check(&cases, 4);
}

#[test]
fn chess960_numbering_covers_the_suite() {
    // Every start position of the suite is one of our numbered positions, and all differ.
    let mut ours: Vec<String> = (0..960)
        .map(|n| Position::chess960(n).unwrap().board_fen())
        .collect();
    ours.sort();
    ours.dedup();
    assert_eq!(ours.len(), 960);
    for case in load("chess960-start.perft") {
        let board = case.fen.split(' ').next().unwrap();
        assert!(
            ours.binary_search(&board.to_string()).is_ok(),
            "{board} is not numbered"
        );
    }
}

#[test]
#[ignore = "deep: minutes of CPU; run once and report"]
fn perft_deep() {
    let depth = std::env::var("VIZIER_PERFT_DEPTH")
        .ok()
        .and_then(|d| d.parse().ok())
        .unwrap_or(6);
    let start = std::time::Instant::now();
    let mut nodes = 0;
    for file in [
        "standard.perft",
        "chess960-start.perft",
        "chess960-middlegame.perft",
    ] {
        nodes += check(&load(file), depth);
    }
    eprintln!(
        "perft_deep: depth <= {depth}: {nodes} nodes in {:.1?}",
        start.elapsed()
    );
}
