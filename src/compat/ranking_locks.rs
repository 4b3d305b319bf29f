//! The rankings' writer locks of Random Chess schemas before 0.10.0. Schema 0.10.0 on locks a
//! ranking as every ledger is locked (the `ledger_scopes` row of its ledger); these can go once
//! 0.10.0 is the oldest `pg_rating_random_chess` schema this library serves.

use std::cell::Cell;

use pgrx::prelude::*;
use pgrx::spi::SpiClient;

use crate::writer_lock::{local_transaction, LockTable};

/// Where the writers of a ranking take its lock: the schema's version decides, since a database
/// keeps its schema until `ALTER EXTENSION ... UPDATE` while the library is already new.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum LockRows {
    /// Schemas 0.1.0-0.8.0 (through 0.3.0 the rankings are tables of `pg_rating`): every writer
    /// takes the one `ranking_writes` row ([`lock_single_row`]). Can go after 0.8.0.
    Single,
    /// Schema 0.9.0: one `ranking_locks` row per ranking ([`RANKING_LOCKS`]). Can go after 0.9.0.
    PerRanking,
    /// 0.10.0 on: the `ledger_scopes` row of the ranking's ledger, as every ledger's writer.
    Ledger,
}

/// The writers' locks of the rankings in a schema of 0.9.0: one row per ranking.
pub static RANKING_LOCKS: LockTable = LockTable::new("ranking_locks", &["ranking_id"]);

thread_local! {
    /// The local transaction id of the transaction that last updated the row of `ranking_writes`
    /// (the lock of a schema of 0.8.0 or before).
    static SINGLE_LOCK_IN: Cell<pg_sys::LocalTransactionId> = const { Cell::new(0) };
}

/// The lock protocol of the Random Chess schema of `extension` (InvalidOid: not installed, the
/// rankings of 0.3.0 and before), whose tables are in `schema`.
pub fn lock_rows(extension: pg_sys::Oid, schema: pg_sys::Oid) -> LockRows {
    // (tables of the extension only: a `ranking_locks` that another role made in the schema
    // would have the writers lock, and fire its triggers, as the extension's owner)
    let relid = |name: &std::ffi::CStr| crate::security::own_relation_in(name, schema);
    // SAFETY: a catalog lookup of a column; get_attnum of InvalidOid finds no column.
    unsafe {
        if extension == pg_sys::InvalidOid {
            LockRows::Single
        } else if relid(c"ranking_locks") != pg_sys::InvalidOid {
            LockRows::PerRanking
        } else if pg_sys::get_attnum(relid(c"ranking_writes"), c"writes".as_ptr()) != 0 {
            LockRows::Single
        } else {
            LockRows::Ledger
        }
    }
}

/// The lock of [`LockRows::Single`]: the one `ranking_writes` row, updated the first time in a
/// transaction and locked again after that. Returns the version of the rankings.
pub fn lock_single_row(client: &mut SpiClient<'_>) -> i64 {
    let transaction = local_transaction();
    let sql = if SINGLE_LOCK_IN.replace(transaction) != transaction {
        "UPDATE @extschema@.ranking_writes SET writes = writes + 1 RETURNING rankings_version"
    } else {
        "SELECT rankings_version FROM @extschema@.ranking_writes FOR UPDATE"
    };
    crate::spi::one(
        crate::spi::write(client, sql, &[]),
        "the row of ranking_writes",
    )
}
