//! The rules a tournament row must follow before it is written: a tournament's clock in its
//! ranking's window, a registration's requirements, a game's position, clock and players, a
//! bye's round and player. Each violation is an error 23514 naming the rule.

use pgrx::prelude::*;
use pgrx::PgSqlErrorCode;

use super::store::TournamentStore;
use crate::accounts::field;
use crate::error::raise;
use crate::spi::{column, nullable};

pub(super) fn check(code: PgSqlErrorCode, ok: bool, message: impl FnOnce() -> String) {
    if !ok {
        raise(code, message())
    }
}

pub(super) const RULE: PgSqlErrorCode = PgSqlErrorCode::ERRCODE_CHECK_VIOLATION;

pub(super) fn text_field(
    row: &PgHeapTuple<'_, impl pgrx::WhoAllocated>,
    name: &str,
) -> Option<String> {
    field::<&str>(row, name).map(str::to_owned)
}

/// Locks the tournament (so that the checks and the write see every committed change of it).
pub(super) fn lock_tournament(store: &mut TournamentStore<'_, '_>, t: i32) -> bool {
    store.lock(t).is_some()
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
    let (eb_t, eb_r, eb_u) = match except_bye {
        Some((a, b, c)) => (Some(a), Some(b), Some(c)),
        None => (None, None, None),
    };
    let rows = store.query(
        "SELECT p.player FROM unnest($3::text[]) p(player)
         WHERE EXISTS (SELECT 1 FROM @extschema@.tournaments_games tg JOIN @extschema@.service_games g ON g.id = tg.game_id
                       WHERE tg.tournament_id = $1 AND tg.round = $2
                         AND NOT (tg.tournament_id IS NOT DISTINCT FROM $4 AND tg.game_id IS NOT DISTINCT FROM $5)
                         AND p.player IN (g.white_player, g.black_player))
            OR EXISTS (SELECT 1 FROM @extschema@.byes b WHERE b.tournament_id = $1 AND b.round = $2
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

fn round_count(store: &mut TournamentStore<'_, '_>, t: i32) -> Option<i32> {
    let rows = store.query(
        "SELECT round_count FROM @extschema@.swiss_tournaments WHERE tournament_id = $1",
        &[t.into()],
    );
    rows.into_iter()
        .next()
        .map(|r| column::<i32>(&r, "round_count"))
}

fn is_registered(store: &mut TournamentStore<'_, '_>, t: i32, user: &str) -> bool {
    let rows = store.query(
        "SELECT 1 FROM @extschema@.tournaments_players WHERE tournament_id = $1 AND service_id = 1 AND user_id_in_service = $2",
        &[t.into(), user.into()],
    );
    !rows.is_empty()
}

pub(super) fn check_game(
    store: &mut TournamentStore<'_, '_>,
    t: i32,
    game: i32,
    round: i32,
    old: Option<(i32, i32)>,
) {
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
         FROM @extschema@.swiss_tournaments t JOIN @extschema@.service_games g ON g.id = $2 WHERE t.tournament_id = $1",
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

pub(super) fn check_bye(
    store: &mut TournamentStore<'_, '_>,
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

pub(super) fn check_registration(store: &mut TournamentStore<'_, '_>, t: i32, user: &str) {
    let rows = store.query(
        "SELECT q.ranking_type, k.name::text AS ranking_name, q.required_value, q.game_count,
                round(coalesce(p.rating, k.starting_elo), 2)::text AS rating,
                (SELECT count(*) FROM @extschema@.elo_history h WHERE h.ranking_id = q.ranking_type AND h.service_id = 1
                   AND h.user_id_in_service = $2) AS rated_games
         FROM @extschema@.tournaments_reqs q JOIN @extschema@.rankings k ON k.id = q.ranking_type
         LEFT JOIN @extschema@.ranking_players p ON p.ranking_id = q.ranking_type AND p.service_id = 1 AND p.user_id_in_service = $2
         WHERE q.tournament_id = $1
           AND NOT EXISTS (SELECT 1 FROM @extschema@.service_accounts a WHERE a.service_id = 1 AND a.user_id_in_service = $2
                             AND a.is_bot)
           AND ((q.required_value IS NOT NULL AND coalesce(p.rating, k.starting_elo) < q.required_value)
             OR (q.game_count IS NOT NULL AND (SELECT count(*) FROM @extschema@.elo_history h WHERE h.ranking_id = q.ranking_type
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

/// After a tournament is created or changed: a ranked tournament's clock falls in its ranking's
/// window, and the games and byes already registered still follow its rules.
pub(super) fn check_tournament(store: &mut TournamentStore<'_, '_>, t: i32) {
    let rows = store.query(
        "SELECT t.is_ranked, k.name::text AS ranking_name, t.time_control::text AS time_control,
                coalesce(@extschema@.clock_base_time(t.time_control, k.extra_move_multiplier) >= k.playtime_min
                         AND (k.playtime_max IS NULL
                              OR @extschema@.clock_base_time(t.time_control, k.extra_move_multiplier) < k.playtime_max), false)
                    AS fits,
                k.playtime_min::text AS playtime_min, coalesce(k.playtime_max::text, 'no limit') AS playtime_max,
                k.id AS ranking_id
         FROM @extschema@.swiss_tournaments t JOIN @extschema@.rankings k ON k.id = t.ranking_id WHERE t.tournament_id = $1",
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
        "SELECT tg.game_id, tg.round FROM @extschema@.tournaments_games tg
         JOIN @extschema@.swiss_tournaments t ON t.tournament_id = tg.tournament_id
         JOIN @extschema@.service_games g ON g.id = tg.game_id
         WHERE tg.tournament_id = $1
           AND NOT (tg.round <= t.round_count AND g.is_ranked = t.is_ranked
                    AND g.starting_position = t.starting_position
                    AND (g.clock).starting_time IS NOT DISTINCT FROM (t.time_control).starting_time
                    AND (g.clock).move_increase IS NOT DISTINCT FROM (t.time_control).move_increase)
         UNION ALL
         SELECT NULL, b.round FROM @extschema@.byes b JOIN @extschema@.swiss_tournaments t ON t.tournament_id = b.tournament_id
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
