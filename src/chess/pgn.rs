//! PGN import (`read_pgn`) and export (`game_to_pgn`).

use pg_rating_core::chess::pgn::{json_of_tags, read_pgn, tags_of_json, write_pgn};
use pgrx::prelude::*;
use pgrx::{composite_type, default, JsonB};

use crate::error::raise_core;
use crate::types::read_game_result;

/// The engine of `read_pgn` (sql/chess_functions.sql wraps it to build `game_result`).
/// Streams: one game at a time, nothing kept of earlier games.
// pgrx reads the column names from the signature: no type alias here
#[allow(clippy::type_complexity)]
#[pg_extern(immutable, strict, parallel_safe)]
pub fn read_pgn_internal(
    pgn: &str,
    skip_invalid: bool,
) -> TableIterator<
    '_,
    (
        name!(game_no, i32),
        name!(tags, JsonB),
        name!(starting_position, String),
        name!(moves, Vec<String>),
        name!(game_end_type, Option<String>),
        name!(game_end_reason, Option<String>),
    ),
> {
    let games = read_pgn(pgn.as_bytes()).filter_map(move |g| match g {
        Ok(g) => Some((
            i32::try_from(g.number).unwrap_or(i32::MAX),
            JsonB(json_of_tags(g.tags)),
            g.starting_position,
            g.moves,
            g.result.map(|r| r.end_type().as_str().to_owned()),
            g.result.map(|r| r.reason().as_str().to_owned()),
        )),
        Err(e) if skip_invalid => {
            pgrx::warning!("skipped {e}");
            None
        }
        Err(e) => raise_core(&e),
    });
    TableIterator::new(games)
}

/// One game as PGN text. Declared in sql/chess_functions.sql as `game_to_pgn(starting_position
/// varchar, moves varchar[], result game_result, tags jsonb DEFAULT NULL) RETURNS text`.
#[pg_extern(immutable, parallel_safe, sql = false)]
pub fn game_to_pgn(
    starting_position: Option<&str>,
    moves: Option<Array<&str>>,
    result: Option<composite_type!("game_result")>,
    tags: default!(Option<JsonB>, "NULL"),
    fcinfo: pg_sys::FunctionCallInfo,
) -> Option<String> {
    // SAFETY: this call's fcinfo; argument 1 is the moves array.
    unsafe { crate::error::require_one_dimension(fcinfo, 1, "moves") };
    let (start, moves) = (starting_position?, moves?);
    let result = result.as_ref().map(read_game_result);
    let tag_list = tags_of_json(tags.as_ref().map(|JsonB(v)| v)).unwrap_or_else(|e| raise_core(&e));
    Some(write_pgn(start, moves.iter(), result, &tag_list).unwrap_or_else(|e| raise_core(&e)))
}

#[cfg(any(test, feature = "pg_test"))]
#[pg_schema]
mod tests {
    use pgrx::prelude::*;

    #[pg_test]
    fn export_then_import_gives_the_same_game() {
        let same = Spi::get_one::<bool>(
            "WITH g AS (SELECT 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'::varchar AS s,
                               '{f2f3,e7e5,g2g4,d8h4}'::varchar[] AS m,
                               '(0-1,CHECKMATE)'::game_result AS r)
             SELECT bool_and(p.moves = g.m AND p.starting_position = g.s AND p.game_result = g.r)
             FROM g, read_pgn(game_to_pgn(g.s, g.m, g.r)) p",
        )
        .unwrap()
        .unwrap();
        assert!(same);
    }
}
