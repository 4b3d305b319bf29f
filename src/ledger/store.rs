//! What the ledger writer reads from and writes to its tables, through SPI, by column name.

use std::collections::{BTreeSet, HashMap};

use pg_rating_core::ledger::writer::{StandingRows, Writes};
use pg_rating_core::ledger::{Entry, LedgerKey, LedgerSettings, Standing};
use pg_rating_core::ranking::PlayerState;
use pgrx::datum::DatumWithOid;
use pgrx::prelude::*;
use pgrx::spi::{SpiClient, SpiHeapTupleData, SpiTupleTable};
use pgrx::PgSqlErrorCode;

use super::attachment::{Attachment, GameRow, Meaning, Multiplayer, ParticipantRow};
use super::internal;
use crate::bulk_insert::BulkInsert;
use crate::bulk_replace::replace_ledger_rows;
use crate::columns::{Cell, Cells, Column, Kind};
use crate::error::raise;
use crate::keyed::{key_args, shaped, texts, Texts};
use crate::rows::RowWriter;
use crate::spi::{column as get, column_at, nullable as opt, nullable_at, ordinals};
use crate::writer_lock::LockTable;

/// A `ledgers` row as the writer needs it.
pub struct Ledger {
    pub id: i32,
    pub name: String,
    pub owner: pg_sys::Oid,
    pub settings: LedgerSettings,
}

fn micros(t: TimestampWithTimeZone) -> i64 {
    t.into_inner()
}

pub fn timestamp(micros: i64) -> TimestampWithTimeZone {
    TimestampWithTimeZone::try_from(micros).unwrap_or_else(|e| internal(format!("{e:?}")))
}

/// An attachment of a `ledger_attachments` row (joined with the table's `relowner`).
fn attachment_of(row: &SpiHeapTupleData<'_>) -> Attachment {
    let text = |name: &str| opt::<String>(row, name).unwrap_or_default();
    let multiplayer = opt::<String>(row, "multiplayer_rule").map(|rule| Multiplayer {
        player_column: text("white_column"),
        placement_column: text("placement_column"),
        higher_is_better: opt(row, "higher_is_better").unwrap_or(false),
        rule: pg_rating_core::ledger::MultiplayerRule::parse(&rule).unwrap_or_else(|e| internal(e)),
    });
    Attachment {
        ledger_id: get(row, "ledger_id"),
        table: get(row, "games"),
        owner: get(row, "table_owner"),
        key_column: get(row, "key_column"),
        key_type: get(row, "key_type"),
        date_column: get(row, "date_column"),
        white_column: text("white_column"),
        black_column: text("black_column"),
        result_column: text("result_column"),
        result_map: opt::<pgrx::JsonB>(row, "result_map")
            .map(|j| super::attachment::parse_result_map(&j.0)),
        scope_column: opt(row, "scope_column"),
        filter: opt(row, "filter"),
        multiplayer,
    }
}

/// A `ledgers` row (its columns as [`LEDGER_COLUMNS`] selects them).
fn ledger_of(row: &SpiHeapTupleData<'_>) -> Ledger {
    Ledger {
        id: get(row, "id"),
        name: get(row, "name"),
        owner: get(row, "owner"),
        settings: settings_of(row),
    }
}

/// The columns of `ledgers` the writers read (of `l`).
const LEDGER_COLUMNS: &str =
    "l.id, l.name, l.owner::oid AS owner, l.rating_system, l.starting_rating, l.k_factor,
     l.starting_rd, l.starting_volatility, l.tau, l.rating_period, l.max_change, l.rating_floor,
     l.provisional_games, l.provisional_rd";

/// The columns of `ledger_attachments` (of `a`, joined with the table's `pg_class` row `c`) that
/// make an [`Attachment`].
const ATTACHMENT_COLUMNS: &str = "a.ledger_id, a.games::oid AS games, c.relowner AS table_owner,
     a.key_column::text AS key_column, a.key_type::oid AS key_type, a.placement_column::text AS placement_column,
     a.higher_is_better, a.multiplayer_rule, a.date_column::text AS date_column,
     a.white_column::text AS white_column, a.black_column::text AS black_column,
     a.result_column::text AS result_column, a.result_map, a.scope_column::text AS scope_column, a.filter";

/// The standing held in an entry or standings row (the row has the standings columns, and
/// `last_played` is the date of its game).
fn standing_of(row: &SpiHeapTupleData<'_>, last_played: i64) -> Standing {
    Standing {
        state: PlayerState {
            rating: get(row, "rating"),
            rd: opt(row, "rd"),
            volatility: opt(row, "volatility"),
            last_played: Some(last_played),
        },
        games: get(row, "games"),
        wins: get(row, "wins"),
        draws: get(row, "draws"),
        losses: get(row, "losses"),
        peak: get(row, "peak"),
        streak: get(row, "streak"),
        best_streak: get(row, "best_streak"),
        opponents_sum: get(row, "opponents_sum"),
        score_sum: get(row, "score_sum"),
    }
}

/// Standings rows (or entries) by player, with the key of the game each one is after.
fn by_player(
    rows: SpiTupleTable<'_>,
    date: &str,
    key: &str,
) -> HashMap<String, (Standing, LedgerKey)> {
    let mut out = HashMap::new();
    for row in rows {
        let at = micros(get(&row, date));
        let key = LedgerKey {
            at,
            id: get(&row, key),
        };
        out.insert(get(&row, "player"), (standing_of(&row, at), key));
    }
    out
}

