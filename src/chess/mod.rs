//! Chess in SQL: the glue of `pg_rating_core::chess`. Hot functions (`generate_fen_array`,
//! `san_to_moves`, `detect_opening`) are plain V1 C functions declared in sql/chess_functions.sql
//! and sql/random_chess/03_openings.sql, so they can return `varchar[]` and an OUT-parameter record exactly as
//! the Random Chess schema declares them, built in one allocation.

mod fen;
mod openings;
mod pgn;
mod svg;

use pgrx::prelude::*;
use pgrx::PgSqlErrorCode;

use crate::error::raise;
use crate::types::{array_datums, text_bytes};

extension_sql_file!(
    "../../sql/chess_functions.sql",
    name = "chess_functions",
    requires = ["types", pgn::read_pgn_internal]
);

const INTALIGN: usize = 4;

#[inline]
fn intalign(n: usize) -> usize {
    (n + INTALIGN - 1) & !(INTALIGN - 1)
}

/// Builds a one-dimensional `varchar[]` (no NULLs) in a single palloc.
pub(crate) unsafe fn varchar_array<'a>(
    items: impl ExactSizeIterator<Item = &'a str> + Clone,
) -> pg_sys::Datum {
    // SAFETY: the header and data are written within the one palloc'd block sized for them here; the caller gets a Datum of a valid varchar[].
    unsafe {
        let header = std::mem::size_of::<pg_sys::ArrayType>();
        if items.len() == 0 {
            let p = pg_sys::palloc0(header) as *mut pg_sys::ArrayType;
            pgrx::set_varsize_4b(p as *mut pg_sys::varlena, header as i32);
            (*p).ndim = 0;
            (*p).dataoffset = 0;
            (*p).elemtype = pg_sys::VARCHAROID;
            return pg_sys::Datum::from(p);
        }
        // ARR_OVERHEAD_NONULLS(1) = MAXALIGN(sizeof(ArrayType) + 2 * sizeof(int))
        let overhead = (header + 8 + 7) & !7;
        let mut total = overhead;
        for s in items.clone() {
            total += intalign(pg_sys::VARHDRSZ + s.len());
        }
        if total > (1 << 30) - 1 {
            raise(
                PgSqlErrorCode::ERRCODE_PROGRAM_LIMIT_EXCEEDED,
                "array size exceeds the maximum allowed (1 GB)",
            );
        }
        let p = pg_sys::palloc0(total) as *mut u8;
        let arr = p as *mut pg_sys::ArrayType;
        pgrx::set_varsize_4b(arr as *mut pg_sys::varlena, total as i32);
        (*arr).ndim = 1;
        (*arr).dataoffset = 0;
        (*arr).elemtype = pg_sys::VARCHAROID;
        let dims = p.add(header) as *mut i32;
        *dims = items.len() as i32;
        *dims.add(1) = 1;
        let mut off = overhead;
        for s in items {
            let s = s.as_bytes();
            let len = pg_sys::VARHDRSZ + s.len();
            pgrx::set_varsize_4b(p.add(off) as *mut pg_sys::varlena, len as i32);
            std::ptr::copy_nonoverlapping(s.as_ptr(), p.add(off + pg_sys::VARHDRSZ), s.len());
            off += intalign(len);
        }
        pg_sys::Datum::from(p)
    }
}

/// The elements of a detoasted text-like array without copying them: their bytes, or None.
pub(crate) unsafe fn array_elements<'a>(arr: *mut pg_sys::ArrayType) -> Vec<Option<&'a [u8]>> {
    // SAFETY: the caller's `arr` is a detoasted array of a varlena type (int-aligned): each element's bytes are read within the array by its own header.
    unsafe {
        let (datums, nulls) = array_datums(arr, pg_sys::TYPALIGN_INT);
        let elements = datums.iter().zip(nulls);
        elements
            .map(|(&d, &null)| (!null).then(|| text_bytes(d)))
            .collect()
    }
}
