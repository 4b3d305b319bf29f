//! Who may write a `ledgers` row, and with what settings: the checks of its BEFORE trigger, on
//! the facts the glue gathers (the rows, the roles, the catalog).

use std::fmt;

use super::kept::DroppedClient;
use super::rules::{reserved_name, LedgerSettings, RESERVED_PREFIX};
use crate::error::{Classified, ErrorClass, Quoted};
use crate::rating::RatingError;

/// A write of a `ledgers` row, as its BEFORE trigger sees it.
pub struct LedgerWrite<'a> {
    /// The ledger's name: the old row's, else the new row's (`None`: NULL).
    pub name: Option<&'a str>,
    /// The client's table that keeps the ledger (`kept_in` of the old or the new row), by name;
    /// `Some(None)` once that table is gone.
    pub kept_in: Option<Option<&'a str>>,
    /// Written by pg_rating's own code: its client's triggers, an extension's script, a restore.
    pub by_pg_rating: bool,
    pub deleted: bool,
    /// Whether the role that acts is a member of the old row's owner (`None`: no old row).
    pub member_of_old_owner: Option<bool>,
    /// Written by an application's SQL that pg_rating runs while it rates games (a filter, a
    /// path): a write that has read the ledgers' settings is under way.
    pub amid_a_write: bool,
    /// The new row, unless it has none or a NULL setting, name or owner (its constraint reports
    /// a NULL, after the trigger).
    pub new: Option<NewLedger<'a>>,
}

/// A new `ledgers` row whose name, owner and settings are not NULL.
pub struct NewLedger<'a> {
    pub name: &'a str,
    /// Whether the role that acts is a member of its owner.
    pub member_of_owner: bool,
    pub settings: &'a LedgerSettings,
}

/// Why a write of a `ledgers` row is refused.
#[derive(Debug, PartialEq)]
pub enum LedgerWriteRefused {
    /// A ledger kept by a client, written by another than pg_rating (`table`: `None` once gone).
    Kept {
        ledger: String,
        table: Option<String>,
    },
    /// A ledger changed or deleted by a role not a member of its owner.
    NotOwner,
    /// A ledger given an owner that the role that acts is not a member of.
    OwnerNotMember,
    Reserved(String),
    Settings(RatingError),
    /// A kept ledger's row without a name (a damaged row).
    NoName,
    /// A ledger changed or deleted by an application's SQL run amid a write of ledgers.
    AmidAWrite(Option<String>),
}

impl fmt::Display for LedgerWriteRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Kept { ledger, table: None } => DroppedClient(ledger).fmt(f),
            Self::Kept {
                ledger,
                table: Some(table),
            } => write!(
                f,
                "permission denied: ledger \"{ledger}\" keeps its history in {table}: pg_rating writes it with \
                 its client's settings (change those instead)"
            ),
            Self::NotOwner => f.write_str(
                "permission denied: only a member of a ledger's owner may change or delete it",
            ),
            Self::OwnerNotMember => f.write_str(
                "permission denied: a ledger's owner must be a role the session is a member of",
            ),
            Self::Reserved(name) => write!(
                f,
                "ledger name {} is reserved: names starting with \"{RESERVED_PREFIX}\" are the Random Chess rankings'",
                Quoted(name)
            ),
            Self::Settings(e) => write!(f, "ledger settings rejected: {e}"),
            Self::NoName => f.write_str("column name of a stored row is NULL"),
            Self::AmidAWrite(ledger) => write!(
                f,
                "ledger {} cannot change while pg_rating rates games: a filter or a column path of an \
                 attachment changed it, and the games being rated would be rated by the settings \
                 read before",
                ledger.as_deref().map(Quoted).map_or("(unnamed)".to_owned(), |q| q.to_string())
            ),
        }
    }
}

impl Classified for LedgerWriteRefused {
    fn class(&self) -> ErrorClass {
        match self {
            Self::Kept { .. } | Self::NotOwner | Self::OwnerNotMember => {
                ErrorClass::InsufficientPrivilege
            }
            Self::Reserved(_) => ErrorClass::ReservedName,
            Self::Settings(_) => ErrorClass::RuleViolation,
            Self::NoName => ErrorClass::Internal,
            Self::AmidAWrite(_) => ErrorClass::PrerequisiteState,
        }
    }
}