/// The ordinals of the columns a read of games selects (see `Attachment::columns`).
fn game_ordinals(rows: &SpiTupleTable<'_>) -> [usize; 7] {
    ordinals(
        rows,
        [
            "scope",
            "played_at",
            "key",
            "white",
            "black",
            "result",
            "counted",
        ],
    )
}

/// A game read from an attached table (`columns` from [`game_ordinals`]): what the ledger reads of
/// it, checked.
fn game_of(att: &Attachment, row: &SpiHeapTupleData<'_>, columns: [usize; 7]) -> GameRow {
    let [scope, played_at, key, white, black, result, counted] = columns;
    let scope: String = column_at(row, scope, "scope");
    let date = nullable_at::<TimestampWithTimeZone>(row, played_at).map(micros);
    let key: Option<String> = nullable_at(row, key);
    let white: Option<String> = nullable_at(row, white);
    let black: Option<String> = nullable_at(row, black);
    let result: Option<String> = nullable_at(row, result);
    let counted = nullable_at::<bool>(row, counted).unwrap_or(false);
    let Some(key) = key else {
        // a row without a key is never rated: no history could name its game
        if counted && matches!(att.meaning("NULL", result.as_deref()), Meaning::Rated(_)) {
            null_key(att);
        }
        return GameRow {
            scope,
            key: LedgerKey {
                at: date.unwrap_or(0),
                id: String::new(),
            },
            white,
            black,
            outcome: None,
        };
    };
    let outcome = match counted.then(|| att.meaning(&key, result.as_deref())) {
        Some(Meaning::Rated(o)) => Some(o),
        _ => None,
    };
    let at = match (date, outcome) {
        (Some(at), _) => at,
        (None, None) => 0,
        (None, Some(_)) => raise(
            PgSqlErrorCode::ERRCODE_NULL_VALUE_NOT_ALLOWED,
            format!("game {key}: its date is NULL"),
        ),
    };
    if outcome.is_some() && (at == i64::MIN || at == i64::MAX) {
        raise(
            PgSqlErrorCode::ERRCODE_DATETIME_FIELD_OVERFLOW,
            format!("game {key}: a rated game needs a finite date"),
        );
    }
    if outcome.is_some() && (white.is_none() || black.is_none()) {
        raise(
            PgSqlErrorCode::ERRCODE_NULL_VALUE_NOT_ALLOWED,
            format!("game {key}: a rated game needs both players"),
        );
    }
    GameRow {
        scope,
        key: LedgerKey {
            at,
            id: att.ledger_key_id(&key),
        },
        white,
        black,
        outcome,
    }
}

/// 22004 for a game to rate whose key column is NULL.
fn null_key(att: &Attachment) -> ! {
    raise(
        PgSqlErrorCode::ERRCODE_NULL_VALUE_NOT_ALLOWED,
        format!(
            "a game to rate has a NULL {}: a rated game needs a key",
            att.key_column
        ),
    )
}

/// Runs a statement with its saved plan. A plain SELECT runs as a read, which takes no transaction
/// id (so the read functions work on a hot standby).
fn run<'conn>(
    client: &mut SpiClient<'conn>,
    sql: &str,
    args: &[DatumWithOid],
) -> SpiTupleTable<'conn> {
    crate::spi::run(client, sql, args, sql.trim_start().starts_with("SELECT"))
}

/// Restores the user id and security context when dropped (also when an error unwinds).
struct AsOwner {
    user: pg_sys::Oid,
    context: i32,
}

impl AsOwner {
    /// Runs what follows as `owner`, in a security-restricted operation.
    fn begin(owner: pg_sys::Oid) -> Self {
        let (mut user, mut context) = (pg_sys::InvalidOid, 0);
        // SAFETY: reading and setting this backend's user id, as PostgreSQL does around
        // maintenance commands that run a table owner's code.
        unsafe {
            pg_sys::GetUserIdAndSecContext(&mut user, &mut context);
            pg_sys::SetUserIdAndSecContext(
                owner,
                context
                    | pg_sys::SECURITY_LOCAL_USERID_CHANGE as i32
                    | pg_sys::SECURITY_RESTRICTED_OPERATION as i32,
            );
        }
        AsOwner { user, context }
    }
}

impl Drop for AsOwner {
    fn drop(&mut self) {
        // SAFETY: restores what begin() read.
        unsafe { pg_sys::SetUserIdAndSecContext(self.user, self.context) };
    }
}

pub struct LedgerStore<'c, 'conn> {
    client: &'c mut SpiClient<'conn>,
    batch: Batch,
    /// The rows of a rebuild ([`Writes::Rebuilt`]).
    rebuilt: Batch,
}

impl<'c, 'conn> LedgerStore<'c, 'conn> {
    pub fn new(client: &'c mut SpiClient<'conn>) -> Self {
        LedgerStore {
            client,
            batch: Batch::default(),
            rebuilt: Batch::default(),
        }
    }

