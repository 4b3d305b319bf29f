//! The pure core of pg_rating: game results, clocks, chess rules, rating maths and
//! tournament logic as plain Rust. Nothing here knows about PostgreSQL, so every rule
//! is tested with a fast `cargo test -p pg_rating_core` and can be fuzzed or benchmarked
//! on its own; the `pg_rating` crate only converts types and reports errors.
#![forbid(unsafe_code)]

pub mod amid_a_write;
pub mod chess;
pub mod clock;
pub mod columns;
pub mod error;
pub mod interrupt;
pub mod ledger;
pub mod quote;
pub mod ranking;
pub mod rating;
pub mod result;
#[cfg(test)]
mod robustness_tests;
pub mod svg;
#[cfg(test)]
mod test_rng;
pub mod text_order;
pub mod tournament;
pub mod type_oid;
