//! Games of more than two players (free-for-all), ranked by placement (lower is better; equal
//! placements tie). Two rules: `Period` rates each player in one Glicko-2 period against every
//! other player's rating before the game (`glicko2::multiplayer`); `Pairwise` treats each pair as
//! a two-player game from the ratings before the game and averages each player's pairwise
//! results (rating, RD and volatility), the rule of meeple.cat's design (seed 003, section 8.3).
//! A player's score is the share of pairwise results won (½ a tie): 1 is a win, 0 a loss, any
//! other share a draw in the record.

use std::collections::HashMap;

use super::replay::{at_game, Entry};
use super::rules::LedgerRules;
use super::standing::{SeasonEnd, Standing};
use super::LedgerKey;
use crate::rating::system::{stored, PlayerState, RatingSystem};
use crate::rating::{glicko2, RatingError};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MultiplayerRule {
    Period,
    Pairwise,
}

impl MultiplayerRule {
    pub fn parse(name: &str) -> Result<Self, RatingError> {
        match name {
            "period" => Ok(MultiplayerRule::Period),
            "pairwise" => Ok(MultiplayerRule::Pairwise),
            other => Err(RatingError::invalid(format!(
                "unknown multiplayer rule \"{other}\" (period or pairwise)"
            ))),
        }
    }

    /// The rule's name, as [`Self::parse`] reads it.
    pub fn name(self) -> &'static str {
        match self {
            MultiplayerRule::Period => "period",
            MultiplayerRule::Pairwise => "pairwise",
        }
    }

    /// 22023 for the period rule in ledger `ledger` of a rating system (`system`) other than
    /// Glicko-2, whose rating periods it rates.
    pub fn check_system(self, ledger: &str, system: &str) -> Result<(), RatingError> {
        if self == MultiplayerRule::Period && system != "glicko2" {
            return Err(RatingError::invalid(format!(
                "the period rule is for Glicko-2 ledgers; ledger \"{ledger}\" is {system}"
            )));
        }
        Ok(())
    }
}

/// A game of two or more players: each one's placement.
#[derive(Clone, Debug, PartialEq)]
pub struct MultiGame {
    pub key: LedgerKey,
    pub places: Vec<(String, f64)>,
}

/// The games of participant rows (key, player, placement; `None`: not rated yet): each game with
/// two rated participants or more (one with fewer is not rated yet), sorted by key, its players
/// by name. The participants of one game share its date: rows of one game id with different
/// dates are an error (22023), since no one date could order it.
pub fn games_of_participants<'a>(
    rows: impl IntoIterator<Item = (&'a LedgerKey, &'a str, Option<f64>)>,
) -> Result<Vec<MultiGame>, RatingError> {
    let mut by_key: std::collections::BTreeMap<&LedgerKey, Vec<(String, f64)>> = Default::default();
    let mut dates: HashMap<&str, i64> = HashMap::new();
    for (key, player, place) in rows {
        crate::interrupt::check();
        if dates.insert(&key.id, key.at).is_some_and(|at| at != key.at) {
            let game = super::integer_key_id(&key.id).map_or_else(
                || crate::error::Quoted(&key.id).to_string(),
                |n| n.to_string(),
            );
            return Err(RatingError::invalid(format!(
                "the participants of game {game} have different dates: give every participant of a \
                 game its date, in one statement"
            )));
        }
        if let Some(place) = place {
            by_key
                .entry(key)
                .or_default()
                .push((player.to_owned(), place));
        }
    }
    Ok(by_key
        .into_iter()
        .filter(|(_, places)| places.len() >= 2)
        .map(|(key, mut places)| {
            places.sort_by(|a, b| a.0.cmp(&b.0));
            MultiGame {
                key: key.clone(),
                places,
            }
        })
        .collect())
}

/// 1 for a better (lower) placement, ½ for the same, 0 for a worse one.
fn pairwise_score(mine: f64, theirs: f64) -> f64 {
    if mine < theirs {
        1.0
    } else if mine == theirs {
        0.5
    } else {
        0.0
    }
}

