//! The generation order (C.04.3 Art. 4, B.5–B.7 of 2017), one choice at a time: once the
//! weights make every heaviest matching a best pairing by the criteria, the movers-down to
//! pair, their opponents, the players exchanged between S1 and S2 and each S1 player's
//! opponent are fixed in turn, each by a small bonus and a new matching. Both editions
//! settle their brackets this way; they differ in the weights and in which players the
//! matching spans.

use core::ops::Range;

use super::PairError;
use crate::Points;
use crate::matching::Graph;
use crate::wide::Weight;

/// A matching being narrowed down to one pairing.
pub(super) struct Search<W> {
    pub graph: Graph<W>,
    /// By vertex: paired for good, and with whom.
    pub fixed: Vec<Option<usize>>,
    /// By vertex: chosen to be paired in the bracket being settled.
    chosen: Vec<bool>,
    /// The last matching found, by vertex.
    pub stable: Vec<Option<usize>>,
}

impl<W: Weight> Search<W> {
    pub fn new(vertices: usize) -> Self {
        Search {
            graph: Graph::new(vertices),
            fixed: vec![None; vertices],
            chosen: vec![false; vertices],
            stable: vec![None; vertices],
        }
    }

    /// A heaviest matching of the vertices not yet fixed.
    pub fn solve(&mut self) {
        let active: Vec<bool> = self.fixed.iter().map(Option::is_none).collect();
        let mates = self.graph.max_weight_matching(&active);
        for (v, mate) in mates.into_iter().enumerate() {
            self.stable[v] = self.fixed[v].or(mate);
        }
    }

    /// Whether `v` can have `best` in a matching as heavy as the one held, by trading partners
    /// with `best`'s mate: then a re-solve favouring `best` finds that pairing, and it is
    /// taken without solving. `weight_v(u)` is `v`'s edge to `u` without the favour.
    fn swap_to(&mut self, v: usize, best: usize, weight_v: impl Fn(usize) -> W) -> bool {
        let Some(x) = self.stable[v] else {
            return false;
        };
        let y = self.stable[best];
        let now = weight_v(x).wrapping_add(y.map_or(W::zero(), |y| self.graph.get(best, y)));
        let other = match y {
            Some(y) if y == x => return false,
            Some(y) => {
                let xy = self.graph.get(x, y);
                if xy.is_zero() {
                    return false;
                }
                weight_v(best).wrapping_add(xy)
            }
            None => weight_v(best),
        };
        if other < now {
            return false;
        }
        self.stable[v] = Some(best);
        self.stable[best] = Some(v);
        self.stable[x] = y;
        if let Some(y) = y {
            self.stable[y] = Some(x);
        }
        true
    }

    /// After `v`'s edges were favoured towards `best` (the candidate the favour ranks
    /// first): the matching that pairs `v` as the favour wants. Solving is skipped where the
    /// matching held already has it, or has it after a trade of partners.
    fn favour(&mut self, v: usize, best: Option<usize>, weight_v: impl Fn(usize) -> W) {
        let held = self.stable[v].is_some() && self.stable[v] == best;
        if !held && !best.is_some_and(|b| self.swap_to(v, b, weight_v)) {
            self.solve();
        }
    }

    fn fix(&mut self, a: usize, b: usize) {
        self.fixed[a] = Some(b);
        self.fixed[b] = Some(a);
        self.stable[a] = Some(b);
        self.stable[b] = Some(a);
    }
}

/// A bracket and the next score group, by position; `vertices[position]` is the vertex.
/// Vertices rise with positions.
pub(super) struct Bracket<'a> {
    pub vertices: &'a [usize],
    /// Positions `..movers` moved down; `movers..len` are the residents.
    pub movers: usize,
    pub len: usize,
    /// The residents' vertices.
    pub residents: Range<usize>,
    /// The movers' scores, by position.
    pub mover_scores: &'a [Points],
    /// Bits for a count of the bracket's residents: the exchange bonus sits above twice that.
    pub size_bits: u32,
}

