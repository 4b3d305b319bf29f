//! What the ranking triggers read from the tables through SPI (the rankings, their games, the
//! standings), and the rankings' locks; their history is written by the ledgers' writer through
//! `super::history`. Reads of numbers go through `float8` and writes through the shortest decimal
//! text of an `f64`, so a state read back equals the state computed (see
//! `pg_rating_core::rating::system::stored`).

use std::cell::{Cell, RefCell};
use std::collections::HashSet;

use pg_rating_core::ranking::stored::Kept;
use pg_rating_core::ranking::window::GameRow;
use pg_rating_core::ranking::{GameKey, Ranking, RankingSettings, RankingWindow, ServiceGame, Tip};
use pgrx::datum::DatumWithOid;
use pgrx::prelude::*;
use pgrx::spi::{SpiClient, SpiTupleTable};
use pgrx::PgSqlErrorCode;

use crate::compat::ranking_locks::{lock_rows, lock_single_row, LockRows, RANKING_LOCKS};
use crate::error::{raise, raise_core};
use crate::ledger::SCOPE_LOCKS;
use crate::types::to_core;
use crate::writer_lock::{current_subtransaction, local_transaction, still_active, LockTable};

pub struct RankingStore<'c, 'conn> {
    client: &'c mut SpiClient<'conn>,
    extension: pg_sys::Oid,
    /// Where this schema keeps the rankings' locks.
    pub(super) lock_rows: LockRows,
    /// What the writer's calls of this statement leave for the next ones.
    pub(super) kept: Kept,
}

/// Ledger `l` is ranking `r`'s (sql/random_chess/glue/ranking_ledger.sql makes it so).
const LEDGER_OF_RANKING: &str =
    "l.name = 'random_chess ranking ' || r.id AND l.kept_in = '@extschema@.elo_history'::regclass";

thread_local! {
    /// The rankings as last read: (extension, rankings_version, rankings).
    static RANKINGS: RefCell<Option<(pg_sys::Oid, i64, Vec<Ranking>)>> = const { RefCell::new(None) };
    /// (extension, its schema), as last read.
    static SCHEMA: Cell<(pg_sys::Oid, pg_sys::Oid)> =
        const { Cell::new((pg_sys::InvalidOid, pg_sys::InvalidOid)) };
    /// The version of the rankings this transaction last found current while holding the lock of
    /// a ranking: (extension, transaction, subtransaction, version). While that subtransaction is
    /// active its locks are held, so no other transaction's change of rankings can commit
    /// (it takes every ranking's lock first); this transaction's own changes forget it.
    static VERIFIED: Cell<Verified> = const { Cell::new(NOT_VERIFIED) };
}

/// (extension, transaction, subtransaction, version): see [`VERIFIED`].
type Verified = (
    pg_sys::Oid,
    pg_sys::LocalTransactionId,
    pg_sys::SubTransactionId,
    i64,
);
const NOT_VERIFIED: Verified = (pg_sys::InvalidOid, 0, 0, 0);

use crate::error::internal;
use crate::spi::{column, column_at, nullable, nullable_at, ordinals};

pub(super) use crate::types::timestamp;

/// A player's latest entry from a row with its id (`entry`), its state (`rating`, `rd`,
/// `volatility`), its game (`last_game_date`, `last_game_id`) and the record up to it (`games`,
/// `wins`, `draws`, `losses`, `peak`).
pub(super) fn tip(row: &pgrx::spi::SpiHeapTupleData<'_>) -> Tip {
    let int = |name: &str| column::<i32>(row, name);
    let date: TimestampWithTimeZone = column(row, "last_game_date");
    let last = GameKey {
        played_at: date.into_inner(),
        game_id: int("last_game_id"),
    };
    let state = (
        column(row, "rating"),
        nullable(row, "rd"),
        nullable(row, "volatility"),
    );
    let record = ["games", "wins", "draws", "losses"].map(int);
    Tip::kept(int("entry"), state, record, column(row, "peak"), last)
}

/// A ranking's window, read from a row with its columns `playtime_min`, `playtime_max`,
/// `extra_move_multiplier`, `include_bots`.
pub(crate) fn window(row: &pgrx::spi::SpiHeapTupleData<'_>) -> RankingWindow {
    RankingWindow {
        playtime_min: to_core(column(row, "playtime_min")),
        playtime_max: nullable::<Interval>(row, "playtime_max").map(to_core),
        extra_move_multiplier: column(row, "extra_move_multiplier"),
        include_bots: column(row, "include_bots"),
    }
}

