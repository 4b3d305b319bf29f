//! How well a ledger predicts its games (pg_rating_core::ledger::quality), and how well the same
//! rating system with other parameters would have, replayed in memory over the same games.

use std::collections::BTreeMap;

use pg_rating_core::ledger::what_if::{
    check_variant_count, check_variants, multiplayer_scopes, two_player_scopes, what_if, Scope,
};
use pg_rating_core::ledger::{check_band, quality_by_group, Quality};
use pgrx::prelude::*;
use pgrx::PgSqlErrorCode;

use super::store::LedgerStore;
use super::{ledger_game, rated, rules_of};
use crate::error::{raise, raise_core, require_one_dimension};
use crate::spi::{column, nullable};

type QualityRow = (
    name!(entries, i64),
    name!(accuracy, Option<f64>),
    name!(brier, Option<f64>),
    name!(log_loss, Option<f64>),
    name!(upset_rate, Option<f64>),
);

fn row(q: Quality) -> QualityRow {
    (
        q.entries as i64,
        q.accuracy,
        q.brier,
        q.log_loss,
        q.upset_rate,
    )
}

/// The prediction quality of a ledger's history, overall or by period and by rating band
/// (declared in sql/ledgers.sql).
#[pg_extern(stable, parallel_unsafe, sql = false)]
#[allow(clippy::type_complexity)]
fn ledger_prediction_quality(
    ledger: Option<&str>,
    scope: Option<&str>,
    period: Option<Interval>,
    rating_band: Option<f64>,
) -> TableIterator<
    'static,
    (
        name!(period_start, Option<TimestampWithTimeZone>),
        name!(band_low, Option<f64>),
        name!(entries, i64),
        name!(accuracy, Option<f64>),
        name!(brier, Option<f64>),
        name!(log_loss, Option<f64>),
        name!(upset_rate, Option<f64>),
    ),
> {
    let Some(ledger) = ledger else {
        raise(
            PgSqlErrorCode::ERRCODE_NULL_VALUE_NOT_ALLOWED,
            "ledger must not be NULL",
        )
    };
    check_band(rating_band).unwrap_or_else(|e| raise_core(&e));
    let rows = Spi::connect_mut(|client| {
        // 22023 for a ledger or scope that does not exist (NULL: every scope)
        let id = super::reads::ledger_id_for_read(client, ledger, scope, true);
        let rows = client
            .select(
                &*crate::security::qualify(include_str!("../../sql/glue/prediction_quality.sql")),
                None,
                &[id.into(), scope.into(), period.into(), rating_band.into()],
            )
            .unwrap_or_else(|e| super::internal(e));
        // (a failed read is an error; the columns are NOT NULL, the first two NULL when not asked for)
        let entries = rows.into_iter().map(|r| {
            let start = nullable::<TimestampWithTimeZone>(&r, "period_start");
            let band = nullable(&r, "band_low");
            (
                start.map(|s| s.into_inner()),
                band,
                column(&r, "expected"),
                column(&r, "score"),
            )
        });
        quality_by_group(entries)
            .into_iter()
            .map(|(start, band, q)| {
                let (n, a, b, l, u) = row(q);
                (start.map(super::store::timestamp), band, n, a, b, l, u)
            })
            .collect::<Vec<_>>()
    });
    TableIterator::new(rows)
}

/// The prediction quality the ledger's rating system would have had with other K factors or
/// taus, replayed in memory over the ledger's games (nothing is written). The first row is the
/// ledger's own setting. The replays can be cancelled (`statement_timeout`, a cancel).
#[pg_extern(stable, parallel_unsafe, sql = false)]
#[allow(clippy::type_complexity)]
fn ledger_what_if(
    ledger: Option<&str>,
    k_factors: Option<Array<'_, f64>>,
    taus: Option<Array<'_, f64>>,
    fcinfo: pg_sys::FunctionCallInfo,
) -> TableIterator<
    'static,
    (
        name!(k_factor, f64),
        name!(tau, f64),
        name!(entries, i64),
        name!(accuracy, Option<f64>),
        name!(brier, Option<f64>),
        name!(log_loss, Option<f64>),
        name!(upset_rate, Option<f64>),
    ),
> {
    let Some(ledger) = ledger else {
        raise(
            PgSqlErrorCode::ERRCODE_NULL_VALUE_NOT_ALLOWED,
            "ledger must not be NULL",
        )
    };
    // SAFETY: this call's fcinfo; arguments 1 and 2 are arrays.
    unsafe {
        require_one_dimension(fcinfo, 1, "k_factors");
        require_one_dimension(fcinfo, 2, "taus");
    }
    let count = |a: &Option<Array<'_, f64>>| a.as_ref().map_or(0, |a| a.len());
    check_variant_count(count(&k_factors) + count(&taus)).unwrap_or_else(|e| raise_core(&e));
    let values = |a: &Option<Array<'_, f64>>, what: &str| -> Vec<f64> {
        a.as_ref()
            .map_or_else(Vec::new, |a| crate::rating::elements(a, what).into_owned())
    };
    let k_factors = values(&k_factors, "a K factor");
    let taus = values(&taus, "a tau");
    let actor = crate::security::acting_role();
    let _owner = crate::security::RunAs::extension_owner();
    let rows = Spi::connect_mut(|client| {
        let mut store = LedgerStore::new(client);
        let l = store.ledger_named(ledger);
        super::attach::require_owner(actor, &l, "replay");
        let att = super::attach::attached(&mut store, &l);
        let multiplayer = att.multiplayer.as_ref().map(|m| m.rule);
        check_variants(
            ledger,
            &rules_of(&l),
            multiplayer,
            !k_factors.is_empty(),
            !taus.is_empty(),
        )
        .unwrap_or_else(|e| raise_core(&e));
        // each scope's games, of either kind, sorted
        let games = match &att.multiplayer {
            Some(m) => {
                let rows = store.read_participants(&att, &att.all_rows_query(), &[]);
                multiplayer_scopes(m.rule, &rows).unwrap_or_else(|e| raise_core(&e))
            }
            None => two_player_scopes(
                rated(&store.read_games(&att, &att.all_rows_query(), &[]))
                    .map(|g| (g.scope.clone(), ledger_game(g))),
            ),
        };
        // each scope's seasons, and its players' seeds (ledger_seeds), as in the ledger itself
        let seasons: Vec<_> = games
            .keys()
            .map(|scope| store.seasons(l.id, scope))
            .collect();
        let scopes: BTreeMap<String, Scope> = games
            .into_iter()
            .zip(seasons)
            .map(|((scope, games), seasons)| {
                let seeds = store.seeds(l.id, &scope, games.players());
                (
                    scope,
                    Scope {
                        games,
                        seasons,
                        seeds,
                    },
                )
            })
            .collect();
        what_if(ledger, &l.settings, &k_factors, &taus, &scopes)
            .unwrap_or_else(|e| raise_core(&e))
            .into_iter()
            .map(|(k, tau, q)| {
                let (n, a, b, lo, u) = row(q);
                (k, tau, n, a, b, lo, u)
            })
            .collect::<Vec<_>>()
    });
    TableIterator::new(rows)
}
