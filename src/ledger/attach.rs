//! Attaching a ledger to a games table or a participants table (the columns and types checked
//! when attached, the table's statement triggers, a first rebuild), detaching it, rebuilding it,
//! and who may do each.

use std::collections::HashMap;

use pg_rating_core::ledger::MultiplayerRule;
use pg_rating_core::quote::quote_ident;
use pgrx::prelude::*;
use pgrx::{JsonB, PgSqlErrorCode};

use super::attachment::{self, Attachment};
use super::store::{self, Ledger, LedgerStore};
use super::{rebuild, Rebuild};
use crate::error::{raise, raise_core};
use crate::security::{acting_role, is_member, RunAs};
use crate::trigger::{writes_allowed, DerivedWrite};

/// 42501 unless `actor` (the role that acts: [`acting_role`]) is a member of the ledger's owner.
pub(super) fn require_owner(actor: pg_sys::Oid, l: &Ledger, action: &str) {
    if !is_member(actor, l.owner) {
        raise(
            PgSqlErrorCode::ERRCODE_INSUFFICIENT_PRIVILEGE,
            format!(
                "permission denied: only a member of its owner may {action} ledger \"{}\"",
                l.name
            ),
        );
    }
}

/// The ledger's attachment, or 55000 when it has none.
pub(super) fn attached(store: &mut LedgerStore<'_, '_>, l: &Ledger) -> Attachment {
    store.attachment(l.id).unwrap_or_else(|| {
        raise(
            PgSqlErrorCode::ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
            format!("ledger \"{}\" is not attached to a games table", l.name),
        )
    })
}

/// The statement triggers on a games table with ledgers attached: one set per table, whatever
/// the number of its ledgers.
const TABLE_TRIGGERS: [(&str, &str); 4] = [
    (
        "pg_rating_ledgers_insert",
        "AFTER INSERT ON {t} REFERENCING NEW TABLE AS pg_rating_new",
    ),
    (
        "pg_rating_ledgers_update",
        "AFTER UPDATE ON {t} REFERENCING OLD TABLE AS pg_rating_old NEW TABLE AS pg_rating_new",
    ),
    (
        "pg_rating_ledgers_delete",
        "AFTER DELETE ON {t} REFERENCING OLD TABLE AS pg_rating_old",
    ),
    ("pg_rating_ledgers_truncate", "AFTER TRUNCATE ON {t}"),
];

/// The statement triggers on a table that a ledger's paths reach (one set per table, whatever
/// the number of attachments reaching it). TRUNCATE needs none: a referenced table is truncated
/// with the tables referencing it, the games table among them.
const RELATED_TRIGGERS: [(&str, &str); 3] = [
    (
        "pg_rating_ledgers_related_insert",
        "AFTER INSERT ON {t} REFERENCING NEW TABLE AS pg_rating_new",
    ),
    (
        "pg_rating_ledgers_related_update",
        "AFTER UPDATE ON {t} REFERENCING OLD TABLE AS pg_rating_old NEW TABLE AS pg_rating_new",
    ),
    (
        "pg_rating_ledgers_related_delete",
        "AFTER DELETE ON {t} REFERENCING OLD TABLE AS pg_rating_old",
    ),
];

/// Drops a trigger of an attached table, if it has it.
fn drop_trigger(store: &mut LedgerStore<'_, '_>, att: &Attachment, name: &str) {
    drop_trigger_of(store, att.table, name);
}

fn drop_trigger_of(store: &mut LedgerStore<'_, '_>, table: pg_sys::Oid, name: &str) {
    if store.has_trigger(table, name) {
        store.ddl(&format!(
            "DROP TRIGGER {} ON {}",
            quote_ident(name),
            store::table_label(table)
        ));
    }
}

