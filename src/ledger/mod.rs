//! Ledgers in the database (sql/ledgers.sql): attaching a ledger to an application's games table,
//! the trigger that keeps it current, rebuilds. Every rating is decided by
//! `pg_rating_core::ledger`; this module reads the changed games and locks the scopes they touch,
//! and the writer's steps (`pg_rating_core::ledger::writer`, shared with the Random Chess
//! rankings) read and write the engine's tables through `tables`.

mod analytics;
mod attachment;
mod store;
mod svg;
mod tables;

use std::collections::{BTreeMap, BTreeSet, HashMap};

use pg_rating_core::ledger::writer::{
    self, players, replay_or_raise, sorted_set, write_replay, Book, History, ScopeChanges,
    ScopeFrom, Writes,
};
use pg_rating_core::ledger::{
    replay_multiplayer_seasons, LedgerGame, LedgerKey, LedgerRules, MultiGame, MultiplayerRule,
};
use pgrx::prelude::*;
use pgrx::{JsonB, PgSqlErrorCode};

use crate::error::raise;
use crate::restore::restoring;
use crate::trigger::{trigger_function, writes_allowed, DerivedWrite};
use attachment::{Attachment, GameRow, ParticipantRow};
use store::{Ledger, LedgerStore};
use tables::LedgerBook;

extension_sql_file!(
    "../../sql/ledgers.sql",
    name = "ledgers",
    requires = [
        "derived_tables",
        "rating_systems",
        analytics::ledger_prediction_quality,
        analytics::ledger_what_if,
        "glicko2_functions",
        ledger_attach,
        ledger_attach_multiplayer,
        ledger_detach,
        ledger_rebuild
    ]
);

pub(crate) use crate::error::internal;

/// The checked rules of a ledger (its settings were checked when written: an error here is 22023).
fn rules_of(ledger: &Ledger) -> LedgerRules {
    ledger.settings.rules().unwrap_or_else(|e| {
        raise(
            crate::error::code(&e),
            format!("ledger \"{}\": {e}", ledger.name),
        )
    })
}

fn rated(rows: &[GameRow]) -> impl Iterator<Item = &GameRow> {
    rows.iter().filter(|g| g.outcome.is_some())
}

/// The game of a rated row.
fn into_ledger_game(g: GameRow) -> LedgerGame {
    LedgerGame {
        key: g.key,
        white: g.white.unwrap_or_default(),
        black: g.black.unwrap_or_default(),
        outcome: g
            .outcome
            .unwrap_or_else(|| internal("an unrated game in a replay")),
    }
}

fn ledger_game(g: &GameRow) -> LedgerGame {
    into_ledger_game(g.clone())
}

/// A statement's changes of one ledger's games table: the rows as they were (updated or deleted)
/// and as they are (inserted or updated).
struct Changes<'a> {
    ledger: &'a Ledger,
    att: &'a Attachment,
    old: Vec<GameRow>,
    new: Vec<GameRow>,
}

/// The rated rows of `changes` whose rating inputs changed, by scope: (rows as they were, rows as
/// they are). An UPDATE that leaves what the ledger reads of a game as it was changes nothing.
fn by_scope<'c>(
    changes: &'c Changes<'_>,
) -> BTreeMap<&'c str, (Vec<&'c GameRow>, Vec<&'c GameRow>)> {
    let olds: HashMap<(&str, &LedgerKey), &GameRow> = rated(&changes.old)
        .map(|g| ((g.scope.as_str(), &g.key), g))
        .collect();
    let unchanged: std::collections::HashSet<(&str, &LedgerKey)> = rated(&changes.new)
        .filter(|g| {
            olds.get(&(g.scope.as_str(), &g.key))
                .is_some_and(|o| *o == *g)
        })
        .map(|g| (g.scope.as_str(), &g.key))
        .collect();
    let changed = |g: &&GameRow| !unchanged.contains(&(g.scope.as_str(), &g.key));
    let mut by_scope: BTreeMap<&str, (Vec<&GameRow>, Vec<&GameRow>)> = BTreeMap::new();
    for g in rated(&changes.old).filter(changed) {
        by_scope.entry(g.scope.as_str()).or_default().0.push(g);
    }
    for g in rated(&changes.new).filter(changed) {
        by_scope.entry(g.scope.as_str()).or_default().1.push(g);
    }
    by_scope
}

