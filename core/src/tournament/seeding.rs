//! Pairing numbers. A Swiss pairing ranks the players in their initial order (FIDE Handbook
//! C.04.2, "initial order"): by rating, highest first, then (without titles to compare) by name;
//! unrated players after the rated ones. Random Chess numbers its players in the order they
//! registered, so a pairing first renumbers the tournament into this order.

use std::cmp::Reverse;
use std::collections::HashMap;

use super::{PlayerNo, Result, Tournament, TournamentError};

/// One player as the initial order sees them.
#[derive(Clone, Copy, Debug)]
pub struct Seed<'a> {
    pub rating: Option<i32>,
    pub name: &'a str,
    /// What tells two players of the same rating and name apart (a user id).
    pub id: &'a str,
}

/// The players' numbers in initial order: `order[i]` is the player whose pairing number is i + 1.
pub fn initial_order(seeds: &[Seed<'_>]) -> Vec<PlayerNo> {
    let mut order: Vec<PlayerNo> = (0..seeds.len() as PlayerNo).collect();
    order.sort_by_key(|&p| {
        let s = &seeds[p as usize];
        (s.rating.is_none(), Reverse(s.rating), s.name, s.id)
    });
    order
}

impl Tournament {
    /// The same tournament with its players renumbered: new player i is old player `order[i]`.
    pub fn renumbered(&self, order: &[PlayerNo]) -> Result<Tournament> {
        let n = self.player_count();
        let mut number = vec![None; n];
        for (new, &old) in order.iter().enumerate() {
            match number.get_mut(old as usize) {
                Some(slot @ None) => *slot = Some(new as PlayerNo),
                _ => {
                    return Err(TournamentError::invalid(format!(
                        "an order of the {n} players names player {old} twice or not at all"
                    )))
                }
            }
        }
        if order.len() != n {
            return Err(TournamentError::invalid(format!(
                "an order of {} players for {n} players",
                order.len()
            )));
        }
        let number: Vec<PlayerNo> = number.into_iter().flatten().collect();
        let renumber = |p: PlayerNo| number[p as usize];
        Ok(Tournament {
            round_count: self.round_count,
            ratings: order
                .iter()
                .map(|&old| self.ratings[old as usize])
                .collect(),
            cards: order
                .iter()
                .map(|&old| {
                    self.cards[old as usize]
                        .iter()
                        .map(|e| e.with_opponent(renumber))
                        .collect()
                })
                .collect(),
        })
    }
}

/// A tournament with its players (by registration index, `names` and `users`) in FIDE's initial
/// order (rating, then display name, then user id), and `order[i]`: the registration index of
/// the player numbered i. The ratings are those as of the start once the tournament started
/// (`now` is `None`), else `now`, by registration index.
pub fn seeded(
    t: &Tournament,
    now: Option<&[Option<i32>]>,
    names: &[String],
    users: &[String],
) -> Result<(Tournament, Vec<PlayerNo>)> {
    let ratings = now.unwrap_or(t.ratings());
    let seeds: Vec<Seed> = (0..users.len())
        .map(|i| Seed {
            rating: ratings[i],
            name: &names[i],
            id: &users[i],
        })
        .collect();
    let order = initial_order(&seeds);
    Ok((t.renumbered(&order)?, order))
}

/// The values of the players (ids, names: by registration index) renumbered by `order` (from
/// [`seeded`]): the value of the player numbered i is `values[order[i]]`.
pub fn by_number<T: Clone>(values: &[T], order: &[PlayerNo]) -> Vec<T> {
    order.iter().map(|&i| values[i as usize].clone()).collect()
}

/// The number of each of `ids` (of the players by number).
pub fn number_of(ids: &[String]) -> HashMap<&str, PlayerNo> {
    ids.iter()
        .enumerate()
        .map(|(no, id)| (id.as_str(), no as PlayerNo))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::{GameKind, Outcome, RoundEntry};

    #[test]
    fn values_follow_the_players_to_their_new_numbers() {
        let users: Vec<String> = ["u0", "u1", "u2"].map(String::from).to_vec();
        let ids = by_number(&users, &[2, 0, 1]);
        assert_eq!(ids, ["u2", "u0", "u1"]);
        let numbers = number_of(&ids);
        assert_eq!(numbers.get("u2"), Some(&0));
        assert_eq!(numbers.get("u1"), Some(&2));
        assert_eq!(numbers.get("u9"), None);
    }

    fn seed<'a>(rating: Option<i32>, name: &'a str) -> Seed<'a> {
        Seed {
            rating,
            name,
            id: name,
        }
    }

    #[test]
    fn rated_by_rating_then_name_then_unrated() {
        let seeds = [
            seed(Some(1500), "Carol"),
            seed(None, "Alice"),
            seed(Some(1800), "Bob"),
            seed(Some(1500), "Anna"),
        ];
        assert_eq!(initial_order(&seeds), vec![2, 3, 0, 1]);
    }

    #[test]
    fn same_rating_and_name_ordered_by_id() {
        let seeds = [
            Seed {
                rating: Some(1500),
                name: "Sam",
                id: "9",
            },
            Seed {
                rating: Some(1500),
                name: "Sam",
                id: "10",
            },
        ];
        // ids compare as text: "10" < "9"
        assert_eq!(initial_order(&seeds), vec![1, 0]);
    }

    #[test]
    fn renumbering_moves_cards_and_opponents() {
        let mut t = Tournament::new(2, vec![Some(1400), Some(1600), None]).unwrap();
        t.add_game(1, 0, 1, Outcome::Win, GameKind::Played).unwrap();
        let r = t.renumbered(&[1, 0, 2]).unwrap();
        assert_eq!(r.ratings(), &[Some(1600), Some(1400), None]);
        assert_eq!(r.card(0)[0].opponent(), Some(1));
        assert_eq!(r.card(1)[0].opponent(), Some(0));
        assert_eq!(r.card(0)[0].half_points(), 0);
        assert_eq!(r.card(1)[0].half_points(), 2);
        assert_eq!(r.card(2)[0], RoundEntry::Absent);
    }

    #[test]
    fn an_order_must_name_every_player_once() {
        let t = Tournament::new(1, vec![None, None]).unwrap();
        assert!(t.renumbered(&[0, 0]).is_err());
        assert!(t.renumbered(&[0]).is_err());
        assert!(t.renumbered(&[0, 2]).is_err());
    }

    #[test]
    fn seeded_by_the_start_or_by_now() {
        let t = Tournament::new(1, vec![Some(1500), Some(1600)]).unwrap();
        let names = ["A".to_owned(), "B".to_owned()];
        let users = ["1".to_owned(), "2".to_owned()];
        let (s, order) = seeded(&t, None, &names, &users).unwrap();
        assert_eq!(
            (order, s.ratings().to_vec()),
            (vec![1, 0], vec![Some(1600), Some(1500)])
        );
        let now = [Some(1700), None];
        let (s, order) = seeded(&t, Some(&now), &names, &users).unwrap();
        assert_eq!(
            (order, s.ratings().to_vec()),
            (vec![0, 1], vec![Some(1500), Some(1600)])
        );
    }
}
