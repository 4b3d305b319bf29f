//! The ledgers' trigger entry points: the statement triggers of an attached games or
//! participants table (`ledger_games_changed`), and the triggers that check a ledger's settings
//! and replay what a change of settings, seeds or seasons changes.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};

use pg_rating_core::ledger::attachment::game_ids;
use pg_rating_core::ledger::changed_season_ends;
use pg_rating_core::ledger::row_check::{check_seed_row, LedgerWrite, NewLedger};
use pgrx::prelude::*;
use pgrx::PgSqlErrorCode;

use super::attach::{detach, hold_off_writers};
use super::attachment::{Attachment, GameRow, ParticipantRow};
use super::store::{self, Ledger, LedgerStore};
use super::tables::LedgerBook;
use super::{
    apply_changes, apply_multi_changes, internal, rebuild, replay_scopes, Changes, Rebuild,
};
use crate::error::{raise, raise_core};
use crate::restore::restoring;
use crate::security::{acting_role, is_member, RunAs};
use crate::trigger::stored as read;
use crate::trigger::{
    protocol_violation, register_transition_tables, transition_tables, trigger_call,
    trigger_function, writing, DerivedWrite,
};
use crate::writer_lock::local_transaction;

/// 23514 for a seed that the ledger could not start a player from (the core's bounds).
fn check_seed(row: &PgHeapTuple<'_, AllocatedByPostgres>) {
    let rating: f64 = read(row, "rating");
    let rd: Option<f64> = crate::trigger::field(row, "rd");
    let volatility: Option<f64> = crate::trigger::field(row, "volatility");
    check_seed_row(rating, rd, volatility).unwrap_or_else(|e| raise_core(&e));
}

/// 42501 unless the role that acts is a member of the owner of each of `ledgers` (seeds and
/// seasons are changed by their ledger's owner only), checked before any scope is locked.
fn require_owner_of_each(store: &mut LedgerStore<'_, '_>, ledgers: impl Iterator<Item = i32>) {
    let actor = acting_role();
    for id in ledgers {
        if let Some(l) = store.ledger_by_id(id) {
            super::attach::require_owner(actor, &l, "seed or season");
        }
    }
}

/// The name of the table of that oid, if it exists (a client's table is gone with its extension).
fn table_name(table: pg_sys::Oid) -> Option<String> {
    crate::relation::schema_and_name(table).map(|(_, name)| name)
}

/// BEFORE INSERT, UPDATE or DELETE ON ledgers: settings are checked (23514), only a member of a
/// ledger's owner changes it, and a deleted ledger is detached first. A ledger kept by a client
/// (`kept_in`) is written by pg_rating's own code only (its client's triggers, an extension's
/// script, a restore), with the settings its client checked; once its client's table is gone,
/// its owner may delete it.
fn check_ledger<'a>(
    trigger: &'a PgTrigger<'a>,
) -> Result<Option<PgHeapTuple<'a, AllocatedByPostgres>>, PgTriggerError> {
    let op = trigger.op()?;
    let (old, new) = (trigger.old(), trigger.new());
    let rows = || [&old, &new].into_iter().flatten();
    let kept_in = rows().find_map(crate::compat::kept_in).map(table_name);
    let name: Option<String> = rows().next().and_then(|r| crate::trigger::field(r, "name"));
    // (a restore may write any row)
    let member_of = |row: &PgHeapTuple<'_, AllocatedByPostgres>| {
        restoring() || is_member(acting_role(), read(row, "owner"))
    };
    // a NULL in a NOT NULL column: its constraint reports it (23502) after this trigger
    let new_name: Option<String> = new.as_ref().and_then(|r| crate::trigger::field(r, "name"));
    let new_settings = new.as_ref().and_then(store::settings_of_tuple);
    let new_row = match (&new, &new_name, &new_settings) {
        (Some(row), Some(name), Some(settings))
            if crate::trigger::field::<pg_sys::Oid>(row, "owner").is_some() =>
        {
            Some(NewLedger {
                name,
                member_of_owner: member_of(row),
                settings,
            })
        }
        _ => None,
    };
    let deleted = matches!(op, PgTriggerOperation::Delete);
    let write = LedgerWrite {
        name: name.as_deref(),
        kept_in: kept_in.as_ref().map(Option::as_deref),
        // SAFETY: reads a flag of this backend, set while an extension's script runs.
        by_pg_rating: writing() || restoring() || unsafe { pg_sys::creating_extension },
        deleted,
        member_of_old_owner: old.as_ref().map(member_of),
        amid_a_write: crate::trigger::amid_a_write(),
        new: new_row,
    };
    write.check().unwrap_or_else(|e| raise_core(&e));
    if deleted {
        let id: i32 = read(old.as_ref().unwrap_or_else(|| internal("no old row")), "id");
        let _owner = RunAs::extension_owner();
        let _writing = DerivedWrite::begin();
        Spi::connect_mut(|client| {
            let mut store = LedgerStore::new(client);
            detach(&mut store, id);
            store.forget(id);
        });
        return Ok(old);
    }
    Ok(Some(new.unwrap_or_else(|| internal("no new row"))))
}
trigger_function!(
    check_only check_ledger,
    check_ledger_wrapper,
    pg_finfo_check_ledger_wrapper,
    ["ledgers"]
);

