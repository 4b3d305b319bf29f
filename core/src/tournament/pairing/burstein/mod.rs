//! The Burstein system (FIDE Handbook C.04.4.2) as bbpPairings v6.0.0 reads it: its README calls
//! it "a flawed implementation of a previous version", "not endorsed by FIDE" (an edition older
//! than the one in force since July 2025).
//! Where the rules leave a choice, the engine does what bbpPairings does, so that both give the
//! same pairings.
//!
//! * Scoregroups by pairing score. Without explicit virtual points the first two rounds are
//!   accelerated as the rules ask: the upper half of the players who took part in the pairing of
//!   round 1 (by starting rank, ⌊n/2⌋ of them) get one virtual point in rounds 1 and 2.
//! * The index orders the players of a bracket (incoming floaters included): Sonneborn-Berger,
//!   then Buchholz, then Median (Buchholz without the best and the worst), then the rating rank.
//!   Unplayed games count as draws for the opponents' scores; an unplayed round of the player
//!   counts against a virtual opponent (FIDE's tie-break rule for unplayed games). Players of
//!   different scores compare Buchholz and Median multiplied by their score.
//! * First, scoregroups are fixed from the top: a scoregroup is paired within itself (with at
//!   most one floater in from above and one out below) when the players below can still be
//!   paired; otherwise it merges with the next one. Then, bracket by bracket in index order, the
//!   highest unpaired player meets the lowest player that keeps the rest pairable with as many
//!   pairs within the bracket and as many granted due colours as possible.
//! * No rematch of a game played over the board, no forbidden pair, no two players with the same
//!   absolute colour preference (no topscorer exception). The bye goes to the lowest player
//!   (score, then index) who has not had a pairing-allocated bye or a forfeit win.
//! * Colours by C.04.1/C.04.2 as in the Dutch system (module `colours`); when they do not decide,
//!   the player with the higher index gets the preferred colour.
//!
//! Each decision is a maximum-weight matching of the players still to pair (module
//! `incremental`): every edge packs, most important first, that the two may meet, that they are
//! in the same bracket, that their due colours differ, and a small priority for the lowest
//! opponent of the player being paired.

use std::borrow::Cow;
use std::cmp::Ordering;

use super::acceleration::{baku_table, Acceleration};
use super::colours::by_preferences;
use super::criteria::{entrant, score_after, Entrant};
use super::wide::Wide;
use super::{
    board_order, forbidden_set, may_meet, opponents_met, paired_entry, Pairing, PairingError,
    PairingErrorKind, PairingOptions,
};
use crate::tournament::{ByeKind, PlayerNo, RoundEntry, Tournament};
use graph::{Graph, Same};

mod graph;

/// Half points of a draw (the unit the index counts unplayed games in).
const DRAW: i64 = 1;
/// Half points of a win.
const WIN: i64 = 2;

/// The Burstein acceleration bbpPairings applies when no virtual points are given: in rounds 1
/// and 2, one point (2 half points) to each of the first ⌊n/2⌋ by starting rank of the `n`
/// players who took part in the pairing of round 1 (a player who did not, ranked among them, gets
/// it too but does not count). `took_part_in_round_1(p)`.
pub(super) fn default_acceleration(
    players: usize,
    took_part_in_round_1: &dyn Fn(PlayerNo) -> bool,
) -> Vec<Vec<i32>> {
    let mut table = vec![Vec::new(); players];
    let mut bound = (0..players as PlayerNo)
        .filter(|&p| took_part_in_round_1(p))
        .count();
    if bound <= 1 {
        return table;
    }
    for p in 0..players as PlayerNo {
        table[p as usize] = vec![2, 2];
        if took_part_in_round_1(p) {
            bound -= 2.min(bound);
            if bound <= 1 {
                break;
            }
        }
    }
    table
}

/// The index of a player (C.04.4.2): what orders a bracket.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Index {
    /// Pairing score (half points, with virtual points).
    pub score: i64,
    pub sonneborn_berger: i64,
    pub buchholz: i64,
    pub median: i64,
    pub rank: u32,
}

impl Index {
    /// Whether `self` ranks above `other` in a bracket: same score, the tie-breaks; different
    /// scores, Buchholz and Median scaled by the score (as bbpPairings compares floaters).
    fn above(&self, other: &Index) -> bool {
        let key = |x: &Index, same: bool| {
            let s = if same { 1 } else { x.score };
            (x.sonneborn_berger, x.buchholz * s, x.median * s)
        };
        let same = self.score == other.score;
        match key(self, same).cmp(&key(other, same)) {
            Ordering::Equal => self.rank < other.rank,
            o => o == Ordering::Greater,
        }
    }
}

/// The indices of all players of `t` before round `round` (1-based): `score(p)` is the pairing
/// score, `virtual_points(p)` the virtual points of this round.
pub(super) fn indices(
    t: &Tournament,
    round: usize,
    score: &dyn Fn(PlayerNo) -> i64,
    virtual_points: &dyn Fn(PlayerNo) -> i64,
    rank: &dyn Fn(PlayerNo) -> u32,
) -> Vec<Index> {
    let n = t.player_count();
    let played = round - 1;
    // Scores with unplayed rounds as draws (C.04.4.2 "unfinished games"), plus virtual points.
    let adjusted: Vec<i64> = (0..n as PlayerNo)
        .map(|p| {
            virtual_points(p)
                + t.card(p)[..played]
                    .iter()
                    .map(|&e| match e {
                        RoundEntry::Game { .. } => i64::from(e.half_points()),
                        _ => DRAW,
                    })
                    .sum::<i64>()
        })
        .collect();
    (0..n as PlayerNo)
        .map(|p| {
            if p % 256 == 0 {
                crate::interrupt::check();
            }
            let card = &t.card(p)[..played];
            // The virtual opponent of an unplayed round k (FIDE tie-break rules): the player's
            // score before it, the opposite result in it, draws in the rounds after it.
            let mut before = virtual_points(p);
            let (mut sb, mut buchholz) = (0i64, 0i64);
            let (mut low, mut high) = (i64::MAX, i64::MIN);
            for (k, &e) in card.iter().enumerate() {
                let points = i64::from(e.half_points());
                let opponent = match e {
                    RoundEntry::Game { opponent, .. } => adjusted[opponent as usize],
                    _ => before + (WIN - points) + DRAW * (played - 1 - k) as i64,
                };
                sb += opponent * points;
                buchholz += opponent;
                low = low.min(opponent);
                high = high.max(opponent);
                before += points;
            }
            let median = if played > 2 { buchholz - low - high } else { 0 };
            Index {
                score: score(p),
                sonneborn_berger: sb,
                buchholz,
                median,
                rank: rank(p),
            }
        })
        .collect()
}

