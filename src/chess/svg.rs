//! `board_svg`: a position as an SVG picture (drawn by `pg_rating_core::svg::board`).

use pg_rating_core::svg::board_svg as draw_board;
use pgrx::prelude::*;

extension_sql_file!(
    "../../sql/chess_svg.sql",
    name = "chess_svg",
    requires = [board_svg]
);

/// Not strict: `last_move` may be NULL (nothing highlighted); a NULL FEN or size gives NULL.
/// Errors: malformed FEN 22P02 (as the other chess functions), bad last move or size 22023.
#[pg_extern(immutable, parallel_safe)]
fn board_svg(
    fen: Option<&str>,
    last_move: default!(Option<&str>, "NULL"),
    size: default!(Option<i32>, 360),
) -> Option<String> {
    let (fen, size) = (fen?, size?);
    Some(draw_board(fen, last_move, size).unwrap_or_else(|e| crate::error::raise_core(&e)))
}

#[cfg(any(test, feature = "pg_test"))]
#[pg_schema]
mod tests {
    use pgrx::prelude::*;

    #[pg_test]
    fn board_is_an_svg_document() {
        let svg = Spi::get_one::<String>(
            "SELECT board_svg('rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1', 'e2e4', 200)",
        )
        .unwrap()
        .unwrap();
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"200\" height=\"200\""));
        assert_eq!(svg.matches("<g class=\"piece ").count(), 32);
        let null = Spi::get_one::<bool>("SELECT board_svg(NULL) IS NULL").unwrap();
        assert_eq!(null, Some(true));
    }

    #[pg_test]
    #[should_panic(expected = "last_move \"e2\" does not name two squares")]
    fn bad_last_move_is_an_error() {
        Spi::run("SELECT board_svg('8/8/8/8/8/8/8/K6k w - -', 'e2')").unwrap();
    }
}
