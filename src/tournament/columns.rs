//! The statements that write `swiss_tournament_standings` rows in bulk: one array per column,
//! each column named once (its name and type), and each statement's text made from its columns
//! once per backend.

use std::sync::OnceLock;

use pgrx::datum::DatumWithOid;

use crate::error::internal;

/// What a column of `swiss_tournament_standings` passed as an array holds.
#[derive(Clone, Copy)]
enum Kind {
    Int,
    Text,
    Bytes,
    /// An `f64` sent as text (Rust's shortest decimal that reads back as it) for numeric_in to
    /// read exactly: a float8 cast to numeric would round it to 15 digits.
    Decimal,
}

impl Kind {
    /// The cast of the array's parameter.
    fn array_type(self) -> &'static str {
        match self {
            Kind::Int => "int4[]",
            Kind::Text => "text[]",
            Kind::Bytes => "bytea[]",
            Kind::Decimal => "text[]::numeric[]",
        }
    }
}

/// A column of `swiss_tournament_standings` passed as an array: its name and what it holds.
type Column = (&'static str, Kind);

/// The columns that name a row of a tournament.
const KEY: &[Column] = &[("round", Kind::Int), ("player_no", Kind::Int)];
/// The player's entry of the round, written when the row is made.
const ENTRY: &[Column] = &[
    ("user_id_in_service", Kind::Text),
    ("opponent_no", Kind::Int),
    ("colour", Kind::Text),
    ("result", Kind::Text),
];
/// The values the core computes for a player after a round, and their sort key.
const VALUES: &[Column] = &[
    ("points_x2", Kind::Int),
    ("adjusted_x2", Kind::Int),
    ("played", Kind::Int),
    ("win", Kind::Int),
    ("won", Kind::Int),
    ("bh_x2", Kind::Int),
    ("bh_c1_x2", Kind::Int),
    ("sb_x4", Kind::Int),
    ("sb_c1_x4", Kind::Int),
    ("aro", Kind::Int),
    ("aro_c1", Kind::Int),
    ("tpr", Kind::Int),
    ("ptp", Kind::Int),
    ("sort_key", Kind::Bytes),
];
/// With DE in the order: the shared rank and the DE score.
const RANKS: &[Column] = &[("tie_rank", Kind::Int), ("de", Kind::Decimal)];

/// A statement on standings rows passed as one array per column (`$2` on, unnested as `v`):
/// its columns, and its text made from them once per backend.
pub(super) struct ArrayStatement {
    columns: &'static [&'static [Column]],
    make: fn(&[Column]) -> String,
    text: OnceLock<String>,
}

impl ArrayStatement {
    const fn new(columns: &'static [&'static [Column]], make: fn(&[Column]) -> String) -> Self {
        ArrayStatement {
            columns,
            make,
            text: OnceLock::new(),
        }
    }

    fn all_columns(&self) -> Vec<Column> {
        self.columns
            .iter()
            .flat_map(|c| c.iter().copied())
            .collect()
    }

    pub(super) fn arrays(&self) -> Arrays {
        Arrays::new(self.all_columns())
    }

    pub(super) fn text(&'static self) -> &'static str {
        self.text.get_or_init(|| (self.make)(&self.all_columns()))
    }
}

/// `unnest($2::type, ...) AS v(name, ...)`: the columns' arrays.
fn unnest(columns: &[Column]) -> String {
    let arrays: Vec<String> = columns
        .iter()
        .enumerate()
        .map(|(i, (_, kind))| format!("${}::{}", i + 2, kind.array_type()))
        .collect();
    format!("unnest({}) AS v({})", arrays.join(", "), names(columns))
}

fn names(columns: &[Column]) -> String {
    let names: Vec<&str> = columns.iter().map(|(n, _)| *n).collect();
    names.join(", ")
}

/// `s.name = v.name AND ...`: the row of `v` (by the key columns).
fn same_row(key: &[Column]) -> String {
    let pairs: Vec<String> = key.iter().map(|(n, _)| format!("s.{n} = v.{n}")).collect();
    pairs.join(" AND ")
}

/// `name = v.name, ...`: the columns set from the arrays.
fn assignments(columns: &[Column]) -> String {
    let sets: Vec<String> = columns
        .iter()
        .map(|(n, _)| format!("{n} = v.{n}"))
        .collect();
    sets.join(", ")
}

/// Rows made with their entries, values and ranks.
pub(super) static INSERT_ROWS: ArrayStatement =
    ArrayStatement::new(&[KEY, ENTRY, VALUES, RANKS], |c| {
        format!(
            "INSERT INTO swiss_tournament_standings (tournament_id, {}) SELECT $1, v.* FROM {}",
            names(c),
            unnest(c)
        )
    });

