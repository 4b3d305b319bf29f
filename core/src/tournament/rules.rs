//! The rules a Random Chess tournament's rows follow before they are written: a game's round,
//! service, ranking, position, clock and players; a bye's round and player; a registration's
//! requirements; a ranked tournament's clock in its ranking's window. The glue reads the facts
//! each rule needs and writes nothing when one is broken (23514, the rule's message).

use std::fmt;

use super::columns::Columns;
use crate::clock::Clock as SetClock;
use crate::error::{Classified, ErrorClass, Refused};
use crate::ranking::RankingWindow;

/// A rule a row breaks.
#[derive(Clone, Debug, PartialEq)]
pub struct RuleBroken(String);

impl fmt::Display for RuleBroken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Classified for RuleBroken {
    fn class(&self) -> ErrorClass {
        ErrorClass::RuleViolation
    }
}

fn rule(ok: bool, message: impl FnOnce() -> String) -> Result<(), RuleBroken> {
    if ok {
        Ok(())
    } else {
        Err(RuleBroken(message()))
    }
}

/// An interval as PostgreSQL keeps it: months, days, microseconds.
pub use crate::clock::Interval as Span;

/// Two possibly NULL intervals equal as `IS NOT DISTINCT FROM` says.
fn same_span(a: Option<Span>, b: Option<Span>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => a.ordering_key() == b.ordering_key(),
        (a, b) => a.is_none() && b.is_none(),
    }
}

/// A clock (`clock_settings`; every part `None` for a NULL clock) and its text for messages.
#[derive(Clone, Debug, PartialEq)]
pub struct Clock {
    pub starting_time: Option<Span>,
    pub move_increase: Option<Span>,
}

impl Clock {
    fn same(&self, other: &Clock) -> bool {
        same_span(self.starting_time, other.starting_time)
            && same_span(self.move_increase, other.move_increase)
    }
}

/// What a tournament game's rules are checked against: the game and its tournament.
#[derive(Clone, Debug)]
pub struct GameInTournament {
    pub tournament: i32,
    pub game: i32,
    pub round: i32,
    pub rounds: i32,
    /// The game is of service 1 (played here).
    pub local: bool,
    pub game_ranked: bool,
    pub tournament_ranked: bool,
    pub game_start: String,
    pub tournament_start: String,
    pub clock: Clock,
    pub time_control: Clock,
    /// `clock` and `time_control` as text (`no clock` for a NULL clock), for messages.
    pub clock_text: String,
    pub time_control_text: String,
    pub white: String,
    pub black: String,
}

impl GameInTournament {
    /// Game `game` of `round` of `tournament` from a row of the glue's statement, which names the
    /// columns: `round_count`, `local`, `game_ranked`, `tournament_ranked`, `game_start`,
    /// `tournament_start`, the clock's and the time control's parts (`clock_starting_time`,
    /// `clock_move_increase`, `control_starting_time`, `control_move_increase`), both as text
    /// (`game_clock`, `time_control`), `white` and `black`.
    pub fn read(row: &impl Columns, (tournament, game, round): (i32, i32, i32)) -> Self {
        let clock = |starting_time: &str, move_increase: &str| Clock {
            starting_time: row.span_or_null(starting_time),
            move_increase: row.span_or_null(move_increase),
        };
        GameInTournament {
            tournament,
            game,
            round,
            rounds: row.int("round_count"),
            local: row.flag("local"),
            game_ranked: row.flag("game_ranked"),
            tournament_ranked: row.flag("tournament_ranked"),
            game_start: row.text("game_start"),
            tournament_start: row.text("tournament_start"),
            clock: clock("clock_starting_time", "clock_move_increase"),
            time_control: clock("control_starting_time", "control_move_increase"),
            clock_text: row.text("game_clock"),
            time_control_text: row.text("time_control"),
            white: row.text("white"),
            black: row.text("black"),
        }
    }

