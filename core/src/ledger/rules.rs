//! A ledger's rules: its rating system, limits on what a game may do to a rating, and when a
//! player counts as provisional. Settings are checked here, when a ledger is written, so that a
//! ledger can never reach a state in which a game cannot be rated.

use crate::ledger::multiplayer::MultiplayerRule;
use crate::ledger::standing::Standing;
use crate::rating::glicko2::{GameRule, RdGrowth, MIN_VOLATILITY};
use crate::rating::system::{PlayerState, RatingSystem, SystemSettings};
use crate::rating::RatingError;

/// What one game may do to a rating, beyond the rating system's own rule.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Limits {
    /// The largest change of a rating in one game (either way).
    pub max_change: Option<f64>,
    /// No rating goes below this.
    pub floor: Option<f64>,
    /// What a change above a bound does: clamped to it, or the game refused.
    pub policy: Policy,
    /// The largest sum of a player's rating changes (each counted positive) within one period.
    pub per_period: Option<PeriodCap>,
}

/// What a rating change above `max_change` or the period's cap does (`max_change_policy`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Policy {
    /// Cut to the bound (ledgers made before 0.13.0).
    #[default]
    Clamp,
    /// The game is an error (seed 000 §8.2: the change is "not allowed").
    Reject,
}

impl Policy {
    pub const NAMES: [&'static str; 2] = ["clamp", "reject"];

    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "clamp" => Some(Policy::Clamp),
            "reject" => Some(Policy::Reject),
            _ => None,
        }
    }
}

/// Seed 000 §8.2's cap per period: the absolute changes of a player's games within one period
/// add up to at most `max`. Periods are consecutive windows of `micros` counted from
/// [`PERIOD_ORIGIN`], Monday 2000-01-03 00:00 UTC: a day period is a UTC day, a week from Monday
/// (as `ledger_prediction_quality` bins its periods).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PeriodCap {
    pub max: f64,
    pub micros: i64,
}

/// Where the periods of a [`PeriodCap`] are counted from: Monday 2000-01-03 00:00 UTC, in
/// microseconds from PostgreSQL's epoch (2000-01-01, a Saturday).
pub const PERIOD_ORIGIN: i64 = 2 * 86_400_000_000;

impl PeriodCap {
    /// The number of the period a date (microseconds) falls in.
    pub fn period_of(&self, at: i64) -> i64 {
        at.saturating_sub(PERIOD_ORIGIN).div_euclid(self.micros)
    }

    /// When the period a date falls in starts (microseconds).
    pub fn start_of(&self, at: i64) -> i64 {
        self.period_of(at)
            .saturating_mul(self.micros)
            .saturating_add(PERIOD_ORIGIN)
    }
}

/// When a player's rating is provisional: fewer games than `games`, or an RD above `rd`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Provisional {
    pub games: i32,
    pub rd: Option<f64>,
}

/// A setting `ledger_what_if` replays with other values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    KFactor,
    Tau,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LedgerRules {
    pub system: RatingSystem,
    pub limits: Limits,
    pub provisional: Provisional,
}

use crate::rating::system::rd_in_range;
pub use crate::rating::system::{MAX_RD, MIN_RD};

/// The prefix of the names of ledgers whose history a client of pg_rating keeps in its own
/// tables (the Random Chess rankings: `random_chess ranking <id>`): no other ledger may take
/// such a name, or a client's next ledger would find it taken.
pub const RESERVED_PREFIX: &str = "random_chess ";

/// Whether a ledger name is reserved for ledgers that clients of pg_rating keep.
pub fn reserved_name(name: &str) -> bool {
    name.starts_with(RESERVED_PREFIX)
}

