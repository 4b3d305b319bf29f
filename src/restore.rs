//! Restoring a dump. pg_dump's scripts and pg_restore load data with `row_security = off`
//! (applications leave it on): the tables come back row for row, so the triggers that derive
//! rows (a user's Random Chess account, the rating history) must not derive them again, or the
//! restore would collide with the very rows it is about to load.

use pgrx::pg_sys;

/// True while a dump is being restored into this session.
pub fn restoring() -> bool {
    // SAFETY: reading a GUC variable of this backend.
    unsafe { !pg_sys::row_security }
}
