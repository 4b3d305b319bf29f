//! Glicko-2 as in Mark Glickman, "Example of the Glicko-2 system" (glicko.net, revision of
//! 22 March 2022): rating periods (steps 1–8, Illinois iteration with ε = 1e-6 and "≤" in step
//! 5.4b), a per-game update by one of two [`GameRule`]s (Glickman's: the game is a whole
//! one-game period; lichess's: the same without the step-6 inflation, inactivity handled by
//! [`decay`]), multiplayer free-for-all, and guards.
//!
//! Guards. Inputs must be finite (else [`RatingErrorKind::OutOfRange`], SQLSTATE 22003); RD and
//! volatility must be positive, scores in [0, 1], τ positive ([`RatingErrorKind::InvalidParameter`],
//! 22023). Both iterations of step 5 are capped ([`MAX_ITERATIONS`]) and report
//! [`RatingErrorKind::NoConvergence`] instead of looping. [`Bounds`] clamp the result.
//!
//! [`RatingErrorKind::OutOfRange`]: super::error::RatingErrorKind::OutOfRange
//! [`RatingErrorKind::InvalidParameter`]: super::error::RatingErrorKind::InvalidParameter
//! [`RatingErrorKind::NoConvergence`]: super::error::RatingErrorKind::NoConvergence

use super::error::{finite, result_finite, score01, RatingError, Result};
use std::f64::consts::PI;

/// Glicko-2 scale factor: μ = (r − 1500) / 173.7178, φ = RD / 173.7178 (step 2).
pub const SCALE: f64 = 173.7178;
/// Centre of the Glicko scale.
pub const CENTER: f64 = 1500.0;
/// Convergence tolerance of step 5.4 (Glickman's example); [`Bounds::epsilon`] may choose another
/// (glicko2js, the library of seed 000, ends at 1e-7).
pub const EPSILON: f64 = 1e-6;
/// The range of [`Bounds::epsilon`]: below 1e-12 the iteration may not settle in f64, above 1e-2
/// the volatility is barely iterated.
pub const EPSILON_RANGE: (f64, f64) = (1e-12, 1e-2);
/// Cap of each loop in step 5 (the bracket search and the Illinois iteration).
pub const MAX_ITERATIONS: u32 = 1000;
/// Default system constant τ.
pub const DEFAULT_TAU: f64 = 0.5;
/// Default threshold of [`is_provisional`] (lichess's provisional RD).
pub const DEFAULT_PROVISIONAL_RD: f64 = 110.0;

/// A player's Glicko-2 state on the Glicko scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    pub rating: f64,
    pub rd: f64,
    pub volatility: f64,
}

impl Rating {
    pub const fn new(rating: f64, rd: f64, volatility: f64) -> Self {
        Self {
            rating,
            rd,
            volatility,
        }
    }

    /// An unrated player: 1500, RD 350, volatility 0.06.
    pub const DEFAULT: Rating = Rating::new(1500.0, 350.0, 0.06);

    /// Checks the invariants: finite numbers, RD > 0, volatility > 0. `who` names the value in
    /// the error message (formatted only when there is an error).
    #[inline]
    pub fn validate(&self, who: &str) -> Result<()> {
        if self.rating.is_finite() && self.rd.is_finite() && self.volatility.is_finite() {
            if self.rd > 0.0 && self.volatility > 0.0 {
                return Ok(());
            }
            if self.rd <= 0.0 {
                return Err(RatingError::invalid(format!(
                    "{who} rd must be positive, got {}",
                    self.rd
                )));
            }
            return Err(RatingError::invalid(format!(
                "{who} volatility must be positive, got {}",
                self.volatility
            )));
        }
        for (name, v) in [
            ("rating", self.rating),
            ("rd", self.rd),
            ("volatility", self.volatility),
        ] {
            finite(&format!("{who} {name}"), v)?;
        }
        Err(RatingError::out_of_range(format!("{who} must be finite")))
    }

    #[inline]
    fn mu(&self) -> f64 {
        (self.rating - CENTER) / SCALE
    }
    #[inline]
    fn phi(&self) -> f64 {
        self.rd / SCALE
    }
}

/// Optional limits applied to every result. Defaults: RD in [0, 350] (350 is Glickman's RD of
/// an unrated player, so inactivity never makes a player less known than a newcomer),
/// volatility and rating change unbounded. lichess (lila's `Glicko` object) keeps RD in
/// [45, 500] and volatility ≤ 0.1, and caps the change per game (`maxRatingDelta`). An infinite
/// bound means "no bound".
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounds {
    pub rd_min: f64,
    pub rd_max: f64,
    pub volatility_max: f64,
    /// Largest |new rating − old rating| of one update (a period, a game, a multiplayer game).
    pub max_change: f64,
    /// Step 5.4's tolerance: the Illinois iteration ends when |B − A| ≤ epsilon ([`EPSILON`] by
    /// default; within [`EPSILON_RANGE`]). Not a bound, but a setting carried with them to every
    /// update.
    pub epsilon: f64,
    /// How inactivity grows the RD ([`decay`]).
    pub rd_growth: RdGrowth,
}

impl Bounds {
    /// The bounds the SQL functions take (`rd_min`, `rd_max`, `volatility_max`,
    /// `max_change`), with the default tolerance and RD growth.
    pub fn limits(rd_min: f64, rd_max: f64, volatility_max: f64, max_change: f64) -> Self {
        Self {
            rd_min,
            rd_max,
            volatility_max,
            max_change,
            ..Self::default()
        }
    }

    /// The default bounds but for `rd_max` (`glicko2_decay`'s).
    pub fn with_rd_max(rd_max: f64) -> Self {
        Self {
            rd_max,
            ..Self::default()
        }
    }
}

impl Default for Bounds {
    fn default() -> Self {
        Self {
            rd_min: 0.0,
            rd_max: 350.0,
            volatility_max: f64::INFINITY,
            max_change: f64::INFINITY,
            epsilon: EPSILON,
            rd_growth: RdGrowth::Elapsed,
        }
    }
}

impl Bounds {
    /// No limits at all: the paper's algorithm, untouched.
    pub const NONE: Bounds = Bounds {
        rd_min: 0.0,
        rd_max: f64::INFINITY,
        volatility_max: f64::INFINITY,
        max_change: f64::INFINITY,
        epsilon: EPSILON,
        rd_growth: RdGrowth::Elapsed,
    };

    pub fn validate(&self) -> Result<()> {
        let nan = [
            self.rd_min,
            self.rd_max,
            self.volatility_max,
            self.max_change,
        ]
        .iter()
        .any(|v| v.is_nan());
        if nan {
            return Err(RatingError::out_of_range("bounds must not be NaN"));
        }
        if !self.rd_min.is_finite() || self.rd_min < 0.0 {
            return Err(RatingError::invalid(format!(
                "rd_min must be finite and ≥ 0, got {}",
                self.rd_min
            )));
        }
        if self.rd_max <= 0.0 || self.rd_max < self.rd_min {
            return Err(RatingError::invalid(format!(
                "rd_max must be positive and ≥ rd_min ({}), got {}",
                self.rd_min, self.rd_max
            )));
        }
        if self.volatility_max <= 0.0 {
            return Err(RatingError::invalid(format!(
                "volatility_max must be positive, got {}",
                self.volatility_max
            )));
        }
        if self.max_change <= 0.0 {
            return Err(RatingError::invalid(format!(
                "max_change must be positive, got {}",
                self.max_change
            )));
        }
        let (low, high) = EPSILON_RANGE;
        if !(low..=high).contains(&self.epsilon) {
            return Err(RatingError::invalid(format!(
                "volatility_epsilon (step 5's tolerance) must be in [{low:e}, {high:e}], got {:e}",
                self.epsilon
            )));
        }
        Ok(())
    }