/// Whether `p` may get the pairing-allocated bye as bbpPairings reads the rules before 2025: no
/// earlier pairing-allocated bye and no forfeit win (a requested full-point bye does not count).
pub(super) fn bye_eligible(t: &Tournament, p: PlayerNo, round: usize) -> bool {
    !t.card(p)[..round - 1].iter().any(|&e| {
        matches!(
            e,
            RoundEntry::Bye(ByeKind::PairingAllocated) | RoundEntry::Forfeit { won: true, .. }
        )
    })
}

/// Edge fields, from the low end: the priority of the opponent (sums of at most a few), due
/// colours granted, pairs in the same bracket, pairs at all (counts of at most 2^20 each).
const PRIORITY_BITS: u32 = 32;
const COUNT_BITS: u32 = 20;

type Weight = Wide<2>;

fn weight(same: bool, colours: bool, priority: u64) -> Weight {
    Weight::from_u64(1)
        .push(COUNT_BITS, u64::from(same))
        .push(COUNT_BITS, u64::from(colours))
        .push(PRIORITY_BITS, priority)
}

/// The players to pair, sorted (score, then index, descending), with what the procedure reads.
pub(super) struct Field<'a> {
    pub players: &'a [Entrant],
    pub index: &'a [Index],
    /// Whether players `i` and `j` (sorted positions) may meet: no rematch, no forbidden pair.
    pub may_meet: &'a dyn Fn(usize, usize) -> bool,
}

impl Field<'_> {
    /// The edge between sorted players i and j: zero when they may not meet (rematch, forbidden
    /// pair, same absolute colour preference).
    fn edge(&self, i: usize, j: usize, same: bool, colours: bool) -> Weight {
        let (a, b) = (&self.players[i].pref, &self.players[j].pref);
        if !(self.may_meet)(i, j) || (a.absolute() && b.absolute() && a.colour == b.colour) {
            return Weight::ZERO;
        }
        let differ = a.colour != b.colour || a.colour.is_none() || b.colour.is_none();
        weight(same, same && colours && differ, 0)
    }

    fn above(&self, i: usize, j: usize) -> bool {
        self.index[i].above(&self.index[j])
    }
}

/// Why no pairing exists.
pub(super) struct NoPairing;

/// Pairs the sorted players `field.players` (an even number, the bye already taken out): pairs
/// of sorted positions, the first of each the one the colours are chosen for.
/// `shortcuts`: skip the solves that [`lowest_proven`] makes needless (the tests compare both).
pub(super) fn pair(field: &Field, shortcuts: bool) -> Result<Vec<(usize, usize)>, NoPairing> {
    if shortcuts {
        if let Some(bounds) = robust_bounds(field) {
            #[cfg(test)]
            ROBUST.with(|c| c.set(c.get() + 1));
            match top_against_bottom(field, None, &bounds, true) {
                Ok(pairs) => return Ok(pairs),
                Err(Stuck::Unpairable) => return Err(NoPairing),
                Err(Stuck::NotPlain) => {}
            }
        }
    }
    let m = field.players.len();
    let mut g = Graph::whole(field);
    let score = |i: usize| field.index[i].score;
    // Scoregroup boundaries (positions where a group starts), as the procedure grows them; a
    // boundary repeated means no floater crosses it. The last one is the end of what is fixed.
    let mut bounds: Vec<usize> = vec![0, 0];
    let mut valid = true;
    let last = |b: &[usize], k: usize| b[b.len() - 1 - k];
    while last(&bounds, 0) < m {
        bounds.push(last(&bounds, 0));
        loop {
            // Add the next scoregroup to the bracket being formed.
            let begin = last(&bounds, 0);
            loop {
                crate::interrupt::check();
                let v = last(&bounds, 0);
                let (from, same_from) = (last(&bounds, 2), last(&bounds, 1));
                g.set_edges(v, from..v, None, Same::From(same_from), false, from..v);
                *bounds.last_mut().expect("bounds") += 1;
                let end = last(&bounds, 0);
                if end >= m || score(begin) != score(end) {
                    break;
                }
            }
            // An odd number so far: the next player stands in as the opponent of whoever floats
            // down, so that the check sees every player above paired.
            let end = last(&bounds, 0);
            if end % 2 == 1 {
                g.set_fixed(end, last(&bounds, 1)..end, weight(false, false, 0));
            }
            valid = groups_hold(&g.solve_field(), &bounds);
            if end >= m || valid {
                break;
            }
        }
        let end = last(&bounds, 0);
        if end < m && end % 2 == 0 {
            bounds.push(end);
        }
    }
    // The last scoregroup cannot be paired: merge it with the one above, and again.
    while bounds.len() > 3 && !valid {
        crate::interrupt::check();
        bounds.pop();
        let boundary = bounds.pop().expect("bounds");
        let begin = bounds.pop().expect("bounds");
        let above = last(&bounds, 0);
        for outer in above..boundary {
            let same = Same::Is(outer >= begin);
            g.set_edges(outer, boundary..m, None, same, false, boundary..m);
        }
        bounds.push(begin);
        bounds.push(m);
        valid = groups_hold(&g.solve_field(), &bounds);
    }
    if !valid {
        return Err(NoPairing);
    }
    top_against_bottom(field, Some(&mut g), &bounds, shortcuts).map_err(|_| NoPairing)
}

