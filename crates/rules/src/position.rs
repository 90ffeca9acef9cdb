//! A chess position: the pieces, who moves, castling and en passant rights, the move counters,
//! and playing a move on it.

use crate::attacks;
use crate::zobrist;
use crate::{Bitboard, Color, Move, MoveKind, Piece, Role, Square};

/// A legal chess position, standard or Chess960.
///
/// Values are always valid (construct them with [`Position::new`], [`Position::from_fen`] or
/// [`Position::chess960`]); playing a legal move keeps them so. Copying is cheap, so search and
/// perft use copy-make.
///
/// ```
/// use vizier_rules::Position;
/// let pos = Position::new();
/// let e4 = pos.parse_uci("e2e4").unwrap();
/// let after = pos.play(e4).unwrap();
/// assert_eq!(after.fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    pub(crate) by_role: [Bitboard; 6],
    pub(crate) by_color: [Bitboard; 2],
    pub(crate) mailbox: [Option<Piece>; 64],
    pub(crate) turn: Color,
    /// Rooks that keep a castling right, by square (so Chess960 needs nothing extra).
    pub(crate) castling: Bitboard,
    /// Set after a double step only when an enemy pawn stands ready to capture en passant;
    /// whether that capture is also legal is decided when asked.
    pub(crate) ep_square: Option<Square>,
    pub(crate) halfmoves: u32,
    pub(crate) fullmoves: u32,
    pub(crate) hash: u64,
}

impl Default for Position {
    fn default() -> Position {
        Position::new()
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.fen())
    }
}

/// Why a move cannot be played in a position.
///
/// ```
/// use vizier_rules::{IllegalMove, Move, Position, Square};
/// let err = Position::new().play(Move::normal(Square::E2, Square::E5)).unwrap_err();
/// assert_eq!(err, IllegalMove(Move::normal(Square::E2, Square::E5)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IllegalMove(pub Move);

impl std::fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "illegal move {:?} in this position", self.0)
    }
}

impl std::error::Error for IllegalMove {}

impl Position {
    /// The standard starting position.
    ///
    /// ```
    /// assert_eq!(vizier_rules::Position::new().legal_moves().len(), 20);
    /// ```
    pub fn new() -> Position {
        // Set up once: every game read from PGN starts here.
        static START: std::sync::LazyLock<Position> = std::sync::LazyLock::new(|| {
            Position::chess960(518).expect("518 is the standard start")
        });
        START.clone()
    }

    pub(crate) fn empty() -> Position {
        Position {
            by_role: [Bitboard::EMPTY; 6],
            by_color: [Bitboard::EMPTY; 2],
            mailbox: [None; 64],
            turn: Color::White,
            castling: Bitboard::EMPTY,
            ep_square: None,
            halfmoves: 0,
            fullmoves: 1,
            hash: 0,
        }
    }

    // ----- reading the position -----

