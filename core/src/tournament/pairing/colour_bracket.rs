//! Brackets where only colours tell the pairings apart, paired by counting instead of a
//! weighted matching.
//!
//! A bracket of one score group and at most one MDP, with no bye to settle and no next
//! scoregroup in its graph (module `dutch` passes only such brackets: the last one, and one that
//! pairs within itself, `Round::closed`), whose players may all meet one another, none with an
//! absolute colour preference, and, when its count is odd or it has an MDP, no resident with a
//! float in the last two rounds. The MDP is paired first (C.7), to the highest resident that
//! leaves the rest a pairing as good by colours as any (the order of 4.3.2); the rest is a
//! homogeneous bracket. Then the bracket's weights
//! (module `weights`) differ between its pairings (all pairs but one player when odd) only by
//! the colour criteria C.12 and C.13:
//! * C.6 and C.7 (pairs and scores paired): the same for every such pairing (one score, the MDP
//!   paired);
//! * C.8 and C.9: no next scoregroup in the bracket's graph, no bye;
//! * C.10 and C.11 need absolute preferences;
//! * C.14–C.21: every pair of residents counts its players' earlier downfloats (the sum over all
//!   pairs is the sum over all players) and makes no upfloater, so the sums are the same — with
//!   an odd count only when the player left out has no float either, and with an MDP only when
//!   its opponent has no earlier upfloat (hence: no resident has a float);
//! * C.12 and C.13 of a pair depend only on its players' kinds of preference: none, mild or
//!   strong for White, mild or strong for Black.
//!
//! The ordering rules then fix the first pairing best by C.12 and C.13: the fewest exchanges
//! (none when some pairing of S1 against S2 is as good as the best pairing of the whole
//! bracket; otherwise this module gives up and the matching decides), then S1's players in order
//! each against the highest S2 player that still leaves the rest a best pairing (the
//! transposition order). Whether the rest can still be paired as well is a transportation
//! problem between the five kinds (counts of players), solved exactly on a graph of a dozen
//! vertices; so the bracket costs O(m) time and memory beyond the check that all its pairs may
//! meet (O(m²) bit tests), instead of a matching's O(m²) memory and O(m³) time.
//! `tests::the_colour_bracket_shortcut_pairs_as_the_full_procedure` compares it with the full
//! procedure.

use super::criteria::{Entrant, Float};
use super::dutch::Context;
use crate::tournament::Colour;

/// Pairs (higher, lower) and the player left out.
type Pairs = (Vec<(usize, usize)>, Option<usize>);

/// Kinds of colour preference: none, mild White, strong White, mild Black, strong Black.
const KINDS: usize = 5;

fn kind(p: &Entrant) -> usize {
    let strong = usize::from(p.pref.strong());
    match p.pref.colour {
        None => 0,
        Some(Colour::White) => 1 + strong,
        Some(Colour::Black) => 3 + strong,
    }
}

/// The cost of a pair of kinds: C.12 (the same colour preferred) far above C.13 (both strong).
fn cost(a: usize, b: usize, big: i64) -> i64 {
    let colour = |k: usize| k.div_ceil(2); // 0 none, 1 White, 2 Black
    if a == 0 || b == 0 || colour(a) != colour(b) {
        return 0;
    }
    let both_strong = a.is_multiple_of(2) && b.is_multiple_of(2);
    big + i64::from(both_strong)
}