impl LedgerWrite<'_> {
    /// The first check the write fails, in this order: a ledger kept by a client is written by
    /// pg_rating only, unless its client's table is gone and it is deleted (its owner may then);
    /// only a member of the old row's owner changes or deletes it; a new row's owner is a role
    /// the session is a member of, its name not reserved (but by pg_rating), its settings valid.
    /// A kept ledger's own checks are its client's.
    pub fn check(&self) -> Result<(), LedgerWriteRefused> {
        // (first: no ledger read by a write under way changes under it, whoever writes)
        if self.amid_a_write && self.member_of_old_owner.is_some() {
            return Err(LedgerWriteRefused::AmidAWrite(self.name.map(str::to_owned)));
        }
        let orphan = self.deleted && self.kept_in == Some(None);
        if let (Some(table), false, false) = (self.kept_in, self.by_pg_rating, orphan) {
            return Err(LedgerWriteRefused::Kept {
                ledger: self.name.ok_or(LedgerWriteRefused::NoName)?.to_owned(),
                table: table.map(str::to_owned),
            });
        }
        if self.kept_in.is_some() && !orphan {
            return Ok(());
        }
        if self.member_of_old_owner == Some(false) {
            return Err(LedgerWriteRefused::NotOwner);
        }
        let Some(new) = self.new.as_ref().filter(|_| !self.deleted) else {
            return Ok(());
        };
        if !new.member_of_owner {
            return Err(LedgerWriteRefused::OwnerNotMember);
        }
        if self.kept_in.is_none() && !self.by_pg_rating && reserved_name(new.name) {
            return Err(LedgerWriteRefused::Reserved(new.name.to_owned()));
        }
        new.settings.rules().map_err(LedgerWriteRefused::Settings)?;
        Ok(())
    }
}

/// A `ledger_seeds` row that the ledger could not start a player from (23514): the bounds of
/// [`check_seed`](super::check_seed).
#[derive(Debug, PartialEq)]
pub struct SeedRejected(pub RatingError);

impl fmt::Display for SeedRejected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seed rejected: {}", self.0)
    }
}

impl Classified for SeedRejected {
    fn class(&self) -> ErrorClass {
        ErrorClass::RuleViolation
    }
}

