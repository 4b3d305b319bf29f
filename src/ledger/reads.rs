//! What the ledgers' readers need of the library (their SQL is in sql/ledgers.sql): a player's
//! key, kept as text, given back in the type of the games table's player column.

use std::ffi::CString;

use pg_rating_core::rating::glicko2::{self, Bounds, RdGrowth};
use pgrx::datum::Interval;
use pgrx::prelude::*;
use pgrx::{AnyElement, FromDatum};

use crate::error::{internal, raise};

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
    let rd = rd?;
    let (Some(volatility), Some(last), Some(period), Some(max_rd)) =
        (volatility, last_played, rating_period, max_rd)
    else {
        return Some(rd);
    };
    let growth = rd_growth.unwrap_or("elapsed");
    let rd_growth = RdGrowth::from_name(growth).unwrap_or_else(|| {
        raise(
            PgSqlErrorCode::ERRCODE_INVALID_PARAMETER_VALUE,
            format!(
                "unknown rd_growth {} (one of {})",
                pg_rating_core::error::Quoted(growth),
                RdGrowth::NAMES.join(", ")
            ),
        )
    });
    let bounds = Bounds {
        rd_min: min_rd.unwrap_or(0.0),
        rd_max: max_rd,
        rd_growth,
        ..Bounds::default()
    };
    // SAFETY: reads the current transaction's start time (what now() returns); no arguments.
    let now = unsafe { pg_sys::GetCurrentTransactionStartTimestamp() };
    let elapsed = now.saturating_sub(last.into_inner());
    let period = super::store::period_micros(period);
    Some(
        glicko2::rd_after(rd, volatility, elapsed, period, &bounds)
            .unwrap_or_else(|e| crate::error::raise_core(&e)),
    )
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
        .ok()
        .flatten()
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
