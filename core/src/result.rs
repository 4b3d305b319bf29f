//! Game results as the Random Chess schema writes them: an end type (`1-0`, `0-1`,
//! `1/2-1/2`) and a reason that must fit it (a draw cannot end by checkmate).

use std::fmt;
use std::str::FromStr;

/// Who won, in the PGN spelling the schema stores.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameEndType {
    WhiteWins,
    BlackWins,
    Draw,
}

impl GameEndType {
    pub const ALL: [GameEndType; 3] = [Self::WhiteWins, Self::BlackWins, Self::Draw];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::WhiteWins => "1-0",
            Self::BlackWins => "0-1",
            Self::Draw => "1/2-1/2",
        }
    }

    /// The score of the given side: 1, 0.5 or 0.
    pub fn score(self, for_white: bool) -> f64 {
        match (self, for_white) {
            (Self::Draw, _) => 0.5,
            (Self::WhiteWins, true) | (Self::BlackWins, false) => 1.0,
            _ => 0.0,
        }
    }

    /// The reasons a game of this end type may give.
    pub fn reasons(self) -> &'static [GameEndReason] {
        use GameEndReason::*;
        match self {
            Self::WhiteWins | Self::BlackWins => {
                &[Unknown, Timeout, Checkmate, Resignation, Abandonment, Death]
            }
            Self::Draw => &[
                Unknown,
                TimeoutVsInsufficientMaterial,
                InsufficientMaterial,
                ThreefoldRepetition,
                FiftyMoveRule,
                Stalemate,
            ],
        }
    }
}

impl FromStr for GameEndType {
    type Err = ();
    fn from_str(s: &str) -> Result<Self, ()> {
        Self::ALL.into_iter().find(|t| t.as_str() == s).ok_or(())
    }
}

impl fmt::Display for GameEndType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameEndReason {
    Unknown,
    Timeout,
    Checkmate,
    Resignation,
    Abandonment,
    Death,
    TimeoutVsInsufficientMaterial,
    InsufficientMaterial,
    ThreefoldRepetition,
    FiftyMoveRule,
    Stalemate,
}

impl GameEndReason {
    pub const ALL: [GameEndReason; 11] = [
        Self::Unknown,
        Self::Timeout,
        Self::Checkmate,
        Self::Resignation,
        Self::Abandonment,
        Self::Death,
        Self::TimeoutVsInsufficientMaterial,
        Self::InsufficientMaterial,
        Self::ThreefoldRepetition,
        Self::FiftyMoveRule,
        Self::Stalemate,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Unknown => "UNKNOWN",
            Self::Timeout => "TIMEOUT",
            Self::Checkmate => "CHECKMATE",
            Self::Resignation => "RESIGNATION",
            Self::Abandonment => "ABANDONMENT",
            Self::Death => "DEATH",
            Self::TimeoutVsInsufficientMaterial => "TIMEOUT_VS_INSUFFICIENT_MATERIAL",
            Self::InsufficientMaterial => "INSUFFICIENT_MATERIAL",
            Self::ThreefoldRepetition => "THREEFOLD_REPETITION",
            Self::FiftyMoveRule => "FIFTY_MOVE_RULE",
            Self::Stalemate => "STALEMATE",
        }
    }
}

impl FromStr for GameEndReason {
    type Err = ();
    fn from_str(s: &str) -> Result<Self, ()> {
        Self::ALL.into_iter().find(|r| r.as_str() == s).ok_or(())
    }
}

impl fmt::Display for GameEndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A valid (end type, reason) pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameResult {
    end_type: GameEndType,
    reason: GameEndReason,
}

/// Why a pair of strings is not a game result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameResultError {
    UnknownEndType(String),
    UnknownReason(String),
    ReasonDoesNotFit(GameEndType, GameEndReason),
}

impl fmt::Display for GameResultError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnknownEndType(t) => {
                write!(
                    f,
                    "unknown game end type \"{t}\" (expected 1-0, 0-1 or 1/2-1/2)"
                )
            }
            Self::UnknownReason(r) => write!(f, "unknown game end reason \"{r}\""),
            Self::ReasonDoesNotFit(t, r) => write!(f, "a {t} game cannot end by {r}"),
        }
    }
}

impl std::error::Error for GameResultError {}

/// A stored `game_result` that its domain should have refused (a value built from the base type,
/// a damaged row): reported, not trusted (23514).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvalidStored(pub GameResultError);

