//! One way to raise an SQL error from the glue: a precise SQLSTATE and a message.

use pgrx::pg_sys::panic::ErrorReport;
use pgrx::{PgLogLevel, PgSqlErrorCode};

/// Raises an ERROR with the given SQLSTATE; never returns.
pub fn raise(code: PgSqlErrorCode, message: impl Into<String>) -> ! {
    raise_report(ErrorReport::new(code, message.into(), "pg_rating"))
}

/// Raises an ERROR with a DETAIL line.
pub fn raise_with_detail(
    code: PgSqlErrorCode,
    message: impl Into<String>,
    detail: impl Into<String>,
) -> ! {
    raise_report(ErrorReport::new(code, message.into(), "pg_rating").set_detail(detail))
}

fn raise_report(report: ErrorReport) -> ! {
    report.report(PgLogLevel::ERROR);
    unreachable!("an ERROR report does not return")
}
