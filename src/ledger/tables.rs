//! The engine's own history as the writer's keeper ([`LedgerStore::drive`] answers the requests of
//! a `writer::Run` and writes its rows): a ledger's games read from its attached table, its entries in `ledger_entries` and its standings in
//! `ledger_standings` (read, written now, batched until [`LedgerStore::flush`], or replaced after a
//! rebuild), seeds and seasons from `ledger_seeds` and `ledger_seasons`.

use std::collections::{BTreeSet, HashMap};

use pg_rating_core::ledger::digest::{compare_digests, compare_standings};
use pg_rating_core::ledger::rows::{
    self, entry_cells, standing_row_cells, EntriesDigest, ENTRY_COLUMNS, STANDINGS_COLUMNS,
};
use pg_rating_core::ledger::writer::{
    self, Answer, Checked, Done, GamesRead, Keeper, Moved, Request, Run, ScopeWrite, StandingRows,
    WriteError, Writes,
};
use pg_rating_core::ledger::{rename_game, Entry, LedgerGame, LedgerKey, LedgerRules, Standing};
use pg_rating_core::rating::RatingError;
use pgrx::spi::SpiHeapTupleData;

use super::attachment::Attachment;
use super::internal;
use super::store::{key_of, micros, timestamp, Ledger, LedgerStore};
use super::{ledger_game, rated};
use crate::bulk_insert::BulkInsert;
use crate::bulk_replace::{
    compare_stored, digest_stored, replace_ledger_rows, stored_sum_is, DigestSet, DigestSum,
    Replaced, RowDigests, Stored,
};
use crate::columns::{check_cells, Cell, Cells, Column, Kind, Named};
use crate::error::raise;
use crate::error::raise_core;
use crate::keyed::{key_args, shaped, texts, Texts};
use crate::rows::RowWriter;
use crate::spi::{column as get, nullable as opt};

/// A ledger with its attachment: the writer's handle of a ledger (`writer::Ledger::book`).
#[derive(Clone, Copy)]
pub struct LedgerBook<'a> {
    pub ledger: &'a Ledger,
    pub att: &'a Attachment,
}

/// The digests of a ledger's stored rows ([`LedgerStore::digest_stored`]): the standings' in the
/// order a scan found them, the entries' sum.
pub struct StoredDigests {
    standings: Vec<u128>,
    entries: DigestSum,
}

/// How a ledger's stored rows compare with a rebuild's.
#[derive(Clone, Copy, Debug)]
pub struct Verdict {
    pub standings: Stored,
    /// The entries are the same (only looked at when the standings are).
    pub entries: bool,
}

impl Verdict {
    pub fn all_same(&self) -> bool {
        self.standings == Stored::Same && self.entries
    }
}

impl<'a> LedgerBook<'a> {
    /// The ledger as the writer knows it.
    pub fn for_writer(self, rules: LedgerRules) -> writer::Ledger<LedgerBook<'a>> {
        writer::Ledger {
            book: self,
            id: self.ledger.id,
            rules,
            keeper: Keeper::Engine,
        }
    }
}

/// A keeper of the writer's rows (the ledgers' tables, a ranking's history): a run's requests
/// answered by reads, its rows written.
pub(crate) trait Keeps<B: Clone> {
    fn answer(&mut self, request: Request<B>) -> Answer;
    fn write_scope(&mut self, scope: ScopeWrite<B>);
    /// Raises a replay's error, its game named as the keeper's games are.
    fn replay_failed(book: B, error: RatingError) -> !;

    /// Answers a run's requests until it is done (its scopes locked): its rows, or its error raised.
    fn finish(&mut self, mut run: Run<B>) -> Done<B> {
        self.finish_run(&mut run)
    }

    /// [`Keeps::finish`] of a run kept for more (a checked rebuild's [`Run::rows`]).
    fn finish_run(&mut self, run: &mut Run<B>) -> Done<B> {
        self.answer_all(run);
        run.compute().unwrap_or_else(|e| Self::failed(e))
    }

    /// Answers a run's requests until every answer is in (its scopes locked), its error raised:
    /// what is left is [`Run::compute`], which reads nothing.
    fn answer_all(&mut self, run: &mut Run<B>) {
        let mut answer = Answer::Start;
        while let Some(request) = run.next_request(answer).unwrap_or_else(|e| Self::failed(e)) {
            answer = self.answer(request);
        }
    }

    /// Raises a run's error.
    fn failed(e: WriteError<B>) -> ! {
        match e {
            WriteError::Replay { book, error } => Self::replay_failed(book, error),
            WriteError::Participants(e) => crate::error::raise_core(&e),
            WriteError::Answer(what) => internal(what),
        }
    }

    /// Drives a run of the writer (its scopes locked): answers its requests, then writes its rows.
    /// Returns the number of entries written.
    fn drive(&mut self, run: Run<B>) -> usize {
        let done = self.finish(run);
        for scope in done.scopes {
            self.write_scope(scope);
        }
        done.written
    }
}

/// The engine's tables as the writer's keeper.
impl<'a> Keeps<LedgerBook<'a>> for LedgerStore<'_, '_> {
    fn replay_failed(book: LedgerBook<'a>, error: RatingError) -> ! {
        let e = rename_game(error, |key| book.att.column_key_text(key));
        raise(
            crate::error::code(&e),
            format!("ledger \"{}\": {}", book.ledger.name, e.message),
        )
    }

    fn answer(&mut self, request: Request<LedgerBook<'a>>) -> Answer {
        match request {
            Request::Seasons(scopes) => {
                let scopes: Vec<(i32, &str)> =
                    scopes.iter().map(|(l, s)| (*l, s.as_str())).collect();
                Answer::Seasons(self.seasons_of(&scopes))
            }
            Request::Current(wanted) => Answer::Current(self.standings_of(&wanted)),
            Request::GamesFrom(scopes) => Answer::Games(
                scopes
                    .into_iter()
                    .map(|g| self.games_from(g.book.att, &g.scope, &g.from, g.participants))
                    .collect(),
            ),
            Request::Take(scopes) => Answer::Taken(
                scopes
                    .into_iter()
                    .map(|t| {
                        // read, not deleted: the replay's write keeps those it leaves as they are
                        let doomed: Vec<(&str, &LedgerKey)> =
                            t.doomed.iter().map(|(p, k)| (p.as_str(), k)).collect();
                        self.take_entries(t.ledger, &t.scope, &doomed)
                    })
                    .collect(),
            ),
            Request::Before(scopes) => Answer::Before(
                scopes
                    .into_iter()
                    .map(|b| self.standings_before(b.ledger, &b.scope, b.players, &b.from))
                    .collect(),
            ),
            Request::PeriodMoved(wanted) => Answer::PeriodMoved(self.period_moved(wanted)),
            Request::Seeds(scopes) => Answer::Seeds(
                scopes
                    .into_iter()
                    .map(|s| {
                        let players = s.players.iter().map(String::as_str).collect();
                        self.seeds(s.ledger, &s.scope, players)
                    })
                    .collect(),
            ),
        }
    }

