//! One way to raise an SQL error from the glue: a precise SQLSTATE and a message. The core's
//! errors carry their class (`pg_rating_core::error`); this is the one place that turns a class
//! into PostgreSQL's error code, and that cuts long inputs quoted in a message
//! (`pg_rating_core::error::cut_message`). The rules every function applies to its inputs before
//! its work are here too: arrays of one dimension ([`require_one_dimension`]), and a long
//! computation of the core that a cancel stops ([`cancellable`]).

use pg_rating_core::error::{cut_message, Classified, ErrorClass};
use pgrx::pg_sys;
use pgrx::pg_sys::panic::ErrorReport;
use pgrx::{PgLogLevel, PgSqlErrorCode};

/// Raises an ERROR with the given SQLSTATE; never returns. A quoted value longer than
/// `pg_rating_core::error::SHOWN_CHARS` characters is cut in the message.
pub fn raise(code: PgSqlErrorCode, message: impl Into<String>) -> ! {
    let message = cut_message(&message.into()).into_owned();
    ErrorReport::new(code, message, "pg_rating").report(PgLogLevel::ERROR);
    unreachable!("an ERROR report does not return")
}

/// Refuses (2202E) argument `argno` of the call when it is an array of more than one dimension
/// (see [`one_dimension`]). A NULL argument passes (the function decides about NULL).
///
/// # Safety
/// `fcinfo` is the call's information and argument `argno` is an array.
pub unsafe fn require_one_dimension(fcinfo: pg_sys::FunctionCallInfo, argno: usize, what: &str) {
    // SAFETY: the caller's `fcinfo` is this call's and argument `argno` is an array: it is detoasted before its header is read.
    unsafe {
        let Some(raw) = pgrx::fcinfo::pg_getarg_datum(fcinfo, argno) else {
            return;
        };
        let value = raw.cast_mut_ptr::<pg_sys::varlena>();
        let header = if pgrx::varatt_is_4b_u(value) {
            value as *const pg_sys::ArrayType
        } else {
            // (compressed, stored apart or with a short header) the header is enough: ndim is
            // its second field
            pg_sys::pg_detoast_datum_slice(value, 0, 16) as *const pg_sys::ArrayType
        };
        one_dimension(header, what);
    }
}

/// [`require_one_dimension`] of the call's array arguments from `first` on, named `names`, in
/// their order.
///
/// # Safety
/// `fcinfo` is the call's information and arguments `first..first + names.len()` are arrays.
pub unsafe fn require_lists(fcinfo: pg_sys::FunctionCallInfo, first: usize, names: &[&str]) {
    for (i, name) in names.iter().enumerate() {
        // SAFETY: the caller's `fcinfo` is this call's and argument `first + i` is an array.
        unsafe { require_one_dimension(fcinfo, first + i, name) };
    }
}

/// Refuses (2202E) an array of more than one dimension: every function taking arrays reads them
/// as lists, and would read `'{{1,2},{3,4}}'` as the list of four. The one rule of array
/// arguments, for functions that detoast their array themselves.
///
/// # Safety
/// `arr` points to an array's header (detoasted).
pub unsafe fn one_dimension(arr: *const pg_sys::ArrayType, what: &str) {
    // SAFETY: the caller's `arr` points to a detoasted array header.
    if unsafe { (*arr).ndim } > 1 {
        // 2202E, array_subscript_error (pgrx names the code by its other name)
        raise(
            PgSqlErrorCode::ERRCODE_ARRAY_ELEMENT_ERROR,
            format!("{what} must be a one-dimensional array"),
        );
    }
}

/// Lets a cancel or `statement_timeout` stop a long computation of the core: sets the core's
/// interrupt hook (`pg_rating_core::interrupt`) to PostgreSQL's check for interrupts, once per
/// backend, as the library loads (`_PG_init`), so that no path into the core runs without it.
pub fn cancellable() {
    fn check() {
        pgrx::check_for_interrupts!();
    }
    pg_rating_core::interrupt::set_hook(check);
}

