//! The result codes of TRF-16 (FIDE Handbook C.04 Annex 2): per round a letter for the colour and
//! one for the result, beside the opponent. `tournament_trf` writes them and the standings table
//! stores them, from this one table:
//!
//! | entry | colour | result |
//! |---|---|---|
//! | game with a move: win, draw, loss | `w`/`b` | `1` `=` `0` |
//! | game ended before the first move | `w`/`b` | `W` `D` `L` |
//! | forfeit won, lost | `w`/`b` | `+` `-` |
//! | pairing-allocated bye, full-point bye | `-` | `U` `F` |
//! | half-point bye | `-` | `H` |
//! | zero-point bye, absence | `-` | `Z` |
//!
//! A zero-point bye and an absence share `Z`: both are worth nothing and count alike in every
//! tie-break (C.07 16.1, 16.2.3, 16.2.5), so `Z` is read back as an absence.

use super::{ByeKind, Colour, Outcome, PlayerNo, Result, RoundEntry, TournamentError};

impl RoundEntry {
    /// `w` or `b` for a game or a forfeit, `-` for a bye or an absence.
    pub fn colour_code(self) -> char {
        match self {
            RoundEntry::Game { colour, .. } | RoundEntry::Forfeit { colour, .. } => match colour {
                Colour::White => 'w',
                Colour::Black => 'b',
            },
            RoundEntry::Bye(_) | RoundEntry::Absent => '-',
        }
    }

    /// The result letter.
    pub fn result_code(self) -> char {
        match self {
            RoundEntry::Game { outcome, moved, .. } => match (outcome, moved) {
                (Outcome::Win, true) => '1',
                (Outcome::Draw, true) => '=',
                (Outcome::Loss, true) => '0',
                (Outcome::Win, false) => 'W',
                (Outcome::Draw, false) => 'D',
                (Outcome::Loss, false) => 'L',
            },
            RoundEntry::Forfeit { won: true, .. } => '+',
            RoundEntry::Forfeit { won: false, .. } => '-',
            RoundEntry::Bye(ByeKind::PairingAllocated) => 'U',
            RoundEntry::Bye(ByeKind::Full) => 'F',
            RoundEntry::Bye(ByeKind::Half) => 'H',
            RoundEntry::Bye(ByeKind::Zero) | RoundEntry::Absent => 'Z',
        }
    }

    /// The entry of an opponent, a colour letter and a result letter; a combination no entry
    /// writes is an error.
    pub fn from_codes(
        opponent: Option<PlayerNo>,
        colour: char,
        result: char,
    ) -> Result<RoundEntry> {
        let bad = || {
            TournamentError::invalid(format!(
                "no round entry has opponent {opponent:?}, colour {colour:?} and result {result:?}"
            ))
        };
        let entry = match (opponent, colour) {
            (Some(opponent), 'w' | 'b') => {
                let colour = if colour == 'w' {
                    Colour::White
                } else {
                    Colour::Black
                };
                let game = |outcome, moved| RoundEntry::Game {
                    opponent,
                    colour,
                    outcome,
                    moved,
                };
                match result {
                    '1' => game(Outcome::Win, true),
                    '=' => game(Outcome::Draw, true),
                    '0' => game(Outcome::Loss, true),
                    'W' => game(Outcome::Win, false),
                    'D' => game(Outcome::Draw, false),
                    'L' => game(Outcome::Loss, false),
                    '+' | '-' => RoundEntry::Forfeit {
                        opponent,
                        colour,
                        won: result == '+',
                    },
                    _ => return Err(bad()),
                }
            }
            (None, '-') => match result {
                'U' => RoundEntry::Bye(ByeKind::PairingAllocated),
                'F' => RoundEntry::Bye(ByeKind::Full),
                'H' => RoundEntry::Bye(ByeKind::Half),
                'Z' => RoundEntry::Absent,
                _ => return Err(bad()),
            },
            _ => return Err(bad()),
        };
        Ok(entry)
    }

    /// The entry as a standings row stores it: the opponent's pairing number and the colour
    /// and result letters ([`RoundEntry::card_from_codes`] reads them back).
    pub fn stored(self) -> (Option<i32>, String, String) {
        (
            self.opponent().map(|o| o as i32),
            self.colour_code().to_string(),
            self.result_code().to_string(),
        )
    }

