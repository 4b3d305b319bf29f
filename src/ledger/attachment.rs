//! How a ledger reads its games table: the attached columns, checked once at attach time, and the
//! statements built from them. The table is read as its owner in a security-restricted context
//! (its filter is the owner's SQL, never run with the extension owner's rights).

use pg_rating_core::ledger::{integer_key, integer_key_id, LedgerKey, MultiplayerRule, Outcome};
use pgrx::prelude::*;
use pgrx::PgSqlErrorCode;
use serde_json::Value;

use crate::error::raise;

/// What a result value of the games table means.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Meaning {
    Rated(Outcome),
    Unrated,
}

/// A ledger's games table and its columns (a `ledger_attachments` row).
#[derive(Clone, Debug)]
pub struct Attachment {
    pub ledger_id: i32,
    pub table: pg_sys::Oid,
    /// The table's owner, whose rights every read of the table runs with.
    pub owner: pg_sys::Oid,
    pub key_column: String,
    pub key_type: pg_sys::Oid,
    pub date_column: String,
    pub white_column: String,
    pub black_column: String,
    pub result_column: String,
    pub result_map: Option<serde_json::Map<String, Value>>,
    pub scope_column: Option<String>,
    pub filter: Option<String>,
    /// A table of participants (one row per player per game) instead of one row per game.
    pub multiplayer: Option<Multiplayer>,
}

/// How a participants table is read: the player, the placement (lower is better unless
/// `higher_is_better`: a score) and the rule.
#[derive(Clone, Debug)]
pub struct Multiplayer {
    pub player_column: String,
    pub placement_column: String,
    pub higher_is_better: bool,
    pub rule: MultiplayerRule,
}

/// A participant's row as the ledger reads it.
#[derive(Clone, Debug, PartialEq)]
pub struct ParticipantRow {
    pub scope: String,
    pub key: LedgerKey,
    pub player: String,
    /// `None` when the row is not rated (filtered out, or no placement yet).
    pub placement: Option<f64>,
}

/// A changed or replayed row of the games table as the ledger reads it.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRow {
    pub scope: String,
    pub key: LedgerKey,
    pub white: Option<String>,
    pub black: Option<String>,
    /// `None` when the row is not rated (filtered out, no result yet, or mapped to "unrated").
    pub outcome: Option<Outcome>,
}

/// The columns of a scope: one name, or several separated by commas.
pub fn scope_columns(list: &str) -> Vec<&str> {
    list.split(',').map(str::trim).collect()
}

pub fn quote(ident: &str) -> String {
    spi::quote_identifier(ident)
}

fn is_integer(t: pg_sys::Oid) -> bool {
    [pg_sys::INT2OID, pg_sys::INT4OID, pg_sys::INT8OID].contains(&t)
}

/// Key types whose text order (bytewise) is their own order, or that are integers.
pub fn key_type_supported(t: pg_sys::Oid) -> bool {
    is_integer(t) || [pg_sys::TEXTOID, pg_sys::VARCHAROID, pg_sys::UUIDOID].contains(&t)
}

pub fn date_type_supported(t: pg_sys::Oid) -> bool {
    [
        pg_sys::TIMESTAMPTZOID,
        pg_sys::TIMESTAMPOID,
        pg_sys::DATEOID,
    ]
    .contains(&t)
}

pub fn score_type_supported(t: pg_sys::Oid) -> bool {
    is_integer(t) || [pg_sys::NUMERICOID, pg_sys::FLOAT4OID, pg_sys::FLOAT8OID].contains(&t)
}

