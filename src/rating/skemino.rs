//! skemino_k, skemino_expected, skemino_update, skemino_level.

use pg_rating_core::rating::skemino;
use pgrx::composite_type;
use pgrx::pg_sys;
use pgrx::prelude::*;

use super::{check, composite, out_descs, ResultShape};

extension_sql_file!("../../sql/rating_types.sql", name = "rating_pair_type");

extension_sql_file!(
    "../../sql/rating_skemino.sql",
    name = "rating_skemino",
    requires = [
        "rating_pair_type",
        skemino_k,
        skemino_expected,
        skemino_update,
        skemino_level
    ]
);

#[pg_extern(immutable, strict, parallel_safe)]
fn skemino_k(a: f64, b: f64) -> f64 {
    check(skemino::k(a, b))
}

#[pg_extern(immutable, strict, parallel_safe)]
fn skemino_expected(a: f64, b: f64) -> f64 {
    check(skemino::expected(a, b))
}

#[pg_extern(immutable, strict, parallel_safe, requires = ["rating_pair_type"])]
fn skemino_update(
    a: f64,
    b: f64,
    score: f64,
    fcinfo: pg_sys::FunctionCallInfo,
) -> composite_type!('static, "rating_pair") {
    let (na, nb) = check(skemino::update(a, b, score));
    // SAFETY: `fcinfo` is this call's; its result type is rating_pair.
    let desc = unsafe { out_descs(fcinfo, ResultShape::Rating) }.rating;
    // SAFETY: `desc` is the descriptor of rating_pair (two float8 attributes), matching the two datums.
    unsafe { composite(desc, [na.into_datum(), nb.into_datum()], "rating_pair") }
}

#[pg_extern(immutable, strict, parallel_safe)]
fn skemino_level(rating: f64) -> &'static str {
    check(skemino::level(rating))
}
