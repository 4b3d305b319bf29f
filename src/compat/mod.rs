//! Code that serves the installed SQL of earlier releases, gathered here so that the hot paths
//! name it in one word and it can go by version. A database keeps its installed schema until
//! `ALTER EXTENSION ... UPDATE`, while the library (one per PostgreSQL installation) is already
//! new: this library must read and write every schema it may meet, and load for every C symbol
//! that a released install or update script names (`tests/upgrade/`, `sql/*--*.sql`; a symbol
//! never goes, see [`triggers`]). Each item says which installed schema versions it serves and
//! after which version it can go, i.e. once that version is the newest one a database may still
//! run with this library (tests/integration/upgrade.sh updates from every release).

pub mod ranking_locks;
pub mod triggers;

use pgrx::prelude::*;

use crate::trigger::protocol_violation;

/// The columns of `ledgers` that 0.13.0 added. Serves pg_rating schemas 0.3.0-0.12.0; can go after
/// 0.12.0.
pub const LEDGER_COLUMNS_0_13: [&str; 10] = [
    "notify_channel",
    "glicko2_rule",
    "min_rd",
    "max_rd",
    "max_volatility",
    "volatility_epsilon",
    "rd_growth",
    "max_change_policy",
    "max_period_change",
    "change_period",
];

/// Joined after `ledgers l`: its columns of 0.13.0 as `n`. In a schema not yet updated they are
/// read from the row converted once (NULL there: its ledgers rate Glicko-2 by the lichess rule,
/// without bounds); in an updated one, as columns (the conversion costs a writer's statement more
/// than the rest of its read of the ledgers). Serves pg_rating schemas 0.3.0-0.12.0; can go after
/// 0.12.0 (then the columns are named on `l`).
pub fn ledger_since_0_13() -> &'static str {
    const COLUMNS: [&str; 10] = LEDGER_COLUMNS_0_13;
    // (the writers read `ledgers` or its copy in force: both must have them)
    let copies = has_copies_in_force();
    if has_columns("ledgers", &COLUMNS) && (!copies || has_columns("ledgers_in_force", &COLUMNS)) {
        "CROSS JOIN LATERAL (SELECT l.notify_channel, l.glicko2_rule, l.min_rd, l.max_rd, l.max_volatility,
             l.volatility_epsilon, l.rd_growth, l.max_change_policy, l.max_period_change, l.change_period) AS n"
    } else {
        "CROSS JOIN LATERAL pg_catalog.jsonb_to_record(pg_catalog.to_jsonb(l))
         AS n(notify_channel text, glicko2_rule text, min_rd float8, max_rd float8, max_volatility float8,
              volatility_epsilon float8, rd_growth text,
              max_change_policy text, max_period_change float8, change_period interval)"
    }
}

/// Joined after `ledger_attachments a`: its columns of 0.13.0 as `an` (as [`ledger_since_0_13`]:
/// converted from the row, NULL, in a schema not yet updated). Serves schemas 0.3.0-0.12.0; can go
/// after 0.12.0.
pub fn attachment_since_0_13() -> &'static str {
    if has_columns("ledger_attachments", &["rated_column", "related"]) {
        "CROSS JOIN LATERAL (SELECT a.rated_column, a.related) AS an"
    } else {
        "CROSS JOIN LATERAL pg_catalog.jsonb_to_record(pg_catalog.to_jsonb(a))
         AS an(rated_column text, related regclass[])"
    }
}

/// Whether the engine's relation `relation` exists and has each of `columns`.
fn has_columns(relation: &str, columns: &[&str]) -> bool {
    let relation = crate::security::own_relation(relation);
    relation != pg_sys::InvalidOid
        && columns.iter().all(|c| {
            let c = std::ffi::CString::new(*c).unwrap_or_else(|e| crate::error::internal(e));
            // SAFETY: a syscache lookup by relation and name; 0 when there is no such column.
            let number = unsafe { pg_sys::get_attnum(relation, c.as_ptr()) };
            number != 0
        })
}

/// A column of a `ledgers` row given to a trigger that 0.13.0 added: `None` when NULL or when the
/// schema has no such column. Serves schemas 0.3.0-0.12.0; can go after 0.12.0.
pub fn since_0_13<'a, T>(row: &'a PgHeapTuple<'_, impl pgrx::WhoAllocated>, name: &str) -> Option<T>
where
    T: pgrx::FromDatum + pgrx::IntoDatum + pgrx::datum::UnboxDatum<As<'a> = T> + 'a,
{
    row.get_by_name::<T>(name).ok().flatten()
}

/// Whether `ledgers` has `glicko2_rule` (0.13.0 on). Serves schemas 0.10.0-0.12.0, whose
/// rankings' ledgers cannot name it; can go after 0.12.0.
pub fn ledgers_have_glicko2_rule() -> bool {
    // SAFETY: a catalog lookup of a column by name in the engine's own table.
    unsafe {
        pg_sys::get_attnum(
            crate::security::own_relation("ledgers"),
            c"glicko2_rule".as_ptr(),
        ) != 0
    }
}

/// `ledgers.kept_in` of `l`, read through `to_jsonb`: schemas 0.3.0-0.9.0 have no such column
/// (and no ledger kept elsewhere). Can go after 0.9.0 (then `l.kept_in::text`).
pub const KEPT_IN: &str = "pg_catalog.to_jsonb(l) ->> 'kept_in'";

