//! Columns of related tables: an attached column may be a path `a -> b -> c` through foreign
//! keys (each step but the last is the referencing column of a single-column foreign key of the
//! table reached so far, the last a column of the table reached). This module reads the paths
//! and plans their joins; the glue finds the foreign keys in the catalog and builds the SQL.

use std::fmt;

use crate::error::{Classified, ErrorClass};

/// A path that cannot be read (22023).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathError(pub String);

impl fmt::Display for PathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Classified for PathError {
    fn class(&self) -> ErrorClass {
        ErrorClass::InvalidParameter
    }
}

/// The steps of a column argument. A text without `->` that does not start with a double quote
/// is one column named as written (case and all), as attached columns always were; otherwise each
/// step is an identifier as SQL writes it: `"roundId"` keeps its case, `Round_Id` folds to
/// `round_id`.
pub fn parse_path(text: &str) -> Result<Vec<String>, PathError> {
    let bad = |why: &str| PathError(format!("column path {}: {why}", crate::error::Quoted(text)));
    let trimmed = text.trim();
    if !trimmed.starts_with('"') && !trimmed.contains("->") {
        if trimmed.is_empty() {
            return Err(bad("a column name is empty"));
        }
        return Ok(vec![text.to_owned()]);
    }
    let mut steps = Vec::new();
    let mut chars = trimmed.chars().peekable();
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        let mut step = String::new();
        if chars.peek() == Some(&'"') {
            chars.next();
            loop {
                match chars.next() {
                    Some('"') if chars.peek() == Some(&'"') => {
                        chars.next();
                        step.push('"');
                    }
                    Some('"') => break,
                    Some(c) => step.push(c),
                    None => return Err(bad("a quoted name is not closed")),
                }
            }
            if step.is_empty() {
                return Err(bad("a quoted name is empty"));
            }
        } else {
            while let Some(&c) = chars.peek() {
                if c.is_whitespace() || c == '-' || c == '"' {
                    break;
                }
                step.push(c.to_ascii_lowercase());
                chars.next();
            }
            if step.is_empty() {
                return Err(bad("a step names no column"));
            }
        }
        steps.push(step);
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        match (chars.next(), chars.next()) {
            (None, _) => return Ok(steps),
            (Some('-'), Some('>')) => continue,
            _ => return Err(bad("steps are separated by ->")),
        }
    }
}

/// Whether an argument is a path of more than one step.
pub fn is_path(text: &str) -> bool {
    parse_path(text).is_ok_and(|s| s.len() > 1)
}

