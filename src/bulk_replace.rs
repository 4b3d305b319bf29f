//! A ledger's derived rows replaced by those of a rebuild, below SQL: the rows already equal to
//! the rebuild's stay as they are, the others are deleted and the missing ones inserted. A rebuild
//! that changes nothing (a check, a repair of a few rows) writes nothing: deleting and inserting
//! two million equal rows cost three quarters of a 1M-game rebuild and left as many dead rows.
//! When much has changed (a new K), every row is deleted and the rebuild's inserted anew into the
//! emptied scopes ([`BulkInsert::open_emptied`]).
//!
//! For pg_rating's tables keyed by (ledger_id, scope, ...): the first columns given are the
//! table's primary key, led by the ledger and the scope. Only rows of the scopes named are
//! touched; the caller holds their locks, which every writer of their rows takes first.

use std::cmp::Ordering;
use std::collections::{BTreeSet, HashMap};

use pgrx::pg_sys;
use pgrx::PgMemoryContexts;

use crate::bulk_insert::BulkInsert;
use crate::columns::{check_cells, Cell, Cells, Column, ColumnType, Kind, Named};
use crate::error::internal;
use crate::relation;
use pg_rating_core::ledger::digest::{self, Comparison};
pub use pg_rating_core::ledger::digest::{DigestSet, DigestSum, RowDigests, Stored};

/// A part of a row's key: as the rebuild has it, or as the table stores it. Ordered as the
/// rebuild orders its rows (texts by their bytes).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum KeyPart<'a> {
    None,
    Int(i32),
    Text(&'a [u8]),
    Time(i64),
}

/// The most key columns a table may have here (ledger_entries: five).
const MAX_KEY: usize = 5;
type RowKey<'a> = [KeyPart<'a>; MAX_KEY];

/// The key of a row: its first `key` cells.
fn key_of<'a, const N: usize>(cells: &[Named<Cell<'a>>; N], key: usize, ledger: i32) -> RowKey<'a> {
    let mut k = [KeyPart::None; MAX_KEY];
    for (part, (_, cell)) in k.iter_mut().zip(&cells[..key]) {
        *part = match *cell {
            Cell::Int(Some(i)) => KeyPart::Int(i),
            Cell::Text(Some(t)) => KeyPart::Text(t.as_bytes()),
            Cell::Time(t) => KeyPart::Time(t),
            _ => internal("a key of a derived row is NULL or not an int, text or time"),
        };
    }
    if k[0] != KeyPart::Int(ledger) {
        internal("a row of another ledger");
    }
    k
}

/// What a replacement did.
pub struct Replaced {
    pub kept: usize,
    pub deleted: usize,
    pub inserted: usize,
}

/// A stored value as the table holds it: the datum of one attribute of a scanned row.
struct StoredRow {
    datum: pg_sys::Datum,
    null: bool,
}

impl StoredRow {
    /// The bytes of a text or bytea (detoasted into the current memory context).
    ///
    /// # Safety
    /// The datum is a varlena of the scanned row, which lives until the next row.
    unsafe fn bytes<'a>(&self) -> &'a [u8] {
        // SAFETY: as the function's contract says.
        unsafe { crate::types::text_bytes(self.datum) }
    }

    /// # Safety
    /// As [`StoredRow::bytes`]; `kind` is the attribute's kind.
    unsafe fn key_part<'a>(&self, kind: Kind) -> KeyPart<'a> {
        if self.null {
            return KeyPart::None;
        }
        match kind {
            Kind::Int => KeyPart::Int(self.datum.value() as i32),
            // SAFETY: a text of the scanned row.
            Kind::Text => KeyPart::Text(unsafe { self.bytes() }),
            Kind::Time => KeyPart::Time(self.datum.value() as i64),
            _ => internal("a key column of a derived table is not an int, text or time"),
        }
    }

    /// Whether the stored value is `cell`, bit for bit.
    ///
    /// # Safety
    /// As [`StoredRow::bytes`]; the attribute is of the cell's column.
    unsafe fn is(&self, cell: Cell<'_>) -> bool {
        // SAFETY: the attribute holds a value of the column's kind, checked at open.
        unsafe {
            match cell {
                Cell::Float(None) | Cell::Int(None) | Cell::Text(None) => self.null,
                _ if self.null => false,
                Cell::Float(Some(x)) => self.datum.value() as u64 == x.to_bits(),
                Cell::Int(Some(x)) => self.datum.value() as i32 == x,
                Cell::Text(Some(x)) => self.bytes() == x.as_bytes(),
                Cell::Time(t) => self.datum.value() as i64 == t,
            }
        }
    }
}

