//! The structure search with both kings exact and the side to move known: pieces other than
//! kings stay abstract (their regions, and a move of one is a tempo that changes nothing),
//! kings walk square by square. It proves what only the order of moves forbids: a king that
//! can only shuffle between two squares is never on the mating square with the winner's king
//! in place *and* the winner to move, when the loser has nothing else to move.
//!
//! Every step over-approximates real play as in the plain structure search: the kings' moves
//! are exact but for checks by pieces (ignored), pieces may always make a waiting move when
//! they have somewhere to go, and a mate is assumed possible wherever the winner's last move
//! could give check and no square next to the loser's king is certainly free.

use super::{PawnMove, Structure, reach};
use crate::{Bitboard, Color, Position, Role, Square, attacks};
use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};

/// One position of the abstraction: the structure (by index), the kings, the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct State {
    structure: u32,
    kings: [Square; 2],
    turn: Color,
}

/// What the side to move did last, for whether it could have given check.
#[derive(Clone, Copy)]
enum Last {
    /// A king move from this square: only a piece behind it can check.
    King(Square),
    /// A pawn or another piece moved.
    Other,
}

/// A move of the abstraction: the new structure where it changed, the kings after it.
struct Step {
    structure: Option<Structure>,
    kings: [Square; 2],
    last: Last,
}

/// Whether `winner` can never checkmate from `pos`, by the structure search with kings exact
/// and at most `budget` states. `false` means "not proven": a state where a mate may be
/// given, a possible promotion or en passant capture, or the budget spent. Positions with a
/// castling right are not tried (castling moves a king two squares in one move).
pub(in crate::mate) fn never(pos: &Position, winner: Color, budget: usize) -> bool {
    if (pos.turn() == !winner && pos.is_check()) || pos.castling_rights().any() {
        return false;
    }
    let Some(start) = Structure::of(pos, winner) else {
        return false;
    };
    let mut structures = vec![start.clone()];
    let mut ids = HashMap::new();
    ids.insert(start, 0u32);
    let root = State {
        structure: 0,
        kings: [pos.king(Color::White), pos.king(Color::Black)],
        turn: pos.turn(),
    };
    let mut seen = HashSet::new();
    seen.insert(root);
    let mut todo = vec![root];
    let mut steps = Vec::new();
    while let Some(state) = todo.pop() {
        steps.clear();
        let structure = &structures[state.structure as usize];
        if !structure.moves(state.kings, state.turn, &mut steps) {
            return false;
        }
        for step in steps.drain(..) {
            let id = match step.structure {
                None => state.structure,
                Some(next) => *ids.entry(next).or_insert_with_key(|next| {
                    structures.push(next.clone());
                    (structures.len() - 1) as u32
                }),
            };
            let structure = &structures[id as usize];
            if state.turn == winner && structure.may_mate_now(step.kings, winner, step.last) {
                return false;
            }
            let next = State {
                structure: id,
                kings: step.kings,
                turn: !state.turn,
            };
            if seen.insert(next) {
                if seen.len() > budget {
                    return false;
                }
                todo.push(next);
            }
        }
    }
    true
}

/// The most squares a king that can only shuffle has in the positions the dead-position check
/// tries this search on.
const POCKET: u32 = 8;

/// Whether one side, as far as this abstraction sees, has nothing to move but its king, and
/// that king no more than a few squares to go to: the positions where the order of moves may
/// prove what the plain structure search cannot.
pub(in crate::mate) fn a_side_moves_only_its_king(pos: &Position) -> bool {
    // First, cheaply: a side with only its king and pawns that cannot push.
    let occupied = pos.occupied();
    let likely = Color::ALL.into_iter().any(|color| {
        let men = pos.by_color(color);
        let pawns = pos.pieces(color, Role::Pawn);
        let ahead = match color {
            Color::White => Bitboard(pawns.0 << 8),
            Color::Black => Bitboard(pawns.0 >> 8),
        };
        men.count() == pawns.count() + 1 && (ahead & !occupied).is_empty()
    });
    if !likely {
        return false;
    }
    let Some(structure) = Structure::of(pos, pos.turn()) else {
        return false;
    };
    let kings = [pos.king(Color::White), pos.king(Color::Black)];
    let mut steps = Vec::new();
    Color::ALL.into_iter().any(|color| {
        steps.clear();
        structure.king(color).region.count() <= POCKET
            && structure.moves(kings, color, &mut steps)
            && steps.iter().all(|s| matches!(s.last, Last::King(_)))
    })
}

