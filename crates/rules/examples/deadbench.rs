//! How fast "who can still checkmate" is decided, on random playouts:
//! the dead-position check a live game runs after every move (`Position::outcome`), and the
//! full decision for both sides on each playout's final position.
//!
//! `cargo run --profile fast -p vizier-rules --example deadbench [GAMES] [SEED]` (or `FILE`:
//! the final positions given as FENs, one a line); with `DEADBENCH_SHOW=1` it also lists the
//! full decisions that took over 5 ms (`DEADBENCH_SHOW=MS`: over MS) or were undecided, and the
//! final positions whose dead-position check took over 30 µs.

use std::time::Instant;
use vizier_rules::{Color, DEAD_CHECK_NODES, FULL_NODES, MateVerdict, Position};

/// One way to decide who can still checkmate.
type Decide<'a> = &'a dyn Fn(&Position, Color) -> MateVerdict;

fn main() {
    // `deadbench FILE`: the full and quick decisions on the FENs of FILE, one a line.
    if let Some(file) = std::env::args()
        .nth(1)
        .filter(|a| a.parse::<u64>().is_err())
    {
        let text = std::fs::read_to_string(&file).expect("a file of FENs");
        let finals: Vec<Position> = text
            .lines()
            .filter_map(|l| Position::from_fen(l.trim()).ok())
            .collect();
        decide(&finals);
        return;
    }
    let mut args = std::env::args()
        .skip(1)
        .map(|a| a.parse::<u64>().expect("numbers"));
    let games = args.next().unwrap_or(1000);
    let mut seed = args.next().unwrap_or(1) | 1;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut per_move = Vec::new();
    let mut finals = Vec::new();
    let mut dead = 0;
    for _ in 0..games {
        let mut pos = Position::new();
        for _ in 0..400 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[(next() % moves.len() as u64) as usize]);
            let start = Instant::now();
            let over = pos.outcome().is_some();
            per_move.push(start.elapsed().as_secs_f64() * 1e6);
            if over {
                dead += 1;
                break;
            }
        }
        finals.push(pos);
    }
    per_move.sort_by(f64::total_cmp);
    let pct = |v: &[f64], p: f64| v[((v.len() - 1) as f64 * p) as usize];
    println!(
        "per move (outcome after each move): {} moves, median {:.1} µs, mean {:.1} µs, p99 {:.1} µs, max {:.0} µs; {} games ended",
        per_move.len(),
        pct(&per_move, 0.5),
        per_move.iter().sum::<f64>() / per_move.len() as f64,
        pct(&per_move, 0.99),
        per_move.last().unwrap(),
        dead
    );
    decide(&finals);
}

/// Both decisions for both sides on each of `finals`, timed, and the dead-position check a
/// live game runs after a move.
fn decide(finals: &[Position]) {
    let pct = |v: &[f64], p: f64| v[((v.len() - 1) as f64 * p) as usize];
    let mut times = Vec::new();
    let mut dead = 0;
    for pos in finals {
        let start = Instant::now();
        dead += usize::from(pos.is_dead(DEAD_CHECK_NODES));
        let took = start.elapsed().as_secs_f64() * 1e6;
        times.push(took);
        if std::env::var_os("DEADBENCH_SHOW").is_some() && took > 30.0 {
            eprintln!("dead check {took:.0} µs: {}", pos.fen());
        }
    }
    let total: f64 = times.iter().sum();
    times.sort_by(f64::total_cmp);
    println!(
        "final positions, the per-move dead-position check: {} positions, {:.0} a second, mean {:.1} µs, median {:.1} µs, p99 {:.1} µs, {dead} dead",
        finals.len(),
        finals.len() as f64 / (total / 1e6),
        total / finals.len() as f64,
        pct(&times, 0.5),
        pct(&times, 0.99)
    );
    let stages: [(&str, Decide); 2] = [
        ("quick stage", &|pos, color| pos.quick_verdict(color)),
        ("full decision (200,000 nodes a side)", &|pos, color| {
            pos.mate_verdict(color, FULL_NODES)
        }),
    ];
    // `DEADBENCH_SHOW=MS` lists the full decisions slower than MS (5 when not a number).
    let show = std::env::var("DEADBENCH_SHOW")
        .ok()
        .map(|v| v.parse::<f64>().unwrap_or(5.0));
    for (name, decide) in stages {
        let mut times = Vec::new();
        let mut undecided = 0;
        // Time spent on each kind of answer: can, cannot, undecided.
        let mut by_kind = [(0usize, 0f64); 3];
        for pos in finals {
            let start = Instant::now();
            for color in Color::ALL {
                let one = Instant::now();
                let verdict = decide(pos, color);
                let kind = match verdict {
                    MateVerdict::Can(_) => 0,
                    MateVerdict::Cannot => 1,
                    MateVerdict::Undecided => 2,
                };
                by_kind[kind].0 += 1;
                by_kind[kind].1 += one.elapsed().as_secs_f64();
                if kind == 2 {
                    undecided += 1;
                }
                if let Some(slow) = show.filter(|_| name.starts_with("full")) {
                    let ms = one.elapsed().as_secs_f64() * 1e3;
                    if kind == 2 || ms > slow {
                        println!("  {ms:.1} ms {color:?} {kind} {}", pos.fen());
                    }
                }
            }
            times.push(start.elapsed().as_secs_f64() * 1e6);
        }
        for ((count, secs), kind) in by_kind.iter().zip(["can", "cannot", "undecided"]) {
            println!("  {name}: {count} answers {kind}, {secs:.2} s in all");
        }
        let total: f64 = times.iter().sum();
        times.sort_by(f64::total_cmp);
        println!(
            "final positions, {name}, both sides: {} positions, {:.0} a second, mean {:.1} µs, median {:.1} µs, max {:.0} µs, {undecided} answers undecided",
            finals.len(),
            finals.len() as f64 / (total / 1e6),
            total / finals.len() as f64,
            pct(&times, 0.5),
            times.last().unwrap()
        );
    }
}
