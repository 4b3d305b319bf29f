//! A player's standing in a ledger: the rating state and the whole record, after some game.

use crate::rating::system::{PlayerState, RatingSystem};

/// The end of a season: from `at` on, a rating is pulled toward the start by `pull` (0 keeps it, 1
/// resets it) and an RD is raised to at least `rd_floor` (seed 003, section 13: a partial reset).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeasonEnd {
    pub at: i64,
    pub pull: f64,
    pub rd_floor: Option<f64>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Standing {
    pub state: PlayerState,
    pub games: i32,
    pub wins: i32,
    pub draws: i32,
    pub losses: i32,
    /// The highest rating so far, the starting rating included.
    pub peak: f64,
    /// Wins (positive) or losses (negative) in a row up to now; 0 after a draw.
    pub streak: i32,
    /// The longest run of wins.
    pub best_streak: i32,
    /// Sum of the opponents' ratings before each game (their average is this over `games`).
    pub opponents_sum: f64,
    /// Sum of the scores.
    pub score_sum: f64,
    /// The sum of the absolute rating changes within the period of the last game, kept only
    /// under a cap per period (`max_period_change`). Not a column: the glue sums it from the
    /// period's entries when it reads a standing back.
    pub period_moved: f64,
}

impl Standing {
    /// The standing of a player without games.
    pub fn start(system: &RatingSystem) -> Self {
        let state = system.start();
        Standing {
            state,
            games: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            peak: state.rating,
            streak: 0,
            best_streak: 0,
            opponents_sum: 0.0,
            score_sum: 0.0,
            period_moved: 0.0,
        }
    }

    /// The standing of a player without games who comes with a rating (a seed: an imported
    /// rating); the RD and volatility default to the system's start.
    pub fn seeded(
        system: &RatingSystem,
        rating: f64,
        rd: Option<f64>,
        volatility: Option<f64>,
    ) -> Self {
        let start = Standing::start(system);
        let state = PlayerState {
            rating,
            rd: start.state.rd.map(|r| rd.unwrap_or(r)),
            volatility: start.state.volatility.map(|v| volatility.unwrap_or(v)),
            last_played: None,
        };
        Standing {
            state,
            peak: rating,
            ..start
        }
    }

    /// The standing after a game scored `score` (1 win, 0 loss, else a draw) against an
    /// opponent rated `opponent` before it, ending in `state`.
    pub fn after(&self, state: PlayerState, score: f64, opponent: f64) -> Self {
        let (mut wins, mut draws, mut losses) = (self.wins, self.draws, self.losses);
        let streak = if score >= 1.0 {
            wins += 1;
            self.streak.max(0) + 1
        } else if score <= 0.0 {
            losses += 1;
            self.streak.min(0) - 1
        } else {
            draws += 1;
            0
        };
        Standing {
            state,
            games: self.games + 1,
            wins,
            draws,
            losses,
            peak: self.peak.max(state.rating),
            streak,
            best_streak: self.best_streak.max(streak),
            opponents_sum: self.opponents_sum + opponent,
            score_sum: self.score_sum + score,
            period_moved: self.period_moved,
        }
    }

    /// The standing as of `at`: the resets of every season that ended after the player's last
    /// game and not after `at` (`seasons` sorted by end), applied in order. The record and the
    /// peak stay; so does the date of the last game (the RD still grows from it).
    pub fn as_of(&self, system: &RatingSystem, seasons: &[SeasonEnd], at: i64) -> Standing {
        let (rating, rd) = super::now::season_reset(
            self.state.rating,
            self.state.rd,
            self.state.last_played,
            system.start().rating,
            seasons,
            at,
        );
        let mut s = *self;
        (s.state.rating, s.state.rd) = (rating, rd);
        s
    }

    /// The opponents' average rating; `None` before any game.
    pub fn opponents_average(&self) -> Option<f64> {
        super::now::opponents_average(self.opponents_sum, self.games)
    }

    /// The linear performance rating: opponents' average + 400 (wins − losses) / games.
    pub fn performance(&self) -> Option<f64> {
        super::now::linear_performance(self.opponents_sum, self.wins, self.losses, self.games)
    }
}

