//! What the tournament triggers read and write through SPI: the tournament being changed
//! (locked), its games and byes, the derived tables, and the cards the core's incremental
//! refresh asks for.

use std::cell::RefCell;

use pg_rating_core::tournament::columns::Columns;
use pg_rating_core::tournament::rules::Span;
use pg_rating_core::tournament::stored::{
    card_of, in_order_of, load_rows, players_and_first_round, stored_ranks, stored_round,
    stored_values, tie_break_order, Entrant, Stored, StoredBye, StoredGame, StoredRow,
    TournamentGame,
};
use pg_rating_core::tournament::{
    CardSource, Edition, PlayerNo, PlayerValues, RoundEntry, TieBreak,
};
use pgrx::datum::{DatumWithOid, FromDatum, Interval, IntoDatum};
use pgrx::prelude::*;
use pgrx::spi::{SpiClient, SpiHeapTupleData, SpiTupleTable};

/// The edition of C.07 the standings follow.
pub const EDITION: Edition = Edition::C07_2026;

pub use crate::error::internal;
pub use pg_rating_core::tournament::stored::Loaded;

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

/// A row read through SPI, lent to the core by column name ([`Columns`]).
pub struct Row<'c>(pub SpiHeapTupleData<'c>);

impl Columns for Row<'_> {
    fn int_or_null(&self, name: &str) -> Option<i32> {
        nullable(&self.0, name)
    }

    fn big_or_null(&self, name: &str) -> Option<i64> {
        nullable(&self.0, name)
    }

    fn flag_or_null(&self, name: &str) -> Option<bool> {
        nullable(&self.0, name)
    }

    fn text_or_null(&self, name: &str) -> Option<String> {
        nullable(&self.0, name)
    }

    fn span_or_null(&self, name: &str) -> Option<Span> {
        nullable::<Interval>(&self.0, name).map(crate::types::to_core)
    }

    fn time_or_null(&self, name: &str) -> Option<i64> {
        nullable::<TimestampWithTimeZone>(&self.0, name).map(|t| t.into_inner())
    }

    fn ints_or_null(&self, name: &str) -> Option<Vec<Option<i32>>> {
        nullable(&self.0, name)
    }

    fn null(&self, name: &str) -> ! {
        internal(format!("column {name} is NULL"))
    }
}

pub struct TournamentStore<'c, 'conn> {
    client: &'c mut SpiClient<'conn>,
    /// Runs every statement as a read (no transaction id: works on a hot standby).
    read_only: bool,
}

