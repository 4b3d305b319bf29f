//! How pg_rating's trigger functions are entered, and who may write its derived tables.
//!
//! Every trigger function of pg_rating is declared with [`trigger_function!`]: its C entry point
//! refuses a direct call (39P01), refuses to fire on any table but the extension's own tables it
//! was written for (39P01: a role cannot attach it to a table of its own and make it write
//! ratings), and marks the derived tables as being written by pg_rating while its body runs.
//!
//! The derived tables (rating history, standings, bookkeeping) carry the statement trigger
//! [`refuse_foreign_write`]: any INSERT, UPDATE, DELETE or TRUNCATE that does not come from
//! pg_rating's own code fails with 42501, whatever the grants. The mark lives in this backend's
//! memory, which no SQL can set.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;

use pgrx::prelude::*;
use pgrx::spi::SpiClient;
use pgrx::{PgRelation, PgSqlErrorCode, WhoAllocated};

use crate::error::raise;
use crate::restore::restoring;

thread_local! {
    /// How many of pg_rating's writers are running (they nest: a trigger's statement fires
    /// the triggers of other tables).
    static WRITERS: Cell<u32> = const { Cell::new(0) };
    /// How many applications' SQL runs pg_rating's writers are inside ([`ForeignCode`]).
    static FOREIGN: Cell<u32> = const { Cell::new(0) };
    /// Relations found to be pg_rating's own: oid -> (namespace, name) as seen then.
    static OWN_TABLES: RefCell<HashMap<pg_sys::Oid, (pg_sys::Oid, String)>> = RefCell::new(HashMap::new());
}

/// Marks the derived tables as written by pg_rating until dropped (also when an error unwinds).
pub struct DerivedWrite(());

impl DerivedWrite {
    pub fn begin() -> Self {
        WRITERS.with(|w| w.set(w.get() + 1));
        DerivedWrite(())
    }
}

impl Drop for DerivedWrite {
    fn drop(&mut self) {
        WRITERS.with(|w| w.set(w.get().saturating_sub(1)));
    }
}

/// Lifts the mark of pg_rating's writers until dropped: while an application's own SQL runs (an
/// attached table's filter, read as its owner), derived tables are closed to it as to anyone.
pub struct ForeignCode(u32);

impl ForeignCode {
    pub fn begin() -> Self {
        FOREIGN.with(|f| f.set(f.get() + 1));
        ForeignCode(WRITERS.with(|w| w.replace(0)))
    }
}

impl Drop for ForeignCode {
    fn drop(&mut self) {
        WRITERS.with(|w| w.set(self.0));
        FOREIGN.with(|f| f.set(f.get().saturating_sub(1)));
    }
}

/// True while an application's SQL that a writer of pg_rating runs (a filter, a path) runs
/// itself, not a writer of pg_rating nested in it: the writer outside has read the ledgers'
/// settings it rates by.
pub fn amid_a_write() -> bool {
    FOREIGN.with(Cell::get) > 0 && !writing()
}

/// [`amid_a_write`] seen from the body of a trigger function whose entry marked pg_rating's
/// writers ([`trigger_function!`]): its own mark is not a writer outside it.
pub fn amid_a_write_in_trigger() -> bool {
    FOREIGN.with(Cell::get) > 0 && WRITERS.with(Cell::get) <= 1
}

/// Registers [`settle_writers_mark`] for every transaction of this backend (`_PG_init`).
pub fn settle_writers_mark_at_transaction_ends() {
    // SAFETY: registers a callback with no argument; the function lives as long as the library,
    // which PostgreSQL never unloads.
    unsafe { pg_sys::RegisterXactCallback(Some(at_transaction_end), std::ptr::null_mut()) }
}

#[pg_guard]
unsafe extern "C-unwind" fn at_transaction_end(
    event: pg_sys::XactEvent::Type,
    _arg: *mut std::ffi::c_void,
) {
    settle_writers_mark(event);
}

