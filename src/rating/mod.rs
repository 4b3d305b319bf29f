//! SQL face of `pg_rating_core::rating`: Elo, FIDE, Skèmino, Glicko-2 and performance ratings.
//! Every function here converts arguments, calls the core and maps its error kinds to
//! SQLSTATEs; no rating maths lives in this crate.

mod elo;
mod fide;
mod glicko2;
mod performance;
mod skemino;

use std::borrow::Cow;

use pg_rating_core::rating::RatingError;
use pgrx::pg_sys;
use pgrx::prelude::*;
use pgrx::{AllocatedByRust, PgTupleDesc};

use crate::error::raise_core;
use crate::types::per_call_site;

extension_sql_file!(
    "../../sql/rating_systems.sql",
    name = "rating_systems",
    requires = [rating_system_known]
);

/// True when `name` names a rating system of the core (`RatingSystem::NAMES`): the CHECK of the
/// `rating_system` columns, so that a new system is named in the core alone.
#[pg_extern(immutable, strict, parallel_safe)]
fn rating_system_known(name: &str) -> bool {
    pg_rating_core::rating::RatingSystem::known(name)
}

/// Unwraps a core result or raises its error.
#[inline]
pub(crate) fn check<T>(r: Result<T, RatingError>) -> T {
    r.unwrap_or_else(|e| raise_core(&e))
}

/// Raises the core's 22004 for a NULL where a value is required (array elements, composite
/// fields).
pub(crate) fn null_not_allowed(what: &str) -> ! {
    raise_core(&RatingError::null(what))
}

/// The elements of a float8[], bigint[] or int[] without NULLs: borrowed from the array when
/// it has no NULL (no copy), otherwise a 22004 error naming `what`.
pub(crate) fn elements<'a, T>(a: &'a Array<'_, T>, what: &str) -> Cow<'a, [T]>
where
    T: pgrx::array::Scalar + pgrx::datum::UnboxDatum<As<'a> = T> + 'a,
{
    match a.as_slice() {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => Cow::Owned(
            a.iter()
                .map(|v| v.unwrap_or_else(|| null_not_allowed(what)))
                .collect(),
        ),
    }
}

/// Tuple descriptors of a composite result: `rating` is the result type itself (`Rating`), its
/// array element (`Array`), or the type of the first field of the result (`Pair`, whose own
/// descriptor is `pair`).
#[derive(Clone, Copy)]
pub(crate) struct OutDescs {
    pub(crate) rating: pg_sys::TupleDesc,
    pub(crate) pair: pg_sys::TupleDesc,
}

#[derive(Clone, Copy, PartialEq)]
pub(crate) enum ResultShape {
    Rating,
    Pair,
    Array,
}

/// A blessed copy of the tuple descriptor of the composite type `oid`, in the current memory
/// context.
pub(crate) unsafe fn composite_desc(oid: pg_sys::Oid) -> pg_sys::TupleDesc {
    // SAFETY: copies the descriptor of the type `oid` into the current memory context (an error
    // for a type that is not composite) and blesses the copy.
    unsafe { pg_sys::BlessTupleDesc(pg_sys::lookup_rowtype_tupdesc_copy(oid, -1)) }
}

/// The result's tuple descriptors, built once per call site.
pub(crate) unsafe fn out_descs(fcinfo: pg_sys::FunctionCallInfo, shape: ResultShape) -> OutDescs {
    // SAFETY: the caller's `fcinfo` is this call's, whose result type has the given shape.
    unsafe {
        per_call_site(fcinfo, || {
            let ret = pg_sys::get_func_rettype((*(*fcinfo).flinfo).fn_oid);
            let (rating, pair) = match shape {
                ResultShape::Rating => (composite_desc(ret), std::ptr::null_mut()),
                ResultShape::Array => (
                    composite_desc(pg_sys::get_element_type(ret)),
                    std::ptr::null_mut(),
                ),
                ResultShape::Pair => {
                    let pair = composite_desc(ret);
                    (composite_desc((*(*pair).attrs.as_ptr()).atttypid), pair)
                }
            };
            OutDescs { rating, pair }
        })
    }
}

/// A composite value (`what` names its type) of the type `desc` describes, from its fields.
///
/// # Safety
/// `desc` describes a composite type of `N` attributes of the types of `fields`.
pub(crate) unsafe fn composite<const N: usize>(
    desc: pg_sys::TupleDesc,
    fields: [Option<pg_sys::Datum>; N],
    what: &str,
) -> PgHeapTuple<'static, AllocatedByRust> {
    // SAFETY: the caller's `desc` describes a composite of these fields.
    unsafe { PgHeapTuple::from_datums(PgTupleDesc::from_pg_unchecked(desc), fields) }
        .unwrap_or_else(|e| crate::error::internal(format!("{what}: {e}")))
}

#[cfg(any(test, feature = "pg_test"))]
#[pg_schema]
mod tests {
    use pg_rating_core::rating::glicko2::{self, Bounds, Rating};
    use pg_rating_core::rating::{elo, skemino};
    use pgrx::prelude::*;

    fn one_f64(sql: &str) -> f64 {
        Spi::get_one::<f64>(sql).unwrap().unwrap()
    }

    fn rating(sql: &str) -> Rating {
        let (r, rd, v) = Spi::get_three::<f64, f64, f64>(&format!(
            "SELECT (x).rating, (x).rd, (x).volatility FROM (SELECT {sql} AS x) s"
        ))
        .unwrap();
        Rating::new(r.unwrap(), rd.unwrap(), v.unwrap())
    }

