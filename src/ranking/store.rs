//! What the ranking triggers read from and write to the tables, through SPI. Reads of numbers
//! go through `float8` and writes through the shortest decimal text of an `f64`, so a state read
//! back equals the state computed (see `pg_rating_core::ranking::system::stored`).

use std::cell::{Cell, RefCell};
use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

use pg_rating_core::clock::{Clock, Interval as CoreInterval};
use pg_rating_core::ledger::Standing;
use pg_rating_core::ranking::{
    GameFacts, GameKey, HistoryEntry, PlayerState, RankingWindow, RatedGame, RatingSystem,
    SystemSettings, Tip,
};
use pg_rating_core::result::GameEndType;
use pgrx::datum::DatumWithOid;
use pgrx::prelude::*;
use pgrx::spi::{SpiClient, SpiTupleTable};
use pgrx::PgSqlErrorCode;

use super::rate_or_raise;
use super::transition::NewGame;
use crate::columns::{names, unnest, Arrays, Column, Kind, Value};
use crate::error::raise;
use crate::rows::RowWriter;
use crate::writer_lock::LockTable;

/// A ranking: which games count in it and how they are rated.
#[derive(Clone)]
pub struct Ranking {
    pub id: i32,
    pub window: RankingWindow,
    pub system: RatingSystem,
}

/// A ranked local game as the rankings see it.
pub struct ServiceGame {
    pub key: GameKey,
    pub white: String,
    pub black: String,
    pub white_score: f64,
    pub facts: GameFacts,
}

impl Ranking {
    /// The games (sorted, as given) that count in this ranking.
    pub fn counted(&self, games: &[ServiceGame]) -> Vec<RatedGame<String>> {
        games
            .iter()
            .filter(|g| {
                self.window.counts(&g.facts).unwrap_or_else(|_| {
                    raise(
                        PgSqlErrorCode::ERRCODE_DATETIME_FIELD_OVERFLOW,
                        format!(
                            "interval out of range: the clock of game {} times extra_move_multiplier of ranking {}",
                            g.key.game_id, self.id
                        ),
                    )
                })
            })
            .map(|g| RatedGame {
                key: g.key,
                white: g.white.clone(),
                black: g.black.clone(),
                white_score: g.white_score,
            })
            .collect()
    }
}

/// New games of one ranking and their players' latest entries (`ranking_players` rows).
pub type AppendBatch<'r> = (&'r Ranking, &'r [RatedGame<String>], HashMap<String, Tip>);

/// One row of `elo_history` to write: an entry of the history and its ranking.
struct HistoryRow {
    id: i32,
    player: String,
    ranking: i32,
    game: GameKey,
    state: PlayerState,
    previous: Option<i32>,
}

impl HistoryRow {
    fn of(ranking: i32, e: HistoryEntry) -> Self {
        HistoryRow {
            id: e.id,
            player: e.player,
            ranking,
            game: e.game,
            state: e.state,
            previous: e.previous,
        }
    }
}

/// The columns of `elo_history` the rankings write.
const HISTORY: &[Column] = &[
    ("id", Kind::Int),
    ("service_id", Kind::Int),
    ("user_id_in_service", Kind::Text),
    ("ranking_id", Kind::Int),
    ("game_id", Kind::Int),
    ("elo", Kind::Decimal),
    ("previous_entry", Kind::Int),
    ("rd", Kind::Decimal),
    ("volatility", Kind::Decimal),
    ("game_date", Kind::Time),
];
/// What a rebuild changes of an entry it keeps (by `id`).
const HISTORY_CHANGES: &[&str] = &["elo", "previous_entry", "rd", "volatility", "game_date"];
static ENTRIES: RowWriter = RowWriter::new("elo_history", HISTORY, &[]);

