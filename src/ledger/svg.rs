//! `ledger_rating_svg`: players' ratings in a ledger over time as an SVG chart (drawn by
//! `pg_rating_core::svg::chart`); this file reads the players' entries.

use std::collections::{BTreeSet, HashMap};

use pg_rating_core::svg::chart::check_dimensions;
use pg_rating_core::svg::{rating_chart, Series};
use pgrx::prelude::*;
use pgrx::PgSqlErrorCode;

use super::internal;
use crate::error::{raise, raise_core};
use crate::spi::column;

extension_sql_file!(
    "../../sql/ledger_svg.sql",
    name = "ledger_svg",
    requires = ["ledgers", ledger_rating_svg]
);

/// One game of a player: date (seconds of the session's wall-clock time), rating before, after.
type Game = (f64, f64, f64);

/// The most players (elements of `players`, duplicates included) a chart takes: 54000 past it.
pub const MAX_CHART_PLAYERS: usize = 1000;

/// Strict: a NULL argument gives NULL. Errors: width or height outside 100..4096 or an unknown
/// ledger 22023, a NULL player 22004, a players array of more than one dimension 2202E, more than
/// [`MAX_CHART_PLAYERS`] players 54000. The ledger is read (and the caller's right to read it
/// checked) before anything is done with the players.
#[pg_extern(stable, strict, parallel_safe)]
#[search_path(pg_catalog, pg_temp)]
fn ledger_rating_svg(
    ledger: &str,
    players: Array<&str>,
    scope: default!(&str, "''"),
    width: default!(i32, 640),
    height: default!(i32, 320),
    fcinfo: pg_sys::FunctionCallInfo,
) -> String {
    // SAFETY: this call's fcinfo; argument 1 is the players array.
    unsafe { crate::error::require_one_dimension(fcinfo, 1, "players") };
    check_dimensions(width, height).unwrap_or_else(|e| raise_core(&e));
    let (names, mut games) = read_games(ledger, scope, &players);
    let series: Vec<Series> = names
        .into_iter()
        .map(|name| {
            let g = games.remove(&name).unwrap_or_default();
            Series::from_games(name, g)
        })
        .collect();
    let title = if scope.is_empty() {
        format!("Ratings in ledger \"{ledger}\"")
    } else {
        format!("Ratings in ledger \"{ledger}\", scope \"{scope}\"")
    };
    rating_chart(&title, &series, width, height).unwrap_or_else(|e| raise_core(&e))
}

/// Each player once, in the order given (which chooses the colours): 22004 for a NULL, 54000 for
/// more than [`MAX_CHART_PLAYERS`].
fn distinct_players(players: &Array<&str>) -> Vec<String> {
    if players.len() > MAX_CHART_PLAYERS {
        raise(
            PgSqlErrorCode::ERRCODE_PROGRAM_LIMIT_EXCEEDED,
            format!(
                "a chart shows at most {MAX_CHART_PLAYERS} players, not {}",
                players.len()
            ),
        );
    }
    let mut seen = BTreeSet::new();
    let mut names = Vec::new();
    for p in players.iter() {
        pgrx::check_for_interrupts!();
        let Some(p) = p else {
            raise(
                PgSqlErrorCode::ERRCODE_NULL_VALUE_NOT_ALLOWED,
                "players must not contain NULL",
            )
        };
        if seen.insert(p) {
            names.push(p.to_owned());
        }
    }
    names
}

/// The players listed (see [`distinct_players`]) and each one's games in the ledger's scope, in
/// the ledger's order; 22023 for an unknown ledger. Dates are read as the session's time zone
/// shows them.
fn read_games(
    ledger: &str,
    scope: &str,
    players: &Array<&str>,
) -> (Vec<String>, HashMap<String, Vec<Game>>) {
    Spi::connect_mut(|client| {
        // (the store reads with read-only SPI: this works on a hot standby)
        let id = super::reads::ledger_id_for_read(client, ledger, Some(scope), false);
        let players = distinct_players(players);
        let rows = client
            .select(
                &*crate::security::qualify(
                    "SELECT e.player, extract(epoch FROM e.game_date::timestamp)::float8 AS seconds,
                            e.rating_before, e.rating
                     FROM @extschema@.ledger_entries e
                     WHERE e.ledger_id = $1 AND e.scope = $2 AND e.player = ANY ($3)
                     ORDER BY e.player, e.game_date, e.game_key",
                ),
                None,
                &[id.into(), scope.into(), players.clone().into()],
            )
            .unwrap_or_else(|e| internal(e));
        let mut games: HashMap<String, Vec<Game>> = HashMap::new();
        for r in rows {
            pgrx::check_for_interrupts!();
            let number = |name: &str| column::<f64>(&r, name);
            let game = (number("seconds"), number("rating_before"), number("rating"));
            games.entry(column(&r, "player")).or_default().push(game);
        }
        (players, games)
    })
}

#[cfg(any(test, feature = "pg_test"))]
#[pg_schema]
mod tests {
    use pgrx::prelude::*;

    #[pg_test]
    fn chart_of_a_ledger() {
        Spi::run(
            "CREATE TABLE svg_games (id int PRIMARY KEY, played timestamptz NOT NULL, white text, black text,
                                     score float8);
             INSERT INTO svg_games VALUES (1, '2025-01-01', 'a', 'b', 1), (2, '2025-01-02', 'b', 'a', 0.5);
             INSERT INTO ledgers (name) VALUES ('svg');
             SELECT ledger_attach('svg', 'svg_games', 'id', 'played', 'white', 'black', 'score');",
        )
        .unwrap();
        let svg =
            Spi::get_one::<String>("SELECT ledger_rating_svg('svg', '{a,b,c}', width => 300)")
                .unwrap()
                .unwrap();
        assert!(svg.contains("width=\"300\" height=\"320\""));
        assert_eq!(svg.matches("<polyline ").count(), 2);
        assert!(svg.contains(">c (no games)</text>"));
        let null = Spi::get_one::<bool>("SELECT ledger_rating_svg('svg', NULL) IS NULL").unwrap();
        assert_eq!(null, Some(true));
    }

    #[pg_test]
    #[should_panic(expected = "ledger \"nope\" does not exist")]
    fn unknown_ledger_is_an_error() {
        Spi::run("SELECT ledger_rating_svg('nope', '{a}')").unwrap();
    }
}
