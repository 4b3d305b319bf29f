//! Starting positions, partial FENs, and replaying UCI or SAN moves.

use shakmaty::fen::{Epd, Fen, ParseFenError};
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::{
    Bitboard, CastlingMode, Chess, EnPassantMode, File, FromSetup, Move, Position, PositionError,
    PositionErrorKinds, Square,
};

use super::error::{ChessError, FenError, FenField, MoveError, MoveErrorKind};
use crate::error::Quoted;

/// The standard starting position as a full FEN.
pub const STANDARD_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

fn fen_error(fen: &str, field: FenField, reason: impl Into<String>) -> FenError {
    FenError {
        fen: fen.to_owned(),
        field,
        reason: reason.into(),
    }
}

/// Parses a 4-field or 6-field FEN of a legal chess position. Castling rights may use
/// `KQkq` or file letters (Shredder-FEN / X-FEN), so Chess960 starts work too.
/// The castling field is `-` or at most two rights per colour, each written once (`KQkq`, or the
/// rook files of Shredder-FEN / X-FEN): shakmaty reads `KQkqKQ` as `KQkq`, which hides a typo.
fn check_castling_field(fen: &str, field: &str) -> Result<(), FenError> {
    if field == "-" {
        return Ok(());
    }
    let valid = |c: char| "KQkq".contains(c) || matches!(c, 'A'..='H' | 'a'..='h');
    let mut seen = Vec::with_capacity(4);
    for c in field.chars() {
        if !valid(c) || seen.contains(&c) {
            return Err(fen_error(
                fen,
                FenField::Castling,
                format!("cannot parse {}", Quoted(field)),
            ));
        }
        seen.push(c);
    }
    let white = seen.iter().filter(|c| c.is_ascii_uppercase()).count();
    if white > 2 || seen.len() - white > 2 {
        return Err(fen_error(
            fen,
            FenField::Castling,
            format!(
                "{} gives a colour more than two castling rights",
                Quoted(field)
            ),
        ));
    }
    Ok(())
}

/// The most moves one call reads or writes: far beyond any legal game (the 75-move rule ends
/// one within 8,849 plies), and it keeps a call's memory within some tens of megabytes.
pub const MAX_MOVES: usize = 100_000;