/// An error that only a bug of pg_rating or a damaged table can cause (XX000).
pub fn internal(e: impl std::fmt::Display) -> ! {
    raise(PgSqlErrorCode::ERRCODE_INTERNAL_ERROR, e.to_string())
}

/// The error code of a core error (for a message of the glue's own around it).
pub fn code(e: &impl Classified) -> PgSqlErrorCode {
    match e.class() {
        ErrorClass::InvalidText => PgSqlErrorCode::ERRCODE_INVALID_TEXT_REPRESENTATION,
        ErrorClass::InvalidParameter => PgSqlErrorCode::ERRCODE_INVALID_PARAMETER_VALUE,
        ErrorClass::OutOfRange => PgSqlErrorCode::ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
        ErrorClass::ArrayLength => PgSqlErrorCode::ERRCODE_ARRAY_ELEMENT_ERROR,
        ErrorClass::NullValue => PgSqlErrorCode::ERRCODE_NULL_VALUE_NOT_ALLOWED,
        ErrorClass::ProgramLimit => PgSqlErrorCode::ERRCODE_PROGRAM_LIMIT_EXCEEDED,
        ErrorClass::RuleViolation => PgSqlErrorCode::ERRCODE_CHECK_VIOLATION,
        ErrorClass::PrerequisiteState => PgSqlErrorCode::ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
        ErrorClass::DatatypeMismatch => PgSqlErrorCode::ERRCODE_DATATYPE_MISMATCH,
        ErrorClass::DatetimeOverflow => PgSqlErrorCode::ERRCODE_DATETIME_FIELD_OVERFLOW,
        ErrorClass::InvalidForeignKey => PgSqlErrorCode::ERRCODE_INVALID_FOREIGN_KEY,
        ErrorClass::FeatureNotSupported => PgSqlErrorCode::ERRCODE_FEATURE_NOT_SUPPORTED,
        ErrorClass::Restricted => PgSqlErrorCode::ERRCODE_RESTRICT_VIOLATION,
        ErrorClass::UndefinedColumn => PgSqlErrorCode::ERRCODE_UNDEFINED_COLUMN,
        ErrorClass::UniqueViolation => PgSqlErrorCode::ERRCODE_UNIQUE_VIOLATION,
        ErrorClass::InsufficientPrivilege => PgSqlErrorCode::ERRCODE_INSUFFICIENT_PRIVILEGE,
        ErrorClass::ReservedName => PgSqlErrorCode::ERRCODE_RESERVED_NAME,
        ErrorClass::Internal => PgSqlErrorCode::ERRCODE_INTERNAL_ERROR,
    }
}

/// Raises a core error: its message, the SQLSTATE of its class.
pub fn raise_core(e: &impl Classified) -> ! {
    raise(code(e), e.to_string())
}

#[cfg(any(test, feature = "pg_test"))]
#[pgrx::pg_schema]
mod tests {
    use pgrx::prelude::*;

    /// The core's checks reach PostgreSQL's in any backend, whatever ran before: the hook is
    /// set as the library loads.
    #[pg_test]
    fn a_cancel_stops_the_core_at_its_next_check() {
        // SAFETY: what a cancel request's signal handler sets, on the backend's thread; the
        // check below processes it (and clears them).
        unsafe {
            pg_sys::QueryCancelPending = 1;
            pg_sys::InterruptPending = 1;
        }
        let raised = PgTryBuilder::new(|| {
            pg_rating_core::interrupt::check();
            None
        })
        .catch_others(|e| match e {
            // (raised by PostgreSQL's check)
            pg_sys::panic::CaughtError::PostgresError(r) => Some(r.sql_error_code()),
            _ => None,
        })
        .execute();
        // SAFETY: as above; a check that ran no hook left the request pending.
        let left = unsafe { pg_sys::QueryCancelPending };
        // SAFETY: as above.
        unsafe {
            pg_sys::QueryCancelPending = 0;
            pg_sys::InterruptPending = 0;
        }
        assert_eq!(left, 0, "the core's check left the cancel pending");
        assert_eq!(raised, Some(PgSqlErrorCode::ERRCODE_QUERY_CANCELED));
    }
}
