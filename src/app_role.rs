//! The recommended privileges of an application's role (sql/app_role.sql): loaded after every
//! table and view, which it grants SELECT on.

use pgrx::prelude::*;

extension_sql_file!(
    "../sql/app_role.sql",
    name = "app_role",
    requires = ["tournaments", "games_openings"]
);
