//! FEN, X-FEN and Shredder-FEN: reading with strict validation, and writing.

use crate::attacks;
use crate::{Bitboard, Color, Piece, Position, Role, Square};
use std::fmt;

/// Why a FEN string was rejected, in words a person can act on.
///
/// ```
/// use vizier_rules::{FenError, Position};
/// let err = Position::from_fen("4k3/8/8/8/8/8/8/4K2k w - - 0 1").unwrap_err();
/// assert_eq!(err.to_string(), "black has 2 kings");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// The string is empty or only spaces.
    Empty,
    /// More than six space-separated fields.
    TooManyFields,
    /// The board field does not have eight ranks separated by '/'.
    RankCount(usize),
    /// A rank (1-8) describes more or fewer than eight squares.
    #[allow(missing_docs)]
    RankLength { rank: u8, squares: usize },
    /// A character in the board field that is neither a piece letter nor a digit 1-8.
    BadBoardChar(char),
    /// The side-to-move field is not "w" or "b".
    BadTurn(String),
    /// A character of the castling field that is not K, Q, k, q, A-H, a-h or '-'.
    BadCastlingChar(char),
    /// A castling right whose rook is missing.
    #[allow(missing_docs)]
    CastlingNoRook { right: char, square: Square },
    /// A castling right although that king is not on its back rank.
    #[allow(missing_docs)]
    CastlingKingNotOnBackRank { right: char, color: Color },
    /// Two castling rights on the same side of the same king.
    #[allow(missing_docs)]
    CastlingDuplicate { right: char },
    /// The en passant field is not a square or '-'.
    BadEpSquare(String),
    /// The en passant square is not on the rank a double step by the side not to move passes.
    EpWrongRank(Square),
    /// The en passant square has no pawn of the side that just moved in front of it.
    #[allow(missing_docs)]
    EpNoPawn { ep: Square, pawn: Square },
    /// The en passant square or the pawn's start square is occupied.
    EpBlocked(Square),
    /// The halfmove clock is not a number.
    BadHalfmoves(String),
    /// The move number is not a number (0 reads as 1).
    BadFullmoves(String),
    /// A side has no king.
    NoKing(Color),
    /// A side has more than one king.
    #[allow(missing_docs)]
    TooManyKings { color: Color, count: u32 },
    /// A pawn stands on the first or last rank.
    PawnOnBackRank(Square),
    /// A side has more than 16 pieces or more than 8 pawns.
    TooManyPieces(Color),
    /// The side that is not to move is in check.
    OppositeCheck,
    /// The side to move is in check by more than two pieces, which no legal move can cause.
    TooManyCheckers(u32),
    /// The side to move is in a double check no single move can give: both checkers on one
    /// line with the king, neither of them a bishop, rook or queen (one must have been
    /// uncovered), or both checking along diagonals (a piece that uncovers a diagonal leaves
    /// it along the other diagonal, parallel to the king's).
    ImpossibleCheck,
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => write!(f, "empty FEN"),
            FenError::TooManyFields => write!(f, "too many fields: a FEN has at most six"),
            FenError::RankCount(n) => {
                write!(f, "the board has {n} ranks, expected 8 separated by '/'")
            }
            FenError::RankLength { rank, squares } => {
                write!(f, "rank {rank} describes {squares} squares, expected 8")
            }
            FenError::BadBoardChar(c) => write!(
                f,
                "'{c}' is not a piece letter (PNBRQK, pnbrqk) or a digit 1-8"
            ),
            FenError::BadTurn(s) => write!(f, "side to move is \"{s}\", expected \"w\" or \"b\""),
            FenError::BadCastlingChar(c) => {
                write!(
                    f,
                    "'{c}' is not a castling right (KQkq, a file letter A-H/a-h, or -)"
                )
            }
            FenError::CastlingNoRook { right, square } => {
                write!(f, "castling right {right} but no rook on {square}")
            }
            FenError::CastlingKingNotOnBackRank { right, color } => write!(
                f,
                "castling right {right} but the {color} king is not on rank {}",
                color.back_rank() + 1
            ),
            FenError::CastlingDuplicate { right } => {
                write!(
                    f,
                    "castling right {right} repeats a right on the same side of the king"
                )
            }
            FenError::BadEpSquare(s) => write!(f, "en passant field \"{s}\" is not a square or -"),
            FenError::EpWrongRank(sq) => write!(
                f,
                "en passant square {sq} is on the wrong rank (rank 6 when White moves, rank 3 when Black moves)"
            ),
            FenError::EpNoPawn { ep, pawn } => {
                write!(f, "en passant square {ep} but no pawn on {pawn}")
            }
            FenError::EpBlocked(sq) => write!(f, "en passant is impossible: {sq} is occupied"),
            FenError::BadHalfmoves(s) => write!(f, "halfmove clock \"{s}\" is not a number"),
            FenError::BadFullmoves(s) => write!(f, "move number \"{s}\" is not a number"),
            FenError::NoKing(c) => write!(f, "{c} has no king"),
            FenError::TooManyKings { color, count } => write!(f, "{color} has {count} kings"),
            FenError::PawnOnBackRank(sq) => write!(f, "pawn on {sq} (rank {})", sq.rank() + 1),
            FenError::TooManyPieces(c) => {
                write!(f, "{c} has more than 16 pieces or more than 8 pawns")
            }
            FenError::OppositeCheck => write!(f, "side not to move is in check"),
            FenError::TooManyCheckers(n) => write!(
                f,
                "side to move is in check by {n} pieces, which is impossible"
            ),
            FenError::ImpossibleCheck => {
                write!(f, "side to move is in a double check no move can give")
            }
        }
    }
}

