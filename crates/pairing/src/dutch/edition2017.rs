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

use super::player::Float;
use super::weights::bits_for;
use super::{Board, Context, PairError};
use crate::Points;
use crate::matching::{Graph, HEADROOM_BITS};
use crate::wide::{Weight, Wide};

/// A float in the 2017 sense: not playing is a downfloat.
fn float(ctx: &Context<'_>, i: usize, back: usize) -> Float {
    let field = ctx.field;
    let m = &field.players[i].matches[field.played_rounds - back];
    if !m.played {
        return Float::Down;
    }
    let own = field.score(i, back);
    let theirs = field.score(m.opponent.expect("a played game has an opponent"), back);
    match own.cmp(&theirs) {
        core::cmp::Ordering::Greater => Float::Down,
        core::cmp::Ordering::Less => Float::Up,
        core::cmp::Ordering::Equal => Float::None,
    }
}

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
        movers = carried
            .iter()
            .filter(|&&v| list[..bracket_len].contains(&v))
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
    match bits.div_ceil(64) {
        0..=1 => Bracket::<u64>::new(ctx, list, movers, bracket_len, floor, &layout).pair(),
        2 => Bracket::<Wide<2>>::new(ctx, list, movers, bracket_len, floor, &layout).pair(),
        3 => Bracket::<Wide<3>>::new(ctx, list, movers, bracket_len, floor, &layout).pair(),
        4 => Bracket::<Wide<4>>::new(ctx, list, movers, bracket_len, floor, &layout).pair(),
        5..=6 => Bracket::<Wide<6>>::new(ctx, list, movers, bracket_len, floor, &layout).pair(),
        7..=8 => Bracket::<Wide<8>>::new(ctx, list, movers, bracket_len, floor, &layout).pair(),
        9..=12 => Bracket::<Wide<12>>::new(ctx, list, movers, bracket_len, floor, &layout).pair(),
        13..=16 => Bracket::<Wide<16>>::new(ctx, list, movers, bracket_len, floor, &layout).pair(),
        17..=32 => Bracket::<Wide<32>>::new(ctx, list, movers, bracket_len, floor, &layout).pair(),
        33..=64 => Bracket::<Wide<64>>::new(ctx, list, movers, bracket_len, floor, &layout).pair(),
        _ => Err(PairError::TooLarge),
    }
}

/// One bracket's matching: positions in `list` are the vertices.
struct Bracket<'a, 'f, W> {
    ctx: &'a Context<'f>,
    list: &'a [usize],
    movers: usize,
    bracket_len: usize,
    floor: Points,
    layout: &'a Layout,
    graph: Graph<W>,
    fixed: Vec<Option<usize>>,
    chosen: Vec<bool>,
    stable: Vec<Option<usize>>,
}

impl<'a, 'f, W: Weight> Bracket<'a, 'f, W> {
    fn new(
        ctx: &'a Context<'f>,
        list: &'a [usize],
        movers: usize,
        bracket_len: usize,
        floor: Points,
        layout: &'a Layout,
    ) -> Self {
        let n = list.len();
        Bracket {
            ctx,
            list,
            movers,
            bracket_len,
            floor,
            layout,
            graph: Graph::new(n),
            fixed: vec![None; n],
            chosen: vec![false; n],
            stable: vec![None; n],
        }
    }

    fn player(&self, pos: usize) -> usize {
        self.ctx.sorted[self.list[pos]]
    }

    fn solve(&mut self) {
        let active: Vec<bool> = self.fixed.iter().map(Option::is_none).collect();
        let mates = self.graph.max_weight_matching(&active);
        for (v, mate) in mates.into_iter().enumerate() {
            self.stable[v] = self.fixed[v].or(mate);
        }
    }

    fn fix(&mut self, a: usize, b: usize) {
        self.fixed[a] = Some(b);
        self.fixed[b] = Some(a);
        self.stable[a] = Some(b);
        self.stable[b] = Some(a);
    }