    /// The rules of the game's own row against its tournament, the first broken one.
    fn follows_tournament(&self) -> Result<(), RuleBroken> {
        let (t, game, round, rounds) = (self.tournament, self.game, self.round, self.rounds);
        rule(round <= rounds, || {
            format!("round {round} is beyond the {rounds} rounds of tournament {t}")
        })?;
        rule(self.local, || {
            format!("game {game} is not a local game (service 1): tournament games are played here")
        })?;
        let ranked = |r: bool| if r { "ranked" } else { "unranked" };
        rule(self.game_ranked == self.tournament_ranked, || {
            format!(
                "game {game} is {} but tournament {t} is {}",
                ranked(self.game_ranked),
                ranked(self.tournament_ranked)
            )
        })?;
        rule(self.game_start == self.tournament_start, || {
            format!(
                "game {game} starts from \"{}\", not from tournament {t}'s starting position \"{}\"",
                self.game_start, self.tournament_start
            )
        })?;
        rule(self.clock.same(&self.time_control), || {
            format!(
                "game {game} has clock {}, not tournament {t}'s time control {}",
                self.clock_text, self.time_control_text
            )
        })
    }

    /// Whether the game still follows its tournament's rules (after the tournament changed).
    pub fn still_follows(&self) -> bool {
        self.follows_tournament().is_ok()
    }
}

/// The first of `games` (in the order given: by round, then id) that no longer follows its
/// tournament's rules, as (round, game); the games after it are not looked at.
pub fn first_not_following(
    games: impl IntoIterator<Item = GameInTournament>,
) -> Option<(i32, i32)> {
    games.into_iter().find_map(|g| {
        crate::interrupt::check();
        (!g.still_follows()).then_some((g.round, g.game))
    })
}

/// The rules of a game registered in a tournament round: its own row against the tournament,
/// two different players, both registered (`unregistered`: the first who is not), neither with
/// another game or a bye in the round (`busy`: those who have).
pub fn check_game(
    g: &GameInTournament,
    unregistered: Option<&str>,
    busy: &[String],
) -> Result<(), RuleBroken> {
    g.follows_tournament()?;
    let (t, game, round) = (g.tournament, g.game, g.round);
    rule(g.white != g.black, || {
        format!("game {game} has the same player on both sides")
    })?;
    if let Some(p) = unregistered {
        return Err(RuleBroken(format!(
            "player \"{p}\" of game {game} is not registered in tournament {t}"
        )));
    }
    match busy.first() {
        Some(p) => Err(RuleBroken(format!(
            "player \"{p}\" already has a game or a bye in round {round} of tournament {t}"
        ))),
        None => Ok(()),
    }
}

/// The rules of a bye: a round of the tournament, a registered player without another game or
/// bye in that round.
pub fn check_bye(
    tournament: i32,
    round: i32,
    rounds: i32,
    user: &str,
    registered: bool,
    busy: bool,
) -> Result<(), RuleBroken> {
    rule(round <= rounds, || {
        format!("round {round} is beyond the {rounds} rounds of tournament {tournament}")
    })?;
    rule(registered, || {
        format!("player \"{user}\" is not registered in tournament {tournament}")
    })?;
    rule(!busy, || {
        format!(
            "player \"{user}\" already has a game or a bye in round {round} of tournament {tournament}"
        )
    })
}

/// A requirement of a tournament: a rating or a number of rated games in a ranking.
#[derive(Clone, Debug)]
pub struct Requirement {
    pub ranking: i32,
    pub ranking_name: String,
    pub required_rating: Option<i32>,
    pub required_games: Option<i32>,
    /// The player's rating in the ranking (the ranking's start without games) rounded down: an
    /// integer requirement is met by a rating exactly when it is met by its floor. Its text
    /// (two decimals) is for messages.
    pub rating_floor: i64,
    pub rating_text: String,
    pub rated_games: i64,
}

impl Requirement {
    /// A requirement from a row of the glue's statement (columns `ranking_type`, `ranking_name`,
    /// `required_value`, `game_count`, `rating_floor`, `rating`, `rated_games`).
    pub fn read(row: &impl Columns) -> Self {
        Requirement {
            ranking: row.int("ranking_type"),
            ranking_name: row.text("ranking_name"),
            required_rating: row.int_or_null("required_value"),
            required_games: row.int_or_null("game_count"),
            rating_floor: row.big("rating_floor"),
            rating_text: row.text("rating"),
            rated_games: row.big("rated_games"),
        }
    }
}

