//! Rows inserted below SQL, as COPY inserts them. A replay writes up to millions of history rows,
//! and an `INSERT ... SELECT FROM unnest(...)` of them spends most of its time taking arrays apart
//! and materialising rows rather than in the table and its indexes. This writer fills tuple slots
//! with the values, inserts them a batch at a time (`heap_multi_insert` through the table's access
//! method) and then each row's index entries, which check the unique keys as an INSERT does.
//!
//! Rows going into a scope that the same transaction emptied under the scope's lock (a rebuild)
//! skip the unique check ([`BulkInsert::open_emptied`]): each new key equals a row just deleted,
//! which the check would fetch from the heap one by one (three quarters of a 1M-game rebuild).
//! The replay makes each key once (its keys strictly increase, a player once per game), and
//! `LedgerStore::write_entries` checks that again before writing.
//!
//! Only for pg_rating's own derived tables, which have no defaults, checks, foreign keys or row
//! triggers to honour (their statement trigger refuses writes by anyone but pg_rating, and this
//! is pg_rating). A table that has been given a row trigger or a check of its own is refused
//! (55000) rather than written past it; a NULL for a NOT NULL column is an internal error.
//!
//! The one exception is rows whose foreign keys the caller vouches for
//! ([`BulkInsert::open_vouching_keys`]): their table's checks are evaluated, its foreign keys'
//! checks (a query per key and row) are skipped, and a table with anything else to run is left to
//! the caller's SQL.

use std::ffi::CStr;

use pgrx::pg_sys;
use pgrx::PgMemoryContexts;

use pgrx::IntoDatum;

use crate::columns::{Cell, Column, Kind, Named, Value};
use crate::error::{internal, raise};
use crate::relation;

/// Rows buffered before one multi-insert (COPY buffers as many).
const BATCH: usize = 1000;

/// A column written, with the index and type of its attribute.
type WriterColumn = (Column, usize, pg_sys::Oid);

/// `value` as a datum of its column's type (`None`: NULL); an internal error when it does not fit.
fn stored_datum(
    value: Value,
    kind: Kind,
    name: &str,
    type_oid: pg_sys::Oid,
) -> Option<pg_sys::Datum> {
    // the value checked against its column's kind, then against the table
    let arg = value.into_stored(kind, name);
    // text goes into a varchar of no length as it is (the same representation)
    let fits =
        arg.oid() == type_oid || (arg.oid() == pg_sys::TEXTOID && type_oid == pg_sys::VARCHAROID);
    if !fits {
        internal(format!(
            "column {name}: a value of type {} for a column of type {type_oid}",
            arg.oid()
        ));
    }
    arg.datum().map(|d| d.sans_lifetime())
}

/// [`stored_datum`] of a cell: a cell of its column's own kind and type made a datum at once (its
/// text copied into the current memory context), any other through [`Value`], which checks it.
fn cell_datum(
    cell: Cell<'_>,
    kind: Kind,
    name: &str,
    type_oid: pg_sys::Oid,
) -> Option<pg_sys::Datum> {
    match (cell, kind) {
        (Cell::Float(x), Kind::Float) if type_oid == pg_sys::FLOAT8OID => x.into_datum(),
        (Cell::Int(x), Kind::Int) if type_oid == pg_sys::INT4OID => x.into_datum(),
        (Cell::Text(x), Kind::Text) if type_oid == pg_sys::TEXTOID => x.into_datum(),
        _ => stored_datum(Value::from(cell), kind, name, type_oid),
    }
}

/// An open insertion into one table: its relation, index state and slots.
pub struct BulkInsert {
    rel: pg_sys::Relation,
    estate: *mut pg_sys::EState,
    rri: *mut pg_sys::ResultRelInfo,
    /// Made as rows come (a game writes a few), at most BATCH.
    slots: Vec<*mut pg_sys::TupleTableSlot>,
    used: usize,
    /// The writer's columns, in their order.
    columns: Vec<WriterColumn>,
    /// Whether each attribute is NOT NULL.
    not_null: Vec<bool>,
    natts: usize,
    /// Holds the values of the buffered rows; reset after each batch.
    values: PgMemoryContexts,
    command: pg_sys::CommandId,
    /// Index entries added without the unique check (see the module's comment).
    unchecked: bool,
    /// The table's checks, evaluated for each row (rows with vouched keys only).
    checks: bool,
    econtext: *mut pg_sys::ExprContext,
    /// Set by [`BulkInsert::finish`]: a writer dropped before it would lose its buffered rows.
    finished: bool,
}

