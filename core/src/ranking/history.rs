//! A ranking's history: its games rated in `(creation_date, id)` order by the ledgers' replay
//! ([`crate::ledger::replay`]; a ranking is a ledger without limits or seasons, so rankings have
//! no rating loop of their own), each entry numbered and chained to the same player's previous
//! entry (`elo_history.previous_entry`) by [`chain`]. The ledgers' writer
//! (`crate::ledger::writer`, with the rankings' history in the glue) replays a ranking's games
//! with [`rules`] and newcomers starting as [`newcomer`], and the history chains the entries.

use std::collections::HashMap;

use super::system::{PlayerState, RatingSystem};
use crate::ledger::{
    integer_key, integer_key_id, rename_game, Entry, LedgerGame, LedgerKey, LedgerRules, Limits,
    Outcome, Provisional, Standing,
};
use crate::rating::RatingError;

/// The order of the history: creation date (microseconds), then game id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GameKey {
    pub played_at: i64,
    pub game_id: i32,
}

impl GameKey {
    /// The key of the game in the ledgers' order: the id as an [`integer_key`], so that byte
    /// order is numeric order.
    pub fn ledger_key(self) -> LedgerKey {
        LedgerKey {
            at: self.played_at,
            id: integer_key(i64::from(self.game_id)),
        }
    }

    /// The game of a [`GameKey::ledger_key`]; `None` for a key made otherwise.
    pub fn of(key: &LedgerKey) -> Option<GameKey> {
        Some(GameKey {
            played_at: key.at,
            game_id: i32::try_from(integer_key_id(&key.id)?).ok()?,
        })
    }
}

/// A game that counts in the ranking.
#[derive(Clone, Debug, PartialEq)]
pub struct RatedGame<P> {
    pub key: GameKey,
    pub white: P,
    pub black: P,
    pub white_score: f64,
}

/// A player's latest entry in a ranking: its id, the standing after it (rating state, games,
/// wins, draws, losses and peak; the peak is the highest rating after a game, the starting
/// rating not counted) and its game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tip {
    pub entry: i32,
    pub standing: Standing,
    pub last: GameKey,
}

/// One entry of the history: a player's state after a game.
#[derive(Clone, Debug, PartialEq)]
pub struct HistoryEntry {
    pub id: i32,
    pub player: String,
    pub game: GameKey,
    pub state: PlayerState,
    /// The player's entry before this one; `None` for the player's first.
    pub previous: Option<i32>,
}

/// The standing of a player without games in a ranking: the peak stays unset (−∞) until the
/// first game, since a ranking's peak counts ratings after games only.
pub fn newcomer(system: &RatingSystem) -> Standing {
    Standing {
        peak: f64::NEG_INFINITY,
        ..Standing::start(system)
    }
}

/// The rules a ranking's games are replayed by: its rating system, no limits, no provisional
/// period (a ranking is a ledger without limits or seasons).
pub fn rules(system: &RatingSystem) -> LedgerRules {
    LedgerRules {
        system: *system,
        limits: Limits::default(),
        provisional: Provisional::default(),
    }
}

/// Numbers the entries of a replay of a ranking's games (in replay order) and chains each to the
/// same player's previous entry. `latest` holds each player's latest entry id before the replay
/// (a player without one has none) and is left holding the latest after. `id_of(player, game)`
/// gives an entry's id (a stored entry's, or a new one). `None` when an entry's key is not a
/// ranking's ([`GameKey::ledger_key`]).
pub fn chain(
    entries: Vec<Entry>,
    latest: &mut HashMap<String, i32>,
    mut id_of: impl FnMut(&str, GameKey) -> i32,
) -> Option<Vec<HistoryEntry>> {
    let mut out = Vec::with_capacity(entries.len());
    for entry in entries {
        let game = GameKey::of(&entry.key)?;
        let id = id_of(&entry.player, game);
        let previous = latest.insert(entry.player.clone(), id);
        out.push(HistoryEntry {
            id,
            player: entry.player,
            game,
            state: entry.after.state,
            previous,
        });
    }
    Some(out)
}

