-- pg_rating_random_chess 0.7.0 -> 0.8.0: a ranking may use any rating system the engine knows
-- (FIDE's game-by-game rules too, with a starting rating FIDE's table reads); its history is
-- rated by the engine's ledger replay (no change of the rows). The tournament tables get one
-- trigger function per table and job in place of check_tournament_row and
-- refresh_tournament_standings (the triggers keep their names).

ALTER TABLE rankings DROP CONSTRAINT known_rating_system,
    ADD CONSTRAINT known_rating_system CHECK (@extschema@.rating_system_known(rating_system)),
    ADD CONSTRAINT fide_starting_elo_in_range CHECK (rating_system <> 'fide' OR starting_elo <= 4000);

CREATE FUNCTION check_swiss_tournament() RETURNS trigger LANGUAGE c AS 'MODULE_PATHNAME', 'check_swiss_tournament_wrapper';
CREATE FUNCTION check_tournament_player() RETURNS trigger LANGUAGE c AS 'MODULE_PATHNAME', 'check_tournament_player_wrapper';
CREATE FUNCTION check_tournament_game() RETURNS trigger LANGUAGE c AS 'MODULE_PATHNAME', 'check_tournament_game_wrapper';
CREATE FUNCTION check_bye() RETURNS trigger LANGUAGE c AS 'MODULE_PATHNAME', 'check_bye_wrapper';
CREATE FUNCTION refresh_standings_of_tournament() RETURNS trigger
    LANGUAGE c AS 'MODULE_PATHNAME', 'refresh_standings_of_tournament_wrapper';
CREATE FUNCTION refresh_standings_of_player() RETURNS trigger
    LANGUAGE c AS 'MODULE_PATHNAME', 'refresh_standings_of_player_wrapper';
CREATE FUNCTION refresh_standings_of_game() RETURNS trigger
    LANGUAGE c AS 'MODULE_PATHNAME', 'refresh_standings_of_game_wrapper';
CREATE FUNCTION refresh_standings_of_bye() RETURNS trigger
    LANGUAGE c AS 'MODULE_PATHNAME', 'refresh_standings_of_bye_wrapper';
CREATE FUNCTION refresh_standings_of_service_game() RETURNS trigger
    LANGUAGE c AS 'MODULE_PATHNAME', 'refresh_standings_of_service_game_wrapper';
REVOKE ALL ON FUNCTION check_swiss_tournament(), check_tournament_player(), check_tournament_game(), check_bye(),
    refresh_standings_of_tournament(), refresh_standings_of_player(), refresh_standings_of_game(),
    refresh_standings_of_bye(), refresh_standings_of_service_game()
    FROM PUBLIC;
ALTER FUNCTION check_swiss_tournament() SECURITY DEFINER SET search_path = pg_catalog, @extschema@, pg_temp;
ALTER FUNCTION check_tournament_player() SECURITY DEFINER SET search_path = pg_catalog, @extschema@, pg_temp;
ALTER FUNCTION check_tournament_game() SECURITY DEFINER SET search_path = pg_catalog, @extschema@, pg_temp;
ALTER FUNCTION check_bye() SECURITY DEFINER SET search_path = pg_catalog, @extschema@, pg_temp;
ALTER FUNCTION refresh_standings_of_tournament() SECURITY DEFINER SET search_path = pg_catalog, @extschema@, pg_temp;
ALTER FUNCTION refresh_standings_of_player() SECURITY DEFINER SET search_path = pg_catalog, @extschema@, pg_temp;
ALTER FUNCTION refresh_standings_of_game() SECURITY DEFINER SET search_path = pg_catalog, @extschema@, pg_temp;
ALTER FUNCTION refresh_standings_of_bye() SECURITY DEFINER SET search_path = pg_catalog, @extschema@, pg_temp;
ALTER FUNCTION refresh_standings_of_service_game() SECURITY DEFINER SET search_path = pg_catalog, @extschema@, pg_temp;

CREATE OR REPLACE TRIGGER check_swiss_tournament
    BEFORE INSERT OR UPDATE ON swiss_tournaments
    FOR EACH ROW EXECUTE FUNCTION check_swiss_tournament();
