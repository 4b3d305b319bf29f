//! The settings, seeds and seasons in force (sql/ledger_copies.sql): pg_rating's own copies of
//! `ledgers`, `ledger_seeds` and `ledger_seasons`, which the writers read instead of those tables.
//! Any role with UPDATE or DELETE on a table may `LOCK TABLE` it, and application owners write
//! their ledgers, seeds and seasons with those privileges: a writer that read those tables would
//! wait for any such lock, whatever application took it. Nobody but the extension's owner may
//! lock the copies.

use pgrx::prelude::*;

use crate::restore::restoring;
use crate::trigger::trigger_function;

/// Copies the seeds (`table` "ledger_seeds") or seasons ("ledger_seasons") of one ledger's scope
/// again, as the statement left them; before the scope is replayed by them, under the scope's lock
/// (see `triggers::locked_for_replay`). Runs as the extension's owner, under the mark of
/// pg_rating's writers.
pub(super) fn copy_scope(
    client: &mut pgrx::spi::SpiClient<'_>,
    table: &str,
    ledger: i32,
    scope: &str,
) {
    if !crate::compat::has_copies_in_force() {
        return;
    }
    if !["ledger_seeds", "ledger_seasons"].contains(&table) {
        crate::error::internal(format!("no copy of {table}"));
    }
    let delete =
        format!("DELETE FROM @extschema@.{table}_in_force WHERE ledger_id = $1 AND scope = $2");
    let insert = format!(
        "INSERT INTO @extschema@.{table}_in_force
         SELECT x.* FROM @extschema@.{table} x WHERE x.ledger_id = $1 AND x.scope = $2"
    );
    for sql in [delete, insert] {
        crate::spi::write(client, &sql, &[ledger.into(), scope.into()]);
    }
}

/// AFTER INSERT, UPDATE or DELETE ON ledgers, per row: `ledgers_in_force` gets the row as the
/// statement left it (fired before `rebuild_changed_ledger`, which rebuilds by the copy). A change
/// updates the copy's row in place: a writer waiting to share-lock it then reads the new version,
/// where after a delete and an insert it would find no row. A restore loads the copy itself.
fn copy_ledger<'a>(
    trigger: &'a PgTrigger<'a>,
) -> Result<Option<PgHeapTuple<'a, AllocatedByPostgres>>, PgTriggerError> {
    if restoring() {
        return Ok(None);
    }
    let id = |row: Option<PgHeapTuple<'_, AllocatedByPostgres>>| -> Option<i32> {
        row.and_then(|r| crate::trigger::field(&r, "id"))
    };
    let (old, new) = (id(trigger.old()), id(trigger.new()));
    Spi::connect_mut(|client| {
        let run = |client: &mut pgrx::spi::SpiClient<'_>, sql: &str, id: i32| {
            crate::spi::write(client, sql, &[id.into()]);
        };
        match (old, new) {
            (Some(old), Some(new)) if old == new => {
                // the columns by name, as the catalog has them now (the copy has its table's)
                let rows = crate::spi::read(
                    client,
                    "SELECT pg_catalog.string_agg(pg_catalog.quote_ident(a.attname), ', ' ORDER BY a.attnum) AS list
                     FROM pg_catalog.pg_attribute a
                     WHERE a.attrelid = '@extschema@.ledgers_in_force'::pg_catalog.regclass
                       AND a.attnum > 0 AND NOT a.attisdropped",
                    &[],
                );
                let columns: String = crate::spi::one(rows, "the columns of ledgers_in_force");
                run(
                    client,
                    &format!(
                        "UPDATE @extschema@.ledgers_in_force c SET ({columns}) =
                             (SELECT {columns} FROM @extschema@.ledgers l WHERE l.id = $1)
                         WHERE c.id = $1"
                    ),
                    new,
                );
            }
            (old, new) => {
                if let Some(old) = old {
                    run(
                        client,
                        "DELETE FROM @extschema@.ledgers_in_force WHERE id = $1",
                        old,
                    );
                    // (a deleted ledger's seeds and seasons go with it: their cascade copies them too)
                    if new.is_none() {
                        for sql in [
                            "DELETE FROM @extschema@.ledger_seeds_in_force WHERE ledger_id = $1",
                            "DELETE FROM @extschema@.ledger_seasons_in_force WHERE ledger_id = $1",
                        ] {
                            run(client, sql, old);
                        }
                    }
                }
                if let Some(new) = new {
                    run(
                        client,
                        "INSERT INTO @extschema@.ledgers_in_force SELECT l.* FROM @extschema@.ledgers l WHERE l.id = $1",
                        new,
                    );
                }
            }
        }
    });
    Ok(None)
}
trigger_function!(
    copy_ledger,
    copy_ledger_wrapper,
    pg_finfo_copy_ledger_wrapper,
    ["ledgers"]
);

/// BEFORE TRUNCATE ON ledger_seeds or ledger_seasons: 0A000. A truncate fires no row trigger, so
/// it would replay nothing and leave the copies the writers read as they were; `DELETE` replays
/// each scope it empties. (Only the tables' owner may truncate them.) A restore may.
fn refuse_truncate<'a>(
    trigger: &'a PgTrigger<'a>,
) -> Result<Option<PgHeapTuple<'a, AllocatedByPostgres>>, PgTriggerError> {
    if !restoring() {
        let table = trigger
            .table_name()
            .unwrap_or_else(|e| crate::error::internal(e));
        crate::error::raise(
            pgrx::PgSqlErrorCode::ERRCODE_FEATURE_NOT_SUPPORTED,
            format!(
                "TRUNCATE {table} is not supported: it would replay no ledger; DELETE FROM {table} replays each \
                 scope it changes"
            ),
        );
    }
    Ok(None)
}
trigger_function!(
    check_only refuse_truncate,
    refuse_truncate_wrapper,
    pg_finfo_refuse_truncate_wrapper,
    ["ledger_seeds", "ledger_seasons"]
);
