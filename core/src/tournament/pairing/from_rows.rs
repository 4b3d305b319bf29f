//! Pairing the next round of an application's own tables: its players and its games as rows, each
//! player named by the application's id (as text). What a row means is decided here (a result
//! value, a bye, a forfeit, a game still to be played, a withdrawal); the glue only reads the rows.

use std::collections::HashMap;
use std::fmt;

use super::{pair_next_round, round_to_pair, PairingOptions};
use crate::error::{Classified, ErrorClass, Quoted};
use crate::tournament::seeding::{initial_order, Seed};
use crate::tournament::{ByeKind, GameKind, Outcome, PlayerNo, RoundEntry, Tournament};

/// What a value of the games' result column means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowResult {
    /// White's score in half points (2, 1, 0): a game played, or for a row without Black a bye
    /// worth that much (2: the pairing-allocated bye, 1: a half-point bye, 0: a zero-point bye).
    White(i32),
    /// White won by forfeit (`+-`).
    WhiteForfeitWin,
    /// Black won by forfeit (`-+`).
    BlackForfeitWin,
    /// A bye of a row without Black.
    Bye(ByeKind),
    /// No result yet: a game paired and not played.
    Pending,
}

impl RowResult {
    /// The meaning named by a `result_map` string: `+-`, `-+`, `bye` (the pairing-allocated bye),
    /// `full_bye`, `half_bye`, `zero_bye` (requested byes), `pending`.
    pub fn named(name: &str) -> Option<RowResult> {
        Some(match name {
            "+-" => RowResult::WhiteForfeitWin,
            "-+" => RowResult::BlackForfeitWin,
            "bye" => RowResult::Bye(ByeKind::PairingAllocated),
            "full_bye" => RowResult::Bye(ByeKind::Full),
            "half_bye" => RowResult::Bye(ByeKind::Half),
            "zero_bye" => RowResult::Bye(ByeKind::Zero),
            "pending" => RowResult::Pending,
            _ => return None,
        })
    }

    /// The meaning of a `result_map` number: White's score, 1, 0.5 or 0.
    pub fn score(score: f64) -> Option<RowResult> {
        [0.0, 0.5, 1.0]
            .iter()
            .position(|&s| s == score)
            .map(|half| RowResult::White(half as i32))
    }

    /// A result value without a `result_map`: `1-0`, `0-1`, `1/2-1/2` (or `½-½`), `+-`, `-+`
    /// (forfeits), `bye`; a NULL result is [`RowResult::Pending`].
    pub fn standard(value: &str) -> Option<RowResult> {
        match value {
            "1-0" => Some(RowResult::White(2)),
            "0-1" => Some(RowResult::White(0)),
            "1/2-1/2" | "½-½" => Some(RowResult::White(1)),
            "+-" | "-+" | "bye" => RowResult::named(value),
            _ => None,
        }
    }
}

/// A row of the players table.
#[derive(Clone, Debug, PartialEq)]
pub struct RowPlayer {
    /// The application's id, as text.
    pub id: String,
    /// What orders two players of the same rating and name: the id's text, or for an integer id
    /// a text whose byte order is the numbers' order.
    pub order_key: String,
    pub rating: Option<i32>,
    pub name: String,
    /// The application's own initial order (a starting rank): given for every player or none.
    pub initial_order: Option<i64>,
    /// Withdrawn: kept for the games played, not paired.
    pub withdrawn: bool,
}

/// A row of the games table: a game, or without Black a bye of White's player.
#[derive(Clone, Debug, PartialEq)]
pub struct RowGame {
    pub round: i64,
    pub white: String,
    pub black: Option<String>,
    pub result: RowResult,
    /// The forfeit column: a decisive result was won by forfeit.
    pub forfeit: bool,
}

/// An error of reading or pairing an application's tables; `Display` is the message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RowsError {
    pub class: ErrorClass,
    pub message: String,
}

impl RowsError {
    fn invalid(message: impl Into<String>) -> Self {
        Self {
            class: ErrorClass::InvalidParameter,
            message: message.into(),
        }
    }
}

impl Classified for RowsError {
    fn class(&self) -> ErrorClass {
        self.class
    }
}

impl fmt::Display for RowsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for RowsError {}

/// The pairing of a round, each player by the application's id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RowPairing {
    pub round: u32,
    /// Boards in FIDE order: (White, Black).
    pub boards: Vec<(String, String)>,
    /// The player with the pairing-allocated bye.
    pub bye: Option<String>,
}

