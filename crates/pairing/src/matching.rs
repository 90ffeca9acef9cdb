//! Maximum-weight matching in a general graph: Edmonds' blossom method with the primal-dual
//! bookkeeping of Galil's survey ("Efficient algorithms for finding maximum matching in
//! graphs", 1986), in O(n³) on a dense weight matrix.
//!
//! Weights are integers of any [`Weight`] type; 0 means "no edge". All dual values are kept
//! doubled, so every quantity stays an integer and none goes below zero: the type needs a
//! few bits of headroom above the largest weight (see [`HEADROOM_BITS`]).

use crate::wide::Weight;

/// Bits a weight type must hold beyond the largest edge weight.
pub const HEADROOM_BITS: u32 = 4;

const NONE: usize = usize::MAX;

/// An edge walked from `from` to `to`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Arc {
    from: usize,
    to: usize,
}

impl Arc {
    fn rev(self) -> Arc {
        Arc {
            from: self.to,
            to: self.from,
        }
    }
}

/// A symmetric weight matrix over `n` vertices and its maximum-weight matching.
#[derive(Clone, Debug)]
pub struct Graph<W> {
    n: usize,
    weights: Vec<W>,
}

impl<W: Weight> Graph<W> {
    /// `n` vertices and no edges.
    pub fn new(n: usize) -> Graph<W> {
        Graph {
            n,
            weights: vec![W::zero(); n * n],
        }
    }

    pub fn len(&self) -> usize {
        self.n
    }

    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// Sets the weight of edge `{u, v}` (0 removes it).
    pub fn set(&mut self, u: usize, v: usize, weight: W) {
        debug_assert!(u != v);
        self.weights[u * self.n + v] = weight;
        self.weights[v * self.n + u] = weight;
    }

    pub fn get(&self, u: usize, v: usize) -> W {
        self.weights[u * self.n + v]
    }

    /// A matching of greatest total weight among the vertices for which `active` holds:
    /// `mate[v]` for each vertex (`None` for the unmatched and the inactive).
    pub fn max_weight_matching(&self, active: &[bool]) -> Vec<Option<usize>> {
        let vertices: Vec<usize> = (0..self.n).filter(|&v| active[v]).collect();
        let m = vertices.len();
        // Doubled once here, as every slack needs 2w.
        let mut local = vec![W::zero(); m * m];
        for (i, &u) in vertices.iter().enumerate() {
            for (j, &v) in vertices.iter().enumerate() {
                local[i * m + j] = self.weights[u * self.n + v].shl(1);
            }
        }
        let mates = Solver::new(m, &local).solve();
        let mut out = vec![None; self.n];
        for (i, mate) in mates.into_iter().enumerate() {
            out[vertices[i]] = mate.map(|j| vertices[j]);
        }
        out
    }
}

/// One run of the primal-dual method. Blossoms are numbered `n..2n`; vertices `0..n` are
/// their own trivial blossoms.
struct Solver<'a, W> {
    n: usize,
    /// Twice the edge weights.
    weights: &'a [W],
    /// `mate[v]`: the matched edge walked from `v`.
    mate: Vec<Option<Arc>>,
    /// For top-level blossoms: 0 free, 1 outer (S), 2 inner (T); bit 4 marks a visit.
    label: Vec<u8>,
    /// The edge through which a blossom got its label, walked towards its tree's root.
    label_end: Vec<Option<Arc>>,
    in_blossom: Vec<usize>,
    parent: Vec<usize>,
    children: Vec<Vec<usize>>,
    base: Vec<usize>,
    /// `ends[b][i]` joins `children[b][i]` (its `to`) to the next child (its `from`).
    ends: Vec<Vec<Arc>>,
    best_edge: Vec<Option<Arc>>,
    blossom_best: Vec<Option<Vec<Arc>>>,
    unused: Vec<usize>,
    dual: Vec<W>,
    allowed: Vec<bool>,
    queue: Vec<usize>,
}

