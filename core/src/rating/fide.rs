//! FIDE Rating Regulations in force since 1 March 2024, with the amendment effective
//! 1 October 2025 (the 400-point rule no longer applies to players rated 2650 and above),
//! and the performance tie-breaks (TPR, PTP) of the FIDE Play-off and Tie-break Regulations.
//!
//! All table arithmetic is done in integer hundredths so that the sums FIDE rounds are exact.

use super::error::{finite, RatingError, Result};

/// Upper ends of the rating-difference bands of table 8.1.2 (conversion of a rating
/// difference D into the scoring probability PD of the higher-rated player). Band `i` covers
/// `BANDS[i-1]+1 ..= BANDS[i]` and gives PD = 0.50 + i/100; a difference above 735 gives 1.00.
const PD_BANDS: [u32; 50] = [
    3, 10, 17, 25, 32, 39, 46, 53, 61, 68, // .50 .. .59
    76, 83, 91, 98, 106, 113, 121, 129, 137, 145, // .60 .. .69
    153, 162, 170, 179, 188, 197, 206, 215, 225, 235, // .70 .. .79
    245, 256, 267, 278, 290, 302, 315, 328, 344, 357, // .80 .. .89
    374, 391, 411, 432, 456, 484, 517, 559, 619, 735, // .90 .. .99
];

/// Table 8.1.1: the rating difference dp for a fractional score p = 0.50 .. 0.99 (index p-50);
/// p = 1.00 gives 800 and lower scores mirror: dp(p) = -dp(1-p).
const DP_TABLE: [i32; 50] = [
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65, // .50 .. .59
    72, 80, 87, 95, 102, 110, 117, 125, 133, 141, // .60 .. .69
    149, 158, 166, 175, 184, 193, 202, 211, 220, 230, // .70 .. .79
    240, 251, 262, 273, 284, 296, 309, 322, 336, 351, // .80 .. .89
    366, 383, 401, 422, 444, 470, 501, 538, 589, 677, // .90 .. .99
];

/// Rating from which the 400-point rule no longer applies (amendment of 1 October 2025).
pub const NO_CAP_FROM: i32 = 2650;

/// Scoring probability in hundredths for a player whose rating exceeds the opponent's by
/// `diff` (negative when lower rated), from table 8.1.2 on the full scale (no 400 cut).
pub fn pd_hundredths(diff: i64) -> i32 {
    let d = diff.unsigned_abs();
    let higher = if d > 735 {
        100
    } else {
        50 + PD_BANDS
            .iter()
            .position(|&hi| d <= u64::from(hi))
            .unwrap_or(50) as i32
    };
    if diff >= 0 {
        higher
    } else {
        100 - higher
    }
}

/// The rating difference FIDE counts in a rated game (8.3.1): more than 400 counts as 400 for
/// a player rated below 2650; from 2650 the real difference is used.
pub fn counted_difference(rating: i32, opponent: i32) -> i64 {
    let d = i64::from(rating) - i64::from(opponent);
    if rating < NO_CAP_FROM {
        d.clamp(-400, 400)
    } else {
        d
    }
}

/// Expected score of `rating` against `opponent` in a rated game: table 8.1.2 with the
/// 400-point rule as amended in October 2025.
pub fn expected(rating: i32, opponent: i32) -> f64 {
    f64::from(pd_hundredths(counted_difference(rating, opponent))) / 100.0
}

/// Development coefficient K (8.3.3).
///
/// * 40 for a player new to the list until they have completed events with at least 30 games
///   (`rated_games < 30`);
/// * 40 for players until the end of the year of their 18th birthday (`age` = the age reached
///   in the current calendar year, so `age <= 18`), as long as their rating remains under 2300;
/// * 10 once the published rating has reached 2400 (`reached_2400`, or `rating >= 2400` now),
///   and it stays 10 even if the rating drops below 2400;
/// * 20 otherwise.
pub fn k_factor(
    rating: i32,
    rated_games: i32,
    age: Option<i32>,
    reached_2400: bool,
) -> Result<i32> {
    if rated_games < 0 {
        return Err(RatingError::invalid(format!(
            "rated games must not be negative, got {rated_games}"
        )));
    }
    if let Some(a) = age {
        if a < 0 {
            return Err(RatingError::invalid(format!(
                "age must not be negative, got {a}"
            )));
        }
    }
    if rated_games < 30 {
        return Ok(40);
    }
    if matches!(age, Some(a) if a <= 18) && rating < 2300 {
        return Ok(40);
    }
    if reached_2400 || rating >= 2400 {
        return Ok(10);
    }
    Ok(20)
}