/// Checks a `ledger_seeds` row's rating, RD and volatility.
pub fn check_seed_row(
    rating: f64,
    rd: Option<f64>,
    volatility: Option<f64>,
) -> Result<(), SeedRejected> {
    super::check_seed(rating, rd, volatility).map_err(SeedRejected)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seed_out_of_bounds_is_rejected_as_a_check_violation() {
        assert_eq!(check_seed_row(2100.0, Some(120.0), None), Ok(()));
        let e = check_seed_row(f64::NAN, None, None).unwrap_err();
        assert_eq!(e.sqlstate(), "23514");
        let inner = super::super::check_seed(f64::NAN, None, None).unwrap_err();
        assert_eq!(e.to_string(), format!("seed rejected: {inner}"));
    }

    fn settings() -> LedgerSettings {
        crate::ledger::rules::tests::glicko_settings()
    }

    fn write<'a>(settings: &'a LedgerSettings, name: &'a str) -> LedgerWrite<'a> {
        LedgerWrite {
            name: Some(name),
            kept_in: None,
            by_pg_rating: false,
            deleted: false,
            member_of_old_owner: Some(true),
            amid_a_write: false,
            new: Some(NewLedger {
                name,
                member_of_owner: true,
                settings,
            }),
        }
    }

    #[test]
    fn a_ledger_of_its_owner_with_valid_settings_is_written() {
        let s = settings();
        assert_eq!(write(&s, "blitz").check(), Ok(()));
        let insert = LedgerWrite {
            member_of_old_owner: None,
            ..write(&s, "blitz")
        };
        assert_eq!(insert.check(), Ok(()));
    }

    #[test]
    fn a_kept_ledger_is_written_by_pg_rating_only_and_deleted_once_its_client_is_gone() {
        let s = settings();
        let kept = LedgerWrite {
            kept_in: Some(Some("random_chess.rankings")),
            ..write(&s, "random_chess:blitz")
        };
        let e = kept.check().unwrap_err();
        assert_eq!(e.sqlstate(), "42501");
        assert_eq!(
            e.to_string(),
            "permission denied: ledger \"random_chess:blitz\" keeps its history in random_chess.rankings: \
             pg_rating writes it with its client's settings (change those instead)"
        );
        // by pg_rating: neither its owner nor its name nor its settings are checked here
        let by_pg_rating = LedgerWrite {
            by_pg_rating: true,
            member_of_old_owner: Some(false),
            ..kept
        };
        assert_eq!(by_pg_rating.check(), Ok(()));
        let gone = LedgerWrite {
            kept_in: Some(None),
            ..write(&s, "o'neil")
        };
        let e = gone.check().unwrap_err();
        assert_eq!(e.to_string(), DroppedClient("o'neil").to_string());
        assert_eq!(e.sqlstate(), "42501");
        // an orphan's owner deletes it; another role may not
        let delete = LedgerWrite {
            deleted: true,
            new: None,
            ..gone
        };
        assert_eq!(delete.check(), Ok(()));
        let not_owner = LedgerWrite {
            member_of_old_owner: Some(false),
            ..delete
        };
        assert_eq!(not_owner.check(), Err(LedgerWriteRefused::NotOwner));
        let nameless = LedgerWrite {
            name: None,
            kept_in: Some(Some("t")),
            ..write(&s, "x")
        };
        assert_eq!(nameless.check().unwrap_err().sqlstate(), "XX000");
    }

    #[test]
    fn no_ledger_changes_or_goes_amid_a_write_but_one_may_be_made() {
        let s = settings();
        for deleted in [false, true] {
            let amid = LedgerWrite {
                amid_a_write: true,
                deleted,
                ..write(&s, "blitz")
            };
            let e = amid.check().unwrap_err();
            assert_eq!(e, LedgerWriteRefused::AmidAWrite(Some("blitz".into())));
            assert_eq!(e.sqlstate(), "55000");
            assert!(e.to_string().starts_with(
                "ledger \"blitz\" cannot change while pg_rating rates games: a filter or a column path"
            ));
        }
        let insert = LedgerWrite {
            amid_a_write: true,
            member_of_old_owner: None,
            ..write(&s, "blitz")
        };
        assert_eq!(insert.check(), Ok(()));
    }

    #[test]
    fn owners_names_and_settings_are_checked_in_order() {
        let s = settings();
        let e = LedgerWrite {
            member_of_old_owner: Some(false),
            ..write(&s, "rc:x")
        }
        .check()
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "permission denied: only a member of a ledger's owner may change or delete it"
        );
        let mut w = write(&s, "rc:x");
        w.new.as_mut().unwrap().member_of_owner = false;
        let e = w.check().unwrap_err();
        assert_eq!(e.sqlstate(), "42501");
        assert_eq!(
            e.to_string(),
            "permission denied: a ledger's owner must be a role the session is a member of"
        );
        let reserved = format!("{RESERVED_PREFIX}blitz");
        let e = write(&s, &reserved).check().unwrap_err();
        assert_eq!(e.sqlstate(), "42939");
        assert_eq!(
            e.to_string(),
            format!(
                "ledger name \"{reserved}\" is reserved: names starting with \"{RESERVED_PREFIX}\" are \
                 the Random Chess rankings'"
            )
        );
        let by_pg_rating = LedgerWrite {
            by_pg_rating: true,
            ..write(&s, &reserved)
        };
        assert_eq!(by_pg_rating.check(), Ok(()));
        let bad = LedgerSettings {
            glicko2_rule: "nonsense".into(),
            ..settings()
        };
        let e = write(&bad, &reserved).check().unwrap_err();
        assert_eq!(
            e.sqlstate(),
            "42939",
            "the name is checked before the settings"
        );
        let e = write(&bad, "blitz").check().unwrap_err();
        assert_eq!(e.sqlstate(), "23514");
        assert!(e
            .to_string()
            .starts_with("ledger settings rejected: unknown glicko2_rule \"nonsense\""));
    }
}
