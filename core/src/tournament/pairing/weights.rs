//! The edge weights of the pairing graph: one field per quality criterion of C.04.3 article 4,
//! most important first, and low-order room for the ordering rules (see module `dutch`).

use std::collections::HashMap;

use super::criteria::{ColourPreference, Entrant, Float};
use super::dutch::Context;
use super::wide::Wide;

/// Bits needed to hold `v`.
pub(super) fn bits(v: usize) -> u32 {
    usize::BITS - v.leading_zeros()
}

/// The fields of the weights of one bracket: their widths and where each score's field starts.
pub(super) struct Layout {
    /// Width of a counting field (enough for sums over the pairs of the bracket).
    pub(super) count: u32,
    /// Width of the C.9 field (sums of ranks over all players).
    pub(super) unplayed: u32,
    /// Width of the top field (completion, summed over all pairs).
    pub(super) top: u32,
    /// Width of the lowest field: a bias towards the transposition order (S1 players with the
    /// highest S2 players) so that most of its steps need no new matching.
    pub(super) bias: u32,
    /// Width of a per-score field group, and each score's offset in it.
    pub(super) scores: u32,
    pub(super) score_at: HashMap<i32, u32>,
}

impl Layout {
    pub(super) fn new(n: usize, bracket_scores: &[i32]) -> Layout {
        let mut counts: Vec<(i32, usize)> = Vec::new();
        for &s in bracket_scores {
            match counts.iter_mut().find(|(x, _)| *x == s) {
                Some(c) => c.1 += 1,
                None => counts.push((s, 1)),
            }
        }
        // Lower scores in lower bits, so that pairing a higher score weighs more.
        counts.sort_unstable();
        let mut score_at = HashMap::new();
        let mut scores = 0;
        for (s, c) in counts {
            score_at.insert(s, scores);
            // A group's sums count each of its players at most once.
            scores += bits(c);
        }
        Layout {
            count: bits(bracket_scores.len()),
            unplayed: 2 * bits(n) + 2,
            top: bits(3 * n) + 2,
            bias: 3 * bits(bracket_scores.len()) + 1,
            scores,
            score_at,
        }
    }

    pub(super) fn score_bit<const N: usize>(&self, score: i32) -> Wide<N> {
        self.score_at
            .get(&score)
            .map_or(Wide::ZERO, |&b| Wide::bit(b))
    }

    /// Where the top field (completion) starts: the widths of all the fields below it, as
    /// [`edge_weight`] lays them out.
    pub(super) fn top_shift(&self, rounds: u32) -> u32 {
        let floats = rounds.min(2);
        2 * self.count
            + 2 * self.scores
            + self.unplayed
            + 4 * self.count
            + floats * 2 * self.count
            + floats * 2 * self.scores
            + 3 * self.count
            + 1
            + self.bias
    }

    /// `v` units of the ordering fields (above the bias field).
    pub(super) fn unit<const N: usize>(&self, v: u64) -> Wide<N> {
        Wide::from_u64(v).shl(self.bias)
    }

    /// Total bits of a weight with this layout, with headroom for the sums of the matching
    /// (doubled weights, a sign bit).
    pub(super) fn total_bits(&self) -> u32 {
        self.top + 13 * self.count + 1 + self.bias + self.unplayed + 6 * self.scores + 3
    }
}

/// The state shared by the brackets of one round: the bye assignee's score and the rule C.9
/// data (2.4 of C.04.3: the bye goes to the lowest bracket possible).
pub(super) struct ByeInfo {
    /// Score of the player who will get the bye (`None` when the count is even).
    pub(super) score: Option<i32>,
    /// Whether C.9 applies to this bracket, and the value it had when the round started (the
    /// weight of the edges outside the bracket keeps it).
    pub(super) single_downfloater: bool,
    pub(super) start_single_downfloater: bool,
    /// Rank of each number of played games among the bye assignee's scoregroup (more games,
    /// lower rank): pairing high ranks leaves the bye to the player with most games (C.9).
    pub(super) unplayed_rank: HashMap<u32, u64>,
}

