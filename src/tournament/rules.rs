//! Reads the facts the rules of a tournament row need (`pg_rating_core::tournament::rules` decides):
//! a tournament's clock in its ranking's window, a registration's requirements, a game's position,
//! clock and players, a bye's round and player. Each violation is an error 23514 naming the rule.

use pg_rating_core::tournament::columns::Columns;
use pg_rating_core::tournament::rules::{self, GameInTournament};
use pgrx::prelude::*;

use super::store::{Row, TournamentStore};
use crate::error::raise_core;
use crate::trigger::field;

pub(super) fn text_field(
    row: &PgHeapTuple<'_, impl pgrx::WhoAllocated>,
    name: &str,
) -> Option<String> {
    field::<&str>(row, name).map(str::to_owned)
}

/// The players of `(t, round)` among `players` who already have a game (other than the row being
/// updated) or a bye (other than the row being updated) in that round.
fn busy_players(
    store: &mut TournamentStore<'_, '_>,
    t: i32,
    round: i32,
    players: &[String],
    except_game: Option<(i32, i32)>,
    except_bye: Option<(i32, i32, String)>,
) -> Vec<String> {
    let (eg_t, eg_g) = except_game.unzip();
    let (except_bye, eb_u) = except_bye.map(|(t, r, u)| ((t, r), u)).unzip();
    let (eb_t, eb_r) = except_bye.unzip();
    let (sql, args) = crate::spi::named(
        include_str!("../../sql/random_chess/glue/tournament_busy_players.sql"),
        vec![
            ("tournament", t.into()),
            ("round", round.into()),
            ("players", players.to_vec().into()),
            ("game_tournament", eg_t.into()),
            ("game", eg_g.into()),
            ("bye_tournament", eb_t.into()),
            ("bye_round", eb_r.into()),
            ("bye_player", eb_u.into()),
        ],
    );
    store.each(&sql, &args, "player")
}

/// The columns a [`GameInTournament`] is read from ([`GameInTournament::read`]; `t` a
/// tournament, `g` its service game), as a literal for `concat!` (statements are `'static`:
/// their plans are saved).
macro_rules! game_in_tournament_columns {
    () => {
        "t.round_count, g.service_id = 1 AS local, g.is_ranked AS game_ranked,
         t.is_ranked AS tournament_ranked, g.starting_position::text AS game_start,
         t.starting_position::text AS tournament_start,
         (g.clock).starting_time AS clock_starting_time, (g.clock).move_increase AS clock_move_increase,
         (t.time_control).starting_time AS control_starting_time,
         (t.time_control).move_increase AS control_move_increase,
         coalesce(g.clock::text, 'no clock') AS game_clock, t.time_control::text AS time_control,
         g.white_player::text AS white, g.black_player::text AS black"
    };
}

pub(super) fn check_game(
    store: &mut TournamentStore<'_, '_>,
    t: i32,
    game: i32,
    round: i32,
    old: Option<(i32, i32)>,
) {
    // locked, so that the checks and the write see every committed change of the tournament
    if store.lock(t).is_none() {
        return; // no such tournament: the foreign key reports it
    }
    let row = store.first_row(
        concat!(
            "SELECT ",
            game_in_tournament_columns!(),
            " FROM @extschema@.swiss_tournaments t JOIN @extschema@.service_games g ON g.id = $2
              WHERE t.tournament_id = $1"
        ),
        &[t.into(), game.into()],
    );
    let Some(row) = row else {
        return; // no such game: the foreign key reports it
    };
    let g = GameInTournament::read(&row, (t, game, round));
    let unregistered = [&g.white, &g.black]
        .into_iter()
        .find(|p| !store.is_registered(t, p));
    let busy = busy_players(
        store,
        t,
        round,
        &[g.white.clone(), g.black.clone()],
        old,
        None,
    );
    rules::check_game(&g, unregistered.map(String::as_str), &busy)
        .unwrap_or_else(|e| raise_core(&e));
}

pub(super) fn check_bye(
    store: &mut TournamentStore<'_, '_>,
    t: i32,
    round: i32,
    user: &str,
    old: Option<(i32, i32, String)>,
) {
    if store.lock(t).is_none() {
        return;
    }
    let Some(rounds) = store.round_count(t) else {
        return; // the tournament is gone: the foreign key reports it
    };
    let registered = store.is_registered(t, user);
    let busy = !busy_players(store, t, round, &[user.to_owned()], None, old).is_empty();
    rules::check_bye(t, round, rounds, user, registered, busy).unwrap_or_else(|e| raise_core(&e));
}

pub(super) fn check_registration(store: &mut TournamentStore<'_, '_>, t: i32, user: &str) {
    let rows = store.query(
        include_str!("../../sql/random_chess/glue/tournament_requirements.sql"),
        &[t.into(), user.into()],
    );
    rules::check_registration_rows(t, user, rows.map(Row)).unwrap_or_else(|e| raise_core(&e));
}

/// After a tournament is created or changed: a ranked tournament's clock falls in its ranking's
/// window, and the games and byes already registered still follow its rules.
pub(super) fn check_tournament(store: &mut TournamentStore<'_, '_>, t: i32) {
    let row = store.first_row(
        include_str!("../../sql/random_chess/glue/tournament_time_control.sql"),
        &[t.into()],
    );
    if let Some(row) = row {
        let window = crate::ranking::window(&row.0);
        rules::check_time_control_row(&row, &window).unwrap_or_else(|e| raise_core(&e));
    }
    // the first game (by round, then id) or bye that no longer follows the tournament's rules
    let rows = store.query(
        concat!(
            "SELECT tg.game_id, tg.round, ",
            game_in_tournament_columns!(),
            " FROM @extschema@.tournaments_games tg
              JOIN @extschema@.swiss_tournaments t ON t.tournament_id = tg.tournament_id
              JOIN @extschema@.service_games g ON g.id = tg.game_id
              WHERE tg.tournament_id = $1
              ORDER BY tg.round, tg.game_id"
        ),
        &[t.into()],
    );
    let first_game = rules::first_not_following(rows.map(|row| {
        let row = Row(row);
        GameInTournament::read(&row, (t, row.int("game_id"), row.int("round")))
    }));
    let Some(rounds) = store.round_count(t) else {
        return; // the tournament is gone: nothing of it to check
    };
    let first_bye = store.first(
        "SELECT min(round) AS round FROM @extschema@.byes WHERE tournament_id = $1 AND round > $2",
        &[t.into(), rounds.into()],
        "round",
    );
    rules::check_rows_still_follow(t, first_game, first_bye).unwrap_or_else(|e| raise_core(&e));
}
