//! Rankings of the Random Chess schema: which games count in a ranking ([`window`]) and how a
//! ranking's history is computed game by game in `(creation_date, id)` order with the ranking's
//! rating system ([`system`], [`replay`]).

pub mod record;
pub mod replay;
pub mod system;
pub mod window;

pub use record::{appendable, Record};
pub use replay::{replay, GameKey, RatedGame, RatedPair};
pub use system::{PlayerState, RatingSystem, SystemSettings};
pub use window::{GameFacts, RankingWindow};