impl std::error::Error for FenError {}

/// How castling rights are written.
///
/// ```
/// use vizier_rules::{CastlingNotation, Position};
/// let pos = Position::new();
/// assert_eq!(pos.fen_with(CastlingNotation::Shredder), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CastlingNotation {
    /// X-FEN: K/Q/k/q for the outermost rook on a side, the file letter otherwise.
    XFen,
    /// Shredder-FEN: always the rook's file letter (HAha).
    Shredder,
}

fn parse_board(field: &str, pos: &mut Position) -> Result<(), FenError> {
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::RankCount(ranks.len()));
    }
    for (i, text) in ranks.iter().enumerate() {
        let rank = 7 - i as u8;
        let mut file = 0usize;
        for c in text.chars() {
            if let Some(d) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                file += d as usize;
            } else if let Some(piece) = Piece::from_char(c) {
                if file < 8 {
                    pos.put(Square::from_coords(file as u8, rank), piece);
                }
                file += 1;
            } else {
                return Err(FenError::BadBoardChar(c));
            }
        }
        if file != 8 {
            return Err(FenError::RankLength {
                rank: rank + 1,
                squares: file,
            });
        }
    }
    Ok(())
}

fn parse_castling(field: &str, pos: &mut Position) -> Result<(), FenError> {
    if field == "-" {
        return Ok(());
    }
    for c in field.chars() {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let rank = color.back_rank();
        let back_rank = Bitboard::rank(rank);
        let rooks = pos.pieces(color, Role::Rook) & back_rank;
        let king = pos
            .pieces(color, Role::King)
            .first()
            .filter(|k| back_rank.contains(*k))
            .ok_or(FenError::CastlingKingNotOnBackRank { right: c, color })?;
        let rook = match c.to_ascii_lowercase() {
            'k' => rooks.into_iter().rfind(|r| r.file() > king.file()).ok_or(
                FenError::CastlingNoRook {
                    right: c,
                    square: Square::from_coords(7, rank),
                },
            )?,
            'q' => rooks.into_iter().find(|r| r.file() < king.file()).ok_or(
                FenError::CastlingNoRook {
                    right: c,
                    square: Square::from_coords(0, rank),
                },
            )?,
            f @ 'a'..='h' => {
                let sq = Square::from_coords(f as u8 - b'a', rank);
                if !rooks.contains(sq) || sq.file() == king.file() {
                    return Err(FenError::CastlingNoRook {
                        right: c,
                        square: sq,
                    });
                }
                sq
            }
            _ => return Err(FenError::BadCastlingChar(c)),
        };
        let same_side = (pos.castling & back_rank)
            .into_iter()
            .any(|r| (r.file() > king.file()) == (rook.file() > king.file()) && r != rook);
        if same_side || pos.castling.contains(rook) {
            return Err(FenError::CastlingDuplicate { right: c });
        }
        pos.castling |= rook.bb();
    }
    Ok(())
}