impl Bracket<'_> {
    /// Settles the bracket in `search`: `edge(hi, lo)` is the weight of positions `hi < lo`.
    /// Its pairs end up fixed; its other players stay free.
    pub fn settle<W: Weight>(
        &self,
        search: &mut Search<W>,
        edge: impl Fn(usize, usize) -> W,
    ) -> Result<(), PairError> {
        let Bracket {
            vertices: vx,
            movers,
            len: bracket_len,
            ..
        } = *self;
        let len = vx.len();
        let mut base = vec![W::zero(); len * len];
        let at = |a: usize, b: usize| a * len + b;
        // A position's edge to a vertex, as the bracket weighs it before any favour.
        let base_edge = |base: &[W], row: usize, u: usize| {
            let o = vx.iter().position(|&q| q == u);
            o.map_or(W::zero(), |o| base[at(row.min(o), row.max(o))])
        };
        for b in movers..len {
            for a in 0..b {
                let w = edge(a, b);
                base[at(a, b)] = w;
                search.graph.set(vx[a], vx[b], w);
            }
        }
        search.solve();
        let resident = |u: usize| self.residents.contains(&u);
        let leads =
            |s: &Search<W>, v: usize| s.stable[v].is_some_and(|u| u > v && u < self.residents.end);
        let exchange_weight = |base: W, position: usize, pairs: usize| {
            if base.is_zero() {
                return base;
            }
            let mut addend = if position < pairs {
                W::bit(2 * self.size_bits)
            } else {
                W::zero()
            };
            addend = addend.wrapping_sub(W::from_u64(position as u64)).shl(1);
            base.wrapping_add(addend)
        };
        // Sets the row of `p` (a position) to every later remainder player, shifted by `delta`.
        let set_row = |s: &mut Search<W>,
                       base: &[W],
                       p: usize,
                       i: usize,
                       later: &[usize],
                       pairs: usize,
                       delta: i64| {
            for &o in later {
                let w = exchange_weight(base[at(p, o)], i, pairs);
                let w = match delta {
                    _ if w.is_zero() => w,
                    1 => w.wrapping_add(W::from_u64(1)),
                    -1 => w.wrapping_sub(W::from_u64(1)),
                    _ => w,
                };
                s.graph.set(vx[p], vx[o], w);
            }
        };

        // Which movers-down are paired: as many as possible of each score, the
        // highest-ranked first.
        let mut a = 0;
        while a < movers {
            let score = self.mover_scores[a];
            let end = (a..movers)
                .find(|&x| self.mover_scores[x] < score)
                .unwrap_or(movers);
            let mut remaining = end - a;
            let mut remaining_paired = (a..end)
                .filter(|&x| search.stable[vx[x]].is_some_and(resident))
                .count();
            for x in a..end {
                let v = vx[x];
                if remaining_paired == 0 {
                    continue;
                }
                if remaining <= remaining_paired {
                    search.chosen[v] = true;
                    continue;
                }
                remaining -= 1;
                if !search.stable[v].is_some_and(resident) {
                    for b in movers..bracket_len {
                        let w = base[at(x, b)];
                        if !w.is_zero() {
                            search.graph.set(v, vx[b], w.wrapping_add(W::from_u64(1)));
                        }
                    }
                    search.solve();
                }
                if search.stable[v].is_some_and(resident) {
                    search.chosen[v] = true;
                    remaining_paired -= 1;
                    let bonus = (bracket_len - movers) as u64 + 1;
                    for b in movers..bracket_len {
                        let w = base[at(x, b)];
                        if !w.is_zero() {
                            search
                                .graph
                                .set(v, vx[b], w.wrapping_add(W::from_u64(bonus)));
                        }
                    }
                }
            }
            a = end;
        }

        // Their opponents: the highest-ranked resident possible for each in turn.
        for x in 0..movers {
            let v = vx[x];
            if !search.chosen[v] {
                continue;
            }
            let mut addend = len as u64;
            let mut best = None;
            for b in (movers..bracket_len).rev() {
                if search.chosen[vx[b]] {
                    continue;
                }
                let w = base[at(x, b)];
                if !w.is_zero() {
                    search
                        .graph
                        .set(v, vx[b], w.wrapping_add(W::from_u64(addend)));
                    addend += 1;
                    best = Some(vx[b]);
                }
            }
            search.favour(v, best, |u| base_edge(&base, x, u));
            let partner = search.stable[v].ok_or(PairError::NoPairing)?;
            search.chosen[partner] = true;
            search.fix(v, partner);
        }

        // The remainder: residents not paired with a mover. Its first `pairs` players
        // form S1.
        let remainder: Vec<usize> = (movers..bracket_len)
            .filter(|&b| search.stable[vx[b]].is_none_or(|u| u >= self.residents.start))
            .collect();
        let pairs = remainder
            .iter()
            .filter(|&&b| search.stable[vx[b]].is_some_and(|u| u < vx[b]))
            .count();
        for (i, &p) in remainder.iter().enumerate() {
            set_row(search, &base, p, i, &remainder[i + 1..], pairs, 0);
        }
        search.solve();
        let exchanges = remainder[..pairs]
            .iter()
            .filter(|&&p| !leads(search, vx[p]))
            .count();

        // Which S1 players go to S2: the lowest-ranked possible.
        let mut left = exchanges;
        let mut i = pairs;
        while i > 0 && left > 0 {
            i -= 1;
            let p = remainder[i];
            if leads(search, vx[p]) {
                set_row(search, &base, p, i, &remainder[i + 1..], pairs, -1);
                search.solve();
            }
            if !leads(search, vx[p]) {
                left -= 1;
                for &o in &remainder[i + 1..] {
                    base[at(p, o)] = W::zero();
                }
            }
            set_row(search, &base, p, i, &remainder[i + 1..], pairs, 0);
        }

        // Which S2 players go to S1: the highest-ranked possible.
        let mut left = exchanges;
        for i in pairs..remainder.len() {
            if left <= 1 {
                break;
            }
            let p = remainder[i];
            let v = vx[p];
            let already = leads(search, v);
            if !already {
                set_row(search, &base, p, i, &remainder[i + 1..], pairs, 1);
                search.solve();
            }
            if leads(search, v) {
                left -= 1;
                for &o in &remainder[..i] {
                    base[at(o, p)] = W::zero();
                    search.graph.set(v, vx[o], W::zero());
                }
                for b in bracket_len..len {
                    base[at(p, b)] = W::zero();
                    search.graph.set(v, vx[b], W::zero());
                }
            }
            if !already {
                set_row(search, &base, p, i, &remainder[i + 1..], pairs, 0);
            }
        }

        // S1 is now settled: only its players may lead a pair.
        for (i, &p) in remainder.iter().enumerate() {
            for &o in &remainder[i + 1..] {
                if !leads(search, vx[p]) || leads(search, vx[o]) {
                    base[at(p, o)] = W::zero();
                }
                search.graph.set(vx[p], vx[o], base[at(p, o)]);
            }
        }

        // Each S1 player in turn gets the highest-ranked opponent possible.
        for &p in &remainder {
            let v = vx[p];
            if !leads(search, v) {
                continue;
            }
            let mut addend = 0u64;
            let mut best = None;
            for &o in remainder.iter().rev() {
                if o <= p || search.chosen[vx[o]] {
                    continue;
                }
                let w = base[at(p, o)];
                if !w.is_zero() {
                    search
                        .graph
                        .set(v, vx[o], w.wrapping_add(W::from_u64(addend)));
                    best = Some(vx[o]);
                }
                addend += 1;
            }
            search.favour(v, best, |u| base_edge(&base, p, u));
            let partner = search.stable[v].ok_or(PairError::NoPairing)?;
            search.chosen[v] = true;
            search.chosen[partner] = true;
            search.fix(v, partner);
        }
        Ok(())
    }
}
