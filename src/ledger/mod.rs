//! Ledgers in the database (sql/ledgers.sql): attaching a ledger to an application's games table
//! (`attach`), the triggers that keep it current (`triggers`), and here what they do with a
//! statement's changes and with a rebuild. Every rating is decided by `pg_rating_core::ledger`:
//! this module locks the scopes the changed games touch and hands them to the writer's run
//! (`pg_rating_core::ledger::writer::Run`, shared with the Random Chess rankings), which
//! `tables` drives: it answers the run's reads and writes the rows it returns.

mod analytics;
pub(crate) mod attach;
pub(crate) mod attachment;
mod copies;
pub(crate) use crate::compat::for_writers;
mod store;
pub(crate) use store::SCOPE_LOCKS;
mod reads;
mod svg;
mod tables;
mod triggers;
mod unchanged;

use std::collections::{BTreeMap, BTreeSet};

use pg_rating_core::ledger::attachment::{changed_by_scope, old_entries};
use pg_rating_core::ledger::digest::RowDigests;
use pg_rating_core::ledger::writer::{
    Check, Fresh, FreshGames, Kind, ReplayFrom, Run, ScopeChanges,
};
use pg_rating_core::ledger::{LedgerGame, LedgerKey, LedgerRules, MultiGame};
use pgrx::prelude::*;

use crate::error::raise;
use attachment::{Attachment, GameRow, ParticipantRow};
use store::{Ledger, LedgerStore};
pub(crate) use tables::Keeps;
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
        compat::ledger_attach,
        compat::ledger_attach_multiplayer,
        attach::ledger_attach_0_13,
        attach::ledger_attach_multiplayer_0_13,
        attach::ledger_detach,
        attach::ledger_rebuild
    ]
);

extension_sql_file!(
    "../../sql/ledger_policies.sql",
    name = "ledger_policies",
    requires = ["ledgers"]
);

