//! The rules of `elo_history` for writers other than pg_rating's own triggers (whose entries are
//! valid by construction): an entry pairs a game with a ranking it counts in, belongs to one of
//! the game's players, and follows an earlier entry of the same account and ranking.

use pgrx::prelude::*;
use pgrx::PgSqlErrorCode;

use crate::accounts::field;
use crate::error::raise;
use crate::restore::restoring;

fn show<T: ToString>(value: &Option<T>) -> String {
    value.as_ref().map_or_else(|| "NULL".into(), T::to_string)
}

fn reject(message: String) -> ! {
    raise(
        PgSqlErrorCode::ERRCODE_CHECK_VIOLATION,
        format!("elo_history entry rejected: {message}"),
    )
}

fn spi_failed(e: pgrx::spi::SpiError) -> ! {
    raise(PgSqlErrorCode::ERRCODE_INTERNAL_ERROR, e.to_string())
}

/// BEFORE INSERT OR UPDATE ON elo_history.
#[pg_trigger]
pub fn check_elo_history_entry<'a>(
    trigger: &'a PgTrigger<'a>,
) -> Result<Option<PgHeapTuple<'a, AllocatedByPostgres>>, PgTriggerError> {
    let new = trigger
        .new()
        .expect("row trigger on INSERT or UPDATE has a new row");
    if super::writing_history() || restoring() {
        return Ok(Some(new));
    }
    let id: Option<i32> = field(&new, "id");
    let game: Option<i32> = field(&new, "game_id");
    let ranking: Option<i32> = field(&new, "ranking_id");
    let player: Option<String> = field(&new, "user_id_in_service");
    let previous: Option<i32> = field(&new, "previous_entry");
    let date: Option<TimestampWithTimeZone> = field(&new, "game_date");
    // No pinned search_path on this function (it runs for every entry the triggers write):
    // the tables are qualified with the table's own schema instead.
    let schema = spi::quote_identifier(
        trigger
            .table_schema()
            .unwrap_or_else(|e| raise(PgSqlErrorCode::ERRCODE_INTERNAL_ERROR, e.to_string())),
    );
    let (counts, played, follows) = Spi::get_three_with_args::<bool, bool, bool>(
        &format!(
            "SELECT EXISTS (SELECT 1 FROM {schema}.games_rankings WHERE game_id = $1 AND ranking_id = $2),
                    EXISTS (SELECT 1 FROM {schema}.service_games WHERE id = $1 AND $3 IN (white_player, black_player)),
                    $4 IS NULL OR EXISTS (
                        SELECT 1 FROM {schema}.elo_history p
                        WHERE p.id = $4 AND p.service_id = 1 AND p.user_id_in_service = $3 AND p.ranking_id = $2
                          AND (p.game_date, p.game_id) < ($5, $1))"
        ),
        &[
            game.into(),
            ranking.into(),
            player.clone().into(),
            previous.into(),
            date.into(),
        ],
    )
    .unwrap_or_else(|e| spi_failed(e));
    if counts != Some(true) {
        reject(format!(
            "game {} does not count in ranking {} (not in games_rankings)",
            show(&game),
            show(&ranking)
        ));
    }
    if played != Some(true) {
        reject(format!("account {} did not play game {}", show(&player), show(&game)));
    }
    if follows != Some(true) {
        reject(format!(
            "previous_entry {} is not an earlier entry of account {} in ranking {}",
            show(&previous),
            show(&player),
            show(&ranking)
        ));
    }
    if let Some(old) = trigger.old() {
        let moved = field::<String>(&old, "user_id_in_service") != player
            || field::<i32>(&old, "ranking_id") != ranking;
        let followed = moved
            && Spi::get_one_with_args::<bool>(
                &format!("SELECT EXISTS (SELECT 1 FROM {schema}.elo_history WHERE previous_entry = $1)"),
                &[id.into()],
            )
            .unwrap_or_else(|e| spi_failed(e))
                == Some(true);
        if followed {
            reject(format!(
                "entry {} is the previous_entry of a later entry: its account and ranking cannot change",
                show(&id)
            ));
        }
    }
    Ok(Some(new))
}
