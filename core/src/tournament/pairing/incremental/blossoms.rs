//! The blossom bookkeeping of the search, as in module `matching` (Edmonds' algorithm after
//! Galil): finding a blossom's base, forming and expanding blossoms, and alternating the
//! matching along a tree path through them.

use super::{arc, Matcher, Weights, FREE, NONE, S, SEEN, T};
use crate::tournament::pairing::wide::Wide;

impl<const N: usize> Matcher<N> {
    /// Traces back from S vertices v and w (of the one tree) to the base of the blossom that
    /// the edge between them closes.
    pub(super) fn scan_blossom(&mut self, mut v: usize, mut w: usize) -> usize {
        let mut path = Vec::new();
        let mut base = NONE;
        while v != NONE || w != NONE {
            let mut b = self.inblossom[v];
            if self.label[b] & SEEN != 0 {
                base = self.blossombase[b];
                break;
            }
            path.push(b);
            self.label[b] = S | SEEN;
            if self.labelend[b] == NONE {
                v = NONE;
            } else {
                v = self.far(self.labelend[b]);
                b = self.inblossom[v];
                v = self.far(self.labelend[b]);
            }
            if w != NONE {
                std::mem::swap(&mut v, &mut w);
            }
        }
        for b in path {
            self.label[b] = S;
        }
        debug_assert_ne!(base, NONE, "one tree: v and w have a common ancestor");
        base
    }

    /// Makes a blossom of the cycle closed by arc `a` (between two S blossoms) through `base`.
    pub(super) fn add_blossom<W: Weights<N>>(&mut self, wt: &W, base: usize, a: usize) {
        let n = self.n;
        let (mut v, mut w) = (self.near(a), self.far(a));
        let bb = self.inblossom[base];
        let mut bv = self.inblossom[v];
        let mut bw = self.inblossom[w];
        let b = self
            .unusedblossoms
            .pop()
            .expect("a graph of n vertices has at most n blossoms");
        self.blossombase[b] = base;
        self.blossomparent[b] = NONE;
        self.blossomparent[bb] = b;
        let mut path = Vec::new();
        let mut endps = Vec::new();
        while bv != bb {
            self.blossomparent[bv] = b;
            path.push(bv);
            endps.push(self.labelend[bv]);
            v = self.far(self.labelend[bv]);
            bv = self.inblossom[v];
        }
        path.push(bb);
        path.reverse();
        endps.reverse();
        endps.push(self.reverse(a));
        while bw != bb {
            self.blossomparent[bw] = b;
            path.push(bw);
            endps.push(self.reverse(self.labelend[bw]));
            w = self.far(self.labelend[bw]);
            bw = self.inblossom[w];
        }
        self.label[b] = S;
        self.labelend[b] = self.labelend[bb];
        self.dualvar[b] = Wide::ZERO;
        self.blossomchilds[b] = path.clone();
        self.blossomendps[b] = endps;
        for leaf in self.leaves_of(b) {
            if self.label[self.inblossom[leaf]] == T {
                self.queue.push(leaf);
            }
            self.inblossom[leaf] = b;
        }
        // The least-slack edge from the new blossom to each other S blossom.
        let mut bestedgeto = vec![NONE; 2 * n];
        let mut bestslack = vec![Wide::ZERO; 2 * n];
        let mut offer = |s: &Self, k: usize, slack: Wide<N>| {
            let (i, j) = (s.near(k), s.far(k));
            let outside = if s.inblossom[j] == b { i } else { j };
            let bj = s.inblossom[outside];
            if bj != b && s.label[bj] == S && (bestedgeto[bj] == NONE || slack < bestslack[bj]) {
                bestedgeto[bj] = k;
                bestslack[bj] = slack;
            }
        };
        for &child in &path {
            // (a child's list holds up to 2n edges, and a path can hold many children)
            crate::interrupt::check();
            match self.blossombestedges[child].take() {
                Some(list) => list
                    .into_iter()
                    .for_each(|k| offer(self, k, self.slack(wt, k))),
                None => {
                    for leaf in self.leaves_of(child) {
                        crate::interrupt::check();
                        // (from the leaf's row of weights if it is cached; not cached for
                        // this: a blossom's many leaves would push out the rows scans use)
                        let row = self.cached_row(leaf);
                        let edges = wt.edges(leaf);
                        for x in 0..n {
                            // (only an edge to another S blossom is offered: that is checked
                            // before its weight is read, as most vertices are in none)
                            let bx = self.inblossom[x];
                            if bx == b
                                || self.label[bx] != S
                                || !self.active[x]
                                || edges.is_some_and(|e| e[x / 64] >> (x % 64) & 1 == 0)
                            {
                                continue;
                            }
                            let t = match row {
                                Some(r) => self.cache[r + x],
                                None => self.edge_twice(wt, leaf, x).unwrap_or(Wide::ZERO),
                            };
                            if t > Wide::ZERO {
                                let slack = self.dualvar[leaf].add(self.dualvar[x]).sub(t);
                                offer(self, arc(leaf, x), slack);
                            }
                        }
                    }
                }
            }
            self.bestedge[child] = NONE;
        }
        let best: Vec<usize> = bestedgeto.into_iter().filter(|&k| k != NONE).collect();
        self.bestedge[b] = NONE;
        for &k in &best {
            if self.bestedge[b] == NONE || self.slack(wt, k) < self.slack(wt, self.bestedge[b]) {
                self.bestedge[b] = k;
            }
        }
        self.blossombestedges[b] = Some(best);
    }

