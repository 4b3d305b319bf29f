//! What the arguments of the pairing functions mean, decided once for the SQL functions that
//! take them: the forbidden pairs, an application's result map and its result values, the round
//! asked for. The glue turns SQL values into these inputs and reports the errors.

use crate::error::{ErrorClass, Quoted};
use crate::tournament::pairing::{PairingOptions, PairingSystem, RowResult, RowsError};
use crate::tournament::tables::system_arg;
use crate::tournament::{initial_colour, virtual_points, PlayerNo, Tournament};

fn invalid(message: String) -> RowsError {
    RowsError {
        class: ErrorClass::InvalidParameter,
        message,
    }
}

/// Forbidden pairs listed two players after another (`ARRAY[[a, b], [c, d]]` reads as a, b, c,
/// d), each player turned into a pairing number by `number` (its error message for an unknown
/// one): 22023 for an odd count, 22004 for a NULL, 22023 for a player paired with themselves or
/// an unknown player.
pub fn forbidden_pairs<T: std::fmt::Display + PartialEq>(
    listed: &[Option<T>],
    number: impl Fn(&T) -> Result<PlayerNo, String>,
) -> Result<Vec<(PlayerNo, PlayerNo)>, RowsError> {
    if listed.len() % 2 == 1 {
        return Err(invalid(format!(
            "forbidden_pairs lists pairs of players: an even number of them, not {}",
            listed.len()
        )));
    }
    let players = listed
        .iter()
        .map(|p| {
            p.as_ref().ok_or_else(|| RowsError {
                class: ErrorClass::NullValue,
                message: "forbidden_pairs must not contain NULL".into(),
            })
        })
        .collect::<Result<Vec<&T>, _>>()?;
    players
        .chunks(2)
        .map(|pair| {
            if pair[0] == pair[1] {
                return Err(invalid(format!(
                    "forbidden_pairs: {} is paired with themselves",
                    pair[0]
                )));
            }
            Ok((
                number(pair[0]).map_err(invalid)?,
                number(pair[1]).map_err(invalid)?,
            ))
        })
        .collect()
}

/// Forbidden pairs of a TRF's `players` by starting rank, as [`forbidden_pairs`] reads them:
/// 22023 for a rank no player has (1 to `players`).
pub fn forbidden_ranks(
    listed: &[Option<i32>],
    players: usize,
) -> Result<Vec<(PlayerNo, PlayerNo)>, RowsError> {
    forbidden_pairs(listed, |&rank| {
        if rank >= 1 && rank as usize <= players {
            Ok(rank as PlayerNo - 1)
        } else {
            Err(format!(
                "forbidden_pairs: no player has starting rank {rank} (1 to {players})"
            ))
        }
    })
}

/// An application's result map: each value of its result column and what it means.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ResultMap(Vec<(String, RowResult)>);

impl ResultMap {
    /// The map of a `result_map` argument, a JSON object of result values and their meaning:
    /// numbers are White's score (1, 0.5, 0), strings name a meaning ([`RowResult::named`]),
    /// null is a game still to be played; 22023 for anything else.
    pub fn from_json(map: &serde_json::Value) -> Result<ResultMap, RowsError> {
        use serde_json::Value;
        let Value::Object(entries) = map else {
            return Err(invalid(
                "result_map must be a JSON object of result values and their meaning".into(),
            ));
        };
        entries
            .iter()
            .map(|(value, meaning)| {
                let m = match meaning {
                    Value::Number(n) => n.as_f64().and_then(RowResult::score),
                    Value::String(s) => RowResult::named(s),
                    Value::Null => Some(RowResult::Pending),
                    _ => None,
                };
                m.map(|m| (value.clone(), m)).ok_or_else(|| {
                    invalid(format!(
                        "result_map: \"{value}\" maps to {meaning}, not to White's score (1, 0.5, 0), \
                         \"+-\", \"-+\", \"bye\", \"full_bye\", \"half_bye\", \"zero_bye\" or null (no result yet)"
                    ))
                })
            })
            .collect::<Result<_, _>>()
            .map(ResultMap)
    }
}

