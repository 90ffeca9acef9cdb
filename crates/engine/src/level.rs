//! Playing levels for people: weaker levels search shallower and, among the moves that are
//! nearly as good as the best, pick one at random, so that their mistakes look like a person's
//! (a slightly worse move) rather than a blunder machine's.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Instant;

use vizier_rules::{Move, Position};

use crate::eval::{Classical, Evaluator, Score};
use crate::nnue::Network;
use crate::random::mix;
use crate::search::{self, Job, Limits, MATE_BOUND, Report, SearchResult, Shared};

/// The lowest level.
pub const MIN: u8 = 1;
/// The highest level: full strength within the clock.
pub const MAX: u8 = 10;

/// Measured strength: (level, Elo, 95% half-interval), a joint fit of matches at 10+0.1
/// against Stockfish 15.1 limited by `UCI_Elo` and between levels (`docs/level-calibration.log`,
/// `tools/calibrate_levels.py`; docs/engine.md has the table). A level absent here claims nothing.
pub const MEASURED: &[(u8, i32, i32)] = &[
    (1, 584, 335),
    (2, 762, 312),
    (3, 925, 304),
    (4, 1325, 203),
    (5, 1412, 187),
    (6, 1541, 171),
    (7, 1780, 163),
    (8, 1985, 166),
    (9, 2070, 109),
    (10, 2323, 48),
];

/// The measured Elo of `level`, if measured.
///
/// ```
/// use vizier_engine::level;
/// for &(l, elo, _) in level::MEASURED {
///     assert_eq!(level::elo(l), Some(elo));
/// }
/// assert_eq!(level::elo(level::MAX + 1), None);
/// ```
pub fn elo(level: u8) -> Option<i32> {
    MEASURED.iter().find(|m| m.0 == level).map(|m| m.1)
}

/// The measured level closest to `elo` (`None` while none is measured): what `UCI_Elo`
/// selects.
///
/// ```
/// use vizier_engine::level;
/// if let Some(&(l, elo, _)) = level::MEASURED.first() {
///     assert_eq!(level::for_elo(elo), Some(l));
/// }
/// ```
pub fn for_elo(elo: i32) -> Option<u8> {
    MEASURED
        .iter()
        .min_by_key(|m| (m.1 - elo).abs())
        .map(|m| m.0)
}

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
    /// Misjudgement: each position's evaluation is off by up to this many centipawns, the
    /// same way every time it is seen in a game (a person's blind spot, not a dice roll).
    pub noise: Score,
    /// Evaluate with the neural network ([`crate::nnue`]) rather than the classical terms.
    pub neural: bool,
}

/// The search style of `level` (clamped to `MIN..=MAX`).
///
/// ```
/// use vizier_engine::level;
/// assert_eq!(level::style(1).depth, Some(1));
/// assert_eq!(level::style(level::MAX).lines, 1);
/// ```
pub fn style(level: u8) -> Style {
    let (depth, nodes, lines, margin, noise) = match level.clamp(MIN, MAX) {
        1 => (Some(1), None, 6, 300, 250),
        2 => (Some(1), None, 5, 200, 150),
        3 => (Some(1), None, 5, 140, 100),
        4 => (Some(2), None, 4, 100, 70),
        5 => (Some(3), None, 3, 70, 50),
        6 => (Some(4), None, 3, 45, 35),
        7 => (Some(6), Some(10_000), 2, 25, 20),
        8 => (None, Some(30_000), 2, 10, 10),
        9 => (None, Some(100_000), 1, 0, 0),
        _ => (None, None, 1, 0, 0),
    };
    Style {
        depth,
        nodes,
        lines,
        margin,
        noise,
        neural: level >= MAX && crate::nnue::BY_DEFAULT,
    }
}

/// An evaluation misjudged by a fixed amount per position.
struct Misjudging<'a> {
    inner: &'a dyn Evaluator,
    noise: Score,
    seed: u64,
}

impl Evaluator for Misjudging<'_> {
    fn evaluate(&self, pos: &Position) -> Score {
        let spread = 2 * self.noise as u64 + 1;
        self.inner.evaluate(pos) + (mix(pos.hash() ^ self.seed) % spread) as Score - self.noise
    }
}

/// Searches `job` the way `style` plays: within its depth and node caps, with its evaluation
/// noise, choosing among the lines nearly as good as the best. `seed` is the game's: it fixes
/// the misjudgements for the whole game and, with the position, the choice (same seed and
/// position, same move). Reports like [`search::search`]; the outcome's move is the chosen one.
pub fn search(
    shared: &Arc<Shared>,
    style: &Style,
    job: &Job,
    seed: u64,
    report: &mut dyn FnMut(&Report),
) -> SearchResult {
    search_with(shared, style, None, job, seed, report)
}

