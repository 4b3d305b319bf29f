//! What `tournament_pairings_from_tables` and `tournament_pair_into` read from an application's
//! own tables, decided from their arguments: which arguments must be given, which columns must
//! exist and of which type, the two SELECT statements made from the column names, and what each
//! row read means ([`RowPlayer`], [`RowGame`]). The glue looks columns up in the catalog (and
//! reports one that does not exist), runs the statements and hands over each row's values.

use std::fmt;

use super::columns::Columns;
use crate::error::{Classified, ErrorClass, Quoted};
use crate::ledger::integer_key;
use crate::tournament::arguments::{self, row_result, ResultMap};
use crate::tournament::pairing::{PairingSystem, RowGame, RowPlayer, RowsError};

fn error(class: ErrorClass, message: String) -> RowsError {
    RowsError { class, message }
}

/// 22004 for an argument given as NULL.
pub fn need<T>(v: Option<T>, what: &str) -> Result<T, RowsError> {
    v.ok_or_else(|| error(ErrorClass::NullValue, format!("{what} must not be NULL")))
}

/// The two tables read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Table {
    Players,
    Games,
}

/// What the statements need to know of a column's type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TypeClass {
    /// smallint, integer, bigint.
    Integer,
    /// numeric, real, double precision.
    Number,
    Boolean,
    Other,
}

impl TypeClass {
    /// The class of the PostgreSQL type of oid `oid` (the built-in types' fixed oids).
    pub fn of_type_oid(oid: u32) -> TypeClass {
        use crate::type_oid::*;
        match oid {
            INT8 | INT2 | INT4 => TypeClass::Integer,
            FLOAT4 | FLOAT8 | NUMERIC => TypeClass::Number,
            BOOL => TypeClass::Boolean,
            _ => TypeClass::Other,
        }
    }
}

/// A column's type as the catalog describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ColumnType {
    pub class: TypeClass,
    /// The type's name as a cast writes it whatever the search path (schema-qualified).
    pub name: String,
    /// The type's name as a message shows it.
    pub label: String,
}

/// What the glue found in the catalog for the columns [`TableArgs::columns`] names, before the
/// core decides (it asks the glue nothing): each column's type (`None`: the table has no such
/// column), and each table's schema-qualified, quoted name.
#[derive(Clone, Debug, Default)]
pub struct CatalogFacts<R> {
    pub columns: Vec<(R, String, Option<ColumnType>)>,
    pub relations: Vec<(R, String)>,
}

impl<R: Copy + PartialEq + fmt::Debug> CatalogFacts<R> {
    /// The name of `rel`: XX000 when the glue gathered none (facts that do not match the
    /// arguments: no name stands in for it).
    fn relation(&self, rel: R) -> Result<&str, RowsError> {
        let name = self.relations.iter().find(|(r, _)| *r == rel);
        name.map(|(_, name)| name.as_str()).ok_or_else(|| {
            error(
                ErrorClass::Internal,
                format!("the catalog facts name no relation {rel:?}"),
            )
        })
    }

    /// The type of column `column` of `rel`, named by argument `what`: 42703 when it has none.
    fn column(&self, rel: R, column: &str, what: &str) -> Result<&ColumnType, RowsError> {
        let found = self
            .columns
            .iter()
            .find(|(r, c, _)| *r == rel && c == column);
        match found {
            Some((_, _, Some(t))) => Ok(t),
            _ => Err(error(
                ErrorClass::UndefinedColumn,
                format!(
                    "{what}: column \"{column}\" of {} does not exist",
                    self.relation(rel)?
                ),
            )),
        }
    }
}

/// An identifier quoted (always: a quoted name means the same as the name itself wherever
/// quoting is optional).
fn quote(ident: &str) -> String {
    format!("\"{}\"", ident.replace('"', "\"\""))
}

/// The arguments of the pairing functions that say how the tables are read.
#[derive(Clone, Debug)]
pub struct TableArgs<'a, R> {
    pub players: Option<R>,
    pub games: Option<R>,
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
    /// The `result_map` argument's JSON text.
    pub result_map: Option<String>,
    pub tournament_column: Option<&'a str>,
    pub tournament: Option<&'a str>,
}