    fn run(&mut self, sql: &str, args: &[DatumWithOid]) -> SpiTupleTable<'conn> {
        run(self.client, sql, args)
    }

    /// Ledgers as read, or (`to_write`) share-locked until commit: a writer of a ledger's rows
    /// reads its settings so, because a change of the settings rebuilds the ledger under the
    /// locks of its scopes, and a writer that read the settings before waiting for those locks
    /// would write by the old settings after the rebuild. Locked, a writer waits for the change
    /// and reads the new settings (a change waits for the writers); under REPEATABLE READ a
    /// writer whose snapshot missed the change gets 40001.
    fn ledgers_where(&mut self, condition: &str, arg: DatumWithOid, to_write: bool) -> Vec<Ledger> {
        let rows = self.run(
            &format!(
                "SELECT {LEDGER_COLUMNS} FROM ledgers l WHERE {condition} ORDER BY l.id{}",
                if to_write { " FOR SHARE" } else { "" }
            ),
            &[arg],
        );
        rows.into_iter().map(|row| ledger_of(&row)).collect()
    }

    /// A ledger by id, share-locked to write its rows (see [`Self::ledgers_where`]).
    pub fn ledger_to_write(&mut self, id: i32) -> Option<Ledger> {
        self.ledgers_where("id = $1", id.into(), true).pop()
    }

    /// The ledger of that name, if there is one.
    pub fn ledgers_named(&mut self, name: &str) -> Vec<Ledger> {
        self.ledgers_where("name = $1", name.into(), false)
    }

    /// The ledger of that name, or 22023.
    pub fn ledger_named(&mut self, name: &str) -> Ledger {
        self.ledger_named_as(name, false)
    }

    /// [`Self::ledger_named`], share-locked to write its rows (see [`Self::ledgers_where`]).
    pub fn ledger_named_to_write(&mut self, name: &str) -> Ledger {
        self.ledger_named_as(name, true)
    }

    fn ledger_named_as(&mut self, name: &str, to_write: bool) -> Ledger {
        let l = self
            .ledgers_where("name = $1", name.into(), to_write)
            .pop()
            .unwrap_or_else(|| {
                raise(
                    PgSqlErrorCode::ERRCODE_INVALID_PARAMETER_VALUE,
                    format!("ledger \"{name}\" does not exist"),
                )
            });
        self.refuse_kept_elsewhere(&l);
        l
    }

    /// The table of a client of pg_rating that keeps this ledger's history (`ledgers.kept_in`),
    /// or `None` for the engine's own tables. (Read through `to_jsonb`: a schema older than
    /// 0.10.0 has no such column, and no such ledger.)
    pub fn kept_in(&mut self, ledger_id: i32) -> Option<String> {
        self.run(
            "SELECT to_jsonb(l) ->> 'kept_in' AS kept_in FROM ledgers l WHERE l.id = $1",
            &[ledger_id.into()],
        )
        .next()
        .and_then(|row| opt::<String>(&row, "kept_in"))
    }

    /// 0A000 for a ledger whose history a client keeps: the ledgers' functions neither attach,
    /// rebuild, seed nor read it (its client's triggers write it, from its client's tables).
    pub fn refuse_kept_elsewhere(&mut self, l: &Ledger) {
        if let Some(table) = self.kept_in(l.id) {
            raise(
                PgSqlErrorCode::ERRCODE_FEATURE_NOT_SUPPORTED,
                format!(
                    "ledger \"{}\" keeps its history in {table}, written by pg_rating from its client's tables: \
                     the ledgers' functions do not attach, rebuild, seed or read it",
                    l.name
                ),
            );
        }
    }

    pub fn attachment(&mut self, ledger_id: i32) -> Option<Attachment> {
        self.attachments_where("a.ledger_id = $1", ledger_id.into())
            .pop()
    }

    /// The ledgers attached to a table and their attachments, by ledger id; the ledgers
    /// share-locked to write their rows (see [`Self::ledgers_where`]). One statement: a game's
    /// trigger runs it for every statement.
    pub fn ledgers_on(&mut self, table: pg_sys::Oid) -> Vec<(Ledger, Attachment)> {
        static TEXT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
        let text = TEXT.get_or_init(|| {
            format!(
                "SELECT {LEDGER_COLUMNS}, {ATTACHMENT_COLUMNS}
                 FROM ledger_attachments a JOIN ledgers l ON l.id = a.ledger_id JOIN pg_class c ON c.oid = a.games
                 WHERE a.games = $1 ORDER BY a.ledger_id FOR SHARE OF l"
            )
        });
        let rows = self.run(text, &[table.into()]);
        rows.into_iter()
            .map(|row| (ledger_of(&row), attachment_of(&row)))
            .collect()
    }

    fn attachments_where(&mut self, condition: &str, arg: DatumWithOid) -> Vec<Attachment> {
        let rows = self.run(
            &format!(
                "SELECT {ATTACHMENT_COLUMNS} FROM ledger_attachments a JOIN pg_class c ON c.oid = a.games
                 WHERE {condition}"
            ),
            &[arg],
        );
        rows.into_iter().map(|row| attachment_of(&row)).collect()
    }

    /// Runs a read of an attached table as the table's owner, in a security-restricted operation.
    fn select_as_owner(
        &mut self,
        att: &Attachment,
        sql: &str,
        args: &[DatumWithOid],
    ) -> SpiTupleTable<'conn> {
        let _as_owner = AsOwner::begin(att.owner);
        let _foreign = crate::trigger::ForeignCode::begin();
        let plan = crate::spi::saved_plan(self.client, sql, args);
        self.client
            .select(&*plan, None, args)
            .unwrap_or_else(|e| internal(e))
    }

    /// Reads games of the attached table as its owner (`sql` from the attachment).
    pub fn read_games(
        &mut self,
        att: &Attachment,
        sql: &str,
        args: &[DatumWithOid],
    ) -> Vec<GameRow> {
        let rows = self.select_as_owner(att, sql, args);
        if rows.is_empty() {
            return Vec::new();
        }
        let columns = game_ordinals(&rows);
        rows.into_iter()
            .map(|row| game_of(att, &row, columns))
            .collect()
    }

    /// The rows of a transition table (`pg_rating_new` / `pg_rating_old`) of each of `atts`,
    /// attachments of one table, read in one statement (a game's trigger runs it for every
    /// statement, whatever the number of ledgers).
    pub fn read_changed(&mut self, atts: &[&Attachment], transition: &str) -> Vec<Vec<GameRow>> {
        let mut games: Vec<Vec<GameRow>> = atts.iter().map(|_| Vec::new()).collect();
        let Some(first) = atts.first() else {
            return games;
        };
        let sql = atts
            .iter()
            .enumerate()
            .map(|(i, att)| {
                format!(
                    "SELECT {i} AS part, q.* FROM ({}) q",
                    att.changed_rows_query(transition)
                )
            })
            .collect::<Vec<_>>()
            .join(" UNION ALL ");
        // one table, one owner
        let rows = self.select_as_owner(first, &sql, &[]);
        if rows.is_empty() {
            return games;
        }
        let columns = game_ordinals(&rows);
        let [part] = ordinals(&rows, ["part"]);
        for row in rows {
            let i: i32 = column_at(&row, part, "part");
            let i = usize::try_from(i).unwrap_or_else(|_| internal(format!("part {i}")));
            games[i].push(game_of(atts[i], &row, columns));
        }
        games
    }

    /// The owner of a table.
    pub fn table_owner(&mut self, table: pg_sys::Oid) -> pg_sys::Oid {
        let rows = self.run(
            "SELECT relowner AS owner FROM pg_class WHERE oid = $1",
            &[table.into()],
        );
        let row = rows.into_iter().next().unwrap_or_else(|| {
            raise(
                PgSqlErrorCode::ERRCODE_UNDEFINED_TABLE,
                format!("relation with OID {} does not exist", table.to_u32()),
            )
        });
        get(&row, "owner")
    }

    /// The type of a column of `table` (42703 when there is none).
    pub fn column_type(&mut self, table: pg_sys::Oid, column: &str, what: &str) -> pg_sys::Oid {
        let rows = self.run(
            "SELECT atttypid AS type FROM pg_attribute
             WHERE attrelid = $1 AND attname = $2 AND attnum > 0 AND NOT attisdropped",
            &[table.into(), column.into()],
        );
        match rows.into_iter().next() {
            Some(row) => get(&row, "type"),
            None => raise(
                PgSqlErrorCode::ERRCODE_UNDEFINED_COLUMN,
                format!("{what}: column \"{column}\" of the games table does not exist"),
            ),
        }
    }

    pub fn insert_attachment(&mut self, att: &Attachment, result_map: Option<pgrx::JsonB>) {
        let multi = att.multiplayer.as_ref();
        let nonempty = |s: &str| (!s.is_empty()).then(|| s.to_owned());
        self.run(
            "INSERT INTO ledger_attachments (ledger_id, games, key_column, key_type, date_column, white_column,
                                             black_column, result_column, result_map, scope_column, filter,
                                             placement_column, higher_is_better, multiplayer_rule)
             VALUES ($1, $2::oid::regclass, $3, $4::oid::regtype, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)",
            &[
                att.ledger_id.into(),
                att.table.into(),
                att.key_column.as_str().into(),
                att.key_type.into(),
                att.date_column.as_str().into(),
                att.white_column.as_str().into(),
                nonempty(&att.black_column).into(),
                nonempty(&att.result_column).into(),
                result_map.into(),
                att.scope_column.as_deref().into(),
                att.filter.as_deref().into(),
                multi.map(|m| m.placement_column.clone()).into(),
                multi.map(|m| m.higher_is_better).into(),
                multi.map(|m| if m.rule == pg_rating_core::ledger::MultiplayerRule::Period { "period" } else { "pairwise" }).into(),
            ],
        );
    }

    /// Deletes everything derived of a deleted ledger.
    pub fn forget(&mut self, ledger: i32) {
        self.clear(ledger);
        self.run(
            "DELETE FROM ledger_scopes WHERE ledger_id = $1",
            &[ledger.into()],
        );
    }

    pub fn delete_attachment(&mut self, ledger: i32) {
        self.run(
            "DELETE FROM ledger_attachments WHERE ledger_id = $1",
            &[ledger.into()],
        );
    }

    /// Whether `table` has a trigger of that name.
    pub fn has_trigger(&mut self, table: pg_sys::Oid, name: &str) -> bool {
        let rows = self.run(
            "SELECT 1 AS found FROM pg_trigger WHERE tgrelid = $1 AND tgname = $2",
            &[table.into(), name.into()],
        );
        !rows.is_empty()
    }

    /// The schema pg_rating is installed in.
    pub fn extension_schema(&mut self) -> String {
        let rows = self.run(
            "SELECT n.nspname::text AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
             WHERE e.extname = 'pg_rating'",
            &[],
        );
        let row = rows
            .into_iter()
            .next()
            .unwrap_or_else(|| internal("pg_rating is not installed"));
        get(&row, "schema")
    }

    pub fn ddl(&mut self, sql: &str) {
        self.run(sql, &[]);
    }

    /// Locks every scope a ledger has (a rebuild rewrites them all); returns them.
    pub fn lock_all_scopes(&mut self, ledger: i32) -> BTreeSet<String> {
        let rows = self.run(
            "UPDATE ledger_scopes SET writes = writes + 1 WHERE ledger_id = $1 RETURNING scope",
            &[ledger.into()],
        );
        let scopes: BTreeSet<String> = rows
            .into_iter()
            .map(|r| get::<String>(&r, "scope"))
            .collect();
        SCOPE_LOCKS.note_updated(scopes.iter().map(|s| (ledger, s.clone())));
        scopes
    }

    /// Deletes the entries and standings of some scopes of a ledger.
    pub fn clear_scopes(&mut self, ledger: i32, scopes: &[&str]) {
        for table in ["ledger_entries", "ledger_standings"] {
            self.run(
                &format!("DELETE FROM {table} WHERE ledger_id = $1 AND scope = ANY ($2)"),
                &[ledger.into(), scopes.to_vec().into()],
            );
        }
    }

    /// Reads participants of an attached participants table as its owner.
    pub fn read_participants(
        &mut self,
        att: &Attachment,
        sql: &str,
        args: &[DatumWithOid],
    ) -> Vec<ParticipantRow> {
        let rows = self.select_as_owner(att, sql, args);
        let mut out = Vec::with_capacity(rows.len());
        for row in rows {
            let counted = opt::<bool>(&row, "counted").unwrap_or(false);
            let placement = opt::<f64>(&row, "placement").filter(|_| counted);
            let Some(key) = opt::<String>(&row, "key") else {
                // a participant of no game is never rated
                if placement.is_some() {
                    null_key(att);
                }
                continue;
            };
            let player: Option<String> = opt(&row, "player");
            let at = opt::<TimestampWithTimeZone>(&row, "played_at").map(micros);
            if placement.is_some() {
                if player.is_none() {
                    raise(
                        PgSqlErrorCode::ERRCODE_NULL_VALUE_NOT_ALLOWED,
                        format!("game {key}: a rated participant needs a player"),
                    );
                }
                match at {
                    None => raise(
                        PgSqlErrorCode::ERRCODE_NULL_VALUE_NOT_ALLOWED,
                        format!("game {key}: its date is NULL"),
                    ),
                    Some(i64::MIN | i64::MAX) => raise(
                        PgSqlErrorCode::ERRCODE_DATETIME_FIELD_OVERFLOW,
                        format!("game {key}: a rated game needs a finite date"),
                    ),
                    _ => {}
                }
            }
            out.push(ParticipantRow {
                scope: get(&row, "scope"),
                key: LedgerKey {
                    at: at.unwrap_or(0),
                    id: att.ledger_key_id(&key),
                },
                player: player.unwrap_or_default(),
                placement,
            });
        }
        out
    }

    /// Waits for, then holds until commit, the locks of (ledger, scope) pairs, taken in their
    /// order (a new scope's row is made); see [`crate::writer_lock`]. Returns whether one of the
    /// scopes had its row already (a rebuild learns that a writer made a scope meanwhile).
    pub fn lock_scopes(&mut self, scopes: &[(i32, &str)]) -> bool {
        SCOPE_LOCKS.lock(self.client, scopes)
    }

    /// The current standings of those (ledger, scope, player) that have one, with the key of
    /// each one's latest game.
    pub fn standings_of(
        &mut self,
        wanted: &[(i32, &str, String)],
    ) -> HashMap<(i32, String, String), (Standing, LedgerKey)> {
        if wanted.is_empty() {
            return HashMap::new();
        }
        let text = shaped(&LOOKUP_TEXTS, wanted.len(), 3, |rows| {
            format!(
                "SELECT s.* FROM ({rows}) AS u(ledger_id, scope, player)
                 CROSS JOIN LATERAL (
                     SELECT * FROM ledger_standings x
                     WHERE x.ledger_id = u.ledger_id AND x.scope = u.scope AND x.player = u.player
                     LIMIT 1) s"
            )
        });
        let args = key_args(
            3,
            wanted
                .iter()
                .map(|(l, s, p)| (*l, Some(*s), Some(p.as_str()))),
        );
        let rows = self.run(text, &args);
        let mut out = HashMap::new();
        for row in rows {
            let at = micros(get(&row, "last_game_date"));
            let key = LedgerKey {
                at,
                id: get(&row, "last_game_key"),
            };
            out.insert(
                (
                    get(&row, "ledger_id"),
                    get(&row, "scope"),
                    get(&row, "player"),
                ),
                (standing_of(&row, at), key),
            );
        }
        out
    }

    /// [`Self::lock_scopes`] of one scope.
    pub fn lock_scope(&mut self, ledger: i32, scope: &str) {
        self.lock_scopes(&[(ledger, scope)]);
    }

    /// Each player's standing after the player's latest entry before `from`.
    pub fn standings_before(
        &mut self,
        ledger: i32,
        scope: &str,
        players: Vec<String>,
        from: &LedgerKey,
    ) -> HashMap<String, (Standing, LedgerKey)> {
        let rows = self.run(
            "SELECT e.* FROM unnest($3::text[]) AS u(player)
             CROSS JOIN LATERAL (
                 SELECT * FROM ledger_entries x
                 WHERE x.ledger_id = $1 AND x.scope = $2 AND x.player = u.player
                   AND (x.game_date, x.game_key) < ($4, $5)
                 ORDER BY x.player DESC, x.game_date DESC, x.game_key DESC LIMIT 1) e",
            &[
                ledger.into(),
                scope.into(),
                players.into(),
                timestamp(from.at).into(),
                from.id.as_str().into(),
            ],
        );
        by_player(rows, "game_date", "game_key")
    }

    /// The seeds of those of `players` that have one.
    pub fn seeds(
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
            let rows = self.run(
                "SELECT * FROM ledger_seeds WHERE ledger_id = $1 AND scope = $2",
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
        let rows = self.run(
            "SELECT s.* FROM unnest($3::text[]) AS u(player)
             CROSS JOIN LATERAL (
                 SELECT * FROM ledger_seeds x
                 WHERE x.ledger_id = $1 AND x.scope = $2 AND x.player = u.player LIMIT 1) s",
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
    /// in the plan costs its start-up in every game's statement).
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
                "SELECT s.* FROM ({rows}) AS u(ledger_id, scope)
                 CROSS JOIN LATERAL (
                     SELECT x.ledger_id, x.scope, x.ends_at, x.rating_pull, x.rd_floor FROM ledger_seasons x
                     WHERE x.ledger_id = u.ledger_id AND x.scope = u.scope) s"
            )
        });
        let args = key_args(2, scopes.iter().map(|(l, s)| (*l, Some(*s), None)));
        for r in self.run(text, &args) {
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

    /// The key of the first entry of a scope dated at or after `at`.
    pub fn first_entry_from(&mut self, ledger: i32, scope: &str, at: i64) -> Option<LedgerKey> {
        let rows = self.run(
            "SELECT game_date, game_key FROM ledger_entries
             WHERE ledger_id = $1 AND scope = $2 AND game_date >= $3
             ORDER BY game_date, game_key LIMIT 1",
            &[
                ledger.into(),
                scope.into(),
                timestamp(at.max(-210_866_803_200_000_000)).into(),
            ],
        );
        let row = rows.into_iter().next()?;
        Some(LedgerKey {
            at: micros(get(&row, "game_date")),
            id: get(&row, "game_key"),
        })
    }

    /// The key of a player's first entry in a scope.
    pub fn first_game(&mut self, ledger: i32, scope: &str, player: &str) -> Option<LedgerKey> {
        let rows = self.run(
            "SELECT game_date, game_key FROM ledger_entries
             WHERE ledger_id = $1 AND scope = $2 AND player = $3
             ORDER BY player, game_date, game_key LIMIT 1",
            &[ledger.into(), scope.into(), player.into()],
        );
        let row = rows.into_iter().next()?;
        Some(LedgerKey {
            at: micros(get(&row, "game_date")),
            id: get(&row, "game_key"),
        })
    }

    /// Deletes the entries of these (player, game) pairs of a scope; returns their players.
    pub fn delete_entries(
        &mut self,
        ledger: i32,
        scope: &str,
        pairs: &[(&str, &LedgerKey)],
    ) -> Vec<String> {
        if pairs.is_empty() {
            return Vec::new();
        }
        let players: Vec<&str> = pairs.iter().map(|p| p.0).collect();
        let dates: Vec<TimestampWithTimeZone> = pairs.iter().map(|p| timestamp(p.1.at)).collect();
        let keys: Vec<&str> = pairs.iter().map(|p| p.1.id.as_str()).collect();
        // Each entry by a probe of the primary key, then deleted by its tuple id: a generic plan
        // of a join would scan the scope.
        let rows = self.run(
            "DELETE FROM ledger_entries e
             WHERE e.ctid = ANY (ARRAY(
                 SELECT x.ctid FROM unnest($3::text[], $4::timestamptz[], $5::text[]) AS u(player, d, k)
                 CROSS JOIN LATERAL (
                     SELECT ctid FROM ledger_entries y
                     WHERE y.ledger_id = $1 AND y.scope = $2 AND y.player = u.player
                       AND y.game_date = u.d AND y.game_key = u.k LIMIT 1) x))
             RETURNING e.player",
            &[
                ledger.into(),
                scope.into(),
                players.into(),
                dates.into(),
                keys.into(),
            ],
        );
        rows.into_iter().map(|r| get(&r, "player")).collect()
    }

    /// Deletes every entry and standing of a ledger.
    pub fn clear(&mut self, ledger: i32) {
        for table in ["ledger_entries", "ledger_standings"] {
            self.run(
                &format!("DELETE FROM {table} WHERE ledger_id = $1"),
                &[ledger.into()],
            );
        }
    }

    /// Inserts the entries of a ledger's scope (or batches them: [`Writes::Batched`]); `game` gives
    /// a key's text as the games table writes it.
    pub fn insert_entries(
        &mut self,
        ledger: i32,
        scope: &str,
        entries: Vec<Entry>,
        game: &dyn Fn(&str) -> String,
        writes: Writes,
    ) {
        let rows = entries.into_iter().map(|entry| EntryRow {
            ledger,
            scope: scope.to_owned(),
            game: game(&entry.key.id),
            entry,
        });
        match writes {
            Writes::Batched => self.batch.entries.extend(rows),
            Writes::Rebuilt => self.rebuilt.entries.extend(rows),
            Writes::Now => Self::write_entries(rows.collect()),
        }
    }

    /// In the order of the table's key: each index page is visited once, not once per game.
    fn write_entries(rows: Vec<EntryRow>) {
        if rows.is_empty() {
            return;
        }
        let mut insert = BulkInsert::open("ledger_entries", &ENTRY_COLUMNS);
        for row in in_key_order(rows) {
            insert.push(row.values());
        }
        insert.finish();
    }

    /// Writes the standings of players with games (or batches them: [`Writes::Batched`]), and
    /// removes those of players left without.
    pub fn write_standings(
        &mut self,
        ledger: i32,
        scope: &str,
        rows: StandingRows,
        without_games: Vec<String>,
        writes: Writes,
    ) {
        // (a rebuild's replacement removes the rows of players it has no row for)
        if !without_games.is_empty() && writes != Writes::Rebuilt {
            self.run(
                "DELETE FROM ledger_standings WHERE ledger_id = $1 AND scope = $2 AND player = ANY ($3)",
                &[ledger.into(), scope.into(), without_games.into()],
            );
        }
        let rows = rows.into_iter().map(|(player, standing, key)| StandingRow {
            ledger,
            scope: scope.to_owned(),
            player,
            standing,
            key,
        });
        match writes {
            Writes::Batched => return self.batch.standings.extend(rows),
            Writes::Rebuilt => return self.rebuilt.standings.extend(rows),
            Writes::Now => {}
        }
        STANDINGS.write(
            rows,
            |r| Cells::values(&r),
            |sql, args| {
                run(self.client, sql, args);
            },
        );
    }

    /// Makes a rebuilt ledger's rows of `scopes` (locked) those of the replays written with
    /// [`Writes::Rebuilt`]: rows already equal stay, the others are replaced
    /// ([`crate::bulk_replace`]).
    pub fn replace_rebuilt(&mut self, ledger: i32, scopes: &BTreeSet<String>) {
        let rebuilt = std::mem::take(&mut self.rebuilt);
        let entries: Vec<EntryRow> = in_key_order(rebuilt.entries).collect();
        let e = replace_ledger_rows("ledger_entries", &ENTRY_COLUMNS, 5, ledger, scopes, entries);
        let mut standings = rebuilt.standings;
        standings.sort_unstable_by(|a, b| (&a.scope, &a.player).cmp(&(&b.scope, &b.player)));
        let s = replace_ledger_rows(
            "ledger_standings",
            &STANDINGS_COLUMNS,
            3,
            ledger,
            scopes,
            standings,
        );
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
    }

    /// Writes the batched rows: one statement per table for every ledger and scope.
    pub fn flush(&mut self) {
        let mut batch = std::mem::take(&mut self.batch);
        Self::write_entries(batch.entries);
        batch.standings.sort_unstable_by(|a, b| {
            (a.ledger, &a.scope, &a.player).cmp(&(b.ledger, &b.scope, &b.player))
        });
        STANDINGS.write(
            batch.standings,
            |r| Cells::values(&r),
            |sql, args| {
                run(self.client, sql, args);
            },
        );
    }
}

