//! Move notation: SAN (write; read strictly or leniently), UCI, FIDE long algebraic, figurine
//! and localized piece letters (FIDE Appendix C.3).

use crate::attacks;
use crate::{Bitboard, Move, Position, Role, Square};
use std::fmt;

/// Why a move in text could not be read in a position.
///
/// ```
/// use vizier_rules::{MoveParseError, Position};
/// let pos = Position::new();
/// assert!(matches!(pos.parse_san("Ke2"), Err(MoveParseError::Illegal(_))));
/// assert!(matches!(pos.parse_san("Zz9"), Err(MoveParseError::Syntax(_))));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveParseError {
    /// The text is not written like a move.
    Syntax(String),
    /// The text is a move, but no legal move here matches it.
    Illegal(String),
    /// More than one legal move matches.
    Ambiguous(String),
    /// Lenient-only forms (0-0, e8Q, e.p., over-disambiguation, figurines) in strict mode.
    NotStrict(String),
}

/// `text` without Unicode white space at either end, looked for byte by byte first: nearly
/// all text here is ASCII, where only the ends' bytes need a look.
#[inline]
pub(crate) fn trim(text: &str) -> &str {
    let b = text.as_bytes();
    if let (Some(first), Some(last)) = (b.first(), b.last())
        && first.is_ascii_graphic()
        && last.is_ascii_graphic()
    {
        return text;
    }
    let t = text.trim_ascii();
    // What `trim_ascii` leaves that `trim` would not: vertical tab and non-ASCII spaces.
    let odd = |b: &u8| !b.is_ascii() || *b == 0x0b;
    if t.as_bytes().first().is_some_and(odd) || t.as_bytes().last().is_some_and(odd) {
        t.trim()
    } else {
        t
    }
}
impl fmt::Display for MoveParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveParseError::Syntax(s) => write!(f, "\"{s}\" is not written like a move"),
            MoveParseError::Illegal(s) => write!(f, "\"{s}\" is not a legal move here"),
            MoveParseError::Ambiguous(s) => {
                write!(f, "\"{s}\" is ambiguous: more than one piece can make it")
            }
            MoveParseError::NotStrict(s) => {
                write!(
                    f,
                    "\"{s}\" is not standard SAN (write it as the canonical form)"
                )
            }
        }
    }
}

impl std::error::Error for MoveParseError {}

/// A language for piece initials (FIDE Appendix C.3 lets each player use their own).
///
/// ```
/// use vizier_rules::{Language, Role};
/// assert_eq!(Language::German.letter(Role::Knight), "S");
/// assert_eq!(Language::Chinese.letter(Role::Rook), "车");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Language {
    /// K Q R B N.
    English,
    /// K D T L S.
    German,
    /// R D T F C.
    French,
    /// R D T A C.
    Spanish,
    /// R D T A C.
    Italian,
    /// K D T L P.
    Dutch,
    /// 王 后 车 象 马.
    Chinese,
}