/// Applies a statement's changes to the two-player ledgers of its table: every scope's lock in
/// one statement, then the writer ([`writer::apply`]). Returns the number of entries written.
fn apply_changes(store: &mut LedgerStore<'_, '_>, changes: &[Changes<'_>]) -> usize {
    let scopes: Vec<_> = changes.iter().map(by_scope).collect();
    // Every scope's lock, in (ledger, scope) order: concurrent writers never deadlock.
    let mut locks: Vec<(i32, &str)> = changes
        .iter()
        .zip(&scopes)
        .flat_map(|(c, s)| s.keys().map(|scope| (c.ledger.id, *scope)))
        .collect();
    locks.sort_unstable();
    store.lock_scopes(&locks);
    let books: Vec<LedgerBook<'_>> = changes
        .iter()
        .map(|c| LedgerBook {
            ledger: c.ledger,
            att: c.att,
        })
        .collect();
    let mut work = Vec::new();
    for ((c, by), book) in changes.iter().zip(&scopes).zip(&books) {
        let rules = rules_of(c.ledger);
        for (scope, (olds, news)) in by {
            let mut games: Vec<LedgerGame> = news.iter().map(|g| ledger_game(g)).collect();
            games.sort_by(|a, b| a.key.cmp(&b.key));
            work.push(ScopeChanges {
                book,
                rules,
                scope,
                first_old: olds.iter().map(|g| &g.key).min(),
                olds: old_entries(olds),
                games,
            });
        }
    }
    writer::apply(store, work)
}

/// The (player, game) pairs of rows as they were.
fn old_entries<'a>(olds: &[&'a GameRow]) -> Vec<(&'a str, &'a LedgerKey)> {
    olds.iter()
        .flat_map(|g| {
            [&g.white, &g.black]
                .into_iter()
                .flatten()
                .map(|p| (p.as_str(), &g.key))
        })
        .collect()
}

/// The multiplayer games of participant rows: each game with two rated participants or more
/// (one with fewer is not rated yet), sorted by key, its players by name.
fn multi_games(rows: &[&ParticipantRow]) -> Vec<MultiGame> {
    let mut by_key: BTreeMap<&LedgerKey, Vec<(String, f64)>> = BTreeMap::new();
    for r in rows {
        if let Some(place) = r.placement {
            by_key
                .entry(&r.key)
                .or_default()
                .push((r.player.clone(), place));
        }
    }
    by_key
        .into_iter()
        .filter(|(_, places)| places.len() >= 2)
        .map(|(key, mut places)| {
            places.sort_by(|a, b| a.0.cmp(&b.0));
            MultiGame {
                key: key.clone(),
                places,
            }
        })
        .collect()
}

fn multi_players(games: &[MultiGame]) -> BTreeSet<String> {
    sorted_set(
        games
            .iter()
            .flat_map(|g| g.places.iter().map(|(p, _)| p.as_str())),
    )
}

/// [`writer::replay_from`] for a participants table.
fn replay_multi_from(
    store: &mut LedgerStore<'_, '_>,
    book: &LedgerBook<'_>,
    rules: &LedgerRules,
    scope: &str,
    from: &LedgerKey,
    olds: &[&ParticipantRow],
) -> usize {
    let att = book.att;
    let rule = att
        .multiplayer
        .as_ref()
        .map(|m| m.rule)
        .unwrap_or_else(|| internal("not multiplayer"));
    let rows = store.read_participants(
        att,
        &att.rows_from_query(),
        &[
            scope.into(),
            store::timestamp(from.at).into(),
            att.column_key_text(&from.id).into(),
        ],
    );
    let games = multi_games(&rows.iter().collect::<Vec<_>>());
    // the entries from `from` on: one per participant, now or as the rows were
    let doomed: Vec<(&str, &LedgerKey)> = rows
        .iter()
        .chain(olds.iter().copied())
        .map(|r| (r.player.as_str(), &r.key))
        .collect();
    let scope_from = ScopeFrom {
        book,
        rules,
        scope,
        from,
    };
    scope_from.rewrite(
        store,
        multi_players(&games),
        &doomed,
        |seasons, standings| replay_multiplayer_seasons(rules, rule, seasons, standings, &games),
    )
}

/// [`apply_changes`] for a participants table: each scope is replayed from its earliest
/// changed game (the last game, for a participant added to it).
fn apply_multi_changes(
    store: &mut LedgerStore<'_, '_>,
    ledger: &Ledger,
    att: &Attachment,
    old: &[ParticipantRow],
    new: &[ParticipantRow],
) -> usize {
    let rules = rules_of(ledger);
    let unchanged = |r: &ParticipantRow, others: &[ParticipantRow]| others.contains(r);
    let mut by_scope: BTreeMap<&str, (Vec<&ParticipantRow>, Option<&LedgerKey>)> = BTreeMap::new();
    for (rows, others, is_old) in [(old, new, true), (new, old, false)] {
        for r in rows
            .iter()
            .filter(|r| r.placement.is_some() && !unchanged(r, others))
        {
            let scope = by_scope.entry(r.scope.as_str()).or_default();
            if is_old {
                scope.0.push(r);
            }
            scope.1 = Some(scope.1.map_or(&r.key, |k| k.min(&r.key)));
        }
    }
    for scope in by_scope.keys() {
        store.lock_scope(ledger.id, scope);
    }
    let book = LedgerBook { ledger, att };
    let mut written = 0;
    for (scope, (olds, from)) in by_scope {
        if let Some(from) = from.cloned() {
            written += replay_multi_from(store, &book, &rules, scope, &from, &olds);
        }
    }
    written
}

