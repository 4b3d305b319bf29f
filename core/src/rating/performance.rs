//! Performance rating on the logistic Elo curve: the rating R at which the summed expected
//! score against the given opponents equals the actual score,
//! Σ 1/(1 + 10^((r_i − R)/400)) = S.
//!
//! The left side is strictly increasing in R, so the root is unique; it is found by Newton's
//! method safeguarded by a shrinking bracket, to full double precision (not by bisection over
//! a fixed range). The result is kept within [lowest opponent − 800, highest opponent + 800],
//! the span of FIDE's dp table: a zero score gives the lower end, a full score the upper end
//! (where the exact equation has no finite solution), and scores that would land outside are
//! clamped to it, which keeps the function monotone in the score.

use super::elo::expected_unchecked;
use super::error::{finite, RatingError, Result};

/// Distance beyond the extreme opponents at which results are clamped.
pub const MARGIN: f64 = 800.0;

/// Performance rating of a score `score` (0 ..= number of opponents) against `opponents`.
pub fn performance_rating(opponents: &[f64], score: f64) -> Result<f64> {
    if opponents.is_empty() {
        return Err(RatingError::invalid("at least one opponent is needed"));
    }
    let mut lowest = f64::INFINITY;
    let mut highest = f64::NEG_INFINITY;
    for &o in opponents {
        finite("opponent rating", o)?;
        lowest = lowest.min(o);
        highest = highest.max(o);
    }
    finite("score", score)?;
    let n = opponents.len() as f64;
    if score < 0.0 || score > n {
        return Err(RatingError::invalid(format!(
            "score must be between 0 and the number of opponents ({n}), got {score}"
        )));
    }
    let (mut lo, mut hi) = (lowest - MARGIN, highest + MARGIN);
    // f(R) = Σ E(R, r_i) − S, increasing; f'(R) = ln10/400 · Σ E(1 − E)
    let f = |r: f64| -> (f64, f64) {
        let mut sum = 0.0;
        let mut slope = 0.0;
        for &o in opponents {
            let e = expected_unchecked(r, o);
            sum += e;
            slope += e * (1.0 - e);
        }
        (sum - score, slope * std::f64::consts::LN_10 / 400.0)
    };
    if f(lo).0 >= 0.0 {
        return Ok(lo);
    }
    if f(hi).0 <= 0.0 {
        return Ok(hi);
    }
    // start from the mean opponent shifted by the Elo estimate of the average score
    let mean = opponents.iter().sum::<f64>() / n;
    let p = (score / n).clamp(1e-9, 1.0 - 1e-9);
    let mut r = (mean + 400.0 * (p / (1.0 - p)).log10()).clamp(lo, hi);
    for _ in 0..200 {
        let (fr, d) = f(r);
        if fr == 0.0 {
            return Ok(r);
        }
        if fr < 0.0 {
            lo = r;
        } else {
            hi = r;
        }
        let mut next = r - fr / d;
        if !(next > lo && next < hi) {
            // Newton left the bracket: bisect once (halves first: hi − lo may overflow)
            next = lo / 2.0 + hi / 2.0;
        }
        if (next - r).abs() <= 1e-12 * r.abs().max(1.0) || hi - lo <= 1e-12 * r.abs().max(1.0) {
            return Ok(next);
        }
        r = next;
    }
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rating::elo::expected;
    use crate::rating::error::RatingErrorKind;

    fn sum_expected(opps: &[f64], r: f64) -> f64 {
        opps.iter().map(|&o| expected(r, o).unwrap()).sum()
    }

    #[test]
    fn exact_root() {
        // half score against one opponent: exactly that opponent's rating
        assert!((performance_rating(&[1800.0], 0.5).unwrap() - 1800.0).abs() < 1e-9);
        // 10:1 odds are 400 points: one opponent, score 10/11
        assert!((performance_rating(&[1500.0], 10.0 / 11.0).unwrap() - 1900.0).abs() < 1e-9);
        // Wikipedia's 1613 player: 2.5 from 1609, 1477, 1388, 1586, 1720 — the defining property
        let opps = [1609.0, 1477.0, 1388.0, 1586.0, 1720.0];
        let r = performance_rating(&opps, 2.5).unwrap();
        assert!((sum_expected(&opps, r) - 2.5).abs() < 1e-12, "{r}");
        // 3 of 4 against equal opposition: 1500 + 400·log10(3) = 1690.85
        let r = performance_rating(&[1500.0; 4], 3.0).unwrap();
        assert!((r - (1500.0 + 400.0 * 3f64.log10())).abs() < 1e-9);
        // a wide field: the root is found to machine precision
        let field = [1200.0, 2700.0, 1950.0, 2300.0, 1500.0, 2100.0];
        for halves in 1..12 {
            let s = halves as f64 / 2.0;
            let r = performance_rating(&field, s).unwrap();
            assert!((sum_expected(&field, r) - s).abs() < 1e-9, "score {s}: {r}");
        }
    }

    #[test]
    fn zero_and_full_scores() {
        assert_eq!(performance_rating(&[1500.0, 1700.0], 0.0).unwrap(), 700.0);
        assert_eq!(performance_rating(&[1500.0, 1700.0], 2.0).unwrap(), 2500.0);
        // monotone up to the full score: 99.5 of 100 clamps to the same upper end
        let opps = [2000.0; 100];
        let near = performance_rating(&opps, 99.5).unwrap();
        let full = performance_rating(&opps, 100.0).unwrap();
        assert!(near <= full);
        assert_eq!(full, 2800.0);
    }

    #[test]
    fn opponents_at_the_ends_of_f64_give_a_finite_result() {
        // the bisection midpoint lo + (hi − lo)/2 overflowed to infinity here: Ok(inf) was returned
        let opps = [-1e308, 1e300, -f64::MAX];
        let r = performance_rating(&opps, 1.2886378520552861).unwrap();
        assert!(
            r.is_finite() && (-f64::MAX..=1e300 + MARGIN).contains(&r),
            "{r}"
        );
        let r = performance_rating(&[f64::MAX, -f64::MAX], 1.0).unwrap();
        assert_eq!(r, 0.0);
    }

    #[test]
    fn errors() {
        assert_eq!(
            performance_rating(&[], 0.0).unwrap_err().kind,
            RatingErrorKind::InvalidParameter
        );
        assert_eq!(
            performance_rating(&[1500.0], 1.5).unwrap_err().kind,
            RatingErrorKind::InvalidParameter
        );
        assert_eq!(
            performance_rating(&[1500.0], -0.5).unwrap_err().kind,
            RatingErrorKind::InvalidParameter
        );
        assert_eq!(
            performance_rating(&[f64::NAN], 0.5).unwrap_err().kind,
            RatingErrorKind::OutOfRange
        );
        assert_eq!(
            performance_rating(&[1500.0], f64::INFINITY)
                .unwrap_err()
                .kind,
            RatingErrorKind::OutOfRange
        );
    }
}
