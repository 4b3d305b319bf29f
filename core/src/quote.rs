//! Identifiers quoted as PostgreSQL 15's `quote_ident` quotes them: only when they must be, so
//! that a statement's text (shown in an error's context) reads as the database writes it.

/// PostgreSQL 15's keywords that are not unreserved (reserved, column-name and type-or-function
/// keywords: its `kwlist.h`), sorted: a name that is one of them must be quoted.
#[rustfmt::skip]
const KEYWORDS: [&str; 151] = [
    "all", "analyse", "analyze", "and", "any", "array", "as", "asc", "asymmetric", "authorization",
    "between", "bigint", "binary", "bit", "boolean", "both", "case", "cast", "char", "character",
    "check", "coalesce", "collate", "collation", "column", "concurrently", "constraint", "create",
    "cross", "current_catalog", "current_date", "current_role", "current_schema", "current_time",
    "current_timestamp", "current_user", "dec", "decimal", "default", "deferrable", "desc",
    "distinct", "do", "else", "end", "except", "exists", "extract", "false", "fetch", "float",
    "for", "foreign", "freeze", "from", "full", "grant", "greatest", "group", "grouping", "having",
    "ilike", "in", "initially", "inner", "inout", "int", "integer", "intersect", "interval", "into",
    "is", "isnull", "join", "lateral", "leading", "least", "left", "like", "limit", "localtime",
    "localtimestamp", "national", "natural", "nchar", "none", "normalize", "not", "notnull", "null",
    "nullif", "numeric", "offset", "on", "only", "or", "order", "out", "outer", "overlaps",
    "overlay", "placing", "position", "precision", "primary", "real", "references", "returning",
    "right", "row", "select", "session_user", "setof", "similar", "smallint", "some", "substring",
    "symmetric", "table", "tablesample", "then", "time", "timestamp", "to", "trailing", "treat",
    "trim", "true", "union", "unique", "user", "using", "values", "varchar", "variadic", "verbose",
    "when", "where", "window", "with", "xmlattributes", "xmlconcat", "xmlelement", "xmlexists",
    "xmlforest", "xmlnamespaces", "xmlparse", "xmlpi", "xmlroot", "xmlserialize", "xmltable",
];

/// `ident` as PostgreSQL's `quote_ident` writes it (with `quote_all_identifiers` off):
/// unquoted when it is lower-case letters, digits and underscores, starts with a letter or an
/// underscore and is no keyword but an unreserved one; else between double quotes, each double
/// quote doubled.
pub fn quote_ident(ident: &str) -> String {
    let plain = ident
        .bytes()
        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
    let first = ident.bytes().next();
    let safe = plain
        && first.is_some_and(|b| b.is_ascii_lowercase() || b == b'_')
        && KEYWORDS.binary_search(&ident).is_err();
    if safe {
        ident.to_owned()
    } else {
        format!("\"{}\"", ident.replace('"', "\"\""))
    }
}

/// A relation's name as a statement writes it: `schema.name`, each quoted ([`quote_ident`]).
pub fn qualified(schema: &str, name: &str) -> String {
    format!("{}.{}", quote_ident(schema), quote_ident(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_qualified_name_quotes_each_part() {
        assert_eq!(qualified("public", "games"), "public.games");
        assert_eq!(qualified("My App", "user"), "\"My App\".\"user\"");
        assert_eq!(qualified("a.b", "c"), "\"a.b\".c");
    }

    #[test]
    fn keywords_are_sorted_for_the_search() {
        assert!(KEYWORDS.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn only_what_must_be_quoted_is() {
        for plain in ["id", "_x", "white_2", "abort", "name"] {
            assert_eq!(quote_ident(plain), plain);
        }
        let quoted = [
            ("Black", "\"Black\""),
            ("2x", "\"2x\""),
            ("", "\"\""),
            ("a b", "\"a b\""),
            ("my \"name\"", "\"my \"\"name\"\"\""),
            ("é", "\"é\""),
            ("user", "\"user\""),
            ("select", "\"select\""),
            ("int", "\"int\""),
            ("xmltable", "\"xmltable\""),
        ];
        for (ident, out) in quoted {
            assert_eq!(quote_ident(ident), out);
        }
    }
}
