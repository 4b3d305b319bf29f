//! Swiss tournaments in the database (sql/tournaments.sql has the tables and views): the rules
//! of tournaments, registrations, games and byes (`check_tournament_row`), and the standings
//! kept current on every change (`refresh_tournament_standings`), computed by
//! `pg_rating_core::tournament`.
//!
//! # Standings
//! `swiss_tournament_standings` holds one row per (tournament, round, registered player) for
//! rounds 1..last round with a game or a bye: the player's entry of that round and the values
//! after it. A change (a game or a bye inserted, deleted or corrected, a game's result, moves or
//! date changed, a registration) patches the entries it touches, then the core's
//! [`refresh`](pg_rating_core::tournament::refresh) names the rows whose values change — the
//! changed players' rows from the changed round on and their opponents' — and only those are
//! rewritten: O(rounds²) rows, independent of the number of players. A new round adds a row per
//! player. With a direct encounter (DE) in the tie-break order the shared ranks of the rounds
//! from the change on are recomputed from the whole tournament (O(players · rounds)).
//!
//! # The tournament's start
//! The start is the creation date of the tournament's earliest game (NULL before any game; byes
//! need no rating). Each player's rating as of the start is the latest `elo_history` entry of the
//! tournament's ranking dated strictly before it, `starting_elo` without one, none for a bot the
//! ranking excludes; it is stored when the start is set, so later rating changes never alter past
//! standings. A game dated before the current start moves the start (and, if a rating changes,
//! the whole tournament is recomputed); so does deleting or re-dating the earliest game.
//!
//! Every writer first locks the tournament's `swiss_tournament_progress` row, so changes of one
//! tournament run one at a time. Nothing is derived while a dump is being restored.

mod store;

use std::cell::RefCell;

use pg_rating_core::tournament::{
    format_order, parse_order, refresh, trf16, ByeKind, Entry, PlayerNo, TrfInfo,
};
use pgrx::prelude::*;
use pgrx::{AllocatedByRust, PgSqlErrorCode};

use crate::accounts::field;
use crate::error::{raise, raise_core};
use crate::restore::restoring;
use crate::spi::{column, nullable};
use crate::trigger::{trigger_function, writes_allowed, DerivedWrite};
use store::{internal, Info, Store, StoredCards, EDITION};

/// The canonical spelling of a tie-break order; an unknown or repeated code is an error.
#[pg_extern(immutable, strict, parallel_safe)]
fn tournament_tie_break_order(order: &str) -> String {
    format_order(&parse_order(order).unwrap_or_else(|e| raise_core(&e)))
}

fn check(code: PgSqlErrorCode, ok: bool, message: impl FnOnce() -> String) {
    if !ok {
        raise(code, message())
    }
}

const RULE: PgSqlErrorCode = PgSqlErrorCode::ERRCODE_CHECK_VIOLATION;

fn text_field(row: &PgHeapTuple<'_, impl pgrx::WhoAllocated>, name: &str) -> Option<String> {
    field::<&str>(row, name).map(str::to_owned)
}

/// Locks the tournament (so that the checks and the write see every committed change of it).
fn lock_tournament(store: &mut Store<'_, '_>, t: i32) -> bool {
    store.lock(t).is_some()
}

/// The players of `(t, round)` among `players` who already have a game (other than the row being
/// updated) or a bye (other than the row being updated) in that round.
fn busy_players(
    store: &mut Store<'_, '_>,
    t: i32,
    round: i32,
    players: &[String],
    except_game: Option<(i32, i32)>,
    except_bye: Option<(i32, i32, String)>,
) -> Vec<String> {
    let (eg_t, eg_g) = except_game.unzip();
    let (eb_t, eb_r, eb_u) = match except_bye {
        Some((a, b, c)) => (Some(a), Some(b), Some(c)),
        None => (None, None, None),
    };
    let rows = store.query(
        "SELECT p.player FROM unnest($3::text[]) p(player)
         WHERE EXISTS (SELECT 1 FROM tournaments_games tg JOIN service_games g ON g.id = tg.game_id
                       WHERE tg.tournament_id = $1 AND tg.round = $2
                         AND NOT (tg.tournament_id IS NOT DISTINCT FROM $4 AND tg.game_id IS NOT DISTINCT FROM $5)
                         AND p.player IN (g.white_player, g.black_player))
            OR EXISTS (SELECT 1 FROM byes b WHERE b.tournament_id = $1 AND b.round = $2
                         AND b.user_id_in_service = p.player
                         AND NOT (b.tournament_id IS NOT DISTINCT FROM $6 AND b.round IS NOT DISTINCT FROM $7
                                  AND b.user_id_in_service IS NOT DISTINCT FROM $8))
         ORDER BY 1",
        &[
            t.into(),
            round.into(),
            players.to_vec().into(),
            eg_t.into(),
            eg_g.into(),
            eb_t.into(),
            eb_r.into(),
            eb_u.into(),
        ],
    );
    rows.into_iter()
        .map(|r| column::<String>(&r, "player"))
        .collect()
}

