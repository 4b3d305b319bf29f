//! Whether a game counts in a ranking: a ranked local game whose clock falls in the ranking's
//! time-control window, and bots only where the ranking includes them.

use crate::clock::{Clock, Interval, IntervalOverflow};
use crate::ledger::LedgerGame;
use crate::result::GameEndType;

use super::history::{GameKey, RatedGame};

/// The eligibility part of a `rankings` row.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RankingWindow {
    /// Inclusive lower bound of the nominal game length.
    pub playtime_min: Interval,
    /// Exclusive upper bound; `None` is no upper bound.
    pub playtime_max: Option<Interval>,
    pub extra_move_multiplier: i32,
    pub include_bots: bool,
}

/// What a ranking needs to know of a game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameFacts {
    /// `service_id = 1 AND is_ranked`.
    pub ranked_local: bool,
    pub clock: Option<Clock>,
    pub white_is_bot: bool,
    pub black_is_bot: bool,
}

/// Whether a `service_games` row with `service_id` and `is_ranked` (NULL: `None`) is a ranked
/// local game, the only games the rankings rate.
pub fn ranked_local(service_id: Option<i32>, is_ranked: Option<bool>) -> bool {
    service_id == Some(super::accounts::LOCAL_SERVICE) && is_ranked == Some(true)
}

impl RankingWindow {
    /// True when the game counts in this ranking; an error when its clock's nominal length
    /// overflows an interval (as `clock_base_time` reports it).
    pub fn counts(&self, game: &GameFacts) -> Result<bool, IntervalOverflow> {
        if !game.ranked_local || (!self.include_bots && (game.white_is_bot || game.black_is_bot)) {
            return Ok(false);
        }
        match game.clock {
            Some(clock) => self.contains_clock(clock),
            None => Ok(false),
        }
    }

    /// True when `starting_time + extra_move_multiplier * move_increase` lies in
    /// `[playtime_min, playtime_max)`.
    pub fn contains_clock(&self, clock: Clock) -> Result<bool, IntervalOverflow> {
        let base = clock.base_time(self.extra_move_multiplier)?;
        Ok(base >= self.playtime_min && self.playtime_max.is_none_or(|max| base < max))
    }
}

/// A ranked local game (`service_id = 1 AND is_ranked`) as the rankings see it.
#[derive(Clone, Debug, PartialEq)]
pub struct ServiceGame {
    pub key: GameKey,
    pub white: String,
    pub black: String,
    pub white_score: f64,
    pub facts: GameFacts,
}

impl ServiceGame {
    /// A ranked local game that ended as `end_type`, its players' bot flags `[white, black]`.
    pub fn ranked_local(
        key: GameKey,
        (white, black): (String, String),
        end_type: GameEndType,
        clock: Option<Clock>,
        [white_is_bot, black_is_bot]: [bool; 2],
    ) -> Self {
        ServiceGame {
            key,
            white,
            black,
            white_score: end_type.score(true),
            facts: GameFacts {
                ranked_local: true,
                clock,
                white_is_bot,
                black_is_bot,
            },
        }
    }
}

