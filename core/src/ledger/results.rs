//! What a result value of an attached games table means to its ledger: white's score in [0, 1]
//! given as a number, or the meaning a `result_map` gives the value's text (a score, "unrated" or
//! "double_loss"). A NULL result is a game not over yet: not rated.

use std::collections::HashMap;

use super::replay::Outcome;
use crate::error::Quoted;
use crate::rating::RatingError;

/// What a result value means.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Meaning {
    Rated(Outcome),
    Unrated,
}

/// A meaning of a `result_map` as its JSON gives it: the glue converts the JSON, the library
/// decides what it means.
#[derive(Clone, Debug, PartialEq)]
pub enum MapValue {
    Number(f64),
    Text(String),
    /// Anything else (null, a boolean, an array, an object).
    Other,
}

/// The meaning of a map's value; `None` for one that has none.
fn meaning_of(v: &MapValue) -> Option<Meaning> {
    match v {
        MapValue::Number(s) if (0.0..=1.0).contains(s) => Some(Meaning::Rated(Outcome::White(*s))),
        MapValue::Text(s) if s == "unrated" => Some(Meaning::Unrated),
        MapValue::Text(s) if s == "double_loss" => Some(Meaning::Rated(Outcome::DoubleLoss)),
        _ => None,
    }
}

/// A checked `result_map`: every result value's meaning.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ResultMap(HashMap<String, Meaning>);

impl ResultMap {
    /// The map of `(result value, meaning, the meaning as its JSON shows it)`; 22023 for a meaning
    /// that is not a score in [0, 1], "unrated" or "double_loss".
    pub fn new(
        entries: impl IntoIterator<Item = (String, MapValue, String)>,
    ) -> Result<Self, RatingError> {
        let mut map = HashMap::new();
        for (value, meaning, shown) in entries {
            let Some(m) = meaning_of(&meaning) else {
                return Err(RatingError::invalid(format!(
                    "result_map: \"{value}\" maps to {shown}, not to a score in [0, 1], \"unrated\" or \"double_loss\""
                )));
            };
            map.insert(value, m);
        }
        Ok(ResultMap(map))
    }

    /// A result map given as JSON: 22023 for anything but an object, and for a meaning
    /// [`Self::new`] refuses.
    pub fn from_json(map: &serde_json::Value) -> Result<Self, RatingError> {
        use serde_json::Value;
        let Value::Object(entries) = map else {
            return Err(RatingError::invalid(
                "result_map must be a JSON object of result values and their meaning",
            ));
        };
        Self::new(entries.iter().map(|(value, meaning)| {
            let v = match meaning {
                // (every number of a jsonb read by read_json is a finite double)
                Value::Number(n) => n.as_f64().map_or(MapValue::Other, MapValue::Number),
                Value::String(s) => MapValue::Text(s.clone()),
                _ => MapValue::Other,
            };
            (value.clone(), v, meaning.to_string())
        }))
    }

    /// A `result_map` argument's jsonb text read as JSON: 22023 for a number beyond what a score
    /// can be (`1e400`: read as a double, it would be infinite).
    pub fn read_json(text: &str) -> Result<serde_json::Value, RatingError> {
        serde_json::from_str(text).map_err(|e| {
            RatingError::invalid(format!(
                "result_map {}: {}, not a score in [0, 1]",
                Quoted(text),
                // (serde_json says where: "number out of range at line 1 column 11")
                e.to_string().split(" at line").next().unwrap_or_default()
            ))
        })
    }

    /// What the result `result` of game `game` means; 22023 for a value the map does not name.
    pub fn meaning(&self, game: &str, result: Option<&str>) -> Result<Meaning, RatingError> {
        let Some(result) = result else {
            return Ok(Meaning::Unrated);
        };
        self.0.get(result).copied().ok_or_else(|| {
            RatingError::invalid(format!(
                "game {game}: the result {} is not in the ledger's result_map",
                Quoted(result)
            ))
        })
    }
}

