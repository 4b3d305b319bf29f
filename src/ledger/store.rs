//! The ledgers' store: what the writers read and write through SPI, by column name, apart from a
//! ledger's history (`super::tables`): the ledgers and their attachments, the games of an attached
//! table (read as its owner), the scopes' locks, and the attachments' triggers.

use std::collections::BTreeSet;

use pg_rating_core::ledger::settings_row::{Kind, Value};
use pg_rating_core::ledger::{LedgerKey, LedgerSettings};
use pgrx::datum::DatumWithOid;
use pgrx::prelude::*;
use pgrx::spi::{SpiClient, SpiHeapTupleData, SpiTupleTable};
use pgrx::PgSqlErrorCode;

use super::attachment::{Attachment, GameRow, Multiplayer, ParticipantRow, Read};
use super::internal;
use super::tables::Batch;
use crate::compat::{
    attachment_since_0_13, ledger_since_0_13, since_0_13, KEPT_IN, LEDGER_COLUMNS_0_13,
};
use crate::error::{raise, raise_core};
use crate::spi::{column as get, nullable as opt, ordinals, InPlace, InPlaceKind, InPlaceRow};
use crate::types::to_core;
use crate::writer_lock::{snapshot_per_transaction, LockTable};

/// A `ledgers` row as the writer needs it.
pub struct Ledger {
    pub id: i32,
    pub name: String,
    pub owner: pg_sys::Oid,
    pub settings: LedgerSettings,
    /// The channel the writers notify with each changed player's standing (`notify_channel`).
    pub notify_channel: Option<String>,
}

pub(super) fn micros(t: TimestampWithTimeZone) -> i64 {
    t.into_inner()
}

/// The key of a row's game: its columns `date` and `key`.
pub(super) fn key_of(row: &SpiHeapTupleData<'_>, date: &str, key: &str) -> LedgerKey {
    LedgerKey {
        at: micros(get(row, date)),
        id: get(row, key),
    }
}

pub use crate::types::timestamp;

/// An attachment of a `ledger_attachments` row (joined with the table's `relowner`).
fn attachment_of(row: &SpiHeapTupleData<'_>) -> Attachment {
    let text = |name: &str| opt::<String>(row, name).unwrap_or_default();
    let multiplayer = opt::<String>(row, "multiplayer_rule").map(|rule| Multiplayer {
        player_column: text("white_column"),
        placement_column: text("placement_column"),
        higher_is_better: opt(row, "higher_is_better").unwrap_or(false),
        rule: pg_rating_core::ledger::MultiplayerRule::parse(&rule).unwrap_or_else(|e| internal(e)),
    });
    let (ledger_id, table, key_type) = (
        get(row, "ledger_id"),
        get(row, "games"),
        get(row, "key_type"),
    );
    Attachment {
        ledger_id,
        table,
        table_name: super::attachment::games_name(table, ledger_id),
        owner: get(row, "table_owner"),
        key_column: get(row, "key_column"),
        key_type,
        key_kind: super::attachment::key_kind(key_type),
        date_column: get(row, "date_column"),
        white_column: text("white_column"),
        black_column: text("black_column"),
        result_column: text("result_column"),
        result_map: opt::<pgrx::JsonB>(row, "result_map")
            .map(|j| super::attachment::parse_result_map(&j.0)),
        scope_column: opt(row, "scope_column"),
        filter: opt(row, "filter"),
        multiplayer,
        rated_column: opt(row, "rated_column"),
        related: opt::<Vec<pg_sys::Oid>>(row, "related").unwrap_or_default(),
        paths: None,
    }
}

/// A `ledgers` row (its columns as [`LEDGER_COLUMNS`] selects them).
fn ledger_of(row: &SpiHeapTupleData<'_>) -> Ledger {
    Ledger {
        id: get(row, "id"),
        name: get(row, "name"),
        owner: get(row, "owner"),
        settings: settings_of(row),
        notify_channel: opt(row, "notify_channel"),
    }
}

/// The columns of `ledgers` the writers read (of `l`, and of `n`: [`ledger_since_0_13`]; those
/// 0.13.0 added are NULL in an older schema, which `LedgerSettings::from_columns` reads as before).
const LEDGER_COLUMNS: &str =
    "l.id, l.name, l.owner::oid AS owner, l.rating_system, l.starting_rating, l.k_factor,
     l.starting_rd, l.starting_volatility, l.tau, l.rating_period, l.max_change, l.rating_floor,
     l.provisional_games, l.provisional_rd, n.notify_channel,
     n.glicko2_rule, n.min_rd, n.max_rd, n.max_volatility, n.volatility_epsilon, n.rd_growth,
     n.max_change_policy, n.max_period_change, n.change_period";