/// [`check_registration`] of the rows of a tournament's requirements as `user` meets them, each
/// a [`Requirement::read`] with whether the user is a bot (`is_bot`, the same on every row; no
/// row: nothing to meet).
pub fn check_registration_rows<R: Columns>(
    tournament: i32,
    user: &str,
    rows: impl IntoIterator<Item = R>,
) -> Result<(), RuleBroken> {
    let mut is_bot = false;
    let requirements: Vec<Requirement> = rows
        .into_iter()
        .map(|row| {
            is_bot = row.flag("is_bot");
            Requirement::read(&row)
        })
        .collect();
    check_registration(tournament, user, is_bot, &requirements)
}

/// The requirements a player must meet to join a tournament (none for a bot): the first unmet
/// one by ranking, a rating requirement before a games requirement of the same ranking.
pub fn check_registration(
    tournament: i32,
    user: &str,
    is_bot: bool,
    requirements: &[Requirement],
) -> Result<(), RuleBroken> {
    if is_bot {
        return Ok(());
    }
    let mut unmet: Vec<&Requirement> = requirements
        .iter()
        .filter(|q| {
            q.required_rating
                .is_some_and(|r| q.rating_floor < i64::from(r))
                || q.required_games
                    .is_some_and(|n| q.rated_games < i64::from(n))
        })
        .collect();
    // (by ranking, the requirement without a game count first)
    unmet.sort_by_key(|q| (q.ranking, q.required_games.is_some(), q.required_games));
    let Some(q) = unmet.first() else {
        return Ok(());
    };
    let (ranking, name) = (q.ranking, &q.ranking_name);
    Err(RuleBroken(match (q.required_rating, q.required_games) {
        (Some(required), _) => format!(
            "player \"{user}\" cannot join tournament {tournament}: rating {} in ranking {ranking} ({name}) is below the required {required}",
            q.rating_text
        ),
        (None, Some(games)) => format!(
            "player \"{user}\" cannot join tournament {tournament}: {} rated games in ranking {ranking} ({name}), {games} required",
            q.rated_games
        ),
        (None, None) => unreachable!("an unmet requirement has a rating or a game count"),
    }))
}

/// Why a tournament's time control is refused: outside its ranking's window (23514), or a clock
/// whose nominal length is no interval (22008, as `clock_base_time` reports it).
#[derive(Clone, Debug, PartialEq)]
pub enum TimeControlError {
    Broken(RuleBroken),
    Overflow,
}

impl fmt::Display for TimeControlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControlError::Broken(b) => b.fmt(f),
            TimeControlError::Overflow => f.write_str("interval out of range in clock_base_time"),
        }
    }
}

impl Classified for TimeControlError {
    fn class(&self) -> ErrorClass {
        match self {
            TimeControlError::Broken(b) => b.class(),
            TimeControlError::Overflow => ErrorClass::DatetimeOverflow,
        }
    }
}

/// [`check_time_control`] of a tournament's row as the glue's statement reads it (columns
/// `is_ranked`, the clock's parts `starting_time` and `move_increase`, `time_control`, the
/// window's bounds `playtime_min_text` and `playtime_max_text`, `ranking_id`, `ranking_name`)
/// and its ranking's `window`.
pub fn check_time_control_row(
    row: &impl Columns,
    window: &RankingWindow,
) -> Result<(), TimeControlError> {
    let parts = (
        row.span_or_null("starting_time"),
        row.span_or_null("move_increase"),
    );
    let clock = match parts {
        (Some(starting_time), Some(move_increase)) => Some(SetClock {
            starting_time,
            move_increase,
        }),
        _ => None,
    };
    check_time_control(
        row.flag("is_ranked"),
        clock,
        window,
        &row.text("time_control"),
        (
            &row.text("playtime_min_text"),
            &row.text("playtime_max_text"),
        ),
        (row.int("ranking_id"), &row.text("ranking_name")),
    )
}

