//! The errors of the rankings' writers that are not a rating system's: a ranking that is not
//! there, settings a game could not be rated by, a game that cannot take a place in a ranking.

use std::fmt;

use crate::error::{Classified, ErrorClass};

/// Why a ranking's writer stops; `Display` is the message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RankingError {
    /// No ranking has this id (22023).
    Unknown(i32),
    /// The ranking's settings are refused by its rating system (23514).
    SettingsRejected { ranking: i32, reason: String },
    /// A game's clock times the ranking's `extra_move_multiplier` leaves an interval's range
    /// (22008, as `clock_base_time` reports it).
    ClockOverflow { game: i32, ranking: i32 },
    /// A ranked game dated `infinity` or `-infinity`, which has no place in a ranking's order
    /// (22008; the ledgers refuse one alike).
    InfiniteDate(i32),
    /// A game whose result type is none the rankings know (internal: the column's type holds
    /// only known ones).
    InvalidResult(i32),
}

impl fmt::Display for RankingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RankingError::Unknown(id) => write!(f, "ranking {id} does not exist"),
            RankingError::SettingsRejected { ranking, reason } => {
                write!(f, "ranking {ranking}: settings rejected: {reason}")
            }
            RankingError::ClockOverflow { game, ranking } => write!(
                f,
                "interval out of range: the clock of game {game} times extra_move_multiplier of \
                 ranking {ranking}"
            ),
            RankingError::InfiniteDate(game) => write!(
                f,
                "service game {game}: a ranked game needs a finite creation_date"
            ),
            RankingError::InvalidResult(game) => write!(f, "game {game} has an invalid result"),
        }
    }
}

impl Classified for RankingError {
    fn class(&self) -> ErrorClass {
        match self {
            RankingError::Unknown(_) => ErrorClass::InvalidParameter,
            RankingError::SettingsRejected { .. } => ErrorClass::RuleViolation,
            RankingError::ClockOverflow { .. } | RankingError::InfiniteDate(_) => {
                ErrorClass::DatetimeOverflow
            }
            RankingError::InvalidResult(_) => ErrorClass::Internal,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_error_has_its_message_and_sqlstate() {
        let cases = [
            (RankingError::Unknown(4), "ranking 4 does not exist", "22023"),
            (
                RankingError::SettingsRejected {
                    ranking: 2,
                    reason: "K must be positive".into(),
                },
                "ranking 2: settings rejected: K must be positive",
                "23514",
            ),
            (
                RankingError::ClockOverflow {
                    game: 7,
                    ranking: 3,
                },
                "interval out of range: the clock of game 7 times extra_move_multiplier of ranking 3",
                "22008",
            ),
            (
                RankingError::InfiniteDate(9),
                "service game 9: a ranked game needs a finite creation_date",
                "22008",
            ),
            (
                RankingError::InvalidResult(9),
                "game 9 has an invalid result",
                "XX000",
            ),
        ];
        for (error, message, sqlstate) in cases {
            assert_eq!(
                (error.to_string().as_str(), error.sqlstate()),
                (message, sqlstate)
            );
        }
    }
}
