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
    /// A request that the data's state does not allow yet: pairing a round whose games exist,
    /// or while a game of an earlier round has no result (55000).
    PrerequisiteState,
    /// A value of a type other than the one its column was attached with (42804).
    DatatypeMismatch,
    /// A date that cannot be used: infinite where a finite one is needed (22008).
    DatetimeOverflow,
    /// A foreign key that is not there, or not one a rule can follow (42830).
    InvalidForeignKey,
    /// Something valid that pg_rating does not do (0A000).
    FeatureNotSupported,
    /// A change the tables' rules refuse outright: a recorded game deleted, a registration
    /// changed, an account's identity changed (23001).
    Restricted,
    /// A column named by an argument that its table does not have (42703).
    UndefinedColumn,
    /// A second row where one is allowed: two openings lines that reach one position (23505).
    UniqueViolation,
    /// A role that may not do what it asks: not a member of an owner (42501).
    InsufficientPrivilege,
    /// A name kept for pg_rating's own objects (42939).
    ReservedName,
    /// What the glue handed over contradicts itself: a fact it gathered is missing (XX000).
    Internal,
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
            ErrorClass::PrerequisiteState => "55000",
            ErrorClass::DatatypeMismatch => "42804",
            ErrorClass::DatetimeOverflow => "22008",
            ErrorClass::InvalidForeignKey => "42830",
            ErrorClass::FeatureNotSupported => "0A000",
            ErrorClass::Restricted => "23001",
            ErrorClass::UndefinedColumn => "42703",
            ErrorClass::UniqueViolation => "23505",
            ErrorClass::InsufficientPrivilege => "42501",
            ErrorClass::ReservedName => "42939",
            ErrorClass::Internal => "XX000",
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

/// A change the rules of the tables refuse ([`ErrorClass::Restricted`]); `Display` is the message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused(pub String);

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Classified for Refused {
    fn class(&self) -> ErrorClass {
        ErrorClass::Restricted
    }
}

/// The most characters of a user's value that a message shows; a longer value is cut (see
/// [`Quoted`]), so that a 2 MB FEN or PGN does not come back whole in an error.
pub const SHOWN_CHARS: usize = 100;

/// A value of the user as a message quotes it: `"value"`, or for a value longer than
/// [`SHOWN_CHARS`] characters its first ones, an ellipsis and its length:
/// `"rnbq…" (2000000 characters)`. Every message that quotes an input quotes it this way.
#[derive(Clone, Copy, Debug)]
pub struct Quoted<'a>(pub &'a str);

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.char_indices().nth(SHOWN_CHARS) {
            None => write!(f, "\"{}\"", self.0),
            Some((cut, _)) => write!(
                f,
                "\"{}…\" ({} characters)",
                &self.0[..cut],
                self.0.chars().count()
            ),
        }
    }
}

/// The longest message [`cut_message`] leaves whole, in characters.
pub const MESSAGE_CHARS: usize = 2000;

/// A message with every quoted part (between two `"`) longer than [`SHOWN_CHARS`] characters
/// cut as [`Quoted`] cuts it, and the whole cut in its middle if it is still longer than
/// [`MESSAGE_CHARS`]: the net under every message the SQL layer reports, so that no input comes
/// back whole, whoever wrote the message.
pub fn cut_message(message: &str) -> std::borrow::Cow<'_, str> {
    use std::borrow::Cow;
    if message.len() <= SHOWN_CHARS {
        return Cow::Borrowed(message);
    }
    let parts: Vec<&str> = message.split('"').collect();
    let mut out = String::with_capacity(message.len().min(4 * MESSAGE_CHARS));
    let mut changed = false;
    // what follows the closing quote of a part cut
    let mut after_quote = None;
    for (i, part) in parts.iter().enumerate() {
        if i > 0 {
            out.push('"');
            if let Some(length) = after_quote.take() {
                out.push_str(&format!(" ({length} characters)"));
            }
        }
        // the odd parts are quoted, but for a last quote without its partner
        let quoted = i % 2 == 1 && i + 1 < parts.len();
        match part.char_indices().nth(SHOWN_CHARS) {
            // (a value Quoted has cut already: its first characters and the ellipsis)
            Some((cut, '…')) if quoted && cut + '…'.len_utf8() == part.len() => {
                out.push_str(part)
            }
            Some((cut, _)) if quoted => {
                out.push_str(&part[..cut]);
                out.push('…');
                after_quote = Some(part.chars().count());
                changed = true;
            }
            _ => out.push_str(part),
        }
    }
    let total = out.chars().count();
    if total > MESSAGE_CHARS {
        let (head, tail) = (MESSAGE_CHARS / 2, MESSAGE_CHARS / 4);
        let byte = |n: usize| out.char_indices().nth(n).map_or(out.len(), |(b, _)| b);
        out = format!(
            "{} … ({} characters cut) … {}",
            &out[..byte(head)],
            total - head - tail,
            &out[byte(total - tail)..]
        );
        changed = true;
    }
    if changed {
        Cow::Owned(out)
    } else {
        Cow::Borrowed(message)
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
            ErrorClass::PrerequisiteState,
            ErrorClass::DatatypeMismatch,
            ErrorClass::DatetimeOverflow,
            ErrorClass::InvalidForeignKey,
            ErrorClass::FeatureNotSupported,
            ErrorClass::Restricted,
            ErrorClass::UndefinedColumn,
            ErrorClass::UniqueViolation,
            ErrorClass::InsufficientPrivilege,
            ErrorClass::ReservedName,
            ErrorClass::Internal,
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
        assert_eq!(Quoted("e4").to_string(), "\"e4\"");
        let exact = "x".repeat(SHOWN_CHARS);
        assert_eq!(Quoted(&exact).to_string(), format!("\"{exact}\""));
        let long = "é".repeat(2_000_000);
        let shown = Quoted(&long).to_string();
        assert_eq!(
            shown,
            format!("\"{}…\" (2000000 characters)", "é".repeat(SHOWN_CHARS))
        );

        assert_eq!(cut_message("short \"one\""), "short \"one\"");
        // a value cut already is left as it is
        let once = format!(
            "invalid FEN {}: cannot parse {}",
            Quoted(&long),
            Quoted(&long)
        );
        assert_eq!(cut_message(&once), once);
        let m = format!("ledger \"{long}\" does not exist");
        assert_eq!(
            cut_message(&m),
            format!(
                "ledger \"{}…\" (2000000 characters) does not exist",
                "é".repeat(SHOWN_CHARS)
            )
        );
        // two quoted values, the second short; a lone quote at the end
        let m = format!("a \"{long}\" b \"c\" d \"{}", "z".repeat(150));
        let cut = cut_message(&m);
        assert!(cut.starts_with("a \"éé"), "{cut}");
        assert!(
            cut.contains("…\" (2000000 characters) b \"c\" d \"zzz"),
            "{cut}"
        );
        assert!(cut.chars().count() <= MESSAGE_CHARS + 100);
        // nothing quoted: cut in the middle
        let m = format!("start {} end", "y".repeat(10_000));
        let cut = cut_message(&m);
        assert!(
            cut.starts_with("start yyy") && cut.ends_with("yyy end"),
            "{cut}"
        );
        assert!(cut.contains(" … (") && cut.chars().count() < MESSAGE_CHARS + 50);
    }
}
