-- The privileges only a table's owner keeps on the Random Chess tables (TRIGGER everywhere;
-- UPDATE, DELETE, TRUNCATE and REFERENCES on the derived ones), as for the engine's tables:
-- taken back from default privileges now, and after every GRANT by the engine's event trigger
-- (sql/table_privileges.sql).
-- (after a check that no function made in the schema before has the name of one of
-- pg_rating_random_chess's)
SELECT @extschema@.refuse_function_namesakes();
SELECT @extschema@.restrict_table_privileges();
