//! Pairing the next round from an application's own tables (`tournament_pairings_from_tables`),
//! and writing it into its table of games to be played (`tournament_pair_into`): the players
//! and games are read by the column names given, with the caller's rights (a plain SELECT of the
//! caller: its privileges and row-level security apply), and returned by the application's ids.
//! What a row means and the pairing are the core's (`pg_rating_core::tournament::pairing::
//! RowTournament`); this file reads rows, maps ids and writes the pending games.

use std::ffi::{CStr, CString};

use pg_rating_core::ledger::integer_key;
use pg_rating_core::tournament::arguments::{self, row_result, ResultMap};
use pg_rating_core::tournament::pairing::{RowGame, RowPairing, RowPlayer, RowTournament};
use pg_rating_core::tournament::pending::{self, board_rows, PendingColumns};
use pg_rating_core::tournament::PlayerNo;
use pgrx::prelude::*;
use pgrx::spi::SpiClient;
use pgrx::{datum::DatumWithOid, JsonB, PgSqlErrorCode};
use serde_json::{Map, Value};

use super::pairing::{cancellable, system_of};
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

/// A type's name, qualified with its schema unless it is pg_catalog's (for a cast in a
/// statement, whatever the search path).
fn type_name(t: pg_sys::Oid) -> String {
    // SAFETY: a catalog lookup that returns a palloc'd name.
    unsafe {
        CStr::from_ptr(pg_sys::format_type_be_qualified(t))
            .to_string_lossy()
            .into_owned()
    }
}

fn type_label(t: pg_sys::Oid) -> String {
    // SAFETY: a catalog lookup that returns a palloc'd name.
    unsafe {
        CStr::from_ptr(pg_sys::format_type_be(t))
            .to_string_lossy()
            .into_owned()
    }
}

fn quote(ident: &str) -> String {
    pgrx::spi::quote_identifier(ident)
}

/// The type of column `column` of `rel` (argument `what`): 42703 when it has none.
fn column_type(rel: pg_sys::Oid, column: &str, what: &str) -> pg_sys::Oid {
    let missing = || -> ! {
        raise(
            PgSqlErrorCode::ERRCODE_UNDEFINED_COLUMN,
            format!(
                "{what}: column \"{column}\" of {} does not exist",
                relation_name(rel)
            ),
        )
    };
    let Ok(name) = CString::new(column) else {
        missing()
    };
    // SAFETY: catalog lookups by oid and name; system columns (attnum < 0) are refused.
    let t = unsafe {
        let attnum = pg_sys::get_attnum(rel, name.as_ptr());
        if attnum <= 0 {
            missing();
        }
        pg_sys::get_atttype(rel, attnum)
    };
    if t == pg_sys::InvalidOid {
        missing();
    }
    t
}

const INTEGERS: [pg_sys::Oid; 3] = [pg_sys::INT2OID, pg_sys::INT4OID, pg_sys::INT8OID];
const NUMBERS: [pg_sys::Oid; 6] = [
    pg_sys::INT2OID,
    pg_sys::INT4OID,
    pg_sys::INT8OID,
    pg_sys::NUMERICOID,
    pg_sys::FLOAT4OID,
    pg_sys::FLOAT8OID,
];

/// The column's type, 42804 unless it is one of `types` (`wanted` says which).
fn typed_column(
    rel: pg_sys::Oid,
    column: &str,
    what: &str,
    types: &[pg_sys::Oid],
    wanted: &str,
) -> pg_sys::Oid {
    let t = column_type(rel, column, what);
    if !types.contains(&t) {
        raise(
            PgSqlErrorCode::ERRCODE_DATATYPE_MISMATCH,
            format!(
                "{what}: column \"{column}\" of {} is {}, not {wanted}",
                relation_name(rel),
                type_label(t)
            ),
        );
    }
    t
}

fn need<T>(v: Option<T>, what: &str) -> T {
    v.unwrap_or_else(|| {
        raise(
            PgSqlErrorCode::ERRCODE_NULL_VALUE_NOT_ALLOWED,
            format!("{what} must not be NULL"),
        )
    })
}

/// How the players and games are read: the arguments of `tournament_pairings_from_tables`.
pub struct Tables<'a> {
    pub players: Option<pg_sys::Oid>,
    pub games: Option<pg_sys::Oid>,
    pub rounds: Option<i32>,
    pub player_column: Option<&'a str>,
    pub rating_column: Option<&'a str>,
    pub name_column: Option<&'a str>,
    pub initial_order_column: Option<&'a str>,
    pub withdrawn_column: Option<&'a str>,
    pub round_column: Option<&'a str>,
    pub white_column: Option<&'a str>,
    pub black_column: Option<&'a str>,
    pub result_column: Option<&'a str>,
    pub forfeit_column: Option<&'a str>,
    pub result_map: Option<pgrx::AnyElement>,
    pub tournament_column: Option<&'a str>,
    pub tournament: Option<&'a str>,
}

