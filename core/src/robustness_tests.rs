//! Deterministic fuzz-style robustness tests of every entry point of the core that takes
//! untrusted input.
//!
//! Why: a panic in the core becomes an SQL ERROR in the backend at best, but the design goal is
//! that bad input always gets a proper `Err` with a clear message — never an index out of bounds,
//! an arithmetic overflow (debug builds), an `unwrap` on `None` or a loop that does not end. These
//! tests feed each entry point malformed and random input and require a value or an error, and
//! check the round-trip and consistency properties that hold for the input that is accepted.
//!
//! How: no cargo-fuzz (stable Rust only, no new dependencies). A splitmix64 generator seeded with
//! fixed constants makes every run identical, so a failure is reproducible and never flaky. Inputs
//! are random bytes and token soups, mutations of valid seeds (bit flips, overwrites, truncation,
//! deletion, insertion of format tokens, duplication, swapped fields), and numeric edge values
//! (NaN, ±inf, ±0, `f64::MAX`, `f64::MIN_POSITIVE`, subnormals, `i32`/`i64`/`u32` extremes). When a
//! test fails, a [`Case`] guard prints the entry point and the input that made it fail.
//!
//! What (one test per area; case counts in the test bodies):
//! * `fen_parsing_and_regeneration`: `parse_start` on mutated legal FENs (standard, castling,
//!   legal and illegal en passant, Chess960 / Shredder-FEN, checkmate, stalemate) and token soups;
//!   an accepted FEN regenerates (partial and full) to a FEN that parses to the same position, and
//!   the fast `FenWriter` agrees with shakmaty's EPD writer.
//! * `uci_and_san_moves`: `uci_move`, `play_uci`, `play_san` with mutated legal moves in random
//!   positions; UCI and SAN of every sampled legal move parse back to that move, a failed play
//!   leaves the position untouched, errors name the ply, move and position.
//! * `move_lists`: `fen_array`, `moves_to_san`, `san_to_moves` with mutated move lists (NULLs,
//!   garbage, swaps, duplicates); SAN of a legal line converts back to its UCI moves.
//! * `pgn_reading_and_round_trip`: `read_pgn` on mutated real PGN (tags, escapes, comments,
//!   variations, NAGs, BOM, CRLF, `%` lines, null moves, FEN and Variant tags) and random bytes;
//!   the reader always ends, every game read replays from its start to its end position, and
//!   `write_pgn` of it reads back to the same moves, start and result.
//! * `pgn_writing_with_odd_tags`: `write_pgn` with random starts, move lists and tag names and
//!   values (quotes, backslashes, newlines, non-ASCII); its output reads back to the same game.
//! * `lichess_openings_tsv`: `parse_lichess_tsv`, `opening_partial_fen`, `movetext_position`.
//! * `result_parsing`: `GameResult::parse`, `GameEndType`/`GameEndReason::from_str`,
//!   `termination_reason` (always a reason that fits the end type), `classify_game`.
//! * `interval_and_clock_arithmetic`: `Interval::checked_add`/`checked_mul`, ordering,
//!   `Clock::base_time`, `RankingWindow::counts` with extreme fields (checked against i128 maths).
//! * `elo_and_skemino_edges`, `fide_edges`, `performance_rating_edges`, `glicko2_edges`: every
//!   rating function with edge values, empty and mismatched slices; finite valid input gives a
//!   finite result or an error (never NaN or infinity), errors have the documented kind, and the
//!   documented identities hold (expectations sum to 1, zero-sum updates, bounds, the defining
//!   equations of TPR / PTP / performance rating, streamed period = array update).
//! * `ranking_replay_with_odd_inputs`: `replay` and `RatingSystem::rate` with extreme parameters
//!   and timestamps, unordered keys and self-play; results are finite, a replay in two parts
//!   equals one replay; `appendable` matches its definition.
//! * `tie_break_orders`: `parse_order` / `TieBreak::from_str` on mutated orders; accepted orders
//!   format and parse back to themselves.
//! * `tournament_operations_and_exports`: `Tournament::new`/`add_game`/`add_bye`/`remove` with
//!   out-of-range rounds and players, self-pairing, conflicts; a refused operation changes
//!   nothing, cards stay symmetric; standings, `sort_key`, `refresh` and TRF-16 export of the
//!   resulting odd tournaments are consistent.
//! * `rank_players_with_arbitrary_encounters`: `rank_players` with an arbitrary encounter callback
//!   (the glue's, read from the database), and `direct_encounter_with_many_meeting_counts`: a tie
//!   whose direct-encounter denominators do not fit 64 bits.

use std::collections::HashMap;
use std::fmt::Debug;

use shakmaty::fen::Epd;
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Move, Position};

use crate::chess::openings::{opening_partial_fen, parse_lichess_tsv};
use crate::chess::pgn::{
    movetext_position, read_pgn, termination_phrase, termination_reason, write_pgn, PgnGame,
};
use crate::chess::position::{
    fen_array, full_fen, moves_to_san, parse_start, partial_fen, play_san, play_uci, san_to_moves,
    uci_move, uci_of, STANDARD_FEN,
};
use crate::chess::{ChessError, FenField};
use crate::clock::{Clock, Interval};
use crate::ledger;
use crate::ranking::{
    appendable, newcomer, rate, GameFacts, GameKey, PlayerState, RankingWindow, RatedGame,
    RatingSystem, Tip,
};
use crate::rating::glicko2::{self, Bounds, Period, Rating};
use crate::rating::system::{period_from_days, stored};
use crate::rating::{elo, fide, performance, skemino, RatingErrorKind};
use crate::result::{GameEndReason, GameEndType, GameResult};
use crate::test_rng::Rng;
use crate::tournament::{
    classify_game, format_order, parse_order, rank_players, refresh, sort_key, standings, trf16,
    values_after, ByeKind, Colour, Edition, GameKind, Outcome, PlayerNo, PlayerValues, RoundEntry,
    TieBreak, Tournament, TournamentErrorKind, TrfInfo,
};

// ---------------------------------------------------------------------------------------------
// Harness: a seeded generator, mutations, failure reporting.

/// While alive, names the case under test: if the thread panics (in the code under test or in a
/// failed assertion), dropping the guard prints the entry point and its input. Guards still alive
/// from earlier in the same iteration print too, innermost (the failing one) first.
struct Case<T: Debug> {
    entry: &'static str,
    input: T,
}

impl<T: Debug> Drop for Case<T> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!(
                "robustness case failed: {} with input {:?}",
                self.entry, self.input
            );
        }
    }
}

fn case<T: Debug>(entry: &'static str, input: T) -> Case<T> {
    Case { entry, input }
}

/// Applies one to four random edits to `seed`: a bit flip, a byte overwrite, truncation,
/// deletion of a slice, insertion of a token of the format, duplication of a slice, or swapping
/// two fields.
fn mutate(rng: &mut Rng, seed: &[u8], tokens: &[&str]) -> Vec<u8> {
    let mut b = seed.to_vec();
    for _ in 0..1 + rng.below(4) {
        let len = b.len();
        match rng.below(9) {
            0 if len > 0 => {
                let i = rng.below(len);
                b[i] ^= 1 << rng.below(8);
            }
            1 if len > 0 => {
                let i = rng.below(len);
                b[i] = rng.next_u64() as u8;
            }
            2 => b.truncate(rng.below(len + 1)),
            3 if len > 0 => {
                let i = rng.below(len);
                let j = i + rng.below((len - i).min(16) + 1);
                b.drain(i..j);
            }
            4 | 5 => {
                let i = rng.below(len + 1);
                let t = rng.pick(tokens).as_bytes();
                b.splice(i..i, t.iter().copied());
            }
            6 if len > 0 => {
                let i = rng.below(len);
                let j = i + 1 + rng.below((len - i).min(32));
                let chunk = b[i..j].to_vec();
                let at = rng.below(len + 1);
                b.splice(at..at, chunk);
            }
            _ => swap_fields(rng, &mut b),
        }
    }
    b
}

/// Swaps two fields of `b` split at a separator of the formats under test.
fn swap_fields(rng: &mut Rng, b: &mut Vec<u8>) {
    let sep = rng.pick(b" \t\n,/");
    let mut fields: Vec<Vec<u8>> = b.split(|&c| c == sep).map(<[u8]>::to_vec).collect();
    if fields.len() >= 2 {
        let (i, j) = (rng.below(fields.len()), rng.below(fields.len()));
        fields.swap(i, j);
    }
    *b = fields.join(&sep);
}

/// A mutated seed as text (invalid UTF-8 replaced).
fn mutate_text(rng: &mut Rng, seeds: &[&str], tokens: &[&str]) -> String {
    let seed = rng.pick(seeds);
    String::from_utf8_lossy(&mutate(rng, seed.as_bytes(), tokens)).into_owned()
}

/// Up to `max` random tokens, concatenated.
fn token_soup(rng: &mut Rng, tokens: &[&str], max: usize) -> String {
    (0..rng.below(max + 1)).map(|_| rng.pick(tokens)).collect()
}

/// Up to `max` random bytes.
fn random_bytes(rng: &mut Rng, max: usize) -> Vec<u8> {
    (0..rng.below(max + 1))
        .map(|_| rng.next_u64() as u8)
        .collect()
}

/// Random text: a mutated seed (most often), a token soup, or random bytes.
fn fuzz_text(rng: &mut Rng, seeds: &[&str], tokens: &[&str]) -> String {
    match rng.below(10) {
        0..=6 => mutate_text(rng, seeds, tokens),
        7 | 8 => token_soup(rng, tokens, 12),
        _ => String::from_utf8_lossy(&random_bytes(rng, 40)).into_owned(),
    }
}

const F64_EDGES: [f64; 24] = [
    f64::NAN,
    f64::INFINITY,
    f64::NEG_INFINITY,
    0.0,
    -0.0,
    1.0,
    -1.0,
    0.5,
    2.0,
    f64::MAX,
    f64::MIN,
    f64::MIN_POSITIVE,
    -f64::MIN_POSITIVE,
    5e-324,
    1e-300,
    1e300,
    -1e300,
    1e15,
    1e6,
    -1e6,
    1500.0,
    3660.98,
    1e-9,
    0.999_999_999_999,
];

/// An edge value, a value of the usual rating range, a small value, or any bit pattern.
fn any_f64(rng: &mut Rng) -> f64 {
    match rng.below(8) {
        0..=2 => rng.pick(&F64_EDGES),
        3..=5 => rng.uniform(-500.0, 4000.0),
        6 => rng.uniform(0.0, 2.0),
        _ => f64::from_bits(rng.next_u64()),
    }
}

/// A rating: usually realistic, sometimes an edge value.
fn rating_f64(rng: &mut Rng) -> f64 {
    if rng.one_in(4) {
        any_f64(rng)
    } else {
        rng.uniform(0.0, 3000.0)
    }
}

