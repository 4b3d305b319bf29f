//! Reads a FIDE Tournament Report File (TRF-16, FIDE Handbook C.04 Annex 2) back into a
//! [`Tournament`]: the counterpart of [`super::trf16`].
//!
//! Read: `001` player lines — starting rank (columns 5–8), rating (49–52), and from column 92 one
//! block of 10 columns per round: opponent's starting rank (4 columns, `0000` none), colour
//! (`w`, `b`, `-`) and result code (`1 0 = + - W D L U F H Z`, or blank for no result: read as an
//! absence when there is no opponent) — `XXR` (number of rounds) and `XXC` (`white1`/`black1`:
//! the colour of the top seed in round 1). Two extensions of bbpPairings are read too: `XXA`
//! (virtual points of accelerated rounds, C.04.5: the starting rank in columns 5–8, then one
//! field of 4 columns per round from column 10, one column apart, e.g. ` 1.0`; blank is 0) and
//! `192 FIDE_DUTCH_BAKU` / `192 FIDE_DUTCH_2025_BAKU` (Baku acceleration, C.04.5.1). Other lines
//! are skipped. Lines end in `\n`, `\r\n` or
//! `\r`.

use super::{PlayerNo, RoundEntry, Tournament, TournamentError, MAX_ROUNDS};

type Result<T> = std::result::Result<T, TournamentError>;

/// A tournament read from TRF, with what the file says beyond the results.
#[derive(Clone, Debug, PartialEq)]
pub struct TrfTournament {
    pub tournament: Tournament,
    /// Names by player number (columns 15–47, trimmed).
    pub names: Vec<String>,
    /// Per player and round: the line has a non-blank block for it (a block of `0000 - Z`, read
    /// as [`RoundEntry::Absent`], counts: a known absence, not a round still to be paired).
    listed: Vec<Vec<bool>>,
    /// `XXC`: `Some(true)` for `white1`, `Some(false)` for `black1`.
    pub first_colour_white: Option<bool>,
    /// `XXA`: virtual points in half points by player number, then round (round 1 first);
    /// empty for a player without an `XXA` line.
    pub accelerations: Vec<Vec<i32>>,
    /// Whether the file has an `XXA` line, even one of zeros (it replaces the Burstein system's
    /// own acceleration, as in bbpPairings).
    pub acceleration_given: bool,
    /// `192` names a Baku-accelerated Dutch tournament (C.04.5.1).
    pub baku_acceleration: bool,
}

impl TrfTournament {
    /// Whether player `p`'s line has a non-blank block for `round` (1-based): ten blank columns
    /// (or no block) mean no entry yet, to be paired.
    pub fn listed(&self, p: PlayerNo, round: u32) -> bool {
        round >= 1
            && self
                .listed
                .get(p as usize)
                .and_then(|l| l.get(round as usize - 1))
                .is_some_and(|&b| b)
    }

    /// The tournament as it stood before `round` (1-based): entries of later rounds removed.
    /// (Entries are copied as read, so a double forfeit stays a double forfeit.)
    pub fn before_round(&self, round: u32) -> Tournament {
        let mut t = self.tournament.clone();
        let keep = (round.max(1) - 1) as usize;
        for card in &mut t.cards {
            for e in card.iter_mut().skip(keep) {
                *e = RoundEntry::Absent;
            }
        }
        t
    }

    /// The file as it was when `round` (1-based) was to be paired: the rounds before it, and of
    /// `round` only the entries no pairing makes (requested byes, known absences), listed as they
    /// were; later rounds not at all.
    pub fn file_before_round(&self, round: u32) -> TrfTournament {
        let keep = (round.max(1) - 1) as usize;
        let mut out = self.clone();
        for (p, card) in out.tournament.cards.iter_mut().enumerate() {
            let listed = &mut out.listed[p];
            for (r, e) in card.iter_mut().enumerate().skip(keep) {
                let preset = r == keep
                    && e.opponent().is_none()
                    && *e != RoundEntry::Bye(super::ByeKind::PairingAllocated)
                    && listed.get(r).is_some_and(|&b| b);
                if !preset {
                    *e = RoundEntry::Absent;
                    if let Some(l) = listed.get_mut(r) {
                        *l = false;
                    }
                }
            }
        }
        out
    }
}

struct PlayerLine {
    rank: usize,
    name: String,
    rating: Option<i32>,
    /// One per round; `None` for a blank block.
    blocks: Vec<Option<(Option<PlayerNo>, char, char)>>,
}

