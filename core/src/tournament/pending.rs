//! What a pairing writes into an application's table of games to be played
//! (`tournament_pair_into`): one row per board, then one for the bye, as JSON records whose keys
//! are the table's columns (the glue checks the columns exist and inserts each batch with
//! `jsonb_populate_recordset`, naming only its rows' columns so that the others take their
//! defaults).

use serde_json::{Map, Value};

use super::pairing::{RowPairing, RowsError};
use super::tables::need;
use crate::error::ErrorClass;

fn invalid(message: String) -> RowsError {
    RowsError {
        class: ErrorClass::InvalidParameter,
        message,
    }
}

/// The rows of a pairing: the boards (White, Black) numbered from 1, then the bye (no Black).
pub fn board_rows<T>(
    boards: impl IntoIterator<Item = (T, T)>,
    bye: Option<T>,
) -> Vec<(i32, T, Option<T>)> {
    let mut rows: Vec<(i32, T, Option<T>)> = boards
        .into_iter()
        .enumerate()
        .map(|(i, (w, b))| (i as i32 + 1, w, Some(b)))
        .collect();
    if let Some(p) = bye {
        rows.push((rows.len() as i32 + 1, p, None));
    }
    rows
}

/// The values of a `pending_values` or `pending_bye_values` argument (`what`, its JSON text):
/// an object of column names and values; 22023 for anything else.
pub fn values_of(text: &str, what: &str) -> Result<Map<String, Value>, RowsError> {
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(map)) => Ok(map),
        _ => Err(invalid(format!(
            "{what} must be a JSON object of column names and values"
        ))),
    }
}

/// The statement that inserts a batch of records (`$1`, a jsonb array) into `target` (its
/// quoted name), naming only `columns` (the batch's keys, each quoted by `quote`) so that the
/// others take their defaults.
pub fn insert_statement<'c>(
    target: &str,
    columns: impl IntoIterator<Item = &'c String>,
    quote: impl Fn(&str) -> String,
) -> String {
    let quoted: Vec<String> = columns.into_iter().map(|c| quote(c)).collect();
    let from: Vec<String> = quoted.iter().map(|c| format!("r.{c}")).collect();
    format!(
        "INSERT INTO {target} ({}) SELECT {} \
         FROM pg_catalog.jsonb_populate_recordset(NULL::{target}, $1) r",
        quoted.join(", "),
        from.join(", ")
    )
}

/// The columns of the pending table the pairing writes: White, Black, and optionally the round
/// and the board.
#[derive(Clone, Copy, Debug)]
pub struct PendingColumns<'a> {
    pub white: &'a str,
    pub black: &'a str,
    pub round: Option<&'a str>,
    pub board: Option<&'a str>,
}

impl<'a> PendingColumns<'a> {
    /// The columns of the `pending_*_column` arguments: 22004 for a NULL White or Black.
    pub fn of_args(
        white: Option<&'a str>,
        black: Option<&'a str>,
        round: Option<&'a str>,
        board: Option<&'a str>,
    ) -> Result<Self, RowsError> {
        Ok(PendingColumns {
            white: need(white, "pending_white_column")?,
            black: need(black, "pending_black_column")?,
            round,
            board,
        })
    }

    /// The columns given, each with the argument that names it, in the arguments' order.
    pub fn named(&self) -> Vec<(&'static str, &'a str)> {
        [
            ("pending_white_column", Some(self.white)),
            ("pending_black_column", Some(self.black)),
            ("pending_round_column", self.round),
            ("pending_board_column", self.board),
        ]
        .into_iter()
        .filter_map(|(what, c)| c.map(|c| (what, c)))
        .collect()
    }

    /// 22023 when `values` or `bye_values` set a column the pairing writes.
    pub fn check_values(
        &self,
        values: &Map<String, Value>,
        bye_values: &Map<String, Value>,
    ) -> Result<(), RowsError> {
        let written = self.named();
        match values
            .keys()
            .chain(bye_values.keys())
            .find(|k| written.iter().any(|(_, c)| c == k))
        {
            Some(c) => Err(invalid(format!(
                "pending values: column \"{c}\" is written with the pairing (white, black, round or board)"
            ))),
            None => Ok(()),
        }
    }

