//! What a ranking's history writes after the ledgers' writer replayed it: the entries numbered and
//! chained ([`chain`]), set against the entries already stored (a replay keeps the id of every
//! entry it rewrites and writes only those that differ), and each player's standing with its
//! latest entry. The glue reads the stored entries and ids and writes the rows planned here.

use std::collections::{BTreeSet, HashMap, HashSet};

use crate::ledger::writer::{ScopeWrite, StandingRows, Writes};
use crate::ledger::{Entry, LedgerKey, Standing};

use super::history::{appended_order, chain, renumbers, GameKey, HistoryEntry, Tip};

/// An entry as the history holds it.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredEntry {
    pub id: i32,
    pub rating: f64,
    pub rd: Option<f64>,
    pub volatility: Option<f64>,
    pub previous: Option<i32>,
    pub played_at: i64,
}

impl StoredEntry {
    /// True when the stored entry already says what `entry` says.
    pub fn holds(&self, entry: &HistoryEntry) -> bool {
        self.rating == entry.state.rating
            && self.rd == entry.state.rd
            && self.volatility == entry.state.volatility
            && self.previous == entry.previous
            && self.played_at == entry.game.played_at
    }
}

/// The stored entries of a ranking from some game on, by game (two per game): found by player and
/// game without making a key.
#[derive(Clone, Debug, Default)]
pub struct StoredEntries(HashMap<i32, Vec<(String, StoredEntry)>>);

/// A replay's changes to a ranking's history, to be written in one statement (entries may take
/// each other's places): the ids of the stored entries that go, the stored entries that change
/// (by id) and the new ones.
#[derive(Debug, Default, PartialEq)]
pub struct ReplayRows {
    pub deletes: Vec<i32>,
    pub updates: Vec<HistoryEntry>,
    pub inserts: Vec<HistoryEntry>,
}

/// A player's row of a ranking's standings: the player's latest entry.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerTip {
    pub ranking: i32,
    pub player: String,
    pub tip: Tip,
}

/// A replay appended to a ranking ([`number_appended`]): its entries (as the replay gives them)
/// and its players' standings after them.
#[derive(Debug)]
pub struct Appended {
    pub ranking: i32,
    pub entries: Vec<Entry>,
    pub standings: StandingRows,
}

/// The rows of appended replays ([`number_appended`]): the entries with their rankings, and
/// the standings.
pub type AppendedRows = (Vec<(i32, HistoryEntry)>, Vec<PlayerTip>);

/// Why rows could not be planned (an internal error: the writer gave what it never gives).
pub type PlanError = String;

fn not_a_ranking_key() -> PlanError {
    "a ranking's entry without a ranking's game key".into()
}

impl StoredEntries {
    /// Adds a stored entry of `player` in `game`.
    pub fn add(&mut self, game: i32, player: String, entry: StoredEntry) {
        let per_game = self.0.entry(game).or_insert_with(|| Vec::with_capacity(2));
        per_game.push((player, entry));
    }

    fn get(&self, player: &str, game: i32) -> Option<&StoredEntry> {
        let entries = self.0.get(&game)?;
        entries.iter().find(|(p, _)| p == player).map(|(_, s)| s)
    }

    fn take(&mut self, player: &str, game: i32) -> Option<StoredEntry> {
        let entries = self.0.get_mut(&game)?;
        let i = entries.iter().position(|(p, _)| p == player)?;
        Some(entries.swap_remove(i).1)
    }

    /// The players of the entries, each once.
    pub fn players(&self) -> Vec<String> {
        let players: HashSet<&str> = self.0.values().flatten().map(|(p, _)| p.as_str()).collect();
        players.into_iter().map(str::to_owned).collect()
    }

    /// The ids of the entries not taken.
    pub fn left(self) -> Vec<i32> {
        self.0.into_values().flatten().map(|(_, s)| s.id).collect()
    }

    /// How many of a replay's `entries` have no stored entry: each needs a new id.
    pub fn missing(&self, entries: &[Entry]) -> usize {
        let stored = |e: &Entry| {
            GameKey::of(&e.key).is_some_and(|g| self.get(&e.player, g.game_id).is_some())
        };
        entries.iter().filter(|e| !stored(e)).count()
    }

