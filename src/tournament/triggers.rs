//! The trigger entry points of the tournament tables: one trigger function per table and job
//! (`check_swiss_tournament`, ..., `refresh_standings_of_tournament`, ...), each row going to a
//! function of its own (the rules in `rules`, the standings in `refresh`). The two functions of
//! 0.1-0.7 that served several tables are in `crate::compat::triggers`.

use pg_rating_core::tournament::columns::Columns;
use pg_rating_core::tournament::{canonical_order, rules, PlayerNo};
use pgrx::prelude::*;
use pgrx::AllocatedByRust;

use super::refresh::{bye_changed, bye_kind, game_changed, move_last_round, rebuild, refresh_rows};
use super::rules::{
    check_bye as check_bye_rules, check_game, check_registration, check_tournament, text_field,
};
use super::store::{internal, TournamentStore};
use crate::error::raise_core;
use crate::restore::restoring;
use crate::spi::column;
use crate::trigger::field;
use crate::trigger::trigger_function;

type Row<'a> = PgHeapTuple<'a, AllocatedByPostgres>;

/// A NOT NULL column of a stored row (an AFTER trigger's, or the old row): an internal error,
/// never a default, when the row or the value is missing.
fn int(row: &Option<Row<'_>>, name: &str) -> i32 {
    crate::trigger::stored(row.as_ref().unwrap_or_else(|| internal("no row")), name)
}

/// A NOT NULL text column of a stored row, as [`int`].
fn txt(row: &Option<Row<'_>>, name: &str) -> String {
    crate::trigger::stored::<&str>(row.as_ref().unwrap_or_else(|| internal("no row")), name)
        .to_owned()
}

/// A column that may be NULL.
fn maybe_int(row: &Option<Row<'_>>, name: &str) -> Option<i32> {
    row.as_ref().and_then(|r| field::<i32>(r, name))
}

/// The table a tournament trigger fired on.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Fired {
    Tournament,
    Registration,
    TournamentGame,
    Bye,
    ServiceGame,
}

/// The rules of a row of a tournament table, BEFORE it is written. Not while restoring a dump.
pub(crate) fn check_row<'a>(
    trigger: &'a PgTrigger<'a>,
    table: Fired,
) -> Result<Option<PgHeapTuple<'a, AllocatedByRust>>, PgTriggerError> {
    let op = trigger.op()?;
    let row = crate::trigger::row_of(match op {
        PgTriggerOperation::Delete => trigger.old(),
        _ => trigger.new(),
    });
    let mut row = row.into_owned();
    if restoring() {
        return Ok(Some(row));
    }
    let old = trigger.old();
    match table {
        Fired::Tournament => canonical_tie_breaks(&mut row),
        Fired::Registration => check_registration_row(&op, &row),
        Fired::TournamentGame => check_game_row(&row, &old),
        Fired::Bye => check_bye_row(&row, &old),
        Fired::ServiceGame => internal("service games have no tournament check"),
    }
    Ok(Some(row))
}

/// One trigger function per table and job: `$name` (SQL `$name()`, C symbols `$symbol` and
/// `$finfo`) runs `$body` for the rows of `$table` only.
macro_rules! per_table {
    ($body:ident -> $out:ident: $($name:ident, $symbol:ident, $finfo:ident, $fired:ident, $table:literal;)+) => {$(
        fn $name<'a>(
            trigger: &'a PgTrigger<'a>,
        ) -> Result<Option<PgHeapTuple<'a, $out>>, PgTriggerError> {
            $body(trigger, Fired::$fired)
        }
        trigger_function!($name, $symbol, $finfo, [$table]);
    )+};
}

per_table! { check_row -> AllocatedByRust:
    check_swiss_tournament, check_swiss_tournament_wrapper, pg_finfo_check_swiss_tournament_wrapper, Tournament, "swiss_tournaments";
    check_tournament_player, check_tournament_player_wrapper, pg_finfo_check_tournament_player_wrapper, Registration, "tournaments_players";
    check_tournament_game, check_tournament_game_wrapper, pg_finfo_check_tournament_game_wrapper, TournamentGame, "tournaments_games";
    check_bye, check_bye_wrapper, pg_finfo_check_bye_wrapper, Bye, "byes";
}

