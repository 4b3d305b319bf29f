//! Pairs the round after the last paired round of a TRF-16 file (with bbpPairings' `XXA` and
//! Baku `192` extensions for accelerated rounds) and prints it in bbpPairings' output format:
//! `cargo run --release -p pg_rating_core --example pair_trf -- FILE`. By the Dutch system, or by
//! the Burstein system with `PAIR_TRF_SYSTEM=burstein`.
//!
//! With `PAIR_TRF_GAPS` set it also prints (to stderr) the longest time between two interrupt
//! checks (`pg_rating_core::interrupt::check`), from the start to the end: how late a cancel
//! can stop the pairing, at most (`bench/pairing.sh` reports it).
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::Instant;

use pg_rating_core::tournament::pairing::{pair_trf_by, PairingSystem};
use pg_rating_core::tournament::trf_read::read_trf16;

static START: OnceLock<Instant> = OnceLock::new();
/// Nanoseconds from the start to the last check, and the longest gap so far.
static LAST: AtomicU64 = AtomicU64::new(0);
static LONGEST: AtomicU64 = AtomicU64::new(0);

fn check_gap() {
    let now = START.get().map_or(0, |s| s.elapsed().as_nanos() as u64);
    let gap = now.saturating_sub(LAST.swap(now, Ordering::Relaxed));
    LONGEST.fetch_max(gap, Ordering::Relaxed);
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, file] = args.as_slice() else {
        eprintln!("usage: pair_trf TRF_FILE");
        std::process::exit(2);
    };
    let gaps = std::env::var_os("PAIR_TRF_GAPS").is_some();
    let system = match std::env::var("PAIR_TRF_SYSTEM") {
        Ok(name) => PairingSystem::from_name(&name).unwrap_or_else(|e| {
            eprintln!("PAIR_TRF_SYSTEM: {e}");
            std::process::exit(2);
        }),
        Err(_) => PairingSystem::Dutch,
    };
    if gaps {
        START.get_or_init(Instant::now);
        pg_rating_core::interrupt::set_hook(check_gap);
    }
    let outcome = std::fs::read_to_string(file)
        .map_err(|e| e.to_string())
        .and_then(|text| read_trf16(&text).map_err(|e| e.to_string()))
        .and_then(|trf| pair_trf_by(&trf, Vec::new(), system).map_err(|e| e.to_string()));
    let p = match outcome {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{file}: {e}");
            std::process::exit(1);
        }
    };
    if gaps {
        check_gap(); // (the end)
        let ms = LONGEST.load(Ordering::Relaxed) as f64 / 1e6;
        eprintln!("longest gap between interrupt checks: {ms:.1} ms");
    }
    println!("{}", p.boards.len() + usize::from(p.bye.is_some()));
    for (w, b) in &p.boards {
        println!("{} {}", w + 1, b + 1);
    }
    if let Some(b) = p.bye {
        println!("{} 0", b + 1);
    }
}
