//! Per-player values of FIDE C.07 (Play-off and Tie-break Regulations): points, the scores of
//! article 16 (unplayed rounds), Buchholz, Sonneborn-Berger, their Cut-1, number of wins, ARO,
//! TPR and PTP; the tie-break codes a tournament lists; and the TPR the standings show.
//!
//! All sums are exact: points are kept in half points (`_x2`), Sonneborn-Berger in quarter
//! points (`_x4`).
//!
//! Values "after round s" are computed on the cards cut at round s, as if the tournament had
//! ended there; final standings are the case s = last round. In particular "the last round of a
//! tournament" (16.2.5) and "the number of rounds in the tournament" (16.4.2) mean round s.
//!
//! Articles (C.07 edition of 1 March 2026 unless noted):
//! * 7.1 WIN: rounds in which the participant obtained, with or without playing, the points of a
//!   win — over-the-board wins, forfeit wins, pairing-allocated and full-point byes.
//! * 7.2 WON: games won over the board only.
//! * 8.1 BH: the sum of the opponents' scores; 9.1 SB: the sum, per round, of the opponent's
//!   final score times the points scored against them.
//! * 10.1 ARO: average rating of the opponents played over the board, rounded half up.
//! * 10.2 TPR: ARO + dp(p), p = over-the-board points / over-the-board games, dp from the FIDE
//!   Rating Regulations table 8.1.1 (±800 for a full or zero score).
//! * 10.3 PTP: the lowest rating whose expected score (table 8.1.2, full scale) reaches the
//!   over-the-board score; 800 below the lowest opponent for a zero score.
//! * 14.1 Cut-1: BH-C1 drops the lowest opponent score; SB-C1 drops the product of the opponent
//!   with the lowest score (the lowest product among several such); ARO-C1 drops the lowest rating.
//! * 16.1 requested byes (half- and zero-point byes, every absence) and forfeit losses are
//!   voluntary unplayed rounds (VUR); 16.2 puts every unplayed round in a [`Category`].
//! * 16.3 for the opponents' tie-breaks a participant's score counts category-5 rounds as draws
//!   ([`adjusted_points_x2`]).
//! * 16.4 the participant's own unplayed rounds are games against a dummy whose score is the
//!   participant's own score; from 2026 capped by the scheduled opponent's adjusted score for
//!   forfeits (16.4.1) and by a draw per round for the other unplayed rounds (16.4.2).
//! * 16.5 Cut-1 with VURs: BH-C1 cuts the lowest VUR contribution; SB-C1 cuts the higher of the
//!   lowest VUR contribution and the least significant value.
//! * 6 DE: see [`super::standings`].
//!
//! Ratings are the opponents' ratings as of the tournament's start. A game against an unrated
//! opponent is left out of ARO, TPR and PTP (points and games alike); a player with no rated
//! over-the-board game has none of them (`None`, sorted last), as FIDE lists "no value".

use std::fmt;
use std::str::FromStr;

use super::{ByeKind, PlayerNo, Result, RoundEntry, TournamentError};
use crate::rating::fide;

/// Which edition of C.07 article 16.4 applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[allow(non_camel_case_types)]
pub enum Edition {
    /// In force 1 April 2024 – 28 February 2026: the dummy always has the participant's score.
    C07_2024,
    /// In force from 1 March 2026: the dummy's score is capped (16.4.1, 16.4.2).
    #[default]
    C07_2026,
}

/// The categories of unplayed rounds of C.07 16.2.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Category {
    /// 16.2.1 pairing-allocated byes and full-point byes.
    FullPointBye,
    /// 16.2.2 forfeit wins.
    ForfeitWin,
    /// 16.2.3 requested byes followed by at least one round that is not a VUR.
    RequestedByeFollowed,
    /// 16.2.4 forfeit losses.
    ForfeitLoss,
    /// 16.2.5 requested byes followed only by VURs, or in the last round (withdrawals).
    RequestedByeTrailing,
}

fn is_requested_bye(e: RoundEntry) -> bool {
    matches!(
        e,
        RoundEntry::Bye(ByeKind::Half | ByeKind::Zero) | RoundEntry::Absent
    )
}

/// A voluntary unplayed round (16.1.2): a requested bye or a forfeit loss.
pub fn is_vur(e: RoundEntry) -> bool {
    is_requested_bye(e) || matches!(e, RoundEntry::Forfeit { won: false, .. })
}