/// What the result `value` of a game of `round` means: by `map` when the application gives one,
/// else a standard value ([`RowResult::standard`]); NULL is a game still to be played. 22023
/// for a value neither knows.
pub fn row_result(
    value: Option<&str>,
    map: Option<&ResultMap>,
    round: i64,
) -> Result<RowResult, RowsError> {
    let Some(v) = value else {
        return Ok(RowResult::Pending);
    };
    match map {
        Some(map) => map
            .0
            .iter()
            .find(|(k, _)| k == v)
            .map(|(_, m)| *m)
            .ok_or_else(|| {
                invalid(format!(
                    "a game of round {round}: the result {} is not in result_map",
                    Quoted(v)
                ))
            }),
        None => RowResult::standard(v).ok_or_else(|| {
            invalid(format!(
                "a game of round {round}: the result {} is not 1-0, 0-1, 1/2-1/2, +-, -+ or bye \
                 (a result_map says what an application's values mean)",
                Quoted(v)
            ))
        }),
    }
}

/// Whether `requested` (when given) is the round `next` the pairing is for: 55000 for a round
/// already paired, 22023 for a later one. `of` names the tournament in the message (" of
/// tournament 7").
pub fn check_round(requested: Option<i64>, next: u32, of: &str) -> Result<(), RowsError> {
    match requested {
        Some(r) if r < i64::from(next) => Err(RowsError {
            class: ErrorClass::PrerequisiteState,
            message: format!("round {r}{of} is already paired: its games exist"),
        }),
        Some(r) if r > i64::from(next) => Err(invalid(format!(
            "round {r}{of} cannot be paired before round {next}"
        ))),
        _ => Ok(()),
    }
}

/// The arbiter's choices of a pairing as the SQL functions that pair by player id take them.
#[derive(Clone, Debug, Default)]
pub struct Choices {
    pub system: PairingSystem,
    pub forbidden_pairs: Vec<Option<String>>,
    /// The `virtual_points` argument's JSON text ([`virtual_points::from_json`]); `None`: none.
    pub virtual_points: Option<String>,
    pub first_colour_white: Option<bool>,
    pub baku_acceleration: bool,
}

impl Choices {
    /// The choices of `tournament_pair_round`, checked in the order they are evaluated:
    /// `baku_acceleration` (22004 for NULL), then the system ([`system_arg`]).
    pub fn of_round(
        baku_acceleration: Option<bool>,
        system: Option<&str>,
        forbidden_pairs: Option<Vec<Option<String>>>,
        virtual_points: Option<String>,
        first_colour_white: Option<bool>,
    ) -> Result<Choices, RowsError> {
        let baku_acceleration = baku_acceleration.ok_or_else(|| RowsError {
            class: ErrorClass::NullValue,
            message: "baku_acceleration must be true or false, not NULL".into(),
        })?;
        Ok(Choices {
            system: system_arg(system)?,
            forbidden_pairs: forbidden_pairs.unwrap_or_default(),
            virtual_points,
            first_colour_white,
            baku_acceleration,
        })
    }

