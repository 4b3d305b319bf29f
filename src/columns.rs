//! Rows sent to a statement as one array per column, each column named once (its name and what it
//! holds): the ledger writer and the tournament standings writer make their statements' texts
//! from such column lists and fill the arrays by column, checked, instead of binding `$n` by
//! position.

use pgrx::datum::DatumWithOid;
use pgrx::prelude::*;

use crate::error::internal;

pub use pg_rating_core::columns::{names, unnest, Cell, Column, Kind, Named};

/// The PostgreSQL type of a column of a [`Kind`].
pub trait ColumnType {
    fn column_type(self) -> pgrx::pg_sys::Oid;
}

impl ColumnType for Kind {
    fn column_type(self) -> pgrx::pg_sys::Oid {
        use pgrx::pg_sys;
        match self {
            Kind::Float => pg_sys::FLOAT8OID,
            Kind::Int => pg_sys::INT4OID,
            Kind::Text => pg_sys::TEXTOID,
            Kind::Time => pg_sys::TIMESTAMPTZOID,
            Kind::Bytes => pg_sys::BYTEAOID,
            Kind::Decimal => pg_sys::NUMERICOID,
        }
    }
}

/// A row that lends its values as cells, each named by its column, in the order of its table's
/// columns (checked by name: [`check_cells`]).
pub trait Cells<const N: usize> {
    fn cells(&self) -> [Named<Cell<'_>>; N];

    /// The values to write (texts copied).
    fn values(&self) -> Vec<Value> {
        self.cells()
            .into_iter()
            .map(|(_, cell)| Value::from(cell))
            .collect()
    }
}

/// An internal error unless `names` are the names of `columns`, in their order.
fn check_names<'a>(names: impl IntoIterator<Item = &'a str>, columns: &[Column]) {
    pg_rating_core::columns::check_names(names, columns).unwrap_or_else(|e| internal(e));
}

/// Checks that rows of type `R` bind `columns` by name: once per write, since the names of a
/// row type's cells are the same for all its rows. A statement or row type whose columns were
/// reordered fails every write (and so every test that writes), never writes wrong columns.
pub fn check_cells<R: Cells<N>, const N: usize>(rows: &[R], columns: &[Column]) {
    if let Some(row) = rows.first() {
        check_names(row.cells().map(|(name, _)| name), columns);
    }
}

/// Values named by their columns, in the order of `columns` (an internal error when they name
/// others or another order).
pub fn in_order<const N: usize>(columns: &[Column], values: [Named<Value>; N]) -> Vec<Value> {
    check_names(values.iter().map(|(name, _)| *name), columns);
    values.into_iter().map(|(_, value)| value).collect()
}

/// An internal error unless a row has a value for each of its `columns` columns.
pub fn check_row_len(values: usize, columns: usize) {
    pg_rating_core::columns::check_row_len(values, columns).unwrap_or_else(|e| internal(e));
}

impl From<Cell<'_>> for Value {
    fn from(cell: Cell<'_>) -> Self {
        match cell {
            Cell::Float(x) => Value::Float(x),
            Cell::Int(x) => Value::Int(x),
            Cell::Text(x) => Value::Text(x.map(str::to_owned)),
            Cell::Time(t) => Value::Time(
                TimestampWithTimeZone::try_from(t).unwrap_or_else(|e| internal(format!("{e:?}"))),
            ),
        }
    }
}

/// One value of a row.
#[derive(Clone, Debug)]
pub enum Value {
    Float(Option<f64>),
    Int(Option<i32>),
    Text(Option<String>),
    Time(TimestampWithTimeZone),
    Bytes(Vec<u8>),
}

/// `From` each type a [`Value`] holds: the type, and the value it makes of `x`.
macro_rules! value_from {
    ($($t:ty => $value:expr;)*) => {$(
        impl From<$t> for Value {
            fn from(x: $t) -> Self {
                $value(x)
            }
        }
    )*};
}

value_from! {
    f64 => |x| Value::Float(Some(x));
    Option<f64> => Value::Float;
    i32 => |x| Value::Int(Some(x));
    Option<i32> => Value::Int;
    String => |x| Value::Text(Some(x));
    TimestampWithTimeZone => Value::Time;
    Vec<u8> => Value::Bytes;
}