fn field(line: &str, from: usize, to: usize) -> &str {
    line.get(from - 1..to.min(line.len())).unwrap_or("").trim()
}

fn invalid(line_no: usize, what: impl std::fmt::Display) -> TournamentError {
    TournamentError::invalid(format!("TRF line {line_no}: {what}"))
}

fn parse_player(line: &str, line_no: usize) -> Result<PlayerLine> {
    if !line.is_ascii() {
        return Err(invalid(line_no, "a player line must be ASCII"));
    }
    let rank: usize = field(line, 5, 8)
        .parse()
        .map_err(|_| invalid(line_no, "no starting rank in columns 5-8"))?;
    if rank == 0 {
        return Err(invalid(line_no, "starting ranks begin at 1"));
    }
    let rating = match field(line, 49, 52) {
        "" => None,
        r => Some(
            r.parse::<i32>()
                .map_err(|_| invalid(line_no, format!("rating {r:?} is not a number")))?,
        ),
    };
    let rating = rating.filter(|&r| r > 0);
    let mut blocks = Vec::new();
    let mut start = 92;
    while start <= line.len() {
        let block = line
            .get(start - 1..(start + 7).min(line.len()))
            .unwrap_or("");
        if block.trim().is_empty() {
            blocks.push(None);
            start += 10;
            continue;
        }
        let chars: Vec<char> = format!("{block:<8}").chars().collect();
        let opp: String = chars[..4].iter().collect();
        let opp = opp.trim();
        let opponent = match opp {
            "" | "0000" => None,
            o => {
                let o: usize = o
                    .parse()
                    .map_err(|_| invalid(line_no, format!("opponent {o:?} is not a number")))?;
                if o == 0 {
                    None
                } else {
                    Some((o - 1) as PlayerNo)
                }
            }
        };
        blocks.push(Some((opponent, chars[5], chars[7])));
        start += 10;
    }
    Ok(PlayerLine {
        rank,
        name: field(line, 15, 47).to_string(),
        rating,
        blocks,
    })
}

/// A number of points with at most one decimal (`1`, `1.0`, ` 0.5`) in half points.
fn half_points(text: &str) -> Option<i32> {
    let (whole, fraction) = text.trim().split_once('.').unwrap_or((text.trim(), ""));
    let whole: i32 = whole.parse().ok().filter(|&w| w >= 0)?;
    let half = match fraction {
        "" | "0" => 0,
        "5" => 1,
        _ => return None,
    };
    whole.checked_mul(2)?.checked_add(half)
}

/// An `XXA` line: starting rank (columns 5–8) and the virtual points of each round, a field of
/// 4 columns from column 10 then every 5 columns (bbpPairings' acceleration extension).
fn parse_acceleration(line: &str, line_no: usize) -> Result<(usize, Vec<i32>)> {
    if !line.is_ascii() {
        return Err(invalid(line_no, "an XXA line must be ASCII"));
    }
    let rank: usize = field(line, 5, 8)
        .parse()
        .ok()
        .filter(|&r| r > 0)
        .ok_or_else(|| invalid(line_no, "XXA needs a starting rank in columns 5-8"))?;
    let mut points = Vec::new();
    let mut start = 10;
    while start <= line.len() {
        let text = field(line, start, start + 3);
        let p = if text.is_empty() {
            0
        } else {
            half_points(text).ok_or_else(|| {
                invalid(line_no, format!("XXA: {text:?} is not a number of points"))
            })?
        };
        points.push(p);
        start += 5;
    }
    while points.last() == Some(&0) {
        points.pop();
    }
    Ok((rank, points))
}

/// Places the `XXA` rows by starting rank, checking ranks and round counts.
fn acceleration_table(
    rows: Vec<(usize, usize, Vec<i32>)>,
    players: usize,
    rounds: u32,
) -> Result<Vec<Vec<i32>>> {
    let mut table = vec![Vec::new(); players];
    for (line_no, rank, points) in rows {
        if rank > players {
            return Err(invalid(
                line_no,
                format!("XXA: starting rank {rank} beyond the {players} players"),
            ));
        }
        if points.len() > rounds as usize {
            return Err(invalid(
                line_no,
                format!("XXA: {} rounds, the tournament has {rounds}", points.len()),
            ));
        }
        table[rank - 1] = points;
    }
    Ok(table)
}