/// The most players one multiplayer game may have. A game's work and entries grow with the
/// square of its players (each is rated against every other, and each entry names its
/// opponents): 1,000 players make a million pairs and about ten megabytes of entries.
pub const MAX_PLAYERS: usize = 1_000;

/// Each player's state after the game, by the rule.
fn rate(
    rules: &LedgerRules,
    rule: MultiplayerRule,
    before: &[Standing],
    places: &[f64],
    at: i64,
) -> Result<Vec<PlayerState>, RatingError> {
    let system = &rules.system;
    match (rule, system) {
        (MultiplayerRule::Period, RatingSystem::Glicko2 { tau, bounds, .. }) => {
            let ratings = before
                .iter()
                .map(|s| {
                    system
                        .glicko_at(&s.state, at)
                        .map(|r| r.unwrap_or(glicko2::Rating::DEFAULT))
                })
                .collect::<Result<Vec<_>, _>>()?;
            let rated = glicko2::multiplayer(&ratings, places, *tau, bounds)?;
            Ok(rated
                .into_iter()
                .map(|r| RatingSystem::after_glicko(r, at))
                .collect())
        }
        (MultiplayerRule::Period, _) => Err(RatingError::invalid(
            "the period rule of multiplayer games is for Glicko-2 ledgers (use pairwise)",
        )),
        (MultiplayerRule::Pairwise, _) => {
            let n = before.len();
            let mut out = Vec::with_capacity(n);
            for i in 0..n {
                crate::interrupt::check();
                let (mut rating, mut rd, mut volatility) = (0.0, 0.0, 0.0);
                for j in (0..n).filter(|&j| j != i) {
                    let mine = system.rate_player(
                        &before[i].state,
                        before[i].games,
                        before[i].peak,
                        &before[j].state,
                        pairwise_score(places[i], places[j]),
                        at,
                    )?;
                    rating += mine.rating;
                    rd += mine.rd.unwrap_or(0.0);
                    volatility += mine.volatility.unwrap_or(0.0);
                }
                let pairs = (n - 1) as f64;
                let glicko = before[i].state.rd.is_some();
                out.push(PlayerState {
                    rating: stored(rating / pairs),
                    rd: glicko.then(|| stored(rd / pairs)),
                    volatility: glicko.then(|| stored(volatility / pairs)),
                    last_played: Some(at),
                });
            }
            Ok(out)
        }
    }
}

/// Rates multiplayer `games` (sorted by key) one after another, like [`super::replay`]: one
/// entry per player per game, in the order of the game's players.
pub fn replay_multiplayer(
    rules: &LedgerRules,
    rule: MultiplayerRule,
    standings: &mut HashMap<String, Standing>,
    games: &[MultiGame],
) -> Result<Vec<Entry>, RatingError> {
    replay_multiplayer_seasons(rules, rule, &[], standings, games)
}