    /// A replay of `entries` over these stored entries: numbered and chained ([`chain`], from
    /// each player's `latest` entry, left holding the latest after), each keeping its stored
    /// entry's id or taking the next of `fresh` (at least [`StoredEntries::missing`] ids); the
    /// stored entries it does not meet go.
    pub fn replay(
        mut self,
        entries: Vec<Entry>,
        latest: &mut HashMap<String, i32>,
        fresh: Vec<i32>,
    ) -> Result<ReplayRows, PlanError> {
        let mut fresh = fresh.into_iter();
        let mut ran_out = false;
        let history = chain(entries, latest, |player, game| {
            match self.get(player, game.game_id) {
                Some(old) => old.id,
                None => fresh.next().unwrap_or_else(|| {
                    ran_out = true;
                    0
                }),
            }
        })
        .ok_or_else(not_a_ranking_key)?;
        if ran_out {
            return Err("ran out of history ids".into());
        }
        let mut rows = ReplayRows::default();
        for entry in history {
            match self.take(&entry.player, entry.game.game_id) {
                None => rows.inserts.push(entry),
                Some(old) if !old.holds(&entry) => rows.updates.push(entry),
                Some(_) => {}
            }
        }
        rows.deletes = self.left();
        Ok(rows)
    }
}

/// The standings rows of a ranking's players: each standing with the player's latest entry.
pub fn player_tips(
    ranking: i32,
    standings: StandingRows,
    latest: &HashMap<String, i32>,
) -> Result<Vec<PlayerTip>, PlanError> {
    standings
        .into_iter()
        .map(|(player, standing, key)| {
            let entry = *latest
                .get(&player)
                .ok_or_else(|| format!("{player} has a standing without an entry"))?;
            let last = GameKey::of(&key)
                .ok_or_else(|| format!("{} is not a ranking's game key", key.id))?;
            Ok(PlayerTip {
                ranking,
                tip: Tip {
                    entry,
                    standing,
                    last,
                },
                player,
            })
        })
        .collect()
}

/// The rows of replays appended to several rankings in one statement: their entries numbered
/// from `ids` (drawn from the sequence, at least one per entry) in the original schema's order
/// ([`appended_order`]) and chained from each ranking's players' `latest` entries (taken), and
/// the standings with each player's latest entry.
pub fn number_appended(
    batch: Vec<Appended>,
    latest: &mut HashMap<i32, HashMap<String, i32>>,
    ids: &[i32],
) -> Result<AppendedRows, PlanError> {
    let replays: Vec<(i32, &[Entry])> = batch
        .iter()
        .map(|a| (a.ranking, a.entries.as_slice()))
        .collect();
    let places = appended_order(&replays).ok_or_else(not_a_ranking_key)?;
    let total = batch.iter().map(|a| a.entries.len()).sum();
    let (mut entries, mut players) = (Vec::with_capacity(total), Vec::new());
    for Appended {
        ranking,
        entries: replayed,
        standings,
    } in batch
    {
        let mut latest = latest.remove(&ranking).unwrap_or_default();
        let mut ran_out = false;
        let history = chain(replayed, &mut latest, |player, game| {
            let place = places.get(&(ranking, game.game_id, player.to_owned()));
            place.and_then(|&p| ids.get(p).copied()).unwrap_or_else(|| {
                ran_out = true;
                0
            })
        })
        .ok_or_else(not_a_ranking_key)?;
        if ran_out {
            return Err("ran out of history ids".into());
        }
        entries.extend(history.into_iter().map(|e| (ranking, e)));
        players.extend(player_tips(ranking, standings, &latest)?);
    }
    Ok((entries, players))
}

/// What a ranking's keeper keeps between the writer's calls of one statement, by ranking: its
/// players' latest entry ids as last read (the chain's previous entries), the entries a replay
/// took out (`Request::Take`, written over by it), whether that replay numbers its entries anew
/// ([`renumbers`]), and the appended replays waiting for the flush.
#[derive(Debug, Default)]
pub struct Kept {
    latest: HashMap<i32, HashMap<String, i32>>,
    taken: HashMap<i32, StoredEntries>,
    renumbered: BTreeSet<i32>,
    batch: Vec<Appended>,
}

/// A replay's write of a ranking: the ids of its stored entries that go before anything else
/// (a replay from the start deletes the history and numbers its entries anew), how many new ids
/// its entries need ([`StoredEntries::missing`]), and its rows once given them
/// ([`ReplayWrite::rows`]).
#[derive(Debug)]
pub struct ReplayWrite {
    pub gone: Vec<i32>,
    pub missing: usize,
    ranking: i32,
    stored: StoredEntries,
    entries: Vec<Entry>,
    standings: StandingRows,
    latest: HashMap<String, i32>,
}

