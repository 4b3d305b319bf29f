//! A ranking's history: its games rated in `(creation_date, id)` order by the ledgers' replay
//! ([`crate::ledger::replay`]; a ranking is a ledger without limits or seasons, so rankings have
//! no rating loop of their own), each entry numbered and chained to the same player's previous
//! entry (`elo_history.previous_entry`) by [`chain`]. The ledgers' writer
//! (`crate::ledger::writer`, with the rankings' history in the glue) replays a ranking's games
//! with [`rules`] and newcomers starting as [`newcomer`], and the history chains the entries.

use std::collections::HashMap;

use crate::clock::Interval;
use crate::ledger::writer::{self, ReplayFrom, ScopeChanges};
use crate::ledger::{
    integer_key, integer_key_id, rateable_date, rename_game, Entry, LedgerGame, LedgerKey,
    LedgerRules, Limits, Outcome, Provisional, Standing,
};
use crate::rating::glicko2::{GameRule, RdGrowth};
use crate::rating::system::{PlayerState, RatingSystem, SystemSettings};
use crate::rating::RatingError;

use super::error::RankingError;

/// The order of the history: creation date (microseconds), then game id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GameKey {
    pub played_at: i64,
    pub game_id: i32,
}

impl GameKey {
    /// Before every game: a replay from it rebuilds the ranking from scratch.
    pub const START: GameKey = GameKey {
        played_at: i64::MIN,
        game_id: i32::MIN,
    };

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

    /// The key of ranked game `game_id` dated `played_at`; 22008 when the date is infinite
    /// ([`rateable_date`]).
    pub fn rateable(played_at: i64, game_id: i32) -> Result<GameKey, RankingError> {
        if !rateable_date(played_at) {
            return Err(RankingError::InfiniteDate(game_id));
        }
        Ok(GameKey { played_at, game_id })
    }