impl Language {
    /// The initial of a piece (pawns have none in SAN, but one is given for completeness).
    ///
    /// ```
    /// assert_eq!(vizier_rules::Language::French.letter(vizier_rules::Role::Bishop), "F");
    /// ```
    pub const fn letter(self, role: Role) -> &'static str {
        use Role::*;
        match (self, role) {
            (Language::English, King) => "K",
            (Language::English, Queen) => "Q",
            (Language::English, Rook) => "R",
            (Language::English, Bishop) => "B",
            (Language::English, Knight) => "N",
            (Language::English, Pawn) => "P",
            (Language::German, King) => "K",
            (Language::German, Queen) => "D",
            (Language::German, Rook) => "T",
            (Language::German, Bishop) => "L",
            (Language::German, Knight) => "S",
            (Language::German, Pawn) => "B",
            (Language::French, King) => "R",
            (Language::French, Queen) => "D",
            (Language::French, Rook) => "T",
            (Language::French, Bishop) => "F",
            (Language::French, Knight) => "C",
            (Language::French, Pawn) => "P",
            (Language::Spanish | Language::Italian, King) => "R",
            (Language::Spanish | Language::Italian, Queen) => "D",
            (Language::Spanish | Language::Italian, Rook) => "T",
            (Language::Spanish | Language::Italian, Bishop) => "A",
            (Language::Spanish | Language::Italian, Knight) => "C",
            (Language::Spanish | Language::Italian, Pawn) => "P",
            (Language::Dutch, King) => "K",
            (Language::Dutch, Queen) => "D",
            (Language::Dutch, Rook) => "T",
            (Language::Dutch, Bishop) => "L",
            (Language::Dutch, Knight) => "P",
            (Language::Dutch, Pawn) => "p",
            (Language::Chinese, King) => "王",
            (Language::Chinese, Queen) => "后",
            (Language::Chinese, Rook) => "车",
            (Language::Chinese, Bishop) => "象",
            (Language::Chinese, Knight) => "马",
            (Language::Chinese, Pawn) => "兵",
        }
    }

    /// Looks a language up by its ISO 639-1 code ("en", "de", "fr", "es", "it", "nl", "zh").
    ///
    /// ```
    /// assert_eq!(vizier_rules::Language::from_code("zh"), Some(vizier_rules::Language::Chinese));
    /// ```
    pub fn from_code(code: &str) -> Option<Language> {
        Some(match code.get(..2)?.to_ascii_lowercase().as_str() {
            "en" => Language::English,
            "de" => Language::German,
            "fr" => Language::French,
            "es" => Language::Spanish,
            "it" => Language::Italian,
            "nl" => Language::Dutch,
            "zh" => Language::Chinese,
            _ => return None,
        })
    }
}

/// How pieces are named when writing a move.
///
/// ```
/// use vizier_rules::{Language, PieceStyle, Position};
/// let pos = Position::new();
/// let m = pos.parse_san("Nf3").unwrap();
/// assert_eq!(pos.san_styled(m, PieceStyle::Figurine), "♘f3");
/// assert_eq!(pos.san_styled(m, PieceStyle::Letters(Language::German)), "Sf3");
/// assert_eq!(pos.san_styled(m, PieceStyle::Letters(Language::Chinese)), "马f3");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PieceStyle {
    /// Initials of a language (English gives standard SAN).
    Letters(Language),
    /// Figurines ♔♕♖♗♘ (the white forms, as printed scoresheets use for both sides).
    Figurine,
}

impl PieceStyle {
    fn name(self, role: Role) -> &'static str {
        match self {
            PieceStyle::Letters(lang) => lang.letter(role),
            PieceStyle::Figurine => match role {
                Role::King => "♔",
                Role::Queen => "♕",
                Role::Rook => "♖",
                Role::Bishop => "♗",
                Role::Knight => "♘",
                Role::Pawn => "♙",
            },
        }
    }
}

/// Splits UCI text ("e2e4", "e7e8q") into its squares and promotion role, without allocating.
fn uci_squares(text: &str) -> Option<(Square, Square, Option<Role>)> {
    let b = text.as_bytes();
    if !(4..=5).contains(&b.len()) {
        return None;
    }
    let from = Square::from_ascii(&b[0..2])?;
    let to = Square::from_ascii(&b[2..4])?;
    let promotion = match b.get(4) {
        None => None,
        Some(&c) => match Role::from_char(c as char) {
            Some(r @ (Role::Knight | Role::Bishop | Role::Rook | Role::Queen)) => Some(r),
            _ => return None,
        },
    };
    Some((from, to, promotion))
}

/// Maps figurines of either colour to English letters (lenient SAN input).
fn figurine_letter(c: char) -> Option<char> {
    Some(match c {
        '♔' | '♚' => 'K',
        '♕' | '♛' => 'Q',
        '♖' | '♜' => 'R',
        '♗' | '♝' => 'B',
        '♘' | '♞' => 'N',
        '♙' | '♟' => 'P',
        _ => return None,
    })
}

/// How a UCI move writes castling.
///
/// ```
/// use vizier_rules::UciCastling;
/// assert_eq!(UciCastling::for_chess960(true), UciCastling::KingTakesRook);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum UciCastling {
    /// The king's two-square step (`e1g1`): UCI in standard chess.
    #[default]
    KingStep,
    /// The king takes its own rook (`e1h1`): UCI with `UCI_Chess960`.
    KingTakesRook,
}

