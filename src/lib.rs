//! pg_rating: the PostgreSQL face of `pg_rating_core`. This crate converts types, reads and
//! writes tables, checks who acts and reports errors; rules belong in the core crate
//! (DEVELOPERS.md, "Layers", says which still live here).

// Every unsafe block says why it is sound (`cargo clippy -D warnings` in scripts/test.sh).
#![warn(clippy::undocumented_unsafe_blocks)]

::pgrx::pg_module_magic!(name, version);

/// Called once when a backend loads the library. pgrx's panic hook captures a Rust backtrace with
/// every error it catches and puts it in the error's DETAIL, which a client sees, when the server's
/// environment sets `RUST_BACKTRACE` (or `RUST_LIB_BACKTRACE`): `RUST_LIB_BACKTRACE=0` turns that
/// capture off, whatever the server was started with.
#[pgrx::pg_guard]
#[allow(non_snake_case)]
pub extern "C-unwind" fn _PG_init() {
    // (a backend runs one thread, so changing its environment races with nothing)
    std::env::set_var("RUST_LIB_BACKTRACE", "0");
    error::cancellable();
    trigger::settle_writers_mark_at_transaction_ends();
}

mod accounts;
mod apart;
mod bulk_insert;
mod bulk_replace;
mod chess;
mod columns;
mod compat;
mod error;
mod ffi;
mod games;
mod keyed;
mod ledger;
mod ranking;
mod rating;
mod relation;
mod restore;
mod rows;
mod security;
mod spi;
mod tournament;
mod trigger;
mod types;
mod writer_lock;

/// Hooks for `cargo pgrx test`.
#[cfg(test)]
pub mod pg_test {
    pub fn setup(_options: Vec<&str>) {}

    #[must_use]
    pub fn postgresql_conf_options() -> Vec<&'static str> {
        vec![]
    }
}

/// What the `#[pg_test]`s of several modules share.
#[cfg(any(test, feature = "pg_test"))]
mod test_support {
    use pgrx::prelude::*;

    /// The schema the engine is installed in (where its writers find their tables).
    pub fn engine_schema() -> String {
        Spi::get_one::<String>(
            "SELECT n.nspname::text FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
             WHERE e.extname = 'pg_rating'",
        )
        .unwrap()
        .unwrap()
    }
}
