//! The one writer of ratings, for every kind of history a ledger keeps ([`History`]): the
//! engine's `ledger_entries` and `ledger_standings` (`LedgerStore`), or a client's own tables
//! (the Random Chess rankings' `elo_history` and `ranking_players`, `crate::ranking`). A scope's
//! new games are appended after its players' standings when they come after all of their games;
//! otherwise the scope is replayed from its earliest changed game. The core decides every
//! rating (`pg_rating_core::ledger`); this module only orders the reads and writes. The scopes
//! are locked by the caller, before.

use std::collections::{BTreeSet, HashMap};

use pg_rating_core::ledger::{
    appendable, replay_seasons, Entry, LedgerGame, LedgerKey, LedgerRules, SeasonEnd, Standing,
};
use pg_rating_core::rating::RatingError;

/// How the rows of a replay are written.
#[derive(Clone, Copy, PartialEq)]
pub enum Writes {
    /// Now; each standing replaces the player's.
    Now,
    /// By the store's rebuild, which replaces a rebuilt ledger's rows by them (ledgers only).
    Rebuilt,
    /// By the store's flush, with the rows of the statement's other ledgers and scopes: a game
    /// appended to several ledgers of its table costs one statement per table.
    Batched,
}

/// A ledger as the writer knows it: the id its scopes are locked and stored by, and how its
/// errors name a game.
pub trait Book {
    fn id(&self) -> i32;
    /// Raises a replay's error, its game named as the games table names it.
    fn fail(&self, e: RatingError) -> !;
}

/// Where a kind of ledger reads its games and keeps its history and standings.
pub trait History<B: Book> {
    /// The rated games of a scope from `from` on, in key order.
    fn games_from(&mut self, book: &B, scope: &str, from: &LedgerKey) -> Vec<LedgerGame>;
    /// Gives the players without a standing the one their first game starts from, where it is
    /// not the rating system's start (which the replay gives).
    fn start_newcomers(
        &mut self,
        book: &B,
        rules: &LedgerRules,
        scope: &str,
        standings: &mut HashMap<String, Standing>,
        players: &BTreeSet<String>,
    );
    /// The season ends of scopes, each sorted.
    fn seasons_of(&mut self, scopes: &[(i32, &str)]) -> HashMap<(i32, String), Vec<SeasonEnd>>;
    /// The current standings of those (ledger, scope, player) that have one, with the key of
    /// each one's latest game.
    fn current(
        &mut self,
        wanted: &[(i32, &str, String)],
    ) -> HashMap<(i32, String, String), (Standing, LedgerKey)>;
    /// Each player's standing after the player's latest entry before `from`.
    fn before(
        &mut self,
        ledger: i32,
        scope: &str,
        players: Vec<String>,
        from: &LedgerKey,
    ) -> HashMap<String, (Standing, LedgerKey)>;
    /// Takes a scope's entries from `from` on out of the history (`doomed` names them: the
    /// players' entries of the games from there, as they are and as they were); returns their
    /// players. A history may keep them until [`History::write`] to reuse what is unchanged.
    fn take_from(
        &mut self,
        ledger: i32,
        scope: &str,
        from: &LedgerKey,
        doomed: &[(&str, &LedgerKey)],
    ) -> Vec<String>;
    /// Writes a replay's entries and the standings of its players, and removes the standings of
    /// players left without games.
    fn write(
        &mut self,
        book: &B,
        scope: &str,
        entries: Vec<Entry>,
        standings: Vec<(String, Standing, LedgerKey)>,
        without_games: Vec<String>,
        writes: Writes,
    );
}

/// The players of `games`.
pub fn players(games: &[LedgerGame]) -> BTreeSet<String> {
    sorted_set(
        games
            .iter()
            .flat_map(|g| [g.white.as_str(), g.black.as_str()]),
    )
}

