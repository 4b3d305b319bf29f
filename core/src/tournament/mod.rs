//! Swiss tournaments: standings with the FIDE tie-breaks and the FIDE TRF-16 export, free of
//! PostgreSQL.
//!
//! # Model
//!
//! Players are numbered `0..n` ([`PlayerNo`]); the number plus one is the starting rank (pairing
//! number) written to TRF, and the last resort when everything else is equal. Every player has a
//! *card*: one [`RoundEntry`] per round. A round without a game or a bye is [`RoundEntry::Absent`].
//!
//! How the Random Chess schema maps onto it (the glue's job, stated here once):
//! * a `tournaments_games` row is an [`RoundEntry::Game`] for both players, or an
//!   [`RoundEntry::Forfeit`] when [`classify_game`] says so;
//! * a `byes` row is worth one point (spec): [`ByeKind::PairingAllocated`], the bye a Swiss
//!   pairing gives the odd player out (category 16.2.1 of the regulations, TRF code `U`);
//! * a registered player with neither a game nor a bye in a round is [`RoundEntry::Absent`]: a
//!   zero-point bye, which is how FIDE counts every round after a withdrawal (C.07 16.1.1).
//!   Absences followed by a played round count at their real 0 for the opponents (16.2.3, 16.3.1);
//!   trailing absences — a withdrawal — count as draws for them (16.2.5, 16.3.2).
//!
//! # Forfeits
//!
//! The schema has no forfeit flag. Our rule ([`classify_game`]): a decisive result (`1-0`,
//! `0-1`) with reason `ABANDONMENT` and an empty moves array is a forfeit — the loser never
//! appeared, so the winner has a forfeit win and the loser a forfeit loss; neither played over
//! the board. Any other game is played over the board, including decisive or drawn games with
//! no move for another reason (a resignation or a timeout before the first move: TRF codes
//! `W`/`D`/`L`, "game lasted less than one move").
//!
//! # Regulations
//!
//! FIDE Handbook C.07, Play-off and Tie-break Regulations. [`Edition::C07_2026`] (in force from
//! 1 March 2026, <https://handbook.fide.com/chapter/TieBreakRegulations032026>) is the default;
//! [`Edition::C07_2024`] (1 April 2024 – 28 February 2026,
//! <https://handbook.fide.com/chapter/TieBreakRegulations082024>) differs only in article 16.4:
//! its dummy opponent always has the participant's own score, without the caps of 16.4.1 and
//! 16.4.2. See [`tiebreak`] for each rule and its article.

pub mod arguments;
mod codes;
pub mod columns;
pub mod initial_colour;
pub mod pairing;
pub mod pending;
pub mod rules;
pub mod seeding;
pub mod standings;
pub mod start;
pub mod stored;
pub mod tables;
pub mod tiebreak;
pub mod trf;
pub mod trf_read;
pub mod virtual_points;

use std::fmt;

use crate::error::{Classified, ErrorClass};
use crate::result::{GameEndReason, GameEndType};

pub use standings::{
    encounters_in, rank_players, refresh, round_rows, sort_key, standings, values_after,
    CardSource, Placement, RoundRow, StandingsRow,
};
pub use tiebreak::{
    adjusted_points_x2, canonical_order, categories, fide_tpr, format_order, is_vur, parse_order,
    player_values, points_x2, Category, Edition, OpponentView, PlayerValues, TieBreak,
    DEFAULT_ORDER,
};
pub use trf::{trf16, TrfInfo};

/// A player's number in a tournament: 0-based; the TRF starting rank is `PlayerNo + 1`.
pub type PlayerNo = u32;

/// Colour of the pieces (for a forfeit: the scheduled colour).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Colour {
    White,
    Black,
}

impl Colour {
    pub fn opposite(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }
}

/// The result of a game from one player's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Win,
    Draw,
    Loss,
}

impl Outcome {
    /// Points in half points: 2, 1 or 0.
    pub fn half_points(self) -> i32 {
        match self {
            Outcome::Win => 2,
            Outcome::Draw => 1,
            Outcome::Loss => 0,
        }
    }

    /// White's outcome of a game that ended `end`.
    pub fn of_white(end: GameEndType) -> Outcome {
        match end {
            GameEndType::WhiteWins => Outcome::Win,
            GameEndType::BlackWins => Outcome::Loss,
            GameEndType::Draw => Outcome::Draw,
        }
    }

