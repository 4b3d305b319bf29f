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

/// Builds a `varchar[]` from strings written one after another in `buf`, `ends[i]` being
/// where the i-th ends.
pub(crate) unsafe fn varchar_array_flat(buf: &str, ends: &[usize]) -> pg_sys::Datum {
    let mut from = 0;
    let items: Vec<&str> = ends
        .iter()
        .map(|&end| {
            let s = &buf[from..end];
            from = end;
            s
        })
        .collect();
    // SAFETY: builds a fresh array in the current memory context from Rust strings.
    unsafe { varchar_array(&items) }
}

/// Builds a one-dimensional `varchar[]` (no NULLs) in a single palloc.
pub(crate) unsafe fn varchar_array<S: AsRef<str>>(items: &[S]) -> pg_sys::Datum {
    // SAFETY: the header and data are written within the one palloc'd block sized for them above; the caller gets a Datum of a valid varchar[].
    unsafe {
        let header = std::mem::size_of::<pg_sys::ArrayType>();
        if items.is_empty() {
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
        for s in items {
            total += intalign(pg_sys::VARHDRSZ + s.as_ref().len());
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
            let s = s.as_ref().as_bytes();
            let len = pg_sys::VARHDRSZ + s.len();
            pgrx::set_varsize_4b(p.add(off) as *mut pg_sys::varlena, len as i32);
            std::ptr::copy_nonoverlapping(s.as_ptr(), p.add(off + pg_sys::VARHDRSZ), s.len());
            off += intalign(len);
        }
        pg_sys::Datum::from(p)
    }
}

/// Walks a one-dimensional text-like array without copying: element bytes or None.
pub(crate) unsafe fn array_elements(arr: *mut pg_sys::ArrayType, out: &mut Vec<Option<&[u8]>>) {
    // SAFETY: the caller's `arr` is a detoasted one-dimensional array of a varlena type: elements are read within its data area, by their own lengths, NULLs by its bitmap.
    unsafe {
        out.clear();
        let ndim = (*arr).ndim;
        if ndim == 0 {
            return;
        }
        let header = std::mem::size_of::<pg_sys::ArrayType>();
        let base = arr as *const u8;
        let dims = base.add(header) as *const i32;
        let mut n: usize = 1;
        for d in 0..ndim as usize {
            n *= (*dims.add(d)).max(0) as usize;
        }
        let has_nulls = (*arr).dataoffset != 0;
        let bitmap = base.add(header + 2 * 4 * ndim as usize);
        let data_start = if has_nulls {
            (*arr).dataoffset as usize
        } else {
            (header + 2 * 4 * ndim as usize + 7) & !7
        };
        let mut p = base.add(data_start);
        out.reserve(n);
        for i in 0..n {
            if has_nulls && (*bitmap.add(i / 8) & (1 << (i % 8))) == 0 {
                out.push(None);
                continue;
            }
            let v = p as *const pg_sys::varlena;
            let size = pgrx::varsize_any(v);
            let data = pgrx::vardata_any(v) as *const u8;
            let hdr = data.offset_from(p) as usize;
            out.push(Some(std::slice::from_raw_parts(data, size - hdr)));
            p = p.add(size);
            // att_align_nominal(.., 'i'): elements are int-aligned
            let off = p.offset_from(base) as usize;
            p = base.add((off + 3) & !3);
        }
    }
}
