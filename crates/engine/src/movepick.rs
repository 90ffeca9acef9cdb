//! Move ordering: the moves of a node handed out best first — the table's move, good captures
//! by SEE, the piece taken and their history, killers, the counter-move, escapes from a
//! cheaper attacker, then quiet moves by their history — and what the search asks of a move
//! before playing it (whether it is quiet, whether it checks).

use vizier_rules::{Bitboard, Move, MoveList, Position, Role, attacks};

/// Move-ordering score of a quiet move that saves a piece attacked by a cheaper one.
pub(crate) const ESCAPE: i32 = 870_000;

/// Squares the opponent attacks with pieces cheaper than ours: a knight or bishop attacked by a
/// pawn, a rook by a minor piece, a queen by a rook is lost unless it moves.
pub(crate) struct Threats {
    by_pawns: Bitboard,
    by_minors: Bitboard,
    by_rooks: Bitboard,
}

impl Threats {
    pub(crate) fn new(pos: &Position) -> Threats {
        let them = !pos.turn();
        let occupied = pos.occupied();
        let by_pawns = attacks::pawns(them, pos.pieces(them, Role::Pawn));
        let mut by_minors = by_pawns;
        for sq in pos.pieces(them, Role::Knight) {
            by_minors |= attacks::knight(sq);
        }
        for sq in pos.pieces(them, Role::Bishop) {
            by_minors |= attacks::bishop(sq, occupied);
        }
        let mut by_rooks = by_minors;
        for sq in pos.pieces(them, Role::Rook) {
            by_rooks |= attacks::rook(sq, occupied);
        }
        Threats {
            by_pawns,
            by_minors,
            by_rooks,
        }
    }

    /// Whether quiet move `m` takes a threatened piece to a square free of that threat.
    pub(crate) fn escapes(&self, pos: &Position, m: Move) -> bool {
        let threat = match pos.piece_at(m.from()).map(|p| p.role) {
            Some(Role::Knight | Role::Bishop) => self.by_pawns,
            Some(Role::Rook) => self.by_minors,
            Some(Role::Queen) => self.by_rooks,
            _ => return false,
        };
        threat.contains(m.from()) && !threat.contains(m.to())
    }
}

/// A node's moves, handed out best first by their ordering scores. The scores live in the
/// worker, one row per ply, so that no node clears or copies a score array of its own.
pub(crate) struct Picker {
    pub(crate) moves: MoveList,
    pub(crate) next: usize,
}

impl Picker {
    /// All the moves, best first by `scores`, keeping the generation order among equals
    /// (quiescence lists are short and mostly searched in full).
    pub(crate) fn sorted(mut self, scores: &mut [i32]) -> MoveList {
        let moves = self.moves.as_mut_slice();
        for i in 1..moves.len() {
            let (m, score) = (moves[i], scores[i]);
            let mut j = i;
            while j > 0 && scores[j - 1] < score {
                moves[j] = moves[j - 1];
                scores[j] = scores[j - 1];
                j -= 1;
            }
            moves[j] = m;
            scores[j] = score;
        }
        self.moves
    }

    /// The best remaining move by `scores` and its score (selection sort: most nodes cut off
    /// early, so sorting everything would be wasted). Ties go to the later move.
    pub(crate) fn pick(&mut self, scores: &mut [i32]) -> Option<(Move, i32)> {
        let (i, len) = (self.next, self.moves.len());
        if i >= len {
            return None;
        }
        let mut j = i;
        for k in i + 1..len {
            if scores[k] >= scores[j] {
                j = k;
            }
        }
        self.moves.as_mut_slice().swap(i, j);
        scores.swap(i, j);
        self.next += 1;
        Some((self.moves[i], scores[i]))
    }
}

/// Whether `m` checks the opponent's king, directly or by uncovering a slider, without
/// playing it (castling and en passant, rare and awkward, count as checks).
pub(crate) fn gives_check(pos: &Position, m: Move) -> bool {
    if m.is_castle() || m.is_en_passant() {
        return true;
    }
    let Some(piece) = pos.piece_at(m.from()) else {
        return false;
    };
    let us = pos.turn();
    let king = pos.king(!us);
    let occupied = (pos.occupied() ^ m.from().bb()) | m.to().bb();
    let role = m.promotion().unwrap_or(piece.role);
    if attacks::of(role, us, m.to(), occupied).contains(king) {
        return true;
    }
    let others = pos.by_color(us) ^ m.from().bb();
    let queens = pos.by_role(Role::Queen);
    let diagonal = (pos.by_role(Role::Bishop) | queens) & others;
    let straight = (pos.by_role(Role::Rook) | queens) & others;
    (attacks::bishop(king, occupied) & diagonal).any()
        || (attacks::rook(king, occupied) & straight).any()
}

/// Neither a capture nor a promotion: the moves history orders, prunes and reduces.
pub fn is_quiet(pos: &Position, m: Move) -> bool {
    !pos.is_capture_move(m) && m.promotion().is_none()
}
