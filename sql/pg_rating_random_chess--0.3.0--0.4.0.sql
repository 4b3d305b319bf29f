-- pg_rating_random_chess 0.3.0 -> 0.4.0: the Random Chess schema as an extension of its own.
-- Its tables and rows are unchanged. The one function that pinned its search_path the other way
-- round now pins it as every other function does, and the app role's grants cover the tables of
-- this extension (no longer those of pg_rating, which the app does not read).

ALTER FUNCTION load_lichess_openings(text) SET search_path = pg_catalog, @extschema@, pg_temp;

CREATE OR REPLACE FUNCTION grant_random_chess_app(app regrole) RETURNS void
LANGUAGE plpgsql VOLATILE STRICT
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    schema text := '@extschema@';
BEGIN
    EXECUTE format('GRANT USAGE ON SCHEMA %I TO %s', schema, app);
    -- the tables and views it reads
    EXECUTE (
        SELECT format('GRANT SELECT ON %s TO %s', string_agg(c.oid::regclass::text, ', ' ORDER BY c.relname), app)
        FROM pg_class c
        JOIN pg_depend d ON d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype = 'e'
        JOIN pg_extension x ON x.oid = d.refobjid AND x.extname = 'pg_rating_random_chess'
        WHERE c.relkind IN ('r', 'v'));
    -- what it records
    EXECUTE format('GRANT INSERT ON %I.service_games, %I.pgn_games, %I.service_accounts, %I.swiss_tournaments TO %s',
                   schema, schema, schema, schema, app);
    EXECUTE format('GRANT UPDATE ON %I.service_accounts TO %s', schema, app);
    EXECUTE format('GRANT USAGE ON SEQUENCE %I.service_games_id_seq, %I.pgn_games_id_seq, '
                   '%I.swiss_tournaments_tournament_id_seq TO %s', schema, schema, schema, app);
    EXECUTE format('GRANT EXECUTE ON FUNCTION %I.ranking_with_placement_at_timestamp(timestamptz, int) TO %s',
                   schema, app);
END
$$;

COMMENT ON FUNCTION grant_random_chess_app(regrole) IS
    'Grants an application role what the Random Chess app needs: SELECT on every table and view of the Random Chess schema, '
    'INSERT on service_games, pgn_games, service_accounts and swiss_tournaments, UPDATE on service_accounts, USAGE '
    'on their sequences, EXECUTE on ranking_with_placement_at_timestamp. Run by the extension''s owner.';
