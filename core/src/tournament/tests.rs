//! Tests of the tournament core.
//!
//! Test vectors:
//! * FIDE TEC, IA Mario Held, "Exercises in Tie-Breaking" for C.07-2023, rev. 2403220900
//!   (<https://tec.fide.com/wp-content/uploads/2024/04/C.07-2023-Tiebreak-exercises-V01-1.pdf>):
//!   the 16-player, 5-round Swiss of §2.1 with half-point byes, pairing-allocated byes, a
//!   zero-point bye, two forfeits and a withdrawal (Nick, after round 3), and the published
//!   solutions of exercises 1–13 (BH, BH-C1, SB, SB-C1), 17–20 and 22 (ARO, ARO-C1, TPR, PTP) and
//!   27–28 (WIN, WON). They were written for the 2023/2024 text, so they are checked under
//!   [`Edition::C07_2024`]; the values the 2026 caps of 16.4 change are hand-computed below.
//! * The 6-player round robin of the same document (§2.2) for direct encounter.
//! * Hand-computed small tournaments (a Random Chess one with a forfeit, pairing-allocated byes
//!   and a withdrawal; direct-encounter groups that have not all met), each step written out.
//!
//! Real tournaments' published final rankings (a 110-player Swiss with BH, BH-C1 and ARO-C1;
//! two round robins with SB and direct encounter) are checked in `real_tournament_tests.rs`.

use super::*;
use crate::error::Classified;
use crate::result::{GameEndReason, GameEndType};
use crate::test_rng::Rng;

fn pn(n: u32) -> PlayerNo {
    n - 1
}

