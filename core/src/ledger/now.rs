//! What the ledgers' readers derive from a stored standing as of a moment (`ledger_standings_now`,
//! the leaderboard, a player's rank and standing): whether the player is provisional, the resets
//! of the seasons that ended since the player's last game, and the linear performance. The SQL
//! readers call these through the library (src/ledger/reads.rs) and hold no copy of them.
//!
//! The functions follow SQL's three-valued logic where the readers need it: an unknown input
//! gives an unknown answer unless the known ones settle it, and floats compare as PostgreSQL
//! compares them (NaN equal to itself and above every other value).

use super::standing::SeasonEnd;
use crate::rating::glicko2::{self, Bounds, RdGrowth};
use crate::rating::system::stored;
use crate::rating::RatingError;

/// `a > b` as PostgreSQL compares two float8 values (NaN is the largest value).
fn pg_greater(a: f64, b: f64) -> bool {
    match (a.is_nan(), b.is_nan()) {
        (true, true) => false,
        (true, false) => true,
        (false, true) => false,
        (false, false) => a > b,
    }
}

/// `greatest(a, b)` as PostgreSQL computes it for float8.
fn pg_greatest(a: f64, b: f64) -> f64 {
    if pg_greater(b, a) {
        b
    } else {
        a
    }
}

/// Whether a player is provisional: fewer games than `provisional_games`, an RD above
/// `provisional_rd` (a ledger without one: never by RD), or the last game before
/// `inactive_before` (the moment `provisional_after` before now; none: never by time).
/// `None` (unknown) only when the games or their bound are unknown and neither other test
/// makes the player provisional.
pub fn is_provisional(
    games: Option<i32>,
    provisional_games: Option<i32>,
    rd: Option<f64>,
    provisional_rd: Option<f64>,
    last_played: Option<i64>,
    inactive_before: Option<i64>,
) -> Option<bool> {
    let by_rd = matches!((rd, provisional_rd), (Some(rd), Some(bound)) if pg_greater(rd, bound));
    let by_time =
        matches!((last_played, inactive_before), (Some(last), Some(before)) if last < before);
    if by_rd || by_time {
        return Some(true);
    }
    Some(games? < provisional_games?)
}

/// The seasons of a scope in the order their resets apply: by end.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Seasons(Vec<SeasonEnd>);

impl Seasons {
    /// `ends` sorted by end (a stable sort: ends at the same moment keep their order).
    pub fn new(mut ends: Vec<SeasonEnd>) -> Self {
        if !ends.windows(2).all(|w| w[0].at <= w[1].at) {
            ends.sort_by_key(|a| a.at);
        }
        Seasons(ends)
    }

    pub fn ends(&self) -> &[SeasonEnd] {
        &self.0
    }

    /// Where the season that ends at `end` starts: the latest end of these seasons before it (the
    /// scope's previous season), `None` for its first season.
    pub fn start_of(&self, end: i64) -> Option<i64> {
        self.0
            .iter()
            .map(|s| s.at)
            .take_while(|&at| at < end)
            .last()
    }
}

impl Seasons {
    /// The seasons of the readers' arrays of their ends, pulls and RD floors (one element per
    /// season; no arrays: no seasons). 2202E for arrays of different lengths, 22004 for a NULL
    /// end or pull (no pulls: 0).
    pub fn from_arrays(
        ends: Option<Vec<Option<i64>>>,
        pulls: Option<Vec<Option<f64>>>,
        floors: Option<Vec<Option<f64>>>,
    ) -> Result<Seasons, RatingError> {
        let Some(ends) = ends else {
            return Ok(Seasons::default());
        };
        for (name, len) in [
            ("season_pulls", pulls.as_ref().map(Vec::len)),
            ("season_rd_floors", floors.as_ref().map(Vec::len)),
        ] {
            if let Some(len) = len.filter(|&n| n != ends.len()) {
                let what = format!("season_ends and {name}");
                return Err(RatingError::length_mismatch(&what, ends.len(), len));
            }
        }
        let mut out = Vec::with_capacity(ends.len());
        for (i, at) in ends.into_iter().enumerate() {
            let at = at.ok_or_else(|| RatingError::null("a season's end"))?;
            let pull = match &pulls {
                Some(p) => p[i].ok_or_else(|| RatingError::null("a season's rating_pull"))?,
                None => 0.0,
            };
            let rd_floor = floors.as_ref().and_then(|f| f[i]);
            out.push(SeasonEnd { at, pull, rd_floor });
        }
        Ok(Seasons::new(out))
    }
}

