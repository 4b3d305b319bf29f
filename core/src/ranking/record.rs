//! A player's record in a ranking (games, wins, draws, losses, peak rating) and the test that
//! decides whether new games can simply be appended to a ranking's history.

use std::collections::HashMap;
use std::hash::Hash;

use super::replay::{GameKey, RatedGame};

/// Games, results and peak rating of one player in one ranking.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Record {
    pub games: i32,
    pub wins: i32,
    pub draws: i32,
    pub losses: i32,
    /// Highest rating after any game; `None` before the first.
    pub peak: Option<f64>,
}

impl Record {
    /// Adds a game the player scored `score` in (1, 0.5 or 0), ending at `rating_after`.
    pub fn add(&mut self, score: f64, rating_after: f64) {
        self.games += 1;
        if score >= 1.0 {
            self.wins += 1;
        } else if score <= 0.0 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
        self.peak = Some(self.peak.map_or(rating_after, |p| p.max(rating_after)));
    }
}

/// True when `games` (new games of one ranking) can be appended: every player's latest rated
/// game (`latest`) comes before that player's first new game. Then no rated game has a player
/// whose earlier state changes, so no existing entry needs recomputing.
pub fn appendable<P: Eq + Hash>(latest: &HashMap<P, GameKey>, games: &[RatedGame<P>]) -> bool {
    let mut first_new: HashMap<&P, GameKey> = HashMap::new();
    for g in games {
        for p in [&g.white, &g.black] {
            first_new
                .entry(p)
                .and_modify(|k| *k = (*k).min(g.key))
                .or_insert(g.key);
        }
    }
    first_new
        .iter()
        .all(|(p, first)| latest.get(*p).is_none_or(|last| last < first))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(at: i64, id: i32) -> GameKey {
        GameKey {
            played_at: at,
            game_id: id,
        }
    }

    fn game(id: i32, at: i64, w: &'static str, b: &'static str) -> RatedGame<&'static str> {
        RatedGame {
            key: key(at, id),
            white: w,
            black: b,
            white_score: 1.0,
        }
    }

    #[test]
    fn records_count_results_and_peak() {
        let mut r = Record::default();
        r.add(1.0, 820.0);
        r.add(0.5, 815.0);
        r.add(0.0, 790.0);
        assert_eq!(
            r,
            Record {
                games: 3,
                wins: 1,
                draws: 1,
                losses: 1,
                peak: Some(820.0)
            }
        );
    }

    #[test]
    fn later_games_append() {
        let latest = HashMap::from([("a", key(10, 1)), ("b", key(20, 2))]);
        assert!(appendable(&latest, &[game(3, 30, "a", "b")]));
        assert!(appendable(&latest, &[game(3, 30, "a", "c")]));
        // Same date, larger id: after.
        assert!(appendable(&latest, &[game(3, 20, "b", "c")]));
    }

    #[test]
    fn an_earlier_game_of_a_rated_player_does_not_append() {
        let latest = HashMap::from([("a", key(10, 1)), ("b", key(20, 2))]);
        assert!(!appendable(&latest, &[game(3, 15, "b", "c")]));
        // Same date, smaller id: before.
        assert!(!appendable(&latest, &[game(1, 20, "b", "c")]));
    }

    #[test]
    fn each_player_is_checked_against_their_own_first_new_game() {
        // c's new game comes early but c has no history; a's history ends before a's new game.
        let latest = HashMap::from([("a", key(10, 1))]);
        assert!(appendable(
            &latest,
            &[game(5, 5, "c", "d"), game(6, 50, "a", "c")]
        ));
        assert!(!appendable(
            &latest,
            &[game(5, 5, "a", "d"), game(6, 50, "a", "c")]
        ));
    }
}
