//! Statements over keys of derived rows: (id[, text[, text]]) tuples, such as (ledger, scope,
//! player) or a ranking's id. A few keys go as a VALUES list of parameters, whose plan is made
//! once per shape and starts fast; more go as one array per column.

use std::sync::OnceLock;

use pgrx::datum::DatumWithOid;

use pg_rating_core::columns::{key_rows, key_shape, MAX_VALUES_KEYS};

/// The texts of one statement, one per shape (1 to MAX_VALUES_KEYS keys, or more), made once per
/// backend.
pub type Texts = [OnceLock<String>; MAX_VALUES_KEYS + 1];

pub const fn texts() -> Texts {
    [const { OnceLock::new() }; MAX_VALUES_KEYS + 1]
}

/// A key: an int and up to two texts (`width` is how many of its columns a statement uses).
pub type Key<'a> = (i32, Option<&'a str>, Option<&'a str>);

/// The text of a statement over `n` keys of `width` columns (an int, then texts), made by `make`
/// from the rows of the keys: `VALUES ($1::int4[, $2::text[, $3::text]]), ...` for a few,
/// `SELECT * FROM unnest($1::int4[][, $2::text[][, $3::text[]]])` for many.
pub fn shaped(
    texts: &'static Texts,
    n: usize,
    width: usize,
    make: impl Fn(&str) -> String,
) -> &'static str {
    texts[key_shape(n)].get_or_init(|| make(&key_rows(n, width)))
}

/// The parameters of a [`shaped`] statement over `keys` of `width` columns: one per value for a
/// few keys, one array per column for many.
pub fn key_args<'a>(
    width: usize,
    keys: impl ExactSizeIterator<Item = Key<'a>>,
) -> Vec<DatumWithOid<'a>> {
    let text = |t: Option<&'a str>| t.unwrap_or_else(|| crate::error::internal("a key is short"));
    if keys.len() <= MAX_VALUES_KEYS {
        let mut args = Vec::new();
        for (id, first, second) in keys {
            args.push(id.into());
            if width > 1 {
                args.push(text(first).into());
            }
            if width > 2 {
                args.push(text(second).into());
            }
        }
        return args;
    }
    let (mut ids, mut firsts, mut seconds) = (Vec::new(), Vec::new(), Vec::new());
    for (id, first, second) in keys {
        ids.push(id);
        if width > 1 {
            firsts.push(text(first));
        }
        if width > 2 {
            seconds.push(text(second));
        }
    }
    let mut args: Vec<DatumWithOid<'a>> = vec![ids.into()];
    if width > 1 {
        args.push(firsts.into());
    }
    if width > 2 {
        args.push(seconds.into());
    }
    args
}