/// The writers' locks of the ledgers: one row per (ledger, scope).
pub(crate) static SCOPE_LOCKS: LockTable = LockTable::new("ledger_scopes", &["ledger_id", "scope"]);

static LOOKUP_TEXTS: Texts = texts();
static SEASON_TEXTS: Texts = texts();

/// Entries in the order of the table's key (ledger, scope, player, game), so that each index page
/// is visited once, not once per game. A replay makes each player's entries in game order: a sort
/// of integers (ledger, ranks of the scope and player texts, position) keeps it, instead of
/// comparing texts of rows scattered in memory.
fn in_key_order(rows: Vec<EntryRow>) -> impl Iterator<Item = EntryRow> {
    let texts: Vec<&str> = rows
        .iter()
        .flat_map(|r| [r.scope.as_str(), r.entry.player.as_str()])
        .collect();
    let rank = pg_rating_core::text_order::ranks(&texts);
    let mut order: Vec<u128> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let ledger = u128::from(r.ledger as u32 ^ 0x8000_0000);
            ledger << 96
                | u128::from(rank[2 * i]) << 64
                | u128::from(rank[2 * i + 1]) << 32
                | i as u128
        })
        .collect();
    order.sort_unstable();
    let mut rows: Vec<Option<EntryRow>> = rows.into_iter().map(Some).collect();
    order.into_iter().map(move |k| {
        rows[(k & 0xffff_ffff) as usize]
            .take()
            .unwrap_or_else(|| internal("an entry written twice"))
    })
}