/// The scoregroup boundaries that the first part of [`pair`] fixes, without its matchings, when
/// every scoregroup is robust: at least 5 players, each of whom may meet more than half of the
/// others of its group (2·degree ≥ size + 2), and wherever a player must float (an odd number
/// of players above), at least two players of the group above who may meet one of the group
/// below. Then:
/// * a group without any 2 of its players still has a Hamiltonian cycle (Dirac: each of the
///   k − 2 left may meet at least (k − 2)/2 of them), so it pairs within itself whichever
///   player comes in from above and whichever floats out below (the two candidates leave one
///   that is not the one that came in); so a pairing exists with every player paired and the
///   fewest floaters (one across each odd boundary, none elsewhere), for every run of groups
///   from the top, with or without the stand-in below;
/// * every best matching of those checks therefore has as many pairs and pairs within groups
///   (the fields of its weights), which leaves it the same floaters (parity), so each check
///   finds that the groups hold and none merges;
/// * in the second part the players below a bracket only decide which of its players may float
///   (any one who may meet someone below, by the same argument, at the same weight):
///   [`top_against_bottom`] then matches each bracket alone with one stand-in vertex for them.
///
/// The matchings are then per bracket (O(b³) time at worst for b players) instead of the
/// whole field's. The tests compare this with the full procedure.
fn robust_bounds(field: &Field) -> Option<Vec<usize>> {
    let m = field.players.len();
    let meet = |u: usize, v: usize| !field.edge(u, v, false, false).is_zero();
    let mut groups: Vec<(usize, usize)> = Vec::new();
    let mut begin = 0;
    while begin < m {
        let score = field.index[begin].score;
        let end = (begin..m)
            .find(|&i| field.index[i].score != score)
            .unwrap_or(m);
        groups.push((begin, end));
        begin = end;
    }
    for &(begin, end) in &groups {
        let k = end - begin;
        if k < 5 {
            return None;
        }
        for u in begin..end {
            crate::interrupt::check();
            let degree = (begin..end).filter(|&v| v != u && meet(u, v)).count();
            if 2 * degree < k + 2 {
                return None;
            }
        }
    }
    for pair in groups.windows(2) {
        let ((begin, end), (_, below)) = (pair[0], pair[1]);
        if end % 2 == 1 {
            crate::interrupt::check();
            let floaters = (begin..end)
                .filter(|&u| (end..below).any(|v| meet(u, v)))
                .take(2)
                .count();
            if floaters < 2 {
                return None;
            }
        }
    }
    // (as the first part of `pair` grows them when every group holds)
    let mut bounds = vec![0, 0];
    for &(begin, end) in &groups {
        bounds.push(begin);
        *bounds.last_mut().expect("bounds") = end;
        if end < m && end % 2 == 0 {
            bounds.push(end);
        }
    }
    Some(bounds)
}

/// Why [`top_against_bottom`] stopped.
enum Stuck {
    /// No pairing.
    Unpairable,
    /// A bracket matched alone cannot pair all its players: the stand-in for the players below
    /// does not hold, the full procedure decides.
    NotPlain,
}

/// The pairing of [`pair`] when the rules make it plain, without a matching: when `fresh` (no
/// two players of the field met or are a forbidden pair), nobody has a colour preference and
/// every index has zero tie-breaks (round 1). Then every two players may meet and every edge of
/// the matching has the same weight within a bracket, so:
/// * every scoregroup holds (each pairs within itself, its odd player out floating into the
///   next one, whose pairs are then all as many as before): no two scoregroups merge;
/// * a bracket (the scoregroup and the floater from above) is in rank order (the index compares
///   only ranks, a total order); its highest player takes the lowest, which leaves the rest as
///   pairable as any other choice would, and so on inwards: the middle player of an odd
///   bracket is the one left, and floats to the next one;
/// * but a floater cannot float twice (the matching has edges only between neighbouring
///   scoregroups): when the floater from above is the middle player, the one above it takes
///   it instead of the next lower player (any lower choice leaves the floater alone), and that
///   next lower one floats.
///
/// It costs O(m log m) and no memory per pair, instead of a matching on the complete graph
/// (O(m²) weights read, O(m³) time); the tests compare it with the full procedure.
fn plain_pairs(field: &Field, fresh: bool) -> Option<Vec<(usize, usize)>> {
    let m = field.players.len();
    let plain = fresh
        && (0..m).all(|i| {
            let x = &field.index[i];
            field.players[i].pref.colour.is_none()
                && x.sonneborn_berger == 0
                && x.buchholz == 0
                && x.median == 0
        });
    if !plain {
        return None;
    }
    let mut pairs = Vec::with_capacity(m / 2);
    let mut floater: Option<usize> = None;
    let mut begin = 0;
    while begin < m {
        crate::interrupt::check();
        let score = field.index[begin].score;
        let end = (begin..m)
            .find(|&i| field.index[i].score != score)
            .unwrap_or(m);
        let came_down = floater.take();
        let bracket: Vec<usize> = (begin..end).chain(came_down).collect();
        let mut b = binary_counter_sort(bracket, |a, b| field.above(a, b));
        let k = b.len();
        let mid = k / 2;
        if k % 2 == 1 && came_down == Some(b[mid]) {
            // The floater from above may not float again (it has no edges further down): the
            // player above it takes it, the next lower one floats instead.
            b.swap(mid, mid + 1);
        }
        pairs.extend((0..mid).map(|i| (b[i], b[k - 1 - i])));
        if k % 2 == 1 {
            floater = Some(b[mid]);
        }
        begin = end;
    }
    // (an even field: the last bracket is even)
    floater.is_none().then_some(pairs)
}

