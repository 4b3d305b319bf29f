//! How a ledger reads its games table: the attached columns and the statements built from them
//! are the core's (`pg_rating_core::ledger::attachment`); here what they need of the catalog,
//! gathered before the core builds them, and the types and arguments checked when a ledger is
//! attached.

use pg_rating_core::ledger::attachment::{self, KeyKind};
pub use pg_rating_core::ledger::attachment::{GameRow, Multiplayer, ParticipantRow, Read};
use pg_rating_core::ledger::results::ResultMap;
use pgrx::prelude::*;
use pgrx::PgSqlErrorCode;

use crate::error::{raise, raise_core};

pub type Attachment = attachment::Attachment<pg_sys::Oid>;
pub type ResolvedJoin = attachment::ResolvedJoin<pg_sys::Oid>;
pub type Resolved = attachment::Resolved<pg_sys::Oid>;

/// The schema-qualified, quoted name of `table`, the games table of ledger `ledger` (gathered
/// before the core builds a statement): 42P01 for a dropped table.
pub fn games_name(table: pg_sys::Oid, ledger: i32) -> String {
    match crate::relation::schema_and_name(table) {
        Some((Some(schema), name)) => pg_rating_core::quote::qualified(&schema, &name),
        _ => raise(
            PgSqlErrorCode::ERRCODE_UNDEFINED_TABLE,
            format!("the games table of ledger {ledger} no longer exists"),
        ),
    }
}

/// How a key column of type `t` is compared.
pub fn key_kind(t: pg_sys::Oid) -> KeyKind {
    KeyKind::of_type(t.to_u32())
}

/// 42804 unless the column of argument `what` has a type the ledger reads (`t`).
pub fn check_column_type(what: &str, t: pg_sys::Oid) {
    attachment::check_column_type(what, t.to_u32(), &super::store::type_name(t))
        .unwrap_or_else(|e| raise_core(&e));
}

/// A `result_map` argument (jsonb) as JSON: 22023 for a number beyond what a score can be (`1e400`:
/// read as a double, it would be infinite), rather than pgrx's internal error while reading it.
pub fn result_map_arg(map: pgrx::AnyElement) -> pgrx::JsonB {
    let text = crate::types::jsonb_text(&map);
    pgrx::JsonB(ResultMap::read_json(&text).unwrap_or_else(|e| raise_core(&e)))
}

/// A result map (jsonb) as the library's [`ResultMap`]: 22023 for anything but an object, and for
/// a meaning the library refuses.
pub fn parse_result_map(map: &serde_json::Value) -> ResultMap {
    ResultMap::from_json(map).unwrap_or_else(|e| raise_core(&e))
}
