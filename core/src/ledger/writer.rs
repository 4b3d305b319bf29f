//! The writer's steps, for every kind of history a ledger keeps ([`History`]: the engine's own,
//! or a client's with a shape of its own, as the Random Chess rankings' is). A scope's new games
//! are appended after its players' standings when they come after all of their games
//! ([`appendable`]); otherwise the scope is replayed from its earliest changed game, its entries
//! from there on taken out and written anew. The history's keeper (the glue) reads and writes the
//! rows and locks the scopes before; what to read, replay and write is decided here, so that
//! every kind of history follows the same steps, tested below against a history kept in memory.

use std::collections::{BTreeSet, HashMap};

use super::{
    appendable, replay_seasons, Entry, LedgerGame, LedgerKey, LedgerRules, PeriodCap, SeasonEnd,
    Standing,
};
use crate::rating::RatingError;

/// How the rows of a replay are written.
#[derive(Clone, Copy, PartialEq)]
pub enum Writes {
    /// Now; each standing replaces the player's.
    Now,
    /// By the keeper's rebuild, which replaces a rebuilt ledger's rows by them (the engine's
    /// tables only).
    Rebuilt,
    /// By the keeper's flush, after the statement's other ledgers and scopes: a game appended to
    /// several ledgers of its table costs one statement per table.
    Batched,
}

