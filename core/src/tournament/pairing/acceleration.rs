//! Accelerated pairings: virtual points added to some players' scores for pairing only (FIDE
//! Handbook C.04.5), and the Baku method that computes them (C.04.5.1).
//!
//! The *pairing score* of a player is the score plus the virtual points of the round being
//! paired (C.04.5.1, "Pairing score"). It replaces the score everywhere the Dutch system looks
//! at scores: scoregroups and brackets, the bye assignee's score, topscorers, and the floats of
//! earlier rounds, which compare the pairing scores the two players had in that round (as
//! bbpPairings v6.0.0 does). Board order is by the real score (bbpPairings likewise).
//!
//! All points here are half points (a win is 2).

use crate::tournament::{PlayerNo, Tournament};

use super::{paired_entry, PairingError, PairingErrorKind};

/// Virtual points by player number, then round (round 1 first), in half points. A missing entry
/// is 0.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Acceleration<'a> {
    table: &'a [Vec<i32>],
}

impl<'a> Acceleration<'a> {
    pub(super) fn new(table: &'a [Vec<i32>]) -> Self {
        Self { table }
    }

    /// The virtual points of `p` when round `round` (1-based) is paired.
    pub(super) fn points(&self, p: PlayerNo, round: usize) -> i32 {
        self.table
            .get(p as usize)
            .and_then(|rounds| rounds.get(round.wrapping_sub(1)))
            .copied()
            .unwrap_or(0)
    }
}

/// Checks a table of virtual points given as an option: players of the tournament, at most
/// one entry per round, none negative.
pub(super) fn check_table(
    table: &[Vec<i32>],
    players: usize,
    rounds: u32,
) -> Result<(), PairingError> {
    let invalid = |m: String| PairingError::new(PairingErrorKind::InvalidOption, m);
    if table.len() > players {
        return Err(invalid(format!(
            "acceleration is given for {} players, the tournament has {players}",
            table.len()
        )));
    }
    for (p, row) in table.iter().enumerate() {
        if row.len() > rounds as usize {
            return Err(invalid(format!(
                "acceleration of starting rank {} has {} rounds, the tournament {rounds}",
                p + 1,
                row.len()
            )));
        }
        if let Some(r) = row.iter().position(|&v| v < 0) {
            return Err(invalid(format!(
                "acceleration of starting rank {} in round {} is negative",
                p + 1,
                r + 1
            )));
        }
    }
    Ok(())
}

/// The size of group GA (C.04.5.1, "Initial groups division"): the first half of the players,
/// rounded up to an even number — 2·⌈n/4⌉ (161 players: 82).
pub fn baku_group_a_size(players: usize) -> usize {
    2 * players.div_ceil(4)
}

/// The number of accelerated rounds: the first half (rounded up) of the tournament's rounds
/// (C.04.5.1, "Virtual points").
pub fn baku_accelerated_rounds(rounds: u32) -> u32 {
    rounds.div_ceil(2)
}

/// The virtual points of a GA player when round `round` (1-based) is paired, in half points
/// (C.04.5.1, "Virtual points"): 1 point in the first half (rounded up) of the accelerated
/// rounds, ½ in the other accelerated rounds, none afterwards.
pub fn baku_round_points(rounds: u32, round: u32) -> i32 {
    let accelerated = baku_accelerated_rounds(rounds);
    match round {
        0 => 0,
        r if r <= accelerated.div_ceil(2) => 2,
        r if r <= accelerated => 1,
        _ => 0,
    }
}

/// The virtual points (half points) of each of `players` players, in pairing-number order, when
/// round `round` of a `rounds`-round tournament is paired: the GA players get
/// [`baku_round_points`], the GB players none (C.04.5.1).
pub fn baku_virtual_points(players: usize, rounds: u32, round: u32) -> Vec<i32> {
    let ga = baku_group_a_size(players);
    let points = baku_round_points(rounds, round);
    (0..players)
        .map(|i| if i < ga { points } else { 0 })
        .collect()
}

/// The players of round 1's pairing list, in pairing-number order: those paired in round 1, or,
/// before round 1 is paired, those to be paired.
fn round_one_list(t: &Tournament, round: u32, to_pair: &dyn Fn(PlayerNo) -> bool) -> Vec<PlayerNo> {
    (0..t.player_count() as PlayerNo)
        .filter(|&p| {
            if round == 1 {
                to_pair(p)
            } else {
                paired_entry(t.card(p)[0])
            }
        })
        .collect()
}