impl UciCastling {
    /// King-takes-rook for Chess960 games, the king's step otherwise.
    pub fn for_chess960(chess960: bool) -> UciCastling {
        if chess960 {
            UciCastling::KingTakesRook
        } else {
            UciCastling::KingStep
        }
    }
}

impl Position {
    /// The move in UCI long form: `e2e4`, `e7e8q`; castling as `castling` says (the king's
    /// step `e1g1`, or king-takes-rook `e1h1` as Chess960 hosts expect), and king-takes-rook
    /// whenever the king or rook does not start on its standard square (a king on g1 castling
    /// with the h1 rook would otherwise be the non-move `g1g1`).
    ///
    /// ```
    /// use vizier_rules::{Move, Position, Square, UciCastling};
    /// let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1").unwrap();
    /// let castle = Move::castle(Square::E1, Square::H1);
    /// assert_eq!(pos.uci(castle, UciCastling::KingStep), "e1g1");
    /// assert_eq!(pos.uci(castle, UciCastling::KingTakesRook), "e1h1");
    /// ```
    pub fn uci(&self, m: Move, castling: UciCastling) -> String {
        let (from, to) = self.uci_squares(m, castling);
        let mut s = String::with_capacity(5);
        s.push_str(from.name());
        s.push_str(to.name());
        if let Some(role) = m.promotion() {
            s.push(role.char());
        }
        s
    }

    /// The two squares that [`Position::uci`] writes for `m`: where castling is written as the
    /// king's step, the king's destination rather than the rook's square.
    ///
    /// ```
    /// use vizier_rules::{Position, Square, UciCastling};
    /// let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1").unwrap();
    /// let castle = pos.parse_uci("e1g1").unwrap();
    /// assert_eq!(pos.uci_squares(castle, UciCastling::KingStep), (Square::E1, Square::G1));
    /// assert_eq!(pos.uci_squares(castle, UciCastling::KingTakesRook), (Square::E1, Square::H1));
    /// ```
    pub fn uci_squares(&self, m: Move, castling: UciCastling) -> (Square, Square) {
        // The king's two-square step names standard castling only: a Chess960 king that
        // starts elsewhere (or does not move at all) is written king-takes-rook either way.
        let standard_castle = m.from().file() == 4 && matches!(m.to().file(), 0 | 7);
        let to = if m.is_castle() && castling == UciCastling::KingStep && standard_castle {
            Position::castle_squares(self.turn, m.from(), m.to()).0
        } else {
            m.to()
        };
        (m.from(), to)
    }

    /// Reads a UCI move and finds it among the legal moves. Castling is accepted both as
    /// king-takes-rook and as the king's two-square step.
    ///
    /// ```
    /// use vizier_rules::Position;
    /// let pos = Position::new();
    /// assert!(pos.parse_uci("g1f3").is_ok());
    /// assert!(pos.parse_uci("g1g3").is_err());
    /// ```
    pub fn parse_uci(&self, text: &str) -> Result<Move, MoveParseError> {
        let (from, to, promotion) =
            uci_squares(text).ok_or_else(|| MoveParseError::Syntax(text.to_string()))?;
        self.find_uci(from, to, promotion)
            .ok_or_else(|| MoveParseError::Illegal(text.to_string()))
    }

    /// Reads a move as players type it: UCI first (`g1f3`, Chess960 castling as
    /// king-takes-rook), else SAN, leniently.
    ///
    /// ```
    /// use vizier_rules::Position;
    /// let pos = Position::new();
    /// assert_eq!(pos.parse_move(" g1f3").unwrap(), pos.parse_move("Nf3").unwrap());
    /// assert!(pos.parse_move("Nf4").is_err());
    /// ```
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveParseError> {
        self.parse_uci(text.trim())
            .or_else(|_| self.parse_san_lenient(text))
    }

    /// The legal move from `from` to `to` (castling as king-takes-rook or the king's step).
    fn find_uci(&self, from: Square, to: Square, promotion: Option<Role>) -> Option<Move> {
        // Castling may be written as the king's step: look at both destinations.
        let targets = to.bb() | self.castling;
        self.legal_moves_to(targets).iter().copied().find(|m| {
            m.from() == from
                && m.promotion() == promotion
                && (m.to() == to
                    || (m.is_castle()
                        && Position::castle_squares(self.turn, from, m.to()).0 == to
                        && from.file().abs_diff(to.file()) == 2))
        })
    }

