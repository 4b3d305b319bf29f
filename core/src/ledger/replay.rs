//! Replaying a ledger's games: every rating a ledger holds is computed here, whether a game is
//! appended, a backdated or corrected game makes the games after it be replayed, or the whole
//! ledger is rebuilt.

use std::collections::HashMap;

use super::rules::LedgerRules;
use super::standing::{SeasonEnd, Standing};
use super::LedgerKey;
use crate::rating::system::RatingSystem;
use crate::rating::RatingError;

/// How a rated game ended. Games that are not rated (a bye) never reach the ledger.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Outcome {
    /// White's score in [0, 1] (black's is 1 − it).
    White(f64),
    /// Both players lose (a double forfeit, "0–0").
    DoubleLoss,
}

#[derive(Clone, Debug, PartialEq)]
pub struct LedgerGame {
    pub key: LedgerKey,
    pub white: String,
    pub black: String,
    pub outcome: Outcome,
}

/// One player's line of one game.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub key: LedgerKey,
    pub player: String,
    pub opponent: String,
    pub score: f64,
    /// The score the player was expected to make, from both ratings before the game.
    pub expected: f64,
    pub before: Standing,
    pub after: Standing,
}

/// An [`Entry`] as a replay makes it, its key and names borrowed from its game (a checked rebuild
/// digests two million of them: no copies of names).
#[derive(Clone, Copy, Debug)]
pub struct EntryRef<'a> {
    pub key: &'a LedgerKey,
    pub player: &'a str,
    pub opponent: &'a str,
    pub score: f64,
    pub expected: f64,
    pub before: Standing,
    pub after: Standing,
}

impl EntryRef<'_> {
    pub fn to_entry(&self) -> Entry {
        Entry {
            key: self.key.clone(),
            player: self.player.to_owned(),
            opponent: self.opponent.to_owned(),
            score: self.score,
            expected: self.expected,
            before: self.before,
            after: self.after,
        }
    }
}

impl Entry {
    pub fn as_ref(&self) -> EntryRef<'_> {
        EntryRef {
            key: &self.key,
            player: &self.player,
            opponent: &self.opponent,
            score: self.score,
            expected: self.expected,
            before: self.before,
            after: self.after,
        }
    }
}

/// Names the game an error is about (the glue turns the key into the games table's own with
/// [`rename_game`]).
pub(super) fn at_game(e: RatingError, key: &LedgerKey) -> RatingError {
    RatingError {
        kind: e.kind,
        message: format!("game {}: {}", key.id, e.message),
    }
}

/// An error of a replay with its game named by `name(key)` instead of the ledger key
/// [`at_game`] wrote; an error about no game is left as it is.
pub fn rename_game(e: RatingError, name: impl FnOnce(&str) -> String) -> RatingError {
    match e
        .message
        .strip_prefix("game ")
        .and_then(|m| m.split_once(": "))
    {
        Some((key, rest)) => RatingError {
            kind: e.kind,
            message: format!("game {}: {rest}", name(key)),
        },
        None => e,
    }
}

/// Rates `games` (sorted by key) one after another. `standings` holds each player's standing
/// before the first game (players missing from it start afresh) and is left holding the
/// standings after the last. Returns two entries per game, white's first.
pub fn replay(
    rules: &LedgerRules,
    standings: &mut HashMap<String, Standing>,
    games: &[LedgerGame],
) -> Result<Vec<Entry>, RatingError> {
    replay_seasons(rules, &[], standings, games)
}

/// [`replay`] with season ends (sorted): a player's standing before a game has the resets of
/// the seasons that ended since the player's last game.
pub fn replay_seasons(
    rules: &LedgerRules,
    seasons: &[SeasonEnd],
    standings: &mut HashMap<String, Standing>,
    games: &[LedgerGame],
) -> Result<Vec<Entry>, RatingError> {
    let mut entries = Vec::with_capacity(2 * games.len());
    replay_seasons_into(rules, seasons, standings, games, |e| {
        entries.push(e.to_entry())
    })?;
    Ok(entries)
}

