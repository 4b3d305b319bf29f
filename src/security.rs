//! Who acts, and with whose rights pg_rating's code runs (docs/operations.md, "Security model").
//!
//! - Every function and trigger of both extensions runs with `search_path = pg_catalog, pg_temp`:
//!   no schema a non-superuser can create in (the extension's schema is usually `public`, where a
//!   database owner may create operators and functions) is searched while pg_rating's code runs.
//!   pg_rating's own objects are named with their schema: statements of the glue write
//!   `@extschema@.name`, which [`qualify`] replaces with the engine's schema, and tables opened
//!   below SQL are looked up in that schema ([`engine`]).
//! - Checks of who may act use [`acting_role`]: the role in effect when pg_rating's code was
//!   entered (an application's filter running as its table's owner acts as that owner), never the
//!   session's login role. Functions that check a role are SECURITY INVOKER and take the extension
//!   owner's rights only for their writes ([`RunAs::extension_owner`]), after the check.
//! - An application's own SQL (an attached table's filter and columns) runs as that table's owner,
//!   in a security-restricted operation, with the table's schema on the path ([`RunAs::table_owner`]).

use std::borrow::Cow;
use std::cell::RefCell;
use std::ffi::{CStr, CString};

use pgrx::pg_sys;
use pgrx::PgSqlErrorCode;

use crate::error::{internal, raise};

// The privileges only a table's owner keeps (TRIGGER, and writes and locks of derived tables),
// taken back after every GRANT: last in the install script, once every table exists.
pgrx::extension_sql_file!(
    "../sql/table_privileges.sql",
    name = "table_privileges",
    finalize
);

// The schema that holds the extension keeps its name (its functions name it).
pgrx::extension_sql_file!("../sql/schema_guard.sql", name = "schema_guard");

/// The role whose rights pg_rating's code has at this point: the caller of a SECURITY INVOKER
/// function, the owner of an application's table while its filter runs.
pub fn acting_role() -> pg_sys::Oid {
    // SAFETY: reads this backend's current user id.
    unsafe { pg_sys::GetUserId() }
}

/// Whether `role` has the privileges of `of` (is a member of it, or a superuser).
pub fn is_member(role: pg_sys::Oid, of: pg_sys::Oid) -> bool {
    // SAFETY: a catalog lookup of role membership.
    unsafe { pg_sys::has_privs_of_role(role, of) }
}

/// Where the engine lives in this database: its extension, and its schema by oid and as a
/// quoted name.
#[derive(Clone)]
pub struct Engine {
    pub extension: pg_sys::Oid,
    pub namespace: pg_sys::Oid,
    pub schema: String,
}

thread_local! {
    /// The engine as found in the transaction that read it (by local transaction id).
    static ENGINE: RefCell<Option<(u32, Engine)>> = const { RefCell::new(None) };
    /// The schema of each extension seen by this backend (an extension never moves: it is not
    /// relocatable; a new one has a new oid).
    static SCHEMAS: RefCell<Vec<(pg_sys::Oid, pg_sys::Oid)>> = const { RefCell::new(Vec::new()) };
}

fn local_transaction() -> u32 {
    // SAFETY: MyProc is this backend's PGPROC, set for the whole life of a backend that runs SQL.
    unsafe { (*pg_sys::MyProc).lxid }
}

/// The engine (`pg_rating`) of this database, looked up once per transaction; 55000 when it is
/// not installed.
pub fn engine() -> Engine {
    let now = local_transaction();
    if let Some(found) = ENGINE.with_borrow(|e| {
        e.as_ref()
            .filter(|(lxid, _)| *lxid == now)
            .map(|(_, e)| e.clone())
    }) {
        return found;
    }
    let found = read_engine();
    ENGINE.with_borrow_mut(|e| *e = Some((now, found.clone())));
    found
}

fn read_engine() -> Engine {
    // SAFETY: a catalog lookup by name.
    let extension = unsafe { pg_sys::get_extension_oid(c"pg_rating".as_ptr(), true) };
    if extension == pg_sys::InvalidOid {
        raise(
            PgSqlErrorCode::ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
            "extension pg_rating is not installed in this database",
        );
    }
    let namespace = SCHEMAS
        .with_borrow(|s| s.iter().find(|(e, _)| *e == extension).map(|(_, n)| *n))
        .unwrap_or_else(|| {
            let namespace = extension_column(extension, "extnamespace");
            SCHEMAS.with_borrow_mut(|s| s.push((extension, namespace)));
            namespace
        });
    // SAFETY: a syscache lookup by oid; the strings returned are palloc'd copies.
    let schema = unsafe {
        let name = pg_sys::get_namespace_name(namespace);
        if name.is_null() {
            internal("the schema of extension pg_rating is gone");
        }
        CStr::from_ptr(pg_sys::quote_identifier(name))
            .to_string_lossy()
            .into_owned()
    };
    if schema.contains('\'') {
        raise(
            PgSqlErrorCode::ERRCODE_INVALID_SCHEMA_NAME,
            format!("pg_rating cannot work in schema {schema}: its name has a quote"),
        );
    }
    Engine {
        extension,
        namespace,
        schema,
    }
}

