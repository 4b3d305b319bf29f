-- The floor of a rebuild that rewrites every row (issue 33): the rows of the ledger, already
-- computed, deleted and written again in one transaction by plain SQL into tables of the same
-- shape, keys and indexes as pg_rating's (copies filled once beforehand, as the ledger's tables
-- are when it is rebuilt), in the order of their keys. No game is read and no rating computed.
-- This file makes the copies; bench/ledgers_scale.sh times the transaction.
CREATE TABLE floor_entries (LIKE ledger_entries INCLUDING INDEXES);
CREATE TABLE floor_standings (LIKE ledger_standings INCLUDING INDEXES) WITH (fillfactor = 50);
INSERT INTO floor_entries SELECT * FROM ledger_entries;
INSERT INTO floor_standings SELECT * FROM ledger_standings;
VACUUM ANALYZE floor_entries, floor_standings;
