//! Ledgers whose history a client of pg_rating keeps (`ledgers.kept_in`): its client's triggers
//! write it, from its client's tables, and the ledgers' functions refuse it.

use std::fmt;

use crate::error::{Classified, ErrorClass};

/// The message for a ledger of a client whose table is gone (`DROP EXTENSION
/// pg_rating_random_chess` leaves its rankings' ledgers behind): what it was, and what to do.
pub struct DroppedClient<'a>(pub &'a str);

impl fmt::Display for DroppedClient<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = self.0;
        write!(
            f,
            "ledger \"{name}\" was kept by a client of pg_rating whose table no longer exists (its extension, \
             e.g. pg_rating_random_chess, was dropped): delete it with DELETE FROM ledgers WHERE name = '{}'",
            name.replace('\'', "''")
        )
    }
}

/// Why the ledgers' functions neither attach, rebuild, seed nor read a ledger whose history a
/// client keeps (0A000).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeptElsewhere {
    pub ledger: String,
    /// The table that keeps it, as `regclass` shows it (its oid: a dropped table).
    pub table: String,
}

impl fmt::Display for KeptElsewhere {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (ledger, table) = (&self.ledger, &self.table);
        if table.bytes().all(|b| b.is_ascii_digit()) {
            return DroppedClient(ledger).fmt(f);
        }
        write!(
            f,
            "ledger \"{ledger}\" keeps its history in {table}, written by pg_rating from its client's tables: \
             the ledgers' functions do not attach, rebuild, seed or read it"
        )
    }
}

impl Classified for KeptElsewhere {
    fn class(&self) -> ErrorClass {
        ErrorClass::FeatureNotSupported
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ledger_kept_elsewhere_names_its_table_or_says_it_is_gone() {
        let kept = KeptElsewhere {
            ledger: "blitz".into(),
            table: "random_chess.ranking_history".into(),
        };
        assert_eq!(kept.sqlstate(), "0A000");
        assert_eq!(
            kept.to_string(),
            "ledger \"blitz\" keeps its history in random_chess.ranking_history, written by pg_rating \
             from its client's tables: the ledgers' functions do not attach, rebuild, seed or read it"
        );
        let gone = KeptElsewhere {
            ledger: "o'neil".into(),
            table: "16384".into(),
        };
        assert_eq!(gone.to_string(), DroppedClient("o'neil").to_string());
        assert!(gone
            .to_string()
            .ends_with("delete it with DELETE FROM ledgers WHERE name = 'o''neil'"));
        assert!(gone.to_string().starts_with(
            "ledger \"o'neil\" was kept by a client of pg_rating whose table no longer exists"
        ));
    }
}
