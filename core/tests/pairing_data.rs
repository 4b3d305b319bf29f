//! The Dutch pairing engine against bbpPairings v6.0.0 on the shared test data
//! (`shared/data/pairing`, see its SOURCE.md).

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use pg_rating_core::tournament::pairing::{
    pair_next_round, pair_trf, trf_round_options, Pairing, PairingOptions,
};
use pg_rating_core::tournament::trf_read::{read_trf16, TrfTournament};
use pg_rating_core::tournament::{ByeKind, Colour, PlayerNo, RoundEntry, Tournament};

/// Rounds of the generated tournaments that must pair exactly as bbpPairings did (raise it as
/// the engine improves; a drop is a regression).
const GENERATED_ROUNDS_EQUAL_AT_LEAST: usize = 100;

fn data_dir() -> Option<PathBuf> {
    let dir = Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../shared/data/pairing"
    ));
    if dir.is_dir() {
        Some(dir.to_path_buf())
    } else {
        println!(
            "note: {} is missing; pairing data tests skipped",
            dir.display()
        );
        None
    }
}

/// The colour of the top seed in round 1: `XXC`, else the one the file shows (bbpPairings'
/// generator draws it).
fn first_colour_white(trf: &TrfTournament) -> bool {
    trf.first_colour_white
        .unwrap_or_else(|| match trf.tournament.card(0).first() {
            Some(RoundEntry::Game { colour, .. } | RoundEntry::Forfeit { colour, .. }) => {
                *colour == Colour::White
            }
            _ => true,
        })
}

/// The tournament of rounds 1..round-1 of `trf` and the options for pairing `round`.
fn before_round(trf: &TrfTournament, round: u32) -> (Tournament, PairingOptions) {
    let options = trf_round_options(trf, round, first_colour_white(trf));
    (trf.before_round(round), options)
}

type Sets = (BTreeSet<(PlayerNo, PlayerNo)>, Option<PlayerNo>);

/// The pairing of `round` as the file records it: (white, black) pairs and the bye.
fn recorded(trf: &TrfTournament, round: u32) -> Sets {
    let t = &trf.tournament;
    let mut pairs = BTreeSet::new();
    let mut bye = None;
    for p in 0..t.player_count() as PlayerNo {
        match t.card(p)[round as usize - 1] {
            RoundEntry::Game {
                opponent,
                colour: Colour::White,
                ..
            }
            | RoundEntry::Forfeit {
                opponent,
                colour: Colour::White,
                ..
            } => {
                pairs.insert((p, opponent));
            }
            RoundEntry::Bye(ByeKind::PairingAllocated) => bye = Some(p),
            _ => {}
        }
    }
    (pairs, bye)
}

fn as_sets(p: &Pairing) -> Sets {
    (p.boards.iter().copied().collect(), p.bye)
}

fn show(pairs: &BTreeSet<(PlayerNo, PlayerNo)>) -> String {
    let all: Vec<String> = pairs
        .iter()
        .map(|(w, b)| format!("{}-{}", w + 1, b + 1))
        .collect();
    all.join(" ")
}

#[test]
fn bbp_test_cases_pair_the_next_round_as_expected() {
    let Some(dir) = data_dir() else { return };
    for case in ["dutch_2025_C5", "dutch_2025_C9", "issue_7"] {
        let read = |ext: &str| {
            fs::read_to_string(dir.join(format!("bbp-tests/{case}.{ext}"))).expect("test file")
        };
        let trf = read_trf16(&read("input")).expect("readable TRF");
        let pairing = pair_trf(&trf).unwrap_or_else(|e| panic!("{case}: {e}"));
        let count = pairing.boards.len() + usize::from(pairing.bye.is_some());
        let mut lines = vec![count.to_string()];
        lines.extend(
            pairing
                .boards
                .iter()
                .map(|(w, b)| format!("{} {}", w + 1, b + 1)),
        );
        lines.extend(pairing.bye.map(|b| format!("{} 0", b + 1)));
        let expected = read("output.expected");
        assert_eq!(lines.join("\n"), expected.trim(), "{case}");
    }
    // issue_15 checks a whole tournament with the Burstein system (`--burstein -c`), not the
    // Dutch one: nothing to compare.
}

#[test]
fn generated_tournaments_pair_every_round_as_bbp_pairings() {
    let Some(dir) = data_dir() else { return };
    let mut files: Vec<PathBuf> = fs::read_dir(dir.join("generated"))
        .expect("generated/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "trf"))
        .collect();
    files.sort_by_key(|p| {
        let stem = p.file_stem().and_then(|s| s.to_str()).unwrap_or("");
        stem.trim_start_matches('t').parse::<u32>().unwrap_or(0)
    });
    let (mut equal, mut total) = (0, 0);
    for path in &files {
        let name = path.file_name().and_then(|s| s.to_str()).unwrap_or("?");
        let trf = read_trf16(&fs::read_to_string(path).expect("file")).expect("readable TRF");
        let mut marks = String::new();
        let mut diffs = Vec::new();
        for round in 1..=trf.tournament.round_count() {
            let (t, opts) = before_round(&trf, round);
            let want = recorded(&trf, round);
            total += 1;
            match pair_next_round(&t, &opts) {
                Ok(p) if as_sets(&p) == want => {
                    equal += 1;
                    marks.push('=');
                }
                Ok(p) => {
                    marks.push('x');
                    let got = as_sets(&p);
                    let ours: BTreeSet<_> = got.0.difference(&want.0).copied().collect();
                    let theirs: BTreeSet<_> = want.0.difference(&got.0).copied().collect();
                    diffs.push(format!(
                        "  {name} round {round}: ours {} (bye {:?}) | bbp {} (bye {:?})",
                        show(&ours),
                        got.1.map(|b| b + 1),
                        show(&theirs),
                        want.1.map(|b| b + 1)
                    ));
                }
                Err(e) => {
                    marks.push('E');
                    diffs.push(format!("  {name} round {round}: error {e}"));
                }
            }
        }
        let players = trf.tournament.player_count();
        println!("{name:>8} {players:>3} players  {marks}");
        for d in diffs {
            println!("{d}");
        }
    }
    println!("rounds equal: {equal} of {total}");
    assert!(
        equal >= GENERATED_ROUNDS_EQUAL_AT_LEAST,
        "rounds equal: {equal} of {total}"
    );
}
