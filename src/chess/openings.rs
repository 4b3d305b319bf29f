//! The `openings` table, its loader, and `detect_opening` backed by a per-backend hash map of
//! `partial_fen -> id`. The map is dropped whenever the relcache entry of `openings` is
//! invalidated: a statement trigger on `openings` (sql/random_chess/03_openings.sql) calls
//! `openings_cache_invalidate`, which queues a relcache invalidation that this backend
//! processes at the end of the statement (or on rollback) and other backends after commit.

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};

use pg_rating_core::chess::openings::{
    opening_columns, opening_partial_fen as core_opening_fen, LoadedIndex, OpeningIndex,
};
use pgrx::prelude::*;
use pgrx::PgSqlErrorCode;

use super::array_elements;
use crate::error::{internal, raise};
use crate::ffi::finfo_v1;
use crate::types::{per_call_site, text_bytes};

thread_local! {
    static CACHE: RefCell<Option<LoadedIndex>> = const { RefCell::new(None) };
}

/// Bumped by the relcache callback; a cache built at another generation is stale.
static GENERATION: AtomicU64 = AtomicU64::new(1);
static OPENINGS_OID: AtomicU32 = AtomicU32::new(0);
static CALLBACK_REGISTERED: AtomicBool = AtomicBool::new(false);
/// How many times this backend loaded the map (for tests).
static LOADS: AtomicU64 = AtomicU64::new(0);

#[pg_guard]
unsafe extern "C-unwind" fn relcache_callback(_arg: pg_sys::Datum, relid: pg_sys::Oid) {
    let watched = OPENINGS_OID.load(Ordering::Relaxed);
    if relid == pg_sys::InvalidOid || u32::from(relid) == watched || watched == 0 {
        GENERATION.fetch_add(1, Ordering::Relaxed);
    }
}

fn current_lxid() -> u32 {
    // SAFETY: this backend's PGPROC, set up before any SQL runs.
    unsafe { (*pg_sys::MyProc).lxid }
}

/// Reads `openings` into a map. Outside parallel mode the query runs with the latest snapshot
/// rather than the calling statement's: a committed change is visible to new snapshots before
/// its invalidation is sent, so after we process an invalidation the reload sees the change
/// even in a REPEATABLE READ transaction (whose own snapshot would make the map stale for the
/// rest of the session).
fn load_map() -> (OpeningIndex, bool) {
    if !CALLBACK_REGISTERED.swap(true, Ordering::Relaxed) {
        // SAFETY: registers a callback for the life of the backend, once (the flag above); the callback only bumps an atomic.
        unsafe {
            pg_sys::CacheRegisterRelcacheCallback(Some(relcache_callback), pg_sys::Datum::from(0));
        }
    }
    // Read-only SPI (Spi::get_* would run it as a writing statement, which a parallel worker
    // or a leader in parallel mode may not).
    let found = Spi::connect(|client| {
        client
            .select(
                // (it runs with the caller's search_path: every name and operator is qualified)
                "SELECT c.oid, pg_catalog.format('SELECT partial_fen::pg_catalog.text, id FROM %I.openings', n.nspname)
                 FROM pg_catalog.pg_extension e
                 JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) e.extnamespace
                 JOIN pg_catalog.pg_class c ON c.relnamespace OPERATOR(pg_catalog.=) n.oid
                                           AND c.relname OPERATOR(pg_catalog.=) 'openings'::pg_catalog.name
                 WHERE e.extname OPERATOR(pg_catalog.=) 'pg_rating_random_chess'::pg_catalog.name",
                Some(1),
                &[],
            )
            .and_then(|t| t.first().get_two::<pg_sys::Oid, String>())
    });
    let (oid, query) = match found {
        Ok((Some(oid), Some(q))) => (oid, q),
        _ => raise(
            PgSqlErrorCode::ERRCODE_UNDEFINED_TABLE,
            "the openings table does not exist: detect_opening belongs to pg_rating_random_chess (CREATE EXTENSION pg_rating_random_chess)",
        ),
    };
    OPENINGS_OID.store(u32::from(oid), Ordering::Relaxed);
    let query = std::ffi::CString::new(query).expect("no NUL in a schema name");
    // SAFETY: SPI connected here and finished on every path below (an error unwinds through PostgreSQL, which cleans SPI up); the rows are copied into the map before SPI_finish frees them.
    unsafe {
        let fresh = !pg_sys::IsInParallelMode();
        if pg_sys::SPI_connect() < 0 {
            internal("SPI_connect failed");
        }
        let plan = pg_sys::SPI_prepare(query.as_ptr(), 0, std::ptr::null_mut());
        if plan.is_null() {
            internal("cannot prepare the openings query");
        }
        let snapshot = if fresh {
            pg_sys::GetLatestSnapshot()
        } else {
            std::ptr::null_mut()
        };
        let ret = pg_sys::SPI_execute_snapshot(
            plan,
            std::ptr::null_mut(),
            std::ptr::null(),
            snapshot,
            std::ptr::null_mut(),
            true,
            false,
            0,
        );
        if ret != pg_sys::SPI_OK_SELECT as i32 {
            internal("cannot read the openings table");
        }
        let table = pg_sys::SPI_tuptable;
        let rows = pg_sys::SPI_processed as usize;
        let mut map = OpeningIndex::with_capacity(rows);
        for i in 0..rows {
            let tuple = *(*table).vals.add(i);
            let (mut fen_null, mut id_null) = (false, false);
            let fen = pg_sys::SPI_getbinval(tuple, (*table).tupdesc, 1, &mut fen_null);
            let id = pg_sys::SPI_getbinval(tuple, (*table).tupdesc, 2, &mut id_null);
            if fen_null || id_null {
                continue;
            }
            map.insert(text_bytes(fen), id.value() as i32);
        }
        pg_sys::SPI_finish();
        LOADS.fetch_add(1, Ordering::Relaxed);
        (map, fresh)
    }
}