/// [`k_factor`] as SQL asks for it: `reached_2400` unknown (`None`) is never reached.
pub fn k_factor_if_known(
    rating: i32,
    rated_games: i32,
    age: Option<i32>,
    reached_2400: Option<bool>,
) -> Result<i32> {
    k_factor(rating, rated_games, age, reached_2400.unwrap_or(false))
}

/// Score in hundredths; FIDE rates wins, draws and losses only.
pub(crate) fn score_hundredths(score: f64) -> Result<i64> {
    finite("score", score)?;
    if score == 0.0 || score == 0.5 || score == 1.0 {
        Ok((score * 100.0) as i64)
    } else {
        Err(RatingError::invalid(format!(
            "a FIDE game score must be 0, 0.5 or 1, got {score}"
        )))
    }
}

/// Round `num / den` (den > 0) to the nearest integer, halves away from zero.
fn div_round_half_away(num: i64, den: i64) -> i64 {
    let q = (num.abs() * 2 + den) / (den * 2);
    if num < 0 {
        -q
    } else {
        q
    }
}

/// Rating change of a player over a rating period (8.3): K × Σ(score − PD), where PD uses
/// the player's rating against each opponent with the 400-point rule, and K is reduced to the
/// largest whole number with K·n ≤ 700 when n games would exceed it (8.3.3). The result is
/// rounded to a whole number, halves away from zero.
pub fn rating_change(rating: i32, k: i32, opponents: &[i32], scores: &[f64]) -> Result<i32> {
    if opponents.len() != scores.len() {
        return Err(RatingError::length_mismatch(
            "fide_rating_change",
            opponents.len(),
            scores.len(),
        ));
    }
    if k <= 0 {
        return Err(RatingError::invalid(format!("k must be positive, got {k}")));
    }
    let n = opponents.len() as i64;
    if n == 0 {
        return Ok(0);
    }
    let mut k = i64::from(k);
    if k * n > 700 {
        k = 700 / n;
    }
    let mut sum = 0i64; // hundredths
    for (&o, &s) in opponents.iter().zip(scores) {
        sum += score_hundredths(s)? - i64::from(pd_hundredths(counted_difference(rating, o)));
    }
    Ok(div_round_half_away(k * sum, 100) as i32)
}

/// dp for a fractional score given in hundredths (0 ..= 100), table 8.1.1 with ±800 at the ends.
pub fn dp(p_hundredths: i32) -> Result<i32> {
    match p_hundredths {
        100 => Ok(800),
        0 => Ok(-800),
        50..=99 => Ok(DP_TABLE[(p_hundredths - 50) as usize]),
        1..=49 => Ok(-DP_TABLE[(50 - p_hundredths) as usize]),
        _ => Err(RatingError::invalid(format!(
            "fractional score must be 0 to 100 hundredths, got {p_hundredths}"
        ))),
    }
}

/// Tournament score as half points; must be a multiple of 0.5 between 0 and `games`.
fn half_points(score: f64, games: usize) -> Result<i64> {
    finite("score", score)?;
    let h = score * 2.0;
    if h.fract() != 0.0 || score < 0.0 || score > games as f64 {
        return Err(RatingError::invalid(format!(
            "score must be a multiple of 0.5 between 0 and the number of games ({games}), got {score}"
        )));
    }
    Ok(h as i64)
}

/// A performance as `i32`; out of range when opponents rated near the ends of `int` push it past.
fn performance_i32(what: &str, r: i64) -> Result<i32> {
    i32::try_from(r).map_err(|_| {
        RatingError::out_of_range(format!("{what} {r} is out of range for an integer rating"))
    })
}

fn check_opponents(opponents: &[i32]) -> Result<()> {
    if opponents.is_empty() {
        return Err(RatingError::invalid(
            "at least one rated opponent is needed",
        ));
    }
    Ok(())
}

/// Average Rating of Opponents, rounded to the nearest whole number (0.5 rounded up).
pub fn aro(opponents: &[i32]) -> Result<i32> {
    check_opponents(opponents)?;
    let n = opponents.len() as i64;
    let sum: i64 = opponents.iter().map(|&r| i64::from(r)).sum();
    Ok((2 * sum + n).div_euclid(2 * n) as i32)
}