pub fn parse_start(fen: &str) -> Result<Chess, FenError> {
    let fields: Vec<&str> = fen.split_ascii_whitespace().collect();
    if fields.len() != 4 && fields.len() != 6 {
        return Err(fen_error(
            fen,
            FenField::Fields,
            format!("expected 4 or 6 fields, got {}", fields.len()),
        ));
    }
    if fields.iter().any(|f| f.contains('_')) {
        return Err(fen_error(fen, FenField::Fields, "unexpected \"_\""));
    }
    if fields.len() == 6 {
        for (i, field) in [(4, FenField::HalfmoveClock), (5, FenField::FullmoveNumber)] {
            let v = fields[i];
            if v.is_empty() || v.len() > 9 || !v.bytes().all(|b| b.is_ascii_digit()) {
                return Err(fen_error(
                    fen,
                    field,
                    format!("{} is not a number", Quoted(v)),
                ));
            }
        }
    }
    check_castling_field(fen, fields[2])?;
    let joined = fields.join(" ");
    let parsed = Fen::from_ascii(joined.as_bytes()).map_err(|e| {
        let (field, value) = match e {
            ParseFenError::InvalidBoard | ParseFenError::InvalidPocket => {
                (FenField::Placement, fields[0])
            }
            ParseFenError::InvalidTurn => (FenField::SideToMove, fields[1]),
            ParseFenError::InvalidCastling => (FenField::Castling, fields[2]),
            ParseFenError::InvalidEpSquare => (FenField::EnPassant, fields[3]),
            ParseFenError::InvalidHalfmoveClock => (
                FenField::HalfmoveClock,
                fields.get(4).copied().unwrap_or(""),
            ),
            ParseFenError::InvalidFullmoves => (
                FenField::FullmoveNumber,
                fields.get(5).copied().unwrap_or(""),
            ),
            _ => (FenField::Fields, fen),
        };
        fen_error(fen, field, format!("cannot parse {}", Quoted(value)))
    })?;
    // The placement must be exactly 8 ranks of pieces: no crazyhouse pockets.
    if fields[0].contains('[') || fields[0].split('/').count() != 8 {
        return Err(fen_error(
            fen,
            FenField::Placement,
            format!("cannot parse {}", Quoted(fields[0])),
        ));
    }
    // Castling rights that no king and rook back, and an en passant square no double step
    // explains, are dropped (as python-chess and lichess do): nothing about the position is
    // ambiguous. A position that cannot occur stays an error.
    Chess::from_setup(parsed.into_setup(), CastlingMode::Chess960)
        .or_else(PositionError::ignore_invalid_castling_rights)
        .or_else(PositionError::ignore_invalid_ep_square)
        .map_err(|e| {
            let kinds = e.kinds();
            let (field, reason) = if kinds.contains(PositionErrorKinds::EMPTY_BOARD) {
                (FenField::Placement, "the board is empty")
            } else if kinds.contains(PositionErrorKinds::MISSING_KING) {
                (FenField::Placement, "a king is missing")
            } else if kinds.contains(PositionErrorKinds::TOO_MANY_KINGS) {
                (FenField::Placement, "too many kings")
            } else if kinds.contains(PositionErrorKinds::PAWNS_ON_BACKRANK) {
                (FenField::Placement, "pawns on the first or last rank")
            } else if kinds.contains(PositionErrorKinds::TOO_MUCH_MATERIAL) {
                (FenField::Placement, "too much material")
            } else if kinds.contains(PositionErrorKinds::OPPOSITE_CHECK) {
                (FenField::SideToMove, "the side not to move is in check")
            } else if kinds.contains(PositionErrorKinds::IMPOSSIBLE_CHECK) {
                (FenField::Placement, "impossible check")
            } else if kinds.contains(PositionErrorKinds::INVALID_CASTLING_RIGHTS) {
                (
                    FenField::Castling,
                    "no king and rook for these castling rights",
                )
            } else if kinds.contains(PositionErrorKinds::INVALID_EP_SQUARE) {
                (
                    FenField::EnPassant,
                    "no pawn just made a double step to pass this square",
                )
            } else {
                (FenField::Placement, "not a standard chess position")
            };
            fen_error(fen, field, reason)
        })
}

/// Appends the partial FEN (four fields, legal en passant only) of `pos` to `out`.
#[inline]
pub fn write_partial_fen(pos: &Chess, out: &mut String) {
    FenWriter::default().write(pos, out);
}

/// Writes partial FENs of successive positions of a game: a rank whose pieces did not change
/// since the previous position is copied, not rendered again (a move changes one to three ranks).
/// Castling rights other than the corner rooks (Chess960) go through shakmaty's X-FEN writer.
#[derive(Default)]
pub struct FenWriter {
    valid: bool,
    /// Per rank (index 0 = rank 1): the rank's byte of the white, pawn, knight, bishop, rook,
    /// queen and king bitboards.
    keys: [[u8; 8]; 8],
    text: [[u8; 8]; 8],
    lens: [u8; 8],
}

const PIECE_LETTERS: [u8; 6] = [b'p', b'n', b'b', b'r', b'q', b'k'];

impl FenWriter {
    fn render_rank(key: &[u8; 8], text: &mut [u8; 8]) -> u8 {
        let occupied = key[1] | key[2] | key[3] | key[4] | key[5] | key[6];
        let mut n = 0;
        let mut empty = 0u8;
        for file in 0..8 {
            let bit = 1u8 << file;
            if occupied & bit == 0 {
                empty += 1;
                continue;
            }
            if empty > 0 {
                text[n] = b'0' + empty;
                n += 1;
                empty = 0;
            }
            let role = (1..7).find(|&r| key[r] & bit != 0).unwrap_or(1);
            let letter = PIECE_LETTERS[role - 1];
            text[n] = if key[0] & bit != 0 {
                letter.to_ascii_uppercase()
            } else {
                letter
            };
            n += 1;
        }
        if empty > 0 {
            text[n] = b'0' + empty;
            n += 1;
        }
        n as u8
    }

