//! The 2017 edition of the Dutch system (Baku 2016, with the Goynuk 2017 definitions), as
//! in force until 31 January 2026.
//!
//! What differs from 2026: the round is completed through the penultimate pairing bracket
//! (A.9: when a bracket's downfloaters leave the rest unpairable, it is paired again with
//! every lower player collapsed into the last bracket); downfloaters are chosen by the
//! pairing score difference (A.8, C.6) and by the next bracket's pairs and PSD (C.7); the
//! bye has no score rule of its own; and any player who did not play a round floated down
//! in it (A.4.b). Each bracket is a matching over itself and the next score group only; a
//! plain matching over everyone checks that the round can still be completed.

use std::collections::HashMap;

use super::order::{self, Search};
use super::player::{Float, colour_criteria, float};
use super::weights::bits_for;
use super::{Board, Context, Edition, PairError};
use crate::Points;
use crate::matching::{Graph, HEADROOM_BITS};
use crate::wide::{Weight, WithWeight, with_bits};

/// One bracket's field widths: its score differences, each with room for its count.
struct Layout {
    /// Bits for a count of the bracket's residents.
    size_bits: u32,
    /// Bits for a count of the next score group.
    next_bits: u32,
    /// All score differences side by side.
    diff_bits: u32,
    shifts: HashMap<u32, u32>,
    special: bool,
    last_pair: bool,
    played_rounds: usize,
}

impl Layout {
    fn total_bits(&self) -> u32 {
        let (s, d) = (self.size_bits, self.diff_bits);
        let mut total = if self.special { 2 } else { 0 } + s + d;
        if !self.special {
            total += if self.last_pair {
                s.max(self.next_bits) + 3
            } else {
                self.next_bits
            } + d;
        }
        total += 4 * s;
        if self.played_rounds >= 1 {
            total += 2 * s + 2 * d;
        }
        if self.played_rounds >= 2 {
            total += 2 * s + 2 * d;
        }
        total + 3 * s + 1
    }

    fn shift(&self, diff: u32) -> u32 {
        self.shifts.get(&diff).copied().unwrap_or(0)
    }
}

/// A downfloater's score difference: its score less one point below the bracket's floor.
fn floater_diff(score: Points, floor: Points) -> u32 {
    score.0 - floor.0 + 10
}

pub(super) fn pair(ctx: &Context<'_>) -> Result<Vec<Board>, PairError> {
    let m = ctx.sorted.len();
    // Whether the round can be completed at all (a dummy takes the bye).
    let mut validity = Graph::<u64>::new(m + m % 2);
    for a in 0..m {
        for b in 0..a {
            validity.set(
                a,
                b,
                u64::from(ctx.compatible(ctx.sorted[a], ctx.sorted[b])),
            );
        }
        if m % 2 == 1 {
            validity.set(a, m, u64::from(ctx.profiles[ctx.sorted[a]].bye_eligible));
        }
    }
    let complete = |g: &Graph<u64>| {
        let all = vec![true; g.len()];
        g.max_weight_matching(&all).iter().all(Option::is_some)
    };
    if !complete(&validity) {
        return Err(PairError::NoPairing);
    }

    let score = |v: usize| ctx.score(ctx.sorted[v]);
    let group_end = |from: usize| {
        let s = score(from);
        (from..m).find(|&v| score(v) < s).unwrap_or(m)
    };
    let mut fixed: Vec<Option<usize>> = vec![None; m];
    let mut list: Vec<usize> = (0..group_end(0)).collect();
    let mut next = list.len();
    let mut special = next == m;
    let mut movers = 0;
    while list.len() > 1 || next < m {
        let bracket_len = list.len();
        let restart = next;
        while next < m && (special || score(next) >= score(restart)) {
            list.push(next);
            next += 1;
        }
        let last_pair = next == m;
        let pairs = pair_bracket(ctx, &list, movers, bracket_len, special, last_pair)?;
        if !special {
            let mut trial = validity.clone();
            for &(a, b) in &pairs {
                lock(&mut trial, a, b);
            }
            if !complete(&trial) {
                // This is the penultimate bracket: pair it again with everyone below.
                list.truncate(bracket_len);
                next = restart;
                special = true;
                continue;
            }
        }
        for &(a, b) in &pairs {
            lock(&mut validity, a, b);
            fixed[a] = Some(b);
            fixed[b] = Some(a);
        }
        special = next == m;
        let carried: Vec<usize> = list
            .iter()
            .copied()
            .filter(|&v| fixed[v].is_none())
            .collect();
        movers = list[..bracket_len]
            .iter()
            .filter(|&&v| fixed[v].is_none())
            .count();
        list = carried;
    }

    let mut boards = Vec::new();
    for (v, partner) in fixed.iter().enumerate() {
        match *partner {
            Some(u) if u > v => boards.push(super::board(ctx, ctx.sorted[v], ctx.sorted[u])),
            Some(_) => {}
            None => boards.push(Board {
                white: ctx.sorted[v],
                black: None,
            }),
        }
    }
    Ok(boards)
}