/// The settings of a stored `ledgers` row (an AFTER trigger's): an internal error when one is NULL.
fn stored_settings(
    row: &PgHeapTuple<'_, AllocatedByPostgres>,
) -> pg_rating_core::ledger::LedgerSettings {
    store::settings_of_tuple(row)
        .unwrap_or_else(|| internal("a stored ledgers row with a NULL setting"))
}

/// AFTER UPDATE ON ledgers: an attached ledger whose settings changed is rebuilt.
fn rebuild_changed_ledger<'a>(
    trigger: &'a PgTrigger<'a>,
) -> Result<Option<PgHeapTuple<'a, AllocatedByPostgres>>, PgTriggerError> {
    let (Some(old), Some(new)) = (trigger.old(), trigger.new()) else {
        return Ok(None);
    };
    // (a ledger kept by a client is rebuilt by its client, whose settings it follows)
    if restoring()
        || crate::compat::kept_in(&new).is_some()
        || stored_settings(&old) == stored_settings(&new)
    {
        return Ok(None);
    }
    let id: i32 = read(&new, "id");
    // (settings stored are valid: checked by check_ledger as they were written)
    let rules = |row| stored_settings(row).rules().ok();
    let why = match (rules(&old), rules(&new)) {
        (Some(old), Some(new)) if old.rewrite_every_entry(&new) => Rebuild::EveryRow,
        _ => Rebuild::Rewrite,
    };
    Spi::connect_mut(|client| {
        let mut store = LedgerStore::new(client);
        let (Some(l), Some(att)) = (store.ledger_to_write(id), store.attachment(id)) else {
            return;
        };
        // The games table's writers wait for the rebuild, queued behind it: those under way
        // finish by the old settings first (see `LedgerStore::ledgers_on`).
        hold_off_writers(att.table);
        rebuild(&mut store, &l, &att, why);
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
/// The scope's seeds or seasons (`copy`: "ledger_seeds" or "ledger_seasons") are copied again
/// under that lock, attached or not: two transactions that change one scope's seeds then copy
/// them one after the other. (Copied before the lock, the later one's delete missed the rows the
/// earlier one's copy had committed meanwhile, and its insert failed on them with 23505.)
fn locked_for_replay(
    store: &mut LedgerStore<'_, '_>,
    ledger: i32,
    scope: &str,
    copy: &str,
) -> Option<(Ledger, Attachment)> {
    let l = store.ledger_to_write(ledger);
    if let Some(l) = &l {
        store.refuse_kept_elsewhere(l);
        store.lock_scope(ledger, scope);
    }
    super::copies::copy_scope(store.client, copy, ledger, scope);
    Some((l?, store.attachment(ledger)?))
}

/// 55000 for a change (`what`) of what a ledger's write reads, made by a filter or a column path
/// that the write runs (checked in the body of a trigger that marks pg_rating's writers).
fn refuse_amid_a_write(what: &str) {
    pg_rating_core::amid_a_write::may_write(what, crate::trigger::amid_a_write_in_trigger())
        .unwrap_or_else(|e| raise_core(&e));
}

/// Players whose seeds changed, by (ledger, scope).
type SeedsByScope = BTreeMap<(i32, String), BTreeSet<String>>;

thread_local! {
    /// The seeds that this transaction's statements changed and whose scopes are not replayed yet,
    /// with the transaction. The statement trigger replays each scope once.
    static CHANGED_SEEDS: RefCell<(pg_sys::LocalTransactionId, SeedsByScope)> =
        const { RefCell::new((0, BTreeMap::new())) };
}

/// The changed seeds of this transaction (forgotten when a new transaction begins).
fn changed_seeds<T>(f: impl FnOnce(&mut SeedsByScope) -> T) -> T {
    CHANGED_SEEDS.with_borrow_mut(|(xact, seeds)| {
        let transaction = local_transaction();
        if *xact != transaction {
            *xact = transaction;
            seeds.clear();
        }
        f(seeds)
    })
}

/// AFTER INSERT, UPDATE or DELETE ON ledger_seeds, per row: the seed is checked (its ledger's
/// owner, its bounds) and its player noted; [`reseed_ledger_scopes`] replays at the statement's end.
fn reseed_ledger<'a>(
    trigger: &'a PgTrigger<'a>,
) -> Result<Option<PgHeapTuple<'a, AllocatedByPostgres>>, PgTriggerError> {
    if restoring() {
        return Ok(None);
    }
    refuse_amid_a_write("a change of ledger_seeds");
    let mut seeds = Vec::new();
    for row in [trigger.old(), trigger.new()].into_iter().flatten() {
        let ledger: i32 = read(&row, "ledger_id");
        let scope: String = read(&row, "scope");
        let player: String = read(&row, "player");
        seeds.push((ledger, scope, player));
    }
    if let Some(new) = trigger.new() {
        check_seed(&new);
    }
    Spi::connect_mut(|client| {
        require_owner_of_each(&mut LedgerStore::new(client), seeds.iter().map(|s| s.0));
    });
    changed_seeds(|changed| {
        for (ledger, scope, player) in seeds {
            changed.entry((ledger, scope)).or_default().insert(player);
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

/// AFTER INSERT, UPDATE or DELETE ON ledger_seeds, per statement: each scope whose seeds changed
/// is replayed once, from the earliest first game of its changed players (which now start from
/// their new seeds, or from the ledger's start): an import of 10,000 seeds costs one replay per
/// scope, not one per seed.
fn reseed_ledger_scopes<'a>(
    _trigger: &'a PgTrigger<'a>,
) -> Result<Option<PgHeapTuple<'a, AllocatedByPostgres>>, PgTriggerError> {
    if restoring() {
        return Ok(None);
    }
    let changed = changed_seeds(std::mem::take);
    if changed.is_empty() {
        return Ok(None);
    }
    let _owner = RunAs::extension_owner();
    Spi::connect_mut(|client| {
        let mut store = LedgerStore::new(client);
        for ((id, scope), players) in changed {
            pg_rating_core::interrupt::check();
            let Some((l, att)) = locked_for_replay(&mut store, id, &scope, "ledger_seeds") else {
                continue;
            };
            let players: Vec<String> = players.into_iter().collect();
            if let Some(from) = store.first_game_of_any(id, &scope, &players) {
                let book = LedgerBook {
                    ledger: &l,
                    att: &att,
                };
                replay_scopes(&mut store, book, vec![(scope, from, Vec::new())]);
            }
        }
    });
    Ok(None)
}
trigger_function!(
    reseed_ledger_scopes,
    reseed_ledger_scopes_wrapper,
    pg_finfo_reseed_ledger_scopes_wrapper,
    ["ledger_seeds"]
);

/// AFTER INSERT, UPDATE or DELETE ON ledger_seasons, per row: the scope is replayed from its
/// first game at or after the season's end (before and after the change); a season of every
/// scope (`every_scope`) replays every scope of its ledger so.
fn reseason_ledger<'a>(
    trigger: &'a PgTrigger<'a>,
) -> Result<Option<PgHeapTuple<'a, AllocatedByPostgres>>, PgTriggerError> {
    if restoring() {
        return Ok(None);
    }
    refuse_amid_a_write("a change of ledger_seasons");
    let rows = [trigger.old(), trigger.new()].into_iter().flatten();
    let ends = changed_season_ends(rows.map(|row| {
        let at: TimestampWithTimeZone = read(&row, "ends_at");
        let every = read(&row, "every_scope");
        (
            read(&row, "ledger_id"),
            read(&row, "scope"),
            every,
            at.into_inner(),
        )
    }));
    Spi::connect_mut(|client| {
        let mut store = LedgerStore::new(client);
        require_owner_of_each(&mut store, ends.keys().map(|k| k.0));
        if let Some(row) = trigger.new() {
            refuse_two_season_ends(&mut store, &row);
        }
    });
    let _owner = RunAs::extension_owner();
    Spi::connect_mut(|client| {
        let mut store = LedgerStore::new(client);
        for ((id, scope), at) in ends {
            match scope {
                Some(scope) => {
                    if let Some((l, att)) =
                        locked_for_replay(&mut store, id, &scope, "ledger_seasons")
                    {
                        replay_season(&mut store, &l, &att, &scope, at);
                    }
                }
                None => reseason_every_scope(&mut store, id, at),
            }
        }
    });
    Ok(None)
}