/// A column of type oid of the engine's `pg_extension` row.
fn extension_column(extension: pg_sys::Oid, column: &str) -> pg_sys::Oid {
    use pgrx::spi::Spi;
    let sql = format!(
        "SELECT e.{column} FROM pg_catalog.pg_extension e WHERE e.oid OPERATOR(pg_catalog.=) $1"
    );
    Spi::connect(|client| {
        client
            .select(sql.as_str(), None, &[extension.into()])
            .ok()
            .and_then(|rows| rows.first().get_one::<pg_sys::Oid>().ok().flatten())
    })
    .unwrap_or_else(|| internal(format!("extension pg_rating has no {column}")))
}

/// The owner of the engine's extension (pg_extension.extowner).
fn extension_owner() -> pg_sys::Oid {
    extension_column(engine().extension, "extowner")
}

/// `sql` with every `@extschema@` replaced by the engine's schema (the Random Chess schema is
/// the same schema: its install script checks that).
pub fn qualify(sql: &str) -> Cow<'_, str> {
    if sql.contains("@extschema@") {
        Cow::Owned(sql.replace("@extschema@", &engine().schema))
    } else {
        Cow::Borrowed(sql)
    }
}

/// The relation `name` of the engine's schema, or `InvalidOid` (see [`own_relation_in`]).
pub fn own_relation(name: &str) -> pg_sys::Oid {
    let name = CString::new(name).unwrap_or_else(|e| internal(e));
    own_relation_in(&name, engine().namespace)
}

/// The relation `name` of `namespace` when it belongs to one of pg_rating's extensions, else
/// `InvalidOid`. Which tables a schema has tells its version, and pg_rating's code then reads and
/// writes them as the extension's owner: a relation of that name that a role made there (on
/// PostgreSQL 15 a database's owner owns `public`, and may let others create in it) is none of
/// pg_rating's, whatever version it mimics.
pub fn own_relation_in(name: &CStr, namespace: pg_sys::Oid) -> pg_sys::Oid {
    // SAFETY: a catalog lookup by name in one schema.
    let relation = unsafe { pg_sys::get_relname_relid(name.as_ptr(), namespace) };
    match relation != pg_sys::InvalidOid && crate::trigger::member_of_own_extension(relation) {
        true => relation,
        false => pg_sys::InvalidOid,
    }
}

/// Runs what follows with another role's rights (and, for an application's SQL, its table's
/// schema on the path) until dropped.
pub struct RunAs {
    user: pg_sys::Oid,
    context: i32,
    guc_level: Option<i32>,
}

impl RunAs {
    /// As the extension's owner, for the writes of a function that has checked the acting role.
    /// A security-restricted operation stays one.
    pub fn extension_owner() -> Self {
        Self::role(extension_owner(), 0, None)
    }

    /// As `owner`, the owner of an application's table, in a security-restricted operation, with
    /// `search_path = pg_catalog, <the table's schema>, pg_temp`: its filter is its owner's SQL
    /// and names what its owner's schema holds.
    pub fn table_owner(owner: pg_sys::Oid, table_schema: pg_sys::Oid) -> Self {
        // SAFETY: a catalog lookup by oid; the name is a palloc'd copy.
        let schema = unsafe {
            let name = pg_sys::get_namespace_name(table_schema);
            if name.is_null() {
                internal("the schema of an attached table is gone");
            }
            CStr::from_ptr(pg_sys::quote_identifier(name))
                .to_string_lossy()
                .into_owned()
        };
        let path = format!("pg_catalog, {schema}, pg_temp");
        Self::role(
            owner,
            pg_sys::SECURITY_RESTRICTED_OPERATION as i32,
            Some(path),
        )
    }

    fn role(role: pg_sys::Oid, flags: i32, path: Option<String>) -> Self {
        let (mut user, mut context) = (pg_sys::InvalidOid, 0);
        // SAFETY: reading and setting this backend's user id, as PostgreSQL does around
        // maintenance commands that run a table owner's code; the GUC nest level is popped by
        // drop (or by the abort of the (sub)transaction on an error).
        let guc_level = unsafe {
            pg_sys::GetUserIdAndSecContext(&mut user, &mut context);
            pg_sys::SetUserIdAndSecContext(
                role,
                context | pg_sys::SECURITY_LOCAL_USERID_CHANGE as i32 | flags,
            );
            path.map(|path| {
                let level = pg_sys::NewGUCNestLevel();
                let value = CString::new(path).unwrap_or_else(|e| internal(e));
                pg_sys::set_config_option(
                    c"search_path".as_ptr(),
                    value.as_ptr(),
                    pg_sys::GucContext::PGC_USERSET,
                    pg_sys::GucSource::PGC_S_SESSION,
                    pg_sys::GucAction::GUC_ACTION_SAVE,
                    true,
                    0,
                    false,
                );
                level
            })
        };
        RunAs {
            user,
            context,
            guc_level,
        }
    }
}

impl Drop for RunAs {
    fn drop(&mut self) {
        // SAFETY: restores what role() read. On an error the (sub)transaction's abort pops the
        // GUC level itself, and popping it here as well would corrupt the nesting.
        unsafe {
            if let Some(level) = self.guc_level {
                if !std::thread::panicking() {
                    pg_sys::AtEOXact_GUC(true, level);
                }
            }
            pg_sys::SetUserIdAndSecContext(self.user, self.context);
        }
    }
}
