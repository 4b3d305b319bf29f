//! Rows sent to a statement as one array per column, each column named once (its name and what it
//! holds): the glue's writers make their statements' texts from such column lists, and a row lends
//! its values as cells named by their columns, checked against the list by name instead of bound
//! by position.

/// What a column holds: the SQL type of its array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Float,
    Int,
    Text,
    Time,
    Bytes,
    /// An `f64` sent as text (Rust's shortest decimal that reads back as it) for numeric_in to
    /// read exactly: a float8 cast to numeric would round it to 15 digits.
    Decimal,
}

impl Kind {
    /// The cast of the array's parameter.
    pub fn array_type(self) -> &'static str {
        match self {
            Kind::Float => "float8[]",
            Kind::Int => "int4[]",
            Kind::Text => "text[]",
            Kind::Time => "timestamptz[]",
            Kind::Bytes => "bytea[]",
            Kind::Decimal => "text[]::numeric[]",
        }
    }

    /// The cast of a single value's parameter (a decimal is sent as text).
    pub fn value_cast(self) -> &'static str {
        match self {
            Kind::Decimal => "::numeric",
            _ => "",
        }
    }
}

/// A column: its name and what it holds.
pub type Column = (&'static str, Kind);

/// `name, ...`
pub fn names(columns: &[Column]) -> String {
    let names: Vec<&str> = columns.iter().map(|(n, _)| *n).collect();
    names.join(", ")
}

/// `unnest($first::type, ...)`: the columns' arrays, from parameter `first` on.
pub fn unnest(columns: &[Column], first: usize) -> String {
    let arrays: Vec<String> = columns
        .iter()
        .enumerate()
        .map(|(i, (_, kind))| format!("${}::{}", first + i, kind.array_type()))
        .collect();
    format!("unnest({})", arrays.join(", "))
}

/// One value of a row, borrowed from where the row is kept: what a row is compared by before it
/// is written (a rebuild keeps the stored rows equal to its own), and made a value to write.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Cell<'a> {
    Float(Option<f64>),
    Int(Option<i32>),
    Text(Option<&'a str>),
    /// Microseconds since 2000-01-01 (PostgreSQL's timestamptz).
    Time(i64),
}

/// A value with the name of its column.
pub type Named<T> = (&'static str, T);

/// `Err(message)` unless `names` are the names of `columns`, in their order: a statement or row
/// type whose columns were reordered fails every write, never writes wrong columns.
pub fn check_names<'a>(
    names: impl IntoIterator<Item = &'a str>,
    columns: &[Column],
) -> Result<(), String> {
    let names: Vec<&str> = names.into_iter().collect();
    if names.iter().copied().eq(columns.iter().map(|(n, _)| *n)) {
        return Ok(());
    }
    Err(format!(
        "values for the columns {names:?} bound to the columns {:?}",
        columns.iter().map(|(n, _)| *n).collect::<Vec<_>>()
    ))
}

/// `Err(message)` unless a row has a value for each of `columns` columns.
pub fn check_row_len(values: usize, columns: usize) -> Result<(), &'static str> {
    if values == columns {
        Ok(())
    } else {
        Err("a row without a value for each column")
    }
}

/// A stored value, read back from a table to be compared exactly with a [`Cell`] (a float by its
/// bits).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stored {
    Float(Option<u64>),
    Int(Option<i32>),
    Text(Option<String>),
    Time(i64),
}

impl Stored {
    /// Whether the stored value is the cell's, bit for bit.
    pub fn is(&self, cell: &Cell<'_>) -> bool {
        match (self, cell) {
            (Stored::Float(s), Cell::Float(c)) => *s == c.map(f64::to_bits),
            (Stored::Int(s), Cell::Int(c)) => s == c,
            (Stored::Text(s), Cell::Text(c)) => s.as_deref() == *c,
            (Stored::Time(s), Cell::Time(c)) => s == c,
            _ => false,
        }
    }
}

/// The most rows a [`RowStatement`] writes as VALUES: a game writes two rows per ledger of its
/// table.
pub const MAX_VALUES_ROWS: usize = 8;
/// The most rows written by one statement: unnest keeps each column's values in memory up to
/// `work_mem` (then in a temporary file); a replay of a million games writes in pieces this size.
pub const MAX_STATEMENT_ROWS: usize = 5_000;

/// A statement that writes rows of `columns` into `table` (of pg_rating's schema): a row whose
/// key (`conflict`, the columns of a unique key) exists replaces it; with no `conflict`, rows are
/// only inserted. A statement's games write a few rows: they go as VALUES with one parameter per
/// value, whose plan starts fast; a replay writes thousands: they go as one array per column,
/// unnested.
#[derive(Clone, Copy, Debug)]
pub struct RowStatement {
    pub table: &'static str,
    pub columns: &'static [Column],
    pub conflict: &'static [&'static str],
}