impl<'a, W: Weight> Solver<'a, W> {
    fn new(n: usize, weights: &'a [W]) -> Self {
        let max = weights.iter().copied().max().unwrap_or_else(W::zero).half();
        let mut dual = vec![max; n];
        dual.extend((0..n).map(|_| W::zero()));
        Solver {
            n,
            weights,
            mate: vec![None; n],
            label: vec![0; 2 * n],
            label_end: vec![None; 2 * n],
            in_blossom: (0..n).collect(),
            parent: vec![NONE; 2 * n],
            children: vec![Vec::new(); 2 * n],
            base: (0..n).chain((0..n).map(|_| NONE)).collect(),
            ends: vec![Vec::new(); 2 * n],
            best_edge: vec![None; 2 * n],
            blossom_best: vec![None; 2 * n],
            unused: (n..2 * n).rev().collect(),
            dual,
            allowed: vec![false; n * n],
            queue: Vec::new(),
        }
    }

    fn weight(&self, u: usize, v: usize) -> W {
        self.weights[u * self.n + v]
    }

    fn slack(&self, e: Arc) -> W {
        self.dual[e.from]
            .wrapping_add(self.dual[e.to])
            .wrapping_sub(self.weight(e.from, e.to))
    }

    fn allow(&mut self, e: Arc) {
        self.allowed[e.from * self.n + e.to] = true;
        self.allowed[e.to * self.n + e.from] = true;
    }

    fn leaves(&self, b: usize, out: &mut Vec<usize>) {
        if b < self.n {
            out.push(b);
        } else {
            for &c in &self.children[b] {
                self.leaves(c, out);
            }
        }
    }

    fn leaves_of(&self, b: usize) -> Vec<usize> {
        let mut out = Vec::new();
        self.leaves(b, &mut out);
        out
    }

    fn assign_label(&mut self, v: usize, t: u8, via: Option<Arc>) {
        let b = self.in_blossom[v];
        self.label[v] = t;
        self.label[b] = t;
        self.label_end[v] = via;
        self.label_end[b] = via;
        self.best_edge[v] = None;
        self.best_edge[b] = None;
        if t == 1 {
            let leaves = self.leaves_of(b);
            self.queue.extend(leaves);
        } else if t == 2 {
            let m = self.mate[self.base[b]].expect("an inner blossom's base is matched");
            self.assign_label(m.to, 1, Some(m.rev()));
        }
    }

    /// Walks up from both ends of an outer-outer edge: the base of the blossom they close,
    /// or `None` when the edge joins two trees (an augmenting path).
    fn scan_blossom(&mut self, v: usize, w: usize) -> Option<usize> {
        let mut path = Vec::new();
        let mut base = None;
        let (mut v, mut w) = (Some(v), Some(w));
        while let Some(x) = v {
            let b = self.in_blossom[x];
            if self.label[b] & 4 != 0 {
                base = Some(self.base[b]);
                break;
            }
            path.push(b);
            self.label[b] = 5;
            v = match self.label_end[b] {
                None => None,
                Some(e) => {
                    let inner = self.in_blossom[e.to];
                    Some(
                        self.label_end[inner]
                            .expect("an inner blossom has a label edge")
                            .to,
                    )
                }
            };
            if w.is_some() {
                core::mem::swap(&mut v, &mut w);
            }
        }
        for b in path {
            self.label[b] = 1;
        }
        base
    }

