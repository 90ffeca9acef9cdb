//! Static evaluation: tapered (middlegame/endgame) material, piece-square terms, mobility, pawn
//! structure, passed pawns and king safety, from the side to move's point of view.
//!
//! The terms are numbered features ([`features`]); their weights ([`weights`]) are fitted to
//! the results of our own games by the Texel tuner (`vizier tune`). The seam for a neural
//! evaluation is [`Evaluator`].

pub mod features;
pub mod weights;

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};

use features::Sink;
use vizier_rules::{Bitboard, Color, Position, Role};

use crate::see::VALUE;

/// Centipawns.
pub type Score = i32;

/// Anything that scores a position for the side to move.
pub trait Evaluator: Send + Sync {
    /// The score in centipawns from the side to move's point of view.
    fn evaluate(&self, pos: &Position) -> Score;
}

/// A middlegame and an endgame value, blended by the material left on the board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pair(pub Score, pub Score);

impl std::ops::Add for Pair {
    type Output = Pair;
    fn add(self, o: Pair) -> Pair {
        Pair(self.0 + o.0, self.1 + o.1)
    }
}

impl std::ops::AddAssign for Pair {
    fn add_assign(&mut self, o: Pair) {
        self.0 += o.0;
        self.1 += o.1;
    }
}

impl std::ops::Sub for Pair {
    type Output = Pair;
    fn sub(self, o: Pair) -> Pair {
        Pair(self.0 - o.0, self.1 - o.1)
    }
}

impl std::ops::Mul<Score> for Pair {
    type Output = Pair;
    fn mul(self, k: Score) -> Pair {
        Pair(self.0 * k, self.1 * k)
    }
}

/// Game phase from 0 (bare kings) to 24 (all pieces).
pub fn phase(pos: &Position) -> Score {
    let n = |r| pos.by_role(r).count() as Score;
    (n(Role::Knight) + n(Role::Bishop) + 2 * n(Role::Rook) + 4 * n(Role::Queen)).min(24)
}

/// The full endgame weight in [`endgame_scale`].
pub const FULL_SCALE: Score = 64;

/// How much of its endgame advantage `strong` can hope to turn into a win, in 64ths
/// ([`FULL_SCALE`]): none with a lone minor piece and no pawns, a quarter when a side without
/// pawns is at most a minor piece up (a rook against a minor piece, a rook and a minor
/// against a rook), half with bishops of opposite colours and no other pieces. Such endings
/// are mostly drawn however much material the terms count.
pub fn endgame_scale(pos: &Position, strong: Color) -> Score {
    let weak = !strong;
    let count = |c: Color, r: Role| pos.pieces(c, r).count() as Score;
    let value = |r: Role| VALUE[r.index()];
    let pieces = |c: Color| {
        [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
            .into_iter()
            .map(|r| value(r) * count(c, r))
            .sum::<Score>()
    };
    let (ours, theirs) = (pieces(strong), pieces(weak));
    if pos.pieces(strong, Role::Pawn).is_empty() && ours - theirs <= value(Role::Bishop) {
        return if ours < value(Role::Rook) {
            0
        } else {
            FULL_SCALE / 4
        };
    }
    let bishops = pos.by_role(Role::Bishop);
    let only_bishops =
        (pos.by_role(Role::Knight) | pos.by_role(Role::Rook) | pos.by_role(Role::Queen)).is_empty();
    if only_bishops
        && count(strong, Role::Bishop) == 1
        && count(weak, Role::Bishop) == 1
        && (bishops & Bitboard::DARK_SQUARES).count() == 1
    {
        return FULL_SCALE / 2;
    }
    FULL_SCALE
}

/// Blends a middlegame/endgame pair by the phase, the endgame part scaled by `scale` (in
/// 64ths, see [`endgame_scale`]).
pub fn taper(p: Pair, phase: Score, scale: Score) -> Score {
    (p.0 * phase * FULL_SCALE + p.1 * scale * (24 - phase)) / (24 * FULL_SCALE)
}

/// The default evaluation: every feature of [`features`] times its weight.
#[derive(Clone, Debug)]
pub struct Classical {
    weights: Box<[Pair; features::COUNT]>,
    /// Tells this evaluation's pawn-cache entries from those of another with other weights.
    id: u64,
}

/// The pawn-structure terms of one placement of the pawns, as one evaluation weighs them.
#[derive(Clone, Copy, Default)]
struct PawnEntry {
    pawns: [Bitboard; 2],
    owner: u64,
    sums: [Pair; 2],
    passers: [Bitboard; 2],
}

const PAWN_CACHE_BITS: u32 = 12;

thread_local! {
    /// Each search thread's pawn cache (owner 0 marks an empty slot).
    static PAWN_CACHE: RefCell<Vec<PawnEntry>> =
        RefCell::new(vec![PawnEntry::default(); 1 << PAWN_CACHE_BITS]);
}

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

impl Default for Classical {
    fn default() -> Classical {
        Classical::new(&weights::WEIGHTS)
    }
}

/// Sums weighted features per side.
struct Weighted<'a> {
    weights: &'a [Pair; features::COUNT],
    sums: [Pair; 2],
    /// Whose entries in the pawn cache to use (`None`: compute every time).
    cache_owner: Option<u64>,
}

