//! SQL face of `pg_rating_core::rating`: Elo, FIDE, Skèmino, Glicko-2 and performance ratings.
//! Every function here converts arguments, calls the core and maps its error kinds to
//! SQLSTATEs; no rating maths lives in this crate.

mod elo;
mod fide;
mod glicko2;
mod performance;
mod skemino;

use std::borrow::Cow;

use pg_rating_core::rating::{RatingError, RatingErrorKind};
use pgrx::prelude::*;
use pgrx::pg_sys;
use pgrx::PgSqlErrorCode;

use crate::error::raise;

/// The SQLSTATE of each core error kind (DEVELOPERS.md: 22003 out of range / NaN / infinity,
/// 22023 invalid parameter value, 2202E mismatched array lengths).
pub(crate) fn sqlstate(kind: RatingErrorKind) -> PgSqlErrorCode {
    match kind {
        RatingErrorKind::OutOfRange | RatingErrorKind::NoConvergence => {
            PgSqlErrorCode::ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE
        }
        RatingErrorKind::InvalidParameter => PgSqlErrorCode::ERRCODE_INVALID_PARAMETER_VALUE,
        RatingErrorKind::LengthMismatch => PgSqlErrorCode::ERRCODE_ARRAY_ELEMENT_ERROR,
    }
}

/// Unwraps a core result or raises its error.
#[inline]
pub(crate) fn check<T>(r: Result<T, RatingError>) -> T {
    match r {
        Ok(v) => v,
        Err(e) => raise(sqlstate(e.kind), e.message),
    }
}

/// Raises 22004 for a NULL where a value is required (array elements, composite fields).
pub(crate) fn null_not_allowed(what: &str) -> ! {
    raise(PgSqlErrorCode::ERRCODE_NULL_VALUE_NOT_ALLOWED, format!("{what} must not be NULL"))
}

/// The elements of a float8[] without NULLs: borrowed from the array when it has no NULL
/// (no copy), otherwise a 22004 error naming `what`.
pub(crate) fn floats<'a>(a: &'a Array<'_, f64>, what: &str) -> Cow<'a, [f64]> {
    match a.as_slice() {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => Cow::Owned(a.iter().map(|v| v.unwrap_or_else(|| null_not_allowed(what))).collect()),
    }
}

/// The elements of a bigint[] without NULLs.
pub(crate) fn longs<'a>(a: &'a Array<'_, i64>, what: &str) -> Cow<'a, [i64]> {
    match a.as_slice() {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => Cow::Owned(a.iter().map(|v| v.unwrap_or_else(|| null_not_allowed(what))).collect()),
    }
}

/// The elements of an int[] without NULLs.
pub(crate) fn ints<'a>(a: &'a Array<'_, i32>, what: &str) -> Cow<'a, [i32]> {
    match a.as_slice() {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => Cow::Owned(a.iter().map(|v| v.unwrap_or_else(|| null_not_allowed(what))).collect()),
    }
}

/// Tuple descriptors of a composite result: `rating` is the result type itself (`Rating`), its
/// array element (`Array`), or the type of the first field of the result (`Pair`, whose own
/// descriptor is `pair`).
#[derive(Clone, Copy)]
pub(crate) struct OutDescs {
    pub(crate) rating: pg_sys::TupleDesc,
    pub(crate) pair: pg_sys::TupleDesc,
}

#[derive(Clone, Copy, PartialEq)]
pub(crate) enum Shape {
    Rating,
    Pair,
    Array,
}

/// The result's tuple descriptors, built once per call site in `fn_mcxt` and kept in `fn_extra`.
pub(crate) unsafe fn out_descs(fcinfo: pg_sys::FunctionCallInfo, shape: Shape) -> OutDescs {
    let flinfo = (*fcinfo).flinfo;
    if (*flinfo).fn_extra.is_null() {
        let old = pg_sys::MemoryContextSwitchTo((*flinfo).fn_mcxt);
        let ret = pg_sys::get_func_rettype((*flinfo).fn_oid);
        let desc = |oid: pg_sys::Oid| pg_sys::BlessTupleDesc(pg_sys::lookup_rowtype_tupdesc_copy(oid, -1));
        let descs = match shape {
            Shape::Rating => OutDescs { rating: desc(ret), pair: std::ptr::null_mut() },
            Shape::Array => OutDescs { rating: desc(pg_sys::get_element_type(ret)), pair: std::ptr::null_mut() },
            Shape::Pair => {
                let pair = desc(ret);
                let first = (*pair).attrs.as_ptr();
                OutDescs { rating: desc((*first).atttypid), pair }
            }
        };
        let slot = pg_sys::palloc(std::mem::size_of::<OutDescs>()) as *mut OutDescs;
        slot.write(descs);
        (*flinfo).fn_extra = slot.cast();
        pg_sys::MemoryContextSwitchTo(old);
    }
    *((*flinfo).fn_extra as *const OutDescs)
}

