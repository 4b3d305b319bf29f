//! What the Dutch system needs to know about each player before a round (C.04.3 article 1,
//! C.04.1, C.04.2): score, colour history and preference, floats, bye eligibility, and the
//! absolute criteria (C.04.3 article 3) that decide whether two players may meet at all.

use crate::tournament::{ByeKind, Colour, PlayerNo, RoundEntry, Tournament};

use super::acceleration::Acceleration;

/// A float of an earlier round (C.04.3 1.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Float {
    Down,
    Up,
    None,
}

/// The colour preference of a player (C.04.3 1.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ColourPreference {
    /// The preferred colour; `None` before any game was played.
    pub colour: Option<Colour>,
    /// Games with White minus games with Black, as an absolute value.
    pub imbalance: u32,
    /// The colour of the last two played games when they were the same.
    pub repeated: Option<Colour>,
}

impl ColourPreference {
    /// Colour difference beyond ±1 (C.04.3 1.6.2.1).
    pub fn absolute_imbalance(&self) -> bool {
        self.imbalance > 1
    }

    /// Absolute: difference beyond ±1, or the same colour twice in a row (C.04.3 1.6.2.1).
    pub fn absolute(&self) -> bool {
        self.absolute_imbalance() || self.repeated.is_some()
    }

    /// Strong: difference ±1 and not absolute (C.04.3 1.6.2.2).
    pub fn strong(&self) -> bool {
        !self.absolute() && self.imbalance > 0
    }
}

/// A player to be paired, with everything the criteria look at.
#[derive(Clone, Debug)]
pub struct Entrant {
    pub id: PlayerNo,
    /// Rank among the players taking part so far (0-based), for colours in round 1 style draws.
    pub rank_index: u32,
    /// Pairing score in half points before the round: the score plus the virtual points of an
    /// accelerated round (C.04.5.1); the score itself without acceleration.
    pub score: i32,
    /// The score in half points before the round, without virtual points (board order).
    pub real_score: i32,
    pub pref: ColourPreference,
    /// Colours of the played games, oldest first (forfeits and byes do not count, C.04.2).
    pub colours: Vec<Colour>,
    pub played_games: u32,
    /// May receive the pairing-allocated bye (C.04.1: not after a bye, a forfeit win or a
    /// full-point bye of any kind — any unplayed round worth a win).
    pub bye_eligible: bool,
    /// Floats of the previous round and of the one before.
    pub float_1: Float,
    pub float_2: Float,
}

fn played_colour(e: RoundEntry) -> Option<Colour> {
    match e {
        RoundEntry::Game { colour, .. } => Some(colour),
        _ => None,
    }
}

/// The score of `p` after the first `rounds` rounds, in half points.
pub fn score_after(t: &Tournament, p: PlayerNo, rounds: usize) -> i32 {
    t.card(p)[..rounds].iter().map(|e| e.half_points()).sum()
}

/// The pairing score of `p` before round `round` (1-based): the score plus that round's
/// virtual points (C.04.5.1).
fn pairing_score(t: &Tournament, acc: Acceleration, p: PlayerNo, round: usize) -> i32 {
    score_after(t, p, round - 1) + acc.points(p, round)
}

/// The float of `p` in round `round` (1-based) as C.04.3 1.4 defines it: a played game against
/// a lower (higher) pairing score of that round is a downfloat (upfloat); an unplayed round worth
/// more than a loss is a downfloat.
fn float_in(t: &Tournament, acc: Acceleration, p: PlayerNo, round: usize) -> Float {
    let e = t.card(p)[round - 1];
    match e {
        RoundEntry::Game { opponent, .. } => {
            let own = pairing_score(t, acc, p, round);
            let theirs = pairing_score(t, acc, opponent, round);
            match own.cmp(&theirs) {
                std::cmp::Ordering::Greater => Float::Down,
                std::cmp::Ordering::Less => Float::Up,
                std::cmp::Ordering::Equal => Float::None,
            }
        }
        _ if e.half_points() > 0 => Float::Down,
        _ => Float::None,
    }
}

/// The colour preference from the colours of the played games (C.04.3 1.6).
pub fn colour_preference(colours: &[Colour]) -> ColourPreference {
    let whites = colours.iter().filter(|&&c| c == Colour::White).count() as i64;
    let blacks = colours.len() as i64 - whites;
    let imbalance = (whites - blacks).unsigned_abs() as u32;
    let lower = if whites > blacks {
        Colour::Black
    } else {
        Colour::White
    };
    let last = colours.last().copied();
    let run = last.map_or(0, |c| colours.iter().rev().take_while(|&&x| x == c).count());
    let colour = if imbalance > 1 {
        Some(lower)
    } else if run > 1 {
        last.map(Colour::opposite)
    } else if imbalance > 0 {
        Some(lower)
    } else {
        last.map(Colour::opposite)
    };
    ColourPreference {
        colour,
        imbalance,
        repeated: if run > 1 { last } else { None },
    }
}

/// The entrant data of player `p` before round `round` (1-based), with the virtual points of
/// accelerated rounds in `acc`.
pub fn entrant(
    t: &Tournament,
    acc: Acceleration,
    p: PlayerNo,
    round: usize,
    rank_index: u32,
) -> Entrant {
    let played = &t.card(p)[..round - 1];
    let colours: Vec<Colour> = played.iter().filter_map(|&e| played_colour(e)).collect();
    let bye_eligible = !played.iter().any(|&e| match e {
        RoundEntry::Game { .. } | RoundEntry::Absent => false,
        RoundEntry::Bye(ByeKind::PairingAllocated) => true,
        _ => e.half_points() >= 2,
    });
    Entrant {
        id: p,
        rank_index,
        score: pairing_score(t, acc, p, round),
        real_score: score_after(t, p, round - 1),
        pref: colour_preference(&colours),
        played_games: colours.len() as u32,
        colours,
        bye_eligible,
        float_1: if round > 1 {
            float_in(t, acc, p, round - 1)
        } else {
            Float::None
        },
        float_2: if round > 2 {
            float_in(t, acc, p, round - 2)
        } else {
            Float::None
        },
    }
}

/// Absolute criteria of C.04.3 article 3 beyond the rematch (checked by the caller): two players
/// with the same absolute colour preference may not meet (3.3), except in the last round when
/// one of them is a topscorer (more than half the maximum score, 1.7; by pairing score, C.04.5.1).
pub fn colours_compatible(a: &Entrant, b: &Entrant, last_round: bool, played_rounds: u32) -> bool {
    let topscorer = |e: &Entrant| e.score > played_rounds as i32;
    !a.pref.absolute()
        || !b.pref.absolute()
        || a.pref.colour != b.pref.colour
        || (last_round && (topscorer(a) || topscorer(b)))
}