/// Reads a ledger's rows with `read` once every scope they name is locked; returns them with the
/// locked scopes (the ledger's, and those the rows name). A scope that appears in the rows besides
/// is locked, and if a writer made it meanwhile, its rows are removed and the rows read again.
fn read_locked<T>(
    store: &mut LedgerStore<'_, '_>,
    ledger: i32,
    mut read: impl FnMut(&mut LedgerStore<'_, '_>) -> Vec<T>,
    scope_of: impl Fn(&T) -> Option<&str>,
) -> (Vec<T>, BTreeSet<String>) {
    let mut locked = store.lock_all_scopes(ledger);
    loop {
        let rows = read(store);
        let new: BTreeSet<&str> = rows
            .iter()
            .filter_map(&scope_of)
            .filter(|s| !locked.contains(*s))
            .collect();
        let new: Vec<&str> = new.into_iter().collect();
        let keys: Vec<(i32, &str)> = new.iter().map(|s| (ledger, *s)).collect();
        let made_meanwhile = store.lock_scopes(&keys);
        if made_meanwhile {
            store.clear_scopes(ledger, &new);
        }
        locked.extend(new.iter().map(|s| s.to_string()));
        if !made_meanwhile {
            return (rows, locked);
        }
    }
}

/// Replays a ledger from scratch; the rows already equal to the replay's stay. Returns the
/// number of entries of the replay.
fn rebuild(store: &mut LedgerStore<'_, '_>, ledger: &Ledger, att: &Attachment) -> i64 {
    let rules = rules_of(ledger);
    let book = LedgerBook { ledger, att };
    let mut written = 0;
    let locked = if let Some(m) = &att.multiplayer {
        let query = att.all_rows_query();
        let (rows, locked) = read_locked(
            store,
            ledger.id,
            |store| store.read_participants(att, &query, &[]),
            |r| Some(r.scope.as_str()),
        );
        let mut by_scope: BTreeMap<&str, Vec<&ParticipantRow>> = BTreeMap::new();
        for r in &rows {
            by_scope.entry(r.scope.as_str()).or_default().push(r);
        }
        for (scope, rows) in by_scope {
            let games = multi_games(&rows);
            let mut standings = HashMap::new();
            let players = multi_players(&games);
            store.start_newcomers(&book, &rules, scope, &mut standings, &players);
            let seasons = store.seasons(ledger.id, scope);
            let entries =
                replay_multiplayer_seasons(&rules, m.rule, &seasons, &mut standings, &games)
                    .unwrap_or_else(|e| book.fail(e));
            written += write_replay(
                store,
                &book,
                scope,
                entries,
                &standings,
                HashMap::new(),
                players,
                Writes::Rebuilt,
            ) as i64;
        }
        locked
    } else {
        let query = att.all_rows_query();
        let (rows, locked) = read_locked(
            store,
            ledger.id,
            |store| store.read_games(att, &query, &[]),
            |g| g.outcome.is_some().then_some(g.scope.as_str()),
        );
        let mut by_scope: BTreeMap<String, Vec<LedgerGame>> = BTreeMap::new();
        for g in rows.into_iter().filter(|g| g.outcome.is_some()) {
            match by_scope.get_mut(&g.scope) {
                Some(games) => games.push(into_ledger_game(g)),
                None => {
                    by_scope.insert(g.scope.clone(), vec![into_ledger_game(g)]);
                }
            }
        }
        for (scope, mut games) in by_scope {
            games.sort_by(|a, b| a.key.cmp(&b.key));
            let mut standings = HashMap::new();
            let affected = players(&games);
            store.start_newcomers(&book, &rules, &scope, &mut standings, &affected);
            let seasons = store.seasons(ledger.id, &scope);
            let entries = replay_or_raise(&book, &rules, &seasons, &mut standings, &games);
            written += write_replay(
                store,
                &book,
                &scope,
                entries,
                &standings,
                HashMap::new(),
                affected,
                Writes::Rebuilt,
            ) as i64;
        }
        locked
    };
    store.replace_rebuilt(ledger.id, &locked);
    written
}