    /// The options of a pairing of `t`: each player id turned into its pairing number by
    /// `number` (`None`: no such player, "{argument}: {id} {unknown}"), each number named by
    /// `name`; the forbidden pairs read first, then the virtual points, and the top seed's
    /// colour as given or as the rounds show it ([`initial_colour::first_colour_white`]).
    pub fn options(
        self,
        t: &Tournament,
        number: impl Fn(&str) -> Option<PlayerNo>,
        name: impl Fn(PlayerNo) -> String,
        unknown: &str,
    ) -> Result<PairingOptions, RowsError> {
        let number_of = |argument: &str, id: &str| {
            number(id).ok_or_else(|| format!("{argument}: {id} {unknown}"))
        };
        let forbidden_pairs =
            forbidden_pairs(&self.forbidden_pairs, |id| number_of("forbidden_pairs", id))?;
        let acceleration = match &self.virtual_points {
            None => Vec::new(),
            Some(text) => virtual_points::from_json(
                text,
                t.player_count(),
                t.round_count(),
                |id| number_of("virtual_points", id),
                name,
            )
            .map_err(|e| RowsError {
                class: crate::error::Classified::class(&e),
                message: e.message,
            })?,
        };
        Ok(PairingOptions {
            first_colour_white: initial_colour::first_colour_white(t, self.first_colour_white),
            acceleration,
            baku_acceleration: self.baku_acceleration,
            forbidden_pairs,
            system: self.system,
            ..PairingOptions::default()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::ByeKind;

    fn numbers(p: &&str) -> Result<PlayerNo, String> {
        match *p {
            "a" => Ok(0),
            "b" => Ok(1),
            "c" => Ok(2),
            other => Err(format!("forbidden_pairs: {other} is not in the players")),
        }
    }

    #[test]
    fn a_rounds_choices_refuse_a_null_acceleration_before_the_system() {
        let c = Choices::of_round(Some(true), Some("burstein"), None, None, Some(false)).unwrap();
        assert!(c.baku_acceleration && c.forbidden_pairs.is_empty());
        assert_eq!(c.system, PairingSystem::from_name("burstein").unwrap());
        assert_eq!(c.first_colour_white, Some(false));
        let e = Choices::of_round(None, None, None, None, None).unwrap_err();
        assert_eq!(e.class, ErrorClass::NullValue);
        assert_eq!(
            e.message,
            "baku_acceleration must be true or false, not NULL"
        );
        let e = Choices::of_round(Some(false), None, None, None, None).unwrap_err();
        assert_eq!(e.message, "system must be 'dutch' or 'burstein', not NULL");
        let e = Choices::of_round(Some(false), Some("x"), None, None, None).unwrap_err();
        assert_eq!(e.class, ErrorClass::InvalidParameter);
    }

    #[test]
    fn forbidden_ranks_are_starting_ranks_of_the_players() {
        assert_eq!(
            forbidden_ranks(&[Some(1), Some(3)], 3).unwrap(),
            vec![(0, 2)]
        );
        for rank in [0, 4, -1] {
            let e = forbidden_ranks(&[Some(1), Some(rank)], 3).unwrap_err();
            assert_eq!(e.class, ErrorClass::InvalidParameter);
            assert_eq!(
                e.message,
                format!("forbidden_pairs: no player has starting rank {rank} (1 to 3)")
            );
        }
        let e = forbidden_ranks(&[Some(2), Some(2)], 3).unwrap_err();
        assert_eq!(e.message, "forbidden_pairs: 2 is paired with themselves");
    }

    #[test]
    fn forbidden_pairs_are_read_two_by_two() {
        assert_eq!(
            forbidden_pairs(&[Some("a"), Some("b"), Some("c"), Some("a")], numbers).unwrap(),
            vec![(0, 1), (2, 0)]
        );
        assert_eq!(forbidden_pairs::<&str>(&[], numbers).unwrap(), vec![]);
    }

    #[test]
    fn forbidden_pairs_refuse_odd_lists_self_pairs_and_strangers() {
        let e = forbidden_pairs(&[Some("a"), None, Some("c")], numbers).unwrap_err();
        assert_eq!(e.class, ErrorClass::InvalidParameter);
        assert_eq!(
            e.message,
            "forbidden_pairs lists pairs of players: an even number of them, not 3"
        );
        let e = forbidden_pairs(&[Some("a"), None], numbers).unwrap_err();
        assert_eq!(e.class, ErrorClass::NullValue);
        assert_eq!(e.message, "forbidden_pairs must not contain NULL");
        let e = forbidden_pairs(&[Some("a"), Some("a")], numbers).unwrap_err();
        assert_eq!(e.message, "forbidden_pairs: a is paired with themselves");
        let e = forbidden_pairs(&[Some("a"), Some("z")], numbers).unwrap_err();
        assert_eq!(e.message, "forbidden_pairs: z is not in the players");
        assert_eq!(e.class, ErrorClass::InvalidParameter);
    }

    fn map() -> ResultMap {
        let m = r#"{"W": 1, "D": 0.5, "F": "+-", "H": "half_bye", "?": null}"#;
        ResultMap::from_json(&serde_json::from_str(m).unwrap()).unwrap()
    }

    #[test]
    fn a_result_map_gives_each_value_its_meaning() {
        let m = map();
        let r = |v| row_result(Some(v), Some(&m), 1).unwrap();
        assert_eq!(r("W"), RowResult::White(2));
        assert_eq!(r("D"), RowResult::White(1));
        assert_eq!(r("F"), RowResult::WhiteForfeitWin);
        assert_eq!(r("H"), RowResult::Bye(ByeKind::Half));
        assert_eq!(r("?"), RowResult::Pending);
        assert_eq!(row_result(None, Some(&m), 1).unwrap(), RowResult::Pending);
        let e = row_result(Some("1-0"), Some(&m), 3).unwrap_err();
        assert_eq!(e.class, ErrorClass::InvalidParameter);
        assert_eq!(
            e.message,
            "a game of round 3: the result \"1-0\" is not in result_map"
        );
    }

    #[test]
    fn a_result_map_refuses_meanings_it_does_not_know() {
        for shown in ["0.25", "\"win\"", "[1]", "true"] {
            let map = serde_json::from_str(&format!("{{\"x\": {shown}}}")).unwrap();
            let e = ResultMap::from_json(&map).unwrap_err();
            assert_eq!(e.class, ErrorClass::InvalidParameter);
            assert_eq!(
                e.message,
                format!(
                    "result_map: \"x\" maps to {shown}, not to White's score (1, 0.5, 0), \
                     \"+-\", \"-+\", \"bye\", \"full_bye\", \"half_bye\", \"zero_bye\" or null (no result yet)"
                )
            );
        }
    }

    #[test]
    fn a_result_map_is_an_object() {
        let e = ResultMap::from_json(&serde_json::Value::from(1)).unwrap_err();
        assert_eq!(e.class, ErrorClass::InvalidParameter);
        assert_eq!(
            e.message,
            "result_map must be a JSON object of result values and their meaning"
        );
    }

    #[test]
    fn without_a_map_the_standard_values_are_read() {
        assert_eq!(
            row_result(Some("1/2-1/2"), None, 1).unwrap(),
            RowResult::White(1)
        );
        assert_eq!(row_result(None, None, 1).unwrap(), RowResult::Pending);
        let e = row_result(Some("win"), None, 2).unwrap_err();
        assert_eq!(
            e.message,
            "a game of round 2: the result \"win\" is not 1-0, 0-1, 1/2-1/2, +-, -+ or bye \
             (a result_map says what an application's values mean)"
        );
    }

    #[test]
    fn the_round_asked_for_must_be_the_next() {
        assert!(check_round(None, 3, "").is_ok());
        assert!(check_round(Some(3), 3, "").is_ok());
        let e = check_round(Some(2), 3, " of tournament 7").unwrap_err();
        assert_eq!(e.class, ErrorClass::PrerequisiteState);
        assert_eq!(
            e.message,
            "round 2 of tournament 7 is already paired: its games exist"
        );
        let e = check_round(Some(5), 3, " of tournament 7").unwrap_err();
        assert_eq!(e.class, ErrorClass::InvalidParameter);
        assert_eq!(
            e.message,
            "round 5 of tournament 7 cannot be paired before round 3"
        );
    }

    #[test]
    fn choices_name_players_by_id() {
        let t = Tournament::new(3, vec![None; 3]).unwrap();
        let ids = ["a", "b", "c"];
        let number = |id: &str| ids.iter().position(|i| *i == id).map(|p| p as PlayerNo);
        let name = |p: PlayerNo| ids[p as usize].to_owned();
        let choices = Choices {
            forbidden_pairs: vec![Some("a".into()), Some("c".into())],
            virtual_points: Some(r#"{"b": [1]}"#.into()),
            baku_acceleration: true,
            ..Choices::default()
        };
        let o = choices
            .clone()
            .options(&t, number, name, "is not here")
            .unwrap();
        assert_eq!(o.forbidden_pairs, [(0, 2)]);
        assert_eq!(o.acceleration, [vec![], vec![2], vec![]]);
        assert!(o.baku_acceleration && o.first_colour_white);
        let unknown = |c: Choices| c.options(&t, number, name, "is not here").unwrap_err();
        let e = unknown(Choices {
            forbidden_pairs: vec![Some("a".into()), Some("z".into())],
            ..choices.clone()
        });
        assert_eq!(e.message, "forbidden_pairs: z is not here");
        let e = unknown(Choices {
            virtual_points: Some(r#"{"z": [1]}"#.into()),
            ..choices
        });
        assert_eq!(
            (e.class, e.message.as_str()),
            (
                ErrorClass::InvalidParameter,
                "virtual_points: z is not here"
            )
        );
    }
}
