//! Digests of a rebuild's rows (the glue's `bulk_replace::compare_stored` and `stored_sum_is`):
//! a stored row is the rebuild's when their digests are equal, so a rebuild that changes nothing
//! compares digests instead of rows.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

use crate::columns::{Cell, Named};

/// Digests of rows: a 128-bit SipHash-1-3 of each row's values (NULL or not, floats by their bits,
/// texts by their bytes and length), under a key drawn for each comparison, so that rows made to
/// collide with the digest of others cannot be written beforehand. A row's values are added in
/// its columns' order, then [`RowDigests::finish`] gives its digest.
#[derive(Clone)]
pub struct RowDigests {
    keys: (u64, u64),
    buf: Vec<u8>,
}

/// (without its key, which stays secret)
impl std::fmt::Debug for RowDigests {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RowDigests").finish_non_exhaustive()
    }
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

    /// The digest of a row of `cells` (the same as the stored row's when the values are).
    pub fn of_cells(&mut self, cells: &[Named<Cell<'_>>]) -> u128 {
        for (_, cell) in cells {
            match *cell {
                Cell::Float(None) | Cell::Int(None) | Cell::Text(None) => self.null(),
                Cell::Float(Some(x)) => self.float(x.to_bits()),
                Cell::Int(Some(x)) => self.int(x),
                Cell::Text(Some(t)) => self.text(t.as_bytes()),
                Cell::Time(t) => self.time(t),
            }
        }
        self.finish()
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

/// How the stored rows of a table compare with a rebuild's (the glue's `compare_stored`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stored {
    /// Exactly the rebuild's rows.
    Same,
    /// Some differ: the rows are compared one by one, the equal ones kept.
    Differ,
    /// Most of a sample differ (a new K): every row is written anew, none compared.
    MostDiffer,
}

/// Rows looked at after the first that differs, to tell [`Stored::Differ`] from
/// [`Stored::MostDiffer`].
pub const SAMPLE: usize = 1000;

/// A comparison of the stored rows with a rebuild's, as a scan finds them: the rows looked at,
/// those since the first that differs, and how many differ.
#[derive(Clone, Copy, Debug, Default)]
pub struct Comparison {
    seen: usize,
    after: usize,
    differ: usize,
}

impl Comparison {
    /// Notes a stored row, `found` among the rebuild's or not; whether the scan goes on: until a
    /// sample of rows after the first that differs is seen.
    pub fn note(&mut self, found: bool) -> bool {
        self.seen += 1;
        if self.differ > 0 || !found {
            self.after += 1;
            self.differ += usize::from(!found);
        }
        self.differ == 0 || self.after < SAMPLE
    }

    /// The answer once the scan ended (`all_found`: no row of the rebuild left unseen).
    pub fn answer(&self, all_found: bool) -> Stored {
        let (seen, after, differ) = (self.seen, self.after, self.differ);
        if differ == 0 && all_found {
            Stored::Same
        } else if differ * 2 > after && (after >= SAMPLE || differ * 2 > seen) {
            // (most of a full sample, or of all rows when the table ended before one)
            Stored::MostDiffer
        } else {
            Stored::Differ
        }
    }
}

/// How the stored standings compare with a rebuild's `rows` of them, whose digests are `wanted`:
/// `compare`'s answer (a scan of the stored ones), or [`Stored::Differ`] without one when the set
/// holds fewer digests than rows (two rows alike).
pub fn compare_standings(
    wanted: DigestSet,
    rows: usize,
    compare: impl FnOnce(DigestSet) -> Stored,
) -> Stored {
    if wanted.len() == rows {
        compare(wanted)
    } else {
        Stored::Differ
    }
}

/// How stored rows compare with a rebuild's `wanted` ones, from their digests in the order a
/// scan found them: what [`Comparison`] answers when the scan stops where it says.
pub fn compare_digests(stored: &[u128], mut wanted: DigestSet) -> Stored {
    let mut comparison = Comparison::default();
    for digest in stored {
        crate::interrupt::check();
        if !comparison.note(wanted.remove(digest)) {
            break;
        }
    }
    comparison.answer(wanted.is_empty())
}

/// Whether a merge of stored rows with a rebuild's `rows` that found `doomed` stored rows not the
/// rebuild's (of `scanned`, so far) had better write every row anew: most of what is seen
/// differs (a new K), so the rest need not be compared.
pub fn most_differ(doomed: usize, rows: usize, scanned: usize) -> bool {
    doomed > rows / 4 || (scanned > 10_000 && doomed > scanned / 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_digests_compare_as_a_scan_of_them_would() {
        let wanted = |range: std::ops::Range<u128>| range.collect::<DigestSet>();
        let stored: Vec<u128> = (0..3000).rev().collect();
        assert_eq!(compare_digests(&stored, wanted(0..3000)), Stored::Same);
        assert_eq!(
            compare_digests(&stored, wanted(0..3001)),
            Stored::Differ,
            "a row of the rebuild not stored"
        );
        assert_eq!(
            compare_digests(&stored[1..], wanted(0..3000)),
            Stored::Differ,
            "a row of the rebuild not stored, the first scanned"
        );
        let one_other: Vec<u128> = (0..3000)
            .map(|d| if d == 7 { 1 << 100 } else { d })
            .collect();
        assert_eq!(compare_digests(&one_other, wanted(0..3000)), Stored::Differ);
        assert_eq!(
            compare_digests(&stored, wanted(10_000..13_000)),
            Stored::MostDiffer,
            "a new K"
        );
        assert_eq!(compare_digests(&[], DigestSet::default()), Stored::Same);
        let scan = |wanted: DigestSet| compare_digests(&stored, wanted);
        assert_eq!(compare_standings(wanted(0..3000), 3000, scan), Stored::Same);
        assert_eq!(
            compare_standings(wanted(0..3000), 3001, |_| unreachable!("no scan")),
            Stored::Differ,
            "two standings rows alike, one digest for both"
        );
    }

    #[test]
    fn a_comparison_stops_after_a_sample_and_tells_most_from_some() {
        let mut same = Comparison::default();
        assert!((0..5000).all(|_| same.note(true)));
        assert_eq!(same.answer(true), Stored::Same);
        assert_eq!(
            same.answer(false),
            Stored::Differ,
            "a row of the rebuild not stored"
        );
        let mut most = Comparison::default();
        let goes_on: Vec<bool> = (0..SAMPLE + 5).map(|i| most.note(i % 3 == 0)).collect();
        assert_eq!(goes_on.iter().position(|g| !g), Some(SAMPLE));
        assert_eq!(most.answer(false), Stored::MostDiffer);
        let mut some = Comparison::default();
        assert!((0..100).all(|_| some.note(true)));
        assert!(some.note(false));
        for _ in 0..SAMPLE {
            some.note(true);
        }
        assert_eq!(some.answer(false), Stored::Differ);
        // a small table that ended before a sample: most of all its rows
        let mut small = Comparison::default();
        for found in [false, false, true] {
            small.note(found);
        }
        assert_eq!(small.answer(false), Stored::MostDiffer);
        assert!(most_differ(26, 100, 0) && !most_differ(25, 100, 0));
        assert!(most_differ(5_002, 100_000, 10_001) && !most_differ(5_002, 100_000, 10_000));
    }

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