impl RowStatement {
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
        let changed: Vec<&str> = self
            .columns
            .iter()
            .filter(|(n, _)| !self.conflict.contains(n))
            .map(|(n, _)| *n)
            .collect();
        let sets: Vec<String> = changed
            .iter()
            .map(|n| format!("{n} = EXCLUDED.{n}"))
            .collect();
        // An existing row equal to the new one is not written again (no dead row, no WAL for it):
        // a replay upserts the standings of every player it touches, most of them often as they
        // were. (Not for decimals: numeric's equality takes 1.0 and 1.00 as equal, which show
        // differently.)
        let unless_equal = if self.columns.iter().any(|(_, k)| *k == Kind::Decimal) {
            String::new()
        } else {
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

    /// The text for `rows` rows whose parameters begin at `$first` (1..=[`MAX_VALUES_ROWS`] as
    /// VALUES, more as arrays): the values row by row, or one array per column.
    pub fn text(&self, rows: usize, first: usize) -> String {
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
    pub fn parameters(&self, rows: usize) -> usize {
        if rows <= MAX_VALUES_ROWS {
            rows * self.columns.len()
        } else {
            self.columns.len()
        }
    }

    /// Whether `n` rows of one statement and `m` of another go in one ([`Self::with`]): each
    /// side has rows, at most [`MAX_STATEMENT_ROWS`].
    pub fn together(n: usize, m: usize) -> bool {
        let fits = |rows| (1..=MAX_STATEMENT_ROWS).contains(&rows);
        fits(n) && fits(m)
    }

    /// The text writing `n` rows of this statement and `m` rows of `second` in one statement,
    /// `WITH first AS (<this one's>) <second's>`.
    pub fn with(&self, n: usize, second: &RowStatement, m: usize) -> String {
        format!(
            "WITH first AS ({}) {}",
            self.text(n, 1),
            second.text(m, 1 + self.parameters(n))
        )
    }
}

/// The slot of a statement's text for `rows` rows: one per count up to [`MAX_VALUES_ROWS`],
/// then one for arrays.
pub fn shape(rows: usize) -> usize {
    rows.clamp(1, MAX_VALUES_ROWS + 1) - 1
}

/// The most keys a statement over keys of derived rows sends as a VALUES list of parameters,
/// whose plan is made once per shape and starts fast; more go as one array per column.
pub const MAX_VALUES_KEYS: usize = 8;

/// The slot of a statement's text over `n` keys: one per count up to [`MAX_VALUES_KEYS`], then
/// one for arrays.
pub fn key_shape(n: usize) -> usize {
    n.clamp(1, MAX_VALUES_KEYS + 1) - 1
}

/// The rows of `n` keys of `width` columns (an int, then texts), from `$1` on:
/// `VALUES ($1::int4[, $2::text[, $3::text]]), ...` for a few, `SELECT * FROM
/// unnest($1::int4[][, $2::text[][, $3::text[]]])` for more than [`MAX_VALUES_KEYS`].
pub fn key_rows(n: usize, width: usize) -> String {
    let kind = |c: usize| if c == 0 { "int4" } else { "text" };
    if n > MAX_VALUES_KEYS {
        let arrays: Vec<String> = (0..width)
            .map(|c| format!("${}::{}[]", c + 1, kind(c)))
            .collect();
        return format!("SELECT * FROM unnest({})", arrays.join(", "));
    }
    let tuples: Vec<String> = (0..n)
        .map(|r| {
            let cells: Vec<String> = (0..width)
                .map(|c| format!("${}::{}", 1 + r * width + c, kind(c)))
                .collect();
            format!("({})", cells.join(", "))
        })
        .collect();
    format!("VALUES {}", tuples.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    const COLUMNS: [Column; 3] = [("id", Kind::Int), ("at", Kind::Time), ("x", Kind::Decimal)];

    #[test]
    fn statements_name_and_unnest_the_columns_in_order() {
        assert_eq!(names(&COLUMNS), "id, at, x");
        assert_eq!(
            unnest(&COLUMNS, 2),
            "unnest($2::int4[], $3::timestamptz[], $4::text[]::numeric[])"
        );
        assert_eq!(Kind::Decimal.value_cast(), "::numeric");
        assert_eq!(Kind::Float.value_cast(), "");
    }

    const KEYED: RowStatement = RowStatement {
        table: "standings",
        columns: &[
            ("id", Kind::Int),
            ("name", Kind::Text),
            ("points", Kind::Float),
        ],
        conflict: &["id"],
    };

    #[test]
    fn a_few_rows_go_as_values_many_as_arrays() {
        let upsert =
            "ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, points = EXCLUDED.points \
                      WHERE (t.name, t.points) IS DISTINCT FROM (EXCLUDED.name, EXCLUDED.points)";
        assert_eq!(
            KEYED.text(2, 1),
            format!(
                "INSERT INTO @extschema@.standings AS t (id, name, points) VALUES ($1, $2, $3), \
                 ($4, $5, $6) {upsert}"
            )
        );
        assert_eq!(KEYED.parameters(2), 6);
        assert_eq!(
            KEYED.text(9, 4),
            format!(
                "INSERT INTO @extschema@.standings AS t (id, name, points) SELECT * FROM \
                 unnest($4::int4[], $5::text[], $6::float8[]) {upsert}"
            )
        );
        assert_eq!(KEYED.parameters(9), 3);
        let insert = RowStatement {
            table: "history",
            columns: &[("id", Kind::Int), ("x", Kind::Decimal)],
            conflict: &[],
        };
        assert_eq!(
            insert.text(1, 1),
            "INSERT INTO @extschema@.history AS t (id, x) VALUES ($1, $2::numeric) "
        );
        let decimal = RowStatement {
            conflict: &["id"],
            ..insert
        };
        assert!(decimal.text(1, 1).ends_with("DO UPDATE SET x = EXCLUDED.x"));
        assert_eq!([0, 1, 8, 9, 5000].map(shape), [0, 0, 7, 8, 8]);
    }

    #[test]
    fn two_statements_go_as_one_when_both_have_rows_that_fit() {
        let first = RowStatement {
            table: "history",
            columns: &[("id", Kind::Int)],
            conflict: &[],
        };
        let text = first.with(2, &KEYED, 1);
        assert!(text.starts_with(
            "WITH first AS (INSERT INTO @extschema@.history AS t (id) VALUES ($1), ($2) ) \
             INSERT INTO @extschema@.standings AS t (id, name, points) VALUES ($3, $4, $5)"
        ));
        let arrays = first.with(10, &KEYED, 10);
        assert!(arrays.contains("unnest($1::int4[])") && arrays.contains("unnest($2::int4[]"));
        assert!(RowStatement::together(1, 1));
        assert!(!RowStatement::together(0, 1));
        assert!(!RowStatement::together(1, 0));
        assert!(!RowStatement::together(MAX_STATEMENT_ROWS + 1, 1));
        assert!(RowStatement::together(
            MAX_STATEMENT_ROWS,
            MAX_STATEMENT_ROWS
        ));
    }

    #[test]
    fn keys_go_as_values_or_arrays() {
        assert_eq!(key_rows(1, 1), "VALUES ($1::int4)");
        assert_eq!(
            key_rows(2, 3),
            "VALUES ($1::int4, $2::text, $3::text), ($4::int4, $5::text, $6::text)"
        );
        assert_eq!(
            key_rows(9, 2),
            "SELECT * FROM unnest($1::int4[], $2::text[])"
        );
        assert_eq!([0, 1, 8, 9, 100].map(key_shape), [0, 0, 7, 8, 8]);
    }

    #[test]
    fn names_must_be_the_columns_in_their_order() {
        assert_eq!(check_names(["id", "at", "x"], &COLUMNS), Ok(()));
        let e = check_names(["at", "id", "x"], &COLUMNS).unwrap_err();
        assert!(e.contains("bound to the columns"), "{e}");
        assert!(check_names(["id", "at"], &COLUMNS).is_err());
        assert!(check_row_len(3, 3).is_ok());
        assert_eq!(
            check_row_len(2, 3),
            Err("a row without a value for each column")
        );
    }

    #[test]
    fn a_stored_value_is_a_cell_bit_for_bit() {
        assert!(Stored::Float(Some(1.5f64.to_bits())).is(&Cell::Float(Some(1.5))));
        assert!(!Stored::Float(Some(0.0f64.to_bits())).is(&Cell::Float(Some(-0.0))));
        assert!(Stored::Float(Some(f64::NAN.to_bits())).is(&Cell::Float(Some(f64::NAN))));
        assert!(Stored::Float(None).is(&Cell::Float(None)));
        assert!(!Stored::Float(None).is(&Cell::Int(None)));
        assert!(Stored::Text(Some("a".into())).is(&Cell::Text(Some("a"))));
        assert!(!Stored::Text(None).is(&Cell::Text(Some(""))));
        assert!(Stored::Int(Some(3)).is(&Cell::Int(Some(3))));
        assert!(Stored::Time(7).is(&Cell::Time(7)));
        assert!(!Stored::Time(7).is(&Cell::Time(8)));
    }
}
