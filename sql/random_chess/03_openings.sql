-- Openings: named positions (partial FENs) of the lichess chess-openings data (CC0).
-- Load with load_lichess_openings(tsv text); detect_opening finds a game's latest named position
-- through a per-backend hash map that the trigger below invalidates on every change.

CREATE TABLE openings (
    id          serial PRIMARY KEY,
    eco         char(3) NOT NULL,
    name        varchar(256) NOT NULL,
    partial_fen varchar UNIQUE NOT NULL
);
SELECT pg_catalog.pg_extension_config_dump('openings', '');
SELECT pg_catalog.pg_extension_config_dump('openings_id_seq', '');

CREATE FUNCTION openings_cache_invalidate(openings oid) RETURNS void
    STRICT VOLATILE PARALLEL UNSAFE
    LANGUAGE c AS 'MODULE_PATHNAME', 'openings_cache_invalidate_wrapper';
CREATE FUNCTION openings_cache_loads() RETURNS bigint
    STRICT VOLATILE PARALLEL RESTRICTED
    LANGUAGE c AS 'MODULE_PATHNAME', 'openings_cache_loads_wrapper';
CREATE FUNCTION load_lichess_openings(tsv text) RETURNS bigint
    STRICT VOLATILE PARALLEL UNSAFE
    SET search_path = pg_catalog, pg_temp
    LANGUAGE c AS 'MODULE_PATHNAME', 'load_lichess_openings_wrapper';

CREATE FUNCTION openings_changed() RETURNS trigger
    LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    PERFORM @extschema@.openings_cache_invalidate(TG_RELID);
    RETURN NULL;
END
$$;

REVOKE ALL ON FUNCTION openings_changed() FROM PUBLIC;

CREATE TRIGGER openings_invalidate_cache
    AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON openings
    FOR EACH STATEMENT EXECUTE FUNCTION openings_changed();

CREATE FUNCTION detect_opening(partial_fens varchar[], OUT opening_id int, OUT move_no int)
    RETURNS record
    STABLE STRICT PARALLEL SAFE
    LANGUAGE c AS 'MODULE_PATHNAME', 'pg_rating_detect_opening';

COMMENT ON TABLE openings IS
    'Named opening positions: ECO code, name, partial FEN (first four FEN fields, legal en passant only). '
    'Fill from the lichess chess-openings TSV files with load_lichess_openings.';
COMMENT ON FUNCTION detect_opening(varchar[]) IS
    'The latest position of a game (an array of partial FENs as generate_fen_array returns) found in openings: '
    '(opening_id, move_no) with move_no its index (0 = start); NULLs when none matches. Uses a per-backend hash '
    'map of openings that is rebuilt after any change to the table.';
COMMENT ON FUNCTION load_lichess_openings(text) IS
    'Loads the text of one or more lichess openings TSV files (eco, name, pgn; headers skipped) into openings, '
    'computing each partial FEN from the pgn; updates eco and name of positions already present. Returns the number '
    'of lines loaded. Errors: a bad line 22P02 naming the line; two lines reaching one position 23505.';
COMMENT ON FUNCTION opening_partial_fen(text) IS
    'The partial FEN after a movetext such as ''1. e4 e5 2. Nf3'' (the pgn column of the lichess files). '
    'Errors: illegal move 22023.';
COMMENT ON FUNCTION openings_cache_invalidate(oid) IS
    'Makes every backend drop its map of openings (called by the openings trigger).';
COMMENT ON FUNCTION openings_cache_loads() IS
    'How many times this backend has loaded the openings map (diagnostics).';
COMMENT ON FUNCTION openings_changed() IS 'Trigger of openings: invalidates the detect_opening map.';
