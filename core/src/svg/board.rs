//! A chess position as an SVG picture: the 8x8 board with white at the bottom, light and dark
//! squares, file letters under the board and rank numbers left of it, the pieces as vector
//! shapes, and the two squares of the last move in their own colours.
//!
//! The picture is drawn in user units `0 0 360 360` whatever its size in pixels: a frame of
//! [`MARGIN`] units around 64 squares of [`SQUARE`] units, a1 at the bottom left.

use std::fmt;

use shakmaty::uci::UciMove;
use shakmaty::{Color, File, Piece, Position, Rank, Role, Square};

use super::{close_document, escape, num, open_document};
use crate::chess::{parse_start, partial_fen, FenError};
use crate::error::{Classified, ErrorClass};

/// The side of a square, in user units.
pub const SQUARE: u32 = 40;
/// The frame around the squares that holds the coordinates, in user units.
pub const MARGIN: u32 = 20;
/// The side of the whole picture, in user units.
pub const VIEW: u32 = 2 * MARGIN + 8 * SQUARE;
/// The smallest and largest `size` in pixels.
pub const MIN_SIZE: i32 = 64;
pub const MAX_SIZE: i32 = 4096;

pub const LIGHT: &str = "#ecdcbc";
pub const DARK: &str = "#a97c5a";
/// A light and a dark square of the last move.
pub const LIGHT_LAST_MOVE: &str = "#f2e26e";
pub const DARK_LAST_MOVE: &str = "#c9ad34";
pub const FRAME: &str = "#3a332c";
pub const COORDINATES: &str = "#ece4d2";

const WHITE_FILL: &str = "#fdfcf7";
const WHITE_LINE: &str = "#23201c";
const BLACK_FILL: &str = "#2a2622";
const BLACK_LINE: &str = "#0f0d0b";
const BLACK_DETAIL: &str = "#e9e2d4";

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardSvgError {
    /// The FEN is not one of a legal position (reported as the chess functions report it).
    Fen(FenError),
    /// `last_move` does not name two squares the way UCI does.
    LastMove(String),
    /// `size` is outside [`MIN_SIZE`]..=[`MAX_SIZE`].
    Size(i32),
}

impl Classified for BoardSvgError {
    fn class(&self) -> ErrorClass {
        match self {
            Self::Fen(_) => ErrorClass::InvalidText,
            Self::LastMove(_) | Self::Size(_) => ErrorClass::InvalidParameter,
        }
    }
}

impl fmt::Display for BoardSvgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Fen(e) => e.fmt(f),
            Self::LastMove(m) => write!(
                f,
                "last_move \"{m}\" does not name two squares as a UCI move does (like e2e4 or e7e8q)"
            ),
            Self::Size(s) => write!(
                f,
                "size must be between {MIN_SIZE} and {MAX_SIZE} pixels, got {s}"
            ),
        }
    }
}

impl std::error::Error for BoardSvgError {}

/// The from- and to-square of a UCI move (`e2e4`, `e7e8q`, castling `e1g1` or `e1h1`). It need
/// not be legal anywhere, but it must be two different squares and a promotion to q, r, b or n;
/// a null move (`0000`) and a drop (`Q@e4`) name no two squares.
pub fn last_move_squares(uci: &str) -> Result<(Square, Square), BoardSvgError> {
    let bad = || BoardSvgError::LastMove(uci.to_owned());
    match UciMove::from_ascii(uci.as_bytes()).map_err(|_| bad())? {
        UciMove::Normal {
            from,
            to,
            promotion,
        } if from != to
            && promotion.is_none_or(|_| {
                matches!(uci.as_bytes().get(4), Some(b'q' | b'r' | b'b' | b'n'))
            }) =>
        {
            Ok((from, to))
        }
        _ => Err(bad()),
    }
}

/// The top-left corner of a square in user units (white at the bottom).
pub fn square_origin(sq: Square) -> (u32, u32) {
    (
        MARGIN + SQUARE * sq.file().to_u32(),
        MARGIN + SQUARE * (7 - sq.rank().to_u32()),
    )
}

