//! `pg_rating_chess_bench <openings-dir> <out-dir> <games> <big-games> <pgn-games>`:
//! writes realistic games (a random lichess opening, then random legal moves up to 60-100
//! plies) and a PGN text of lichess-style games, then measures the Rust core on them outside
//! PostgreSQL (generate_fen_array, read_pgn) and prints `core_<what>=<per second>` lines.

use std::fmt::Write as _;
use std::fs;
use std::io::Write as _;
use std::time::Instant;

use pg_rating_core::chess::openings::parse_lichess_tsv;
use pg_rating_core::chess::pgn::{movetext_position, read_pgn};
use pg_rating_core::chess::{
    fen_array_into, moves_to_san, parse_start, play_uci, uci_of, FenWriter, Position, STANDARD_FEN,
};

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn game(openings: &[Vec<String>], rng: &mut Rng) -> Vec<String> {
    let mut moves = openings[rng.below(openings.len())].clone();
    let mut pos = parse_start(STANDARD_FEN).unwrap();
    for (i, m) in moves.iter().enumerate() {
        play_uci(&mut pos, i + 1, m).unwrap();
    }
    let target = 60 + rng.below(41);
    while moves.len() < target {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[rng.below(legal.len())];
        moves.push(uci_of(m));
        pos.play_unchecked(m);
    }
    moves
}

