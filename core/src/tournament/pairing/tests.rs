//! The rules of the Dutch system on small hand-made cases, and the speed check.

use super::*;
use crate::tournament::{ByeKind, GameKind, Outcome};

/// A tournament of `n` players (ratings descending with the number) and `rounds` rounds.
fn tournament(n: usize, rounds: u32) -> Tournament {
    Tournament::new(rounds, (0..n).map(|i| Some(2800 - 2 * i as i32)).collect()).unwrap()
}

fn game(t: &mut Tournament, round: u32, white: PlayerNo, black: PlayerNo, white_outcome: Outcome) {
    t.add_game(round, white, black, white_outcome, GameKind::Played)
        .unwrap();
}

fn pair(t: &Tournament) -> Pairing {
    pair_next_round(t, &PairingOptions::default()).unwrap()
}

fn opponents(p: &Pairing, x: PlayerNo) -> Option<PlayerNo> {
    p.boards.iter().find_map(|&(w, b)| {
        if w == x {
            Some(b)
        } else if b == x {
            Some(w)
        } else {
            None
        }
    })
}

#[test]
fn round_one_pairs_the_top_half_with_the_bottom_half_colours_alternating() {
    let t = tournament(8, 5);
    let p = pair(&t);
    assert_eq!(p.round, 1);
    assert_eq!(p.boards, vec![(0, 4), (5, 1), (2, 6), (7, 3)]);
    assert_eq!(p.bye, None);
    let black_first = PairingOptions {
        first_colour_white: false,
        ..PairingOptions::default()
    };
    let p = pair_next_round(&t, &black_first).unwrap();
    assert_eq!(p.boards, vec![(4, 0), (1, 5), (6, 2), (3, 7)]);
}

#[test]
fn an_odd_count_gives_the_bye_to_the_lowest_ranked_player_without_one() {
    let t = tournament(5, 5);
    assert_eq!(pair(&t).bye, Some(4));
    // Player 4 had the bye in round 1 (and lost nothing since): the next lowest gets it.
    let mut t = tournament(5, 5);
    game(&mut t, 1, 0, 2, Outcome::Win);
    game(&mut t, 1, 3, 1, Outcome::Loss);
    t.add_bye(1, 4, ByeKind::PairingAllocated).unwrap();
    let p = pair(&t);
    assert_ne!(p.bye, Some(4));
    assert_eq!(p.bye, Some(3), "{p:?}");
    // A forfeit win counts as a bye already had (C.04.1).
    let mut t = tournament(5, 5);
    t.add_game(1, 0, 4, Outcome::Loss, GameKind::Forfeit)
        .unwrap();
    game(&mut t, 1, 1, 2, Outcome::Draw);
    t.add_bye(1, 3, ByeKind::Half).unwrap();
    let p = pair(&t);
    assert_ne!(p.bye, Some(4), "{p:?}");
}

#[test]
fn no_rematch_and_no_forbidden_pair() {
    let mut t = tournament(4, 3);
    game(&mut t, 1, 0, 2, Outcome::Draw);
    game(&mut t, 1, 3, 1, Outcome::Draw);
    let p = pair(&t);
    assert_ne!(opponents(&p, 0), Some(2));
    assert_ne!(opponents(&p, 1), Some(3));
    let opts = PairingOptions {
        forbidden_pairs: vec![(0, 1)],
        ..PairingOptions::default()
    };
    let p = pair_next_round(&t, &opts).unwrap();
    assert_eq!(opponents(&p, 0), Some(3), "{p:?}");
}

#[test]
fn a_forfeit_does_not_count_as_a_game_for_rematches() {
    let mut t = tournament(4, 3);
    t.add_game(1, 0, 2, Outcome::Win, GameKind::Forfeit)
        .unwrap();
    t.add_game(1, 3, 1, Outcome::Loss, GameKind::Forfeit)
        .unwrap();
    // 0 and 1 lead with 1 point; 2 and 3 have 0: the same players meet again.
    let p = pair(&t);
    assert_eq!(opponents(&p, 0), Some(1), "{p:?}");
    assert_eq!(opponents(&p, 2), Some(3), "{p:?}");
}

