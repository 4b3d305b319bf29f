//! One way to raise an SQL error from the glue: a precise SQLSTATE and a message. The core's
//! errors carry their class (`pg_rating_core::error`); this is the one place that turns a class
//! into PostgreSQL's error code.

use pg_rating_core::error::{Classified, ErrorClass};
use pgrx::pg_sys::panic::ErrorReport;
use pgrx::{PgLogLevel, PgSqlErrorCode};

/// Raises an ERROR with the given SQLSTATE; never returns.
pub fn raise(code: PgSqlErrorCode, message: impl Into<String>) -> ! {
    ErrorReport::new(code, message.into(), "pg_rating").report(PgLogLevel::ERROR);
    unreachable!("an ERROR report does not return")
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
    }
}

/// Raises a core error: its message, the SQLSTATE of its class.
pub fn raise_core(e: &impl Classified) -> ! {
    raise(code(e), e.to_string())
}