    fn add_blossom(&mut self, base: usize, edge: Arc) {
        let bb = self.in_blossom[base];
        let mut bv = self.in_blossom[edge.from];
        let mut bw = self.in_blossom[edge.to];
        let b = self.unused.pop().expect("a free blossom number");
        self.base[b] = base;
        self.parent[b] = NONE;
        self.parent[bb] = b;
        let mut path = Vec::new();
        let mut ends = Vec::new();
        while bv != bb {
            self.parent[bv] = b;
            path.push(bv);
            let e = self.label_end[bv].expect("labelled");
            ends.push(e);
            bv = self.in_blossom[e.to];
        }
        path.push(bb);
        path.reverse();
        ends.reverse();
        ends.push(edge.rev());
        while bw != bb {
            self.parent[bw] = b;
            path.push(bw);
            let e = self.label_end[bw].expect("labelled");
            ends.push(e.rev());
            bw = self.in_blossom[e.to];
        }
        self.children[b] = path.clone();
        self.ends[b] = ends;
        self.label[b] = 1;
        self.label_end[b] = self.label_end[bb];
        self.dual[b] = W::zero();
        for v in self.leaves_of(b) {
            if self.label[self.in_blossom[v]] == 2 {
                self.queue.push(v);
            }
            self.in_blossom[v] = b;
        }
        let mut best_to: Vec<Option<Arc>> = vec![None; 2 * self.n];
        for &child in &path {
            let candidates: Vec<Arc> = match self.blossom_best[child].take() {
                Some(list) => list,
                None => {
                    let mut list = Vec::new();
                    for v in self.leaves_of(child) {
                        for u in 0..self.n {
                            if u != v && !self.weight(v, u).is_zero() {
                                list.push(Arc { from: v, to: u });
                            }
                        }
                    }
                    list
                }
            };
            for e in candidates {
                let e = if self.in_blossom[e.to] == b {
                    e.rev()
                } else {
                    e
                };
                let bj = self.in_blossom[e.to];
                if bj != b
                    && self.label[bj] == 1
                    && best_to[bj].is_none_or(|best| self.slack(e) < self.slack(best))
                {
                    best_to[bj] = Some(e);
                }
            }
            self.best_edge[child] = None;
        }
        let list: Vec<Arc> = best_to.into_iter().flatten().collect();
        let mut best: Option<Arc> = None;
        for &e in &list {
            if best.is_none_or(|x| self.slack(e) < self.slack(x)) {
                best = Some(e);
            }
        }
        self.best_edge[b] = best;
        self.blossom_best[b] = Some(list);
    }

    fn expand_blossom(&mut self, b: usize, end_of_stage: bool) {
        let children = self.children[b].clone();
        for &s in &children {
            self.parent[s] = NONE;
            if s < self.n {
                self.in_blossom[s] = s;
            } else if end_of_stage && self.dual[s].is_zero() {
                self.expand_blossom(s, end_of_stage);
            } else {
                for v in self.leaves_of(s) {
                    self.in_blossom[v] = s;
                }
            }
        }
        if !end_of_stage && self.label[b] == 2 {
            let len = children.len() as isize;
            let at = |j: isize| j.rem_euclid(len) as usize;
            let entry_edge = self.label_end[b].expect("an inner blossom has a label edge");
            let entry_child = self.in_blossom[entry_edge.from];
            let mut j = children
                .iter()
                .position(|&c| c == entry_child)
                .expect("child") as isize;
            let (step, trick) = if j & 1 != 0 {
                j -= len;
                (1, 0)
            } else {
                (-1, 1)
            };
            let flip = |e: Arc, t: isize| if t == 1 { e.rev() } else { e };
            let mut p = entry_edge;
            while j != 0 {
                self.label[p.from] = 0;
                let e = self.ends[b][at(j - trick)];
                let q = flip(e, 1 - trick);
                self.label[q.to] = 0;
                self.assign_label(p.from, 2, Some(p));
                self.allow(e);
                j += step;
                p = flip(self.ends[b][at(j - trick)], trick);
                self.allow(p);
                j += step;
            }
            let bv = children[at(j)];
            self.label[p.from] = 2;
            self.label[bv] = 2;
            self.label_end[p.from] = Some(p);
            self.label_end[bv] = Some(p);
            self.best_edge[bv] = None;
            j += step;
            while children[at(j)] != entry_child {
                let bv = children[at(j)];
                if self.label[bv] == 1 {
                    j += step;
                    continue;
                }
                let reached = self.leaves_of(bv).into_iter().find(|&v| self.label[v] != 0);
                if let Some(v) = reached {
                    self.label[v] = 0;
                    let m = self.mate[self.base[bv]].expect("matched base");
                    self.label[m.to] = 0;
                    let via = self.label_end[v];
                    self.assign_label(v, 2, via);
                }
                j += step;
            }
        }
        self.label[b] = 0;
        self.label_end[b] = None;
        self.children[b].clear();
        self.ends[b].clear();
        self.base[b] = NONE;
        self.blossom_best[b] = None;
        self.best_edge[b] = None;
        self.unused.push(b);
    }