use super::columns::{ArrayStatement, INSERT_ROWS, WRITE_RANKS, WRITE_VALUES};
use crate::columns::{Arrays, Value};
use crate::error::raise_core;
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

    /// The first row of `sql`, if it gives one.
    pub fn first_row(&mut self, sql: &str, args: &[DatumWithOid]) -> Option<Row<'conn>> {
        self.query(sql, args).next().map(Row)
    }

    /// Column `name` (NOT NULL: a NULL is an internal error) of the first row of `sql`, if it gives one.
    pub fn first_value<T: IntoDatum + FromDatum>(
        &mut self,
        sql: &str,
        args: &[DatumWithOid],
        name: &str,
    ) -> Option<T> {
        Some(column(&self.first_row(sql, args)?.0, name))
    }

    /// Column `name` of the first row of `sql` (an aggregate's): `None` without a row, or when it
    /// is NULL.
    pub fn first<T: IntoDatum + FromDatum>(
        &mut self,
        sql: &str,
        args: &[DatumWithOid],
        name: &str,
    ) -> Option<T> {
        nullable(&self.first_row(sql, args)?.0, name)
    }

    /// Column `name` (NOT NULL) of every row of `sql`.
    pub fn each<T: IntoDatum + FromDatum>(
        &mut self,
        sql: &str,
        args: &[DatumWithOid],
        name: &str,
    ) -> Vec<T> {
        let rows = self.query(sql, args);
        rows.into_iter().map(|row| column(&row, name)).collect()
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
        let row = self.first_row(
            "SELECT t.tie_breaks::text AS tie_breaks, p.started_at, p.last_round
             FROM @extschema@.swiss_tournaments t JOIN @extschema@.swiss_tournament_progress p ON p.tournament_id = t.tournament_id
             WHERE t.tournament_id = $1 FOR UPDATE OF p",
            &[id.into()],
        )?;
        Some(Info {
            id,
            order: tie_break_order(&row).unwrap_or_else(|e| internal(e)),
            started_at: nullable(&row.0, "started_at"),
            last_round: row.int("last_round"),
        })
    }

    pub fn game(&mut self, game_id: i32) -> Option<TournamentGame> {
        let row = self.first_row(
            include_str!("../../sql/random_chess/glue/tournament_game.sql"),
            &[game_id.into()],
        )?;
        Some(TournamentGame::read(&row).unwrap_or_else(|e| internal(e)))
    }

    pub fn player_no(&mut self, t: i32, user: &str) -> Option<PlayerNo> {
        let no: Option<i32> = self.first_value(
            "SELECT player_no FROM @extschema@.swiss_tournament_entrants WHERE tournament_id = $1 AND user_id_in_service = $2",
            &[t.into(), user.into()],
            "player_no",
        );
        no.map(|no| no as PlayerNo)
    }

    /// Whether `user` is registered in tournament `t`.
    pub fn is_registered(&mut self, t: i32, user: &str) -> bool {
        self.first_value::<i32>(
            "SELECT 1 AS registered FROM @extschema@.tournaments_players WHERE tournament_id = $1 AND service_id = 1 AND user_id_in_service = $2",
            &[t.into(), user.into()],
            "registered",
        )
        .is_some()
    }

    /// The tournament's number of rounds (`None`: the tournament is gone).
    pub fn round_count(&mut self, t: i32) -> Option<i32> {
        self.first_value(
            "SELECT round_count FROM @extschema@.swiss_tournaments WHERE tournament_id = $1",
            &[t.into()],
            "round_count",
        )
    }

    /// The highest round with a game or a bye.
    pub fn max_round(&mut self, t: i32) -> i32 {
        self.first(
            "SELECT greatest((SELECT max(round) FROM @extschema@.tournaments_games WHERE tournament_id = $1),
                             (SELECT max(round) FROM @extschema@.byes WHERE tournament_id = $1), 0) AS last_round",
            &[t.into()],
            "last_round",
        )
        .unwrap_or(0)
    }

    /// The creation date of the tournament's earliest game.
    pub fn first_game_date(&mut self, t: i32) -> Option<TimestampWithTimeZone> {
        self.first(
            "SELECT min(g.creation_date) AS first_date FROM @extschema@.tournaments_games tg JOIN @extschema@.service_games g ON g.id = tg.game_id
             WHERE tg.tournament_id = $1",
            &[t.into()],
            "first_date",
        )
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
        push_rows(&mut arrays, stored_values(rows, order));
        let (players, first_round) = players_and_first_round(rows);
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

    /// The current rating in the tournament's ranking of each of `players` (registration
    /// numbers), in their order: the latest, else the ranking's start; none for a bot the ranking
    /// excludes or without a ranking.
    pub fn ratings_now(&mut self, t: i32, players: &[i32]) -> Vec<Option<i32>> {
        let rows = self.query(
            include_str!("../../sql/random_chess/glue/tournament_ratings_now.sql"),
            &[t.into()],
        );
        let found = rows.into_iter().map(|row| {
            let no: i32 = column(&row, "player_no");
            (no, nullable::<i32>(&row, "rating"))
        });
        in_order_of(players, found)
    }

    /// Loads a tournament from its base tables (games, byes, registrations, ratings).
    pub fn load(&mut self, t: i32) -> Option<Loaded> {
        let head = self.first_row(
            include_str!("../../sql/random_chess/glue/tournament_load.sql"),
            &[t.into()],
        )?;
        let rows = self.query(
            include_str!("../../sql/random_chess/glue/tournament_entrants.sql"),
            &[t.into()],
        );
        let entrants: Vec<Entrant> = rows.map(|row| Entrant::read(&Row(row))).collect();
        let rows = self.query(
            include_str!("../../sql/random_chess/glue/tournament_games.sql"),
            &[t.into()],
        );
        let games = rows.map(|row| StoredGame::read(&Row(row)).unwrap_or_else(|e| internal(e)));
        let games: Vec<StoredGame> = games.collect();
        let rows = self.query(
            &format!(
                "SELECT round, user_id_in_service::text AS user_id, {} AS half_points
                 FROM @extschema@.byes b WHERE tournament_id = $1 ORDER BY b.round",
                crate::compat::BYE_HALF_POINTS
            ),
            &[t.into()],
        );
        let byes: Vec<StoredBye> = rows.map(|row| StoredBye::read(&Row(row))).collect();
        let loaded = load_rows(t, &head, entrants, &games, &byes);
        Some(loaded.unwrap_or_else(|e| raise_core(&e)))
    }

    /// Rewrites every standings row of the tournament from `loaded` (rounds 1..=last).
    pub fn write_all(&mut self, t: i32, loaded: &Loaded, last: u32) -> i64 {
        self.query(
            "DELETE FROM @extschema@.swiss_tournament_standings WHERE tournament_id = $1",
            &[t.into()],
        );
        let mut arrays = INSERT_ROWS.arrays();
        for s in 1..=last {
            push_rows(&mut arrays, stored_round(loaded, s, EDITION));
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
        push_rows(&mut arrays, stored_ranks(&loaded, from, last, EDITION));
        if arrays.rows() > 0 {
            self.write_rows(&WRITE_RANKS, t, arrays, Vec::new());
        }
    }
}

/// Pushes the rows the core shaped, each value to its column.
fn push_rows(arrays: &mut Arrays, rows: Vec<StoredRow>) {
    for row in rows {
        for (column, value) in row {
            let value = match value {
                Stored::Int(x) => Value::Int(x),
                Stored::Text(x) => Value::Text(Some(x)),
                Stored::Bytes(x) => Value::Bytes(x),
                Stored::Decimal(x) => Value::Float(x),
            };
            arrays.push(column, value);
        }
    }
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
        let rows = store.query(
            include_str!("../../sql/random_chess/glue/tournament_cards.sql"),
            &[self.tournament.into(), ids.into()],
        );
        let found = rows.map(|row| card_of(&Row(row)).unwrap_or_else(|e| internal(e)));
        in_order_of(players, found)
    }
}