/// A safety net under [`DerivedWrite`]'s guard: no transaction ends with the mark of
/// pg_rating's writers set. A writer's guard clears it as its frame unwinds, so the mark can
/// only be left set by a defect; were it left, the backend's next statements could write the
/// derived tables past [`refuse_foreign_write`]. A transaction about to commit (or prepare)
/// with the mark set fails instead (XX000), and any transaction's end clears it. (No writer can
/// be running then: pg_rating's functions and triggers run in atomic contexts, where no COMMIT is
/// allowed.)
fn settle_writers_mark(event: pg_sys::XactEvent::Type) {
    use pg_sys::XactEvent::*;
    let left = WRITERS.with(|w| w.replace(0));
    FOREIGN.with(|f| f.set(0));
    let committing = matches!(
        event,
        XACT_EVENT_PRE_COMMIT | XACT_EVENT_PARALLEL_PRE_COMMIT | XACT_EVENT_PRE_PREPARE
    );
    if committing && left > 0 {
        crate::error::internal(
            "pg_rating's writers left their mark on the derived tables set: the transaction is rolled back",
        );
    }
}

/// Reads a column of a row by name.
pub fn field<'a, T>(row: &'a PgHeapTuple<'_, impl WhoAllocated>, name: &str) -> Option<T>
where
    T: FromDatum + IntoDatum + pgrx::datum::UnboxDatum<As<'a> = T> + 'a,
{
    row.get_by_name::<T>(name)
        .unwrap_or_else(|e| crate::error::internal(format!("reading column {name}: {e}")))
}

/// A NOT NULL column of a stored row (an old row, or an AFTER trigger's new row): an internal
/// error, never a default, when it is NULL.
pub fn stored<'a, T>(row: &'a PgHeapTuple<'_, impl WhoAllocated>, name: &str) -> T
where
    T: FromDatum + IntoDatum + pgrx::datum::UnboxDatum<As<'a> = T> + 'a,
{
    field(row, name)
        .unwrap_or_else(|| crate::error::internal(format!("column {name} of a stored row is NULL")))
}

/// The row of a row trigger (`old()` or `new()`): an internal error when the trigger has none.
pub fn row_of<'a>(
    row: Option<PgHeapTuple<'a, AllocatedByPostgres>>,
) -> PgHeapTuple<'a, AllocatedByPostgres> {
    row.unwrap_or_else(|| crate::error::internal("a row trigger without its row"))
}

/// True while pg_rating's own code writes.
pub fn writing() -> bool {
    WRITERS.with(Cell::get) > 0
}

/// 39P01: a trigger function entered other than as its trigger.
pub fn protocol_violation(message: String) -> ! {
    raise(
        PgSqlErrorCode::ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED,
        message,
    )
}

/// The extensions whose tables pg_rating's trigger functions serve: the engine and the Random
/// Chess schema, its client in this repository.
const OWN_EXTENSIONS: [&std::ffi::CStr; 2] = [c"pg_rating", c"pg_rating_random_chess"];

/// Whether the relation `oid` belongs to one of [`OWN_EXTENSIONS`] (a member of it, as
/// `pg_depend` records).
pub fn member_of_own_extension(oid: pg_sys::Oid) -> bool {
    // SAFETY: catalog lookups by oid and by name.
    unsafe {
        let owner = pg_sys::getExtensionOfObject(pg_sys::RelationRelationId, oid);
        owner != pg_sys::InvalidOid
            && OWN_EXTENSIONS
                .iter()
                .any(|name| pg_sys::get_extension_oid(name.as_ptr(), true) == owner)
    }
}

/// The name of `relation` if it is a table of one of [`OWN_EXTENSIONS`], else `None`.
fn own_table_name(relation: &PgRelation) -> Option<String> {
    let oid = relation.oid();
    let namespace = relation.namespace_oid();
    let name = relation.name().to_owned();
    let known = OWN_TABLES.with_borrow(|t| {
        t.get(&oid)
            .is_some_and(|seen| *seen == (namespace, name.clone()))
    });
    if known {
        return Some(name);
    }
    if !member_of_own_extension(oid) {
        return None;
    }
    OWN_TABLES.with_borrow_mut(|t| t.insert(oid, (namespace, name.clone())));
    Some(name)
}

/// Checks that a trigger function was entered by the trigger manager (39P01 for a direct call)
/// and returns its trigger. Every trigger entry of the glue starts here: [`entered`] for the
/// triggers on pg_rating's own tables, and the ledgers' triggers on applications' tables.
///
/// # Safety
/// `fcinfo` is the call information PostgreSQL passed to a V1 function.
pub unsafe fn trigger_call<'a>(fcinfo: pg_sys::FunctionCallInfo, function: &str) -> PgTrigger<'a> {
    // SAFETY: fcinfo comes from PostgreSQL's function manager (this function's contract);
    // called_as_trigger reads only its context's node tag.
    if !unsafe { pgrx::trigger_support::called_as_trigger(fcinfo) } {
        protocol_violation(format!(
            "{function}() is a trigger function of pg_rating and cannot be called directly"
        ));
    }
    // SAFETY: called by the trigger manager (checked above), so fcinfo->context is its
    // TriggerData, valid for the whole call.
    unsafe { PgTrigger::from_fcinfo(&*fcinfo) }
        .unwrap_or_else(|e| protocol_violation(format!("{function}(): {e}")))
}

