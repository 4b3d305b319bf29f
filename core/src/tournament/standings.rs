//! Standings: ranking by points and a tournament's tie-break order (C.07 4.2), the direct
//! encounter (C.07 6), standings from scratch, and the incremental refresh a trigger runs.
//!
//! # Ranking (4.2)
//! Players are sorted by points; each group still tied is split by the next tie-break of the
//! order. Players tied after the whole order share a [`Placement::rank`]; their
//! [`Placement::place`] (the `row_number` of the Random Chess views) follows the pairing number.
//!
//! # Direct encounter (6)
//! Within a tied group, each player's score is the sum, over the other members met over the
//! board, of the points scored against them — the average when they met more than once (6.1.2);
//! forfeits do not count (6.1.1, Swiss). If all members met each other, that score ranks them and
//! any sub-group still tied is ranked again by article 6 on its own games (6.2). If not, a member
//! whose score exceeds what any other member could reach by winning all their missing games is
//! ranked first, then the same for second place, and so on, recomputing among the rest (6.3);
//! when no one can be singled out the rest stays tied (and all met: 6.2 again).
//!
//! # Incremental maintenance
//! A standings row (player p, round s) depends only on p's card up to s and on the adjusted
//! scores (16.3) of p's scheduled opponents up to s. When the cards of some players change from
//! round r on (a result inserted, deleted or corrected, a bye, a registration), the rows to
//! recompute are those of the changed players for rounds ≥ r and those of every scheduled
//! opponent x met in round q for rounds ≥ max(q, r) — the opponent relation is symmetric, so it
//! is read off the changed players' own cards ([`refresh`]). That is O(rounds²) rows per change,
//! independent of the number of players.

use std::collections::{BTreeMap, HashMap};

use super::tiebreak::{
    adjusted_points_x2, player_values, Edition, OpponentView, PlayerValues, TieBreak,
};
use super::{PlayerNo, Result, RoundEntry, Tournament, TournamentError};

/// A player's position in the standings of one round.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placement {
    pub player: PlayerNo,
    /// 1-based, unique: the order of the standings (ties after all tie-breaks by pairing number).
    pub place: u32,
    /// 1-based, shared by players still tied after all tie-breaks.
    pub rank: u32,
    /// The direct-encounter score within the tied group where DE first applied (points), or
    /// `None` when DE is not in the order or the player was not tied there.
    pub de: Option<f64>,
}

/// A row of the standings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StandingsRow {
    pub player: PlayerNo,
    pub values: PlayerValues,
    pub place: u32,
    pub rank: u32,
    pub de: Option<f64>,
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// Direct-encounter scores of a group: exact, in units of 1 / (2·denominator) points.
struct DeScores {
    scores: Vec<i64>,
    missing: Vec<i64>,
    unit_per_point: i64,
}

/// `None` when the common denominator of the meeting counts (or a score) does not fit 64 bits:
/// pairs that met many different numbers of times over hundreds of rounds, or counts no
/// tournament produces. Article 6 then leaves the group tied.
fn de_scores(
    group: &[PlayerNo],
    encounters: &impl Fn(PlayerNo, PlayerNo) -> (u32, i32),
) -> Option<DeScores> {
    let n = group.len();
    let mut pairs = Vec::with_capacity(n * n.saturating_sub(1) / 2);
    let mut denom = 1i64;
    for i in 0..n {
        for j in i + 1..n {
            let (count, i_x2) = encounters(group[i], group[j]);
            if count > 0 {
                let c = i64::from(count);
                denom = (denom / gcd(denom, c)).checked_mul(c)?;
            }
            pairs.push((i, j, count, i_x2));
        }
    }
    let mut scores = vec![0i64; n];
    let mut missing = vec![0i64; n];
    for (i, j, count, i_x2) in pairs {
        if count == 0 {
            missing[i] += 1;
            missing[j] += 1;
        } else {
            let c = i64::from(count);
            let i_x2 = i64::from(i_x2);
            scores[i] = scores[i].checked_add(i_x2.checked_mul(denom / c)?)?;
            scores[j] = scores[j].checked_add((2 * c - i_x2).checked_mul(denom / c)?)?;
        }
    }
    Some(DeScores {
        scores,
        missing,
        unit_per_point: denom.checked_mul(2)?,
    })
}