/// What a result means to a ledger: through its map if it has one, else as white's score (the
/// number's text); 22003 for a score outside [0, 1] (or not a number).
pub fn meaning(
    map: Option<&ResultMap>,
    game: &str,
    result: Option<&str>,
) -> Result<Meaning, RatingError> {
    if let Some(map) = map {
        return map.meaning(game, result);
    }
    let Some(result) = result else {
        return Ok(Meaning::Unrated);
    };
    match result.parse::<f64>() {
        Ok(s) if (0.0..=1.0).contains(&s) => Ok(Meaning::Rated(Outcome::White(s))),
        _ => Err(RatingError::out_of_range(format!(
            "game {game}: the score {result} is not in [0, 1]"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{Classified, ErrorClass};

    #[test]
    fn a_map_is_read_from_its_json() {
        let json =
            ResultMap::read_json(r#"{"1-0": 1, "draw": 0.5, "x": "unrated", "ff": "double_loss"}"#)
                .unwrap();
        let map = ResultMap::from_json(&json).unwrap();
        let meaning = |r| map.meaning("g", Some(r)).unwrap();
        assert_eq!(meaning("1-0"), Meaning::Rated(Outcome::White(1.0)));
        assert_eq!(meaning("draw"), Meaning::Rated(Outcome::White(0.5)));
        assert_eq!(meaning("x"), Meaning::Unrated);
        assert_eq!(meaning("ff"), Meaning::Rated(Outcome::DoubleLoss));
        let not_object = ResultMap::from_json(&serde_json::json!([1])).unwrap_err();
        assert_eq!(not_object.class(), ErrorClass::InvalidParameter);
        assert_eq!(
            not_object.message,
            "result_map must be a JSON object of result values and their meaning"
        );
        for bad in [
            r#"{"w": true}"#,
            r#"{"w": 2}"#,
            r#"{"w": null}"#,
            r#"{"w": "won"}"#,
        ] {
            let json = ResultMap::read_json(bad).unwrap();
            let e = ResultMap::from_json(&json).unwrap_err();
            assert!(
                e.message.contains("not to a score in [0, 1]"),
                "{bad}: {}",
                e.message
            );
        }
        let e = ResultMap::read_json(r#"{"1-0": 1e400}"#).unwrap_err();
        assert_eq!(e.class(), ErrorClass::InvalidParameter);
        assert_eq!(
            e.message,
            r#"result_map "{"1-0": 1e400}": number out of range, not a score in [0, 1]"#
        );
    }

    fn chess() -> ResultMap {
        ResultMap::new([
            ("1-0".into(), MapValue::Number(1.0), "1".into()),
            ("0-1".into(), MapValue::Number(0.0), "0".into()),
            ("1/2-1/2".into(), MapValue::Number(0.5), "0.5".into()),
            (
                "*".into(),
                MapValue::Text("unrated".into()),
                "\"unrated\"".into(),
            ),
            (
                "0-0".into(),
                MapValue::Text("double_loss".into()),
                "\"double_loss\"".into(),
            ),
        ])
        .unwrap()
    }

    #[test]
    fn a_map_gives_each_value_its_meaning() {
        let m = chess();
        assert_eq!(
            m.meaning("g1", Some("1-0")),
            Ok(Meaning::Rated(Outcome::White(1.0)))
        );
        assert_eq!(
            m.meaning("g1", Some("1/2-1/2")),
            Ok(Meaning::Rated(Outcome::White(0.5)))
        );
        assert_eq!(m.meaning("g1", Some("*")), Ok(Meaning::Unrated));
        assert_eq!(
            m.meaning("g1", Some("0-0")),
            Ok(Meaning::Rated(Outcome::DoubleLoss))
        );
        // a NULL result is a game not over: not rated, map or not
        assert_eq!(m.meaning("g1", None), Ok(Meaning::Unrated));
        let e = m.meaning("a4", Some("X")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "game a4: the result \"X\" is not in the ledger's result_map"
        );
        assert_eq!(e.class(), ErrorClass::InvalidParameter);
        // values are matched as written (no trimming, case kept)
        assert!(m.meaning("g", Some("1-0 ")).is_err());
    }

    #[test]
    fn a_map_refuses_meanings_it_cannot_rate() {
        for (meaning, shown) in [
            (MapValue::Number(2.0), "2"),
            (MapValue::Number(-0.5), "-0.5"),
            (MapValue::Number(f64::NAN), "NaN"),
            (MapValue::Text("win".into()), "\"win\""),
            (MapValue::Other, "null"),
        ] {
            let e = ResultMap::new([("1-0".into(), meaning, shown.into())]).unwrap_err();
            assert_eq!(
                e.to_string(),
                format!("result_map: \"1-0\" maps to {shown}, not to a score in [0, 1], \"unrated\" or \"double_loss\"")
            );
            assert_eq!(e.class(), ErrorClass::InvalidParameter);
        }
        // the ends of [0, 1] are scores
        assert!(ResultMap::new([("w".into(), MapValue::Number(0.0), "0".into())]).is_ok());
        assert!(ResultMap::new([("w".into(), MapValue::Number(1.0), "1".into())]).is_ok());
    }

    #[test]
    fn without_a_map_the_result_is_whites_score() {
        assert_eq!(
            meaning(None, "1", Some("1")),
            Ok(Meaning::Rated(Outcome::White(1.0)))
        );
        assert_eq!(
            meaning(None, "1", Some("0.5")),
            Ok(Meaning::Rated(Outcome::White(0.5)))
        );
        assert_eq!(
            meaning(None, "1", Some("0")),
            Ok(Meaning::Rated(Outcome::White(0.0)))
        );
        assert_eq!(meaning(None, "1", None), Ok(Meaning::Unrated));
        for bad in ["2", "-1", "NaN", "inf", "x", ""] {
            let e = meaning(None, "11", Some(bad)).unwrap_err();
            assert_eq!(
                e.to_string(),
                format!("game 11: the score {bad} is not in [0, 1]")
            );
            assert_eq!(e.class(), ErrorClass::OutOfRange);
        }
        // with a map, the map decides (a number it does not name is refused)
        assert!(meaning(Some(&chess()), "1", Some("1")).is_err());
    }
}