    /// Swaps matched and unmatched edges on the even path from `v` to the base of `b`.
    fn augment_blossom(&mut self, b: usize, v: usize) {
        let mut t = v;
        while self.parent[t] != b {
            t = self.parent[t];
        }
        if t >= self.n {
            self.augment_blossom(t, v);
        }
        let len = self.children[b].len() as isize;
        let at = |j: isize| j.rem_euclid(len) as usize;
        let i = self.children[b]
            .iter()
            .position(|&c| c == t)
            .expect("child");
        let mut j = i as isize;
        let (step, trick) = if i & 1 != 0 {
            j -= len;
            (1, 0)
        } else {
            (-1, 1)
        };
        while j != 0 {
            j += step;
            let t = self.children[b][at(j)];
            let e = self.ends[b][at(j - trick)];
            let p = if trick == 1 { e.rev() } else { e };
            if t >= self.n {
                self.augment_blossom(t, p.to);
            }
            j += step;
            let t = self.children[b][at(j)];
            if t >= self.n {
                self.augment_blossom(t, p.from);
            }
            self.mate[p.to] = Some(p.rev());
            self.mate[p.from] = Some(p);
        }
        self.children[b].rotate_left(i);
        self.ends[b].rotate_left(i);
        self.base[b] = self.base[self.children[b][0]];
    }

    fn augment_matching(&mut self, edge: Arc) {
        for (start, first) in [(edge.from, edge), (edge.to, edge.rev())] {
            let (mut s, mut p) = (start, first);
            loop {
                let bs = self.in_blossom[s];
                if bs >= self.n {
                    self.augment_blossom(bs, s);
                }
                self.mate[s] = Some(p);
                let Some(e) = self.label_end[bs] else { break };
                let bt = self.in_blossom[e.to];
                let lt = self.label_end[bt].expect("an inner blossom has a label edge");
                s = lt.to;
                let j = lt.from;
                if bt >= self.n {
                    self.augment_blossom(bt, j);
                }
                self.mate[j] = Some(lt);
                p = lt.rev();
            }
        }
    }

