//! Saved plans: a trigger runs the same few statements for every game, so each is parsed and
//! planned once per backend. Plans are kept by statement text and argument types (looked up
//! without allocating); PostgreSQL's plan cache parses a statement again when a relation it
//! names was dropped or changed (the extension created anew, an attached table altered).

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

use pgrx::datum::DatumWithOid;
use pgrx::prelude::*;
use pgrx::spi::{OwnedPreparedStatement, SpiClient, SpiHeapTupleData, SpiTupleTable};
use pgrx::PgOid;

/// Plans by statement text: for each, the argument types, the engine's schema its names were
/// qualified with (see [`crate::security::qualify`]), the columns digest of the transition tables
/// registered when it was planned ([`planning_over_columns`]) and the plan.
type Plans = HashMap<String, Vec<(Vec<pg_sys::Oid>, String, u64, Rc<OwnedPreparedStatement>)>>;

thread_local! {
    static PLANS: RefCell<Plans> = RefCell::new(HashMap::new());
    /// The columns digest of the trigger table whose transition tables were registered last.
    static TRANSITION_COLUMNS: Cell<u64> = const { Cell::new(0) };
}

/// Until dropped, statements are planned over transition tables of a table whose columns have the
/// digest `columns`: a saved plan is used again only for transition tables of the same columns
/// (two games tables' reads have the same statement text, and PostgreSQL does not plan again for
/// another table's transition table: the first one's column positions would be read). A trigger
/// nested in another's restores the outer trigger's digest as it ends.
pub fn planning_over_columns(columns: u64) -> TransitionColumns {
    TransitionColumns(TRANSITION_COLUMNS.with(|c| c.replace(columns)))
}

/// The digest of the transition tables registered before (see [`planning_over_columns`]).
pub struct TransitionColumns(u64);

impl Drop for TransitionColumns {
    fn drop(&mut self) {
        TRANSITION_COLUMNS.with(|c| c.set(self.0));
    }
}

fn same_types(types: &[pg_sys::Oid], args: &[DatumWithOid]) -> bool {
    types.len() == args.len() && types.iter().zip(args).all(|(t, a)| *t == a.oid())
}

/// The saved plan of `sql` (pg_rating's names written `@extschema@.name`) with the types of
/// `args` (planned now if it is new).
pub fn saved_plan(
    client: &SpiClient<'_>,
    sql: &str,
    args: &[DatumWithOid],
) -> Rc<OwnedPreparedStatement> {
    let schema = crate::security::engine().schema;
    let columns = TRANSITION_COLUMNS.with(Cell::get);
    // the borrow ends before the statement runs: its triggers may run statements of their own
    let found = PLANS.with_borrow(|plans| {
        plans
            .get(sql)
            .and_then(|kept| {
                kept.iter().find(|(types, s, c, _)| {
                    *s == schema && *c == columns && same_types(types, args)
                })
            })
            .map(|(_, _, _, plan)| Rc::clone(plan))
    });
    found.unwrap_or_else(|| {
        let types: Vec<pg_sys::Oid> = args.iter().map(DatumWithOid::oid).collect();
        let pg_types: Vec<PgOid> = types.iter().map(|&o| PgOid::from(o)).collect();
        let plan = Rc::new(
            client
                .prepare_mut(&*crate::security::qualify(sql), &pg_types)
                .unwrap_or_else(|e| crate::error::internal(e))
                .keep(),
        );
        PLANS.with_borrow_mut(|plans| {
            plans.entry(sql.to_owned()).or_default().push((
                types,
                schema,
                columns,
                Rc::clone(&plan),
            ))
        });
        plan
    })
}

/// Runs `sql`, a statement that only reads, with its saved plan. A read takes no transaction id
/// (so read functions work on a hot standby); an SPI error is internal.
pub fn read<'conn>(
    client: &SpiClient<'conn>,
    sql: &str,
    args: &[DatumWithOid],
) -> SpiTupleTable<'conn> {
    let plan = saved_plan(client, sql, args);
    client
        .select(&*plan, None, args)
        .unwrap_or_else(|e| crate::error::internal(e))
}