    /// The records of `pairing`: the boards', then the bye's (empty when there is none). Each
    /// holds `values` (a bye's `bye_values` too), then the pairing's columns.
    pub fn records(
        &self,
        pairing: &RowPairing,
        values: &Map<String, Value>,
        bye_values: &Map<String, Value>,
    ) -> [Vec<Map<String, Value>>; 2] {
        let (mut games, mut byes) = (Vec::new(), Vec::new());
        for (board, white, black) in board_rows(pairing.boards.clone(), pairing.bye.clone()) {
            let mut r = values.clone();
            if black.is_none() {
                r.extend(bye_values.clone());
            }
            r.insert(self.white.into(), white.into());
            r.insert(self.black.into(), black.map_or(Value::Null, Value::from));
            if let Some(c) = self.round {
                r.insert(c.into(), pairing.round.into());
            }
            if let Some(c) = self.board {
                r.insert(c.into(), board.into());
            }
            // (a bye's row is the one whose Black is null as written)
            if r.get(self.black).is_some_and(Value::is_null) {
                byes.push(r)
            } else {
                games.push(r)
            }
        }
        [games, byes]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_batch_is_inserted_naming_only_its_columns() {
        let columns = ["white".to_string(), "Round".to_string()];
        let quote = |c: &str| format!("<{c}>");
        assert_eq!(
            insert_statement("s.\"pending\"", &columns, quote),
            "INSERT INTO s.\"pending\" (<white>, <Round>) SELECT r.<white>, r.<Round> \
             FROM pg_catalog.jsonb_populate_recordset(NULL::s.\"pending\", $1) r"
        );
    }
    use serde_json::json;

    const COLUMNS: PendingColumns<'static> = PendingColumns {
        white: "w",
        black: "b",
        round: Some("r"),
        board: None,
    };

    fn map(v: Value) -> Map<String, Value> {
        match v {
            Value::Object(m) => m,
            _ => unreachable!(),
        }
    }

    #[test]
    fn boards_then_the_bye() {
        let rows = board_rows([(1, 2), (3, 4)], Some(5));
        assert_eq!(rows, [(1, 1, Some(2)), (2, 3, Some(4)), (3, 5, None)]);
        assert_eq!(board_rows([(1, 2)], None), [(1, 1, Some(2))]);
    }

    #[test]
    fn values_are_an_object() {
        assert_eq!(values_of(r#"{"a": 1}"#, "x"), Ok(map(json!({"a": 1}))));
        let e = values_of("[1]", "pending_values").unwrap_err();
        assert_eq!(e.class, ErrorClass::InvalidParameter);
        assert_eq!(
            e.message,
            "pending_values must be a JSON object of column names and values"
        );
    }

    #[test]
    fn white_and_black_must_be_given() {
        let c = PendingColumns::of_args(Some("w"), Some("b"), Some("r"), None).unwrap();
        assert_eq!(c.named(), COLUMNS.named());
        let e = PendingColumns::of_args(None, None, None, None).unwrap_err();
        assert_eq!(e.class, ErrorClass::NullValue);
        assert_eq!(e.message, "pending_white_column must not be NULL");
        let e = PendingColumns::of_args(Some("w"), None, None, None).unwrap_err();
        assert_eq!(e.message, "pending_black_column must not be NULL");
    }

    #[test]
    fn the_pairing_writes_its_own_columns() {
        assert_eq!(
            COLUMNS.named(),
            [
                ("pending_white_column", "w"),
                ("pending_black_column", "b"),
                ("pending_round_column", "r")
            ]
        );
        assert!(COLUMNS
            .check_values(&map(json!({"x": 1})), &Map::new())
            .is_ok());
        let e = COLUMNS
            .check_values(&Map::new(), &map(json!({"x": 1, "r": 2})))
            .unwrap_err();
        assert_eq!(
            e.message,
            "pending values: column \"r\" is written with the pairing (white, black, round or board)"
        );
    }

    #[test]
    fn records_of_the_boards_then_the_bye() {
        let pairing = RowPairing {
            round: 3,
            boards: vec![("a".into(), "b".into())],
            bye: Some("c".into()),
        };
        let columns = PendingColumns {
            board: Some("n"),
            ..COLUMNS
        };
        let [games, byes] =
            columns.records(&pairing, &map(json!({"t": 7})), &map(json!({"points": 1})));
        assert_eq!(
            games,
            [map(json!({"t": 7, "w": "a", "b": "b", "r": 3, "n": 1}))]
        );
        assert_eq!(
            byes,
            [map(
                json!({"t": 7, "points": 1, "w": "c", "b": null, "r": 3, "n": 2})
            )]
        );
    }
}