impl Kept {
    /// Records a player's latest entry as the chain's previous one, and returns what the writer
    /// reads of it: the standing after it and its game.
    pub fn remember(&mut self, ranking: i32, player: &str, tip: Tip) -> (Standing, LedgerKey) {
        let latest = self.latest.entry(ranking).or_default();
        latest.insert(player.to_owned(), tip.entry);
        (tip.standing, tip.last.ledger_key())
    }

    /// Forgets a ranking's latest entries, before its players' entries before a replay's first
    /// game are read.
    pub fn forget_latest(&mut self, ranking: i32) {
        self.latest.remove(&ranking);
    }

    /// Keeps the stored entries a replay of `ranking` from `from` on takes out; returns their
    /// players.
    pub fn took(&mut self, ranking: i32, from: GameKey, taken: StoredEntries) -> Vec<String> {
        if renumbers(from) {
            self.renumbered.insert(ranking);
        }
        let players = taken.players();
        self.taken.insert(ranking, taken);
        players
    }

    /// A scope's rows: appended ones ([`Writes::Batched`]) wait for the flush ([`Kept::appended`],
    /// `None`); a replay's go over the entries it took ([`ReplayWrite`]).
    pub fn write<B>(&mut self, w: ScopeWrite<B>) -> Option<ReplayWrite> {
        let ranking = w.ledger;
        if w.writes == Writes::Batched {
            self.batch.push(Appended {
                ranking,
                entries: w.entries,
                standings: w.standings,
            });
            return None;
        }
        let mut stored = self.taken.remove(&ranking).unwrap_or_default();
        let gone = if self.renumbered.remove(&ranking) {
            std::mem::take(&mut stored).left()
        } else {
            Vec::new()
        };
        Some(ReplayWrite {
            gone,
            missing: stored.missing(&w.entries),
            ranking,
            stored,
            entries: w.entries,
            standings: w.standings,
            latest: self.latest.remove(&ranking).unwrap_or_default(),
        })
    }

    /// How many ids the appended replays waiting for the flush need; `None` when none wait.
    pub fn appended_entries(&self) -> Option<usize> {
        let entries = self.batch.iter().map(|a| a.entries.len()).sum();
        (!self.batch.is_empty()).then_some(entries)
    }

    /// The rows of the appended replays, numbered from `ids` ([`number_appended`]).
    pub fn appended(&mut self, ids: &[i32]) -> Result<AppendedRows, PlanError> {
        number_appended(std::mem::take(&mut self.batch), &mut self.latest, ids)
    }
}

impl ReplayWrite {
    /// The history's changes ([`StoredEntries::replay`], new entries numbered from `fresh`) and
    /// the standings with their players' latest entries.
    pub fn rows(mut self, fresh: Vec<i32>) -> Result<(ReplayRows, Vec<PlayerTip>), PlanError> {
        let rows = self.stored.replay(self.entries, &mut self.latest, fresh)?;
        let tips = player_tips(self.ranking, self.standings, &self.latest)?;
        Ok((rows, tips))
    }
}

/// The games of appended entries, each once, in order.
pub fn appended_games(entries: &[(i32, HistoryEntry)]) -> Vec<i32> {
    let mut games: Vec<i32> = entries.iter().map(|(_, e)| e.game.game_id).collect();
    games.sort_unstable();
    games.dedup();
    games
}

