//! Skèmino Elo (seed 004): a K that falls with the mean rating of the two players,
//! `K = 160·e^(−R̄/721.35)`, and an expectation whose scale is `K² − K` instead of 400:
//! `E_A = 1 / (1 + 10^((R_B − R_A)/(K² − K)))`, update `R'_A = R_A + K·(S_A − E_A)`.
//!
//! Where the formula breaks down. `K² − K` is positive only while `K > 1`, i.e. while the mean
//! rating stays below `721.35·ln 160 ≈ 3660.98` ([`MAX_MEAN_RATING`]). At or above it the scale
//! is zero or negative (expectations flip or divide by zero), so every function reports an
//! out-of-range error (SQLSTATE 22003) there instead of clamping; for very negative means K
//! overflows and the same error is reported. A huge gap between the two ratings makes
//! `10^x` overflow: the expectation then saturates to exactly 0 or 1 (the limit of the
//! formula), which is a valid, finite result; it is never NaN.

use super::error::{finite, result_finite, score01, RatingError, Result};

/// The K formula's constants from the seed.
pub const K_MAX: f64 = 160.0;
pub const SCALE: f64 = 721.35;

/// The mean rating at which K reaches 1 and `K² − K` reaches 0: 721.35 · ln 160.
pub const MAX_MEAN_RATING: f64 = SCALE * 5.075_173_815_233_827; // ln 160

/// K for a game between ratings `a` and `b`, with the guard on `K² − K`.
pub fn k(a: f64, b: f64) -> Result<f64> {
    Ok(k_and_scale(a, b)?.0)
}

/// (K, K² − K), checked: both finite and the scale positive.
fn k_and_scale(a: f64, b: f64) -> Result<(f64, f64)> {
    finite("rating a", a)?;
    finite("rating b", b)?;
    let mean = a / 2.0 + b / 2.0;
    let k = K_MAX * (-mean / SCALE).exp();
    let scale = k * k - k;
    if !k.is_finite() || !scale.is_finite() {
        return Err(RatingError::out_of_range(format!(
            "Skèmino K overflows for a mean rating of {mean}"
        )));
    }
    if scale <= 0.0 {
        return Err(RatingError::out_of_range(format!(
            "Skèmino formula undefined for a mean rating of {mean}: K = {k:.6} makes K² − K ≤ 0 (the mean must stay below {:.2})",
            MAX_MEAN_RATING
        )));
    }
    Ok((k, scale))
}

/// `1 / (1 + 10^x)` written to saturate: x = ±huge gives exactly 0 or 1.
#[inline]
fn logistic10(x: f64) -> f64 {
    1.0 / (1.0 + (x * std::f64::consts::LN_10).exp())
}

/// Expected score of the player rated `a` against the player rated `b`.
pub fn expected(a: f64, b: f64) -> Result<f64> {
    let (_, scale) = k_and_scale(a, b)?;
    Ok(logistic10((b - a) / scale))
}

/// Both new ratings after a game in which `a` scored `score` (1 win, 0.5 draw, 0 loss) and
/// `b` scored `1 − score`. The changes are equal and opposite (zero-sum).
pub fn update(a: f64, b: f64, score: f64) -> Result<(f64, f64)> {
    let (k, scale) = k_and_scale(a, b)?;
    score01("score", score)?;
    let ea = logistic10((b - a) / scale);
    let delta = k * (score - ea);
    Ok((
        result_finite("new rating a", a + delta)?,
        result_finite("new rating b", b - delta)?,
    ))
}