fn game_rows(rows: SpiTupleTable<'_>) -> Vec<ServiceGame> {
    let mut games = Vec::with_capacity(rows.len());
    if rows.is_empty() {
        return games;
    }
    let names = [
        "id",
        "creation_date",
        "end_type",
        "starting_time",
        "move_increase",
        "white",
        "black",
        "white_is_bot",
        "black_is_bot",
    ];
    let [id, date, end_type, starting_time, move_increase, white, black, white_bot, black_bot] =
        ordinals(&rows, names);
    for row in rows {
        let date: TimestampWithTimeZone = column_at(&row, date, "creation_date");
        let span = |at| nullable_at::<Interval>(&row, at).map(to_core);
        let game = ServiceGame::of_row(GameRow {
            id: column_at(&row, id, "id"),
            played_at: date.into_inner(),
            end_type: &column_at::<String>(&row, end_type, "end_type"),
            clock: (span(starting_time), span(move_increase)),
            players: (
                column_at(&row, white, "white"),
                column_at(&row, black, "black"),
            ),
            bots: [(white_bot, "white_is_bot"), (black_bot, "black_is_bot")]
                .map(|(at, name)| column_at(&row, at, name)),
        });
        games.push(game.unwrap_or_else(|e| raise_core(&e)));
    }
    games
}

impl<'c, 'conn> RankingStore<'c, 'conn> {
    pub fn new(client: &'c mut SpiClient<'conn>) -> Self {
        // SAFETY: a catalog lookup by name.
        let extension =
            unsafe { pg_sys::get_extension_oid(c"pg_rating_random_chess".as_ptr(), true) };
        let mut store = RankingStore {
            client,
            extension,
            lock_rows: LockRows::Ledger,
            kept: Kept::default(),
        };
        let schema = store.extension_schema();
        store.lock_rows = lock_rows(extension, schema);
        store
    }

    /// The schema of the extension (which cannot move: it is not relocatable), read once.
    fn extension_schema(&mut self) -> pg_sys::Oid {
        let (extension, schema) = SCHEMA.get();
        if extension == self.extension {
            return schema;
        }
        let rows = self.query(
            "SELECT extnamespace FROM pg_catalog.pg_extension WHERE oid = $1",
            &[self.extension.into()],
        );
        let schema = crate::spi::one(rows, "the schema of pg_rating_random_chess");
        SCHEMA.set((self.extension, schema));
        schema
    }

    /// Makes ranking `id`'s ledger, or brings it to the ranking's settings; returns its id. 23505
    /// when an application's own ledger has its name.
    pub fn keep_ledger(&mut self, id: i32) -> i32 {
        let ledger = self
            .query(include_str!("../../sql/random_chess/glue/ranking_ledger.sql"), &[id.into()])
            .next()
            .map(|row| column::<i32>(&row, "id"))
            // (no row: the name is an application's ledger's)
            .unwrap_or_else(|| {
                raise(
                    PgSqlErrorCode::ERRCODE_UNIQUE_VIOLATION,
                    format!(
                        "ranking {id} cannot have its ledger: a ledger named \"random_chess ranking {id}\" exists \
                         (rename it)"
                    ),
                )
            });
        // the ledger says the rule the rankings rate Glicko-2 by
        if crate::compat::ledgers_have_glicko2_rule() {
            self.query(
                "UPDATE @extschema@.ledgers SET glicko2_rule = 'lichess' \
                 WHERE id = $1 AND glicko2_rule OPERATOR(pg_catalog.<>) 'lichess'",
                &[ledger.into()],
            );
        }
        ledger
    }