/// A tournament's tie-break order is stored in its canonical spelling.
fn canonical_tie_breaks(row: &mut PgHeapTuple<'_, AllocatedByRust>) {
    let Some(order) = text_field(row, "tie_breaks") else {
        return; // NULL: the NOT NULL constraint reports it
    };
    let canonical = canonical_order(&order).unwrap_or_else(|e| raise_core(&e));
    if canonical != order {
        row.set_by_name("tie_breaks", canonical)
            .unwrap_or_else(|e| internal(e));
    }
}

/// A registration meets the tournament's requirements, is never changed, and leaves only
/// without games (taking its byes along).
fn check_registration_row(op: &PgTriggerOperation, row: &PgHeapTuple<'_, AllocatedByRust>) {
    // (a BEFORE trigger: a NULL here is reported by the NOT NULL constraint after it)
    let (Some(t), Some(user)) = (
        field::<i32>(row, "tournament_id"),
        text_field(row, "user_id_in_service"),
    ) else {
        return;
    };
    match op {
        PgTriggerOperation::Insert => Spi::connect_mut(|client| {
            let mut store = TournamentStore::new(client);
            if store.lock(t).is_some() {
                check_registration(&mut store, t, &user);
            }
        }),
        PgTriggerOperation::Update => raise_core(&rules::registration_change()),
        PgTriggerOperation::Delete => Spi::connect_mut(|client| {
            let mut store = TournamentStore::new(client);
            if store.lock(t).is_none() {
                return; // the tournament is being deleted
            }
            let game = store.first_row(
                "SELECT tg.game_id, tg.round FROM @extschema@.tournaments_games tg JOIN @extschema@.service_games g ON g.id = tg.game_id
                 WHERE tg.tournament_id = $1 AND $2 IN (g.white_player, g.black_player)
                 ORDER BY tg.round, tg.game_id LIMIT 1",
                &[t.into(), user.as_str().into()],
            );
            let game = game.map(|r| (r.int("game_id"), r.int("round")));
            rules::check_leave(t, &user, game).unwrap_or_else(|e| raise_core(&e));
            // the player's byes go first, each refreshing the standings
            store.query(
                "DELETE FROM @extschema@.byes WHERE tournament_id = $1 AND user_id_in_service = $2",
                &[t.into(), user.as_str().into()],
            );
        }),
        PgTriggerOperation::Truncate => {}
    }
}

fn check_game_row(row: &PgHeapTuple<'_, AllocatedByRust>, old: &Option<Row<'_>>) {
    // (a BEFORE trigger: a NULL of the new row is reported by the NOT NULL constraint after it;
    // the old row is stored, so NOT NULL)
    let was = old
        .as_ref()
        .map(|_| (int(old, "tournament_id"), int(old, "game_id")));
    let int = |name: &str| field::<i32>(row, name);
    let (Some(t), Some(g), Some(r)) = (int("tournament_id"), int("game_id"), int("round")) else {
        return;
    };
    Spi::connect_mut(|client| check_game(&mut TournamentStore::new(client), t, g, r, was));
}

fn check_bye_row(row: &PgHeapTuple<'_, AllocatedByRust>, old: &Option<Row<'_>>) {
    // (as in `check_game_row`)
    let was = old.as_ref().map(|_| {
        (
            int(old, "tournament_id"),
            int(old, "round"),
            txt(old, "user_id_in_service"),
        )
    });
    let (Some(t), Some(r), Some(user)) = (
        field::<i32>(row, "tournament_id"),
        field::<i32>(row, "round"),
        text_field(row, "user_id_in_service"),
    ) else {
        return;
    };
    Spi::connect_mut(|client| check_bye_rules(&mut TournamentStore::new(client), t, r, &user, was));
}

/// Keeps the standings current AFTER a row of a tournament table (or a tournament game's service
/// game) changed. Not while restoring a dump, which brings the derived rows back itself.
pub(crate) fn refresh_row<'a>(
    trigger: &'a PgTrigger<'a>,
    table: Fired,
) -> Result<Option<PgHeapTuple<'a, AllocatedByPostgres>>, PgTriggerError> {
    if restoring() {
        return Ok(None);
    }
    let op = trigger.op()?;
    let (old, new) = (trigger.old(), trigger.new());
    Spi::connect_mut(|client| {
        let store = &mut TournamentStore::new(client);
        match table {
            Fired::Tournament => tournament_changed(store, &op, &old, &new),
            Fired::Registration => registration_changed(store, &op, &old, &new),
            Fired::TournamentGame => tournament_game_changed(store, &op, &old, &new),
            Fired::Bye => bye_row_changed(store, &op, &old, &new),
            Fired::ServiceGame => service_game_changed(store, &old, &new),
        }
    });
    Ok(None)
}

