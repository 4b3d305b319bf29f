//! Rounds whose pairing the rules make plain, paired without a weighted matching.
//!
//! When every player to pair has the same pairing score, the round is one homogeneous bracket
//! (C.04.3 article 2) and the Dutch system's candidates are generated from the natural pairing:
//! S1 = the first ⌊m/2⌋ players, S2 the others, S1[i] against S2[i] (4.2, 4.3), and with an odd
//! count the last player of S2 left for the pairing-allocated bye. The rules take the first
//! candidate (in the order of transpositions and exchanges) that satisfies the quality criteria
//! best (article 4, C.1–C.21). So the natural pairing is the answer whenever it satisfies every
//! criterion as well as any pairing can:
//! * it meets the absolute criteria (article 3): no pair may not meet, and the bye assignee may
//!   get the bye — then C.1–C.4 hold;
//! * with one score, C.5–C.8 (the bye's score, the pairs and scores paired in the bracket and
//!   the next) are the same for every complete pairing;
//! * C.9 (the bye assignee's unplayed games): every player has played as many games;
//! * C.10–C.13 (colours): no pair has two players with the same colour preference, so no
//!   preference goes ungranted (the criteria only count pairs of equal preferences);
//! * C.14–C.21 (floats): in one score group a pair makes no upfloater or downfloater; with an odd
//!   count the bye assignee is a downfloater, so every player must have had no float in the last
//!   two rounds (else C.14–C.21 could prefer another assignee).
//!
//! Round 1 is the common case (one score, no history, everyone may meet everyone): it costs
//! O(m) here instead of a matching on the complete graph (O(m²) memory, O(m³) time). The
//! tests compare this with the full procedure on random rounds where it applies.

use super::criteria::{Entrant, Float};
use super::dutch::Paired;

/// The pairing of `players` (by score, then pairing number) when the rules make it plain, as
/// indices; `compatible(i, j)`: i and j may meet (article 3).
pub(super) fn plain_pairing(
    players: &[Entrant],
    compatible: impl Fn(usize, usize) -> bool,
) -> Option<Paired> {
    let m = players.len();
    let first = players.first()?;
    if players.iter().any(|p| p.score != first.score) {
        return None;
    }
    let half = m / 2;
    let odd = m % 2 == 1;
    if odd {
        let calm = |p: &Entrant| p.float_1 == Float::None && p.float_2 == Float::None;
        let same_games = players.iter().all(|p| p.played_games == first.played_games);
        if !same_games || !players.iter().all(calm) || !players[m - 1].bye_eligible {
            return None;
        }
    }
    let mut pairs = Vec::with_capacity(half);
    for i in 0..half {
        if i % 1024 == 0 {
            crate::interrupt::check();
        }
        let j = half + i;
        let (a, b) = (&players[i].pref, &players[j].pref);
        if !compatible(i, j) || (a.colour.is_some() && a.colour == b.colour) {
            return None;
        }
        pairs.push((i, j));
    }
    #[cfg(test)]
    TAKEN.with(|c| c.set(c.get() + 1));
    Some(Paired {
        pairs,
        bye: odd.then_some(m - 1),
    })
}

#[cfg(test)]
thread_local! {
    /// How many rounds took the shortcut (on this thread): the tests check that their cases do.
    pub(super) static TAKEN: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}
