//! A ranking's history as the ledgers' writer's keeper ([`Keeps::drive`] answers a
//! `writer::Run`'s requests and writes its rows): the
//! ranking's games read from `service_games` (those it counts), its entries in `elo_history`
//! (numbered from `elo_history_id_seq` and chained per player by
//! `pg_rating_core::ranking::chain`) and its standings in `ranking_players`. A replay keeps the
//! ids of the entries it rewrites, and rewrites only the entries that differ.

use std::collections::HashMap;
use std::sync::OnceLock;

use pg_rating_core::ledger::writer::{Answer, GamesRead, Request, ScopeWrite};
use pg_rating_core::ledger::{LedgerGame, LedgerKey, Standing};
use pg_rating_core::ranking::rows::{self, ColumnKind, Named, RowValue};
use pg_rating_core::ranking::stored::{
    appended_games, first_missing, PlayerTip, ReplayRows, StoredEntries, StoredEntry,
};
use pg_rating_core::ranking::{GameKey, HistoryEntry, Ranking};
use pgrx::datum::DatumWithOid;
use pgrx::prelude::*;

use super::store::{timestamp, tip, RankingStore};
use crate::bulk_insert::BulkInsert;
use crate::columns::{in_order, names, unnest, Arrays, Cell, Column, Kind, Value};
use crate::error::{internal, raise, raise_core};
use crate::ledger::Keeps;
use crate::rows::{RowPair, RowWriter};
use crate::spi::{column, column_at, nullable, nullable_at, ordinals};
use pg_rating_core::rating::RatingError;

/// The game of a key the rankings made ([`GameKey::ledger_key`]).
fn game_of(key: &LedgerKey) -> GameKey {
    GameKey::of(key).unwrap_or_else(|| internal(format!("{} is not a ranking's game key", key.id)))
}

/// The core's columns ([`rows`]) as the writers take them.
const fn columns<const N: usize>(core: [rows::Column; N]) -> [Column; N] {
    let mut out = [("", Kind::Int); N];
    let mut i = 0;
    while i < N {
        let kind = match core[i].1 {
            ColumnKind::Int => Kind::Int,
            ColumnKind::Text => Kind::Text,
            ColumnKind::Decimal => Kind::Decimal,
            ColumnKind::Time => Kind::Time,
        };
        out[i] = (core[i].0, kind);
        i += 1;
    }
    out
}

/// The columns of `elo_history` the rankings write.
const HISTORY: &[Column] = &columns(rows::HISTORY_COLUMNS);
/// An entry's `id` and what a rebuild changes of an entry it keeps.
const HISTORY_CHANGED: &[Column] = &columns(rows::HISTORY_CHANGED_COLUMNS);
static ENTRIES: RowWriter = RowWriter::new("elo_history", HISTORY, &[]);

/// The columns of `ranking_players`; a standing replaces the one of its key.
const STANDINGS_COLUMNS: &[Column] = &columns(rows::STANDINGS_COLUMNS);
static STANDINGS: RowWriter =
    RowWriter::new("ranking_players", STANDINGS_COLUMNS, &rows::STANDINGS_KEY);
/// A statement's appended entries and the standings after them.
static APPENDED: RowPair = RowPair::new(&ENTRIES, &STANDINGS);

/// A row's values as the core names them, bound to `columns` by name. Numbers go as decimals
/// (the shortest text that reads back as the same `f64`), so a state read back equals the state
/// computed.
fn values<const N: usize>(columns: &[Column], row: [Named<'_>; N]) -> Vec<Value> {
    let value = |v: RowValue<'_>| match v {
        RowValue::Int(x) => Value::Int(x),
        RowValue::Text(x) => Value::from(x.to_owned()),
        RowValue::Decimal(x) => Value::Float(x),
        RowValue::Time(t) => Value::from(Cell::Time(t)),
    };
    in_order(columns, row.map(|(name, v)| (name, value(v))))
}