/// Keeps `a` and `b` together in the completion check.
fn lock(g: &mut Graph<u64>, a: usize, b: usize) {
    for v in 0..g.len() {
        if v != a {
            g.set(a, v, u64::from(v == b));
        }
        if v != b {
            g.set(b, v, u64::from(v == a));
        }
    }
}

fn pair_bracket(
    ctx: &Context<'_>,
    list: &[usize],
    movers: usize,
    bracket_len: usize,
    special: bool,
    last_pair: bool,
) -> Result<Vec<(usize, usize)>, PairError> {
    let score = |pos: usize| ctx.score(ctx.sorted[list[pos]]);
    let floor = score(list.len() - 1);
    // The score differences that can occur, each with room for how often.
    let mut diffs = Vec::new();
    for p in 0..bracket_len {
        diffs.push(floater_diff(score(p), floor));
        let first = movers.max(p + 1);
        for o in first..bracket_len {
            if o == first || score(o) < score(o - 1) {
                diffs.push(score(p).0 - score(o).0);
            }
        }
    }
    diffs.sort_unstable();
    let mut shifts = HashMap::new();
    let mut diff_bits = 0;
    let mut i = 0;
    while i < diffs.len() {
        let j = (i..diffs.len())
            .find(|&j| diffs[j] != diffs[i])
            .unwrap_or(diffs.len());
        shifts.insert(diffs[i], diff_bits);
        diff_bits += bits_for(j - i);
        i = j;
    }
    let layout = Layout {
        size_bits: bits_for(bracket_len - movers),
        next_bits: bits_for(list.len() - bracket_len),
        diff_bits,
        shifts,
        special,
        last_pair,
        played_rounds: ctx.field.played_rounds,
    };
    let bits = layout.total_bits() + HEADROOM_BITS + 2;
    let bracket = Bracket {
        ctx,
        list,
        movers,
        bracket_len,
        floor,
        layout: &layout,
    };
    with_bits(bits, bracket).ok_or(PairError::TooLarge)?
}

/// One bracket and the next score group; the matching's vertices are positions in `list`.
struct Bracket<'a, 'f> {
    ctx: &'a Context<'f>,
    list: &'a [usize],
    movers: usize,
    bracket_len: usize,
    floor: Points,
    layout: &'a Layout,
}

/// Settles the bracket: the pairs it makes, by vertex in `ctx.sorted`.
impl WithWeight for Bracket<'_, '_> {
    type Output = Result<Vec<(usize, usize)>, PairError>;

    fn run<W: Weight>(self) -> Self::Output {
        let len = self.list.len();
        let mut search = Search::<W>::new(len);
        let positions: Vec<usize> = (0..len).collect();
        let mover_scores: Vec<Points> = (0..self.movers)
            .map(|p| self.ctx.score(self.player(p)))
            .collect();
        let bracket = order::Bracket {
            vertices: &positions,
            movers: self.movers,
            len: self.bracket_len,
            residents: self.movers..self.bracket_len,
            mover_scores: &mover_scores,
            size_bits: self.layout.size_bits,
        };
        bracket.settle(&mut search, |a, b| self.edge(a, b))?;
        Ok((0..self.bracket_len)
            .filter_map(|p| {
                search.fixed[p]
                    .filter(|&q| q > p)
                    .map(|q| (self.list[p], self.list[q]))
            })
            .collect())
    }
}