    /// The SQL functions return the core's bits, not just the rounded digits of the golden files.
    #[pg_test]
    fn sql_equals_core_bit_for_bit() {
        assert_eq!(
            one_f64("SELECT elo_update(1613, 1609, 0.5, 32)"),
            elo::update(1613.0, 1609.0, 0.5, 32.0).unwrap()
        );
        assert_eq!(
            one_f64("SELECT (skemino_update(1720, 1388, 0)).b"),
            skemino::update(1720.0, 1388.0, 0.0).unwrap().1
        );
        let sql = rating(
            "glicko2_update('(1500,200,0.06)', '{\"(1400,30,0.06)\",\"(1550,100,0.06)\",\"(1700,300,0.06)\"}', '{1,0,0}')",
        );
        let core = glicko2::update(
            Rating::new(1500.0, 200.0, 0.06),
            &[
                Rating::new(1400.0, 30.0, 0.06),
                Rating::new(1550.0, 100.0, 0.06),
                Rating::new(1700.0, 300.0, 0.06),
            ],
            &[1.0, 0.0, 0.0],
            0.5,
            &Bounds::default(),
        )
        .unwrap();
        assert_eq!(sql, core);
        let white = rating("(glicko2_game('(1400,79,0.06)', '(1550,110,0.065)', 1, 0.75)).white");
        let (w, _) = glicko2::game(
            Rating::new(1400.0, 79.0, 0.06),
            Rating::new(1550.0, 110.0, 0.065),
            1.0,
            0.75,
            &Bounds::default(),
        )
        .unwrap();
        assert_eq!(white, w);
    }

    /// The three shapes of a period (arrays per player, the aggregate, the whole period in one
    /// call) agree on a random period of 60 players and 400 games, up to the last bits that the
    /// order of summation changes (SQL does not fix the order of a player's games in a group).
    #[pg_test]
    fn period_shapes_agree() {
        Spi::run(
            "SELECT setseed(0.5);
             CREATE TEMP TABLE p AS SELECT id::bigint AS id,
                 ROW(1000 + 1000 * random(), 50 + 300 * random(), 0.05 + 0.02 * random())::glicko2_rating AS r
                 FROM generate_series(1, 60) AS id;
             ALTER TABLE p ADD PRIMARY KEY (id);
             CREATE TEMP TABLE g AS SELECT w, CASE WHEN b >= w THEN b + 1 ELSE b END AS b, floor(random() * 3) / 2 AS s
                 FROM (SELECT 1 + floor(random() * 60)::bigint AS w, 1 + floor(random() * 59)::bigint AS b
                       FROM generate_series(1, 400)) AS x;",
        )
        .unwrap();
        let disagreements = Spi::get_one::<i64>(
            "WITH sides AS (SELECT w AS player, b AS opponent, s FROM g UNION ALL SELECT b, w, 1 - s FROM g),
             per_player AS (
                 SELECT pl.id, glicko2_update(pl.r, array_agg(o.r), array_agg(sd.s)) AS by_arrays,
                        glicko2_period(pl.r, o.r, sd.s) AS by_aggregate
                 FROM sides sd JOIN p pl ON pl.id = sd.player JOIN p o ON o.id = sd.opponent GROUP BY pl.id),
             whole AS (
                 SELECT r.* FROM (SELECT array_agg(id) AS ids, array_agg(r) AS rs FROM p) AS pp,
                                 (SELECT array_agg(w) AS w, array_agg(b) AS b, array_agg(s) AS s FROM g) AS gg,
                                 glicko2_rate_period(pp.ids, pp.rs, gg.w, gg.b, gg.s) AS r),
             compared AS (
                 SELECT whole.rating AS a,
                        coalesce(pp.by_arrays, glicko2_update((SELECT r FROM p WHERE p.id = whole.player_id), '{}', '{}')) AS b,
                        coalesce(pp.by_aggregate, glicko2_update((SELECT r FROM p WHERE p.id = whole.player_id), '{}', '{}')) AS c
                 FROM whole LEFT JOIN per_player pp ON pp.id = whole.player_id)
             SELECT count(*) FROM compared
             WHERE abs((a).rating - (b).rating) > 1e-9 OR abs((a).rd - (b).rd) > 1e-9
                OR abs((a).volatility - (b).volatility) > 1e-12
                OR abs((a).rating - (c).rating) > 1e-9 OR abs((a).rd - (c).rd) > 1e-9
                OR abs((a).volatility - (c).volatility) > 1e-12 OR a IS NULL OR b IS NULL OR c IS NULL",
        )
        .unwrap()
        .unwrap();
        assert_eq!(disagreements, 0);
        assert_eq!(Spi::get_one::<i64>("SELECT count(*) FROM glicko2_rate_period((SELECT array_agg(id) FROM p), (SELECT array_agg(r) FROM p), '{}', '{}', '{}')").unwrap(), Some(60));
    }

    #[pg_test]
    #[should_panic(expected = "arrays have different lengths")]
    fn mismatched_arrays_are_an_error() {
        Spi::run("SELECT glicko2_update('(1500,200,0.06)', '{\"(1400,30,0.06)\"}', '{1,0}')")
            .unwrap();
    }

    #[pg_test]
    #[should_panic(expected = "K² − K ≤ 0")]
    fn skemino_breakdown_is_an_error() {
        Spi::run("SELECT skemino_update(3700, 3700, 1)").unwrap();
    }
}