/// A game score: usually 0, ½ or 1, sometimes any value in [0, 1], sometimes anything.
fn score_f64(rng: &mut Rng) -> f64 {
    match rng.below(8) {
        0..=4 => rng.pick(&[0.0, 0.5, 1.0]),
        5 => rng.uniform(0.0, 1.0),
        _ => any_f64(rng),
    }
}

const I32_EDGES: [i32; 12] = [
    0,
    1,
    -1,
    i32::MIN,
    i32::MAX,
    i32::MIN + 1,
    i32::MAX - 1,
    30,
    -30,
    2650,
    2400,
    i32::MAX / 2,
];

fn any_i32(rng: &mut Rng) -> i32 {
    match rng.below(4) {
        0 => rng.pick(&I32_EDGES),
        1 => rng.next_u64() as i32,
        _ => rng.int(-100, 3000) as i32,
    }
}

const I64_EDGES: [i64; 10] = [
    0,
    1,
    -1,
    i64::MIN,
    i64::MAX,
    i64::MIN + 1,
    i64::MAX - 1,
    86_400_000_000,
    -86_400_000_000,
    i64::MAX / 2,
];

fn any_i64(rng: &mut Rng) -> i64 {
    match rng.below(4) {
        0 => rng.pick(&I64_EDGES),
        1 => rng.next_u64() as i64,
        _ => rng.int(-1_000_000_000, 1_000_000_000),
    }
}

// ---------------------------------------------------------------------------------------------
// Chess: FENs, moves, PGN, openings.

const FEN_SEEDS: [&str; 16] = [
    STANDARD_FEN,
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -",
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    // en passant legal, en passant dropped (no capturer), en passant illegal (pins)
    "rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3",
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
    "8/2p5/8/KP5r/8/8/8/7k b - - 0 1",
    "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1",
    // Chess960: Shredder-FEN and X-FEN castling rights
    "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "4k3/8/8/8/8/8/4P3/4K3 b - - 0 40",
    "8/4P1k1/8/8/8/8/8/4K3 w - - 0 1",
    "4k3/8/8/8/8/8/8/4KN1N w - - 99 999999999",
    // checkmate, stalemate, kiwipete
    "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4",
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
];

const FEN_TOKENS: [&str; 44] = [
    "/",
    "8",
    "1",
    "9",
    "0",
    "K",
    "k",
    "Q",
    "q",
    "R",
    "r",
    "B",
    "N",
    "P",
    "p",
    "-",
    " ",
    "  ",
    "w",
    "b",
    "KQkq",
    "HAha",
    "A",
    "h",
    "e3",
    "d6",
    "a1",
    "[",
    "]",
    "~",
    "_",
    "+",
    "\t",
    "\u{feff}",
    "é",
    "999999999",
    "1000000000",
    "-1",
    "/8/8",
    "pppppppp",
    "k7",
    "K7",
    "\0",
    "rnbqkbnr",
];

/// The seeds must stay valid: a typo would silently turn the mutation tests into noise.
fn seed_positions() -> Vec<Chess> {
    FEN_SEEDS
        .iter()
        .map(|f| parse_start(f).unwrap_or_else(|e| panic!("seed FEN {f:?}: {e}")))
        .collect()
}

/// A seed position after up to `max_plies` random legal moves.
fn random_position(rng: &mut Rng, seeds: &[Chess], max_plies: usize) -> Chess {
    let mut pos = seeds[rng.below(seeds.len())].clone();
    for _ in 0..rng.below(max_plies + 1) {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[rng.below(legal.len())];
        pos.play_unchecked(m);
    }
    pos
}

/// An accepted position regenerates to FENs that parse back to the same position.
fn check_fen_round_trip(pos: &Chess) {
    let partial = partial_fen(pos);
    assert_eq!(
        partial,
        Epd::from_position(pos, EnPassantMode::Legal).to_string(),
        "the fast FEN writer disagrees with shakmaty"
    );
    let again = parse_start(&partial).expect("a generated partial FEN parses");
    assert_eq!(partial_fen(&again), partial);
    assert!(
        again == *pos,
        "partial FEN {partial} parses to another position"
    );
    let full = full_fen(pos);
    let again = parse_start(&full).expect("a generated full FEN parses");
    assert_eq!(full_fen(&again), full);
}

/// UCI (both castling spellings) and SAN of `m` parse back to `m` in `pos`.
fn check_move_round_trip(pos: &Chess, m: Move) {
    let uci = uci_of(m);
    assert_eq!(uci_move(pos, 1, &uci), Ok(m), "UCI {uci}");
    if let Move::Castle { .. } = m {
        let king_takes_rook = UciMove::from_move(m, CastlingMode::Chess960).to_string();
        assert_eq!(
            uci_move(pos, 1, &king_takes_rook),
            Ok(m),
            "UCI {king_takes_rook}"
        );
    }
    let san = SanPlus::from_move(pos.clone(), m).to_string();
    let mut after = pos.clone();
    assert_eq!(play_san(&mut after, 1, &san), Ok(m), "SAN {san}");
    let mut want = pos.clone();
    want.play_unchecked(m);
    assert!(after == want);
}

#[test]
fn fen_parsing_and_regeneration() {
    let seeds = seed_positions();
    for pos in &seeds {
        check_fen_round_trip(pos);
    }
    let mut rng = Rng::new(0x00F0_E4A5_1234_0001);
    let mut accepted = 0;
    for i in 0..20_000 {
        let fen = if i % 10 == 9 {
            token_soup(&mut rng, &FEN_TOKENS, 24)
        } else {
            mutate_text(&mut rng, &FEN_SEEDS, &FEN_TOKENS)
        };
        let _c = case("parse_start", &fen);
        match parse_start(&fen) {
            Ok(pos) => {
                accepted += 1;
                check_fen_round_trip(&pos);
                let legal = pos.legal_moves();
                if !legal.is_empty() {
                    let m = legal[rng.below(legal.len())];
                    check_move_round_trip(&pos, m);
                    let mut next = pos.clone();
                    next.play_unchecked(m);
                    assert_eq!(
                        partial_fen(&next),
                        Epd::from_position(&next, EnPassantMode::Legal).to_string()
                    );
                }
            }
            Err(e) => {
                assert_eq!(e.fen, fen);
                let msg = e.to_string();
                assert!(msg.starts_with("invalid FEN"), "{msg}");
                let n = fen.split_ascii_whitespace().count();
                if n != 4 && n != 6 {
                    assert_eq!(e.field, FenField::Fields);
                }
            }
        }
    }
    // Mutations keep enough FENs valid to exercise the regeneration properties.
    assert!(accepted > 800, "only {accepted} mutated FENs parsed");
}

const MOVE_TOKENS: [&str; 34] = [
    "e2e4", "e7e8q", "e1g1", "e1h1", "a7a8n", "0000", "--", "Z0", "O-O", "O-O-O", "0-0", "Nf3",
    "exd8=Q+", "Qh4#", "e8=Q", "P@e4", "Kxe2", "x", "=", "+", "#", "!", "?", "a", "h", "1", "8",
    "9", "i", " ", "N", "Q", "@", "\u{e9}",
];

#[test]
fn uci_and_san_moves() {
    let seeds = seed_positions();
    let mut rng = Rng::new(0x5A11_0C1E_0000_0002);
    for _ in 0..6_000 {
        let pos = random_position(&mut rng, &seeds, 40);
        let legal = pos.legal_moves();
        let text = if !legal.is_empty() && rng.below(3) > 0 {
            let m = legal[rng.below(legal.len())];
            if rng.one_in(3) {
                check_move_round_trip(&pos, m);
            }
            let seed = if rng.one_in(2) {
                uci_of(m)
            } else {
                SanPlus::from_move(pos.clone(), m).to_string()
            };
            if rng.one_in(4) {
                seed
            } else {
                String::from_utf8_lossy(&mutate(&mut rng, seed.as_bytes(), &MOVE_TOKENS))
                    .into_owned()
            }
        } else {
            token_soup(&mut rng, &MOVE_TOKENS, 3)
        };
        let ply = rng.pick(&[1, 2, 77, usize::MAX]);
        let input = (full_fen(&pos), &text, ply);
        let _c = case("uci_move / play_uci / play_san", &input);
        let before = full_fen(&pos);
        match uci_move(&pos, ply, &text) {
            Ok(m) => {
                assert!(pos.is_legal(m));
                assert_eq!(uci_move(&pos, ply, &uci_of(m)), Ok(m));
            }
            Err(e) => {
                assert_eq!(
                    (e.ply, e.mv.as_str(), e.position.as_str()),
                    (ply, text.as_str(), before.as_str())
                );
                let _ = e.to_string();
            }
        }
        for san in [false, true] {
            let mut p = pos.clone();
            let played = if san {
                play_san(&mut p, ply, &text)
            } else {
                play_uci(&mut p, ply, &text)
            };
            match played {
                Ok(m) => {
                    assert!(pos.is_legal(m));
                    let mut want = pos.clone();
                    want.play_unchecked(m);
                    assert!(p == want);
                }
                Err(e) => {
                    assert!(p == pos, "a refused move changed the position");
                    assert_eq!(
                        (e.ply, e.mv.as_str(), e.position.as_str()),
                        (ply, text.as_str(), before.as_str())
                    );
                }
            }
        }
    }
}

