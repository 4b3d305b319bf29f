//! Trigger functions that only the installed SQL of earlier releases names. A C symbol that a
//! released install or update script names stays in the library (`CREATE EXTENSION ... VERSION
//! '<old>'` and the updates from it load it), so these symbols never go; their bodies serve a
//! database not yet updated and could become a refusal once the versions named are no longer
//! served.

use pgrx::prelude::*;
use pgrx::{AllocatedByRust, PgSqlErrorCode};

use crate::restore::restoring;
use crate::tournament::triggers::{check_row, refresh_row, Fired};
use crate::trigger::{trigger_function, writing};

/// The table of a trigger of the multi-table functions of 0.1-0.7, by its name.
fn fired_on(table: &str, function: &str) -> Fired {
    match table {
        "swiss_tournaments" => Fired::Tournament,
        "tournaments_players" => Fired::Registration,
        "tournaments_games" => Fired::TournamentGame,
        "byes" => Fired::Bye,
        "service_games" => Fired::ServiceGame,
        other => crate::error::internal(format!("{function}() fired on {other}")),
    }
}

/// The trigger function of schemas 0.1.0-0.7.0 for the BEFORE triggers of the four tournament
/// tables (0.8.0 has one per table): its body can go after 0.7.0, its symbol never.
fn check_tournament_row<'a>(
    trigger: &'a PgTrigger<'a>,
) -> Result<Option<PgHeapTuple<'a, AllocatedByRust>>, PgTriggerError> {
    let table = fired_on(&trigger.table_name()?, "check_tournament_row");
    check_row(trigger, table)
}
trigger_function!(
    check_tournament_row,
    check_tournament_row_wrapper,
    pg_finfo_check_tournament_row_wrapper,
    [
        "swiss_tournaments",
        "tournaments_players",
        "tournaments_games",
        "byes"
    ]
);

/// The trigger function of schemas 0.1.0-0.7.0 for the AFTER triggers of the tournament tables
/// and service_games (0.8.0 has one per table): its body can go after 0.7.0, its symbol never.
fn refresh_tournament_standings<'a>(
    trigger: &'a PgTrigger<'a>,
) -> Result<Option<PgHeapTuple<'a, AllocatedByPostgres>>, PgTriggerError> {
    let table = fired_on(&trigger.table_name()?, "refresh_tournament_standings");
    refresh_row(trigger, table)
}
trigger_function!(
    refresh_tournament_standings,
    refresh_tournament_standings_wrapper,
    pg_finfo_refresh_tournament_standings_wrapper,
    [
        "swiss_tournaments",
        "tournaments_players",
        "tournaments_games",
        "byes",
        "service_games"
    ]
);

/// The history's guard of schemas 0.1.0-0.2.0 (0.3.0 has `refuse_foreign_write`): a database not
/// yet updated keeps its history closed to other writers. Its body can go after 0.2.0, its
/// symbol never.
fn check_elo_history_entry<'a>(
    trigger: &'a PgTrigger<'a>,
) -> Result<Option<PgHeapTuple<'a, AllocatedByPostgres>>, PgTriggerError> {
    if writing() || restoring() {
        return Ok(trigger.new());
    }
    crate::error::raise(
        PgSqlErrorCode::ERRCODE_INSUFFICIENT_PRIVILEGE,
        "permission denied: elo_history is written only by pg_rating's triggers (and this database awaits \
         ALTER EXTENSION pg_rating UPDATE)",
    )
}
trigger_function!(
    check_only check_elo_history_entry,
    check_elo_history_entry_wrapper,
    pg_finfo_check_elo_history_entry_wrapper,
    ["elo_history"]
);
