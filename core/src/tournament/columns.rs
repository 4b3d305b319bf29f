//! A row the glue read, its columns by name: what the core makes of such a row (a game and its
//! tournament, a requirement, an entrant, a game or a bye of a tournament, a player or a game of
//! an application's tables) is decided here, not in the glue, which only lends the values.

use crate::clock::Interval;

/// The columns of a row that a statement of the glue read, by name (`None`: NULL).
pub trait Columns {
    fn int_or_null(&self, name: &str) -> Option<i32>;
    fn big_or_null(&self, name: &str) -> Option<i64>;
    fn flag_or_null(&self, name: &str) -> Option<bool>;
    fn text_or_null(&self, name: &str) -> Option<String>;
    fn span_or_null(&self, name: &str) -> Option<Interval>;
    /// A timestamp in microseconds since 2000-01-01.
    fn time_or_null(&self, name: &str) -> Option<i64>;
    /// An array of integers (each possibly NULL).
    fn ints_or_null(&self, name: &str) -> Option<Vec<Option<i32>>>;
    /// A column that must hold a value but is NULL: the glue's internal error.
    fn null(&self, name: &str) -> !;

    /// A NOT NULL integer column.
    fn int(&self, name: &str) -> i32 {
        self.int_or_null(name).unwrap_or_else(|| self.null(name))
    }

    /// A NOT NULL bigint column.
    fn big(&self, name: &str) -> i64 {
        self.big_or_null(name).unwrap_or_else(|| self.null(name))
    }

    /// A NOT NULL boolean column.
    fn flag(&self, name: &str) -> bool {
        self.flag_or_null(name).unwrap_or_else(|| self.null(name))
    }

    /// A NOT NULL text column.
    fn text(&self, name: &str) -> String {
        self.text_or_null(name).unwrap_or_else(|| self.null(name))
    }

    /// A NOT NULL timestamp column.
    fn time(&self, name: &str) -> i64 {
        self.time_or_null(name).unwrap_or_else(|| self.null(name))
    }

    /// A NOT NULL integer array column.
    fn ints(&self, name: &str) -> Vec<Option<i32>> {
        self.ints_or_null(name).unwrap_or_else(|| self.null(name))
    }
}

/// A row of named values for the tests of what the core makes of rows.
#[cfg(test)]
pub(crate) mod test_row {
    use std::collections::HashMap;

    use super::{Columns, Interval};

    /// One value of a test row.
    #[derive(Clone, Debug)]
    pub enum V {
        Int(i32),
        Big(i64),
        Flag(bool),
        Text(&'static str),
        Span(Interval),
        Time(i64),
        Ints(Vec<Option<i32>>),
    }

    /// A test row: the named values, every other column NULL.
    pub struct TestRow(pub HashMap<&'static str, V>);

    impl TestRow {
        pub fn of(values: &[(&'static str, V)]) -> Self {
            TestRow(values.iter().cloned().collect())
        }
    }

    macro_rules! read {
        ($name:ident, $variant:ident, $t:ty) => {
            fn $name(&self, name: &str) -> Option<$t> {
                match self.0.get(name) {
                    Some(V::$variant(x)) => Some(x.clone().into()),
                    Some(other) => panic!("column {name} is {other:?}"),
                    None => None,
                }
            }
        };
    }

    impl Columns for TestRow {
        read!(int_or_null, Int, i32);
        read!(big_or_null, Big, i64);
        read!(flag_or_null, Flag, bool);
        read!(text_or_null, Text, String);
        read!(span_or_null, Span, Interval);
        read!(time_or_null, Time, i64);
        read!(ints_or_null, Ints, Vec<Option<i32>>);

        fn null(&self, name: &str) -> ! {
            panic!("column {name} is NULL")
        }
    }

    #[test]
    fn a_not_null_column_reads_its_value() {
        let row = TestRow::of(&[("a", V::Int(3)), ("b", V::Text("x"))]);
        assert_eq!(row.int("a"), 3);
        assert_eq!(row.text("b"), "x");
        assert_eq!(row.int_or_null("c"), None);
    }

    #[test]
    #[should_panic(expected = "column c is NULL")]
    fn a_null_where_a_value_is_needed_is_the_glues_error() {
        TestRow::of(&[]).big("c");
    }
}
