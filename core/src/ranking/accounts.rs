//! The rules of Random Chess accounts (`service_accounts`) that span rows: every user owns one
//! account of the local service, which keeps its identity and bot flag while the user exists.

use std::fmt;

/// The local service, Random Chess itself.
pub const LOCAL_SERVICE: i32 = 1;

/// What the rules read of a `service_accounts` row.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Account {
    pub service: Option<i32>,
    pub name: Option<String>,
    pub user: Option<i32>,
    pub is_bot: Option<bool>,
}

/// An update or delete the rules refuse (23001); `Display` is the message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AccountRule {
    /// The local account of an existing user changes its service, name or user.
    Identity(String),
    /// The local account's bot flag changes.
    BotFlag(String),
    /// The local account of an existing user is deleted.
    Deleted(String),
}

impl fmt::Display for AccountRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AccountRule::Identity(name) => write!(
                f,
                "the Random Chess account \"{name}\" of an existing user cannot change its service, name or user"
            ),
            AccountRule::BotFlag(name) => write!(
                f,
                "the bot flag of the Random Chess account \"{name}\" cannot change (rankings depend on it)"
            ),
            AccountRule::Deleted(name) => write!(
                f,
                "the Random Chess account \"{name}\" of an existing user cannot be deleted; delete the user instead"
            ),
        }
    }
}

impl crate::error::Classified for AccountRule {
    fn class(&self) -> crate::error::ErrorClass {
        crate::error::ErrorClass::Restricted
    }
}

impl Account {
    fn is_local(&self) -> bool {
        self.service == Some(LOCAL_SERVICE)
    }

    /// The user whose existence decides whether the update `new` of this account may go: the
    /// old user of a local account whose service, name or user changes (a user set to NULL,
    /// the ON DELETE SET NULL of a deleted user, keeps the identity).
    pub fn identity_owner(&self, new: &Account) -> Option<i32> {
        let changed = self.service != new.service
            || self.name != new.name
            || (self.user != new.user && new.user.is_some());
        (self.is_local() && changed).then_some(self.user).flatten()
    }

    /// Whether the update `new` may go, given whether the user [`Account::identity_owner`]
    /// names exists; `Ok(true)` when the account loses its token (its user was unlinked).
    pub fn update(&self, new: &Account, owner_exists: bool) -> Result<bool, AccountRule> {
        let name = || self.name.clone().unwrap_or_default();
        if self.is_local() {
            if owner_exists && self.identity_owner(new).is_some() {
                return Err(AccountRule::Identity(name()));
            }
            if self.is_bot != new.is_bot {
                return Err(AccountRule::BotFlag(name()));
            }
        }
        Ok(self.user.is_some() && new.user.is_none())
    }

    /// The user whose existence keeps this account from being deleted: a local account's.
    pub fn deletion_owner(&self) -> Option<i32> {
        self.user.filter(|_| self.is_local())
    }

    /// Whether the account may be deleted, given whether [`Account::deletion_owner`] exists.
    pub fn delete(&self, owner_exists: bool) -> Result<(), AccountRule> {
        if owner_exists && self.deletion_owner().is_some() {
            return Err(AccountRule::Deleted(self.name.clone().unwrap_or_default()));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn local(user: Option<i32>) -> Account {
        Account {
            service: Some(LOCAL_SERVICE),
            name: Some("7".into()),
            user,
            is_bot: Some(false),
        }
    }

    #[test]
    fn a_local_account_keeps_its_identity_while_its_user_exists() {
        let old = local(Some(7));
        let mut renamed = old.clone();
        renamed.name = Some("8".into());
        assert_eq!(old.identity_owner(&renamed), Some(7));
        let e = old.update(&renamed, true).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the Random Chess account \"7\" of an existing user cannot change its service, name or user"
        );
        // the user is gone: the account may change
        assert_eq!(old.update(&renamed, false), Ok(false));
        let mut moved = old.clone();
        moved.service = Some(2);
        assert_eq!(old.identity_owner(&moved), Some(7));
        // an unchanged account, or one of another service, needs no user
        assert_eq!(old.identity_owner(&old), None);
        assert_eq!(old.update(&old, true), Ok(false));
        let other = Account {
            service: Some(2),
            ..old.clone()
        };
        assert_eq!(other.identity_owner(&renamed), None);
    }

    #[test]
    fn an_unlinked_user_drops_the_token_and_keeps_the_identity() {
        let old = local(Some(7));
        let unlinked = local(None);
        assert_eq!(old.identity_owner(&unlinked), None);
        assert_eq!(old.update(&unlinked, true), Ok(true));
    }

    #[test]
    fn the_bot_flag_of_a_local_account_never_changes() {
        let old = local(Some(7));
        let mut bot = old.clone();
        bot.is_bot = Some(true);
        let e = old.update(&bot, false).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the bot flag of the Random Chess account \"7\" cannot change (rankings depend on it)"
        );
        let other = Account {
            service: Some(2),
            ..old.clone()
        };
        let other_bot = Account {
            is_bot: Some(true),
            ..other.clone()
        };
        assert_eq!(other.update(&other_bot, true), Ok(false));
    }

    #[test]
    fn a_local_account_of_an_existing_user_stays() {
        let old = local(Some(7));
        assert_eq!(old.deletion_owner(), Some(7));
        let e = old.delete(true).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the Random Chess account \"7\" of an existing user cannot be deleted; delete the user instead"
        );
        assert!(old.delete(false).is_ok());
        assert_eq!(local(None).deletion_owner(), None);
        let other = Account {
            service: Some(2),
            ..old
        };
        assert_eq!(other.deletion_owner(), None);
        assert!(other.delete(true).is_ok());
    }
}
