//! The rows an INSERT added to `service_games`, read from its transition table directly: planning
//! an SQL query over the transition table would cost more than rating the game itself.

use pg_rating_core::ranking::window::ranked_local;
use pg_rating_core::ranking::{GameKey, ServiceGame};
use pgrx::prelude::*;
use pgrx::{PgSqlErrorCode, PgTupleDesc};

use crate::error::{raise, raise_core};
use crate::types::{read_clock, read_game_result};

fn attribute_numbers<const N: usize>(tupdesc: pg_sys::TupleDesc, names: [&str; N]) -> [usize; N] {
    // SAFETY: the relation's tuple descriptor, valid for the trigger call.
    let desc = unsafe { PgTupleDesc::from_pg_unchecked(tupdesc) };
    names.map(|name| {
        desc.iter()
            .position(|a| !a.is_dropped() && a.name() == name)
            .unwrap_or_else(|| {
                raise(
                    PgSqlErrorCode::ERRCODE_UNDEFINED_COLUMN,
                    format!("service_games has no column {name}"),
                )
            })
    })
}

/// The ranked local games among the rows of this statement's `inserted_games`, in key order,
/// their players' bot flags not yet set.
pub fn inserted_games(trigger: &PgTrigger<'_>) -> Vec<ServiceGame> {
    let data = trigger.trigger_data();
    let store = data.tg_newtable;
    if store.is_null() {
        return Vec::new();
    }
    // SAFETY: tg_relation and tg_newtable are valid while the trigger runs; the slot is ours and
    // dropped below; attribute numbers come from the same descriptor the slot uses.
    unsafe {
        let tupdesc = (*data.tg_relation).rd_att;
        let [id, date, white, black, result, clock, service, ranked] = attribute_numbers(
            tupdesc,
            [
                "id",
                "creation_date",
                "white_player",
                "black_player",
                "result",
                "clock",
                "service_id",
                "is_ranked",
            ],
        );
        let natts = (*tupdesc).natts;
        let slot = pg_sys::MakeSingleTupleTableSlot(tupdesc, &pg_sys::TTSOpsMinimalTuple);
        let reader = pg_sys::tuplestore_alloc_read_pointer(store, 0);
        pg_sys::tuplestore_select_read_pointer(store, reader);
        pg_sys::tuplestore_rescan(store);
        let mut games = Vec::new();
        while pg_sys::tuplestore_gettupleslot(store, true, false, slot) {
            if ((*slot).tts_nvalid as i32) < natts {
                pg_sys::slot_getsomeattrs_int(slot, natts);
            }
            let value = |at: usize| -> Option<pg_sys::Datum> {
                (!*(*slot).tts_isnull.add(at)).then(|| *(*slot).tts_values.add(at))
            };
            // (a NOT NULL column of the inserted row: an internal error, never a default)
            let stored = |at: usize, name: &str| {
                value(at).unwrap_or_else(|| {
                    crate::error::internal(format!("column {name} of an inserted game is NULL"))
                })
            };
            let service = value(service).map(|d| d.value() as i32);
            if !ranked_local(service, value(ranked).map(|d| d.value() != 0)) {
                continue;
            }
            let text = |at: usize, name: &str| {
                String::from_datum(stored(at, name), false)
                    .unwrap_or_else(|| crate::error::internal(format!("column {name} is not text")))
            };
            let result = PgHeapTuple::from_composite_datum(stored(result, "result"));
            let clock =
                value(clock).and_then(|d| read_clock(&PgHeapTuple::from_composite_datum(d)));
            let date = stored(date, "creation_date").value() as i64;
            let key = GameKey::rateable(date, stored(id, "id").value() as i32);
            let key = key.unwrap_or_else(|e| raise_core(&e));
            let players = (text(white, "white_player"), text(black, "black_player"));
            let end_type = read_game_result(&result).end_type();
            games.push(ServiceGame::ranked_local(
                key, players, end_type, clock, [false; 2],
            ));
        }
        pg_sys::ExecDropSingleTupleTableSlot(slot);
        games.sort_by_key(|g| g.key);
        games
    }
}