    /// The check suffix of a move: "#" for mate, "+" for check, "" otherwise.
    fn check_suffix(&self, m: Move) -> &'static str {
        let mut after = self.clone();
        after.play_unchecked(m);
        if !after.is_check() {
            ""
        } else if after.has_legal_moves() {
            "+"
        } else {
            "#"
        }
    }

    fn san_body(&self, m: Move, style: PieceStyle) -> String {
        if m.is_castle() {
            return if m.to().file() > m.from().file() {
                "O-O"
            } else {
                "O-O-O"
            }
            .to_string();
        }
        let (from, to) = (m.from(), m.to());
        let role = self.piece_at(from).map_or(Role::Pawn, |p| p.role);
        let mut s = String::with_capacity(8);
        if role == Role::Pawn {
            if self.is_capture_move(m) {
                s.push(from.file_char());
                s.push('x');
            }
            s.push_str(&to.to_string());
            if let Some(p) = m.promotion() {
                s.push('=');
                s.push_str(style.name(p));
            }
            return s;
        }
        s.push_str(style.name(role));
        let rivals = attacks::of(role, self.turn, to, self.occupied())
            & self.pieces(self.turn, role)
            & !from.bb();
        if rivals.any() {
            let others: Vec<Square> = self
                .legal_moves_to(to.bb())
                .iter()
                .filter(|o| {
                    o.to() == to && o.from() != from && !o.is_castle() && rivals.contains(o.from())
                })
                .map(|o| o.from())
                .collect();
            if !others.is_empty() {
                if others.iter().all(|o| o.file() != from.file()) {
                    s.push(from.file_char());
                } else if others.iter().all(|o| o.rank() != from.rank()) {
                    s.push(from.rank_char());
                } else {
                    s.push_str(&from.to_string());
                }
            }
        }
        if self.is_capture_move(m) {
            s.push('x');
        }
        s.push_str(&to.to_string());
        s
    }

    /// Standard algebraic notation with minimal disambiguation and a `+`/`#` suffix.
    ///
    /// ```
    /// use vizier_rules::Position;
    /// let pos = Position::from_fen("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1").unwrap();
    /// let m = pos.parse_uci("a1a8").unwrap();
    /// assert_eq!(pos.san(m), "Ra8+");
    /// assert_eq!(pos.san(pos.parse_uci("e1c1").unwrap()), "O-O-O");
    /// ```
    pub fn san(&self, m: Move) -> String {
        self.san_styled(m, PieceStyle::Letters(Language::English))
    }

    /// SAN with pieces named as `style` says (figurines or another language's initials).
    ///
    /// ```
    /// use vizier_rules::{Language, PieceStyle, Position};
    /// let pos = Position::new();
    /// let m = pos.parse_san("Nc3").unwrap();
    /// assert_eq!(pos.san_styled(m, PieceStyle::Letters(Language::French)), "Cc3");
    /// ```
    pub fn san_styled(&self, m: Move, style: PieceStyle) -> String {
        let mut s = self.san_body(m, style);
        s.push_str(self.check_suffix(m));
        s
    }

    /// FIDE long algebraic notation: `Ng1-f3`, `e7xd8=Q`, `O-O`, with `+`/`#`.
    ///
    /// ```
    /// let pos = vizier_rules::Position::new();
    /// assert_eq!(pos.long_algebraic(pos.parse_uci("g1f3").unwrap()), "Ng1-f3");
    /// assert_eq!(pos.long_algebraic(pos.parse_uci("e2e4").unwrap()), "e2-e4");
    /// ```
    pub fn long_algebraic(&self, m: Move) -> String {
        let mut s = if m.is_castle() {
            self.san_body(m, PieceStyle::Letters(Language::English))
        } else {
            let role = self.piece_at(m.from()).map_or(Role::Pawn, |p| p.role);
            let mut s = String::new();
            if role != Role::Pawn {
                s.push(role.upper_char());
            }
            s.push_str(&m.from().to_string());
            s.push(if self.is_capture_move(m) { 'x' } else { '-' });
            s.push_str(&m.to().to_string());
            if let Some(p) = m.promotion() {
                s.push('=');
                s.push(p.upper_char());
            }
            s
        };
        s.push_str(self.check_suffix(m));
        s
    }

    /// Reads strict SAN: the canonical form this crate writes, optionally followed by `+`, `#`
    /// or annotation glyphs (`!`, `?`).
    ///
    /// ```
    /// use vizier_rules::Position;
    /// let pos = Position::new();
    /// assert!(pos.parse_san("e4").is_ok());
    /// assert!(pos.parse_san("Ngf3").is_err()); // over-disambiguated
    /// assert!(pos.parse_san_lenient("Ngf3").is_ok());
    /// ```
    pub fn parse_san(&self, text: &str) -> Result<Move, MoveParseError> {
        let m = self.parse_san_lenient(text)?;
        let body = text.trim_end_matches(['+', '#', '!', '?']);
        if self.san_body(m, PieceStyle::Letters(Language::English)) != body {
            return Err(MoveParseError::NotStrict(text.to_string()));
        }
        Ok(m)
    }

    /// Reads SAN leniently: also `0-0`, `e8Q`, `exd6 e.p.`, over-disambiguated moves such as
    /// `Nbd7` or `Ng1f3`, figurines (`♘f3`), a `-` or `:` between squares, and UCI moves.
    ///
    /// ```
    /// use vizier_rules::Position;
    /// let pos = Position::from_fen("r3k3/1P6/8/8/8/8/8/4K2R w K - 0 1").unwrap();
    /// assert_eq!(pos.parse_san_lenient("bxa8Q").unwrap(), pos.parse_san("bxa8=Q").unwrap());
    /// assert_eq!(pos.parse_san_lenient("0-0").unwrap(), pos.parse_san("O-O").unwrap());
    /// ```
    pub fn parse_san_lenient(&self, text: &str) -> Result<Move, MoveParseError> {
        let syntax = || MoveParseError::Syntax(text.to_string());
        let illegal = || MoveParseError::Illegal(text.to_string());
        // Plain ASCII without spaces (nearly every move in a PGN) needs no copy.
        let owned: String;
        let mut body: &str = if text.bytes().all(|b| b.is_ascii_graphic()) {
            text
        } else {
            owned = trim(text)
                .chars()
                .map(|c| figurine_letter(c).unwrap_or(c))
                .filter(|c| !c.is_whitespace())
                .collect();
            &owned
        };
        if body.ends_with(['.', 'p']) {
            for suffix in ["e.p.", "ep"] {
                if let Some(b) = body.strip_suffix(suffix) {
                    body = b;
                }
            }
        }
        let marks = (body.as_bytes().iter().rev())
            .take_while(|b| matches!(b, b'+' | b'#' | b'!' | b'?'))
            .count();
        let body = &body[..body.len() - marks];
        if body.is_empty() || !body.is_ascii() {
            return Err(syntax());
        }

        let castle_side = match body {
            _ if !body.starts_with(['O', '0', 'o']) => None,
            "O-O" | "0-0" | "o-o" => Some(true),
            "O-O-O" | "0-0-0" | "o-o-o" => Some(false),
            _ => None,
        };
        if let Some(kingside) = castle_side {
            return self
                .legal_moves()
                .iter()
                .copied()
                .find(|m| m.is_castle() && (m.to().file() > m.from().file()) == kingside)
                .ok_or_else(illegal);
        }
        self.san_move(text, body).or_else(|e| {
            // UCI as a last resort (`e7e8q`; a UCI move without promotion reads as SAN).
            uci_squares(body)
                .and_then(|(from, to, promo)| self.find_uci(from, to, promo))
                .ok_or(e)
        })
    }

    /// Resolves the body of a SAN move (no suffixes); `text` is the whole input, for errors.
    fn san_move(&self, text: &str, body: &str) -> Result<Move, MoveParseError> {
        let syntax = || MoveParseError::Syntax(text.to_string());
        let illegal = || MoveParseError::Illegal(text.to_string());
        let b = body.as_bytes();
        let (role, rest) = match b[0] {
            b'K' => (Role::King, &b[1..]),
            b'Q' => (Role::Queen, &b[1..]),
            b'R' => (Role::Rook, &b[1..]),
            b'B' => (Role::Bishop, &b[1..]),
            b'N' => (Role::Knight, &b[1..]),
            b'P' => (Role::Pawn, &b[1..]),
            _ => (Role::Pawn, b),
        };
        // Promotion at the end: "=Q", "Q" or "(Q)".
        let mut rest = rest;
        let mut promotion = None;
        if let Some(&last) = rest.last()
            && last.is_ascii_uppercase()
            && let Some(r) = Role::from_char(last as char)
        {
            promotion = Some(r);
            rest = &rest[..rest.len() - 1];
            if rest.last() == Some(&b'=') {
                rest = &rest[..rest.len() - 1];
            }
        }
        if rest.len() < 2 {
            return Err(syntax());
        }
        let to = Square::from_ascii(&rest[rest.len() - 2..]).ok_or_else(syntax)?;
        let mut prefix = &rest[..rest.len() - 2];
        if let Some((&c, p)) = prefix.split_last()
            && matches!(c, b'x' | b'X' | b':' | b'-')
        {
            prefix = p;
        }
        let (mut file, mut rank) = (None, None);
        for &c in prefix {
            match c {
                b'a'..=b'h' if file.is_none() && rank.is_none() => file = Some(c - b'a'),
                b'1'..=b'8' if rank.is_none() => rank = Some(c - b'1'),
                _ => return Err(syntax()),
            }
        }
        // Only the pieces the SAN can mean are generated.
        let mut from = self.pieces(self.turn(), role);
        if let Some(f) = file {
            from &= Bitboard::file(f);
        }
        if let Some(r) = rank {
            from &= Bitboard::rank(r);
        }
        let (found, count) = self.san_matches(role, from, to, promotion);
        if count > 1 {
            return Err(MoveParseError::Ambiguous(text.to_string()));
        }
        found.ok_or_else(|| {
            // A pawn reaching the last rank needs a promotion piece: say so clearly.
            if role == Role::Pawn && promotion.is_none() && (to.rank() == 0 || to.rank() == 7) {
                MoveParseError::Syntax(format!("{text} (missing promotion piece, e.g. ={})", "Q"))
            } else {
                illegal()
            }
        })
    }

    /// Whether `m` is a capture (en passant included; castling never).
    ///
    /// ```
    /// let pos = vizier_rules::Position::new();
    /// assert!(!pos.is_capture_move(pos.parse_san("e4").unwrap()));
    /// ```
    #[inline]
    pub fn is_capture_move(&self, m: Move) -> bool {
        m.is_en_passant() || (!m.is_castle() && self.piece_at(m.to()).is_some())
    }

    /// Whether `m` is a pawn move or a capture (it resets the 50-move count).
    ///
    /// ```
    /// let pos = vizier_rules::Position::new();
    /// assert!(pos.is_zeroing(pos.parse_san("e4").unwrap()));
    /// assert!(!pos.is_zeroing(pos.parse_san("Nf3").unwrap()));
    /// ```
    pub fn is_zeroing(&self, m: Move) -> bool {
        self.is_capture_move(m)
            || (!m.is_castle()
                && self
                    .piece_at(m.from())
                    .is_some_and(|p| p.role == Role::Pawn))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trim_agrees_with_unicode_trim() {
        for text in [
            "e4",
            " e4\t",
            "\x0be4\x0b",
            "\u{3000}Nf3\u{a0}",
            "\r\n",
            "",
            "\u{85}x",
            "白 ",
        ] {
            assert_eq!(trim(text), text.trim(), "{text:?}");
        }
    }

    #[test]
    fn disambiguation_is_minimal() {
        // Knights on b1 and f1 both reach d2: file suffices.
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1").unwrap();
        assert_eq!(pos.san(pos.parse_uci("b1d2").unwrap()), "Nbd2");
        // Rooks on a1 and a5 reach a3: rank needed.
        let pos = Position::from_fen("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1").unwrap();
        assert_eq!(pos.san(pos.parse_uci("a1a3").unwrap()), "R1a3");
        // Queens on a1, a3 and c1 all reach b2: both needed for a1.
        let pos = Position::from_fen("4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1").unwrap();
        assert_eq!(pos.san(pos.parse_uci("a1b2").unwrap()), "Qa1b2");
        // A pinned rival does not count.
        let pos = Position::from_fen("4k3/4r3/8/8/8/8/4N3/2N1K3 w - - 0 1").unwrap();
        assert_eq!(pos.san(pos.parse_uci("c1d3").unwrap()), "Nd3");
    }

    #[test]
    fn lenient_forms_are_refused_in_strict_mode() {
        let pos = Position::from_fen("r3k3/1P6/8/3pP3/8/8/8/4K2R w K d6 0 1").unwrap();
        for (lenient, canonical) in [
            ("0-0", "O-O"),
            ("bxa8Q", "bxa8=Q"),
            ("exd6 e.p.", "exd6"),
            ("Ke1f1", "Kf1"),
            ("♔f1", "Kf1"),
            ("e5xd6", "exd6"),
        ] {
            let m = pos
                .parse_san_lenient(lenient)
                .unwrap_or_else(|e| panic!("{lenient}: {e}"));
            assert_eq!(pos.parse_san(canonical), Ok(m), "{canonical}");
            assert!(
                pos.parse_san(lenient).is_err(),
                "{lenient} accepted strictly"
            );
        }
        assert!(matches!(
            pos.parse_san("c8=Q"),
            Err(MoveParseError::Illegal(_))
        ));
        assert!(matches!(
            pos.parse_san("bxa8"),
            Err(MoveParseError::Syntax(_))
        ));
        assert!(matches!(
            pos.parse_san("b8"),
            Err(MoveParseError::Syntax(_))
        ));
    }

    #[test]
    fn ambiguity_is_reported() {
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1").unwrap();
        assert!(matches!(
            pos.parse_san("Nd2"),
            Err(MoveParseError::Ambiguous(_))
        ));
    }

    #[test]
    fn chess960_castling_in_every_notation() {
        // Kb1 with rooks a1 and h1: O-O-O puts the king on c1 and the rook on d1.
        let pos = Position::from_fen("1k6/8/8/8/8/8/8/RK5R w AH - 0 1").unwrap();
        let long = pos.parse_san("O-O-O").unwrap();
        assert_eq!(pos.uci(long, UciCastling::KingTakesRook), "b1a1");
        assert_eq!(pos.parse_uci("b1a1"), Ok(long));
        let after = pos.play(long).unwrap();
        assert_eq!(after.board_fen(), "1k6/8/8/8/8/8/8/2KR3R");
        assert_eq!(pos.long_algebraic(long), "O-O-O");
    }

    #[test]
    fn chess960_castling_is_never_written_as_a_non_move() {
        // Found by fuzzing: king g1, rook h1; O-O leaves the king on g1.
        let pos =
            Position::from_fen("n1bb1rkr/qpnppppp/2p5/p7/P1P5/5P2/1P1PPRPP/NQBBN1KR w H - 0 1")
                .unwrap();
        let castle = pos.parse_san("O-O").unwrap();
        for chess960 in [false, true] {
            assert_eq!(pos.uci(castle, UciCastling::for_chess960(chess960)), "g1h1");
            assert_eq!(
                pos.parse_uci(&pos.uci(castle, UciCastling::for_chess960(chess960))),
                Ok(castle)
            );
        }
    }

    #[test]
    fn localized_and_long_forms() {
        let pos = Position::from_fen("3r2k1/4P3/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        let m = pos.parse_san("exd8=Q+").unwrap();
        assert_eq!(pos.long_algebraic(m), "e7xd8=Q+");
        assert_eq!(
            pos.san_styled(m, PieceStyle::Letters(Language::German)),
            "exd8=D+"
        );
        assert_eq!(
            pos.san_styled(m, PieceStyle::Letters(Language::Spanish)),
            "exd8=D+"
        );
        assert_eq!(
            pos.san_styled(m, PieceStyle::Letters(Language::Chinese)),
            "exd8=后+"
        );
        assert_eq!(pos.san_styled(m, PieceStyle::Figurine), "exd8=♕+");
    }
}
