//! The lichess openings files (`eco<TAB>name<TAB>pgn`, CC0): each line's partial FEN is the
//! position after its moves.

use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};

use super::pgn::movetext_position;
use super::position::partial_fen;
use crate::error::{Classified, ErrorClass};

/// One opening of a TSV file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// Line number in the text, from 1.
    pub line: usize,
    pub eco: String,
    pub name: String,
    pub pgn: String,
    pub partial_fen: String,
}

/// A line that is not an opening.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningError {
    pub line: usize,
    pub message: String,
}

impl fmt::Display for OpeningError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "openings line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for OpeningError {}

/// A movetext that gives no position: its message (the move or FEN error alone, a movetext's
/// other errors with their game number) and the class of the PGN error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MovetextError {
    pub message: String,
    pub class: ErrorClass,
}

impl fmt::Display for MovetextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl Classified for MovetextError {
    fn class(&self) -> ErrorClass {
        self.class
    }
}

/// The partial FEN after a movetext such as `1. e4 e5 2. Nf3`.
pub fn opening_partial_fen(pgn: &str) -> Result<String, MovetextError> {
    use super::pgn::PgnErrorKind;
    movetext_position(pgn)
        .map(|g| partial_fen(&g.end))
        .map_err(|e| MovetextError {
            class: e.class(),
            message: match e.kind {
                PgnErrorKind::Move(m) => m.to_string(),
                PgnErrorKind::Fen(f) => f.to_string(),
                _ => e.to_string(),
            },
        })
}

fn parse_line(line_no: usize, line: &str) -> Result<Opening, OpeningError> {
    let err = |message: String| OpeningError {
        line: line_no,
        message,
    };
    let fields: Vec<&str> = line.split('\t').collect();
    if fields.len() != 3 {
        return Err(err(format!(
            "expected 3 tab-separated fields (eco, name, pgn), got {}",
            fields.len()
        )));
    }
    let (eco, name, pgn) = (fields[0].trim(), fields[1].trim(), fields[2].trim());
    let b = eco.as_bytes();
    if !(b.len() == 3 && (b'A'..=b'E').contains(&b[0]) && b[1..].iter().all(u8::is_ascii_digit)) {
        return Err(err(format!(
            "{} is not an ECO code (A00 to E99)",
            crate::error::Quoted(eco)
        )));
    }
    if name.is_empty() || name.chars().count() > 256 {
        return Err(err("the name must have 1 to 256 characters".into()));
    }
    let partial_fen = opening_partial_fen(pgn).map_err(|e| err(e.message))?;
    Ok(Opening {
        line: line_no,
        eco: eco.to_owned(),
        name: name.to_owned(),
        pgn: pgn.to_owned(),
        partial_fen,
    })
}

/// Parses the text of one or more lichess TSV files (concatenated is fine): header lines
/// (`eco<TAB>name<TAB>pgn`), blank lines, a byte-order mark and CRLF are skipped.
pub fn parse_lichess_tsv(text: &str) -> impl Iterator<Item = Result<Opening, OpeningError>> + '_ {
    text.split('\n').enumerate().filter_map(|(i, line)| {
        let line = line.strip_suffix('\r').unwrap_or(line);
        let line = line.strip_prefix('\u{feff}').unwrap_or(line);
        if line.trim().is_empty() || line.trim_end() == "eco\tname\tpgn" {
            None
        } else {
            Some(parse_line(i + 1, line))
        }
    })
}

/// FxHash: partial FENs are trusted keys from an extension's own table, so no DoS-resistant
/// hasher is needed, and this one is fast on their short byte strings.
#[derive(Default)]
pub struct FxHasher(u64);

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        const K: u64 = 0x517c_c1b7_2722_0a95;
        let mut h = self.0;
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            h = (h.rotate_left(5) ^ u64::from_le_bytes(w)).wrapping_mul(K);
        }
        for &b in chunks.remainder() {
            h = (h.rotate_left(5) ^ u64::from(b)).wrapping_mul(K);
        }
        self.0 = h;
    }
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

/// The openings by partial FEN (its bytes): what `detect_opening` looks a game's positions up in.
#[derive(Default)]
pub struct OpeningIndex(HashMap<Box<[u8]>, i32, BuildHasherDefault<FxHasher>>);

impl OpeningIndex {
    pub fn with_capacity(n: usize) -> Self {
        OpeningIndex(HashMap::with_capacity_and_hasher(n, Default::default()))
    }

    pub fn insert(&mut self, partial_fen: &[u8], id: i32) {
        self.0.insert(partial_fen.into(), id);
    }

