//! A tournament put together from the rows its tables hold (the glue reads them): its entrants'
//! accounts in pairing-number order with their ratings as of the start, its games and its byes,
//! each naming its players by account; and the values of its standings rows as they are stored.

use std::collections::HashMap;
use std::fmt;
use std::hash::Hash;

use super::columns::Columns;
use super::seeding::by_number;
use super::trf::{trf16, TrfInfo};
use super::{
    game_entries, game_of, parse_order, round_rows, sort_key, standings, ByeKind, Edition,
    GameKind, Outcome, PlayerNo, PlayerValues, RoundEntry, TieBreak, Tournament, TournamentError,
};
use crate::error::{Classified, ErrorClass};

/// White's outcome and the kind of a service game from its row: the result's end type and
/// reason as text, and its number of moves; an error for a result that is none.
pub fn game_result(
    end_type: &str,
    reason: &str,
    moves: i32,
) -> Result<(Outcome, GameKind), TournamentError> {
    match (end_type.parse(), reason.parse()) {
        (Ok(end), Ok(reason)) => Ok(game_of(end, reason, moves.max(0) as usize)),
        _ => Err(TournamentError::invalid("invalid game result")),
    }
}

/// [`game_result`] of a row's columns `end_type`, `reason` and `moves`.
pub fn result_of(row: &impl Columns) -> Result<(Outcome, GameKind), TournamentError> {
    game_result(&row.text("end_type"), &row.text("reason"), row.int("moves"))
}

/// A game of a tournament as its tables hold it: White's outcome and the kind of game.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredGame {
    pub round: u32,
    pub white: String,
    pub black: String,
    pub result: (Outcome, GameKind),
}

/// A service game as a tournament sees it: its players, White's outcome and the kind of game
/// ([`game_result`]), and its creation date (microseconds since 2000-01-01).
#[derive(Clone, Debug, PartialEq)]
pub struct TournamentGame {
    pub white: String,
    pub black: String,
    pub result: (Outcome, GameKind),
    pub date: i64,
}

impl TournamentGame {
    /// A service game from a row (columns `white`, `black`, `creation_date` and those of
    /// [`result_of`]).
    pub fn read(row: &impl Columns) -> Result<Self, TournamentError> {
        Ok(TournamentGame {
            white: row.text("white"),
            black: row.text("black"),
            result: result_of(row)?,
            date: row.time("creation_date"),
        })
    }

    /// The two entries of the game, White (numbered `white`) and Black's ([`game_entries`]).
    pub fn entries(
        &self,
        white: PlayerNo,
        black: PlayerNo,
    ) -> Result<(RoundEntry, RoundEntry), TournamentError> {
        game_entries(white, black, self.result.0, self.result.1)
    }
}

impl StoredGame {
    /// A game of a tournament from a row (columns `round`, `white`, `black` and those of
    /// [`result_of`]).
    pub fn read(row: &impl Columns) -> Result<Self, TournamentError> {
        Ok(StoredGame {
            round: row.int("round") as u32,
            white: row.text("white"),
            black: row.text("black"),
            result: result_of(row)?,
        })
    }
}

/// A bye as its table holds it: its worth in half points.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredBye {
    pub round: u32,
    pub user: String,
    pub half_points: i32,
}

impl StoredBye {
    /// A bye from a row (columns `round`, `user_id`, `half_points`).
    pub fn read(row: &impl Columns) -> Self {
        StoredBye {
            round: row.int("round") as u32,
            user: row.text("user_id"),
            half_points: row.int("half_points"),
        }
    }
}

/// Why a tournament's rows make no tournament.
#[derive(Clone, Debug, PartialEq)]
pub enum LoadError {
    /// The tournament itself is refused (its round count, its number of players).
    Tournament(TournamentError),
    /// A row the tables should never hold: a game or a bye of an unregistered player, a bye
    /// worth no kind of bye.
    Damaged(String),
    /// A game or a bye that breaks a rule of the tournament (two entries in one round).
    Rule(TournamentError),
}

