-- The floor of a rebuild into fresh tables swapped in (issue 33): the ledger's rows, already
-- computed, written by plain SQL into new tables of the same shape without indexes, in the order
-- of their keys, and the tables' indexes built after, in one transaction. No game is read, no
-- rating computed, and the swap itself (a partition detached and attached) is not done: it only
-- adds to this. bench/ledgers_scale.sh times each statement.
BEGIN;
CREATE TABLE swap_entries (LIKE ledger_entries INCLUDING DEFAULTS);
INSERT INTO swap_entries SELECT * FROM ledger_entries ORDER BY ledger_id, scope, player, game_date, game_key;
ALTER TABLE swap_entries ADD PRIMARY KEY (ledger_id, scope, player, game_date, game_key);
CREATE TABLE swap_standings (LIKE ledger_standings INCLUDING DEFAULTS) WITH (fillfactor = 50);
INSERT INTO swap_standings SELECT * FROM ledger_standings ORDER BY ledger_id, scope, player;
ALTER TABLE swap_standings ADD PRIMARY KEY (ledger_id, scope, player);
CREATE INDEX ON swap_standings (ledger_id, scope, rating DESC, player) WHERE games > 0;
COMMIT;
