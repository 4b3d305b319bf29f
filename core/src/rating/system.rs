//! The rating system a ledger or a ranking uses, and how one game moves both players' states.
//!
//! Every state is rounded to [`STORED_DECIMALS`] decimals before it is used again, because the
//! history keeps ratings as `numeric` with that many decimals: a replay from the stored history
//! and a replay kept in memory then compute from the very same numbers.

use super::glicko2::MIN_VOLATILITY;
use super::skemino::MAX_MEAN_RATING;
use super::{elo, fide, glicko2, skemino, RatingError};

/// Decimals of `elo`, `rd` and `volatility` in the history.
pub const STORED_DECIMALS: i32 = 10;
const MICROS_PER_DAY: f64 = 86_400_000_000.0;

/// Rounds to the stored precision (exact for ratings below 10^5). Values too large to scale
/// (|x| above about 10^298) have no decimals left to round and are kept as they are.
pub fn stored(x: f64) -> f64 {
    let scale = 10f64.powi(STORED_DECIMALS);
    let scaled = x * scale;
    if scaled.is_infinite() {
        return x;
    }
    scaled.round() / scale
}

/// A ranking's rating system and its parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RatingSystem {
    /// The Random Chess rule: `new = R + K (S - E)`, `E = 1 / (1 + 10^((R_opp - R) / 400))`.
    Elo { starting: f64, k: f64 },
    /// Skèmino's rating-dependent K (seed 004).
    Skemino { starting: f64 },
    /// FIDE's rules (Rating Regulations 8.3) applied game by game: `new = R + K (S − PD)`, PD
    /// from FIDE's table with the 400-point rule, K by the player's record (40 before 30 games,
    /// 10 once the rating has reached 2400, 20 otherwise; ages are not known, so the juniors' 40
    /// is not applied). Ratings stay unrounded between games; FIDE rates wins, draws and losses.
    Fide { starting: f64 },
    /// Glicko-2, each game rated on its own by `rule`; between games the RD grows by one rating
    /// period's worth of volatility per `period_micros` of inactivity (none when `None`).
    Glicko2 {
        starting: glicko2::Rating,
        tau: f64,
        rule: glicko2::GameRule,
        period_micros: Option<i64>,
        bounds: glicko2::Bounds,
    },
}

/// The rating settings of a ranking or ledger row, as stored.
#[derive(Clone, Copy, Debug)]
pub struct SystemSettings<'a> {
    /// `elo`, `skemino` or `glicko2`.
    pub rating_system: &'a str,
    pub starting_rating: f64,
    pub k_factor: f64,
    pub tau: f64,
    pub starting_rd: f64,
    pub starting_volatility: f64,
    /// The rating period in microseconds; `None` for no growth of the RD between games.
    pub rating_period_micros: Option<i64>,
    /// How a Glicko-2 game is rated (the Random Chess rankings: lichess's rule).
    pub glicko2_rule: glicko2::GameRule,
    /// Glicko-2 bounds of every result: RD at least `min_rd` (0 when `None`) and at most
    /// `max_rd` (the starting RD when `None`), volatility at most `max_volatility`.
    pub min_rd: Option<f64>,
    pub max_rd: Option<f64>,
    pub max_volatility: Option<f64>,
    /// Glicko-2 step 5.4's tolerance (`None`: Glickman's 1e-6).
    pub volatility_epsilon: Option<f64>,
    /// How inactivity grows a Glicko-2 RD over the rating periods without games.
    pub rd_growth: glicko2::RdGrowth,
}

