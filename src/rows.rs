//! Rows of a derived table written by SQL statements, their columns named once: the ledgers'
//! standings upserts (their new entries go below SQL, `crate::bulk_insert`) and the Random Chess
//! rankings' history and standings. A statement's games write a few rows: they go as VALUES with
//! one parameter per value, whose plan starts fast; a replay writes thousands: they go as one
//! array per column, unnested.

use std::sync::OnceLock;

use pgrx::datum::DatumWithOid;

use crate::columns::{names, unnest, Arrays, Column, Kind, Value};

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
        format!(
            "INSERT INTO @extschema@.{} AS t ({})",
            self.table,
            names(self.columns)
        )
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
        // An existing row equal to the new one is not written again (no dead row, no WAL for it):
        // a replay upserts the standings of every player it touches, most of them often as they
        // were. (Not for decimals: numeric's equality takes 1.0 and 1.00 as equal, which show
        // differently.)
        let unless_equal = if self.columns.iter().any(|(_, k)| *k == Kind::Decimal) {
            String::new()
        } else {
            let changed: Vec<&str> = self
                .columns
                .iter()
                .filter(|(n, _)| !self.conflict.contains(n))
                .map(|(n, _)| *n)
                .collect();
            format!(
                " WHERE (t.{}) IS DISTINCT FROM (EXCLUDED.{})",
                changed.join(", t."),
                changed.join(", EXCLUDED.")
            )
        };
        format!(
            "ON CONFLICT ({}) DO UPDATE SET {}{unless_equal}",
            self.conflict.join(", "),
            sets.join(", ")
        )
    }

    /// The text for `rows` rows (1..=MAX_VALUES_ROWS as VALUES, more as arrays): the values row by
    /// row, or one array per column.
    fn text(&self, rows: usize) -> &str {
        self.texts[shape(rows)].get_or_init(|| self.make_text(rows, 1))
    }

    /// The text for `rows` rows whose parameters begin at `$first`.
    fn make_text(&self, rows: usize, first: usize) -> String {
        let width = self.columns.len();
        if rows <= MAX_VALUES_ROWS {
            let tuples: Vec<String> = (0..rows)
                .map(|r| {
                    let from = first + r * width;
                    let params: Vec<String> = (from..from + width)
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
                unnest(self.columns, first),
                self.tail()
            )
        }
    }

    /// How many parameters a statement of `rows` rows takes.
    fn parameters(&self, rows: usize) -> usize {
        if rows <= MAX_VALUES_ROWS {
            rows * self.columns.len()
        } else {
            self.columns.len()
        }
    }

    /// Checks that every row has a value for each column.
    fn check(&self, rows: &[Vec<Value>]) {
        if rows.iter().any(|r| r.len() != self.columns.len()) {
            crate::error::internal(format!(
                "rows of {} without a value for each column",
                self.table
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
        }
    }
}

/// The text's slot for a statement of `rows` rows: one per count up to MAX_VALUES_ROWS, then
/// one for arrays.
fn shape(rows: usize) -> usize {
    rows.clamp(1, MAX_VALUES_ROWS + 1) - 1
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
        let together = !first.is_empty()
            && !second.is_empty()
            && first.len() <= MAX_STATEMENT_ROWS
            && second.len() <= MAX_STATEMENT_ROWS;
        if !together {
            self.first.write(first, |r| r, &mut run);
            self.second.write(second, |r| r, &mut run);
            return;
        }
        self.first.check(&first);
        self.second.check(&second);
        let (n, m) = (first.len(), second.len());
        let text = self.texts[shape(n)][shape(m)].get_or_init(|| {
            format!(
                "WITH first AS ({}) {}",
                self.first.make_text(n, 1),
                self.second.make_text(m, 1 + self.first.parameters(n))
            )
        });
        let mut args = self.first.args(first);
        args.extend(self.second.args(second));
        run(text, &args);
    }
}