/// `kept_in` of a `ledgers` row given to a trigger: `None` also in schemas 0.3.0-0.9.0, which
/// have no such column. Can go after 0.9.0.
pub fn kept_in(row: &PgHeapTuple<'_, AllocatedByPostgres>) -> Option<pg_sys::Oid> {
    row.get_by_name::<pg_sys::Oid>("kept_in").ok().flatten()
}

/// Whether this schema has the copies `*_in_force` (0.13.0 on). Without them (schemas
/// 0.3.0-0.12.0) the writers read `ledgers`, `ledger_seeds` and `ledger_seasons` themselves;
/// can go after 0.12.0.
pub fn has_copies_in_force() -> bool {
    crate::security::own_relation("ledgers_in_force") != pg_sys::InvalidOid
}

/// `sql` with `@ledgers@`, `@ledger_seeds@` and `@ledger_seasons@` naming the tables a writer
/// reads: the copies `*_in_force` (`crate::ledger::copies`), or the tables themselves in a schema
/// without them; `@x.every_scope@` is a season's `every_scope` (alias `x`; `false` in a schema
/// before 0.13.0, which has no such column). The fallback serves schemas 0.3.0-0.12.0; after
/// 0.12.0 the statements name the copies and this goes.
pub fn for_writers(sql: &str) -> String {
    let updated = has_copies_in_force();
    let suffix = if updated { "_in_force" } else { "" };
    let every_scope = if updated { "x.every_scope" } else { "false" };
    let mut sql = sql.replace("@x.every_scope@", every_scope);
    for table in ["ledgers", "ledger_seeds", "ledger_seasons"] {
        sql = sql.replace(
            &format!("@{table}@"),
            &format!("@extschema@.{table}{suffix}"),
        );
    }
    sql
}

/// The ledger a trigger of `ledger_games_changed` serves alone: schemas 0.3.0-0.6.0 created one
/// set of triggers per ledger, naming it as the argument (a table restored from their dumps
/// keeps them until `ledger_attach` replaces them). `None` for a trigger of 0.7.0 on (no
/// argument): every ledger of the table. Can go after 0.6.0 once no restored dump of 0.3-0.6 is
/// served (`ledger_attach` drops those triggers, see [`per_ledger_trigger_names`]).
pub fn only_ledger(trigger: &PgTrigger<'_>) -> Option<i32> {
    let wrong = || -> ! {
        protocol_violation("ledger_games_changed() takes no argument, or the id of a ledger".into())
    };
    match trigger.extra_args() {
        Ok(args) if args.is_empty() => None,
        Ok(args) if args.len() == 1 => Some(args[0].parse().unwrap_or_else(|_| wrong())),
        _ => wrong(),
    }
}

/// The triggers of one ledger that 0.3.0-0.6.0 created (a database restored from their dumps has
/// them); `ledger_attach` drops them. Can go with [`only_ledger`].
pub fn per_ledger_trigger_names(ledger: i32) -> [String; 4] {
    ["insert", "update", "delete", "truncate"].map(|op| format!("pg_rating_ledger_{ledger}_{op}"))
}

/// A bye's points as the half-points of a `byes` row `b`: a `pg_rating_random_chess` schema of
/// 0.4.0 has no `points` column (every bye is worth one point). Can go after 0.4.0 (then
/// `round(b.points * 2)::int`).
pub const BYE_HALF_POINTS: &str =
    "round(coalesce((pg_catalog.to_jsonb(b) ->> 'points')::numeric, 1) * 2)::int";

/// A bye's points from a `byes` row given to a trigger: 1 in a schema of 0.4.0 (no `points`
/// column, as [`BYE_HALF_POINTS`]); `None` when NULL. Can go after 0.4.0.
pub fn bye_points(row: &PgHeapTuple<'_, AllocatedByPostgres>) -> Option<f64> {
    match row.get_by_name::<pgrx::AnyNumeric>("points") {
        Ok(Some(n)) => Some(f64::try_from(n).unwrap_or_else(|e| crate::error::internal(e))),
        Ok(None) => None,
        Err(pgrx::datum::TryFromDatumError::NoSuchAttributeName(_)) => Some(1.0),
        Err(e) => crate::error::internal(e),
    }
}

/// `ledger_attach` as declared by schemas 0.3.0-0.12.0 (without `rated_column`; C symbol
/// `ledger_attach_wrapper`): the symbol never goes, its body could refuse after 0.12.0.
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
    result_map: Option<pgrx::AnyElement>,
    scope_column: Option<&str>,
    filter: Option<&str>,
) -> i64 {
    crate::ledger::attach::ledger_attach_0_13(
        ledger,
        games,
        key_column,
        date_column,
        white_column,
        black_column,
        result_column,
        result_map,
        scope_column,
        filter,
        None,
    )
}

/// `ledger_attach_multiplayer` as declared by schemas 0.3.0-0.12.0 (without `rated_column`; C
/// symbol `ledger_attach_multiplayer_wrapper`): the symbol never goes, its body could refuse
/// after 0.12.0.
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
    crate::ledger::attach::ledger_attach_multiplayer_0_13(
        ledger,
        participants,
        game_column,
        date_column,
        player_column,
        placement_column,
        rule,
        higher_is_better,
        scope_column,
        filter,
        None,
    )
}
