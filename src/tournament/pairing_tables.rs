//! Pairing the next round from an application's own tables (`tournament_pairings_from_tables`),
//! and writing it into its table of games to be played (`tournament_pair_into`): the players
//! and games are read by the column names given, with the caller's rights (a plain SELECT of the
//! caller: its privileges and row-level security apply), and returned by the application's ids.
//! What a row means and the pairing are the core's (`pg_rating_core::tournament::pairing::
//! RowTournament`); this file reads rows, maps ids and writes the pending games.

use std::ffi::{CStr, CString};

use pg_rating_core::tournament::arguments;
use pg_rating_core::tournament::pairing::{RowGame, RowPairing, RowPlayer, RowTournament};
use pg_rating_core::tournament::pending::{self, board_rows, PendingColumns};
use pg_rating_core::tournament::tables::{need, CatalogFacts, ColumnType, TableArgs, TypeClass};
use pg_rating_core::tournament::PlayerNo;
use pgrx::prelude::*;
use pgrx::spi::{quote_identifier, SpiClient};
use pgrx::{datum::DatumWithOid, JsonB, PgSqlErrorCode};
use serde_json::{Map, Value};

use super::store::Row;
use crate::error::{internal, raise, raise_core};

/// A relation's name as a statement writes it: schema and name, each quoted.
fn relation_name(rel: pg_sys::Oid) -> String {
    match crate::relation::quoted_name(rel) {
        Some((Some(schema), name)) => format!("{schema}.{name}"),
        Some((None, _)) => internal("the schema of a relation is gone"),
        None => raise(
            PgSqlErrorCode::ERRCODE_UNDEFINED_TABLE,
            format!("relation with OID {} does not exist", rel.to_u32()),
        ),
    }
}

/// A type's name as a message shows it, or (`qualified`) as a cast writes it whatever the search
/// path (with its schema unless it is pg_catalog's).
fn type_name(t: pg_sys::Oid, qualified: bool) -> String {
    // SAFETY: catalog lookups that return a palloc'd name.
    unsafe {
        let name = if qualified {
            pg_sys::format_type_be_qualified(t)
        } else {
            pg_sys::format_type_be(t)
        };
        CStr::from_ptr(name).to_string_lossy().into_owned()
    }
}

/// The type of column `column` of `rel`: `None` when it has none (the core reports it, 42703).
fn column_type(rel: pg_sys::Oid, column: &str) -> Option<pg_sys::Oid> {
    let name = CString::new(column).ok()?;
    // SAFETY: catalog lookups by oid and name; system columns (attnum < 0) are refused.
    let t = unsafe {
        let attnum = pg_sys::get_attnum(rel, name.as_ptr());
        if attnum <= 0 {
            return None;
        }
        pg_sys::get_atttype(rel, attnum)
    };
    (t != pg_sys::InvalidOid).then_some(t)
}

/// Column `column` of `rel` (argument `what`) exists: 42703 when it does not.
fn require_column(rel: pg_sys::Oid, column: &str, what: &str) {
    if column_type(rel, column).is_none() {
        raise(
            PgSqlErrorCode::ERRCODE_UNDEFINED_COLUMN,
            format!(
                "{what}: column \"{column}\" of {} does not exist",
                relation_name(rel)
            ),
        );
    }
}

/// What the core needs of the catalog for `t`: the type of each column it names and the names
/// of both tables.
fn catalog_facts(t: &Tables<'_>) -> CatalogFacts<pg_sys::Oid> {
    let columns = t.columns().into_iter().map(|(rel, column)| {
        let found = column_type(rel, column).map(|t| ColumnType {
            class: TypeClass::of_type_oid(t.to_u32()),
            name: type_name(t, true),
            label: type_name(t, false),
        });
        (rel, column.to_owned(), found)
    });
    let tables = [t.players, t.games].into_iter().flatten();
    CatalogFacts {
        columns: columns.collect(),
        relations: tables.map(|rel| (rel, relation_name(rel))).collect(),
    }
}

/// The arguments that say how the tables are read (`result_map` a jsonb, read as text: pgrx's
/// JsonB fails on 1e400 with XX000).
type Tables<'a> = TableArgs<'a, pg_sys::Oid>;