/// A `result_map` argument (jsonb) as JSON: 22023 for a number beyond what a score can be (`1e400`:
/// read as a double, it would be infinite), rather than pgrx's internal error while reading it.
pub fn result_map_arg(map: pgrx::AnyElement) -> pgrx::JsonB {
    // SAFETY: the argument is a non-NULL jsonb (the function's declared type).
    let text: &std::ffi::CStr = unsafe {
        pgrx::direct_function_call(pg_sys::jsonb_out, &[Some(map.datum())])
            .unwrap_or_else(|| crate::error::internal("jsonb_out gave NULL"))
    };
    let text = text.to_string_lossy();
    match serde_json::from_str(&text) {
        Ok(v) => pgrx::JsonB(v),
        Err(e) => raise(
            PgSqlErrorCode::ERRCODE_INVALID_PARAMETER_VALUE,
            format!(
                "result_map {}: {}, not a score in [0, 1]",
                pg_rating_core::error::Quoted(&text),
                // (serde_json says where: "number out of range at line 1 column 11")
                e.to_string().split(" at line").next().unwrap_or_default()
            ),
        ),
    }
}

/// The meaning of each value of a result map; 22023 for anything else.
pub fn parse_result_map(map: &Value) -> serde_json::Map<String, Value> {
    let Value::Object(entries) = map else {
        raise(
            PgSqlErrorCode::ERRCODE_INVALID_PARAMETER_VALUE,
            "result_map must be a JSON object of result values and their meaning",
        )
    };
    for (value, meaning) in entries {
        if meaning_of(meaning).is_none() {
            raise(
                PgSqlErrorCode::ERRCODE_INVALID_PARAMETER_VALUE,
                format!(
                    "result_map: \"{value}\" maps to {meaning}, not to a score in [0, 1], \"unrated\" or \"double_loss\""
                ),
            );
        }
    }
    entries.clone()
}

fn meaning_of(v: &Value) -> Option<Meaning> {
    match v {
        Value::Number(n) => n
            .as_f64()
            .filter(|s| (0.0..=1.0).contains(s))
            .map(|s| Meaning::Rated(Outcome::White(s))),
        Value::String(s) if s == "unrated" => Some(Meaning::Unrated),
        Value::String(s) if s == "double_loss" => Some(Meaning::Rated(Outcome::DoubleLoss)),
        _ => None,
    }
}

impl Attachment {
    pub fn table_name(&self) -> String {
        // SAFETY: catalog lookups by oid; NULL (a dropped table) is checked.
        let (schema, name) = unsafe {
            let name = pg_sys::get_rel_name(self.table);
            let schema = pg_sys::get_namespace_name(pg_sys::get_rel_namespace(self.table));
            if name.is_null() || schema.is_null() {
                raise(
                    PgSqlErrorCode::ERRCODE_UNDEFINED_TABLE,
                    format!(
                        "the games table of ledger {} no longer exists",
                        self.ledger_id
                    ),
                );
            }
            (
                std::ffi::CStr::from_ptr(schema)
                    .to_string_lossy()
                    .into_owned(),
                std::ffi::CStr::from_ptr(name)
                    .to_string_lossy()
                    .into_owned(),
            )
        };
        format!("{}.{}", quote(&schema), quote(&name))
    }