    pub fn reversed(self) -> Outcome {
        match self {
            Outcome::Win => Outcome::Loss,
            Outcome::Draw => Outcome::Draw,
            Outcome::Loss => Outcome::Win,
        }
    }
}

/// Kinds of byes (C.07 16.1, 16.2; TRF-16 result codes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ByeKind {
    /// Pairing-allocated bye, one point (TRF `U`). Random Chess byes are these.
    PairingAllocated,
    /// Requested full-point bye (TRF `F`).
    Full,
    /// Requested half-point bye (TRF `H`).
    Half,
    /// Requested zero-point bye (TRF `Z`).
    Zero,
}

impl ByeKind {
    /// The bye worth `half_points` (a `byes` row's points, doubled): one point is the
    /// pairing-allocated bye (the bye of Random Chess's data), half a point and zero are
    /// requested byes.
    pub fn worth(half_points: i32) -> Result<ByeKind> {
        match half_points {
            2 => Ok(ByeKind::PairingAllocated),
            1 => Ok(ByeKind::Half),
            0 => Ok(ByeKind::Zero),
            _ => Err(TournamentError::invalid(format!(
                "a bye is worth 1, 0.5 or 0 points, not {}",
                f64::from(half_points) / 2.0
            ))),
        }
    }

    /// The bye worth `points` (a `byes` row's points), rounded to half points.
    pub fn of_points(points: f64) -> Result<ByeKind> {
        ByeKind::worth((points * 2.0).round() as i32)
    }

    pub fn half_points(self) -> i32 {
        match self {
            ByeKind::PairingAllocated | ByeKind::Full => 2,
            ByeKind::Half => 1,
            ByeKind::Zero => 0,
        }
    }
}

/// What happened to a player in one round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RoundEntry {
    /// A game played over the board. `moved` is false when the game ended before the first
    /// move for a reason other than a forfeit (TRF `W`/`D`/`L`); it still counts as played.
    Game {
        opponent: PlayerNo,
        colour: Colour,
        outcome: Outcome,
        moved: bool,
    },
    /// A forfeit: the scheduled opponent and colour, and whether this player won it.
    Forfeit {
        opponent: PlayerNo,
        colour: Colour,
        won: bool,
    },
    /// A bye.
    Bye(ByeKind),
    /// Neither a game nor a bye: a zero-point bye (C.07 16.1.1).
    Absent,
}

impl RoundEntry {
    /// Points in half points.
    pub fn half_points(self) -> i32 {
        match self {
            RoundEntry::Game { outcome, .. } => outcome.half_points(),
            RoundEntry::Forfeit { won, .. } => 2 * i32::from(won),
            RoundEntry::Bye(kind) => kind.half_points(),
            RoundEntry::Absent => 0,
        }
    }

    /// The scheduled opponent (over the board or by forfeit).
    pub fn opponent(self) -> Option<PlayerNo> {
        match self {
            RoundEntry::Game { opponent, .. } | RoundEntry::Forfeit { opponent, .. } => {
                Some(opponent)
            }
            _ => None,
        }
    }

    /// The entry with its opponent renumbered by `number` (e.g. into pairing numbers).
    pub fn with_opponent(self, number: impl Fn(PlayerNo) -> PlayerNo) -> RoundEntry {
        match self {
            RoundEntry::Game {
                opponent,
                colour,
                outcome,
                moved,
            } => RoundEntry::Game {
                opponent: number(opponent),
                colour,
                outcome,
                moved,
            },
            RoundEntry::Forfeit {
                opponent,
                colour,
                won,
            } => RoundEntry::Forfeit {
                opponent: number(opponent),
                colour,
                won,
            },
            e => e,
        }
    }
}

/// How a tournament game counts (see the module documentation for the rule).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameKind {
    /// Played over the board with at least one move.
    Played,
    /// Played over the board but ended before the first move (not a forfeit).
    NoMove,
    /// A forfeit: the winner won without playing, the loser lost without playing.
    Forfeit,
}

