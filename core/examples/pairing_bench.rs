//! Speed of the Dutch pairing engine (bench/pairing.sh runs it, release build):
//! `pairing_bench PLAYERS [TRF_OUT]` plays a tournament of PLAYERS rated players for 8 rounds,
//! each round paired by the engine with random results (a fixed seed: the same games every run),
//! then pairs round 9 three times and prints the median time, the process's peak memory and the
//! time of each of rounds 1-8 (round 1 has the largest bracket: every player). With
//! TRF_OUT it also writes rounds 1-8 as TRF-16 there, so the SQL path can be timed on them.

use std::time::{Duration, Instant};

use pg_rating_core::tournament::pairing::{pair_next_round, PairingOptions};
use pg_rating_core::tournament::{trf16, ByeKind, Edition, GameKind, Outcome, Tournament, TrfInfo};

const ROUNDS_PLAYED: u32 = 8;

/// splitmix64, seeded: the bench's results are the same every run.
struct Seeded(u64);

impl Seeded {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (z ^ (z >> 31)) % n
    }
}

/// The process's peak resident memory (VmHWM), in MiB.
fn peak_mib() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map_or(f64::NAN, |kb| kb / 1024.0)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let players: usize = args
        .get(1)
        .ok_or("usage: pairing_bench PLAYERS [TRF_OUT]")?
        .parse()?;
    let mut rng = Seeded(20261126);
    // ratings from 2700 down in steps of 1 to 3 points: pairing numbers are the players' order
    let mut rating = 2700;
    let ratings = (0..players)
        .map(|_| {
            rating -= 1 + rng.below(3) as i32;
            Some(rating)
        })
        .collect();
    let mut t = Tournament::new(ROUNDS_PLAYED + 1, ratings)?;
    let options = PairingOptions::default();
    let mut history = Vec::new();
    for round in 1..=ROUNDS_PLAYED {
        let started = Instant::now();
        let pairing = pair_next_round(&t, &options)?;
        history.push(started.elapsed());
        for &(white, black) in &pairing.boards {
            let outcome = [Outcome::Win, Outcome::Draw, Outcome::Loss][rng.below(3) as usize];
            t.add_game(round, white, black, outcome, GameKind::Played)?;
        }
        if let Some(p) = pairing.bye {
            t.add_bye(round, p, ByeKind::PairingAllocated)?;
        }
    }
    if let Some(path) = args.get(2) {
        let info = TrfInfo {
            name: format!("pairing bench, {players} players"),
            player_names: (1..=players).map(|i| format!("Player {i:04}")).collect(),
            ..TrfInfo::default()
        };
        std::fs::write(path, trf16(&t, &info, &[], Edition::default())?)?;
    }
    let mut times: Vec<Duration> = (0..3)
        .map(|_| {
            let start = Instant::now();
            let pairing = pair_next_round(&t, &options);
            let elapsed = start.elapsed();
            pairing.map(|_| elapsed)
        })
        .collect::<Result<_, _>>()?;
    times.sort();
    let each: Vec<String> = history
        .iter()
        .map(|d| format!("{:.0}", d.as_secs_f64() * 1000.0))
        .collect();
    println!(
        "{players:>5} players: round 9 paired in {:>9.1} ms (median of 3); peak memory {:.1} MiB; \
         rounds 1-8 (ms): {}",
        times[1].as_secs_f64() * 1000.0,
        peak_mib(),
        each.join(" ")
    );
    Ok(())
}
