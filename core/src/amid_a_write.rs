//! What pg_rating lets the application's SQL do while a write of pg_rating runs it (a ledger's
//! filter or column path, read as the games are read): nothing that writes through pg_rating. The
//! write under way has read the attachments, settings and rows it rates by; an attachment, a
//! rebuild, a refresh, a seed or a season made under it would be half-applied or overwritten when
//! it resumes.

use std::fmt;

use crate::error::{Classified, ErrorClass};

/// A writing function of pg_rating (`what`, as `ledger_detach()`) called amid a write.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CalledAmidAWrite(pub String);

impl fmt::Display for CalledAmidAWrite {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} cannot run while pg_rating rates games: a filter or a column path of a ledger's \
             attachment called it, and the write under way has read what it would change",
            self.0
        )
    }
}

impl Classified for CalledAmidAWrite {
    fn class(&self) -> ErrorClass {
        ErrorClass::PrerequisiteState
    }
}

/// Whether `what`, a function of pg_rating that writes, may run: not `amid_a_write`.
pub fn may_write(what: &str, amid_a_write: bool) -> Result<(), CalledAmidAWrite> {
    match amid_a_write {
        true => Err(CalledAmidAWrite(what.to_owned())),
        false => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_writing_function_is_refused_amid_a_write_only() {
        assert_eq!(may_write("ledger_detach()", false), Ok(()));
        let e = may_write("ledger_detach()", true).unwrap_err();
        assert_eq!(e.sqlstate(), "55000");
        assert!(e
            .to_string()
            .starts_with("ledger_detach() cannot run while pg_rating rates games: a filter"));
    }
}