impl RatingSystem {
    /// The names of the rating systems, as a ledger or ranking row names them: the one list
    /// (SQL checks a row's name with `rating_system_known`, which asks [`RatingSystem::known`]).
    pub const NAMES: [&'static str; 4] = ["elo", "fide", "glicko2", "skemino"];

    /// True when `name` names a rating system.
    pub fn known(name: &str) -> bool {
        Self::NAMES.contains(&name)
    }

    /// The rating system the settings name; the Glicko-2 bounds not given are 0 for the RD's
    /// minimum, the starting RD for its maximum, none for the volatility. An unknown name is an error: nothing is ever rated by a system it
    /// did not ask for.
    pub fn from_settings(s: &SystemSettings<'_>) -> Result<RatingSystem, String> {
        let starting = s.starting_rating;
        match s.rating_system {
            "elo" => Ok(RatingSystem::Elo {
                starting,
                k: s.k_factor,
            }),
            "skemino" => Ok(RatingSystem::Skemino { starting }),
            "fide" => Ok(RatingSystem::Fide { starting }),
            "glicko2" => Ok(RatingSystem::Glicko2 {
                starting: glicko2::Rating::new(starting, s.starting_rd, s.starting_volatility),
                tau: s.tau,
                rule: s.glicko2_rule,
                period_micros: s.rating_period_micros,
                // by default a player's RD never grows beyond a newcomer's (Glickman's 350)
                bounds: glicko2::Bounds {
                    rd_min: s.min_rd.unwrap_or(0.0),
                    rd_max: s.max_rd.unwrap_or(s.starting_rd),
                    volatility_max: s.max_volatility.unwrap_or(f64::INFINITY),
                    max_change: f64::INFINITY,
                    epsilon: s.volatility_epsilon.unwrap_or(glicko2::EPSILON),
                    rd_growth: s.rd_growth,
                },
            }),
            other => Err(format!(
                "unknown rating system \"{other}\" (one of {})",
                Self::NAMES.join(", ")
            )),
        }
    }
}

/// The smallest RD a ledger or ranking starts a player with (a setting or a seed): below it the
/// Glicko-2 scale's φ² underflows towards 0 and the next game of the player could not be rated.
pub const MIN_RD: f64 = 1e-3;
/// The largest RD a ledger or ranking starts a player with.
pub const MAX_RD: f64 = 10_000.0;

/// Whether an RD is one a player may start with.
pub fn rd_in_range(rd: f64) -> bool {
    (MIN_RD..=MAX_RD).contains(&rd)
}

impl RatingSystem {
    /// Checks settings under which every game can be rated: the one rule for the settings of
    /// ledgers and of the Random Chess rankings alike.
    pub fn validated(self) -> Result<Self, RatingError> {
        match self {
            RatingSystem::Elo { starting, k } => {
                finite("starting rating", starting)?;
                finite("k_factor", k)?;
                if !(0.0..=1000.0).contains(&k) {
                    return Err(bad(format!("k_factor must be in [0, 1000], got {k}")));
                }
            }
            RatingSystem::Fide { starting } => {
                if !(0.0..=4000.0).contains(&starting) {
                    return Err(bad(format!(
                        "a FIDE starting rating must be between 0 and 4000, got {starting}"
                    )));
                }
            }
            RatingSystem::Skemino { starting } => {
                finite("starting rating", starting)?;
                if starting >= MAX_MEAN_RATING - 0.01 {
                    return Err(bad(format!(
                        "a Skèmino starting rating must be below {:.2}, got {starting}",
                        MAX_MEAN_RATING - 0.01
                    )));
                }
            }
            RatingSystem::Glicko2 {
                starting,
                tau,
                period_micros,
                bounds,
                ..
            } => {
                finite("starting rating", starting.rating)?;
                if !rd_in_range(starting.rd) {
                    return Err(bad(format!(
                        "starting_rd must be in [{MIN_RD}, {MAX_RD}], got {}",
                        starting.rd
                    )));
                }
                if !(starting.volatility >= MIN_VOLATILITY && starting.volatility <= 10.0) {
                    return Err(bad(format!(
                        "starting_volatility must be in [{MIN_VOLATILITY:e}, 10], got {}",
                        starting.volatility
                    )));
                }
                if !(tau > 0.0 && tau <= 10.0) {
                    return Err(bad(format!("tau must be in (0, 10], got {tau:e}")));
                }
                if period_micros.is_some_and(|p| p <= 0) {
                    return Err(bad(
                        "rating_period must be positive, with no negative part (months, days, time)".into(),
                    ));
                }
                bounds.validate()?;
                // a newcomer starts within the bounds every later rating keeps to
                if !(bounds.rd_min <= starting.rd && starting.rd <= bounds.rd_max) {
                    return Err(bad(format!(
                        "starting_rd {} must be within [min_rd, max_rd] = [{}, {}]",
                        starting.rd, bounds.rd_min, bounds.rd_max
                    )));
                }
                if bounds.rd_max > MAX_RD {
                    return Err(bad(format!(
                        "max_rd must be at most {MAX_RD}, got {}",
                        bounds.rd_max
                    )));
                }
                if starting.volatility > bounds.volatility_max {
                    return Err(bad(format!(
                        "max_volatility {} is below starting_volatility {}",
                        bounds.volatility_max, starting.volatility
                    )));
                }
            }
        }
        Ok(self)
    }
}

fn bad(message: String) -> RatingError {
    RatingError::invalid(message)
}

fn finite(name: &str, x: f64) -> Result<(), RatingError> {
    if x.is_finite() {
        Ok(())
    } else {
        Err(bad(format!("{name} must be finite, got {x}")))
    }
}

/// A player's standing in one ranking.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayerState {
    pub rating: f64,
    /// Glicko-2 only.
    pub rd: Option<f64>,
    /// Glicko-2 only.
    pub volatility: Option<f64>,
    /// When the player's latest counted game was played (microseconds); `None` before any.
    pub last_played: Option<i64>,
}