/// The DE scores in points, in floating point: what is shown when [`de_scores`] cannot be exact.
fn de_points_approx(
    group: &[PlayerNo],
    encounters: &impl Fn(PlayerNo, PlayerNo) -> (u32, i32),
) -> Vec<(PlayerNo, f64)> {
    let mut points = vec![0.0; group.len()];
    for i in 0..group.len() {
        for j in i + 1..group.len() {
            let (count, i_x2) = encounters(group[i], group[j]);
            if count > 0 {
                let (c2, i_x2) = (2.0 * f64::from(count), f64::from(i_x2));
                points[i] += i_x2 / c2;
                points[j] += (c2 - i_x2) / c2;
            }
        }
    }
    group.iter().copied().zip(points).collect()
}

/// Splits `group` into ordered sub-groups by article 6; returns them and each member's DE
/// score in points (computed on the whole group).
fn direct_encounter(
    group: &[PlayerNo],
    encounters: &impl Fn(PlayerNo, PlayerNo) -> (u32, i32),
) -> (Vec<Vec<PlayerNo>>, Vec<(PlayerNo, f64)>) {
    let shown = match de_scores(group, encounters) {
        Some(first) => group
            .iter()
            .zip(&first.scores)
            .map(|(&p, &s)| (p, s as f64 / first.unit_per_point as f64))
            .collect(),
        None => de_points_approx(group, encounters),
    };
    (de_split(group, encounters), shown)
}

fn de_split(
    group: &[PlayerNo],
    encounters: &impl Fn(PlayerNo, PlayerNo) -> (u32, i32),
) -> Vec<Vec<PlayerNo>> {
    if group.len() <= 1 {
        return vec![group.to_vec()];
    }
    let Some(d) = de_scores(group, encounters) else {
        return vec![group.to_vec()];
    };
    if d.missing.iter().all(|&m| m == 0) {
        // 6.2: all met; sub-ties are ranked again on their own games
        let mut idx: Vec<usize> = (0..group.len()).collect();
        idx.sort_by_key(|&i| std::cmp::Reverse(d.scores[i]));
        let mut out = Vec::new();
        for run in idx.chunk_by(|&a, &b| d.scores[a] == d.scores[b]) {
            let members: Vec<PlayerNo> = run.iter().map(|&i| group[i]).collect();
            if members.len() > 1 && members.len() < group.len() {
                out.extend(de_split(&members, encounters));
            } else {
                out.push(members);
            }
        }
        return out;
    }
    // 6.3: peel off whoever is alone on top whatever the missing games give
    let mut out = Vec::new();
    let mut rest = group.to_vec();
    loop {
        if rest.len() <= 1 {
            if !rest.is_empty() {
                out.push(rest);
            }
            return out;
        }
        let Some(d) = de_scores(&rest, encounters) else {
            out.push(rest);
            return out;
        };
        if d.missing.iter().all(|&m| m == 0) {
            out.extend(de_split(&rest, encounters));
            return out;
        }
        let win = i128::from(d.unit_per_point); // one point
        let reach = |j: usize| i128::from(d.scores[j]) + i128::from(d.missing[j]) * win;
        let top = (0..rest.len())
            .find(|&i| (0..rest.len()).all(|j| j == i || i128::from(d.scores[i]) > reach(j)));
        match top {
            Some(i) => {
                out.push(vec![rest.remove(i)]);
            }
            None => {
                out.push(rest);
                return out;
            }
        }
    }
}