/// Makes the rows of `table` of `ledger` and `scopes` equal to `rows`: one value per column of
/// `columns`, the first `key` of them the table's primary key (ledger_id and scope first), in key
/// order (rows of one key would be next to each other). Rows of the ledger's other scopes are left
/// alone. With `most_differ` (found by [`compare_stored`]) no row is compared: every stored row
/// goes and the rebuild's are inserted.
pub fn replace_ledger_rows<R: Cells<N>, const N: usize>(
    table: &str,
    columns: &[Column],
    key: usize,
    ledger: i32,
    scopes: &BTreeSet<String>,
    rows: Vec<R>,
    most_differ: bool,
) -> Replaced {
    check_rows(table, columns, key, ledger, &rows);
    if most_differ {
        return rewrite(table, columns, ledger, scopes, rows);
    }
    // The stored rows come in the index's order, which is the rows' order when the table's
    // collation orders texts by their bytes: each is then the row the merge is at (`next`). A
    // stored row the merge does not find there is looked up by its key (`wanted`, made at the
    // first: another collation, a row the rebuild does not have).
    let mut next = 0usize;
    let mut wanted: Option<HashMap<RowKey<'_>, usize>> = None;
    // (row id of the stored row, index of the rebuild's equal row)
    let mut kept: Vec<Option<pg_sys::ItemPointerData>> = vec![None; rows.len()];
    let mut doomed: Vec<pg_sys::ItemPointerData> = Vec::new();
    let (mut scanned, mut rewrite) = (0usize, false);
    scan_scopes(table, columns, ledger, scopes, Order::Key, |tid, stored| {
        let kinds = columns.iter().map(|c| c.1);
        let mut k = [KeyPart::None; MAX_KEY];
        for ((part, s), kind) in k.iter_mut().zip(&stored[..key]).zip(kinds) {
            // SAFETY: the scanned row's attributes, of these kinds.
            *part = unsafe { s.key_part(kind) };
        }
        scanned += 1;
        // Once most of what is seen differs (a new K), every row will be written anew: the rest
        // need not be compared.
        rewrite |= digest::most_differ(doomed.len(), rows.len(), scanned);
        if rewrite {
            doomed.push(tid);
            return true;
        }
        // (a row's cells made once here: 24 of them)
        let mut at = None;
        while let Some(row) = rows.get(next) {
            let cells = row.cells();
            match key_of(&cells, key, ledger).cmp(&k) {
                Ordering::Less => next += 1,
                Ordering::Equal => {
                    at = Some((next, cells));
                    next += 1;
                    break;
                }
                Ordering::Greater => break,
            }
        }
        let at = at.or_else(|| {
            let wanted = wanted.get_or_insert_with(|| {
                let mut wanted = HashMap::with_capacity(rows.len());
                for (i, row) in rows.iter().enumerate() {
                    wanted.insert(key_of(&row.cells(), key, ledger), i);
                }
                wanted
            });
            wanted.get(&k).map(|&i| (i, rows[i].cells()))
        });
        match at {
            Some((i, cells))
                if kept[i].is_none()
                    && cells
                        .into_iter()
                        .zip(stored)
                        // SAFETY: `stored` is the row read at `tid` in the same scan, its attributes in the cells' column order (as above).
                        .all(|((_, c), s)| unsafe { s.is(c) }) =>
            {
                kept[i] = Some(tid)
            }
            _ => doomed.push(tid),
        }
        true
    });
    drop(wanted);
    // Much changed (or nothing stored): every row goes, and the rebuild's go into the emptied
    // scopes.
    rewrite |= digest::most_differ(doomed.len(), rows.len(), 0) || kept.iter().all(Option::is_none);
    if rewrite {
        doomed.extend(kept.iter_mut().filter_map(Option::take));
    }
    delete_rows(table, &mut doomed);
    let mut insert = if rewrite {
        BulkInsert::open_emptied(table, columns)
    } else {
        BulkInsert::open(table, columns)
    };
    let mut inserted = 0;
    for (row, k) in rows.iter().zip(&kept) {
        if k.is_none() {
            insert.push_cells(&row.cells());
            inserted += 1;
        }
    }
    insert.finish();
    Replaced {
        kept: kept.iter().filter(|k| k.is_some()).count(),
        deleted: doomed.len(),
        inserted,
    }
}