/// The rows of both tables, read as the caller by the core's statements.
fn read(client: &SpiClient<'_>, t: &Tables<'_>) -> (Vec<RowPlayer>, Vec<RowGame>, i64) {
    let reads = t
        .reads(&catalog_facts(t))
        .unwrap_or_else(|e| raise_core(&e));
    let args: Vec<DatumWithOid> = reads
        .tournament
        .as_deref()
        .map(DatumWithOid::from)
        .into_iter()
        .collect();
    let select = |sql: &str| {
        client
            .select(sql, None, &args)
            .unwrap_or_else(|e| internal(e))
    };
    let players = select(&reads.players_sql).map(|row| reads.player_of(&Row(row)));
    let players = players
        .collect::<Result<_, _>>()
        .unwrap_or_else(|e| raise_core(&e));
    let games = select(&reads.games_sql).map(|row| reads.game_of(&Row(row)));
    let games = games
        .collect::<Result<_, _>>()
        .unwrap_or_else(|e| raise_core(&e));
    (players, games, reads.rounds)
}

/// The pairing of round `round` (NULL: the next) of the tables.
fn pair(
    client: &SpiClient<'_>,
    t: &Tables<'_>,
    round: Option<i32>,
    choices: arguments::Choices,
) -> RowPairing {
    let (players, games, rounds) = read(client, t);
    let tournament =
        RowTournament::read(&players, &games, rounds).unwrap_or_else(|e| raise_core(&e));
    let number = |id: &str| tournament.number(id);
    let name = |p: PlayerNo| tournament.ids[p as usize].clone();
    let options = choices
        .options(
            &tournament.tournament,
            number,
            name,
            "is not in the players",
        )
        .unwrap_or_else(|e| raise_core(&e));
    tournament
        .pair(round.map(i64::from), options)
        .unwrap_or_else(|e| raise_core(&e))
}

/// The rows of a pairing: the boards, then the bye (Black NULL).
fn rows_of(p: &RowPairing) -> Vec<(i32, String, Option<String>)> {
    board_rows(p.boards.clone(), p.bye.clone())
}

/// `tournament_pairings_from_tables(players, games, rounds, round, player_column, ...)`
/// (declared in sql/tournament_pairing.sql).
#[allow(clippy::too_many_arguments)]
#[pg_extern(stable, parallel_restricted, sql = false)]
fn tournament_pairings_from_tables(
    players: Option<pg_sys::Oid>,
    games: Option<pg_sys::Oid>,
    rounds: Option<i32>,
    round: Option<i32>,
    player_column: Option<&str>,
    rating_column: Option<&str>,
    name_column: Option<&str>,
    initial_order_column: Option<&str>,
    withdrawn_column: Option<&str>,
    round_column: Option<&str>,
    white_column: Option<&str>,
    black_column: Option<&str>,
    result_column: Option<&str>,
    forfeit_column: Option<&str>,
    // jsonb, read as text (pgrx's JsonB fails on 1e400 with XX000)
    result_map: Option<pgrx::AnyElement>,
    tournament_column: Option<&str>,
    tournament: Option<&str>,
    forbidden_pairs: Option<Vec<Option<String>>>,
    baku_acceleration: Option<bool>,
    first_colour_white: Option<bool>,
    system: Option<&str>,
    virtual_points: Option<pgrx::AnyElement>,
) -> TableIterator<
    'static,
    (
        name!(board, i32),
        name!(white, String),
        name!(black, Option<String>),
    ),
> {
    let tables = Tables {
        players,
        games,
        rounds,
        player_column,
        rating_column,
        name_column,
        initial_order_column,
        withdrawn_column,
        round_column,
        white_column,
        black_column,
        result_column,
        forfeit_column,
        result_map: result_map.map(|m| crate::types::jsonb_text(&m)),
        tournament_column,
        tournament,
    };
    // (evaluated in this order: baku_acceleration, then the system, checked before any read)
    let choices = arguments::Choices::of_tables(
        baku_acceleration,
        system,
        forbidden_pairs,
        virtual_points.map(|v| crate::types::jsonb_text(&v)),
        first_colour_white,
    )
    .unwrap_or_else(|e| raise_core(&e));
    let pairing = Spi::connect(|client| pair(client, &tables, round, choices));
    TableIterator::new(rows_of(&pairing))
}