    /// The latest of a game's positions (partial FENs in move order, 0 = the start; `None`
    /// for a missing one) that is an opening: its id and its index.
    pub fn latest(&self, positions: &[Option<&[u8]>]) -> Option<(i32, i32)> {
        positions
            .iter()
            .enumerate()
            .rev()
            .find_map(|(i, p)| p.and_then(|fen| self.0.get(fen)).map(|id| (*id, i as i32)))
    }
}

/// An [`OpeningIndex`] as a backend keeps it between calls: the generation of the table's
/// invalidations it was loaded at, the transaction that loaded it, and whether it was read with
/// the latest snapshot (which sees every change whose invalidation came before) or, inside a
/// parallel operation, with the transaction's own.
pub struct LoadedIndex {
    pub index: OpeningIndex,
    generation: u64,
    transaction: u32,
    latest_snapshot: bool,
}

impl LoadedIndex {
    pub fn new(
        index: OpeningIndex,
        generation: u64,
        transaction: u32,
        latest_snapshot: bool,
    ) -> Self {
        LoadedIndex {
            index,
            generation,
            transaction,
            latest_snapshot,
        }
    }

    /// Whether the index may serve a call at `generation` in `transaction`: no invalidation
    /// since it was loaded, and read with the latest snapshot or in this same transaction.
    pub fn usable(&self, generation: u64, transaction: u32) -> bool {
        self.generation == generation && (self.latest_snapshot || self.transaction == transaction)
    }
}

/// Why openings texts cannot be loaded: a line that is not an opening (22P02), or two lines that
/// reach the same position (23505).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadError {
    Line(OpeningError),
    Twice {
        first: usize,
        line: usize,
        partial_fen: String,
    },
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Line(e) => e.fmt(f),
            LoadError::Twice {
                first,
                line,
                partial_fen,
            } => write!(
                f,
                "openings lines {first} and {line} reach the same position \"{partial_fen}\""
            ),
        }
    }
}

impl Classified for LoadError {
    fn class(&self) -> ErrorClass {
        match self {
            LoadError::Line(_) => ErrorClass::InvalidText,
            LoadError::Twice { .. } => ErrorClass::UniqueViolation,
        }
    }
}

/// The openings of lichess TSV texts ([`parse_lichess_tsv`]), each position once.
pub fn openings_to_load(text: &str) -> Result<Vec<Opening>, LoadError> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    parse_lichess_tsv(text)
        .map(|o| {
            let o = o.map_err(LoadError::Line)?;
            if let Some(first) = seen.insert(o.partial_fen.clone(), o.line) {
                return Err(LoadError::Twice {
                    first,
                    line: o.line,
                    partial_fen: o.partial_fen,
                });
            }
            Ok(o)
        })
        .collect()
}

/// The openings of lichess TSV texts as `load_lichess_openings` writes them: a column per field,
/// in the order of the lines ([`openings_to_load`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OpeningColumns {
    pub eco: Vec<String>,
    pub name: Vec<String>,
    pub partial_fen: Vec<String>,
}

