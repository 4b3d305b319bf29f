//! How well a ledger predicts its games (pg_rating_core::ledger::quality), and how well the same
//! rating system with other parameters would have, replayed in memory over the same games.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use pg_rating_core::ledger::{
    replay_multiplayer_seasons, replay_seasons, LedgerGame, MultiGame, Quality, QualitySum,
    Standing, Variant,
};
use pgrx::prelude::*;
use pgrx::PgSqlErrorCode;

use super::store::LedgerStore;
use super::{ledger_game, rated, rules_of};
use crate::error::{raise, require_one_dimension};

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
    if rating_band.is_some_and(|b| !(b > 0.0 && b.is_finite())) {
        raise(
            PgSqlErrorCode::ERRCODE_INVALID_PARAMETER_VALUE,
            "rating_band must be positive",
        );
    }
    let rows = Spi::connect_mut(|client| {
        // 22023 for a ledger or scope that does not exist (NULL: every scope)
        let id = super::reads::ledger_id_for_read(client, ledger, scope, true);
        // Periods are binned from a Monday (2000-01-03), so that weeks start on Mondays, as
        // `date_trunc('week', ...)` does.
        let rows = client
            .select(
                &*crate::security::qualify("SELECT CASE WHEN $3::interval IS NULL THEN NULL
                             ELSE date_bin($3, e.game_date, timestamptz '2000-01-03') END AS period_start,
                        CASE WHEN $4::float8 IS NULL THEN NULL
                             ELSE floor(e.rating_before / $4) * $4 END AS band_low,
                        e.expected, e.score
                 FROM @extschema@.ledger_entries e
                 WHERE e.ledger_id = $1 AND ($2::text IS NULL OR e.scope = $2)
                 -- one order, so that the sums are the same to the last bit wherever they run
                 ORDER BY e.scope, e.player, e.game_date, e.game_key"),
                None,
                &[id.into(), scope.into(), period.into(), rating_band.into()],
            )
            .unwrap_or_else(|e| super::internal(e));
        let mut groups: BTreeMap<
            (Option<i64>, Option<i64>),
            (Option<TimestampWithTimeZone>, Option<f64>, QualitySum),
        > = BTreeMap::new();
        for r in rows {
            // (a failed read is an error; the columns are NOT NULL, the first two NULL when not asked for)
            let start: Option<TimestampWithTimeZone> = crate::spi::nullable(&r, "period_start");
            let band: Option<f64> = crate::spi::nullable(&r, "band_low");
            let expected: f64 = crate::spi::column(&r, "expected");
            let score: f64 = crate::spi::column(&r, "score");
            let key = (start.map(|s| s.into_inner()), band.map(|b| b as i64));
            groups
                .entry(key)
                .or_insert((start, band, QualitySum::default()))
                .2
                .add(expected, score);
        }
        groups
            .into_values()
            .map(|(start, band, sum)| {
                let (n, a, b, l, u) = row(sum.quality());
                (start, band, n, a, b, l, u)
            })
            .collect::<Vec<_>>()
    });
    TableIterator::new(rows)
}