/// An internal error unless `rows` have a cell per column of `columns`, the first `key` of them
/// (the ledger, the scope and at most five) their key, each key once: the rows come with equal
/// keys next to each other, and each key once is what lets an emptied scope take them without
/// the unique check.
fn check_rows<R: Cells<N>, const N: usize>(
    table: &str,
    columns: &[Column],
    key: usize,
    ledger: i32,
    rows: &[R],
) {
    if !(2..=MAX_KEY).contains(&key) || columns.len() != N {
        internal("rows of a derived table need a cell per column and the ledger, the scope and at most five key columns");
    }
    check_cells(rows, columns);
    let mut previous = None;
    for row in rows {
        let k = key_of(&row.cells(), key, ledger);
        if previous == Some(k) {
            internal(format!("{table}: two rows of one key in a rebuild"));
        }
        previous = Some(k);
    }
}

/// Every stored row of the ledger's `scopes` deleted (found in the heap's order when the ledger is
/// much of the table) and `rows` inserted into the emptied scopes, nothing compared.
fn rewrite<R: Cells<N>, const N: usize>(
    table: &str,
    columns: &[Column],
    ledger: i32,
    scopes: &BTreeSet<String>,
    rows: Vec<R>,
) -> Replaced {
    let deleted = delete_scopes(table, columns, ledger, scopes, rows.len());
    let inserted = insert_rows(table, columns, ledger, rows);
    Replaced {
        kept: 0,
        deleted,
        inserted,
    }
}

/// Deletes every stored row of the ledger's `scopes` from `table` (of `columns`, about `expected`
/// of them: found in the heap's order when they are much of the table); returns how many.
pub fn delete_scopes(
    table: &str,
    columns: &[Column],
    ledger: i32,
    scopes: &BTreeSet<String>,
    expected: usize,
) -> usize {
    let started = std::time::Instant::now();
    let mut doomed = Vec::with_capacity(expected);
    let order = scan_order(table, expected);
    scan_scopes(table, columns, ledger, scopes, order, |tid, _| {
        doomed.push(tid);
        true
    });
    let scanned = started.elapsed();
    delete_rows(table, &mut doomed);
    // where a rewrite's time goes (bench/ledgers_scale.sh prints it)
    pgrx::debug2!(
        "ledger {ledger} rebuilt {table}: rows found in {:.2} s, deleted in {:.2} s",
        scanned.as_secs_f64(),
        (started.elapsed() - scanned).as_secs_f64(),
    );
    doomed.len()
}

/// Inserts `rows` (one value per column of `columns`, the first `key` of them the table's primary
/// key, in key order) into scopes of `table` that this transaction emptied under their locks
/// ([`delete_scopes`]); returns how many.
pub fn insert_into_emptied<R: Cells<N>, const N: usize>(
    table: &str,
    columns: &[Column],
    key: usize,
    ledger: i32,
    rows: Vec<R>,
) -> usize {
    check_rows(table, columns, key, ledger, &rows);
    insert_rows(table, columns, ledger, rows)
}

/// [`insert_into_emptied`] of rows checked.
fn insert_rows<R: Cells<N>, const N: usize>(
    table: &str,
    columns: &[Column],
    ledger: i32,
    rows: Vec<R>,
) -> usize {
    let started = std::time::Instant::now();
    let mut insert = BulkInsert::open_emptied(table, columns);
    for row in &rows {
        pg_rating_core::interrupt::check();
        insert.push_cells(&row.cells());
    }
    insert.finish();
    // where a rewrite's time goes (bench/ledgers_scale.sh prints it)
    pgrx::debug2!(
        "ledger {ledger} rebuilt {table}: rows inserted in {:.2} s",
        started.elapsed().as_secs_f64()
    );
    rows.len()
}

/// The digest of a stored row (the same as its cells' when the values are the same).
///
/// # Safety
/// As [`StoredRow::bytes`]; each attribute is of its column's kind.
unsafe fn digest_of_stored(d: &mut RowDigests, stored: &[StoredRow], columns: &[Column]) -> u128 {
    for (s, &(_, kind)) in stored.iter().zip(columns) {
        if s.null {
            d.null();
            continue;
        }
        match kind {
            Kind::Float => d.float(s.datum.value() as u64),
            Kind::Int => d.int(s.datum.value() as i32),
            // SAFETY: a text of the scanned row.
            Kind::Text => d.text(unsafe { s.bytes() }),
            Kind::Time => d.time(s.datum.value() as i64),
            Kind::Bytes | Kind::Decimal => internal("a derived row's value of another kind"),
        }
    }
    d.finish()
}