    fn solve(mut self) -> Vec<Option<usize>> {
        let n = self.n;
        for _stage in 0..n {
            self.label.fill(0);
            self.best_edge.fill(None);
            for b in n..2 * n {
                self.blossom_best[b] = None;
            }
            self.allowed.fill(false);
            self.queue.clear();
            for v in 0..n {
                if self.mate[v].is_none() && self.label[self.in_blossom[v]] == 0 {
                    self.assign_label(v, 1, None);
                }
            }
            let mut augmented = false;
            loop {
                while !augmented {
                    let Some(v) = self.queue.pop() else { break };
                    for u in 0..n {
                        if u == v || self.weight(v, u).is_zero() {
                            continue;
                        }
                        let bv = self.in_blossom[v];
                        let bu = self.in_blossom[u];
                        if bv == bu {
                            continue;
                        }
                        let e = Arc { from: v, to: u };
                        let mut slack = None;
                        if !self.allowed[v * n + u] {
                            let s = self.slack(e);
                            if s.is_zero() {
                                self.allow(e);
                            } else {
                                slack = Some(s);
                            }
                        }
                        if self.allowed[v * n + u] {
                            if self.label[bu] == 0 {
                                self.assign_label(u, 2, Some(e.rev()));
                            } else if self.label[bu] == 1 {
                                match self.scan_blossom(v, u) {
                                    Some(base) => self.add_blossom(base, e),
                                    None => {
                                        self.augment_matching(e);
                                        augmented = true;
                                        break;
                                    }
                                }
                            } else if self.label[u] == 0 {
                                self.label[u] = 2;
                                self.label_end[u] = Some(e.rev());
                            }
                        } else if self.label[bu] == 1 {
                            let s = slack.expect("computed above");
                            if self.best_edge[bv].is_none_or(|best| s < self.slack(best)) {
                                self.best_edge[bv] = Some(e);
                            }
                        } else if self.label[u] == 0 {
                            let s = slack.expect("computed above");
                            if self.best_edge[u].is_none_or(|best| s < self.slack(best)) {
                                self.best_edge[u] = Some(e);
                            }
                        }
                    }
                }
                if augmented {
                    break;
                }
                // The largest step the duals can take before something changes.
                let mut kind = 1;
                let mut delta = self.dual[..n].iter().copied().min().unwrap_or_else(W::zero);
                let mut delta_edge = None;
                let mut delta_blossom = NONE;
                for v in 0..n {
                    if self.label[self.in_blossom[v]] == 0
                        && let Some(e) = self.best_edge[v]
                    {
                        let d = self.slack(e);
                        if d < delta {
                            delta = d;
                            kind = 2;
                            delta_edge = Some(e);
                        }
                    }
                }
                for b in 0..2 * n {
                    if self.parent[b] == NONE
                        && self.label[b] == 1
                        && let Some(e) = self.best_edge[b]
                    {
                        let d = self.slack(e).half();
                        if d < delta {
                            delta = d;
                            kind = 3;
                            delta_edge = Some(e);
                        }
                    }
                }
                for b in n..2 * n {
                    if self.base[b] != NONE
                        && self.parent[b] == NONE
                        && self.label[b] == 2
                        && self.dual[b] < delta
                    {
                        delta = self.dual[b];
                        kind = 4;
                        delta_blossom = b;
                    }
                }
                for v in 0..n {
                    match self.label[self.in_blossom[v]] {
                        1 => self.dual[v] = self.dual[v].wrapping_sub(delta),
                        2 => self.dual[v] = self.dual[v].wrapping_add(delta),
                        _ => {}
                    }
                }
                for b in n..2 * n {
                    if self.base[b] != NONE && self.parent[b] == NONE {
                        match self.label[b] {
                            1 => self.dual[b] = self.dual[b].wrapping_add(delta),
                            2 => self.dual[b] = self.dual[b].wrapping_sub(delta),
                            _ => {}
                        }
                    }
                }
                match kind {
                    1 => break,
                    2 => {
                        let e = delta_edge.expect("set with kind 2");
                        self.allow(e);
                        let outer = if self.label[self.in_blossom[e.from]] == 0 {
                            e.to
                        } else {
                            e.from
                        };
                        self.queue.push(outer);
                    }
                    3 => {
                        let e = delta_edge.expect("set with kind 3");
                        self.allow(e);
                        self.queue.push(e.from);
                    }
                    _ => self.expand_blossom(delta_blossom, false),
                }
            }
            if !augmented {
                break;
            }
            for b in n..2 * n {
                if self.parent[b] == NONE
                    && self.base[b] != NONE
                    && self.label[b] == 1
                    && self.dual[b].is_zero()
                {
                    self.expand_blossom(b, true);
                }
            }
        }
        self.mate.iter().map(|m| m.map(|e| e.to)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The best total weight by trying every matching.
    fn brute_force(n: usize, w: &[u64]) -> u64 {
        fn go(n: usize, w: &[u64], used: &mut Vec<bool>, from: usize) -> u64 {
            let Some(v) = (from..n).find(|&v| !used[v]) else {
                return 0;
            };
            used[v] = true;
            let mut best = go(n, w, used, v + 1);
            for u in v + 1..n {
                if !used[u] && w[v * n + u] > 0 {
                    used[u] = true;
                    best = best.max(w[v * n + u] + go(n, w, used, v + 1));
                    used[u] = false;
                }
            }
            used[v] = false;
            best
        }
        go(n, w, &mut vec![false; n], 0)
    }

    #[test]
    fn matches_brute_force_on_random_graphs() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for round in 0..3000 {
            let n = 1 + (next() % 11) as usize;
            let density = next() % 100;
            let spread = [3, 10, 1000][round % 3];
            let mut g = Graph::<u64>::new(n);
            for u in 0..n {
                for v in u + 1..n {
                    if next() % 100 < density {
                        g.set(u, v, 1 + next() % spread);
                    }
                }
            }
            let mate = g.max_weight_matching(&vec![true; n]);
            let mut total = 0;
            for v in 0..n {
                if let Some(u) = mate[v] {
                    assert_eq!(mate[u], Some(v), "round {round}: not symmetric");
                    assert!(!g.get(u, v).is_zero(), "round {round}: matched on no edge");
                    if u > v {
                        total += g.get(u, v);
                    }
                }
            }
            assert_eq!(
                total,
                brute_force(n, &g.weights),
                "round {round}: not the best"
            );
        }
    }

    #[test]
    fn inactive_vertices_are_left_out() {
        let mut g = Graph::<u64>::new(4);
        g.set(0, 1, 10);
        g.set(2, 3, 10);
        g.set(1, 2, 1);
        let mate = g.max_weight_matching(&[false, true, true, false]);
        assert_eq!(mate, vec![None, Some(2), Some(1), None]);
    }
}