    /// The side to move.
    ///
    /// ```
    /// assert_eq!(vizier_rules::Position::new().turn(), vizier_rules::Color::White);
    /// ```
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The piece on `sq`, if any.
    ///
    /// ```
    /// use vizier_rules::{Color, Piece, Position, Role, Square};
    /// assert_eq!(Position::new().piece_at(Square::D1), Some(Piece::new(Color::White, Role::Queen)));
    /// ```
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.mailbox[sq.index()]
    }

    /// All pieces of one colour.
    ///
    /// ```
    /// assert_eq!(vizier_rules::Position::new().by_color(vizier_rules::Color::Black).count(), 16);
    /// ```
    #[inline]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// All pieces of one role, both colours.
    ///
    /// ```
    /// assert_eq!(vizier_rules::Position::new().by_role(vizier_rules::Role::Pawn).count(), 16);
    /// ```
    #[inline]
    pub fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role.index()]
    }

    /// The pieces of one colour and role.
    ///
    /// ```
    /// use vizier_rules::{Color, Position, Role};
    /// assert_eq!(Position::new().pieces(Color::White, Role::Knight).count(), 2);
    /// ```
    #[inline]
    pub fn pieces(&self, color: Color, role: Role) -> Bitboard {
        self.by_color[color.index()] & self.by_role[role.index()]
    }

    /// Every occupied square.
    ///
    /// ```
    /// assert_eq!(vizier_rules::Position::new().occupied().count(), 32);
    /// ```
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// The square of `color`'s king.
    ///
    /// ```
    /// use vizier_rules::{Color, Position, Square};
    /// assert_eq!(Position::new().king(Color::Black), Square::E8);
    /// ```
    #[inline]
    pub fn king(&self, color: Color) -> Square {
        // Every valid position has exactly one king per side.
        match self.pieces(color, Role::King).first() {
            Some(sq) => sq,
            None => unreachable!("a position always has both kings"),
        }
    }

    /// The rooks that still have a castling right, both colours.
    ///
    /// ```
    /// assert_eq!(vizier_rules::Position::new().castling_rights().count(), 4);
    /// ```
    #[inline]
    pub fn castling_rights(&self) -> Bitboard {
        self.castling
    }

    /// The en passant target square, only when an en passant capture is actually legal
    /// (as FEN writes it and as Art. 9.2.3 counts it).
    ///
    /// ```
    /// let pos = vizier_rules::Position::from_fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2").unwrap();
    /// assert_eq!(pos.ep_square(), Some(vizier_rules::Square::D6));
    /// ```
    pub fn ep_square(&self) -> Option<Square> {
        let ep = self.ep_square?;
        let capturers = attacks::pawn(!self.turn, ep) & self.pieces(self.turn, Role::Pawn);
        capturers
            .into_iter()
            .any(|from| self.is_legal_en_passant(from, ep))
            .then_some(ep)
    }

    /// Plies since the last capture or pawn move (for the 50- and 75-move rules).
    ///
    /// ```
    /// assert_eq!(vizier_rules::Position::new().halfmoves(), 0);
    /// ```
    #[inline]
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// The move number, starting at 1 and incremented after Black moves.
    ///
    /// ```
    /// assert_eq!(vizier_rules::Position::new().fullmoves(), 1);
    /// ```
    #[inline]
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// The incremental Zobrist hash (includes an en passant file whenever a pawn could capture).
    ///
    /// ```
    /// let a = vizier_rules::Position::new();
    /// assert_eq!(a.hash(), a.clone().hash());
    /// ```
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The key of Art. 9.2.3 "same position": same side to move, same pieces on the same squares,
    /// same castling rights, and an en passant right only if an en passant capture is legal.
    ///
    /// ```
    /// use vizier_rules::Position;
    /// // After 1.e4 no black pawn can capture en passant: the key ignores the e3 square.
    /// let a = Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1").unwrap();
    /// let b = Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").unwrap();
    /// assert_eq!(a.repetition_key(), b.repetition_key());
    /// ```
    #[inline]
    pub fn repetition_key(&self) -> u64 {
        match self.ep_square {
            Some(ep) if self.ep_square().is_none() => self.hash ^ zobrist::ep_file(ep.file()),
            _ => self.hash,
        }
    }

    /// The enemy pieces giving check to the side to move.
    ///
    /// ```
    /// assert!(vizier_rules::Position::new().checkers().is_empty());
    /// ```
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        // Computed when asked, not on every move: most played moves (perft leaves, quiescence
        // cut-offs) never need it.
        let king = self.king(self.turn);
        self.attackers_to(king, self.occupied()) & self.by_color(!self.turn)
    }

    /// Whether the side to move is in check.
    ///
    /// ```
    /// assert!(!vizier_rules::Position::new().is_check());
    /// ```
    #[inline]
    pub fn is_check(&self) -> bool {
        self.checkers().any()
    }

    /// All pieces of either colour attacking `sq` through the given occupancy.
    ///
    /// ```
    /// use vizier_rules::{Position, Square};
    /// let pos = Position::new();
    /// assert_eq!(pos.attackers_to(Square::F3, pos.occupied()).count(), 3); // e2 and g2 pawns, g1 knight
    /// ```
    #[inline]
    pub fn attackers_to(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        let rq = self.by_role[Role::Rook.index()] | self.by_role[Role::Queen.index()];
        let bq = self.by_role[Role::Bishop.index()] | self.by_role[Role::Queen.index()];
        (attacks::rook(sq, occupied) & rq)
            | (attacks::bishop(sq, occupied) & bq)
            | (attacks::knight(sq) & self.by_role[Role::Knight.index()])
            | (attacks::king(sq) & self.by_role[Role::King.index()])
            | (attacks::pawn(Color::White, sq) & self.pieces(Color::Black, Role::Pawn))
            | (attacks::pawn(Color::Black, sq) & self.pieces(Color::White, Role::Pawn))
    }

    /// Whether any piece of `by` attacks `sq` through the given occupancy.
    ///
    /// ```
    /// use vizier_rules::{Color, Position, Square};
    /// let pos = Position::new();
    /// assert!(pos.is_attacked(Square::F6, Color::Black, pos.occupied()));
    /// ```
    #[inline]
    pub fn is_attacked(&self, sq: Square, by: Color, occupied: Bitboard) -> bool {
        let them = self.by_color[by.index()];
        let rq = (self.by_role[Role::Rook.index()] | self.by_role[Role::Queen.index()]) & them;
        let bq = (self.by_role[Role::Bishop.index()] | self.by_role[Role::Queen.index()]) & them;
        (attacks::knight(sq) & self.by_role[Role::Knight.index()] & them).any()
            || (attacks::pawn(!by, sq) & self.by_role[Role::Pawn.index()] & them).any()
            || (attacks::king(sq) & self.by_role[Role::King.index()] & them).any()
            || (attacks::rook(sq, occupied) & rq).any()
            || (attacks::bishop(sq, occupied) & bq).any()
    }

    /// For a castling move (king takes own rook), the king's and the rook's landing squares.
    ///
    /// ```
    /// use vizier_rules::{Color, Position, Square};
    /// assert_eq!(Position::castle_squares(Color::White, Square::E1, Square::H1), (Square::G1, Square::F1));
    /// ```
    #[inline]
    pub fn castle_squares(color: Color, king: Square, rook: Square) -> (Square, Square) {
        let rank = color.back_rank();
        if rook.file() > king.file() {
            (Square::from_coords(6, rank), Square::from_coords(5, rank))
        } else {
            (Square::from_coords(2, rank), Square::from_coords(3, rank))
        }
    }

    // ----- changing the position -----

    #[inline]
    pub(crate) fn put(&mut self, sq: Square, piece: Piece) {
        let b = sq.bb();
        self.by_role[piece.role.index()] |= b;
        self.by_color[piece.color.index()] |= b;
        self.mailbox[sq.index()] = Some(piece);
        self.hash ^= zobrist::piece(piece, sq);
    }

    #[inline]
    pub(crate) fn remove(&mut self, sq: Square) -> Option<Piece> {
        let piece = self.mailbox[sq.index()].take()?;
        let b = sq.bb();
        self.by_role[piece.role.index()] ^= b;
        self.by_color[piece.color.index()] ^= b;
        self.hash ^= zobrist::piece(piece, sq);
        Some(piece)
    }

    #[inline]
    fn drop_castling(&mut self, lost: Bitboard) {
        let lost = lost & self.castling;
        for sq in lost {
            self.hash ^= zobrist::castling(sq);
        }
        self.castling ^= lost;
    }

    /// Recomputes the hash from the primary fields.
    pub(crate) fn refresh_derived(&mut self) {
        let mut hash = zobrist::turn(self.turn);
        for sq in self.occupied() {
            if let Some(p) = self.mailbox[sq.index()] {
                hash ^= zobrist::piece(p, sq);
            }
        }
        for sq in self.castling {
            hash ^= zobrist::castling(sq);
        }
        if let Some(ep) = self.ep_square {
            hash ^= zobrist::ep_file(ep.file());
        }
        self.hash = hash;
    }

    /// Plays `m` if it is legal here, returning the new position.
    ///
    /// ```
    /// use vizier_rules::{Move, Position, Square};
    /// let pos = Position::new();
    /// assert!(pos.play(Move::normal(Square::G1, Square::F3)).is_ok());
    /// assert!(pos.play(Move::normal(Square::G1, Square::G3)).is_err());
    /// ```
    pub fn play(&self, m: Move) -> Result<Position, IllegalMove> {
        if !self.is_legal(m) {
            return Err(IllegalMove(m));
        }
        let mut next = self.clone();
        next.play_unchecked(m);
        Ok(next)
    }

    /// Plays a move known to be legal (from [`Position::legal_moves`] or checked with
    /// [`Position::is_legal`]). An illegal move leaves a position that breaks the Laws, but
    /// never memory safety.
    ///
    /// ```
    /// let mut pos = vizier_rules::Position::new();
    /// let m = pos.legal_moves()[0];
    /// pos.play_unchecked(m);
    /// assert_eq!(pos.turn(), vizier_rules::Color::Black);
    /// ```
    pub fn play_unchecked(&mut self, m: Move) {
        let us = self.turn;
        let them = !us;
        let (from, to) = (m.from(), m.to());
        if let Some(ep) = self.ep_square.take() {
            self.hash ^= zobrist::ep_file(ep.file());
        }
        self.halfmoves += 1;
        match m.kind() {
            MoveKind::Castle => {
                let (king_to, rook_to) = Position::castle_squares(us, from, to);
                self.remove(from);
                self.remove(to);
                self.put(king_to, Piece::new(us, Role::King));
                self.put(rook_to, Piece::new(us, Role::Rook));
                self.drop_castling(Bitboard::rank(us.back_rank()));
            }
            MoveKind::EnPassant => {
                let captured = Square::from_coords(to.file(), from.rank());
                self.remove(captured);
                self.remove(from);
                self.put(to, Piece::new(us, Role::Pawn));
                self.halfmoves = 0;
            }
            MoveKind::Normal | MoveKind::Promotion(_) => {
                let Some(piece) = self.remove(from) else {
                    return;
                };
                if self.remove(to).is_some() {
                    self.halfmoves = 0;
                }
                let role = m.promotion().unwrap_or(piece.role);
                self.put(to, Piece::new(us, role));
                match piece.role {
                    Role::Pawn => {
                        self.halfmoves = 0;
                        if from.index().abs_diff(to.index()) == 16 {
                            let ep =
                                Square::from_coords(from.file(), (from.rank() + to.rank()) / 2);
                            if (attacks::pawn(us, ep) & self.pieces(them, Role::Pawn)).any() {
                                self.ep_square = Some(ep);
                                self.hash ^= zobrist::ep_file(ep.file());
                            }
                        }
                    }
                    Role::King => self.drop_castling(Bitboard::rank(us.back_rank())),
                    _ => {}
                }
                self.drop_castling(from.bb() | to.bb());
            }
        }
        if us == Color::Black {
            self.fullmoves += 1;
        }
        self.turn = them;
        self.hash ^= zobrist::turn(Color::Black);
    }

    /// The position after the piece on `from` goes to `to` whether or not the Laws allow it
    /// (an over-the-board illegal move, Art. 7.5). What results may be a position the Laws
    /// call illegal (the mover's king left in check, a pawn on the last rank): ask
    /// [`Position::validity`]. `None` when it cannot be done on a board: `from` holds no piece
    /// of the side to move, or `to` holds one of its pieces or a king.
    ///
    /// ```
    /// use vizier_rules::{Position, Square};
    /// let pos = Position::new();
    /// // A bishop jumping over its own pawn: illegal, but the position after it is valid.
    /// let after = pos.play_irregular(Square::F1, Square::C4, None).unwrap();
    /// assert_eq!(after.board_fen(), "rnbqkbnr/pppppppp/8/8/2B5/8/PPPPPPPP/RNBQK1NR");
    /// assert!(after.validity().is_ok());
    /// assert!(pos.play_irregular(Square::E4, Square::E5, None).is_none());
    /// // A pawn that reaches the last rank without promoting leaves an illegal position.
    /// let pos = Position::from_fen("4k3/P7/8/8/8/8/8/4K3 w - - 0 1").unwrap();
    /// assert!(pos.play_irregular(Square::A7, Square::A8, None).unwrap().validity().is_err());
    /// ```
    pub fn play_irregular(
        &self,
        from: Square,
        to: Square,
        promotion: Option<Role>,
    ) -> Option<Position> {
        let us = self.turn;
        let piece = self.piece_at(from).filter(|p| p.color == us)?;
        if from == to
            || self
                .piece_at(to)
                .is_some_and(|p| p.color == us || p.role == Role::King)
        {
            return None;
        }
        let mut next = self.clone();
        next.remove(from);
        let captured = next.remove(to).is_some();
        next.put(to, Piece::new(us, promotion.unwrap_or(piece.role)));
        next.castling &= !(from.bb() | to.bb());
        if piece.role == Role::King {
            next.castling &= !Bitboard::rank(us.back_rank());
        }
        let reset = captured || piece.role == Role::Pawn;
        Some(next.pass_irregular(reset))
    }

    /// The position after the side to move castles (`king_side` or not) whether or not the Laws
    /// allow it: the king goes to the g- or c-file and the rook to the f- or d-file, as in
    /// Chess960. The rook is the one with the castling right on that side, or else the
    /// outermost rook on the king's rank on that side. `None` when there is no such rook or
    /// another piece stands on a final square.
    ///
    /// ```
    /// use vizier_rules::Position;
    /// // The king has moved (no castling rights) but castles all the same.
    /// let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w - - 0 1").unwrap();
    /// let after = pos.play_irregular_castling(true).unwrap();
    /// assert_eq!(after.board_fen(), "4k3/8/8/8/8/8/8/5RK1");
    /// assert!(pos.play_irregular_castling(false).is_none());
    /// ```
    pub fn play_irregular_castling(&self, king_side: bool) -> Option<Position> {
        let us = self.turn;
        let king = self.king(us);
        let rank = Bitboard::rank(king.rank());
        let side = |sq: &Square| {
            if king_side {
                sq.file() > king.file()
            } else {
                sq.file() < king.file()
            }
        };
        let rooks = self.pieces(us, Role::Rook) & rank;
        let rook = (self.castling & rooks).into_iter().find(side).or_else(|| {
            let mut on_side = rooks.into_iter().filter(side);
            if king_side {
                on_side.next_back()
            } else {
                on_side.next()
            }
        })?;
        let (king_file, rook_file) = if king_side { (6, 5) } else { (2, 3) };
        let king_to = Square::from_coords(king_file, king.rank());
        let rook_to = Square::from_coords(rook_file, king.rank());
        let movers = king.bb() | rook.bb();
        if [king_to, rook_to]
            .iter()
            .any(|sq| self.occupied().contains(*sq) && !movers.contains(*sq))
        {
            return None;
        }
        let mut next = self.clone();
        next.remove(king);
        next.remove(rook);
        next.put(king_to, Piece::new(us, Role::King));
        next.put(rook_to, Piece::new(us, Role::Rook));
        next.castling &= !Bitboard::rank(us.back_rank());
        Some(next.pass_irregular(false))
    }

    /// Ends an irregular move: no en passant right, the counters advanced, the turn passed.
    fn pass_irregular(mut self, reset_halfmoves: bool) -> Position {
        let us = self.turn;
        self.ep_square = None;
        self.halfmoves = if reset_halfmoves {
            0
        } else {
            self.halfmoves + 1
        };
        if us == Color::Black {
            self.fullmoves += 1;
        }
        self.turn = !us;
        self.refresh_derived();
        self
    }

    /// Whether this is a position the Laws allow: one king a side, at most 16 pieces and 8 pawns
    /// a side, no pawn on the first or last rank, the side not to move not in check, at most
    /// two checkers. Every position but an irregular move's result is valid.
    ///
    /// ```
    /// use vizier_rules::{FenError, Position, Square};
    /// let pos = Position::from_fen("4k3/8/8/8/8/8/8/r3K3 w - - 0 1").unwrap();
    /// let after = pos.play_irregular(Square::E1, Square::D1, None).unwrap();
    /// assert_eq!(after.validity(), Err(FenError::OppositeCheck));
    /// ```
    pub fn validity(&self) -> Result<(), crate::FenError> {
        crate::fen::validate(self)
    }

    /// Passes the turn without moving (for search: null-move pruning). Not a legal chess move;
    /// must not be used while in check.
    ///
    /// ```
    /// let mut pos = vizier_rules::Position::new();
    /// pos.play_null();
    /// assert_eq!(pos.turn(), vizier_rules::Color::Black);
    /// ```
    pub fn play_null(&mut self) {
        if let Some(ep) = self.ep_square.take() {
            self.hash ^= zobrist::ep_file(ep.file());
        }
        self.halfmoves += 1;
        if self.turn == Color::Black {
            self.fullmoves += 1;
        }
        self.turn = !self.turn;
        self.hash ^= zobrist::turn(Color::Black);
    }

    /// Plays `m` (legal, as for [`Position::play_unchecked`]), or passes the turn for
    /// [`Move::NULL`], as a game record with null moves is replayed.
    ///
    /// ```
    /// use vizier_rules::{Move, Position};
    /// let mut pos = Position::new();
    /// pos.play_or_pass(Move::NULL);
    /// pos.play_or_pass(pos.parse_san("e5").unwrap());
    /// assert_eq!(pos.fen(), "rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 2");
    /// ```
    pub fn play_or_pass(&mut self, m: Move) {
        if m.is_null() {
            self.play_null();
        } else {
            self.play_unchecked(m);
        }
    }

    /// Whether the piece on `from` moving as a pawn capturing en passant onto `ep` leaves the
    /// mover's king safe.
    pub(crate) fn is_legal_en_passant(&self, from: Square, ep: Square) -> bool {
        let us = self.turn;
        let captured = Square::from_coords(ep.file(), from.rank());
        let occ = (self.occupied() ^ from.bb() ^ captured.bb()) | ep.bb();
        let king = self.king(us);
        let attackers = self.attackers_to(king, occ) & self.by_color(!us) & !captured.bb();
        attackers.is_empty()
    }
}
