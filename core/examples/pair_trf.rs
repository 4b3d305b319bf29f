//! Pairs the round after the last paired round of a TRF-16 file (with bbpPairings' `XXA` and
//! Baku `192` extensions for accelerated rounds) and prints it in bbpPairings' output format:
//! `cargo run --release -p pg_rating_core --example pair_trf -- FILE`.
use pg_rating_core::tournament::pairing::pair_trf;
use pg_rating_core::tournament::trf_read::read_trf16;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, file] = args.as_slice() else {
        eprintln!("usage: pair_trf TRF_FILE");
        std::process::exit(2);
    };
    let outcome = std::fs::read_to_string(file)
        .map_err(|e| e.to_string())
        .and_then(|text| read_trf16(&text).map_err(|e| e.to_string()))
        .and_then(|trf| pair_trf(&trf).map_err(|e| e.to_string()));
    let p = match outcome {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{file}: {e}");
            std::process::exit(1);
        }
    };
    println!("{}", p.boards.len() + usize::from(p.bye.is_some()));
    for (w, b) in &p.boards {
        println!("{} {}", w + 1, b + 1);
    }
    if let Some(b) = p.bye {
        println!("{} 0", b + 1);
    }
}