/// Tournament Performance Rating (tie-break regulations, TPR): ARO + dp(p), p = score / games
/// rounded to two decimals (half up), dp from table 8.1.1 (±800 for a full or zero score).
pub fn tpr(opponents: &[i32], score: f64) -> Result<i32> {
    check_opponents(opponents)?;
    let n = opponents.len() as i64;
    let halves = half_points(score, opponents.len())?;
    // p in hundredths = round(100 * halves / (2n)), half up
    let p = (100 * halves + n).div_euclid(2 * n) as i32;
    performance_i32("TPR", i64::from(aro(opponents)?) + i64::from(dp(p)?))
}

/// Perfect Tournament Performance (tie-break regulations, PTP): the lowest whole rating R whose
/// expected score Σ PD(R − opponent) — table 8.1.2 on the full scale, no 400 cut — is at
/// least the tournament score. For a zero score, 800 below the lowest-rated opponent.
pub fn ptp(opponents: &[i32], score: f64) -> Result<i32> {
    check_opponents(opponents)?;
    let halves = half_points(score, opponents.len())?;
    let lowest = i64::from(*opponents.iter().min().unwrap_or(&0));
    let highest = i64::from(*opponents.iter().max().unwrap_or(&0));
    if halves == 0 {
        return performance_i32("PTP", lowest - 800);
    }
    let target = halves * 50; // hundredths
    let expected_at = |r: i64| -> i64 {
        opponents
            .iter()
            .map(|&o| i64::from(pd_hundredths(r - i64::from(o))))
            .sum()
    };
    // expected_at is non-decreasing in r; at lowest-736 it is 0 < target, at highest+736 it is
    // 100·n ≥ target. Find the smallest r with expected_at(r) ≥ target.
    let (mut lo, mut hi) = (lowest - 736, highest + 736);
    while lo + 1 < hi {
        let mid = lo + (hi - lo) / 2;
        if expected_at(mid) >= target {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    performance_i32("PTP", hi)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rating::error::RatingErrorKind;

    #[test]
    fn table_8_1_2_band_edges() {
        // FIDE Rating Regulations table 8.1.2 (= Elo's percentage expectancy table):
        // 0-3 → .50, 4-10 → .51, 92-98 → .63, 99-106 → .64, 392-411 → .92, 620-735 → .99, >735 → 1.
        let cases = [
            (0, 50),
            (3, 50),
            (4, 51),
            (10, 51),
            (11, 52),
            (98, 63),
            (99, 64),
            (106, 64),
            (345, 89),
            (357, 89),
            (358, 90),
            (391, 91),
            (392, 92),
            (411, 92),
            (412, 93),
            (619, 98),
            (620, 99),
            (735, 99),
            (736, 100),
            (5000, 100),
        ];
        for (d, pd) in cases {
            assert_eq!(pd_hundredths(d), pd, "D = {d}");
            assert_eq!(pd_hundredths(-d), 100 - pd, "D = -{d}");
        }
        // every band is contiguous and increasing
        for w in PD_BANDS.windows(2) {
            assert!(w[0] < w[1]);
        }
    }

    #[test]
    fn expected_with_the_400_point_rule() {
        assert_eq!(expected(1500, 1500), 0.5);
        assert_eq!(expected(2000, 1900), 0.64);
        assert_eq!(expected(1900, 2000), 0.36);
        // below 2650 a gap above 400 counts as 400 → .92 / .08
        assert_eq!(expected(2000, 1000), 0.92);
        assert_eq!(expected(1000, 2000), 0.08);
        assert_eq!(expected(2649, 1800), 0.92);
        // October 2025 amendment: from 2650 the real difference is used (849 → 1.00)
        assert_eq!(expected(2650, 1800), 1.0);
        assert_eq!(expected(2750, 2300), 0.94); // 450 is in band 433-456
    }

    #[test]
    fn k_factor_rules() {
        assert_eq!(k_factor(1500, 0, None, false).unwrap(), 40); // new player
        assert_eq!(k_factor(2500, 29, None, false).unwrap(), 40); // fewer than 30 games
        assert_eq!(k_factor(2100, 100, Some(17), false).unwrap(), 40); // junior under 2300
        assert_eq!(k_factor(2100, 100, Some(18), false).unwrap(), 40); // year of 18th birthday
        assert_eq!(k_factor(2100, 100, Some(19), false).unwrap(), 20);
        assert_eq!(k_factor(2300, 100, Some(16), false).unwrap(), 20); // junior at 2300
        assert_eq!(k_factor(2399, 100, None, false).unwrap(), 20);
        assert_eq!(k_factor(2400, 100, None, false).unwrap(), 10);
        assert_eq!(k_factor(2350, 100, Some(40), true).unwrap(), 10); // stays 10 after 2400
        assert_eq!(
            k_factor(1500, -1, None, false).unwrap_err().kind,
            RatingErrorKind::InvalidParameter
        );
        assert_eq!(
            k_factor(1500, 40, Some(-1), false).unwrap_err().kind,
            RatingErrorKind::InvalidParameter
        );
    }

    #[test]
    fn an_unknown_peak_is_one_never_reached() {
        assert_eq!(k_factor_if_known(2350, 100, Some(40), None), Ok(20));
        assert_eq!(k_factor_if_known(2350, 100, Some(40), Some(true)), Ok(10));
        assert_eq!(k_factor_if_known(2400, 100, None, None), Ok(10));
        assert_eq!(k_factor_if_known(1500, 40, None, Some(false)), Ok(20));
    }

    #[test]
    fn rating_change_vectors() {
        // Vectors of lichess scalachess EloTest "new rating calculation over one game"
        // (FIDE table with the 400-point rule, K = 40).
        let cases = [
            (1500, 1500, 1.0, 20),
            (1500, 1500, 0.0, -20),
            (1500, 1500, 0.5, 0),
            (1500, 1900, 1.0, 37),
            (1500, 1900, 0.0, -3),
            (1500, 1900, 0.5, 17),
            (1500, 2900, 1.0, 37),
            (1500, 2900, 0.0, -3),
            (1500, 2900, 0.5, 17),
            (1500, 1600, 1.0, 26),
            (1500, 1600, 0.0, -14),
            (1500, 1600, 0.5, 6),
            (2000, 1600, 1.0, 3),
            (2000, 1600, 0.0, -37),
            (2000, 1600, 0.5, -17),
            (2000, 1000, 1.0, 3),
            (2000, 1000, 0.0, -37),
            (2000, 1000, 0.5, -17),
            (2000, 1900, 1.0, 14),
            (2000, 1900, 0.0, -26),
            (2000, 1900, 0.5, -6),
        ];
        for (r, o, s, want) in cases {
            assert_eq!(
                rating_change(r, 40, &[o], &[s]).unwrap(),
                want,
                "{r} vs {o} scoring {s}"
            );
        }
    }

    #[test]
    fn rating_change_period_rules() {
        // K·n ≤ 700: 20 games at K = 40 → K = 35. Twenty draws against equals: 0.
        let opps = [2000; 20];
        let draws = [0.5; 20];
        assert_eq!(rating_change(2000, 40, &opps, &draws).unwrap(), 0);
        // Twenty wins against equals: 35 × 20 × 0.5 = 350 (not 400).
        let wins = [1.0; 20];
        assert_eq!(rating_change(2000, 40, &opps, &wins).unwrap(), 350);
        // 18 games: 700/18 = 38.9 → K = 38; 18 wins → 38 × 9 = 342.
        assert_eq!(
            rating_change(2000, 40, &[2000; 18], &[1.0; 18]).unwrap(),
            342
        );
        // Halves round away from zero: K = 10, one win at PD .55 → 4.5 → 5; a loss at .45 → -4.5 → -5.
        assert_eq!(rating_change(2036, 10, &[2000], &[1.0]).unwrap(), 5);
        assert_eq!(rating_change(1964, 10, &[2000], &[0.0]).unwrap(), -5);
        // 2650+: the real difference, so beating an 1800 gains nothing, a draw costs 5 (K = 10).
        assert_eq!(rating_change(2750, 10, &[1800], &[1.0]).unwrap(), 0);
        assert_eq!(rating_change(2750, 10, &[1800], &[0.5]).unwrap(), -5);
        // an empty period changes nothing
        assert_eq!(rating_change(2000, 20, &[], &[]).unwrap(), 0);
        assert_eq!(
            rating_change(2000, 20, &[1], &[]).unwrap_err().kind,
            RatingErrorKind::LengthMismatch
        );
        assert_eq!(
            rating_change(2000, 20, &[1900], &[0.7]).unwrap_err().kind,
            RatingErrorKind::InvalidParameter
        );
        assert_eq!(
            rating_change(2000, 0, &[1900], &[1.0]).unwrap_err().kind,
            RatingErrorKind::InvalidParameter
        );
        assert_eq!(
            rating_change(2000, 20, &[1900], &[f64::NAN])
                .unwrap_err()
                .kind,
            RatingErrorKind::OutOfRange
        );
    }

    #[test]
    fn dp_table() {
        // Table 8.1.1 spot checks: .83 → 273, .75 → 193, .67 → 125, .99 → 677, .01 → -677.
        assert_eq!(dp(83).unwrap(), 273);
        assert_eq!(dp(75).unwrap(), 193);
        assert_eq!(dp(67).unwrap(), 125);
        assert_eq!(dp(99).unwrap(), 677);
        assert_eq!(dp(1).unwrap(), -677);
        assert_eq!(dp(50).unwrap(), 0);
        assert_eq!(dp(100).unwrap(), 800);
        assert_eq!(dp(0).unwrap(), -800);
        assert_eq!(dp(36).unwrap(), -102);
        assert!(dp(101).is_err());
    }

    #[test]
    fn tpr_vectors() {
        // lichess scalachess EloTest "performance rating" (ARO + dp):
        assert_eq!(tpr(&[1500], 1.0).unwrap(), 2300);
        assert_eq!(tpr(&[1500, 1500], 2.0).unwrap(), 2300);
        assert_eq!(tpr(&[1500], 0.0).unwrap(), 700);
        assert_eq!(tpr(&[1500], 0.5).unwrap(), 1500);
        assert_eq!(tpr(&[1500, 1700], 1.0).unwrap(), 1600);
        assert_eq!(tpr(&[1500, 1500], 1.5).unwrap(), 1693);
        assert_eq!(tpr(&[1500, 1500, 1500], 2.0).unwrap(), 1625);
        // echecsjs/performance-rating test: opponents 2200, 2100, 2000, score 2.5 →
        // ARO 2100, p = .83 → 273 → 2373.
        assert_eq!(tpr(&[2200, 2100, 2000], 2.5).unwrap(), 2373);
        // ARO rounds half up: (2000 + 2001) / 2 = 2000.5 → 2001
        assert_eq!(aro(&[2000, 2001]).unwrap(), 2001);
        assert_eq!(
            tpr(&[], 0.0).unwrap_err().kind,
            RatingErrorKind::InvalidParameter
        );
        assert_eq!(
            tpr(&[1500], 1.5).unwrap_err().kind,
            RatingErrorKind::InvalidParameter
        );
        assert_eq!(
            tpr(&[1500], 0.3).unwrap_err().kind,
            RatingErrorKind::InvalidParameter
        );
    }

    #[test]
    fn performances_beyond_the_int_range_are_errors() {
        // ARO + dp and the PTP search used to overflow i32 (a panic in debug builds, a wrapped
        // rating in release builds).
        assert_eq!(
            tpr(&[i32::MAX], 1.0).unwrap_err().kind,
            RatingErrorKind::OutOfRange
        );
        assert_eq!(
            tpr(&[i32::MIN], 0.0).unwrap_err().kind,
            RatingErrorKind::OutOfRange
        );
        assert_eq!(tpr(&[i32::MAX], 0.5).unwrap(), i32::MAX);
        assert_eq!(
            ptp(&[i32::MIN], 0.0).unwrap_err().kind,
            RatingErrorKind::OutOfRange
        );
        assert_eq!(
            ptp(&[i32::MAX], 1.0).unwrap_err().kind,
            RatingErrorKind::OutOfRange
        );
        assert_eq!(ptp(&[i32::MIN + 800], 0.0).unwrap(), i32::MIN);
    }

    #[test]
    fn ptp_vectors() {
        // Zero score: 800 below the lowest opponent (echecsjs test: opponents 2100, 2200 → 1300).
        assert_eq!(ptp(&[2100, 2200], 0.0).unwrap(), 1300);
        // One draw against 2000: the lowest R with PD(R − 2000) ≥ .50 is 1997 (band 0-3 is .50).
        assert_eq!(ptp(&[2000], 0.5).unwrap(), 1997);
        // One win against 2000: PD must be 1.00, i.e. R − 2000 > 735.
        assert_eq!(ptp(&[2000], 1.0).unwrap(), 2736);
        // Check the defining property on a mixed field by brute force.
        let opps = [2400, 2210, 2050, 1980, 1875];
        for halves in 1..=10 {
            let s = halves as f64 / 2.0;
            let r = ptp(&opps, s).unwrap() as i64;
            let e = |r: i64| -> i64 {
                opps.iter()
                    .map(|&o| pd_hundredths(r - o as i64) as i64)
                    .sum()
            };
            assert!(e(r) >= halves * 50, "score {s}");
            assert!(e(r - 1) < halves * 50, "score {s}");
        }
    }
}