/// Whether a statement trigger's call has an old and a new transition table.
pub fn transition_tables(trigger: &PgTrigger<'_>) -> (bool, bool) {
    let data = trigger.trigger_data();
    (!data.tg_oldtable.is_null(), !data.tg_newtable.is_null())
}

/// Makes the transition tables of `trigger` readable, by the names its CREATE TRIGGER gave
/// them, to the statements of `client`'s SPI connection; statements are planned for their columns
/// until the value returned is dropped.
#[must_use]
pub fn register_transition_tables(
    trigger: &PgTrigger<'_>,
    _client: &SpiClient<'_>,
) -> crate::spi::TransitionColumns {
    let data: *const pg_sys::TriggerData = trigger.trigger_data();
    // SAFETY: `data` is the TriggerData of the call running now (a PgTrigger is made only from
    // its fcinfo), which PostgreSQL only reads; the SPI connection is open while `_client` lives.
    let status = unsafe { pg_sys::SPI_register_trigger_data(data.cast_mut()) };
    if status < 0 {
        crate::error::internal(format!("SPI_register_trigger_data: {status}"));
    }
    // SAFETY: as above; the trigger's relation is open for the whole call.
    crate::spi::planning_over_columns(unsafe { columns_digest((*data).tg_relation) })
}

/// A digest of the columns of `rel` (names, types, positions, the dropped ones), which a plan over
/// its transition tables depends on: PostgreSQL plans again for a changed table, but not for
/// transition tables of another table (or of this one altered) read by the same statement text.
///
/// # Safety
/// `rel` is open.
unsafe fn columns_digest(rel: pg_sys::Relation) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut digest = std::collections::hash_map::DefaultHasher::new();
    // SAFETY: the function's contract.
    for a in unsafe { crate::relation::attributes(rel) } {
        // SAFETY: attname is a NUL-terminated NameData.
        unsafe { std::ffi::CStr::from_ptr(a.attname.data.as_ptr()) }.hash(&mut digest);
        (
            a.atttypid.to_u32(),
            a.atttypmod,
            a.attcollation.to_u32(),
            a.attisdropped,
        )
            .hash(&mut digest);
    }
    digest.finish()
}

/// Checks how a trigger function was entered: by the trigger manager, on one of `tables` of
/// pg_rating. Returns the trigger and the table's name.
///
/// # Safety
/// `fcinfo` is the call information PostgreSQL passed to a V1 function.
pub unsafe fn entered<'a>(
    fcinfo: pg_sys::FunctionCallInfo,
    function: &str,
    tables: &[&str],
) -> (PgTrigger<'a>, String) {
    // SAFETY: this function's contract is trigger_call's.
    let trigger = unsafe { trigger_call(fcinfo, function) };
    let relation = trigger
        .relation()
        .unwrap_or_else(|e| protocol_violation(format!("{function}(): {e}")));
    match own_table_name(&relation) {
        Some(name) if tables.contains(&name.as_str()) => (trigger, name),
        _ => protocol_violation(format!(
            "{function}() fires only on pg_rating's own table{} {}, not on \"{}\"",
            if tables.len() > 1 { "s" } else { "" },
            tables.join(", "),
            relation.name()
        )),
    }
}

/// What a trigger body returns, as the trigger manager wants it.
pub trait TriggerReturn {
    fn into_datum(self) -> pg_sys::Datum;
}

impl<W: WhoAllocated> TriggerReturn for Result<Option<PgHeapTuple<'_, W>>, PgTriggerError> {
    fn into_datum(self) -> pg_sys::Datum {
        let row = self.unwrap_or_else(|e| protocol_violation(e.to_string()));
        // A trigger returns a tuple or a NULL pointer (never the null flag).
        row.and_then(PgHeapTuple::into_trigger_datum)
            .unwrap_or(pg_sys::Datum::from(0))
    }
}

