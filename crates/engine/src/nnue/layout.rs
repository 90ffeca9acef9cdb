//! What the network sees: which inputs a piece turns on, from each side, and which output
//! weights a position uses.
//!
//! Two input layouts exist. [`Layout::Plain`] (file versions 1 and 2): 768 inputs, own or
//! enemy piece × role × square, the board flipped for Black. [`Layout::KingBuckets`]
//! (version 3): the same 768 for each of [`KING_BUCKETS`] buckets of the side's own king:
//! four regions (back rank g–h or a–b, back rank e–f or c–d, second rank, the rest) on each
//! half of the board. The halves keep their own weights rather than mirroring the board
//! onto one: so a plain network grows into this layout exactly (every bucket starts as the
//! plain weights), and the trainer mirrors positions to teach both halves from each one.
//! A side's inputs change wholesale when its king changes bucket; the accumulator cache
//! keeps one accumulator per bucket (`cache.rs`), so such a king move costs an update from
//! the last time the king stood there rather than a refresh.

use vizier_rules::{Color, Role, Square};

/// Inputs of one king bucket: two sides × six roles × 64 squares.
pub const PIECE_INPUTS: usize = 768;
/// Buckets of the own king in [`Layout::KingBuckets`]: four regions on each half.
pub const KING_BUCKETS: usize = 8;
/// Output weight sets, by the number of pieces on the board ([`bucket`]).
pub const BUCKETS: usize = 8;
/// The most accumulators a side keeps at once: one per king bucket.
pub const MAX_SLOTS: usize = KING_BUCKETS;

/// The output weight set for a position with `pieces` pieces (kings included): four piece
/// counts to a bucket, 2–5 the first and 30–32 the last.
#[inline(always)]
pub fn bucket(pieces: u32) -> usize {
    (pieces.saturating_sub(2) as usize / 4).min(BUCKETS - 1)
}

/// How inputs are numbered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Layout {
    /// 768 inputs; the king's square is one input among others.
    Plain,
    /// 768 inputs for each of [`KING_BUCKETS`] buckets of the side's own king: back rank
    /// g–h, back rank e–f, second rank and the rest of the board on files e–h, then the
    /// same regions (a–b, c–d, …) on files a–d.
    KingBuckets,
}

impl Layout {
    /// The layout's number in a network file.
    pub const fn code(self) -> u32 {
        match self {
            Layout::Plain => 1,
            Layout::KingBuckets => KING_BUCKETS as u32,
        }
    }

    /// The layout numbered `code` in a network file.
    pub const fn from_code(code: u32) -> Option<Layout> {
        match code {
            1 => Some(Layout::Plain),
            c if c == KING_BUCKETS as u32 => Some(Layout::KingBuckets),
            _ => None,
        }
    }

    /// Input features of the layout.
    pub const fn inputs(self) -> usize {
        match self {
            Layout::Plain => PIECE_INPUTS,
            Layout::KingBuckets => KING_BUCKETS * PIECE_INPUTS,
        }
    }

    /// How `perspective` sees the board when its king stands on `king`.
    ///
    /// ```
    /// use vizier_engine::nnue::{Layout, PIECE_INPUTS};
    /// use vizier_rules::{Color, Role, Square};
    /// let g1 = Layout::KingBuckets.view(Color::White, Square::G1);
    /// let h1 = Layout::KingBuckets.view(Color::White, Square::H1);
    /// let b1 = Layout::KingBuckets.view(Color::White, Square::B1);
    /// // h1 and g1 are one bucket, b1 is its twin on the other half.
    /// assert_eq!(g1.slot, h1.slot);
    /// assert_ne!(g1.slot, b1.slot);
    /// let queen = |v: vizier_engine::nnue::View| v.feature(Color::White, Color::Black, Role::Queen, Square::D8);
    /// assert_eq!(queen(g1) % PIECE_INPUTS, queen(b1) % PIECE_INPUTS);
    /// ```
    #[inline(always)]
    pub fn view(self, perspective: Color, king: Square) -> View {
        let flip = if perspective == Color::White { 0 } else { 56 };
        let slot = match self {
            Layout::Plain => 0,
            Layout::KingBuckets => king_bucket(king.index() ^ flip),
        };
        View {
            flip,
            offset: slot * PIECE_INPUTS,
            slot,
        }
    }
}

/// The bucket of a king on `sq`, seen from its own side (a1 its left corner): the region,
/// plus four on files a–d.
#[inline(always)]
pub fn king_bucket(sq: usize) -> usize {
    let (rank, file) = (sq / 8, sq % 8);
    let edge = file.min(7 - file);
    let region = match rank {
        0 if edge <= 1 => 0,
        0 => 1,
        1 => 2,
        _ => 3,
    };
    region + if file < 4 { 4 } else { 0 }
}

