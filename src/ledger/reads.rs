//! What the ledgers' readers need of the library (their SQL is in sql/ledgers.sql): a player's
//! key, kept as text, given back in the type of the games table's player column; and the rules
//! the readers apply to a stored standing as of now (the RD grown by inactivity, provisional
//! status, the resets of the seasons ended since the last game, the performance), each the
//! library's (`pg_rating_core::ledger::now`), called per row: these only convert the types.

use std::ffi::CString;

use pg_rating_core::ledger::now::{self, Seasons};
use pg_rating_core::ledger::settings_row;
use pgrx::datum::Interval;
use pgrx::prelude::*;
use pgrx::{AnyElement, FromDatum, IntoDatum};

use crate::error::{internal, raise, raise_core};

/// `value` converted by the input function of the type of `type_of` (a NULL of the type the
/// caller wants): the opponents of `ledger_player_history` in the player column's own type.
/// A value that is not of the type fails as its input function fails (`22P02`, ...).
#[pg_extern(stable, parallel_safe, sql = false)]
fn ledger_typed(
    value: Option<&str>,
    type_of: Option<AnyElement>,
    fcinfo: pg_sys::FunctionCallInfo,
) -> Option<AnyElement> {
    let _ = type_of;
    let value = value?;
    // SAFETY: fcinfo is this call's, whose flinfo describes the call expression.
    let wanted = unsafe { pg_sys::get_fn_expr_argtype((*fcinfo).flinfo, 1) };
    if wanted == pg_sys::InvalidOid {
        raise(
            PgSqlErrorCode::ERRCODE_INVALID_PARAMETER_VALUE,
            "ledger_typed: the type of type_of is not known",
        );
    }
    let text = CString::new(value).unwrap_or_else(|e| internal(e));
    let mut input = pg_sys::InvalidOid;
    let mut io_param = pg_sys::InvalidOid;
    // SAFETY: getTypeInputInfo writes the two oids for a valid type (else it raises); the input
    // function reads the NUL-terminated text, which outlives the call.
    let datum = unsafe {
        pg_sys::getTypeInputInfo(wanted, &mut input, &mut io_param);
        pg_sys::OidInputFunctionCall(input, text.as_ptr() as *mut _, io_param, -1)
    };
    // SAFETY: the datum is a value of type `wanted`, made just now in this call's context.
    unsafe { AnyElement::from_polymorphic_datum(datum, false, wanted) }
}

/// A player's RD as of now (the start of the transaction, as `now()`): the stored RD grown by
/// the rating periods since the last game by the ledger's `rd_growth` and bounded by its RDs, as
/// its writer grows it before the player's next game. The RD as given without an RD, a rating
/// period or a last game.
#[pg_extern(stable, parallel_safe, sql = false)]
fn ledger_rd_now(
    rd: Option<f64>,
    volatility: Option<f64>,
    last_played: Option<TimestampWithTimeZone>,
    rating_period: Option<Interval>,
    min_rd: Option<f64>,
    max_rd: Option<f64>,
    rd_growth: Option<&str>,
) -> Option<f64> {
    // SAFETY: reads the current transaction's start time (what now() returns); no arguments.
    let now = unsafe { pg_sys::GetCurrentTransactionStartTimestamp() };
    let elapsed = last_played.map(|last| now.saturating_sub(last.into_inner()));
    let period = rating_period.map(|p| settings_row::period_micros(crate::types::to_core(p)));
    let rd = now::rd_now(rd?, volatility, elapsed, period, min_rd, max_rd, rd_growth);
    Some(rd.unwrap_or_else(|e| raise_core(&e)))
}

/// Whether a player is provisional as of `now` (`ledger_standings_now.provisional`): fewer games
/// than `provisional_games`, an RD above `provisional_rd`, or no game since `provisional_after`
/// before `now` (subtracted in the session's time zone, as `now() - interval` is).
#[pg_extern(stable, parallel_safe, sql = false)]
fn ledger_is_provisional(
    games: Option<i32>,
    rd: Option<f64>,
    last_played: Option<TimestampWithTimeZone>,
    provisional_games: Option<i32>,
    provisional_rd: Option<f64>,
    provisional_after: Option<Interval>,
    now: Option<TimestampWithTimeZone>,
) -> Option<bool> {
    let inactive_before = match (now, provisional_after) {
        // SAFETY: timestamptz_mi_interval takes a timestamptz and an interval, both non-NULL
        // values of those types; it raises (22008) rather than return NULL.
        (Some(now), Some(after)) => unsafe {
            pgrx::direct_function_call::<TimestampWithTimeZone>(
                pg_sys::timestamptz_mi_interval,
                &[now.into_datum(), after.into_datum()],
            )
        },
        _ => None,
    };
    now::is_provisional(
        games,
        provisional_games,
        rd,
        provisional_rd,
        last_played.map(|t| t.into_inner()),
        inactive_before.map(|t| t.into_inner()),
    )
}