per_table! { refresh_row -> AllocatedByPostgres:
    refresh_standings_of_tournament, refresh_standings_of_tournament_wrapper, pg_finfo_refresh_standings_of_tournament_wrapper, Tournament, "swiss_tournaments";
    refresh_standings_of_player, refresh_standings_of_player_wrapper, pg_finfo_refresh_standings_of_player_wrapper, Registration, "tournaments_players";
    refresh_standings_of_game, refresh_standings_of_game_wrapper, pg_finfo_refresh_standings_of_game_wrapper, TournamentGame, "tournaments_games";
    refresh_standings_of_bye, refresh_standings_of_bye_wrapper, pg_finfo_refresh_standings_of_bye_wrapper, Bye, "byes";
    refresh_standings_of_service_game, refresh_standings_of_service_game_wrapper, pg_finfo_refresh_standings_of_service_game_wrapper, ServiceGame, "service_games";
}

/// A new tournament gets its progress row; a changed ranking or tie-break order recomputes it.
fn tournament_changed(
    store: &mut TournamentStore<'_, '_>,
    op: &PgTriggerOperation,
    old: &Option<Row<'_>>,
    new: &Option<Row<'_>>,
) {
    let t = int(new, "tournament_id");
    check_tournament(store, t);
    if matches!(op, PgTriggerOperation::Insert) {
        store.query(
            "INSERT INTO @extschema@.swiss_tournament_progress (tournament_id) VALUES ($1)",
            &[t.into()],
        );
        return;
    }
    let reread = maybe_int(old, "ranking_id") != maybe_int(new, "ranking_id");
    let changed = reread
        || txt(old, "tie_breaks") != txt(new, "tie_breaks")
        || int(old, "tournament_id") != t;
    if changed && store.lock(t).is_some() {
        rebuild(store, t, reread);
    }
}

/// A registered player gets the next pairing number and a row per round; a player who left
/// loses them.
fn registration_changed(
    store: &mut TournamentStore<'_, '_>,
    op: &PgTriggerOperation,
    old: &Option<Row<'_>>,
    new: &Option<Row<'_>>,
) {
    if matches!(op, PgTriggerOperation::Insert) {
        let (t, user) = (int(new, "tournament_id"), txt(new, "user_id_in_service"));
        let Some(info) = store.lock(t) else { return };
        let p: i32 = store
            .first_value(
                include_str!("../../sql/random_chess/glue/tournament_entrant.sql"),
                &[t.into(), user.as_str().into()],
                "player_no",
            )
            .unwrap_or_else(|| internal("no pairing number was given"));
        store.update_ratings(t, Some(&user));
        store.add_rows(t, 1, info.last_round, Some(p as PlayerNo));
        refresh_rows(store, &info, &[(p as PlayerNo, 1)], info.last_round);
        return;
    }
    let (t, user) = (int(old, "tournament_id"), txt(old, "user_id_in_service"));
    let Some(mut info) = store.lock(t) else {
        return;
    };
    store.query(
        "DELETE FROM @extschema@.swiss_tournament_standings s USING @extschema@.swiss_tournament_entrants e
         WHERE s.tournament_id = $1 AND e.tournament_id = $1 AND e.user_id_in_service = $2
           AND s.player_no = e.player_no",
        &[t.into(), user.as_str().into()],
    );
    store.query(
        "DELETE FROM @extschema@.swiss_tournament_entrants WHERE tournament_id = $1 AND user_id_in_service = $2",
        &[t.into(), user.as_str().into()],
    );
    let (new_last, _) = move_last_round(store, &mut info, 0, false);
    if info.has_de() && new_last > 0 {
        store.write_ranks(t, 1, new_last as u32);
    }
}