    /// Writes a scope's rows: entries (those a replay leaves as they were stay), standings, and
    /// the notices of a ledger with a channel.
    fn write_scope(&mut self, w: ScopeWrite<LedgerBook<'a>>) {
        let batched = match w.writes {
            Writes::Batched => true,
            Writes::Now => false,
            Writes::Rebuilt => internal("a rebuild's rows are written by replace_rebuilt"),
        };
        let att = w.book.att;
        self.insert_entries(
            w.ledger,
            &w.scope,
            w.entries,
            &|id| att.column_key_text(id),
            batched,
        );
        if w.book.ledger.notify_channel.is_some() {
            let players = w
                .standings
                .iter()
                .map(|(p, _, _)| p)
                .chain(&w.without_games);
            self.notices
                .extend(players.map(|p| (w.ledger, w.scope.clone(), p.to_owned())));
        }
        self.write_standings(w.ledger, &w.scope, w.standings, w.without_games, batched);
        if !batched {
            self.notify();
        }
    }
}

impl LedgerStore<'_, '_> {
    /// The rated games (or participant rows) of a scope from `from` on, games in key order.
    fn games_from(
        &mut self,
        att: &Attachment,
        scope: &str,
        from: &LedgerKey,
        participants: bool,
    ) -> GamesRead {
        // (the key compared with one of the ledger's: 42804, not an operator missing, when the
        // column's type changed since it was attached)
        let now = self.column_type_of(att.table, &att.key_column, "a ledger's key_column");
        att.check_key_type_now(now.to_u32(), &super::store::type_name(now))
            .unwrap_or_else(|e| raise_core(&e));
        let query = att.rows_from_query();
        let args = [
            scope.into(),
            timestamp(from.at).into(),
            att.column_key_text(&from.id).into(),
        ];
        if participants {
            let rows = self.read_participants(att, &query, &args);
            return GamesRead::Participants(
                rows.into_iter()
                    .map(|r| (r.key, r.player, r.placement))
                    .collect(),
            );
        }
        let rows = self.read_games(att, &query, &args);
        let mut games: Vec<LedgerGame> = rated(&rows).map(ledger_game).collect();
        games.sort_by(|a, b| a.key.cmp(&b.key));
        GamesRead::TwoPlayer(games)
    }

    /// Sums the absolute changes (`rating - rating_before`, as the replay made them) of each
    /// player's entries from the start of the period of the player's game up to it, in game
    /// order: the replay's running sum to the last bit. One statement for every scope.
    fn period_moved(&mut self, wanted: Vec<Moved>) -> HashMap<(i32, String, String), f64> {
        let n = wanted.len();
        let (mut ledgers, mut scopes, mut players) = (
            Vec::with_capacity(n),
            Vec::with_capacity(n),
            Vec::with_capacity(n),
        );
        let (mut starts, mut dates, mut keys) = (
            Vec::with_capacity(n),
            Vec::with_capacity(n),
            Vec::with_capacity(n),
        );
        for m in wanted {
            ledgers.push(m.ledger);
            scopes.push(m.scope);
            players.push(m.player);
            starts.push(timestamp(m.since));
            dates.push(timestamp(m.game.at));
            keys.push(m.game.id);
        }
        let rows = self.read(
            include_str!("../../sql/glue/period_moved.sql"),
            &[
                ledgers.into(),
                scopes.into(),
                players.into(),
                starts.into(),
                dates.into(),
                keys.into(),
            ],
        );
        rows.into_iter()
            .map(|row| {
                let key = (
                    get(&row, "ledger_id"),
                    get(&row, "scope"),
                    get(&row, "player"),
                );
                (key, opt(&row, "moved").unwrap_or(0.0))
            })
            .collect()
    }
}

/// The engine's tables: reads and writes of entries, standings, seeds and seasons.
impl LedgerStore<'_, '_> {
    /// The current standings of those (ledger, scope, player) that have one, with the key of
    /// each one's latest game.
    fn standings_of(
        &mut self,
        wanted: &[(i32, String, String)],
    ) -> HashMap<(i32, String, String), (Standing, LedgerKey)> {
        if wanted.is_empty() {
            return HashMap::new();
        }
        let text = shaped(&LOOKUP_TEXTS, wanted.len(), 3, |rows| {
            format!(
                "SELECT s.* FROM ({rows}) AS u(ledger_id, scope, player)
                 CROSS JOIN LATERAL (
                     SELECT * FROM @extschema@.ledger_standings x
                     WHERE x.ledger_id = u.ledger_id AND x.scope = u.scope AND x.player = u.player
                     LIMIT 1) s"
            )
        });
        let args = key_args(
            3,
            wanted
                .iter()
                .map(|(l, s, p)| (*l, Some(s.as_str()), Some(p.as_str()))),
        );
        let rows = self.read(text, &args);
        let mut out = HashMap::new();
        for row in rows {
            let wanted = (
                get(&row, "ledger_id"),
                get(&row, "scope"),
                get(&row, "player"),
            );
            out.insert(wanted, standing_of(&row, "last_game_date", "last_game_key"));
        }
        out
    }

    /// Each player's standing after the player's latest entry before `from`.
    fn standings_before(
        &mut self,
        ledger: i32,
        scope: &str,
        players: Vec<String>,
        from: &LedgerKey,
    ) -> HashMap<String, (Standing, LedgerKey)> {
        let rows = self.read(
            include_str!("../../sql/glue/standings_before.sql"),
            &[
                ledger.into(),
                scope.into(),
                players.into(),
                timestamp(from.at).into(),
                from.id.as_str().into(),
            ],
        );
        let standing = |r| standing_of(&r, "game_date", "game_key");
        rows.into_iter()
            .map(|r| (get(&r, "player"), standing(r)))
            .collect()
    }