/// Rows waiting for [`LedgerStore::flush`].
#[derive(Default)]
struct Batch {
    entries: Vec<EntryRow>,
    standings: Vec<StandingRow>,
}

struct EntryRow {
    ledger: i32,
    scope: String,
    game: String,
    entry: Entry,
}

impl Cells<24> for EntryRow {
    fn cells(&self) -> [Cell<'_>; 24] {
        let e = &self.entry;
        let head = [
            Cell::Int(Some(self.ledger)),
            Cell::Text(Some(&self.scope)),
            Cell::Text(Some(&e.player)),
            Cell::Time(e.key.at),
            Cell::Text(Some(&e.key.id)),
            Cell::Text(Some(&self.game)),
            Cell::Text(Some(&e.opponent)),
            Cell::Float(Some(e.score)),
            Cell::Float(Some(e.expected)),
            Cell::Float(Some(e.before.state.rating)),
            Cell::Float(e.before.state.rd),
            Cell::Float(e.before.state.volatility),
        ];
        with_standing_cells(head, &e.after)
    }
}

struct StandingRow {
    ledger: i32,
    scope: String,
    player: String,
    standing: Standing,
    key: LedgerKey,
}

impl Cells<17> for StandingRow {
    fn cells(&self) -> [Cell<'_>; 17] {
        let head = [
            Cell::Int(Some(self.ledger)),
            Cell::Text(Some(&self.scope)),
            Cell::Text(Some(&self.player)),
            Cell::Time(self.key.at),
            Cell::Text(Some(&self.key.id)),
        ];
        with_standing_cells(head, &self.standing)
    }
}