impl ByeInfo {
    pub(super) fn candidate(&self, p: &Entrant) -> bool {
        p.bye_eligible && self.score.is_some_and(|s| p.score <= s)
    }
}

#[derive(Clone, Copy)]
pub(super) struct Flags {
    /// Include the top field (completion); bracket weights leave it out, see `Round::solve`.
    pub(super) with_top: bool,
    pub(super) in_current: bool,
    pub(super) in_next: bool,
    pub(super) single_downfloater: bool,
}

/// What [`pair_weight`] reads of a player, and whether it belongs to the next scoregroup of a
/// bracket (the pair's flags): players alike in these have the same weights with everyone.
pub(super) type ClassKey = (i32, ColourPreference, Float, Float, bool, u32, bool);

pub(super) fn class_key(p: &Entrant, next: bool) -> ClassKey {
    (
        p.score,
        p.pref,
        p.float_1,
        p.float_2,
        p.bye_eligible,
        p.played_games,
        next,
    )
}

/// The weight of two players who may meet, h first in the sorted order, from their data alone
/// (see [`class_key`]).
pub(super) fn pair_weight<const N: usize>(
    ctx: &Context,
    layout: &Layout,
    bye: &ByeInfo,
    h: &Entrant,
    l: &Entrant,
    f: &Flags,
) -> Wide<N> {
    let cb = layout.count;
    let cur = f.in_current;
    // C.4/C.5: all players paired, the unpaired one eligible for the bye and of the lowest
    // possible score.
    let top = 1 + u64::from(!bye.candidate(h)) + u64::from(!bye.candidate(l));
    let mut w = Wide::<N>::from_u64(if f.with_top { top } else { 0 });
    // C.6, C.7: pairs, then scores paired, in the current bracket.
    w = w.push(cb, u64::from(cur)).shl(layout.scores);
    if cur {
        w = w.add(layout.score_bit(h.score));
    }
    // C.8: the same in the next bracket.
    w = w.push(cb, u64::from(f.in_next)).shl(layout.scores);
    if f.in_next {
        w = w.add(layout.score_bit(h.score));
    }
    // C.9: the bye assignee has the fewest unplayed games.
    w = w.shl(layout.unplayed);
    if f.single_downfloater {
        for p in [h, l] {
            if Some(p.score) == bye.score {
                w = w.add(Wide::from_u64(
                    *bye.unplayed_rank.get(&p.played_games).unwrap_or(&0),
                ));
            }
        }
    }
    // C.10–C.13: colours (lo first, as the higher player's preference yields in 5.2.4).
    let (a, b) = (&l.pref, &h.pref);
    let same = a.colour.is_some() && a.colour == b.colour;
    let c10 = !(a.absolute_imbalance() && b.absolute_imbalance() && same);
    let c11 = !(a.absolute() && b.absolute() && same)
        || if a.imbalance == b.imbalance {
            a.repeated.is_none() || a.repeated != b.repeated
        } else {
            let yielding = if a.imbalance > b.imbalance { b } else { a };
            yielding.repeated != a.colour.map(|c| c.opposite())
        };
    let c12 = !same;
    let c13 = !((a.strong() || a.absolute())
        && (b.strong() || b.absolute())
        && !(a.absolute() && b.absolute())
        && same);
    for c in [c10, c11, c12, c13] {
        w = w.push(cb, u64::from(cur && c));
    }
    let rounds = ctx.played_rounds;
    let float = |p: &Entrant, back: u32| if back == 1 { p.float_1 } else { p.float_2 };
    // C.14–C.17: no repeated floats of the last two rounds.
    for back in [1, 2] {
        if rounds >= back {
            let down = u64::from(float(l, back) == Float::Down)
                + u64::from(h.score <= l.score && float(h, back) == Float::Down);
            let up = !(h.score > l.score && float(l, back) == Float::Up);
            w = w.push(cb, if cur { down } else { 0 });
            w = w.push(cb, u64::from(cur && up));
        }
    }
    // C.18–C.21: the same weighted by the scores involved.
    for back in [1, 2] {
        if rounds >= back {
            w = w.shl(layout.scores);
            if cur {
                if float(l, back) == Float::Down {
                    w = w.add(layout.score_bit(l.score));
                }
                if float(h, back) == Float::Down {
                    w = w.add(layout.score_bit(h.score));
                }
            }
            w = w.shl(layout.scores);
            if cur && !(float(l, back) == Float::Up && h.score > l.score) {
                w = w.add(layout.score_bit(h.score));
            }
        }
    }
    // Room for the ordering rules and the bias.
    w.shl(3 * cb + 1 + layout.bias)
}