/// The first of `games` (sorted) that is not `found`.
pub fn first_missing(games: &[i32], mut found: Vec<i32>) -> Option<i32> {
    found.sort_unstable();
    games
        .iter()
        .copied()
        .find(|g| found.binary_search(g).is_err())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ledger::Standing;
    use crate::rating::system::RatingSystem;

    const ELO: RatingSystem = RatingSystem::Elo {
        starting: 800.0,
        k: 40.0,
    };

    fn key(game: i32) -> GameKey {
        GameKey {
            played_at: i64::from(game) * 1000,
            game_id: game,
        }
    }

    /// The entries of games played white "a" against black "b", as the replay gives them
    /// (white's first), with ratings 800 + game number for white and 700 + it for black.
    fn replayed(games: &[i32]) -> Vec<Entry> {
        let start = Standing::start(&ELO);
        let mut out = Vec::new();
        for &g in games {
            for (player, opponent, rating) in [("a", "b", 800), ("b", "a", 700)] {
                let mut after = start;
                after.state.rating = f64::from(rating + g);
                out.push(Entry {
                    key: key(g).ledger_key(),
                    player: player.into(),
                    opponent: opponent.into(),
                    score: 1.0,
                    expected: 0.5,
                    before: start,
                    after,
                });
            }
        }
        out
    }

    fn stored(id: i32, rating: f64, previous: Option<i32>, game: i32) -> StoredEntry {
        StoredEntry {
            id,
            rating,
            rd: None,
            volatility: None,
            previous,
            played_at: key(game).played_at,
        }
    }

    #[test]
    fn a_replay_keeps_ids_rewrites_what_differs_and_deletes_what_it_misses() {
        // stored: game 1 (b = 10, a = 11), game 2 (b = 12, a = 13), game 3 (b = 14) gone
        let mut s = StoredEntries::default();
        s.add(1, "b".into(), stored(10, 701.0, None, 1));
        s.add(1, "a".into(), stored(11, 801.0, None, 1));
        s.add(2, "b".into(), stored(12, 999.0, Some(10), 2));
        s.add(2, "a".into(), stored(13, 802.0, Some(11), 2));
        s.add(3, "b".into(), stored(14, 703.0, Some(12), 3));
        let mut players = s.players();
        players.sort();
        assert_eq!(players, ["a", "b"]);
        // the replay: games 1, 2 and a new game 4
        let entries = replayed(&[1, 2, 4]);
        assert_eq!(s.missing(&entries), 2);
        let mut latest = HashMap::new();
        let rows = s.replay(entries, &mut latest, vec![20, 21]).unwrap();
        assert_eq!(rows.deletes, [14]);
        // b's entry of game 2 changes its rating; game 4's entries are new, black's first
        assert_eq!(rows.updates.len(), 1);
        assert_eq!(
            (rows.updates[0].id, rows.updates[0].state.rating),
            (12, 702.0)
        );
        let inserted: Vec<(i32, &str, Option<i32>)> = rows
            .inserts
            .iter()
            .map(|e| (e.id, e.player.as_str(), e.previous))
            .collect();
        assert_eq!(inserted, [(20, "b", Some(12)), (21, "a", Some(13))]);
        assert_eq!(latest, HashMap::from([("a".into(), 21), ("b".into(), 20)]));
    }

    #[test]
    fn too_few_ids_or_a_foreign_key_is_an_error() {
        let mut latest = HashMap::new();
        let e = StoredEntries::default().replay(replayed(&[1]), &mut latest, vec![5]);
        assert_eq!(e, Err("ran out of history ids".into()));
        let mut entries = replayed(&[1]);
        entries[0].key.id = "x".into();
        let e = StoredEntries::default().replay(entries, &mut latest, vec![5, 6]);
        assert_eq!(e, Err(not_a_ranking_key()));
    }

    #[test]
    fn standings_take_their_players_latest_entries() {
        let start = Standing::start(&ELO);
        let latest = HashMap::from([("a".to_owned(), 7)]);
        let tips = player_tips(3, vec![("a".into(), start, key(2).ledger_key())], &latest).unwrap();
        assert_eq!(
            tips,
            [PlayerTip {
                ranking: 3,
                player: "a".into(),
                tip: Tip {
                    entry: 7,
                    standing: start,
                    last: key(2)
                }
            }]
        );
        let e = player_tips(3, vec![("b".into(), start, key(2).ledger_key())], &latest);
        assert_eq!(e, Err("b has a standing without an entry".into()));
    }

    #[test]
    fn appended_replays_are_numbered_game_by_game_ranking_by_ranking_black_first() {
        let batch = |ranking| Appended {
            ranking,
            entries: replayed(&[5]),
            standings: vec![("a".into(), Standing::start(&ELO), key(5).ledger_key())],
        };
        let mut latest = HashMap::from([(2, HashMap::from([("a".to_owned(), 1)]))]);
        let (entries, tips) =
            number_appended(vec![batch(2), batch(1)], &mut latest, &[100, 101, 102, 103]).unwrap();
        let ids: Vec<(i32, &str, i32, Option<i32>)> = entries
            .iter()
            .map(|(r, e)| (*r, e.player.as_str(), e.id, e.previous))
            .collect();
        assert_eq!(
            ids,
            [
                (2, "b", 102, None),
                (2, "a", 103, Some(1)),
                (1, "b", 100, None),
                (1, "a", 101, None)
            ]
        );
        let tip_of: Vec<(i32, i32)> = tips.iter().map(|t| (t.ranking, t.tip.entry)).collect();
        assert_eq!(tip_of, [(2, 103), (1, 101)]);
        assert!(latest.is_empty());
        let e = number_appended(vec![batch(1)], &mut HashMap::new(), &[100]);
        assert_eq!(e.map(|_| ()), Err("ran out of history ids".into()));
    }

    fn scope_write(ranking: i32, games: &[i32], writes: Writes) -> ScopeWrite<()> {
        let standings = vec![
            (
                "a".into(),
                Standing::start(&ELO),
                key(*games.last().unwrap()).ledger_key(),
            ),
            (
                "b".into(),
                Standing::start(&ELO),
                key(*games.last().unwrap()).ledger_key(),
            ),
        ];
        ScopeWrite {
            book: (),
            ledger: ranking,
            scope: String::new(),
            entries: replayed(games),
            standings,
            without_games: Vec::new(),
            writes,
        }
    }

    #[test]
    fn appended_writes_wait_for_the_flush_and_chain_from_the_latest_entries_read() {
        let mut kept = Kept::default();
        assert_eq!(kept.appended_entries(), None);
        let tip = Tip::kept(7, (810.0, None, None), [1, 1, 0, 0], 810.0, key(4));
        let (standing, last) = kept.remember(2, "a", tip);
        assert_eq!((standing, last), (tip.standing, key(4).ledger_key()));
        assert!(kept.write(scope_write(2, &[5], Writes::Batched)).is_none());
        assert_eq!(kept.appended_entries(), Some(2));
        let (entries, tips) = kept.appended(&[100, 101]).unwrap();
        let chained: Vec<(&str, i32, Option<i32>)> = entries
            .iter()
            .map(|(_, e)| (e.player.as_str(), e.id, e.previous))
            .collect();
        assert_eq!(chained, [("b", 100, None), ("a", 101, Some(7))]);
        assert_eq!(
            tips.iter().map(|t| t.tip.entry).collect::<Vec<_>>(),
            [101, 100]
        );
        assert_eq!(kept.appended_entries(), None);
    }

    #[test]
    fn a_replay_from_the_start_deletes_the_history_and_one_from_a_game_keeps_its_ids() {
        let stored_games = |kept: &mut Kept, ranking, from| {
            let mut s = StoredEntries::default();
            s.add(1, "b".into(), stored(10, 701.0, None, 1));
            s.add(1, "a".into(), stored(11, 801.0, None, 1));
            kept.took(ranking, from, s)
        };
        let mut kept = Kept::default();
        let mut players = stored_games(&mut kept, 3, GameKey::START);
        players.sort();
        assert_eq!(players, ["a", "b"]);
        let write = kept.write(scope_write(3, &[1], Writes::Now)).unwrap();
        let mut gone = write.gone.clone();
        gone.sort();
        assert_eq!((gone, write.missing), (vec![10, 11], 2));
        let (rows, tips) = write.rows(vec![20, 21]).unwrap();
        let ids: Vec<i32> = rows.inserts.iter().map(|e| e.id).collect();
        assert_eq!((ids, rows.deletes), (vec![20, 21], vec![]));
        assert_eq!(tips.len(), 2);

        // from game 1: the stored entries keep their ids, only what differs is written
        stored_games(&mut kept, 3, key(1));
        kept.forget_latest(3);
        let write = kept.write(scope_write(3, &[1, 2], Writes::Now)).unwrap();
        assert_eq!((write.gone.len(), write.missing), (0, 2));
        let (rows, _) = write.rows(vec![30, 31]).unwrap();
        let inserted: Vec<(i32, Option<i32>)> =
            rows.inserts.iter().map(|e| (e.id, e.previous)).collect();
        assert!(rows.updates.is_empty() && rows.deletes.is_empty());
        assert_eq!(inserted, [(30, Some(10)), (31, Some(11))]);
    }

    #[test]
    fn the_games_of_appended_entries_are_found_or_the_first_missing_named() {
        let entries: Vec<(i32, HistoryEntry)> = replayed(&[3, 1, 3])
            .into_iter()
            .enumerate()
            .map(|(i, e)| {
                let game = GameKey::of(&e.key).unwrap();
                let state = e.after.state;
                let (id, player) = (i as i32, e.player);
                let previous = None;
                (
                    1,
                    HistoryEntry {
                        id,
                        player,
                        game,
                        state,
                        previous,
                    },
                )
            })
            .collect();
        let games = appended_games(&entries);
        assert_eq!(games, [1, 3]);
        assert_eq!(first_missing(&games, vec![3, 1]), None);
        assert_eq!(first_missing(&games, vec![3]), Some(1));
    }
}