/// Declares the C entry point `$symbol` of the trigger function `$body` (SQL:
/// `CREATE FUNCTION name() RETURNS trigger LANGUAGE c AS 'MODULE_PATHNAME', '$symbol'` in the
/// feature's SQL file), which fires only on the named tables of pg_rating.
macro_rules! trigger_function {
    ($body:ident, $symbol:ident, $finfo:ident, [$($table:literal),+ $(,)?]) => {
        $crate::trigger::trigger_function!(@entry true, $body, $symbol, $finfo, [$($table),+]);
    };
    // A check that writes nothing: its body runs without the mark of pg_rating's writers.
    (check_only $body:ident, $symbol:ident, $finfo:ident, [$($table:literal),+ $(,)?]) => {
        $crate::trigger::trigger_function!(@entry false, $body, $symbol, $finfo, [$($table),+]);
    };
    (@entry $marks:literal, $body:ident, $symbol:ident, $finfo:ident, [$($table:literal),+]) => {
        $crate::ffi::finfo_v1!($finfo);

        #[::pgrx::pg_guard]
        #[unsafe(no_mangle)]
        #[doc(hidden)]
        pub unsafe extern "C-unwind" fn $symbol(fcinfo: ::pgrx::pg_sys::FunctionCallInfo) -> ::pgrx::pg_sys::Datum {
            // SAFETY: PostgreSQL calls this V1 function with its fcinfo.
            let (trigger, _table) = unsafe { $crate::trigger::entered(fcinfo, stringify!($body), &[$($table),+]) };
            let _writing = $marks.then($crate::trigger::DerivedWrite::begin);
            $crate::trigger::TriggerReturn::into_datum($body(&trigger))
        }
    };
}
pub(crate) use trigger_function;

/// The derived tables whose rows a foreign key's ON DELETE CASCADE removes with their parent:
/// (table, its key column, the parent table, the parent's key column).
const CASCADED: [(&str, &str, &str, &str); 5] = [
    ("ledger_attachments", "ledger_id", "ledgers", "id"),
    ("elo_history", "ranking_id", "rankings", "id"),
    (
        "swiss_tournament_progress",
        "tournament_id",
        "swiss_tournaments",
        "tournament_id",
    ),
    (
        "swiss_tournament_entrants",
        "tournament_id",
        "swiss_tournaments",
        "tournament_id",
    ),
    (
        "swiss_tournament_standings",
        "tournament_id",
        "swiss_tournaments",
        "tournament_id",
    ),
];

/// Whether a referential action is under way (a foreign key's cascade, or a statement any role
/// runs from a trigger of its own tables during one).
fn in_referential_action() -> bool {
    // SAFETY: reads a flag of this backend's security context; only referential actions set it.
    unsafe { pg_sys::InNoForceRLSOperation() }
}

/// BEFORE INSERT, UPDATE, DELETE or TRUNCATE of a derived table, per statement: only pg_rating's
/// own code writes it. A restore (superuser, row_security off) loads its rows. A DELETE during a
/// referential action passes only on the tables of [`CASCADED`], whose row trigger
/// [`check_cascaded_delete`] lets a row go only once its parent is gone: a role that runs a
/// DELETE from a trigger of its own tables during a cascade of its own deletes nothing here.
fn refuse_foreign_write<'a>(
    trigger: &'a PgTrigger<'a>,
) -> Result<Option<PgHeapTuple<'a, AllocatedByPostgres>>, PgTriggerError> {
    let op = trigger.op()?;
    let table = trigger.table_name()?;
    let cascade = matches!(op, PgTriggerOperation::Delete)
        && in_referential_action()
        && CASCADED.iter().any(|(t, ..)| *t == table);
    if writing() || restoring() || cascade {
        return Ok(None);
    }
    raise(
        PgSqlErrorCode::ERRCODE_INSUFFICIENT_PRIVILEGE,
        format!(
            "permission denied: {op} on {table}: it holds derived rows, written only by pg_rating's triggers \
             (change the games, registrations or settings they derive from instead)"
        ),
    )
}

trigger_function!(
    check_only refuse_foreign_write,
    refuse_foreign_write_wrapper,
    pg_finfo_refuse_foreign_write_wrapper,
    [
        "elo_history",
        "ranking_players",
        "ranking_writes",
        "ranking_locks",
        "swiss_tournament_progress",
        "swiss_tournament_entrants",
        "swiss_tournament_standings",
        "ledger_attachments",
        "ledger_entries",
        "ledger_standings",
        "ledger_scopes",
        "ledgers_in_force",
        "ledger_seeds_in_force",
        "ledger_seasons_in_force"
    ]
);