/// What a table asks of an insert that this writer does not do: row triggers, transition tables,
/// checks or generated columns. With `vouched_keys`, the table's checks are evaluated, its
/// foreign keys' insert checks are the caller's and its deferrable unique keys are checked at
/// once; anything else is still too much.
///
/// # Safety
/// `rel` is an open relation.
unsafe fn unhonoured(rel: pg_sys::Relation, vouched_keys: bool) -> bool {
    // SAFETY: the relation's trigger and constraint descriptions, which may be NULL; a trigger
    // description has numtriggers entries.
    unsafe {
        let t = (*rel).trigdesc;
        let c = (*(*rel).rd_att).constr;
        let generated = !c.is_null() && (*c).has_generated_stored;
        let checks = has_checks(rel);
        if t.is_null() {
            return generated || (checks && !vouched_keys);
        }
        let row_triggers = (*t).trig_insert_before_row
            || (*t).trig_insert_after_row
            || (*t).trig_insert_instead_row
            || (*t).trig_insert_new_table;
        if !vouched_keys {
            return generated || checks || row_triggers;
        }
        let triggers = std::slice::from_raw_parts((*t).triggers, (*t).numtriggers as usize);
        let row_insert = pg_sys::TRIGGER_TYPE_ROW as i16 | pg_sys::TRIGGER_TYPE_INSERT as i16;
        // the foreign keys' checks, and the recheck of a deferrable unique key, which
        // refuse_possible_duplicate does at once
        let ours =
            [pg_sys::F_RI_FKEY_CHECK_INS, pg_sys::F_UNIQUE_KEY_RECHECK].map(pg_sys::Oid::from);
        let others = triggers.iter().any(|trigger| {
            trigger.tgtype & row_insert == row_insert && !ours.contains(&trigger.tgfoid)
        });
        generated || others || (*t).trig_insert_new_table
    }
}

/// Whether the table has CHECK constraints.
///
/// # Safety
/// `rel` is an open relation.
unsafe fn has_checks(rel: pg_sys::Relation) -> bool {
    // SAFETY: the relation's constraint description, which may be NULL.
    unsafe {
        let c = (*(*rel).rd_att).constr;
        !c.is_null() && (*c).num_check > 0
    }
}

/// 55000 when the table asks for what this writer does not do ([`unhonoured`]): an INSERT would
/// do it, this writer would not.
///
/// # Safety
/// `rel` is an open relation.
unsafe fn refuse_what_it_cannot_honour(rel: pg_sys::Relation, table: &str) {
    // SAFETY: as the function's contract says.
    if unsafe { unhonoured(rel, false) } {
        raise(
            pgrx::PgSqlErrorCode::ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
            format!(
                "{table} has a row trigger, check or generated column of its own: pg_rating writes its \
                 derived rows as COPY does and would not run it; drop it{}",
                if table.starts_with("ledger_") {
                    " (live rating changes: set the ledger's notify_channel)"
                } else {
                    ""
                }
            ),
        );
    }
}