/// New values of existing rows. The players and first round are index conditions too: the
/// planner has no estimate of unnest's rows.
pub(super) static WRITE_VALUES: ArrayStatement = ArrayStatement::new(&[KEY, VALUES], |c| {
    let players = c.len() + 2;
    format!(
        "UPDATE swiss_tournament_standings s SET {} FROM {}
         WHERE s.tournament_id = $1 AND s.player_no = ANY(${players}) AND s.round >= ${}
           AND {}",
        assignments(VALUES),
        unnest(c),
        players + 1,
        same_row(KEY)
    )
});

/// New ranks of existing rows, written only where they changed.
pub(super) static WRITE_RANKS: ArrayStatement = ArrayStatement::new(&[KEY, RANKS], |c| {
    let changed: Vec<String> = RANKS
        .iter()
        .map(|(n, _)| format!("s.{n} IS DISTINCT FROM v.{n}"))
        .collect();
    format!(
        "UPDATE swiss_tournament_standings s SET {} FROM {}
         WHERE s.tournament_id = $1 AND {} AND ({})",
        assignments(RANKS),
        unnest(c),
        same_row(KEY),
        changed.join(" OR ")
    )
});

/// One value of a row.
pub(super) enum Value {
    Int(Option<i32>),
    Text(Option<String>),
    Bytes(Vec<u8>),
}

impl From<i32> for Value {
    fn from(x: i32) -> Self {
        Value::Int(Some(x))
    }
}

impl From<Option<i32>> for Value {
    fn from(x: Option<i32>) -> Self {
        Value::Int(x)
    }
}

impl From<String> for Value {
    fn from(x: String) -> Self {
        Value::Text(Some(x))
    }
}

/// A number of a [`Kind::Decimal`] column.
impl From<Option<f64>> for Value {
    fn from(x: Option<f64>) -> Self {
        Value::Text(x.map(|d| d.to_string()))
    }
}

impl From<Vec<u8>> for Value {
    fn from(x: Vec<u8>) -> Self {
        Value::Bytes(x)
    }
}

/// The values of one column.
enum Array {
    Int(Vec<Option<i32>>),
    Text(Vec<Option<String>>),
    Bytes(Vec<Vec<u8>>),
}

impl Array {
    pub(super) fn new(kind: Kind) -> Self {
        match kind {
            Kind::Int => Array::Int(Vec::new()),
            Kind::Text | Kind::Decimal => Array::Text(Vec::new()),
            Kind::Bytes => Array::Bytes(Vec::new()),
        }
    }

    pub(super) fn len(&self) -> usize {
        match self {
            Array::Int(a) => a.len(),
            Array::Text(a) => a.len(),
            Array::Bytes(a) => a.len(),
        }
    }

    pub(super) fn into_arg(self) -> DatumWithOid<'static> {
        match self {
            Array::Int(a) => a.into(),
            Array::Text(a) => a.into(),
            Array::Bytes(a) => a.into(),
        }
    }
}

/// Rows of an [`ArrayStatement`], one array per column, filled row by row by column name.
pub(super) struct Arrays {
    columns: Vec<Column>,
    arrays: Vec<Array>,
}

impl Arrays {
    fn new(columns: Vec<Column>) -> Self {
        let arrays = columns.iter().map(|(_, kind)| Array::new(*kind)).collect();
        Arrays { columns, arrays }
    }

    /// Adds `value` to the current row's `column`.
    pub(super) fn push(&mut self, column: &str, value: impl Into<Value>) {
        let Some(i) = self.columns.iter().position(|(n, _)| *n == column) else {
            internal(format!("no column {column} in a standings statement"))
        };
        match (&mut self.arrays[i], value.into()) {
            (Array::Int(a), Value::Int(x)) => a.push(x),
            (Array::Text(a), Value::Text(x)) => a.push(x),
            (Array::Bytes(a), Value::Bytes(x)) => a.push(x),
            _ => internal(format!("a value of another type for column {column}")),
        }
    }

    pub(super) fn rows(&self) -> usize {
        self.arrays.first().map_or(0, Array::len)
    }

    /// The arrays in the order of the columns; an internal error unless every row has a value
    /// of each column.
    pub(super) fn into_args(self) -> Vec<DatumWithOid<'static>> {
        let rows = self.rows();
        if let Some(((name, _), _)) = self
            .columns
            .iter()
            .zip(&self.arrays)
            .find(|(_, a)| a.len() != rows)
        {
            internal(format!("standings rows without a value of column {name}"));
        }
        self.arrays.into_iter().map(Array::into_arg).collect()
    }
}