/// Bracket by bracket in index order: the highest unpaired player gets the lowest opponent that
/// keeps the best matching (the priority of an opponent grows down the bracket).
/// `whole`: the matching of the whole field ([`pair`]'s), or `None` to match each bracket alone
/// ([`robust_bounds`]).
fn top_against_bottom<'f, 'a>(
    field: &'f Field<'a>,
    mut whole: Option<&mut Graph<'f, 'a>>,
    bounds: &[usize],
    shortcuts: bool,
) -> Result<Vec<(usize, usize)>, Stuck> {
    let m = field.players.len();
    let mut done = vec![false; m];
    let mut in_bracket = vec![false; m + 1];
    let mut pairs = Vec::with_capacity(m / 2);
    let mut floater: Option<usize> = None;
    let mut begin = bounds[0];
    for &end in &bounds[1..] {
        if begin == end {
            continue;
        }
        let incoming = floater.take();
        let bracket: Vec<usize> = (begin..end).chain(incoming).collect();
        let bracket = binary_counter_sort(bracket, |a, b| field.above(a, b));
        let mut own;
        let g: &mut Graph = match &mut whole {
            Some(g) => g,
            None => {
                // (who may float: an odd bracket's own players who may meet one below)
                let below = bounds.iter().copied().find(|&b| b > end).unwrap_or(m);
                let floaters: Vec<usize> = if bracket.len() % 2 == 1 {
                    (begin..end)
                        .filter(|&f| {
                            crate::interrupt::check();
                            (end..below).any(|v| !field.edge(f, v, false, false).is_zero())
                        })
                        .collect()
                } else {
                    Vec::new()
                };
                own = Graph::bracket(field, &bracket, &floaters);
                &mut own
            }
        };
        let mut prefs = Prefs::default();
        for &a in &bracket {
            in_bracket[a] = true;
            prefs = prefs.with(field, a, 1);
        }
        for (k, &a) in bracket.iter().enumerate() {
            crate::interrupt::check();
            let later = bracket[k + 1..].iter().copied();
            g.set_edges(a, begin..end, incoming, Same::Is(true), true, later);
        }
        // A best matching of the current weights, kept up to date below.
        let mut mate = g.solve(m)?;
        for (k, &a) in bracket.iter().enumerate() {
            if done[a] {
                continue;
            }
            // The priorities below raise only a's edges, the lowest one's most: when a best
            // matching pairs a with the lowest opponent that any best matching can give it,
            // every best matching of the raised weights does (any other gains less), so no
            // solve is needed, and a's edges need not be raised (a leaves the graph). Taking a
            // pair out of a best matching leaves a best matching of the rest.
            let ctx = Bracket {
                members: &bracket[k + 1..],
                done: &done,
                in_bracket: &in_bracket,
                prefs,
            };
            let plain = lowest_proven(field, g, &mut mate, a, &ctx, shortcuts);
            if !plain {
                let mut listed = Vec::new();
                for &b in &bracket[k + 1..] {
                    if !done[b] && !field.edge(a, b, true, true).is_zero() {
                        listed.push((b, listed.len() as u64 + 1));
                    }
                }
                g.set_priorities(a, &listed);
                mate = g.solve(m)?;
            }
            match mate[a] {
                Some(b) if b >= end => floater = Some(a),
                Some(b) => {
                    done[a] = true;
                    done[b] = true;
                    prefs = prefs.with(field, a, -1).with(field, b, -1);
                    pairs.push((a, b));
                    g.remove(a);
                    g.remove(b);
                }
                None => return Err(Stuck::Unpairable),
            }
        }
        for &a in &bracket {
            in_bracket[a] = false;
        }
        begin = end;
    }
    if pairs.len() * 2 == m {
        Ok(pairs)
    } else {
        Err(Stuck::Unpairable)
    }
}

/// How many of a bracket's unpaired players prefer White, Black, or have no preference.
#[derive(Clone, Copy, Default)]
struct Prefs {
    white: isize,
    black: isize,
    none: isize,
}

impl Prefs {
    /// `self` with `by` more of player i's kind.
    fn with(mut self, field: &Field, i: usize, by: isize) -> Prefs {
        use crate::tournament::Colour;
        match field.players[i].pref.colour {
            Some(Colour::White) => self.white += by,
            Some(Colour::Black) => self.black += by,
            None => self.none += by,
        }
        self
    }

    /// At most how many pairs of these players can grant due colours (differ or have none):
    /// each such pair holds a player who does not prefer White and one who does not prefer
    /// Black.
    fn bound(&self) -> isize {
        let all = self.white + self.black + self.none;
        (self.black + self.none)
            .min(self.white + self.none)
            .min(all / 2)
    }
}

/// Whether the two sorted players' due colours differ (or one has none): the colour field of
/// their edge.
fn differ(field: &Field, a: usize, b: usize) -> bool {
    let (x, y) = (field.players[a].pref.colour, field.players[b].pref.colour);
    x != y || x.is_none()
}

/// What [`lowest_proven`] reads of the bracket being paired.
struct Bracket<'a> {
    /// The players after the one to pair, in index order.
    members: &'a [usize],
    done: &'a [bool],
    in_bracket: &'a [bool],
    /// The bracket's unpaired players (the one to pair included) by colour preference.
    prefs: Prefs,
}

