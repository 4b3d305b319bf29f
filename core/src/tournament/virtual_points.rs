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

/// The table of [`table`] from the `virtual_points` argument of the SQL functions, a JSON object
/// of players and their virtual points per round (C.04.5; `{"a": [1, 1, 0.5]}`): each player
/// turned into a pairing number by `number` (an error message for an unknown one) and named by
/// `name`. 22023 for anything but an object of arrays of numbers, an unknown player, and what
/// [`table`] refuses.
pub fn from_json(
    text: &str,
    players: usize,
    rounds: u32,
    number: impl Fn(&str) -> Result<PlayerNo, String>,
    name: impl Fn(PlayerNo) -> String,
) -> Result<Vec<Vec<i32>>, PairingError> {
    use serde_json::Value;
    let shape =
        "virtual_points must be a JSON object of players and their virtual points per round \
                 ({\"a\": [1, 1, 0.5]})";
    let map = match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(map)) => map,
        Ok(_) => return Err(invalid(shape.into())),
        // (serde_json says where: "number out of range at line 1 column 11")
        Err(e) => {
            return Err(invalid(format!(
                "virtual_points {}: {}",
                crate::error::Quoted(text),
                e.to_string().split(" at line").next().unwrap_or_default()
            )))
        }
    };
    let mut given = Vec::with_capacity(map.len());
    for (player, points) in &map {
        let no = number(player).map_err(invalid)?;
        let Value::Array(points) = points else {
            return Err(invalid(format!(
                "virtual_points of {player}: {points} is not an array of points per round"
            )));
        };
        let points = points
            .iter()
            .map(|v| {
                v.as_f64().ok_or_else(|| {
                    invalid(format!(
                        "virtual_points of {player}: {v} is not a number of points"
                    ))
                })
            })
            .collect::<Result<Vec<f64>, _>>()?;
        given.push((no, points));
    }
    table(players, rounds, &given, name)
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
        assert_eq!(t, vec![Vec::<i32>::new(), vec![]]);
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

    #[test]
    fn the_json_argument_names_players_by_id() {
        let number = |id: &str| -> Result<PlayerNo, String> {
            match id {
                "a" => Ok(0),
                "b" => Ok(1),
                _ => Err(format!("virtual_points: {id} is not in the players")),
            }
        };
        let from = |text: &str| from_json(text, 2, 3, number, name);
        assert_eq!(
            from(r#"{"b": [1, 0.5], "a": []}"#),
            Ok(vec![vec![], vec![2, 1]])
        );
        let message = |text: &str| {
            let e = from(text).unwrap_err();
            assert_eq!(e.kind, PairingErrorKind::InvalidOption);
            e.message
        };
        assert_eq!(
            message("[1]"),
            "virtual_points must be a JSON object of players and their virtual points per round ({\"a\": [1, 1, 0.5]})"
        );
        assert_eq!(
            message(r#"{"a": 1e400}"#),
            r#"virtual_points "{"a": 1e400}": number out of range"#
        );
        assert_eq!(
            message(r#"{"c": [1]}"#),
            "virtual_points: c is not in the players"
        );
        assert_eq!(
            message(r#"{"a": 1}"#),
            "virtual_points of a: 1 is not an array of points per round"
        );
        assert_eq!(
            message(r#"{"a": ["x"]}"#),
            r#"virtual_points of a: "x" is not a number of points"#
        );
        assert_eq!(
            message(r#"{"a": [1, 1, 1, 1]}"#),
            "virtual_points of #1 list 4 rounds, the tournament has 3"
        );
    }
}