/// The least total cost of pairing `left` (counts by kind) against `right` (as many players or
/// one more, who is left out), by successive shortest paths on the kinds' graph.
fn transport(left: &[usize; KINDS], right: &[usize; KINDS], big: i64) -> i64 {
    // vertices: source 0, left kinds 1..=5, a dummy left vertex 6 (the one left out), right
    // kinds 7..=11, sink 12
    const V: usize = 2 * KINDS + 3;
    let (src, dummy, sink) = (0, KINDS + 1, V - 1);
    let mut cap = [[0i64; V]; V];
    let mut cst = [[0i64; V]; V];
    let extra = right.iter().sum::<usize>() - left.iter().sum::<usize>();
    for k in 0..KINDS {
        cap[src][1 + k] = left[k] as i64;
        cap[KINDS + 2 + k][sink] = right[k] as i64;
        for r in 0..KINDS {
            let (u, v) = (1 + k, KINDS + 2 + r);
            cap[u][v] = i64::MAX / 4;
            cst[u][v] = cost(k, r, big);
            cst[v][u] = -cst[u][v];
        }
        cap[dummy][KINDS + 2 + k] = i64::MAX / 4;
    }
    cap[src][dummy] = extra as i64;
    let mut total = 0;
    loop {
        // Bellman-Ford (the residual graph has negative arcs)
        let mut dist = [i64::MAX; V];
        let mut prev = [usize::MAX; V];
        dist[src] = 0;
        for _ in 0..V {
            let mut changed = false;
            for u in 0..V {
                if dist[u] == i64::MAX {
                    continue;
                }
                for v in 0..V {
                    if cap[u][v] > 0 && dist[u] + cst[u][v] < dist[v] {
                        dist[v] = dist[u] + cst[u][v];
                        prev[v] = u;
                        changed = true;
                    }
                }
            }
            if !changed {
                break;
            }
        }
        if dist[sink] == i64::MAX {
            return total;
        }
        let mut flow = i64::MAX;
        let mut v = sink;
        while v != src {
            flow = flow.min(cap[prev[v]][v]);
            v = prev[v];
        }
        let mut v = sink;
        while v != src {
            let u = prev[v];
            cap[u][v] -= flow;
            cap[v][u] += flow;
            v = u;
        }
        total += flow * dist[sink];
    }
}

/// The least cost of a pairing of the whole bracket (counts by kind; all but one player when
/// the count is odd): the players of the colour more players prefer pair the other colour and
/// those without a preference first, and the rest of them among themselves, the mild ones
/// taking the strong ones.
fn best_overall(counts: &[usize; KINDS], big: i64) -> i64 {
    let total: usize = counts.iter().sum();
    if total % 2 == 1 {
        return (0..KINDS)
            .filter(|&k| counts[k] > 0)
            .map(|k| {
                let mut c = *counts;
                c[k] -= 1;
                best_overall(&c, big)
            })
            .min()
            .unwrap_or(0);
    }
    let (white, black) = (counts[1] + counts[2], counts[3] + counts[4]);
    let (mild, strong, other) = if white >= black {
        (counts[1], counts[2], black)
    } else {
        (counts[3], counts[4], white)
    };
    let inside = (mild + strong).saturating_sub(other + counts[0]);
    if inside == 0 {
        return 0;
    }
    let mild_inside = mild.min(inside);
    let strong_pairs = (inside - mild_inside).saturating_sub(mild_inside) / 2;
    (inside / 2) as i64 * big + strong_pairs as i64
}

