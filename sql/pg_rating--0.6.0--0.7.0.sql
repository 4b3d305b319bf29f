-- pg_rating 0.6.0 -> 0.7.0: a games table with ledgers attached has one set of statement
-- triggers for all of them (pg_rating_ledgers_insert, _update, _delete, _truncate), in place of
-- one set per ledger (pg_rating_ledger_<id>_...): a statement's games are read once per ledger
-- but written for every ledger by one statement per derived table. tournament_pairings_from_trf takes
-- forbidden pairs. No table changes.

DO $$
DECLARE
    attached regclass;
    ledger int;
    op text;
    event text;
BEGIN
    FOR attached IN
        SELECT DISTINCT a.games FROM @extschema@.ledger_attachments a
        WHERE EXISTS (SELECT FROM pg_catalog.pg_class c WHERE c.oid = a.games)
    LOOP
        FOR ledger IN SELECT a.ledger_id FROM @extschema@.ledger_attachments a WHERE a.games = attached LOOP
            FOREACH op IN ARRAY ARRAY['insert', 'update', 'delete', 'truncate'] LOOP
                IF EXISTS (SELECT FROM pg_catalog.pg_trigger t WHERE t.tgrelid = attached
                           AND t.tgname = format('pg_rating_ledger_%s_%s', ledger, op)) THEN
                    EXECUTE format('DROP TRIGGER %I ON %s', format('pg_rating_ledger_%s_%s', ledger, op), attached);
                END IF;
            END LOOP;
        END LOOP;
        FOREACH op IN ARRAY ARRAY['insert', 'update', 'delete', 'truncate'] LOOP
            CONTINUE WHEN EXISTS (SELECT FROM pg_catalog.pg_trigger t WHERE t.tgrelid = attached
                                  AND t.tgname = 'pg_rating_ledgers_' || op);
            event := CASE op
                WHEN 'insert' THEN 'INSERT ON %s REFERENCING NEW TABLE AS pg_rating_new'
                WHEN 'update' THEN 'UPDATE ON %s REFERENCING OLD TABLE AS pg_rating_old NEW TABLE AS pg_rating_new'
                WHEN 'delete' THEN 'DELETE ON %s REFERENCING OLD TABLE AS pg_rating_old'
                ELSE 'TRUNCATE ON %s' END;
            EXECUTE format('CREATE TRIGGER %I AFTER ' || event
                           || ' FOR EACH STATEMENT EXECUTE FUNCTION @extschema@.ledger_games_changed()',
                           'pg_rating_ledgers_' || op, attached);
        END LOOP;
    END LOOP;
END
$$;

COMMENT ON FUNCTION ledger_games_changed() IS
    'Trigger of a games table with ledgers attached (one set per table, created by ledger_attach): keeps every '
    'ledger of the table equal to a replay of its games.';

DROP FUNCTION tournament_pairings_from_trf(text);
CREATE FUNCTION tournament_pairings_from_trf(trf text, forbidden_pairs int[] DEFAULT '{}')
    RETURNS TABLE (board int, white int, black int)
    IMMUTABLE STRICT PARALLEL SAFE
    LANGUAGE c AS 'MODULE_PATHNAME', 'tournament_pairings_from_trf_wrapper';
COMMENT ON FUNCTION tournament_pairings_from_trf(text, int[]) IS
    'The pairing of the round after the rounds in a TRF-16 text by the FIDE Dutch system (C.04.3, 2025 rules): '
    'one row per board (board from 1, white and black by starting rank), then the pairing-allocated bye, if any, '
    'as a row with black NULL. The round paired is the one after the last round with a game, a forfeit or a '
    'pairing-allocated bye; players whose line already has an entry for it (a requested bye, 0000 - Z for an '
    'absence) are not paired. XXR gives the number of rounds, XXC white1/black1 the top seed''s colour in round 1 '
    '(default white1); accelerated rounds from XXA lines (virtual points per round) or, without them, a '
    '192 FIDE_DUTCH_BAKU line (Baku acceleration, FIDE C.04.5.1), as bbpPairings reads them. Nothing is '
    'written. forbidden_pairs: starting ranks two by two (ARRAY[[1, 5], [2, 7]]), players who must not meet. '
    'Errors: malformed TRF 22023, every round paired 22023, a forbidden pair that is not two different players of '
    'the file 22023 (a NULL: 22004), no pairing that meets the absolute criteria 23514.';
