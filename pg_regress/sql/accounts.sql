-- users, game_services and service_accounts: the rules apps rely on.
SELECT id, name FROM game_services ORDER BY id;

-- a new user gets its Random Chess account
INSERT INTO users (email, password_hash) VALUES ('alice@example.com', 'h1'), ('bob@example.com', 'h2');
SELECT user_id, service_id, user_id_in_service, token, display_name, is_bot
FROM service_accounts ORDER BY service_id, user_id_in_service;

-- emails are checked
INSERT INTO users (email, password_hash) VALUES ('not an email', 'h');
INSERT INTO users (email, password_hash) VALUES ('alice@example.com', 'h');

-- bots of service 1 have no user; persons are named by their user id
INSERT INTO service_accounts VALUES (NULL, 1, 'stockfish-4', NULL, 'Stockfish level 4', true);
INSERT INTO service_accounts VALUES (1, 1, 'bot-with-user', NULL, 'Bad bot', true);
INSERT INTO service_accounts VALUES (2, 1, 'bob', NULL, 'Bob again', false);

-- other services: a linked account has a token, an unlinked one has none
INSERT INTO game_services (name) VALUES ('lichess.org'), ('chess.com');
INSERT INTO service_accounts VALUES (1, 2, 'alice_li', 'secret', 'Alice', false);
INSERT INTO service_accounts VALUES (NULL, 2, 'magnus', NULL, 'Magnus', false);
INSERT INTO service_accounts VALUES (2, 2, 'bob_li', NULL, 'Bob', false);
INSERT INTO service_accounts VALUES (NULL, 2, 'ghost', 'secret', 'Ghost', false);
INSERT INTO service_accounts VALUES (NULL, 1, 'anon', 'secret', 'Anon', false);

-- the service-1 account of an existing user keeps its identity and stays
\set VERBOSITY sqlstate
UPDATE service_accounts SET user_id_in_service = 'alice' WHERE service_id = 1 AND user_id = 1;
\set VERBOSITY default
UPDATE service_accounts SET user_id_in_service = 'alice' WHERE service_id = 1 AND user_id = 1;
UPDATE service_accounts SET service_id = 2 WHERE service_id = 1 AND user_id = 1;
UPDATE service_accounts SET is_bot = true WHERE service_id = 1 AND user_id_in_service = '1';
UPDATE service_accounts SET is_bot = false WHERE user_id_in_service = 'stockfish-4';
DELETE FROM service_accounts WHERE service_id = 1 AND user_id = 1;
-- its display name may change
UPDATE service_accounts SET display_name = 'Alice' WHERE service_id = 1 AND user_id = 1;

-- deleting a user keeps its accounts, unlinked, and clears the tokens
DELETE FROM users WHERE id = 1;
SELECT user_id, service_id, user_id_in_service, token, display_name, is_bot
FROM service_accounts ORDER BY service_id, user_id_in_service;
-- an unlinked service-1 account may then be deleted
DELETE FROM service_accounts WHERE service_id = 1 AND user_id_in_service = '1';
SELECT count(*) AS accounts FROM service_accounts;

-- the trigger functions pin their search_path
SELECT proname, proconfig FROM pg_proc
WHERE proname IN ('add_default_service_to_user', 'prevent_default_service_modification',
                  'prevent_default_service_deletion')
ORDER BY proname;
