//! `generate_fen_array`, `moves_to_san`, `san_to_moves`.

use pg_rating_core::chess;
use pgrx::prelude::*;

use super::{array_elements, varchar_array};
use crate::error::raise_core;
use crate::ffi::finfo_v1;

finfo_v1!(pg_finfo_pg_rating_generate_fen_array);

/// `generate_fen_array(starting_position varchar, moves varchar[]) RETURNS varchar[]`
/// (STRICT: both arguments are non-NULL here).
#[pg_guard]
#[unsafe(no_mangle)]
pub unsafe extern "C-unwind" fn pg_rating_generate_fen_array(
    fcinfo: pg_sys::FunctionCallInfo,
) -> pg_sys::Datum {
    // SAFETY: called by PostgreSQL as a V1 function declared STRICT (varchar, varchar[]): both arguments are present and of those types; the array is detoasted before its header is read.
    unsafe {
        let start: &str = pgrx::fcinfo::pg_getarg(fcinfo, 0).expect("STRICT");
        let raw = pgrx::fcinfo::pg_getarg_datum_raw(fcinfo, 1);
        let arr = pg_sys::pg_detoast_datum(raw.cast_mut_ptr()) as *mut pg_sys::ArrayType;
        crate::error::one_dimension(arr, "moves");
        let elems = array_elements(arr);
        // A move that is not UTF-8 cannot be UCI: pass it on as "" (reported as unparsable).
        let moves = elems
            .iter()
            .map(|e| e.map(|b| std::str::from_utf8(b).unwrap_or("")));
        let (mut buf, mut ends) = (String::new(), Vec::new());
        chess::fen_array_into(start, moves, &mut buf, &mut ends).unwrap_or_else(|e| raise_core(&e));
        varchar_array(chess::pieces(&buf, &ends))
    }
}

finfo_v1!(pg_finfo_pg_rating_san_to_moves);

/// `san_to_moves(starting_position varchar, san text[]) RETURNS varchar(5)[]`.
#[pg_guard]
#[unsafe(no_mangle)]
pub unsafe extern "C-unwind" fn pg_rating_san_to_moves(
    fcinfo: pg_sys::FunctionCallInfo,
) -> pg_sys::Datum {
    // SAFETY: called by PostgreSQL as a V1 function declared STRICT (varchar, text[]): both arguments are present and of those types.
    unsafe {
        let start: &str = pgrx::fcinfo::pg_getarg(fcinfo, 0).expect("STRICT");
        crate::error::require_one_dimension(fcinfo, 1, "san");
        let san: Array<&str> = pgrx::fcinfo::pg_getarg(fcinfo, 1).expect("STRICT");
        let moves = chess::san_to_moves(start, san.iter()).unwrap_or_else(|e| raise_core(&e));
        varchar_array(moves.iter().map(String::as_str))
    }
}

/// SAN with `+` and `#` of each UCI move. Declared in sql/chess_functions.sql as
/// `moves_to_san(starting_position varchar, moves varchar[]) RETURNS text[]`.
#[pg_extern(immutable, strict, parallel_safe, sql = false)]
pub fn moves_to_san(
    starting_position: &str,
    moves: Array<&str>,
    fcinfo: pg_sys::FunctionCallInfo,
) -> Vec<String> {
    // SAFETY: this call's fcinfo; argument 1 is the moves array.
    unsafe { crate::error::require_one_dimension(fcinfo, 1, "moves") };
    chess::moves_to_san(starting_position, moves.iter()).unwrap_or_else(|e| raise_core(&e))
}

#[cfg(any(test, feature = "pg_test"))]
#[pg_schema]
mod tests {
    use pgrx::prelude::*;

    #[pg_test]
    fn fen_array_is_a_varchar_array() {
        let t = Spi::get_one::<String>(
            "SELECT pg_typeof(generate_fen_array('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', '{e2e4}'))::text",
        )
        .unwrap()
        .unwrap();
        assert_eq!(t, "character varying[]");
        let eq = Spi::get_one::<bool>(
            "SELECT generate_fen_array('8/8/8/8/8/8/8/K6k w - -', '{}') = ARRAY['8/8/8/8/8/8/8/K6k w - -']::varchar[]",
        )
        .unwrap()
        .unwrap();
        assert!(eq);
        let empty = Spi::get_one::<i32>(
            "SELECT cardinality(san_to_moves('8/8/8/8/8/8/8/K6k w - -', '{}'))",
        )
        .unwrap()
        .unwrap();
        assert_eq!(empty, 0);
    }

    #[pg_test]
    #[should_panic(expected = "illegal move \"e2e5\" at ply 1")]
    fn illegal_move_is_an_error() {
        Spi::run(
            "SELECT generate_fen_array('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', '{e2e5}')",
        )
        .unwrap();
    }
}
