//! Glicko-2 in SQL: the `glicko2_rating` composite, period / game / decay / multiplayer
//! updates, expectation, helpers, and the `glicko2_period` aggregate.
//!
//! Composite results are built from a tuple descriptor cached per call site (`fn_extra`), so
//! no type is looked up by name per row.

use std::num::NonZeroUsize;

use pg_rating_core::rating::glicko2::{self, Bounds, PeriodRun, Rating};
use pg_rating_core::rating::period_players::PeriodPlayers;
use pgrx::pg_sys;
use pgrx::prelude::*;
use pgrx::{
    composite_type, default, AnyElement, Internal, PgSqlErrorCode, PgTupleDesc, WhoAllocated,
};

use super::{check, composite, composite_desc, elements, null_not_allowed, out_descs, ResultShape};
use crate::error::{raise, require_lists};
use crate::types::{array_datums, per_call_site};

extension_sql_file!("../../sql/glicko2_types.sql", name = "glicko2_rating_type");

extension_sql_file!(
    "../../sql/glicko2_functions.sql",
    name = "glicko2_functions",
    requires = [
        "glicko2_rating_type",
        glicko2_update,
        glicko2_game,
        glicko2_decay,
        glicko2_expected,
        glicko2_multiplayer,
        glicko2_rate_period,
        glicko2_conservative,
        glicko2_provisional,
        glicko2_period_step,
        glicko2_period_step_tau,
        glicko2_period_final
    ]
);

// ---------------------------------------------------------------- reading and building values

/// Reads a `glicko2_rating` value; NULL fields are rejected (22004).
fn read(t: &PgHeapTuple<'_, impl WhoAllocated>, who: &str) -> Rating {
    let field = |i: usize, name: &str| -> f64 {
        match t.get_by_index::<f64>(NonZeroUsize::new(i).unwrap()) {
            Ok(Some(v)) => v,
            Ok(None) => null_not_allowed(&format!("{who} {name}")),
            Err(e) => raise(
                PgSqlErrorCode::ERRCODE_DATATYPE_MISMATCH,
                format!("{who}: not a glicko2_rating ({e})"),
            ),
        }
    };
    Rating::new(field(1, "rating"), field(2, "rd"), field(3, "volatility"))
}

/// Whether the composite type `oid` is still three float8 columns (nothing dropped or altered),
/// so its values can be read straight from the tuple data.
fn has_plain_layout(oid: pg_sys::Oid) -> bool {
    PgTupleDesc::for_composite_type_by_oid(oid).is_some_and(|d| {
        d.len() == 3
            && d.iter()
                .all(|att| att.atttypid == pg_sys::FLOAT8OID && !att.attisdropped)
    })
}

/// Reads one `glicko2_rating` datum. With `fast` (the type has the plain layout) a value without
/// NULL fields is read straight from its three 8-byte-aligned float8 columns after the
/// (MAXALIGNed) tuple header; anything else goes through [`read`].
///
/// # Safety
/// `datum` must be a non-NULL composite datum of the type `fast` was computed for.
unsafe fn rating_from_datum(datum: pg_sys::Datum, fast: bool, what: &str) -> Rating {
    let tup = pg_sys::pg_detoast_datum(datum.cast_mut_ptr()) as pg_sys::HeapTupleHeader;
    let natts = u32::from((*tup).t_infomask2) & pg_sys::HEAP_NATTS_MASK;
    let has_null = u32::from((*tup).t_infomask) & pg_sys::HEAP_HASNULL != 0;
    if fast && natts == 3 && !has_null {
        let data = (tup as *const u8).add(usize::from((*tup).t_hoff)) as *const f64;
        Rating::new(
            data.read_unaligned(),
            data.add(1).read_unaligned(),
            data.add(2).read_unaligned(),
        )
    } else {
        read(&PgHeapTuple::from_composite_datum(datum), what)
    }
}