#[test]
fn move_lists() {
    let seeds = seed_positions();
    let mut rng = Rng::new(0x0011_5715_0000_0003);
    for _ in 0..2_500 {
        let start_pos = seeds[rng.below(seeds.len())].clone();
        let start = if rng.one_in(8) {
            mutate_text(&mut rng, &FEN_SEEDS, &FEN_TOKENS)
        } else {
            full_fen(&start_pos)
        };
        // a legal line from the start
        let mut pos = start_pos.clone();
        let mut ucis = Vec::new();
        let mut sans = Vec::new();
        for _ in 0..rng.below(30) {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let m = legal[rng.below(legal.len())];
            // both castling spellings are accepted; the other one half of the time
            ucis.push(if matches!(m, Move::Castle { .. }) && rng.one_in(2) {
                UciMove::from_move(m, CastlingMode::Chess960).to_string()
            } else {
                uci_of(m)
            });
            sans.push(SanPlus::from_move_and_play_unchecked(&mut pos, m).to_string());
        }
        let legal_line = start == full_fen(&start_pos);
        if legal_line {
            let _c = case("legal line", (&start, &ucis, &sans));
            let fens = fen_array(&start, ucis.iter().map(|s| Some(s.as_str()))).unwrap();
            assert_eq!(fens.len(), ucis.len() + 1);
            assert_eq!(fens[0], partial_fen(&start_pos));
            assert_eq!(fens[ucis.len()], partial_fen(&pos));
            let san = moves_to_san(&start, ucis.iter().map(|s| Some(s.as_str()))).unwrap();
            assert_eq!(san, sans);
            let back = san_to_moves(&start, san.iter().map(|s| Some(s.as_str()))).unwrap();
            let normal: Vec<String> = fens_to_uci(&start_pos, &ucis);
            assert_eq!(back, normal);
        }
        // the same lists, mutated
        let mut list: Vec<Option<String>> = if rng.one_in(2) {
            ucis.into_iter().map(Some).collect()
        } else {
            sans.into_iter().map(Some).collect()
        };
        for _ in 0..1 + rng.below(3) {
            let n = list.len();
            match rng.below(5) {
                0 if n > 0 => list[rng.below(n)] = None,
                1 if n > 0 => {
                    let i = rng.below(n);
                    let seed = list[i].clone().unwrap_or_default();
                    list[i] = Some(
                        String::from_utf8_lossy(&mutate(&mut rng, seed.as_bytes(), &MOVE_TOKENS))
                            .into_owned(),
                    );
                }
                2 if n > 1 => list.swap(rng.below(n), rng.below(n)),
                3 if n > 0 => {
                    let i = rng.below(n);
                    list.insert(i, list[i].clone());
                }
                _ => list.push(Some(token_soup(&mut rng, &MOVE_TOKENS, 2))),
            }
        }
        let _c = case("fen_array / moves_to_san / san_to_moves", (&start, &list));
        let items = || list.iter().map(|m| m.as_deref());
        check_list_result(fen_array(&start, items()), list.len() + 1, &list);
        check_list_result(moves_to_san(&start, items()), list.len(), &list);
        check_list_result(san_to_moves(&start, items()), list.len(), &list);
    }
}

/// The UCI spelling `uci_of` gives each move of a legal line.
fn fens_to_uci(start: &Chess, ucis: &[String]) -> Vec<String> {
    let mut pos = start.clone();
    ucis.iter()
        .enumerate()
        .map(|(i, u)| uci_of(play_uci(&mut pos, i + 1, u).unwrap()))
        .collect()
}

fn check_list_result(r: Result<Vec<String>, ChessError>, len: usize, list: &[Option<String>]) {
    match r {
        Ok(v) => assert_eq!(v.len(), len),
        Err(ChessError::NullMove(ply)) => assert!(list[ply - 1].is_none()),
        Err(ChessError::Move(e)) => assert_eq!(list[e.ply - 1].as_deref(), Some(e.mv.as_str())),
        Err(ChessError::Fen(_)) => {}
        Err(ChessError::Variant(v)) => panic!("no variant tag here, yet {v}"),
        Err(ChessError::TooManyMoves) => assert!(list.len() > crate::chess::MAX_MOVES),
    }
}

const PGN_SEEDS: [&str; 10] = [
    "\u{feff}[Event \"Casual\"]\r\n[White \"A \\\"quoted\\\" name\"]\r\n[Black \"B\\\\C\"]\r\n\
[Result \"0-1\"]\r\n[Termination \"Black won by checkmate\"]\r\n\r\n\
1. f3 {a comment} e5 $2 2. g4?? (2. e4 Nf6) Qh4# 0-1\r\n\r\n",
    "[Event \"From a position\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 40\"]\n\
[Result \"1/2-1/2\"]\n\n40... Kd7 41. e4 ; rest of line\n1/2-1/2\n\n1. e4 *\n",
    "[Event \"Nested\"]\n[Site \"?\"]\n[Result \"1-0\"]\n\n1. e4 (1. d4 d5 (1... Nf6 2. c4) 2. c4) \
1... e5 $1 {comment with (parens) and [brackets]} 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 \
6. Re1 b5 7. Bb3 d6 8. c3 O-O 1-0\n",
    "[Variant \"Chess960\"]\n[FEN \"rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1\"]\n\n\
1. O-O-O O-O 2. d4 *\n",
    "[FEN \"r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1\"]\n[SetUp \"1\"]\n\n\
1. bxa8=Q+ Kd7 2. O-O-O+ Kc7 *\n",
    "1. e4 a6 2. e5 d5 3. exd6 cxd6 1/2-1/2\n",
    "% an escaped line\n[Event \"x\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6?? 4. Qxf7# 1-0\n\n",
    "[Result \"1/2-1/2\"]\n[Termination \"Game drawn by stalemate\"]\n\n1. e4 e5 1/2-1/2\n",
    "[Event \"null\"]\n\n1. e4 -- 2. d4 Z0 *\n",
    "[Event \"Atomic\"]\n[Variant \"Atomic\"]\n\n1. e4 *\n\n[Event \"Bad\"]\n[FEN \"8/8 w - -\"]\n\n*\n",
];

const PGN_TOKENS: [&str; 48] = [
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    "\"",
    "\\",
    "$1",
    "$255",
    "$",
    "1.",
    "1...",
    "...",
    "*",
    "1-0",
    "0-1",
    "1/2-1/2",
    "\n",
    "\r\n",
    "\n\n",
    ";",
    "%",
    "O-O",
    "O-O-O",
    "0-0",
    "Nf3",
    "e8=Q",
    "exd6",
    "Qxf7#",
    "--",
    "Z0",
    "[FEN \"",
    "[Variant \"",
    "\u{feff}",
    "\0",
    "!",
    "?",
    "!!",
    "+",
    "#",
    "@",
    "P@e4",
    "[Event \"",
    "\"]\n",
    "[Termination \"",
    "e4",
    " ",
];

/// The FEN as `write_pgn` writes it in the `FEN` tag: blanks normalised, move counters added.
fn six_fields(fen: &str) -> String {
    let mut s = fen.split_ascii_whitespace().collect::<Vec<_>>().join(" ");
    if s.split(' ').count() == 4 {
        s.push_str(" 0 1");
    }
    s
}

/// Reads a PGN text to the end; the reader must stop (no more items than bytes).
fn read_all(text: &[u8]) -> Vec<Result<PgnGame, crate::chess::pgn::PgnError>> {
    let items: Vec<_> = read_pgn(text).take(text.len() + 2).collect();
    assert!(items.len() <= text.len() + 1, "read_pgn does not end");
    items
}

/// A game read from PGN replays from its start to its end position and exports to PGN that
/// reads back to the same game.
fn check_game(g: &PgnGame) {
    let fens = fen_array(
        &g.starting_position,
        g.moves.iter().map(|m| Some(m.as_str())),
    )
    .expect("the moves of a game read replay from its start");
    assert_eq!(fens.last(), Some(&partial_fen(&g.end)));
    if let Some(r) = g.result {
        assert!(r.end_type().reasons().contains(&r.reason()));
    }
    let pgn = write_pgn(
        &g.starting_position,
        g.moves.iter().map(|m| Some(m.as_str())),
        g.result,
        &g.tags,
    )
    .expect("a game read exports");
    let back = read_all(pgn.as_bytes());
    assert_eq!(back.len(), 1, "{pgn}");
    let back = back[0].as_ref().unwrap_or_else(|e| panic!("{e}\n{pgn}"));
    assert_eq!(back.moves, g.moves, "{pgn}");
    assert_eq!(back.result, g.result, "{pgn}");
    assert_eq!(back.starting_position, six_fields(&g.starting_position));
}

#[test]
fn pgn_reading_and_round_trip() {
    let mut rng = Rng::new(0x0090_0B0B_0000_0004);
    // every seed but the last two (null moves; an unsupported variant and a bad FEN) has only
    // valid games
    for seed in &PGN_SEEDS[..PGN_SEEDS.len() - 2] {
        let games = read_all(seed.as_bytes());
        assert!(!games.is_empty());
        for g in &games {
            let _c = case("read_pgn seed", seed);
            check_game(g.as_ref().expect("a seed game reads"));
        }
    }
    let mut read = 0;
    for i in 0..4_000 {
        let text: Vec<u8> = match i % 8 {
            0 => random_bytes(&mut rng, 200),
            1 => token_soup(&mut rng, &PGN_TOKENS, 40).into_bytes(),
            2 => {
                // two seeds spliced, then mutated
                let mut t = rng.pick(&PGN_SEEDS).as_bytes().to_vec();
                t.extend_from_slice(rng.pick(&PGN_SEEDS).as_bytes());
                mutate(&mut rng, &t, &PGN_TOKENS)
            }
            _ => {
                let seed = rng.pick(&PGN_SEEDS);
                mutate(&mut rng, seed.as_bytes(), &PGN_TOKENS)
            }
        };
        let _c = case("read_pgn", String::from_utf8_lossy(&text));
        let mut last_number = 0;
        for g in read_all(&text) {
            match g {
                Ok(g) => {
                    assert!(g.number > last_number);
                    last_number = g.number;
                    check_game(&g);
                    read += 1;
                }
                Err(e) => {
                    assert!(e.game >= 1);
                    let _ = e.to_string();
                }
            }
        }
    }
    assert!(read > 1_000, "only {read} games read");
}

const TAG_NAMES: [&str; 18] = [
    "Event",
    "Site",
    "Date",
    "Round",
    "White",
    "Black",
    "ECO",
    "Opening",
    "TimeControl",
    "Termination",
    "WhiteElo",
    "Annotator",
    "X_1",
    "bad name",
    "",
    "R\u{e9}sum\u{e9}",
    "Result",
    "FEN",
];

const TAG_VALUE_TOKENS: [&str; 20] = [
    "Alice",
    "\"",
    "\\",
    "\n",
    "\r",
    "\t",
    "]",
    "[",
    "{",
    "}",
    "\u{e9}",
    "\u{1F600}",
    " ",
    "?",
    "%",
    ";",
    "\u{7f}",
    "1-0",
    "time",
    "mate",
];

