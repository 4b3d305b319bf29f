//! Swiss pairings by the FIDE Dutch system: FIDE Handbook C.04.3 as revised in 2025 (in force
//! from 1 February 2026), with the basic rules of C.04.1 and the general handling rules of
//! C.04.2. Where the rules leave a choice, the engine does what bbpPairings v6.0.0 does.
//!
//! * Only games played over the board count for colours and rematches; a forfeit does not
//!   (C.04.2). A player who had a pairing-allocated bye, a forfeit win or a full-point bye may not
//!   get the bye again (C.04.1).
//! * Absolute criteria (C.04.3 article 3): no rematch, no forbidden pair, no two players with the
//!   same absolute colour preference (a colour difference beyond ±1 or the same colour twice in
//!   a row) — except when one of them is a topscorer in the last round.
//! * The quality criteria C.1–C.21 and the ordering rules are weights of a maximum-weight
//!   matching, bracket by bracket (module `dutch`); colours by article 5 (module `colours`).
//!
//! The round to pair is the one after the last round with a game, a forfeit or a
//! pairing-allocated bye. Players who already have an entry for it (a requested bye) and those
//! listed in [`PairingOptions::absent`] are not paired.
//!
//! Accelerated rounds (C.04.5): virtual points per player and round
//! ([`PairingOptions::acceleration`]), or computed by the Baku method (C.04.5.1,
//! [`PairingOptions::baku_acceleration`]); see module `acceleration`.

mod acceleration;
mod burstein;
mod cardinality;
mod colour_bracket;
mod colours;
mod criteria;
mod dutch;
mod from_rows;
mod from_trf;
mod incremental;
#[cfg(test)]
mod matching;
mod plain;
mod weights;
mod wide;

use std::borrow::Cow;
use std::cmp::Reverse;
use std::collections::HashSet;
use std::fmt;

use crate::error::{Classified, ErrorClass};
use crate::tournament::{ByeKind, PlayerNo, RoundEntry, Tournament};

pub use acceleration::{
    baku_accelerated_rounds, baku_group_a_size, baku_round_points, baku_virtual_points,
};
pub use from_rows::{RowGame, RowPairing, RowPlayer, RowResult, RowTournament, RowsError};
pub use from_trf::{
    inferred_first_colour_white, pair_trf, pair_trf_by, pair_trf_forbidding, trf_round_options,
};

use acceleration::{baku_table, check_table, Acceleration};

use criteria::{colours_compatible, entrant, Entrant};
use dutch::{pair, Context};

/// Choices of the arbiter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairingOptions {
    /// The colour of the top seed in round 1 (and of every higher-ranked player whose
    /// colour is drawn, C.04.3 5.2.5): White when true.
    pub first_colour_white: bool,
    /// Pairs that must not meet (C.04.3 3.1, e.g. players of the same family).
    pub forbidden_pairs: Vec<(PlayerNo, PlayerNo)>,
    /// Baku acceleration (C.04.5.1): the first 2·⌈n/4⌉ players of round 1's list (GA) get
    /// virtual points in the first half (rounded up) of the rounds. Not together with
    /// [`PairingOptions::acceleration`].
    pub baku_acceleration: bool,
    /// Virtual points (C.04.5) in half points, by player number then round (round 1 first); a
    /// missing entry is 0. The pairing score of a round is the score plus that round's virtual
    /// points; earlier rounds' entries decide the floats of those rounds.
    pub acceleration: Vec<Vec<i32>>,
    /// Players who will not play the round (withdrawn or absent without a bye).
    pub absent: Vec<PlayerNo>,
    /// The pairing system.
    pub system: PairingSystem,
}

/// A FIDE Swiss pairing system.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PairingSystem {
    /// The Dutch system (C.04.3).
    #[default]
    Dutch,
    /// The Burstein system (C.04.4.2) as bbpPairings v6.0.0 reads it (module `burstein`).
    /// Without explicit virtual points (or Baku acceleration) rounds 1 and 2 are accelerated as
    /// its rules ask.
    Burstein,
}

