//! Saved plans: a trigger runs the same few statements for every game, so each is parsed and
//! planned once per backend. Plans are kept by statement text and argument types, and dropped
//! when the extension is created anew (its tables are new relations then).

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use pgrx::datum::DatumWithOid;
use pgrx::prelude::*;
use pgrx::spi::{OwnedPreparedStatement, SpiClient};
use pgrx::PgOid;

type Key = (String, Vec<pg_sys::Oid>);

thread_local! {
    static PLANS: RefCell<(pg_sys::Oid, HashMap<Key, Rc<OwnedPreparedStatement>>)> =
        RefCell::new((pg_sys::InvalidOid, HashMap::new()));
}

/// The saved plan of `sql` with the types of `args` (planned now if it is new).
pub fn saved_plan(
    client: &SpiClient<'_>,
    sql: &str,
    args: &[DatumWithOid],
) -> Rc<OwnedPreparedStatement> {
    // SAFETY: a catalog lookup by name.
    let extension = unsafe { pg_sys::get_extension_oid(c"pg_rating".as_ptr(), true) };
    let key: Key = (sql.to_owned(), args.iter().map(DatumWithOid::oid).collect());
    // the borrow ends before the statement runs: its triggers may run statements of their own
    let found = PLANS.with_borrow_mut(|(planned_for, plans)| {
        if *planned_for != extension {
            plans.clear();
            *planned_for = extension;
        }
        plans.get(&key).cloned()
    });
    found.unwrap_or_else(|| {
        let types: Vec<PgOid> = key.1.iter().map(|&o| PgOid::from(o)).collect();
        let plan = Rc::new(
            client
                .prepare_mut(sql, &types)
                .unwrap_or_else(|e| {
                    crate::error::raise(pgrx::PgSqlErrorCode::ERRCODE_INTERNAL_ERROR, e.to_string())
                })
                .keep(),
        );
        PLANS.with_borrow_mut(|(_, plans)| plans.insert(key, Rc::clone(&plan)));
        plan
    })
}