fn entry_values((ranking, e): &(i32, HistoryEntry)) -> Vec<Value> {
    values(HISTORY, e.row(*ranking))
}

fn tip_values(row: &PlayerTip) -> Vec<Value> {
    values(STANDINGS_COLUMNS, row.row())
}

/// The one statement of a rebuild's changes to the history: `$1` the ids of the entries that go,
/// the arrays of the changed entries ([`HISTORY_CHANGED`]), then those of the new entries
/// ([`HISTORY`]). One statement, so that the chain's successor uniqueness, checked at its end,
/// lets entries take each other's places.
fn merge_text() -> &'static str {
    static TEXT: OnceLock<String> = OnceLock::new();
    TEXT.get_or_init(|| {
        let sets: Vec<String> = HISTORY_CHANGED[1..]
            .iter()
            .map(|(n, _)| format!("{n} = u.{n}"))
            .collect();
        format!(
            "WITH gone AS (
                 DELETE FROM @extschema@.elo_history WHERE id = ANY ($1::int4[])
             ), changed AS (
                 UPDATE @extschema@.elo_history e SET {}
                 FROM {} AS u({})
                 WHERE e.id = u.id
             )
             INSERT INTO @extschema@.elo_history ({}) SELECT * FROM {}",
            sets.join(", "),
            unnest(HISTORY_CHANGED, 2),
            names(HISTORY_CHANGED),
            names(HISTORY),
            unnest(HISTORY, 2 + HISTORY_CHANGED.len()),
        )
    })
}

/// A ranking's history as the writer's keeper: a run's requests answered by reads, its rows
/// written. A ranking has no seeds, seasons or caps, so the run never asks for them.
impl<'r> Keeps<&'r Ranking> for RankingStore<'_, '_> {
    fn replay_failed(book: &'r Ranking, error: RatingError) -> ! {
        raise_core(&book.replay_failed(error))
    }

    fn answer(&mut self, request: Request<&'r Ranking>) -> Answer {
        match request {
            Request::Current(wanted) => Answer::Current(self.current(&wanted)),
            Request::GamesFrom(scopes) => Answer::Games(
                scopes
                    .into_iter()
                    .map(|g| GamesRead::TwoPlayer(self.games_from(g.book, &g.from)))
                    .collect(),
            ),
            Request::Take(scopes) => Answer::Taken(
                scopes
                    .into_iter()
                    .map(|t| self.take_from(t.ledger, &t.from))
                    .collect(),
            ),
            Request::Before(scopes) => Answer::Before(
                scopes
                    .into_iter()
                    .map(|b| self.before(b.ledger, b.players, &b.from))
                    .collect(),
            ),
            Request::Seasons(_) | Request::PeriodMoved(_) | Request::Seeds(_) => {
                internal("a ranking has no seasons, caps or seeds")
            }
        }
    }

    /// Writes a ranking's rows: appended ones batched until [`RankingStore::flush`]; a replay's
    /// over the entries it took, keeping their ids.
    fn write_scope(&mut self, mut w: ScopeWrite<&'r Ranking>) {
        let (ranking, without_games) = (w.ledger, std::mem::take(&mut w.without_games));
        let Some(mut write) = self.kept.write(w) else {
            return;
        };
        if !write.gone.is_empty() {
            // the ranking's history goes, and the replay's entries take new ids (before they are
            // inserted: their keys are the deleted entries')
            self.query(
                "DELETE FROM @extschema@.elo_history WHERE id = ANY ($1::int4[])",
                &[std::mem::take(&mut write.gone).into()],
            );
        }
        let fresh = self.next_ids(write.missing);
        let (rows, tips) = write.rows(fresh).unwrap_or_else(|e| internal(e));
        self.merge_entries(ranking, rows);
        self.write_standings(&tips);
        if !without_games.is_empty() {
            self.query(
                "DELETE FROM @extschema@.ranking_players
                 WHERE ranking_id = $1 AND service_id = 1 AND user_id_in_service = ANY ($2::text[])",
                &[ranking.into(), without_games.into()],
            );
        }
    }
}