fn round_count(store: &mut Store<'_, '_>, t: i32) -> Option<i32> {
    let rows = store.query(
        "SELECT round_count FROM swiss_tournaments WHERE tournament_id = $1",
        &[t.into()],
    );
    rows.into_iter()
        .next()
        .map(|r| column::<i32>(&r, "round_count"))
}

fn is_registered(store: &mut Store<'_, '_>, t: i32, user: &str) -> bool {
    let rows = store.query(
        "SELECT 1 FROM tournaments_players WHERE tournament_id = $1 AND service_id = 1 AND user_id_in_service = $2",
        &[t.into(), user.into()],
    );
    !rows.is_empty()
}

fn check_game(store: &mut Store<'_, '_>, t: i32, game: i32, round: i32, old: Option<(i32, i32)>) {
    if !lock_tournament(store, t) {
        return; // no such tournament: the foreign key reports it
    }
    let rows = store.query(
        "SELECT t.round_count, g.service_id = 1 AS local, g.is_ranked AS game_ranked,
                t.is_ranked AS tournament_ranked, coalesce(g.starting_position::text, '') AS game_start,
                coalesce(t.starting_position::text, '') AS tournament_start,
                ((g.clock).starting_time IS NOT DISTINCT FROM (t.time_control).starting_time
                 AND (g.clock).move_increase IS NOT DISTINCT FROM (t.time_control).move_increase) AS same_clock,
                coalesce(g.clock::text, 'no clock') AS game_clock, t.time_control::text AS time_control,
                g.white_player::text AS white, g.black_player::text AS black
         FROM swiss_tournaments t JOIN service_games g ON g.id = $2 WHERE t.tournament_id = $1",
        &[t.into(), game.into()],
    );
    let Some(row) = rows.into_iter().next() else {
        return; // no such game: the foreign key reports it
    };
    let b = |name: &str| column::<bool>(&row, name);
    let s = |name: &str| column::<String>(&row, name);
    let rounds: i32 = column(&row, "round_count");
    check(RULE, round <= rounds, || {
        format!("round {round} is beyond the {rounds} rounds of tournament {t}")
    });
    check(RULE, b("local"), || {
        format!("game {game} is not a local game (service 1): tournament games are played here")
    });
    let (g_ranked, t_ranked) = (b("game_ranked"), b("tournament_ranked"));
    check(RULE, g_ranked == t_ranked, || {
        format!(
            "game {game} is {} but tournament {t} is {}",
            if g_ranked { "ranked" } else { "unranked" },
            if t_ranked { "ranked" } else { "unranked" }
        )
    });
    check(RULE, s("game_start") == s("tournament_start"), || {
        format!(
            "game {game} starts from \"{}\", not from tournament {t}'s starting position \"{}\"",
            s("game_start"),
            s("tournament_start")
        )
    });
    check(RULE, b("same_clock"), || {
        format!(
            "game {game} has clock {}, not tournament {t}'s time control {}",
            s("game_clock"),
            s("time_control")
        )
    });
    let (white, black) = (s("white"), s("black"));
    check(RULE, white != black, || {
        format!("game {game} has the same player on both sides")
    });
    for p in [&white, &black] {
        let registered = is_registered(store, t, p);
        check(RULE, registered, || {
            format!("player \"{p}\" of game {game} is not registered in tournament {t}")
        });
    }
    let busy = busy_players(store, t, round, &[white, black], old, None);
    check(RULE, busy.is_empty(), || {
        format!(
            "player \"{}\" already has a game or a bye in round {round} of tournament {t}",
            busy[0]
        )
    });
}

fn check_bye(
    store: &mut Store<'_, '_>,
    t: i32,
    round: i32,
    user: &str,
    old: Option<(i32, i32, String)>,
) {
    if !lock_tournament(store, t) {
        return;
    }
    let rounds = round_count(store, t).unwrap_or(0);
    check(RULE, round <= rounds, || {
        format!("round {round} is beyond the {rounds} rounds of tournament {t}")
    });
    let registered = is_registered(store, t, user);
    check(RULE, registered, || {
        format!("player \"{user}\" is not registered in tournament {t}")
    });
    let busy = busy_players(store, t, round, &[user.to_owned()], None, old);
    check(RULE, busy.is_empty(), || {
        format!("player \"{user}\" already has a game or a bye in round {round} of tournament {t}")
    });
}