/// White (1-based), black (1-based), white's result.
type G = (u32, u32, &'static str);

fn play(t: &mut Tournament, round: u32, games: &[G], byes: &[(u32, ByeKind)]) {
    for &(w, b, res) in games {
        let (outcome, kind) = match res {
            "1-0" => (Outcome::Win, GameKind::Played),
            "0-1" => (Outcome::Loss, GameKind::Played),
            "1/2" => (Outcome::Draw, GameKind::Played),
            "+-" => (Outcome::Win, GameKind::Forfeit),
            "-+" => (Outcome::Loss, GameKind::Forfeit),
            other => panic!("bad result {other}"),
        };
        t.add_game(round, pn(w), pn(b), outcome, kind).unwrap();
    }
    for &(p, kind) in byes {
        t.add_bye(round, pn(p), kind).unwrap();
    }
}

/// The Swiss of the FIDE TEC exercises, §2.1 (players numbered as there).
fn fide_swiss() -> Tournament {
    let ratings = (0..16).map(|i| Some(2200 - 50 * i)).collect();
    let mut t = Tournament::new(5, ratings).unwrap();
    use ByeKind::*;
    play(
        &mut t,
        1,
        &[
            (10, 2, "0-1"),
            (1, 9, "1-0"),
            (3, 11, "1/2"),
            (12, 4, "0-1"),
            (16, 8, "1/2"),
            (14, 6, "1-0"),
            (5, 13, "0-1"),
            (7, 15, "1-0"),
        ],
        &[],
    );
    play(
        &mut t,
        2,
        &[
            (2, 7, "1-0"),
            (13, 1, "1/2"),
            (6, 3, "0-1"),
            (11, 16, "0-1"),
            (15, 5, "1-0"),
            (8, 14, "1-0"),
            (9, 10, "0-1"),
        ],
        &[(4, Half), (12, PairingAllocated)],
    );
    play(
        &mut t,
        3,
        &[
            (1, 2, "1/2"),
            (3, 8, "1-0"),
            (4, 13, "1-0"),
            (16, 7, "1-0"),
            (5, 11, "1-0"),
            (12, 14, "+-"),
            (10, 15, "0-1"),
        ],
        &[(6, PairingAllocated), (9, Half)],
    );
    // Nick (12) has withdrawn: absent from round 4 on
    play(
        &mut t,
        4,
        &[
            (2, 16, "1-0"),
            (15, 1, "0-1"),
            (4, 3, "1/2"),
            (6, 10, "1-0"),
            (7, 5, "1/2"),
            (8, 13, "1-0"),
            (11, 9, "+-"),
        ],
        &[(14, Zero)],
    );
    play(
        &mut t,
        5,
        &[
            (3, 2, "1/2"),
            (1, 4, "1/2"),
            (16, 15, "1-0"),
            (8, 6, "0-1"),
            (5, 10, "1-0"),
            (11, 7, "1-0"),
            (13, 14, "0-1"),
        ],
        &[(9, PairingAllocated)],
    );
    t
}

fn check(
    name: &str,
    values: &[PlayerValues],
    want: &[(u32, f64)],
    get: impl Fn(&PlayerValues) -> f64,
) {
    for &(p, w) in want {
        let got = get(&values[pn(p) as usize]);
        assert_eq!(got, w, "{name} of player #{p}");
    }
}

fn check_opt(
    name: &str,
    values: &[PlayerValues],
    want: &[(u32, Option<i32>)],
    get: impl Fn(&PlayerValues) -> Option<i32>,
) {
    for &(p, w) in want {
        assert_eq!(get(&values[pn(p) as usize]), w, "{name} of player #{p}");
    }
}

const BH: fn(&PlayerValues) -> f64 = |v| f64::from(v.bh_x2) / 2.0;
const BH_C1: fn(&PlayerValues) -> f64 = |v| f64::from(v.bh_c1_x2) / 2.0;
const SB: fn(&PlayerValues) -> f64 = |v| f64::from(v.sb_x4) / 4.0;
const SB_C1: fn(&PlayerValues) -> f64 = |v| f64::from(v.sb_c1_x4) / 4.0;

// FIDE TEC exercise solutions (C.07-2023 text).
const FIDE_SCORES: [(u32, f64); 16] = [
    (1, 3.5),
    (2, 4.0),
    (3, 3.5),
    (4, 3.5),
    (5, 2.5),
    (6, 3.0),
    (7, 1.5),
    (8, 2.5),
    (9, 1.5),
    (10, 1.0),
    (11, 2.5),
    (12, 2.0),
    (13, 1.5),
    (14, 2.0),
    (15, 2.0),
    (16, 3.5),
];
// exercises 1-4 and 9 (p. 10-21)
const FIDE_BH: [(u32, f64); 16] = [
    (1, 12.5),
    (2, 13.0),
    (3, 15.5),
    (4, 15.0),
    (5, 8.5),
    (6, 12.0),
    (7, 14.5),
    (8, 13.5),
    (9, 9.0),
    (10, 13.0),
    (11, 13.5),
    (12, 11.5),
    (13, 14.0),
    (14, 11.0),
    (15, 12.0),
    (16, 12.5),
];
// exercises 5-8 (p. 16-20): every BH-C1 value the exercises give
const FIDE_BH_C1: [(u32, f64); 13] = [
    (5, 7.5),
    (8, 12.0),
    (11, 12.0),
    (7, 12.5),
    (13, 12.0),
    (9, 7.5),
    (1, 11.0),
    (3, 13.0),
    (16, 11.0),
    (4, 11.5),
    (12, 9.5),
    (15, 11.0),
    (14, 9.0),
];
// exercise 12 (p. 26-27)
const FIDE_SB: [(u32, f64); 16] = [
    (1, 8.0),
    (2, 9.5),
    (3, 10.5),
    (4, 9.75),
    (5, 4.25),
    (6, 6.5),
    (7, 3.25),
    (8, 5.25),
    (9, 2.25),
    (10, 1.5),
    (11, 5.75),
    (12, 4.0),
    (13, 4.25),
    (14, 4.5),
    (15, 3.5),
    (16, 7.25),
];
// exercise 13 (p. 27-29)
const FIDE_SB_C1: [(u32, f64); 16] = [
    (1, 7.25),
    (2, 8.5),
    (3, 9.25),
    (4, 8.0),
    (5, 3.25),
    (6, 5.5),
    (7, 1.25),
    (8, 3.75),
    (9, 2.25),
    (10, 0.0),
    (11, 4.25),
    (12, 4.0),
    (13, 4.25),
    (14, 3.0),
    (15, 2.5),
    (16, 5.75),
];

#[test]
fn fide_exercises_scores_and_unplayed_round_categories() {
    let t = fide_swiss();
    let v = values_after(&t, 5, Edition::C07_2024);
    check("points", &v, &FIDE_SCORES, PlayerValues::points);
    // Nick withdrew: rounds 4 and 5 are zero-point byes followed only by VURs (16.2.5) and count
    // as draws for his opponents (16.3.2): 2.0 becomes 3.0 (exercise 4: David's BH uses 3.0).
    assert_eq!(
        categories(t.card(pn(12))),
        vec![
            None,
            Some(Category::FullPointBye),
            Some(Category::ForfeitWin),
            Some(Category::RequestedByeTrailing),
            Some(Category::RequestedByeTrailing)
        ]
    );
    assert_eq!(adjusted_points_x2(t.card(pn(12))), 6);
    // Jessica's half-point bye of round 3 is followed by a forfeit loss (a VUR) and a PAB (not a
    // VUR): category 16.2.3, counted at its 0.5.
    assert_eq!(
        categories(t.card(pn(9))),
        vec![
            None,
            None,
            Some(Category::RequestedByeFollowed),
            Some(Category::ForfeitLoss),
            Some(Category::FullPointBye)
        ]
    );
    assert_eq!(adjusted_points_x2(t.card(pn(9))), 3);
    // Paul: a forfeit loss, then a zero-point bye followed by a played round
    assert_eq!(
        categories(t.card(pn(14)))[2..4],
        [
            Some(Category::ForfeitLoss),
            Some(Category::RequestedByeFollowed)
        ]
    );
    assert!(is_vur(t.card(pn(14))[2]) && is_vur(t.card(pn(14))[3]) && !is_vur(t.card(pn(12))[2]));
}

#[test]
fn fide_exercises_buchholz_and_sonneborn_berger_2024() {
    let v = values_after(&fide_swiss(), 5, Edition::C07_2024);
    check("BH", &v, &FIDE_BH, BH);
    check("BH-C1", &v, &FIDE_BH_C1, BH_C1);
    check("SB", &v, &FIDE_SB, SB);
    check("SB-C1", &v, &FIDE_SB_C1, SB_C1);
}

#[test]
fn fide_exercises_under_the_2026_dummy_caps() {
    // Hand-computed: the caps of 16.4 (2026) only lower own dummies above a cap.
    // David #4, 3.5 pts, half-point bye in round 2 (cat. 16.2.3): dummy min(3.5, 0.5×5) = 2.5.
    //   BH = 3.0 (Nick, adjusted) + 2.5 + 1.5 + 3.5 + 3.5 = 14.0; BH-C1 cuts the VUR 2.5 → 11.5.
    //   SB = 3.0 + 0.5×2.5 + 1.5 + 1.75 + 1.75 = 9.25; SB-C1 cuts max(LSV 1.5 (Opal), VUR 1.25).
    // Franck #6, 3.0 pts, PAB in round 3: dummy 2.5 → BH 11.5, BH-C1 10.5 (cut Lais 1.0),
    //   SB = 2.5 + 1.0 + 2.5 = 6.0, SB-C1 5.0.
    // Maria #11, forfeit win against Jessica (adjusted 1.5): dummy min(2.5, 1.5) = 1.5 →
    //   BH 12.5, BH-C1 11.0, SB = 1.75 + 1.5 + 1.5 = 4.75, SB-C1 (lowest score 1.5) 3.25.
    // Everyone else is at or below the caps (Jessica 1.5, Nick 2.0 with Paul's 2.0 as the
    // forfeit cap, Paul 2.0 with Nick's 3.0), and adjusted scores do not change.
    let v = values_after(&fide_swiss(), 5, Edition::C07_2026);
    let changed = |table: &[(u32, f64)], new: &[(u32, f64)]| -> Vec<(u32, f64)> {
        table
            .iter()
            .map(|&(p, x)| *new.iter().find(|(q, _)| *q == p).unwrap_or(&(p, x)))
            .collect()
    };
    check(
        "BH 2026",
        &v,
        &changed(&FIDE_BH, &[(4, 14.0), (6, 11.5), (11, 12.5)]),
        BH,
    );
    check(
        "BH-C1 2026",
        &v,
        &changed(&FIDE_BH_C1, &[(4, 11.5), (11, 11.0)]),
        BH_C1,
    );
    check("BH-C1 2026", &v, &[(6, 10.5)], BH_C1);
    check(
        "SB 2026",
        &v,
        &changed(&FIDE_SB, &[(4, 9.25), (6, 6.0), (11, 4.75)]),
        SB,
    );
    check(
        "SB-C1 2026",
        &v,
        &changed(&FIDE_SB_C1, &[(4, 7.75), (6, 5.0), (11, 3.25)]),
        SB_C1,
    );
    assert_eq!(Edition::default(), Edition::C07_2026);
}

#[test]
fn fide_exercises_rating_based() {
    let v = values_after(&fide_swiss(), 5, Edition::C07_2024);
    // exercise 17 (ARO, p. 33): over-the-board opponents only, 0.5 rounded up (David 1887.5)
    let aro = [
        (1, 1820),
        (2, 1880),
        (3, 1940),
        (4, 1888),
        (5, 1690),
        (6, 1813),
        (7, 1760),
        (8, 1730),
        (9, 1975),
        (10, 1880),
        (11, 1863),
        (12, 2050),
        (13, 1930),
        (14, 1800),
        (15, 1860),
        (16, 1820),
    ];
    check_opt("ARO", &v, &aro.map(|(p, r)| (p, Some(r))), |v| v.aro);
    // exercise 18 (ARO-C1, p. 33-34); Nick played one game: nothing is left (FIDE prints 0)
    let aro_c1 = [
        (1, Some(1900)),
        (2, Some(1988)),
        (3, Some(2000)),
        (4, Some(1983)),
        (5, Some(1738)),
        (6, Some(1900)),
        (7, Some(1838)),
        (8, Some(1800)),
        (9, Some(2200)),
        (10, Some(1975)),
        (11, Some(2000)),
        (12, None),
        (13, Some(2025)),
        (14, Some(1900)),
        (15, Some(1963)),
        (16, Some(1900)),
    ];
    check_opt("ARO-C1", &v, &aro_c1, |v| v.aro_c1);
    // exercises 19-20 (TPR, p. 37-38), all sixteen players
    let tpr = [
        (1, 1969),
        (2, 2120),
        (3, 2089),
        (4, 2081),
        (5, 1690),
        (6, 1813),
        (7, 1611),
        (8, 1730),
        (9, 1175),
        (10, 1640),
        (11, 1776),
        (12, 1250),
        (13, 1781),
        (14, 1925),
        (15, 1788),
        (16, 1969),
    ];
    check_opt("TPR", &v, &tpr.map(|(p, r)| (p, Some(r))), |v| v.tpr);
    // exercise 22 (PTP, p. 39-40)
    check_opt("PTP", &v, &[(3, Some(2112))], |v| v.ptp);
    // rating-based values do not depend on the edition
    let v26 = values_after(&fide_swiss(), 5, Edition::C07_2026);
    for (a, b) in v.iter().zip(&v26) {
        assert_eq!(
            (a.aro, a.aro_c1, a.tpr, a.ptp),
            (b.aro, b.aro_c1, b.tpr, b.ptp)
        );
    }
}

#[test]
fn fide_exercises_wins() {
    let v = values_after(&fide_swiss(), 5, Edition::C07_2024);
    // exercise 27 (WIN, p. 44-45): wins with or without playing (Franck's and Nick's PABs,
    // Maria's and Nick's forfeit wins count)
    let win = [
        (1, 2.0),
        (2, 3.0),
        (3, 2.0),
        (4, 2.0),
        (5, 2.0),
        (6, 3.0),
        (7, 1.0),
        (8, 2.0),
        (9, 1.0),
        (10, 1.0),
        (11, 2.0),
        (12, 2.0),
        (13, 1.0),
        (14, 2.0),
        (15, 2.0),
        (16, 3.0),
    ];
    check("WIN", &v, &win, |v| f64::from(v.win));
    // exercise 28 (WON, p. 45-46): games won over the board
    let won = [
        (1, 2.0),
        (2, 3.0),
        (3, 2.0),
        (4, 2.0),
        (5, 2.0),
        (6, 2.0),
        (7, 1.0),
        (8, 2.0),
        (9, 0.0),
        (10, 1.0),
        (11, 1.0),
        (12, 0.0),
        (13, 1.0),
        (14, 2.0),
        (15, 2.0),
        (16, 3.0),
    ];
    check("WON", &v, &won, |v| f64::from(v.won));
}

#[test]
fn fide_exercises_ranking_of_the_tied_groups() {
    let t = fide_swiss();
    let order = parse_order("BH, SB").unwrap();
    let table = standings(&t, 5, &order, Edition::C07_2024);
    let by_place: Vec<u32> = table.iter().map(|s| s.player + 1).collect();
    // 4.0: Bruno; 3.5: Charline 15.5, David 15.0, then Alyx and Stephan 12.5 split by SB 8.0 / 7.25;
    // 3.0: Franck; 2.5: Irina and Maria 13.5 (SB 5.25 / 5.75 → Maria first), Helene 8.5
    assert_eq!(&by_place[..8], &[2, 3, 4, 1, 16, 6, 11, 8]);
    assert_eq!(by_place[8], 5);
    // under 2026 Maria's BH drops to 12.5 and Irina (13.5) passes her
    let table = standings(&t, 5, &order, Edition::C07_2026);
    let by_place: Vec<u32> = table.iter().map(|s| s.player + 1).collect();
    assert_eq!(&by_place[..9], &[2, 3, 4, 1, 16, 6, 8, 11, 5]);
    // places are 1..n, ranks equal places when every tie is broken
    assert!(table
        .iter()
        .enumerate()
        .all(|(i, s)| s.place == i as u32 + 1));
}

#[test]
fn direct_encounter_round_robin_of_the_fide_exercises() {
    // §2.2: six players, Helene (#5) won by forfeit against Franck (#6) in round 4.
    let ratings = vec![
        Some(2200),
        Some(2150),
        Some(2100),
        Some(2050),
        Some(2000),
        Some(1950),
    ];
    let mut t = Tournament::new(5, ratings).unwrap();
    play(
        &mut t,
        1,
        &[(1, 6, "1/2"), (2, 5, "1-0"), (3, 4, "1-0")],
        &[],
    );
    play(
        &mut t,
        2,
        &[(1, 2, "1-0"), (5, 3, "0-1"), (6, 4, "1-0")],
        &[],
    );
    play(
        &mut t,
        3,
        &[(3, 1, "0-1"), (2, 6, "1-0"), (4, 5, "1/2")],
        &[],
    );
    play(
        &mut t,
        4,
        &[(2, 3, "1/2"), (1, 4, "0-1"), (6, 5, "-+")],
        &[],
    );
    play(
        &mut t,
        5,
        &[(5, 1, "0-1"), (4, 2, "0-1"), (3, 6, "1-0")],
        &[],
    );
    let table = standings(&t, 5, &[TieBreak::DirectEncounter], Edition::default());
    let row = |p: u32| table.iter().find(|s| s.player == pn(p)).unwrap();
    // exercise 26 (p. 44): Alyx 2.0, Bruno 0.5, Charline 0.5 — all met (6.2): Alyx first; Bruno
    // and Charline drew, so article 6 again leaves them tied.
    assert_eq!(
        (row(1).de, row(2).de, row(3).de),
        (Some(2.0), Some(0.5), Some(0.5))
    );
    assert_eq!((row(1).rank, row(2).rank, row(3).rank), (1, 2, 2));
    assert_eq!((row(1).place, row(2).place, row(3).place), (1, 2, 3));
    // The exercise (a round robin, 15.2) counts the forfeit: Helene 1.5, Franck 1.0, David 0.5.
    // In a Swiss, 6.1.1 leaves forfeits out: David 0.5, Helene 0.5, Franck 1.0, and Helene and
    // Franck never met over the board, so nobody is first whatever that game gives (6.3).
    assert_eq!(
        (row(4).de, row(5).de, row(6).de),
        (Some(0.5), Some(0.5), Some(1.0))
    );
    assert_eq!((row(4).rank, row(5).rank, row(6).rank), (4, 4, 4));
    assert_eq!((row(4).place, row(5).place, row(6).place), (4, 5, 6));
}

#[test]
fn direct_encounter_when_not_all_met() {
    // Hand-built Swiss: A, B, C end on 2/3; A beat B and C, B and C never met.
    // R1 A-B 1-0, C-X 1-0, Y-Z 1-0; R2 A-C 1-0, B-Y 1-0, X-Z ½; R3 X-A 1-0, B-Z 1-0, C-Y 1-0.
    let mut t = Tournament::new(3, vec![Some(1500); 6]).unwrap();
    let (a, b, c, x, y, z) = (1, 2, 3, 4, 5, 6);
    play(
        &mut t,
        1,
        &[(a, b, "1-0"), (c, x, "1-0"), (y, z, "1-0")],
        &[],
    );
    play(
        &mut t,
        2,
        &[(a, c, "1-0"), (b, y, "1-0"), (x, z, "1/2")],
        &[],
    );
    play(
        &mut t,
        3,
        &[(x, a, "1-0"), (b, z, "1-0"), (c, y, "1-0")],
        &[],
    );
    // 6.3: A has 2 and B, C can reach at most 0 + 1: A is first; B and C cannot be separated.
    let table = standings(&t, 3, &[TieBreak::DirectEncounter], Edition::default());
    let ids: Vec<u32> = table.iter().map(|s| s.player + 1).collect();
    assert_eq!(&ids[..3], &[a, b, c]);
    assert_eq!(table[0].rank, 1);
    assert_eq!((table[1].rank, table[2].rank), (2, 2));
    assert_eq!(
        (table[0].de, table[1].de, table[2].de),
        (Some(2.0), Some(0.0), Some(0.0))
    );
    // then Buchholz: B met A (2), Y (1), Z (0.5) = 3.5; C met X (1.5), A (2), Y (1) = 4.5
    let table = standings(&t, 3, &parse_order("DE, BH").unwrap(), Edition::default());
    let ids: Vec<u32> = table.iter().map(|s| s.player + 1).collect();
    assert_eq!(&ids[..3], &[a, c, b]);
    assert_eq!(
        table.iter().map(|s| s.rank).collect::<Vec<_>>()[..3],
        [1, 2, 3]
    );

    // Only A-B played (A won), C met neither: C could still win both missing games → no one
    // is alone on top; all three stay tied.
    let vals = PlayerValues {
        points_x2: 4,
        ..Default::default()
    };
    let rows = [(0, vals), (1, vals), (2, vals)];
    let enc = |p: PlayerNo, q: PlayerNo| match (p, q) {
        (0, 1) => (1, 2),
        (1, 0) => (1, 0),
        _ => (0, 0),
    };
    let placed = rank_players(&rows, &[TieBreak::DirectEncounter], enc);
    assert!(placed.iter().all(|p| p.rank == 1));
    // Two games between the same players count as their average (6.1.2): 1.5 of 2 → 0.75.
    let enc2 = |p: PlayerNo, q: PlayerNo| match (p, q) {
        (0, 1) => (2, 1),
        (1, 0) => (2, 3),
        _ => (0, 0),
    };
    let placed = rank_players(&rows[..2], &[TieBreak::DirectEncounter], enc2);
    assert_eq!(placed[0].player, 1);
    assert_eq!((placed[0].de, placed[1].de), (Some(0.75), Some(0.25)));
    assert_eq!((placed[0].rank, placed[1].rank), (1, 2));
}

/// A Random Chess tournament: five players, pairing-allocated byes, a forfeit (ABANDONMENT
/// without a move) and a withdrawal (player 4 after round 2). Ratings 1800 .. 1400.
fn random_chess_case() -> Tournament {
    let mut t = Tournament::new(
        4,
        vec![Some(1800), Some(1700), Some(1600), Some(1500), Some(1400)],
    )
    .unwrap();
    let forfeit = classify_game(GameEndType::WhiteWins, GameEndReason::Abandonment, 0);
    assert_eq!(forfeit, GameKind::Forfeit);
    let played = GameKind::Played;
    // R1: 0-1 ½, 2-3 1-0, 4 bye
    t.add_game(1, 0, 1, Outcome::Draw, played).unwrap();
    t.add_game(1, 2, 3, Outcome::Win, played).unwrap();
    t.add_bye(1, 4, ByeKind::PairingAllocated).unwrap();
    // R2: 4-0 0-1, 1-2 forfeit (2 never came), 3 bye
    t.add_game(2, 4, 0, Outcome::Loss, played).unwrap();
    t.add_game(2, 1, 2, Outcome::Win, forfeit).unwrap();
    t.add_bye(2, 3, ByeKind::PairingAllocated).unwrap();
    // R3: 0-2 0-1, 1-3 ½; player 4 has withdrawn
    t.add_game(3, 0, 2, Outcome::Loss, played).unwrap();
    t.add_game(3, 1, 3, Outcome::Draw, played).unwrap();
    // R4: 3-0 ½, 2-1 1-0 (their round-2 pairing was a forfeit)
    t.add_game(4, 3, 0, Outcome::Draw, played).unwrap();
    t.add_game(4, 2, 1, Outcome::Win, played).unwrap();
    t
}

#[test]
fn hand_computed_random_chess_case() {
    let t = random_chess_case();
    let v = values_after(&t, 4, Edition::C07_2024);
    let f = |p: usize| v[p];
    // points = wins + draws/2 + byes (forfeit win included): 2, 2, 3, 2, 1
    assert_eq!(
        v.iter().map(|x| x.points()).collect::<Vec<_>>(),
        vec![2.0, 2.0, 3.0, 2.0, 1.0]
    );
    // adjusted (16.3): player 4's two absences after withdrawing count as draws → 2.0
    assert_eq!(
        v.iter().map(|x| x.adjusted_x2).collect::<Vec<_>>(),
        vec![4, 4, 6, 4, 4]
    );
    // BH (2024 dummies = own score):
    //  0: 1 (2.0) + 4 (2.0) + 2 (3.0) + 3 (2.0) = 9.0
    //  2: 3 (2.0) + forfeit loss dummy 3.0 + 0 (2.0) + 1 (2.0) = 9.0, BH-C1 cuts the VUR 3.0 → 6.0
    //  4: PAB dummy 1.0 + 0 (2.0) + two absences dummy 1.0 = 5.0, BH-C1 cuts a VUR 1.0 → 4.0
    assert_eq!(
        v.iter().map(|x| x.bh_x2).collect::<Vec<_>>(),
        vec![18, 18, 18, 18, 10]
    );
    assert_eq!(
        v.iter().map(|x| x.bh_c1_x2).collect::<Vec<_>>(),
        vec![14, 14, 12, 14, 8]
    );
    // SB: 0: ½·2 + 1·2 + 0 + ½·2 = 4; 1: ½·2 + 1·2 (forfeit win, dummy 2) + ½·2 = 4;
    //     2: 2 + 0 + 2 + 2 = 6; 3: 0 + 1·2 (PAB) + 1 + 1 = 4; 4: 1·1 (PAB) = 1
    assert_eq!(
        v.iter().map(|x| x.sb_x4).collect::<Vec<_>>(),
        vec![16, 16, 24, 16, 4]
    );
    // SB-C1: 0, 1, 3 drop a product of 1 (an opponent on 2.0 they drew); 2 drops the higher of
    // LSV (2.0, an opponent on 2.0 it beat) and its VUR (0) → 4.0; 4 drops 0 → 1.0
    assert_eq!(
        v.iter().map(|x| x.sb_c1_x4).collect::<Vec<_>>(),
        vec![12, 12, 16, 12, 4]
    );
    // WIN counts the forfeit win and the byes; WON only games won over the board
    assert_eq!(
        v.iter().map(|x| x.win).collect::<Vec<_>>(),
        vec![1, 1, 3, 1, 1]
    );
    assert_eq!(
        v.iter().map(|x| x.won).collect::<Vec<_>>(),
        vec![1, 0, 3, 0, 0]
    );
    assert_eq!(
        v.iter().map(|x| x.played).collect::<Vec<_>>(),
        vec![4, 3, 3, 3, 1]
    );
    // ARO / TPR on over-the-board games only:
    //  0: (1700+1400+1600+1500)/4 = 1550, 2/4 → 1550
    //  1: (1800+1500+1600)/3 = 1633.3 → 1633, 1/3 → −dp(.67) = −125 → 1508
    //  2: (1500+1800+1700)/3 = 1666.7 → 1667, 3/3 → +800 → 2467 (full score, 10.2)
    //  3: (1600+1700+1800)/3 = 1700, 1/3 → 1575
    //  4: 1800, 0/1 → −800 → 1000 (zero score)
    assert_eq!(
        v.iter().map(|x| x.aro).collect::<Vec<_>>(),
        vec![Some(1550), Some(1633), Some(1667), Some(1700), Some(1800)]
    );
    assert_eq!(
        v.iter().map(|x| x.tpr).collect::<Vec<_>>(),
        vec![Some(1550), Some(1508), Some(2467), Some(1575), Some(1000)]
    );
    // PTP: a full score needs PD = 1.00 against 1800 → 1800 + 736; zero: 800 below 1800
    assert_eq!((f(2).ptp, f(4).ptp), (Some(2536), Some(1000)));
    // 2026: player 2's forfeit-loss dummy is capped by player 1's adjusted 2.0 → BH 8.0,
    // BH-C1 6.0; SB-C1: the lowest opponent score (2.0) now includes the VUR with product 0 →
    // nothing is cut from 6.0. Player 4's dummies (1.0) are below every cap.
    let v26 = values_after(&t, 4, Edition::C07_2026);
    assert_eq!(
        (v26[2].bh_x2, v26[2].bh_c1_x2, v26[2].sb_x4, v26[2].sb_c1_x4),
        (16, 12, 24, 24)
    );
    for p in [0, 1, 3, 4] {
        assert_eq!(v26[p], v[p], "player {p}");
    }
    // The default order (points, then performance rating) reproduces Random Chess:
    // 2 (3.0); then 3 (1575), 0 (1550), 1 (1508) on 2.0; then 4.
    let order = parse_order(DEFAULT_ORDER).unwrap();
    assert_eq!(order, vec![TieBreak::Tpr]);
    let table = standings(&t, 4, &order, Edition::default());
    assert_eq!(
        table.iter().map(|s| s.player).collect::<Vec<_>>(),
        vec![2, 3, 0, 1, 4]
    );
    assert_eq!(
        table.iter().map(|s| s.place).collect::<Vec<_>>(),
        vec![1, 2, 3, 4, 5]
    );
}

#[test]
fn standings_after_each_round() {
    let t = random_chess_case();
    let order = parse_order(DEFAULT_ORDER).unwrap();
    // after round 1: 2 (beat 3) and 4 (bye) have 1; 4 has no game → no TPR → after 2
    let r1 = standings(&t, 1, &order, Edition::default());
    assert_eq!(
        r1.iter().map(|s| s.player).collect::<Vec<_>>(),
        vec![2, 4, 1, 0, 3]
    );
    assert_eq!(r1[1].values.tpr, None);
    assert_eq!(r1[0].values.tpr, Some(2300)); // 1500 + 800
                                              // 0 and 1 drew: TPR = the opponent's rating, 1700 for 0 and 1800 for 1 → 1 ahead of 0
    assert_eq!(
        (r1[2].values.tpr, r1[3].values.tpr),
        (Some(1800), Some(1700))
    );
    // after round 3 player 4 (withdrawn) is absent in the last round: category 16.2.5 counts as a
    // draw for player 0, who met him
    let v3 = values_after(&t, 3, Edition::C07_2024);
    assert_eq!(v3[4].adjusted_x2, 3); // bye 1 + loss 0 + absence counted as ½
                                      // points never decrease from round to round
    for p in 0..5 {
        let pts: Vec<i32> = (1..=4)
            .map(|s| values_after(&t, s, Edition::default())[p].points_x2)
            .collect();
        assert!(pts.windows(2).all(|w| w[0] <= w[1]), "player {p}: {pts:?}");
    }
}

#[test]
fn tpr_rounding_and_edges() {
    // p ≥ .5 rounds half up: 2/3 → .67 → 125
    assert_eq!(fide_tpr(&[1950, 1850, 1600], 4), Some(1925));
    // 1.5/4 = .375 → .38 → −87 (FIDE exercise 20, Maria: 1863 − 87 = 1776)
    assert_eq!(fide_tpr(&[2100, 1450, 2000, 1900], 3), Some(1776));
    // 1/3 → .33 → −125
    assert_eq!(fide_tpr(&[1800, 1500, 1600], 2), Some(1508));
    assert_eq!(fide_tpr(&[2000; 4], 8), Some(2800));
    assert_eq!(fide_tpr(&[2000; 4], 0), Some(1200));
    assert_eq!(fide_tpr(&[2000; 2], 2), Some(2000));
    assert_eq!(fide_tpr(&[], 0), None);
    assert_eq!(fide_tpr(&[2000], 3), None);
    // a player with only byes and forfeits has no rating-based values
    let mut t = Tournament::new(2, vec![Some(2000), Some(1800)]).unwrap();
    t.add_bye(1, 0, ByeKind::PairingAllocated).unwrap();
    t.add_game(2, 0, 1, Outcome::Win, GameKind::Forfeit)
        .unwrap();
    let v = values_after(&t, 2, Edition::default());
    assert_eq!(
        (
            v[0].aro,
            v[0].tpr,
            v[0].ptp,
            v[0].played,
            v[0].win,
            v[0].won
        ),
        (None, None, None, 0, 2, 0)
    );
    // an unrated opponent is left out of ARO/TPR (points and games alike)
    let mut t = Tournament::new(2, vec![Some(2000), None, Some(1800)]).unwrap();
    t.add_game(1, 0, 1, Outcome::Loss, GameKind::Played)
        .unwrap();
    t.add_game(2, 0, 2, Outcome::Win, GameKind::Played).unwrap();
    let v = values_after(&t, 2, Edition::default());
    assert_eq!(
        (v[0].aro, v[0].tpr, v[0].points_x2),
        (Some(1800), Some(2600), 2)
    );
}

#[test]
fn game_classification() {
    use GameEndReason::*;
    use GameEndType::*;
    assert_eq!(classify_game(WhiteWins, Abandonment, 0), GameKind::Forfeit);
    assert_eq!(classify_game(BlackWins, Abandonment, 0), GameKind::Forfeit);
    // abandonment after a move is a game lost over the board
    assert_eq!(classify_game(BlackWins, Abandonment, 1), GameKind::Played);
    // no move, another reason: played, not rated (TRF W/D/L)
    assert_eq!(classify_game(WhiteWins, Resignation, 0), GameKind::NoMove);
    assert_eq!(classify_game(Draw, Unknown, 0), GameKind::NoMove);
    assert_eq!(classify_game(Draw, Stalemate, 40), GameKind::Played);
}

#[test]
fn tournament_validation() {
    assert_eq!(
        Tournament::new(0, vec![]).unwrap_err().kind,
        TournamentErrorKind::InvalidParameter
    );
    // a round count that would make every card huge is refused before anything is allocated
    let e = Tournament::new(u32::MAX, vec![None; 3]).unwrap_err();
    assert_eq!(
        (e.kind, e.to_string().as_str()),
        (
            TournamentErrorKind::OutOfRange,
            "a tournament has at most 1000 rounds, not 4294967295"
        )
    );
    assert_eq!(
        Tournament::new(MAX_ROUNDS, vec![None; 2])
            .unwrap()
            .round_count(),
        1000
    );
    let mut t = Tournament::new(2, vec![None; 3]).unwrap();
    let e = t
        .add_game(3, 0, 1, Outcome::Win, GameKind::Played)
        .unwrap_err();
    assert_eq!(
        (e.kind, e.sqlstate()),
        (TournamentErrorKind::InvalidParameter, "22023")
    );
    assert_eq!(
        t.add_game(1, 0, 0, Outcome::Win, GameKind::Played)
            .unwrap_err()
            .kind,
        TournamentErrorKind::InvalidParameter
    );
    assert_eq!(
        t.add_game(1, 0, 7, Outcome::Win, GameKind::Played)
            .unwrap_err()
            .kind,
        TournamentErrorKind::InvalidParameter
    );
    assert_eq!(
        t.add_game(1, 0, 1, Outcome::Draw, GameKind::Forfeit)
            .unwrap_err()
            .kind,
        TournamentErrorKind::InvalidParameter
    );
    t.add_game(1, 0, 1, Outcome::Win, GameKind::Played).unwrap();
    let e = t.add_bye(1, 1, ByeKind::PairingAllocated).unwrap_err();
    assert_eq!(
        (e.kind, e.sqlstate()),
        (TournamentErrorKind::Conflict, "23514")
    );
    assert_eq!(
        e.to_string(),
        "player 1 already has a game or a bye in round 1"
    );
    assert_eq!(
        t.add_game(1, 2, 0, Outcome::Win, GameKind::Played)
            .unwrap_err()
            .kind,
        TournamentErrorKind::Conflict
    );
    assert_eq!(t.last_round(), 1);
    assert_eq!(t.remove(1, 1).unwrap(), vec![1, 0]);
    assert_eq!(
        (t.card(0)[0], t.card(1)[0], t.last_round()),
        (RoundEntry::Absent, RoundEntry::Absent, 0)
    );
}

#[test]
fn tie_break_codes() {
    assert_eq!(parse_order("").unwrap(), vec![]);
    assert_eq!(
        parse_order("de, bh/c1, BH, SB-C1,win,WON ,aro-c1,TPR,PTP,ARO,SB").unwrap(),
        vec![
            TieBreak::DirectEncounter,
            TieBreak::BuchholzCut1,
            TieBreak::Buchholz,
            TieBreak::SonnebornBergerCut1,
            TieBreak::Wins,
            TieBreak::GamesWon,
            TieBreak::AroCut1,
            TieBreak::Tpr,
            TieBreak::Ptp,
            TieBreak::Aro,
            TieBreak::SonnebornBerger,
        ]
    );
    assert_eq!(format_order(&parse_order("de,bh/c1").unwrap()), "DE, BH-C1");
    assert_eq!(canonical_order("de,bh/c1").unwrap(), "DE, BH-C1");
    assert!(canonical_order("BH, BH").is_err());
    assert_eq!(parse_order("DE, BH, DE").unwrap().len(), 3); // type A may repeat
    let e = parse_order("BH, BH").unwrap_err();
    assert_eq!(
        (e.kind, e.message.as_str()),
        (
            TournamentErrorKind::InvalidParameter,
            "tie-break BH is listed twice"
        )
    );
    assert!(parse_order("BH,,SB").is_err());
    assert!(parse_order("KS")
        .unwrap_err()
        .message
        .starts_with("unknown tie-break \"KS\""));
    for t in TieBreak::ALL {
        assert_eq!(t.code().parse::<TieBreak>().unwrap(), t);
    }
}

#[test]
fn display_values() {
    let v = values_after(&fide_swiss(), 5, Edition::C07_2024);
    let david = &v[pn(4) as usize];
    assert_eq!(TieBreak::Buchholz.display_value(david), Some(15.0));
    assert_eq!(TieBreak::SonnebornBerger.display_value(david), Some(9.75));
    assert_eq!(TieBreak::Tpr.display_value(david), Some(2081.0));
    assert_eq!(TieBreak::DirectEncounter.display_value(david), None);
}

#[test]
fn sort_key_orders_like_the_ranking() {
    let t = fide_swiss();
    for order in ["TPR", "BH-C1, BH, SB", "WIN, ARO-C1", "PTP, SB-C1"] {
        let order = parse_order(order).unwrap();
        let table = standings(&t, 5, &order, Edition::default());
        let mut keyed: Vec<(Vec<u8>, PlayerNo)> = table
            .iter()
            .map(|s| (sort_key(&s.values, &order), s.player))
            .collect();
        keyed.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        assert_eq!(
            keyed.iter().map(|k| k.1).collect::<Vec<_>>(),
            table.iter().map(|s| s.player).collect::<Vec<_>>()
        );
    }
    // a missing value sorts below any value, negative ones included
    let none = PlayerValues::default();
    let low = PlayerValues {
        tpr: Some(-50),
        ..Default::default()
    };
    assert!(sort_key(&low, &[TieBreak::Tpr]) > sort_key(&none, &[TieBreak::Tpr]));
}

#[test]
fn trf16_leaves_players_still_to_pair_without_a_block() {
    // round 1 played; round 2 has only player 4's requested half-point bye so far
    let mut t = Tournament::new(3, vec![Some(1500), Some(1400), Some(1300), Some(1200)]).unwrap();
    t.add_game(1, 0, 2, Outcome::Win, GameKind::Played).unwrap();
    t.add_game(1, 3, 1, Outcome::Loss, GameKind::Played)
        .unwrap();
    t.add_bye(2, 3, ByeKind::Half).unwrap();
    let info = TrfInfo {
        player_names: vec!["a".into(), "b".into(), "c".into(), "d".into()],
        ..Default::default()
    };
    let out = trf16(&t, &info, &[], Edition::default()).unwrap();
    let players: Vec<&str> = out.lines().filter(|l| l.starts_with("001")).collect();
    // players 1 to 3 end after round 1 (no "0000 - Z": they are not absent), player 4 has H
    assert!(players[0].ends_with("   3 w 1"), "{}", players[0]);
    assert!(players[1].ends_with("   4 b 1"), "{}", players[1]);
    assert!(players[2].ends_with("   1 b 0"), "{}", players[2]);
    assert!(players[3].ends_with("   2 w 0  0000 - H"), "{}", players[3]);
    // read back, round 2 pairs players 1 to 3: one board and the bye
    let read = crate::tournament::trf_read::read_trf16(&out).unwrap();
    let pairing = crate::tournament::pairing::pair_trf(&read).unwrap();
    assert_eq!(pairing.round, 2);
    assert_eq!(pairing.boards.len(), 1);
    let mut paired = vec![
        pairing.boards[0].0,
        pairing.boards[0].1,
        pairing.bye.unwrap(),
    ];
    paired.sort_unstable();
    assert_eq!(paired, vec![0, 1, 2]);
}

#[test]
fn trf16_export() {
    let t = random_chess_case();
    let info = TrfInfo {
        name: "Hand case".into(),
        start_date: Some("2026/11/25".into()),
        end_date: None,
        player_names: (0..5).map(|i| format!("p{i}")).collect(),
    };
    let out = trf16(&t, &info, &[TieBreak::Tpr], Edition::default()).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        &lines[..6],
        &[
            "012 Hand case",
            "042 2026/11/25",
            "062 5",
            "072 5",
            "092 Individual: Swiss-System",
            "XXR 4"
        ]
    );
    let players = &lines[6..];
    assert_eq!(players.len(), 5);
    // the withdrawn player 4 (starting rank 5): bye, loss against 1 with White, two absences
    let expected = format!(
        "001    5      p4{}1400{} 1.0    5  0000 - U     1 w 0  0000 - Z  0000 - Z",
        " ".repeat(32),
        " ".repeat(28)
    );
    assert_eq!(players[4], expected);
    // columns of TRF-16 (1-based in the spec): player 1 (p0): 2.0 points, 3rd place
    let l = players[0];
    assert_eq!(&l[0..3], "001");
    assert_eq!(&l[4..8], "   1");
    assert_eq!(&l[14..16], "p0");
    assert_eq!(&l[48..52], "1800");
    assert_eq!(&l[80..84], " 2.0");
    assert_eq!(&l[85..89], "   3");
    // rounds at 92-95 / 97 / 99, +10 each: =w vs 2, 1b vs 5, 0w vs 3, =b vs 4
    let block = |line: &str, r: usize| line[91 + 10 * (r - 1)..99 + 10 * (r - 1)].to_string();
    assert_eq!(
        [block(l, 1), block(l, 2), block(l, 3), block(l, 4)],
        ["   2 w =", "   5 b 1", "   3 w 0", "   4 b ="]
    );
    // the forfeit: player 2 (p1) won it with White, player 3 (p2) lost it with Black
    assert_eq!(block(players[1], 2), "   3 w +");
    assert_eq!(block(players[2], 2), "   2 b -");
    assert_eq!(block(players[3], 2), "0000 - U");
    assert_eq!(&players[2][80..89], " 3.0    1");
    assert!(out.ends_with('\n') && !out.contains(" \n"));
    // a game without a move is W/D/L; other byes H, F, Z
    let mut t = Tournament::new(
        2,
        vec![Some(1500), None, Some(1400), Some(1300), Some(1200)],
    )
    .unwrap();
    t.add_game(1, 0, 1, Outcome::Draw, GameKind::NoMove)
        .unwrap();
    t.add_bye(1, 2, ByeKind::Half).unwrap();
    t.add_bye(1, 3, ByeKind::Full).unwrap();
    t.add_bye(1, 4, ByeKind::Zero).unwrap();
    let info = TrfInfo {
        name: "Zażółć".into(),
        player_names: vec![
            "Łukasz".into(),
            "b".repeat(40),
            "c".into(),
            "d".into(),
            "e".into(),
        ],
        ..Default::default()
    };
    let out = trf16(&t, &info, &[], Edition::default()).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "012 Za????");
    assert_eq!(lines[1], "062 5");
    assert_eq!(lines[2], "072 4");
    let p = &lines[5..];
    assert_eq!(&p[0][14..20], "?ukasz");
    assert_eq!(&p[1][14..48], &format!("{} ", "b".repeat(33)));
    assert_eq!(&p[1][48..52], "    ");
    assert_eq!(
        (block(p[0], 1), block(p[1], 1)),
        ("   2 w D".to_string(), "   1 b D".to_string())
    );
    assert_eq!(
        (block(p[2], 1), block(p[3], 1), block(p[4], 1)),
        (
            "0000 - H".to_string(),
            "0000 - F".to_string(),
            "0000 - Z".to_string()
        )
    );
    // errors: names must match, ratings must fit four columns
    assert_eq!(
        trf16(&t, &TrfInfo::default(), &[], Edition::default())
            .unwrap_err()
            .kind,
        TournamentErrorKind::InvalidParameter
    );
    let t = Tournament::new(1, vec![Some(12000)]).unwrap();
    let info = TrfInfo {
        player_names: vec!["x".into()],
        ..Default::default()
    };
    let e = trf16(&t, &info, &[], Edition::default()).unwrap_err();
    assert_eq!(
        (e.kind, e.sqlstate()),
        (TournamentErrorKind::OutOfRange, "22003")
    );
}

