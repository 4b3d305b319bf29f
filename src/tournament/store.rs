//! What the tournament triggers read and write through SPI: the tournament being changed
//! (locked), its games and byes, the derived tables, and the cards the core's incremental
//! refresh asks for.

use std::cell::RefCell;
use std::collections::HashMap;

use pg_rating_core::tournament::stored::{from_rows, LoadError, StoredBye, StoredGame};
use pg_rating_core::tournament::{
    game_entries, game_of, round_rows, sort_key, standings, CardSource, Edition, GameKind, Outcome,
    PlayerNo, PlayerValues, RoundEntry, TieBreak, Tournament,
};
use pgrx::datum::DatumWithOid;
use pgrx::prelude::*;
use pgrx::spi::{SpiClient, SpiHeapTupleData, SpiTupleTable};

/// The edition of C.07 the standings follow.
pub const EDITION: Edition = Edition::C07_2026;

pub use crate::error::internal;

/// A tournament as the standings need it, read under its lock.
pub struct Info {
    pub id: i32,
    pub order: Vec<TieBreak>,
    pub started_at: Option<TimestampWithTimeZone>,
    pub last_round: i32,
}

impl Info {
    pub fn has_de(&self) -> bool {
        self.order.contains(&TieBreak::DirectEncounter)
    }
}

/// A service game as a tournament sees it.
pub struct TournamentGame {
    pub white: String,
    pub black: String,
    /// White's outcome and the kind of game (the core's [`game_of`]).
    pub result: (Outcome, GameKind),
    pub date: TimestampWithTimeZone,
}

impl TournamentGame {
    /// The two entries of the game: White's and Black's.
    pub fn entries(&self, white: PlayerNo, black: PlayerNo) -> (RoundEntry, RoundEntry) {
        game_entries(white, black, self.result.0, self.result.1)
            .unwrap_or_else(|e| internal(format!("a tournament game: {e}")))
    }
}

/// The tie-break order of a row's `tie_breaks` (stored canonical: an error is a damaged row).
fn order_of(row: &SpiHeapTupleData<'_>) -> Vec<TieBreak> {
    pg_rating_core::tournament::parse_order(&column::<String>(row, "tie_breaks"))
        .unwrap_or_else(|e| internal(e))
}

/// White's outcome and the kind of the service game of a row (columns `end_type`, `reason`,
/// `moves`).
fn result_of(row: &SpiHeapTupleData<'_>) -> (Outcome, GameKind) {
    fn parsed<T: std::str::FromStr>(row: &SpiHeapTupleData<'_>, name: &str) -> T {
        column::<String>(row, name)
            .parse()
            .unwrap_or_else(|_| internal("invalid game result"))
    }
    let moves = column::<i32>(row, "moves") as usize;
    game_of(parsed(row, "end_type"), parsed(row, "reason"), moves)
}

/// A tournament loaded from its base tables: the core's model with players numbered 0..n in
/// pairing-number order, and each one's pairing number, account and rating.
pub struct Loaded {
    pub tournament: Tournament,
    pub player_no: Vec<i32>,
    pub users: Vec<String>,
    pub names: Vec<String>,
    pub order: Vec<TieBreak>,
    pub first_date: Option<String>,
    pub last_date: Option<String>,
}

pub struct TournamentStore<'c, 'conn> {
    client: &'c mut SpiClient<'conn>,
    /// Runs every statement as a read (no transaction id: works on a hot standby).
    read_only: bool,
}

use super::columns::{ArrayStatement, INSERT_ROWS, WRITE_RANKS, WRITE_VALUES};
use crate::columns::Arrays;
use crate::spi::{column, nullable};

impl<'c, 'conn> TournamentStore<'c, 'conn> {
    pub fn new(client: &'c mut SpiClient<'conn>) -> Self {
        TournamentStore {
            client,
            read_only: false,
        }
    }

    /// A store that only reads.
    pub fn reader(client: &'c mut SpiClient<'conn>) -> Self {
        TournamentStore {
            client,
            read_only: true,
        }
    }

