//! How a ledger reads its games table: the attached columns (a `ledger_attachments` row), the
//! statements built from them, and what a row read means (a rated game, or why it cannot be
//! one). The glue gathers first what the statements need of the catalog (the table's quoted name,
//! how its key compares: plain data in [`Attachment`]) and runs them as the table's owner.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;

use super::paths::{self, Join, Plan};
use super::results::{self, Meaning, ResultMap};
use super::{integer_key, integer_key_id, LedgerKey, MultiplayerRule, Outcome};
use crate::error::{Classified, ErrorClass, Quoted};
use crate::quote::quote_ident;
use crate::rating::RatingError;
use crate::type_oid;

/// How a key column's values are ordered: integers by their value (kept as texts that sort so),
/// uuids as uuids, texts bytewise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyKind {
    Integer,
    Uuid,
    Text,
}

/// A ledger's games table and its columns (a `ledger_attachments` row).
#[derive(Clone, Debug)]
pub struct Attachment<R> {
    pub ledger_id: i32,
    pub table: R,
    /// The table's name, schema-qualified and quoted (the glue reads it from the catalog).
    pub table_name: String,
    /// The table's owner, whose rights every read of the table runs with.
    pub owner: R,
    pub key_column: String,
    pub key_type: R,
    /// How the key column's type compares (the glue's reading of `key_type`).
    pub key_kind: KeyKind,
    pub date_column: String,
    pub white_column: String,
    pub black_column: String,
    pub result_column: String,
    pub result_map: Option<ResultMap>,
    pub scope_column: Option<String>,
    pub filter: Option<String>,
    /// A table of participants (one row per player per game) instead of one row per game.
    pub multiplayer: Option<Multiplayer>,
    /// A boolean column (or path): a game is rated only when it is true.
    pub rated_column: Option<String>,
    /// The tables its paths reach (`ledger_attachments.related`), as recorded.
    pub related: Vec<R>,
    /// Its paths' joins, found in the catalog (`None` without a path of more than one step).
    pub paths: Option<Resolved<R>>,
}

/// A join of an attachment's reads, found in the catalog: `join.alias` is the table `table`
/// whose column `refcol` the column `join.via` of `join.parent` references.
#[derive(Clone, Debug)]
pub struct ResolvedJoin<R> {
    pub join: Join,
    pub table: R,
    /// The table's name, schema-qualified and quoted.
    pub table_name: String,
    pub refcol: String,
    /// The foreign key's equality operators, written `OPERATOR(schema.op)`: referenced =
    /// referencing, and referenced = referenced.
    pub pf_op: String,
    pub pp_op: String,
}

/// The joins of an attachment's paths.
#[derive(Clone, Debug)]
pub struct Resolved<R> {
    pub plan: Plan,
    pub joins: Vec<ResolvedJoin<R>>,
    /// The steps of each path, in the order of `plan.values`.
    pub paths: Vec<Vec<String>>,
}

/// How a participants table is read: the player, the placement (lower is better unless
/// `higher_is_better`: a score) and the rule.
#[derive(Clone, Debug)]
pub struct Multiplayer {
    pub player_column: String,
    pub placement_column: String,
    pub higher_is_better: bool,
    pub rule: MultiplayerRule,
}

/// A participant's row as the ledger reads it.
#[derive(Clone, Debug, PartialEq)]
pub struct ParticipantRow {
    pub scope: String,
    pub key: LedgerKey,
    pub player: String,
    /// `None` when the row is not rated (filtered out, or no placement yet).
    pub placement: Option<f64>,
    /// A path's foreign key names a row that is not there (see [`GameRow::broken`]).
    pub broken: bool,
}

/// A changed or replayed row of the games table as the ledger reads it.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRow {
    pub scope: String,
    pub key: LedgerKey,
    pub white: Option<String>,
    pub black: Option<String>,
    /// `None` when the row is not rated (filtered out, no result yet, or mapped to "unrated").
    pub outcome: Option<Outcome>,
    /// A path's foreign key names a row that is not there: the old row of a game deleted with
    /// the related row (ON DELETE CASCADE), or a new row whose deferred key's row is yet to come.
    /// Not rated; what an old one was rated with is read from the ledger's entries.
    pub broken: bool,
}

/// The columns of a games row as read ([`Attachment::changed_rows_query`] and the others select
/// them); a participants row puts the player in `white` and the placement in `placement`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Read {
    pub scope: String,
    /// Microseconds (`i64::MIN`, `i64::MAX`: infinite).
    pub played_at: Option<i64>,
    pub key: Option<String>,
    pub white: Option<String>,
    pub black: Option<String>,
    pub result: Option<String>,
    pub placement: Option<f64>,
    pub counted: bool,
    pub broken: bool,
}

/// Why a row read cannot be rated (or its key read), with its SQLSTATE's class.
#[derive(Clone, Debug, PartialEq)]
pub struct AttachError {
    pub class: ErrorClass,
    pub message: String,
}

impl AttachError {
    fn new(class: ErrorClass, message: String) -> Self {
        AttachError { class, message }
    }
}

impl fmt::Display for AttachError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl Classified for AttachError {
    fn class(&self) -> ErrorClass {
        self.class
    }
}

impl From<RatingError> for AttachError {
    fn from(e: RatingError) -> Self {
        AttachError::new(e.class(), e.to_string())
    }
}

/// The columns of a scope: one name, or several separated by commas (22023 for an empty one).
pub fn scope_columns(list: &str) -> Result<Vec<&str>, paths::PathError> {
    paths::split_list(list)
}

/// The steps of a column argument checked by [`Attachment::column_args`]: its own name when it
/// is not a path (never, once checked).
fn steps(text: &str) -> Vec<String> {
    paths::parse_path(text).unwrap_or_else(|_| vec![text.to_owned()])
}

impl<R: Copy + PartialEq> Attachment<R> {
    /// Whether the key column is an integer (its ledger keys are numbers made texts that sort).
    pub fn is_integer(&self) -> bool {
        self.key_kind == KeyKind::Integer
    }

