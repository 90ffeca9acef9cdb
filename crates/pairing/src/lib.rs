//! # vizier-pairing
//!
//! Who plays whom, for Vizier's competitions — pure, no I/O:
//!
//! - [`trf`]: the FIDE Tournament Report File (TRF-16 and TRF-2026), read and written;
//! - [`field`]: a tournament's state when the next round is paired, from a TRF;
//! - [`dutch`]: the FIDE (Dutch) Swiss system, 2026 edition (C.04.3 applied from
//!   1 February 2026), found as a maximum-weight [`matching`];
//! - [`berger`]: round robins by the FIDE Berger tables (C.05 Annex 1);
//! - [`tiebreak`]: standings by the FIDE Tie-Break Regulations (C.07);
//! - [`performance`]: the FIDE rating tables and performance ratings.
//!
//! ```
//! use vizier_pairing::{berger, Colour};
//! // Round 2 of a six-player round robin: 6-4, 5-3, 1-2.
//! let round = berger::round(6, 2);
//! assert_eq!(round[0], (6, 4));
//! assert_eq!(Colour::White.flip(), Colour::Black);
//! ```

pub mod berger;
pub mod dutch;
pub mod field;
pub mod matching;
pub mod norm;
pub mod performance;
pub mod tiebreak;
pub mod trf;
pub mod wide;

use core::fmt;

/// A piece colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Colour {
    White,
    Black,
}

impl Colour {
    pub fn flip(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }
}

/// Points in tenths, as the TRF writes them (`1.0`, `0.5`, `11.5`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Points(pub u32);

impl Points {
    /// Reads `1`, `1.0`, `.5`, `11.5`; `None` for signs, leading zeros, more than one
    /// decimal or anything else.
    pub fn parse(text: &str) -> Option<Points> {
        let (whole, tenth) = text.split_once('.').unwrap_or((text, ""));
        let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
        let leading_zero = whole.len() > 1 && whole.starts_with('0');
        if (whole.is_empty() && tenth.is_empty())
            || !digits(whole)
            || !digits(tenth)
            || tenth.len() > 1
            || leading_zero
        {
            return None;
        }
        let whole: u32 = if whole.is_empty() {
            0
        } else {
            whole.parse().ok()?
        };
        let tenth: u32 = if tenth.is_empty() {
            0
        } else {
            tenth.parse().ok()?
        };
        whole.checked_mul(10)?.checked_add(tenth).map(Points)
    }
}

impl fmt::Display for Points {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.0 / 10, self.0 % 10)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_read_and_write() {
        assert_eq!(Points::parse("1.0"), Some(Points(10)));
        assert_eq!(Points::parse("11.5"), Some(Points(115)));
        assert_eq!(Points::parse(".5"), Some(Points(5)));
        assert_eq!(Points::parse("3"), Some(Points(30)));
        assert_eq!(Points::parse("1.25"), None);
        assert_eq!(Points::parse("x"), None);
        assert_eq!(Points::parse("-1"), None);
        assert_eq!(Points::parse("+1"), None);
        assert_eq!(Points::parse("01.5"), None);
        assert_eq!(Points::parse("1."), Some(Points(10)));
        assert_eq!(Points(115).to_string(), "11.5");
        assert_eq!(Points(0).to_string(), "0.0");
    }
}
