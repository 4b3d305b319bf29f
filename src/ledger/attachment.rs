//! How a ledger reads its games table: the attached columns, checked once at attach time, and the
//! statements built from them. The table is read as its owner in a security-restricted context
//! (its filter is the owner's SQL, never run with the extension owner's rights).

use pg_rating_core::ledger::paths::{self, Join, Plan};
pub use pg_rating_core::ledger::results::Meaning;
use pg_rating_core::ledger::results::{self, MapValue, ResultMap};
use pg_rating_core::ledger::{integer_key, integer_key_id, LedgerKey, MultiplayerRule, Outcome};
use pgrx::prelude::*;
use pgrx::PgSqlErrorCode;
use serde_json::Value;

use crate::error::raise;

/// A ledger's games table and its columns (a `ledger_attachments` row).
#[derive(Clone, Debug)]
pub struct Attachment {
    pub ledger_id: i32,
    pub table: pg_sys::Oid,
    /// The table's owner, whose rights every read of the table runs with.
    pub owner: pg_sys::Oid,
    pub key_column: String,
    pub key_type: pg_sys::Oid,
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
    pub related: Vec<pg_sys::Oid>,
    /// Its paths' joins, found in the catalog (`None` without a path of more than one step).
    pub paths: Option<Resolved>,
}

/// A join of an attachment's reads, found in the catalog: `join.alias` is the table `table`
/// whose column `refcol` the column `join.via` of `join.parent` references.
#[derive(Clone, Debug)]
pub struct ResolvedJoin {
    pub join: Join,
    pub table: pg_sys::Oid,
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
pub struct Resolved {
    pub plan: Plan,
    pub joins: Vec<ResolvedJoin>,
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

/// The columns of a scope: one name, or several separated by commas (22023 for an empty one).
pub fn scope_columns(list: &str) -> Vec<&str> {
    paths::split_list(list).unwrap_or_else(|e| crate::error::raise_core(&e))
}

/// The steps of a column argument (22023 for a malformed path).
pub fn steps(text: &str) -> Vec<String> {
    paths::parse_path(text).unwrap_or_else(|e| crate::error::raise_core(&e))
}

pub fn quote(ident: &str) -> String {
    spi::quote_identifier(ident)
}

fn is_integer(t: pg_sys::Oid) -> bool {
    [pg_sys::INT2OID, pg_sys::INT4OID, pg_sys::INT8OID].contains(&t)
}

/// Key types whose text order (bytewise) is their own order, or that are integers.
pub fn key_type_supported(t: pg_sys::Oid) -> bool {
    is_integer(t) || [pg_sys::TEXTOID, pg_sys::VARCHAROID, pg_sys::UUIDOID].contains(&t)
}

pub fn date_type_supported(t: pg_sys::Oid) -> bool {
    [
        pg_sys::TIMESTAMPTZOID,
        pg_sys::TIMESTAMPOID,
        pg_sys::DATEOID,
    ]
    .contains(&t)
}

pub fn score_type_supported(t: pg_sys::Oid) -> bool {
    is_integer(t) || [pg_sys::NUMERICOID, pg_sys::FLOAT4OID, pg_sys::FLOAT8OID].contains(&t)
}

/// A `result_map` argument (jsonb) as JSON: 22023 for a number beyond what a score can be (`1e400`:
/// read as a double, it would be infinite), rather than pgrx's internal error while reading it.
pub fn result_map_arg(map: pgrx::AnyElement) -> pgrx::JsonB {
    // SAFETY: the argument is a non-NULL jsonb (the function's declared type).
    let text: &std::ffi::CStr = unsafe {
        pgrx::direct_function_call(pg_sys::jsonb_out, &[Some(map.datum())])
            .unwrap_or_else(|| crate::error::internal("jsonb_out gave NULL"))
    };
    let text = text.to_string_lossy();
    match serde_json::from_str(&text) {
        Ok(v) => pgrx::JsonB(v),
        Err(e) => raise(
            PgSqlErrorCode::ERRCODE_INVALID_PARAMETER_VALUE,
            format!(
                "result_map {}: {}, not a score in [0, 1]",
                pg_rating_core::error::Quoted(&text),
                // (serde_json says where: "number out of range at line 1 column 11")
                e.to_string().split(" at line").next().unwrap_or_default()
            ),
        ),
    }
}

/// A result map (jsonb) as the library's [`ResultMap`]: 22023 for anything but an object, and for
/// a meaning the library refuses.
pub fn parse_result_map(map: &Value) -> ResultMap {
    let Value::Object(entries) = map else {
        raise(
            PgSqlErrorCode::ERRCODE_INVALID_PARAMETER_VALUE,
            "result_map must be a JSON object of result values and their meaning",
        )
    };
    let entries = entries.iter().map(|(value, meaning)| {
        let v = match meaning {
            // (serde_json reads every number of a jsonb as a finite double: result_map_arg)
            Value::Number(n) => n.as_f64().map_or(MapValue::Other, MapValue::Number),
            Value::String(s) => MapValue::Text(s.clone()),
            _ => MapValue::Other,
        };
        (value.clone(), v, meaning.to_string())
    });
    ResultMap::new(entries).unwrap_or_else(|e| crate::error::raise_core(&e))
}

impl Attachment {
    pub fn table_name(&self) -> String {
        // SAFETY: catalog lookups by oid; NULL (a dropped table) is checked.
        let (schema, name) = unsafe {
            let name = pg_sys::get_rel_name(self.table);
            let schema = pg_sys::get_namespace_name(pg_sys::get_rel_namespace(self.table));
            if name.is_null() || schema.is_null() {
                raise(
                    PgSqlErrorCode::ERRCODE_UNDEFINED_TABLE,
                    format!(
                        "the games table of ledger {} no longer exists",
                        self.ledger_id
                    ),
                );
            }
            (
                std::ffi::CStr::from_ptr(schema)
                    .to_string_lossy()
                    .into_owned(),
                std::ffi::CStr::from_ptr(name)
                    .to_string_lossy()
                    .into_owned(),
            )
        };
        format!("{}.{}", quote(&schema), quote(&name))
    }

