//! What the ranking triggers read from and write to the tables, through SPI. Reads of numbers
//! go through `float8` and writes through their decimal text, so a state read back equals the
//! state computed (see `pg_rating_core::ranking::system::stored`).

use std::cell::{Cell, RefCell};
use std::collections::{HashMap, HashSet};

use pg_rating_core::clock::{Clock, Interval as CoreInterval};
use pg_rating_core::ledger::Standing;
use pg_rating_core::ranking::system::STORED_DECIMALS;
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
use crate::error::raise;

/// A ranking: which games count in it and how they are rated.
#[derive(Clone)]
pub struct Ranking {
    pub id: i32,
    pub window: RankingWindow,
    pub system: RatingSystem,
}

/// A ranked local game as the rankings see it.
pub struct GameRow {
    pub key: GameKey,
    pub white: String,
    pub black: String,
    pub white_score: f64,
    pub facts: GameFacts,
}

impl Ranking {
    /// The games (sorted, as given) that count in this ranking.
    pub fn counted(&self, games: &[GameRow]) -> Vec<RatedGame<String>> {
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
pub type AppendBatch<'r> = (&'r Ranking, Vec<RatedGame<String>>, HashMap<String, Tip>);

/// One row of `elo_history` to write.
struct Entry {
    id: i32,
    player: String,
    ranking: i32,
    game: GameKey,
    state: PlayerState,
    previous: Option<i32>,
}

impl Entry {
    fn of(ranking: i32, e: HistoryEntry) -> Self {
        Entry {
            id: e.id,
            player: e.player,
            ranking,
            game: e.game,
            state: e.state,
            previous: e.previous,
        }
    }
}

/// Entries as the column arrays an `unnest` turns back into rows.
struct EntryColumns<'e> {
    ids: Vec<i32>,
    players: Vec<&'e str>,
    rankings: Vec<i32>,
    games: Vec<i32>,
    elos: Vec<String>,
    previous: Vec<Option<i32>>,
    rds: Vec<Option<String>>,
    vols: Vec<Option<String>>,
    dates: Vec<TimestampWithTimeZone>,
}

impl<'e> EntryColumns<'e> {
    fn of(entries: &'e [Entry]) -> Self {
        EntryColumns {
            ids: entries.iter().map(|e| e.id).collect(),
            players: entries.iter().map(|e| e.player.as_str()).collect(),
            rankings: entries.iter().map(|e| e.ranking).collect(),
            games: entries.iter().map(|e| e.game.game_id).collect(),
            elos: entries
                .iter()
                .map(|e| numeric_text(e.state.rating))
                .collect(),
            previous: entries.iter().map(|e| e.previous).collect(),
            rds: entries
                .iter()
                .map(|e| e.state.rd.map(numeric_text))
                .collect(),
            vols: entries
                .iter()
                .map(|e| e.state.volatility.map(numeric_text))
                .collect(),
            dates: entries
                .iter()
                .map(|e| timestamp(e.game.played_at))
                .collect(),
        }
    }

    /// The nine arrays of a new entry, in the order the INSERT statements read them:
    /// id, player, ranking, game, elo, previous, rd, volatility, date.
    fn insert_args(self) -> [DatumWithOid<'e>; 9] {
        [
            self.ids.into(),
            self.players.into(),
            self.rankings.into(),
            self.games.into(),
            self.elos.into(),
            self.previous.into(),
            self.rds.into(),
            self.vols.into(),
            self.dates.into(),
        ]
    }
}

/// An entry as the history holds it.
struct Stored {
    id: i32,
    rating: f64,
    rd: Option<f64>,
    volatility: Option<f64>,
    previous: Option<i32>,
    played_at: i64,
}

impl Stored {
    /// True when the stored entry already says what `entry` says.
    fn holds(&self, entry: &Entry) -> bool {
        self.rating == entry.state.rating
            && self.rd == entry.state.rd
            && self.volatility == entry.state.volatility
            && self.previous == entry.previous
            && self.played_at == entry.game.played_at
    }
}

