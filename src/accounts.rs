//! Rules of `users` and `service_accounts` that span rows (sql/random_chess/01_accounts.sql has the tables):
//! every user owns one service-1 account, which keeps its identity while the user exists.

use pgrx::prelude::*;

use pg_rating_core::ranking::accounts::Account;

use crate::error::raise_core;
use crate::trigger::{field, row_of, stored, trigger_function};

fn user_exists(user_id: i32) -> bool {
    let sql = "SELECT EXISTS (SELECT 1 FROM @extschema@.users WHERE id = $1)";
    Spi::connect(|client| {
        crate::spi::one(crate::spi::read(client, sql, &[user_id.into()]), "EXISTS")
    })
}

/// AFTER INSERT ON users: the user's own Random Chess account (not while restoring a dump,
/// which brings the account back itself).
fn add_default_service_to_user<'a>(
    trigger: &'a PgTrigger<'a>,
) -> Result<Option<PgHeapTuple<'a, AllocatedByPostgres>>, PgTriggerError> {
    if crate::restore::restoring() {
        return Ok(None);
    }
    let user = row_of(trigger.new());
    let id: i32 = stored(&user, "id");
    let email: String = stored::<&str>(&user, "email").to_owned();
    Spi::run_with_args(
        &crate::security::qualify(
            "INSERT INTO @extschema@.service_accounts (user_id, service_id, user_id_in_service, token, display_name, is_bot)
             VALUES ($1, 1, $1::text, NULL, left($2, 256), false)",
        ),
        &[id.into(), email.into()],
    )
    .unwrap_or_else(|e| crate::error::internal(e));
    Ok(None)
}
trigger_function!(
    add_default_service_to_user,
    add_default_service_to_user_wrapper,
    pg_finfo_add_default_service_to_user_wrapper,
    ["users"]
);

/// What the rules read of a `service_accounts` row.
fn account(row: &PgHeapTuple<'_, AllocatedByPostgres>) -> Account {
    Account {
        service: field(row, "service_id"),
        name: field::<&str>(row, "user_id_in_service").map(str::to_owned),
        user: field(row, "user_id"),
        is_bot: field(row, "is_bot"),
    }
}

/// BEFORE UPDATE ON service_accounts. A service-1 account keeps its service, name, user and
/// bot flag while its user exists (the rule: `pg_rating_core::ranking::accounts`). An account
/// whose user is unlinked loses its token, which keeps `token_only_for_linked_accounts` true
/// through that cascade.
fn prevent_default_service_modification<'a>(
    trigger: &'a PgTrigger<'a>,
) -> Result<Option<PgHeapTuple<'a, AllocatedByRust>>, PgTriggerError> {
    let (old_row, new_row) = (row_of(trigger.old()), row_of(trigger.new()));
    let (old, new) = (account(&old_row), account(&new_row));
    let owner_exists = old.identity_owner(&new).is_some_and(user_exists);
    let drop_token = old
        .update(&new, owner_exists)
        .unwrap_or_else(|e| raise_core(&e));
    let mut new = new_row.into_owned();
    if drop_token {
        // `token` is varchar; pgrx types a NULL by its Rust type, and `char` is its varchar type.
        new.set_by_name("token", None::<char>)
            .unwrap_or_else(|e| crate::error::internal(e));
    }
    Ok(Some(new))
}
trigger_function!(
    prevent_default_service_modification,
    prevent_default_service_modification_wrapper,
    pg_finfo_prevent_default_service_modification_wrapper,
    ["service_accounts"]
);

/// BEFORE DELETE ON service_accounts: the service-1 account of an existing user stays.
fn prevent_default_service_deletion<'a>(
    trigger: &'a PgTrigger<'a>,
) -> Result<Option<PgHeapTuple<'a, AllocatedByPostgres>>, PgTriggerError> {
    let old = row_of(trigger.old());
    let account = account(&old);
    let owner_exists = account.deletion_owner().is_some_and(user_exists);
    account
        .delete(owner_exists)
        .unwrap_or_else(|e| raise_core(&e));
    Ok(Some(old))
}
trigger_function!(
    prevent_default_service_deletion,
    prevent_default_service_deletion_wrapper,
    pg_finfo_prevent_default_service_deletion_wrapper,
    ["service_accounts"]
);
