//! The class of every error of the core, which decides the SQLSTATE the SQL layer reports. The
//! glue turns a class into PostgreSQL's error code in one place (`src/error.rs`); nothing else
//! maps errors.

use std::fmt;

/// What kind of wrong an error is, one SQLSTATE each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorClass {
    /// Text that cannot be read: a malformed FEN or PGN (22P02).
    InvalidText,
    /// A value outside its domain: an illegal move, a negative RD, an unknown code (22023).
    InvalidParameter,
    /// NaN, an infinity, a result beyond the representable range, an iteration that cannot
    /// settle (22003).
    OutOfRange,
    /// Arrays that must pair up element by element differ in length (2202E).
    ArrayLength,
    /// A NULL where a value is needed (22004).
    NullValue,
    /// More than the implementation holds (54000).
    ProgramLimit,
    /// Data that contradicts a rule of the tables: a second game of a player in a round (23514).
    RuleViolation,
}

impl ErrorClass {
    /// The SQLSTATE of the class.
    pub fn sqlstate(self) -> &'static str {
        match self {
            ErrorClass::InvalidText => "22P02",
            ErrorClass::InvalidParameter => "22023",
            ErrorClass::OutOfRange => "22003",
            ErrorClass::ArrayLength => "2202E",
            ErrorClass::NullValue => "22004",
            ErrorClass::ProgramLimit => "54000",
            ErrorClass::RuleViolation => "23514",
        }
    }
}

/// An error of the core: its message (`Display`) and its class.
pub trait Classified: fmt::Display {
    fn class(&self) -> ErrorClass;

    fn sqlstate(&self) -> &'static str {
        self.class().sqlstate()
    }
}

/// How many characters of a value an error message quotes.
pub const QUOTED_CHARS: usize = 100;

/// `value` as an error message quotes it: whole when short, else its first [`QUOTED_CHARS`]
/// characters, an ellipsis and its length, so that a 2 MB input does not come back in full.
pub fn shorten(value: &str) -> std::borrow::Cow<'_, str> {
    match value.char_indices().nth(QUOTED_CHARS) {
        None => std::borrow::Cow::Borrowed(value),
        Some((end, _)) => std::borrow::Cow::Owned(format!(
            "{}... ({} characters)",
            &value[..end],
            value.chars().count()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::pgn::{PgnError, PgnErrorKind};
    use crate::chess::ChessError;
    use crate::rating::RatingError;
    use crate::tournament::TournamentError;

    #[test]
    fn every_class_has_its_own_sqlstate() {
        let classes = [
            ErrorClass::InvalidText,
            ErrorClass::InvalidParameter,
            ErrorClass::OutOfRange,
            ErrorClass::ArrayLength,
            ErrorClass::NullValue,
            ErrorClass::ProgramLimit,
            ErrorClass::RuleViolation,
        ];
        let mut codes: Vec<&str> = classes.iter().map(|c| c.sqlstate()).collect();
        assert!(codes.iter().all(|c| c.len() == 5));
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), classes.len());
    }

    #[test]
    fn errors_of_each_part_of_the_core_have_their_documented_sqlstate() {
        assert_eq!(RatingError::out_of_range("x").sqlstate(), "22003");
        assert_eq!(RatingError::no_convergence("x").sqlstate(), "22003");
        assert_eq!(RatingError::invalid("x").sqlstate(), "22023");
        assert_eq!(RatingError::length_mismatch("x", 1, 2).sqlstate(), "2202E");
        assert_eq!(TournamentError::invalid("x").sqlstate(), "22023");
        assert_eq!(TournamentError::conflict("x").sqlstate(), "23514");
        assert_eq!(TournamentError::out_of_range("x").sqlstate(), "22003");
        assert_eq!(ChessError::NullMove(3).sqlstate(), "22004");
        assert_eq!(ChessError::TooManyMoves.sqlstate(), "54000");
        assert_eq!(ChessError::Variant("atomic".into()).sqlstate(), "22023");
        let pgn = |kind| PgnError { game: 1, kind };
        assert_eq!(pgn(PgnErrorKind::Syntax("x".into())).sqlstate(), "22P02");
        assert_eq!(pgn(PgnErrorKind::Token("Zz".into())).sqlstate(), "22P02");
        assert_eq!(
            pgn(PgnErrorKind::Variant("atomic".into())).sqlstate(),
            "22023"
        );
        assert_eq!(pgn(PgnErrorKind::TooManyMoves).sqlstate(), "54000");
    }

    #[test]
    fn long_values_are_cut_in_messages() {
        assert_eq!(shorten("short"), "short");
        let long = "é".repeat(5000);
        let cut = shorten(&long);
        assert!(cut.starts_with(&"é".repeat(QUOTED_CHARS)));
        assert!(cut.ends_with("... (5000 characters)"));
        assert_eq!(shorten(&"x".repeat(QUOTED_CHARS)).len(), QUOTED_CHARS);
    }
}