/// What a statement's changes of seasons replay: each `(ledger, Some(scope))` of a season of one
/// scope, each `(ledger, None)` of a season of every scope (every scope of its ledger), from the
/// earliest end changed (`seasons`: ledger, scope, every scope, end; before and after the change).
pub fn changed_season_ends(
    seasons: impl IntoIterator<Item = (i32, String, bool, i64)>,
) -> std::collections::BTreeMap<(i32, Option<String>), i64> {
    let mut ends = std::collections::BTreeMap::new();
    for (ledger, scope, every, at) in seasons {
        let end = ends
            .entry((ledger, (!every).then_some(scope)))
            .or_insert(at);
        *end = (*end).min(at);
    }
    ends
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changed_seasons_replay_their_scopes_from_the_earliest_end() {
        let ends = changed_season_ends([
            (1, "a".to_string(), false, 50),
            (1, "a".to_string(), false, 20),
            (1, "b".to_string(), true, 70),
            (1, "c".to_string(), true, 30),
            (2, "a".to_string(), false, 10),
        ]);
        let expected = [
            ((1, None), 30),
            ((1, Some("a".to_string())), 20),
            ((2, Some("a".to_string())), 10),
        ];
        assert_eq!(ends.into_iter().collect::<Vec<_>>(), expected);
    }

    #[test]
    fn a_seed_starts_from_its_rating_and_keeps_the_systems_defaults() {
        let glicko = RatingSystem::Glicko2 {
            starting: crate::rating::glicko2::Rating::new(1500.0, 350.0, 0.06),
            tau: 0.5,
            rule: crate::rating::glicko2::GameRule::Lichess,
            period_micros: None,
            bounds: crate::rating::glicko2::Bounds::NONE,
        };
        let s = Standing::seeded(&glicko, 2100.0, Some(120.0), None);
        assert_eq!(
            (
                s.state.rating,
                s.state.rd,
                s.state.volatility,
                s.peak,
                s.games
            ),
            (2100.0, Some(120.0), Some(0.06), 2100.0, 0)
        );
        let elo = RatingSystem::Elo {
            starting: 1500.0,
            k: 20.0,
        };
        assert_eq!(
            Standing::seeded(&elo, 1800.0, Some(99.0), None).state.rd,
            None
        );
    }

    #[test]
    fn a_season_end_pulls_toward_the_start_and_raises_the_rd() {
        let glicko = RatingSystem::Glicko2 {
            starting: crate::rating::glicko2::Rating::new(1500.0, 350.0, 0.06),
            tau: 0.5,
            rule: crate::rating::glicko2::GameRule::Lichess,
            period_micros: None,
            bounds: crate::rating::glicko2::Bounds::NONE,
        };
        let played = Standing {
            state: PlayerState {
                rating: 1900.0,
                rd: Some(60.0),
                volatility: Some(0.06),
                last_played: Some(10),
            },
            ..Standing::seeded(&glicko, 1900.0, Some(60.0), None)
        };
        let seasons = [
            SeasonEnd {
                at: 20,
                pull: 0.5,
                rd_floor: Some(150.0),
            },
            SeasonEnd {
                at: 30,
                pull: 0.5,
                rd_floor: None,
            },
        ];
        assert_eq!(played.as_of(&glicko, &seasons, 15), played);
        let after_one = played.as_of(&glicko, &seasons, 20);
        assert_eq!(
            (after_one.state.rating, after_one.state.rd),
            (1700.0, Some(150.0))
        );
        let after_two = played.as_of(&glicko, &seasons, 40);
        assert_eq!((after_two.state.rating, after_two.peak), (1600.0, 1900.0));
        // a season that ended before the player's last game is already in the rating
        let later = Standing {
            state: PlayerState {
                last_played: Some(25),
                ..played.state
            },
            ..played
        };
        assert_eq!(later.as_of(&glicko, &seasons, 40).state.rating, 1700.0);
    }

    #[test]
    fn record_streaks_peak_and_performance() {
        let system = RatingSystem::Elo {
            starting: 1500.0,
            k: 20.0,
        };
        let mut s = Standing::start(&system);
        assert_eq!((s.peak, s.performance()), (1500.0, None));
        let at = |rating: f64| PlayerState {
            rating,
            ..system.start()
        };
        for (rating, score) in [
            (1510.0, 1.0),
            (1520.0, 1.0),
            (1515.0, 0.5),
            (1505.0, 0.0),
            (1495.0, 0.0),
        ] {
            s = s.after(at(rating), score, 1600.0);
        }
        assert_eq!((s.games, s.wins, s.draws, s.losses), (5, 2, 1, 2));
        assert_eq!((s.streak, s.best_streak, s.peak), (-2, 2, 1520.0));
        assert_eq!(s.opponents_average(), Some(1600.0));
        assert_eq!(s.performance(), Some(1600.0));
        assert_eq!(s.score_sum, 2.5);
    }
}
