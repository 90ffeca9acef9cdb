//! A position packed for the helpmate search's memory: 88 bytes where a [`Position`] takes
//! about 250 (the board's mailbox and the move counters are not kept), so a search of a few
//! million positions fits in a few hundred megabytes.

use crate::{Bitboard, Color, Piece, Position, Role, Square};

/// The bitboards, whose turn, castling rights, en passant square and key of a position.
pub(super) struct Packed {
    by_role: [Bitboard; 6],
    white: Bitboard,
    castling: Bitboard,
    hash: u64,
    ep_square: Option<Square>,
    turn: Color,
}

impl Packed {
    pub(super) fn of(pos: &Position) -> Packed {
        Packed {
            by_role: pos.by_role,
            white: pos.by_color[Color::White.index()],
            castling: pos.castling,
            hash: pos.hash,
            ep_square: pos.ep_square,
            turn: pos.turn,
        }
    }

    /// The position again, with the move counters at 0 and 1: the search ignores them, and a
    /// move that resets the halfmove counter still leaves it at 0.
    pub(super) fn unpack(&self) -> Position {
        let mut pos = Position::empty();
        let occupied = self.by_role.iter().fold(Bitboard::EMPTY, |acc, &b| acc | b);
        pos.by_role = self.by_role;
        pos.by_color = [self.white, occupied & !self.white];
        for (role, &squares) in Role::ALL.into_iter().zip(&self.by_role) {
            for sq in squares {
                let color = if self.white.contains(sq) {
                    Color::White
                } else {
                    Color::Black
                };
                pos.mailbox[sq.index()] = Some(Piece { color, role });
            }
        }
        pos.castling = self.castling;
        pos.hash = self.hash;
        pos.ep_square = self.ep_square;
        pos.turn = self.turn;
        pos
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_position_unpacks_as_it_was_but_for_the_move_counters() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/8/8/3pP3/8/8/8/R3K2R w Kq d6 7 40",
            "7k/7p/8/8/8/8/5q2/4qqNK b - - 12 60",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let back = Packed::of(&pos).unpack();
            let board = |p: &Position| p.fen().rsplitn(3, ' ').nth(2).unwrap().to_string();
            assert_eq!(board(&back), board(&pos));
            assert_eq!(back.hash(), pos.hash());
            assert_eq!(back.legal_moves().len(), pos.legal_moves().len());
        }
        assert!(std::mem::size_of::<Packed>() <= 88);
    }
}
