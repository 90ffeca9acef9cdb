//! A set of squares as one 64-bit word.

use crate::Square;
use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares; bit `i` stands for the square with index `i`.
///
/// ```
/// use vizier_rules::{Bitboard, Square};
/// let b = Square::E4.bb() | Square::D5.bb();
/// assert_eq!(b.count(), 2);
/// assert_eq!(b.into_iter().collect::<Vec<_>>(), vec![Square::E4, Square::D5]);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// No squares.
    ///
    /// ```
    /// assert!(vizier_rules::Bitboard::EMPTY.is_empty());
    /// ```
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 64 squares.
    ///
    /// ```
    /// assert_eq!(vizier_rules::Bitboard::FULL.count(), 64);
    /// ```
    pub const FULL: Bitboard = Bitboard(!0);
    /// The 32 dark squares (a1 is dark).
    ///
    /// ```
    /// assert!(vizier_rules::Bitboard::DARK_SQUARES.contains(vizier_rules::Square::A1));
    /// ```
    pub const DARK_SQUARES: Bitboard = Bitboard(0xaa55_aa55_aa55_aa55);
    /// The 32 light squares.
    ///
    /// ```
    /// assert!(vizier_rules::Bitboard::LIGHT_SQUARES.contains(vizier_rules::Square::H1));
    /// ```
    pub const LIGHT_SQUARES: Bitboard = Bitboard(!0xaa55_aa55_aa55_aa55);

    /// The eight squares of a rank (0 = rank 1).
    ///
    /// ```
    /// assert!(vizier_rules::Bitboard::rank(7).contains(vizier_rules::Square::C8));
    /// ```
    #[inline]
    pub const fn rank(rank: u8) -> Bitboard {
        Bitboard(0xff << (8 * rank as u32))
    }

    /// The eight squares of a file (0 = a-file).
    ///
    /// ```
    /// assert!(vizier_rules::Bitboard::file(2).contains(vizier_rules::Square::C8));
    /// ```
    #[inline]
    pub const fn file(file: u8) -> Bitboard {
        Bitboard(0x0101_0101_0101_0101 << file)
    }

    /// Whether the set is empty.
    ///
    /// ```
    /// assert!(!vizier_rules::Square::A1.bb().is_empty());
    /// ```
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set has at least one square.
    ///
    /// ```
    /// assert!(vizier_rules::Square::A1.bb().any());
    /// ```
    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// The number of squares in the set.
    ///
    /// ```
    /// assert_eq!(vizier_rules::Bitboard::rank(0).count(), 8);
    /// ```
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether `sq` is in the set.
    ///
    /// ```
    /// use vizier_rules::{Bitboard, Square};
    /// assert!(Bitboard::file(0).contains(Square::A5));
    /// ```
    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & (1 << sq.index()) != 0
    }

    /// Whether the set has two or more squares.
    ///
    /// ```
    /// assert!(vizier_rules::Bitboard::rank(0).more_than_one());
    /// ```
    #[inline]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest square, if any.
    ///
    /// ```
    /// assert_eq!(vizier_rules::Bitboard::rank(1).first(), Some(vizier_rules::Square::A2));
    /// ```
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Square::new(self.0.trailing_zeros() as u8)
        }
    }

    /// The highest square, if any.
    ///
    /// ```
    /// assert_eq!(vizier_rules::Bitboard::rank(1).last(), Some(vizier_rules::Square::H2));
    /// ```
    #[inline]
    pub const fn last(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Square::new(63 - self.0.leading_zeros() as u8)
        }
    }

    /// The only square of a one-square set.
    ///
    /// ```
    /// use vizier_rules::{Bitboard, Square};
    /// assert_eq!(Square::B3.bb().single(), Some(Square::B3));
    /// assert_eq!(Bitboard::rank(0).single(), None);
    /// ```
    #[inline]
    pub const fn single(self) -> Option<Square> {
        if self.more_than_one() {
            None
        } else {
            self.first()
        }
    }

    /// The set shifted one rank towards the opponent of `white`'s side (north for White).
    #[inline]
    pub(crate) const fn shift(self, delta: i32) -> Bitboard {
        if delta >= 0 {
            Bitboard(self.0 << delta)
        } else {
            Bitboard(self.0 >> -delta)
        }
    }
}

impl Square {
    /// The one-square set.
    ///
    /// ```
    /// assert_eq!(vizier_rules::Square::C3.bb().count(), 1);
    /// ```
    #[inline]
    pub const fn bb(self) -> Bitboard {
        Bitboard(1 << self.index())
    }
}

macro_rules! bit_ops {
    ($($trait:ident $method:ident $assign:ident $assign_method:ident $op:tt),*) => {$(
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $method(self, rhs: Bitboard) -> Bitboard { Bitboard(self.0 $op rhs.0) }
        }
        impl $assign for Bitboard {
            #[inline]
            fn $assign_method(&mut self, rhs: Bitboard) { self.0 = self.0 $op rhs.0; }
        }
    )*};
}

bit_ops!(BitAnd bitand BitAndAssign bitand_assign &, BitOr bitor BitOrAssign bitor_assign |,
         BitXor bitxor BitXorAssign bitxor_assign ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

/// Iterates squares from a1 towards h8.
///
/// ```
/// let mut it = vizier_rules::Bitboard::rank(0).into_iter();
/// assert_eq!(it.next(), Some(vizier_rules::Square::A1));
/// assert_eq!(it.next_back(), Some(vizier_rules::Square::H1));
/// ```
#[derive(Clone)]
pub struct Squares(u64);

impl Iterator for Squares {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let sq = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Square::new(sq)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Squares {}

impl DoubleEndedIterator for Squares {
    fn next_back(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let sq = 63 - self.0.leading_zeros() as u8;
        self.0 ^= 1 << sq;
        Square::new(sq)
    }
}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = Squares;
    #[inline]
    fn into_iter(self) -> Squares {
        Squares(self.0)
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        iter.into_iter().fold(Bitboard::EMPTY, |b, sq| b | sq.bb())
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..8).rev() {
            for file in 0..8 {
                let c = if self.contains(Square::from_coords(file, rank)) {
                    'x'
                } else {
                    '.'
                };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