    /// Appends the partial FEN of `pos` to `out`.
    pub fn write(&mut self, pos: &Chess, out: &mut String) {
        let rights = pos.castles().castling_rights();
        let corners = Bitboard::from(Square::A1)
            | Bitboard::from(Square::H1)
            | Bitboard::from(Square::A8)
            | Bitboard::from(Square::H8);
        if !(rights & !corners).is_empty() {
            Epd::from_position(pos, EnPassantMode::Legal).append_to_string(out);
            return;
        }
        let board = pos.board();
        let bbs = [
            board.by_color(shakmaty::Color::White).0,
            board.pawns().0,
            board.knights().0,
            board.bishops().0,
            board.rooks().0,
            board.queens().0,
            board.kings().0,
        ];
        let mut buf = [0u8; 96];
        let mut n = 0;
        for rank in (0..8usize).rev() {
            let shift = rank * 8;
            let mut key = [0u8; 8];
            for (k, bb) in key.iter_mut().zip(bbs) {
                *k = (bb >> shift) as u8;
            }
            if !self.valid || self.keys[rank] != key {
                self.lens[rank] = Self::render_rank(&key, &mut self.text[rank]);
                self.keys[rank] = key;
            }
            // a fixed-size copy (one move), of which the rank's length counts
            buf[n..n + 8].copy_from_slice(&self.text[rank]);
            n += usize::from(self.lens[rank]);
            buf[n] = if rank > 0 { b'/' } else { b' ' };
            n += 1;
        }
        self.valid = true;
        buf[n] = if pos.turn() == shakmaty::Color::White {
            b'w'
        } else {
            b'b'
        };
        buf[n + 1] = b' ';
        n += 2;
        if rights.is_empty() {
            buf[n] = b'-';
            n += 1;
        } else {
            for (sq, c) in [
                (Square::H1, b'K'),
                (Square::A1, b'Q'),
                (Square::H8, b'k'),
                (Square::A8, b'q'),
            ] {
                if rights.contains(sq) {
                    buf[n] = c;
                    n += 1;
                }
            }
        }
        buf[n] = b' ';
        n += 1;
        match pos.ep_square(EnPassantMode::Legal) {
            Some(sq) => {
                buf[n] = sq.file().char() as u8;
                buf[n + 1] = sq.rank().char() as u8;
                n += 2;
            }
            None => {
                buf[n] = b'-';
                n += 1;
            }
        }
        // (only ASCII bytes were written to buf: each is one char)
        out.extend(buf[..n].iter().map(|&b| char::from(b)));
    }
}

/// The partial FEN of `pos`.
pub fn partial_fen(pos: &Chess) -> String {
    let mut s = String::with_capacity(64);
    write_partial_fen(pos, &mut s);
    s
}