/// The columns of a standing, in entries (after the game) and standings rows alike.
const STANDING_COLUMNS: [Column; 12] = [
    ("rating", Kind::Float),
    ("rd", Kind::Float),
    ("volatility", Kind::Float),
    ("games", Kind::Int),
    ("wins", Kind::Int),
    ("draws", Kind::Int),
    ("losses", Kind::Int),
    ("peak", Kind::Float),
    ("streak", Kind::Int),
    ("best_streak", Kind::Int),
    ("opponents_sum", Kind::Float),
    ("score_sum", Kind::Float),
];

/// A row's first cells followed by those of a standing, in the order of [`STANDING_COLUMNS`].
fn with_standing_cells<'a, const N: usize, const M: usize>(
    head: [Cell<'a>; N],
    s: &Standing,
) -> [Cell<'a>; M] {
    let tail = [
        Cell::Float(Some(s.state.rating)),
        Cell::Float(s.state.rd),
        Cell::Float(s.state.volatility),
        Cell::Int(Some(s.games)),
        Cell::Int(Some(s.wins)),
        Cell::Int(Some(s.draws)),
        Cell::Int(Some(s.losses)),
        Cell::Float(Some(s.peak)),
        Cell::Int(Some(s.streak)),
        Cell::Int(Some(s.best_streak)),
        Cell::Float(Some(s.opponents_sum)),
        Cell::Float(Some(s.score_sum)),
    ];
    if N + tail.len() != M {
        internal("a row's cells and its columns differ in number");
    }
    std::array::from_fn(|i| if i < N { head[i] } else { tail[i - N] })
}