    /// The seeds of those of `players` that have one.
    pub(super) fn seeds(
        &mut self,
        ledger: i32,
        scope: &str,
        players: Vec<&str>,
    ) -> Vec<(String, f64, Option<f64>, Option<f64>)> {
        let seed = |r: &SpiHeapTupleData<'_>| -> (String, f64, Option<f64>, Option<f64>) {
            (
                get(r, "player"),
                get(r, "rating"),
                opt(r, "rd"),
                opt(r, "volatility"),
            )
        };
        // Many players (a rebuild) are looked up faster by reading the scope's seeds once than
        // by a probe each (1M probes: 1.6 s).
        if players.len() > 1000 {
            let rows = self.read(
                &super::for_writers(
                    "SELECT * FROM @ledger_seeds@ WHERE ledger_id = $1 AND scope = $2",
                ),
                &[ledger.into(), scope.into()],
            );
            if rows.is_empty() {
                return Vec::new();
            }
            let wanted: std::collections::HashSet<&str> = players.into_iter().collect();
            return rows
                .into_iter()
                .map(|r| seed(&r))
                .filter(|s| wanted.contains(s.0.as_str()))
                .collect();
        }
        let rows = self.read(
            &super::for_writers(
                "SELECT s.* FROM unnest($3::text[]) AS u(player)
                 CROSS JOIN LATERAL (
                     SELECT * FROM @ledger_seeds@ x
                     WHERE x.ledger_id = $1 AND x.scope = $2 AND x.player = u.player LIMIT 1) s",
            ),
            &[ledger.into(), scope.into(), players.into()],
        );
        rows.into_iter().map(|r| seed(&r)).collect()
    }

    /// The season ends of a scope, sorted.
    pub fn seasons(&mut self, ledger: i32, scope: &str) -> Vec<pg_rating_core::ledger::SeasonEnd> {
        self.seasons_of(&[(ledger, scope)])
            .remove(&(ledger, scope.to_owned()))
            .unwrap_or_default()
    }

    /// The season ends of several scopes, each sorted, in one statement (sorted here: a sort node
    /// in the plan costs its start-up in every game's statement): each scope's own seasons and its
    /// ledger's seasons of every scope (`every_scope`, stored under scope '').
    pub fn seasons_of(
        &mut self,
        scopes: &[(i32, &str)],
    ) -> HashMap<(i32, String), Vec<pg_rating_core::ledger::SeasonEnd>> {
        let mut out: HashMap<(i32, String), Vec<_>> = HashMap::new();
        if scopes.is_empty() {
            return out;
        }
        let text = shaped(&SEASON_TEXTS, scopes.len(), 2, |rows| {
            format!(
                "SELECT u.ledger_id, u.scope, s.* FROM ({rows}) AS u(ledger_id, scope)
                 CROSS JOIN LATERAL (
                     SELECT x.ends_at, x.rating_pull, x.rd_floor FROM @ledger_seasons@ x
                     WHERE x.ledger_id = u.ledger_id AND (x.scope = u.scope OR @x.every_scope@)) s"
            )
        });
        let args = key_args(2, scopes.iter().map(|(l, s)| (*l, Some(*s), None)));
        for r in self.read(&super::for_writers(text), &args) {
            out.entry((get(&r, "ledger_id"), get(&r, "scope")))
                .or_default()
                .push(pg_rating_core::ledger::SeasonEnd {
                    at: micros(get(&r, "ends_at")),
                    pull: get(&r, "rating_pull"),
                    rd_floor: opt(&r, "rd_floor"),
                });
        }
        for seasons in out.values_mut() {
            seasons.sort_by_key(|s| s.at);
        }
        out
    }

    /// The scopes of a ledger that have standings (every scope it has rated), in the order the
    /// writers lock them.
    pub fn scopes_rated(&mut self, ledger: i32) -> Vec<String> {
        let rows = self.read(
            "SELECT DISTINCT scope FROM @extschema@.ledger_standings WHERE ledger_id = $1",
            &[ledger.into()],
        );
        let mut scopes: Vec<String> = rows.into_iter().map(|r| get(&r, "scope")).collect();
        scopes.sort_unstable();
        scopes
    }

    /// The key of the first entry of a scope dated at or after `at`.
    pub fn first_entry_from(&mut self, ledger: i32, scope: &str, at: i64) -> Option<LedgerKey> {
        let rows = self.read(
            "SELECT game_date, game_key FROM @extschema@.ledger_entries
             WHERE ledger_id = $1 AND scope = $2 AND game_date >= $3
             ORDER BY game_date, game_key LIMIT 1",
            &[
                ledger.into(),
                scope.into(),
                timestamp(at.max(-210_866_803_200_000_000)).into(),
            ],
        );
        let row = rows.into_iter().next()?;
        Some(key_of(&row, "game_date", "game_key"))
    }

    /// The earliest first game of any of `players` in a scope.
    pub fn first_game_of_any(
        &mut self,
        ledger: i32,
        scope: &str,
        players: &[String],
    ) -> Option<LedgerKey> {
        let rows = self.read(
            "SELECT game_date, game_key FROM @extschema@.ledger_entries
             WHERE ledger_id = $1 AND scope = $2 AND player = ANY ($3)
             ORDER BY game_date, game_key LIMIT 1",
            &[ledger.into(), scope.into(), players.to_vec().into()],
        );
        let row = rows.into_iter().next()?;
        Some(key_of(&row, "game_date", "game_key"))
    }

    /// Deletes every entry and standing of a ledger.
    pub fn clear(&mut self, ledger: i32) {
        for table in ["ledger_entries", "ledger_standings"] {
            self.write(
                &format!("DELETE FROM @extschema@.{table} WHERE ledger_id = $1"),
                &[ledger.into()],
            );
        }
    }

    /// Inserts the entries of a ledger's scope (or batches them: [`Writes::Batched`]); `game` gives
    /// a key's text as the games table writes it.
    fn insert_entries(
        &mut self,
        ledger: i32,
        scope: &str,
        entries: Vec<Entry>,
        game: &dyn Fn(&str) -> String,
        batched: bool,
    ) {
        let rows: Vec<EntryRow> = entries
            .into_iter()
            .map(|entry| EntryRow::new(ledger, scope, game, entry))
            .collect();
        let rows = self.keep_unchanged(ledger, scope, rows);
        if !batched {
            return Self::write_entries(rows);
        }
        // (a statement's first scope's rows moved, not copied)
        let kept = &mut self.batch.entries;
        if kept.is_empty() {
            *kept = rows;
        } else {
            kept.extend(rows);
        }
    }

    /// In the order of the table's key: each index page is visited once, not once per game.
    fn write_entries(rows: Vec<EntryRow>) {
        if rows.is_empty() {
            return;
        }
        check_cells(&rows, &ENTRY_COLUMNS);
        let mut insert = BulkInsert::open("ledger_entries", &ENTRY_COLUMNS);
        for row in in_key_order(rows) {
            insert.push_cells(&row.cells());
        }
        insert.finish();
    }

    /// Writes the standings of players with games (or batches them: [`Writes::Batched`]), and
    /// removes those of players left without.
    fn write_standings(
        &mut self,
        ledger: i32,
        scope: &str,
        rows: StandingRows,
        without_games: Vec<String>,
        batched: bool,
    ) {
        if !without_games.is_empty() {
            self.write(
                "DELETE FROM @extschema@.ledger_standings WHERE ledger_id = $1 AND scope = $2 AND player = ANY ($3)",
                &[ledger.into(), scope.into(), without_games.into()],
            );
        }
        let rows = rows
            .into_iter()
            .map(|row| StandingRow::new(ledger, scope, row));
        if batched {
            return self.batch.standings.extend(rows);
        }
        self.write_standing_rows(rows.collect());
    }

    fn write_standing_rows(&mut self, rows: Vec<StandingRow>) {
        check_cells(&rows, &STANDINGS_COLUMNS);
        STANDINGS.write(
            rows,
            |r| Cells::values(&r),
            |sql, args| {
                crate::spi::write(self.client, sql, args);
            },
        );
    }

    /// Makes a rebuilt ledger's rows of `scopes` (locked) those of its replays (`rebuilt`, each
    /// scope's written with [`Writes::Rebuilt`]). When the stored rows of a table are already
    /// those (their digests, [`crate::bulk_replace::compare_stored`]), nothing is written; when
    /// most of the standings differ (a new K), every row of both tables is written anew without a
    /// comparison; else rows already equal stay and the others are replaced
    /// ([`crate::bulk_replace`]). `known`: how they compare, when a checked rebuild found it.
    pub fn replace_rebuilt(
        &mut self,
        ledger: i32,
        scopes: &BTreeSet<String>,
        rebuilt: Vec<ScopeWrite<LedgerBook<'_>>>,
        known: Option<Verdict>,
    ) {
        let started = std::time::Instant::now();
        let notify = rebuilt
            .iter()
            .any(|w| w.book.ledger.notify_channel.is_some());
        // Each table whose stored rows are the rebuild's (by their digests) is left as it is. The
        // standings first: when they differ, so do the entries almost always, and their digests
        // are not worth making (the rows are then compared one by one); when most of them differ
        // (a new K), the rows of both tables are all written anew, none compared.
        let mut digested = std::time::Duration::ZERO;
        let verdict = known.unwrap_or_else(|| {
            let mut digests = RowDigests::new();
            let n_standings = rebuilt.iter().map(|w| w.standings.len()).sum();
            let mut wanted = DigestSet::with_capacity_and_hasher(n_standings, Default::default());
            for w in &rebuilt {
                for (player, standing, key) in &w.standings {
                    pg_rating_core::interrupt::check();
                    let cells = standing_row_cells(ledger, &w.scope, player, standing, key);
                    wanted.insert(digests.of_cells(&cells));
                }
            }
            digested = started.elapsed();
            self.compare_rebuilt(ledger, scopes, digests, wanted, n_standings, |digests| {
                // (their sum: two million entries, expected to be the same)
                let from = started.elapsed();
                let integer_keys = rebuilt.first().is_some_and(|w| w.book.att.is_integer());
                let mut wanted = EntriesDigest::new(integer_keys);
                for w in &rebuilt {
                    for e in &w.entries {
                        pg_rating_core::interrupt::check();
                        wanted.add(digests, ledger, &w.scope, &e.as_ref());
                    }
                }
                digested += started.elapsed() - from;
                wanted.sum
            })
        });
        let (same_standings, same_entries) = (verdict.standings == Stored::Same, verdict.entries);
        let most_differ = verdict.standings == Stored::MostDiffer;
        let n_entries = rebuilt.iter().map(|w| w.entries.len()).sum();
        let n_standings = rebuilt.iter().map(|w| w.standings.len()).sum();
        let compared = started.elapsed();
        let kept = |n| Replaced {
            kept: n,
            deleted: 0,
            inserted: 0,
        };
        let (entry_rows, standing_rows) = rows_of(ledger, rebuilt, !same_entries, !same_standings);
        let rows_made = started.elapsed();
        let e = if same_entries {
            kept(n_entries)
        } else {
            let rows = in_key_order(entry_rows);
            replace_ledger_rows(
                "ledger_entries",
                &ENTRY_COLUMNS,
                5,
                ledger,
                scopes,
                rows,
                most_differ,
            )
        };
        let entries_done = started.elapsed();
        let s = if same_standings {
            kept(n_standings)
        } else {
            let standing_rows = standings_in_key_order(standing_rows);
            replace_ledger_rows(
                "ledger_standings",
                &STANDINGS_COLUMNS,
                3,
                ledger,
                scopes,
                standing_rows,
                most_differ,
            )
        };
        pgrx::debug1!(
            "ledger {ledger} rebuilt: entries {} kept, {} deleted, {} inserted; standings {} kept, \
             {} deleted, {} inserted",
            e.kept,
            e.deleted,
            e.inserted,
            s.kept,
            s.deleted,
            s.inserted
        );
        // where a rebuild's time goes (bench/ledgers_scale.sh prints it)
        pgrx::debug2!(
            "ledger {ledger} rebuilt rows: digested in {:.2} s, compared with the stored ones in \
             {:.2} s; rows made in {:.2} s; entries sorted, compared and written in {:.2} s; \
             standings in {:.2} s",
            digested.as_secs_f64(),
            (compared - digested).as_secs_f64(),
            (rows_made - compared).as_secs_f64(),
            (entries_done - rows_made).as_secs_f64(),
            (started.elapsed() - entries_done).as_secs_f64()
        );
        if notify {
            self.notify_rebuilt(ledger);
        }
    }

    /// Deletes every stored row of a ledger's `scopes` (locked), standings and entries, about
    /// `expected` of each, for [`LedgerStore::insert_rebuilt`]; returns how many of each.
    pub fn delete_stored(
        &mut self,
        ledger: i32,
        scopes: &BTreeSet<String>,
        expected: (usize, usize),
    ) -> (usize, usize) {
        (
            crate::bulk_replace::delete_scopes(
                "ledger_standings",
                &STANDINGS_COLUMNS,
                ledger,
                scopes,
                expected.0,
            ),
            crate::bulk_replace::delete_scopes(
                "ledger_entries",
                &ENTRY_COLUMNS,
                ledger,
                scopes,
                expected.1,
            ),
        )
    }

    /// Writes a rebuilt ledger's rows into its `scopes`, emptied by [`LedgerStore::delete_stored`]
    /// (each scope's written with [`Writes::Rebuilt`]): a change of its rules of rating, which
    /// changes every row, rebuilds so with nothing compared.
    pub fn insert_rebuilt(&mut self, ledger: i32, rebuilt: Vec<ScopeWrite<LedgerBook<'_>>>) {
        let started = std::time::Instant::now();
        let notify = rebuilt
            .iter()
            .any(|w| w.book.ledger.notify_channel.is_some());
        let (entry_rows, standing_rows) = rows_of(ledger, rebuilt, true, true);
        let rows_made = started.elapsed();
        let entries = crate::bulk_replace::insert_into_emptied(
            "ledger_entries",
            &ENTRY_COLUMNS,
            5,
            ledger,
            in_key_order(entry_rows),
        );
        let standings = crate::bulk_replace::insert_into_emptied(
            "ledger_standings",
            &STANDINGS_COLUMNS,
            3,
            ledger,
            standings_in_key_order(standing_rows),
        );
        pgrx::debug1!(
            "ledger {ledger} rebuilt: entries {entries} inserted; standings {standings} inserted"
        );
        // where a rebuild's time goes (bench/ledgers_scale.sh prints it)
        pgrx::debug2!(
            "ledger {ledger} rebuilt rows: made in {:.2} s, sorted and inserted in {:.2} s",
            rows_made.as_secs_f64(),
            (started.elapsed() - rows_made).as_secs_f64()
        );
        if notify {
            self.notify_rebuilt(ledger);
        }
    }

    /// Digests the stored rows of a ledger's `scopes` (locked) as a checked rebuild compares them
    /// ([`LedgerStore::compare_checked`]), about `expected` (standings, entries) of them: read
    /// while the rebuild replays its games ([`crate::apart`]), so every row is read, even after
    /// one that differs.
    pub fn digest_stored(
        &mut self,
        ledger: i32,
        scopes: &BTreeSet<String>,
        digests: &mut RowDigests,
        expected: (usize, usize),
    ) -> StoredDigests {
        let mut standings = Vec::with_capacity(expected.0);
        digest_stored(
            "ledger_standings",
            &STANDINGS_COLUMNS,
            ledger,
            scopes,
            digests,
            expected.0,
            |d| {
                standings.push(d);
                true
            },
        );
        let mut entries = DigestSum::default();
        digest_stored(
            "ledger_entries",
            &ENTRY_COLUMNS,
            ledger,
            scopes,
            digests,
            expected.1,
            |d| {
                entries.add(d);
                true
            },
        );
        StoredDigests { standings, entries }
    }

    /// How the stored rows of a ledger (their digests, [`LedgerStore::digest_stored`]) compare with
    /// those whose digests a checked rebuild made ([`Run::rebuild_checked`]), as
    /// [`LedgerStore::compare_rebuilt`] compares them. When they are the same, nothing is to be
    /// written (the ledger's channel is told of the rebuild).
    pub fn compare_checked(
        &mut self,
        ledger: &Ledger,
        checked: Checked,
        stored: StoredDigests,
    ) -> Verdict {
        let Checked {
            scopes: replayed,
            standings,
            standings_rows,
            entries,
        } = checked;
        let (entries_rows, id) = (entries.rows(), ledger.id);
        let standings = compare_standings(standings, standings_rows, |wanted| {
            compare_digests(&stored.standings, wanted)
        });
        let verdict = Verdict {
            standings,
            entries: standings == Stored::Same && stored.entries == entries,
        };
        if verdict.all_same() {
            pgrx::debug1!(
                "ledger {id} rebuilt: entries {entries_rows} kept, 0 deleted, 0 inserted; \
                 standings {standings_rows} kept, 0 deleted, 0 inserted"
            );
            // (as replace_rebuilt does: a ledger without games has no scope to tell of)
            if ledger.notify_channel.is_some() && replayed > 0 {
                self.notify_rebuilt(id);
            }
        }
        verdict
    }

    /// Compares the stored rows of a ledger's `scopes` with a rebuild's digests: the standings'
    /// (`standings_rows` of them; a set with fewer had two rows alike) one by one in a set, then,
    /// only when those are the same, the entries' sum that `entries` makes.
    fn compare_rebuilt(
        &mut self,
        ledger: i32,
        scopes: &BTreeSet<String>,
        mut digests: RowDigests,
        standings: DigestSet,
        standings_rows: usize,
        entries: impl FnOnce(&mut RowDigests) -> DigestSum,
    ) -> Verdict {
        let standings = compare_standings(standings, standings_rows, |wanted| {
            let columns = &STANDINGS_COLUMNS;
            compare_stored(
                "ledger_standings",
                columns,
                ledger,
                scopes,
                &mut digests,
                wanted,
            )
        });
        let entries = standings == Stored::Same && {
            let wanted = entries(&mut digests);
            stored_sum_is(
                "ledger_entries",
                &ENTRY_COLUMNS,
                ledger,
                scopes,
                &mut digests,
                wanted,
            )
        };
        Verdict { standings, entries }
    }

    /// Tells a ledger's channel (if any) that it was rebuilt, when the transaction commits.
    fn notify_rebuilt(&mut self, ledger: i32) {
        self.write(
            &super::for_writers(
                "SELECT pg_catalog.pg_notify(l.notify_channel,
                     pg_catalog.json_build_object('ledger', l.name, 'rebuilt', true)::text) AS sent
                 FROM @ledgers@ l WHERE l.id = $1 AND l.notify_channel IS NOT NULL",
            ),
            &[ledger.into()],
        );
    }

    /// Notifies the channels of the ledgers whose players' standings were written: one JSON
    /// payload per player (ledger, scope, player, rating, rd, games, last_played; a player left
    /// without games: games 0 and no rating), delivered when the transaction commits.
    pub fn notify(&mut self) {
        if self.notices.is_empty() {
            return;
        }
        let mut notices = std::mem::take(&mut self.notices);
        notices.sort_unstable();
        notices.dedup();
        let mut ledgers = Vec::with_capacity(notices.len());
        let mut scopes = Vec::with_capacity(notices.len());
        let mut players = Vec::with_capacity(notices.len());
        for (l, scope, player) in notices {
            ledgers.push(l);
            scopes.push(scope);
            players.push(player);
        }
        self.write(
            &super::for_writers(include_str!("../../sql/glue/notify_standings.sql")),
            &[ledgers.into(), scopes.into(), players.into()],
        );
    }

    /// Writes the batched rows: one statement per table for every ledger and scope.
    pub fn flush(&mut self) {
        let mut batch = std::mem::take(&mut self.batch);
        Self::write_entries(batch.entries);
        batch.standings.sort_unstable_by(|a, b| {
            (a.ledger, &a.scope, &a.player).cmp(&(b.ledger, &b.scope, &b.player))
        });
        self.write_standing_rows(batch.standings);
        self.notify();
    }
}