impl Structure {
    /// This structure with the kings' regions grown from where the kings stand.
    fn with_kings(mut self, kings: [Square; 2]) -> Structure {
        for piece in &mut self.pieces {
            if piece.role == Role::King {
                piece.region = kings[piece.color.index()].bb();
            }
        }
        self.spread();
        self
    }

    /// The regions of `color`'s pieces other than kings that are one square: those pieces
    /// stand there as long as the structure does, unless taken.
    fn stuck(&self, color: Color) -> Bitboard {
        self.pieces
            .iter()
            .filter(|p| p.color == color && p.role != Role::King && p.region.count() == 1)
            .fold(Bitboard::EMPTY, |acc, p| acc | p.region)
    }

    /// Every move of `mover` with the kings on `kings`. `false` where one could promote or
    /// allow an en passant capture, which this search does not follow.
    fn moves(&self, kings: [Square; 2], mover: Color, out: &mut Vec<Step>) -> bool {
        let us = mover.index();
        let them = (!mover).index();
        let all = self.all_pawns();
        let king_squares = kings[0].bb() | kings[1].bb();

        // The king, exactly: never next to the other king, onto its own pawns or pieces that
        // can neither move nor be taken, or where an enemy pawn attacks. A piece that cannot
        // move but may be taken may be gone: the king may step there.
        let from = kings[us];
        let other = kings[them];
        let fixed = self.fixed_pieces();
        let forbidden = self.pawn_attacks(!mover)
            | attacks::king(other)
            | other.bb()
            | self.pawns[us]
            | (self.stuck(mover) & fixed);
        let enemy_stuck = self.stuck(!mover);
        for to in attacks::king(from) & !forbidden {
            let mut moved = kings;
            moved[us] = to;
            let structure = if self.pawns[them].contains(to) || enemy_stuck.contains(to) {
                let mut next = self.clone();
                next.pawns[them] &= !to.bb();
                next.take_piece_on(!mover, to);
                Some(next.with_kings(moved))
            } else {
                None
            };
            out.push(Step {
                structure,
                kings: moved,
                last: Last::King(from),
            });
        }

        // A waiting move: a piece that has somewhere to go other than onto a pawn (taking a
        // pawn changes the structure and is below).
        let can_wait = self.pieces.iter().any(|p| {
            p.color == mover
                && p.role != Role::King
                && (reach(p.role, p.color, p.region, all) & !all & !king_squares).any()
        });
        if can_wait {
            out.push(Step {
                structure: None,
                kings,
                last: Last::Other,
            });
        }

        // Pawn moves; an en passant capture the other side could make next is not followed.
        let mut pawn_moves = Vec::new();
        if !self.pawn_moves(mover, all | king_squares | fixed, &mut pawn_moves) {
            return false;
        }
        for PawnMove { next, skipped, .. } in pawn_moves {
            if skipped.is_some_and(|s| (attacks::pawn(mover, s) & self.pawns[them]).any()) {
                return false;
            }
            out.push(Step {
                structure: Some(next.with_kings(kings)),
                kings,
                last: Last::Other,
            });
        }

        // A piece takes a pawn: it stands on the pawn's square, the pawn is gone.
        for (i, piece) in self.pieces.iter().enumerate() {
            if piece.color != mover || piece.role == Role::King {
                continue;
            }
            for sq in reach(piece.role, piece.color, piece.region, all) & self.pawns[them] {
                let mut next = self.clone();
                next.pawns[them] &= !sq.bb();
                next.pieces[i].region = sq.bb();
                out.push(Step {
                    structure: Some(next.with_kings(kings)),
                    kings,
                    last: Last::Other,
                });
            }
        }
        true
    }

