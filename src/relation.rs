//! pg_rating's own tables opened below SQL (by the bulk writers): found in the engine's schema
//! (never by a search path, where a temporary table could stand in), their columns found by name.

use std::ffi::CStr;

use pgrx::pg_sys;

use crate::columns::Column;
use crate::error::internal;

/// A relation's schema and name (the schema `None` when it is gone); `None` when there is no such
/// relation (dropped).
pub fn schema_and_name(rel: pg_sys::Oid) -> Option<(Option<String>, String)> {
    // SAFETY: catalog lookups by oid; a NULL (no such relation or schema) is checked, and the
    // strings returned are palloc'd copies.
    unsafe {
        let name = pg_sys::get_rel_name(rel);
        if name.is_null() {
            return None;
        }
        let schema = pg_sys::get_namespace_name(pg_sys::get_rel_namespace(rel));
        let text = |s| CStr::from_ptr(s).to_string_lossy().into_owned();
        Some(((!schema.is_null()).then(|| text(schema)), text(name)))
    }
}

/// [`schema_and_name`], each quoted as a statement writes them.
pub fn quoted_name(rel: pg_sys::Oid) -> Option<(Option<String>, String)> {
    use pg_rating_core::quote::quote_ident;
    let (schema, name) = schema_and_name(rel)?;
    Some((schema.as_deref().map(quote_ident), quote_ident(&name)))
}

/// Opens `table` with `lock`, held until the transaction ends; an internal error if there is none.
pub fn open(table: &str, lock: u32) -> pg_sys::Relation {
    let relid = crate::security::own_relation(table);
    if relid == pg_sys::InvalidOid {
        internal(format!("no table {table}"));
    }
    // SAFETY: opening a relation found in the catalog.
    unsafe { pg_sys::table_open(relid, lock as pg_sys::LOCKMODE) }
}

/// The attributes of an open relation.
///
/// # Safety
/// `rel` is open; the slice lives while it is.
pub unsafe fn attributes<'a>(rel: pg_sys::Relation) -> &'a [pg_sys::FormData_pg_attribute] {
    // SAFETY: the relation's tuple descriptor has natts attributes.
    unsafe {
        let desc = (*rel).rd_att;
        (*desc).attrs.as_slice((*desc).natts as usize)
    }
}

/// The index of each of `columns` among `attrs` (an internal error for a missing one).
pub fn positions(
    table: &str,
    attrs: &[pg_sys::FormData_pg_attribute],
    columns: &[Column],
) -> Vec<usize> {
    columns
        .iter()
        .map(|(name, _)| {
            attrs
                .iter()
                .position(|a| {
                    // SAFETY: attname is a NUL-terminated NameData.
                    !a.attisdropped
                        && unsafe { CStr::from_ptr(a.attname.data.as_ptr()) }.to_bytes()
                            == name.as_bytes()
                })
                .unwrap_or_else(|| internal(format!("{table} has no column {name}")))
        })
        .collect()
}
