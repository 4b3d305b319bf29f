//! The rows a ranking's history writes: the columns of `elo_history` and `ranking_players` the
//! rankings fill, and an entry's and a standing's values in them, each named by its column.

use super::accounts::LOCAL_SERVICE;
use super::history::HistoryEntry;
use super::stored::PlayerTip;

/// What a column holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColumnKind {
    Int,
    Text,
    /// A number kept as `numeric`: written as the shortest decimal that reads back as its `f64`,
    /// so a state read back equals the state computed.
    Decimal,
    /// A `timestamptz`, in PostgreSQL's microseconds.
    Time,
}

/// One value of a row.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RowValue<'a> {
    Int(Option<i32>),
    Text(&'a str),
    Decimal(Option<f64>),
    Time(i64),
}

/// A column: its name and what it holds.
pub type Column = (&'static str, ColumnKind);

/// A value named by its column.
pub type Named<'a> = (&'static str, RowValue<'a>);

use ColumnKind::{Decimal, Int, Text, Time};

/// The columns of `elo_history` the rankings write.
pub const HISTORY_COLUMNS: [Column; 10] = [
    ("id", Int),
    ("service_id", Int),
    ("user_id_in_service", Text),
    ("ranking_id", Int),
    ("game_id", Int),
    ("elo", Decimal),
    ("previous_entry", Int),
    ("rd", Decimal),
    ("volatility", Decimal),
    ("game_date", Time),
];

/// An entry's `id` and what a replay changes of an entry it keeps (by `id`).
pub const HISTORY_CHANGED_COLUMNS: [Column; 6] = [
    ("id", Int),
    ("elo", Decimal),
    ("previous_entry", Int),
    ("rd", Decimal),
    ("volatility", Decimal),
    ("game_date", Time),
];

/// The columns of `ranking_players`; a standing replaces the one of its key
/// ([`STANDINGS_KEY`]).
pub const STANDINGS_COLUMNS: [Column; 14] = [
    ("ranking_id", Int),
    ("service_id", Int),
    ("user_id_in_service", Text),
    ("elo_history_id", Int),
    ("rating", Decimal),
    ("rd", Decimal),
    ("volatility", Decimal),
    ("games", Int),
    ("wins", Int),
    ("draws", Int),
    ("losses", Int),
    ("peak_rating", Decimal),
    ("last_game_date", Time),
    ("last_game_id", Int),
];

/// The key of a `ranking_players` row.
pub const STANDINGS_KEY: [&str; 3] = ["ranking_id", "service_id", "user_id_in_service"];

impl HistoryEntry {
    /// The entry's row of ranking `ranking`, in the order of [`HISTORY_COLUMNS`].
    pub fn row(&self, ranking: i32) -> [Named<'_>; 10] {
        let [elo, rd, volatility] = self.state_values();
        [
            ("id", RowValue::Int(Some(self.id))),
            ("service_id", RowValue::Int(Some(LOCAL_SERVICE))),
            ("user_id_in_service", RowValue::Text(&self.player)),
            ("ranking_id", RowValue::Int(Some(ranking))),
            ("game_id", RowValue::Int(Some(self.game.game_id))),
            ("elo", elo),
            ("previous_entry", RowValue::Int(self.previous)),
            ("rd", rd),
            ("volatility", volatility),
            ("game_date", RowValue::Time(self.game.played_at)),
        ]
    }

    /// What a replay writes over a stored entry it keeps, in the order of
    /// [`HISTORY_CHANGED_COLUMNS`].
    pub fn changed_row(&self) -> [Named<'_>; 6] {
        let [elo, rd, volatility] = self.state_values();
        [
            ("id", RowValue::Int(Some(self.id))),
            ("elo", elo),
            ("previous_entry", RowValue::Int(self.previous)),
            ("rd", rd),
            ("volatility", volatility),
            ("game_date", RowValue::Time(self.game.played_at)),
        ]
    }

    fn state_values(&self) -> [RowValue<'_>; 3] {
        let s = &self.state;
        [
            RowValue::Decimal(Some(s.rating)),
            RowValue::Decimal(s.rd),
            RowValue::Decimal(s.volatility),
        ]
    }
}

impl PlayerTip {
    /// The standing's row, in the order of [`STANDINGS_COLUMNS`].
    pub fn row(&self) -> [Named<'_>; 14] {
        let s = &self.tip.standing;
        let decimal = |x: f64| RowValue::Decimal(Some(x));
        let int = |x: i32| RowValue::Int(Some(x));
        [
            ("ranking_id", int(self.ranking)),
            ("service_id", int(LOCAL_SERVICE)),
            ("user_id_in_service", RowValue::Text(&self.player)),
            ("elo_history_id", int(self.tip.entry)),
            ("rating", decimal(s.state.rating)),
            ("rd", RowValue::Decimal(s.state.rd)),
            ("volatility", RowValue::Decimal(s.state.volatility)),
            ("games", int(s.games)),
            ("wins", int(s.wins)),
            ("draws", int(s.draws)),
            ("losses", int(s.losses)),
            ("peak_rating", decimal(s.peak)),
            ("last_game_date", RowValue::Time(self.tip.last.played_at)),
            ("last_game_id", int(self.tip.last.game_id)),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ranking::{GameKey, PlayerState, Tip};

    fn kind_of(value: RowValue<'_>) -> ColumnKind {
        match value {
            RowValue::Int(_) => Int,
            RowValue::Text(_) => Text,
            RowValue::Decimal(_) => Decimal,
            RowValue::Time(_) => Time,
        }
    }

    /// The values' names and kinds are the columns', in their order.
    fn fits(values: &[Named<'_>], columns: &[Column]) -> bool {
        let named: Vec<Column> = values.iter().map(|(n, v)| (*n, kind_of(*v))).collect();
        named == columns
    }

    fn entry() -> HistoryEntry {
        HistoryEntry {
            id: 11,
            player: "a".into(),
            game: GameKey {
                played_at: 77,
                game_id: 5,
            },
            state: PlayerState {
                rating: 1512.5,
                rd: Some(80.0),
                volatility: None,
                last_played: Some(77),
            },
            previous: Some(3),
        }
    }

    #[test]
    fn an_entry_fills_the_history_columns() {
        let e = entry();
        let row = e.row(4);
        assert!(fits(&row, &HISTORY_COLUMNS));
        let values: Vec<RowValue<'_>> = row.iter().map(|(_, v)| *v).collect();
        assert_eq!(
            values,
            [
                RowValue::Int(Some(11)),
                RowValue::Int(Some(LOCAL_SERVICE)),
                RowValue::Text("a"),
                RowValue::Int(Some(4)),
                RowValue::Int(Some(5)),
                RowValue::Decimal(Some(1512.5)),
                RowValue::Int(Some(3)),
                RowValue::Decimal(Some(80.0)),
                RowValue::Decimal(None),
                RowValue::Time(77),
            ]
        );
        // what a replay changes: the entry's values of those columns
        let changed = e.changed_row();
        assert!(fits(&changed, &HISTORY_CHANGED_COLUMNS));
        assert!(changed.iter().all(|c| row.contains(c)));
    }

    #[test]
    fn a_standing_fills_the_standings_columns() {
        let last = GameKey {
            played_at: 90,
            game_id: 6,
        };
        let tip = Tip::kept(12, (1490.0, None, None), [3, 1, 1, 1], 1530.0, last);
        let row = PlayerTip {
            ranking: 2,
            player: "b".into(),
            tip,
        };
        let values = row.row();
        assert!(fits(&values, &STANDINGS_COLUMNS));
        let value = |name: &str| values.iter().find(|(n, _)| *n == name).unwrap().1;
        assert_eq!(value("elo_history_id"), RowValue::Int(Some(12)));
        assert_eq!(value("rating"), RowValue::Decimal(Some(1490.0)));
        assert_eq!(value("rd"), RowValue::Decimal(None));
        let record = ["games", "wins", "draws", "losses"].map(value);
        assert_eq!(record, [3, 1, 1, 1].map(|n| RowValue::Int(Some(n))));
        assert_eq!(value("peak_rating"), RowValue::Decimal(Some(1530.0)));
        assert_eq!(
            (value("last_game_date"), value("last_game_id")),
            (RowValue::Time(90), RowValue::Int(Some(6)))
        );
        assert!(STANDINGS_KEY
            .iter()
            .all(|k| STANDINGS_COLUMNS.iter().any(|(c, _)| c == k)));
    }
}
