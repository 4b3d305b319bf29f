//! Weights in a matrix, set edge by edge: for the Dutch brackets small enough ([`matrix_fits`]),
//! whose weights are then a load instead of a computation, and the tests. It costs 8·N bytes a
//! pair of vertices and a bit.

use super::Weights;
use crate::tournament::pairing::wide::{self, Wide};

/// The most bytes a Dutch bracket's weights may take as a [`Matrix`]; a larger bracket's weights
/// are computed where they are read, 2-3x slower. 512 MiB keeps every bracket of a 5,000-player
/// event on the matrix (round 3 of `bench/pairing.sh`: 47 s, 329 MiB peak; with 256 MiB its first
/// bracket is computed: 119 s, 123 MiB), so a backend's pairing memory is linear in the players
/// plus at most this.
const MATRIX_BYTES: usize = 512 << 20;

#[cfg(test)]
thread_local! {
    /// `MATRIX_BYTES` in this thread: the tests pair with computed weights too.
    pub static MATRIX_LIMIT: std::cell::Cell<usize> = const { std::cell::Cell::new(MATRIX_BYTES) };
}

/// Whether the weights of a graph of `n` vertices fit in a [`Matrix`] (`MATRIX_BYTES`).
pub fn matrix_fits<const N: usize>(n: usize) -> bool {
    #[cfg(test)]
    let limit = MATRIX_LIMIT.with(|c| c.get());
    #[cfg(not(test))]
    let limit = MATRIX_BYTES;
    n.checked_mul(n * std::mem::size_of::<Wide<N>>())
        .is_some_and(|bytes| bytes <= limit)
}

/// The weights, `i * n + j` and `j * n + i` for edge {i, j}, and their [`EdgeBits`].
pub struct Matrix<const N: usize> {
    n: usize,
    w: Vec<Wide<N>>,
    edge: EdgeBits,
}

impl<const N: usize> Matrix<N> {
    /// A matrix of `n` vertices and no edges.
    pub fn new(n: usize) -> Self {
        Matrix {
            n,
            w: wide::zeros(n * n),
            edge: EdgeBits::new(n),
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
        self.edge.set(i, j, w > Wide::ZERO);
        true
    }
}

/// A bit per pair of vertices, both ways: whether their edge's weight is positive. A scan skips
/// the non-edges without loading or computing their weights (a bracket's colours and ordering
/// rules leave many, the Burstein procedure's scoregroups most). n²/8 bytes.
pub struct EdgeBits {
    words: usize,
    bits: Vec<u64>,
}

impl EdgeBits {
    /// No edges among `n` vertices.
    pub fn new(n: usize) -> Self {
        let words = n.div_ceil(64);
        EdgeBits {
            words,
            bits: vec![0; n * words],
        }
    }

    /// Notes whether edge {i, j} is `positive`.
    pub fn set(&mut self, i: usize, j: usize, positive: bool) {
        for (x, y) in [(i, j), (j, i)] {
            let word = &mut self.bits[x * self.words + y / 64];
            if positive {
                *word |= 1 << (y % 64);
            } else {
                *word &= !(1 << (y % 64));
            }
        }
    }

    /// Vertex i's bits ([`Weights::edges`]).
    #[inline]
    pub fn row(&self, i: usize) -> &[u64] {
        &self.bits[i * self.words..(i + 1) * self.words]
    }
}

impl<const N: usize> Weights<N> for Matrix<N> {
    #[inline]
    fn weight(&self, i: usize, j: usize) -> Wide<N> {
        self.get(i, j)
    }

    #[inline]
    fn edges(&self, i: usize) -> Option<&[u64]> {
        Some(self.edge.row(i))
    }
}