fn check_registration(store: &mut Store<'_, '_>, t: i32, user: &str) {
    let rows = store.query(
        "SELECT q.ranking_type, k.name::text AS ranking_name, q.required_value, q.game_count,
                round(coalesce(p.rating, k.starting_elo), 2)::text AS rating,
                (SELECT count(*) FROM elo_history h WHERE h.ranking_id = q.ranking_type AND h.service_id = 1
                   AND h.user_id_in_service = $2) AS rated_games
         FROM tournaments_reqs q JOIN rankings k ON k.id = q.ranking_type
         LEFT JOIN ranking_players p ON p.ranking_id = q.ranking_type AND p.service_id = 1 AND p.user_id_in_service = $2
         WHERE q.tournament_id = $1
           AND NOT EXISTS (SELECT 1 FROM service_accounts a WHERE a.service_id = 1 AND a.user_id_in_service = $2
                             AND a.is_bot)
           AND ((q.required_value IS NOT NULL AND coalesce(p.rating, k.starting_elo) < q.required_value)
             OR (q.game_count IS NOT NULL AND (SELECT count(*) FROM elo_history h WHERE h.ranking_id = q.ranking_type
                   AND h.service_id = 1 AND h.user_id_in_service = $2) < q.game_count))
         ORDER BY q.ranking_type, q.game_count NULLS FIRST LIMIT 1",
        &[t.into(), user.into()],
    );
    if let Some(row) = rows.into_iter().next() {
        let ranking: i32 = column(&row, "ranking_type");
        let name: String = column(&row, "ranking_name");
        match (
            nullable::<i32>(&row, "required_value"),
            nullable::<i32>(&row, "game_count"),
        ) {
            (Some(required), _) => raise(
                RULE,
                format!(
                    "player \"{user}\" cannot join tournament {t}: rating {} in ranking {ranking} ({name}) is below the required {required}",
                    column::<String>(&row, "rating")
                ),
            ),
            (_, Some(games)) => raise(
                RULE,
                format!(
                    "player \"{user}\" cannot join tournament {t}: {} rated games in ranking {ranking} ({name}), {games} required",
                    column::<i64>(&row, "rated_games")
                ),
            ),
            _ => {}
        }
    }
}