/// A jsonb argument that must be an object of column names (each a column of `rel`, 42703).
fn values_of(v: Option<pgrx::AnyElement>, what: &str, rel: pg_sys::Oid) -> Map<String, Value> {
    let Some(v) = v else {
        return Map::new();
    };
    let map =
        pending::values_of(&crate::types::jsonb_text(&v), what).unwrap_or_else(|e| raise_core(&e));
    for column in map.keys() {
        require_column(rel, column, what);
    }
    map
}

/// `tournament_pair_into(pending, players, games, rounds, ...)` (declared in
/// sql/tournament_pairing.sql): the pairing, inserted into `pending` as the caller, one row per
/// board and one for the bye.
#[allow(clippy::too_many_arguments)]
#[pg_extern(volatile, parallel_unsafe, sql = false)]
fn tournament_pair_into(
    pending: Option<pg_sys::Oid>,
    players: Option<pg_sys::Oid>,
    games: Option<pg_sys::Oid>,
    rounds: Option<i32>,
    round: Option<i32>,
    player_column: Option<&str>,
    rating_column: Option<&str>,
    name_column: Option<&str>,
    initial_order_column: Option<&str>,
    withdrawn_column: Option<&str>,
    round_column: Option<&str>,
    white_column: Option<&str>,
    black_column: Option<&str>,
    result_column: Option<&str>,
    forfeit_column: Option<&str>,
    result_map: Option<pgrx::AnyElement>,
    tournament_column: Option<&str>,
    tournament: Option<&str>,
    forbidden_pairs: Option<Vec<Option<String>>>,
    baku_acceleration: Option<bool>,
    first_colour_white: Option<bool>,
    pending_white_column: Option<&str>,
    pending_black_column: Option<&str>,
    pending_round_column: Option<&str>,
    pending_board_column: Option<&str>,
    pending_values: Option<pgrx::AnyElement>,
    pending_bye_values: Option<pgrx::AnyElement>,
    system: Option<&str>,
    virtual_points: Option<pgrx::AnyElement>,
) -> TableIterator<
    'static,
    (
        name!(board, i32),
        name!(white, String),
        name!(black, Option<String>),
    ),
> {
    let pending = need(pending, "pending").unwrap_or_else(|e| raise_core(&e));
    // what is written, checked before anything is read
    let columns = PendingColumns::of_args(
        pending_white_column,
        pending_black_column,
        pending_round_column,
        pending_board_column,
    )
    .unwrap_or_else(|e| raise_core(&e));
    for (what, c) in columns.named() {
        require_column(pending, c, what);
    }
    let values = values_of(pending_values, "pending_values", pending);
    let bye_values = values_of(pending_bye_values, "pending_bye_values", pending);
    columns
        .check_values(&values, &bye_values)
        .unwrap_or_else(|e| raise_core(&e));
    let tables = Tables {
        players,
        games,
        rounds,
        player_column,
        rating_column,
        name_column,
        initial_order_column,
        withdrawn_column,
        round_column,
        white_column,
        black_column,
        result_column,
        forfeit_column,
        result_map: result_map.map(|m| crate::types::jsonb_text(&m)),
        tournament_column,
        tournament,
    };
    // (evaluated in this order: baku_acceleration, then the system, checked before any read)
    let choices = arguments::Choices::of_tables(
        baku_acceleration,
        system,
        forbidden_pairs,
        virtual_points.map(|v| crate::types::jsonb_text(&v)),
        first_colour_white,
    )
    .unwrap_or_else(|e| raise_core(&e));
    Spi::connect_mut(|client| {
        let pairing = pair(client, &tables, round, choices);
        let target = relation_name(pending);
        for batch in columns.records(&pairing, &values, &bye_values) {
            let Some(first) = batch.first() else {
                continue;
            };
            let sql = pending::insert_statement(&target, first.keys(), |c| quote_identifier(c));
            let records = Value::Array(batch.into_iter().map(Value::Object).collect());
            client
                .update(&sql, None, &[JsonB(records).into()])
                .unwrap_or_else(|e| internal(e));
        }
        TableIterator::new(rows_of(&pairing))
    })
}