#[test]
fn colour_preferences_are_granted_and_the_higher_player_wins_a_clash() {
    // Round 1: 0-2 (0 White), 3-1 (3 White); all draws. Round 2: 0 and 1 are on top; 0 wants
    // Black, 1 wants White.
    let mut t = tournament(4, 3);
    game(&mut t, 1, 0, 2, Outcome::Draw);
    game(&mut t, 1, 3, 1, Outcome::Draw);
    let p = pair(&t);
    assert!(p.boards.contains(&(1, 0)), "{p:?}");
    assert!(p.boards.contains(&(2, 3)), "{p:?}");
    // Both 0 and 1 had White: the clash goes to the higher-ranked player's preference... both
    // want Black, so the higher-ranked 0 gets it (C.04.3 5.2.4).
    let mut t = tournament(4, 3);
    game(&mut t, 1, 0, 2, Outcome::Win);
    game(&mut t, 1, 1, 3, Outcome::Win);
    let p = pair(&t);
    assert!(p.boards.contains(&(1, 0)), "{p:?}");
}

#[test]
fn no_player_gets_a_third_colour_in_a_row() {
    // 0 and 1 lead after two Whites each: they may not meet (both must have Black, C.04.3
    // 3.3) and both get Black.
    let mut t = tournament(6, 5);
    game(&mut t, 1, 0, 3, Outcome::Win);
    game(&mut t, 1, 1, 4, Outcome::Win);
    game(&mut t, 1, 5, 2, Outcome::Draw);
    game(&mut t, 2, 0, 4, Outcome::Win);
    game(&mut t, 2, 1, 5, Outcome::Win);
    game(&mut t, 2, 2, 3, Outcome::Draw);
    let p = pair(&t);
    assert_ne!(opponents(&p, 0), Some(1), "{p:?}");
    for x in [0, 1] {
        assert!(p.boards.iter().any(|&(_, b)| b == x), "{p:?}");
    }
}

#[test]
fn a_downfloater_goes_to_the_next_bracket() {
    // Three winners (0, 1, 2) and three losers: the lowest winner floats down and meets the
    // highest loser it has not played (C.04.3 transposition order).
    let mut t = tournament(6, 4);
    game(&mut t, 1, 0, 3, Outcome::Win);
    game(&mut t, 1, 4, 1, Outcome::Loss);
    game(&mut t, 1, 2, 5, Outcome::Win);
    let p = pair(&t);
    assert_eq!(opponents(&p, 0), Some(1), "{p:?}");
    assert_eq!(opponents(&p, 2), Some(3), "{p:?}");
    assert_eq!(opponents(&p, 4), Some(5), "{p:?}");
}

#[test]
fn no_pairing_exists_is_an_error() {
    // Two players who met already: nothing else is possible.
    let mut t = tournament(2, 2);
    game(&mut t, 1, 0, 1, Outcome::Draw);
    let e = pair_next_round(&t, &PairingOptions::default()).unwrap_err();
    assert_eq!(e.kind, PairingErrorKind::NoValidPairing);
    assert_eq!(e.sqlstate(), "23514");
    assert!(e.to_string().contains("round 2"), "{e}");
    assert!(e.to_string().contains("rank(s) 1, 2 may meet none"), "{e}");
    // Every round paired.
    let mut t = tournament(2, 1);
    game(&mut t, 1, 0, 1, Outcome::Draw);
    let e = pair_next_round(&t, &PairingOptions::default()).unwrap_err();
    assert_eq!(e.kind, PairingErrorKind::AllRoundsPaired);
    assert_eq!(e.sqlstate(), "22023");
}