/// The standing held in an entry or standings row (the row has the standings columns), with
/// the key of its game (its columns `date` and `key`), the last one played.
fn standing_of(row: &SpiHeapTupleData<'_>, date: &str, key: &str) -> (Standing, LedgerKey) {
    let key = key_of(row, date, key);
    let cell = |(name, kind): Column| match kind {
        Kind::Int => Cell::Int(opt(row, name)),
        _ => Cell::Float(opt(row, name)),
    };
    let standing = rows::standing_of(cell, key.at)
        .unwrap_or_else(|column| internal(format!("column {column} is NULL")));
    (standing, key)
}

static LOOKUP_TEXTS: Texts = texts();
static SEASON_TEXTS: Texts = texts();

/// The table rows of a rebuild's scopes: its entries' (`entries`) and its standings'
/// (`standings`), each list sized at once (growing a list of two million rows would copy it and
/// touch its memory again at each doubling).
fn rows_of(
    ledger: i32,
    rebuilt: Vec<ScopeWrite<LedgerBook<'_>>>,
    entries: bool,
    standings: bool,
) -> (Vec<EntryRow>, Vec<StandingRow>) {
    let count = |f: fn(&ScopeWrite<LedgerBook<'_>>) -> usize| rebuilt.iter().map(f).sum::<usize>();
    let mut entry_rows = Vec::with_capacity(if entries {
        count(|w| w.entries.len())
    } else {
        0
    });
    let mut standing_rows = Vec::with_capacity(if standings {
        count(|w| w.standings.len())
    } else {
        0
    });
    for w in rebuilt {
        let (scope, att) = (w.scope, w.book.att);
        let game = |id: &str| att.column_key_text(id);
        if entries {
            let rows = w.entries.into_iter();
            entry_rows.extend(rows.map(|entry| EntryRow::new(ledger, &scope, &game, entry)));
        }
        if standings {
            let rows = w.standings.into_iter();
            standing_rows.extend(rows.map(|row| StandingRow::new(ledger, &scope, row)));
        }
    }
    (entry_rows, standing_rows)
}

/// Standings in the order of the table's key (ledger, scope, player): by integers, as
/// [`in_key_order`] (a comparison of texts scattered in memory took 2.5 s for a million).
fn standings_in_key_order(rows: Vec<StandingRow>) -> Vec<StandingRow> {
    pg_rating_core::text_order::in_order_of(rows, |r| {
        (r.ledger, r.scope.as_str(), r.player.as_str())
    })
}

/// Entries in the order of the table's key (ledger, scope, player, game), so that each index page
/// is visited once, not once per game. A replay makes each player's entries in game order: a sort
/// of integers (ledger, ranks of the scope and player texts, position) keeps it, instead of
/// comparing texts of rows scattered in memory. The rows are moved in place (a rebuild's take a
/// gigabyte).
fn in_key_order(rows: Vec<EntryRow>) -> Vec<EntryRow> {
    pg_rating_core::text_order::in_order_of(rows, |r| {
        (r.ledger, r.scope.as_str(), r.entry.player.as_str())
    })
}

/// Rows waiting for [`LedgerStore::flush`].
#[derive(Default)]
pub(super) struct Batch {
    entries: Vec<EntryRow>,
    standings: Vec<StandingRow>,
}

pub(super) struct EntryRow {
    ledger: i32,
    scope: String,
    game: String,
    entry: Entry,
}

impl EntryRow {
    /// `game` gives a key's text as the games table writes it.
    fn new(ledger: i32, scope: &str, game: &dyn Fn(&str) -> String, entry: Entry) -> Self {
        let (scope, game) = (scope.to_owned(), game(&entry.key.id));
        EntryRow {
            ledger,
            scope,
            game,
            entry,
        }
    }
}

impl Cells<24> for EntryRow {
    fn cells(&self) -> [Named<Cell<'_>>; 24] {
        entry_cells(self.ledger, &self.scope, &self.game, &self.entry.as_ref())
    }
}

struct StandingRow {
    ledger: i32,
    scope: String,
    player: String,
    standing: Standing,
    key: LedgerKey,
}

impl StandingRow {
    fn new(
        ledger: i32,
        scope: &str,
        (player, standing, key): (String, Standing, LedgerKey),
    ) -> Self {
        let scope = scope.to_owned();
        StandingRow {
            ledger,
            scope,
            player,
            standing,
            key,
        }
    }
}

impl Cells<17> for StandingRow {
    fn cells(&self) -> [Named<Cell<'_>>; 17] {
        standing_row_cells(
            self.ledger,
            &self.scope,
            &self.player,
            &self.standing,
            &self.key,
        )
    }
}

static STANDINGS: RowWriter = RowWriter::new(
    "ledger_standings",
    &STANDINGS_COLUMNS,
    &["ledger_id", "scope", "player"],
);

#[cfg(any(test, feature = "pg_test"))]
#[pgrx::pg_schema]
mod tests {
    use super::*;
    use pg_rating_core::rating::PlayerState;
    use pgrx::prelude::*;

    fn standing() -> Standing {
        Standing {
            state: PlayerState {
                rating: 1516.0,
                rd: None,
                volatility: None,
                last_played: Some(0),
            },
            games: 1,
            wins: 1,
            draws: 0,
            losses: 0,
            peak: 1516.0,
            streak: 1,
            best_streak: 1,
            opponents_sum: 1500.0,
            score_sum: 1.0,
            period_moved: 0.0,
        }
    }

    fn key() -> LedgerKey {
        LedgerKey {
            at: 0,
            id: "g1".into(),
        }
    }

    fn standing_row() -> StandingRow {
        StandingRow {
            ledger: 1,
            scope: String::new(),
            player: "alice".into(),
            standing: standing(),
            key: key(),
        }
    }

    fn entry_row() -> EntryRow {
        let mut before = standing();
        before.games = 0;
        EntryRow {
            ledger: 1,
            scope: String::new(),
            game: "g1".into(),
            entry: Entry {
                key: key(),
                player: "alice".into(),
                opponent: "bob".into(),
                score: 1.0,
                expected: 0.5,
                before,
                after: standing(),
            },
        }
    }

    #[pg_test]
    fn rows_bind_their_columns_by_name() {
        check_cells(&[entry_row()], &ENTRY_COLUMNS);
        check_cells(&[standing_row()], &STANDINGS_COLUMNS);
        check_cells(&Vec::<EntryRow>::new(), &STANDINGS_COLUMNS);
    }

    /// Rows of several ledgers, scopes and players, each player's in game order, come out in
    /// the order of the table's key, a player's games still in their order.
    #[pg_test]
    fn entries_are_put_in_key_order_in_place() {
        let row = |ledger: i32, scope: &str, player: &str, game: i64| {
            let mut r = entry_row();
            r.ledger = ledger;
            r.scope = scope.into();
            r.entry.player = player.into();
            r.entry.key.at = game;
            r
        };
        let mut rows = Vec::new();
        for game in 0..50 {
            for (ledger, scope, player) in [
                (2, "b", "zed"),
                (-1, "", "bob"),
                (2, "a", "alice"),
                (1, "", "bob"),
                (2, "a", "Alice"),
                (1, "", "alice"),
                (2, "a", "alicia"),
            ] {
                if game % 3 != 0 || player != "zed" {
                    rows.push(row(ledger, scope, player, game));
                }
            }
        }
        let n = rows.len();
        let keys = |rows: &[EntryRow]| -> Vec<(i32, String, String, i64)> {
            rows.iter()
                .map(|r| {
                    (
                        r.ledger,
                        r.scope.clone(),
                        r.entry.player.clone(),
                        r.entry.key.at,
                    )
                })
                .collect()
        };
        let mut expected = keys(&rows);
        expected.sort();
        let sorted = in_key_order(rows);
        assert_eq!(sorted.len(), n);
        assert_eq!(keys(&sorted), expected);
    }

    #[pg_test]
    #[should_panic(expected = "bound to the columns")]
    fn a_reordered_statement_fails() {
        let mut columns = STANDINGS_COLUMNS;
        columns.swap(5, 6);
        check_cells(&[standing_row()], &columns);
    }

    /// After a change of K most of the standings differ, and the rebuild writes every row of the
    /// ledger's scopes anew without comparing them: its rows are then exactly those of a ledger
    /// replayed afresh with that K (every column, bit for bit), and another ledger's rows on the
    /// same games are left as they were (the same row versions).
    #[pg_test]
    fn a_rebuild_after_a_change_of_k_equals_a_fresh_replay() {
        let schema = crate::test_support::engine_schema();
        Spi::run(&format!(
            "CREATE TABLE public.k_games (id int PRIMARY KEY, played_at timestamptz NOT NULL, white text NOT NULL,
                 black text NOT NULL, score float8 NOT NULL, league text NOT NULL);
             INSERT INTO {schema}.ledgers (name, rating_system, k_factor) VALUES ('k', 'elo', 20), ('other', 'elo', 32);
             SELECT {schema}.ledger_attach(l, 'public.k_games', 'id', 'played_at', 'white', 'black', 'score',
                                           scope_column => 'league')
             FROM unnest(ARRAY['k', 'other']) l;
             INSERT INTO public.k_games
             SELECT n, timestamptz '2025-01-01' + n * interval '1 hour', 'p' || n % 61, 'p' || (n % 61 + 1 + n % 5) % 61,
                    (n % 3) / 2.0, (ARRAY['open', 'blitz'])[1 + n % 2]
             FROM generate_series(1, 3000) n;
             CREATE TABLE public.k_other AS
             SELECT 'entry' AS kind, scope, player, game_key, xmin::text AS version FROM {schema}.ledger_entries e
             WHERE e.ledger_id = (SELECT id FROM {schema}.ledgers WHERE name = 'other')
             UNION ALL
             SELECT 'standing', scope, player, '', xmin::text FROM {schema}.ledger_standings s
             WHERE s.ledger_id = (SELECT id FROM {schema}.ledgers WHERE name = 'other');
             UPDATE {schema}.ledgers SET k_factor = 24 WHERE name = 'k';
             INSERT INTO {schema}.ledgers (name, rating_system, k_factor) VALUES ('fresh', 'elo', 24);
             SELECT {schema}.ledger_attach('fresh', 'public.k_games', 'id', 'played_at', 'white', 'black', 'score',
                                           scope_column => 'league')"
        ))
        .unwrap();
        // each ledger's rows as JSON without the ledger's id (floats in their shortest exact text)
        let rows = |table: &str, ledger: &str| {
            format!(
                "SELECT pg_catalog.to_jsonb(r) - 'ledger_id' AS row FROM {schema}.{table} r
                 WHERE r.ledger_id = (SELECT id FROM {schema}.ledgers WHERE name = '{ledger}')"
            )
        };
        for table in ["ledger_entries", "ledger_standings"] {
            let (k, fresh) = (rows(table, "k"), rows(table, "fresh"));
            let count = |sql: &str| Spi::get_one::<i64>(sql).unwrap().unwrap();
            let n = count(&format!("SELECT count(*) FROM ({k}) r"));
            assert!(n > 100, "{table}: {n} rows");
            assert_eq!(
                n,
                count(&format!("SELECT count(*) FROM ({fresh}) r")),
                "{table}"
            );
            let differ = count(&format!(
                "SELECT count(*) FROM (({k}) EXCEPT ALL ({fresh})) d"
            ));
            assert_eq!(differ, 0, "{table}: rows not those of a fresh replay");
            // (the change of K did change them)
            let with_k20 = count(&format!(
                "SELECT count(*) FROM ({k}) r JOIN ({}) o USING (row)",
                rows(table, "other")
            ));
            assert!(with_k20 < n, "{table}");
        }
        let kept = Spi::get_one::<i64>(&format!(
            "SELECT count(*) FROM public.k_other v
             WHERE v.version = CASE v.kind
                 WHEN 'entry' THEN (SELECT e.xmin::text FROM {schema}.ledger_entries e
                                    WHERE e.ledger_id = (SELECT id FROM {schema}.ledgers WHERE name = 'other')
                                      AND (e.scope, e.player, e.game_key) = (v.scope, v.player, v.game_key))
                 ELSE (SELECT s.xmin::text FROM {schema}.ledger_standings s
                       WHERE s.ledger_id = (SELECT id FROM {schema}.ledgers WHERE name = 'other')
                         AND (s.scope, s.player) = (v.scope, v.player)) END"
        ))
        .unwrap()
        .unwrap();
        let all = Spi::get_one::<i64>("SELECT count(*) FROM public.k_other")
            .unwrap()
            .unwrap();
        assert!(all > 100);
        assert_eq!(kept, all, "another ledger's rows were rewritten");
    }

    /// `ledger_rebuild` digests its rows first (`Run::rebuild_checked`): a ledger whose rows are
    /// right is left as it is (the same row versions); a forged entry alone (its standings
    /// right), then a forged standing alone, are found and made the replay's again.
    #[pg_test]
    fn a_checked_rebuild_writes_nothing_unless_a_row_differs() {
        let schema = crate::test_support::engine_schema();
        Spi::run(&format!(
            "CREATE TABLE public.c_games (id bigint PRIMARY KEY, played_at timestamptz NOT NULL,
                 white text NOT NULL, black text NOT NULL, score float8 NOT NULL, league text NOT NULL);
             INSERT INTO {schema}.ledgers (name, rating_system, k_factor) VALUES ('c', 'elo', 20);
             SELECT {schema}.ledger_attach('c', 'public.c_games', 'id', 'played_at', 'white', 'black',
                                           'score', scope_column => 'league');
             INSERT INTO public.c_games
             SELECT n, timestamptz '2025-01-01' + n * interval '1 hour', 'p' || n % 41,
                    'p' || (n % 41 + 1 + n % 7) % 41, (n % 3) / 2.0, (ARRAY['open', 'blitz'])[1 + n % 2]
             FROM generate_series(1, 2000) n;
             CREATE TABLE public.c_rows AS
             SELECT 'entry' AS kind, pg_catalog.to_jsonb(e) AS row, e.ctid::text AS at
             FROM {schema}.ledger_entries e
             UNION ALL
             SELECT 'standing', pg_catalog.to_jsonb(s), s.ctid::text FROM {schema}.ledger_standings s;"
        ))
        .unwrap();
        let count = |sql: &str| Spi::get_one::<i64>(sql).unwrap().unwrap();
        let all = count("SELECT count(*) FROM public.c_rows");
        assert!(all > 4000, "{all} rows");
        // rows as they are now that are not those of the first replay, and rows of it gone
        let now = format!(
            "SELECT 'entry' AS kind, pg_catalog.to_jsonb(e) AS row, e.ctid::text AS at
             FROM {schema}.ledger_entries e
             UNION ALL
             SELECT 'standing', pg_catalog.to_jsonb(s), s.ctid::text FROM {schema}.ledger_standings s"
        );
        let differ = |with_place: bool| {
            let columns = if with_place {
                "kind, row, at"
            } else {
                "kind, row"
            };
            count(&format!(
                "SELECT count(*) FROM ((SELECT {columns} FROM ({now}) n EXCEPT ALL SELECT {columns} FROM public.c_rows)
                 UNION ALL (SELECT {columns} FROM public.c_rows EXCEPT ALL SELECT {columns} FROM ({now}) n)) d"
            ))
        };
        let rebuild = || count(&format!("SELECT {schema}.ledger_rebuild('c')"));
        assert_eq!(rebuild(), 4000);
        assert_eq!(differ(true), 0, "a ledger already right was written");
        for forge in [
            "UPDATE {schema}.ledger_entries SET rating = rating + 1
             WHERE (player, game_key) = (SELECT player, max(game_key) FROM {schema}.ledger_entries
                                         WHERE player = 'p3' GROUP BY player)",
            "UPDATE {schema}.ledger_standings SET wins = wins + 1 WHERE player = 'p5' AND scope = 'blitz'",
        ] {
            Spi::run(&format!(
                "SET LOCAL row_security = off; {}",
                forge.replace("{schema}", &schema)
            ))
            .unwrap();
            assert_eq!(differ(false), 2, "{forge}: not forged");
            assert_eq!(rebuild(), 4000);
            assert_eq!(differ(false), 0, "{forge}: not repaired");
            // (only the forged row was written again)
            assert_eq!(differ(true), 2, "{forge}: more than the forged row written");
            Spi::run(&format!(
                "DELETE FROM public.c_rows; INSERT INTO public.c_rows {now}"
            ))
            .unwrap();
        }
    }
}
