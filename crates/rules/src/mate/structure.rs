//! The static proof: an abstract search over pawn structures. A piece is abstracted to the
//! region of squares it can walk to while the pawns stand still; only pawn moves and captures
//! that involve a pawn change the structure, and each of those is followed for every square
//! of the regions. When no structure reachable this way lets the winner give a check that
//! could be mate, the winner can never checkmate.
//!
//! Every step over-approximates what real play can do (pieces never block one another,
//! captures of pieces by pieces are ignored, which only keeps more pieces on the board), so
//! a "never" is a proof. One capture is followed: a king takes a pawn guarded at contact by
//! a piece shut in by the pawns only with that piece taken first. Any possible promotion, or more
//! structures than the budget, gives up.

use crate::{Bitboard, Color, Position, Role, Square, attacks};
use foldhash::{HashMap, HashSet, HashSetExt};

mod tempo;

#[derive(Clone, PartialEq, Eq, Hash)]
struct Piece {
    color: Color,
    role: Role,
    region: Bitboard,
}

#[derive(Clone, PartialEq, Eq, Hash)]
struct Structure {
    pawns: [Bitboard; 2],
    pieces: Vec<Piece>,
}

/// A pawn move of the abstraction: the structure after it (its regions not yet grown
/// again), the square the pawn went to and, for a double step, the square it skipped.
struct PawnMove {
    next: Structure,
    to: Square,
    skipped: Option<Square>,
}

/// Proofs already made in one search, by starting structure: positions whose pieces only
/// moved within their regions share one.
#[derive(Default)]
pub(super) struct Proofs {
    known: HashMap<(Color, Structure), Found>,
}

/// What the structure search found.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Found {
    /// No structure lets the winner mate.
    Never,
    /// Some structure may let the winner mate, or a pawn may promote: the search with the
    /// kings exact may still prove it.
    Open,
    /// A pawn free to run, or more structures than the budget.
    GaveUp,
}

impl Proofs {
    /// Whether a static rule proves that `winner` can never checkmate from `pos`: material
    /// that never mates, or the structure search within `budget` structures. `false` means
    /// "not proven". Remembered by starting structure.
    /// With a budget of 0 only material is looked at.
    pub(super) fn cannot(&mut self, pos: &Position, winner: Color, budget: usize) -> bool {
        self.found(pos, winner, budget) == Found::Never
    }

    /// [`Proofs::cannot`], and where the structure search leaves it open, the search with the
    /// kings exact and the side to move known ([`tempo`]) within `states` states.
    pub(super) fn cannot_exactly(
        &mut self,
        pos: &Position,
        winner: Color,
        budget: usize,
        states: usize,
    ) -> bool {
        match self.found(pos, winner, budget) {
            Found::Never => true,
            Found::Open => exactly_never(pos, winner, states),
            Found::GaveUp => false,
        }
    }

    /// What the structure search finds for `winner` from `pos` within `budget` structures.
    pub(super) fn found(&mut self, pos: &Position, winner: Color, budget: usize) -> Found {
        if pos.has_insufficient_material(winner) {
            return Found::Never;
        }
        if budget == 0 || attacker_near_king(pos, winner) {
            return Found::GaveUp;
        }
        let Some(start) = Structure::of(pos, winner) else {
            return Found::GaveUp;
        };
        *self
            .known
            .entry((winner, start.clone()))
            .or_insert_with(|| search(start, winner, budget))
    }
}

/// Whether the search with the kings exact ([`tempo`]) proves within `states` states that
/// `winner` can never checkmate from `pos`.
pub(super) fn exactly_never(pos: &Position, winner: Color, states: usize) -> bool {
    states > 0 && tempo::never(pos, winner, states)
}

pub(super) use tempo::a_side_moves_only_its_king;