#[test]
fn absent_players_and_requested_byes_are_not_paired() {
    let mut t = tournament(5, 3);
    t.add_bye(1, 4, ByeKind::Half).unwrap();
    let opts = PairingOptions {
        absent: vec![3],
        ..PairingOptions::default()
    };
    let p = pair_next_round(&t, &opts).unwrap();
    assert_eq!(p.round, 1);
    assert_eq!(p.boards.len(), 1);
    assert!(opponents(&p, 3).is_none() && opponents(&p, 4).is_none());
    assert!(p.bye.is_some());
}

fn baku() -> PairingOptions {
    PairingOptions {
        baku_acceleration: true,
        ..PairingOptions::default()
    }
}

#[test]
fn baku_round_one_pairs_within_group_a_and_within_group_b() {
    // 8 players, 9 rounds: GA = 2·⌈8/4⌉ = 4 players with 1 virtual point (C.04.5.1). GA's top
    // half meets GA's bottom half, GB likewise; boards by real score, then rank.
    let t = tournament(8, 9);
    let p = pair_next_round(&t, &baku()).unwrap();
    assert_eq!(p.boards, vec![(0, 2), (3, 1), (4, 6), (7, 5)]);
    // The same virtual points given explicitly pair the same way.
    let explicit = PairingOptions {
        acceleration: (0..8)
            .map(|i| if i < 4 { vec![2, 2, 2, 1, 1] } else { vec![] })
            .collect(),
        ..PairingOptions::default()
    };
    assert_eq!(pair_next_round(&t, &explicit).unwrap(), p);
}

#[test]
fn baku_group_a_is_rounded_up_to_an_even_number() {
    // 10 players: GA = 6 (the first half, 5, rounded up to an even number).
    let t = tournament(10, 5);
    let p = pair_next_round(&t, &baku()).unwrap();
    for (a, b) in [(0, 3), (1, 4), (2, 5), (6, 8), (7, 9)] {
        assert_eq!(opponents(&p, a), Some(b), "{p:?}");
    }
}

#[test]
fn acceleration_ends_after_the_accelerated_rounds() {
    // 4 players, 2 rounds: 1 accelerated round. Round 2 pairs by real scores alone.
    let mut t = tournament(4, 2);
    game(&mut t, 1, 0, 1, Outcome::Draw);
    game(&mut t, 1, 2, 3, Outcome::Draw);
    let p = pair_next_round(&t, &baku()).unwrap();
    assert_eq!(p, pair(&t));
}

#[test]
fn bad_acceleration_options_are_errors() {
    let t = tournament(4, 3);
    let both = PairingOptions {
        baku_acceleration: true,
        acceleration: vec![vec![2]],
        ..PairingOptions::default()
    };
    let e = pair_next_round(&t, &both).unwrap_err();
    assert_eq!(e.kind, PairingErrorKind::InvalidOption);
    for acceleration in [vec![vec![]; 5], vec![vec![0, 0, 0, 2]], vec![vec![-2]]] {
        let opts = PairingOptions {
            acceleration,
            ..PairingOptions::default()
        };
        let e = pair_next_round(&t, &opts).unwrap_err();
        assert_eq!(e.kind, PairingErrorKind::InvalidOption, "{e}");
    }
}

#[test]
fn pair_trf_reads_baku_and_xxa_acceleration() {
    use crate::tournament::trf_read::read_trf16;
    let players: String = (1..=8).map(|i| format!("001 {i:>4}\n")).collect();
    let baku = read_trf16(&format!("{players}XXR 9\n192 FIDE_DUTCH_2025_BAKU\n")).unwrap();
    let expected = vec![(0, 2), (3, 1), (4, 6), (7, 5)];
    assert_eq!(pair_trf(&baku).unwrap().boards, expected);
    // XXA lines give the same points to players 1-4 explicitly.
    let xxa: String = (1..=4).map(|i| format!("XXA {i:>4}  1.0\n")).collect();
    let explicit = read_trf16(&format!("{players}XXR 9\n{xxa}")).unwrap();
    assert_eq!(pair_trf(&explicit).unwrap().boards, expected);
}

