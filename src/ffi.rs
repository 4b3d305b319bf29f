//! What every C-language function of the glue needs, whatever its subject (chess, ledgers,
//! triggers).

/// The V1 info record Postgres looks up for a C function.
macro_rules! finfo_v1 {
    ($name:ident) => {
        #[unsafe(no_mangle)]
        #[doc(hidden)]
        pub extern "C" fn $name() -> &'static ::pgrx::pg_sys::Pg_finfo_record {
            const V1: ::pgrx::pg_sys::Pg_finfo_record =
                ::pgrx::pg_sys::Pg_finfo_record { api_version: 1 };
            &V1
        }
    };
}
pub(crate) use finfo_v1;