/// Finds the joins of an attachment's paths (see [`LedgerStore::resolve_paths`]) and checks
/// that they may be read and watched: `actor` must be a member of the owner of each related
/// table (its triggers are created on it) and the games table's owner, whose rights read
/// them, must be able to read the columns used (42501). The related tables are locked as the
/// games table is ([`hold_off_writers`]). Returns the types of the column arguments, those of
/// the rated and date columns checked (42804).
fn resolve(
    store: &mut LedgerStore<'_, '_>,
    actor: pg_sys::Oid,
    att: &mut Attachment,
) -> HashMap<&'static str, pg_sys::Oid> {
    store.resolve_paths(att);
    let related = att.related_tables();
    for &table in &related {
        if !is_member(actor, store.table_owner(table)) {
            raise(
                PgSqlErrorCode::ERRCODE_INSUFFICIENT_PRIVILEGE,
                format!(
                    "permission denied: ledger {} reads {} through a foreign key and creates triggers \
                     on it: that takes a member of its owner",
                    pg_rating_core::error::Quoted(&store.ledger_name(att.ledger_id)),
                    store::table_label(table)
                ),
            );
        }
        hold_off_writers(table);
    }
    for j in att.paths.iter().flat_map(|r| r.joins.iter()) {
        for column in att.used_columns(j) {
            if !store.may_select(att.owner, j.table, column) {
                raise(
                    PgSqlErrorCode::ERRCODE_INSUFFICIENT_PRIVILEGE,
                    format!(
                        "permission denied: the owner of {}, whose rights read a ledger's games, \
                         may not read column \"{column}\" of {}",
                        store::table_label(att.table),
                        store::table_label(j.table)
                    ),
                );
            }
        }
    }
    att.related = related;
    // (checked by resolve_paths)
    let args = att.column_args().unwrap_or_default();
    let mut types = HashMap::new();
    for (what, c) in args {
        let (table, column) = att.table_of(c);
        types.insert(what, store.column_type_of(table, &column, what));
    }
    for what in ["rated_column", "date_column"] {
        if let Some(&t) = types.get(what) {
            attachment::check_column_type(what, t);
        }
    }
    types
}

/// The argument `what` of `function`: 22004 when it is NULL.
fn need<T>(function: &str, what: &str, v: Option<T>) -> T {
    v.unwrap_or_else(|| {
        raise(
            PgSqlErrorCode::ERRCODE_NULL_VALUE_NOT_ALLOWED,
            format!("{function}: {what} must not be NULL"),
        )
    })
}

