//! Fully legal move generation: pins, checks and double checks resolved up front, so every
//! generated move is legal and leaf nodes can be counted without playing them.

use crate::attacks;
use crate::{Bitboard, Color, Move, MoveList, Position, Role, Square};

/// Receives generated moves: as target sets (cheap to count) or one by one.
trait Sink {
    /// A non-pawn piece on `from` may move to each of `targets`.
    fn piece(&mut self, from: Square, targets: Bitboard);
    /// Pawns may move to each of `targets`, each from `to - delta`; last-rank targets promote.
    fn pawns(&mut self, targets: Bitboard, delta: i32);
    /// A castling or en passant move.
    fn special(&mut self, m: Move);
}

const PROMOTION_RANKS: Bitboard = Bitboard(0xff00_0000_0000_00ff);

struct Counter(usize);

impl Sink for Counter {
    #[inline]
    fn piece(&mut self, _from: Square, targets: Bitboard) {
        self.0 += targets.count() as usize;
    }
    #[inline]
    fn pawns(&mut self, targets: Bitboard, _delta: i32) {
        self.0 += (targets & !PROMOTION_RANKS).count() as usize
            + 4 * (targets & PROMOTION_RANKS).count() as usize;
    }
    #[inline]
    fn special(&mut self, _m: Move) {
        self.0 += 1;
    }
}

impl Sink for MoveList {
    #[inline]
    fn piece(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            self.push(Move::normal(from, to));
        }
    }
    #[inline]
    fn pawns(&mut self, targets: Bitboard, delta: i32) {
        for to in targets {
            let from =
                Square::new((to.index() as i32 - delta) as u8).expect("pawn origin on board");
            if PROMOTION_RANKS.contains(to) {
                for role in Role::PROMOTIONS {
                    self.push(Move::promote(from, to, role));
                }
            } else {
                self.push(Move::normal(from, to));
            }
        }
    }
    #[inline]
    fn special(&mut self, m: Move) {
        self.push(m);
    }
}

/// Collects the moves a SAN can mean: no castling (SAN writes it apart), and promotions only
/// to the piece it names. Keeps the first and counts the rest (more than one is ambiguous).
struct SanMatch {
    promotion: Option<Role>,
    first: Option<Move>,
    count: usize,
}

impl SanMatch {
    #[inline]
    fn found(&mut self, m: Move) {
        self.first.get_or_insert(m);
        self.count += 1;
    }
}

impl Sink for SanMatch {
    #[inline]
    fn piece(&mut self, from: Square, targets: Bitboard) {
        if self.promotion.is_none() {
            for to in targets {
                self.found(Move::normal(from, to));
            }
        }
    }
    #[inline]
    fn pawns(&mut self, targets: Bitboard, delta: i32) {
        for to in targets {
            let from =
                Square::new((to.index() as i32 - delta) as u8).expect("pawn origin on board");
            match self.promotion {
                Some(role) if PROMOTION_RANKS.contains(to) && Role::PROMOTIONS.contains(&role) => {
                    self.found(Move::promote(from, to, role));
                }
                None if !PROMOTION_RANKS.contains(to) => self.found(Move::normal(from, to)),
                _ => {}
            }
        }
    }
    #[inline]
    fn special(&mut self, m: Move) {
        if !m.is_castle() && self.promotion.is_none() {
            self.found(m);
        }
    }
}

