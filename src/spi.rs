//! Saved plans: a trigger runs the same few statements for every game, so each is parsed and
//! planned once per backend. Plans are kept by statement text and argument types; PostgreSQL's
//! plan cache parses a statement again when a relation it names was dropped or changed (the
//! extension created anew, an attached table altered).

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use pgrx::datum::DatumWithOid;
use pgrx::prelude::*;
use pgrx::spi::{OwnedPreparedStatement, SpiClient};
use pgrx::PgOid;

type Key = (String, Vec<pg_sys::Oid>);

thread_local! {
    static PLANS: RefCell<HashMap<Key, Rc<OwnedPreparedStatement>>> = RefCell::new(HashMap::new());
}

/// The saved plan of `sql` with the types of `args` (planned now if it is new).
pub fn saved_plan(
    client: &SpiClient<'_>,
    sql: &str,
    args: &[DatumWithOid],
) -> Rc<OwnedPreparedStatement> {
    let key: Key = (sql.to_owned(), args.iter().map(DatumWithOid::oid).collect());
    // the borrow ends before the statement runs: its triggers may run statements of their own
    let found = PLANS.with_borrow(|plans| plans.get(&key).cloned());
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
        PLANS.with_borrow_mut(|plans| plans.insert(key, Rc::clone(&plan)));
        plan
    })
}