/// The rows of both tables, read as the caller.
fn read(client: &SpiClient<'_>, t: &Tables<'_>) -> (Vec<RowPlayer>, Vec<RowGame>, i64) {
    let players = need(t.players, "players");
    let games = need(t.games, "games");
    let rounds = need(t.rounds, "rounds");
    let id_col = need(t.player_column, "player_column");
    let id_type = column_type(players, id_col, "player_column");
    let integer_ids = INTEGERS.contains(&id_type);
    let mut select = vec![format!("p.{}::pg_catalog.text AS id", quote(id_col))];
    select.push(if integer_ids {
        format!("p.{}::pg_catalog.int8 AS id_number", quote(id_col))
    } else {
        "NULL::pg_catalog.int8 AS id_number".into()
    });
    select.push(match t.rating_column {
        Some(c) => {
            typed_column(players, c, "rating_column", &NUMBERS, "a number");
            format!(
                "pg_catalog.round(p.{}::pg_catalog.numeric)::pg_catalog.int4 AS rating",
                quote(c)
            )
        }
        None => "NULL::pg_catalog.int4 AS rating".into(),
    });
    select.push(match t.name_column {
        Some(c) => {
            column_type(players, c, "name_column");
            format!("coalesce(p.{}::pg_catalog.text, '') AS name", quote(c))
        }
        None => "'' AS name".into(),
    });
    select.push(match t.initial_order_column {
        Some(c) => {
            typed_column(players, c, "initial_order_column", &INTEGERS, "an integer");
            format!("p.{}::pg_catalog.int8 AS initial_order", quote(c))
        }
        None => "NULL::pg_catalog.int8 AS initial_order".into(),
    });
    select.push(match t.withdrawn_column {
        Some(c) => {
            typed_column(
                players,
                c,
                "withdrawn_column",
                &[pg_sys::BOOLOID],
                "boolean",
            );
            format!("coalesce(p.{}, false) AS withdrawn", quote(c))
        }
        None => "false AS withdrawn".into(),
    });
    let round_col = need(t.round_column, "round_column");
    let white_col = need(t.white_column, "white_column");
    let black_col = need(t.black_column, "black_column");
    let result_col = need(t.result_column, "result_column");
    typed_column(games, round_col, "round_column", &INTEGERS, "an integer");
    column_type(games, white_col, "white_column");
    column_type(games, black_col, "black_column");
    column_type(games, result_col, "result_column");
    let forfeit = match t.forfeit_column {
        Some(c) => {
            typed_column(games, c, "forfeit_column", &[pg_sys::BOOLOID], "boolean");
            format!("coalesce(g.{}, false)", quote(c))
        }
        None => "false".into(),
    };
    let result_map = t.result_map.map(|m| {
        ResultMap::from_json(&crate::ledger::attachment::result_map_arg(m).0)
            .unwrap_or_else(|e| raise_core(&e))
    });

    // one tournament of tables that hold many: the rows whose tournament column equals it
    let (players_where, games_where, args) = match (t.tournament_column, t.tournament) {
        (None, None) => (String::new(), String::new(), Vec::new()),
        (Some(c), Some(value)) => {
            let p_type = column_type(players, c, "tournament_column");
            let g_type = column_type(games, c, "tournament_column");
            (
                format!(
                    "WHERE p.{} = CAST($1 AS {})",
                    quote(c),
                    type_name(p_type)
                ),
                format!(
                    "WHERE g.{} = CAST($1 AS {})",
                    quote(c),
                    type_name(g_type)
                ),
                vec![DatumWithOid::from(value)],
            )
        }
        (Some(_), None) => raise(
            PgSqlErrorCode::ERRCODE_NULL_VALUE_NOT_ALLOWED,
            "tournament must not be NULL when tournament_column is given",
        ),
        (None, Some(_)) => raise(
            PgSqlErrorCode::ERRCODE_INVALID_PARAMETER_VALUE,
            "tournament needs tournament_column: the column of both tables that names the tournament",
        ),
    };

    let sql = format!(
        "SELECT {} FROM {} p {players_where}",
        select.join(", "),
        relation_name(players)
    );
    let rows = client
        .select(&sql, None, &args)
        .unwrap_or_else(|e| internal(e));
    let mut read_players = Vec::with_capacity(rows.len());
    for row in rows {
        let get = |i: usize| -> Option<String> { row.get(i).unwrap_or_else(|e| internal(e)) };
        let id = get(1).unwrap_or_else(|| {
            raise(
                PgSqlErrorCode::ERRCODE_NULL_VALUE_NOT_ALLOWED,
                format!(
                    "player_column: a row of {} has no id (NULL)",
                    relation_name(players)
                ),
            )
        });
        let id_number: Option<i64> = row.get(2).unwrap_or_else(|e| internal(e));
        read_players.push(RowPlayer {
            order_key: id_number.map(integer_key).unwrap_or_else(|| id.clone()),
            id,
            rating: row.get(3).unwrap_or_else(|e| internal(e)),
            name: get(4).unwrap_or_default(),
            initial_order: row.get(5).unwrap_or_else(|e| internal(e)),
            withdrawn: row.get(6).unwrap_or_else(|e| internal(e)).unwrap_or(false),
        });
    }

    let sql = format!(
        "SELECT g.{}::pg_catalog.int8, g.{}::pg_catalog.text, g.{}::pg_catalog.text, \
         g.{}::pg_catalog.text, {forfeit} FROM {} g {games_where} ORDER BY 1",
        quote(round_col),
        quote(white_col),
        quote(black_col),
        quote(result_col),
        relation_name(games)
    );
    let rows = client
        .select(&sql, None, &args)
        .unwrap_or_else(|e| internal(e));
    let mut read_games = Vec::with_capacity(rows.len());
    for row in rows {
        let text = |i: usize| -> Option<String> { row.get(i).unwrap_or_else(|e| internal(e)) };
        let null = |what: &str| -> ! {
            raise(
                PgSqlErrorCode::ERRCODE_NULL_VALUE_NOT_ALLOWED,
                format!("{what}: a row of {} is NULL", relation_name(games)),
            )
        };
        let round: i64 = row
            .get(1)
            .unwrap_or_else(|e| internal(e))
            .unwrap_or_else(|| null("round_column"));
        let white = text(2).unwrap_or_else(|| null("white_column"));
        let result = row_result(text(4).as_deref(), result_map.as_ref(), round)
            .unwrap_or_else(|e| raise_core(&e));
        read_games.push(RowGame {
            round,
            white,
            black: text(3),
            result,
            forfeit: row.get(5).unwrap_or_else(|e| internal(e)).unwrap_or(false),
        });
    }
    (read_players, read_games, i64::from(rounds))
}

