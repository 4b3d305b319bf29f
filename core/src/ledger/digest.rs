//! Digests of a rebuild's rows (the glue's `bulk_replace::compare_stored` and `stored_sum_is`):
//! a stored row is the rebuild's when their digests are equal, so a rebuild that changes nothing
//! compares digests instead of rows.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

/// Digests of rows: a 128-bit SipHash-1-3 of each row's values (NULL or not, floats by their bits,
/// texts by their bytes and length), under a key drawn for each comparison, so that rows made to
/// collide with the digest of others cannot be written beforehand. A row's values are added in
/// its columns' order, then [`RowDigests::finish`] gives its digest.
pub struct RowDigests {
    keys: (u64, u64),
    buf: Vec<u8>,
}

impl Default for RowDigests {
    fn default() -> Self {
        Self::new()
    }
}

impl RowDigests {
    pub fn new() -> Self {
        use std::hash::BuildHasher;
        // (RandomState's keys are drawn from the system's random source)
        let draw = |n: u8| std::collections::hash_map::RandomState::new().hash_one(n);
        RowDigests {
            keys: (draw(0), draw(1)),
            buf: Vec::with_capacity(512),
        }
    }

    /// The digest of the row's values added so far; the next values begin a new row.
    pub fn finish(&mut self) -> u128 {
        use siphasher::sip128::Hasher128;
        let mut h = siphasher::sip128::SipHasher13::new_with_keys(self.keys.0, self.keys.1);
        h.write(&self.buf);
        self.buf.clear();
        h.finish128().as_u128()
    }

    pub fn null(&mut self) {
        self.buf.push(0);
    }

    fn value(&mut self, bytes: &[u8]) {
        self.buf.push(1);
        self.buf.extend_from_slice(bytes);
    }

    /// A float8 by its bits.
    pub fn float(&mut self, bits: u64) {
        self.value(&bits.to_le_bytes());
    }

    pub fn int(&mut self, x: i32) {
        self.value(&x.to_le_bytes());
    }

    /// A timestamp (microseconds).
    pub fn time(&mut self, micros: i64) {
        self.value(&micros.to_le_bytes());
    }

    /// A text: its length first, so that ("ab", "c") and ("a", "bc") differ.
    pub fn text(&mut self, text: &[u8]) {
        self.value(&(text.len() as u64).to_le_bytes());
        self.buf.extend_from_slice(text);
    }
}

/// Row digests, hashed by themselves (they are already uniform).
pub type DigestSet = HashSet<u128, BuildHasherDefault<Folded>>;

/// The hasher of [`DigestSet`]: a digest's low 64 bits.
#[derive(Default)]
pub struct Folded(u64);

impl Hasher for Folded {
    fn write(&mut self, bytes: &[u8]) {
        // (only digests are hashed here, by write_u128; anything else is folded in)
        for b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(*b);
        }
    }

    fn write_u128(&mut self, digest: u128) {
        self.0 = digest as u64;
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// An order-free digest of many different rows: their count and the sum (mod 2^128) of their
/// [`RowDigests`]. Each digest is a pseudo-random function of its row under a key no one else
/// knows, so two sets of rows of one count and one sum are the same rows but for a chance of
/// 2^-128, as with a set of the digests, without the memory of a set (two million rows).
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct DigestSum {
    rows: usize,
    sum: u128,
}

impl DigestSum {
    pub fn add(&mut self, digest: u128) {
        self.rows += 1;
        self.sum = self.sum.wrapping_add(digest);
    }

    /// The number of rows added.
    pub fn rows(&self) -> usize {
        self.rows
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(d: &mut RowDigests, values: (Option<f64>, i32, &str, &str, i64)) -> u128 {
        match values.0 {
            Some(x) => d.float(x.to_bits()),
            None => d.null(),
        }
        d.int(values.1);
        d.text(values.2.as_bytes());
        d.text(values.3.as_bytes());
        d.time(values.4);
        d.finish()
    }

    #[test]
    fn equal_rows_have_equal_digests_and_different_rows_different_ones() {
        let mut d = RowDigests::new();
        let base = (Some(1500.0), 3, "ab", "c", 7);
        let digest = row(&mut d, base);
        assert_eq!(row(&mut d, base), digest, "finish starts a new row");
        for other in [
            (None, 3, "ab", "c", 7),
            (Some(0.0), 3, "ab", "c", 7),
            (Some(1500.0), 4, "ab", "c", 7),
            (Some(1500.0), 3, "a", "bc", 7),
            (Some(1500.0), 3, "ab", "c", 8),
        ] {
            assert_ne!(row(&mut d, other), digest, "{other:?}");
        }
        // -0.0 and 0.0 are different bits: a rebuild writes the bits it computed
        assert_ne!(
            row(&mut d, (Some(-0.0), 0, "", "", 0)),
            row(&mut d, (Some(0.0), 0, "", "", 0))
        );
        // another comparison draws another key
        assert_ne!(row(&mut RowDigests::new(), base), digest);
    }

    #[test]
    fn a_sum_of_digests_is_free_of_order_and_a_set_hashes_digests_by_their_low_bits() {
        let (mut a, mut b) = (DigestSum::default(), DigestSum::default());
        for x in [u128::MAX, 5, 1 << 100] {
            a.add(x);
        }
        for x in [1 << 100, u128::MAX, 5] {
            b.add(x);
        }
        assert_eq!(a, b);
        assert_eq!(a.rows(), 3);
        b.add(0);
        assert_ne!(a, b, "one more row, the same sum");

        let mut h = Folded::default();
        h.write_u128((7 << 64) | 42);
        assert_eq!(h.finish(), 42);
        let set: DigestSet = [1u128, 2, 1 << 64].into_iter().collect();
        assert!(set.contains(&(1 << 64)) && !set.contains(&3));
    }
}