#[test]
fn pgn_writing_with_odd_tags() {
    let seeds = seed_positions();
    let mut rng = Rng::new(0x0000_0BAD_7A65_0005);
    let results: Vec<Option<GameResult>> = std::iter::once(None)
        .chain(GameEndType::ALL.into_iter().flat_map(|t| {
            t.reasons()
                .iter()
                .map(move |&r| Some(GameResult::new(t, r).unwrap()))
        }))
        .collect();
    for _ in 0..3_000 {
        let start_pos = random_position(&mut rng, &seeds, 6);
        let start = match rng.below(6) {
            0 => mutate_text(&mut rng, &FEN_SEEDS, &FEN_TOKENS),
            1 => partial_fen(&start_pos),
            _ => full_fen(&start_pos),
        };
        let mut pos = start_pos.clone();
        let mut moves: Vec<Option<String>> = Vec::new();
        for _ in 0..rng.below(40) {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let m = legal[rng.below(legal.len())];
            moves.push(Some(uci_of(m)));
            pos.play_unchecked(m);
        }
        if rng.one_in(8) && !moves.is_empty() {
            let i = rng.below(moves.len());
            moves[i] = if rng.one_in(2) {
                None
            } else {
                Some(token_soup(&mut rng, &MOVE_TOKENS, 2))
            };
        }
        let tags: Vec<(String, String)> = (0..rng.below(8))
            .map(|_| {
                let name = rng.pick(&TAG_NAMES).to_string();
                (name, token_soup(&mut rng, &TAG_VALUE_TOKENS, 6))
            })
            .collect();
        let result = results[rng.below(results.len())];
        let input = (&start, &moves, result, &tags);
        let _c = case("write_pgn", &input);
        let Ok(pgn) = write_pgn(&start, moves.iter().map(|m| m.as_deref()), result, &tags) else {
            continue;
        };
        let back = read_all(pgn.as_bytes());
        assert_eq!(back.len(), 1, "{pgn}");
        let g = back[0].as_ref().unwrap_or_else(|e| panic!("{e}\n{pgn}"));
        let want: Vec<String> = fens_to_uci(
            &parse_start(&start).unwrap(),
            &moves.iter().map(|m| m.clone().unwrap()).collect::<Vec<_>>(),
        );
        assert_eq!(g.moves, want, "{pgn}");
        assert_eq!(g.starting_position, six_fields(&start));
        let tag = |name: &str| {
            tags.iter()
                .rev()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.replace(['\n', '\r', '\t'], " "))
        };
        let read_tag = |name: &str| {
            g.tags
                .iter()
                .rev()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.clone())
        };
        for name in TAG_NAMES {
            let writable = !name.is_empty()
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && !["Result", "FEN", "SetUp", "Termination"].contains(&name);
            if writable {
                if let Some(v) = tag(name) {
                    assert_eq!(read_tag(name), Some(v), "tag {name}\n{pgn}");
                }
            }
        }
        // The result reads back as written: a Termination tag that says otherwise is not kept.
        assert_eq!(g.result, result, "{pgn}");
        match (result, tag("Termination")) {
            (None, t) => assert_eq!(read_tag("Termination"), t, "{pgn}"),
            (Some(r), Some(t)) if termination_reason(r.end_type(), Some(&t)) == r.reason() => {
                assert_eq!(read_tag("Termination"), Some(t), "{pgn}")
            }
            (Some(r), _) => assert_eq!(
                read_tag("Termination").as_deref(),
                termination_phrase(r.reason()),
                "{pgn}"
            ),
        }
    }
}

const TSV_SEEDS: [&str; 5] = [
    "eco\tname\tpgn\nA00\tAmar Opening\t1. Nh3\n",
    "\u{feff}eco\tname\tpgn\r\nC20\tKing's Pawn Game\t1. e4 e5\r\n\r\nB00\tNimzowitsch Defense\t1. e4 Nc6\r\n",
    "C60\tRuy Lopez\t1. e4 e5 2. Nf3 Nc6 3. Bb5\nE99\tKing's Indian Defense: Orthodox Variation, Classical System, Benko Attack\t1. d4 Nf6 2. c4 g6 3. Nc3 Bg7 4. e4 d6 5. Nf3 O-O 6. Be2 e5 7. O-O Nc6 8. d5 Ne7 9. Ne1 Nd7 10. g4\n",
    "D00\tQueen's Pawn Game\t1. d4 d5\nA00\tX\t1. e5\n",
    "A00\tBongcloud\t1. e4 e5 2. Ke2 {a comment} *\n",
];

const TSV_TOKENS: [&str; 16] = [
    "\t",
    "\n",
    "\r\n",
    "\u{feff}",
    "eco\tname\tpgn",
    "A00",
    "E99",
    "F00",
    "1.",
    "e4",
    "(",
    "{",
    "[FEN \"8/8 w - -\"]",
    " ",
    "\u{e9}",
    "1-0",
];

#[test]
fn lichess_openings_tsv() {
    let mut rng = Rng::new(0x0000_0E5C_0000_0006);
    let mut accepted = 0;
    for _ in 0..5_000 {
        let text = fuzz_text(&mut rng, &TSV_SEEDS, &TSV_TOKENS);
        let _c = case("parse_lichess_tsv", &text);
        let lines = text.split('\n').count();
        let mut last_line = 0;
        for o in parse_lichess_tsv(&text) {
            match o {
                Ok(o) => {
                    accepted += 1;
                    assert!(o.line > last_line && o.line <= lines);
                    last_line = o.line;
                    let b = o.eco.as_bytes();
                    assert!(b.len() == 3 && (b'A'..=b'E').contains(&b[0]));
                    assert!(!o.name.is_empty() && o.name.chars().count() <= 256);
                    assert_eq!(opening_partial_fen(&o.pgn), Ok(o.partial_fen.clone()));
                    let pos = parse_start(&o.partial_fen).expect("an opening's FEN parses");
                    assert_eq!(partial_fen(&pos), o.partial_fen);
                }
                Err(e) => {
                    assert!(e.line > last_line && e.line <= lines);
                    last_line = e.line;
                    assert!(e.to_string().starts_with("openings line"));
                }
            }
        }
        // the third field alone, as the glue passes a movetext
        let movetext = text.rsplit('\t').next().unwrap_or("");
        let _c = case("movetext_position / opening_partial_fen", &movetext);
        match movetext_position(movetext) {
            Ok(g) => {
                let fen = opening_partial_fen(movetext).expect("the same movetext");
                assert_eq!(fen, partial_fen(&g.end));
            }
            Err(_) => assert!(opening_partial_fen(movetext).is_err()),
        }
    }
    assert!(accepted > 500, "only {accepted} openings parsed");
}

// ---------------------------------------------------------------------------------------------
// Results and clocks.

#[test]
fn result_parsing() {
    let names: Vec<&str> = GameEndType::ALL
        .iter()
        .map(|t| t.as_str())
        .chain(GameEndReason::ALL.iter().map(|r| r.as_str()))
        .collect();
    let phrases = [
        "Time forfeit",
        "Black won by resignation",
        "Game drawn by 50-move rule",
        "timeout vs insufficient material",
        "abandoned",
        "Normal",
        "CHECKMATE",
    ];
    let tokens = [
        "_", "-", " ", "/", "1", "0", "½", "time", "mate", "\u{0}", "TIMEOUT",
    ];
    let seeds: Vec<&str> = names.iter().chain(phrases.iter()).copied().collect();
    let mut rng = Rng::new(0x0000_4E50_0000_0007);
    for _ in 0..20_000 {
        let t = fuzz_text(&mut rng, &seeds, &tokens);
        let r = fuzz_text(&mut rng, &seeds, &tokens);
        let _c = case("GameResult::parse / termination_reason", (&t, &r));
        if let Ok(end) = t.parse::<GameEndType>() {
            assert_eq!(end.as_str(), t);
        }
        if let Ok(reason) = r.parse::<GameEndReason>() {
            assert_eq!(reason.as_str(), r);
        }
        match GameResult::parse(&t, &r) {
            Ok(g) => assert_eq!(
                (g.end_type().as_str(), g.reason().as_str()),
                (t.as_str(), r.as_str())
            ),
            Err(e) => {
                let _ = e.to_string();
            }
        }
        for end in GameEndType::ALL {
            let reason = termination_reason(end, Some(&r));
            assert!(end.reasons().contains(&reason), "{end} {reason}");
        }
    }
    for end in GameEndType::ALL {
        for reason in GameEndReason::ALL {
            for moves in [0, 1, usize::MAX] {
                let kind = classify_game(end, reason, moves);
                assert_eq!(kind == GameKind::Played, moves > 0);
            }
        }
    }
}

fn any_interval(rng: &mut Rng) -> Interval {
    Interval {
        months: if rng.one_in(2) {
            any_i32(rng)
        } else {
            rng.int(-2, 24) as i32
        },
        days: if rng.one_in(2) {
            any_i32(rng)
        } else {
            rng.int(-2, 60) as i32
        },
        micros: if rng.one_in(2) {
            any_i64(rng)
        } else {
            rng.int(-1, 3_600_000_000)
        },
    }
}