/// One random change: returns the changed players with the round, or None if nothing applied.
fn random_change(t: &mut Tournament, rng: &mut Rng) -> Option<Vec<(PlayerNo, u32)>> {
    let n = t.player_count();
    let round = rng.below(t.round_count() as usize) as u32 + 1;
    let r = round as usize - 1;
    let a = rng.below(n) as PlayerNo;
    let b = rng.below(n) as PlayerNo;
    match rng.below(10) {
        0..=3 => {
            let outcome = [Outcome::Win, Outcome::Draw, Outcome::Loss][rng.below(3)];
            let kind = match rng.below(10) {
                0..=1 if outcome != Outcome::Draw => GameKind::Forfeit,
                2 => GameKind::NoMove,
                _ => GameKind::Played,
            };
            t.add_game(round, a, b, outcome, kind).ok()?;
            Some(vec![(a, round), (b, round)])
        }
        4..=5 => {
            let kind = [
                ByeKind::PairingAllocated,
                ByeKind::Full,
                ByeKind::Half,
                ByeKind::Zero,
            ][rng.below(4)];
            t.add_bye(round, a, kind).ok()?;
            Some(vec![(a, round)])
        }
        6..=7 => {
            if t.card(a)[r] == RoundEntry::Absent {
                return None;
            }
            Some(
                t.remove(round, a)
                    .ok()?
                    .into_iter()
                    .map(|p| (p, round))
                    .collect(),
            )
        }
        _ => {
            // correct a result: same pairing, another outcome
            let RoundEntry::Game {
                opponent,
                colour,
                outcome,
                moved,
            } = t.card(a)[r]
            else {
                return None;
            };
            let (w, bl, w_out) = if colour == Colour::White {
                (a, opponent, outcome)
            } else {
                (opponent, a, outcome.reversed())
            };
            t.remove(round, a).ok()?;
            let new = match w_out {
                Outcome::Win => Outcome::Draw,
                Outcome::Draw => Outcome::Loss,
                Outcome::Loss => Outcome::Win,
            };
            let kind = if moved {
                GameKind::Played
            } else {
                GameKind::NoMove
            };
            t.add_game(round, w, bl, new, kind).ok()?;
            Some(vec![(w, round), (bl, round)])
        }
    }
}