/// BEFORE triggers of swiss_tournaments, tournaments_players, tournaments_games and byes: the
/// rules of each row. Not while restoring a dump.
fn check_tournament_row<'a>(
    trigger: &'a PgTrigger<'a>,
) -> Result<Option<PgHeapTuple<'a, AllocatedByRust>>, PgTriggerError> {
    let op = trigger.op()?;
    let table = trigger.table_name()?;
    let row = match op {
        PgTriggerOperation::Delete => trigger.old(),
        _ => trigger.new(),
    }
    .expect("row trigger has a row");
    let mut row = row.into_owned();
    if restoring() {
        return Ok(Some(row));
    }
    let int = |name: &str| -> i32 { field::<i32>(&row, name).unwrap_or(0) };
    match (table.as_str(), op) {
        ("swiss_tournaments", _) => {
            let order = text_field(&row, "tie_breaks").unwrap_or_default();
            let canonical = format_order(&parse_order(&order).unwrap_or_else(|e| raise_core(&e)));
            if canonical != order {
                row.set_by_name("tie_breaks", canonical)
                    .unwrap_or_else(|e| internal(e));
            }
        }
        ("tournaments_players", PgTriggerOperation::Insert) => {
            let (t, user) = (
                int("tournament_id"),
                text_field(&row, "user_id_in_service").unwrap_or_default(),
            );
            Spi::connect_mut(|client| {
                let mut store = Store::new(client);
                if lock_tournament(&mut store, t) {
                    check_registration(&mut store, t, &user);
                }
            });
        }
        ("tournaments_players", PgTriggerOperation::Update) => {
            raise(
                PgSqlErrorCode::ERRCODE_RESTRICT_VIOLATION,
                "a registration cannot be changed: delete it and register the player again",
            );
        }
        ("tournaments_players", PgTriggerOperation::Delete) => {
            let (t, user) = (
                int("tournament_id"),
                text_field(&row, "user_id_in_service").unwrap_or_default(),
            );
            Spi::connect_mut(|client| {
                let mut store = Store::new(client);
                if !lock_tournament(&mut store, t) {
                    return; // the tournament is being deleted
                }
                let rows = store.query(
                    "SELECT tg.game_id, tg.round FROM tournaments_games tg JOIN service_games g ON g.id = tg.game_id
                     WHERE tg.tournament_id = $1 AND $2 IN (g.white_player, g.black_player)
                     ORDER BY tg.round, tg.game_id LIMIT 1",
                    &[t.into(), user.as_str().into()],
                );
                if let Some(r) = rows.into_iter().next() {
                    raise(
                        PgSqlErrorCode::ERRCODE_RESTRICT_VIOLATION,
                        format!(
                            "player \"{user}\" cannot leave tournament {t}: game {} of round {} is registered in it",
                            column::<i32>(&r, "game_id"),
                            column::<i32>(&r, "round")
                        ),
                    );
                }
                // the player's byes go first, each refreshing the standings
                store.query(
                    "DELETE FROM byes WHERE tournament_id = $1 AND user_id_in_service = $2",
                    &[t.into(), user.as_str().into()],
                );
            });
        }
        ("tournaments_games", _) => {
            let old = trigger.old().map(|o| {
                (
                    field::<i32>(&o, "tournament_id").unwrap_or(0),
                    field::<i32>(&o, "game_id").unwrap_or(0),
                )
            });
            let (t, g, r) = (int("tournament_id"), int("game_id"), int("round"));
            Spi::connect_mut(|client| check_game(&mut Store::new(client), t, g, r, old));
        }
        ("byes", _) => {
            let old = trigger.old().map(|o| {
                (
                    field::<i32>(&o, "tournament_id").unwrap_or(0),
                    field::<i32>(&o, "round").unwrap_or(0),
                    text_field(&o, "user_id_in_service").unwrap_or_default(),
                )
            });
            let (t, r, user) = (
                int("tournament_id"),
                int("round"),
                text_field(&row, "user_id_in_service").unwrap_or_default(),
            );
            Spi::connect_mut(|client| check_bye(&mut Store::new(client), t, r, &user, old));
        }
        _ => {}
    }
    Ok(Some(row))
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

/// Recomputes the standings rows named by the core's refresh for `changed` (player, from round)
/// and, with DE in the order, the shared ranks from the earliest changed round.
fn refresh_rows(store: &mut Store<'_, '_>, info: &Info, changed: &[(PlayerNo, u32)], last: i32) {
    if last < 1 || changed.is_empty() {
        return;
    }
    let rows = {
        let source = StoredCards {
            store: RefCell::new(&mut *store),
            tournament: info.id,
        };
        refresh(&source, changed, last as u32, EDITION).unwrap_or_else(|e| internal(e))
    };
    store.write_values(info.id, &info.order, &rows);
    if info.has_de() {
        let from = changed.iter().map(|c| c.1).min().unwrap_or(1);
        store.write_ranks(info.id, from, last as u32);
    }
}

/// From scratch: the start, the last round and every standings row. The ratings as of the
/// start are read again from `elo_history` when the start moved or `reread_ratings` is set;
/// otherwise the ratings taken when the start was set are kept (a game dated before the start
/// but recorded after it does not change past standings).
fn rebuild(store: &mut Store<'_, '_>, t: i32, reread_ratings: bool) -> i64 {
    let Some(info) = store.lock(t) else { return 0 };
    let started = store.first_game_date(t);
    let last = store.max_round(t);
    store.set_progress(t, started, last);
    if reread_ratings || started != info.started_at {
        store.update_ratings(t, None);
    }
    let Some(loaded) = store.load(t) else {
        return 0;
    };
    store.write_all(t, &loaded, last as u32)
}

/// The rounds `(old, new)` of the standings become `1..=new`: rows are added or dropped.
fn resize(store: &mut Store<'_, '_>, info: &Info, new_last: i32) -> Vec<(PlayerNo, u32)> {
    if new_last > info.last_round {
        store.add_rows(info.id, info.last_round + 1, new_last, None);
        // every player's values of the new rounds
        let rows = store.query(
            "SELECT player_no FROM swiss_tournament_entrants WHERE tournament_id = $1",
            &[info.id.into()],
        );
        let from = (info.last_round + 1) as u32;
        return rows
            .into_iter()
            .map(|r| (column::<i32>(&r, "player_no") as PlayerNo, from))
            .collect();
    }
    if new_last < info.last_round {
        store.drop_rounds_after(info.id, new_last);
    }
    Vec::new()
}