/// The columns of `ranking_players`; a standing replaces the one of its key.
const STANDINGS_COLUMNS: &[Column] = &[
    ("ranking_id", Kind::Int),
    ("service_id", Kind::Int),
    ("user_id_in_service", Kind::Text),
    ("elo_history_id", Kind::Int),
    ("rating", Kind::Decimal),
    ("rd", Kind::Decimal),
    ("volatility", Kind::Decimal),
    ("games", Kind::Int),
    ("wins", Kind::Int),
    ("draws", Kind::Int),
    ("losses", Kind::Int),
    ("peak_rating", Kind::Decimal),
    ("last_game_date", Kind::Time),
    ("last_game_id", Kind::Int),
];
static STANDINGS: RowWriter = RowWriter::new(
    "ranking_players",
    STANDINGS_COLUMNS,
    &["ranking_id", "service_id", "user_id_in_service"],
);

impl HistoryRow {
    /// The entry's values in the order of [`HISTORY`]. Numbers go as decimals (the shortest text
    /// that reads back as the same `f64`), so a state read back equals the state computed.
    fn values(&self) -> Vec<Value> {
        vec![
            self.id.into(),
            1.into(),
            self.player.clone().into(),
            self.ranking.into(),
            self.game.game_id.into(),
            self.state.rating.into(),
            self.previous.into(),
            self.state.rd.into(),
            self.state.volatility.into(),
            timestamp(self.game.played_at).into(),
        ]
    }
}

impl PlayerRow {
    /// The standing's values in the order of [`STANDINGS_COLUMNS`].
    fn values(&self) -> Vec<Value> {
        let s = &self.tip.standing;
        vec![
            self.ranking.into(),
            1.into(),
            self.player.clone().into(),
            self.tip.entry.into(),
            s.state.rating.into(),
            s.state.rd.into(),
            s.state.volatility.into(),
            s.games.into(),
            s.wins.into(),
            s.draws.into(),
            s.losses.into(),
            s.peak.into(),
            timestamp(self.tip.last.played_at).into(),
            self.tip.last.game_id.into(),
        ]
    }
}

/// The one statement of a rebuild's changes to the history: `$1` the ids of the entries that go,
/// the arrays of the changed entries (`id` and [`HISTORY_CHANGES`]), then those of the new
/// entries ([`HISTORY`]). One statement, so that the chain's successor uniqueness, checked at
/// its end, lets entries take each other's places.
fn merge_text() -> &'static str {
    static TEXT: OnceLock<String> = OnceLock::new();
    TEXT.get_or_init(|| {
        let changed = changed_columns();
        let sets: Vec<String> = HISTORY_CHANGES
            .iter()
            .map(|n| format!("{n} = u.{n}"))
            .collect();
        format!(
            "WITH gone AS (
                 DELETE FROM elo_history WHERE id = ANY ($1::int4[])
             ), changed AS (
                 UPDATE elo_history e SET {}
                 FROM {} AS u({})
                 WHERE e.id = u.id
             )
             INSERT INTO elo_history ({}) SELECT * FROM {}",
            sets.join(", "),
            unnest(&changed, 2),
            names(&changed),
            names(HISTORY),
            unnest(HISTORY, 2 + changed.len()),
        )
    })
}

/// `id` and the columns of [`HISTORY_CHANGES`], as [`HISTORY`] describes them.
fn changed_columns() -> Vec<Column> {
    HISTORY
        .iter()
        .filter(|(n, _)| *n == "id" || HISTORY_CHANGES.contains(n))
        .copied()
        .collect()
}

/// An entry as the history holds it.
struct StoredEntry {
    id: i32,
    rating: f64,
    rd: Option<f64>,
    volatility: Option<f64>,
    previous: Option<i32>,
    played_at: i64,
}

impl StoredEntry {
    /// True when the stored entry already says what `entry` says.
    fn holds(&self, entry: &HistoryRow) -> bool {
        self.rating == entry.state.rating
            && self.rd == entry.state.rd
            && self.volatility == entry.state.volatility
            && self.previous == entry.previous
            && self.played_at == entry.game.played_at
    }
}

