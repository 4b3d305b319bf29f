//! Swiss tournaments in the database (sql/random_chess/06_tournaments.sql has the tables and
//! views), computed by `pg_rating_core::tournament`: `rules` checks a row before it is written,
//! `refresh` keeps the standings current after it, `triggers` are the entry points (one function
//! per table behind each), `store` reads and writes the tables.
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

mod columns;
mod pairing;
mod pairing_tables;
mod refresh;
mod rules;
mod store;
pub(crate) mod triggers;

use pg_rating_core::tournament::canonical_order;
use pgrx::prelude::*;

use crate::error::{raise, raise_core};
use crate::trigger::{writes_allowed, DerivedWrite};
use refresh::rebuild;
use store::{TournamentStore, EDITION};

/// The canonical spelling of a tie-break order; an unknown or repeated code is an error.
#[pg_extern(immutable, strict, parallel_safe)]
fn tournament_tie_break_order(order: &str) -> String {
    canonical_order(order).unwrap_or_else(|e| raise_core(&e))
}

/// Recomputes a tournament's standings from scratch (start, last round, every row; the ratings
/// as of the start too when the start moved or `reread_ratings`); returns the number of
/// standings rows written.
#[pg_extern(volatile, strict, parallel_unsafe, sql = false)]
fn rebuild_tournament_standings(tournament_id: i32, reread_ratings: default!(bool, false)) -> i64 {
    writes_allowed("rebuild_tournament_standings()");
    let _writing = DerivedWrite::begin();
    Spi::connect_mut(|client| {
        let mut store = TournamentStore::new(client);
        if store.lock(tournament_id).is_none() {
            unknown(tournament_id);
        }
        rebuild(&mut store, tournament_id, reread_ratings)
    })
}

/// A tournament loaded, or 22023 when there is none of that id.
fn existing(store: &mut TournamentStore<'_, '_>, tournament_id: i32) -> store::Loaded {
    store
        .load(tournament_id)
        .unwrap_or_else(|| unknown(tournament_id))
}

fn unknown(tournament_id: i32) -> ! {
    raise(
        PgSqlErrorCode::ERRCODE_INVALID_PARAMETER_VALUE,
        format!("tournament {tournament_id} does not exist"),
    )
}

/// The FIDE TRF-16 report of a tournament after its last round.
#[pg_extern(stable, strict, parallel_restricted, sql = false)]
fn tournament_trf(tournament_id: i32) -> String {
    Spi::connect_mut(|client| {
        // read-only statements: no transaction id, so it works on a hot standby too
        let mut store = TournamentStore::reader(client);
        let loaded = existing(&mut store, tournament_id);
        // starting ranks in FIDE's initial order, as pairing engines read them
        let (seeded, order) = pairing::seeded(&mut store, tournament_id, &loaded);
        let trf = loaded.trf(tournament_id, &seeded, &order, EDITION);
        trf.unwrap_or_else(|e| raise_core(&e))
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
