-- The recommended privileges of the Random Chess application's role: exactly what the app does.
-- It reads every table and view, records games (service and PGN), links accounts of other
-- services and creates tournaments; it writes nothing else. Derived tables (rating history,
-- standings) refuse every write that is not pg_rating's own, whatever a role is granted.

CREATE FUNCTION grant_random_chess_app(app regrole) RETURNS void
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
REVOKE ALL ON FUNCTION grant_random_chess_app(regrole) FROM PUBLIC;

COMMENT ON FUNCTION grant_random_chess_app(regrole) IS
    'Grants an application role what the Random Chess app needs: SELECT on every table and view of the Random Chess schema, '
    'INSERT on service_games, pgn_games, service_accounts and swiss_tournaments, UPDATE on service_accounts, USAGE '
    'on their sequences, EXECUTE on ranking_with_placement_at_timestamp. Run by the extension''s owner.';