/// Classifies a Random Chess game: decisive + `ABANDONMENT` + no moves is a forfeit.
pub fn classify_game(end: GameEndType, reason: GameEndReason, move_count: usize) -> GameKind {
    match (end, reason, move_count) {
        (GameEndType::WhiteWins | GameEndType::BlackWins, GameEndReason::Abandonment, 0) => {
            GameKind::Forfeit
        }
        (_, _, 0) => GameKind::NoMove,
        _ => GameKind::Played,
    }
}

/// White's outcome and the kind of a Random Chess game (see [`classify_game`]).
pub fn game_of(end: GameEndType, reason: GameEndReason, move_count: usize) -> (Outcome, GameKind) {
    (
        Outcome::of_white(end),
        classify_game(end, reason, move_count),
    )
}

/// White's and Black's entries of a game between `white` and `black`; `white_outcome` is
/// White's result. A forfeit cannot be a draw.
pub fn game_entries(
    white: PlayerNo,
    black: PlayerNo,
    white_outcome: Outcome,
    kind: GameKind,
) -> Result<(RoundEntry, RoundEntry)> {
    let black_outcome = white_outcome.reversed();
    Ok(match kind {
        GameKind::Forfeit => {
            if white_outcome == Outcome::Draw {
                return Err(TournamentError::invalid("a forfeit cannot be a draw"));
            }
            (
                RoundEntry::Forfeit {
                    opponent: black,
                    colour: Colour::White,
                    won: white_outcome == Outcome::Win,
                },
                RoundEntry::Forfeit {
                    opponent: white,
                    colour: Colour::Black,
                    won: black_outcome == Outcome::Win,
                },
            )
        }
        GameKind::Played | GameKind::NoMove => {
            let moved = kind == GameKind::Played;
            (
                RoundEntry::Game {
                    opponent: black,
                    colour: Colour::White,
                    outcome: white_outcome,
                    moved,
                },
                RoundEntry::Game {
                    opponent: white,
                    colour: Colour::Black,
                    outcome: black_outcome,
                    moved,
                },
            )
        }
    })
}

/// What went wrong, one SQLSTATE each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TournamentErrorKind {
    /// A value outside its domain: a round or player number out of range, a player paired
    /// with themselves, an unknown tie-break code (SQLSTATE 22023).
    InvalidParameter,
    /// The entry contradicts the tournament: the player already has a game or a bye in that
    /// round (23514).
    Conflict,
    /// A value TRF-16 cannot hold in its fixed columns (22003).
    OutOfRange,
}

/// An error of the tournament core; `Display` is the message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentError {
    pub kind: TournamentErrorKind,
    pub message: String,
}

impl TournamentError {
    pub fn invalid(message: impl Into<String>) -> Self {
        Self {
            kind: TournamentErrorKind::InvalidParameter,
            message: message.into(),
        }
    }
    pub fn conflict(message: impl Into<String>) -> Self {
        Self {
            kind: TournamentErrorKind::Conflict,
            message: message.into(),
        }
    }
    pub fn out_of_range(message: impl Into<String>) -> Self {
        Self {
            kind: TournamentErrorKind::OutOfRange,
            message: message.into(),
        }
    }
}

impl Classified for TournamentError {
    fn class(&self) -> ErrorClass {
        match self.kind {
            TournamentErrorKind::InvalidParameter => ErrorClass::InvalidParameter,
            TournamentErrorKind::Conflict => ErrorClass::RuleViolation,
            TournamentErrorKind::OutOfRange => ErrorClass::OutOfRange,
        }
    }
}

impl fmt::Display for TournamentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for TournamentError {}

pub type Result<T> = std::result::Result<T, TournamentError>;

/// A whole tournament in memory: ratings as of the start and every player's card. Used to
/// compute standings from scratch (and by the tests as the reference for the incremental path).
#[derive(Clone, Debug, PartialEq)]
pub struct Tournament {
    round_count: u32,
    ratings: Vec<Option<i32>>,
    cards: Vec<Vec<RoundEntry>>,
}

/// The most rounds a tournament may have: far beyond any real event (a double round robin of 500
/// players), while every player's card (one entry per round) stays small and the tie-break sums
/// stay far from overflowing.
pub const MAX_ROUNDS: u32 = 1000;

