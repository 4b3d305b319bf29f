//! The statements that write `swiss_tournament_standings` rows in bulk: one array per column,
//! each column named once (its name and type), and each statement's text made from its columns
//! once per backend.

use std::sync::OnceLock;

use crate::columns::{names, Arrays, Column, Kind};

/// The columns that name a row of a tournament.
const KEY: &[Column] = &[("round", Kind::Int), ("player_no", Kind::Int)];
/// The player's entry of the round, written when the row is made.
const ENTRY: &[Column] = &[
    ("user_id_in_service", Kind::Text),
    ("opponent_no", Kind::Int),
    ("colour", Kind::Text),
    ("result", Kind::Text),
];
/// The values the core computes for a player after a round, and their sort key.
const VALUES: &[Column] = &[
    ("points_x2", Kind::Int),
    ("adjusted_x2", Kind::Int),
    ("played", Kind::Int),
    ("win", Kind::Int),
    ("won", Kind::Int),
    ("bh_x2", Kind::Int),
    ("bh_c1_x2", Kind::Int),
    ("sb_x4", Kind::Int),
    ("sb_c1_x4", Kind::Int),
    ("aro", Kind::Int),
    ("aro_c1", Kind::Int),
    ("tpr", Kind::Int),
    ("ptp", Kind::Int),
    ("sort_key", Kind::Bytes),
];
/// With DE in the order: the shared rank and the DE score.
const RANKS: &[Column] = &[("tie_rank", Kind::Int), ("de", Kind::Decimal)];

/// A statement on standings rows passed as one array per column (`$2` on, unnested as `v`):
/// its columns, and its text made from them once per backend.
pub(super) struct ArrayStatement {
    columns: &'static [&'static [Column]],
    make: fn(&[Column]) -> String,
    text: OnceLock<String>,
}

impl ArrayStatement {
    const fn new(columns: &'static [&'static [Column]], make: fn(&[Column]) -> String) -> Self {
        ArrayStatement {
            columns,
            make,
            text: OnceLock::new(),
        }
    }

    fn all_columns(&self) -> Vec<Column> {
        self.columns
            .iter()
            .flat_map(|c| c.iter().copied())
            .collect()
    }

    pub(super) fn arrays(&self) -> Arrays {
        Arrays::new(self.all_columns())
    }

    pub(super) fn text(&'static self) -> &'static str {
        self.text.get_or_init(|| (self.make)(&self.all_columns()))
    }
}

/// `unnest($2::type, ...) AS v(name, ...)`: the columns' arrays.
fn unnest(columns: &[Column]) -> String {
    format!(
        "{} AS v({})",
        crate::columns::unnest(columns, 2),
        names(columns)
    )
}

/// `s.name = v.name AND ...`: the row of `v` (by the key columns).
fn same_row(key: &[Column]) -> String {
    let pairs: Vec<String> = key.iter().map(|(n, _)| format!("s.{n} = v.{n}")).collect();
    pairs.join(" AND ")
}

/// `name = v.name, ...`: the columns set from the arrays.
fn assignments(columns: &[Column]) -> String {
    let sets: Vec<String> = columns
        .iter()
        .map(|(n, _)| format!("{n} = v.{n}"))
        .collect();
    sets.join(", ")
}

/// Rows made with their entries, values and ranks.
pub(super) static INSERT_ROWS: ArrayStatement = ArrayStatement::new(
    &[KEY, ENTRY, VALUES, RANKS],
    |c| {
        format!(
            "INSERT INTO @extschema@.swiss_tournament_standings (tournament_id, {}) SELECT $1, v.* FROM {}",
            names(c),
            unnest(c)
        )
    },
);

/// New values of existing rows. The players and first round are index conditions too: the
/// planner has no estimate of unnest's rows.
pub(super) static WRITE_VALUES: ArrayStatement = ArrayStatement::new(&[KEY, VALUES], |c| {
    let players = c.len() + 2;
    format!(
        "UPDATE @extschema@.swiss_tournament_standings s SET {} FROM {}
         WHERE s.tournament_id = $1 AND s.player_no = ANY(${players}) AND s.round >= ${}
           AND {}",
        assignments(VALUES),
        unnest(c),
        players + 1,
        same_row(KEY)
    )
});

/// New ranks of existing rows, written only where they changed.
pub(super) static WRITE_RANKS: ArrayStatement = ArrayStatement::new(&[KEY, RANKS], |c| {
    let changed: Vec<String> = RANKS
        .iter()
        .map(|(n, _)| format!("s.{n} IS DISTINCT FROM v.{n}"))
        .collect();
    format!(
        "UPDATE @extschema@.swiss_tournament_standings s SET {} FROM {}
         WHERE s.tournament_id = $1 AND {} AND ({})",
        assignments(RANKS),
        unnest(c),
        same_row(KEY),
        changed.join(" OR ")
    )
});