    /// Runs one of this module's statements with its saved plan.
    pub fn query(&mut self, sql: &str, args: &[DatumWithOid]) -> SpiTupleTable<'conn> {
        if self.read_only {
            crate::spi::read(self.client, sql, args)
        } else {
            crate::spi::write(self.client, sql, args)
        }
    }

    /// Locks the tournament's progress row until commit and reads it; `None` when the
    /// tournament no longer exists (its rows are being deleted with it). The tournament's row
    /// is share-locked first: a change of its settings (the tie-break order) refreshes the
    /// standings under the progress row's lock, and a writer that read the settings before
    /// waiting for that lock would write by the old ones. Locked, a writer waits for a change
    /// under way and reads the new settings (under REPEATABLE READ: 40001); the tournament's
    /// row is locked before the progress row (in a statement of its own, so the order is
    /// plain), as a change of the tournament does.
    pub fn lock(&mut self, id: i32) -> Option<Info> {
        self.query(
            "SELECT FROM @extschema@.swiss_tournaments WHERE tournament_id = $1 FOR SHARE",
            &[id.into()],
        );
        let rows = self.query(
            "SELECT t.tie_breaks::text AS tie_breaks, p.started_at, p.last_round
             FROM @extschema@.swiss_tournaments t JOIN @extschema@.swiss_tournament_progress p ON p.tournament_id = t.tournament_id
             WHERE t.tournament_id = $1 FOR UPDATE OF p",
            &[id.into()],
        );
        let row = rows.into_iter().next()?;
        let order = order_of(&row);
        Some(Info {
            id,
            order,
            started_at: nullable(&row, "started_at"),
            last_round: column(&row, "last_round"),
        })
    }

    pub fn game(&mut self, game_id: i32) -> Option<TournamentGame> {
        let rows = self.query(
            include_str!("../../sql/random_chess/glue/tournament_game.sql"),
            &[game_id.into()],
        );
        let row = rows.into_iter().next()?;
        Some(TournamentGame {
            white: column(&row, "white"),
            black: column(&row, "black"),
            result: result_of(&row),
            date: column(&row, "creation_date"),
        })
    }

    pub fn player_no(&mut self, t: i32, user: &str) -> Option<PlayerNo> {
        let rows = self.query(
            "SELECT player_no FROM @extschema@.swiss_tournament_entrants WHERE tournament_id = $1 AND user_id_in_service = $2",
            &[t.into(), user.into()],
        );
        rows.into_iter()
            .next()
            .map(|r| column::<i32>(&r, "player_no") as PlayerNo)
    }

    /// The highest round with a game or a bye.
    pub fn max_round(&mut self, t: i32) -> i32 {
        let rows = self.query(
            "SELECT greatest((SELECT max(round) FROM @extschema@.tournaments_games WHERE tournament_id = $1),
                             (SELECT max(round) FROM @extschema@.byes WHERE tournament_id = $1), 0) AS last_round",
            &[t.into()],
        );
        rows.into_iter()
            .next()
            .map_or(0, |r| column(&r, "last_round"))
    }

    /// The creation date of the tournament's earliest game.
    pub fn first_game_date(&mut self, t: i32) -> Option<TimestampWithTimeZone> {
        let rows = self.query(
            "SELECT min(g.creation_date) AS first_date FROM @extschema@.tournaments_games tg JOIN @extschema@.service_games g ON g.id = tg.game_id
             WHERE tg.tournament_id = $1",
            &[t.into()],
        );
        rows.into_iter()
            .next()
            .and_then(|r| nullable(&r, "first_date"))
    }

    pub fn set_progress(
        &mut self,
        t: i32,
        started_at: Option<TimestampWithTimeZone>,
        last_round: i32,
    ) {
        self.query(
            "UPDATE @extschema@.swiss_tournament_progress SET started_at = $2, last_round = $3 WHERE tournament_id = $1",
            &[t.into(), started_at.into(), last_round.into()],
        );
    }

    /// Sets every entrant's (or one's) rating as of the start; returns how many changed.
    pub fn update_ratings(&mut self, t: i32, only: Option<&str>) -> usize {
        let rows = self.query(
            include_str!("../../sql/random_chess/glue/tournament_start_ratings.sql"),
            &[t.into(), only.into()],
        );
        rows.len()
    }

    /// Adds standings rows (absent entries, values to be computed) for rounds `from..=to` of
    /// every entrant, or of one.
    pub fn add_rows(&mut self, t: i32, from: i32, to: i32, only: Option<PlayerNo>) {
        if from > to {
            return;
        }
        self.query(
            include_str!("../../sql/random_chess/glue/tournament_add_rows.sql"),
            &[
                t.into(),
                from.into(),
                to.into(),
                only.map(|p| p as i32).into(),
            ],
        );
    }

    pub fn drop_rounds_after(&mut self, t: i32, last: i32) {
        self.query(
            "DELETE FROM @extschema@.swiss_tournament_standings WHERE tournament_id = $1 AND round > $2",
            &[t.into(), last.into()],
        );
    }

    pub fn set_entry(&mut self, t: i32, round: i32, player: PlayerNo, e: RoundEntry) {
        let (opp, colour, result) = e.stored();
        self.query(
            "UPDATE @extschema@.swiss_tournament_standings SET opponent_no = $4, colour = $5, result = $6
             WHERE tournament_id = $1 AND round = $2 AND player_no = $3",
            &[
                t.into(),
                round.into(),
                (player as i32).into(),
                opp.into(),
                colour.into(),
                result.into(),
            ],
        );
    }

    /// Writes computed values of (player, round) rows.
    pub fn write_values(
        &mut self,
        t: i32,
        order: &[TieBreak],
        rows: &[(PlayerNo, u32, PlayerValues)],
    ) {
        if rows.is_empty() {
            return;
        }
        let mut arrays = WRITE_VALUES.arrays();
        for (p, s, v) in rows {
            arrays.push("round", *s as i32);
            arrays.push("player_no", *p as i32);
            push_values(&mut arrays, v, sort_key(v, order));
        }
        let mut players: Vec<i32> = rows.iter().map(|(p, _, _)| *p as i32).collect();
        players.sort_unstable();
        players.dedup();
        let first_round = rows.iter().map(|(_, s, _)| *s as i32).min().unwrap_or(1);
        self.write_rows(
            &WRITE_VALUES,
            t,
            arrays,
            vec![players.into(), first_round.into()],
        );
    }

    /// Runs `statement` on the rows of tournament `t` in `arrays`; `after` are the parameters
    /// that follow the arrays.
    fn write_rows(
        &mut self,
        statement: &'static ArrayStatement,
        t: i32,
        arrays: Arrays,
        after: Vec<DatumWithOid<'static>>,
    ) {
        let mut args: Vec<DatumWithOid<'static>> = vec![t.into()];
        args.extend(arrays.into_args());
        args.extend(after);
        self.query(statement.text(), &args);
    }

    /// Each entrant's current rating in the tournament's ranking, by registration number: the
    /// latest, else the ranking's start; none for a bot the ranking excludes or without a ranking.
    pub fn ratings_now(&mut self, t: i32) -> HashMap<i32, Option<i32>> {
        let rows = self.query(
            include_str!("../../sql/random_chess/glue/tournament_ratings_now.sql"),
            &[t.into()],
        );
        rows.into_iter()
            .map(|row| {
                (
                    column::<i32>(&row, "player_no"),
                    nullable::<i32>(&row, "rating"),
                )
            })
            .collect()
    }

    /// Loads a tournament from its base tables (games, byes, registrations, ratings).
    pub fn load(&mut self, t: i32) -> Option<Loaded> {
        let rows = self.query(
            include_str!("../../sql/random_chess/glue/tournament_load.sql"),
            &[t.into()],
        );
        let row = rows.into_iter().next()?;
        let round_count = column::<i32>(&row, "round_count") as u32;
        let order = order_of(&row);
        let first_date = nullable::<String>(&row, "first_date");
        let last_date = nullable::<String>(&row, "last_date");
        let rows = self.query(
            include_str!("../../sql/random_chess/glue/tournament_entrants.sql"),
            &[t.into()],
        );
        let (mut player_no, mut users, mut ratings, mut names) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for row in rows {
            player_no.push(column::<i32>(&row, "player_no"));
            users.push(column::<String>(&row, "user_id"));
            ratings.push(nullable::<i32>(&row, "start_rating"));
            names.push(column::<String>(&row, "display_name"));
        }
        let rows = self.query(
            include_str!("../../sql/random_chess/glue/tournament_games.sql"),
            &[t.into()],
        );
        let games: Vec<StoredGame> = rows
            .into_iter()
            .map(|row| StoredGame {
                round: column::<i32>(&row, "round") as u32,
                white: column(&row, "white"),
                black: column(&row, "black"),
                result: result_of(&row),
            })
            .collect();
        let rows = self.query(
            &format!(
                "SELECT round, user_id_in_service::text AS user_id, {} AS half_points
                 FROM @extschema@.byes b WHERE tournament_id = $1 ORDER BY b.round",
                crate::compat::BYE_HALF_POINTS
            ),
            &[t.into()],
        );
        let byes: Vec<StoredBye> = rows
            .into_iter()
            .map(|row| StoredBye {
                round: column::<i32>(&row, "round") as u32,
                user: column(&row, "user_id"),
                half_points: column(&row, "half_points"),
            })
            .collect();
        let tournament =
            from_rows(round_count, &users, ratings, &games, &byes).unwrap_or_else(|e| match e {
                LoadError::Tournament(e) => internal(e),
                LoadError::Damaged(e) => internal(format!("tournament {t}: {e}")),
                // (the core's class of the error, with the tournament named)
                LoadError::Rule(e) => {
                    crate::error::raise(crate::error::code(&e), format!("tournament {t}: {e}"))
                }
            });
        Some(Loaded {
            tournament,
            player_no,
            users,
            names,
            order,
            first_date,
            last_date,
        })
    }

    /// Rewrites every standings row of the tournament from `loaded` (rounds 1..=last).
    pub fn write_all(&mut self, t: i32, loaded: &Loaded, last: u32) -> i64 {
        self.query(
            "DELETE FROM @extschema@.swiss_tournament_standings WHERE tournament_id = $1",
            &[t.into()],
        );
        let mut arrays = INSERT_ROWS.arrays();
        for s in 1..=last {
            push_round(&mut arrays, loaded, s);
        }
        let n = arrays.rows();
        if n > 0 {
            self.write_rows(&INSERT_ROWS, t, arrays, Vec::new());
        }
        n as i64
    }

    /// With DE in the order: the shared rank and DE score of every row of rounds `from..=last`.
    pub fn write_ranks(&mut self, t: i32, from: u32, last: u32) {
        let Some(loaded) = self.load(t) else { return };
        let mut arrays = WRITE_RANKS.arrays();
        for s in from.max(1)..=last {
            for x in standings(&loaded.tournament, s, &loaded.order, EDITION) {
                arrays.push("round", s as i32);
                arrays.push("player_no", loaded.player_no[x.player as usize]);
                arrays.push("tie_rank", x.rank as i32);
                arrays.push("de", x.de);
            }
        }
        if arrays.rows() > 0 {
            self.write_rows(&WRITE_RANKS, t, arrays, Vec::new());
        }
    }
}