/// Ranks `players` (each with its values after the same round) by points and `order`.
/// `encounters(a, b)` gives the number of games a and b played over the board against each
/// other and a's points in them (half points); it is only asked for players tied when DE
/// applies. The result is sorted by place.
pub fn rank_players(
    players: &[(PlayerNo, PlayerValues)],
    order: &[TieBreak],
    encounters: impl Fn(PlayerNo, PlayerNo) -> (u32, i32),
) -> Vec<Placement> {
    let values: HashMap<PlayerNo, &PlayerValues> = players.iter().map(|(p, v)| (*p, v)).collect();
    let split_by =
        |group: Vec<PlayerNo>, key: &dyn Fn(&PlayerValues) -> Option<i64>| -> Vec<Vec<PlayerNo>> {
            let mut g = group;
            g.sort_by_key(|p| std::cmp::Reverse(key(values[p])));
            g.chunk_by(|a, b| key(values[a]) == key(values[b]))
                .map(<[PlayerNo]>::to_vec)
                .collect()
        };
    let all: Vec<PlayerNo> = players.iter().map(|(p, _)| *p).collect();
    let mut groups = split_by(all, &|v| Some(i64::from(v.points_x2)));
    let mut de: HashMap<PlayerNo, f64> = HashMap::new();
    for &tb in order {
        let mut next = Vec::with_capacity(groups.len());
        for g in groups {
            if g.len() <= 1 {
                next.push(g);
            } else if tb == TieBreak::DirectEncounter {
                let (parts, shown) = direct_encounter(&g, &encounters);
                for (p, s) in shown {
                    de.entry(p).or_insert(s);
                }
                next.extend(parts);
            } else {
                next.extend(split_by(g, &|v| tb.key(v)));
            }
        }
        groups = next;
    }
    let mut out = Vec::with_capacity(players.len());
    let mut before = 0u32;
    for mut g in groups {
        g.sort_unstable();
        for (k, &p) in g.iter().enumerate() {
            out.push(Placement {
                player: p,
                place: before + k as u32 + 1,
                rank: before + 1,
                de: de.get(&p).copied(),
            });
        }
        before += g.len() as u32;
    }
    out
}

/// Over-the-board games between `a` and `b` in `card_a` (a's card) and a's points in them.
pub fn encounters_in(card_a: &[RoundEntry], b: PlayerNo) -> (u32, i32) {
    card_a.iter().fold((0, 0), |(n, pts), e| match *e {
        RoundEntry::Game {
            opponent, outcome, ..
        } if opponent == b => (n + 1, pts + outcome.half_points()),
        _ => (n, pts),
    })
}

/// Every player's values after round `upto` (≤ the round count), computed from scratch.
pub fn values_after(t: &Tournament, upto: u32, edition: Edition) -> Vec<PlayerValues> {
    let s = upto.min(t.round_count()) as usize;
    let n = t.player_count();
    let adjusted: Vec<i32> = (0..n as PlayerNo)
        .map(|p| adjusted_points_x2(&t.card(p)[..s]))
        .collect();
    (0..n as PlayerNo)
        .map(|p| {
            player_values(&t.card(p)[..s], edition, |o| OpponentView {
                adjusted_x2: adjusted[o as usize],
                rating: t.rating(o),
            })
        })
        .collect()
}

/// The standings after round `upto`, computed from scratch, sorted by place.
pub fn standings(
    t: &Tournament,
    upto: u32,
    order: &[TieBreak],
    edition: Edition,
) -> Vec<StandingsRow> {
    let s = upto.min(t.round_count()) as usize;
    let values = values_after(t, upto, edition);
    let rows: Vec<(PlayerNo, PlayerValues)> = values
        .iter()
        .enumerate()
        .map(|(p, v)| (p as PlayerNo, *v))
        .collect();
    rank_players(&rows, order, |a, b| encounters_in(&t.card(a)[..s], b))
        .into_iter()
        .map(|pl| StandingsRow {
            player: pl.player,
            values: values[pl.player as usize],
            place: pl.place,
            rank: pl.rank,
            de: pl.de,
        })
        .collect()
}

/// A player's stored row of one round: the entry, the values after the round and their sort
/// key, and (with DE in the order) the shared rank and DE score.
#[derive(Clone, Debug, PartialEq)]
pub struct RoundRow {
    pub entry: RoundEntry,
    pub values: PlayerValues,
    pub sort_key: Vec<u8>,
    pub rank: Option<u32>,
    pub de: Option<f64>,
}

