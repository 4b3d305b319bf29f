//! The standings kept current: a change patches the entries it touches, then the rows the core's
//! refresh names are rewritten (see the module documentation of `tournament`).

use std::cell::RefCell;

use pg_rating_core::tournament::{refresh, ByeKind, PlayerNo, RoundEntry};
use pgrx::prelude::*;

use super::store::{internal, Info, StoredCards, TournamentStore, EDITION};
use crate::error::raise_core;

/// Recomputes the standings rows named by the core's refresh for `changed` (player, from round)
/// and, with DE in the order, the shared ranks from the earliest changed round.
pub(super) fn refresh_rows(
    store: &mut TournamentStore<'_, '_>,
    info: &Info,
    changed: &[(PlayerNo, u32)],
    last: i32,
) {
    if last < 1 || changed.is_empty() {
        return;
    }
    let rows = {
        let source = StoredCards {
            store: RefCell::new(&mut *store),
            tournament: info.id,
        };
        refresh(&source, changed, last as u32, EDITION).unwrap_or_else(|e| internal(e))
    };
    store.write_values(info.id, &info.order, &rows);
    if info.has_de() {
        let from = changed.iter().map(|c| c.1).min().unwrap_or(1);
        store.write_ranks(info.id, from, last as u32);
    }
}

/// From scratch: the start, the last round and every standings row. The ratings as of the
/// start are read again from `elo_history` when the start moved or `reread_ratings` is set;
/// otherwise the ratings taken when the start was set are kept (a game dated before the start
/// but recorded after it does not change past standings).
pub(super) fn rebuild(store: &mut TournamentStore<'_, '_>, t: i32, reread_ratings: bool) -> i64 {
    let Some(info) = store.lock(t) else { return 0 };
    let started = store.first_game_date(t);
    let last = store.max_round(t);
    store.set_progress(t, started, last);
    if reread_ratings || started != info.started_at {
        store.update_ratings(t, None);
    }
    let Some(loaded) = store.load(t) else {
        return 0;
    };
    store.write_all(t, &loaded, last as u32)
}

/// The rounds `(old, new)` of the standings become `1..=new`: rows are added or dropped.
fn resize(store: &mut TournamentStore<'_, '_>, info: &Info, new_last: i32) -> Vec<(PlayerNo, u32)> {
    if new_last > info.last_round {
        store.add_rows(info.id, info.last_round + 1, new_last, None);
        // every player's values of the new rounds
        let players: Vec<i32> = store.each(
            "SELECT player_no FROM @extschema@.swiss_tournament_entrants WHERE tournament_id = $1",
            &[info.id.into()],
            "player_no",
        );
        let from = (info.last_round + 1) as u32;
        return players.into_iter().map(|p| (p as PlayerNo, from)).collect();
    }
    if new_last < info.last_round {
        store.drop_rounds_after(info.id, new_last);
    }
    Vec::new()
}

/// Moves the start to `start`; true when a rating as of the start changed (then the caller
/// rebuilds the tournament).
pub(super) fn move_start(
    store: &mut TournamentStore<'_, '_>,
    info: &mut Info,
    start: Option<TimestampWithTimeZone>,
) -> bool {
    if start == info.started_at {
        return false;
    }
    info.started_at = start;
    store.set_progress(info.id, start, info.last_round);
    store.update_ratings(info.id, None) > 0
}

/// After an entry of `round` was added (`added`) or removed: the tournament's last round moves
/// (rows are added or dropped) and is stored. Returns it and the rows the move changed.
pub(super) fn move_last_round(
    store: &mut TournamentStore<'_, '_>,
    info: &mut Info,
    round: i32,
    added: bool,
) -> (i32, Vec<(PlayerNo, u32)>) {
    let new_last = if added {
        info.last_round.max(round)
    } else {
        store.max_round(info.id)
    };
    let changed = resize(store, info, new_last);
    info.last_round = new_last;
    store.set_progress(info.id, info.started_at, new_last);
    (new_last, changed)
}

/// A game of `round` was added (`add`) or removed: patch both entries, the start and the rounds,
/// then refresh.
pub(super) fn game_changed(
    store: &mut TournamentStore<'_, '_>,
    t: i32,
    game_id: i32,
    round: i32,
    add: bool,
    date_was: Option<TimestampWithTimeZone>,
) {
    let Some(mut info) = store.lock(t) else {
        return;
    };
    let Some(game) = store.game(game_id) else {
        return;
    };
    let (Some(w), Some(b)) = (
        store.player_no(t, &game.white),
        store.player_no(t, &game.black),
    ) else {
        internal(format!(
            "tournament {t}: game {game_id} has an unregistered player"
        ))
    };
    let (new_last, mut changed) = move_last_round(store, &mut info, round, add);
    if round <= new_last {
        let (we, be) = if add {
            game.entries(w, b)
                .unwrap_or_else(|e| internal(format!("a tournament game: {e}")))
        } else {
            (RoundEntry::Absent, RoundEntry::Absent)
        };
        store.set_entry(t, round, w, we);
        store.set_entry(t, round, b, be);
        changed.push((w, round as u32));
        changed.push((b, round as u32));
    }
    let start_stays = pg_rating_core::tournament::start::start_stays(
        add,
        game.date,
        date_was.map(|d| d.into_inner()),
        info.started_at.map(|d| d.into_inner()),
    );
    let start = if start_stays {
        info.started_at
    } else {
        store.first_game_date(t)
    };
    if move_start(store, &mut info, start) {
        rebuild(store, t, false);
        return;
    }
    refresh_rows(store, &info, &changed, new_last);
}

/// The kind of bye a stored `byes` row is, by its points (see [`crate::compat::bye_points`]).
pub(super) fn bye_kind(row: &Option<PgHeapTuple<'_, AllocatedByPostgres>>) -> ByeKind {
    let row = row.as_ref().unwrap_or_else(|| internal("no row"));
    let points = crate::compat::bye_points(row).unwrap_or_else(|| internal("a bye without points"));
    ByeKind::of_points(points).unwrap_or_else(|e| raise_core(&e))
}

/// A bye of `kind` added, or one removed (`None`).
pub(super) fn bye_changed(
    store: &mut TournamentStore<'_, '_>,
    t: i32,
    round: i32,
    user: &str,
    kind: Option<ByeKind>,
) {
    let Some(mut info) = store.lock(t) else {
        return;
    };
    let Some(p) = store.player_no(t, user) else {
        return;
    };
    let (new_last, mut changed) = move_last_round(store, &mut info, round, kind.is_some());
    if round <= new_last {
        let e = kind.map_or(RoundEntry::Absent, RoundEntry::Bye);
        store.set_entry(t, round, p, e);
        changed.push((p, round as u32));
    }
    refresh_rows(store, &info, &changed, new_last);
}