extension_sql_file!(
    "../../sql/ledger_copies.sql",
    name = "ledger_copies",
    requires = ["ledger_policies"]
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

/// Applies a statement's changes to the two-player ledgers of its table: every scope's lock in
/// one statement, then the writer ([`writer::Run::apply`]). Returns the number of entries written.
fn apply_changes(store: &mut LedgerStore<'_, '_>, changes: &[Changes<'_>]) -> usize {
    let scopes: Vec<_> = changes
        .iter()
        .map(|c| changed_by_scope(&c.old, &c.new))
        .collect();
    // Every scope's lock, in (ledger, scope) order: concurrent writers never deadlock.
    let mut locks: Vec<(i32, &str)> = changes
        .iter()
        .zip(&scopes)
        .flat_map(|(c, s)| s.keys().map(|scope| (c.ledger.id, *scope)))
        .collect();
    locks.sort_unstable();
    store.lock_scopes(&locks);
    let mut work = Vec::new();
    for (c, by) in changes.iter().zip(&scopes) {
        let book = LedgerBook {
            ledger: c.ledger,
            att: c.att,
        };
        let rules = rules_of(c.ledger);
        for (scope, (olds, news)) in by {
            let mut games: Vec<LedgerGame> = news.iter().map(|g| ledger_game(g)).collect();
            games.sort_by(|a, b| a.key.cmp(&b.key));
            work.push(ScopeChanges {
                ledger: book.for_writer(rules),
                scope: (*scope).to_owned(),
                first_old: olds.iter().map(|g| &g.key).min().cloned(),
                olds: old_entries(olds),
                games,
            });
        }
    }
    store.drive(Run::apply(work))
}

/// The multiplayer games of participant rows ([`pg_rating_core::ledger::games_of_participants`]).
fn multi_games(rows: &[&ParticipantRow]) -> Vec<MultiGame> {
    pg_rating_core::ledger::games_of_participants(
        rows.iter()
            .map(|r| (&r.key, r.player.as_str(), r.placement)),
    )
    .unwrap_or_else(|e| crate::error::raise_core(&e))
}

/// A scope to replay: its name, the game it replays from, and the (player, game) pairs of the rows
/// a statement changed or deleted, as they were.
type ScopeReplay = (String, LedgerKey, Vec<(String, LedgerKey)>);

/// Replays scopes of a ledger (locked) from a game on each: `olds` are the (player, game)
/// pairs of the rows a statement changed or deleted, as they were. Returns the number of entries
/// written.
fn replay_scopes(
    store: &mut LedgerStore<'_, '_>,
    book: LedgerBook<'_>,
    scopes: Vec<ScopeReplay>,
) -> usize {
    let rules = rules_of(book.ledger);
    let kind = match &book.att.multiplayer {
        Some(m) => Kind::Multiplayer(m.rule),
        None => Kind::TwoPlayer,
    };
    let replays = scopes
        .into_iter()
        .map(|(scope, from, olds)| ReplayFrom {
            ledger: book.for_writer(rules),
            kind,
            scope,
            from,
            olds,
        })
        .collect();
    store.drive(Run::replay(replays))
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
    let replays = by_scope
        .into_iter()
        .filter_map(|(scope, (olds, from))| {
            let olds = olds
                .iter()
                .map(|r| (r.player.clone(), r.key.clone()))
                .collect();
            Some((scope.to_owned(), from?.clone(), olds))
        })
        .collect();
    replay_scopes(store, LedgerBook { ledger, att }, replays)
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

/// `f`'s result and the seconds it took.
fn timed<R>(f: impl FnOnce() -> R) -> (R, f64) {
    let from = std::time::Instant::now();
    let r = f();
    (r, from.elapsed().as_secs_f64())
}

/// Why a ledger is rebuilt, which says whether its stored rows are expected to stay.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Rebuild {
    /// On request (`ledger_rebuild`: a check or a repair): the rows are most likely right, so
    /// the replay digests them first ([`Run::rebuild_checked`]) and makes them only if the stored
    /// ones differ.
    Check,
    /// New settings, a new attachment, a truncated games table: the rows change, most or some of
    /// them (those equal to the stored ones stay).
    Rewrite,
    /// New rules of rating ([`LedgerRules::rewrite_every_entry`]: a new K, say): every row
    /// changes, so the stored ones are deleted while the games replay on a second thread, and
    /// the replay's are inserted, nothing compared.
    EveryRow,
}

/// Replays a ledger from scratch; the rows already equal to the replay's stay. Returns the
/// number of entries of the replay.
fn rebuild(
    store: &mut LedgerStore<'_, '_>,
    ledger: &Ledger,
    att: &Attachment,
    why: Rebuild,
) -> i64 {
    let started = std::time::Instant::now();
    let rules = rules_of(ledger);
    let book = LedgerBook { ledger, att };
    let mut fresh = Vec::new();
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
            fresh.push(Fresh {
                ledger: book.for_writer(rules),
                scope: scope.to_owned(),
                games: FreshGames::Multiplayer(m.rule, multi_games(&rows)),
            });
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
            fresh.push(Fresh {
                ledger: book.for_writer(rules),
                scope,
                games: FreshGames::TwoPlayer(games),
            });
        }
        locked
    };
    let read = started.elapsed();
    // where a rebuild's time goes (bench/ledgers_scale.sh prints it)
    let replayed = |what: &str| {
        pgrx::debug2!(
            "ledger {} rebuild: games read in {:.2} s, {what} in {:.2} s",
            ledger.id,
            read.as_secs_f64(),
            (started.elapsed() - read).as_secs_f64()
        )
    };
    let (done, known) = match why {
        Rebuild::Rewrite => (store.finish(Run::rebuild(fresh)), None),
        Rebuild::EveryRow => {
            let mut run = Run::rebuild(fresh);
            store.answer_all(&mut run);
            let expected = run.rows_expected();
            let answered = started.elapsed();
            let ((done, replay_s), (_, deleted_s)) = crate::apart::alongside(
                || timed(|| run.compute()),
                || timed(|| store.delete_stored(ledger.id, &locked, expected)),
            );
            let done = done.unwrap_or_else(|e| <LedgerStore as Keeps<_>>::failed(e));
            // where a rebuild's time goes (bench/ledgers_scale.sh prints it)
            pgrx::debug2!(
                "ledger {} rebuild: games read in {:.2} s, the replay planned and its reads \
                 answered in {:.2} s, replayed in {replay_s:.2} s while the stored rows were \
                 deleted in {deleted_s:.2} s",
                ledger.id,
                read.as_secs_f64(),
                (answered - read).as_secs_f64(),
            );
            let written = done.written as i64;
            store.insert_rebuilt(ledger.id, done.scopes);
            return written;
        }
        Rebuild::Check => {
            let digests = RowDigests::new();
            // (the same key for the stored rows' digests as for the replay's)
            let mut stored_digests = digests.clone();
            let check = Check {
                digests,
                integer_keys: att.is_integer(),
            };
            let mut run = Run::rebuild_checked(fresh, check);
            store.answer_all(&mut run);
            let expected = run.rows_expected();
            let answered = started.elapsed();
            // The replay (the core's, reading nothing) on a thread apart while the stored rows
            // are read and digested here.
            let digests = &mut stored_digests;
            let ((done, replay_s), (stored, stored_s)) = crate::apart::alongside(
                || timed(|| run.compute()),
                || timed(|| store.digest_stored(ledger.id, &locked, digests, expected)),
            );
            let done = done.unwrap_or_else(|e| <LedgerStore as Keeps<_>>::failed(e));
            // where a rebuild's time goes (bench/ledgers_scale.sh prints it)
            pgrx::debug2!(
                "ledger {} rebuild: games read in {:.2} s, the replay planned and its reads \
                 answered in {:.2} s, replayed and digested in {replay_s:.2} s while the stored \
                 rows were digested in {stored_s:.2} s",
                ledger.id,
                read.as_secs_f64(),
                (answered - read).as_secs_f64(),
            );
            let checked = done
                .checked
                .unwrap_or_else(|| crate::error::internal("a checked rebuild without digests"));
            let verdict = store.compare_checked(ledger, checked, stored);
            if verdict.all_same() {
                return done.written as i64;
            }
            let rows = run.rows();
            replayed("replayed, digested, compared and replayed again");
            let rows = rows.unwrap_or_else(|e| <LedgerStore as Keeps<_>>::failed(e));
            (rows, Some(verdict))
        }
    };
    if why == Rebuild::Rewrite {
        replayed("replayed");
    }
    store.replace_rebuilt(ledger.id, &locked, done.scopes, known);
    done.written as i64
}
