//! The small value types of chess: colours, roles, pieces and squares.

use std::fmt;
use std::ops::Not;

/// A side: White or Black. With the `serde` feature it is written `"white"` or `"black"`.
///
/// ```
/// use vizier_rules::Color;
/// assert_eq!(!Color::White, Color::Black);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "lowercase")
)]
#[repr(u8)]
pub enum Color {
    /// The side that moves first.
    White = 0,
    /// The other side.
    Black = 1,
}

impl Color {
    /// Both colours, White first.
    ///
    /// ```
    /// assert_eq!(vizier_rules::Color::ALL.len(), 2);
    /// ```
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// 0 for White, 1 for Black: an index into per-colour arrays.
    ///
    /// ```
    /// assert_eq!(vizier_rules::Color::Black.index(), 1);
    /// ```
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Picks `white` or `black` by colour.
    ///
    /// ```
    /// use vizier_rules::Color;
    /// assert_eq!(Color::Black.fold(1, 8), 8);
    /// ```
    #[inline]
    pub fn fold<T>(self, white: T, black: T) -> T {
        match self {
            Color::White => white,
            Color::Black => black,
        }
    }

    /// The rank (0-based) of this colour's pieces at the start: 0 for White, 7 for Black.
    ///
    /// ```
    /// assert_eq!(vizier_rules::Color::Black.back_rank(), 7);
    /// ```
    #[inline]
    pub const fn back_rank(self) -> u8 {
        match self {
            Color::White => 0,
            Color::Black => 7,
        }
    }

    /// The English name, lower case ("white", "black").
    ///
    /// ```
    /// assert_eq!(vizier_rules::Color::White.name(), "white");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A kind of piece, regardless of colour.
///
/// ```
/// use vizier_rules::Role;
/// assert_eq!(Role::from_char('N'), Some(Role::Knight));
/// assert_eq!(Role::Queen.upper_char(), 'Q');
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum Role {
    /// Pawn (兵).
    Pawn = 0,
    /// Knight (马).
    Knight = 1,
    /// Bishop (象).
    Bishop = 2,
    /// Rook (车).
    Rook = 3,
    /// Queen (后).
    Queen = 4,
    /// King (王).
    King = 5,
}

impl Role {
    /// All roles, pawn first.
    ///
    /// ```
    /// assert_eq!(vizier_rules::Role::ALL[5], vizier_rules::Role::King);
    /// ```
    pub const ALL: [Role; 6] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ];

    /// The roles a pawn may promote to, strongest first.
    ///
    /// ```
    /// assert_eq!(vizier_rules::Role::PROMOTIONS.len(), 4);
    /// ```
    pub const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

    /// An index 0..6 into per-role arrays.
    ///
    /// ```
    /// assert_eq!(vizier_rules::Role::Rook.index(), 3);
    /// ```
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The English letter in lower case: p n b r q k.
    ///
    /// ```
    /// assert_eq!(vizier_rules::Role::Knight.char(), 'n');
    /// ```
    pub const fn char(self) -> char {
        match self {
            Role::Pawn => 'p',
            Role::Knight => 'n',
            Role::Bishop => 'b',
            Role::Rook => 'r',
            Role::Queen => 'q',
            Role::King => 'k',
        }
    }

    /// The English letter in upper case: P N B R Q K.
    ///
    /// ```
    /// assert_eq!(vizier_rules::Role::King.upper_char(), 'K');
    /// ```
    pub const fn upper_char(self) -> char {
        self.char().to_ascii_uppercase()
    }

    /// Reads an English piece letter in either case.
    ///
    /// ```
    /// assert_eq!(vizier_rules::Role::from_char('b'), Some(vizier_rules::Role::Bishop));
    /// assert_eq!(vizier_rules::Role::from_char('x'), None);
    /// ```
    pub const fn from_char(c: char) -> Option<Role> {
        Some(match c.to_ascii_lowercase() {
            'p' => Role::Pawn,
            'n' => Role::Knight,
            'b' => Role::Bishop,
            'r' => Role::Rook,
            'q' => Role::Queen,
            'k' => Role::King,
            _ => return None,
        })
    }

    #[inline]
    pub(crate) const fn from_index(i: usize) -> Role {
        Role::ALL[i]
    }
}