const fn with_standing<const N: usize, const M: usize>(head: [Column; N]) -> [Column; M] {
    let mut out = [("", Kind::Float); M];
    let mut i = 0;
    while i < N {
        out[i] = head[i];
        i += 1;
    }
    while i < M {
        out[i] = STANDING_COLUMNS[i - N];
        i += 1;
    }
    out
}

const ENTRY_COLUMNS: [Column; 24] = with_standing([
    ("ledger_id", Kind::Int),
    ("scope", Kind::Text),
    ("player", Kind::Text),
    ("game_date", Kind::Time),
    ("game_key", Kind::Text),
    ("game", Kind::Text),
    ("opponent", Kind::Text),
    ("score", Kind::Float),
    ("expected", Kind::Float),
    ("rating_before", Kind::Float),
    ("rd_before", Kind::Float),
    ("volatility_before", Kind::Float),
]);

const STANDINGS_COLUMNS: [Column; 17] = with_standing([
    ("ledger_id", Kind::Int),
    ("scope", Kind::Text),
    ("player", Kind::Text),
    ("last_game_date", Kind::Time),
    ("last_game_key", Kind::Text),
]);

static STANDINGS: RowWriter = RowWriter::new(
    "ledger_standings",
    &STANDINGS_COLUMNS,
    &["ledger_id", "scope", "player"],
);