    fn apply(&self, before: f64, r: Rating) -> Rating {
        let change = (r.rating - before).clamp(-self.max_change, self.max_change);
        Rating {
            rating: before + change,
            rd: r.rd.clamp(self.rd_min, self.rd_max),
            volatility: r.volatility.min(self.volatility_max),
        }
    }
}

/// Prefixes an error with the 1-based position of the offending array element.
fn at_index(mut e: RatingError, i: usize) -> RatingError {
    e.message = format!("element {}: {}", i + 1, e.message);
    e
}

fn check_tau(tau: f64) -> Result<()> {
    finite("tau", tau)?;
    if tau <= 0.0 {
        return Err(RatingError::invalid(format!(
            "tau must be positive, got {tau}"
        )));
    }
    Ok(())
}

/// g(φ) of step 3.
#[inline]
fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (PI * PI)).sqrt()
}

/// E(μ, μj, φj) of step 3, given g(φj).
#[inline]
fn e(mu: f64, mu_j: f64, g_j: f64) -> f64 {
    1.0 / (1.0 + (-g_j * (mu - mu_j)).exp())
}

/// Running sums of one player's rating period: Σ g²E(1−E) (= 1/v) and Σ g(s − E).
/// Lets a period be rated from a stream of games (the SQL aggregate) without arrays.
#[derive(Clone, Copy, Debug)]
pub struct Period {
    player: Rating,
    mu: f64,
    inv_v: f64,
    sum_gs: f64,
    games: u64,
}

impl Period {
    /// Starts a period for `player` (validated).
    pub fn new(player: Rating) -> Result<Self> {
        player.validate("player")?;
        Ok(Self::new_unchecked(player))
    }

    fn new_unchecked(player: Rating) -> Self {
        Self {
            player,
            mu: player.mu(),
            inv_v: 0.0,
            sum_gs: 0.0,
            games: 0,
        }
    }

    pub fn player(&self) -> Rating {
        self.player
    }

    pub fn games(&self) -> u64 {
        self.games
    }

    /// Adds one game against `opponent` in which the player scored `score` ∈ [0, 1].
    #[inline]
    pub fn add(&mut self, opponent: Rating, score: f64) -> Result<()> {
        opponent.validate("opponent")?;
        score01("score", score)?;
        self.add_unchecked(opponent, score);
        Ok(())
    }

    #[inline]
    fn add_unchecked(&mut self, opponent: Rating, score: f64) {
        let g_j = g(opponent.phi());
        let e_j = e(self.mu, opponent.mu(), g_j);
        self.inv_v += g_j * g_j * e_j * (1.0 - e_j);
        self.sum_gs += g_j * (score - e_j);
        self.games += 1;
    }

    /// Ends the period (steps 5–8) and applies `bounds`. With no games only the RD grows
    /// (step 6 alone: φ' = √(φ² + σ²)).
    pub fn finish(&self, tau: f64, bounds: &Bounds) -> Result<Rating> {
        check_tau(tau)?;
        bounds.validate()?;
        self.finish_unchecked(tau, bounds, 1.0)
    }

    /// `elapsed` is the number of periods whose σ'² is added in step 6: 1 for a rating period,
    /// 0 for a game rated on its own (the lichess way).
    fn finish_unchecked(&self, tau: f64, bounds: &Bounds, elapsed: f64) -> Result<Rating> {
        let p = self.player;
        let phi = p.phi();
        let sigma = p.volatility;
        if self.games == 0 {
            let rd = result_finite("new rd", inflate_rd(p.rd, sigma, 1.0))?;
            return Ok(bounds.apply(
                p.rating,
                Rating {
                    rating: p.rating,
                    rd,
                    volatility: sigma,
                },
            ));
        }
        if self.inv_v.is_nan() || self.inv_v <= 0.0 || !self.inv_v.is_finite() {
            return Err(RatingError::out_of_range(
                "the rating differences are too large for the games to carry any information",
            ));
        }
        let v = 1.0 / self.inv_v;
        let delta = v * self.sum_gs;
        let sigma_new = new_volatility(phi, sigma, v, delta, tau, bounds.epsilon)?;
        // A huge τ lets step 5 drive σ' towards 0 (τ = 1e150 gives 1e-150): a volatility that
        // small rounds to 0 where ratings are stored, and no later period could be rated.
        if sigma_new.is_nan() || sigma_new < MIN_VOLATILITY {
            return Err(RatingError::out_of_range(format!(
                "the new volatility {sigma_new:e} is below {MIN_VOLATILITY:e}: tau = {tau:e} is too large"
            )));
        }
        let phi_star = (phi * phi + elapsed * sigma_new * sigma_new).sqrt();
        let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + self.inv_v).sqrt();
        let mu_new = self.mu + phi_new * phi_new * self.sum_gs;
        let out = Rating {
            rating: result_finite("new rating", mu_new * SCALE + CENTER)?,
            rd: result_finite("new rd", phi_new * SCALE)?,
            volatility: result_finite("new volatility", sigma_new)?,
        };
        Ok(bounds.apply(p.rating, out))
    }
}

/// The smallest volatility a rating period may produce: 1e-10, the last of the ten decimals
/// ratings are stored with.
pub const MIN_VOLATILITY: f64 = 1e-10;

/// Step 6 on the Glicko scale: √(RD² + t·(σ·173.7178)²); exact for t = 0.
#[inline]
fn inflate_rd(rd: f64, sigma: f64, periods: f64) -> f64 {
    let s = sigma * SCALE;
    (rd * rd + periods * s * s).sqrt()
}

