//! A tournament put together from the rows its tables hold (the glue reads them): its entrants'
//! accounts in pairing-number order with their ratings as of the start, its games and its byes,
//! each naming its players by account.

use std::collections::HashMap;

use super::{ByeKind, GameKind, Outcome, PlayerNo, Tournament, TournamentError};

/// A game of a tournament as its tables hold it: White's outcome and the kind of game.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredGame {
    pub round: u32,
    pub white: String,
    pub black: String,
    pub result: (Outcome, GameKind),
}

/// A bye as its table holds it: its worth in half points.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredBye {
    pub round: u32,
    pub user: String,
    pub half_points: i32,
}

/// Why a tournament's rows make no tournament.
#[derive(Clone, Debug, PartialEq)]
pub enum LoadError {
    /// The tournament itself is refused (its round count, its number of players).
    Tournament(TournamentError),
    /// A row the tables should never hold: a game or a bye of an unregistered player, a bye
    /// worth no kind of bye.
    Damaged(String),
    /// A game or a bye that breaks a rule of the tournament (two entries in one round).
    Rule(TournamentError),
}

/// The tournament of `round_count` rounds whose players are `users` (pairing number `i` is
/// `users[i]`), rated `ratings` as of the start, with its `games` and `byes` (in that order).
pub fn from_rows(
    round_count: u32,
    users: &[String],
    ratings: Vec<Option<i32>>,
    games: &[StoredGame],
    byes: &[StoredBye],
) -> Result<Tournament, LoadError> {
    let number: HashMap<&str, PlayerNo> = users
        .iter()
        .enumerate()
        .map(|(i, u)| (u.as_str(), i as PlayerNo))
        .collect();
    let mut t = Tournament::new(round_count, ratings).map_err(LoadError::Tournament)?;
    for g in games {
        crate::interrupt::check();
        let (Some(&w), Some(&b)) = (number.get(g.white.as_str()), number.get(g.black.as_str()))
        else {
            return Err(LoadError::Damaged(format!(
                "a game of round {} has an unregistered player",
                g.round
            )));
        };
        let (outcome, kind) = g.result;
        t.add_game(g.round, w, b, outcome, kind)
            .map_err(LoadError::Rule)?;
    }
    for bye in byes {
        let Some(&p) = number.get(bye.user.as_str()) else {
            return Err(LoadError::Damaged(format!(
                "a bye of round {} has an unregistered player",
                bye.round
            )));
        };
        let kind =
            ByeKind::worth(bye.half_points).map_err(|e| LoadError::Damaged(e.to_string()))?;
        t.add_bye(bye.round, p, kind).map_err(LoadError::Rule)?;
    }
    Ok(t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::RoundEntry;

    fn users() -> Vec<String> {
        ["ann", "bob", "cy"].map(String::from).to_vec()
    }

    fn game(round: u32, white: &str, black: &str) -> StoredGame {
        StoredGame {
            round,
            white: white.into(),
            black: black.into(),
            result: (Outcome::Win, GameKind::Played),
        }
    }

    fn bye(round: u32, user: &str, half_points: i32) -> StoredBye {
        StoredBye {
            round,
            user: user.into(),
            half_points,
        }
    }

    #[test]
    fn rows_make_the_tournament_by_pairing_number() {
        let ratings = vec![Some(1500), None, Some(1400)];
        let t = from_rows(
            2,
            &users(),
            ratings.clone(),
            &[game(1, "cy", "ann")],
            &[bye(1, "bob", 2)],
        )
        .unwrap();
        let mut by_hand = Tournament::new(2, ratings).unwrap();
        by_hand
            .add_game(1, 2, 0, Outcome::Win, GameKind::Played)
            .unwrap();
        by_hand.add_bye(1, 1, ByeKind::PairingAllocated).unwrap();
        assert_eq!(t, by_hand);
        assert_eq!(t.card(1)[0], RoundEntry::Bye(ByeKind::PairingAllocated));
    }

    #[test]
    fn damaged_rows_and_broken_rules_are_told_apart() {
        let r = |games: &[StoredGame], byes: &[StoredBye]| {
            from_rows(2, &users(), vec![None; 3], games, byes)
        };
        assert_eq!(
            r(&[game(2, "ann", "dan")], &[]),
            Err(LoadError::Damaged(
                "a game of round 2 has an unregistered player".into()
            ))
        );
        assert_eq!(
            r(&[], &[bye(1, "dan", 2)]),
            Err(LoadError::Damaged(
                "a bye of round 1 has an unregistered player".into()
            ))
        );
        assert_eq!(
            r(&[], &[bye(1, "ann", 3)]),
            Err(LoadError::Damaged(
                "a bye is worth 1, 0.5 or 0 points, not 1.5".into()
            ))
        );
        assert!(matches!(
            r(&[game(1, "ann", "bob")], &[bye(1, "bob", 2)]),
            Err(LoadError::Rule(_))
        ));
        assert!(matches!(
            from_rows(0, &users(), vec![None; 3], &[], &[]),
            Err(LoadError::Tournament(_))
        ));
    }
}