/// Moves the start to `start`; true when a rating as of the start changed (then the caller
/// rebuilds the tournament).
fn move_start(
    store: &mut Store<'_, '_>,
    info: &mut Info,
    start: Option<TimestampWithTimeZone>,
) -> bool {
    if start == info.started_at {
        return false;
    }
    info.started_at = start;
    store.set_progress(info.id, start, info.last_round);
    store.update_ratings(info.id, None) > 0
}

/// A game of `round` was added (`add`) or removed: patch both entries, the start and the rounds,
/// then refresh.
fn game_changed(
    store: &mut Store<'_, '_>,
    t: i32,
    game_id: i32,
    round: i32,
    add: bool,
    date_was: Option<TimestampWithTimeZone>,
) {
    let Some(mut info) = store.lock(t) else {
        return;
    };
    let Some(game) = store.game(game_id) else {
        return;
    };
    let (Some(w), Some(b)) = (
        store.player_no(t, &game.white),
        store.player_no(t, &game.black),
    ) else {
        internal(format!(
            "tournament {t}: game {game_id} has an unregistered player"
        ))
    };
    let new_last = if add {
        info.last_round.max(round)
    } else {
        store.max_round(t)
    };
    let mut changed = resize(store, &info, new_last);
    info.last_round = new_last;
    store.set_progress(t, info.started_at, new_last);
    if round <= new_last {
        let (we, be) = if add {
            game.entries(w, b)
        } else {
            (Entry::Absent, Entry::Absent)
        };
        store.set_entry(t, round, w, we);
        store.set_entry(t, round, b, be);
        changed.push((w, round as u32));
        changed.push((b, round as u32));
    }
    let dates = [Some(game.date), date_was];
    // The start stays when an added game is not before it (and was not the start), or when a
    // removed game was not the start; else it is read again.
    let start_stays = (add
        && info.started_at.is_some_and(|s| game.date >= s)
        && date_was.is_none_or(|d| Some(d) != info.started_at))
        || (!add && !dates.iter().any(|d| d.is_some() && *d == info.started_at));
    let start = if start_stays {
        info.started_at
    } else {
        store.first_game_date(t)
    };
    if move_start(store, &mut info, start) {
        rebuild(store, t, false);
        return;
    }
    refresh_rows(store, &info, &changed, new_last);
}

/// The kind of bye a `byes` row is, by its points (one point in a 0.4.0 schema, which has no
/// points column until ALTER EXTENSION pg_rating_random_chess UPDATE).
fn bye_kind(row: &PgHeapTuple<'_, AllocatedByPostgres>) -> ByeKind {
    let points = match row.get_by_name::<pgrx::AnyNumeric>("points") {
        Ok(Some(n)) => f64::try_from(n).unwrap_or_else(|e| store::internal(e)),
        Ok(None) => store::internal("a bye without points"),
        Err(pgrx::datum::TryFromDatumError::NoSuchAttributeName(_)) => 1.0,
        Err(e) => store::internal(e),
    };
    ByeKind::worth((points * 2.0).round() as i32).unwrap_or_else(|e| raise_core(&e))
}

/// A bye of `kind` added, or one removed (`None`).
fn bye_changed(store: &mut Store<'_, '_>, t: i32, round: i32, user: &str, kind: Option<ByeKind>) {
    let Some(mut info) = store.lock(t) else {
        return;
    };
    let Some(p) = store.player_no(t, user) else {
        return;
    };
    let new_last = if kind.is_some() {
        info.last_round.max(round)
    } else {
        store.max_round(t)
    };
    let mut changed = resize(store, &info, new_last);
    info.last_round = new_last;
    store.set_progress(t, info.started_at, new_last);
    if round <= new_last {
        let e = kind.map_or(Entry::Absent, Entry::Bye);
        store.set_entry(t, round, p, e);
        changed.push((p, round as u32));
    }
    refresh_rows(store, &info, &changed, new_last);
}