/// Whether a knight, rook or queen of `winner` that can move can walk to where it attacks a
/// square next to the loser's king region: then the starting structure may mate and nothing
/// is proven. The same test the structure search starts with ([`Structure::may_mate`]),
/// made without building the structure — on an open board it settles the question in two
/// floods.
fn attacker_near_king(pos: &Position, winner: Color) -> bool {
    let pawns = pos.by_role(Role::Pawn);
    let attackers = pos.by_color(winner)
        & (pos.by_role(Role::Knight) | pos.by_role(Role::Rook) | pos.by_role(Role::Queen));
    if attackers.is_empty() {
        return false;
    }
    let loser_king = pos.king(!winner).bb();
    let avoid = attacks::pawns(winner, pawns & pos.by_color(winner));
    let king_region = flood(Role::King, !winner, loser_king, pawns, avoid);
    let near_king = king_region | around(king_region);
    attackers.into_iter().any(|sq| {
        let role = pos.piece_at(sq).expect("occupied").role;
        let region = flood(role, winner, sq.bb(), pawns, Bitboard::EMPTY);
        region.count() > 1
            && region
                .into_iter()
                .any(|from| (attacks::of(role, winner, from, pawns) & near_king).any())
    })
}

fn search(start: Structure, winner: Color, budget: usize) -> Found {
    // The search would give up on reaching that promotion; most open positions end here.
    if start.has_free_runner() {
        return Found::GaveUp;
    }
    let mut seen = HashSet::new();
    let mut todo = vec![start];
    while let Some(s) = todo.pop() {
        if !seen.insert(s.clone()) {
            continue;
        }
        if seen.len() > budget {
            return Found::GaveUp;
        }
        if s.may_mate(winner) {
            return Found::Open;
        }
        let mut next = Vec::new();
        if !s.successors(&mut next) {
            return Found::Open;
        }
        todo.extend(next.into_iter().filter(|n| !seen.contains(n)));
    }
    Found::Never
}

impl Structure {
    /// The structure of `pos`, regions spread; `None` where this abstraction cannot start
    /// (an en passant right, or the loser in check from a pawn).
    fn of(pos: &Position, winner: Color) -> Option<Structure> {
        let pawns = [
            pos.pieces(Color::White, Role::Pawn),
            pos.pieces(Color::Black, Role::Pawn),
        ];
        if pos.ep_square().is_some()
            || attacks::pawns(winner, pawns[winner.index()]).contains(pos.king(!winner))
        {
            return None;
        }
        let mut pieces = Vec::new();
        for sq in pos.occupied() & !pos.by_role(Role::Pawn) {
            let piece = pos.piece_at(sq).expect("occupied");
            pieces.push(Piece {
                color: piece.color,
                role: piece.role,
                region: sq.bb(),
            });
        }
        let mut start = Structure { pawns, pieces };
        start.spread();
        Some(start)
    }

    fn all_pawns(&self) -> Bitboard {
        self.pawns[0] | self.pawns[1]
    }

    fn pawn_attacks(&self, color: Color) -> Bitboard {
        attacks::pawns(color, self.pawns[color.index()])
    }

    fn king(&self, color: Color) -> &Piece {
        self.pieces
            .iter()
            .find(|p| p.color == color && p.role == Role::King)
            .expect("each side has a king")
    }

    /// Whether some pawn has nothing on its file ahead of it that stops it now (a pawn, a
    /// frozen king, a fixed piece): it can walk to promotion, which this abstraction does not
    /// follow.
    fn has_free_runner(&self) -> bool {
        let stops = self.all_pawns() | self.frozen_kings() | self.fixed_pieces();
        Color::ALL.into_iter().any(|color| {
            self.pawns[color.index()].into_iter().any(|sq| {
                let file = Bitboard::file(sq.file()).0;
                let rank = 8 * u32::from(sq.rank());
                let ahead = match color {
                    Color::White => file & (u64::MAX << rank << 8),
                    Color::Black => file & ((1u64 << rank) - 1),
                };
                (stops.0 & ahead) == 0
            })
        })
    }

    /// The squares of the kings that cannot leave their square while the pawns stand.
    fn frozen_kings(&self) -> Bitboard {
        self.pieces
            .iter()
            .filter(|p| p.role == Role::King && p.region.count() == 1)
            .fold(Bitboard::EMPTY, |acc, p| acc | p.region)
    }

