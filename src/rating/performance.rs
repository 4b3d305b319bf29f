//! performance_rating.

use pg_rating_core::rating::performance;
use pgrx::prelude::*;

use super::{check, elements};

extension_sql_file!(
    "../../sql/rating_performance.sql",
    name = "rating_performance",
    requires = [performance_rating]
);

#[pg_extern(immutable, strict, parallel_safe)]
fn performance_rating(opponent_ratings: Array<'_, f64>, score: f64) -> f64 {
    check(performance::performance_rating(
        &elements(&opponent_ratings, "opponent rating"),
        score,
    ))
}
