//! Weights in a matrix, set edge by edge: for the graphs small enough ([`matrix_fits`]), whose
//! weights are then a load instead of a computation. It costs 8·N bytes a pair of vertices and a
//! bit.

use super::Weights;
use crate::tournament::pairing::wide::{self, Wide};

/// The most bytes a graph's weights may take as a [`Matrix`]; a larger graph's weights are
/// computed where they are read, 2-3x slower. 512 MiB keeps every graph of a 5,000-player event
/// on the matrix (`bench/pairing.sh`: Dutch round 3 47 s, 329 MiB peak, and with 256 MiB its
/// first bracket is computed: 119 s, 123 MiB; Burstein round 9 21 s, 401 MiB), so a backend's
/// pairing memory is linear in the players plus at most this.
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