/// Whether the best matching `mate` of `g` is made (by a swap) to pair `a` with the lowest
/// opponent in the bracket that some best matching pairs it with; false: a solve must decide.
///
/// Going up from the lowest possible opponent b (an edge): a best matching that pairs a with b
/// proves b ([`swap_to`]). With `shortcuts`, a lower b is passed over when no best matching can
/// pair a with it: weights compare as (pairs, pairs in brackets, due colours granted) and the
/// colour field counts only pairs of the bracket, so pairing a with b gives at most
/// `differ(a, b) + bound(the other unpaired players of the bracket)` due colours, and when
/// that is below what `mate` grants, every matching with a–b weighs less than `mate`. Without
/// `shortcuts` only the lowest opponent is tried (the full procedure of the tests).
fn lowest_proven(
    field: &Field,
    g: &Graph,
    mate: &mut [Option<usize>],
    a: usize,
    bracket: &Bracket,
    shortcuts: bool,
) -> bool {
    let mut granted = None;
    let candidates = bracket
        .members
        .iter()
        .rev()
        .copied()
        .filter(|&b| !bracket.done[b] && !field.edge(a, b, true, true).is_zero());
    for b in candidates {
        if mate[a] == Some(b) || swap_to(g, mate, a, b) {
            return true;
        }
        if !shortcuts {
            return false;
        }
        // Due colours granted by `mate` within the bracket (each pair once).
        let granted = *granted.get_or_insert_with(|| {
            let mut pairs = 0isize;
            for (u, &v) in mate.iter().enumerate() {
                if let Some(v) = v {
                    let inside = |x: usize| bracket.in_bracket[x] && !bracket.done[x];
                    if u < v && inside(u) && inside(v) && differ(field, u, v) {
                        pairs += 1;
                    }
                }
            }
            pairs
        });
        let rest = bracket.prefs.with(field, a, -1).with(field, b, -1);
        if isize::from(differ(field, a, b)) + rest.bound() >= granted {
            return false;
        }
        #[cfg(test)]
        PASSED.with(|c| c.set(c.get() + 1));
    }
    false
}

/// Whether the best matching `mate` of `g` becomes one that pairs `a` with `b` by a swap: a's and
/// b's mates (x, y) pair with each other instead (or stay single) without losing weight. Then
/// `mate` is that matching (as good, so also best).
fn swap_to(g: &Graph, mate: &mut [Option<usize>], a: usize, b: usize) -> bool {
    let (x, y) = (mate[a], mate[b]);
    let w = |u: Option<usize>, v: Option<usize>| match (u, v) {
        (Some(u), Some(v)) if u != v => g.weight(u, v),
        _ => Weight::ZERO,
    };
    let before = w(Some(a), x).add(w(Some(b), y));
    let xy = w(x, y);
    if w(Some(a), Some(b)).add(xy) < before {
        return false;
    }
    for v in [x, y].into_iter().flatten() {
        mate[v] = None;
    }
    if let (Some(x), Some(y), false) = (x, y, xy.is_zero()) {
        mate[x] = Some(y);
        mate[y] = Some(x);
    }
    mate[a] = Some(b);
    mate[b] = Some(a);
    true
}

/// Whether a matching keeps the scoregroups of `bounds` (up to its last entry): every player of
/// a group but the last paired, and at most one floater between two groups.
fn groups_hold(mate: &[Option<usize>], bounds: &[usize]) -> bool {
    let end_all = bounds[bounds.len() - 1];
    let last_begin = bounds[bounds.len() - 2];
    let mut it = 0;
    let (mut outside, mut begin) = (0, 0);
    for (v, &mate_v) in mate.iter().enumerate() {
        if v >= end_all {
            return true;
        }
        if v >= bounds[it] {
            outside = 0;
            begin = v;
            while v >= bounds[it] {
                it += 1;
            }
        }
        let end = bounds[it];
        let w = mate_v.unwrap_or(v);
        if w == v && v < last_begin {
            return false;
        }
        if w == v || w < begin || w >= end {
            outside += 1;
            if outside > if end % 2 == 1 { 2 } else { 1 } {
                return false;
            }
        }
    }
    true
}

/// The colour of `a` against `b` is White: C.04.1/C.04.2 as in the Dutch system (module
/// `colours`); when they leave it open, the higher index gets its preference, and without any
/// preference the higher-ranked player gets the colour drawn for its rank.
fn a_is_white(a: &Entrant, b: &Entrant, a_above: bool, first_white: bool) -> bool {
    use crate::tournament::Colour;
    let colour = match by_preferences(a, b) {
        Some(c) => c,
        None => match (a.pref.colour, b.pref.colour) {
            (Some(ca), _) if a_above => ca,
            (_, Some(cb)) => cb.opposite(),
            (Some(ca), None) => ca,
            (None, None) => {
                let hi = if a.rank_index < b.rank_index { a } else { b };
                let hi_white = hi.rank_index.is_multiple_of(2) == first_white;
                if (hi.id == a.id) == hi_white {
                    Colour::White
                } else {
                    Colour::Black
                }
            }
        },
    };
    colour == Colour::White
}

