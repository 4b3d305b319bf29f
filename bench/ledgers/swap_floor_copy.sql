-- The floor of a rebuild into fresh tables swapped in, written as a bulk writer writes (issue 33):
-- the ledger's rows, already computed and copied out in key order by binary COPY (not timed),
-- written by binary COPY into new tables of the same shape without indexes, and the indexes
-- built after, in one transaction, with room to sort in memory. No game is read, no rating
-- computed, no partition swapped. bench/ledgers_scale.sh sets :dir (a directory of the server's)
-- and times each statement after the first COMMIT.
\set entries_file :dir '/swap_entries.bin'
\set standings_file :dir '/swap_standings.bin'
COPY (SELECT * FROM ledger_entries ORDER BY ledger_id, scope, player, game_date, game_key) TO :'entries_file' (FORMAT binary);
COPY (SELECT * FROM ledger_standings ORDER BY ledger_id, scope, player) TO :'standings_file' (FORMAT binary);
CREATE TABLE copy_entries (LIKE ledger_entries INCLUDING DEFAULTS);
CREATE TABLE copy_standings (LIKE ledger_standings INCLUDING DEFAULTS) WITH (fillfactor = 50);
CHECKPOINT;
SET maintenance_work_mem = '1GB';
\timing on
BEGIN;
COPY copy_entries FROM :'entries_file' (FORMAT binary);
ALTER TABLE copy_entries ADD PRIMARY KEY (ledger_id, scope, player, game_date, game_key);
COPY copy_standings FROM :'standings_file' (FORMAT binary);
ALTER TABLE copy_standings ADD PRIMARY KEY (ledger_id, scope, player);
CREATE INDEX ON copy_standings (ledger_id, scope, rating DESC, player) WHERE games > 0;
COMMIT;
