//! Core benchmarks of the rating engine, outside PostgreSQL.
//!
//! Prints one `key=value` line per measurement (plus a human line), so bench/rating.sh can put
//! the SQL numbers of the same run next to them. Every input goes through `black_box`, and each
//! measurement runs long enough (≥ 0.3 s) to make timer noise irrelevant.

use std::hint::black_box;
use std::time::Instant;

use pg_rating_core::rating::glicko2::{self, Bounds, Rating};
use pg_rating_core::rating::{elo, fide, skemino};

/// SplitMix64: a tiny deterministic generator, so core and SQL runs rate comparable data.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

fn score(rng: &mut Rng) -> f64 {
    [0.0, 0.5, 1.0][rng.below(3) as usize]
}

/// Runs `f` over `inputs` repeatedly for at least `min_secs`; returns ns per call.
fn per_call<T, R>(inputs: &[T], min_secs: f64, mut f: impl FnMut(&T) -> R) -> f64 {
    let mut calls = 0u64;
    let start = Instant::now();
    loop {
        for x in inputs {
            black_box(f(black_box(x)));
        }
        calls += inputs.len() as u64;
        let el = start.elapsed().as_secs_f64();
        if el >= min_secs {
            return el * 1e9 / calls as f64;
        }
    }
}

fn random_rating(rng: &mut Rng) -> Rating {
    Rating::new(
        800.0 + 1800.0 * rng.unit(),
        45.0 + 300.0 * rng.unit(),
        0.04 + 0.04 * rng.unit(),
    )
}

fn main() {
    let mut rng = Rng(42);
    let n = 4096;

    // --- Elo family
    let elo_in: Vec<(f64, f64, f64)> = (0..n)
        .map(|_| {
            (
                1000.0 + 1500.0 * rng.unit(),
                1000.0 + 1500.0 * rng.unit(),
                score(&mut rng),
            )
        })
        .collect();
    let ns_elo = per_call(&elo_in, 0.5, |&(r, o, s)| {
        elo::update(r, o, s, 20.0).unwrap()
    });
    println!("core_elo_update_ns={ns_elo:.2}");
    let fide_in: Vec<(i32, i32)> = elo_in
        .iter()
        .map(|&(r, o, _)| (r as i32, o as i32))
        .collect();
    let ns_fide = per_call(&fide_in, 0.3, |&(r, o)| fide::expected(r, o));
    println!("core_fide_expected_ns={ns_fide:.2}");
    let ns_skemino = per_call(&elo_in, 0.3, |&(a, b, s)| skemino::update(a, b, s).unwrap());
    println!("core_skemino_update_ns={ns_skemino:.2}");

    // --- Glicko-2: one game (both players updated), the lichess way
    let games: Vec<(Rating, Rating, f64)> = (0..n)
        .map(|_| {
            (
                random_rating(&mut rng),
                random_rating(&mut rng),
                score(&mut rng),
            )
        })
        .collect();
    let b = Bounds::default();
    let ns_game = per_call(&games, 0.5, |&(w, bl, s)| {
        glicko2::game(w, bl, s, 0.5, &b).unwrap()
    });
    println!("core_glicko2_game_ns={ns_game:.2}");
    println!("core_glicko2_one_player_update_ns={:.2}", ns_game / 2.0);
    let ns_decay = per_call(&games, 0.3, |&(w, _, s)| {
        glicko2::decay(w, s + 0.25, &b).unwrap()
    });
    println!("core_glicko2_decay_ns={ns_decay:.2}");

    // --- Glicko-2: a 20-game period for one player
    let periods: Vec<(Rating, Vec<Rating>, Vec<f64>)> = (0..256)
        .map(|_| {
            let p = random_rating(&mut rng);
            let o: Vec<Rating> = (0..20).map(|_| random_rating(&mut rng)).collect();
            let s: Vec<f64> = (0..20).map(|_| score(&mut rng)).collect();
            (p, o, s)
        })
        .collect();
    let ns_period20 = per_call(&periods, 0.5, |(p, o, s)| {
        glicko2::update(*p, o, s, 0.5, &b).unwrap()
    });
    println!("core_glicko2_period20_ns={ns_period20:.2}");

    // --- The period of the SQL benchmark: 1,000,000 games among 100,000 players
    let (players_n, games_n) = (100_000usize, 1_000_000usize);
    let mut rng = Rng(7);
    let players: Vec<Rating> = (0..players_n).map(|_| random_rating(&mut rng)).collect();
    let mut white = Vec::with_capacity(games_n);
    let mut black = Vec::with_capacity(games_n);
    let mut scores = Vec::with_capacity(games_n);
    for _ in 0..games_n {
        let w = rng.below(players_n as u64) as usize;
        let mut bl = rng.below(players_n as u64 - 1) as usize;
        if bl >= w {
            bl += 1;
        }
        white.push(w);
        black.push(bl);
        scores.push(score(&mut rng));
    }
    let mut best = f64::INFINITY;
    for _ in 0..5 {
        let t = Instant::now();
        let out = glicko2::rate_period(
            black_box(&players),
            black_box(&white),
            black_box(&black),
            black_box(&scores),
            0.5,
            &b,
        )
        .unwrap();
        black_box(&out);
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!("core_period_1m_seconds={best:.4}");
    println!("core_period_games_per_s={:.0}", games_n as f64 / best);

    // the array_agg shape done in Rust: group each player's games, then one update per player
    let t = Instant::now();
    let mut per_player: Vec<(Vec<Rating>, Vec<f64>)> = vec![(Vec::new(), Vec::new()); players_n];
    for i in 0..games_n {
        per_player[white[i]].0.push(players[black[i]]);
        per_player[white[i]].1.push(scores[i]);
        per_player[black[i]].0.push(players[white[i]]);
        per_player[black[i]].1.push(1.0 - scores[i]);
    }
    let out: Vec<Rating> = players
        .iter()
        .zip(&per_player)
        .map(|(p, (o, s))| glicko2::update(*p, o, s, 0.5, &b).unwrap())
        .collect();
    black_box(&out);
    let grouped = t.elapsed().as_secs_f64();
    println!("core_period_grouped_seconds={grouped:.4}");

    eprintln!(
        "core: Elo update {ns_elo:.1} ns, FIDE expected {ns_fide:.1} ns, Skèmino update {ns_skemino:.1} ns, \
         Glicko-2 game {ns_game:.1} ns ({:.1} ns per player), decay {ns_decay:.1} ns, 20-game period {ns_period20:.0} ns; \
         1M-game period {best:.3} s = {:.0} games/s (grouped per player: {grouped:.3} s)",
        ns_game / 2.0,
        games_n as f64 / best
    );
}