/// The rows of round `s` (1-based) of every player, by number: what the standings table keeps.
/// The shared ranks are computed from the whole tournament only when DE is in the order.
pub fn round_rows(t: &Tournament, s: u32, order: &[TieBreak], edition: Edition) -> Vec<RoundRow> {
    let mut ranks: HashMap<PlayerNo, (u32, Option<f64>)> = HashMap::new();
    if order.contains(&TieBreak::DirectEncounter) {
        ranks = standings(t, s, order, edition)
            .into_iter()
            .map(|x| (x.player, (x.rank, x.de)))
            .collect();
    }
    values_after(t, s, edition)
        .into_iter()
        .enumerate()
        .map(|(i, values)| {
            let rank = ranks.get(&(i as PlayerNo));
            RoundRow {
                entry: t.card(i as PlayerNo)[s as usize - 1],
                sort_key: sort_key(&values, order),
                values,
                rank: rank.map(|r| r.0),
                de: rank.and_then(|r| r.1),
            }
        })
        .collect()
}

/// Where [`refresh`] reads players' cards (the glue: one batched query).
pub trait CardSource {
    /// For each player: the entries of rounds 1.. (rounds beyond the vector are
    /// [`RoundEntry::Absent`]) and the rating as of the tournament's start.
    fn cards(&self, players: &[PlayerNo]) -> Vec<(Vec<RoundEntry>, Option<i32>)>;
}

impl CardSource for Tournament {
    fn cards(&self, players: &[PlayerNo]) -> Vec<(Vec<RoundEntry>, Option<i32>)> {
        players
            .iter()
            .map(|&p| (self.card(p).to_vec(), self.rating(p)))
            .collect()
    }
}

fn padded(mut card: Vec<RoundEntry>, len: usize) -> Vec<RoundEntry> {
    card.resize(len, RoundEntry::Absent);
    card
}

/// The standings rows to rewrite after the cards of `changed` players changed from the given
/// round on (both players of a game; cards already in their new state), when the standings hold
/// rounds 1..=`last_round`: each `(player, round, values)` to upsert. A new round (last_round
/// grew) is refreshed by listing every registered player with that round.
///
/// Fails only when the source answers a request with a different number of cards.
pub fn refresh(
    source: &impl CardSource,
    changed: &[(PlayerNo, u32)],
    last_round: u32,
    edition: Edition,
) -> Result<Vec<(PlayerNo, u32, PlayerValues)>> {
    let len = last_round as usize;
    let mut first: BTreeMap<PlayerNo, u32> = BTreeMap::new();
    for &(p, r) in changed {
        let r = r.max(1);
        let e = first.entry(p).or_insert(r);
        *e = (*e).min(r);
    }
    type Cards = HashMap<PlayerNo, (Vec<RoundEntry>, Option<i32>)>;
    // loads the players not loaded yet
    let load = |ids: Vec<PlayerNo>, cards: &mut Cards| -> Result<()> {
        let missing: Vec<PlayerNo> = ids.into_iter().filter(|p| !cards.contains_key(p)).collect();
        if missing.is_empty() {
            return Ok(());
        }
        let got = source.cards(&missing);
        if got.len() != missing.len() {
            return Err(TournamentError::invalid(format!(
                "asked for the cards of {} players, got {}",
                missing.len(),
                got.len()
            )));
        }
        for (p, (c, r)) in missing.iter().zip(got) {
            cards.insert(*p, (padded(c, len), r));
        }
        Ok(())
    };
    let mut cards: Cards = HashMap::new();
    load(first.keys().copied().collect(), &mut cards)?;
    let changed_ids: Vec<PlayerNo> = first.keys().copied().collect();
    // the opponents of a changed player see its adjusted score change
    for &p in &changed_ids {
        let r = first[&p];
        let card = cards[&p].0.clone();
        for (q, e) in card.iter().enumerate() {
            if let Some(x) = e.opponent() {
                let from = r.max(q as u32 + 1);
                let f = first.entry(x).or_insert(from);
                *f = (*f).min(from);
            }
        }
    }
    // load the affected players, then everyone they met
    load(first.keys().copied().collect(), &mut cards)?;
    let opponents: Vec<PlayerNo> = {
        let mut v: Vec<PlayerNo> = first
            .keys()
            .flat_map(|p| cards[p].0.iter().filter_map(|e| e.opponent()))
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    };
    load(opponents, &mut cards)?;
    let mut out = Vec::new();
    for (&p, &r) in &first {
        let card = &cards[&p].0;
        for s in r..=last_round {
            let s_len = s as usize;
            let v = player_values(&card[..s_len], edition, |o| {
                let (oc, rating) = &cards[&o];
                OpponentView {
                    adjusted_x2: adjusted_points_x2(&oc[..s_len]),
                    rating: *rating,
                }
            });
            out.push((p, s, v));
        }
    }
    Ok(out)
}