/// The tournament an application's rows describe, its players numbered in initial order.
#[derive(Clone, Debug)]
pub struct RowTournament {
    pub tournament: Tournament,
    /// The application's id of each pairing number.
    pub ids: Vec<String>,
    numbers: HashMap<String, PlayerNo>,
    withdrawn: Vec<PlayerNo>,
    /// The first game without a result: (round, White, Black).
    pending: Option<(u32, String, String)>,
    /// The last round with a game still to be played.
    pending_round: u32,
}

/// Players in initial order: the application's starting ranks when it gives them, else FIDE's
/// (C.04.2: rating, highest first, unrated last, then name, then id).
fn order_of(players: &[RowPlayer]) -> Result<Vec<PlayerNo>, RowsError> {
    let given = players.iter().filter(|p| p.initial_order.is_some()).count();
    if given == 0 {
        let seeds: Vec<Seed> = players
            .iter()
            .map(|p| Seed {
                rating: p.rating,
                name: &p.name,
                id: &p.order_key,
            })
            .collect();
        return Ok(initial_order(&seeds));
    }
    if let Some(p) = players.iter().find(|p| p.initial_order.is_none()) {
        return Err(RowsError {
            class: ErrorClass::NullValue,
            message: format!(
                "player {} has no initial order (NULL) while others have one: give it to every player or to none",
                Quoted(&p.id)
            ),
        });
    }
    let mut order: Vec<PlayerNo> = (0..players.len() as PlayerNo).collect();
    order.sort_by_key(|&i| players[i as usize].initial_order);
    if let Some(w) = order
        .windows(2)
        .find(|w| players[w[0] as usize].initial_order == players[w[1] as usize].initial_order)
    {
        return Err(RowsError::invalid(format!(
            "players {} and {} have the same initial order {}",
            Quoted(&players[w[0] as usize].id),
            Quoted(&players[w[1] as usize].id),
            players[w[0] as usize].initial_order.unwrap_or_default()
        )));
    }
    Ok(order)
}

impl RowTournament {
    /// The tournament of `rounds` rounds that `players` and `games` describe: 22023 for a
    /// player id twice, a game naming no player, a round outside 1..=rounds, a result that does
    /// not fit its row (a bye between two players, a drawn forfeit); 23514 for a player with two
    /// entries in a round.
    pub fn read(
        players: &[RowPlayer],
        games: &[RowGame],
        rounds: i64,
    ) -> Result<RowTournament, RowsError> {
        let rounds = u32::try_from(rounds)
            .ok()
            .filter(|&r| r >= 1)
            .ok_or_else(|| {
                RowsError::invalid(format!(
                    "a tournament needs at least one round, not {rounds}"
                ))
            })?;
        let order = order_of(players)?;
        let mut numbers = HashMap::with_capacity(players.len());
        for (no, &i) in order.iter().enumerate() {
            if no % 1024 == 0 {
                crate::interrupt::check();
            }
            let id = &players[i as usize].id;
            if numbers.insert(id.clone(), no as PlayerNo).is_some() {
                return Err(RowsError::invalid(format!(
                    "player id {} appears twice in the players",
                    Quoted(id)
                )));
            }
        }
        let ratings = order.iter().map(|&i| players[i as usize].rating).collect();
        let tournament = Tournament::new(rounds, ratings).map_err(|e| RowsError {
            class: e.class(),
            message: e.message,
        })?;
        let mut rt = RowTournament {
            tournament,
            ids: order
                .iter()
                .map(|&i| players[i as usize].id.clone())
                .collect(),
            withdrawn: order
                .iter()
                .enumerate()
                .filter(|&(_, &i)| players[i as usize].withdrawn)
                .map(|(no, _)| no as PlayerNo)
                .collect(),
            numbers,
            pending: None,
            pending_round: 0,
        };
        for (k, g) in games.iter().enumerate() {
            if k % 1024 == 0 {
                crate::interrupt::check();
            }
            rt.add(g)?;
        }
        Ok(rt)
    }

    /// The pairing number of an application's id.
    pub fn number(&self, id: &str) -> Option<PlayerNo> {
        self.numbers.get(id).copied()
    }

    fn player(&self, id: &str, what: &str, g: &RowGame) -> Result<PlayerNo, RowsError> {
        self.number(id).ok_or_else(|| {
            RowsError::invalid(format!(
                "a game of round {} names {what} {}, who is not in the players",
                g.round,
                Quoted(id)
            ))
        })
    }