/// Checks an imported starting rating (a row of `ledger_seeds`) by the bounds of a ledger's own
/// start: a finite rating, an RD in [[`MIN_RD`], [`MAX_RD`]] and a volatility the Glicko-2 step
/// accepts.
pub fn check_seed(
    rating: f64,
    rd: Option<f64>,
    volatility: Option<f64>,
) -> Result<(), RatingError> {
    finite("a seed's rating", rating)?;
    if let Some(rd) = rd.filter(|rd| !rd_in_range(*rd)) {
        return Err(bad(format!(
            "a seed's rd must be in [{MIN_RD}, {MAX_RD}], got {rd:e}"
        )));
    }
    if let Some(v) = volatility.filter(|v| !(MIN_VOLATILITY..=10.0).contains(v)) {
        return Err(bad(format!(
            "a seed's volatility must be in [{MIN_VOLATILITY:e}, 10], got {v:e}"
        )));
    }
    Ok(())
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

/// A ledger's settings as SQL holds them (a `ledgers` row).
#[derive(Clone, Debug, PartialEq)]
pub struct LedgerSettings {
    pub rating_system: String,
    pub starting_rating: f64,
    pub k_factor: f64,
    pub starting_rd: f64,
    pub starting_volatility: f64,
    pub tau: f64,
    /// The rating period in microseconds (Glicko-2).
    pub rating_period: Option<i64>,
    pub max_change: Option<f64>,
    pub rating_floor: Option<f64>,
    pub provisional_games: i32,
    pub provisional_rd: Option<f64>,
    /// How a Glicko-2 game is rated: `glickman` or `lichess` ([`GameRule::NAMES`]).
    pub glicko2_rule: String,
    /// Glicko-2 bounds of every rating (`None`: 0, the starting RD, no bound).
    pub min_rd: Option<f64>,
    pub max_rd: Option<f64>,
    pub max_volatility: Option<f64>,
    /// Glicko-2 step 5.4's tolerance (`None`: Glickman's 1e-6; glicko2js: 1e-7).
    pub volatility_epsilon: Option<f64>,
    /// How inactivity grows a Glicko-2 RD: `elapsed`, `whole_periods` or
    /// `whole_periods_rating_scale` ([`RdGrowth::NAMES`]).
    pub rd_growth: String,
    /// `clamp` or `reject` ([`Policy::NAMES`]).
    pub max_change_policy: String,
    /// The cap of a player's total change per `change_period` (microseconds).
    pub max_period_change: Option<f64>,
    pub change_period: Option<i64>,
}

impl LedgerSettings {
    /// The rules these settings give, checked: an unknown rating system or settings under which
    /// a game could not be rated are errors (22023).
    pub fn rules(&self) -> Result<LedgerRules, RatingError> {
        let glicko2_rule = GameRule::from_name(&self.glicko2_rule).ok_or_else(|| {
            bad(format!(
                "unknown glicko2_rule \"{}\" (one of {})",
                self.glicko2_rule,
                GameRule::NAMES.join(", ")
            ))
        })?;
        let rd_growth = RdGrowth::from_name(&self.rd_growth).ok_or_else(|| {
            bad(format!(
                "unknown rd_growth \"{}\" (one of {})",
                self.rd_growth,
                RdGrowth::NAMES.join(", ")
            ))
        })?;
        let bounds = [
            ("min_rd", self.min_rd),
            ("max_rd", self.max_rd),
            ("max_volatility", self.max_volatility),
            ("volatility_epsilon", self.volatility_epsilon),
        ];
        if self.rating_system != "glicko2" {
            if let Some((name, _)) = bounds.iter().find(|(_, v)| v.is_some()) {
                return Err(bad(format!(
                    "{name} is a Glicko-2 setting: rating system {} has no RD or volatility (leave it NULL)",
                    self.rating_system
                )));
            }
        }
        for (name, v) in bounds {
            if let Some(v) = v {
                finite(name, v)?;
            }
        }
        let system = RatingSystem::from_settings(&SystemSettings {
            rating_system: &self.rating_system,
            starting_rating: self.starting_rating,
            k_factor: self.k_factor,
            tau: self.tau,
            starting_rd: self.starting_rd,
            starting_volatility: self.starting_volatility,
            rating_period_micros: self.rating_period,
            glicko2_rule,
            min_rd: self.min_rd,
            max_rd: self.max_rd,
            max_volatility: self.max_volatility,
            volatility_epsilon: self.volatility_epsilon,
            rd_growth,
        })
        .map_err(bad)?;
        let policy = Policy::from_name(&self.max_change_policy).ok_or_else(|| {
            bad(format!(
                "unknown max_change_policy \"{}\" (one of {})",
                self.max_change_policy,
                Policy::NAMES.join(", ")
            ))
        })?;
        let per_period = match (self.max_period_change, self.change_period) {
            (None, None) => None,
            (Some(max), Some(micros)) => Some(PeriodCap { max, micros }),
            (Some(_), None) => {
                return Err(bad(
                    "max_period_change needs a change_period (the period its cap applies to)"
                        .into(),
                ))
            }
            (None, Some(_)) => {
                return Err(bad(
                    "change_period is the period of max_period_change: set both or neither".into(),
                ))
            }
        };
        LedgerRules {
            system,
            limits: Limits {
                max_change: self.max_change,
                floor: self.rating_floor,
                policy,
                per_period,
            },
            provisional: Provisional {
                games: self.provisional_games,
                rd: self.provisional_rd,
            },
        }
        .validated()
    }
}

impl LedgerRules {
    /// Whether a ledger replayed by `new` instead of these rules has (nearly) every entry changed:
    /// its rating system or one of the system's parameters changed (a new K), so every rating
    /// moves after a player's first game. Its rebuild then writes every row anew with nothing
    /// compared; a change of a limit or of provisional status, which may bind no game, leaves the
    /// rows it does not bind as they were.
    pub fn rewrite_every_entry(&self, new: &LedgerRules) -> bool {
        self.system != new.system
    }

    /// Checks settings under which every game can be rated.
    pub fn validated(self) -> Result<Self, RatingError> {
        self.system.validated()?;
        if let Some(m) = self.limits.max_change {
            if !(m > 0.0 && m.is_finite()) {
                return Err(bad(format!("max_change must be positive, got {m}")));
            }
        }
        if let Some(cap) = self.limits.per_period {
            if !(cap.max > 0.0 && cap.max.is_finite()) {
                return Err(bad(format!(
                    "max_period_change must be positive, got {}",
                    cap.max
                )));
            }
            if cap.micros <= 0 {
                return Err(bad(
                    "change_period must be a positive fixed length (days and time, no months)"
                        .into(),
                ));
            }
        }
        if let Some(f) = self.limits.floor {
            finite("rating_floor", f)?;
            if f > self.system.start().rating {
                return Err(bad(format!(
                    "rating_floor {f} is above the starting rating {}",
                    self.system.start().rating
                )));
            }
        }
        if self.provisional.games < 0 {
            return Err(bad("provisional_games must not be negative".into()));
        }
        if let Some(rd) = self.provisional.rd {
            finite("provisional_rd", rd)?;
        }
        Ok(self)
    }

    /// Refuses a setting a replay would vary (`ledger_what_if`) when no value of it can change
    /// a rating or an expected score of this ledger: the answer would be the ledger's own
    /// numbers under another label. `multiplayer` is the rule of a participants table.
    pub fn check_variant(
        &self,
        setting: Variant,
        multiplayer: Option<MultiplayerRule>,
    ) -> Result<(), RatingError> {
        let system = match self.system {
            RatingSystem::Elo { .. } => "elo",
            RatingSystem::Fide { .. } => "fide",
            RatingSystem::Skemino { .. } => "skemino",
            RatingSystem::Glicko2 { .. } => "glicko2",
        };
        match (setting, self.system) {
            (Variant::KFactor, RatingSystem::Elo { .. }) => Ok(()),
            (Variant::KFactor, _) => Err(bad(format!(
                "rating system {system} has no K factor of its own (its rule sets K): k_factors cannot change its ratings"
            ))),
            (
                Variant::Tau,
                RatingSystem::Glicko2 {
                    rule, period_micros, ..
                },
            ) => {
                // τ shapes the new volatility, which moves ratings only through step 6: in a
                // game by Glickman's rule, in a multiplayer period, or in the RD's growth
                // between games
                if rule == GameRule::Glickman
                    || period_micros.is_some()
                    || multiplayer == Some(MultiplayerRule::Period)
                {
                    Ok(())
                } else {
                    Err(bad(
                        "the ledger rates Glicko-2 by the lichess rule without a rating_period: its volatility \
                         moves no rating, so taus cannot change its ratings (glicko2_rule = 'glickman' lets them)"
                            .into(),
                    ))
                }
            }
            (Variant::Tau, _) => Err(bad(format!(
                "rating system {system} has no volatility: taus cannot change its ratings"
            ))),
        }
    }

    /// What `player` has already moved within the period of a game at `at` (0 in a new period,
    /// or without a cap per period).
    pub fn period_used(&self, player: &Standing, at: i64) -> f64 {
        match (self.limits.per_period, player.state.last_played) {
            (Some(cap), Some(last)) if cap.period_of(last) == cap.period_of(at) => {
                player.period_moved
            }
            _ => 0.0,
        }
    }

    /// `after` with the limits applied to the move from `before`: the change per game
    /// (`max_change`), then what is left of the period's cap after `used`, then the floor. Under
    /// the `reject` policy a change above a bound is an error (23514) naming `player`.
    pub fn limit(
        &self,
        player: &str,
        before: &PlayerState,
        mut after: PlayerState,
        used: f64,
    ) -> Result<PlayerState, RatingError> {
        let reject = self.limits.policy == Policy::Reject;
        let change = after.rating - before.rating;
        if let Some(m) = self.limits.max_change {
            if reject && change.abs() > m {
                return Err(RatingError::rule_violation(format!(
                    "the rating change of player {player}, {change:+}, is above max_change {m} \
                     (max_change_policy reject)"
                )));
            }
            after.rating = after.rating.clamp(before.rating - m, before.rating + m);
        }
        if let Some(cap) = self.limits.per_period {
            let change = after.rating - before.rating;
            if reject && used + change.abs() > cap.max {
                return Err(RatingError::rule_violation(format!(
                    "the rating change of player {player}, {change:+}, would bring the player's \
                     total change within the period to {} ({used} before), above \
                     max_period_change {} (max_change_policy reject)",
                    used + change.abs(),
                    cap.max
                )));
            }
            let left = (cap.max - used).max(0.0);
            after.rating = after
                .rating
                .clamp(before.rating - left, before.rating + left);
        }
        if let Some(f) = self.limits.floor {
            after.rating = after.rating.max(f);
        }
        Ok(after)
    }

    /// `after` (the standing after a game that moved the player from `before`, `used` already
    /// moved in the period) keeping what the player has moved within the period.
    pub fn with_period_moved(&self, before: &Standing, used: f64, mut after: Standing) -> Standing {
        after.period_moved = if self.limits.per_period.is_some() {
            used + (after.state.rating - before.state.rating).abs()
        } else {
            0.0
        };
        after
    }

    pub fn is_provisional(&self, games: i32, rd: Option<f64>) -> bool {
        games < self.provisional.games
            || matches!((self.provisional.rd, rd), (Some(max), Some(rd)) if rd > max)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::rating::glicko2::{self, Bounds};

    fn elo(k: f64) -> LedgerRules {
        LedgerRules {
            system: RatingSystem::Elo {
                starting: 1500.0,
                k,
            },
            limits: Limits::default(),
            provisional: Provisional::default(),
        }
    }

    #[test]
    fn a_new_rating_system_or_parameter_rewrites_every_entry_and_a_new_limit_does_not() {
        assert!(!elo(20.0).rewrite_every_entry(&elo(20.0)));
        assert!(elo(20.0).rewrite_every_entry(&elo(24.0)));
        let fide = LedgerRules {
            system: RatingSystem::Fide { starting: 1500.0 },
            ..elo(20.0)
        };
        assert!(elo(20.0).rewrite_every_entry(&fide));
        let capped = LedgerRules {
            limits: Limits {
                max_change: Some(30.0),
                ..Limits::default()
            },
            ..elo(20.0)
        };
        assert!(!elo(20.0).rewrite_every_entry(&capped));
        let provisional = LedgerRules {
            provisional: Provisional { games: 5, rd: None },
            ..elo(20.0)
        };
        assert!(!elo(20.0).rewrite_every_entry(&provisional));
    }

    #[test]
    fn settings_that_could_not_rate_a_game_are_refused() {
        assert!(elo(20.0).validated().is_ok());
        assert!(elo(f64::NAN).validated().is_err());
        assert!(elo(-1.0).validated().is_err());
        let skemino = LedgerRules {
            system: RatingSystem::Skemino { starting: 4000.0 },
            ..elo(0.0)
        };
        assert!(skemino.validated().is_err());
        let glicko = |tau: f64, vol: f64| LedgerRules {
            system: RatingSystem::Glicko2 {
                starting: glicko2::Rating::new(1500.0, 350.0, vol),
                tau,
                rule: GameRule::Glickman,
                period_micros: None,
                bounds: Bounds::default(),
            },
            ..elo(0.0)
        };
        assert!(glicko(0.5, 0.06).validated().is_ok());
        assert!(glicko(1e50, 0.06).validated().is_err());
        assert!(glicko(0.5, 1e-12).validated().is_err());
        let floor_above_start = LedgerRules {
            limits: Limits {
                floor: Some(1600.0),
                ..Limits::default()
            },
            ..elo(20.0)
        };
        assert!(floor_above_start.validated().is_err());
    }

    #[test]
    fn settings_name_a_known_rating_system() {
        let settings = LedgerSettings {
            rating_system: "glicko2".into(),
            starting_rating: 1500.0,
            k_factor: 20.0,
            starting_rd: 300.0,
            starting_volatility: 0.06,
            tau: 0.5,
            rating_period: Some(7 * 86_400_000_000),
            max_change: None,
            rating_floor: None,
            provisional_games: 10,
            provisional_rd: Some(110.0),
            glicko2_rule: "glickman".into(),
            min_rd: None,
            max_rd: None,
            max_volatility: None,
            volatility_epsilon: None,
            rd_growth: "elapsed".into(),
            max_change_policy: "clamp".into(),
            max_period_change: None,
            change_period: None,
        };
        let rules = settings.rules().unwrap();
        assert_eq!(rules.system.start().rd, Some(300.0));
        assert!(rules.is_provisional(9, Some(100.0)) && rules.is_provisional(10, Some(120.0)));
        assert!(!rules.is_provisional(10, Some(100.0)));
        let unknown = LedgerSettings {
            rating_system: "trueskill".into(),
            ..settings
        };
        assert!(unknown
            .rules()
            .unwrap_err()
            .message
            .contains("unknown rating system \"trueskill\""));
    }

    pub(crate) fn glicko_settings() -> LedgerSettings {
        LedgerSettings {
            rating_system: "glicko2".into(),
            starting_rating: 1500.0,
            k_factor: 20.0,
            starting_rd: 350.0,
            starting_volatility: 0.06,
            tau: 0.5,
            rating_period: None,
            max_change: None,
            rating_floor: None,
            provisional_games: 0,
            provisional_rd: None,
            glicko2_rule: "glickman".into(),
            min_rd: None,
            max_rd: None,
            max_volatility: None,
            volatility_epsilon: None,
            rd_growth: "elapsed".into(),
            max_change_policy: "clamp".into(),
            max_period_change: None,
            change_period: None,
        }
    }

    #[test]
    fn glicko2_rule_and_bounds_are_settings() {
        let RatingSystem::Glicko2 { rule, bounds, .. } = glicko_settings().rules().unwrap().system
        else {
            panic!("not glicko2")
        };
        assert_eq!(rule, GameRule::Glickman);
        assert_eq!((bounds.rd_min, bounds.rd_max), (0.0, 350.0));
        assert_eq!(bounds.volatility_max, f64::INFINITY);
        // seed 000 §8.1: RD in [30, 350], volatility at most 0.1
        let bounded = LedgerSettings {
            glicko2_rule: "lichess".into(),
            min_rd: Some(30.0),
            max_rd: Some(350.0),
            max_volatility: Some(0.1),
            ..glicko_settings()
        };
        let RatingSystem::Glicko2 { rule, bounds, .. } = bounded.rules().unwrap().system else {
            panic!("not glicko2")
        };
        assert_eq!(rule, GameRule::Lichess);
        assert_eq!(
            (bounds.rd_min, bounds.rd_max, bounds.volatility_max),
            (30.0, 350.0, 0.1)
        );
        let refused = |s: LedgerSettings, says: &str| {
            let e = s.rules().unwrap_err();
            assert_eq!(e.kind, crate::rating::RatingErrorKind::InvalidParameter);
            assert!(e.message.contains(says), "{}", e.message);
        };
        refused(
            LedgerSettings {
                glicko2_rule: "glicko".into(),
                ..glicko_settings()
            },
            "unknown glicko2_rule \"glicko\"",
        );
        refused(
            LedgerSettings {
                min_rd: Some(400.0),
                ..glicko_settings()
            },
            "rd_max must be positive and ≥ rd_min",
        );
        refused(
            LedgerSettings {
                max_rd: Some(300.0),
                ..glicko_settings()
            },
            "starting_rd 350 must be within [min_rd, max_rd] = [0, 300]",
        );
        refused(
            LedgerSettings {
                max_volatility: Some(0.05),
                ..glicko_settings()
            },
            "max_volatility 0.05 is below starting_volatility 0.06",
        );
        refused(
            LedgerSettings {
                min_rd: Some(f64::NAN),
                ..glicko_settings()
            },
            "min_rd must be finite",
        );
        refused(
            LedgerSettings {
                rating_system: "elo".into(),
                max_volatility: Some(0.1),
                ..glicko_settings()
            },
            "max_volatility is a Glicko-2 setting",
        );
    }

    #[test]
    fn variants_that_cannot_change_a_rating_are_refused() {
        let rules = |s: LedgerSettings| s.rules().unwrap();
        let glickman = rules(glicko_settings());
        let lichess = rules(LedgerSettings {
            glicko2_rule: "lichess".into(),
            ..glicko_settings()
        });
        let lichess_period = rules(LedgerSettings {
            glicko2_rule: "lichess".into(),
            rating_period: Some(86_400_000_000),
            ..glicko_settings()
        });
        let of = |system: &str| {
            rules(LedgerSettings {
                rating_system: system.into(),
                ..glicko_settings()
            })
        };
        assert!(glickman.check_variant(Variant::Tau, None).is_ok());
        assert!(lichess_period.check_variant(Variant::Tau, None).is_ok());
        assert!(lichess
            .check_variant(Variant::Tau, Some(MultiplayerRule::Period))
            .is_ok());
        let e = lichess.check_variant(Variant::Tau, None).unwrap_err();
        assert!(e.message.contains("lichess rule"), "{}", e.message);
        assert!(lichess
            .check_variant(Variant::Tau, Some(MultiplayerRule::Pairwise))
            .is_err());
        assert!(of("elo").check_variant(Variant::KFactor, None).is_ok());
        assert!(of("elo").check_variant(Variant::Tau, None).is_err());
        for system in ["skemino", "fide", "glicko2"] {
            let e = of(system)
                .check_variant(Variant::KFactor, None)
                .unwrap_err();
            assert_eq!(e.kind, crate::rating::RatingErrorKind::InvalidParameter);
            assert!(e
                .message
                .contains(&format!("rating system {system} has no K factor")));
        }
        assert!(of("skemino").check_variant(Variant::Tau, None).is_err());
    }

    #[test]
    fn limits_cap_the_change_and_hold_the_floor() {
        let rules = LedgerRules {
            limits: Limits {
                max_change: Some(10.0),
                floor: Some(1495.0),
                ..Limits::default()
            },
            ..elo(64.0)
        };
        let before = rules.system.start();
        let up = PlayerState {
            rating: 1532.0,
            ..before
        };
        assert_eq!(rules.limit("a", &before, up, 0.0).unwrap().rating, 1510.0);
        let down = PlayerState {
            rating: 1468.0,
            ..before
        };
        assert_eq!(rules.limit("a", &before, down, 0.0).unwrap().rating, 1495.0);
    }

    #[test]
    fn policy_and_cap_per_period_are_checked_settings() {
        let elo = |policy: &str, cap: Option<f64>, period: Option<i64>| LedgerSettings {
            rating_system: "elo".into(),
            max_change: Some(100.0),
            max_change_policy: policy.into(),
            max_period_change: cap,
            change_period: period,
            ..glicko_settings()
        };
        let day = 86_400_000_000;
        let rules = elo("reject", Some(200.0), Some(day)).rules().unwrap();
        assert_eq!(rules.limits.policy, Policy::Reject);
        assert_eq!(
            rules.limits.per_period,
            Some(PeriodCap {
                max: 200.0,
                micros: day
            })
        );
        assert_eq!(
            elo("clamp", None, None).rules().unwrap().limits.policy,
            Policy::Clamp
        );
        for (s, says) in [
            (
                elo("refuse", None, None),
                "unknown max_change_policy \"refuse\"",
            ),
            (
                elo("clamp", Some(200.0), None),
                "max_period_change needs a change_period",
            ),
            (elo("clamp", None, Some(day)), "set both or neither"),
            (
                elo("clamp", Some(-1.0), Some(day)),
                "max_period_change must be positive",
            ),
            (
                elo("clamp", Some(f64::INFINITY), Some(day)),
                "max_period_change must be positive",
            ),
            (
                elo("clamp", Some(200.0), Some(0)),
                "change_period must be a positive fixed length",
            ),
        ] {
            let e = s.rules().unwrap_err();
            assert_eq!(e.kind, crate::rating::RatingErrorKind::InvalidParameter);
            assert!(e.message.contains(says), "{}", e.message);
        }
        // a day period is a UTC day, before the origin too; a week starts on Monday 2000-01-03
        let cap = PeriodCap {
            max: 1.0,
            micros: day,
        };
        let monday = PERIOD_ORIGIN;
        assert_eq!(
            (
                cap.period_of(monday),
                cap.period_of(monday + day - 1),
                cap.period_of(monday + day)
            ),
            (0, 0, 1)
        );
        assert_eq!(cap.period_of(monday - 1), -1);
        let week = PeriodCap {
            max: 1.0,
            micros: 7 * day,
        };
        // Sunday 2000-01-09 23:59 and Monday 2000-01-10 00:00 are in different weeks
        assert_eq!(week.period_of(monday + 7 * day - 1), 0);
        assert_eq!(week.period_of(monday + 7 * day), 1);
        assert_eq!(week.period_of(0), -1);
        assert_eq!(week.start_of(monday + 9 * day), monday + 7 * day);
        assert_eq!(week.start_of(0), monday - 7 * day);
    }

    #[test]
    fn seeds_have_the_bounds_of_a_start() {
        assert!(check_seed(2100.0, Some(120.0), Some(0.06)).is_ok());
        assert!(check_seed(2100.0, None, None).is_ok());
        assert!(check_seed(2100.0, Some(1e-300), None).is_err());
        assert!(check_seed(2100.0, Some(10_001.0), None).is_err());
        assert!(check_seed(f64::NAN, None, None).is_err());
        assert!(check_seed(2100.0, None, Some(0.0)).is_err());
    }

    #[test]
    fn client_ledger_names_are_reserved() {
        assert!(reserved_name("random_chess ranking 2"));
        assert!(!reserved_name("random chess club"));
    }
}