/// A ranked tournament's time control `clock` (`None`: unset) falls in its ranking's `window`,
/// the ranking's rule of which games it rates ([`RankingWindow::contains_clock`]); an unset
/// clock falls in none. Its nominal length is computed whether the tournament is ranked or not:
/// one that overflows, or whose parts differ in sign (no interval a function can return), is
/// [`TimeControlError::Overflow`]. The texts are for the message: the time control, the window's
/// bounds, the ranking's id and name.
pub fn check_time_control(
    tournament_ranked: bool,
    clock: Option<SetClock>,
    window: &RankingWindow,
    time_control: &str,
    bounds: (&str, &str),
    ranking: (i32, &str),
) -> Result<(), TimeControlError> {
    let fits = match clock {
        None => false,
        Some(c) => {
            let base = c
                .base_time(window.extra_move_multiplier)
                .map_err(|_| TimeControlError::Overflow)?;
            let mixed = (base.months < 0 && (base.days > 0 || base.micros > 0))
                || (base.months > 0 && (base.days < 0 || base.micros < 0));
            if mixed {
                return Err(TimeControlError::Overflow);
            }
            window
                .contains_clock(c)
                .map_err(|_| TimeControlError::Overflow)?
        }
    };
    rule(!tournament_ranked || fits, || {
        format!(
            "a ranked tournament's time control must fall in its ranking's window: {time_control} is not in [{}, {}) of ranking {} ({})",
            bounds.0, bounds.1, ranking.0, ranking.1
        )
    })
    .map_err(TimeControlError::Broken)
}

/// After a tournament changed: its games and byes still follow its rules. `first_game`: the
/// first game (by round, then id) that no longer does, as (round, game); `first_bye_round`: the
/// first round of a bye beyond the tournament's rounds. A bye comes after the games of its round.
pub fn check_rows_still_follow(
    tournament: i32,
    first_game: Option<(i32, i32)>,
    first_bye_round: Option<i32>,
) -> Result<(), RuleBroken> {
    let what = match (first_game, first_bye_round) {
        (Some((round, game)), bye) if bye.is_none_or(|b| round <= b) => {
            format!("game {game} of round {round}")
        }
        (_, Some(round)) => format!("a bye of round {round}"),
        (None, None) => return Ok(()),
        (Some(_), None) => unreachable!("matched by the first arm"),
    };
    Err(RuleBroken(format!(
        "tournament {tournament} cannot change this way: {what} would no longer follow its rules"
    )))
}

/// A registration is never changed: it is deleted and made again.
pub fn registration_change() -> Refused {
    Refused("a registration cannot be changed: delete it and register the player again".into())
}

/// A player leaves a tournament only without games in it: `game` is the first of theirs (by
/// round, then id), as (game, round).
pub fn check_leave(tournament: i32, user: &str, game: Option<(i32, i32)>) -> Result<(), Refused> {
    match game {
        Some((game, round)) => Err(Refused(format!(
            "player \"{user}\" cannot leave tournament {tournament}: game {game} of round {round} is registered in it"
        ))),
        None => Ok(()),
    }
}

