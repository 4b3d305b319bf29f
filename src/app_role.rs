//! The recommended privileges of an application's role (sql/app_role.sql), and the Random Chess
//! app's day-one rows (sql/day_one.sql): loaded after every table and view.

use pgrx::prelude::*;

extension_sql_file!(
    "../sql/app_role.sql",
    name = "app_role",
    requires = ["tournaments", "games_openings"]
);

extension_sql_file!(
    "../sql/day_one.sql",
    name = "day_one",
    requires = ["tournaments", "accounts"]
);
