//! A fixed-width two's-complement integer of `N` 64-bit limbs: the edge weights of the pairing
//! graph pack one field per quality criterion (C.04.3 article 4), which needs far more than 128
//! bits in a large tournament.

use std::cmp::Ordering;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Wide<const N: usize>([u64; N]);

impl<const N: usize> Wide<N> {
    pub const ZERO: Self = Wide([0; N]);

    pub fn from_u64(v: u64) -> Self {
        let mut w = Self::ZERO;
        w.0[0] = v;
        w
    }

    pub fn is_zero(&self) -> bool {
        self.0.iter().all(|&l| l == 0)
    }

    fn is_negative(&self) -> bool {
        self.0[N - 1] >> 63 == 1
    }

    #[inline]
    pub fn add(self, other: Self) -> Self {
        let mut out = Self::ZERO;
        let mut carry = false;
        for i in 0..N {
            let (s, c1) = self.0[i].overflowing_add(other.0[i]);
            let (s, c2) = s.overflowing_add(u64::from(carry));
            out.0[i] = s;
            carry = c1 || c2;
        }
        out
    }

    #[inline]
    pub fn sub(self, other: Self) -> Self {
        let mut out = Self::ZERO;
        let mut borrow = false;
        for i in 0..N {
            let (s, b1) = self.0[i].overflowing_sub(other.0[i]);
            let (s, b2) = s.overflowing_sub(u64::from(borrow));
            out.0[i] = s;
            borrow = b1 || b2;
        }
        out
    }

    /// Arithmetic shift right by one bit (halving, rounding down).
    pub fn half(self) -> Self {
        let mut out = Self::ZERO;
        let sign = if self.is_negative() { 1u64 << 63 } else { 0 };
        for i in 0..N {
            let high = if i + 1 < N { self.0[i + 1] << 63 } else { sign };
            out.0[i] = (self.0[i] >> 1) | high;
        }
        out
    }

    /// Shift left by `bits` (bits shifted out of the top are lost).
    pub fn shl(self, bits: u32) -> Self {
        let limbs = (bits / 64) as usize;
        let rest = bits % 64;
        let mut out = Self::ZERO;
        for i in (limbs..N).rev() {
            let src = i - limbs;
            let mut v = self.0[src] << rest;
            if rest > 0 && src > 0 {
                v |= self.0[src - 1] >> (64 - rest);
            }
            out.0[i] = v;
        }
        out
    }

    /// `2^bit`.
    pub fn bit(bit: u32) -> Self {
        Self::from_u64(1).shl(bit)
    }

    /// Appends a field: `self << bits | value`.
    pub fn push(self, bits: u32, value: u64) -> Self {
        self.shl(bits).add(Self::from_u64(value))
    }
}

impl<const N: usize> Ord for Wide<N> {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self.is_negative(), other.is_negative()) {
            (true, false) => return Ordering::Less,
            (false, true) => return Ordering::Greater,
            _ => {}
        }
        for i in (0..N).rev() {
            match self.0[i].cmp(&other.0[i]) {
                Ordering::Equal => continue,
                o => return o,
            }
        }
        Ordering::Equal
    }
}

impl<const N: usize> PartialOrd for Wide<N> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// `len` zero weights, filled a chunk at a time with interrupt checks between chunks: a
/// bracket's matrices hold millions of them (100 MB and more for a few thousand players), too
/// long to write without a check.
pub(super) fn zeros<const N: usize>(len: usize) -> Vec<Wide<N>> {
    // (1 << 16 of 8·N bytes each: a few milliseconds of page faults at most between checks)
    const CHUNK: usize = 1 << 16;
    let mut v = Vec::with_capacity(len);
    while v.len() < len {
        crate::interrupt::check();
        let more = CHUNK.min(len - v.len());
        v.resize(v.len() + more, Wide::ZERO);
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_carries_across_limbs() {
        let a = Wide::<2>::from_u64(u64::MAX);
        let b = a.add(Wide::from_u64(1));
        assert_eq!(b, Wide::bit(64));
        assert_eq!(b.sub(Wide::from_u64(1)), a);
        assert_eq!(Wide::<2>::bit(65).half(), Wide::bit(64));
        let neg = Wide::<2>::ZERO.sub(Wide::from_u64(4));
        assert!(neg < Wide::ZERO);
        assert_eq!(neg.half(), Wide::ZERO.sub(Wide::from_u64(2)));
        assert!(Wide::<2>::bit(100) > Wide::bit(99).add(Wide::from_u64(5)));
        assert_eq!(
            Wide::<2>::from_u64(3).push(70, 1),
            Wide::bit(71).add(Wide::bit(70)).add(Wide::from_u64(1))
        );
    }
}