/// Rates `games` (sorted by key) after the players' `tips` (a player without one is a
/// newcomer) and returns their entries, two per game, white's first: the replay by [`rules`],
/// then [`chain`], the steps the writer takes for a ranking (`crate::ledger::writer`), at once
/// for the tests. `id_of(player, game)` gives each entry's id (a stored entry's, or a new one);
/// `tips` is left holding every player's latest entry.
#[cfg(test)]
pub(crate) fn rate(
    system: &RatingSystem,
    tips: &mut HashMap<String, Tip>,
    games: &[RatedGame<String>],
    id_of: impl FnMut(&str, GameKey) -> i32,
) -> Result<Vec<HistoryEntry>, RatingError> {
    let mut standings: HashMap<String, Standing> = HashMap::new();
    for g in games {
        for p in [&g.white, &g.black] {
            if !standings.contains_key(p) {
                let standing = tips.get(p).map_or_else(|| newcomer(system), |t| t.standing);
                standings.insert(p.clone(), standing);
            }
        }
    }
    let ledger_games: Vec<LedgerGame> = games.iter().map(RatedGame::ledger_game).collect();
    let replayed = crate::ledger::replay(&rules(system), &mut standings, &ledger_games)
        .map_err(name_games_by_id)?;
    let mut latest: HashMap<String, i32> = tips.iter().map(|(p, t)| (p.clone(), t.entry)).collect();
    let out = chain(replayed, &mut latest, id_of).expect("a ranking's games have ranking keys");
    for e in &out {
        tips.insert(
            e.player.clone(),
            Tip {
                entry: e.id,
                standing: standings[&e.player],
                last: e.game,
            },
        );
    }
    Ok(out)
}

/// A replay's error names its game by the ledger key; a ranking names it by the game's id.
pub fn name_games_by_id(e: RatingError) -> RatingError {
    rename_game(e, |key| {
        integer_key_id(key).map_or_else(|| key.to_owned(), |id| id.to_string())
    })
}

impl RatedGame<String> {
    /// The game as the ledgers' replay takes it.
    pub fn ledger_game(&self) -> LedgerGame {
        LedgerGame {
            key: self.key.ledger_key(),
            white: self.white.clone(),
            black: self.black.clone(),
            outcome: Outcome::White(self.white_score),
        }
    }
}

