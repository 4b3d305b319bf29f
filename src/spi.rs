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