    /// Grows every region to all it can reach with the pawns as they are, and with the
    /// [fixed pieces](Self::fixed_pieces) where they are: those are found on the grown
    /// regions and the regions grown again from where they were, until no more are found
    /// (regions only shrink that way, so a piece found fixed stays fixed).
    fn spread(&mut self) {
        let seeds: Vec<Bitboard> = self.pieces.iter().map(|p| p.region).collect();
        let mut fixed = Bitboard::EMPTY;
        loop {
            self.grow(fixed, &seeds);
            let now = self.fixed_pieces();
            debug_assert!((fixed & !now).is_empty(), "fixed pieces stay fixed");
            if now == fixed {
                break;
            }
            fixed = now;
        }
        self.pieces.sort_by_key(|p| (p.color, p.role, p.region.0));
    }

    /// Grows every region from its seed, neither on nor through a pawn or a `fixed` piece
    /// (other than itself).
    fn grow(&mut self, fixed: Bitboard, seeds: &[Bitboard]) {
        let pawns = self.all_pawns();
        let forbidden = [
            self.pawn_attacks(Color::Black),
            self.pawn_attacks(Color::White),
        ];
        // Kings first: a king that cannot leave its square while the pawns stand is never
        // captured either, so no other piece ever stands there, and the other king never
        // next to it.
        for (king, seed) in self.pieces.iter_mut().zip(seeds) {
            if king.role == Role::King {
                let walls = pawns | (fixed & !*seed);
                let avoid = forbidden[king.color.index()];
                king.region = flood(Role::King, king.color, *seed & !pawns, walls, avoid);
            }
        }
        let frozen = self.frozen_kings();
        for (piece, seed) in self.pieces.iter_mut().zip(seeds) {
            let walls = pawns | (fixed & !*seed);
            // A king grows again from what it reached above, the others from their seeds.
            let (from, obstacles, avoid) = if piece.role == Role::King {
                let near = near_other_frozen_king(frozen, piece.region);
                if near.is_empty() {
                    continue;
                }
                (piece.region, near, forbidden[piece.color.index()] | near)
            } else {
                (*seed, frozen, frozen)
            };
            let start = from & !walls & !obstacles;
            piece.region = flood(piece.role, piece.color, start, walls, avoid);
        }
    }

    /// The squares of the pieces other than kings that cannot leave their square while the
    /// pawns stand and that no enemy piece can take (a pawn taking one changes the
    /// structure): they stand there as long as the structure does, in everyone's way.
    fn fixed_pieces(&self) -> Bitboard {
        let single = |p: &&Piece| p.role != Role::King && p.region.count() == 1;
        if !self.pieces.iter().any(|p| single(&p)) {
            return Bitboard::EMPTY;
        }
        let pawns = self.all_pawns();
        let mut takes = [None; 2];
        let mut fixed = Bitboard::EMPTY;
        for piece in self.pieces.iter().filter(single) {
            let takers = !piece.color;
            let takes = *takes[takers.index()].get_or_insert_with(|| {
                self.pieces
                    .iter()
                    .filter(|p| p.color == takers)
                    .fold(Bitboard::EMPTY, |acc, p| {
                        acc | reach(p.role, p.color, p.region, pawns)
                    })
            });
            if (takes & piece.region).is_empty() {
                fixed |= piece.region;
            }
        }
        fixed
    }

    /// Whether, in this structure, `winner` might give a check that is mate. Pawns, bishops
    /// and pieces shut in on their square by pawns are analysed: every square next to the
    /// king must then be covered by one of them or the winner's king, or blocked by the
    /// loser's own pawn or piece (one piece a square); a knight, rook or queen that can move
    /// and come near gives up.
    fn may_mate(&self, winner: Color) -> bool {
        let loser = !winner;
        let pawns = self.all_pawns();
        let loser_king = self.king(loser).region;
        let winner_king = self.king(winner).region;
        let near_king = loser_king | around(loser_king);
        let mut checks = self.pawn_attacks(winner);
        let mut cover = checks | self.pawns[loser.index()];
        for p in self
            .pieces
            .iter()
            .filter(|p| p.color == winner && p.role != Role::King)
        {
            let reach = reach(p.role, p.color, p.region, pawns);
            if (reach & near_king).is_empty() {
                continue;
            }
            if p.role != Role::Bishop && p.region.count() > 1 {
                return true;
            }
            checks |= reach;
            cover |= reach;
        }
        let blockers: Vec<Bitboard> = self
            .pieces
            .iter()
            .filter(|p| p.color == loser && p.role != Role::King)
            .map(|p| p.region)
            .collect();
        let blocked = |escapes: Bitboard| {
            let able = blockers.iter().filter(|r| (**r & escapes).any()).count();
            escapes.count() as usize <= able
        };
        // At the mate the winner's king stands on one square, not next to the loser's.
        (checks & loser_king).into_iter().any(|sq| {
            let escapes = attacks::king(sq) & !cover;
            let next_to = attacks::king(sq) | sq.bb();
            blocked(escapes)
                || (winner_king & around(next_to) & !next_to)
                    .into_iter()
                    .any(|k| blocked(escapes & !attacks::king(k)))
        })
    }