/// True when `games` can be appended after the players' latest games (`latest`): the ledgers'
/// rule ([`crate::ledger::appendable`]) over the history's keys, which the writer applies to a
/// ranking's ledger keys; here for the tests, over game keys.
#[cfg(test)]
pub(crate) fn appendable(latest: &HashMap<String, GameKey>, games: &[RatedGame<String>]) -> bool {
    let latest: HashMap<String, LedgerKey> = latest
        .iter()
        .map(|(p, k)| (p.clone(), k.ledger_key()))
        .collect();
    let games: Vec<LedgerGame> = games.iter().map(RatedGame::ledger_game).collect();
    crate::ledger::appendable(&latest, &games)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rating::glicko2;

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

    /// Rates with ids numbered from `next` on.
    fn rate_numbered(
        system: &RatingSystem,
        tips: &mut HashMap<String, Tip>,
        games: &[RatedGame<String>],
        next: &mut i32,
    ) -> Vec<HistoryEntry> {
        rate(system, tips, games, |_, _| {
            *next += 1;
            *next
        })
        .unwrap()
    }

    #[test]
    fn the_random_chess_elo_rule() {
        // Q = 10^(R/400), E = Q_self / (Q_self + Q_opp), new = R + K (S − E).
        let games = [game(1, 10, "a", "b", 1.0), game(2, 20, "a", "c", 0.5)];
        let mut tips = HashMap::new();
        let out = rate_numbered(&ELO, &mut tips, &games, &mut 0);
        assert_eq!((out[0].state.rating, out[1].state.rating), (820.0, 780.0));
        let q = |r: f64| 10f64.powf(r / 400.0);
        let want = 820.0 + 40.0 * (0.5 - q(820.0) / (q(820.0) + q(800.0)));
        assert!((out[2].state.rating - want).abs() < 1e-9);
        assert_eq!(out[3].player, "c");
    }

    /// `chain` over a replay: ids as `id_of` gives them, each entry after the player's latest
    /// (stored before, or made in this replay), and `latest` left at each player's last entry.
    #[test]
    fn chain_numbers_entries_after_the_latest_stored_ones() {
        let games: Vec<LedgerGame> = [game(1, 10, "a", "b", 1.0), game(2, 20, "b", "c", 0.5)]
            .iter()
            .map(RatedGame::ledger_game)
            .collect();
        let entries = crate::ledger::replay(&rules(&ELO), &mut HashMap::new(), &games).unwrap();
        let mut latest = HashMap::from([("b".to_string(), 7)]);
        let mut next = 40;
        let out = chain(entries.clone(), &mut latest, |player, game| {
            next += 1;
            if (player, game.game_id) == ("c", 2) {
                99 // a stored entry's id, kept by a replay
            } else {
                next
            }
        })
        .unwrap();
        let got: Vec<(i32, &str, i32, Option<i32>)> = out
            .iter()
            .map(|e| (e.id, e.player.as_str(), e.game.game_id, e.previous))
            .collect();
        assert_eq!(
            got,
            [
                (41, "a", 1, None),
                (42, "b", 1, Some(7)),
                (43, "b", 2, Some(42)),
                (99, "c", 2, None),
            ]
        );
        assert_eq!(out[1].state, entries[1].after.state);
        assert_eq!(
            latest,
            HashMap::from([("a".into(), 41), ("b".into(), 43), ("c".into(), 99)])
        );
        // an entry of a game keyed otherwise than a ranking's is refused
        let mut foreign = entries;
        foreign[0].key.id = "g1".into();
        assert_eq!(chain(foreign, &mut HashMap::new(), |_, _| 1), None);
    }

    #[test]
    fn entries_chain_to_the_players_previous_entry() {
        let games = [
            game(1, 10, "a", "b", 1.0),
            game(2, 20, "b", "c", 0.0),
            game(3, 30, "c", "a", 0.5),
        ];
        let mut tips = HashMap::new();
        let out = rate_numbered(&ELO, &mut tips, &games, &mut 100);
        let chain: Vec<(i32, &str, Option<i32>)> = out
            .iter()
            .map(|e| (e.id, e.player.as_str(), e.previous))
            .collect();
        assert_eq!(
            chain,
            [
                (101, "a", None),
                (102, "b", None),
                (103, "b", Some(102)),
                (104, "c", None),
                (105, "c", Some(104)),
                (106, "a", Some(101)),
            ]
        );
        assert_eq!(tips["a"].entry, 106);
        assert_eq!(tips["b"].last.game_id, 2);
    }

    #[test]
    fn records_count_results_and_the_peak_after_games_only() {
        // b loses, draws and loses: its peak is its best rating after a game, below the start.
        let games = [
            game(1, 10, "a", "b", 1.0),
            game(2, 20, "b", "a", 0.5),
            game(3, 30, "a", "b", 1.0),
        ];
        let mut tips = HashMap::new();
        let out = rate_numbered(&ELO, &mut tips, &games, &mut 0);
        let b = tips["b"].standing;
        assert_eq!((b.games, b.wins, b.draws, b.losses), (3, 0, 1, 2));
        let b_ratings = [
            out[1].state.rating,
            out[2].state.rating,
            out[5].state.rating,
        ];
        assert!(b_ratings.iter().all(|&r| r < 800.0));
        assert_eq!(b.peak, b_ratings.iter().copied().fold(f64::MIN, f64::max));
        let a = tips["a"].standing;
        assert_eq!((a.games, a.wins, a.draws, a.losses), (3, 2, 1, 0));
    }

    #[test]
    fn a_history_rated_in_two_parts_equals_one_rated_at_once() {
        let games = [
            game(1, 10, "a", "b", 1.0),
            game(2, 20, "b", "c", 0.5),
            game(3, 30, "c", "a", 0.0),
            game(4, 40, "a", "b", 0.5),
        ];
        let glicko = RatingSystem::Glicko2 {
            starting: glicko2::Rating::new(1500.0, 350.0, 0.06),
            tau: 0.5,
            period_micros: Some(15),
            bounds: glicko2::Bounds::default(),
        };
        for system in [ELO, glicko, RatingSystem::Skemino { starting: 1500.0 }] {
            let mut whole = HashMap::new();
            let all = rate_numbered(&system, &mut whole, &games, &mut 0);
            let (mut split, mut next) = (HashMap::new(), 0);
            let mut parts = rate_numbered(&system, &mut split, &games[..2], &mut next);
            parts.extend(rate_numbered(&system, &mut split, &games[2..], &mut next));
            assert_eq!(all, parts);
            assert_eq!(whole, split);
        }
    }

    #[test]
    fn a_zero_sum_system_stays_zero_sum() {
        let mut tips = HashMap::new();
        let skemino = RatingSystem::Skemino { starting: 1500.0 };
        let games = [game(1, 10, "a", "b", 1.0), game(2, 20, "a", "b", 0.5)];
        let out = rate_numbered(&skemino, &mut tips, &games, &mut 0);
        for pair in out.chunks(2) {
            assert_eq!(pair[0].state.rating + pair[1].state.rating, 3000.0);
        }
    }

    #[test]
    fn errors_name_the_game_by_its_id() {
        let err = rate(
            &ELO,
            &mut HashMap::new(),
            &[game(7, 1, "a", "a", 1.0)],
            |_, _| 1,
        )
        .unwrap_err();
        assert_eq!(err.message, "game 7: a cannot play against themselves");
        let out_of_order = [game(2, 10, "a", "b", 1.0), game(1, 10, "a", "b", 1.0)];
        let err = rate(&ELO, &mut HashMap::new(), &out_of_order, |_, _| 1).unwrap_err();
        assert!(err.message.starts_with("game 1: "), "{}", err.message);
    }

    #[test]
    fn a_game_key_survives_the_ledger_key() {
        for game_id in [i32::MIN, -1, 0, 7, i32::MAX] {
            let key = GameKey {
                played_at: -5,
                game_id,
            };
            assert_eq!(GameKey::of(&key.ledger_key()), Some(key));
        }
        let too_big = LedgerKey {
            at: 0,
            id: integer_key(i64::from(i32::MAX) + 1),
        };
        assert_eq!(GameKey::of(&too_big), None);
        let text = LedgerKey {
            at: 0,
            id: "g1".into(),
        };
        assert_eq!(GameKey::of(&text), None);
    }

    #[test]
    fn later_games_append_and_earlier_ones_do_not() {
        let key = |at, game_id| GameKey {
            played_at: at,
            game_id,
        };
        let latest = HashMap::from([("a".to_string(), key(10, 1)), ("b".to_string(), key(20, 2))]);
        assert!(appendable(&latest, &[game(3, 30, "a", "b", 1.0)]));
        // same date, larger id: after; smaller id: before
        assert!(appendable(&latest, &[game(3, 20, "b", "c", 1.0)]));
        assert!(!appendable(&latest, &[game(1, 20, "b", "c", 1.0)]));
        assert!(!appendable(&latest, &[game(3, 15, "b", "c", 1.0)]));
        // ids compare as numbers, not as text
        let latest = HashMap::from([("a".to_string(), key(10, 9))]);
        assert!(appendable(&latest, &[game(10, 10, "a", "b", 1.0)]));
    }
}