/// [`openings_to_load`] by column.
pub fn opening_columns(text: &str) -> Result<OpeningColumns, LoadError> {
    let mut columns = OpeningColumns::default();
    for o in openings_to_load(text)? {
        columns.eco.push(o.eco);
        columns.name.push(o.name);
        columns.partial_fen.push(o.partial_fen);
    }
    Ok(columns)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_lines_and_skips_headers() {
        let text = "\u{feff}eco\tname\tpgn\r\nA00\tAmar Opening\t1. Nh3\r\n\r\n\
eco\tname\tpgn\nC20\tKing's Pawn Game\t1. e4 e5\n";
        let o: Vec<Opening> = parse_lichess_tsv(text).map(|o| o.unwrap()).collect();
        assert_eq!(o.len(), 2);
        assert_eq!(o[0].line, 2);
        assert_eq!(o[0].eco, "A00");
        assert_eq!(
            o[0].partial_fen,
            "rnbqkbnr/pppppppp/8/8/8/7N/PPPPPPPP/RNBQKB1R b KQkq -"
        );
        assert_eq!(o[1].name, "King's Pawn Game");
        assert_eq!(
            o[1].partial_fen,
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq -"
        );
    }

    #[test]
    fn bad_lines_name_their_line() {
        let e = parse_lichess_tsv("A00\tX\n").next().unwrap().unwrap_err();
        assert_eq!(e.line, 1);
        let e = parse_lichess_tsv("eco\tname\tpgn\nZ00\tX\t1. e4\n")
            .next()
            .unwrap()
            .unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.to_string().contains("ECO"));
        let e = parse_lichess_tsv("A00\tX\t1. e5\n")
            .next()
            .unwrap()
            .unwrap_err();
        assert!(
            e.to_string().contains("illegal move \"e5\" at ply 1"),
            "{e}"
        );
    }

    #[test]
    fn every_lichess_file_parses_when_present() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../shared/data/chess-openings");
        let mut all = String::new();
        for f in ["a", "b", "c", "d", "e"] {
            match std::fs::read_to_string(dir.join(format!("{f}.tsv"))) {
                Ok(t) => all.push_str(&t),
                Err(_) => return, // the data lives outside the repo
            }
        }
        let o: Vec<Opening> = parse_lichess_tsv(&all).map(|o| o.unwrap()).collect();
        assert_eq!(o.len(), 3807);
        let mut fens: Vec<&str> = o.iter().map(|o| o.partial_fen.as_str()).collect();
        fens.sort_unstable();
        fens.dedup();
        assert_eq!(fens.len(), 3807, "partial FENs are unique");
    }

    #[test]
    fn the_index_finds_the_latest_opening_position() {
        let mut index = OpeningIndex::with_capacity(2);
        index.insert(b"start", 1);
        index.insert(b"e4", 2);
        let game = [
            Some(&b"start"[..]),
            Some(&b"e4"[..]),
            None,
            Some(&b"e4 e5 x"[..]),
        ];
        assert_eq!(index.latest(&game), Some((2, 1)));
        assert_eq!(index.latest(&game[..1]), Some((1, 0)));
        assert_eq!(index.latest(&[None, Some(&b"other"[..])]), None);
        assert_eq!(index.latest(&[]), None);
    }

    #[test]
    fn a_loaded_index_serves_until_invalidated_or_past_its_transaction() {
        let latest = LoadedIndex::new(OpeningIndex::default(), 7, 100, true);
        assert!(latest.usable(7, 100));
        assert!(
            latest.usable(7, 101),
            "the latest snapshot serves later transactions"
        );
        assert!(!latest.usable(8, 100), "an invalidation came");
        let own = LoadedIndex::new(OpeningIndex::default(), 7, 100, false);
        assert!(own.usable(7, 100));
        assert!(
            !own.usable(7, 101),
            "a transaction's own snapshot serves it alone"
        );
        assert!(!own.usable(6, 100));
    }

    #[test]
    fn fx_hash_differs_by_byte_and_length() {
        let h = |b: &[u8]| {
            let mut x = FxHasher::default();
            x.write(b);
            x.finish()
        };
        assert_ne!(h(b"abcdefgh1"), h(b"abcdefgh2"));
        assert_ne!(h(b"abcdefgh"), h(b"bbcdefgh"));
        assert_eq!(h(b"rnbqkbnr/pppppppp"), h(b"rnbqkbnr/pppppppp"));
    }

    #[test]
    fn opening_columns_keep_the_lines_order() {
        let c = opening_columns("A00\tAmar Opening\t1. Nh3\nC20\tKing's Pawn Game\t1. e4 e5\n")
            .unwrap();
        assert_eq!(c.eco, ["A00", "C20"]);
        assert_eq!(c.name, ["Amar Opening", "King's Pawn Game"]);
        assert_eq!(
            c.partial_fen,
            [
                "rnbqkbnr/pppppppp/8/8/8/7N/PPPPPPPP/RNBQKB1R b KQkq -",
                "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq -"
            ]
        );
        assert_eq!(
            opening_columns("eco\tname\tpgn\n"),
            Ok(OpeningColumns::default())
        );
        assert!(opening_columns("A00\tbad\t1. Ke2\n").is_err());
    }

    #[test]
    fn openings_to_load_refuse_a_position_twice() {
        let text = "A00\tAmar Opening\t1. Nh3\nA00\tAmar again\t1. Nh3\n";
        let e = openings_to_load(text).unwrap_err();
        assert_eq!(
            e.to_string(),
            "openings lines 1 and 2 reach the same position \"rnbqkbnr/pppppppp/8/8/8/7N/PPPPPPPP/RNBQKB1R b KQkq -\""
        );
        let e = openings_to_load("A00\tbad\t1. Ke2\n").unwrap_err();
        assert!(matches!(e, LoadError::Line(ref l) if l.line == 1), "{e:?}");
        assert_eq!(
            openings_to_load("A00\tAmar Opening\t1. Nh3\n")
                .unwrap()
                .len(),
            1
        );
    }
}