/// [`replay_seasons`] handing each entry to `emit` as it is made, none kept (a checked rebuild
/// digests two million entries, which as a list would take 640 MB).
pub fn replay_seasons_into<'g>(
    rules: &LedgerRules,
    seasons: &[SeasonEnd],
    standings: &mut HashMap<String, Standing>,
    games: &'g [LedgerGame],
    mut emit: impl FnMut(EntryRef<'g>),
) -> Result<(), RatingError> {
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
        if game.white == game.black {
            return Err(at_game(
                RatingError::invalid(format!("{} cannot play against themselves", game.white)),
                &game.key,
            ));
        }
        let (white_score, black_score) = match game.outcome {
            Outcome::White(s) if (0.0..=1.0).contains(&s) => (s, 1.0 - s),
            Outcome::White(s) => {
                return Err(at_game(
                    RatingError::out_of_range(format!("a score must be in [0, 1], got {s}")),
                    &game.key,
                ))
            }
            Outcome::DoubleLoss => (0.0, 0.0),
        };
        let at = game.key.at;
        // (a player's name is copied into the map once, at the first game: a rebuild looks up two
        // million standings)
        for p in [&game.white, &game.black] {
            if !standings.contains_key(p) {
                standings.insert(p.clone(), Standing::start(&rules.system));
            }
        }
        let [Some(white_now), Some(black_now)] =
            standings.get_disjoint_mut([game.white.as_str(), game.black.as_str()])
        else {
            return Err(at_game(
                RatingError::invalid("a player's standing went missing"),
                &game.key,
            ));
        };
        let white = white_now.as_of(&rules.system, seasons, at);
        let black = black_now.as_of(&rules.system, seasons, at);
        let system = &rules.system;
        let (white_used, black_used) =
            (rules.period_used(&white, at), rules.period_used(&black, at));
        let rate = |a: &Standing, b: &Standing, score: f64, name: &str, used: f64| {
            let after =
                system.rate_player(&a.state, a.games, a.peak, &b.state, score, game.key.at)?;
            rules.limit(name, &a.state, after, used)
        };
        let (white_after, black_after) = match game.outcome {
            // Rated as one game (a zero-sum system stays zero-sum to the last bit); FIDE's K
            // depends on each player's own record.
            Outcome::White(s) if !matches!(system, RatingSystem::Fide { .. }) => system
                .rate(&white.state, &black.state, s, at)
                .and_then(|(w, b)| {
                    Ok((
                        rules.limit(&game.white, &white.state, w, white_used)?,
                        rules.limit(&game.black, &black.state, b, black_used)?,
                    ))
                }),
            _ => rate(&white, &black, white_score, &game.white, white_used).and_then(|w| {
                Ok((
                    w,
                    rate(&black, &white, black_score, &game.black, black_used)?,
                ))
            }),
        }
        .map_err(|e| at_game(e, &game.key))?;
        let expected = |a: &Standing, b: &Standing| {
            system
                .expected(&a.state, &b.state)
                .map_err(|e| at_game(e, &game.key))
        };
        let sides = [
            (
                &game.white,
                &game.black,
                white,
                black,
                white_after,
                white_score,
                white_used,
            ),
            (
                &game.black,
                &game.white,
                black,
                white,
                black_after,
                black_score,
                black_used,
            ),
        ];
        let mut afters = [white, black];
        for ((player, opponent, before, other, state, score, used), now) in
            sides.into_iter().zip(&mut afters)
        {
            let after = rules.with_period_moved(
                &before,
                used,
                before.after(state, score, other.state.rating),
            );
            emit(EntryRef {
                key: &game.key,
                player,
                opponent,
                score,
                expected: expected(&before, &other)?,
                before,
                after,
            });
            *now = after;
        }
        *white_now = afters[0];
        *black_now = afters[1];
    }
    Ok(())
}