/// AFTER triggers of swiss_tournaments, tournaments_players, tournaments_games, byes and
/// service_games: keeps the standings current. Not while restoring a dump, which brings the
/// derived rows back itself.
fn refresh_tournament_standings<'a>(
    trigger: &'a PgTrigger<'a>,
) -> Result<Option<PgHeapTuple<'a, AllocatedByPostgres>>, PgTriggerError> {
    if restoring() {
        return Ok(None);
    }
    let op = trigger.op()?;
    let table = trigger.table_name()?;
    let new = trigger.new();
    let old = trigger.old();
    let int = |row: &Option<PgHeapTuple<'_, AllocatedByPostgres>>, name: &str| -> i32 {
        row.as_ref()
            .and_then(|r| field::<i32>(r, name))
            .unwrap_or(0)
    };
    let txt = |row: &Option<PgHeapTuple<'_, AllocatedByPostgres>>, name: &str| -> String {
        row.as_ref()
            .and_then(|r| text_field(r, name))
            .unwrap_or_default()
    };
    Spi::connect_mut(|client| {
        let mut store = Store::new(client);
        match table.as_str() {
            "swiss_tournaments" => {
                let t = int(&new, "tournament_id");
                check_tournament(&mut store, t);
                if matches!(op, PgTriggerOperation::Insert) {
                    store.query(
                        "INSERT INTO swiss_tournament_progress (tournament_id) VALUES ($1)",
                        &[t.into()],
                    );
                } else {
                    let changed = int(&old, "ranking_id") != int(&new, "ranking_id")
                        || txt(&old, "tie_breaks") != txt(&new, "tie_breaks")
                        || int(&old, "tournament_id") != t;
                    let reread = int(&old, "ranking_id") != int(&new, "ranking_id");
                    if changed && store.lock(t).is_some() {
                        rebuild(&mut store, t, reread);
                    }
                }
            }
            "tournaments_players" => {
                if matches!(op, PgTriggerOperation::Insert) {
                    let (t, user) = (int(&new, "tournament_id"), txt(&new, "user_id_in_service"));
                    let Some(info) = store.lock(t) else { return };
                    let rows = store.query(
                        "WITH n AS (UPDATE swiss_tournament_progress SET next_player_no = next_player_no + 1
                                    WHERE tournament_id = $1 RETURNING next_player_no - 1 AS no)
                         INSERT INTO swiss_tournament_entrants (tournament_id, user_id_in_service, player_no)
                         SELECT $1, $2, n.no FROM n RETURNING player_no",
                        &[t.into(), user.as_str().into()],
                    );
                    let p: i32 = rows
                        .into_iter()
                        .next()
                        .map(|r| column(&r, "player_no"))
                        .unwrap_or_else(|| internal("no pairing number was given"));
                    store.update_ratings(t, Some(&user));
                    store.add_rows(t, 1, info.last_round, Some(p as PlayerNo));
                    refresh_rows(&mut store, &info, &[(p as PlayerNo, 1)], info.last_round);
                } else {
                    let (t, user) = (int(&old, "tournament_id"), txt(&old, "user_id_in_service"));
                    let Some(mut info) = store.lock(t) else {
                        return;
                    };
                    store.query(
                        "DELETE FROM swiss_tournament_standings s USING swiss_tournament_entrants e
                         WHERE s.tournament_id = $1 AND e.tournament_id = $1 AND e.user_id_in_service = $2
                           AND s.player_no = e.player_no",
                        &[t.into(), user.as_str().into()],
                    );
                    store.query(
                        "DELETE FROM swiss_tournament_entrants WHERE tournament_id = $1 AND user_id_in_service = $2",
                        &[t.into(), user.as_str().into()],
                    );
                    let new_last = store.max_round(t);
                    resize(&mut store, &info, new_last);
                    info.last_round = new_last;
                    store.set_progress(t, info.started_at, new_last);
                    if info.has_de() && new_last > 0 {
                        store.write_ranks(t, 1, new_last as u32);
                    }
                }
            }
            "tournaments_games" => {
                if !matches!(op, PgTriggerOperation::Insert) {
                    game_changed(
                        &mut store,
                        int(&old, "tournament_id"),
                        int(&old, "game_id"),
                        int(&old, "round"),
                        false,
                        None,
                    );
                }
                if !matches!(op, PgTriggerOperation::Delete) {
                    game_changed(
                        &mut store,
                        int(&new, "tournament_id"),
                        int(&new, "game_id"),
                        int(&new, "round"),
                        true,
                        None,
                    );
                }
            }
            "byes" => {
                if !matches!(op, PgTriggerOperation::Insert) {
                    bye_changed(
                        &mut store,
                        int(&old, "tournament_id"),
                        int(&old, "round"),
                        &txt(&old, "user_id_in_service"),
                        None,
                    );
                }
                if let (false, Some(row)) = (matches!(op, PgTriggerOperation::Delete), &new) {
                    bye_changed(
                        &mut store,
                        int(&new, "tournament_id"),
                        int(&new, "round"),
                        &txt(&new, "user_id_in_service"),
                        Some(bye_kind(row)),
                    );
                }
            }
            "service_games" => {
                let id = int(&new, "id");
                let date_was = old
                    .as_ref()
                    .and_then(|o| field::<TimestampWithTimeZone>(o, "creation_date"));
                let rows = store.query(
                    "SELECT tournament_id, round FROM tournaments_games WHERE game_id = $1 ORDER BY tournament_id",
                    &[id.into()],
                );
                let places: Vec<(i32, i32)> = rows
                    .into_iter()
                    .map(|r| (column(&r, "tournament_id"), column(&r, "round")))
                    .collect();
                for (t, round) in places {
                    game_changed(&mut store, t, id, round, true, date_was);
                }
            }
            _ => {}
        }
    });
    Ok(None)
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
        let mut store = Store::new(client);
        if table == "tournaments_players" {
            // as a DELETE of the registrations would: players with games cannot leave
            let rows = store.query(
                "SELECT tournament_id, game_id, round FROM tournaments_games ORDER BY tournament_id, round, game_id LIMIT 1",
                &[],
            );
            if let Some(r) = rows.into_iter().next() {
                let n = |i: usize| r.get::<i32>(i).ok().flatten().unwrap_or(0);
                raise(
                    PgSqlErrorCode::ERRCODE_RESTRICT_VIOLATION,
                    format!(
                        "tournaments_players cannot be truncated: tournament {} has game {} of round {} registered \
                         (truncate tournaments_games first)",
                        n(1),
                        n(2),
                        n(3)
                    ),
                );
            }
        }
        let rows = store.query(
            "SELECT tournament_id FROM swiss_tournaments ORDER BY tournament_id",
            &[],
        );
        let ids: Vec<i32> = rows
            .into_iter()
            .map(|r| column(&r, "tournament_id"))
            .collect();
        for t in ids {
            if store.lock(t).is_none() {
                continue;
            }
            store.query(
                "DELETE FROM swiss_tournament_entrants e WHERE e.tournament_id = $1 AND NOT EXISTS (
                     SELECT 1 FROM tournaments_players p
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

/// After a tournament is created or changed: a ranked tournament's clock falls in its ranking's
/// window, and the games and byes already registered still follow its rules.
fn check_tournament(store: &mut Store<'_, '_>, t: i32) {
    let rows = store.query(
        "SELECT t.is_ranked, k.name::text AS ranking_name, t.time_control::text AS time_control,
                coalesce(clock_base_time(t.time_control, k.extra_move_multiplier) >= k.playtime_min
                         AND (k.playtime_max IS NULL
                              OR clock_base_time(t.time_control, k.extra_move_multiplier) < k.playtime_max), false)
                    AS fits,
                k.playtime_min::text AS playtime_min, coalesce(k.playtime_max::text, 'no limit') AS playtime_max,
                k.id AS ranking_id
         FROM swiss_tournaments t JOIN rankings k ON k.id = t.ranking_id WHERE t.tournament_id = $1",
        &[t.into()],
    );
    if let Some(row) = rows.into_iter().next() {
        let s = |name: &str| column::<String>(&row, name);
        let ranked: bool = column(&row, "is_ranked");
        let fits: bool = column(&row, "fits");
        check(RULE, !ranked || fits, || {
            format!(
                "a ranked tournament's time control must fall in its ranking's window: {} is not in [{}, {}) of ranking {} ({})",
                s("time_control"),
                s("playtime_min"),
                s("playtime_max"),
                column::<i32>(&row, "ranking_id"),
                s("ranking_name")
            )
        });
    }
    let rows = store.query(
        "SELECT tg.game_id, tg.round FROM tournaments_games tg
         JOIN swiss_tournaments t ON t.tournament_id = tg.tournament_id
         JOIN service_games g ON g.id = tg.game_id
         WHERE tg.tournament_id = $1
           AND NOT (tg.round <= t.round_count AND g.is_ranked = t.is_ranked
                    AND g.starting_position = t.starting_position
                    AND (g.clock).starting_time IS NOT DISTINCT FROM (t.time_control).starting_time
                    AND (g.clock).move_increase IS NOT DISTINCT FROM (t.time_control).move_increase)
         UNION ALL
         SELECT NULL, b.round FROM byes b JOIN swiss_tournaments t ON t.tournament_id = b.tournament_id
         WHERE b.tournament_id = $1 AND b.round > t.round_count
         ORDER BY 2, 1 LIMIT 1",
        &[t.into()],
    );
    if let Some(row) = rows.into_iter().next() {
        let round: i32 = column(&row, "round");
        let what = match nullable::<i32>(&row, "game_id") {
            Some(g) => format!("game {g} of round {round}"),
            None => format!("a bye of round {round}"),
        };
        raise(
            RULE,
            format!(
                "tournament {t} cannot change this way: {what} would no longer follow its rules"
            ),
        );
    }
}

/// Recomputes a tournament's standings from scratch (start, last round, every row; the ratings
/// as of the start too when the start moved or `reread_ratings`); returns the number of
/// standings rows written.
#[pg_extern(volatile, strict, parallel_unsafe, sql = false)]
fn rebuild_tournament_standings(tournament_id: i32, reread_ratings: default!(bool, false)) -> i64 {
    writes_allowed("rebuild_tournament_standings()");
    let _writing = DerivedWrite::begin();
    Spi::connect_mut(|client| {
        let mut store = Store::new(client);
        if store.lock(tournament_id).is_none() {
            raise(
                PgSqlErrorCode::ERRCODE_INVALID_PARAMETER_VALUE,
                format!("tournament {tournament_id} does not exist"),
            );
        }
        rebuild(&mut store, tournament_id, reread_ratings)
    })
}

/// The FIDE TRF-16 report of a tournament after its last round.
#[pg_extern(stable, strict, parallel_restricted, sql = false)]
fn tournament_trf(tournament_id: i32) -> String {
    Spi::connect_mut(|client| {
        // read-only statements: no transaction id, so it works on a hot standby too
        let mut store = Store::reader(client);
        let Some(loaded) = store.load(tournament_id) else {
            raise(
                PgSqlErrorCode::ERRCODE_INVALID_PARAMETER_VALUE,
                format!("tournament {tournament_id} does not exist"),
            )
        };
        let info = TrfInfo {
            name: format!("Random Chess Swiss tournament {tournament_id}"),
            start_date: loaded.first_date.clone(),
            end_date: loaded.last_date.clone(),
            player_names: loaded.names.clone(),
        };
        trf16(&loaded.tournament, &info, &loaded.order, EDITION).unwrap_or_else(|e| raise_core(&e))
    })
}

#[cfg(any(test, feature = "pg_test"))]
#[pg_schema]
mod tests {
    use pgrx::prelude::*;

    #[pg_test]
    fn tie_break_order_is_canonical() {
        assert_eq!(
            Spi::get_one::<String>("SELECT tournament_tie_break_order(' de,bh-c1 , sb/c1 ')")
                .unwrap(),
            Some("DE, BH-C1, SB-C1".to_string())
        );
        assert_eq!(
            Spi::get_one::<String>("SELECT tournament_tie_break_order('')").unwrap(),
            Some(String::new())
        );
    }

    #[pg_test]
    fn a_forfeit_counts_for_points_but_not_for_the_performance_rating() {
        // The tournament tables are the Random Chess schema's (scripts/test.sh installs its files).
        Spi::run(
            "CREATE EXTENSION IF NOT EXISTS pg_rating_random_chess;
             INSERT INTO users (email, password_hash) VALUES ('a@example.com', 'h'), ('b@example.com', 'h');
             INSERT INTO rankings (name, playtime_min, playtime_max, extra_move_multiplier, starting_elo, include_bots, k_factor)
             VALUES ('Global', '0', NULL, 0, 1500, true, 20);
             INSERT INTO swiss_tournaments (round_count, ranking_id, time_control) VALUES (2, 1, '(5 minutes, 0)');
             INSERT INTO tournaments_players (tournament_id, user_id_in_service) VALUES (1, '1'), (1, '2');
             INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked)
             VALUES ('{}', '2024-01-01', '(1-0,ABANDONMENT)', '(5 minutes, 0)', 1, '1', '2', true);
             INSERT INTO tournaments_games VALUES (1, 1, 1);",
        )
        .unwrap();
        let row = Spi::get_two::<pgrx::AnyNumeric, pgrx::AnyNumeric>(
            "SELECT points, performance_rating FROM swiss_tournaments_round_standings WHERE place = 1",
        )
        .unwrap();
        assert_eq!(row.0.map(|p| p.to_string()), Some("1.0".to_string()));
        assert_eq!(row.1, None);
    }

    #[pg_test(
        error = "unknown tie-break \"xyz\" (known: DE, BH, BH-C1, SB, SB-C1, WIN, WON, ARO, ARO-C1, TPR, PTP)"
    )]
    fn unknown_tie_break_is_an_error() {
        Spi::run("SELECT tournament_tie_break_order('BH, xyz')").unwrap();
    }
}