/// The full FEN of `pos` (legal en passant only), as error messages and PGN show it.
pub fn full_fen(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

/// The UCI spelling we store: castling as `e1g1` when king and rook stand where standard
/// chess puts them, else king-takes-rook (`b1a1`), which is the only unambiguous form for
/// Chess960 starts.
pub fn uci_of(m: Move) -> String {
    let mode = match m {
        Move::Castle { king, rook }
            if king.file() == File::E && matches!(rook.file(), File::A | File::H) =>
        {
            CastlingMode::Standard
        }
        Move::Castle { .. } => CastlingMode::Chess960,
        _ => CastlingMode::Standard,
    };
    UciMove::from_move(m, mode).to_string()
}

fn move_error(pos: &Chess, ply: usize, mv: &str, kind: MoveErrorKind) -> MoveError {
    MoveError {
        ply,
        mv: mv.to_owned(),
        position: full_fen(pos),
        kind,
    }
}

/// The legal move a UCI string names in `pos` (ply counted from 1 for messages).
#[inline]
pub fn uci_move(pos: &Chess, ply: usize, mv: &str) -> Result<Move, MoveError> {
    let uci = UciMove::from_ascii(mv.as_bytes())
        .map_err(|_| move_error(pos, ply, mv, MoveErrorKind::Unparsable))?;
    uci.to_move(pos)
        .map_err(|_| move_error(pos, ply, mv, MoveErrorKind::Illegal))
}

/// Plays one UCI move (ply counted from 1 for messages) and returns it.
#[inline]
pub fn play_uci(pos: &mut Chess, ply: usize, mv: &str) -> Result<Move, MoveError> {
    let m = uci_move(pos, ply, mv)?;
    pos.play_unchecked(m);
    Ok(m)
}

/// Plays one SAN move (`Nf3`, `exd8=Q+`, `O-O`); a `+`/`#` suffix is accepted, not checked.
pub fn play_san(pos: &mut Chess, ply: usize, san: &str) -> Result<Move, MoveError> {
    let sp = SanPlus::from_ascii(san.as_bytes())
        .map_err(|_| move_error(pos, ply, san, MoveErrorKind::Unparsable))?;
    let m = sp.san.to_move(pos).map_err(|e| {
        let kind = match e {
            shakmaty::san::SanError::AmbiguousSan => MoveErrorKind::Ambiguous,
            shakmaty::san::SanError::IllegalSan => MoveErrorKind::Illegal,
        };
        move_error(pos, ply, san, kind)
    })?;
    pos.play_unchecked(m);
    Ok(m)
}

/// The partial FEN of the start and of the position after every move.
pub fn fen_array<'a, I>(start: &str, moves: I) -> Result<Vec<String>, ChessError>
where
    I: IntoIterator<Item = Option<&'a str>>,
{
    let mut buf = String::new();
    let mut ends = Vec::new();
    fen_array_into(start, moves, &mut buf, &mut ends)?;
    Ok(pieces(&buf, &ends).map(str::to_owned).collect())
}

/// The strings written one after another in `text`, `ends[i]` being where the i-th ends (as
/// [`fen_array_into`] writes them).
pub fn pieces<'a>(
    text: &'a str,
    ends: &'a [usize],
) -> impl ExactSizeIterator<Item = &'a str> + Clone + 'a {
    ends.iter()
        .enumerate()
        .map(move |(i, &end)| &text[if i == 0 { 0 } else { ends[i - 1] }..end])
}

/// `Err(TooManyMoves)` for the ply after the last one a call takes.
fn within_limit(i: usize) -> Result<(), ChessError> {
    if i >= MAX_MOVES {
        return Err(ChessError::TooManyMoves);
    }
    Ok(())
}

/// [`fen_array`] without an allocation per position: the partial FENs are written one after
/// another into `buf` (cleared first) and `ends[i]` is where the i-th one ends ([`pieces`]).
pub fn fen_array_into<'a, I>(
    start: &str,
    moves: I,
    buf: &mut String,
    ends: &mut Vec<usize>,
) -> Result<(), ChessError>
where
    I: IntoIterator<Item = Option<&'a str>>,
{
    buf.clear();
    ends.clear();
    let mut pos = parse_start(start)?;
    let iter = moves.into_iter();
    within_limit(iter.size_hint().0.saturating_sub(1))?;
    buf.reserve(64 * (iter.size_hint().0 + 1));
    ends.reserve(iter.size_hint().0 + 1);
    let mut writer = FenWriter::default();
    writer.write(&pos, buf);
    ends.push(buf.len());
    for (i, mv) in iter.enumerate() {
        within_limit(i)?;
        let mv = mv.ok_or(ChessError::NullMove(i + 1))?;
        play_uci(&mut pos, i + 1, mv)?;
        writer.write(&pos, buf);
        ends.push(buf.len());
    }
    Ok(())
}

/// SAN (with `+` and `#`) of each UCI move.
pub fn moves_to_san<'a, I>(start: &str, moves: I) -> Result<Vec<String>, ChessError>
where
    I: IntoIterator<Item = Option<&'a str>>,
{
    let mut pos = parse_start(start)?;
    let mut out = Vec::new();
    for (i, mv) in moves.into_iter().enumerate() {
        within_limit(i)?;
        let mv = mv.ok_or(ChessError::NullMove(i + 1))?;
        let m = uci_move(&pos, i + 1, mv)?;
        out.push(SanPlus::from_move_and_play_unchecked(&mut pos, m).to_string());
    }
    Ok(out)
}