/// The stored entries of a ranking from some game on, by game (two per game): found by player and
/// game without making a key.
#[derive(Default)]
struct StoredEntries(HashMap<i32, Vec<(String, StoredEntry)>>);

impl StoredEntries {
    fn get(&self, player: &str, game: i32) -> Option<&StoredEntry> {
        let entries = self.0.get(&game)?;
        entries.iter().find(|(p, _)| p == player).map(|(_, s)| s)
    }

    fn take(&mut self, player: &str, game: i32) -> Option<StoredEntry> {
        let entries = self.0.get_mut(&game)?;
        let i = entries.iter().position(|(p, _)| p == player)?;
        Some(entries.swap_remove(i).1)
    }

    /// The ids of the entries not taken.
    fn left(self) -> Vec<i32> {
        self.0.into_values().flatten().map(|(_, s)| s.id).collect()
    }
}

/// One row of `ranking_players` to write: a player's latest entry.
struct PlayerRow {
    ranking: i32,
    player: String,
    tip: Tip,
}

pub struct RankingStore<'c, 'conn> {
    client: &'c mut SpiClient<'conn>,
    extension: pg_sys::Oid,
    /// The schema of 0.8.0 and before, not yet updated (ALTER EXTENSION ... UPDATE): no
    /// `ranking_locks`, and every writer takes the one `ranking_writes` row.
    single_lock: bool,
}

/// The writers' locks of the rankings: one row per ranking.
static RANKING_LOCKS: LockTable = LockTable::new("ranking_locks", &["ranking_id"]);

thread_local! {
    /// The rankings as last read: (extension, rankings_version, rankings).
    static RANKINGS: RefCell<Option<(pg_sys::Oid, i64, Vec<Ranking>)>> = const { RefCell::new(None) };
    /// (extension, its schema), as last read.
    static SCHEMA: Cell<(pg_sys::Oid, pg_sys::Oid)> =
        const { Cell::new((pg_sys::InvalidOid, pg_sys::InvalidOid)) };
    /// The local transaction id of the transaction that last updated the row of `ranking_writes`
    /// (the lock of a schema of 0.8.0 or before).
    static SINGLE_LOCK_IN: Cell<pg_sys::LocalTransactionId> = const { Cell::new(0) };
}

use crate::error::internal;
use crate::spi::{column, column_at, nullable, nullable_at, ordinals};

fn interval(i: Interval) -> CoreInterval {
    CoreInterval {
        months: i.months(),
        days: i.days(),
        micros: i.micros(),
    }
}

fn timestamp(micros: i64) -> TimestampWithTimeZone {
    TimestampWithTimeZone::try_from(micros).unwrap_or_else(|e| internal(format!("{e:?}")))
}