/// [`replay_multiplayer`] with season ends (sorted), as [`super::replay_seasons`].
pub fn replay_multiplayer_seasons(
    rules: &LedgerRules,
    rule: MultiplayerRule,
    seasons: &[SeasonEnd],
    standings: &mut HashMap<String, Standing>,
    games: &[MultiGame],
) -> Result<Vec<Entry>, RatingError> {
    let mut entries = Vec::new();
    let mut previous: Option<&LedgerKey> = None;
    for game in games {
        // a replay of a whole history (a rebuild, ledger_what_if) can be cancelled
        crate::interrupt::check();
        if previous.is_some_and(|p| p >= &game.key) {
            return Err(at_game(
                RatingError::invalid("games must be replayed in (date, key) order"),
                &game.key,
            ));
        }
        previous = Some(&game.key);
        let n = game.places.len();
        if n < 2 {
            return Err(at_game(
                RatingError::invalid("a game needs two players or more"),
                &game.key,
            ));
        }
        if n > MAX_PLAYERS {
            return Err(at_game(
                RatingError::limit(format!(
                    "a game of {n} players: a multiplayer game has at most {MAX_PLAYERS}"
                )),
                &game.key,
            ));
        }
        for (i, (p, place)) in game.places.iter().enumerate() {
            if game.places[..i].iter().any(|(q, _)| q == p) {
                return Err(at_game(
                    RatingError::invalid(format!("{p} takes part twice")),
                    &game.key,
                ));
            }
            if !place.is_finite() {
                return Err(at_game(
                    RatingError::out_of_range(format!("{p}'s placement must be finite")),
                    &game.key,
                ));
            }
        }
        let before: Vec<Standing> = game
            .places
            .iter()
            .map(|(p, _)| {
                standings
                    .entry(p.clone())
                    .or_insert_with(|| Standing::start(&rules.system))
                    .as_of(&rules.system, seasons, game.key.at)
            })
            .collect();
        let places: Vec<f64> = game.places.iter().map(|(_, place)| *place).collect();
        let states =
            rate(rules, rule, &before, &places, game.key.at).map_err(|e| at_game(e, &game.key))?;
        for (i, (player, _)) in game.places.iter().enumerate() {
            crate::interrupt::check();
            let others: Vec<usize> = (0..n).filter(|&j| j != i).collect();
            let score = others
                .iter()
                .map(|&j| pairwise_score(places[i], places[j]))
                .sum::<f64>()
                / others.len() as f64;
            let mut expected = 0.0;
            for &j in &others {
                expected += rules
                    .system
                    .expected(&before[i].state, &before[j].state)
                    .map_err(|e| at_game(e, &game.key))?;
            }
            expected /= others.len() as f64;
            let opponents =
                others.iter().map(|&j| before[j].state.rating).sum::<f64>() / others.len() as f64;
            let used = rules.period_used(&before[i], game.key.at);
            let state = rules
                .limit(player, &before[i].state, states[i], used)
                .map_err(|e| at_game(e, &game.key))?;
            let after =
                rules.with_period_moved(&before[i], used, before[i].after(state, score, opponents));
            entries.push(Entry {
                key: game.key.clone(),
                player: player.clone(),
                opponent: others
                    .iter()
                    .map(|&j| game.places[j].0.as_str())
                    .collect::<Vec<_>>()
                    .join(","),
                score,
                expected,
                before: before[i],
                after,
            });
            standings.insert(player.clone(), after);
        }
    }
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{Classified, ErrorClass};
    use crate::ledger::{Limits, Provisional};
    use crate::rating::glicko2::{Bounds, Rating};

    #[test]
    fn a_games_participants_share_its_date() {
        let (a, b) = (
            LedgerKey {
                at: 1,
                id: "g1".into(),
            },
            LedgerKey {
                at: 2,
                id: "g1".into(),
            },
        );
        let rows = [(&a, "x", Some(1.0)), (&a, "y", Some(2.0)), (&a, "z", None)];
        let games = games_of_participants(rows).unwrap();
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].places, vec![("x".into(), 1.0), ("y".into(), 2.0)]);
        let err = games_of_participants([(&a, "x", Some(1.0)), (&b, "y", Some(2.0))]).unwrap_err();
        assert!(err.to_string().contains("different dates"), "{err}");
    }

    fn glicko() -> LedgerRules {
        LedgerRules {
            system: RatingSystem::Glicko2 {
                starting: Rating::new(1500.0, 350.0, 0.06),
                tau: 0.5,
                rule: crate::rating::glicko2::GameRule::Lichess,
                period_micros: None,
                bounds: Bounds::NONE,
            },
            limits: Limits::default(),
            provisional: Provisional::default(),
        }
    }

    fn game(id: &str, places: &[(&str, f64)]) -> MultiGame {
        MultiGame {
            key: LedgerKey {
                at: 1,
                id: id.into(),
            },
            places: places.iter().map(|(p, x)| (p.to_string(), *x)).collect(),
        }
    }

    #[test]
    fn pairwise_averages_the_two_player_updates() {
        let rules = glicko();
        let entries = replay_multiplayer(
            &rules,
            MultiplayerRule::Pairwise,
            &mut HashMap::new(),
            &[game("g", &[("a", 1.0), ("b", 2.0), ("c", 3.0)])],
        )
        .unwrap();
        // a beat b and c: the mean of two two-player wins from the start
        let start = rules.system.start();
        let (win, _) = rules.system.rate(&start, &start, 1.0, 1).unwrap();
        let (loss, _) = rules.system.rate(&start, &start, 0.0, 1).unwrap();
        assert_eq!(entries[0].after.state.rating, win.rating);
        assert_eq!(entries[2].after.state.rating, loss.rating);
        let (draw_b_won, _) = (win.rating + loss.rating, 0);
        assert!((entries[1].after.state.rating - stored(draw_b_won / 2.0)).abs() < 1e-9);
        assert_eq!(
            (entries[0].score, entries[1].score, entries[2].score),
            (1.0, 0.5, 0.0)
        );
        assert_eq!(
            (
                entries[0].after.wins,
                entries[1].after.draws,
                entries[2].after.losses
            ),
            (1, 1, 1)
        );
        assert_eq!(entries[0].opponent, "b,c");
    }

    #[test]
    fn the_period_rule_is_glicko2_multiplayer() {
        let rules = glicko();
        let places = [("a", 2.0), ("b", 1.0), ("c", 2.0), ("d", 4.0)];
        let entries = replay_multiplayer(
            &rules,
            MultiplayerRule::Period,
            &mut HashMap::new(),
            &[game("g", &places)],
        )
        .unwrap();
        let start = [Rating::new(1500.0, 350.0, 0.06); 4];
        let want = glicko2::multiplayer(&start, &[2.0, 1.0, 2.0, 4.0], 0.5, &Bounds::NONE).unwrap();
        for (e, w) in entries.iter().zip(&want) {
            assert_eq!(e.after.state.rating, stored(w.rating));
            assert_eq!(e.after.state.rd, Some(stored(w.rd)));
        }
        let elo = LedgerRules {
            system: RatingSystem::Elo {
                starting: 1500.0,
                k: 20.0,
            },
            ..rules
        };
        assert!(replay_multiplayer(
            &elo,
            MultiplayerRule::Period,
            &mut HashMap::new(),
            &[game("g", &places)]
        )
        .is_err());
    }

    #[test]
    fn a_game_of_more_players_than_the_limit_is_an_error_of_its_class() {
        let names: Vec<String> = (0..=MAX_PLAYERS).map(|i| format!("p{i}")).collect();
        let places: Vec<(&str, f64)> = names
            .iter()
            .enumerate()
            .map(|(i, n)| (n.as_str(), i as f64))
            .collect();
        let rules = glicko();
        let run = |places: &[(&str, f64)]| {
            replay_multiplayer(
                &rules,
                MultiplayerRule::Pairwise,
                &mut HashMap::new(),
                &[game("g", places)],
            )
        };
        let e = run(&places).unwrap_err();
        assert_eq!(e.class(), ErrorClass::ProgramLimit);
        assert!(e.to_string().contains("1001 players"), "{e}");
        let entries = run(&places[..MAX_PLAYERS]).unwrap();
        assert_eq!(entries.len(), MAX_PLAYERS);
    }

    #[test]
    fn bad_games_are_errors() {
        let rules = glicko();
        let r = |g: MultiGame| {
            replay_multiplayer(&rules, MultiplayerRule::Pairwise, &mut HashMap::new(), &[g])
        };
        assert!(r(game("g", &[("a", 1.0)]))
            .unwrap_err()
            .message
            .contains("two players or more"));
        assert!(r(game("g", &[("a", 1.0), ("a", 2.0)]))
            .unwrap_err()
            .message
            .contains("takes part twice"));
        assert!(r(game("g", &[("a", 1.0), ("b", f64::NAN)])).is_err());
        assert!(MultiplayerRule::parse("elo").is_err());
    }

    #[test]
    fn a_rule_has_a_name_and_the_period_rule_needs_glicko2() {
        for rule in [MultiplayerRule::Period, MultiplayerRule::Pairwise] {
            assert_eq!(MultiplayerRule::parse(rule.name()), Ok(rule));
            assert!(rule.check_system("l", "glicko2").is_ok());
        }
        assert!(MultiplayerRule::Pairwise.check_system("l", "elo").is_ok());
        let e = MultiplayerRule::Period
            .check_system("l", "elo")
            .unwrap_err();
        assert_eq!(
            e.message,
            "the period rule is for Glicko-2 ledgers; ledger \"l\" is elo"
        );
    }
}
