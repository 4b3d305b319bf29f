//! Saved plans: a trigger runs the same few statements for every game, so each is parsed and
//! planned once per backend. Plans are kept by statement text and argument types (looked up
//! without allocating); PostgreSQL's plan cache parses a statement again when a relation it
//! names was dropped or changed (the extension created anew, an attached table altered).

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use pgrx::datum::DatumWithOid;
use pgrx::prelude::*;
use pgrx::spi::{OwnedPreparedStatement, SpiClient, SpiHeapTupleData, SpiTupleTable};
use pgrx::PgOid;

/// Plans by statement text: for each, the argument types, the engine's schema its names were
/// qualified with (see [`crate::security::qualify`]) and the plan.
type Plans = HashMap<String, Vec<(Vec<pg_sys::Oid>, String, Rc<OwnedPreparedStatement>)>>;

thread_local! {
    static PLANS: RefCell<Plans> = RefCell::new(HashMap::new());
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
    // the borrow ends before the statement runs: its triggers may run statements of their own
    let found = PLANS.with_borrow(|plans| {
        plans
            .get(sql)
            .and_then(|kept| {
                kept.iter()
                    .find(|(types, s, _)| *s == schema && same_types(types, args))
            })
            .map(|(_, _, plan)| Rc::clone(plan))
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
            plans
                .entry(sql.to_owned())
                .or_default()
                .push((types, schema, Rc::clone(&plan)))
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