    fn add(&mut self, g: &RowGame) -> Result<(), RowsError> {
        let round = u32::try_from(g.round)
            .ok()
            .filter(|r| (1..=self.tournament.round_count()).contains(r))
            .ok_or_else(|| {
                RowsError::invalid(format!(
                    "a game of {} is in round {}, not in 1 to {}",
                    Quoted(&g.white),
                    g.round,
                    self.tournament.round_count()
                ))
            })?;
        let white = self.player(&g.white, "White", g)?;
        let free = |t: &Tournament, p: PlayerNo, id: &str| {
            if t.card(p)[round as usize - 1] == RoundEntry::Absent {
                Ok(())
            } else {
                Err(RowsError {
                    class: ErrorClass::RuleViolation,
                    message: format!(
                        "player {} has two games or byes in round {round}",
                        Quoted(id)
                    ),
                })
            }
        };
        free(&self.tournament, white, &g.white)?;
        let Some(black_id) = &g.black else {
            let kind = match g.result {
                RowResult::Bye(kind) => kind,
                RowResult::White(half) => ByeKind::worth(half).map_err(|e| RowsError {
                    class: e.class(),
                    message: e.message,
                })?,
                other => {
                    return Err(RowsError::invalid(format!(
                        "the bye of {} in round {round} has the result {}: a bye is worth 1, 0.5 or 0 points",
                        Quoted(&g.white),
                        describe(other)
                    )))
                }
            };
            return self
                .tournament
                .add_bye(round, white, kind)
                .map_err(|e| RowsError::invalid(e.message));
        };
        let black = self.player(black_id, "Black", g)?;
        if white == black {
            return Err(RowsError::invalid(format!(
                "a game of round {round} pairs {} with themselves",
                Quoted(black_id)
            )));
        }
        free(&self.tournament, black, black_id)?;
        let (outcome, kind) = match (g.result, g.forfeit) {
            (RowResult::Pending, _) => {
                if self.pending.is_none() {
                    self.pending = Some((round, g.white.clone(), black_id.clone()));
                }
                self.pending_round = self.pending_round.max(round);
                return Ok(());
            }
            (RowResult::White(1), true) => {
                return Err(RowsError::invalid(format!(
                    "the game of {} and {} in round {round} is a forfeit and a draw: a forfeit has a winner",
                    Quoted(&g.white),
                    Quoted(black_id)
                )))
            }
            (RowResult::White(half), forfeit) => (
                [Outcome::Loss, Outcome::Draw, Outcome::Win][half.clamp(0, 2) as usize],
                if forfeit {
                    GameKind::Forfeit
                } else {
                    GameKind::Played
                },
            ),
            (RowResult::WhiteForfeitWin, _) => (Outcome::Win, GameKind::Forfeit),
            (RowResult::BlackForfeitWin, _) => (Outcome::Loss, GameKind::Forfeit),
            (RowResult::Bye(_), _) => {
                return Err(RowsError::invalid(format!(
                    "the game of {} and {} in round {round} has a bye's result: a bye has no Black",
                    Quoted(&g.white),
                    Quoted(black_id)
                )))
            }
        };
        self.tournament
            .add_game(round, white, black, outcome, kind)
            .map_err(|e| RowsError::invalid(e.message))
    }

    /// The round the next pairing is for: after the last round with a game, a forfeit or a
    /// pairing-allocated bye, or with a game still to be played.
    pub fn next_round(&self) -> u32 {
        round_to_pair(&self.tournament).max(self.pending_round + 1)
    }

    /// The pairing of the next round (`round`, when given, must be it: 55000 for a round
    /// already paired, 22023 for a later one); 55000 while a game has no result. Withdrawn
    /// players and players with a bye of the round already are not paired. `options` gives
    /// the arbiter's choices; its `absent` players are added to the withdrawn ones.
    pub fn pair(
        &self,
        round: Option<i64>,
        mut options: PairingOptions,
    ) -> Result<RowPairing, RowsError> {
        crate::tournament::arguments::check_round(round, self.next_round(), "")?;
        if let Some((r, w, b)) = &self.pending {
            return Err(RowsError {
                class: ErrorClass::PrerequisiteState,
                message: format!(
                    "round {r} is not over: the game of {} and {} has no result yet",
                    Quoted(w),
                    Quoted(b)
                ),
            });
        }
        options.absent.extend(&self.withdrawn);
        let pairing = pair_next_round(&self.tournament, &options).map_err(|e| RowsError {
            class: e.class(),
            message: e.message,
        })?;
        let id = |p: PlayerNo| self.ids[p as usize].clone();
        Ok(RowPairing {
            round: pairing.round,
            boards: pairing
                .boards
                .iter()
                .map(|&(w, b)| (id(w), id(b)))
                .collect(),
            bye: pairing.bye.map(id),
        })
    }
}

