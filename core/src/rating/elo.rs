//! The plain Elo model: logistic expectation on a 400-point scale and a fixed-K update.

use super::error::{finite, result_finite, score01, RatingError, Result};

/// Expected score of a player rated `rating` against `opponent`:
/// `1 / (1 + 10^((opponent - rating) / 400))`. Both ratings must be finite.
///
/// Written as a logistic of the natural exponent so that huge gaps saturate to exactly 0 or 1
/// instead of overflowing.
#[inline]
pub fn expected(rating: f64, opponent: f64) -> Result<f64> {
    finite("rating", rating)?;
    finite("opponent rating", opponent)?;
    Ok(expected_unchecked(rating, opponent))
}

/// [`expected`] without the checks, for callers that validated their inputs already.
#[inline]
pub fn expected_unchecked(rating: f64, opponent: f64) -> f64 {
    // 10^(d/400) = e^(d * ln10 / 400)
    const LN10_OVER_400: f64 = std::f64::consts::LN_10 / 400.0;
    1.0 / (1.0 + ((opponent - rating) * LN10_OVER_400).exp())
}

/// New rating after one game (or a sum of games): `rating + k * (score - expected)`.
/// `score` must lie in [0, 1] and `k` be finite and non-negative.
#[inline]
pub fn update(rating: f64, opponent: f64, score: f64, k: f64) -> Result<f64> {
    let e = expected(rating, opponent)?;
    score01("score", score)?;
    finite("k", k)?;
    if k < 0.0 {
        return Err(RatingError::invalid(format!(
            "k must not be negative, got {k}"
        )));
    }
    result_finite("new rating", rating + k * (score - e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rating::error::RatingErrorKind;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() <= eps
    }

    #[test]
    fn expected_matches_the_logistic_table() {
        // Elo's logistic curve: a 400-point edge is 10:1 odds, 100 points ≈ 0.64.
        assert_eq!(expected(1500.0, 1500.0).unwrap(), 0.5);
        assert!(close(expected(1900.0, 1500.0).unwrap(), 10.0 / 11.0, 1e-15));
        assert!(close(expected(1500.0, 1900.0).unwrap(), 1.0 / 11.0, 1e-15));
        assert!(close(expected(1600.0, 1500.0).unwrap(), 0.640_065, 1e-6));
        // Wikipedia "Elo rating system" worked example: 1613 vs 1609 → 0.506.
        assert!(close(expected(1613.0, 1609.0).unwrap(), 0.506, 5e-4));
        // symmetry
        let a = expected(1713.0, 1388.0).unwrap();
        let b = expected(1388.0, 1713.0).unwrap();
        assert!(close(a + b, 1.0, 1e-15));
    }

    #[test]
    fn wikipedia_five_game_example() {
        // en.wikipedia.org "Elo rating system", mathematical details: a 1613 player scores
        // 0, ½, 1, 1, 0 against 1609, 1477, 1388, 1586, 1720; expected 2.867, K = 32 → 1601.
        let games = [
            (1609.0, 0.0),
            (1477.0, 0.5),
            (1388.0, 1.0),
            (1586.0, 1.0),
            (1720.0, 0.0),
        ];
        let e: f64 = games
            .iter()
            .map(|&(o, _)| expected(1613.0, o).unwrap())
            .sum();
        assert!(close(e, 2.867, 5e-4));
        let delta: f64 = games
            .iter()
            .map(|&(o, s)| update(1613.0, o, s, 32.0).unwrap() - 1613.0)
            .sum();
        assert_eq!((1613.0 + delta).round(), 1601.0);
    }

    #[test]
    fn expected_saturates_instead_of_overflowing() {
        assert_eq!(expected(0.0, 1e300).unwrap(), 0.0);
        assert_eq!(expected(1e300, 0.0).unwrap(), 1.0);
        assert_eq!(
            expected(f64::NAN, 0.0).unwrap_err().kind,
            RatingErrorKind::OutOfRange
        );
        assert_eq!(
            expected(0.0, f64::INFINITY).unwrap_err().kind,
            RatingErrorKind::OutOfRange
        );
    }

    #[test]
    fn update_fixed_k() {
        // Equal players, K = 32: a win gains 16, a loss costs 16, a draw changes nothing.
        assert!(close(
            update(1500.0, 1500.0, 1.0, 32.0).unwrap(),
            1516.0,
            1e-12
        ));
        assert!(close(
            update(1500.0, 1500.0, 0.0, 32.0).unwrap(),
            1484.0,
            1e-12
        ));
        assert!(close(
            update(1500.0, 1500.0, 0.5, 32.0).unwrap(),
            1500.0,
            1e-12
        ));
        // 10:1 favourite wins with K = 22: gains 22 * (1 - 10/11) = 2.
        assert!(close(
            update(1900.0, 1500.0, 1.0, 22.0).unwrap(),
            1902.0,
            1e-12
        ));
        assert_eq!(
            update(1500.0, 1500.0, 1.5, 32.0).unwrap_err().kind,
            RatingErrorKind::InvalidParameter
        );
        assert_eq!(
            update(1500.0, 1500.0, 1.0, -1.0).unwrap_err().kind,
            RatingErrorKind::InvalidParameter
        );
        assert_eq!(
            update(1500.0, 1500.0, 1.0, f64::NAN).unwrap_err().kind,
            RatingErrorKind::OutOfRange
        );
        assert_eq!(
            update(1.5e308, 1.5e308, 1.0, 1e308).unwrap_err().kind,
            RatingErrorKind::OutOfRange
        );
    }
}
