//! The matcher with its weights in a matrix, set edge by edge: for graphs whose weights are no
//! function of a few per-vertex values (the Burstein system's brackets, the tests), and for the
//! Dutch brackets whose matrix is small enough. It costs 8·N bytes a pair of vertices and a bit.

use super::{Matcher, Weights};
use crate::tournament::pairing::wide::{self, Wide};

/// The weights, `i * n + j` and `j * n + i` for edge {i, j}, and a bit per entry: whether the
/// weight is positive (a scan skips the non-edges without loading their wide weights; a
/// bracket's colours and ordering rules leave many).
pub struct Matrix<const N: usize> {
    n: usize,
    w: Vec<Wide<N>>,
    words: usize,
    edge: Vec<u64>,
}

impl<const N: usize> Matrix<N> {
    /// A matrix of `n` vertices and no edges.
    pub fn new(n: usize) -> Self {
        let words = n.div_ceil(64);
        Matrix {
            n,
            w: wide::zeros(n * n),
            words,
            edge: vec![0; n * words],
        }
    }

    /// The weight of edge {i, j} (zero: none).
    #[inline]
    pub fn get(&self, i: usize, j: usize) -> Wide<N> {
        self.w[i * self.n + j]
    }

    /// Sets the weight of edge {i, j}; whether it changed.
    pub fn set(&mut self, i: usize, j: usize, w: Wide<N>) -> bool {
        let n = self.n;
        if self.w[i * n + j] == w {
            return false;
        }
        self.w[i * n + j] = w;
        self.w[j * n + i] = w;
        let positive = w > Wide::ZERO;
        for (x, y) in [(i, j), (j, i)] {
            let word = &mut self.edge[x * self.words + y / 64];
            if positive {
                *word |= 1 << (y % 64);
            } else {
                *word &= !(1 << (y % 64));
            }
        }
        true
    }
}

impl<const N: usize> Weights<N> for Matrix<N> {
    #[inline]
    fn weight(&self, i: usize, j: usize) -> Wide<N> {
        self.get(i, j)
    }

    #[inline]
    fn edges(&self, i: usize) -> Option<&[u64]> {
        Some(&self.edge[i * self.words..(i + 1) * self.words])
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
            weights: Matrix::new(n),
            // (its weights are loads already: no rows cached)
            matcher: Matcher::with_cache(n, 0),
        }
    }

    /// The weight of edge {i, j} (zero: none).
    pub fn weight(&self, i: usize, j: usize) -> Wide<N> {
        self.weights.weight(i, j)
    }

    /// Sets the weight of edge {i, j}; a weight that is not positive removes the edge.
    pub fn set_weight(&mut self, i: usize, j: usize, w: Wide<N>) {
        debug_assert_ne!(i, j, "no loops");
        if self.weights.set(i, j, w) {
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
