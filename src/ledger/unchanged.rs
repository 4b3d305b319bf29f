//! A replay writes only the entries it changes. A backdated, corrected or deleted game replays its
//! scope from that game on, and most entries after it often come out as they were (players whose
//! games do not meet the changed one's): deleting and inserting them again cost the replay's time
//! and left as many dead rows (`ledger_entries` grew 37-fold in two minutes of backdated writes).
//! The replay's entries are read before it ([`LedgerStore::take_entries`]), and only those that
//! differ are deleted and written ([`LedgerStore::keep_unchanged`]), as a rebuild does
//! (`bulk_replace`).

use std::collections::HashMap;

use pg_rating_core::ledger::LedgerKey;
use pgrx::pg_sys;
use pgrx::prelude::*;
use pgrx::spi::SpiHeapTupleData;

use super::store::{micros, timestamp, LedgerStore};
use super::tables::EntryRow;
use crate::columns::{check_cells, Cell, Cells, Column, Kind};
use crate::error::internal;
use crate::spi::{nullable_at, ordinals};
use pg_rating_core::columns::Stored;
use pg_rating_core::ledger::rows::ENTRY_COLUMNS;

/// Column `name` of `row`, at `ordinal` (looked up once per result: by name, every value of a
/// thousand-row read would search the columns).
fn stored_at(row: &SpiHeapTupleData<'_>, ordinal: usize, (name, kind): Column) -> Stored {
    match kind {
        Kind::Float => Stored::Float(nullable_at::<f64>(row, ordinal).map(f64::to_bits)),
        Kind::Int => Stored::Int(nullable_at(row, ordinal)),
        Kind::Text => Stored::Text(nullable_at(row, ordinal)),
        Kind::Time => Stored::Time(
            nullable_at::<TimestampWithTimeZone>(row, ordinal)
                .map(micros)
                .unwrap_or_else(|| internal(format!("ledger_entries.{name} is NULL"))),
        ),
        Kind::Bytes | Kind::Decimal => {
            internal(format!("ledger_entries.{name}: no such column kind"))
        }
    }
}

/// An entry's key within its scope: (player, game date, game key).
type EntryKey = (String, i64, String);

/// A stored entry: its row id and values.
struct StoredEntry {
    row: pg_sys::ItemPointerData,
    values: Vec<Stored>,
}

/// The stored entries a replay of one (ledger, scope) may keep, by key.
#[derive(Default)]
pub(super) struct Taken(HashMap<(i32, String), HashMap<EntryKey, StoredEntry>>);

impl LedgerStore<'_, '_> {
    /// Reads the stored entries of `pairs` (player, game) of a scope, each by a probe of the
    /// primary key, and keeps them for [`Self::keep_unchanged`]; returns their players.
    pub(super) fn take_entries(
        &mut self,
        ledger: i32,
        scope: &str,
        pairs: &[(&str, &LedgerKey)],
    ) -> Vec<String> {
        let mut stored = HashMap::with_capacity(pairs.len());
        if !pairs.is_empty() {
            let players: Vec<&str> = pairs.iter().map(|p| p.0).collect();
            let dates: Vec<TimestampWithTimeZone> =
                pairs.iter().map(|p| timestamp(p.1.at)).collect();
            let keys: Vec<&str> = pairs.iter().map(|p| p.1.id.as_str()).collect();
            let rows = self.read(
                &format!(
                    "SELECT x.* FROM unnest($3::text[], $4::timestamptz[], $5::text[]) AS u(player, d, k)
                     CROSS JOIN LATERAL (
                         SELECT y.ctid AS row_id, {} FROM @extschema@.ledger_entries y
                         WHERE y.ledger_id = $1 AND y.scope = $2 AND y.player = u.player
                           AND y.game_date = u.d AND y.game_key = u.k LIMIT 1) x",
                    crate::columns::names(&ENTRY_COLUMNS)
                ),
                &[
                    ledger.into(),
                    scope.into(),
                    players.into(),
                    dates.into(),
                    keys.into(),
                ],
            );
            let row_id = ordinals(&rows, ["row_id"])[0];
            let at = ordinals(&rows, ENTRY_COLUMNS.map(|(name, _)| name));
            for r in rows {
                pg_rating_core::interrupt::check();
                let values: Vec<Stored> = ENTRY_COLUMNS
                    .iter()
                    .zip(at)
                    .map(|(&c, ordinal)| stored_at(&r, ordinal, c))
                    .collect();
                let key = match (&values[2], &values[3], &values[4]) {
                    (Stored::Text(Some(p)), Stored::Time(at), Stored::Text(Some(k))) => {
                        (p.clone(), *at, k.clone())
                    }
                    _ => internal("an entry without its player, date or key"),
                };
                let row = nullable_at::<pg_sys::ItemPointerData>(&r, row_id)
                    .unwrap_or_else(|| internal("an entry without its row id"));
                stored.insert(key, StoredEntry { row, values });
            }
        }
        let players = stored.keys().map(|(p, _, _)| p.clone()).collect();
        self.taken.0.insert((ledger, scope.to_owned()), stored);
        players
    }

    /// The replay's rows of a (ledger, scope) that differ from the entries taken for it: the
    /// taken entries that equal one of `rows` stay; the others are deleted now. Without taken
    /// entries (a statement's appended games), `rows` as they are.
    pub(super) fn keep_unchanged(
        &mut self,
        ledger: i32,
        scope: &str,
        rows: Vec<EntryRow>,
    ) -> Vec<EntryRow> {
        // (nothing taken: a statement's appended games, the hot path, allocate no key)
        if self.taken.0.is_empty() {
            return rows;
        }
        let Some(mut stored) = self.taken.0.remove(&(ledger, scope.to_owned())) else {
            return rows;
        };
        check_cells(&rows, &ENTRY_COLUMNS);
        let mut changed = Vec::with_capacity(rows.len());
        for row in rows {
            let cells = row.cells();
            let key = match (cells[2], cells[3], cells[4]) {
                (
                    ("player", Cell::Text(Some(p))),
                    ("game_date", Cell::Time(at)),
                    ("game_key", Cell::Text(Some(k))),
                ) => (p.to_owned(), at, k.to_owned()),
                _ => internal("an entry without its player, date or key"),
            };
            let same = stored
                .get(&key)
                .is_some_and(|e| e.values.iter().zip(&cells).all(|(s, (_, c))| s.is(c)));
            if same {
                stored.remove(&key);
            } else {
                changed.push(row);
            }
        }
        // (a changed entry's old row goes before the new one is inserted: the bulk insert
        // does not check the primary key) By row id: the rows were read under the scope's lock,
        // which every writer of them holds.
        let gone: Vec<pg_sys::ItemPointerData> = stored.into_values().map(|e| e.row).collect();
        if !gone.is_empty() {
            self.write(
                "DELETE FROM @extschema@.ledger_entries WHERE ctid = ANY ($1::tid[])",
                &[gone.into()],
            );
        }
        changed
    }
}