/// Reads a `glicko2_rating[]` without building a `PgHeapTuple` per element: when the type still
/// has its three float8 columns (checked once per call), each element without NULL fields is
/// read straight from its tuple data; anything else goes through [`read`].
fn read_array(
    a: Array<'_, PgHeapTuple<'_, AllocatedByRust>>,
    what: &str,
) -> (Vec<Rating>, pg_sys::Oid) {
    // SAFETY: `a` is an array of the glicko2_rating composite (checked by pgrx's argument conversion); its elements are read by the type's own layout, checked by has_plain_layout, within the detoasted array.
    unsafe {
        let arr = a.into_array_type() as *mut pg_sys::ArrayType;
        let fast = has_plain_layout((*arr).elemtype);
        let (datums, nulls) = array_datums(arr, pg_sys::TYPALIGN_DOUBLE);
        let out = datums.iter().zip(nulls).map(|(&datum, &null)| {
            if null {
                null_not_allowed(what);
            }
            rating_from_datum(datum, fast, what)
        });
        (out.collect(), (*arr).elemtype)
    }
}

fn rating_tuple(desc: pg_sys::TupleDesc, r: Rating) -> PgHeapTuple<'static, AllocatedByRust> {
    let fields = [r.rating, r.rd, r.volatility].map(IntoDatum::into_datum);
    // SAFETY: `desc` is the result's descriptor of glicko2_rating (three float8 attributes), matching the three datums.
    unsafe { composite(desc, fields, "glicko2_rating") }
}

// ------------------------------------------------------------------------------- functions

#[allow(clippy::too_many_arguments)]
#[pg_extern(immutable, strict, parallel_safe, requires = ["glicko2_rating_type"])]
fn glicko2_update(
    player: composite_type!("glicko2_rating"),
    opponents: Array<'_, composite_type!("glicko2_rating")>,
    scores: Array<'_, f64>,
    tau: default!(f64, 0.5),
    rd_min: default!(f64, 0.0),
    rd_max: default!(f64, 350.0),
    volatility_max: default!(f64, "'Infinity'"),
    max_change: default!(f64, "'Infinity'"),
    fcinfo: pg_sys::FunctionCallInfo,
) -> composite_type!('static, "glicko2_rating") {
    // SAFETY: this call's fcinfo; arguments 1 and 2 are arrays.
    unsafe { require_lists(fcinfo, 1, &["opponents", "scores"]) };
    let p = read(&player, "player");
    let (opps, _) = read_array(opponents, "opponent");
    let s = elements(&scores, "score");
    let r = check(glicko2::update(
        p,
        &opps,
        &s,
        tau,
        &Bounds::limits(rd_min, rd_max, volatility_max, max_change),
    ));
    // SAFETY: `fcinfo` is this call's; its result type is glicko2_rating.
    rating_tuple(unsafe { out_descs(fcinfo, ResultShape::Rating) }.rating, r)
}

#[allow(clippy::too_many_arguments)]
#[pg_extern(immutable, strict, parallel_safe, requires = ["glicko2_rating_type"])]
fn glicko2_game(
    white: composite_type!("glicko2_rating"),
    black: composite_type!("glicko2_rating"),
    white_score: f64,
    tau: default!(f64, 0.5),
    rd_min: default!(f64, 0.0),
    rd_max: default!(f64, 350.0),
    volatility_max: default!(f64, "'Infinity'"),
    max_change: default!(f64, "'Infinity'"),
    fcinfo: pg_sys::FunctionCallInfo,
) -> composite_type!('static, "glicko2_pair") {
    let (w, b) = (read(&white, "white"), read(&black, "black"));
    let (w2, b2) = check(glicko2::game(
        w,
        b,
        white_score,
        tau,
        &Bounds::limits(rd_min, rd_max, volatility_max, max_change),
    ));
    // SAFETY: `fcinfo` is this call's; its result type is glicko2_pair.
    let d = unsafe { out_descs(fcinfo, ResultShape::Pair) };
    let sides = [w2, b2].map(|r| rating_tuple(d.rating, r).into_composite_datum());
    // SAFETY: `d.pair` is the descriptor of glicko2_pair (two glicko2_rating attributes), matching the two datums.
    unsafe { composite(d.pair, sides, "glicko2_pair") }
}

#[pg_extern(immutable, strict, parallel_safe, requires = ["glicko2_rating_type"])]
fn glicko2_decay(
    player: composite_type!("glicko2_rating"),
    periods: f64,
    rd_max: default!(f64, 350.0),
    fcinfo: pg_sys::FunctionCallInfo,
) -> composite_type!('static, "glicko2_rating") {
    let b = Bounds::with_rd_max(rd_max);
    let r = check(glicko2::decay(read(&player, "player"), periods, &b));
    // SAFETY: `fcinfo` is this call's; its result type is glicko2_rating.
    rating_tuple(unsafe { out_descs(fcinfo, ResultShape::Rating) }.rating, r)
}

