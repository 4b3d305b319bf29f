//! Whether a game counts in a ranking: a ranked local game whose clock falls in the ranking's
//! time-control window, and bots only where the ranking includes them.

use crate::clock::{Clock, Interval, IntervalOverflow};
use crate::ledger::LedgerGame;
use crate::result::GameEndType;

use super::error::RankingError;
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

/// A game's row as the rankings read it: its id, creation date, result type
/// (`game_end_type`), clock parts (`starting_time`, `move_increase`; no clock unless both are
/// set), players and their bot flags.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRow<'a> {
    pub id: i32,
    pub played_at: i64,
    pub end_type: &'a str,
    pub clock: (Option<Interval>, Option<Interval>),
    pub players: (String, String),
    pub bots: [bool; 2],
}

impl ServiceGame {
    /// The ranked local game of a row; 22008 for an infinite date, an internal error for a
    /// result type that is none.
    pub fn of_row(row: GameRow<'_>) -> Result<ServiceGame, RankingError> {
        let key = GameKey::rateable(row.played_at, row.id)?;
        let end_type: GameEndType =
            (row.end_type.parse()).map_err(|_| RankingError::InvalidResult(row.id))?;
        let clock = match row.clock {
            (Some(starting_time), Some(move_increase)) => Some(Clock {
                starting_time,
                move_increase,
            }),
            _ => None,
        };
        let game = ServiceGame::ranked_local(key, row.players, end_type, clock, row.bots);
        Ok(game)
    }

    /// The players of `games`, each once, in byte order: whose bot flags the games need.
    pub fn players(games: &[ServiceGame]) -> Vec<&str> {
        let mut players: Vec<&str> = games
            .iter()
            .flat_map(|g| [g.white.as_str(), g.black.as_str()])
            .collect();
        players.sort_unstable();
        players.dedup();
        players
    }

    /// Sets each game's bot flags to its players' (`is_bot` of a player).
    pub fn mark_bots(games: &mut [ServiceGame], is_bot: impl Fn(&str) -> bool) {
        for g in games {
            g.facts.white_is_bot = is_bot(&g.white);
            g.facts.black_is_bot = is_bot(&g.black);
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

    #[test]
    fn a_game_row_is_read_into_a_ranked_local_game_or_refused() {
        let row = GameRow {
            id: 4,
            played_at: 1_000,
            end_type: "1-0",
            clock: (Some(minutes(3)), Some(Interval::from_seconds(2))),
            players: ("w".into(), "b".into()),
            bots: [false, true],
        };
        let game = ServiceGame::of_row(row.clone()).unwrap();
        let key = GameKey {
            played_at: 1_000,
            game_id: 4,
        };
        let clock = Some(Clock {
            starting_time: minutes(3),
            move_increase: Interval::from_seconds(2),
        });
        let players = ("w".to_owned(), "b".to_owned());
        let want =
            ServiceGame::ranked_local(key, players, GameEndType::WhiteWins, clock, [false, true]);
        assert_eq!(game, want);
        // a clock needs both parts
        let half = GameRow {
            clock: (Some(minutes(3)), None),
            ..row.clone()
        };
        assert_eq!(ServiceGame::of_row(half).unwrap().facts.clock, None);
        let infinite = GameRow {
            played_at: i64::MAX,
            end_type: "none",
            ..row.clone()
        };
        assert_eq!(
            ServiceGame::of_row(infinite),
            Err(RankingError::InfiniteDate(4))
        );
        let unknown = GameRow {
            end_type: "none",
            ..row
        };
        assert_eq!(
            ServiceGame::of_row(unknown),
            Err(RankingError::InvalidResult(4))
        );
    }

    #[test]
    fn a_statements_players_are_listed_once_and_their_bot_flags_set() {
        let key = GameKey {
            played_at: 1,
            game_id: 1,
        };
        let game = |w: &str, b: &str| {
            let players = (w.to_owned(), b.to_owned());
            ServiceGame::ranked_local(key, players, GameEndType::Draw, None, [true, true])
        };
        let mut games = [game("c", "a"), game("a", "bot"), game("bot", "b")];
        assert_eq!(ServiceGame::players(&games), ["a", "b", "bot", "c"]);
        ServiceGame::mark_bots(&mut games, |p| p == "bot");
        let flags: Vec<(bool, bool)> = games
            .iter()
            .map(|g| (g.facts.white_is_bot, g.facts.black_is_bot))
            .collect();
        assert_eq!(flags, [(false, false), (false, true), (true, false)]);
    }
}