    /// The scope of a row as text: one column's text, or the row of several columns
    /// (`scope_column` lists them separated by commas), '' without a scope.
    fn scope_expr(&self) -> String {
        let Some(columns) = &self.scope_column else {
            return "''".into();
        };
        let columns = scope_columns(columns);
        match columns.as_slice() {
            [one] => format!("coalesce(g.{}::text, '')", quote(one)),
            many => format!(
                "ROW({})::text",
                many.iter()
                    .map(|c| format!("g.{}", quote(c)))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }

    fn date_expr(&self) -> String {
        format!("g.{}::timestamptz", quote(&self.date_column))
    }

    /// The columns every read selects: scope, played_at, key, white, black, result, counted
    /// (a participants table: scope, played_at, key, player, placement, counted).
    fn columns(&self) -> String {
        let counted = match &self.filter {
            Some(f) => format!("coalesce(({f}), false)"),
            None => "true".into(),
        };
        if let Some(m) = &self.multiplayer {
            let sign = if m.higher_is_better { "-" } else { "" };
            return format!(
                "{} AS scope, {} AS played_at, g.{}::text AS key, g.{}::text AS player, \
                 {sign}(g.{}::float8) AS placement, {counted} AS counted",
                self.scope_expr(),
                self.date_expr(),
                quote(&self.key_column),
                quote(&m.player_column),
                quote(&m.placement_column),
            );
        }
        format!(
            "{} AS scope, {} AS played_at, g.{}::text AS key, g.{}::text AS white, g.{}::text AS black, \
             g.{}::text AS result, {counted} AS counted",
            self.scope_expr(),
            self.date_expr(),
            quote(&self.key_column),
            quote(&self.white_column),
            quote(&self.black_column),
            quote(&self.result_column),
        )
    }

    /// Every row of a transition table (`pg_rating_new` / `pg_rating_old`).
    pub fn changed_rows_query(&self, transition: &str) -> String {
        format!("SELECT {} FROM {transition} g", self.columns())
    }

    /// The rows of one scope from a key on ($1 scope, $2 date, $3 key as the column's text).
    pub fn rows_from_query(&self) -> String {
        let key = format!("g.{}", quote(&self.key_column));
        let key_cmp = if is_integer(self.key_type) {
            format!("{key} >= $3::bigint")
        } else if self.key_type == pg_sys::UUIDOID {
            format!("{key} >= $3::uuid")
        } else {
            format!("{key} COLLATE \"C\" >= $3")
        };
        format!(
            "SELECT {} FROM {} g WHERE {} = $1 AND {d} >= $2 AND ({d} > $2 OR {key_cmp})",
            self.columns(),
            self.table_name(),
            self.scope_expr(),
            d = self.date_expr()
        )
    }

    /// Every row of the table.
    pub fn all_rows_query(&self) -> String {
        format!("SELECT {} FROM {} g", self.columns(), self.table_name())
    }

    /// The ledger's text of a key (integers written so that their text order is their order).
    /// 42804 for a key that is not an integer in a column attached as one: its type was changed
    /// since (to `numeric`, say) and the ledger cannot order its games by it.
    pub fn ledger_key_id(&self, text: &str) -> String {
        if is_integer(self.key_type) {
            let id: i64 = text.parse().unwrap_or_else(|_| {
                raise(
                    PgSqlErrorCode::ERRCODE_DATATYPE_MISMATCH,
                    format!(
                        "ledger {}: the key {} of column \"{}\" of {} is not an integer: the \
                         column was attached as an integer key and its type changed since; a key \
                         column must be smallint, integer, bigint, text, varchar or uuid \
                         (change it back, or detach the ledger and attach it again)",
                        self.ledger_id,
                        pg_rating_core::error::Quoted(text),
                        self.key_column,
                        self.table_name()
                    ),
                )
            });
            integer_key(id)
        } else {
            text.to_owned()
        }
    }

    /// The column's text of a ledger key (the inverse of [`Attachment::ledger_key_id`]).
    pub fn column_key_text(&self, id: &str) -> String {
        if is_integer(self.key_type) {
            integer_key_id(id)
                .unwrap_or_else(|| crate::ledger::internal(format!("key {id}")))
                .to_string()
        } else {
            id.to_owned()
        }
    }

    /// What a result value means; `None` for a NULL result (the game is not over: not rated).
    pub fn meaning(&self, key: &str, result: Option<&str>) -> Meaning {
        let Some(result) = result else {
            return Meaning::Unrated;
        };
        match &self.result_map {
            Some(map) => map.get(result).and_then(meaning_of).unwrap_or_else(|| {
                raise(
                    PgSqlErrorCode::ERRCODE_INVALID_PARAMETER_VALUE,
                    format!(
                        "game {key}: the result {} is not in the ledger's result_map",
                        pg_rating_core::error::Quoted(result)
                    ),
                )
            }),
            None => match result.parse::<f64>() {
                Ok(s) if (0.0..=1.0).contains(&s) => Meaning::Rated(Outcome::White(s)),
                _ => raise(
                    PgSqlErrorCode::ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
                    format!("game {key}: the score {result} is not in [0, 1]"),
                ),
            },
        }
    }
}