    /// Where a replay of a re-dated game starts: the earlier of its two places.
    pub fn redated(game_id: i32, old: i64, new: i64) -> GameKey {
        GameKey {
            played_at: old.min(new),
            game_id,
        }
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

impl Tip {
    /// A player's latest entry as a ranking keeps it (`ranking_players`): its id, the rating,
    /// RD and volatility after it, the record up to it (games, wins, draws, losses), the peak and
    /// its game (the state's last game too). A ranking keeps no streaks, sums or moves per period.
    pub fn kept(
        entry: i32,
        (rating, rd, volatility): (f64, Option<f64>, Option<f64>),
        [games, wins, draws, losses]: [i32; 4],
        peak: f64,
        last: GameKey,
    ) -> Tip {
        let state = PlayerState {
            rating,
            rd,
            volatility,
            last_played: Some(last.played_at),
        };
        Tip {
            entry,
            standing: Standing {
                state,
                games,
                wins,
                draws,
                losses,
                peak,
                streak: 0,
                best_streak: 0,
                opponents_sum: 0.0,
                score_sum: 0.0,
                period_moved: 0.0,
            },
            last,
        }
    }
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

/// A `rankings` row's rating settings as stored: NULL where its rating system needs none.
#[derive(Clone, Copy, Debug)]
pub struct RankingSettings<'a> {
    pub rating_system: &'a str,
    pub starting_rating: f64,
    pub k_factor: Option<f64>,
    pub tau: Option<f64>,
    pub starting_rd: Option<f64>,
    pub starting_volatility: Option<f64>,
    pub rating_period: Option<Interval>,
}

impl RankingSettings<'_> {
    /// The ranking's rating system. The rankings rate Glicko-2 as they always have (lichess's
    /// rule, no bounds of their own, the RD growing with the time elapsed), a rating period
    /// counts at least 1 µs, and a parameter left NULL is NaN, which the system refuses to use.
    /// The engine's bounds ([`RatingSystem::validated`]) are not checked here: a ranking kept
    /// from 0.12 with settings 0.12 took would otherwise block every ranked game.
    pub fn system(&self) -> Result<RatingSystem, String> {
        let nan = |v: Option<f64>| v.unwrap_or(f64::NAN);
        RatingSystem::from_settings(&SystemSettings {
            rating_system: self.rating_system,
            starting_rating: self.starting_rating,
            k_factor: nan(self.k_factor),
            tau: nan(self.tau),
            starting_rd: nan(self.starting_rd),
            starting_volatility: nan(self.starting_volatility),
            rating_period_micros: self
                .rating_period
                .map(|p| p.ordering_key().clamp(1, i64::MAX as i128) as i64),
            glicko2_rule: GameRule::Lichess,
            min_rd: None,
            max_rd: None,
            max_volatility: None,
            volatility_epsilon: None,
            rd_growth: RdGrowth::Elapsed,
        })
    }
}

/// A ranking as the ledgers' writer knows it: a ledger of one scope (`""`) whose games are
/// rated by [`rules`] and kept by the ranking's tables.
pub fn as_ledger<B>(book: B, id: i32, system: &RatingSystem) -> writer::Ledger<B> {
    writer::Ledger {
        book,
        id,
        rules: rules(system),
        keeper: writer::Keeper::Ranking,
    }
}

/// New games of rankings as the writer applies them: each ranking's games (in key order) in its
/// one scope, no game changed or deleted.
pub fn new_games<B>(rankings: Vec<(writer::Ledger<B>, Vec<LedgerGame>)>) -> Vec<ScopeChanges<B>> {
    rankings
        .into_iter()
        .map(|(ledger, games)| ScopeChanges {
            ledger,
            scope: String::new(),
            first_old: None,
            olds: Vec::new(),
            games,
        })
        .collect()
}

/// A replay of a ranking from the game at `from` on.
pub fn replay_from<B>(ledger: writer::Ledger<B>, from: GameKey) -> ReplayFrom<B> {
    ReplayFrom {
        ledger,
        kind: writer::Kind::TwoPlayer,
        scope: String::new(),
        from: from.ledger_key(),
        olds: Vec::new(),
    }
}

/// Puts each game's two entries in the order the original Random Chess schema numbers them:
/// black's first. Its trigger inserts black's row, then white's, both numbered from
/// `elo_history_id_seq`; the ledgers' replay lists a game's entries white's first. Entries of one
/// game are consecutive (same key); any other run is left as it is.
pub fn black_first(mut entries: Vec<Entry>) -> Vec<Entry> {
    let mut i = 0;
    while i + 1 < entries.len() {
        if entries[i].key == entries[i + 1].key {
            entries.swap(i, i + 1);
            i += 2;
        } else {
            i += 1;
        }
    }
    entries
}

/// Whether a replay of a ranking from `from` numbers every entry anew, as the original schema
/// does: a replay from the start ([`GameKey::START`]: `recalculate_ranking`, which the original
/// also runs on every insert or update of a ranking row) deletes the ranking's history and numbers
/// the replay's entries from the sequence in replay order, each game black's first ([`chain`]); a
/// replay from a game (a backdated or re-dated game, which the original never replays) keeps the
/// id of every entry it rewrites and numbers only new ones.
pub fn renumbers(from: GameKey) -> bool {
    from == GameKey::START
}

/// Numbers the entries of a replay of a ranking's games (in replay order) and chains each to the
/// same player's previous entry. Each game's entries come out black's first ([`black_first`]),
/// and `id_of` is asked for black's id before white's, so that ids drawn in that order from the
/// sequence number a game as the original does (black's entry `n`, white's `n + 1`). `latest`
/// holds each player's latest entry id before the replay (a player without one has none) and is
/// left holding the latest after. `id_of(player, game)` gives an entry's id (a stored entry's, or
/// a new one). `None` when an entry's key is not a ranking's ([`GameKey::ledger_key`]).
pub fn chain(
    entries: Vec<Entry>,
    latest: &mut HashMap<String, i32>,
    mut id_of: impl FnMut(&str, GameKey) -> i32,
) -> Option<Vec<HistoryEntry>> {
    let entries = black_first(entries);
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

/// The place of each new entry of one statement in the original schema's numbering, for
/// entries appended to several rankings at once: its row trigger rates the statement's games
/// one by one (in the order of their ids, the order a serial gives a multi-row INSERT's rows),
/// each game in its rankings one by one (in the order of their ids), and inserts black's entry
/// before white's. `batches` holds each ranking's id and its replayed entries (as the replay
/// gives them, a game's white's first). Returns `(ranking, game id, player) → place` (0, 1, ...):
/// the entry at place `i` takes the `i`-th id drawn from the sequence. `None` when an entry's key
/// is not a ranking's.
pub fn appended_order(batches: &[(i32, &[Entry])]) -> Option<HashMap<(i32, i32, String), usize>> {
    let mut keyed = Vec::with_capacity(batches.iter().map(|(_, e)| e.len()).sum());
    for (ranking, entries) in batches {
        for (i, entry) in entries.iter().enumerate() {
            let game = GameKey::of(&entry.key)?;
            // the second entry of a game is black's
            let black = i > 0 && entries[i - 1].key == entry.key;
            keyed.push((game.game_id, *ranking, !black, entry.player.as_str()));
        }
    }
    keyed.sort_unstable();
    Some(
        keyed
            .into_iter()
            .enumerate()
            .map(|(place, (game, ranking, _, player))| ((ranking, game, player.to_owned()), place))
            .collect(),
    )
}

/// Rates `games` (sorted by key) after the players' `tips` (a player without one is a
/// newcomer) and returns their entries, two per game, black's first: the replay by [`rules`],
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
        // each game's entries black's first
        assert_eq!((out[0].player.as_str(), out[0].state.rating), ("b", 780.0));
        assert_eq!((out[1].player.as_str(), out[1].state.rating), ("a", 820.0));
        let q = |r: f64| 10f64.powf(r / 400.0);
        let want = 820.0 + 40.0 * (0.5 - q(820.0) / (q(820.0) + q(800.0)));
        assert_eq!(out[3].player, "a");
        assert!((out[3].state.rating - want).abs() < 1e-9);
        assert_eq!(out[2].player, "c");
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
                (41, "b", 1, Some(7)),
                (42, "a", 1, None),
                (99, "c", 2, None),
                (44, "b", 2, Some(41)),
            ]
        );
        assert_eq!(out[1].state, entries[0].after.state);
        assert_eq!(
            latest,
            HashMap::from([("a".into(), 42), ("b".into(), 44), ("c".into(), 99)])
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
                (101, "b", None),
                (102, "a", None),
                (103, "c", None),
                (104, "b", Some(101)),
                (105, "a", Some(102)),
                (106, "c", Some(103)),
            ]
        );
        assert_eq!(tips["a"].entry, 105);
        assert_eq!(tips["b"].last.game_id, 2);
    }

    /// The original schema's smallest case: white '2' beats black '3' in the first ranked game:
    /// '3' has entry 1, '2' entry 2.
    #[test]
    fn a_game_is_numbered_black_then_white() {
        let mut tips = HashMap::new();
        let out = rate_numbered(&ELO, &mut tips, &[game(1, 10, "2", "3", 1.0)], &mut 0);
        let got: Vec<(i32, &str, f64)> = out
            .iter()
            .map(|e| (e.id, e.player.as_str(), e.state.rating))
            .collect();
        assert_eq!(got, [(1, "3", 780.0), (2, "2", 820.0)]);
    }

    /// A statement's appended entries of several rankings: game by game in id order, each
    /// game's rankings in id order, black's entry before white's.
    #[test]
    fn appended_entries_are_placed_game_by_game_then_ranking_then_black() {
        let replay = |games: &[RatedGame<String>]| {
            let games: Vec<LedgerGame> = games.iter().map(RatedGame::ledger_game).collect();
            crate::ledger::replay(&rules(&ELO), &mut HashMap::new(), &games).unwrap()
        };
        // game 8 is dated before game 7: the replay rates 8 first, the numbering takes 7 first
        let g7 = game(7, 20, "a", "b", 1.0);
        let g8 = game(8, 10, "c", "d", 0.0);
        let r3 = replay(&[g8.clone(), g7.clone()]);
        let r2 = replay(&[g7]);
        let order = appended_order(&[(3, &r3), (2, &r2)]).unwrap();
        let mut places: Vec<(usize, i32, i32, &str)> = order
            .iter()
            .map(|((r, g, p), &i)| (i, *g, *r, p.as_str()))
            .collect();
        places.sort_unstable();
        assert_eq!(
            places,
            [
                (0, 7, 2, "b"),
                (1, 7, 2, "a"),
                (2, 7, 3, "b"),
                (3, 7, 3, "a"),
                (4, 8, 3, "d"),
                (5, 8, 3, "c"),
            ]
        );
        let mut foreign = r2.clone();
        foreign[0].key.id = "g1".into();
        assert_eq!(appended_order(&[(1, &foreign)]), None);
    }

    #[test]
    fn only_a_replay_from_the_start_renumbers() {
        assert!(renumbers(GameKey::START));
        let first = GameKey {
            played_at: i64::MIN,
            game_id: i32::MIN + 1,
        };
        assert!(!renumbers(first));
        assert!(!renumbers(GameKey {
            played_at: 0,
            game_id: 1
        }));
    }

    #[test]
    fn black_first_swaps_each_games_pair_only() {
        let games: Vec<LedgerGame> = [game(1, 10, "a", "b", 1.0), game(2, 20, "c", "d", 1.0)]
            .iter()
            .map(RatedGame::ledger_game)
            .collect();
        let entries = crate::ledger::replay(&rules(&ELO), &mut HashMap::new(), &games).unwrap();
        let players = |v: &[Entry]| v.iter().map(|e| e.player.clone()).collect::<Vec<_>>();
        assert_eq!(players(&black_first(entries.clone())), ["b", "a", "d", "c"]);
        // a lone entry (not a pair) stays where it is
        assert_eq!(
            players(&black_first(entries[1..].to_vec())),
            ["b", "d", "c"]
        );
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
            out[0].state.rating,
            out[3].state.rating,
            out[4].state.rating,
        ];
        assert!([0, 3, 4].iter().all(|&i| out[i].player == "b"));
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
            rule: glicko2::GameRule::Lichess,
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

    #[test]
    fn a_ranking_row_names_its_system() {
        let row = RankingSettings {
            rating_system: "glicko2",
            starting_rating: 1500.0,
            k_factor: None,
            tau: Some(0.5),
            starting_rd: Some(350.0),
            starting_volatility: Some(0.06),
            rating_period: Some(Interval {
                months: 0,
                days: -1,
                micros: 0,
            }),
        };
        let by_hand = RatingSystem::from_settings(&SystemSettings {
            rating_system: "glicko2",
            starting_rating: 1500.0,
            k_factor: f64::NAN,
            tau: 0.5,
            starting_rd: 350.0,
            starting_volatility: 0.06,
            rating_period_micros: Some(1),
            glicko2_rule: GameRule::Lichess,
            min_rd: None,
            max_rd: None,
            max_volatility: None,
            volatility_epsilon: None,
            rd_growth: RdGrowth::Elapsed,
        });
        assert_eq!(format!("{:?}", row.system()), format!("{by_hand:?}"));
        let elo = RankingSettings {
            rating_system: "elo",
            k_factor: Some(20.0),
            ..row
        };
        assert_eq!(
            elo.system(),
            Ok(RatingSystem::Elo {
                starting: 1500.0,
                k: 20.0
            })
        );
    }

    #[test]
    fn a_game_key_is_finite_and_a_redated_game_replays_from_its_earlier_place() {
        let key = |played_at, game_id| GameKey { played_at, game_id };
        assert_eq!(GameKey::rateable(5, 9), Ok(key(5, 9)));
        for infinite in [i64::MIN, i64::MAX] {
            assert_eq!(
                GameKey::rateable(infinite, 9),
                Err(RankingError::InfiniteDate(9))
            );
        }
        assert_eq!(GameKey::redated(4, 30, 20), key(20, 4));
        assert_eq!(GameKey::redated(4, 20, 30), key(20, 4));
    }

    #[test]
    fn a_kept_tip_has_its_record_and_its_game() {
        let last = GameKey {
            played_at: 5,
            game_id: 9,
        };
        let t = Tip::kept(3, (1510.0, Some(80.0), None), [4, 2, 1, 1], 1520.0, last);
        assert_eq!((t.entry, t.last), (3, last));
        let s = t.standing;
        assert_eq!(
            (s.games, s.wins, s.draws, s.losses, s.peak),
            (4, 2, 1, 1, 1520.0)
        );
        assert_eq!(s.state.last_played, Some(5));
        assert_eq!(
            (s.state.rating, s.state.rd, s.state.volatility),
            (1510.0, Some(80.0), None)
        );
        assert_eq!((s.streak, s.best_streak, s.score_sum), (0, 0, 0.0));
    }

    #[test]
    fn a_ranking_is_a_ledger_of_one_scope() {
        let ledger = as_ledger("r", 4, &ELO);
        assert_eq!((ledger.book, ledger.id), ("r", 4));
        assert!(matches!(ledger.keeper, writer::Keeper::Ranking));
        let games = vec![game(1, 10, "a", "b", 1.0).ledger_game()];
        let changes = new_games(vec![(ledger.clone(), games.clone())]);
        assert_eq!(changes.len(), 1);
        assert_eq!(
            (changes[0].scope.as_str(), changes[0].first_old.is_none()),
            ("", true)
        );
        assert_eq!(changes[0].games, games);
        let replay = replay_from(ledger, GameKey::START);
        assert_eq!(replay.from, GameKey::START.ledger_key());
        assert!(matches!(replay.kind, writer::Kind::TwoPlayer) && replay.olds.is_empty());
    }
}