/// The most K factors and taus together that one `ledger_what_if` call replays (each is a replay
/// of the whole ledger): 54000 past it.
pub const MAX_WHAT_IF_VARIANTS: usize = 100;

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
    if count(&k_factors) + count(&taus) > MAX_WHAT_IF_VARIANTS {
        raise(
            PgSqlErrorCode::ERRCODE_PROGRAM_LIMIT_EXCEEDED,
            format!(
                "ledger_what_if replays at most {MAX_WHAT_IF_VARIANTS} K factors and taus together, \
                 not {}",
                count(&k_factors) + count(&taus)
            ),
        );
    }
    let values = |a: &Option<Array<'_, f64>>, what: &str| -> Vec<f64> {
        a.as_ref()
            .map_or_else(Vec::new, |a| crate::rating::elements(a, what).into_owned())
    };
    let k_factors = values(&k_factors, "a K factor");
    let taus = values(&taus, "a tau");
    crate::error::cancellable();
    let actor = crate::security::acting_role();
    let _owner = crate::security::RunAs::extension_owner();
    let rows = Spi::connect_mut(|client| {
        let mut store = LedgerStore::new(client);
        let l = store.ledger_named(ledger);
        super::attach::require_owner(actor, &l, "replay");
        let att = super::attach::attached(&mut store, &l);
        // a setting no value of which changes a rating is refused, not replayed under its label
        let own_rules = rules_of(&l);
        let multiplayer = att.multiplayer.as_ref().map(|m| m.rule);
        for (given, setting, name) in [
            (!k_factors.is_empty(), Variant::KFactor, "k_factors"),
            (!taus.is_empty(), Variant::Tau, "taus"),
        ] {
            if let (true, Err(e)) = (given, own_rules.check_variant(setting, multiplayer)) {
                raise(
                    crate::error::code(&e),
                    format!("ledger \"{ledger}\" cannot be replayed with other {name}: {e}"),
                );
            }
        }
        // each scope's games, of either kind, sorted
        let mut two: BTreeMap<String, Vec<LedgerGame>> = BTreeMap::new();
        let mut multi: BTreeMap<String, Vec<MultiGame>> = BTreeMap::new();
        if att.multiplayer.is_some() {
            let rows = store.read_participants(&att, &att.all_rows_query(), &[]);
            let mut by_scope: BTreeMap<&str, Vec<_>> = BTreeMap::new();
            for r in &rows {
                by_scope.entry(r.scope.as_str()).or_default().push(r);
            }
            for (scope, rows) in by_scope {
                multi.insert(scope.to_owned(), super::multi_games(&rows));
            }
        } else {
            for g in rated(&store.read_games(&att, &att.all_rows_query(), &[])) {
                two.entry(g.scope.clone()).or_default().push(ledger_game(g));
            }
            for games in two.values_mut() {
                games.sort_by(|a, b| a.key.cmp(&b.key));
            }
        }
        let seasons: BTreeMap<String, Vec<_>> = two
            .keys()
            .chain(multi.keys())
            .map(|scope| (scope.clone(), store.seasons(l.id, scope)))
            .collect();
        // each scope's players with a seed (ledger_seeds) start from it, as in the ledger itself
        let seeds: BTreeMap<String, Vec<_>> = two
            .iter()
            .map(|(scope, games)| {
                let players: BTreeSet<&str> = games
                    .iter()
                    .flat_map(|g| [g.white.as_str(), g.black.as_str()])
                    .collect();
                (scope, players)
            })
            .chain(multi.iter().map(|(scope, games)| {
                let players: BTreeSet<&str> = games
                    .iter()
                    .flat_map(|g| g.places.iter().map(|(p, _)| p.as_str()))
                    .collect();
                (scope, players)
            }))
            .map(|(scope, players)| {
                let seeds = store.seeds(l.id, scope, players.into_iter().collect());
                (scope.clone(), seeds)
            })
            .collect();
        let own = (l.settings.k_factor, l.settings.tau);
        let mut variants = vec![own];
        variants.extend(k_factors.iter().map(|&k| (k, own.1)));
        variants.extend(taus.iter().map(|&t| (own.0, t)));
        let mut out = Vec::with_capacity(variants.len());
        for (k, tau) in variants {
            let mut settings = l.settings.clone();
            (settings.k_factor, settings.tau) = (k, tau);
            let variant = super::store::Ledger {
                id: l.id,
                name: l.name.clone(),
                owner: l.owner,
                settings,
                notify_channel: None,
            };
            let rules = rules_of(&variant);
            let mut sum = QualitySum::default();
            let fail = |e: pg_rating_core::rating::RatingError| -> ! {
                raise(
                    crate::error::code(&e),
                    format!("ledger \"{ledger}\" with k {k}, tau {tau}: {e}"),
                )
            };
            let seeded = |scope: &str| -> HashMap<String, Standing> {
                seeds[scope]
                    .iter()
                    .map(|(player, rating, rd, volatility)| {
                        let s = Standing::seeded(&rules.system, *rating, *rd, *volatility);
                        (player.clone(), s)
                    })
                    .collect()
            };
            let mut entries = Vec::new();
            for (scope, games) in &two {
                entries.extend(
                    replay_seasons(&rules, &seasons[scope], &mut seeded(scope), games)
                        .unwrap_or_else(|e| fail(e)),
                );
            }
            if let Some(m) = &att.multiplayer {
                for (scope, games) in &multi {
                    entries.extend(
                        replay_multiplayer_seasons(
                            &rules,
                            m.rule,
                            &seasons[scope],
                            &mut seeded(scope),
                            games,
                        )
                        .unwrap_or_else(|e| fail(e)),
                    );
                }
            }
            for e in &entries {
                sum.add(e.expected, e.score);
            }
            let (n, a, b, lo, u) = row(sum.quality());
            out.push((k, tau, n, a, b, lo, u));
        }
        out
    });
    TableIterator::new(rows)
}
