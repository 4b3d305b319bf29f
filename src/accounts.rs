//! Rules of `users` and `service_accounts` that span rows (sql/random_chess/01_accounts.sql has the tables):
//! every user owns one service-1 account, which keeps its identity while the user exists.

use pgrx::prelude::*;
use pgrx::PgSqlErrorCode;

use crate::error::raise;
use crate::trigger::{field, row_of, stored, trigger_function};

/// The local service, Random Chess itself.
pub const LOCAL_SERVICE: i32 = 1;

fn user_exists(user_id: i32) -> bool {
    Spi::get_one_with_args::<bool>(
        &crate::security::qualify("SELECT EXISTS (SELECT 1 FROM @extschema@.users WHERE id = $1)"),
        &[user_id.into()],
    )
    .unwrap_or_else(|e| crate::error::internal(e))
    .unwrap_or_else(|| crate::error::internal("EXISTS gave NULL"))
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

/// BEFORE UPDATE ON service_accounts. A service-1 account keeps its service, name, user and
/// bot flag while its user exists (the ON DELETE SET NULL of a deleted user runs after the
/// user is gone, so it passes). An account whose user is unlinked loses its token, which keeps
/// `token_only_for_linked_accounts` true through that cascade.
fn prevent_default_service_modification<'a>(
    trigger: &'a PgTrigger<'a>,
) -> Result<Option<PgHeapTuple<'a, AllocatedByRust>>, PgTriggerError> {
    let old = row_of(trigger.old());
    let new = row_of(trigger.new());
    let old_service: Option<i32> = field(&old, "service_id");
    let old_user: Option<i32> = field(&old, "user_id");
    let new_user: Option<i32> = field(&new, "user_id");
    if old_service == Some(LOCAL_SERVICE) {
        let name: String = stored::<&str>(&old, "user_id_in_service").to_owned();
        let identity_changed = old_service != field(&new, "service_id")
            || field::<&str>(&old, "user_id_in_service")
                != field::<&str>(&new, "user_id_in_service")
            || (old_user != new_user && new_user.is_some());
        if identity_changed && old_user.is_some_and(user_exists) {
            raise(
                PgSqlErrorCode::ERRCODE_RESTRICT_VIOLATION,
                format!(
                    "the Random Chess account \"{name}\" of an existing user cannot change its service, name or user"
                ),
            );
        }
        if field::<bool>(&old, "is_bot") != field::<bool>(&new, "is_bot") {
            raise(
                PgSqlErrorCode::ERRCODE_RESTRICT_VIOLATION,
                format!("the bot flag of the Random Chess account \"{name}\" cannot change (rankings depend on it)"),
            );
        }
    }
    let mut new = new.into_owned();
    if old_user.is_some() && new_user.is_none() {
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
    let service: Option<i32> = field(&old, "service_id");
    let user: Option<i32> = field(&old, "user_id");
    if service == Some(LOCAL_SERVICE) && user.is_some_and(user_exists) {
        let name: String = stored::<&str>(&old, "user_id_in_service").to_owned();
        raise(
            PgSqlErrorCode::ERRCODE_RESTRICT_VIOLATION,
            format!("the Random Chess account \"{name}\" of an existing user cannot be deleted; delete the user instead"),
        );
    }
    Ok(Some(old))
}
trigger_function!(
    prevent_default_service_deletion,
    prevent_default_service_deletion_wrapper,
    pg_finfo_prevent_default_service_deletion_wrapper,
    ["service_accounts"]
);