impl RankingStore<'_, '_> {
    fn games_from(&mut self, ranking: &Ranking, from: &LedgerKey) -> Vec<LedgerGame> {
        let games = self.ranked_games_from(game_of(from));
        ranking.counted(&games).unwrap_or_else(|e| raise_core(&e))
    }

    fn current(
        &mut self,
        wanted: &[(i32, String, String)],
    ) -> HashMap<(i32, String, String), (Standing, LedgerKey)> {
        if wanted.is_empty() {
            return HashMap::new();
        }
        let rankings: Vec<i32> = wanted.iter().map(|w| w.0).collect();
        let players: Vec<&str> = wanted.iter().map(|w| w.2.as_str()).collect();
        let rows = self.query(
            include_str!("../../sql/random_chess/glue/latest_entries.sql"),
            &[rankings.into(), players.into()],
        );
        let mut out = HashMap::new();
        for row in rows {
            let ranking = column::<i32>(&row, "ranking");
            let player: String = column(&row, "player");
            let found = self.kept.remember(ranking, &player, tip(&row));
            out.insert((ranking, String::new(), player), found);
        }
        out
    }

    fn before(
        &mut self,
        ranking: i32,
        players: Vec<String>,
        from: &LedgerKey,
    ) -> HashMap<String, (Standing, LedgerKey)> {
        let from = game_of(from);
        self.kept.forget_latest(ranking);
        if from == GameKey::START {
            return HashMap::new();
        }
        let rows = self.query(
            include_str!("../../sql/random_chess/glue/entries_before.sql"),
            &[
                ranking.into(),
                players.into(),
                timestamp(from.played_at).into(),
                from.game_id.into(),
            ],
        );
        let mut out = HashMap::new();
        for row in rows {
            let player: String = column(&row, "player");
            let found = self.kept.remember(ranking, &player, tip(&row));
            out.insert(player, found);
        }
        out
    }

    /// Reads the ranking's entries from `from` on and keeps them for the write, which keeps
    /// their ids and rewrites only those that differ, or deletes them all (a replay from the
    /// start, which numbers its entries anew as the original does).
    fn take_from(&mut self, ranking: i32, from: &LedgerKey) -> Vec<String> {
        let from = game_of(from);
        let taken = self.entries_from(ranking, from);
        self.kept.took(ranking, from, taken)
    }
}

impl RankingStore<'_, '_> {
    /// Writes the appended replays ([`Writes::Batched`]) of every ranking at once: their ids in
    /// one statement, numbered in the original schema's order (`appended_order`: game by game,
    /// ranking by ranking, black before white), then their entries and their standings in
    /// another ([`APPENDED`]).
    pub fn flush(&mut self) {
        let Some(appended) = self.kept.appended_entries() else {
            return;
        };
        let ids = self.next_ids(appended);
        let (entries, players) = self.kept.appended(&ids).unwrap_or_else(|e| internal(e));
        self.vouch_for_games(&entries);
        match BulkInsert::open_vouching_keys("elo_history", HISTORY) {
            Some(mut insert) => {
                for entry in &entries {
                    insert.push(entry_values(entry));
                }
                insert.finish();
                self.write_standings(&players);
            }
            // a trigger of the DBA's own on elo_history: by SQL, which runs it
            None => {
                let entries = entries.iter().map(entry_values).collect();
                let players = players.iter().map(tip_values).collect();
                APPENDED.write(entries, players, |sql, args| {
                    self.query(sql, args);
                });
            }
        }
    }