impl PairingSystem {
    /// The system named `name` (`dutch`, `burstein`).
    pub fn from_name(name: &str) -> Result<Self, PairingError> {
        match name {
            "dutch" => Ok(Self::Dutch),
            "burstein" => Ok(Self::Burstein),
            other => Err(PairingError::new(
                PairingErrorKind::InvalidOption,
                format!("unknown pairing system \"{other}\" (dutch or burstein)"),
            )),
        }
    }
}

impl Default for PairingOptions {
    fn default() -> Self {
        Self {
            first_colour_white: true,
            forbidden_pairs: Vec::new(),
            baku_acceleration: false,
            acceleration: Vec::new(),
            absent: Vec::new(),
            system: PairingSystem::Dutch,
        }
    }
}

/// The pairing of one round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pairing {
    /// The round paired (1-based).
    pub round: u32,
    /// Boards in FIDE order: (White, Black).
    pub boards: Vec<(PlayerNo, PlayerNo)>,
    /// The player with the pairing-allocated bye.
    pub bye: Option<PlayerNo>,
}

/// Why a round cannot be paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PairingErrorKind {
    /// No pairing satisfies the absolute criteria (23514).
    NoValidPairing,
    /// Every round of the tournament is paired already (22023).
    AllRoundsPaired,
    /// An option names an unknown player or asks for something unsupported (22023).
    InvalidOption,
}

/// An error of the pairing engine; `Display` is the message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairingError {
    pub kind: PairingErrorKind,
    pub message: String,
}

impl PairingError {
    fn new(kind: PairingErrorKind, message: impl Into<String>) -> Self {
        Self {
            kind,
            message: message.into(),
        }
    }
}

impl Classified for PairingError {
    fn class(&self) -> ErrorClass {
        match self.kind {
            PairingErrorKind::NoValidPairing => ErrorClass::RuleViolation,
            PairingErrorKind::AllRoundsPaired | PairingErrorKind::InvalidOption => {
                ErrorClass::InvalidParameter
            }
        }
    }
}

impl fmt::Display for PairingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for PairingError {}

/// Whether an entry was made by a pairing (a game, a forfeit, the pairing-allocated bye).
fn paired_entry(e: RoundEntry) -> bool {
    matches!(
        e,
        RoundEntry::Game { .. }
            | RoundEntry::Forfeit { .. }
            | RoundEntry::Bye(ByeKind::PairingAllocated)
    )
}

/// The round [`pair_next_round`] pairs: the one after the last paired round.
pub fn round_to_pair(t: &Tournament) -> u32 {
    (0..t.player_count() as PlayerNo)
        .filter_map(|p| t.card(p).iter().rposition(|&e| paired_entry(e)))
        .max()
        .map_or(1, |i| i as u32 + 2)
}

/// Pairs the next round of `t` by the Dutch system.
pub fn pair_next_round(t: &Tournament, opts: &PairingOptions) -> Result<Pairing, PairingError> {
    pair_round(t, opts, true)
}

