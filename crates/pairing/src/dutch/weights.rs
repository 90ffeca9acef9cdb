//! The edge weight: one field of bits per criterion, the most important highest, so that
//! comparing total weights compares pairings criterion by criterion (C4–C21 of the 2026
//! text), with room left at the bottom for the choices of the generation order.
//!
//! From the top: completion and the bye's eligibility and score (C4, C2, C5); pairs in the
//! bracket (C6) and the scores they pair (C7); pairs and scores in the next bracket (C8);
//! the bye player's unplayed games (C9); colours (C10–C13); repeated floats (C14–C17) and
//! their scores (C18–C21); three fields and a bit for the generation order.

use std::collections::HashMap;

use super::Context;
use crate::Points;
use crate::wide::Weight;

/// Where the lower-ranked player of an edge stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EdgeKind {
    /// In the bracket being paired.
    Current,
    /// In the next score group.
    Next,
    /// Further down: only completion counts.
    Elsewhere,
}

/// The widths of the fields, from the round's score groups.
#[derive(Clone, Debug)]
pub struct Layout {
    /// Bits for a count of players in one score group.
    pub size_bits: u32,
    /// Bits for a count per score group, all groups side by side.
    pub groups_bits: u32,
    /// Where each score's count starts (higher scores higher).
    shifts: HashMap<Points, u32>,
    played_rounds: usize,
}

/// Bits needed to write `x`.
pub fn bits_for(x: usize) -> u32 {
    usize::BITS - x.leading_zeros()
}

impl Layout {
    /// `scores`: the present players' scores, best first.
    pub fn new(scores: &[Points], played_rounds: usize) -> Layout {
        let mut shifts = HashMap::new();
        let mut groups_bits = 0;
        let mut largest = 0;
        let mut i = scores.len();
        while i > 0 {
            let score = scores[i - 1];
            let mut j = i;
            while j > 0 && scores[j - 1] == score {
                j -= 1;
            }
            let count = i - j;
            shifts.insert(score, groups_bits);
            groups_bits += bits_for(count);
            largest = largest.max(count);
            i = j;
        }
        Layout {
            size_bits: bits_for(largest),
            groups_bits,
            shifts,
            played_rounds,
        }
    }

    pub fn shift(&self, score: Points) -> u32 {
        self.shifts.get(&score).copied().unwrap_or(0)
    }

    pub fn total_bits(&self) -> u32 {
        let (s, g) = (self.size_bits, self.groups_bits);
        let mut total = 2 + s + g + s + g + 2 * s + 4 * s + 3 * s + 1;
        if self.played_rounds >= 1 {
            total += 2 * s + 2 * g;
        }
        if self.played_rounds >= 2 {
            total += 2 * s + 2 * g;
        }
        total
    }
}

/// What the bye criteria need.
#[derive(Default)]
pub struct Bye {
    /// The lowest score the bye can go to (C5).
    pub score: Points,
    /// C9 applies.
    pub lone_floater: bool,
    /// By games played: larger for fewer, among players on the bye's score.
    pub unplayed_ranks: HashMap<usize, u64>,
}

/// Appends fields to a weight, most important first.
struct Fields<W>(W);

impl<W: Weight> Fields<W> {
    fn push(&mut self, bits: u32, value: u64) {
        self.0 = self.0.shl(bits).wrapping_add(W::from_u64(value));
    }

    /// Shifts in a field and returns it empty, for bit-by-bit filling.
    fn open(&mut self, bits: u32) {
        self.0 = self.0.shl(bits);
    }

    fn add_bit(&mut self, bit: u32) {
        self.0 = self.0.wrapping_add(W::bit(bit));
    }
}

/// The weight of pairing `hi` (ranked higher) with `lo`, both players' indices in the
/// field; the caller has checked they may meet.
pub fn edge_weight<W: Weight>(
    ctx: &Context<'_>,
    bye: &Bye,
    hi: usize,
    lo: usize,
    kind: EdgeKind,
) -> W {
    let layout = &ctx.layout;
    let (s, g) = (layout.size_bits, layout.groups_bits);
    let (ph, pl) = (&ctx.profiles[hi], &ctx.profiles[lo]);
    let (sh, sl) = (ctx.score(hi), ctx.score(lo));
    let current = kind == EdgeKind::Current;
    let next = kind == EdgeKind::Next;
    let candidate = |p: usize| ctx.profiles[p].bye_eligible && ctx.score(p) <= bye.score;
    let mut w = Fields(W::zero());

    // C4, C2, C5.
    w.push(0, 1 + u64::from(!candidate(hi)) + u64::from(!candidate(lo)));
    // C6, C7.
    w.push(s, u64::from(current));
    w.open(g);
    if current {
        w.add_bit(layout.shift(sh));
    }
    // C8.
    w.push(s, u64::from(next));
    w.open(g);
    if next {
        w.add_bit(layout.shift(sh));
    }
    // C9.
    let mut unplayed = 0;
    if bye.lone_floater {
        for (score, p) in [(sh, ph), (sl, pl)] {
            if score == bye.score {
                unplayed += bye
                    .unplayed_ranks
                    .get(&p.played_games)
                    .copied()
                    .unwrap_or(0);
            }
        }
    }
    w.push(2 * s, unplayed);
    // C10–C13.
    for ok in super::player::colour_criteria(pl, ph) {
        w.push(s, u64::from(current && ok));
    }
    // C14–C17: repeated floats, one and two rounds back.
    use super::player::Float;
    let float =
        |p: usize, back: usize| super::player::float(ctx.field, p, back, super::Edition::E2026);
    let played = ctx.field.played_rounds;
    for back in [1, 2] {
        if played < back {
            continue;
        }
        let mut down = 0;
        if current {
            down += u64::from(float(lo, back) == Float::Down);
            down += u64::from(sh <= sl && float(hi, back) == Float::Down);
        }
        w.push(s, down);
        let up_again = sh > sl && float(lo, back) == Float::Up;
        w.push(s, u64::from(current && !up_again));
    }
    // C18–C21: the scores of those floats.
    for back in [1, 2] {
        if played < back {
            continue;
        }
        w.open(g);
        if current {
            if float(lo, back) == Float::Down {
                w.add_bit(layout.shift(sl));
            }
            if float(hi, back) == Float::Down {
                w.add_bit(layout.shift(sh));
            }
        }
        w.open(g);
        if current && !(float(lo, back) == Float::Up && sh > sl) {
            w.add_bit(layout.shift(sh));
        }
    }
    // Room for the generation order.
    w.open(3 * s + 1);
    w.0
}