#[test]
fn interval_and_clock_arithmetic() {
    let mut rng = Rng::new(0x000C_10C4_0000_0008);
    let fits = |v: i128, small: bool| {
        if small {
            i32::try_from(v).is_ok()
        } else {
            i64::try_from(v).is_ok()
        }
    };
    for _ in 0..20_000 {
        let (a, b) = (any_interval(&mut rng), any_interval(&mut rng));
        let factor = any_i32(&mut rng);
        let _c = case("Interval arithmetic", (a, b, factor));
        let sums = [
            (i128::from(a.months) + i128::from(b.months), true),
            (i128::from(a.days) + i128::from(b.days), true),
            (i128::from(a.micros) + i128::from(b.micros), false),
        ];
        match a.checked_add(b) {
            Ok(s) => {
                assert!(sums.iter().all(|&(v, small)| fits(v, small)));
                let got = [
                    i128::from(s.months),
                    i128::from(s.days),
                    i128::from(s.micros),
                ];
                assert_eq!(got, [sums[0].0, sums[1].0, sums[2].0]);
            }
            Err(e) => {
                assert!(!sums.iter().all(|&(v, small)| fits(v, small)));
                assert_eq!(e.to_string(), "interval out of range");
            }
        }
        let f = i128::from(factor);
        let products = [
            (i128::from(a.months) * f, true),
            (i128::from(a.days) * f, true),
            (i128::from(a.micros) * f, false),
        ];
        match a.checked_mul(factor) {
            Ok(p) => {
                let got = [
                    i128::from(p.months),
                    i128::from(p.days),
                    i128::from(p.micros),
                ];
                assert_eq!(got, [products[0].0, products[1].0, products[2].0]);
            }
            Err(_) => assert!(!products.iter().all(|&(v, small)| fits(v, small))),
        }
        // PostgreSQL's order: a total order consistent with the ordering key
        assert_eq!(a.cmp(&b), a.ordering_key().cmp(&b.ordering_key()));
        assert_eq!(a.cmp(&b), b.cmp(&a).reverse());
        assert_eq!(a.is_negative(), a.ordering_key() < 0);

        let clock = Clock {
            starting_time: a,
            move_increase: b,
        };
        let want = b.checked_mul(factor).and_then(|inc| a.checked_add(inc));
        assert_eq!(clock.base_time(factor), want);
        let window = RankingWindow {
            playtime_min: any_interval(&mut rng),
            playtime_max: if rng.one_in(3) {
                None
            } else {
                Some(any_interval(&mut rng))
            },
            extra_move_multiplier: factor,
            include_bots: rng.one_in(2),
        };
        let game = GameFacts {
            ranked_local: !rng.one_in(5),
            clock: if rng.one_in(6) { None } else { Some(clock) },
            white_is_bot: rng.one_in(4),
            black_is_bot: rng.one_in(4),
        };
        let _c = case("RankingWindow::counts", (window, game));
        match window.counts(&game) {
            Ok(true) => {
                let base = want.unwrap();
                assert!(game.ranked_local && game.clock.is_some());
                assert!(window.include_bots || !(game.white_is_bot || game.black_is_bot));
                assert!(
                    base >= window.playtime_min && window.playtime_max.is_none_or(|m| base < m)
                );
            }
            Ok(false) => {}
            Err(_) => assert!(want.is_err()),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Rating maths.

/// `e` is an expectation: finite, in [0, 1].
fn assert_probability(e: f64) {
    assert!(e.is_finite() && (0.0..=1.0).contains(&e), "expectation {e}");
}

#[test]
fn elo_and_skemino_edges() {
    let mut rng = Rng::new(0x0000_0E10_0000_0009);
    for _ in 0..20_000 {
        let (a, b, s, k) = (
            rating_f64(&mut rng),
            rating_f64(&mut rng),
            score_f64(&mut rng),
            if rng.one_in(3) {
                any_f64(&mut rng)
            } else {
                rng.uniform(0.0, 60.0)
            },
        );
        let finite = a.is_finite() && b.is_finite();
        let _c = case("elo::expected / elo::update", (a, b, s, k));
        match elo::expected(a, b) {
            Ok(e) => {
                assert!(finite);
                assert_probability(e);
                let r = elo::expected(b, a).unwrap();
                assert!((e + r - 1.0).abs() <= 1e-12, "{e} + {r}");
            }
            Err(err) => {
                assert!(!finite);
                assert_eq!(err.kind, RatingErrorKind::OutOfRange);
            }
        }
        match elo::update(a, b, s, k) {
            Ok(r) => {
                assert!(finite && k.is_finite() && k >= 0.0 && (0.0..=1.0).contains(&s));
                assert!(r.is_finite());
            }
            Err(err) => {
                // checked in this order: ratings, score, k, the new rating
                let want = if !finite || !s.is_finite() {
                    RatingErrorKind::OutOfRange
                } else if !(0.0..=1.0).contains(&s) || (k.is_finite() && k < 0.0) {
                    RatingErrorKind::InvalidParameter
                } else {
                    RatingErrorKind::OutOfRange // k is NaN or infinite, or the new rating overflows
                };
                assert_eq!(err.kind, want, "{err}");
            }
        }

        let _c = case("skemino", (a, b, s));
        match skemino::k(a, b) {
            Ok(kk) => assert!(kk.is_finite() && kk > 1.0, "K {kk}"),
            Err(err) => assert_eq!(err.kind, RatingErrorKind::OutOfRange),
        }
        match skemino::expected(a, b) {
            Ok(e) => {
                assert_probability(e);
                let r = skemino::expected(b, a).unwrap();
                assert!((e + r - 1.0).abs() <= 1e-12, "{e} + {r}");
            }
            Err(err) => assert_eq!(err.kind, RatingErrorKind::OutOfRange),
        }
        match skemino::update(a, b, s) {
            Ok((a2, b2)) => {
                assert!(a2.is_finite() && b2.is_finite());
                let drift = (a2 - a) + (b2 - b);
                assert!(
                    drift.abs() <= 1e-9 + 4.0 * f64::EPSILON * (a.abs() + b.abs()),
                    "not zero-sum: {drift}"
                );
            }
            Err(err) => assert!(matches!(
                err.kind,
                RatingErrorKind::OutOfRange | RatingErrorKind::InvalidParameter
            )),
        }
        assert_eq!(skemino::level(a).is_ok(), a.is_finite());
    }
}

#[test]
fn fide_edges() {
    let mut rng = Rng::new(0x0000_F1DE_0000_000A);
    // dp: exhaustive over the domain and its edges
    let mut previous = i32::MIN;
    for p in 0..=100 {
        let d = fide::dp(p).unwrap();
        assert!(d >= previous && d.abs() <= 800);
        assert_eq!(d, -fide::dp(100 - p).unwrap());
        previous = d;
    }
    for p in [i32::MIN, -1, 101, i32::MAX] {
        assert_eq!(
            fide::dp(p).unwrap_err().kind,
            RatingErrorKind::InvalidParameter
        );
    }
    for _ in 0..20_000 {
        let (d1, d2) = (any_i64(&mut rng), any_i64(&mut rng));
        let _c = case("fide::pd_hundredths", (d1, d2));
        let (p1, p2) = (fide::pd_hundredths(d1), fide::pd_hundredths(d2));
        assert!((0..=100).contains(&p1));
        if d1 != i64::MIN {
            assert_eq!(p1 + fide::pd_hundredths(-d1), 100);
        }
        assert!(d1 > d2 || p1 <= p2, "not monotone");

        let (r, o) = (any_i32(&mut rng), any_i32(&mut rng));
        let _c = case("fide::counted_difference / expected / k_factor", (r, o));
        let d = fide::counted_difference(r, o);
        if r < fide::NO_CAP_FROM {
            assert!(d.abs() <= 400);
        } else {
            assert_eq!(d, i64::from(r) - i64::from(o));
        }
        assert_probability(fide::expected(r, o));
        let games = any_i32(&mut rng);
        let age = if rng.one_in(3) {
            None
        } else {
            Some(any_i32(&mut rng))
        };
        match fide::k_factor(r, games, age, rng.one_in(2)) {
            Ok(k) => assert!([10, 20, 40].contains(&k)),
            Err(e) => {
                assert!(games < 0 || age.is_some_and(|a| a < 0));
                assert_eq!(e.kind, RatingErrorKind::InvalidParameter);
            }
        }

        // a rating period: empty, mismatched, long, extreme ratings
        let n = rng.pick(&[0, 1, 2, 5, 20, 40]);
        let opponents: Vec<i32> = (0..n).map(|_| any_i32(&mut rng)).collect();
        let scores: Vec<f64> = (0..n + usize::from(rng.one_in(10)))
            .map(|_| score_f64(&mut rng))
            .collect();
        let k = if rng.one_in(4) {
            any_i32(&mut rng)
        } else {
            rng.pick(&[10, 20, 40])
        };
        let _c = case("fide::rating_change", (r, k, &opponents, &scores));
        match fide::rating_change(r, k, &opponents, &scores) {
            Ok(change) => {
                assert_eq!(opponents.len(), scores.len());
                assert!(k > 0);
                assert!(change.abs() <= 700, "K·n ≤ 700 bounds the change: {change}");
            }
            Err(e) => {
                // the first score that is not 0, ½ or 1 decides: NaN / ±inf are out of range
                let first_bad = scores.iter().find(|s| ![0.0, 0.5, 1.0].contains(*s));
                let want = if opponents.len() != scores.len() {
                    RatingErrorKind::LengthMismatch
                } else if k > 0 && first_bad.is_some_and(|s| !s.is_finite()) {
                    RatingErrorKind::OutOfRange
                } else {
                    RatingErrorKind::InvalidParameter
                };
                assert_eq!(e.kind, want, "{e}");
            }
        }

        // ARO, TPR, PTP of a tournament
        let n = rng.below(12);
        let opponents: Vec<i32> = (0..n)
            .map(|_| {
                if rng.one_in(3) {
                    any_i32(&mut rng)
                } else {
                    rng.int(1000, 2800) as i32
                }
            })
            .collect();
        let score = if rng.one_in(5) {
            any_f64(&mut rng)
        } else {
            rng.below(2 * n + 1) as f64 / 2.0
        };
        let _c = case("fide::aro / tpr / ptp", (&opponents, score));
        let lowest = opponents.iter().min().map(|&x| i64::from(x));
        let highest = opponents.iter().max().map(|&x| i64::from(x));
        match fide::aro(&opponents) {
            Ok(aro) => {
                assert!(lowest.unwrap() <= i64::from(aro) && i64::from(aro) <= highest.unwrap())
            }
            Err(e) => {
                assert!(opponents.is_empty());
                assert_eq!(e.kind, RatingErrorKind::InvalidParameter);
            }
        }
        match fide::tpr(&opponents, score) {
            Ok(tpr) => {
                let tpr = i64::from(tpr);
                assert!(
                    lowest.unwrap() - 800 <= tpr && tpr <= highest.unwrap() + 800,
                    "TPR {tpr}"
                );
            }
            Err(e) => assert_ne!(e.kind, RatingErrorKind::LengthMismatch),
        }
        match fide::ptp(&opponents, score) {
            Ok(ptp) => {
                let (ptp, lowest, highest) = (i64::from(ptp), lowest.unwrap(), highest.unwrap());
                assert!(lowest - 800 <= ptp && ptp <= highest + 736, "PTP {ptp}");
                let target = (score * 100.0) as i64;
                let expected_at = |r: i64| -> i64 {
                    opponents
                        .iter()
                        .map(|&o| i64::from(fide::pd_hundredths(r - i64::from(o))))
                        .sum()
                };
                if score == 0.0 {
                    assert_eq!(ptp, lowest - 800);
                } else {
                    // the lowest rating whose expected score reaches the score
                    assert!(expected_at(ptp) >= target && expected_at(ptp - 1) < target);
                }
            }
            Err(e) => assert_ne!(e.kind, RatingErrorKind::LengthMismatch),
        }
    }
}

#[test]
fn performance_rating_edges() {
    let mut rng = Rng::new(0x0000_9E8F_0000_000B);
    // finite but extreme ratings: fields spanning the whole f64 range
    let extremes = [
        f64::MAX,
        f64::MIN,
        1e308,
        -1e308,
        1e300,
        -1e300,
        1e15,
        0.0,
        1500.0,
    ];
    for i in 0..12_000 {
        let realistic = i % 3 == 0;
        let n = rng.below(16);
        let opponents: Vec<f64> = (0..n)
            .map(|_| match i % 3 {
                0 => rng.uniform(800.0, 2900.0),
                1 => rating_f64(&mut rng),
                _ => rng.pick(&extremes),
            })
            .collect();
        let nf = n as f64;
        let score = match rng.below(6) {
            0 => any_f64(&mut rng),
            1 => rng.uniform(0.0, nf),
            _ => rng.below(2 * n + 1) as f64 / 2.0,
        };
        let _c = case("performance_rating", (&opponents, score));
        let lowest = opponents.iter().copied().fold(f64::INFINITY, f64::min);
        let highest = opponents.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let valid = n > 0
            && opponents.iter().all(|o| o.is_finite())
            && score.is_finite()
            && (0.0..=nf).contains(&score);
        match performance::performance_rating(&opponents, score) {
            Ok(r) => {
                assert!(valid);
                assert!(r.is_finite(), "performance {r}");
                assert!(
                    lowest - performance::MARGIN <= r && r <= highest + performance::MARGIN,
                    "performance {r}"
                );
                if realistic {
                    let sum: f64 = opponents
                        .iter()
                        .map(|&o| elo::expected(r, o).unwrap())
                        .sum();
                    let inside =
                        r > lowest - performance::MARGIN && r < highest + performance::MARGIN;
                    if inside {
                        assert!(
                            (sum - score).abs() <= 1e-9 * nf,
                            "Σ E = {sum}, score {score}"
                        );
                    }
                    // monotone in the score
                    let more = (score + 0.5).min(nf);
                    let r2 = performance::performance_rating(&opponents, more).unwrap();
                    assert!(r2 >= r - 1e-9, "{r2} < {r}");
                }
            }
            Err(e) => {
                assert!(!valid);
                let want =
                    if n > 0 && !(opponents.iter().all(|o| o.is_finite()) && score.is_finite()) {
                        RatingErrorKind::OutOfRange
                    } else {
                        RatingErrorKind::InvalidParameter
                    };
                assert_eq!(e.kind, want, "{e}");
            }
        }
    }
}

/// A Glicko-2 rating: usually realistic, sometimes valid but extreme, sometimes invalid.
fn any_glicko(rng: &mut Rng) -> Rating {
    match rng.below(8) {
        0 | 1 => Rating::new(rating_f64(rng), any_f64(rng), any_f64(rng)),
        2 => Rating::new(
            rng.pick(&[1e300, -1e300, 1e15, -1e15, 0.0, 1500.0, f64::MAX]),
            rng.pick(&[5e-324, 1e-300, 1e-9, 1.0, 1e6, 1e300, f64::MAX]),
            rng.pick(&[5e-324, 1e-300, 1e-9, 0.06, 10.0, 1e300, f64::MAX]),
        ),
        _ => Rating::new(
            rng.uniform(500.0, 2800.0),
            rng.uniform(30.0, 350.0),
            rng.uniform(0.03, 0.1),
        ),
    }
}

fn any_bounds(rng: &mut Rng) -> Bounds {
    match rng.below(6) {
        0 => Bounds::NONE,
        1 => Bounds {
            rd_min: 45.0,
            rd_max: 500.0,
            volatility_max: 0.1,
            max_change: 700.0,
            epsilon: 1e-7,
            rd_growth: crate::rating::glicko2::RdGrowth::WholePeriods,
        },
        2 => Bounds {
            rd_min: any_f64(rng),
            rd_max: any_f64(rng),
            volatility_max: any_f64(rng),
            max_change: any_f64(rng),
            epsilon: any_f64(rng),
            rd_growth: crate::rating::glicko2::RdGrowth::WholePeriodsRatingScale,
        },
        _ => Bounds::default(),
    }
}

fn any_tau(rng: &mut Rng) -> f64 {
    if rng.one_in(4) {
        any_f64(rng)
    } else {
        rng.uniform(0.2, 1.2)
    }
}

/// A Glicko-2 result is finite and within its bounds.
fn check_glicko(r: &Rating, bounds: &Bounds) {
    assert!(
        r.rating.is_finite() && r.rd.is_finite() && r.volatility.is_finite(),
        "{r:?}"
    );
    assert!(bounds.rd_min <= r.rd && r.rd <= bounds.rd_max, "{r:?}");
    assert!(r.volatility <= bounds.volatility_max, "{r:?}");
}

#[test]
fn glicko2_edges() {
    let mut rng = Rng::new(0x0000_6C12_0000_000C);
    for _ in 0..10_000 {
        let player = any_glicko(&mut rng);
        let n = rng.below(8);
        let opponents: Vec<Rating> = (0..n).map(|_| any_glicko(&mut rng)).collect();
        let scores: Vec<f64> = (0..n + usize::from(rng.one_in(10)))
            .map(|_| score_f64(&mut rng))
            .collect();
        let (tau, bounds) = (any_tau(&mut rng), any_bounds(&mut rng));
        let _c = case(
            "glicko2::update / Period",
            (player, &opponents, &scores, tau, bounds),
        );
        let valid_player = player.validate("p").is_ok();
        assert_eq!(
            valid_player,
            player.rating.is_finite()
                && player.rd.is_finite()
                && player.rd > 0.0
                && player.volatility.is_finite()
                && player.volatility > 0.0
        );
        let updated = glicko2::update(player, &opponents, &scores, tau, &bounds);
        match &updated {
            Ok(r) => check_glicko(r, &bounds),
            Err(e) => {
                if opponents.len() != scores.len() {
                    assert_eq!(e.kind, RatingErrorKind::LengthMismatch);
                }
            }
        }
        if opponents.len() == scores.len() {
            // the same period streamed game by game gives the same result
            let streamed = Period::new(player).and_then(|mut p| {
                for (&o, &s) in opponents.iter().zip(&scores) {
                    p.add(o, s)?;
                }
                p.finish(tau, &bounds)
            });
            assert_eq!(
                streamed.is_ok(),
                updated.is_ok(),
                "{streamed:?} vs {updated:?}"
            );
            if let (Ok(a), Ok(b)) = (&streamed, &updated) {
                assert_eq!(a, b);
            }
        }

        let (white, black, s) = (
            any_glicko(&mut rng),
            any_glicko(&mut rng),
            score_f64(&mut rng),
        );
        let _c = case("glicko2::game / expected", (white, black, s, tau, bounds));
        match glicko2::game(white, black, s, tau, &bounds) {
            Ok((w, b)) => {
                check_glicko(&w, &bounds);
                check_glicko(&b, &bounds);
                if [0.0, 0.5, 1.0].contains(&s) {
                    assert_eq!(
                        glicko2::game(black, white, 1.0 - s, tau, &bounds),
                        Ok((b, w))
                    );
                }
            }
            Err(e) => {
                let _ = e.to_string();
            }
        }
        match glicko2::expected(white, black) {
            Ok(e) => {
                assert_probability(e);
                let r = glicko2::expected(black, white).unwrap();
                assert!((e + r - 1.0).abs() <= 1e-12);
            }
            Err(_) => assert!(white.validate("w").is_err() || black.validate("b").is_err()),
        }

        let periods = if rng.one_in(3) {
            any_f64(&mut rng)
        } else {
            rng.uniform(0.0, 100.0)
        };
        let _c = case("glicko2::decay", (white, periods, bounds));
        if let Ok(d) = glicko2::decay(white, periods, &bounds) {
            // only the RD changes, within its bounds
            assert!(
                d.rd.is_finite() && bounds.rd_min <= d.rd && d.rd <= bounds.rd_max,
                "{d:?}"
            );
            assert_eq!((d.rating, d.volatility), (white.rating, white.volatility));
        }
        let k = any_f64(&mut rng);
        if let Ok(c) = glicko2::conservative(white, k) {
            assert!(c.is_finite());
        }
        assert_eq!(
            glicko2::is_provisional(white, k).is_ok(),
            white.validate("w").is_ok() && k.is_finite()
        );

        // free-for-all and whole periods with odd indices
        let players: Vec<Rating> = (0..rng.below(7)).map(|_| any_glicko(&mut rng)).collect();
        let placements: Vec<f64> = (0..players.len() + usize::from(rng.one_in(8)))
            .map(|_| {
                if rng.one_in(5) {
                    any_f64(&mut rng)
                } else {
                    rng.below(4) as f64
                }
            })
            .collect();
        let _c = case("glicko2::multiplayer", (&players, &placements, tau, bounds));
        if let Ok(out) = glicko2::multiplayer(&players, &placements, tau, &bounds) {
            assert_eq!(out.len(), players.len());
            out.iter().for_each(|r| check_glicko(r, &bounds));
        }
        let games = rng.below(10);
        let index = |rng: &mut Rng| {
            if rng.one_in(10) {
                rng.pick(&[usize::MAX, players.len(), players.len() + 1])
            } else {
                rng.below(players.len().max(1))
            }
        };
        let white_ix: Vec<usize> = (0..games).map(|_| index(&mut rng)).collect();
        let black_ix: Vec<usize> = (0..games + usize::from(rng.one_in(10)))
            .map(|_| index(&mut rng))
            .collect();
        let period_scores: Vec<f64> = (0..games).map(|_| score_f64(&mut rng)).collect();
        let _c = case(
            "glicko2::rate_period",
            (&players, &white_ix, &black_ix, &period_scores),
        );
        if let Ok(out) =
            glicko2::rate_period(&players, &white_ix, &black_ix, &period_scores, tau, &bounds)
        {
            assert_eq!(out.len(), players.len());
            out.iter().for_each(|r| check_glicko(r, &bounds));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Rankings.

fn any_system(rng: &mut Rng) -> RatingSystem {
    match rng.below(3) {
        0 => RatingSystem::Elo {
            starting: rating_f64(rng),
            k: if rng.one_in(4) {
                any_f64(rng)
            } else {
                rng.uniform(0.0, 60.0)
            },
        },
        1 => RatingSystem::Skemino {
            starting: rating_f64(rng),
        },
        _ => RatingSystem::Glicko2 {
            starting: any_glicko(rng),
            tau: any_tau(rng),
            rule: rng.pick(&[
                crate::rating::glicko2::GameRule::Glickman,
                crate::rating::glicko2::GameRule::Lichess,
            ]),
            period_micros: rng.pick(&[
                None,
                Some(0),
                Some(-1),
                Some(1),
                Some(i64::MAX),
                Some(i64::MIN),
                Some(period_from_days(7.0)),
            ]),
            bounds: any_bounds(rng),
        },
    }
}

fn check_state(s: &PlayerState) {
    assert!(s.rating.is_finite(), "{s:?}");
    assert!(
        s.rd.is_none_or(f64::is_finite) && s.volatility.is_none_or(f64::is_finite),
        "{s:?}"
    );
}

#[test]
fn ranking_replay_with_odd_inputs() {
    let mut rng = Rng::new(0x0000_4A4E_0000_000D);
    let names = ["a", "b", "c", "d", "e"];
    for _ in 0..8_000 {
        let system = any_system(&mut rng);
        let mut states: HashMap<String, PlayerState> = HashMap::new();
        for name in names {
            if rng.one_in(3) {
                let start = system.start();
                states.insert(
                    name.to_string(),
                    PlayerState {
                        rating: if rng.one_in(2) {
                            start.rating
                        } else {
                            rating_f64(&mut rng)
                        },
                        rd: start
                            .rd
                            .map(|rd| if rng.one_in(3) { any_f64(&mut rng) } else { rd }),
                        volatility: start.volatility,
                        last_played: if rng.one_in(2) {
                            None
                        } else {
                            Some(any_i64(&mut rng))
                        },
                    },
                );
            }
        }
        let mut at = if rng.one_in(3) { any_i64(&mut rng) } else { 0 };
        let games: Vec<RatedGame<String>> = (0..rng.below(12))
            .map(|id| {
                at = match rng.below(10) {
                    0 => any_i64(&mut rng), // anywhere, maybe out of order
                    1 => at,                // same time: ordered by id
                    _ => at.saturating_add(rng.int(1, 1_000_000_000_000)),
                };
                RatedGame {
                    key: GameKey {
                        played_at: at,
                        game_id: if rng.one_in(15) { 0 } else { id as i32 },
                    },
                    white: rng.pick(&names).to_string(),
                    black: rng.pick(&names).to_string(),
                    white_score: score_f64(&mut rng),
                }
            })
            .collect();
        // each player's tip: the state drawn, as after a game at `at` (a newcomer otherwise)
        let tips: HashMap<String, Tip> = states
            .iter()
            .map(|(p, s)| {
                let standing = ledger::Standing {
                    state: *s,
                    ..newcomer(&system)
                };
                let last = GameKey {
                    played_at: s.last_played.unwrap_or(i64::MIN),
                    game_id: 0,
                };
                (
                    p.clone(),
                    Tip {
                        entry: 1,
                        standing,
                        last,
                    },
                )
            })
            .collect();
        let _c = case("ranking::rate", (system, &states, &games));
        let numbered =
            |tips: &mut HashMap<String, Tip>, games: &[RatedGame<String>], next: &mut i32| {
                rate(&system, tips, games, |_, _| {
                    *next += 1;
                    *next
                })
            };
        let mut after = tips.clone();
        match numbered(&mut after, &games, &mut 1) {
            Ok(out) => {
                assert_eq!(out.len(), 2 * games.len());
                for (pair, g) in out.chunks(2).zip(&games) {
                    check_state(&pair[0].state);
                    check_state(&pair[1].state);
                    // each game's entries black's first, as the original numbers them
                    assert_eq!((&pair[0].player, &pair[1].player), (&g.black, &g.white));
                    assert_eq!(
                        (pair[0].state.last_played, pair[1].state.last_played),
                        (Some(g.key.played_at), Some(g.key.played_at))
                    );
                }
                // the tip left for each player is their last entry, chained to the one before
                for g in &games {
                    let mine: Vec<_> = out.iter().filter(|e| e.player == g.white).collect();
                    let last = mine.last().expect("white has an entry");
                    assert_eq!(after[&g.white].entry, last.id);
                    assert_eq!(after[&g.white].standing.state, last.state);
                    let first_previous = tips.get(&g.white).map(|t| t.entry);
                    assert_eq!(mine[0].previous, first_previous);
                    for w in mine.windows(2) {
                        assert_eq!(w[1].previous, Some(w[0].id));
                    }
                    // a record counts every game, and the peak is the best rating after one
                    let s = after[&g.white].standing;
                    let before_games = tips.get(&g.white).map_or(0, |t| t.standing.games);
                    assert_eq!(s.games as usize, before_games as usize + mine.len());
                    assert_eq!(s.wins + s.draws + s.losses, s.games);
                    let peak = mine
                        .iter()
                        .map(|e| e.state.rating)
                        .fold(f64::NEG_INFINITY, f64::max);
                    assert_eq!(
                        s.peak,
                        peak.max(
                            tips.get(&g.white)
                                .map_or(f64::NEG_INFINITY, |t| t.standing.peak)
                        )
                    );
                }
                // a history rated in two parts equals one rated at once
                let cut = rng.below(games.len() + 1);
                let (mut split, mut next) = (tips.clone(), 1);
                let mut parts = numbered(&mut split, &games[..cut], &mut next).unwrap();
                parts.extend(numbered(&mut split, &games[cut..], &mut next).unwrap());
                assert_eq!(parts, out);
                let states_of = |tips: &HashMap<String, Tip>| -> HashMap<String, PlayerState> {
                    tips.iter()
                        .map(|(p, t)| (p.clone(), t.standing.state))
                        .collect()
                };
                assert_eq!(
                    state_bits(&states_of(&split)),
                    state_bits(&states_of(&after))
                );
                let entries_of = |tips: &HashMap<String, Tip>| -> Vec<(String, i32, GameKey, i32)> {
                    let mut v: Vec<_> = tips
                        .iter()
                        .map(|(p, t)| (p.clone(), t.entry, t.last, t.standing.games))
                        .collect();
                    v.sort_by(|a, b| a.0.cmp(&b.0));
                    v
                };
                assert_eq!(entries_of(&split), entries_of(&after));
                // `appendable` matches its definition
                let latest: HashMap<String, GameKey> = games[..cut]
                    .iter()
                    .flat_map(|g| [(g.white.clone(), g.key), (g.black.clone(), g.key)])
                    .collect();
                let rest = &games[cut..];
                // (every player's latest game before the cut precedes their first one after it)
                let first_new = |p: &str| {
                    let mine = rest.iter().filter(|h| h.white == p || h.black == p);
                    mine.map(|h| h.key).min()
                };
                let want = rest
                    .iter()
                    .flat_map(|g| [g.white.as_str(), g.black.as_str()])
                    .all(|p| latest.get(p).is_none_or(|&k| Some(k) < first_new(p)));
                assert_eq!(appendable(&latest, rest), want);
            }
            Err(e) => {
                let _ = e.to_string();
            }
        }
        // one game between any two states
        let (w, b) = (
            random_state(&mut rng, &system),
            random_state(&mut rng, &system),
        );
        let (s, t) = (score_f64(&mut rng), any_i64(&mut rng));
        let _c = case("RatingSystem::rate", (system, w, b, s, t));
        if let Ok((w2, b2)) = system.rate(&w, &b, s, t) {
            check_state(&w2);
            check_state(&b2);
        }
    }
    // stored() keeps finite values finite and rounds to 10 decimals
    for x in F64_EDGES {
        let _c = case("stored", &x);
        assert_eq!(stored(x).is_finite(), x.is_finite());
    }
}

/// The states by player, bit for bit (a NaN RD given as input compares equal to itself).
fn state_bits(states: &HashMap<String, PlayerState>) -> Vec<(String, [Option<u64>; 4])> {
    let mut v: Vec<_> = states
        .iter()
        .map(|(p, s)| {
            let bits = [
                Some(s.rating.to_bits()),
                s.rd.map(f64::to_bits),
                s.volatility.map(f64::to_bits),
                s.last_played.map(|t| t as u64),
            ];
            (p.clone(), bits)
        })
        .collect();
    v.sort();
    v
}

fn random_state(rng: &mut Rng, system: &RatingSystem) -> PlayerState {
    let start = system.start();
    PlayerState {
        rating: rating_f64(rng),
        rd: start
            .rd
            .map(|rd| if rng.one_in(4) { any_f64(rng) } else { rd }),
        volatility: start
            .volatility
            .map(|v| if rng.one_in(4) { any_f64(rng) } else { v }),
        last_played: if rng.one_in(3) {
            None
        } else {
            Some(any_i64(rng))
        },
    }
}

// ---------------------------------------------------------------------------------------------
// Tournaments.

const ORDER_SEEDS: [&str; 7] = [
    "DE, BH-C1, SB",
    "TPR",
    "",
    "bh/c1,sb-c1",
    "DE,DE, WIN",
    "ARO-C1 , PTP, WON",
    "BH, BH-C1, SB, SB-C1, WIN, WON, ARO, ARO-C1, TPR, PTP, DE",
];
const ORDER_TOKENS: [&str; 18] = [
    "DE", "BH", "-C1", "/C1", "SB", "WIN", "WON", "ARO", "TPR", "PTP", ",", ", ", " ", "c1", "-",
    "/", "\u{130}", "\t",
];

#[test]
fn tie_break_orders() {
    let mut rng = Rng::new(0x0000_71EB_0000_000E);
    for _ in 0..20_000 {
        let text = fuzz_text(&mut rng, &ORDER_SEEDS, &ORDER_TOKENS);
        let _c = case("parse_order / TieBreak::from_str", &text);
        match parse_order(&text) {
            Ok(order) => {
                for (i, t) in order.iter().enumerate() {
                    assert!(
                        *t == TieBreak::DirectEncounter || !order[..i].contains(t),
                        "{t} twice"
                    );
                }
                let canonical = format_order(&order);
                assert_eq!(parse_order(&canonical), Ok(order));
            }
            Err(e) => assert_eq!(e.kind, TournamentErrorKind::InvalidParameter),
        }
        match text.parse::<TieBreak>() {
            Ok(t) => assert_eq!(t.code(), text.trim().to_ascii_uppercase().replace('/', "-")),
            Err(e) => assert_eq!(e.kind, TournamentErrorKind::InvalidParameter),
        }
    }
}

/// Every game appears on both players' cards, mirrored.
fn check_cards(t: &Tournament) {
    for p in 0..t.player_count() as PlayerNo {
        assert_eq!(t.card(p).len(), t.round_count() as usize);
        for (r, &e) in t.card(p).iter().enumerate() {
            let mirrored = match e {
                RoundEntry::Game {
                    opponent,
                    colour,
                    outcome,
                    moved,
                } => Some((
                    opponent,
                    RoundEntry::Game {
                        opponent: p,
                        colour: colour.opposite(),
                        outcome: outcome.reversed(),
                        moved,
                    },
                )),
                RoundEntry::Forfeit {
                    opponent,
                    colour,
                    won,
                } => Some((
                    opponent,
                    RoundEntry::Forfeit {
                        opponent: p,
                        colour: colour.opposite(),
                        won: !won,
                    },
                )),
                _ => None,
            };
            if let Some((o, want)) = mirrored {
                assert_ne!(o, p);
                assert_eq!(t.card(o)[r], want);
            }
        }
    }
}

/// Standings are a ranking of every player; without DE they follow the sort key.
fn check_standings(t: &Tournament, upto: u32, order: &[TieBreak], edition: Edition) {
    let table = standings(t, upto, order, edition);
    let values = values_after(t, upto, edition);
    assert_eq!(table.len(), t.player_count());
    let mut seen = vec![false; t.player_count()];
    for (i, s) in table.iter().enumerate() {
        assert!(
            !std::mem::replace(&mut seen[s.player as usize], true),
            "player listed twice"
        );
        assert_eq!(s.place as usize, i + 1);
        assert_eq!(s.values, values[s.player as usize]);
        assert!(
            s.rank == s.place || (i > 0 && s.rank == table[i - 1].rank),
            "rank {} at place {}",
            s.rank,
            s.place
        );
        if i > 0 {
            assert!(table[i - 1].values.points_x2 >= s.values.points_x2);
            if !order.contains(&TieBreak::DirectEncounter) {
                let (a, b) = (
                    sort_key(&table[i - 1].values, order),
                    sort_key(&s.values, order),
                );
                assert!(a >= b, "sort key out of order");
                assert_eq!(a == b, s.rank == table[i - 1].rank);
            }
        }
    }
}

#[test]
fn tournament_operations_and_exports() {
    let mut rng = Rng::new(0x0000_7041_0000_000F);
    let mut rows_checked = 0;
    for _ in 0..1_000 {
        let rounds = rng.pick(&[0, 1, 2, 3, 5, 7, 9]);
        let n = rng.below(11);
        let ratings: Vec<Option<i32>> = (0..n)
            .map(|_| match rng.below(6) {
                0 => None,
                1 => Some(any_i32(&mut rng)),
                _ => Some(rng.int(1000, 2800) as i32),
            })
            .collect();
        let Ok(mut t) = Tournament::new(rounds, ratings.clone()) else {
            assert_eq!(rounds, 0);
            continue;
        };
        assert_eq!(
            (t.round_count(), t.player_count(), t.last_round()),
            (rounds, n, 0)
        );
        let any_round = |rng: &mut Rng| {
            if rng.one_in(8) {
                rng.pick(&[0, rounds + 1, u32::MAX])
            } else {
                1 + rng.below(rounds as usize) as u32
            }
        };
        let any_player = |rng: &mut Rng| {
            if rng.one_in(8) {
                rng.pick(&[n as u32, n as u32 + 1, u32::MAX])
            } else {
                rng.below(n.max(1)) as u32
            }
        };
        for _ in 0..rng.below(60) {
            let before = t.clone();
            let (round, p, q) = (
                any_round(&mut rng),
                any_player(&mut rng),
                any_player(&mut rng),
            );
            let op = rng.below(6);
            let _c = case("Tournament operation", (op, round, p, q, &before));
            let result = match op {
                0..=2 => {
                    let outcome = rng.pick(&[Outcome::Win, Outcome::Draw, Outcome::Loss]);
                    let kind = rng.pick(&[GameKind::Played, GameKind::NoMove, GameKind::Forfeit]);
                    t.add_game(round, p, q, outcome, kind).map(|_| vec![p, q])
                }
                3 => {
                    let kind = rng.pick(&[
                        ByeKind::PairingAllocated,
                        ByeKind::Full,
                        ByeKind::Half,
                        ByeKind::Zero,
                    ]);
                    t.add_bye(round, p, kind).map(|_| vec![p])
                }
                _ => t.remove(round, p),
            };
            match result {
                Ok(changed) => {
                    assert!(round >= 1 && round <= rounds);
                    assert!(changed.iter().all(|&c| (c as usize) < n));
                    for p in 0..n as PlayerNo {
                        if !changed.contains(&p) {
                            assert_eq!(
                                t.card(p),
                                before.card(p),
                                "an operation changed another player"
                            );
                        }
                    }
                }
                Err(e) => {
                    assert_eq!(t, before, "a refused operation changed the tournament: {e}");
                    assert_ne!(e.kind, TournamentErrorKind::OutOfRange);
                }
            }
            check_cards(&t);
        }
        let last = t.last_round();
        assert!(last <= rounds);

        // standings after every round (and beyond), random orders and editions
        let edition = rng.pick(&[Edition::C07_2024, Edition::C07_2026]);
        let order: Vec<TieBreak> = (0..rng.below(5))
            .map(|_| rng.pick(&TieBreak::ALL))
            .collect();
        let _c = case("standings", (&t, &order, edition));
        for upto in 0..=rounds + 1 {
            check_standings(&t, upto, &order, edition);
        }
        check_standings(&t, u32::MAX, &order, edition);

        // the incremental refresh computes the same values as a computation from scratch
        if n > 0 {
            let changed: Vec<(PlayerNo, u32)> = (0..1 + rng.below(3))
                .map(|_| {
                    (
                        rng.below(n) as PlayerNo,
                        rng.below(rounds as usize + 2) as u32,
                    )
                })
                .collect();
            let _c = case("refresh", (&t, &changed, last));
            let rows = refresh(&t, &changed, last, edition).unwrap();
            for (p, s, v) in rows {
                assert!(s >= 1 && s <= last);
                assert_eq!(v, values_after(&t, s, edition)[p as usize]);
                rows_checked += 1;
            }
        }

        // TRF-16 with odd names and dates
        let name_tokens = [
            "Carlsen, Magnus",
            "\u{e9}",
            "\n",
            "\t",
            "\0",
            "x",
            "                                        ",
            "\u{1F600}",
        ];
        let info = TrfInfo {
            name: token_soup(&mut rng, &name_tokens, 5),
            start_date: if rng.one_in(2) {
                Some(token_soup(&mut rng, &name_tokens, 2))
            } else {
                None
            },
            end_date: if rng.one_in(2) {
                Some("2026/03/01".into())
            } else {
                None
            },
            player_names: (0..n + usize::from(rng.one_in(10)))
                .map(|_| token_soup(&mut rng, &name_tokens, 4))
                .collect(),
        };
        let _c = case("trf16", (&t, &info));
        match trf16(&t, &info, &order, edition) {
            Ok(text) => check_trf(&t, &text, edition),
            Err(e) => {
                let bad_rating = t
                    .ratings()
                    .iter()
                    .flatten()
                    .any(|r| !(0..=9999).contains(r));
                assert!(info.player_names.len() != n || bad_rating, "{e}");
            }
        }
    }
    assert!(rows_checked > 1_000, "only {rows_checked} refreshed rows");
    // the largest report TRF-16 can hold, and one player more
    for n in [9999, 10_000] {
        let t = Tournament::new(1, vec![None; n]).unwrap();
        let info = TrfInfo {
            player_names: vec![String::new(); n],
            ..TrfInfo::default()
        };
        let r = trf16(&t, &info, &[], Edition::default());
        assert_eq!(r.is_ok(), n <= 9999);
    }
}

/// A TRF-16 report is printable ASCII in fixed columns, one `001` line per player.
fn check_trf(t: &Tournament, text: &str, edition: Edition) {
    assert!(
        text.bytes()
            .all(|b| b == b'\n' || (b' '..=b'~').contains(&b)),
        "not printable ASCII"
    );
    let players: Vec<&str> = text.lines().filter(|l| l.starts_with("001 ")).collect();
    assert_eq!(players.len(), t.player_count());
    let last = t.last_round() as usize;
    let values = values_after(t, last as u32, edition);
    // every paired round has a block; after them, only the entries made (requested byes)
    let paired = (crate::tournament::pairing::round_to_pair(t) as usize - 1).min(last);
    for (p, line) in players.iter().enumerate() {
        assert_eq!(line[4..8].trim(), (p + 1).to_string());
        let card = &t.card(p as PlayerNo)[..last];
        let blocks = card
            .iter()
            .rposition(|&e| e != RoundEntry::Absent)
            .map_or(paired, |i| paired.max(i + 1));
        if blocks > 0 {
            assert_eq!(line.len(), 89 + 10 * blocks, "{line}");
        }
        if line.len() >= 84 {
            let points: f64 = line[80..84].trim().parse().unwrap();
            assert_eq!(points, values[p].points());
        }
    }
}

#[test]
fn rank_players_with_arbitrary_encounters() {
    let mut rng = Rng::new(0x0000_DE00_0000_0010);
    for _ in 0..5_000 {
        let n = rng.below(9);
        // few distinct values, so that many players are tied
        let players: Vec<(PlayerNo, PlayerValues)> = (0..n)
            .map(|i| {
                let v = PlayerValues {
                    points_x2: rng.below(3) as i32,
                    bh_x2: if rng.one_in(10) {
                        rng.next_u64() as i32
                    } else {
                        rng.below(2) as i32
                    },
                    tpr: if rng.one_in(3) {
                        None
                    } else {
                        Some(rng.pick(&[i32::MIN, 0, i32::MAX]))
                    },
                    ..PlayerValues::default()
                };
                (
                    if rng.one_in(10) {
                        u32::MAX - i as u32
                    } else {
                        i as u32
                    },
                    v,
                )
            })
            .collect();
        let order: Vec<TieBreak> = (0..rng.below(4))
            .map(|_| rng.pick(&[TieBreak::DirectEncounter, TieBreak::Buchholz, TieBreak::Tpr]))
            .collect();
        // the database could answer anything: huge counts, scores out of range, asymmetry
        let table: Vec<(u32, i32)> = (0..81)
            .map(|_| match rng.below(4) {
                0 => (0, 0),
                1 => (rng.next_u64() as u32, rng.next_u64() as i32),
                _ => {
                    let c = 1 + rng.below(60) as u32;
                    (c, rng.below(2 * c as usize + 1) as i32)
                }
            })
            .collect();
        let encounters = |a: PlayerNo, b: PlayerNo| table[(a as usize % 9) * 9 + b as usize % 9];
        let _c = case("rank_players", (&players, &order, &table));
        let placed = rank_players(&players, &order, encounters);
        assert_eq!(placed.len(), n);
        for (i, pl) in placed.iter().enumerate() {
            assert_eq!(pl.place as usize, i + 1);
            assert!(pl.rank >= 1 && pl.rank <= pl.place);
            assert!(pl.de.is_none_or(f64::is_finite));
        }
    }
}

#[test]
fn direct_encounter_with_many_meeting_counts() {
    // Eight players all tied on points (every game a draw, every other player a half-point bye
    // in that round), whose pairs met 2, 3, 5, 7, ..., 79 times (the last six pairs once): the
    // common denominator of the averaged direct-encounter scores (6.1.2) is the product of those
    // primes, about 3e27, far beyond 64 bits, in 797 rounds (within MAX_ROUNDS).
    let primes = [
        2u32, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79,
    ];
    let n = 8u32;
    let pairs: Vec<(u32, u32)> = (0..n)
        .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
        .collect();
    let counts: Vec<u32> = pairs
        .iter()
        .enumerate()
        .map(|(i, _)| primes.get(i).copied().unwrap_or(1))
        .collect();
    let rounds: u32 = counts.iter().sum();
    assert!(rounds <= crate::tournament::MAX_ROUNDS);
    let mut t = Tournament::new(rounds, vec![Some(2000); n as usize]).unwrap();
    let mut round = 0;
    for (&(a, b), &c) in pairs.iter().zip(&counts) {
        for _ in 0..c {
            round += 1;
            t.add_game(round, a, b, Outcome::Draw, GameKind::Played)
                .unwrap();
            for p in (0..n).filter(|&p| p != a && p != b) {
                t.add_bye(round, p, ByeKind::Half).unwrap();
            }
        }
    }
    let table = standings(&t, rounds, &[TieBreak::DirectEncounter], Edition::default());
    // all drew every game: everyone scores 3.5 points against the other seven, all stay tied
    assert_eq!(table.len(), n as usize);
    for s in &table {
        assert_eq!(s.rank, 1);
        let de = s.de.expect("DE applied");
        assert!((de - 3.5).abs() < 1e-9, "DE {de}");
    }
    // Colour is irrelevant to DE; the cards stay consistent
    check_cards(&t);
    assert_eq!(
        t.card(0)[0],
        RoundEntry::Game {
            opponent: 1,
            colour: Colour::White,
            outcome: Outcome::Draw,
            moved: true
        }
    );
}
