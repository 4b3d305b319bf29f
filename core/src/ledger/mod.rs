//! Ledgers: the rating history of any table of games. A ledger is a rating system with its
//! rules ([`LedgerRules`]); its games are replayed in `(date, key)` order ([`LedgerKey`]), per
//! scope, and every game gives each player an [`Entry`]: the player's [`Standing`] before and
//! after it. A standing carries the whole record (games, results, peak, streaks, opponents'
//! ratings), so the standing after any entry is all a replay from that entry on needs: a
//! backdated game costs the games after it, never the whole history.

pub mod attachment;
pub mod digest;
pub mod kept;
mod multiplayer;
pub mod now;
pub mod paths;
mod quality;
mod replay;
pub mod results;
pub mod row_check;
pub mod rows;
mod rules;
pub mod settings_row;
mod standing;
pub mod what_if;
pub mod writer;

pub use multiplayer::{
    games_of_participants, replay_multiplayer, replay_multiplayer_seasons, MultiGame,
    MultiplayerRule,
};
pub use quality::{check_band, quality, quality_by_group, Quality, QualitySum};
pub use replay::{
    appendable, rename_game, replay, replay_seasons, replay_seasons_into, Entry, EntryRef,
    LedgerGame, Outcome,
};
pub use rules::{
    check_seed, reserved_name, LedgerRules, LedgerSettings, Limits, PeriodCap, Policy, Provisional,
    Variant, MAX_RD, MIN_RD, RESERVED_PREFIX,
};
pub use standing::{changed_season_ends, SeasonEnd, Standing};

/// Where a game stands in its ledger: its date (microseconds), then its key, compared byte by
/// byte (the glue writes integer keys so that this order is their numeric order).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LedgerKey {
    pub at: i64,
    pub id: String,
}

/// Whether a game dated `micros` (PostgreSQL's microseconds; `-infinity` and `infinity` are
/// `i64::MIN` and `i64::MAX`) can be rated: an infinite date has no place in the order of games.
pub fn rateable_date(micros: i64) -> bool {
    micros != i64::MIN && micros != i64::MAX
}

/// The text of an integer game key whose byte order is its numeric order: 20 digits of the key
/// plus 2^63.
pub fn integer_key(id: i64) -> String {
    format!("{:020}", (id as i128) + (1i128 << 63))
}

/// The integer an [`integer_key`] was made from; `None` for any other text.
pub fn integer_key_id(key: &str) -> Option<i64> {
    if key.len() != 20 {
        return None;
    }
    let n: i128 = key.parse().ok()?;
    i64::try_from(n - (1i128 << 63)).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_keys_sort_as_numbers() {
        let ids = [i64::MIN, -1_000, -1, 0, 1, 9, 10, 1_000_000, i64::MAX];
        let keys: Vec<String> = ids.iter().map(|&i| integer_key(i)).collect();
        let mut sorted = keys.clone();
        sorted.sort();
        assert_eq!(keys, sorted);
        assert!(keys.iter().all(|k| k.len() == 20));
        let back: Vec<Option<i64>> = keys.iter().map(|k| integer_key_id(k)).collect();
        assert_eq!(back, ids.map(Some));
        assert_eq!(integer_key_id("42"), None);
        assert_eq!(integer_key_id("abcdefghijklmnopqrst"), None);
    }
}