    /// Every pawn move of `color`, pushes stopped by `blocked`, captures taking an enemy pawn
    /// or a piece that may stand there. `false` where one could promote, which this
    /// abstraction does not follow.
    fn pawn_moves(&self, color: Color, blocked: Bitboard, out: &mut Vec<PawnMove>) -> bool {
        let us = color.index();
        let them = (!color).index();
        let last_rank = Bitboard::rank(color.fold(7, 0));
        let enemy_pieces: Bitboard = self
            .pieces
            .iter()
            .filter(|p| p.color == !color && p.role != Role::King)
            .fold(Bitboard::EMPTY, |acc, p| acc | p.region);
        let step = |sq: Square| sq.offset(color.fold(8, -8));
        for from in self.pawns[us] {
            let mut targets = Vec::new();
            if let Some(one) = step(from).filter(|s| !blocked.contains(*s)) {
                targets.push((one, None));
                let home = Bitboard::rank(color.fold(1, 6));
                if home.contains(from)
                    && let Some(two) = step(one).filter(|s| !blocked.contains(*s))
                {
                    targets.push((two, Some(one)));
                }
            }
            for to in attacks::pawn(color, from) & (self.pawns[them] | enemy_pieces) {
                targets.push((to, None));
            }
            for (to, skipped) in targets {
                if last_rank.contains(to) {
                    return false;
                }
                let mut next = self.clone();
                next.pawns[us] = (next.pawns[us] & !from.bb()) | to.bb();
                next.pawns[them] &= !to.bb();
                next.take_piece_on(!color, to);
                out.push(PawnMove { next, to, skipped });
            }
        }
        true
    }

    /// Takes the piece of `color` (not a king) that can only stand on `sq`, if there is one;
    /// one that may stand elsewhere too is kept, which over-approximates.
    fn take_piece_on(&mut self, color: Color, sq: Square) {
        self.pieces
            .retain(|p| !(p.color == color && p.role != Role::King && p.region == sq.bb()));
    }

    /// Every structure one change away. `false` when a change could promote a pawn, which
    /// this abstraction does not follow.
    fn successors(&self, out: &mut Vec<Structure>) -> bool {
        let all = self.all_pawns();
        // A king that cannot leave its square while the pawns stand blocks a push onto it:
        // kings are never captured, so it stays until a pawn move frees it.
        let frozen_kings = self.frozen_kings();
        let fixed = self.fixed_pieces();
        let blocked = all | frozen_kings | fixed;
        let mut moves = Vec::new();
        for color in Color::ALL {
            let us = color.index();
            let them = (!color).index();
            if !self.pawn_moves(color, blocked, &mut moves) {
                return false;
            }
            for PawnMove {
                mut next,
                to,
                skipped,
            } in moves.drain(..)
            {
                if let Some(skipped) = skipped {
                    // En passant: an enemy pawn beside may take it on the skipped square.
                    for taker in attacks::pawn(color, skipped) & self.pawns[them] {
                        let mut ep = next.clone();
                        ep.pawns[us] &= !to.bb();
                        ep.pawns[them] = (ep.pawns[them] & !taker.bb()) | skipped.bb();
                        ep.spread();
                        out.push(ep);
                    }
                }
                next.spread();
                out.push(next);
            }
        }
        // A piece takes a pawn: it stands on the pawn's square, the pawn is gone.
        for (i, piece) in self.pieces.iter().enumerate() {
            let them = (!piece.color).index();
            let mut targets = reach(piece.role, piece.color, piece.region, all) & self.pawns[them];
            if piece.role == Role::King {
                targets &= !self.pawn_attacks(!piece.color);
                targets &= !near_other_frozen_king(frozen_kings, piece.region);
            }
            for sq in targets {
                let mut next = self.clone();
                next.pawns[them] &= !sq.bb();
                next.pieces[i].region = sq.bb();
                if piece.role == Role::King {
                    // A piece shut in by the pawns guards the pawn while they stand, where
                    // nothing can come between (a knight, or a piece next to it): the king
                    // takes only after it, and a piece no one can take guards for good.
                    let guard = |p: &Piece| {
                        p.color == !piece.color
                            && p.role != Role::King
                            && p.region.count() == 1
                            && guards_at_contact(p.role, p.region, sq)
                    };
                    if self
                        .pieces
                        .iter()
                        .any(|p| guard(p) && (p.region & fixed).any())
                    {
                        continue;
                    }
                    next.pieces.retain(|p| !guard(p));
                }
                next.spread();
                out.push(next);
            }
        }
        true
    }
}

