//! # vizier-rules
//!
//! The FIDE Laws of Chess as a library: positions and fully legal move generation for standard
//! chess and Chess960, FEN/X-FEN/Shredder-FEN, move notation (SAN, UCI, long algebraic,
//! figurine, localized piece letters), PGN reading and writing, and the outcomes of a position
//! and of a game's history (mate, stalemate, insufficient material, repetition, 50/75 moves).
//!
//! ```
//! use vizier_rules::{Position, perft};
//! let pos = Position::new();
//! assert_eq!(perft(&pos, 2), 400);
//! let m = pos.parse_san("Nf3").unwrap();
//! assert_eq!(pos.san(m), "Nf3");
//! ```

#![warn(missing_docs)]

/// Attack sets of every piece, and lines between squares.
///
/// ```
/// use vizier_rules::{attacks, Square};
/// assert_eq!(attacks::knight(Square::B1).count(), 3);
/// ```
pub mod attacks;
mod bitboard;
mod ending;
mod fen;
mod history;
pub mod mate;
mod movegen;
mod moves;
mod notation;
mod outcome;
/// PGN reading and writing.
///
/// ```
/// let games = vizier_rules::pgn::read_str("1. e4 e5 *");
/// assert_eq!(games[0].as_ref().unwrap().mainline.nodes.len(), 2);
/// ```
pub mod pgn;
mod position;
mod types;
mod zobrist;

pub use bitboard::{Bitboard, Squares};
pub use ending::{ENDINGS, Ending, PgnTermination, Reason};
pub use fen::{CastlingNotation, FenError};
pub use history::History;
pub use mate::{DEAD_CHECK_NODES, DEEP_NODES, DeadCheck, FULL_NODES, MateVerdict, QUICK_NODES};
pub use movegen::{perft, perft_full};
pub use moves::{MAX_MOVES, Move, MoveKind, MoveList};
pub use notation::{Language, MoveParseError, PieceStyle, UciCastling};
pub use outcome::{BoardOutcome, Termination};
pub use position::{IllegalMove, Position};
pub use types::{Color, ParseSquareError, Piece, Role, Square};