/// The fill of a square: light or dark, in the last move's colours when it is one of its squares.
pub fn square_fill(sq: Square, last_move: bool) -> &'static str {
    match (sq.is_light(), last_move) {
        (true, false) => LIGHT,
        (false, false) => DARK,
        (true, true) => LIGHT_LAST_MOVE,
        (false, true) => DARK_LAST_MOVE,
    }
}

/// The picture of the position `fen` (4 or 6 fields, read as the chess functions read it),
/// `size` pixels wide and high, with the squares of `last_move` highlighted.
pub fn board_svg(fen: &str, last_move: Option<&str>, size: i32) -> Result<String, BoardSvgError> {
    if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
        return Err(BoardSvgError::Size(size));
    }
    let pos = parse_start(fen).map_err(BoardSvgError::Fen)?;
    let marked = last_move.map(last_move_squares).transpose()?;
    let title = match last_move {
        Some(m) => format!("Chess position {}, last move {m}", partial_fen(&pos)),
        None => format!("Chess position {}", partial_fen(&pos)),
    };
    let mut out = String::with_capacity(16 * 1024);
    let view = f64::from(VIEW);
    open_document(&mut out, size, size, view, view, &title);
    out.push_str(&format!(
        "<rect width=\"{VIEW}\" height=\"{VIEW}\" fill=\"{FRAME}\"/>\n"
    ));
    for sq in (0..64).map(Square::new) {
        let (x, y) = square_origin(sq);
        let is_marked = marked.is_some_and(|(from, to)| sq == from || sq == to);
        out.push_str(&format!(
            "<rect x=\"{x}\" y=\"{y}\" width=\"{SQUARE}\" height=\"{SQUARE}\" fill=\"{}\"/>\n",
            square_fill(sq, is_marked)
        ));
    }
    coordinates(&mut out);
    let board = pos.board();
    for sq in (0..64).map(Square::new) {
        if let Some(piece) = board.piece_at(sq) {
            draw_piece(&mut out, piece, square_origin(sq));
        }
    }
    close_document(&mut out);
    Ok(out)
}

/// File letters centred under the board, rank numbers centred left of it.
fn coordinates(out: &mut String) {
    out.push_str(&format!(
        "<g font-family=\"sans-serif\" font-size=\"13\" font-weight=\"bold\" fill=\"{COORDINATES}\" \
         text-anchor=\"middle\">\n"
    ));
    let half = f64::from(SQUARE) / 2.0;
    let m = f64::from(MARGIN);
    for i in 0..8u32 {
        let file = File::new(i);
        let centre = m + f64::from(SQUARE * i) + half;
        out.push_str(&format!(
            "<text x=\"{}\" y=\"{}\">{}</text>\n",
            num(centre),
            num(f64::from(VIEW) - m / 2.0 + 4.5),
            file.char()
        ));
        let rank = Rank::new(7 - i);
        out.push_str(&format!(
            "<text x=\"{}\" y=\"{}\">{}</text>\n",
            num(m / 2.0),
            num(centre + 4.5),
            rank.char()
        ));
    }
    out.push_str("</g>\n");
}