/// Whether a piece of `role` on the one square of `region` attacks `sq` with nothing able to
/// come between: a knight's jump, or a step to a square next to it.
fn guards_at_contact(role: Role, region: Bitboard, sq: Square) -> bool {
    let Some(from) = region.first() else {
        return false;
    };
    match role {
        Role::Knight => attacks::knight(from).contains(sq),
        Role::Bishop | Role::Rook | Role::Queen => {
            (attacks::of(role, Color::White, from, Bitboard::EMPTY) & attacks::king(from))
                .contains(sq)
        }
        Role::Pawn | Role::King => false,
    }
}

/// The squares a piece of `role` can stand on, starting from `seeds`, never on a pawn and
/// never entering `avoid` (seeds in `avoid` are kept: the piece is there now).
fn flood(role: Role, color: Color, seeds: Bitboard, pawns: Bitboard, avoid: Bitboard) -> Bitboard {
    let mut region = seeds;
    let mut frontier = seeds;
    while frontier.any() {
        let mut next = Bitboard::EMPTY;
        for sq in frontier {
            next |= attacks::of(role, color, sq, pawns);
        }
        next &= !pawns & !avoid & !region;
        region |= next;
        frontier = next;
    }
    region
}

/// Every square a piece of `role` attacks from some square of `region`, only pawns in the way.
fn reach(role: Role, color: Color, region: Bitboard, pawns: Bitboard) -> Bitboard {
    region.into_iter().fold(Bitboard::EMPTY, |acc, sq| {
        acc | attacks::of(role, color, sq, pawns)
    })
}

/// Where a king with `region` may never stand because of the other king frozen in `frozen`:
/// its square and the squares next to it.
fn near_other_frozen_king(frozen: Bitboard, region: Bitboard) -> Bitboard {
    let own = if region.count() == 1 {
        region
    } else {
        Bitboard::EMPTY
    };
    let other = frozen & !own;
    other | around(other)
}

