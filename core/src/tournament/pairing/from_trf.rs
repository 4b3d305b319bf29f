//! Pairing the round after the rounds of a TRF-16 file, as the engines that read TRF do.

use super::{pair_next_round, round_to_pair, Pairing, PairingError, PairingOptions, PairingSystem};
use crate::tournament::initial_colour;
use crate::tournament::trf_read::TrfTournament;
use crate::tournament::{ByeKind, PlayerNo, RoundEntry};

/// The initial colour (C.04.3 5.2.5) that a file without `XXC` shows
/// ([`initial_colour::shown`]): `None` when no round has a colour (round 1 still to pair).
pub fn inferred_first_colour_white(trf: &TrfTournament) -> Option<bool> {
    initial_colour::shown(&trf.tournament)
}

/// Players whose line already has an entry for `round` that no pairing made (a requested bye, or
/// `0000 - Z`: absent): they are not paired.
fn preset(trf: &TrfTournament, round: u32) -> Vec<PlayerNo> {
    let t = &trf.tournament;
    (0..t.player_count() as PlayerNo)
        .filter(|&p| {
            let e = t.card(p)[round as usize - 1];
            trf.listed(p, round)
                && e.opponent().is_none()
                && e != RoundEntry::Bye(ByeKind::PairingAllocated)
        })
        .collect()
}

/// Whether the file has `XXA` lines (of zeros, they still rule out Baku acceleration and the
/// Burstein system's own, as in bbpPairings).
fn has_xxa(trf: &TrfTournament) -> bool {
    trf.acceleration_given || trf.accelerations.iter().any(|row| !row.is_empty())
}

/// The `XXA` virtual points (a row per player), or none when the file has no `XXA` line.
fn explicit_acceleration(trf: &TrfTournament) -> Vec<Vec<i32>> {
    if has_xxa(trf) {
        trf.accelerations.clone()
    } else {
        Vec::new()
    }
}

/// The options for pairing `round` of `trf` from its earlier rounds: the players listed for it
/// without a pairing are left out, `XXA` lines give the virtual points of accelerated rounds
/// (C.04.5); without them a Baku `192` line asks for Baku acceleration (C.04.5.1), as in
/// bbpPairings. `first_colour_white`: the top seed's colour in round 1.
pub fn trf_round_options(
    trf: &TrfTournament,
    round: u32,
    first_colour_white: bool,
) -> PairingOptions {
    let absent = if round <= trf.tournament.round_count() {
        preset(trf, round)
    } else {
        Vec::new()
    };
    PairingOptions {
        first_colour_white,
        absent,
        acceleration: explicit_acceleration(trf),
        baku_acceleration: trf.baku_acceleration && !has_xxa(trf),
        ..PairingOptions::default()
    }
}

/// The pairing of the round after the last paired round of `trf`, with the options of
/// [`trf_round_options`]; `XXC` gives the top seed's colour in round 1, else the file's first
/// coloured round ([`inferred_first_colour_white`]), else White.
pub fn pair_trf(trf: &TrfTournament) -> Result<Pairing, PairingError> {
    pair_trf_forbidding(trf, Vec::new())
}

/// [`pair_trf`], and no two players of a pair in `forbidden_pairs` (which TRF-16 cannot say) meet.
pub fn pair_trf_forbidding(
    trf: &TrfTournament,
    forbidden_pairs: Vec<(PlayerNo, PlayerNo)>,
) -> Result<Pairing, PairingError> {
    pair_trf_by(trf, forbidden_pairs, PairingSystem::Dutch)
}

/// [`pair_trf_forbidding`] by the pairing system `system` (for the Burstein system, a file
/// without `XXA` lines gets the system's own acceleration of rounds 1 and 2, as in bbpPairings).
pub fn pair_trf_by(
    trf: &TrfTournament,
    forbidden_pairs: Vec<(PlayerNo, PlayerNo)>,
    system: PairingSystem,
) -> Result<Pairing, PairingError> {
    let round = round_to_pair(&trf.tournament);
    let first_colour_white =
        initial_colour::first_colour_white(&trf.tournament, trf.first_colour_white);
    let options = PairingOptions {
        forbidden_pairs,
        system,
        ..trf_round_options(trf, round, first_colour_white)
    };
    pair_next_round(&trf.tournament, &options)
}