/// Pushes the rows of round `s` of every player of `loaded` (the core's [`round_rows`]), each
/// opponent by its registration number.
fn push_round(arrays: &mut Arrays, loaded: &Loaded, s: u32) {
    for (i, row) in round_rows(&loaded.tournament, s, &loaded.order, EDITION)
        .into_iter()
        .enumerate()
    {
        let entry = row
            .entry
            .with_opponent(|o| loaded.player_no[o as usize] as PlayerNo);
        let (opponent, colour, result) = entry.stored();
        arrays.push("round", s as i32);
        arrays.push("player_no", loaded.player_no[i]);
        arrays.push("user_id_in_service", loaded.users[i].clone());
        arrays.push("opponent_no", opponent);
        arrays.push("colour", colour);
        arrays.push("result", result);
        push_values(arrays, &row.values, row.sort_key);
        arrays.push("tie_rank", row.rank.map(|r| r as i32));
        arrays.push("de", row.de);
    }
}

/// Pushes the values the core computed for a row, and its sort key.
fn push_values(arrays: &mut Arrays, v: &PlayerValues, sort_key: Vec<u8>) {
    arrays.push("points_x2", v.points_x2);
    arrays.push("adjusted_x2", v.adjusted_x2);
    arrays.push("played", v.played as i32);
    arrays.push("win", v.win as i32);
    arrays.push("won", v.won as i32);
    arrays.push("bh_x2", v.bh_x2);
    arrays.push("bh_c1_x2", v.bh_c1_x2);
    arrays.push("sb_x4", v.sb_x4);
    arrays.push("sb_c1_x4", v.sb_c1_x4);
    arrays.push("aro", v.aro);
    arrays.push("aro_c1", v.aro_c1);
    arrays.push("tpr", v.tpr);
    arrays.push("ptp", v.ptp);
    arrays.push("sort_key", sort_key);
}