/// The squares next to some square of `region`: where a king on one of them can step.
pub(super) fn around(region: Bitboard) -> Bitboard {
    let b = region.0;
    let sideways = ((b << 1) & !Bitboard::file(0).0) | ((b >> 1) & !Bitboard::file(7).0);
    let row = sideways | b;
    Bitboard(sideways | (row << 8) | (row >> 8))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn around_is_where_a_king_can_step() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..1_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let region = Bitboard(seed & seed.rotate_left(17));
            let stepped = region
                .into_iter()
                .fold(Bitboard::EMPTY, |acc, sq| acc | attacks::king(sq));
            assert_eq!(around(region), stepped);
        }
    }

    fn never(fen: &str, color: Color) -> bool {
        Proofs::default().cannot(&Position::from_fen(fen).unwrap(), color, 50_000)
    }

    #[test]
    fn a_locked_chain_with_bishops_shut_in_is_proven() {
        let fen = "2b1k3/8/8/1p1p1p1p/1P1P1P1P/8/8/2B1K3 w - - 0 1";
        assert!(never(fen, Color::White));
        assert!(never(fen, Color::Black));
    }

    #[test]
    fn an_open_file_a_runner_or_a_rook_is_not_proven() {
        assert!(!never(
            "4k3/8/8/1p1p1p2/1P1P1P2/8/8/4K3 w - - 0 1",
            Color::White
        ));
        assert!(!never(
            "4k3/8/8/1p1p1p1p/1P1P1P1P/8/P7/4K3 w - - 0 1",
            Color::White
        ));
        assert!(!never("4k3/8/8/8/8/8/8/4K2R w - - 0 1", Color::White));
    }

    #[test]
    fn a_pawn_that_can_still_move_into_the_chain_is_followed() {
        // c2 can go to c3 and c4 and then is blocked: still no way through.
        let fen = "2k5/2p1p1p1/p1P1P1P1/P1p4K/8/8/2P5/8 w - - 0 1";
        assert!(never(fen, Color::White));
        assert!(never(fen, Color::Black));
    }

    #[test]
    fn a_king_that_cannot_move_blocks_pawns_and_keeps_the_other_king_away() {
        // White's king is shut in on a1 for good: Black's a-pawn can never promote past it,
        // Black's king never reaches b2 next to it, and six dark bishops never mate a king
        // whose light neighbours Black's one light bishop cannot all fill.
        let fen = "k6B/1b4B1/5B2/4B3/3B4/1pB5/pP6/K7 w - - 0 1";
        assert!(never(fen, Color::White));
    }

    #[test]
    fn a_piece_that_can_neither_move_nor_be_taken_stands_in_the_way() {
        // Black's bishop on b8 never moves and White can never take it, so Black's king never
        // reaches a8, where White's light bishop could mate it with b8 blocked.
        let fen = "1b1k4/p1p1pBp1/P1P1P1P1/p1p1p1p1/8/8/P1P1P1P1/3K4 w - - 0 1";
        assert!(never(fen, Color::White));
        // The same with a white bishop that could take it on b8 proves nothing.
        let fen = "1b1k4/p1p1p1p1/P1P1P1P1/p1p1p1p1/4B3/8/P1P1P1P1/3K4 w - - 0 1";
        assert!(!never(fen, Color::White));
    }

    #[test]
    fn a_knight_shut_in_by_pawns_is_counted_for_what_it_attacks() {
        // White's knights on a8 and g8 have nowhere to go while the pawns stand: they attack
        // b6, c7, e7, f6 and h6, and none of that lets White mate Black's shut-in king.
        let fen = "N1b1k1N1/1pPpPp1p/1P1P1P1P/8/8/8/8/6K1 w - - 0 1";
        assert!(never(fen, Color::White));
        // A knight that can still move is not analysed.
        let fen = "N1b1k1N1/1pPpPp1p/1P1P1P1P/8/8/8/8/N5K1 w - - 0 1";
        assert!(!never(fen, Color::White));
    }

    #[test]
    fn a_pawn_guarded_by_a_shut_in_knight_is_taken_only_after_it() {
        // The knights on a4 and a5 guard the pawns around them; a king that takes one of
        // those pawns has taken the knight first. Without a knight White's dark bishops need
        // the king to cover two light squares next to Black's at once, which one king cannot
        // do from a square not next to it.
        let fen = "k7/1p6/1Pp5/n1P5/N1p5/1pP1B3/1P1B4/K7 w - - 0 1";
        assert!(never(fen, Color::White));
        assert!(never(fen, Color::Black));
    }

    #[test]
    fn a_pawn_guarded_by_a_shut_in_bishop_next_to_it_is_never_taken() {
        // White's bishop on a6 is shut in by its pawns on b5 and b7 and guards b7: Black's
        // king on b8 can never take it, and never leaves b8.
        let fen = "1k2b3/1P1p4/BP1Pp3/1PK1Pp2/5Pp1/6Pp/7P/8 w - - 0 1";
        assert!(never(fen, Color::White));
        assert!(never(fen, Color::Black));
    }

    #[test]
    fn bishops_of_one_colour_cannot_cover_the_other() {
        // Black's dark bishops check the white king only on dark squares, and White's only
        // blocker for the light squares around it, a knight, is shut in on a1.
        let fen = "8/1k5B/7b/8/1p1p1p1p/1PpP1P1P/2P3K1/N3b3 b - - 0 1";
        assert!(never(fen, Color::Black));
        assert!(never(fen, Color::White));
    }
}