/// An order-preserving binary key of a row for `order` (larger = better): points, then each
/// per-player tie-break (a missing value sorts last). DE is skipped: with DE in the order, places
/// come from [`rank_players`]. Lets SQL sort standings with one `bytea` column and an index.
pub fn sort_key(v: &PlayerValues, order: &[TieBreak]) -> Vec<u8> {
    let mut out = Vec::with_capacity(9 * (order.len() + 1));
    let mut push = |k: Option<i64>| match k {
        None => out.extend_from_slice(&[0u8; 9]),
        Some(x) => {
            out.push(1);
            out.extend_from_slice(&((x as u64) ^ (1 << 63)).to_be_bytes());
        }
    };
    push(Some(i64::from(v.points_x2)));
    for tb in order.iter().filter(|t| **t != TieBreak::DirectEncounter) {
        push(tb.key(v));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn direct_encounter_beyond_64_bits_leaves_the_group_tied() {
        // Meeting counts u32::MAX and u32::MAX - 1 (coprime): their common denominator is about
        // 1.8e19, beyond i64. This used to overflow (a panic in debug builds).
        let players: Vec<(PlayerNo, PlayerValues)> =
            (0..3).map(|p| (p, PlayerValues::default())).collect();
        let encounters = |a: PlayerNo, b: PlayerNo| match a + b {
            1 => (u32::MAX, 1),
            2 => (u32::MAX - 1, 3),
            _ => (0, 0),
        };
        let placed = rank_players(&players, &[TieBreak::DirectEncounter], encounters);
        assert!(placed.iter().all(|p| p.rank == 1), "{placed:?}");
        // the scores shown are the averaged points, in floating point
        let de = |p: PlayerNo| placed.iter().find(|x| x.player == p).unwrap().de.unwrap();
        assert!(
            (de(0) - (0.5 / f64::from(u32::MAX) + 1.5 / f64::from(u32::MAX - 1))).abs() < 1e-15
        );
        assert!((de(1) - (1.0 - 0.5 / f64::from(u32::MAX))).abs() < 1e-12);
    }

    #[test]
    fn round_rows_keep_the_entry_values_key_and_ranks_with_de() {
        use crate::tournament::{GameKind, Outcome};
        let mut t = Tournament::new(2, vec![Some(1500), Some(1400), None]).unwrap();
        t.add_game(1, 0, 1, Outcome::Win, GameKind::Played).unwrap();
        let order = crate::tournament::parse_order("BH,DE").unwrap();
        let rows = round_rows(&t, 1, &order, Edition::C07_2026);
        let values = values_after(&t, 1, Edition::C07_2026);
        assert_eq!(rows.len(), 3);
        for (i, row) in rows.iter().enumerate() {
            assert_eq!(row.entry, t.card(i as PlayerNo)[0]);
            assert_eq!(row.values, values[i]);
            assert_eq!(row.sort_key, sort_key(&values[i], &order));
        }
        let placed = standings(&t, 1, &order, Edition::C07_2026);
        for x in placed {
            assert_eq!(rows[x.player as usize].rank, Some(x.rank));
            assert_eq!(rows[x.player as usize].de, x.de);
        }
        // without DE no ranks are kept
        let order = crate::tournament::parse_order("BH").unwrap();
        let rows = round_rows(&t, 1, &order, Edition::C07_2026);
        assert!(rows.iter().all(|r| r.rank.is_none() && r.de.is_none()));
        assert_eq!(rows[0].values.points_x2, 2);
    }
}
