//! Maximum-weight matching in a general graph: Edmonds' blossom algorithm with the primal-dual
//! method, O(n³) (Galil, "Efficient algorithms for finding maximum matching in graphs", 1986),
//! solved from scratch. The pairing engine solves its graphs with the incremental version of
//! module `incremental`; this plain one is the reference its tests compare with.
//!
//! Dual variables of vertices are stored doubled so that they stay integers; weights must be
//! even for the same reason (the caller doubles them).

use super::wide::Wide;

const NONE: usize = usize::MAX;

/// The mate of every vertex (`None`: unmatched) in a maximum-weight matching of the graph with
/// `n` vertices and the edges `(i, j, weight)` (positive weights, `i != j`).
pub fn max_weight_matching<const N: usize>(
    n: usize,
    edges: &[(usize, usize, Wide<N>)],
) -> Vec<Option<usize>> {
    if n == 0 || edges.is_empty() {
        return vec![None; n];
    }
    let edges: Vec<(usize, usize, Wide<N>)> =
        edges.iter().map(|&(i, j, w)| (i, j, w.add(w))).collect();
    let mut m = Blossom::new(n, edges);
    m.solve();
    m.mate
        .iter()
        .map(|&p| if p == NONE { None } else { Some(m.endpoint[p]) })
        .collect()
}

struct Blossom<const N: usize> {
    n: usize,
    edges: Vec<(usize, usize, Wide<N>)>,
    /// `endpoint[2k]`, `endpoint[2k+1]`: the ends of edge k.
    endpoint: Vec<usize>,
    /// Per vertex: the endpoints at the far side of its edges.
    neighbend: Vec<Vec<usize>>,
    /// Per vertex: the far endpoint of its matched edge.
    mate: Vec<usize>,
    /// Per vertex or blossom: 0 free, 1 S (outer), 2 T (inner); bit 4 marks a scan.
    label: Vec<u8>,
    labelend: Vec<usize>,
    inblossom: Vec<usize>,
    blossomparent: Vec<usize>,
    blossomchilds: Vec<Vec<usize>>,
    blossombase: Vec<usize>,
    blossomendps: Vec<Vec<usize>>,
    bestedge: Vec<usize>,
    blossombestedges: Vec<Option<Vec<usize>>>,
    unusedblossoms: Vec<usize>,
    dualvar: Vec<Wide<N>>,
    /// Twice each edge's weight.
    twice: Vec<Wide<N>>,
    allowedge: Vec<bool>,
    queue: Vec<usize>,
}

impl<const N: usize> Blossom<N> {
    fn new(n: usize, edges: Vec<(usize, usize, Wide<N>)>) -> Self {
        let maxweight = edges
            .iter()
            .map(|e| e.2)
            .max()
            .unwrap_or(Wide::ZERO)
            .max(Wide::ZERO);
        let mut endpoint = Vec::with_capacity(2 * edges.len());
        let mut neighbend = vec![Vec::new(); n];
        for (k, &(i, j, _)) in edges.iter().enumerate() {
            endpoint.push(i);
            endpoint.push(j);
            neighbend[i].push(2 * k + 1);
            neighbend[j].push(2 * k);
        }
        let m = edges.len();
        let mut dualvar = vec![maxweight; n];
        dualvar.extend(std::iter::repeat_n(Wide::ZERO, n));
        let twice = edges.iter().map(|e| e.2.add(e.2)).collect();
        Blossom {
            n,
            twice,
            edges,
            endpoint,
            neighbend,
            mate: vec![NONE; n],
            label: vec![0; 2 * n],
            labelend: vec![NONE; 2 * n],
            inblossom: (0..n).collect(),
            blossomparent: vec![NONE; 2 * n],
            blossomchilds: vec![Vec::new(); 2 * n],
            blossombase: (0..n).chain(std::iter::repeat_n(NONE, n)).collect(),
            blossomendps: vec![Vec::new(); 2 * n],
            bestedge: vec![NONE; 2 * n],
            blossombestedges: vec![None; 2 * n],
            unusedblossoms: (n..2 * n).collect(),
            dualvar,
            allowedge: vec![false; m],
            queue: Vec::new(),
        }
    }

    #[inline]
    fn slack(&self, k: usize) -> Wide<N> {
        let (i, j) = (self.endpoint[2 * k], self.endpoint[2 * k + 1]);
        self.dualvar[i].add(self.dualvar[j]).sub(self.twice[k])
    }

    fn leaves(&self, b: usize, out: &mut Vec<usize>) {
        if b < self.n {
            out.push(b);
        } else {
            for &c in &self.blossomchilds[b] {
                self.leaves(c, out);
            }
        }
    }

