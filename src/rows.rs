//! Rows of a derived table written by SQL statements, their columns named once: the ledgers'
//! standings upserts (their new entries go below SQL, `crate::bulk_insert`) and the Random Chess
//! rankings' history and standings. A statement's games write a few rows: they go as VALUES with
//! one parameter per value, whose plan starts fast; a replay writes thousands: they go as one
//! array per column, unnested.

use std::sync::OnceLock;

use pg_rating_core::columns::{shape, RowStatement, MAX_STATEMENT_ROWS, MAX_VALUES_ROWS};
use pgrx::datum::DatumWithOid;

use crate::columns::{Arrays, Column, Value};

/// A statement that writes rows of `columns` into `table` ([`RowStatement`]), its texts made once.
pub struct RowWriter {
    statement: RowStatement,
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
            statement: RowStatement {
                table,
                columns,
                conflict,
            },
            texts: [const { OnceLock::new() }; MAX_VALUES_ROWS + 1],
        }
    }

    /// The text for `rows` rows ([`RowStatement::text`]).
    fn text(&self, rows: usize) -> &str {
        self.texts[shape(rows)].get_or_init(|| self.statement.text(rows, 1))
    }

    /// Checks that every row has a value for each column.
    fn check(&self, rows: &[Vec<Value>]) {
        let width = self.statement.columns.len();
        if rows.iter().any(|r| r.len() != width) {
            crate::error::internal(format!(
                "rows of {} without a value for each column",
                self.statement.table
            ));
        }
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
        let mut items = items.into_iter().peekable();
        while items.peek().is_some() {
            let rows: Vec<Vec<Value>> = items
                .by_ref()
                .take(MAX_STATEMENT_ROWS)
                .map(&mut row)
                .collect();
            self.check(&rows);
            let text = self.text(rows.len());
            run(text, &self.args(rows));
        }
    }

    /// The parameters of a statement of these rows.
    fn args(&self, rows: Vec<Vec<Value>>) -> Vec<DatumWithOid<'static>> {
        if rows.len() <= MAX_VALUES_ROWS {
            let kinds = self.statement.columns.iter().cycle();
            rows.into_iter()
                .flatten()
                .zip(kinds)
                .map(|(value, (name, kind))| value.into_arg(*kind, name))
                .collect()
        } else {
            let mut arrays = Arrays::new(self.statement.columns.to_vec());
            for row in rows {
                arrays.push_row(row);
            }
            arrays.into_args()
        }
    }
}

/// Two writers whose rows go in one statement, `WITH first AS (<first's>) <second's>`: a game's
/// history entries and its players' standings cost one statement, not two.
pub struct RowPair {
    first: &'static RowWriter,
    second: &'static RowWriter,
    /// The texts by the shapes of the two sides, made once per backend.
    texts: [[OnceLock<String>; MAX_VALUES_ROWS + 1]; MAX_VALUES_ROWS + 1],
}

impl RowPair {
    pub const fn new(first: &'static RowWriter, second: &'static RowWriter) -> Self {
        RowPair {
            first,
            second,
            texts: [const { [const { OnceLock::new() }; MAX_VALUES_ROWS + 1] };
                MAX_VALUES_ROWS + 1],
        }
    }

    /// Writes both sides' rows by `run`: in one statement when each side fits in one, else each
    /// by its own writer.
    pub fn write(
        &self,
        first: Vec<Vec<Value>>,
        second: Vec<Vec<Value>>,
        mut run: impl FnMut(&str, &[DatumWithOid<'static>]),
    ) {
        let (n, m) = (first.len(), second.len());
        if !RowStatement::together(n, m) {
            self.first.write(first, |r| r, &mut run);
            self.second.write(second, |r| r, &mut run);
            return;
        }
        self.first.check(&first);
        self.second.check(&second);
        let text = self.texts[shape(n)][shape(m)]
            .get_or_init(|| self.first.statement.with(n, &self.second.statement, m));
        let mut args = self.first.args(first);
        args.extend(self.second.args(second));
        run(text, &args);
    }
}
