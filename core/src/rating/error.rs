//! The one error type of the rating engine. Its `Display` is the message the SQL layer shows;
//! [`RatingErrorKind`] tells the glue which SQLSTATE to report.

use std::fmt;

use crate::error::{Classified, ErrorClass};

/// What went wrong, coarse enough to map onto one SQLSTATE each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RatingErrorKind {
    /// NaN, an infinity, or a result that would leave the representable range (SQLSTATE 22003).
    OutOfRange,
    /// A value outside its documented domain: a negative RD, a score above 1, tau ≤ 0 (22023).
    InvalidParameter,
    /// Two arrays that must pair up element by element have different lengths (2202E).
    LengthMismatch,
    /// An iteration hit its cap; reported instead of looping forever (22003: the inputs are
    /// so extreme that the arithmetic cannot settle).
    NoConvergence,
    /// A result a ledger's rules refuse (a rating change above a bound under the `reject`
    /// policy): the game violates a rule as a row violates a CHECK constraint (23514).
    RuleViolation,
    /// A NULL where a value is needed (22004).
    NullValue,
    /// More than the engine rates at once: a multiplayer game of too many players (54000).
    ProgramLimit,
}

/// An error of the rating engine: a kind and a human-readable message.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingError {
    pub kind: RatingErrorKind,
    pub message: String,
}

impl RatingError {
    pub fn out_of_range(message: impl Into<String>) -> Self {
        Self {
            kind: RatingErrorKind::OutOfRange,
            message: message.into(),
        }
    }
    pub fn invalid(message: impl Into<String>) -> Self {
        Self {
            kind: RatingErrorKind::InvalidParameter,
            message: message.into(),
        }
    }
    pub fn length_mismatch(what: &str, left: usize, right: usize) -> Self {
        Self {
            kind: RatingErrorKind::LengthMismatch,
            message: format!("{what}: arrays have different lengths ({left} and {right})"),
        }
    }
    /// 22004: `what` must not be NULL.
    pub fn null(what: &str) -> Self {
        RatingError {
            kind: RatingErrorKind::NullValue,
            message: format!("{what} must not be NULL"),
        }
    }

    pub fn rule_violation(message: impl Into<String>) -> Self {
        Self {
            kind: RatingErrorKind::RuleViolation,
            message: message.into(),
        }
    }
    pub fn limit(message: impl Into<String>) -> Self {
        Self {
            kind: RatingErrorKind::ProgramLimit,
            message: message.into(),
        }
    }
    pub fn no_convergence(message: impl Into<String>) -> Self {
        Self {
            kind: RatingErrorKind::NoConvergence,
            message: message.into(),
        }
    }
}

impl Classified for RatingError {
    fn class(&self) -> ErrorClass {
        match self.kind {
            RatingErrorKind::OutOfRange | RatingErrorKind::NoConvergence => ErrorClass::OutOfRange,
            RatingErrorKind::InvalidParameter => ErrorClass::InvalidParameter,
            RatingErrorKind::LengthMismatch => ErrorClass::ArrayLength,
            RatingErrorKind::RuleViolation => ErrorClass::RuleViolation,
            RatingErrorKind::NullValue => ErrorClass::NullValue,
            RatingErrorKind::ProgramLimit => ErrorClass::ProgramLimit,
        }
    }
}

impl fmt::Display for RatingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for RatingError {}

pub type Result<T> = std::result::Result<T, RatingError>;

/// `value` must be a finite number (not NaN, not ±Infinity).
#[inline]
pub fn finite(what: &str, value: f64) -> Result<f64> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(RatingError::out_of_range(format!(
            "{what} must be a finite number, got {value}"
        )))
    }
}

/// `value` must be a finite score in [0, 1].
#[inline]
pub fn score01(what: &str, value: f64) -> Result<f64> {
    finite(what, value)?;
    if (0.0..=1.0).contains(&value) {
        Ok(value)
    } else {
        Err(RatingError::invalid(format!(
            "{what} must be between 0 and 1, got {value}"
        )))
    }
}

/// A computed result must be finite; anything else is reported as out of range.
#[inline]
pub fn result_finite(what: &str, value: f64) -> Result<f64> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(RatingError::out_of_range(format!(
            "{what} is out of range (the inputs are too extreme)"
        )))
    }
}