/// Pairs round `round` of `t` by the Burstein system; `to_pair(p)`: p is paired this round;
/// `took_part(p)`: p took part in a pairing so far (for ranks).
/// `plain`: a round the rules make plain is paired without the matching ([`plain_pairs`]).
pub(super) fn pair_round(
    t: &Tournament,
    opts: &PairingOptions,
    round: u32,
    to_pair: &dyn Fn(PlayerNo) -> bool,
    took_part: &dyn Fn(PlayerNo) -> bool,
    plain: bool,
) -> Result<Pairing, PairingError> {
    let n = t.player_count();
    let r = round as usize;
    let table: Cow<[Vec<i32>]> = if opts.baku_acceleration {
        Cow::Owned(baku_table(t, round, to_pair))
    } else if opts.acceleration.is_empty() {
        let first = |p: PlayerNo| paired_entry(t.card(p)[0]) || (r == 1 && to_pair(p));
        Cow::Owned(default_acceleration(n, &first))
    } else {
        Cow::Borrowed(&opts.acceleration)
    };
    let acc = Acceleration::new(&table);
    let mut players = Vec::new();
    let mut rank = 0;
    let mut ranks = vec![0u32; n];
    for p in 0..n as PlayerNo {
        if p % 1024 == 0 {
            crate::interrupt::check();
        }
        ranks[p as usize] = rank;
        if took_part(p) {
            if to_pair(p) {
                players.push(entrant(t, acc, p, r, rank));
            }
            rank += 1;
        }
    }
    let all = indices(
        t,
        r,
        &|p| i64::from(score_after(t, p, r - 1) + acc.points(p, r)),
        &|p| i64::from(acc.points(p, r)),
        &|p| ranks[p as usize],
    );
    let index_of = |e: &Entrant| all[e.id as usize];
    // Score, then index, descending.
    players.sort_by(|a, b| {
        let (ia, ib) = (index_of(a), index_of(b));
        ib.score.cmp(&ia.score).then_with(|| {
            if ia.above(&ib) {
                Ordering::Less
            } else if ib.above(&ia) {
                Ordering::Greater
            } else {
                Ordering::Equal
            }
        })
    });
    let mut bye = None;
    if players.len() % 2 == 1 {
        let Some(k) = players.iter().rposition(|e| bye_eligible(t, e.id, r)) else {
            return Err(no_bye(round));
        };
        bye = Some(players.remove(k));
    }
    let index: Vec<Index> = players.iter().map(index_of).collect();
    let forbidden = forbidden_set(opts);
    let met = opponents_met(t, r);
    let meet = |i: usize, j: usize| may_meet(&met, &forbidden, &players[i], &players[j]);
    let field = Field {
        players: &players,
        index: &index,
        may_meet: &meet,
    };
    let shortcut = if plain {
        let mut in_field = vec![false; n];
        for e in &players {
            in_field[e.id as usize] = true;
        }
        let fresh = players.iter().all(|e| met[e.id as usize].is_empty())
            && !forbidden
                .iter()
                .any(|&(a, b)| in_field[a as usize] && in_field[b as usize]);
        plain_pairs(&field, fresh)
    } else {
        None
    };
    #[cfg(test)]
    if shortcut.is_some() {
        TAKEN.with(|c| c.set(c.get() + 1));
    }
    let pairs = match shortcut {
        Some(pairs) => pairs,
        None => pair(&field, plain).map_err(|_| no_pairing(round, players.len()))?,
    };
    let mut boards: Vec<(&Entrant, &Entrant)> = pairs
        .iter()
        .map(|&(a, b)| {
            let (pa, pb) = (&players[a], &players[b]);
            if a_is_white(pa, pb, !index[b].above(&index[a]), opts.first_colour_white) {
                (pa, pb)
            } else {
                (pb, pa)
            }
        })
        .collect();
    boards.sort_by_key(board_order);
    Ok(Pairing {
        round,
        boards: boards.iter().map(|(w, b)| (w.id, b.id)).collect(),
        bye: bye.map(|e| e.id),
    })
}

