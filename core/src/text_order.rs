//! Byte order of many short texts (player ids, scopes), fast. Sorting a million texts that lie
//! scattered in memory spends its time fetching them for each comparison; here each text is
//! compared by its first eight bytes, held next to it, and fetched only when two of those tie.

use std::cmp::Ordering;

/// The first eight bytes of a text as a number that orders like the bytes (shorter texts padded
/// with zeros, so a tie must be settled by the whole texts).
fn prefix(text: &str) -> u64 {
    let mut bytes = [0u8; 8];
    let n = text.len().min(8);
    bytes[..n].copy_from_slice(&text.as_bytes()[..n]);
    u64::from_be_bytes(bytes)
}

/// Texts of at most eight bytes are wholly in their prefix: a tie is settled by their lengths,
/// without fetching them.
fn by_prefix(a: &(u64, &str), b: &(u64, &str)) -> Ordering {
    a.0.cmp(&b.0).then_with(|| {
        if a.1.len() <= 8 && b.1.len() <= 8 {
            a.1.len().cmp(&b.1.len())
        } else {
            a.1.cmp(b.1)
        }
    })
}

/// The texts sorted in byte order, without repeats.
pub fn sorted_unique<'a>(texts: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
    let mut keyed: Vec<(u64, &str)> = texts.into_iter().map(|t| (prefix(t), t)).collect();
    keyed.sort_unstable_by(by_prefix);
    keyed.dedup_by(|a, b| by_prefix(a, b).is_eq());
    keyed.into_iter().map(|(_, t)| t).collect()
}

/// The rank of each text among `texts` in byte order (equal texts share a rank; ranks are dense:
/// 0, 1, 2, ...).
pub fn ranks(texts: &[&str]) -> Vec<u32> {
    let mut keyed: Vec<(u64, &str, u32)> = texts
        .iter()
        .enumerate()
        .map(|(i, t)| (prefix(t), *t, i as u32))
        .collect();
    keyed.sort_unstable_by(|a, b| by_prefix(&(a.0, a.1), &(b.0, b.1)));
    let mut ranks = vec![0u32; texts.len()];
    let mut rank = 0u32;
    for (i, k) in keyed.iter().enumerate() {
        if i > 0 && by_prefix(&(keyed[i - 1].0, keyed[i - 1].1), &(k.0, k.1)).is_ne() {
            rank += 1;
        }
        ranks[k.2 as usize] = rank;
    }
    ranks
}

/// Rows in the order of (ledger, scope, player) as `key` gives them (texts by their bytes), rows
/// of one key in their order. A sort of integers (ledger, ranks of the two texts,
/// position) keeps that order, and the rows are moved in place, not copied (a ledger's rebuild
/// holds a gigabyte of them).
pub fn in_order_of<T>(mut rows: Vec<T>, key: impl Fn(&T) -> (i32, &str, &str)) -> Vec<T> {
    let texts: Vec<&str> = rows
        .iter()
        .flat_map(|r| {
            let (_, scope, player) = key(r);
            [scope, player]
        })
        .collect();
    let rank = ranks(&texts);
    let mut order: Vec<u128> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let ledger = u128::from(key(r).0 as u32 ^ 0x8000_0000);
            ledger << 96
                | u128::from(rank[2 * i]) << 64
                | u128::from(rank[2 * i + 1]) << 32
                | i as u128
        })
        .collect();
    drop(texts);
    order.sort_unstable();
    // to[i]: where the row now at i goes. Each swap puts one row in its place.
    let mut to = vec![0u32; rows.len()];
    for (place, k) in order.iter().enumerate() {
        to[(k & 0xffff_ffff) as usize] = place as u32;
    }
    for i in 0..rows.len() {
        while to[i] as usize != i {
            let j = to[i] as usize;
            rows.swap(i, j);
            to.swap(i, j);
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;

    fn random_texts(rng: &mut Rng, n: usize) -> Vec<String> {
        (0..n)
            .map(|_| {
                let len = rng.below(14);
                // few letters, so that long common prefixes and repeats are frequent
                let mut text: String = (0..len)
                    .map(|_| rng.pick(&['a', 'b', '\0', '\u{7f}']))
                    .collect();
                if rng.one_in(5) {
                    text.push('é');
                }
                text
            })
            .collect()
    }

    #[test]
    fn sorted_unique_is_the_byte_order_without_repeats() {
        let mut rng = Rng::new(7);
        for _ in 0..200 {
            let texts = random_texts(&mut rng, 60);
            let mut expected: Vec<&str> = texts.iter().map(String::as_str).collect();
            expected.sort_unstable();
            expected.dedup();
            assert_eq!(sorted_unique(texts.iter().map(String::as_str)), expected);
        }
    }

    #[test]
    fn ranks_follow_the_byte_order() {
        let mut rng = Rng::new(11);
        for _ in 0..200 {
            let texts = random_texts(&mut rng, 60);
            let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
            let ranks = ranks(&refs);
            let unique = sorted_unique(refs.iter().copied());
            for (t, r) in refs.iter().zip(&ranks) {
                assert_eq!(unique[*r as usize], *t);
            }
        }
        assert_eq!(
            ranks(&["b", "a", "b", "abcdefghij", "abcdefgh"]),
            [3, 0, 3, 2, 1]
        );
        assert!(ranks(&[]).is_empty());
    }

    #[test]
    fn rows_in_order_of_their_key_keep_the_order_of_each_key() {
        let mut rng = Rng::new(13);
        for _ in 0..100 {
            let texts = random_texts(&mut rng, 8);
            let rows: Vec<(i32, String, String, usize)> = (0..80)
                .map(|i| {
                    let ledger = rng.pick(&[i32::MIN, -1, 0, 2, i32::MAX]);
                    let scope = texts[rng.below(texts.len())].clone();
                    (ledger, scope, texts[rng.below(texts.len())].clone(), i)
                })
                .collect();
            let mut expected = rows.clone();
            // a stable sort: rows of one key stay in their order (the last field)
            expected.sort_by(|a, b| (a.0, &a.1, &a.2).cmp(&(b.0, &b.1, &b.2)));
            let sorted = in_order_of(rows, |r| (r.0, r.1.as_str(), r.2.as_str()));
            assert_eq!(sorted, expected);
        }
        assert!(in_order_of(Vec::<(i32, String)>::new(), |r| (r.0, "", r.1.as_str())).is_empty());
    }
}