impl Position {
    /// All legal moves.
    ///
    /// ```
    /// let pos = vizier_rules::Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1").unwrap();
    /// assert_eq!(pos.legal_moves().len(), 15); // 5 king moves, 9 rook moves, O-O
    /// ```
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(&mut list, Bitboard::FULL, Bitboard::FULL);
        list
    }

    /// The legal moves whose destination ([`Move::to`]; the rook's square for castling) is in
    /// `targets`: a quick way to find the moves that SAN or a click on a square can mean.
    ///
    /// ```
    /// use vizier_rules::{Position, Square};
    /// assert_eq!(Position::new().legal_moves_to(Square::F3.bb()).len(), 2); // Nf3 and f3
    /// ```
    pub fn legal_moves_to(&self, targets: Bitboard) -> MoveList {
        let mut list = MoveList::new();
        self.generate(&mut list, Bitboard::FULL, targets);
        list
    }

    /// The legal moves from a square in `from` (the king's for castling) to a square in `to`
    /// (the rook's for castling).
    pub(crate) fn legal_moves_between(&self, from: Bitboard, to: Bitboard) -> MoveList {
        let mut list = MoveList::new();
        self.generate(&mut list, from, to);
        list
    }

    /// The legal non-castling moves of a `role` piece from a square in `from` (pieces of that
    /// role) to `to` that promote to `promotion` (or do not promote): one of them and how many
    /// there are (more than one: the SAN is ambiguous).
    pub(crate) fn san_matches(
        &self,
        role: Role,
        from: Bitboard,
        to: Square,
        promotion: Option<Role>,
    ) -> (Option<Move>, usize) {
        if role == Role::King {
            // One king, one step (castling has its own notation): legal unless `to` is
            // attacked once the king has left its square.
            let us = self.turn;
            let king = self.king(us);
            let reaches = from.contains(king)
                && attacks::king(king).contains(to)
                && !self.by_color(us).contains(to)
                && promotion.is_none();
            return if reaches && !self.is_attacked(to, !us, self.occupied() ^ king.bb()) {
                (Some(Move::normal(king, to)), 1)
            } else {
                (None, 0)
            };
        }
        let Some(origins) = self.san_origins(role, from, to, promotion) else {
            // En passant: the general generator knows its rules.
            let mut matches = SanMatch {
                promotion,
                first: None,
                count: 0,
            };
            self.generate(&mut matches, from, to.bb());
            return (matches.first, matches.count);
        };
        let mut first = None;
        let mut count = 0;
        for origin in origins {
            if self.keeps_king_safe(origin, to) {
                count += 1;
                first.get_or_insert(match promotion {
                    Some(r) => Move::promote(origin, to, r),
                    None => Move::normal(origin, to),
                });
            }
        }
        (first, count)
    }

    /// Where a SAN's piece can come from before the king's safety is checked: the squares
    /// in `from` from which a piece of `role` reaches `to` (a piece attacks `to` from exactly
    /// the squares it would attack from `to`). `None` for the king and en passant.
    fn san_origins(
        &self,
        role: Role,
        from: Bitboard,
        to: Square,
        promotion: Option<Role>,
    ) -> Option<Bitboard> {
        let us = self.turn;
        if self.by_color(us).contains(to) {
            return Some(Bitboard::EMPTY);
        }
        let occ = self.occupied();
        match role {
            Role::King => None, // answered before
            Role::Pawn if self.ep_square == Some(to) => None,
            Role::Pawn => {
                let fits = match promotion {
                    None => !PROMOTION_RANKS.contains(to),
                    Some(r) => PROMOTION_RANKS.contains(to) && Role::PROMOTIONS.contains(&r),
                };
                if !fits {
                    return Some(Bitboard::EMPTY);
                }
                if self.by_color(!us).contains(to) {
                    return Some(attacks::pawn(!us, to) & from);
                }
                let (back, fourth_rank) = match us {
                    Color::White => (-8, 3),
                    Color::Black => (8, 4),
                };
                let one = to.offset(back)?;
                if from.contains(one) {
                    Some(one.bb())
                } else if to.rank() == fourth_rank && !occ.contains(one) {
                    Some(
                        one.offset(back)
                            .map_or(Bitboard::EMPTY, |two| two.bb() & from),
                    )
                } else {
                    Some(Bitboard::EMPTY)
                }
            }
            _ if promotion.is_some() => Some(Bitboard::EMPTY),
            Role::Bishop | Role::Rook | Role::Queen => {
                // Nearly always one or two pieces on the rays: a clear path between them and
                // the target (a small table) is cheaper than the slider lookup.
                let rays = match role {
                    Role::Bishop => attacks::bishop_rays(to),
                    Role::Rook => attacks::rook_rays(to),
                    _ => attacks::rook_rays(to) | attacks::bishop_rays(to),
                };
                let mut origins = Bitboard::EMPTY;
                for sq in rays & from {
                    if (attacks::between(sq, to) & occ).is_empty() {
                        origins |= sq.bb();
                    }
                }
                Some(origins)
            }
            _ => Some(attacks::of(role, us, to, occ) & from),
        }
    }

    /// Whether moving the piece on `from` (not the king, not en passant) to `to` leaves the
    /// side to move's king unattacked.
    fn keeps_king_safe(&self, from: Square, to: Square) -> bool {
        let us = self.turn;
        let king = self.king(us);
        let theirs = self.by_color(!us) & !to.bb();
        // Pieces that do not slide attack the king afterwards only if they did before.
        let steppers = (attacks::knight(king) & self.by_role(Role::Knight))
            | (attacks::pawn(us, king) & self.by_role(Role::Pawn))
            | (attacks::king(king) & self.by_role(Role::King));
        if (steppers & theirs).any() {
            return false;
        }
        // Sliders on the king's empty-board rays attack it if nothing stands between: the
        // small between-squares table stays in cache where the slider lookup would not.
        let occ = (self.occupied() ^ from.bb()) | to.bb();
        let queens = self.by_role(Role::Queen);
        let rq = (self.by_role(Role::Rook) | queens) & theirs;
        let bq = (self.by_role(Role::Bishop) | queens) & theirs;
        let snipers = (attacks::rook_rays(king) & rq) | (attacks::bishop_rays(king) & bq);
        snipers
            .into_iter()
            .all(|s| (attacks::between(s, king) & occ).any())
    }

    /// The number of legal moves, counted without listing them (for perft and mate tests).
    ///
    /// ```
    /// assert_eq!(vizier_rules::Position::new().count_legal_moves(), 20);
    /// ```
    pub fn count_legal_moves(&self) -> usize {
        let mut counter = Counter(0);
        self.generate(&mut counter, Bitboard::FULL, Bitboard::FULL);
        counter.0
    }

    /// Whether the side to move has at least one legal move.
    ///
    /// ```
    /// assert!(vizier_rules::Position::new().has_legal_moves());
    /// ```
    pub fn has_legal_moves(&self) -> bool {
        self.count_legal_moves() > 0
    }

    /// Whether `m` is legal here.
    ///
    /// ```
    /// use vizier_rules::{Move, Position, Square};
    /// assert!(Position::new().is_legal(Move::normal(Square::E2, Square::E4)));
    /// ```
    pub fn is_legal(&self, m: Move) -> bool {
        // Generating the moves of one piece to one square is cheap and shares every rule with
        // movegen.
        self.legal_moves_between(m.from().bb(), m.to().bb())
            .contains(&m)
    }

    /// The pieces of `us` pinned against their own king.
    fn pinned(&self, us: Color, king: Square) -> Bitboard {
        let them = !us;
        let occ = self.occupied();
        let rq = self.pieces(them, Role::Rook) | self.pieces(them, Role::Queen);
        let bq = self.pieces(them, Role::Bishop) | self.pieces(them, Role::Queen);
        let snipers = (attacks::rook(king, Bitboard::EMPTY) & rq)
            | (attacks::bishop(king, Bitboard::EMPTY) & bq);
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = attacks::between(king, sniper) & occ;
            if !blockers.more_than_one() {
                pinned |= blockers & self.by_color(us);
            }
        }
        pinned
    }

    /// Generates the legal moves whose [`Move::from`] is in `only_from` and whose
    /// [`Move::to`] is in `only_to` (all: `Bitboard::FULL` twice).
    fn generate<S: Sink>(&self, sink: &mut S, only_from: Bitboard, only_to: Bitboard) {
        let us = self.turn;
        let them = !us;
        let ours = self.by_color(us);
        let theirs = self.by_color(them);
        let occ = ours | theirs;
        let king = self.king(us);
        let king_moves = only_from.contains(king);

        // King steps: each target checked with the king lifted off the board, so it cannot
        // hide behind itself from a slider.
        if king_moves {
            let without_king = occ ^ king.bb();
            let mut king_targets = Bitboard::EMPTY;
            for to in attacks::king(king) & !ours & only_to {
                if !self.is_attacked(to, them, without_king) {
                    king_targets |= to.bb();
                }
            }
            sink.piece(king, king_targets);
        }

        let checkers = self.attackers_to(king, occ) & theirs;
        if checkers.more_than_one() {
            return;
        }
        let target = only_to
            & match checkers.first() {
                Some(checker) => attacks::between(king, checker) | checker.bb(),
                None => !ours,
            };
        let pinned = self.pinned(us, king);
        let movers = only_from & ours;

        for from in self.pieces(us, Role::Knight) & !pinned & movers {
            sink.piece(from, attacks::knight(from) & target);
        }
        let queens = self.pieces(us, Role::Queen) & movers;
        for from in ((self.pieces(us, Role::Bishop) & movers) | queens) & !pinned {
            sink.piece(from, attacks::bishop(from, occ) & target);
        }
        for from in ((self.pieces(us, Role::Rook) & movers) | queens) & !pinned {
            sink.piece(from, attacks::rook(from, occ) & target);
        }
        // A pinned slider may only move along the pin line (never when in check: the pin line
        // cannot also block or capture the checker).
        if checkers.is_empty() {
            for from in ((self.pieces(us, Role::Bishop) & movers) | queens) & pinned {
                sink.piece(
                    from,
                    attacks::bishop(from, occ) & target & attacks::line(king, from),
                );
            }
            for from in ((self.pieces(us, Role::Rook) & movers) | queens) & pinned {
                sink.piece(
                    from,
                    attacks::rook(from, occ) & target & attacks::line(king, from),
                );
            }
        }

        let pawns = self.pieces(us, Role::Pawn) & movers;
        self.generate_pawns(sink, pawns, target, pinned, king, checkers.is_empty());

        if let Some(ep) = self.ep_square.filter(|ep| only_to.contains(*ep)) {
            for from in attacks::pawn(them, ep) & pawns {
                if self.is_legal_en_passant(from, ep) {
                    sink.special(Move::en_passant(from, ep));
                }
            }
        }

        if checkers.is_empty() && king_moves {
            self.generate_castling(sink, king, only_to);
        }
    }

    fn generate_pawns<S: Sink>(
        &self,
        sink: &mut S,
        pawns: Bitboard,
        target: Bitboard,
        pinned: Bitboard,
        king: Square,
        not_in_check: bool,
    ) {
        let us = self.turn;
        let theirs = self.by_color(!us);
        let empty = !self.occupied();
        let (up, third_rank) = match us {
            Color::White => (8, Bitboard::rank(2)),
            Color::Black => (-8, Bitboard::rank(5)),
        };
        const NOT_A: Bitboard = Bitboard(!0x0101_0101_0101_0101);
        const NOT_H: Bitboard = Bitboard(!0x8080_8080_8080_8080);

        let free = pawns & !pinned;
        let single = free.shift(up) & empty;
        let double = (single & third_rank).shift(up) & empty;
        sink.pawns(single & target, up);
        sink.pawns(double & target, 2 * up);
        sink.pawns((free & NOT_A).shift(up - 1) & theirs & target, up - 1);
        sink.pawns((free & NOT_H).shift(up + 1) & theirs & target, up + 1);

        // Pinned pawns move only along the pin (and never while in check).
        if not_in_check {
            for from in pawns & pinned {
                let along = attacks::line(king, from);
                let fb = from.bb();
                let one = fb.shift(up) & empty;
                let two = (one & third_rank).shift(up) & empty;
                let captures = attacks::pawn(us, from) & theirs;
                for (targets, delta) in [
                    (one, up),
                    (two, 2 * up),
                    (captures & fb.shift(up - 1) & NOT_H, up - 1),
                    (captures & fb.shift(up + 1) & NOT_A, up + 1),
                ] {
                    sink.pawns(targets & along & target, delta);
                }
            }
        }
    }

    fn generate_castling<S: Sink>(&self, sink: &mut S, king: Square, only_to: Bitboard) {
        let us = self.turn;
        let them = !us;
        let back_rank = Bitboard::rank(us.back_rank());
        if !back_rank.contains(king) {
            return;
        }
        let occ = self.occupied();
        for rook in self.castling & back_rank & self.pieces(us, Role::Rook) & only_to {
            let (king_to, rook_to) = Position::castle_squares(us, king, rook);
            let king_path = attacks::between(king, king_to) | king_to.bb();
            let rook_path = attacks::between(rook, rook_to) | rook_to.bb();
            let movers = king.bb() | rook.bb();
            if ((king_path | rook_path) & occ & !movers).any() {
                continue;
            }
            // The squares the king crosses, seen without the king; the landing square seen as
            // after castling (the rook may have been shielding it, or may shield it).
            let without_king = occ ^ king.bb();
            if (attacks::between(king, king_to))
                .into_iter()
                .any(|sq| self.is_attacked(sq, them, without_king))
            {
                continue;
            }
            let after = (occ ^ movers) | king_to.bb() | rook_to.bb();
            if self.is_attacked(king_to, them, after) {
                continue;
            }
            sink.special(Move::castle(king, rook));
        }
    }
}