/// The ten levels of the seed's classification table; `rating` below 1200 (including below
/// the table's 1000) is "Principiante", 2700 and above "Super Gran Maestro".
pub fn level(rating: f64) -> Result<&'static str> {
    finite("rating", rating)?;
    const LEVELS: [(f64, &str); 9] = [
        (1200.0, "Principiante"),
        (1400.0, "Dilettante Categoria D"),
        (1600.0, "Dilettante Categoria C"),
        (1800.0, "Dilettante Categoria B"),
        (2000.0, "Dilettante Categoria A"),
        (2200.0, "Candidato Maestro"),
        (2400.0, "Maestro"),
        (2500.0, "Maestro Internazionale"),
        (2700.0, "Gran Maestro"),
    ];
    Ok(LEVELS
        .iter()
        .find(|(upper, _)| rating < *upper)
        .map_or("Super Gran Maestro", |(_, name)| name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rating::error::RatingErrorKind;

    #[test]
    fn k_table_of_the_seed() {
        // Seed 004 "ESEMPI VALORI K": 500 → 80, 1000 → 40, 1500 → 20, 2000 → 10, 2500 → 5
        // (the constant 721.35 = 500 / ln 2, so K halves every 500 points).
        for (mean, want) in [
            (500.0, 80.0),
            (1000.0, 40.0),
            (1500.0, 20.0),
            (2000.0, 10.0),
            (2500.0, 5.0),
        ] {
            let got = k(mean, mean).unwrap();
            assert!((got - want).abs() < 0.01, "mean {mean}: {got}");
        }
        assert!((MAX_MEAN_RATING - 721.35 * 160f64.ln()).abs() < 1e-9);
    }

    #[test]
    fn worked_example_1() {
        // Seed 004 "ESEMPIO 1": A 1613 beats B 1609. The seed rounds K to 17 and E_A to 0.508,
        // and gets R'A = 1621, R'B = 1601.
        let kk = k(1613.0, 1609.0).unwrap();
        assert_eq!(kk.round(), 17.0); // 17.148
        let ea = expected(1613.0, 1609.0).unwrap();
        assert!((ea - 0.508).abs() < 0.0005, "{ea}");
        let eb = expected(1609.0, 1613.0).unwrap();
        assert!((ea + eb - 1.0).abs() < 1e-12); // the seed's constraint EA + EB = 1
        let (a, b) = update(1613.0, 1609.0, 1.0).unwrap();
        assert_eq!(a.round(), 1621.0); // 1621.43
        assert_eq!(b.round(), 1601.0); // 1600.57
        assert!((a - 1613.0 + b - 1609.0).abs() < 1e-9); // zero-sum
    }

    #[test]
    fn worked_example_2() {
        // Seed 004 "ESEMPIO 2": 1720 vs 1388, the weaker player wins. The seed's K = 19 holds
        // (18.56). Its E = 0.794 / 0.206 does NOT follow from its own formula: with K = 19,
        // K² − K = 342 and 1/(1 + 10^(−332/342)) = 0.903 (0.913 with the unrounded K); the
        // seed's +15 / −15 follow from its wrong E. We check the formula, not the typo:
        let kk = k(1720.0, 1388.0).unwrap();
        assert_eq!(kk.round(), 19.0);
        let e_strong = expected(1720.0, 1388.0).unwrap();
        let with_k19 = 1.0 / (1.0 + 10f64.powf(-332.0 / 342.0));
        assert!((with_k19 - 0.9034).abs() < 1e-4);
        let exact = 1.0 / (1.0 + 10f64.powf(-332.0 / (kk * kk - kk)));
        assert!((e_strong - exact).abs() < 1e-12);
        let (strong, weak) = update(1720.0, 1388.0, 0.0).unwrap();
        // R'debole = 1388 + K(1 − E_weak) = 1388 + 18.56 × 0.913 ≈ 1404.9 (seed: 1403 with its E).
        assert!((weak - (1388.0 + kk * e_strong)).abs() < 1e-9);
        assert!((strong - (1720.0 - kk * e_strong)).abs() < 1e-9);
        assert_eq!(weak.round(), 1405.0);
        assert_eq!(strong.round(), 1703.0);
    }

    #[test]
    fn breakdown_is_an_error_and_gaps_saturate() {
        // mean at 3660.98 and above: K ≤ 1, K² − K ≤ 0 → out of range
        assert_eq!(
            k(3700.0, 3700.0).unwrap_err().kind,
            RatingErrorKind::OutOfRange
        );
        assert_eq!(
            expected(3662.0, 3662.0).unwrap_err().kind,
            RatingErrorKind::OutOfRange
        );
        assert_eq!(
            update(4000.0, 3400.0, 1.0).unwrap_err().kind,
            RatingErrorKind::OutOfRange
        );
        assert!(k(3660.0, 3660.0).is_ok());
        assert!((MAX_MEAN_RATING - 3660.98).abs() < 0.01);
        assert!(k(3660.97, 3660.97).is_ok());
        assert!(k(3660.99, 3660.99).is_err());
        // very negative ratings: K overflows
        assert_eq!(k(-1e6, -1e6).unwrap_err().kind, RatingErrorKind::OutOfRange);
        // near the edge the scale is tiny and 10^x overflows: E saturates to exactly 0 / 1
        let e = expected(3400.0, 3600.0).unwrap(); // K ≈ 1.25, scale ≈ 0.31, x ≈ 640
        assert_eq!(e, 0.0);
        assert_eq!(expected(3600.0, 3400.0).unwrap(), 1.0);
        let (a, b) = update(3400.0, 3600.0, 0.0).unwrap();
        assert_eq!((a, b), (3400.0, 3600.0)); // the expected result changes nothing
                                              // bad inputs
        assert_eq!(
            update(1500.0, 1500.0, 2.0).unwrap_err().kind,
            RatingErrorKind::InvalidParameter
        );
        assert_eq!(
            expected(f64::NAN, 1500.0).unwrap_err().kind,
            RatingErrorKind::OutOfRange
        );
        assert_eq!(
            k(1500.0, f64::INFINITY).unwrap_err().kind,
            RatingErrorKind::OutOfRange
        );
    }

    #[test]
    fn levels() {
        assert_eq!(level(800.0).unwrap(), "Principiante");
        assert_eq!(level(1000.0).unwrap(), "Principiante");
        assert_eq!(level(1199.9).unwrap(), "Principiante");
        assert_eq!(level(1200.0).unwrap(), "Dilettante Categoria D");
        assert_eq!(level(1400.0).unwrap(), "Dilettante Categoria C");
        assert_eq!(level(1613.0).unwrap(), "Dilettante Categoria B");
        assert_eq!(level(1999.0).unwrap(), "Dilettante Categoria A");
        assert_eq!(level(2000.0).unwrap(), "Candidato Maestro");
        assert_eq!(level(2200.0).unwrap(), "Maestro");
        assert_eq!(level(2400.0).unwrap(), "Maestro Internazionale");
        assert_eq!(level(2500.0).unwrap(), "Gran Maestro");
        assert_eq!(level(2699.0).unwrap(), "Gran Maestro");
        assert_eq!(level(2700.0).unwrap(), "Super Gran Maestro");
        assert!(level(f64::NAN).is_err());
    }
}
