-- Games of the Random Chess schema. service_games holds games of every service (service 1 =
-- played here) and pgn_games those a user imported; both keep the positions of every move in
-- a generated column, computed by generate_fen_array (an illegal move makes the INSERT fail).

CREATE TABLE service_games (
    id                 serial PRIMARY KEY,
    moves              varchar(5)[] NOT NULL
        CONSTRAINT service_games_moves_have_no_nulls CHECK (pg_catalog.array_position(moves, NULL) IS NULL),
    starting_position  varchar(100) NOT NULL
        DEFAULT 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
    partial_fens       varchar[] GENERATED ALWAYS AS (@extschema@.generate_fen_array(starting_position, moves)) STORED,
    creation_date      timestamptz NOT NULL,
    result             game_result NOT NULL,
    metadata           jsonb,
    clock              clock_settings,
    game_id_in_service varchar,
    service_id         int NOT NULL REFERENCES game_services,
    white_player       varchar NOT NULL,
    black_player       varchar NOT NULL,
    is_ranked          bool NOT NULL,
    CONSTRAINT service_games_game_id_in_service_service_id_key UNIQUE (game_id_in_service, service_id),
    CONSTRAINT service_games_white_player_fkey FOREIGN KEY (service_id, white_player) REFERENCES service_accounts,
    CONSTRAINT service_games_black_player_fkey FOREIGN KEY (service_id, black_player) REFERENCES service_accounts,
    -- Local games are identified by id alone; other services' games by their own id, and never ranked.
    CONSTRAINT valid_game_id_in_service CHECK ((service_id = 1) = (game_id_in_service IS NULL)),
    CONSTRAINT only_local_games_are_ranked CHECK (service_id = 1 OR NOT is_ranked),
    CONSTRAINT ranked_games_have_two_players CHECK (NOT is_ranked OR white_player OPERATOR(pg_catalog.<>) black_player)
);
-- The rankings replay games in (creation_date, id) order.
CREATE INDEX service_games_by_date ON service_games (creation_date, id);
CREATE INDEX service_games_by_white ON service_games (service_id, white_player);
CREATE INDEX service_games_by_black ON service_games (service_id, black_player);

CREATE TABLE pgn_games (
    id                serial PRIMARY KEY,
    moves             varchar(5)[] NOT NULL
        CONSTRAINT pgn_games_moves_have_no_nulls CHECK (pg_catalog.array_position(moves, NULL) IS NULL),
    starting_position varchar(100) NOT NULL
        DEFAULT 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
    partial_fens      varchar[] GENERATED ALWAYS AS (@extschema@.generate_fen_array(starting_position, moves)) STORED,
    creation_date     timestamptz NOT NULL,
    result            game_result NOT NULL,
    metadata          jsonb,
    clock             clock_settings,
    owner_id          int NOT NULL REFERENCES users ON DELETE CASCADE,
    black_player_name varchar NOT NULL,
    white_player_name varchar NOT NULL
);
CREATE INDEX pgn_games_by_owner ON pgn_games (owner_id);

-- Trigger functions (src/games.rs), for service_games only.
CREATE FUNCTION prevent_service_game_modification() RETURNS trigger LANGUAGE c AS 'MODULE_PATHNAME', 'prevent_service_game_modification_wrapper';
CREATE FUNCTION prevent_service_game_deletion() RETURNS trigger LANGUAGE c AS 'MODULE_PATHNAME', 'prevent_service_game_deletion_wrapper';
REVOKE ALL ON FUNCTION prevent_service_game_modification(), prevent_service_game_deletion() FROM PUBLIC;

CREATE TRIGGER prevent_service_game_modification
    BEFORE UPDATE ON service_games
    FOR EACH ROW EXECUTE FUNCTION prevent_service_game_modification();
CREATE TRIGGER prevent_service_game_deletion
    BEFORE DELETE ON service_games
    FOR EACH ROW EXECUTE FUNCTION prevent_service_game_deletion();

-- Every game, of both kinds; (id, kind) identifies a game.
CREATE VIEW games AS
SELECT g.id, 'service'::text AS kind, g.starting_position, g.moves, g.partial_fens, g.creation_date,
       g.result, g.metadata, g.clock, g.game_id_in_service, g.service_id,
       g.white_player AS white_service_account, g.black_player AS black_service_account, g.is_ranked,
       NULL::int AS pgn_owner_id, NULL::varchar AS pgn_black_player_name, NULL::varchar AS pgn_white_player_name
FROM @extschema@.service_games g
UNION ALL
SELECT p.id, 'pgn'::text, p.starting_position, p.moves, p.partial_fens, p.creation_date,
       p.result, p.metadata, p.clock, NULL::varchar, NULL::int,
       NULL::varchar, NULL::varchar, NULL::bool,
       p.owner_id, p.black_player_name, p.white_player_name
FROM @extschema@.pgn_games p;

-- The games a user owns (imported) or plays in (with any of their accounts): one row per
-- (user, game), also when both players are accounts of the same user.
CREATE VIEW users_games AS
SELECT p.owner_id AS user_id, p.id AS game_id, 'pgn'::text AS kind, p.moves, p.creation_date, p.result, p.metadata
FROM @extschema@.pgn_games p
UNION ALL
SELECT a.user_id, g.id, 'service'::text, g.moves, g.creation_date, g.result, g.metadata
FROM @extschema@.service_games g
JOIN @extschema@.service_accounts a
  ON a.service_id = g.service_id AND a.user_id_in_service OPERATOR(pg_catalog.=) g.white_player
WHERE a.user_id IS NOT NULL
UNION ALL
SELECT a.user_id, g.id, 'service'::text, g.moves, g.creation_date, g.result, g.metadata
FROM @extschema@.service_games g
JOIN @extschema@.service_accounts a
  ON a.service_id = g.service_id AND a.user_id_in_service OPERATOR(pg_catalog.=) g.black_player
WHERE a.user_id IS NOT NULL AND g.black_player OPERATOR(pg_catalog.<>) g.white_player
  AND NOT EXISTS (SELECT FROM @extschema@.service_accounts w
                  WHERE w.service_id = g.service_id AND w.user_id_in_service OPERATOR(pg_catalog.=) g.white_player
                    AND w.user_id = a.user_id);

SELECT pg_catalog.pg_extension_config_dump('service_games', '');
SELECT pg_catalog.pg_extension_config_dump('service_games_id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('pgn_games', '');
SELECT pg_catalog.pg_extension_config_dump('pgn_games_id_seq', '');

ALTER FUNCTION prevent_service_game_modification() SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION prevent_service_game_deletion() SET search_path = pg_catalog, pg_temp;

COMMENT ON TABLE service_games IS
    'Games of every service (service 1: played here). Cannot be deleted; result type, clock, players, '
    'service and is_ranked cannot change. Ranked local games are rated by the rankings trigger.';
COMMENT ON COLUMN service_games.partial_fens IS
    'Generated: generate_fen_array(starting_position, moves), the start and the position after each move.';
COMMENT ON TABLE pgn_games IS 'Games a user imported from PGN; deleted with their owner.';
COMMENT ON VIEW games IS 'service_games UNION ALL pgn_games; (id, kind) identifies a game.';
COMMENT ON VIEW users_games IS
    'Games each user owns (pgn) or plays in with one of their accounts (service): one row per (user, game).';
COMMENT ON FUNCTION prevent_service_game_modification() IS
    'Trigger: refuses changes of a service game''s result type, clock, players, service or is_ranked.';
COMMENT ON FUNCTION prevent_service_game_deletion() IS 'Trigger: service games are never deleted.';
