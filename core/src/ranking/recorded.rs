//! A recorded Random Chess game: it is never deleted, and what decides its ratings and its
//! tournaments (result type, clock, players, service, whether it is ranked) never changes.

use crate::clock::Clock;
use crate::error::Refused;

/// What of a recorded game may not change.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordedGame {
    pub end_type: Option<String>,
    pub clock: Option<Clock>,
    pub white: Option<String>,
    pub black: Option<String>,
    pub service: Option<i32>,
    pub ranked: Option<bool>,
}

/// Clocks compare as PostgreSQL compares intervals ('1 day' equals '24 hours'); an unset clock
/// equals no clock.
fn same_clock(a: Option<Clock>, b: Option<Clock>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => {
            a.starting_time.cmp(&b.starting_time).is_eq()
                && a.move_increase.cmp(&b.move_increase).is_eq()
        }
        _ => false,
    }
}

impl RecordedGame {
    /// What `new` changes of the game that may not change, by name ("result type", "clock",
    /// "players", "service", "is_ranked"); empty when the update may go.
    pub fn changed_by(&self, new: &RecordedGame) -> Vec<&'static str> {
        [
            ("result type", self.end_type == new.end_type),
            ("clock", same_clock(self.clock, new.clock)),
            (
                "players",
                self.white == new.white && self.black == new.black,
            ),
            ("service", self.service == new.service),
            ("is_ranked", self.ranked == new.ranked),
        ]
        .into_iter()
        .filter(|(_, same)| !same)
        .map(|(what, _)| what)
        .collect()
    }

    /// Whether the update `new` of service game `id` may go ([`RecordedGame::changed_by`]).
    pub fn check_update(&self, new: &RecordedGame, id: i32) -> Result<(), Refused> {
        let changed = self.changed_by(new);
        if changed.is_empty() {
            return Ok(());
        }
        Err(Refused(format!(
            "the {} of service game {id} cannot change",
            changed.join(", ")
        )))
    }
}

/// A recorded game is never deleted.
pub fn deletion(id: i32) -> Refused {
    Refused(format!(
        "service game {id} cannot be deleted: games are kept for the rankings and tournaments"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::Interval;

    fn game() -> RecordedGame {
        RecordedGame {
            end_type: Some("WHITE_WINS".into()),
            clock: Some(Clock {
                starting_time: Interval::from_seconds(86_400),
                move_increase: Interval::from_seconds(2),
            }),
            white: Some("a".into()),
            black: Some("b".into()),
            service: Some(1),
            ranked: Some(true),
        }
    }

    #[test]
    fn nothing_changed_passes_and_equal_clocks_are_the_same() {
        let old = game();
        assert!(old.changed_by(&old).is_empty());
        // '1 day' equals '24 hours'
        let mut new = game();
        new.clock = Some(Clock {
            starting_time: Interval {
                months: 0,
                days: 1,
                micros: 0,
            },
            move_increase: Interval::from_seconds(2),
        });
        assert!(old.changed_by(&new).is_empty());
    }

    #[test]
    fn each_change_is_named_in_order() {
        let old = game();
        let new = RecordedGame {
            end_type: Some("DRAW".into()),
            clock: None,
            white: Some("b".into()),
            black: Some("a".into()),
            service: Some(2),
            ranked: Some(false),
        };
        assert_eq!(
            old.changed_by(&new),
            ["result type", "clock", "players", "service", "is_ranked"]
        );
        let mut new = game();
        new.black = None;
        assert_eq!(old.changed_by(&new), ["players"]);
    }

    #[test]
    fn a_refused_change_or_deletion_says_what_and_which_game() {
        use crate::error::{Classified, ErrorClass};
        let mut new = game();
        assert_eq!(game().check_update(&new, 4), Ok(()));
        new.service = Some(2);
        new.ranked = Some(false);
        let e = game().check_update(&new, 4).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the service, is_ranked of service game 4 cannot change"
        );
        assert_eq!(e.class(), ErrorClass::Restricted);
        assert_eq!(
            deletion(4).to_string(),
            "service game 4 cannot be deleted: games are kept for the rankings and tournaments"
        );
    }
}
