//! `ledger_rating_svg`: players' ratings in a ledger over time as an SVG chart (drawn by
//! `pg_rating_core::svg::chart`); this file reads the players' entries.

use std::collections::HashMap;

use pg_rating_core::svg::chart::{chart_players, check_dimensions, ledger_chart};
use pgrx::prelude::*;

use super::internal;
use crate::error::raise_core;
use crate::spi::column;

extension_sql_file!(
    "../../sql/ledger_svg.sql",
    name = "ledger_svg",
    requires = ["ledgers", ledger_rating_svg]
);

/// Strict: a NULL argument gives NULL. Errors: width or height outside 100..4096 or an unknown
/// ledger 22023, a NULL player 22004, a players array of more than one dimension 2202E, more than
/// [`pg_rating_core::svg::chart::MAX_CHART_PLAYERS`] players 54000. The ledger is read (and the
/// caller's right to read it checked) before anything is done with the players.
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
    // Each player's games in the ledger's scope, in the ledger's order: (date in seconds of the
    // session's time zone, rating before, after). Read-only SPI: this works on a hot standby.
    let (names, games) = Spi::connect_mut(|client| {
        let id = super::reads::ledger_id_for_read(client, ledger, Some(scope), false);
        let names = chart_players(players.len(), players.iter()).unwrap_or_else(|e| raise_core(&e));
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
                &[id.into(), scope.into(), names.clone().into()],
            )
            .unwrap_or_else(|e| internal(e));
        let mut games: HashMap<String, Vec<(f64, f64, f64)>> = HashMap::new();
        for r in rows {
            pgrx::check_for_interrupts!();
            let number = |name: &str| column::<f64>(&r, name);
            let game = (number("seconds"), number("rating_before"), number("rating"));
            games.entry(column(&r, "player")).or_default().push(game);
        }
        (names, games)
    });
    ledger_chart(ledger, scope, names, games, width, height).unwrap_or_else(|e| raise_core(&e))
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
