//! The rows of a ledger's history: the columns of `ledger_entries` and `ledger_standings`, the
//! cells an [`Entry`] or a [`Standing`] makes of them, and a [`Standing`] read back from them.

use crate::columns::{Cell, Column, Kind, Named};
use crate::rating::PlayerState;

use super::attachment::game_key_text;
use super::digest::{DigestSum, RowDigests};
use super::{EntryRef, LedgerKey, Standing};

/// The columns of a standing, in entries (after the game) and standings rows alike.
pub const STANDING_COLUMNS: [Column; 12] = [
    ("rating", Kind::Float),
    ("rd", Kind::Float),
    ("volatility", Kind::Float),
    ("games", Kind::Int),
    ("wins", Kind::Int),
    ("draws", Kind::Int),
    ("losses", Kind::Int),
    ("peak", Kind::Float),
    ("streak", Kind::Int),
    ("best_streak", Kind::Int),
    ("opponents_sum", Kind::Float),
    ("score_sum", Kind::Float),
];

/// A row's first columns followed by those of a standing.
const fn with_standing<const N: usize, const M: usize>(head: [Column; N]) -> [Column; M] {
    const { assert!(N + STANDING_COLUMNS.len() == M) };
    let mut out = [("", Kind::Float); M];
    let mut i = 0;
    while i < N {
        out[i] = head[i];
        i += 1;
    }
    while i < M {
        out[i] = STANDING_COLUMNS[i - N];
        i += 1;
    }
    out
}

/// The columns of `ledger_entries`.
pub const ENTRY_COLUMNS: [Column; 24] = with_standing([
    ("ledger_id", Kind::Int),
    ("scope", Kind::Text),
    ("player", Kind::Text),
    ("game_date", Kind::Time),
    ("game_key", Kind::Text),
    ("game", Kind::Text),
    ("opponent", Kind::Text),
    ("score", Kind::Float),
    ("expected", Kind::Float),
    ("rating_before", Kind::Float),
    ("rd_before", Kind::Float),
    ("volatility_before", Kind::Float),
]);

/// The columns of `ledger_standings`.
pub const STANDINGS_COLUMNS: [Column; 17] = with_standing([
    ("ledger_id", Kind::Int),
    ("scope", Kind::Text),
    ("player", Kind::Text),
    ("last_game_date", Kind::Time),
    ("last_game_key", Kind::Text),
]);

/// A row's first cells followed by those of a standing.
fn with_standing_cells<'a, const N: usize, const M: usize>(
    head: [Named<Cell<'a>>; N],
    s: &Standing,
) -> [Named<Cell<'a>>; M] {
    const { assert!(N + STANDING_COLUMNS.len() == M) };
    let tail = [
        ("rating", Cell::Float(Some(s.state.rating))),
        ("rd", Cell::Float(s.state.rd)),
        ("volatility", Cell::Float(s.state.volatility)),
        ("games", Cell::Int(Some(s.games))),
        ("wins", Cell::Int(Some(s.wins))),
        ("draws", Cell::Int(Some(s.draws))),
        ("losses", Cell::Int(Some(s.losses))),
        ("peak", Cell::Float(Some(s.peak))),
        ("streak", Cell::Int(Some(s.streak))),
        ("best_streak", Cell::Int(Some(s.best_streak))),
        ("opponents_sum", Cell::Float(Some(s.opponents_sum))),
        ("score_sum", Cell::Float(Some(s.score_sum))),
    ];
    std::array::from_fn(|i| if i < N { head[i] } else { tail[i - N] })
}

/// The cells of an entry row of `ledger` and `scope` ([`ENTRY_COLUMNS`]); `game` is the game's key
/// as its table writes it.
pub fn entry_cells<'a>(
    ledger: i32,
    scope: &'a str,
    game: &'a str,
    e: &EntryRef<'a>,
) -> [Named<Cell<'a>>; 24] {
    let head = [
        ("ledger_id", Cell::Int(Some(ledger))),
        ("scope", Cell::Text(Some(scope))),
        ("player", Cell::Text(Some(e.player))),
        ("game_date", Cell::Time(e.key.at)),
        ("game_key", Cell::Text(Some(&e.key.id))),
        ("game", Cell::Text(Some(game))),
        ("opponent", Cell::Text(Some(e.opponent))),
        ("score", Cell::Float(Some(e.score))),
        ("expected", Cell::Float(Some(e.expected))),
        ("rating_before", Cell::Float(Some(e.before.state.rating))),
        ("rd_before", Cell::Float(e.before.state.rd)),
        ("volatility_before", Cell::Float(e.before.state.volatility)),
    ];
    with_standing_cells(head, &e.after)
}

/// The order-free digest of entry rows ([`entry_cells`]) as a rebuild makes them, the two entries
/// of a game one after the other: each game's text in its table ([`game_key_text`]) made once.
pub struct EntriesDigest {
    integer_keys: bool,
    /// The last game's key and its text.
    game: (String, String),
    pub sum: DigestSum,
}

impl EntriesDigest {
    /// `integer_keys`: whether the games table's key is an integer.
    pub fn new(integer_keys: bool) -> Self {
        EntriesDigest {
            integer_keys,
            game: Default::default(),
            sum: DigestSum::default(),
        }
    }

    /// Adds the row of entry `e` of `ledger` and `scope`.
    pub fn add(&mut self, digests: &mut RowDigests, ledger: i32, scope: &str, e: &EntryRef<'_>) {
        if self.game.0 != e.key.id {
            self.game.0.clear();
            self.game.0.push_str(&e.key.id);
            self.game.1 = game_key_text(&e.key.id, self.integer_keys);
        }
        let cells = entry_cells(ledger, scope, &self.game.1, e);
        self.sum.add(digests.of_cells(&cells));
    }
}