/// The parts of a comma-separated list of columns (`scope_column`), commas inside double quotes
/// kept, each trimmed; an empty part (a comma with no column before or after it) is an error
/// that names the whole list, not the empty part.
pub fn split_list(list: &str) -> Result<Vec<&str>, PathError> {
    let mut parts = Vec::new();
    let (mut start, mut quoted) = (0, false);
    for (i, c) in list.char_indices() {
        match c {
            '"' => quoted = !quoted,
            ',' if !quoted => {
                parts.push(list[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(list[start..].trim());
    if parts.len() > 1 && parts.iter().any(|p| p.is_empty()) {
        return Err(PathError(format!(
            "scope_column {}: a column name is empty (a comma with no column before or after it)",
            crate::error::Quoted(list)
        )));
    }
    Ok(parts)
}

/// The alias of the attached table in the reads.
pub const ROOT: &str = "g";

/// A join of a plan: the table that `parent`'s column `via` references, as `alias`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Join {
    pub alias: String,
    pub parent: String,
    pub via: String,
}

/// The joins that a set of paths needs (equal prefixes share one join), in an order where each
/// join's parent comes before it, and where each path's value is read: (alias, column).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Plan {
    pub joins: Vec<Join>,
    pub values: Vec<(String, String)>,
}

impl Plan {
    /// The columns read of the table joined as `alias`: the columns its child joins follow and
    /// the values read from it, each once, in order of first use.
    pub fn used_columns(&self, alias: &str) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        let children = self
            .joins
            .iter()
            .filter(|j| j.parent == alias)
            .map(|j| j.via.as_str());
        let values = self
            .values
            .iter()
            .filter(|(a, _)| a == alias)
            .map(|(_, c)| c.as_str());
        for c in children.chain(values) {
            if !out.contains(&c) {
                out.push(c);
            }
        }
        out
    }

    /// The join of an alias.
    pub fn join(&self, alias: &str) -> Option<&Join> {
        self.joins.iter().find(|j| j.alias == alias)
    }
}

/// Plans the joins of `paths` (each non-empty: from [`parse_path`]); aliases are `p1`, `p2`, ...
pub fn plan(paths: &[Vec<String>]) -> Plan {
    let mut out = Plan::default();
    for path in paths {
        let mut at = ROOT.to_owned();
        let Some((last, steps)) = path.split_last() else {
            continue;
        };
        for via in steps {
            let found = out
                .joins
                .iter()
                .find(|j| j.parent == at && &j.via == via)
                .map(|j| j.alias.clone());
            at = match found {
                Some(alias) => alias,
                None => {
                    let alias = format!("p{}", out.joins.len() + 1);
                    out.joins.push(Join {
                        alias: alias.clone(),
                        parent: at,
                        via: via.clone(),
                    });
                    alias
                }
            };
        }
        out.values.push((at, last.clone()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(text: &str) -> Vec<String> {
        parse_path(text).unwrap()
    }

    #[test]
    fn a_plain_name_is_taken_as_written() {
        assert_eq!(p("playedAt"), vec!["playedAt"]);
        assert_eq!(p("white player"), vec!["white player"]);
        assert!(!is_path("playedAt"));
    }

    #[test]
    fn steps_are_identifiers_as_sql_writes_them() {
        assert_eq!(
            p(r#""roundId" -> "eventId" -> "gameType""#),
            vec!["roundId", "eventId", "gameType"]
        );
        assert_eq!(
            p("Round_Id->event_id -> ORG"),
            vec!["round_id", "event_id", "org"]
        );
        assert_eq!(p(r#""a""b" -> c"#), vec![r#"a"b"#, "c"]);
        assert_eq!(p(r#""Solo""#), vec!["Solo"]);
        assert!(is_path("a -> b"));
    }

    #[test]
    fn malformed_paths_are_refused() {
        for bad in [
            "a ->",
            "-> b",
            "a -> \"b",
            "a -> b c",
            "a -> b - c",
            "\"\" -> b",
            " ",
            "a ->-> b",
        ] {
            let e = parse_path(bad).unwrap_err();
            assert_eq!(e.sqlstate(), "22023", "{bad}");
        }
    }

    #[test]
    fn lists_split_outside_quotes() {
        assert_eq!(split_list("a, b -> c"), Ok(vec!["a", "b -> c"]));
        assert_eq!(
            split_list(r#""x,y" -> z,w"#),
            Ok(vec![r#""x,y" -> z"#, "w"])
        );
        // one column, even an empty one, is the path's own error (it names the argument)
        assert_eq!(split_list(""), Ok(vec![""]));
    }

    #[test]
    fn an_empty_part_of_a_list_names_the_list() {
        for bad in ["w -> boss, ", ",a", "a,,b", " , "] {
            let e = split_list(bad).unwrap_err();
            assert!(e.0.starts_with("scope_column \""), "{bad}: {e}");
            assert!(e.0.contains(bad), "{bad}: {e}");
            assert_eq!(e.sqlstate(), "22023", "{bad}");
        }
    }

    #[test]
    fn equal_prefixes_share_a_join() {
        let plan = plan(&[
            p("date"),
            p("round_id -> event_id -> org_id"),
            p("round_id -> event_id -> game_type"),
            p("round_id -> number"),
            p("white -> user_id"),
            p("black -> user_id"),
        ]);
        let j = |alias: &str, parent: &str, via: &str| Join {
            alias: alias.into(),
            parent: parent.into(),
            via: via.into(),
        };
        assert_eq!(
            plan.joins,
            vec![
                j("p1", "g", "round_id"),
                j("p2", "p1", "event_id"),
                j("p3", "g", "white"),
                j("p4", "g", "black"),
            ]
        );
        let v = |a: &str, c: &str| (a.to_owned(), c.to_owned());
        assert_eq!(
            plan.values,
            vec![
                v("g", "date"),
                v("p2", "org_id"),
                v("p2", "game_type"),
                v("p1", "number"),
                v("p3", "user_id"),
                v("p4", "user_id"),
            ]
        );
        assert_eq!(plan.used_columns("p1"), vec!["event_id", "number"]);
        assert_eq!(plan.used_columns("p2"), vec!["org_id", "game_type"]);
        assert_eq!(
            plan.used_columns("g"),
            vec!["round_id", "white", "black", "date"]
        );
        assert_eq!(plan.join("p2").unwrap().parent, "p1");
    }
}