/// 42501 unless the caller is a member of the ledger's owner.
fn require_owner(l: &Ledger, action: &str) {
    if !is_member(caller(), l.owner) {
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
fn attached(store: &mut LedgerStore<'_, '_>, l: &Ledger) -> Attachment {
    store.attachment(l.id).unwrap_or_else(|| {
        raise(
            PgSqlErrorCode::ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
            format!("ledger \"{}\" is not attached to a games table", l.name),
        )
    })
}

/// The role a session acts as outside SECURITY DEFINER functions (the caller).
fn caller() -> pg_sys::Oid {
    // SAFETY: reads this backend's outer user id.
    unsafe { pg_sys::GetOuterUserId() }
}

fn is_member(role: pg_sys::Oid, of: pg_sys::Oid) -> bool {
    // SAFETY: a catalog lookup of role membership.
    unsafe { pg_sys::has_privs_of_role(role, of) }
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

/// The triggers of one ledger that 0.3-0.6 created (a database restored from their dumps has them).
fn legacy_trigger_names(ledger: i32) -> [String; 4] {
    ["insert", "update", "delete", "truncate"].map(|op| format!("pg_rating_ledger_{ledger}_{op}"))
}

/// Drops a trigger of an attached table, if it has it.
fn drop_trigger(store: &mut LedgerStore<'_, '_>, att: &Attachment, name: &str) {
    if store.has_trigger(att.table, name) {
        store.ddl(&format!(
            "DROP TRIGGER {} ON {}",
            attachment::quote(name),
            att.table_name()
        ));
    }
}

fn need(v: Option<&str>, what: &str) -> String {
    v.map(str::to_owned).unwrap_or_else(|| {
        raise(
            PgSqlErrorCode::ERRCODE_NULL_VALUE_NOT_ALLOWED,
            format!("ledger_attach: {what} must not be NULL"),
        )
    })
}

/// The ledger and the table's owner, once the caller may attach them (42501) and the ledger is
/// not attached yet (42710).
fn attachable(
    store: &mut LedgerStore<'_, '_>,
    ledger: &str,
    table: pg_sys::Oid,
) -> (Ledger, pg_sys::Oid) {
    let l = store.ledger_named(ledger);
    let owner = store.table_owner(table);
    if !is_member(caller(), l.owner) || !is_member(caller(), owner) {
        raise(
            PgSqlErrorCode::ERRCODE_INSUFFICIENT_PRIVILEGE,
            format!("permission denied: attaching ledger \"{ledger}\" takes a member of the ledger's owner and of the table's owner"),
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

/// The types of the named columns of `table` (42703 for a missing one), checked with `check`.
fn column_types(
    store: &mut LedgerStore<'_, '_>,
    table: pg_sys::Oid,
    columns: &[(&'static str, String)],
) -> HashMap<&'static str, pg_sys::Oid> {
    columns
        .iter()
        .map(|(what, c)| (*what, store.column_type(table, c, what)))
        .collect()
}

/// 42804 unless `ok`: the column `what` is not of a type the ledger reads.
fn check_type(types: &HashMap<&'static str, pg_sys::Oid>, ok: bool, what: &str, wanted: &str) {
    if !ok {
        raise(
            PgSqlErrorCode::ERRCODE_DATATYPE_MISMATCH,
            format!(
                "{what} must be {wanted}, not {}",
                store::type_name(types[what])
            ),
        );
    }
}

/// Waits for the statements writing a games table under way to end with their transactions, and
/// holds off new ones until commit (SHARE ROW EXCLUSIVE, as CREATE TRIGGER takes: reads go on,
/// and two attaches to one table run one after the other): the ledgers attached to a table
/// change only while nothing writes it, so every game is rated by the ledgers attached when its
/// statement ran, and a ledger's first rebuild sees every game written before it (under READ
/// COMMITTED; a REPEATABLE READ snapshot taken before the wait does not).
fn hold_off_writers(table: pg_sys::Oid) {
    // SAFETY: a lock of a relation by oid, held to the end of the transaction.
    unsafe { pg_sys::LockRelationOid(table, pg_sys::ShareRowExclusiveLock as pg_sys::LOCKMODE) };
}

/// Records the attachment, creates the triggers on the table and rates what it holds.
fn attach(
    store: &mut LedgerStore<'_, '_>,
    l: &Ledger,
    att: &Attachment,
    result_map: Option<JsonB>,
) -> i64 {
    hold_off_writers(att.table);
    check_type(
        &HashMap::from([("key_column", att.key_type)]),
        attachment::key_type_supported(att.key_type),
        "key_column",
        "smallint, integer, bigint, text, varchar or uuid",
    );
    // The filter (and every column) is read once now, as the table's owner: a bad expression
    // is an error of the attach, not of the next insert.
    let probe = format!("{} LIMIT 0", att.all_rows_query());
    match att.multiplayer {
        Some(_) => drop(store.read_participants(att, &probe, &[])),
        None => drop(store.read_games(att, &probe, &[])),
    }
    store.insert_attachment(att, result_map);
    let schema = store.extension_schema();
    let target = att.table_name();
    // A table restored from a dump of 0.3-0.6 has one set of triggers per ledger: the table's
    // set replaces them, or they would rate their ledger's games a second time.
    for (other, _) in store.ledgers_on(att.table) {
        for name in legacy_trigger_names(other.id) {
            drop_trigger(store, att, &name);
        }
    }
    for (name, when) in TABLE_TRIGGERS {
        if !store.has_trigger(att.table, name) {
            store.ddl(&format!(
                "CREATE TRIGGER {} {} FOR EACH STATEMENT EXECUTE FUNCTION {}.ledger_games_changed()",
                attachment::quote(name),
                when.replace("{t}", &target),
                attachment::quote(&schema),
            ));
        }
    }
    rebuild(store, l, att)
}

/// `ledger_attach(ledger, games, key_column, date_column, white_column, black_column, result_column,
/// result_map, scope_column, filter)` (declared in sql/ledgers.sql).
#[allow(clippy::too_many_arguments)]
#[pg_extern(volatile, parallel_unsafe, sql = false)]
fn ledger_attach(
    ledger: Option<&str>,
    games: Option<pg_sys::Oid>,
    key_column: Option<&str>,
    date_column: Option<&str>,
    white_column: Option<&str>,
    black_column: Option<&str>,
    result_column: Option<&str>,
    result_map: Option<JsonB>,
    scope_column: Option<&str>,
    filter: Option<&str>,
) -> i64 {
    let ledger = need(ledger, "ledger");
    let table = games.unwrap_or_else(|| {
        raise(
            PgSqlErrorCode::ERRCODE_NULL_VALUE_NOT_ALLOWED,
            "ledger_attach: games must not be NULL",
        )
    });
    let mut columns = vec![
        ("key_column", need(key_column, "key_column")),
        ("date_column", need(date_column, "date_column")),
        ("white_column", need(white_column, "white_column")),
        ("black_column", need(black_column, "black_column")),
        ("result_column", need(result_column, "result_column")),
    ];
    for c in scope_column
        .map(attachment::scope_columns)
        .unwrap_or_default()
    {
        columns.push(("scope_column", c.to_owned()));
    }
    writes_allowed("ledger_attach()");
    let _writing = DerivedWrite::begin();
    Spi::connect_mut(|client| {
        let mut store = LedgerStore::new(client);
        let (l, owner) = attachable(&mut store, &ledger, table);
        let types = column_types(&mut store, table, &columns);
        check_type(
            &types,
            attachment::date_type_supported(types["date_column"]),
            "date_column",
            "timestamptz, timestamp or date",
        );
        let map = result_map
            .as_ref()
            .map(|j| attachment::parse_result_map(&j.0));
        if map.is_none() {
            check_type(
                &types,
                attachment::score_type_supported(types["result_column"]),
                "result_column",
                "a number (white's score in [0, 1]) unless a result_map says what its values mean",
            );
        }
        let att = Attachment {
            ledger_id: l.id,
            table,
            owner,
            key_column: columns[0].1.clone(),
            key_type: types["key_column"],
            date_column: columns[1].1.clone(),
            white_column: columns[2].1.clone(),
            black_column: columns[3].1.clone(),
            result_column: columns[4].1.clone(),
            result_map: map,
            scope_column: scope_column.map(str::to_owned),
            filter: filter.map(str::to_owned),
            multiplayer: None,
        };
        attach(&mut store, &l, &att, result_map)
    })
}

/// `ledger_attach_multiplayer(ledger, participants, game_column, date_column, player_column,
/// placement_column, rule, higher_is_better, scope_column, filter)` (declared in sql/ledgers.sql).
#[allow(clippy::too_many_arguments)]
#[pg_extern(volatile, parallel_unsafe, sql = false)]
fn ledger_attach_multiplayer(
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
) -> i64 {
    let ledger = need(ledger, "ledger");
    let table = participants.unwrap_or_else(|| {
        raise(
            PgSqlErrorCode::ERRCODE_NULL_VALUE_NOT_ALLOWED,
            "ledger_attach_multiplayer: participants must not be NULL",
        )
    });
    let rule = MultiplayerRule::parse(rule.unwrap_or("pairwise"))
        .unwrap_or_else(|e| raise(PgSqlErrorCode::ERRCODE_INVALID_PARAMETER_VALUE, e.message));
    let mut columns = vec![
        ("game_column", need(game_column, "game_column")),
        ("date_column", need(date_column, "date_column")),
        ("player_column", need(player_column, "player_column")),
        (
            "placement_column",
            need(placement_column, "placement_column"),
        ),
    ];
    for c in scope_column
        .map(attachment::scope_columns)
        .unwrap_or_default()
    {
        columns.push(("scope_column", c.to_owned()));
    }
    writes_allowed("ledger_attach_multiplayer()");
    let _writing = DerivedWrite::begin();
    Spi::connect_mut(|client| {
        let mut store = LedgerStore::new(client);
        let (l, owner) = attachable(&mut store, &ledger, table);
        if rule == MultiplayerRule::Period && l.settings.rating_system != "glicko2" {
            raise(
                PgSqlErrorCode::ERRCODE_INVALID_PARAMETER_VALUE,
                format!(
                    "the period rule is for Glicko-2 ledgers; ledger \"{ledger}\" is {}",
                    l.settings.rating_system
                ),
            );
        }
        let types = column_types(&mut store, table, &columns);
        check_type(
            &types,
            attachment::date_type_supported(types["date_column"]),
            "date_column",
            "timestamptz, timestamp or date",
        );
        check_type(
            &types,
            attachment::score_type_supported(types["placement_column"]),
            "placement_column",
            "a number",
        );
        let att = Attachment {
            ledger_id: l.id,
            table,
            owner,
            key_column: columns[0].1.clone(),
            key_type: types["game_column"],
            date_column: columns[1].1.clone(),
            white_column: columns[2].1.clone(),
            black_column: String::new(),
            result_column: String::new(),
            result_map: None,
            scope_column: scope_column.map(str::to_owned),
            filter: filter.map(str::to_owned),
            multiplayer: Some(attachment::Multiplayer {
                player_column: columns[2].1.clone(),
                placement_column: columns[3].1.clone(),
                higher_is_better: higher_is_better.unwrap_or(false),
                rule,
            }),
        };
        attach(&mut store, &l, &att, None)
    })
}

fn detach(store: &mut LedgerStore<'_, '_>, ledger: i32) {
    let Some(att) = store.attachment(ledger) else {
        return;
    };
    // SAFETY: a catalog lookup; a dropped table has no triggers left to drop.
    let table_exists = unsafe { !pg_sys::get_rel_name(att.table).is_null() };
    if table_exists {
        hold_off_writers(att.table);
    }
    store.delete_attachment(ledger);
    if table_exists {
        let mut names = Vec::from(legacy_trigger_names(ledger));
        if store.ledgers_on(att.table).is_empty() {
            names.extend(TABLE_TRIGGERS.map(|(name, _)| name.to_owned()));
        }
        for name in names {
            drop_trigger(store, &att, &name);
        }
    }
}

/// Drops the triggers of a ledger's games table; the history stays.
#[pg_extern(volatile, strict, parallel_unsafe, sql = false)]
fn ledger_detach(ledger: &str) {
    writes_allowed("ledger_detach()");
    let _writing = DerivedWrite::begin();
    Spi::connect_mut(|client| {
        let mut store = LedgerStore::new(client);
        let l = store.ledger_named(ledger);
        require_owner(&l, "detach");
        detach(&mut store, l.id);
    })
}

/// Replays a ledger from its games table from scratch.
#[pg_extern(volatile, strict, parallel_unsafe, sql = false)]
fn ledger_rebuild(ledger: &str) -> i64 {
    writes_allowed("ledger_rebuild()");
    let _writing = DerivedWrite::begin();
    Spi::connect_mut(|client| {
        let mut store = LedgerStore::new(client);
        let l = store.ledger_named_to_write(ledger);
        require_owner(&l, "rebuild");
        // the attachment as it is once the scopes are locked (see `locked_for_replay`)
        store.lock_all_scopes(l.id);
        let att = attached(&mut store, &l);
        rebuild(&mut store, &l, &att)
    })
}

/// BEFORE INSERT, UPDATE or DELETE ON ledgers: settings are checked (23514), only a member of a
/// ledger's owner changes it, and a deleted ledger is detached first.
fn check_ledger<'a>(
    trigger: &'a PgTrigger<'a>,
) -> Result<Option<PgHeapTuple<'a, AllocatedByPostgres>>, PgTriggerError> {
    let op = trigger.op()?;
    if let Some(old) = trigger.old() {
        let owner: pg_sys::Oid = old
            .get_by_name("owner")
            .ok()
            .flatten()
            .unwrap_or(pg_sys::InvalidOid);
        if !restoring() && !is_member(caller(), owner) {
            raise(
                PgSqlErrorCode::ERRCODE_INSUFFICIENT_PRIVILEGE,
                "permission denied: only a member of a ledger's owner may change or delete it",
            );
        }
    }
    if matches!(op, PgTriggerOperation::Delete) {
        let id: i32 = trigger
            .old()
            .and_then(|o| o.get_by_name("id").ok().flatten())
            .unwrap_or(0);
        Spi::connect_mut(|client| {
            let mut store = LedgerStore::new(client);
            detach(&mut store, id);
            store.forget(id);
        });
        return Ok(trigger.old());
    }
    let new = trigger.new().unwrap_or_else(|| internal("no new row"));
    let owner: pg_sys::Oid = new
        .get_by_name("owner")
        .ok()
        .flatten()
        .unwrap_or(pg_sys::InvalidOid);
    if !restoring() && !is_member(caller(), owner) {
        raise(
            PgSqlErrorCode::ERRCODE_INSUFFICIENT_PRIVILEGE,
            "permission denied: a ledger's owner must be a role the session is a member of",
        );
    }
    let settings = store::settings_of_tuple(&new);
    if let Err(e) = settings.rules() {
        raise(
            PgSqlErrorCode::ERRCODE_CHECK_VIOLATION,
            format!("ledger settings rejected: {e}"),
        );
    }
    Ok(Some(new))
}
trigger_function!(
    check_ledger,
    check_ledger_wrapper,
    pg_finfo_check_ledger_wrapper,
    ["ledgers"]
);

/// AFTER UPDATE ON ledgers: an attached ledger whose settings changed is rebuilt.
fn rebuild_changed_ledger<'a>(
    trigger: &'a PgTrigger<'a>,
) -> Result<Option<PgHeapTuple<'a, AllocatedByPostgres>>, PgTriggerError> {
    let (Some(old), Some(new)) = (trigger.old(), trigger.new()) else {
        return Ok(None);
    };
    if restoring() || store::settings_of_tuple(&old) == store::settings_of_tuple(&new) {
        return Ok(None);
    }
    let id: i32 = new.get_by_name("id").ok().flatten().unwrap_or(0);
    Spi::connect_mut(|client| {
        let mut store = LedgerStore::new(client);
        let (Some(l), Some(att)) = (store.ledger_to_write(id), store.attachment(id)) else {
            return;
        };
        rebuild(&mut store, &l, &att);
    });
    Ok(None)
}
trigger_function!(
    rebuild_changed_ledger,
    rebuild_changed_ledger_wrapper,
    pg_finfo_rebuild_changed_ledger_wrapper,
    ["ledgers"]
);

/// A ledger (share-locked) and its attachment as they are once the scope is locked: the
/// attachment is read after the lock, because attaching a ledger anew rebuilds it under the
/// locks of its scopes, and a replay by the attachment read before would follow the old one.
fn locked_for_replay(
    store: &mut LedgerStore<'_, '_>,
    ledger: i32,
    scope: &str,
) -> Option<(Ledger, Attachment)> {
    let l = store.ledger_to_write(ledger)?;
    store.lock_scope(ledger, scope);
    Some((l, store.attachment(ledger)?))
}

/// AFTER INSERT, UPDATE or DELETE ON ledger_seeds, per row: the player's scope is replayed from
/// the player's first game (which now starts from the new seed, or from the ledger's start).
fn reseed_ledger<'a>(
    trigger: &'a PgTrigger<'a>,
) -> Result<Option<PgHeapTuple<'a, AllocatedByPostgres>>, PgTriggerError> {
    if restoring() {
        return Ok(None);
    }
    let mut seeds = Vec::new();
    for row in [trigger.old(), trigger.new()].into_iter().flatten() {
        let ledger: i32 = row.get_by_name("ledger_id").ok().flatten().unwrap_or(0);
        let scope: String = row.get_by_name("scope").ok().flatten().unwrap_or_default();
        let player: String = row.get_by_name("player").ok().flatten().unwrap_or_default();
        if !seeds.contains(&(ledger, scope.clone(), player.clone())) {
            seeds.push((ledger, scope, player));
        }
    }
    Spi::connect_mut(|client| {
        let mut store = LedgerStore::new(client);
        for (id, scope, player) in seeds {
            let Some((l, att)) = locked_for_replay(&mut store, id, &scope) else {
                continue;
            };
            if let Some(from) = store.first_game(id, &scope, &player) {
                let rules = rules_of(&l);
                let book = LedgerBook {
                    ledger: &l,
                    att: &att,
                };
                writer::replay_from(&mut store, &book, &rules, &scope, &from, &[]);
            }
        }
    });
    Ok(None)
}
trigger_function!(
    reseed_ledger,
    reseed_ledger_wrapper,
    pg_finfo_reseed_ledger_wrapper,
    ["ledger_seeds"]
);

/// AFTER INSERT, UPDATE or DELETE ON ledger_seasons, per row: the scope is replayed from its
/// first game at or after the season's end (before and after the change).
fn reseason_ledger<'a>(
    trigger: &'a PgTrigger<'a>,
) -> Result<Option<PgHeapTuple<'a, AllocatedByPostgres>>, PgTriggerError> {
    if restoring() {
        return Ok(None);
    }
    let mut ends: BTreeMap<(i32, String), i64> = BTreeMap::new();
    for row in [trigger.old(), trigger.new()].into_iter().flatten() {
        let ledger: i32 = row.get_by_name("ledger_id").ok().flatten().unwrap_or(0);
        let scope: String = row.get_by_name("scope").ok().flatten().unwrap_or_default();
        let at: Option<TimestampWithTimeZone> = row.get_by_name("ends_at").ok().flatten();
        let at = at.map_or(i64::MIN, |t| t.into_inner());
        let end = ends.entry((ledger, scope)).or_insert(at);
        *end = (*end).min(at);
    }
    Spi::connect_mut(|client| {
        let mut store = LedgerStore::new(client);
        for ((id, scope), at) in ends {
            let Some((l, att)) = locked_for_replay(&mut store, id, &scope) else {
                continue;
            };
            if let Some(from) = store.first_entry_from(id, &scope, at) {
                let rules = rules_of(&l);
                let book = LedgerBook {
                    ledger: &l,
                    att: &att,
                };
                if att.multiplayer.is_some() {
                    replay_multi_from(&mut store, &book, &rules, &scope, &from, &[]);
                } else {
                    writer::replay_from(&mut store, &book, &rules, &scope, &from, &[]);
                }
            }
        }
    });
    Ok(None)
}
trigger_function!(
    reseason_ledger,
    reseason_ledger_wrapper,
    pg_finfo_reseason_ledger_wrapper,
    ["ledger_seasons"]
);