/// The columns of `ledger_attachments` (of `a`, joined with the table's `pg_class` row `c`) that
/// make an [`Attachment`].
const ATTACHMENT_COLUMNS: &str = "a.ledger_id, a.games::oid AS games, c.relowner AS table_owner,
     a.key_column::text AS key_column, a.key_type::oid AS key_type, a.placement_column::text AS placement_column,
     a.higher_is_better, a.multiplayer_rule, a.date_column::text AS date_column,
     a.white_column::text AS white_column, a.black_column::text AS black_column,
     a.result_column::text AS result_column, a.result_map, a.scope_column::text AS scope_column, a.filter,
     an.rated_column::text AS rated_column, an.related::oid[] AS related";

/// The ordinals of the columns a read of games selects (see `Attachment::columns`).
fn game_ordinals(rows: &SpiTupleTable<'_>) -> [usize; 8] {
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
            "broken",
        ],
    )
}

/// What each column of [`game_ordinals`] holds, in its order.
const GAME_KINDS: [(InPlaceKind, &str); 8] = [
    (InPlaceKind::Text, "scope"),
    (InPlaceKind::Time, "played_at"),
    (InPlaceKind::Text, "key"),
    (InPlaceKind::Text, "white"),
    (InPlaceKind::Text, "black"),
    (InPlaceKind::Text, "result"),
    (InPlaceKind::Bool, "counted"),
    (InPlaceKind::Bool, "broken"),
];

/// The columns of [`game_ordinals`] as an [`InPlace`] read opens them.
fn game_columns(columns: [usize; 8]) -> Vec<(usize, InPlaceKind, &'static str)> {
    columns
        .into_iter()
        .zip(GAME_KINDS)
        .map(|(ordinal, (kind, name))| (ordinal, kind, name))
        .collect()
}

/// A game read from an attached table (`columns` from [`game_ordinals`]): what the ledger reads of
/// it, checked by the core.
fn game_of(att: &Attachment, row: &InPlaceRow<'_>, columns: [usize; 8]) -> GameRow {
    let [scope, played_at, key, white, black, result, counted, broken] = columns;
    let read = Read {
        scope: row
            .text(scope)
            .unwrap_or_else(|| internal("column scope is NULL")),
        played_at: row.time(played_at),
        key: row.text(key),
        white: row.text(white),
        black: row.text(black),
        result: row.text(result),
        placement: None,
        // (a condition that is NULL is not true)
        counted: row.bool(counted).unwrap_or(false),
        broken: row.bool(broken).unwrap_or(false),
    };
    att.game(read).unwrap_or_else(|e| raise_core(&e))
}

pub struct LedgerStore<'c, 'conn> {
    pub(super) client: &'c mut SpiClient<'conn>,
    pub(super) batch: Batch,
    /// The (ledger, scope, player) whose standings were written, of ledgers with a
    /// `notify_channel`, not notified yet ([`Self::notify`]).
    pub(super) notices: Vec<(i32, String, String)>,
    /// The stored entries a replay may keep (`super::unchanged`).
    pub(super) taken: super::unchanged::Taken,
}

impl<'c, 'conn> LedgerStore<'c, 'conn> {
    pub fn new(client: &'c mut SpiClient<'conn>) -> Self {
        LedgerStore {
            client,
            batch: Batch::default(),
            notices: Vec::new(),
            taken: Default::default(),
        }
    }