impl Bracket<'_, '_> {
    fn player(&self, pos: usize) -> usize {
        self.ctx.sorted[self.list[pos]]
    }

    /// The weight of pairing the players at positions `hi < lo`.
    fn edge<W: Weight>(&self, hi: usize, lo: usize) -> W {
        let ctx = self.ctx;
        let (ph, pl) = (self.player(hi), self.player(lo));
        if !ctx.compatible(ph, pl) {
            return W::zero();
        }
        let l = self.layout;
        let (s, d) = (l.size_bits, l.diff_bits);
        let (sh, sl) = (ctx.score(ph), ctx.score(pl));
        let hi_current = hi < self.bracket_len;
        let current = lo < self.bracket_len;
        let (prh, prl) = (&ctx.profiles[ph], &ctx.profiles[pl]);
        let eligible = |p: usize| u64::from(!ctx.profiles[p].bye_eligible);
        let shl = |w: W, bits: u32| w.shl(bits);
        let bit = |k: u32| W::bit(k);
        let mut w = W::zero();
        if l.special {
            w = W::from_u64(1 + eligible(ph) + eligible(pl));
        }
        // C.5: pairs in the bracket.
        w = shl(w, s).wrapping_add(W::from_u64(u64::from(current)));
        // C.6: the PSD, as the downfloaters' differences saved less the pair's own.
        w = shl(w, d);
        if current {
            w = w
                .wrapping_add(bit(l.shift(floater_diff(sh, self.floor))))
                .wrapping_add(bit(l.shift(floater_diff(sl, self.floor))))
                .wrapping_sub(bit(l.shift(sh.0 - sl.0)));
        }
        if !l.special {
            // C.7: pairs and PSD in the next bracket.
            if l.last_pair {
                w = shl(shl(w, s.max(l.next_bits)), 3);
                w = w.wrapping_add(W::from_u64(1 + eligible(ph) + eligible(pl)));
            } else {
                w = shl(w, l.next_bits).wrapping_add(W::from_u64(u64::from(!current)));
            }
            w = shl(w, d);
            if hi_current {
                w = w.wrapping_add(bit(l.shift(floater_diff(sh, self.floor))));
            }
            if current {
                w = w.wrapping_add(bit(l.shift(floater_diff(sl, self.floor))));
            }
        }
        // C.8–C.11: colours.
        for ok in colour_criteria(prl, prh) {
            w = shl(w, s).wrapping_add(W::from_u64(u64::from(current && ok)));
        }
        // C.12–C.15: repeated floats.
        let played = ctx.field.played_rounds;
        for back in [1, 2] {
            if played < back {
                continue;
            }
            w = shl(w, s);
            if current {
                let down = u64::from(float(ctx.field, pl, back, Edition::E2017) == Float::Down)
                    + u64::from(
                        sh <= sl && float(ctx.field, ph, back, Edition::E2017) == Float::Down,
                    );
                w = w.wrapping_add(W::from_u64(down));
            }
            w = shl(w, s);
            if current && sh > sl && float(ctx.field, pl, back, Edition::E2017) == Float::Up {
                w = w.wrapping_sub(W::from_u64(1));
            }
        }
        // C.16–C.19: their score differences.
        for back in [1, 2] {
            if played < back {
                continue;
            }
            w = shl(w, d);
            if current {
                if float(ctx.field, pl, back, Edition::E2017) == Float::Down {
                    w = w.wrapping_add(bit(l.shift(floater_diff(sl, self.floor))));
                }
                if float(ctx.field, ph, back, Edition::E2017) == Float::Down {
                    w = w.wrapping_add(bit(l.shift(floater_diff(sh, self.floor))));
                    if sh > sl {
                        w = w.wrapping_sub(bit(l.shift(sh.0 - sl.0)));
                    }
                }
            }
            w = shl(w, d);
            if current && float(ctx.field, pl, back, Edition::E2017) == Float::Up && sh > sl {
                w = w.wrapping_sub(bit(l.shift(sh.0 - sl.0)));
            }
        }
        shl(w, 3 * s + 1)
    }
}
