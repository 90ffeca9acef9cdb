//! Moves as compact 16-bit values, and a fixed-capacity move list.

use crate::{Role, Square};
use std::fmt;

/// What kind of move a [`Move`] is.
///
/// ```
/// use vizier_rules::{Move, MoveKind, Role, Square};
/// assert_eq!(Move::promote(Square::E7, Square::E8, Role::Queen).kind(), MoveKind::Promotion(Role::Queen));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum MoveKind {
    /// Any move that is not one of the others, captures included.
    Normal,
    /// A pawn capturing en passant; `to` is the square the capturing pawn lands on.
    EnPassant,
    /// Castling, encoded as the king moving onto its own rook (`to` is the rook's square),
    /// which works for standard chess and Chess960 alike.
    Castle,
    /// A pawn reaching the last rank and becoming the given role.
    Promotion(Role),
}

/// A move: from, to and kind packed into 16 bits.
///
/// Castling is stored as king-takes-rook; use [`crate::Position::castle_squares`] or the UCI
/// writer to get the king's landing square.
///
/// ```
/// use vizier_rules::{Move, Square};
/// let m = Move::normal(Square::G1, Square::F3);
/// assert_eq!((m.from(), m.to()), (Square::G1, Square::F3));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(u16);

const KIND_NORMAL: u16 = 0;
const KIND_EP: u16 = 1;
const KIND_CASTLE: u16 = 2;
const KIND_PROMOTION: u16 = 3;

impl Move {
    #[inline]
    const fn pack(from: Square, to: Square, kind: u16, promo: u16) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 6 | kind << 12 | promo << 14)
    }

    /// An ordinary move or capture.
    ///
    /// ```
    /// let m = vizier_rules::Move::normal(vizier_rules::Square::E2, vizier_rules::Square::E4);
    /// assert_eq!(m.kind(), vizier_rules::MoveKind::Normal);
    /// ```
    #[inline]
    pub const fn normal(from: Square, to: Square) -> Move {
        Move::pack(from, to, KIND_NORMAL, 0)
    }

    /// An en passant capture landing on `to`.
    ///
    /// ```
    /// use vizier_rules::{Move, Square};
    /// assert!(Move::en_passant(Square::E5, Square::D6).is_en_passant());
    /// ```
    #[inline]
    pub const fn en_passant(from: Square, to: Square) -> Move {
        Move::pack(from, to, KIND_EP, 0)
    }

    /// Castling with the rook on `rook`.
    ///
    /// ```
    /// use vizier_rules::{Move, Square};
    /// assert!(Move::castle(Square::E1, Square::H1).is_castle());
    /// ```
    #[inline]
    pub const fn castle(king: Square, rook: Square) -> Move {
        Move::pack(king, rook, KIND_CASTLE, 0)
    }

    /// A promotion to `role` (knight, bishop, rook or queen).
    ///
    /// ```
    /// use vizier_rules::{Move, Role, Square};
    /// assert_eq!(Move::promote(Square::A7, Square::A8, Role::Knight).promotion(), Some(Role::Knight));
    /// ```
    #[inline]
    pub const fn promote(from: Square, to: Square, role: Role) -> Move {
        debug_assert!(role as u8 >= 1 && role as u8 <= 4);
        Move::pack(from, to, KIND_PROMOTION, role as u16 - 1)
    }

    /// The square the moving piece (the king, when castling) starts on.
    ///
    /// ```
    /// assert_eq!(vizier_rules::Move::normal(vizier_rules::Square::B1, vizier_rules::Square::C3).from(), vizier_rules::Square::B1);
    /// ```
    #[inline]
    pub const fn from(self) -> Square {
        match Square::new((self.0 & 63) as u8) {
            Some(s) => s,
            None => unreachable!(),
        }
    }

    /// The destination; for castling, the castling rook's square.
    ///
    /// ```
    /// assert_eq!(vizier_rules::Move::normal(vizier_rules::Square::B1, vizier_rules::Square::C3).to(), vizier_rules::Square::C3);
    /// ```
    #[inline]
    pub const fn to(self) -> Square {
        match Square::new(((self.0 >> 6) & 63) as u8) {
            Some(s) => s,
            None => unreachable!(),
        }
    }

    /// The kind of move.
    ///
    /// ```
    /// assert_eq!(vizier_rules::Move::castle(vizier_rules::Square::E1, vizier_rules::Square::A1).kind(), vizier_rules::MoveKind::Castle);
    /// ```
    #[inline]
    pub const fn kind(self) -> MoveKind {
        match (self.0 >> 12) & 3 {
            KIND_NORMAL => MoveKind::Normal,
            KIND_EP => MoveKind::EnPassant,
            KIND_CASTLE => MoveKind::Castle,
            _ => MoveKind::Promotion(Role::from_index(((self.0 >> 14) + 1) as usize)),
        }
    }

    /// The promotion role, if this is a promotion.
    ///
    /// ```
    /// assert_eq!(vizier_rules::Move::normal(vizier_rules::Square::E2, vizier_rules::Square::E4).promotion(), None);
    /// ```
    #[inline]
    pub const fn promotion(self) -> Option<Role> {
        match self.kind() {
            MoveKind::Promotion(r) => Some(r),
            _ => None,
        }
    }

    /// Whether this is castling.
    ///
    /// ```
    /// assert!(!vizier_rules::Move::normal(vizier_rules::Square::E1, vizier_rules::Square::G1).is_castle());
    /// ```
    #[inline]
    pub const fn is_castle(self) -> bool {
        (self.0 >> 12) & 3 == KIND_CASTLE
    }

    /// Whether this is an en passant capture.
    ///
    /// ```
    /// assert!(!vizier_rules::Move::normal(vizier_rules::Square::E5, vizier_rules::Square::D6).is_en_passant());
    /// ```
    #[inline]
    pub const fn is_en_passant(self) -> bool {
        (self.0 >> 12) & 3 == KIND_EP
    }

    /// The raw 16-bit encoding (stable; usable as a compact key, e.g. in a hash table).
    ///
    /// ```
    /// let m = vizier_rules::Move::normal(vizier_rules::Square::A1, vizier_rules::Square::A2);
    /// assert_eq!(vizier_rules::Move::from_raw(m.raw()), Some(m));
    /// ```
    #[inline]
    pub const fn raw(self) -> u16 {
        self.0
    }

    /// The null move of a game record (PGN's `--`): the turn passes and nothing moves. It is
    /// never legal; [`crate::Position::play_or_pass`] plays it.
    ///
    /// ```
    /// assert!(vizier_rules::Move::NULL.is_null());
    /// assert!(!vizier_rules::Position::new().is_legal(vizier_rules::Move::NULL));
    /// ```
    pub const NULL: Move = Move(0);

    /// Whether this is [`Move::NULL`].
    #[inline]
    pub const fn is_null(self) -> bool {
        self.0 == 0
    }

    /// Rebuilds a move from [`Move::raw`]; `None` for encodings no move has (from == to).
    ///
    /// ```
    /// assert_eq!(vizier_rules::Move::from_raw(0), None);
    /// ```
    pub const fn from_raw(raw: u16) -> Option<Move> {
        let m = Move(raw);
        if m.from().index() == m.to().index() {
            None
        } else {
            Some(m)
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())?;
        match self.kind() {
            MoveKind::Normal => Ok(()),
            MoveKind::EnPassant => f.write_str("(ep)"),
            MoveKind::Castle => f.write_str("(castle)"),
            MoveKind::Promotion(r) => write!(f, "{}", r.char()),
        }
    }
}