/// Runs `sql`, a statement that writes or locks, with its saved plan; an SPI error is internal.
pub fn write<'conn>(
    client: &mut SpiClient<'conn>,
    sql: &str,
    args: &[DatumWithOid],
) -> SpiTupleTable<'conn> {
    let plan = saved_plan(client, sql, args);
    client
        .update(&*plan, None, args)
        .unwrap_or_else(|e| crate::error::internal(e))
}

/// A statement whose parameters are named (`$name`: a letter or `_`, then letters, digits or
/// `_`; the text has no `$` in literals), bound by name: the text with `$1`, `$2`, ... in the
/// order of `args`, and the arguments in that order. An internal error when the text names a
/// parameter that `args` lacks, or leaves one of `args` unused: a statement and its arguments
/// cannot drift apart as positional ones can.
pub fn named<'a>(
    sql: &str,
    args: Vec<(&str, DatumWithOid<'a>)>,
) -> (String, Vec<DatumWithOid<'a>>) {
    let mut text = String::with_capacity(sql.len());
    let mut used = vec![false; args.len()];
    let mut rest = sql;
    while let Some(at) = rest.find('$') {
        text.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let len = after
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(after.len());
        let name = &after[..len];
        if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
            crate::error::internal(format!("a positional or empty parameter in {sql}"));
        }
        let Some(i) = args.iter().position(|(n, _)| *n == name) else {
            crate::error::internal(format!("no argument for parameter ${name}"))
        };
        used[i] = true;
        text.push_str(&format!("${}", i + 1));
        rest = &after[len..];
    }
    text.push_str(rest);
    if let Some(i) = used.iter().position(|u| !u) {
        crate::error::internal(format!(
            "argument {} is not a parameter of the statement",
            args[i].0
        ));
    }
    (text, args.into_iter().map(|(_, arg)| arg).collect())
}

/// The one value of a statement that gives one row of one column; an internal error (never a
/// default) naming `what` when it gives no row or NULL.
pub fn one<T: IntoDatum + FromDatum>(rows: SpiTupleTable<'_>, what: &str) -> T {
    rows.first()
        .get_one::<T>()
        .unwrap_or_else(|e| crate::error::internal(format!("{what}: {e}")))
        .unwrap_or_else(|| crate::error::internal(format!("{what}: NULL")))
}

/// A column of a row, by name; an internal error (never a default) when it is missing or NULL.
pub fn column<T: IntoDatum + FromDatum>(row: &SpiHeapTupleData<'_>, name: &str) -> T {
    nullable(row, name).unwrap_or_else(|| crate::error::internal(format!("column {name} is NULL")))
}

/// A column that may be NULL, by name; an internal error when it is missing or of another type.
pub fn nullable<T: IntoDatum + FromDatum>(row: &SpiHeapTupleData<'_>, name: &str) -> Option<T> {
    row.get_by_name::<T, _>(name)
        .unwrap_or_else(|e| crate::error::internal(format!("column {name}: {e}")))
}

/// The positions of named columns in a result, looked up once for all its rows; an internal error
/// when one is missing. For reads of thousands of rows, where a lookup by name for every value
/// would cost more than the value.
pub fn ordinals<const N: usize>(rows: &SpiTupleTable<'_>, names: [&str; N]) -> [usize; N] {
    names.map(|name| {
        rows.column_ordinal(name)
            .unwrap_or_else(|e| crate::error::internal(format!("column {name}: {e}")))
    })
}

/// A column by its position (from [`ordinals`]) and name; an internal error (never a default)
/// when it is NULL or of another type.
pub fn column_at<T: IntoDatum + FromDatum>(
    row: &SpiHeapTupleData<'_>,
    ordinal: usize,
    name: &str,
) -> T {
    nullable_at(row, ordinal)
        .unwrap_or_else(|| crate::error::internal(format!("column {name} is NULL")))
}

/// A column that may be NULL, by its position (from [`ordinals`]); an internal error when it is
/// of another type.
pub fn nullable_at<T: IntoDatum + FromDatum>(
    row: &SpiHeapTupleData<'_>,
    ordinal: usize,
) -> Option<T> {
    row.get::<T>(ordinal)
        .unwrap_or_else(|e| crate::error::internal(format!("column {ordinal}: {e}")))
}

