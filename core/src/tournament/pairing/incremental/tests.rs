//! The incremental matching against the plain one of module `matching`, on random graphs whose
//! weights change and whose vertices leave the way the bracket procedure changes them; after
//! every solve the duals must also prove the matching optimal.

use super::*;
use crate::test_rng::Rng;
use crate::tournament::pairing::matching::max_weight_matching;

type W = Wide<2>;

/// The matcher with its weights in a matrix, set one edge at a time.
struct IncrementalMatching<const N: usize> {
    weights: Matrix<N>,
    matcher: Matcher<N>,
}

impl<const N: usize> IncrementalMatching<N> {
    /// A graph of `n` vertices and no edges.
    fn new(n: usize) -> Self {
        IncrementalMatching {
            weights: Matrix::new(n),
            // (its weights are loads already: no rows cached)
            matcher: Matcher::with_cache(n, 0),
        }
    }

    /// The weight of edge {i, j} (zero: none).
    fn weight(&self, i: usize, j: usize) -> Wide<N> {
        self.weights.weight(i, j)
    }

    /// Sets the weight of edge {i, j}; a weight that is not positive removes the edge.
    fn set_weight(&mut self, i: usize, j: usize, w: Wide<N>) {
        debug_assert_ne!(i, j, "no loops");
        if self.weights.set(i, j, w) {
            self.matcher.changed_edge(i, j);
        }
    }

    /// Removes vertex v and its edges from the graph.
    fn remove(&mut self, v: usize) {
        self.matcher.remove(v);
    }

    /// The mate of every vertex in a maximum-weight matching of the current graph.
    fn solve(&mut self) -> Vec<Option<usize>> {
        self.matcher.solve(&self.weights)
    }
}

/// A weight with several fields, like the pairing's, or a small one: ties are common.
fn weight(rng: &mut Rng) -> W {
    W::from_u64(if rng.one_in(2) {
        1 + rng.below(4) as u64
    } else {
        (1 + rng.below(3) as u64) << 40 | (rng.below(4) as u64) << 20 | rng.below(8) as u64
    })
}

/// The weight of a matching, checking that it is one.
fn total(m: &IncrementalMatching<2>, mates: &[Option<usize>]) -> W {
    let (mm, wt) = (&m.matcher, &m.weights);
    let mut sum = W::ZERO;
    for (v, mate) in mates.iter().enumerate() {
        if let Some(u) = *mate {
            assert_eq!(mates[u], Some(v), "symmetric");
            assert!(
                mm.active[v] && mm.edge_twice(wt, v, u).is_some(),
                "matched along an edge"
            );
            if v < u {
                sum = sum.add(m.weight(v, u));
            }
        }
    }
    sum
}

/// The weight of the plain algorithm's matching of the same graph.
fn plain_total(m: &IncrementalMatching<2>) -> W {
    let (mm, wt) = (&m.matcher, &m.weights);
    let n = mm.n;
    let mut edges = Vec::new();
    for i in (0..n).filter(|&i| mm.active[i]) {
        for j in (i + 1..n).filter(|&j| mm.edge_twice(wt, i, j).is_some()) {
            edges.push((i, j, m.weight(i, j)));
        }
    }
    let mates = max_weight_matching(n, &edges);
    (0..n)
        .filter_map(|i| mates[i].filter(|&j| j > i).map(|j| m.weight(i, j)))
        .fold(W::ZERO, W::add)
}

/// Checks the LP optimality conditions: duals feasible and not negative, matched edges tight,
/// free vertices with a zero dual, blossoms full.
fn assert_certificate(m: &IncrementalMatching<2>) {
    let (mm, wt) = (&m.matcher, &m.weights);
    let n = mm.n;
    let blossoms_of = |v: usize| {
        let mut chain = Vec::new();
        let mut b = mm.blossomparent[v];
        while b != NONE {
            chain.push(b);
            b = mm.blossomparent[b];
        }
        chain
    };
    for v in (0..n).filter(|&v| mm.active[v]) {
        assert!(mm.dualvar[v] >= W::ZERO, "vertex dual");
        if mm.mate[v] == NONE {
            assert!(
                mm.dualvar[v].is_zero(),
                "free vertex {v} with a positive dual"
            );
        }
        let outer = blossoms_of(v);
        for w in (v + 1..n).filter(|&w| mm.edge_twice(wt, v, w).is_some()) {
            let mut slack = mm.slack(wt, arc(v, w));
            for b in blossoms_of(w).into_iter().filter(|b| outer.contains(b)) {
                slack = slack.add(mm.dualvar[b]).add(mm.dualvar[b]);
            }
            assert!(slack >= W::ZERO, "edge {v}-{w} infeasible");
            if mm.mate[v] == arc(v, w) {
                assert!(slack.is_zero(), "matched edge {v}-{w} not tight");
            }
        }
    }
    for b in (n..2 * n).filter(|&b| mm.blossombase[b] != NONE) {
        assert!(mm.dualvar[b] >= W::ZERO, "blossom dual");
        let leaves = mm.leaves_of(b);
        for &v in leaves.iter().filter(|&&v| v != mm.blossombase[b]) {
            assert!(leaves.contains(&mm.far(mm.mate[v])), "blossom {b} not full");
        }
    }
}

#[test]
fn changed_weights_and_removed_vertices_give_the_plain_optimum() {
    let mut rng = Rng::new(5);
    for case in 0..300 {
        let n = 2 + rng.below(24);
        let mut m = IncrementalMatching::<2>::new(n);
        for i in 0..n {
            for j in i + 1..n {
                // from dense to sparse graphs
                if rng.below(6) > case % 5 {
                    m.set_weight(i, j, weight(&mut rng));
                }
            }
        }
        for step in 0..12 {
            let mates = m.solve();
            assert_eq!(
                total(&m, &mates),
                plain_total(&m),
                "case {case} step {step}"
            );
            assert_certificate(&m);
            match rng.below(4) {
                // the edges of one vertex, as `dutch` fixes a decision
                0 | 1 => {
                    let x = rng.below(n);
                    for y in (0..n).filter(|&y| y != x) {
                        if rng.one_in(2) {
                            let w = m.weight(x, y).add(W::from_u64(rng.below(16) as u64));
                            m.set_weight(x, y, w);
                        } else if rng.one_in(8) {
                            m.set_weight(x, y, W::ZERO);
                        }
                    }
                }
                // many edges at once
                2 => {
                    for i in 0..n {
                        for j in i + 1..n {
                            if rng.one_in(3) {
                                m.set_weight(i, j, weight(&mut rng));
                            }
                        }
                    }
                }
                // a pair leaves the graph
                _ => {
                    let x = rng.below(n);
                    if let Some(y) = mates[x] {
                        m.remove(x);
                        m.remove(y);
                    }
                }
            }
        }
    }
}