/// A player's latest entry from a row with its id (`entry`), its state (`rating`, `rd`,
/// `volatility`), its game (`last_game_date`, `last_game_id`) and the record up to it (`games`,
/// `wins`, `draws`, `losses`, `peak`).
fn tip(row: &pgrx::spi::SpiHeapTupleData<'_>) -> Tip {
    let int = |name: &str| column::<i32>(row, name);
    let date: TimestampWithTimeZone = column(row, "last_game_date");
    let last = GameKey {
        played_at: date.into_inner(),
        game_id: int("last_game_id"),
    };
    let state = PlayerState {
        rating: column(row, "rating"),
        rd: nullable(row, "rd"),
        volatility: nullable(row, "volatility"),
        last_played: Some(last.played_at),
    };
    Tip {
        entry: int("entry"),
        standing: Standing {
            state,
            games: int("games"),
            wins: int("wins"),
            draws: int("draws"),
            losses: int("losses"),
            peak: column(row, "peak"),
            // (not kept by a ranking)
            streak: 0,
            best_streak: 0,
            opponents_sum: 0.0,
            score_sum: 0.0,
        },
        last,
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
        let id: i32 = column_at(&row, id, "id");
        let date: TimestampWithTimeZone = column_at(&row, date, "creation_date");
        let end_type: GameEndType = column_at::<String>(&row, end_type, "end_type")
            .parse()
            .unwrap_or_else(|_| internal(format!("game {id} has an invalid result")));
        let clock = match (
            nullable_at::<Interval>(&row, starting_time),
            nullable_at::<Interval>(&row, move_increase),
        ) {
            (Some(s), Some(m)) => Some(Clock {
                starting_time: interval(s),
                move_increase: interval(m),
            }),
            _ => None,
        };
        games.push(ServiceGame {
            key: GameKey {
                played_at: date.into_inner(),
                game_id: id,
            },
            white: column_at(&row, white, "white"),
            black: column_at(&row, black, "black"),
            white_score: end_type.score(true),
            facts: GameFacts {
                ranked_local: true,
                clock,
                white_is_bot: column_at(&row, white_bot, "white_is_bot"),
                black_is_bot: column_at(&row, black_bot, "black_is_bot"),
            },
        });
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
            single_lock: false,
        };
        let schema = store.extension_schema();
        // SAFETY: a catalog lookup by name, in the extension's own schema.
        store.single_lock = unsafe {
            pg_sys::get_relname_relid(c"ranking_locks".as_ptr(), schema) == pg_sys::InvalidOid
        };
        store
    }

    /// The schema of the extension (which cannot move: it is not relocatable), read once.
    fn extension_schema(&mut self) -> pg_sys::Oid {
        let (extension, schema) = SCHEMA.get();
        if extension == self.extension {
            return schema;
        }
        let schema = self
            .query(
                "SELECT extnamespace FROM pg_catalog.pg_extension WHERE oid = $1",
                &[self.extension.into()],
            )
            .first()
            .get_one::<pg_sys::Oid>()
            .ok()
            .flatten()
            .unwrap_or_else(|| internal("pg_rating_random_chess is not installed"));
        SCHEMA.set((self.extension, schema));
        schema
    }

    /// True for a schema of 0.8.0 or before (see [`RankingStore::single_lock`]).
    pub fn single_lock(&self) -> bool {
        self.single_lock
    }

    /// The lock of a schema of 0.8.0 or before: the one `ranking_writes` row, updated the first
    /// time in a transaction and locked again after that. Returns the version of the rankings.
    fn lock_single_row(&mut self) -> i64 {
        // SAFETY: this backend's PGPROC, set up before any SQL runs.
        let transaction = unsafe { (*pg_sys::MyProc).lxid };
        let first = SINGLE_LOCK_IN.replace(transaction) != transaction;
        let rows = if first {
            self.query(
                "UPDATE ranking_writes SET writes = writes + 1 RETURNING rankings_version",
                &[],
            )
        } else {
            self.query(
                "SELECT rankings_version FROM ranking_writes FOR UPDATE",
                &[],
            )
        };
        rows.first()
            .get_one::<i64>()
            .ok()
            .flatten()
            .unwrap_or_else(|| internal("ranking_writes has no row"))
    }

    /// Runs one of this module's statements with a saved plan.
    fn query(&mut self, sql: &str, args: &[DatumWithOid]) -> SpiTupleTable<'conn> {
        crate::spi::run(self.client, sql, args, false)
    }

    /// The version of the rankings as committed now (`ranking_writes.rankings_version`).
    fn rankings_version(&mut self) -> i64 {
        self.query("SELECT rankings_version FROM ranking_writes", &[])
            .first()
            .get_one::<i64>()
            .ok()
            .flatten()
            .unwrap_or_else(|| internal("ranking_writes has no row"))
    }

    /// Waits for, then holds until commit, the locks of the writers of these rankings: one
    /// `ranking_locks` row each (made by its first writer), taken in id order, with the ledgers'
    /// protocol ([`crate::writer_lock`]): writers of different rankings never wait for each
    /// other.
    pub fn lock_rankings(&mut self, ids: &[i32]) {
        if self.single_lock {
            self.lock_single_row();
            return;
        }
        let keys: Vec<(i32, &str)> = ids.iter().map(|&id| (id, "")).collect();
        RANKING_LOCKS.lock(self.client, &keys);
    }

    /// The rankings for which `pick` gives something to write, with it, under their locks: the
    /// rankings are read (from memory while their version holds), picked, their locks taken, and
    /// if the rankings changed meanwhile (a change of rankings takes every ranking's lock first)
    /// they are picked again.
    pub fn locked<T>(&mut self, mut pick: impl FnMut(&Ranking) -> Option<T>) -> Vec<(Ranking, T)> {
        let mut picked_from = |rankings: Vec<Ranking>| -> Vec<(Ranking, T)> {
            rankings
                .into_iter()
                .filter_map(|r| pick(&r).map(|t| (r, t)))
                .collect()
        };
        if self.single_lock {
            let version = self.lock_single_row();
            return picked_from(self.all_rankings(version));
        }
        loop {
            let version = self.rankings_version();
            let picked = picked_from(self.all_rankings(version));
            let ids: Vec<i32> = picked.iter().map(|(r, _)| r.id).collect();
            self.lock_rankings(&ids);
            if self.rankings_version() == version {
                return picked;
            }
        }
    }

    /// Takes the lock of every ranking: what a change of rankings does first, so that no writer
    /// of any ranking runs with the rankings as they were before it.
    pub fn lock_all_rankings(&mut self) {
        let ids: Vec<i32> = self
            .query("SELECT id FROM rankings", &[])
            .map(|r| column::<i32>(&r, "id"))
            .collect();
        self.lock_rankings(&ids);
    }

    /// Records that the rankings change: a new `ranking_writes.rankings_version`.
    pub fn note_rankings_change(&mut self) {
        self.query(
            "UPDATE ranking_writes SET rankings_version = nextval('ranking_versions')",
            &[],
        );
    }

    /// Deletes the standings and lock rows of rankings that no longer exist.
    pub fn forget_deleted_rankings(&mut self) {
        let tables: &[&str] = if self.single_lock {
            &["ranking_players"]
        } else {
            &["ranking_players", "ranking_locks"]
        };
        for table in tables {
            self.query(
                &format!(
                    "DELETE FROM {table} t WHERE NOT EXISTS (SELECT FROM rankings r WHERE r.id = t.ranking_id)"
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

    /// The new games with their players' bot flags, in (creation_date, id) order.
    pub fn with_bot_flags(&mut self, games: Vec<NewGame>) -> Vec<ServiceGame> {
        let mut players: Vec<&str> = games
            .iter()
            .flat_map(|g| [g.white.as_str(), g.black.as_str()])
            .collect();
        players.sort_unstable();
        players.dedup();
        let rows = self.query(
            "SELECT k.player, a.is_bot
             FROM unnest($1::text[]) AS k(player)
             CROSS JOIN LATERAL (
                 SELECT is_bot FROM service_accounts a
                 WHERE a.service_id = 1 AND a.user_id_in_service = k.player LIMIT 1) a",
            &[players.into()],
        );
        let mut bots = std::collections::HashSet::new();
        for row in rows {
            if column::<bool>(&row, "is_bot") {
                bots.insert(column::<String>(&row, "player"));
            }
        }
        games
            .into_iter()
            .map(|g| ServiceGame {
                facts: GameFacts {
                    ranked_local: true,
                    clock: g.clock,
                    white_is_bot: bots.contains(&g.white),
                    black_is_bot: bots.contains(&g.black),
                },
                key: g.key,
                white_score: g.end_type.score(true),
                white: g.white,
                black: g.black,
            })
            .collect()
    }

    /// One game, if it is a ranked local game.
    pub fn game(&mut self, id: i32) -> Option<ServiceGame> {
        let sql = include_str!("../../sql/random_chess/glue/ranked_game.sql");
        game_rows(self.query(sql, &[id.into()])).pop()
    }

    /// Every ranked local game from `from` on (all when `None`), in order. The bots of service 1
    /// are few: their names are read once instead of joining every game with its accounts.
    fn games_from(&mut self, from: Option<GameKey>) -> Vec<ServiceGame> {
        let from = from.unwrap_or(GameKey {
            played_at: i64::MIN,
            game_id: i32::MIN,
        });
        let bots: HashSet<String> = self
            .query(
                "SELECT user_id_in_service::text AS player FROM service_accounts WHERE service_id = 1 AND is_bot",
                &[],
            )
            .map(|row| column::<String>(&row, "player"))
            .collect();
        // Planned for the actual bound: a tail of a few games and a whole ranking want different plans.
        let rows = self.client.update(
            include_str!("../../sql/random_chess/glue/ranked_games_from.sql"),
            None,
            &[timestamp(from.played_at).into(), from.game_id.into()],
        );
        let mut games = game_rows(rows.unwrap_or_else(|e| internal(e)));
        for g in &mut games {
            g.facts.white_is_bot = bots.contains(&g.white);
            g.facts.black_is_bot = bots.contains(&g.black);
        }
        games
    }

    /// All rankings, or the one with this id.
    pub fn rankings(&mut self, id: Option<i32>) -> Vec<Ranking> {
        let rows = self.query(
            "SELECT id, playtime_min, playtime_max, extra_move_multiplier, starting_elo::float8 AS starting_elo,
                    include_bots, k_factor::float8 AS k_factor, rating_system::text AS rating_system,
                    glicko2_tau::float8 AS tau, starting_rd::float8 AS starting_rd,
                    starting_volatility::float8 AS starting_volatility, rating_period
             FROM rankings WHERE $1 IS NULL OR id = $1 ORDER BY id",
            &[id.into()],
        );
        let mut rankings = Vec::new();
        for row in rows {
            // (a parameter another rating system leaves NULL is NaN: the core refuses to use it)
            let f = |name: &str| nullable::<f64>(&row, name).unwrap_or(f64::NAN);
            let id: i32 = column(&row, "id");
            let rating_system: String = column(&row, "rating_system");
            let settings = SystemSettings {
                rating_system: &rating_system,
                starting_rating: column(&row, "starting_elo"),
                k_factor: f("k_factor"),
                tau: f("tau"),
                starting_rd: f("starting_rd"),
                starting_volatility: f("starting_volatility"),
                rating_period_micros: nullable::<Interval>(&row, "rating_period")
                    .map(|p| interval(p).ordering_key().clamp(1, i64::MAX as i128) as i64),
            };
            let system = RatingSystem::from_settings(&settings)
                .unwrap_or_else(|e| internal(format!("ranking {id}: {e}")));
            rankings.push(Ranking {
                id,
                window: RankingWindow {
                    playtime_min: interval(column(&row, "playtime_min")),
                    playtime_max: nullable::<Interval>(&row, "playtime_max").map(interval),
                    extra_move_multiplier: column(&row, "extra_move_multiplier"),
                    include_bots: column(&row, "include_bots"),
                },
                system,
            });
        }
        rankings
    }

    /// The latest entries (`ranking_players` rows) of the players of each ranking's games, by
    /// ranking.
    pub fn current_tips(
        &mut self,
        games: &[(Ranking, Vec<RatedGame<String>>)],
    ) -> HashMap<i32, HashMap<String, Tip>> {
        let mut keys: Vec<(i32, &str)> = games
            .iter()
            .flat_map(|(r, gs)| {
                gs.iter()
                    .flat_map(move |g| [(r.id, g.white.as_str()), (r.id, g.black.as_str())])
            })
            .collect();
        keys.sort_unstable();
        keys.dedup();
        let (rankings, players): (Vec<i32>, Vec<&str>) = keys.into_iter().unzip();
        let rows = self.query(
            include_str!("../../sql/random_chess/glue/latest_entries.sql"),
            &[rankings.into(), players.into()],
        );
        let mut out: HashMap<i32, HashMap<String, Tip>> = HashMap::new();
        for row in rows {
            let ranking = column::<i32>(&row, "ranking");
            let player: String = column(&row, "player");
            out.entry(ranking).or_default().insert(player, tip(&row));
        }
        out
    }

    fn next_ids(&mut self, n: usize) -> Vec<i32> {
        let rows = self.query(
            "SELECT nextval('elo_history_id_seq')::int4 AS id FROM generate_series(1, $1)",
            &[(n as i32).into()],
        );
        rows.map(|r| column::<i32>(&r, "id")).collect()
    }

    /// Appends games that come after all of their players' rated games, for several rankings
    /// at once: one INSERT into the history and one upsert of the standings.
    pub fn append(&mut self, batches: &[AppendBatch<'_>]) {
        let total: usize = batches.iter().map(|(_, games, _)| 2 * games.len()).sum();
        let mut ids = self.next_ids(total).into_iter();
        let mut entries = Vec::with_capacity(total);
        let mut players = Vec::new();
        for (ranking, games, current) in batches {
            let mut tips = current.clone();
            let history = rate_or_raise(ranking, &mut tips, games, |_, _| {
                ids.next()
                    .unwrap_or_else(|| internal("ran out of history ids"))
            });
            entries.extend(history.into_iter().map(|e| HistoryRow::of(ranking.id, e)));
            for (player, tip) in tips {
                if current.get(&player).is_none_or(|c| c.entry != tip.entry) {
                    players.push(PlayerRow {
                        ranking: ranking.id,
                        player,
                        tip,
                    });
                }
            }
        }
        self.write_entries(&entries);
        self.write_standings(&players);
    }

    /// Inserts new entries into the history.
    fn write_entries(&mut self, entries: &[HistoryRow]) {
        ENTRIES.write(entries, HistoryRow::values, |sql, args| {
            self.query(sql, args);
        });
    }

    /// Writes the standings, each replacing the player's row.
    fn write_standings(&mut self, rows: &[PlayerRow]) {
        STANDINGS.write(rows, PlayerRow::values, |sql, args| {
            self.query(sql, args);
        });
    }

    /// Each player's latest entry in `ranking` before `from`, with the record up to it: what
    /// the rebuild starts from.
    fn tips_before(
        &mut self,
        ranking: i32,
        from: GameKey,
        players: Vec<&str>,
    ) -> HashMap<String, Tip> {
        let rows = self.query(
            include_str!("../../sql/random_chess/glue/entries_before.sql"),
            &[
                ranking.into(),
                players.into(),
                timestamp(from.played_at).into(),
                from.game_id.into(),
            ],
        );
        rows.map(|row| (column::<String>(&row, "player"), tip(&row)))
            .collect()
    }

    /// The entries of `ranking` from `from` on (all when `None`), by (player, game).
    fn entries_from(&mut self, ranking: i32, from: Option<GameKey>) -> StoredEntries {
        let from = from.unwrap_or(GameKey {
            played_at: i64::MIN,
            game_id: i32::MIN,
        });
        let rows = self
            .client
            .update(
                "SELECT id, user_id_in_service::text AS player, game_id, elo::float8 AS elo, rd::float8 AS rd,
                        volatility::float8 AS volatility, previous_entry, game_date
                 FROM elo_history
                 WHERE ranking_id = $1 AND (game_date, game_id) >= ($2, $3)",
                None,
                &[ranking.into(), timestamp(from.played_at).into(), from.game_id.into()],
            )
            .unwrap_or_else(|e| internal(e));
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
            let game: i32 = column_at(&row, game, "game_id");
            let player: String = column_at(&row, player, "player");
            let per_game = out.0.entry(game).or_insert_with(|| Vec::with_capacity(2));
            per_game.push((player, stored));
        }
        out
    }

    /// Rebuilds `ranking`'s history from the game at `from` on (from scratch when `None`): the
    /// games from there are replayed and the history is made equal to the replay, rewriting only
    /// what differs (entries keep their ids), and the standings of their players are rewritten.
    /// Returns the number of entries of the replay.
    pub fn rebuild_from(&mut self, ranking: &Ranking, from: Option<GameKey>) -> i64 {
        let games = ranking.counted(&self.games_from(from));
        let mut players: Vec<&str> = games
            .iter()
            .flat_map(|g| [g.white.as_str(), g.black.as_str()])
            .collect();
        players.sort_unstable();
        players.dedup();
        let mut tips = match from {
            Some(from) => self.tips_before(ranking.id, from, players.clone()),
            None => HashMap::new(),
        };
        let mut stored = self.entries_from(ranking.id, from);
        let fresh_needed = games
            .iter()
            .flat_map(|g| [(&g.white, g.key.game_id), (&g.black, g.key.game_id)])
            .filter(|(p, game)| stored.get(p, *game).is_none())
            .count();
        let mut fresh = self.next_ids(fresh_needed).into_iter();
        let history = rate_or_raise(ranking, &mut tips, &games, |player, game| {
            match stored.get(player, game.game_id) {
                Some(old) => old.id,
                None => fresh
                    .next()
                    .unwrap_or_else(|| internal("ran out of history ids")),
            }
        });
        let mut inserts = Vec::new();
        let mut updates = Vec::new();
        for e in history {
            let entry = HistoryRow::of(ranking.id, e);
            match stored.take(&entry.player, entry.game.game_id) {
                None => inserts.push(entry),
                Some(old) if !old.holds(&entry) => updates.push(entry),
                Some(_) => {}
            }
        }
        let deletes = stored.left();
        self.merge_entries(&deletes, &updates, &inserts);

        if from.is_none() {
            self.query(
                "DELETE FROM ranking_players WHERE ranking_id = $1",
                &[ranking.id.into()],
            );
        }
        let rows: Vec<PlayerRow> = players
            .iter()
            .map(|p| PlayerRow {
                ranking: ranking.id,
                player: (*p).to_owned(),
                tip: tips[*p],
            })
            .collect();
        self.write_standings(&rows);
        (2 * games.len()) as i64
    }

    /// Makes the history equal to a replay in one statement: the successor uniqueness of the
    /// chain is checked at its end, so entries may take each other's places.
    fn merge_entries(&mut self, deletes: &[i32], updates: &[HistoryRow], inserts: &[HistoryRow]) {
        if deletes.is_empty() && updates.is_empty() && inserts.is_empty() {
            return;
        }
        let changed_columns = changed_columns();
        let mut changed = Arrays::new(changed_columns.clone());
        for entry in updates {
            let values = HISTORY.iter().zip(entry.values());
            let kept = values.filter(|((n, _), _)| changed_columns.iter().any(|(c, _)| c == n));
            changed.push_row(kept.map(|(_, v)| v).collect());
        }
        let mut new = Arrays::new(HISTORY.to_vec());
        for entry in inserts {
            new.push_row(entry.values());
        }
        let mut args: Vec<DatumWithOid> = vec![deletes.to_vec().into()];
        args.extend(changed.into_args());
        args.extend(new.into_args());
        // planned for its arrays (a rebuild's sizes differ widely): no saved plan
        self.client
            .update(merge_text(), None, &args)
            .unwrap_or_else(|e| internal(e));
    }
}