/// A [`LoadError`] of a tournament, as it is reported: a damaged row or a broken rule names the
/// tournament; only a broken rule has a class other than internal.
#[derive(Clone, Debug, PartialEq)]
pub struct LoadFailed {
    pub tournament: i32,
    pub error: LoadError,
}

impl fmt::Display for LoadFailed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t = self.tournament;
        match &self.error {
            LoadError::Tournament(e) => e.fmt(f),
            LoadError::Damaged(e) => write!(f, "tournament {t}: {e}"),
            LoadError::Rule(e) => write!(f, "tournament {t}: {e}"),
        }
    }
}

impl Classified for LoadFailed {
    fn class(&self) -> ErrorClass {
        match &self.error {
            LoadError::Rule(e) => e.class(),
            LoadError::Tournament(_) | LoadError::Damaged(_) => ErrorClass::Internal,
        }
    }
}

/// An entrant as its row holds it: registration (pairing) number, account, rating as of the
/// start, display name.
#[derive(Clone, Debug, PartialEq)]
pub struct Entrant {
    pub player_no: i32,
    pub user: String,
    pub start_rating: Option<i32>,
    pub name: String,
}

impl Entrant {
    /// An entrant from a row (columns `player_no`, `user_id`, `start_rating`, `display_name`).
    pub fn read(row: &impl Columns) -> Self {
        Entrant {
            player_no: row.int("player_no"),
            user: row.text("user_id"),
            start_rating: row.int_or_null("start_rating"),
            name: row.text("display_name"),
        }
    }
}

/// A tournament loaded from its rows: the core's model with players numbered 0..n in
/// registration order, and each one's registration number, account and display name; its
/// tie-break order; the dates of its first and last games (TRF's `YYYY/MM/DD`).
#[derive(Clone, Debug, PartialEq)]
pub struct Loaded {
    pub tournament: Tournament,
    pub player_no: Vec<i32>,
    pub users: Vec<String>,
    pub names: Vec<String>,
    pub order: Vec<TieBreak>,
    pub first_date: Option<String>,
    pub last_date: Option<String>,
}

impl Loaded {
    /// The TRF-16 report of tournament `tournament` ([`trf16`]), its players `seeded` in FIDE's
    /// initial order (`order[i]`: the registration index of the player numbered i).
    pub fn trf(
        &self,
        tournament: i32,
        seeded: &Tournament,
        order: &[PlayerNo],
        edition: Edition,
    ) -> Result<String, TournamentError> {
        let info = TrfInfo {
            name: format!("Random Chess Swiss tournament {tournament}"),
            start_date: self.first_date.clone(),
            end_date: self.last_date.clone(),
            player_names: by_number(&self.names, order),
        };
        trf16(seeded, &info, &self.order, edition)
    }
}

/// A player's entries of rounds 1.. and rating as of the start (what a `CardSource` gives).
pub type Card = (Vec<RoundEntry>, Option<i32>);

/// A player's card and rating as of the start from a row of the glue's statement (columns
/// `player_no`, `opponents`, `codes` as [`RoundEntry::card_from_codes`] reads them,
/// `start_rating`); an error names the player.
pub fn card_of(row: &impl Columns) -> Result<(PlayerNo, Card), String> {
    let p = row.int("player_no");
    let card = RoundEntry::card_from_codes(&row.ints("opponents"), &row.text("codes"))
        .map_err(|e| format!("player {p}: {e}"))?;
    Ok((p as PlayerNo, (card, row.int_or_null("start_rating"))))
}

/// The tie-break order of a row's `tie_breaks` (stored canonical: an error is a damaged row).
pub fn tie_break_order(row: &impl Columns) -> Result<Vec<TieBreak>, TournamentError> {
    parse_order(&row.text("tie_breaks"))
}

