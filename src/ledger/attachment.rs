//! How a ledger reads its games table: the attached columns and the statements built from them
//! are the core's (`pg_rating_core::ledger::attachment`); here what they need of the catalog,
//! gathered before the core builds them, and the types and arguments checked when a ledger is
//! attached.

use pg_rating_core::ledger::attachment::{self, KeyKind};
pub use pg_rating_core::ledger::attachment::{GameRow, Multiplayer, ParticipantRow, Read};
use pg_rating_core::ledger::results::{MapValue, ResultMap};
use pgrx::prelude::*;
use pgrx::PgSqlErrorCode;
use serde_json::Value;

use crate::error::raise;

pub type Attachment = attachment::Attachment<pg_sys::Oid>;
pub type ResolvedJoin = attachment::ResolvedJoin<pg_sys::Oid>;
pub type Resolved = attachment::Resolved<pg_sys::Oid>;

/// The schema-qualified, quoted name of `table`, the games table of ledger `ledger` (gathered
/// before the core builds a statement): 42P01 for a dropped table.
pub fn games_name(table: pg_sys::Oid, ledger: i32) -> String {
    match crate::relation::quoted_name(table) {
        Some((Some(schema), name)) => format!("{schema}.{name}"),
        _ => raise(
            PgSqlErrorCode::ERRCODE_UNDEFINED_TABLE,
            format!("the games table of ledger {ledger} no longer exists"),
        ),
    }
}

/// How a key column of type `t` is compared.
pub fn key_kind(t: pg_sys::Oid) -> KeyKind {
    if is_integer(t) {
        KeyKind::Integer
    } else if t == pg_sys::UUIDOID {
        KeyKind::Uuid
    } else {
        KeyKind::Text
    }
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
    let text = crate::types::jsonb_text(&map);
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

/// A result map (jsonb) as the library's [`ResultMap`]: 22023 for anything but an object, and for
/// a meaning the library refuses.
pub fn parse_result_map(map: &Value) -> ResultMap {
    let Value::Object(entries) = map else {
        raise(
            PgSqlErrorCode::ERRCODE_INVALID_PARAMETER_VALUE,
            "result_map must be a JSON object of result values and their meaning",
        )
    };
    let entries = entries.iter().map(|(value, meaning)| {
        let v = match meaning {
            // (serde_json reads every number of a jsonb as a finite double: result_map_arg)
            Value::Number(n) => n.as_f64().map_or(MapValue::Other, MapValue::Number),
            Value::String(s) => MapValue::Text(s.clone()),
            _ => MapValue::Other,
        };
        (value.clone(), v, meaning.to_string())
    });
    ResultMap::new(entries).unwrap_or_else(|e| crate::error::raise_core(&e))
}