/// What a column read in place ([`InPlace`]) holds, checked against its type when the read opens.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum InPlaceKind {
    /// `text`, `varchar` or `bpchar` (the same representation)
    Text,
    Time,
    Bool,
    Int,
}

impl InPlaceKind {
    fn holds(self, type_oid: pg_sys::Oid) -> bool {
        match self {
            InPlaceKind::Text => {
                [pg_sys::TEXTOID, pg_sys::VARCHAROID, pg_sys::BPCHAROID].contains(&type_oid)
            }
            InPlaceKind::Time => type_oid == pg_sys::TIMESTAMPTZOID,
            InPlaceKind::Bool => type_oid == pg_sys::BOOLOID,
            InPlaceKind::Int => type_oid == pg_sys::INT4OID,
        }
    }
}

/// The rows of a statement's result read in place: each row taken apart once
/// (`heap_deform_tuple`) and its values read from there. pgrx's row (`SpiHeapTupleData`) fetches
/// and converts every value through guarded calls of its own: half of the reading of a rebuild's
/// million games.
pub struct InPlace<'t> {
    table: *mut pg_sys::SPITupleTable,
    rows: usize,
    values: Vec<pg_sys::Datum>,
    nulls: Vec<bool>,
    /// The kind each attribute was opened as (none: not opened).
    kinds: Vec<Option<InPlaceKind>>,
    /// (the result, which holds the rows, lives as long as this)
    _result: std::marker::PhantomData<&'t SpiTupleTable<'t>>,
}

impl<'t> InPlace<'t> {
    /// Opens `rows` for reading its `columns` (ordinals from [`ordinals`], each with the kind it
    /// must hold: an internal error when it does not).
    ///
    /// # Safety
    /// `rows` is the result of the statement the backend ran last through SPI (its
    /// `SPI_tuptable`): no statement has run since.
    pub unsafe fn open(
        rows: &'t SpiTupleTable<'t>,
        columns: &[(usize, InPlaceKind, &str)],
    ) -> Self {
        // SAFETY: as the function's contract says, SPI_tuptable is `rows`' table; its
        // descriptor has natts attributes. The counts are checked against pgrx's own.
        unsafe {
            let table = pg_sys::SPI_tuptable;
            if table.is_null() || (*table).numvals as usize != rows.len() {
                crate::error::internal("a result read in place is not the last one");
            }
            let tupdesc = (*table).tupdesc;
            let natts = usize::try_from((*tupdesc).natts).unwrap_or(0);
            if rows.columns().ok() != Some(natts) {
                crate::error::internal("a result read in place is not the last one");
            }
            let attrs = (*tupdesc).attrs.as_slice(natts);
            let mut kinds = vec![None; natts];
            for &(ordinal, kind, name) in columns {
                let type_oid = ordinal
                    .checked_sub(1)
                    .and_then(|i| attrs.get(i))
                    .map(|a| a.atttypid);
                if !type_oid.is_some_and(|t| kind.holds(t)) {
                    crate::error::internal(format!(
                        "column {name} of a result is of type {type_oid:?}, read as {kind:?}"
                    ));
                }
                kinds[ordinal - 1] = Some(kind);
            }
            InPlace {
                table,
                rows: rows.len(),
                values: vec![pg_sys::Datum::from(0usize); natts],
                nulls: vec![true; natts],
                kinds,
                _result: std::marker::PhantomData,
            }
        }
    }

    /// Lends each row in turn to `each`.
    pub fn for_each(&mut self, mut each: impl FnMut(&InPlaceRow<'_>)) {
        for i in 0..self.rows {
            pg_rating_core::interrupt::check();
            // SAFETY: the result's i-th tuple (i < its count), taken apart by its own descriptor
            // into arrays of natts entries.
            unsafe {
                let tuple = *(*self.table).vals.add(i);
                pg_sys::heap_deform_tuple(
                    tuple,
                    (*self.table).tupdesc,
                    self.values.as_mut_ptr(),
                    self.nulls.as_mut_ptr(),
                );
            }
            each(&InPlaceRow {
                values: &self.values,
                nulls: &self.nulls,
                kinds: &self.kinds,
            });
        }
    }
}

/// A row of an [`InPlace`] read. Its accessors take the ordinals the read was opened with, and
/// read each as the kind it was checked to hold.
pub struct InPlaceRow<'r> {
    values: &'r [pg_sys::Datum],
    nulls: &'r [bool],
    kinds: &'r [Option<InPlaceKind>],
}