/// The pairing of round `round` (NULL: the next) of the tables.
fn pair(
    client: &SpiClient<'_>,
    t: &Tables<'_>,
    round: Option<i32>,
    choices: arguments::Choices,
) -> RowPairing {
    cancellable();
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
    // jsonb, read by attachment::result_map_arg (pgrx's JsonB fails on 1e400 with XX000)
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
        result_map,
        tournament_column,
        tournament,
    };
    // (evaluated in this order: baku_acceleration, then the system, checked before any read)
    let choices = arguments::Choices {
        baku_acceleration: need(baku_acceleration, "baku_acceleration"),
        system: system_of(system),
        forbidden_pairs: forbidden_pairs.unwrap_or_default(),
        virtual_points: virtual_points.map(|v| crate::types::jsonb_text(&v)),
        first_colour_white,
    };
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
        column_type(rel, column, what);
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
    let pending = need(pending, "pending");
    // what is written, checked before anything is read
    let white_to = need(pending_white_column, "pending_white_column");
    let black_to = need(pending_black_column, "pending_black_column");
    let columns = PendingColumns {
        white: white_to,
        black: black_to,
        round: pending_round_column,
        board: pending_board_column,
    };
    for (what, c) in columns.named() {
        column_type(pending, c, what);
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
        result_map,
        tournament_column,
        tournament,
    };
    // (evaluated in this order: baku_acceleration, then the system, checked before any read)
    let choices = arguments::Choices {
        baku_acceleration: need(baku_acceleration, "baku_acceleration"),
        system: system_of(system),
        forbidden_pairs: forbidden_pairs.unwrap_or_default(),
        virtual_points: virtual_points.map(|v| crate::types::jsonb_text(&v)),
        first_colour_white,
    };
    Spi::connect_mut(|client| {
        let pairing = pair(client, &tables, round, choices);
        let target = relation_name(pending);
        for batch in columns.records(&pairing, &values, &bye_values) {
            let Some(first) = batch.first() else {
                continue;
            };
            let list = first.keys().map(|c| quote(c)).collect::<Vec<_>>();
            let from = first
                .keys()
                .map(|c| format!("r.{}", quote(c)))
                .collect::<Vec<_>>();
            let sql = format!(
                "INSERT INTO {target} ({}) SELECT {} \
                 FROM pg_catalog.jsonb_populate_recordset(NULL::{target}, $1) r",
                list.join(", "),
                from.join(", ")
            );
            let records = Value::Array(batch.into_iter().map(Value::Object).collect());
            client
                .update(&sql, None, &[JsonB(records).into()])
                .unwrap_or_else(|e| internal(e));
        }
        TableIterator::new(rows_of(&pairing))
    })
}