    fn leaves_of(&self, b: usize) -> Vec<usize> {
        let mut v = Vec::new();
        self.leaves(b, &mut v);
        v
    }

    fn assign_label(&mut self, w: usize, t: u8, p: usize) {
        let b = self.inblossom[w];
        self.label[w] = t;
        self.label[b] = t;
        self.labelend[w] = p;
        self.labelend[b] = p;
        self.bestedge[w] = NONE;
        self.bestedge[b] = NONE;
        if t == 1 {
            let l = self.leaves_of(b);
            self.queue.extend(l);
        } else if t == 2 {
            let base = self.blossombase[b];
            let mb = self.mate[base];
            self.assign_label(self.endpoint[mb], 1, mb ^ 1);
        }
    }

    /// Traces back from v and w to find a new blossom's base, or NONE for an augmenting path.
    fn scan_blossom(&mut self, mut v: usize, mut w: usize) -> usize {
        let mut path = Vec::new();
        let mut base = NONE;
        while v != NONE || w != NONE {
            let mut b = self.inblossom[v];
            if self.label[b] & 4 != 0 {
                base = self.blossombase[b];
                break;
            }
            path.push(b);
            self.label[b] = 5;
            if self.labelend[b] == NONE {
                v = NONE;
            } else {
                v = self.endpoint[self.labelend[b]];
                b = self.inblossom[v];
                v = self.endpoint[self.labelend[b]];
            }
            if w != NONE {
                std::mem::swap(&mut v, &mut w);
            }
        }
        for b in path {
            self.label[b] = 1;
        }
        base
    }

    fn add_blossom(&mut self, base: usize, k: usize) {
        let (mut v, mut w, _) = self.edges[k];
        let bb = self.inblossom[base];
        let mut bv = self.inblossom[v];
        let mut bw = self.inblossom[w];
        let Some(b) = self.unusedblossoms.pop() else {
            return;
        };
        self.blossombase[b] = base;
        self.blossomparent[b] = NONE;
        self.blossomparent[bb] = b;
        let mut path = Vec::new();
        let mut endps = Vec::new();
        while bv != bb {
            self.blossomparent[bv] = b;
            path.push(bv);
            endps.push(self.labelend[bv]);
            v = self.endpoint[self.labelend[bv]];
            bv = self.inblossom[v];
        }
        path.push(bb);
        path.reverse();
        endps.reverse();
        endps.push(2 * k);
        while bw != bb {
            self.blossomparent[bw] = b;
            path.push(bw);
            endps.push(self.labelend[bw] ^ 1);
            w = self.endpoint[self.labelend[bw]];
            bw = self.inblossom[w];
        }
        self.label[b] = 1;
        self.labelend[b] = self.labelend[bb];
        self.dualvar[b] = Wide::ZERO;
        self.blossomchilds[b] = path.clone();
        self.blossomendps[b] = endps;
        for leaf in self.leaves_of(b) {
            if self.label[self.inblossom[leaf]] == 2 {
                self.queue.push(leaf);
            }
            self.inblossom[leaf] = b;
        }
        let mut bestedgeto = vec![NONE; 2 * self.n];
        for &child in &path {
            let lists: Vec<Vec<usize>> = match self.blossombestedges[child].take() {
                Some(list) => vec![list],
                None => self
                    .leaves_of(child)
                    .into_iter()
                    .map(|leaf| self.neighbend[leaf].iter().map(|p| p / 2).collect())
                    .collect(),
            };
            for list in lists {
                for k in list {
                    let (mut i, mut j, _) = self.edges[k];
                    if self.inblossom[j] == b {
                        std::mem::swap(&mut i, &mut j);
                    }
                    let _ = i;
                    let bj = self.inblossom[j];
                    if bj != b
                        && self.label[bj] == 1
                        && (bestedgeto[bj] == NONE || self.slack(k) < self.slack(bestedgeto[bj]))
                    {
                        bestedgeto[bj] = k;
                    }
                }
            }
            self.bestedge[child] = NONE;
        }
        let best: Vec<usize> = bestedgeto.into_iter().filter(|&k| k != NONE).collect();
        self.bestedge[b] = NONE;
        for &k in &best {
            if self.bestedge[b] == NONE || self.slack(k) < self.slack(self.bestedge[b]) {
                self.bestedge[b] = k;
            }
        }
        self.blossombestedges[b] = Some(best);
    }