/// Step 5: the new volatility by the Illinois algorithm.
fn new_volatility(phi: f64, sigma: f64, v: f64, delta: f64, tau: f64, epsilon: f64) -> Result<f64> {
    let a = (sigma * sigma).ln();
    let d2 = delta * delta;
    let p2v = phi * phi + v;
    let tau2 = tau * tau;
    let f = |x: f64| -> f64 {
        let ex = x.exp();
        let den = p2v + ex;
        ex * (d2 - p2v - ex) / (2.0 * den * den) - (x - a) / tau2
    };
    // 5.2: initial bracket
    let mut big_a = a;
    let mut big_b;
    if d2 > p2v {
        big_b = (d2 - p2v).ln();
    } else {
        let mut k = 1.0;
        loop {
            big_b = a - k * tau;
            if f(big_b) >= 0.0 {
                break;
            }
            k += 1.0;
            if k > f64::from(MAX_ITERATIONS) {
                return Err(RatingError::no_convergence(
                    "Glicko-2 volatility: no bracket found within the iteration cap (step 5.2)",
                ));
            }
        }
    }
    // 5.3
    let mut f_a = f(big_a);
    let mut f_b = f(big_b);
    if !f_a.is_finite() || !f_b.is_finite() {
        return Err(RatingError::out_of_range(
            "Glicko-2 volatility iteration left the representable range",
        ));
    }
    // 5.4: Illinois iteration
    let mut iterations = 0;
    while (big_b - big_a).abs() > epsilon {
        iterations += 1;
        if iterations > MAX_ITERATIONS {
            return Err(RatingError::no_convergence(
                "Glicko-2 volatility did not converge within the iteration cap (step 5.4)",
            ));
        }
        let c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        let f_c = f(c);
        if !c.is_finite() || !f_c.is_finite() {
            return Err(RatingError::out_of_range(
                "Glicko-2 volatility iteration left the representable range",
            ));
        }
        // 5.4b, as revised in 2022: "≤"
        if f_c * f_b <= 0.0 {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = c;
        f_b = f_c;
    }
    Ok((big_a / 2.0).exp())
}

/// One rating period (Glickman's steps 1–8): `player` against `opponents` with `scores`.
/// With no games only the RD grows. Bounds are applied to the result.
pub fn update(
    player: Rating,
    opponents: &[Rating],
    scores: &[f64],
    tau: f64,
    bounds: &Bounds,
) -> Result<Rating> {
    if opponents.len() != scores.len() {
        return Err(RatingError::length_mismatch(
            "glicko2_update",
            opponents.len(),
            scores.len(),
        ));
    }
    check_tau(tau)?;
    bounds.validate()?;
    let mut period = Period::new(player)?;
    for (&o, &s) in opponents.iter().zip(scores) {
        period.add(o, s)?;
    }
    period.finish_unchecked(tau, bounds, 1.0)
}

/// How one game rated on its own is a rating period. Both rate each player from the other's
/// pre-game rating with steps 1–5, 7 and 8 of Glickman's algorithm; they differ in step 6.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameRule {
    /// Glickman's full one-game period: step 6 takes the new volatility, φ* = √(φ² + σ'²), so
    /// the RD levels off (near 60 for σ ≈ 0.06) however many games a player has. The rule of
    /// glicko2js, seed 000 (one period per match), seed 002 (`Glicko2Service`) and seed 003
    /// (§8.2 `update_ratings_2p`).
    Glickman,
    /// lichess (scalachess `skipDeviationIncrease`): step 6 is skipped, φ* = φ; time between
    /// games grows the RD separately ([`decay`]). Without that the RD keeps falling (35 after
    /// 100 games) and τ and the volatility change no rating.
    Lichess,
}

impl GameRule {
    /// The rules' names, as a ledger's `glicko2_rule` holds them.
    pub const NAMES: [&'static str; 2] = ["glickman", "lichess"];

    /// The rule a name names (`None` for any other text).
    pub fn from_name(name: &str) -> Option<GameRule> {
        match name {
            "glickman" => Some(GameRule::Glickman),
            "lichess" => Some(GameRule::Lichess),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            GameRule::Glickman => "glickman",
            GameRule::Lichess => "lichess",
        }
    }

    /// The periods of step 6's σ'² a game adds.
    fn elapsed(self) -> f64 {
        match self {
            GameRule::Glickman => 1.0,
            GameRule::Lichess => 0.0,
        }
    }
}

/// One game rated on its own, the lichess way ([`GameRule::Lichess`]). Returns (white, black).
pub fn game(
    white: Rating,
    black: Rating,
    white_score: f64,
    tau: f64,
    bounds: &Bounds,
) -> Result<(Rating, Rating)> {
    game_by(GameRule::Lichess, white, black, white_score, tau, bounds)
}

/// One game rated on its own by `rule`: each player is updated from the other's pre-game
/// rating as a one-game period. Returns (white, black).
pub fn game_by(
    rule: GameRule,
    white: Rating,
    black: Rating,
    white_score: f64,
    tau: f64,
    bounds: &Bounds,
) -> Result<(Rating, Rating)> {
    white.validate("white")?;
    black.validate("black")?;
    score01("white score", white_score)?;
    check_tau(tau)?;
    bounds.validate()?;
    let mut w = Period::new_unchecked(white);
    w.add_unchecked(black, white_score);
    let mut b = Period::new_unchecked(black);
    b.add_unchecked(white, 1.0 - white_score);
    Ok((
        w.finish_unchecked(tau, bounds, rule.elapsed())?,
        b.finish_unchecked(tau, bounds, rule.elapsed())?,
    ))
}

/// How inactivity grows the RD over `t` rating periods.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RdGrowth {
    /// Step 6 for the time elapsed: φ' = √(φ² + t·σ²) on the Glicko-2 scale, fractions of a period
    /// included (Glickman's rating periods read continuously, as lichess does).
    Elapsed,
    /// The same for whole periods only: t rounded down (a period is over or it is not).
    WholePeriods,
    /// RD' = √(RD² + n·σ²) with the RD in rating points and n whole periods: seed 003's
    /// `apply_rating_period_decay` (§11) as written, a weekly job over its 350-point scale.
    WholePeriodsRatingScale,
}

