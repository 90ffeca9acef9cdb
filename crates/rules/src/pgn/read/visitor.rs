//! What the reader tells of each game: a [`Visitor`] receives it step by step.

use crate::{Move, Position};

/// What to do with a variation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variation {
    /// Read it: its moves are resolved and reported.
    Enter,
    /// Pass over it unread (its moves are not checked).
    Skip,
}

/// Receives one game at a time from a [`Parser`]. Every method but [`Visitor::end_game`] has
/// a default that ignores its input. If the game turns out to be malformed, the parser stops
/// calling the visitor and returns the error instead of `end_game`'s output.
///
/// ```
/// use vizier_rules::pgn::{Parser, Visitor};
/// use vizier_rules::{Move, Position};
///
/// /// Counts the main-line moves of each game.
/// struct Plies(usize);
/// impl Visitor for Plies {
///     type Output = usize;
///     fn begin_game(&mut self) { self.0 = 0; }
///     fn play(&mut self, _before: &Position, _mv: Move) { self.0 += 1; }
///     fn end_game(&mut self, _result: Option<&str>) -> usize { self.0 }
/// }
///
/// let mut parser = Parser::new(&b"1. e4 e5 (1... c5) 2. Nf3 *\n\n1. d4 *\n"[..]);
/// let mut plies = Plies(0);
/// assert_eq!(parser.read_game(&mut plies), Some(Ok(3)));
/// assert_eq!(parser.read_game(&mut plies), Some(Ok(1)));
/// assert_eq!(parser.read_game(&mut plies), None);
/// ```
pub trait Visitor {
    /// What a game becomes.
    type Output;

    /// A new game begins.
    fn begin_game(&mut self) {}

    /// A tag pair, its value unescaped.
    fn tag(&mut self, _name: &str, _value: &str) {}

    /// The movetext begins from `start` (from the `FEN` tag, else the standard start);
    /// `chess960` from the `Variant` tag or the position. Called once per game, even one
    /// without moves.
    fn begin_moves(&mut self, _start: &Position, _chess960: bool) {}

    /// A comment, without its braces (and trimmed).
    fn comment(&mut self, _text: &str) {}

    /// A numeric annotation glyph (`$n`, or a suffix such as `!?`) for the last move.
    fn nag(&mut self, _nag: u8) {}

    /// A legal move, played from `before`.
    fn play(&mut self, _before: &Position, _mv: Move) {}

    /// A variation begins: an alternative to the last move played.
    fn begin_variation(&mut self) -> Variation {
        Variation::Skip
    }

    /// The variation entered last ends.
    fn end_variation(&mut self) {}

    /// The game ends, with its termination marker (or a valid `Result` tag when the movetext
    /// has none).
    fn end_game(&mut self, result: Option<&str>) -> Self::Output;
}