/// True when `games` can be appended: every player's latest rated game (`latest`) comes before
/// that player's first new game, so no rated game needs recomputing.
pub fn appendable(latest: &HashMap<String, LedgerKey>, games: &[LedgerGame]) -> bool {
    let mut first_new: HashMap<&str, &LedgerKey> = HashMap::new();
    for g in games {
        for p in [&g.white, &g.black] {
            let first = first_new.entry(p.as_str()).or_insert(&g.key);
            if g.key < **first {
                *first = &g.key;
            }
        }
    }
    first_new
        .iter()
        .all(|(p, first)| latest.get(*p).is_none_or(|last| last < *first))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::ledger::{Limits, PeriodCap, Policy, Provisional};
    use crate::rating::system::RatingSystem;
    use crate::rating::{elo, glicko2};

    fn key(at: i64, id: &str) -> LedgerKey {
        LedgerKey { at, id: id.into() }
    }

    fn game(at: i64, w: &str, b: &str, outcome: Outcome) -> LedgerGame {
        LedgerGame {
            key: key(at, &format!("{at:04}")),
            white: w.into(),
            black: b.into(),
            outcome,
        }
    }

    /// Elo from 1500 with K 32, no limits: the ledgers' tests' rules (here and in `writer`).
    pub(crate) fn elo_rules() -> LedgerRules {
        LedgerRules {
            system: RatingSystem::Elo {
                starting: 1500.0,
                k: 32.0,
            },
            limits: Limits::default(),
            provisional: Provisional::default(),
        }
    }

    #[test]
    fn a_game_gives_both_players_an_entry_with_before_after_and_expectation() {
        let mut standings = HashMap::new();
        let entries = replay(
            &elo_rules(),
            &mut standings,
            &[game(1, "a", "b", Outcome::White(1.0))],
        )
        .unwrap();
        assert_eq!(entries.len(), 2);
        let (a, b) = (&entries[0], &entries[1]);
        assert_eq!(
            (a.player.as_str(), a.opponent.as_str(), a.score),
            ("a", "b", 1.0)
        );
        assert_eq!(
            (a.before.state.rating, a.after.state.rating),
            (1500.0, 1516.0)
        );
        assert_eq!(
            (b.before.state.rating, b.after.state.rating),
            (1500.0, 1484.0)
        );
        assert_eq!((a.expected, b.expected), (0.5, 0.5));
        assert_eq!(standings["a"], a.after);
    }

    fn fide_rules(starting: f64) -> LedgerRules {
        LedgerRules {
            system: RatingSystem::Fide { starting },
            limits: Limits::default(),
            provisional: Provisional::default(),
        }
    }

    #[test]
    fn fide_k_follows_each_players_record_and_pd_the_400_point_rule() {
        // FIDE Rating Regulations 8.3.3: K 40 before 30 games, 20 after, 10 once 2400 is reached.
        let rules = fide_rules(1500.0);
        let mut standings = HashMap::new();
        let first = replay(
            &rules,
            &mut standings,
            &[game(1, "new", "old", Outcome::White(1.0))],
        );
        let first = first.unwrap();
        // both new: K 40, PD 0.50 between equals
        assert_eq!(first[0].after.state.rating, 1520.0);
        assert_eq!(first[1].after.state.rating, 1480.0);
        assert_eq!(first[0].expected, 0.5);
        // "old" has 30 games: K 20 for it, still 40 for a newcomer
        let mut veteran = standings["old"];
        veteran.games = 30;
        standings.insert("old".into(), veteran);
        let second = replay(
            &rules,
            &mut standings,
            &[game(2, "old", "fresh", Outcome::White(0.5))],
        );
        let second = second.unwrap();
        // 1480 vs 1500: PD(20 points below) = 0.47 (FIDE's table), K 20 → +0.6; K 40 for "fresh" → -1.2
        assert!((second[0].after.state.rating - (1480.0 + 20.0 * (0.5 - 0.47))).abs() < 1e-9);
        assert!((second[1].after.state.rating - (1500.0 + 40.0 * (0.5 - 0.53))).abs() < 1e-9);
        // a peak of 2400 keeps K at 10 even below 2400; a 1,000-point gap counts as 400 (PD 0.92)
        let mut master = standings["old"];
        (master.games, master.peak, master.state.rating) = (100, 2410.0, 2390.0);
        standings.insert("old".into(), master);
        let third = replay(
            &rules,
            &mut standings,
            &[game(3, "old", "weak", Outcome::White(1.0))],
        );
        assert!(
            (third.unwrap()[0].after.state.rating - (2390.0 + 10.0 * (1.0 - 0.92))).abs() < 1e-9
        );
    }

    #[test]
    fn fide_rates_wins_draws_and_losses_only() {
        let e = replay(
            &fide_rules(1500.0),
            &mut HashMap::new(),
            &[game(1, "a", "b", Outcome::White(0.25))],
        )
        .unwrap_err();
        assert_eq!(e.kind, crate::rating::RatingErrorKind::InvalidParameter);
        assert!(e.message.contains("0, 0.5 or 1"), "{}", e.message);
    }

    #[test]
    fn a_double_loss_costs_both_players() {
        let entries = replay(
            &elo_rules(),
            &mut HashMap::new(),
            &[game(1, "a", "b", Outcome::DoubleLoss)],
        )
        .unwrap();
        assert_eq!(entries[0].after.state.rating, 1484.0);
        assert_eq!(entries[1].after.state.rating, 1484.0);
        assert_eq!((entries[0].after.losses, entries[1].after.losses), (1, 1));
    }

    #[test]
    fn replaying_from_a_saved_standing_equals_replaying_everything() {
        let games: Vec<LedgerGame> = (0..40)
            .map(|i| {
                let players = ["a", "b", "c", "d", "e"];
                let outcome = match i % 4 {
                    0 => Outcome::White(1.0),
                    1 => Outcome::White(0.5),
                    2 => Outcome::White(0.0),
                    _ => Outcome::DoubleLoss,
                };
                game(
                    i,
                    players[(i % 5) as usize],
                    players[((i * 3 + 1) % 5) as usize],
                    outcome,
                )
            })
            .filter(|g| g.white != g.black)
            .collect();
        let rules = LedgerRules {
            system: RatingSystem::Glicko2 {
                starting: glicko2::Rating::new(1500.0, 350.0, 0.06),
                tau: 0.5,
                rule: glicko2::GameRule::Lichess,
                period_micros: Some(3),
                bounds: glicko2::Bounds::NONE,
            },
            limits: Limits {
                max_change: Some(150.0),
                floor: Some(1300.0),
                ..Limits::default()
            },
            provisional: Provisional::default(),
        };
        let mut all = HashMap::new();
        let whole = replay(&rules, &mut all, &games).unwrap();
        let mut part = HashMap::new();
        let mut split = replay(&rules, &mut part, &games[..17]).unwrap();
        split.extend(replay(&rules, &mut part, &games[17..]).unwrap());
        assert_eq!(whole, split);
        assert_eq!(all, part);
        assert!(whole.iter().all(|e| e.after.state.rating >= 1300.0));
        assert!(whole
            .iter()
            .all(|e| (e.after.state.rating - e.before.state.rating).abs() <= 150.0));
    }

    #[test]
    fn elo_entries_follow_the_formula() {
        let mut standings = HashMap::new();
        standings.insert(
            "a".to_string(),
            Standing {
                state: crate::rating::PlayerState {
                    rating: 1613.0,
                    ..elo_rules().system.start()
                },
                ..Standing::start(&elo_rules().system)
            },
        );
        let entries = replay(
            &elo_rules(),
            &mut standings,
            &[game(1, "a", "b", Outcome::White(0.0))],
        )
        .unwrap();
        let e = elo::expected(1613.0, 1500.0).unwrap();
        assert!((entries[0].expected - e).abs() < 1e-12);
        assert!((entries[0].after.state.rating - (1613.0 - 32.0 * e)).abs() < 1e-9);
        assert_eq!(entries[0].before.peak, 1500.0);
    }

    #[test]
    fn bad_games_name_their_key() {
        let e = replay(
            &elo_rules(),
            &mut HashMap::new(),
            &[game(1, "a", "a", Outcome::White(1.0))],
        )
        .unwrap_err();
        assert!(
            e.message
                .starts_with("game 0001: a cannot play against themselves"),
            "{e}"
        );
        let e = replay(
            &elo_rules(),
            &mut HashMap::new(),
            &[game(1, "a", "b", Outcome::White(2.0))],
        )
        .unwrap_err();
        assert!(e.message.contains("a score must be in [0, 1]"), "{e}");
        let twice = [
            game(2, "a", "b", Outcome::White(1.0)),
            game(1, "a", "b", Outcome::White(1.0)),
        ];
        assert!(replay(&elo_rules(), &mut HashMap::new(), &twice).is_err());
    }

    #[test]
    fn only_games_after_every_players_latest_are_appendable() {
        let latest: HashMap<String, LedgerKey> = [("a".to_string(), key(10, "0010"))].into();
        assert!(appendable(
            &latest,
            &[game(11, "a", "b", Outcome::White(1.0))]
        ));
        assert!(!appendable(
            &latest,
            &[game(9, "a", "b", Outcome::White(1.0))]
        ));
        assert!(appendable(
            &latest,
            &[game(9, "b", "c", Outcome::White(1.0))]
        ));
    }

    #[test]
    fn an_error_names_its_game_as_the_glue_asks() {
        let e = at_game(
            RatingError::invalid("a cannot play against themselves"),
            &key(5, "k5"),
        );
        let named = rename_game(e, |k| format!("<{k}>"));
        assert_eq!(named.message, "game <k5>: a cannot play against themselves");
        let about_no_game = rename_game(
            RatingError::invalid("tau must be positive"),
            |_| unreachable!(),
        );
        assert_eq!(about_no_game.message, "tau must be positive");
    }

    /// Seed 000 §8.2: at most 100 points a game, 200 a period; Elo with K 300 (a win between
    /// equals is +150) and K 160, days as periods.
    fn capped(k: f64, policy: Policy, per_game: Option<f64>, per_day: Option<f64>) -> LedgerRules {
        LedgerRules {
            system: RatingSystem::Elo {
                starting: 1500.0,
                k,
            },
            limits: Limits {
                max_change: per_game,
                policy,
                per_period: per_day.map(|max| PeriodCap { max, micros: DAY }),
                ..Limits::default()
            },
            provisional: Provisional::default(),
        }
    }

    const DAY: i64 = 86_400_000_000;

    #[test]
    fn a_change_above_max_change_is_clamped_or_refused() {
        let games = [game(1, "a", "b", Outcome::White(1.0))];
        let clamped = replay(
            &capped(300.0, Policy::Clamp, Some(100.0), None),
            &mut HashMap::new(),
            &games,
        )
        .unwrap();
        assert_eq!(
            (clamped[0].after.state.rating, clamped[1].after.state.rating),
            (1600.0, 1400.0)
        );
        let mut standings = HashMap::new();
        let refused = replay(
            &capped(300.0, Policy::Reject, Some(100.0), None),
            &mut standings,
            &games,
        )
        .unwrap_err();
        assert_eq!(refused.kind, crate::rating::RatingErrorKind::RuleViolation);
        assert_eq!(
            refused.message,
            "game 0001: the rating change of player a, +150, is above max_change 100 (max_change_policy reject)"
        );
        // a change at the bound is allowed
        let at_bound = replay(
            &capped(200.0, Policy::Reject, Some(100.0), None),
            &mut HashMap::new(),
            &games,
        )
        .unwrap();
        assert_eq!(at_bound[0].after.state.rating, 1600.0);
    }

    /// a's games of day 0 against fresh opponents, then one on day 1.
    fn a_day_of_games() -> Vec<LedgerGame> {
        vec![
            game(1, "a", "b", Outcome::White(1.0)),
            game(2, "a", "c", Outcome::White(0.0)),
            game(3, "a", "d", Outcome::White(1.0)),
            game(4, "a", "e", Outcome::White(1.0)),
            game(DAY + 1, "a", "f", Outcome::White(1.0)),
        ]
    }

    #[test]
    fn the_cap_per_period_sums_absolute_changes_and_resets_with_the_period() {
        let rules = capped(160.0, Policy::Clamp, Some(100.0), Some(200.0));
        let mut standings = HashMap::new();
        let entries = replay(&rules, &mut standings, &a_day_of_games()).unwrap();
        let a: Vec<&Entry> = entries.iter().filter(|e| e.player == "a").collect();
        let change = |e: &Entry| e.after.state.rating - e.before.state.rating;
        // +80, then a loss at 1580 against 1500: 160 (0 − E), E = 1/(1 + 10^(−80/400))
        assert_eq!(change(a[0]), 80.0);
        let e = 1.0 / (1.0 + 10f64.powf(-80.0 / 400.0));
        assert!((change(a[1]) + 160.0 * e).abs() < 1e-9);
        let used = 80.0 + 160.0 * e;
        // the third game may move a by what is left of 200 only, the fourth not at all
        assert!((change(a[2]) - (200.0 - used)).abs() < 1e-9);
        assert!((a[2].after.period_moved - 200.0).abs() < 1e-9);
        assert_eq!(change(a[3]), 0.0);
        // a new day: the whole change again (1500 + 80 − 98.1 + 21.9 = 1503.8 against 1500)
        let r = a[3].after.state.rating;
        let full = 160.0 * (1.0 - 1.0 / (1.0 + 10f64.powf((1500.0 - r) / 400.0)));
        assert!((change(a[4]) - full).abs() < 1e-9);
        assert_eq!(a[4].after.period_moved, change(a[4]));
        // the opponents' own periods: each played once
        let b = entries.iter().find(|e| e.player == "b").unwrap();
        assert_eq!(b.after.period_moved, 80.0);
        // a replay from the third game, with the standings before it, comes out the same
        let mut before: HashMap<String, Standing> = HashMap::new();
        for e in entries.iter().take(4) {
            before.insert(e.player.clone(), e.after);
        }
        let rest = replay(&rules, &mut before, &a_day_of_games()[2..]).unwrap();
        assert_eq!(rest, entries[4..]);
    }

    #[test]
    fn the_cap_per_period_refuses_the_game_that_would_pass_it() {
        let rules = capped(160.0, Policy::Reject, Some(100.0), Some(200.0));
        let e = replay(&rules, &mut HashMap::new(), &a_day_of_games()).unwrap_err();
        assert_eq!(e.kind, crate::rating::RatingErrorKind::RuleViolation);
        assert!(
            e.message
                .starts_with("game 0003: the rating change of player a, +"),
            "{}",
            e.message
        );
        assert!(
            e.message.contains("above max_period_change 200"),
            "{}",
            e.message
        );
        // the same games a day apart each are allowed
        let spread: Vec<LedgerGame> = a_day_of_games()
            .into_iter()
            .enumerate()
            .map(|(i, g)| LedgerGame {
                key: key(i as i64 * DAY, &format!("{i:04}")),
                ..g
            })
            .collect();
        assert!(replay(&rules, &mut HashMap::new(), &spread).is_ok());
    }
}