#[pg_extern(immutable, strict, parallel_safe, requires = ["glicko2_rating_type"])]
fn glicko2_expected(
    player: composite_type!("glicko2_rating"),
    opponent: composite_type!("glicko2_rating"),
) -> f64 {
    check(glicko2::expected(
        read(&player, "player"),
        read(&opponent, "opponent"),
    ))
}

#[allow(clippy::too_many_arguments)]
#[pg_extern(immutable, strict, parallel_safe, requires = ["glicko2_rating_type"])]
fn glicko2_multiplayer(
    players: Array<'_, composite_type!("glicko2_rating")>,
    placements: Array<'_, f64>,
    tau: default!(f64, 0.5),
    rd_min: default!(f64, 0.0),
    rd_max: default!(f64, 350.0),
    volatility_max: default!(f64, "'Infinity'"),
    max_change: default!(f64, "'Infinity'"),
    fcinfo: pg_sys::FunctionCallInfo,
) -> Vec<composite_type!('static, "glicko2_rating")> {
    // SAFETY: this call's fcinfo; arguments 0 and 1 are arrays.
    unsafe { require_lists(fcinfo, 0, &["players", "placements"]) };
    let (ps, _) = read_array(players, "player");
    let pl = elements(&placements, "placement");
    let out = check(glicko2::multiplayer(
        &ps,
        &pl,
        tau,
        &Bounds::limits(rd_min, rd_max, volatility_max, max_change),
    ));
    // SAFETY: `fcinfo` is this call's; its result type is glicko2_rating[].
    let desc = unsafe { out_descs(fcinfo, ResultShape::Array) }.rating;
    out.into_iter().map(|r| rating_tuple(desc, r)).collect()
}

