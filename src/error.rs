//! One way to raise an SQL error from the glue: a precise SQLSTATE and a message.

use pgrx::pg_sys::panic::ErrorReport;
use pgrx::{PgLogLevel, PgSqlErrorCode};

/// Raises an ERROR with the given SQLSTATE; never returns.
pub fn raise(code: PgSqlErrorCode, message: impl Into<String>) -> ! {
    ErrorReport::new(code, message.into(), "pg_rating").report(PgLogLevel::ERROR);
    unreachable!("an ERROR report does not return")
}