/// Whether the relation's indexes can take entries from [`insert_index_entries_unchecked`]:
/// ready, and none backing an exclusion constraint (whose check is not a unique check). Their
/// predicates are prepared here, as the executor prepares them for an INSERT.
///
/// # Safety
/// `rri` has its indices open; `estate` is the executor state they belong to.
unsafe fn uncheckable_indexes(
    rri: *mut pg_sys::ResultRelInfo,
    estate: *mut pg_sys::EState,
) -> bool {
    // SAFETY: ExecOpenIndices filled ri_NumIndices entries of both arrays.
    unsafe {
        let n = (*rri).ri_NumIndices as usize;
        if n == 0 {
            return true;
        }
        let infos = std::slice::from_raw_parts((*rri).ri_IndexRelationInfo, n);
        let uncheckable = infos
            .iter()
            .all(|&info| (*info).ii_ExclusionOps.is_null() && (*info).ii_ReadyForInserts);
        if uncheckable {
            for &info in infos {
                if !(*info).ii_Predicate.is_null() && (*info).ii_PredicateState.is_null() {
                    (*info).ii_PredicateState =
                        pg_sys::ExecPrepareQual((*info).ii_Predicate, estate);
                }
            }
        }
        uncheckable
    }
}

/// A stored row's entries in each index (those whose predicate it meets), without the unique
/// check.
///
/// # Safety
/// `slot` holds a row of `rel` just inserted (its tuple id set); `rri` has its indices open and
/// [`uncheckable_indexes`] prepared them; `econtext` is `estate`'s per-tuple context.
unsafe fn insert_index_entries_unchecked(
    rri: *mut pg_sys::ResultRelInfo,
    rel: pg_sys::Relation,
    estate: *mut pg_sys::EState,
    econtext: *mut pg_sys::ExprContext,
    slot: *mut pg_sys::TupleTableSlot,
) {
    const MAX_KEYS: usize = pg_sys::INDEX_MAX_KEYS as usize;
    // SAFETY: as the function's contract says; predicates and expressions are evaluated on the
    // slot in the per-tuple context (FormIndexDatum fills arrays of INDEX_MAX_KEYS).
    unsafe {
        let n = (*rri).ri_NumIndices as usize;
        if n == 0 {
            return;
        }
        (*econtext).ecxt_scantuple = slot;
        let indexes = std::slice::from_raw_parts((*rri).ri_IndexRelationDescs, n);
        let infos = std::slice::from_raw_parts((*rri).ri_IndexRelationInfo, n);
        let mut values = [pg_sys::Datum::from(0usize); MAX_KEYS];
        let mut nulls = [false; MAX_KEYS];
        for (&index, &info) in indexes.iter().zip(infos) {
            if index.is_null() {
                continue;
            }
            let predicate = (*info).ii_PredicateState;
            if !predicate.is_null() && !pg_sys::ExecQual(predicate, econtext) {
                continue;
            }
            pg_sys::FormIndexDatum(info, slot, estate, values.as_mut_ptr(), nulls.as_mut_ptr());
            pg_sys::index_insert(
                index,
                values.as_mut_ptr(),
                nulls.as_mut_ptr(),
                &mut (*slot).tts_tid,
                rel,
                pg_sys::IndexUniqueCheck::UNIQUE_CHECK_NO,
                false,
                info,
            );
        }
    }
}

/// A deferrable unique index reports a key that may clash (`recheck`, the indexes' ids) instead of
/// refusing it, for a trigger to check again at the statement's end. These rows are written
/// outside any statement, and nothing removes the clashing row before the check: refused now,
/// as the check would (23505).
///
/// # Safety
/// `recheck` is NIL or a list of index oids.
unsafe fn refuse_possible_duplicate(recheck: *mut pg_sys::List) {
    if recheck.is_null() {
        return;
    }
    // SAFETY: a non-empty list of oids; the name is copied before any error.
    let name = unsafe {
        let index = pg_sys::list_nth_oid(recheck, 0);
        let name = pg_sys::get_rel_name(index);
        if name.is_null() {
            format!("{index:?}")
        } else {
            CStr::from_ptr(name).to_string_lossy().into_owned()
        }
    };
    raise(
        pgrx::PgSqlErrorCode::ERRCODE_UNIQUE_VIOLATION,
        format!("duplicate key value violates unique constraint \"{name}\""),
    );
}

impl BulkInsert {
    /// Opens `table` (found by the pinned search path of pg_rating's writers) for inserting rows
    /// of `columns`; an internal error if a column is missing (a value of another type than its
    /// column's is one when pushed).
    pub fn open(table: &str, columns: &[Column]) -> Self {
        Self::opened(table, columns, false)
    }