/// The statements that read both tables and what their rows mean.
#[derive(Clone, Debug, PartialEq)]
pub struct TableReads {
    /// Players' rows: id (text), id as a number (integer ids only), rating, name, initial
    /// order, withdrawn ([`TableReads::player`] reads them).
    pub players_sql: String,
    /// Games' rows ordered by round: round, white, black, result, forfeit
    /// ([`TableReads::game`] reads them).
    pub games_sql: String,
    /// `$1` of both statements: the tournament whose rows are read (`None`: every row).
    pub tournament: Option<String>,
    pub rounds: i64,
    players: String,
    games: String,
    result_map: Option<ResultMap>,
}

/// The type of column `column` of `rel`, 42804 unless `ok` accepts its class (`wanted` says
/// which classes).
fn typed<R: Copy + PartialEq + fmt::Debug>(
    catalog: &CatalogFacts<R>,
    rel: R,
    column: &str,
    what: &str,
    ok: impl Fn(TypeClass) -> bool,
    wanted: &str,
) -> Result<(), RowsError> {
    let t = catalog.column(rel, column, what)?;
    if ok(t.class) {
        return Ok(());
    }
    Err(error(
        ErrorClass::DatatypeMismatch,
        format!(
            "{what}: column \"{column}\" of {} is {}, not {wanted}",
            catalog.relation(rel)?,
            t.label
        ),
    ))
}

fn integer(c: TypeClass) -> bool {
    c == TypeClass::Integer
}

fn number(c: TypeClass) -> bool {
    matches!(c, TypeClass::Integer | TypeClass::Number)
}

fn boolean(c: TypeClass) -> bool {
    c == TypeClass::Boolean
}

/// A `result_map` argument (its JSON text) as a [`ResultMap`]: 22023 for a number beyond what a
/// score can be (`1e400`: read as a double, it would be infinite) and for a meaning not known.
pub fn result_map_text(text: &str) -> Result<ResultMap, RowsError> {
    match serde_json::from_str(text) {
        Ok(v) => ResultMap::from_json(&v),
        Err(e) => Err(error(
            ErrorClass::InvalidParameter,
            format!(
                "result_map {}: {}, not a score in [0, 1]",
                Quoted(text),
                // (serde_json says where: "number out of range at line 1 column 11")
                e.to_string().split(" at line").next().unwrap_or_default()
            ),
        )),
    }
}

impl<'a, R: Copy + PartialEq + fmt::Debug> TableArgs<'a, R> {
    /// The columns the statements read, each with its table: what the glue looks up for
    /// [`TableArgs::reads`].
    pub fn columns(&self) -> Vec<(R, &'a str)> {
        let players = [
            self.player_column,
            self.rating_column,
            self.name_column,
            self.initial_order_column,
            self.withdrawn_column,
            self.tournament_column,
        ];
        let games = [
            self.round_column,
            self.white_column,
            self.black_column,
            self.result_column,
            self.forfeit_column,
            self.tournament_column,
        ];
        let of = |rel: Option<R>, columns: [Option<&'a str>; 6]| {
            rel.into_iter()
                .flat_map(move |r| columns.into_iter().flatten().map(move |c| (r, c)))
        };
        of(self.players, players)
            .chain(of(self.games, games))
            .collect()
    }

