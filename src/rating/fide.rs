//! fide_expected, fide_k_factor, fide_rating_change, fide_tpr, fide_ptp.

use pg_rating_core::rating::fide;
use pgrx::pg_sys;
use pgrx::prelude::*;

use super::{check, elements};
use crate::error::{require_lists, require_one_dimension};

extension_sql_file!(
    "../../sql/rating_fide.sql",
    name = "rating_fide",
    requires = [
        fide_expected,
        fide_k_factor,
        fide_rating_change,
        fide_tpr,
        fide_ptp
    ]
);

#[pg_extern(immutable, strict, parallel_safe)]
fn fide_expected(rating: i32, opponent: i32) -> f64 {
    fide::expected(rating, opponent)
}

/// Not strict: `age` and `reached_2400` may be NULL (unknown: no junior rule, never 2400);
/// a NULL rating or game count gives NULL.
#[pg_extern(immutable, parallel_safe)]
fn fide_k_factor(
    rating: Option<i32>,
    rated_games: Option<i32>,
    age: default!(Option<i32>, "NULL"),
    reached_2400: default!(Option<bool>, false),
) -> Option<i32> {
    let (rating, games) = (rating?, rated_games?);
    Some(check(fide::k_factor_if_known(
        rating,
        games,
        age,
        reached_2400,
    )))
}

#[pg_extern(immutable, strict, parallel_safe)]
fn fide_rating_change(
    rating: i32,
    k: i32,
    opponents: Array<'_, i32>,
    scores: Array<'_, f64>,
    fcinfo: pg_sys::FunctionCallInfo,
) -> i32 {
    // SAFETY: this call's fcinfo; arguments 2 and 3 are arrays.
    unsafe { require_lists(fcinfo, 2, &["opponents", "scores"]) };
    let o = elements(&opponents, "opponent rating");
    let s = elements(&scores, "score");
    check(fide::rating_change(rating, k, &o, &s))
}

#[pg_extern(immutable, strict, parallel_safe)]
fn fide_tpr(opponent_ratings: Array<'_, i32>, score: f64, fcinfo: pg_sys::FunctionCallInfo) -> i32 {
    // SAFETY: this call's fcinfo; argument 0 is an array.
    unsafe { require_one_dimension(fcinfo, 0, "opponent_ratings") };
    check(fide::tpr(
        &elements(&opponent_ratings, "opponent rating"),
        score,
    ))
}

#[pg_extern(immutable, strict, parallel_safe)]
fn fide_ptp(opponent_ratings: Array<'_, i32>, score: f64, fcinfo: pg_sys::FunctionCallInfo) -> i32 {
    // SAFETY: this call's fcinfo; argument 0 is an array.
    unsafe { require_one_dimension(fcinfo, 0, "opponent_ratings") };
    check(fide::ptp(
        &elements(&opponent_ratings, "opponent rating"),
        score,
    ))
}