/// The texts as a set, made from their byte order (a million players in a rebuild).
pub fn sorted_set<'a>(texts: impl IntoIterator<Item = &'a str>) -> BTreeSet<String> {
    pg_rating_core::text_order::sorted_unique(texts)
        .into_iter()
        .map(str::to_owned)
        .collect()
}

/// The core's replay, or its error raised as the ledger names the game.
pub fn replay_or_raise<B: Book>(
    book: &B,
    rules: &LedgerRules,
    seasons: &[SeasonEnd],
    standings: &mut HashMap<String, Standing>,
    games: &[LedgerGame],
) -> Vec<Entry> {
    replay_seasons(rules, seasons, standings, games).unwrap_or_else(|e| book.fail(e))
}

/// Writes the entries of a replay and the standings of `affected` players: the replay's last
/// standing, else the one before the replay (`last` holds its game), else none.
#[allow(clippy::too_many_arguments)]
pub fn write_replay<B: Book, H: History<B>>(
    history: &mut H,
    book: &B,
    scope: &str,
    entries: Vec<Entry>,
    standings: &HashMap<String, Standing>,
    mut last: HashMap<String, LedgerKey>,
    affected: BTreeSet<String>,
    writes: Writes,
) -> usize {
    let written = entries.len();
    // each player's last entry: the first seen from the end (one clone per player)
    let mut seen: std::collections::HashSet<&str> = std::collections::HashSet::new();
    for e in entries.iter().rev() {
        if seen.insert(e.player.as_str()) {
            last.insert(e.player.clone(), e.key.clone());
        }
    }
    let (mut rows, mut without) = (Vec::new(), Vec::new());
    for p in affected {
        match (standings.get(&p), last.remove(&p)) {
            (Some(s), Some(key)) => rows.push((p, *s, key)),
            _ => without.push(p),
        }
    }
    history.write(book, scope, entries, rows, without, writes);
    written
}

/// Makes a scope's history from `from` on equal to a replay of its games from there. `olds`
/// are the (player, game) pairs of the games a statement changed or deleted, as they were.
pub fn replay_from<B: Book, H: History<B>>(
    history: &mut H,
    book: &B,
    rules: &LedgerRules,
    scope: &str,
    from: &LedgerKey,
    olds: &[(&str, &LedgerKey)],
) -> usize {
    let games = history.games_from(book, scope, from);
    // The entries from `from` on are those of these games and of the rows as they were: each
    // found by its key (no scan of the scope's history).
    let mut doomed: Vec<(&str, &LedgerKey)> = olds.to_vec();
    for g in &games {
        doomed.extend([(g.white.as_str(), &g.key), (g.black.as_str(), &g.key)]);
    }
    let scope_from = ScopeFrom {
        book,
        rules,
        scope,
        from,
    };
    scope_from.rewrite(history, players(&games), &doomed, |seasons, standings| {
        replay_seasons(rules, seasons, standings, &games)
    })
}

/// A scope of a ledger to replay from a game on, whatever its kind of games.
pub struct ScopeFrom<'a, B> {
    pub book: &'a B,
    pub rules: &'a LedgerRules,
    pub scope: &'a str,
    pub from: &'a LedgerKey,
}

impl<B: Book> ScopeFrom<'_, B> {
    /// Makes the scope's history from `from` on equal to `replay` of its games from there (the
    /// core's replay of them, given the seasons and the standings before): `playing` are their
    /// players, `doomed` the (player, game) pairs of their entries and of the rows a statement
    /// changed or deleted, as they were.
    pub fn rewrite<H: History<B>>(
        &self,
        history: &mut H,
        playing: BTreeSet<String>,
        doomed: &[(&str, &LedgerKey)],
        replay: impl FnOnce(
            &[SeasonEnd],
            &mut HashMap<String, Standing>,
        ) -> Result<Vec<Entry>, RatingError>,
    ) -> usize {
        let (book, scope, id) = (self.book, self.scope, self.book.id());
        let mut affected = playing.clone();
        affected.extend(history.take_from(id, scope, self.from, doomed));
        let before = history.before(id, scope, affected.iter().cloned().collect(), self.from);
        let mut standings: HashMap<String, Standing> =
            before.iter().map(|(p, (s, _))| (p.clone(), *s)).collect();
        let last: HashMap<String, LedgerKey> =
            before.into_iter().map(|(p, (_, k))| (p, k)).collect();
        history.start_newcomers(book, self.rules, scope, &mut standings, &playing);
        let seasons = history
            .seasons_of(&[(id, scope)])
            .remove(&(id, scope.to_owned()))
            .unwrap_or_default();
        let entries = replay(&seasons, &mut standings).unwrap_or_else(|e| book.fail(e));
        write_replay(
            history,
            book,
            scope,
            entries,
            &standings,
            last,
            affected,
            Writes::Now,
        )
    }
}

