//! Colour allocation (C.04.3 article 5).

use super::criteria::Entrant;
use crate::tournament::Colour;

/// The colours of the last round in which `a` and `b` had different colours (5.2.3).
fn last_difference(a: &Entrant, b: &Entrant) -> Option<(Colour, Colour)> {
    a.colours
        .iter()
        .rev()
        .zip(b.colours.iter().rev())
        .find(|(x, y)| x != y)
        .map(|(&x, &y)| (x, y))
}

/// The colour of `p` against `o` by 5.2.1–5.2.3, if they decide.
pub(super) fn by_preferences(p: &Entrant, o: &Entrant) -> Option<Colour> {
    let (pp, op) = (&p.pref, &o.pref);
    if pp.colour != op.colour || pp.colour.is_none() || op.colour.is_none() {
        // 5.2.1: both preferences granted.
        return pp.colour.or(op.colour.map(Colour::opposite));
    }
    let pc = pp.colour?;
    // 5.2.2: the stronger preference (absolute, the larger colour difference; then strong).
    if pp.absolute() && (pp.imbalance > op.imbalance || !op.absolute()) {
        return Some(pc);
    }
    if op.absolute() && (op.imbalance > pp.imbalance || !pp.absolute()) {
        return Some(pc.opposite());
    }
    if pp.strong() && !op.strong() {
        return Some(pc);
    }
    if op.strong() && !pp.strong() {
        return Some(pc.opposite());
    }
    // 5.2.3: alternate from the last round in which their colours differed.
    last_difference(p, o).map(|(_, oc)| oc)
}

/// Whether the higher-ranked `hi` gets White against `lo`.
pub fn white_is_first(hi: &Entrant, lo: &Entrant, first_white: bool) -> bool {
    let drawn = if hi.rank_index.is_multiple_of(2) == first_white {
        Colour::White
    } else {
        Colour::Black
    };
    // 5.2.4: the higher-ranked player's preference; 5.2.5: neither has one, the colour
    // drawn for the top seed goes to the odd pairing numbers.
    let hi_colour = by_preferences(hi, lo).unwrap_or(hi.pref.colour.unwrap_or(drawn));
    hi_colour == Colour::White
}