/// 23505 when a season of every scope and a season of one scope of a ledger would end at the same
/// instant: a scope has one season end at a time (`one_season_end_at_a_time` says so for seasons
/// of one scope).
fn refuse_two_season_ends(
    store: &mut LedgerStore<'_, '_>,
    row: &PgHeapTuple<'_, AllocatedByPostgres>,
) {
    let ledger: i32 = read(row, "ledger_id");
    let scope: String = read(row, "scope");
    let name: String = read(row, "name");
    let every: bool = read(row, "every_scope");
    let at: TimestampWithTimeZone = read(row, "ends_at");
    let other = store.read(
        "SELECT x.name FROM @extschema@.ledger_seasons x
         WHERE x.ledger_id = $1 AND x.ends_at = $2 AND (x.every_scope OR $4)
           AND (x.scope, x.name) IS DISTINCT FROM ($3, $5)
         LIMIT 1",
        &[
            ledger.into(),
            at.into(),
            scope.as_str().into(),
            every.into(),
            name.as_str().into(),
        ],
    );
    if let Some(r) = other.into_iter().next() {
        let other: String = crate::spi::column(&r, "name");
        raise(
            PgSqlErrorCode::ERRCODE_UNIQUE_VIOLATION,
            format!(
                "seasons {} and {} of ledger {ledger} would both end at the same instant in one scope: \
                 one of them is a season of every scope",
                pg_rating_core::error::Quoted(&name),
                pg_rating_core::error::Quoted(&other),
            ),
        );
    }
}