/// One row of `ranking_players` to write: a player's latest entry.
struct PlayerRow {
    ranking: i32,
    player: String,
    tip: Tip,
}

pub struct Store<'c, 'conn> {
    client: &'c mut SpiClient<'conn>,
    extension: pg_sys::Oid,
}

thread_local! {
    /// The rankings as last read: (extension, rankings_version, rankings).
    static RANKINGS: RefCell<Option<(pg_sys::Oid, i64, Vec<Ranking>)>> = const { RefCell::new(None) };
    /// The local transaction id of the transaction that last updated `ranking_writes`.
    static LOCKED_IN: Cell<pg_sys::LocalTransactionId> = const { Cell::new(0) };
}

use crate::error::internal;
use crate::spi::{column, nullable};

/// The decimal text a state number is stored as: [`STORED_DECIMALS`] decimals, no trailing zeros.
fn numeric_text(x: f64) -> String {
    let text = format!("{:.*}", STORED_DECIMALS as usize, x);
    let trimmed = text.trim_end_matches('0');
    trimmed.strip_suffix('.').unwrap_or(trimmed).to_owned()
}

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
fn tip(row: &pgrx::spi::SpiHeapTupleData<'_>, entry: &str, rating: &str, peak: &str) -> Tip {
    let int = |name: &str| column::<i32>(row, name);
    let date: TimestampWithTimeZone = column(row, "last_game_date");
    let last = GameKey {
        played_at: date.into_inner(),
        game_id: int("last_game_id"),
    };
    let state = PlayerState {
        rating: column(row, rating),
        rd: nullable(row, "rd"),
        volatility: nullable(row, "volatility"),
        last_played: Some(last.played_at),
    };
    Tip {
        entry: int(entry),
        standing: Standing {
            state,
            games: int("games"),
            wins: int("wins"),
            draws: int("draws"),
            losses: int("losses"),
            peak: column(row, peak),
            // (not kept by a ranking)
            streak: 0,
            best_streak: 0,
            opponents_sum: 0.0,
            score_sum: 0.0,
        },
        last,
    }
}

/// `INSERT INTO ranking_players (every column) <rows> ON CONFLICT DO UPDATE` every column: the
/// one way a standing is written.
macro_rules! upsert_standings {
    ($rows:expr) => {
        concat!(
            "INSERT INTO ranking_players (ranking_id, service_id, user_id_in_service, elo_history_id, rating, rd,
                                          volatility, games, wins, draws, losses, peak_rating,
                                          last_game_date, last_game_id) ",
            $rows,
            " ON CONFLICT (ranking_id, service_id, user_id_in_service) DO UPDATE SET
                 elo_history_id = EXCLUDED.elo_history_id, rating = EXCLUDED.rating, rd = EXCLUDED.rd,
                 volatility = EXCLUDED.volatility, games = EXCLUDED.games, wins = EXCLUDED.wins,
                 draws = EXCLUDED.draws, losses = EXCLUDED.losses, peak_rating = EXCLUDED.peak_rating,
                 last_game_date = EXCLUDED.last_game_date, last_game_id = EXCLUDED.last_game_id"
        )
    };
}

/// The rows of standings to write, from the thirteen arrays of [`standings_args`] ($1 to $13).
macro_rules! standings_rows {
    () => {
        "SELECT u.ranking, 1, u.player, u.entry, u.rating::numeric, u.rd::numeric, u.vol::numeric, u.games,
                u.wins, u.draws, u.losses, u.peak::numeric, u.date, u.game
         FROM unnest($1::int4[], $2::text[], $3::int4[], $4::text[], $5::text[], $6::text[], $7::int4[],
                     $8::int4[], $9::int4[], $10::int4[], $11::text[], $12::int4[], $13::timestamptz[])
              AS u(ranking, player, entry, rating, rd, vol, games, wins, draws, losses, peak, game, date)"
    };
}