/// The 16.2 category of each round of `card` (`None` for games played over the board).
pub fn categories(card: &[RoundEntry]) -> Vec<Option<Category>> {
    let mut out = vec![None; card.len()];
    let mut later_non_vur = false;
    for (i, &e) in card.iter().enumerate().rev() {
        out[i] = match e {
            RoundEntry::Game { .. } => None,
            RoundEntry::Forfeit { won: true, .. } => Some(Category::ForfeitWin),
            RoundEntry::Forfeit { won: false, .. } => Some(Category::ForfeitLoss),
            RoundEntry::Bye(ByeKind::PairingAllocated | ByeKind::Full) => {
                Some(Category::FullPointBye)
            }
            _ if later_non_vur => Some(Category::RequestedByeFollowed),
            _ => Some(Category::RequestedByeTrailing),
        };
        if !is_vur(e) {
            later_non_vur = true;
        }
    }
    out
}

/// The score of `card` in half points.
pub fn points_x2(card: &[RoundEntry]) -> i32 {
    card.iter().map(|e| e.half_points()).sum()
}

/// The score the opponents' tie-breaks use (16.3): category-5 rounds count as draws.
pub fn adjusted_points_x2(card: &[RoundEntry]) -> i32 {
    card.iter()
        .zip(categories(card))
        .map(|(e, c)| {
            if c == Some(Category::RequestedByeTrailing) {
                1
            } else {
                e.half_points()
            }
        })
        .sum()
}

/// What a player's values need to know about one opponent, as of the same round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpponentView {
    /// The opponent's adjusted score (16.3) in half points.
    pub adjusted_x2: i32,
    /// The opponent's rating as of the tournament's start.
    pub rating: Option<i32>,
}

/// Every per-player value of the standings after one round (all but DE, which depends on the
/// group of tied players).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct PlayerValues {
    /// Points (wins + draws / 2 + byes) in half points.
    pub points_x2: i32,
    /// Points as the opponents' tie-breaks see them (16.3), in half points.
    pub adjusted_x2: i32,
    /// Games played over the board.
    pub played: u32,
    /// 7.1 WIN.
    pub win: u32,
    /// 7.2 WON.
    pub won: u32,
    /// 8.1 Buchholz, half points.
    pub bh_x2: i32,
    /// Buchholz Cut-1 (14.1, 16.5), half points.
    pub bh_c1_x2: i32,
    /// 9.1 Sonneborn-Berger, quarter points.
    pub sb_x4: i32,
    /// Sonneborn-Berger Cut-1 (14.1, 16.5), quarter points.
    pub sb_c1_x4: i32,
    /// 10.1 ARO.
    pub aro: Option<i32>,
    /// ARO Cut-1.
    pub aro_c1: Option<i32>,
    /// 10.2 TPR: the standings' performance rating.
    pub tpr: Option<i32>,
    /// 10.3 PTP.
    pub ptp: Option<i32>,
}

impl PlayerValues {
    pub fn points(&self) -> f64 {
        f64::from(self.points_x2) / 2.0
    }
}

/// One element of a Buchholz / Sonneborn-Berger sum.
#[derive(Clone, Copy, Debug)]
struct Contribution {
    /// The opponent's (or dummy's) score, half points.
    opp_x2: i32,
    /// Points scored that round, half points.
    pts_x2: i32,
    /// The round is a VUR of this player.
    vur: bool,
}

impl Contribution {
    fn product(&self) -> i32 {
        self.opp_x2 * self.pts_x2
    }
}

fn bh_cut1(cs: &[Contribution]) -> i32 {
    let total: i32 = cs.iter().map(|c| c.opp_x2).sum();
    // 16.5.1: cut the lowest VUR contribution when there is one; else 14.1 the lowest score.
    let cut = cs
        .iter()
        .filter(|c| c.vur)
        .map(|c| c.opp_x2)
        .min()
        .or_else(|| cs.iter().map(|c| c.opp_x2).min());
    total - cut.unwrap_or(0)
}

fn sb_cut1(cs: &[Contribution]) -> i32 {
    let total: i32 = cs.iter().map(Contribution::product).sum();
    // 14.1.1: the product of the opponent with the lowest score, the lowest such product if
    // several opponents share that score.
    let lsv = cs.iter().map(|c| c.opp_x2).min().and_then(|low| {
        cs.iter()
            .filter(|c| c.opp_x2 == low)
            .map(Contribution::product)
            .min()
    });
    // 16.5.1: with VURs, cut the higher of the lowest VUR contribution and the LSV.
    let vur = cs.iter().filter(|c| c.vur).map(Contribution::product).min();
    let cut = match (lsv, vur) {
        (Some(l), Some(v)) => l.max(v),
        (l, v) => l.or(v).unwrap_or(0),
    };
    total - cut
}