/// Whether the rows of `table` of `ledger` and `scopes` are exactly those whose digests
/// ([`RowDigests::of_cells`], one per row, the rows different) are `wanted`: read without a write,
/// by a scan that stops soon after the first row not wanted (once it has seen whether most rows of
/// a sample after it differ too). A rebuild that changes nothing (a check) costs a replay and this
/// scan, without sorting or comparing its rows one by one.
pub fn compare_stored(
    table: &str,
    columns: &[Column],
    ledger: i32,
    scopes: &BTreeSet<String>,
    digests: &mut RowDigests,
    mut wanted: DigestSet,
) -> Stored {
    let mut comparison = Comparison::default();
    let rows = wanted.len();
    digest_stored(table, columns, ledger, scopes, digests, rows, |stored| {
        comparison.note(wanted.remove(&stored))
    });
    comparison.answer(wanted.is_empty())
}

/// Whether the rows of `table` of `ledger` and `scopes` are exactly those whose digests
/// ([`RowDigests::of_cells`], the rows different) sum to `wanted`: one scan of them all (stopped
/// only when there are more), nothing written. For a table whose rows are expected to be the
/// rebuild's (its other table's are): [`compare_stored`] stops sooner when they are not.
pub fn stored_sum_is(
    table: &str,
    columns: &[Column],
    ledger: i32,
    scopes: &BTreeSet<String>,
    digests: &mut RowDigests,
    wanted: DigestSum,
) -> bool {
    let mut stored_sum = DigestSum::default();
    let rows = wanted.rows();
    digest_stored(table, columns, ledger, scopes, digests, rows, |stored| {
        stored_sum.add(stored);
        stored_sum.rows() <= wanted.rows()
    });
    stored_sum == wanted
}

/// Gives `each` the digest ([`RowDigests`]) of every row of `table` of `ledger` and `scopes`
/// (about `rows` of them), in the order a scan finds them, until it returns false.
pub fn digest_stored(
    table: &str,
    columns: &[Column],
    ledger: i32,
    scopes: &BTreeSet<String>,
    digests: &mut RowDigests,
    rows: usize,
    mut each: impl FnMut(u128) -> bool,
) {
    let order = scan_order(table, rows);
    scan_scopes(table, columns, ledger, scopes, order, |_, stored| {
        // SAFETY: the scanned row's attributes, of the columns' kinds (checked by the scan).
        each(unsafe { digest_of_stored(digests, stored, columns) })
    });
}

/// The order to scan a ledger's rows in: the heap's when the ledger's rows (`rows`, about) are a
/// good part of the table (a quarter of its rows, as last counted); else the ledger's through the
/// primary key.
fn scan_order(table: &str, rows: usize) -> Order {
    let rel = relation::open(table, pg_sys::AccessShareLock);
    // SAFETY: the relation was just opened; closed keeping its lock.
    let counted = unsafe {
        let counted = f64::from((*(*rel).rd_rel).reltuples);
        pg_sys::table_close(rel, pg_sys::NoLock as pg_sys::LOCKMODE);
        counted
    };
    if counted < 0.0 || rows as f64 * 4.0 >= counted {
        Order::Heap
    } else {
        Order::Key
    }
}

/// Deletes rows by their ids (rows of pg_rating's derived tables: no row triggers to run), in
/// the heap's order (a page read and dirtied once, not once per row found through the key).
fn delete_rows(table: &str, tids: &mut [pg_sys::ItemPointerData]) {
    if tids.is_empty() {
        return;
    }
    tids.sort_unstable_by_key(|t| {
        let block = u32::from(t.ip_blkid.bi_hi) << 16 | u32::from(t.ip_blkid.bi_lo);
        (block, t.ip_posid)
    });
    let rel = relation::open(table, pg_sys::RowExclusiveLock);
    // SAFETY: rows of the open table seen by this transaction's snapshot, under the locks of
    // their scopes; the table is closed keeping its lock until the transaction ends.
    unsafe {
        for tid in tids {
            let mut tid = *tid;
            pg_sys::simple_heap_delete(rel, &mut tid);
        }
        pg_sys::table_close(rel, pg_sys::NoLock as pg_sys::LOCKMODE);
        pg_sys::CommandCounterIncrement();
    }
}

