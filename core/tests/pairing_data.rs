//! The Dutch pairing engine against bbpPairings v6.0.0 on the shared test data
//! (`shared/data/pairing`, see its SOURCE.md).

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use pg_rating_core::tournament::pairing::{
    inferred_first_colour_white, pair_next_round, pair_trf, trf_round_options, Pairing,
    PairingOptions, PairingSystem,
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

/// The colour of the top seed in round 1: `XXC`, else the one the whole file shows (bbpPairings'
/// generator draws it), as bbpPairings infers it.
fn first_colour_white(trf: &TrfTournament) -> bool {
    trf.first_colour_white
        .or_else(|| inferred_first_colour_white(trf))
        .unwrap_or(true)
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
    // issue_15 checks a whole tournament with the Burstein system (`--burstein -c`): see
    // `bbp_burstein_test_case_pairs_every_round_as_recorded`.
}

/// Pairs every round of every `*.trf` file in `dir` from the rounds before it and compares with
/// the file's pairing; prints a line per file and the differences. Returns (equal, total).
fn compare_dir(dir: &Path) -> (usize, usize) {
    compare_files(dir, "", PairingSystem::Dutch)
}

/// The Burstein tournaments of a directory: `burstein_*.trf`.
const BURSTEIN: &str = "burstein_";

/// [`compare_dir`] for the files of `dir` whose names start with `prefix`, paired by `system`.
fn compare_files(dir: &Path, prefix: &str, system: PairingSystem) -> (usize, usize) {
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .expect("TRF directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "trf"))
        .filter(|p| {
            p.file_name().and_then(|s| s.to_str()).is_some_and(|s| {
                // (the Dutch comparison leaves the Burstein tournaments out)
                s.starts_with(prefix) && (!prefix.is_empty() || !s.starts_with(BURSTEIN))
            })
        })
        .collect();
    files.sort_by_key(|p| {
        let stem = p.file_stem().and_then(|s| s.to_str()).unwrap_or("");
        let digits: String = stem.chars().filter(char::is_ascii_digit).collect();
        (
            stem.trim_end_matches(|c: char| c.is_ascii_digit())
                .to_string(),
            digits.parse::<u32>().unwrap_or(0),
        )
    });
    let (mut equal, mut total) = (0, 0);
    for path in &files {
        let name = path.file_name().and_then(|s| s.to_str()).unwrap_or("?");
        let trf = read_trf16(&fs::read_to_string(path).expect("file")).expect("readable TRF");
        let mut marks = String::new();
        let mut diffs = Vec::new();
        for round in 1..=trf.tournament.round_count() {
            let (t, mut opts) = before_round(&trf, round);
            opts.system = system;
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
        println!("{name:>12} {players:>4} players  {marks}");
        for d in diffs {
            println!("{d}");
        }
    }
    println!("rounds equal: {equal} of {total}");
    (equal, total)
}

#[test]
fn generated_tournaments_pair_every_round_as_bbp_pairings() {
    let Some(dir) = data_dir() else { return };
    let (equal, total) = compare_dir(&dir.join("generated"));
    assert!(
        equal >= GENERATED_ROUNDS_EQUAL_AT_LEAST,
        "rounds equal: {equal} of {total}"
    );
}

/// `PAIRING_TRF_DIR=dir cargo test --test pairing_data -- --nocapture any_directory`: the same
/// comparison for the `*.trf` files of any directory (tournaments made with bbpPairings'
/// generator, `--dutch -g CONFIG -o FILE -s SEED`); nothing when the variable is unset.
#[test]
fn any_directory_of_generated_tournaments() {
    let Ok(dir) = std::env::var("PAIRING_TRF_DIR") else {
        return;
    };
    let (equal, total) = match std::env::var("PAIRING_SYSTEM").as_deref() {
        Ok("burstein") => compare_files(Path::new(&dir), BURSTEIN, PairingSystem::Burstein),
        _ => compare_dir(Path::new(&dir)),
    };
    assert_eq!(equal, total, "rounds equal: {equal} of {total}");
}

/// The forfeit-heavy and bye-heavy tournaments of `core/tests/data/pairing` (made by
/// bbpPairings' generator, see its README): every round as bbpPairings paired it.
fn own_data_dir() -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/pairing")).to_path_buf()
}

#[test]
fn forfeit_and_bye_heavy_tournaments_pair_every_round_as_bbp_pairings() {
    let (equal, total) = compare_dir(&own_data_dir());
    assert!(total >= 190, "only {total} rounds");
    assert_eq!(equal, total, "rounds equal: {equal} of {total}");
}

/// The Burstein tournaments of `core/tests/data/pairing` (bbpPairings' generator with
/// `--burstein`, see its README): every round as bbpPairings paired it.
#[test]
fn burstein_tournaments_pair_every_round_as_bbp_pairings() {
    let (equal, total) = compare_files(&own_data_dir(), BURSTEIN, PairingSystem::Burstein);
    assert!(total >= 70, "only {total} rounds");
    assert_eq!(equal, total, "rounds equal: {equal} of {total}");
}

/// bbpPairings' own Burstein test (`issue_15`: `--burstein -c`, every round of a 180-player,
/// 11-round tournament checked against its own pairing, no discrepancy expected): every round
/// pairs as the file has it.
#[test]
fn bbp_burstein_test_case_pairs_every_round_as_recorded() {
    let Some(dir) = data_dir() else { return };
    let text = fs::read_to_string(dir.join("bbp-tests/issue_15.input")).expect("test file");
    let trf = read_trf16(&text).expect("readable TRF");
    let rounds = trf.tournament.round_count();
    assert_eq!(rounds, 11);
    for round in 1..=rounds {
        let (t, mut opts) = before_round(&trf, round);
        opts.system = PairingSystem::Burstein;
        let p = pair_next_round(&t, &opts).unwrap_or_else(|e| panic!("round {round}: {e}"));
        assert_eq!(as_sets(&p), recorded(&trf, round), "round {round}");
    }
}

/// Round 8 of `gen_10.trf`: the three players of the top scores all met (a forfeit does not
/// count, but they played), so the bracket of these three moved-down players pairs nobody; it
/// must take in the next scoregroup, not float down to itself again (the shortcut for brackets
/// that pair within themselves, issue 34, looped here forever).
#[test]
fn moved_down_players_who_all_met_take_in_the_next_scoregroup() {
    let text = fs::read_to_string(own_data_dir().join("gen_10.trf")).expect("file");
    let trf = read_trf16(&text).expect("readable TRF");
    let (t, opts) = before_round(&trf, 8);
    let pairing = pair_next_round(&t, &opts).expect("a pairing");
    assert_eq!(as_sets(&pairing), recorded(&trf, 8));
}

/// A minimal case of issue 34 (item 2): the top seed has a half-point bye in round 1 and the
/// six others only forfeits, so no player has a colour history in round 2 and every pair's
/// colours come from the initial colour (C.04.3 5.2.5). The file has no `XXC`: player 2, the
/// first player paired, got Black, so the initial colour is Black (as bbpPairings reads it:
/// `5 3`, `1 7`, `2 4`); with `XXC white1` every pair has the opposite colours (bbpPairings
/// too). Taking White without `XXC` (0.12.0) gave the second answer to the first file.
#[test]
fn forfeits_in_round_one_leave_the_colours_to_the_initial_colour() {
    let line = |p: u32, points: &str, round1: &str| {
        format!(
            "001 {p:4}      Player{p:04}{:22}{:4}{:30}{points:>4}{p:5}  {round1}",
            "",
            2500 - 10 * p,
            ""
        )
    };
    let players = [
        line(1, "0.5", "0000 - H"),
        line(2, "0.0", "   5 b -"),
        line(3, "1.0", "   6 w +"),
        line(4, "0.0", "   7 b -"),
        line(5, "1.0", "   2 w +"),
        line(6, "0.0", "   3 b -"),
        line(7, "1.0", "   4 w +"),
    ]
    .join("\n");
    let pairs = |xxc: &str| {
        let trf = read_trf16(&format!("012 Forfeits\nXXR 3\n{xxc}{players}\n")).expect("TRF");
        let p = pair_trf(&trf).expect("a pairing");
        assert_eq!(p.bye, Some(5), "player 6 gets the bye");
        p.boards
            .iter()
            .map(|(w, b)| format!("{} {}", w + 1, b + 1))
            .collect::<Vec<_>>()
    };
    assert_eq!(pairs(""), ["5 3", "1 7", "2 4"]);
    assert_eq!(pairs("XXC white1\n"), ["3 5", "7 1", "4 2"]);
}

/// `pair_trf` (what `tournament_pairings_from_trf` runs) on the file as it stood before each
/// round, without `XXC`: the initial colour comes from the file's first round (issue 34, item
/// 2: players without a colour history, after a forfeit or a bye, get the colours bbpPairings
/// gives them only when the initial colour is read from the file, not taken as White).
#[test]
fn pair_trf_reads_the_initial_colour_from_the_file() {
    let mut checked = 0;
    for name in ["bye_6", "bye_10", "ff_3", "g_40", "gen_14", "gen_189"] {
        let path = own_data_dir().join(format!("{name}.trf"));
        let trf = read_trf16(&fs::read_to_string(&path).expect("file")).expect("readable TRF");
        assert_eq!(trf.first_colour_white, None, "{name} has no XXC");
        for round in 2..=trf.tournament.round_count() {
            let cut = trf.file_before_round(round);
            let pairing = pair_trf(&cut).unwrap_or_else(|e| panic!("{name} round {round}: {e}"));
            assert_eq!(pairing.round, round);
            assert_eq!(
                as_sets(&pairing),
                recorded(&trf, round),
                "{name} round {round}"
            );
            checked += 1;
        }
    }
    assert!(checked > 20);
}

#[test]
fn the_initial_colour_is_inferred_past_players_without_a_colour() {
    // bye_6: the top seed has a half-point bye in round 1 (no pairing), the second player is
    // the highest player paired and has Black: the initial colour is Black.
    let text = fs::read_to_string(own_data_dir().join("bye_6.trf")).expect("file");
    let trf = read_trf16(&text).expect("readable TRF");
    assert_eq!(inferred_first_colour_white(&trf), Some(false));
    assert_eq!(inferred_first_colour_white(&trf.file_before_round(1)), None);
}