/// [`pair_next_round`]; `plain`: a round the rules make plain is paired without the matching
/// (module `plain`; the tests compare both ways).
fn pair_round(t: &Tournament, opts: &PairingOptions, plain: bool) -> Result<Pairing, PairingError> {
    let round = round_to_pair(t);
    if round > t.round_count() {
        return Err(PairingError::new(
            PairingErrorKind::AllRoundsPaired,
            format!("all {} rounds are paired already", t.round_count()),
        ));
    }
    let n = t.player_count();
    check_table(&opts.acceleration, n, t.round_count())?;
    if opts.baku_acceleration && !opts.acceleration.is_empty() {
        return Err(PairingError::new(
            PairingErrorKind::InvalidOption,
            "Baku acceleration and explicit acceleration points exclude each other",
        ));
    }
    for &(a, b) in &opts.forbidden_pairs {
        if a as usize >= n || b as usize >= n {
            return Err(PairingError::new(
                PairingErrorKind::InvalidOption,
                format!("forbidden pair ({a}, {b}) names no player of this tournament"),
            ));
        }
    }
    if let Some(&p) = opts.absent.iter().find(|&&p| p as usize >= n) {
        return Err(PairingError::new(
            PairingErrorKind::InvalidOption,
            format!("absent player {p} is not in this tournament"),
        ));
    }
    let r = round as usize;
    let mut absent = vec![false; n];
    for &p in &opts.absent {
        absent[p as usize] = true;
    }
    let to_pair = |p: PlayerNo| t.card(p)[r - 1] == RoundEntry::Absent && !absent[p as usize];
    let took_part = |p: PlayerNo| to_pair(p) || t.card(p)[..r - 1].iter().any(|&e| paired_entry(e));
    if opts.system == PairingSystem::Burstein {
        return burstein::pair_round(t, opts, round, &to_pair, &took_part, plain);
    }
    let table = virtual_points(t, round, opts, &to_pair);
    let acc = Acceleration::new(&table);
    let mut players = Vec::new();
    let mut rank = 0;
    for p in 0..n as PlayerNo {
        if p % 1024 == 0 {
            crate::interrupt::check();
        }
        if took_part(p) {
            if to_pair(p) {
                players.push(entrant(t, acc, p, r, rank));
            }
            rank += 1;
        }
    }
    players.sort_by_key(|e| (std::cmp::Reverse(e.score), e.id));
    let played_rounds = round - 1;
    let last_round = round == t.round_count();
    let forbidden = forbidden_set(opts);
    let met = opponents_met(t, r);
    let compatible_at = |i: usize, j: usize| {
        i != j
            && may_meet(&met, &forbidden, &players[i], &players[j])
            && colours_compatible(&players[i], &players[j], last_round, played_rounds)
    };
    let shortcut = if plain {
        plain::plain_pairing(&players, compatible_at)
    } else {
        None
    };
    let outcome = match shortcut {
        Some(outcome) => outcome,
        None => {
            let barred = barred_lists(&players, &met, &forbidden);
            let ctx = Context {
                players: &players,
                barred: &barred,
                played_rounds,
                last_round,
                shortcuts: plain,
            };
            pair(&ctx).map_err(|_| no_pairing(round, &ctx))?
        }
    };
    let mut boards: Vec<(&Entrant, &Entrant)> = outcome
        .pairs
        .iter()
        .map(|&(a, b)| {
            let (hi, lo) = (&players[a], &players[b]);
            if colours::white_is_first(hi, lo, opts.first_colour_white) {
                (hi, lo)
            } else {
                (lo, hi)
            }
        })
        .collect();
    boards.sort_by_key(board_order);
    Ok(Pairing {
        round,
        boards: boards.iter().map(|(w, b)| (w.id, b.id)).collect(),
        bye: outcome.bye.map(|i| players[i].id),
    })
}

/// The virtual points of accelerated rounds (C.04.5): the Baku method's (C.04.5.1) or the
/// option's table.
fn virtual_points<'a>(
    t: &Tournament,
    round: u32,
    opts: &'a PairingOptions,
    to_pair: &dyn Fn(PlayerNo) -> bool,
) -> Cow<'a, [Vec<i32>]> {
    if opts.baku_acceleration {
        Cow::Owned(baku_table(t, round, to_pair))
    } else {
        Cow::Borrowed(&opts.acceleration)
    }
}

/// The order of boards (C.04.2): by the higher player's score, then the lower player's, then the
/// higher player's rank; real scores, without virtual points (as bbpPairings does).
fn board_order(&(w, b): &(&Entrant, &Entrant)) -> (Reverse<i32>, Reverse<i32>, u32) {
    let key = |e: &Entrant| (Reverse(e.real_score), e.id);
    let (hi, lo) = if key(w) < key(b) { (w, b) } else { (b, w) };
    (
        Reverse(hi.real_score),
        Reverse(lo.real_score),
        hi.rank_index,
    )
}

