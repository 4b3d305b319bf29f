//! Restoring a dump. pg_dump's scripts and pg_restore load data with `row_security = off`, as a
//! superuser (pg_rating's tables belong to the superuser who created the extension): the tables
//! come back row for row, so the triggers that derive rows (a user's Random Chess account, the
//! rating history, the standings) must not derive them again, and the rules of single rows were
//! checked when the rows were first written.
//!
//! Any role may set `row_security = off`; it counts as a restore only for a superuser (the role
//! in effect outside SECURITY DEFINER functions: a session's SET ROLE to an application role is
//! not one), so no setting an application can change switches a rule or a derived row off.

use pgrx::pg_sys;

/// True while a dump is being restored into this session.
pub fn restoring() -> bool {
    // SAFETY: reading a GUC variable of this backend, and the superuser flag of the outer role
    // (not the current one: the triggers run as the extension's owner).
    unsafe { !pg_sys::row_security && pg_sys::superuser_arg(pg_sys::GetOuterUserId()) }
}