/// 10.2 TPR = ARO + dp(p) for `score_x2` half points against `ratings`, or `None` without games:
/// the rating engine's [`fide::tpr`] (ARO rounded half up, p rounded half up to hundredths, dp
/// from table 8.1.1 with ±800 for a full or zero score). It reproduces all sixteen TPRs of the
/// FIDE TEC exercises 19–20, e.g. Maria 1.5 / 4 → p = .38 → −87 → 1863 − 87 = 1776 and David
/// (ARO 1887.5 → 1888) 3 / 4 → 2081.
pub fn fide_tpr(ratings: &[i32], score_x2: i32) -> Option<i32> {
    fide::tpr(ratings, f64::from(score_x2) / 2.0).ok()
}

/// The values of a player whose rounds 1..=s are `card` (so `card.len()` = s), given each
/// opponent's adjusted score and rating as of the same round s.
pub fn player_values(
    card: &[RoundEntry],
    edition: Edition,
    opponent: impl Fn(PlayerNo) -> OpponentView,
) -> PlayerValues {
    let s = card.len() as i32;
    let own = points_x2(card);
    let cats = categories(card);
    let mut v = PlayerValues {
        points_x2: own,
        adjusted_x2: adjusted_points_x2(card),
        ..Default::default()
    };
    let mut contributions = Vec::with_capacity(card.len());
    let mut ratings = Vec::with_capacity(card.len());
    let mut rated_score_x2 = 0;
    for (&e, cat) in card.iter().zip(cats) {
        let pts_x2 = e.half_points();
        if pts_x2 == 2 {
            v.win += 1; // 7.1: with or without playing
        }
        match e {
            RoundEntry::Game { opponent: o, .. } => {
                let view = opponent(o);
                v.played += 1;
                if pts_x2 == 2 {
                    v.won += 1;
                }
                if let Some(r) = view.rating {
                    ratings.push(r);
                    rated_score_x2 += pts_x2;
                }
                contributions.push(Contribution {
                    opp_x2: view.adjusted_x2,
                    pts_x2,
                    vur: false,
                });
            }
            _ => {
                // 16.4: a game against a dummy with the participant's own score ...
                let mut dummy = own;
                if edition == Edition::C07_2026 {
                    let cap = match (e, cat) {
                        // 16.4.1 forfeits: the scheduled opponent's adjusted score
                        (RoundEntry::Forfeit { opponent: o, .. }, _) => opponent(o).adjusted_x2,
                        // 16.4.2 other unplayed rounds: a draw per round
                        _ => s,
                    };
                    dummy = dummy.min(cap);
                }
                contributions.push(Contribution {
                    opp_x2: dummy,
                    pts_x2,
                    vur: is_vur(e),
                });
            }
        }
    }
    v.bh_x2 = contributions.iter().map(|c| c.opp_x2).sum();
    v.bh_c1_x2 = bh_cut1(&contributions);
    v.sb_x4 = contributions.iter().map(Contribution::product).sum();
    v.sb_c1_x4 = sb_cut1(&contributions);
    v.aro = fide::aro(&ratings).ok();
    if ratings.len() >= 2 {
        let mut rest = ratings.clone();
        let low = rest
            .iter()
            .enumerate()
            .min_by_key(|(_, &r)| r)
            .map(|(i, _)| i)
            .unwrap_or(0);
        rest.swap_remove(low);
        v.aro_c1 = fide::aro(&rest).ok();
    }
    v.tpr = fide_tpr(&ratings, rated_score_x2);
    v.ptp = fide::ptp(&ratings, f64::from(rated_score_x2) / 2.0).ok();
    v
}

/// A tie-break a tournament can list, with the FIDE acronyms of C.07 article 5 (and 14 for
/// Cut-1). The order always starts with points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TieBreak {
    /// 6 Direct encounter (type A: decided within each group of tied players).
    DirectEncounter,
    /// 8.1 Buchholz.
    Buchholz,
    /// 8.1 + 14.1 Buchholz Cut-1.
    BuchholzCut1,
    /// 9.1 Sonneborn-Berger.
    SonnebornBerger,
    /// 9.1 + 14.1 Sonneborn-Berger Cut-1.
    SonnebornBergerCut1,
    /// 7.1 number of wins (with or without playing).
    Wins,
    /// 7.2 number of games won over the board.
    GamesWon,
    /// 10.1 average rating of opponents.
    Aro,
    /// 10.1 + 14.1 ARO Cut-1.
    AroCut1,
    /// 10.2 tournament performance rating.
    Tpr,
    /// 10.3 perfect tournament performance.
    Ptp,
}

/// The order reproducing Random Chess: points, then performance rating.
pub const DEFAULT_ORDER: &str = "TPR";

