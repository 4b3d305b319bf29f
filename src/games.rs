//! Rules of `service_games` (sql/random_chess/02_games.sql has the tables and views): a game, once recorded,
//! is not deleted, and what decides its ratings does not change.

use pgrx::prelude::*;
use pgrx::PgSqlErrorCode;

use pg_rating_core::clock::Clock;

use crate::error::raise;
use crate::trigger::trigger_function;
use crate::trigger::{field, row_of, stored};
use crate::types::read_clock;

/// Clocks compare as PostgreSQL compares intervals ('1 day' equals '24 hours'); an unset
/// clock equals no clock.
fn same_clock(a: Option<Clock>, b: Option<Clock>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => {
            a.starting_time.cmp(&b.starting_time).is_eq()
                && a.move_increase.cmp(&b.move_increase).is_eq()
        }
        _ => false,
    }
}

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

/// BEFORE UPDATE ON service_games.
fn prevent_service_game_modification<'a>(
    trigger: &'a PgTrigger<'a>,
) -> Result<Option<PgHeapTuple<'a, AllocatedByPostgres>>, PgTriggerError> {
    let old = row_of(trigger.old());
    let new = row_of(trigger.new());
    let id: i32 = stored(&old, "id");
    let mut changed = Vec::new();
    if end_type_of(&old) != end_type_of(&new) {
        changed.push("result type");
    }
    if !same_clock(clock_of(&old), clock_of(&new)) {
        changed.push("clock");
    }
    if field::<&str>(&old, "white_player") != field::<&str>(&new, "white_player")
        || field::<&str>(&old, "black_player") != field::<&str>(&new, "black_player")
    {
        changed.push("players");
    }
    if field::<i32>(&old, "service_id") != field::<i32>(&new, "service_id") {
        changed.push("service");
    }
    if field::<bool>(&old, "is_ranked") != field::<bool>(&new, "is_ranked") {
        changed.push("is_ranked");
    }
    if !changed.is_empty() {
        raise(
            PgSqlErrorCode::ERRCODE_RESTRICT_VIOLATION,
            format!(
                "the {} of service game {id} cannot change",
                changed.join(", ")
            ),
        );
    }
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
    raise(
        PgSqlErrorCode::ERRCODE_RESTRICT_VIOLATION,
        format!(
            "service game {id} cannot be deleted: games are kept for the rankings and tournaments"
        ),
    )
}
trigger_function!(
    prevent_service_game_deletion,
    prevent_service_game_deletion_wrapper,
    pg_finfo_prevent_service_game_deletion_wrapper,
    ["service_games"]
);
