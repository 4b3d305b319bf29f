//! A ranking as its `rankings` row defines it for the writers: which games count in it (its
//! [`RankingWindow`]) and how they are rated (its [`RatingSystem`]).

use crate::ledger::writer;
use crate::ledger::LedgerGame;
use crate::rating::RatingError;

use super::error::RankingError;
use super::history::{as_ledger, name_games_by_id, RankingSettings};
use super::window::{RankingWindow, ServiceGame};
use super::RatingSystem;

/// A ranking: which games count in it and how they are rated.
#[derive(Clone, Debug, PartialEq)]
pub struct Ranking {
    pub id: i32,
    /// Its `ledgers` row (a schema of 0.10.0 on; made when the ranking is inserted).
    pub ledger: Option<i32>,
    pub window: RankingWindow,
    pub system: RatingSystem,
}

impl Ranking {
    /// The ranking of a `rankings` row; 23514 when its settings name no system the rankings
    /// can rate by ([`RankingSettings::system`]).
    pub fn of_row(
        id: i32,
        ledger: Option<i32>,
        window: RankingWindow,
        settings: &RankingSettings<'_>,
    ) -> Result<Ranking, RankingError> {
        let system = settings.system().map_err(|reason| rejected(id, reason))?;
        Ok(Ranking {
            id,
            ledger,
            window,
            system,
        })
    }

    /// 23514 unless the ranking's settings are within the engine's bounds
    /// ([`RatingSystem::validated`]): what a ranking row written now must pass, before its
    /// ledger is made (a ranking kept from before is rated as it is).
    pub fn validated(&self) -> Result<(), RankingError> {
        let system = self.system.validated();
        system.map(|_| ()).map_err(|e| rejected(self.id, e.message))
    }

    /// The games (sorted, as given) that count in this ranking, as the ledgers' replay takes
    /// them; 22008 for a game whose clock's nominal length overflows an interval.
    pub fn counted(&self, games: &[ServiceGame]) -> Result<Vec<LedgerGame>, RankingError> {
        self.window
            .counted(games)
            .map_err(|game| RankingError::ClockOverflow {
                game,
                ranking: self.id,
            })
    }

    /// The ranking as the ledgers' writer knows it ([`as_ledger`]).
    pub fn as_ledger(&self) -> writer::Ledger<&Ranking> {
        as_ledger(self, self.id, &self.system)
    }

    /// A replay's error as the ranking reports it: its games named by id, the ranking named.
    pub fn replay_failed(&self, error: RatingError) -> RatingError {
        let e = name_games_by_id(error);
        RatingError {
            message: format!("rating games in ranking {}: {}", self.id, e.message),
            ..e
        }
    }
}

fn rejected(ranking: i32, reason: String) -> RankingError {
    RankingError::SettingsRejected { ranking, reason }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::{Clock, Interval};
    use crate::error::Classified;
    use crate::ranking::GameKey;
    use crate::result::GameEndType;

    fn settings(rating_system: &str, k_factor: Option<f64>) -> RankingSettings<'_> {
        RankingSettings {
            rating_system,
            starting_rating: 1500.0,
            k_factor,
            tau: None,
            starting_rd: None,
            starting_volatility: None,
            rating_period: None,
        }
    }

    fn window(extra_move_multiplier: i32) -> RankingWindow {
        RankingWindow {
            playtime_min: Interval::from_seconds(0),
            playtime_max: None,
            extra_move_multiplier,
            include_bots: false,
        }
    }

    #[test]
    fn a_row_makes_its_ranking_or_names_why_not() {
        let elo = Ranking::of_row(3, Some(8), window(40), &settings("elo", Some(20.0))).unwrap();
        assert_eq!((elo.id, elo.ledger), (3, Some(8)));
        assert_eq!(
            elo.system,
            RatingSystem::Elo {
                starting: 1500.0,
                k: 20.0
            }
        );
        assert_eq!(elo.validated(), Ok(()));
        let unknown = Ranking::of_row(3, None, window(40), &settings("chess960", Some(20.0)));
        let e = unknown.unwrap_err();
        assert!(e.to_string().starts_with("ranking 3: settings rejected: "));
        assert_eq!(e.sqlstate(), "23514");
        // a K the rankings rate by but the engine's bounds refuse
        let wild = Ranking::of_row(4, None, window(40), &settings("elo", Some(-1.0))).unwrap();
        let e = wild.validated().unwrap_err();
        let reason = wild.system.validated().unwrap_err().message;
        assert_eq!(
            e.to_string(),
            format!("ranking 4: settings rejected: {reason}")
        );
    }

    #[test]
    fn counting_names_the_game_and_the_ranking_whose_clock_overflows() {
        let ranking = Ranking::of_row(5, None, window(i32::MAX), &settings("elo", Some(20.0)));
        let ranking = ranking.unwrap();
        let clock = Clock {
            starting_time: Interval::from_seconds(60),
            move_increase: Interval {
                months: 0,
                days: i32::MAX,
                micros: 0,
            },
        };
        let key = GameKey {
            played_at: 1,
            game_id: 12,
        };
        let game = |clock| {
            let players = ("a".to_owned(), "b".to_owned());
            ServiceGame::ranked_local(key, players, GameEndType::Draw, clock, [false; 2])
        };
        assert_eq!(
            ranking.counted(&[game(Some(clock))]),
            Err(RankingError::ClockOverflow {
                game: 12,
                ranking: 5
            })
        );
        assert_eq!(ranking.counted(&[game(None)]), Ok(Vec::new()));
    }

    #[test]
    fn a_replay_error_names_the_ranking_and_the_game_by_id() {
        let ranking = Ranking::of_row(6, None, window(0), &settings("elo", Some(20.0))).unwrap();
        let key = GameKey {
            played_at: 1,
            game_id: 42,
        };
        let e =
            RatingError::out_of_range(format!("game {}: rating overflows", key.ledger_key().id));
        let named = ranking.replay_failed(e);
        assert_eq!(
            named.message,
            "rating games in ranking 6: game 42: rating overflows"
        );
        assert_eq!(named.sqlstate(), "22003");
        let ledger = ranking.as_ledger();
        assert_eq!((ledger.id, ledger.book.id), (6, 6));
    }
}