impl Sink for Weighted<'_> {
    #[inline(always)]
    fn add(&mut self, feature: usize, color: Color, n: i32) {
        self.sums[color.index()] += self.weights[feature] * n;
    }

    fn pawns(&mut self, pawns: [Bitboard; 2]) -> [Bitboard; 2] {
        let Some(owner) = self.cache_owner else {
            return features::pawn_structure(pawns, self);
        };
        let slot = ((pawns[0].0 ^ pawns[1].0.rotate_left(32)).wrapping_mul(0x9E37_79B9_7F4A_7C15)
            >> (64 - PAWN_CACHE_BITS)) as usize;
        let cached = PAWN_CACHE.with_borrow(|cache| cache[slot]);
        let entry = if cached.owner == owner && cached.pawns == pawns {
            cached
        } else {
            let mut fresh = Weighted {
                weights: self.weights,
                sums: [Pair::default(); 2],
                cache_owner: None,
            };
            let passers = features::pawn_structure(pawns, &mut fresh);
            let entry = PawnEntry {
                pawns,
                owner,
                sums: fresh.sums,
                passers,
            };
            PAWN_CACHE.with_borrow_mut(|cache| cache[slot] = entry);
            entry
        };
        self.sums[0] += entry.sums[0];
        self.sums[1] += entry.sums[1];
        entry.passers
    }
}

impl Classical {
    /// An evaluation with these weights.
    ///
    /// ```
    /// use vizier_engine::eval::{Classical, Evaluator, weights::WEIGHTS};
    /// let pos = vizier_rules::Position::new();
    /// assert_eq!(Classical::new(&WEIGHTS).evaluate(&pos), Classical::default().evaluate(&pos));
    /// ```
    pub fn new(weights: &[Pair; features::COUNT]) -> Classical {
        Classical {
            weights: Box::new(*weights),
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
        }
    }

    /// The middlegame/endgame pair for White minus Black, the side to move's tempo included.
    ///
    /// ```
    /// use vizier_engine::eval::Classical;
    /// let p = Classical::default().terms(&vizier_rules::Position::new());
    /// assert!(p.0 > 0 && p.0 < 50); // level material, White to move
    /// ```
    pub fn terms(&self, pos: &Position) -> Pair {
        let mut sink = Weighted {
            weights: &self.weights,
            sums: [Pair::default(); 2],
            cache_owner: Some(self.id),
        };
        features::walk(pos, &mut sink);
        sink.sums[0] - sink.sums[1]
    }
}