/// Standings to write: each player's, with the key of the player's last game.
pub type StandingRows = Vec<(String, Standing, LedgerKey)>;

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
    /// Fills in what each player of `standings` (read back, each after the game its key names)
    /// has moved within that game's period of `cap` ([`Standing::period_moved`]): the sum of the
    /// absolute changes of the player's entries of the period up to it, in game order. A history
    /// that keeps whole standings has nothing to do.
    fn period_moved(
        &mut self,
        _ledger: i32,
        _scope: &str,
        _cap: PeriodCap,
        _standings: &mut HashMap<String, (Standing, LedgerKey)>,
    ) {
    }
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
        standings: StandingRows,
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
    crate::text_order::sorted_unique(texts)
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
        let mut before = history.before(id, scope, affected.iter().cloned().collect(), self.from);
        if let Some(cap) = self.rules.limits.per_period {
            history.period_moved(id, scope, cap, &mut before);
        }
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
            let mut mine: HashMap<String, (Standing, LedgerKey)> = who
                .iter()
                .filter_map(|p| {
                    let found = current.remove(&(id, c.scope.to_owned(), p.clone()))?;
                    Some((p.clone(), found))
                })
                .collect();
            if let Some(cap) = c.rules.limits.per_period {
                history.period_moved(id, c.scope, cap, &mut mine);
            }
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

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::ledger::{integer_key, replay_seasons, Limits, Outcome, Provisional};
    use crate::rating::glicko2;
    use crate::rating::RatingSystem;
    use crate::test_rng::Rng;

    struct Ledger;

    impl Book for Ledger {
        fn id(&self) -> i32 {
            1
        }

        fn fail(&self, e: RatingError) -> ! {
            panic!("{}", e.message)
        }
    }

    /// One season end, in scope "a" only: a replay must apply it wherever it starts.
    fn seasons(scope: &str) -> Vec<SeasonEnd> {
        match scope {
            "a" => vec![SeasonEnd {
                at: 500,
                pull: 0.5,
                rd_floor: Some(120.0),
            }],
            _ => Vec::new(),
        }
    }

    /// A ledger kept in memory: its games table, entries and standings, as the database keeps
    /// them (entries by scope, player and game; a standing with its player's last game).
    #[derive(Default)]
    struct Memory {
        games: BTreeMap<String, BTreeMap<LedgerKey, LedgerGame>>,
        entries: BTreeMap<(String, String, LedgerKey), Entry>,
        standings: BTreeMap<(String, String), (Standing, LedgerKey)>,
        batch: Vec<(String, Vec<Entry>, StandingRows)>,
        /// Scopes read from a game on (replays).
        replays: usize,
    }

    impl Memory {
        fn store(&mut self, scope: &str, entries: Vec<Entry>, standings: StandingRows) {
            for e in entries {
                let key = (scope.to_owned(), e.player.clone(), e.key.clone());
                assert!(
                    self.entries.insert(key, e).is_none(),
                    "an entry written twice"
                );
            }
            for (player, standing, key) in standings {
                self.standings
                    .insert((scope.to_owned(), player), (standing, key));
            }
        }

        fn flush(&mut self) {
            for (scope, entries, standings) in std::mem::take(&mut self.batch) {
                self.store(&scope, entries, standings);
            }
        }
    }

    impl History<Ledger> for Memory {
        fn games_from(&mut self, _: &Ledger, scope: &str, from: &LedgerKey) -> Vec<LedgerGame> {
            self.replays += 1;
            self.games
                .get(scope)
                .map(|g| g.range(from.clone()..).map(|(_, g)| g.clone()).collect())
                .unwrap_or_default()
        }

        fn start_newcomers(
            &mut self,
            _: &Ledger,
            _: &LedgerRules,
            _: &str,
            _: &mut HashMap<String, Standing>,
            _: &BTreeSet<String>,
        ) {
        }

        fn seasons_of(&mut self, scopes: &[(i32, &str)]) -> HashMap<(i32, String), Vec<SeasonEnd>> {
            scopes
                .iter()
                .map(|(l, s)| ((*l, s.to_string()), seasons(s)))
                .collect()
        }

        fn current(
            &mut self,
            wanted: &[(i32, &str, String)],
        ) -> HashMap<(i32, String, String), (Standing, LedgerKey)> {
            wanted
                .iter()
                .filter_map(|(l, s, p)| {
                    let found = self.standings.get(&(s.to_string(), p.clone()))?;
                    Some(((*l, s.to_string(), p.clone()), found.clone()))
                })
                .collect()
        }

        fn before(
            &mut self,
            _: i32,
            scope: &str,
            players: Vec<String>,
            from: &LedgerKey,
        ) -> HashMap<String, (Standing, LedgerKey)> {
            players
                .into_iter()
                .filter_map(|p| {
                    let low = (
                        scope.to_owned(),
                        p.clone(),
                        LedgerKey {
                            at: i64::MIN,
                            id: String::new(),
                        },
                    );
                    let high = (scope.to_owned(), p.clone(), from.clone());
                    let (_, e) = self.entries.range(low..high).next_back()?;
                    let found = (e.after, e.key.clone());
                    Some((p, found))
                })
                .collect()
        }

        fn take_from(
            &mut self,
            _: i32,
            scope: &str,
            _: &LedgerKey,
            doomed: &[(&str, &LedgerKey)],
        ) -> Vec<String> {
            doomed
                .iter()
                .filter_map(|(p, k)| {
                    let e =
                        self.entries
                            .remove(&(scope.to_owned(), p.to_string(), (*k).clone()))?;
                    Some(e.player)
                })
                .collect()
        }

        fn write(
            &mut self,
            _: &Ledger,
            scope: &str,
            entries: Vec<Entry>,
            standings: StandingRows,
            without_games: Vec<String>,
            writes: Writes,
        ) {
            for p in without_games {
                self.standings.remove(&(scope.to_owned(), p));
            }
            match writes {
                Writes::Batched => self.batch.push((scope.to_owned(), entries, standings)),
                _ => self.store(scope, entries, standings),
            }
        }
    }

    /// A statement on the games table: rows deleted, rows inserted, rows updated (as they were
    /// and as they are). The table changes first, then the writer runs, as an AFTER trigger does.
    fn run(
        memory: &mut Memory,
        rules: &LedgerRules,
        old: Vec<(String, LedgerGame)>,
        new: Vec<(String, LedgerGame)>,
    ) {
        for (scope, g) in &old {
            memory.games.get_mut(scope).map(|t| t.remove(&g.key));
        }
        for (scope, g) in &new {
            memory
                .games
                .entry(scope.clone())
                .or_default()
                .insert(g.key.clone(), g.clone());
        }
        let mut by_scope: BTreeMap<&str, (Vec<&LedgerGame>, Vec<LedgerGame>)> = BTreeMap::new();
        for (scope, g) in &old {
            by_scope.entry(scope).or_default().0.push(g);
        }
        for (scope, g) in &new {
            by_scope.entry(scope).or_default().1.push(g.clone());
        }
        let changes = by_scope
            .into_iter()
            .map(|(scope, (olds, mut games))| {
                games.sort_by(|a, b| a.key.cmp(&b.key));
                ScopeChanges {
                    book: &Ledger,
                    rules: *rules,
                    scope,
                    first_old: olds.iter().map(|g| &g.key).min(),
                    olds: olds
                        .iter()
                        .flat_map(|g| [(g.white.as_str(), &g.key), (g.black.as_str(), &g.key)])
                        .collect(),
                    games,
                }
            })
            .collect();
        apply(memory, changes);
        memory.flush();
    }

    /// The history equals a replay of every game from scratch, and each standing is its
    /// player's last entry's.
    fn check(memory: &Memory, rules: &LedgerRules, step: usize) {
        let mut want_entries = BTreeMap::new();
        let mut want_standings = BTreeMap::new();
        for (scope, games) in &memory.games {
            let games: Vec<LedgerGame> = games.values().cloned().collect();
            let mut standings = HashMap::new();
            let entries = replay_seasons(rules, &seasons(scope), &mut standings, &games).unwrap();
            for e in entries {
                let key = e.key.clone();
                want_standings.insert((scope.clone(), e.player.clone()), (e.after, key.clone()));
                want_entries.insert((scope.clone(), e.player.clone(), key), e);
            }
        }
        assert_eq!(memory.entries, want_entries, "entries after step {step}");
        assert_eq!(
            memory.standings, want_standings,
            "standings after step {step}"
        );
    }

    fn game(rng: &mut Rng, n: &mut i64, at: i64) -> LedgerGame {
        const PLAYERS: [&str; 6] = ["ann", "bob", "cy", "dee", "eve", "fay"];
        *n += 1;
        let white = rng.pick(&PLAYERS);
        let mut black = rng.pick(&PLAYERS);
        while black == white {
            black = rng.pick(&PLAYERS);
        }
        let outcome = if rng.one_in(10) {
            Outcome::DoubleLoss
        } else {
            Outcome::White(rng.pick(&[0.0, 0.5, 1.0]))
        };
        LedgerGame {
            key: LedgerKey {
                at,
                id: integer_key(*n),
            },
            white: white.into(),
            black: black.into(),
            outcome,
        }
    }

    /// Random statements (games added in order and backdated, deleted, corrected, re-dated,
    /// moved to another scope, several at once) keep the history equal to a from-scratch replay,
    /// for Elo, for Glicko-2 with a season end, and for Elo with a cap per game and per period
    /// (what a player moved in the period carried by the standings a replay starts from).
    #[test]
    fn every_statement_leaves_the_history_of_a_replay_from_scratch() {
        let capped = Limits {
            max_change: Some(20.0),
            per_period: Some(crate::ledger::PeriodCap {
                max: 30.0,
                micros: 10,
            }),
            ..Limits::default()
        };
        let systems = [
            (
                RatingSystem::Elo {
                    starting: 1500.0,
                    k: 32.0,
                },
                Limits::default(),
            ),
            (
                RatingSystem::Glicko2 {
                    starting: glicko2::Rating::new(1500.0, 350.0, 0.06),
                    tau: 0.5,
                    rule: glicko2::GameRule::Glickman,
                    period_micros: None,
                    bounds: glicko2::Bounds::default(),
                },
                Limits::default(),
            ),
            (
                RatingSystem::Elo {
                    starting: 1500.0,
                    k: 64.0,
                },
                capped,
            ),
        ];
        for (seed, (system, limits)) in systems.into_iter().enumerate() {
            let rules = LedgerRules {
                system,
                limits,
                provisional: Provisional::default(),
            };
            let mut rng = Rng::new(seed as u64 + 11);
            let (mut memory, mut n, mut now) = (Memory::default(), 0, 0);
            for step in 0..400 {
                let scope = rng.pick(&["a", "b"]).to_owned();
                let existing: Vec<(String, LedgerGame)> = memory
                    .games
                    .iter()
                    .flat_map(|(s, g)| g.values().map(move |g| (s.clone(), g.clone())))
                    .collect();
                let (old, new) = match rng.below(10) {
                    // one to three games after every other: appended
                    0..=4 => {
                        let new = (0..1 + rng.below(3))
                            .map(|_| {
                                now += rng.int(0, 3);
                                (scope.clone(), game(&mut rng, &mut n, now))
                            })
                            .collect();
                        (Vec::new(), new)
                    }
                    // a game played earlier
                    5 => {
                        let at = rng.int(0, now.max(1));
                        (Vec::new(), vec![(scope, game(&mut rng, &mut n, at))])
                    }
                    _ if existing.is_empty() => continue,
                    // a game voided
                    6 => (
                        vec![existing[rng.below(existing.len())].clone()],
                        Vec::new(),
                    ),
                    // a game corrected: its result, date, a player or its scope
                    _ => {
                        let (s, g) = existing[rng.below(existing.len())].clone();
                        let mut fixed = g.clone();
                        let mut to = s.clone();
                        match rng.below(4) {
                            0 => fixed.outcome = Outcome::White(1.0 - score_of(&g)),
                            1 => fixed.key.at = rng.int(0, now.max(1)),
                            2 => {
                                let other = game(&mut rng, &mut n, 0);
                                if other.white != fixed.black {
                                    fixed.white = other.white;
                                }
                            }
                            _ => to = if s == "a" { "b".into() } else { "a".into() },
                        }
                        (vec![(s, g)], vec![(to, fixed)])
                    }
                };
                run(&mut memory, &rules, old, new);
                check(&memory, &rules, step);
            }
            assert!(memory.entries.len() > 200, "a history worth checking");
            if rules.limits.per_period.is_some() {
                let spent = memory
                    .entries
                    .values()
                    .filter(|e| (e.after.period_moved - 30.0).abs() < 1e-9)
                    .count();
                assert!(
                    spent > 10,
                    "the cap per period is reached ({spent} entries)"
                );
            }
        }
    }

    fn score_of(g: &LedgerGame) -> f64 {
        match g.outcome {
            Outcome::White(s) => s,
            Outcome::DoubleLoss => 0.0,
        }
    }

    /// An in-order game is appended (two entries, batched, no replay); a game before a
    /// player's last game replays the scope from it.
    #[test]
    fn an_in_order_game_is_appended_and_an_earlier_one_replays() {
        let rules = LedgerRules {
            system: RatingSystem::Elo {
                starting: 1500.0,
                k: 32.0,
            },
            limits: Limits::default(),
            provisional: Provisional::default(),
        };
        let mut rng = Rng::new(3);
        let (mut memory, mut n) = (Memory::default(), 0);
        let first = game(&mut rng, &mut n, 10);
        let first_white = first.white.clone();
        run(&mut memory, &rules, Vec::new(), vec![("b".into(), first)]);
        let second = game(&mut rng, &mut n, 20);
        let changes = vec![ScopeChanges {
            book: &Ledger,
            rules,
            scope: "b",
            first_old: None,
            olds: Vec::new(),
            games: vec![second.clone()],
        }];
        memory
            .games
            .entry("b".into())
            .or_default()
            .insert(second.key.clone(), second);
        assert_eq!(apply(&mut memory, changes), 2);
        assert_eq!(memory.batch.len(), 1, "appended rows wait for the flush");
        assert_eq!(memory.replays, 0);
        memory.flush();
        check(&memory, &rules, 0);
        let mut earlier = game(&mut rng, &mut n, 5);
        (earlier.white, earlier.black) = (first_white, "zed".into());
        run(&mut memory, &rules, Vec::new(), vec![("b".into(), earlier)]);
        assert_eq!(memory.replays, 1);
        check(&memory, &rules, 1);
    }
}