impl InPlaceRow<'_> {
    /// The datum of a column opened as `kind` (an internal error for any other: its datum
    /// would be read as what it is not).
    fn datum(&self, ordinal: usize, kind: InPlaceKind) -> Option<pg_sys::Datum> {
        let i = ordinal.wrapping_sub(1);
        if self.kinds.get(i) != Some(&Some(kind)) {
            crate::error::internal(format!("column {ordinal} was not opened as {kind:?}"));
        }
        (!self.nulls[i]).then(|| self.values[i])
    }

    /// A column opened as [`InPlaceKind::Text`], copied (22021 when it is not UTF-8). One stored
    /// out of line or compressed is detoasted into the current memory context, where the copy
    /// stays until the caller's SPI connection ends.
    pub fn text(&self, ordinal: usize) -> Option<String> {
        let datum = self.datum(ordinal, InPlaceKind::Text)?;
        // SAFETY: a varlena of the row (checked at open), which lives with the result.
        let bytes = unsafe { crate::types::text_bytes(datum) };
        match std::str::from_utf8(bytes) {
            Ok(text) => Some(text.to_owned()),
            Err(_) => crate::error::raise(
                pgrx::PgSqlErrorCode::ERRCODE_CHARACTER_NOT_IN_REPERTOIRE,
                "a text read is not valid UTF-8",
            ),
        }
    }

    /// A column opened as [`InPlaceKind::Time`]: microseconds since 2000-01-01.
    pub fn time(&self, ordinal: usize) -> Option<i64> {
        self.datum(ordinal, InPlaceKind::Time)
            .map(|d| d.value() as i64)
    }

    /// A column opened as [`InPlaceKind::Bool`].
    pub fn bool(&self, ordinal: usize) -> Option<bool> {
        self.datum(ordinal, InPlaceKind::Bool)
            .map(|d| d.value() != 0)
    }

    /// A column opened as [`InPlaceKind::Int`].
    pub fn int(&self, ordinal: usize) -> Option<i32> {
        self.datum(ordinal, InPlaceKind::Int)
            .map(|d| d.value() as i32)
    }
}

#[cfg(any(test, feature = "pg_test"))]
#[pg_schema]
mod tests {
    use pgrx::prelude::*;

    #[pg_test]
    fn parameters_are_bound_by_name() {
        let (sql, args) = super::named(
            "SELECT $b::int - $a::int AS d, $b::int AS again",
            vec![("a", 1.into()), ("b", 10.into())],
        );
        assert_eq!(sql, "SELECT $2::int - $1::int AS d, $2::int AS again");
        let d = Spi::connect(|client| {
            super::read(client, &sql, &args)
                .first()
                .get_one::<i32>()
                .unwrap()
        });
        assert_eq!(d, Some(9));
    }

