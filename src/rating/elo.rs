//! elo_expected, elo_update.

use pg_rating_core::rating::elo;
use pgrx::prelude::*;

use super::check;

extension_sql_file!(
    "../../sql/rating_elo.sql",
    name = "rating_elo",
    requires = [elo_expected, elo_update]
);

#[pg_extern(immutable, strict, parallel_safe)]
fn elo_expected(rating: f64, opponent: f64) -> f64 {
    check(elo::expected(rating, opponent))
}

#[pg_extern(immutable, strict, parallel_safe)]
fn elo_update(rating: f64, opponent: f64, score: f64, k: f64) -> f64 {
    check(elo::update(rating, opponent, score, k))
}
