//! Rows of a derived table written by SQL statements, their columns named once: the ledgers'
//! standings upserts (their new entries go below SQL, `crate::bulk_insert`) and the Random Chess
//! rankings' history and standings. A statement's games write a few rows: they go as VALUES with
//! one parameter per value, whose plan starts fast; a replay writes thousands: they go as one
//! array per column, unnested.

use std::sync::OnceLock;

use pgrx::datum::DatumWithOid;

use crate::columns::{names, unnest, Arrays, Column, Value};

/// The most rows written as VALUES: a game writes two rows per ledger of its table.
const MAX_VALUES_ROWS: usize = 8;
/// The most rows written by one statement: unnest keeps each column's values in memory up to
/// `work_mem` (then in a temporary file); a replay of a million games writes in pieces this size.
const MAX_STATEMENT_ROWS: usize = 5_000;

/// A statement that writes rows of `columns` into `table`: a row whose key (`conflict`, the
/// columns of a unique key) exists replaces it; with no `conflict`, rows are only inserted.
pub struct RowWriter {
    table: &'static str,
    columns: &'static [Column],
    conflict: &'static [&'static str],
    /// The statement's text for 1..=MAX_VALUES_ROWS rows as VALUES, then for arrays: made once
    /// per backend, not for every game.
    texts: [OnceLock<String>; MAX_VALUES_ROWS + 1],
}

impl RowWriter {
    pub const fn new(
        table: &'static str,
        columns: &'static [Column],
        conflict: &'static [&'static str],
    ) -> Self {
        RowWriter {
            table,
            columns,
            conflict,
            texts: [const { OnceLock::new() }; MAX_VALUES_ROWS + 1],
        }
    }

    fn column_list(&self) -> String {
        format!("INSERT INTO {} ({})", self.table, names(self.columns))
    }

    fn tail(&self) -> String {
        if self.conflict.is_empty() {
            return String::new();
        }
        let sets: Vec<String> = self
            .columns
            .iter()
            .filter(|(n, _)| !self.conflict.contains(n))
            .map(|(n, _)| format!("{n} = EXCLUDED.{n}"))
            .collect();
        format!(
            "ON CONFLICT ({}) DO UPDATE SET {}",
            self.conflict.join(", "),
            sets.join(", ")
        )
    }

    /// The text for `rows` rows (1..=MAX_VALUES_ROWS as VALUES, more as arrays): the values row by
    /// row, or one array per column.
    fn text(&self, rows: usize) -> &str {
        let width = self.columns.len();
        let shape = rows.min(MAX_VALUES_ROWS + 1) - 1;
        self.texts[shape].get_or_init(|| {
            if rows <= MAX_VALUES_ROWS {
                let tuples: Vec<String> = (0..rows)
                    .map(|r| {
                        let first = 1 + r * width;
                        let params: Vec<String> = (first..first + width)
                            .zip(self.columns)
                            .map(|(i, (_, kind))| format!("${i}{}", kind.value_cast()))
                            .collect();
                        format!("({})", params.join(", "))
                    })
                    .collect();
                format!(
                    "{} VALUES {} {}",
                    self.column_list(),
                    tuples.join(", "),
                    self.tail()
                )
            } else {
                format!(
                    "{} SELECT * FROM {} {}",
                    self.column_list(),
                    unnest(self.columns, 1),
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
        items: impl IntoIterator<Item = T>,
        mut row: impl FnMut(T) -> Vec<Value>,
        mut run: impl FnMut(&str, &[DatumWithOid<'static>]),
    ) {
        let width = self.columns.len();
        let mut items = items.into_iter().peekable();
        while items.peek().is_some() {
            let rows: Vec<Vec<Value>> = items
                .by_ref()
                .take(MAX_STATEMENT_ROWS)
                .map(&mut row)
                .collect();
            if rows.iter().any(|r| r.len() != width) {
                crate::error::internal(format!(
                    "rows of {} without a value for each column",
                    self.table
                ));
            }
            let (sql, args) = self.statement(rows);
            run(sql, &args);
        }
    }

    fn statement(&self, rows: Vec<Vec<Value>>) -> (&str, Vec<DatumWithOid<'static>>) {
        let text = self.text(rows.len());
        let args = if rows.len() <= MAX_VALUES_ROWS {
            let kinds = self.columns.iter().cycle();
            rows.into_iter()
                .flatten()
                .zip(kinds)
                .map(|(value, (name, kind))| value.into_arg(*kind, name))
                .collect()
        } else {
            let mut arrays = Arrays::new(self.columns.to_vec());
            for row in rows {
                arrays.push_row(row);
            }
            arrays.into_args()
        };
        (text, args)
    }
}
