//! Typed errors of the chess module. `Display` is the message the glue reports; the kind
//! chooses the SQLSTATE (22P02 malformed FEN, 22023 bad move, 22004 NULL move).

use std::fmt;

use crate::error::{Classified, ErrorClass, Quoted};

/// The FEN field that is wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FenField {
    /// The whole text: wrong number of fields.
    Fields,
    Placement,
    SideToMove,
    Castling,
    EnPassant,
    HalfmoveClock,
    FullmoveNumber,
}

impl FenField {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Fields => "field count",
            Self::Placement => "piece placement",
            Self::SideToMove => "side to move",
            Self::Castling => "castling",
            Self::EnPassant => "en passant",
            Self::HalfmoveClock => "halfmove clock",
            Self::FullmoveNumber => "fullmove number",
        }
    }
}

/// A starting position that is not a valid FEN of a legal chess position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenError {
    pub fen: String,
    pub field: FenField,
    pub reason: String,
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.field == FenField::Fields {
            write!(f, "invalid FEN {}: {}", Quoted(&self.fen), self.reason)
        } else {
            write!(
                f,
                "invalid FEN {}: {} field: {}",
                Quoted(&self.fen),
                self.field.as_str(),
                self.reason
            )
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveErrorKind {
    /// Not UCI (or not SAN) at all.
    Unparsable,
    /// Well formed but not legal in the position.
    Illegal,
    /// SAN that matches more than one legal move.
    Ambiguous,
}

/// A move that cannot be played; `ply` counts from 1, `position` is the full FEN before it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveError {
    pub ply: usize,
    pub mv: String,
    pub position: String,
    pub kind: MoveErrorKind,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            MoveErrorKind::Unparsable => "unparsable",
            MoveErrorKind::Illegal => "illegal",
            MoveErrorKind::Ambiguous => "ambiguous",
        };
        write!(
            f,
            "{what} move {} at ply {} in position {}",
            Quoted(&self.mv),
            self.ply,
            Quoted(&self.position)
        )
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChessError {
    Fen(FenError),
    Move(MoveError),
    /// A NULL element in a moves array, at this ply (from 1).
    NullMove(usize),
    /// A `[Variant]` other than standard chess or Chess960.
    Variant(String),
    /// More moves than [`super::MAX_MOVES`] in one call.
    TooManyMoves,
}

impl fmt::Display for ChessError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Fen(e) => e.fmt(f),
            Self::Move(e) => e.fmt(f),
            Self::NullMove(ply) => write!(f, "move at ply {ply} is NULL"),
            Self::Variant(v) => write!(f, "unsupported variant {}", Quoted(v)),
            Self::TooManyMoves => write!(
                f,
                "a game has at most {} moves (a legal game ends within 8,849 plies)",
                super::MAX_MOVES
            ),
        }
    }
}

impl std::error::Error for ChessError {}

impl Classified for ChessError {
    fn class(&self) -> ErrorClass {
        match self {
            Self::Fen(_) => ErrorClass::InvalidText,
            Self::Move(_) | Self::Variant(_) => ErrorClass::InvalidParameter,
            Self::NullMove(_) => ErrorClass::NullValue,
            Self::TooManyMoves => ErrorClass::ProgramLimit,
        }
    }
}

impl From<FenError> for ChessError {
    fn from(e: FenError) -> Self {
        Self::Fen(e)
    }
}

impl From<MoveError> for ChessError {
    fn from(e: MoveError) -> Self {
        Self::Move(e)
    }
}