CREATE OR REPLACE TRIGGER check_tournament_player
    BEFORE INSERT OR UPDATE OR DELETE ON tournaments_players
    FOR EACH ROW EXECUTE FUNCTION check_tournament_player();
CREATE OR REPLACE TRIGGER check_tournament_game
    BEFORE INSERT OR UPDATE ON tournaments_games
    FOR EACH ROW EXECUTE FUNCTION check_tournament_game();
CREATE OR REPLACE TRIGGER check_bye
    BEFORE INSERT OR UPDATE ON byes
    FOR EACH ROW EXECUTE FUNCTION check_bye();

CREATE OR REPLACE TRIGGER refresh_standings_of_tournament
    AFTER INSERT OR UPDATE ON swiss_tournaments
    FOR EACH ROW EXECUTE FUNCTION refresh_standings_of_tournament();
CREATE OR REPLACE TRIGGER refresh_standings_of_player
    AFTER INSERT OR DELETE ON tournaments_players
    FOR EACH ROW EXECUTE FUNCTION refresh_standings_of_player();
CREATE OR REPLACE TRIGGER refresh_standings_of_game
    AFTER INSERT OR UPDATE OR DELETE ON tournaments_games
    FOR EACH ROW EXECUTE FUNCTION refresh_standings_of_game();
CREATE OR REPLACE TRIGGER refresh_standings_of_bye
    AFTER INSERT OR UPDATE OR DELETE ON byes
    FOR EACH ROW EXECUTE FUNCTION refresh_standings_of_bye();
-- a service game's result reason, moves (a forfeit is a decisive ABANDONMENT without a move)
-- or date (the tournament's start) may change
CREATE OR REPLACE TRIGGER refresh_standings_of_service_game
    AFTER UPDATE OF result, moves, creation_date ON service_games
    FOR EACH ROW
    WHEN (OLD.result IS DISTINCT FROM NEW.result OR OLD.moves IS DISTINCT FROM NEW.moves
          OR OLD.creation_date IS DISTINCT FROM NEW.creation_date)
    EXECUTE FUNCTION refresh_standings_of_service_game();

DROP FUNCTION check_tournament_row(), refresh_tournament_standings();

COMMENT ON FUNCTION check_swiss_tournament() IS
    'Trigger of swiss_tournaments: stores the tie-break order in its canonical spelling (an unknown tie-break 22023).';
COMMENT ON FUNCTION check_tournament_player() IS
    'Trigger of tournaments_players: a registration meets the tournament''s requirements, is never changed, and a '
    'player with games in the tournament cannot leave.';
COMMENT ON FUNCTION check_tournament_game() IS
    'Trigger of tournaments_games: the round exists, the game is local with the tournament''s rated flag, starting '
    'position and clock, and both players are registered and have no other game or bye in the round.';
COMMENT ON FUNCTION check_bye() IS
    'Trigger of byes: the round exists, the player is registered and has no game or other bye in the round.';
COMMENT ON FUNCTION refresh_standings_of_tournament() IS
    'Trigger of swiss_tournaments: a ranked tournament''s time control falls in its ranking''s window and its games '
    'and byes still follow its rules; a new tournament gets its progress row; a change of its ranking or tie-break '
    'order recomputes its standings.';
COMMENT ON FUNCTION refresh_standings_of_player() IS
    'Trigger of tournaments_players: a registered player gets a pairing number and standings rows, one who left loses '
    'them.';
COMMENT ON FUNCTION refresh_standings_of_game() IS
    'Trigger of tournaments_games: the standings of the rounds a registered, moved or removed game changes.';
COMMENT ON FUNCTION refresh_standings_of_bye() IS
    'Trigger of byes: the standings of the rounds a bye changes.';
COMMENT ON FUNCTION refresh_standings_of_service_game() IS
    'Trigger of service_games: the standings of the tournaments a game is registered in, after a change of its '
    'result, moves or date.';
COMMENT ON TABLE swiss_tournament_standings IS
    'Derived, kept by the refresh_standings_of_* triggers: per (tournament, round, player) the entry of the round and '
    'every tie-break value after it (FIDE C.07, 2026 edition).';