#[test]
fn incremental_rows_equal_a_from_scratch_recomputation() {
    for (seed, edition) in [
        (0x9E37_79B9_7F4A_7C15u64, Edition::C07_2026),
        (42, Edition::C07_2024),
        (7, Edition::C07_2026),
    ] {
        let mut rng = Rng::new(seed);
        let ratings: Vec<Option<i32>> = (0..9)
            .map(|i| if i == 8 { None } else { Some(1400 + 97 * i) })
            .collect();
        let mut t = Tournament::new(6, ratings).unwrap();
        let n = t.player_count() as PlayerNo;
        let mut rows: std::collections::HashMap<(PlayerNo, u32), PlayerValues> = Default::default();
        let mut last = 0u32;
        let mut applied = 0;
        for _ in 0..1500 {
            let Some(mut changed) = random_change(&mut t, &mut rng) else {
                continue;
            };
            applied += 1;
            let new_last = t.last_round();
            if new_last > last {
                changed.extend((0..n).map(|p| (p, last + 1)));
            }
            rows.retain(|&(_, s), _| s <= new_last);
            last = new_last;
            for (p, s, v) in refresh(&t, &changed, last, edition).unwrap() {
                rows.insert((p, s), v);
            }
            assert_eq!(rows.len(), n as usize * last as usize);
            for s in 1..=last {
                let scratch = values_after(&t, s, edition);
                for p in 0..n {
                    assert_eq!(
                        rows[&(p, s)],
                        scratch[p as usize],
                        "player {p} after round {s}, change {applied}"
                    );
                }
            }
        }
        assert!(applied > 400, "only {applied} changes applied");
    }
}