impl TieBreak {
    pub const ALL: [TieBreak; 11] = [
        TieBreak::DirectEncounter,
        TieBreak::Buchholz,
        TieBreak::BuchholzCut1,
        TieBreak::SonnebornBerger,
        TieBreak::SonnebornBergerCut1,
        TieBreak::Wins,
        TieBreak::GamesWon,
        TieBreak::Aro,
        TieBreak::AroCut1,
        TieBreak::Tpr,
        TieBreak::Ptp,
    ];

    /// The FIDE acronym (C.07 article 5; Cut-1 written `-C1` as in article 14.1).
    pub fn code(self) -> &'static str {
        match self {
            TieBreak::DirectEncounter => "DE",
            TieBreak::Buchholz => "BH",
            TieBreak::BuchholzCut1 => "BH-C1",
            TieBreak::SonnebornBerger => "SB",
            TieBreak::SonnebornBergerCut1 => "SB-C1",
            TieBreak::Wins => "WIN",
            TieBreak::GamesWon => "WON",
            TieBreak::Aro => "ARO",
            TieBreak::AroCut1 => "ARO-C1",
            TieBreak::Tpr => "TPR",
            TieBreak::Ptp => "PTP",
        }
    }

    /// The comparable value of a per-player tie-break (higher is better, `None` last);
    /// `None` for DE, which is decided per group.
    pub fn key(self, v: &PlayerValues) -> Option<i64> {
        match self {
            TieBreak::DirectEncounter => None,
            TieBreak::Buchholz => Some(v.bh_x2.into()),
            TieBreak::BuchholzCut1 => Some(v.bh_c1_x2.into()),
            TieBreak::SonnebornBerger => Some(v.sb_x4.into()),
            TieBreak::SonnebornBergerCut1 => Some(v.sb_c1_x4.into()),
            TieBreak::Wins => Some(v.win.into()),
            TieBreak::GamesWon => Some(v.won.into()),
            TieBreak::Aro => v.aro.map(i64::from),
            TieBreak::AroCut1 => v.aro_c1.map(i64::from),
            TieBreak::Tpr => v.tpr.map(i64::from),
            TieBreak::Ptp => v.ptp.map(i64::from),
        }
    }

    /// The value as shown in a standings table (points for BH and SB, ratings as integers).
    pub fn display_value(self, v: &PlayerValues) -> Option<f64> {
        match self {
            TieBreak::Buchholz | TieBreak::BuchholzCut1 => self.key(v).map(|k| k as f64 / 2.0),
            TieBreak::SonnebornBerger | TieBreak::SonnebornBergerCut1 => {
                self.key(v).map(|k| k as f64 / 4.0)
            }
            _ => self.key(v).map(|k| k as f64),
        }
    }
}

impl fmt::Display for TieBreak {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl FromStr for TieBreak {
    type Err = TournamentError;
    /// Accepts the acronyms case-insensitively, Cut-1 as `-C1` (Handbook) or `/C1` (TRF-2026).
    fn from_str(s: &str) -> Result<Self> {
        let norm = s.trim().to_ascii_uppercase().replace('/', "-");
        TieBreak::ALL
            .into_iter()
            .find(|t| t.code() == norm)
            .ok_or_else(|| {
                TournamentError::invalid(format!(
                    "unknown tie-break \"{}\" (known: {})",
                    s.trim(),
                    TieBreak::ALL.map(TieBreak::code).join(", ")
                ))
            })
    }
}

/// Parses a comma-separated tie-break order such as `"DE, BH-C1, BH, SB"`; an empty string is
/// points only. A tie-break may appear once, except DE (type A tie-breaks may repeat, 4.3).
pub fn parse_order(s: &str) -> Result<Vec<TieBreak>> {
    let mut out = Vec::new();
    for part in s.split(',') {
        if part.trim().is_empty() {
            if s.trim().is_empty() {
                continue;
            }
            return Err(TournamentError::invalid(format!(
                "empty tie-break in \"{s}\""
            )));
        }
        let t: TieBreak = part.parse()?;
        if t != TieBreak::DirectEncounter && out.contains(&t) {
            return Err(TournamentError::invalid(format!(
                "tie-break {t} is listed twice"
            )));
        }
        out.push(t);
    }
    Ok(out)
}

/// The canonical spelling of an order given as text (`"de,bh-c1"` is `"DE, BH-C1"`); an unknown
/// or repeated code is an error.
pub fn canonical_order(s: &str) -> Result<String> {
    parse_order(s).map(|order| format_order(&order))
}

/// The canonical spelling of an order (`"DE, BH-C1"`).
pub fn format_order(order: &[TieBreak]) -> String {
    order
        .iter()
        .map(|t| t.code())
        .collect::<Vec<_>>()
        .join(", ")
}