/// Counts the leaf nodes of the legal move tree to `depth` plies (leaves counted in bulk).
///
/// ```
/// assert_eq!(vizier_rules::perft(&vizier_rules::Position::new(), 3), 8_902);
/// ```
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves() as u64,
        _ => pos
            .legal_moves()
            .iter()
            .map(|&m| {
                let mut child = pos.clone();
                child.play_unchecked(m);
                perft(&child, depth - 1)
            })
            .sum(),
    }
}

/// Counts leaf nodes like [`perft`] but plays every leaf move (no bulk counting): a check on
/// make-move as well as generation, and the figure comparable with engines that do the same.
///
/// ```
/// assert_eq!(vizier_rules::perft_full(&vizier_rules::Position::new(), 3), 8_902);
/// ```
pub fn perft_full(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    pos.legal_moves()
        .iter()
        .map(|&m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            perft_full(&child, depth - 1)
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The SAN shortcut (candidate origins, then a king-safety test) must find exactly the
    /// moves the full generator finds, for every piece, target, promotion and origin mask,
    /// along random games from the perft suites' positions.
    #[test]
    fn san_matches_agree_with_the_generator() {
        let mut fens = Vec::new();
        for name in ["standard.perft", "chess960-middlegame.perft"] {
            let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
            let text = std::fs::read_to_string(path).expect("perft suite");
            fens.extend(
                text.lines()
                    .filter_map(|l| l.strip_prefix("epd "))
                    .map(str::to_owned),
            );
        }
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut random = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let promotions = [
            None,
            Some(Role::Knight),
            Some(Role::Queen),
            Some(Role::King),
        ];
        let mut checked = 0;
        for fen in fens.iter().step_by(7) {
            let mut pos = Position::from_fen_relaxed(fen).expect("suite FEN");
            for _ in 0..30 {
                for role in Role::ALL {
                    let pieces = pos.pieces(pos.turn(), role);
                    for mask in [pieces, pieces & Bitboard::file((random() % 8) as u8)] {
                        for to in Bitboard::FULL {
                            for promotion in promotions {
                                let mut reference = SanMatch {
                                    promotion,
                                    first: None,
                                    count: 0,
                                };
                                pos.generate(&mut reference, mask, to.bb());
                                let (first, count) = pos.san_matches(role, mask, to, promotion);
                                // Which move comes first matters only when it is the only one.
                                let first = first.filter(|_| count == 1);
                                let expected = reference.first.filter(|_| reference.count == 1);
                                assert_eq!(
                                    (first, count),
                                    (expected, reference.count),
                                    "{role:?} to {to} promoting {promotion:?} in {}",
                                    pos.fen()
                                );
                                checked += 1;
                            }
                        }
                    }
                }
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play_unchecked(moves[(random() % moves.len() as u64) as usize]);
            }
        }
        assert!(checked > 1_000_000, "{checked}");
    }
}