/// The order of a scan: the primary key's (an index scan of the ledger's rows), or the heap's (a
/// sequential scan of the whole table, faster when the ledger holds much of it).
#[derive(Clone, Copy, PartialEq)]
enum Order {
    Key,
    Heap,
}

/// [`scan_ledger`] of the rows of `scopes` only (the second of `columns` is the scope).
fn scan_scopes(
    table: &str,
    columns: &[Column],
    ledger: i32,
    scopes: &BTreeSet<String>,
    order: Order,
    mut each: impl FnMut(pg_sys::ItemPointerData, &[StoredRow]) -> bool,
) {
    if columns.get(1).map(|c| c.1) != Some(Kind::Text) {
        internal(format!("{table}: the second column is not the scope"));
    }
    let scopes: BTreeSet<&[u8]> = scopes.iter().map(|s| s.as_bytes()).collect();
    scan_ledger(table, columns, ledger, order, |tid, stored| {
        // SAFETY: the scanned row's attributes, of the columns' kinds (checked by the scan).
        let KeyPart::Text(scope) = (unsafe { stored[1].key_part(Kind::Text) }) else {
            internal(format!("{table}: a row without a scope"))
        };
        !scopes.contains(scope) || each(tid, stored)
    });
}

/// Calls `each` with the row id and the values of `columns` of every row of `ledger` that a
/// snapshot taken now sees (this transaction's own writes included), in `order`, until it
/// returns false.
fn scan_ledger(
    table: &str,
    columns: &[Column],
    ledger: i32,
    order: Order,
    mut each: impl FnMut(pg_sys::ItemPointerData, &[StoredRow]) -> bool,
) {
    let rel = relation::open(table, pg_sys::AccessShareLock);
    let mut per_row = PgMemoryContexts::new("pg_rating replace");
    // SAFETY: the executor's own way of scanning a table through an index, as a catalog scan
    // does; everything opened here is closed before the end, or by the transaction's abort.
    unsafe {
        let attrs = relation::attributes(rel);
        let natts = attrs.len();
        let positions = relation::positions(table, attrs, columns);
        for (&(name, kind), &p) in columns.iter().zip(&positions) {
            // the types whose datums StoredRow reads (a cell is never a decimal)
            if kind == Kind::Decimal || attrs[p].atttypid != kind.column_type() {
                internal(format!(
                    "{table}.{name} is not of the type its rows are compared as"
                ));
            }
        }
        // a row is the rebuild's when all its values are: none may go uncompared
        if attrs.iter().filter(|a| !a.attisdropped).count() != positions.len() {
            internal(format!("{table} has columns the rebuild does not write"));
        }
        let index_oid = pg_sys::RelationGetPrimaryKeyIndex(rel);
        if index_oid == pg_sys::InvalidOid {
            internal(format!("{table} has no primary key"));
        }
        let index = pg_sys::index_open(index_oid, pg_sys::AccessShareLock as pg_sys::LOCKMODE);
        let first_key = *(*(*index).rd_index)
            .indkey
            .values
            .as_slice(1)
            .first()
            .unwrap_or(&0);
        if first_key as usize != positions[0] + 1 {
            internal(format!(
                "the primary key of {table} does not begin with its ledger"
            ));
        }
        pg_sys::CommandCounterIncrement();
        // As SPI takes a statement's snapshot: a new one under READ COMMITTED (taken after the
        // scopes' locks), the transaction's under REPEATABLE READ, with this transaction's own
        // writes up to now either way.
        pg_sys::PushActiveSnapshot(pg_sys::GetTransactionSnapshot());
        pg_sys::UpdateActiveSnapshotCommandId();
        let snapshot = pg_sys::RegisterSnapshot(pg_sys::GetActiveSnapshot());
        pg_sys::PopActiveSnapshot();
        let mut scan_key: pg_sys::ScanKeyData = std::mem::zeroed();
        pg_sys::ScanKeyInit(
            &mut scan_key,
            1,
            pg_sys::BTEqualStrategyNumber as u16,
            pg_sys::Oid::from(pg_sys::F_INT4EQ),
            pg_sys::Datum::from(ledger),
        );
        let slot = pg_sys::table_slot_create(rel, std::ptr::null_mut());
        let am = &*(*rel).rd_tableam;
        let (Some(heap_begin), Some(heap_next), Some(heap_end)) =
            (am.scan_begin, am.scan_getnextslot, am.scan_end)
        else {
            internal(format!("{table} cannot be scanned"))
        };
        let forward = pg_sys::ScanDirection::ForwardScanDirection;
        let (index_scan, heap_scan) = match order {
            Order::Key => {
                let scan = pg_sys::index_beginscan(rel, index, snapshot, 1, 0);
                pg_sys::index_rescan(scan, &mut scan_key, 1, std::ptr::null_mut(), 0);
                (scan, std::ptr::null_mut())
            }
            Order::Heap => {
                use pg_sys::ScanOptions::*;
                // as table_beginscan (an inline function of PostgreSQL's headers) begins one
                let flags = SO_TYPE_SEQSCAN | SO_ALLOW_STRAT | SO_ALLOW_SYNC | SO_ALLOW_PAGEMODE;
                // (the access method's functions are called through pointers, which pgrx does
                // not guard: an ERROR in one, a cancel say, must unwind the scan's frames)
                let scan = pg_sys::ffi::pg_guard_ffi_boundary(|| {
                    heap_begin(
                        rel,
                        snapshot,
                        0,
                        std::ptr::null_mut(),
                        std::ptr::null_mut(),
                        flags,
                    )
                });
                (std::ptr::null_mut(), scan)
            }
        };
        let ledger_at = positions[0];
        let mut stored: Vec<StoredRow> = Vec::with_capacity(columns.len());
        loop {
            let found = match order {
                Order::Key => pg_sys::index_getnext_slot(index_scan, forward, slot),
                Order::Heap => {
                    pg_sys::ffi::pg_guard_ffi_boundary(|| heap_next(heap_scan, forward, slot))
                }
            };
            if !found {
                break;
            }
            pgrx::check_for_interrupts!();
            pg_sys::slot_getallattrs(slot);
            let values = std::slice::from_raw_parts((*slot).tts_values, natts);
            let nulls = std::slice::from_raw_parts((*slot).tts_isnull, natts);
            // (a heap scan sees every ledger's rows)
            if nulls[ledger_at] || values[ledger_at].value() as i32 != ledger {
                continue;
            }
            stored.clear();
            stored.extend(positions.iter().map(|&p| StoredRow {
                datum: values[p],
                null: nulls[p],
            }));
            let tid = (*slot).tts_tid;
            let go_on = per_row.switch_to(|_| each(tid, &stored));
            per_row.reset();
            if !go_on {
                break;
            }
        }
        pg_sys::ExecDropSingleTupleTableSlot(slot);
        match order {
            Order::Key => pg_sys::index_endscan(index_scan),
            Order::Heap => pg_sys::ffi::pg_guard_ffi_boundary(|| heap_end(heap_scan)),
        }
        pg_sys::UnregisterSnapshot(snapshot);
        pg_sys::index_close(index, pg_sys::NoLock as pg_sys::LOCKMODE);
        pg_sys::table_close(rel, pg_sys::NoLock as pg_sys::LOCKMODE);
    }
}