/// A player's RD as of now: the stored `rd` grown by the rating periods (`period`, microseconds)
/// `elapsed` since the last game by the ledger's `rd_growth` (`None`: elapsed) and bounded by its
/// RDs, as its writer grows it before the player's next game. `rd` as given without a
/// volatility, a rating period, a last game or a `max_rd`; 22023 for an unknown `rd_growth`.
pub fn rd_now(
    rd: f64,
    volatility: Option<f64>,
    elapsed: Option<i64>,
    period: Option<i64>,
    min_rd: Option<f64>,
    max_rd: Option<f64>,
    rd_growth: Option<&str>,
) -> Result<f64, RatingError> {
    let (Some(volatility), Some(elapsed), Some(period), Some(max_rd)) =
        (volatility, elapsed, period, max_rd)
    else {
        return Ok(rd);
    };
    let growth = rd_growth.unwrap_or("elapsed");
    let rd_growth = RdGrowth::from_name(growth).ok_or_else(|| {
        RatingError::invalid(format!(
            "unknown rd_growth {} (one of {})",
            crate::error::Quoted(growth),
            RdGrowth::NAMES.join(", ")
        ))
    })?;
    let bounds = Bounds {
        rd_min: min_rd.unwrap_or(0.0),
        rd_max: max_rd,
        rd_growth,
        ..Bounds::default()
    };
    glicko2::rd_after(rd, volatility, elapsed, period, &bounds)
}

/// A rating and RD after the resets of the seasons (sorted by end) that ended after
/// `last_played` and not after `at`, applied in order: each pulls the rating toward `start` by its
/// `pull` (rounded to the stored precision, as the rating a game starts from) and raises an RD to
/// its floor. Without a last game (a seed) nothing is reset. This is the rule of the writers
/// (a player's first game after a season's end starts from it) and of the readers (the standing
/// shown as of now).
pub fn season_reset(
    rating: f64,
    rd: Option<f64>,
    last_played: Option<i64>,
    start: f64,
    seasons: &[SeasonEnd],
    at: i64,
) -> (f64, Option<f64>) {
    let Some(last) = last_played else {
        return (rating, rd);
    };
    let (mut rating, mut rd) = (rating, rd);
    for season in seasons.iter().filter(|e| e.at > last && e.at <= at) {
        rating = stored(rating + season.pull * (start - rating));
        if let (Some(r), Some(floor)) = (rd, season.rd_floor) {
            rd = Some(pg_greatest(r, floor));
        }
    }
    (rating, rd)
}

/// The linear performance rating of a record: the opponents' average + 400 (wins − losses) /
/// games; `None` before any game.
pub fn linear_performance(opponents_sum: f64, wins: i32, losses: i32, games: i32) -> Option<f64> {
    opponents_average(opponents_sum, games)
        .map(|average| average + 400.0 * (f64::from(wins) - f64::from(losses)) / f64::from(games))
}