crate::chess::finfo_v1!(pg_finfo_ledger_games_changed_wrapper);

/// AFTER INSERT, UPDATE, DELETE or TRUNCATE of a games table with ledgers attached, per statement
/// (the triggers ledger_attach creates, one set per table): every ledger of the table, the
/// participants tables' ones first, by id, then the two-player ones together ([`apply_changes`]),
/// so that concurrent writers take the scope locks in one order. A trigger of 0.3-0.6 (one set per
/// ledger) names its ledger as its argument and keeps only that one.
#[pg_guard]
#[unsafe(no_mangle)]
pub unsafe extern "C-unwind" fn ledger_games_changed_wrapper(
    fcinfo: pg_sys::FunctionCallInfo,
) -> pg_sys::Datum {
    let violation =
        |m: String| -> ! { raise(PgSqlErrorCode::ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED, m) };
    // SAFETY: PostgreSQL calls this V1 function with its fcinfo.
    if !unsafe { pgrx::trigger_support::called_as_trigger(fcinfo) } {
        violation("ledger_games_changed() is a trigger function of pg_rating and cannot be called directly".into());
    }
    // SAFETY: called by the trigger manager: the context is its TriggerData.
    let trigger_data = unsafe { (*fcinfo).context } as *mut pg_sys::TriggerData;
    let trigger =
        unsafe { PgTrigger::from_fcinfo(&*fcinfo) }.unwrap_or_else(|e| violation(e.to_string()));
    let only: Option<i32> = match trigger.extra_args() {
        Ok(args) if args.is_empty() => None,
        Ok(args) if args.len() == 1 => Some(args[0].parse().unwrap_or_else(|_| {
            violation("ledger_games_changed() takes no argument, or the id of a ledger".into())
        })),
        _ => violation("ledger_games_changed() takes no argument, or the id of a ledger".into()),
    };
    let relid = trigger.relid().unwrap_or_else(|e| violation(e.to_string()));
    if restoring() {
        return pg_sys::Datum::from(0);
    }
    let truncate = matches!(trigger.op(), Ok(PgTriggerOperation::Truncate));
    let _writing = DerivedWrite::begin();
    Spi::connect_mut(|client| {
        // SAFETY: the trigger's own data, registered so that its transition tables can be read.
        unsafe { pg_sys::SPI_register_trigger_data(trigger_data) };
        let mut store = LedgerStore::new(client);
        let mut ledgers = store.ledgers_on(relid);
        if let Some(id) = only {
            ledgers.retain(|(l, _)| l.id == id);
        }
        if ledgers.is_empty() {
            violation(match only {
                Some(id) => format!(
                    "ledger_games_changed() fires only on the games table attached to ledger {id}"
                ),
                None => "ledger_games_changed() fires only on a games table with a ledger attached"
                    .into(),
            });
        }
        // SAFETY: the TriggerData of this call.
        let (has_old, has_new) = unsafe {
            (
                !(*trigger_data).tg_oldtable.is_null(),
                !(*trigger_data).tg_newtable.is_null(),
            )
        };
        if truncate {
            for (l, att) in &ledgers {
                rebuild(&mut store, l, att);
            }
            return;
        }
        let mut two_player = Vec::new();
        for (l, att) in &ledgers {
            match att.multiplayer {
                Some(_) => multiplayer_changed(&mut store, l, att, has_old, has_new),
                None => two_player.push((l, att)),
            }
        }
        let atts: Vec<&Attachment> = two_player.iter().map(|(_, att)| *att).collect();
        let mut read = |has: bool, table: &str| match has {
            true => store.read_changed(&atts, table),
            false => atts.iter().map(|_| Vec::new()).collect(),
        };
        let (olds, news) = (
            read(has_old, "pg_rating_old"),
            read(has_new, "pg_rating_new"),
        );
        let changes: Vec<Changes<'_>> = two_player
            .into_iter()
            .zip(olds.into_iter().zip(news))
            .map(|((ledger, att), (old, new))| Changes {
                ledger,
                att,
                old,
                new,
            })
            .collect();
        apply_changes(&mut store, &changes);
        store.flush();
    });
    pg_sys::Datum::from(0)
}

/// Applies a statement's changes of a participants table (its transition tables) to one ledger.
fn multiplayer_changed(
    store: &mut LedgerStore<'_, '_>,
    l: &Ledger,
    att: &Attachment,
    has_old: bool,
    has_new: bool,
) {
    let mut read = |has: bool, table: &str| {
        if has {
            store.read_participants(att, &att.changed_rows_query(table), &[])
        } else {
            Vec::new()
        }
    };
    let old = read(has_old, "pg_rating_old");
    let new = read(has_new, "pg_rating_new");
    apply_multi_changes(store, l, att, &old, &new);
}