/// The arbiter's random choices of the random tournaments: the first colour, one absent player
/// in five, one forbidden pair in eight.
fn random_options(rng: &mut crate::test_rng::Rng, n: usize) -> PairingOptions {
    let mut opts = PairingOptions {
        first_colour_white: rng.one_in(2),
        ..PairingOptions::default()
    };
    if rng.one_in(5) {
        opts.absent.push(rng.below(n) as PlayerNo);
    }
    if rng.one_in(8) {
        let (a, b) = (rng.below(n) as PlayerNo, rng.below(n) as PlayerNo);
        if a != b {
            opts.forbidden_pairs.push((a, b));
        }
    }
    opts
}

/// Rounds the rules make plain (module `plain`) pair as the full procedure pairs them: random
/// tournaments whose players all have the same score before the round (draws and half-point
/// byes only, random earlier pairings, absent players, odd counts, forbidden pairs, the last
/// round), each paired with and without the shortcut.
#[test]
fn the_plain_shortcut_pairs_as_the_full_procedure() {
    let mut rng = crate::test_rng::Rng::new(34);
    let (mut plain, mut plain_later, mut cases) = (0, 0, 0);
    for case in 0..400 {
        let n = 2 + rng.below(if case % 10 == 0 { 120 } else { 30 });
        let rounds_played = rng.below(3) as u32;
        let mut t = tournament(n, rounds_played + 1 + rng.below(3) as u32);
        let bye_one_in = 2 + rng.below(5);
        for round in 1..=rounds_played {
            // random pairs of an even and an odd number (then their colours make preferences
            // by parity: many natural pairings without two equal preferences)
            let mut shuffled = |parity: PlayerNo| {
                let mut v: Vec<PlayerNo> = (0..n as PlayerNo).filter(|p| p % 2 == parity).collect();
                for i in (1..v.len()).rev() {
                    v.swap(i, rng.below(i + 1));
                }
                v
            };
            let (evens, odds) = (shuffled(0), shuffled(1));
            let mut order: Vec<PlayerNo> = evens
                .iter()
                .zip(&odds)
                .flat_map(|(&e, &o)| [e, o])
                .collect();
            let zipped = odds.len().min(evens.len());
            order.extend(evens[zipped..].iter().chain(&odds[zipped..]));
            let mut k = 0;
            while k < n {
                // a half-point bye for some (and the odd one out), a drawn game for the others
                if k + 1 == n || rng.one_in(bye_one_in) {
                    t.add_bye(round, order[k], ByeKind::Half).unwrap();
                    k += 1;
                } else {
                    // (White mostly to even numbers in odd rounds: many natural pairings
                    // without two equal colour preferences)
                    let (mut w, mut b) = (order[k], order[k + 1]);
                    if (w + round) % 2 == 1 {
                        (w, b) = (b, w);
                    }
                    t.add_game(round, w, b, Outcome::Draw, GameKind::Played)
                        .unwrap();
                    k += 2;
                }
            }
        }
        let opts = random_options(&mut rng, n);
        let full = pair_round(&t, &opts, false);
        let before = plain::TAKEN.with(|c| c.get());
        let fast = pair_round(&t, &opts, true);
        let taken = plain::TAKEN.with(|c| c.get()) - before;
        plain += taken;
        if rounds_played > 0 {
            plain_later += taken;
        }
        assert_eq!(
            fast, full,
            "case {case}: {n} players after {rounds_played} rounds"
        );
        cases += 1;
    }
    // (enough cases take the shortcut for the comparison to mean something)
    println!("{plain} of {cases} cases plain, {plain_later} after round 1");
    assert!(
        plain > 100 && plain_later > 10,
        "{plain} of {cases} plain, {plain_later} later"
    );
}