    /// The scope of a row as text: one column's text, or the row of several columns
    /// (`scope_column` lists them separated by commas), '' without a scope.
    fn scope_expr(&self) -> String {
        let Some(columns) = &self.scope_column else {
            return "''".into();
        };
        let columns = scope_columns(columns);
        match columns.as_slice() {
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

    /// Every column argument but the key, with its argument's name: the ones that may be paths.
    pub fn column_args(&self) -> Vec<(&'static str, &str)> {
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
            out.extend(scope_columns(list).into_iter().map(|c| ("scope_column", c)));
        }
        if let Some(r) = &self.rated_column {
            out.push(("rated_column", r.as_str()));
        }
        out
    }

    /// Whether a column argument is a path through related tables.
    pub fn has_paths(&self) -> bool {
        self.column_args().iter().any(|(_, c)| steps(c).len() > 1)
    }

    /// Where a column argument is read: `alias.column`.
    fn value(&self, text: &str) -> String {
        let (alias, column) = self.place(text);
        format!("{alias}.{}", quote(&column))
    }

    /// The alias and column a column argument is read from.
    pub fn place(&self, text: &str) -> (String, String) {
        let steps = steps(text);
        if let [one] = steps.as_slice() {
            return (paths::ROOT.to_owned(), one.clone());
        }
        let resolved = self
            .paths
            .as_ref()
            .unwrap_or_else(|| crate::ledger::internal(format!("path {text} not resolved")));
        let i = resolved
            .paths
            .iter()
            .position(|p| *p == steps)
            .unwrap_or_else(|| crate::ledger::internal(format!("path {text} not planned")));
        resolved.plan.values[i].clone()
    }

    /// The attached table (a transition table, or the table itself) as `g`, with the joins of
    /// the paths; `replace` gives the relation that stands for a join's table instead of it.
    /// With joins the filter is read over the table alone (its names cannot meet the related
    /// tables' columns), as `g.pg_rating_counted`.
    fn from(&self, games: &str, replace: &dyn Fn(&ResolvedJoin) -> Option<String>) -> String {
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
                quote(&j.refcol),
                j.pf_op,
                j.join.parent,
                quote(&j.join.via),
                a = j.join.alias,
            ));
        }
        out
    }

