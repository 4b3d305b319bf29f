//! Time controls: a starting time plus an increment per move, with PostgreSQL's interval
//! arithmetic (months, days and microseconds kept apart) so the core and SQL agree.

use std::cmp::Ordering;

const MICROS_PER_DAY: i128 = 86_400_000_000;
/// PostgreSQL compares intervals with a month counted as 30 days.
const DAYS_PER_MONTH: i128 = 30;

/// An interval as PostgreSQL stores it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Interval {
    pub months: i32,
    pub days: i32,
    pub micros: i64,
}

/// The result of interval arithmetic does not fit an interval.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IntervalOverflow;

impl std::fmt::Display for IntervalOverflow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("interval out of range")
    }
}

impl std::error::Error for IntervalOverflow {}

impl Interval {
    pub const ZERO: Interval = Interval {
        months: 0,
        days: 0,
        micros: 0,
    };

    pub fn from_seconds(seconds: i64) -> Self {
        Interval {
            months: 0,
            days: 0,
            micros: seconds * 1_000_000,
        }
    }

    /// The value PostgreSQL orders intervals by (`interval_cmp_value`).
    pub fn ordering_key(self) -> i128 {
        (self.months as i128 * DAYS_PER_MONTH + self.days as i128) * MICROS_PER_DAY
            + self.micros as i128
    }

    pub fn is_negative(self) -> bool {
        self.ordering_key() < 0
    }

    /// The length in microseconds of a period (a rating period) that is positive however it is
    /// measured: no part negative (a month is 30 days to PostgreSQL's ordering but 30.4375 to
    /// `extract(epoch ...)`, so `-1 year 360 days` is positive to one and negative to the other)
    /// and not zero; `None` for any other interval.
    pub fn period_micros(self) -> Option<i64> {
        let parts_positive = self.months >= 0 && self.days >= 0 && self.micros >= 0;
        let length = self.ordering_key();
        (parts_positive && length > 0).then(|| length.min(i64::MAX as i128) as i64)
    }

    pub fn checked_add(self, other: Interval) -> Result<Interval, IntervalOverflow> {
        Ok(Interval {
            months: self
                .months
                .checked_add(other.months)
                .ok_or(IntervalOverflow)?,
            days: self.days.checked_add(other.days).ok_or(IntervalOverflow)?,
            micros: self
                .micros
                .checked_add(other.micros)
                .ok_or(IntervalOverflow)?,
        })
    }

    /// Field-wise multiplication, exact for whole factors (PostgreSQL's `interval * int`).
    pub fn checked_mul(self, factor: i32) -> Result<Interval, IntervalOverflow> {
        Ok(Interval {
            months: self.months.checked_mul(factor).ok_or(IntervalOverflow)?,
            days: self.days.checked_mul(factor).ok_or(IntervalOverflow)?,
            micros: self
                .micros
                .checked_mul(factor as i64)
                .ok_or(IntervalOverflow)?,
        })
    }
}

impl PartialOrd for Interval {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Ordered as PostgreSQL orders intervals: `'1 month'` equals `'30 days'` in value,
/// although the two are kept apart by `Eq` (as `=` in SQL would not).
impl Ord for Interval {
    fn cmp(&self, other: &Self) -> Ordering {
        self.ordering_key().cmp(&other.ordering_key())
    }
}

/// A set clock: both parts present and not negative.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Clock {
    pub starting_time: Interval,
    pub move_increase: Interval,
}

impl Clock {
    /// The nominal game length used to place a game in a time-control window:
    /// `starting_time + extra_move_multiplier * move_increase`.
    pub fn base_time(self, extra_move_multiplier: i32) -> Result<Interval, IntervalOverflow> {
        self.starting_time
            .checked_add(self.move_increase.checked_mul(extra_move_multiplier)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_period_is_positive_in_every_part() {
        let p = |months, days, micros| {
            Interval {
                months,
                days,
                micros,
            }
            .period_micros()
        };
        assert_eq!(p(0, 7, 0), Some(7 * 86_400_000_000));
        assert_eq!(p(1, 0, 1), Some(30 * 86_400_000_000 + 1));
        // positive in 30-day months, negative in 365.25-day years: refused
        assert_eq!(p(-12, 360, 1_000_000), None);
        assert_eq!(p(0, 0, 0), None);
        assert_eq!(p(0, 1, -1), None);
    }

    #[test]
    fn base_time_adds_the_weighted_increment() {
        let blitz = Clock {
            starting_time: Interval::from_seconds(180),
            move_increase: Interval::from_seconds(2),
        };
        assert_eq!(blitz.base_time(60).unwrap(), Interval::from_seconds(300));
        assert_eq!(blitz.base_time(0).unwrap(), Interval::from_seconds(180));
    }

    #[test]
    fn months_and_days_stay_apart() {
        let odd = Clock {
            starting_time: Interval {
                months: 1,
                days: 2,
                micros: 3,
            },
            move_increase: Interval {
                months: 0,
                days: 1,
                micros: 10,
            },
        };
        assert_eq!(
            odd.base_time(3).unwrap(),
            Interval {
                months: 1,
                days: 5,
                micros: 33
            }
        );
    }

    #[test]
    fn overflow_is_reported() {
        let big = Clock {
            starting_time: Interval::ZERO,
            move_increase: Interval {
                months: 0,
                days: i32::MAX / 2,
                micros: 0,
            },
        };
        assert_eq!(big.base_time(3), Err(IntervalOverflow));
        let long = Clock {
            starting_time: Interval {
                months: 0,
                days: 0,
                micros: i64::MAX,
            },
            move_increase: Interval::from_seconds(1),
        };
        assert_eq!(long.base_time(1), Err(IntervalOverflow));
    }

    #[test]
    fn ordering_counts_a_month_as_thirty_days() {
        let month = Interval {
            months: 1,
            days: 0,
            micros: 0,
        };
        let thirty = Interval {
            months: 0,
            days: 30,
            micros: 0,
        };
        assert_eq!(month.cmp(&thirty), Ordering::Equal);
        assert!(Interval {
            months: 0,
            days: 0,
            micros: -1
        }
        .is_negative());
        assert!(
            Interval {
                months: 1,
                days: -29,
                micros: 0
            } > Interval::ZERO
        );
    }
}