/// Brackets where only colours tell the pairings apart (module `colour_bracket`) pair as the full
/// procedure pairs them: random tournaments (random earlier pairings and colours, wins, draws
/// and losses, half-point byes, absent players, forbidden pairs), each round paired with and
/// without the shortcuts.
#[test]
fn the_colour_bracket_shortcut_pairs_as_the_full_procedure() {
    let mut rng = crate::test_rng::Rng::new(3434);
    let (mut taken, mut cases) = (0, 0);
    for case in 0..800 {
        let n = 2 + rng.below(if case % 10 == 0 { 160 } else { 40 });
        let rounds_played = [0, 1, 1, 1, 2, 2, 3][rng.below(7)];
        let mut t = tournament(n, rounds_played + 1 + rng.below(2) as u32);
        let draws = rng.below(4); // none to most games drawn
        for round in 1..=rounds_played {
            let mut order: Vec<PlayerNo> = (0..n as PlayerNo).collect();
            for i in (1..n).rev() {
                order.swap(i, rng.below(i + 1));
            }
            let mut k = 0;
            while k < n {
                if k + 1 == n || rng.one_in(12) {
                    t.add_bye(round, order[k], ByeKind::Half).unwrap();
                    k += 1;
                    continue;
                }
                let outcome = if rng.below(4) < draws {
                    Outcome::Draw
                } else if rng.one_in(2) {
                    Outcome::Win
                } else {
                    Outcome::Loss
                };
                game(&mut t, round, order[k], order[k + 1], outcome);
                k += 2;
            }
        }
        let opts = random_options(&mut rng, n);
        let full = pair_round(&t, &opts, false);
        let before = colour_bracket::TAKEN.with(|c| c.get());
        let fast = pair_round(&t, &opts, true);
        taken += colour_bracket::TAKEN.with(|c| c.get()) - before;
        assert_eq!(
            fast, full,
            "case {case}: {n} players after {rounds_played} rounds"
        );
        cases += 1;
    }
    // (the counter adds 1 per bracket and 2^16 per bracket with an MDP)
    let (with_mdp, taken) = (taken >> 16, taken & 0xffff);
    println!("{taken} brackets paired by colours in {cases} cases, {with_mdp} with an MDP");
    assert!(
        taken > 200 && with_mdp > 20,
        "{taken} brackets paired by colours in {cases} cases, {with_mdp} with an MDP"
    );
}

/// A bracket pairs the same with its weights in a matrix (the brackets under
/// `incremental::matrix_fits`) and computed where they are read (the larger ones): random
/// tournaments (random earlier pairings and colours, results, half-point byes, absent players,
/// forbidden pairs), each round paired both ways.
#[test]
fn computed_weights_pair_as_the_matrix() {
    let mut rng = crate::test_rng::Rng::new(3435);
    for case in 0..300 {
        let n = 2 + rng.below(if case % 10 == 0 { 120 } else { 40 });
        let rounds_played = [0, 1, 1, 2, 2, 3][rng.below(6)];
        let mut t = tournament(n, rounds_played + 1 + rng.below(2) as u32);
        for round in 1..=rounds_played {
            let mut order: Vec<PlayerNo> = (0..n as PlayerNo).collect();
            for i in (1..n).rev() {
                order.swap(i, rng.below(i + 1));
            }
            let mut k = 0;
            while k < n {
                if k + 1 == n || rng.one_in(12) {
                    t.add_bye(round, order[k], ByeKind::Half).unwrap();
                    k += 1;
                    continue;
                }
                let outcome = [Outcome::Win, Outcome::Draw, Outcome::Loss][rng.below(3)];
                game(&mut t, round, order[k], order[k + 1], outcome);
                k += 2;
            }
        }
        let opts = random_options(&mut rng, n);
        let matrix = pair_round(&t, &opts, false);
        let computed = super::incremental::MATRIX_LIMIT.with(|c| {
            let limit = c.replace(0);
            let computed = pair_round(&t, &opts, false);
            c.set(limit);
            computed
        });
        assert_eq!(
            computed, matrix,
            "case {case}: {n} players after {rounds_played} rounds"
        );
    }
}