/// A piece: a role of a colour.
///
/// ```
/// use vizier_rules::{Color, Piece, Role};
/// let p = Piece::new(Color::Black, Role::Queen);
/// assert_eq!(p.char(), 'q');
/// assert_eq!(Piece::from_char('Q'), Some(Piece::new(Color::White, Role::Queen)));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    /// Whose piece it is.
    pub color: Color,
    /// What kind of piece it is.
    pub role: Role,
}

impl Piece {
    /// Makes a piece.
    ///
    /// ```
    /// let p = vizier_rules::Piece::new(vizier_rules::Color::White, vizier_rules::Role::Pawn);
    /// assert_eq!(p.char(), 'P');
    /// ```
    pub const fn new(color: Color, role: Role) -> Piece {
        Piece { color, role }
    }

    /// The FEN letter: upper case for White, lower case for Black.
    ///
    /// ```
    /// use vizier_rules::{Color, Piece, Role};
    /// assert_eq!(Piece::new(Color::White, Role::Knight).char(), 'N');
    /// ```
    pub const fn char(self) -> char {
        match self.color {
            Color::White => self.role.upper_char(),
            Color::Black => self.role.char(),
        }
    }

    /// Reads a FEN letter.
    ///
    /// ```
    /// assert!(vizier_rules::Piece::from_char('z').is_none());
    /// ```
    pub const fn from_char(c: char) -> Option<Piece> {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        match Role::from_char(c) {
            Some(role) => Some(Piece { color, role }),
            None => None,
        }
    }
}

/// A square of the board, a1 = 0 … h8 = 63.
///
/// ```
/// use vizier_rules::Square;
/// let e4: Square = "e4".parse().unwrap();
/// assert_eq!(e4, Square::E4);
/// assert_eq!((e4.file(), e4.rank()), (4, 3));
/// assert_eq!(e4.to_string(), "e4");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

macro_rules! square_consts {
    ($($name:ident = $idx:expr),* $(,)?) => {
        impl Square {
            $(
                #[doc = concat!("The square ", stringify!($name), ".")]
                pub const $name: Square = Square($idx);
            )*
        }
    };
}

square_consts! {
    A1 = 0, B1 = 1, C1 = 2, D1 = 3, E1 = 4, F1 = 5, G1 = 6, H1 = 7,
    A2 = 8, B2 = 9, C2 = 10, D2 = 11, E2 = 12, F2 = 13, G2 = 14, H2 = 15,
    A3 = 16, B3 = 17, C3 = 18, D3 = 19, E3 = 20, F3 = 21, G3 = 22, H3 = 23,
    A4 = 24, B4 = 25, C4 = 26, D4 = 27, E4 = 28, F4 = 29, G4 = 30, H4 = 31,
    A5 = 32, B5 = 33, C5 = 34, D5 = 35, E5 = 36, F5 = 37, G5 = 38, H5 = 39,
    A6 = 40, B6 = 41, C6 = 42, D6 = 43, E6 = 44, F6 = 45, G6 = 46, H6 = 47,
    A7 = 48, B7 = 49, C7 = 50, D7 = 51, E7 = 52, F7 = 53, G7 = 54, H7 = 55,
    A8 = 56, B8 = 57, C8 = 58, D8 = 59, E8 = 60, F8 = 61, G8 = 62, H8 = 63,
}

impl Square {
    /// The square with this index, if it is below 64.
    ///
    /// ```
    /// assert_eq!(vizier_rules::Square::new(63), Some(vizier_rules::Square::H8));
    /// assert_eq!(vizier_rules::Square::new(64), None);
    /// ```
    #[inline]
    pub const fn new(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square on `file` (0 = a) and `rank` (0 = rank 1); both must be below 8.
    ///
    /// ```
    /// assert_eq!(vizier_rules::Square::from_coords(4, 0), vizier_rules::Square::E1);
    /// ```
    #[inline]
    pub const fn from_coords(file: u8, rank: u8) -> Square {
        debug_assert!(file < 8 && rank < 8);
        Square((rank << 3) | (file & 7))
    }

    /// Index 0..64 (a1 = 0, h1 = 7, a8 = 56).
    ///
    /// ```
    /// assert_eq!(vizier_rules::Square::H1.index(), 7);
    /// ```
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file, 0 (a) to 7 (h).
    ///
    /// ```
    /// assert_eq!(vizier_rules::Square::C7.file(), 2);
    /// ```
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    /// The rank, 0 (rank 1) to 7 (rank 8).
    ///
    /// ```
    /// assert_eq!(vizier_rules::Square::C7.rank(), 6);
    /// ```
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }

