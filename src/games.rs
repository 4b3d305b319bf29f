//! The triggers of `service_games` (sql/random_chess/02_games.sql has the tables and views): a
//! game, once recorded, is not deleted, and what decides its ratings does not change (the rule:
//! `pg_rating_core::ranking::recorded`).

use pgrx::prelude::*;

use pg_rating_core::clock::Clock;
use pg_rating_core::ranking::recorded::{deletion, RecordedGame};

use crate::error::raise_core;
use crate::trigger::trigger_function;
use crate::trigger::{field, row_of, stored};
use crate::types::read_clock;

fn clock_of(row: &PgHeapTuple<'_, impl pgrx::WhoAllocated>) -> Option<Clock> {
    let clock: PgHeapTuple<'_, AllocatedByRust> = field(row, "clock")?;
    read_clock(&clock)
}

fn end_type_of(row: &PgHeapTuple<'_, impl pgrx::WhoAllocated>) -> Option<String> {
    let result: PgHeapTuple<'_, AllocatedByRust> = field(row, "result")?;
    result
        .get_by_name::<&str>("game_end_type")
        .ok()
        .flatten()
        .map(str::to_owned)
}

/// What of a game may not change, as its row holds it.
fn recorded(row: &PgHeapTuple<'_, impl pgrx::WhoAllocated>) -> RecordedGame {
    let text = |name: &str| field::<&str>(row, name).map(str::to_owned);
    RecordedGame {
        end_type: end_type_of(row),
        clock: clock_of(row),
        white: text("white_player"),
        black: text("black_player"),
        service: field(row, "service_id"),
        ranked: field(row, "is_ranked"),
    }
}

/// BEFORE UPDATE ON service_games: what decides a game's ratings does not change (the core's
/// [`RecordedGame::changed_by`]).
fn prevent_service_game_modification<'a>(
    trigger: &'a PgTrigger<'a>,
) -> Result<Option<PgHeapTuple<'a, AllocatedByPostgres>>, PgTriggerError> {
    let old = row_of(trigger.old());
    let new = row_of(trigger.new());
    let id: i32 = stored(&old, "id");
    recorded(&old)
        .check_update(&recorded(&new), id)
        .unwrap_or_else(|e| raise_core(&e));
    Ok(Some(new))
}
trigger_function!(
    prevent_service_game_modification,
    prevent_service_game_modification_wrapper,
    pg_finfo_prevent_service_game_modification_wrapper,
    ["service_games"]
);

/// BEFORE DELETE ON service_games.
fn prevent_service_game_deletion<'a>(
    trigger: &'a PgTrigger<'a>,
) -> Result<Option<PgHeapTuple<'a, AllocatedByPostgres>>, PgTriggerError> {
    let old = row_of(trigger.old());
    let id: i32 = stored(&old, "id");
    raise_core(&deletion(id))
}
trigger_function!(
    prevent_service_game_deletion,
    prevent_service_game_deletion_wrapper,
    pg_finfo_prevent_service_game_deletion_wrapper,
    ["service_games"]
);