    fn filter_expr(&self) -> String {
        match &self.filter {
            Some(f) => format!("coalesce(({f}), false)"),
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
                    quote(&j.refcol),
                    j.join.parent,
                    quote(&j.join.via)
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
    pub fn joins_of(&self, table: pg_sys::Oid) -> Vec<&ResolvedJoin> {
        self.paths
            .iter()
            .flat_map(|r| r.joins.iter())
            .filter(|j| j.table == table)
            .collect()
    }

    /// The columns of a join's table that a read uses: the referenced column, then those its
    /// child joins follow and the values read from it.
    pub fn used_columns<'a>(&'a self, j: &'a ResolvedJoin) -> Vec<&'a str> {
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
    pub fn touched_query(&self, j: &ResolvedJoin, has_old: bool, has_new: bool) -> String {
        let used = self.used_columns(j);
        let k = quote(&j.refcol);
        let row = |t: &str| {
            format!(
                "ROW({})::text",
                used.iter()
                    .map(|c| format!("{t}.{}", quote(c)))
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
        table: pg_sys::Oid,
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
                    quote(&j.join.via)
                )
            })
            .collect();
        let was = |j: &ResolvedJoin| -> Option<String> {
            if j.table != table {
                return None;
            }
            let cols = |t: &str| {
                self.used_columns(j)
                    .iter()
                    .map(|c| format!("{t}.{}", quote(c)))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let k = quote(&j.refcol);
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
        let now = |_: &ResolvedJoin| None;
        let games = self.table_name();
        let key = format!("g.{}", quote(&self.key_column));
        let (from_now, from_was) = (self.from(&games, &now), self.from(&games, &was));
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
                quote(&self.key_column),
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
            quote(&self.key_column),
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
        let key = format!("g.{}", quote(&self.key_column));
        let key_cmp = if is_integer(self.key_type) {
            format!("{key} >= $3::bigint")
        } else if self.key_type == pg_sys::UUIDOID {
            format!("{key} >= $3::uuid")
        } else {
            format!("{key} COLLATE \"C\" >= $3")
        };
        format!(
            "SELECT {} FROM {} WHERE {} = $1 AND {d} >= $2 AND ({d} > $2 OR {key_cmp})",
            self.columns(),
            self.from(&self.table_name(), &|_| None),
            self.scope_expr(),
            d = self.date_expr()
        )
    }

    /// Every row of the table.
    pub fn all_rows_query(&self) -> String {
        format!(
            "SELECT {} FROM {}",
            self.columns(),
            self.from(&self.table_name(), &|_| None)
        )
    }

    /// The ledger's text of a key (integers written so that their text order is their order).
    /// 42804 for a key that is not an integer in a column attached as one: its type was changed
    /// since (to `numeric`, say) and the ledger cannot order its games by it.
    pub fn ledger_key_id(&self, text: &str) -> String {
        if is_integer(self.key_type) {
            let id: i64 = text.parse().unwrap_or_else(|_| {
                raise(
                    PgSqlErrorCode::ERRCODE_DATATYPE_MISMATCH,
                    format!(
                        "ledger {}: the key {} of column \"{}\" of {} is not an integer: the \
                         column was attached as an integer key and its type changed since; a key \
                         column must be smallint, integer, bigint, text, varchar or uuid \
                         (change it back, or detach the ledger and attach it again)",
                        self.ledger_id,
                        pg_rating_core::error::Quoted(text),
                        self.key_column,
                        self.table_name()
                    ),
                )
            });
            integer_key(id)
        } else {
            text.to_owned()
        }
    }

    /// The column's text of a ledger key (the inverse of [`Attachment::ledger_key_id`]).
    pub fn column_key_text(&self, id: &str) -> String {
        if is_integer(self.key_type) {
            integer_key_id(id)
                .unwrap_or_else(|| crate::ledger::internal(format!("key {id}")))
                .to_string()
        } else {
            id.to_owned()
        }
    }

    /// What a result value means (the library's rule); a NULL result is a game not over: not rated.
    pub fn meaning(&self, key: &str, result: Option<&str>) -> Meaning {
        results::meaning(self.result_map.as_ref(), key, result)
            .unwrap_or_else(|e| crate::error::raise_core(&e))
    }
}
