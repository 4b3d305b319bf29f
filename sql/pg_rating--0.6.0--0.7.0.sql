-- pg_rating 0.6.0 -> 0.7.0: a games table with ledgers attached has one set of statement
-- triggers for all of them (pg_rating_ledgers_insert, _update, _delete, _truncate), in place of
-- one set per ledger (pg_rating_ledger_<id>_...): a statement's games are read once per ledger
-- but written for every ledger by one statement per derived table. No table changes.

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
