//! Rankings of the Random Chess schema (a client of the engine: nothing of the engine imports
//! it): which games count in a ranking ([`window`]) and its history ([`history`]): the games rated
//! by the ledgers' replay in `(creation_date, id)` order, entries numbered and chained per player.
//! The rating system a ranking row names is the engine's ([`crate::rating::system`]); what a row
//! of `rankings` makes of a ranking is [`definition`], what the history writes [`stored`] (the
//! plan) and [`rows`] (the rows' values), and the writers' errors [`error`].

pub mod accounts;
pub mod definition;
pub mod error;
pub mod history;
pub mod recorded;
pub mod rows;
pub mod stored;
pub mod window;

pub use crate::rating::system::{PlayerState, RatingSystem, SystemSettings};
pub use definition::Ranking;
pub use error::RankingError;
#[cfg(test)]
pub(crate) use history::{appendable, rate};
pub use history::{
    appended_order, as_ledger, black_first, chain, name_games_by_id, new_games, newcomer,
    renumbers, replay_from, rules, GameKey, HistoryEntry, RankingSettings, RatedGame, Tip,
};
pub use window::{GameFacts, RankingWindow, ServiceGame};