/// One scope's share of a statement's changes.
pub struct ScopeChanges<'a, B> {
    pub book: &'a B,
    pub rules: LedgerRules,
    pub scope: &'a str,
    /// The earliest game the statement changed or deleted, as it was; `None` when it only
    /// added games.
    pub first_old: Option<&'a LedgerKey>,
    /// The (player, game) pairs of the games it changed or deleted, as they were.
    pub olds: Vec<(&'a str, &'a LedgerKey)>,
    /// The scope's new or changed games, in key order.
    pub games: Vec<LedgerGame>,
}

/// Writes a statement's changes, scope by scope (locked before), in few statements whatever
/// their number: the current standings of the players of added games in one, their scopes'
/// seasons in one, and the appended rows with the statement's others ([`Writes::Batched`]: the
/// caller flushes them); a backdated, corrected or deleted game replays its scope from there on
/// its own. Returns the number of entries written.
pub fn apply<B: Book, H: History<B>>(history: &mut H, changes: Vec<ScopeChanges<'_, B>>) -> usize {
    let mut wanted: Vec<(i32, &str, String)> = Vec::new();
    let mut appended: Vec<(i32, &str)> = Vec::new();
    let mut who = Vec::with_capacity(changes.len());
    for c in &changes {
        let playing = players(&c.games);
        if c.first_old.is_none() {
            wanted.extend(playing.iter().map(|p| (c.book.id(), c.scope, p.clone())));
            appended.push((c.book.id(), c.scope));
        }
        who.push(playing);
    }
    let mut current = history.current(&wanted);
    let mut seasons = history.seasons_of(&appended);
    let mut written = 0;
    for (c, who) in changes.iter().zip(who) {
        let id = c.book.id();
        if c.first_old.is_none() {
            let mine: HashMap<String, (Standing, LedgerKey)> = who
                .iter()
                .filter_map(|p| {
                    let found = current.remove(&(id, c.scope.to_owned(), p.clone()))?;
                    Some((p.clone(), found))
                })
                .collect();
            let latest: HashMap<String, LedgerKey> = mine
                .iter()
                .map(|(p, (_, k))| (p.clone(), k.clone()))
                .collect();
            if appendable(&latest, &c.games) {
                let mut standings: HashMap<String, Standing> =
                    mine.into_iter().map(|(p, (s, _))| (p, s)).collect();
                history.start_newcomers(c.book, &c.rules, c.scope, &mut standings, &who);
                let seasons = seasons
                    .remove(&(id, c.scope.to_owned()))
                    .unwrap_or_default();
                let entries = replay_or_raise(c.book, &c.rules, &seasons, &mut standings, &c.games);
                written += write_replay(
                    history,
                    c.book,
                    c.scope,
                    entries,
                    &standings,
                    latest,
                    who,
                    Writes::Batched,
                );
                continue;
            }
        }
        let from = c
            .first_old
            .into_iter()
            .chain(c.games.first().map(|g| &g.key))
            .min();
        let Some(from) = from else { continue };
        written += replay_from(history, c.book, &c.rules, c.scope, from, &c.olds);
    }
    written
}