/// The cards the core's refresh asks for, read from the standings rows' entries.
pub struct StoredCards<'s, 'c, 'conn> {
    pub store: RefCell<&'s mut TournamentStore<'c, 'conn>>,
    pub tournament: i32,
}

impl CardSource for StoredCards<'_, '_, '_> {
    /// One row per player: its rating as of the start and its entries of rounds 1..last
    /// aggregated in round order (opponents as an array, colour and result as a string).
    fn cards(&self, players: &[PlayerNo]) -> Vec<(Vec<RoundEntry>, Option<i32>)> {
        let ids: Vec<i32> = players.iter().map(|&p| p as i32).collect();
        let mut store = self.store.borrow_mut();
        let mut cards: HashMap<i32, (Vec<RoundEntry>, Option<i32>)> =
            HashMap::with_capacity(ids.len());
        let rows = store.query(
            include_str!("../../sql/random_chess/glue/tournament_cards.sql"),
            &[self.tournament.into(), ids.into()],
        );
        for row in rows {
            let p: i32 = column(&row, "player_no");
            let opponents: Vec<Option<i32>> = column(&row, "opponents");
            let card = RoundEntry::card_from_codes(&opponents, &column::<String>(&row, "codes"))
                .unwrap_or_else(|e| internal(format!("player {p}: {e}")));
            cards.insert(p, (card, nullable(&row, "start_rating")));
        }
        players
            .iter()
            .map(|p| cards.remove(&(*p as i32)).unwrap_or((Vec::new(), None)))
            .collect()
    }
}