/// [`load`] of tournament `tournament` with its own row `head` (columns `round_count`,
/// `tie_breaks`, `first_date`, `last_date`); an order that does not read is a damaged row
/// (internal, its own message).
pub fn load_rows(
    tournament: i32,
    head: &impl Columns,
    entrants: Vec<Entrant>,
    games: &[StoredGame],
    byes: &[StoredBye],
) -> Result<Loaded, LoadFailed> {
    let order = tie_break_order(head).map_err(|e| LoadFailed {
        tournament,
        error: LoadError::Tournament(e),
    })?;
    let dates = (
        head.text_or_null("first_date"),
        head.text_or_null("last_date"),
    );
    let round_count = head.int("round_count");
    load(tournament, round_count, order, dates, entrants, games, byes)
}

/// The rows of tournament `tournament` put together ([`from_rows`]): `entrants` in registration
/// order, its `games` and `byes`, its tie-break `order` and the `dates` of its first and last
/// games.
pub fn load(
    tournament: i32,
    round_count: i32,
    order: Vec<TieBreak>,
    dates: (Option<String>, Option<String>),
    entrants: Vec<Entrant>,
    games: &[StoredGame],
    byes: &[StoredBye],
) -> Result<Loaded, LoadFailed> {
    let (mut player_no, mut users, mut ratings, mut names) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for e in entrants {
        player_no.push(e.player_no);
        users.push(e.user);
        ratings.push(e.start_rating);
        names.push(e.name);
    }
    let t = from_rows(round_count as u32, &users, ratings, games, byes)
        .map_err(|error| LoadFailed { tournament, error })?;
    Ok(Loaded {
        tournament: t,
        player_no,
        users,
        names,
        order,
        first_date: dates.0,
        last_date: dates.1,
    })
}

/// One value of a standings row as it is stored.
#[derive(Clone, Debug, PartialEq)]
pub enum Stored {
    Int(Option<i32>),
    Text(String),
    Bytes(Vec<u8>),
    /// A number stored exactly as numeric (the DE score).
    Decimal(Option<f64>),
}

