//! Maximum-cardinality matching in a general graph (Edmonds' blossom algorithm, O(n³)): decides
//! quickly whether a set of players can all be paired (completion, C.04.3 C.4), which is all
//! the players outside the current bracket contribute to its weights.

const NONE: usize = usize::MAX;

/// A graph the search reads: vertex v's neighbours are `neighbour(v, k)` for k below
/// `slots(v)` (a slot may hold none).
pub trait Graph {
    fn len(&self) -> usize;
    fn slots(&self, v: usize) -> usize;
    fn neighbour(&self, v: usize, k: usize) -> Option<usize>;
}

/// Adjacency lists.
impl Graph for [Vec<usize>] {
    fn len(&self) -> usize {
        <[Vec<usize>]>::len(self)
    }
    fn slots(&self, v: usize) -> usize {
        self[v].len()
    }
    fn neighbour(&self, v: usize, k: usize) -> Option<usize> {
        Some(self[v][k])
    }
}

/// A graph given by whether two vertices are adjacent (symmetric): no lists, so its memory is
/// O(1) however dense it is (the players' graphs are nearly complete: lists would cost 8 bytes a
/// pair).
pub struct Dense<F: Fn(usize, usize) -> bool> {
    pub n: usize,
    pub edge: F,
}

impl<F: Fn(usize, usize) -> bool> Graph for Dense<F> {
    fn len(&self) -> usize {
        self.n
    }
    fn slots(&self, _: usize) -> usize {
        self.n
    }
    fn neighbour(&self, v: usize, k: usize) -> Option<usize> {
        (k != v && (self.edge)(v, k)).then_some(k)
    }
}

/// Grows `mate` (a valid matching of the graph `adj`) to a maximum matching.
pub fn maximum_matching<G: Graph + ?Sized>(adj: &G, mate: &mut [usize]) {
    let n = adj.len();
    // Greedy start: most vertices get matched without any search.
    for v in 0..n {
        if v % 64 == 0 {
            crate::interrupt::check();
        }
        if mate[v] == NONE {
            if let Some(u) = (0..adj.slots(v))
                .filter_map(|k| adj.neighbour(v, k))
                .find(|&u| mate[u] == NONE && u != v)
            {
                mate[v] = u;
                mate[u] = v;
            }
        }
    }
    let mut search = Search {
        adj,
        parent: vec![NONE; n],
        base: (0..n).collect(),
        used: vec![false; n],
        blossom: vec![false; n],
        queue: Vec::new(),
    };
    for root in 0..n {
        // (a search is O(edges): the host may cancel between searches)
        crate::interrupt::check();
        if mate[root] == NONE {
            if let Some(end) = search.augmenting_path(root, mate) {
                let mut v = end;
                while v != NONE {
                    let pv = search.parent[v];
                    let next = mate[pv];
                    mate[v] = pv;
                    mate[pv] = v;
                    v = next;
                }
            }
        }
    }
}

struct Search<'a, G: Graph + ?Sized> {
    adj: &'a G,
    parent: Vec<usize>,
    base: Vec<usize>,
    used: Vec<bool>,
    blossom: Vec<bool>,
    queue: Vec<usize>,
}