/// A whole rating period in one call: every player of `player_ids` (with `ratings` in the
/// same order) rated against the games `white[i]` vs `black[i]` (player ids) in which white
/// scored `white_scores[i]`. Players without games get the step-6 RD growth. Returns one row
/// per player. This is the fast shape for large periods: columns are aggregated into arrays
/// once and the core rates the period in one pass.
#[allow(clippy::too_many_arguments)]
#[pg_extern(immutable, strict, parallel_safe, requires = ["glicko2_rating_type"])]
fn glicko2_rate_period(
    player_ids: Array<'_, i64>,
    ratings: Array<'_, composite_type!("glicko2_rating")>,
    white: Array<'_, i64>,
    black: Array<'_, i64>,
    white_scores: Array<'_, f64>,
    tau: default!(f64, 0.5),
    rd_min: default!(f64, 0.0),
    rd_max: default!(f64, 350.0),
    volatility_max: default!(f64, "'Infinity'"),
    max_change: default!(f64, "'Infinity'"),
    fcinfo: pg_sys::FunctionCallInfo,
) -> TableIterator<
    'static,
    (
        name!(player_id, i64),
        name!(rating, composite_type!('static, "glicko2_rating")),
    ),
> {
    let lists = ["player_ids", "ratings", "white", "black", "white_scores"];
    // SAFETY: this call's fcinfo; arguments 0 to 4 are arrays.
    unsafe { require_lists(fcinfo, 0, &lists) };
    let ids = elements(&player_ids, "player id");
    check(PeriodPlayers::ratings_match(ids.len(), ratings.len()));
    let (players, type_oid) = read_array(ratings, "rating");
    let index = check(PeriodPlayers::new(&ids));
    let w = check(index.positions(&elements(&white, "white player id"), "white player id"));
    let b = check(index.positions(&elements(&black, "black player id"), "black player id"));
    let s = elements(&white_scores, "score");
    let out = check(glicko2::rate_period(
        &players,
        &w,
        &b,
        &s,
        tau,
        &Bounds::limits(rd_min, rd_max, volatility_max, max_change),
    ));
    // (a private copy, not reference-counted, that lives as long as the rows built from it)
    // SAFETY: `type_oid` is the ratings' element type, the composite glicko2_rating.
    let desc = unsafe { composite_desc(type_oid) };
    let rows: Vec<_> = ids
        .iter()
        .copied()
        .zip(out)
        .map(|(id, r)| (id, rating_tuple(desc, r)))
        .collect();
    TableIterator::new(rows)
}

#[pg_extern(immutable, strict, parallel_safe, requires = ["glicko2_rating_type"])]
fn glicko2_conservative(player: composite_type!("glicko2_rating"), k: default!(f64, 2.0)) -> f64 {
    check(glicko2::conservative(read(&player, "player"), k))
}

#[pg_extern(immutable, strict, parallel_safe, requires = ["glicko2_rating_type"])]
fn glicko2_provisional(
    player: composite_type!("glicko2_rating"),
    threshold: default!(f64, 110.0),
) -> bool {
    check(glicko2::is_provisional(read(&player, "player"), threshold))
}

// ------------------------------------------------------------------------------- aggregate

/// Transition function of `glicko2_period(player, opponent, score)` (τ = 0.5). The ratings
/// arrive as `anyelement` so that no row pays for a decoded tuple per argument.
#[pg_extern(immutable, parallel_safe, requires = ["glicko2_rating_type"])]
fn glicko2_period_step(
    state: Internal,
    player: Option<AnyElement>,
    opponent: Option<AnyElement>,
    score: Option<f64>,
    fcinfo: pg_sys::FunctionCallInfo,
) -> Internal {
    let tau = Some(glicko2::DEFAULT_TAU);
    glicko2_period_step_tau(state, player, opponent, score, tau, fcinfo)
}

/// Transition function of `glicko2_period(player, opponent, score, tau)`.
#[pg_extern(immutable, parallel_safe, requires = ["glicko2_rating_type"])]
fn glicko2_period_step_tau(
    mut state: Internal,
    player: Option<AnyElement>,
    opponent: Option<AnyElement>,
    score: Option<f64>,
    tau: Option<f64>,
    fcinfo: pg_sys::FunctionCallInfo,
) -> Internal {
    // Like a strict aggregate, rows with a NULL argument are skipped.
    let (Some(player), Some(opponent), Some(score), Some(tau)) = (player, opponent, score, tau)
    else {
        return state;
    };
    // SAFETY: called as the aggregate's transition function: `state` is the aggregate's own (NULL
    // or the PeriodRun made below), `fcinfo` the call's. The aggregate's signature makes both
    // ratings glicko2_rating (the step functions take `internal`, so SQL cannot call them
    // directly with anything else).
    unsafe {
        // (whether their type has the plain layout, checked once per call site)
        let fast = per_call_site(fcinfo, || has_plain_layout(player.oid()));
        let p = rating_from_datum(player.datum(), fast, "player");
        let o = rating_from_datum(opponent.datum(), fast, "opponent");
        // (the state: the core's run of the group's period, in the aggregate's memory context)
        match state.get_mut::<PeriodRun>() {
            Some(run) => {
                check(run.add(p, o, score, tau));
                state
            }
            None => {
                let run = check(PeriodRun::new(p, o, score, tau));
                let mut aggctx: pg_sys::MemoryContext = std::ptr::null_mut();
                if pg_sys::AggCheckCallContext(fcinfo, &mut aggctx) == 0 {
                    raise(
                        PgSqlErrorCode::ERRCODE_FEATURE_NOT_SUPPORTED,
                        "glicko2_period_step may only be called as an aggregate",
                    );
                }
                let slot = pg_sys::MemoryContextAlloc(aggctx, std::mem::size_of::<PeriodRun>())
                    as *mut PeriodRun;
                slot.write(run);
                Internal::from(Some(pg_sys::Datum::from(slot)))
            }
        }
    }
}

/// Final function: ends the period with the default bounds (RD ≤ 350).
#[pg_extern(immutable, parallel_safe, requires = ["glicko2_rating_type"])]
fn glicko2_period_final(
    state: Internal,
    fcinfo: pg_sys::FunctionCallInfo,
) -> Option<composite_type!('static, "glicko2_rating")> {
    // SAFETY: the state was made by glicko2_period_step_tau as a PeriodRun in the aggregate's memory context.
    let r = check(unsafe { state.get::<PeriodRun>() }?.finish());
    Some(rating_tuple(
        // SAFETY: `fcinfo` is this call's; its result type is glicko2_rating.
        unsafe { out_descs(fcinfo, ResultShape::Rating) }.rating,
        r,
    ))
}