/// The cells of a standings row ([`STANDINGS_COLUMNS`]); `key` is the player's last game.
pub fn standing_row_cells<'a>(
    ledger: i32,
    scope: &'a str,
    player: &'a str,
    standing: &Standing,
    key: &'a LedgerKey,
) -> [Named<Cell<'a>>; 17] {
    let head = [
        ("ledger_id", Cell::Int(Some(ledger))),
        ("scope", Cell::Text(Some(scope))),
        ("player", Cell::Text(Some(player))),
        ("last_game_date", Cell::Time(key.at)),
        ("last_game_key", Cell::Text(Some(&key.id))),
    ];
    with_standing_cells(head, standing)
}

/// The standing held in the [`STANDING_COLUMNS`] of an entry (after its game) or standings row,
/// `cell` reading each column; `last_played` is the date of its game, the last one played.
/// `Err(column)` names a column that is NULL (only `rd` and `volatility` may be) or of another
/// kind.
pub fn standing_of<'a>(
    cell: impl Fn(Column) -> Cell<'a>,
    last_played: i64,
) -> Result<Standing, &'static str> {
    let float = |name: &'static str| match cell((name, Kind::Float)) {
        Cell::Float(x) => Ok(x),
        _ => Err(name),
    };
    let number = |name: &'static str| float(name)?.ok_or(name);
    let int = |name: &'static str| match cell((name, Kind::Int)) {
        Cell::Int(Some(x)) => Ok(x),
        _ => Err(name),
    };
    Ok(Standing {
        state: PlayerState {
            rating: number("rating")?,
            rd: float("rd")?,
            volatility: float("volatility")?,
            last_played: Some(last_played),
        },
        games: int("games")?,
        wins: int("wins")?,
        draws: int("draws")?,
        losses: int("losses")?,
        peak: number("peak")?,
        streak: int("streak")?,
        best_streak: int("best_streak")?,
        opponents_sum: number("opponents_sum")?,
        score_sum: number("score_sum")?,
        // not a column: summed from the period's entries when a cap needs it
        period_moved: 0.0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::columns::check_names;
    use crate::ledger::Entry;

    fn standing() -> Standing {
        Standing {
            state: PlayerState {
                rating: 1516.0,
                rd: Some(80.5),
                volatility: None,
                last_played: Some(7),
            },
            games: 3,
            wins: 2,
            draws: 1,
            losses: 0,
            peak: 1520.0,
            streak: 1,
            best_streak: 2,
            opponents_sum: 4500.0,
            score_sum: 2.5,
            period_moved: 0.0,
        }
    }

    fn key() -> LedgerKey {
        LedgerKey {
            at: 7,
            id: "g1".into(),
        }
    }

    #[test]
    fn rows_name_their_columns_in_order() {
        let s = standing();
        let k = key();
        let cells = standing_row_cells(1, "open", "alice", &s, &k);
        assert_eq!(
            check_names(cells.map(|(n, _)| n), &STANDINGS_COLUMNS),
            Ok(())
        );
        let entry = Entry {
            key: key(),
            player: "alice".into(),
            opponent: "bob".into(),
            score: 1.0,
            expected: 0.5,
            before: standing(),
            after: standing(),
        };
        let cells = entry_cells(1, "open", "g1", &entry.as_ref());
        assert_eq!(check_names(cells.map(|(n, _)| n), &ENTRY_COLUMNS), Ok(()));
        assert_eq!(cells[5], ("game", Cell::Text(Some("g1"))));
        assert_eq!(cells[10], ("rd_before", Cell::Float(Some(80.5))));
        assert_eq!(cells[13], ("rd", Cell::Float(Some(80.5))));
        assert_eq!(cells[14], ("volatility", Cell::Float(None)));
        assert_eq!(
            &ENTRY_COLUMNS[12..],
            &STANDINGS_COLUMNS[5..],
            "the standing's columns end both rows"
        );
    }

    #[test]
    fn a_standing_reads_back_from_its_cells() {
        let s = standing();
        let k = key();
        let cells = standing_row_cells(1, "", "alice", &s, &k);
        let cell = |(name, _): Column| cells.iter().find(|(n, _)| *n == name).unwrap().1;
        let mut back = standing_of(cell, 7).unwrap();
        assert_eq!(back.state.last_played, Some(7));
        back.state.last_played = s.state.last_played;
        assert_eq!(back, s);
    }

    #[test]
    fn a_null_or_mistyped_column_is_named() {
        let with = |column: &'static str, value: Cell<'static>| {
            move |(name, kind): Column| match (name == column, kind) {
                (true, _) => value,
                (false, Kind::Int) => Cell::Int(Some(1)),
                (false, _) => Cell::Float(Some(1.0)),
            }
        };
        assert_eq!(
            standing_of(with("rating", Cell::Float(None)), 0).unwrap_err(),
            "rating"
        );
        assert_eq!(
            standing_of(with("wins", Cell::Int(None)), 0).unwrap_err(),
            "wins"
        );
        assert_eq!(
            standing_of(with("peak", Cell::Int(Some(1))), 0).unwrap_err(),
            "peak"
        );
        let s = standing_of(with("rd", Cell::Float(None)), 0).unwrap();
        assert_eq!(s.state.rd, None);
    }
}
