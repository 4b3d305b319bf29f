//! Rows of a derived table written by one statement, their columns named once. A game writes two
//! rows per table: they go as VALUES with one parameter per value, whose plan starts fast; a
//! replay writes thousands: they go as one array per column, unnested.

use std::sync::OnceLock;

use pgrx::datum::DatumWithOid;
use pgrx::prelude::*;

/// One value of a row.
#[derive(Clone, Debug)]
pub enum Value {
    Float(f64),
    MaybeFloat(Option<f64>),
    Int(i32),
    Text(String),
    Time(TimestampWithTimeZone),
}

/// What a column holds: the SQL type its array is cast to.
#[derive(Clone, Copy)]
pub enum Kind {
    Float,
    Int,
    Text,
    Time,
}

impl Kind {
    fn array_type(self) -> &'static str {
        match self {
            Kind::Float => "float8[]",
            Kind::Int => "int4[]",
            Kind::Text => "text[]",
            Kind::Time => "timestamptz[]",
        }
    }
}

/// The most rows written as VALUES.
const MAX_VALUES_ROWS: usize = 2;
/// The most rows written by one statement: unnest keeps each column's values in memory up to
/// `work_mem` (then in a temporary file); a replay of a million games writes in pieces this size.
const MAX_STATEMENT_ROWS: usize = 5_000;

/// A statement that writes rows into `table`: every row has `ledger_id` and `scope` (the same for
/// all) and then `columns`. With `upsert`, a row whose (ledger_id, scope, first column) exists
/// replaces it.
pub struct RowWriter {
    table: &'static str,
    columns: &'static [(&'static str, Kind)],
    upsert: bool,
    /// The statement's text for 1..=MAX_VALUES_ROWS rows as VALUES, then for arrays: made once
    /// per backend, not for every game.
    texts: [OnceLock<String>; MAX_VALUES_ROWS + 1],
}

impl RowWriter {
    pub const fn new(
        table: &'static str,
        columns: &'static [(&'static str, Kind)],
        upsert: bool,
    ) -> Self {
        RowWriter {
            table,
            columns,
            upsert,
            texts: [const { OnceLock::new() }; MAX_VALUES_ROWS + 1],
        }
    }

    fn column_list(&self) -> String {
        let names: Vec<&str> = self.columns.iter().map(|(n, _)| *n).collect();
        format!(
            "INSERT INTO {} (ledger_id, scope, {})",
            self.table,
            names.join(", ")
        )
    }

    fn tail(&self) -> String {
        if !self.upsert {
            return String::new();
        }
        let sets: Vec<String> = self.columns[1..]
            .iter()
            .map(|(n, _)| format!("{n} = EXCLUDED.{n}"))
            .collect();
        format!(
            "ON CONFLICT (ledger_id, scope, {}) DO UPDATE SET {}",
            self.columns[0].0,
            sets.join(", ")
        )
    }

    /// The text for `rows` rows (1..=MAX_VALUES_ROWS as VALUES, more as arrays): $1 and $2 are the
    /// ledger and the scope, then the values row by row, or one array per column.
    fn text(&self, rows: usize) -> &str {
        let width = self.columns.len();
        let shape = rows.min(MAX_VALUES_ROWS + 1) - 1;
        self.texts[shape].get_or_init(|| {
            if rows <= MAX_VALUES_ROWS {
                let tuples: Vec<String> = (0..rows)
                    .map(|r| {
                        let first = 3 + r * width;
                        let params: Vec<String> =
                            (first..first + width).map(|i| format!("${i}")).collect();
                        format!("($1, $2, {})", params.join(", "))
                    })
                    .collect();
                format!(
                    "{} VALUES {} {}",
                    self.column_list(),
                    tuples.join(", "),
                    self.tail()
                )
            } else {
                let arrays: Vec<String> = self
                    .columns
                    .iter()
                    .enumerate()
                    .map(|(i, (_, kind))| format!("${}::{}", 3 + i, kind.array_type()))
                    .collect();
                format!(
                    "{} SELECT $1, $2, u.* FROM unnest({}) AS u {}",
                    self.column_list(),
                    arrays.join(", "),
                    self.tail()
                )
            }
        })
    }

    /// Writes a row for each of `items` (`row` gives its values, one per column) by `run`: a
    /// statement of at most MAX_STATEMENT_ROWS rows at a time, each chunk's values made just before
    /// its statement, so a replay of a million games never holds all its rows at once.
    pub fn write<T>(
        &self,
        ledger: i32,
        scope: &str,
        items: &[T],
        row: impl Fn(&T) -> Vec<Value>,
        mut run: impl FnMut(&str, &[DatumWithOid<'static>]),
    ) {
        let width = self.columns.len();
        for chunk in items.chunks(MAX_STATEMENT_ROWS) {
            let rows: Vec<Vec<Value>> = chunk.iter().map(&row).collect();
            if rows.iter().any(|r| r.len() != width) {
                super::internal(format!(
                    "rows of {} without a value for each column",
                    self.table
                ));
            }
            let (sql, args) = self.statement(ledger, scope, rows);
            run(sql, &args);
        }
    }

    fn statement(
        &self,
        ledger: i32,
        scope: &str,
        rows: Vec<Vec<Value>>,
    ) -> (&str, Vec<DatumWithOid<'static>>) {
        let mut args: Vec<DatumWithOid<'static>> = vec![ledger.into(), scope.to_owned().into()];
        let text = self.text(rows.len());
        if rows.len() <= MAX_VALUES_ROWS {
            args.extend(rows.into_iter().flatten().map(scalar));
        } else {
            // one column after the other, each value moved (not copied) into its array
            let mut columns: Vec<Vec<Value>> = (0..self.columns.len())
                .map(|_| Vec::with_capacity(rows.len()))
                .collect();
            for row in rows {
                for (column, value) in columns.iter_mut().zip(row) {
                    column.push(value);
                }
            }
            for ((_, kind), values) in self.columns.iter().zip(columns) {
                args.push(column_array(*kind, values.into_iter()));
            }
        }
        (text, args)
    }
}

fn scalar(v: Value) -> DatumWithOid<'static> {
    match v {
        Value::Float(x) => x.into(),
        Value::MaybeFloat(x) => x.into(),
        Value::Int(x) => x.into(),
        Value::Text(x) => x.into(),
        Value::Time(x) => x.into(),
    }
}

fn column_array(kind: Kind, values: impl Iterator<Item = Value>) -> DatumWithOid<'static> {
    fn wrong() -> ! {
        super::internal("a value of a derived row has the wrong type")
    }
    match kind {
        Kind::Float => values
            .map(|v| match v {
                Value::Float(x) => Some(x),
                Value::MaybeFloat(x) => x,
                _ => wrong(),
            })
            .collect::<Vec<Option<f64>>>()
            .into(),
        Kind::Int => values
            .map(|v| match v {
                Value::Int(x) => x,
                _ => wrong(),
            })
            .collect::<Vec<i32>>()
            .into(),
        Kind::Text => values
            .map(|v| match v {
                Value::Text(x) => x,
                _ => wrong(),
            })
            .collect::<Vec<String>>()
            .into(),
        Kind::Time => values
            .map(|v| match v {
                Value::Time(x) => x,
                _ => wrong(),
            })
            .collect::<Vec<TimestampWithTimeZone>>()
            .into(),
    }
}