fn describe(r: RowResult) -> &'static str {
    match r {
        RowResult::WhiteForfeitWin => "+- (a forfeit)",
        RowResult::BlackForfeitWin => "-+ (a forfeit)",
        RowResult::Pending => "pending",
        _ => "of a game",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::pairing::pair_trf;
    use crate::tournament::trf_read::read_trf16;

    fn player(id: &str, rating: i32) -> RowPlayer {
        RowPlayer {
            id: id.into(),
            order_key: id.into(),
            rating: Some(rating),
            name: String::new(),
            initial_order: None,
            withdrawn: false,
        }
    }

    fn game(round: i64, white: &str, black: Option<&str>, result: RowResult) -> RowGame {
        RowGame {
            round,
            white: white.into(),
            black: black.map(Into::into),
            result,
            forfeit: false,
        }
    }

    fn six() -> Vec<RowPlayer> {
        ["a", "b", "c", "d", "e", "f"]
            .iter()
            .enumerate()
            .map(|(i, id)| player(id, 2000 - 100 * i as i32))
            .collect()
    }

    fn boards(p: &RowPairing) -> Vec<(&str, &str)> {
        p.boards
            .iter()
            .map(|(w, b)| (w.as_str(), b.as_str()))
            .collect()
    }

    #[test]
    fn round_one_pairs_top_half_against_bottom_half_by_id() {
        let t = RowTournament::read(&six(), &[], 3).unwrap();
        let p = t.pair(None, PairingOptions::default()).unwrap();
        assert_eq!(p.round, 1);
        assert_eq!(boards(&p), [("a", "d"), ("e", "b"), ("c", "f")]);
        assert_eq!(p.bye, None);
        // the app's own starting ranks win over ratings
        let mut players = six();
        for (i, p) in players.iter_mut().enumerate() {
            p.initial_order = Some(10 - i as i64);
        }
        let t = RowTournament::read(&players, &[], 3).unwrap();
        let p = t.pair(Some(1), PairingOptions::default()).unwrap();
        assert_eq!(boards(&p), [("f", "c"), ("b", "e"), ("d", "a")]);
    }

    /// The same tournament as TRF-16 and as rows pairs the same (round 2 after a forfeit, a draw
    /// and a bye, with a withdrawn player and a requested half-point bye).
    #[test]
    fn rows_pair_as_the_equivalent_trf() {
        let mut players = six();
        players.push(player("g", 1300));
        let mut games = vec![
            game(1, "a", Some("e"), RowResult::White(2)),
            game(1, "f", Some("b"), RowResult::BlackForfeitWin),
            game(1, "c", Some("g"), RowResult::White(1)),
            game(1, "d", None, RowResult::White(2)),
            game(2, "b", None, RowResult::Bye(ByeKind::Half)),
        ];
        games[1].forfeit = true;
        players[4].withdrawn = true;
        let t = RowTournament::read(&players, &games, 5).unwrap();
        let rows = t.pair(None, PairingOptions::default()).unwrap();
        let line = |rank: usize, rating: i32, r1: &str, r2: &str| {
            format!(
                "001 {rank:>4}      P{rank:<32} {rating:>4}{:39}{r1}  {r2}",
                ""
            )
        };
        let trf = [
            line(1, 2000, "   5 w 1", ""),
            line(2, 1900, "   6 b +", "0000 - H"),
            line(3, 1800, "   7 w =", ""),
            line(4, 1700, "0000 - U", ""),
            line(5, 1600, "   1 b 0", "0000 - Z"),
            line(6, 1500, "   2 w -", ""),
            line(7, 1300, "   3 b =", ""),
            "XXR 5".to_string(),
        ]
        .join("\n");
        let read = read_trf16(&trf).unwrap();
        let from_trf = pair_trf(&read).unwrap();
        let ids = ["a", "b", "c", "d", "e", "f", "g"];
        let expected: Vec<(&str, &str)> = from_trf
            .boards
            .iter()
            .map(|&(w, b)| (ids[w as usize], ids[b as usize]))
            .collect();
        assert_eq!(rows.round, 2);
        assert_eq!(boards(&rows), [("g", "a"), ("d", "c")]);
        assert_eq!(boards(&rows), expected);
        assert_eq!(rows.bye.as_deref(), from_trf.bye.map(|p| ids[p as usize]));
        assert!(!boards(&rows).iter().any(|&(w, b)| [w, b].contains(&"e")));
    }

    #[test]
    fn a_game_without_result_holds_the_next_round() {
        let games = [
            game(1, "a", Some("d"), RowResult::White(2)),
            game(1, "e", Some("b"), RowResult::Pending),
            game(1, "c", Some("f"), RowResult::White(0)),
        ];
        let t = RowTournament::read(&six(), &games, 3).unwrap();
        assert_eq!(t.next_round(), 2);
        let e = t.pair(None, PairingOptions::default()).unwrap_err();
        assert_eq!(e.class, ErrorClass::PrerequisiteState);
        assert_eq!(
            e.message,
            "round 1 is not over: the game of \"e\" and \"b\" has no result yet"
        );
        let e = t.pair(Some(1), PairingOptions::default()).unwrap_err();
        assert_eq!(e.message, "round 1 is already paired: its games exist");
        let e = t.pair(Some(3), PairingOptions::default()).unwrap_err();
        assert_eq!(
            (e.class, e.message.as_str()),
            (
                ErrorClass::InvalidParameter,
                "round 3 cannot be paired before round 2"
            )
        );
    }

    #[test]
    fn rows_that_say_nothing_sensible_are_errors() {
        let err = |players: &[RowPlayer], games: &[RowGame]| {
            let e = RowTournament::read(players, games, 3).unwrap_err();
            (e.class, e.message)
        };
        let mut twice = six();
        twice[1].id = "a".into();
        assert_eq!(
            err(&twice, &[]),
            (
                ErrorClass::InvalidParameter,
                "player id \"a\" appears twice in the players".into()
            )
        );
        let unknown = [game(1, "a", Some("z"), RowResult::White(2))];
        assert_eq!(
            err(&six(), &unknown).1,
            "a game of round 1 names Black \"z\", who is not in the players"
        );
        let late = [game(4, "a", Some("b"), RowResult::White(2))];
        assert_eq!(
            err(&six(), &late).1,
            "a game of \"a\" is in round 4, not in 1 to 3"
        );
        let two = [
            game(1, "a", Some("b"), RowResult::White(2)),
            game(1, "c", Some("a"), RowResult::White(2)),
        ];
        assert_eq!(
            err(&six(), &two),
            (
                ErrorClass::RuleViolation,
                "player \"a\" has two games or byes in round 1".into()
            )
        );
        let mut drawn = game(1, "a", Some("b"), RowResult::White(1));
        drawn.forfeit = true;
        assert_eq!(err(&six(), &[drawn]).0, ErrorClass::InvalidParameter);
        let bye = [game(1, "a", Some("b"), RowResult::Bye(ByeKind::Full))];
        assert_eq!(err(&six(), &bye).0, ErrorClass::InvalidParameter);
        let forfeit_bye = [game(1, "a", None, RowResult::WhiteForfeitWin)];
        assert_eq!(err(&six(), &forfeit_bye).0, ErrorClass::InvalidParameter);
        let mut some_orders = six();
        some_orders[0].initial_order = Some(1);
        assert_eq!(err(&some_orders, &[]).0, ErrorClass::NullValue);
        let mut same_orders = six();
        for p in &mut same_orders {
            p.initial_order = Some(1);
        }
        assert_eq!(err(&same_orders, &[]).0, ErrorClass::InvalidParameter);
        assert_eq!(
            RowTournament::read(&six(), &[], 0).unwrap_err().message,
            "a tournament needs at least one round, not 0"
        );
    }

    #[test]
    fn result_values_and_meanings() {
        assert_eq!(RowResult::standard("1-0"), Some(RowResult::White(2)));
        assert_eq!(RowResult::standard("½-½"), Some(RowResult::White(1)));
        assert_eq!(RowResult::standard("-+"), Some(RowResult::BlackForfeitWin));
        assert_eq!(RowResult::standard("1:0"), None);
        assert_eq!(RowResult::score(0.5), Some(RowResult::White(1)));
        assert_eq!(RowResult::score(0.25), None);
        assert_eq!(
            RowResult::named("half_bye"),
            Some(RowResult::Bye(ByeKind::Half))
        );
        assert_eq!(RowResult::named("pending"), Some(RowResult::Pending));
        assert_eq!(RowResult::named("1-0"), None);
    }
}