/// The rows a change removed and added: the old row (false) unless it is an INSERT, then the
/// new row (true) unless it is a DELETE.
fn removed_then_added<'r, 'a>(
    op: &PgTriggerOperation,
    old: &'r Option<Row<'a>>,
    new: &'r Option<Row<'a>>,
) -> Vec<(&'r Option<Row<'a>>, bool)> {
    let mut rows = Vec::with_capacity(2);
    if !matches!(op, PgTriggerOperation::Insert) {
        rows.push((old, false));
    }
    if !matches!(op, PgTriggerOperation::Delete) {
        rows.push((new, true));
    }
    rows
}

/// A tournament game removed (old) and added (new).
fn tournament_game_changed(
    store: &mut TournamentStore<'_, '_>,
    op: &PgTriggerOperation,
    old: &Option<Row<'_>>,
    new: &Option<Row<'_>>,
) {
    for (row, added) in removed_then_added(op, old, new) {
        let (t, g, r) = (
            int(row, "tournament_id"),
            int(row, "game_id"),
            int(row, "round"),
        );
        game_changed(store, t, g, r, added, None);
    }
}

/// A bye removed (old) and added (new).
fn bye_row_changed(
    store: &mut TournamentStore<'_, '_>,
    op: &PgTriggerOperation,
    old: &Option<Row<'_>>,
    new: &Option<Row<'_>>,
) {
    for (row, added) in removed_then_added(op, old, new) {
        let kind = added.then(|| bye_kind(row));
        let (t, r) = (int(row, "tournament_id"), int(row, "round"));
        bye_changed(store, t, r, &txt(row, "user_id_in_service"), kind);
    }
}

/// A service game's result, moves or date changed: the tournaments it is registered in.
fn service_game_changed(
    store: &mut TournamentStore<'_, '_>,
    old: &Option<Row<'_>>,
    new: &Option<Row<'_>>,
) {
    let id = int(new, "id");
    let date_was = old
        .as_ref()
        .and_then(|o| field::<TimestampWithTimeZone>(o, "creation_date"));
    let rows = store.query(
        "SELECT tournament_id, round FROM @extschema@.tournaments_games WHERE game_id = $1 ORDER BY tournament_id",
        &[id.into()],
    );
    let places: Vec<(i32, i32)> = rows
        .into_iter()
        .map(|r| (column(&r, "tournament_id"), column(&r, "round")))
        .collect();
    for (t, round) in places {
        game_changed(store, t, id, round, true, date_was);
    }
}

/// AFTER TRUNCATE of tournaments_games, byes or tournaments_players (statement triggers; row
/// triggers do not fire): the players no longer registered lose their pairing numbers and every
/// tournament is recomputed from scratch.
fn rebuild_truncated_tournaments<'a>(
    trigger: &'a PgTrigger<'a>,
) -> Result<Option<PgHeapTuple<'a, AllocatedByPostgres>>, PgTriggerError> {
    if restoring() {
        return Ok(None);
    }
    let table = trigger.table_name()?;
    Spi::connect_mut(|client| {
        let mut store = TournamentStore::new(client);
        if table == "tournaments_players" {
            // as a DELETE of the registrations would: players with games cannot leave
            let game = store.first_row(
                "SELECT tournament_id, game_id, round FROM @extschema@.tournaments_games ORDER BY tournament_id, round, game_id LIMIT 1",
                &[],
            );
            let game = game.map(|r| (r.int("tournament_id"), r.int("game_id"), r.int("round")));
            rules::check_truncate_registrations(game).unwrap_or_else(|e| raise_core(&e));
        }
        let ids: Vec<i32> = store.each(
            "SELECT tournament_id FROM @extschema@.swiss_tournaments ORDER BY tournament_id",
            &[],
            "tournament_id",
        );
        for t in ids {
            if store.lock(t).is_none() {
                continue;
            }
            store.query(
                "DELETE FROM @extschema@.swiss_tournament_entrants e WHERE e.tournament_id = $1 AND NOT EXISTS (
                     SELECT 1 FROM @extschema@.tournaments_players p
                     WHERE p.tournament_id = e.tournament_id AND p.user_id_in_service = e.user_id_in_service)",
                &[t.into()],
            );
            rebuild(&mut store, t, false);
        }
    });
    Ok(None)
}
trigger_function!(
    rebuild_truncated_tournaments,
    rebuild_truncated_tournaments_wrapper,
    pg_finfo_rebuild_truncated_tournaments_wrapper,
    ["tournaments_games", "byes", "tournaments_players"]
);