/// Whether a `192` line (tournament type) names Baku acceleration.
fn baku_type(rest: &str) -> bool {
    matches!(rest.trim(), "FIDE_DUTCH_BAKU" | "FIDE_DUTCH_2025_BAKU")
}

/// Reads a TRF-16 file.
pub fn read_trf16(text: &str) -> Result<TrfTournament> {
    let mut players: Vec<(usize, PlayerLine)> = Vec::new();
    let mut rounds: Option<u32> = None;
    let mut first_colour_white = None;
    let mut accelerations = Vec::new();
    let mut baku_acceleration = false;
    for (i, line) in text.split(['\r', '\n']).enumerate() {
        if i % 256 == 0 {
            crate::interrupt::check();
        }
        let line_no = i + 1;
        if line.starts_with("001") {
            players.push((line_no, parse_player(line, line_no)?));
        } else if let Some(rest) = line.strip_prefix("XXR") {
            let r = rest
                .trim()
                .parse::<u32>()
                .map_err(|_| invalid(line_no, "XXR needs a number of rounds"))?;
            rounds = Some(r);
        } else if line.starts_with("XXA") {
            let (rank, points) = parse_acceleration(line, line_no)?;
            accelerations.push((line_no, rank, points));
        } else if let Some(rest) = line.strip_prefix("192") {
            baku_acceleration = baku_type(rest);
        } else if let Some(rest) = line.strip_prefix("XXC") {
            for word in rest.split_whitespace() {
                match word {
                    "white1" => first_colour_white = Some(true),
                    "black1" => first_colour_white = Some(false),
                    _ => {}
                }
            }
        }
    }
    if players.is_empty() {
        return Err(TournamentError::invalid(
            "TRF: no player line (a line starting with 001): not a tournament report file",
        ));
    }
    let n = players.len();
    let mut by_rank: Vec<Option<usize>> = vec![None; n];
    for (k, (line_no, p)) in players.iter().enumerate() {
        match by_rank.get_mut(p.rank - 1) {
            Some(slot @ None) => *slot = Some(k),
            Some(Some(_)) => {
                return Err(invalid(*line_no, format!("starting rank {} twice", p.rank)))
            }
            None => {
                return Err(invalid(
                    *line_no,
                    format!("starting rank {} beyond the {n} players", p.rank),
                ))
            }
        }
    }
    let most_blocks = players
        .iter()
        .map(|(_, p)| p.blocks.len())
        .max()
        .unwrap_or(0) as u32;
    let round_count = match rounds {
        Some(r) if r < most_blocks => {
            return Err(TournamentError::invalid(format!(
                "TRF: XXR says {r} rounds but a player line has {most_blocks}"
            )))
        }
        Some(r) => r,
        None => most_blocks.max(1),
    };
    if round_count > MAX_ROUNDS {
        return Err(TournamentError::out_of_range(format!(
            "TRF: {round_count} rounds, at most {MAX_ROUNDS}"
        )));
    }
    let acceleration_given = !accelerations.is_empty();
    let accelerations = acceleration_table(accelerations, n, round_count)?;
    let ordered: Vec<&(usize, PlayerLine)> =
        by_rank.iter().flatten().map(|&k| &players[k]).collect();
    let ratings = ordered.iter().map(|(_, p)| p.rating).collect();
    let mut t = Tournament::new(round_count, ratings)?;
    for (p, (line_no, line)) in ordered.iter().enumerate() {
        crate::interrupt::check();
        for (r, block) in line.blocks.iter().enumerate() {
            let Some((opponent, colour, result)) = *block else {
                continue;
            };
            if opponent.is_some_and(|o| o as usize >= n || o as usize == p) {
                return Err(invalid(
                    *line_no,
                    format!("round {}: no such opponent", r + 1),
                ));
            }
            let result = if result == ' ' && opponent.is_none() {
                'Z'
            } else {
                result
            };
            t.cards[p][r] = RoundEntry::from_codes(opponent, colour, result)
                .map_err(|e| invalid(*line_no, format!("round {}: {e}", r + 1)))?;
        }
    }
    // Both sides of every game must agree.
    for p in 0..n {
        crate::interrupt::check();
        for r in 0..round_count as usize {
            if let Some(o) = t.cards[p][r].opponent() {
                if t.cards[o as usize][r].opponent() != Some(p as PlayerNo) {
                    return Err(TournamentError::invalid(format!(
                        "TRF: round {}: player {} meets {} but not the other way round",
                        r + 1,
                        p + 1,
                        o + 1
                    )));
                }
            }
        }
    }
    Ok(TrfTournament {
        tournament: t,
        names: ordered.iter().map(|(_, p)| p.name.clone()).collect(),
        listed: ordered
            .iter()
            .map(|(_, p)| p.blocks.iter().map(Option::is_some).collect())
            .collect(),
        first_colour_white,
        accelerations,
        acceleration_given,
        baku_acceleration,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::tiebreak::Edition;
    use crate::tournament::{trf16, ByeKind, GameKind, Outcome, TrfInfo};

    #[test]
    fn the_writer_output_reads_back() {
        let mut t = Tournament::new(3, vec![Some(2100), None, Some(1800), Some(1700)]).unwrap();
        t.add_game(1, 0, 1, Outcome::Win, GameKind::Played).unwrap();
        t.add_game(1, 2, 3, Outcome::Draw, GameKind::NoMove)
            .unwrap();
        t.add_game(2, 3, 0, Outcome::Loss, GameKind::Forfeit)
            .unwrap();
        t.add_bye(2, 1, ByeKind::PairingAllocated).unwrap();
        t.add_bye(2, 2, ByeKind::Half).unwrap();
        let info = TrfInfo {
            name: "Test".into(),
            player_names: vec!["A".into(), "B".into(), "C".into(), "D".into()],
            ..TrfInfo::default()
        };
        let text = trf16(&t, &info, &[], Edition::default()).unwrap();
        let read = read_trf16(&text).unwrap();
        assert_eq!(read.tournament, t);
        assert_eq!(read.names, info.player_names);
        let cr = read_trf16(&text.replace('\n', "\r")).unwrap();
        assert_eq!(cr.tournament, t);
        assert!(read.listed(0, 2) && !read.listed(0, 3));
        // Ten blank columns: no entry for that round, later blocks still read.
        let blank = format!("{:<91}{:<10}0000 - H\n", "001    1", "");
        let read = read_trf16(&blank).unwrap();
        assert!(!read.listed(0, 1) && read.listed(0, 2));
        assert_eq!(read.tournament.card(0)[1], RoundEntry::Bye(ByeKind::Half));
    }

    #[test]
    fn xxa_lines_give_virtual_points_by_starting_rank_and_round() {
        let players = format!("{:<91}\n{:<91}\n", "001    1", "001    2");
        let text = format!("{players}XXA    2  1.0  1.0  0.5\nXXR 5\n192 FIDE_DUTCH_2025_BAKU\n");
        let read = read_trf16(&text).unwrap();
        assert_eq!(read.accelerations, vec![vec![], vec![2, 2, 1]]);
        assert!(read.baku_acceleration);
        let blank = read_trf16(&format!("{players}XXR 3\nXXA    1       0.5\n")).unwrap();
        assert_eq!(blank.accelerations[0], vec![0, 1]);
        assert!(!blank.baku_acceleration);
        let e = read_trf16(&format!("{players}XXA    3  1.0\n")).unwrap_err();
        assert!(e.to_string().contains("line 3"), "{e}");
        let e = read_trf16(&format!("{players}XXA    1  1.2\n")).unwrap_err();
        assert!(e.to_string().contains("not a number of points"), "{e}");
        let e = read_trf16(&format!("{players}XXR 1\nXXA    1  1.0  1.0\n")).unwrap_err();
        assert!(e.to_string().contains("XXA"), "{e}");
    }

    #[test]
    fn a_text_without_players_is_an_error() {
        for text in ["", "garbage", "012 Tournament\nXXR 5\n", "\r\n\r\n"] {
            let e = read_trf16(text).unwrap_err();
            assert!(e.to_string().contains("no player line"), "{text:?}: {e}");
            assert_eq!(
                crate::error::Classified::class(&e),
                crate::error::ErrorClass::InvalidParameter
            );
        }
    }

    #[test]
    fn errors_name_the_line() {
        let e = read_trf16("012 x\n001    x\n").unwrap_err();
        assert!(e.to_string().contains("line 2"), "{e}");
        let bad_code = format!("{:<91}{}", "001    1", "   2 w Q");
        let e = read_trf16(&format!("{bad_code}\n{:<91}   1 b 0\n", "001    2")).unwrap_err();
        assert!(e.to_string().contains("line 1"), "{e}");
    }
}