#[test]
fn refresh_touches_rounds_squared_rows_not_players() {
    // 300 players, 11 rounds, a full tournament with byes and forfeits
    let n = 300u32;
    let mut t = Tournament::new(11, (0..n).map(|i| Some(2400 - i as i32)).collect()).unwrap();
    let mut rng = Rng::new(2026);
    for round in 1..=11 {
        let shift = rng.below(n as usize) as u32;
        for k in (0..n).step_by(2) {
            let (a, b) = ((k + shift) % n, (k + 1 + shift) % n);
            let outcome = [Outcome::Win, Outcome::Draw, Outcome::Loss][rng.below(3)];
            let kind = if rng.below(40) == 0 && outcome != Outcome::Draw {
                GameKind::Forfeit
            } else {
                GameKind::Played
            };
            t.add_game(round, a, b, outcome, kind).unwrap();
        }
    }
    // correct one result of round 3
    let RoundEntry::Game {
        opponent,
        colour,
        outcome,
        ..
    } = t.card(17)[2]
    else {
        panic!("player 17 played round 3")
    };
    let (w, b) = if colour == Colour::White {
        (17, opponent)
    } else {
        (opponent, 17)
    };
    t.remove(3, 17).unwrap();
    let w_out = if colour == Colour::White {
        outcome
    } else {
        outcome.reversed()
    };
    let new = if w_out == Outcome::Win {
        Outcome::Loss
    } else {
        Outcome::Win
    };
    t.add_game(3, w, b, new, GameKind::Played).unwrap();
    let rows = refresh(&t, &[(w, 3), (b, 3)], 11, Edition::default()).unwrap();
    // the two players' rows of rounds 3..11 and their opponents' rows: ≤ (2 + 2·11)·9
    assert!(rows.len() <= (2 + 2 * 11) * 9, "{} rows", rows.len());
    assert!(rows.len() >= 2 * 9);
    let scratch: Vec<Vec<PlayerValues>> = (0..=11)
        .map(|s| values_after(&t, s, Edition::default()))
        .collect();
    for (p, s, v) in rows {
        assert_eq!(v, scratch[s as usize][p as usize]);
    }
    // a source that loses cards is reported, not trusted
    struct Lossy;
    impl CardSource for Lossy {
        fn cards(&self, _: &[PlayerNo]) -> Vec<(Vec<RoundEntry>, Option<i32>)> {
            vec![]
        }
    }
    assert_eq!(
        refresh(&Lossy, &[(0, 1)], 1, Edition::default())
            .unwrap_err()
            .kind,
        TournamentErrorKind::InvalidParameter
    );
    // and the final standings of 300 players rank every player once
    let table = standings(
        &t,
        11,
        &parse_order("BH-C1, BH, SB, DE").unwrap(),
        Edition::default(),
    );
    let mut seen: Vec<u32> = table.iter().map(|s| s.player).collect();
    seen.sort_unstable();
    assert_eq!(seen, (0..n).collect::<Vec<_>>());
    assert!(table
        .windows(2)
        .all(|w| w[0].values.points_x2 >= w[1].values.points_x2 && w[0].rank <= w[1].rank));
    // this pairing scheme repeats pairings: the corrected game is one of their encounters
    assert!(encounters_in(t.card(w), b).0 >= 1);
}

#[test]
fn a_bye_of_points_and_a_game_of_a_result() {
    assert_eq!(ByeKind::of_points(1.0).unwrap(), ByeKind::PairingAllocated);
    assert_eq!(ByeKind::of_points(0.5).unwrap(), ByeKind::Half);
    assert_eq!(ByeKind::of_points(0.0).unwrap(), ByeKind::Zero);
    let e = ByeKind::of_points(2.0).unwrap_err();
    assert_eq!(e.message, "a bye is worth 1, 0.5 or 0 points, not 2");
    use GameEndReason::*;
    use GameEndType::*;
    assert_eq!(
        game_of(BlackWins, Abandonment, 0),
        (Outcome::Loss, GameKind::Forfeit)
    );
    assert_eq!(
        game_of(Draw, Abandonment, 0),
        (Outcome::Draw, GameKind::NoMove)
    );
    assert_eq!(
        game_of(WhiteWins, Abandonment, 12),
        (Outcome::Win, GameKind::Played)
    );
}