    /// [`Self::open`] for rows whose keys the caller has made unique, going where this transaction
    /// deleted every row they could clash with, under a lock every writer of those rows takes:
    /// their index entries skip the unique check. A table with an index the plain path must
    /// evaluate (an expression, a predicate, an exclusion constraint) gets the checked path.
    pub fn open_emptied(table: &str, columns: &[Column]) -> Self {
        Self::opened(table, columns, true)
    }

    /// For rows whose foreign keys the caller vouches for: every row it references exists, and no
    /// other transaction can delete it or change its key before this one ends (a row this
    /// transaction inserted, say, of a table that refuses deletes). The foreign keys' insert checks
    /// are skipped (each is a query per key and row); the table's checks are evaluated. `None` when
    /// the table has a row trigger of another kind, a transition table or a generated column: the
    /// caller writes the rows by SQL, which runs them.
    pub fn open_vouching_keys(table: &str, columns: &[Column]) -> Option<Self> {
        let rel = relation::open(table, pg_sys::RowExclusiveLock);
        // SAFETY: the relation was just opened.
        if unsafe { unhonoured(rel, true) } {
            // SAFETY: opened above; its lock is kept, as the caller's SQL takes it again.
            unsafe { pg_sys::table_close(rel, pg_sys::NoLock as pg_sys::LOCKMODE) };
            return None;
        }
        Some(Self::prepared(rel, table, columns, false, true))
    }

    fn opened(table: &str, columns: &[Column], emptied: bool) -> Self {
        let rel = relation::open(table, pg_sys::RowExclusiveLock);
        // SAFETY: the relation was just opened.
        unsafe { refuse_what_it_cannot_honour(rel, table) };
        Self::prepared(rel, table, columns, emptied, false)
    }

    /// `rel` is `table`, just opened.
    fn prepared(
        rel: pg_sys::Relation,
        table: &str,
        columns: &[Column],
        emptied: bool,
        vouched: bool,
    ) -> Self {
        // SAFETY: the executor's own setup for inserting into a relation, as COPY FROM does;
        // everything is released by finish(), or by the transaction's abort.
        unsafe {
            let attrs = relation::attributes(rel);
            let natts = attrs.len();
            let not_null = attrs.iter().map(|a| a.attnotnull).collect();
            let columns = columns
                .iter()
                .zip(relation::positions(table, attrs, columns))
                .map(|(&column, i)| {
                    if attrs[i].atttypid == pg_sys::VARCHAROID && attrs[i].atttypmod >= 0 {
                        internal(format!("{table}.{}: a varchar of limited length", column.0));
                    }
                    (column, i, attrs[i].atttypid)
                })
                .collect();
            let checks = vouched && has_checks(rel);
            let estate = pg_sys::CreateExecutorState();
            let rri = pg_sys::palloc0(std::mem::size_of::<pg_sys::ResultRelInfo>())
                as *mut pg_sys::ResultRelInfo;
            // Not in a range table (index 0): a failed check then describes the row without
            // looking one up.
            pg_sys::InitResultRelInfo(rri, rel, 0, std::ptr::null_mut(), 0);
            pg_sys::ExecOpenIndices(rri, false);
            let unchecked = emptied && uncheckable_indexes(rri, estate);
            // the context index predicates and expressions are evaluated in
            let econtext = pg_sys::MakePerTupleExprContext(estate);
            BulkInsert {
                rel,
                estate,
                rri,
                slots: Vec::new(),
                used: 0,
                columns,
                not_null,
                natts,
                values: PgMemoryContexts::new("pg_rating bulk insert"),
                command: pg_sys::GetCurrentCommandId(true),
                unchecked,
                checks,
                econtext,
                finished: false,
            }
        }
    }