/// The settings of a `ledgers` row.
pub fn settings_of(row: &SpiHeapTupleData<'_>) -> LedgerSettings {
    LedgerSettings {
        rating_system: get(row, "rating_system"),
        starting_rating: get(row, "starting_rating"),
        k_factor: get(row, "k_factor"),
        starting_rd: get(row, "starting_rd"),
        starting_volatility: get(row, "starting_volatility"),
        tau: get(row, "tau"),
        rating_period: opt::<Interval>(row, "rating_period").map(interval_micros),
        max_change: opt(row, "max_change"),
        rating_floor: opt(row, "rating_floor"),
        provisional_games: get(row, "provisional_games"),
        provisional_rd: opt(row, "provisional_rd"),
    }
}

/// An interval's length in microseconds as PostgreSQL orders intervals (30-day months).
pub fn interval_micros(i: Interval) -> i64 {
    let core = pg_rating_core::clock::Interval {
        months: i.months(),
        days: i.days(),
        micros: i.micros(),
    };
    core.ordering_key()
        .clamp(i64::MIN as i128, i64::MAX as i128) as i64
}

/// The settings of a `ledgers` row given to a trigger.
pub fn settings_of_tuple(row: &PgHeapTuple<'_, impl pgrx::WhoAllocated>) -> LedgerSettings {
    use crate::accounts::field;
    let number = |name: &str| field::<f64>(row, name).unwrap_or(f64::NAN);
    LedgerSettings {
        rating_system: field::<String>(row, "rating_system").unwrap_or_default(),
        starting_rating: number("starting_rating"),
        k_factor: number("k_factor"),
        starting_rd: number("starting_rd"),
        starting_volatility: number("starting_volatility"),
        tau: number("tau"),
        rating_period: field::<Interval>(row, "rating_period").map(interval_micros),
        max_change: field(row, "max_change"),
        rating_floor: field(row, "rating_floor"),
        provisional_games: field(row, "provisional_games").unwrap_or(0),
        provisional_rd: field(row, "provisional_rd"),
    }
}

/// A type's SQL name, for messages.
pub fn type_name(t: pg_sys::Oid) -> String {
    // SAFETY: a catalog lookup that returns a palloc'd name.
    unsafe {
        std::ffi::CStr::from_ptr(pg_sys::format_type_be(t))
            .to_string_lossy()
            .into_owned()
    }
}
