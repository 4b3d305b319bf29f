//! Replaying a ranking's games in `(creation_date, id)` order. The trigger, the out-of-order
//! repair and `recalculate_ranking` all call [`replay`], so an incremental history and one
//! rebuilt from scratch are computed by the same code from the same numbers.

use std::collections::HashMap;
use std::hash::Hash;

use super::system::{PlayerState, RatingSystem};
use crate::rating::RatingError;

/// The order of the history: creation date (microseconds), then game id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GameKey {
    pub played_at: i64,
    pub game_id: i32,
}

/// A game that counts in the ranking.
#[derive(Clone, Debug, PartialEq)]
pub struct RatedGame<P> {
    pub key: GameKey,
    pub white: P,
    pub black: P,
    pub white_score: f64,
}

/// Both players' states after a game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatedPair {
    pub white: PlayerState,
    pub black: PlayerState,
}

/// Rates `games` (sorted by key) one after another. `states` holds each player's state before
/// the first game and is left holding the states after the last; players missing from it start
/// at the system's starting state. Returns the states after each game, in order.
pub fn replay<P: Eq + Hash + Clone + std::fmt::Display>(
    system: &RatingSystem,
    states: &mut HashMap<P, PlayerState>,
    games: &[RatedGame<P>],
) -> Result<Vec<RatedPair>, RatingError> {
    let mut out = Vec::with_capacity(games.len());
    let mut previous: Option<GameKey> = None;
    for game in games {
        if previous.is_some_and(|p| p >= game.key) {
            return Err(RatingError::invalid(format!(
                "games must be replayed in (creation_date, id) order; game {} is out of order",
                game.key.game_id
            )));
        }
        previous = Some(game.key);
        if game.white == game.black {
            return Err(RatingError::invalid(format!(
                "game {}: {} cannot play against themselves in a ranked game",
                game.key.game_id, game.white
            )));
        }
        let white = *states
            .entry(game.white.clone())
            .or_insert_with(|| system.start());
        let black = *states
            .entry(game.black.clone())
            .or_insert_with(|| system.start());
        let (w, b) = system.rate(&white, &black, game.white_score, game.key.played_at)?;
        states.insert(game.white.clone(), w);
        states.insert(game.black.clone(), b);
        out.push(RatedPair { white: w, black: b });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(id: i32, at: i64, w: &str, b: &str, s: f64) -> RatedGame<String> {
        RatedGame {
            key: GameKey {
                played_at: at,
                game_id: id,
            },
            white: w.into(),
            black: b.into(),
            white_score: s,
        }
    }

    const ELO: RatingSystem = RatingSystem::Elo {
        starting: 800.0,
        k: 40.0,
    };

    #[test]
    fn a_replay_in_two_parts_equals_one_replay() {
        let games = vec![
            game(1, 10, "a", "b", 1.0),
            game(2, 20, "b", "c", 0.5),
            game(3, 30, "c", "a", 0.0),
            game(4, 40, "a", "b", 0.5),
        ];
        let mut whole = HashMap::new();
        let all = replay(&ELO, &mut whole, &games).unwrap();
        let mut split = HashMap::new();
        let mut parts = replay(&ELO, &mut split, &games[..2]).unwrap();
        parts.extend(replay(&ELO, &mut split, &games[2..]).unwrap());
        assert_eq!(all, parts);
        assert_eq!(whole, split);
    }

    #[test]
    fn states_chain_from_game_to_game() {
        let games = vec![game(1, 10, "a", "b", 1.0), game(2, 20, "a", "c", 1.0)];
        let mut states = HashMap::new();
        let out = replay(&ELO, &mut states, &games).unwrap();
        assert_eq!(out[0].white.rating, 820.0);
        assert_eq!(out[0].black.rating, 780.0);
        // a (820) beats a newcomer (800): E = 1/(1+10^(-20/400)).
        let e = 1.0 / (1.0 + 10f64.powf(-20.0 / 400.0));
        assert!((out[1].white.rating - (820.0 + 40.0 * (1.0 - e))).abs() < 1e-9);
        assert_eq!(states["c"].rating, out[1].black.rating);
    }

    #[test]
    fn out_of_order_input_is_refused() {
        let games = vec![game(2, 10, "a", "b", 1.0), game(1, 10, "a", "b", 1.0)];
        assert!(replay(&ELO, &mut HashMap::new(), &games).is_err());
    }

    #[test]
    fn playing_oneself_is_refused() {
        let err = replay(&ELO, &mut HashMap::new(), &[game(1, 1, "a", "a", 1.0)]).unwrap_err();
        assert!(err.message.contains("cannot play against themselves"));
    }
}
