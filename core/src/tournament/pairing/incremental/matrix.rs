//! The matcher with its weights in a matrix, set edge by edge: for graphs whose weights are no
//! function of a few per-vertex values (the Burstein system's brackets, the tests). It costs
//! 16·N bytes a pair of vertices.

use super::{Matcher, Weights};
use crate::tournament::pairing::wide::{self, Wide};

/// The weights, `i * n + j` and `j * n + i` for edge {i, j}.
pub(super) struct Matrix<const N: usize> {
    n: usize,
    w: Vec<Wide<N>>,
}

impl<const N: usize> Weights<N> for Matrix<N> {
    #[inline]
    fn weight(&self, i: usize, j: usize) -> Wide<N> {
        self.w[i * self.n + j]
    }
}

/// A maximum-weight matching kept up to date while edge weights change, set one at a time.
pub struct IncrementalMatching<const N: usize> {
    pub(super) weights: Matrix<N>,
    pub(super) matcher: Matcher<N>,
}

impl<const N: usize> IncrementalMatching<N> {
    /// A graph of `n` vertices and no edges.
    pub fn new(n: usize) -> Self {
        IncrementalMatching {
            weights: Matrix {
                n,
                w: wide::zeros(n * n),
            },
            // (its weights are loads already: no rows cached)
            matcher: Matcher::with_cache(n, 0),
        }
    }

    /// The weight of edge {i, j} (zero: none).
    #[cfg(test)]
    pub fn weight(&self, i: usize, j: usize) -> Wide<N> {
        self.weights.weight(i, j)
    }

    /// Sets the weight of edge {i, j}; a weight that is not positive removes the edge.
    pub fn set_weight(&mut self, i: usize, j: usize, w: Wide<N>) {
        debug_assert_ne!(i, j, "no loops");
        let n = self.weights.n;
        if self.weights.w[i * n + j] != w {
            self.weights.w[i * n + j] = w;
            self.weights.w[j * n + i] = w;
            self.matcher.changed_edge(i, j);
        }
    }

    /// Removes vertex v and its edges from the graph.
    pub fn remove(&mut self, v: usize) {
        self.matcher.remove(v);
    }

    /// The mate of every vertex in a maximum-weight matching of the current graph.
    pub fn solve(&mut self) -> Vec<Option<usize>> {
        self.matcher.solve(&self.weights)
    }
}
