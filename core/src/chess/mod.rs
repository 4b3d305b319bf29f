//! Chess in SQL: positions as partial FENs, UCI and SAN moves, PGN import and export, and
//! the lichess openings files. The rules of chess come from `shakmaty` and PGN tokens from
//! `pgn-reader`; this module only adds the conventions of the Random Chess schema:
//!
//! - a *partial FEN* is the first four FEN fields, with the en passant square only when an
//!   en passant capture is legal (the lichess rule, [`EnPassantMode::Legal`]);
//! - moves are UCI (`e2e4`, `e7e8q`), castling written `e1g1` or king-takes-rook `e1h1`;
//! - errors name what is wrong: the FEN field, or the ply, move and position.

pub mod error;
pub mod movetext;
pub mod openings;
pub mod pgn;
pub mod position;

pub use error::{ChessError, FenError, FenField, MoveError, MoveErrorKind};
pub use position::{
    fen_array, fen_array_into, moves_to_san, parse_start, partial_fen, pieces, play_san, play_uci,
    san_to_moves, uci_move, uci_of, write_partial_fen, FenWriter, MAX_MOVES, STANDARD_FEN,
};
pub use shakmaty::{Chess, EnPassantMode, Position};