    /// Whether `winner`, having just moved (`last`), may have mated the loser's king on its
    /// square in `kings`: it may be in check, and no square next to it is certainly free
    /// (neither its own pawn, nor covered by the winner's pawns, king or pieces, nor one a
    /// piece of its own may fill, one piece a square).
    fn may_mate_now(&self, kings: [Square; 2], winner: Color, last: Last) -> bool {
        let loser = !winner;
        let target = kings[loser.index()];
        let pawns = self.all_pawns();
        let mut check = match last {
            Last::Other => self.pawn_attacks(winner).contains(target),
            Last::King(_) => false,
        };
        let mut cover = self.pawn_attacks(winner)
            | attacks::king(kings[winner.index()])
            | self.pawns[loser.index()];
        for p in self
            .pieces
            .iter()
            .filter(|p| p.color == winner && p.role != Role::King)
        {
            let sees = reach(p.role, p.color, p.region, pawns);
            cover |= sees | p.region;
            check |= match last {
                Last::Other => sees.contains(target),
                Last::King(from) => discovers(p.role, p.region, target, from, pawns),
            };
        }
        if !check {
            return false;
        }
        let escapes = attacks::king(target) & !cover;
        let able = self
            .pieces
            .iter()
            .filter(|p| p.color == loser && p.role != Role::King && (p.region & escapes).any())
            .count();
        escapes.count() as usize <= able
    }
}