/// The column arguments of an attach (`ledger_attach: ... must not be NULL`), in their order.
fn columns<const N: usize>(args: [(&'static str, Option<&str>); N]) -> [(&'static str, String); N] {
    args.map(|(what, c)| (what, need("ledger_attach", what, c).to_owned()))
}

/// The ledger and the table's owner, once `actor` may attach them (42501) and the ledger is not
/// attached yet (42710).
fn attachable(
    store: &mut LedgerStore<'_, '_>,
    actor: pg_sys::Oid,
    ledger: &str,
    table: pg_sys::Oid,
) -> (Ledger, pg_sys::Oid) {
    let l = store.ledger_named(ledger);
    let owner = store.table_owner(table);
    if !is_member(actor, l.owner) || !is_member(actor, owner) {
        raise(
            PgSqlErrorCode::ERRCODE_INSUFFICIENT_PRIVILEGE,
            format!("permission denied: attaching ledger \"{ledger}\" takes a member of the ledger's owner and of the table's owner"),
        );
    }
    if let Some((what, why)) = store.not_attachable(table) {
        raise(
            PgSqlErrorCode::ERRCODE_FEATURE_NOT_SUPPORTED,
            format!(
                "ledger {} cannot be attached to {}: {what} ({why}); attach a plain table",
                pg_rating_core::error::Quoted(ledger),
                store::table_label(table)
            ),
        );
    }
    if store.attachment(l.id).is_some() {
        raise(
            PgSqlErrorCode::ERRCODE_DUPLICATE_OBJECT,
            format!("ledger \"{ledger}\" is already attached: ledger_detach it first"),
        );
    }
    (l, owner)
}

/// Waits for the statements writing a games table under way to end with their transactions, and
/// holds off new ones until commit (SHARE ROW EXCLUSIVE, as CREATE TRIGGER takes: reads go on,
/// and two attaches to one table run one after the other): the ledgers attached to a table, and
/// their settings, change only while nothing writes it, so every game is rated by the ledgers
/// and settings in force when its statement ran, and a ledger's first rebuild sees every game written before it (under READ
/// COMMITTED; a REPEATABLE READ snapshot taken before the wait does not).
pub(super) fn hold_off_writers(table: pg_sys::Oid) {
    // SAFETY: a lock of a relation by oid, held to the end of the transaction.
    unsafe { pg_sys::LockRelationOid(table, pg_sys::ShareRowExclusiveLock as pg_sys::LOCKMODE) };
}

/// Runs `f` for a function that writes (`what`, refused with 25006 in a read-only transaction)
/// with the role that acts, as the extension's owner, marked as pg_rating's writer.
fn as_writer<T>(what: &str, f: impl FnOnce(&mut LedgerStore<'_, '_>, pg_sys::Oid) -> T) -> T {
    writes_allowed(what);
    let actor = acting_role();
    let _owner = RunAs::extension_owner();
    let _writing = DerivedWrite::begin();
    Spi::connect_mut(|client| f(&mut LedgerStore::new(client), actor))
}

/// Creates the triggers of `set` (named as `TABLE_TRIGGERS`) on `table` (`label`) that it has
/// not, each executing `function` of the extension's `schema`.
fn create_triggers(
    store: &mut LedgerStore<'_, '_>,
    table: pg_sys::Oid,
    label: &str,
    set: &[(&str, &str)],
    function: &str,
    schema: &str,
) {
    for (name, when) in set {
        if !store.has_trigger(table, name) {
            store.ddl(&format!(
                "CREATE TRIGGER {} {} FOR EACH STATEMENT EXECUTE FUNCTION {}.{function}()",
                quote_ident(name),
                when.replace("{t}", label),
                quote_ident(schema),
            ));
        }
    }
}

/// Records the attachment, creates the triggers on the table and rates what it holds.
fn attach(
    store: &mut LedgerStore<'_, '_>,
    l: &Ledger,
    att: &Attachment,
    result_map: Option<JsonB>,
) -> i64 {
    hold_off_writers(att.table);
    attachment::check_column_type("key_column", att.key_type);
    // The filter (and every column) is read once now, as the table's owner: a bad expression
    // is an error of the attach, not of the next insert.
    let probe = format!("{} LIMIT 0", att.all_rows_query());
    let filter = att.filter.clone();
    PgTryBuilder::new(std::panic::AssertUnwindSafe(|| match att.multiplayer {
        Some(_) => drop(store.read_participants(att, &probe, &[])),
        None => drop(store.read_games(att, &probe, &[])),
    }))
    .catch_others(|e| match (e, &filter) {
        // PostgreSQL's own message ("syntax error at or near ...") does not say that it is the
        // filter it read: the hint names it.
        (pg_sys::panic::CaughtError::PostgresError(report), Some(filter)) => {
            let mut out = pg_sys::panic::ErrorReport::new(
                report.sql_error_code(),
                report.message().to_owned(),
                "ledger_attach",
            );
            if let Some(detail) = report.detail() {
                out = out.set_detail(detail.to_owned());
            }
            out.set_hint(format!(
                "the games table is read with filter => '{filter}': a boolean SQL expression over its \
                 columns, run as the table's owner with the table's schema on its search_path"
            ))
            .report(PgLogLevel::ERROR);
            unreachable!("an ERROR report does not return")
        }
        (e, _) => e.rethrow(),
    })
    .execute();
    store.insert_attachment(att, result_map);
    let schema = store.extension_schema();
    let target = att.table_name.clone();
    // A table restored from a dump of 0.3-0.6 has one set of triggers per ledger: the table's
    // set replaces them, or they would rate their ledger's games a second time.
    for (other, _) in store.ledgers_on(att.table) {
        for name in crate::compat::per_ledger_trigger_names(other.id) {
            drop_trigger(store, att, &name);
        }
    }
    create_triggers(
        store,
        att.table,
        &target,
        &TABLE_TRIGGERS,
        "ledger_games_changed",
        &schema,
    );
    for &table in &att.related {
        let label = store::table_label(table);
        let function = "ledger_related_changed";
        create_triggers(store, table, &label, &RELATED_TRIGGERS, function, &schema);
    }
    rebuild(store, l, att, Rebuild::Rewrite)
}

/// Checks that `filter` is one SQL expression, as PostgreSQL's parser reads it (42601 if not):
/// pg_rating writes it into its reads of the games table, where text that closes a parenthesis
/// or adds a clause (`true) OR (true`, `true FROM t`) would change those reads.
fn one_expression(filter: &str) {
    let text = std::ffi::CString::new(format!("SELECT {filter}")).unwrap_or_else(|_| {
        raise(
            PgSqlErrorCode::ERRCODE_SYNTAX_ERROR,
            "filter must not contain a zero byte".to_owned(),
        )
    });
    let refused = |why: Option<String>| -> ! {
        raise(
            PgSqlErrorCode::ERRCODE_SYNTAX_ERROR,
            format!(
                "filter must be one boolean SQL expression over the games table's columns, not {}{}",
                pg_rating_core::error::Quoted(filter),
                why.map(|w| format!(": {w}")).unwrap_or_default()
            ),
        )
    };
    // (the parser's own error points into this text, not the caller's statement: restated)
    let statements = PgTryBuilder::new(|| {
        // SAFETY: parses a NUL-terminated text; a syntax error is raised as an ERROR.
        unsafe { pg_sys::raw_parser(text.as_ptr(), pg_sys::RawParseMode::RAW_PARSE_DEFAULT) }
    })
    .catch_others(|e| match e {
        pg_sys::panic::CaughtError::PostgresError(report) => {
            refused(Some(report.message().to_owned()))
        }
        e => e.rethrow(),
    })
    .execute();
    // SAFETY: the parser's list of statements, in the current memory context.
    if !unsafe { one_bare_target(statements) } {
        refused(None);
    }
}

/// Whether `statements` (the raw parse of `SELECT <filter>`) is one SELECT of one unnamed target
/// and nothing else: no FROM, WHERE, set operation, ordering, locking, ... clause.
///
/// # Safety
/// `statements` is a list `raw_parser` returned, alive in the current memory context.
unsafe fn one_bare_target(statements: *mut pg_sys::List) -> bool {
    // SAFETY: the list and its nodes are the parser's (this function's contract); each is read
    // only after its tag or length says what it is.
    unsafe {
        if pg_sys::list_length(statements) != 1 {
            return false;
        }
        let node = (*pg_sys::list_nth(statements, 0).cast::<pg_sys::RawStmt>()).stmt;
        if (*node).type_ != pg_sys::NodeTag::T_SelectStmt {
            return false;
        }
        let s = &*node.cast::<pg_sys::SelectStmt>();
        if pg_sys::list_length(s.targetList) != 1
            || !(*pg_sys::list_nth(s.targetList, 0).cast::<pg_sys::ResTarget>())
                .name
                .is_null()
        {
            return false;
        }
        let no_lists = [
            s.distinctClause,
            s.fromClause,
            s.groupClause,
            s.windowClause,
            s.valuesLists,
            s.sortClause,
            s.lockingClause,
        ]
        .iter()
        .all(|&l| pg_sys::list_length(l) == 0);
        no_lists
            && s.op == pg_sys::SetOperation::SETOP_NONE
            && s.intoClause.is_null()
            && s.whereClause.is_null()
            && s.havingClause.is_null()
            && s.limitOffset.is_null()
            && s.limitCount.is_null()
            && s.withClause.is_null()
    }
}

/// A new attachment to `l` of its table (owned by `owner`), read by the key column and the date
/// column (the first two of `columns`), with the scope column, the filter and the rated column
/// (`optional`); the columns of its players and results are the caller's to set.
fn new_attachment(
    store: &mut LedgerStore<'_, '_>,
    l: &Ledger,
    (table, owner): (pg_sys::Oid, pg_sys::Oid),
    columns: &[(&str, String)],
    [scope_column, filter, rated_column]: [Option<&str>; 3],
) -> Attachment {
    if let Some(filter) = filter {
        one_expression(filter);
    }
    let key_type = store.column_type(table, &columns[0].1, columns[0].0);
    Attachment {
        ledger_id: l.id,
        table,
        table_name: attachment::games_name(table, l.id),
        owner,
        key_column: columns[0].1.clone(),
        key_type,
        key_kind: attachment::key_kind(key_type),
        date_column: columns[1].1.clone(),
        white_column: String::new(),
        black_column: String::new(),
        result_column: String::new(),
        result_map: None,
        scope_column: scope_column.map(str::to_owned),
        filter: filter.map(str::to_owned),
        multiplayer: None,
        rated_column: rated_column.map(str::to_owned),
        related: Vec::new(),
        paths: None,
    }
}

/// `ledger_attach(ledger, games, key_column, date_column, white_column, black_column, result_column,
/// result_map, scope_column, filter, rated_column)` (declared in sql/ledgers.sql).
#[allow(clippy::too_many_arguments)]
#[pg_extern(volatile, parallel_unsafe, sql = false)]
pub(crate) fn ledger_attach_0_13(
    ledger: Option<&str>,
    games: Option<pg_sys::Oid>,
    key_column: Option<&str>,
    date_column: Option<&str>,
    white_column: Option<&str>,
    black_column: Option<&str>,
    result_column: Option<&str>,
    // jsonb, read by attachment::result_map_arg (pgrx's JsonB fails on 1e400 with XX000)
    result_map: Option<pgrx::AnyElement>,
    scope_column: Option<&str>,
    filter: Option<&str>,
    rated_column: Option<&str>,
) -> i64 {
    let result_map = result_map.map(attachment::result_map_arg);
    let ledger = need("ledger_attach", "ledger", ledger);
    let table = need("ledger_attach", "games", games);
    let columns = columns([
        ("key_column", key_column),
        ("date_column", date_column),
        ("white_column", white_column),
        ("black_column", black_column),
        ("result_column", result_column),
    ]);
    as_writer("ledger_attach()", |store, actor| {
        let (l, owner) = attachable(store, actor, ledger, table);
        let optional = [scope_column, filter, rated_column];
        let mut att = Attachment {
            white_column: columns[2].1.clone(),
            black_column: columns[3].1.clone(),
            result_column: columns[4].1.clone(),
            ..new_attachment(store, &l, (table, owner), &columns, optional)
        };
        let types = resolve(store, actor, &mut att);
        let map = result_map
            .as_ref()
            .map(|j| attachment::parse_result_map(&j.0));
        if map.is_none() {
            attachment::check_column_type("result_column", types["result_column"]);
        }
        att.result_map = map;
        attach(store, &l, &att, result_map)
    })
}

/// `ledger_attach_multiplayer(ledger, participants, game_column, date_column, player_column,
/// placement_column, rule, higher_is_better, scope_column, filter, rated_column)` (declared in
/// sql/ledgers.sql).
#[allow(clippy::too_many_arguments)]
#[pg_extern(volatile, parallel_unsafe, sql = false)]
pub(crate) fn ledger_attach_multiplayer_0_13(
    ledger: Option<&str>,
    participants: Option<pg_sys::Oid>,
    game_column: Option<&str>,
    date_column: Option<&str>,
    player_column: Option<&str>,
    placement_column: Option<&str>,
    rule: Option<&str>,
    higher_is_better: Option<bool>,
    scope_column: Option<&str>,
    filter: Option<&str>,
    rated_column: Option<&str>,
) -> i64 {
    let ledger = need("ledger_attach", "ledger", ledger);
    let table = need("ledger_attach_multiplayer", "participants", participants);
    let rule =
        MultiplayerRule::parse(rule.unwrap_or("pairwise")).unwrap_or_else(|e| raise_core(&e));
    let columns = columns([
        ("game_column", game_column),
        ("date_column", date_column),
        ("player_column", player_column),
        ("placement_column", placement_column),
    ]);
    as_writer("ledger_attach_multiplayer()", |store, actor| {
        let (l, owner) = attachable(store, actor, ledger, table);
        let system = &l.settings.rating_system;
        rule.check_system(ledger, system)
            .unwrap_or_else(|e| raise_core(&e));
        let optional = [scope_column, filter, rated_column];
        let mut att = Attachment {
            white_column: columns[2].1.clone(),
            multiplayer: Some(attachment::Multiplayer {
                player_column: columns[2].1.clone(),
                placement_column: columns[3].1.clone(),
                higher_is_better: higher_is_better.unwrap_or(false),
                rule,
            }),
            ..new_attachment(store, &l, (table, owner), &columns, optional)
        };
        let types = resolve(store, actor, &mut att);
        attachment::check_column_type("placement_column", types["placement_column"]);
        attach(store, &l, &att, None)
    })
}

pub(super) fn detach(store: &mut LedgerStore<'_, '_>, ledger: i32) {
    let Some(att) = store.attachment_as_recorded(ledger) else {
        // (an attachment to a table gone unseen, a temporary table of 0.12.0 at its session's
        // end: its related tables' triggers go, and so does it)
        let gone = store.attachment_to_a_gone_table(ledger);
        forget_attachments(store, gone);
        return;
    };
    // SAFETY: a catalog lookup; a dropped table has no triggers left to drop.
    let table_exists = unsafe { !pg_sys::get_rel_name(att.table).is_null() };
    if table_exists {
        hold_off_writers(att.table);
    }
    store.delete_attachment(ledger);
    if table_exists {
        let mut names = Vec::from(crate::compat::per_ledger_trigger_names(ledger));
        if !store.has_ledgers(att.table) {
            names.extend(TABLE_TRIGGERS.map(|(name, _)| name.to_owned()));
        }
        for name in names {
            drop_trigger(store, &att, &name);
        }
    }
    drop_related_triggers(store, ledger, &att.related);
}

/// Drops the triggers of the tables `related` that a detached `ledger`'s paths reached, unless
/// another attachment reaches them.
fn drop_related_triggers(store: &mut LedgerStore<'_, '_>, ledger: i32, related: &[pg_sys::Oid]) {
    for &table in related {
        // SAFETY: a catalog lookup; a dropped table has no triggers left to drop.
        let exists = unsafe { !pg_sys::get_rel_name(table).is_null() };
        if exists && !store.related_elsewhere(table, ledger) {
            hold_off_writers(table);
            for (name, _) in RELATED_TRIGGERS {
                drop_trigger_of(store, table, name);
            }
        }
    }
}

/// Drops the triggers of a ledger's games table; the history stays.
#[pg_extern(volatile, strict, parallel_unsafe, sql = false)]
fn ledger_detach(ledger: &str) {
    as_writer("ledger_detach()", |store, actor| {
        let l = store.ledger_named(ledger);
        require_owner(actor, &l, "detach");
        detach(store, l.id);
    })
}

/// `ledger_forget_dropped_tables(tables)`, called by the event trigger
/// `pg_rating_ledgers_forget_dropped_tables` with the tables a statement dropped: the ledgers
/// attached to those of them that are gone are detached (their history stays), so that no
/// attachment names a table that no longer exists, nor a later table given the same oid.
#[pg_extern(volatile, strict, parallel_unsafe, sql = false)]
fn ledger_forget_dropped_tables(tables: Vec<pg_sys::Oid>) {
    // SAFETY: makes the dropping statement's own changes (the tables gone from the catalog)
    // visible to the reads below, as any statement of the transaction after it would see them.
    unsafe { pg_sys::CommandCounterIncrement() };
    let _owner = RunAs::extension_owner();
    let _writing = DerivedWrite::begin();
    Spi::connect_mut(|client| {
        let mut store = LedgerStore::new(client);
        let gone = store.attached_to_dropped(tables);
        forget_attachments(&mut store, gone);
    })
}

/// Deletes the attachments of ledgers whose games tables are gone (`gone`: each ledger with the
/// related tables of its paths), and the triggers of those related tables that no other
/// attachment reaches (the games tables' went with them).
fn forget_attachments(store: &mut LedgerStore<'_, '_>, gone: Vec<(i32, Vec<pg_sys::Oid>)>) {
    for (ledger, related) in gone {
        store.delete_attachment(ledger);
        drop_related_triggers(store, ledger, &related);
    }
}

/// Replays a ledger from its games table from scratch.
#[pg_extern(volatile, strict, parallel_unsafe, sql = false)]
fn ledger_rebuild(ledger: &str) -> i64 {
    writes_allowed("ledger_rebuild()");
    let actor = acting_role();
    let _owner = RunAs::extension_owner();
    let _writing = DerivedWrite::begin();
    Spi::connect_mut(|client| {
        let mut store = LedgerStore::new(client);
        let l = store.ledger_named_to_write(ledger);
        require_owner(actor, &l, "rebuild");
        // the attachment as it is once the scopes are locked (see `locked_for_replay`)
        store.lock_all_scopes(l.id);
        let att = attached(&mut store, &l);
        rebuild(&mut store, &l, &att, Rebuild::Check)
    })
}

#[cfg(any(test, feature = "pg_test"))]
#[pgrx::pg_schema]
mod tests {
    use pgrx::prelude::*;

    /// An attachment whose table went without an event trigger seeing it (a temporary table of
    /// 0.12.0 at its session's end) goes with `ledger_detach`, and the ledger attaches again.
    #[pg_test]
    fn a_ledger_whose_table_went_unseen_is_detached() {
        let schema = crate::test_support::engine_schema();
        let table = |name: &str| {
            format!(
                "CREATE TABLE public.{name} (id int PRIMARY KEY, at timestamptz NOT NULL, a text,
                     b text, s float8);
                 SELECT {schema}.ledger_attach('gone', 'public.{name}', 'id', 'at', 'a', 'b', 's');"
            )
        };
        Spi::run(&format!(
            "INSERT INTO {schema}.ledgers (name) VALUES ('gone');
             {}
             ALTER EVENT TRIGGER pg_rating_ledgers_forget_dropped_tables DISABLE;
             DROP TABLE public.gone_games;
             ALTER EVENT TRIGGER pg_rating_ledgers_forget_dropped_tables ENABLE;",
            table("gone_games")
        ))
        .unwrap();
        let attached = || {
            Spi::get_one::<i64>(&format!(
                "SELECT count(*) FROM {schema}.ledger_attachments a
                 JOIN {schema}.ledgers l ON l.id = a.ledger_id WHERE l.name = 'gone'"
            ))
            .unwrap()
        };
        assert_eq!(attached(), Some(1), "the attachment did not stay");
        Spi::run(&format!("SELECT {schema}.ledger_detach('gone')")).unwrap();
        assert_eq!(attached(), Some(0));
        Spi::run(&table("games_again")).unwrap();
        assert_eq!(attached(), Some(1));
    }
}
