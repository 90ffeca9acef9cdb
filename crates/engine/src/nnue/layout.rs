//! What the network sees: which inputs a piece turns on, from each side, and which output
//! weights a position uses.
//!
//! Two input layouts exist. [`Layout::Plain`] (file versions 1 and 2): 768 inputs, own or
//! enemy piece × role × square, the board flipped for Black. [`Layout::KingBuckets`]
//! (version 3): the same 768 for each of [`KING_BUCKETS`] regions of the side's own king,
//! and the board mirrored left to right whenever that king stands on files a–d, so that a
//! king on g1 and one on b1 share weights. A side's inputs change wholesale when its king
//! changes region or half; the accumulator cache keeps one accumulator per region and half
//! (`cache.rs`), so such a king move costs an update from the last time the king stood
//! there rather than a refresh.

use vizier_rules::{Color, Role, Square};

/// Inputs of one king region: two sides × six roles × 64 squares.
pub const PIECE_INPUTS: usize = 768;
/// Regions of the own king in [`Layout::KingBuckets`].
pub const KING_BUCKETS: usize = 4;
/// Output weight sets, by the number of pieces on the board ([`bucket`]).
pub const BUCKETS: usize = 8;
/// The most accumulators a side keeps at once: one per king region and half of the board.
pub const MAX_SLOTS: usize = 2 * KING_BUCKETS;

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
    /// 768 inputs for each of [`KING_BUCKETS`] regions of the side's own king (the board
    /// mirrored so that the king is on files e–h): back rank g–h, back rank e–f, second
    /// rank, and the rest of the board.
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
    /// // A king on b1 sees the board as one on g1 does, mirrored.
    /// let b1 = Layout::KingBuckets.view(Color::White, Square::B1);
    /// let g1 = Layout::KingBuckets.view(Color::White, Square::G1);
    /// assert_eq!(
    ///     b1.feature(Color::White, Color::Black, Role::Queen, Square::D8),
    ///     g1.feature(Color::White, Color::Black, Role::Queen, Square::E8),
    /// );
    /// assert!(b1.feature(Color::White, Color::White, Role::King, Square::B1) < PIECE_INPUTS);
    /// ```
    #[inline(always)]
    pub fn view(self, perspective: Color, king: Square) -> View {
        let flip = if perspective == Color::White { 0 } else { 56 };
        match self {
            Layout::Plain => View {
                flip,
                offset: 0,
                slot: 0,
            },
            Layout::KingBuckets => {
                let seen = king.index() ^ flip;
                let mirror = if seen % 8 < 4 { 7 } else { 0 };
                let region = king_region(seen ^ mirror);
                View {
                    flip: flip ^ mirror,
                    offset: region * PIECE_INPUTS,
                    slot: region * 2 + (mirror & 1),
                }
            }
        }
    }
}

/// The region of a king on `sq`, seen from its own side with the board mirrored so that it
/// stands on files e–h.
#[inline(always)]
fn king_region(sq: usize) -> usize {
    match sq / 8 {
        0 if sq % 8 >= 6 => 0,
        0 => 1,
        1 => 2,
        _ => 3,
    }
}

/// One side's view of the board: how it numbers the pieces' inputs, and which of its
/// accumulators holds them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct View {
    /// XORed into a square's index: 56 flips the board top to bottom, 7 mirrors it.
    flip: usize,
    /// The first input of the king's region.
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
    fn the_regions_follow_the_castled_king() {
        let region = |sq: Square| Layout::KingBuckets.view(Color::White, sq).offset / PIECE_INPUTS;
        assert_eq!(region(Square::G1), 0);
        assert_eq!(region(Square::B1), 0);
        assert_eq!(region(Square::E1), 1);
        assert_eq!(region(Square::C1), 1);
        assert_eq!(region(Square::F2), 2);
        assert_eq!(region(Square::E4), 3);
        let black = |sq: Square| Layout::KingBuckets.view(Color::Black, sq).offset / PIECE_INPUTS;
        assert_eq!(black(Square::G8), 0);
        assert_eq!(black(Square::E7), 2);
    }
}