    pub(super) fn expand_blossom(&mut self, b: usize, endstage: bool) {
        let childs = self.blossomchilds[b].clone();
        for &s in &childs {
            self.blossomparent[s] = NONE;
            if s < self.n {
                self.inblossom[s] = s;
            } else if endstage && self.dualvar[s].is_zero() {
                self.expand_blossom(s, endstage);
            } else {
                for leaf in self.leaves_of(s) {
                    self.inblossom[leaf] = s;
                }
            }
        }
        if !endstage && self.label[b] == T {
            // Relabel the sub-blossoms on the even path from the entry to the base.
            let len = childs.len() as isize;
            let at = |j: isize| childs[j.rem_euclid(len) as usize];
            let endps = self.blossomendps[b].clone();
            let endp_at = |j: isize| endps[j.rem_euclid(len) as usize];
            let entrychild = self.inblossom[self.near(self.labelend[b])];
            let i = childs.iter().position(|&c| c == entrychild).unwrap_or(0);
            let (mut j, jstep, forward) = walk_to_base(i, childs.len());
            let trick = isize::from(!forward);
            // Going backwards around the cycle, the arcs point the other way.
            let oriented = |s: &Self, e: usize| if forward { e } else { s.reverse(e) };
            let mut p = self.labelend[b];
            while j != 0 {
                let (entry, q) = (self.near(p), oriented(self, endp_at(j - trick)));
                let other = self.near(q);
                self.label[entry] = FREE;
                self.label[other] = FREE;
                self.assign_label(self.near(p), T, p);
                self.allow(endp_at(j - trick));
                j += jstep;
                p = oriented(self, endp_at(j - trick));
                self.allow(p);
                j += jstep;
            }
            let bv = at(j);
            let e = self.near(p);
            self.label[e] = T;
            self.label[bv] = T;
            self.labelend[e] = p;
            self.labelend[bv] = p;
            self.bestedge[bv] = NONE;
            j += jstep;
            while at(j) != entrychild {
                let bv = at(j);
                if self.label[bv] == S {
                    j += jstep;
                    continue;
                }
                let labelled = self
                    .leaves_of(bv)
                    .into_iter()
                    .find(|&leaf| self.label[leaf] != FREE);
                if let Some(v) = labelled {
                    self.label[v] = FREE;
                    let mate = self.far(self.mate[self.blossombase[bv]]);
                    self.label[mate] = FREE;
                    self.assign_label(v, T, self.labelend[v]);
                }
                j += jstep;
            }
        }
        self.release(b);
    }

    /// Swaps matched and unmatched edges on the even path from v to the base of blossom b,
    /// which makes v the base.
    fn augment_blossom(&mut self, b: usize, v: usize) {
        let mut t = v;
        while self.blossomparent[t] != b {
            t = self.blossomparent[t];
        }
        if t >= self.n {
            self.augment_blossom(t, v);
        }
        let childs = self.blossomchilds[b].clone();
        let endps = self.blossomendps[b].clone();
        let len = childs.len() as isize;
        let at = |j: isize| childs[j.rem_euclid(len) as usize];
        let endp_at = |j: isize| endps[j.rem_euclid(len) as usize];
        let i = childs.iter().position(|&c| c == t).unwrap_or(0);
        let (mut j, jstep, forward) = walk_to_base(i, childs.len());
        let trick = isize::from(!forward);
        while j != 0 {
            j += jstep;
            let t = at(j);
            let e = endp_at(j - trick);
            let p = if forward { e } else { self.reverse(e) };
            if t >= self.n {
                self.augment_blossom(t, self.far(p));
            }
            j += jstep;
            let t = at(j);
            if t >= self.n {
                self.augment_blossom(t, self.near(p));
            }
            let (x, y) = (self.far(p), self.near(p));
            self.mate[x] = self.reverse(p);
            self.mate[y] = p;
        }
        let mut c = childs[i..].to_vec();
        c.extend_from_slice(&childs[..i]);
        let mut e = endps[i..].to_vec();
        e.extend_from_slice(&endps[..i]);
        self.blossombase[b] = self.blossombase[c[0]];
        self.blossomchilds[b] = c;
        self.blossomendps[b] = e;
    }

    /// Augments along arc `a`, from an S vertex to a free vertex outside the tree (which has no
    /// tree path: it only gets its mate).
    pub(super) fn augment(&mut self, a: usize) {
        let (v, w) = (self.near(a), self.far(a));
        self.alternate_to_root(v, a);
        self.alternate_to_root(w, self.reverse(a));
    }

    /// Makes S vertex v the free vertex of its tree with a zero dual.
    pub(super) fn expose(&mut self, v: usize) {
        self.alternate_to_root(v, NONE);
    }

    /// Gives s the mate arc p (NONE: free) and alternates the matching on the tree path from s
    /// to its root.
    fn alternate_to_root(&mut self, mut s: usize, mut p: usize) {
        loop {
            let bs = self.inblossom[s];
            if bs >= self.n {
                self.augment_blossom(bs, s);
            }
            self.mate[s] = p;
            if self.labelend[bs] == NONE {
                break;
            }
            let t = self.far(self.labelend[bs]);
            let bt = self.inblossom[t];
            let up = self.labelend[bt];
            s = self.far(up);
            let j = self.near(up);
            if bt >= self.n {
                self.augment_blossom(bt, j);
            }
            self.mate[j] = up;
            p = self.reverse(up);
        }
    }
}

/// The walk around a blossom's cycle from the child at position `i` to its base (position 0) by
/// the even-length way: the start (made negative when the walk goes forwards, so that it ends at
/// 0), the step, and whether it goes forwards.
fn walk_to_base(i: usize, len: usize) -> (isize, isize, bool) {
    let (i, len) = (i as isize, len as isize);
    if i & 1 != 0 {
        (i - len, 1, true)
    } else {
        (i, -1, false)
    }
}