    /// Runs a statement that only reads (see [`crate::spi::read`]).
    pub(super) fn read(&mut self, sql: &str, args: &[DatumWithOid]) -> SpiTupleTable<'conn> {
        crate::spi::read(self.client, sql, args)
    }

    /// Runs a statement that writes or locks (see [`crate::spi::write`]).
    pub(super) fn write(&mut self, sql: &str, args: &[DatumWithOid]) -> SpiTupleTable<'conn> {
        crate::spi::write(self.client, sql, args)
    }

    /// Ledgers as read, or (`to_write`) share-locked until commit: a writer of a ledger's rows
    /// reads its settings so, because a change of the settings rebuilds the ledger under the
    /// locks of its scopes, and a writer that read the settings before waiting for those locks
    /// would write by the old settings after the rebuild. Locked, a writer waits for the change
    /// and reads the new settings (a change waits for the writers); under REPEATABLE READ a
    /// writer whose snapshot missed the change gets 40001. A writer reads the settings in force
    /// (`ledgers_in_force`, see `super::copies`); otherwise `ledgers` is read, as the role that acts.
    fn ledgers_where(&mut self, condition: &str, arg: DatumWithOid, to_write: bool) -> Vec<Ledger> {
        let sql = if to_write {
            super::for_writers(&format!(
                "SELECT {LEDGER_COLUMNS} FROM @ledgers@ l {ledger_since}
                 WHERE {condition} ORDER BY l.id FOR SHARE OF l",
                ledger_since = ledger_since_0_13()
            ))
        } else {
            format!(
                "SELECT {LEDGER_COLUMNS} FROM @extschema@.ledgers l {ledger_since}
                 WHERE {condition} ORDER BY l.id",
                ledger_since = ledger_since_0_13()
            )
        };
        let rows = if to_write {
            self.write(&sql, &[arg])
        } else {
            self.read(&sql, &[arg])
        };
        rows.into_iter().map(|row| ledger_of(&row)).collect()
    }

    /// A ledger by id, share-locked to write its rows (see [`Self::ledgers_where`]).
    pub fn ledger_to_write(&mut self, id: i32) -> Option<Ledger> {
        self.ledgers_where("id = $1", id.into(), true).pop()
    }

    /// A ledger by id, not locked.
    pub fn ledger_by_id(&mut self, id: i32) -> Option<Ledger> {
        self.ledgers_where("id = $1", id.into(), false).pop()
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
    /// or `None` for the engine's own tables (see [`crate::compat::KEPT_IN`]).
    pub fn kept_in(&mut self, ledger_id: i32) -> Option<String> {
        self.read(
            &format!("SELECT {KEPT_IN} AS kept_in FROM @extschema@.ledgers l WHERE l.id = $1"),
            &[ledger_id.into()],
        )
        .next()
        .and_then(|row| opt::<String>(&row, "kept_in"))
    }

    /// 0A000 for a ledger whose history a client keeps: the ledgers' functions neither attach,
    /// rebuild, seed nor read it (its client's triggers write it, from its client's tables).
    pub fn refuse_kept_elsewhere(&mut self, l: &Ledger) {
        if let Some(table) = self.kept_in(l.id) {
            let ledger = l.name.clone();
            raise_core(&pg_rating_core::ledger::kept::KeptElsewhere { ledger, table });
        }
    }

    /// A ledger's attachment, its paths' joins found in the catalog.
    pub fn attachment(&mut self, ledger_id: i32) -> Option<Attachment> {
        let mut att = self.attachment_as_recorded(ledger_id)?;
        self.resolve_paths(&mut att);
        Some(att)
    }

    /// A ledger's attachment as recorded, its paths not looked up (a detach works on an
    /// attachment whose foreign keys were dropped since).
    pub fn attachment_as_recorded(&mut self, ledger_id: i32) -> Option<Attachment> {
        self.attachments_where("a.ledger_id = $1", ledger_id.into())
            .pop()
    }

    /// Whether a table has ledgers attached.
    pub fn has_ledgers(&mut self, table: pg_sys::Oid) -> bool {
        !self
            .read(
                "SELECT 1 AS found FROM @extschema@.ledger_attachments a WHERE a.games = $1",
                &[table.into()],
            )
            .is_empty()
    }

    /// The ledgers attached to those of `tables` that are gone, each with the related tables of
    /// its paths (a dropped table's attachment would otherwise stay, and follow a table that
    /// reuses its oid).
    pub fn attached_to_dropped(
        &mut self,
        tables: Vec<pg_sys::Oid>,
    ) -> Vec<(i32, Vec<pg_sys::Oid>)> {
        self.read(
            &format!(
                "SELECT a.ledger_id, COALESCE(an.related::pg_catalog.oid[], '{{}}'::pg_catalog.oid[]) AS related
                 FROM @extschema@.ledger_attachments a {attachment_since}
                 WHERE a.games OPERATOR(pg_catalog.=) ANY ($1)
                   AND NOT EXISTS (SELECT FROM pg_catalog.pg_class c
                                   WHERE c.oid OPERATOR(pg_catalog.=) a.games)
                 ORDER BY a.ledger_id",
                attachment_since = attachment_since_0_13()
            ),
            &[tables.into()],
        )
        .map(|row| {
            (
                crate::spi::column(&row, "ledger_id"),
                crate::spi::column(&row, "related"),
            )
        })
        .collect()
    }

    /// The attachment of `ledger` when its table is gone ([`LedgerStore::attached_to_dropped`]).
    pub fn attachment_to_a_gone_table(&mut self, ledger: i32) -> Vec<(i32, Vec<pg_sys::Oid>)> {
        let tables: Vec<pg_sys::Oid> = self
            .read(
                "SELECT a.games::pg_catalog.oid AS games FROM @extschema@.ledger_attachments a
                 WHERE a.ledger_id OPERATOR(pg_catalog.=) $1",
                &[ledger.into()],
            )
            .map(|row| crate::spi::column(&row, "games"))
            .collect();
        match tables.is_empty() {
            true => Vec::new(),
            false => self.attached_to_dropped(tables),
        }
    }

    /// A ledger's name (for messages; its id when there is no such ledger).
    pub fn ledger_name(&mut self, id: i32) -> String {
        self.read(
            "SELECT l.name FROM @extschema@.ledgers l WHERE l.id = $1",
            &[id.into()],
        )
        .next()
        .and_then(|r| opt::<String>(&r, "name"))
        .unwrap_or_else(|| id.to_string())
    }

    /// Whether `role` may read a column of a table.
    pub fn may_select(&mut self, role: pg_sys::Oid, table: pg_sys::Oid, column: &str) -> bool {
        self.read(
            "SELECT pg_catalog.has_column_privilege($1, $2, $3, 'SELECT') AS ok",
            &[role.into(), table.into(), column.into()],
        )
        .next()
        .and_then(|r| opt::<bool>(&r, "ok"))
        .unwrap_or(false)
    }

    /// The ledgers attached to a table and their attachments, by ledger id, to write their rows.
    /// One statement: a game's trigger runs it for every statement.
    ///
    /// Under READ COMMITTED the ledgers are read as they are: the statement that fired the trigger
    /// holds its table's ROW EXCLUSIVE lock since before this read, and a change of a ledger's
    /// settings rebuilds it under that table's SHARE ROW EXCLUSIVE lock (`rebuild_changed_ledger`),
    /// so a writer either read the settings before the change waited for it, or waited for the
    /// change and reads the new ones. The lock manager queues a change ahead of the writers that
    /// come after it; a row lock here would let every new writer in ahead of it. Under REPEATABLE
    /// READ the ledgers are share-locked (see [`Self::ledgers_where`]): a writer whose snapshot
    /// missed a change gets 40001.
    pub fn ledgers_on(&mut self, table: pg_sys::Oid) -> Vec<(Ledger, Attachment)> {
        self.ledgers_where_attached("a.games = $1", table)
    }

    /// The ledgers whose paths reach a related table, as [`Self::ledgers_on`] reads them.
    pub fn ledgers_reaching(&mut self, table: pg_sys::Oid) -> Vec<(Ledger, Attachment)> {
        self.ledgers_where_attached(
            "$1::pg_catalog.regclass OPERATOR(pg_catalog.=) ANY (an.related)",
            table,
        )
    }

    fn ledgers_where_attached(
        &mut self,
        condition: &str,
        table: pg_sys::Oid,
    ) -> Vec<(Ledger, Attachment)> {
        let text = super::for_writers(&format!(
            "SELECT {LEDGER_COLUMNS}, {ATTACHMENT_COLUMNS}
             FROM @extschema@.ledger_attachments a {attachment_since} JOIN @ledgers@ l ON l.id = a.ledger_id
             {ledger_since} JOIN pg_class c ON c.oid = a.games
             WHERE {condition} ORDER BY a.ledger_id{}",
            if snapshot_per_transaction() {
                " FOR SHARE OF l"
            } else {
                ""
            }, ledger_since = ledger_since_0_13(), attachment_since = attachment_since_0_13()));
        let rows = self.read(&text, &[table.into()]);
        let found: Vec<_> = rows
            .into_iter()
            .map(|row| (ledger_of(&row), attachment_of(&row)))
            .collect();
        found
            .into_iter()
            .map(|(l, mut att)| {
                self.resolve_paths(&mut att);
                (l, att)
            })
            .collect()
    }

    fn attachments_where(&mut self, condition: &str, arg: DatumWithOid) -> Vec<Attachment> {
        let rows = self.read(
            &format!(
                "SELECT {ATTACHMENT_COLUMNS} FROM @extschema@.ledger_attachments a {attachment_since}
                 JOIN pg_class c ON c.oid = a.games WHERE {condition}", attachment_since = attachment_since_0_13()),
            &[arg],
        );
        rows.into_iter().map(|row| attachment_of(&row)).collect()
    }

    /// Whether some attachment other than `ledger`'s reaches a related table.
    pub fn related_elsewhere(&mut self, table: pg_sys::Oid, ledger: i32) -> bool {
        !self
            .read(
                &format!(
                    "SELECT 1 AS found FROM @extschema@.ledger_attachments a {attachment_since}
                     WHERE $1::pg_catalog.regclass OPERATOR(pg_catalog.=) ANY (an.related)
                       AND a.ledger_id OPERATOR(pg_catalog.<>) $2",
                    attachment_since = attachment_since_0_13()
                ),
                &[table.into(), ledger.into()],
            )
            .is_empty()
    }

    /// Finds the joins of an attachment's paths in the catalog: each step but the last the
    /// referencing column of a single-column foreign key (42703 for a missing column, 42830 for
    /// no such key, 0A000 for a key of several columns or a partitioned or inherited table).
    pub fn resolve_paths(&mut self, att: &mut Attachment) {
        let paths = att.column_paths().unwrap_or_else(|e| raise_core(&e));
        if paths.iter().all(|p| p.len() == 1) {
            att.paths = None;
            return;
        }
        let plan = pg_rating_core::ledger::paths::plan(&paths);
        let mut joins: Vec<super::attachment::ResolvedJoin> = Vec::new();
        for join in &plan.joins {
            let parent = if join.parent == pg_rating_core::ledger::paths::ROOT {
                att.table
            } else {
                joins
                    .iter()
                    .find(|j| j.join.alias == join.parent)
                    .map(|j| j.table)
                    .unwrap_or_else(|| internal("a join before its parent"))
            };
            joins.push(self.foreign_key(parent, join, att.table));
        }
        att.paths = Some(super::attachment::Resolved { plan, joins, paths });
    }

    /// The single-column foreign key of `parent` whose referencing column is `join.via`.
    fn foreign_key(
        &mut self,
        parent: pg_sys::Oid,
        join: &pg_rating_core::ledger::paths::Join,
        games: pg_sys::Oid,
    ) -> super::attachment::ResolvedJoin {
        let label = table_label(parent);
        self.column_type_of(parent, &join.via, "a column path");
        let rows = self.read(
            include_str!("../../sql/glue/foreign_key.sql"),
            &[parent.into(), join.via.as_str().into()],
        );
        let found: Vec<ForeignKeyRow> = rows
            .into_iter()
            .map(|r| {
                (
                    get(&r, "target"),
                    get(&r, "columns"),
                    opt(&r, "refcol"),
                    opt(&r, "pf_op"),
                    opt(&r, "pp_op"),
                )
            })
            .collect();
        let keys: Vec<_> = found.iter().map(|f| (f.0, f.1)).collect();
        let step = pg_rating_core::ledger::attachment::step_key(&keys, games, &join.via, &label);
        let first = &found[step.unwrap_or_else(|e| raise_core(&e))];
        let target = first.0;
        if let Some((what, why)) = self.not_attachable(target) {
            raise(
                PgSqlErrorCode::ERRCODE_FEATURE_NOT_SUPPORTED,
                format!(
                    "column path: column \"{}\" of {label} references {}: {what} ({why}); a path \
                     goes through plain tables",
                    join.via,
                    table_label(target)
                ),
            );
        }
        let text = |v: &Option<String>| {
            v.clone()
                .unwrap_or_else(|| internal("a foreign key without its column or operators"))
        };
        super::attachment::ResolvedJoin {
            join: join.clone(),
            table: target,
            table_name: table_label(target),
            refcol: text(&first.2),
            pf_op: text(&first.3),
            pp_op: text(&first.4),
        }
    }

    /// The type of a column of any table (42703 naming the table when there is none).
    pub fn column_type_of(&mut self, table: pg_sys::Oid, column: &str, what: &str) -> pg_sys::Oid {
        type_of_column(table, column, what, || table_label(table))
    }

    /// Runs a read of an attached table as the table's owner, in a security-restricted operation.
    fn select_as_owner(
        &mut self,
        att: &Attachment,
        sql: &str,
        args: &[DatumWithOid],
    ) -> SpiTupleTable<'conn> {
        // SAFETY: a catalog lookup by oid.
        let schema = unsafe { pg_sys::get_rel_namespace(att.table) };
        let _as_owner = crate::security::RunAs::table_owner(att.owner, schema);
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
        let mut games = Vec::with_capacity(rows.len());
        // SAFETY: `rows` is the result of the statement just run.
        let mut read = unsafe { InPlace::open(&rows, &game_columns(columns)) };
        read.for_each(|row| games.push(game_of(att, row, columns)));
        games
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
        let mut read_columns = game_columns(columns);
        read_columns.push((part, InPlaceKind::Int, "part"));
        // SAFETY: `rows` is the result of the statement just run.
        let mut read = unsafe { InPlace::open(&rows, &read_columns) };
        read.for_each(|row| {
            let i = row
                .int(part)
                .unwrap_or_else(|| internal("column part is NULL"));
            let i = usize::try_from(i)
                .ok()
                .filter(|&i| i < atts.len())
                .unwrap_or_else(|| internal(format!("part {i}")));
            games[i].push(game_of(atts[i], row, columns));
        });
        games
    }

    /// The owner of a table.
    pub fn table_owner(&mut self, table: pg_sys::Oid) -> pg_sys::Oid {
        let rows = self.read(
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

    /// The type of a column of the games table `table` (42703 when there is none).
    pub fn column_type(&mut self, table: pg_sys::Oid, column: &str, what: &str) -> pg_sys::Oid {
        type_of_column(table, column, what, || "the games table".into())
    }

    /// Records an attachment. One without paths or rated column is written as before 0.13.0, so
    /// that the library of 0.13.0 attaches in a schema not updated yet (compat: schemas
    /// 0.3.0-0.12.0, as [`crate::compat::attachment_since_0_13`]; can go after 0.12.0).
    pub fn insert_attachment(&mut self, att: &Attachment, result_map: Option<pgrx::JsonB>) {
        let multi = att.multiplayer.as_ref();
        let nonempty = |s: &str| (!s.is_empty()).then(|| s.to_owned());
        let rule = multi.map(|m| m.rule.name());
        let mut values: Vec<(&str, DatumWithOid)> = vec![
            ("ledger_id", att.ledger_id.into()),
            ("games", att.table.into()),
            ("key_column", att.key_column.as_str().into()),
            ("key_type", att.key_type.into()),
            ("date_column", att.date_column.as_str().into()),
            ("white_column", att.white_column.as_str().into()),
            ("black_column", nonempty(&att.black_column).into()),
            ("result_column", nonempty(&att.result_column).into()),
            ("result_map", result_map.into()),
            ("scope_column", att.scope_column.as_deref().into()),
            ("filter", att.filter.as_deref().into()),
            (
                "placement_column",
                multi.map(|m| m.placement_column.clone()).into(),
            ),
            ("higher_is_better", multi.map(|m| m.higher_is_better).into()),
            ("multiplayer_rule", rule.into()),
        ];
        if att.rated_column.is_some() || !att.related.is_empty() {
            values.push(("rated_column", att.rated_column.as_deref().into()));
            values.push(("related", att.related.clone().into()));
        }
        // each column's value is its parameter of the same name (oids sent as oids)
        let cast = |c: &str| match c {
            "games" => "::oid::regclass",
            "key_type" => "::oid::regtype",
            "related" => "::oid[]::regclass[]",
            _ => "",
        };
        let columns: Vec<&str> = values.iter().map(|(c, _)| *c).collect();
        let params: Vec<String> = columns.iter().map(|c| format!("${c}{}", cast(c))).collect();
        let (sql, args) = crate::spi::named(
            &format!(
                "INSERT INTO @extschema@.ledger_attachments ({}) VALUES ({})",
                columns.join(", "),
                params.join(", ")
            ),
            values,
        );
        self.write(&sql, &args);
    }

    /// Deletes everything derived of a deleted ledger.
    pub fn forget(&mut self, ledger: i32) {
        self.clear(ledger);
        self.write(
            "DELETE FROM @extschema@.ledger_scopes WHERE ledger_id = $1",
            &[ledger.into()],
        );
        SCOPE_LOCKS.forget_held();
    }

    pub fn delete_attachment(&mut self, ledger: i32) {
        self.write(
            "DELETE FROM @extschema@.ledger_attachments WHERE ledger_id = $1",
            &[ledger.into()],
        );
    }

    /// Why `table` cannot have ledgers (what it is, why that matters): it is partitioned, has
    /// inheritance children or is one, or is temporary; `None` for a plain table.
    pub fn not_attachable(&mut self, table: pg_sys::Oid) -> Option<(&'static str, &'static str)> {
        let row = self
            .read(
                "SELECT c.relkind::text AS kind,
                        EXISTS (SELECT FROM pg_catalog.pg_inherits i WHERE i.inhparent = c.oid) AS parent,
                        EXISTS (SELECT FROM pg_catalog.pg_inherits i WHERE i.inhrelid = c.oid) AS child,
                        c.relpersistence = 't' AS temporary
                 FROM pg_catalog.pg_class c WHERE c.oid = $1",
                &[table.into()],
            )
            .next()?;
        let kind: String = get(&row, "kind");
        pg_rating_core::ledger::attachment::not_attachable(
            &kind,
            get(&row, "parent"),
            get(&row, "child"),
            get(&row, "temporary"),
        )
    }

    /// Whether `table` has a trigger of that name.
    pub fn has_trigger(&mut self, table: pg_sys::Oid, name: &str) -> bool {
        let rows = self.read(
            "SELECT 1 AS found FROM pg_trigger WHERE tgrelid = $1 AND tgname = $2",
            &[table.into(), name.into()],
        );
        !rows.is_empty()
    }

    /// The schema pg_rating is installed in.
    pub fn extension_schema(&mut self) -> String {
        let rows = self.read(
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

    /// The games of `keys` (ledger keys) as the ledger rated them, from its entries: what the old
    /// rows of broken paths were rated with (see [`GameRow::broken`]). Each player's entry gives
    /// the game's scope, date and players; the first player is white (`white_first` puts the
    /// one named first, to compare with a row as it is now), both scores 0 a double loss.
    pub fn rated_games(&mut self, ledger: i32, keys: &[String]) -> Vec<GameRow> {
        let rows = self.read(
            "SELECT e.scope, e.game_key, e.game_date, e.player, e.score
             FROM @extschema@.ledger_entries e
             WHERE e.ledger_id = $1 AND e.game_key = ANY ($2)
             ORDER BY e.game_key, e.scope, e.player",
            &[ledger.into(), keys.to_vec().into()],
        );
        pg_rating_core::ledger::attachment::rated_games(rows.into_iter().map(|r| {
            let key = key_of(&r, "game_date", "game_key");
            (get(&r, "scope"), key, get(&r, "player"), get(&r, "score"))
        }))
    }

    /// [`Self::rated_games`] for a participants table (see
    /// [`pg_rating_core::ledger::attachment::rated_participants`]).
    pub fn rated_participants(&mut self, ledger: i32, keys: &[String]) -> Vec<ParticipantRow> {
        let rows = self.read(
            "SELECT e.scope, e.game_key, e.game_date, e.player
             FROM @extschema@.ledger_entries e WHERE e.ledger_id = $1 AND e.game_key = ANY ($2)",
            &[ledger.into(), keys.to_vec().into()],
        );
        pg_rating_core::ledger::attachment::rated_participants(rows.into_iter().map(|r| {
            let key = key_of(&r, "game_date", "game_key");
            (get(&r, "scope"), key, get(&r, "player"))
        }))
    }

    /// The value of a boolean condition (over this statement's transition tables).
    pub fn any(&mut self, condition: &str) -> bool {
        self.read(&format!("SELECT ({condition}) AS found"), &[])
            .next()
            .and_then(|r| opt::<bool>(&r, "found"))
            .unwrap_or(false)
    }

    pub fn ddl(&mut self, sql: &str) {
        self.write(sql, &[]);
    }

    /// Locks every scope a ledger has (a rebuild rewrites them all), in the writers' key order
    /// (`writer_lock`): taken in the table's order instead, a rebuild and a writer of several
    /// scopes each held a scope the other waited for (40P01). Returns them.
    pub fn lock_all_scopes(&mut self, ledger: i32) -> BTreeSet<String> {
        self.write(
            "SELECT s.scope FROM @extschema@.ledger_scopes s WHERE s.ledger_id = $1
             ORDER BY s.scope COLLATE \"C\" FOR UPDATE",
            &[ledger.into()],
        );
        let rows = self.write(
            "UPDATE @extschema@.ledger_scopes SET writes = writes + 1 WHERE ledger_id = $1 RETURNING scope",
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
            self.write(
                &format!(
                    "DELETE FROM @extschema@.{table} WHERE ledger_id = $1 AND scope = ANY ($2)"
                ),
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
        let read = |row: SpiHeapTupleData<'_>| Read {
            scope: get(&row, "scope"),
            played_at: opt::<TimestampWithTimeZone>(&row, "played_at").map(micros),
            key: opt(&row, "key"),
            white: opt(&row, "player"),
            placement: opt(&row, "placement"),
            counted: opt::<bool>(&row, "counted").unwrap_or(false),
            broken: opt::<bool>(&row, "broken").unwrap_or(false),
            ..Read::default()
        };
        rows.into_iter()
            .filter_map(|row| {
                att.participant(read(row))
                    .unwrap_or_else(|e| raise_core(&e))
            })
            .collect()
    }

    /// Waits for, then holds until commit, the locks of (ledger, scope) pairs, taken in their
    /// order (a new scope's row is made); see [`crate::writer_lock`]. Returns whether one of the
    /// scopes had its row already (a rebuild learns that a writer made a scope meanwhile).
    pub fn lock_scopes(&mut self, scopes: &[(i32, &str)]) -> bool {
        SCOPE_LOCKS.lock(self.client, scopes)
    }

    /// [`Self::lock_scopes`] of one scope.
    pub fn lock_scope(&mut self, ledger: i32, scope: &str) {
        self.lock_scopes(&[(ledger, scope)]);
    }
}

/// A foreign key of a path's step: the referenced table, its number of columns, the referenced
/// column and the equality operators (referenced = referencing, referenced = referenced).
type ForeignKeyRow = (
    pg_sys::Oid,
    i32,
    Option<String>,
    Option<String>,
    Option<String>,
);

/// The writers' locks of the ledgers: one row per (ledger, scope).
pub(crate) static SCOPE_LOCKS: LockTable = LockTable::new("ledger_scopes", &["ledger_id", "scope"]);

/// The settings of a `ledgers` row the glue selected: an internal error when one is NULL.
pub fn settings_of(row: &SpiHeapTupleData<'_>) -> LedgerSettings {
    LedgerSettings::from_columns(|column, kind| match kind {
        Kind::Number => opt(row, column).map(Value::Number),
        Kind::Integer => opt(row, column).map(Value::Integer),
        Kind::Text => opt(row, column).map(Value::Text),
        Kind::Interval => opt::<Interval>(row, column).map(|i| Value::Interval(to_core(i))),
    })
    .unwrap_or_else(|column| internal(format!("ledgers.{column} is NULL")))
}

/// The settings of a `ledgers` row given to a trigger; `None` when a NOT NULL setting is NULL
/// (a BEFORE trigger's new row: the column's constraint reports it, 23502, after the trigger).
/// A column 0.13.0 added may be missing (a schema not yet updated); any other is read or an
/// internal error.
pub fn settings_of_tuple(row: &PgHeapTuple<'_, impl pgrx::WhoAllocated>) -> Option<LedgerSettings> {
    fn read<'a, T>(row: &'a PgHeapTuple<'_, impl pgrx::WhoAllocated>, column: &str) -> Option<T>
    where
        T: pgrx::FromDatum + pgrx::IntoDatum + pgrx::datum::UnboxDatum<As<'a> = T> + 'a,
    {
        if LEDGER_COLUMNS_0_13.contains(&column) {
            since_0_13(row, column)
        } else {
            crate::trigger::field(row, column)
        }
    }
    LedgerSettings::from_columns(|column, kind| match kind {
        Kind::Number => read(row, column).map(Value::Number),
        Kind::Integer => read(row, column).map(Value::Integer),
        Kind::Text => read(row, column).map(Value::Text),
        Kind::Interval => read::<Interval>(row, column).map(|i| Value::Interval(to_core(i))),
    })
    .ok()
}

/// The type of a column of `table` (a user column, not dropped), found in the catalog's cache (a
/// replay from a game looks its key column up each time); 42703 when there is none, naming
/// `label()`.
fn type_of_column(
    table: pg_sys::Oid,
    column: &str,
    what: &str,
    label: impl FnOnce() -> String,
) -> pg_sys::Oid {
    // (a name with a NUL byte names no column)
    let found = std::ffi::CString::new(column).ok().map(|name| {
        // SAFETY: cache lookups by relation and name, then by number; a dropped or missing
        // column has no number, a system column a negative one.
        unsafe {
            match pg_sys::get_attnum(table, name.as_ptr()) {
                n if n > 0 => pg_sys::get_atttype(table, n),
                _ => pg_sys::InvalidOid,
            }
        }
    });
    match found {
        Some(t) if t != pg_sys::InvalidOid => t,
        _ => raise(
            PgSqlErrorCode::ERRCODE_UNDEFINED_COLUMN,
            format!("{what}: column \"{column}\" of {} does not exist", label()),
        ),
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

/// A table's name for a message, as `regclass` shows it (schema-qualified when needed), or its
/// oid when it no longer exists.
pub fn table_label(table: pg_sys::Oid) -> String {
    match crate::relation::schema_and_name(table) {
        Some((Some(schema), name)) => pg_rating_core::quote::qualified(&schema, &name),
        Some((None, name)) => pg_rating_core::quote::quote_ident(&name),
        None => format!("a dropped table (oid {})", table.to_u32()),
    }
}
