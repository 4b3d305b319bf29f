//! How well a ledger's ratings predicted its games: over every player's line of every game
//! (each game counts from both sides), the accuracy of the favourite, the Brier score, the
//! log-loss of the expected scores, and the upset rate.

use std::collections::BTreeMap;

use super::replay::Entry;
use crate::rating::RatingError;

/// Prediction quality over a set of entries.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Quality {
    /// Entries counted (two per game).
    pub entries: u64,
    /// Decisive lines where the favourite (expected > 0.5) won; an even expectation counts half.
    /// `None` without a decisive line.
    pub accuracy: Option<f64>,
    /// Mean of (score − expected)²: 0 is perfect, 0.25 is a coin toss's.
    pub brier: Option<f64>,
    /// Mean of −(s ln e + (1 − s) ln(1 − e)), e kept within [1e-15, 1 − 1e-15].
    pub log_loss: Option<f64>,
    /// Wins of the player expected to score less than half, among all wins.
    pub upset_rate: Option<f64>,
}

/// Accumulates entries one at a time.
#[derive(Clone, Copy, Debug, Default)]
pub struct QualitySum {
    entries: u64,
    decisive: u64,
    favourite_right: f64,
    brier: f64,
    log_loss: f64,
    wins: u64,
    upsets: u64,
}

impl QualitySum {
    pub fn add(&mut self, expected: f64, score: f64) {
        self.entries += 1;
        self.brier += (score - expected).powi(2);
        let e = expected.clamp(1e-15, 1.0 - 1e-15);
        self.log_loss -= score * e.ln() + (1.0 - score) * (1.0 - e).ln();
        if score == 1.0 || score == 0.0 {
            self.decisive += 1;
            self.favourite_right += if expected == 0.5 {
                0.5
            } else if (expected > 0.5) == (score == 1.0) {
                1.0
            } else {
                0.0
            };
        }
        if score == 1.0 {
            self.wins += 1;
            if expected < 0.5 {
                self.upsets += 1;
            }
        }
    }

    pub fn quality(&self) -> Quality {
        let mean = |x: f64, n: u64| (n > 0).then(|| x / n as f64);
        Quality {
            entries: self.entries,
            accuracy: mean(self.favourite_right, self.decisive),
            brier: mean(self.brier, self.entries),
            log_loss: mean(self.log_loss, self.entries),
            upset_rate: mean(self.upsets as f64, self.wins),
        }
    }
}

/// The prediction quality of a replay's entries.
pub fn quality(entries: &[Entry]) -> Quality {
    let mut sum = QualitySum::default();
    for e in entries {
        sum.add(e.expected, e.score);
    }
    sum.quality()
}

/// 22023 for a rating band's width that is not positive (`None`: no bands).
pub fn check_band(width: Option<f64>) -> Result<(), RatingError> {
    match width {
        Some(b) if !(b > 0.0 && b.is_finite()) => {
            Err(RatingError::invalid("rating_band must be positive"))
        }
        _ => Ok(()),
    }
}

/// The quality of entries `(period start, low end of the rating band, expected, score)` by
/// period and band (each `None` when not asked for), in the order of their starts and bands.
/// A band is its low end as given (bands narrower than a rating point, 0.5 wide, stay apart).
pub fn quality_by_group(
    entries: impl IntoIterator<Item = (Option<i64>, Option<f64>, f64, f64)>,
) -> Vec<(Option<i64>, Option<f64>, Quality)> {
    let mut groups: BTreeMap<(Option<i64>, Option<BandLow>), QualitySum> = BTreeMap::new();
    for (start, band, expected, score) in entries {
        // (+ 0.0: -0.0 and 0.0 are one band)
        let key = (start, band.map(|b| BandLow(b + 0.0)));
        groups.entry(key).or_default().add(expected, score);
    }
    groups
        .into_iter()
        .map(|((start, band), sum)| (start, band.map(|b| b.0), sum.quality()))
        .collect()
}

/// A band's low end, ordered as a number (`f64::total_cmp`) to key the groups.
#[derive(Clone, Copy, Debug)]
struct BandLow(f64);

impl PartialEq for BandLow {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == std::cmp::Ordering::Equal
    }
}

impl Eq for BandLow {}

impl PartialOrd for BandLow {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for BandLow {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metrics_of_known_lines() {
        let mut sum = QualitySum::default();
        // a favourite wins, an underdog wins (an upset), a draw
        for (e, s) in [
            (0.8, 1.0),
            (0.2, 0.0),
            (0.3, 1.0),
            (0.7, 0.0),
            (0.5, 0.5),
            (0.5, 0.5),
        ] {
            sum.add(e, s);
        }
        let q = sum.quality();
        assert_eq!(q.entries, 6);
        assert_eq!(q.accuracy, Some(0.5));
        let brier = (0.04 + 0.04 + 0.49 + 0.49 + 0.0 + 0.0) / 6.0;
        assert!((q.brier.unwrap() - brier).abs() < 1e-12);
        let ll = -(0.8f64.ln() + 0.8f64.ln() + 0.3f64.ln() + 0.3f64.ln() + 2.0 * 0.5f64.ln()) / 6.0;
        assert!((q.log_loss.unwrap() - ll).abs() < 1e-12);
        assert_eq!(q.upset_rate, Some(0.5));
    }

    #[test]
    fn a_coin_toss_scores_a_quarter_and_ln_2() {
        let mut sum = QualitySum::default();
        sum.add(0.5, 1.0);
        sum.add(0.5, 0.0);
        let q = sum.quality();
        assert_eq!(q.brier, Some(0.25));
        assert!((q.log_loss.unwrap() - std::f64::consts::LN_2).abs() < 1e-12);
        assert_eq!(q.accuracy, Some(0.5));
        assert_eq!(QualitySum::default().quality().brier, None);
    }

    #[test]
    fn quality_by_period_and_band() {
        let rows = [
            (Some(7), Some(1600.0), 0.75, 1.0),
            (Some(0), Some(1500.0), 0.5, 0.0),
            (Some(7), Some(1600.0), 0.25, 1.0),
            (Some(0), Some(1600.0), 0.5, 1.0),
        ];
        let groups = quality_by_group(rows);
        let keys: Vec<_> = groups.iter().map(|g| (g.0, g.1, g.2.entries)).collect();
        assert_eq!(
            keys,
            [
                (Some(0), Some(1500.0), 1),
                (Some(0), Some(1600.0), 1),
                (Some(7), Some(1600.0), 2)
            ]
        );
        assert_eq!(groups[2].2.upset_rate, Some(0.5));
        // bands of half a point stay apart, negative ones sort below, -0 is 0
        let rows = [
            (None, Some(1500.5), 0.5, 1.0),
            (None, Some(1500.0), 0.5, 1.0),
            (None, Some(-0.5), 0.5, 1.0),
            (None, Some(-0.0), 0.5, 1.0),
            (None, Some(0.0), 0.5, 1.0),
        ];
        let keys: Vec<_> = quality_by_group(rows)
            .iter()
            .map(|g| (g.1, g.2.entries))
            .collect();
        assert_eq!(
            keys,
            [
                (Some(-0.5), 1),
                (Some(0.0), 2),
                (Some(1500.0), 1),
                (Some(1500.5), 1)
            ]
        );
        assert!(check_band(Some(0.0)).is_err() && check_band(Some(f64::NAN)).is_err());
        assert!(check_band(None).is_ok() && check_band(Some(100.0)).is_ok());
    }
}