    /// Buffers a row: one value per column, in the columns' order.
    pub fn push(&mut self, row: Vec<Value>) {
        crate::columns::check_row_len(row.len(), self.columns.len());
        self.buffer(|columns, values, nulls| {
            for (value, &((name, kind), i, type_oid)) in row.into_iter().zip(columns) {
                if let Some(d) = stored_datum(value, kind, name, type_oid) {
                    values[i] = d;
                    nulls[i] = false;
                }
            }
        });
    }

    /// [`Self::push`] of a row lent as cells, in the columns' order (names checked by the caller:
    /// `check_cells`): each text is copied once, into the batch's memory, instead of into a
    /// `Value` first (a rebuild writes three million rows).
    pub fn push_cells(&mut self, cells: &[Named<Cell<'_>>]) {
        crate::columns::check_row_len(cells.len(), self.columns.len());
        self.buffer(|columns, values, nulls| {
            for (&(_, cell), &((name, kind), i, type_oid)) in cells.iter().zip(columns) {
                if let Some(d) = cell_datum(cell, kind, name, type_oid) {
                    values[i] = d;
                    nulls[i] = false;
                }
            }
        });
    }

    /// Fills the next slot by `fill` (from the writer's columns, its values and nulls, all null at
    /// first; run in the batch's memory, which lives until the batch is in), then checks and
    /// buffers it.
    fn buffer(&mut self, fill: impl FnOnce(&[WriterColumn], &mut [pg_sys::Datum], &mut [bool])) {
        if self.used == self.slots.len() {
            // SAFETY: a slot of the open relation's descriptor, dropped by finish().
            let slot = unsafe {
                pg_sys::MakeSingleTupleTableSlot((*self.rel).rd_att, &pg_sys::TTSOpsVirtual)
            };
            self.slots.push(slot);
        }
        let slot = self.slots[self.used];
        // SAFETY: a virtual slot of this relation's descriptor: its value and null arrays have
        // natts entries; the values are made in `values`, which lives until the batch is in.
        unsafe {
            pg_sys::ExecClearTuple(slot);
            let values = std::slice::from_raw_parts_mut((*slot).tts_values, self.natts);
            let nulls = std::slice::from_raw_parts_mut((*slot).tts_isnull, self.natts);
            nulls.fill(true);
            let columns = &self.columns;
            self.values.switch_to(|_| fill(columns, values, nulls));
            if let Some(i) = (0..self.natts).find(|&i| nulls[i] && self.not_null[i]) {
                internal(format!(
                    "a NULL for NOT NULL attribute {} of a derived row",
                    i + 1
                ));
            }
            pg_sys::ExecStoreVirtualTuple(slot);
            if self.checks {
                pg_sys::ExecConstraints(self.rri, slot, self.estate);
                pg_sys::MemoryContextReset((*self.econtext).ecxt_per_tuple_memory);
            }
        }
        self.used += 1;
        if self.used == BATCH {
            self.insert_buffered();
        }
    }

    /// Inserts the buffered rows, then their index entries.
    fn insert_buffered(&mut self) {
        if self.used == 0 {
            return;
        }
        // SAFETY: the slots hold stored virtual tuples of this relation; the table's access
        // method inserts them and sets their tuple ids, which the index entries point to. It
        // forms each row's tuple in the current memory context: the batch's, reset below, so
        // that a rebuild's millions of rows do not pile up until its end (only the tuple ids,
        // copied into the slots, are used after).
        unsafe {
            let caller_memory = pg_sys::MemoryContextSwitchTo(self.values.value());
            let insert = (*(*self.rel).rd_tableam)
                .multi_insert
                .unwrap_or_else(|| internal("the table's access method cannot insert"));
            // (called through the access method's pointer, which pgrx does not guard: an ERROR
            // in it, a serialization failure say, must unwind the writer's frames, not jump past
            // them and their guards)
            let (rel, slots, used, command) = (
                self.rel,
                self.slots.as_mut_ptr(),
                self.used as i32,
                self.command,
            );
            pg_sys::ffi::pg_guard_ffi_boundary(|| {
                insert(rel, slots, used, command, 0, std::ptr::null_mut())
            });
            for &slot in &self.slots[..self.used] {
                if self.unchecked {
                    insert_index_entries_unchecked(
                        self.rri,
                        self.rel,
                        self.estate,
                        self.econtext,
                        slot,
                    );
                } else {
                    let recheck = pg_sys::ExecInsertIndexTuples(
                        self.rri,
                        slot,
                        self.estate,
                        false,
                        false,
                        std::ptr::null_mut(),
                        std::ptr::null_mut(),
                    );
                    refuse_possible_duplicate(recheck);
                }
                pg_sys::MemoryContextReset((*self.econtext).ecxt_per_tuple_memory);
            }
            pg_sys::MemoryContextSwitchTo(caller_memory);
            for &slot in &self.slots[..self.used] {
                pg_sys::ExecClearTuple(slot);
            }
            // the slots no longer point into it
            self.values.reset();
        }
        self.used = 0;
    }

    /// Inserts what is buffered and closes the table; what follows in the transaction sees
    /// the rows.
    pub fn finish(mut self) {
        self.insert_buffered();
        // SAFETY: releases what open() acquired, in reverse order.
        unsafe {
            for &slot in &self.slots {
                pg_sys::ExecDropSingleTupleTableSlot(slot);
            }
            pg_sys::ExecCloseIndices(self.rri);
            pg_sys::FreeExecutorState(self.estate);
            pg_sys::table_close(self.rel, pg_sys::NoLock as pg_sys::LOCKMODE);
            pg_sys::CommandCounterIncrement();
        }
        self.finished = true;
    }
}

/// No release here: on an error the transaction's abort closes the relation and its indexes,
/// drops the slots and frees the executor state's memory (all are resources of the transaction),
/// and code unwinding from an ERROR may not call into PostgreSQL. A writer dropped without
/// [`BulkInsert::finish`] on a path without an error is a bug that would lose the buffered rows
/// without a word: it is an internal error, and the statement's work is undone with it.
impl Drop for BulkInsert {
    fn drop(&mut self) {
        if !self.finished && !std::thread::panicking() {
            internal("a bulk insertion was dropped before finish(): its rows would be lost");
        }
    }
}

#[cfg(any(test, feature = "pg_test"))]
#[pgrx::pg_schema]
mod tests {
    use super::BulkInsert;
    use crate::columns::{Cell, Column, Kind, Value};
    use pgrx::prelude::*;