    /// The statements reading the tables, each argument checked in the arguments' order (the
    /// players' columns, then the games', the result map, the tournament).
    pub fn reads(&self, c: &CatalogFacts<R>) -> Result<TableReads, RowsError> {
        let players = need(self.players, "players")?;
        let games = need(self.games, "games")?;
        let rounds = need(self.rounds, "rounds")?;
        let id_col = need(self.player_column, "player_column")?;
        let id = quote(id_col);
        let integer_ids = integer(c.column(players, id_col, "player_column")?.class);
        let mut select = vec![format!("p.{id}::pg_catalog.text AS id")];
        select.push(if integer_ids {
            format!("p.{id}::pg_catalog.int8 AS id_number")
        } else {
            "NULL::pg_catalog.int8 AS id_number".into()
        });
        select.push(match self.rating_column {
            Some(col) => {
                typed(c, players, col, "rating_column", number, "a number")?;
                format!(
                    "pg_catalog.round(p.{}::pg_catalog.numeric)::pg_catalog.int4 AS rating",
                    quote(col)
                )
            }
            None => "NULL::pg_catalog.int4 AS rating".into(),
        });
        select.push(match self.name_column {
            Some(col) => {
                c.column(players, col, "name_column")?;
                format!("coalesce(p.{}::pg_catalog.text, '') AS name", quote(col))
            }
            None => "'' AS name".into(),
        });
        select.push(match self.initial_order_column {
            Some(col) => {
                let what = "initial_order_column";
                typed(c, players, col, what, integer, "an integer")?;
                format!("p.{}::pg_catalog.int8 AS initial_order", quote(col))
            }
            None => "NULL::pg_catalog.int8 AS initial_order".into(),
        });
        select.push(match self.withdrawn_column {
            Some(col) => {
                typed(c, players, col, "withdrawn_column", boolean, "boolean")?;
                format!("coalesce(p.{}, false) AS withdrawn", quote(col))
            }
            None => "false AS withdrawn".into(),
        });
        let round_col = need(self.round_column, "round_column")?;
        let white_col = need(self.white_column, "white_column")?;
        let black_col = need(self.black_column, "black_column")?;
        let result_col = need(self.result_column, "result_column")?;
        typed(c, games, round_col, "round_column", integer, "an integer")?;
        c.column(games, white_col, "white_column")?;
        c.column(games, black_col, "black_column")?;
        c.column(games, result_col, "result_column")?;
        let forfeit = match self.forfeit_column {
            Some(col) => {
                typed(c, games, col, "forfeit_column", boolean, "boolean")?;
                format!("coalesce(g.{}, false)", quote(col))
            }
            None => "false".into(),
        };
        let result_map = self
            .result_map
            .as_deref()
            .map(result_map_text)
            .transpose()?;

        // one tournament of tables that hold many: the rows whose tournament column equals it
        let (players_where, games_where) = match (self.tournament_column, self.tournament) {
            (None, None) => (String::new(), String::new()),
            (Some(col), Some(_)) => {
                let p_type = &c.column(players, col, "tournament_column")?.name;
                let g_type = &c.column(games, col, "tournament_column")?.name;
                let col = quote(col);
                (
                    format!("WHERE p.{col} = CAST($1 AS {p_type})"),
                    format!("WHERE g.{col} = CAST($1 AS {g_type})"),
                )
            }
            (Some(_), None) => {
                return Err(error(
                    ErrorClass::NullValue,
                    "tournament must not be NULL when tournament_column is given".into(),
                ))
            }
            (None, Some(_)) => return Err(error(
                ErrorClass::InvalidParameter,
                "tournament needs tournament_column: the column of both tables that names the tournament"
                    .into(),
            )),
        };
        let players = c.relation(players)?.to_owned();
        let games = c.relation(games)?.to_owned();
        Ok(TableReads {
            players_sql: format!(
                "SELECT {} FROM {players} p {players_where}",
                select.join(", ")
            ),
            games_sql: format!(
                "SELECT g.{}::pg_catalog.int8 AS round, g.{}::pg_catalog.text AS white, \
                 g.{}::pg_catalog.text AS black, g.{}::pg_catalog.text AS result, \
                 {forfeit} AS forfeit FROM {games} g {games_where} ORDER BY 1",
                quote(round_col),
                quote(white_col),
                quote(black_col),
                quote(result_col),
            ),
            tournament: self.tournament.map(str::to_owned),
            rounds: i64::from(rounds),
            players,
            games,
            result_map,
        })
    }
}