impl RatingSystem {
    /// The state of a player without games.
    pub fn start(&self) -> PlayerState {
        match *self {
            RatingSystem::Elo { starting, .. }
            | RatingSystem::Skemino { starting }
            | RatingSystem::Fide { starting } => PlayerState {
                rating: stored(starting),
                rd: None,
                volatility: None,
                last_played: None,
            },
            RatingSystem::Glicko2 { starting, .. } => PlayerState {
                rating: stored(starting.rating),
                rd: Some(stored(starting.rd)),
                volatility: Some(stored(starting.volatility)),
                last_played: None,
            },
        }
    }

    /// Both players after a game played at `played_at` (microseconds) with `white_score`.
    pub fn rate(
        &self,
        white: &PlayerState,
        black: &PlayerState,
        white_score: f64,
        played_at: i64,
    ) -> Result<(PlayerState, PlayerState), RatingError> {
        let after = |rating: f64, g: Option<glicko2::Rating>| PlayerState {
            rating: stored(rating),
            rd: g.map(|g| stored(g.rd)),
            volatility: g.map(|g| stored(g.volatility)),
            last_played: Some(played_at),
        };
        match *self {
            RatingSystem::Elo { k, .. } => {
                let w = elo::update(white.rating, black.rating, white_score, k)?;
                let b = elo::update(black.rating, white.rating, 1.0 - white_score, k)?;
                Ok((after(w, None), after(b, None)))
            }
            RatingSystem::Skemino { .. } => {
                let (w, b) = skemino::update(white.rating, black.rating, white_score)?;
                Ok((after(w, None), after(b, None)))
            }
            RatingSystem::Fide { .. } => Err(RatingError::invalid(
                "FIDE's K depends on each player's record: rate with rate_player",
            )),
            RatingSystem::Glicko2 {
                tau, bounds, rule, ..
            } => {
                let before = |p: &PlayerState| -> Result<glicko2::Rating, RatingError> {
                    Ok(self
                        .glicko_at(p, played_at)?
                        .unwrap_or(glicko2::Rating::DEFAULT))
                };
                let (w, b) = glicko2::game_by(
                    rule,
                    before(white)?,
                    before(black)?,
                    white_score,
                    tau,
                    &bounds,
                )?;
                Ok((after(w.rating, Some(w)), after(b.rating, Some(b))))
            }
        }
    }
}