/// A query of ranked local games with what the rankings need of them (read by [`game_rows`]).
macro_rules! games_query {
    ($from:literal, $filter:literal) => {
        concat!(
            "SELECT g.id, g.creation_date, g.white_player::text AS white, g.black_player::text AS black,
                    (g.result).game_end_type::text AS end_type, (g.clock).starting_time, (g.clock).move_increase,
                    w.is_bot AS white_is_bot, b.is_bot AS black_is_bot
             FROM ", $from, " g
             JOIN service_accounts w ON w.service_id = g.service_id AND w.user_id_in_service = g.white_player
             JOIN service_accounts b ON b.service_id = g.service_id AND b.user_id_in_service = g.black_player
             WHERE g.service_id = 1 AND g.is_ranked AND ", $filter, "
             ORDER BY g.creation_date, g.id"
        )
    };
}

fn game_rows(rows: SpiTupleTable<'_>) -> Vec<GameRow> {
    let mut games = Vec::with_capacity(rows.len());
    for row in rows {
        let id: i32 = column(&row, "id");
        let date: TimestampWithTimeZone = column(&row, "creation_date");
        let end_type: GameEndType = column::<String>(&row, "end_type")
            .parse()
            .unwrap_or_else(|_| internal(format!("game {id} has an invalid result")));
        let clock = match (
            nullable::<Interval>(&row, "starting_time"),
            nullable::<Interval>(&row, "move_increase"),
        ) {
            (Some(s), Some(m)) => Some(Clock {
                starting_time: interval(s),
                move_increase: interval(m),
            }),
            _ => None,
        };
        games.push(GameRow {
            key: GameKey {
                played_at: date.into_inner(),
                game_id: id,
            },
            white: column(&row, "white"),
            black: column(&row, "black"),
            white_score: end_type.score(true),
            facts: GameFacts {
                ranked_local: true,
                clock,
                white_is_bot: column(&row, "white_is_bot"),
                black_is_bot: column(&row, "black_is_bot"),
            },
        });
    }
    games
}

/// The thirteen arrays [`standings_rows`] reads.
fn standings_args(rows: &[PlayerRow]) -> Vec<DatumWithOid<'static>> {
    let ints = |f: &dyn Fn(&PlayerRow) -> i32| -> Vec<i32> { rows.iter().map(f).collect() };
    let texts = |f: &dyn Fn(&PlayerRow) -> Option<String>| -> Vec<Option<String>> {
        rows.iter().map(f).collect()
    };
    let players: Vec<String> = rows.iter().map(|r| r.player.clone()).collect();
    let dates: Vec<TimestampWithTimeZone> = rows
        .iter()
        .map(|r| timestamp(r.tip.last.played_at))
        .collect();
    let standing = |r: &PlayerRow| r.tip.standing;
    vec![
        ints(&|r| r.ranking).into(),
        players.into(),
        ints(&|r| r.tip.entry).into(),
        texts(&|r| Some(numeric_text(standing(r).state.rating))).into(),
        texts(&|r| standing(r).state.rd.map(numeric_text)).into(),
        texts(&|r| standing(r).state.volatility.map(numeric_text)).into(),
        ints(&|r| standing(r).games).into(),
        ints(&|r| standing(r).wins).into(),
        ints(&|r| standing(r).draws).into(),
        ints(&|r| standing(r).losses).into(),
        texts(&|r| Some(numeric_text(standing(r).peak))).into(),
        ints(&|r| r.tip.last.game_id).into(),
        dates.into(),
    ]
}

impl<'c, 'conn> Store<'c, 'conn> {
    pub fn new(client: &'c mut SpiClient<'conn>) -> Self {
        // SAFETY: a catalog lookup by name.
        let extension =
            unsafe { pg_sys::get_extension_oid(c"pg_rating_random_chess".as_ptr(), true) };
        Store { client, extension }
    }