    /// Makes good the foreign keys of appended entries, which are written without their checks
    /// ([`BulkInsert::open_vouching_keys`]). Their ranking is locked (every change of rankings
    /// first takes every ranking's lock, and a deleted ranking takes its history along). Their
    /// games are rows of the statement being rated: no other transaction sees them yet, and no
    /// one may delete a service game; but a trigger of the same statement could have changed a
    /// game's id, which is checked here (23503), once for all the statement's games.
    fn vouch_for_games(&mut self, entries: &[(i32, HistoryEntry)]) {
        let games = appended_games(entries);
        // One probe of the primary key per game, also in a generic plan made while the table was
        // small: `id = ANY($1)` was planned as a sequential scan then, and kept (0.4 ms a game
        // by 10,000 games, until an ANALYZE replaced the plan).
        let rows = self.query(
            "SELECT array_agg(g.id) AS found FROM unnest($1::int4[]) AS k(id) \
             CROSS JOIN LATERAL (SELECT id FROM @extschema@.service_games WHERE id = k.id LIMIT 1) g",
            &[games.clone().into()],
        );
        let found = rows
            .map(|r| nullable::<Vec<i32>>(&r, "found"))
            .next()
            .flatten();
        if let Some(gone) = first_missing(&games, found.unwrap_or_default()) {
            raise(
                PgSqlErrorCode::ERRCODE_FOREIGN_KEY_VIOLATION,
                format!(
                    "game {gone} is not in service_games: its id changed in the statement that \
                     inserted it, before it could be rated"
                ),
            );
        }
    }

    fn next_ids(&mut self, n: usize) -> Vec<i32> {
        let rows = self.query(
            "SELECT nextval('@extschema@.elo_history_id_seq')::int4 AS id FROM generate_series(1, $1)",
            &[(n as i32).into()],
        );
        rows.map(|r| column::<i32>(&r, "id")).collect()
    }

    /// Writes the standings, each replacing the player's row.
    fn write_standings(&mut self, rows: &[PlayerTip]) {
        STANDINGS.write(rows, tip_values, |sql, args| {
            self.query(sql, args);
        });
    }

    /// The entries of `ranking` from `from` on, by (player, game).
    fn entries_from(&mut self, ranking: i32, from: GameKey) -> StoredEntries {
        let sql = include_str!("../../sql/random_chess/glue/entries_from.sql");
        let (played_at, game_id) = (timestamp(from.played_at), from.game_id);
        let rows = self.query_once(sql, &[ranking.into(), played_at.into(), game_id.into()]);
        let mut out = StoredEntries::default();
        if rows.is_empty() {
            return out;
        }
        let names = [
            "id",
            "player",
            "game_id",
            "elo",
            "rd",
            "volatility",
            "previous_entry",
            "game_date",
        ];
        let [id, player, game, elo, rd, volatility, previous, date] = ordinals(&rows, names);
        for row in rows {
            let date: TimestampWithTimeZone = column_at(&row, date, "game_date");
            let stored = StoredEntry {
                id: column_at(&row, id, "id"),
                rating: column_at(&row, elo, "elo"),
                rd: nullable_at(&row, rd),
                volatility: nullable_at(&row, volatility),
                previous: nullable_at(&row, previous),
                played_at: date.into_inner(),
            };
            out.add(
                column_at(&row, game, "game_id"),
                column_at(&row, player, "player"),
                stored,
            );
        }
        out
    }

    /// Makes the history equal to a replay in one statement: the successor uniqueness of the
    /// chain is checked at its end, so entries may take each other's places.
    fn merge_entries(&mut self, ranking: i32, rows: ReplayRows) {
        if rows.deletes.is_empty() && rows.updates.is_empty() && rows.inserts.is_empty() {
            return;
        }
        let mut changed = Arrays::new(HISTORY_CHANGED.to_vec());
        for entry in rows.updates {
            changed.push_row(values(HISTORY_CHANGED, entry.changed_row()));
        }
        let mut new = Arrays::new(HISTORY.to_vec());
        for entry in rows.inserts {
            new.push_row(entry_values(&(ranking, entry)));
        }
        let mut args: Vec<DatumWithOid> = vec![rows.deletes.into()];
        args.extend(changed.into_args());
        args.extend(new.into_args());
        // planned for its arrays (a rebuild's sizes differ widely): no saved plan
        self.query_once(merge_text(), &args);
    }
}