/// Runs `f` with an up-to-date map.
fn with_map<R>(f: impl FnOnce(&OpeningIndex) -> R) -> R {
    // SAFETY: processes pending invalidation messages, as PostgreSQL does at every lock; our callback only bumps an atomic.
    unsafe { pg_sys::AcceptInvalidationMessages() };
    let current = GENERATION.load(Ordering::Relaxed);
    let lxid = current_lxid();
    let usable = CACHE.with(|c| c.borrow().as_ref().is_some_and(|l| l.usable(current, lxid)));
    if !usable {
        // Read the generation before loading: an invalidation during the load makes the
        // next call load again.
        let (map, fresh) = load_map();
        CACHE.with(|c| *c.borrow_mut() = Some(LoadedIndex::new(map, current, lxid, fresh)));
    }
    CACHE.with(|c| f(&c.borrow().as_ref().expect("loaded above").index))
}

finfo_v1!(pg_finfo_pg_rating_detect_opening);

/// `detect_opening(partial_fens varchar[], OUT opening_id int, OUT move_no int) RETURNS record`:
/// the latest position of the game that is an opening, and its index (0 = start).
#[pg_guard]
#[unsafe(no_mangle)]
pub unsafe extern "C-unwind" fn pg_rating_detect_opening(
    fcinfo: pg_sys::FunctionCallInfo,
) -> pg_sys::Datum {
    // SAFETY: called by PostgreSQL as a V1 function declared STRICT (varchar[]) returning a record: the argument is present and is detoasted before its header is read; the result's descriptor comes from the call's expected type.
    unsafe {
        let raw = pgrx::fcinfo::pg_getarg_datum_raw(fcinfo, 0);
        let arr = pg_sys::pg_detoast_datum(raw.cast_mut_ptr()) as *mut pg_sys::ArrayType;
        crate::error::one_dimension(arr, "partial_fens");
        let elems = array_elements(arr);
        let found = with_map(|map| map.latest(&elems));

        // The result row type, blessed once per call site.
        let tupdesc = per_call_site(fcinfo, || {
            let mut tupdesc: pg_sys::TupleDesc = std::ptr::null_mut();
            if pg_sys::get_call_result_type(fcinfo, std::ptr::null_mut(), &mut tupdesc)
                != pg_sys::TypeFuncClass::TYPEFUNC_COMPOSITE
            {
                raise(
                    PgSqlErrorCode::ERRCODE_FEATURE_NOT_SUPPORTED,
                    "detect_opening must be declared to return a record",
                );
            }
            pg_sys::BlessTupleDesc(pg_sys::CreateTupleDescCopy(tupdesc))
        });
        let (mut values, mut nulls) = match found {
            Some((id, i)) => (
                [pg_sys::Datum::from(id), pg_sys::Datum::from(i)],
                [false, false],
            ),
            None => ([pg_sys::Datum::from(0); 2], [true, true]),
        };
        let tuple = pg_sys::heap_form_tuple(tupdesc, values.as_mut_ptr(), nulls.as_mut_ptr());
        pg_sys::HeapTupleHeaderGetDatum((*tuple).t_data)
    }
}

/// Queues a relcache invalidation of `openings` (called by its statement trigger) so every
/// backend drops its map of openings.
#[pg_extern(volatile, strict, parallel_unsafe, sql = false)]
fn openings_cache_invalidate(openings: pg_sys::Oid) {
    // SAFETY: queues a relcache invalidation of a relation by oid, sent at commit; an oid of no relation invalidates nothing.
    unsafe { pg_sys::CacheInvalidateRelcacheByRelid(openings) };
}

/// How many times this backend has loaded the openings map (for tests and diagnostics).
#[pg_extern(volatile, parallel_restricted, sql = false)]
fn openings_cache_loads() -> i64 {
    LOADS.load(Ordering::Relaxed) as i64
}

/// The partial FEN after a movetext such as `1. e4 e5 2. Nf3` (the `pgn` column of the
/// lichess files).
#[pg_extern(immutable, strict, parallel_safe)]
fn opening_partial_fen(pgn: &str) -> String {
    core_opening_fen(pgn).unwrap_or_else(|e| crate::error::raise_core(&e))
}

/// Loads the text of one or more lichess openings TSV files into `openings`: inserts new
/// positions, updates the ECO code and name of known ones. Returns the number of lines loaded.
#[pg_extern(volatile, strict, parallel_unsafe, sql = false)]
fn load_lichess_openings(tsv: &str) -> i64 {
    crate::trigger::writes_allowed("load_lichess_openings()");
    let openings = opening_columns(tsv).unwrap_or_else(|e| crate::error::raise_core(&e));
    let n = openings.partial_fen.len() as i64;
    if n == 0 {
        return 0;
    }
    Spi::run_with_args(
        &crate::security::qualify(
            "INSERT INTO @extschema@.openings (eco, name, partial_fen)
             SELECT e, n, f FROM unnest($1::text[], $2::text[], $3::text[]) AS t(e, n, f)
             ON CONFLICT (partial_fen) DO UPDATE SET eco = EXCLUDED.eco, name = EXCLUDED.name",
        ),
        &[
            openings.eco.into(),
            openings.name.into(),
            openings.partial_fen.into(),
        ],
    )
    .unwrap_or_else(|e| internal(e));
    n
}