impl Tournament {
    /// A tournament of `round_count` scheduled rounds; `ratings[i]` is player i's rating in the
    /// tournament's ranking before its first game (`None`: unrated).
    pub fn new(round_count: u32, ratings: Vec<Option<i32>>) -> Result<Self> {
        if round_count == 0 {
            return Err(TournamentError::invalid(
                "a tournament needs at least one round",
            ));
        }
        if round_count > MAX_ROUNDS {
            return Err(TournamentError::out_of_range(format!(
                "a tournament has at most {MAX_ROUNDS} rounds, not {round_count}"
            )));
        }
        if ratings.len() > u32::MAX as usize {
            return Err(TournamentError::invalid("too many players"));
        }
        let n = ratings.len();
        Ok(Self {
            round_count,
            ratings,
            cards: vec![vec![RoundEntry::Absent; round_count as usize]; n],
        })
    }

    pub fn round_count(&self) -> u32 {
        self.round_count
    }

    pub fn player_count(&self) -> usize {
        self.ratings.len()
    }

    pub fn rating(&self, p: PlayerNo) -> Option<i32> {
        self.ratings.get(p as usize).copied().flatten()
    }

    pub fn ratings(&self) -> &[Option<i32>] {
        &self.ratings
    }

    /// Player `p`'s entries for rounds 1..=round_count.
    pub fn card(&self, p: PlayerNo) -> &[RoundEntry] {
        &self.cards[p as usize]
    }

    /// The highest round with a game or a bye (0 when nothing was recorded).
    pub fn last_round(&self) -> u32 {
        self.cards
            .iter()
            .filter_map(|c| c.iter().rposition(|e| *e != RoundEntry::Absent))
            .max()
            .map_or(0, |i| i as u32 + 1)
    }

    fn check_round(&self, round: u32) -> Result<usize> {
        if round == 0 || round > self.round_count {
            return Err(TournamentError::invalid(format!(
                "round must be between 1 and {}, got {round}",
                self.round_count
            )));
        }
        Ok(round as usize - 1)
    }

    fn check_player(&self, p: PlayerNo) -> Result<usize> {
        if (p as usize) < self.ratings.len() {
            Ok(p as usize)
        } else {
            Err(TournamentError::invalid(format!(
                "no player number {p} in this tournament"
            )))
        }
    }

    fn check_free(&self, p: usize, r: usize, round: u32) -> Result<()> {
        if self.cards[p][r] != RoundEntry::Absent {
            return Err(TournamentError::conflict(format!(
                "player {p} already has a game or a bye in round {round}"
            )));
        }
        Ok(())
    }

    /// Records a game of `round`; `white_outcome` is White's result.
    pub fn add_game(
        &mut self,
        round: u32,
        white: PlayerNo,
        black: PlayerNo,
        white_outcome: Outcome,
        kind: GameKind,
    ) -> Result<()> {
        let r = self.check_round(round)?;
        let (w, b) = (self.check_player(white)?, self.check_player(black)?);
        if w == b {
            return Err(TournamentError::invalid(
                "a player cannot play against themselves",
            ));
        }
        self.check_free(w, r, round)?;
        self.check_free(b, r, round)?;
        let (we, be) = game_entries(white, black, white_outcome, kind)?;
        self.cards[w][r] = we;
        self.cards[b][r] = be;
        Ok(())
    }

    /// Records a bye of `round`.
    pub fn add_bye(&mut self, round: u32, player: PlayerNo, kind: ByeKind) -> Result<()> {
        let r = self.check_round(round)?;
        let p = self.check_player(player)?;
        self.check_free(p, r, round)?;
        self.cards[p][r] = RoundEntry::Bye(kind);
        Ok(())
    }

    /// Removes `player`'s entry of `round` (and the opponent's side of a game); returns the
    /// players whose cards changed.
    pub fn remove(&mut self, round: u32, player: PlayerNo) -> Result<Vec<PlayerNo>> {
        let r = self.check_round(round)?;
        let p = self.check_player(player)?;
        let old = std::mem::replace(&mut self.cards[p][r], RoundEntry::Absent);
        let mut changed = vec![player];
        if let Some(o) = old.opponent() {
            self.cards[o as usize][r] = RoundEntry::Absent;
            changed.push(o);
        }
        Ok(changed)
    }
}

#[cfg(test)]
mod real_tournament_tests;
#[cfg(test)]
mod tests;