/// A standings row (or the part of it a statement writes) as it is stored: each column's name
/// and value.
pub type StoredRow = Vec<(&'static str, Stored)>;

/// The key of a standings row: its round and the player's registration number.
fn key(round: u32, player_no: i32) -> StoredRow {
    vec![
        ("round", Stored::Int(Some(round as i32))),
        ("player_no", Stored::Int(Some(player_no))),
    ]
}

/// A player's values as the standings table stores them, and their sort key by `order`.
fn values(v: &PlayerValues, order: &[TieBreak]) -> StoredRow {
    let int = |x: i32| Stored::Int(Some(x));
    vec![
        ("points_x2", int(v.points_x2)),
        ("adjusted_x2", int(v.adjusted_x2)),
        ("played", int(v.played as i32)),
        ("win", int(v.win as i32)),
        ("won", int(v.won as i32)),
        ("bh_x2", int(v.bh_x2)),
        ("bh_c1_x2", int(v.bh_c1_x2)),
        ("sb_x4", int(v.sb_x4)),
        ("sb_c1_x4", int(v.sb_c1_x4)),
        ("aro", Stored::Int(v.aro)),
        ("aro_c1", Stored::Int(v.aro_c1)),
        ("tpr", Stored::Int(v.tpr)),
        ("ptp", Stored::Int(v.ptp)),
        ("sort_key", Stored::Bytes(sort_key(v, order))),
    ]
}

/// The shared rank and DE score of a row (with DE in the order).
fn ranks(rank: Option<u32>, de: Option<f64>) -> StoredRow {
    vec![
        ("tie_rank", Stored::Int(rank.map(|r| r as i32))),
        ("de", Stored::Decimal(de)),
    ]
}

/// The whole rows of round `s` of every player of `loaded` ([`round_rows`]): key, entry (the
/// opponent by registration number), values and sort key, rank and DE score.
pub fn stored_round(loaded: &Loaded, s: u32, edition: Edition) -> Vec<StoredRow> {
    let rows = round_rows(&loaded.tournament, s, &loaded.order, edition);
    rows.into_iter()
        .enumerate()
        .map(|(i, row)| {
            let entry = row
                .entry
                .with_opponent(|o| loaded.player_no[o as usize] as PlayerNo);
            let (opponent, colour, result) = entry.stored();
            let mut stored = key(s, loaded.player_no[i]);
            stored.extend([
                ("user_id_in_service", Stored::Text(loaded.users[i].clone())),
                ("opponent_no", Stored::Int(opponent)),
                ("colour", Stored::Text(colour)),
                ("result", Stored::Text(result)),
            ]);
            stored.extend(values(&row.values, &loaded.order));
            stored.extend(ranks(row.rank, row.de));
            stored
        })
        .collect()
}

/// The key, values and sort key (by `order`) of computed rows `(player, round, values)`.
pub fn stored_values(rows: &[(PlayerNo, u32, PlayerValues)], order: &[TieBreak]) -> Vec<StoredRow> {
    let row = |(p, s, v): &(PlayerNo, u32, PlayerValues)| {
        let mut stored = key(*s, *p as i32);
        stored.extend(values(v, order));
        stored
    };
    rows.iter().map(row).collect()
}

/// The key, shared rank and DE score of every row of rounds `from..=last` of `loaded` (with DE
/// in its order).
pub fn stored_ranks(loaded: &Loaded, from: u32, last: u32, edition: Edition) -> Vec<StoredRow> {
    let mut out = Vec::new();
    for s in from.max(1)..=last {
        for x in standings(&loaded.tournament, s, &loaded.order, edition) {
            let mut stored = key(s, loaded.player_no[x.player as usize]);
            stored.extend(ranks(Some(x.rank), x.de));
            out.push(stored);
        }
    }
    out
}

/// The players (ascending, each once) and the first round of computed rows `(player, round,
/// values)`: the bounds a statement that writes them is given as index conditions.
pub fn players_and_first_round<V>(rows: &[(PlayerNo, u32, V)]) -> (Vec<i32>, i32) {
    let mut players: Vec<i32> = rows.iter().map(|(p, _, _)| *p as i32).collect();
    players.sort_unstable();
    players.dedup();
    let first_round = rows.iter().map(|(_, s, _)| *s as i32).min().unwrap_or(1);
    (players, first_round)
}

/// What was read for each of `players`, in their order, from the rows `found` (by player); a
/// player without a row gets the default (an empty card, no rating).
pub fn in_order_of<P: Hash + Eq, T: Default>(
    players: &[P],
    found: impl IntoIterator<Item = (P, T)>,
) -> Vec<T> {
    let mut found: HashMap<P, T> = found.into_iter().collect();
    players
        .iter()
        .map(|p| found.remove(p).unwrap_or_default())
        .collect()
}

/// The tournament of `round_count` rounds whose players are `users` (pairing number `i` is
/// `users[i]`), rated `ratings` as of the start, with its `games` and `byes` (in that order).
pub fn from_rows(
    round_count: u32,
    users: &[String],
    ratings: Vec<Option<i32>>,
    games: &[StoredGame],
    byes: &[StoredBye],
) -> Result<Tournament, LoadError> {
    let number: HashMap<&str, PlayerNo> = users
        .iter()
        .enumerate()
        .map(|(i, u)| (u.as_str(), i as PlayerNo))
        .collect();
    let mut t = Tournament::new(round_count, ratings).map_err(LoadError::Tournament)?;
    for g in games {
        crate::interrupt::check();
        let (Some(&w), Some(&b)) = (number.get(g.white.as_str()), number.get(g.black.as_str()))
        else {
            return Err(LoadError::Damaged(format!(
                "a game of round {} has an unregistered player",
                g.round
            )));
        };
        let (outcome, kind) = g.result;
        t.add_game(g.round, w, b, outcome, kind)
            .map_err(LoadError::Rule)?;
    }
    for bye in byes {
        let Some(&p) = number.get(bye.user.as_str()) else {
            return Err(LoadError::Damaged(format!(
                "a bye of round {} has an unregistered player",
                bye.round
            )));
        };
        let kind =
            ByeKind::worth(bye.half_points).map_err(|e| LoadError::Damaged(e.to_string()))?;
        t.add_bye(bye.round, p, kind).map_err(LoadError::Rule)?;
    }
    Ok(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn users() -> Vec<String> {
        ["ann", "bob", "cy"].map(String::from).to_vec()
    }

    fn game(round: u32, white: &str, black: &str) -> StoredGame {
        StoredGame {
            round,
            white: white.into(),
            black: black.into(),
            result: (Outcome::Win, GameKind::Played),
        }
    }

    fn bye(round: u32, user: &str, half_points: i32) -> StoredBye {
        StoredBye {
            round,
            user: user.into(),
            half_points,
        }
    }

    #[test]
    fn a_game_gives_both_players_their_entries() {
        let forfeit = TournamentGame {
            white: "ann".into(),
            black: "bob".into(),
            result: (Outcome::Loss, GameKind::Forfeit),
            date: 0,
        };
        let (white, black) = forfeit.entries(3, 1).unwrap();
        assert_eq!(white.opponent(), Some(1));
        assert_eq!(black.opponent(), Some(3));
        assert_eq!((white.half_points(), black.half_points()), (0, 2));
        let drawn = TournamentGame {
            result: (Outcome::Draw, GameKind::Forfeit),
            ..forfeit
        };
        assert_eq!(
            drawn.entries(3, 1).unwrap_err().to_string(),
            "a forfeit cannot be a draw"
        );
    }

    #[test]
    fn games_byes_and_entrants_are_read_from_their_rows() {
        use crate::tournament::columns::test_row::{TestRow, V};
        let game = TestRow::of(&[
            ("round", V::Int(2)),
            ("white", V::Text("ann")),
            ("black", V::Text("bob")),
            ("end_type", V::Text("0-1")),
            ("reason", V::Text("ABANDONMENT")),
            ("moves", V::Int(0)),
            ("creation_date", V::Time(77)),
        ]);
        let stored = StoredGame::read(&game).unwrap();
        assert_eq!((stored.round, stored.white.as_str()), (2, "ann"));
        assert_eq!(stored.result, (Outcome::Loss, GameKind::Forfeit));
        let seen = TournamentGame::read(&game).unwrap();
        assert_eq!((seen.date, seen.result), (77, stored.result));
        let mut bad = game;
        bad.0.insert("end_type", V::Text("?"));
        assert!(StoredGame::read(&bad).is_err() && TournamentGame::read(&bad).is_err());
        let bye = TestRow::of(&[
            ("round", V::Int(3)),
            ("user_id", V::Text("cy")),
            ("half_points", V::Int(1)),
        ]);
        assert_eq!(StoredBye::read(&bye), self::bye(3, "cy", 1));
        let e = TestRow::of(&[
            ("player_no", V::Int(4)),
            ("user_id", V::Text("dan")),
            ("display_name", V::Text("Dan")),
        ]);
        let read = Entrant::read(&e);
        assert_eq!(
            (read.player_no, read.start_rating, read.name.as_str()),
            (4, None, "Dan")
        );
    }

    #[test]
    fn a_result_is_read_from_its_text() {
        assert_eq!(
            game_result("1-0", "ABANDONMENT", 0),
            Ok((Outcome::Win, GameKind::Forfeit))
        );
        assert_eq!(
            game_result("1/2-1/2", "STALEMATE", 3),
            Ok((Outcome::Draw, GameKind::Played))
        );
        assert_eq!(
            game_result("2-0", "ABANDONMENT", 1)
                .unwrap_err()
                .to_string(),
            "invalid game result"
        );
        assert!(game_result("0-1", "nonsense", 1).is_err());
    }

    fn entrant(player_no: i32, user: &str, start_rating: Option<i32>) -> Entrant {
        Entrant {
            player_no,
            user: user.into(),
            start_rating,
            name: user.to_uppercase(),
        }
    }

    #[test]
    fn a_load_keeps_the_entrants_in_order_and_names_the_tournament_in_errors() {
        let entrants = vec![entrant(1, "ann", Some(1500)), entrant(3, "bob", None)];
        let dates = (Some("2024/01/01".to_string()), None);
        let loaded = load(
            9,
            2,
            vec![TieBreak::DirectEncounter],
            dates.clone(),
            entrants.clone(),
            &[game(1, "bob", "ann")],
            &[],
        )
        .unwrap();
        assert_eq!(loaded.player_no, vec![1, 3]);
        assert_eq!(loaded.users, vec!["ann", "bob"]);
        assert_eq!(loaded.names, vec!["ANN", "BOB"]);
        assert_eq!(loaded.tournament.ratings(), &[Some(1500), None]);
        assert_eq!(loaded.first_date, dates.0);
        assert_eq!(loaded.order, vec![TieBreak::DirectEncounter]);
        let failed = |games: &[StoredGame], byes: &[StoredBye], rounds: i32| {
            load(
                9,
                rounds,
                vec![],
                (None, None),
                entrants.clone(),
                games,
                byes,
            )
            .unwrap_err()
        };
        let e = failed(&[game(1, "ann", "cy")], &[], 2);
        assert_eq!(
            e.to_string(),
            "tournament 9: a game of round 1 has an unregistered player"
        );
        assert_eq!(e.class(), ErrorClass::Internal);
        let e = failed(&[game(1, "ann", "bob")], &[bye(1, "bob", 2)], 2);
        assert!(e.to_string().starts_with("tournament 9: "), "{e}");
        assert_eq!(e.class(), ErrorClass::RuleViolation);
        let e = failed(&[], &[], 0);
        assert!(!e.to_string().contains("tournament 9"), "{e}");
        assert_eq!(e.class(), ErrorClass::Internal);
    }

    fn names(row: &StoredRow) -> Vec<&'static str> {
        row.iter().map(|(name, _)| *name).collect()
    }

    fn value<'r>(row: &'r StoredRow, name: &str) -> &'r Stored {
        &row.iter().find(|(n, _)| *n == name).expect("a column").1
    }

    #[test]
    fn values_are_stored_by_column_with_their_sort_key() {
        let v = PlayerValues {
            points_x2: 3,
            played: 2,
            won: 1,
            tpr: Some(1600),
            ..PlayerValues::default()
        };
        let rows = stored_values(&[(4, 2, v)], &[TieBreak::DirectEncounter]);
        let row = &rows[0];
        assert_eq!(row.len(), 16);
        assert_eq!(names(row)[..3], ["round", "player_no", "points_x2"]);
        assert_eq!(value(row, "round"), &Stored::Int(Some(2)));
        assert_eq!(value(row, "player_no"), &Stored::Int(Some(4)));
        assert_eq!(value(row, "played"), &Stored::Int(Some(2)));
        assert_eq!(value(row, "won"), &Stored::Int(Some(1)));
        assert_eq!(value(row, "tpr"), &Stored::Int(Some(1600)));
        assert_eq!(value(row, "ptp"), &Stored::Int(None));
        let key = sort_key(&v, &[TieBreak::DirectEncounter]);
        assert_eq!(value(row, "sort_key"), &Stored::Bytes(key));
    }

    #[test]
    fn a_load_reads_the_tournaments_own_row() {
        use crate::tournament::columns::test_row::{TestRow, V};
        let head = |order: &'static str| {
            TestRow::of(&[
                ("round_count", V::Int(2)),
                ("tie_breaks", V::Text(order)),
                ("first_date", V::Text("2024/01/01")),
            ])
        };
        let entrants = vec![entrant(1, "ann", None), entrant(2, "bob", None)];
        let games = [game(1, "ann", "bob")];
        let loaded = load_rows(9, &head("DE, BH"), entrants.clone(), &games, &[]).unwrap();
        assert_eq!(
            loaded.order,
            vec![TieBreak::DirectEncounter, TieBreak::Buchholz]
        );
        assert_eq!(
            (loaded.first_date.as_deref(), loaded.last_date),
            (Some("2024/01/01"), None)
        );
        assert_eq!(loaded.tournament.round_count(), 2);
        assert_eq!(tie_break_order(&head("")).unwrap(), vec![]);
        let e = load_rows(9, &head("XX"), entrants, &games, &[]).unwrap_err();
        assert_eq!(e.class(), ErrorClass::Internal);
        assert_eq!(e.to_string(), parse_order("XX").unwrap_err().to_string());
    }

    #[test]
    fn the_trf_report_names_the_tournament_and_its_players_in_seeded_order() {
        let entrants = vec![entrant(1, "ann", Some(1400)), entrant(2, "bob", Some(1600))];
        let dates = (
            Some("2024/01/01".to_string()),
            Some("2024/01/02".to_string()),
        );
        let loaded = load(7, 1, vec![], dates, entrants, &[game(1, "ann", "bob")], &[]).unwrap();
        let order = [1, 0];
        let seeded = loaded.tournament.renumbered(&order).unwrap();
        let trf = loaded.trf(7, &seeded, &order, Edition::C07_2026).unwrap();
        let by_hand = TrfInfo {
            name: "Random Chess Swiss tournament 7".into(),
            start_date: Some("2024/01/01".into()),
            end_date: Some("2024/01/02".into()),
            player_names: vec!["BOB".into(), "ANN".into()],
        };
        assert_eq!(
            trf,
            trf16(&seeded, &by_hand, &[], Edition::C07_2026).unwrap()
        );
        assert!(trf.contains("Random Chess Swiss tournament 7"), "{trf}");
        assert!(trf.find("BOB") < trf.find("ANN"), "{trf}");
    }

    #[test]
    fn a_card_is_read_from_its_row_and_a_damaged_one_names_its_player() {
        use crate::tournament::columns::test_row::{TestRow, V};
        let entries = [
            RoundEntry::Bye(ByeKind::PairingAllocated),
            RoundEntry::Absent,
        ];
        let mut opponents = Vec::new();
        let mut codes = String::new();
        for e in entries {
            let (opponent, colour, result) = e.stored();
            opponents.push(Some(opponent.unwrap_or(-1)));
            codes.push_str(&(colour + &result));
        }
        let codes: &'static str = Box::leak(codes.into_boxed_str());
        let row = |codes: &'static str| {
            TestRow::of(&[
                ("player_no", V::Int(4)),
                ("opponents", V::Ints(opponents.clone())),
                ("codes", V::Text(codes)),
                ("start_rating", V::Int(1500)),
            ])
        };
        assert_eq!(
            card_of(&row(codes)),
            Ok((4, (entries.to_vec(), Some(1500))))
        );
        let e = card_of(&row("x")).unwrap_err();
        assert!(e.starts_with("player 4: "), "{e}");
    }

    #[test]
    fn a_round_is_stored_by_registration_number_with_ranks_under_de() {
        let entrants = vec![entrant(2, "ann", Some(1500)), entrant(5, "bob", Some(1400))];
        let order = vec![TieBreak::DirectEncounter];
        let loaded = load(
            1,
            2,
            order,
            (None, None),
            entrants,
            &[game(1, "ann", "bob")],
            &[],
        )
        .unwrap();
        let rows = stored_round(&loaded, 1, Edition::C07_2026);
        assert_eq!(rows.len(), 2);
        let ann = &rows[0];
        assert_eq!(ann.len(), 22);
        assert_eq!(value(ann, "player_no"), &Stored::Int(Some(2)));
        assert_eq!(
            value(ann, "user_id_in_service"),
            &Stored::Text("ann".into())
        );
        // the opponent by registration number, not by the model's number
        assert_eq!(value(ann, "opponent_no"), &Stored::Int(Some(5)));
        assert_eq!(value(ann, "points_x2"), &Stored::Int(Some(2)));
        assert_eq!(value(ann, "tie_rank"), &Stored::Int(Some(1)));
        assert_eq!(value(&rows[1], "tie_rank"), &Stored::Int(Some(2)));
        let (_, colour, result) = loaded.tournament.card(0)[0].stored();
        assert_eq!(value(ann, "colour"), &Stored::Text(colour));
        assert_eq!(value(ann, "result"), &Stored::Text(result));
        let ranks = stored_ranks(&loaded, 0, 2, Edition::C07_2026);
        assert_eq!(ranks.len(), 4);
        assert_eq!(names(&ranks[0]), ["round", "player_no", "tie_rank", "de"]);
        assert_eq!(value(&ranks[3], "round"), &Stored::Int(Some(2)));
        assert_eq!(value(&ranks[3], "player_no"), &Stored::Int(Some(5)));
        for (row, rank) in rows.iter().zip(&ranks) {
            assert_eq!(value(row, "tie_rank"), value(rank, "tie_rank"));
            assert_eq!(value(row, "de"), value(rank, "de"));
        }
    }

    #[test]
    fn rows_written_are_bounded_by_their_players_and_first_round() {
        assert_eq!(
            players_and_first_round(&[(4, 3, ()), (1, 2, ()), (4, 2, ())]),
            (vec![1, 4], 2)
        );
        assert_eq!(players_and_first_round::<()>(&[]), (vec![], 1));
    }

    #[test]
    fn what_was_read_comes_back_in_the_players_order() {
        let found = [(3, vec![1]), (0, vec![2])];
        assert_eq!(
            in_order_of(&[0, 5, 3], found),
            vec![vec![2], vec![], vec![1]]
        );
    }

    #[test]
    fn rows_make_the_tournament_by_pairing_number() {
        let ratings = vec![Some(1500), None, Some(1400)];
        let t = from_rows(
            2,
            &users(),
            ratings.clone(),
            &[game(1, "cy", "ann")],
            &[bye(1, "bob", 2)],
        )
        .unwrap();
        let mut by_hand = Tournament::new(2, ratings).unwrap();
        by_hand
            .add_game(1, 2, 0, Outcome::Win, GameKind::Played)
            .unwrap();
        by_hand.add_bye(1, 1, ByeKind::PairingAllocated).unwrap();
        assert_eq!(t, by_hand);
        assert_eq!(t.card(1)[0], RoundEntry::Bye(ByeKind::PairingAllocated));
    }

    #[test]
    fn damaged_rows_and_broken_rules_are_told_apart() {
        let r = |games: &[StoredGame], byes: &[StoredBye]| {
            from_rows(2, &users(), vec![None; 3], games, byes)
        };
        assert_eq!(
            r(&[game(2, "ann", "dan")], &[]),
            Err(LoadError::Damaged(
                "a game of round 2 has an unregistered player".into()
            ))
        );
        assert_eq!(
            r(&[], &[bye(1, "dan", 2)]),
            Err(LoadError::Damaged(
                "a bye of round 1 has an unregistered player".into()
            ))
        );
        assert_eq!(
            r(&[], &[bye(1, "ann", 3)]),
            Err(LoadError::Damaged(
                "a bye is worth 1, 0.5 or 0 points, not 1.5".into()
            ))
        );
        assert!(matches!(
            r(&[game(1, "ann", "bob")], &[bye(1, "bob", 2)]),
            Err(LoadError::Rule(_))
        ));
        assert!(matches!(
            from_rows(0, &users(), vec![None; 3], &[], &[]),
            Err(LoadError::Tournament(_))
        ));
    }
}
