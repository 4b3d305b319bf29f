//! `game_result` and `clock_settings`: the domains live in sql/types.sql; this file holds the
//! Rust functions that read them, and the conversions several glue files share (jsonb as text,
//! intervals, the elements of an array, a value kept per call site).

use pg_rating_core::clock::{Clock, Interval as CoreInterval};
use pg_rating_core::result::GameResult;
use pgrx::prelude::*;
use pgrx::{composite_type, default, pg_sys, PgSqlErrorCode};

use crate::error::raise;

extension_sql_file!(
    "../sql/types.sql",
    name = "types",
    requires = [game_result_is_valid]
);

extension_sql_file!(
    "../sql/types_functions.sql",
    name = "types_functions",
    requires = ["types", game_result_is_valid, game_score, clock_base_time]
);

/// The check behind the `game_result` domain.
#[pg_extern(immutable, strict, parallel_safe)]
fn game_result_is_valid(game_end_type: &str, game_end_reason: &str) -> bool {
    GameResult::parse(game_end_type, game_end_reason).is_ok()
}

/// Reads a `game_result` value; the domain has already checked it, but a value built from the
/// base type (or a corrupted row) is reported rather than trusted.
pub fn read_game_result(result: &PgHeapTuple<'_, impl pgrx::WhoAllocated>) -> GameResult {
    let field = |name: &str| result.get_by_name::<&str>(name).ok().flatten();
    GameResult::parse_stored(field("game_end_type"), field("game_end_reason"))
        .unwrap_or_else(|e| crate::error::raise_core(&e))
}

/// 1, 0.5 or 0: the score of the game for white, or for black when `for_white` is false.
#[pg_extern(immutable, strict, parallel_safe, requires = ["types"])]
fn game_score(result: composite_type!("game_result"), for_white: default!(bool, true)) -> f64 {
    read_game_result(&result).score(for_white)
}

/// Reads a `clock_settings` value: `None` when the clock is unset.
pub fn read_clock(clock: &PgHeapTuple<'_, impl pgrx::WhoAllocated>) -> Option<Clock> {
    let field = |name: &str| {
        clock
            .get_by_name::<Interval>(name)
            .ok()
            .flatten()
            .map(to_core)
    };
    Some(Clock {
        starting_time: field("starting_time")?,
        move_increase: field("move_increase")?,
    })
}

/// The text of a jsonb argument (read as text: pgrx's own reading fails on `1e400` with XX000).
pub fn jsonb_text(v: &pgrx::AnyElement) -> String {
    // SAFETY: the argument is a non-NULL jsonb (the function's declared type).
    let text: &std::ffi::CStr = unsafe {
        pgrx::direct_function_call(pg_sys::jsonb_out, &[Some(v.datum())])
            .unwrap_or_else(|| crate::error::internal("jsonb_out gave NULL"))
    };
    text.to_string_lossy().into_owned()
}

/// The elements of a detoasted array of a variable-length type whose alignment is `align`
/// (`TYPALIGN_INT`, `TYPALIGN_DOUBLE`), without copying them: each element's datum, and whether
/// it is NULL.
///
/// # Safety
/// `arr` is a detoasted array of such a type; the slices live in the current memory context.
pub unsafe fn array_datums<'a>(
    arr: *mut pg_sys::ArrayType,
    align: u8,
) -> (&'a [pg_sys::Datum], &'a [bool]) {
    let (mut datums, mut nulls, mut n) = (std::ptr::null_mut(), std::ptr::null_mut(), 0);
    // SAFETY: the caller's `arr` is a detoasted array of a variable-length type aligned by `align`;
    // deconstruct_array pallocs `n` datums and flags, pointing into the array's own data.
    unsafe {
        let elem_type = (*arr).elemtype;
        let align = align as std::ffi::c_char;
        pg_sys::deconstruct_array(
            arr,
            elem_type,
            -1,
            false,
            align,
            &mut datums,
            &mut nulls,
            &mut n,
        );
        let n = n.max(0) as usize;
        (
            std::slice::from_raw_parts(datums, n),
            std::slice::from_raw_parts(nulls, n),
        )
    }
}

/// The bytes of a text-like datum without its header (detoasted first when it is compressed or
/// stored apart; a plain one is read where it is, without a call into PostgreSQL: a rebuild reads
/// millions).
///
/// # Safety
/// `datum` is a non-NULL datum of a varlena type; the bytes live as long as it (or its detoasted
/// copy, in the current memory context).
pub unsafe fn text_bytes<'a>(datum: pg_sys::Datum) -> &'a [u8] {
    // SAFETY: the caller's `datum` is a varlena, read by its own (detoasted) header; the test is
    // pg_detoast_datum_packed's own (VARATT_IS_EXTERNAL or VARATT_IS_COMPRESSED).
    unsafe {
        let stored = datum.cast_mut_ptr::<pg_sys::varlena>();
        let v = if pgrx::varlena::varatt_is_1b_e(stored) || pgrx::varlena::varatt_is_4b_c(stored) {
            pg_sys::pg_detoast_datum_packed(stored)
        } else {
            stored
        };
        std::slice::from_raw_parts(
            pgrx::vardata_any(v) as *const u8,
            pgrx::varsize_any_exhdr(v),
        )
    }
}