/// The error for a round without a pairing, naming the players who can meet nobody (the usual
/// reason).
fn no_pairing(round: u32, ctx: &Context) -> PairingError {
    let (players, m) = (ctx.players, ctx.n());
    let stuck: Vec<String> = (0..m)
        .filter(|&i| !(0..m).any(|j| ctx.compatible(i, j)))
        .map(|i| (players[i].id + 1).to_string())
        .collect();
    let why = if stuck.is_empty() {
        String::new()
    } else {
        format!(
            "; starting rank(s) {} may meet none of the others",
            stuck.join(", ")
        )
    };
    PairingError::new(
        PairingErrorKind::NoValidPairing,
        format!(
            "no pairing of round {round} satisfies the absolute criteria (no rematch, no \
             forbidden pair, no two players with the same absolute colour preference, at \
             most one bye per player) for its {m} players{why}"
        ),
    )
}

/// The forbidden pairs, each as (lower, higher) player number.
fn forbidden_set(opts: &PairingOptions) -> HashSet<(PlayerNo, PlayerNo)> {
    opts.forbidden_pairs
        .iter()
        .map(|&(a, b)| (a.min(b), a.max(b)))
        .collect()
}

/// Per player to pair (`players`, sorted), the indices of the others it may not meet whatever
/// the colours: the opponents of `met` and the forbidden pairs, sorted.
fn barred_lists(
    players: &[Entrant],
    met: &[Vec<PlayerNo>],
    forbidden: &HashSet<(PlayerNo, PlayerNo)>,
) -> Vec<Vec<u32>> {
    let mut index = vec![u32::MAX; met.len()];
    for (i, p) in players.iter().enumerate() {
        index[p.id as usize] = i as u32;
    }
    let mut barred: Vec<Vec<u32>> = players
        .iter()
        .map(|p| {
            met[p.id as usize]
                .iter()
                .map(|&o| index[o as usize])
                .filter(|&i| i != u32::MAX)
                .collect()
        })
        .collect();
    for &(a, b) in forbidden {
        let at = |p: PlayerNo| index.get(p as usize).copied().unwrap_or(u32::MAX);
        let (i, j) = (at(a), at(b));
        if i != u32::MAX && j != u32::MAX {
            barred[i as usize].push(j);
            barred[j as usize].push(i);
        }
    }
    for list in &mut barred {
        list.sort_unstable();
        list.dedup();
    }
    barred
}

/// Per player, the opponents of the games played over the board before round `r` (1-based),
/// sorted (a forfeit is no game, C.04.2).
fn opponents_met(t: &Tournament, r: usize) -> Vec<Vec<PlayerNo>> {
    (0..t.player_count() as PlayerNo)
        .map(|p| {
            let mut met: Vec<PlayerNo> = t.card(p)[..r - 1]
                .iter()
                .filter_map(|&e| match e {
                    RoundEntry::Game { opponent, .. } => Some(opponent),
                    _ => None,
                })
                .collect();
            met.sort_unstable();
            met
        })
        .collect()
}

/// No rematch of a game played over the board (C.04.3 3.1; forfeits do not count, C.04.2) and
/// no forbidden pair.
fn may_meet(
    met: &[Vec<PlayerNo>],
    forbidden: &HashSet<(PlayerNo, PlayerNo)>,
    a: &Entrant,
    b: &Entrant,
) -> bool {
    let rematch = met[a.id as usize].binary_search(&b.id).is_ok();
    let forbidden = !forbidden.is_empty() && forbidden.contains(&(a.id.min(b.id), a.id.max(b.id)));
    !rematch && !forbidden
}

#[cfg(test)]
mod tests;