/// Replays a locked scope from its first game at or after `at`.
fn replay_season(
    store: &mut LedgerStore<'_, '_>,
    l: &Ledger,
    att: &Attachment,
    scope: &str,
    at: i64,
) {
    if let Some(from) = store.first_entry_from(l.id, scope, at) {
        let book = LedgerBook { ledger: l, att };
        replay_scopes(store, book, vec![(scope.to_owned(), from, Vec::new())]);
    }
}

/// A season of every scope changed: the games table's writers are held off (as by a change of
/// settings: a scope rated for the first time meanwhile would miss the season), every scope is
/// locked, the seasons copied again, and each scope replayed from its first game at or after `at`.
fn reseason_every_scope(store: &mut LedgerStore<'_, '_>, id: i32, at: i64) {
    let l = store.ledger_to_write(id);
    if let Some(l) = &l {
        store.refuse_kept_elsewhere(l);
    }
    if let Some(att) = store.attachment(id) {
        hold_off_writers(att.table);
    }
    let scopes = store.scopes_rated(id);
    let keys: Vec<(i32, &str)> = scopes.iter().map(|s| (id, s.as_str())).collect();
    store.lock_scopes(&keys);
    super::copies::copy_scope(store.client, "ledger_seasons", id, "");
    // (read again under the locks, as `locked_for_replay` does)
    let (Some(l), Some(att)) = (l, store.attachment(id)) else {
        return;
    };
    hold_off_writers(att.table);
    for scope in &scopes {
        replay_season(store, &l, &att, scope, at);
    }
}
trigger_function!(
    reseason_ledger,
    reseason_ledger_wrapper,
    pg_finfo_reseason_ledger_wrapper,
    ["ledger_seasons"]
);