/// BEFORE DELETE of a derived table of [`CASCADED`], per row: outside pg_rating's own writers
/// (and a restore), a row goes only when its parent row is gone (the cascade of its foreign key);
/// 42501 otherwise.
fn check_cascaded_delete<'a>(
    trigger: &'a PgTrigger<'a>,
) -> Result<Option<PgHeapTuple<'a, AllocatedByPostgres>>, PgTriggerError> {
    let old = trigger.old();
    if writing() || restoring() {
        return Ok(old);
    }
    let table = trigger.table_name()?;
    let Some(&(_, column, parent, key)) = CASCADED.iter().find(|(t, ..)| *t == table) else {
        crate::error::internal(format!("check_cascaded_delete() on {table}"));
    };
    let row = old
        .as_ref()
        .unwrap_or_else(|| crate::error::internal("no old row"));
    let id: i32 = crate::trigger::field(row, column)
        .unwrap_or_else(|| crate::error::internal(format!("{table}.{column} is NULL")));
    // (as the extension's owner: a row-level policy must not hide the parent from the check)
    let _owner = crate::security::RunAs::extension_owner();
    let parent_exists = Spi::connect(|client| {
        let sql = format!(
            "SELECT 1 FROM @extschema@.{parent} WHERE {key} OPERATOR(pg_catalog.=) $1 LIMIT 1"
        );
        !crate::spi::read(client, &sql, &[id.into()]).is_empty()
    });
    if parent_exists {
        raise(
            PgSqlErrorCode::ERRCODE_INSUFFICIENT_PRIVILEGE,
            format!(
                "permission denied: DELETE on {table}: it holds derived rows, deleted only with their {parent} row"
            ),
        );
    }
    Ok(old)
}

trigger_function!(
    check_only check_cascaded_delete,
    check_cascaded_delete_wrapper,
    pg_finfo_check_cascaded_delete_wrapper,
    [
        "ledger_attachments",
        "elo_history",
        "swiss_tournament_progress",
        "swiss_tournament_entrants",
        "swiss_tournament_standings"
    ]
);

/// Refuses a write of a function of pg_rating (`what`) called by a filter or a column path amid a
/// write (55000), and one during recovery or in a read-only transaction (25006), before it
/// reaches a statement that would need a transaction id.
pub fn writes_allowed(what: &str) {
    pg_rating_core::amid_a_write::may_write(what, amid_a_write())
        .unwrap_or_else(|e| crate::error::raise_core(&e));
    let command = std::ffi::CString::new(what).unwrap_or_default();
    // SAFETY: raises the usual 25006 error when the transaction is read-only.
    unsafe { pg_sys::PreventCommandIfReadOnly(command.as_ptr()) };
}

extension_sql_file!("../sql/derived_tables.sql", name = "derived_tables");

#[cfg(any(test, feature = "pg_test"))]
#[pgrx::pg_schema]
mod tests {
    use super::*;

    /// The mark left set, as a defect would leave it.
    fn leave_mark_set() {
        std::mem::forget(DerivedWrite::begin());
        assert!(writing());
    }

    #[pg_test]
    fn an_ending_transaction_clears_a_mark_left_set() {
        leave_mark_set();
        settle_writers_mark(pg_sys::XactEvent::XACT_EVENT_ABORT);
        assert!(!writing());
    }

    #[pg_test]
    fn a_transaction_cannot_commit_with_the_mark_left_set() {
        leave_mark_set();
        let raised = PgTryBuilder::new(|| {
            settle_writers_mark(pg_sys::XactEvent::XACT_EVENT_PRE_COMMIT);
            None
        })
        .catch_others(|e| match e {
            pg_sys::panic::CaughtError::ErrorReport(r) => Some(r.sql_error_code()),
            _ => None,
        })
        .execute();
        assert_eq!(raised, Some(PgSqlErrorCode::ERRCODE_INTERNAL_ERROR));
        assert!(!writing());
    }

    #[pg_test]
    fn a_transaction_without_the_mark_commits_and_nested_writers_still_count() {
        settle_writers_mark(pg_sys::XactEvent::XACT_EVENT_PRE_COMMIT);
        let outer = DerivedWrite::begin();
        {
            let _inner = DerivedWrite::begin();
            assert!(writing());
        }
        assert!(writing());
        drop(outer);
        assert!(!writing());
    }
}