/// One side's view of the board: how it numbers the pieces' inputs, and which of its
/// accumulators holds them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct View {
    /// XORed into a square's index: 56 flips the board top to bottom.
    flip: usize,
    /// The first input of the king's bucket.
    offset: usize,
    /// The accumulator slot of this view (below [`MAX_SLOTS`]).
    pub slot: usize,
}

impl View {
    /// The input for a piece of `color` and `role` on `sq`, seen by `perspective`.
    #[inline(always)]
    pub fn feature(self, perspective: Color, color: Color, role: Role, sq: Square) -> usize {
        let enemy = (color != perspective) as usize;
        self.offset + (enemy * 6 + role.index()) * 64 + (sq.index() ^ self.flip)
    }

    /// The input for `piece` as White numbers it ([`piece_index`]), seen by this view's
    /// side: Black's view swaps the colours and flips the board.
    #[inline(always)]
    pub fn input(self, piece: usize) -> usize {
        let seen = if self.flip == 0 {
            piece
        } else {
            ((piece + PIECE_INPUTS / 2) % PIECE_INPUTS) ^ self.flip
        };
        self.offset + seen
    }
}

/// A piece's input in White's plain view: colour, role, square.
#[inline(always)]
pub fn piece_index(color: Color, role: Role, sq: Square) -> usize {
    (color.index() * 6 + role.index()) * 64 + sq.index()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_cover_every_piece_count() {
        assert_eq!(bucket(2), 0);
        assert_eq!(bucket(5), 0);
        assert_eq!(bucket(6), 1);
        assert_eq!(bucket(29), 6);
        assert_eq!(bucket(30), BUCKETS - 1);
        assert_eq!(bucket(32), BUCKETS - 1);
        assert!((2..=32).all(|n| bucket(n) <= bucket(n + 1)));
    }

    #[test]
    fn every_square_has_one_view_and_every_input_is_in_range() {
        for layout in [Layout::Plain, Layout::KingBuckets] {
            assert_eq!(Layout::from_code(layout.code()), Some(layout));
            for persp in Color::ALL {
                let mut slots = [false; MAX_SLOTS];
                for king in (0..64).filter_map(Square::new) {
                    let view = layout.view(persp, king);
                    slots[view.slot] = true;
                    for color in Color::ALL {
                        for role in Role::ALL {
                            for sq in (0..64).filter_map(Square::new) {
                                assert!(view.feature(persp, color, role, sq) < layout.inputs());
                            }
                        }
                    }
                }
                let used = slots.iter().filter(|&&s| s).count();
                assert_eq!(
                    used,
                    if layout == Layout::Plain {
                        1
                    } else {
                        MAX_SLOTS
                    }
                );
            }
        }
        assert_eq!(Layout::from_code(2), None);
    }

    #[test]
    fn inputs_by_white_numbering_match_features() {
        for layout in [Layout::Plain, Layout::KingBuckets] {
            for persp in Color::ALL {
                for king in (0..64).filter_map(Square::new) {
                    let view = layout.view(persp, king);
                    for color in Color::ALL {
                        for role in Role::ALL {
                            for sq in (0..64).filter_map(Square::new) {
                                assert_eq!(
                                    view.input(piece_index(color, role, sq)),
                                    view.feature(persp, color, role, sq)
                                );
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn black_sees_the_board_as_white_does_flipped() {
        for king in (0..64).filter_map(Square::new) {
            let flipped = Square::new((king.index() ^ 56) as u8).unwrap();
            let (w, b) = (
                Layout::KingBuckets.view(Color::White, king),
                Layout::KingBuckets.view(Color::Black, flipped),
            );
            assert_eq!(w.slot, b.slot);
            for sq in (0..64).filter_map(Square::new) {
                let sq_flipped = Square::new((sq.index() ^ 56) as u8).unwrap();
                assert_eq!(
                    w.feature(Color::White, Color::Black, Role::Knight, sq),
                    b.feature(Color::Black, Color::White, Role::Knight, sq_flipped)
                );
            }
        }
    }

    #[test]
    fn the_buckets_follow_the_castled_king_and_pair_the_halves() {
        let bucket = |c: Color, sq: Square| Layout::KingBuckets.view(c, sq).slot;
        assert_eq!(bucket(Color::White, Square::G1), 0);
        assert_eq!(bucket(Color::White, Square::H1), 0);
        assert_eq!(bucket(Color::White, Square::E1), 1);
        assert_eq!(bucket(Color::White, Square::F2), 2);
        assert_eq!(bucket(Color::White, Square::E4), 3);
        assert_eq!(bucket(Color::White, Square::B1), 4);
        assert_eq!(bucket(Color::White, Square::C1), 5);
        assert_eq!(bucket(Color::Black, Square::G8), 0);
        assert_eq!(bucket(Color::Black, Square::E7), 2);
        // Mirroring the king left to right moves it to the twin bucket on the other half.
        for sq in 0..64 {
            assert_eq!(king_bucket(sq) ^ 4, king_bucket(sq ^ 7), "{sq}");
        }
    }
}