impl TableReads {
    /// A player of a row of `players_sql`: 22004 for one without an id; an integer id is
    /// ordered by its value, a text id by its text. (Called per row: a cancel is seen here.)
    pub fn player(
        &self,
        id: Option<String>,
        id_number: Option<i64>,
        rating: Option<i32>,
        name: Option<String>,
        initial_order: Option<i64>,
        withdrawn: Option<bool>,
    ) -> Result<RowPlayer, RowsError> {
        crate::interrupt::check();
        let id = id.ok_or_else(|| {
            error(
                ErrorClass::NullValue,
                format!("player_column: a row of {} has no id (NULL)", self.players),
            )
        })?;
        Ok(RowPlayer {
            order_key: id_number.map(integer_key).unwrap_or_else(|| id.clone()),
            id,
            rating,
            name: name.unwrap_or_default(),
            initial_order,
            withdrawn: withdrawn.unwrap_or(false),
        })
    }

    /// [`TableReads::player`] of a row of `players_sql` (columns `id`, `id_number`, `rating`,
    /// `name`, `initial_order`, `withdrawn`).
    pub fn player_of(&self, row: &impl Columns) -> Result<RowPlayer, RowsError> {
        self.player(
            row.text_or_null("id"),
            row.big_or_null("id_number"),
            row.int_or_null("rating"),
            row.text_or_null("name"),
            row.big_or_null("initial_order"),
            row.flag_or_null("withdrawn"),
        )
    }

    /// [`TableReads::game`] of a row of `games_sql` (columns `round`, `white`, `black`,
    /// `result`, `forfeit`).
    pub fn game_of(&self, row: &impl Columns) -> Result<RowGame, RowsError> {
        self.game(
            row.big_or_null("round"),
            row.text_or_null("white"),
            row.text_or_null("black"),
            row.text_or_null("result"),
            row.flag_or_null("forfeit"),
        )
    }

    /// A game of a row of `games_sql`: 22004 for a NULL round or White; the result by the
    /// result map ([`row_result`]). (Called per row: a cancel is seen here.)
    pub fn game(
        &self,
        round: Option<i64>,
        white: Option<String>,
        black: Option<String>,
        result: Option<String>,
        forfeit: Option<bool>,
    ) -> Result<RowGame, RowsError> {
        crate::interrupt::check();
        let null = |what: &str| {
            error(
                ErrorClass::NullValue,
                format!("{what}: a row of {} is NULL", self.games),
            )
        };
        let round = round.ok_or_else(|| null("round_column"))?;
        let white = white.ok_or_else(|| null("white_column"))?;
        let result = row_result(result.as_deref(), self.result_map.as_ref(), round)?;
        Ok(RowGame {
            round,
            white,
            black,
            result,
            forfeit: forfeit.unwrap_or(false),
        })
    }
}

/// The pairing system named by a `system` argument: 22004 for NULL, 22023 for a name other than
/// `dutch` and `burstein`.
pub fn system_arg(name: Option<&str>) -> Result<PairingSystem, RowsError> {
    let name = name.ok_or_else(|| {
        error(
            ErrorClass::NullValue,
            "system must be 'dutch' or 'burstein', not NULL".into(),
        )
    })?;
    PairingSystem::from_name(name).map_err(|e| error(e.class(), e.message))
}

impl arguments::Choices {
    /// The choices of the functions that pair an application's tables, checked in the order
    /// they are evaluated: `baku_acceleration` (22004 for NULL), then the system.
    pub fn of_tables(
        baku_acceleration: Option<bool>,
        system: Option<&str>,
        forbidden_pairs: Option<Vec<Option<String>>>,
        virtual_points: Option<String>,
        first_colour_white: Option<bool>,
    ) -> Result<arguments::Choices, RowsError> {
        Ok(arguments::Choices {
            baku_acceleration: need(baku_acceleration, "baku_acceleration")?,
            system: system_arg(system)?,
            forbidden_pairs: forbidden_pairs.unwrap_or_default(),
            virtual_points,
            first_colour_white,
        })
    }
}

#[cfg(test)]
mod tests;