/// Room for every legal move of any position (the known maximum is 218).
///
/// ```
/// assert!(vizier_rules::MAX_MOVES >= 218);
/// ```
pub const MAX_MOVES: usize = 256;

/// A list of moves on the stack.
///
/// ```
/// let moves = vizier_rules::Position::new().legal_moves();
/// assert_eq!(moves.len(), 20);
/// assert!(moves.iter().any(|m| m.to() == vizier_rules::Square::E4));
/// ```
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl MoveList {
    /// An empty list.
    ///
    /// ```
    /// assert!(vizier_rules::MoveList::new().is_empty());
    /// ```
    #[inline]
    pub const fn new() -> MoveList {
        MoveList {
            moves: [Move(0); MAX_MOVES],
            len: 0,
        }
    }

    /// Appends a move.
    ///
    /// ```
    /// let mut l = vizier_rules::MoveList::new();
    /// l.push(vizier_rules::Move::normal(vizier_rules::Square::A2, vizier_rules::Square::A3));
    /// assert_eq!(l.len(), 1);
    /// ```
    #[inline]
    pub fn push(&mut self, m: Move) {
        // A legal position never has more than 218 moves; the bound keeps this safe anyway.
        if self.len < MAX_MOVES {
            self.moves[self.len] = m;
            self.len += 1;
        }
    }

    /// The moves as a slice.
    ///
    /// ```
    /// assert_eq!(vizier_rules::MoveList::new().as_slice().len(), 0);
    /// ```
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// The moves as a mutable slice (for sorting).
    ///
    /// ```
    /// let mut l = vizier_rules::Position::new().legal_moves();
    /// l.as_mut_slice().sort_by_key(|m| m.raw());
    /// ```
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }

    /// Removes all moves for which `keep` is false, keeping the order of the rest.
    ///
    /// ```
    /// let mut l = vizier_rules::Position::new().legal_moves();
    /// l.retain(|m| m.from() == vizier_rules::Square::G1);
    /// assert_eq!(l.len(), 2);
    /// ```
    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut n = 0;
        for i in 0..self.len {
            if keep(self.moves[i]) {
                self.moves[n] = self.moves[i];
                n += 1;
            }
        }
        self.len = n;
    }
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    #[inline]
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl std::ops::DerefMut for MoveList {
    #[inline]
    fn deref_mut(&mut self) -> &mut [Move] {
        self.as_mut_slice()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}