    /// Runs one of the rankings' statements with a saved plan, as a write: the rankings' glue
    /// runs inside the writers' triggers only.
    pub(super) fn query(&mut self, sql: &str, args: &[DatumWithOid]) -> SpiTupleTable<'conn> {
        crate::spi::write(self.client, sql, args)
    }

    /// Runs one of the rankings' statements planned for this call: its best plan depends on
    /// its arguments (a tail of a few games or a whole ranking).
    pub(super) fn query_once(&mut self, sql: &str, args: &[DatumWithOid]) -> SpiTupleTable<'conn> {
        let sql = crate::security::qualify(sql);
        self.client
            .update(&*sql, None, args)
            .unwrap_or_else(|e| internal(e))
    }

    /// The version of the rankings as committed now (`ranking_writes.rankings_version`).
    fn rankings_version(&mut self) -> i64 {
        let rows = self.query(
            "SELECT rankings_version FROM @extschema@.ranking_writes",
            &[],
        );
        crate::spi::one(rows, "the row of ranking_writes")
    }

    /// Waits for, then holds until commit, the locks of the writers of these rankings: the
    /// `ledger_scopes` row of each one's ledger (made by its first writer), taken in order, with
    /// the ledgers' protocol ([`crate::writer_lock`]): writers of different rankings (and
    /// ledgers) never wait for each other.
    pub fn lock_rankings(&mut self, rankings: &[Ranking]) {
        if self.lock_rows == LockRows::Single {
            lock_single_row(self.client);
            return;
        }
        let (table, keys) = self.lock_keys(rankings);
        table.lock(self.client, &keys);
    }

    /// The lock rows of these rankings (in a schema of 0.9.0 on).
    fn lock_keys(
        &mut self,
        rankings: &[Ranking],
    ) -> (&'static LockTable, Vec<(i32, &'static str)>) {
        match self.lock_rows {
            LockRows::PerRanking => (
                &RANKING_LOCKS,
                rankings.iter().map(|r| (r.id, "")).collect(),
            ),
            _ => (
                &SCOPE_LOCKS,
                rankings
                    .iter()
                    .map(|r| (r.ledger.unwrap_or_else(|| self.keep_ledger(r.id)), ""))
                    .collect(),
            ),
        }
    }

    /// The rankings for which `pick` gives something to write, with it, under their locks: the
    /// rankings as last read are picked, their locks taken, and the version of the rankings read
    /// after; if the rankings changed (a change of rankings takes every ranking's lock first),
    /// they are read and picked again. When this transaction already holds the locks picked and
    /// found the version current while holding one ([`VERIFIED`]), nothing is run.
    pub fn locked<T>(&mut self, mut pick: impl FnMut(&Ranking) -> Option<T>) -> Vec<(Ranking, T)> {
        let mut picked_from = |rankings: Vec<Ranking>| -> Vec<(Ranking, T)> {
            rankings
                .into_iter()
                .filter_map(|r| pick(&r).map(|t| (r, t)))
                .collect()
        };
        if self.lock_rows == LockRows::Single {
            let version = lock_single_row(self.client);
            return picked_from(self.all_rankings(version));
        }
        let verified = self.verified_version();
        let mut version = match verified.or_else(|| self.remembered_version()) {
            Some(version) => version,
            None => self.rankings_version(),
        };
        loop {
            let picked = picked_from(self.all_rankings(version));
            let rankings: Vec<Ranking> = picked.iter().map(|(r, _)| r.clone()).collect();
            let (table, keys) = self.lock_keys(&rankings);
            if verified == Some(version) && table.holds(&keys) {
                return picked;
            }
            table.lock(self.client, &keys);
            let now = self.rankings_version();
            if now == version {
                if !rankings.is_empty() {
                    VERIFIED.set((
                        self.extension,
                        local_transaction(),
                        current_subtransaction(),
                        version,
                    ));
                }
                return picked;
            }
            version = now;
        }
    }

    /// The version [`VERIFIED`] by this transaction, while its locks are held for sure.
    fn verified_version(&self) -> Option<i64> {
        let (extension, transaction, subtransaction, version) = VERIFIED.get();
        (extension == self.extension
            && transaction == local_transaction()
            && still_active(subtransaction))
        .then_some(version)
    }

    /// The version of the rankings kept in memory, if any.
    fn remembered_version(&self) -> Option<i64> {
        RANKINGS.with_borrow(|c| {
            c.as_ref()
                .filter(|(extension, _, _)| *extension == self.extension)
                .map(|(_, version, _)| *version)
        })
    }

    /// Takes the lock of every ranking: what a change of rankings does first, so that no writer
    /// of any ranking runs with the rankings as they were before it.
    pub fn lock_all_rankings(&mut self) {
        let rankings = self.rankings(None);
        self.lock_rankings(&rankings);
    }

    /// Records that the rankings change: a new `ranking_writes.rankings_version`.
    pub fn note_rankings_change(&mut self) {
        VERIFIED.set(NOT_VERIFIED);
        self.query(
            "UPDATE @extschema@.ranking_writes SET rankings_version = nextval('@extschema@.ranking_versions')",
            &[],
        );
    }

    /// Deletes the standings and the lock rows (or ledgers) of rankings that no longer exist.
    pub fn forget_deleted_rankings(&mut self) {
        let tables: &[&str] = match self.lock_rows {
            LockRows::Single => &["ranking_players"],
            LockRows::PerRanking => &["ranking_players", "ranking_locks"],
            LockRows::Ledger => {
                // a ledger's delete removes its lock rows too (check_ledger)
                self.query(
                    &format!(
                        "DELETE FROM @extschema@.ledgers l WHERE l.kept_in = '@extschema@.elo_history'::regclass
                           AND NOT EXISTS (SELECT FROM @extschema@.rankings r WHERE {LEDGER_OF_RANKING})"
                    ),
                    &[],
                );
                &["ranking_players"]
            }
        };
        for table in tables {
            self.query(
                &format!(
                    "DELETE FROM @extschema@.{table} t WHERE NOT EXISTS (SELECT FROM @extschema@.rankings r WHERE r.id = t.ranking_id)"
                ),
                &[],
            );
        }
    }

    /// Every ranking, from memory while `version` says they did not change.
    fn all_rankings(&mut self, version: i64) -> Vec<Ranking> {
        let cached = RANKINGS.with_borrow(|c| {
            c.as_ref()
                .filter(|(ext, v, _)| *ext == self.extension && *v == version)
                .map(|(_, _, r)| r.clone())
        });
        cached.unwrap_or_else(|| {
            let rankings = self.rankings(None);
            RANKINGS.with_borrow_mut(|c| *c = Some((self.extension, version, rankings.clone())));
            rankings
        })
    }

    /// The new games with their players' bot flags.
    pub fn with_bot_flags(&mut self, mut games: Vec<ServiceGame>) -> Vec<ServiceGame> {
        let players = ServiceGame::players(&games);
        let sql = include_str!("../../sql/random_chess/glue/ranking_bot_flags.sql");
        let bots = self.bots(sql, &[players.into()]);
        ServiceGame::mark_bots(&mut games, |p| bots.contains(p));
        games
    }

    /// The bots a statement gives (its column `player`).
    fn bots(&mut self, sql: &str, args: &[DatumWithOid]) -> HashSet<String> {
        let rows = self.query(sql, args);
        rows.map(|row| column(&row, "player")).collect()
    }

    /// One game, if it is a ranked local game.
    pub fn game(&mut self, id: i32) -> Option<ServiceGame> {
        let sql = include_str!("../../sql/random_chess/glue/ranked_game.sql");
        game_rows(self.query(sql, &[id.into()])).pop()
    }

    /// Every ranked local game from `from` on, in order. The bots of service 1 are few: their
    /// names are read once instead of joining every game with its accounts.
    pub(super) fn ranked_games_from(&mut self, from: GameKey) -> Vec<ServiceGame> {
        let bots = self.bots(
            "SELECT user_id_in_service::text AS player FROM @extschema@.service_accounts WHERE service_id = 1 AND is_bot",
            &[],
        );
        // planned for the actual bound: a tail of a few games and a whole ranking want different plans
        let rows = self.query_once(
            include_str!("../../sql/random_chess/glue/ranked_games_from.sql"),
            &[timestamp(from.played_at).into(), from.game_id.into()],
        );
        let mut games = game_rows(rows);
        ServiceGame::mark_bots(&mut games, |p| bots.contains(p));
        games
    }

    /// All rankings, or the one with this id.
    pub fn rankings(&mut self, id: Option<i32>) -> Vec<Ranking> {
        let ledger = match self.lock_rows {
            LockRows::Ledger => {
                // (the settings in force: a lock on ledgers holds off no writer)
                crate::ledger::for_writers(&format!(
                    "(SELECT l.id FROM @ledgers@ l WHERE {LEDGER_OF_RANKING})"
                ))
            }
            _ => "NULL::int".to_owned(),
        };
        let rows = self.query(
            &format!(
                "SELECT r.id, {ledger} AS ledger, r.playtime_min, r.playtime_max, r.extra_move_multiplier,
                        r.starting_elo::float8 AS starting_elo, r.include_bots, r.k_factor::float8 AS k_factor,
                        r.rating_system::text AS rating_system, r.glicko2_tau::float8 AS tau,
                        r.starting_rd::float8 AS starting_rd, r.starting_volatility::float8 AS starting_volatility,
                        r.rating_period
                 FROM @extschema@.rankings r WHERE $1 IS NULL OR r.id = $1 ORDER BY r.id"
            ),
            &[id.into()],
        );
        let mut rankings = Vec::new();
        for row in rows {
            let id: i32 = column(&row, "id");
            let rating_system: String = column(&row, "rating_system");
            let settings = RankingSettings {
                rating_system: &rating_system,
                starting_rating: column(&row, "starting_elo"),
                k_factor: nullable(&row, "k_factor"),
                tau: nullable(&row, "tau"),
                starting_rd: nullable(&row, "starting_rd"),
                starting_volatility: nullable(&row, "starting_volatility"),
                rating_period: nullable::<Interval>(&row, "rating_period").map(to_core),
            };
            let ledger = nullable(&row, "ledger");
            let ranking = Ranking::of_row(id, ledger, window(&row), &settings);
            rankings.push(ranking.unwrap_or_else(|e| raise_core(&e)));
        }
        rankings
    }
}