crate::ffi::finfo_v1!(pg_finfo_ledger_games_changed_wrapper);

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
    // SAFETY: PostgreSQL calls this V1 function with its fcinfo.
    let trigger = unsafe { trigger_call(fcinfo, "ledger_games_changed") };
    let only = crate::compat::only_ledger(&trigger);
    let relid = trigger
        .relid()
        .unwrap_or_else(|e| protocol_violation(e.to_string()));
    if restoring() {
        return pg_sys::Datum::from(0);
    }
    let truncate = matches!(trigger.op(), Ok(PgTriggerOperation::Truncate));
    let _writing = DerivedWrite::begin();
    Spi::connect_mut(|client| {
        let _columns = register_transition_tables(&trigger, client);
        let mut store = LedgerStore::new(client);
        let mut ledgers = store.ledgers_on(relid);
        if let Some(id) = only {
            ledgers.retain(|(l, _)| l.id == id);
        }
        if ledgers.is_empty() {
            protocol_violation(match only {
                Some(id) => format!(
                    "ledger_games_changed() fires only on the games table attached to ledger {id}"
                ),
                None => "ledger_games_changed() fires only on a games table with a ledger attached"
                    .into(),
            });
        }
        let (has_old, has_new) = transition_tables(&trigger);
        if truncate {
            for (l, att) in &ledgers {
                rebuild(&mut store, l, att, Rebuild::Rewrite);
            }
            return;
        }
        let mut two_player = Vec::new();
        for (l, att) in &ledgers {
            match att.multiplayer {
                Some(_) => {
                    let rows = |has: bool, table| has.then(|| att.changed_rows_query(table));
                    let queries = [
                        rows(has_old, "pg_rating_old"),
                        rows(has_new, "pg_rating_new"),
                    ];
                    multiplayer_changed(&mut store, (l, att), queries, att.paths.is_some());
                }
                None => two_player.push((l, att)),
            }
        }
        let atts: Vec<&Attachment> = two_player.iter().map(|(_, att)| *att).collect();
        let mut read = |has: bool, table: &str| match has {
            true => store.read_changed(&atts, table),
            false => atts.iter().map(|_| Vec::new()).collect(),
        };
        let (mut olds, news) = (
            read(has_old, "pg_rating_old"),
            read(has_new, "pg_rating_new"),
        );
        // (without paths the old transition table is the rows as they were)
        for (((l, att), old), new) in two_player.iter().zip(olds.iter_mut()).zip(&news) {
            if att.paths.is_some() {
                old_as_rated(&mut store, l.id, old, new);
            }
        }
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

/// Applies a statement's changes of a participants table to one ledger: the rows its queries of
/// the rows as they were and as they are read (`None`: none), the old ones as the ledger rated
/// them when `as_rated`.
fn multiplayer_changed(
    store: &mut LedgerStore<'_, '_>,
    (l, att): (&Ledger, &Attachment),
    [old, new]: [Option<String>; 2],
    as_rated: bool,
) {
    let mut read =
        |q: Option<String>| q.map_or_else(Vec::new, |q| store.read_participants(att, &q, &[]));
    let (mut old, new) = (read(old), read(new));
    if as_rated {
        old_participants_as_rated(store, l.id, &mut old, &new);
    }
    apply_multi_changes(store, l, att, &old, &new);
}

/// The old rows of an attachment with paths, as the ledger rated them: its entries for the
/// games of `old` and `new` (paths broken by ON DELETE CASCADE included). Old rows read along the
/// paths join the related tables as they are at the end of the statement, which a statement
/// changing two of them (a writable CTE, a cascade) left already changed: their scope or players
/// would be the new ones, and the move of a game left undone. A row read that equals the one
/// rated but for its colours (the entries do not keep them) is kept, so that an unchanged game
/// is not replayed.
fn old_as_rated(
    store: &mut LedgerStore<'_, '_>,
    ledger: i32,
    old: &mut Vec<GameRow>,
    new: &[GameRow],
) {
    let keys = game_ids(old.iter().chain(new).map(|g| &g.key));
    if keys.is_empty() {
        return;
    }
    let rated = store.rated_games(ledger, &keys);
    *old = pg_rating_core::ledger::attachment::old_as_rated(rated, old);
}

/// [`old_as_rated`] for a participants table (the placements rated are not kept: every game
/// reached is replayed).
fn old_participants_as_rated(
    store: &mut LedgerStore<'_, '_>,
    ledger: i32,
    old: &mut Vec<ParticipantRow>,
    new: &[ParticipantRow],
) {
    let keys = game_ids(old.iter().chain(new).map(|g| &g.key));
    *old = match keys.is_empty() {
        true => Vec::new(),
        false => store.rated_participants(ledger, &keys),
    };
}

crate::ffi::finfo_v1!(pg_finfo_ledger_related_changed_wrapper);

/// AFTER INSERT, UPDATE or DELETE of a table that ledgers' paths reach, per statement (the
/// triggers ledger_attach creates on it, one set per table): the games whose paths reach a row
/// whose used columns the statement changed are read as they were before it and as they are,
/// and applied as an UPDATE of their table would be. A statement that changes nothing a ledger
/// reads (a user's last login, say) costs one read of its transition tables.
#[pg_guard]
#[unsafe(no_mangle)]
pub unsafe extern "C-unwind" fn ledger_related_changed_wrapper(
    fcinfo: pg_sys::FunctionCallInfo,
) -> pg_sys::Datum {
    // SAFETY: PostgreSQL calls this V1 function with its fcinfo.
    let trigger = unsafe { trigger_call(fcinfo, "ledger_related_changed") };
    if !matches!(trigger.extra_args(), Ok(args) if args.is_empty()) {
        protocol_violation("ledger_related_changed() takes no argument".into());
    }
    let relid = trigger
        .relid()
        .unwrap_or_else(|e| protocol_violation(e.to_string()));
    if restoring() {
        return pg_sys::Datum::from(0);
    }
    let (has_old, has_new) = transition_tables(&trigger);
    let _writing = DerivedWrite::begin();
    Spi::connect_mut(|client| {
        let _columns = register_transition_tables(&trigger, client);
        let mut store = LedgerStore::new(client);
        // (none left: a detach dropped the triggers of the tables no attachment reaches)
        let ledgers = store.ledgers_reaching(relid);
        let mut touched: Vec<String> = Vec::new();
        for (_, att) in &ledgers {
            for j in att.joins_of(relid) {
                let q = format!("EXISTS ({})", att.touched_query(j, has_old, has_new));
                if !touched.contains(&q) {
                    touched.push(q);
                }
            }
        }
        if touched.is_empty() || !store.any(&touched.join(" OR ")) {
            return;
        }
        let mut two_player = Vec::new();
        for (l, att) in &ledgers {
            pg_rating_core::interrupt::check();
            let query = |before| att.related_rows_query(relid, has_old, has_new, before);
            match att.multiplayer {
                Some(_) => {
                    let queries = [Some(query(true)), Some(query(false))];
                    multiplayer_changed(&mut store, (l, att), queries, true);
                }
                None => two_player.push((l, att)),
            }
        }
        let changes: Vec<Changes<'_>> = two_player
            .into_iter()
            .map(|(ledger, att)| {
                let query = |before| att.related_rows_query(relid, has_old, has_new, before);
                let mut old = store.read_games(att, &query(true), &[]);
                let new = store.read_games(att, &query(false), &[]);
                old_as_rated(&mut store, ledger.id, &mut old, &new);
                Changes {
                    ledger,
                    att,
                    old,
                    new,
                }
            })
            .collect();
        apply_changes(&mut store, &changes);
        store.flush();
    });
    pg_sys::Datum::from(0)
}