    fn expand_blossom(&mut self, b: usize, endstage: bool) {
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
        if !endstage && self.label[b] == 2 {
            let len = childs.len() as isize;
            let at = |j: isize| childs[j.rem_euclid(len) as usize];
            let endps = self.blossomendps[b].clone();
            let endp_at = |j: isize| endps[j.rem_euclid(len) as usize];
            let entrychild = self.inblossom[self.endpoint[self.labelend[b] ^ 1]];
            let mut j = childs.iter().position(|&c| c == entrychild).unwrap_or(0) as isize;
            let (jstep, endptrick): (isize, usize) = if j & 1 != 0 {
                j -= len;
                (1, 0)
            } else {
                (-1, 1)
            };
            let mut p = self.labelend[b];
            while j != 0 {
                self.label[self.endpoint[p ^ 1]] = 0;
                let q = endp_at(j - endptrick as isize) ^ endptrick ^ 1;
                self.label[self.endpoint[q]] = 0;
                self.assign_label(self.endpoint[p ^ 1], 2, p);
                self.allowedge[endp_at(j - endptrick as isize) / 2] = true;
                j += jstep;
                p = endp_at(j - endptrick as isize) ^ endptrick;
                self.allowedge[p / 2] = true;
                j += jstep;
            }
            let bv = at(j);
            let e = self.endpoint[p ^ 1];
            self.label[e] = 2;
            self.label[bv] = 2;
            self.labelend[e] = p;
            self.labelend[bv] = p;
            self.bestedge[bv] = NONE;
            j += jstep;
            while at(j) != entrychild {
                let bv = at(j);
                if self.label[bv] == 1 {
                    j += jstep;
                    continue;
                }
                let labelled = self
                    .leaves_of(bv)
                    .into_iter()
                    .find(|&leaf| self.label[leaf] != 0);
                if let Some(v) = labelled {
                    self.label[v] = 0;
                    let mb = self.mate[self.blossombase[bv]];
                    self.label[self.endpoint[mb]] = 0;
                    self.assign_label(v, 2, self.labelend[v]);
                }
                j += jstep;
            }
        }
        self.label[b] = 0;
        self.labelend[b] = NONE;
        self.blossomchilds[b] = Vec::new();
        self.blossomendps[b] = Vec::new();
        self.blossombase[b] = NONE;
        self.blossombestedges[b] = None;
        self.bestedge[b] = NONE;
        self.unusedblossoms.push(b);
    }

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
        let mut j = i as isize;
        let (jstep, endptrick): (isize, usize) = if j & 1 != 0 {
            j -= len;
            (1, 0)
        } else {
            (-1, 1)
        };
        while j != 0 {
            j += jstep;
            let t = at(j);
            let p = endp_at(j - endptrick as isize) ^ endptrick;
            if t >= self.n {
                self.augment_blossom(t, self.endpoint[p]);
            }
            j += jstep;
            let t = at(j);
            if t >= self.n {
                self.augment_blossom(t, self.endpoint[p ^ 1]);
            }
            self.mate[self.endpoint[p]] = p ^ 1;
            self.mate[self.endpoint[p ^ 1]] = p;
        }
        let mut c = childs[i..].to_vec();
        c.extend_from_slice(&childs[..i]);
        let mut e = endps[i..].to_vec();
        e.extend_from_slice(&endps[..i]);
        self.blossombase[b] = self.blossombase[c[0]];
        self.blossomchilds[b] = c;
        self.blossomendps[b] = e;
    }

    fn augment_matching(&mut self, k: usize) {
        let (v, w, _) = self.edges[k];
        for (mut s, mut p) in [(v, 2 * k + 1), (w, 2 * k)] {
            loop {
                let bs = self.inblossom[s];
                if bs >= self.n {
                    self.augment_blossom(bs, s);
                }
                self.mate[s] = p;
                if self.labelend[bs] == NONE {
                    break;
                }
                let t = self.endpoint[self.labelend[bs]];
                let bt = self.inblossom[t];
                s = self.endpoint[self.labelend[bt]];
                let j = self.endpoint[self.labelend[bt] ^ 1];
                if bt >= self.n {
                    self.augment_blossom(bt, j);
                }
                self.mate[j] = self.labelend[bt];
                p = self.labelend[bt] ^ 1;
            }
        }
    }

    fn solve(&mut self) {
        let n = self.n;
        for _ in 0..n {
            // a stage is O(n²): the host may cancel between stages
            crate::interrupt::check();
            self.label.fill(0);
            self.bestedge.fill(NONE);
            for b in n..2 * n {
                self.blossombestedges[b] = None;
            }
            self.allowedge.fill(false);
            self.queue.clear();
            for v in 0..n {
                if self.mate[v] == NONE && self.label[self.inblossom[v]] == 0 {
                    self.assign_label(v, 1, NONE);
                }
            }
            let mut augmented = false;
            loop {
                while let Some(v) = self.queue.pop() {
                    if augmented {
                        break;
                    }
                    for idx in 0..self.neighbend[v].len() {
                        let p = self.neighbend[v][idx];
                        let k = p / 2;
                        let w = self.endpoint[p];
                        if self.inblossom[v] == self.inblossom[w] {
                            continue;
                        }
                        let mut kslack = Wide::ZERO;
                        if !self.allowedge[k] {
                            kslack = self.slack(k);
                            if kslack <= Wide::ZERO {
                                self.allowedge[k] = true;
                            }
                        }
                        if self.allowedge[k] {
                            if self.label[self.inblossom[w]] == 0 {
                                self.assign_label(w, 2, p ^ 1);
                            } else if self.label[self.inblossom[w]] == 1 {
                                let base = self.scan_blossom(v, w);
                                if base != NONE {
                                    self.add_blossom(base, k);
                                } else {
                                    self.augment_matching(k);
                                    augmented = true;
                                    break;
                                }
                            } else if self.label[w] == 0 {
                                self.label[w] = 2;
                                self.labelend[w] = p ^ 1;
                            }
                        } else if self.label[self.inblossom[w]] == 1 {
                            let b = self.inblossom[v];
                            if self.bestedge[b] == NONE || kslack < self.slack(self.bestedge[b]) {
                                self.bestedge[b] = k;
                            }
                        } else if self.label[w] == 0
                            && (self.bestedge[w] == NONE || kslack < self.slack(self.bestedge[w]))
                        {
                            self.bestedge[w] = k;
                        }
                    }
                }
                if augmented {
                    break;
                }
                // No augmenting path under the current duals: change them (delta types 1-4).
                let mut deltatype = 1;
                let mut delta = self.dualvar[..n]
                    .iter()
                    .copied()
                    .min()
                    .unwrap_or(Wide::ZERO);
                let mut deltaedge = NONE;
                let mut deltablossom = NONE;
                for v in 0..n {
                    if self.label[self.inblossom[v]] == 0 && self.bestedge[v] != NONE {
                        let d = self.slack(self.bestedge[v]);
                        if d < delta {
                            delta = d;
                            deltatype = 2;
                            deltaedge = self.bestedge[v];
                        }
                    }
                }
                for b in 0..2 * n {
                    if self.blossomparent[b] == NONE
                        && self.label[b] == 1
                        && self.bestedge[b] != NONE
                    {
                        let d = self.slack(self.bestedge[b]).half();
                        if d < delta {
                            delta = d;
                            deltatype = 3;
                            deltaedge = self.bestedge[b];
                        }
                    }
                }
                for b in n..2 * n {
                    if self.blossombase[b] != NONE
                        && self.blossomparent[b] == NONE
                        && self.label[b] == 2
                        && self.dualvar[b] < delta
                    {
                        delta = self.dualvar[b];
                        deltatype = 4;
                        deltablossom = b;
                    }
                }
                for v in 0..n {
                    match self.label[self.inblossom[v]] {
                        1 => self.dualvar[v] = self.dualvar[v].sub(delta),
                        2 => self.dualvar[v] = self.dualvar[v].add(delta),
                        _ => {}
                    }
                }
                for b in n..2 * n {
                    if self.blossombase[b] != NONE && self.blossomparent[b] == NONE {
                        match self.label[b] {
                            1 => self.dualvar[b] = self.dualvar[b].add(delta),
                            2 => self.dualvar[b] = self.dualvar[b].sub(delta),
                            _ => {}
                        }
                    }
                }
                match deltatype {
                    2 => {
                        self.allowedge[deltaedge] = true;
                        let (mut i, j, _) = self.edges[deltaedge];
                        if self.label[self.inblossom[i]] == 0 {
                            i = j;
                        }
                        self.queue.push(i);
                    }
                    3 => {
                        self.allowedge[deltaedge] = true;
                        self.queue.push(self.edges[deltaedge].0);
                    }
                    4 => self.expand_blossom(deltablossom, false),
                    _ => break,
                }
            }
            if !augmented {
                break;
            }
            for b in n..2 * n {
                if self.blossomparent[b] == NONE
                    && self.blossombase[b] != NONE
                    && self.label[b] == 1
                    && self.dualvar[b].is_zero()
                {
                    self.expand_blossom(b, true);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;

    fn w(v: u64) -> Wide<2> {
        Wide::from_u64(v)
    }

    fn brute_force(n: usize, edges: &[(usize, usize, u64)]) -> u64 {
        fn go(v: usize, used: &mut Vec<bool>, n: usize, adj: &[Vec<u64>]) -> u64 {
            if v == n {
                return 0;
            }
            if used[v] {
                return go(v + 1, used, n, adj);
            }
            used[v] = true;
            let mut best = go(v + 1, used, n, adj);
            for u in v + 1..n {
                if !used[u] && adj[v][u] > 0 {
                    used[u] = true;
                    best = best.max(adj[v][u] + go(v + 1, used, n, adj));
                    used[u] = false;
                }
            }
            used[v] = false;
            best
        }
        let mut adj = vec![vec![0; n]; n];
        for &(i, j, wt) in edges {
            adj[i][j] = wt;
            adj[j][i] = wt;
        }
        go(0, &mut vec![false; n], n, &adj)
    }

    #[test]
    fn small_cases_of_the_reference_implementation() {
        let m = max_weight_matching(3, &[(0, 1, w(1))]);
        assert_eq!(m, vec![Some(1), Some(0), None]);
        let m = max_weight_matching(4, &[(0, 1, w(2)), (1, 2, w(3)), (2, 3, w(2))]);
        assert_eq!(m, vec![Some(1), Some(0), Some(3), Some(2)]);
        // A blossom (S-blossom relabelled as T, expanded).
        let m = max_weight_matching(
            6,
            &[
                (0, 1, w(8)),
                (0, 2, w(9)),
                (1, 2, w(10)),
                (2, 3, w(7)),
                (0, 5, w(5)),
                (3, 4, w(6)),
            ],
        );
        assert_eq!(
            m,
            vec![Some(5), Some(2), Some(1), Some(4), Some(3), Some(0)]
        );
    }

    /// Best matching weight by dynamic programming over subsets (n ≤ 16).
    fn subset_dp(n: usize, adj: &[Vec<u64>]) -> u64 {
        let mut best = vec![0u64; 1 << n];
        for mask in 1usize..(1 << n) {
            let v = mask.trailing_zeros() as usize;
            let rest = mask & !(1 << v);
            let mut b = best[rest];
            for u in v + 1..n {
                if rest & (1 << u) != 0 && adj[v][u] > 0 {
                    b = b.max(adj[v][u] + best[rest & !(1 << u)]);
                }
            }
            best[mask] = b;
        }
        best[(1 << n) - 1]
    }

    #[test]
    #[allow(clippy::needless_range_loop)] // i, j are vertices
    fn dense_graphs_with_layered_weights_are_solved_exactly() {
        let mut rng = Rng::new(11);
        for case in 0..300 {
            let n = 4 + rng.below(11);
            let mut adj = vec![vec![0u64; n]; n];
            let mut edges = Vec::new();
            for i in 0..n {
                for j in i + 1..n {
                    if rng.below(5) > 0 {
                        // Several fields, like the pairing weights.
                        let x = (1 + rng.below(3) as u64) << 40
                            | (rng.below(4) as u64) << 20
                            | rng.below(8) as u64;
                        adj[i][j] = x;
                        adj[j][i] = x;
                        edges.push((i, j, w(x)));
                    }
                }
            }
            let m = max_weight_matching(n, &edges);
            let total: u64 = (0..n)
                .filter_map(|v| m[v].filter(|&u| u > v).map(|u| adj[v][u]))
                .sum();
            assert_eq!(total, subset_dp(n, &adj), "case {case}");
        }
    }

    #[test]
    fn random_graphs_match_a_brute_force_search() {
        let mut rng = Rng::new(7);
        for case in 0..400 {
            let n = 2 + rng.below(9);
            let mut edges = Vec::new();
            for i in 0..n {
                for j in i + 1..n {
                    if rng.one_in(2) {
                        edges.push((
                            i,
                            j,
                            1 + rng.below(if case % 2 == 0 { 5 } else { 100 }) as u64,
                        ));
                    }
                }
            }
            let wide: Vec<_> = edges.iter().map(|&(i, j, x)| (i, j, w(x))).collect();
            let m = max_weight_matching(n, &wide);
            let mut total = 0;
            for (v, mate) in m.iter().enumerate() {
                if let Some(u) = *mate {
                    assert_eq!(m[u], Some(v));
                    if v < u {
                        total += edges
                            .iter()
                            .find(|e| (e.0 == v && e.1 == u) || (e.0 == u && e.1 == v))
                            .map(|e| e.2)
                            .expect("matched along an edge");
                    }
                }
            }
            assert_eq!(total, brute_force(n, &edges), "case {case}: {edges:?}");
        }
    }
}