impl RatingSystem {
    /// One player after a game against `opponent`, the player's record known (`games` before
    /// this one, `peak` so far): FIDE's K needs it; the other systems rate as [`Self::rate`].
    pub fn rate_player(
        &self,
        player: &PlayerState,
        games: i32,
        peak: f64,
        opponent: &PlayerState,
        score: f64,
        played_at: i64,
    ) -> Result<PlayerState, RatingError> {
        let RatingSystem::Fide { .. } = *self else {
            return Ok(self.rate(player, opponent, score, played_at)?.0);
        };
        let rating = fide_rating(player.rating)?;
        let k = fide::k_factor(rating, games, None, peak >= 2400.0)?;
        let pd = fide::expected(rating, fide_rating(opponent.rating)?);
        fide::score_hundredths(score)?;
        Ok(PlayerState {
            rating: stored(player.rating + f64::from(k) * (score - pd)),
            rd: None,
            volatility: None,
            last_played: Some(played_at),
        })
    }
}

/// A rating as FIDE's table reads it: a whole number within FIDE's range.
fn fide_rating(r: f64) -> Result<i32, RatingError> {
    if !(r.is_finite() && (0.0..=4000.0).contains(&r)) {
        return Err(RatingError::out_of_range(format!(
            "a FIDE rating must be between 0 and 4000, got {r}"
        )));
    }
    Ok(r.round() as i32)
}

impl RatingSystem {
    /// A Glicko-2 player's rating as of `played_at`: the RD grown by the rating periods since the
    /// player's last game. `None` for the other systems.
    pub fn glicko_at(
        &self,
        p: &PlayerState,
        played_at: i64,
    ) -> Result<Option<glicko2::Rating>, RatingError> {
        let RatingSystem::Glicko2 {
            starting,
            period_micros,
            bounds,
            ..
        } = *self
        else {
            return Ok(None);
        };
        let r = glicko2::Rating::new(
            p.rating,
            p.rd.unwrap_or(starting.rd),
            p.volatility.unwrap_or(starting.volatility),
        );
        match (period_micros, p.last_played) {
            (Some(period), Some(last)) if played_at > last => {
                // abs_diff: the difference of two i64 timestamps may not fit an i64
                let elapsed = played_at.abs_diff(last) as f64;
                glicko2::decay(r, elapsed / period as f64, &bounds).map(Some)
            }
            _ => Ok(Some(r)),
        }
    }

    /// The state a Glicko-2 rating gives after a game played at `played_at`.
    pub fn after_glicko(r: glicko2::Rating, played_at: i64) -> PlayerState {
        PlayerState {
            rating: stored(r.rating),
            rd: Some(stored(r.rd)),
            volatility: Some(stored(r.volatility)),
            last_played: Some(played_at),
        }
    }

    /// The score `player` is expected to make against `opponent` (in [0, 1]).
    pub fn expected(
        &self,
        player: &PlayerState,
        opponent: &PlayerState,
    ) -> Result<f64, RatingError> {
        match *self {
            RatingSystem::Elo { .. } => elo::expected(player.rating, opponent.rating),
            RatingSystem::Skemino { .. } => skemino::expected(player.rating, opponent.rating),
            RatingSystem::Fide { .. } => Ok(fide::expected(
                fide_rating(player.rating)?,
                fide_rating(opponent.rating)?,
            )),
            RatingSystem::Glicko2 { starting, .. } => {
                let g = |p: &PlayerState| {
                    glicko2::Rating::new(
                        p.rating,
                        p.rd.unwrap_or(starting.rd),
                        p.volatility.unwrap_or(starting.volatility),
                    )
                };
                glicko2::expected(g(player), g(opponent))
            }
        }
    }
}

/// A rating period given as days, for display and tests.
pub fn period_from_days(days: f64) -> i64 {
    (days * MICROS_PER_DAY) as i64
}