/// A value made once per call site (a result's tuple descriptor, a layout checked): kept in
/// `fn_extra`, made and allocated in `fn_mcxt`.
///
/// # Safety
/// `fcinfo` is the call's information, and its function keeps nothing else in `fn_extra`.
pub unsafe fn per_call_site<T: Copy>(
    fcinfo: pg_sys::FunctionCallInfo,
    make: impl FnOnce() -> T,
) -> T {
    // SAFETY: the caller's `fcinfo` is this call's; `fn_extra` is NULL or the slot written here
    // for the same `T` (the caller's function keeps nothing else there), in `fn_mcxt`, which
    // lives as long as the call site.
    unsafe {
        let flinfo = (*fcinfo).flinfo;
        if (*flinfo).fn_extra.is_null() {
            let old = pg_sys::MemoryContextSwitchTo((*flinfo).fn_mcxt);
            let value = make();
            let slot = pg_sys::palloc(std::mem::size_of::<T>()) as *mut T;
            slot.write(value);
            (*flinfo).fn_extra = slot.cast();
            pg_sys::MemoryContextSwitchTo(old);
        }
        *((*flinfo).fn_extra as *const T)
    }
}

/// A timestamp of the core's microseconds; one out of PostgreSQL's range is a bug (XX000).
pub fn timestamp(micros: i64) -> TimestampWithTimeZone {
    TimestampWithTimeZone::try_from(micros)
        .unwrap_or_else(|e| crate::error::internal(format!("{e:?}")))
}

/// An interval as the core's.
pub fn to_core(i: Interval) -> CoreInterval {
    CoreInterval {
        months: i.months(),
        days: i.days(),
        micros: i.micros(),
    }
}

fn interval_out_of_range() -> ! {
    raise(
        PgSqlErrorCode::ERRCODE_DATETIME_FIELD_OVERFLOW,
        "interval out of range in clock_base_time",
    )
}

/// `starting_time + extra_move_multiplier * move_increase`, NULL when the clock is unset.
#[pg_extern(immutable, strict, parallel_safe, requires = ["types"])]
fn clock_base_time(
    clock: composite_type!("clock_settings"),
    extra_move_multiplier: i32,
) -> Option<Interval> {
    let base = read_clock(&clock)?
        .base_time(extra_move_multiplier)
        .unwrap_or_else(|_| interval_out_of_range());
    Some(
        Interval::new(base.months, base.days, base.micros)
            .unwrap_or_else(|_| interval_out_of_range()),
    )
}

#[cfg(any(test, feature = "pg_test"))]
#[pg_schema]
mod tests {
    use pgrx::prelude::*;

    fn score(result: &str, for_white: bool) -> f64 {
        Spi::get_one::<f64>(&format!(
            "SELECT game_score('{result}'::game_result, {for_white})"
        ))
        .unwrap()
        .unwrap()
    }

    #[pg_test]
    fn game_score_for_both_sides() {
        assert_eq!(score("(1-0,CHECKMATE)", true), 1.0);
        assert_eq!(score("(1-0,CHECKMATE)", false), 0.0);
        assert_eq!(score("(0-1,TIMEOUT)", true), 0.0);
        assert_eq!(score("(0-1,TIMEOUT)", false), 1.0);
        assert_eq!(score("(1/2-1/2,STALEMATE)", true), 0.5);
        assert_eq!(score("(1/2-1/2,STALEMATE)", false), 0.5);
        let default_side = Spi::get_one::<f64>("SELECT game_score('(0-1,RESIGNATION)')")
            .unwrap()
            .unwrap();
        assert_eq!(default_side, 0.0);
    }

    #[pg_test]
    fn game_score_of_null_is_null() {
        assert_eq!(
            Spi::get_one::<f64>("SELECT game_score(NULL)").unwrap(),
            None
        );
    }

    #[pg_test]
    #[should_panic(expected = "violates check constraint \"game_result_valid\"")]
    fn game_score_cannot_receive_an_invalid_base_type_value() {
        Spi::run("SELECT game_score(('2-0','TIMEOUT')::game_result_type)").unwrap();
    }

    #[pg_test]
    fn clock_base_time_adds_weighted_increment() {
        let base = Spi::get_one::<Interval>(
            "SELECT clock_base_time('(3 minutes, 2 seconds)'::clock_settings, 60)",
        )
        .unwrap()
        .unwrap();
        assert_eq!(base, Interval::from_minutes(5));
    }

    #[pg_test]
    fn clock_base_time_of_unset_clock_is_null() {
        let unset =
            Spi::get_one::<Interval>("SELECT clock_base_time('(,)'::clock_settings, 60)").unwrap();
        assert_eq!(unset, None);
    }

    #[pg_test]
    #[should_panic(expected = "interval out of range")]
    fn clock_base_time_overflow_is_an_error() {
        Spi::run("SELECT clock_base_time('(1 day, 100000000 days)'::clock_settings, 1000)")
            .unwrap();
    }
}