/// The Baku virtual points of every player for rounds 1..=`round` (table of [`Acceleration`]).
/// GA is split from round 1's pairing list; a late entry joins GA when its pairing number comes
/// before the last GA player's, who stays the same (C.04.5.1, "Late entries").
pub(super) fn baku_table(
    t: &Tournament,
    round: u32,
    to_pair: &dyn Fn(PlayerNo) -> bool,
) -> Vec<Vec<i32>> {
    let list = round_one_list(t, round, to_pair);
    let ga = baku_group_a_size(list.len());
    let last_ga = list.get(ga.min(list.len()).wrapping_sub(1)).copied();
    let rounds = t.round_count();
    let in_ga = |p: PlayerNo| last_ga.is_some_and(|last| p <= last);
    (0..t.player_count() as PlayerNo)
        .map(|p| {
            (1..=round)
                .map(|r| {
                    if in_ga(p) {
                        baku_round_points(rounds, r)
                    } else {
                        0
                    }
                })
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn group_a_is_the_first_half_rounded_up_to_an_even_number() {
        assert_eq!(baku_group_a_size(161), 82);
        assert_eq!(baku_group_a_size(160), 80);
        assert_eq!(baku_group_a_size(42), 22);
        assert_eq!(baku_group_a_size(1), 2);
        assert_eq!(baku_group_a_size(0), 0);
    }

    #[test]
    fn nine_rounds_accelerate_five_one_point_in_three_half_in_two() {
        assert_eq!(baku_accelerated_rounds(9), 5);
        let points: Vec<i32> = (1..=9).map(|r| baku_round_points(9, r)).collect();
        assert_eq!(points, vec![2, 2, 2, 1, 1, 0, 0, 0, 0]);
        let points: Vec<i32> = (1..=7).map(|r| baku_round_points(7, r)).collect();
        assert_eq!(points, vec![2, 2, 1, 1, 0, 0, 0]);
        let points: Vec<i32> = (1..=8).map(|r| baku_round_points(8, r)).collect();
        assert_eq!(points, vec![2, 2, 1, 1, 0, 0, 0, 0]);
        assert_eq!(baku_round_points(1, 1), 2);
        assert_eq!(baku_round_points(9, 0), 0);
    }

    #[test]
    fn only_group_a_gets_virtual_points() {
        let v = baku_virtual_points(161, 9, 1);
        assert_eq!(v.len(), 161);
        assert!(v[..82].iter().all(|&x| x == 2));
        assert!(v[82..].iter().all(|&x| x == 0));
        assert!(baku_virtual_points(161, 9, 4)[..82].iter().all(|&x| x == 1));
        assert!(baku_virtual_points(161, 9, 6).iter().all(|&x| x == 0));
    }

    #[test]
    fn a_late_entry_before_the_last_ga_player_joins_ga() {
        use crate::tournament::{GameKind, Outcome};
        // 8 players, player 1 absent in round 1: round 1's list has 7, GA = 4 players (0, 2,
        // 3, 4), the last GA player is 4; in round 2 player 1 ranks before it and is in GA
        // (C.04.5.1, "Late entries").
        let mut t = Tournament::new(5, vec![None; 8]).unwrap();
        for (w, b) in [(0, 3), (4, 2), (5, 7)] {
            t.add_game(1, w, b, Outcome::Draw, GameKind::Played)
                .unwrap();
        }
        let before_round_one =
            baku_table(&Tournament::new(5, vec![None; 8]).unwrap(), 1, &|p| p != 1);
        let ga: Vec<bool> = before_round_one.iter().map(|r| r[0] > 0).collect();
        // Player 1 is not paired in round 1; GA ends at player 4, not 3.
        assert_eq!(ga, [true, true, true, true, true, false, false, false]);
        let table = baku_table(&t, 2, &|_| true);
        let ga: Vec<bool> = table.iter().map(|r| r[1] > 0).collect();
        assert_eq!(ga, [true, true, true, true, true, false, false, false]);
        assert_eq!(table[0], vec![2, 2]);
    }

    #[test]
    fn a_table_is_read_with_zeroes_for_missing_entries() {
        let table = vec![vec![2, 1], vec![]];
        let a = Acceleration::new(&table);
        assert_eq!(a.points(0, 1), 2);
        assert_eq!(a.points(0, 2), 1);
        assert_eq!(a.points(0, 3), 0);
        assert_eq!(a.points(1, 1), 0);
        assert_eq!(a.points(5, 1), 0);
        assert_eq!(a.points(0, 0), 0);
        assert!(check_table(&table, 2, 2).is_ok());
        assert!(check_table(&table, 1, 2).is_err());
        assert!(check_table(&table, 2, 1).is_err());
        assert!(check_table(&[vec![-1]], 1, 1).is_err());
    }
}