impl fmt::Display for InvalidStored {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid game_result: {}", self.0)
    }
}

impl crate::error::Classified for InvalidStored {
    fn class(&self) -> crate::error::ErrorClass {
        crate::error::ErrorClass::RuleViolation
    }
}

impl GameResult {
    pub fn new(end_type: GameEndType, reason: GameEndReason) -> Result<Self, GameResultError> {
        if end_type.reasons().contains(&reason) {
            Ok(Self { end_type, reason })
        } else {
            Err(GameResultError::ReasonDoesNotFit(end_type, reason))
        }
    }

    /// Parses the two fields as the composite type stores them.
    pub fn parse(end_type: &str, reason: &str) -> Result<Self, GameResultError> {
        let t = end_type
            .parse()
            .map_err(|_| GameResultError::UnknownEndType(end_type.to_owned()))?;
        let r = reason
            .parse()
            .map_err(|_| GameResultError::UnknownReason(reason.to_owned()))?;
        Self::new(t, r)
    }

    /// The two fields of a stored `game_result` (a NULL or unreadable field: none).
    pub fn parse_stored(
        end_type: Option<&str>,
        reason: Option<&str>,
    ) -> Result<Self, InvalidStored> {
        Self::parse(end_type.unwrap_or_default(), reason.unwrap_or_default()).map_err(InvalidStored)
    }

    pub fn end_type(self) -> GameEndType {
        self.end_type
    }

    pub fn reason(self) -> GameEndReason {
        self.reason
    }

    /// 1, 0.5 or 0 for the given side.
    pub fn score(self, for_white: bool) -> f64 {
        self.end_type.score(for_white)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_pair_parses_and_round_trips() {
        let mut count = 0;
        for t in GameEndType::ALL {
            for r in t.reasons() {
                let g = GameResult::parse(t.as_str(), r.as_str()).unwrap();
                assert_eq!((g.end_type(), g.reason()), (t, *r));
                count += 1;
            }
        }
        assert_eq!(count, 18);
    }

    #[test]
    fn a_stored_result_the_domain_should_have_refused_is_a_rule_violation() {
        use crate::error::{Classified, ErrorClass};
        let ok = GameResult::parse_stored(Some("1-0"), Some("CHECKMATE")).unwrap();
        assert_eq!(ok.end_type().as_str(), "1-0");
        let e = GameResult::parse_stored(None, Some("CHECKMATE")).unwrap_err();
        assert_eq!(e.class(), ErrorClass::RuleViolation);
        assert_eq!(
            e.to_string(),
            "invalid game_result: unknown game end type \"\" (expected 1-0, 0-1 or 1/2-1/2)"
        );
        let e = GameResult::parse_stored(Some("1-0"), Some("STALEMATE")).unwrap_err();
        assert!(e
            .to_string()
            .starts_with("invalid game_result: a 1-0 game cannot end by"));
    }

    #[test]
    fn reasons_must_fit_the_end_type() {
        assert_eq!(
            GameResult::parse("1/2-1/2", "CHECKMATE"),
            Err(GameResultError::ReasonDoesNotFit(
                GameEndType::Draw,
                GameEndReason::Checkmate
            ))
        );
        assert!(GameResult::parse("1-0", "STALEMATE").is_err());
        assert!(GameResult::parse("0-1", "FIFTY_MOVE_RULE").is_err());
    }

    #[test]
    fn unknown_spellings_are_rejected() {
        assert!(matches!(
            GameResult::parse("1:0", "TIMEOUT"),
            Err(GameResultError::UnknownEndType(_))
        ));
        assert!(matches!(
            GameResult::parse("1-0", "timeout"),
            Err(GameResultError::UnknownReason(_))
        ));
        assert!(GameResult::parse("1-0", " TIMEOUT").is_err());
        assert!(GameResult::parse("½-½", "UNKNOWN").is_err());
    }

    #[test]
    fn scores() {
        let win = GameResult::parse("1-0", "CHECKMATE").unwrap();
        let loss = GameResult::parse("0-1", "TIMEOUT").unwrap();
        let draw = GameResult::parse("1/2-1/2", "STALEMATE").unwrap();
        assert_eq!((win.score(true), win.score(false)), (1.0, 0.0));
        assert_eq!((loss.score(true), loss.score(false)), (0.0, 1.0));
        assert_eq!((draw.score(true), draw.score(false)), (0.5, 0.5));
    }
}