/// The opponents' average rating of a record; `None` before any game.
pub fn opponents_average(opponents_sum: f64, games: i32) -> Option<f64> {
    (games > 0).then(|| opponents_sum / f64::from(games))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn provisional_by_games_rd_or_inactivity() {
        // a player with enough games, a low RD and a recent game is established
        assert_eq!(
            is_provisional(
                Some(20),
                Some(10),
                Some(60.0),
                Some(110.0),
                Some(100),
                Some(50)
            ),
            Some(false)
        );
        // too few games
        assert_eq!(
            is_provisional(
                Some(9),
                Some(10),
                Some(60.0),
                Some(110.0),
                Some(100),
                Some(50)
            ),
            Some(true)
        );
        assert_eq!(
            is_provisional(Some(10), Some(10), None, None, None, None),
            Some(false)
        );
        // an RD above the bound (not at it)
        assert_eq!(
            is_provisional(Some(20), Some(10), Some(110.5), Some(110.0), None, None),
            Some(true)
        );
        assert_eq!(
            is_provisional(Some(20), Some(10), Some(110.0), Some(110.0), None, None),
            Some(false)
        );
        // no RD (Elo) or no bound: never by RD; NaN is above every bound, as in PostgreSQL
        assert_eq!(
            is_provisional(Some(20), Some(10), None, Some(110.0), None, None),
            Some(false)
        );
        assert_eq!(
            is_provisional(Some(20), Some(10), Some(f64::NAN), Some(110.0), None, None),
            Some(true)
        );
        // the last game before the cut-off (not at it); no last game or no cut-off: never by time
        assert_eq!(
            is_provisional(Some(20), Some(10), None, None, Some(49), Some(50)),
            Some(true)
        );
        assert_eq!(
            is_provisional(Some(20), Some(10), None, None, Some(50), Some(50)),
            Some(false)
        );
        assert_eq!(
            is_provisional(Some(20), Some(10), None, None, None, Some(50)),
            Some(false)
        );
    }

    #[test]
    fn provisional_unknown_only_when_nothing_settles_it() {
        assert_eq!(is_provisional(None, Some(10), None, None, None, None), None);
        assert_eq!(is_provisional(Some(3), None, None, None, None, None), None);
        // an RD or inactivity settles it whatever the games
        assert_eq!(
            is_provisional(None, Some(10), Some(200.0), Some(110.0), None, None),
            Some(true)
        );
        assert_eq!(
            is_provisional(None, None, None, None, Some(1), Some(2)),
            Some(true)
        );
    }

    fn end(at: i64, pull: f64, rd_floor: Option<f64>) -> SeasonEnd {
        SeasonEnd { at, pull, rd_floor }
    }

    #[test]
    fn season_resets_since_the_last_game_up_to_now() {
        let seasons = Seasons::new(vec![end(30, 0.5, None), end(20, 0.5, Some(150.0))]);
        assert_eq!(seasons.ends()[0].at, 20);
        let s = seasons.ends();
        // none ended yet, or all before the last game
        assert_eq!(
            season_reset(1900.0, Some(60.0), Some(10), 1500.0, s, 15),
            (1900.0, Some(60.0))
        );
        assert_eq!(
            season_reset(1900.0, Some(60.0), Some(35), 1500.0, s, 40),
            (1900.0, Some(60.0))
        );
        // one (its end included), then both in order
        assert_eq!(
            season_reset(1900.0, Some(60.0), Some(10), 1500.0, s, 20),
            (1700.0, Some(150.0))
        );
        assert_eq!(
            season_reset(1900.0, Some(60.0), Some(10), 1500.0, s, 40),
            (1600.0, Some(150.0))
        );
        // a season that ended at the last game is already in the rating
        assert_eq!(
            season_reset(1900.0, Some(60.0), Some(20), 1500.0, s, 40),
            (1700.0, Some(60.0))
        );
        // a seed (no last game) is not reset; an RD above the floor stays; no RD, no floor
        assert_eq!(
            season_reset(1900.0, Some(60.0), None, 1500.0, s, 40),
            (1900.0, Some(60.0))
        );
        assert_eq!(
            season_reset(1900.0, Some(300.0), Some(10), 1500.0, s, 40).1,
            Some(300.0)
        );
        assert_eq!(
            season_reset(1900.0, None, Some(10), 1500.0, s, 40),
            (1600.0, None)
        );
        // a full reset; a pull of 0 keeps the rating
        let full = [end(20, 1.0, None), end(25, 0.0, None)];
        assert_eq!(
            season_reset(1873.25, None, Some(10), 1500.0, &full, 40).0,
            1500.0
        );
        // pulls that do not divide evenly: each step rounded to the stored precision
        let (r, _) = season_reset(1900.0, None, Some(10), 1500.0, &[end(20, 0.3, None)], 20);
        assert_eq!(r, 1780.0);
        let (r, _) = season_reset(
            1523.123456789,
            None,
            Some(10),
            1500.0,
            &[end(20, 0.25, None), end(30, 0.3, None)],
            40,
        );
        assert_eq!(
            r,
            stored(stored(1523.123456789 - 0.25 * 23.123456789) * 0.7 + 450.0)
        );
        assert!((r - (1500.0 + 23.123456789 * 0.75 * 0.7)).abs() < 1e-9);
    }

    #[test]
    fn performance_and_average() {
        assert_eq!(opponents_average(8000.0, 0), None);
        assert_eq!(linear_performance(0.0, 0, 0, 0), None);
        assert_eq!(opponents_average(8000.0, 5), Some(1600.0));
        // 2 wins, 1 draw, 2 losses against 1600: 1600
        assert_eq!(linear_performance(8000.0, 2, 2, 5), Some(1600.0));
        // all won: average + 400; all lost: average - 400
        assert_eq!(linear_performance(3000.0, 2, 0, 2), Some(1900.0));
        assert_eq!(linear_performance(3000.0, 0, 2, 2), Some(1100.0));
        // 1 win in 3 against 1500 (FIDE's linear rule: 1500 + 400/3)
        assert_eq!(
            linear_performance(4500.0, 1, 0, 3),
            Some(1500.0 + 400.0 / 3.0)
        );
        // the extreme record does not overflow the integers
        assert_eq!(
            linear_performance(0.0, i32::MAX, i32::MIN + 1, i32::MAX).map(|p| p.is_finite()),
            Some(true)
        );
    }

    #[test]
    fn floats_compare_as_postgresql_does() {
        assert!(pg_greater(f64::NAN, 1e308));
        assert!(!pg_greater(f64::NAN, f64::NAN));
        assert!(!pg_greater(1e308, f64::NAN));
        assert!(pg_greatest(1.0, f64::NAN).is_nan());
        assert!(pg_greatest(f64::NAN, 1.0).is_nan());
        assert_eq!(pg_greatest(2.0, 1.0), 2.0);
    }

    #[test]
    fn a_season_starts_at_the_previous_end_of_its_scope() {
        let seasons = Seasons::from_arrays(
            Some(vec![Some(30), Some(10), Some(20), Some(20)]),
            None,
            None,
        )
        .unwrap();
        assert_eq!(seasons.start_of(10), None);
        assert_eq!(seasons.start_of(20), Some(10));
        assert_eq!(seasons.start_of(25), Some(20));
        assert_eq!(seasons.start_of(30), Some(20));
        assert_eq!(seasons.start_of(31), Some(30));
        assert_eq!(Seasons::default().start_of(5), None);
    }

    #[test]
    fn seasons_from_the_readers_arrays() {
        let seasons = Seasons::from_arrays(
            Some(vec![Some(20), Some(10)]),
            Some(vec![Some(0.5), Some(0.25)]),
            None,
        )
        .unwrap();
        assert_eq!(
            seasons.ends().iter().map(|e| e.at).collect::<Vec<_>>(),
            [10, 20]
        );
        assert_eq!(seasons.ends()[0].pull, 0.25);
        assert_eq!(
            Seasons::from_arrays(None, None, None).unwrap(),
            Seasons::default()
        );
        let class = |e: RatingError| crate::error::Classified::sqlstate(&e);
        let short = Seasons::from_arrays(Some(vec![Some(1)]), Some(vec![]), None);
        assert_eq!(class(short.unwrap_err()), "2202E");
        let null = Seasons::from_arrays(Some(vec![None]), None, None).unwrap_err();
        assert_eq!(
            (class(null.clone()), null.message.as_str()),
            ("22004", "a season's end must not be NULL")
        );
        let null_pull = Seasons::from_arrays(Some(vec![Some(1)]), Some(vec![None]), None);
        assert_eq!(class(null_pull.unwrap_err()), "22004");
    }

    #[test]
    fn the_rd_as_of_now_grows_by_the_ledgers_rule() {
        let week = 7 * 86_400_000_000;
        let same = rd_now(50.0, None, Some(week), Some(week), None, Some(350.0), None);
        assert_eq!(same.unwrap(), 50.0);
        let grown = rd_now(
            50.0,
            Some(0.06),
            Some(10 * week),
            Some(week),
            None,
            Some(350.0),
            None,
        );
        assert!(grown.unwrap() > 50.0);
        let capped = rd_now(
            300.0,
            Some(0.06),
            Some(1000 * week),
            Some(week),
            None,
            Some(320.0),
            None,
        );
        assert_eq!(capped.unwrap(), 320.0);
        let unknown = rd_now(
            50.0,
            Some(0.06),
            Some(week),
            Some(week),
            None,
            Some(350.0),
            Some("x"),
        );
        assert!(unknown
            .unwrap_err()
            .message
            .starts_with("unknown rd_growth \"x\" (one of elapsed, "));
    }
}