/// The seasons of a scope from the readers' arrays ([`Seasons::from_arrays`]).
fn seasons(
    ends: Option<Array<'_, TimestampWithTimeZone>>,
    pulls: Option<Array<'_, f64>>,
    floors: Option<Array<'_, f64>>,
) -> Seasons {
    let ends = ends.map(|a| a.iter().map(|t| t.map(|t| t.into_inner())).collect());
    let floats = |a: Option<Array<'_, f64>>| a.map(|a| a.iter().collect());
    Seasons::from_arrays(ends, floats(pulls), floats(floors)).unwrap_or_else(|e| raise_core(&e))
}

/// A player's rating as of `now`: pulled toward `starting_rating` by each season (arrays of their
/// ends and pulls) that ended after the player's last game and not after `now`, in order, as the
/// player's next game starts from it. The rating as given without a last game; NULL for a NULL
/// rating or starting rating.
#[pg_extern(immutable, parallel_safe, sql = false)]
fn ledger_season_rating(
    rating: Option<f64>,
    last_played: Option<TimestampWithTimeZone>,
    starting_rating: Option<f64>,
    season_ends: Option<Array<'_, TimestampWithTimeZone>>,
    season_pulls: Option<Array<'_, f64>>,
    now: Option<TimestampWithTimeZone>,
) -> Option<f64> {
    let (rating, start) = (rating?, starting_rating?);
    let (Some(last), Some(now)) = (last_played, now) else {
        return Some(rating);
    };
    let seasons = seasons(season_ends, season_pulls, None);
    let (rating, _) = now::season_reset(
        rating,
        None,
        Some(last.into_inner()),
        start,
        seasons.ends(),
        now.into_inner(),
    );
    Some(rating)
}

/// A player's RD as of `now` after the seasons' floors: `rd` (the RD grown by inactivity,
/// `ledger_rd_now`) raised to the floor of each season (arrays of their ends and RD floors) that
/// ended after the player's last game and not after `now`. NULL for a NULL RD.
#[pg_extern(immutable, parallel_safe, sql = false)]
fn ledger_season_rd(
    rd: Option<f64>,
    last_played: Option<TimestampWithTimeZone>,
    season_ends: Option<Array<'_, TimestampWithTimeZone>>,
    season_rd_floors: Option<Array<'_, f64>>,
    now: Option<TimestampWithTimeZone>,
) -> Option<f64> {
    let rd = rd?;
    let (Some(last), Some(now)) = (last_played, now) else {
        return Some(rd);
    };
    let seasons = seasons(season_ends, None, season_rd_floors);
    now::season_reset(
        0.0,
        Some(rd),
        Some(last.into_inner()),
        0.0,
        seasons.ends(),
        now.into_inner(),
    )
    .1
}

/// Where the season that ends at `ends_at` starts (`ledger_season_standings.season_starts_at`): the
/// latest of the scope's `season_ends` before it; NULL for its first season.
#[pg_extern(immutable, strict, parallel_safe, sql = false)]
fn ledger_season_start(
    season_ends: Array<'_, TimestampWithTimeZone>,
    ends_at: TimestampWithTimeZone,
) -> Option<TimestampWithTimeZone> {
    let seasons = seasons(Some(season_ends), None, None);
    Some(super::store::timestamp(
        seasons.start_of(ends_at.into_inner())?,
    ))
}

/// The linear performance of a record (`ledger_standings_now.performance`): the opponents'
/// average + 400 (wins - losses) / games; NULL before any game.
#[pg_extern(immutable, strict, parallel_safe, sql = false)]
fn ledger_performance(opponents_sum: f64, wins: i32, losses: i32, games: i32) -> Option<f64> {
    now::linear_performance(opponents_sum, wins, losses, games)
}

/// The id of the ledger a reader names, checked by the SQL function `ledger_id_for_read` (22023
/// for a ledger or scope that does not exist, 0A000 for a ledger a client keeps), in the
/// reader's rights: row-level security hides the ledgers the reader may not see.
pub fn ledger_id_for_read(
    client: &pgrx::spi::SpiClient<'_>,
    ledger: &str,
    scope: Option<&str>,
    any_scope: bool,
) -> i32 {
    client
        .select(
            &*crate::security::qualify("SELECT @extschema@.ledger_id_for_read($1, $2, $3) AS id"),
            None,
            &[ledger.into(), scope.into(), any_scope.into()],
        )
        .unwrap_or_else(|e| internal(e))
        .first()
        .get_by_name::<i32, _>("id")
        .unwrap_or_else(|e| internal(e))
        .unwrap_or_else(|| internal("ledger_id_for_read gave no id"))
}

#[cfg(any(test, feature = "pg_test"))]
#[pg_schema]
mod tests {
    use pgrx::prelude::*;

    #[pg_test]
    fn typed_converts_to_the_type_asked() {
        let n = Spi::get_one::<i64>("SELECT ledger_typed('42', NULL::bigint) + 1").unwrap();
        assert_eq!(n, Some(43));
        let null = Spi::get_one::<bool>("SELECT ledger_typed(NULL, NULL::uuid) IS NULL").unwrap();
        assert_eq!(null, Some(true));
    }

    #[pg_test]
    #[should_panic(expected = "invalid input syntax for type bigint")]
    fn typed_refuses_a_value_not_of_the_type() {
        Spi::run("SELECT ledger_typed('x', NULL::bigint)").unwrap();
    }
}
