//! The initial colour (FIDE C.04.3 5.2.5): the colour drawn by lot for the top seed before round
//! one. Every pairing function takes it as `first_colour_white` (`Some(true)` White,
//! `Some(false)` Black); when it is not given, the rounds already stored show it, as bbpPairings
//! reads a TRF without `XXC`; before round 1 it is White.

use super::{ByeKind, Colour, PlayerNo, RoundEntry, Tournament};

/// The colour of an entry a pairing made (a game or a forfeit: the colour the pairing gave).
fn entry_colour(e: RoundEntry) -> Option<Colour> {
    match e {
        RoundEntry::Game { colour, .. } | RoundEntry::Forfeit { colour, .. } => Some(colour),
        _ => None,
    }
}

/// An entry a pairing made: a game, a forfeit or the pairing-allocated bye (a requested bye or
/// an absence is not one).
fn paired(e: RoundEntry) -> bool {
    matches!(
        e,
        RoundEntry::Game { .. }
            | RoundEntry::Forfeit { .. }
            | RoundEntry::Bye(ByeKind::PairingAllocated)
    )
}

/// The initial colour that the stored rounds show: in the first round F with a colour, the
/// colour of the highest player who took part in a pairing of rounds 1..=F, as the Dutch system
/// gave it without a colour history (5.2.5: the initial colour to odd pairing numbers among those
/// players, the opposite to even ones; a player without a colour in F, e.g. with the
/// pairing-allocated bye, passes it to the next one). `Some(true)` for White; `None` when no
/// round has a colour (round 1 still to pair). This is how bbpPairings reads a TRF without `XXC`
/// (its README, "initial piece color").
pub fn shown(t: &Tournament) -> Option<bool> {
    let n = t.player_count() as PlayerNo;
    let first = (0..n)
        .filter_map(|p| t.card(p).iter().position(|&e| entry_colour(e).is_some()))
        .min()?;
    let mut number = 0usize;
    for p in 0..n {
        crate::interrupt::check();
        let card = t.card(p);
        if !card[..=first].iter().any(|&e| paired(e)) {
            continue;
        }
        if let Some(c) = entry_colour(card[first]) {
            return Some((c == Colour::White) == number.is_multiple_of(2));
        }
        number += 1;
    }
    None
}

/// The initial colour to pair `t` with: `given` when the arbiter gives it (a TRF's `XXC`, an
/// argument), else what the stored rounds show ([`shown`]), else White. `true` for White.
pub fn first_colour_white(t: &Tournament, given: Option<bool>) -> bool {
    given.or_else(|| shown(t)).unwrap_or(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::{GameKind, Outcome};

    fn six() -> Tournament {
        Tournament::new(3, vec![Some(2000); 6]).unwrap()
    }

    #[test]
    fn nothing_stored_shows_nothing_and_white_stands() {
        let t = six();
        assert_eq!(shown(&t), None);
        assert!(first_colour_white(&t, None));
        assert!(!first_colour_white(&t, Some(false)));
        assert!(first_colour_white(&t, Some(true)));
    }

    #[test]
    fn round_one_with_the_top_seed_black_shows_black() {
        // 1-4 (4 White), 2-5 (2 White), 3-6 (6 White): black1
        let mut t = six();
        t.add_game(1, 3, 0, Outcome::Win, GameKind::Played).unwrap();
        t.add_game(1, 1, 4, Outcome::Draw, GameKind::Played)
            .unwrap();
        t.add_game(1, 5, 2, Outcome::Loss, GameKind::Played)
            .unwrap();
        assert_eq!(shown(&t), Some(false));
        assert!(!first_colour_white(&t, None));
        // what the arbiter gives wins over what the rounds show, as XXC does in a TRF
        assert!(first_colour_white(&t, Some(true)));
    }

    #[test]
    fn round_one_with_the_top_seed_white_shows_white() {
        let mut t = six();
        t.add_game(1, 0, 3, Outcome::Win, GameKind::Played).unwrap();
        t.add_game(1, 4, 1, Outcome::Draw, GameKind::Played)
            .unwrap();
        t.add_game(1, 2, 5, Outcome::Loss, GameKind::Played)
            .unwrap();
        assert_eq!(shown(&t), Some(true));
    }

    #[test]
    fn a_forfeit_shows_its_colour() {
        // the top seed's game of round 1 was forfeited: the colour the pairing gave still counts
        let mut t = six();
        t.add_game(1, 3, 0, Outcome::Loss, GameKind::Forfeit)
            .unwrap();
        assert_eq!(shown(&t), Some(false));
    }

    #[test]
    fn players_outside_the_pairing_pass_the_number_on() {
        // the top seed asked for a half-point bye (no pairing): the second player, the highest
        // paired, is odd among the paired and has White: white1
        let mut t = six();
        t.add_bye(1, 0, ByeKind::Half).unwrap();
        t.add_game(1, 1, 3, Outcome::Win, GameKind::Played).unwrap();
        assert_eq!(shown(&t), Some(true));
        // the top seed had the pairing-allocated bye (paired, no colour): the second player is
        // even among the paired, so White for them shows black1
        let mut t = six();
        t.add_bye(1, 0, ByeKind::PairingAllocated).unwrap();
        t.add_game(1, 1, 3, Outcome::Win, GameKind::Played).unwrap();
        assert_eq!(shown(&t), Some(false));
    }

    #[test]
    fn the_first_round_with_a_colour_counts() {
        // round 1 had only byes and absences; round 2 is the first with a colour
        let mut t = six();
        t.add_bye(1, 0, ByeKind::Half).unwrap();
        t.add_bye(1, 1, ByeKind::Zero).unwrap();
        t.add_game(2, 2, 0, Outcome::Win, GameKind::Played).unwrap();
        t.add_game(2, 1, 3, Outcome::Win, GameKind::Played).unwrap();
        // player 0 is the highest player paired in rounds 1 and 2 and has Black
        assert_eq!(shown(&t), Some(false));
    }
}