impl<G: Graph + ?Sized> Search<'_, G> {
    fn lca(&self, mut a: usize, mut b: usize, mate: &[usize]) -> usize {
        let mut seen = vec![false; self.adj.len()];
        loop {
            a = self.base[a];
            seen[a] = true;
            if mate[a] == NONE {
                break;
            }
            a = self.parent[mate[a]];
        }
        loop {
            b = self.base[b];
            if seen[b] {
                return b;
            }
            b = self.parent[mate[b]];
        }
    }

    fn mark_path(&mut self, mut v: usize, b: usize, mut child: usize, mate: &[usize]) {
        while self.base[v] != b {
            self.blossom[self.base[v]] = true;
            self.blossom[self.base[mate[v]]] = true;
            self.parent[v] = child;
            child = mate[v];
            v = self.parent[mate[v]];
        }
    }

    /// The free vertex at the end of an augmenting path from `root`, if any.
    fn augmenting_path(&mut self, root: usize, mate: &[usize]) -> Option<usize> {
        let n = self.adj.len();
        self.used.fill(false);
        self.parent.fill(NONE);
        for (i, b) in self.base.iter_mut().enumerate() {
            *b = i;
        }
        self.used[root] = true;
        self.queue.clear();
        self.queue.push(root);
        let mut head = 0;
        while head < self.queue.len() {
            let v = self.queue[head];
            head += 1;
            // (a vertex's scan is O(n) in a dense graph, a search O(n²))
            crate::interrupt::check();
            for idx in 0..self.adj.slots(v) {
                let Some(u) = self.adj.neighbour(v, idx) else {
                    continue;
                };
                if self.base[v] == self.base[u] || mate[v] == u {
                    continue;
                }
                if u == root || (mate[u] != NONE && self.parent[mate[u]] != NONE) {
                    let cur = self.lca(v, u, mate);
                    self.blossom.fill(false);
                    self.mark_path(v, cur, u, mate);
                    self.mark_path(u, cur, v, mate);
                    for i in 0..n {
                        if self.blossom[self.base[i]] {
                            self.base[i] = cur;
                            if !self.used[i] {
                                self.used[i] = true;
                                self.queue.push(i);
                            }
                        }
                    }
                } else if self.parent[u] == NONE {
                    self.parent[u] = v;
                    if mate[u] == NONE {
                        return Some(u);
                    }
                    self.used[mate[u]] = true;
                    self.queue.push(mate[u]);
                }
            }
        }
        None
    }
}

/// Whether the graph has a perfect matching.
pub fn has_perfect_matching<G: Graph + ?Sized>(adj: &G) -> bool {
    let mut mate = vec![NONE; adj.len()];
    maximum_matching(adj, &mut mate);
    mate.iter().all(|&m| m != NONE)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;

    fn brute(n: usize, adj: &[Vec<usize>], used: &mut Vec<bool>) -> usize {
        let Some(v) = (0..n).find(|&v| !used[v]) else {
            return 0;
        };
        used[v] = true;
        let mut best = brute(n, adj, used);
        for &u in &adj[v] {
            if !used[u] {
                used[u] = true;
                best = best.max(1 + brute(n, adj, used));
                used[u] = false;
            }
        }
        used[v] = false;
        best
    }

    #[test]
    fn random_graphs_get_a_maximum_matching() {
        let mut rng = Rng::new(3);
        for _ in 0..300 {
            let n = 1 + rng.below(11);
            let mut adj = vec![Vec::new(); n];
            for i in 0..n {
                for j in i + 1..n {
                    if rng.one_in(3) {
                        adj[i].push(j);
                        adj[j].push(i);
                    }
                }
            }
            let mut mate = vec![NONE; n];
            maximum_matching(adj.as_slice(), &mut mate);
            let size = mate.iter().filter(|&&m| m != NONE).count() / 2;
            for v in 0..n {
                if mate[v] != NONE {
                    assert_eq!(mate[mate[v]], v);
                    assert!(adj[v].contains(&mate[v]));
                }
            }
            assert_eq!(size, brute(n, &adj, &mut vec![false; n]));
        }
    }

    #[test]
    fn a_graph_read_from_its_edges_matches_like_its_lists() {
        let mut rng = Rng::new(4);
        for _ in 0..300 {
            let n = 1 + rng.below(14);
            let mut bits = vec![false; n * n];
            let mut adj = vec![Vec::new(); n];
            for i in 0..n {
                for j in i + 1..n {
                    if !rng.one_in(4) {
                        bits[i * n + j] = true;
                        bits[j * n + i] = true;
                        adj[i].push(j);
                        adj[j].push(i);
                    }
                }
            }
            let dense = Dense {
                n,
                edge: |i: usize, j: usize| bits[i * n + j],
            };
            let mut mate = vec![NONE; n];
            maximum_matching(&dense, &mut mate);
            for v in 0..n {
                if mate[v] != NONE {
                    assert_eq!(mate[mate[v]], v);
                    assert!(bits[v * n + mate[v]]);
                }
            }
            let size = mate.iter().filter(|&&m| m != NONE).count() / 2;
            assert_eq!(size, brute(n, &adj, &mut vec![false; n]));
            assert_eq!(
                has_perfect_matching(&dense),
                has_perfect_matching(adj.as_slice())
            );
        }
    }
}