impl RankingWindow {
    /// The games (sorted, as given) that count in this window, as the ledgers' replay takes
    /// them; `Err` with the id of a game whose clock's nominal length overflows an interval.
    pub fn counted(&self, games: &[ServiceGame]) -> Result<Vec<LedgerGame>, i32> {
        let mut counted = Vec::new();
        for g in games {
            if self.counts(&g.facts).map_err(|_| g.key.game_id)? {
                let rated = RatedGame {
                    key: g.key,
                    white: g.white.clone(),
                    black: g.black.clone(),
                    white_score: g.white_score,
                };
                counted.push(rated.ledger_game());
            }
        }
        Ok(counted)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn minutes(m: i64) -> Interval {
        Interval::from_seconds(m * 60)
    }

    fn blitz() -> RankingWindow {
        RankingWindow {
            playtime_min: minutes(3),
            playtime_max: Some(minutes(10)),
            extra_move_multiplier: 60,
            include_bots: false,
        }
    }

    fn game(start_min: i64, inc_s: i64) -> GameFacts {
        GameFacts {
            ranked_local: true,
            clock: Some(Clock {
                starting_time: minutes(start_min),
                move_increase: Interval::from_seconds(inc_s),
            }),
            white_is_bot: false,
            black_is_bot: false,
        }
    }

    #[test]
    fn the_window_is_inclusive_below_and_exclusive_above() {
        assert_eq!(blitz().counts(&game(3, 0)), Ok(true));
        assert_eq!(blitz().counts(&game(2, 1)), Ok(true)); // 2 min + 60 s
        assert_eq!(blitz().counts(&game(2, 0)), Ok(false));
        assert_eq!(blitz().counts(&game(10, 0)), Ok(false));
        assert_eq!(blitz().counts(&game(9, 0)), Ok(true));
        assert_eq!(blitz().counts(&game(5, 5)), Ok(false)); // 5 min + 300 s = 10 min
    }

    #[test]
    fn an_open_window_has_no_upper_bound() {
        let global = RankingWindow {
            playtime_min: Interval::ZERO,
            playtime_max: None,
            extra_move_multiplier: 0,
            include_bots: true,
        };
        assert_eq!(global.counts(&game(0, 0)), Ok(true));
        assert_eq!(global.counts(&game(100_000, 0)), Ok(true));
    }

    #[test]
    fn bots_count_only_where_included() {
        let mut g = game(5, 0);
        g.black_is_bot = true;
        assert_eq!(blitz().counts(&g), Ok(false));
        assert_eq!(
            RankingWindow {
                include_bots: true,
                ..blitz()
            }
            .counts(&g),
            Ok(true)
        );
    }

    #[test]
    fn unranked_or_clockless_games_never_count() {
        let mut g = game(5, 0);
        g.ranked_local = false;
        assert_eq!(blitz().counts(&g), Ok(false));
        let mut g = game(5, 0);
        g.clock = None;
        assert_eq!(blitz().counts(&g), Ok(false));
    }

    #[test]
    fn an_overflowing_clock_is_an_error() {
        let g = GameFacts {
            clock: Some(Clock {
                starting_time: Interval::ZERO,
                move_increase: Interval {
                    months: 0,
                    days: 0,
                    micros: i64::MAX / 2,
                },
            }),
            ..game(0, 0)
        };
        assert_eq!(
            RankingWindow {
                playtime_max: None,
                ..blitz()
            }
            .counts(&g),
            Err(IntervalOverflow)
        );
    }

    #[test]
    fn only_ranked_local_games_are_rated() {
        assert!(ranked_local(Some(1), Some(true)));
        assert!(!ranked_local(Some(2), Some(true)));
        assert!(!ranked_local(Some(1), Some(false)));
        assert!(!ranked_local(None, Some(true)));
        assert!(!ranked_local(Some(1), None));
    }

    #[test]
    fn the_games_that_count_are_given_as_the_ledgers_replay_takes_them() {
        let key = |id| GameKey {
            played_at: 1000 * i64::from(id),
            game_id: id,
        };
        let clock = game(5, 0).clock;
        let players = || ("a".to_owned(), "b".to_owned());
        let games = [
            ServiceGame::ranked_local(key(1), players(), GameEndType::BlackWins, clock, [false; 2]),
            ServiceGame::ranked_local(key(2), players(), GameEndType::Draw, clock, [true, false]),
            ServiceGame::ranked_local(key(3), players(), GameEndType::Draw, None, [false; 2]),
        ];
        assert_eq!(games[0].white_score, 0.0);
        assert!(games[1].facts.white_is_bot && games[1].facts.ranked_local);
        let counted = blitz().counted(&games).unwrap();
        assert_eq!(counted.len(), 1);
        assert_eq!(counted[0].key, key(1).ledger_key());
        assert_eq!(counted[0].outcome, crate::ledger::Outcome::White(0.0));
        let mut overflowing = games[0].clone();
        overflowing.facts.clock = Some(Clock {
            starting_time: Interval::ZERO,
            move_increase: Interval {
                months: 0,
                days: 0,
                micros: i64::MAX / 2,
            },
        });
        assert_eq!(blitz().counted(&[overflowing]), Err(1));
    }
}
