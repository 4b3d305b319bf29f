//! Rankings of the Random Chess schema: which games count in a ranking ([`window`]), the rating
//! system a ranking row names ([`system`]), and its history ([`history`]): the games rated by the
//! ledgers' replay in `(creation_date, id)` order, entries numbered and chained per player.

pub mod history;
pub mod system;
pub mod window;

#[cfg(test)]
pub(crate) use history::{appendable, rate};
pub use history::{
    appended_order, black_first, chain, name_games_by_id, newcomer, renumbers, rules, GameKey,
    HistoryEntry, RatedGame, Tip,
};
pub use system::{PlayerState, RatingSystem, SystemSettings};
pub use window::{GameFacts, RankingWindow};