    /// The columns of the scope (checked by [`Self::column_args`]).
    fn scope_list(&self) -> Vec<&str> {
        let list = self.scope_column.as_deref().unwrap_or_default();
        scope_columns(list).unwrap_or_else(|_| vec![list])
    }

    /// The scope of a row as text: one column's text, or the row of several columns
    /// (`scope_column` lists them separated by commas), '' without a scope.
    fn scope_expr(&self) -> String {
        if self.scope_column.is_none() {
            return "''".into();
        }
        match self.scope_list().as_slice() {
            [one] => format!("coalesce({}::text, '')", self.value(one)),
            many => format!(
                "ROW({})::text",
                many.iter()
                    .map(|c| self.value(c))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }

    fn date_expr(&self) -> String {
        format!("{}::timestamptz", self.value(&self.date_column))
    }

    /// Every column argument but the key, with its argument's name: the ones that may be paths,
    /// each checked (22023 for a malformed path or scope list).
    pub fn column_args(&self) -> Result<Vec<(&'static str, &str)>, paths::PathError> {
        let mut out = vec![("date_column", self.date_column.as_str())];
        match &self.multiplayer {
            Some(m) => {
                out.push(("player_column", m.player_column.as_str()));
                out.push(("placement_column", m.placement_column.as_str()));
            }
            None => {
                out.push(("white_column", self.white_column.as_str()));
                out.push(("black_column", self.black_column.as_str()));
                out.push(("result_column", self.result_column.as_str()));
            }
        }
        if let Some(list) = &self.scope_column {
            out.extend(
                scope_columns(list)?
                    .into_iter()
                    .map(|c| ("scope_column", c)),
            );
        }
        if let Some(r) = &self.rated_column {
            out.push(("rated_column", r.as_str()));
        }
        Ok(out)
    }

    /// The steps of each column argument (see [`Self::column_args`]).
    pub fn column_paths(&self) -> Result<Vec<Vec<String>>, paths::PathError> {
        let args = self.column_args()?;
        args.iter().map(|(_, c)| paths::parse_path(c)).collect()
    }

    /// Where a column argument is read: `alias.column`.
    fn value(&self, text: &str) -> String {
        let (alias, column) = self.place(text);
        format!("{alias}.{}", quote_ident(&column))
    }

    /// The alias and column a column argument is read from (of a path not resolved, its first
    /// step: never, once [`Self::paths`] are resolved).
    pub fn place(&self, text: &str) -> (String, String) {
        let steps = steps(text);
        let planned = self.paths.as_ref().and_then(|r| {
            let i = r.paths.iter().position(|p| *p == steps)?;
            r.plan.values.get(i).cloned()
        });
        match (planned, steps.as_slice()) {
            (_, [one]) => (paths::ROOT.to_owned(), one.clone()),
            (Some(place), _) => place,
            (None, _) => (paths::ROOT.to_owned(), text.to_owned()),
        }
    }

    /// The table a column argument is read from (the games table's, or a join's), and the column.
    pub fn table_of(&self, text: &str) -> (R, String) {
        let (alias, column) = self.place(text);
        let table = self
            .paths
            .iter()
            .flat_map(|r| r.joins.iter())
            .find(|j| j.join.alias == alias)
            .map_or(self.table, |j| j.table);
        (table, column)
    }

    /// The attached table (a transition table, or the table itself) as `g`, with the joins of
    /// the paths; `replace` gives the relation that stands for a join's table instead of it.
    /// With joins the filter is read over the table alone (its names cannot meet the related
    /// tables' columns), as `g.pg_rating_counted`.
    fn from(&self, games: &str, replace: &dyn Fn(&ResolvedJoin<R>) -> Option<String>) -> String {
        let Some(resolved) = &self.paths else {
            return format!("{games} g");
        };
        let mut out = format!(
            "(SELECT g.*, {} AS pg_rating_counted FROM {games} g) g",
            self.filter_expr()
        );
        for j in &resolved.joins {
            let rel = replace(j).unwrap_or_else(|| j.table_name.clone());
            out.push_str(&format!(
                " LEFT JOIN {rel} {a} ON {a}.{} {} {}.{}",
                quote_ident(&j.refcol),
                j.pf_op,
                j.join.parent,
                quote_ident(&j.join.via),
                a = j.join.alias,
            ));
        }
        out
    }

    fn filter_expr(&self) -> String {
        match &self.filter {
            // (on lines of its own: a comment that ends the filter ends with its line)
            Some(f) => format!("coalesce((\n{f}\n), false)"),
            None => "true".into(),
        }
    }

    /// Whether a path of the row breaks: a foreign key names a row that is not there.
    fn broken_expr(&self) -> String {
        let Some(r) = &self.paths else {
            return "false".into();
        };
        let broken: Vec<String> = r
            .joins
            .iter()
            .map(|j| {
                format!(
                    "({}.{} IS NULL AND {}.{} IS NOT NULL)",
                    j.join.alias,
                    quote_ident(&j.refcol),
                    j.join.parent,
                    quote_ident(&j.join.via)
                )
            })
            .collect();
        broken.join(" OR ")
    }

    /// Whether a row is counted: the filter, and the rated column.
    fn counted_expr(&self) -> String {
        let filter = match &self.paths {
            Some(_) => "g.pg_rating_counted".to_owned(),
            None => self.filter_expr(),
        };
        match &self.rated_column {
            Some(r) => format!("({filter} AND coalesce({}, false))", self.value(r)),
            None => filter,
        }
    }

    /// The joins of a related table.
    pub fn joins_of(&self, table: R) -> Vec<&ResolvedJoin<R>> {
        self.paths
            .iter()
            .flat_map(|r| r.joins.iter())
            .filter(|j| j.table == table)
            .collect()
    }

    /// The related tables its paths join, each once, in the order of the joins.
    pub fn related_tables(&self) -> Vec<R> {
        let mut related = Vec::new();
        for j in self.paths.iter().flat_map(|r| r.joins.iter()) {
            if !related.contains(&j.table) {
                related.push(j.table);
            }
        }
        related
    }

    /// The columns of a join's table that a read uses: the referenced column, then those its
    /// child joins follow and the values read from it.
    pub fn used_columns<'a>(&'a self, j: &'a ResolvedJoin<R>) -> Vec<&'a str> {
        let mut out = vec![j.refcol.as_str()];
        if let Some(r) = &self.paths {
            for c in r.plan.used_columns(&j.join.alias) {
                if !out.contains(&c) {
                    out.push(c);
                }
            }
        }
        out
    }

    /// The referenced keys of the rows of a related table's transition tables whose used columns
    /// changed (as `k`): an UPDATE's rows old and new whose values differ (by the referenced key),
    /// every row a DELETE or an INSERT wrote.
    pub fn touched_query(&self, j: &ResolvedJoin<R>, has_old: bool, has_new: bool) -> String {
        let used = self.used_columns(j);
        let k = quote_ident(&j.refcol);
        let row = |t: &str| {
            format!(
                "ROW({})::text",
                used.iter()
                    .map(|c| format!("{t}.{}", quote_ident(c)))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        let gone = |from: &str, a: &str, to: &str, b: &str| {
            format!(
                "SELECT {a}.{k} AS k FROM {from} {a} WHERE NOT EXISTS (SELECT FROM {to} {b} \
                 WHERE {b}.{k} {} {a}.{k} AND {} OPERATOR(pg_catalog.=) {})",
                j.pp_op,
                row(b),
                row(a)
            )
        };
        match (has_old, has_new) {
            (true, true) => format!(
                "{} UNION ALL {}",
                gone("pg_rating_old", "o", "pg_rating_new", "n"),
                gone("pg_rating_new", "n", "pg_rating_old", "o")
            ),
            (true, false) => format!("SELECT o.{k} AS k FROM pg_rating_old o"),
            (false, true) => format!("SELECT n.{k} AS k FROM pg_rating_new n"),
            (false, false) => "SELECT NULL AS k WHERE false".into(),
        }
    }

    /// The rows of the attached table whose paths reach the rows of the related table `table`
    /// that a statement changed ([`Self::touched_query`]), in the related table or as it was
    /// before the statement (`before`: the table less its new rows, plus its old rows), read
    /// along the paths as they are now or were before (`before`). Every row of a game reached is
    /// read (a participants table's other players of the game too).
    pub fn related_rows_query(
        &self,
        table: R,
        has_old: bool,
        has_new: bool,
        before: bool,
    ) -> String {
        let joins = self.joins_of(table);
        // one condition per join of the table, each its own semi-join (ORed, they would be
        // evaluated for every row of the games table)
        let conds: Vec<String> = joins
            .iter()
            .map(|j| {
                format!(
                    "EXISTS (SELECT FROM ({}) t WHERE t.k {} {}.{})",
                    self.touched_query(j, has_old, has_new),
                    j.pf_op,
                    j.join.parent,
                    quote_ident(&j.join.via)
                )
            })
            .collect();
        let was = |j: &ResolvedJoin<R>| -> Option<String> {
            if j.table != table {
                return None;
            }
            let cols = |t: &str| {
                self.used_columns(j)
                    .iter()
                    .map(|c| format!("{t}.{}", quote_ident(c)))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let k = quote_ident(&j.refcol);
            let mut rel = format!("SELECT {} FROM {} t", cols("t"), j.table_name);
            if has_new {
                rel.push_str(&format!(
                    " WHERE t.{k}::text NOT IN (SELECT n.{k}::text FROM pg_rating_new n WHERE n.{k} IS NOT NULL)"
                ));
            }
            if has_old {
                rel.push_str(&format!(
                    " UNION ALL SELECT {} FROM pg_rating_old o",
                    cols("o")
                ));
            }
            Some(format!("({rel})"))
        };
        let now = |_: &ResolvedJoin<R>| None;
        let games = &self.table_name;
        let key = format!("g.{}", quote_ident(&self.key_column));
        let (from_now, from_was) = (self.from(games, &now), self.from(games, &was));
        let reached = conds
            .iter()
            .flat_map(|cond| {
                [&from_now, &from_was].map(|from| format!("SELECT {key} FROM {from} WHERE {cond}"))
            })
            .collect::<Vec<_>>()
            .join(" UNION ");
        format!(
            "SELECT {} FROM {} WHERE {key} IN ({reached})",
            self.columns(),
            if before { &from_was } else { &from_now },
        )
    }

    /// The columns every read selects: scope, played_at, key, white, black, result, counted
    /// (a participants table: scope, played_at, key, player, placement, counted).
    fn columns(&self) -> String {
        let counted = self.counted_expr();
        if let Some(m) = &self.multiplayer {
            let sign = if m.higher_is_better { "-" } else { "" };
            return format!(
                "{} AS scope, {} AS played_at, g.{}::text AS key, {}::text AS player, \
                 {sign}({}::float8) AS placement, {counted} AS counted, {} AS broken",
                self.scope_expr(),
                self.date_expr(),
                quote_ident(&self.key_column),
                self.value(&m.player_column),
                self.value(&m.placement_column),
                self.broken_expr(),
            );
        }
        format!(
            "{} AS scope, {} AS played_at, g.{}::text AS key, {}::text AS white, {}::text AS black, \
             {}::text AS result, {counted} AS counted, {} AS broken",
            self.scope_expr(),
            self.date_expr(),
            quote_ident(&self.key_column),
            self.value(&self.white_column),
            self.value(&self.black_column),
            self.value(&self.result_column),
            self.broken_expr(),
        )
    }

    /// Every row of a transition table (`pg_rating_new` / `pg_rating_old`).
    pub fn changed_rows_query(&self, transition: &str) -> String {
        format!(
            "SELECT {} FROM {}",
            self.columns(),
            self.from(transition, &|_| None)
        )
    }

    /// The rows of one scope from a key on ($1 scope, $2 date, $3 key as the column's text).
    pub fn rows_from_query(&self) -> String {
        let key = format!("g.{}", quote_ident(&self.key_column));
        let key_cmp = match self.key_kind {
            KeyKind::Integer => format!("{key} >= $3::bigint"),
            KeyKind::Uuid => format!("{key} >= $3::uuid"),
            KeyKind::Text => format!("{key} COLLATE \"C\" >= $3"),
        };
        format!(
            "SELECT {} FROM {} WHERE {} = $1 AND {d} >= $2 AND ({d} > $2 OR {key_cmp})",
            self.columns(),
            self.from(&self.table_name, &|_| None),
            self.scope_expr(),
            d = self.date_expr()
        )
    }

    /// Every row of the table.
    pub fn all_rows_query(&self) -> String {
        format!(
            "SELECT {} FROM {}",
            self.columns(),
            self.from(&self.table_name, &|_| None)
        )
    }

    /// The ledger's text of a key (integers written so that their text order is their order).
    /// 42804 for a key that is not an integer in a column attached as one: its type was changed
    /// since (to `numeric`, say) and the ledger cannot order its games by it.
    pub fn ledger_key_id(&self, text: &str) -> Result<String, AttachError> {
        if !self.is_integer() {
            return Ok(text.to_owned());
        }
        match text.parse::<i64>() {
            Ok(id) => Ok(integer_key(id)),
            Err(_) => Err(AttachError::new(
                ErrorClass::DatatypeMismatch,
                format!(
                    "ledger {}: the key {} of column \"{}\" of {} is not an integer: the \
                     column was attached as an integer key and its type changed since; a key \
                     column must be smallint, integer, bigint, text, varchar or uuid \
                     (change it back, or detach the ledger and attach it again)",
                    self.ledger_id,
                    Quoted(text),
                    self.key_column,
                    self.table_name
                ),
            )),
        }
    }

    /// 42804 when the key column, now of type `now` (named `now_name`), no longer compares with
    /// the ledger's keys as they were attached, which a replay from a game on needs (a game
    /// deleted, changed or backdated): an integer key's column stays an integer or a `numeric`
    /// (whose integer keys go on), a uuid key's a uuid, a text key's text or varchar.
    pub fn check_key_type_now(&self, now: u32, now_name: &str) -> Result<(), AttachError> {
        use type_oid::*;
        let compares = match self.key_kind {
            KeyKind::Integer => INTEGERS.contains(&now) || now == NUMERIC,
            KeyKind::Uuid => now == UUID,
            KeyKind::Text => now == TEXT || now == VARCHAR,
        };
        if compares {
            return Ok(());
        }
        let attached = match self.key_kind {
            KeyKind::Integer => "an integer",
            KeyKind::Uuid => "a uuid",
            KeyKind::Text => "a text",
        };
        Err(AttachError::new(
            ErrorClass::DatatypeMismatch,
            format!(
                "ledger {}: column \"{}\" of {} was attached as {attached} key and is now of type \
                 {now_name}, by which its games cannot be found in the ledger's order (change it \
                 back, or detach the ledger and attach it again)",
                self.ledger_id, self.key_column, self.table_name
            ),
        ))
    }

    /// The column's text of a ledger key (the inverse of [`Attachment::ledger_key_id`]; a key
    /// it did not make is given back as it is, and fails as the column's input).
    pub fn column_key_text(&self, id: &str) -> String {
        game_key_text(id, self.is_integer())
    }

    /// What a result value means (the library's rule); a NULL result is a game not over: not rated.
    pub fn meaning(&self, key: &str, result: Option<&str>) -> Result<Meaning, RatingError> {
        results::meaning(self.result_map.as_ref(), key, result)
    }

    /// 22004 for a game to rate whose key column is NULL.
    fn null_key(&self) -> AttachError {
        AttachError::new(
            ErrorClass::NullValue,
            format!(
                "a game to rate has a NULL {}: a rated game needs a key",
                self.key_column
            ),
        )
    }

    /// A games row read: what the ledger makes of it, checked (22004 for a rated game without
    /// a key, a date or a player; 22008 for one with an infinite date; a result the map does
    /// not know).
    pub fn game(&self, r: Read) -> Result<GameRow, AttachError> {
        let key_of = |at: i64, id: String| LedgerKey { at, id };
        if r.broken {
            if let Some(key) = &r.key {
                return Ok(GameRow {
                    key: key_of(r.played_at.unwrap_or(0), self.ledger_key_id(key)?),
                    scope: r.scope,
                    white: r.white,
                    black: r.black,
                    outcome: None,
                    broken: true,
                });
            }
        }
        let Some(key) = r.key else {
            // a row without a key is never rated: no history could name its game
            if r.counted
                && matches!(
                    self.meaning("NULL", r.result.as_deref())?,
                    Meaning::Rated(_)
                )
            {
                return Err(self.null_key());
            }
            return Ok(GameRow {
                scope: r.scope,
                key: key_of(r.played_at.unwrap_or(0), String::new()),
                white: r.white,
                black: r.black,
                outcome: None,
                broken: false,
            });
        };
        let outcome = match r.counted {
            true => match self.meaning(&key, r.result.as_deref())? {
                Meaning::Rated(o) => Some(o),
                Meaning::Unrated => None,
            },
            false => None,
        };
        let at = match (r.played_at, outcome) {
            (Some(at), _) => at,
            (None, None) => 0,
            (None, Some(_)) => return Err(null_date(&key)),
        };
        if outcome.is_some() && (at == i64::MIN || at == i64::MAX) {
            return Err(infinite_date(&key));
        }
        if outcome.is_some() && (r.white.is_none() || r.black.is_none()) {
            return Err(AttachError::new(
                ErrorClass::NullValue,
                format!("game {key}: a rated game needs both players"),
            ));
        }
        Ok(GameRow {
            scope: r.scope,
            key: key_of(at, self.ledger_key_id(&key)?),
            white: r.white,
            black: r.black,
            outcome,
            broken: false,
        })
    }

    /// A participants row read (the player in `white`): `None` for a participant of no game,
    /// never rated; checked as [`Self::game`].
    pub fn participant(&self, r: Read) -> Result<Option<ParticipantRow>, AttachError> {
        let counted = r.counted && !r.broken;
        let placement = r.placement.filter(|_| counted);
        let Some(key) = r.key else {
            return match placement {
                Some(_) => Err(self.null_key()),
                None => Ok(None),
            };
        };
        if placement.is_some() {
            if r.white.is_none() {
                return Err(AttachError::new(
                    ErrorClass::NullValue,
                    format!("game {key}: a rated participant needs a player"),
                ));
            }
            match r.played_at {
                None => return Err(null_date(&key)),
                Some(i64::MIN | i64::MAX) => return Err(infinite_date(&key)),
                _ => {}
            }
        }
        Ok(Some(ParticipantRow {
            scope: r.scope,
            key: LedgerKey {
                at: r.played_at.unwrap_or(0),
                id: self.ledger_key_id(&key)?,
            },
            player: r.white.unwrap_or_default(),
            placement,
            broken: r.broken,
        }))
    }
}

fn null_date(key: &str) -> AttachError {
    AttachError::new(
        ErrorClass::NullValue,
        format!("game {key}: its date is NULL"),
    )
}

fn infinite_date(key: &str) -> AttachError {
    AttachError::new(
        ErrorClass::DatetimeOverflow,
        format!("game {key}: a rated game needs a finite date"),
    )
}

/// Which of the foreign keys of column `via` of table `label` a path's step follows (`found`: each
/// key's referenced table and number of columns, fewest columns first; `games`: the attached
/// table): the first of one column. 42830 for none, or for keys referencing several tables;
/// 0A000 for keys of several columns only, or for one that leads back to the attached table.
pub fn step_key<T: Copy + PartialEq>(
    found: &[(T, i32)],
    games: T,
    via: &str,
    label: &str,
) -> Result<usize, AttachError> {
    let error = |class, what: String| Err(AttachError::new(class, format!("column path: {what}")));
    let Some(first) = found.iter().position(|f| f.1 == 1) else {
        if found.is_empty() {
            return error(
                ErrorClass::InvalidForeignKey,
                format!(
                    "column \"{via}\" of {label} is not the referencing column of a foreign key: \
                     each step but the last must follow one"
                ),
            );
        }
        return error(
            ErrorClass::FeatureNotSupported,
            format!(
                "the foreign key of column \"{via}\" of {label} has several columns: a path \
                 follows single-column foreign keys only"
            ),
        );
    };
    let target = found[first].0;
    if found.iter().any(|f| f.1 == 1 && f.0 != target) {
        return error(
            ErrorClass::InvalidForeignKey,
            format!("column \"{via}\" of {label} references more than one table"),
        );
    }
    if target == games {
        return error(
            ErrorClass::FeatureNotSupported,
            format!("column \"{via}\" of {label} leads back to the attached table"),
        );
    }
    Ok(first)
}

/// The games of `keys` as a ledger rated them, from its entries `(scope, key, player, score)`
/// sorted by key, scope and player: each game's first player is white, both scores 0 a double
/// loss (what the old rows of broken paths were rated with, see [`GameRow::broken`]).
pub fn rated_games(
    entries: impl IntoIterator<Item = (String, LedgerKey, String, f64)>,
) -> Vec<GameRow> {
    let mut out: Vec<GameRow> = Vec::new();
    for (scope, key, player, score) in entries {
        match out.last_mut() {
            Some(g) if g.key == key && g.scope == scope && g.black.is_none() => {
                if g.outcome == Some(Outcome::White(0.0)) && score == 0.0 {
                    g.outcome = Some(Outcome::DoubleLoss);
                }
                g.black = Some(player);
            }
            _ => out.push(GameRow {
                scope,
                key,
                white: Some(player),
                black: None,
                outcome: Some(Outcome::White(score)),
                broken: false,
            }),
        }
    }
    out
}

/// [`rated_games`] for a participants table, from its entries `(scope, key, player)`: a row per
/// player, its placement unknown (NaN, which compares unequal to any row as it is now).
pub fn rated_participants(
    entries: impl IntoIterator<Item = (String, LedgerKey, String)>,
) -> Vec<ParticipantRow> {
    let row = |(scope, key, player)| ParticipantRow {
        scope,
        key,
        player,
        placement: Some(f64::NAN),
        broken: false,
    };
    entries.into_iter().map(row).collect()
}

/// The old rows of an attachment with paths, as the ledger rated them (`rated`, from
/// [`rated_games`]). A row read that equals the one rated but for its colours (the entries do not
/// keep them) is kept, so that an unchanged game is not replayed.
pub fn old_as_rated(rated: Vec<GameRow>, old: &[GameRow]) -> Vec<GameRow> {
    let same = |read: &GameRow, r: &GameRow| {
        read.scope == r.scope
            && read.key == r.key
            && read.white == r.black
            && read.black == r.white
            && match (read.outcome, r.outcome) {
                (Some(Outcome::White(a)), Some(Outcome::White(b))) => a == 1.0 - b,
                (Some(Outcome::DoubleLoss), Some(Outcome::DoubleLoss)) => true,
                _ => false,
            }
    };
    rated
        .into_iter()
        .map(|r| match old.iter().find(|g| **g == r || same(g, &r)) {
            Some(g) => g.clone(),
            None => r,
        })
        .collect()
}

/// Why a table cannot have ledgers or be reached by a column path: what it is, and why that
/// matters (its rows writable past its statement triggers; its going unseen). From its `relkind`,
/// whether it has inheritance children, whether it is one, and whether it is temporary; `None`
/// for a plain table.
pub fn not_attachable(
    relkind: &str,
    parent: bool,
    child: bool,
    temporary: bool,
) -> Option<(&'static str, &'static str)> {
    const PAST_TRIGGERS: &str =
        "rows written into a partition or child table directly would not reach its triggers";
    if relkind == "p" {
        Some(("it is partitioned", PAST_TRIGGERS))
    } else if parent {
        Some(("it has inheritance children", PAST_TRIGGERS))
    } else if child {
        Some(("it is a partition or inheritance child", PAST_TRIGGERS))
    } else if temporary {
        // (a session's end drops it without an event trigger to detach its ledgers)
        Some((
            "it is temporary",
            "it goes when its session ends, unseen, and its ledgers' attachments would stay",
        ))
    } else {
        None
    }
}

/// A statement's rated rows of a games table whose rating inputs changed, by scope: (rows as
/// they were, rows as they are). An UPDATE that leaves what the ledger reads of a game as it was
/// changes nothing.
pub fn changed_by_scope<'c>(
    old: &'c [GameRow],
    new: &'c [GameRow],
) -> BTreeMap<&'c str, (Vec<&'c GameRow>, Vec<&'c GameRow>)> {
    let rated = |rows: &'c [GameRow]| rows.iter().filter(|g| g.outcome.is_some());
    let place = |g: &'c GameRow| (g.scope.as_str(), &g.key);
    let olds: HashMap<_, &GameRow> = rated(old).map(|g| (place(g), g)).collect();
    let unchanged: HashSet<_> = rated(new)
        .filter(|g| olds.get(&place(g)).is_some_and(|o| *o == *g))
        .map(place)
        .collect();
    let mut by_scope: BTreeMap<&str, (Vec<&GameRow>, Vec<&GameRow>)> = BTreeMap::new();
    for g in rated(old).filter(|g| !unchanged.contains(&place(g))) {
        by_scope.entry(g.scope.as_str()).or_default().0.push(g);
    }
    for g in rated(new).filter(|g| !unchanged.contains(&place(g))) {
        by_scope.entry(g.scope.as_str()).or_default().1.push(g);
    }
    by_scope
}

/// The ids of the games of `keys`, each once, sorted (those whose entries a statement reads).
pub fn game_ids<'a>(keys: impl IntoIterator<Item = &'a LedgerKey>) -> Vec<String> {
    let mut ids: Vec<String> = keys.into_iter().map(|k| k.id.clone()).collect();
    ids.sort_unstable();
    ids.dedup();
    ids
}

/// The (player, game) pairs of rows as they were.
pub fn old_entries(olds: &[&GameRow]) -> Vec<(String, LedgerKey)> {
    olds.iter()
        .flat_map(|g| {
            [&g.white, &g.black]
                .into_iter()
                .flatten()
                .map(|p| (p.clone(), g.key.clone()))
        })
        .collect()
}

impl KeyKind {
    /// How a key column of the type of oid `t` compares.
    pub fn of_type(t: u32) -> KeyKind {
        if type_oid::INTEGERS.contains(&t) {
            KeyKind::Integer
        } else if t == type_oid::UUID {
            KeyKind::Uuid
        } else {
            KeyKind::Text
        }
    }
}

/// The types (oids) that the column of argument `what` may have, and how a message names them.
/// Keys are integers or types whose text order (bytewise) is their own; a `result_column` is
/// checked only without a result map.
fn accepted_types(what: &str) -> Option<(Vec<u32>, &'static str)> {
    use type_oid::*;
    let numbers = [&INTEGERS[..], &[NUMERIC, FLOAT4, FLOAT8]].concat();
    Some(match what {
        "key_column" => (
            [&INTEGERS[..], &[TEXT, VARCHAR, UUID]].concat(),
            "smallint, integer, bigint, text, varchar or uuid",
        ),
        "date_column" => (
            vec![TIMESTAMPTZ, TIMESTAMP, DATE],
            "timestamptz, timestamp or date",
        ),
        "rated_column" => (vec![BOOL], "boolean"),
        "result_column" => (
            numbers,
            "a number (white's score in [0, 1]) unless a result_map says what its values mean",
        ),
        "placement_column" => (numbers, "a number"),
        _ => return None,
    })
}

/// 42804 unless the column of argument `what` (`key_column`, `date_column`, `rated_column`,
/// `result_column`, `placement_column`) has a type the ledger reads: `t`, named `type_name`.
pub fn check_column_type(what: &str, t: u32, type_name: &str) -> Result<(), AttachError> {
    let Some((types, wanted)) = accepted_types(what) else {
        let e = format!("check_column_type: no rule for argument {what}");
        return Err(AttachError::new(ErrorClass::Internal, e));
    };
    match types.contains(&t) {
        true => Ok(()),
        false => Err(AttachError::new(
            ErrorClass::DatatypeMismatch,
            format!("{what} must be {wanted}, not {type_name}"),
        )),
    }
}

/// The text of ledger key `id` in a games table's key column ([`Attachment::column_key_text`]):
/// the number of an `integer` column's key, any other as it is.
pub fn game_key_text(id: &str, integer: bool) -> String {
    match integer_key_id(id).filter(|_| integer) {
        Some(n) => n.to_string(),
        None => id.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_statement_changes_the_rated_rows_whose_inputs_changed_by_scope() {
        let row = |scope: &str, id: &str, white: &str, score: Option<f64>| GameRow {
            scope: scope.into(),
            key: LedgerKey {
                at: 1,
                id: id.into(),
            },
            white: Some(white.into()),
            black: Some("z".into()),
            outcome: score.map(Outcome::White),
            broken: false,
        };
        let old = [
            row("a", "1", "p", Some(1.0)),
            row("a", "2", "p", Some(1.0)),
            row("b", "3", "q", None),
        ];
        let new = [
            row("a", "1", "p", Some(1.0)),
            row("a", "2", "p", Some(0.0)),
            row("b", "3", "q", Some(0.5)),
        ];
        let changed = changed_by_scope(&old, &new);
        assert_eq!(changed.keys().collect::<Vec<_>>(), [&"a", &"b"]);
        let ids = |rows: &[&GameRow]| rows.iter().map(|g| g.key.id.clone()).collect::<Vec<_>>();
        assert_eq!(
            (ids(&changed["a"].0), ids(&changed["a"].1)),
            (vec!["2".to_string()], vec!["2".to_string()])
        );
        assert!(changed["b"].0.is_empty() && ids(&changed["b"].1) == ["3"]);
        assert_eq!(
            game_ids(old.iter().chain(&new).map(|g| &g.key)),
            ["1", "2", "3"]
        );
        let olds = old_entries(&changed["a"].0);
        assert_eq!(
            olds,
            [
                ("p".to_string(), old[1].key.clone()),
                ("z".to_string(), old[1].key.clone())
            ]
        );
    }

    #[test]
    fn attached_columns_have_the_types_a_ledger_reads() {
        assert_eq!(KeyKind::of_type(type_oid::INT8), KeyKind::Integer);
        assert_eq!(KeyKind::of_type(type_oid::UUID), KeyKind::Uuid);
        assert_eq!(KeyKind::of_type(type_oid::VARCHAR), KeyKind::Text);
        for (what, t) in [
            ("key_column", type_oid::UUID),
            ("key_column", type_oid::INT2),
            ("date_column", type_oid::DATE),
            ("rated_column", type_oid::BOOL),
            ("result_column", type_oid::NUMERIC),
            ("placement_column", type_oid::FLOAT4),
        ] {
            assert_eq!(check_column_type(what, t, "x"), Ok(()), "{what}");
        }
        let e = check_column_type("key_column", type_oid::FLOAT8, "double precision").unwrap_err();
        assert_eq!(e.sqlstate(), "42804");
        assert_eq!(
            e.to_string(),
            "key_column must be smallint, integer, bigint, text, varchar or uuid, not double precision"
        );
        let e = check_column_type("date_column", type_oid::TEXT, "text").unwrap_err();
        assert_eq!(
            e.to_string(),
            "date_column must be timestamptz, timestamp or date, not text"
        );
        let e = check_column_type("rated_column", type_oid::INT4, "integer").unwrap_err();
        assert_eq!(e.to_string(), "rated_column must be boolean, not integer");
        let e = check_column_type("result_column", type_oid::TEXT, "text").unwrap_err();
        assert!(e
            .to_string()
            .starts_with("result_column must be a number (white's score"));
        let e = check_column_type("placement_column", type_oid::TEXT, "text").unwrap_err();
        assert_eq!(e.to_string(), "placement_column must be a number, not text");
        // an argument without a rule is a bug of the caller, not a number column
        let e = check_column_type("placement", type_oid::INT4, "integer").unwrap_err();
        assert_eq!(e.class(), ErrorClass::Internal);
    }

    #[test]
    fn participants_as_rated_compare_unequal_to_any_row() {
        let key = LedgerKey {
            at: 1,
            id: "g".into(),
        };
        let rows = rated_participants([("s".to_string(), key.clone(), "ann".to_string())]);
        assert_eq!(rows.len(), 1);
        let row = &rows[0];
        assert_eq!(
            (row.scope.as_str(), &row.key, row.player.as_str()),
            ("s", &key, "ann")
        );
        assert!(row.placement.is_some_and(f64::is_nan) && !row.broken);
        assert_ne!(row, &rows[0].clone());
    }

    #[test]
    fn only_plain_tables_are_attachable() {
        assert_eq!(not_attachable("r", false, false, false), None);
        let what = |t: Option<(&'static str, &'static str)>| t.map(|(what, _)| what);
        assert_eq!(
            what(not_attachable("p", true, false, false)),
            Some("it is partitioned")
        );
        assert_eq!(
            what(not_attachable("r", true, true, false)),
            Some("it has inheritance children")
        );
        assert_eq!(
            what(not_attachable("r", false, true, false)),
            Some("it is a partition or inheritance child")
        );
        let (what, why) = not_attachable("r", false, false, true).unwrap();
        assert_eq!(what, "it is temporary");
        assert!(why.starts_with("it goes when its session ends"));
    }

    /// A games table `public.t1` whose key is of type 0 (integer), 1 (uuid) or 2 (text).
    fn games(key_type: u32) -> Attachment<u32> {
        Attachment {
            ledger_id: 7,
            table: 1,
            table_name: "public.t1".into(),
            owner: 10,
            key_column: "id".into(),
            key_type,
            key_kind: [KeyKind::Integer, KeyKind::Uuid, KeyKind::Text][key_type as usize],
            date_column: "played".into(),
            white_column: "white".into(),
            black_column: "Black".into(),
            result_column: "score".into(),
            result_map: None,
            scope_column: None,
            filter: None,
            multiplayer: None,
            rated_column: None,
            related: Vec::new(),
            paths: None,
        }
    }

    fn read(key: Option<&str>, result: Option<&str>) -> Read {
        Read {
            scope: String::new(),
            played_at: Some(5),
            key: key.map(str::to_owned),
            white: Some("a".into()),
            black: Some("b".into()),
            result: result.map(str::to_owned),
            placement: None,
            counted: true,
            broken: false,
        }
    }

    #[test]
    fn a_key_column_whose_type_changed_since_it_was_attached_is_refused_unless_it_compares() {
        use type_oid::*;
        // (integer, uuid, text keys: the types that still compare with each)
        let compare = [
            (0, &[INT2, INT4, INT8, NUMERIC][..]),
            (1, &[UUID][..]),
            (2, &[TEXT, VARCHAR][..]),
        ];
        for (kind, types) in compare {
            for t in [INT2, INT4, INT8, NUMERIC, UUID, TEXT, VARCHAR, FLOAT8] {
                let checked = games(kind).check_key_type_now(t, "x");
                assert_eq!(checked.is_ok(), types.contains(&t), "kind {kind}, type {t}");
            }
        }
        let e = games(0).check_key_type_now(TEXT, "text").unwrap_err();
        assert_eq!(e.sqlstate(), "42804");
        assert_eq!(
            e.to_string(),
            "ledger 7: column \"id\" of public.t1 was attached as an integer key and is now of \
             type text, by which its games cannot be found in the ledger's order (change it back, \
             or detach the ledger and attach it again)"
        );
    }

    #[test]
    fn reads_name_the_columns_quoted() {
        let att = games(0);
        assert_eq!(
            att.all_rows_query(),
            "SELECT '' AS scope, g.played::timestamptz AS played_at, g.id::text AS key, \
             g.white::text AS white, g.\"Black\"::text AS black, g.score::text AS result, true AS counted, \
             false AS broken FROM public.t1 g"
        );
        assert!(att
            .rows_from_query()
            .ends_with("(g.played::timestamptz > $2 OR g.id >= $3::bigint)"));
        assert!(games(2)
            .rows_from_query()
            .ends_with("g.id COLLATE \"C\" >= $3)"));
    }

    #[test]
    fn a_keyword_is_quoted_as_the_database_quotes_it() {
        let mut att = games(2);
        att.date_column = "timestamp".into();
        att.white_column = "user".into();
        assert!(att.all_rows_query().starts_with(
            "SELECT '' AS scope, g.\"timestamp\"::timestamptz AS played_at, g.id::text AS key, \
             g.\"user\"::text AS white"
        ));
    }

    #[test]
    fn a_scope_of_several_columns_is_a_row() {
        let mut att = games(2);
        att.scope_column = Some("a, b".into());
        att.filter = Some("g.x > 1".into());
        assert!(att
            .changed_rows_query("pg_rating_new")
            .starts_with("SELECT ROW(g.a, g.b)::text AS scope"));
        assert!(att
            .changed_rows_query("n")
            .contains("coalesce((\ng.x > 1\n), false) AS counted"));
        att.scope_column = Some("a,".into());
        assert_eq!(
            att.column_args().unwrap_err().class(),
            ErrorClass::InvalidParameter
        );
    }

    #[test]
    fn integer_keys_sort_as_text_and_come_back() {
        let att = games(0);
        let id = att.ledger_key_id("-12").unwrap();
        assert_eq!(att.column_key_text(&id), "-12");
        let e = att.ledger_key_id("1.5").unwrap_err();
        assert_eq!(e.class(), ErrorClass::DatatypeMismatch);
        assert!(e
            .to_string()
            .contains("the key \"1.5\" of column \"id\" of public.t1"));
        assert_eq!(games(2).ledger_key_id("x").unwrap(), "x");
    }

    #[test]
    fn a_row_read_is_checked() {
        let att = games(2);
        let g = att.game(read(Some("k"), Some("1"))).unwrap();
        assert_eq!(g.outcome, Some(Outcome::White(1.0)));
        assert_eq!(
            g.key,
            LedgerKey {
                at: 5,
                id: "k".into()
            }
        );
        // not over, or not counted: not rated, never checked
        assert_eq!(att.game(read(Some("k"), None)).unwrap().outcome, None);
        assert_eq!(
            att.game(Read {
                counted: false,
                black: None,
                ..read(Some("k"), Some("1"))
            })
            .unwrap()
            .outcome,
            None
        );
        let class = |r: Read| att.game(r).unwrap_err().class();
        assert_eq!(class(read(None, Some("1"))), ErrorClass::NullValue);
        assert_eq!(
            class(Read {
                played_at: None,
                ..read(Some("k"), Some("1"))
            }),
            ErrorClass::NullValue
        );
        assert_eq!(
            class(Read {
                played_at: Some(i64::MAX),
                ..read(Some("k"), Some("1"))
            }),
            ErrorClass::DatetimeOverflow
        );
        assert_eq!(
            class(Read {
                black: None,
                ..read(Some("k"), Some("1"))
            }),
            ErrorClass::NullValue
        );
        assert_eq!(class(read(Some("k"), Some("2"))), ErrorClass::OutOfRange);
        let broken = att
            .game(Read {
                broken: true,
                ..read(Some("k"), Some("1"))
            })
            .unwrap();
        assert!(broken.broken && broken.outcome.is_none());
    }

    #[test]
    fn a_participant_read_is_checked() {
        let att = games(2);
        let p = |placement: Option<f64>, key: Option<&str>| Read {
            placement,
            ..read(key, None)
        };
        assert_eq!(att.participant(p(None, None)).unwrap(), None);
        let row = att.participant(p(Some(2.0), Some("k"))).unwrap().unwrap();
        assert_eq!((row.player.as_str(), row.placement), ("a", Some(2.0)));
        assert!(att.participant(p(Some(2.0), None)).is_err());
        let no_player = Read {
            white: None,
            ..p(Some(1.0), Some("k"))
        };
        assert!(att.participant(no_player).is_err());
        let not_counted = Read {
            counted: false,
            white: None,
            ..p(Some(1.0), Some("k"))
        };
        assert_eq!(
            att.participant(not_counted).unwrap().unwrap().placement,
            None
        );
    }

    #[test]
    fn games_rated_come_back_from_their_entries() {
        let key = |id: &str| LedgerKey {
            at: 1,
            id: id.into(),
        };
        let rated = rated_games([
            ("".into(), key("a"), "x".into(), 0.0),
            ("".into(), key("a"), "y".into(), 0.0),
            ("".into(), key("b"), "x".into(), 1.0),
            ("".into(), key("b"), "y".into(), 0.0),
        ]);
        assert_eq!(rated.len(), 2);
        assert_eq!(rated[0].outcome, Some(Outcome::DoubleLoss));
        assert_eq!(rated[1].outcome, Some(Outcome::White(1.0)));
        // a row read with the colours the other way round is the game as rated
        let swapped = GameRow {
            white: Some("y".into()),
            black: Some("x".into()),
            outcome: Some(Outcome::White(0.0)),
            ..rated[1].clone()
        };
        let kept = old_as_rated(rated.clone(), std::slice::from_ref(&swapped));
        assert_eq!(kept, vec![rated[0].clone(), swapped]);
    }

    #[test]
    fn a_step_follows_one_single_column_key() {
        let step = |found: &[(u32, i32)]| step_key(found, 1, "user_id", "users");
        assert_eq!(step(&[(2, 1), (2, 1), (3, 2)]), Ok(0));
        assert_eq!(step(&[(3, 2), (2, 1)]), Ok(1));
        let class = |found: &[(u32, i32)]| step(found).unwrap_err().class();
        assert_eq!(class(&[]), ErrorClass::InvalidForeignKey);
        assert_eq!(class(&[(3, 2)]), ErrorClass::FeatureNotSupported);
        assert_eq!(class(&[(2, 1), (3, 1)]), ErrorClass::InvalidForeignKey);
        assert_eq!(class(&[(1, 1)]), ErrorClass::FeatureNotSupported);
        assert_eq!(
            step(&[]).unwrap_err().to_string(),
            "column path: column \"user_id\" of users is not the referencing column of a foreign \
             key: each step but the last must follow one"
        );
    }
}