/// The registrations are truncated only without tournament games: `game` is the first one (by
/// tournament, round, then id), as (tournament, game, round).
pub fn check_truncate_registrations(game: Option<(i32, i32, i32)>) -> Result<(), Refused> {
    match game {
        Some((tournament, game, round)) => Err(Refused(format!(
            "tournaments_players cannot be truncated: tournament {tournament} has game {game} of round {round} registered \
             (truncate tournaments_games first)"
        ))),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn span(months: i32, days: i32, micros: i64) -> Option<Span> {
        Some(Span {
            months,
            days,
            micros,
        })
    }

    fn clock(minutes: i64, increment_s: i64) -> Clock {
        Clock {
            starting_time: span(0, 0, minutes * 60_000_000),
            move_increase: span(0, 0, increment_s * 1_000_000),
        }
    }

    fn game() -> GameInTournament {
        GameInTournament {
            tournament: 7,
            game: 3,
            round: 2,
            rounds: 5,
            local: true,
            game_ranked: true,
            tournament_ranked: true,
            game_start: "start".into(),
            tournament_start: "start".into(),
            clock: clock(5, 3),
            time_control: clock(5, 3),
            clock_text: "(00:05:00,00:00:03)".into(),
            time_control_text: "(00:05:00,00:00:03)".into(),
            white: "a".into(),
            black: "b".into(),
        }
    }

    fn broken(r: Result<(), RuleBroken>) -> String {
        r.expect_err("a rule is broken").to_string()
    }

    #[test]
    fn the_first_game_that_no_longer_follows_is_named_and_the_rest_not_looked_at() {
        let broken = GameInTournament {
            round: 3,
            game: 8,
            game_ranked: false,
            ..game()
        };
        let looked_at = std::cell::Cell::new(0);
        let games = [game(), broken.clone(), broken, game()]
            .into_iter()
            .inspect(|_| looked_at.set(looked_at.get() + 1));
        assert_eq!(first_not_following(games), Some((3, 8)));
        assert_eq!(looked_at.get(), 2);
        assert_eq!(first_not_following([game(), game()]), None);
    }

    #[test]
    fn a_game_that_follows_every_rule_passes() {
        assert_eq!(check_game(&game(), None, &[]), Ok(()));
        assert!(game().still_follows());
    }

    #[test]
    fn each_rule_of_a_game_names_itself_in_order() {
        let g = GameInTournament {
            round: 6,
            local: false,
            ..game()
        };
        assert_eq!(
            broken(check_game(&g, None, &[])),
            "round 6 is beyond the 5 rounds of tournament 7"
        );
        let g = GameInTournament {
            local: false,
            ..game()
        };
        assert!(broken(check_game(&g, None, &[])).contains("not a local game"));
        let g = GameInTournament {
            game_ranked: false,
            ..game()
        };
        assert_eq!(
            broken(check_game(&g, None, &[])),
            "game 3 is unranked but tournament 7 is ranked"
        );
        let g = GameInTournament {
            game_start: "other".into(),
            ..game()
        };
        assert!(broken(check_game(&g, None, &[])).contains("starts from \"other\""));
        let g = GameInTournament {
            clock: clock(3, 2),
            ..game()
        };
        assert!(!g.still_follows());
        assert!(broken(check_game(&g, None, &[])).contains("has clock"));
        let g = GameInTournament {
            black: "a".into(),
            ..game()
        };
        assert_eq!(
            broken(check_game(&g, None, &[])),
            "game 3 has the same player on both sides"
        );
        assert_eq!(
            broken(check_game(&game(), Some("b"), &[])),
            "player \"b\" of game 3 is not registered in tournament 7"
        );
        assert_eq!(
            broken(check_game(&game(), None, &["a".into()])),
            "player \"a\" already has a game or a bye in round 2 of tournament 7"
        );
    }

    #[test]
    fn clocks_compare_as_postgresql_compares_intervals() {
        let day = Clock {
            starting_time: span(0, 1, 0),
            move_increase: None,
        };
        let hours = Clock {
            starting_time: span(0, 0, 24 * 3_600_000_000),
            move_increase: None,
        };
        assert!(day.same(&hours));
        let month = Clock {
            starting_time: span(1, 0, 0),
            move_increase: None,
        };
        let days = Clock {
            starting_time: span(0, 30, 0),
            move_increase: None,
        };
        assert!(month.same(&days));
        let none = Clock {
            starting_time: None,
            move_increase: None,
        };
        assert!(none.same(&none.clone()));
        assert!(!none.same(&day));
    }

    #[test]
    fn a_bye_needs_a_round_a_registration_and_a_free_player() {
        assert_eq!(check_bye(1, 2, 3, "u", true, false), Ok(()));
        assert!(broken(check_bye(1, 4, 3, "u", true, false)).contains("beyond the 3 rounds"));
        assert!(broken(check_bye(1, 2, 3, "u", false, false)).contains("not registered"));
        assert!(broken(check_bye(1, 2, 3, "u", true, true)).contains("already has a game"));
    }

    #[test]
    fn the_first_unmet_requirement_by_ranking_is_named() {
        let q = |ranking, rating: Option<i32>, games: Option<i32>| Requirement {
            ranking,
            ranking_name: "blitz".into(),
            required_rating: rating,
            required_games: games,
            rating_floor: 1450,
            rating_text: "1450.00".into(),
            rated_games: 4,
        };
        let all = [
            q(2, Some(1400), None),
            q(1, None, Some(10)),
            q(1, Some(1500), None),
        ];
        assert_eq!(
            broken(check_registration(9, "u", false, &all)),
            "player \"u\" cannot join tournament 9: rating 1450.00 in ranking 1 (blitz) is below the required 1500"
        );
        let games = [q(1, None, Some(10))];
        assert_eq!(
            broken(check_registration(9, "u", false, &games)),
            "player \"u\" cannot join tournament 9: 4 rated games in ranking 1 (blitz), 10 required"
        );
        assert_eq!(check_registration(9, "u", true, &all), Ok(()));
        // a rating of 1499.99 (floor 1499) is below 1500; 1500.00 meets it
        let at = |floor| Requirement {
            rating_floor: floor,
            ..q(1, Some(1500), None)
        };
        assert!(check_registration(9, "u", false, &[at(1499)]).is_err());
        assert_eq!(check_registration(9, "u", false, &[at(1500)]), Ok(()));
        assert_eq!(
            check_registration(9, "u", false, &[q(1, Some(1400), Some(3))]),
            Ok(())
        );
    }

    #[test]
    fn a_game_and_its_tournament_are_read_from_a_row() {
        use crate::tournament::columns::test_row::{TestRow, V};
        let minutes = |m: i64| V::Span(span(0, 0, m * 60_000_000).unwrap());
        let row = TestRow::of(&[
            ("round_count", V::Int(5)),
            ("local", V::Flag(true)),
            ("game_ranked", V::Flag(true)),
            ("tournament_ranked", V::Flag(true)),
            ("game_start", V::Text("start")),
            ("tournament_start", V::Text("start")),
            ("clock_starting_time", minutes(5)),
            (
                "clock_move_increase",
                V::Span(span(0, 0, 3_000_000).unwrap()),
            ),
            ("control_starting_time", minutes(5)),
            (
                "control_move_increase",
                V::Span(span(0, 0, 3_000_000).unwrap()),
            ),
            ("game_clock", V::Text("(00:05:00,00:00:03)")),
            ("time_control", V::Text("(00:05:00,00:00:03)")),
            ("white", V::Text("a")),
            ("black", V::Text("b")),
        ]);
        let g = GameInTournament::read(&row, (7, 3, 2));
        let expected = game();
        assert_eq!(
            (g.tournament, g.game, g.round, g.rounds),
            (
                expected.tournament,
                expected.game,
                expected.round,
                expected.rounds
            )
        );
        assert_eq!(
            (g.clock, g.time_control),
            (expected.clock, expected.time_control)
        );
        assert_eq!((g.white, g.black), (expected.white, expected.black));
        assert_eq!(g.clock_text, expected.clock_text);
        // a game without a clock: every part NULL
        let mut no_clock = row;
        no_clock.0.remove("clock_starting_time");
        no_clock.0.remove("clock_move_increase");
        let g = GameInTournament::read(&no_clock, (7, 3, 2));
        assert!(g.clock.starting_time.is_none() && g.clock.move_increase.is_none());
        assert!(!g.still_follows());
    }

    #[test]
    fn a_tournaments_time_control_is_read_from_its_row() {
        use crate::tournament::columns::test_row::{TestRow, V};
        let window = RankingWindow {
            playtime_min: Span::from_seconds(60),
            playtime_max: Some(Span::from_seconds(3600)),
            extra_move_multiplier: 40,
            include_bots: true,
        };
        let row = |ranked: bool, minutes: Option<i64>| {
            let mut row = TestRow::of(&[
                ("is_ranked", V::Flag(ranked)),
                ("move_increase", V::Span(Span::from_seconds(0))),
                ("time_control", V::Text("(02:00:00,00:00:00)")),
                ("playtime_min_text", V::Text("00:01:00")),
                ("playtime_max_text", V::Text("01:00:00")),
                ("ranking_id", V::Int(3)),
                ("ranking_name", V::Text("Blitz")),
            ]);
            if let Some(m) = minutes {
                row.0
                    .insert("starting_time", V::Span(Span::from_seconds(m * 60)));
            }
            row
        };
        assert_eq!(check_time_control_row(&row(true, Some(5)), &window), Ok(()));
        assert_eq!(
            check_time_control_row(&row(true, Some(120)), &window)
                .unwrap_err()
                .to_string(),
            "a ranked tournament's time control must fall in its ranking's window: \
             (02:00:00,00:00:00) is not in [00:01:00, 01:00:00) of ranking 3 (Blitz)"
        );
        // a clock missing a part is no clock: in no window
        assert!(check_time_control_row(&row(true, None), &window).is_err());
        assert_eq!(check_time_control_row(&row(false, None), &window), Ok(()));
    }

    #[test]
    fn requirements_are_read_from_their_rows_and_a_bot_meets_them_all() {
        use crate::tournament::columns::test_row::{TestRow, V};
        let row = |is_bot: bool, required: i32| {
            TestRow::of(&[
                ("ranking_type", V::Int(1)),
                ("ranking_name", V::Text("blitz")),
                ("required_value", V::Int(required)),
                ("rating_floor", V::Big(1450)),
                ("rating", V::Text("1450.00")),
                ("rated_games", V::Big(4)),
                ("is_bot", V::Flag(is_bot)),
            ])
        };
        let q = Requirement::read(&row(false, 1500));
        assert_eq!(
            (q.ranking, q.required_rating, q.required_games),
            (1, Some(1500), None)
        );
        assert_eq!((q.rating_floor, q.rated_games), (1450, 4));
        assert_eq!(
            broken(check_registration_rows(9, "u", [row(false, 1400), row(false, 1500)])),
            "player \"u\" cannot join tournament 9: rating 1450.00 in ranking 1 (blitz) is below the required 1500"
        );
        assert_eq!(check_registration_rows(9, "u", [row(true, 1500)]), Ok(()));
        assert_eq!(check_registration_rows::<TestRow>(9, "u", []), Ok(()));
    }

    #[test]
    fn the_first_row_that_breaks_a_changed_tournament_is_named() {
        assert_eq!(check_rows_still_follow(4, None, None), Ok(()));
        let message = |g, b| broken(check_rows_still_follow(4, g, b));
        assert_eq!(
            message(Some((3, 12)), Some(3)),
            "tournament 4 cannot change this way: game 12 of round 3 would no longer follow its rules"
        );
        assert!(message(Some((3, 12)), Some(2)).contains("a bye of round 2"));
        assert!(message(None, Some(5)).contains("a bye of round 5"));
        assert!(message(Some((1, 2)), None).contains("game 2 of round 1"));
    }

    #[test]
    fn a_ranked_tournament_needs_a_clock_in_its_window() {
        use crate::clock::Interval;
        let window = RankingWindow {
            playtime_min: Interval::from_seconds(180),
            playtime_max: Some(Interval::from_seconds(600)),
            extra_move_multiplier: 40,
            include_bots: true,
        };
        let set = |start: i64, increment: i64| {
            Some(SetClock {
                starting_time: Interval::from_seconds(start),
                move_increase: Interval::from_seconds(increment),
            })
        };
        let check =
            |ranked, clock| check_time_control(ranked, clock, &window, "x", ("a", "b"), (1, "r"));
        // 3 minutes + 40 × 2 s is in [3, 10) minutes; 10 minutes is not, nor is no clock
        assert_eq!(check(true, set(180, 2)), Ok(()));
        assert_eq!(check(true, set(180, 0)), Ok(()));
        assert_eq!(check(false, set(600, 0)), Ok(()));
        assert_eq!(check(false, None), Ok(()));
        for clock in [set(600, 0), set(120, 1), None] {
            let e = check(true, clock).unwrap_err();
            assert_eq!(e.class(), ErrorClass::RuleViolation);
            assert!(e.to_string().contains("is not in [a, b) of ranking 1 (r)"));
        }
        // a nominal length that is no interval is refused, ranked or not
        let huge = Some(SetClock {
            starting_time: Interval {
                months: 0,
                days: 0,
                micros: i64::MAX,
            },
            move_increase: Interval::from_seconds(1),
        });
        let mixed = Some(SetClock {
            starting_time: Interval {
                months: 1,
                days: -1,
                micros: 0,
            },
            move_increase: Interval::ZERO,
        });
        for clock in [huge, mixed] {
            let e = check(false, clock).unwrap_err();
            assert_eq!(e, TimeControlError::Overflow);
            assert_eq!(e.class(), ErrorClass::DatetimeOverflow);
            assert_eq!(e.to_string(), "interval out of range in clock_base_time");
        }
    }

    #[test]
    fn registrations_refuse_changes_and_leaving_with_games() {
        assert_eq!(
            registration_change().to_string(),
            "a registration cannot be changed: delete it and register the player again"
        );
        assert_eq!(check_leave(3, "7", None), Ok(()));
        assert_eq!(
            check_leave(3, "7", Some((12, 2))).unwrap_err().to_string(),
            "player \"7\" cannot leave tournament 3: game 12 of round 2 is registered in it"
        );
        assert_eq!(check_truncate_registrations(None), Ok(()));
        let e = check_truncate_registrations(Some((3, 12, 2))).unwrap_err();
        assert_eq!(
            e.to_string(),
            "tournaments_players cannot be truncated: tournament 3 has game 12 of round 2 registered \
             (truncate tournaments_games first)"
        );
        assert_eq!(e.class(), ErrorClass::Restricted);
    }
}