impl RdGrowth {
    /// The rules' names, as a ledger's `rd_growth` holds them.
    pub const NAMES: [&'static str; 3] = ["elapsed", "whole_periods", "whole_periods_rating_scale"];

    /// The rule a name names (`None` for any other text).
    pub fn from_name(name: &str) -> Option<RdGrowth> {
        match name {
            "elapsed" => Some(RdGrowth::Elapsed),
            "whole_periods" => Some(RdGrowth::WholePeriods),
            "whole_periods_rating_scale" => Some(RdGrowth::WholePeriodsRatingScale),
            _ => None,
        }
    }

    /// The RD after `periods` rating periods without games (not yet bounded).
    fn grown(self, rd: f64, sigma: f64, periods: f64) -> f64 {
        match self {
            RdGrowth::Elapsed => inflate_rd(rd, sigma, periods),
            RdGrowth::WholePeriods => inflate_rd(rd, sigma, periods.floor()),
            RdGrowth::WholePeriodsRatingScale => (rd * rd + periods.floor() * sigma * sigma).sqrt(),
        }
    }
}

/// Inactivity: the RD grown by `periods` = t ≥ 0 rating periods as `bounds.rd_growth` says
/// (by default φ' = √(φ² + t·σ²), fractional t allowed), capped by `bounds.rd_max` (and floored
/// by `rd_min`). Rating and volatility are unchanged.
pub fn decay(player: Rating, periods: f64, bounds: &Bounds) -> Result<Rating> {
    player.validate("player")?;
    finite("periods", periods)?;
    if periods < 0.0 {
        return Err(RatingError::invalid(format!(
            "periods must not be negative, got {periods}"
        )));
    }
    bounds.validate()?;
    let grown = bounds
        .rd_growth
        .grown(player.rd, player.volatility, periods);
    let rd = result_finite("new rd", grown)?;
    Ok(Rating {
        rating: player.rating,
        rd: rd.clamp(bounds.rd_min, bounds.rd_max),
        volatility: player.volatility,
    })
}

/// A stored RD as readers show it `elapsed_micros` after the player's last game: grown over
/// elapsed / period rating periods as [`decay`] grows it (the writer's own rule for the next game);
/// the RD as stored when no time has passed.
pub fn rd_after(
    rd: f64,
    volatility: f64,
    elapsed_micros: i64,
    period_micros: i64,
    bounds: &Bounds,
) -> Result<f64> {
    if elapsed_micros <= 0 || period_micros <= 0 {
        return Ok(rd);
    }
    let player = Rating::new(CENTER, rd, volatility);
    decay(player, elapsed_micros as f64 / period_micros as f64, bounds).map(|r| r.rd)
}

/// Predictive probability that `player` beats `opponent`, accounting for both RDs
/// (Glickman's E with g(√(φ² + φj²))); `expected(a, b) + expected(b, a) = 1`.
pub fn expected(player: Rating, opponent: Rating) -> Result<f64> {
    player.validate("player")?;
    opponent.validate("opponent")?;
    let (p1, p2) = (player.phi(), opponent.phi());
    Ok(e(player.mu(), opponent.mu(), g((p1 * p1 + p2 * p2).sqrt())))
}

/// Multiplayer free-for-all (seed 003): each player is rated in one period against every
/// other player's pre-game rating; a better (lower) placement is a win (1), an equal one a
/// draw (½), a worse one a loss (0). Returns the players in input order.
///
/// RD shrinks fast: an n-player game counts as n − 1 games for everyone, as if each pairwise
/// result were independent evidence, although all of them come from one performance. A new
/// player (350) in one 8-player game drops to about the RD after 7 two-player games.
pub fn multiplayer(
    players: &[Rating],
    placements: &[f64],
    tau: f64,
    bounds: &Bounds,
) -> Result<Vec<Rating>> {
    if players.len() != placements.len() {
        return Err(RatingError::length_mismatch(
            "glicko2_multiplayer",
            players.len(),
            placements.len(),
        ));
    }
    check_tau(tau)?;
    bounds.validate()?;
    for (i, p) in players.iter().enumerate() {
        p.validate("player").map_err(|e| at_index(e, i))?;
    }
    for &pl in placements {
        finite("placement", pl)?;
    }
    let mut out = Vec::with_capacity(players.len());
    for (i, &p) in players.iter().enumerate() {
        let mut period = Period::new_unchecked(p);
        for (j, &o) in players.iter().enumerate() {
            if i != j {
                let s = if placements[i] < placements[j] {
                    1.0
                } else if placements[i] == placements[j] {
                    0.5
                } else {
                    0.0
                };
                period.add_unchecked(o, s);
            }
        }
        out.push(period.finish_unchecked(tau, bounds, 1.0)?);
    }
    Ok(out)
}

/// A whole rating period for many players at once: `players` are the ratings at the start of
/// the period; game `i` was played between `players[white[i]]` and `players[black[i]]`, white
/// scoring `white_scores[i]`. Every player is rated from the pre-period ratings of their
/// opponents (Glickman's "games are treated as simultaneous"); players without games only get
/// the step-6 RD growth. One pass over the games, O(players + games), no sorting.
pub fn rate_period(
    players: &[Rating],
    white: &[usize],
    black: &[usize],
    white_scores: &[f64],
    tau: f64,
    bounds: &Bounds,
) -> Result<Vec<Rating>> {
    if white.len() != black.len() {
        return Err(RatingError::length_mismatch(
            "glicko2_rate_period",
            white.len(),
            black.len(),
        ));
    }
    if white.len() != white_scores.len() {
        return Err(RatingError::length_mismatch(
            "glicko2_rate_period",
            white.len(),
            white_scores.len(),
        ));
    }
    check_tau(tau)?;
    bounds.validate()?;
    let mut periods = Vec::with_capacity(players.len());
    for (i, p) in players.iter().enumerate() {
        p.validate("player").map_err(|e| at_index(e, i))?;
        periods.push(Period::new_unchecked(*p));
    }
    for (i, ((&w, &b), &s)) in white.iter().zip(black).zip(white_scores).enumerate() {
        if w >= players.len() || b >= players.len() {
            return Err(RatingError::invalid(format!(
                "game {}: player index out of range",
                i + 1
            )));
        }
        if w == b {
            return Err(RatingError::invalid(format!(
                "game {}: a player cannot play themselves",
                i + 1
            )));
        }
        score01("score", s)?;
        let (pw, pb) = (players[w], players[b]);
        periods[w].add_unchecked(pb, s);
        periods[b].add_unchecked(pw, 1.0 - s);
    }
    periods
        .iter()
        .map(|p| p.finish_unchecked(tau, bounds, 1.0))
        .collect()
}

/// Conservative rating: rating − k·RD (seed 003 uses k = 2, "μ − 2φ").
pub fn conservative(player: Rating, k: f64) -> Result<f64> {
    player.validate("player")?;
    finite("k", k)?;
    result_finite("conservative rating", player.rating - k * player.rd)
}

/// Provisional while the RD is above `threshold` (seed 003: 150; lichess marks a rating
/// provisional at RD ≥ 110, scalachess `provisionalDeviation`).
pub fn is_provisional(player: Rating, threshold: f64) -> Result<bool> {
    player.validate("player")?;
    finite("threshold", threshold)?;
    Ok(player.rd > threshold)
}

/// One player's rating period as the `glicko2_period(player, opponent, score[, tau])` aggregate
/// runs it, row by row: every row of a group names the same player and the same τ (22023
/// otherwise); the period ends with the default bounds (RD ≤ 350).
#[derive(Clone, Copy, Debug)]
pub struct PeriodRun {
    period: Period,
    tau: f64,
}

impl PeriodRun {
    /// The period of the group's first row.
    pub fn new(player: Rating, opponent: Rating, score: f64, tau: f64) -> Result<Self> {
        let mut period = Period::new(player)?;
        period.add(opponent, score)?;
        Ok(PeriodRun { period, tau })
    }

    /// Adds a later row of the group.
    pub fn add(&mut self, player: Rating, opponent: Rating, score: f64, tau: f64) -> Result<()> {
        if self.period.player() != player {
            return Err(RatingError::invalid(
                "glicko2_period: the player's rating must be the same in every row of a group (GROUP BY the player)",
            ));
        }
        if self.tau != tau {
            return Err(RatingError::invalid(
                "glicko2_period: tau must be the same in every row of a group",
            ));
        }
        self.period.add(opponent, score)
    }