    const COLUMNS: &[Column] = &[("id", Kind::Int), ("name", Kind::Text)];

    /// A table of the engine's schema and extension, where the writer finds its tables.
    fn table(definition: &str) -> String {
        let schema = crate::test_support::engine_schema();
        let name = definition.split([' ', '(']).next().unwrap_or_default();
        Spi::run(&format!(
            "CREATE TABLE {schema}.{definition}; ALTER EXTENSION pg_rating ADD TABLE {schema}.{name}"
        ))
        .unwrap();
        schema
    }

    fn row(i: i32) -> Vec<Value> {
        vec![Value::Int(Some(i)), Value::Text(Some(format!("p{i}")))]
    }

    #[pg_test]
    fn rows_of_several_batches_are_seen_after_finish_with_their_index_entries() {
        let schema = table("bulk_rows (id int PRIMARY KEY, name text NOT NULL)");
        let mut writer = BulkInsert::open("bulk_rows", COLUMNS);
        for i in 1..=2500 {
            writer.push(row(i));
        }
        writer.finish();
        let found = Spi::get_one::<i64>(&format!(
            "SET LOCAL enable_seqscan = off; SELECT count(*) FROM {schema}.bulk_rows WHERE id BETWEEN 1000 AND 1999"
        ));
        assert_eq!(found.unwrap(), Some(1000));
        let name = Spi::get_one::<String>(&format!(
            "SELECT name FROM {schema}.bulk_rows WHERE id = 2500"
        ));
        assert_eq!(name.unwrap().as_deref(), Some("p2500"));
    }