fn parse_ep(field: &str, pos: &mut Position) -> Result<(), FenError> {
    if field == "-" {
        return Ok(());
    }
    let ep: Square = field
        .parse()
        .map_err(|_| FenError::BadEpSquare(field.to_string()))?;
    let (ep_rank, dir) = match pos.turn {
        Color::White => (5, -8),
        Color::Black => (2, 8),
    };
    if ep.rank() != ep_rank {
        return Err(FenError::EpWrongRank(ep));
    }
    let pawn = ep.offset(dir).expect("rank 3/6 has neighbours");
    let origin = ep.offset(-dir).expect("rank 3/6 has neighbours");
    if pos.piece_at(pawn) != Some(Piece::new(!pos.turn, Role::Pawn)) {
        return Err(FenError::EpNoPawn { ep, pawn });
    }
    for sq in [ep, origin] {
        if pos.piece_at(sq).is_some() {
            return Err(FenError::EpBlocked(sq));
        }
    }
    // Kept only when a pawn stands ready to capture; see `Position::ep_square`.
    if (attacks::pawn(!pos.turn, ep) & pos.pieces(pos.turn, Role::Pawn)).any() {
        pos.ep_square = Some(ep);
    }
    Ok(())
}

pub(crate) fn validate(pos: &Position) -> Result<(), FenError> {
    validate_with(pos, true)
}

/// [`validate`], with the check for double checks no move can give only when `checks`.
fn validate_with(pos: &Position, checks: bool) -> Result<(), FenError> {
    for color in Color::ALL {
        let kings = pos.pieces(color, Role::King).count();
        match kings {
            0 => return Err(FenError::NoKing(color)),
            1 => {}
            count => return Err(FenError::TooManyKings { color, count }),
        }
        if pos.by_color(color).count() > 16 || pos.pieces(color, Role::Pawn).count() > 8 {
            return Err(FenError::TooManyPieces(color));
        }
    }
    if let Some(sq) = (pos.by_role(Role::Pawn) & (Bitboard::rank(0) | Bitboard::rank(7))).first() {
        return Err(FenError::PawnOnBackRank(sq));
    }
    let other_king = pos.king(!pos.turn);
    if (pos.attackers_to(other_king, pos.occupied()) & pos.by_color(pos.turn)).any() {
        return Err(FenError::OppositeCheck);
    }
    let king = pos.king(pos.turn);
    let checkers = pos.attackers_to(king, pos.occupied()) & pos.by_color(!pos.turn);
    if checkers.count() > 2 {
        return Err(FenError::TooManyCheckers(checkers.count()));
    }
    if checks && pos.has_impossible_check() {
        return Err(FenError::ImpossibleCheck);
    }
    Ok(())
}

impl Position {
    /// Whether the side to move is in a double check that no single move can give
    /// ([`FenError::ImpossibleCheck`]): a position no game reaches.
    ///
    /// ```
    /// use vizier_rules::Position;
    /// // Two bishops at once.
    /// let pos = Position::from_fen_relaxed("8/8/8/8/8/2b1k1b1/8/3RKR2 w - - 0 1").unwrap();
    /// assert!(pos.has_impossible_check());
    /// ```
    pub fn has_impossible_check(&self) -> bool {
        let king = self.king(self.turn);
        let checkers = self.checkers();
        let (Some(a), Some(b)) = (checkers.first(), checkers.last()) else {
            return false;
        };
        if a == b {
            return false;
        }
        let sliders =
            self.by_role(Role::Bishop) | self.by_role(Role::Rook) | self.by_role(Role::Queen);
        let diagonal = (checkers & sliders & crate::attacks::bishop_rays(king)) == checkers;
        crate::attacks::line(a, b).contains(king) || (checkers & sliders).is_empty() || diagonal
    }
}

