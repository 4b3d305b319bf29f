//! Virtual points given by the arbiter (C.04.5, accelerated rounds): per player, the points added
//! to the score for pairing before each round, round 1 first, as a TRF's `XXA` lines give them.
//! The functions that pair an application's tables take them as `virtual_points`, by player id;
//! this turns them into the table of [`PairingOptions::acceleration`] (half points by pairing
//! number, then round).
//!
//! [`PairingOptions::acceleration`]: super::pairing::PairingOptions::acceleration

use super::pairing::{PairingError, PairingErrorKind};
use super::PlayerNo;

/// The most virtual points of one round: more than any round is worth, far from an overflow of
/// the pairing score (half points in `i32`, at most [`super::MAX_ROUNDS`] rounds).
pub const MAX_POINTS: f64 = 1000.0;

fn invalid(message: String) -> PairingError {
    PairingError {
        kind: PairingErrorKind::InvalidOption,
        message,
    }
}

/// `points` in half points: a whole or half number from 0 to [`MAX_POINTS`].
pub fn half_points(points: f64) -> Option<i32> {
    let half = points * 2.0;
    ((0.0..=2.0 * MAX_POINTS).contains(&half) && half.fract() == 0.0).then_some(half as i32)
}

/// The table of virtual points in half points by pairing number, then round, of a tournament of
/// `players` players and `rounds` rounds: `given` lists a player's number with their points per
/// round (round 1 first; a round not listed is 0), `name` says who a number is in an error.
/// 22023 for a player listed twice, more rounds than the tournament's, or points that are not a
/// whole or half number from 0 to [`MAX_POINTS`].
pub fn table(
    players: usize,
    rounds: u32,
    given: &[(PlayerNo, Vec<f64>)],
    name: impl Fn(PlayerNo) -> String,
) -> Result<Vec<Vec<i32>>, PairingError> {
    let mut table: Vec<Option<Vec<i32>>> = vec![None; players];
    for (k, (p, points)) in given.iter().enumerate() {
        if k % 1024 == 0 {
            crate::interrupt::check();
        }
        let slot = table
            .get_mut(*p as usize)
            .ok_or_else(|| invalid(format!("virtual_points: {} is not a player", name(*p))))?;
        if slot.is_some() {
            return Err(invalid(format!(
                "virtual_points: {} is listed twice",
                name(*p)
            )));
        }
        if points.len() > rounds as usize {
            return Err(invalid(format!(
                "virtual_points of {} list {} rounds, the tournament has {rounds}",
                name(*p),
                points.len()
            )));
        }
        let half = points
            .iter()
            .enumerate()
            .map(|(r, &v)| {
                half_points(v).ok_or_else(|| {
                    invalid(format!(
                        "virtual_points of {} in round {}: {v} is not a whole or half number of points from 0 to {MAX_POINTS}",
                        name(*p),
                        r + 1
                    ))
                })
            })
            .collect::<Result<Vec<i32>, _>>()?;
        *slot = Some(half);
    }
    // Nothing given is no table: the Burstein system then accelerates rounds 1 and 2 itself; any
    // player listed (even without points) replaces that, as an XXA line does in a TRF.
    if given.is_empty() {
        return Ok(Vec::new());
    }
    Ok(table.into_iter().map(Option::unwrap_or_default).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(p: PlayerNo) -> String {
        format!("#{}", p + 1)
    }

    #[test]
    fn points_become_half_points_by_number_then_round() {
        let t = table(4, 3, &[(2, vec![1.0, 0.5]), (0, vec![1.0])], name).unwrap();
        assert_eq!(t, vec![vec![2], vec![], vec![2, 1], vec![]]);
        assert_eq!(table(4, 3, &[], name).unwrap(), Vec::<Vec<i32>>::new());
    }

    #[test]
    fn a_player_listed_without_points_is_a_table_all_the_same() {
        // as an XXA line of zeros: virtual points given (none), not the system's own
        let t = table(2, 2, &[(0, vec![])], name).unwrap();
        assert_eq!(t, vec![vec![], vec![]]);
    }

    #[test]
    fn bad_values_are_invalid_options() {
        for bad in [-0.5, 0.3, f64::NAN, f64::INFINITY, 1000.5] {
            let e = table(2, 2, &[(0, vec![bad])], name).unwrap_err();
            assert_eq!(e.kind, PairingErrorKind::InvalidOption, "{bad}");
            assert!(e.message.contains("#1 in round 1"), "{}", e.message);
        }
        assert_eq!(half_points(1000.0), Some(2000));
        let e = table(2, 2, &[(1, vec![1.0, 1.0, 1.0])], name).unwrap_err();
        assert!(e.message.contains("list 3 rounds, the tournament has 2"));
        let e = table(2, 2, &[(1, vec![1.0]), (1, vec![0.5])], name).unwrap_err();
        assert!(e.message.contains("#2 is listed twice"));
        let e = table(2, 2, &[(5, vec![1.0])], name).unwrap_err();
        assert!(e.message.contains("#6 is not a player"));
    }
}