/// The weights of a set of players' pairs by classes of alike players (see [`class_key`]): a
/// table of c² weights for c classes, built only when c² is at most a few times the number of
/// players (memory stays linear; a bracket has few classes, as few as its scores, colour
/// preferences and floats allow). The weight of a pair is then its compatibility and a lookup,
/// instead of assembling a wide number field by field in the matcher's inner loop.
pub(super) struct PairTable<const N: usize> {
    /// Per member: its class.
    class: Vec<u32>,
    classes: usize,
    /// `table[ci * classes + cj]`: the weight of a member of class ci with a later one of
    /// class cj; empty when there are too many classes.
    table: Vec<Wide<N>>,
}

impl<const N: usize> PairTable<N> {
    /// The table of `members` (player indices, in order); `flags(later member is in the next
    /// scoregroup)` gives a pair's flags, `next(k)` whether member k is.
    pub(super) fn new(
        ctx: &Context,
        layout: &Layout,
        bye: &ByeInfo,
        members: impl Iterator<Item = usize> + Clone,
        next: impl Fn(usize) -> bool,
        flags: impl Fn(bool) -> Flags,
    ) -> Self {
        let mut ids: HashMap<ClassKey, u32> = HashMap::new();
        let mut reps: Vec<(usize, bool)> = Vec::new();
        let mut class = Vec::new();
        for (k, p) in members.enumerate() {
            let nx = next(k);
            let key = class_key(&ctx.players[p], nx);
            let id = *ids.entry(key).or_insert_with(|| {
                reps.push((p, nx));
                (reps.len() - 1) as u32
            });
            class.push(id);
        }
        let c = reps.len();
        let mut table = Vec::new();
        if c * c <= 8 * class.len() + 4096 {
            table.reserve_exact(c * c);
            for &(hi, _) in &reps {
                crate::interrupt::check();
                for &(lo, lo_next) in &reps {
                    let (h, l) = (&ctx.players[hi], &ctx.players[lo]);
                    table.push(if ctx.colours_allow(hi, lo) {
                        pair_weight(ctx, layout, bye, h, l, &flags(lo_next))
                    } else {
                        Wide::ZERO
                    });
                }
            }
        }
        PairTable {
            class,
            classes: c,
            table,
        }
    }

    /// Member k's class.
    pub(super) fn class(&self, k: usize) -> u32 {
        self.class[k]
    }

    /// The weight of a member of class ci with a later one of class cj who were not barred
    /// from meeting (zero: the colours keep them apart), if the table has it.
    #[inline]
    pub(super) fn get(&self, ci: u32, cj: u32) -> Option<Wide<N>> {
        if self.table.is_empty() {
            return None;
        }
        Some(self.table[ci as usize * self.classes + cj as usize])
    }

    /// The weight of members i < j who were not barred from meeting, if the table has it.
    #[inline]
    pub(super) fn get_members(&self, i: usize, j: usize) -> Option<Wide<N>> {
        self.get(self.class[i], self.class[j])
    }
}