/// Whether a piece of `role` somewhere in `region` may give check to a king on `target` when
/// a king leaves `from`: it stands beyond `from` on a line it moves along, only pieces (not
/// pawns) between.
fn discovers(role: Role, region: Bitboard, target: Square, from: Square, pawns: Bitboard) -> bool {
    if !matches!(role, Role::Bishop | Role::Rook | Role::Queen) {
        return false;
    }
    let lines = attacks::of(role, Color::White, target, pawns);
    (region & lines)
        .into_iter()
        .any(|sq| attacks::between(target, sq).contains(from))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::VecDeque;

    fn never_fen(fen: &str, color: Color) -> bool {
        never(&Position::from_fen(fen).unwrap(), color, 100_000)
    }

    #[test]
    fn a_king_that_shuffles_is_never_mated_out_of_turn() {
        // Black's king can only go between a5 and a6. It is mated on a5 with White's king on
        // a7 — which it can only have reached while Black's king stood on a5, leaving Black
        // without a move: stalemate, never mate.
        let fen = "8/1p2B1B1/1PpB1B2/k1P5/p1P5/P7/5K2/8 w - - 0 1";
        assert!(never_fen(fen, Color::White));
        assert!(never_fen(fen, Color::Black));
        // White's king shuffles between h3 and h4; Black's king taking g2 stalemates it.
        let fen = "8/b1b5/k6p/2b2p1P/1b3p2/5PpK/6P1/8 w - - 0 1";
        assert!(never_fen(fen, Color::White));
        assert!(never_fen(fen, Color::Black));
    }

    #[test]
    fn a_king_that_shuffles_while_the_other_side_can_wait_may_be_mated() {
        // Give Black a knight that can always move: the parity argument is gone.
        let fen = "8/1p2B1B1/1PpB1B2/k1P5/p1P5/P7/5K2/6n1 w - - 0 1";
        assert!(!never_fen(fen, Color::White));
    }

    /// Whether `winner` can mate, by meeting every reachable position; `None` past `cap`.
    fn plainly_can(pos: &Position, winner: Color, cap: usize) -> Option<bool> {
        let mut seen = HashSet::new();
        seen.insert(pos.hash());
        let mut todo = VecDeque::from([pos.clone()]);
        while let Some(p) = todo.pop_front() {
            if p.turn() == !winner && p.is_checkmate() {
                return Some(true);
            }
            for &m in p.legal_moves().iter() {
                let mut next = p.clone();
                next.play_unchecked(m);
                if seen.insert(next.hash()) {
                    if seen.len() > cap {
                        return None;
                    }
                    todo.push_back(next);
                }
            }
        }
        Some(false)
    }

    /// Positions around two pockets of the hard set where one king can only shuffle: the
    /// pawns as there (one in four times one left out), the pocket's king on one of its
    /// squares, the other king anywhere, one or two minor pieces anywhere (mostly bishops of
    /// the side that would mate it), either side to move.
    fn pocket_positions(count: usize, mut seed: u64) -> Vec<Position> {
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let pockets: [(&str, [Square; 2], char, &[u8]); 2] = [
            (
                "b7 b6 c6 c5 c4 a4 a3",
                [Square::A5, Square::A6],
                'k',
                b"BBBBbN",
            ),
            (
                "h6 f5 h5 f4 f3 g3 g2",
                [Square::H3, Square::H4],
                'K',
                b"bbbbBn",
            ),
        ];
        let mut out = Vec::new();
        while out.len() < count {
            let (pawns, squares, king, minors) = pockets[(next() % 2) as usize];
            let mut pos = Position::empty();
            let mut put = |sq: Square, c: char| {
                if pos.piece_at(sq).is_none() {
                    pos.put(sq, crate::Piece::from_char(c).unwrap());
                }
            };
            let left_out = next() % 28;
            for (i, name) in pawns.split(' ').enumerate() {
                let white = matches!(name, "b6" | "c5" | "c4" | "a3" | "h5" | "f3" | "g2");
                if left_out != i as u64 {
                    put(name.parse().unwrap(), if white { 'P' } else { 'p' });
                }
            }
            let anywhere = |n: u64| Square::new((n % 64) as u8).unwrap();
            put(squares[(next() % 2) as usize], king);
            put(anywhere(next()), if king == 'k' { 'K' } else { 'k' });
            for _ in 0..1 + next() % 2 {
                let c = minors[(next() % minors.len() as u64) as usize] as char;
                put(anywhere(next()), c);
            }
            let turn = if next() % 2 == 0 { "w" } else { "b" };
            if pos.by_role(Role::King).count() < 2 {
                continue;
            }
            // Read back from FEN: only legal positions (the side not to move not in check)
            // are kept.
            let fen = pos.fen();
            let board = fen.split(' ').next().unwrap();
            out.extend(Position::from_fen(&format!("{board} {turn} - - 0 1")).ok());
        }
        out
    }

    /// Every "never" on pocket positions agrees with the plain search where it finishes.
    /// Returns how many were checked, and how many of those the structure search without
    /// the kings exact does not prove.
    fn agree(count: usize, seed: u64) -> (usize, usize) {
        let mut checked = 0;
        let mut only_here = 0;
        for pos in pocket_positions(count, seed) {
            for color in Color::ALL {
                if never(&pos, color, 100_000)
                    && !pos.has_insufficient_material(color)
                    && let Some(can) = plainly_can(&pos, color, 400_000)
                {
                    assert!(!can, "{}: {color:?} can mate", pos.fen());
                    checked += 1;
                    if !super::super::Proofs::default().cannot(&pos, color, 50_000) {
                        only_here += 1;
                    }
                }
            }
        }
        (checked, only_here)
    }

    #[test]
    fn pocket_positions_agree_with_a_plain_search() {
        let (checked, only_here) = agree(60, 7);
        eprintln!("{checked} proofs checked, {only_here} of them by the kings exact only");
        assert!(only_here >= 10, "{only_here}");
    }

    /// `cargo test --profile fast -p vizier-rules --lib -- --ignored many_pocket`
    #[test]
    #[ignore]
    fn many_pocket_positions_agree_with_a_plain_search() {
        let (checked, only_here) = agree(2_000, 9);
        eprintln!("{checked} proofs checked, {only_here} of them by the kings exact only");
    }
}
