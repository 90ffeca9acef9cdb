//! What a search thread learns and keeps from one move of a game to the next: the history of
//! quiet moves (from–to, and after the moves one and two plies before), of captures, the usual
//! answer to each move, and how far the evaluation misjudges each pawn structure. The search
//! orders, prunes and reduces by it ([`crate::movepick`]) and corrects its evaluations.

use vizier_rules::{Color, Move, Position, Role};

/// What a search thread learns that is worth keeping from one move of a game to the next: which
/// quiet moves tended to refute, the usual answer to each move, and how far the evaluation
/// misjudges the game's pawn structures.
pub struct Memory {
    pub(crate) history: [[[i32; 64]; 64]; 2],
    /// Continuation history: how a quiet move (piece and target) fared after a given move one
    /// or two plies earlier, indexed by [`Continuation`] pairs.
    pub(crate) continuation: Vec<[i16; 768]>,
    pub(crate) counters: [[Option<Move>; 64]; 64],
    /// Capture history: how a capture (moving piece and target, as [`continuation`], and the
    /// kind of piece taken) has fared.
    pub(crate) captures: Vec<[i16; 6]>,
    /// By side to move and pawn placement (see [`pawn_index`]), in 1/[`CORRECTION_GRAIN`] cp.
    pub(crate) correction: [[i32; CORRECTION_SIZE]; 2],
}

impl Memory {
    pub(crate) fn new() -> Box<Memory> {
        Box::new(Memory {
            history: [[[0; 64]; 64]; 2],
            continuation: vec![[0; 768]; 768],
            counters: [[None; 64]; 64],
            captures: vec![[0; 6]; 768],
            correction: [[0; CORRECTION_SIZE]; 2],
        })
    }
}

/// Entries of the correction table (per side to move), indexed by the pawn placement.
pub(crate) const CORRECTION_SIZE: usize = 16_384;
/// Corrections are kept in 1/256 of a centipawn, so that small updates add up.
pub(crate) const CORRECTION_GRAIN: i32 = 256;
/// The largest correction, in centipawns.
pub(crate) const CORRECTION_MAX: i32 = 64;

/// The correction table's slot for `pos`'s pawns.
pub(crate) fn pawn_index(pos: &Position) -> usize {
    let w = pos.pieces(Color::White, Role::Pawn).0;
    let b = pos.pieces(Color::Black, Role::Pawn).0;
    let h = w.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ b.wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    (h >> (64 - CORRECTION_SIZE.trailing_zeros())) as usize
}

/// A move as continuation history sees it: the moving piece (colour and kind) and its target,
/// `piece · 64 + to`.
pub(crate) type Continuation = u16;

pub(crate) fn continuation(pos: &Position, m: Move) -> Continuation {
    let role = pos.piece_at(m.from()).map_or(0, |p| p.role.index());
    ((pos.turn().index() * 6 + role) * 64 + m.to().index()) as Continuation
}

/// The kind of piece `m` takes (a pawn for en passant and for a promotion without capture),
/// for the capture history.
pub(crate) fn victim(pos: &Position, m: Move) -> usize {
    pos.piece_at(m.to()).map_or(0, |p| p.role.index())
}
