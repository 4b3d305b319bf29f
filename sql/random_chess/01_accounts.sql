-- Accounts of the Random Chess schema: local users, the services games come from, and one
-- account per (service, player). Every user owns exactly one account of service 1 (Random
-- Chess itself), created with the user and kept after the user is deleted, so that games
-- played with it stay attributable. The rules that need more than one row are Rust triggers
-- (src/accounts.rs).

CREATE TABLE users (
    id            serial PRIMARY KEY,
    email         varchar NOT NULL UNIQUE
        CONSTRAINT valid_email CHECK (email ~ '^[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$'),
    password_hash varchar NOT NULL
);

CREATE TABLE game_services (
    id   serial PRIMARY KEY,
    name varchar(256) NOT NULL UNIQUE
);
-- Service 1: local games.
INSERT INTO game_services (id, name) VALUES (1, 'Random Chess');
SELECT pg_catalog.setval('game_services_id_seq', 1);

CREATE TABLE service_accounts (
    user_id            int REFERENCES users ON DELETE SET NULL,
    service_id         int NOT NULL REFERENCES game_services,
    user_id_in_service varchar NOT NULL,
    token              varchar,
    display_name       varchar(256) NOT NULL,
    is_bot             bool NOT NULL,
    PRIMARY KEY (service_id, user_id_in_service),
    -- Service 1: a bot has no user; a person's account is named by its user id while the user exists.
    CONSTRAINT valid_system_account CHECK (
        service_id <> 1
        OR (is_bot AND user_id IS NULL)
        OR (NOT is_bot AND (user_id IS NULL OR user_id_in_service OPERATOR(pg_catalog.=) user_id::text))
    ),
    -- Only linked accounts of other services keep a synchronisation token.
    CONSTRAINT token_only_for_linked_accounts CHECK ((token IS NULL) = (service_id = 1 OR user_id IS NULL))
);
CREATE INDEX service_accounts_user_id ON service_accounts (user_id);

-- Trigger functions (src/accounts.rs): each fires only on its own table; no role may execute
-- them, which keeps them from being attached elsewhere.
CREATE FUNCTION add_default_service_to_user() RETURNS trigger LANGUAGE c AS 'MODULE_PATHNAME', 'add_default_service_to_user_wrapper';
CREATE FUNCTION prevent_default_service_modification() RETURNS trigger LANGUAGE c AS 'MODULE_PATHNAME', 'prevent_default_service_modification_wrapper';
CREATE FUNCTION prevent_default_service_deletion() RETURNS trigger LANGUAGE c AS 'MODULE_PATHNAME', 'prevent_default_service_deletion_wrapper';
REVOKE ALL ON FUNCTION add_default_service_to_user(), prevent_default_service_modification(),
    prevent_default_service_deletion() FROM PUBLIC;

CREATE TRIGGER add_default_service_to_user
    AFTER INSERT ON users
    FOR EACH ROW EXECUTE FUNCTION add_default_service_to_user();
CREATE TRIGGER prevent_default_service_modification
    BEFORE UPDATE ON service_accounts
    FOR EACH ROW EXECUTE FUNCTION prevent_default_service_modification();
CREATE TRIGGER prevent_default_service_deletion
    BEFORE DELETE ON service_accounts
    FOR EACH ROW EXECUTE FUNCTION prevent_default_service_deletion();

SELECT pg_catalog.pg_extension_config_dump('users', '');
SELECT pg_catalog.pg_extension_config_dump('users_id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('game_services', 'WHERE id <> 1');
SELECT pg_catalog.pg_extension_config_dump('game_services_id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('service_accounts', '');

COMMENT ON TABLE users IS 'Local users of Random Chess. Inserting one creates its service-1 account.';
COMMENT ON TABLE game_services IS 'Where games come from; id 1 is Random Chess itself (local games).';
COMMENT ON TABLE service_accounts IS
    'One account per (service, player). Service-1 accounts of users are named by the user id, '
    'cannot be renamed or deleted while the user exists, and are kept (user_id set to NULL) after it is deleted.';
COMMENT ON FUNCTION add_default_service_to_user() IS
    'Trigger: creates the service-1 account (user_id, 1, user_id::text, email, false) of a new user.';
COMMENT ON FUNCTION prevent_default_service_modification() IS
    'Trigger: refuses to change the identity of a service-1 account while its user exists, and clears '
    'the token of an account whose user is unlinked (so ON DELETE SET NULL keeps the token rule).';
COMMENT ON FUNCTION prevent_default_service_deletion() IS
    'Trigger: refuses to delete the service-1 account of an existing user.';

-- The trigger functions run SQL: their search_path is pinned to this extension's schema.
ALTER FUNCTION add_default_service_to_user() SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION prevent_default_service_modification() SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION prevent_default_service_deletion() SET search_path = pg_catalog, pg_temp;
