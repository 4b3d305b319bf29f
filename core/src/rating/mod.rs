//! Rating maths: Elo, FIDE, Skèmino, Glicko-2 and performance ratings, free of PostgreSQL, and
//! the rating system a ledger or a ranking names ([`system`]).
//!
//! Every function validates its inputs and returns a [`RatingError`] instead of NaN, an
//! infinity or an endless loop; [`RatingError::sqlstate`] gives the SQLSTATE the SQL layer
//! reports. Each module cites where its formulas and test vectors come from.

pub mod elo;
pub mod error;
pub mod fide;
pub mod glicko2;
pub mod performance;
pub mod period_players;
pub mod skemino;
pub mod system;

pub use error::{RatingError, RatingErrorKind};
pub use system::{PlayerState, RatingSystem, SystemSettings};