/// The pairs (higher, lower) of the bracket `members` (sorted indices of `ctx.players`, its
/// `mdps` MDPs first) and the player left out, when the bracket is one of this module's; `None`
/// otherwise.
pub(super) fn pair(ctx: &Context, members: &[usize], mdps: usize) -> Option<Pairs> {
    let ps = ctx.players;
    let m = members.len();
    if mdps > 1 || m < 2 + mdps {
        return None;
    }
    let residents = &members[mdps..];
    let score = ps[residents[0]].score;
    let calm = |p: &Entrant| p.float_1 == Float::None && p.float_2 == Float::None;
    // (with an MDP, who pairs a resident, the resident's floats count: nobody may have one)
    let need_calm = m % 2 == 1 || mdps > 0;
    if members.iter().any(|&i| ps[i].pref.absolute())
        || residents
            .iter()
            .any(|&i| ps[i].score != score || (need_calm && !calm(&ps[i])))
    {
        return None;
    }
    for (a, &i) in members.iter().enumerate() {
        crate::interrupt::check();
        if members[a + 1..].iter().any(|&j| !ctx.compatible(i, j)) {
            return None;
        }
    }
    let big = m as i64 + 1;
    let kinds: Vec<usize> = residents.iter().map(|&i| kind(&ps[i])).collect();
    let mut pairs = Vec::with_capacity(m / 2);
    let mut rest: Vec<usize> = (0..residents.len()).collect();
    if mdps == 1 {
        // C.7: the MDP is paired, to the highest resident that leaves the rest a pairing as
        // good by colours as any (C.04.3 4.2 and the order of 4.3.2).
        let x = kind(&ps[members[0]]);
        let mut counts = [0usize; KINDS];
        for &k in &kinds {
            counts[k] += 1;
        }
        let total = |r: usize| {
            let mut c = counts;
            c[r] -= 1;
            cost(x, r, big) + best_overall(&c, big)
        };
        let firsts: Vec<usize> = (0..KINDS)
            .filter_map(|r| kinds.iter().position(|&k| k == r))
            .collect();
        let best = firsts.iter().map(|&pos| total(kinds[pos])).min()?;
        let pos = *firsts
            .iter()
            .filter(|&&pos| total(kinds[pos]) == best)
            .min()?;
        pairs.push((members[0], residents[pos]));
        rest.remove(pos);
    }
    let (more, left_out) = homogeneous(&rest, &kinds, big)?;
    pairs.extend(more.into_iter().map(|(a, b)| (residents[a], residents[b])));
    Some((pairs, left_out.map(|a| residents[a])))
}

/// The pairing of the players `rest` (positions into `kinds`, in order) by S1 against S2 as the
/// rules order the candidates, when no exchange is needed for a best pairing by colours.
fn homogeneous(rest: &[usize], kinds: &[usize], big: i64) -> Option<Pairs> {
    let kinds: Vec<usize> = rest.iter().map(|&i| kinds[i]).collect();
    let half = rest.len() / 2;
    let mut left = [0usize; KINDS];
    let mut right = [0usize; KINDS];
    for &k in &kinds[..half] {
        left[k] += 1;
    }
    for &k in &kinds[half..] {
        right[k] += 1;
    }
    let mut all = left;
    for k in 0..KINDS {
        all[k] += right[k];
    }
    let mut best = transport(&left, &right, big);
    if best != best_overall(&all, big) {
        return None; // exchanges needed
    }
    // S2's players of each kind, in order; `next[k]`: the first one not yet paired
    let mut queues: [Vec<usize>; KINDS] = Default::default();
    for (pos, &k) in kinds.iter().enumerate().skip(half) {
        queues[k].push(pos);
    }
    let mut next = [0usize; KINDS];
    let mut pairs = Vec::with_capacity(half);
    for s1 in 0..half {
        if s1 % 256 == 0 {
            crate::interrupt::check();
        }
        let k = kinds[s1];
        left[k] -= 1;
        let mut candidates: Vec<(usize, usize)> = (0..KINDS)
            .filter(|&r| next[r] < queues[r].len())
            .map(|r| (queues[r][next[r]], r))
            .collect();
        candidates.sort_unstable();
        let (pos, r, after) = candidates.into_iter().find_map(|(pos, r)| {
            right[r] -= 1;
            let after = transport(&left, &right, big);
            right[r] += 1;
            (cost(k, r, big) + after == best).then_some((pos, r, after))
        })?;
        right[r] -= 1;
        next[r] += 1;
        best = after;
        pairs.push((rest[s1], rest[pos]));
    }
    let left_out = (0..KINDS)
        .find(|&r| next[r] < queues[r].len())
        .map(|r| rest[queues[r][next[r]]]);
    Some((pairs, left_out))
}

#[cfg(test)]
thread_local! {
    /// How many brackets took the shortcut (on this thread): the tests check that their cases do.
    pub(super) static TAKEN: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}