#[cfg(test)]
mod settings_tests {
    use super::*;
    use crate::error::Classified;

    fn settings(name: &str) -> SystemSettings<'_> {
        SystemSettings {
            rating_system: name,
            starting_rating: 800.0,
            k_factor: 40.0,
            tau: 0.5,
            starting_rd: 350.0,
            starting_volatility: 0.06,
            rating_period_micros: Some(7 * 86_400_000_000),
            glicko2_rule: glicko2::GameRule::Glickman,
            min_rd: None,
            max_rd: None,
            max_volatility: None,
            volatility_epsilon: None,
            rd_growth: glicko2::RdGrowth::Elapsed,
        }
    }

    #[test]
    fn each_known_rating_system_is_read_with_its_parameters() {
        assert_eq!(
            RatingSystem::from_settings(&settings("elo")),
            Ok(RatingSystem::Elo {
                starting: 800.0,
                k: 40.0
            })
        );
        assert_eq!(
            RatingSystem::from_settings(&settings("skemino")),
            Ok(RatingSystem::Skemino { starting: 800.0 })
        );
        assert_eq!(
            RatingSystem::from_settings(&settings("fide")),
            Ok(RatingSystem::Fide { starting: 800.0 })
        );
        assert_eq!(
            RatingSystem::from_settings(&settings("glicko2")),
            Ok(RatingSystem::Glicko2 {
                starting: glicko2::Rating::new(800.0, 350.0, 0.06),
                tau: 0.5,
                rule: glicko2::GameRule::Glickman,
                period_micros: Some(7 * 86_400_000_000),
                bounds: glicko2::Bounds::default(),
            })
        );
    }

    #[test]
    fn one_rule_bounds_the_settings_of_rankings_and_ledgers() {
        let system = |s: SystemSettings<'_>| RatingSystem::from_settings(&s).unwrap();
        let rejected = |s: SystemSettings<'_>| {
            let e = system(s).validated().unwrap_err();
            assert_eq!(e.sqlstate(), "22023", "{e}");
            e.to_string()
        };
        for name in ["elo", "skemino", "fide", "glicko2"] {
            assert!(system(settings(name)).validated().is_ok(), "{name}");
        }
        // a ranking's K once allowed up to 99,999 is a ledger's K, at most 1000
        let too_large_k = rejected(SystemSettings {
            k_factor: 5000.0,
            ..settings("elo")
        });
        assert!(
            too_large_k.contains("k_factor must be in [0, 1000]"),
            "{too_large_k}"
        );
        assert!(system(SystemSettings {
            k_factor: 1000.0,
            ..settings("elo")
        })
        .validated()
        .is_ok());
        for (bad, why) in [
            (
                SystemSettings {
                    tau: 11.0,
                    ..settings("glicko2")
                },
                "tau",
            ),
            (
                SystemSettings {
                    starting_volatility: 1e-11,
                    ..settings("glicko2")
                },
                "starting_volatility",
            ),
            (
                SystemSettings {
                    starting_rd: 20_000.0,
                    ..settings("glicko2")
                },
                "starting_rd",
            ),
            (
                SystemSettings {
                    starting_rating: 3661.0,
                    ..settings("skemino")
                },
                "Skèmino",
            ),
            (
                SystemSettings {
                    starting_rating: 4001.0,
                    ..settings("fide")
                },
                "FIDE",
            ),
            (
                SystemSettings {
                    k_factor: f64::NAN,
                    ..settings("elo")
                },
                "k_factor",
            ),
        ] {
            let e = rejected(bad);
            assert!(e.contains(why), "{why}: {e}");
        }
    }

    #[test]
    fn an_unknown_rating_system_is_refused_not_rated_as_elo() {
        for name in ["trueskill", "Elo", "", "glicko"] {
            let e = RatingSystem::from_settings(&settings(name)).unwrap_err();
            assert!(e.contains(&format!("\"{name}\"")), "{e}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_chess_elo_matches_the_formula() {
        // Q = 10^(R/400); E = Q_self / (Q_self + Q_opp); new = R + K (S - E).
        let sys = RatingSystem::Elo {
            starting: 800.0,
            k: 40.0,
        };
        let a = PlayerState {
            rating: 900.0,
            ..sys.start()
        };
        let b = sys.start();
        let (w, l) = sys.rate(&a, &b, 1.0, 10).unwrap();
        let qa = 10f64.powf(900.0 / 400.0);
        let qb = 10f64.powf(800.0 / 400.0);
        let ea = qa / (qa + qb);
        assert!((w.rating - (900.0 + 40.0 * (1.0 - ea))).abs() < 1e-9);
        assert!((l.rating - (800.0 + 40.0 * (0.0 - (1.0 - ea)))).abs() < 1e-9);
        // The two changes balance.
        assert!(((w.rating - 900.0) + (l.rating - 800.0)).abs() < 1e-9);
        assert_eq!(w.last_played, Some(10));
    }

    #[test]
    fn equal_players_drawing_keep_their_ratings() {
        let sys = RatingSystem::Elo {
            starting: 800.0,
            k: 40.0,
        };
        let (w, b) = sys.rate(&sys.start(), &sys.start(), 0.5, 0).unwrap();
        assert_eq!((w.rating, b.rating), (800.0, 800.0));
    }

    #[test]
    fn states_are_rounded_to_the_stored_precision() {
        let sys = RatingSystem::Elo {
            starting: 800.0,
            k: 40.0,
        };
        let a = PlayerState {
            rating: 812.3456789012345,
            ..sys.start()
        };
        let (w, _) = sys.rate(&a, &sys.start(), 1.0, 0).unwrap();
        let text = format!("{:.10}", w.rating);
        assert_eq!(text.parse::<f64>().unwrap(), w.rating);
    }

    #[test]
    fn skemino_uses_the_seed_formula() {
        // Seed 004, example 1: 1613 beats 1609 → about 1621 and 1601.
        let sys = RatingSystem::Skemino { starting: 1000.0 };
        let a = PlayerState {
            rating: 1613.0,
            ..sys.start()
        };
        let b = PlayerState {
            rating: 1609.0,
            ..sys.start()
        };
        let (w, l) = sys.rate(&a, &b, 1.0, 0).unwrap();
        assert_eq!((w.rating.round(), l.rating.round()), (1621.0, 1601.0));
    }

    #[test]
    fn glicko2_rd_grows_with_inactivity_before_a_game() {
        let sys = RatingSystem::Glicko2 {
            starting: glicko2::Rating::DEFAULT,
            tau: 0.5,
            rule: glicko2::GameRule::Lichess,
            period_micros: Some(period_from_days(7.0)),
            bounds: glicko2::Bounds::default(),
        };
        let fresh = PlayerState {
            rating: 1500.0,
            rd: Some(60.0),
            volatility: Some(0.06),
            last_played: Some(0),
        };
        let idle = sys
            .rate(&fresh, &fresh, 0.5, period_from_days(7.0 * 52.0))
            .unwrap()
            .0;
        let busy = sys.rate(&fresh, &fresh, 0.5, 0).unwrap().0;
        assert!(idle.rd.unwrap() > busy.rd.unwrap());
        // A draw between equals leaves the rating in place and shrinks the RD.
        assert!((busy.rating - 1500.0).abs() < 1e-9);
        assert!(busy.rd.unwrap() < 60.0);
    }

    /// The RD's cap is the newcomer's RD the settings give, as in the ledgers: an idle player
    /// is never less known than a newcomer, and never better known for being idle.
    #[test]
    fn glicko2_rd_is_capped_at_the_starting_rd() {
        let settings = |starting_rd: f64| SystemSettings {
            rating_system: "glicko2",
            starting_rating: 1500.0,
            k_factor: 0.0,
            tau: 0.5,
            starting_rd,
            starting_volatility: 0.06,
            rating_period_micros: Some(period_from_days(7.0)),
            glicko2_rule: glicko2::GameRule::Lichess,
            min_rd: None,
            max_rd: None,
            max_volatility: None,
            volatility_epsilon: None,
            rd_growth: glicko2::RdGrowth::Elapsed,
        };
        let player = |rd: f64| PlayerState {
            rating: 1500.0,
            rd: Some(rd),
            volatility: Some(0.06),
            last_played: Some(0),
        };
        let years = period_from_days(7.0 * 520.0);
        // starting RD 500: an RD of 450 grows towards 500 (the default cap of 350 lowered it)
        let wide = RatingSystem::from_settings(&settings(500.0)).unwrap();
        let idle = wide.glicko_at(&player(450.0), years).unwrap().unwrap();
        assert!((idle.rd - 500.0).abs() < 1e-9, "{}", idle.rd);
        let first = wide.rate(&wide.start(), &wide.start(), 1.0, 0).unwrap().0;
        assert!(first.rd.unwrap() > 350.0, "{:?}", first.rd);
        // starting RD 200: an idle player's RD stops at 200
        let narrow = RatingSystem::from_settings(&settings(200.0)).unwrap();
        let idle = narrow.glicko_at(&player(150.0), years).unwrap().unwrap();
        assert!((idle.rd - 200.0).abs() < 1e-9, "{}", idle.rd);
    }

    #[test]
    fn glicko2_without_a_period_ignores_time() {
        let sys = RatingSystem::Glicko2 {
            starting: glicko2::Rating::DEFAULT,
            tau: 0.5,
            rule: glicko2::GameRule::Lichess,
            period_micros: None,
            bounds: glicko2::Bounds::default(),
        };
        let p = PlayerState {
            rating: 1500.0,
            rd: Some(80.0),
            volatility: Some(0.06),
            last_played: Some(0),
        };
        let soon = sys.rate(&p, &p, 1.0, 1).unwrap();
        let late = sys.rate(&p, &p, 1.0, i64::MAX / 2).unwrap();
        assert_eq!(soon.0.rating, late.0.rating);
    }

    #[test]
    fn extreme_ratings_and_timestamps() {
        // stored() used to turn ratings above ~1.8e298 into infinities (x · 10^10 overflowed)
        assert_eq!(stored(-1e300), -1e300);
        assert_eq!(stored(f64::MAX), f64::MAX);
        let sys = RatingSystem::Elo {
            starting: 800.0,
            k: 40.0,
        };
        let low = PlayerState {
            rating: -1e300,
            ..sys.start()
        };
        let (w, _) = sys.rate(&low, &sys.start(), 1.0, 0).unwrap();
        assert!(w.rating.is_finite());
        // played_at - last_played used to overflow i64 (a panic in debug builds)
        let sys = RatingSystem::Glicko2 {
            starting: glicko2::Rating::DEFAULT,
            tau: 0.5,
            rule: glicko2::GameRule::Lichess,
            period_micros: Some(1),
            bounds: glicko2::Bounds::default(),
        };
        let p = PlayerState {
            rating: 1500.0,
            rd: Some(60.0),
            volatility: Some(0.06),
            last_played: Some(i64::MIN),
        };
        let (w, _) = sys.rate(&p, &p, 0.5, i64::MAX).unwrap();
        assert!(w.rd.unwrap() > 60.0);
    }

    #[test]
    fn a_bad_parameter_is_an_error_not_a_nan() {
        let sys = RatingSystem::Elo {
            starting: 800.0,
            k: f64::NAN,
        };
        assert!(sys.rate(&sys.start(), &sys.start(), 1.0, 0).is_err());
        let sys = RatingSystem::Skemino { starting: 4000.0 };
        assert!(sys.rate(&sys.start(), &sys.start(), 1.0, 0).is_err());
    }
}