impl Value {
    /// The value as one parameter of a column of `kind`; an internal error when it is of another
    /// type.
    pub fn into_arg(self, kind: Kind, column: &str) -> DatumWithOid<'static> {
        match self.for_column(kind, column) {
            Value::Float(x) => x.into(),
            Value::Int(x) => x.into(),
            Value::Text(x) => x.into(),
            Value::Time(x) => x.into(),
            Value::Bytes(x) => x.into(),
        }
    }

    /// The value as a datum of its column's own type, for a writer below SQL, where no cast
    /// follows: a decimal as numeric, read from its text as the SQL cast reads it.
    pub fn into_stored(self, kind: Kind, column: &str) -> DatumWithOid<'static> {
        match (kind, self.for_column(kind, column)) {
            (Kind::Decimal, Value::Text(text)) => text
                .map(|t| {
                    t.parse::<AnyNumeric>()
                        .unwrap_or_else(|e| internal(format!("column {column}: {e}")))
                })
                .into(),
            (_, value) => value.into_arg(kind, column),
        }
    }

    /// The value as a column of `kind` takes it (a decimal as its text, which SQL casts exactly);
    /// an internal error when it is of another type. The one rule of which value fits which kind.
    fn for_column(self, kind: Kind, column: &str) -> Value {
        match (kind, self) {
            (Kind::Float, v @ Value::Float(_))
            | (Kind::Int, v @ Value::Int(_))
            | (Kind::Text, v @ Value::Text(_))
            | (Kind::Time, v @ Value::Time(_))
            | (Kind::Bytes, v @ Value::Bytes(_)) => v,
            (Kind::Decimal, Value::Float(x)) => Value::Text(x.map(|d| d.to_string())),
            _ => wrong_type(column),
        }
    }
}

fn wrong_type(column: &str) -> ! {
    internal(format!("a value of another type for column {column}"))
}

/// The values of one column.
enum Array {
    Float(Vec<Option<f64>>),
    Int(Vec<Option<i32>>),
    Text(Vec<Option<String>>),
    Time(Vec<TimestampWithTimeZone>),
    Bytes(Vec<Vec<u8>>),
}

impl Array {
    fn new(kind: Kind) -> Self {
        match kind {
            Kind::Float => Array::Float(Vec::new()),
            Kind::Int => Array::Int(Vec::new()),
            Kind::Text | Kind::Decimal => Array::Text(Vec::new()),
            Kind::Time => Array::Time(Vec::new()),
            Kind::Bytes => Array::Bytes(Vec::new()),
        }
    }

    fn len(&self) -> usize {
        match self {
            Array::Float(a) => a.len(),
            Array::Int(a) => a.len(),
            Array::Text(a) => a.len(),
            Array::Time(a) => a.len(),
            Array::Bytes(a) => a.len(),
        }
    }

    /// Adds a value of the array's column (of `kind`: [`Value::for_column`] checks it).
    fn push(&mut self, kind: Kind, value: Value, column: &str) {
        match (self, value.for_column(kind, column)) {
            (Array::Float(a), Value::Float(x)) => a.push(x),
            (Array::Int(a), Value::Int(x)) => a.push(x),
            (Array::Text(a), Value::Text(x)) => a.push(x),
            (Array::Time(a), Value::Time(x)) => a.push(x),
            (Array::Bytes(a), Value::Bytes(x)) => a.push(x),
            // an array made for another kind than the one given
            _ => wrong_type(column),
        }
    }

    fn into_arg(self) -> DatumWithOid<'static> {
        match self {
            Array::Float(a) => a.into(),
            Array::Int(a) => a.into(),
            Array::Text(a) => a.into(),
            Array::Time(a) => a.into(),
            Array::Bytes(a) => a.into(),
        }
    }
}

/// Rows as one array per column, filled row by row: by column name, or a whole row in the order
/// of the columns.
pub struct Arrays {
    columns: Vec<Column>,
    arrays: Vec<Array>,
}

impl Arrays {
    pub fn new(columns: Vec<Column>) -> Self {
        let arrays = columns.iter().map(|(_, kind)| Array::new(*kind)).collect();
        Arrays { columns, arrays }
    }

    /// Adds `value` to the current row's `column`.
    pub fn push(&mut self, column: &str, value: impl Into<Value>) {
        let Some(i) = self.columns.iter().position(|(n, _)| *n == column) else {
            internal(format!("no column {column} in the statement"))
        };
        self.arrays[i].push(self.columns[i].1, value.into(), column);
    }

    /// Adds a row: one value per column, in their order.
    pub fn push_row(&mut self, row: Vec<Value>) {
        check_row_len(row.len(), self.columns.len());
        for ((array, (name, kind)), value) in self.arrays.iter_mut().zip(&self.columns).zip(row) {
            array.push(*kind, value, name);
        }
    }

    pub fn rows(&self) -> usize {
        self.arrays.first().map_or(0, Array::len)
    }

    /// The arrays in the order of the columns; an internal error unless every row has a value
    /// of each column.
    pub fn into_args(self) -> Vec<DatumWithOid<'static>> {
        let rows = self.rows();
        if let Some(((name, _), _)) = self
            .columns
            .iter()
            .zip(&self.arrays)
            .find(|(_, a)| a.len() != rows)
        {
            internal(format!("rows without a value of column {name}"));
        }
        self.arrays.into_iter().map(Array::into_arg).collect()
    }
}
