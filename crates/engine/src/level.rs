//! Playing levels for people: weaker levels search shallower and, among the moves that are
//! nearly as good as the best, pick one at random, so that their mistakes look like a person's
//! (a slightly worse move) rather than a blunder machine's.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Instant;

use vizier_rules::{Move, Position};

use crate::eval::{Classical, Score};
use crate::search::{self, Limits, MATE_BOUND, Report, Shared};
use crate::timeman;

/// The lowest level.
pub const MIN: u8 = 1;
/// The highest level: full strength within the clock.
pub const MAX: u8 = 8;

/// How one level searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Style {
    /// Depth cap (`None`: as deep as time allows).
    pub depth: Option<i32>,
    /// Node cap (`None`: as many as time allows).
    pub nodes: Option<u64>,
    /// Lines searched to choose among.
    pub lines: usize,
    /// A line within this many centipawns of the best may be chosen.
    pub margin: Score,
}

/// The search style of `level` (clamped to `MIN..=MAX`).
///
/// ```
/// use vizier_engine::level;
/// assert_eq!(level::style(1).depth, Some(1));
/// assert_eq!(level::style(level::MAX).lines, 1);
/// ```
pub fn style(level: u8) -> Style {
    let (depth, nodes, lines, margin) = match level.clamp(MIN, MAX) {
        1 => (Some(1), None, 6, 250),
        2 => (Some(2), None, 5, 150),
        3 => (Some(3), None, 4, 90),
        4 => (Some(4), None, 3, 50),
        5 => (Some(6), Some(60_000), 2, 25),
        6 => (Some(9), Some(300_000), 2, 10),
        7 => (None, Some(1_500_000), 1, 0),
        _ => (None, None, 1, 0),
    };
    Style {
        depth,
        nodes,
        lines,
        margin,
    }
}

/// The clock of the side to move, if the game has one.
pub type Clock = Option<timeman::Clock>;

/// Chooses a move for the side to move at `level`. `game_keys` are the repetition keys of the
/// game's earlier positions; `seed` drives the choice among nearly equal moves (the same seed
/// gives the same move). `None` only when there is no legal move.
///
/// ```
/// use vizier_engine::level;
/// use vizier_rules::Position;
/// let pos = Position::new();
/// let mv = level::choose(&pos, &[], 2, None, 7).unwrap();
/// assert!(pos.legal_moves().contains(&mv));
/// ```
pub fn choose(
    pos: &Position,
    game_keys: &[u64],
    level: u8,
    clock: Clock,
    seed: u64,
) -> Option<Move> {
    let style = style(level);
    let legal = pos.legal_moves();
    if legal.len() <= 1 {
        return legal.first().copied();
    }
    let shared = Arc::new(Shared::new(16));
    let (soft, hard) = match clock {
        Some(c) => timeman::allocate(c, 100),
        // Without a clock the top level still answers in reasonable time.
        None => (2_000, 8_000),
    };
    shared.soft_ms.store(soft, Ordering::Relaxed);
    shared.hard_ms.store(hard, Ordering::Relaxed);
    let limits = Limits {
        depth: style.depth,
        nodes: style.nodes,
        multipv: style.lines.min(legal.len()),
        ..Limits::default()
    };
    // Per line, the latest exact score of a completed depth.
    let mut lines: Vec<(i32, Score, Move)> = Vec::new();
    let mut record = |r: &Report| {
        let Some(&mv) = r.pv.first() else { return };
        if r.bound.is_some() {
            return;
        }
        lines.retain(|&(_, _, m)| m != mv);
        lines.retain(|&(d, _, _)| d >= r.depth);
        lines.push((r.depth, r.score, mv));
    };
    let job = search::Job {
        pos,
        game_keys,
        limits: &limits,
        threads: 1,
        start: Instant::now(),
    };
    let out = search::search(&shared, &Classical::default(), &job, &mut record);
    let best = out.best?;
    let best_score = lines.iter().map(|l| l.1).max().unwrap_or(out.score);
    // Never give away a mate we have, nor walk into one we can avoid.
    if best_score.abs() >= MATE_BOUND || style.lines == 1 {
        return Some(best);
    }
    // Lines after the first are searched with narrow windows and can come back with inflated
    // scores: each candidate's score is checked by a search of that move alone.
    let mut candidates = vec![best];
    for &(_, score, mv) in &lines {
        if mv == best || score < best_score - style.margin {
            continue;
        }
        let alone = Limits {
            searchmoves: vec![mv],
            multipv: 1,
            ..limits.clone()
        };
        let job = search::Job {
            limits: &alone,
            start: Instant::now(),
            ..job
        };
        let checked = search::search(&shared, &Classical::default(), &job, &mut |_| {});
        if checked.score >= best_score - style.margin && checked.score > -MATE_BOUND {
            candidates.push(mv);
        }
    }
    Some(candidates[(mix(seed) % candidates.len() as u64) as usize])
}

/// SplitMix64: spreads a seed over all bits.
fn mix(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_level_takes_a_free_queen() {
        // Black's queen on d5 hangs to the pawn on e4. (Before the search tried a threatened
        // piece's escapes early, depths 2-3 thought Qf3 or Nc3 won the queen as well.)
        let pos =
            Position::from_fen("rnb1kbnr/ppp1pppp/8/3q4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3")
                .unwrap();
        for level in MIN..=6 {
            for seed in 0..3 {
                let mv = choose(&pos, &[], level, None, seed).unwrap();
                assert_eq!(pos.uci(mv, false), "e4d5", "level {level} seed {seed}");
            }
        }
    }

    #[test]
    fn weak_levels_vary_and_stay_legal() {
        let pos = Position::new();
        let mut seen = std::collections::HashSet::new();
        for seed in 0..12 {
            let mv = choose(&pos, &[], 1, None, seed).unwrap();
            assert!(pos.legal_moves().contains(&mv));
            seen.insert(mv);
        }
        assert!(
            seen.len() > 1,
            "level 1 always played the same opening move"
        );
    }

    #[test]
    fn mates_in_one_are_found_at_every_level() {
        let pos = Position::from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").unwrap();
        for level in MIN..=MAX {
            let mv = choose(&pos, &[], level, None, 1).unwrap();
            assert_eq!(pos.uci(mv, false), "a1a8", "level {level}");
        }
    }
}
