//! The players of a rating period named by id (`glicko2_rate_period`): each game's two ids made
//! positions in the list of players, every id of a game one of the period's players and no player
//! listed twice. Open addressing with a multiplicative hash: about four times faster than `std`'s
//! SipHash map for the millions of look-ups of a large period.

use super::RatingError;

/// Player id → position in the period's list of players.
pub struct PeriodPlayers {
    keys: Vec<i64>,
    /// position + 1; 0 = empty
    slots: Vec<u32>,
    shift: u32,
}

impl PeriodPlayers {
    /// One rating per player id: `ids` and `ratings` (their lengths) pair up (2202E).
    pub fn ratings_match(ids: usize, ratings: usize) -> Result<(), RatingError> {
        if ids == ratings {
            Ok(())
        } else {
            Err(RatingError::length_mismatch(
                "glicko2_rate_period (player_ids, ratings)",
                ids,
                ratings,
            ))
        }
    }

    /// The index of `ids`; a player listed twice is an error (22023).
    pub fn new(ids: &[i64]) -> Result<Self, RatingError> {
        let cap = (ids.len() * 2).max(16).next_power_of_two();
        let mut index = PeriodPlayers {
            keys: vec![0; cap],
            slots: vec![0; cap],
            shift: 64 - cap.trailing_zeros(),
        };
        for (pos, &id) in ids.iter().enumerate() {
            if pos % 65_536 == 0 {
                crate::interrupt::check();
            }
            let mut h = index.hash(id);
            loop {
                match index.slots[h] {
                    0 => {
                        index.keys[h] = id;
                        index.slots[h] = pos as u32 + 1;
                        break;
                    }
                    _ if index.keys[h] == id => {
                        return Err(RatingError::invalid(format!(
                            "glicko2_rate_period: player id {id} appears twice"
                        )))
                    }
                    _ => h = (h + 1) & (cap - 1),
                }
            }
        }
        Ok(index)
    }

    #[inline]
    fn hash(&self, id: i64) -> usize {
        ((id as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    /// The position of `id`, if it is one of the period's players.
    #[inline]
    pub fn get(&self, id: i64) -> Option<usize> {
        let mask = self.slots.len() - 1;
        let mut h = self.hash(id);
        loop {
            match self.slots[h] {
                0 => return None,
                p if self.keys[h] == id => return Some(p as usize - 1),
                _ => h = (h + 1) & mask,
            }
        }
    }

    /// The positions of one side's players (`what` names them in an error: "white player id"):
    /// an id that is not one of the period's players is an error (22023).
    pub fn positions(&self, ids: &[i64], what: &str) -> Result<Vec<usize>, RatingError> {
        ids.iter()
            .enumerate()
            .map(|(i, &id)| {
                if i % 65_536 == 0 {
                    crate::interrupt::check();
                }
                self.get(id).ok_or_else(|| {
                    RatingError::invalid(format!(
                        "glicko2_rate_period: {what} {id} is not in player_ids"
                    ))
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Classified;

    #[test]
    fn every_id_finds_its_position_among_many() {
        let ids: Vec<i64> = (0..10_000).map(|i| i * 7_919 - 5_000_000).collect();
        let index = PeriodPlayers::new(&ids).unwrap();
        for (pos, &id) in ids.iter().enumerate() {
            assert_eq!(index.get(id), Some(pos));
        }
        assert_eq!(index.get(1), None);
        assert_eq!(
            index.positions(&[ids[3], ids[9_999]], "white player id"),
            Ok(vec![3, 9_999])
        );
    }

    #[test]
    fn a_player_twice_or_a_stranger_is_an_error() {
        let twice = PeriodPlayers::new(&[5, 6, 5]).err().unwrap();
        assert!(
            twice.to_string().contains("player id 5 appears twice"),
            "{twice}"
        );
        assert_eq!(twice.sqlstate(), "22023");
        let index = PeriodPlayers::new(&[i64::MIN, 0, i64::MAX]).unwrap();
        assert_eq!(
            index.positions(&[i64::MAX, i64::MIN], "black player id"),
            Ok(vec![2, 0])
        );
        let stranger = index.positions(&[0, 42], "black player id").unwrap_err();
        assert!(
            stranger
                .to_string()
                .contains("black player id 42 is not in player_ids"),
            "{stranger}"
        );
    }

    #[test]
    fn one_rating_per_player_id() {
        assert_eq!(PeriodPlayers::ratings_match(3, 3), Ok(()));
        let e = PeriodPlayers::ratings_match(3, 2).unwrap_err();
        assert_eq!(
            e.to_string(),
            "glicko2_rate_period (player_ids, ratings): arrays have different lengths (3 and 2)"
        );
        assert_eq!(e.sqlstate(), "2202E");
    }

    #[test]
    fn no_players_make_an_empty_index() {
        let index = PeriodPlayers::new(&[]).unwrap();
        assert_eq!(index.get(0), None);
        assert_eq!(index.positions(&[], "white player id"), Ok(vec![]));
    }
}