    #[pg_test]
    fn rows_lent_as_cells_are_written_as_their_values_across_batches() {
        const CELL_COLUMNS: &[Column] = &[
            ("id", Kind::Int),
            ("name", Kind::Text),
            ("score", Kind::Float),
            ("at", Kind::Time),
        ];
        let schema = table(
            "bulk_cells (id int PRIMARY KEY, name text NOT NULL, score float8, at timestamptz NOT NULL)",
        );
        let mut writer = BulkInsert::open("bulk_cells", CELL_COLUMNS);
        for i in 1..=2500 {
            let name = format!("p{i}");
            writer.push_cells(&[
                ("id", Cell::Int(Some(i))),
                ("name", Cell::Text(Some(&name))),
                (
                    "score",
                    Cell::Float((i % 2 == 0).then_some(f64::from(i) / 4.0)),
                ),
                // microseconds since 2000-01-01
                ("at", Cell::Time(i64::from(i) * 1_000_000)),
            ]);
        }
        writer.finish();
        let last = Spi::get_three::<String, f64, f64>(&format!(
            "SELECT name, score, extract(epoch FROM at)::float8 FROM {schema}.bulk_cells WHERE id = 2500"
        ))
        .unwrap();
        assert_eq!(
            last,
            (
                Some("p2500".into()),
                Some(625.0),
                Some(946_684_800.0 + 2500.0)
            )
        );
        let nulls = Spi::get_one::<i64>(&format!(
            "SELECT count(*) FROM {schema}.bulk_cells WHERE score IS NULL"
        ));
        assert_eq!(nulls.unwrap(), Some(1250));
    }

    #[pg_test]
    #[should_panic(expected = "a value of another type for column id")]
    fn a_cell_of_another_kind_than_its_column_is_an_error() {
        table("bulk_kinds (id int PRIMARY KEY, name text NOT NULL)");
        let mut writer = BulkInsert::open("bulk_kinds", COLUMNS);
        writer.push_cells(&[
            ("id", Cell::Text(Some("7"))),
            ("name", Cell::Text(Some("x"))),
        ]);
        writer.finish();
    }

    #[pg_test]
    #[should_panic(expected = "duplicate key value violates unique constraint")]
    fn a_duplicate_key_is_refused_where_the_unique_check_is_kept() {
        table("bulk_keys (id int PRIMARY KEY, name text NOT NULL)");
        let mut writer = BulkInsert::open("bulk_keys", COLUMNS);
        writer.push(row(7));
        writer.push(row(7));
        writer.finish();
    }

    #[pg_test]
    #[should_panic(expected = "has a row trigger, check or generated column of its own")]
    fn a_table_with_a_row_trigger_is_refused_rather_than_written_past_it() {
        let schema = table("bulk_triggered (id int PRIMARY KEY, name text NOT NULL)");
        Spi::run(&format!(
            "CREATE FUNCTION {schema}.bulk_noop() RETURNS trigger LANGUAGE plpgsql AS 'BEGIN RETURN NEW; END';
             CREATE TRIGGER noop BEFORE INSERT ON {schema}.bulk_triggered FOR EACH ROW EXECUTE FUNCTION {schema}.bulk_noop()"
        ))
        .unwrap();
        BulkInsert::open("bulk_triggered", COLUMNS).finish();
    }

    #[pg_test]
    #[should_panic(expected = "a NULL for NOT NULL attribute 2 of a derived row")]
    fn a_null_for_a_not_null_column_is_an_error() {
        table("bulk_nulls (id int PRIMARY KEY, name text NOT NULL)");
        let mut writer = BulkInsert::open("bulk_nulls", COLUMNS);
        writer.push(vec![Value::Int(Some(1)), Value::Text(None)]);
        writer.finish();
    }

    #[pg_test]
    #[should_panic(expected = "dropped before finish()")]
    fn a_writer_dropped_before_finish_is_an_error_not_lost_rows() {
        table("bulk_dropped (id int PRIMARY KEY, name text NOT NULL)");
        let mut writer = BulkInsert::open("bulk_dropped", COLUMNS);
        writer.push(row(1));
        drop(writer);
    }
}