    /// A card as stored, rounds in order: each round's opponent (`None`, or a negative number,
    /// for none) and `codes`, two letters per round (colour, then result); an error when the
    /// letters do not match the rounds or a combination is no entry's.
    pub fn card_from_codes(opponents: &[Option<i32>], codes: &str) -> Result<Vec<RoundEntry>> {
        let codes: Vec<char> = codes.chars().collect();
        if codes.len() != 2 * opponents.len() {
            return Err(TournamentError::invalid(
                "its rounds' letters do not match its rounds",
            ));
        }
        opponents
            .iter()
            .zip(codes.chunks(2))
            .map(|(o, pair)| {
                let opponent = o.filter(|&x| x >= 0).map(|x| x as PlayerNo);
                RoundEntry::from_codes(opponent, pair[0], pair[1])
                    .map_err(|e| TournamentError::invalid(format!("a stored round entry: {e}")))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Classified;

    fn every_entry() -> Vec<RoundEntry> {
        let mut all = Vec::new();
        for colour in [Colour::White, Colour::Black] {
            for outcome in [Outcome::Win, Outcome::Draw, Outcome::Loss] {
                for moved in [true, false] {
                    all.push(RoundEntry::Game {
                        opponent: 7,
                        colour,
                        outcome,
                        moved,
                    });
                }
            }
            for won in [true, false] {
                all.push(RoundEntry::Forfeit {
                    opponent: 3,
                    colour,
                    won,
                });
            }
        }
        for kind in [
            ByeKind::PairingAllocated,
            ByeKind::Full,
            ByeKind::Half,
            ByeKind::Zero,
        ] {
            all.push(RoundEntry::Bye(kind));
        }
        all.push(RoundEntry::Absent);
        all
    }

    #[test]
    fn codes_read_back_as_the_entry_written_a_zero_bye_as_an_absence() {
        for e in every_entry() {
            let read =
                RoundEntry::from_codes(e.opponent(), e.colour_code(), e.result_code()).unwrap();
            let expected = if e == RoundEntry::Bye(ByeKind::Zero) {
                RoundEntry::Absent
            } else {
                e
            };
            assert_eq!(read, expected, "{e:?}");
            assert_eq!(read.half_points(), e.half_points(), "{e:?}");
        }
    }

    #[test]
    fn codes_are_those_of_trf16() {
        let codes: String = every_entry()
            .iter()
            .map(|e| format!("{}{} ", e.colour_code(), e.result_code()))
            .collect();
        assert_eq!(
            codes,
            "w1 wW w= wD w0 wL w+ w- b1 bW b= bD b0 bL b+ b- -U -F -H -Z -Z "
        );
    }

    #[test]
    fn combinations_no_entry_writes_are_refused() {
        for (opponent, colour, result) in [
            (Some(1), '-', 'U'),
            (None, 'w', '1'),
            (None, '-', '1'),
            (Some(1), 'w', 'U'),
            (Some(1), 'x', '1'),
            (None, '-', '?'),
        ] {
            let e = RoundEntry::from_codes(opponent, colour, result).unwrap_err();
            assert_eq!(e.sqlstate(), "22023", "{opponent:?} {colour} {result}");
        }
    }

    #[test]
    fn a_bye_is_worth_one_half_or_no_point() {
        assert_eq!(ByeKind::worth(2).unwrap(), ByeKind::PairingAllocated);
        assert_eq!(ByeKind::worth(1).unwrap(), ByeKind::Half);
        assert_eq!(ByeKind::worth(0).unwrap(), ByeKind::Zero);
        for kind in [ByeKind::PairingAllocated, ByeKind::Half, ByeKind::Zero] {
            assert_eq!(ByeKind::worth(kind.half_points()).unwrap(), kind);
        }
        let e = ByeKind::worth(3).unwrap_err();
        assert!(e.to_string().contains("1.5"), "{e}");
    }

    #[test]
    fn a_stored_card_reads_back() {
        let card = [
            RoundEntry::Game {
                opponent: 2,
                colour: Colour::White,
                outcome: Outcome::Win,
                moved: true,
            },
            RoundEntry::Bye(ByeKind::Half),
            RoundEntry::Absent,
        ];
        let stored: Vec<_> = card.iter().map(|e| e.stored()).collect();
        let opponents: Vec<Option<i32>> = stored.iter().map(|s| s.0).collect();
        let codes: String = stored.iter().map(|s| format!("{}{}", s.1, s.2)).collect();
        assert_eq!(
            RoundEntry::card_from_codes(&opponents, &codes).unwrap(),
            card
        );
        // (the -1 an aggregate writes for no opponent)
        assert_eq!(
            RoundEntry::card_from_codes(&[Some(-1)], "-Z").unwrap(),
            [RoundEntry::Absent]
        );
        let e = RoundEntry::card_from_codes(&[None], "-").unwrap_err();
        assert_eq!(e.message, "its rounds' letters do not match its rounds");
        let e = RoundEntry::card_from_codes(&[None], "wZ").unwrap_err();
        assert!(e.message.starts_with("a stored round entry: "), "{e}");
    }
}