fn pg_array(moves: &[String]) -> String {
    format!("{{{}}}", moves.join(","))
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (dir, out) = (&args[1], &args[2]);
    let n_games: usize = args[3].parse().unwrap();
    let n_big: usize = args[4].parse().unwrap();
    let n_pgn: usize = args[5].parse().unwrap();
    let mut tsv = String::new();
    for f in ["a", "b", "c", "d", "e"] {
        tsv.push_str(&fs::read_to_string(format!("{dir}/{f}.tsv")).expect("lichess openings file"));
    }
    let openings: Vec<Vec<String>> = parse_lichess_tsv(&tsv)
        .map(|o| movetext_position(&o.unwrap().pgn).unwrap().moves)
        .collect();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);

    // 1. the games of the generate_fen_array benchmark
    let games: Vec<Vec<String>> = (0..n_games).map(|_| game(&openings, &mut rng)).collect();
    let mut f = fs::File::create(format!("{out}/games.tsv")).unwrap();
    for (i, g) in games.iter().enumerate() {
        writeln!(f, "{}\t{}\t{}", i + 1, STANDARD_FEN, pg_array(g)).unwrap();
    }
    let plies: usize = games.iter().map(Vec::len).sum();
    println!(
        "games={n_games} plies={plies} avg_plies={:.1}",
        plies as f64 / n_games as f64
    );

    // 2. the 100,000 games of the detect_opening benchmark
    let mut f = std::io::BufWriter::new(fs::File::create(format!("{out}/big_games.tsv")).unwrap());
    for i in 0..n_big {
        let g = game(&openings, &mut rng);
        writeln!(f, "{}\t{}\t{}", i + 1, STANDARD_FEN, pg_array(&g)).unwrap();
    }
    f.flush().unwrap();

    // 3. a PGN text of lichess-style games: 13 tags, a clock comment after every move
    let mut pgn = String::new();
    let mut quarter = 0;
    let results = ["1-0", "0-1", "1/2-1/2"];
    for i in 0..n_pgn {
        if i == n_pgn / 4 {
            quarter = pgn.len();
        }
        let g = game(&openings, &mut rng);
        let san = moves_to_san(STANDARD_FEN, g.iter().map(|m| Some(m.as_str()))).unwrap();
        let result = results[rng.below(3)];
        let _ = write!(
            pgn,
            "[Event \"Rated Blitz game\"]\n[Site \"https://lichess.org/{i:08}\"]\n[Date \"2024.05.{:02}\"]\n\
[Round \"-\"]\n[White \"player{}\"]\n[Black \"player{}\"]\n[Result \"{result}\"]\n\
[UTCDate \"2024.05.01\"]\n[UTCTime \"12:00:00\"]\n[WhiteElo \"{}\"]\n[BlackElo \"{}\"]\n\
[TimeControl \"180+2\"]\n[Termination \"Normal\"]\n\n",
            1 + i % 28,
            rng.below(5000),
            rng.below(5000),
            1200 + rng.below(1200),
            1200 + rng.below(1200)
        );
        let mut line = String::new();
        for (j, s) in san.iter().enumerate() {
            let tok = if j % 2 == 0 {
                format!(
                    "{}. {s} {{ [%clk 0:02:{:02}] }}",
                    j / 2 + 1,
                    59 - (j / 2) % 60
                )
            } else {
                format!(
                    "{}... {s} {{ [%clk 0:02:{:02}] }}",
                    j / 2 + 1,
                    59 - (j / 2) % 60
                )
            };
            if line.len() + tok.len() + 1 > 80 {
                pgn.push_str(&line);
                pgn.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&tok);
        }
        pgn.push_str(&line);
        pgn.push(' ');
        pgn.push_str(result);
        pgn.push_str("\n\n");
    }
    fs::write(format!("{out}/games.pgn"), &pgn).unwrap();
    fs::write(format!("{out}/games_quarter.pgn"), &pgn[..quarter]).unwrap();
    println!("pgn_games={n_pgn} pgn_bytes={}", pgn.len());

    // 4. the Rust core outside PostgreSQL, on the same games
    let refs: Vec<Vec<Option<&str>>> = games
        .iter()
        .map(|g| g.iter().map(|m| Some(m.as_str())).collect())
        .collect();
    let mut rounds = 0usize;
    let mut positions = 0usize;
    let (mut buf, mut ends) = (String::new(), Vec::new());
    let t = Instant::now();
    while t.elapsed().as_secs_f64() < 2.0 {
        for g in &refs {
            // the function the glue calls
            fen_array_into(STANDARD_FEN, g.iter().copied(), &mut buf, &mut ends).unwrap();
            positions += ends.len();
        }
        rounds += 1;
    }
    let secs = t.elapsed().as_secs_f64();
    println!(
        "core_fen_array_games_per_s={:.0} core_fen_array_plies_per_s={:.0} (positions {positions})",
        (rounds * games.len()) as f64 / secs,
        (rounds * plies) as f64 / secs
    );

    // where the time goes: replaying the moves alone, and writing the partial FENs alone
    let t = Instant::now();
    let mut rounds = 0usize;
    let mut sink = 0usize;
    let mut all_positions = Vec::new();
    while t.elapsed().as_secs_f64() < 1.0 {
        for g in &games {
            let mut pos = parse_start(STANDARD_FEN).unwrap();
            for (i, m) in g.iter().enumerate() {
                play_uci(&mut pos, i + 1, m).unwrap();
                if rounds == 0 {
                    all_positions.push(pos.clone());
                }
            }
            sink += usize::from(pos.turn().is_white());
        }
        rounds += 1;
    }
    let play = (rounds * plies) as f64 / t.elapsed().as_secs_f64();
    let t = Instant::now();
    let mut rounds = 0usize;
    let mut s = String::with_capacity(128);
    while t.elapsed().as_secs_f64() < 1.0 {
        // one writer over the positions of the games in order, as fen_array_into does
        let mut writer = FenWriter::default();
        for p in &all_positions {
            s.clear();
            writer.write(p, &mut s);
            sink += s.len();
        }
        rounds += 1;
    }
    let write = (rounds * all_positions.len()) as f64 / t.elapsed().as_secs_f64();
    println!(
        "core_play_uci_plies_per_s={play:.0} core_write_partial_fen_per_s={write:.0} ({sink})"
    );

    let t = Instant::now();
    let mut read = 0usize;
    let mut rounds = 0usize;
    while t.elapsed().as_secs_f64() < 2.0 {
        read += read_pgn(pgn.as_bytes()).filter(|g| g.is_ok()).count();
        rounds += 1;
    }
    let secs = t.elapsed().as_secs_f64();
    assert_eq!(read, rounds * n_pgn);
    println!("core_read_pgn_games_per_s={:.0}", read as f64 / secs);
}