    /// Rows read in place: texts inline, short, compressed and stored out of line, NULLs, and
    /// each kind's values as SQL gives them.
    #[pg_test]
    fn rows_read_in_place_are_the_values_sql_reads() {
        use super::{InPlace, InPlaceKind};
        Spi::run(
            "CREATE TEMP TABLE in_place (t text, v varchar, c char(3), b bool, i int, at timestamptz);
             ALTER TABLE in_place ALTER COLUMN t SET STORAGE EXTERNAL;
             INSERT INTO in_place VALUES
                 ('short', 'vé', 'ab', true, -7, '2000-01-01 00:00:01+00'),
                 (repeat('x', 5000), NULL, NULL, false, NULL, NULL),
                 (NULL, repeat('yz', 3000), 'c', NULL, 2147483647, 'infinity')",
        )
        .unwrap();
        let rows = Spi::connect(|client| {
            let rows = client
                .select(
                    "SELECT t, v, c, b, i, at FROM in_place ORDER BY i NULLS FIRST",
                    None,
                    &[],
                )
                .unwrap();
            let kinds = [
                (1, InPlaceKind::Text, "t"),
                (2, InPlaceKind::Text, "v"),
                (3, InPlaceKind::Text, "c"),
                (4, InPlaceKind::Bool, "b"),
                (5, InPlaceKind::Int, "i"),
                (6, InPlaceKind::Time, "at"),
            ];
            let mut out = Vec::new();
            // SAFETY: `rows` is the result of the statement just run.
            let mut read = unsafe { InPlace::open(&rows, &kinds) };
            read.for_each(|row| {
                out.push((
                    row.text(1),
                    row.text(2),
                    row.text(3),
                    row.bool(4),
                    row.int(5),
                    row.time(6),
                ))
            });
            out
        });
        assert_eq!(rows.len(), 3);
        assert_eq!(
            rows[0],
            (Some("x".repeat(5000)), None, None, Some(false), None, None)
        );
        assert_eq!(
            rows[1],
            (
                Some("short".into()),
                Some("vé".into()),
                Some("ab ".into()),
                Some(true),
                Some(-7),
                Some(1_000_000)
            )
        );
        assert_eq!(
            rows[2],
            (
                None,
                Some("yz".repeat(3000)),
                Some("c  ".into()),
                None,
                Some(i32::MAX),
                Some(i64::MAX)
            )
        );
    }

    #[pg_test]
    #[should_panic(expected = "column 1 was not opened as Text")]
    fn a_column_read_as_another_kind_than_opened_is_an_error() {
        Spi::connect(|client| {
            let rows = client.select("SELECT true AS b", None, &[]).unwrap();
            // SAFETY: `rows` is the result of the statement just run.
            let mut read =
                unsafe { super::InPlace::open(&rows, &[(1, super::InPlaceKind::Bool, "b")]) };
            read.for_each(|row| {
                row.text(1);
            });
        });
    }

    #[pg_test]
    #[should_panic(expected = "column n of a result is of type")]
    fn a_column_read_in_place_as_another_kind_is_an_error() {
        Spi::connect(|client| {
            let rows = client.select("SELECT 1::bigint AS n", None, &[]).unwrap();
            // SAFETY: `rows` is the result of the statement just run.
            unsafe { super::InPlace::open(&rows, &[(1, super::InPlaceKind::Int, "n")]) };
        });
    }

    #[pg_test]
    #[should_panic(expected = "no argument for parameter $c")]
    fn a_parameter_without_argument_fails() {
        super::named("SELECT $a, $c", vec![("a", 1.into())]);
    }

    #[pg_test]
    #[should_panic(expected = "argument b is not a parameter of the statement")]
    fn an_argument_without_parameter_fails() {
        super::named("SELECT $a", vec![("a", 1.into()), ("b", 2.into())]);
    }

    #[pg_test]
    #[should_panic(expected = "a positional or empty parameter")]
    fn positional_parameters_are_refused() {
        super::named("SELECT $1", vec![("a", 1.into())]);
    }

    /// The core quotes identifiers as the database does (the statements it builds read as before,
    /// in an error's context too): every keyword of the server, and names that are not plain.
    #[pg_test]
    fn the_core_quotes_identifiers_as_the_database() {
        let words: Vec<String> = Spi::connect(|client| {
            let rows = client
                .select(
                    "SELECT word::text AS word FROM pg_catalog.pg_get_keywords()",
                    None,
                    &[],
                )
                .unwrap();
            rows.map(|row| super::column::<String>(&row, "word"))
                .collect()
        });
        assert!(words.len() > 400);
        let others = [
            "id",
            "Black",
            "2x",
            "_x",
            "",
            "a b",
            "my \"name\"",
            "é",
            "x1",
        ];
        for w in words.iter().map(String::as_str).chain(others) {
            assert_eq!(
                pg_rating_core::quote::quote_ident(w),
                pgrx::spi::quote_identifier(w),
                "{w}"
            );
        }
    }
}
