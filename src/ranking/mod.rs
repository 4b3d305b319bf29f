//! Rankings in the database: the Rust triggers that keep `elo_history` and `ranking_players`
//! equal to a replay of every ranked game in `(creation_date, id)` order
//! (sql/random_chess/05_rankings.sql has the tables and views). A ranking is a ledger with one
//! scope whose history is kept in those tables (`history`): the ledgers' writer
//! (`pg_rating_core::ledger::writer`) appends new games that come after their players' latest games, and
//! replays a ranking from an older game, or a re-dated one, on. Each ranking has a `ledgers` row
//! (made and kept at the ranking's settings by `recalculate_changed_ranking`, its history kept in
//! `elo_history`); every writer first takes the locks of the rankings it writes (their ledgers'
//! `ledger_scopes` rows, in order); a change of rankings takes them all.

mod history;
mod store;
pub(crate) use store::window;
mod transition;

use pg_rating_core::ledger::writer::Run;
use pg_rating_core::ranking::{new_games, replay_from as replay_from_game};
use pg_rating_core::ranking::{GameKey, Ranking, RankingError, ServiceGame};
use pgrx::prelude::*;

use crate::compat::ranking_locks::LockRows;
use crate::error::raise_core;
use crate::ledger::Keeps;
use crate::restore::restoring;
use crate::trigger::{trigger_function, writes_allowed, DerivedWrite};
use store::RankingStore;

/// The games (sorted) of `games` that count in `ranking`; 22008 for a clock that overflows.
fn games_counted(
    ranking: &Ranking,
    games: &[ServiceGame],
) -> Vec<pg_rating_core::ledger::LedgerGame> {
    ranking.counted(games).unwrap_or_else(|e| raise_core(&e))
}

/// Rates `games` (sorted) in every ranking they count in, under those rankings' locks.
fn rate_games(store: &mut RankingStore<'_, '_>, games: &[ServiceGame]) {
    let counted = store.locked(|r| {
        let counted = games_counted(r, games);
        (!counted.is_empty()).then_some(counted)
    });
    let (rankings, games): (Vec<Ranking>, Vec<_>) = counted.into_iter().unzip();
    let changes = rankings.iter().map(Ranking::as_ledger).zip(games).collect();
    store.drive(Run::apply(new_games(changes)));
    store.flush();
}

/// Replays a ranking (locked) from the game at `from` on.
fn replay_from(store: &mut RankingStore<'_, '_>, ranking: &Ranking, from: GameKey) -> i64 {
    let replay = replay_from_game(ranking.as_ledger(), from);
    store.drive(Run::replay(vec![replay])) as i64
}

/// AFTER INSERT ON service_games, once per statement (the new rows in `inserted_games`); not
/// while restoring a dump, which brings the history back itself.
fn rate_service_games<'a>(
    trigger: &'a PgTrigger<'a>,
) -> Result<Option<PgHeapTuple<'a, AllocatedByPostgres>>, PgTriggerError> {
    if restoring() {
        return Ok(None);
    }
    let new_games = transition::inserted_games(trigger);
    if new_games.is_empty() {
        return Ok(None);
    }
    Spi::connect_mut(|client| {
        let mut store = RankingStore::new(client);
        let games = store.with_bot_flags(new_games);
        rate_games(&mut store, &games);
    });
    Ok(None)
}
trigger_function!(
    rate_service_games,
    rate_service_games_wrapper,
    pg_finfo_rate_service_games_wrapper,
    ["service_games"]
);

/// AFTER UPDATE OF creation_date ON service_games: the game moves in the history of every
/// ranking it counts in, which is rebuilt from the earlier of its two places.
fn rerate_redated_service_game<'a>(
    trigger: &'a PgTrigger<'a>,
) -> Result<Option<PgHeapTuple<'a, AllocatedByPostgres>>, PgTriggerError> {
    let old = crate::trigger::row_of(trigger.old());
    let new = crate::trigger::row_of(trigger.new());
    let id: i32 = crate::trigger::stored(&new, "id");
    let date = |row: &PgHeapTuple<'_, AllocatedByPostgres>| {
        crate::trigger::stored::<TimestampWithTimeZone>(row, "creation_date").into_inner()
    };
    let from = GameKey::redated(id, date(&old), date(&new));
    Spi::connect_mut(|client| {
        let mut store = RankingStore::new(client);
        let Some(game) = store.game(id) else { return };
        let game = std::slice::from_ref(&game);
        let counted_in = store.locked(|r| (!games_counted(r, game).is_empty()).then_some(()));
        for (ranking, ()) in counted_in {
            replay_from(&mut store, &ranking, from);
        }
    });
    Ok(None)
}
trigger_function!(
    rerate_redated_service_game,
    rerate_redated_service_game_wrapper,
    pg_finfo_rerate_redated_service_game_wrapper,
    ["service_games"]
);