    /// The player's rating after the period.
    pub fn finish(&self) -> Result<Rating> {
        self.period.finish(self.tau, &Bounds::default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rating::error::RatingErrorKind;

    fn assert_close(got: f64, want: f64, eps: f64, what: &str) {
        assert!(
            (got - want).abs() <= eps,
            "{what}: got {got}, want {want} ± {eps}"
        );
    }

    /// Glickman, "Example of the Glicko-2 system" (glicko.net/glicko/glicko2.pdf), section
    /// "Example calculation": 1500/200/0.06, τ = 0.5, beats 1400/30, loses to 1550/100 and
    /// 1700/300 → r' = 1464.06 (paper rounds to 1464.06; full precision 1464.0507),
    /// RD' = 151.52 (151.5165), σ' = 0.05999 (0.0599960).
    #[test]
    fn glickman_example() {
        let player = Rating::new(1500.0, 200.0, 0.06);
        let opps = [
            Rating::new(1400.0, 30.0, 0.06),
            Rating::new(1550.0, 100.0, 0.06),
            Rating::new(1700.0, 300.0, 0.06),
        ];
        let r = update(player, &opps, &[1.0, 0.0, 0.0], 0.5, &Bounds::NONE).unwrap();
        assert_close(r.rating, 1464.0507, 5e-5, "rating");
        assert_close(r.rd, 151.5165, 5e-5, "rd");
        assert_close(r.volatility, 0.0599960, 5e-8, "volatility");
        assert_eq!((r.rating * 100.0).round() / 100.0, 1464.05);
        // default bounds (RD ≤ 350) do not touch it
        assert_eq!(
            update(player, &opps, &[1.0, 0.0, 0.0], 0.5, &Bounds::default()).unwrap(),
            r
        );
        // the same period streamed through Period gives the same bits
        let mut p = Period::new(player).unwrap();
        for (o, s) in opps.iter().zip([1.0, 0.0, 0.0]) {
            p.add(*o, s).unwrap();
        }
        assert_eq!(p.finish(0.5, &Bounds::NONE).unwrap(), r);
    }

    /// Same paper, intermediate quantities of steps 3–5: v = 1.7785, Δ = −0.4834, σ' = 0.05999.
    #[test]
    fn glickman_example_intermediates() {
        let mu = 0.0;
        let opps = [
            (-0.5756, 0.1727, 1.0),
            (0.2878, 0.5756, 0.0),
            (1.1513, 1.7269, 0.0),
        ];
        let mut inv_v = 0.0;
        let mut sum = 0.0;
        for (m, p, s) in opps {
            let gj = g(p);
            let ej = e(mu, m, gj);
            inv_v += gj * gj * ej * (1.0 - ej);
            sum += gj * (s - ej);
        }
        let v = 1.0 / inv_v;
        // the paper computes from 4-digit intermediates, hence 1e-3
        assert_close(v, 1.7785, 1e-3, "v");
        assert_close(v * sum, -0.4834, 1e-3, "delta");
        assert_close(g(0.1727), 0.9955, 1e-4, "g1");
        assert_close(g(1.7269), 0.7242, 1e-4, "g3");
    }

    /// Paper: a player who does not compete keeps rating and volatility, RD grows by step 6:
    /// √(200² + (0.06·173.7178)²) = 200.2714.
    #[test]
    fn no_games_only_rd_grows() {
        let player = Rating::new(1500.0, 200.0, 0.06);
        let r = update(player, &[], &[], 0.5, &Bounds::NONE).unwrap();
        assert_eq!(r.rating, 1500.0);
        assert_eq!(r.volatility, 0.06);
        assert_close(r.rd, 200.2714, 5e-5, "rd");
        // one period of decay is the same thing
        assert_close(
            decay(player, 1.0, &Bounds::NONE).unwrap().rd,
            r.rd,
            1e-9,
            "decay",
        );
        // default bounds: a newcomer's RD stays at 350
        let new = update(Rating::DEFAULT, &[], &[], 0.5, &Bounds::default()).unwrap();
        assert_eq!(new.rd, 350.0);
        // an RD growth past f64::MAX is an error; it used to be returned as RD = inf
        let huge = Rating::new(1500.0, 1e200, 1e300);
        let e = update(huge, &[], &[], 0.5, &Bounds::NONE).unwrap_err();
        assert_eq!(e.kind, RatingErrorKind::OutOfRange);
        let e = multiplayer(&[huge], &[1.0], 0.5, &Bounds::NONE).unwrap_err();
        assert_eq!(e.kind, RatingErrorKind::OutOfRange);
    }

    /// Glickman's rule of one game is his algorithm with a one-game period: the same bits as
    /// [`update`] with one opponent, for each player; the lichess rule differs only by step 6.
    #[test]
    fn glickman_rule_is_a_one_game_period() {
        let a = Rating::new(1500.0, 200.0, 0.06);
        let b = Rating::new(1400.0, 30.0, 0.06);
        let (w, l) = game_by(GameRule::Glickman, a, b, 1.0, 0.5, &Bounds::NONE).unwrap();
        assert_eq!(w, update(a, &[b], &[1.0], 0.5, &Bounds::NONE).unwrap());
        assert_eq!(l, update(b, &[a], &[0.0], 0.5, &Bounds::NONE).unwrap());
        // by hand from the paper's formulas: φ* = √(φ² + σ'²), φ' = 1/√(1/φ*² + 1/v)
        let (mu, phi, mu_j, phi_j) = (0.0, 200.0 / SCALE, -100.0 / SCALE, 30.0 / SCALE);
        let gj = 1.0 / (1.0 + 3.0 * phi_j * phi_j / (PI * PI)).sqrt();
        let ej = 1.0 / (1.0 + (-gj * (mu - mu_j)).exp());
        let v = 1.0 / (gj * gj * ej * (1.0 - ej));
        let phi_star = (phi * phi + w.volatility * w.volatility).sqrt();
        let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        assert_close(w.rd, phi_new * SCALE, 1e-9, "rd");
        assert_close(
            w.rating,
            CENTER + SCALE * (mu + phi_new * phi_new * gj * (1.0 - ej)),
            1e-9,
            "rating",
        );
        // lichess: φ* = φ, a smaller RD and a smaller move
        let (lw, _) = game(a, b, 1.0, 0.5, &Bounds::NONE).unwrap();
        assert!(lw.rd < w.rd && lw.rating < w.rating);
        assert_eq!(lw.volatility, w.volatility);
        assert_eq!(GameRule::from_name("glickman"), Some(GameRule::Glickman));
        assert_eq!(
            GameRule::from_name(GameRule::Lichess.name()),
            Some(GameRule::Lichess)
        );
        assert_eq!(GameRule::from_name("Glickman"), None);
    }

    /// Under Glickman's rule the RD of a player who keeps playing levels off (near 60 with
    /// σ = 0.06 against equals), τ and the volatility count; under lichess's it keeps falling.
    #[test]
    fn step_5_tolerance_is_a_setting() {
        // 1300/50 loses to 1300/250: the iteration ends within 1e-6 one step before 1e-7
        // (glicko2js's), which leaves σ' 2.68e-8 higher and the rating 2.13e-7 lower (an
        // independent replay of the steps in Python gives the same)
        let (p, o) = (
            Rating::new(1300.0, 50.0, 0.06),
            Rating::new(1300.0, 250.0, 0.06),
        );
        let with = |epsilon| {
            let b = Bounds {
                rd_max: 350.0,
                epsilon,
                ..Bounds::default()
            };
            game_by(GameRule::Glickman, p, o, 0.0, 0.5, &b).unwrap().0
        };
        let (coarse, fine) = (with(EPSILON), with(1e-7));
        assert_close(
            coarse.volatility - fine.volatility,
            2.68e-8,
            1e-10,
            "volatility",
        );
        assert_close(coarse.rating - fine.rating, -2.13e-7, 1e-9, "rating");
        assert!(Bounds {
            epsilon: 0.0,
            ..Bounds::default()
        }
        .validate()
        .is_err());
        assert!(Bounds {
            epsilon: f64::NAN,
            ..Bounds::default()
        }
        .validate()
        .is_err());
    }

    #[test]
    fn rd_growth_rules() {
        let p = Rating::new(1500.0, 60.0, 0.06);
        let by = |rd_growth, periods| {
            decay(
                p,
                periods,
                &Bounds {
                    rd_growth,
                    ..Bounds::default()
                },
            )
            .unwrap()
            .rd
        };
        // step 6 for 2.5 periods: √(60² + 2.5·(0.06·173.7178)²)
        let elapsed = (3600.0 + 2.5 * (0.06_f64 * SCALE).powi(2)).sqrt();
        assert_close(by(RdGrowth::Elapsed, 2.5), elapsed, 1e-12, "elapsed");
        let whole = (3600.0 + 2.0 * (0.06_f64 * SCALE).powi(2)).sqrt();
        assert_close(
            by(RdGrowth::WholePeriods, 2.5),
            whole,
            1e-12,
            "whole periods",
        );
        assert_eq!(by(RdGrowth::WholePeriods, 0.99), 60.0);
        // seed 003 §11 as written: √(60² + 2·0.06²) on the rating scale, some 6e-5 points
        let rating_scale = (3600.0 + 2.0 * 0.0036_f64).sqrt();
        assert_close(
            by(RdGrowth::WholePeriodsRatingScale, 2.5),
            rating_scale,
            1e-12,
            "rating scale",
        );
        assert!(rating_scale - 60.0 < 1e-4);
        // and the cap of every rule
        assert_eq!(by(RdGrowth::WholePeriods, 1e6), 350.0);
        for name in RdGrowth::NAMES {
            assert!(RdGrowth::from_name(name).is_some());
        }
        assert_eq!(RdGrowth::from_name("weekly"), None);
    }

    #[test]
    fn glickman_rule_levels_the_rd_off() {
        let run = |rule: GameRule, tau: f64, vol: f64, games: usize| {
            let mut p = Rating::new(1500.0, 350.0, vol);
            for i in 0..games {
                let o = Rating::new(1500.0, 60.0, 0.06);
                p = game_by(rule, p, o, (i % 2) as f64, tau, &Bounds::default())
                    .unwrap()
                    .0;
            }
            p
        };
        let g100 = run(GameRule::Glickman, 0.5, 0.06, 100);
        let g300 = run(GameRule::Glickman, 0.5, 0.06, 300);
        assert!((50.0..70.0).contains(&g100.rd), "{}", g100.rd);
        assert!((g100.rd - g300.rd).abs() < 2.0, "{} {}", g100.rd, g300.rd);
        let l100 = run(GameRule::Lichess, 0.5, 0.06, 100);
        let l300 = run(GameRule::Lichess, 0.5, 0.06, 300);
        assert!(l100.rd < 40.0 && l300.rd < 25.0, "{} {}", l100.rd, l300.rd);
        // τ and the starting volatility move ratings under Glickman's rule only
        assert_ne!(
            run(GameRule::Glickman, 1.2, 0.06, 20),
            run(GameRule::Glickman, 0.3, 0.06, 20)
        );
        assert_ne!(
            run(GameRule::Glickman, 0.5, 0.09, 20).rating,
            run(GameRule::Glickman, 0.5, 0.06, 20).rating
        );
        let (a, b) = (
            run(GameRule::Lichess, 1.2, 0.06, 20),
            run(GameRule::Lichess, 0.3, 0.06, 20),
        );
        assert_eq!((a.rating, a.rd), (b.rating, b.rd));
        // bounds hold in the rule: RD within [30, 350], volatility at most 0.1 (seed 000 §8.1)
        let bounds = Bounds {
            rd_min: 30.0,
            rd_max: 350.0,
            volatility_max: 0.1,
            ..Bounds::default()
        };
        let mut p = Rating::new(1500.0, 350.0, 0.06);
        for i in 0..400 {
            let o = Rating::new(1500.0 + (i % 7) as f64 * 50.0, 40.0, 0.06);
            p = game_by(
                GameRule::Glickman,
                p,
                o,
                ((i * 7) % 3) as f64 / 2.0,
                2.0,
                &bounds,
            )
            .unwrap()
            .0;
            assert!(
                (30.0..=350.0).contains(&p.rd) && p.volatility <= 0.1,
                "{p:?}"
            );
        }
    }

    fn lichess_game(w: Rating, b: Rating, s: f64) -> (Rating, Rating) {
        game(w, b, s, 0.75, &Bounds::NONE).unwrap()
    }

    /// lichess scalachess GlickoCalculatorTest (skipDeviationIncrease = true, τ = 0.75 =
    /// scalachess Tau.default): ratings ±0.005, RD ±0.00005, volatility ±1e-7.
    #[test]
    fn scalachess_default_players() {
        let p = Rating::new(1500.0, 350.0, 0.06);
        let (w, b) = lichess_game(p, p, 1.0);
        assert_close(w.rating, 1662.21, 0.005, "white wins: w");
        assert_close(b.rating, 1337.79, 0.005, "white wins: b");
        assert_close(w.rd, 290.2305, 0.00005, "rd");
        assert_eq!(w.rd, b.rd);
        assert_close(w.volatility, 0.0599993, 1e-7, "vol");
        let (w, b) = lichess_game(p, p, 0.0);
        assert_close(w.rating, 1337.79, 0.005, "black wins: w");
        assert_close(b.rating, 1662.21, 0.005, "black wins: b");
        let (w, b) = lichess_game(p, p, 0.5);
        assert_close(w.rating, 1500.0, 0.005, "draw");
        assert_close(b.rating, 1500.0, 0.005, "draw");
        assert_close(w.rd, 290.2305, 0.00005, "draw rd");
        assert_close(w.volatility, 0.0599977, 1e-7, "draw vol");
    }

    #[test]
    fn scalachess_mixed_players() {
        let w0 = Rating::new(1400.0, 79.0, 0.06);
        let b0 = Rating::new(1550.0, 110.0, 0.065);
        for (s, wr, br) in [
            (1.0, 1422.63, 1506.32),
            (0.0, 1389.99, 1568.90),
            (0.5, 1406.31, 1537.61),
        ] {
            let (w, b) = lichess_game(w0, b0, s);
            assert_close(w.rating, wr, 0.005, "w rating");
            assert_close(b.rating, br, 0.005, "b rating");
            assert_close(w.rd, 77.4956, 0.00005, "w rd");
            assert_close(b.rd, 105.8706, 0.00005, "b rd");
            assert_close(w.volatility, 0.06, 1e-5, "w vol");
            assert_close(b.volatility, 0.065, 1e-5, "b vol");
        }
        let w0 = Rating::new(1200.0, 60.0, 0.053);
        let b0 = Rating::new(1850.0, 200.0, 0.062);
        for (s, wr, br, wv, bv) in [
            (1.0, 1216.73, 1635.99, 0.053013, 0.062028),
            (0.0, 1199.29, 1855.42, 0.052999, 0.061999),
            (0.5, 1208.01, 1745.71, 0.053002, 0.062006),
        ] {
            let (w, b) = lichess_game(w0, b0, s);
            assert_close(w.rating, wr, 0.005, "w rating");
            assert_close(b.rating, br, 0.005, "b rating");
            assert_close(w.rd, 59.9006, 0.00005, "w rd");
            assert_close(b.rd, 196.9873, 0.00005, "b rd");
            assert_close(w.volatility, wv, 1e-6, "w vol");
            assert_close(b.volatility, bv, 1e-6, "b vol");
        }
    }

    /// scalachess RatingCalculatorTest "default deviation" (1500/500/0.09, τ 0.75): ±1 point,
    /// volatility 0.0899983 (win) / 0.0899954 (draw).
    #[test]
    fn scalachess_wide_deviation() {
        let p = Rating::new(1500.0, 500.0, 0.09);
        let (w, b) = lichess_game(p, p, 1.0);
        assert_close(w.rating, 1741.0, 1.0, "w");
        assert_close(b.rating, 1258.0, 1.0, "b");
        assert_close(w.rd, 396.0, 1.0, "rd");
        assert_close(w.volatility, 0.0899983, 1e-7, "vol");
        let (w, _) = lichess_game(p, p, 0.5);
        assert_close(w.volatility, 0.0899954, 1e-7, "draw vol");
        // with the default bounds the starting RD of 500 would be capped at 350
        let (w, _) = game(p, p, 1.0, 0.75, &Bounds::default()).unwrap();
        assert!(w.rd <= 350.0);
    }

    #[test]
    fn decay_fractional_and_capped() {
        let p = Rating::new(1700.0, 60.0, 0.06);
        let half = decay(p, 0.5, &Bounds::NONE).unwrap();
        let want = ((60.0f64 / SCALE).powi(2) + 0.5 * 0.06 * 0.06).sqrt() * SCALE;
        assert_close(half.rd, want, 1e-9, "half period");
        assert_eq!(half.rating, 1700.0);
        assert_eq!(decay(p, 0.0, &Bounds::NONE).unwrap(), p);
        let long = decay(p, 1e6, &Bounds::default()).unwrap();
        assert_eq!(long.rd, 350.0);
        assert_eq!(
            decay(p, -1.0, &Bounds::NONE).unwrap_err().kind,
            RatingErrorKind::InvalidParameter
        );
        assert_eq!(
            decay(p, f64::NAN, &Bounds::NONE).unwrap_err().kind,
            RatingErrorKind::OutOfRange
        );
    }

    #[test]
    fn expected_is_symmetric() {
        let a = Rating::new(1700.0, 80.0, 0.06);
        let b = Rating::new(1500.0, 200.0, 0.06);
        let ab = expected(a, b).unwrap();
        let ba = expected(b, a).unwrap();
        assert_close(ab + ba, 1.0, 1e-15, "sum");
        assert!(ab > 0.5);
        // Glickman's Glicko paper example (1400/80 vs 1500/150 → 0.376), the same formula.
        let x = expected(
            Rating::new(1400.0, 80.0, 0.06),
            Rating::new(1500.0, 150.0, 0.06),
        )
        .unwrap();
        assert_close(x, 0.376, 5e-4, "glicko example");
        // with tiny RDs it is Elo
        let tiny = expected(
            Rating::new(1900.0, 1e-9, 0.06),
            Rating::new(1500.0, 1e-9, 0.06),
        )
        .unwrap();
        // (173.7178 is 400/ln 10 rounded to 7 digits, hence the 1e-7)
        assert_close(tiny, 10.0 / 11.0, 1e-7, "elo limit");
    }

    #[test]
    fn multiplayer_placements() {
        let ps = [Rating::DEFAULT; 4];
        let out = multiplayer(&ps, &[1.0, 2.0, 2.0, 4.0], 0.5, &Bounds::default()).unwrap();
        assert!(out[0].rating > out[1].rating);
        assert_eq!(out[1], out[2]); // tied placements, same inputs → same result
        assert!(out[3].rating < out[1].rating);
        // the winner is rated exactly as in a period with 3 wins against the others
        let direct = update(ps[0], &ps[1..], &[1.0, 1.0, 1.0], 0.5, &Bounds::default()).unwrap();
        assert_eq!(out[0], direct);
        // zero-sum-ish symmetry: equal players, 1st and last mirror each other
        assert_close(
            out[0].rating - 1500.0,
            1500.0 - out[3].rating,
            1e-9,
            "mirror",
        );
        // RD shrinkage of an 8-player game equals 7 two-player games in one period
        let eight = multiplayer(
            &[Rating::DEFAULT; 8],
            &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0],
            0.5,
            &Bounds::default(),
        )
        .unwrap();
        let seven = update(
            Rating::DEFAULT,
            &[Rating::DEFAULT; 7],
            &[0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 0.5],
            0.5,
            &Bounds::default(),
        )
        .unwrap();
        assert_close(eight[3].rd, seven.rd, 1.0, "rd like 7 games");
        assert!(
            eight[3].rd < 200.0,
            "rd after one 8-player game: {}",
            eight[3].rd
        );
        assert_eq!(
            multiplayer(&ps, &[1.0, 2.0], 0.5, &Bounds::default())
                .unwrap_err()
                .kind,
            RatingErrorKind::LengthMismatch
        );
        assert_eq!(
            multiplayer(&[], &[], 0.5, &Bounds::default()).unwrap(),
            vec![]
        );
    }

    #[test]
    fn rate_period_matches_per_player_updates() {
        // Glickman's example as a 4-player period: player 0 plays the three others.
        let players = [
            Rating::new(1500.0, 200.0, 0.06),
            Rating::new(1400.0, 30.0, 0.06),
            Rating::new(1550.0, 100.0, 0.06),
            Rating::new(1700.0, 300.0, 0.06),
            Rating::new(1600.0, 80.0, 0.06), // idle
        ];
        let out = rate_period(
            &players,
            &[0, 2, 3],
            &[1, 0, 0],
            &[1.0, 1.0, 1.0],
            0.5,
            &Bounds::NONE,
        )
        .unwrap();
        assert_close(out[0].rating, 1464.0507, 5e-5, "rating");
        assert_close(out[0].rd, 151.5165, 5e-5, "rd");
        let want = update(
            players[0],
            &players[1..4],
            &[1.0, 0.0, 0.0],
            0.5,
            &Bounds::NONE,
        )
        .unwrap();
        assert_eq!(out[0], want);
        assert_eq!(
            out[1],
            update(players[1], &[players[0]], &[0.0], 0.5, &Bounds::NONE).unwrap()
        );
        assert_eq!(
            out[4],
            update(players[4], &[], &[], 0.5, &Bounds::NONE).unwrap()
        );
        let kind = |r: Result<Vec<Rating>>| r.unwrap_err().kind;
        assert_eq!(
            kind(rate_period(
                &players,
                &[0],
                &[1, 2],
                &[1.0],
                0.5,
                &Bounds::NONE
            )),
            RatingErrorKind::LengthMismatch
        );
        assert_eq!(
            kind(rate_period(
                &players,
                &[0],
                &[1],
                &[1.0, 0.0],
                0.5,
                &Bounds::NONE
            )),
            RatingErrorKind::LengthMismatch
        );
        assert_eq!(
            kind(rate_period(
                &players,
                &[0],
                &[9],
                &[1.0],
                0.5,
                &Bounds::NONE
            )),
            RatingErrorKind::InvalidParameter
        );
        assert_eq!(
            kind(rate_period(
                &players,
                &[2],
                &[2],
                &[1.0],
                0.5,
                &Bounds::NONE
            )),
            RatingErrorKind::InvalidParameter
        );
        assert_eq!(
            kind(rate_period(
                &players,
                &[0],
                &[1],
                &[2.0],
                0.5,
                &Bounds::NONE
            )),
            RatingErrorKind::InvalidParameter
        );
    }

    #[test]
    fn helpers() {
        let p = Rating::new(1500.0, 350.0, 0.06);
        assert_eq!(conservative(p, 2.0).unwrap(), 800.0);
        assert!(is_provisional(p, DEFAULT_PROVISIONAL_RD).unwrap());
        assert!(!is_provisional(Rating::new(1500.0, 110.0, 0.06), 110.0).unwrap());
        assert!(is_provisional(Rating::new(1500.0, 110.5, 0.06), 110.0).unwrap());
    }

    #[test]
    fn decay_bounds_change_only_rd_max() {
        let b = Bounds::with_rd_max(200.0);
        assert_eq!(b.rd_max, 200.0);
        assert_eq!(Bounds { rd_max: 350.0, ..b }, Bounds::default());
        let grown = decay(Rating::new(1500.0, 190.0, 0.06), 100.0, &b).unwrap();
        assert_eq!(grown.rd, 200.0);
    }

    #[test]
    fn bounds() {
        let player = Rating::new(1500.0, 200.0, 0.06);
        let opps = [
            Rating::new(1400.0, 30.0, 0.06),
            Rating::new(1550.0, 100.0, 0.06),
            Rating::new(1700.0, 300.0, 0.06),
        ];
        let b = Bounds {
            rd_min: 160.0,
            rd_max: 350.0,
            volatility_max: 0.05,
            max_change: 10.0,
            ..Bounds::default()
        };
        let r = update(player, &opps, &[1.0, 0.0, 0.0], 0.5, &b).unwrap();
        assert_eq!(r.rating, 1490.0);
        assert_eq!(r.rd, 160.0);
        assert_eq!(r.volatility, 0.05);
        for bad in [
            Bounds {
                rd_min: -1.0,
                ..Bounds::default()
            },
            Bounds {
                rd_max: 10.0,
                rd_min: 20.0,
                ..Bounds::default()
            },
            Bounds {
                volatility_max: 0.0,
                ..Bounds::default()
            },
            Bounds {
                max_change: -5.0,
                ..Bounds::default()
            },
        ] {
            assert_eq!(
                update(player, &[], &[], 0.5, &bad).unwrap_err().kind,
                RatingErrorKind::InvalidParameter
            );
        }
        let nan = Bounds {
            rd_max: f64::NAN,
            ..Bounds::default()
        };
        assert_eq!(
            update(player, &[], &[], 0.5, &nan).unwrap_err().kind,
            RatingErrorKind::OutOfRange
        );
    }

    #[test]
    fn guards() {
        let p = Rating::new(1500.0, 200.0, 0.06);
        let o = Rating::new(1400.0, 30.0, 0.06);
        let kind = |r: Result<Rating>| r.unwrap_err().kind;
        assert_eq!(
            kind(update(
                Rating::new(f64::NAN, 200.0, 0.06),
                &[o],
                &[1.0],
                0.5,
                &Bounds::NONE
            )),
            RatingErrorKind::OutOfRange
        );
        assert_eq!(
            kind(update(
                p,
                &[Rating::new(1400.0, f64::INFINITY, 0.06)],
                &[1.0],
                0.5,
                &Bounds::NONE
            )),
            RatingErrorKind::OutOfRange
        );
        assert_eq!(
            kind(update(
                Rating::new(1500.0, -1.0, 0.06),
                &[o],
                &[1.0],
                0.5,
                &Bounds::NONE
            )),
            RatingErrorKind::InvalidParameter
        );
        assert_eq!(
            kind(update(
                Rating::new(1500.0, 200.0, -0.06),
                &[o],
                &[1.0],
                0.5,
                &Bounds::NONE
            )),
            RatingErrorKind::InvalidParameter
        );
        assert_eq!(
            kind(update(p, &[o], &[1.2], 0.5, &Bounds::NONE)),
            RatingErrorKind::InvalidParameter
        );
        assert_eq!(
            kind(update(p, &[o], &[1.0, 0.0], 0.5, &Bounds::NONE)),
            RatingErrorKind::LengthMismatch
        );
        assert_eq!(
            kind(update(p, &[o], &[1.0], 0.0, &Bounds::NONE)),
            RatingErrorKind::InvalidParameter
        );
        assert_eq!(
            kind(update(p, &[o], &[1.0], f64::NAN, &Bounds::NONE)),
            RatingErrorKind::OutOfRange
        );
        // absurd gaps: no information, reported instead of NaN
        let far = Rating::new(1e9, 30.0, 0.06);
        assert_eq!(
            kind(update(p, &[far], &[0.0], 0.5, &Bounds::NONE)),
            RatingErrorKind::OutOfRange
        );
    }

    #[test]
    fn a_huge_tau_is_an_error_not_a_volatility_of_zero() {
        let p = Rating::new(1500.0, 200.0, 0.06);
        let o = Rating::new(1400.0, 30.0, 0.06);
        for tau in [1e50, 1e150, 1e300] {
            let e = update(p, &[o], &[1.0], tau, &Bounds::NONE).unwrap_err();
            assert_eq!(e.kind, RatingErrorKind::OutOfRange, "{tau}: {e}");
        }
        assert!(
            update(p, &[o], &[1.0], 10.0, &Bounds::NONE)
                .unwrap()
                .volatility
                > 0.05
        );
    }

    /// Extreme but legal inputs never produce NaN: either a finite result or an error.
    #[test]
    fn extremes_are_finite_or_errors() {
        let ratings = [-5000.0, 0.0, 1500.0, 3000.0, 1e5];
        let rds = [1e-6, 1.0, 30.0, 350.0, 1e4];
        let vols = [1e-6, 0.06, 1.0, 10.0];
        let taus = [1e-3, 0.5, 1.2, 100.0];
        for &r in &ratings {
            for &rd in &rds {
                for &vol in &vols {
                    for &tau in &taus {
                        let p = Rating::new(r, rd, vol);
                        let o = Rating::new(1500.0, 100.0, 0.06);
                        for s in [0.0, 0.5, 1.0] {
                            match update(p, &[o, o], &[s, 1.0 - s], tau, &Bounds::NONE) {
                                Ok(x) => {
                                    assert!(
                                        x.rating.is_finite()
                                            && x.rd.is_finite()
                                            && x.volatility.is_finite()
                                    );
                                    assert!(
                                        x.rd > 0.0 && x.volatility > 0.0,
                                        "{p:?} {tau} {s}: {x:?}"
                                    );
                                }
                                Err(e) => assert_ne!(
                                    e.kind,
                                    RatingErrorKind::InvalidParameter,
                                    "{p:?}: {e}"
                                ),
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn a_period_run_is_the_period_of_its_rows() {
        let p = Rating::new(1500.0, 200.0, 0.06);
        let opps = [
            Rating::new(1400.0, 30.0, 0.06),
            Rating::new(1550.0, 100.0, 0.06),
        ];
        let mut run = PeriodRun::new(p, opps[0], 1.0, DEFAULT_TAU).unwrap();
        run.add(p, opps[1], 0.0, DEFAULT_TAU).unwrap();
        let mut period = Period::new(p).unwrap();
        period.add(opps[0], 1.0).unwrap();
        period.add(opps[1], 0.0).unwrap();
        let want = period.finish(DEFAULT_TAU, &Bounds::default()).unwrap();
        assert_eq!(run.finish().unwrap(), want);
    }

    #[test]
    fn a_period_run_refuses_another_player_or_tau() {
        let p = Rating::new(1500.0, 200.0, 0.06);
        let o = Rating::new(1400.0, 30.0, 0.06);
        let mut run = PeriodRun::new(p, o, 1.0, 0.5).unwrap();
        let e = run.add(o, o, 1.0, 0.5).unwrap_err();
        assert_eq!(e.kind, crate::rating::RatingErrorKind::InvalidParameter);
        assert!(
            e.message.contains("the player's rating must be the same"),
            "{e}"
        );
        let e = run.add(p, o, 1.0, 0.3).unwrap_err();
        assert_eq!(
            e.message,
            "glicko2_period: tau must be the same in every row of a group"
        );
        assert!(PeriodRun::new(p, o, 2.0, 0.5).is_err());
    }

    #[test]
    fn limits_keep_the_default_tolerance_and_growth() {
        let b = Bounds::limits(30.0, 300.0, 0.1, 700.0);
        assert_eq!(
            (b.rd_min, b.rd_max, b.volatility_max, b.max_change),
            (30.0, 300.0, 0.1, 700.0)
        );
        assert_eq!((b.epsilon, b.rd_growth), (EPSILON, RdGrowth::Elapsed));
    }
}