/// [`search()`], evaluating with `eval` instead of the style's own evaluation where given.
pub(crate) fn search_with(
    shared: &Arc<Shared>,
    style: &Style,
    eval: Option<&dyn Evaluator>,
    job: &Job,
    seed: u64,
    report: &mut dyn FnMut(&Report),
) -> SearchResult {
    let classical = Classical::default();
    let noisy = Misjudging {
        inner: &classical,
        noise: style.noise,
        seed,
    };
    let eval: &dyn Evaluator = if let Some(eval) = eval {
        eval
    } else if style.neural {
        Network::embedded()
    } else if style.noise > 0 {
        &noisy
    } else {
        &classical
    };
    let cap = |a: Option<i32>, b: Option<i32>| a.into_iter().chain(b).min();
    let limits = Limits {
        depth: cap(job.limits.depth, style.depth),
        nodes: job.limits.nodes.into_iter().chain(style.nodes).min(),
        multipv: style.lines.max(job.limits.multipv),
        ..job.limits.clone()
    };
    let first = Job {
        limits: &limits,
        threads: 1,
        ..*job
    };
    // Per line, the latest exact score of a completed depth.
    let mut lines: Vec<(i32, Score, Move)> = Vec::new();
    let mut record = |r: &Report| {
        report(r);
        let Some(&mv) = r.pv.first() else { return };
        if r.bound.is_some() {
            return;
        }
        lines.retain(|&(_, _, m)| m != mv);
        lines.retain(|&(d, _, _)| d >= r.depth);
        lines.push((r.depth, r.score, mv));
    };
    let mut out = search::search(shared, eval, &first, &mut record);
    let Some(best) = out.best else { return out };
    let best_score = lines.iter().map(|l| l.1).max().unwrap_or(out.score);
    // Never give away a mate we have, nor walk into one we can avoid; and when the clock or a
    // "stop" ended the search, there is no time to check the alternatives.
    if best_score.abs() >= MATE_BOUND || style.lines == 1 || shared.stop.load(Ordering::Relaxed) {
        return out;
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
        let check = Job {
            limits: &alone,
            start: Instant::now(),
            ..first
        };
        let checked = search::search(shared, eval, &check, &mut |_| {});
        if shared.stop.load(Ordering::Relaxed) {
            break;
        }
        if checked.score >= best_score - style.margin && checked.score > -MATE_BOUND {
            candidates.push(mv);
        }
    }
    let chosen = candidates[(mix(seed ^ job.pos.hash()) % candidates.len() as u64) as usize];
    if chosen != best {
        out.best = Some(chosen);
        out.ponder = None;
    }
    out
}

/// Chooses a move for the side to move of `job` at `style`, within the time limits already
/// set in `shared`. `None` only when there is no legal move. The front door for this is
/// [`crate::Player`].
pub(crate) fn choose(
    shared: &Arc<Shared>,
    style: &Style,
    eval: Option<&dyn Evaluator>,
    job: &Job,
    seed: u64,
) -> Option<Move> {
    let legal = job.pos.legal_moves();
    if legal.len() <= 1 {
        return legal.first().copied();
    }
    search_with(shared, style, eval, job, seed, &mut |_| {}).best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Player;
    use vizier_rules::History;

    fn choose_at(level: u8, seed: u64, pos: &Position) -> Option<Move> {
        Player::new(level, seed)
            .with_hash(1)
            .choose(&History::new(pos.clone()), None)
    }

    #[test]
    fn every_level_takes_a_free_queen() {
        // Black's queen on d5 hangs to the pawn on e4. (Before the search tried a threatened
        // piece's escapes early, depths 2-3 thought Qf3 or Nc3 won the queen as well.)
        let pos =
            Position::from_fen("rnb1kbnr/ppp1pppp/8/3q4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3")
                .unwrap();
        for level in MIN..=6 {
            for seed in 0..3 {
                let mv = choose_at(level, seed, &pos).unwrap();
                assert_eq!(
                    pos.uci(mv, vizier_rules::UciCastling::KingStep),
                    "e4d5",
                    "level {level} seed {seed}"
                );
            }
        }
    }

    #[test]
    fn weak_levels_vary_and_stay_legal() {
        let pos = Position::new();
        let mut seen = std::collections::HashSet::new();
        for seed in 0..12 {
            let mv = choose_at(1, seed, &pos).unwrap();
            assert!(pos.legal_moves().contains(&mv));
            seen.insert(mv);
        }
        assert!(
            seen.len() > 1,
            "level 1 always played the same opening move"
        );
    }

    #[test]
    fn measured_levels_grow_stronger() {
        assert!(
            MEASURED
                .windows(2)
                .all(|w| w[0].0 < w[1].0 && w[0].1 < w[1].1)
        );
        for &(level, elo, _) in MEASURED {
            assert_eq!(for_elo(elo), Some(level));
        }
        assert_eq!(for_elo(0), MEASURED.first().map(|m| m.0));
        assert_eq!(for_elo(5_000), MEASURED.last().map(|m| m.0));
    }

    #[test]
    fn mates_in_one_are_found_at_every_level() {
        let pos = Position::from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").unwrap();
        for level in MIN..=MAX {
            let mv = choose_at(level, 1, &pos).unwrap();
            assert_eq!(
                pos.uci(mv, vizier_rules::UciCastling::KingStep),
                "a1a8",
                "level {level}"
            );
        }
    }
}