    /// The same square seen from the other side (a1 ↔ a8).
    ///
    /// ```
    /// assert_eq!(vizier_rules::Square::E2.flip_vertical(), vizier_rules::Square::E7);
    /// ```
    #[inline]
    pub const fn flip_vertical(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// The square `delta` indices away, if on the board (no wrap check across files).
    ///
    /// ```
    /// assert_eq!(vizier_rules::Square::E2.offset(8), Some(vizier_rules::Square::E3));
    /// assert_eq!(vizier_rules::Square::A1.offset(-1), None);
    /// ```
    #[inline]
    pub const fn offset(self, delta: i32) -> Option<Square> {
        let i = self.0 as i32 + delta;
        if i >= 0 && i < 64 {
            Some(Square(i as u8))
        } else {
            None
        }
    }

    /// Whether the square is light (a1 is dark).
    ///
    /// ```
    /// assert!(vizier_rules::Square::H1.is_light());
    /// assert!(!vizier_rules::Square::A1.is_light());
    /// ```
    #[inline]
    pub const fn is_light(self) -> bool {
        (self.file() + self.rank()) % 2 == 1
    }

    /// All 64 squares, a1 first.
    ///
    /// ```
    /// assert_eq!(vizier_rules::Square::all().count(), 64);
    /// ```
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }

    /// Reads "a1" … "h8" from bytes.
    ///
    /// ```
    /// assert_eq!(vizier_rules::Square::from_ascii(b"h8"), Some(vizier_rules::Square::H8));
    /// ```
    pub const fn from_ascii(s: &[u8]) -> Option<Square> {
        if s.len() != 2 {
            return None;
        }
        let (f, r) = (s[0], s[1]);
        if f >= b'a' && f <= b'h' && r >= b'1' && r <= b'8' {
            Some(Square::from_coords(f - b'a', r - b'1'))
        } else {
            None
        }
    }

    /// The file letter, 'a'..'h'.
    ///
    /// ```
    /// assert_eq!(vizier_rules::Square::D5.file_char(), 'd');
    /// ```
    pub const fn file_char(self) -> char {
        (b'a' + self.file()) as char
    }

    /// The rank digit, '1'..'8'.
    ///
    /// ```
    /// assert_eq!(vizier_rules::Square::D5.rank_char(), '5');
    /// ```
    pub const fn rank_char(self) -> char {
        (b'1' + self.rank()) as char
    }
}

/// The error for a string that is not a square name.
///
/// ```
/// assert!("z9".parse::<vizier_rules::Square>().is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSquareError;

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a square: expected a file a-h then a rank 1-8, like e4")
    }
}

impl std::error::Error for ParseSquareError {}

impl std::str::FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        Square::from_ascii(s.as_bytes()).ok_or(ParseSquareError)
    }
}

/// Every square's name, by index.
static SQUARE_NAMES: [&str; 64] = [
    "a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "a2", "b2", "c2", "d2", "e2", "f2", "g2", "h2",
    "a3", "b3", "c3", "d3", "e3", "f3", "g3", "h3", "a4", "b4", "c4", "d4", "e4", "f4", "g4", "h4",
    "a5", "b5", "c5", "d5", "e5", "f5", "g5", "h5", "a6", "b6", "c6", "d6", "e6", "f6", "g6", "h6",
    "a7", "b7", "c7", "d7", "e7", "f7", "g7", "h7", "a8", "b8", "c8", "d8", "e8", "f8", "g8", "h8",
];

impl Square {
    /// The square's name, `a1`..`h8`, without formatting.
    ///
    /// ```
    /// assert_eq!(vizier_rules::Square::D5.name(), "d5");
    /// ```
    pub fn name(self) -> &'static str {
        SQUARE_NAMES[self.index()]
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}