/// AFTER INSERT OR UPDATE ON rankings: the ranking's history is recalculated.
fn recalculate_changed_ranking<'a>(
    trigger: &'a PgTrigger<'a>,
) -> Result<Option<PgHeapTuple<'a, AllocatedByPostgres>>, PgTriggerError> {
    let new = crate::trigger::row_of(trigger.new());
    let id: i32 = crate::trigger::stored(&new, "id");
    if !restoring() {
        Spi::connect_mut(|client| {
            let mut store = RankingStore::new(client);
            // settings under which a game could not be rated are refused here (23514), by the
            // engine's rule, before the ranking's ledger is made
            for ranking in store.rankings(Some(id)) {
                ranking.validated().unwrap_or_else(|e| raise_core(&e));
            }
            if store.lock_rows == LockRows::Ledger {
                store.keep_ledger(id);
                let old_id = trigger
                    .old()
                    .and_then(|old| crate::trigger::field::<i32>(&old, "id"));
                if old_id.is_some_and(|old_id| old_id != id) {
                    // the ledger of the ranking's old id
                    store.forget_deleted_rankings();
                }
            }
        });
        rebuild(id);
    }
    Ok(None)
}
trigger_function!(
    recalculate_changed_ranking,
    recalculate_changed_ranking_wrapper,
    pg_finfo_recalculate_changed_ranking_wrapper,
    ["rankings"]
);

fn rebuild(ranking_id: i32) -> i64 {
    Spi::connect_mut(|client| {
        let mut store = RankingStore::new(client);
        let read = |store: &mut RankingStore<'_, '_>| {
            let ranking = store.rankings(Some(ranking_id)).pop();
            ranking.unwrap_or_else(|| raise_core(&RankingError::Unknown(ranking_id)))
        };
        // locked first, then read again: the settings as they are once no writer holds it
        let ranking = read(&mut store);
        store.lock_rankings(&[ranking]);
        let ranking = read(&mut store);
        replay_from(&mut store, &ranking, GameKey::START)
    })
}

/// Rebuilds one ranking's history from scratch; returns the number of entries written.
/// `recalculate_ranking(ranking_id)` is the procedure apps call.
#[pg_extern(volatile, strict, parallel_unsafe, sql = false)]
fn rebuild_ranking(ranking_id: i32) -> i64 {
    writes_allowed("rebuild_ranking()");
    let _writing = DerivedWrite::begin();
    rebuild(ranking_id)
}

/// BEFORE INSERT, UPDATE, DELETE or TRUNCATE ON rankings, per statement: every ranking's lock is
/// taken (no writer may rate a game by the rankings as they were, nor miss a game that counts in
/// them as they will be), and the rankings a backend keeps in memory are stale from now on.
fn note_rankings_change<'a>(
    trigger: &'a PgTrigger<'a>,
) -> Result<Option<PgHeapTuple<'a, AllocatedByPostgres>>, PgTriggerError> {
    let deleted = matches!(
        trigger.op()?,
        PgTriggerOperation::Delete | PgTriggerOperation::Truncate
    );
    Spi::connect_mut(|client| {
        let mut store = RankingStore::new(client);
        // the version first: changes of rankings queue there, holding no ranking's lock
        store.note_rankings_change();
        if store.lock_rows == LockRows::Single {
            // a schema of 0.8.0 or before fires this after the statement and has no
            // forget_deleted_rankings
            if deleted {
                store.forget_deleted_rankings();
            }
        } else {
            store.lock_all_rankings();
        }
    });
    Ok(None)
}
trigger_function!(
    note_rankings_change,
    note_rankings_change_wrapper,
    pg_finfo_note_rankings_change_wrapper,
    ["rankings"]
);

/// AFTER DELETE or TRUNCATE ON rankings, per statement: the standings and lock rows of deleted
/// rankings go (they have no foreign key, which every write would check).
fn forget_deleted_rankings<'a>(
    _trigger: &'a PgTrigger<'a>,
) -> Result<Option<PgHeapTuple<'a, AllocatedByPostgres>>, PgTriggerError> {
    Spi::connect_mut(|client| RankingStore::new(client).forget_deleted_rankings());
    Ok(None)
}
trigger_function!(
    forget_deleted_rankings,
    forget_deleted_rankings_wrapper,
    pg_finfo_forget_deleted_rankings_wrapper,
    ["rankings"]
);
