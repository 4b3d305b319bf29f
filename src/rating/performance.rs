//! performance_rating.

use pg_rating_core::rating::performance;
use pgrx::pg_sys;
use pgrx::prelude::*;

use super::{check, elements};
use crate::error::require_one_dimension;

extension_sql_file!(
    "../../sql/rating_performance.sql",
    name = "rating_performance",
    requires = [performance_rating]
);

#[pg_extern(immutable, strict, parallel_safe)]
fn performance_rating(
    opponent_ratings: Array<'_, f64>,
    score: f64,
    fcinfo: pg_sys::FunctionCallInfo,
) -> f64 {
    // SAFETY: this call's fcinfo; argument 0 is an array.
    unsafe { require_one_dimension(fcinfo, 0, "opponent_ratings") };
    check(performance::performance_rating(
        &elements(&opponent_ratings, "opponent rating"),
        score,
    ))
}