    /// The weight of pairing the players at positions `hi < lo`.
    fn edge(&self, hi: usize, lo: usize) -> W {
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
        let same = prl.preference == prh.preference;
        let c8 = !prl.absolute_imbalance() || !prh.absolute_imbalance() || !same;
        let c9 = !prl.absolute()
            || !prh.absolute()
            || !same
            || if prl.imbalance == prh.imbalance {
                prl.repeated.is_none() || prl.repeated != prh.repeated
            } else {
                let loser = if prl.imbalance > prh.imbalance {
                    prh
                } else {
                    prl
                };
                loser.repeated != prl.preference.map(crate::Colour::flip)
            };
        let c10 = prl.preference.is_none() || prh.preference.is_none() || !same;
        let c11 = (!prl.strong && !prl.absolute())
            || (!prh.strong && !prh.absolute())
            || (prl.absolute() && prh.absolute())
            || !same;
        for ok in [c8, c9, c10, c11] {
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
                let down = u64::from(float(ctx, pl, back) == Float::Down)
                    + u64::from(sh <= sl && float(ctx, ph, back) == Float::Down);
                w = w.wrapping_add(W::from_u64(down));
            }
            w = shl(w, s);
            if current && sh > sl && float(ctx, pl, back) == Float::Up {
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
                if float(ctx, pl, back) == Float::Down {
                    w = w.wrapping_add(bit(l.shift(floater_diff(sl, self.floor))));
                }
                if float(ctx, ph, back) == Float::Down {
                    w = w.wrapping_add(bit(l.shift(floater_diff(sh, self.floor))));
                    if sh > sl {
                        w = w.wrapping_sub(bit(l.shift(sh.0 - sl.0)));
                    }
                }
            }
            w = shl(w, d);
            if current && float(ctx, pl, back) == Float::Up && sh > sl {
                w = w.wrapping_sub(bit(l.shift(sh.0 - sl.0)));
            }
        }
        shl(w, 3 * s + 1)
    }

    fn exchange_weight(&self, base: W, position: usize, pairs: usize) -> W {
        if base.is_zero() {
            return base;
        }
        let bits = self.layout.size_bits;
        let mut addend = if position < pairs {
            W::bit(2 * bits)
        } else {
            W::zero()
        };
        addend = addend.wrapping_sub(W::from_u64(position as u64)).shl(1);
        base.wrapping_add(addend)
    }

    fn leads(&self, v: usize) -> bool {
        self.stable[v].is_some_and(|u| u > v && u < self.bracket_len)
    }

    fn pair(mut self) -> Result<Vec<(usize, usize)>, PairError> {
        let (len, movers, bracket_len) = (self.list.len(), self.movers, self.bracket_len);
        let mut base = vec![W::zero(); len * len];
        let at = |a: usize, b: usize| a * len + b;
        for b in movers..len {
            for a in 0..b {
                let w = self.edge(a, b);
                base[at(a, b)] = w;
                self.graph.set(a, b, w);
            }
        }
        self.solve();
        let resident = |u: usize| (movers..bracket_len).contains(&u);

        let mut a = 0;
        while a < movers {
            let s = self.ctx.score(self.player(a));
            let end = (a..movers)
                .find(|&x| self.ctx.score(self.player(x)) < s)
                .unwrap_or(movers);
            let mut remaining = end - a;
            let mut remaining_paired = (a..end)
                .filter(|&x| self.stable[x].is_some_and(resident))
                .count();
            for x in a..end {
                if remaining_paired == 0 {
                    continue;
                }
                if remaining <= remaining_paired {
                    self.chosen[x] = true;
                    continue;
                }
                remaining -= 1;
                if !self.stable[x].is_some_and(resident) {
                    for b in movers..bracket_len {
                        let w = base[at(x, b)];
                        if !w.is_zero() {
                            self.graph.set(x, b, w.wrapping_add(W::from_u64(1)));
                        }
                    }
                    self.solve();
                }
                if self.stable[x].is_some_and(resident) {
                    self.chosen[x] = true;
                    remaining_paired -= 1;
                    let bonus = (bracket_len - movers) as u64 + 1;
                    for b in movers..bracket_len {
                        let w = base[at(x, b)];
                        if !w.is_zero() {
                            self.graph.set(x, b, w.wrapping_add(W::from_u64(bonus)));
                        }
                    }
                }
            }
            a = end;
        }

        let mut pairs_out = Vec::new();
        for x in 0..movers {
            if !self.chosen[x] {
                continue;
            }
            let mut addend = len as u64;
            for b in (movers..bracket_len).rev() {
                if self.chosen[b] {
                    continue;
                }
                let w = base[at(x, b)];
                if !w.is_zero() {
                    self.graph.set(x, b, w.wrapping_add(W::from_u64(addend)));
                    addend += 1;
                }
            }
            self.solve();
            let partner = self.stable[x].ok_or(PairError::NoPairing)?;
            self.chosen[partner] = true;
            self.fix(x, partner);
            pairs_out.push((self.list[x], self.list[partner]));
        }

        let remainder: Vec<usize> = (movers..bracket_len)
            .filter(|&b| self.stable[b].is_none_or(|u| u >= movers))
            .collect();
        let pairs = remainder
            .iter()
            .filter(|&&b| self.stable[b].is_some_and(|u| u < b))
            .count();
        for (i, &p) in remainder.iter().enumerate() {
            for &o in &remainder[i + 1..] {
                let w = self.exchange_weight(base[at(p, o)], i, pairs);
                self.graph.set(p, o, w);
            }
        }
        self.solve();
        let exchanges = remainder[..pairs]
            .iter()
            .filter(|&&p| !self.leads(p))
            .count();

        let mut left = exchanges;
        let mut i = pairs;
        while i > 0 && left > 0 {
            i -= 1;
            let p = remainder[i];
            if self.leads(p) {
                for &o in &remainder[i + 1..] {
                    let w = self.exchange_weight(base[at(p, o)], i, pairs);
                    if !w.is_zero() {
                        self.graph.set(p, o, w.wrapping_sub(W::from_u64(1)));
                    }
                }
                self.solve();
            }
            let exchanged = !self.leads(p);
            if exchanged {
                left -= 1;
            }
            for &o in &remainder[i + 1..] {
                if exchanged {
                    base[at(p, o)] = W::zero();
                }
                let w = self.exchange_weight(base[at(p, o)], i, pairs);
                self.graph.set(p, o, w);
            }
        }

        let mut left = exchanges;
        for i in pairs..remainder.len() {
            if left <= 1 {
                break;
            }
            let p = remainder[i];
            let already = self.leads(p);
            if !already {
                for &o in &remainder[i + 1..] {
                    let w = self.exchange_weight(base[at(p, o)], i, pairs);
                    if !w.is_zero() {
                        self.graph.set(p, o, w.wrapping_add(W::from_u64(1)));
                    }
                }
                self.solve();
            }
            if self.leads(p) {
                left -= 1;
                for &o in &remainder[..i] {
                    base[at(o, p)] = W::zero();
                    self.graph.set(p, o, W::zero());
                }
                for b in bracket_len..len {
                    base[at(p, b)] = W::zero();
                    self.graph.set(p, b, W::zero());
                }
            }
            if !already {
                for &o in &remainder[i + 1..] {
                    let w = self.exchange_weight(base[at(p, o)], i, pairs);
                    self.graph.set(p, o, w);
                }
            }
        }

        for (i, &p) in remainder.iter().enumerate() {
            for &o in &remainder[i + 1..] {
                if !self.leads(p) || self.leads(o) {
                    base[at(p, o)] = W::zero();
                }
                self.graph.set(p, o, base[at(p, o)]);
            }
        }

        for &p in &remainder {
            if !self.leads(p) {
                continue;
            }
            let mut addend = 0u64;
            for &o in remainder.iter().rev() {
                if o <= p || self.chosen[o] {
                    continue;
                }
                let w = base[at(p, o)];
                if !w.is_zero() {
                    self.graph.set(p, o, w.wrapping_add(W::from_u64(addend)));
                }
                addend += 1;
            }
            self.solve();
            let partner = self.stable[p].ok_or(PairError::NoPairing)?;
            self.chosen[p] = true;
            self.chosen[partner] = true;
            self.fix(p, partner);
            pairs_out.push((self.list[p], self.list[partner]));
        }
        Ok(pairs_out)
    }
}