#[cfg(test)]
thread_local! {
    /// How many rounds took the shortcut (on this thread): the tests check that their cases do.
    static TAKEN: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    /// How many rounds matched bracket by bracket ([`robust_bounds`]).
    static ROBUST: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    /// How many opponents the colour bound passed over ([`lowest_proven`]).
    static PASSED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

fn no_bye(round: u32) -> PairingError {
    PairingError::new(
        PairingErrorKind::NoValidPairing,
        format!(
            "no pairing of round {round}: the number of players is odd and every one of them \
             had a pairing-allocated bye or a forfeit win already"
        ),
    )
}

fn no_pairing(round: u32, m: usize) -> PairingError {
    PairingError::new(
        PairingErrorKind::NoValidPairing,
        format!(
            "no pairing of round {round} satisfies the absolute criteria of the Burstein system \
             (no rematch, no forbidden pair, no two players with the same absolute colour \
             preference) for its {m} players"
        ),
    )
}

/// Sorts `items` by `before` with a bottom-up merge sort that keeps runs of 1, 2, 4, ... items in
/// bins like the digits of a binary counter, then merges the bins from the smallest. The index
/// order is not transitive across scores (a scoregroup compares its floater by Buchholz times
/// score, its residents by Buchholz), so the result depends on the order of the comparisons:
/// these are the ones of the list sort of GCC's C++ library, which bbpPairings uses. On ties
/// the earlier item stays first.
fn binary_counter_sort(items: Vec<usize>, before: impl Fn(usize, usize) -> bool) -> Vec<usize> {
    // Merges `later` into `earlier`: an item of `later` goes first only when strictly before.
    let merge = |earlier: Vec<usize>, later: Vec<usize>| {
        let mut out = Vec::with_capacity(earlier.len() + later.len());
        let (mut i, mut j) = (0, 0);
        while i < earlier.len() && j < later.len() {
            if before(later[j], earlier[i]) {
                out.push(later[j]);
                j += 1;
            } else {
                out.push(earlier[i]);
                i += 1;
            }
        }
        out.extend_from_slice(&earlier[i..]);
        out.extend_from_slice(&later[j..]);
        out
    };
    if items.len() < 2 {
        return items;
    }
    let mut bins: Vec<Vec<usize>> = Vec::new();
    for item in items {
        let mut carry = vec![item];
        let mut k = 0;
        while k < bins.len() && !bins[k].is_empty() {
            carry = merge(std::mem::take(&mut bins[k]), carry);
            k += 1;
        }
        if k == bins.len() {
            bins.push(carry);
        } else {
            bins[k] = carry;
        }
    }
    let mut merged = bins.remove(0);
    for bin in bins {
        merged = merge(bin, merged);
    }
    merged
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::{GameKind, Outcome};

    fn tournament(n: usize, rounds: u32) -> Tournament {
        Tournament::new(rounds, (0..n).map(|i| Some(2800 - 2 * i as i32)).collect()).unwrap()
    }

    fn burstein() -> PairingOptions {
        PairingOptions {
            system: super::super::PairingSystem::Burstein,
            ..PairingOptions::default()
        }
    }

    fn pair(t: &Tournament) -> Result<Pairing, PairingError> {
        super::super::pair_next_round(t, &burstein())
    }

    /// With a chance of 1 in `k`, up to `n / k` random forbidden pairs of `n` players.
    fn forbid_some(rng: &mut crate::test_rng::Rng, opts: &mut PairingOptions, n: usize, k: usize) {
        if rng.one_in(k) {
            for _ in 0..1 + rng.below(n / k) {
                let (a, b) = (rng.below(n) as PlayerNo, rng.below(n) as PlayerNo);
                if a != b {
                    opts.forbidden_pairs.push((a, b));
                }
            }
        }
    }

    /// Round `r` as `p` paired it, with random results (5 % forfeits) and its bye.
    fn play(rng: &mut crate::test_rng::Rng, t: &mut Tournament, r: u32, p: Pairing) {
        for (w, b) in p.boards {
            let (outcome, kind) = match rng.below(20) {
                0 => (Outcome::Win, GameKind::Forfeit),
                1..=8 => (Outcome::Win, GameKind::Played),
                9..=12 => (Outcome::Draw, GameKind::Played),
                _ => (Outcome::Loss, GameKind::Played),
            };
            t.add_game(r, w, b, outcome, kind).unwrap();
        }
        if let Some(b) = p.bye {
            t.add_bye(r, b, ByeKind::PairingAllocated).unwrap();
        }
    }

    /// `f` run with `cell` set to `value` (a test's override on this thread), then reset.
    fn overriding<T: Copy, R>(
        cell: &'static std::thread::LocalKey<std::cell::Cell<T>>,
        value: T,
        f: impl FnOnce() -> R,
    ) -> R {
        let before = cell.with(|c| c.replace(value));
        let out = f();
        cell.with(|c| c.set(before));
        out
    }

    #[test]
    fn rounds_one_and_two_accelerate_the_upper_half_of_those_paired_in_round_one() {
        let all = |_: PlayerNo| true;
        let upper = |t: &[Vec<i32>]| t.iter().filter(|r| r.as_slice() == [2, 2]).count();
        assert_eq!(upper(&default_acceleration(8, &all)), 4);
        assert_eq!(upper(&default_acceleration(7, &all)), 3);
        assert_eq!(upper(&default_acceleration(5, &all)), 2);
        assert_eq!(upper(&default_acceleration(1, &all)), 0);
        // Player 1 did not take part: it gets the point among the upper half but does not count.
        let table = default_acceleration(6, &|p| p != 1);
        assert_eq!(upper(&table), 3);
        assert!(table[3].is_empty());
    }

    #[test]
    fn round_one_pairs_top_against_bottom_within_each_accelerated_half() {
        let p = pair(&tournament(8, 5)).unwrap();
        // Upper half {1..4}: 1-4, 2-3; lower half: 5-8, 6-7; the higher-ranked player of each
        // board gets the colour drawn for its rank (White for odd starting ranks).
        assert_eq!(p.boards, vec![(0, 3), (2, 1), (4, 7), (6, 5)]);
        assert_eq!(p.bye, None);
    }

    #[test]
    fn the_bye_goes_to_the_lowest_player_without_a_bye_or_forfeit_win() {
        let mut t = tournament(5, 5);
        assert_eq!(pair(&t).unwrap().bye, Some(4));
        t.add_game(1, 0, 2, Outcome::Win, GameKind::Played).unwrap();
        t.add_game(1, 4, 1, Outcome::Win, GameKind::Forfeit)
            .unwrap();
        t.add_bye(1, 3, ByeKind::PairingAllocated).unwrap();
        let p = pair(&t).unwrap();
        // Lowest by score: 2 and 1 (0 points), of whom 1 is lower by index; 3 and 4 may not.
        assert!(matches!(p.bye, Some(1) | Some(2)), "{p:?}");
        assert_ne!(p.bye, Some(3));
        assert_ne!(p.bye, Some(4));
    }

    #[test]
    fn players_who_met_are_not_paired_again() {
        let mut t = tournament(2, 3);
        t.add_game(1, 0, 1, Outcome::Draw, GameKind::Played)
            .unwrap();
        let e = pair(&t).unwrap_err();
        assert_eq!(e.kind, PairingErrorKind::NoValidPairing);
        // A forfeit is no game: they may meet.
        let mut t = tournament(2, 3);
        t.add_game(1, 0, 1, Outcome::Win, GameKind::Forfeit)
            .unwrap();
        assert_eq!(pair(&t).unwrap().boards.len(), 1);
    }

    #[test]
    fn the_index_compares_floaters_by_scaled_buchholz() {
        let idx = |score, buchholz, rank| Index {
            score,
            sonneborn_berger: 0,
            buchholz,
            median: 0,
            rank,
        };
        // Same score: Buchholz, then rank.
        assert!(idx(2, 5, 3).above(&idx(2, 4, 0)));
        assert!(idx(2, 4, 0).above(&idx(2, 4, 1)));
        // Different scores: Buchholz times score (4 * 2 = 8 beats 5 * 1 = 5).
        assert!(idx(2, 4, 3).above(&idx(1, 5, 0)));
        // A higher Sonneborn-Berger comes first whatever the Buchholz.
        let sb = Index {
            sonneborn_berger: 1,
            ..idx(0, 0, 9)
        };
        assert!(sb.above(&idx(2, 9, 0)));
    }

    #[test]
    fn the_binary_counter_sort_sorts_and_keeps_ties_in_order() {
        let keys = [5, 3, 9, 3, 1, 7, 5, 0, 2, 8, 3];
        let items: Vec<usize> = (0..keys.len()).collect();
        let sorted = binary_counter_sort(items.clone(), |a, b| keys[a] > keys[b]);
        let mut expected = items;
        expected.sort_by_key(|&i| std::cmp::Reverse(keys[i]));
        assert_eq!(sorted, expected);
        assert_eq!(binary_counter_sort(vec![4], |_, _| true), vec![4]);
    }

    /// Round 1 (the plain case, [`plain_pairs`]) pairs as the full procedure: random fields,
    /// acceleration tables that make scoregroups of every size (odd ones, single players),
    /// absent players, requested byes, forbidden pairs (then no shortcut).
    #[test]
    fn round_one_shortcut_pairs_as_the_full_procedure() {
        let mut rng = crate::test_rng::Rng::new(4342);
        let (mut cases, mut plain) = (0, 0);
        for case in 0..400 {
            let n = 1 + rng.below(70);
            let mut t = tournament(n, 3 + rng.below(3) as u32);
            let mut opts = burstein();
            opts.first_colour_white = rng.one_in(2);
            match rng.below(4) {
                // (the default acceleration of the Burstein rules)
                0 => {}
                1 => opts.baku_acceleration = true,
                _ => {
                    let groups = 1 + rng.below(5);
                    opts.acceleration = (0..n)
                        .map(|_| vec![2 * rng.below(groups) as i32, rng.below(2) as i32])
                        .collect();
                }
            }
            for _ in 0..rng.below(3) {
                let p = rng.below(n) as PlayerNo;
                if rng.one_in(2) {
                    opts.absent.push(p);
                } else {
                    // (a requested bye in round 1: not paired, and not in the field)
                    let _ = t.add_bye(1, p, ByeKind::Half);
                }
            }
            if rng.one_in(6) {
                let (a, b) = (rng.below(n) as PlayerNo, rng.below(n) as PlayerNo);
                if a != b {
                    opts.forbidden_pairs.push((a, b));
                }
            }
            let full = super::super::pair_round(&t, &opts, false);
            let before = TAKEN.with(|c| c.get());
            let fast = super::super::pair_round(&t, &opts, true);
            plain += TAKEN.with(|c| c.get()) - before;
            assert_eq!(fast, full, "case {case}: {n} players, {opts:?}");
            cases += 1;
        }
        println!("{plain} of {cases} cases plain");
        assert!(plain > 250, "{plain} of {cases} plain");
    }

    /// Later rounds pair as the full procedure with the shortcuts (brackets matched alone,
    /// [`robust_bounds`]; opponents passed over by the colour bound, [`lowest_proven`]): random
    /// tournaments paired round by round with random results, forfeits, absent players and
    /// forbidden pairs, from fields small enough for scoregroups of a few players (no robust
    /// bounds) to large ones.
    #[test]
    fn later_rounds_pair_as_the_full_procedure() {
        let mut rng = crate::test_rng::Rng::new(3442);
        let (mut rounds, mut robust) = (0, 0);
        for case in 0..60 {
            let n = 8 + rng.below(150);
            let total = 4 + rng.below(4) as u32;
            let mut t = tournament(n, total);
            let mut opts = burstein();
            opts.first_colour_white = rng.one_in(2);
            forbid_some(&mut rng, &mut opts, n, 4);
            for r in 1..=total {
                let mut o = opts.clone();
                if rng.one_in(3) {
                    o.absent.push(rng.below(n) as PlayerNo);
                }
                let full = super::super::pair_round(&t, &o, false);
                let before = ROBUST.with(|c| c.get());
                let fast = super::super::pair_round(&t, &o, true);
                robust += ROBUST.with(|c| c.get()) - before;
                assert_eq!(fast, full, "case {case}, round {r}: {n} players, {o:?}");
                let Ok(p) = full else { break };
                rounds += 1;
                play(&mut rng, &mut t, r, p);
            }
        }
        let passed = PASSED.with(|c| c.get());
        println!(
            "{robust} of {rounds} rounds with robust scoregroups, {passed} opponents passed over"
        );
        assert!(passed > 100, "{passed} opponents passed over");
        assert!(robust * 4 > rounds, "{robust} of {rounds}");
        assert!(robust * 4 < 3 * rounds, "{robust} of {rounds}");
    }

    /// The graphs pair the same when the matcher can keep only a few rows of weights (as in a
    /// big field, where it evicts them and computes them again), or no bits of which edges exist
    /// (above `graph::BITS_VERTICES`), as with all of them: random tournaments paired round by
    /// round, by the full procedure and with the shortcuts.
    #[test]
    fn a_few_cached_rows_or_no_edge_bits_pair_as_all_of_them() {
        let mut rng = crate::test_rng::Rng::new(5112);
        let mut rounds = 0;
        for case in 0..40 {
            let n = 4 + rng.below(if case % 8 == 0 { 200 } else { 60 });
            let total = 3 + rng.below(5) as u32;
            let mut t = tournament(n, total);
            let mut opts = burstein();
            opts.first_colour_white = rng.one_in(2);
            forbid_some(&mut rng, &mut opts, n, 3);
            for r in 1..=total {
                let mut full = None;
                for plain in [true, false] {
                    let all = super::super::pair_round(&t, &opts, plain);
                    let rows = 2 + rng.below(3);
                    let few = overriding(&graph::CACHE_ROWS, rows, || {
                        super::super::pair_round(&t, &opts, plain)
                    });
                    assert_eq!(
                        few, all,
                        "case {case}, round {r}, plain {plain}: {n} players"
                    );
                    let no_bits = overriding(&graph::NO_BITS, true, || {
                        super::super::pair_round(&t, &opts, plain)
                    });
                    assert_eq!(
                        no_bits, all,
                        "case {case}, round {r}, plain {plain}, no bits"
                    );
                    full = Some(all);
                }
                let Some(Ok(p)) = full else { break };
                rounds += 1;
                play(&mut rng, &mut t, r, p);
            }
        }
        assert!(rounds > 150, "{rounds} rounds paired");
    }

    #[test]
    fn an_unknown_system_is_an_invalid_option() {
        use super::super::PairingSystem;
        assert_eq!(
            PairingSystem::from_name("burstein").unwrap(),
            PairingSystem::Burstein
        );
        assert_eq!(
            PairingSystem::from_name("dutch").unwrap(),
            PairingSystem::Dutch
        );
        let e = PairingSystem::from_name("monrad").unwrap_err();
        assert_eq!(e.kind, PairingErrorKind::InvalidOption);
    }
}