impl Evaluator for Classical {
    fn evaluate(&self, pos: &Position) -> Score {
        let terms = self.terms(pos);
        let strong = if terms.1 >= 0 {
            Color::White
        } else {
            Color::Black
        };
        let white = taper(terms, phase(pos), endgame_scale(pos, strong));
        if pos.turn() == Color::White {
            white
        } else {
            -white
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetric_positions_score_the_same_for_both_sides() {
        let e = Classical::default();
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let mirrored = Position::from_fen(&mirror(fen)).unwrap();
            assert_eq!(e.evaluate(&pos), e.evaluate(&mirrored), "{fen}");
        }
    }

    #[test]
    fn the_pawn_cache_keeps_evaluations_with_other_weights_apart() {
        let tuned = Classical::default();
        let mut doubled = weights::WEIGHTS;
        for w in doubled.iter_mut() {
            *w = *w * 2;
        }
        let heavy = Classical::new(&doubled);
        let fen = "r1bqkbnr/pp1p1ppp/2n5/2p1p3/4P3/3P1N2/PPP2PPP/RNBQKB1R w KQkq - 0 4";
        let pos = Position::from_fen(fen).unwrap();
        let uncached = |e: &Classical| {
            let mut sink = Weighted {
                weights: &e.weights,
                sums: [Pair::default(); 2],
                cache_owner: None,
            };
            features::walk(&pos, &mut sink);
            sink.sums[0] - sink.sums[1]
        };
        // Twice each, interleaved: the second call of each is answered from the cache.
        for _ in 0..2 {
            assert_eq!(tuned.terms(&pos), uncached(&tuned));
            assert_eq!(heavy.terms(&pos), uncached(&heavy));
        }
        assert_eq!(heavy.terms(&pos), tuned.terms(&pos) * 2);
    }

    #[test]
    fn drawish_endings_count_less_of_the_endgame_score() {
        let scale = |fen: &str, strong| endgame_scale(&Position::from_fen(fen).unwrap(), strong);
        let (w, b) = (Color::White, Color::Black);
        // A lone minor piece cannot win; a rook against a minor piece rarely does.
        assert_eq!(scale("4k3/8/8/8/8/8/5p2/2B1K3 w - - 0 1", w), 0);
        assert_eq!(scale("4k3/8/8/2n5/8/8/8/3RK3 w - - 0 1", w), FULL_SCALE / 4);
        // The side with the pawns is not held back by the pawnless side's shortfall.
        assert_eq!(scale("4k3/4p3/8/2n5/8/8/8/3RK3 w - - 0 1", b), FULL_SCALE);
        assert_eq!(
            scale("4k3/4p3/8/2n5/8/8/8/3RK3 w - - 0 1", w),
            FULL_SCALE / 4
        );
        // Bishops of opposite colours alone; of the same colour, a normal ending.
        assert_eq!(
            scale("4k3/5b2/8/3P4/2P5/8/8/2B1K3 w - - 0 1", w),
            FULL_SCALE / 2
        );
        assert_eq!(
            scale("4k3/8/5b2/3P4/2P5/8/8/2B1K3 w - - 0 1", w),
            FULL_SCALE
        );
        assert_eq!(scale("4k3/8/8/3P4/2P5/8/8/3RK3 w - - 0 1", w), FULL_SCALE);
        // Mirrored, the same for the other side.
        assert_eq!(scale("2b1k3/5P2/8/8/8/8/8/4K3 b - - 0 1", b), 0);
        let e = Classical::default();
        let rook_vs_knight = Position::from_fen("4k3/8/8/2n5/8/8/8/3RK3 w - - 0 1").unwrap();
        assert!((0..100).contains(&e.evaluate(&rook_vs_knight)));
    }

    #[test]
    fn extra_material_is_better() {
        let e = Classical::default();
        let up = Position::from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap();
        assert!(e.evaluate(&up) > 700);
        let down = Position::from_fen("4k3/8/8/8/8/8/8/3QK3 b - - 0 1").unwrap();
        assert!(e.evaluate(&down) < -700);
    }

    fn mirror(fen: &str) -> String {
        let mut parts: Vec<String> = fen.split(' ').map(String::from).collect();
        let board: Vec<String> = parts[0]
            .split('/')
            .rev()
            .map(|r| {
                r.chars()
                    .map(|c| {
                        if c.is_ascii_uppercase() {
                            c.to_ascii_lowercase()
                        } else {
                            c.to_ascii_uppercase()
                        }
                    })
                    .collect()
            })
            .collect();
        parts[0] = board.join("/");
        parts[1] = if parts[1] == "w" {
            "b".into()
        } else {
            "w".into()
        };
        parts[2] = parts[2]
            .chars()
            .map(|c| {
                if c.is_ascii_uppercase() {
                    c.to_ascii_lowercase()
                } else {
                    c.to_ascii_uppercase()
                }
            })
            .collect();
        parts.join(" ")
    }
}