/// One shape of a piece in a 40 x 40 cell: a body part (filled in the piece's colour and outlined)
/// or a detail (drawn in the contrasting colour).
enum Shape {
    Path(&'static str),
    Circle(f64, f64, f64),
    Rect(f64, f64, f64, f64),
    DetailLine(&'static str),
    DetailDot(f64, f64, f64),
}

use Shape::{Circle, DetailDot, DetailLine, Path, Rect};

/// The pieces, designed for pg_rating: a base, a body and a head each.
fn shapes(role: Role) -> &'static [Shape] {
    match role {
        Role::Pawn => &[
            Path("M14 31.5 C14 25.5 16.8 22.5 17.4 19 H22.6 C23.2 22.5 26 25.5 26 31.5 Z"),
            Circle(20.0, 14.0, 5.5),
            Rect(11.0, 31.0, 18.0, 3.5),
        ],
        Role::Rook => &[
            Path("M13 31.5 L14.5 17 H25.5 L27 31.5 Z"),
            Path("M12 17 V9 H15.6 V12 H18.2 V9 H21.8 V12 H24.4 V9 H28 V17 Z"),
            Rect(10.0, 31.0, 20.0, 3.5),
            DetailLine("M14.2 21 H25.8"),
        ],
        Role::Knight => &[
            Path(
                "M13 32 C13.8 27.5 18 24 19.4 19.4 C18.3 20.4 16.4 21.3 14.8 21.9 \
                 C13.3 23.6 11.8 24 10 23 L9.2 20.5 C10.5 15.5 13.5 11.5 16.8 10 L18.5 6.5 \
                 L20 9.5 C21 9.5 22.5 10.3 24 12 C28.5 17 29.5 25 29 32 Z",
            ),
            Rect(11.0, 31.0, 19.0, 3.5),
            DetailDot(16.3, 14.6, 1.2),
        ],
        Role::Bishop => &[
            Path("M14.5 31.5 C12 26 13.5 19.5 20 13 C26.5 19.5 28 26 25.5 31.5 Z"),
            Circle(20.0, 10.2, 2.6),
            Rect(11.0, 31.0, 18.0, 3.5),
            DetailLine("M22.6 17.8 L18.3 22.6"),
        ],
        Role::Queen => &[
            Path(
                "M12.5 31.5 L9 15.5 L15 23 L14.5 12.5 L18.6 21.5 L20 10.5 L21.4 21.5 \
                 L25.5 12.5 L25 23 L31 15.5 L27.5 31.5 Z",
            ),
            Circle(9.0, 14.0, 2.0),
            Circle(14.5, 11.0, 2.0),
            Circle(20.0, 9.0, 2.0),
            Circle(25.5, 11.0, 2.0),
            Circle(31.0, 14.0, 2.0),
            Rect(10.0, 31.0, 20.0, 3.5),
            DetailLine("M13.6 27.5 H26.4"),
        ],
        Role::King => &[
            Path("M18.6 5.5 H21.4 V8.6 H24.5 V11.4 H21.4 V19 H18.6 V11.4 H15.5 V8.6 H18.6 Z"),
            Path("M12.5 31.5 C10 25 11.5 18.5 20 18.5 C28.5 18.5 30 25 27.5 31.5 Z"),
            Rect(10.0, 31.0, 20.0, 3.5),
            DetailLine("M13.6 27.5 H26.4"),
        ],
    }
}

/// `<g class="piece white king" ...>` with the piece's shapes, its cell's top-left at `origin`.
fn draw_piece(out: &mut String, piece: Piece, origin: (u32, u32)) {
    let (fill, line, detail, colour) = match piece.color {
        Color::White => (WHITE_FILL, WHITE_LINE, WHITE_LINE, "white"),
        Color::Black => (BLACK_FILL, BLACK_LINE, BLACK_DETAIL, "black"),
    };
    out.push_str(&format!(
        "<g class=\"piece {colour} {}\" transform=\"translate({} {})\" fill=\"{fill}\" \
         stroke=\"{line}\" stroke-width=\"1.4\" stroke-linejoin=\"round\">\n",
        escape(role_name(piece.role)),
        origin.0,
        origin.1
    ));
    for shape in shapes(piece.role) {
        match *shape {
            Path(d) => out.push_str(&format!("<path d=\"{d}\"/>\n")),
            Circle(cx, cy, r) => out.push_str(&format!(
                "<circle cx=\"{}\" cy=\"{}\" r=\"{}\"/>\n",
                num(cx),
                num(cy),
                num(r)
            )),
            Rect(x, y, w, h) => out.push_str(&format!(
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"1\"/>\n",
                num(x),
                num(y),
                num(w),
                num(h)
            )),
            DetailLine(d) => out.push_str(&format!(
                "<path d=\"{d}\" fill=\"none\" stroke=\"{detail}\" stroke-width=\"1.6\" \
                 stroke-linecap=\"round\"/>\n"
            )),
            DetailDot(cx, cy, r) => out.push_str(&format!(
                "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{detail}\" stroke=\"none\"/>\n",
                num(cx),
                num(cy),
                num(r)
            )),
        }
    }
    out.push_str("</g>\n");
}

fn role_name(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_xml::{svg_document, Element};
    use super::*;
    use crate::chess::{FenField, STANDARD_FEN};

    fn rect_at(elements: &[Element], (x, y): (u32, u32)) -> &Element {
        let (x, y) = (x.to_string(), y.to_string());
        let found: Vec<&Element> = elements
            .iter()
            .filter(|e| {
                e.name == "rect"
                    && e.attr("x") == Some(x.as_str())
                    && e.attr("y") == Some(y.as_str())
                    && e.attr("width") == Some("40")
            })
            .collect();
        assert_eq!(found.len(), 1, "one square at {x},{y}");
        found[0]
    }

    fn pieces(elements: &[Element]) -> Vec<(String, String)> {
        elements
            .iter()
            .filter(|e| e.name == "g" && e.attr("class").is_some_and(|c| c.starts_with("piece")))
            .map(|e| {
                (
                    e.attr("class").unwrap_or_default().to_owned(),
                    e.attr("transform").unwrap_or_default().to_owned(),
                )
            })
            .collect()
    }

    #[test]
    fn start_position_has_64_squares_32_pieces_and_coordinates() {
        let svg = board_svg(STANDARD_FEN, None, 360).unwrap();
        let e = svg_document(&svg, 360, 360);
        assert_eq!(e[0].attr("viewBox"), Some("0 0 360 360"));
        assert_eq!(e[1].name, "title");
        assert_eq!(
            e[1].text,
            "Chess position rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"
        );
        // the frame and 64 squares
        assert_eq!(
            e.iter().filter(|e| e.attr("width") == Some("40")).count(),
            64
        );
        assert_eq!(
            e.iter().filter(|e| e.attr("fill") == Some(LIGHT)).count(),
            32
        );
        assert_eq!(
            e.iter().filter(|e| e.attr("fill") == Some(DARK)).count(),
            32
        );
        assert_eq!(
            e.iter().filter(|e| e.attr("fill") == Some(FRAME)).count(),
            1
        );
        // a1 dark at the bottom left, h1 light, a8 light at the top left
        assert_eq!(rect_at(&e, (20, 300)).attr("fill"), Some(DARK));
        assert_eq!(rect_at(&e, (300, 300)).attr("fill"), Some(LIGHT));
        assert_eq!(rect_at(&e, (20, 20)).attr("fill"), Some(LIGHT));
        // coordinates: a..h under the board, 8..1 down the left side
        let texts: Vec<&str> = e
            .iter()
            .filter(|e| e.name == "text")
            .map(|e| e.text.as_str())
            .collect();
        assert_eq!(
            texts,
            ["a", "8", "b", "7", "c", "6", "d", "5", "e", "4", "f", "3", "g", "2", "h", "1"]
        );
        let a = e
            .iter()
            .find(|e| e.name == "text" && e.text == "a")
            .unwrap();
        assert_eq!((a.attr("x"), a.attr("y")), (Some("40"), Some("354.5")));
        // pieces: no font glyphs, 32 groups, the white king on e1, the black queen on d8
        assert!(!svg.contains('♔') && !svg.contains('♚'));
        let p = pieces(&e);
        assert_eq!(p.len(), 32);
        assert!(p.contains(&("piece white king".into(), "translate(180 300)".into())));
        assert!(p.contains(&("piece black queen".into(), "translate(140 20)".into())));
        assert_eq!(p.iter().filter(|(c, _)| c == "piece white pawn").count(), 8);
        assert!(p.iter().all(|(_, t)| t.ends_with(" 20)")
            || t.ends_with(" 60)")
            || t.ends_with(" 260)")
            || t.ends_with(" 300)")));
    }

    #[test]
    fn last_move_squares_are_highlighted() {
        let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
        let svg = board_svg(fen, Some("e2e4"), 360).unwrap();
        let e = svg_document(&svg, 360, 360);
        // e2 and e4 are light squares
        assert_eq!(square_origin(Square::E2), (180, 260));
        assert_eq!(rect_at(&e, (180, 260)).attr("fill"), Some(LIGHT_LAST_MOVE));
        assert_eq!(rect_at(&e, (180, 180)).attr("fill"), Some(LIGHT_LAST_MOVE));
        assert_eq!(
            e.iter().filter(|e| e.attr("fill") == Some(LIGHT)).count(),
            30
        );
        assert_eq!(
            e.iter().filter(|e| e.attr("fill") == Some(DARK)).count(),
            32
        );
        // g1 is dark, f3 light
        let fen3 = "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1";
        let e3 = svg_document(&board_svg(fen3, Some("g1f3"), 360).unwrap(), 360, 360);
        assert_eq!(rect_at(&e3, (260, 300)).attr("fill"), Some(DARK_LAST_MOVE));
        assert_eq!(rect_at(&e3, (220, 220)).attr("fill"), Some(LIGHT_LAST_MOVE));
        assert_eq!(
            e3.iter()
                .filter(|e| matches!(e.attr("fill"), Some(LIGHT_LAST_MOVE | DARK_LAST_MOVE)))
                .count(),
            2
        );
        assert_eq!(
            e3.iter().filter(|e| e.attr("fill") == Some(LIGHT)).count(),
            31
        );
        assert_eq!(
            e3.iter().filter(|e| e.attr("fill") == Some(DARK)).count(),
            31
        );
        assert!(e[1].text.ends_with("last move e2e4"));
        // the highlight colours differ from the squares'
        for c in [LIGHT_LAST_MOVE, DARK_LAST_MOVE] {
            assert!(c != LIGHT && c != DARK);
        }
        // a move need not be legal, a promotion and castling name their squares
        assert!(board_svg(fen, Some("a1h8"), 360).is_ok());
        assert_eq!(
            last_move_squares("e7e8q").unwrap(),
            (Square::E7, Square::E8)
        );
        assert_eq!(last_move_squares("e1h1").unwrap(), (Square::E1, Square::H1));
    }

    #[test]
    fn size_sets_pixels_not_drawing() {
        let small = board_svg(STANDARD_FEN, None, 64).unwrap();
        let large = board_svg(STANDARD_FEN, None, 4096).unwrap();
        svg_document(&small, 64, 64);
        svg_document(&large, 4096, 4096);
        let body = |s: &str| s[s.find("<title>").unwrap()..].to_owned();
        assert_eq!(body(&small), body(&large));
        assert!(large.contains("viewBox=\"0 0 360 360\""));
    }

    #[test]
    fn same_input_same_bytes() {
        let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4";
        let a = board_svg(fen, Some("h5f7"), 400).unwrap();
        assert_eq!(a, board_svg(fen, Some("h5f7"), 400).unwrap());
        assert_ne!(a, board_svg(fen, None, 400).unwrap());
        let e = svg_document(&a, 400, 400);
        assert_eq!(pieces(&e).len(), 32);
        // a 4-field FEN gives the same picture
        let four = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq -";
        assert_eq!(a, board_svg(four, Some("h5f7"), 400).unwrap());
    }

    #[test]
    fn errors() {
        let e = board_svg(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
            None,
            360,
        )
        .unwrap_err();
        assert!(matches!(
            e,
            BoardSvgError::Fen(FenError {
                field: FenField::Placement,
                ..
            })
        ));
        assert!(matches!(
            board_svg("8/8/8/8/8/8/8/8 w - -", None, 360).unwrap_err(),
            BoardSvgError::Fen(_)
        ));
        for bad in [
            "", "e2", "e2e", "e2e4 ", "E2E4", "e2e9", "i2e4", "e2e2", "0000", "Q@e4", "e7e8k",
            "e7e8Q", "e7e8x", "e2e4qq", "ab12",
        ] {
            assert_eq!(
                board_svg(STANDARD_FEN, Some(bad), 360).unwrap_err(),
                BoardSvgError::LastMove(bad.to_owned()),
                "{bad}"
            );
        }
        for size in [i32::MIN, -1, 0, 63, 4097, i32::MAX] {
            assert_eq!(
                board_svg(STANDARD_FEN, None, size).unwrap_err(),
                BoardSvgError::Size(size)
            );
        }
        assert_eq!(
            BoardSvgError::Size(10).to_string(),
            "size must be between 64 and 4096 pixels, got 10"
        );
        assert_eq!(
            BoardSvgError::LastMove("x".into()).to_string(),
            "last_move \"x\" does not name two squares as a UCI move does (like e2e4 or e7e8q)"
        );
    }
}