/// UCI of each SAN move.
pub fn san_to_moves<'a, I>(start: &str, sans: I) -> Result<Vec<String>, ChessError>
where
    I: IntoIterator<Item = Option<&'a str>>,
{
    let mut pos = parse_start(start)?;
    let mut out = Vec::new();
    for (i, san) in sans.into_iter().enumerate() {
        within_limit(i)?;
        let san = san.ok_or(ChessError::NullMove(i + 1))?;
        out.push(uci_of(play_san(&mut pos, i + 1, san)?));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const START4: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";

    #[test]
    fn pieces_cut_the_text_at_their_ends() {
        let text = "abcdef";
        let all: Vec<&str> = pieces(text, &[1, 1, 4, 6]).collect();
        assert_eq!(all, ["a", "", "bcd", "ef"]);
        assert_eq!(pieces(text, &[]).len(), 0);
        let (mut buf, mut ends) = (String::new(), Vec::new());
        fen_array_into(START4, [Some("e2e4")], &mut buf, &mut ends).unwrap();
        assert_eq!(
            pieces(&buf, &ends).collect::<Vec<_>>(),
            fen_array(START4, [Some("e2e4")]).unwrap()
        );
    }

    fn fens(start: &str, moves: &[&str]) -> Result<Vec<String>, ChessError> {
        fen_array(start, moves.iter().map(|m| Some(*m)))
    }

    #[test]
    fn start_and_moves() {
        let f = fens(STANDARD_FEN, &["e2e4", "c7c5", "g1f3"]).unwrap();
        assert_eq!(
            f,
            vec![
                START4,
                // no black pawn can take on e3: no en passant square
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -",
                "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq -",
                "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq -",
            ]
        );
        assert_eq!(fens(START4, &[]).unwrap(), vec![START4]);
    }

    #[test]
    fn en_passant_only_when_legal() {
        // 1. e4 a6 2. e5 d5: white can take d6 en passant.
        let f = fens(STANDARD_FEN, &["e2e4", "a7a6", "e4e5", "d7d5", "e5d6"]).unwrap();
        assert_eq!(
            f[4],
            "rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6"
        );
        assert_eq!(
            f[5],
            "rnbqkbnr/1pp1pppp/p2P4/8/8/8/PPPP1PPP/RNBQKBNR b KQkq -"
        );
        // A pinned pawn cannot take en passant: no square. White king a5, pawn b5,
        // black rook h5; black plays c7c5: bxc6 would expose the king.
        let f = fens("8/2p5/8/KP5r/8/8/8/7k b - - 0 1", &["c7c5"]).unwrap();
        assert_eq!(f[1], "8/8/8/KPp4r/8/8/8/7k w - -");
        // Without the pin the square is shown.
        let f = fens("8/2p5/8/1P5r/8/8/8/K6k b - - 0 1", &["c7c5"]).unwrap();
        assert_eq!(f[1], "8/8/8/1Pp4r/8/8/8/K6k w - c6");
        // A start with an en passant square that cannot be used drops it.
        let f = fens(
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
            &[],
        )
        .unwrap();
        assert_eq!(
            f[0],
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -"
        );
    }

    #[test]
    fn castling_both_spellings_and_promotion() {
        let start = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        let a = fens(start, &["e1g1", "e8c8"]).unwrap();
        let b = fens(start, &["e1h1", "e8a8"]).unwrap();
        assert_eq!(a, b);
        assert_eq!(a[1], "r3k2r/8/8/8/8/8/8/R4RK1 b kq -");
        assert_eq!(a[2], "2kr3r/8/8/8/8/8/8/R4RK1 w - -");
        let p = fens("8/4P1k1/8/8/8/8/8/4K3 w - - 0 1", &["e7e8q"]).unwrap();
        assert_eq!(p[1], "4Q3/6k1/8/8/8/8/8/4K3 b - -");
        let n = fens("8/4P1k1/8/8/8/8/8/4K3 w - - 0 1", &["e7e8n"]).unwrap();
        assert_eq!(n[1], "4N3/6k1/8/8/8/8/8/4K3 b - -");
        // Without the right, e1g1 is an illegal king move.
        let e = fens("r3k2r/8/8/8/8/8/8/R3K2R w kq - 0 1", &["e1g1"]).unwrap_err();
        assert!(matches!(
            e,
            ChessError::Move(MoveError {
                ply: 1,
                kind: MoveErrorKind::Illegal,
                ..
            })
        ));
    }

    #[test]
    fn chess960_start_castles_king_takes_rook() {
        // King b1, rooks a1 and h1 (Shredder-FEN castling).
        let start = "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1";
        let f = fens(start, &["b1a1"]).unwrap();
        assert_eq!(f[1], "rk5r/pppppppp/8/8/8/8/PPPPPPPP/2KR3R b kq -");
        assert_eq!(san_to_moves(start, [Some("O-O-O")]).unwrap(), vec!["b1a1"]);
        assert_eq!(moves_to_san(start, [Some("b1a1")]).unwrap(), vec!["O-O-O"]);
    }

    #[test]
    fn errors_name_field_ply_move_and_position() {
        let e = parse_start("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq").unwrap_err();
        assert_eq!(e.field, FenField::Fields);
        let e =
            parse_start("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1").unwrap_err();
        assert_eq!(e.field, FenField::Placement);
        let e =
            parse_start("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1").unwrap_err();
        assert_eq!(e.field, FenField::SideToMove);
        let e =
            parse_start("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkz - 0 1").unwrap_err();
        assert_eq!(e.field, FenField::Castling);
        for castling in ["KQkqKQ", "KK", "KQA", "kqh", "KQkq-"] {
            let fen = format!("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w {castling} - 0 1");
            assert_eq!(
                parse_start(&fen).unwrap_err().field,
                FenField::Castling,
                "{castling}"
            );
        }
        assert!(parse_start("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1").is_ok());
        let e =
            parse_start("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1").unwrap_err();
        assert_eq!(e.field, FenField::EnPassant);
        // what no double step explains, and castling rights without king and rook, are dropped
        let p = parse_start("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1").unwrap();
        assert_eq!(
            partial_fen(&p),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"
        );
        let p = parse_start("4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1").unwrap();
        assert_eq!(partial_fen(&p), "4k3/8/8/8/8/8/8/4K3 w - -");
        let p = parse_start("r3k3/8/8/8/8/8/8/4K2R b KQkq e3 0 1").unwrap();
        assert_eq!(partial_fen(&p), "r3k3/8/8/8/8/8/8/4K2R b Kq -");
        // a position that cannot occur stays an error
        let e = parse_start("4k3/8/8/8/8/8/8/4K2k w - - 0 1").unwrap_err();
        assert_eq!(e.field, FenField::Placement);
        let e = parse_start("4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1").unwrap_err();
        assert_eq!(e.field, FenField::SideToMove);
        let e =
            parse_start("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1").unwrap_err();
        assert_eq!(e.field, FenField::HalfmoveClock);
        let e =
            parse_start("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 -1").unwrap_err();
        assert_eq!(e.field, FenField::FullmoveNumber);
        let e = parse_start("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1").unwrap_err();
        assert_eq!(e.field, FenField::Placement);
        let e = parse_start("8/8/8/8/8/8/8/8 w - - 0 1").unwrap_err();
        assert_eq!(e.field, FenField::Placement);
        assert!(e.to_string().contains("piece placement"), "{e}");
        let e = parse_start("").unwrap_err();
        assert_eq!(e.field, FenField::Fields);

        let e = fens(STANDARD_FEN, &["e2e4", "e7e5", "e4e5"]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "illegal move \"e4e5\" at ply 3 in position \
             \"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\""
        );
        let e = fens(STANDARD_FEN, &["e2e4", "xx"]).unwrap_err();
        assert!(matches!(
            e,
            ChessError::Move(MoveError {
                ply: 2,
                kind: MoveErrorKind::Unparsable,
                ..
            })
        ));
        for bad in ["", "e2e4 ", "E2E4", "e2e4x", "0000", "P@e4", "e7e8q"] {
            assert!(fens(STANDARD_FEN, &[bad]).is_err(), "{bad:?}");
        }
        let e = fen_array(STANDARD_FEN, [Some("e2e4"), None]).unwrap_err();
        assert_eq!(e, ChessError::NullMove(2));
    }

    #[test]
    fn san_both_ways() {
        let moves = ["e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7"];
        let san = moves_to_san(STANDARD_FEN, moves.iter().map(|m| Some(*m))).unwrap();
        assert_eq!(san, ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"]);
        let back = san_to_moves(STANDARD_FEN, san.iter().map(|s| Some(s.as_str()))).unwrap();
        assert_eq!(back, moves);
        // Check, promotion, disambiguation and castling.
        let start = "r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1";
        let san = moves_to_san(start, [Some("b7a8q"), Some("e8d7"), Some("e1c1")]).unwrap();
        assert_eq!(san, ["bxa8=Q+", "Kd7", "O-O-O+"]);
        let e = san_to_moves("4k3/8/8/8/8/8/8/4KN1N w - - 0 1", [Some("Ng3")]).unwrap_err();
        assert!(matches!(
            e,
            ChessError::Move(MoveError {
                kind: MoveErrorKind::Ambiguous,
                ..
            })
        ));
        assert_eq!(
            san_to_moves("4k3/8/8/8/8/8/8/4KN1N w - - 0 1", [Some("Nhg3")]).unwrap(),
            ["h1g3"]
        );
        let e = san_to_moves(STANDARD_FEN, [Some("e4"), Some("e4")]).unwrap_err();
        assert!(matches!(
            e,
            ChessError::Move(MoveError {
                ply: 2,
                kind: MoveErrorKind::Illegal,
                ..
            })
        ));
        let e = san_to_moves(STANDARD_FEN, [Some("Zz9")]).unwrap_err();
        assert!(matches!(
            e,
            ChessError::Move(MoveError {
                ply: 1,
                kind: MoveErrorKind::Unparsable,
                ..
            })
        ));
    }

    #[test]
    fn fast_writer_matches_shakmaty_epd() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let starts = [
            STANDARD_FEN,
            "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1",
            "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
        ];
        let mut positions = 0;
        for game in 0..600 {
            let mut pos = parse_start(starts[game % starts.len()]).unwrap();
            let mut writer = FenWriter::default();
            for _ in 0..(next() % 200) {
                let want = Epd::from_position(&pos, EnPassantMode::Legal).to_string();
                let mut s = String::new();
                write_partial_fen(&pos, &mut s);
                assert_eq!(s, want);
                let mut s = String::new();
                writer.write(&pos, &mut s);
                assert_eq!(s, want);
                positions += 1;
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let m = legal[(next() % legal.len() as u64) as usize];
                pos.play_unchecked(m);
            }
        }
        assert!(positions > 10_000);
    }

    #[test]
    fn a_call_takes_at_most_max_moves() {
        let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
        let moves: Vec<Option<&str>> = (0..MAX_MOVES).map(|i| Some(shuffle[i % 4])).collect();
        assert_eq!(
            fen_array(STANDARD_FEN, moves.iter().copied())
                .unwrap()
                .len(),
            MAX_MOVES + 1
        );
        let one_more: Vec<Option<&str>> = (0..=MAX_MOVES).map(|i| Some(shuffle[i % 4])).collect();
        assert_eq!(
            fen_array(STANDARD_FEN, one_more.iter().copied()),
            Err(ChessError::TooManyMoves)
        );
        assert_eq!(
            moves_to_san(STANDARD_FEN, one_more.iter().copied()),
            Err(ChessError::TooManyMoves)
        );
    }

    #[test]
    fn long_games_work() {
        // Knights shuffle for 1,200 plies.
        let cycle = ["g1f3", "g8f6", "f3g1", "f6g8"];
        let moves: Vec<&str> = cycle.iter().copied().cycle().take(1200).collect();
        let f = fens(STANDARD_FEN, &moves).unwrap();
        assert_eq!(f.len(), 1201);
        assert_eq!(f[1200], START4);
    }
}
