//! The FIDE Tournament Report File, version 2016 (TRF-16, FIDE Handbook C.04 Annex 2,
//! <https://www.fide.com/FIDE/handbook/C04Annex2_TRF16.pdf>), so a tournament can be checked or
//! paired by FIDE-endorsed programs.
//!
//! Written: the tournament section (`012` name, `042`/`052` dates when known, `062` players,
//! `072` rated players, `092` type) and `XXR` (the number of rounds, which the pairing engines
//! JaVaFo and bbpPairings read), then one `001` line per player in starting-rank order:
//!
//! | columns | field |
//! |---|---|
//! | 1–3 | `001` |
//! | 5–8 | starting rank (player number + 1) |
//! | 15–47 | name (non-ASCII characters written as `?`, cut to 33 characters) |
//! | 49–52 | rating as of the tournament's start (blank when unrated) |
//! | 81–84 | points after the last round, `%4.1f` |
//! | 86–89 | rank (the place in the standings) |
//! | 92–95, 97, 99 (+10 per round) | opponent's starting rank, colour, result |
//!
//! Round results: `1 = 0` over the board, `W D L` over the board without a move, `+ -` forfeits
//! (with the scheduled opponent and colour), `U` pairing-allocated bye, `F` full-point bye, `H`
//! half-point bye, `Z` zero-point bye and absence; byes and absences have opponent `0000` and
//! colour `-`. In a round after the last paired round (one with only requested byes so far) a
//! player without a bye gets no block: not absent, still to be paired. Sex, title, federation,
//! FIDE number and birth date are left blank. Lines end with a line feed.

use super::pairing::round_to_pair;
use super::standings::standings;
use super::tiebreak::{Edition, TieBreak};
use super::{PlayerNo, Result, RoundEntry, Tournament, TournamentError};

/// What TRF needs beyond the results.
#[derive(Clone, Debug, Default)]
pub struct TrfInfo {
    /// Tournament name (`012`).
    pub name: String,
    /// Start and end dates as the tournament writes them (`042`, `052`), if known.
    pub start_date: Option<String>,
    pub end_date: Option<String>,
    /// One name per player, by player number.
    pub player_names: Vec<String>,
}

fn clean(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii() && !c.is_ascii_control() {
                c
            } else {
                '?'
            }
        })
        .collect()
}

fn round_block(e: RoundEntry) -> String {
    let (opp, col, res) = (
        e.opponent().map_or(0, |o| o + 1),
        e.colour_code(),
        e.result_code(),
    );
    let opp = if opp == 0 {
        "0000".to_string()
    } else {
        format!("{opp:>4}")
    };
    format!("  {opp} {col} {res}")
}

/// The TRF-16 report of `t` after its last recorded round, ranked by points and `order`.
pub fn trf16(
    t: &Tournament,
    info: &TrfInfo,
    order: &[TieBreak],
    edition: Edition,
) -> Result<String> {
    let n = t.player_count();
    if n > 9999 {
        return Err(TournamentError::out_of_range(format!(
            "TRF-16 holds at most 9999 players, got {n}"
        )));
    }
    if info.player_names.len() != n {
        return Err(TournamentError::invalid(format!(
            "{} player names for {n} players",
            info.player_names.len()
        )));
    }
    let last = t.last_round();
    // rounds after the last paired one hold only requested byes so far
    let paired = round_to_pair(t) - 1;
    let table = standings(t, last, order, edition);
    let mut place = vec![0u32; n];
    let mut points = vec![0i32; n];
    for s in &table {
        place[s.player as usize] = s.place;
        points[s.player as usize] = s.values.points_x2;
    }
    let mut out = String::new();
    out.push_str(&format!("012 {}\n", clean(&info.name)));
    if let Some(d) = &info.start_date {
        out.push_str(&format!("042 {}\n", clean(d)));
    }
    if let Some(d) = &info.end_date {
        out.push_str(&format!("052 {}\n", clean(d)));
    }
    out.push_str(&format!("062 {n}\n"));
    out.push_str(&format!(
        "072 {}\n",
        t.ratings().iter().filter(|r| r.is_some()).count()
    ));
    out.push_str("092 Individual: Swiss-System\n");
    out.push_str(&format!("XXR {}\n", t.round_count()));
    for (p, (&place, &points)) in place.iter().zip(&points).enumerate() {
        let rating = match t.rating(p as PlayerNo) {
            None => "    ".to_string(),
            Some(r) if (0..=9999).contains(&r) => format!("{r:>4}"),
            Some(r) => {
                return Err(TournamentError::out_of_range(format!(
                    "rating {r} of player {} does not fit the 4 columns of TRF-16",
                    p + 1
                )))
            }
        };
        if points > 199 {
            return Err(TournamentError::out_of_range(format!(
                "{} points do not fit the 4 columns of TRF-16",
                f64::from(points) / 2.0
            )));
        }
        let name: String = clean(&info.player_names[p]).chars().take(33).collect();
        let mut line = format!(
            "001 {:>4} {:1}{:>3} {:<33} {} {:3} {:>11} {:10} {:>4.1} {:>4}",
            p + 1,
            "",
            "",
            name,
            rating,
            "",
            "",
            "",
            f64::from(points) / 2.0,
            place
        );
        for (r, &e) in t.card(p as PlayerNo)[..last as usize].iter().enumerate() {
            if r as u32 >= paired && e == RoundEntry::Absent {
                // not yet paired, not absent: no block (a pairing engine pairs this player)
                line.push_str(&" ".repeat(10));
            } else {
                line.push_str(&round_block(e));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    Ok(out)
}