#[cfg(any(test, feature = "pg_test"))]
#[pgrx::pg_schema]
mod tests {
    use std::collections::BTreeSet;

    use super::{compare_stored, stored_sum_is, DigestSet, DigestSum, RowDigests, Stored};
    use crate::columns::{Cell, Column, Kind, Named};
    use pgrx::prelude::*;

    const COLUMNS: &[Column] = &[
        ("ledger_id", Kind::Int),
        ("scope", Kind::Text),
        ("player", Kind::Text),
        ("at", Kind::Time),
        ("rating", Kind::Float),
        ("rd", Kind::Float),
        ("games", Kind::Int),
    ];

    /// Ledger 1's rows of scope 'a' (one with a NULL rd), as the rebuild has them.
    fn cells(rating: f64) -> Vec<[Named<Cell<'static>>; 7]> {
        let row = |player: &'static str, rd: Option<f64>, games: i32| {
            [
                ("ledger_id", Cell::Int(Some(1))),
                ("scope", Cell::Text(Some("a"))),
                ("player", Cell::Text(Some(player))),
                // 2000-01-01 00:00:01 UTC, PostgreSQL's epoch plus a second
                ("at", Cell::Time(1_000_000)),
                ("rating", Cell::Float(Some(rating))),
                ("rd", Cell::Float(rd)),
                ("games", Cell::Int(Some(games))),
            ]
        };
        vec![
            row("alice", Some(50.5), 3),
            row("bob", None, 1),
            row("émile", Some(0.0), 12),
        ]
    }

    fn wanted(digests: &mut RowDigests, rows: &[[Named<Cell<'_>>; 7]]) -> DigestSet {
        rows.iter().map(|r| digests.of_cells(r)).collect()
    }

    fn compared(rows: &[[Named<Cell<'_>>; 7]]) -> Stored {
        let mut digests = RowDigests::new();
        let wanted = wanted(&mut digests, rows);
        let scopes: BTreeSet<String> = ["a".to_owned()].into();
        compare_stored("digest_rows", COLUMNS, 1, &scopes, &mut digests, wanted)
    }

    /// Whether the stored rows are `rows`, by the set of their digests and by their sum (which
    /// must agree).
    fn stored_are(rows: &[[Named<Cell<'_>>; 7]]) -> bool {
        let mut digests = RowDigests::new();
        let mut sum = DigestSum::default();
        for r in rows {
            sum.add(digests.of_cells(r));
        }
        let scopes: BTreeSet<String> = ["a".to_owned()].into();
        let by_sum = stored_sum_is("digest_rows", COLUMNS, 1, &scopes, &mut digests, sum);
        let by_set = compared(rows) == Stored::Same;
        assert_eq!(
            by_sum, by_set,
            "the sum and the set of the digests disagree"
        );
        by_set
    }

    /// The digest of a stored row is that of the same values as cells: the stored rows are found
    /// equal to the rebuild's, and a row more, a row less or a value changed by its last bit is
    /// found, through the heap and through the primary key alike; rows of another ledger or scope
    /// are not compared. When most rows after the first that differs differ too, that is said. The
    /// sum of the digests finds the same.
    #[pg_test]
    fn stored_rows_are_found_equal_to_their_cells_by_digest_and_differences_are_found() {
        let schema = crate::test_support::engine_schema();
        Spi::run(&format!(
            "CREATE TABLE {schema}.digest_rows (ledger_id int, scope text, player text, at timestamptz NOT NULL,
                 rating float8, rd float8, games int, PRIMARY KEY (ledger_id, scope, player));
             ALTER EXTENSION pg_rating ADD TABLE {schema}.digest_rows;
             INSERT INTO {schema}.digest_rows VALUES
                 (1, 'a', 'alice', '2000-01-01 00:00:01+00', 1516.25, 50.5, 3),
                 (1, 'a', 'bob', '2000-01-01 00:00:01+00', 1516.25, NULL, 1),
                 (1, 'a', 'émile', '2000-01-01 00:00:01+00', 1516.25, 0, 12),
                 (1, 'b', 'alice', '2000-01-01 00:00:01+00', 1400, NULL, 1);
             INSERT INTO {schema}.digest_rows SELECT 2, 'a', 'p' || n, now(), n, NULL, n FROM generate_series(1, 100) n"
        ))
        .unwrap();
        for analyzed in [false, true] {
            // never counted: the heap is scanned; counted (103 rows, 3 of them wanted): the key
            if analyzed {
                Spi::run(&format!("ANALYZE {schema}.digest_rows")).unwrap();
            }
            let rows = cells(1516.25);
            assert!(stored_are(&rows), "analyzed: {analyzed}");
            assert!(!stored_are(&rows[..2]), "a stored row too many");
            // (the last one scanned: no sample of others, and most rows do not differ)
            assert_eq!(compared(&rows[..2]), Stored::Differ);
            let mut more = rows.clone();
            more.push(cells(1516.25)[0]);
            more[3][2] = ("player", Cell::Text(Some("zoe")));
            assert!(!stored_are(&more), "a stored row missing");
            let next = f64::from_bits(1516.25f64.to_bits() + 1);
            // every rating off by its last bit: most rows differ (a new K), all rewritten
            assert_eq!(compared(&cells(next)), Stored::MostDiffer);
            assert!(!stored_are(&cells(next)));
            let mut null = cells(1516.25);
            null[0][5] = ("rd", Cell::Float(None));
            // one row of three differs, the first scanned: compared one by one
            assert_eq!(compared(&null), Stored::Differ, "a NULL for a value");
            assert!(!stored_are(&null));
        }
    }
}