    /// Runs one of this module's statements with a saved plan.
    fn query(&mut self, sql: &'static str, args: &[DatumWithOid]) -> SpiTupleTable<'conn> {
        let plan = crate::spi::saved_plan(self.client, sql, args);
        self.client
            .update(&*plan, None, args)
            .unwrap_or_else(|e| internal(e))
    }

    /// Waits for, then holds until commit, the one lock of the history's writers. The first
    /// time in a transaction it updates the row (so a REPEATABLE READ snapshot that missed
    /// another writer's commit fails here); after that it only locks it again, because every
    /// update of one row in one transaction lengthens the chain of versions the next must walk.
    ///
    /// Returns the version of the rankings, read under the lock.
    pub fn lock(&mut self) -> i64 {
        // SAFETY: this backend's PGPROC, set up before any SQL runs.
        let transaction = unsafe { (*pg_sys::MyProc).lxid };
        let rows = if LOCKED_IN.replace(transaction) == transaction {
            self.query(
                "SELECT rankings_version FROM ranking_writes FOR UPDATE",
                &[],
            )
        } else {
            self.query(
                "UPDATE ranking_writes SET writes = writes + 1 RETURNING rankings_version",
                &[],
            )
        };
        rows.first()
            .get_one::<i64>()
            .ok()
            .flatten()
            .unwrap_or_else(|| internal("ranking_writes has no row"))
    }

    /// Every ranking, from memory while `version` (from [`Store::lock`]) says they did not change.
    pub fn all_rankings(&mut self, version: i64) -> Vec<Ranking> {
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
    pub fn with_bot_flags(&mut self, games: Vec<NewGame>) -> Vec<GameRow> {
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
            .map(|g| GameRow {
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
    pub fn game(&mut self, id: i32) -> Option<GameRow> {
        game_rows(self.query(games_query!("service_games", "g.id = $1"), &[id.into()])).pop()
    }

    /// Every ranked local game from `from` on (all when `None`), in order. The bots of service 1
    /// are few: their names are read once instead of joining every game with its accounts.
    fn games_from(&mut self, from: Option<GameKey>) -> Vec<GameRow> {
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
            "SELECT g.id, g.creation_date, g.white_player::text AS white, g.black_player::text AS black,
                    (g.result).game_end_type::text AS end_type, (g.clock).starting_time, (g.clock).move_increase,
                    false AS white_is_bot, false AS black_is_bot
             FROM service_games g
             WHERE g.service_id = 1 AND g.is_ranked AND (g.creation_date, g.id) >= ($1, $2)
             ORDER BY g.creation_date, g.id",
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
                    playtime_min: nullable::<Interval>(&row, "playtime_min")
                        .map(interval)
                        .unwrap_or_default(),
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
        games: &[(&Ranking, Vec<RatedGame<String>>)],
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
            // One index probe per (ranking, player); LIMIT keeps the planner from turning the
            // saved plan into a join over the whole table.
            "SELECT k.ranking, k.player, p.elo_history_id, p.rating::float8 AS rating, p.rd::float8 AS rd,
                    p.volatility::float8 AS volatility, p.games, p.wins, p.draws, p.losses,
                    p.peak_rating::float8 AS peak_rating, p.last_game_date, p.last_game_id
             FROM unnest($1::int4[], $2::text[]) AS k(ranking, player)
             CROSS JOIN LATERAL (
                 SELECT * FROM ranking_players p
                 WHERE p.ranking_id = k.ranking AND p.service_id = 1 AND p.user_id_in_service = k.player
                 LIMIT 1) p",
            &[rankings.into(), players.into()],
        );
        let mut out: HashMap<i32, HashMap<String, Tip>> = HashMap::new();
        for row in rows {
            let ranking = column::<i32>(&row, "ranking");
            let player: String = column(&row, "player");
            out.entry(ranking)
                .or_default()
                .insert(player, tip(&row, "elo_history_id", "rating", "peak_rating"));
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
            entries.extend(history.into_iter().map(|e| Entry::of(ranking.id, e)));
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
        self.insert_entries_and_standings(&entries, &players);
    }

    /// Appends entries and writes the standings they change, in one statement.
    fn insert_entries_and_standings(&mut self, entries: &[Entry], rows: &[PlayerRow]) {
        let mut args = standings_args(rows);
        args.extend(EntryColumns::of(entries).insert_args());
        self.query(
            concat!(
                "WITH history AS (
                     INSERT INTO elo_history (id, service_id, user_id_in_service, ranking_id, game_id, elo,
                                              previous_entry, rd, volatility, game_date)
                     SELECT e.id, 1, e.player, e.ranking, e.game, e.elo::numeric, e.previous, e.rd::numeric,
                            e.vol::numeric, e.date
                     FROM unnest($14::int4[], $15::text[], $16::int4[], $17::int4[], $18::text[], $19::int4[],
                                 $20::text[], $21::text[], $22::timestamptz[])
                          AS e(id, player, ranking, game, elo, previous, rd, vol, date)
                     ORDER BY e.id) ",
                upsert_standings!(standings_rows!())
            ),
            &args,
        );
    }

    fn upsert_players(&mut self, rows: &[PlayerRow]) {
        if !rows.is_empty() {
            self.query(upsert_standings!(standings_rows!()), &standings_args(rows));
        }
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
            "SELECT u.player, l.id, l.elo::float8 AS elo, l.rd::float8 AS rd, l.volatility::float8 AS volatility,
                    l.game_date AS last_game_date, l.game_id AS last_game_id, a.games, a.wins, a.draws, a.losses,
                    a.peak::float8 AS peak
             FROM unnest($2::text[]) AS u(player)
             CROSS JOIN LATERAL (
                 SELECT e.id, e.elo, e.rd, e.volatility, e.game_date, e.game_id
                 FROM elo_history e
                 WHERE e.ranking_id = $1 AND e.user_id_in_service = u.player AND e.service_id = 1
                   AND (e.game_date, e.game_id) < ($3, $4)
                 ORDER BY e.game_date DESC, e.game_id DESC
                 LIMIT 1) l
             CROSS JOIN LATERAL (
                 SELECT count(*)::int4 AS games,
                        count(*) FILTER (WHERE s.score = 1)::int4 AS wins,
                        count(*) FILTER (WHERE s.score = 0.5)::int4 AS draws,
                        count(*) FILTER (WHERE s.score = 0)::int4 AS losses,
                        max(e.elo) AS peak
                 FROM elo_history e
                 JOIN service_games g ON g.id = e.game_id
                 CROSS JOIN LATERAL (SELECT game_score(g.result, g.white_player = e.user_id_in_service)) AS s(score)
                 WHERE e.ranking_id = $1 AND e.user_id_in_service = u.player AND e.service_id = 1
                   AND (e.game_date, e.game_id) < ($3, $4)) a",
            &[
                ranking.into(),
                players.into(),
                timestamp(from.played_at).into(),
                from.game_id.into(),
            ],
        );
        rows.map(|row| {
            (
                column::<String>(&row, "player"),
                tip(&row, "id", "elo", "peak"),
            )
        })
        .collect()
    }

    /// The entries of `ranking` from `from` on (all when `None`), by (player, game).
    fn entries_from(
        &mut self,
        ranking: i32,
        from: Option<GameKey>,
    ) -> HashMap<(String, i32), Stored> {
        let from = from.unwrap_or(GameKey {
            played_at: i64::MIN,
            game_id: i32::MIN,
        });
        let rows = self.client.update(
            "SELECT id, user_id_in_service::text AS player, game_id, elo::float8 AS elo, rd::float8 AS rd,
                    volatility::float8 AS volatility, previous_entry, game_date
             FROM elo_history
             WHERE ranking_id = $1 AND (game_date, game_id) >= ($2, $3)",
            None,
            &[ranking.into(), timestamp(from.played_at).into(), from.game_id.into()],
        );
        let mut out = HashMap::new();
        for row in rows.unwrap_or_else(|e| internal(e)) {
            let date: TimestampWithTimeZone = column(&row, "game_date");
            out.insert(
                (
                    column::<String>(&row, "player"),
                    column::<i32>(&row, "game_id"),
                ),
                Stored {
                    id: column(&row, "id"),
                    rating: column(&row, "elo"),
                    rd: nullable(&row, "rd"),
                    volatility: nullable(&row, "volatility"),
                    previous: nullable(&row, "previous_entry"),
                    played_at: date.into_inner(),
                },
            );
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
            .filter(|(p, game)| !stored.contains_key(&((*p).clone(), *game)))
            .count();
        let mut fresh = self.next_ids(fresh_needed).into_iter();
        let history = rate_or_raise(ranking, &mut tips, &games, |player, game| {
            match stored.get(&(player.to_owned(), game.game_id)) {
                Some(old) => old.id,
                None => fresh
                    .next()
                    .unwrap_or_else(|| internal("ran out of history ids")),
            }
        });
        let mut inserts = Vec::new();
        let mut updates = Vec::new();
        for e in history {
            let entry = Entry::of(ranking.id, e);
            match stored.remove(&(entry.player.clone(), entry.game.game_id)) {
                None => inserts.push(entry),
                Some(old) if !old.holds(&entry) => updates.push(entry),
                Some(_) => {}
            }
        }
        let deletes: Vec<i32> = stored.into_values().map(|o| o.id).collect();
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
        self.upsert_players(&rows);
        (2 * games.len()) as i64
    }

    /// Makes the history equal to a replay in one statement: the successor uniqueness of the
    /// chain is checked at its end, so entries may take each other's places.
    fn merge_entries(&mut self, deletes: &[i32], updates: &[Entry], inserts: &[Entry]) {
        if deletes.is_empty() && updates.is_empty() && inserts.is_empty() {
            return;
        }
        let u = EntryColumns::of(updates);
        let mut args: Vec<DatumWithOid> = vec![
            deletes.to_vec().into(),
            u.ids.into(),
            u.elos.into(),
            u.previous.into(),
            u.rds.into(),
            u.vols.into(),
            u.dates.into(),
        ];
        args.extend(EntryColumns::of(inserts).insert_args());
        let rows = self.client.update(
            "WITH gone AS (
                 DELETE FROM elo_history WHERE id = ANY ($1::int4[])
             ), changed AS (
                 UPDATE elo_history e
                 SET elo = u.elo::numeric, previous_entry = u.previous, rd = u.rd::numeric,
                     volatility = u.vol::numeric, game_date = u.date
                 FROM unnest($2::int4[], $3::text[], $4::int4[], $5::text[], $6::text[], $7::timestamptz[])
                      AS u(id, elo, previous, rd, vol, date)
                 WHERE e.id = u.id
             )
             INSERT INTO elo_history (id, service_id, user_id_in_service, ranking_id, game_id, elo, previous_entry,
                                      rd, volatility, game_date)
             SELECT u.id, 1, u.player, u.ranking, u.game, u.elo::numeric, u.previous, u.rd::numeric,
                    u.vol::numeric, u.date
             FROM unnest($8::int4[], $9::text[], $10::int4[], $11::int4[], $12::text[], $13::int4[], $14::text[],
                         $15::text[], $16::timestamptz[])
                  AS u(id, player, ranking, game, elo, previous, rd, vol, date)",
            None,
            &args,
        );
        rows.unwrap_or_else(|e| internal(e));
    }
}