impl Position {
    /// Reads FEN, X-FEN or Shredder-FEN, validating strictly. Missing trailing fields default:
    /// side to move White, no castling, no en passant, halfmove clock 0, move number 1.
    ///
    /// ```
    /// use vizier_rules::Position;
    /// let pos = Position::from_fen("8/8/8/8/8/8/8/K6k b").unwrap();
    /// assert_eq!(pos.fen(), "8/8/8/8/8/8/8/K6k b - - 0 1");
    /// assert_eq!(
    ///     Position::from_fen("4k3/8/8/8/8/8/8/4K3 w K - 0 1").unwrap_err().to_string(),
    ///     "castling right K but no rook on h1"
    /// );
    /// ```
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        Position::parse_fen(fen, true)
    }

    /// Reads FEN as [`Position::from_fen`] does, but accepts a double check that no move can
    /// give ([`FenError::ImpossibleCheck`]): perft suites hold such positions, and move
    /// generation handles them.
    ///
    /// ```
    /// use vizier_rules::Position;
    /// let fen = "5R2/2P5/8/4k3/8/3rK2r/8/8 w - - 0 1";
    /// assert!(Position::from_fen(fen).is_err());
    /// assert_eq!(Position::from_fen_relaxed(fen).unwrap().legal_moves().len(), 2);
    /// ```
    pub fn from_fen_relaxed(fen: &str) -> Result<Position, FenError> {
        Position::parse_fen(fen, false)
    }

    fn parse_fen(fen: &str, checks: bool) -> Result<Position, FenError> {
        let mut fields = fen.split_ascii_whitespace();
        let board = fields.next().ok_or(FenError::Empty)?;
        let mut pos = Position::empty();
        parse_board(board, &mut pos)?;
        if let Some(turn) = fields.next() {
            pos.turn = match turn {
                "w" | "W" => Color::White,
                "b" | "B" => Color::Black,
                other => return Err(FenError::BadTurn(other.to_string())),
            };
        }
        validate_with(&pos, checks)?;
        if let Some(castling) = fields.next() {
            parse_castling(castling, &mut pos)?;
        }
        if let Some(ep) = fields.next() {
            parse_ep(ep, &mut pos)?;
        }
        if let Some(half) = fields.next() {
            pos.halfmoves = half
                .parse()
                .map_err(|_| FenError::BadHalfmoves(half.to_string()))?;
        }
        if let Some(full) = fields.next() {
            // Move number 0 is common in files (though not the standard's); it reads as 1.
            pos.fullmoves = full
                .parse::<u32>()
                .map(|n| n.max(1))
                .map_err(|_| FenError::BadFullmoves(full.to_string()))?;
        }
        if fields.next().is_some() {
            return Err(FenError::TooManyFields);
        }
        pos.refresh_derived();
        Ok(pos)
    }

    /// The board field of FEN alone.
    ///
    /// ```
    /// assert_eq!(vizier_rules::Position::new().board_fen(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR");
    /// ```
    pub fn board_fen(&self) -> String {
        let mut out = String::with_capacity(72);
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match self.piece_at(Square::from_coords(file, rank)) {
                    Some(p) => {
                        if empty > 0 {
                            out.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        out.push(p.char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                out.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out
    }

    /// The castling field in the chosen notation.
    ///
    /// ```
    /// use vizier_rules::{CastlingNotation, Position};
    /// assert_eq!(Position::new().castling_fen(CastlingNotation::XFen), "KQkq");
    /// ```
    pub fn castling_fen(&self, notation: CastlingNotation) -> String {
        let mut out = String::new();
        for color in Color::ALL {
            let back_rank = Bitboard::rank(color.back_rank());
            let rooks = self.pieces(color, Role::Rook) & back_rank;
            let king = self.king(color);
            for rook in (self.castling & back_rank).into_iter().rev() {
                let kingside = rook.file() > king.file();
                let outermost = !rooks.into_iter().any(|r| {
                    r != rook
                        && if kingside {
                            r.file() > rook.file()
                        } else {
                            r.file() < rook.file()
                        }
                });
                let c = match (notation, outermost, kingside) {
                    (CastlingNotation::XFen, true, true) => 'K',
                    (CastlingNotation::XFen, true, false) => 'Q',
                    _ => rook.file_char().to_ascii_uppercase(),
                };
                out.push(if color == Color::White {
                    c
                } else {
                    c.to_ascii_lowercase()
                });
            }
        }
        if out.is_empty() {
            out.push('-');
        }
        out
    }

    /// FEN (X-FEN for Chess960 castling). The en passant square is written only when an en
    /// passant capture is legal.
    ///
    /// ```
    /// assert_eq!(vizier_rules::Position::new().fen(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    /// ```
    pub fn fen(&self) -> String {
        self.fen_with(CastlingNotation::XFen)
    }

    /// FEN with the chosen castling notation.
    ///
    /// ```
    /// use vizier_rules::{CastlingNotation, Position};
    /// let pos = Position::chess960(0).unwrap();
    /// assert_eq!(pos.fen_with(CastlingNotation::Shredder), "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1");
    /// ```
    pub fn fen_with(&self, notation: CastlingNotation) -> String {
        let ep = self
            .ep_square()
            .map_or_else(|| "-".to_string(), |sq| sq.to_string());
        format!(
            "{} {} {} {} {} {}",
            self.board_fen(),
            self.turn.fold('w', 'b'),
            self.castling_fen(notation),
            ep,
            self.halfmoves,
            self.fullmoves
        )
    }

    /// The Chess960 start position with Scharnagl number `n` (0-959; 518 is the standard start).
    /// `None` for numbers above 959.
    ///
    /// ```
    /// use vizier_rules::Position;
    /// assert_eq!(Position::chess960(518).unwrap(), Position::new());
    /// assert_eq!(Position::chess960(959).unwrap().board_fen(), "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB");
    /// ```
    pub fn chess960(n: u16) -> Option<Position> {
        if n > 959 {
            return None;
        }
        let mut rank = [None::<Role>; 8];
        let mut n = n as usize;
        rank[2 * (n % 4) + 1] = Some(Role::Bishop);
        n /= 4;
        rank[2 * (n % 4)] = Some(Role::Bishop);
        n /= 4;
        let place = |rank: &mut [Option<Role>; 8], nth: usize, role: Role| {
            let idx = (0..8)
                .filter(|&i| rank[i].is_none())
                .nth(nth)
                .expect("enough empty files");
            rank[idx] = Some(role);
        };
        place(&mut rank, n % 6, Role::Queen);
        n /= 6;
        const KNIGHTS: [(usize, usize); 10] = [
            (0, 1),
            (0, 2),
            (0, 3),
            (0, 4),
            (1, 2),
            (1, 3),
            (1, 4),
            (2, 3),
            (2, 4),
            (3, 4),
        ];
        let (k1, k2) = KNIGHTS[n];
        place(&mut rank, k2, Role::Knight);
        place(&mut rank, k1, Role::Knight);
        for role in [Role::Rook, Role::King, Role::Rook] {
            place(&mut rank, 0, role);
        }
        let mut pos = Position::empty();
        for (file, role) in rank.iter().enumerate() {
            let role = role.expect("all files filled");
            for color in Color::ALL {
                let sq = Square::from_coords(file as u8, color.back_rank());
                pos.put(sq, Piece::new(color, role));
                pos.put(
                    Square::from_coords(file as u8, color.fold(1, 6)),
                    Piece::new(color, Role::Pawn),
                );
                if role == Role::Rook {
                    pos.castling |= sq.bb();
                }
            }
        }
        pos.refresh_derived();
        Some(pos)
    }

    /// A Chess960 start position chosen at random, with its number.
    ///
    /// ```
    /// let (n, pos) = vizier_rules::Position::chess960_random();
    /// assert!(n < 960);
    /// assert_eq!(vizier_rules::Position::chess960(n).unwrap(), pos);
    /// ```
    pub fn chess960_random() -> (u16, Position) {
        use std::hash::{BuildHasher, Hasher};
        // std's per-process random hash keys are a dependency-free source of randomness.
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u64(0x960);
        let n = (h.finish() % 960) as u16;
        (n, Position::chess960(n).expect("n < 960"))
    }

    /// Whether this position needs Chess960 castling notation: some castling rook or king is
    /// not on its standard square.
    ///
    /// ```
    /// assert!(!vizier_rules::Position::new().is_chess960());
    /// assert!(vizier_rules::Position::chess960(0).unwrap().is_chess960());
    /// ```
    pub fn is_chess960(&self) -> bool {
        let standard_rooks = Bitboard(0x8100_0000_0000_0081);
        if (self.castling & !standard_rooks).any() {
            return true;
        }
        Color::ALL.into_iter().any(|c| {
            (self.castling & Bitboard::rank(c.back_rank())).any()
                && self.king(c) != Square::from_coords(4, c.back_rank())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(fen: &str) -> String {
        Position::from_fen(fen).unwrap_err().to_string()
    }

    #[test]
    fn errors_say_what_is_wrong() {
        assert_eq!(err(""), "empty FEN");
        assert_eq!(
            err("8/8/8/8/8/8/8 w - - 0 1"),
            "the board has 7 ranks, expected 8 separated by '/'"
        );
        assert_eq!(
            err("9/8/8/8/8/8/8/8 w"),
            "'9' is not a piece letter (PNBRQK, pnbrqk) or a digit 1-8"
        );
        assert_eq!(
            err("4k4/8/8/8/8/8/8/4K3 w"),
            "rank 8 describes 9 squares, expected 8"
        );
        assert_eq!(
            err("4k3/8/8/8/8/8/8/4K3 x"),
            "side to move is \"x\", expected \"w\" or \"b\""
        );
        assert_eq!(err("4k3/8/8/8/8/8/8/8 w"), "white has no king");
        assert_eq!(err("4k2k/8/8/8/8/8/8/4K3 w"), "black has 2 kings");
        assert_eq!(err("4k2P/8/8/8/8/8/8/4K3 w"), "pawn on h8 (rank 8)");
        assert_eq!(
            err("4k3/8/8/8/8/8/8/4K2q b"),
            "side not to move is in check"
        );
        assert_eq!(
            err("4k3/8/8/8/8/8/8/4K3 w K"),
            "castling right K but no rook on h1"
        );
        assert_eq!(
            err("4k3/8/8/8/8/8/4K3/7R w K"),
            "castling right K but the white king is not on rank 1"
        );
        assert_eq!(
            err("4k3/8/8/8/8/8/8/4K3 b - e3"),
            "en passant square e3 but no pawn on e4"
        );
        assert_eq!(
            err("4k3/8/8/8/4P3/8/8/4K3 w - e3"),
            "en passant square e3 is on the wrong rank (rank 6 when White moves, rank 3 when Black moves)"
        );
        assert_eq!(
            err("4k3/8/8/8/8/8/8/4K3 w - - x"),
            "halfmove clock \"x\" is not a number"
        );
        assert_eq!(
            err("4k3/8/8/8/8/8/8/4K3 w - - 0 x"),
            "move number \"x\" is not a number"
        );
        // Two rooks checking along one rank: no single move gives that.
        assert_eq!(
            err("4k3/8/8/8/8/8/8/r3K2r w - - 0 1"),
            "side to move is in a double check no move can give"
        );
        // Two pawns: neither can have been uncovered.
        assert_eq!(
            err("4k3/3P1P2/8/8/8/8/8/4K3 b - - 0 1"),
            "side to move is in a double check no move can give"
        );
        assert_eq!(
            err("4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra"),
            "too many fields: a FEN has at most six"
        );
    }

    #[test]
    fn move_number_zero_reads_as_one_and_possible_double_checks_stand() {
        // 914 of the 3,332 games in Debian's puzzle files start from such a FEN.
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 0").unwrap();
        assert_eq!(pos.fullmoves(), 1);
        // A knight that moved off the e-file, uncovering the rook: a real double check.
        assert!(Position::from_fen("4k3/8/3N4/8/8/8/8/4R1K1 b - - 0 1").is_ok());
        // A knight that moved off a diagonal, uncovering the bishop: another.
        assert!(Position::from_fen("8/8/8/3k4/8/1B2N3/8/4K3 b - - 0 1").is_ok());
        // Two bishops, or a bishop and a queen along diagonals, never check at once.
        for fen in [
            "8/8/8/8/8/2b1k1b1/8/3RKR2 w - - 0 1",
            "8/8/8/8/8/2q1k1b1/8/3RKR2 w - - 0 1",
        ] {
            assert_eq!(
                Position::from_fen(fen).unwrap_err(),
                FenError::ImpossibleCheck,
                "{fen}"
            );
            assert!(Position::from_fen_relaxed(fen).is_ok());
        }
    }

    #[test]
    fn castling_notations() {
        let pos = Position::from_fen("1r2k1r1/8/8/8/8/8/8/RR2K2R w KQkq - 0 1").unwrap();
        // Q names the outermost queenside rook (a1); b1's right would be written B.
        assert_eq!(pos.castling_fen(CastlingNotation::XFen), "KQkq");
        assert_eq!(pos.castling_fen(CastlingNotation::Shredder), "HAgb");
        let pos = Position::from_fen("1r2k1r1/8/8/8/8/8/8/RR2K2R w HBgb - 0 1").unwrap();
        assert_eq!(pos.castling_fen(CastlingNotation::XFen), "KBkq");
        assert!(Position::from_fen("4k3/8/8/8/8/8/8/R3K2R w KH - 0 1").is_err());
    }

    #[test]
    fn en_passant_is_written_only_when_legal() {
        // The d5 pawn is pinned against the king on a5 along the fifth rank: no legal e.p.
        let pos = Position::from_fen("8/8/8/K2pP2r/8/8/8/7k w - d6 0 1").unwrap();
        assert_eq!(pos.ep_square(), None);
        assert!(pos.fen().contains(" - 0 1"));
        let pos = Position::from_fen("8/8/8/3pP3/8/8/8/K6k w - d6 0 1").unwrap();
        assert_eq!(pos.fen(), "8/8/8/3pP3/8/8/8/K6k w - d6 0 1");
    }
}
